//! An order of the chief arbiter's (a line of his letter: `RESULT 3 1-0`)
//! or of the tournament director's (a command: `shtempel result 3 1-0`):
//! one type per order, as mini-redis keeps one per command, each made from
//! the arbiter's line ([`Order::of_ruling`], in either language, the
//! reason after its words) or from the command line, and carried out by
//! its one function ([`Command::carry_out`]), which plans it or says why
//! not. [`Order`] is the sum of them, dispatched in one place
//! ([`Order::command`]). The letter's clerk answers the arbiter by mail
//! (`Clerk::plan_arbiter`), a receipt when it was done and the refusal
//! when not; the command line says it and exits 2.
//!
//! A file an order: `accept` (a refused letter taken after all), `decide`
//! (the arbiter's decision on an overstep), `replace` (a player replaced),
//! `retry` (letters set aside put back), `score` (a result set), `undo`
//! (a result taken back), `withdraw` (a player withdrawn), `login` (a
//! player's Xfcc login issued, the director's alone); `awards`: the
//! awarded results they share.

pub mod accept;
pub mod awards;
mod decide;
pub mod login;
pub mod replace;
pub mod retry;
mod score;
mod undo;
pub mod withdraw;

pub use self::accept::Accept;
pub use self::decide::Decide;
pub use self::login::IssueLogin;
pub use self::replace::{Replace, Whom};
pub use self::retry::Retry;
pub use self::score::Score;
pub use self::undo::Undo;
pub use self::withdraw::Withdraw;

use super::{AwardedBy, Plan};
use crate::clerk::Orders;
use crate::clerk::say::notice::Notice;
use crate::clerk::say::words::Sentence;
use crate::error::Error;
use crate::letter::{Ruling, WrittenOrder, accept_words};
use crate::mail::format::compose::Outgoing;
use crate::record::Record;
use crate::rules::interventions::Scored;
use crate::store::Store;

/// What every order does.
pub trait Command {
    /// The order as the command line names it, for its refusal: `game 3`,
    /// `withdraw ivanov`, `accept KEY`.
    fn named(&self) -> String;

    /// What makes the Message-IDs of its messages: the same order planned
    /// again after a crash makes the same ones. `taken_back`: the ply its
    /// plan takes the game back to, if it does.
    fn cause(&self, taken_back: Option<usize>) -> String;

    /// Carries it out in `clerk`'s tournament as `ordered`: its plan, or
    /// why not (`Err`: the store or the templates failed).
    fn carry_out(&self, clerk: &Orders, store: &Store, ordered: Ordered) -> Carried;
}

/// What carrying out an order comes to: done or refused; `Err` where the
/// store or the templates failed.
pub type Carried = Result<Execution, Error>;

/// Who gave an order, and the letter it came in: the chief arbiter's (its
/// Message-ID, which the order's messages answer), or the director's
/// command.
#[derive(Clone, Debug)]
pub struct Ordered {
    pub by: AwardedBy,
    pub in_reply_to: Option<String>,
}

impl Ordered {
    /// An order of the director's, by command.
    pub fn by_director() -> Ordered {
        Ordered {
            by: AwardedBy::Director,
            in_reply_to: None,
        }
    }

    /// An order of the chief arbiter's, in his letter `message_id`.
    pub fn by_arbiter(message_id: Option<String>) -> Ordered {
        Ordered {
            by: AwardedBy::Arbiter,
            in_reply_to: message_id,
        }
    }
}

/// An order, whichever it is.
#[derive(Clone, Debug)]
pub enum Order {
    Decide(Decide),
    Score(Score),
    Undo(Undo),
    Withdraw(Withdraw),
    Replace(Replace),
    Accept(Accept),
    Retry(Retry),
    IssueLogin(IssueLogin),
}

impl Order {
    /// The order of the chief arbiter's line, its tournament resolved.
    pub fn of_ruling(ruling: &Ruling) -> Order {
        let why = ruling.why.clone();
        match ruling.order.clone() {
            WrittenOrder::Overstep {
                decision,
                game,
                days,
            } => Order::Decide(Decide {
                game,
                decision,
                days,
                why,
            }),
            WrittenOrder::Result { game, result } => Order::Score(Score {
                game,
                scored: Scored::Result(result),
                why,
            }),
            WrittenOrder::Forfeit { game, result } => Order::Score(Score {
                game,
                scored: Scored::Forfeit(result),
                why,
            }),
            WrittenOrder::Undo { game } => Order::Undo(Undo { game, why }),
            WrittenOrder::Withdraw { player } => Order::Withdraw(Withdraw { player, why }),
            WrittenOrder::Replace { player, newcomer } => Order::Replace(Replace {
                player,
                whom: Whom::By(newcomer),
                why,
                language: None,
            }),
            WrittenOrder::Accept { key } => {
                let words = accept_words(ruling.why.as_deref());
                Order::Accept(Accept {
                    key,
                    moves: words.moves.map(str::to_string),
                    sender: words.player.map(str::to_string),
                    add_address: words.add_address,
                    game: None,
                    event_named: ruling.tournament.is_some(),
                    why: None,
                })
            }
            WrittenOrder::Retry { key } => Order::Retry(Retry { key }),
        }
    }

    /// The order as what it is.
    pub fn command(&self) -> &dyn Command {
        match self {
            Order::Decide(order) => order,
            Order::Score(order) => order,
            Order::Undo(order) => order,
            Order::Withdraw(order) => order,
            Order::Replace(order) => order,
            Order::Accept(order) => order,
            Order::Retry(order) => order,
            Order::IssueLogin(order) => order,
        }
    }

    pub fn named(&self) -> String {
        self.command().named()
    }

    pub fn cause<M>(&self, plan: &Plan<M>) -> String {
        self.command().cause(plan.writes.taken_back)
    }
}

/// An order not carried out: the words for whoever gave it, and the game
/// as it stays where the refusal is in one (a value, not an error: the
/// order is answered with it, and nothing changes).
#[derive(Clone, Debug)]
pub struct Refused {
    pub reason: Sentence,
    /// The game it was refused in (the rules refused: the game has that
    /// result already), shown as it is.
    pub state: Option<Box<Record>>,
    /// No such game (by command): the log says so, whatever the order.
    pub no_game: bool,
}

impl Refused {
    pub fn new(reason: Sentence) -> Refused {
        Refused {
            reason,
            state: None,
            no_game: false,
        }
    }

    /// Refused in `state`'s game, which stays as it is.
    pub fn in_game(reason: Sentence, state: Record) -> Refused {
        Refused {
            state: Some(Box::new(state)),
            ..Refused::new(reason)
        }
    }

    /// Refused for want of the game it names.
    pub fn no_game(reason: Sentence) -> Refused {
        Refused {
            no_game: true,
            ..Refused::new(reason)
        }
    }
}

/// Why an order's plan was not made: the one outcome of every order's
/// planning besides its plan (no `Result` inside a `Result`).
#[derive(Debug)]
pub enum NotDone {
    /// Refused: nothing changes.
    Refused(Refused),
    /// The store or the templates failed.
    Failed(Error),
}

impl From<Error> for NotDone {
    fn from(error: Error) -> NotDone {
        NotDone::Failed(error)
    }
}

impl From<Refused> for NotDone {
    fn from(refused: Refused) -> NotDone {
        NotDone::Refused(refused)
    }
}

/// What became of an order: decided (its plan's messages [`Notice`]s),
/// or said to their readers ([`Orders::carry_out`]).
pub enum Execution<M = Notice> {
    /// Planned: the plan, and the reason kept with the arbiter's letter.
    Done { plan: Box<Plan<M>>, reason: String },
    /// Not carried out: the refusal (the words for whoever gave the order,
    /// the game as it is where there is one) and the log's words. Nothing
    /// changes.
    Refused { refused: Refused, why: &'static str },
}

impl Execution {
    pub(super) fn refused(why: &'static str, reason: Sentence) -> Execution {
        Execution::Refused {
            refused: Refused::new(reason),
            why,
        }
    }

    /// An order's planning, as an outcome: `why` the log's words of a
    /// refusal, `reason` the kept letter's of the plan (given the game's
    /// id).
    pub(super) fn of(
        planned: Result<Plan, NotDone>,
        why: &'static str,
        reason: impl FnOnce(&str) -> String,
    ) -> Result<Execution, Error> {
        match planned {
            Ok(plan) => {
                let reason = reason(plan.writes.game.as_ref().map_or("", |state| state.id()));
                Ok(Execution::Done {
                    plan: Box::new(plan),
                    reason,
                })
            }
            Err(NotDone::Refused(refused)) => Ok(Execution::Refused {
                why: if refused.no_game { "no such game" } else { why },
                refused,
            }),
            Err(NotDone::Failed(error)) => Err(error),
        }
    }
}

impl Orders<'_, '_> {
    /// Carries out `order` as `ordered` (see [`Command::carry_out`]).
    pub fn carry_out(
        &self,
        store: &Store,
        order: &Order,
        ordered: Ordered,
    ) -> Result<Execution<Outgoing>, Error> {
        match self.carried_out(store, order, ordered)? {
            Execution::Done { plan, reason } => Ok(Execution::Done {
                plan: Box::new(self.said(store, *plan)?),
                reason,
            }),
            Execution::Refused { refused, why } => Ok(Execution::Refused { refused, why }),
        }
    }

    /// The order carried out in this clerk's words (an arbiter's letter's
    /// order: its whole letter's plan heeds its readers).
    pub(in crate::clerk) fn carried_out(
        &self,
        store: &Store,
        order: &Order,
        ordered: Ordered,
    ) -> Result<Execution, Error> {
        order.command().carry_out(self, store, ordered)
    }
}

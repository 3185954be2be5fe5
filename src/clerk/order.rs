//! An order of the chief arbiter's (a line of his letter: `RESULT 3 1-0`)
//! or of the tournament director's (a command: `shtempel result 3 1-0`):
//! one [`Order`], whichever way it came (issue 31), carried out by one
//! function, [`Clerk::carry_out`], which plans it or says why not. The
//! letter's clerk answers a refusal to the arbiter by mail
//! (`Clerk::plan_arbiter`); the command line says it and exits 2.

use super::{Acceptance, Award, AwardError, AwardedBy, Clerk, Plan};
use crate::error::Error;
use crate::letter::{Newcomer, Order as Said, Ruling, accept_words};
use crate::record::Record;
use crate::rules::{Decision, GameResult};
use crate::store::Store;

/// Who a replacement is of, or by.
#[derive(Clone, Debug)]
pub enum Whom {
    /// The entry has the newcomer already (`--was "Name <address>"`: the
    /// player he replaces).
    Was(String),
    /// The newcomer, whom the clerk writes into the entry (`--by`, the
    /// arbiter's `REPLACE`).
    By(Newcomer),
}

/// An order, as the arbiter's line or the director's command gives it.
#[derive(Clone, Debug)]
pub enum Order {
    /// A decision on an overstep (rules.md 2.5.5): `CONFIRM 3`, `REJECT 3 7`.
    Decide {
        game: String,
        decision: Decision,
        days: Option<u32>,
        /// The arbiter's reason after his words, told to the players.
        why: Option<String>,
    },
    /// A game's result set, or a forfeit scored (`RESULT`, `FORFEIT`).
    Award {
        game: String,
        result: GameResult,
        forfeit: bool,
        why: Option<String>,
    },
    /// A game's last letter taken back (`UNDO`).
    Undo { game: String, why: Option<String> },
    /// A player withdraws (`WITHDRAW`).
    Withdraw { player: String, why: Option<String> },
    /// A player replaced (`REPLACE`).
    Replace {
        player: String,
        whom: Whom,
        why: Option<String>,
    },
    /// A refused letter taken after all (`ACCEPT KEY`).
    Accept {
        key: String,
        /// The moves as the director reads them; `None`: as the clerk did.
        moves: Option<String>,
        /// The player (by id) whose letter it is, from an address of nobody's.
        sender: Option<String>,
        add_address: bool,
        /// The game, where the letter did not say it right.
        game: Option<String>,
        /// The tournament was named (`ACCEPT A KEY`, `--tournament A`): the
        /// letter is that event's, whatever else its writer plays.
        event_named: bool,
        why: Option<String>,
    },
    /// Letters set aside put back among the new ones (`RETRY KEY`, `RETRY
    /// ALL`).
    Retry { key: String },
}

impl Order {
    /// The order of the chief arbiter's line, its tournament resolved.
    pub fn of_ruling(ruling: &Ruling) -> Order {
        let game = ruling.game.clone();
        let why = ruling.why.clone();
        match ruling.order {
            Said::Overstep(decision) => Order::Decide {
                game,
                decision,
                days: ruling.days,
                why,
            },
            Said::Result(result) | Said::Forfeit(result) => Order::Award {
                game,
                result,
                forfeit: matches!(ruling.order, Said::Forfeit(_)),
                why,
            },
            Said::Undo => Order::Undo { game, why },
            Said::Withdraw => Order::Withdraw { player: game, why },
            Said::Replace => Order::Replace {
                player: game,
                whom: Whom::By(ruling.newcomer.clone().unwrap_or(Newcomer {
                    name: String::new(),
                    email: String::new(),
                })),
                why,
            },
            Said::Accept => {
                let words = accept_words(ruling.why.as_deref());
                Order::Accept {
                    key: game,
                    moves: words.moves.map(str::to_string),
                    sender: words.player.map(str::to_string),
                    add_address: words.add_address,
                    game: None,
                    event_named: ruling.tournament.is_some(),
                    why: None,
                }
            }
            Said::Retry => Order::Retry { key: game },
        }
    }

    /// The order as the command line names it, for its refusal: `game 3`,
    /// `withdraw ivanov`, `accept KEY`.
    pub fn named(&self) -> String {
        match self {
            Order::Decide { game, .. } | Order::Award { game, .. } | Order::Undo { game, .. } => {
                format!("game {game}")
            }
            Order::Withdraw { player, .. } => format!("withdraw {player}"),
            Order::Replace { player, .. } => format!("replace {player}"),
            Order::Accept { key, .. } => format!("accept {key}"),
            Order::Retry { key } => format!("retry {key}"),
        }
    }

    /// What makes the Message-IDs of its messages: the same order planned
    /// again after a crash makes the same ones.
    pub fn cause(&self, plan: &Plan) -> String {
        match self {
            Order::Decide { game, decision, .. } => format!("decision:{game}:{}", decision.code()),
            Order::Award {
                game,
                result,
                forfeit,
                ..
            } => format!(
                "award:{game}:{}:{}",
                result.pgn(),
                if *forfeit { "forfeit" } else { "result" }
            ),
            Order::Undo { game, .. } => format!("undo:{game}:{}", plan.taken_back.unwrap_or(0)),
            Order::Withdraw { player, .. } => format!("withdraw:{player}"),
            Order::Replace { player, whom, .. } => match whom {
                Whom::Was(was) => format!("replace:{player}:{was}"),
                Whom::By(newcomer) => {
                    format!("replace:{player}:by {} <{}>", newcomer.name, newcomer.email)
                }
            },
            Order::Accept { key, .. } => format!("accepted:{key}"),
            Order::Retry { key } => format!("retry:{key}"),
        }
    }
}

/// An order not carried out: the words for whoever gave it (a value, not
/// an error: the order is answered with them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

/// What became of an order.
pub enum Outcome {
    /// Planned: the plan, and the reason kept with the arbiter's letter.
    Done { plan: Box<Plan>, reason: String },
    /// Not carried out: the game as it is (where there is one), the log's
    /// words and the words for whoever gave the order. Nothing changes.
    Refused {
        state: Option<Box<Record>>,
        why: &'static str,
        reason: String,
    },
}

impl Outcome {
    fn refused(why: &'static str, reason: String) -> Outcome {
        Outcome::Refused {
            state: None,
            why,
            reason,
        }
    }

    /// An award's or an undo's planning, as an outcome; `reason` of the
    /// game's id.
    fn of_award(
        planned: Result<Plan, AwardError>,
        why: &'static str,
        reason: impl FnOnce(&str) -> String,
    ) -> Result<Outcome, Error> {
        match planned {
            Ok(plan) => {
                let reason = reason(plan.game.as_ref().map_or("", |state| state.id()));
                Ok(Outcome::Done {
                    plan: Box::new(plan),
                    reason,
                })
            }
            Err(AwardError::Refused(state, reason)) => Ok(Outcome::Refused {
                state: Some(state),
                why,
                reason,
            }),
            Err(AwardError::NoGame(reason)) => Ok(Outcome::refused("no such game", reason)),
            Err(AwardError::Failed(error)) => Err(error),
        }
    }
}

impl Clerk<'_> {
    /// Carries out `order` given `by` the chief arbiter or the director:
    /// its plan, or why not (`Err`: the store or the templates failed).
    /// `in_reply_to`: the arbiter's letter its messages answer.
    pub fn carry_out(
        &self,
        store: &Store,
        order: &Order,
        by: AwardedBy,
        in_reply_to: Option<String>,
    ) -> Result<Outcome, Error> {
        match order {
            Order::Decide {
                game,
                decision,
                days,
                why,
            } => self.decide(store, game, (*decision, *days, why.as_deref()), in_reply_to),
            Order::Award {
                game,
                result,
                forfeit,
                why,
            } => {
                let award = Award {
                    result: *result,
                    forfeit: *forfeit,
                    why: why.clone(),
                    by,
                };
                let planned = self.game_by_command(store, game).and_then(|state| {
                    let mut plan = Plan::default();
                    self.plan_award(state, &award, in_reply_to, &mut plan)?;
                    Ok(plan)
                });
                Outcome::of_award(planned, "result not changed", |id| {
                    format!("result {} {id}", result.pgn())
                })
            }
            Order::Undo { game, why } => {
                let planned = self.game_by_command(store, game).and_then(|state| {
                    let mut plan = Plan::default();
                    self.plan_undo(state, why.as_deref(), by, in_reply_to, &mut plan)?;
                    Ok(plan)
                });
                Outcome::of_award(planned, "nothing taken back", |id| format!("undo {id}"))
            }
            Order::Withdraw { player, why } => {
                Ok(match self.withdraw(store, player, why.as_deref(), by)? {
                    Err(Refused(reason)) => Outcome::refused("nothing withdrawn", reason),
                    Ok(plans) => Outcome::Done {
                        plan: Box::new(Plan::of_games(plans)),
                        reason: format!("withdrawal of {player}"),
                    },
                })
            }
            Order::Replace { player, whom, why } => {
                let planned = match whom {
                    Whom::Was(was) => self.replace(store, player, was, why.as_deref())?,
                    Whom::By(newcomer) => {
                        self.replace_named(store, player, Some(newcomer), why.as_deref())?
                    }
                };
                Ok(match planned {
                    Err(Refused(reason)) => Outcome::refused("nobody replaced", reason),
                    Ok(plan) => Outcome::Done {
                        plan: Box::new(plan),
                        reason: format!("replacement of {player}"),
                    },
                })
            }
            Order::Accept { .. } => self.accept_order(store, order, by),
            Order::Retry { key } => self.retry_order(store, key, in_reply_to),
        }
    }

    /// `ACCEPT KEY` (`shtempel accept KEY`): the letter of that key taken
    /// after all ([`Clerk::accept`]), in a plan of its own inside the order's.
    fn accept_order(&self, store: &Store, order: &Order, by: AwardedBy) -> Result<Outcome, Error> {
        let Order::Accept {
            key,
            moves,
            sender,
            add_address,
            game,
            event_named,
            why,
        } = order
        else {
            return Err(Error::internal("not an acceptance"));
        };
        let Some(kept) = store.letter_by_key(key).map_err(Error::database)? else {
            let reason = self.phrases().fill("reason.accept_no_key", &[("key", key)]);
            return Ok(Outcome::refused("no such letter", reason));
        };
        let moves = moves.as_deref().map(crate::letter::read);
        let acceptance = Acceptance {
            key,
            moves: moves.as_ref(),
            sender: sender.as_deref(),
            game: game.as_deref(),
            event_named: *event_named,
            why: why.as_deref(),
            add_address: *add_address,
            by,
        };
        Ok(match self.accept(store, &kept, &acceptance)? {
            Err(Refused(reason)) => Outcome::refused("not accepted", reason),
            Ok(mut accepted) => {
                let mut plan = Plan {
                    events: accepted.events.clone(),
                    ..Plan::default()
                };
                plan.config_edits.append(&mut accepted.config_edits);
                plan.more.push(accepted);
                Outcome::Done {
                    plan: Box::new(plan),
                    reason: format!("accept {key}"),
                }
            }
        })
    }
}

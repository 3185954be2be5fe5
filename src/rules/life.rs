//! A game's life as a state machine (rules.md 2.3–2.7): each event of a game
//! is a pure transition that takes the game's [`Ledger`], the event and the
//! day, and returns the next ledger with the [`Effect`]s (who must be told
//! what, as facts), or a [`Refusal`] with the ledger untouched.
//!
//! | event | function | clauses |
//! | --- | --- | --- |
//! | a move letter may be taken at all | [`admit_move`] | 10.3.2, 10.3.6 |
//! | a move letter, its moves on the board | [`move_letter`] | 10.3.1, 10.3.3, 10.3.5, 10.3.6 |
//! | a resignation | [`resign`] | 10.3.2 |
//! | a draw accepted | [`accept_draw`] | 10.3.2 |
//! | a protest of an overstep | [`protest`] | 10.3.8 |
//! | the chief arbiter's decision | [`rule`] | 10.3.7 |
//! | a result the chief arbiter sets, or a forfeit | [`award`] | 10.3.2, 10.3.7 |
//! | a game annulled on a withdrawal | [`annul`] | the regulation's |
//! | the last letter taken back | [`undo`] | the arbiter's |
//! | a letter of the offender during his suspension | [`offender_letter`] | 10.3.6 |
//! | a day of the calendar | [`day`] | 10.3.2, 10.3.4, 10.3.5, 10.3.8 |

use std::collections::BTreeSet;

use chrono::NaiveDate;
use serde::Serialize;
use shakmaty::Color;

use super::calendar::add_days;
use super::deadlines::{Duty, DutyKey, due};
use super::judge::{Incoming, Verdict, judge};
pub use super::orders::{annul, award, undo};
use super::{Due, Fraction, Ledger, Overstep, Rules, Status, Suspension};

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// `color` loses.
    pub fn loss_of(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// Half points `color` scored: 2, 1 or 0.
    pub fn halves(self, color: Color) -> u32 {
        match self.winner() {
            Some(winner) if winner == color => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Resignation,
    Agreement,
    Overstep,
    /// Set by the chief arbiter (an adjudication past the end date, 10.3.2,
    /// or a result the players reached otherwise).
    Ruling,
    /// A forfeit set by the chief arbiter: scored, not played (`+/-`).
    Forfeit,
}

impl EndReason {
    /// The reason as stored and as templates name it.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Overstep => "overstep",
            EndReason::Ruling => "ruling",
            EndReason::Forfeit => "forfeit",
        }
    }

    pub fn from_code(code: &str) -> Option<EndReason> {
        [
            EndReason::Checkmate,
            EndReason::Stalemate,
            EndReason::InsufficientMaterial,
            EndReason::Resignation,
            EndReason::Agreement,
            EndReason::Overstep,
            EndReason::Ruling,
            EndReason::Forfeit,
        ]
        .into_iter()
        .find(|reason| reason.code() == code)
    }
}

/// How a game ended: its result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub result: GameResult,
    pub reason: EndReason,
}

/// How the board ended a game (mate, stalemate, no mating material).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardEnd {
    Checkmate { winner: Color },
    Stalemate,
    InsufficientMaterial,
}

impl BoardEnd {
    pub fn outcome(self) -> Outcome {
        match self {
            BoardEnd::Checkmate { winner } => Outcome {
                result: GameResult::loss_of(!winner),
                reason: EndReason::Checkmate,
            },
            BoardEnd::Stalemate => Outcome {
                result: GameResult::Draw,
                reason: EndReason::Stalemate,
            },
            BoardEnd::InsufficientMaterial => Outcome {
                result: GameResult::Draw,
                reason: EndReason::InsufficientMaterial,
            },
        }
    }
}

/// What the rules know of a game besides its moves and its calendar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub status: Status,
    pub outcome: Option<Outcome>,
    pub suspension: Option<Suspension>,
    /// Penalty days not tied to a move (a wrong claim, 10.3.7).
    pub extra_penalty: Fraction,
    /// Days the chief arbiter excused when he found no overstep (10.3.7).
    pub credit: Fraction,
    /// The day play resumed after a suspension: no clock runs from before it.
    pub resumed_on: Option<NaiveDate>,
    /// A draw offered and not yet answered, by whom.
    pub draw_offer: Option<Color>,
    /// The partner's reply held during a suspension (its ply, 10.3.6).
    pub held_reply: Option<usize>,
}

/// Why an event cannot change the game; the ledger stays as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver(Outcome),
    /// Past the end date and with the arbiter for adjudication (10.3.2).
    PastEndDate,
    /// Suspended until the arbiter decides (10.3.6).
    Suspended,
    /// An acceptance with no draw offered.
    NoDrawOffered,
    /// A protest in a game with no overstep declared.
    NoOverstep,
    /// A protest from the player who claimed, not from the offender.
    NotTheOffender,
    /// A ruling on a game that waits for none.
    NotSuspended,
    /// A result set that the game already has.
    SameResult(Outcome),
    /// The game was annulled (a player withdrew): it is over and does not
    /// count.
    Annulled,
    /// No letter to take back: no move yet.
    NothingToUndo,
}

/// What must be told to whom, as facts: the clerk makes the messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The writer of a move letter gets his receipt (an ack, or a correction,
    /// warning or penalty by the letter's verdict). `held`: his move is held
    /// for the arbiter (10.3.6); `conditional_reply`: his partner's variant
    /// answered it at once (2.4a); `partner_direct`: the partner had the
    /// letter directly.
    Receipt {
        held: bool,
        conditional_reply: bool,
        partner_direct: bool,
    },
    /// The move goes to the partner (not when he had the letter directly and
    /// nothing was played for him).
    Forward { to: Color, last_ply: usize },
    /// A result, for both players and the chief secretary; `last_ply` the
    /// move that ended the game.
    Result {
        outcome: Outcome,
        last_ply: Option<usize>,
    },
    /// An overstep declared: the offender's registered notice, the partner's
    /// notice, the arbiter's file, the secretary's notice of the claim
    /// (10.3.6). `ply`: the overstepping move, when a letter brought it.
    Overstep {
        overstep: Overstep,
        ply: Option<usize>,
        protest_until: NaiveDate,
    },
    /// A letter received during a suspension goes to the arbiter (10.3.6):
    /// the partner's reply (`ply`, held), or any letter of the offender.
    Supplement { from: Color, ply: Option<usize> },
    /// The offender is told his letter went to the arbiter, the game being
    /// suspended until he decides, and until when a protest is taken.
    Withheld {
        protest_until: NaiveDate,
        protest_received: bool,
    },
    /// With the partner in copy (no forward), he is told what the clerk
    /// corrected in the letter he had directly (rules.md 2.3).
    PartnerCorrection { to: Color },
    /// A game added during the tournament begins: both players are told.
    GameStart,
    /// A protest goes to the arbiter (10.3.8).
    Protest {
        by: Color,
        late: bool,
        notice_on: NaiveDate,
        until: NaiveDate,
    },
    /// The arbiter's ruling, for both players and the secretary (10.3.7);
    /// `released` the held reply it delivers, `excused` the days it excused,
    /// `due` what the player to move owes once the decision (and the reply
    /// it releases) reached him that day (rules.md 2.5.6).
    Decision {
        decision: Decision,
        offender: Color,
        released: Option<usize>,
        excused: u32,
        due: Option<Due>,
    },
    /// An unanswered letter repeated by registered letter (10.3.4): its moves
    /// from `first` to `last`, the totals after it.
    Repeat {
        first: usize,
        last: usize,
        author: Color,
        totals: Fraction,
    },
    /// Black queries White's first move (10.3.4).
    Query,
    /// The player to move has few days left.
    Reminder {
        player: Color,
        threshold: u32,
        days_left: i64,
    },
    /// The protest period ended without a protest (10.3.8).
    NoProtest {
        offender: Color,
        notice_on: NaiveDate,
        until: NaiveDate,
    },
    /// The end date came without a result (10.3.2).
    Adjudication,
    /// The game was annulled: both players and the secretary are told.
    Annulled,
    /// The last letter's moves taken back (from ply `first`, by `author`);
    /// `due`: who is to move again, as of the day.
    Undone {
        first: usize,
        author: Color,
        due: Option<Due>,
    },
    /// The chief arbiter set the result (`previous`: the one it replaced),
    /// for both players and the secretary.
    Award {
        outcome: Outcome,
        previous: Option<Outcome>,
    },
}

/// The arbiter's decisions (rules.md 2.5.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The overstep stands: the offender loses.
    Confirm,
    /// No overstep: play on, the held reply released.
    Reject,
    /// The file is incomplete: play on.
    Continue,
}

impl Decision {
    pub fn code(self) -> &'static str {
        match self {
            Decision::Confirm => "confirm",
            Decision::Reject => "reject",
            Decision::Continue => "continue",
        }
    }
}

/// A game's next state and what it causes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    pub ledger: Ledger,
    pub effects: Vec<Effect>,
    /// Calendar duties this transition did (to be done once only).
    pub done: Vec<DutyKey>,
}

impl Transition {
    pub(super) fn of(ledger: Ledger, effects: Vec<Effect>) -> Transition {
        Transition {
            ledger,
            effects,
            done: Vec::new(),
        }
    }
}

impl Suspension {
    /// The last day a protest may bear as its postmark (10.3.8).
    pub fn protest_until(&self, rules: &Rules) -> NaiveDate {
        add_days(self.notice_on, rules.protest_days)
    }
}

impl Ledger {
    pub(super) fn finish(&mut self, outcome: Outcome) {
        self.standing.status = Status::Finished;
        self.standing.suspension = None;
        self.standing.outcome = Some(outcome);
        self.standing.draw_offer = None;
    }

    /// Suspends the game on `overstep`, found on `day` (10.3.6).
    fn suspend(
        &mut self,
        rules: &Rules,
        overstep: Overstep,
        ply: Option<usize>,
        day: NaiveDate,
    ) -> Effect {
        let suspension = Suspension {
            offender: overstep.offender,
            notice_on: day,
            protest_received: false,
            ply,
        };
        self.standing.status = Status::Suspended;
        self.standing.suspension = Some(suspension);
        Effect::Overstep {
            overstep,
            ply,
            protest_until: suspension.protest_until(rules),
        }
    }
}

/// Whether a move letter of `by` may be taken at all: not in a finished
/// game, not past the end date, and during a suspension only the partner's
/// reply, once (10.3.6).
pub fn admit_move(ledger: &Ledger, by: Color) -> Result<(), Refusal> {
    let standing = &ledger.standing;
    match standing.status {
        Status::Finished => Err(finished(ledger)),
        Status::Annulled => Err(Refusal::Annulled),
        Status::Adjudication => Err(Refusal::PastEndDate),
        Status::Suspended => {
            let offender = standing.suspension.map(|s| s.offender);
            if offender == Some(by) || standing.held_reply.is_some() {
                Err(Refusal::Suspended)
            } else {
                Ok(())
            }
        }
        Status::Active => Ok(()),
    }
}

pub(super) fn finished(ledger: &Ledger) -> Refusal {
    Refusal::GameOver(ledger.standing.outcome.unwrap_or(Outcome {
        result: GameResult::Draw,
        reason: EndReason::Agreement,
    }))
}

/// A move letter whose moves the board took: `plies` (the writer's, and the
/// conditional replies played between them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLetter {
    pub incoming: Incoming,
    /// The letter offers a draw.
    pub draw_offer: bool,
    /// The board ended the game with the letter's moves.
    pub end: Option<BoardEnd>,
    /// The partner's variant answered the writer's last move (2.4a).
    pub conditional_reply: bool,
}

/// A move letter (rules.md 2.3–2.5): its [`Verdict`] recorded; a draw offer
/// of the partner declined by the move, one of the writer's standing; then
/// one of four ends: during a suspension the reply is held for the arbiter; a
/// move that ends the game gives the result; an overstep suspends the game;
/// else the receipt and the forward.
pub fn move_letter(
    rules: &Rules,
    ledger: &Ledger,
    letter: &MoveLetter,
    day: NaiveDate,
) -> (Transition, Verdict) {
    let by = letter.incoming.by;
    let verdict = judge(rules, ledger, &letter.incoming);
    let first_ply = ledger.rows.len();
    let last_ply = first_ply
        + letter
            .incoming
            .plies
            .iter()
            .rposition(|ply| ply.by == by)
            .unwrap_or(0);
    let mut next = ledger.clone();
    next.record(&verdict);
    // A draw offer stands until the partner answers; his move without an
    // acceptance declines it.
    if next.standing.draw_offer == Some(!by) {
        next.standing.draw_offer = None;
    }
    if letter.draw_offer {
        next.standing.draw_offer = Some(by);
    }
    // The receipt of a reply held during a suspension.
    let withheld = |held| Effect::Receipt {
        held,
        conditional_reply: false,
        partner_direct: false,
    };
    let effects = if ledger.standing.status == Status::Suspended {
        next.standing.held_reply = Some(last_ply);
        vec![
            Effect::Supplement {
                from: by,
                ply: Some(last_ply),
            },
            withheld(true),
        ]
    } else if let Some(end) = letter.end {
        let outcome = end.outcome();
        next.finish(outcome);
        vec![Effect::Result {
            outcome,
            last_ply: Some(last_ply),
        }]
    } else if let Some(overstep) = verdict.overstep {
        // The offender gets the overstep notice only: his move stands and
        // goes to the partner with the hold notice (rules.md 2.5.1).
        vec![next.suspend(rules, overstep, Some(last_ply), day)]
    } else {
        let direct = letter.incoming.partner_direct;
        let mut effects = vec![Effect::Receipt {
            held: false,
            conditional_reply: letter.conditional_reply,
            partner_direct: direct,
        }];
        if !direct || letter.conditional_reply {
            effects.push(Effect::Forward { to: !by, last_ply });
        } else if !verdict.corrections.is_empty() {
            effects.push(Effect::PartnerCorrection { to: !by });
        }
        effects
    };
    (Transition::of(next, effects), verdict)
}

/// A letter of the offender during his suspension (10.3.6): it changes
/// nothing, goes to the arbiter, and he is told so; `None` for anyone else,
/// or a game not suspended.
pub fn offender_letter(rules: &Rules, ledger: &Ledger, by: Color) -> Option<Transition> {
    let suspension = ledger
        .standing
        .suspension
        .filter(|s| s.offender == by && ledger.standing.status == Status::Suspended)?;
    let effects = vec![
        Effect::Supplement {
            from: by,
            ply: None,
        },
        Effect::Withheld {
            protest_until: suspension.protest_until(rules),
            protest_received: suspension.protest_received,
        },
    ];
    Some(Transition::of(ledger.clone(), effects))
}

/// Why nothing more is taken in a game that is over, if it is.
fn over(ledger: &Ledger) -> Result<(), Refusal> {
    match ledger.standing.status {
        Status::Finished => Err(finished(ledger)),
        Status::Annulled => Err(Refusal::Annulled),
        _ => Ok(()),
    }
}

/// `by` resigns (10.3.2: a resignation is taken even past the end date).
pub fn resign(ledger: &Ledger, by: Color) -> Result<Transition, Refusal> {
    over(ledger)?;
    let mut next = ledger.clone();
    let outcome = Outcome {
        result: GameResult::loss_of(by),
        reason: EndReason::Resignation,
    };
    next.finish(outcome);
    Ok(Transition::of(
        next,
        vec![Effect::Result {
            outcome,
            last_ply: None,
        }],
    ))
}

/// `by` accepts a draw: the game is drawn when his partner offered one. With
/// no offer standing, a letter that also moves is a move letter (`Ok(None)`),
/// one that does not is refused.
pub fn accept_draw(ledger: &Ledger, by: Color, moves: bool) -> Result<Option<Transition>, Refusal> {
    over(ledger)?;
    if ledger.standing.draw_offer == Some(!by) {
        let mut next = ledger.clone();
        let outcome = Outcome {
            result: GameResult::Draw,
            reason: EndReason::Agreement,
        };
        next.finish(outcome);
        let effects = vec![Effect::Result {
            outcome,
            last_ply: None,
        }];
        return Ok(Some(Transition::of(next, effects)));
    }
    if moves {
        Ok(None)
    } else {
        Err(Refusal::NoDrawOffered)
    }
}

/// A protest of `by`, posted on `postmark` (10.3.8): only the offender
/// protests; one posted after the period is passed on, marked late.
pub fn protest(
    rules: &Rules,
    ledger: &Ledger,
    by: Color,
    postmark: NaiveDate,
) -> Result<Transition, Refusal> {
    let Some(suspension) = ledger.standing.suspension else {
        return Err(Refusal::NoOverstep);
    };
    if suspension.offender != by {
        return Err(Refusal::NotTheOffender);
    }
    let until = suspension.protest_until(rules);
    let mut next = ledger.clone();
    next.standing.suspension = Some(Suspension {
        protest_received: true,
        ..suspension
    });
    let effects = vec![Effect::Protest {
        by,
        late: postmark > until,
        notice_on: suspension.notice_on,
        until,
    }];
    Ok(Transition::of(next, effects))
}

/// The chief arbiter rules on a suspended game on `day` (10.3.7): confirmed,
/// the offender loses; rejected or continued, play resumes from `day` with
/// the disputed days excused (those he names, else the overstepping move's),
/// and the held reply is released.
pub fn rule(
    rules: &Rules,
    ledger: &Ledger,
    ruling: Decision,
    days: Option<u32>,
    day: NaiveDate,
) -> Result<Transition, Refusal> {
    let Some(suspension) = ledger
        .standing
        .suspension
        .filter(|_| ledger.standing.status == Status::Suspended)
    else {
        return Err(Refusal::NotSuspended);
    };
    let offender = suspension.offender;
    let mut next = ledger.clone();
    let released = ledger.standing.held_reply;
    let mut excused = 0;
    match ruling {
        Decision::Confirm => next.finish(Outcome {
            result: GameResult::loss_of(offender),
            reason: EndReason::Overstep,
        }),
        Decision::Reject | Decision::Continue => {
            excused = days.unwrap_or_else(|| {
                suspension
                    .ply
                    .and_then(|ply| ledger.rows.get(ply))
                    .map_or(0, |row| row.days)
            });
            let standing = &mut next.standing;
            standing.credit.add(offender, excused);
            standing.resumed_on = Some(day);
            standing.status = Status::Active;
            standing.suspension = None;
            standing.held_reply = None;
        }
    }
    let released = (ruling != Decision::Confirm).then_some(released).flatten();
    // The decision goes out today: the reply it releases reaches the
    // offender with it.
    let mut delivered = next.clone();
    if let Some(row) = released.and_then(|ply| delivered.rows.get_mut(ply)) {
        row.delivered_on.get_or_insert(day);
    }
    let effects = vec![Effect::Decision {
        decision: ruling,
        offender,
        released,
        excused,
        due: delivered.due(rules, day),
    }];
    Ok(Transition::of(next, effects))
}

/// A day of the calendar (rules.md 2.6): the duties due on `today` that are
/// not in `done`, each an effect; a silence that passes the limit suspends
/// the game, the end date sends it to adjudication.
pub fn day(
    rules: &Rules,
    ledger: &Ledger,
    today: NaiveDate,
    done: &BTreeSet<DutyKey>,
) -> Transition {
    let mut next = ledger.clone();
    let mut effects = Vec::new();
    let mut keys = Vec::new();
    for duty in due(rules, ledger, today, done) {
        keys.push(duty.key(ledger));
        let effect = match duty {
            Duty::Repeat { row, author } => {
                let first = ledger.rows[..=row]
                    .iter()
                    .rposition(|r| r.letter.is_some())
                    .unwrap_or(row);
                Effect::Repeat {
                    first,
                    last: row,
                    author,
                    totals: ledger.totals_through(row),
                }
            }
            Duty::FirstMoveQuery => Effect::Query,
            Duty::Reminder {
                player,
                threshold,
                days_left,
            } => Effect::Reminder {
                player,
                threshold,
                days_left,
            },
            Duty::SilentOverstep(overstep) => next.suspend(rules, overstep, None, today),
            Duty::NoProtest {
                offender,
                notice_on,
            } => Effect::NoProtest {
                offender,
                notice_on,
                until: ledger
                    .standing
                    .suspension
                    .map_or(notice_on, |s| s.protest_until(rules)),
            },
            Duty::Adjudication => {
                next.standing.status = Status::Adjudication;
                Effect::Adjudication
            }
            Duty::GameStart => Effect::GameStart,
        };
        effects.push(effect);
    }
    Transition {
        ledger: next,
        effects,
        done: keys,
    }
}

//! What must be told to whom, as facts (the clerk makes the messages), each
//! transition's own: what a move letter ([`MoveEffect`]), a day of the
//! calendar ([`DayEffect`]) and an offender's letter during his suspension
//! ([`OffenderEffect`]) can each cause.
//!
//! A transition that causes one thing only returns a [`Step`]: the new
//! ledger and that one effect, typed (a protest taken: [`Protested`]; the
//! arbiter's decision: [`Decided`]; a letter taken back: [`Undone`]; a
//! result set: [`Awarded`]; a game ended by a resignation or an agreed
//! draw: [`Ended`]; a game annulled: [`Annulled`]), so that no caller looks
//! it up in a list.

use chrono::NaiveDate;
use shakmaty::Color;

use super::{Decision, Due, Fraction, Ledger, Outcome, Overstep, Transition};

/// A transition that causes exactly one effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step<E> {
    pub ledger: Ledger,
    pub effect: E,
}

impl<E> Step<E> {
    /// The same step as a transition of its one effect.
    pub fn into_transition(self) -> Transition<E> {
        Transition::of(self.ledger, vec![self.effect])
    }
}

/// The offender's protest taken (10.3.6): `late` after `until`, the last
/// day of the protest that runs from the notice of `notice_on`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Protested {
    pub by: Color,
    pub late: bool,
    pub notice_on: NaiveDate,
    pub until: NaiveDate,
}

/// The arbiter's decision on an overstep (10.3.7): `released` the held
/// reply it delivers, `excused` the days it excused of the `asked` (no more
/// than had been charged to the offender), `due` what the player to move
/// owes once the decision (and the reply it releases) is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decided {
    pub decision: Decision,
    pub offender: Color,
    pub released: Option<usize>,
    pub excused: u32,
    pub asked: u32,
    pub due: Option<Due>,
}

/// A game's last letter taken back: its rows from `first`, written by
/// `author`; `due` what the player to move owes now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undone {
    pub first: usize,
    pub author: Color,
    pub due: Option<Due>,
}

/// A game ended by a letter (a resignation, a draw agreed): its result,
/// for both players and the chief secretary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    pub outcome: Outcome,
}

/// A game annulled: both players and the secretary are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Annulled;

/// The result the chief arbiter (or the director) set, and the one it
/// replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Awarded {
    pub outcome: Outcome,
    pub previous: Option<Outcome>,
}

/// What a move letter causes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveEffect {
    Receipt {
        held: bool,
        conditional_reply: bool,
        partner_direct: bool,
    },
    Forward {
        to: Color,
        last_ply: usize,
    },
    Result {
        outcome: Outcome,
        last_ply: Option<usize>,
    },
    Overstep {
        overstep: Overstep,
        ply: Option<usize>,
        protest_until: NaiveDate,
    },
    Supplement {
        from: Color,
        ply: Option<usize>,
    },
    PartnerCorrection {
        to: Color,
    },
}

/// What a day of the calendar causes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DayEffect {
    Repeat {
        first: usize,
        last: usize,
        author: Color,
        totals: Fraction,
    },
    Query,
    GameStart,
    Reminder {
        player: Color,
        threshold: u32,
        days_left: i64,
    },
    Overstep {
        overstep: Overstep,
        ply: Option<usize>,
        protest_until: NaiveDate,
    },
    NoProtest {
        offender: Color,
        notice_on: NaiveDate,
        until: NaiveDate,
    },
    Adjudication,
}

/// What a letter of the offender during his suspension causes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OffenderEffect {
    Supplement {
        from: Color,
    },
    Withheld {
        protest_until: NaiveDate,
        protest_received: bool,
    },
}

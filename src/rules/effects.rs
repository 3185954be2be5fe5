//! What the transitions that cause several kinds of effect can each cause:
//! a move letter ([`MoveEffect`]), a day of the calendar ([`DayEffect`]),
//! an offender's letter during his suspension ([`OffenderEffect`]). Each
//! is one of [`Effect`]'s, and widens into it.
//!
//! A transition that causes one thing only returns a [`Step`]: the new
//! ledger and that one effect, typed (a protest taken: [`Protested`]; the
//! arbiter's decision: [`Decided`]; a letter taken back: [`Undone`]; a
//! result set: [`Awarded`]), so that no caller looks it up in a list.

use chrono::NaiveDate;
use shakmaty::Color;

use super::{Decision, Due, Effect, Fraction, Ledger, Outcome, Overstep, Transition};

/// A transition that causes exactly one effect.
#[derive(Clone, Debug)]
pub struct Step<E> {
    pub ledger: Ledger,
    pub effect: E,
}

impl<E: Into<Effect>> Step<E> {
    /// The same step as any transition's: its one effect in the list.
    pub fn widen(self) -> Transition {
        Transition::of(self.ledger, vec![self.effect.into()])
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

/// The result the chief arbiter (or the director) set, and the one it
/// replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Awarded {
    pub outcome: Outcome,
    pub previous: Option<Outcome>,
}

impl From<Protested> for Effect {
    fn from(p: Protested) -> Effect {
        let Protested {
            by,
            late,
            notice_on,
            until,
        } = p;
        Effect::Protest {
            by,
            late,
            notice_on,
            until,
        }
    }
}

impl From<Decided> for Effect {
    fn from(d: Decided) -> Effect {
        let Decided {
            decision,
            offender,
            released,
            excused,
            asked,
            due,
        } = d;
        Effect::Decision {
            decision,
            offender,
            released,
            excused,
            asked,
            due,
        }
    }
}

impl From<Undone> for Effect {
    fn from(u: Undone) -> Effect {
        let Undone { first, author, due } = u;
        Effect::Undone { first, author, due }
    }
}

impl From<Awarded> for Effect {
    fn from(a: Awarded) -> Effect {
        let Awarded { outcome, previous } = a;
        Effect::Award { outcome, previous }
    }
}

/// What a move letter causes (its fields are [`Effect`]'s of that name).
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

/// What a day of the calendar causes (its fields are [`Effect`]'s).
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

impl From<MoveEffect> for Effect {
    fn from(effect: MoveEffect) -> Effect {
        match effect {
            MoveEffect::Receipt {
                held,
                conditional_reply,
                partner_direct,
            } => Effect::Receipt {
                held,
                conditional_reply,
                partner_direct,
            },
            MoveEffect::Forward { to, last_ply } => Effect::Forward { to, last_ply },
            MoveEffect::Result { outcome, last_ply } => Effect::Result { outcome, last_ply },
            MoveEffect::Overstep {
                overstep,
                ply,
                protest_until,
            } => Effect::Overstep {
                overstep,
                ply,
                protest_until,
            },
            MoveEffect::Supplement { from, ply } => Effect::Supplement { from, ply },
            MoveEffect::PartnerCorrection { to } => Effect::PartnerCorrection { to },
        }
    }
}

impl From<DayEffect> for Effect {
    fn from(effect: DayEffect) -> Effect {
        match effect {
            DayEffect::Repeat {
                first,
                last,
                author,
                totals,
            } => Effect::Repeat {
                first,
                last,
                author,
                totals,
            },
            DayEffect::Query => Effect::Query,
            DayEffect::GameStart => Effect::GameStart,
            DayEffect::Reminder {
                player,
                threshold,
                days_left,
            } => Effect::Reminder {
                player,
                threshold,
                days_left,
            },
            DayEffect::Overstep {
                overstep,
                ply,
                protest_until,
            } => Effect::Overstep {
                overstep,
                ply,
                protest_until,
            },
            DayEffect::NoProtest {
                offender,
                notice_on,
                until,
            } => Effect::NoProtest {
                offender,
                notice_on,
                until,
            },
            DayEffect::Adjudication => Effect::Adjudication,
        }
    }
}

impl From<OffenderEffect> for Effect {
    fn from(effect: OffenderEffect) -> Effect {
        match effect {
            OffenderEffect::Supplement { from } => Effect::Supplement { from, ply: None },
            OffenderEffect::Withheld {
                protest_until,
                protest_received,
            } => Effect::Withheld {
                protest_until,
                protest_received,
            },
        }
    }
}

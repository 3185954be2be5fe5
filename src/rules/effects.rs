//! What the transitions that cause several kinds of effect can each cause:
//! a move letter ([`MoveEffect`]), a day of the calendar ([`DayEffect`]),
//! an offender's letter during his suspension ([`OffenderEffect`]). Each
//! is one of [`Effect`]'s, and widens into it.

use chrono::NaiveDate;
use shakmaty::Color;

use super::{Effect, Fraction, Outcome, Overstep};

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

//! One move letter judged: its thinking time, the corrections of what it stated
//! (10.3.1), its omissions and penalties (10.3.3) and an overstep (10.3.5).

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::LetterFacts;
use super::dates::{DateItem, Item, Placement, StatedDates};
use super::{Fraction, Ledger, Row, Rules};

/// Everything a move letter states about time.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stated {
    pub dates: StatedDates,
    pub fraction: Option<Fraction>,
    /// `Previous dates:`: the dates the previous letter left out (10.3.3).
    pub previous: Option<StatedDates>,
}

/// The dates a letter should state, by the postmarks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expected {
    /// d1: `sent_on` of the letter answered (none for White's first letter).
    pub partner_postmark: Option<NaiveDate>,
    /// d2: `delivered_on` of the letter answered.
    pub received: Option<NaiveDate>,
    /// d3: the postmark of this letter.
    pub sent: NaiveDate,
}

impl Expected {
    pub fn get(&self, item: DateItem) -> Option<NaiveDate> {
        match item {
            DateItem::PartnerPostmark => self.partner_postmark,
            DateItem::Received => self.received,
            DateItem::Sent => Some(self.sent),
        }
    }
}

/// A move the letter makes (or the clerk plays from a variant), in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPly {
    pub by: Color,
    pub san: String,
    /// Played from the partner's variant: costs its author nothing (2.4a).
    pub conditional: bool,
}

/// The facts of a new move letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Incoming {
    pub by: Color,
    /// `sent_on(L)`: the postmark.
    pub sent_on: NaiveDate,
    pub stated: Stated,
    /// The moves it makes, the writer's own and any conditional replies between them.
    pub plies: Vec<NewPly>,
    /// The partner was a direct recipient (To/Cc): he got it on `sent_on`.
    pub partner_direct: bool,
    /// How the move reached the clerk: a letter, or the clerk's Xfcc server.
    pub channel: Channel,
}

/// How a move reached the clerk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Channel {
    /// A letter: it states its dates and fraction, and the clerk checks them
    /// (10.3.1, 10.3.3).
    #[default]
    Letter,
    /// The clerk's Xfcc server took it from the player's chess program. It
    /// states nothing, the clerk knowing every date itself, so nothing is
    /// corrected and nothing is omitted. The move it answers reached the
    /// player when its forward was accepted or when the server first showed
    /// it to him (`shown_on`), whichever was first.
    Xfcc { shown_on: Option<NaiveDate> },
}

impl Channel {
    /// `ledger` as a letter by `player` over this channel sees it: for a move
    /// by Xfcc, the move it answers delivered on the first day the player
    /// had it (`None` where that changes nothing).
    fn delivered_first(self, ledger: &Ledger, player: Color) -> Option<Ledger> {
        let Channel::Xfcc {
            shown_on: Some(shown),
        } = self
        else {
            return None;
        };
        let answered = ledger.answered_by(player)?;
        let first = answered.delivered_on.map_or(shown, |on| on.min(shown));
        if answered.delivered_on == Some(first) {
            return None;
        }
        let mut seen = ledger.clone();
        if let Some(row) = seen.rows.last_mut() {
            row.delivered_on = Some(first);
        }
        Some(seen)
    }
}

/// A stated value that differs from the clerk's (10.3.1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Correction {
    /// A date: the right one, and for d2/d3 the effect on the writer's time
    /// (positive: he has used more days than his dates say).
    Date {
        item: Item,
        stated: NaiveDate,
        actual: NaiveDate,
        effect_days: Option<i64>,
    },
    /// A total in the fraction; `clock_start`, the writer's late clock
    /// start where his days for this letter counted from it (the reason
    /// said with the correction).
    Total {
        #[serde(with = "crate::color_serde")]
        player: Color,
        stated: u32,
        actual: u32,
        #[serde(skip_serializing_if = "Option::is_none")]
        clock_start: Option<NaiveDate>,
        /// The days of leave (his or his partner's) left out of the
        /// writer's days for this letter, where there were any: the reason
        /// his total is fewer than his dates count.
        #[serde(skip_serializing_if = "Option::is_none")]
        leave_days: Option<u32>,
        /// The day play resumed after a decision, where the writer's days
        /// counted from it rather than from the day the move reached him.
        #[serde(skip_serializing_if = "Option::is_none")]
        resumed_on: Option<NaiveDate>,
    },
}

/// A letter that left out a required value (10.3.3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Omission {
    /// The player's first omission in the game: he is told what is missing.
    Warning { missing: Vec<Item> },
    /// A later one: `days` penalty days (0 when `auto_penalty` is off and the
    /// right to charge them is only reported).
    Penalty { missing: Vec<Item>, days: u32 },
}

impl Omission {
    pub fn missing(&self) -> &[Item] {
        match self {
            Omission::Warning { missing } | Omission::Penalty { missing, .. } => missing,
        }
    }
}

/// Time overstepped (10.3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Overstep {
    #[serde(with = "crate::color_serde")]
    pub offender: Color,
    pub total: u32,
    pub limit: u32,
    /// Moves counted (made, or made plus the one owed for a silence).
    pub moves: u32,
}

/// What the rules say of one letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The rows to add to the ledger, one per move.
    pub rows: Vec<Row>,
    pub expected: Expected,
    /// Thinking days of the letter.
    pub days: u32,
    /// Penalty days charged with it.
    pub penalty: u32,
    /// The fraction the letter should have stated (with this move's days, before
    /// this letter's penalty).
    pub fraction: Fraction,
    /// Totals after the letter, penalty included.
    pub totals: Fraction,
    pub corrections: Vec<Correction>,
    pub omission: Option<Omission>,
    pub overstep: Option<Overstep>,
    /// How dates given without saying which they are were taken.
    pub placement: Option<Placement>,
}

/// Judges a move letter against the ledger as it stands before the letter.
pub fn judge(rules: &Rules, ledger: &Ledger, letter: &Incoming) -> Verdict {
    let player = letter.by;
    let seen = letter.channel.delivered_first(ledger, player);
    let ledger = seen.as_ref().unwrap_or(ledger);
    let cal = &ledger.calendar;
    let answered = ledger.answered_by(player);
    // A partner's move not yet forwarded can only have reached the writer
    // directly, so its postmark is the best evidence of its delivery.
    let answered_dates = answered.map(|row| (row.sent_on, row.delivered_on.unwrap_or(row.sent_on)));
    let expected = Expected {
        partner_postmark: answered_dates.map(|(sent, _)| sent),
        received: answered_dates.map(|(_, delivered)| delivered),
        sent: letter.sent_on,
    };

    let Plied {
        mut after,
        days,
        late_start,
        on_leave,
        resumed_from,
    } = with_plies(ledger, letter);
    let fraction = after.totals();

    let mut checked = Checked::default();
    // A move by Xfcc states nothing: there is nothing to check.
    if letter.channel == Channel::Letter {
        let counted = Counted {
            writer: player,
            late_start,
            on_leave,
            resumed_from,
        };
        checked = check_stated(ledger, letter, (&expected, fraction), counted);
    }
    let Checked {
        missing,
        corrections,
        placement,
    } = checked;

    let omission = omission(rules, ledger, player, &missing);
    let penalty = match omission {
        Some(Omission::Penalty { days, .. }) => days,
        _ => 0,
    };

    let first_own = ledger.rows.len()
        + letter
            .plies
            .iter()
            .position(|ply| ply.by == player)
            .unwrap_or(0);
    if let Some(row) = after.rows.get_mut(first_own) {
        row.penalty = penalty;
        row.letter = Some(LetterFacts {
            expected,
            omission: omission.is_some(),
            missing_dates: missing
                .iter()
                .filter_map(|item| match item {
                    Item::Date(date) => Some(*date),
                    _ => None,
                })
                .collect(),
        });
    }
    let totals = after.totals();
    let moves = after.moves_made(player);
    let limit = rules.limit(moves);
    let overstep =
        (letter.sent_on < cal.end_date && totals.get(player) > limit).then_some(Overstep {
            offender: player,
            total: totals.get(player),
            limit,
            moves,
        });

    Verdict {
        rows: after.rows.split_off(ledger.rows.len()),
        expected,
        days,
        penalty,
        fraction,
        totals,
        corrections,
        omission,
        overstep,
        placement,
    }
}

/// What the checks of a letter's stated values found: what it left out,
/// what it stated wrong, how its unlabelled dates were taken.
#[derive(Default)]
struct Checked {
    missing: Vec<Item>,
    corrections: Vec<Correction>,
    placement: Option<Placement>,
}

/// A letter's dates, restated dates and fraction checked against the
/// clerk's (10.3.1, 10.3.3).
fn check_stated(
    ledger: &Ledger,
    letter: &Incoming,
    (expected, fraction): (&Expected, Fraction),
    counted: Counted,
) -> Checked {
    let mut missing = Vec::new();
    let mut corrections = Vec::new();
    let own_placement = check_dates(
        &ledger.calendar,
        letter.by,
        &letter.stated,
        (expected, counted.resumed_from),
        &mut missing,
        &mut corrections,
    );
    let previous_placement = check_restated(
        ledger,
        letter.by,
        letter.stated.previous.as_ref(),
        &mut missing,
        &mut corrections,
    );
    check_fraction(
        letter.stated.fraction,
        fraction,
        counted,
        &mut missing,
        &mut corrections,
    );
    Checked {
        missing,
        corrections,
        placement: both_placements(own_placement, previous_placement),
    }
}

/// How the letter's own unplaced dates and its restated previous ones were
/// taken, as one placement: certain only where both were.
fn both_placements(own: Option<Placement>, previous: Option<Placement>) -> Option<Placement> {
    match (own, previous) {
        (Some(mut own), Some(previous)) => {
            own.placed.extend(previous.placed);
            own.certain &= previous.certain;
            Some(own)
        }
        (own, previous) => own.or(previous),
    }
}

/// The ledger with the letter's moves added, each with its thinking days
/// (none for a conditional move, 2.4a), the writer's days in all, and his
/// late clock start where they counted from it. Every move but the last
/// reached its reader with the letter; the last, only when the partner had
/// the letter directly.
fn with_plies(ledger: &Ledger, letter: &Incoming) -> Plied {
    let cal = &ledger.calendar;
    let mut after = ledger.clone();
    let mut days = 0;
    let mut late_start = None;
    let mut on_leave = 0;
    let mut resumed_from = None;
    for (index, ply) in letter.plies.iter().enumerate() {
        let last = index + 1 == letter.plies.len();
        let row_days = if ply.conditional {
            0
        } else {
            let from = after
                .answered_by(ply.by)
                .map(|row| row.delivered_on.unwrap_or(row.sent_on));
            let counted_from = after.clock_from(from);
            if ply.by == letter.by && counted_from != from {
                resumed_from = resumed_from.or(counted_from);
            }
            let from = counted_from;
            if ply.by == letter.by {
                late_start = late_start.or(cal.late_start_counted(ply.by, from));
                on_leave += cal.leave_days_left_out(ply.by, from, letter.sent_on);
            }
            cal.thinking_days(ply.by, from, letter.sent_on)
        };
        if ply.by == letter.by {
            days += row_days;
        }
        after.rows.push(Row {
            by: ply.by,
            san: ply.san.clone(),
            conditional: ply.conditional,
            sent_on: letter.sent_on,
            delivered_on: (!last || letter.partner_direct).then_some(letter.sent_on),
            days: row_days,
            penalty: 0,
            letter: None,
        });
    }
    Plied {
        after,
        days,
        late_start,
        on_leave,
        resumed_from,
    }
}

/// The ledger with a letter's plies, and what the writer's days for it
/// were counted from: his days, his late clock start where they counted
/// from it, the days of leave left out of them.
struct Plied {
    after: Ledger,
    days: u32,
    late_start: Option<NaiveDate>,
    on_leave: u32,
    resumed_from: Option<NaiveDate>,
}

/// How the writer's days for a letter were counted, as a correction of his
/// total says.
struct Counted {
    writer: Color,
    late_start: Option<NaiveDate>,
    on_leave: u32,
    resumed_from: Option<NaiveDate>,
}

/// The stated fraction against the true one (10.3.1); none is an omission.
/// A correction of the writer's own total carries his late clock start
/// where his days counted from it, and the days of leave left out of them.
fn check_fraction(
    stated: Option<Fraction>,
    fraction: Fraction,
    counted: Counted,
    missing: &mut Vec<Item>,
    corrections: &mut Vec<Correction>,
) {
    let Some(stated) = stated else {
        missing.push(Item::Fraction);
        return;
    };
    for color in [Color::White, Color::Black] {
        if stated.get(color) != fraction.get(color) {
            corrections.push(Correction::Total {
                player: color,
                stated: stated.get(color),
                actual: fraction.get(color),
                clock_start: counted.late_start.filter(|_| color == counted.writer),
                leave_days: (color == counted.writer && counted.on_leave > 0)
                    .then_some(counted.on_leave),
                resumed_on: counted.resumed_from.filter(|_| color == counted.writer),
            });
        }
    }
}

/// What leaving out `missing` is (10.3.3): the player's first omission in
/// the game a warning, a later one the penalty (charged only with
/// `auto_penalty`).
fn omission(rules: &Rules, ledger: &Ledger, player: Color, missing: &[Item]) -> Option<Omission> {
    if missing.is_empty() {
        return None;
    }
    let missing = missing.to_vec();
    Some(if ledger.has_omitted(player) {
        let days = if rules.auto_penalty {
            rules.penalty_days
        } else {
            0
        };
        Omission::Penalty { missing, days }
    } else {
        Omission::Warning { missing }
    })
}

/// The letter's own three dates against the postmarks.
///
/// Where the writer's days counted from the day play resumed (the move
/// reached him before a suspension), that day is a right received date
/// too: his lines give it, since his days count from it.
fn check_dates(
    cal: &super::Calendar,
    player: Color,
    stated: &Stated,
    (expected, resumed_on): (&Expected, Option<NaiveDate>),
    missing: &mut Vec<Item>,
    corrections: &mut Vec<Correction>,
) -> Option<Placement> {
    let first_letter = expected.partner_postmark.is_none();
    let required: &[DateItem] = if first_letter {
        &[DateItem::Sent]
    } else {
        &[
            DateItem::PartnerPostmark,
            DateItem::Received,
            DateItem::Sent,
        ]
    };
    let days_with = |received: Option<NaiveDate>, sent: NaiveDate| {
        i64::from(cal.thinking_days(player, received, sent))
    };
    let actual_days = days_with(expected.received, expected.sent);
    let (dates, placement) = stated
        .dates
        .placed(required, |item| expected.get(item), Item::Date);
    for &item in required {
        let Some(actual) = expected.get(item) else {
            continue;
        };
        let Some(written) = dates.get(item) else {
            missing.push(Item::Date(item));
            continue;
        };
        if written == actual || (item == DateItem::Received && Some(written) == resumed_on) {
            continue;
        }
        let effect_days = match item {
            DateItem::PartnerPostmark => None,
            DateItem::Received => Some(actual_days - days_with(Some(written), expected.sent)),
            DateItem::Sent => Some(actual_days - days_with(expected.received, written)),
        };
        corrections.push(Correction::Date {
            item: Item::Date(item),
            stated: written,
            actual,
            effect_days,
        });
    }
    placement
}

/// The dates the writer's previous letter left out must come now (10.3.3).
fn check_restated(
    ledger: &Ledger,
    player: Color,
    previous: Option<&StatedDates>,
    missing: &mut Vec<Item>,
    corrections: &mut Vec<Correction>,
) -> Option<Placement> {
    let (_, row) = ledger.last_letter_of(player)?;
    let facts = row.letter.as_ref()?;
    let (previous, placement) = match previous {
        Some(dates) => {
            let (dates, placement) = dates.placed(
                &facts.missing_dates,
                |item| facts.expected.get(item),
                Item::Previous,
            );
            (Some(dates), placement)
        }
        None => (None, None),
    };
    for &item in &facts.missing_dates {
        let Some(actual) = facts.expected.get(item) else {
            continue;
        };
        match previous.as_ref().and_then(|dates| dates.get(item)) {
            None => missing.push(Item::Previous(item)),
            Some(written) if written != actual => corrections.push(Correction::Date {
                item: Item::Previous(item),
                stated: written,
                actual,
                effect_days: None,
            }),
            Some(_) => {}
        }
    }
    placement
}

impl Ledger {
    /// Adds a judged letter's moves to the ledger.
    pub fn record(&mut self, verdict: &Verdict) {
        self.rows.extend(verdict.rows.iter().cloned());
    }

    /// Sets the delivery date of the last move once the clerk's forward (or its
    /// notice of a conditional move) has been accepted.
    pub fn delivered(&mut self, on: NaiveDate) {
        if let Some(row) = self.rows.last_mut() {
            row.delivered_on.get_or_insert(on);
        }
    }
}

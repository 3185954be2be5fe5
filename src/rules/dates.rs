//! The dates a letter states (10.3.1), and how dates given without saying
//! which they are are placed by the postmarks.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// One of the three dates a letter states (10.3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DateItem {
    /// d1: the partner's sending date, by the postmark of his letter.
    PartnerPostmark,
    /// d2: the date the partner's letter arrived.
    Received,
    /// d3: the date of one's own reply.
    Sent,
}

/// A value a letter must state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    Date(DateItem),
    Fraction,
    /// A date of the previous letter that it left out and this one must restate.
    Previous(DateItem),
}

/// Dates as a player wrote them (already resolved to calendar dates).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatedDates {
    pub postmark: Option<NaiveDate>,
    pub received: Option<NaiveDate>,
    pub sent: Option<NaiveDate>,
    /// Dates given in order without saying which they are (two of the three):
    /// [`place`]d by the postmarks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unplaced: Vec<NaiveDate>,
}

impl StatedDates {
    pub fn get(&self, item: DateItem) -> Option<NaiveDate> {
        match item {
            DateItem::PartnerPostmark => self.postmark,
            DateItem::Received => self.received,
            DateItem::Sent => self.sent,
        }
    }

    fn slot(&mut self, item: DateItem) -> &mut Option<NaiveDate> {
        match item {
            DateItem::PartnerPostmark => &mut self.postmark,
            DateItem::Received => &mut self.received,
            DateItem::Sent => &mut self.sent,
        }
    }

    /// These dates with the unplaced ones put on `items`, and how.
    pub(super) fn placed(
        &self,
        items: &[DateItem],
        expected: impl Fn(DateItem) -> Option<NaiveDate>,
        kind: fn(DateItem) -> Item,
    ) -> (StatedDates, Option<Placement>) {
        let mut dates = self.clone();
        let any_placed = [self.postmark, self.received, self.sent]
            .iter()
            .any(Option::is_some);
        if self.unplaced.is_empty() || any_placed {
            return (dates, None);
        }
        let (placed, certain) = place(&self.unplaced, items, expected);
        for &(item, date) in &placed {
            *dates.slot(item) = Some(date);
        }
        let unused = self
            .unplaced
            .iter()
            .copied()
            .filter(|date| !placed.iter().any(|(_, used)| used == date))
            .collect();
        let placement = Placement {
            placed: placed
                .into_iter()
                .map(|(item, date)| (kind(item), date))
                .collect(),
            certain,
            unused,
        };
        (dates, Some(placement))
    }
}

/// How dates given without saying which they are were taken.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Placement {
    /// Each date, in the order written, with what it was taken for.
    pub placed: Vec<(Item, NaiveDate)>,
    /// No other way of taking them fits the postmarks as well.
    pub certain: bool,
    /// Dates written beyond those the letter states (two for White's first
    /// move, which states only the day it is sent): taken for nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unused: Vec<NaiveDate>,
}

/// Puts `dates`, in their written order, on `items` (in theirs), the way that
/// differs least from the `expected` dates (10.3.1 lists the dates in this
/// order, so a letter that leaves one out keeps the order of the others).
/// Items left over are the ones missing. Says whether the best way is the only
/// best one.
pub fn place(
    dates: &[NaiveDate],
    items: &[DateItem],
    expected: impl Fn(DateItem) -> Option<NaiveDate>,
) -> (Vec<(DateItem, NaiveDate)>, bool) {
    let count = dates.len().min(items.len());
    let cost = |item: DateItem, date: NaiveDate| {
        expected(item).map_or(0, |e| (date - e).num_days().unsigned_abs())
    };
    // Every order-keeping choice of `count` items (and of `count` dates,
    // should there be more dates than items).
    let choices = |len: usize| -> Vec<Vec<usize>> {
        (0u32..1 << len)
            .filter(|mask| mask.count_ones() as usize == count)
            .map(|mask| (0..len).filter(|i| mask & (1 << i) != 0).collect())
            .collect()
    };
    let mut best: Option<(u64, Vec<(DateItem, NaiveDate)>)> = None;
    let mut ties = 0;
    for item_choice in choices(items.len()) {
        for date_choice in choices(dates.len()) {
            let pairs: Vec<(DateItem, NaiveDate)> = item_choice
                .iter()
                .zip(&date_choice)
                .map(|(&i, &d)| (items[i], dates[d]))
                .collect();
            let total: u64 = pairs.iter().map(|&(item, date)| cost(item, date)).sum();
            match &best {
                Some((least, _)) if total > *least => {}
                Some((least, _)) if total == *least => ties += 1,
                _ => {
                    best = Some((total, pairs));
                    ties = 0;
                }
            }
        }
    }
    let placed = best.map(|(_, pairs)| pairs).unwrap_or_default();
    (placed, ties == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    /// Dates written beyond the items a letter states are named as taken
    /// for nothing; the ones taken are not.
    #[test]
    fn dates_beyond_the_letters_items_are_unused() {
        let cases: [(&[NaiveDate], &[DateItem], &[NaiveDate]); 3] = [
            // White's first letter: only the day it is sent.
            (&[day(2), day(3)], &[DateItem::Sent], &[day(2)]),
            // Two of three: both taken.
            (
                &[day(1), day(3)],
                &[DateItem::Received, DateItem::Sent],
                &[],
            ),
            // Four for three.
            (
                &[day(1), day(2), day(3), day(9)],
                &[
                    DateItem::PartnerPostmark,
                    DateItem::Received,
                    DateItem::Sent,
                ],
                &[day(9)],
            ),
        ];
        let expected = |item| match item {
            DateItem::PartnerPostmark => Some(day(1)),
            DateItem::Received => Some(day(2)),
            DateItem::Sent => Some(day(3)),
        };
        for (written, items, unused) in cases {
            let stated = StatedDates {
                unplaced: written.to_vec(),
                ..StatedDates::default()
            };
            let (dates, placement) = stated.placed(items, expected, Item::Date);
            let placement = placement.expect("placed");
            assert_eq!(placement.unused, unused, "{written:?} on {items:?}");
            assert_eq!(dates.sent, Some(day(3)), "{written:?}");
        }
    }
}

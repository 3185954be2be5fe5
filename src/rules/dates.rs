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
        let placement = Placement {
            placed: placed
                .into_iter()
                .map(|(item, date)| (kind(item), date))
                .collect(),
            certain,
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

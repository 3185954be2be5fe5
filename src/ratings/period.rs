//! The periods a list is published for: months, quarters or years of the
//! calendar (a game's days are its tournament's, so a period's are too).

use chrono::{Datelike, NaiveDate};
use serde::{Deserialize, Serialize};

/// How long a rating period is (`[ratings] period`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Period {
    Month,
    #[default]
    Quarter,
    Year,
}

impl Period {
    /// Its name, as the file writes it.
    pub fn name(self) -> &'static str {
        match self {
            Period::Month => "month",
            Period::Quarter => "quarter",
            Period::Year => "year",
        }
    }

    pub fn from_name(name: &str) -> Option<Period> {
        [Period::Month, Period::Quarter, Period::Year]
            .into_iter()
            .find(|period| period.name() == name)
    }

    fn months(self) -> u32 {
        match self {
            Period::Month => 1,
            Period::Quarter => 3,
            Period::Year => 12,
        }
    }

    /// The period `day` falls in.
    pub fn of(self, day: NaiveDate) -> Span {
        let months = self.months();
        let month = (day.month0() / months) * months + 1;
        let first = NaiveDate::from_ymd_opt(day.year(), month, 1).unwrap_or(day);
        let next = first
            .checked_add_months(chrono::Months::new(months))
            .unwrap_or(NaiveDate::MAX);
        Span {
            first,
            last: next.pred_opt().unwrap_or(next),
            period: self,
        }
    }
}

/// One period: its first and last day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub first: NaiveDate,
    pub last: NaiveDate,
    period: Period,
}

impl Span {
    /// The period after it.
    pub fn next(self) -> Span {
        self.period.of(self.last.succ_opt().unwrap_or(self.last))
    }

    /// Its name in a list: `2027-01`, `2027-Q1`, `2027`.
    pub fn label(self) -> String {
        match self.period {
            Period::Month => self.first.format("%Y-%m").to_string(),
            Period::Quarter => format!("{}-Q{}", self.first.year(), self.first.month0() / 3 + 1),
            Period::Year => self.first.year().to_string(),
        }
    }

    pub fn contains(self, day: NaiveDate) -> bool {
        (self.first..=self.last).contains(&day)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn a_day_falls_in_its_month_quarter_and_year() {
        let table = [
            (
                Period::Month,
                "2027-02-14",
                "2027-02-01",
                "2027-02-28",
                "2027-02",
            ),
            (
                Period::Month,
                "2028-02-29",
                "2028-02-01",
                "2028-02-29",
                "2028-02",
            ),
            (
                Period::Quarter,
                "2027-03-31",
                "2027-01-01",
                "2027-03-31",
                "2027-Q1",
            ),
            (
                Period::Quarter,
                "2027-04-01",
                "2027-04-01",
                "2027-06-30",
                "2027-Q2",
            ),
            (
                Period::Quarter,
                "2027-12-31",
                "2027-10-01",
                "2027-12-31",
                "2027-Q4",
            ),
            (
                Period::Year,
                "2027-07-04",
                "2027-01-01",
                "2027-12-31",
                "2027",
            ),
        ];
        for (period, day, first, last, label) in table {
            let span = period.of(d(day));
            assert_eq!((span.first, span.last), (d(first), d(last)), "{day}");
            assert_eq!(span.label(), label);
            assert!(span.contains(d(day)));
        }
        let q4 = Period::Quarter.of(d("2027-11-05"));
        assert_eq!(q4.next().label(), "2028-Q1");
        assert_eq!(q4.next().first, d("2028-01-01"));
    }
}

//! Leave: section 10.3 has none; many regulations do
//! (ICCF: 45 days a calendar year). With `[rules] leave_days_per_year = N`
//! (0: none), a player's letter `LEAVE 10.12.2026 - 20.12.2026` stops the
//! clocks of his games for those days ([`Calendar::leaves`]): no time is
//! charged to either player, and the repeats, queries and reminders count
//! only the other days. This module decides whether a leave asked is
//! taken.
//!
//! [`Calendar::leaves`]: super::Calendar

use chrono::{Datelike, NaiveDate};

use super::Rules;
use super::calendar::days;

/// Why a leave is not taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeaveRefusal {
    /// The tournament grants none.
    NoLeave,
    /// Its last day is before its first.
    Backwards,
    /// It begins before the letter was sent (its postmark).
    Past,
    /// It is a leave of his already taken, day for day: nothing to do.
    Granted,
    /// It overlaps a leave of his already taken.
    Overlaps { first: NaiveDate, last: NaiveDate },
    /// Over the year's allowance: `asked` days of `year` were asked and
    /// `left` were left.
    OverAllowance { year: i32, asked: u32, left: u32 },
    /// It runs past the tournament's last day (`end`): no game's clock
    /// runs after it to be stopped.
    AfterEnd { end: NaiveDate },
}

/// The days of a leave (first and last included).
pub fn length((first, last): (NaiveDate, NaiveDate)) -> u32 {
    u32::try_from(days(first, last) + 1).unwrap_or(0)
}

/// The days of `leave` that fall in `year`.
fn in_year((first, last): (NaiveDate, NaiveDate), year: i32) -> u32 {
    let (Some(start), Some(end)) = (
        NaiveDate::from_ymd_opt(year, 1, 1),
        NaiveDate::from_ymd_opt(year, 12, 31),
    ) else {
        return 0;
    };
    let (first, last) = (first.max(start), last.min(end));
    if last < first {
        0
    } else {
        length((first, last))
    }
}

/// Whether the leave `asked`, in a letter posted on `postmark`, is taken
/// beside the player's leaves `taken`: its length in days if it is.
pub fn check(
    rules: &Rules,
    taken: &[(NaiveDate, NaiveDate)],
    asked: (NaiveDate, NaiveDate),
    postmark: NaiveDate,
    end: NaiveDate,
) -> Result<u32, LeaveRefusal> {
    let (first, last) = asked;
    if rules.leave_days_per_year == 0 {
        return Err(LeaveRefusal::NoLeave);
    }
    if last < first {
        return Err(LeaveRefusal::Backwards);
    }
    if taken.contains(&asked) {
        return Err(LeaveRefusal::Granted);
    }
    if first < postmark {
        return Err(LeaveRefusal::Past);
    }
    if last > end {
        return Err(LeaveRefusal::AfterEnd { end });
    }
    if let Some(&(first, last)) = taken.iter().find(|&&(f, l)| f <= asked.1 && asked.0 <= l) {
        return Err(LeaveRefusal::Overlaps { first, last });
    }
    for year in first.year()..=last.year() {
        let used: u32 = taken.iter().map(|&leave| in_year(leave, year)).sum();
        let left = rules.leave_days_per_year.saturating_sub(used);
        let wanted = in_year(asked, year);
        if wanted > left {
            return Err(LeaveRefusal::OverAllowance {
                year,
                asked: wanted,
                left,
            });
        }
    }
    Ok(length(asked))
}

/// A seat's leaves as its successor on `day` has them: the leaver's days
/// before `day` stay (they stopped the clock while he played), none after.
pub fn ended_before(
    leaves: &[(NaiveDate, NaiveDate)],
    day: NaiveDate,
) -> Vec<(NaiveDate, NaiveDate)> {
    let Some(before) = day.pred_opt() else {
        return Vec::new();
    };
    leaves
        .iter()
        .filter(|(first, _)| *first < day)
        .map(|&(first, last)| (first, last.min(before)))
        .collect()
}

/// The leave of `taken` in force on `day`, if one is.
pub fn in_force(
    taken: &[(NaiveDate, NaiveDate)],
    day: NaiveDate,
) -> Option<(NaiveDate, NaiveDate)> {
    taken
        .iter()
        .copied()
        .find(|&(first, last)| (first..=last).contains(&day))
}

/// The days of leave he has left in `year`.
pub fn left_in(rules: &Rules, taken: &[(NaiveDate, NaiveDate)], year: i32) -> u32 {
    let used: u32 = taken.iter().map(|&leave| in_year(leave, year)).sum();
    rules.leave_days_per_year.saturating_sub(used)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leave_is_in_force_from_its_first_day_to_its_last() {
        let day = |d: u32| NaiveDate::from_ymd_opt(2026, 12, d).unwrap();
        let taken = [(day(10), day(20))];
        for (on, expected) in [
            (9, None),
            (10, Some(taken[0])),
            (20, Some(taken[0])),
            (21, None),
        ] {
            assert_eq!(in_force(&taken, day(on)), expected, "on the {on}th");
        }
    }
    use crate::rules::Calendar;
    use shakmaty::Color;

    fn d(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn a_replaced_seats_leaves_end_the_day_before_its_successor_came() {
        let leaves = [
            (d("2026-11-01"), d("2026-11-05")),
            (d("2026-11-10"), d("2026-11-20")),
            (d("2026-11-25"), d("2026-11-30")),
        ];
        let kept = ended_before(&leaves, d("2026-11-15"));
        assert_eq!(
            kept,
            [
                (d("2026-11-01"), d("2026-11-05")),
                (d("2026-11-10"), d("2026-11-14"))
            ]
        );
        assert_eq!(ended_before(&leaves, d("2026-11-10")).len(), 1);
    }

    #[test]
    fn a_leave_is_taken_within_the_allowance_and_refused_otherwise() {
        let rules = Rules {
            leave_days_per_year: 45,
            ..Rules::default()
        };
        let taken = [(d("2026-11-20"), d("2026-11-29"))]; // 10 days of 2026
        let post = d("2026-12-01");
        let end = d("2028-11-01");
        let table = [
            (("2026-12-10", "2026-12-20"), Ok(11)),
            (("2026-12-01", "2026-12-01"), Ok(1)),
            (("2026-12-20", "2026-12-10"), Err(LeaveRefusal::Backwards)),
            // The same leave again, even once it has begun, is the one taken.
            (("2026-11-20", "2026-11-29"), Err(LeaveRefusal::Granted)),
            (("2026-11-25", "2026-11-29"), Err(LeaveRefusal::Past)),
            (("2026-11-30", "2026-12-05"), Err(LeaveRefusal::Past)),
            // 35 days of 2026 are left: 31 in December fit, 36 do not.
            (("2026-12-01", "2026-12-31"), Ok(31)),
            (("2026-12-01", "2027-01-05"), Ok(36)),
            (
                ("2026-12-01", "2027-02-20"),
                Err(LeaveRefusal::OverAllowance {
                    year: 2027,
                    asked: 51,
                    left: 45,
                }),
            ),
        ];
        for ((first, last), expected) in table {
            let got = check(&rules, &taken, (d(first), d(last)), post, end);
            assert_eq!(got, expected, "{first} - {last}");
        }
        // Overlapping one taken, and over 2026's 35 days left.
        let later = [(d("2026-12-10"), d("2026-12-20"))];
        assert_eq!(
            check(
                &rules,
                &later,
                (d("2026-12-15"), d("2026-12-25")),
                post,
                end
            ),
            Err(LeaveRefusal::Overlaps {
                first: d("2026-12-10"),
                last: d("2026-12-20")
            })
        );
        let used = [(d("2026-12-02"), d("2026-12-30"))]; // 29 days
        assert_eq!(
            check(&rules, &used, (d("2026-12-31"), d("2026-12-31")), post, end),
            Ok(1)
        );
        let full = [(d("2026-11-01"), d("2026-12-14"))]; // 44 days
        assert_eq!(
            check(&rules, &full, (d("2026-12-20"), d("2026-12-21")), post, end),
            Err(LeaveRefusal::OverAllowance {
                year: 2026,
                asked: 2,
                left: 1
            })
        );
        assert_eq!(left_in(&rules, &full, 2026), 1);
        let off = Rules::default();
        assert_eq!(
            check(&off, &[], (d("2026-12-10"), d("2026-12-20")), post, end),
            Err(LeaveRefusal::NoLeave)
        );
    }

    #[test]
    fn a_leave_past_the_tournaments_last_day_is_refused() {
        let rules = Rules {
            leave_days_per_year: 45,
            ..Rules::default()
        };
        let (post, end) = (d("2026-12-01"), d("2026-12-31"));
        let after = Err(LeaveRefusal::AfterEnd { end });
        // (first, last) -> taken or refused
        let table = [
            (("2026-12-20", "2026-12-31"), Ok(12)),
            (("2026-12-20", "2027-01-05"), after.clone()),
            (("2027-01-02", "2027-01-05"), after),
        ];
        for ((first, last), expected) in table {
            let got = check(&rules, &[], (d(first), d(last)), post, end);
            assert_eq!(got, expected, "{first} - {last}");
        }
    }

    #[test]
    fn no_clock_runs_on_a_day_of_leave() {
        let cal = Calendar::on_time(d("2026-11-01"), d("2028-11-01"))
            .with_leaves(vec![(d("2026-12-10"), d("2026-12-20"))]);
        // (received, sent, days charged)
        let table = [
            ("2026-12-01", "2026-12-05", 4),
            ("2026-12-01", "2026-12-10", 8),
            ("2026-12-01", "2026-12-21", 9),
            ("2026-12-12", "2026-12-15", 0),
            ("2026-12-12", "2026-12-22", 2),
            ("2026-12-20", "2026-12-21", 1),
        ];
        for (received, sent, charged) in table {
            let got = cal.thinking_days(Color::Black, Some(d(received)), d(sent));
            assert_eq!(got, charged, "{received} to {sent}");
        }
        // 40 days after 1 December count 11 more: 21 January.
        assert_eq!(cal.counted_after(d("2026-12-01"), 40), d("2027-01-21"));
        assert_eq!(cal.counted_after(d("2026-12-01"), 8), d("2026-12-09"));
        assert_eq!(cal.counted_after(d("2026-12-01"), 9), d("2026-12-21"));
        assert_eq!(cal.counted_after(d("2026-12-12"), 0), d("2026-12-12"));
        assert_eq!(cal.counted_after(d("2026-12-12"), 1), d("2026-12-21"));
    }
}

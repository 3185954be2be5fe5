//! Calendar days in the tournament zone and each player's start (10.3.2).

use chrono::{DateTime, Days as ChronoDays, NaiveDate, TimeZone};
use chrono_tz::Tz;
use shakmaty::{ByColor, Color};

/// `days(a, b)` is `b - a` in whole calendar days (negative when `b` is earlier).
pub fn days(a: NaiveDate, b: NaiveDate) -> i64 {
    (b - a).num_days()
}

/// The calendar date, in the tournament zone, of the moment a letter reached our
/// mail server: its postmark (rules.md 2.1).
pub fn postmark_date<Z: TimeZone>(moment: &DateTime<Z>, zone: Tz) -> NaiveDate {
    moment.with_timezone(&zone).date_naive()
}

/// The dates that frame one game: the tournament's start and end and the day each
/// player's clock may start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Calendar {
    /// The game's start date: the tournament's, or a later one of a game
    /// added during the tournament.
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    /// `start_P`: the start date, or the day after a late start sheet arrived.
    pub start: ByColor<NaiveDate>,
    /// The game starts after the tournament did: its players are told when
    /// it begins.
    pub late_start: bool,
    /// Days of leave of either player (`[rules] leave_days_per_year`), first
    /// and last day of each, in order: no clock of the game runs on them.
    pub leaves: Vec<(NaiveDate, NaiveDate)>,
}

/// The day a player's clock starts (10.3.2): the start date, or the day
/// after his start sheet reached him where that was later.
pub fn clock_start(start_date: NaiveDate, sheet_received: Option<NaiveDate>) -> NaiveDate {
    match sheet_received {
        Some(day) if day > start_date => day.checked_add_days(ChronoDays::new(1)).unwrap_or(day),
        _ => start_date,
    }
}

impl Calendar {
    /// A calendar where each player's start follows 10.3.2: a start sheet received
    /// after the start date moves that player's start to the day after.
    pub fn new(
        start_date: NaiveDate,
        end_date: NaiveDate,
        sheet_received: ByColor<Option<NaiveDate>>,
    ) -> Calendar {
        let start = sheet_received.map(|received| clock_start(start_date, received));
        Calendar {
            start_date,
            end_date,
            start,
            late_start: false,
            leaves: Vec::new(),
        }
    }

    /// The calendar of a game added during the tournament, starting on
    /// `game_start` (after the tournament's `tournament_start`).
    pub fn starting(self, tournament_start: NaiveDate) -> Calendar {
        Calendar {
            late_start: self.start_date > tournament_start,
            ..self
        }
    }

    /// The calendar with these leaves of its players.
    pub fn with_leaves(self, mut leaves: Vec<(NaiveDate, NaiveDate)>) -> Calendar {
        leaves.sort();
        Calendar { leaves, ..self }
    }

    /// The last day of the leave `day` is in, if it is a day of leave.
    pub fn leave_through(&self, day: NaiveDate) -> Option<NaiveDate> {
        self.leaves
            .iter()
            .filter(|&&(first, last)| first <= day && day <= last)
            .map(|&(_, last)| last)
            .max()
    }

    /// The days of leave after `from` up to and including `to`.
    fn leave_days(&self, from: NaiveDate, to: NaiveDate) -> i64 {
        self.leaves
            .iter()
            .map(|&(first, last)| {
                let first = first.max(add_days(from, 1));
                let last = last.min(to);
                days(first, last).max(-1) + 1
            })
            .sum()
    }

    /// The day by which `n` days have counted after `day`, days of leave
    /// not counting: `day + n` without leave.
    pub fn counted_after(&self, day: NaiveDate, n: u32) -> NaiveDate {
        let mut end = add_days(day, n);
        loop {
            // Each day of leave up to the end so far pushes it on by one.
            let later = add_days(
                add_days(day, n),
                u32::try_from(self.leave_days(day, end)).unwrap_or(0),
            );
            if later == end {
                return end;
            }
            end = later;
        }
    }

    /// Both players start on the start date.
    pub fn on_time(start_date: NaiveDate, end_date: NaiveDate) -> Calendar {
        Calendar::new(start_date, end_date, ByColor::new_with(|_| None))
    }

    /// The player's late clock start (10.3.2) where his thinking days from
    /// `from` count from it: his start sheet reached him after the start
    /// date, and counting would otherwise begin before (at the start date,
    /// or on an earlier day his partner's move reached him).
    pub fn late_start_counted(&self, player: Color, from: Option<NaiveDate>) -> Option<NaiveDate> {
        let start = *self.start.get(player);
        (start > self.start_date && from.is_none_or(|day| day < start)).then_some(start)
    }

    /// The days of leave [`Calendar::thinking_days`] leaves out of the same
    /// span: what a correction of his total names as its reason.
    pub fn leave_days_left_out(
        &self,
        player: Color,
        from: Option<NaiveDate>,
        to: NaiveDate,
    ) -> u32 {
        let start = *self.start.get(player);
        let from = from.map_or(start, |day| day.max(start));
        if from >= self.end_date || from >= to {
            return 0;
        }
        u32::try_from(self.leave_days(from, to).max(0)).unwrap_or(u32::MAX)
    }

    /// Thinking days from `from` (a delivery, or nothing for White's first move) to
    /// `to` for `player`: never before his start, never negative. A move that
    /// reached him on the end date or later costs nothing; one that reached
    /// him before it is charged in full, however late he answers (10.3.2
    /// speaks of the day the reply was received). The same day gives 0
    /// (10.3.1).
    pub fn thinking_days(&self, player: Color, from: Option<NaiveDate>, to: NaiveDate) -> u32 {
        let start = *self.start.get(player);
        let from = from.map_or(start, |day| day.max(start));
        if from >= self.end_date {
            return 0;
        }
        let counted = days(from, to) - self.leave_days(from, to);
        u32::try_from(counted.max(0)).unwrap_or(u32::MAX)
    }
}

/// `day + n` days, saturating at chrono's last date instead of failing.
pub fn add_days(day: NaiveDate, n: u32) -> NaiveDate {
    day.checked_add_days(ChronoDays::new(u64::from(n)))
        .unwrap_or(NaiveDate::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{FixedOffset, Utc};

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    /// Howard Hinnant's days_from_civil: an implementation independent of chrono.
    fn civil_day_number(y: i64, m: i64, day: i64) -> i64 {
        let y = if m <= 2 { y - 1 } else { y };
        let era = if y >= 0 { y } else { y - 399 } / 400;
        let yoe = y - era * 400;
        let mp = (m + 9) % 12;
        let doy = (153 * mp + 2) / 5 + day - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        era * 146_097 + doe - 719_468
    }

    /// A late start sheet's clock start is what the days count from only
    /// where counting would begin before it.
    #[test]
    fn a_late_clock_start_counts_where_it_is_later() {
        let late = Calendar::new(
            d("2026-11-01"),
            d("2027-11-01"),
            ByColor {
                white: None,
                black: Some(d("2026-11-05")),
            },
        );
        // (player, counting would begin, the late start it counts from)
        let table = [
            (Color::Black, None, Some(d("2026-11-06"))),
            (Color::Black, Some(d("2026-11-03")), Some(d("2026-11-06"))),
            (Color::Black, Some(d("2026-11-06")), None),
            (Color::Black, Some(d("2026-11-09")), None),
            (Color::White, None, None),
            (Color::White, Some(d("2026-11-03")), None),
        ];
        for (player, from, expected) in table {
            assert_eq!(
                late.late_start_counted(player, from),
                expected,
                "{player:?} {from:?}"
            );
        }
    }

    #[test]
    fn days_agrees_with_chrono_and_an_independent_count() {
        use chrono::Datelike;
        let anchors = [
            "2026-11-01",
            "2027-02-28",
            "2028-02-28",
            "2028-02-29",
            "1999-12-31",
        ];
        for a in anchors {
            let a = d(a);
            for offset in [0i64, 1, 2, 27, 28, 29, 30, 31, 59, 60, 365, 366, 400, 800] {
                let b = a + chrono::Duration::days(offset);
                assert_eq!(days(a, b), offset, "days({a}, {b})");
                assert_eq!(days(b, a), -offset, "days({b}, {a})");
                assert_eq!(
                    days(a, b),
                    (b - a).num_days(),
                    "chrono disagrees for {a}..{b}"
                );
                let independent =
                    civil_day_number(b.year().into(), b.month().into(), b.day().into())
                        - civil_day_number(a.year().into(), a.month().into(), a.day().into());
                assert_eq!(
                    days(a, b),
                    independent,
                    "civil count disagrees for {a}..{b}"
                );
            }
        }
    }

    #[test]
    fn postmark_is_the_date_in_the_tournament_zone() {
        // 21:30 UTC on 3 November is already 4 November in Moscow (UTC+3).
        let moment = Utc.with_ymd_and_hms(2026, 11, 3, 21, 30, 0).unwrap();
        assert_eq!(
            postmark_date(&moment, chrono_tz::Europe::Moscow),
            d("2026-11-04")
        );
        assert_eq!(
            postmark_date(&moment, chrono_tz::Europe::London),
            d("2026-11-03")
        );
        // Same moment written with a +05:00 offset: same date in Moscow.
        let shifted = moment.with_timezone(&FixedOffset::east_opt(5 * 3600).unwrap());
        assert_eq!(
            postmark_date(&shifted, chrono_tz::Europe::Moscow),
            d("2026-11-04")
        );
    }

    #[test]
    fn late_start_sheet_moves_the_start_to_the_next_day() {
        let cal = Calendar::new(
            d("2026-11-01"),
            d("2028-11-01"),
            ByColor {
                white: Some(d("2026-10-20")),
                black: Some(d("2026-11-05")),
            },
        );
        assert_eq!(
            cal.start.white,
            d("2026-11-01"),
            "a sheet before the start changes nothing"
        );
        assert_eq!(
            cal.start.black,
            d("2026-11-06"),
            "late sheet: the day after"
        );
    }

    #[test]
    fn thinking_days_table() {
        let cal = Calendar::new(
            d("2026-11-01"),
            d("2026-12-01"),
            ByColor {
                white: None,
                black: Some(d("2026-11-05")),
            },
        );
        // (player, from, to, expected)
        let table = [
            (Color::White, None, "2026-11-03", 2),
            (Color::White, None, "2026-11-01", 0),
            (Color::White, None, "2026-10-30", 0),
            (Color::White, Some("2026-11-07"), "2026-11-07", 0),
            (Color::White, Some("2026-11-07"), "2026-11-12", 5),
            (Color::Black, Some("2026-11-03"), "2026-11-08", 2),
            (Color::Black, Some("2026-11-10"), "2026-11-08", 0),
            // Received before the end date: the days after it count too.
            (Color::White, Some("2026-11-25"), "2026-12-05", 10),
            (Color::White, Some("2026-12-01"), "2026-12-05", 0),
            (Color::White, Some("2026-12-02"), "2026-12-05", 0),
        ];
        for (line, (player, from, to, expected)) in table.into_iter().enumerate() {
            let got = cal.thinking_days(player, from.map(d), d(to));
            assert_eq!(
                got, expected,
                "row {line}: {player:?} from {from:?} to {to}"
            );
        }
    }
}

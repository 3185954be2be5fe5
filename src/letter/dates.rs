//! Dates as players write them: `07.11.2026`, `07.11.26`, `07.11`, `2026-11-07`,
//! `7 ноября 2026`, `7 Nov 2026`, `Nov 7, 2026`, and `07/11/2026`.
//!
//! Dotted dates are always day first. Slashed dates are read in the
//! tournament's [`DateOrder`] (`11/02/2026` is 2 November in an American one).
//! Where the day and the month could trade places, and only the other reading
//! lies near the letter's postmark (`11/02/2026` read day first is 11 February,
//! nine months from a letter posted on 2 November), the date is ambiguous: it
//! is not read at all rather than read as a guess, and the player is told the
//! forms to use.

use std::sync::LazyLock;

use chrono::{Datelike, NaiveDate};
use regex::Regex;
use serde::{Deserialize, Serialize};

/// A date as written; the year may be left out (`03.11`) and is then taken
/// from the letter's own postmark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WrittenDate {
    pub day: u32,
    pub month: u32,
    pub year: Option<i32>,
}

impl WrittenDate {
    /// The calendar date, with a missing year chosen so that the date lies
    /// nearest to `near` (a date in early January written on 30 December is next
    /// year's). `None` for a day that does not exist.
    pub fn resolve(self, near: NaiveDate) -> Option<NaiveDate> {
        match self.year {
            Some(year) => NaiveDate::from_ymd_opt(year, self.month, self.day),
            None => [near.year() - 1, near.year(), near.year() + 1]
                .into_iter()
                .filter_map(|year| NaiveDate::from_ymd_opt(year, self.month, self.day))
                .min_by_key(|date| (*date - near).num_days().abs()),
        }
    }
}

impl std::fmt::Display for WrittenDate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.year {
            Some(year) => write!(f, "{year:04}-{:02}-{:02}", self.month, self.day),
            None => write!(f, "{:02}.{:02}", self.day, self.month),
        }
    }
}

/// How a tournament's players write slashed dates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DateOrder {
    /// `07/11/2026` is 7 November (Europe, Russia).
    #[default]
    Dmy,
    /// `11/07/2026` is 7 November (the United States).
    Mdy,
}

/// Text that looks like a date but cannot be read as one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadDate {
    /// No such day (`32.13.2026`).
    Impossible(String),
    /// Day and month could trade places, and the reading of the tournament's
    /// order lies far from the letter while the other lies near it.
    Ambiguous {
        written: String,
        read: NaiveDate,
        other: NaiveDate,
    },
}

/// Days from the postmark within which a reading counts as near it.
const NEAR_DAYS: i64 = 60;

static DATE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi)
        (?P<iy>[0-9]{4})-(?P<im>[0-9]{1,2})-(?P<id>[0-9]{1,2})\b
      | \b(?P<nd>[0-9]{1,2})(?P<sep>[./])(?P<nm>[0-9]{1,2})(?:[./](?P<ny>[0-9]{4}|[0-9]{2}))?\b(?:\s*(?:г\.|года|г\b))?
      | \b(?P<wd>[0-9]{1,2})(?:-?(?:го|е|st|nd|rd|th))?\s+(?P<wm>[a-zа-яё]{3,9})\.?(?:,?\s*(?P<wy>[0-9]{4})\b(?:\s*(?:г\.|года|г\b))?)?
      | \b(?P<mm>[a-z]{3,9})\.?\s+(?P<md>[0-9]{1,2})(?:st|nd|rd|th)?,?\s+(?P<my>[0-9]{4})\b",
    )
    .expect("date pattern")
});

/// The month named by a Russian or English word (any case, full or abbreviated).
fn month_of(word: &str) -> Option<u32> {
    const PREFIXES: [(&str, u32); 24] = [
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
        ("янв", 1),
        ("фев", 2),
        ("мар", 3),
        ("апр", 4),
        ("ма", 5),
        ("июн", 6),
        ("июл", 7),
        ("авг", 8),
        ("сен", 9),
        ("окт", 10),
        ("ноя", 11),
        ("дек", 12),
    ];
    let lower = word.to_lowercase();
    // "ма" (май, мая) must not catch "март", "марта".
    if lower.starts_with("мар") {
        return Some(3);
    }
    PREFIXES
        .iter()
        .find(|(prefix, _)| lower.starts_with(prefix))
        .map(|&(_, month)| month)
}

/// How dates are read: the tournament's order of slashed dates, and the
/// letter's postmark where it is known (for ambiguous ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DateReading {
    pub order: DateOrder,
    pub postmark: Option<NaiveDate>,
}

/// Every date in `text`, in order, each read or refused, and whether anything
/// besides dates and separators was left over.
pub fn find_dates(text: &str, reading: DateReading) -> (Vec<Result<WrittenDate, BadDate>>, bool) {
    let mut found = Vec::new();
    let mut leftover = String::new();
    let mut last = 0;
    // Every form has a digit: most lines a letter holds (greetings, words
    // on the game) have none, and are not searched (the search costs most
    // on them: Cyrillic text keeps the regex off its fastest engine).
    let searched = if text.bytes().any(|b| b.is_ascii_digit()) {
        text
    } else {
        ""
    };
    for caps in DATE.captures_iter(searched) {
        let whole = caps.get(0).expect("match");
        let number = |name: &str| caps.name(name).and_then(|m| m.as_str().parse::<i64>().ok());
        let mut slashed = false;
        let (day, month, year) = if let Some(year) = number("iy") {
            (number("id"), number("im"), Some(year))
        } else if let Some(first) = number("nd") {
            let year = caps.name("ny").map(|m| {
                let y = m.as_str().parse::<i64>().unwrap_or(0);
                if m.as_str().len() == 2 { 2000 + y } else { y }
            });
            let second = number("nm");
            slashed = caps.name("sep").is_some_and(|m| m.as_str() == "/");
            if slashed && reading.order == DateOrder::Mdy {
                (second, Some(first), year)
            } else {
                (Some(first), second, year)
            }
        } else if let Some(day) = number("wd") {
            let Some(month) = caps.name("wm").and_then(|m| month_of(m.as_str())) else {
                continue;
            };
            (Some(day), Some(i64::from(month)), number("wy"))
        } else {
            let Some(month) = caps.name("mm").and_then(|m| month_of(m.as_str())) else {
                continue;
            };
            (number("md"), Some(i64::from(month)), number("my"))
        };
        // Inside the digits an impossible year took in (below).
        if whole.start() < last {
            continue;
        }
        leftover.push_str(&text[last..whole.start()]);
        // Digits right after the date, or a run of five or more after one
        // separator, are a year no calendar has (`01.01.99999`,
        // `1 Nov 262143`): the whole is an impossible date, never a date
        // without its year.
        let rest = &searched[whole.end()..];
        let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
        let overrun = match (digits(rest), rest.strip_prefix(['.', ' ', '/', '-'])) {
            (0, Some(after)) if digits(after) >= 5 => 1 + digits(after),
            (glued, _) => glued,
        };
        last = whole.end() + overrun;
        let written = text[whole.start()..last].trim();
        let date = (overrun == 0)
            .then(|| validate(day, month, year))
            .flatten()
            .ok_or_else(|| BadDate::Impossible(written.to_string()))
            .and_then(|date| {
                if !slashed {
                    return Ok(date);
                }
                match ambiguity(date, reading.postmark) {
                    Some((read, other)) => Err(BadDate::Ambiguous {
                        written: written.to_string(),
                        read,
                        other,
                    }),
                    None => Ok(date),
                }
            });
        found.push(date);
    }
    leftover.push_str(&text[last..]);
    let extra = leftover
        .split(|c: char| c.is_whitespace() || ",;–—-()".contains(c))
        .any(|word| !word.is_empty() && !matches!(word.to_lowercase().as_str(), "and" | "и"));
    (found, extra)
}

/// The two readings of a date whose day and month could trade places, where
/// only the other one lies near the postmark.
fn ambiguity(date: WrittenDate, postmark: Option<NaiveDate>) -> Option<(NaiveDate, NaiveDate)> {
    let postmark = postmark?;
    if date.day > 12 || date.day == date.month {
        return None;
    }
    let swapped = WrittenDate {
        day: date.month,
        month: date.day,
        year: date.year,
    };
    let read = date.resolve(postmark)?;
    let other = swapped.resolve(postmark)?;
    let near = |d: NaiveDate| (d - postmark).num_days().abs() <= NEAR_DAYS;
    (!near(read) && near(other)).then_some((read, other))
}

fn validate(day: Option<i64>, month: Option<i64>, year: Option<i64>) -> Option<WrittenDate> {
    let day = u32::try_from(day?).ok()?;
    let month = u32::try_from(month?).ok()?;
    let year = match year {
        Some(year) if (1900..=2999).contains(&year) => Some(i32::try_from(year).ok()?),
        Some(_) => return None,
        None => None,
    };
    // Check the day exists (29 February needs its year; a leap year stands in).
    NaiveDate::from_ymd_opt(year.unwrap_or(2028), month, day)?;
    Some(WrittenDate { day, month, year })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Result<WrittenDate, BadDate> {
        let (mut dates, extra) = find_dates(text, DateReading::default());
        assert_eq!(dates.len(), 1, "{text}: {dates:?}");
        assert!(!extra, "{text}: nothing else expected");
        dates.remove(0)
    }

    #[test]
    fn a_line_without_ascii_digits_holds_no_date_and_its_words_are_left_over() {
        for (text, extra) in [
            ("Привет, Иван! Спасибо за партию", true),
            ("Thanks, see you", true),
            ("седьмого ноября", true),
            // Digits of other scripts are no date's (they never were).
            ("０７.１１.２０２６", true),
            ("и", false),
            (" – , ", false),
        ] {
            assert_eq!(
                find_dates(text, DateReading::default()),
                (Vec::new(), extra),
                "{text}"
            );
        }
    }

    #[test]
    fn every_form_of_contract_md() {
        let near: NaiveDate = "2026-11-20".parse().unwrap();
        let table = [
            "07.11.2026",
            "07.11.26",
            "7.11.2026",
            "2026-11-07",
            "7 ноября 2026",
            "7 ноября 2026 г.",
            "7 Nov 2026",
            "7 November 2026",
            "Nov 7, 2026",
            "November 7th, 2026",
            "07/11/2026",
            "07.11",
            "7 ноября",
            "7-го ноября 2026 года",
            "7 НОЯБРЯ 2026",
        ];
        for text in table {
            let written = one(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(
                written.resolve(near),
                Some("2026-11-07".parse().unwrap()),
                "{text}"
            );
        }
    }

    #[test]
    fn russian_months_all_twelve() {
        let months = [
            "января",
            "февраля",
            "марта",
            "апреля",
            "мая",
            "июня",
            "июля",
            "августа",
            "сентября",
            "октября",
            "ноября",
            "декабря",
        ];
        for (index, name) in months.iter().enumerate() {
            let written = one(&format!("1 {name} 2027")).unwrap();
            assert_eq!(written.month, u32::try_from(index + 1).unwrap(), "{name}");
        }
        assert_eq!(one("3 май 2027").unwrap().month, 5);
        assert_eq!(one("3 март 2027").unwrap().month, 3);
    }

    #[test]
    fn yearless_dates_take_the_nearest_year() {
        let december: NaiveDate = "2026-12-30".parse().unwrap();
        let written = WrittenDate {
            day: 2,
            month: 1,
            year: None,
        };
        assert_eq!(
            written.resolve(december),
            Some("2027-01-02".parse().unwrap())
        );
        let january: NaiveDate = "2027-01-03".parse().unwrap();
        let written = WrittenDate {
            day: 28,
            month: 12,
            year: None,
        };
        assert_eq!(
            written.resolve(january),
            Some("2026-12-28".parse().unwrap())
        );
    }

    #[test]
    fn impossible_dates_are_refused_not_crashed() {
        for text in [
            "32.13.2026",
            "31.11.2026",
            "29.02.2027",
            "2026-13-45",
            "00.10.2026",
            "1.1.0001",
        ] {
            let (dates, _) = find_dates(text, DateReading::default());
            assert!(
                matches!(dates.as_slice(), [Err(BadDate::Impossible(_))]),
                "{text}: {dates:?}"
            );
        }
        assert!(one("29.02.2028").is_ok(), "a leap day is a date");
    }

    #[test]
    fn three_dates_in_a_row_and_leftovers() {
        let (dates, extra) = find_dates("03.11, 03.11, 2026-11-07", DateReading::default());
        assert_eq!(dates.len(), 3);
        assert!(!extra);
        let (dates, extra) = find_dates("07.11.2026 и 12.11.2026 примерно", DateReading::default());
        assert_eq!(dates.len(), 2);
        assert!(extra, "a stray word is reported");
    }

    #[test]
    fn slashed_dates_follow_the_tournaments_order_and_dots_stay_day_first() {
        let near: NaiveDate = "2026-11-20".parse().unwrap();
        let read = |text: &str, order: DateOrder| {
            let reading = DateReading {
                order,
                postmark: Some(near),
            };
            let (dates, _) = find_dates(text, reading);
            match dates.as_slice() {
                [Ok(date)] => date.resolve(near).map(|d| d.to_string()),
                other => panic!("{text}: {other:?}"),
            }
        };
        let table = [
            ("11/02/2026", DateOrder::Mdy, "2026-11-02"),
            ("02/11/2026", DateOrder::Dmy, "2026-11-02"),
            ("11/20/2026", DateOrder::Mdy, "2026-11-20"),
            ("20/11/2026", DateOrder::Dmy, "2026-11-20"),
            ("11/7", DateOrder::Mdy, "2026-11-07"),
            // Dots are day first whatever the order.
            ("02.11.2026", DateOrder::Mdy, "2026-11-02"),
            // Both readings far from the postmark: the order's is taken.
            ("03/05/2026", DateOrder::Dmy, "2026-05-03"),
        ];
        for (text, order, expected) in table {
            assert_eq!(read(text, order).as_deref(), Some(expected), "{text}");
        }
    }

    #[test]
    fn a_slashed_date_read_far_from_the_postmark_whose_swap_is_near_is_ambiguous() {
        let near: NaiveDate = "2026-11-02".parse().unwrap();
        for (text, order) in [
            ("11/02/2026", DateOrder::Dmy),
            ("02/11/2026", DateOrder::Mdy),
        ] {
            let reading = DateReading {
                order,
                postmark: Some(near),
            };
            let (dates, _) = find_dates(text, reading);
            let [Err(BadDate::Ambiguous { read, other, .. })] = dates.as_slice() else {
                panic!("{text}: {dates:?}");
            };
            assert_eq!(other.to_string(), "2026-11-02", "{text}");
            assert_eq!(read.to_string(), "2026-02-11", "{text}");
        }
        // Without a postmark (`shtempel read`), the order decides.
        let (dates, _) = find_dates("11/02/2026", DateReading::default());
        assert!(matches!(dates.as_slice(), [Ok(_)]));
    }
}

//! The reader of a letter's lines: each own line read for what it states
//! (a game, moves, a fraction, dates, a variant; a ruling and the person's
//! asks by their own readers), its errors named with the line.

use crate::rules::Fraction;

use super::dates::{DateReading, WrittenDate};
use super::errors::{ReadErrorKind, error};
use super::move_lines::{read_moves, read_variant};
use super::rulings::ruling_of;
use super::{Letter, MAX_FRACTION_DAYS, WrittenDates, dates};

pattern!(
    GAME_LINE,
    r"(?i)^\s*(?:game|партия|игра)\s*(?:(?:[:#№]|no\.?)\s*#?\s*([A-Za-z0-9][\w.-]*)|\s+(\d[\w.-]*))\s*\.?\s*$"
);
// After the label a colon, or a fraction: prose that merely holds the word
// ("затраченное время на этот ход велико") is no time line.
pattern!(
    TIME_LINE,
    r"(?i)^\s*(?:time used|total time|time|затраченное время|время на обдумывание|время)(?:\s*[:=–-]\s*(.*)|\s+([0-9].*))$"
);
// ASCII digits only: full-width ones (`１２/３`) are no number the clerk
// reads, and are named unreadable, not out of range. A remark in brackets
// may follow: the clerk's own lines for the next letter put one there
// ("(now 4/6; add your days for this move)"), and a player who fills them
// in leaves it.
pattern!(
    FRACTION,
    r"^\s*([+-]?[0-9]+)\s*/\s*([+-]?[0-9]+)\s*(?:дн\w*|days?|д\.)?\s*\.?\s*(?:\([^()]*\)\s*\.?\s*)?$"
);
pattern!(BARE_FRACTION, r"^\s*[0-9]{1,5}\s*/\s*[0-9]{1,5}\s*$");
pattern!(
    PREVIOUS_LINE,
    r"(?i)^\s*(?:previous dates|dates of (?:the )?previous letter|даты предыдущего письма|предыдущие даты)\s*:?\s*(.*)$"
);
pattern!(DATES_LINE, r"(?i)^\s*(?:dates|даты)\s*:?\s*(.*)$");
pattern!(
    LABELLED_DATE,
    r"(?i)^\s*(partner'?s postmark|postmark|штемпель(?: партн[её]ра)?|received|получено|получен|получил|sent|отправлено|отправлен|отправил|отправка)\s*:\s*(.*)$"
);
pattern!(
    MOVE_LABEL,
    r"(?i)^\s*(?:my move|my reply|my answer|move|reply|мой ход|мой ответ|ответ|ход)\s*:\s*(.*)$"
);
pattern!(MOVE_LINE, r"^\s*\d+\s*(?:\.|…)");
// A move after a few words on its line: after a colon ("My first move: 1.
// Nf3", "Мой первый ход: 1. Кf3"), or after the word for a move ("my reply
// is 12... Qe7", "мой ход 12... Фe7"). Prose that merely mentions a move
// ("I think 1. e4 was better") is neither.
pattern!(
    COLON_MOVES,
    r"^\s*[\p{L}'’][\p{L}'’ ,]{0,59}:\s*(\d+\s*(?:\.|…).*)$"
);
pattern!(
    WORDED_MOVES,
    r"(?i)^\s*(?:[\p{L}'’]+\s+){0,4}(?:move|reply|answer|ход|ответ)\s+(?:is\s+|будет\s+)?(\d+\s*(?:\.|…).*)$"
);
pattern!(VARIANT_LINE, r"(?i)^\s*(?:if|если)\b[\s:,]*(.*)$");

/// The first letters (lower-cased) of the labels each labelled pattern
/// begins with: a line is tried against a pattern only where its first
/// letter is one of these (a test holds each to its pattern's labels).
const GAME_FIRST: &str = "gпи";
const TIME_FIRST: &str = "tзв";
const PREVIOUS_FIRST: &str = "pdдп";
const DATES_FIRST: &str = "dд";
const LABELLED_DATE_FIRST: &str = "pшrпsо";
const VARIANT_FIRST: &str = "iе";
const MOVE_LABEL_FIRST: &str = "mrмох";

/// The game a `Game 2` / `Партия 2` line names, if the line is one.
pub(super) fn game_of_line(line: &str) -> Option<&str> {
    let caps = GAME_LINE.captures(line)?;
    caps.get(1).or(caps.get(2)).map(|m| m.as_str())
}

pub(super) fn read_line(letter: &mut Letter, line_no: usize, line: &str, reading: DateReading) {
    let Some(first) = line.trim_start().chars().next() else {
        return;
    };
    // Every labelled pattern starts with its label: a line is tried only
    // against the patterns whose labels begin with its first letter (the
    // regexes cost most of the reader's time, and most lines are moves).
    let first = first.to_lowercase().next().unwrap_or(first);
    let may = |initials: &str| initials.contains(first);
    if may(GAME_FIRST)
        && let Some(caps) = GAME_LINE.captures(line)
    {
        if letter.game.is_none() {
            letter.game = caps.get(1).or(caps.get(2)).map(|m| m.as_str().to_string());
        }
        return;
    }
    if let Some(ruling) = ruling_of(line, &may) {
        letter.rulings.push(ruling);
        return;
    }
    if super::asks::read_persons_ask(letter, line_no, line, reading, &may) {
        return;
    }
    if may(TIME_FIRST)
        && let Some(caps) = TIME_LINE.captures(line)
    {
        let rest = caps.get(1).or(caps.get(2)).map_or("", |m| m.as_str());
        read_fraction(letter, line_no, line, rest);
        return;
    }
    if first.is_numeric() && BARE_FRACTION.is_match(line) {
        read_fraction(letter, line_no, line, line);
        return;
    }
    if may(PREVIOUS_FIRST)
        && let Some(caps) = PREVIOUS_LINE.captures(line)
    {
        let rest = caps.get(1).map_or("", |m| m.as_str());
        if let Some(dates) = line_dates(letter, line_no, line, rest, false, reading) {
            letter.previous_dates.get_or_insert(dates);
        }
        return;
    }
    if may(DATES_FIRST)
        && let Some(caps) = DATES_LINE.captures(line)
    {
        let rest = caps.get(1).map_or("", |m| m.as_str());
        if let Some(dates) = line_dates(letter, line_no, line, rest, true, reading)
            && letter.dates.is_empty()
        {
            letter.dates = dates;
        }
        return;
    }
    if may(LABELLED_DATE_FIRST)
        && let Some(caps) = LABELLED_DATE.captures(line)
    {
        let rest = caps.get(2).map_or("", |m| m.as_str());
        read_labelled_date(
            letter,
            (line_no, line),
            &caps[1].to_lowercase(),
            rest,
            reading,
        );
        return;
    }
    if may(VARIANT_FIRST)
        && let Some(caps) = VARIANT_LINE.captures(line)
    {
        let rest = caps.get(1).map_or("", |m| m.as_str());
        read_variant(letter, line_no, line, rest);
        return;
    }
    if may(MOVE_LABEL_FIRST)
        && let Some(caps) = MOVE_LABEL.captures(line)
    {
        let rest = caps.get(1).map_or("", |m| m.as_str());
        read_moves(letter, line_no, line, rest, true);
        return;
    }
    // A line of dates alone, in order.
    let (found, extra) = dates::find_dates(line, reading);
    if !found.is_empty() && !extra {
        if let Some(dates) = line_dates(letter, line_no, line, line, true, reading)
            && letter.dates.is_empty()
        {
            letter.dates = dates;
        }
        return;
    }
    if first.is_numeric() && MOVE_LINE.is_match(line) {
        read_moves(letter, line_no, line, line, false);
        return;
    }
    if first.is_alphabetic()
        && let Some(caps) = COLON_MOVES
            .captures(line)
            .or_else(|| WORDED_MOVES.captures(line))
        && let Some(rest) = caps.get(1).map(|m| m.as_str())
        && dates::find_dates(rest, reading).0.is_empty()
    {
        read_moves(letter, line_no, line, rest, true);
    }
}

/// A date of its own line, by its label: sent, received, or the partner's
/// postmark.
fn read_labelled_date(
    letter: &mut Letter,
    (line_no, line): (usize, &str),
    label: &str,
    rest: &str,
    reading: DateReading,
) {
    let Some(date) = one_date(letter, line_no, line, rest, reading) else {
        return;
    };
    let slot = if label.starts_with("sent") || label.starts_with("отправ") {
        &mut letter.dates.sent
    } else if label.starts_with("rec") || label.starts_with("получ") {
        &mut letter.dates.received
    } else {
        &mut letter.dates.postmark
    };
    slot.get_or_insert(date);
}

pub(super) fn read_fraction(letter: &mut Letter, line_no: usize, line: &str, rest: &str) {
    let Some(caps) = FRACTION.captures(rest) else {
        error(letter, line_no, line, ReadErrorKind::BadFraction);
        return;
    };
    let number = |text: &str| {
        text.parse::<u32>()
            .ok()
            .filter(|&days| days <= MAX_FRACTION_DAYS)
    };
    match (number(&caps[1]), number(&caps[2])) {
        (Some(white), Some(black)) => {
            letter.fraction.get_or_insert(Fraction { white, black });
        }
        _ => {
            let written = format!("{}/{}", &caps[1], &caps[2]);
            error(
                letter,
                line_no,
                line,
                ReadErrorKind::FractionOutOfRange { written },
            );
        }
    }
}

/// Reads the dates of a line: three in order; one (the own sending date)
/// where `one_is_sent`; otherwise one or two left for the rules to place. A
/// date that cannot be read is named in an error and leaves its place empty.
pub(super) fn line_dates(
    letter: &mut Letter,
    line_no: usize,
    line: &str,
    rest: &str,
    one_is_sent: bool,
    reading: DateReading,
) -> Option<WrittenDates> {
    let (found, _) = dates::find_dates(rest, reading);
    let read: Vec<Option<WrittenDate>> = found
        .into_iter()
        .map(|date| {
            date.map_err(|bad| date_error(letter, line_no, line, bad))
                .ok()
        })
        .collect();
    let dates = match read.as_slice() {
        [sent] if one_is_sent => WrittenDates {
            sent: *sent,
            ..WrittenDates::default()
        },
        [postmark, received, sent] => WrittenDates {
            postmark: *postmark,
            received: *received,
            sent: *sent,
            unplaced: Vec::new(),
        },
        [_] | [_, _] => WrittenDates {
            unplaced: read.iter().flatten().copied().collect(),
            ..WrittenDates::default()
        },
        _ => {
            let kind = ReadErrorKind::DateCount {
                found: read.len(),
                expected: 3,
            };
            error(letter, line_no, line, kind);
            return None;
        }
    };
    (!dates.is_empty()).then_some(dates)
}

pub(super) fn date_error(letter: &mut Letter, line_no: usize, line: &str, bad: dates::BadDate) {
    let kind = match bad {
        dates::BadDate::Impossible(written) => ReadErrorKind::BadDate { written },
        dates::BadDate::Ambiguous {
            written,
            read,
            other,
        } => ReadErrorKind::AmbiguousDate {
            written,
            read,
            other,
        },
    };
    error(letter, line_no, line, kind);
}

pub(super) fn one_date(
    letter: &mut Letter,
    line_no: usize,
    line: &str,
    rest: &str,
    reading: DateReading,
) -> Option<WrittenDate> {
    let (mut found, _) = dates::find_dates(rest, reading);
    if found.len() != 1 {
        let kind = ReadErrorKind::DateCount {
            found: found.len(),
            expected: 1,
        };
        error(letter, line_no, line, kind);
        return None;
    }
    found
        .remove(0)
        .map_err(|bad| date_error(letter, line_no, line, bad))
        .ok()
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::letter::read;

    /// The labels a pattern begins with: the alternatives of its first
    /// group after `^\s*` (and the case flag), as written.
    fn labels(pattern: &regex::Regex) -> Vec<String> {
        let source = pattern.as_str();
        let start = source
            .find("^\\s*")
            .expect("a labelled pattern starts at the line")
            + 4;
        let group = source[start..]
            .strip_prefix("(?:")
            .or(source[start..].strip_prefix('('));
        let group = group.expect("the labels are a group");
        let (mut depth, mut labels, mut label) = (0, Vec::new(), String::new());
        for c in group.chars() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => break,
                ')' => depth -= 1,
                '|' if depth == 0 => {
                    labels.push(std::mem::take(&mut label));
                    continue;
                }
                _ => {}
            }
            label.push(c);
        }
        labels.push(label);
        labels
    }

    /// Each label's first letter, lower-cased, that `first` lacks.
    fn missing(pattern: &regex::Regex, first: &str) -> Vec<String> {
        labels(pattern)
            .into_iter()
            .filter(|label| {
                let initial = label.chars().next().and_then(|c| c.to_lowercase().next());
                !initial.is_some_and(|initial| first.contains(initial))
            })
            .collect()
    }

    /// Holds each (pattern, its initials, how many labels it has): the
    /// labels are found (a pattern rewritten past this reading fails here,
    /// not silently), and each begins with one of the initials.
    pub(in crate::letter) fn assert_tried_for(table: &[(&regex::Regex, &str, usize)]) {
        for &(pattern, first, count) in table {
            assert_eq!(labels(pattern).len(), count, "{}", pattern.as_str());
            assert_eq!(
                missing(pattern, first),
                Vec::<String>::new(),
                "{}",
                pattern.as_str()
            );
        }
    }

    #[test]
    fn every_label_begins_with_a_letter_its_pattern_is_tried_for() {
        assert_tried_for(&[
            (&GAME_LINE, GAME_FIRST, 3),
            (&TIME_LINE, TIME_FIRST, 6),
            (&PREVIOUS_LINE, PREVIOUS_FIRST, 4),
            (&DATES_LINE, DATES_FIRST, 2),
            (&LABELLED_DATE, LABELLED_DATE_FIRST, 12),
            (&VARIANT_LINE, VARIANT_FIRST, 2),
            (&MOVE_LABEL, MOVE_LABEL_FIRST, 9),
        ]);
    }

    #[test]
    fn previous_dates_are_read_under_each_of_their_labels() {
        // "Предыдущие даты" begins with a letter the reader once did not try
        // the label's pattern for: the line was passed over, and the omission
        // it mends charged again.
        for label in [
            "Previous dates",
            "Dates of the previous letter",
            "Даты предыдущего письма",
            "Предыдущие даты",
        ] {
            let read = read(&format!("{label}: 01.11.2026, 03.11.2026, 04.11.2026\n"));
            let previous = read
                .previous_dates
                .unwrap_or_else(|| panic!("{label}: not read"));
            let day = |date: Option<dates::WrittenDate>| date.map(|date| date.day);
            assert_eq!(
                [previous.postmark, previous.received, previous.sent].map(day),
                [Some(1), Some(3), Some(4)],
                "{label}"
            );
        }
    }

    #[test]
    fn a_fraction_is_read_with_a_remark_in_brackets_after_it() {
        // (line, the fraction read): the remark is the clerk's own hint, left
        // by a player who filled in the lines it sent him.
        let table = [
            (
                "Time: 6/6   (now 4/6; add your days for this move)",
                Some((6, 6)),
            ),
            (
                "Время: 6/6 (сейчас 4/6; прибавьте свои дни на этот ход)",
                Some((6, 6)),
            ),
            ("Time: 6/6 days (as I count them).", Some((6, 6))),
            ("Time: 6/6", Some((6, 6))),
            // The hint alone, the fraction not filled in: nothing read.
            ("Time: <White's total>/<Black's total>   (now 4/6)", None),
            ("Time: (now 4/6)", None),
        ];
        for (line, expected) in table {
            let read = read(&format!("{line}\n"));
            let got = read.fraction.map(|f| (f.white, f.black));
            assert_eq!(got, expected, "{line}");
        }
    }
}

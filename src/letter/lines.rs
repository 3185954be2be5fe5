//! The reader of a letter's lines: each own line read for what it states
//! (a game, moves, a fraction, dates, a variant, a leave, a ruling), its
//! errors named with the line.

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
// reads, and are named unreadable, not out of range.
pattern!(
    FRACTION,
    r"^\s*([+-]?[0-9]+)\s*/\s*([+-]?[0-9]+)\s*(?:дн\w*|days?|д\.)?\s*\.?\s*$"
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
pattern!(LEAVE_LINE, r"(?i)^\s*(?:leave|отпуск)\b\s*:?\s*(.*)$");
// `STATUS` alone on its line, or with an event's id: nothing else, so that
// prose about the game's status is no question. After a colon the word is
// an id only as ids are written, in capitals or with a digit (`STATUS:
// CC-2026`): `Status: active` is a signature's line, no question.
pattern!(
    STATUS_LINE,
    r"(?i)^\s*(?:status|статус)\s*(:\s*)?([A-Za-z0-9\p{Cyrillic}][\w.-]*)?\s*[.!?]?\s*$"
);

/// Whether a word is written as an event's id is: no small letter, or a
/// digit in it (`CC-2026`, `EN`, `Cup2026`).
fn written_as_an_id(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) || !word.chars().any(char::is_lowercase)
}

// `DIAGRAMS TEXT`, `ЯЗЫК EN`: the word and one value, alone on the line.
pattern!(
    PREFERENCE_LINE,
    r"(?i)^\s*(diagrams?|диаграммы?|language|язык)\s*:?\s+(\p{L}+)\s*\.?\s*$"
);

/// A preference's line read: what it sets, or the word that sets nothing.
fn preference_of(word: &str, value: &str) -> super::Preference {
    use super::Preference;
    let (word, lower) = (word.to_lowercase(), value.to_lowercase());
    let set = if word.starts_with("diagram") || word.starts_with("диаграм") {
        match lower.as_str() {
            "text" | "текст" => Some(Preference::Diagrams("text")),
            "picture" | "картинка" | "рисунок" => {
                Some(Preference::Diagrams("picture"))
            }
            "both" | "оба" | "всё" | "все" => Some(Preference::Diagrams("both")),
            "none" | "no" | "нет" => Some(Preference::Diagrams("none")),
            _ => None,
        }
    } else {
        match lower.as_str() {
            "en" | "english" | "английский" => {
                Some(Preference::Language(crate::Lang::En))
            }
            "ru" | "russian" | "русский" | "ру" => {
                Some(Preference::Language(crate::Lang::Ru))
            }
            _ => None,
        }
    };
    set.unwrap_or_else(|| Preference::Unknown(value.to_string()))
}

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
    if may("gпи")
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
    if may("dдlя")
        && let Some(caps) = PREFERENCE_LINE.captures(line)
    {
        letter.preferences.push(preference_of(&caps[1], &caps[2]));
        return;
    }
    if may("sс")
        && let Some(caps) = STATUS_LINE.captures(line)
        && (caps.get(1).is_none()
            || caps
                .get(2)
                .is_none_or(|word| written_as_an_id(word.as_str())))
    {
        let event = caps
            .get(2)
            .map(|m| m.as_str().trim_end_matches('.').to_string());
        letter.status.get_or_insert(super::StatusAsked { event });
        return;
    }
    if may("lо")
        && let Some(caps) = LEAVE_LINE.captures(line)
    {
        read_leave(letter, line_no, line, &caps[1], reading);
        return;
    }
    if may("tзв")
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
    if may("pdд")
        && let Some(caps) = PREVIOUS_LINE.captures(line)
    {
        let rest = caps.get(1).map_or("", |m| m.as_str());
        if let Some(dates) = line_dates(letter, line_no, line, rest, false, reading) {
            letter.previous_dates.get_or_insert(dates);
        }
        return;
    }
    if may("dд")
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
    if may("pшrпsо")
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
    if may("iе")
        && let Some(caps) = VARIANT_LINE.captures(line)
    {
        let rest = caps.get(1).map_or("", |m| m.as_str());
        read_variant(letter, line_no, line, rest);
        return;
    }
    if may("mrмох")
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

/// A leave's line: its first and last day (its bad dates named).
fn read_leave(letter: &mut Letter, line_no: usize, line: &str, rest: &str, reading: DateReading) {
    if letter.leave.is_some() {
        letter.more_leaves.push(line.trim().to_string());
        return;
    }
    let (found, _) = dates::find_dates(rest, reading);
    let written = found
        .into_iter()
        .filter_map(|date| {
            date.map_err(|bad| date_error(letter, line_no, line, bad))
                .ok()
        })
        .collect();
    letter.leave = Some(written);
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

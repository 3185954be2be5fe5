//! A leave asked (`LEAVE 10.12.2026 - 20.12.2026`, `ОТПУСК …`): its
//! first and last day as written; one letter asks one, and the lines of
//! any more are kept as written, for its writer to be told.

use crate::letter::Letter;
use crate::letter::dates::{self, DateReading};
use crate::letter::lines::date_error;

pattern!(LEAVE_LINE, r"(?i)^\s*(?:leave|отпуск)\b\s*:?\s*(.*)$");

/// The first letters (lower-cased) of its labels.
const LEAVE_FIRST: &str = "lо";

/// Reads `line` as a leave's, where it is one.
pub(in crate::letter) fn read(
    letter: &mut Letter,
    line_no: usize,
    line: &str,
    reading: DateReading,
    may: &dyn Fn(&str) -> bool,
) -> bool {
    let Some(caps) = may(LEAVE_FIRST)
        .then(|| LEAVE_LINE.captures(line))
        .flatten()
    else {
        return false;
    };
    read_leave(letter, line_no, line, &caps[1], reading);
    true
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_begins_with_a_letter_its_pattern_is_tried_for() {
        crate::letter::lines::tests::assert_tried_for(&[(&LEAVE_LINE, LEAVE_FIRST, 2)]);
    }
}

//! `STATUS` / `СТАТУС` on a line of its own, with the event's id after it
//! where one is named: where his games stand.

use crate::letter::{Letter, StatusAsked};

// `STATUS` alone on its line, or with an event's id: nothing else, so that
// prose about the game's status is no question. After a colon the word is
// an id only as ids are written, in capitals or with a digit (`STATUS:
// CC-2026`): `Status: active` is a signature's line, no question.
pattern!(
    STATUS_LINE,
    r"(?i)^\s*(?:status|статус)\s*(:\s*)?([A-Za-z0-9\p{Cyrillic}][\w.-]*)?\s*[.!?]?\s*$"
);

/// The first letters (lower-cased) of its labels.
const STATUS_FIRST: &str = "sс";

/// Whether a word is written as an event's id is: no small letter, or a
/// digit in it (`CC-2026`, `EN`, `Cup2026`).
fn written_as_an_id(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) || !word.chars().any(char::is_lowercase)
}

/// Reads `line` as STATUS, where it is.
pub(in crate::letter) fn read(letter: &mut Letter, line: &str, may: &dyn Fn(&str) -> bool) -> bool {
    let Some(caps) = may(STATUS_FIRST)
        .then(|| STATUS_LINE.captures(line))
        .flatten()
    else {
        return false;
    };
    // After a colon, the word is an event's id only as ids are written.
    if caps.get(1).is_some()
        && caps
            .get(2)
            .is_some_and(|word| !written_as_an_id(word.as_str()))
    {
        return false;
    }
    let event = caps
        .get(2)
        .map(|m| m.as_str().trim_end_matches('.').to_string());
    letter.status.get_or_insert(StatusAsked { event });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_begins_with_a_letter_its_pattern_is_tried_for() {
        crate::letter::lines::tests::assert_tried_for(&[(&STATUS_LINE, STATUS_FIRST, 2)]);
    }
}

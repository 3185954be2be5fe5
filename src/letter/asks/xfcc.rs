//! `XFCC` / `ИКСФЦЦ` on a line of its own: a login to the Xfcc server, for
//! a player who moves from his chess program (a new password each time;
//! the old one stops working).

use crate::letter::Letter;

// The word alone on its line (a full stop or `?` after it taken): prose
// that names Xfcc asks nothing.
pattern!(XFCC_LINE, r"(?i)^\s*(?:xfcc|иксфцц)\s*[.!?]?\s*$");

/// The first letters (lower-cased) of its words.
const XFCC_FIRST: &str = "xи";

/// Reads `line` as XFCC, where it is.
pub(in crate::letter) fn read(letter: &mut Letter, line: &str, may: &dyn Fn(&str) -> bool) -> bool {
    if !(may(XFCC_FIRST) && XFCC_LINE.is_match(line)) {
        return false;
    }
    letter.xfcc = true;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_begins_with_a_letter_its_pattern_is_tried_for() {
        crate::letter::lines::tests::assert_tried_for(&[(&XFCC_LINE, XFCC_FIRST, 2)]);
    }

    #[test]
    fn the_word_alone_asks_and_prose_does_not() {
        let table = [
            ("XFCC", true),
            ("xfcc.", true),
            ("  ИКСФЦЦ  ", true),
            ("иксфцц?", true),
            ("XFCC please", false),
            ("I use Xfcc in Scid", false),
            ("XFCCC", false),
        ];
        for (line, asks) in table {
            let mut letter = Letter::default();
            assert_eq!(read(&mut letter, line, &|_| true), asks, "{line:?}");
            assert_eq!(letter.xfcc, asks, "{line:?}");
        }
    }
}

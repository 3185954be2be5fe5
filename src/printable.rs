//! Text from letters made safe to print: a letter's subject, address or
//! line may hold escape sequences that would drive the terminal of whoever
//! reads the log, or a line break that forges a log line. Every control character (C0, DEL and
//! C1) is written as `\u{…}`, and
//! so is every bidirectional control, which reorders what follows it on the
//! line. Text put in HTML (the report's pages, a
//! message's HTML part) has its markup characters escaped.

use std::borrow::Cow;

/// `text` as HTML text or an attribute's value: its markup characters as
/// entities.
pub fn html_escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `text` with its control characters escaped, line breaks kept where
/// `keep_lines` (a message body printed by `check`).
pub fn printable(text: &str, keep_lines: bool) -> Cow<'_, str> {
    let unsafe_char =
        |c: char| (c.is_control() && !(keep_lines && c == '\n')) || is_bidi_control(c);
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether `c` is a bidirectional control (U+200E-F, U+202A-E,
/// U+2066-9): invisible marks a right-to-left mail program puts around
/// words, which hide an attribution or a label from the quote cutter and
/// turn a printed line around.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// JSON made safe the same way: serde_json leaves DEL and the C1 controls
/// (U+007F to U+009F) raw, and a terminal takes U+009B for an escape.
pub fn printable_json(json: &str) -> Cow<'_, str> {
    let raw = |c: char| ('\u{7f}'..='\u{9f}').contains(&c) || is_bidi_control(c);
    if !json.chars().any(raw) {
        return Cow::Borrowed(json);
    }
    Cow::Owned(
        json.chars()
            .map(|c| {
                if raw(c) {
                    format!("\\u{:04x}", u32::from(c))
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

/// At most `most` bytes of `text`, cut at a character's edge, with what
/// was cut said (`… (65,536 bytes in all)`): a stranger's header field may
/// be as long as he likes, and what the clerk keeps and prints of it is not
///.
pub fn bounded(text: &str, most: usize) -> Cow<'_, str> {
    if text.len() <= most {
        return Cow::Borrowed(text);
    }
    let mut end = most;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}… ({} bytes in all)", &text[..end], text.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_field_is_cut_at_a_characters_edge_saying_so() {
        let table = [
            ("short", 10, "short"),
            ("0123456789ab", 10, "0123456789… (12 bytes in all)"),
            ("яяяяяя", 5, "яя… (12 bytes in all)"),
        ];
        for (text, most, cut) in table {
            assert_eq!(bounded(text, most), cut, "{text:?}");
        }
    }

    #[test]
    fn control_characters_are_escaped_and_the_rest_kept() {
        let table = [
            ("Game 1", false, "Game 1"),
            ("\x1b[2Jcleared", false, "\\u{1b}[2Jcleared"),
            ("one\nfake line", false, "one\\u{a}fake line"),
            ("one\ntwo\r", true, "one\ntwo\\u{d}"),
            ("\u{9b}31m Партия", false, "\\u{9b}31m Партия"),
            // A bidirectional override turns the rest
            // of the printed line around.
            ("Petrov \u{202e}4 emaG", false, "Petrov \\u{202e}4 emaG"),
            ("\u{200f}من: Petrov", false, "\\u{200f}من: Petrov"),
        ];
        for (text, keep_lines, shown) in table {
            assert_eq!(printable(text, keep_lines), shown, "{text:?}");
        }
        let json = serde_json::to_string("a\u{9b}b\x1b").unwrap();
        let safe = printable_json(&json);
        assert_eq!(safe, "\"a\\u009bb\\u001b\"");
        assert_eq!(
            serde_json::from_str::<String>(&safe).unwrap(),
            "a\u{9b}b\x1b"
        );
    }
}

//! The player's own text: quoted lines, quoted previous messages and signatures
//! are cut before anything is read (contract.md 3), because quotes often hold
//! the partner's move and the clerk's own prefilled lines.

use std::sync::LazyLock;

use regex::Regex;

static QUOTE_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi)^\s*(?:
            .*\b(?:wrote|writes|пишет|писал|написал|написала|написал\(а\))\s*:\s*$
          | .*\bот\b.*[<@].*:\s*$
          | \d{1,2}\.\d{1,2}\.\d{2,4},?\s+(?:в\s+)?\d{1,2}:\d{2}.*[<@].*:\s*$
          | .*<[^<>@\s]+@[^<>\s]+>\s*:\s*$
        )",
    )
    .expect("quote header pattern")
});

static ORIGINAL_MESSAGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)^\s*-{2,}\s*(?:original message|исходное сообщение|пересылаемое сообщение|forwarded message|reply message|ответное сообщение)\s*-{2,}",
    )
    .expect("original message pattern")
});

static OUTLOOK_FROM: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)^\s*\*?(?:from|от)\s*:\*?\s+\S").expect("from pattern"));
static OUTLOOK_SENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)^\s*\*?(?:sent|отправлено|date|дата|to|кому)\s*:\*?\s+\S")
        .expect("sent pattern")
});

/// The lines of `body` the writer wrote himself, each with its 1-based line
/// number in the body (so that a reply can point at it).
pub fn own_lines(body: &str) -> Vec<(usize, &str)> {
    let lines: Vec<&str> = body
        .lines()
        .map(|line| line.trim_end_matches('\r'))
        .collect();
    let mut own = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let line = lines[index];
        let trimmed = line.trim();
        if trimmed.starts_with('>') {
            index += 1;
            continue;
        }
        if line == "-- " || trimmed == "--" || original_message(trimmed) || is_rule(trimmed) {
            break;
        }
        if trimmed.contains(':')
            && OUTLOOK_FROM.is_match(line)
            && next_lines(&lines, index, 3).any(|next| OUTLOOK_SENT.is_match(next))
        {
            break;
        }
        let wrapped_header = trimmed.len() < 200
            && (trimmed.starts_with("On ") || trimmed.starts_with("В "))
            && lines
                .get(index + 1)
                .is_some_and(|next| quote_header(next) && next.trim().len() < 40);
        if quote_header(line) || wrapped_header {
            let skip = if wrapped_header { 2 } else { 1 };
            // A header over `>` lines introduces a quote the writer answers
            // below (bottom posting): skip it and read on. Otherwise the rest is
            // the quoted message.
            let quoted_below = next_lines(&lines, index + skip - 1, 1)
                .all(|next| next.trim_start().starts_with('>'));
            if quoted_below && index + skip < lines.len() {
                index += skip;
                continue;
            }
            break;
        }
        own.push((index + 1, line));
        index += 1;
    }
    own
}

// Every quote header ends with a colon and every "original message" line
// begins with dashes: the patterns (slow ones, with Unicode word boundaries)
// run only on lines that can match them, a fifth of the reading thread before.

fn quote_header(line: &str) -> bool {
    line.trim_end().ends_with(':') && QUOTE_HEADER.is_match(line)
}

fn original_message(trimmed: &str) -> bool {
    trimmed.starts_with("--") && ORIGINAL_MESSAGE.is_match(trimmed)
}

/// Up to `count` non-blank lines after `index`.
fn next_lines<'a>(
    lines: &'a [&'a str],
    index: usize,
    count: usize,
) -> impl Iterator<Item = &'a str> + 'a {
    lines[index + 1..]
        .iter()
        .copied()
        .filter(|line| !line.trim().is_empty())
        .take(count)
}

/// A line of underscores, which Outlook puts before a quoted header block.
fn is_rule(trimmed: &str) -> bool {
    trimmed.len() >= 5 && trimmed.chars().all(|c| c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(body: &str) -> Vec<&str> {
        own_lines(body).into_iter().map(|(_, line)| line).collect()
    }

    #[test]
    fn quote_forms_are_cut() {
        let table = [
            ("2. Nf3\n> 1... e5\n", vec!["2. Nf3"]),
            (
                "2. Nf3\n\nOn Mon, 7 Nov 2026 at 10:00, Petrov <p@x.org> wrote:\nGame 1\n1... e5",
                vec!["2. Nf3", ""],
            ),
            (
                "2. Кf3\nПонедельник, 7 ноября 2026, 10:00 +03:00 от Петров <p@x.org>:\n1... e5",
                vec!["2. Кf3"],
            ),
            (
                "2. Кf3\n07.11.2026, 10:00, \"Петров\" <p@x.org>:\n1... e5",
                vec!["2. Кf3"],
            ),
            ("2. Кf3\nПетров пишет:\n1... e5", vec!["2. Кf3"]),
            (
                "2. Nf3\n-----Original Message-----\nFrom: p\n1... e5",
                vec!["2. Nf3"],
            ),
            (
                "2. Кf3\n-----Исходное сообщение-----\n1... e5",
                vec!["2. Кf3"],
            ),
            (
                "2. Nf3\nFrom: Petrov <p@x.org>\nSent: Monday, November 7, 2026\n1... e5",
                vec!["2. Nf3"],
            ),
            (
                "2. Кf3\nОт: Петров\nОтправлено: 7 ноября 2026 г.\n1... e5",
                vec!["2. Кf3"],
            ),
            (
                "2. Nf3\n________________________________\nstuff",
                vec!["2. Nf3"],
            ),
            ("2. Nf3\n-- \nIvan Ivanov\n3. Bb5", vec!["2. Nf3"]),
            ("2. Nf3\n--\nIvan", vec!["2. Nf3"]),
        ];
        for (body, expected) in table {
            assert_eq!(own(body), expected, "{body:?}");
        }
    }

    #[test]
    fn bottom_posting_keeps_the_answer_below_the_quote() {
        let body =
            "On 7 Nov 2026, Petrov <p@x.org> wrote:\n> 1... e5\n> Time: 2/4\n\n2. Nf3\nTime: 7/4\n";
        assert_eq!(own(body), vec!["", "2. Nf3", "Time: 7/4"]);
        let numbers: Vec<usize> = own_lines(body).into_iter().map(|(n, _)| n).collect();
        assert_eq!(numbers, vec![4, 5, 6], "line numbers are those of the body");
    }

    #[test]
    fn a_wrapped_header_is_one_header() {
        let body = "2. Nf3\nOn Mon, Nov 7, 2026 at 10:00 AM Petrov Petr <petrov@example.org>\nwrote:\n1... e5\n";
        assert_eq!(own(body), vec!["2. Nf3"]);
    }

    #[test]
    fn sent_label_alone_is_not_an_outlook_block() {
        let body = "Game 1\n2. Nf3\nSent: 2026-11-12\nReceived: 2026-11-07\n";
        assert_eq!(own(body).len(), 4);
    }
}

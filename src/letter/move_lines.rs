//! The reader of a letter's move lines: numbered moves (`12. e4 Nf6`,
//! `12... Nf6`), a conditional variant after `if`/`если`, and the words
//! that may stand among them meaning nothing to the record.

use shakmaty::Color;

use super::errors::{ReadErrorKind, error};
use super::{Letter, MAX_MOVE_NUMBER, MAX_MOVES, MAX_VARIANTS, MoveToken, Variant, notation};

pub(super) fn read_variant(letter: &mut Letter, line_no: usize, line: &str, rest: &str) {
    // (A bare `if` is an empty variant, said so; `if` and words, prose.)
    let prose = !rest.trim().is_empty() && !begins_with_a_move(rest);
    if letter.moves_read() >= MAX_MOVES || prose {
        return;
    }
    let before = letter.moves.len();
    read_moves(letter, line_no, line, rest, true);
    let moves = letter.moves.split_off(before);
    if moves.is_empty() {
        if !letter.errors.iter().any(|e| e.line == line_no) {
            error(letter, line_no, line, ReadErrorKind::EmptyVariant);
        }
        return;
    }
    if letter.variants.len() >= MAX_VARIANTS {
        let kind = ReadErrorKind::TooManyVariants {
            limit: MAX_VARIANTS,
        };
        error(letter, line_no, line, kind);
        return;
    }
    letter.variants.push(Variant {
        line: line_no,
        moves,
    });
}

/// Whether the words after an `if`/`если` begin with a move (a numbered
/// one, or a word read as a move): only then is the line a conditional;
/// "If you want, …" or "Если что, пишите." is prose, and not read.
fn begins_with_a_move(rest: &str) -> bool {
    match split_numbers(rest)
        .into_iter()
        .find(|word| !matches!(word, Word::Text(text) if is_filler(text)))
    {
        Some(Word::Number(..) | Word::Ellipsis) => true,
        Some(Word::Text(text)) => notation::parse_move(without_comma(text)).is_ok(),
        None => false,
    }
}

/// A move written with the comma or semicolon of a sentence after it
/// (`if 2. Nf3, 2... Nc6`), without it.
fn without_comma(word: &str) -> &str {
    word.strip_suffix([',', ';']).unwrap_or(word)
}

/// Words that may stand in a move line and mean nothing to the record.
pub(super) fn is_filler(word: &str) -> bool {
    matches!(
        word.to_lowercase().trim_end_matches([',', ';', '.']),
        "1-0"
            | "0-1"
            | "1/2-1/2"
            | "½-½"
            | "*"
            | "e.p"
            | "ep"
            | "е.п"
            | "(=)"
            | "="
            | "!"
            | "?"
            | "!!"
            | "??"
            | "!?"
            | "?!"
            | "+"
            | "#"
            | "-"
            | "–"
            | "—"
            | ""
            // A conditional as a sentence: `if 2. Nf3, then 2... Nc6`.
            | "then"
            | "то"
            | "тогда"
    )
}

/// Reads a line of numbered moves (`12. e4 Nf6`, `12... Nf6`, `12. ... Nf6`,
/// `12.e4`). Prose that merely starts with a number is left alone; a move line
/// with a word that is no move is an error naming the word. An `if`/`если`
/// inside the line starts a variant with the rest of it.
pub(super) fn read_moves(
    letter: &mut Letter,
    line_no: usize,
    line: &str,
    rest: &str,
    labelled: bool,
) {
    let mut slot: Option<(u32, Color)> = None;
    let mut found = 0usize;
    let mut words = split_numbers(rest).into_iter().peekable();
    while let Some(word) = words.next() {
        match word {
            Word::Number(number, black) => {
                let Some(number) = number
                    .parse::<u32>()
                    .ok()
                    .filter(|n| (1..=MAX_MOVE_NUMBER).contains(n))
                else {
                    error(
                        letter,
                        line_no,
                        line,
                        ReadErrorKind::MoveNumber {
                            number: number.to_string(),
                        },
                    );
                    return;
                };
                slot = Some((number, if black { Color::Black } else { Color::White }));
            }
            Word::Ellipsis => {
                if let Some((number, _)) = slot {
                    slot = Some((number, Color::Black));
                }
            }
            Word::Text(text) if is_filler(text) => {}
            Word::Text(text) if matches!(text.to_lowercase().as_str(), "if" | "если") => {
                let remainder: Vec<String> = words.map(|word| word.to_string()).collect();
                read_variant(letter, line_no, line, &remainder.join(" "));
                return;
            }
            Word::Text(_) if letter.moves_read() >= MAX_MOVES => {
                if !letter.errors.iter().any(|e| e.code() == "too_many_moves") {
                    let kind = ReadErrorKind::TooManyMoves { limit: MAX_MOVES };
                    error(letter, line_no, line, kind);
                }
                return;
            }
            Word::Text(text) => match notation::parse_move(without_comma(text)) {
                Ok(parsed) => {
                    letter.moves.push(MoveToken {
                        number: slot.map(|(number, _)| number),
                        color: slot.map(|(_, color)| color),
                        written: without_comma(text).to_string(),
                        text: parsed,
                        line: line_no,
                    });
                    found += 1;
                    slot = slot.map(|(number, color)| match color {
                        Color::White => (number, Color::Black),
                        Color::Black => (number + 1, Color::White),
                    });
                }
                Err(_) if found == 0 && !labelled && !looks_like_a_move(text) => return,
                Err(_) => {
                    error(
                        letter,
                        line_no,
                        line,
                        ReadErrorKind::NotAMove {
                            word: text.to_string(),
                        },
                    );
                    return;
                }
            },
        }
    }
}

/// A word a player meant as a move: short, with a square's rank digit in it.
pub(super) fn looks_like_a_move(word: &str) -> bool {
    word.chars().count() <= 8 && word.chars().any(|c| ('1'..='8').contains(&c))
}

pub(super) enum Word<'a> {
    /// A move number; `true` when dots say Black's move follows (`12...`).
    Number(&'a str, bool),
    Ellipsis,
    Text(&'a str),
}

impl std::fmt::Display for Word<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Word::Number(number, true) => write!(f, "{number}..."),
            Word::Number(number, false) => write!(f, "{number}."),
            Word::Ellipsis => f.write_str("..."),
            Word::Text(text) => f.write_str(text),
        }
    }
}

/// Splits a move line into numbers, ellipses and words (`12.e4` is two words).
pub(super) fn split_numbers(text: &str) -> Vec<Word<'_>> {
    let mut words = Vec::new();
    for raw in text.split_whitespace() {
        let mut rest = raw;
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let after = &rest[digits..];
        if digits > 0 && (after.starts_with('.') || after.starts_with('…')) {
            let dots_end = after.len() - after.trim_start_matches(['.', '…']).len();
            let dots = &after[..dots_end];
            let black = dots.starts_with("..") || dots.contains('…');
            words.push(Word::Number(&rest[..digits], black));
            rest = &after[dots_end..];
        }
        if rest.is_empty() {
            continue;
        }
        if rest.chars().all(|c| c == '.' || c == '…') {
            words.push(Word::Ellipsis);
        } else {
            words.push(Word::Text(rest));
        }
    }
    words
}

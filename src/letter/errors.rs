//! A line of a letter that could not be read, and how it is told to the
//! player (the words are `templates/<lang>/phrases.toml`'s).

use chrono::NaiveDate;
use serde::Serialize;

use crate::phrases::Phrases;
use crate::rules::Fraction;

use super::{Letter, MAX_ERRORS};

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ReadError {
    pub line: usize,
    /// The line as written (trimmed, cut to a readable length).
    pub text: String,
    pub kind: ReadErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum ReadErrorKind {
    /// A word in a move line that is no move in any notation.
    NotAMove { word: String },
    /// A move number beyond any game.
    MoveNumber { number: String },
    /// Text that looks like a date but is none (`32.13.2026`).
    BadDate { written: String },
    /// A slashed date whose day and month could trade places, only the other
    /// reading lying near the letter's postmark (`11/02/2026` posted on
    /// 2 November in a day-first tournament).
    AmbiguousDate {
        written: String,
        read: NaiveDate,
        other: NaiveDate,
    },
    /// A `Dates:` line without one or three dates.
    DateCount { found: usize, expected: usize },
    /// A `Time:` line without a readable fraction.
    BadFraction,
    /// A fraction with a negative or absurd number.
    FractionOutOfRange { written: String },
    /// `if` without moves.
    EmptyVariant,
    /// More moves than any game's score: the rest of the letter was not read.
    TooManyMoves { limit: usize },
    /// More conditional variants than one letter may hold.
    TooManyVariants { limit: usize },
}

impl ReadError {
    /// A short code, stable for templates and tests.
    pub fn code(&self) -> &'static str {
        match self.kind {
            ReadErrorKind::NotAMove { .. } => "not_a_move",
            ReadErrorKind::MoveNumber { .. } => "move_number",
            ReadErrorKind::BadDate { .. } => "bad_date",
            ReadErrorKind::AmbiguousDate { .. } => "ambiguous_date",
            ReadErrorKind::DateCount { .. } => "date_count",
            ReadErrorKind::BadFraction => "bad_fraction",
            ReadErrorKind::FractionOutOfRange { .. } => "fraction_out_of_range",
            ReadErrorKind::EmptyVariant => "empty_variant",
            ReadErrorKind::TooManyMoves { .. } => "too_many_moves",
            ReadErrorKind::TooManyVariants { .. } => "too_many_variants",
        }
    }

    /// What is wrong and how to write it, in plain words for the player.
    pub fn explain(&self, phrases: &Phrases) -> String {
        self.explain_with(phrases, None)
    }

    /// The same, with the fraction the player should have written, where it is
    /// known, as the example of a fraction (never numbers of nobody's game).
    pub fn explain_with(&self, phrases: &Phrases, fraction: Option<Fraction>) -> String {
        let what = match &self.kind {
            ReadErrorKind::NotAMove { word } => phrases.fill("error.not_a_move", &[("word", word)]),
            ReadErrorKind::MoveNumber { number } => {
                phrases.fill("error.move_number", &[("number", number)])
            }
            ReadErrorKind::BadDate { written } => {
                phrases.fill("error.bad_date", &[("written", written)])
            }
            ReadErrorKind::AmbiguousDate {
                written,
                read,
                other,
            } => phrases.fill(
                "error.ambiguous_date",
                &[
                    ("written", written),
                    ("read", &phrases.date(*read)),
                    ("other", &phrases.date(*other)),
                    ("other_short", &other.format("%-d.%m.%Y")),
                    ("read_words", &read.format("%-d %b %Y")),
                    ("other_words", &other.format("%-d %b %Y")),
                    ("other_iso", &other.format("%Y-%m-%d")),
                ],
            ),
            ReadErrorKind::DateCount { found, expected } => phrases.fill(
                "error.date_count",
                &[("found", found), ("expected", expected)],
            ),
            ReadErrorKind::BadFraction => match fraction {
                Some(fraction) => {
                    phrases.fill("error.bad_fraction_own", &[("fraction", &fraction)])
                }
                None => phrases.get("error.bad_fraction").to_string(),
            },
            ReadErrorKind::FractionOutOfRange { written } => {
                phrases.fill("error.fraction_out_of_range", &[("written", written)])
            }
            ReadErrorKind::EmptyVariant => phrases.get("error.empty_variant").to_string(),
            ReadErrorKind::TooManyMoves { limit } => {
                phrases.fill("error.too_many_moves", &[("limit", limit)])
            }
            ReadErrorKind::TooManyVariants { limit } => {
                phrases.fill("error.too_many_variants", &[("limit", limit)])
            }
        };
        phrases.fill(
            "error.at_line",
            &[("line", &self.line), ("text", &self.text), ("what", &what)],
        )
    }
}

/// An error of `letter`'s line `line` (its text bounded), while it has
/// fewer than [`MAX_ERRORS`].
pub(super) fn error(letter: &mut Letter, line: usize, text: &str, kind: ReadErrorKind) {
    if letter.errors.len() >= MAX_ERRORS {
        return;
    }
    let mut text = text.trim().to_string();
    if text.chars().count() > 80 {
        text = text.chars().take(77).collect::<String>() + "...";
    }
    letter.errors.push(ReadError { line, text, kind });
}

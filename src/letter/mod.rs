//! A letter's own text read the way an arbiter reads it (contract.md 3).
//!
//! Reading is syntax only: moves are normalised but not checked on the board
//! (that is `game`), dates are read but not compared with postmarks (that is
//! `rules`). Whatever cannot be read comes back as a [`ReadError`] that names the
//! line and says what was expected, so that a reply can quote it. Nothing here
//! panics on any input.

/// A regex compiled at its first use (the submodules' too).
macro_rules! pattern {
    ($name:ident, $re:expr) => {
        static $name: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| regex::Regex::new($re).expect(stringify!($name)));
    };
}

pub mod dates;
mod errors;
mod keywords;
pub mod notation;
pub mod quote;
mod rulings;
#[cfg(test)]
mod tests;

use chrono::NaiveDate;
use serde::Serialize;
use shakmaty::Color;

pub use dates::{DateOrder, DateReading, WrittenDate};
pub use errors::{ReadError, ReadErrorKind};
use keywords::keywords;
pub use notation::MoveText;

use self::rulings::ruling_of;
pub use self::rulings::{AcceptWords, Newcomer, Order, Ruling, accept_words};
pub use crate::rules::{Decision, GameResult};
use crate::rules::{Fraction, Stated, StatedDates};

/// Move numbers above this are taken for a typing error.
pub const MAX_MOVE_NUMBER: u32 = 2000;
/// Days above this in a fraction are taken for a typing error.
pub const MAX_FRACTION_DAYS: u32 = 100_000;
/// The most moves (half-moves, variants' included) read from one letter:
/// more than the longest game's whole score, so that a letter of a megabyte
/// of moves costs its reader, and the database, a bounded reading.
pub const MAX_MOVES: usize = 1_000;
/// The most conditional variants read from one letter.
pub const MAX_VARIANTS: usize = 50;
/// The most reading errors kept of one letter: a reply names the first.
pub const MAX_ERRORS: usize = 20;

/// Everything a letter says, as written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Letter {
    /// The game named by a `Game: 1` / `Партия 1` line.
    pub game: Option<String>,
    /// The moves, the partner's repeated ones and one's own, in order.
    pub moves: Vec<MoveToken>,
    /// Conditional variants (`if 2... Nc6 3. Bb5`).
    pub variants: Vec<Variant>,
    pub fraction: Option<Fraction>,
    pub dates: WrittenDates,
    /// `Previous dates:`: what the previous letter left out (10.3.3).
    pub previous_dates: Option<WrittenDates>,
    pub keywords: Vec<Keyword>,
    /// Rulings of the chief arbiter (`CONFIRM 1`).
    pub rulings: Vec<Ruling>,
    /// A leave asked (`LEAVE 10.12.2026 - 20.12.2026`): the dates written
    /// on its line, its first and last day if there are two.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leave: Option<Vec<dates::WrittenDate>>,
    pub errors: Vec<ReadError>,
}

/// One move as written, with where it stands in the game if the letter says so.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveToken {
    /// The move number written before it (or carried on from the previous move).
    pub number: Option<u32>,
    #[serde(serialize_with = "serialize_color_opt")]
    pub color: Option<Color>,
    /// The word as the player wrote it.
    pub written: String,
    pub text: MoveText,
    /// Line of the body it stands on (1-based).
    pub line: usize,
}

/// A conditional variant: the partner's move, one's reply, and so on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Variant {
    pub line: usize,
    pub moves: Vec<MoveToken>,
}

/// The three dates of a letter, each as written, or absent.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct WrittenDates {
    pub postmark: Option<WrittenDate>,
    pub received: Option<WrittenDate>,
    pub sent: Option<WrittenDate>,
    /// Fewer dates than asked for, in the order written, without saying which
    /// they are (`Dates: 27.11.2026, 02.12.2026`): the rules place them by the
    /// postmarks.
    pub unplaced: Vec<WrittenDate>,
}

impl WrittenDates {
    fn is_empty(&self) -> bool {
        self.postmark.is_none()
            && self.received.is_none()
            && self.sent.is_none()
            && self.unplaced.is_empty()
    }

    /// The calendar dates, years filled in from `near` (the letter's postmark).
    pub fn resolve(&self, near: NaiveDate) -> StatedDates {
        let resolve = |date: Option<WrittenDate>| date.and_then(|date| date.resolve(near));
        StatedDates {
            postmark: resolve(self.postmark),
            received: resolve(self.received),
            sent: resolve(self.sent),
            unplaced: self
                .unplaced
                .iter()
                .filter_map(|date| date.resolve(near))
                .collect(),
        }
    }
}

/// Words that are not moves but change the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Keyword {
    DrawOffer,
    DrawAccept,
    DrawDecline,
    Resign,
    Protest,
}

/// What a letter is, decided once from what it says: the clerk handles each
/// kind in a file of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LetterKind {
    /// A ruling of the chief arbiter (`CONFIRM 1`): from anyone else, nothing.
    Ruling,
    Resignation,
    DrawAcceptance,
    Protest,
    /// A leave asked (`LEAVE …`, `ОТПУСК …`).
    Leave,
    Move,
    /// No move and no word the clerk knows.
    Unknown,
}

fn serialize_color_opt<S: serde::Serializer>(
    color: &Option<Color>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match color {
        Some(color) => serializer.serialize_str(crate::color_name(*color)),
        None => serializer.serialize_none(),
    }
}

/// One thing a letter asks of the clerk. A letter may ask several (a move
/// and a leave, a move and a draw offer): each is carried out, or its
/// answer says why not; none is dropped unsaid (issue 30, point 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Part {
    /// An order line (`RESULT 1 1-0`): the chief arbiter's.
    Order,
    /// A leave asked: carried out on its own, beside the rest.
    Leave,
    Resignation,
    DrawAccept,
    Protest,
    Move,
    DrawOffer,
    DrawDecline,
}

impl Letter {
    /// Everything the letter asks, each once, in the order above.
    pub fn parts(&self) -> Vec<Part> {
        let has = |keyword| self.keywords.contains(&keyword);
        [
            (Part::Order, !self.rulings.is_empty()),
            (Part::Leave, self.leave.is_some()),
            (Part::Resignation, has(Keyword::Resign)),
            (Part::DrawAccept, has(Keyword::DrawAccept)),
            (Part::Protest, has(Keyword::Protest)),
            (Part::Move, self.has_moves()),
            (Part::DrawOffer, has(Keyword::DrawOffer)),
            (Part::DrawDecline, has(Keyword::DrawDecline)),
        ]
        .into_iter()
        .filter_map(|(part, there)| there.then_some(part))
        .collect()
    }

    /// The letter without its leave: what is left to carry out in its
    /// game, once the leave is taken apart.
    pub fn without_leave(&self) -> Letter {
        Letter {
            leave: None,
            ..self.clone()
        }
    }

    /// The letter without its order lines: a player's letter, whose orders
    /// order nothing (they are answered apart).
    pub fn without_orders(&self) -> Letter {
        Letter {
            rulings: Vec::new(),
            ..self.clone()
        }
    }

    /// The parts of a player's letter in its game that the handler of its
    /// kind does not carry out, for its answer to say so: a resignation
    /// plays no move and offers nothing; a protest (the offender's, while
    /// the game is suspended) takes no move; an acceptance of a draw
    /// neither offers nor declines one. (Orders and a leave are taken
    /// apart before; the board tells an acceptance with a move from a move.)
    pub fn unheeded(&self) -> Vec<Part> {
        let handled: &[Part] = match self.kind() {
            LetterKind::Resignation => &[Part::Resignation],
            LetterKind::Protest => &[Part::Protest],
            LetterKind::DrawAcceptance => &[Part::DrawAccept, Part::Move],
            LetterKind::Move => &[Part::Move, Part::DrawOffer, Part::DrawDecline],
            LetterKind::Ruling | LetterKind::Leave | LetterKind::Unknown => &[],
        };
        self.parts()
            .into_iter()
            .filter(|part| !matches!(part, Part::Order | Part::Leave) && !handled.contains(part))
            .collect()
    }

    /// This letter as the director reads it (`shtempel accept`): its own
    /// dates, fraction and words, with the moves and variants of `given`
    /// in place of those read, and none of the errors of reading moves.
    pub fn with_moves_of(&self, given: &Letter) -> Letter {
        let mut letter = self.clone();
        letter.moves = given.moves.clone();
        letter.variants = given.variants.clone();
        letter.errors.retain(|error| {
            !matches!(
                error.kind,
                ReadErrorKind::NotAMove { .. }
                    | ReadErrorKind::MoveNumber { .. }
                    | ReadErrorKind::EmptyVariant
                    | ReadErrorKind::TooManyMoves { .. }
                    | ReadErrorKind::TooManyVariants { .. }
            )
        });
        letter
    }

    /// The moves read so far, the variants' included.
    fn moves_read(&self) -> usize {
        self.moves.len() + self.variants.iter().map(|v| v.moves.len()).sum::<usize>()
    }

    /// What the letter states about time, its dates resolved near `postmark`.
    pub fn stated(&self, postmark: NaiveDate) -> Stated {
        Stated {
            dates: self.dates.resolve(postmark),
            fraction: self.fraction,
            previous: self
                .previous_dates
                .as_ref()
                .map(|dates| dates.resolve(postmark)),
        }
    }

    /// Whether the letter carries a move (its own or a repeated one).
    pub fn has_moves(&self) -> bool {
        !self.moves.is_empty()
    }

    /// What the letter is: a ruling, a resignation, a draw acceptance or a
    /// protest by its words, else a move letter by its moves (an acceptance
    /// that also moves is told from a move letter by the game: with no offer
    /// standing, it is one).
    pub fn kind(&self) -> LetterKind {
        if !self.rulings.is_empty() {
            LetterKind::Ruling
        } else if self.leave.is_some() {
            LetterKind::Leave
        } else if self.keywords.contains(&Keyword::Resign) {
            LetterKind::Resignation
        } else if self.keywords.contains(&Keyword::DrawAccept) {
            LetterKind::DrawAcceptance
        } else if self.keywords.contains(&Keyword::Protest) {
            LetterKind::Protest
        } else if self.has_moves() {
            LetterKind::Move
        } else {
            LetterKind::Unknown
        }
    }
}

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
// reads, and are named unreadable, not out of range (issue 20, point 18).
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
pattern!(VARIANT_LINE, r"(?i)^\s*(?:if|если)\b[\s:,]*(.*)$");
pattern!(LEAVE_LINE, r"(?i)^\s*(?:leave|отпуск)\b\s*:?\s*(.*)$");
pattern!(
    PROTEST,
    r"(?m)(?:\b(?:PROTEST|ПРОТЕСТ)\b|^\s*(?:Protest|Протест)\b)"
);

pattern!(
    SUBJECT_GAME,
    r"(?i)(?:^|[\s:\[(])(?:game|партия|партии|игра|игры)\s*(?:№|#|no\.?)?\s*([A-Za-z0-9][\w.-]*)"
);

/// The game a subject names without the clerk's tag (`Партия 6`, `Re: Game 3`,
/// `Fwd: game 3`): an id that begins with a digit, or one `exists` knows, so
/// that "Game over" names none.
pub fn subject_game(subject: &str, exists: impl Fn(&str) -> bool) -> Option<String> {
    SUBJECT_GAME.captures_iter(subject).find_map(|caps| {
        let id = caps[1].trim_end_matches(['.', '-']);
        (id.starts_with(|c: char| c.is_ascii_digit()) || exists(id)).then(|| id.to_string())
    })
}

/// Reads a letter's text: cuts quotes and signature, then reads each own line.
/// Slashed dates are read day first, with no postmark to judge them by.
pub fn read(body: &str) -> Letter {
    read_with(body, DateReading::default())
}

/// Reads a letter's text, its dates as `dates` says (the tournament's order,
/// and the letter's postmark).
pub fn read_with(body: &str, dates: DateReading) -> Letter {
    let mut letter = Letter::default();
    let own = own_lines(body);
    for &(line_no, line) in &own {
        read_line(&mut letter, line_no, line, dates);
    }
    let own_text: String = own
        .iter()
        .map(|(_, line)| line.to_lowercase())
        .collect::<Vec<_>>()
        .join("\n");
    letter.keywords = keywords(&own_text, &own);
    letter
}

/// The lines of a body the writer wrote himself (quotes and signature cut),
/// with their 1-based line numbers.
pub fn own_lines(body: &str) -> Vec<(usize, &str)> {
    quote::own_lines(body, &states_something)
}

/// Whether the reader takes something from a line on its own: a move, a
/// fraction, dates, a game, a ruling.
fn states_something(line: &str) -> bool {
    let mut scratch = Letter::default();
    read_line(&mut scratch, 0, line, DateReading::default());
    scratch.errors.clear();
    scratch != Letter::default()
}

fn error(letter: &mut Letter, line: usize, text: &str, kind: ReadErrorKind) {
    if letter.errors.len() >= MAX_ERRORS {
        return;
    }
    let mut text = text.trim().to_string();
    if text.chars().count() > 80 {
        text = text.chars().take(77).collect::<String>() + "...";
    }
    letter.errors.push(ReadError { line, text, kind });
}

fn read_line(letter: &mut Letter, line_no: usize, line: &str, reading: DateReading) {
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
    if may("lо")
        && let Some(caps) = LEAVE_LINE.captures(line)
    {
        let (found, _) = dates::find_dates(&caps[1], reading);
        let written = found
            .into_iter()
            .filter_map(|date| {
                date.map_err(|bad| date_error(letter, line_no, line, bad))
                    .ok()
            })
            .collect();
        letter.leave.get_or_insert(written);
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
        let label = caps[1].to_lowercase();
        let rest = caps.get(2).map_or("", |m| m.as_str());
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
    }
}

fn read_fraction(letter: &mut Letter, line_no: usize, line: &str, rest: &str) {
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
fn line_dates(
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

fn date_error(letter: &mut Letter, line_no: usize, line: &str, bad: dates::BadDate) {
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

fn one_date(
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

fn read_variant(letter: &mut Letter, line_no: usize, line: &str, rest: &str) {
    if letter.moves_read() >= MAX_MOVES {
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

/// Words that may stand in a move line and mean nothing to the record.
fn is_filler(word: &str) -> bool {
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
    )
}

/// Reads a line of numbered moves (`12. e4 Nf6`, `12... Nf6`, `12. ... Nf6`,
/// `12.e4`). Prose that merely starts with a number is left alone; a move line
/// with a word that is no move is an error naming the word. An `if`/`если`
/// inside the line starts a variant with the rest of it.
fn read_moves(letter: &mut Letter, line_no: usize, line: &str, rest: &str, labelled: bool) {
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
            Word::Text(text) => match notation::parse_move(text) {
                Ok(parsed) => {
                    letter.moves.push(MoveToken {
                        number: slot.map(|(number, _)| number),
                        color: slot.map(|(_, color)| color),
                        written: text.to_string(),
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
fn looks_like_a_move(word: &str) -> bool {
    word.chars().count() <= 8 && word.chars().any(|c| ('1'..='8').contains(&c))
}

enum Word<'a> {
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
fn split_numbers(text: &str) -> Vec<Word<'_>> {
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

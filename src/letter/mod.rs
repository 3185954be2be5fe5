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

mod asks;
pub mod dates;
mod errors;
mod keywords;
mod lines;
mod move_lines;
pub mod notation;
pub mod quote;
mod rulings;
#[cfg(test)]
mod tests;

use chrono::NaiveDate;
use serde::Serialize;
use shakmaty::Color;

pub use asks::Ask;
pub use dates::{DateOrder, DateReading, WrittenDate};
pub use errors::{ReadError, ReadErrorKind};
use keywords::keywords;
pub use notation::MoveText;

use self::lines::game_of_line;
use self::lines::read_line;
pub use self::rulings::{AcceptWords, Newcomer, Ruling, WrittenOrder, accept_words};
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
    /// Leave lines after the first, as written: one letter asks one leave,
    /// and its writer is told these were not carried out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub more_leaves: Vec<String>,
    /// `STATUS` / `СТАТУС` on a line of its own, with the event's id after
    /// it where one is named: where his games stand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<StatusAsked>,
    /// What he asks of the clerk's letters to him (`DIAGRAMS TEXT`,
    /// `LANGUAGE EN`), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub preferences: Vec<Preference>,
    /// `XFCC` / `ИКСФЦЦ` on a line of its own: a login to the Xfcc server.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub xfcc: bool,
    pub errors: Vec<ReadError>,
    /// The blocks of a letter written for several games (`Game 1` and its
    /// lines, then `Game 2` and its): each read as a letter of its own, with
    /// its game. This letter is the first block's.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub other_games: Vec<Letter>,
}

/// A player's question where his games stand (`STATUS`, `STATUS CC-2026`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct StatusAsked {
    /// The event named after the word, as written.
    pub event: Option<String>,
}

/// A line that sets what the clerk's letters to their reader carry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Preference {
    /// `DIAGRAMS TEXT|PICTURE|BOTH|NONE` (`ДИАГРАММЫ ТЕКСТ|КАРТИНКА|ОБА|НЕТ`):
    /// the board's form, as `[mail] diagrams` sets it.
    Diagrams(crate::Diagrams),
    /// `LANGUAGE EN|RU` (`ЯЗЫК …`).
    Language(crate::Lang),
    /// `DIGEST DAILY|NONE` (`СВОДКА ЕЖЕДНЕВНО|НЕТ`).
    Digest(crate::Digest),
    /// A word after `DIAGRAMS` or `LANGUAGE` that names no setting, as
    /// written.
    Unknown(String),
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

fn serialize_color_opt<S: serde::Serializer>(
    color: &Option<Color>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match color {
        Some(color) => serializer.serialize_str(crate::color_name(*color)),
        None => serializer.serialize_none(),
    }
}

impl Letter {
    /// The letter without its leave: what is left to carry out in its
    /// game, once the leave is taken apart.
    pub fn without_leave(&self) -> Letter {
        Letter {
            leave: None,
            more_leaves: Vec::new(),
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
}

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
    let own = own_lines(body);
    let mut blocks = persons_asks_first(game_blocks(&own))
        .into_iter()
        .map(|block| read_block(&block, dates));
    let mut letter = blocks.next().unwrap_or_default();
    letter.other_games = blocks.collect();
    letter
}

/// A letter's own lines cut where a `Game` line names another game than
/// the one its block names already: `Партия 1 / 1... e5 / Партия 2 / 1.
/// d4` is two blocks. Lines before the first `Game` line are the first
/// block's; a letter that names one game (or none) is one block.
fn game_blocks<'l>(own: &'l [(usize, &'l str)]) -> Vec<&'l [(usize, &'l str)]> {
    let mut blocks = Vec::new();
    let (mut start, mut game) = (0, None::<&str>);
    for (at, &(_, line)) in own.iter().enumerate() {
        let Some(named) = game_of_line(line) else {
            continue;
        };
        match game {
            Some(current) if !current.eq_ignore_ascii_case(named) => {
                blocks.push(&own[start..at]);
                start = at;
                game = Some(named);
            }
            Some(_) => {}
            None => game = Some(named),
        }
    }
    blocks.push(&own[start..]);
    blocks
}

/// The blocks with the person's asks of every block (a leave, STATUS, a
/// setting: his, not a game's) in the first block that asks something of
/// a game, where the letter's asks are read and answered, beside its
/// moves: `Game 1 / 1. e4 / … / Game 2 / LEAVE …` asks a leave, not a move
/// in game 2. A block left with nothing of a game (its `Game` line, prose)
/// is gone.
fn persons_asks_first<'l>(blocks: Vec<&[(usize, &'l str)]>) -> Vec<Vec<(usize, &'l str)>> {
    // A letter of one block (most are) is read once, as it is.
    if let [only] = blocks.as_slice() {
        return vec![only.to_vec()];
    }
    let mut persons = Vec::new();
    let mut games: Vec<Vec<(usize, &str)>> = Vec::new();
    for block in blocks {
        let (asks, rest): (Vec<_>, Vec<_>) = block.iter().partition(|(_, line)| persons_ask(line));
        persons.extend(asks);
        games.push(rest);
    }
    // Read as a letter, it says something besides its game: a move, a
    // word (`I resign`), a line it finds wrong.
    let of_a_game = |block: &[(usize, &str)]| {
        let read = read_block(block, DateReading::default());
        Letter { game: None, ..read } != Letter::default()
    };
    // The first block keeps its lines whatever they are (its prose, a
    // lone `Game` line): the letter is answered from it.
    let first = games.iter().position(|block| of_a_game(block)).unwrap_or(0);
    let mut kept: Vec<Vec<(usize, &str)>> = games
        .into_iter()
        .enumerate()
        .filter(|(at, block)| *at == first || of_a_game(block))
        .map(|(_, block)| block)
        .collect();
    if let Some(block) = kept.first_mut() {
        block.extend(persons);
        block.sort_by_key(|(line_no, _)| *line_no);
    }
    kept
}

/// Whether a line asks something of the person alone: a leave, STATUS, a
/// setting of the clerk's letters to him.
fn persons_ask(line: &str) -> bool {
    let mut scratch = Letter::default();
    read_line(&mut scratch, 0, line, DateReading::default());
    let asks = scratch.asks().into_iter().any(Ask::is_persons);
    asks && scratch.moves.is_empty() && scratch.rulings.is_empty() && scratch.game.is_none()
}

/// One block of own lines read as a letter.
fn read_block(own: &[(usize, &str)], dates: DateReading) -> Letter {
    let mut letter = Letter::default();
    for &(line_no, line) in own {
        read_line(&mut letter, line_no, line, dates);
    }
    let own_text: String = own
        .iter()
        .map(|(_, line)| line.to_lowercase())
        .collect::<Vec<_>>()
        .join("\n");
    letter.keywords = keywords(&own_text, own);
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

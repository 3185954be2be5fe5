//! What the handlers of a player's letter share: the letter in hand
//! ([`LetterContext`]) and where it named its game ([`GameNote`]), made by
//! intake and read by the letters' handlers and by what is said.

use chrono::NaiveDate;
use shakmaty::Color;

use crate::letter::Letter;
use crate::mail::format::mime::Mail;

/// A letter in hand before its game is known: the mail, what was read in
/// it, and its bytes.
#[derive(Clone, Copy)]
pub struct Written<'m> {
    pub mail: &'m Mail,
    pub read: &'m Letter,
    pub raw: &'m [u8],
}

/// The facts of the letter being planned.
pub struct LetterContext<'m> {
    pub mail: &'m Mail,
    pub read: &'m Letter,
    pub color: Color,
    pub postmark: NaiveDate,
    pub raw: &'m [u8],
    /// Said in the reply: the game was named against its thread.
    pub game_note: Option<GameNote>,
    /// How it came: a move by Xfcc states nothing to check.
    pub channel: crate::rules::Channel,
}

/// A named game that is not the one the letter's thread (or tag) is of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameNote {
    pub by: NamedBy,
    /// The game of the thread.
    pub other: String,
}

/// Where a letter names its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedBy {
    /// A `Game: N` / `Партия N` line.
    Line,
    /// The subject's tag `[ID #N]`.
    Tag,
    /// The order that accepted a refused letter (`accept KEY --game N`,
    /// `ACCEPT KEY GAME N`): the director's word, not the letter's.
    Accepted,
    /// A subject like `Re: Партия 3`.
    Subject,
}

impl NamedBy {
    pub fn code(self) -> &'static str {
        match self {
            NamedBy::Line => "line",
            NamedBy::Tag => "tag",
            NamedBy::Accepted => "accepted",
            NamedBy::Subject => "subject",
        }
    }

    pub fn phrase(self) -> &'static str {
        match self {
            NamedBy::Line => "named_by.line",
            NamedBy::Tag => "named_by.tag",
            NamedBy::Accepted => "named_by.accepted",
            NamedBy::Subject => "named_by.subject",
        }
    }
}

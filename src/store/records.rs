//! What the store keeps, as the rest of the program reads and writes it: a
//! letter and its fate, a game's stored state, the outbox's messages, and
//! the notes under a game's chart.

use std::collections::BTreeSet;

use chrono::{DateTime, NaiveDate, Utc};
use shakmaty::Color;

use crate::game::HeldVariant;
use crate::key::GameKey;
use crate::record::Seat;
use crate::rules::{DutyKey, Row, Standing};

/// Where a letter ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    /// Applied to a game (moves, a result, a decision…).
    Applied,
    /// Answered with a refusal; the game is unchanged.
    Refused,
    /// Recorded and left alone: an auto-reply, a bounce, a stranger, a loop.
    Ignored,
    /// Failed on several runs; kept for the director and left alone.
    Quarantined,
}

impl Disposition {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Disposition::Applied => "applied",
            Disposition::Refused => "refused",
            Disposition::Ignored => "ignored",
            Disposition::Quarantined => "quarantined",
        }
    }
}

/// Whether a letter was seen already ([`Store::letter_seen`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seen {
    New,
    Before,
    /// Another letter is stored under its key: this one is its own, under
    /// the key given.
    Clash(String),
}

/// A letter as it is kept.
#[derive(Clone, Debug)]
pub struct StoredLetter {
    pub dedup_key: String,
    /// [`crate::mail::format::keys::fingerprint`] (none for a quarantined letter).
    pub fingerprint: Option<String>,
    pub message_id: Option<String>,
    pub source_key: String,
    pub arrived: DateTime<Utc>,
    pub postmark: NaiveDate,
    pub sender: Option<String>,
    pub game: Option<String>,
    pub color: Option<Color>,
    pub disposition: Disposition,
    pub reason: String,
    pub parse_json: Option<String>,
    pub raw: Vec<u8>,
}

/// A player's letter in a game, as the store keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLetter {
    pub postmark: NaiveDate,
    pub sender: Option<String>,
    /// What the clerk read in it (`letter::read`'s JSON), if it read it.
    pub parse_json: Option<String>,
    pub raw: Vec<u8>,
}

/// The stored state of one game, besides its moves: the rules' standing and
/// the variants the board holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    pub standing: Standing,
    pub held: Vec<HeldVariant>,
}

/// One game as loaded: state, moves with their clocks, duties done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredGame {
    pub row: GameRow,
    pub moves: Vec<Row>,
    pub done: BTreeSet<DutyKey>,
    /// Who played its colours before a replacement, in order.
    pub seats: Vec<Seat>,
}

/// A message waiting in, or sent from, the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxItem {
    pub id: i64,
    pub game: Option<String>,
    pub kind: String,
    pub recipients: Vec<String>,
    pub message_id: String,
    pub raw: Vec<u8>,
    /// The move this message delivers to its reader (sets `delivered_on`).
    pub delivers: Option<(String, usize)>,
    pub attempts: u32,
}

/// A message to put in the outbox.
#[derive(Clone, Debug)]
pub struct NewOutbox {
    pub game: Option<String>,
    pub kind: String,
    pub recipients: Vec<String>,
    pub message_id: String,
    pub raw: Vec<u8>,
    pub delivers: Option<usize>,
    /// Held until this day (a refusal over the daily reply limit); counted
    /// among that day's replies.
    pub send_on: Option<NaiveDate>,
    /// Kept for this address's daily digest: sent with it, never alone.
    pub digest_for: Option<String>,
}

/// A message kept for a reader's daily digest.
#[derive(Clone, Debug)]
pub struct HeldMessage {
    pub id: i64,
    pub game: Option<GameKey>,
    pub kind: String,
    pub raw: Vec<u8>,
    /// The day it was kept.
    pub created_on: NaiveDate,
}

/// A message of the outbox, for reports and tests.
#[derive(Clone, Debug)]
pub struct SentMessage {
    pub kind: String,
    pub recipients: String,
    pub raw: Vec<u8>,
    pub sent: bool,
}

/// A note under a game's chart: a correction, penalty, repeat, decision….
/// Kept in the event's language and, where the clerk could word it so,
/// in the other one, so that a reader who chose it reads the chart in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub ply: Option<usize>,
    pub kind: NoteKind,
    /// In the event's language.
    pub text: String,
    /// In the other language (none in a note kept before schema 18).
    pub other: Option<(crate::Lang, String)>,
    pub created_on: NaiveDate,
}

named_enum! {
    /// What a note under the chart records, by the name the store keeps.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum NoteKind {
        /// A letter's statement corrected (10.3.2).
        Correction => "correction",
        /// A first omission warned of (10.3.3).
        Warning => "warning",
        /// An omission repeated, charged (10.3.3).
        Penalty => "penalty",
        /// A move repeated by registered letter (10.3.4).
        Repeat => "repeat",
        Overstep => "overstep",
        Protest => "protest",
        /// Days the chief arbiter excused.
        Credit => "credit",
        /// The chief arbiter's decision of an overstep.
        Decision => "decision",
        /// A result set by the arbiter or the director.
        Award => "award",
        Leave => "leave",
        Replaced => "replaced",
        /// A refused letter the director or arbiter took.
        Accepted => "accepted",
        /// Moves taken back (`UNDO`).
        Undone => "undone",
        /// A game annulled by a withdrawal.
        Annulled => "annulled",
    }
}

impl Note {
    /// The note in `lang`, where it was kept in it; else as the event
    /// words it.
    pub fn text_in(&self, lang: crate::Lang) -> &str {
        match &self.other {
            Some((other, text)) if *other == lang => text,
            _ => &self.text,
        }
    }
}

//! A letter as read before any game is looked at: its MIME front, its key,
//! its fingerprint, and its text as read (on the reading thread); and what
//! is kept of one that is not read.

use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::letter::Letter;
use crate::mail::Envelope;
use crate::mail::format::keys::{FIELD_MOST, dedup_key, fingerprint, header_end};
use crate::mail::format::mime;
use crate::mail::format::mime::Mail;
use crate::store::StoredLetter;
use crate::{letter, rules};

use crate::clerk::REASON_MOST;

/// What is read from a letter before the tournament's state is looked at:
/// its MIME front, its key, its fingerprint, and its text as read. Pure, so a
/// run prepares the next letters on a second thread while the first plans,
/// writes and sends.
///
/// Only a letter from a player or the chief arbiter, not automatic and not
/// over `max_letter_bytes`, is read whole; of any other the headers alone
/// are (a stranger's megabyte cost its reading, ten megabytes of
/// it, in memory and in the database).
#[derive(Clone, Debug)]
pub struct Prepared {
    pub oversized: bool,
    pub mail: Option<Mail>,
    pub key: String,
    /// [`crate::mail::format::keys::fingerprint`]: what makes two letters under one Message-ID the same.
    pub fingerprint: String,
    pub read: Option<Letter>,
    /// `read` as stored with the letter ([`stored_reading`]): written here,
    /// on the reading thread (it was a fiftieth of the main thread's time).
    pub read_json: Option<String>,
    /// The director named the letter's game (`accept --game`): his word
    /// identifies it, in whichever of the clerk's events he took it for
    ///.
    pub directed: bool,
    /// The acceptance named the letter's event (`ACCEPT A KEY`,
    /// `--tournament A`): it is read as that event's, its writer's games
    /// elsewhere aside.
    pub event_named: bool,
    /// Where the run routed the letter ([`crate::clerk::route_prepared`]), once;
    /// `None` where it was not routed (`check` of one tournament, a letter
    /// accepted).
    pub route: Option<crate::clerk::Route>,
    /// How its dates were read: the order of slashed dates and the postmark's
    /// day, of the event whose settings it was read with.
    pub reading: crate::letter::DateReading,
    /// How it came (the envelope's: its source's word).
    pub channel: crate::rules::Channel,
}

impl Prepared {
    pub fn new(config: &Config, envelope: &Envelope) -> Prepared {
        Prepared::reading(config, envelope, &|address| config.is_known(address))
    }

    /// The same, a letter read whole where `known` knows its sender (a
    /// player or an arbiter of any of the clerk's tournaments).
    pub fn reading(config: &Config, envelope: &Envelope, known: &dyn Fn(&str) -> bool) -> Prepared {
        let raw = &envelope.raw;
        let oversized = envelope.size.max(raw.len()) > config.limits.max_letter_bytes;
        // A letter of a few pages is parsed whole at once (parsing its
        // headers first cost a tenth of a run); a larger one for its
        // headers first, and whole only when it is to be read.
        let whole = !oversized && raw.len() <= PARSED_WHOLE_BYTES;
        let head = &raw[..header_end(raw).unwrap_or(raw.len()).min(MAX_HEADER_BYTES)];
        let mut mail = mime::parse(if whole { raw } else { head }, &config.address);
        let readable = mail.as_ref().is_some_and(|m| {
            !oversized && m.automatic.is_none() && m.from.as_deref().is_some_and(known)
        });
        if readable && !whole {
            mail = mime::parse(raw, &config.address);
        }
        let key = dedup_key(mail.as_ref(), raw);
        let fingerprint = fingerprint(mail.as_ref().and_then(|m| m.from.as_deref()), raw);
        let reading = config.date_reading(Some(rules::postmark_date(
            &envelope.arrived,
            config.timezone,
        )));
        let read = mail
            .as_ref()
            .filter(|_| readable)
            .map(|m| letter::read_with(&m.text, reading));
        let read_json = read.as_ref().and_then(|r| stored_reading(r, raw.len()));
        Prepared {
            oversized,
            mail,
            key,
            fingerprint,
            read,
            read_json,
            directed: false,
            event_named: false,
            route: None,
            reading,
            channel: envelope.channel,
        }
    }

    /// The letter as the event it is routed to reads it (a
    /// letter was read with the first event's settings): its text read
    /// again where that event's order of slashed dates, or the day of the
    /// postmark in its time zone, differ.
    pub fn read_for(self, config: &Config, envelope: &Envelope) -> Prepared {
        let postmark = rules::postmark_date(&envelope.arrived, config.timezone);
        let reading = config.date_reading(Some(postmark));
        if self.read.is_none() || reading == self.reading {
            return self;
        }
        let read = self
            .mail
            .as_ref()
            .map(|mail| letter::read_with(&mail.text, reading));
        let read_json = read
            .as_ref()
            .and_then(|r| stored_reading(r, envelope.raw.len()));
        Prepared {
            read,
            read_json,
            reading,
            ..self
        }
    }
}

/// Headers beyond this are not read (of a letter read for its headers only).
pub(super) const MAX_HEADER_BYTES: usize = 64 * 1024;

/// A letter up to this size is parsed whole before its sender is known.
pub(super) const PARSED_WHOLE_BYTES: usize = 64 * 1024;

/// What the database keeps of the raw bytes of a letter the clerk does not
/// read (an automatic one, one not readable as mail, over
/// `max_letter_bytes`, or one the server's verdict does not vouch for): the
/// first 2 KB, its headers as far as they go; its size and SHA-256 go into
/// the reason. A stranger's letter is kept whole: the director may take it
/// as a player's (`accept --as`), and it is read then. docs/running.md,
/// "What is kept".
pub const KEPT_UNREAD_BYTES: usize = 2 * 1024;

/// The reading kept with a letter: its JSON, or, where that is longer than
/// the letter's own bytes (a letter of thousands of moves), what it counts
/// (a reading is never stored larger than what was read).
pub fn stored_reading(read: &Letter, letter_bytes: usize) -> Option<String> {
    let full = serde_json::to_string(read).ok()?;
    if full.len() <= letter_bytes {
        return Some(full);
    }
    let errors: Vec<&str> = read.errors.iter().map(|e| e.code()).collect();
    let summary = serde_json::json!({
        "summary": "the reading was longer than the letter; what it counts",
        "game": read.game,
        "moves": read.moves.len(),
        "variants": read.variants.len(),
        "fraction": read.fraction,
        "errors": errors,
    })
    .to_string();
    (summary.len() <= letter_bytes).then_some(summary)
}

/// Bounds the header fields kept of a letter no game takes (its sender,
/// its Message-ID and the reason naming them), however long they were
/// written.
pub fn bound_fields(mut letter: StoredLetter) -> StoredLetter {
    let bound = |text: &mut String, most| {
        if let std::borrow::Cow::Owned(cut) = crate::printable::bounded(text, most) {
            *text = cut;
        }
    };
    if let Some(sender) = letter.sender.as_mut() {
        bound(sender, FIELD_MOST);
    }
    if let Some(id) = letter.message_id.as_mut() {
        bound(id, FIELD_MOST);
    }
    bound(&mut letter.reason, REASON_MOST);
    letter
}

/// Cuts the raw bytes kept of a letter that is not read to
/// [`KEPT_UNREAD_BYTES`], saying in its reason what was there.
pub fn keep_unread(letter: StoredLetter) -> StoredLetter {
    let mut letter = bound_fields(letter);
    if letter.raw.len() <= KEPT_UNREAD_BYTES {
        return letter;
    }
    letter.reason = format!(
        "{}; {} bytes, SHA-256 {:x}, the first {KEPT_UNREAD_BYTES} kept",
        letter.reason,
        letter.raw.len(),
        Sha256::digest(&letter.raw)
    );
    letter.raw.truncate(KEPT_UNREAD_BYTES);
    letter
}

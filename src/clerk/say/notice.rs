//! A message decided, not yet said: its kind, game, readers and thread,
//! and the facts its template needs. A handler returns notices; the say
//! step ([`Clerk::said`]) words each for its reader once the plan is
//! decided, so that what a letter changes is decided once and said to
//! each reader in his own words.

use chrono::NaiveDate;

use crate::mail::format::compose::{Attachment, Recipient};
use crate::message::MessageKind;
use crate::render::{Model, merged};

#[cfg(doc)]
use crate::clerk::Clerk;

/// A message as a handler decides it (see [`crate::mail::format::compose::Outgoing`],
/// what it becomes when said).
#[derive(Clone, Debug)]
pub struct Notice {
    /// Its kind: the `X-Shtempel-Kind` header and template.
    pub kind: MessageKind,
    pub game: Option<String>,
    pub to: Vec<Recipient>,
    pub cc: Vec<Recipient>,
    pub in_reply_to: Option<String>,
    /// Registered: asks for a disposition notification (rules.md 2.1).
    pub registered: bool,
    /// Deadline mail is `auto-generated`; answers to a letter `auto-replied`.
    pub generated: bool,
    pub attachments: Vec<Attachment>,
    /// The move (ply) this message brings to its reader.
    pub delivers: Option<usize>,
    /// A refusal held by the daily reply limit goes on this day, not now.
    pub send_on: Option<NaiveDate>,
    /// What its template is given: facts (days, phrases, boards) worded
    /// when it is said to its reader.
    pub model: Model,
    /// A Message-ID of its own, the same whenever the message is made (a
    /// start sheet's); else one is made from its cause.
    pub message_id: Option<String>,
    /// Of an event: its subject carries the event's tag, its `From:` the
    /// event's name, its Message-ID the event's id. Not so the answer to a
    /// letter no event of a folder could be placed in.
    pub of_event: bool,
    /// The event (its id) whose message it is, where another of the
    /// folder's than the one whose run plans it. `None`: the planning
    /// event's.
    pub event: Option<String>,
}

impl Notice {
    /// With `more` facts over its own (what a later step of the same plan
    /// adds: the lines not carried out, a refusal held to a later day).
    pub fn with(&mut self, more: Model) {
        self.model = merged(more, self.model.clone());
    }
}

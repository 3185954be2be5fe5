//! A message decided, not yet said: its kind, game, readers and thread,
//! and the facts its template needs. A handler returns notices; the say
//! step ([`Clerk::said`]) words each for its reader once the plan is
//! decided, so that what a letter changes is decided once and said to
//! each reader in his own words.

use crate::mail::format::compose::Outgoing;
use crate::render::{Model, merged};

#[cfg(doc)]
use crate::clerk::Clerk;

/// A message as a handler decides it: an [`Outgoing`] message with no
/// words yet; the say step words it for its reader.
pub type Notice = Outgoing<()>;

impl Notice {
    /// With `more` facts over its own (what a later step of the same plan
    /// adds: the lines not carried out, a refusal held to a later day).
    pub fn with(&mut self, more: Model) {
        self.model = merged(more, self.model.clone());
    }
}

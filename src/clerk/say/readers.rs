//! Each reader's own preferences heeded (`DIAGRAMS`, `LANGUAGE` by mail):
//! once a plan is decided, every message of it is said to its reader in
//! his voice (his language's templates and phrases, his board), from the
//! facts its model holds. Nothing is decided again: the messages, their
//! readers and their order are the plan's; only their words and boards
//! are the reader's.

use crate::clerk::say::speak::say;
use crate::clerk::say::words::Voice;
use crate::clerk::{Clerk, Plan};
use crate::config::Preferences;
use crate::error::Error;
use crate::mail::format::compose::{self, Outgoing};
use crate::store::Store;

/// A preference a plan sets (`LANGUAGE`, a newcomer's language), for its
/// addresses: it holds for the plan's own messages.
type Setting = Option<(Vec<String>, Preferences)>;

impl Clerk<'_> {
    /// `plan`, each message said to its reader as he asked, where that is
    /// not as the event writes.
    pub(in crate::clerk) fn said_to_readers(
        &self,
        store: &Store,
        mut plan: Plan,
    ) -> Result<Plan, Error> {
        let setting = plan.preferences.clone();
        self.say_each(store, &setting, &mut plan)?;
        Ok(plan)
    }

    fn say_each(&self, store: &Store, setting: &Setting, plan: &mut Plan) -> Result<(), Error> {
        for message in &mut plan.messages {
            self.say_to_reader(store, setting, message)?;
        }
        for more in &mut plan.more {
            self.say_each(store, setting, more)?;
        }
        Ok(())
    }

    /// `message` said again to its first reader in his voice, where he
    /// chose his own and his language's templates load (else he gets the
    /// event's words). A message that would pass `max_message_bytes` so
    /// said goes without its pictures, its text boards kept.
    fn say_to_reader(
        &self,
        store: &Store,
        setting: &Setting,
        message: &mut Outgoing,
    ) -> Result<(), Error> {
        let Some(reader) = message.to.first() else {
            return Ok(());
        };
        let set = setting
            .as_ref()
            .and_then(|(addresses, set)| addresses.contains(&reader.email).then_some(*set));
        let his = store
            .preferences_of(&reader.email)?
            .with(set.unwrap_or_default());
        if his == Preferences::default() {
            return Ok(());
        }
        // A message of another event of the folder is said as that event
        // writes (a STATUS asked of it alone).
        let event = message
            .event
            .as_deref()
            .unwrap_or(&self.config.tournament_id);
        let Some(at) = self.directory.place_of(event) else {
            return Ok(());
        };
        let config = &self.directory.tournaments()[at];
        let lang = his.language.unwrap_or(config.language);
        let diagrams = his.diagrams.unwrap_or(config.mail.diagrams);
        if (lang, diagrams) == (config.language, config.mail.diagrams) {
            return Ok(());
        }
        let Some(templates) = self.directory.templates_in(at, lang) else {
            return Ok(());
        };
        let voice = Voice {
            phrases: templates.phrases(),
            diagrams,
        };
        let said = say(templates, voice, message.kind, &message.model)?;
        message.subject = said.subject;
        message.body = said.body;
        message.pictures = said.pictures;
        if compose::size_at_most(message) > config.limits.max_message_bytes {
            message.pictures.clear();
        }
        Ok(())
    }
}

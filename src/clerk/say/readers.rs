//! The say step: once a plan is decided, each of its notices is said to
//! its reader in his voice (his language's templates and phrases where he
//! chose his own with `LANGUAGE`, his board with `DIAGRAMS`, else the
//! event's), from the facts it holds. Nothing is decided here: the
//! messages, their readers and their order are the plan's; only their
//! words and boards are the reader's. A picture is drawn only for a
//! message said, so none for one the reply limit dropped.

use crate::clerk::say::notice::Notice;
use crate::clerk::say::speak::say;
use crate::clerk::say::words::Voice;
use crate::clerk::{Clerk, Plan, SaidPlan};
use crate::config::Preferences;
use crate::error::Error;
use crate::mail::format::compose::{self, Outgoing};
use crate::store::Store;

impl Clerk<'_> {
    /// `plan`, each notice said to its reader (those of a leave taken in
    /// the person's other events as each of those events writes).
    pub(in crate::clerk) fn said(&self, store: &Store, plan: Plan) -> Result<SaidPlan, Error> {
        // A preference the plan sets (`LANGUAGE`, a newcomer's language)
        // holds for its own messages.
        let setting = plan.writes.preferences.clone();
        plan.map_messages(None, &mut |notice, event| {
            let his = match notice.to.first() {
                Some(reader) => {
                    let set = setting.as_ref().and_then(|(addresses, set)| {
                        addresses.contains(&reader.email).then_some(*set)
                    });
                    store
                        .preferences_of(&reader.email)?
                        .with(set.unwrap_or_default())
                }
                None => Preferences::default(),
            };
            self.said_as(notice, his, event)
        })
    }

    /// `notice` said to a reader who asked for `his`: in his voice where
    /// he chose his own and his language's templates load, else in its
    /// event's (`event`, where another's of the folder than this clerk's).
    /// One that would pass `max_message_bytes` goes without its pictures,
    /// its text boards kept.
    pub(in crate::clerk) fn said_as(
        &self,
        mut notice: Notice,
        his: Preferences,
        event: Option<&str>,
    ) -> Result<Outgoing, Error> {
        // A message that can wait, to a reader of a daily digest, is kept
        // for it; it says no day the move reached him (his digest's day is
        // that day, and the digest says it).
        let alone = notice.to.len() == 1 && notice.cc.is_empty();
        if his.daily() && alone && notice.kind.waits_for_digest() {
            notice.digest_for = notice.to.first().map(|reader| reader.email.clone());
            notice.with(crate::model! { "digest" => true });
        }
        // A message of another event of the folder is said as that event
        // writes (a STATUS asked of it alone, a leave's notices there).
        let event = notice
            .event
            .as_deref()
            .or(event)
            .unwrap_or(&self.config.tournament_id);
        let at = self.directory.place_of(event);
        let config = at.map_or(self.config, |at| &self.directory.tournaments()[at]);
        let lang = his.language.unwrap_or(config.language);
        let own = at.and_then(|at| self.directory.templates_in(at, lang));
        let templates = match (own, at.and_then(|at| self.directory.templates_at(at))) {
            (Some(templates), _) | (None, Some(templates)) => templates,
            (None, None) => self.templates,
        };
        let voice = Voice {
            phrases: templates.phrases(),
            diagrams: his.diagrams.unwrap_or(config.mail.diagrams),
        };
        let said = say(templates, voice, notice.kind, &notice.model)?;
        let mut message = notice.worded(said);
        if compose::size_at_most(&message) > config.limits.max_message_bytes {
            message.words.pictures.clear();
        }
        Ok(message)
    }
}

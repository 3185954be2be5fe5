//! A player's own preferences by mail: `DIAGRAMS TEXT|PICTURE|BOTH|NONE`
//! (`ДИАГРАММЫ ТЕКСТ|КАРТИНКА|ОБА|НЕТ`) and `LANGUAGE EN|RU` (`ЯЗЫК …`), set
//! for the person (each of his addresses, in every event he plays in) and
//! answered with what is now set, in the language and with the board he now
//! gets. Every later letter to him follows them
//! ([`crate::clerk::say::readers`]); his tournament's settings hold where
//! he set nothing.

use crate::clerk::EventKind;
use crate::clerk::context::Written;
use crate::clerk::{Letters, Plan, Writes, recipient};
use crate::config::{Player, Preferences};
use crate::error::Error;
use crate::letter::Preference;
use crate::message::MessageKind;
use crate::model;
use crate::store::{Disposition, Store, StoredLetter};

impl Letters<'_, '_> {
    /// A player's letter that sets his preferences and asks nothing else.
    pub(in crate::clerk) fn plan_preferences(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        let Written { mail, read, .. } = written;
        let mut set = Preferences::default();
        let mut unread = Vec::new();
        for preference in &read.preferences {
            match preference {
                Preference::Diagrams(diagrams) => set.diagrams = Some(*diagrams),
                Preference::Language(lang) => set.language = Some(*lang),
                Preference::Digest(digest) => set.digest = Some(*digest),
                Preference::Unknown(word) => {
                    unread.push(crate::printable::bounded(word, 40).into_owned());
                }
            }
        }
        let mut addresses: Vec<String> = player.addresses().cloned().collect();
        for (_, there) in self.others_of_the_person(player) {
            addresses.extend(there.addresses().cloned());
        }
        addresses.sort();
        addresses.dedup();
        let now = store.preferences_of(&player.email)?.with(set);
        // The answer is said as every later letter to him (his language,
        // his board): the plan sets his preferences, and its messages are
        // said to him with them.
        let diagrams = now.diagrams.unwrap_or(self.config.mail.diagrams);
        let lang = now
            .language
            .filter(|lang| self.phrases_in(*lang).is_some())
            .unwrap_or(self.config.language);
        // A language the folder's templates cannot write: he is told so, in
        // the language his letters keep, and the director sees why.
        let unwritable = now.language.and_then(|lang| {
            let at = self.directory.place_of(&self.config.tournament_id)?;
            let why = self.directory.unwritable_in(at, lang)?;
            Some((lang, why))
        });
        let answer = self
            .draft(MessageKind::Preferences)
            .to(recipient(player))
            .answering(mail.message_id.clone())
            .notice(model! {
                "diagrams" => diagrams.name(),
                "diagrams_own" => now.diagrams.is_some(),
                "language_own" => now.language.is_some(),
                "digest" => now.daily(),
                "digest_hour" => self.config.mail.digest_hour,
                "changed" => set.diagrams.is_some() || set.language.is_some(),
                "digest_changed" => set.digest.is_some(),
                "unread" => unread,
                "language_unwritable" => unwritable.map(|(lang, _)| lang.pick("ru", "en")),
            });
        stored.disposition = Disposition::Applied;
        stored.reason = format!(
            "preferences: diagrams {}, language {}",
            diagrams.name(),
            lang.pick("ru", "en")
        );
        let mut plan = Plan::writing(Writes {
            preferences: (set != Preferences::default()).then_some((addresses, set)),
            ..Writes::default()
        });
        if let Some((lang, why)) = unwritable {
            let said = format!(
                "{}'s letters cannot be written in {}: {why}; they go in {} until the templates are mended",
                player.email,
                lang.pick("ru", "en"),
                lang.pick("ru", "en")
            );
            plan.event(EventKind::TemplatesFailed, None, Some(&player.email), said);
        }
        Ok(plan.answered(answer, EventKind::Preferences, &player.email, stored))
    }
}

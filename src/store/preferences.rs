//! The readers' own preferences (`DIAGRAMS`, `LANGUAGE`, `DIGEST` by mail), by address.

use chrono::NaiveDate;
use rusqlite::params;

use crate::Lang;
use crate::config::{Diagrams, Preferences};

use super::writer::Writer;
use super::{Result, Store, day_text};

fn language_name(lang: Lang) -> &'static str {
    lang.pick("ru", "en")
}

fn language_of(name: &str) -> Option<Lang> {
    match name {
        "ru" => Some(Lang::Ru),
        "en" => Some(Lang::En),
        _ => None,
    }
}

impl Store {
    /// What the reader at `address` asked of the clerk's letters: nothing
    /// (the tournament's settings) where he asked nothing.
    pub fn preferences_of(&self, address: &str) -> Result<Preferences> {
        if self.cache.borrow().preferences.is_none() {
            let mut all = std::collections::HashMap::new();
            let mut statement = self
                .conn
                .prepare_cached("SELECT address, diagrams, language, digest FROM preferences")?;
            let mut rows = statement.query([])?;
            while let Some(row) = rows.next()? {
                let diagrams: Option<String> = row.get(1)?;
                let language: Option<String> = row.get(2)?;
                let digest: Option<String> = row.get(3)?;
                let set = Preferences {
                    diagrams: diagrams.as_deref().and_then(Diagrams::from_name),
                    language: language.as_deref().and_then(language_of),
                    digest: digest.as_deref().and_then(crate::Digest::from_name),
                };
                all.insert(row.get::<_, String>(0)?, set);
            }
            self.cache.borrow_mut().preferences = Some(all);
        }
        let cache = self.cache.borrow();
        let all = cache.preferences.as_ref();
        Ok(all
            .and_then(|all| all.get(address))
            .copied()
            .unwrap_or_default())
    }
}

impl Writer<'_> {
    /// Sets `set` over what each of `addresses` had asked before.
    pub fn preferences(
        &self,
        addresses: &[String],
        set: Preferences,
        today: NaiveDate,
    ) -> Result<()> {
        let mut statement = self.tx.prepare_cached(
            "INSERT INTO preferences (address, diagrams, language, set_on, digest)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (address) DO UPDATE SET
                 diagrams = coalesce(?2, diagrams),
                 language = coalesce(?3, language),
                 digest = coalesce(?5, digest),
                 set_on = ?4",
        )?;
        for address in addresses {
            statement.execute(params![
                address,
                set.diagrams.map(Diagrams::name),
                set.language.map(language_name),
                day_text(today),
                set.digest.map(crate::Digest::name),
            ])?;
        }
        // Read again at the next question.
        self.cache.borrow_mut().preferences = None;
        Ok(())
    }
}

//! The tournament the store reads and writes: the one it is kept on
//! ([`Store::kept_on`]), one it is opened on for a while
//! ([`Store::tournament`]), or one it only reads for a while through a
//! shared borrow ([`Store::reading_in`]: a person's games in the clerk's
//! other events, for his status).

use crate::key::GameKey;

use super::Store;

/// The store opened on one tournament ([`Store::tournament`]): every game
/// read and written through it is that tournament's; when it goes, the
/// store is back on the tournament it was on before.
pub struct OnTournament<'s> {
    store: &'s mut Store,
    before: Option<String>,
}

impl std::ops::Deref for OnTournament<'_> {
    type Target = Store;

    fn deref(&self) -> &Store {
        self.store
    }
}

impl std::ops::DerefMut for OnTournament<'_> {
    fn deref_mut(&mut self) -> &mut Store {
        self.store
    }
}

impl Drop for OnTournament<'_> {
    fn drop(&mut self) {
        self.store.tournament = self.before.take();
    }
}

/// Puts the store back on its own tournament when a visit ends, by return
/// or by a panic that a letter's guard catches.
struct Visit<'s>(&'s Store);

impl Drop for Visit<'_> {
    fn drop(&mut self) {
        self.0.visiting.replace(None);
    }
}

impl Store {
    /// The store kept on one tournament for as long as it lives (a command
    /// of one tournament's): see [`Store::tournament`].
    pub fn kept_on(mut self, tournament: Option<&str>) -> Store {
        self.tournament = tournament.map(str::to_string);
        self
    }

    /// The store opened on a tournament: `Some(ID)` for one of a folder
    /// (its games are stored as `ID/<game>`), `None` for a tournament of its
    /// own file (`Config::scope` gives which). The games read and written
    /// through what it returns are that tournament's, and no other's.
    pub fn tournament(&mut self, tournament: Option<&str>) -> OnTournament<'_> {
        let before = std::mem::replace(&mut self.tournament, tournament.map(str::to_string));
        OnTournament {
            store: self,
            before,
        }
    }

    /// A game's key in the database.
    pub(super) fn scoped(&self, game: &str) -> String {
        GameKey::new(self.scope().as_deref(), game).to_string()
    }

    /// The tournament read now: the one visited, else the one the store is on.
    pub(super) fn scope(&self) -> Option<String> {
        match &*self.visiting.borrow() {
            Some(visited) => visited.clone(),
            None => self.tournament.clone(),
        }
    }

    /// `read` with the store reading tournament `tournament` (`None`: one
    /// of its own file), then back on its own. Only for reading: a write
    /// goes through [`Store::tournament`].
    pub fn reading_in<T>(&self, tournament: Option<&str>, read: impl FnOnce(&Store) -> T) -> T {
        self.visiting.replace(Some(tournament.map(str::to_string)));
        let visit = Visit(self);
        let result = read(visit.0);
        drop(visit);
        result
    }
}

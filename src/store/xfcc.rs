//! The Xfcc server's records: each game's number on the server, and each
//! person's login (the Argon2 hash of his password, never the password).

use chrono::NaiveDate;
use rusqlite::{OptionalExtension, params};

use super::writer::Writer;
use super::{Result, Store, day_text};
use crate::key::GameKey;

/// A person's login as kept: the address he is known by, and the hash of
/// his password.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct XfccLogin {
    pub address: String,
    pub hash: String,
}

impl Store {
    /// The login under `username`, if one was issued.
    pub fn xfcc_login(&self, username: &str) -> Result<Option<XfccLogin>> {
        Ok(self
            .conn
            .prepare_cached("SELECT address, hash FROM xfcc_logins WHERE username = ?1")?
            .query_row(params![username], |row| {
                Ok(XfccLogin {
                    address: row.get(0)?,
                    hash: row.get(1)?,
                })
            })
            .optional()?)
    }

    /// Each game's number on the server, given to those that have none in
    /// the order of `games`: a number, once given, is the game's for good.
    /// Read first, and written only where one is new: a request of the
    /// server never waits for a poll's batch to give the numbers it has.
    pub fn xfcc_game_ids(&mut self, games: &[GameKey]) -> Result<Vec<u32>> {
        let known = self.known_xfcc_ids(games)?;
        if let Some(known) = known.into_iter().collect::<Option<Vec<u32>>>() {
            return Ok(known);
        }
        self.write(None, |writer| writer.xfcc_games(games))?;
        let given = self.known_xfcc_ids(games)?;
        Ok(given.into_iter().map(|id| id.unwrap_or(u32::MAX)).collect())
    }

    /// The numbers `games` have on the server, where they have one.
    fn known_xfcc_ids(&self, games: &[GameKey]) -> Result<Vec<Option<u32>>> {
        let mut read = self
            .conn
            .prepare_cached("SELECT id FROM xfcc_games WHERE game = ?1")?;
        let mut ids = Vec::with_capacity(games.len());
        for game in games {
            let id: Option<i64> = read
                .query_row(params![game.to_string()], |row| row.get(0))
                .optional()?;
            ids.push(id.map(|id| u32::try_from(id).unwrap_or(u32::MAX)));
        }
        Ok(ids)
    }

    /// The game numbered `id` on the server, if any.
    pub fn xfcc_game(&self, id: u32) -> Result<Option<GameKey>> {
        let key: Option<String> = self
            .conn
            .prepare_cached("SELECT game FROM xfcc_games WHERE id = ?1")?
            .query_row(params![id], |row| row.get(0))
            .optional()?;
        Ok(key.as_deref().map(GameKey::parse))
    }
}

impl Store {
    /// Notes that the server showed each of `games` (its key, the moves it
    /// had, the day) to the player to move: the first day stays.
    pub fn note_xfcc_shown(&mut self, games: &[(GameKey, usize, NaiveDate)]) -> Result<()> {
        if games.is_empty() {
            return Ok(());
        }
        self.write(None, |writer| {
            let mut note = writer.tx.prepare_cached(
                "INSERT OR IGNORE INTO xfcc_shown (game, plies, day) VALUES (?1, ?2, ?3)",
            )?;
            for (game, plies, day) in games {
                note.execute(params![game.to_string(), *plies as i64, day_text(*day)])?;
            }
            Ok(())
        })
    }

    /// The letter that carried move `ply` of `game` (its raw bytes), where
    /// a letter did.
    pub fn letter_of_ply(&self, game: &GameKey, ply: usize) -> Result<Option<Vec<u8>>> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT l.raw FROM moves m JOIN letters l ON l.id = m.letter_id
                 WHERE m.game_id = ?1 AND m.ply = ?2",
            )?
            .query_row(params![game.to_string(), ply as i64], |row| row.get(0))
            .optional()?)
    }

    /// The first day the server showed `game` with `plies` moves to the
    /// player to move, if it did.
    pub fn xfcc_shown(&self, game: &GameKey, plies: usize) -> Result<Option<NaiveDate>> {
        let day: Option<String> = self
            .conn
            .prepare_cached("SELECT day FROM xfcc_shown WHERE game = ?1 AND plies = ?2")?
            .query_row(params![game.to_string(), plies as i64], |row| row.get(0))
            .optional()?;
        Ok(day.as_deref().map(super::date_from).transpose()?)
    }
}

impl Writer<'_> {
    /// Numbers `games` on the server where they have no number yet.
    pub fn xfcc_games(&self, games: &[GameKey]) -> Result<()> {
        let mut give = self
            .tx
            .prepare_cached("INSERT OR IGNORE INTO xfcc_games (game) VALUES (?1)")?;
        for game in games {
            give.execute(params![game.to_string()])?;
        }
        Ok(())
    }

    /// Issues `username` a new login (the old password stops working).
    pub fn xfcc_login(&self, username: &str, login: &XfccLogin, today: NaiveDate) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO xfcc_logins (username, address, hash, issued_on) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (username) DO UPDATE SET address = ?2, hash = ?3, issued_on = ?4",
            )?
            .execute(params![username, login.address, login.hash, day_text(today)])?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_keeps_its_number_and_a_login_its_last_password() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("x.sqlite")).unwrap();
        let a = GameKey::new(Some("A"), "1");
        let b = GameKey::new(Some("B"), "1");
        let first = store.xfcc_game_ids(&[a.clone(), b.clone()]).unwrap();
        assert_eq!(first.len(), 2);
        assert_ne!(first[0], first[1]);
        // Asked again, in another order, with a new game: the same numbers.
        let c = GameKey::new(Some("A"), "2");
        let again = store
            .xfcc_game_ids(&[b.clone(), c.clone(), a.clone()])
            .unwrap();
        assert_eq!((again[0], again[2]), (first[1], first[0]));
        assert!(!first.contains(&again[1]));
        assert_eq!(store.xfcc_game(first[1]).unwrap(), Some(b));
        assert_eq!(store.xfcc_game(9999).unwrap(), None);

        let day = NaiveDate::from_ymd_opt(2026, 12, 6).unwrap();
        let login = |hash: &str| XfccLogin {
            address: "ivanov@example.org".into(),
            hash: hash.into(),
        };
        assert_eq!(store.xfcc_login("ivanov").unwrap(), None);
        store
            .write(None, |w| w.xfcc_login("ivanov", &login("$first"), day))
            .unwrap();
        store
            .write(None, |w| w.xfcc_login("ivanov", &login("$second"), day))
            .unwrap();
        assert_eq!(store.xfcc_login("ivanov").unwrap(), Some(login("$second")));
    }

    #[test]
    fn the_first_day_a_move_was_shown_stays() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("x.sqlite")).unwrap();
        let game = GameKey::new(None, "1");
        let day = |d| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
        assert_eq!(store.xfcc_shown(&game, 3).unwrap(), None);
        store.note_xfcc_shown(&[(game.clone(), 3, day(5))]).unwrap();
        store
            .note_xfcc_shown(&[(game.clone(), 3, day(6)), (game.clone(), 5, day(9))])
            .unwrap();
        assert_eq!(store.xfcc_shown(&game, 3).unwrap(), Some(day(5)));
        assert_eq!(store.xfcc_shown(&game, 5).unwrap(), Some(day(9)));
        assert_eq!(
            store.xfcc_shown(&GameKey::new(Some("A"), "1"), 3).unwrap(),
            None
        );
    }
}

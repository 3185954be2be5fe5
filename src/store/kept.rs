//! The letters kept as they came: set aside and ordered back, those that
//! changed nothing, one by its key; and what the run owes the tournaments'
//! files (edits pending) and their players (leaves taken).

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::{OptionalExtension, params};

use crate::key::GameKey;

use super::{Result, Sql, Store, day_text};

/// A letter kept in the database ([`Store::letter_by_key`]).
#[derive(Clone, Debug)]
pub struct KeptLetter {
    pub source_key: String,
    pub arrived: DateTime<Utc>,
    /// `applied`, `refused`, `ignored` or `quarantined`.
    pub disposition: String,
    pub reason: String,
    pub raw: Vec<u8>,
}

/// A letter that changed nothing ([`Store::changed_nothing`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unheeded {
    pub dedup_key: String,
    pub source_key: String,
    pub postmark: NaiveDate,
    pub sender: Option<String>,
    /// `ignored`, `refused` (its writer was told why), or `quarantined`
    /// (set aside after failing run after run: `shtempel retry` puts it
    /// back).
    pub disposition: String,
    pub reason: String,
    /// The game it was read for, where one was found (`ID/<game>` in a
    /// folder).
    pub game: Option<GameKey>,
    /// Whether that game is over now: a letter refused in it is nothing
    /// `accept` can take.
    pub game_over: bool,
}

const QUARANTINED: &str = "SELECT id, dedup_key, source_key, arrived, reason, raw FROM letters
     WHERE disposition = 'quarantined' ORDER BY id";

pub(super) const RELEASING: &str =
    "SELECT id, dedup_key, source_key, arrived, reason, raw FROM letters
     WHERE disposition = 'releasing' ORDER BY id";

/// A letter set aside after failing (or killing the clerk) run after run.
#[derive(Clone, Debug)]
pub struct Quarantined {
    pub id: i64,
    pub dedup_key: String,
    pub source_key: String,
    pub arrived: DateTime<Utc>,
    pub reason: String,
    pub raw: Vec<u8>,
}

impl Quarantined {
    /// Whether `key` names it: its key in the database (as `retry` and
    /// `today` list it), or its file's in the mail source.
    pub fn is(&self, key: &str) -> bool {
        self.dedup_key == key || self.source_key == key
    }
}

impl Store {
    /// The letters set aside, oldest first.
    pub fn quarantined(&self) -> Result<Vec<Quarantined>> {
        self.set_aside(QUARANTINED)
    }

    /// The letters set aside that the chief arbiter ordered back into the
    /// mail source (`RETRY KEY`), oldest first. Asked by every run: the
    /// query is the partial index's own (migration 13), never a scan of
    /// the letters.
    pub fn releasing(&self) -> Result<Vec<Quarantined>> {
        self.set_aside(RELEASING)
    }

    fn set_aside(&self, sql: &str) -> Result<Vec<Quarantined>> {
        Ok(self
            .conn
            .prepare_cached(sql)?
            .query_map([], |row| {
                let arrived: String = row.get(3)?;
                Ok(Quarantined {
                    id: row.get(0)?,
                    dedup_key: row.get(1)?,
                    source_key: row.get(2)?,
                    arrived: DateTime::parse_from_rfc3339(&arrived)
                        .map(|d| d.with_timezone(&Utc))
                        .unwrap_or_default(),
                    reason: row.get(4)?,
                    raw: row.get(5)?,
                })
            })?
            .collect::<Sql<_>>()?)
    }

    /// The letters that changed nothing (a stranger's, an auto-reply or a
    /// bounce, a forged one: `ignored`; one answered with why not:
    /// `refused`) with a postmark on or after `since`, and every letter set
    /// aside (`quarantined`, or `releasing`: ordered back), oldest first;
    /// none the director accepted
    /// since (`accepted:KEY`).
    pub fn changed_nothing(&self, since: NaiveDate) -> Result<Vec<Unheeded>> {
        Ok(self
            .conn
            .prepare(
                "SELECT dedup_key, source_key, postmark, sender, disposition, reason, game_id,
                        (SELECT status = 'finished' FROM games WHERE games.id = letters.game_id)
                 FROM letters
                 WHERE ((disposition IN ('ignored', 'refused') AND postmark >= ?1)
                        OR disposition IN ('quarantined', 'releasing'))
                   AND NOT EXISTS (SELECT 1 FROM letters AS taken
                                   WHERE taken.dedup_key = 'accepted:' || letters.dedup_key)
                 ORDER BY postmark, id",
            )?
            .query_map([since.to_string()], |row| {
                let postmark: String = row.get(2)?;
                Ok(Unheeded {
                    dedup_key: row.get(0)?,
                    source_key: row.get(1)?,
                    postmark: postmark.parse().unwrap_or_default(),
                    sender: row.get(3)?,
                    disposition: row.get(4)?,
                    reason: row.get(5)?,
                    game: row
                        .get::<_, Option<String>>(6)?
                        .map(|key| GameKey::parse(&key)),
                    game_over: row.get::<_, Option<bool>>(7)?.unwrap_or(false),
                })
            })?
            .collect::<Sql<_>>()?)
    }

    /// The edits of tournaments' files committed and not yet written, in
    /// order, each with its id for [`Store::edit_done`].
    pub fn pending_edits(&self) -> Result<Vec<(i64, crate::config::edit::ConfigEdit)>> {
        let rows: Vec<(i64, String)> = self
            .conn
            .prepare("SELECT id, edit FROM config_edits WHERE done_on IS NULL ORDER BY id")?
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?
            .collect::<Sql<_>>()?;
        // A row this build cannot read is left, not dropped.
        Ok(rows
            .into_iter()
            .filter_map(|(id, edit)| Some((id, serde_json::from_str(&edit).ok()?)))
            .collect())
    }

    /// An edit written into its file.
    pub fn edit_done(&mut self, id: i64, today: NaiveDate) -> Result<()> {
        self.conn.execute(
            "UPDATE config_edits SET done_on = ?2 WHERE id = ?1",
            params![id, day_text(today)],
        )?;
        Ok(())
    }

    /// A player's leaves in tournament `tournament` of a folder (`None`:
    /// of its own file), first and last day, in order: those its calendar
    /// counts. A leave is the person's: the
    /// clerk records it in each event that grants it, and asks each event
    /// for its own.
    pub fn leaves_in(
        &self,
        tournament: Option<&str>,
        player: &str,
    ) -> Result<Vec<(NaiveDate, NaiveDate)>> {
        Ok(self
            .conn
            .prepare_cached("SELECT first, last FROM leaves WHERE player = ?1 ORDER BY first")?
            .query_map(
                params![GameKey::new(tournament, player).to_string()],
                |row| {
                    let first: String = row.get(0)?;
                    let last: String = row.get(1)?;
                    Ok((
                        first.parse().unwrap_or_default(),
                        last.parse().unwrap_or_default(),
                    ))
                },
            )?
            .collect::<Sql<_>>()?)
    }

    /// A letter as it came, by its key, and what became of it.
    pub fn letter_by_key(&self, key: &str) -> Result<Option<KeptLetter>> {
        Ok(self
            .conn
            .query_row(
                "SELECT source_key, arrived, disposition, reason, raw FROM letters
                 WHERE dedup_key = ?1",
                [key],
                |row| {
                    let arrived: String = row.get(1)?;
                    Ok(KeptLetter {
                        source_key: row.get(0)?,
                        arrived: DateTime::parse_from_rfc3339(&arrived)
                            .map(|d| d.with_timezone(&Utc))
                            .unwrap_or_default(),
                        disposition: row.get(2)?,
                        reason: row.get(3)?,
                        raw: row.get(4)?,
                    })
                },
            )
            .optional()?)
    }

    /// Forgets a letter set aside, once it is back in the mail source: the
    /// next run reads it as new.
    pub fn release(&mut self, letter: &Quarantined) -> Result<()> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "DELETE FROM letters WHERE id = ?1 AND disposition IN ('quarantined', 'releasing')",
            params![letter.id],
        )?;
        tx.execute(
            "DELETE FROM failures WHERE source_key = ?1",
            params![letter.source_key],
        )?;
        tx.commit()?;
        self.cache.borrow_mut().failing = None;
        Ok(())
    }
}

impl Store {
    /// The players, in order, that a round robin's games were made from at
    /// its first run (`scope`: the tournament of a folder, or `None`).
    pub fn paired_players(&self, scope: Option<&str>) -> Result<Option<Vec<String>>> {
        let kept: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM run_state WHERE key = ?1",
                [paired_key(scope)],
                |r| r.get(0),
            )
            .optional()?;
        Ok(kept.map(|ids| ids.split('\n').map(str::to_string).collect()))
    }

    /// Keeps the players a round robin's games are made from, once.
    pub fn keep_paired_players(&mut self, scope: Option<&str>, players: &[&str]) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO run_state (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO NOTHING",
            )?
            .execute(params![paired_key(scope), players.join("\n")])?;
        Ok(())
    }
}

impl Store {
    /// The players each game had as its tournament's file gave them at the
    /// last pass (`scope`: the tournament of a folder, or `None`): game id,
    /// White's id, Black's id.
    pub fn kept_seats(&self, scope: Option<&str>) -> Result<Vec<(String, String, String)>> {
        let kept: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM run_state WHERE key = ?1",
                [seats_key(scope)],
                |r| r.get(0),
            )
            .optional()?;
        Ok(kept
            .unwrap_or_default()
            .lines()
            .filter_map(|line| {
                let mut fields = line.split('\t').map(str::to_string);
                Some((fields.next()?, fields.next()?, fields.next()?))
            })
            .collect())
    }

    /// Keeps the players of each game, as [`Store::kept_seats`] reads them.
    pub fn keep_seats(&mut self, scope: Option<&str>, seats: &[(&str, &str, &str)]) -> Result<()> {
        let value: Vec<String> = seats
            .iter()
            .map(|(game, white, black)| format!("{game}\t{white}\t{black}"))
            .collect();
        self.conn
            .prepare_cached(
                "INSERT INTO run_state (key, value) VALUES (?1, ?2)
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            )?
            .execute(params![seats_key(scope), value.join("\n")])?;
        Ok(())
    }

    /// Of `games` (ids in the tournament `scope`), those with a move kept.
    /// Each is looked up by its key: a scan of every move (`SELECT
    /// DISTINCT`) cost an idle poll a third of its time with 100,000
    /// letters stored.
    pub fn games_with_moves(&self, scope: Option<&str>, games: &[&str]) -> Result<Vec<String>> {
        let mut statement = self
            .conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM moves WHERE game_id = ?1)")?;
        let mut played = Vec::new();
        for game in games {
            let key = crate::key::GameKey::new(scope, game).to_string();
            if statement.query_row([&key], |r| r.get::<_, bool>(0))? {
                played.push(game.to_string());
            }
        }
        Ok(played)
    }
}

fn seats_key(scope: Option<&str>) -> String {
    match scope {
        None => "seats".into(),
        Some(tournament) => format!("seats:{tournament}"),
    }
}

fn paired_key(scope: Option<&str>) -> String {
    match scope {
        None => "paired".into(),
        Some(tournament) => format!("paired:{tournament}"),
    }
}

#[cfg(test)]
mod tests {
    use chrono::NaiveDate;
    use rusqlite::StatementStatus;
    use shakmaty::Color;

    use crate::rules::Row;
    use crate::store::{GameRow, Store};

    /// The games with a move are found by looking each one up, not by
    /// reading every move: an idle poll asks it, however many are stored.
    #[test]
    fn the_games_with_moves_are_looked_up_not_scanned() {
        let mut store = Store::in_memory().unwrap();
        let day = NaiveDate::from_ymd_opt(2026, 11, 3).unwrap();
        let rows: Vec<Row> = (0..100)
            .map(|ply| Row {
                by: [Color::White, Color::Black][ply % 2],
                san: ["e4", "e5"][ply % 2].into(),
                conditional: false,
                sent_on: day,
                delivered_on: None,
                days: 1,
                penalty: 0,
                letter: None,
            })
            .collect();
        for game in ["1", "2", "3"] {
            store
                .write(None, |w| {
                    w.game(game, &GameRow::default(), &rows, 0, None, day)
                })
                .unwrap();
        }
        store
            .write(Some("CUP"), |w| {
                w.game("4", &GameRow::default(), &rows, 0, None, day)
            })
            .unwrap();
        let played = store.games_with_moves(None, &["1", "2", "4", "9"]).unwrap();
        assert_eq!(played, ["1", "2"], "game 4 is CUP's, game 9 has no move");
        assert_eq!(
            store.games_with_moves(Some("CUP"), &["4", "1"]).unwrap(),
            ["4"]
        );
        let statement = store
            .conn
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM moves WHERE game_id = ?1)")
            .unwrap();
        assert_eq!(
            statement.get_status(StatementStatus::FullscanStep),
            0,
            "each game found by the moves' key"
        );
        // Looked up: about 16 steps for each game asked, not one for each of
        // the 400 moves stored.
        let steps = statement.get_status(StatementStatus::VmStep);
        assert!((1..200).contains(&steps), "{steps} steps for 6 games");
    }

    fn on(day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, day).unwrap()
    }

    /// A write in a tournament keys its games and leaves by it, and a read of
    /// one tournament's leaves finds its own only; adopted into a folder, a
    /// tournament keeps its players' leaves.
    #[test]
    fn a_write_in_a_tournament_keys_its_games_and_leaves_by_it() {
        let mut store = Store::in_memory().unwrap();
        let leave = (on(10), on(20));
        store
            .write(None, |w| w.leave("ivanov", leave, None, on(5)))
            .unwrap();
        assert_eq!(store.adopt_games("A").unwrap(), 0);
        assert_eq!(store.leaves_in(Some("A"), "ivanov").unwrap(), [leave]);
        // Each event counts the leaves recorded in it (the clerk records a
        // person's leave in every event that grants it).
        assert_eq!(store.leaves_in(Some("B"), "ivanov").unwrap(), []);
        store
            .write(Some("B"), |w| {
                w.leave("petrov", (on(21), on(22)), None, on(5))
            })
            .unwrap();
        let stored: Vec<String> = store
            .conn
            .prepare("SELECT player FROM leaves ORDER BY player")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(stored, ["A/ivanov", "B/petrov"]);
        // The bare keys of a tournament of its own file are none of them.
        assert_eq!(store.leaves_in(None, "petrov").unwrap(), []);
    }
}

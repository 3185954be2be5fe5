//! What the store reads of letters and games: whether a letter was seen, the
//! game of a message, a game with its moves and duties, its letters and notes.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use rusqlite::{OptionalExtension, params};
use shakmaty::Color;

use crate::color_name;
use crate::key::GameKey;
use crate::record::Seat;
use crate::rules::interventions::AwardedBy;
use crate::rules::{DutyKey, EndReason, Fraction, GameResult, Outcome, Row, Standing, Suspension};

use super::Sql;
use super::{
    Cache, GameLetter, GameRow, MOVES_OF_GAME, Note, NoteKind, Result, Seen, Store, StoredGame,
    color_from, date_from, from_sql_err, status_from,
};

/// A game someone played until he was replaced: its key, the name he
/// played under, the day he left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftSeat {
    pub game: GameKey,
    pub name: String,
    pub on: NaiveDate,
}

/// A finished game as the rating list reads it: its result and why, the day
/// it ended, and the address of whoever played a colour until a replacement
/// where the game was his (it stays his).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finished {
    pub outcome: Outcome,
    pub ended_on: Option<NaiveDate>,
    pub former_white: Option<String>,
    pub former_black: Option<String>,
}

impl Store {
    /// Every finished game, by its key in the database: two reads for all,
    /// no game loaded (a federation's list reads tens of thousands).
    pub fn finished_games(&self) -> Result<std::collections::HashMap<String, Finished>> {
        let mut finished = std::collections::HashMap::new();
        let mut statement = self.conn.prepare(
            "SELECT id, result, result_reason, ended_on FROM games WHERE status = 'finished'",
        )?;
        let rows = statement.query_map([], |r| {
            let id: String = r.get(0)?;
            let result: Option<String> = r.get(1)?;
            let reason: Option<String> = r.get(2)?;
            let ended: Option<String> = r.get(3)?;
            Ok((id, result, reason, ended))
        })?;
        for row in rows {
            let (id, result, reason, ended) = row?;
            let Some(result) = result.as_deref().and_then(GameResult::from_pgn) else {
                continue;
            };
            let outcome = Outcome {
                result,
                reason: reason
                    .as_deref()
                    .and_then(EndReason::from_code)
                    .unwrap_or(EndReason::Agreement),
            };
            let ended_on = ended.as_deref().map(date_from).transpose()?;
            finished.insert(
                id,
                Finished {
                    outcome,
                    ended_on,
                    former_white: None,
                    former_black: None,
                },
            );
        }
        let mut statement = self
            .conn
            .prepare("SELECT game_id, color, email FROM seats WHERE finished = 1 ORDER BY id")?;
        let seats = statement.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
            ))
        })?;
        for seat in seats {
            let (id, color, email) = seat?;
            if let Some(game) = finished.get_mut(&id) {
                match color_from(&color) {
                    Some(Color::White) => game.former_white = Some(email),
                    Some(Color::Black) => game.former_black = Some(email),
                    None => {}
                }
            }
        }
        Ok(finished)
    }

    /// Whether the letter with this key and [`crate::mail::format::keys::fingerprint`]
    /// was seen already: the same key and fingerprint (a letter stored
    /// before migration 10 has its fingerprint worked out of its sender and
    /// raw bytes), or another letter stored under the key, this one already
    /// under its own key. A letter's key alone (its Message-ID) is anyone's
    /// to write.
    pub fn letter_seen(&self, dedup_key: &str, fingerprint: &str) -> Result<Seen> {
        let stored: Option<(Option<String>, Option<String>, Vec<u8>)> = self
            .conn
            .prepare_cached("SELECT fingerprint, sender, raw FROM letters WHERE dedup_key = ?1")?
            .query_row(params![dedup_key], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .optional()?;
        let Some((stored_print, sender, raw)) = stored else {
            return Ok(Seen::New);
        };
        let stored_print = stored_print
            .unwrap_or_else(|| crate::mail::format::keys::fingerprint(sender.as_deref(), &raw));
        if stored_print == fingerprint {
            return Ok(Seen::Before);
        }
        let own_key = format!("{dedup_key}#{}", &fingerprint[..fingerprint.len().min(16)]);
        let own_seen = self
            .conn
            .prepare_cached("SELECT 1 FROM letters WHERE dedup_key = ?1")?
            .exists(params![own_key])?;
        Ok(if own_seen {
            Seen::Before
        } else {
            Seen::Clash(own_key)
        })
    }

    /// The game a message of ours (or a letter we stored) belongs to, in
    /// `tournament` (`None` where it is another's).
    pub fn game_of_message(
        &self,
        tournament: Option<&str>,
        message_id: &str,
    ) -> Result<Option<String>> {
        Ok(self
            .game_key_of_message(message_id)?
            .and_then(|key| key.game_in(tournament).map(str::to_string)))
    }

    /// The games where the person at `email` played a colour until he was
    /// replaced, of every tournament, in the order he left them.
    pub fn seats_left_by(&self, email: &str) -> Result<Vec<LeftSeat>> {
        let mut statement = self.conn.prepare_cached(
            "SELECT game_id, name, created_on FROM seats WHERE email = ?1 ORDER BY id",
        )?;
        let rows = statement
            .query_map(params![email], |r| {
                Ok(LeftSeat {
                    game: GameKey::parse(&r.get::<_, String>(0)?),
                    name: r.get(1)?,
                    on: date_from(&r.get::<_, String>(2)?)?,
                })
            })?
            .collect::<Sql<Vec<_>>>()?;
        Ok(rows)
    }

    /// Whether the database holds games of a folder's tournament `id`
    /// (stored as `ID/game`), whether or not it is served now.
    pub fn has_tournament(&self, id: &str) -> Result<bool> {
        // '0' follows '/': the keys `ID/…` are those between.
        Ok(self
            .conn
            .prepare_cached(
                "SELECT EXISTS (SELECT 1 FROM games WHERE id > ?1 || '/' AND id < ?1 || '0')",
            )?
            .query_row(params![id], |row| row.get(0))?)
    }

    /// The game of a message of ours as the database keys it (`ID/<game>`
    /// for a tournament of a folder): which tournament a reply belongs to.
    pub fn game_key_of_message(&self, message_id: &str) -> Result<Option<GameKey>> {
        Ok(self
            .stored_key_of_message(message_id)?
            .map(|key| GameKey::parse(&key)))
    }

    fn stored_key_of_message(&self, message_id: &str) -> Result<Option<String>> {
        let ours: Option<Option<String>> = self
            .conn
            .prepare_cached("SELECT game_id FROM outbox WHERE message_id = ?1")?
            .query_row(params![message_id], |row| row.get(0))
            .optional()?;
        if let Some(Some(game)) = ours {
            return Ok(Some(game));
        }
        // A letter with a Message-ID is stored under `mid:<id>`
        // (`mail::format::keys::dedup_key`), and only then has one; another letter under
        // the same Message-ID under `mid:<id>#<its fingerprint>`
        // (`letter_seen`): '#' sorts just before '$', so the range is those.
        Ok(self
            .conn
            .prepare_cached(
                "SELECT game_id FROM letters
                 WHERE (dedup_key = 'mid:' || ?1
                        OR (dedup_key > 'mid:' || ?1 || '#' AND dedup_key < 'mid:' || ?1 || '$'))
                   AND game_id IS NOT NULL
                 ORDER BY id LIMIT 1",
            )?
            .query_row(params![message_id], |row| row.get(0))
            .optional()?)
    }

    /// Loads a game; a game never written yet is a new one.
    pub fn load_game(&self, key: &GameKey) -> Result<StoredGame> {
        let id = key.to_string();
        let id = id.as_str();
        if let Some(game) = self.cache.borrow().games.get(id) {
            return Ok(game.clone());
        }
        let game = self.read_game(id)?;
        self.cache
            .borrow_mut()
            .games
            .insert(id.to_string(), game.clone());
        Ok(game)
    }

    pub(super) fn read_game(&self, id: &str) -> Result<StoredGame> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT status, result, result_reason, offender, notice_on, protest_received,
                        extra_white, extra_black, held, draw_offer, held_reply,
                        overstep_ply, credit_white, credit_black, resumed_on, excused, result_by
                 FROM games WHERE id = ?1",
            )?
            .query_row(params![id], game_row)
            .optional()?
            .unwrap_or_default();
        let mut statement = self.conn.prepare_cached(MOVES_OF_GAME)?;
        let moves = statement
            .query_map(params![id], |r| {
                let facts: Option<String> = r.get(7)?;
                let delivered: Option<String> = r.get(4)?;
                Ok(Row {
                    by: color_from(&r.get::<_, String>(0)?).unwrap_or(Color::White),
                    san: r.get(1)?,
                    conditional: r.get(2)?,
                    sent_on: date_from(&r.get::<_, String>(3)?)?,
                    delivered_on: delivered.as_deref().map(date_from).transpose()?,
                    days: r.get(5)?,
                    penalty: r.get(6)?,
                    letter: facts
                        .as_deref()
                        .map(serde_json::from_str)
                        .transpose()
                        .map_err(from_sql_err)?,
                })
            })?
            .collect::<Sql<Vec<_>>>()?;
        let mut statement = self
            .conn
            .prepare_cached("SELECT key FROM duties_done WHERE game_id = ?1")?;
        let done = statement
            .query_map(params![id], |r| {
                Ok(DutyKey::of_text(&r.get::<_, String>(0)?))
            })?
            .collect::<Sql<BTreeSet<_>>>()?;
        let mut statement = self.conn.prepare_cached(
            "SELECT color, until_ply, finished, player, name, email FROM seats
             WHERE game_id = ?1 ORDER BY id",
        )?;
        let seats = statement
            .query_map(params![id], |r| {
                Ok(Seat {
                    color: color_from(&r.get::<_, String>(0)?).unwrap_or(Color::White),
                    until_ply: usize::try_from(r.get::<_, i64>(1)?).unwrap_or(0),
                    finished: r.get(2)?,
                    player: r.get(3)?,
                    name: r.get(4)?,
                    email: r.get(5)?,
                })
            })?
            .collect::<Sql<Vec<_>>>()?;
        Ok(StoredGame {
            row,
            moves,
            done,
            seats,
        })
    }

    /// Each stored game, by its key in the database (`ID/<game>` for a
    /// folder's), and the day the calendar must look at it again; a game
    /// written since it was last looked at has none (look today), and a game
    /// not in the map has never been written. Read once for all of a run.
    pub fn next_checks_keyed(
        &self,
    ) -> Result<std::collections::HashMap<GameKey, Option<NaiveDate>>> {
        let mut statement = self
            .conn
            .prepare_cached("SELECT id, next_check FROM games")?;
        Ok(statement
            .query_map([], |r| {
                let day: Option<String> = r.get(1)?;
                let key: String = r.get(0)?;
                Ok((
                    GameKey::parse(&key),
                    day.as_deref().map(date_from).transpose()?,
                ))
            })?
            .collect::<Sql<_>>()?)
    }

    /// The letters received from `color` in `game`, oldest first, as kept:
    /// for the arbiter's file and `shtempel letters`.
    pub fn letters_from(&self, game: &GameKey, color: Color) -> Result<Vec<GameLetter>> {
        let game = game.to_string();
        let mut statement = self.conn.prepare_cached(
            "SELECT postmark, sender, parse, raw FROM letters
             WHERE game_id = ?1 AND color = ?2 ORDER BY id",
        )?;
        Ok(statement
            .query_map(params![game, color_name(color)], |r| {
                Ok(GameLetter {
                    postmark: date_from(&r.get::<_, String>(0)?)?,
                    sender: r.get(1)?,
                    parse_json: r.get(2)?,
                    raw: r.get(3)?,
                })
            })?
            .collect::<Sql<_>>()?)
    }

    /// The notes of a game, oldest first.
    pub fn notes(&self, game: &GameKey) -> Result<Vec<Note>> {
        let game = game.to_string();
        let mut statement = self.conn.prepare_cached(
            "SELECT ply, kind, text, created_on, other_language, other_text FROM notes
             WHERE game_id = ?1 ORDER BY id",
        )?;
        Ok(statement
            .query_map(params![game], |r| {
                let ply: Option<i64> = r.get(0)?;
                let other_language: Option<String> = r.get(4)?;
                let other_text: Option<String> = r.get(5)?;
                let other = match (other_language.as_deref(), other_text) {
                    (Some("ru"), Some(text)) => Some((crate::Lang::Ru, text)),
                    (Some("en"), Some(text)) => Some((crate::Lang::En, text)),
                    _ => None,
                };
                let kind: String = r.get(1)?;
                let kind = NoteKind::from_name(&kind).ok_or_else(|| {
                    rusqlite::Error::FromSqlConversionFailure(
                        1,
                        rusqlite::types::Type::Text,
                        format!("a note of kind {kind:?}, which this build does not know").into(),
                    )
                })?;
                Ok(Note {
                    ply: ply.and_then(|ply| usize::try_from(ply).ok()),
                    kind,
                    text: r.get(2)?,
                    other,
                    created_on: date_from(&r.get::<_, String>(3)?)?,
                })
            })?
            .collect::<Sql<_>>()?)
    }

    /// Whether the database holds games stored by a tournament of its own
    /// file (under their bare ids): a folder's clerk must first adopt them.
    pub fn has_unscoped_games(&self) -> Result<bool> {
        Ok(self.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM games WHERE instr(id, '/') = 0)",
            [],
            |r| r.get(0),
        )?)
    }

    /// The games stored under their bare ids made `tournament`'s (stored
    /// as `ID/<game>`), with their moves, notes, duties, letters and
    /// messages and its players' leaves, all at once. How many games.
    pub fn adopt_games(&mut self, tournament: &str) -> Result<usize> {
        // `ID/`: the keys of `crate::key`, which the SQL here writes too
        // (no key of a tournament of its own file holds a '/').
        let prefix = GameKey::new(Some(tournament), "").to_string();
        let tx = self.conn.transaction()?;
        let games = tx.execute(
            "UPDATE games SET id = ?1 || id WHERE instr(id, '/') = 0",
            [&prefix],
        )?;
        for (table, column) in [
            ("moves", "game_id"),
            ("notes", "game_id"),
            ("duties_done", "game_id"),
            ("letters", "game_id"),
            ("outbox", "game_id"),
            ("outbox", "delivers_game"),
            ("seats", "game_id"),
            // A leave is kept under the person's key, `ID/<player>`.
            ("leaves", "player"),
        ] {
            tx.execute(
                &format!(
                    "UPDATE {table} SET {column} = ?1 || {column}
                     WHERE {column} IS NOT NULL AND instr({column}, '/') = 0"
                ),
                [&prefix],
            )?;
        }
        tx.commit()?;
        *self.cache.borrow_mut() = Cache::default();
        Ok(games)
    }
}

/// A game's row as the database holds it (`SELECT status, result, …` of
/// [`Store::read_game`]).
fn game_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<GameRow> {
    let offender: Option<String> = r.get(3)?;
    let notice_on: Option<String> = r.get(4)?;
    let suspension = match (offender.as_deref().and_then(color_from), notice_on) {
        (Some(offender), Some(notice_on)) => Some(Suspension {
            offender,
            notice_on: date_from(&notice_on)?,
            protest_received: r.get(5)?,
            ply: r
                .get::<_, Option<i64>>(11)?
                .and_then(|p| usize::try_from(p).ok()),
        }),
        _ => None,
    };
    let held: String = r.get(8)?;
    let draw_offer: Option<String> = r.get(9)?;
    let held_reply: Option<i64> = r.get(10)?;
    let result: Option<String> = r.get(1)?;
    let reason: Option<String> = r.get(2)?;
    let outcome = result
        .as_deref()
        .and_then(GameResult::from_pgn)
        .map(|result| Outcome {
            result,
            reason: reason
                .as_deref()
                .and_then(EndReason::from_code)
                .unwrap_or(EndReason::Agreement),
        });
    let standing = Standing {
        status: status_from(&r.get::<_, String>(0)?),
        outcome,
        suspension,
        extra_penalty: Fraction {
            white: r.get(6)?,
            black: r.get(7)?,
        },
        credit: Fraction {
            white: r.get(12)?,
            black: r.get(13)?,
        },
        resumed_on: r
            .get::<_, Option<String>>(14)?
            .as_deref()
            .map(date_from)
            .transpose()?,
        draw_offer: draw_offer.as_deref().and_then(color_from),
        held_reply: held_reply.and_then(|ply| usize::try_from(ply).ok()),
        excused: serde_json::from_str(&r.get::<_, String>(15)?).map_err(from_sql_err)?,
        awarded_by: r
            .get::<_, Option<String>>(16)?
            .as_deref()
            .and_then(AwardedBy::from_code),
    };
    Ok(GameRow {
        standing,
        held: serde_json::from_str(&held).map_err(from_sql_err)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Status;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    const WHITE_WINS: Outcome = Outcome {
        result: GameResult::WhiteWins,
        reason: EndReason::Resignation,
    };

    /// The day a game ended is the day of the run that finished it; a result
    /// set on it later keeps that day; a game taken back out of its end loses it.
    #[test]
    fn a_game_ends_on_the_day_it_was_finished() {
        let mut store = Store::in_memory().unwrap();
        let rows = vec![Row {
            by: Color::White,
            san: "e4".into(),
            conditional: false,
            sent_on: day(3),
            delivered_on: None,
            days: 1,
            penalty: 0,
            letter: None,
        }];
        let over = |outcome| GameRow {
            standing: Standing {
                status: Status::Finished,
                outcome: Some(outcome),
                ..Standing::default()
            },
            ..GameRow::default()
        };
        let write = |store: &mut Store, row: &GameRow, from, on| {
            store
                .write(Some("CUP"), |w| {
                    w.game("1", row, &rows, from, None, day(on))
                })
                .unwrap();
            store.finished_games().unwrap()
        };
        assert!(write(&mut store, &GameRow::default(), 0, 3).is_empty());
        let finished = write(&mut store, &over(WHITE_WINS), 1, 9);
        let game = &finished["CUP/1"];
        assert_eq!((game.ended_on, game.outcome), (Some(day(9)), WHITE_WINS));
        let draw = Outcome {
            result: GameResult::Draw,
            reason: EndReason::Ruling,
        };
        let finished = write(&mut store, &over(draw), 1, 20);
        assert_eq!(
            (finished["CUP/1"].ended_on, finished["CUP/1"].outcome),
            (Some(day(9)), draw)
        );
        assert!(write(&mut store, &GameRow::default(), 1, 21).is_empty());
        let finished = write(&mut store, &over(WHITE_WINS), 1, 25);
        assert_eq!(finished["CUP/1"].ended_on, Some(day(25)));
    }
}

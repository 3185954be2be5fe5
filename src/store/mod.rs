//! The database: SQLite, the only module with SQL.
//!
//! Every letter is kept raw (it is evidence for the arbiter) under a key that
//! makes a second copy of it a no-op; the game record, clocks, notes, duties and
//! the outbox live beside it. A state change and the messages it causes are
//! written in one transaction ([`Store::write`]); messages are sent after the
//! commit and marked sent with their receipt.

mod schema;
mod sent_log;

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OptionalExtension, params};
use shakmaty::Color;

pub use self::sent_log::{Sent, SentLog};
use crate::color_name;
use crate::game::HeldVariant;
use crate::rules::{
    DutyKey, EndReason, Fraction, GameResult, Outcome, Row, Standing, Status, Suspension,
};

pub type Result<T> = std::result::Result<T, rusqlite::Error>;

/// The page size of a new database.
const PAGE_SIZE: i64 = 8192;

/// How long the write-ahead log grows before SQLite copies it into the
/// database: 10 MB (SQLite's default is 4 MB; see `Store::setup`).
const WAL_CHECKPOINT_BYTES: i64 = 10_240_000;

/// Where a letter ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Disposition {
    /// Applied to a game (moves, a result, a decision…).
    Applied,
    /// Answered with a refusal; the game is unchanged.
    Refused,
    /// Recorded and left alone: an auto-reply, a bounce, a stranger, a loop.
    Ignored,
    /// Failed on several runs; kept for the director and left alone.
    Quarantined,
}

impl Disposition {
    fn as_str(self) -> &'static str {
        match self {
            Disposition::Applied => "applied",
            Disposition::Refused => "refused",
            Disposition::Ignored => "ignored",
            Disposition::Quarantined => "quarantined",
        }
    }
}

/// A letter as it is kept.
#[derive(Clone, Debug)]
pub struct StoredLetter {
    pub dedup_key: String,
    pub message_id: Option<String>,
    pub source_key: String,
    pub arrived: DateTime<Utc>,
    pub postmark: NaiveDate,
    pub sender: Option<String>,
    pub game: Option<String>,
    pub color: Option<Color>,
    pub disposition: Disposition,
    pub reason: String,
    pub parse_json: Option<String>,
    pub raw: Vec<u8>,
}

/// The stored state of one game, besides its moves: the rules' standing and
/// the variants the board holds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRow {
    pub standing: Standing,
    pub held: Vec<HeldVariant>,
}

/// One game as loaded: state, moves with their clocks, duties done.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoredGame {
    pub row: GameRow,
    pub moves: Vec<Row>,
    pub done: BTreeSet<DutyKey>,
}

/// A message waiting in, or sent from, the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxItem {
    pub id: i64,
    pub game: Option<String>,
    pub kind: String,
    pub recipients: Vec<String>,
    pub message_id: String,
    pub raw: Vec<u8>,
    /// The move this message delivers to its reader (sets `delivered_on`).
    pub delivers: Option<(String, usize)>,
    pub attempts: u32,
}

/// A message to put in the outbox.
#[derive(Clone, Debug)]
pub struct NewOutbox {
    pub game: Option<String>,
    pub kind: String,
    pub recipients: Vec<String>,
    pub message_id: String,
    pub raw: Vec<u8>,
    pub delivers: Option<usize>,
}

/// A message of the outbox, for reports and tests.
#[derive(Clone, Debug)]
pub struct SentMessage {
    pub kind: String,
    pub recipients: String,
    pub raw: Vec<u8>,
    pub sent: bool,
}

/// A note under a game's chart: a correction, penalty, repeat, decision….
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub ply: Option<usize>,
    pub kind: String,
    pub text: String,
    pub created_on: NaiveDate,
}

pub struct Store {
    conn: Connection,
    /// A batch is open: writes go into its one transaction.
    batch: bool,
    /// What this process last read or wrote, kept in step by every write;
    /// emptied when a write fails.
    cache: RefCell<Cache>,
    /// Beside a database on disk; an in-memory one has none.
    sent_log: Option<SentLog>,
    /// The write-ahead log of a database on disk (see [`Store::end_batch_unsynced`]).
    wal: Option<std::path::PathBuf>,
    /// Rows changed on the connection when the open batch began: a batch
    /// that changed none has nothing to sync (an idle run's).
    changes_at_begin: u64,
}

/// A commit that is in the write-ahead log but maybe not yet on the disk:
/// [`WalSync::sync`] puts it there. Whoever acts on the commit outside the
/// database (marks letters done, sends) syncs first.
#[derive(Default)]
pub struct WalSync {
    wal: Option<std::fs::File>,
}

impl WalSync {
    /// Returns once every commit made before this one was taken is on disk.
    pub fn sync(&self) -> std::io::Result<()> {
        match &self.wal {
            Some(file) => file.sync_data(),
            None => Ok(()),
        }
    }
}

/// Reads a run makes for every letter, served from memory once made.
#[derive(Default)]
struct Cache {
    /// Games as last read or written: a letter in a game reads it from
    /// here, not from the database. Kept in step by every write of moves,
    /// game rows and duties.
    games: HashMap<String, StoredGame>,
    /// The kinds of the messages created on a day, by first recipient (see
    /// [`Store::replies_on`]); a new message is added.
    replies: HashMap<NaiveDate, Replies>,
    /// Games whose database row is the cached row, with no `next_check`
    /// set: writing the same row again changes nothing, and is skipped (it
    /// was a tenth of the writes of a letter).
    settled: HashSet<String>,
    /// The source keys of the letters that failed on an earlier run, read
    /// once: a letter that goes through is forgotten only if it is there.
    failing: Option<HashSet<String>>,
    /// Messages written since [`Store::pending`] last ran, with their bytes,
    /// oldest first: it gives them from here instead of reading them back
    /// (with the messages of the jobs out, that was three rows read for one
    /// given).
    written: Vec<OutboxItem>,
}

/// A game's moves, in order.
const MOVES_OF_GAME: &str = "SELECT color, san, conditional, sent_on, delivered_on, days, \
                              penalty, facts FROM moves WHERE game_id = ?1 ORDER BY ply";

/// The kinds of a day's messages, by their first recipient.
type Replies = HashMap<String, Vec<String>>;

/// The first of the recipients as the outbox stores them (joined by commas).
fn first_recipient(recipients: &str) -> &str {
    recipients.split(',').next().unwrap_or(recipients)
}

/// How long a message that failed `attempts` times waits before the next try.
pub fn retry_delay(attempts: u32) -> chrono::Duration {
    if attempts == 0 {
        return chrono::Duration::zero();
    }
    let minutes = 5i64.saturating_mul(1 << attempts.min(10).saturating_sub(1));
    chrono::Duration::minutes(minutes.min(6 * 60))
}

fn color_from(text: &str) -> Option<Color> {
    match text {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

fn status_from(text: &str) -> Status {
    match text {
        "suspended" => Status::Suspended,
        "finished" => Status::Finished,
        "adjudication" => Status::Adjudication,
        _ => Status::Active,
    }
}

fn to_sql_err(error: serde_json::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(error))
}

fn from_sql_err(error: impl std::error::Error + Send + Sync + 'static) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(error))
}

fn date_from(text: &str) -> Result<NaiveDate> {
    text.parse().map_err(from_sql_err)
}

/// A day as the database stores it, `YYYY-MM-DD`.
fn day_text(day: NaiveDate) -> String {
    day.to_string()
}

impl Store {
    /// Opens (creating if need be) and migrates the database.
    pub fn open(path: &Path) -> Result<Store> {
        let conn = Connection::open(path)?;
        let mut store = Store::setup(conn)?;
        let log = SentLog::beside(path);
        // A run that crashed while sending left these: they went out.
        let left = log.left().map_err(from_sql_err)?;
        store.sent_log = Some(log);
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        store.wal = Some(wal.into());
        if !left.is_empty() {
            store.record_sent(&left)?;
            store.clear_sent_log()?;
        }
        Ok(store)
    }

    /// A database in memory, for `check` and tests.
    pub fn in_memory() -> Result<Store> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> Result<Store> {
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // A new database gets 8 KB pages: a batch's commit writes its frames
        // with half the system calls of 4 KB ones, and a checkpoint reads
        // them back with half (benches/README.md, change 31). SQLite sets
        // the size only before the first table; an older database keeps
        // its own.
        conn.pragma_update(None, "page_size", PAGE_SIZE)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Full durability: a commit is on disk before mail is marked done or sent.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // No plan remade for the value bound: without this, SQLite prepared
        // the query of a game's moves again for nearly every game read (its
        // check whether the value bound to `= ?` is a small integer), 67,000
        // instructions each.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
        // A batch of 500 letters dirtied about 1,500 pages of 4 KB (one of
        // 1,000 now commits up to 490 of 8 KB: the cache holds 1,000). With SQLite's
        // default 2 MB page cache they spilled into the WAL before the
        // commit, and were written again by it; with a checkpoint every
        // 1,000 pages each batch was also copied into the database at once,
        // pages that the next batch dirties again. An 8 MB cache and a
        // checkpoint every 10,000 pages (40 MB of WAL at most) wrote 49,000
        // pages instead of 74,000 for 10,000 letters (benches/README.md,
        // change 16). Since batches end short (change 44), a checkpoint
        // every 10 MB costs 8 % more copied pages but less on the disk: the
        // log is written over in place instead of growing to 40 MB, and the
        // run's last checkpoint, which nothing overlaps, copies at most 10 MB
        // of it (change 46). The checkpoint is set in bytes: pages of any size.
        conn.pragma_update(None, "cache_size", -8000)?;
        schema::migrate(&mut conn)?;
        let page_size: i64 = conn.query_row("PRAGMA page_size", [], |row| row.get(0))?;
        conn.pragma_update(None, "wal_autocheckpoint", WAL_CHECKPOINT_BYTES / page_size)?;
        Ok(Store {
            conn,
            batch: false,
            cache: RefCell::default(),
            sent_log: None,
            wal: None,
            changes_at_begin: 0,
        })
    }

    /// Runs `work` all or nothing: in a transaction of its own, or as part of
    /// the open batch. A failed write inside a batch rolls the whole batch
    /// back (the run stops on it, and the next run redoes the batch).
    pub fn write<T>(&mut self, work: impl FnOnce(&Writer<'_>) -> Result<T>) -> Result<T> {
        let result = if self.batch {
            work(&Writer {
                tx: &self.conn,
                cache: &self.cache,
            })
        } else {
            self.conn.transaction().and_then(|tx| {
                let value = work(&Writer {
                    tx: &tx,
                    cache: &self.cache,
                })?;
                tx.commit()?;
                Ok(value)
            })
        };
        if result.is_err() {
            *self.cache.borrow_mut() = Cache::default();
            if self.batch {
                let _ = self.leave_batch("ROLLBACK");
            }
        }
        result
    }

    /// Opens a batch: every write until [`Store::end_batch`] goes into one
    /// transaction, which reads on this connection already see, and which
    /// reaches the disk in one sync at the end instead of one per letter.
    /// Nothing outside (a mail marked done, a message sent) may depend on a
    /// write of the batch before the batch ends.
    pub fn begin_batch(&mut self) -> Result<()> {
        if !self.batch {
            // SQLite takes the safety level of a transaction when it
            // begins; a batch syncs its log itself (see `end_batch`).
            self.conn
                .execute_batch("PRAGMA synchronous = NORMAL; BEGIN IMMEDIATE")?;
            self.batch = true;
            self.changes_at_begin = self.conn.total_changes();
        }
        Ok(())
    }

    /// Commits the batch durably: on disk when this returns.
    pub fn end_batch(&mut self) -> Result<()> {
        self.end_batch_unsynced()?.sync().map_err(from_sql_err)
    }

    /// Commits the batch without waiting for the disk, and returns what
    /// waits for it, so that another thread pays the sync while this one
    /// goes on with the next batch (it was a fifth of a run on the disk:
    /// benches/README.md, change 22). Until the sync returns, a power cut
    /// may take the commit back (never a part of it: SQLite's log keeps a
    /// commit whole or not at all), so nothing outside the database may act
    /// on the batch before it.
    pub fn end_batch_unsynced(&mut self) -> Result<WalSync> {
        if !self.batch {
            return Ok(WalSync::default());
        }
        let changed = self.conn.total_changes() != self.changes_at_begin;
        if let Err(error) = self.leave_batch("COMMIT") {
            *self.cache.borrow_mut() = Cache::default();
            let _ = self.leave_batch("ROLLBACK");
            return Err(error);
        }
        let wal = match &self.wal {
            // The log exists while the connection is open in WAL mode.
            Some(path) if changed => Some(std::fs::File::open(path).map_err(from_sql_err)?),
            _ => None,
        };
        Ok(WalSync { wal })
    }

    /// Copies the write-ahead log into the database and empties it, outside
    /// a batch. SQLite does it when the connection closes; a run that wrote
    /// many letters does it while its last messages are still being sent,
    /// not after (a tenth of a run on the disk: benches/README.md, change
    /// 29). The log is synced before the database is written.
    pub fn checkpoint(&mut self) -> Result<()> {
        if self.wal.is_none() || self.batch {
            return Ok(());
        }
        self.conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
    }

    /// Ends the batch's transaction; writes outside a batch are synced by
    /// SQLite at their commit again.
    fn leave_batch(&mut self, end: &str) -> Result<()> {
        self.batch = false;
        let ended = self.conn.execute_batch(end);
        // Refused while a failed COMMIT leaves the transaction open; the
        // ROLLBACK after it sets it.
        let full = self.conn.pragma_update(None, "synchronous", "FULL");
        ended.and(full)
    }

    /// Whether a letter with this key was seen already.
    pub fn letter_seen(&self, dedup_key: &str) -> Result<bool> {
        self.conn
            .prepare_cached("SELECT 1 FROM letters WHERE dedup_key = ?1")?
            .exists(params![dedup_key])
    }

    /// The game a message of ours (or a letter we stored) belongs to.
    pub fn game_of_message(&self, message_id: &str) -> Result<Option<String>> {
        let ours: Option<Option<String>> = self
            .conn
            .prepare_cached("SELECT game_id FROM outbox WHERE message_id = ?1")?
            .query_row(params![message_id], |row| row.get(0))
            .optional()?;
        if let Some(Some(game)) = ours {
            return Ok(Some(game));
        }
        // A letter with a Message-ID is stored under `mid:<id>`
        // (`clerk::dedup_key`), and only then has one.
        self.conn
            .prepare_cached(
                "SELECT game_id FROM letters WHERE dedup_key = 'mid:' || ?1 AND game_id IS NOT NULL",
            )?
            .query_row(params![message_id], |row| row.get(0))
            .optional()
    }

    /// Loads a game; a game never written yet is a new one.
    pub fn load_game(&self, id: &str) -> Result<StoredGame> {
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

    fn read_game(&self, id: &str) -> Result<StoredGame> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT status, result, result_reason, offender, notice_on, protest_received,
                        extra_white, extra_black, held, draw_offer, held_reply,
                        overstep_ply, credit_white, credit_black, resumed_on
                 FROM games WHERE id = ?1",
            )?
            .query_row(params![id], |r| {
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
                };
                Ok(GameRow {
                    standing,
                    held: serde_json::from_str(&held).map_err(from_sql_err)?,
                })
            })
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
            .collect::<Result<Vec<_>>>()?;
        let mut statement = self
            .conn
            .prepare_cached("SELECT key FROM duties_done WHERE game_id = ?1")?;
        let done = statement
            .query_map(params![id], |r| Ok(DutyKey(r.get(0)?)))?
            .collect::<Result<BTreeSet<_>>>()?;
        Ok(StoredGame { row, moves, done })
    }

    /// The raw letters received from `color` in `game`, oldest first.
    /// Each stored game and the day the calendar must look at it again; a
    /// game written since it was last looked at has none (look today), and a
    /// game not in the map has never been written.
    pub fn next_checks(&self) -> Result<std::collections::HashMap<String, Option<NaiveDate>>> {
        let mut statement = self
            .conn
            .prepare_cached("SELECT id, next_check FROM games")?;
        statement
            .query_map([], |r| {
                let day: Option<String> = r.get(1)?;
                Ok((r.get(0)?, day.as_deref().map(date_from).transpose()?))
            })?
            .collect()
    }

    pub fn letters_from(&self, game: &str, color: Color) -> Result<Vec<(NaiveDate, Vec<u8>)>> {
        let mut statement = self.conn.prepare_cached(
            "SELECT postmark, raw FROM letters WHERE game_id = ?1 AND color = ?2 ORDER BY id",
        )?;
        statement
            .query_map(params![game, color_name(color)], |r| {
                Ok((date_from(&r.get::<_, String>(0)?)?, r.get(1)?))
            })?
            .collect()
    }

    /// The notes of a game, oldest first.
    pub fn notes(&self, game: &str) -> Result<Vec<Note>> {
        let mut statement = self.conn.prepare_cached(
            "SELECT ply, kind, text, created_on FROM notes WHERE game_id = ?1 ORDER BY id",
        )?;
        statement
            .query_map(params![game], |r| {
                let ply: Option<i64> = r.get(0)?;
                Ok(Note {
                    ply: ply.and_then(|ply| usize::try_from(ply).ok()),
                    kind: r.get(1)?,
                    text: r.get(2)?,
                    created_on: date_from(&r.get::<_, String>(3)?)?,
                })
            })?
            .collect()
    }

    /// Messages not yet sent and due for a try at `now`, oldest first,
    /// but for those `skip` names (given to a job that is still out). A
    /// message that failed waits 5 minutes, then 10, 20, … up to 6 hours.
    pub fn pending(
        &self,
        now: DateTime<Utc>,
        skip: impl Fn(i64) -> bool,
    ) -> Result<Vec<OutboxItem>> {
        let written = std::mem::take(&mut self.cache.borrow_mut().written);
        let mut written = written.into_iter().peekable();
        let unsent: Vec<i64> = self
            .conn
            .prepare_cached(
                "SELECT id FROM outbox WHERE sent_at IS NULL AND failed = 0 ORDER BY id",
            )?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_>>()?;
        let mut read = self.conn.prepare_cached(
            "SELECT o.id, game_id, kind, recipients, message_id, raw, delivers_game, delivers_ply,
                    attempts, last_attempt
             FROM outbox o JOIN outbox_raw r ON r.id = o.id
             WHERE o.id = ?1",
        )?;
        let mut due = Vec::new();
        for id in unsent {
            while written.next_if(|item| item.id < id).is_some() {}
            if skip(id) {
                continue;
            }
            if let Some(item) = written.next_if(|item| item.id == id) {
                due.push(item);
                continue;
            }
            let (item, last) = read.query_row([id], |r| {
                let recipients: String = r.get(3)?;
                let delivers_game: Option<String> = r.get(6)?;
                let delivers_ply: Option<i64> = r.get(7)?;
                let last_attempt: Option<String> = r.get(9)?;
                Ok((
                    OutboxItem {
                        id: r.get(0)?,
                        game: r.get(1)?,
                        kind: r.get(2)?,
                        recipients: recipients
                            .split(',')
                            .filter(|s| !s.is_empty())
                            .map(str::to_string)
                            .collect(),
                        message_id: r.get(4)?,
                        raw: r.get(5)?,
                        delivers: delivers_game
                            .zip(delivers_ply.and_then(|ply| usize::try_from(ply).ok())),
                        attempts: r.get(8)?,
                    },
                    last_attempt.and_then(|t| DateTime::parse_from_rfc3339(&t).ok()),
                ))
            })?;
            let wait = retry_delay(item.attempts);
            if last.is_none_or(|last| now >= last.with_timezone(&Utc) + wait) {
                due.push(item);
            }
        }
        Ok(due)
    }

    /// Messages that could not be sent at all, for reports: (kind, recipients, error).
    pub fn failed_messages(&self) -> Result<Vec<(String, String, String)>> {
        let mut statement = self.conn.prepare_cached(
            "SELECT kind, recipients, coalesce(last_error, '') FROM outbox WHERE failed = 1 ORDER BY id",
        )?;
        statement
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect()
    }

    /// A handle on the sent log for the one who sends: each message the
    /// transport took is appended to it at once (one line, which outlives a
    /// crash of the process) and written into the database by
    /// [`Store::record_sent`] with the next batch. A commit per message cost
    /// more than the message; the log keeps "a crash sends again at most the
    /// message in flight". A crash of the machine loses the unsynced log and
    /// sends its messages again, with their Message-IDs. `None` for a
    /// database in memory.
    pub fn sent_log(&self) -> Option<SentLog> {
        self.sent_log.as_ref().map(SentLog::handle)
    }

    /// Records messages as sent with their receipts, and delivers the moves
    /// they carry on their day: in the game cache at once, in the database
    /// with the open batch (or in a transaction of its own).
    pub fn record_sent(&mut self, sent: &[Sent]) -> Result<()> {
        if sent.is_empty() {
            return Ok(());
        }
        for sent in sent {
            if let Some((game, ply)) = &sent.delivers
                && let Some(cached) = self.cache.borrow_mut().games.get_mut(game)
                && let Some(row) = cached.moves.get_mut(*ply)
            {
                row.delivered_on.get_or_insert(sent.today);
            }
        }
        self.write(|w| sent.iter().try_for_each(|s| w.sent(s)))
    }

    /// Removes the sent log once what it held is committed (and before
    /// anyone appends to it again).
    pub fn clear_sent_log(&mut self) -> Result<()> {
        match &mut self.sent_log {
            Some(log) => log.clear().map_err(from_sql_err),
            None => Ok(()),
        }
    }

    /// Records a failed send; a permanent failure is not tried again.
    pub fn mark_failed(
        &mut self,
        outbox_id: i64,
        error: &str,
        permanent: bool,
        at: DateTime<Utc>,
    ) -> Result<()> {
        self.conn.prepare_cached(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?2, failed = ?3, last_attempt = ?4
             WHERE id = ?1",
        )?
        .execute(
            params![outbox_id, error, permanent, at.to_rfc3339()],
        )?;
        Ok(())
    }

    /// Counts one more failed run for a letter; returns how many it has had.
    pub fn record_failure(
        &mut self,
        source_key: &str,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<u32> {
        let runs = self.conn.query_row(
            "INSERT INTO failures (source_key, runs, last_error, last_at) VALUES (?1, 1, ?2, ?3)
             ON CONFLICT (source_key) DO UPDATE SET runs = runs + 1, last_error = ?2, last_at = ?3
             RETURNING runs",
            params![source_key, error, at.to_rfc3339()],
            |r| r.get(0),
        )?;
        if let Some(failing) = &mut self.cache.borrow_mut().failing {
            failing.insert(source_key.to_string());
        }
        Ok(runs)
    }

    /// A letter that went through after failing before. Most never failed:
    /// their keys are looked up in memory, not deleted from the table one
    /// by one (a hundredth of a run).
    pub fn forget_failure(&mut self, source_key: &str) -> Result<()> {
        if self.cache.borrow().failing.is_none() {
            let keys = self
                .conn
                .prepare("SELECT source_key FROM failures")?
                .query_map([], |row| row.get(0))?
                .collect::<Result<HashSet<String>>>()?;
            self.cache.borrow_mut().failing = Some(keys);
        }
        let known = self
            .cache
            .borrow_mut()
            .failing
            .as_mut()
            .is_some_and(|failing| failing.remove(source_key));
        if known {
            self.conn
                .prepare_cached("DELETE FROM failures WHERE source_key = ?1")?
                .execute(params![source_key])?;
        }
        Ok(())
    }

    /// How many answers of `kinds` went to `address` on `day`. The kinds of
    /// a day's messages are read once, by the day, and then kept with the
    /// messages added (a query per letter was a twenty-fifth of a run; one
    /// per address needed an index by recipient, whose pages every batch
    /// rewrote).
    pub fn replies_on(&self, address: &str, day: NaiveDate, kinds: &[&str]) -> Result<u32> {
        if !self.cache.borrow().replies.contains_key(&day) {
            let stored = self.replies_of(day)?;
            self.cache.borrow_mut().replies.insert(day, stored);
        }
        let cache = self.cache.borrow();
        let stored = cache
            .replies
            .get(&day)
            .and_then(|replies| replies.get(address))
            .map_or(&[][..], Vec::as_slice);
        Ok(stored
            .iter()
            .filter(|kind| kinds.contains(&kind.as_str()))
            .count() as u32)
    }

    /// The kinds of the messages created on `day`, by first recipient.
    fn replies_of(&self, day: NaiveDate) -> Result<Replies> {
        let mut statement = self
            .conn
            .prepare_cached("SELECT recipients, kind FROM outbox WHERE created_on = ?1")?;
        let mut rows = statement.query(params![day_text(day)])?;
        let mut replies = Replies::new();
        while let Some(row) = rows.next()? {
            let recipients: String = row.get(0)?;
            replies
                .entry(first_recipient(&recipients).to_string())
                .or_default()
                .push(row.get(1)?);
        }
        Ok(replies)
    }

    /// How many letters are stored (for reports and benchmarks).
    /// Whether the last run that had letters ended before finishing them.
    pub fn run_interrupted(&self) -> Result<bool> {
        Ok(self
            .conn
            .query_row(
                "SELECT value FROM run_state WHERE key = 'interrupted'",
                [],
                |r| r.get::<_, String>(0),
            )
            .optional()?
            .is_some_and(|value| value == "1"))
    }

    pub fn set_run_interrupted(&mut self, interrupted: bool) -> Result<()> {
        self.conn
            .prepare_cached(
                // Unchanged, no row is changed: an idle run's batch stays
                // empty and is not synced.
                "INSERT INTO run_state (key, value) VALUES ('interrupted', ?1)
             ON CONFLICT (key) DO UPDATE SET value = ?1 WHERE value <> ?1",
            )?
            .execute(params![if interrupted { "1" } else { "0" }])?;
        Ok(())
    }

    pub fn letter_count(&self) -> Result<i64> {
        self.conn
            .query_row("SELECT count(*) FROM letters", [], |r| r.get(0))
    }

    /// Every message sent or waiting, oldest first, with whether it was sent.
    pub fn outbox(&self) -> Result<Vec<SentMessage>> {
        let mut statement = self.conn.prepare_cached(
            "SELECT kind, recipients, raw, sent_at IS NOT NULL
             FROM outbox o JOIN outbox_raw r ON r.id = o.id ORDER BY o.id",
        )?;
        statement
            .query_map([], |r| {
                Ok(SentMessage {
                    kind: r.get(0)?,
                    recipients: r.get(1)?,
                    raw: r.get(2)?,
                    sent: r.get(3)?,
                })
            })?
            .collect()
    }
}

/// Writes inside one transaction.
pub struct Writer<'a> {
    tx: &'a Connection,
    cache: &'a RefCell<Cache>,
}

impl Writer<'_> {
    /// Stores a letter; returns its id.
    pub fn letter(&self, letter: &StoredLetter) -> Result<i64> {
        self.tx.prepare_cached(
            "INSERT INTO letters (dedup_key, message_id, source_key, arrived, postmark, sender, game_id, color,
                                  disposition, reason, parse, raw)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        )?
        .execute(
            params![
                letter.dedup_key,
                letter.message_id,
                letter.source_key,
                letter.arrived.to_rfc3339(),
                day_text(letter.postmark),
                letter.sender,
                letter.game,
                letter.color.map(color_name),
                letter.disposition.as_str(),
                letter.reason,
                letter.parse_json,
                letter.raw,
            ],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Writes a game's state and its moves from ply `from` on, which the
    /// database does not hold yet (moves are only ever added): a ply it
    /// holds fails the write. A plain insert also needs no statement journal,
    /// where `INSERT OR REPLACE` (or an upsert) copied every page it touched
    /// into one first (2.4 % of a large run's main thread).
    pub fn game(
        &self,
        id: &str,
        row: &GameRow,
        moves: &[Row],
        from: usize,
        letter: Option<i64>,
    ) -> Result<()> {
        let settled = {
            let cache = self.cache.borrow();
            cache.settled.contains(id) && cache.games.get(id).is_some_and(|g| g.row == *row)
        };
        if !settled {
            self.game_row(id, row)?;
        }
        let mut insert = self.tx.prepare_cached(
            "INSERT INTO moves (game_id, ply, color, san, conditional, letter_id, sent_on, delivered_on,
                                days, penalty, facts)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?;
        for (ply, move_row) in moves.iter().enumerate().skip(from) {
            let facts = move_row
                .letter
                .as_ref()
                .map(serde_json::to_string)
                .transpose()
                .map_err(to_sql_err)?;
            insert.execute(params![
                id,
                ply as i64,
                color_name(move_row.by),
                move_row.san,
                move_row.conditional,
                letter,
                day_text(move_row.sent_on),
                move_row.delivered_on.map(day_text),
                move_row.days,
                move_row.penalty,
                facts,
            ])?;
        }
        // The cache holds what the database now holds: rows before `from`
        // were not rewritten.
        let mut cache = self.cache.borrow_mut();
        if let Some(cached) = cache.games.get_mut(id) {
            cached.row = row.clone();
            cached.moves.truncate(from);
            cached.moves.extend(moves.iter().skip(from).cloned());
            cache.settled.insert(id.to_string());
        }
        Ok(())
    }

    /// Writes a game's row and clears its `next_check` (the game changed:
    /// the calendar must look at it again).
    fn game_row(&self, id: &str, row: &GameRow) -> Result<()> {
        let held = serde_json::to_string(&row.held).map_err(to_sql_err)?;
        let standing = &row.standing;
        self.tx.prepare_cached(
            "INSERT INTO games (id, status, result, result_reason, offender, notice_on, protest_received,
                                extra_white, extra_black, held, draw_offer, held_reply,
                                overstep_ply, credit_white, credit_black, resumed_on)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
             ON CONFLICT (id) DO UPDATE SET status = ?2, result = ?3, result_reason = ?4, offender = ?5,
                 notice_on = ?6, protest_received = ?7, extra_white = ?8, extra_black = ?9, held = ?10,
                 draw_offer = ?11, held_reply = ?12, overstep_ply = ?13, credit_white = ?14,
                 credit_black = ?15, resumed_on = ?16, next_check = NULL",
        )?
        .execute(
            params![
                id,
                standing.status.name(),
                standing.outcome.map(|o| o.result.pgn()),
                standing.outcome.map(|o| o.reason.code()),
                standing.suspension.map(|s| color_name(s.offender)),
                standing.suspension.map(|s| day_text(s.notice_on)),
                standing.suspension.is_some_and(|s| s.protest_received),
                standing.extra_penalty.white,
                standing.extra_penalty.black,
                held,
                standing.draw_offer.map(color_name),
                standing.held_reply.map(|ply| ply as i64),
                standing.suspension.and_then(|s| s.ply).map(|ply| ply as i64),
                standing.credit.white,
                standing.credit.black,
                standing.resumed_on.map(day_text),
            ],
        )?;
        Ok(())
    }

    /// The day the calendar must look at `game` again (see [`Store::next_checks`]).
    pub fn next_check(&self, game: &str, on: NaiveDate) -> Result<()> {
        self.cache.borrow_mut().settled.remove(game);
        self.tx
            .prepare_cached("UPDATE games SET next_check = ?2 WHERE id = ?1")?
            .execute(params![game, day_text(on)])?;
        Ok(())
    }

    /// A message recorded as sent (see [`Store::mark_sent`]); a second time
    /// changes nothing.
    fn sent(&self, sent: &Sent) -> Result<()> {
        let changed = self
            .tx
            .prepare_cached(
                "UPDATE outbox SET sent_at = ?2, receipt = ?3, attempts = attempts + 1
                 WHERE id = ?1 AND sent_at IS NULL",
            )?
            .execute(params![sent.id, sent.at, sent.receipt])?;
        if changed == 0 {
            return Ok(());
        }
        if let Some((game, ply)) = &sent.delivers {
            self.tx
                .prepare_cached(
                    "UPDATE moves SET delivered_on = ?3 WHERE game_id = ?1 AND ply = ?2 AND delivered_on IS NULL",
                )?
                .execute(params![game, *ply as i64, day_text(sent.today)])?;
            // The partner's clock starts: the calendar must look again.
            self.tx
                .prepare_cached("UPDATE games SET next_check = NULL WHERE id = ?1")?
                .execute(params![game])?;
        }
        Ok(())
    }

    pub fn note(&self, game: &str, note: &Note) -> Result<()> {
        self.tx.prepare_cached(
            "INSERT INTO notes (game_id, ply, kind, text, created_on) VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(
            params![
                game,
                note.ply.map(|p| p as i64),
                note.kind,
                note.text,
                day_text(note.created_on)
            ],
        )?;
        Ok(())
    }

    pub fn duty_done(&self, game: &str, key: &DutyKey, on: NaiveDate) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT OR IGNORE INTO duties_done (game_id, key, done_on) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![game, key.0, day_text(on)])?;
        if let Some(cached) = self.cache.borrow_mut().games.get_mut(game) {
            cached.done.insert(key.clone());
        }
        Ok(())
    }

    pub fn outbox(&self, message: &NewOutbox, created_on: NaiveDate) -> Result<i64> {
        let recipients = message.recipients.join(",");
        self.tx.prepare_cached(
            "INSERT INTO outbox (game_id, kind, recipients, message_id, delivers_game, delivers_ply, created_on)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(
            params![
                message.game,
                message.kind,
                recipients,
                message.message_id,
                message.delivers.and(message.game.as_deref()),
                message.delivers.map(|p| p as i64),
                day_text(created_on),
            ],
        )?;
        let id = self.tx.last_insert_rowid();
        self.tx
            .prepare_cached("INSERT INTO outbox_raw (id, raw) VALUES (?1, ?2)")?
            .execute(params![id, message.raw])?;
        let mut cache = self.cache.borrow_mut();
        if let Some(replies) = cache.replies.get_mut(&created_on) {
            replies
                .entry(first_recipient(&recipients).to_string())
                .or_default()
                .push(message.kind.clone());
        }
        cache.written.push(OutboxItem {
            id,
            game: message.game.clone(),
            kind: message.kind.clone(),
            recipients: message.recipients.clone(),
            message_id: message.message_id.clone(),
            raw: message.raw.clone(),
            delivers: message
                .delivers
                .zip(message.game.clone())
                .map(|(ply, game)| (game, ply)),
            attempts: 0,
        });
        Ok(id)
    }
}

#[cfg(test)]
impl Store {
    /// How SQLite would run `sql` with `param` bound (the detail column of
    /// `EXPLAIN QUERY PLAN`'s first row), for tests of index use.
    pub(crate) fn query_plan(&self, sql: &str, param: &str) -> String {
        self.conn
            .query_row(&format!("EXPLAIN QUERY PLAN {sql}"), [param], |r| r.get(3))
            .unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::StatementStatus;

    const WHITE_WINS: Outcome = Outcome {
        result: GameResult::WhiteWins,
        reason: EndReason::Resignation,
    };

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    fn row(by: Color, san: &str, sent: u32) -> Row {
        Row {
            by,
            san: san.into(),
            conditional: false,
            sent_on: day(sent),
            delivered_on: None,
            days: 1,
            penalty: 0,
            letter: None,
        }
    }

    fn fresh(store: &Store, id: &str) -> StoredGame {
        store.read_game(id).unwrap()
    }

    #[test]
    fn the_game_cache_holds_what_the_database_holds() {
        let mut store = Store::in_memory().unwrap();
        let mut rows = vec![row(Color::White, "e4", 3)];
        store
            .write(|w| w.game("1", &GameRow::default(), &rows, 0, None))
            .unwrap();
        let cached = store.load_game("1").unwrap();
        assert_eq!(cached, fresh(&store, "1"));
        assert_eq!(cached.moves.len(), 1);

        // A move and a duty in a batch; a forward delivering the move.
        store.begin_batch().unwrap();
        rows.push(row(Color::Black, "e5", 5));
        let finished = GameRow {
            standing: Standing {
                status: Status::Suspended,
                outcome: Some(WHITE_WINS),
                ..Standing::default()
            },
            ..GameRow::default()
        };
        store
            .write(|w| {
                w.game("1", &finished, &rows, 1, None)?;
                w.duty_done("1", &DutyKey("repeat:0".into()), day(6))?;
                w.outbox(
                    &NewOutbox {
                        game: Some("1".into()),
                        kind: "forward".into(),
                        recipients: vec!["white@example.org".into()],
                        message_id: "<m1@example.org>".into(),
                        raw: b"x".to_vec(),
                        delivers: Some(1),
                    },
                    day(6),
                )
            })
            .unwrap();
        assert_eq!(store.load_game("1").unwrap(), fresh(&store, "1"));
        store.end_batch().unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-07T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let item = store.pending(now, |_| false).unwrap().remove(0);
        store
            .record_sent(&[Sent::new(&item, now, "250 ok", day(7))])
            .unwrap();
        let cached = store.load_game("1").unwrap();
        assert_eq!(cached, fresh(&store, "1"));
        assert_eq!(cached.moves[1].delivered_on, Some(day(7)));
        assert_eq!(cached.row.standing.outcome, Some(WHITE_WINS));
        assert!(cached.done.contains(&DutyKey("repeat:0".into())));
    }

    #[test]
    fn an_unchanged_game_row_is_not_written_again_unless_the_calendar_set_a_day() {
        let mut store = Store::in_memory().unwrap();
        store.load_game("1").unwrap();
        let mut rows = vec![row(Color::White, "e4", 3)];
        let write = |store: &mut Store, rows: &[Row], from: usize| {
            store
                .write(|w| w.game("1", &GameRow::default(), rows, from, None))
                .unwrap();
        };
        write(&mut store, &rows, 0);
        store.write(|w| w.next_check("1", day(20))).unwrap();
        assert_eq!(store.next_checks().unwrap()["1"], Some(day(20)));
        // A move after the calendar looked: the day is cleared again.
        rows.push(row(Color::Black, "e5", 5));
        write(&mut store, &rows, 1);
        assert_eq!(store.next_checks().unwrap()["1"], None);
        // The same row once more: skipped, and the moves still written.
        rows.push(row(Color::White, "Nf3", 7));
        write(&mut store, &rows, 2);
        assert_eq!(store.next_checks().unwrap()["1"], None);
        assert_eq!(fresh(&store, "1").moves.len(), 3);
        assert_eq!(store.load_game("1").unwrap(), fresh(&store, "1"));
        // A changed row is written.
        let finished = GameRow {
            standing: Standing {
                outcome: Some(WHITE_WINS),
                ..Standing::default()
            },
            ..GameRow::default()
        };
        store
            .write(|w| w.game("1", &finished, &rows, 3, None))
            .unwrap();
        assert_eq!(fresh(&store, "1").row.standing.outcome, Some(WHITE_WINS));
    }

    #[test]
    fn replies_counted_from_memory_match_the_database() {
        let mut store = Store::in_memory().unwrap();
        let message = |n: usize, kind: &str, recipients: &[&str]| NewOutbox {
            game: Some("1".into()),
            kind: kind.into(),
            recipients: recipients.iter().map(|r| r.to_string()).collect(),
            message_id: format!("<{n}@x>"),
            raw: b"raw".to_vec(),
            delivers: None,
        };
        let add = |store: &mut Store, n: usize, kind: &str, recipients: &[&str], on: u32| {
            store
                .write(|w| w.outbox(&message(n, kind, recipients), day(on)))
                .unwrap();
        };
        let kinds = &["ack", "correction"];
        add(&mut store, 1, "ack", &["a@x"], 5);
        assert_eq!(store.replies_on("a@x", day(5), kinds).unwrap(), 1);
        store.begin_batch().unwrap();
        add(&mut store, 2, "correction", &["a@x", "b@x"], 5);
        add(&mut store, 3, "forward", &["a@x"], 5);
        add(&mut store, 4, "ack", &["b@x", "a@x"], 5);
        add(&mut store, 5, "ack", &["a@x"], 6);
        add(&mut store, 6, "ack", &["a@xy"], 5);
        for (address, on) in [("a@x", 5), ("a@x", 6), ("b@x", 5), ("a@xy", 5)] {
            let memory = store.replies_on(address, day(on), kinds).unwrap();
            let stored: Vec<String> = store
                .conn
                .prepare(
                    "SELECT kind FROM outbox WHERE created_on = ?2
                       AND (recipients = ?1 OR recipients LIKE ?1 || ',%')",
                )
                .unwrap()
                .query_map(params![address, day(on).to_string()], |r| r.get(0))
                .unwrap()
                .collect::<Result<_>>()
                .unwrap();
            let stored = stored
                .iter()
                .filter(|k| kinds.contains(&k.as_str()))
                .count() as u32;
            assert_eq!(memory, stored, "{address} on {on}");
        }
        // A day is read by its index.
        let plan = store.query_plan(
            "SELECT recipients, kind FROM outbox WHERE created_on = ?1",
            "2026-11-05",
        );
        assert!(plan.contains("outbox_created"), "{plan}");
        assert_eq!(store.replies_on("a@x", day(5), kinds).unwrap(), 2);
        // A failed write takes the batch back, and the counts with it.
        let failed = store.write(|w| w.tx.execute_batch("INSERT INTO no_such_table VALUES (1)"));
        assert!(failed.is_err());
        assert_eq!(store.replies_on("a@x", day(5), kinds).unwrap(), 1);
    }

    #[test]
    fn a_failed_write_in_a_batch_rolls_the_batch_back_and_empties_the_cache() {
        let mut store = Store::in_memory().unwrap();
        store.begin_batch().unwrap();
        let rows = vec![row(Color::White, "e4", 3)];
        store
            .write(|w| w.game("1", &GameRow::default(), &rows, 0, None))
            .unwrap();
        store.load_game("1").unwrap();
        let failed = store.write(|w| {
            w.game("2", &GameRow::default(), &rows, 0, None)?;
            w.tx.execute_batch("INSERT INTO no_such_table VALUES (1)")
        });
        assert!(failed.is_err());
        assert!(store.cache.borrow().games.is_empty());
        assert_eq!(fresh(&store, "1").moves.len(), 0, "the batch is gone");
        assert_eq!(fresh(&store, "2").moves.len(), 0);
    }

    #[test]
    fn days_read_back_as_they_were_stored() {
        let mut day = NaiveDate::from_ymd_opt(1899, 12, 25).unwrap();
        while chrono::Datelike::year(&day) < 2200 {
            assert_eq!(date_from(&day_text(day)).unwrap(), day);
            day += chrono::Duration::days(3);
        }
        assert_eq!(
            day_text(NaiveDate::from_ymd_opt(2026, 3, 9).unwrap()),
            "2026-03-09"
        );
    }

    #[test]
    fn moves_are_added_and_a_ply_already_stored_is_refused() {
        let mut store = Store::in_memory().unwrap();
        let rows = vec![row(Color::White, "e4", 3), row(Color::Black, "e5", 2)];
        store
            .write(|w| w.game("1", &GameRow::default(), &rows[..1], 0, None))
            .unwrap();
        store
            .write(|w| w.game("1", &GameRow::default(), &rows, 1, None))
            .unwrap();
        let sans = |store: &Store| -> Vec<String> {
            fresh(store, "1").moves.into_iter().map(|m| m.san).collect()
        };
        assert_eq!(sans(&store), ["e4", "e5"]);
        let again = store.write(|w| w.game("1", &GameRow::default(), &rows, 1, None));
        assert!(again.is_err());
        assert_eq!(sans(&store), ["e4", "e5"]);
    }

    #[test]
    fn reading_game_after_game_prepares_the_moves_query_once() {
        let mut store = Store::in_memory().unwrap();
        let rows = vec![row(Color::White, "e4", 3)];
        let games = ["0", "1", "2", "10", "a-7"];
        for game in games {
            store
                .write(|w| w.game(game, &GameRow::default(), &rows, 0, None))
                .unwrap();
        }
        for game in games {
            assert_eq!(fresh(&store, game).moves.len(), 1, "{game}");
        }
        let statement = store.conn.prepare_cached(MOVES_OF_GAME).unwrap();
        assert_eq!(statement.get_status(StatementStatus::RePrepare), 0);
    }

    #[test]
    fn a_letter_that_went_through_is_forgotten_and_no_other() {
        let mut store = Store::in_memory().unwrap();
        let at = day(3).and_hms_opt(12, 0, 0).unwrap().and_utc();
        let runs = |store: &Store, key: &str| -> Option<u32> {
            store
                .conn
                .query_row(
                    "SELECT runs FROM failures WHERE source_key = ?1",
                    [key],
                    |r| r.get(0),
                )
                .optional()
                .unwrap()
        };
        assert_eq!(store.record_failure("a", "broken", at).unwrap(), 1);
        assert_eq!(store.record_failure("a", "broken", at).unwrap(), 2);
        // Read once here, then kept in step.
        store.forget_failure("never-failed").unwrap();
        assert_eq!(store.record_failure("b", "broken", at).unwrap(), 1);
        store.forget_failure("a").unwrap();
        assert_eq!(runs(&store, "a"), None);
        assert_eq!(runs(&store, "b"), Some(1));
        // A failure recorded after the keys were read is forgotten too.
        store.forget_failure("b").unwrap();
        assert_eq!(runs(&store, "b"), None);
        assert_eq!(store.record_failure("a", "broken", at).unwrap(), 1);
    }

    #[test]
    fn a_new_database_has_8_kb_pages_and_an_old_one_keeps_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let pragma = |store: &Store, name: &str| -> i64 {
            store
                .conn
                .query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
                .unwrap()
        };
        let new = dir.path().join("new.sqlite");
        let store = Store::open(&new).unwrap();
        assert_eq!(pragma(&store, "page_size"), 8192);
        assert_eq!(pragma(&store, "wal_autocheckpoint"), 1250);
        drop(store);
        let store = Store::open(&new).unwrap();
        assert_eq!(pragma(&store, "page_size"), 8192, "reopened");

        // A database made by an earlier version, with SQLite's 4 KB pages.
        let old = dir.path().join("old.sqlite");
        let conn = Connection::open(&old).unwrap();
        conn.execute_batch("PRAGMA journal_mode = WAL; CREATE TABLE t (x);")
            .unwrap();
        drop(conn);
        let mut store = Store::open(&old).unwrap();
        assert_eq!(pragma(&store, "page_size"), 4096);
        assert_eq!(pragma(&store, "wal_autocheckpoint"), 2500);
        let rows = vec![row(Color::White, "e4", 3)];
        store
            .write(|w| w.game("1", &GameRow::default(), &rows, 0, None))
            .unwrap();
        assert_eq!(fresh(&Store::open(&old).unwrap(), "1").moves.len(), 1);
    }

    #[test]
    fn a_batch_committed_unsynced_is_synced_by_its_handle_and_later_writes_sync_again() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let mut store = Store::open(&path).unwrap();
        let level = |store: &Store| -> i64 {
            store
                .conn
                .query_row("PRAGMA synchronous", [], |r| r.get(0))
                .unwrap()
        };
        assert_eq!(level(&store), 2, "FULL outside a batch");
        store.begin_batch().unwrap();
        assert_eq!(level(&store), 1, "NORMAL inside: the batch syncs itself");
        let rows = vec![row(Color::White, "e4", 3)];
        store
            .write(|w| w.game("1", &GameRow::default(), &rows, 0, None))
            .unwrap();
        let sync = store.end_batch_unsynced().unwrap();
        assert!(sync.wal.is_some(), "a database on disk has a log to sync");
        sync.sync().unwrap();
        assert_eq!(level(&store), 2, "FULL again after the batch");
        let other = Store::open(&path).unwrap();
        assert_eq!(fresh(&other, "1").moves.len(), 1, "committed");
        // A failed write inside a batch rolls it back and restores FULL too.
        store.begin_batch().unwrap();
        let failed = store.write(|w| w.tx.execute_batch("INSERT INTO no_such_table VALUES (1)"));
        assert!(failed.is_err());
        assert_eq!(level(&store), 2);
        assert!(
            Store::in_memory()
                .unwrap()
                .end_batch_unsynced()
                .unwrap()
                .wal
                .is_none()
        );
        // A batch that changed nothing (an idle run's) has nothing to sync.
        store.set_run_interrupted(false).unwrap();
        store.begin_batch().unwrap();
        store.set_run_interrupted(false).unwrap();
        assert!(store.end_batch_unsynced().unwrap().wal.is_none());
        store.begin_batch().unwrap();
        store.set_run_interrupted(true).unwrap();
        assert!(store.end_batch_unsynced().unwrap().wal.is_some());
    }

    #[test]
    fn a_checkpoint_outside_a_batch_empties_the_log_into_the_database() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let wal = dir.path().join("t.sqlite-wal");
        let mut store = Store::open(&path).unwrap();
        store.begin_batch().unwrap();
        let rows = vec![row(Color::White, "e4", 3)];
        store
            .write(|w| w.game("1", &GameRow::default(), &rows, 0, None))
            .unwrap();
        store.checkpoint().unwrap();
        let logged = std::fs::metadata(&wal).unwrap().len();
        assert!(logged > 0, "inside a batch the log is left alone");
        store.end_batch().unwrap();
        assert!(std::fs::metadata(&wal).unwrap().len() >= logged);
        store.checkpoint().unwrap();
        assert_eq!(std::fs::metadata(&wal).unwrap().len(), 0, "emptied");
        // The database file alone holds the game now: a copy of it without
        // the log reads it.
        let copy = dir.path().join("copy.sqlite");
        std::fs::copy(&path, &copy).unwrap();
        assert_eq!(fresh(&Store::open(&copy).unwrap(), "1").moves.len(), 1);
        Store::in_memory().unwrap().checkpoint().unwrap();
    }

    #[test]
    fn pending_gives_the_messages_just_written_as_the_database_holds_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.sqlite");
        let mut store = Store::open(&path).unwrap();
        let message = |n: usize, game: Option<&str>, delivers: Option<usize>| NewOutbox {
            game: game.map(str::to_string),
            kind: "forward".into(),
            recipients: vec![format!("p{n}@x.example"), "cc@x.example".into()],
            message_id: format!("<m{n}@x.example>"),
            raw: format!("message {n}").into_bytes(),
            delivers,
        };
        let now = DateTime::UNIX_EPOCH;
        store
            .write(|w| w.outbox(&message(0, None, None), day(6)))
            .unwrap();
        // One from an earlier batch, still out with a job: not given again.
        let earlier = store.pending(now, |_| false).unwrap();
        assert_eq!(earlier.len(), 1);
        store.begin_batch().unwrap();
        for n in 1..4 {
            store
                .write(|w| w.outbox(&message(n, Some("7"), Some(n)), day(6)))
                .unwrap();
        }
        store.end_batch().unwrap();
        let given = store.pending(now, |id| id == earlier[0].id).unwrap();
        // What another connection reads from the database, without memory.
        let read = Store::open(&path).unwrap().pending(now, |_| false).unwrap();
        assert_eq!(read.len(), 4);
        assert_eq!(given, read[1..]);
        assert_eq!(given[0].delivers, Some(("7".to_string(), 1)));
        // Given once from memory: the next call reads them, as any other.
        assert_eq!(store.pending(now, |_| false).unwrap(), read);
        // A message written in a batch that failed is not given.
        store.begin_batch().unwrap();
        store
            .write(|w| w.outbox(&message(9, None, None), day(6)))
            .unwrap();
        let failed = store.write(|w| w.tx.execute_batch("INSERT INTO no_such_table VALUES (1)"));
        assert!(failed.is_err());
        assert_eq!(store.pending(now, |_| false).unwrap(), read);
    }
}

//! The database: SQLite, the only module with SQL.
//!
//! Every letter is kept raw (it is evidence for the arbiter) under a key that
//! makes a second copy of it a no-op; the game record, clocks, notes, duties and
//! the outbox live beside it. A state change and the messages it causes are
//! written in one transaction ([`Store::write`]); messages are sent after the
//! commit and marked sent with their receipt.

mod games;
mod kept;
mod made;
mod outbox;
mod preferences;
pub mod private;
mod records;
mod schema;
mod sent_log;
#[cfg(test)]
mod tests;
mod upgrade;
mod writer;
mod xfcc;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::path::Path;

use chrono::NaiveDate;
use rusqlite::Connection;
use rusqlite::config::DbConfig;
use shakmaty::Color;

pub use self::games::{Finished, LeftSeat};
pub use self::kept::{KeptLetter, Quarantined, Unheeded};
pub use self::records::{
    Disposition, GameLetter, GameRow, HeldMessage, NewOutbox, Note, NoteKind, OutboxItem, Seen,
    SentMessage, StoredGame, StoredLetter,
};
pub use self::sent_log::{Sent, SentLog};
pub use self::writer::Writer;
pub use self::xfcc::XfccLogin;
use crate::rules::Status;

pub use crate::error::Result;

/// SQLite's results inside the store; its methods return the crate's.
pub(crate) type Sql<T> = rusqlite::Result<T>;

/// The page size of a new database.
const PAGE_SIZE: i64 = 8192;

/// How long the write-ahead log grows before SQLite copies it into the
/// database: 10 MB (SQLite's default is 4 MB; see `Store::setup`).
const WAL_CHECKPOINT_BYTES: i64 = 10_240_000;

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
    /// The readers' preferences, by address, read once a run (a table of a
    /// few rows, asked for every message).
    preferences: Option<HashMap<String, crate::config::Preferences>>,
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
        "annulled" => Status::Annulled,
        _ => Status::Active,
    }
}

fn to_sql_err(error: serde_json::Error) -> rusqlite::Error {
    rusqlite::Error::ToSqlConversionFailure(Box::new(error))
}

fn from_sql_err(error: impl std::error::Error + Send + Sync + 'static) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(0, rusqlite::types::Type::Text, Box::new(error))
}

fn date_from(text: &str) -> Sql<NaiveDate> {
    text.parse().map_err(from_sql_err)
}

/// A day as the database stores it, `YYYY-MM-DD`.
fn day_text(day: NaiveDate) -> String {
    day.to_string()
}

pub use schema::version as schema_version;

/// What is at the database's path, before it is opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseFile {
    /// No file: a new tournament, or a database lost.
    Missing,
    /// A file of no bytes, or an SQLite file with no tables.
    Empty,
    /// The clerk's database, at this build's schema.
    Ours,
    /// The clerk's database at an older schema, which this build upgrades:
    /// its version.
    Older(i64),
    /// A file that is not the clerk's database: why.
    Foreign(String),
    /// The clerk's database from a newer build: its schema version.
    Newer(i64),
    /// An SQLite file SQLite finds damaged (cut short, overwritten): its
    /// words.
    Damaged(String),
    /// An SQLite file that cannot be read now (the disk, the rights): its
    /// words.
    Unreadable(String),
}

/// What SQLite's failure to read an SQLite file says of the file.
fn unread(error: &rusqlite::Error) -> DatabaseFile {
    match error.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase) => {
            DatabaseFile::Damaged(error.to_string())
        }
        _ => DatabaseFile::Unreadable(error.to_string()),
    }
}

impl Store {
    /// Looks at the file at `path` without changing it.
    pub fn inspect(path: &Path) -> DatabaseFile {
        if let Some(link) = private::link_at_database(path) {
            return DatabaseFile::Foreign(private::link_said(&link));
        }
        let Ok(meta) = std::fs::metadata(path) else {
            return DatabaseFile::Missing;
        };
        if meta.len() == 0 {
            return DatabaseFile::Empty;
        }
        let mut head = [0u8; 16];
        let read = std::fs::File::open(path)
            .and_then(|mut file| std::io::Read::read_exact(&mut file, &mut head));
        if read.is_err() || &head != b"SQLite format 3\0" {
            return DatabaseFile::Foreign("it is not an SQLite database".into());
        }
        let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
        let conn = match Connection::open_with_flags(path, flags) {
            Ok(conn) => conn,
            Err(error) => return unread(&error),
        };
        let read = conn
            .query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0))
            .and_then(|version| {
                conn.query_row(
                    "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
                    [],
                    |r| r.get::<_, i64>(0),
                )
                .map(|tables| (version, tables))
            });
        let (version, tables) = match read {
            Ok(read) => read,
            Err(error) => return unread(&error),
        };
        let known = schema::version();
        match (version, tables) {
            (0, 0) => DatabaseFile::Empty,
            (0, _) => DatabaseFile::Foreign(
                "it is an SQLite database of another program (no schema version of the clerk's)"
                    .into(),
            ),
            (version, _) if version > known => DatabaseFile::Newer(version),
            (version, _) if version < known => DatabaseFile::Older(version),
            _ => DatabaseFile::Ours,
        }
    }

    /// Whether the files a run leaves beside the database (its write-ahead
    /// log, its log of messages sent) are there: a database was in use.
    pub fn traces_beside(path: &Path) -> bool {
        ["-wal", ".sent"].iter().any(|suffix| {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            Path::new(&name).exists()
        })
    }

    /// Opens (creating if need be) and migrates the database.
    pub fn open(path: &Path) -> Result<Store> {
        let cannot_open = |error: std::io::Error| {
            rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CANTOPEN),
                Some(error.to_string()),
            )
        };
        if matches!(
            Store::inspect(path),
            DatabaseFile::Missing | DatabaseFile::Empty
        ) {
            Store::create_whole(path).map_err(|error| match error {
                made::Made::Io(error) => cannot_open(error).into(),
                made::Made::Sql(error) => error,
            })?;
        }
        private::prepare_database(path).map_err(cannot_open)?;
        let flags = rusqlite::OpenFlags::default() | rusqlite::OpenFlags::SQLITE_OPEN_NOFOLLOW;
        let conn = Connection::open_with_flags(private::for_sqlite(path), flags)?;
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

    /// The database as a program beside the runs opens it (the Xfcc
    /// server, for each request): it must be there, at this build's schema,
    /// and nothing of a run's is touched (no database made, no migration,
    /// no sent log read and cleared while a run at work keeps it).
    pub fn open_beside_runs(path: &Path) -> Result<Store> {
        let why = match Store::inspect(path) {
            DatabaseFile::Ours => None,
            DatabaseFile::Missing | DatabaseFile::Empty => {
                Some("not made yet: the first poll (or shtempel init) makes it".to_string())
            }
            DatabaseFile::Older(schema) => Some(format!(
                "schema {schema}, older than this build's: the next poll upgrades it"
            )),
            other => Some(format!("not this build's database ({other:?})")),
        };
        if let Some(why) = why {
            return Err(crate::error::Error::database(format!(
                "{}: {why}",
                path.display()
            )));
        }
        let flags =
            rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE | rusqlite::OpenFlags::SQLITE_OPEN_NOFOLLOW;
        let conn = Connection::open_with_flags(private::for_sqlite(path), flags)?;
        Store::setup(conn)
    }

    /// A database in memory, for `check` and tests.
    pub fn in_memory() -> Result<Store> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> Result<Store> {
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // A new database gets 8 KB pages: a batch's commit writes its frames
        // with half the system calls of 4 KB ones, and a checkpoint reads
        // them back with half. SQLite sets
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
        // pages instead of 74,000 for 10,000 letters. A checkpoint every
        // 10 MB costs 8 % more copied pages than that but less on the disk: the
        // log is written over in place instead of growing to 40 MB, and the
        // run's last checkpoint, which nothing overlaps, copies at most 10 MB
        // of it. The checkpoint is set in bytes: pages of any size.
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
    /// back (the run stops on it, and the next run redoes the batch). The
    /// games it writes are `tournament`'s: `Some(ID)` of a folder (stored
    /// as `ID/<game>`), `None` of its own file (`Config::scope` gives which).
    pub fn write<T>(
        &mut self,
        tournament: Option<&str>,
        work: impl FnOnce(&Writer<'_>) -> Result<T>,
    ) -> Result<T> {
        let result = if self.batch {
            work(&Writer {
                tx: &self.conn,
                cache: &self.cache,
                tournament,
            })
        } else {
            self.in_transaction(tournament, work)
        };
        if result.is_err() {
            *self.cache.borrow_mut() = Cache::default();
            if self.batch {
                let _ = self.leave_batch("ROLLBACK");
            }
        }
        result
    }

    /// Runs `work` in a transaction of its own.
    fn in_transaction<T>(
        &mut self,
        tournament: Option<&str>,
        work: impl FnOnce(&Writer<'_>) -> Result<T>,
    ) -> Result<T> {
        let tx = self.conn.transaction()?;
        let value = work(&Writer {
            tx: &tx,
            cache: &self.cache,
            tournament,
        })?;
        tx.commit()?;
        Ok(value)
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
        Ok(self.end_batch_unsynced()?.sync().map_err(from_sql_err)?)
    }

    /// Commits the batch without waiting for the disk, and returns what
    /// waits for it, so that another thread pays the sync while this one
    /// goes on with the next batch (it was a fifth of a run on the disk). Until the sync returns, a power cut
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
            return Err(error.into());
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
        Ok(self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?)
    }

    /// Ends the batch's transaction; writes outside a batch are synced by
    /// SQLite at their commit again.
    fn leave_batch(&mut self, end: &str) -> Sql<()> {
        self.batch = false;
        let ended = self.conn.execute_batch(end);
        // Refused while a failed COMMIT leaves the transaction open; the
        // ROLLBACK after it sets it.
        let full = self.conn.pragma_update(None, "synchronous", "FULL");
        ended.and(full)
    }
}

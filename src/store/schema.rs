//! The schema and its migrations, applied in order and counted by
//! `PRAGMA user_version`.

use rusqlite::Connection;

const MIGRATIONS: &[&str] = &[
    // 1: the first schema.
    "CREATE TABLE letters (
        id INTEGER PRIMARY KEY,
        dedup_key TEXT NOT NULL UNIQUE,
        message_id TEXT,
        source_key TEXT NOT NULL,
        arrived TEXT NOT NULL,
        postmark TEXT NOT NULL,
        sender TEXT,
        game_id TEXT,
        color TEXT,
        disposition TEXT NOT NULL,
        reason TEXT NOT NULL,
        parse TEXT,
        raw BLOB NOT NULL
    );
    CREATE INDEX letters_game ON letters (game_id, color);
    CREATE INDEX letters_message_id ON letters (message_id);
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        status TEXT NOT NULL DEFAULT 'active',
        result TEXT,
        result_reason TEXT,
        offender TEXT,
        notice_on TEXT,
        protest_received INTEGER NOT NULL DEFAULT 0,
        extra_white INTEGER NOT NULL DEFAULT 0,
        extra_black INTEGER NOT NULL DEFAULT 0,
        held TEXT NOT NULL DEFAULT '[]',
        draw_offer TEXT,
        held_reply INTEGER
    );
    CREATE TABLE moves (
        game_id TEXT NOT NULL,
        ply INTEGER NOT NULL,
        color TEXT NOT NULL,
        san TEXT NOT NULL,
        conditional INTEGER NOT NULL,
        letter_id INTEGER REFERENCES letters (id),
        sent_on TEXT NOT NULL,
        delivered_on TEXT,
        days INTEGER NOT NULL,
        penalty INTEGER NOT NULL,
        facts TEXT,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE notes (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        ply INTEGER,
        kind TEXT NOT NULL,
        text TEXT NOT NULL,
        created_on TEXT NOT NULL
    );
    CREATE INDEX notes_game ON notes (game_id);
    CREATE TABLE duties_done (
        game_id TEXT NOT NULL,
        key TEXT NOT NULL,
        done_on TEXT NOT NULL,
        PRIMARY KEY (game_id, key)
    );
    CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        game_id TEXT,
        kind TEXT NOT NULL,
        recipients TEXT NOT NULL,
        message_id TEXT NOT NULL UNIQUE,
        raw BLOB NOT NULL,
        delivers_game TEXT,
        delivers_ply INTEGER,
        created_on TEXT NOT NULL,
        sent_at TEXT,
        receipt TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        last_error TEXT,
        failed INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX outbox_pending ON outbox (id) WHERE sent_at IS NULL AND failed = 0;",
    // 2: what the arbiter's decision leaves behind: days excused, the day play
    // resumed, and the move that overstepped.
    "ALTER TABLE games ADD COLUMN overstep_ply INTEGER;
    ALTER TABLE games ADD COLUMN credit_white INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN credit_black INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN resumed_on TEXT;",
    // 3: when a message was last tried, for retries with a growing delay.
    "ALTER TABLE outbox ADD COLUMN last_attempt TEXT;",
    // 4: letters that failed, counted by run, until they are quarantined.
    "CREATE TABLE failures (
        source_key TEXT PRIMARY KEY,
        runs INTEGER NOT NULL,
        last_error TEXT NOT NULL,
        last_at TEXT NOT NULL
    );",
    // 5: an index for every lookup a poll makes: the replies one address got
    // on one day (a scan of the outbox per letter before); and the day a game
    // next needs the calendar (NULL: look at it on the next run), so that an
    // idle run loads no game at all; and whether a run ended inside a batch.
    "CREATE INDEX outbox_replies ON outbox (recipients, created_on, kind);
    ALTER TABLE games ADD COLUMN next_check TEXT;
    CREATE TABLE run_state (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );",
    // 6: a message's bytes in a table of their own, written once: recording
    // it sent rewrote the whole outbox row with them (a fifth of the pages a
    // run wrote went to that).
    "CREATE TABLE outbox_raw (
        id INTEGER PRIMARY KEY REFERENCES outbox (id),
        raw BLOB NOT NULL
    );
    INSERT INTO outbox_raw (id, raw) SELECT id, raw FROM outbox;
    ALTER TABLE outbox DROP COLUMN raw;",
    // 7: no index of the letters by Message-ID: a letter with one is stored
    // under the key `mid:<id>`, whose unique index finds it as well. The
    // second index over the same random keys made a batch rewrite most of
    // its pages (a sixteenth of the pages a run wrote).
    "DROP INDEX letters_message_id;",
    // 8: the replies of a day are read at once (`Store::replies_on`), by
    // the day alone: an index whose new entries go at its end, where the
    // one by recipient took them all over (a tenth of the pages a run
    // wrote to its log).
    "DROP INDEX outbox_replies;
    CREATE INDEX outbox_created ON outbox (created_on);",
    // 9: a refusal over the daily reply limit is held to a later day, and
    // counted among that day's replies.
    "ALTER TABLE outbox ADD COLUMN send_on TEXT;
    CREATE INDEX outbox_send_on ON outbox (send_on) WHERE send_on IS NOT NULL;",
    // 10: what makes a letter the same as one stored under its Message-ID:
    // its sender and body. NULL in older rows, which
    // keep their whole raw bytes to work it out of.
    "ALTER TABLE letters ADD COLUMN fingerprint TEXT;",
    // 11: the day the transport accepted a message, as the run counts days
    // (a start sheet's is the day its player received it: 10.3.2).
    "ALTER TABLE outbox ADD COLUMN accepted_on TEXT;",
    // 12: players' leaves, the player keyed as games
    // are (`ID/<player>` in a folder of tournaments).
    "CREATE TABLE leaves (
        id INTEGER PRIMARY KEY,
        player TEXT NOT NULL,
        first TEXT NOT NULL,
        last TEXT NOT NULL,
        letter_id INTEGER REFERENCES letters (id),
        created_on TEXT NOT NULL
    );
    CREATE INDEX leaves_player ON leaves (player);",
    // 13: the clerk's edits of a tournament's file a committed letter
    // ordered (a player replaced, an address added), kept until
    // the file has them; `edit` is a `config::edit::ConfigEdit` as JSON.
    // And the letters ordered back (`RETRY`), which every run asks for.
    "CREATE TABLE config_edits (
        id INTEGER PRIMARY KEY,
        edit TEXT NOT NULL,
        created_on TEXT NOT NULL,
        done_on TEXT
    );
    CREATE INDEX letters_releasing ON letters (id) WHERE disposition = 'releasing';",
    // 14: who played a colour of a game before a replacement: the plies before `until_ply` of
    // that colour were his;
    // `finished`, the game was over when he left (it stays his whole).
    // `player` is the person's key as the record keeps it (`Seat::player`).
    "CREATE TABLE seats (
        id INTEGER PRIMARY KEY,
        game_id TEXT NOT NULL,
        color TEXT NOT NULL,
        until_ply INTEGER NOT NULL,
        finished INTEGER NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        email TEXT NOT NULL,
        created_on TEXT NOT NULL
    );
    CREATE INDEX seats_game ON seats (game_id);",
    // 15: the days the chief arbiter excused, each decision's at its move
    // (JSON: `rules::Excused`); `credit_white`/`credit_black` their sums.
    "ALTER TABLE games ADD COLUMN excused TEXT NOT NULL DEFAULT '[]';",
    // 16: who set a result by hand (`arbiter`, `director`), for the PGN.
    "ALTER TABLE games ADD COLUMN result_by TEXT;",
    // 17: what a person asked of the clerk's letters to him (`DIAGRAMS`,
    // `LANGUAGE`), by each of his addresses; NULL: his tournament's.
    "CREATE TABLE preferences (
        address TEXT PRIMARY KEY,
        diagrams TEXT,
        language TEXT,
        set_on TEXT NOT NULL
    );",
    // 18: each note also in the event's other language (`other_language`
    // `ru` or `en`), for a reader who chose it.
    "ALTER TABLE notes ADD COLUMN other_language TEXT;
    ALTER TABLE notes ADD COLUMN other_text TEXT;",
    // 19: the Xfcc server's: each game's number there (`game` its key),
    // and each person's login (`address` his first, `hash` Argon2's PHC
    // string of his password).
    "CREATE TABLE xfcc_games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL UNIQUE
    );
    CREATE TABLE xfcc_logins (
        username TEXT PRIMARY KEY,
        address TEXT NOT NULL,
        hash TEXT NOT NULL,
        issued_on TEXT NOT NULL
    );",
    // 20: the first day the Xfcc server showed a player his game at his
    // move, the move he answers being its `plies`th: the day it reached
    // him, where that was before its forward's (rules.md 2.2, Xfcc).
    "CREATE TABLE xfcc_shown (
        game TEXT NOT NULL,
        plies INTEGER NOT NULL,
        day TEXT NOT NULL,
        PRIMARY KEY (game, plies)
    );",
    // 21: the day a game ended, for the rating list's periods: the day of
    // the run that finished it, kept through a later result the arbiter
    // sets. A game finished before this schema gets the last day the clerk
    // wrote about it (its end was told that day), else its last move's.
    "ALTER TABLE games ADD COLUMN ended_on TEXT;
    UPDATE games SET ended_on = COALESCE(
        (SELECT MAX(created_on) FROM outbox WHERE outbox.game_id = games.id),
        (SELECT MAX(sent_on) FROM moves WHERE moves.game_id = games.id))
    WHERE status = 'finished';",
    // 22: a reader's daily digest (`DIGEST DAILY`): `digest` his choice;
    // a message kept for his digest names him (`digest_for`), and once it
    // went in one, that digest's outbox id (`in_digest`): it is sent when
    // the digest is, and the move it carries is delivered then. Each poll
    // asks who has messages kept and whether his digest went today: both
    // by an index of their own.
    "ALTER TABLE preferences ADD COLUMN digest TEXT;
    ALTER TABLE outbox ADD COLUMN digest_for TEXT;
    ALTER TABLE outbox ADD COLUMN in_digest INTEGER;
    CREATE INDEX outbox_digest ON outbox (digest_for) WHERE digest_for IS NOT NULL AND in_digest IS NULL;
    CREATE INDEX outbox_in_digest ON outbox (in_digest) WHERE in_digest IS NOT NULL;
    CREATE INDEX outbox_digests ON outbox (recipients, created_on) WHERE kind = 'digest';",
];

/// The schema version this build writes.
pub fn version() -> i64 {
    i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX)
}

/// Brings the schema up to date, all or nothing: the migrations a database
/// lacks run in one transaction (one sync for a new database, not one for
/// each), so a failure leaves it at the version it had.
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let done = usize::try_from(version).unwrap_or(0);
    if done >= MIGRATIONS.len() {
        return Ok(());
    }
    let tx = conn.transaction()?;
    for (step, migration) in MIGRATIONS.iter().enumerate().skip(done) {
        tx.execute_batch(migration).map_err(|error| {
            // A migration the tables already have (`duplicate column
            // name`): the version was lowered by hand, or the file is a
            // mix of two; said as what it is, not as SQLite's words.
            rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_SCHEMA),
                Some(format!(
                    "the database says it is at schema {version}, but its tables do not take \
                     schema {}'s change ({error}): its schema version was changed by hand, or \
                     the file is a mix of two; restore a backup this build made, or put PRAGMA \
                     user_version back as it was",
                    step + 1
                )),
            )
        })?;
    }
    tx.pragma_update(
        None,
        "user_version",
        i64::try_from(MIGRATIONS.len()).unwrap_or(i64::MAX),
    )?;
    tx.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database in memory as version `version` of the schema left it.
    fn database_at(version: usize) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for migration in &MIGRATIONS[..version] {
            conn.execute_batch(migration).unwrap();
        }
        conn.pragma_update(None, "user_version", version as i64)
            .unwrap();
        conn
    }

    #[test]
    fn a_failed_migration_leaves_the_database_as_it_was() {
        let mut conn = database_at(5);
        let count = |conn: &Connection, sql: &str| -> i64 {
            conn.query_row(sql, [], |r| r.get(0)).unwrap()
        };
        // The index migration 7 drops is gone already: 7 fails, and 6,
        // which went through, is undone with it.
        conn.execute_batch("DROP INDEX letters_message_id;")
            .unwrap();
        assert!(migrate(&mut conn).is_err());
        assert_eq!(count(&conn, "PRAGMA user_version"), 5);
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM sqlite_schema WHERE name = 'outbox_raw'"
            ),
            0
        );
        conn.execute_batch("CREATE INDEX letters_message_id ON letters (message_id);")
            .unwrap();
        migrate(&mut conn).unwrap();
        assert_eq!(count(&conn, "PRAGMA user_version"), MIGRATIONS.len() as i64);
    }

    /// A game finished before schema 21 ended, for the rating list, on
    /// the last day the clerk wrote of it, else on its last move's.
    #[test]
    fn a_game_finished_before_schema_21_ends_on_its_last_message() {
        let conn = database_at(20);
        conn.execute_batch(
            "INSERT INTO games (id, status, result) VALUES ('1', 'finished', '1-0'),
                 ('2', 'finished', '0-1'), ('3', 'active', NULL);
             INSERT INTO moves (game_id, ply, color, san, conditional, sent_on, days, penalty)
             VALUES ('1', 0, 'white', 'e4', 0, '2027-01-03', 2, 0),
                    ('2', 0, 'white', 'e4', 0, '2027-02-03', 2, 0),
                    ('3', 0, 'white', 'e4', 0, '2027-03-03', 2, 0);
             INSERT INTO outbox (game_id, kind, recipients, message_id, created_on)
             VALUES ('1', 'forward', 'b@x', '<1@x>', '2027-01-03'),
                    ('1', 'result', 'a@x', '<2@x>', '2027-01-09');",
        )
        .unwrap();
        let store = super::super::Store::setup(conn).unwrap();
        let finished = store.finished_games().unwrap();
        let ended = |id: &str| {
            finished
                .get(id)
                .and_then(|g| g.ended_on)
                .map(|d| d.to_string())
        };
        assert_eq!(ended("1").as_deref(), Some("2027-01-09"));
        assert_eq!(ended("2").as_deref(), Some("2027-02-03"));
        assert!(!finished.contains_key("3"));
    }

    #[test]
    fn messages_of_a_database_before_version_6_keep_their_bytes() {
        let conn = database_at(5);
        conn.execute_batch(
            "INSERT INTO outbox (game_id, kind, recipients, message_id, raw, created_on, sent_at)
             VALUES ('1', 'ack', 'a@x', '<1@x>', x'6f6e65', '2026-11-05', '2026-11-05T10:00:00Z'),
                    ('1', 'forward', 'b@x', '<2@x>', x'74776f', '2026-11-05', NULL);",
        )
        .unwrap();
        let store = super::super::Store::setup(conn).unwrap();
        let all = store.outbox().unwrap();
        assert_eq!(
            all.iter()
                .map(|m| (m.raw.as_slice(), m.sent))
                .collect::<Vec<_>>(),
            [(&b"one"[..], true), (&b"two"[..], false)]
        );
        let pending = store
            .pending(chrono::DateTime::UNIX_EPOCH, chrono::NaiveDate::MIN, |_| {
                false
            })
            .unwrap();
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].raw, b"two");
        assert_eq!(pending[0].message_id, "<2@x>");
    }

    #[test]
    fn letters_are_found_by_message_id_without_their_index() {
        let conn = database_at(6);
        // As every version stored them: a Message-ID under the key `mid:`,
        // a letter without one under its hash, a quarantined one apart.
        conn.execute_batch(
            "INSERT INTO letters (dedup_key, message_id, source_key, arrived, postmark, game_id,
                                  disposition, reason, raw)
             VALUES ('mid:a1@x', 'a1@x', 'k1', '', '', '7', 'applied', '', x''),
                    ('sha256:00', NULL, 'k2', '', '', '8', 'applied', '', x''),
                    ('mid:b2@x', 'b2@x', 'k3', '', '', NULL, 'ignored', '', x''),
                    ('quarantine:sha256:01', NULL, 'k4', '', '', NULL, 'quarantined', '', x'');",
        )
        .unwrap();
        let store = super::super::Store::setup(conn).unwrap();
        let indexes: Vec<String> = store
            .conn
            .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'letters'")
            .unwrap()
            .query_map([], |row| row.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert!(!indexes.contains(&"letters_message_id".to_string()));
        assert_eq!(
            store.game_of_message(None, "a1@x").unwrap().as_deref(),
            Some("7")
        );
        assert_eq!(store.game_of_message(None, "<a1@x>").unwrap(), None);
        assert_eq!(store.game_of_message(None, "b2@x").unwrap(), None);
        assert_eq!(store.game_of_message(None, "00").unwrap(), None);
        let plan = store.query_plan(
            "SELECT game_id FROM letters WHERE dedup_key = 'mid:' || ?1",
            "a1@x",
        );
        assert!(plan.contains("USING INDEX"), "{plan}");
    }
}

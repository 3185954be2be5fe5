//! The store's tests: its cache against the database, batches, migrations' effects.

use super::*;
use crate::key::GameKey;
use crate::rules::{DutyKey, EndReason, GameResult, Outcome, Row, Standing};
use chrono::{DateTime, Utc};
use rusqlite::StatementStatus;
use rusqlite::{OptionalExtension, params};
use shakmaty::Color;

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
        .write(None, |w| {
            w.game("1", &GameRow::default(), &rows, 0, None, day(30))
        })
        .unwrap();
    let cached = store.load_game(&GameKey::new(None, "1")).unwrap();
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
        .write(None, |w| {
            w.game("1", &finished, &rows, 1, None, day(30))?;
            w.duty_done("1", &DutyKey::Repeat { row: 0 }, day(6))?;
            w.outbox(
                &NewOutbox {
                    game: Some("1".into()),
                    kind: "forward".into(),
                    recipients: vec!["white@example.org".into()],
                    message_id: "<m1@example.org>".into(),
                    raw: b"x".to_vec(),
                    delivers: Some(1),
                    send_on: None,
                    digest_for: None,
                },
                day(6),
            )
        })
        .unwrap();
    assert_eq!(
        store.load_game(&GameKey::new(None, "1")).unwrap(),
        fresh(&store, "1")
    );
    store.end_batch().unwrap();
    let now = DateTime::parse_from_rfc3339("2026-11-07T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let item = store.pending(now, day(6), |_| false).unwrap().remove(0);
    store
        .record_sent(&[Sent::new(&item, now, "250 ok", day(7))])
        .unwrap();
    let cached = store.load_game(&GameKey::new(None, "1")).unwrap();
    assert_eq!(cached, fresh(&store, "1"));
    assert_eq!(cached.moves[1].delivered_on, Some(day(7)));
    assert_eq!(cached.row.standing.outcome, Some(WHITE_WINS));
    assert!(cached.done.contains(&DutyKey::Repeat { row: 0 }));
}

#[test]
fn an_unchanged_game_row_is_not_written_again_unless_the_calendar_set_a_day() {
    let mut store = Store::in_memory().unwrap();
    store.load_game(&GameKey::new(None, "1")).unwrap();
    let mut rows = vec![row(Color::White, "e4", 3)];
    let write = |store: &mut Store, rows: &[Row], from: usize| {
        store
            .write(None, |w| {
                w.game("1", &GameRow::default(), rows, from, None, day(30))
            })
            .unwrap();
    };
    write(&mut store, &rows, 0);
    store.write(None, |w| w.next_check("1", day(20))).unwrap();
    assert_eq!(
        store.next_checks_keyed().unwrap()[&GameKey::parse("1")],
        Some(day(20))
    );
    // A move after the calendar looked: the day is cleared again.
    rows.push(row(Color::Black, "e5", 5));
    write(&mut store, &rows, 1);
    assert_eq!(
        store.next_checks_keyed().unwrap()[&GameKey::parse("1")],
        None
    );
    // The same row once more: skipped, and the moves still written.
    rows.push(row(Color::White, "Nf3", 7));
    write(&mut store, &rows, 2);
    assert_eq!(
        store.next_checks_keyed().unwrap()[&GameKey::parse("1")],
        None
    );
    assert_eq!(fresh(&store, "1").moves.len(), 3);
    assert_eq!(
        store.load_game(&GameKey::new(None, "1")).unwrap(),
        fresh(&store, "1")
    );
    // A changed row is written.
    let finished = GameRow {
        standing: Standing {
            outcome: Some(WHITE_WINS),
            ..Standing::default()
        },
        ..GameRow::default()
    };
    store
        .write(None, |w| w.game("1", &finished, &rows, 3, None, day(30)))
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
        send_on: None,
        digest_for: None,
    };
    let add = |store: &mut Store, n: usize, kind: &str, recipients: &[&str], on: u32| {
        store
            .write(None, |w| w.outbox(&message(n, kind, recipients), day(on)))
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
            .collect::<Sql<_>>()
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
    let failed = store.write(None, |w| {
        Ok(w.tx.execute_batch("INSERT INTO no_such_table VALUES (1)")?)
    });
    assert!(failed.is_err());
    assert_eq!(store.replies_on("a@x", day(5), kinds).unwrap(), 1);
}

#[test]
fn a_failed_write_in_a_batch_rolls_the_batch_back_and_empties_the_cache() {
    let mut store = Store::in_memory().unwrap();
    store.begin_batch().unwrap();
    let rows = vec![row(Color::White, "e4", 3)];
    store
        .write(None, |w| {
            w.game("1", &GameRow::default(), &rows, 0, None, day(30))
        })
        .unwrap();
    store.load_game(&GameKey::new(None, "1")).unwrap();
    let failed = store.write(None, |w| {
        w.game("2", &GameRow::default(), &rows, 0, None, day(30))?;
        Ok(w.tx.execute_batch("INSERT INTO no_such_table VALUES (1)")?)
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
        .write(None, |w| {
            w.game("1", &GameRow::default(), &rows[..1], 0, None, day(30))
        })
        .unwrap();
    store
        .write(None, |w| {
            w.game("1", &GameRow::default(), &rows, 1, None, day(30))
        })
        .unwrap();
    let sans = |store: &Store| -> Vec<String> {
        fresh(store, "1").moves.into_iter().map(|m| m.san).collect()
    };
    assert_eq!(sans(&store), ["e4", "e5"]);
    let again = store.write(None, |w| {
        w.game("1", &GameRow::default(), &rows, 1, None, day(30))
    });
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
            .write(None, |w| {
                w.game(game, &GameRow::default(), &rows, 0, None, day(30))
            })
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
        .write(None, |w| {
            w.game("1", &GameRow::default(), &rows, 0, None, day(30))
        })
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
        .write(None, |w| {
            w.game("1", &GameRow::default(), &rows, 0, None, day(30))
        })
        .unwrap();
    let sync = store.end_batch_unsynced().unwrap();
    assert!(sync.wal.is_some(), "a database on disk has a log to sync");
    sync.sync().unwrap();
    assert_eq!(level(&store), 2, "FULL again after the batch");
    let other = Store::open(&path).unwrap();
    assert_eq!(fresh(&other, "1").moves.len(), 1, "committed");
    // A failed write inside a batch rolls it back and restores FULL too.
    store.begin_batch().unwrap();
    let failed = store.write(None, |w| {
        Ok(w.tx.execute_batch("INSERT INTO no_such_table VALUES (1)")?)
    });
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
    // A new database starts with an empty log (it is made whole, then
    // checkpointed): a write outside a batch puts something in it.
    let rows = vec![row(Color::White, "e4", 3)];
    store
        .write(None, |w| {
            w.game("0", &GameRow::default(), &rows, 0, None, day(30))
        })
        .unwrap();
    store.begin_batch().unwrap();
    store
        .write(None, |w| {
            w.game("1", &GameRow::default(), &rows, 0, None, day(30))
        })
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
        send_on: None,
        digest_for: None,
    };
    let now = DateTime::UNIX_EPOCH;
    store
        .write(None, |w| w.outbox(&message(0, None, None), day(6)))
        .unwrap();
    // One from an earlier batch, still out with a job: not given again.
    let earlier = store.pending(now, day(6), |_| false).unwrap();
    assert_eq!(earlier.len(), 1);
    store.begin_batch().unwrap();
    for n in 1..4 {
        store
            .write(None, |w| w.outbox(&message(n, Some("7"), Some(n)), day(6)))
            .unwrap();
    }
    store.end_batch().unwrap();
    let given = store
        .pending(now, day(6), |id| id == earlier[0].id)
        .unwrap();
    // What another connection reads from the database, without memory.
    let read = Store::open(&path)
        .unwrap()
        .pending(now, day(6), |_| false)
        .unwrap();
    assert_eq!(read.len(), 4);
    assert_eq!(given, read[1..]);
    assert_eq!(given[0].delivers, Some(("7".to_string(), 1)));
    // Given once from memory: the next call reads them, as any other.
    assert_eq!(store.pending(now, day(6), |_| false).unwrap(), read);
    // A message written in a batch that failed is not given.
    store.begin_batch().unwrap();
    store
        .write(None, |w| w.outbox(&message(9, None, None), day(6)))
        .unwrap();
    let failed = store.write(None, |w| {
        Ok(w.tx.execute_batch("INSERT INTO no_such_table VALUES (1)")?)
    });
    assert!(failed.is_err());
    assert_eq!(store.pending(now, day(6), |_| false).unwrap(), read);
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

#[test]
fn the_letters_ordered_back_are_found_by_their_index_not_a_scan() {
    let store = Store::in_memory().unwrap();
    let plan: String = store
        .conn
        .query_row(
            &format!("EXPLAIN QUERY PLAN {}", super::kept::RELEASING),
            [],
            |r| r.get(3),
        )
        .unwrap();
    assert_eq!(plan, "SCAN letters USING INDEX letters_releasing");
}

#[test]
fn the_letters_that_changed_nothing_are_the_ignored_and_refused_of_late_and_every_one_set_aside() {
    let store = Store::in_memory().unwrap();
    // (key, postmark day, disposition)
    let letters = [
        ("old-stranger", 1, "ignored"),
        ("stranger", 5, "ignored"),
        ("applied", 6, "applied"),
        ("refused", 6, "refused"),
        ("set-aside", 2, "quarantined"),
        ("bounce", 7, "ignored"),
        ("refused-then-accepted", 6, "refused"),
        ("accepted:refused-then-accepted", 6, "applied"),
    ];
    for (key, on, disposition) in letters {
        store
            .conn
            .execute(
                "INSERT INTO letters (dedup_key, source_key, arrived, postmark, sender, disposition, reason, raw)
                 VALUES (?1, ?1, '2026-11-01T00:00:00+00:00', ?2, 'x@example.org', ?3, 'why', x'')",
                rusqlite::params![key, day(on).to_string(), disposition],
            )
            .unwrap();
    }
    let found: Vec<(String, String)> = store
        .changed_nothing(day(5))
        .unwrap()
        .into_iter()
        .map(|letter| (letter.dedup_key, letter.disposition))
        .collect();
    let expected = [
        ("set-aside", "quarantined"),
        ("stranger", "ignored"),
        ("refused", "refused"),
        ("bounce", "ignored"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(key, disposition)| (key.to_string(), disposition.to_string()))
        .collect();
    assert_eq!(found, expected);
}

/// A note is kept with its kind's name and both its texts, and read back
/// as it was; a kind this build does not know is an error, not a guess.
#[test]
fn a_note_reads_back_with_its_kind_and_both_languages() {
    let mut store = Store::in_memory().unwrap();
    let day = NaiveDate::from_ymd_opt(2026, 11, 3).unwrap();
    let notes: Vec<Note> = NoteKind::ALL
        .iter()
        .copied()
        .map(|kind| Note {
            ply: Some(1),
            kind,
            text: format!("{} по-русски", kind.name()),
            other: Some((crate::Lang::En, format!("{} in English", kind.name()))),
            created_on: day,
        })
        .collect();
    store
        .write(None, |w| {
            notes.iter().try_for_each(|note| w.note("1", note))
        })
        .unwrap();
    let read = store.notes(&GameKey::new(None, "1")).unwrap();
    assert_eq!(read, notes);
    assert_eq!(read[0].text_in(crate::Lang::En), "correction in English");
    assert_eq!(read[0].text_in(crate::Lang::Ru), "correction по-русски");
    store
        .conn
        .execute("UPDATE notes SET kind = 'rumour' WHERE id = 1", [])
        .unwrap();
    assert!(store.notes(&GameKey::new(None, "1")).is_err());
}

//! Nothing lost, nothing amplified, nobody squats (issue 20): the database
//! guarded, strangers' mail cheap, one bad file never stops the run. Each
//! test is named for the point of the issue it holds.

mod support;

use support::*;

fn db(t: &Tournament) -> std::path::PathBuf {
    t.path().join("db.sqlite")
}

/// 1. e4 answered and forwarded: a tournament under way.
fn under_way() -> Tournament {
    let mut t = Tournament::new();
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    assert_eq!(t.new_mail().len(), 2);
    t
}

#[test]
fn point_1_a_lost_or_emptied_database_is_never_replaced() {
    for lose in ["delete", "truncate"] {
        let mut t = under_way();
        match lose {
            "delete" => std::fs::remove_file(db(&t)).unwrap(),
            _ => std::fs::write(db(&t), b"").unwrap(),
        }
        t.letter(
            BLACK,
            "2026-11-05",
            "Re: [T #1]",
            "Game 1\n1... e5\nTime: 2/2\n",
        );
        let out = t.run(&["poll", "--today", "2026-11-05"]);
        assert_eq!(out.code, 2, "{lose}: {}{}", out.stdout, out.stderr);
        assert_eq!(
            out.stderr.trim().lines().count(),
            1,
            "one line: {}",
            out.stderr
        );
        assert!(out.stderr.contains("db.sqlite"), "{}", out.stderr);
        assert!(
            out.stderr.contains("backup") && out.stderr.contains("shtempel init"),
            "{}",
            out.stderr
        );
        // Nothing was done: the letter waits, nothing was sent, no database made.
        assert!(t.new_mail().is_empty());
        assert_eq!(
            std::fs::read_dir(t.path().join("inbox/new"))
                .unwrap()
                .count(),
            1
        );
        assert!(
            std::fs::metadata(db(&t)).map_or(true, |m| m.len() == 0),
            "{lose}"
        );
        // The director begins again on purpose.
        let init = t.run(&["init"]);
        assert_eq!(init.code, 0, "{}", init.stderr);
        assert!(init.stdout.contains("created"), "{}", init.stdout);
        let again = t.run(&["init"]);
        assert_eq!(again.code, 2, "init twice: {}", again.stdout);
        assert!(again.stderr.contains("already holds"), "{}", again.stderr);
        t.poll("2026-11-05");
    }
}

#[test]
fn point_1_a_new_tournament_gets_its_database_and_readers_make_none() {
    let mut t = Tournament::new();
    // `games` before any poll shows the games and makes no file.
    let out = t.run(&["games"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("White Player"), "{}", out.stdout);
    assert!(!db(&t).exists());
    // The first poll of a tournament where nothing was done makes it.
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    assert!(db(&t).exists());
    assert_eq!(t.new_mail().len(), 2);
}

#[test]
fn point_1_a_database_of_another_program_or_a_newer_clerk_is_refused() {
    let t = Tournament::new();
    let conn = rusqlite::Connection::open(db(&t)).unwrap();
    conn.execute_batch("CREATE TABLE accounts (id INTEGER);")
        .unwrap();
    drop(conn);
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(out.stderr.contains("another program"), "{}", out.stderr);
    let games = t.run(&["games"]);
    assert_eq!(games.code, 2, "{}", games.stdout);

    let t = under_way();
    let conn = rusqlite::Connection::open(db(&t)).unwrap();
    conn.pragma_update(None, "user_version", 999).unwrap();
    drop(conn);
    let out = t.run(&["poll", "--today", "2026-11-04"]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr.contains("newer shtempel (schema 999"),
        "{}",
        out.stderr
    );
    std::fs::write(db(&t), b"not a database at all, just text").unwrap();
    let out = t.run(&["poll", "--today", "2026-11-04"]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr.contains("not an SQLite database"),
        "{}",
        out.stderr
    );
}

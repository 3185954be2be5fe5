//! Nothing lost, nothing amplified, nobody squats: the database
//! guarded, strangers' mail cheap, one bad file never stops the run. Each
//! test is named for what it holds.

use crate::support::*;

fn db(t: &Tournament) -> std::path::PathBuf {
    t.path().join("db.sqlite")
}

/// 1. e4 answered and forwarded: a tournament under way.
fn under_way() -> Tournament {
    let mut t = Tournament::new();
    white_opens(&mut t);
    t.pass("2026-11-03");
    assert_eq!(t.new_mail().len(), 2);
    t
}

/// Black's answer to 1. e4, true to the day: 1... e5 on 4 November.
fn black_answers(t: &mut Tournament) {
    t.letter(
        BLACK,
        "2026-11-04",
        "Re: [T #1]",
        "Game 1\n1... e5\nTime: 2/1\nDates: 2026-11-03 2026-11-03 2026-11-04\n",
    );
}

/// White's 1. e4, true to the day, on 3 November.
fn white_opens(t: &mut Tournament) {
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
}

#[test]
fn a_lost_or_emptied_database_is_never_replaced() {
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
        t.pass("2026-11-05");
    }
}

#[test]
fn a_new_tournament_gets_its_database_and_readers_make_none() {
    let mut t = Tournament::new();
    // `games` before any poll shows the games and makes no file.
    let out = t.run(&["games"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("White Player"), "{}", out.stdout);
    assert!(!db(&t).exists());
    // The first poll of a tournament where nothing was done makes it.
    white_opens(&mut t);
    t.pass("2026-11-03");
    assert!(db(&t).exists());
    assert_eq!(t.new_mail().len(), 2);
}

#[test]
fn a_database_of_another_program_or_a_newer_clerk_is_refused() {
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

/// The bytes of the database and its log.
fn db_bytes(t: &Tournament) -> u64 {
    ["db.sqlite", "db.sqlite-wal"]
        .iter()
        .filter_map(|name| std::fs::metadata(t.path().join(name)).ok())
        .map(|m| m.len())
        .sum()
}

/// A letter of about `size` bytes, mostly move lines: the densest text
/// for the reader.
fn big_body(size: usize) -> String {
    let mut body = String::from("Game 1\nTime: 2/0\n");
    while body.len() < size {
        body.push_str("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5\n");
    }
    body
}

/// A stranger's letter is kept whole, for the director to take as a
/// player's (`accept --as`): it costs the database its size and a bounded
/// record, never its reading, as a player's letter does at most.
#[test]
fn a_strangers_letter_costs_the_database_its_size_and_no_more() {
    let mut t = under_way();
    let before = db_bytes(&t);
    let letters = 40;
    let mut arrived = 0;
    for n in 0..letters {
        let from = format!("stranger{n}@elsewhere.example");
        arrived += std::fs::metadata(t.letter(&from, "2026-11-04", "Game 1", &big_body(200_000)))
            .unwrap()
            .len();
    }
    t.pass("2026-11-04");
    let grown = db_bytes(&t) - before;
    assert!(
        grown <= arrived + letters * 4096,
        "{letters} strangers' letters of {arrived} bytes grew the database by {grown} bytes"
    );
    assert!(t.new_mail().is_empty(), "strangers get no answer");
    let conn = rusqlite::Connection::open(db(&t)).unwrap();
    let (reason, raw, parse): (String, Vec<u8>, Option<String>) = conn
        .query_row(
            "SELECT reason, raw, parse FROM letters WHERE sender = 'stranger7@elsewhere.example'",
            [],
            |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)),
        )
        .unwrap();
    assert!(reason.contains("neither a player"), "{reason}");
    assert!(raw.len() > 200_000, "{} bytes kept", raw.len());
    assert!(String::from_utf8_lossy(&raw).contains("From: stranger7@elsewhere.example"));
    assert_eq!(parse, None, "a stranger's letter is not read until taken");
}

#[test]
fn a_players_letters_grow_the_database_at_most_twice_their_size() {
    let mut t = under_way();
    let before = db_bytes(&t);
    let mut arrived = 0;
    for _ in 0..8 {
        arrived += std::fs::metadata(t.letter(BLACK, "2026-11-04", "Game 1", &big_body(300_000)))
            .unwrap()
            .len();
    }
    t.pass("2026-11-04");
    let grown = db_bytes(&t) - before;
    assert!(
        grown <= 2 * arrived,
        "{arrived} bytes of a player's letters grew the database by {grown} bytes"
    );
    // No reading is kept larger than the letter it was read from.
    let conn = rusqlite::Connection::open(db(&t)).unwrap();
    let larger: i64 = conn
        .query_row(
            "SELECT count(*) FROM letters WHERE length(parse) > length(raw)",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(larger, 0);
    // Each was answered: a letter of thousands of moves is refused.
    let mail = t.new_mail();
    assert!(!mail.is_empty());
    assert!(mail.iter().all(|m| m.to == [BLACK]), "{:?}", kinds(&mail));
}

/// A letter of `from` under the Message-ID `id`.
fn letter_with_id(t: &mut Tournament, from: &str, day: &str, body: &str, id: &str, relay: &str) {
    let raw = message(from, CLERK, day, "Re: [T #1]", body, "", 0)
        .replace(
            &format!("<letter-0-{day}@test.example>"),
            &format!("<{id}>"),
        )
        .replace("from mx.test.example", &format!("from {relay}"));
    t.deliver_raw(raw.as_bytes());
}

#[test]
fn a_squatted_message_id_does_not_hide_the_real_letter() {
    for squatter in ["intruder@elsewhere.example", WHITE] {
        let mut t = under_way();
        let id = "black-move-1@test.example";
        let body = "Game 1\n1... e5\nTime: 2/2\nDates: 2026-11-03 2026-11-04 2026-11-04\n";
        // The squatter's letter comes first under the real letter's Message-ID.
        letter_with_id(&mut t, squatter, "2026-11-04", "Hello\n", id, "mx1");
        t.pass("2026-11-04");
        t.new_mail();
        letter_with_id(&mut t, BLACK, "2026-11-04", body, id, "mx1");
        let pass = t.pass("2026-11-04");
        assert!(pass.did(EventKind::MessageIdClash), "{}", pass.log());
        let mail = t.new_mail();
        assert!(
            kinds(&mail).contains(&pair("forward", WHITE)),
            "{squatter}: {:?}",
            kinds(&mail)
        );
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);
        // The same letter again, by another route: the same message.
        letter_with_id(&mut t, BLACK, "2026-11-04", body, id, "mx2");
        let pass = t.pass("2026-11-04");
        assert!(pass.did(EventKind::Duplicate), "{}", pass.log());
        assert!(t.new_mail().is_empty());
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);
    }
}

/// A poll under the config `text` stops at load: exit 2, the file, the key
/// and `words` named.
fn refused_at_load(text: &str, key: &str, words: &str) {
    let t = Tournament::with_config(text);
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 2, "{key}: {}{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("shtempel.toml")
            && out.stderr.contains(key)
            && out.stderr.contains(words),
        "{key}: {}",
        out.stderr
    );
}

#[test]
fn an_address_the_mail_library_refuses_is_refused_at_load_with_its_key() {
    let long = format!("{}@example.org", "p".repeat(300));
    for bad in ["pe..trov@example.org", "petrov.@example.org", long.as_str()] {
        for (address, key) in [
            (WHITE, "players[0].email"),
            (ARBITER, "arbiters.chief_arbiter"),
        ] {
            refused_at_load(
                &config("", "").replace(address, bad),
                key,
                "not an e-mail address",
            );
        }
    }
}

#[test]
fn a_broken_template_stops_the_start_with_its_file_and_line() {
    let builtin =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/en/ack.txt"))
            .unwrap();
    let table = [
        // (the director's ack.txt, the line named, words of the message)
        (
            builtin.replacen("\n\n", "\n\nThanks, {{ to_nmae }}.\n", 1),
            "ack.txt:4",
            "`to_nmae` is not given",
        ),
        (
            builtin.replacen("\n\n", "\n\nGame {{ game.idd }}.\n", 1),
            "ack.txt:4",
            "`game.idd` is not given",
        ),
        (
            builtin.lines().skip(2).collect::<Vec<_>>().join("\n"),
            "ack.txt:1",
            "the first line must be `Subject: ...`",
        ),
    ];
    for (text, line, words) in table {
        let mut t = Tournament::new();
        std::fs::create_dir_all(t.path().join("templates/en")).unwrap();
        std::fs::write(t.path().join("templates/en/ack.txt"), &text).unwrap();
        t.letter(WHITE, "2026-11-03", "Game 1", "Game 1\n1. e4\nTime: 0/0\n");
        let out = t.run(&["poll", "--today", "2026-11-03"]);
        assert_eq!(out.code, 2, "{line}: {}", out.stdout);
        assert!(
            out.stderr.contains(line) && out.stderr.contains(words),
            "{line}: {}",
            out.stderr
        );
        assert!(t.new_mail().is_empty());
    }
    // A reworded template that reads only what it is given runs.
    let mut t = Tournament::new();
    std::fs::create_dir_all(t.path().join("templates/en")).unwrap();
    let reworded = builtin.replacen("\n\n", "\n\nWell played in game {{ game.id }}.\n", 1);
    std::fs::write(t.path().join("templates/en/ack.txt"), reworded).unwrap();
    white_opens(&mut t);
    t.pass("2026-11-03");
    let ack = t.new_mail().into_iter().find(|m| m.kind == "ack").unwrap();
    assert!(ack.body.contains("Well played in game 1."), "{}", ack.body);
}

/// `poll` with a fault injected (debug builds: src/fault.rs).
fn poll_with_fault(t: &Tournament, fault: &str) -> i32 {
    std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .arg("--config")
        .arg(t.path().join("shtempel.toml"))
        .arg("--future")
        .args(["poll", "--today", "2026-11-05"])
        .env("SHTEMPEL_FAULT", fault)
        .output()
        .unwrap()
        .status
        .code()
        .unwrap_or(-1)
}

#[test]
fn retry_puts_a_letter_set_aside_back_for_the_next_poll() {
    let mut t = under_way();
    let key = set_aside(&mut t);
    let list = t.run(&["retry"]);
    assert_eq!(list.code, 0, "{}", list.stderr);
    assert!(list.stdout.starts_with(&key), "{}", list.stdout);
    assert!(key.starts_with("quarantine:"), "{}", list.stdout);
    assert!(
        list.stdout.contains("arrived 2026-11-04"),
        "{}",
        list.stdout
    );
    let wrong = t.run(&["retry", "no-such-key"]);
    assert_eq!(wrong.code, 2);
    assert!(
        wrong.stderr.contains("`shtempel retry` lists"),
        "{}",
        wrong.stderr
    );
    // The fault is gone (the template fixed, say): the letter comes back.
    let retry = t.run(&["retry", &key]);
    assert_eq!(retry.code, 0, "{}", retry.stderr);
    assert!(
        retry.stdout.contains("back among the new letters"),
        "{}",
        retry.stdout
    );
    assert!(t.run(&["retry"]).stdout.contains("no letter is set aside"));
    t.pass("2026-11-05");
    let mail = t.new_mail();
    assert!(
        kinds(&mail).contains(&pair("forward", WHITE)),
        "{:?}",
        kinds(&mail)
    );
    // With its own postmark: received 3 Nov, sent 4 Nov, one day for Black
    // (not two, as on the day of the retry).
    assert_eq!(t.totals("1"), (2, 1));
    assert_eq!(t.run(&["retry", "--all"]).code, 0);
}

#[test]
fn an_unreadable_file_fails_alone_and_is_set_aside_and_a_name_not_utf8_is_read() {
    use std::os::unix::ffi::OsStrExt;
    let mut t = Tournament::new();
    let new = t.path().join("inbox/new");
    // A file that cannot be read (mode 000 stops only others than root:
    // this one fails for everybody, with EIO).
    std::os::unix::fs::symlink("/proc/self/mem", new.join("0000.unreadable")).unwrap();
    white_opens(&mut t);
    // A letter under a name that is not UTF-8.
    let black = message(
        BLACK,
        CLERK,
        "2026-11-04",
        "Re: [T #1]",
        "Game 1\n1... e5\nTime: 2/1\nDates: 2026-11-03 2026-11-03 2026-11-04\n",
        "",
        99,
    );
    let latin1 = std::ffi::OsStr::from_bytes(b"1999.caf\xe9.eml");
    std::fs::write(new.join(latin1), black).unwrap();
    for run in 1..=3 {
        let out = t.run(&["poll", "--today", "2026-11-04"]);
        assert_eq!(out.code, 1, "run {run}: {}{}", out.stdout, out.stderr);
        assert!(out.stdout.contains("0000.unreadable"), "{}", out.stdout);
        if run < 3 {
            assert!(
                out.stdout.contains(&format!("({run} of 3)")),
                "{}",
                out.stdout
            );
        } else {
            assert!(out.stdout.contains("set aside"), "{}", out.stdout);
        }
        if run == 1 {
            // Both letters were read and answered, the calendar kept.
            assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);
            assert!(kinds(&t.new_mail()).contains(&pair("forward", WHITE)));
        }
    }
    // Set aside: the next run is clean, and `retry` says where the file is.
    t.pass("2026-11-05");
    assert!(!new.join("0000.unreadable").exists());
    let list = t.run(&["retry"]);
    assert!(
        list.stdout.contains("quarantine:unread:0000.unreadable"),
        "{}",
        list.stdout
    );
    let retry = t.run(&["retry", "--all"]);
    assert!(retry.stdout.contains("was never read"), "{}", retry.stdout);
}

#[test]
fn a_long_address_gets_a_short_file_name_and_its_messages_go() {
    let long = format!(
        "{}@{}.example.org",
        "b".repeat(64),
        ["d".repeat(60), "e".repeat(60), "f".repeat(52)].join(".")
    );
    assert_eq!(long.len(), 251);
    let mut t = Tournament::with_config(&config("", "").replace(BLACK, &long));
    white_opens(&mut t);
    t.pass("2026-11-03");
    let mail = t.new_mail();
    assert!(
        kinds(&mail).contains(&pair("forward", &long)),
        "{:?}",
        kinds(&mail)
    );
    for entry in std::fs::read_dir(t.path().join("outbox")).unwrap() {
        let name = entry.unwrap().file_name();
        assert!(name.len() < 100, "{name:?}");
    }
}

#[test]
fn messages_that_failed_and_wait_fail_every_run_until_they_go() {
    let sendmail = "[transport]\nkind = \"sendmail\"\ncommand = \"/bin/false\"\n";
    let text = config("", "");
    let start = text.find("[transport]").unwrap();
    let end = start + text[start..].find("\n\n").unwrap();
    let mut t = Tournament::with_config(&format!("{}{sendmail}{}", &text[..start], &text[end..]));
    white_opens(&mut t);
    for run in 1..=2 {
        let out = t.run(&["poll", "--today", "2026-11-03"]);
        assert_eq!(out.code, 1, "run {run}: {}{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("2 message(s) not delivered yet")
                && out.stderr.contains("/bin/false"),
            "run {run}: {}",
            out.stderr
        );
    }
}

/// Two more games between the same players, and the report kept in `site/`.
fn with_games(ids: &[&str]) -> String {
    let mut text = config("", "");
    for (n, id) in ids.iter().enumerate() {
        let (white, black) = if n % 2 == 0 {
            ("black", "white")
        } else {
            ("white", "black")
        };
        text.push_str(&format!(
            "\n[[games]]\nid = \"{id}\"\nwhite = \"{white}\"\nblack = \"{black}\"\n"
        ));
    }
    text + "\n[report]\nout = \"site\"\n"
}

#[test]
fn the_report_never_writes_through_a_link_planted_in_its_folder() {
    let t = Tournament::with_config(&with_games(&[]));
    let site = t.path().join("site");
    std::fs::create_dir_all(&site).unwrap();
    let victim = t.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    for planted in [".index.html.tmp", "index.html", ".game-1.html.tmp"] {
        std::os::unix::fs::symlink(&victim, site.join(planted)).unwrap();
    }
    let out = t.run(&["report"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    let index = std::fs::symlink_metadata(site.join("index.html")).unwrap();
    assert!(
        index.file_type().is_file(),
        "index.html is a file of its own"
    );
    assert!(
        std::fs::read_to_string(site.join("index.html"))
            .unwrap()
            .contains("Test cup")
    );
}

#[test]
fn games_whose_ids_differ_only_in_dot_and_underscore_get_pages_of_their_own() {
    let mut t = Tournament::with_config(&with_games(&["1.1", "1_1"]));
    t.letter(
        BLACK,
        "2026-11-03",
        "Game 1.1",
        "Game 1.1\n1. d4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    let site = t.path().join("site");
    let dotted = std::fs::read_to_string(site.join("game-1_2e1.pgn")).unwrap();
    let underscored = std::fs::read_to_string(site.join("game-1_5f1.pgn")).unwrap();
    assert!(dotted.contains("1. d4"), "{dotted}");
    assert!(!underscored.contains("1. d4"), "{underscored}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(
        index.contains("href=\"game-1_2e1.html\"") && index.contains("href=\"game-1_5f1.html\"")
    );
}

#[test]
fn a_report_that_cannot_be_written_leaves_no_temporary_file() {
    let ids: Vec<String> = (2..300).map(|n| n.to_string()).collect();
    let t = Tournament::with_config(&with_games(
        &ids.iter().map(String::as_str).collect::<Vec<_>>(),
    ));
    t.poll("2026-11-03");
    let site = t.path().join("site");
    std::fs::remove_dir_all(&site).unwrap();
    std::fs::create_dir_all(&site).unwrap();
    // A disk that takes 40 KB a file (the database's index of 32 KB fits):
    // the index of 300 games does not.
    let script = format!(
        "trap '' XFSZ; ulimit -f 40; exec {} --config {} report --out {}",
        env!("CARGO_BIN_EXE_shtempel"),
        t.path().join("shtempel.toml").display(),
        site.display()
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &script])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("report:") && stderr.contains("site"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(&site)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .filter(|name| name.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// The modification time of each file of the report.
fn site_times(t: &Tournament) -> std::collections::BTreeMap<String, std::time::SystemTime> {
    std::fs::read_dir(t.path().join("site"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                e.metadata().unwrap().modified().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_poll_rewrites_only_the_report_pages_its_letters_changed() {
    let mut t = Tournament::with_config(&with_games(&["2"]));
    t.poll("2026-11-03");
    let first = site_times(&t);
    assert!(first.contains_key("game-2.html") && first.contains_key("index.html"));
    std::thread::sleep(std::time::Duration::from_millis(20));
    // Idle: nothing rewritten.
    t.poll("2026-11-03");
    assert_eq!(site_times(&t), first);
    // A move in game 1: its pages and the index, not game 2's.
    white_opens(&mut t);
    t.poll("2026-11-03");
    let second = site_times(&t);
    let rewritten: Vec<&String> = second
        .keys()
        .filter(|name| second[*name] != first[*name])
        .collect();
    assert_eq!(
        rewritten,
        ["game-1.html", "game-1.pgn", "game-1.svg", "index.html"],
        "{rewritten:?}"
    );
    // A new day: the index alone (its days left are counted to it; a
    // game's pages hold nothing of the day).
    std::thread::sleep(std::time::Duration::from_millis(20));
    t.poll("2026-11-04");
    let third = site_times(&t);
    let rewritten: Vec<&String> = third
        .keys()
        .filter(|name| third[*name] != second[*name])
        .collect();
    assert_eq!(rewritten, ["index.html"], "{rewritten:?}");
    // An idle poll the same day: nothing.
    t.poll("2026-11-04");
    assert_eq!(site_times(&t), third);
}

#[test]
fn places_and_addresses_that_overlap_are_refused_with_their_key() {
    let base = config("", "");
    let table = [
        (
            base.replace(
                "database = \"db.sqlite\"",
                "database = \"inbox/cur/db.sqlite\"",
            ),
            "bot.database",
            "is inside source.path",
        ),
        (
            base.replace("path = \"outbox\"", "path = \"inbox\""),
            "transport.path",
            "is the same place as source.path",
        ),
        (
            base.replace("path = \"outbox\"", "path = \"./inbox/../inbox/new\""),
            "transport.path",
            "is inside source.path",
        ),
        (
            base.clone() + "\n[report]\nout = \"outbox\"\n",
            "report.out",
            "is the same place as transport.path",
        ),
        (
            base.replace(
                &format!("chief_arbiter = \"{ARBITER}\""),
                &format!("chief_arbiter = \"{CLERK}\""),
            ),
            "arbiters.chief_arbiter",
            "the clerk's own address",
        ),
        (
            base.replace(
                &format!("chief_secretary = \"{SECRETARY}\""),
                &format!("chief_secretary = \"{CLERK}\""),
            ),
            "arbiters.chief_secretary",
            "the clerk's own address",
        ),
    ];
    for (text, key, words) in table {
        refused_at_load(&text, key, words);
    }
}

#[test]
fn a_day_before_the_start_or_the_record_is_refused() {
    let mut t = under_way();
    let earlier = t.run(&["poll", "--today", "2026-11-02"]);
    assert_eq!(earlier.code, 2, "{}", earlier.stdout);
    assert!(
        earlier.stderr.contains("record goes on to 2026-11-03"),
        "{}",
        earlier.stderr
    );
    let before = t.run(&["poll", "--today", "2026-10-30"]);
    assert_eq!(before.code, 2, "{}", before.stdout);
    assert!(
        before.stderr.contains("starts on 2026-11-01"),
        "{}",
        before.stderr
    );
    // Nothing was done by either; the same day or a later one runs.
    assert!(t.new_mail().is_empty());
    t.pass("2026-11-03");
    t.pass("2026-11-04");
}

#[test]
fn sigterm_finishes_the_letter_at_hand_says_what_is_left_and_exits_1() {
    let mut t = Tournament::new();
    white_opens(&mut t);
    black_answers(&mut t);
    t.letter(
        WHITE,
        "2026-11-05",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 3/1\n",
    );
    // Each letter takes four seconds (debug builds: src/fault.rs); the
    // signal comes half a second after the run opened its database, during
    // the first.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .arg("--config")
        .arg(t.path().join("shtempel.toml"))
        .arg("--future")
        .args(["poll", "--today", "2026-11-05"])
        .env("SHTEMPEL_STALL", "after-parse:4")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    for _ in 0..2000 {
        if t.path().join("db.sqlite-wal").exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("stopped by a signal: 1 letter(s) done and kept, 2 left"),
        "{stderr}"
    );
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
    // The letter done was answered and forwarded; the others wait.
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    t.pass("2026-11-05");
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 3);
}

#[test]
fn escape_sequences_from_a_letter_never_reach_the_output_raw() {
    let mut t = Tournament::new();
    let nasty = "\u{1b}]0;owned\u{7}\u{1b}[2J\u{9b}31m";
    let path = t.letter(
        "intruder@elsewhere.example",
        "2026-11-03",
        &format!("Game 1 {nasty}"),
        &format!("Game 1\n1. e4 {nasty}\n"),
    );
    // A player's letter with the sequence in a word the reader names back.
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        &format!("Game 1\n1. e4 e{nasty}5\nTime: 2/0\n"),
    );
    let raw_in =
        |text: &str| text.contains('\u{1b}') || text.contains('\u{9b}') || text.contains('\u{7}');
    let check = t.run(&["check", path.to_str().unwrap()]);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(
        !raw_in(&check.stdout) && check.stdout.contains("\\u{1b}"),
        "{}",
        check.stdout
    );
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert!(
        !raw_in(&out.stdout) && !raw_in(&out.stderr),
        "{:?}",
        out.stdout
    );
    assert!(out.stdout.contains("\\u{1b}"), "{}", out.stdout);
    t.letter(
        BLACK,
        "2026-11-03",
        "Game 1",
        &format!("Game 1\n1... e5 2. c{nasty}5\nTime: 2/0\n"),
    );
    let out = t.run(&["poll", "--today", "2026-11-03", "--json"]);
    assert!(
        !raw_in(&out.stdout) && !raw_in(&out.stderr),
        "{:?}",
        out.stdout
    );
    assert!(out.stdout.contains("\\u001b"), "{}", out.stdout);
}

#[test]
fn a_database_that_cannot_be_written_is_named_with_what_to_look_at() {
    let mut t = under_way();
    // Its -shm cannot be opened (as root, whom file modes do not stop,
    // a folder in its place does it).
    let shm = t.path().join("db.sqlite-shm");
    let _ = std::fs::remove_file(&shm);
    std::fs::create_dir(&shm).unwrap();
    black_answers(&mut t);
    let out = t.run(&["poll", "--today", "2026-11-04"]);
    assert_ne!(out.code, 0, "{}", out.stdout);
    assert!(
        out.stderr
            .contains(&format!("database {}", db(&t).display())),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("readonly") && out.stderr.contains("db.sqlite-shm"),
        "{}",
        out.stderr
    );
    assert_eq!(out.stderr.trim().lines().count(), 1, "{}", out.stderr);
    // Mended, the letter is read.
    std::fs::remove_dir(&shm).unwrap();
    t.pass("2026-11-04");
    assert!(kinds(&t.new_mail()).contains(&pair("forward", WHITE)));
}

#[test]
fn an_impossible_year_and_full_width_digits_are_named_unreadable() {
    for (line, named) in [
        ("Dates: 01.01.99999", "\"01.01.99999\" is not a date"),
        ("Dates: 1 Nov 262143", "\"1 Nov 262143\" is not a date"),
        ("Time: １２/３", "the time cannot be read"),
    ] {
        let mut t = under_way();
        let mail = t.exchange(
            BLACK,
            "2026-11-04",
            "Re: [T #1]",
            &format!("Game 1\n1... e5\n{line}\n"),
        );
        let to_black: Vec<&Sent> = mail.iter().filter(|m| m.to == [BLACK]).collect();
        assert!(
            to_black.iter().any(|m| m.body.contains(named)),
            "{line}: {:?}",
            to_black.iter().map(|m| &m.body).collect::<Vec<_>>()
        );
        assert!(
            !to_black.iter().any(|m| m.body.contains("impossible")),
            "{line}: not called out of range"
        );
    }
}

/// Black's letter of 4 November set aside after three runs that failed on
/// it; its key, as `retry` lists it.
fn set_aside(t: &mut Tournament) -> String {
    t.letter(
        BLACK,
        "2026-11-04",
        "Re: [T #1]",
        "Game 1\n1... e5\nNo TROUBLE at all.\nTime: 2/1\nDates: 2026-11-03 2026-11-03 2026-11-04\n",
    );
    for _ in 0..3 {
        assert_eq!(poll_with_fault(t, "panic-letter:TROUBLE"), 1);
    }
    t.new_mail();
    let list = t.run(&["retry"]);
    list.stdout.split_whitespace().next().unwrap().to_string()
}

#[test]
fn the_chief_arbiter_puts_letters_set_aside_back_by_his_own_letter() {
    let mut t = under_way();
    let key = set_aside(&mut t);
    assert!(key.starts_with("quarantine:"), "{key}");
    // A player's order changes nothing.
    t.letter(BLACK, "2026-11-05", "retry", "RETRY ALL\n");
    t.pass("2026-11-05");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("refused", BLACK)],
        "a player cannot order a retry; he is told so"
    );
    assert!(t.run(&["retry"]).stdout.starts_with(&key));
    // A key of no letter set aside is answered with where the keys are.
    let mail = t.exchange(ARBITER, "2026-11-05", "retry", "RETRY quarantine:nothing\n");
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    mail[0].says("no letter is set aside under the key quarantine:nothing; the clerk's list of the day (shtempel today) gives their keys, or write RETRY ALL");
    // His order, in Russian: he and the secretary are told which letter
    // goes back.
    let mail = t.exchange(
        ARBITER,
        "2026-11-05",
        "Отложенное письмо",
        &format!("ПОВТОРИТЬ {key}\n"),
    );
    assert_eq!(kinds(&mail), [pair("retry", ARBITER)]);
    assert_eq!(mail[0].cc, [SECRETARY]);
    mail[0].says(&format!(
            "{key}, arrived 2026-11-04, set aside because: the clerk failed on this letter (injected panic on a letter containing \"TROUBLE\")"
        ));
    assert_eq!(
        t.run(&["retry"]).stdout,
        format!("{key}  ordered back by the chief arbiter: the next poll puts it back\n"),
        "ordered back, it is no longer set aside"
    );
    let today = t.run(&["today", "--today", "2026-11-05"]).stdout;
    assert!(
        today.contains(&format!("{key}  from (no sender): set aside, ordered back by the chief arbiter (the next poll reads it)")),
        "{today}"
    );
    assert!(
        today.contains("from arbiter@test.example: an order not carried out, the chief arbiter told why: nothing to retry"),
        "{today}"
    );
    // The next run puts it back before it reads its mail, and reads it with
    // its own postmark.
    t.pass("2026-11-06");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", BLACK), pair("forward", WHITE)]);
    assert_eq!(t.totals("1"), (2, 1));
    // Nothing set aside now: RETRY ALL says so.
    let mail = t.exchange(ARBITER, "2026-11-07", "retry", "RETRY ALL\n");
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    assert!(
        mail[0]
            .body
            .contains("no letter is set aside; there is nothing to read again"),
        "{}",
        mail[0].body
    );
}

/// A link in the Maildir's `new/` is not followed: what
/// it points to (a letter, or anyone's file) is never read nor filed, and
/// the run names it as a letter it could not read.
#[test]
fn a_link_in_the_maildir_is_not_followed() {
    let mut t = Tournament::new();
    let elsewhere = t.path().join("elsewhere.eml");
    std::fs::write(
        &elsewhere,
        message(WHITE, CLERK, "2026-11-03", "Game 1", W1, "", 7),
    )
    .unwrap();
    let link = t.path().join("inbox/new/0001.planted");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 1, "{}{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("0001.planted") && out.stdout.contains("symbolic link"),
        "{}",
        out.stdout
    );
    assert!(
        t.new_mail().is_empty(),
        "the letter it points to was not read"
    );
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 0);
    assert!(elsewhere.exists() && std::fs::symlink_metadata(&link).is_ok());
}

/// The database the build before left: this build's less its last
/// migration (the daily digests), at the schema before.
fn as_the_build_before_left_it(t: &Tournament) -> i64 {
    let before = shtempel::store::schema_version() - 1;
    let conn = rusqlite::Connection::open(db(t)).unwrap();
    conn.execute_batch(
        "DROP INDEX outbox_digest; DROP INDEX outbox_in_digest; DROP INDEX outbox_digests;
         ALTER TABLE outbox DROP COLUMN in_digest; ALTER TABLE outbox DROP COLUMN digest_for;
         ALTER TABLE preferences DROP COLUMN digest;",
    )
    .unwrap();
    conn.pragma_update(None, "user_version", before).unwrap();
    before
}

fn schema_of(path: &std::path::Path) -> i64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap()
}

/// An upgrade: a command that only reads (`games`, `doctor`) reads the
/// older database as this build's and leaves it as it was, so the build
/// before still runs on it; the first that writes (`poll`) keeps a copy of
/// it beside it, named with its schema and for its owner alone, says so,
/// and upgrades it; the games go on.
#[test]
fn only_a_command_that_writes_upgrades_the_database_keeping_a_copy_of_it() {
    let mut t = under_way();
    let before = as_the_build_before_left_it(&t);
    let now = shtempel::store::schema_version();
    let copy = t.path().join(format!("db.sqlite.schema-{before}"));

    let games = t.run(&["games"]);
    assert_eq!(games.code, 0, "{}", games.stderr);
    assert!(games.stdout.contains("White Player"), "{}", games.stdout);
    assert!(
        games.stderr.contains(&format!(
            "schema {before}, read as this build's ({now}) and not changed"
        )),
        "{}",
        games.stderr
    );
    let doctor = t.run(&["doctor"]);
    assert!(
        doctor
            .stdout
            .contains(&format!("schema {before}; this build writes {now}")),
        "{}",
        doctor.stdout
    );
    assert_eq!(schema_of(&db(&t)), before, "a reader changed the file");
    assert!(!copy.exists());

    black_answers(&mut t);
    let poll = t.poll("2026-11-04");
    assert!(
        poll.stderr
            .contains(&format!("upgraded from schema {before} to {now}"))
            && poll.stderr.contains(&copy.display().to_string()),
        "{}",
        poll.stderr
    );
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    assert_eq!(schema_of(&db(&t)), now);
    assert_eq!(schema_of(&copy), before);
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&copy).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
    // The copy holds the game as it was: 1. e4 alone.
    let conn = rusqlite::Connection::open(&copy).unwrap();
    let moves: i64 = conn
        .query_row("SELECT count(*) FROM moves", [], |r| r.get(0))
        .unwrap();
    assert_eq!(moves, 1);
    // Upgraded once: the next run says nothing of it.
    let again = t.poll("2026-11-05");
    assert!(!again.stderr.contains("upgraded"), "{}", again.stderr);
}

/// `--version` names the release, the commit and the schema the build
/// writes: what a director compares before and after an upgrade.
#[test]
fn the_version_names_the_build_and_the_schema_it_writes() {
    let t = Tournament::new();
    let out = t.run_as_given(&["--version"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let said = out.stdout.trim();
    let schema = format!("database schema {})", shtempel::store::schema_version());
    assert!(
        said.starts_with(&format!("shtempel {} (commit ", env!("CARGO_PKG_VERSION")))
            && said.ends_with(&schema),
        "{said}"
    );
}

/// `check --today D` before the record's last day says the letter is
/// judged against the record as it is now, not as it stood on D; on or
/// after it, it says nothing of it.
#[test]
fn check_before_the_records_last_day_says_what_it_judges_against() {
    let mut t = under_way();
    black_answers(&mut t);
    t.pass("2026-11-04");
    let letter = t.path().join("letter.txt");
    std::fs::write(&letter, "Game 1\n2. Nf3\nTime: 3/1\n").unwrap();
    let file = letter.to_str().unwrap();
    let early = t.run(&["check", file, "--today", "2026-11-03"]);
    assert_eq!(early.code, 0, "{}", early.stderr);
    assert!(
        early.stderr.contains(
            "the clerk's record goes on to 2026-11-04; the letter is judged against the record \
             as it is now, not as it stood on 2026-11-03"
        ),
        "{}",
        early.stderr
    );
    let on_time = t.run(&["check", file, "--today", "2026-11-05"]);
    assert!(
        !on_time.stderr.contains("as it stood"),
        "{}",
        on_time.stderr
    );
}

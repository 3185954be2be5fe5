//! Crash safety, overlapping runs and poison letters: never lose, never
//! double. The debug binary aborts at an injected fault point
//! (`SHTEMPEL_FAULT`, see `src/fault.rs`); the next runs must finish the work
//! with nothing lost, nothing applied twice, and a message sent twice only when
//! the crash fell between the transport's OK and the mark, then with one
//! Message-ID.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::*;

/// Three letters of one game: each is acked and forwarded, six messages in all.
fn three_letters(t: &mut Tournament) {
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.letter(
        BLACK,
        "2026-11-03",
        "Re: [T #1]",
        "Game 1\n1... e5\nTime: 2/0\nDates: 2026-11-03, 2026-11-03, 2026-11-03\n",
    );
    t.letter(
        WHITE,
        "2026-11-03",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 2/0\nDates: 2026-11-03, 2026-11-03, 2026-11-03\n",
    );
}

fn poll_with(t: &Tournament, env: &[(&str, &str)]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_shtempel"));
    command
        .arg("--config")
        .arg(t.path().join("shtempel.toml"))
        .arg("--future")
        .args(["poll", "--today", "2026-11-03"]);
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().unwrap()
}

fn count(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn a_crash_at_any_step_loses_nothing_and_doubles_nothing() {
    // (fault point, which passage) — every step of a letter's life, on its first
    // and on a later letter of the batch.
    let points = [
        "after-fetch",
        "after-parse",
        "after-outbox-insert",
        "after-commit",
        "before-mark-done",
        "during-mark-done",
        "during-send",
        "after-send",
    ];
    let mut table = Vec::new();
    for point in points {
        // A point reached once a run has only a first passage.
        let passages: &[usize] = if point == "after-fetch" {
            &[1]
        } else {
            &[1, 2]
        };
        for &passage in passages {
            let mut t = Tournament::new();
            three_letters(&mut t);
            let fault = format!("{point}:{passage}");
            let crashed = poll_with(&t, &[("SHTEMPEL_FAULT", &fault)]);
            let crashed_code = crashed.status.code();
            assert_eq!(
                crashed_code, None,
                "{fault}: the fault fired (the run was killed)"
            );
            // Two clean runs finish whatever the crash left.
            for _ in 0..2 {
                let out = poll_with(&t, &[]);
                assert!(
                    out.status.success(),
                    "{fault}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            assert_eq!(
                t.sans("1"),
                ["e4", "e5", "Nf3"],
                "{fault}: every letter applied exactly once"
            );
            assert_eq!(
                count(&t.path().join("inbox/new")),
                0,
                "{fault}: every letter done"
            );
            assert_eq!(
                count(&t.path().join("inbox/cur")),
                3,
                "{fault}: every letter kept"
            );
            let mail = t.outbox();
            let mut by_id: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for sent in &mail {
                by_id
                    .entry(sent.message_id.clone())
                    .or_default()
                    .push(sent.kind.clone());
            }
            assert_eq!(
                by_id.len(),
                6,
                "{fault}: six distinct messages: {:?}",
                kinds(&mail)
            );
            let doubled = mail.len() - by_id.len();
            if point != "after-send" {
                assert_eq!(
                    doubled,
                    0,
                    "{fault}: nothing sent twice: {:?}",
                    kinds(&mail)
                );
            } else {
                assert!(
                    doubled <= 1,
                    "{fault}: at most the one message in flight twice"
                );
            }
            table.push(format!("{fault:<24} crash exit {crashed_code:?}, then 3 moves, 6 messages, {doubled} sent twice"));
        }
    }
    eprintln!("{}", table.join("\n"));
}

#[test]
fn a_letter_that_keeps_failing_is_quarantined_after_three_runs() {
    let mut t = Tournament::new();
    three_letters(&mut t);
    t.letter(
        BLACK,
        "2026-11-03",
        "Re: [T #1] POISON",
        "Game 1\n2... Nc6 POISON\n",
    );
    let env = [("SHTEMPEL_FAULT", "panic-letter:POISON")];
    for run in 1..=3 {
        let out = poll_with(&t, &env);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(1),
            "run {run}: a failed letter is a failed run"
        );
        // The panic is said in words, as the letter's failure.
        assert!(
            stdout.contains(CAUGHT_PANIC[0]) && !stderr.contains(CAUGHT_PANIC[1]),
            "{stdout}\n{stderr}"
        );
        if run < 3 {
            assert!(
                stdout.contains(&format!("left for the next run ({run} of 3)")),
                "{stdout}"
            );
        } else {
            assert!(
                stdout.contains("quarantined") && stdout.contains("set aside for the director"),
                "{stdout}"
            );
        }
    }
    // The other letters went on; the poison letter is kept but no longer read.
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 3);
    assert_eq!(count(&t.path().join("inbox/new")), 0);
    let out = poll_with(&t, &env);
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stdout).contains("POISON"));
}

#[test]
fn a_letter_that_kills_the_process_costs_its_batch_nothing_and_is_set_aside() {
    // Letters are written in batches: a crash inside one loses the batch's
    // uncommitted work. The next run goes letter by letter, so the letters
    // before the killer are kept, and the killer is set aside after three.
    let mut t = Tournament::new();
    three_letters(&mut t);
    t.letter(
        BLACK,
        "2026-11-03",
        "Re: [T #1] KILLER",
        "Game 1\n2... Nc6 KILLER\n",
    );
    let env = [("SHTEMPEL_FAULT", "abort-letter:KILLER")];
    let mut crashes = 0;
    for _ in 0..6 {
        let out = poll_with(&t, &env);
        if out.status.code().is_none() {
            crashes += 1;
            continue;
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains("quarantined") && stdout.contains("stopped while reading"),
            "{stdout}"
        );
        break;
    }
    assert_eq!(
        crashes, 4,
        "one crash in batch mode, then three counted ones"
    );
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 3);
    assert_eq!(count(&t.path().join("inbox/new")), 0);
    let out = poll_with(&t, &env);
    assert!(out.status.success(), "the next run is an ordinary one");
}

#[test]
fn one_run_at_a_time() {
    let mut t = Tournament::new();
    three_letters(&mut t);
    let config = t.path().join("shtempel.toml");
    let spawn = |stall: &str| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_shtempel"));
        command
            .arg("--config")
            .arg(&config)
            .arg("--future")
            .args(["poll", "--today", "2026-11-03"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if !stall.is_empty() {
            command.env("SHTEMPEL_STALL", stall);
        }
        command.spawn().unwrap()
    };
    // Eight runs at once, each of which would hold the lock for 3 seconds.
    let started = Instant::now();
    let waiters: Vec<_> = (0..8)
        .map(|_| {
            let child = spawn("after-lock:3");
            std::thread::spawn(move || {
                let out = child.wait_with_output().unwrap();
                (started.elapsed(), out)
            })
        })
        .collect();
    let results: Vec<_> = waiters.into_iter().map(|w| w.join().unwrap()).collect();
    let (workers, idle): (Vec<_>, Vec<_>) =
        results.iter().partition(|(_, out)| !out.stdout.is_empty());
    assert_eq!(workers.len(), 1, "exactly one run worked");
    assert!(workers[0].0 >= Duration::from_secs(3));
    for (elapsed, out) in &idle {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // A run that finds the lock says so, in one line (it was once
        // silent), and is no failure while the holder is young.
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(said.lines().count(), 1, "{said}");
        assert!(said.contains("this one did nothing"), "{said}");
        assert!(
            *elapsed < Duration::from_secs(1),
            "the others exit within a second: {elapsed:?}"
        );
    }
    assert_eq!(t.outbox().len(), 6);

    // A holder killed with -9: the kernel frees the lock, the next run goes at once.
    t.letter(
        BLACK,
        "2026-11-03",
        "Re: [T #1]",
        "Game 1\n2... Nc6\nTime: 2/0\nDates: 2026-11-03, 2026-11-03, 2026-11-03\n",
    );
    let mut holder = spawn("after-lock:30");
    std::thread::sleep(Duration::from_millis(500));
    holder.kill().unwrap();
    holder.wait().unwrap();
    let next = Instant::now();
    let out = poll_with(&t, &[]);
    assert!(out.status.success());
    assert!(
        next.elapsed() < Duration::from_secs(5),
        "{:?}",
        next.elapsed()
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("2... Nc6"));
}

/// The chief arbiter's replacement of White (1. e4 played) and his order to
/// read a letter set aside again: a run killed at each step of writing the
/// edit or putting the letter back leaves the next runs to finish it, the
/// file edited once, the letter read once.
#[test]
fn an_order_left_halfway_by_a_crash_is_finished_by_the_next_run() {
    let newcomer = "newcomer@test.example";
    for point in ["before-config-edit", "after-config-edit", "after-put-back"] {
        let mut t = Tournament::new();
        t.letter(
            WHITE,
            "2026-11-03",
            "Game 1",
            "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
        );
        assert!(poll_with(&t, &[]).status.success());
        // Black's answer, set aside after failing three runs.
        t.letter(
            BLACK,
            "2026-11-03",
            "Re: [T #1]",
            "Game 1\n1... e5\nTROUBLE\nTime: 2/0\nDates: 2026-11-03, 2026-11-03, 2026-11-03\n",
        );
        for _ in 0..3 {
            poll_with(&t, &[("SHTEMPEL_FAULT", "panic-letter:TROUBLE")]);
        }
        t.new_mail();
        t.letter(
            ARBITER,
            "2026-11-03",
            "orders",
            &format!("REPLACE white New White <{newcomer}>\n"),
        );
        // (One order a letter: a second letter carries the retry.)
        t.letter(ARBITER, "2026-11-03", "retry", "RETRY ALL\n");
        let crashed = poll_with(&t, &[("SHTEMPEL_FAULT", point)]);
        let runs_to_crash = if point == "after-put-back" {
            // The edit's run reads no more mail: the retry is read by the
            // next, and the letter put back by the one after.
            assert!(crashed.status.success(), "{point}: the first run finishes");
            assert!(poll_with(&t, &[]).status.success());
            poll_with(&t, &[("SHTEMPEL_FAULT", point)])
        } else {
            crashed
        };
        assert_eq!(
            runs_to_crash.status.code(),
            None,
            "{point}: the fault fired"
        );
        for _ in 0..3 {
            let out = poll_with(&t, &[]);
            assert!(
                out.status.success(),
                "{point}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let file = std::fs::read_to_string(t.path().join("shtempel.toml")).unwrap();
        assert_eq!(file.matches(newcomer).count(), 1, "{point}: {file}");
        assert!(!file.contains(WHITE), "{point}: {file}");
        let mail = t.new_mail();
        let forwards: Vec<_> = mail.iter().filter(|m| m.kind == "forward").collect();
        assert_eq!(forwards.len(), 1, "{point}: {:?}", kinds(&mail));
        assert_eq!(
            forwards[0].to,
            [newcomer],
            "{point}: the move to the newcomer"
        );
        let replacements = mail.iter().filter(|m| m.kind == "replacement").count();
        assert_eq!(replacements, 1, "{point}: {:?}", kinds(&mail));
        let chart = t.chart("1");
        assert_eq!(chart["moves"].as_array().unwrap().len(), 2, "{point}");
    }
}

/// The very first poll killed while it makes the
/// database leaves nothing the next poll takes for a lost record: that one
/// makes the database anew and reads the letters, none lost.
#[test]
fn a_first_poll_killed_while_it_makes_the_database_is_finished_by_the_next() {
    for point in ["create-database", "create-database-made"] {
        let mut t = Cup::new().open();
        t.letter(WHITE, "2026-11-03", "Game 1", W1);
        let killed = poll_with(&t, &[("SHTEMPEL_FAULT", point)]);
        assert!(!killed.status.success(), "{point}: the fault fired");
        assert!(
            !t.path().join("db.sqlite").exists(),
            "{point}: no half-made database at its path"
        );
        let out = poll_with(&t, &[]);
        assert!(
            out.status.success(),
            "{point}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            kinds(&t.new_mail()),
            [pair("ack", WHITE), pair("forward", BLACK)],
            "{point}"
        );
        let left: Vec<String> = std::fs::read_dir(t.path())
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|name| name.contains(".new"))
            .collect();
        assert!(left.is_empty(), "{point}: {left:?} left behind");
    }
}

/// A run kept out by a lock held for over an hour says
/// the holder may be stuck, names its process, and fails (cron mails it).
#[test]
fn a_run_kept_out_by_a_stuck_holder_says_so_and_fails() {
    let mut t = Cup::new().open();
    three_letters(&mut t);
    let mut holder = Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .arg("--config")
        .arg(t.path().join("shtempel.toml"))
        .args(["--future", "poll", "--today", "2026-11-03"])
        .env("SHTEMPEL_STALL", "after-lock:30")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let lock = t.path().join("db.sqlite.lock");
    for _ in 0..100 {
        if std::fs::read_to_string(&lock).is_ok_and(|text| !text.is_empty()) {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // The holder noted itself; as if it had started two hours ago.
    let note = std::fs::read_to_string(&lock).unwrap();
    let (pid, since) = note.trim().split_once(' ').unwrap();
    assert_eq!(pid, holder.id().to_string());
    let since = chrono::DateTime::parse_from_rfc3339(since).unwrap();
    let two_hours_ago = (since - chrono::TimeDelta::hours(2)).to_rfc3339();
    std::fs::write(&lock, format!("{pid} {two_hours_ago}\n")).unwrap();
    let out = poll_with(&t, &[]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains(&format!("kill {pid}")), "{said}");
    assert!(said.contains("at work for 120 min"), "{said}");
    holder.kill().unwrap();
    holder.wait().unwrap();
    assert!(poll_with(&t, &[]).status.success());
}

/// The temporary files of a run killed while it wrote
/// them are removed by the next run; nobody else's are touched.
#[test]
fn the_temporary_files_a_killed_run_left_are_removed_by_the_next() {
    let mut t = Cup::new().open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    let killed = poll_with(&t, &[("SHTEMPEL_FAULT", "during-send")]);
    assert!(!killed.status.success());
    let hidden = |dir: &std::path::Path| -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .filter(|name| name.starts_with('.'))
            .collect()
    };
    let outbox = t.path().join("outbox");
    assert_eq!(
        hidden(&outbox),
        [".writing"],
        "the outbox holds no half message"
    );
    let writing = outbox.join(".writing");
    assert_eq!(hidden(&writing).len(), 1, "the killed send left its file");
    std::fs::write(t.path().join(".shtempel-editAbC123"), "half an edit").unwrap();
    let tmp = t.path().join("inbox/tmp");
    std::fs::write(
        tmp.join("1793700000.retry-0123456789abcdef.shtempel"),
        "half",
    )
    .unwrap();
    std::fs::write(tmp.join("1793700000.P1Q2.other-agent"), "another's").unwrap();
    assert!(poll_with(&t, &[]).status.success());
    assert!(hidden(&writing).is_empty(), "{:?}", hidden(&writing));
    assert!(!t.path().join(".shtempel-editAbC123").exists());
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    assert_eq!(left, ["1793700000.P1Q2.other-agent"]);
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)],
        "each message once"
    );
}

/// The database failing while a letter is planned is the run's trouble,
/// not the letter's: the run stops and says so, the letter stays new and
/// is not counted against it (three such runs set a good letter aside
/// before), and once the database is mended the letter is taken.
#[test]
fn a_database_error_stops_the_run_and_counts_no_letter_failed() {
    let mut t = Cup::new().rules("leave_days_per_year = 10").open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.poll("2026-11-03");
    t.new_mail();
    let db = t.path().join("db.sqlite");
    let leaves: String = {
        let conn = rusqlite::Connection::open(&db).unwrap();
        let sql = conn
            .query_row(
                "SELECT sql FROM sqlite_master WHERE name = 'leaves'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        conn.execute_batch("DROP TABLE leaves").unwrap();
        sql
    };
    t.letter(BLACK, "2026-11-07", "Re: Game 1", B1);
    for _ in 0..4 {
        let out = t.run(&["poll", "--today", "2026-11-07"]);
        assert_ne!(out.code, 0, "{}", out.stdout);
        assert!(out.stderr.contains("leaves"), "{}", out.stderr);
    }
    assert!(t.new_mail().is_empty(), "nothing sent");
    let new: Vec<_> = std::fs::read_dir(t.path().join("inbox/new"))
        .unwrap()
        .collect();
    assert_eq!(new.len(), 1, "the letter stays new");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(&leaves)
        .unwrap();
    t.poll("2026-11-07");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
}

#[test]
fn a_damaged_database_and_a_lowered_schema_are_said_as_what_they_are() {
    let mut t = Tournament::new();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.poll("2026-11-03");
    let db = t.path().join("db.sqlite");
    let whole = std::fs::read(&db).unwrap();
    // Cut in half, as a copy interrupted leaves it.
    std::fs::write(&db, &whole[..whole.len() / 2]).unwrap();
    for args in [vec!["games"], vec!["poll", "--today", "2026-11-04"]] {
        let out = t.run(&args);
        assert_eq!(out.code, 2, "{args:?}: {}\n{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains("damaged") && out.stderr.contains("backup"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(
            !out.stderr.contains("must name the clerk's own file"),
            "{}",
            out.stderr
        );
    }
    // Whole again, its schema version lowered by hand.
    std::fs::write(&db, &whole).unwrap();
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.pragma_update(None, "user_version", 1).unwrap();
    drop(conn);
    let out = t.run(&["poll", "--today", "2026-11-04"]);
    assert_ne!(out.code, 0, "{}", out.stdout);
    assert!(
        out.stderr.contains(
            "the database says it is at schema 1, but its tables do not take schema 2's change"
        ),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("changed by hand"), "{}", out.stderr);
}

/// `poll --today day` with its standard output (and, `stderr_too`, its
/// standard error) on a full disk (`/dev/full`).
fn poll_to_a_full_disk(
    config: &std::path::Path,
    day: &str,
    stderr_too: bool,
) -> std::process::Output {
    let full = || std::fs::File::create("/dev/full").unwrap();
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"));
    command
        .arg("--config")
        .arg(config)
        .args(["--future", "poll", "--today", day])
        .stdout(full());
    if stderr_too {
        command.stderr(full());
    }
    command.output().unwrap()
}

#[test]
fn an_output_that_cannot_be_written_is_an_error_in_words_not_a_panic() {
    let mut t = Tournament::new();
    let config = t.path().join("shtempel.toml");
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    // Its log on a full disk: the run's work is done, and it ends saying
    // its log is lost.
    let out = poll_to_a_full_disk(&config, "2026-11-03", false);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the output cannot be written"), "{stderr}");
    assert!(
        !CAUGHT_PANIC.iter().any(|said| stderr.contains(said)),
        "{stderr}"
    );
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
    // Standard error on the full disk too: the status says it, no panic
    // (101), and the work is done.
    t.letter(BLACK, "2026-11-07", "Re: [T #1] 1. e4", B1);
    let out = poll_to_a_full_disk(&config, "2026-11-07", true);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);
}

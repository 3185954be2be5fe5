//! Nobody outside can flood, forge or stop the clerk. A test per attack,
//! named for what it holds, through the binary as cron runs it.

use crate::support::*;

/// A signed letter as the receiving server passes it on: its own
/// `Authentication-Results` on top, then whatever the sender wrote, his
/// domain's signature first.
fn delivered(t: &mut Tournament, server_says: &str, letter: String) {
    let raw =
        format!("Authentication-Results: mx.test.example; {server_says}\r\n{SIGNATURE}{letter}");
    t.deliver_raw(raw.as_bytes());
}

/// The signature of the players' domain a letter carries (the server's
/// verdict on it is what the tests give).
macro_rules! signature {
    () => {
        "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=test.example; s=mail;\r\n\th=From:To:Subject:Date; bh=AbCd=; b=EfGh\r\n"
    };
}
const SIGNATURE: &str = signature!();

const PASS: &str = concat!(
    "Authentication-Results: mx.test.example; dkim=pass header.d=test.example\r\n",
    signature!()
);

/// A tournament of `cup` in which White has sent 1. e4 on 3 November,
/// the mail of it read.
fn opened(cup: &Cup) -> Tournament {
    let mut t = cup.open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    t.new_mail();
    t
}

/// Black's 1... e5 of 7 November with `more` after it: what the clerk sent.
fn black_answers(t: &mut Tournament, more: &str) -> Vec<Sent> {
    t.letter(
        BLACK,
        "2026-11-07",
        "Re: [T #1] 1. e4",
        &format!("{B1}{more}\n"),
    );
    t.pass("2026-11-07");
    t.new_mail()
}

/// The key of the first letter `today` lists as having changed nothing.
fn unheeded_key(t: &Tournament, day: &str) -> String {
    let out = t.run(&["today", "--today", day, "--json"]);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    value["changed_nothing"][0]["key"]
        .as_str()
        .unwrap_or_else(|| panic!("no letter listed: {}", out.stdout))
        .to_string()
}

#[test]
fn an_address_the_config_would_refuse_is_not_written_by_accept_as_address() {
    for lang in ["en", "ru"] {
        for address in ["\"ivanov office\"@work.example", "a@b.org."] {
            let mut t = Cup::new().in_language(lang).open();
            let file = t.path().join("shtempel.toml");
            let before = std::fs::read_to_string(&file).unwrap();
            let raw = message(address, CLERK, "2026-11-03", "Game 1", W1, "", 1);
            t.deliver_raw(raw.as_bytes());
            t.pass("2026-11-03");
            assert!(
                t.new_mail().is_empty(),
                "a stranger's letter is not answered"
            );
            let key = unheeded_key(&t, "2026-11-04");
            let order = match lang {
                "ru" => format!("ПРИНЯТЬ {key} КАК white АДРЕС\n"),
                _ => format!("ACCEPT {key} AS white ADDRESS\n"),
            };
            let mail = t.exchange(ARBITER, "2026-11-04", "Re: letter", &order);
            assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{lang} {address}");
            let said = match lang {
                "ru" => "секретарь не может добавить адрес",
                _ => "the clerk cannot add the address",
            };
            assert!(
                mail[0].body.contains(said) && mail[0].body.contains("would not load"),
                "{lang} {address}: {}",
                mail[0].body
            );
            assert_eq!(std::fs::read_to_string(&file).unwrap(), before, "{address}");
            assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 0);
            // Every command still works.
            t.pass("2026-11-05");
            assert_eq!(t.run(&["games"]).code, 0);
        }
    }
}

#[test]
fn an_order_letter_is_no_letter_to_accept_and_nothing_recurses() {
    for lang in ["en", "ru"] {
        let mut t = opened(&Cup::new().in_language(lang));
        // The arbiter's letter accepting itself (it is the 2nd letter), and
        // two accepting each other (the 3rd and 4th).
        let own = "mid:letter-2-2026-11-04@test.example";
        let (third, fourth) = (
            "mid:letter-3-2026-11-05@test.example",
            "mid:letter-4-2026-11-05@test.example",
        );
        let word = if lang == "ru" {
            "ПРИНЯТЬ"
        } else {
            "ACCEPT"
        };
        let mail = t.exchange(ARBITER, "2026-11-04", "Re: x", &format!("{word} {own}\n"));
        assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{lang}");
        // Not found yet as a key (it is being read): answered with where keys are.
        t.letter(
            ARBITER,
            "2026-11-05",
            "Re: x",
            &format!("{word} {fourth}\n"),
        );
        t.letter(ARBITER, "2026-11-05", "Re: x", &format!("{word} {third}\n"));
        let out = t.run(&["poll", "--today", "2026-11-05"]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        t.new_mail();
        // Now every one of them is stored: accepting them again, by letter
        // and by command, is refused as a letter of orders.
        for key in [own, third, fourth] {
            t.letter(ARBITER, "2026-11-06", "Re: x", &format!("{word} {key}\n"));
        }
        let out = t.run(&["poll", "--today", "2026-11-06"]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        let mail = t.new_mail();
        assert_eq!(kinds(&mail), vec![pair("refused", ARBITER); 3], "{lang}");
        let said = match lang {
            "ru" => "содержит распоряжения, а не письмо участника",
            _ => "is a letter of orders, not a player's letter",
        };
        for refusal in &mail {
            assert!(refusal.body.contains(said), "{}", refusal.body);
        }
        for key in [own, third] {
            let out = t.run(&["accept", key, "--today", "2026-11-06"]);
            assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
            assert!(out.stderr.contains(said), "{}", out.stderr);
        }
        // Nothing was set aside, and the game is as it was.
        assert!(
            t.run(&["retry"]).stdout.contains("no letter is set aside"),
            "{lang}"
        );
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
    }
}

#[test]
fn a_senders_own_authentication_results_below_the_servers_counts_for_nothing() {
    for lang in ["en", "ru"] {
        let mut t = Cup::new().in_language(lang).secured().open();
        delivered(
            &mut t,
            "dkim=pass header.d=test.example",
            message(WHITE, CLERK, "2026-11-03", "Game 1", W1, "", 1),
        );
        t.pass("2026-11-03");
        assert_eq!(
            kinds(&t.new_mail()),
            [pair("ack", WHITE), pair("forward", BLACK)]
        );
        // The server found no signature; the sender wrote his own pass
        // below its Received: line.
        delivered(
            &mut t,
            "dkim=none",
            message(
                ARBITER,
                CLERK,
                "2026-11-04",
                "Re: [T #1]",
                "FORFEIT 1 WHITE\n",
                PASS,
                2,
            ),
        );
        let pass = t.pass("2026-11-04");
        assert!(pass.did(EventKind::Forged), "{}", pass.log());
        assert_eq!(t.chart("1")["status"], "active", "{lang}");
        assert_eq!(t.chart("1")["result"], serde_json::Value::Null);
        let mail = t.new_mail();
        assert_eq!(kinds(&mail), [pair("unverified", ARBITER)], "{lang}");
        // The same letter with the server's own pass on top is carried out.
        delivered(
            &mut t,
            "dkim=pass header.d=test.example",
            message(
                ARBITER,
                CLERK,
                "2026-11-05",
                "Re: [T #1]",
                "FORFEIT 1 WHITE\n",
                "",
                3,
            ),
        );
        t.pass("2026-11-05");
        assert_eq!(t.chart("1")["result"], "0-1", "{lang}");
    }
}

#[test]
fn a_today_after_the_machines_date_changes_nothing_without_future() {
    let mut t = Tournament::new();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    t.letter(BLACK, "2026-11-07", "Re: [T #1] 1. e4", B1);
    t.pass("2026-11-07");
    t.new_mail();
    let commands: [&[&str]; 4] = [
        &["result", "1", "1/2", "--today", "2062-11-05"],
        &["poll", "--today", "2062-11-05"],
        &["undo", "1", "--today", "2062-11-05"],
        &["forfeit", "1", "white", "--today", "2062-11-05"],
    ];
    for command in commands {
        let out = t.run_as_given(command);
        assert_eq!(out.code, 2, "{command:?}: {}", out.stderr);
        assert!(
            out.stderr
                .contains("--today 2062-11-05 is after this machine's date")
                && out.stderr.contains("--future"),
            "{}",
            out.stderr
        );
    }
    assert!(t.new_mail().is_empty(), "nobody was mailed");
    assert_eq!(t.chart("1")["status"], "active");
    // A day of the past is still the director's to give, and a command
    // that only shows the record may look ahead.
    let out = t.run_as_given(&["poll", "--today", "2026-11-08"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = t.run_as_given(&["games", "--today", "2062-11-05"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // With --future it is meant.
    let out = t.run_as_given(&["--future", "poll", "--today", "2027-11-05"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(t.chart("1")["status"], "suspended");
}

#[test]
fn the_files_with_players_secrets_are_0600_whatever_the_umask_and_never_a_link() {
    use std::os::unix::fs::PermissionsExt;
    let mut t = Tournament::new();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    let shtempel = env!("CARGO_BIN_EXE_shtempel");
    let config = t.path().join("shtempel.toml");
    let run = |args: &str| {
        std::process::Command::new("sh")
            .arg("-c")
            .arg(format!(
                "umask 000; exec '{shtempel}' --config '{}' --future {args}",
                config.display()
            ))
            .output()
            .unwrap()
    };
    let out = run("poll --today 2026-11-03");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(t.path()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with("db.sqlite") {
            let mode = entry.metadata().unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "{name}: {mode:o}");
            seen.push(name);
        }
    }
    assert!(seen.contains(&"db.sqlite".to_string()), "{seen:?}");
    assert!(
        seen.len() >= 2,
        "the database and what is beside it: {seen:?}"
    );
    // A link planted where a file beside the database goes is refused,
    // and what it points to is untouched.
    let t = Tournament::new();
    let target = t.path().join("elsewhere");
    std::fs::write(&target, "mine").unwrap();
    let refused = |planted: &str| {
        let link = t.path().join(planted);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let out = t.run(&["poll", "--today", "2026-11-03"]);
        assert_ne!(out.code, 0, "{planted}");
        assert!(
            out.stderr.contains("symbolic link"),
            "{planted}: {}",
            out.stderr
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine");
        std::fs::remove_file(&link).unwrap();
    };
    refused("db.sqlite");
    t.pass("2026-11-03");
    for planted in ["db.sqlite-wal", "db.sqlite-shm", "db.sqlite.lock"] {
        refused(planted);
    }
}

#[test]
fn forged_letters_cost_one_notice_a_day_and_never_hold_back_a_real_answer() {
    for lang in ["en", "ru"] {
        let mut t = Cup::new().in_language(lang).secured().open();
        let mut seq = 0;
        let mut next = || {
            seq += 1;
            seq
        };
        for _ in 0..100 {
            let letter = message(WHITE, CLERK, "2026-11-03", "Game 1", W1, "", next());
            delivered(&mut t, "dkim=none", letter);
        }
        for _ in 0..30 {
            let letter = message(
                ARBITER,
                CLERK,
                "2026-11-03",
                "Re: [T #1]",
                "FORFEIT 1 WHITE\n",
                "",
                next(),
            );
            delivered(&mut t, "dkim=none", letter);
        }
        let pass = t.pass("2026-11-03");
        assert_eq!(pass.count(EventKind::Forged), 130, "{lang}");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("unverified", WHITE), pair("unverified", ARBITER)],
            "{lang}"
        );
        let said = match lang {
            "ru" => "не чаще раза в день",
            _ => "at most once a day",
        };
        assert!(mail[0].body.contains(said), "{}", mail[0].body);
        assert!(
            mail[0].subject.contains(match lang {
                "ru" => "письмо с вашего адреса не принято",
                _ => "a letter under your address was not taken",
            }),
            "{}",
            mail[0].subject
        );
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 0);
        // His own, authenticated letter the same day (an illegal move) is
        // answered that day, and so is the next day's: nothing queued.
        let illegal = "Game 1\n1. e5\nTime: 2/0\nDates: 2026-11-03\n";
        let letter = message(WHITE, CLERK, "2026-11-03", "Game 1", illegal, "", next());
        delivered(&mut t, "dkim=pass header.d=test.example", letter);
        t.pass("2026-11-03");
        let mail = t.new_mail();
        assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{lang}");
        assert!(!mail[0].body.contains("held until"), "{}", mail[0].body);
        for _ in 0..20 {
            let letter = message(WHITE, CLERK, "2026-11-04", "Game 1", W1, "", next());
            delivered(&mut t, "dkim=none", letter);
        }
        let letter = message(WHITE, CLERK, "2026-11-04", "Game 1", illegal, "", next());
        delivered(&mut t, "dkim=pass header.d=test.example", letter);
        t.pass("2026-11-04");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("unverified", WHITE), pair("refused", WHITE)],
            "{lang}: one notice on the new day, and his answer at once"
        );
        assert!(!mail[1].body.contains("held until"), "{}", mail[1].body);
        // Nothing waits in the outbox for a later day.
        t.pass("2026-11-05");
        assert!(t.new_mail().is_empty(), "{lang}");
    }
}

#[test]
fn names_and_leaves_nobody_means_are_refused_and_today_days_is_bounded() {
    for lang in ["en", "ru"] {
        let cup = Cup::new()
            .in_language(lang)
            .rules("leave_days_per_year = 12");
        let mut t = opened(&cup);
        // A leave running past the tournament's last day (2028-11-01).
        let leave = match lang {
            "ru" => "ОТПУСК 25.10.2028 - 05.11.2028\n",
            _ => "LEAVE 25.10.2028 - 05.11.2028\n",
        };
        let mail = t.exchange(WHITE, "2026-11-04", "Leave", leave);
        assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{lang}");
        let said = match lang {
            "ru" => {
                "турнир заканчивается 01.11.2028: отпуск должен закончиться не позднее этого дня"
            }
            _ => "the tournament ends on 2028-11-01: a leave ends on or before that day",
        };
        assert!(mail[0].body.contains(said), "{}", mail[0].body);
        assert!(
            t.run(&["today", "--json", "--today", "2026-11-05"])
                .stdout
                .contains("leave refused")
        );
        // A newcomer's name that turns the text around, or has a NUL, or
        // is 200 KB: refused, the file as it was.
        let file = t.path().join("shtempel.toml");
        let before = std::fs::read_to_string(&file).unwrap();
        let long = "x".repeat(200_000);
        for name in ["Sidorov \u{202E}S.", "Sid\0orov", long.as_str()] {
            let order = format!("REPLACE white {name} <newcomer@test.example>\n");
            let mail = t.exchange(ARBITER, "2026-11-05", "Replace", &order);
            assert_eq!(
                kinds(&mail),
                [pair("refused", ARBITER)],
                "{lang} {}",
                name.len()
            );
            let said = match lang {
                "ru" => "такое имя новичка не может быть именем участника",
                _ => "the newcomer's name cannot be a player's",
            };
            assert!(
                mail[0].body.contains(said),
                "{}",
                &mail[0].body[..300.min(mail[0].body.len())]
            );
            assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
        }
        // And by command.
        let out = t.run(&[
            "replace",
            "white",
            "--by",
            "Sidorov \u{202E}S. <newcomer@test.example>",
            "--today",
            "2026-11-05",
        ]);
        assert_eq!(out.code, 2, "{}", out.stderr);
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    }
    let t = Tournament::new();
    let out = t.run(&["today", "--days", "4000000000"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("3660"), "{}", out.stderr);
    assert!(!out.stderr.contains("internal error"), "{}", out.stderr);
}

/// What the database holds of its letters, in bytes, field by field.
fn letters_bytes(t: &Tournament) -> i64 {
    let conn = rusqlite::Connection::open(t.path().join("db.sqlite")).unwrap();
    conn.query_row(
        "SELECT sum(length(dedup_key) + length(coalesce(message_id, '')) + length(source_key)
                   + length(arrived) + length(postmark) + length(coalesce(sender, ''))
                   + length(coalesce(game_id, '')) + length(disposition) + length(reason)
                   + length(coalesce(parse, '')) + length(raw))
         FROM letters",
        [],
        |row| row.get(0),
    )
    .unwrap()
}

#[test]
fn a_strangers_huge_header_fields_cost_the_letter_a_bounded_record_and_log_line() {
    // (60,000: mail-parser reads no address of 64 KiB; one of 60,000 bytes it
    // reads, and the old clerk kept and printed it twice.)
    let huge = "x".repeat(60_000);
    let letters = [
        // A 60 KB address; a 60 KB display name, subject and Message-ID.
        format!(
            "Received: from mx by mail; Tue, 03 Nov 2026 12:00:00 +0300\r\nFrom: {huge}@evil.example\r\n\
             To: {CLERK}\r\nSubject: hello\r\nMessage-ID: <a@evil.example>\r\n\r\nhi\r\n"
        ),
        format!(
            "Received: from mx by mail; Tue, 03 Nov 2026 12:00:00 +0300\r\nFrom: \"{huge}\" <b@evil.example>\r\n\
             To: {CLERK}\r\nSubject: {huge}\r\nMessage-ID: <{huge}@evil.example>\r\n\r\nhi\r\n"
        ),
    ];
    for letter in letters {
        let mut t = Tournament::new();
        t.pass("2026-11-02");
        t.deliver_raw(letter.as_bytes());
        let out = t.poll("2026-11-03");
        assert!(t.new_mail().is_empty());
        // The letter is kept whole (the director may take it as a
        // player's); its fields beside it are bounded.
        let kept = letters_bytes(&t);
        let whole = i64::try_from(letter.len()).unwrap();
        assert!(
            kept < whole + 4 * 1024,
            "{kept} bytes of database for one stranger's letter of {whole}"
        );
        let logged: Vec<&str> = out
            .stdout
            .lines()
            .filter(|l| l.starts_with("ignored"))
            .collect();
        assert_eq!(
            logged.len(),
            1,
            "{}",
            &out.stdout[..out.stdout.len().min(2000)]
        );
        assert!(logged[0].len() <= 1024, "{} bytes of log", logged[0].len());
        assert!(
            out.stdout.len() + out.stderr.len() < 2048,
            "{} bytes printed",
            out.stdout.len()
        );
        // The same forged under a player's address, with [security]: bounded too.
        let mut t = Cup::new().secured().open();
        let forged = letter
            .replace(&format!("{huge}@evil.example\r\n"), &format!("{WHITE}\r\n"))
            .replace("<b@evil.example>", &format!("<{WHITE}>"));
        t.deliver_raw(forged.as_bytes());
        let out = t.poll("2026-11-03");
        // (A 64 KB display name is no address mail-parser reads: that letter
        // is ignored as having no sender.)
        let told = t.new_mail();
        assert!(
            told.len() <= 1 && told.iter().all(|m| m.kind == "unverified"),
            "{:?}",
            kinds(&told)
        );
        let kept = letters_bytes(&t);
        assert!(
            kept < 4 * 1024,
            "{kept} bytes of database for one forged letter"
        );
        assert!(
            out.stdout.len() < 1024,
            "{} bytes printed",
            out.stdout.len()
        );
    }
}

#[test]
fn a_letter_that_asks_several_things_has_each_carried_out_or_refused_and_said() {
    for lang in ["en", "ru"] {
        let says = |en, ru| pick(lang, en, ru);
        // A move and a leave: both carried out, each answered.
        let cup = Cup::new()
            .in_language(lang)
            .rules("leave_days_per_year = 12");
        let mut t = opened(&cup);
        let leave = says(
            "LEAVE 10.11.2026 - 20.11.2026",
            "ОТПУСК 10.11.2026 - 20.11.2026",
        );
        let mail = black_answers(&mut t, leave);
        assert_eq!(
            kinds(&mail),
            [
                pair("ack", BLACK),
                pair("forward", WHITE),
                pair("leave-notice", WHITE),
                pair("leave", BLACK)
            ],
            "{lang}"
        );
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2, "{lang}");
        mail[0].says(says(
            "The leave asked in the same letter is answered in a message of its own.",
            "На просьбу об отпуске в том же письме секретарь отвечает отдельным письмом.",
        ));
        // The partner's notice speaks of the game after the move: Black,
        // who has moved, is not said to be the one to move (White's last
        // day waits for the forward's delivery, so none is said).
        let notice = &mail[2].body;
        assert!(
            notice.contains(says(
                "Black Player, is on leave from 2026-11-10",
                "Black Player"
            )) && !notice.contains(says("Black Player is to move", "Ходит Black Player")),
            "{notice}"
        );

        // A move and a leave the tournament does not grant: the move taken,
        // the leave refused by itself, the refusal not claiming the move
        // was not forwarded.
        let mut t = opened(&Cup::new().in_language(lang));
        let mail = black_answers(&mut t, leave);
        assert_eq!(
            kinds(&mail),
            [
                pair("ack", BLACK),
                pair("forward", WHITE),
                pair("refused", BLACK)
            ],
            "{lang}"
        );
        let refusal = &mail[2].body;
        assert!(
            refusal.contains(says(
                "the leave asked in your letter could not be granted",
                "Отпуск, о котором вы просите в письме, не может быть предоставлен"
            )),
            "{refusal}"
        );
        assert!(
            !refusal.contains(says("Nothing has been forwarded", "никуда не переслано")),
            "{refusal}"
        );

        // A move and a draw offer: both go to the partner, and the receipt
        // says so of both.
        let mut t = opened(&Cup::new().in_language(lang));
        let offer = says("I offer a draw", "Предлагаю ничью");
        let mail = black_answers(&mut t, offer);
        assert_eq!(kinds(&mail), [pair("ack", BLACK), pair("forward", WHITE)]);
        mail[0].says(says(
            "Your move has been passed on to White Player, with your draw offer.",
            "Ваш ход переслан партнёру (White Player) вместе с предложением ничьей.",
        ));
        mail[1].says(says(
            "Black Player offers a draw",
            "Black Player предлагает ничью",
        ));

        // A move and a player's order: the move taken, the order named as
        // not carried out in his receipt.
        let mut t = Cup::new().in_language(lang).open();
        let mail = t.exchange(
            WHITE,
            "2026-11-03",
            "Game 1",
            &format!("{W1}RESULT 1 1-0\n"),
        );
        assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
        mail[0].says(says(
            "the order RESULT 1 1-0: orders are carried out only from the chief arbiter's address",
            "распоряжение RESULT 1 1-0: распоряжения выполняются только с адреса главного судьи",
        ));
        mail[0].never_says(says("Everything is in order", "Всё в порядке"));
        assert_eq!(t.chart("1")["result"], serde_json::Value::Null);

        // A resignation with a move: the game resigned, the move named as
        // not played.
        let resign = says("I resign", "Сдаюсь");
        let mail = t.exchange(
            BLACK,
            "2026-11-07",
            "Re: [T #1] 1. e4",
            &format!("{B1}{resign}\n"),
        );
        assert_eq!(t.chart("1")["result"], "1-0", "{lang}");
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
        let result = mail
            .iter()
            .find(|m| m.kind == "result" && m.to == [BLACK])
            .expect("result");
        result.says(says(
            "the move written in the letter (e5): the same letter resigns the game",
            "ход, записанный в письме (e5): в том же письме партия сдана",
        ));

        // The chief arbiter's letter of two orders: neither carried out,
        // both named.
        let mut t = opened(&Cup::new().in_language(lang));
        let mail = t.exchange(
            ARBITER,
            "2026-11-04",
            "Re: [T #1]",
            "RESULT 1 1-0\nFORFEIT 1 BLACK\n",
        );
        assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{lang}");
        mail[0].says(says(
            "none of them has been carried out",
            "ни одно не исполнено",
        ));
        mail[0].says("RESULT 1 1-0; FORFEIT 1 BLACK");
        assert_eq!(t.chart("1")["result"], serde_json::Value::Null);
        assert_eq!(t.chart("1")["status"], "active");
    }
}

#[test]
fn the_servers_verdict_is_read_by_its_grammar_forged_forms_refused_genuine_ones_obeyed() {
    let ours = |field: &str| format!("Authentication-Results: {field}\r\n");
    // Each forged form as an attacker gets our server to write it, or
    // writes it himself; each once obeyed by the string matching before.
    let forged = [
        ours(
            "mx.test.example; spf=pass smtp.mailfrom=\"x;dkim=pass header.d=test.example\"@evil.example",
        ),
        ours(
            "mx.test.example; dkim=fail (key; dkim=pass header.d=test.example) header.d=evil.example",
        ),
        ours("mx.test.example; dkim=fail reason=\"bad; dkim=pass header.d=test.example\""),
        ours("mx.test.example; spf=none smtp.helo=\"x;dkim=pass header.d=test.example\""),
        ours("mx.test.example; dkim=pass header.d=evil.example smtp.mailfrom=arbiter@test.example"),
        ours("dkim=pass header.d=test.example"),
    ];
    // The genuine ones refused before: folded with a comment holding a
    // semicolon; OpenDMARC's field above OpenDKIM's under Dovecot's LMTP
    // hop; a version number and spaces around `=`. Each letter signed.
    let receipt = "Received: from mail.test.example by mx.test.example (Postfix) with ESMTPS id 1; Wed, 04 Nov 2026 12:00:00 +0300\r\n";
    let genuine = [
        ours("mx.test.example;\r\n\tdkim=pass (2048-bit key; unprotected) header.d=test.example\r\n\theader.i=@test.example header.b=\"Ab/+Cd\"") + SIGNATURE,
        "Received: from mx.test.example by imap.test.example with LMTP id 2; Wed, 04 Nov 2026 12:00:01 +0300\r\n".to_string()
            + &ours("mx.test.example; dmarc=pass (p=reject dis=none) header.from=test.example")
            + &ours("mx.test.example; dkim=pass header.d=test.example header.s=mail")
            + receipt
            + SIGNATURE,
        ours("mx.test.example 1; dkim = pass header.d = test.example") + SIGNATURE,
    ];
    for lang in ["en", "ru"] {
        let mut seq = 0;
        let mut forfeit = |t: &mut Tournament, on_top: &str, game: u32| {
            seq += 1;
            let letter = message(
                ARBITER,
                CLERK,
                "2026-11-04",
                &format!("Re: [T #{game}]"),
                &format!("FORFEIT {game} WHITE\n"),
                "",
                seq,
            );
            t.deliver_raw(format!("{on_top}{letter}").as_bytes());
        };
        let mut t = Cup::new()
            .in_language(lang)
            .game("2", "white", "black")
            .game("3", "white", "black")
            .secured()
            .open();
        for field in &forged {
            forfeit(&mut t, field, 1);
        }
        let pass = t.pass("2026-11-04");
        assert_eq!(
            pass.count(EventKind::Forged),
            forged.len(),
            "{lang}: {}",
            pass.log()
        );
        assert_eq!(t.chart("1")["result"], serde_json::Value::Null, "{lang}");
        assert_eq!(
            kinds(&t.new_mail()),
            [pair("unverified", ARBITER)],
            "{lang}"
        );
        for (game, on_top) in (1..).zip(&genuine) {
            forfeit(&mut t, on_top, game);
        }
        let pass = t.pass("2026-11-04");
        assert_eq!(pass.count(EventKind::Forged), 0, "{lang}: {}", pass.log());
        for game in ["1", "2", "3"] {
            assert_eq!(t.chart(game)["result"], "0-1", "{lang}: game {game}");
        }
    }
}

#[test]
fn a_player_cannot_make_the_overstep_file_too_big_to_send() {
    // 76 characters a line, as a mail program wraps text: a letter just
    // under the 1 MB it may have.
    let padding = "All work and no play makes Jack a dull boy. All work and no play makes Jac\n"
        .repeat(13_000);
    let sizes = regex::Regex::new(r"(letter-\d+-2026-11-05\.eml): \S+ \S+, [^,]+, (\d+) ").unwrap();
    for lang in ["en", "ru"] {
        let mut t = Cup::new().in_language(lang).open();
        t.letter(WHITE, "2026-11-03", "Game 1", W1);
        t.poll("2026-11-03");
        for _ in 0..25 {
            let body = format!("Game 1\nStill thinking about it.\nTime: 2/2\n{padding}");
            t.letter(BLACK, "2026-11-05", "Re: [T #1] 1. e4", &body);
        }
        t.poll("2026-11-05");
        t.new_mail();
        // Black never answers: an overstep by silence.
        t.poll("2026-12-26");
        let mail = t.new_mail();
        let file = mail
            .iter()
            .find(|m| m.kind == "overstep-file")
            .unwrap_or_else(|| panic!("{lang}: no file in {:?}", kinds(&mail)));
        assert_eq!(file.to, [ARBITER]);
        assert!(
            file.raw.len() <= 10_240_000,
            "{lang}: the file is {} bytes, past what the server takes",
            file.raw.len()
        );
        let letters: Vec<&str> = file
            .attachments
            .iter()
            .map(|(name, _, _)| name.as_str())
            .filter(|name| name.starts_with("letter-"))
            .collect();
        assert!(
            (5..25).contains(&letters.len()),
            "{lang}: {} letters attached",
            letters.len()
        );
        // The newest letters went in; the game and the chart always do.
        assert_eq!(letters.last(), Some(&"letter-25-2026-11-05.eml"), "{lang}");
        for other in ["game-1.pgn", "chart-1.txt", "chart-1.csv", "chart-1.svg"] {
            assert!(
                file.attachments.iter().any(|(name, _, _)| name == other),
                "{lang}: {other}"
            );
        }
        let left_out = 25 - letters.len();
        file.says(&format!(
            "{} {} 25 ",
            letters.len(),
            pick(lang, "of the", "из")
        ));
        file.says(pick(
            lang,
            &format!("the 10000 KB the mail server takes: {left_out} letter(s)"),
            &format!("превысило 10000 КБ, которые принимает почтовый сервер, писем: {left_out}"),
        ));
        file.says("shtempel letters 1 --out");
        file.says(&format!(
            "  - letter-01-2026-11-05.eml: {} {BLACK}, ",
            pick(lang, "from", "от")
        ));
        file.says(pick(
            lang,
            "KB; the clerk read: 2/2",
            "КБ; секретарь прочёл: 2/2",
        ));
        // The director gives the arbiter all of them.
        let out = t.path().join("for-the-arbiter");
        let run = t.run(&["letters", "1", "--out", out.to_str().unwrap()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            run.stdout.contains("26 letter(s) of game 1 written"),
            "{}",
            run.stdout
        );
        let black = std::fs::read(out.join("black/letter-01-2026-11-05.eml")).unwrap();
        assert!(String::from_utf8_lossy(&black).contains("Still thinking about it."));
        assert!(out.join("black/letter-25-2026-11-05.eml").exists());
        // Each size the file gives is the letter's own.
        let listed: Vec<_> = sizes.captures_iter(&file.body).collect();
        assert_eq!(listed.len(), left_out, "{lang}");
        for found in listed {
            let bytes = std::fs::metadata(out.join("black").join(&found[1]))
                .unwrap()
                .len();
            assert_eq!(
                found[2].parse::<u64>().unwrap(),
                bytes.div_ceil(1024),
                "{lang}"
            );
        }
        assert!(out.join("white/letter-01-2026-11-03.eml").exists());
    }
}

#[test]
fn a_refused_order_says_its_line_back_bounded_and_neutralised() {
    let mut t = Tournament::new();
    let name = "N".repeat(200_000);
    let mail = t.exchange(
        ARBITER,
        "2026-11-03",
        "Re: [T #1]",
        &format!("REPLACE white {name}\u{202e}x <new@test.example>\n"),
    );
    assert_eq!(
        kinds(&mail),
        [pair("refused", ARBITER)],
        "{:?}",
        kinds(&mail)
    );
    assert!(mail[0].raw.len() < 20_000, "{} bytes", mail[0].raw.len());
    assert!(!mail[0].body.contains('\u{202e}'));
    mail[0].says("bytes in all)");
}

//! Loops, floods, hostile input and forged senders, through `poll`.

use crate::support::*;

#[test]
fn rfc_3834_matrix_no_reply_no_change_one_line() {
    // (headers or sender, reason words in the log line)
    let table: &[(&str, &str, &str)] = &[
        ("Auto-Submitted: auto-replied\r\n", WHITE, "Auto-Submitted"),
        (
            "Auto-Submitted: auto-generated\r\n",
            WHITE,
            "Auto-Submitted",
        ),
        (
            "Auto-Submitted: auto-notified; owner-email=x@y\r\n",
            WHITE,
            "Auto-Submitted",
        ),
        (
            "Auto-Submitted: something-else\r\n",
            WHITE,
            "Auto-Submitted",
        ),
        ("Precedence: bulk\r\n", WHITE, "Precedence"),
        ("Precedence: junk\r\n", WHITE, "Precedence"),
        ("Precedence: list\r\n", WHITE, "Precedence"),
        ("List-Id: <chess.lists.example>\r\n", WHITE, "List-Id"),
        (
            "List-Unsubscribe: <mailto:x@y>\r\n",
            WHITE,
            "List-Unsubscribe",
        ),
        ("List-Post: <mailto:x@y>\r\n", WHITE, "List-Post"),
        ("Return-Path: <>\r\n", WHITE, "bounce"),
        ("", "MAILER-DAEMON@test.example", "robot"),
        ("", "owner-chess@test.example", "robot"),
        ("", "chess-request@test.example", "robot"),
        ("X-Loop: clerk@test.example\r\n", WHITE, "X-Loop"),
        // The responders that write no RFC 3834 field.
        ("X-Autorespond: vacation\r\n", WHITE, "X-Autorespond"),
        ("X-Precedence: auto_reply\r\n", WHITE, "X-Precedence"),
        ("X-Autoreply: yes\r\n", WHITE, "X-Autoreply"),
        (
            "X-Auto-Response-Suppress: All\r\n",
            WHITE,
            "X-Auto-Response-Suppress",
        ),
        (
            "X-Auto-Response-Suppress: OOF, AutoReply, DR, NDR, RN, NRN\r\n",
            WHITE,
            "X-Auto-Response-Suppress",
        ),
        ("X-Mailer: vacation\r\n", WHITE, "X-Mailer: vacation"),
        ("X-Apple-Action: VACATION\r\n", WHITE, "iCloud's vacation"),
        ("X-Shtempel-Kind: forward\r\n", WHITE, "our own messages"),
    ];
    for (headers, from, words) in table {
        let mut t = Tournament::new();
        t.letter_with(from, "2026-11-03", "Game 1", W1, headers);
        let out = t.poll("2026-11-03");
        assert!(t.new_mail().is_empty(), "{headers:?} {from}: no reply");
        assert_eq!(
            t.chart("1")["moves"].as_array().unwrap().len(),
            0,
            "{headers:?}: no state change"
        );
        let lines: Vec<&str> = out
            .stdout
            .lines()
            .filter(|l| l.starts_with("ignored"))
            .collect();
        assert_eq!(lines.len(), 1, "{headers:?}: one log line: {}", out.stdout);
        assert!(lines[0].contains(words), "{headers:?}: {}", lines[0]);
    }
    // A delivery report (multipart/report) from a real-looking server.
    let mut t = Tournament::new();
    let report = format!(
        "Received: x; Tue, 03 Nov 2026 12:00:00 +0300\r\nFrom: {WHITE}\r\nTo: {CLERK}\r\nSubject: Delivery Status\r\nMessage-ID: <r@x>\r\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n{W1}\r\n--b--\r\n"
    );
    t.deliver_raw(report.as_bytes());
    let out = t.poll("2026-11-03");
    assert!(out.stdout.contains("multipart/report"), "{}", out.stdout);
    assert!(t.new_mail().is_empty());
    // Our own reply fed back to us: recognised, never answered.
    let mut t = Tournament::new();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.poll("2026-11-03");
    let ours = std::fs::read(
        std::fs::read_dir(t.path().join("outbox"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|path| path.extension().is_some_and(|ext| ext == "eml"))
            .unwrap(),
    )
    .unwrap();
    t.new_mail();
    let mut fed_back = b"Received: x; Wed, 04 Nov 2026 12:00:00 +0300\r\n".to_vec();
    fed_back.extend_from_slice(&ours);
    t.deliver_raw(&fed_back);
    t.poll("2026-11-04");
    assert!(t.new_mail().is_empty());
}

#[test]
fn replies_to_one_address_stop_after_the_daily_limit() {
    let mut t = Tournament::new();
    for n in 0..13 {
        t.letter(
            WHITE,
            "2026-11-03",
            "Game 1",
            &format!("Game 1\nhello {n}, what is this?\n"),
        );
    }
    let out = t.poll("2026-11-03");
    let mail = t.new_mail();
    assert_eq!(
        mail.len(),
        11,
        "ten replies, then one notice: {:?}",
        kinds(&mail)
    );
    assert!(
        mail[..10]
            .iter()
            .all(|m| m.subject.contains("letter not accepted"))
    );
    assert!(
        mail[10].subject.contains("too many letters today"),
        "{}",
        mail[10].subject
    );
    // The notice is in the game's thread, under its tag, and promises the
    // refusals still to come.
    assert!(
        mail[10].subject.starts_with("[T #1]"),
        "{}",
        mail[10].subject
    );
    assert_eq!(mail[10].game, "1");
    mail[10].says("still answered with the reason");
    assert_eq!(
        out.stdout.matches("reply-limit").count(),
        1,
        "{}",
        out.stdout
    );
    // Still read and recorded: a real move the same day is applied and forwarded.
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.poll("2026-11-03");
    assert_eq!(kinds(&t.new_mail()), [pair("forward", BLACK)]);
    // A new day, a new allowance: first the three refusals held yesterday
    // (none swallowed), then today's.
    t.letter(WHITE, "2026-11-04", "Game 1", "Game 1\nhello again\n");
    t.poll("2026-11-04");
    let next_day = t.new_mail();
    assert_eq!(kinds(&next_day), vec![pair("refused", WHITE); 4]);
    // The held ones say so and offer no lines: 1. e4 has been played since.
    for refusal in &next_day[..3] {
        refusal.says("held until 2026-11-04");
        assert!(!refusal.body.contains("<your move>"), "{}", refusal.body);
    }
    next_day[3].never_says("held until");
}

#[test]
fn hostile_letters_get_bounded_answers() {
    let mut t = Tournament::new();
    // Over max_letter_bytes (1 MB): not read, a short notice.
    let big = format!("Game 1\n1. e4\n{}\n", "x".repeat(1_100_000));
    t.letter(WHITE, "2026-11-03", "Game 1", &big);
    t.letter("stranger@elsewhere.example", "2026-11-03", "spam", &big);
    let out = t.poll("2026-11-03");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{}", out.stdout);
    assert!(mail[0].body.contains("too large"), "{}", mail[0].body);
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 0);

    // A MIME bomb under the size limit: 15,000 nested parts. It is read (no
    // "too large"); no panic, the run ends, one reply.
    let mut bomb = format!(
        "Received: x; Tue, 03 Nov 2026 12:00:00 +0300\r\nFrom: {WHITE}\r\nTo: {CLERK}\r\nSubject: bomb\r\nMessage-ID: <bomb@x>\r\n"
    );
    for depth in 0..15_000 {
        bomb.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=b{depth}\r\n\r\n--b{depth}\r\n"
        ));
    }
    bomb.push_str("Content-Type: text/plain\r\n\r\n1. e4\r\n");
    t.deliver_raw(bomb.as_bytes());
    // Encoded display name and subject that decode to CR/LF and a Bcc: header.
    let sneaky = format!(
        "Received: x; Tue, 03 Nov 2026 12:00:00 +0300\r\nFrom: =?utf-8?B?SXZhbg0KQmNjOiBldmlsQGV4YW1wbGUub3Jn?= <{WHITE}>\r\n\
         To: {CLERK}\r\nReply-To: evil@example.org\r\nSubject: =?utf-8?B?R2FtZSAxDQpCY2M6IGV2aWxAZXhhbXBsZS5vcmc=?=\r\nMessage-ID: <s@x>\r\n\r\nhello "
    );
    let mut sneaky = sneaky.into_bytes();
    sneaky.extend_from_slice(b"\xff\xfe invalid bytes\r\n");
    t.deliver_raw(&sneaky);
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert!(!out.caught_a_panic(), "{}\n{}", out.stdout, out.stderr);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let replies = t.new_mail();
    assert_eq!(
        replies.len(),
        2,
        "one answer each to the bomb and the sneaky letter: {}",
        out.stdout
    );
    assert!(
        bomb.len() < 1024 * 1024 && !out.stdout.contains("too-large"),
        "the bomb was read, not refused for its size: {}",
        out.stdout
    );
    for sent in replies {
        assert_eq!(
            sent.to,
            [WHITE],
            "replies go only to the registered address, never Reply-To"
        );
        assert!(
            !sent.headers.to_ascii_lowercase().contains("bcc:"),
            "{}",
            sent.headers
        );
        assert!(!sent.headers.contains("evil@"), "{}", sent.headers);
    }
}

#[test]
fn every_message_of_the_shared_corpus_as_a_players_letter_and_none_fails() {
    let Some(dir) = crate::support::shared_dir("corpus/mail-parser-eml") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).expect("the shared corpus");
    let mut t = Tournament::with_config(&config("", "").replace(
        "[rules]\n",
        "[limits]\nmax_replies_per_day = 1000\n\n[rules]\n",
    ));
    let mut count = 0;
    for entry in entries.flatten() {
        let raw = std::fs::read(entry.path()).unwrap();
        // The same message, coming from White: a From: line of ours in front.
        let mut letter =
            format!("Received: x; Tue, 03 Nov 2026 12:00:00 +0300\r\nFrom: {WHITE}\r\n")
                .into_bytes();
        letter.extend_from_slice(&raw);
        t.deliver_raw(&letter);
        count += 1;
    }
    assert!(count > 50, "the corpus is there: {count} messages");
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert!(!out.caught_a_panic(), "{}\n{}", out.stdout, out.stderr);
    // A caught panic is a failed letter (exit 1, nothing on stderr): not
    // one letter of the corpus may fail.
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(!out.stdout.contains("failed"), "{}", out.stdout);
    let mail = t.new_mail();
    assert!(
        !mail.is_empty() && mail.len() <= count,
        "at most one reply a letter: {} replies to {count} letters",
        mail.len()
    );
    assert!(mail.iter().all(|m| m.to == [WHITE]));
    assert_eq!(
        t.chart("1")["moves"].as_array().unwrap().len(),
        0,
        "no game changed"
    );
    eprintln!("{count} corpus messages: {} replies", mail.len());
}

fn secured(extra_security: &str, secret: &str) -> String {
    let base = config("", secret);
    base.replace(
        "[rules]\n",
        &format!("[security]\n{extra_security}\n\n[rules]\n"),
    )
}

#[test]
fn forged_senders_change_nothing() {
    let text = secured(
        "trusted_authserv_id = \"mx.test.example\"\nrequire = \"dkim\"",
        "",
    );
    let mut t = Tournament::with_config(&text);
    // No Authentication-Results, or one written by somebody else's server.
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.letter_with(
        WHITE,
        "2026-11-03",
        "Game 1",
        W1,
        "Authentication-Results: mx.evil.example; dkim=pass header.d=test.example\r\n",
    );
    t.letter_with(
        WHITE,
        "2026-11-03",
        "Game 1",
        W1,
        "Authentication-Results: mx.test.example; dkim=fail header.d=test.example\r\n",
    );
    let out = t.poll("2026-11-03");
    assert_eq!(out.stdout.matches("forged").count(), 3, "{}", out.stdout);
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("unverified", WHITE)],
        "only the claimed sender hears of it, once a day"
    );
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 0);
    // Our server vouches for the domain of the letter's signature: accepted.
    let letter = message(WHITE, CLERK, "2026-11-03", "Game 1", W1, "", 9);
    t.deliver_raw(format!("Authentication-Results: mx.test.example; spf=pass smtp.mailfrom=test.example; dkim=pass header.d=test.example\r\nDKIM-Signature: v=1; d=test.example; s=mail; b=x\r\n{letter}").as_bytes());
    t.poll("2026-11-03");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    // A forged arbiter's decision changes nothing either.
    t.poll("2026-12-26");
    t.new_mail();
    assert_eq!(t.chart("1")["status"], "suspended");
    t.letter(ARBITER, "2026-12-27", "Re: [T #1]", "CONFIRM 1\n");
    t.letter(ARBITER, "2026-12-27", "Re: [T #1]", "RESULT 1 1/2\n");
    t.letter(ARBITER, "2026-12-27", "Re: [T #1]", "FORFEIT 1 BLACK\n");
    let out = t.poll("2026-12-27");
    assert_eq!(out.stdout.matches("forged").count(), 3, "{}", out.stdout);
    assert_eq!(t.chart("1")["status"], "suspended");
    assert_eq!(t.chart("1")["result"], serde_json::Value::Null);
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("unverified", ARBITER)]);
}

#[test]
fn a_players_secret_word_is_required_and_never_repeated() {
    let text = secured("", "secret = \"ладья-42\"");
    let mut t = Tournament::with_config(&text);
    t.letter(WHITE, "2026-11-02", "Game 1", W1);
    let out = t.poll("2026-11-02");
    assert_eq!(out.stdout.matches("forged").count(), 1, "{}", out.stdout);
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("unverified", WHITE)]);
    mail[0].says("your secret word is missing from it");
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        &format!("{W1}Secret: ферзь\n"),
    );
    let out = t.poll("2026-11-03");
    assert_eq!(out.stdout.matches("forged").count(), 1, "{}", out.stdout);
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("unverified", WHITE)]);
    mail[0].says("the secret word in it is wrong");
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        &format!("{W1}Secret: ладья-42\n"),
    );
    t.poll("2026-11-03");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
    // An overstep file: White's letters attached without the word.
    t.poll("2026-12-24");
    let all = t.outbox();
    let file = all
        .iter()
        .find(|m| m.kind == "overstep-file")
        .expect("overstep file");
    for (_, _, bytes) in &file.attachments {
        assert!(
            !String::from_utf8_lossy(bytes).contains("ладья-42"),
            "the secret was filed"
        );
    }
    for sent in &all {
        assert!(
            !sent.body.contains("ладья-42"),
            "the secret was echoed in {}",
            sent.kind
        );
    }
}

/// Found by fuzzing the MIME front end: a malformed nested message that trips a
/// `debug_assert!` inside mail-parser. A debug build panics there; the clerk
/// catches it around the letter, retries on later runs and then quarantines it.
/// A release build reads it. Either way nothing crashes and nothing is lost.
#[test]
fn regression_mail_parser_debug_assert_is_contained() {
    let raw = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/mail/mail-parser-debug-assert.eml"),
    )
    .unwrap();
    let mut t = Tournament::new();
    let mut letter = b"Received: x; Tue, 03 Nov 2026 12:00:00 +0300\r\n".to_vec();
    letter.extend_from_slice(&raw);
    t.deliver_raw(&letter);
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    for _ in 0..3 {
        let out = t.run(&["poll", "--today", "2026-11-03"]);
        assert!(out.code == 0 || out.code == 1, "{}", out.stderr);
        // A panic, if any, is the letter's failure, said in words; none
        // stops the command.
        assert!(!out.stderr.contains(CAUGHT_PANIC[1]), "{}", out.stderr);
    }
    assert_eq!(
        t.chart("1")["moves"].as_array().unwrap().len(),
        1,
        "the good letter went through"
    );
    assert_eq!(
        std::fs::read_dir(t.path().join("inbox/new"))
            .unwrap()
            .count(),
        0,
        "done or quarantined, not stuck"
    );
}

#[test]
fn the_responders_of_real_servers_are_never_answered_a_persons_receipt_request_is() {
    // The fields each responder wrote on a real reply, from sisimai's
    // corpus of real mail (sisimai/set-of-emails, maildir/bsd/), the
    // null Return-Path of the Exchange ones left out (Exchange's own
    // sign, refused on its own since long): what decides here is the rest.
    let table: &[(&str, &str, &str)] = &[
        (
            "Exchange's out-of-office reply (rfc3834-02.eml)",
            "Subject: Automatic reply: Nyaan\r\nThread-Topic: Nyaan\r\nX-MS-Has-Attach:\r\nX-Auto-Response-Suppress: All\r\nX-MS-Exchange-Inbox-Rules-Loop: white@test.example\r\nX-MS-TNEF-Correlator:\r\n",
            "X-Auto-Response-Suppress: all",
        ),
        (
            "iCloud's vacation reply (rfc3834-03.eml)",
            "X-Apple-Criteria: {kind=VACATION,startDate=2019-11-30T15:00:00Z,endDate=2020-01-10T14:59:59Z}\r\nX-Apple-Action: VACATION\r\nX-Apple-UUID: 7e23258d-247f-479e-996d-e01f0f30af85\r\nX-Apple-Server: mr36p30ic-tygg11203501 mailgateway 1923B114\r\n",
            "iCloud's vacation",
        ),
        (
            "Mimecast's auto-response (rfc3834-06.eml)",
            "Auto-Submitted: auto-replied\r\nX-Auto-Response-Suppress: OOF, AutoReply, DR, NDR, RN, NRN\r\nPrecedence: bulk\r\n",
            "Auto-Submitted",
        ),
    ];
    for (server, fields, words) in table {
        let mut t = Tournament::new();
        t.letter_with(WHITE, "2026-11-03", "Game 1", W1, fields);
        let out = t.poll("2026-11-03");
        assert!(t.new_mail().is_empty(), "{server}: answered");
        assert!(
            out.stdout
                .lines()
                .any(|l| l.starts_with("ignored") && l.contains(words)),
            "{server}: {}",
            out.stdout
        );
    }
    // Outlook asks for no delivery and read receipts on a person's own
    // letter: his move is read and answered.
    let mut t = Tournament::new();
    t.letter_with(
        WHITE,
        "2026-11-03",
        "Game 1",
        W1,
        "X-Auto-Response-Suppress: DR, RN, NRN\r\n",
    );
    t.poll("2026-11-03");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
}

/// A player of many games is answered for the letters he is right to
/// write: the day's limit is twice his games where that is more than
/// `max_replies_per_day`; past it the notice is in the language he chose
/// and names his games, and a correction still goes.
#[test]
fn a_player_of_many_games_is_answered_in_his_language_and_his_corrections_go() {
    let mut cup = Cup::new();
    for n in 2..=7 {
        let id = format!("p{n}");
        cup = cup
            .player(&id, &format!("Player {n}"), &format!("p{n}@test.example"))
            .game(&n.to_string(), "white", &id);
    }
    let mut t = cup.open();
    t.exchange(WHITE, "2026-11-03", "language", "ЯЗЫК RU\n");
    // Seven games: fourteen answers a day. Thirteen refusals and a move
    // with a wrong fraction: all answered, no notice.
    for game in 1..=7 {
        for n in 0..2 {
            let body = match (game, n) {
                (7, 1) => "Game 7\n1. e4\nTime: 9/0\nDates: 2026-11-03\n".to_string(),
                _ => format!("Game {game}\nhello {n}, what is this?\n"),
            };
            t.letter(WHITE, "2026-11-03", &format!("Game {game}"), &body);
        }
    }
    t.poll("2026-11-03");
    let mail = t.new_mail();
    let to_white: Vec<&Sent> = mail.iter().filter(|m| m.to == [WHITE]).collect();
    assert_eq!(to_white.len(), 14, "{:?}", kinds(&mail));
    assert!(
        to_white.iter().any(|m| m.kind == "correction"),
        "{:?}",
        kinds(&mail)
    );
    assert!(
        !to_white
            .iter()
            .any(|m| m.subject.contains("too many letters")),
        "{:?}",
        kinds(&mail)
    );
    // (With the preferences' answer, 15 today.) One more: the notice, in
    // Russian, naming his games.
    let mail = t.exchange(WHITE, "2026-11-03", "Game 1", "Game 1\nhello again\n");
    // (The notice's kind header is "refused": it answers a letter.)
    assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{:?}", kinds(&mail));
    assert!(
        mail[0].subject.contains("слишком много писем за день"),
        "{}",
        mail[0].subject
    );
    mail[0].says("Секретарь ответил сегодня на 14 ваших писем");
    mail[0].says("Это касается всех ваших партий: 1, 2, 3, 4, 5, 6, 7.");
}

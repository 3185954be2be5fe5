//! Passes of the clerk over Maildirs of letters, reading what it sends from
//! its file outbox (rules.md 2.1–2.7, contract.md): in this process
//! (`t.pass`), and through the binary (`t.poll`, `t.run`) where what is
//! printed, the exit code or the command's own work (the report it
//! refreshes) is the point.

use crate::support::*;

#[test]
fn a_normal_game_with_a_correction() {
    let mut t = Tournament::new();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
    let forward = &mail[1];
    assert!(forward.body.contains("1. e4"), "{}", forward.body);
    assert!(
        forward
            .body
            .contains("Dates: 2026-11-03, 2026-11-03, <the date you send it>"),
        "prefilled lines:\n{}",
        forward.body
    );
    forward.says("You have 50 days left");
    // Headers of contract.md 4 on every message.
    for sent in &mail {
        assert!(sent.subject.starts_with("[T #1] "), "{}", sent.subject);
        assert!(sent.headers.contains("Auto-Submitted: auto-replied"));
        assert!(sent.headers.contains("X-Shtempel-Game: 1"));
        assert!(
            sent.headers
                .contains("In-Reply-To: <letter-1-2026-11-03@test.example>"),
            "{}",
            sent.headers
        );
    }

    t.letter(BLACK, "2026-11-07", "Re: [T #1] 1. e4", B1);
    t.pass("2026-11-07");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );

    // The worked example, step 3: d3 written as 10.11, postmark 12.11, time 5/4.
    t.letter(
        WHITE,
        "2026-11-12",
        "Re: [T #1] 1... e5",
        "Game 1\n2. Nf3\nTime: 5/4\nDates: 07.11, 07.11, 10.11\n",
    );
    t.pass("2026-11-12");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("correction", WHITE), pair("forward", BLACK)]
    );
    mail[0].says("2026-11-12, not 2026-11-10: +2 days");
    mail[0].says("White's total is 7, not 5");
    mail[1].says(
        "Your partner dated the letter 2026-11-10; by the postmark it was sent on 2026-11-12",
    );
    assert_eq!(t.totals("1"), (7, 4));

    // Step 4: Black answers the same day: 0 days.
    t.letter(
        BLACK,
        "2026-11-12",
        "Re: [T #1] 2. Nf3",
        "Game 1\n2... Nc6\nTime: 7/4\nDates: 12.11.2026, 12.11.2026, 12.11.2026\n",
    );
    t.pass("2026-11-12");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    let chart = t.chart("1");
    let days: Vec<u64> = chart["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["days"].as_u64().unwrap())
        .collect();
    assert_eq!(days, [2, 4, 5, 0]);
    assert_eq!(chart["moves"][2]["delivered_on"], "2026-11-12");

    // A poll with nothing new sends nothing.
    t.pass("2026-11-13");
    assert!(t.new_mail().is_empty());

    // `--json`: one object per event.
    t.letter(
        WHITE,
        "2026-11-14",
        "Re: [T #1]",
        "Game 1\n3. Bb5\nTime: 9/4\nDates: 12.11.2026, 12.11.2026, 14.11.2026\n",
    );
    let out = t.run(&["poll", "--today", "2026-11-14", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let events: Vec<serde_json::Value> = out
        .stdout
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON object per line"))
        .collect();
    let names: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["move", "sent", "sent"], "{}", out.stdout);
    assert_eq!(events[0]["game"], "1");
}

#[test]
fn omissions_then_a_penalty() {
    let mut t = Tournament::new();
    t.opening();
    t.letter(
        WHITE,
        "2026-11-09",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 4/4\n",
    );
    t.pass("2026-11-09");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("warning", WHITE), pair("forward", BLACK)]
    );
    assert!(mail[0].body.contains("only a warning"), "{}", mail[0].body);
    assert!(
        mail[0]
            .body
            .contains("Previous dates: 2026-11-07, 2026-11-07, 2026-11-09"),
        "the lines to restate:\n{}",
        mail[0].body
    );

    t.letter(
        BLACK,
        "2026-11-10",
        "Re: [T #1]",
        "Game 1\n2... Nc6\nTime: 4/5\nDates: 2026-11-09, 2026-11-09, 2026-11-10\n",
    );
    t.pass("2026-11-10");
    t.new_mail();
    // White's next letter is complete but does not restate: 6 penalty days.
    t.letter(
        WHITE,
        "2026-11-11",
        "Re: [T #1]",
        "Game 1\n3. Bb5\nTime: 5/5\nDates: 2026-11-10, 2026-11-10, 2026-11-11\n",
    );
    t.pass("2026-11-11");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("penalty", WHITE), pair("forward", BLACK)]
    );
    mail[0].says("a penalty of 6 days is added");
    assert_eq!(t.totals("1"), (11, 5));
    assert_eq!(t.chart("1")["moves"][4]["penalty"], 6);
}

#[test]
fn overstep_with_a_letter_sends_the_file() {
    let mut t = Tournament::new();
    t.opening();
    // White answers after 49 days: 2 + 49 = 51 > 50 at 2 moves.
    t.letter(
        WHITE,
        "2026-12-26",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 51/4\nDates: 2026-11-07, 2026-11-07, 2026-12-26\n",
    );
    t.pass("2026-12-26");
    let mail = t.new_mail();
    // The offender gets the overstep notice only: no receipt beside it.
    assert_eq!(
        kinds(&mail),
        [
            pair("overstep-notice", WHITE),
            pair("overstep-notice", BLACK),
            pair("overstep-file", ARBITER),
            pair("claim-notice", SECRETARY)
        ]
    );
    assert!(
        mail[0]
            .headers
            .contains("Disposition-Notification-To: clerk@test.example"),
        "registered"
    );
    assert!(
        mail[1].body.contains("2. Nf3"),
        "the partner sees the move that stands:\n{}",
        mail[1].body
    );
    let file = &mail[2];
    let names: Vec<&str> = file
        .attachments
        .iter()
        .map(|(n, _, _)| n.as_str())
        .collect();
    assert_eq!(names.len(), 6, "{names:?}");
    let plot = file
        .attachments
        .iter()
        .find(|(n, _, _)| n == "chart-1.svg")
        .unwrap_or_else(|| panic!("the chart as a picture: {names:?}"));
    assert_eq!(plot.1, "image/svg+xml");
    assert!(String::from_utf8_lossy(&plot.2).contains("Game 1: White Player v Black Player"));
    assert_eq!(
        file.attachments
            .iter()
            .filter(|(_, t, _)| t == "message/rfc822")
            .count(),
        2,
        "both of White's letters"
    );
    assert!(String::from_utf8_lossy(&file.attachments[1].2).contains("2. Nf3"));
    let pgn = file
        .attachments
        .iter()
        .find(|(n, _, _)| n.ends_with(".pgn"))
        .unwrap();
    assert!(String::from_utf8_lossy(&pgn.2).contains("1. e4"));
    let csv = file
        .attachments
        .iter()
        .find(|(n, _, _)| n.ends_with(".csv"))
        .unwrap();
    assert!(
        String::from_utf8_lossy(&csv.2)
            .contains("2,white,Nf3,2026-11-07,2026-11-07,2026-12-26,49,0,51,50,-1"),
        "{}",
        String::from_utf8_lossy(&csv.2)
    );
    assert!(file.body.contains("51 > 50"), "{}", file.body);
    assert_eq!(t.chart("1")["status"], "suspended");

    // Black's reply is held and goes to the arbiter as a supplement, not to White.
    t.letter(
        BLACK,
        "2026-12-28",
        "Re: [T #1]",
        "Game 1\n2... Nc6\nTime: 51/6\nDates: 2026-12-26, 2026-12-26, 2026-12-28\n",
    );
    t.pass("2026-12-28");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("overstep-supplement", ARBITER), pair("ack", BLACK)]
    );
    let types: Vec<&str> = mail[0]
        .attachments
        .iter()
        .map(|(_, t, _)| t.as_str())
        .collect();
    assert_eq!(
        types,
        ["message/rfc822", "image/svg+xml"],
        "the held letter and the chart as a picture"
    );
    // White, the offender, writes on regardless: his letter goes to the
    // arbiter (10.3.6), and he is told the game is suspended, with the day
    // his protest must be sent by.
    t.letter(
        WHITE,
        "2026-12-29",
        "Re: [T #1]",
        "Game 1\n3. Bb5\nTime: 51/6\n",
    );
    t.pass("2026-12-29");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("overstep-supplement", ARBITER), pair("refused", WHITE)]
    );
    mail[1].says("nobody's clock runs");
    assert!(mail[1].body.contains("by 2027-01-05"), "{}", mail[1].body);
    assert!(!mail[1].body.contains("keeps running"), "{}", mail[1].body);

    // No protest within 10 days of the notice: the arbiter is told, once.
    t.pass("2027-01-05");
    assert!(t.new_mail().is_empty());
    t.pass("2027-01-06");
    assert_eq!(kinds(&t.new_mail()), [pair("no-protest", ARBITER)]);
    t.pass("2027-01-07");
    assert!(t.new_mail().is_empty());

    // A forged decision from a player changes nothing; he is told whose
    // decisions count.
    t.letter(BLACK, "2027-01-07", "Re: [T #1]", "CONFIRM 1\n");
    t.pass("2027-01-07");
    assert_eq!(kinds(&t.new_mail()), [pair("refused", BLACK)]);
    assert_eq!(t.chart("1")["status"], "suspended");

    // The arbiter rejects: the game resumes and the held reply goes to White.
    t.letter(
        ARBITER,
        "2027-01-08",
        "Re: [T #1] overstep file",
        "REJECT 1\n",
    );
    t.pass("2027-01-08");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("decision", WHITE),
            pair("decision", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    assert_eq!(mail[0].cc, [SECRETARY]);
    mail[0].says("Your partner's reply move, held during the suspension, now passed to you:");
    mail[0].says("    2... Nc6");
    mail[0].says("You are to move: as of today, 2027-01-08,");
    mail[1].says("Your reply move, held during the suspension, now passed to White Player:");
    mail[1].says("White Player is to move: as of today, 2027-01-08,");
    mail[1].never_says("Lines for your next letter");
    let chart = t.chart("1");
    assert_eq!(chart["status"], "active");
    assert_eq!(chart["moves"][3]["delivered_on"], "2027-01-08");
}

#[test]
fn overstep_by_silence_then_confirmed() {
    let mut t = Tournament::new();
    t.opening();
    // White, with 2 days used, received 1... e5 on 7 November: 48 more days are fine.
    t.pass("2026-12-25");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("repeat", WHITE), pair("reminder", WHITE)],
        "a repeat and a reminder, no overstep yet"
    );
    t.pass("2026-12-26");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("overstep-notice", WHITE),
            pair("overstep-notice", BLACK),
            pair("overstep-file", ARBITER),
            pair("claim-notice", SECRETARY)
        ]
    );
    assert!(mail[0].headers.contains("Auto-Submitted: auto-generated"));
    assert_eq!(
        mail[2]
            .attachments
            .iter()
            .filter(|(_, t, _)| t == "message/rfc822")
            .count(),
        1
    );
    // Only the configured arbiter decides; a stranger's CONFIRM is ignored.
    t.letter(
        "someone@elsewhere.example",
        "2027-01-02",
        "CONFIRM",
        "CONFIRM 1\n",
    );
    t.letter(ARBITER, "2027-01-03", "Re: [T #1]", "CONFIRM 1\n");
    t.pass("2027-01-03");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("decision", WHITE),
            pair("decision", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    mail[0].says("The overstep is confirmed: you lose the game. Result: 0-1.");
    mail[1].says(
        "The overstep is confirmed: White Player loses the game, and you win it. Result: 0-1.",
    );
    assert_eq!(t.chart("1")["result"], "0-1");
}

#[test]
fn arbiter_continue_resumes_without_penalty() {
    let mut t = Tournament::new();
    t.opening();
    t.pass("2026-12-26");
    t.letter(ARBITER, "2027-01-03", "Re: [T #1]", "CONTINUE 1\n");
    t.pass("2027-01-03");
    let mail = t.new_mail();
    assert!(
        mail.iter()
            .any(|m| m.kind == "decision" && m.body.contains("without a penalty")),
        "{:?}",
        kinds(&mail)
    );
    assert_eq!(t.chart("1")["status"], "active");
    assert_eq!(t.totals("1"), (2, 4));
}

#[test]
fn repeat_after_40_days_and_first_move_query_after_30() {
    let mut t = Tournament::new();
    // No first move by 1 December: White is asked, Black in copy, registered.
    t.pass("2026-11-30");
    assert!(t.new_mail().is_empty());
    t.pass("2026-12-01");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("query", WHITE)]);
    assert_eq!(mail[0].cc, [BLACK]);
    assert!(mail[0].headers.contains("Disposition-Notification-To"));
    t.pass("2026-12-02");
    assert!(t.new_mail().is_empty(), "once");

    t.letter(
        WHITE,
        "2026-12-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 32/0\nDates: 2026-12-03\n",
    );
    t.pass("2026-12-03");
    t.new_mail();
    // Black has not answered 40 days after the postmark of 1. e4.
    t.pass("2027-01-11");
    let mail = t.new_mail();
    assert!(
        !mail.iter().any(|m| m.kind == "repeat"),
        "{:?}",
        kinds(&mail)
    );
    t.pass("2027-01-12");
    let mail = t.new_mail();
    let repeat = mail.iter().find(|m| m.kind == "repeat").expect("repeat");
    assert_eq!(
        (repeat.to.clone(), repeat.cc.clone()),
        (vec![BLACK.to_string()], vec![WHITE.to_string()])
    );
    repeat.says("1. e4");
    repeat.says("32/0");
}

#[test]
fn late_start_sheet_and_end_date() {
    let text = config("", "start_sheet_received = 2026-11-10")
        .replace("end_date = 2028-11-01", "end_date = 2026-12-01");
    let mut t = Tournament::with_config(&text);
    // White's sheet came on 10 November: his clock starts on the 11th.
    t.letter(
        WHITE,
        "2026-11-13",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-13\n",
    );
    t.pass("2026-11-13");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert_eq!(t.totals("1"), (2, 0));
    // Black receives it before the end date and answers after it: charged in
    // full (rules.md 2.2: only a letter delivered on or after the end date
    // costs nothing), 22 days, not the 18 up to the end date he wrote.
    t.letter(
        BLACK,
        "2026-12-05",
        "Re: [T #1]",
        "Game 1\n1... e5\nTime: 2/18\nDates: 2026-11-13, 2026-11-13, 2026-12-05\n",
    );
    t.pass("2026-12-05");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail)[0],
        pair("correction", BLACK),
        "{:?}",
        mail[0].body
    );
    mail[0].says("Black's total is 22, not 18");
    assert_eq!(t.totals("1"), (2, 22));
    // The end date has passed: the game goes to the arbiter.
    assert!(
        mail.iter()
            .any(|m| m.kind == "adjudication" && m.to == [ARBITER]),
        "{:?}",
        kinds(&mail)
    );
    assert_eq!(t.chart("1")["status"], "adjudication");
}

#[test]
fn conditional_variant_executed_and_one_that_lapses() {
    let mut t = Tournament::new();
    t.opening();
    t.letter(WHITE, "2026-11-08", "Re: [T #1]", "Game 1\n2. Nf3\nif 2... Nc6 3. Bb5\nTime: 3/4\nDates: 2026-11-07, 2026-11-07, 2026-11-08\n");
    t.pass("2026-11-08");
    let mail = t.new_mail();
    assert!(
        mail[1].body.contains("if 2... Nc6 3. Bb5"),
        "the partner sees the variant:\n{}",
        mail[1].body
    );
    // Black plays into it: Bb5 is played at once and Black is told.
    t.letter(
        BLACK,
        "2026-11-09",
        "Re: [T #1]",
        "Game 1\n2... Nc6\nTime: 3/5\nDates: 2026-11-08, 2026-11-08, 2026-11-09\n",
    );
    t.pass("2026-11-09");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", BLACK), pair("forward", WHITE)]);
    assert!(mail[0].body.contains("3. Bb5"), "{}", mail[0].body);
    mail[1].says("your reply 3. Bb5 has been played");
    let chart = t.chart("1");
    assert_eq!(chart["moves"][4]["san"], "Bb5");
    assert_eq!(
        chart["moves"][4]["days"], 0,
        "a conditional move costs nothing"
    );
    assert_eq!(chart["moves"][4]["delivered_on"], "2026-11-09");
    // Black answers the notice: his clock runs from its delivery.
    t.letter(
        BLACK,
        "2026-11-12",
        "Re: [T #1]",
        "Game 1\n3... a6\nif 4. Bxc6 dxc6\nTime: 3/8\nDates: 2026-11-09, 2026-11-09, 2026-11-12\n",
    );
    t.pass("2026-11-12");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    // White does not play into Black's variant: it lapses, nothing extra is played.
    t.letter(
        WHITE,
        "2026-11-13",
        "Re: [T #1]",
        "Game 1\n4. Ba4\nTime: 4/8\nDates: 2026-11-12, 2026-11-12, 2026-11-13\n",
    );
    t.pass("2026-11-13");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 7);
}

#[test]
fn every_notation_and_charset() {
    let mut t = Tournament::new();
    // Russian letters, KOI8-R, 8bit.
    let koi8 = b"Received: from x by y; Tue, 03 Nov 2026 12:00:00 +0300\r\nFrom: white@test.example\r\nTo: clerk@test.example\r\nSubject: =?koi8-r?B?8MHS1MnRIDE=?=\r\nMessage-ID: <koi@test>\r\nContent-Type: text/plain; charset=koi8-r\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\xf0\xc1\xd2\xd4\xc9\xd1 1\r\n1. e2-e4\r\n\xf7\xd2\xc5\xcd\xd1: 2/0\r\n\xe4\xc1\xd4\xd9: 03.11.2026\r\n";
    t.deliver_raw(koi8);
    t.pass("2026-11-03");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    // windows-1251, base64, HTML only: "Партия 1 / 1... e5 / Время: 2/4 / Даты: ..."
    let html = "<html><body><p>Партия 1</p><p>1... e5</p><p>Время: 2/4</p><p>Даты: 03.11.2026, 03.11.2026, 07.11.2026</p>\
                <blockquote>1. d4 d5</blockquote></body></html>";
    let cp1251: Vec<u8> = html
        .chars()
        .map(|c| match c {
            'А'..='я' => (c as u32 - 'А' as u32 + 0xC0) as u8,
            _ => c as u8,
        })
        .collect();
    use base64_encode as b64;
    let raw = format!(
        "Received: from x by y; Sat, 07 Nov 2026 12:00:00 +0300\r\nFrom: black@test.example\r\nTo: clerk@test.example\r\nSubject: Re: [T #1]\r\nMessage-ID: <cp@test>\r\nContent-Type: text/html; charset=windows-1251\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
        b64(&cp1251)
    );
    t.deliver_raw(raw.as_bytes());
    t.pass("2026-11-07");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    // Quoted-printable UTF-8, ICCF numeric.
    let qp = "Received: from x by y; Sun, 08 Nov 2026 12:00:00 +0300\r\nFrom: white@test.example\r\nTo: clerk@test.example\r\nSubject: Re: [T #1]\r\nMessage-ID: <qp@test>\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n=D0=9F=D0=B0=D1=80=D1=82=D0=B8=D1=8F 1\r\n2. 7163\r\n=D0=92=D1=80=D0=B5=D0=BC=D1=8F: 3/4\r\nDates: 07.11.2026, 07.11.2026, 08.11.2026\r\n";
    t.deliver_raw(qp.as_bytes());
    t.pass("2026-11-08");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    // Figurines and Russian piece letters with a capture colon.
    t.letter(
        BLACK,
        "2026-11-09",
        "Re: [T #1]",
        "Партия 1\n2... ♞c6\nВремя: 3/5\nДаты: 08.11.2026, 08.11.2026, 09.11.2026\n",
    );
    t.pass("2026-11-09");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    // A letter that also writes Black's move for him is refused whole.
    t.letter(
        WHITE,
        "2026-11-10",
        "Re: [T #1]",
        "Партия 1\n3. Сb5 a6 4. С:c6\nВремя: 4/5\nДаты: 09.11.2026, 09.11.2026, 10.11.2026\n",
    );
    t.pass("2026-11-10");
    assert_eq!(kinds(&t.new_mail()), [pair("refused", WHITE)]);
    t.letter(
        WHITE,
        "2026-11-10",
        "Re: [T #1]",
        "Партия 1\n3. Сb5\nВремя: 4/5\nДаты: 09.11.2026, 09.11.2026, 10.11.2026\n",
    );
    t.pass("2026-11-10");
    t.letter(
        BLACK,
        "2026-11-11",
        "Re: [T #1]",
        "Партия 1\n3... a6\nВремя: 4/6\nДаты: 10.11.2026, 10.11.2026, 11.11.2026\n",
    );
    t.pass("2026-11-11");
    t.letter(
        WHITE,
        "2026-11-12",
        "Re: [T #1]",
        "Партия 1\n4. С:c6 d:c6\nВремя: 5/6\nДаты: 11.11.2026, 11.11.2026, 12.11.2026\n",
    );
    t.letter(
        WHITE,
        "2026-11-12",
        "Re: [T #1]",
        "Партия 1\n4. Сb5:c6\nВремя: 5/6\nДаты: 11.11.2026, 11.11.2026, 12.11.2026\n",
    );
    t.pass("2026-11-12");
    let mail = t.new_mail();
    assert_eq!(
        mail.iter()
            .filter(|m| m.kind == "ack" || m.kind == "forward")
            .count(),
        6,
        "{:?}",
        kinds(&mail)
    );
    assert_eq!(
        mail.iter().filter(|m| m.kind == "refused").count(),
        1,
        "{:?}",
        kinds(&mail)
    );
    let sans: Vec<String> = t.chart("1")["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6"]);
}

fn base64_encode(bytes: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(TABLE[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[test]
fn illegal_ambiguous_and_out_of_turn_moves_are_refused() {
    let mut t = Tournament::new();
    t.opening();
    // (from, body, words in the refusal)
    let table = [
        (
            WHITE,
            "Game 1\n2. Ke3\nTime: 3/4\nDates: 2026-11-07, 2026-11-07, 2026-11-08\n",
            "not legal",
        ),
        (
            BLACK,
            "Game 1\n2... Nc6\nTime: 3/4\nDates: 2026-11-07, 2026-11-07, 2026-11-08\n",
            "partner's move",
        ),
        (WHITE, "Game 1\n2. Nf3 Zz9\n", "is not a move"),
        (WHITE, "Game 1\nHello, how are you?\n", "no move was found"),
    ];
    for (from, body, words) in table {
        t.letter(from, "2026-11-08", "Re: [T #1]", body);
        t.pass("2026-11-08");
        let mail = t.new_mail();
        assert_eq!(kinds(&mail), [pair("refused", from)], "{body}");
        assert!(mail[0].body.contains(words), "{body}:\n{}", mail[0].body);
        mail[0].says("What the clerk read in your letter");
    }
    assert_eq!(
        t.chart("1")["moves"].as_array().unwrap().len(),
        2,
        "nothing applied"
    );
    // Ambiguous: two knights can go to d2.
    let mut t = Tournament::new();
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. Nf3\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.letter(
        BLACK,
        "2026-11-04",
        "Re: [T #1]",
        "Game 1\n1... Nf6\nTime: 2/1\nDates: 2026-11-03, 2026-11-03, 2026-11-04\n",
    );
    t.letter(
        WHITE,
        "2026-11-05",
        "Re: [T #1]",
        "Game 1\n2. d3\nTime: 3/1\nDates: 2026-11-04, 2026-11-04, 2026-11-05\n",
    );
    t.letter(
        BLACK,
        "2026-11-06",
        "Re: [T #1]",
        "Game 1\n2... d6\nTime: 3/2\nDates: 2026-11-05, 2026-11-05, 2026-11-06\n",
    );
    t.letter(
        WHITE,
        "2026-11-07",
        "Re: [T #1]",
        "Game 1\n3. Nd2\nTime: 4/2\nDates: 2026-11-06, 2026-11-06, 2026-11-07\n",
    );
    t.pass("2026-11-07");
    let mail = t.new_mail();
    let refused = mail.last().unwrap();
    assert_eq!(refused.kind, "refused");
    assert!(refused.body.contains("Nbd2, Nfd2"), "{}", refused.body);
}

#[test]
fn automatic_mail_strangers_and_duplicates_are_ignored() {
    let mut t = Tournament::new();
    t.letter_with(
        WHITE,
        "2026-11-03",
        "Out of office",
        "I am away.\n",
        "Auto-Submitted: auto-replied\r\n",
    );
    t.letter_with(
        WHITE,
        "2026-11-03",
        "Newsletter",
        "1. e4\n",
        "Precedence: bulk\r\n",
    );
    t.letter_with(
        "MAILER-DAEMON@test.example",
        "2026-11-03",
        "Undelivered Mail",
        "1. e4\n",
        "",
    );
    t.letter_with(
        WHITE,
        "2026-11-03",
        "bounce",
        "1. e4\n",
        "Return-Path: <>\r\n",
    );
    t.letter("stranger@elsewhere.example", "2026-11-03", "Game 1", W1);
    let first = t.letter(WHITE, "2026-11-03", "Game 1", W1);
    // The same message delivered twice (same Message-ID).
    let raw = std::fs::read(&first).unwrap();
    t.deliver_raw(&raw);
    let out = t.poll("2026-11-03");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert_eq!(out.stdout.matches("ignored").count(), 5, "{}", out.stdout);
    assert_eq!(out.stdout.matches("duplicate").count(), 1, "{}", out.stdout);
    // `Auto-Submitted: no` is a person's letter and gets its answer.
    t.letter_with(
        BLACK,
        "2026-11-07",
        "Re: [T #1]",
        B1,
        "Auto-Submitted: no\r\n",
    );
    t.pass("2026-11-07");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    // Every letter is kept: all eight went from new/ to cur/.
    assert_eq!(
        std::fs::read_dir(t.path().join("inbox/new"))
            .unwrap()
            .count(),
        0
    );
    assert_eq!(
        std::fs::read_dir(t.path().join("inbox/cur"))
            .unwrap()
            .count(),
        8
    );
}

#[test]
fn draw_resignation_and_mate() {
    let mut t = Tournament::new();
    t.opening();
    t.letter(
        WHITE,
        "2026-11-08",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nI offer a draw.\nTime: 3/4\nDates: 2026-11-07, 2026-11-07, 2026-11-08\n",
    );
    t.pass("2026-11-08");
    let mail = t.new_mail();
    assert!(mail[1].body.contains("offers a draw"), "{}", mail[1].body);
    t.letter(
        BLACK,
        "2026-11-09",
        "Re: [T #1]",
        "Game 1\nI accept the draw.\n",
    );
    t.pass("2026-11-09");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("result", WHITE), pair("result", BLACK)]);
    assert_eq!(mail[0].cc, [SECRETARY]);
    assert_eq!(t.chart("1")["result"], "1/2-1/2");

    let mut t = Tournament::new();
    t.opening();
    t.letter(WHITE, "2026-11-08", "Re: [T #1]", "Партия 1\nСдаюсь.\n");
    t.pass("2026-11-08");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("result", WHITE), pair("result", BLACK)]);
    mail[0].says("You resigned.");
    mail[1].says("White Player resigned.");
    assert_eq!(t.chart("1")["result"], "0-1");

    // Fool's mate.
    let mut t = Tournament::new();
    t.letter(
        WHITE,
        "2026-11-02",
        "Game 1",
        "Game 1\n1. f3\nTime: 1/0\nDates: 2026-11-02\n",
    );
    t.letter(
        BLACK,
        "2026-11-03",
        "Re: [T #1]",
        "Game 1\n1... e5\nTime: 1/1\nDates: 2026-11-02, 2026-11-02, 2026-11-03\n",
    );
    t.letter(
        WHITE,
        "2026-11-04",
        "Re: [T #1]",
        "Game 1\n2. g4\nTime: 2/1\nDates: 2026-11-03, 2026-11-03, 2026-11-04\n",
    );
    t.letter(
        BLACK,
        "2026-11-05",
        "Re: [T #1]",
        "Game 1\n2... Qh4#\nTime: 2/2\nDates: 2026-11-04, 2026-11-04, 2026-11-05\n",
    );
    t.pass("2026-11-05");
    let mail = t.new_mail();
    let result_to = |to: &str| {
        mail.iter()
            .find(|m| m.kind == "result" && m.to == [to])
            .unwrap_or_else(|| panic!("{:?}", kinds(&mail)))
    };
    result_to(WHITE).says("The last move: 2... Qh4");
    result_to(WHITE).says("Checkmate: Black Player wins.");
    result_to(BLACK).says("Checkmate: you win.");
    result_to(BLACK).says("0-1");
    // The mating move reached White with his letter of the result.
    assert_eq!(t.chart("1")["moves"][3]["delivered_on"], "2026-11-05");
}

#[test]
fn protest_goes_to_the_arbiter() {
    let mut t = Tournament::new();
    t.opening();
    t.pass("2026-12-26");
    t.new_mail();
    t.letter(
        WHITE,
        "2026-12-30",
        "Re: [T #1]",
        "Game 1\nPROTEST\nI posted on time; the receipt is attached.\n",
    );
    t.pass("2026-12-30");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("protest", ARBITER)]);
    assert_eq!(mail[0].cc, [WHITE]);
    mail[0].says("within the protest period");
    assert_eq!(mail[0].attachments[0].1, "message/rfc822");
    // With a protest in, no no-protest notice follows.
    t.pass("2027-01-06");
    // (Nothing else is due that day either.)
    assert_eq!(kinds(&t.new_mail()), []);
}

#[test]
fn a_broken_config_stops_with_exit_2_naming_the_key() {
    let t = Tournament::with_config(
        &config("", "").replace("timezone = \"Europe/Moscow\"", "timezone = \"Moscow\""),
    );
    let out = t.run(&["poll"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("tournament.timezone") && out.stderr.contains("IANA"),
        "{}",
        out.stderr
    );
    let t = Tournament::with_config(
        &config("", "").replace("black = \"black\"\n", "black = \"nobody\"\n"),
    );
    let out = t.run(&["games"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("games[0].black") && out.stderr.contains("unknown player \"nobody\""),
        "{}",
        out.stderr
    );
    assert!(!out.caught_a_panic(), "{}\n{}", out.stdout, out.stderr);
}

#[test]
fn check_shows_what_would_happen_and_changes_nothing() {
    let mut t = Tournament::new();
    t.opening();
    let letter = t.path().join("letter.eml");
    std::fs::write(
        &letter,
        message(
            WHITE,
            CLERK,
            "2026-11-12",
            "Re: [T #1]",
            "Game 1\n2. Nf3\nTime: 5/4\nDates: 07.11, 07.11, 10.11\n",
            "",
            99,
        ),
    )
    .unwrap();
    let before = t.chart("1");
    let out = t.run(&["check", letter.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("==== correction to white@test.example ===="),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("==== forward to black@test.example ===="),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("2026-11-12, not 2026-11-10: +2 days"),
        "{}",
        out.stdout
    );
    assert_eq!(t.chart("1"), before, "check changed the game");
    assert!(t.new_mail().is_empty(), "check sent mail");
}

#[test]
fn games_and_pgn_commands() {
    let mut t = Tournament::new();
    t.opening();
    let out = t.run(&["games", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let games: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(games[0]["game"], "1");
    assert_eq!(
        games[0]["totals"],
        serde_json::json!({"white": 2, "black": 4})
    );
    assert_eq!(games[0]["status"], "active");
    // Full moves, as the report counts them; the half-moves beside.
    assert_eq!(games[0]["moves"], 1);
    assert_eq!(games[0]["plies"], 2);
    assert_eq!(games[0]["to_move"], "white");
    let out = t.run(&["pgn", "1"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("[White \"White Player\"]"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("[TimeControl \"50 days / 10 moves\"]"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("1. e4 {sent 2026-11-03, received 2026-11-03, 2 days}"),
        "{}",
        out.stdout
    );
    let out = t.run(&["chart", "9"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no game \"9\""), "{}", out.stderr);
}

#[test]
fn the_demo_runs_and_shows_every_step() {
    let dir = tempfile::tempdir().unwrap();
    let keep = dir.path().join("demo");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .args(["demo", "--keep"])
        .arg(&keep)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for expected in [
        "sent correction to ivanov@demo.example",
        "sent warning to petrov@demo.example",
        "sent penalty to petrov@demo.example",
        "sent overstep-file to arbiter@demo.example",
        "ignored: automatic mail",
        "duplicate:",
        "2. c4 e6 (*)",
        "decision: game 1: confirm",
        "result: game 2: 1/2-1/2 (agreement)",
    ] {
        assert!(
            stdout.contains(expected),
            "demo output lacks {expected:?}:\n{stdout}"
        );
    }
    assert!(!stdout.contains("failed"), "{stdout}");
    let outbox = std::fs::read_dir(keep.join("mail/outbox"))
        .unwrap()
        .filter(|e| {
            let path = e.as_ref().unwrap().path();
            path.extension().is_some_and(|ext| ext == "eml")
        })
        .count();
    assert_eq!(outbox, 37, "messages written");
}

/// Every kind of message, rendered by the Russian templates.
#[test]
fn a_russian_tournament_gets_russian_letters() {
    let text = Cup::new()
        .in_language("ru")
        .text()
        .replace("end_date = 2028-11-01", "end_date = 2027-03-01");
    let mut t = Tournament::with_config(&text);
    t.pass("2026-12-01");
    t.letter(
        WHITE,
        "2026-12-02",
        "Партия 1",
        "Партия 1\n1. e4\nВремя: 31/0\nДаты: 02.12.2026\n",
    );
    t.pass("2026-12-02");
    t.letter(
        BLACK,
        "2026-12-04",
        "Re: [T #1]",
        "Партия 1\n1... e5\nВремя: 31/2\n",
    );
    t.pass("2026-12-04");
    t.letter(WHITE, "2026-12-05", "Re: [T #1]", "Партия 1\n2. Кf3\nесли 2... Кc6 3. Сb5\nВремя: 32/2\nДаты: 04.12.2026, 04.12.2026, 03.12.2026\n");
    t.pass("2026-12-05");
    t.letter(
        BLACK,
        "2026-12-06",
        "Re: [T #1]",
        "Партия 1\n2... Кc6\nВремя: 32/3\n",
    );
    t.letter(BLACK, "2026-12-06", "Re: [T #1]", "Партия 1\n9. Крe2\n");
    t.pass("2026-12-06");
    // Black now answers 3. Bb5 (delivered 6 December) only by silence: 9 days used, 50 at 3 moves.
    for day in ["2027-01-08", "2027-01-15", "2027-01-16", "2027-01-17"] {
        t.poll(day);
    }
    t.pass("2027-01-28");
    t.letter(ARBITER, "2027-01-29", "Re: [T #1]", "ОТКЛОНИТЬ 1\n");
    t.pass("2027-01-29");
    t.pass("2027-03-01");
    let mail = t.new_mail();
    let seen: std::collections::BTreeSet<String> = mail.iter().map(|m| m.kind.clone()).collect();
    for kind in [
        "query",
        "ack",
        "forward",
        "warning",
        "correction",
        "penalty",
        "refused",
        "reminder",
        "repeat",
        "overstep-notice",
        "overstep-file",
        "claim-notice",
        "no-protest",
        "decision",
        "adjudication",
    ] {
        assert!(seen.contains(kind), "no {kind} among {seen:?}");
    }
    for message in &mail {
        let cyrillic = message
            .body
            .chars()
            .filter(|c| ('а'..='я').contains(c))
            .count();
        assert!(
            cyrillic > 20,
            "{} is not in Russian:\n{}",
            message.kind,
            message.body
        );
        message.never_says("{{");
        message.never_says("{%");
    }
    let warning = mail.iter().find(|m| m.kind == "warning").unwrap();
    assert!(
        warning
            .body
            .contains("Даты предыдущего письма: 02.12.2026, 02.12.2026, 04.12.2026"),
        "{}",
        warning.body
    );
    let correction = mail.iter().find(|m| m.kind == "correction").unwrap();
    assert!(
        correction
            .body
            .contains("дата отправки ответа: 05.12.2026, а не 03.12.2026: +1 дн."),
        "{}",
        correction.body
    );
}

#[test]
fn a_long_poll_counts_letters_on_a_terminal_and_is_silent_under_cron() {
    let strangers = |t: &mut Tournament| {
        for n in 0..30 {
            t.letter(
                &format!("stranger{n}@elsewhere.example"),
                "2026-11-03",
                "hello",
                "Game 1\n1. e4\n",
            );
        }
    };
    // Under cron: no terminal, no counter.
    let mut quiet = Tournament::new();
    strangers(&mut quiet);
    let out = quiet.poll("2026-11-03");
    assert!(!out.stderr.contains("letters:"), "{}", out.stderr);
    assert!(!out.stdout.contains("letters:"), "{}", out.stdout);

    // At a terminal (a pseudo-terminal made by script(1)): a counter.
    let mut watched = Tournament::new();
    strangers(&mut watched);
    let command = format!(
        "{} --config {} --future poll --today 2026-11-03",
        env!("CARGO_BIN_EXE_shtempel"),
        watched.path().join("shtempel.toml").display()
    );
    let Ok(out) = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
    else {
        // Under CI the terminal half must run: .ci/run has script(1).
        assert!(
            std::env::var_os("CI").is_none(),
            "no script(1) under CI: the terminal half cannot run"
        );
        eprintln!("skipped the terminal half: no script(1)");
        return;
    };
    let seen = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{seen}");
    for count in ["letters: 10 of 30", "letters: 30 of 30"] {
        assert!(seen.contains(count), "{count} in {seen:?}");
    }
    assert!(seen.contains("30 letter(s) read"), "{seen}");
}

#[test]
fn poll_refreshes_the_report_when_the_config_asks() {
    let text = config("", "").replace("[source]", "[report]\nout = \"site\"\n\n[source]");
    let mut t = Tournament::with_config(&text);
    t.poll("2026-11-02");
    let index = t.path().join("site/index.html");
    let before = std::fs::read_to_string(&index).expect("written by an idle poll too");
    assert!(
        before.contains(r#"<td class="totals">0/0</td>"#),
        "{before}"
    );
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    let after = std::fs::read_to_string(&index).unwrap();
    assert!(after.contains(r#"<td class="totals">2/0</td>"#), "{after}");
    assert!(
        after.contains(r#"<td class="to-move">Black Player</td>"#),
        "{after}"
    );
    let game = std::fs::read_to_string(t.path().join("site/game-1.html")).unwrap();
    assert!(
        game.contains(
            r##"<p class="moves" id="moves">1. <a href="#" data-ply="1" data-label="1. e4">e4</a></p>"##
        ),
        "{game}"
    );
    assert!(t.path().join("site/game-1.svg").is_file());
}

#[test]
fn an_answer_a_batch_later_sees_the_delivery_still_being_sent() {
    // One poll of more letters than the first batches hold: White's
    // move, whose forward goes out with the first batch on the sending
    // thread; 1,100 copies of it (duplicates, each a letter of a batch); then
    // Black's answer, planned in the third batch, which must see the day the
    // forward was delivered even if the first batch is still being sent. The
    // second batch is given to the threads while the first is still out:
    // its queue must not hold the first one's messages again.
    let mut t = Tournament::new();
    let first = t.letter(WHITE, "2026-11-03", "Game 1", W1);
    let raw = std::fs::read(&first).unwrap();
    for _ in 0..1100 {
        t.deliver_raw(&raw);
    }
    let answer = "Game 1\n1... e5\nTime: 2/0\nDates: 2026-11-03, 2026-11-07, 2026-11-07\n";
    t.letter(BLACK, "2026-11-07", "Re: [T #1] 1. e4", answer);
    let out = t.poll("2026-11-07");
    assert_eq!(out.stdout.matches("duplicate").count(), 1100);
    assert_eq!(
        kinds(&t.new_mail()),
        [
            pair("ack", WHITE),
            pair("forward", BLACK),
            pair("ack", BLACK),
            pair("forward", WHITE)
        ],
        "{}",
        out.stdout
    );
    let chart = t.chart("1");
    assert_eq!(chart["moves"][0]["delivered_on"], "2026-11-07");
    assert_eq!(t.totals("1"), (2, 0));
}

#[test]
fn a_player_with_several_addresses_is_known_by_each_and_written_to_at_the_first() {
    let home = "white.home@test.example";
    let mut t = Tournament::with_config(&config("", &format!("emails = [\"{home}\"]")));
    // From his second address: his move, answered at his first.
    t.letter(home, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    t.letter(BLACK, "2026-11-07", "Re: [T #1] 1. e4", B1);
    t.pass("2026-11-07");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    assert_eq!(t.totals("1"), (2, 4));
    // An address that is not his is still a stranger's.
    t.letter(
        "white.work@test.example",
        "2026-11-08",
        "Game 1",
        "Game 1\n2. Nf3\nTime: 3/4\nDates: 2026-11-07, 2026-11-08, 2026-11-08\n",
    );
    t.pass("2026-11-08");
    assert!(t.new_mail().is_empty());
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);
}

//! Letters as real mail programs write them, end to end: each `.eml` of
//! `tests/letters/` arrives in a tournament whose game stands where the letter
//! answers it, and the clerk must take the own move and nothing of the quote;
//! the game is found by what the letter names; dates the player left out or
//! wrote ambiguously are named as such.

use std::path::Path;

use crate::support::*;

const IVANOV: &str = "ivanov@example.org";
const PETROV: &str = "petrov@example.org";
const SIDOROV: &str = "sidorov@example.org";

/// The tournament of `tests/letters/*.eml`: CC-2026, Ivanov (White) against
/// Petrov in game 1, in the given language.
fn tournament(language: &str, extra: &str) -> Tournament {
    let cup = Cup::empty()
        .named("CC-2026", "Test cup")
        .in_language(language)
        .clerk("clerk@example.org")
        .player("white", "White Player", IVANOV)
        .player("black", "Black Player", PETROV)
        .game("1", "white", "black");
    Tournament::with_config(&(cup.text() + extra))
}

/// A letter of `tests/letters/` as it reaches the clerk on `day`.
fn deliver(t: &mut Tournament, name: &str, day: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/letters/{name}.eml"));
    let raw = std::fs::read(&path).expect("letter");
    let date = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .unwrap()
        .format("%a, %d %b %Y");
    let mut message =
        format!("Received: from mx.example.org by mail.example.org; {date} 12:00:00 +0300\r\n")
            .into_bytes();
    message.extend_from_slice(&raw);
    t.deliver_raw(&message);
}

/// The opening 1. e4 (3 Nov) 1... e5 (7 Nov) 2. Nf3 (12 Nov), each letter
/// forwarded the day it came: totals 7/4, Black to move.
fn to_black_at_move_two(t: &mut Tournament) {
    let letters = [
        (
            IVANOV,
            "2026-11-03",
            "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
        ),
        (
            PETROV,
            "2026-11-07",
            "Game 1\n1... e5\nTime: 2/4\nDates: 2026-11-03, 2026-11-03, 2026-11-07\n",
        ),
        (
            IVANOV,
            "2026-11-12",
            "Game 1\n2. Nf3\nTime: 7/4\nDates: 2026-11-07, 2026-11-07, 2026-11-12\n",
        ),
    ];
    for (from, day, body) in letters {
        let raw = message(from, "clerk@example.org", day, "Game 1", body, "", 100);
        t.deliver_raw(raw.as_bytes());
        t.poll(day);
    }
    let mail = t.new_mail();
    assert_eq!(mail.len(), 6, "three acks and three forwards");
}

#[test]
fn replies_of_every_mail_program_are_applied_with_their_own_move_only() {
    let programs = [
        ("outlook-ru-html", "ru"),
        ("outlook-en-html", "en"),
        ("thunderbird-flowed-ru", "ru"),
        ("iphone-en", "en"),
        ("android-gmail-ru", "ru"),
        ("thebat-koi8r", "ru"),
        ("gmail-forwarded-ru", "ru"),
    ];
    for (name, language) in programs {
        let mut t = tournament(language, "");
        to_black_at_move_two(&mut t);
        deliver(&mut t, name, "2026-11-14");
        t.pass("2026-11-14");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("ack", PETROV), pair("forward", IVANOV)],
            "{name}: {mail:#?}"
        );
        let ack = &mail[0].body;
        assert!(
            ack.contains("Всё в порядке") || ack.contains("Everything is in order"),
            "{name}: {ack}"
        );
        assert!(!ack.contains("  ! "), "{name}: no notes: {ack}");
        // In the tournament's own notation.
        let forwarded = if language == "ru" {
            "2... Кc6"
        } else {
            "2... Nc6"
        };
        assert!(
            mail[1].body.contains(forwarded),
            "{name}: the move forwarded: {}",
            mail[1].body
        );
        assert_eq!(t.totals("1"), (7, 6), "{name}");
        let chart = t.chart("1");
        assert_eq!(
            chart["moves"].as_array().unwrap().len(),
            4,
            "{name}: the quoted variant is no move: {chart}"
        );
    }
}

#[test]
fn check_shows_the_own_text_of_an_outlook_and_a_thunderbird_reply_and_no_quoted_line() {
    let t = tournament("ru", "");
    for name in ["outlook-ru-html", "thunderbird-flowed-ru"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/letters/{name}.eml"));
        let out = t.run(&["check", path.to_str().unwrap(), "--today", "2026-11-14"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let own = out
            .stdout
            .split("own text")
            .nth(1)
            .and_then(|rest| rest.split("\nevent:").next())
            .unwrap_or_else(|| panic!("{name}: no own text in\n{}", out.stdout));
        assert!(own.contains("2... Кc6"), "{name}: {own}");
        assert!(own.contains("Время: 7/6"), "{name}: {own}");
        for quoted in [
            "3... a6 4. Ba4",
            "Строки для вашего",
            "Уважаемый",
            "clerk@example.org",
        ] {
            assert!(!own.contains(quoted), "{name}: {quoted:?} is quoted: {own}");
        }
    }
}

/// A letter saved from a mail program (no `Received:` header) checked as
/// of a day before the file was saved is postmarked that day, not after it.
#[test]
fn check_as_of_an_earlier_day_postmarks_a_saved_letter_that_day() {
    let t = tournament("ru", "");
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/letters/thunderbird-flowed-ru.eml");
    let out = t.run(&["check", path.to_str().unwrap(), "--today", "2026-11-14"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("postmark: 2026-11-14\n"),
        "{}",
        out.stdout
    );
}

/// Two games for Petrov: game 1 against Ivanov, game 2 against Sidorov.
fn two_games() -> Tournament {
    tournament(
        "en",
        &format!(
            "\n[[players]]\nid = \"sidorov\"\nname = \"Sidorov S.\"\nemail = \"{SIDOROV}\"\n\n\
             [[games]]\nid = \"2\"\nwhite = \"sidorov\"\nblack = \"black\"\n"
        ),
    )
}

#[test]
fn a_subject_that_names_the_game_finds_it_without_tag_or_thread() {
    for subject in ["Game 1", "Re: Game 1", "Fwd: game 1", "Партия 1"] {
        let mut t = two_games();
        t.letter_with(
            IVANOV,
            "2026-11-03",
            subject,
            "1. e4\nTime: 2/0\nDates: 2026-11-03\n",
            "",
        );
        // Ivanov plays game 1 only: the subject must not be needed for him.
        t.pass("2026-11-03");
        t.new_mail();
        let raw = message(
            PETROV,
            "clerk@example.org",
            "2026-11-05",
            subject,
            "1... e5\nTime: 2/2\nDates: 2026-11-03, 2026-11-03, 2026-11-05\n",
            "",
            7,
        );
        t.deliver_raw(raw.as_bytes());
        t.pass("2026-11-05");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("ack", PETROV), pair("forward", IVANOV)],
            "{subject}: {mail:#?}"
        );
        assert_eq!(mail[0].game, "1", "{subject}");
    }
}

#[test]
fn a_game_line_wins_over_the_thread_and_the_reply_says_so() {
    let mut t = two_games();
    t.letter(
        SIDOROV,
        "2026-11-03",
        "Game 2",
        "1. d4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    let mail = t.exchange(
        IVANOV,
        "2026-11-03",
        "Game 1",
        "1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    let game_two = mail
        .iter()
        .find(|m| m.kind == "forward" && m.game == "2")
        .expect("the forward of game 2");
    // Petrov answers game 1 by replying to the clerk's message of game 2.
    let headers = format!(
        "In-Reply-To: {id}\r\nReferences: {id}\r\n",
        id = format!("<{}>", game_two.message_id)
    );
    let raw = message(
        PETROV,
        "clerk@example.org",
        "2026-11-05",
        &format!("Re: {}", game_two.subject),
        "Game 1\n1... e5\nTime: 2/2\nDates: 2026-11-03, 2026-11-03, 2026-11-05\n",
        &headers,
        7,
    );
    t.deliver_raw(raw.as_bytes());
    t.pass("2026-11-05");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("ack", PETROV), pair("forward", IVANOV)],
        "{mail:#?}"
    );
    assert_eq!(mail[0].game, "1");
    mail[0].says("The letter was taken for game 1 by its line \"Game 1\", though it answers a message of game 2.");
    assert_eq!(t.totals("2"), (2, 0), "game 2 untouched");
}

#[test]
fn a_letter_naming_a_game_its_sender_does_not_play_changes_nothing_anywhere() {
    let mut t = two_games();
    t.letter(
        SIDOROV,
        "2026-11-03",
        "Game 2",
        "1. d4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-03");
    t.new_mail();
    // Sidorov plays game 2 only, and names game 1 in the tag and the line.
    t.letter(
        SIDOROV,
        "2026-11-05",
        "Re: [CC-2026 #1] 1. e4",
        "Game 1\n2. c4\nTime: 4/0\nDates: 2026-11-05\n",
    );
    // And a game the tournament does not have.
    let mail = t.exchange(
        SIDOROV,
        "2026-11-05",
        "Game 9",
        "2. c4\nTime: 4/0\nDates: 2026-11-05\n",
    );
    assert_eq!(
        kinds(&mail),
        [pair("refused", SIDOROV), pair("refused", SIDOROV)],
        "{mail:#?}"
    );
    assert!(
        mail[0]
            .body
            .contains("the letter names game 1 (by a line \"Game\"), but you do not play in it"),
        "{}",
        mail[0].body
    );
    assert!(
        mail[1]
            .body
            .contains("names game 9 (in the subject), but the tournament has no such game"),
        "{}",
        mail[1].body
    );
    for refusal in &mail {
        refusal.says("Your games in this tournament: 2.");
    }
    assert_eq!(t.totals("1"), (0, 0), "game 1 untouched");
    assert_eq!(t.totals("2"), (2, 0), "game 2 untouched");
}

#[test]
fn a_warning_for_a_missing_fraction_asks_no_restating() {
    let mut t = tournament("en", "");
    let mail = t.exchange(IVANOV, "2026-11-03", "Game 1", "1. e4\nDates: 2026-11-03\n");
    assert_eq!(kinds(&mail)[0], pair("warning", IVANOV));
    let warning = &mail[0].body;
    assert!(warning.contains("Nothing needs restating"), "{warning}");
    assert!(!warning.contains("missing dates"), "{warning}");
    assert!(!warning.contains("Previous dates"), "{warning}");
}

/// What the clerk read ends with the dates it placed, on a line of their
/// own: what it did not carry out follows on the next (Gmail's letter with a
/// STATUS beside a move read "sent 2026-12-06Not carried out:"). White's
/// first letter states only the day it is sent: of two dates written, the
/// one taken is named as that, and the other as not taken (it was passed
/// over in silence, under "two of three").
#[test]
fn the_placed_dates_are_a_line_of_their_own() {
    for (language, body, taken, not_taken, not_done) in [
        (
            "en",
            "1. e4\nTime: 2/0\nDates: 2026-11-02, 2026-11-03\nSTATUS\n",
            "  Dates: sent 2026-11-03",
            "  Not taken: 2026-11-02 (more dates than the letter states: it states only the day it is sent)",
            "Not carried out:",
        ),
        (
            "ru",
            "1. e4\nВремя: 2/0\nДаты: 02.11.2026, 03.11.2026\nСТАТУС\n",
            "  Даты: отправлено 03.11.2026",
            "  Не учтено: 02.11.2026 (дат больше, чем указывается в этом письме: в нём указывается только дата отправки)",
            "Не исполнено:",
        ),
    ] {
        let mut t = tournament(language, "");
        let mail = t.exchange(IVANOV, "2026-11-03", "Game 1", body);
        let answer = &mail[0].body;
        let lines: Vec<&str> = answer.lines().map(str::trim_end).collect();
        for line in [taken, not_taken, not_done] {
            assert!(lines.contains(&line), "{language}: {line:?} in\n{answer}");
        }
    }
}

#[test]
fn two_dates_of_three_name_only_the_missing_one() {
    let mut t = tournament("en", "");
    t.letter(
        IVANOV,
        "2026-11-03",
        "Game 1",
        "1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    // The forward goes out two days after the letter came.
    t.pass("2026-11-05");
    t.new_mail();
    t.letter(
        PETROV,
        "2026-11-07",
        "Game 1",
        "1... e5\nTime: 2/2\nDates: 2026-11-05, 2026-11-07\n",
    );
    t.pass("2026-11-07");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail)[0], pair("warning", PETROV), "{mail:#?}");
    let warning = &mail[0].body;
    let missing: Vec<&str> = warning
        .lines()
        .filter(|line| line.starts_with("  - "))
        .map(str::trim_end)
        .collect();
    assert_eq!(
        missing,
        ["  - the partner's sending date (postmark)"],
        "{warning}"
    );
    assert!(
        warning.contains("Dates (two of three): received 2026-11-05, sent 2026-11-07"),
        "{warning}"
    );
    assert!(!warning.contains("cannot tell for certain"), "{warning}");
}

#[test]
fn slashed_dates_follow_date_order_and_an_ambiguous_one_is_not_passed_on() {
    // An American tournament: month first.
    let mut t = tournament("en", "");
    let text = std::fs::read_to_string(t.path().join("shtempel.toml"))
        .unwrap()
        .replace(
            "language = \"en\"",
            "language = \"en\"\ndate_order = \"mdy\"",
        );
    std::fs::write(t.path().join("shtempel.toml"), text).unwrap();
    t.letter(
        IVANOV,
        "2026-11-02",
        "Game 1",
        "1. e4\nTime: 1/0\nSent: 11/02/2026\n",
    );
    t.pass("2026-11-02");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", IVANOV), pair("forward", PETROV)]
    );

    // The same letter in a day-first tournament: 11 February is far from
    // the postmark and 2 November is near it, so neither is taken.
    let mut t = tournament("en", "");
    let mail = t.exchange(
        IVANOV,
        "2026-11-02",
        "Game 1",
        "1. e4\nTime: 1/0\nSent: 11/02/2026\n",
    );
    assert_eq!(
        kinds(&mail),
        [pair("warning", IVANOV), pair("forward", PETROV)],
        "{mail:#?}"
    );
    assert!(
        mail[0]
            .body
            .contains("\"11/02/2026\" can be read as 11 Feb 2026 or as 2 Nov 2026"),
        "{}",
        mail[0].body
    );
    assert!(
        !mail[1].body.contains("2026-02-11"),
        "the partner is told no guessed date: {}",
        mail[1].body
    );
}

#[test]
fn prose_about_time_gets_no_note() {
    let mut t = tournament("ru", "");
    to_black_at_move_two(&mut t);
    deliver(&mut t, "yandex-prose-two-dates", "2026-11-14");
    t.pass("2026-11-14");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail)[0].1, PETROV, "{mail:#?}");
    let reply = &mail[0].body;
    assert!(!reply.contains("время не читается"), "{reply}");
    assert!(!reply.contains("Затраченное время на этот"), "{reply}");
    // Two dates of three: the forward was delivered on its postmark, so
    // which one is missing cannot be told, and the reply says so.
    assert!(reply.contains("Даты (две из трёх)"), "{reply}");
    assert!(reply.contains("нельзя сказать наверняка"), "{reply}");
}

/// Outlook for Mac opens its text part with a byte-order mark
/// (quoted-printable `=EF=BB=BF`): the line it stands on is read as any.
fn outlook_for_mac(t: &mut Tournament, own: &str) {
    let date = "Sat, 14 Nov 2026";
    let raw = format!(
        "Received: from mx.example.org by mail.example.org; {date} 12:00:00 +0300\r\n\
         From: Petrov <{PETROV}>\r\nTo: clerk@example.org\r\nSubject: Re: Game 1\r\n\
         Date: {date} 11:58:00 +0300\r\nMessage-ID: <A1B2C3D4@outlook.com>\r\n\
         User-Agent: Microsoft-MacOutlook/16.89.24091630\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=\"UTF-8\"\r\n\
         Content-Transfer-Encoding: quoted-printable\r\n\r\n=EF=BB=BF{}\r\n",
        own.replace('\n', "\r\n")
    );
    t.deliver_raw(raw.as_bytes());
}

#[test]
fn a_text_part_that_opens_with_a_byte_order_mark_is_read_from_its_first_line() {
    let letters = [
        (
            "en",
            "Game 1\n2... Nc6\nTime: 7/6\nDates: 2026-11-12, 2026-11-12, 2026-11-14",
        ),
        (
            "en",
            "2... Nc6\nTime: 7/6\nDates: 2026-11-12, 2026-11-12, 2026-11-14",
        ),
        (
            "ru",
            "Партия 1\n2... Кc6\nВремя: 7/6\nДаты: 12.11.2026, 12.11.2026, 14.11.2026",
        ),
        (
            "ru",
            "2... Кc6\nВремя: 7/6\nДаты: 12.11.2026, 12.11.2026, 14.11.2026",
        ),
    ];
    for (language, own) in letters {
        let mut t = tournament(language, "");
        to_black_at_move_two(&mut t);
        outlook_for_mac(&mut t, own);
        t.pass("2026-11-14");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("ack", PETROV), pair("forward", IVANOV)],
            "{own:?}: {mail:#?}"
        );
        assert!(
            !mail[0].body.contains("  ! "),
            "{own:?}: no notes: {}",
            mail[0].body
        );
        assert_eq!(t.totals("1"), (7, 6), "{own:?}");
    }
}

/// Black's 1... e5 as three more mail programs write a reply: the quote's
/// attribution glued to his dates line, Outlook's inline answer marked with
/// his name under the quoted forward, and an Emacs citation of headers
/// over `>` lines with his answer below. Each is read whole: the move, the
/// time and the dates, so the clerk answers "all in order".
#[test]
fn replies_glued_marked_inline_or_under_cited_headers_are_read() {
    for language in ["en", "ru"] {
        let (time, dates) = match language {
            "en" => ("Time: 2/4", "Dates: 2026-11-03, 2026-11-03, 2026-11-07"),
            _ => ("Время: 2/4", "Даты: 03.11.2026, 03.11.2026, 07.11.2026"),
        };
        let glued = format!(
            "1... e5\n{time}\n{dates}On Tue, Nov 3, 2026 at 6:35 PM, Clerk <{CLERK}> wrote:\n> 1. e4\n"
        );
        let outlook = format!(
            "________________________________\nFrom: Clerk <{CLERK}>\nSent: Tuesday, November 3, 2026 12:00 PM\nTo: Black Player\nSubject: [T #1] 1. e4\n\nWhite Player has made a move in game 1:\n    1. e4\n[Black Player] 1... e5\n[Black Player] {time}\n[Black Player] {dates}\n"
        );
        let emacs = format!(
            "From: Clerk <{CLERK}>\nDate: Tue, 03 Nov 2026 12:00:00 +0300\n\n> 1. e4\n\n1... e5\n{time}\n{dates}\n"
        );
        for (form, body) in [("glued", glued), ("outlook", outlook), ("emacs", emacs)] {
            let mut t = Cup::new().in_language(language).open();
            t.exchange(WHITE, "2026-11-03", "Game 1", W1);
            let mail = t.exchange(BLACK, "2026-11-07", "Re: [T #1] 1. e4", &body);
            assert_eq!(
                kinds(&mail),
                [pair("ack", BLACK), pair("forward", WHITE)],
                "{language} {form}: {}",
                mail.first().map_or("", |m| m.body.as_str())
            );
            assert_eq!(t.totals("1"), (2, 4), "{language} {form}");
        }
    }
}

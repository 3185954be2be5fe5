//! `shtempel start`: start sheets by registered letter (10.3.2), over a Maildir and a file outbox.

use crate::support::*;

fn start(t: &Tournament, day: &str) -> Output {
    let out = t.run(&["start", "--today", day]);
    assert_eq!(out.code, 0, "start {day}:\n{}\n{}", out.stdout, out.stderr);
    out
}

#[test]
fn each_player_gets_his_start_sheet_once_by_registered_letter() {
    let mut t = Tournament::new();
    let out = start(&t, "2026-10-25");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("start-sheet", WHITE), pair("start-sheet", BLACK)],
        "{}",
        out.stdout
    );
    let white = &mail[0];
    assert!(
        white.subject.contains("start sheet: Test cup"),
        "{}",
        white.subject
    );
    assert!(
        white
            .headers
            .contains(&format!("Disposition-Notification-To: {CLERK}")),
        "registered:\n{}",
        white.headers
    );
    for words in [
        "starts on 2026-11-01 and ends on 2028-11-01",
        "50 days per 10 moves",
        "game 1: you play White against Black Player <black@test.example>",
        "[T #1]",
        CLERK,
        // The lines of his first letter.
        "1. <your move>",
        "Dates: <the date you send it>",
    ] {
        assert!(white.body.contains(words), "{words:?} in:\n{}", white.body);
    }
    assert!(!white.body.contains("wait for White's first move"));
    let black = &mail[1];
    assert!(
        black
            .body
            .contains("game 1: you play Black against White Player <white@test.example>"),
        "{}",
        black.body
    );
    black.says("wait for White's first move");
    assert!(!black.body.contains("<your move>"), "{}", black.body);
    // Again: nothing sent twice, and each player said why.
    let again = start(&t, "2026-10-26");
    assert!(t.new_mail().is_empty());
    assert_eq!(
        again
            .stdout
            .matches("(sent before, accepted 2026-10-25)")
            .count(),
        2,
        "{}",
        again.stdout
    );
    // Sheets accepted before the start date move nothing: White's first
    // letter of 3 November is charged 2 days from 1 November.
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    assert_eq!(t.totals("1"), (2, 0));
}

#[test]
fn a_start_sheet_accepted_after_the_start_date_starts_the_clock_the_day_after() {
    let mut t = Tournament::new();
    // Mailed on 5 November, four days after the start: White's clock
    // starts on the 6th, so his letter of the 8th costs him 2 days, not 7.
    start(&t, "2026-11-05");
    assert_eq!(t.new_mail().len(), 2);
    t.letter(
        WHITE,
        "2026-11-08",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-08\n",
    );
    let out = t.poll("2026-11-08");
    assert_eq!(t.totals("1"), (2, 0), "{}", out.stdout);
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
}

#[test]
fn no_sheet_for_a_player_recorded_by_hand_or_already_playing() {
    // White's sheet is in the config; the game then begins.
    let mut t = Tournament::with_config(&config("", "start_sheet_received = 2026-10-20"));
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    t.new_mail();
    let out = start(&t, "2026-11-04");
    assert!(t.new_mail().is_empty(), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("white: no start sheet (start_sheet_received is in the config)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("black: no start sheet (the player's games are under way)"),
        "{}",
        out.stdout
    );
    // His clock did not move: 2 days for the first move.
    assert_eq!(t.totals("1"), (2, 0));
}

#[test]
fn a_russian_tournament_sends_its_start_sheets_in_russian() {
    let mut t = Cup::new().in_language("ru").open();
    start(&t, "2026-10-25");
    let mail = t.new_mail();
    assert_eq!(mail.len(), 2);
    assert!(
        mail[0].subject.contains("стартовый лист: Test cup"),
        "{}",
        mail[0].subject
    );
    for words in [
        "партия 1: вы играете белыми с партнёром Black Player <black@test.example>",
        "Турнир начинается 01.11.2026",
        "на 10 ходов",
    ] {
        assert!(
            mail[0].body.contains(words),
            "{words:?} in:\n{}",
            mail[0].body
        );
    }
    mail[1].says("ждите первого хода белых");
}

/// A reply to the start sheet with just
/// the first move goes to the one game where its writer is to move.
#[test]
fn a_reply_to_the_start_sheet_with_the_first_move_goes_to_the_game_where_he_is_to_move() {
    for lang in ["en", "ru"] {
        // White plays White in game 1 and Black in game 2.
        let mut t = Cup::new()
            .in_language(lang)
            .game("2", "black", "white")
            .open();
        start(&t, "2026-10-25");
        let mail = t.new_mail();
        let sheet = mail
            .iter()
            .find(|m| m.kind == "start-sheet" && m.to == [WHITE])
            .unwrap();
        let reply = format!("Re: {}", sheet.subject);
        let id = sheet.message_id.clone();
        t.letter_with(
            WHITE,
            "2026-11-03",
            &reply,
            "1. e4\nTime: 2/0\nDates: 2026-11-03\n",
            &format!("In-Reply-To: <{id}>\r\nReferences: <{id}>\r\n"),
        );
        let out = t.poll("2026-11-03");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("ack", WHITE), pair("forward", BLACK)],
            "{lang}: {}",
            out.stdout
        );
        assert_eq!(t.chart("1")["moves"][0]["san"], "e4", "{lang}");
        assert!(t.chart("2")["moves"].as_array().unwrap().is_empty());
    }
}

/// A start sheet is said in its reader's language: a player who asked for
/// English in a Russian event before it began gets his sheet in English,
/// his partner in Russian.
#[test]
fn a_start_sheet_is_in_the_language_its_player_chose() {
    let mut t = Cup::new().in_language("ru").open();
    let mail = t.exchange(BLACK, "2026-10-20", "settings", "LANGUAGE EN");
    assert_eq!(kinds(&mail), [pair("preferences", BLACK)]);
    start(&t, "2026-10-25");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("start-sheet", WHITE), pair("start-sheet", BLACK)]
    );
    mail[0].says("партия 1: вы играете белыми");
    mail[1].says("wait for White's first move");
    mail[1].says("starts on 2026-11-01");
}

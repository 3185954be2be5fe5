//! A player's own preferences by mail: `DIAGRAMS …` and `LANGUAGE …`
//! (`ДИАГРАММЫ …`, `ЯЗЫК …`), across the events he plays in, followed by
//! every later letter to him.

use crate::person::{carol_opens, folder};
use crate::support::*;

fn has_picture(mail: &Sent) -> bool {
    String::from_utf8_lossy(&mail.raw).contains("image/png")
}

#[test]
fn a_player_who_asks_for_the_other_language_gets_every_later_letter_in_it() {
    // (tournament's language, what Black asks, the words of the
    // tournament's language, the words of his, his answer)
    let cases = [
        (
            "ru",
            "LANGUAGE EN",
            "здравствуйте",
            "Dear ",
            "now come in English",
        ),
        (
            "en",
            "ЯЗЫК RU",
            "Dear ",
            "здравствуйте",
            "теперь приходят на русском языке",
        ),
    ];
    for (language, asked, theirs, his, answer) in cases {
        let mut t = Cup::new().in_language(language).open();
        let mail = t.exchange(BLACK, "2026-11-02", "settings", asked);
        assert_eq!(kinds(&mail), [pair("preferences", BLACK)]);
        // The answer is in the language he asked for.
        mail[0].says(answer);
        // White's move: his ack in the tournament's language, Black's
        // forward in his own.
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
        assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
        let (ack, forward) = (&mail[0], &mail[1]);
        ack.says(theirs);
        forward.says(his);
        forward.never_says(theirs);
        // The calendar's letters too: his reminder, 10 days before his last day.
        let reminders: Vec<Sent> = ["2026-12-20", "2026-12-21", "2026-12-22", "2026-12-23"]
            .iter()
            .flat_map(|day| {
                t.pass(day);
                t.new_mail()
            })
            .filter(|m| m.kind == "reminder")
            .collect();
        assert!(!reminders.is_empty(), "a reminder to Black");
        reminders[0].says(his);
    }
}

#[test]
fn diagrams_text_picture_and_none_each_give_the_board_he_asked_for() {
    for language in ["en", "ru"] {
        for (asked, picture, diagram, fen) in [
            (
                pick(language, "DIAGRAMS TEXT", "ДИАГРАММЫ ТЕКСТ"),
                false,
                true,
                true,
            ),
            (
                pick(language, "DIAGRAMS PICTURE", "ДИАГРАММЫ КАРТИНКА"),
                true,
                false,
                true,
            ),
            (
                pick(language, "DIAGRAMS NONE", "ДИАГРАММЫ НЕТ"),
                false,
                false,
                false,
            ),
            (
                pick(language, "DIAGRAMS BOTH", "ДИАГРАММЫ ОБА"),
                true,
                true,
                true,
            ),
        ] {
            let mut t = Cup::new().in_language(language).open();
            t.exchange(BLACK, "2026-11-02", "settings", asked);
            let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
            let forward = &mail[1];
            assert_eq!(forward.kind, "forward");
            assert_eq!(has_picture(forward), picture, "{asked}");
            assert_eq!(
                forward.body.contains("+------"),
                diagram,
                "{asked}:\n{}",
                forward.body
            );
            assert_eq!(
                forward.body.contains("FEN: "),
                fen,
                "{asked}:\n{}",
                forward.body
            );
            // White asked nothing: his next forward has the tournament's.
            let mail = t.exchange(BLACK, "2026-11-07", "Re: [T #1]", B1);
            let to_white = mail.iter().find(|m| m.kind == "forward").unwrap();
            assert!(has_picture(to_white) && to_white.body.contains("+------"));
        }
    }
}

#[test]
fn a_preference_set_in_one_event_holds_in_the_persons_others() {
    for language in ["en", "ru"] {
        let mut t = folder(language, (0, 0));
        // White Player sets the other language in A; Carol opens B, where
        // he is Black: the forward comes in the language he asked for.
        let other = pick(language, "ЯЗЫК RU", "LANGUAGE EN");
        let mail = t.exchange(WHITE, "2026-11-02", "[A #1]", other);
        assert_eq!(kinds(&mail), [pair("preferences", WHITE)]);
        carol_opens(&mut t);
        t.pass("2026-11-03");
        let mail = t.new_mail();
        let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
        assert_eq!(forward.to, [WHITE]);
        forward.says(pick(language, "здравствуйте", "Dear White Player"));
    }
}

#[test]
fn a_word_that_names_no_setting_is_named_and_the_rest_is_set() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        let asked = pick(
            language,
            "DIAGRAMS HUGE\nDIAGRAMS TEXT",
            "ДИАГРАММЫ ОГРОМНЫЕ\nДИАГРАММЫ ТЕКСТ",
        );
        let mail = t.exchange(BLACK, "2026-11-02", "settings", asked);
        let answer = &mail[0];
        answer.says(pick(
            language,
            "Not understood: HUGE",
            "Не понято: ОГРОМНЫЕ",
        ));
        answer.says(pick(
            language,
            "as a text diagram with its FEN line, no picture",
            "текстовой диаграммой со строкой FEN, без картинки",
        ));
        // Beside a move, a setting is set too, and answered by a message
        // of its own; the letter's answers are in the language he set.
        let body = format!("{W1}{}\n", pick(language, "LANGUAGE RU", "ЯЗЫК EN"));
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", &body);
        assert_eq!(
            kinds(&mail),
            [
                pair("ack", WHITE),
                pair("forward", BLACK),
                pair("preferences", WHITE)
            ],
            "{language}"
        );
        let (his, partners) = (
            pick(language, "здравствуйте", "Dear"),
            pick(language, "Dear", "здравствуйте"),
        );
        mail[0].says(his);
        mail[2].says(his);
        mail[1].says(partners);
    }
}

#[test]
fn the_directors_order_by_command_tells_each_player_in_his_own_language() {
    for (language, asked, his, theirs) in [
        ("en", "ЯЗЫК RU", "здравствуйте", "Dear White Player"),
        ("ru", "LANGUAGE EN", "Dear Black Player", "здравствуйте"),
    ] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        t.exchange(BLACK, "2026-11-08", "settings", asked);
        let out = t.run(&["result", "1", "1/2", "--today", "2026-11-12"]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        let mail = t.new_mail();
        assert_eq!(kinds(&mail), [pair("result", WHITE), pair("result", BLACK)]);
        mail[0].says(theirs);
        mail[1].says(his);
    }
}

#[test]
fn a_language_the_directors_templates_cannot_write_is_said_to_the_player_and_the_director() {
    let mut t = Cup::new().open();
    // The director's Russian texts: one of them broken.
    let ru = t.path().join("templates/ru");
    std::fs::create_dir_all(&ru).unwrap();
    std::fs::write(ru.join("ack.txt"), "Subject: ход получен\n{% if %}\n").unwrap();
    let out = t.run(&["doctor"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("FAIL  templates   T: ")
            && out.stdout.contains("ack.txt")
            && out.stdout.contains(
                "a player who writes LANGUAGE RU gets his letters in en until it is mended"
            ),
        "{}",
        out.stdout
    );
    t.letter(WHITE, "2026-11-03", "language", "LANGUAGE RU");
    let out = t.poll("2026-11-03");
    assert!(
        out.stdout.contains("templates-failed") && out.stdout.contains("ack.txt"),
        "the director sees why: {}",
        out.stdout
    );
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("preferences", WHITE)]);
    mail[0].says("you asked for the clerk's letters in Russian, but it cannot write them in Russian at present");
    mail[0].says("Until it is mended, the clerk's letters to you, in every event you play in, come in English");
    mail[0].never_says("as you asked");
    // His next letters come in English, as he was told.
    let mail = t.exchange(
        WHITE,
        "2026-11-04",
        "Game 1",
        "Game 1\n1. e4\nTime: 3/0\nDates: 2026-11-04\n",
    );
    assert!(
        mail.iter()
            .any(|m| m.kind == "ack" && m.body.contains("Dear White Player")),
        "{mail:#?}"
    );
}

/// The chart's notes are kept in both languages: a player who chose the
/// other language reads the chart's notes in his overstep notice in it;
/// the chief arbiter's file and `chart` give them in the event's.
#[test]
fn the_charts_notes_are_in_the_language_the_reader_chose() {
    // (event's language, what Black asks, his notes, the event's notes)
    let cases = [
        (
            "ru",
            "LANGUAGE EN",
            "1. e4: White's total is 2, not 1",
            ["1. e4: время белых 2, а не 1", "просрочка времени"],
        ),
        (
            "en",
            "ЯЗЫК RU",
            "1. e4: время белых 2, а не 1",
            ["1. e4: White's total is 2, not 1", "time overstepped"],
        ),
    ];
    for (language, asked, his, event) in cases {
        let mut t = Cup::new()
            .in_language(language)
            .rules("silent_overstep = false")
            .open();
        let mail = t.exchange(BLACK, "2026-11-02", "settings", asked);
        assert_eq!(kinds(&mail), [pair("preferences", BLACK)]);
        // White states 1 day where 2 have passed: corrected, and noted.
        t.exchange(
            WHITE,
            "2026-11-03",
            "Game 1",
            "Game 1\n1. e4\nTime: 1/0\nDates: 2026-11-03\n",
        );
        // Black answers after 59 days: he is told, the arbiter gets the file.
        let mail = t.exchange(
            BLACK,
            "2027-01-01",
            "Re: [T #1]",
            "Game 1\n1... e5\nTime: 2/59\nDates: 2026-11-03, 2026-11-03, 2027-01-01\n",
        );
        let notice = mail
            .iter()
            .find(|m| m.kind == "overstep-notice" && m.to == [BLACK])
            .unwrap_or_else(|| panic!("{:?}", kinds(&mail)));
        let file = mail.iter().find(|m| m.kind == "overstep-file").unwrap();
        notice.says(his);
        notice.never_says(event[0]);
        file.says(event[0]);
        file.never_says(his);
        // The overstep's own note is kept too, after the file.
        let chart = t.run(&["chart", "1"]);
        for note in event {
            assert!(chart.stdout.contains(note), "{note}\n{}", chart.stdout);
        }
    }
}

/// A reader who chose English in a Russian event reads no word of the
/// event's language in any message to him: its days, moves, colours,
/// corrections, refusal reasons, leave, status, board and calendar
/// notices are all worded when said to him (no Cyrillic letter, the
/// players' names being Latin). His partner keeps the event's language.
#[test]
fn a_reader_of_the_other_language_reads_no_word_of_the_events() {
    let mut t = Cup::new()
        .in_language("ru")
        .rules("leave_days_per_year = 30")
        .open();
    let cyrillic = |text: &str| text.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c));
    let mut his: Vec<Sent> = Vec::new();
    let take = |mail: Vec<Sent>, his: &mut Vec<Sent>| {
        for message in mail {
            match message.to.as_slice() {
                [to] if to == BLACK => his.push(message),
                // The event's own reader is written to in its language.
                [to] if to == WHITE => assert!(cyrillic(&message.body), "{}", message.body),
                _ => {}
            }
        }
    };
    take(
        t.exchange(BLACK, "2026-11-02", "settings", "LANGUAGE EN"),
        &mut his,
    );
    // White's first move sent two days after the date he states: Black's
    // forward names the corrected day.
    let white = "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n";
    take(t.exchange(WHITE, "2026-11-05", "Game 1", white), &mut his);
    // An illegal move of Black's: refused, with the board's reason.
    let illegal = "Game 1\n1... Ke5\nTime: 2/1\nDates: 2026-11-05, 2026-11-06, 2026-11-06\n";
    take(t.exchange(BLACK, "2026-11-06", "Game 1", illegal), &mut his);
    take(
        t.exchange(BLACK, "2026-11-07", "status", "STATUS"),
        &mut his,
    );
    let leave = "LEAVE 2026-12-10 - 2026-12-20";
    take(t.exchange(BLACK, "2026-11-08", "leave", leave), &mut his);
    for day in ["2026-12-01", "2026-12-20", "2026-12-27", "2027-01-02"] {
        t.pass(day);
        take(t.new_mail(), &mut his);
    }
    let kinds: Vec<&str> = his.iter().map(|m| m.kind.as_str()).collect();
    for kind in [
        "preferences",
        "forward",
        "refused",
        "status",
        "leave",
        "reminder",
    ] {
        assert!(kinds.contains(&kind), "no {kind} to Black: {kinds:?}");
    }
    for message in &his {
        let line = message.body.lines().find(|line| cyrillic(line));
        assert!(
            !cyrillic(&message.subject) && line.is_none(),
            "{}: {:?} / {line:?}",
            message.kind,
            message.subject
        );
    }
    // The forward names both days in English, the refusal the move.
    let forward = his.iter().find(|m| m.kind == "forward").unwrap();
    forward.says("2026-11-05");
    his.iter()
        .find(|m| m.kind == "refused")
        .unwrap()
        .says("Ke5");
}

//! Every word true, round two: the clerk's letters as the
//! player reads them, one test a point, named after it, showing the text
//! that now goes out.

use std::path::Path;

use crate::support::*;

/// The built-in templates and phrases of `language`, each file's text.
fn templates(language: &str) -> Vec<(String, String)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("templates")
        .join(language);
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                text,
            )
        })
        .collect()
}

/// No letter assumes a man. English: the name or "they", never
/// he, him or his; Russian: no past tense that needs a gender, not even
/// the «сделал(а)» that admits it.
#[test]
fn no_letter_assumes_a_man() {
    let he = regex::Regex::new(r"\b(?i:he|him|his|himself)\b").unwrap();
    for (file, text) in templates("en") {
        for (at, line) in text.lines().enumerate() {
            assert!(!he.is_match(line), "templates/en/{file}:{}: {line}", at + 1);
        }
    }
    let either = regex::Regex::new(r"[а-яё]\((а|ая|ла|ёл)\)").unwrap();
    for (file, text) in templates("ru") {
        for (at, line) in text.lines().enumerate() {
            assert!(
                !either.is_match(line),
                "templates/ru/{file}:{}: {line}",
                at + 1
            );
        }
    }
    // As a partner reads them: the forward in Russian, and the letter
    // about a newcomer in English.
    let mut t = Cup::new().in_language("ru").open();
    let mail = t.exchange(WHITE, "2026-11-03", "Партия 1", W1);
    let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
    forward.says("Ход партнёра (White Player) в партии 1 (White Player — Black Player):");
    let mut t = Cup::new().open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    t.new_mail();
    let mail = t.exchange(
        ARBITER,
        "2026-11-04",
        "Game 1",
        "REPLACE white Anna Green <anna@test.example>\n",
    );
    let replaced = mail.iter().find(|m| m.kind == "replaced").unwrap();
    replaced.says("write your moves to Anna Green (or to the clerk, as before).");
}

/// The PGN of game 1 of `t`, and its `Termination` tag.
fn termination(t: &Tournament) -> (String, String) {
    let pgn = t.run(&["pgn", "1"]).stdout;
    let tag = pgn
        .lines()
        .find_map(|line| line.strip_prefix("[Termination \""))
        .and_then(|rest| rest.strip_suffix("\"]"))
        .unwrap_or_else(|| panic!("no Termination tag: {pgn}"))
        .to_string();
    (pgn, tag)
}

/// A result the director set by command is his in the PGN, as in the
/// letters: "entered by the tournament director", not by the chief
/// arbiter; one the arbiter set is the arbiter's, and after the director
/// sets another, the director's.
#[test]
fn the_pgn_names_who_entered_a_result() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        let out = t.run(&["result", "1", "1/2", "--today", "2026-11-12"]);
        assert_eq!(out.code, 0, "{language}: {}", out.stderr);
        let pgn = t.run(&["pgn", "1"]).stdout;
        let (director, arbiter) = match language {
            "en" => (
                "result entered by the tournament director",
                "result entered by the chief arbiter",
            ),
            _ => (
                "результат внесён директором турнира",
                "результат внесён главным судьёй",
            ),
        };
        assert!(
            pgn.contains(director) && !pgn.contains(arbiter),
            "{language}: {pgn}"
        );
        t.exchange(ARBITER, "2026-11-13", "Game 1", "RESULT 1 1-0\n");
        let pgn = t.run(&["pgn", "1"]).stdout;
        assert!(
            pgn.contains(arbiter) && !pgn.contains(director),
            "{language}: {pgn}"
        );
    }
}

/// `Termination` as the PGN standard names it (8.1.1): a game
/// under way unterminated; a result the arbiter entered for the players
/// normal, with a comment saying who entered it (it said adjudication); a
/// forfeit a rules infraction (it said forfeit); a confirmed overstep a
/// time forfeit (it had no tag); the arbiter's result past the end date an
/// adjudication.
#[test]
fn termination_as_the_pgn_standard_names_it() {
    let mut t = Cup::new().open();
    t.opening();
    assert_eq!(termination(&t).1, "unterminated");
    t.exchange(
        ARBITER,
        "2026-11-12",
        "Game 1",
        "RESULT 1 1/2 agreed by telephone\n",
    );
    let (pgn, tag) = termination(&t);
    assert_eq!(tag, "normal");
    assert!(
        pgn.contains("; result entered by the chief arbiter}") && pgn.contains("1/2-1/2"),
        "{pgn}"
    );
    t.exchange(ARBITER, "2026-11-13", "Game 1", "FORFEIT 1 WHITE\n");
    assert_eq!(termination(&t).1, "rules infraction");

    // White silent past the limit; the arbiter confirms the overstep.
    let mut t = Cup::new().open();
    t.opening();
    t.pass("2026-12-26");
    t.exchange(ARBITER, "2026-12-27", "Re: [T #1]", "CONFIRM 1\n");
    let (pgn, tag) = termination(&t);
    assert_eq!(tag, "time forfeit", "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");

    // Past the end date, the arbiter adjudicates.
    let mut t = Cup::new().open();
    t.opening();
    t.letter(
        WHITE,
        "2028-11-01",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 2/4\n",
    );
    t.pass("2028-11-02");
    t.exchange(
        ARBITER,
        "2028-11-03",
        "Game 1",
        "RESULT 1 1-0 adjudicated: White wins the ending\n",
    );
    let (pgn, tag) = termination(&t);
    assert_eq!(tag, "adjudication", "{pgn}");
}

/// Point 13 (plurals): a move that took one day is "1 day" in the PGN
/// comment (it said "1 days") and in `today`'s lines (it said "1 day(s)").
#[test]
fn one_day_is_a_day_in_the_pgn_and_the_directors_lines() {
    let mut t = Cup::new().open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    t.letter(
        BLACK,
        "2026-11-04",
        "Re: [T #1] 1. e4",
        "Game 1\n1... e5\nTime: 2/1\nDates: 2026-11-03, 2026-11-03, 2026-11-04\n",
    );
    let out = t.poll("2026-11-04");
    // The director's line of the poll too (it said "1 days").
    assert!(
        out.stdout.contains("1... e5: 1 day, totals 2/1"),
        "{}",
        out.stdout
    );
    let pgn = t.run(&["pgn", "1"]).stdout;
    assert!(
        pgn.contains("{sent 2026-11-04, received 2026-11-04, 1 day}"),
        "{pgn}"
    );
    assert!(!pgn.contains(" 1 days"), "{pgn}");
    let today = t
        .run(&["today", "--today", "2026-12-21", "--days", "3"])
        .stdout;
    assert!(today.contains("(1 day left today)"), "{today}");
    assert!(!today.contains("day(s)"), "{today}");
}

/// A letter refused in game 1's thread, which the director takes
/// for game 2 (`accept KEY --game 2`), has a receipt that says so, not "by
/// its line Game 2" (it had none).
#[test]
fn the_receipt_of_a_letter_accepted_for_another_game_says_who_took_it() {
    for language in ["en", "ru"] {
        let mut t = Cup::new()
            .in_language(language)
            .game("2", "white", "black")
            .open();
        t.letter(WHITE, "2026-11-03", "Game 1", W1);
        t.pass("2026-11-03");
        t.letter(BLACK, "2026-11-07", "Re: [T #1] 1. e4", B1);
        t.pass("2026-11-07");
        t.new_mail();
        // Meant for game 2, written in game 1's thread: illegal there.
        let mail = t.exchange(
            WHITE,
            "2026-11-08",
            "Re: [T #1] 1... e5",
            "1. d4\nTime: 0/0\n",
        );
        assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{language}");
        let today = t.run(&["today", "--today", "2026-11-08", "--json"]).stdout;
        let today: serde_json::Value = serde_json::from_str(&today).unwrap();
        let key = today["changed_nothing"][0]["key"]
            .as_str()
            .unwrap()
            .to_string();
        let out = t.run(&["accept", &key, "--game", "2", "--today", "2026-11-08"]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        let mail = t.new_mail();
        let ack = mail
            .iter()
            .find(|m| m.to == [WHITE])
            .unwrap_or_else(|| panic!("a receipt: {:?}", kinds(&mail)));
        ack.says(pick(
            language,
            "The letter was taken for game 2 by the order that accepted it, though it answers a message of game 1.",
            "Письмо отнесено к партии 2 распоряжением, которым оно принято, хотя оно отвечает на письмо по партии 1.",
        ));
        ack.never_says("Game 2\"");
        ack.never_says("«Партия 2»");
    }
}

/// `today`'s line for each letter that changed nothing gives the
/// command that fits it: `accept` for a refused move letter, none for a
/// player's forged order or a refused leave, which `accept` cannot take.
#[test]
fn todays_hint_fits_the_letter() {
    let mut t = Cup::new().open();
    t.opening();
    t.exchange(BLACK, "2026-11-08", "Re: [T #1]", "CONFIRM 1\n");
    t.exchange(
        WHITE,
        "2026-11-08",
        "Leave",
        "LEAVE 20.11.2026 - 29.11.2026\n",
    );
    t.exchange(
        WHITE,
        "2026-11-08",
        "Re: [T #1]",
        "Game 1\n2. Ke3\nTime: 3/4\n",
    );
    let today = t.run(&["today", "--today", "2026-11-08"]).stdout;
    let line = |words: &str| {
        today
            .lines()
            .find(|line| line.contains(words))
            .unwrap_or_else(|| panic!("no line with {words:?}:\n{today}"))
            .to_string()
    };
    let order = line("from black@test.example");
    assert!(
        order.contains("not carried out, its writer told whose orders count")
            && !order.contains("accept"),
        "{order}"
    );
    let leave = line("leave refused");
    assert!(
        leave.contains("a leave refused") && !leave.contains("shtempel accept"),
        "{leave}"
    );
    let illegal = today
        .lines()
        .find(|line| line.contains("from white@test.example") && !line.contains("leave"))
        .unwrap_or_else(|| panic!("no line for the illegal move:\n{today}"));
    assert!(
        illegal.contains("(shtempel accept mid:")
            && illegal.contains(" takes it as the clerk read it; add --move"),
        "{illegal}"
    );
    // A letter refused because its game is over gets no `accept`: there
    // is nothing in the game to take it into.
    t.exchange(BLACK, "2026-11-09", "Re: [T #1]", "Game 1\nI resign.\n");
    let late = t.exchange(
        WHITE,
        "2026-11-10",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 3/4\n",
    );
    assert_eq!(kinds(&late), [pair("refused", WHITE)]);
    let today = t.run(&["today", "--today", "2026-11-10"]).stdout;
    let over = today
        .lines()
        .find(|line| line.contains("2026-11-10") && line.contains("from white@test.example"))
        .unwrap_or_else(|| panic!("no line for the late letter:\n{today}"));
    assert!(
        over.contains("its game is over") && !over.contains("shtempel accept"),
        "{over}"
    );
}

/// A start sheet says the day the player's clock starts, not the
/// rule (a late one: the day after it goes out; one in time: the start
/// date), in either language.
#[test]
fn a_start_sheet_says_the_day_the_clock_starts() {
    // (language, the day it goes out, what it says)
    let table = [
        (
            "en",
            "2026-11-03",
            "It goes out on 2026-11-03, after the start date (2026-11-01), so your clock starts on 2026-11-04, the day after.",
        ),
        (
            "en",
            "2026-10-25",
            "It goes out on 2026-10-25, by the start date, so your clock starts with the tournament on 2026-11-01.",
        ),
        (
            "ru",
            "2026-11-03",
            "Письмо отправлено 03.11.2026, позже даты начала турнира (01.11.2026), поэтому ваше время начинает идти 04.11.2026, на следующий день.",
        ),
        (
            "ru",
            "2026-11-01",
            "Письмо отправлено 01.11.2026, не позже даты начала, поэтому ваше время начинает идти вместе с турниром, 01.11.2026.",
        ),
    ];
    for (language, day, words) in table {
        let mut t = Cup::new().in_language(language).open();
        let out = t.run(&["start", "--today", day]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        let mail = t.new_mail();
        assert_eq!(mail.len(), 2, "{language} {day}");
        mail[0].says(words);
        mail[0].never_says("the day after it.");
        mail[0].never_says("пойдут со следующего дня");
    }
}

/// "days left" says as of when, and is true as said: after an
/// undo on 11 November of Black's 1... e5, Black, whose clock has run
/// since White's first move reached Black on 3 November, has 50 - 8 = 42
/// days as of that day (it said "counting from the day the partner's move
/// reached him").
#[test]
fn days_left_say_as_of_when() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        let mail = t.exchange(ARBITER, "2026-11-11", "Game 1", "UNDO 1 a misread move\n");
        let undo = mail.iter().find(|m| m.kind == "undo").unwrap();
        undo.says(pick(
            language,
            "Black Player is to move again: as of today, 2026-11-11, 42 days left in the current control; the letter with the move must be sent by 2026-12-23.",
            "Снова ходит Black Player: на сегодня, 11.11.2026, в текущем контроле осталось 42 дн.; письмо с ходом нужно отправить не позднее 23.12.2026.",
        ));
        undo.never_says("counting from the day");
        undo.never_says("считая со дня");
    }
}

/// A resumed game's 40-day repeat counts from the decision
/// (2.5.6), not through the suspension: White's late first move overstepped
/// by its letter (25 December, 54 > 50 days), the arbiter rejects the
/// overstep 47 days later, and the poll that carries it out sends the
/// decision, not also a registered repeat of a letter "unanswered 47 days";
/// the repeat comes 40 days after the decision.
#[test]
fn a_resumed_games_repeat_counts_from_the_decision() {
    let (mut t, mail) = white_oversteps(Cup::new());
    assert!(
        mail.iter().any(|m| m.kind == "overstep-file"),
        "{:?}",
        kinds(&mail)
    );
    let mail = overstep_rejected(&mut t);
    assert!(
        mail.iter().any(|m| m.kind == "decision"),
        "{:?}",
        kinds(&mail)
    );
    assert!(
        !mail.iter().any(|m| m.kind == "repeat"),
        "no repeat with the decision: {:?}",
        kinds(&mail)
    );
    t.pass("2027-03-21");
    assert!(
        !t.new_mail().iter().any(|m| m.kind == "repeat"),
        "39 days after"
    );
    t.pass("2027-03-22");
    let mail = t.new_mail();
    assert!(
        mail.iter().any(|m| m.kind == "repeat"),
        "40 days after the decision: {:?}",
        kinds(&mail)
    );
}

/// On a day of leave no reminder goes out, not even one that
/// fell due before the leave while no run was made; it goes on the first
/// day after. A refused leave says how many days were asked and how many
/// are left.
#[test]
fn a_leave_holds_what_fell_due_before_it_and_a_refusal_counts_the_days() {
    let mut t = Cup::new().rules("leave_days_per_year = 12").open();
    t.opening();
    // White to move since 7 November; with the leave his last day is
    // 4 January, and the reminder at 10 days left fell due on 15 December.
    let mail = t.exchange(
        WHITE,
        "2026-11-10",
        "Leave",
        "LEAVE 20.12.2026 - 29.12.2026\n",
    );
    assert_eq!(
        kinds(&mail),
        [pair("leave", WHITE), pair("leave-notice", BLACK)]
    );
    mail[0].says("no repeats or reminders in your games");
    // No run from then until a day of leave.
    t.pass("2026-12-21");
    let mail = t.new_mail();
    assert!(
        !mail
            .iter()
            .any(|m| m.kind == "reminder" || m.kind == "repeat"),
        "nothing on a day of leave: {:?}",
        kinds(&mail)
    );
    t.pass("2026-12-29");
    assert!(t.new_mail().is_empty(), "the leave's last day");
    t.pass("2026-12-30");
    let mail = t.new_mail();
    assert!(
        mail.iter().any(|m| m.kind == "reminder"),
        "the day after the leave: {:?}",
        kinds(&mail)
    );
    // Asked over what is left: both counts said.
    let mail = t.exchange(
        WHITE,
        "2026-11-11",
        "Leave",
        "LEAVE 01.12.2026 - 05.12.2026\n",
    );
    mail[0].says("it asks 5 days of 2026, and you have 2 days of that year's 12 days left");
}

/// A move out of turn in the game its letter names (game 1's
/// thread: Black is to move there) is refused, and the refusal points to
/// the one other game where its writer is to move and the move is legal
/// (game 2, White's second move); nothing is applied in either.
#[test]
fn out_of_turn_here_in_turn_there_asks_did_you_mean_that_game() {
    for language in ["en", "ru"] {
        let mut t = Cup::new()
            .in_language(language)
            .game("2", "white", "black")
            .open();
        t.letter(WHITE, "2026-11-03", "Game 1", W1);
        t.pass("2026-11-03");
        t.letter(
            WHITE,
            "2026-11-03",
            "Game 2",
            "Game 2\n1. d4\nTime: 2/0\nDates: 2026-11-03\n",
        );
        t.pass("2026-11-03");
        t.letter(
            BLACK,
            "2026-11-05",
            "Game 2",
            "Game 2\n1... d5\nTime: 2/2\nDates: 2026-11-03, 2026-11-03, 2026-11-05\n",
        );
        t.pass("2026-11-05");
        t.new_mail();
        // White's second move of game 2, written in game 1's thread.
        let mail = t.exchange(
            WHITE,
            "2026-11-06",
            "Re: [T #1] 1. e4",
            "2. c4\nTime: 3/2\n",
        );
        assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{language}");
        mail[0].says(pick(
            language,
            "in game 2 (White Player - Black Player) it is your move, and these moves are legal there: did you mean game 2? Nothing has been applied",
            "в партии 2 (White Player — Black Player) ваш ход, и эти ходы там возможны: может быть, письмо для партии 2? Ничего не применено",
        ));
        assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
        assert_eq!(t.chart("2")["moves"].as_array().unwrap().len(), 2);
    }
}

/// `Kf3` with a Latin K in a Russian letter, where only a knight
/// can go to f3, is refused as illegal (right) and asks "did you mean
/// Кf3 (knight)?"; nothing is applied. Where neither reading is legal,
/// nothing is guessed.
#[test]
fn a_piece_letter_of_the_other_alphabet_is_asked_about() {
    let mut t = Cup::new().in_language("ru").open();
    t.letter(
        WHITE,
        "2026-11-03",
        "Партия 1",
        "Партия 1\n1. e4\nВремя: 2/0\nДаты: 03.11.2026\n",
    );
    t.pass("2026-11-03");
    t.letter(
        BLACK,
        "2026-11-05",
        "Re: [T #1] 1. e4",
        "Партия 1\n1... e5\nВремя: 2/2\nДаты: 03.11.2026, 03.11.2026, 05.11.2026\n",
    );
    t.pass("2026-11-05");
    t.new_mail();
    let mail = t.exchange(
        WHITE,
        "2026-11-06",
        "Re: [T #1] 1... e5",
        "Партия 1\n2. Kf3\nВремя: 3/2\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", WHITE)]);
    mail[0].says("может быть, Кf3 (конь)?");
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);

    // Where neither reading is legal (nothing goes to f4), no guess.
    let mail = t.exchange(
        WHITE,
        "2026-11-06",
        "Re: [T #1] 1... e5",
        "Партия 1\n2. Kf4\nВремя: 3/2\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", WHITE)]);
    mail[0].never_says("(конь)");
}

/// The addressee is "you" in his own letter. A decision, an
/// undo, a forfeit and a game's start went to both players as one letter
/// ("Dear players", "Anna Green is to move", «Ходит Иванов Иван»); each
/// player now gets his own, which speaks to him, and no letter to a player
/// names him in the third person.
#[test]
fn each_player_is_spoken_to_as_you() {
    let (anna, ivanov) = ("Anna Green", "Иванов Иван");
    for language in ["en", "ru"] {
        let cup = Cup::empty()
            .named("T", "Test cup")
            .in_language(language)
            .player("white", anna, WHITE)
            .player("black", ivanov, BLACK)
            .game("1", "white", "black");
        let mut all = Vec::new();
        let says = |en: &'static str, ru: &'static str| pick(language, en, ru);

        // The undo of Black's 1... e5: Ivanov is to move again.
        let mut t = cup.open();
        t.opening();
        let mail = t.exchange(ARBITER, "2026-11-11", "Game 1", "UNDO 1 a misread move\n");
        assert_eq!(
            kinds(&mail),
            [
                pair("undo", WHITE),
                pair("undo", BLACK),
                pair("order-done", ARBITER)
            ]
        );
        mail[1].says(says("Dear Иванов Иван,", "Иванов Иван, здравствуйте!"));
        mail[1].says(says(
            "has taken back the last letter of game 1 (Anna Green - Иванов Иван): your 1... e5, because: a misread move.",
            "Ваше последнее письмо по партии 1 (Anna Green — Иванов Иван) отменено: 1... e5;",
        ));
        mail[1].says(says(
            "You are to move again: as of today, 2026-11-11, 42 days left",
            "Снова ваш ход: на сегодня, 11.11.2026, в текущем контроле осталось 42 дн.",
        ));
        mail[0].says(says(
            "Иванов Иван is to move again: as of today, 2026-11-11, 42 days left",
            "Снова ходит Иванов Иван: на сегодня, 11.11.2026,",
        ));
        // Only the reader who is to move gets the lines for his letter.
        mail[1].says(says(
            "Lines for your next letter",
            "Строки для вашего следующего письма",
        ));
        mail[0].never_says(says(
            "Lines for your next letter",
            "Строки для вашего следующего письма",
        ));
        all.extend(mail);

        // A forfeit: the loser is told he loses, the winner who lost.
        let mail = t.exchange(ARBITER, "2026-11-12", "Game 1", "FORFEIT 1 BLACK\n");
        assert_eq!(
            kinds(&mail),
            [
                pair("result", WHITE),
                pair("result", BLACK),
                pair("order-done", ARBITER)
            ]
        );
        mail[1].says(says(
            "You lose by forfeit, set by the chief arbiter.",
            "Вам — техническое поражение, засчитал главный судья.",
        ));
        mail[0].says(says(
            "Иванов Иван loses by forfeit, set by the chief arbiter.",
            "Иванов Иван: техническое поражение, засчитал главный судья.",
        ));
        all.extend(mail);

        // An overstep rejected: Anna's own overstep, Ivanov's move.
        let (mut t, _) = white_oversteps(cup.clone());
        let mail = overstep_rejected(&mut t);
        let decision = |to: &str| {
            mail.iter()
                .find(|m| m.kind == "decision" && m.to == [to])
                .unwrap_or_else(|| panic!("{:?}", kinds(&mail)))
        };
        decision(WHITE).says(says(
            "the chief arbiter has decided on your overstep in game 1 (Anna Green - Иванов Иван).",
            "Главный судья принял решение по вашей просрочке времени в партии 1 (Anna Green — Иванов Иван).",
        ));
        decision(WHITE).says(says(
            "Иванов Иван is to move: as of today, 2027-02-10,",
            "Ходит Иванов Иван: на сегодня, 10.02.2027,",
        ));
        decision(BLACK).says(says(
            "the chief arbiter has decided on the overstep of your partner, Anna Green, in game 1",
            "Главный судья принял решение по просрочке времени вашего партнёра (Anna Green) в партии 1",
        ));
        decision(BLACK).says(says(
            "You are to move: as of today, 2027-02-10,",
            "Ваш ход: на сегодня, 10.02.2027,",
        ));
        all.extend(mail);

        // No letter to a player names him in the third person.
        for message in &all {
            for (address, name) in [(WHITE, anna), (BLACK, ivanov)] {
                if message.to != [address] {
                    continue;
                }
                for third_person in [
                    format!("{name} is to move"),
                    format!("Ходит {name}"),
                    format!("{name} loses"),
                    format!("{name}: техническое"),
                    format!("the offender is {name}"),
                    format!("нарушитель — {name}"),
                    "Dear players".to_string(),
                    "Уважаемые участники".to_string(),
                ] {
                    message.never_says(&third_person);
                }
            }
        }
    }
}

/// The days the chief arbiter excused are shown at the move they belong
/// to: after `ОТКЛОНИТЬ 1 10` at the move that overstepped (which alone
/// said its 54 days); after an overstep by silence, at the offender's next
/// move, the first after the decision.
#[test]
fn the_excused_days_are_shown_at_their_move() {
    for (language, reject) in [("en", "REJECT 1 10\n"), ("ru", "ОТКЛОНИТЬ 1 10\n")] {
        let (mut t, _) = white_oversteps(Cup::new().in_language(language));
        t.exchange(ARBITER, "2027-02-10", "Re: [T #1]", reject);
        let pgn = t.run(&["pgn", "1"]).stdout.replace('\n', " ");
        let comment = pick(
            language,
            "1. e4 {sent 2026-12-25, received 2026-12-25, 54 days, excused by the chief arbiter: 10 days}",
            "1. e4 {отправлен 2026-12-25, получен 2026-12-25, 54 дн., не засчитано главным судьёй: 10 дн.}",
        );
        assert!(pgn.contains(comment), "{pgn}");
    }

    // By silence: White has not answered 1... e5 (7 November) by
    // 26 December; the arbiter names 5 days, of which the 2 charged to
    // White (1. e4) are excused (the silence was never charged), and they
    // show at White's next move once he makes it.
    let mut t = Cup::new().open();
    t.opening();
    t.pass("2026-12-26");
    t.exchange(ARBITER, "2027-01-03", "Re: [T #1]", "REJECT 1 5\n");
    let pgn = t.run(&["pgn", "1"]).stdout;
    assert!(!pgn.contains("excused"), "no move of White's yet: {pgn}");
    t.letter(
        WHITE,
        "2027-01-05",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 49/4\nDates: 2026-11-07, 2026-11-07, 2027-01-05\n",
    );
    t.pass("2027-01-05");
    let pgn = t.run(&["pgn", "1"]).stdout.replace('\n', " ");
    let at_nf3 = pgn
        .split("2. Nf3 {")
        .nth(1)
        .unwrap_or_else(|| panic!("{pgn}"));
    let at_nf3 = &at_nf3[..at_nf3.find('}').unwrap()];
    assert!(
        at_nf3.ends_with(", excused by the chief arbiter: 2 days"),
        "{pgn}"
    );
    assert_eq!(pgn.matches("excused").count(), 1, "{pgn}");
}

/// Point 8 (the correction): a total counted from a late clock start says
/// why. Black's start sheet reached Black on 5 November, so Black's clock
/// started on the 6th and 1... e5 of the 7th took 1 day, not 4; White's
/// reached White on 2 November, and 1. e4 of the 3rd took none, not 2.
/// The correction said only «время чёрных 1, а не 4».
#[test]
fn a_correction_from_a_late_clock_start_says_why() {
    for language in ["en", "ru"] {
        let mut t = Cup::new()
            .in_language(language)
            .player_has("black", "start_sheet_received = 2026-11-05")
            .open();
        t.opening();
        let correction = t
            .outbox()
            .into_iter()
            .find(|m| m.kind == "correction" && m.to == [BLACK])
            .unwrap_or_else(|| panic!("{:?}", kinds(&t.outbox())));
        correction.says(pick(
            language,
            "Black's total is 1, not 4 (Black's clock started on 2026-11-06, the day after the start sheet reached Black, section 10.3.2)",
            "время чёрных 1, а не 4 (чёрные: время пошло 06.11.2026, на следующий день после получения стартового листа, п. 10.3.2)",
        ));
    }
    let mut t = Cup::new()
        .player_has("white", "start_sheet_received = 2026-11-02")
        .open();
    let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
    let correction = mail.iter().find(|m| m.kind == "correction").unwrap();
    correction.says("White's total is 0, not 2 (White's clock started on 2026-11-03, the day after the start sheet reached White, section 10.3.2)");
    // A sheet by the start date moves no clock: nothing to explain.
    let mut t = Cup::new()
        .player_has("black", "start_sheet_received = 2026-10-30")
        .open();
    t.opening();
    assert!(
        !t.outbox().iter().any(|m| m.kind == "correction"),
        "{:?}",
        kinds(&t.outbox())
    );
}

/// An overstep by silence of a player charged nothing yet: the arbiter's
/// `REJECT 1 5` excuses no day (none had been charged, and the silence is
/// never charged: his clock counts again from the decision). Every letter
/// says so and its numbers add up: the decision gives 2/0, and Black's
/// 2-day move then makes it 2/2, not 2/0.
#[test]
fn no_more_days_are_excused_than_were_charged() {
    for (language, reject) in [("en", "REJECT 1 5\n"), ("ru", "ОТКЛОНИТЬ 1 5\n")] {
        let mut t = Cup::new().in_language(language).open();
        t.exchange(WHITE, "2026-11-03", "Game 1", W1);
        t.pass("2026-12-24");
        t.new_mail();
        let mail = t.exchange(ARBITER, "2026-12-28", "Re: [T #1]", reject);
        let decision = mail
            .iter()
            .find(|m| m.kind == "decision" && m.to == [BLACK])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        decision.says(pick(
            language,
            "The chief arbiter named 5 days to excuse you, but no day had been charged, and no more than was charged can be excused; the time used (White/Black) is now 2/0.",
            "Главный судья велел не засчитывать вам 5 дн., но не было засчитано ни одного дня, а списать больше, чем засчитано, нельзя; время (белые/чёрные) теперь 2/0.",
        ));
        decision.never_says(pick(
            language,
            "Days the chief arbiter excused",
            "Дни, которые главный судья не засчитал",
        ));
        let done = mail
            .iter()
            .find(|m| m.kind == "order-done")
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        done.says(pick(
            language,
            "the chief arbiter excused days: 0 of the 5 the order named, no more having been charged (Black Player)",
            "главный судья не засчитал дней: 0 из названных в распоряжении 5, больше засчитано не было (Black Player)",
        ));
        let reply = "Game 1\n1... e5\nTime: 2/2\nDates: 2026-11-03, 2026-11-03, 2026-12-30\n";
        let mail = t.exchange(BLACK, "2026-12-30", "Re: [T #1]", reply);
        assert_eq!(
            kinds(&mail),
            [pair("ack", BLACK), pair("forward", WHITE)],
            "{language}"
        );
        assert_eq!(t.totals("1"), (2, 2), "{language}");
    }
}

/// The text a template or phrase gives its reader, its code left out: the
/// `{{ … }}`/`{% … %}` parts, a phrase's `{name}` slots and keys, the
/// commands (`shtempel …`), the addresses and the `Subject:` header word.
fn readers_text(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let code = regex::Regex::new(r"(?s)\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}").unwrap();
    let mut text = code.replace_all(&text, " ").into_owned();
    if path.extension().is_some_and(|e| e == "toml") {
        text = text
            .lines()
            .filter(|line| !line.trim_start().starts_with('#') && !line.starts_with('['))
            .map(|line| line.split_once('=').map_or(line, |(_, value)| value))
            .collect::<Vec<_>>()
            .join("\n");
    }
    let left_out =
        regex::Regex::new(r"\{\w+\}|shtempel[ \w{}.-]*|[\w.+-]+@[\w.-]+|(?m)^Subject:|<[\w.@-]+>")
            .unwrap();
    left_out.replace_all(&text, " ").into_owned()
}

/// No Russian letter carries English words and no English one Russian
/// words: every sentence a reader gets is in his tournament's language.
/// The few names both share (FEN, PGN, CSV, Xfcc and the programs that
/// speak it) are allowed, and the one
/// notation example an English refusal gives of Russian moves.
#[test]
fn every_template_speaks_its_own_language_only() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("templates");
    let latin = regex::Regex::new(r"[A-Za-z][A-Za-z']{2,}").unwrap();
    let cyrillic = regex::Regex::new(r"[\p{Cyrillic}]+\w*").unwrap();
    // Names both languages write alike: formats, the Xfcc protocol and its
    // word, the chess programs that speak it, and Glickman's rating method.
    let shared = [
        "FEN",
        "PGN",
        "CSV",
        "Xfcc",
        "XFCC",
        "Scid",
        "scidCommunity",
        "Lucas",
        "Chess",
        "ChessBase",
        "Glicko",
    ];
    let mut read = 0;
    for language in ["en", "ru"] {
        for entry in std::fs::read_dir(root.join(language)).unwrap() {
            let path = entry.unwrap().path();
            let text = readers_text(&path);
            read += 1;
            let name = path.display();
            if language == "ru" {
                let english: Vec<&str> = latin
                    .find_iter(&text)
                    .map(|m| m.as_str())
                    .filter(|word| !shared.contains(word))
                    .collect();
                assert!(
                    english.is_empty(),
                    "{name}: English in Russian: {english:?}"
                );
            } else {
                let russian: Vec<&str> = cyrillic
                    .find_iter(&text)
                    .map(|m| m.as_str())
                    .filter(|word| *word != "Кf3")
                    .collect();
                assert!(
                    russian.is_empty(),
                    "{name}: Russian in English: {russian:?}"
                );
            }
        }
    }
    assert!(read > 70, "{read} files read");
}

/// A player named with an initial ("Petrov P."): a sentence ending in his
/// name ends with one full stop, in either language.
#[test]
fn a_name_ending_in_an_initial_ends_its_sentence_once() {
    for language in ["en", "ru"] {
        let mut t = Cup::empty()
            .named("T", "Test cup")
            .in_language(language)
            .player("white", "Ivanov I.", WHITE)
            .player("black", "Petrov P.", BLACK)
            .game("1", "white", "black")
            .open();
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", W1);
        let receipt = mail.iter().find(|m| m.to == [WHITE]).unwrap();
        receipt.says(pick(language, "passed on to Petrov P.", "Petrov P."));
        for sent in &mail {
            sent.never_says("P..");
            sent.never_says("I..");
        }
    }
}

/// The PGN's comment tells what happened in its order: a replacement, then
/// the result the arbiter entered after it.
#[test]
fn the_pgn_comment_tells_a_replacement_before_the_result_after_it() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        let order = "REPLACE white New Player <new.player@test.example>\n";
        t.exchange(ARBITER, "2026-11-10", "Replacement", order);
        t.exchange(ARBITER, "2026-11-12", "Game 1", "RESULT 1 1-0\n");
        let pgn = t.run(&["pgn", "1"]).stdout.replace('\n', " ");
        let (replaced, entered) = match language {
            "en" => (
                "replacing White Player",
                "result entered by the chief arbiter",
            ),
            _ => ("вместо: White Player", "результат внесён главным судьёй"),
        };
        let (Some(at_replaced), Some(at_entered)) = (pgn.find(replaced), pgn.find(entered)) else {
            panic!("{language}: {pgn}");
        };
        assert!(at_replaced < at_entered, "{language}: {pgn}");
    }
}

/// CONTINUE after an overstepping move says what it does: the file was
/// incomplete, the move's days are not counted, play resumes without a
/// penalty; never "days excused", which is REJECT's word.
#[test]
fn continue_says_the_overstepping_moves_days_are_not_counted() {
    for (language, order) in [("en", "CONTINUE 1\n"), ("ru", "ПРОДОЛЖИТЬ 1\n")] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        // White's 2. Nf3 after 52 days: 54 > 50.
        let mail = t.exchange(
            WHITE,
            "2026-12-29",
            "Re: [T #1]",
            "Game 1\n2. Nf3\nTime: 54/4\nDates: 2026-11-07, 2026-11-07, 2026-12-29\n",
        );
        assert!(
            mail.iter().any(|m| m.kind == "overstep-file"),
            "{language}: {:?}",
            kinds(&mail)
        );
        let mail = t.exchange(ARBITER, "2027-01-03", "Re: [T #1]", order);
        let decision = mail
            .iter()
            .find(|m| m.kind == "decision" && m.to == [WHITE])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        decision.says(pick(
            language,
            "The file was incomplete, so the overstep is not confirmed: the 52 days of the overstepping move are not counted, and the game resumes without a penalty; the time used (White/Black) is now 2/4.",
            "Материалы неполны, просрочка не утверждена: 52 дн. хода с просрочкой не засчитываются, игра продолжается без штрафа; время (белые/чёрные) теперь 2/4.",
        ));
        decision.never_says(pick(
            language,
            "Days the chief arbiter excused",
            "Дни, которые главный судья не засчитал",
        ));
        assert_eq!(t.totals("1"), (2, 4), "{language}");
    }
}

/// A correction a leave caused names the leave: the writer counted the
/// days of his leave, the clerk did not, and the correction says why.
#[test]
fn a_correction_caused_by_a_leave_names_it() {
    for (language, leave) in [
        ("en", "LEAVE 10.11.2026 - 14.11.2026\n"),
        ("ru", "ОТПУСК 10.11.2026 - 14.11.2026\n"),
    ] {
        let mut t = Cup::new()
            .in_language(language)
            .rules("leave_days_per_year = 30\n")
            .open();
        t.opening();
        let granted = t.exchange(WHITE, "2026-11-08", "leave", leave);
        assert!(granted.iter().all(|m| m.kind != "refused"), "{language}");
        // From 7 November to 17 November: 10 days, 5 of them on leave.
        let mail = t.exchange(
            WHITE,
            "2026-11-17",
            "Re: [T #1]",
            "Game 1\n2. Nf3\nTime: 12/4\nDates: 2026-11-07, 2026-11-07, 2026-11-17\n",
        );
        let correction = mail
            .iter()
            .find(|m| m.kind == "correction" && m.to == [WHITE])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        correction.says(pick(
            language,
            "White's total is 7, not 12 (5 days in a leave are not counted)",
            "время белых 7, а не 12 (5 дн. отпуска не засчитаны)",
        ));
        assert_eq!(t.totals("1"), (7, 4), "{language}");
    }
}

/// After a decision resumes a game, the lines for the next letter give the
/// day play resumed as the day received (his days count from it), a letter
/// filled in from them is taken as it is, and one counted from the old day
/// is corrected with the reason.
#[test]
fn after_a_decision_the_lines_and_the_count_agree() {
    for (language, reject) in [("en", "REJECT 1\n"), ("ru", "ОТКЛОНИТЬ 1\n")] {
        // Black silent past his 50 days: the overstep, then REJECT on 28
        // December; his days count again from that day.
        let resumed = || {
            let mut t = Cup::new().in_language(language).open();
            t.exchange(WHITE, "2026-11-03", "Game 1", W1);
            t.pass("2026-12-24");
            t.new_mail();
            let mail = t.exchange(ARBITER, "2026-12-28", "Re: [T #1]", reject);
            (t, mail)
        };
        let (mut t, mail) = resumed();
        let decision = mail
            .iter()
            .find(|m| m.kind == "decision" && m.to == [BLACK])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        decision.says(pick(
            language,
            "Dates: 2026-11-03, 2026-12-28, <the date you send it>",
            "Даты: 03.11.2026, 28.12.2026, <дата отправки>",
        ));
        // Filled in from the lines: 2 days from 28 December.
        let mail = t.exchange(
            BLACK,
            "2026-12-30",
            "Re: [T #1]",
            "Game 1\n1... e5\nTime: 2/2\nDates: 2026-11-03, 2026-12-28, 2026-12-30\n",
        );
        assert_eq!(
            kinds(&mail),
            [pair("ack", BLACK), pair("forward", WHITE)],
            "{language}"
        );
        // Counted from the old day: 57 days. Corrected, with the reason.
        let (mut t, _) = resumed();
        let mail = t.exchange(
            BLACK,
            "2026-12-30",
            "Re: [T #1]",
            "Game 1\n1... e5\nTime: 2/57\nDates: 2026-11-03, 2026-11-03, 2026-12-30\n",
        );
        let correction = mail
            .iter()
            .find(|m| m.kind == "correction" && m.to == [BLACK])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        correction.says(pick(
            language,
            "Black's total is 2, not 57 (Black's days count from 2026-12-28, when play resumed after the chief arbiter's decision)",
            "время чёрных 2, а не 57 (чёрные: время считается с 28.12.2026, когда игра возобновилась после решения главного судьи)",
        ));
        assert_eq!(t.totals("1"), (2, 2), "{language}");
    }
}

/// A check is marked where the move is told, as the PGN marks it: the
/// forward's subject and text say `2. Qh5+` for a player's `2. Qh5`.
#[test]
fn a_check_is_marked_in_the_forward_and_its_subject() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.exchange(WHITE, "2026-11-03", "Game 1", W1);
        t.exchange(
            BLACK,
            "2026-11-04",
            "Re: [T #1]",
            "Game 1\n1... f5\nTime: 2/1\nDates: 2026-11-03, 2026-11-03, 2026-11-04\n",
        );
        let mail = t.exchange(
            WHITE,
            "2026-11-05",
            "Re: [T #1]",
            "Game 1\n2. Qh5\nTime: 3/1\nDates: 2026-11-04, 2026-11-04, 2026-11-05\n",
        );
        let forward = mail
            .iter()
            .find(|m| m.kind == "forward")
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        let said = pick(language, "2. Qh5+", "2. Фh5+");
        assert!(forward.subject.contains(said), "{}", forward.subject);
        forward.says(said);
    }
}

/// The lines of the next letter (a start sheet's for White's first, a
/// forward's for the reply), filled in as they ask ("copy, fill in and
/// send") and sent back with their heading and the hint beside the time
/// left where they were, are read as written: the answer is a plain
/// receipt, no "no move found" (the heading once read as a quote's
/// separator, and all below it cut) and no warning of a fraction "not
/// read".
#[test]
fn the_next_letters_lines_filled_in_as_they_ask_are_read() {
    for language in ["en", "ru"] {
        let mut t = Tournament::with_config(&Cup::new().in_language(language).text());
        // White's start sheet: the lines of his first letter.
        let out = t.run(&["start", "--today", "2026-10-25"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let sheets = t.new_mail();
        let sheet = sheets
            .iter()
            .find(|m| m.to == [WHITE])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&sheets)));
        let first = filled_in(&sheet.body, "e4", "2/0", "03.11.2026");
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", &first);
        assert_eq!(
            kinds(&mail),
            [pair("ack", WHITE), pair("forward", BLACK)],
            "{language}, the letter:\n{first}\nthe answer:\n{}",
            mail[0].body
        );
        // Black's reply: the lines the forward gives him.
        let forward = &mail[1];
        let reply = filled_in(&forward.body, "e5", "2/2", "05.11.2026");
        let mail = t.exchange(BLACK, "2026-11-05", &forward.subject, &reply);
        assert_eq!(
            kinds(&mail),
            [pair("ack", BLACK), pair("forward", WHITE)],
            "{language}, the letter:\n{reply}\nthe answer:\n{}",
            mail[0].body
        );
    }
}

/// The block of lines a message of the clerk's asks to be copied, copied
/// with its heading (to the first empty line), and filled in with `mv`, the
/// time `time` and the day `sent`, in either language.
fn filled_in(body: &str, mv: &str, time: &str, sent: &str) -> String {
    let block: Vec<&str> = body
        .lines()
        .skip_while(|line| {
            !line.contains("(copy, fill in and send)")
                && !line.contains("(скопируйте, заполните и отправьте)")
        })
        .take_while(|line| !line.trim().is_empty())
        .collect();
    assert!(block.len() > 3, "no lines to copy in:\n{body}");
    let filled: Vec<String> = block
        .iter()
        .map(|line| {
            line.replace("<your move>", mv)
                .replace("<ваш ход>", mv)
                .replace("<White's total>/<Black's total>", time)
                .replace("<время белых>/<время чёрных>", time)
                .replace("<the date you send it>", sent)
                .replace("<дата отправки>", sent)
        })
        .collect();
    let filled = filled.join("\n") + "\n";
    assert!(!filled.contains('<'), "all filled in:\n{filled}");
    filled
}

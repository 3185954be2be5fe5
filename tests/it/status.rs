//! `STATUS` / `СТАТУС` by mail: a player asks where his games stand and
//! gets one answer, across the clerk's events, changing nothing.

use crate::person::{carol_opens, folder};
use crate::support::*;

/// The one message of `mail`, of kind `kind`, to `to`.
fn only<'m>(mail: &'m [Sent], kind: &str, to: &str) -> &'m Sent {
    assert_eq!(kinds(mail), [pair(kind, to)], "{mail:#?}");
    &mail[0]
}

#[test]
fn a_player_is_told_where_his_game_stands_and_nothing_changes() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        let before = t.chart("1");
        let word = pick(language, "STATUS", "СТАТУС");
        // White is to move after 1. e4 e5: his answer has the board.
        let mail = t.exchange(WHITE, "2026-11-09", "status", word);
        let answer = only(&mail, "status", WHITE);
        for words in [
            "[T #1]",
            pick(
                language,
                "you play white against Black Player",
                "ваш цвет — белые, партнёр — Black Player",
            ),
            pick(language, "Moves so far: 1. e4 e5", "Ходы: 1. e4 e5"),
            pick(
                language,
                "Time used (White/Black): 2/4",
                "Время (белые/чёрные): 2/4",
            ),
            pick(language, "You are to move: ", "Ваш ход: осталось "),
            "FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        ] {
            answer.says(words);
        }
        // The subject is its own line: the greeting opens the body.
        assert_eq!(
            answer.subject,
            pick(
                language,
                "[T] where your games stand",
                "[T] положение ваших партий"
            )
        );
        assert!(
            answer.headers.contains("X-Shtempel-Kind: status"),
            "{}",
            answer.headers
        );
        // Black is not to move: no board, no clock of his running.
        let mail = t.exchange(BLACK, "2026-11-09", "status", word);
        let answer = only(&mail, "status", BLACK);
        answer.says(pick(
            language,
            "Your partner is to move; your clock does not run.",
            "Ходит ваш партнёр; ваше время не идёт.",
        ));
        answer.never_says("FEN:");
        // Nothing of the game changed, and nobody else was written to.
        assert_eq!(t.chart("1"), before);
    }
}

#[test]
fn a_second_status_the_same_day_gets_a_line_and_the_next_day_a_full_answer() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        let word = pick(language, "status", "Статус");
        only(&t.exchange(WHITE, "2026-11-09", "?", word), "status", WHITE);
        let mail = t.exchange(WHITE, "2026-11-09", "?", word);
        let again = only(&mail, "status", WHITE);
        again.says(pick(
            language,
            "was sent to you today",
            "уже отправлено вам сегодня",
        ));
        again.never_says("[T #1]:");
        let mail = t.exchange(WHITE, "2026-11-10", "?", word);
        only(&mail, "status", WHITE).says("[T #1]");
    }
}

#[test]
fn a_persons_status_lists_his_games_in_every_event_and_one_named_alone() {
    for language in ["en", "ru"] {
        let mut t = folder(language, (0, 0));
        carol_opens(&mut t);
        t.pass("2026-11-03");
        t.new_mail();
        // White Player: White in A (to move, nothing played), Black in B
        // (to move after Carol's 1. d4).
        let word = pick(language, "STATUS", "СТАТУС");
        let mail = t.exchange(WHITE, "2026-11-04", "status", word);
        let answer = only(&mail, "status", WHITE);
        answer.says("[A #1]");
        answer.says("[B #1]");
        answer.says("1. d4");
        assert_eq!(answer.body.matches("FEN:").count(), 2, "{}", answer.body);
        // Named: that event's games only, under its tag and name.
        let mail = t.exchange(WHITE, "2026-11-05", "status", &format!("{word} B"));
        let answer = only(&mail, "status", WHITE);
        answer.says("[B #1]");
        answer.never_says("[A #1]");
        assert!(answer.subject.starts_with("[B] "), "{}", answer.subject);
        answer.says("Cup B");
        answer.never_says("Cup A");
    }
}

#[test]
fn a_finished_game_is_one_line_with_its_result() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        t.exchange(
            WHITE,
            "2026-11-09",
            "Game 1",
            pick(language, "Game 1\nI resign", "Партия 1\nСдаюсь"),
        );
        let mail = t.exchange(BLACK, "2026-11-10", "?", pick(language, "STATUS", "СТАТУС"));
        let answer = only(&mail, "status", BLACK);
        answer.says(pick(
            language,
            "you have no game under way",
            "Текущих партий у вас нет",
        ));
        answer.says(pick(
            language,
            "[T #1] against White Player (black): 0-1",
            "[T #1], партнёр — White Player (чёрные): 0-1",
        ));
    }
}

#[test]
fn status_beside_a_move_is_named_as_not_carried_out_and_a_stranger_gets_nothing() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        let body = format!("{W1}{}\n", pick(language, "STATUS", "СТАТУС"));
        let mail = t.exchange(WHITE, "2026-11-03", "Game 1", &body);
        assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
        mail[0].says(pick(
            language,
            "send STATUS in a letter of its own",
            "пришлите СТАТУС отдельным письмом",
        ));
        let mail = t.exchange("stranger@test.example", "2026-11-04", "status", "STATUS");
        assert!(mail.is_empty(), "{mail:#?}");
    }
}

#[test]
fn the_chief_arbiter_and_the_secretary_get_the_events_games_and_the_secretary_nothing_else() {
    for language in ["en", "ru"] {
        let mut t = Cup::new()
            .in_language(language)
            .player("carol", "Carol", "carol@test.example")
            .game("2", "carol", "black")
            .open();
        t.opening();
        let word = pick(language, "STATUS", "СТАТУС");
        for official in [ARBITER, SECRETARY] {
            let mail = t.exchange(official, "2026-11-09", "status", word);
            let answer = only(&mail, "status", official);
            assert_eq!(
                answer.subject,
                pick(
                    language,
                    "[T] where the games stand",
                    "[T] положение партий"
                )
            );
            answer.says("[T #1] White Player - Black Player");
            // One game a line.
            for tag in ["[T #1]", "[T #2]"] {
                let lines: Vec<&str> = answer.body.lines().filter(|l| l.contains(tag)).collect();
                assert_eq!(lines.len(), 1, "{tag}:\n{}", answer.body);
                assert!(!lines[0].contains(if tag == "[T #1]" { "[T #2]" } else { "[T #1]" }));
                assert!(lines[0].trim_end().ends_with('.'), "{}", lines[0]);
            }
            answer.says(pick(
                language,
                "moves made: 1, time used 2/4; White Player to move by",
                "ходов сделано: 1, время 2/4; ходит White Player, письмо не позднее",
            ));
        }
        // Anything else from the secretary is kept and not answered.
        let mail = t.exchange(SECRETARY, "2026-11-10", "Game 1", "Game 1\n2. Nf3\n");
        assert!(mail.is_empty(), "{mail:#?}");
    }
}

#[test]
fn the_chief_secretary_of_a_folders_second_event_is_answered_with_its_games() {
    for language in ["en", "ru"] {
        let mut t = crate::person::folder(language, (0, 0));
        let b = t.path().join("tournaments/b.toml");
        let text = std::fs::read_to_string(&b).unwrap();
        std::fs::write(
            &b,
            format!("{text}\n[arbiters]\nchief_secretary = \"secb@test.example\"\n"),
        )
        .unwrap();
        crate::person::carol_opens(&mut t);
        t.pass("2026-11-03");
        t.new_mail();
        let word = pick(language, "STATUS", "СТАТУС");
        for (day, asked) in [
            ("2026-11-04", word.to_string()),
            ("2026-11-05", format!("{word} B")),
        ] {
            let mail = t.exchange("secb@test.example", day, "status", &asked);
            let answer = only(&mail, "status", "secb@test.example");
            answer.says("[B #1] Carol - White Player");
            answer.never_says("[A #1]");
        }
        // Anything else from him is kept and not answered, as ever.
        let mail = t.exchange(
            "secb@test.example",
            "2026-11-06",
            "other",
            "Game 1\n1. e4\n",
        );
        assert!(mail.is_empty(), "{mail:#?}");
    }
}

#[test]
fn an_officials_status_is_answered_once_a_day() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        let word = pick(language, "STATUS", "СТАТУС");
        let first = t.exchange(ARBITER, "2026-11-09", "status", word);
        only(&first, "status", ARBITER);
        let again = t.exchange(ARBITER, "2026-11-09", "status", word);
        // The line is of kind `status` too (contract: StatusAgain's header).
        let line = only(&again, "status", ARBITER);
        line.says(pick(
            language,
            "where the games stand was sent",
            "Положение партий уже отправлено",
        ));
        line.never_says(pick(language, "your games", "ваших"));
        let next_day = t.exchange(ARBITER, "2026-11-10", "status", word);
        only(&next_day, "status", ARBITER);
    }
}

#[test]
fn an_answer_longer_than_a_message_may_be_goes_in_parts_each_within_the_limit() {
    let mut cup = Cup::new().rules("");
    for game in 2..=1200 {
        cup = cup.game(&game.to_string(), "white", "black");
    }
    let text = cup
        .text()
        .replace("[bot]\n", "[limits]\nmax_message_bytes = 262144\n\n[bot]\n");
    let mut t = Tournament::with_config(&text);
    t.opening();
    let mail = t.exchange(ARBITER, "2026-11-09", "status", "STATUS");
    let parts: Vec<&Sent> = mail.iter().filter(|m| m.kind == "status").collect();
    assert!(parts.len() >= 2, "{:?}", kinds(&mail));
    let mut lines = 0;
    for (at, part) in parts.iter().enumerate() {
        assert!(
            part.raw.len() <= 262_144,
            "part {}: {} bytes",
            at + 1,
            part.raw.len()
        );
        part.says(&format!("This is part {} of {}", at + 1, parts.len()));
        part.says("STATUS and one event's id (T) asks for that event alone");
        assert!(
            part.subject
                .ends_with(&format!("({} of {})", at + 1, parts.len())),
            "{}",
            part.subject
        );
        lines += part
            .body
            .lines()
            .filter(|l| l.trim_start().starts_with("[T #"))
            .count();
    }
    assert_eq!(lines, 1200, "every game once, in some part");
    assert!(parts[0].body.contains("[T #1] White Player - Black Player"));
}

#[test]
fn a_players_answer_too_long_with_its_boards_goes_without_them_within_the_limit() {
    // White to move in `games` games, in a clerk of 256 KB messages.
    let answer_of = |games: usize| {
        let mut cup = Cup::new();
        for game in 2..=games {
            cup = cup.game(&game.to_string(), "white", "black");
        }
        let text = cup
            .text()
            .replace("[bot]\n", "[limits]\nmax_message_bytes = 262144\n\n[bot]\n");
        let mut t = Tournament::with_config(&text);
        let mail = t.exchange(WHITE, "2026-11-03", "status", "STATUS");
        let answer = only(&mail, "status", WHITE).clone();
        assert!(
            answer.raw.len() <= 262_144,
            "{games}: {} bytes",
            answer.raw.len()
        );
        assert_eq!(
            answer
                .body
                .lines()
                .filter(|l| l.starts_with("[T #"))
                .count(),
            games,
            "every game listed"
        );
        answer
    };
    // A few games: the boards as text and as pictures.
    let few = answer_of(3);
    few.says("FEN:");
    assert!(few.raw.windows(9).any(|w| w == b"image/png"));
    // Forty: the pictures would not fit, the text boards do.
    let forty = answer_of(40);
    assert_eq!(forty.body.matches("FEN:").count(), 40);
    assert!(!forty.raw.windows(9).any(|w| w == b"image/png"));
    // A hundred and fifty: the list alone, saying why.
    let many = answer_of(150);
    many.says(
        "The boards are left out: with them this answer would be longer than one message may be.",
    );
    many.never_says("FEN:");
}

#[test]
fn status_beside_a_preference_is_answered_too() {
    let mut t = Cup::new().open();
    let mail = t.exchange(WHITE, "2026-11-03", "prefs", "DIAGRAMS TEXT\nSTATUS");
    assert_eq!(
        kinds(&mail),
        [pair("preferences", WHITE), pair("status", WHITE)],
        "{mail:#?}"
    );
    let status = mail.iter().find(|m| m.kind == "status").unwrap();
    status.says("[T #1]");
}

#[test]
fn a_folder_wide_answer_is_signed_by_the_clerk_of_its_events() {
    let mut t = crate::person::folder("en", (0, 0));
    let mail = t.exchange(ARBITER, "2026-11-03", "status", "STATUS");
    let answer = only(&mail, "status", ARBITER);
    answer.says("The clerk of Cup A, Cup B");
    let mut t = crate::person::folder("ru", (0, 0));
    let mail = t.exchange(ARBITER, "2026-11-03", "status", "СТАТУС");
    only(&mail, "status", ARBITER).says("Секретарь турниров «Cup A», «Cup B»");
}

/// A STATUS answered in the poll that forwards the partner's move: the
/// move reaches him today, so his days count from today, and his answer
/// (and the chief arbiter's list) says his days left and last day, never
/// "not begun" or a bare "You are to move."
#[test]
fn status_in_the_poll_that_forwards_the_move_gives_the_days_from_today() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        t.opening();
        t.letter(
            WHITE,
            "2026-11-09",
            "Re: [T #1]",
            "Game 1\n2. Nf3\nTime: 4/4\nDates: 2026-11-07 2026-11-07 2026-11-09\n",
        );
        let word = pick(language, "STATUS", "СТАТУС");
        t.letter(BLACK, "2026-11-09", "status", word);
        t.letter(ARBITER, "2026-11-09", "status", word);
        t.pass("2026-11-09");
        let mail = t.new_mail();
        let answer = mail
            .iter()
            .find(|m| m.kind == "status" && m.to == [BLACK])
            .unwrap_or_else(|| panic!("{:?}", kinds(&mail)));
        // 50 - 4 days used: 46 left, from 9 November: 25 December.
        answer.says(pick(
            language,
            "You are to move: 46 days left, your letter must be sent by 2026-12-25.",
            "Ваш ход: осталось 46 дн.",
        ));
        answer.never_says(pick(language, "You are to move.\n", "Ваш ход.\n"));
        let list = mail
            .iter()
            .find(|m| m.kind == "status" && m.to == [ARBITER])
            .unwrap_or_else(|| panic!("{:?}", kinds(&mail)));
        list.never_says(pick(language, "not begun", "не начата"));
    }
}

/// A game added to begin later is told as such in STATUS: its first day,
/// and no clock running until then, in the player's answer and the
/// officials' list.
#[test]
fn a_game_that_begins_later_shows_its_first_day() {
    for language in ["en", "ru"] {
        let mut t = Cup::new()
            .in_language(language)
            .player("third", "Third Player", "third@test.example")
            .game_from("2", "white", "third", "2027-01-10")
            .open();
        let word = pick(language, "STATUS", "СТАТУС");
        let mail = t.exchange(WHITE, "2026-11-05", "status", word);
        let answer = only(&mail, "status", WHITE);
        answer.says(pick(
            language,
            "The game begins on 2027-01-10: no clock runs until then.",
            "Партия начинается 10.01.2027: до этого дня ничьи часы не идут.",
        ));
        let mail = t.exchange(ARBITER, "2026-11-05", "status", word);
        let list = only(&mail, "status", ARBITER);
        list.says(pick(
            language,
            "begins on 2027-01-10",
            "начинается 10.01.2027",
        ));
    }
}

//! One letter for several games: `Партия 1` and its lines, then `Партия 2`
//! and its. Each block goes to the game it names and is answered there; a
//! block for a game the writer does not play is named in his answer as not
//! carried out.

use crate::support::*;

/// White plays White in games 1 and 2 against Black.
fn two_games(language: &str) -> Tournament {
    Cup::new()
        .in_language(language)
        .game("2", "white", "black")
        .open()
}

fn sans(t: &Tournament, game: &str) -> Vec<String> {
    t.chart(game)["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect()
}

/// A letter in the words of `language`: game `id`, the move, 2 days.
fn block(language: &str, id: &str, mv: &str) -> String {
    match language {
        "ru" => format!("Партия {id}\n{mv}\nВремя: 2/0\nДаты: 03.11.2026\n\n"),
        _ => format!("Game {id}\n{mv}\nTime: 2/0\nDates: 2026-11-03\n\n"),
    }
}

#[test]
fn each_block_of_a_letter_for_two_games_goes_to_its_game() {
    for language in ["en", "ru"] {
        // The same first move in both (game 2's was dropped), then two
        // different ones (both were read into game 1, the letter refused).
        for (first, second) in [("1. e4", "1. e4"), ("1. e4", "1. d4")] {
            let mut t = two_games(language);
            let body = block(language, "1", first) + &block(language, "2", second);
            let mail = t.exchange(WHITE, "2026-11-03", "moves", &body);
            assert_eq!(
                kinds(&mail),
                [
                    pair("ack", WHITE),
                    pair("forward", BLACK),
                    pair("ack", WHITE),
                    pair("forward", BLACK)
                ],
                "{language} {second}"
            );
            let tags: Vec<&str> = mail.iter().map(|m| &m.subject[..6]).collect();
            assert_eq!(tags, ["[T #1]", "[T #1]", "[T #2]", "[T #2]"]);
            let san = |mv: &str| mv.trim_start_matches("1. ").to_string();
            assert_eq!(sans(&t, "1"), [san(first)], "{language}");
            assert_eq!(sans(&t, "2"), [san(second)], "{language}");
        }
    }
}

#[test]
fn a_block_for_a_game_he_does_not_play_is_named_as_not_carried_out() {
    for (language, said) in [
        (
            "en",
            "the lines under \"Game 9\": you play no game 9 in this tournament, so they were read into no game",
        ),
        (
            "ru",
            "строки под «Партия 9»: партии 9 у вас в этом турнире нет, и они не прочитаны ни в одну партию",
        ),
    ] {
        let mut t = two_games(language);
        let body = block(language, "1", "1. e4") + &block(language, "9", "1. d4");
        let mail = t.exchange(WHITE, "2026-11-03", "moves", &body);
        assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
        mail[0].says(said);
        assert!(
            !mail[0].body.contains("Everything is in order")
                && !mail[0].body.contains("Всё в порядке"),
            "{}",
            mail[0].body
        );
        assert_eq!(sans(&t, "1"), ["e4"]);
        assert!(sans(&t, "2").is_empty());
    }
}

#[test]
fn check_shows_the_answers_of_every_block() {
    let mut t = two_games("en");
    let body = block("en", "1", "1. e4") + &block("en", "2", "1. d4");
    let file = t.letter(WHITE, "2026-11-03", "moves", &body);
    let out = t.run(&["check", file.to_str().unwrap(), "--today", "2026-11-03"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let shown: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("==== "))
        .collect();
    assert_eq!(
        shown,
        [
            "==== ack to white@test.example ====",
            "==== forward to black@test.example ====",
            "==== ack to white@test.example ====",
            "==== forward to black@test.example ===="
        ]
    );
}

/// The person's asks stand in any block of a letter for several games:
/// `Game 1 / 1. e4 / … / Game 2 / LEAVE …` plays 1. e4 in game 1 and takes
/// the leave (not "no move was found" for game 2); a block of game 1 that
/// asks a leave, then a block with game 2's move, does both.
#[test]
fn a_leave_in_any_block_is_taken_beside_the_moves() {
    for language in ["en", "ru"] {
        let leave = pick(
            language,
            "LEAVE 2026-12-10 - 2026-12-20\n",
            "ОТПУСК 10.12.2026 - 20.12.2026\n",
        );
        let recorded = pick(language, "is recorded", "учтён");
        let (game1, game2) = (
            pick(language, "Game 1\n", "Партия 1\n"),
            pick(language, "Game 2\n", "Партия 2\n"),
        );
        // The leave in the second block.
        let mut t = Cup::new()
            .in_language(language)
            .game("2", "white", "black")
            .rules("leave_days_per_year = 30")
            .open();
        let body = block(language, "1", "1. e4") + game2 + leave;
        let mail = t.exchange(WHITE, "2026-11-03", "moves", &body);
        let leave_receipt = mail
            .iter()
            .find(|m| m.kind == "leave")
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        leave_receipt.says(recorded);
        assert!(
            !mail.iter().any(|m| m.kind == "refused"),
            "{:?}",
            kinds(&mail)
        );
        assert_eq!(sans(&t, "1"), ["e4"], "{language}");
        // The leave first, game 2's move in the next block.
        let mut t = Cup::new()
            .in_language(language)
            .game("2", "white", "black")
            .rules("leave_days_per_year = 30")
            .open();
        let body = format!("{game1}{leave}\n{}", block(language, "2", "1. d4"));
        let mail = t.exchange(WHITE, "2026-11-03", "moves", &body);
        assert!(mail.iter().any(|m| m.kind == "leave"), "{:?}", kinds(&mail));
        assert!(
            mail.iter().any(|m| m.kind == "forward" && m.to == [BLACK]),
            "{language}: {:?}",
            kinds(&mail)
        );
        assert_eq!(sans(&t, "2"), ["d4"], "{language}");
        assert!(sans(&t, "1").is_empty());
    }
}

/// STATUS and a setting in a second block are read as the letter's: with
/// no move beside them they are carried out.
#[test]
fn status_and_diagrams_in_a_second_block_are_answered() {
    for language in ["en", "ru"] {
        let mut t = two_games(language);
        let body = pick(
            language,
            "Game 1\nDIAGRAMS TEXT\nGame 2\nSTATUS\n",
            "Партия 1\nДИАГРАММЫ ТЕКСТ\nПартия 2\nСТАТУС\n",
        );
        let mail = t.exchange(WHITE, "2026-11-03", "asks", body);
        assert_eq!(
            kinds(&mail),
            [pair("preferences", WHITE), pair("status", WHITE)],
            "{language}"
        );
    }
}

/// Every block's writes reach the commit: a move in the first block, a
/// leave and a board setting in the second, and all three are done (the
/// move played, the leave recorded and answered, the setting kept: the
/// next letter to him shows the board as text).
#[test]
fn a_leave_and_a_setting_in_a_second_block_are_both_carried_out() {
    for language in ["en", "ru"] {
        let (game2, leave, setting) = match language {
            "ru" => (
                "Партия 2\n",
                "ОТПУСК 10.12.2026 - 20.12.2026\n",
                "ДИАГРАММЫ НЕТ\n",
            ),
            _ => (
                "Game 2\n",
                "LEAVE 2026-12-10 - 2026-12-20\n",
                "DIAGRAMS NONE\n",
            ),
        };
        let mut t = Cup::new()
            .in_language(language)
            .game("2", "black", "white")
            .rules("leave_days_per_year = 30")
            .open();
        let body = block(language, "1", "1. e4") + game2 + leave + setting;
        let mail = t.exchange(WHITE, "2026-11-03", "moves", &body);
        let kinds = kinds(&mail);
        assert!(
            kinds.contains(&pair("leave", WHITE)),
            "{language}: {kinds:?}"
        );
        assert!(
            kinds.contains(&pair("forward", BLACK)),
            "{language}: {kinds:?}"
        );
        assert!(
            !mail.iter().any(|m| m.kind == "refused"),
            "{language}: {kinds:?}"
        );
        assert_eq!(sans(&t, "1"), ["e4"], "{language}");
        // The leave is recorded: his partner is told in each game.
        let told = mail
            .iter()
            .filter(|m| m.kind == "leave-notice" && m.to == [BLACK]);
        assert_eq!(told.count(), 2, "{language}: {kinds:?}");
        // Black moves in game 1; White, to move again, is shown no board.
        let reply = match language {
            "ru" => "Партия 1\n1... e5\nВремя: 2/1\nДаты: 03.11.2026, 04.11.2026, 04.11.2026\n",
            _ => "Game 1\n1... e5\nTime: 2/1\nDates: 2026-11-03, 2026-11-04, 2026-11-04\n",
        };
        let mail = t.exchange(BLACK, "2026-11-04", "Game 1", reply);
        let forward = mail
            .iter()
            .find(|m| m.kind == "forward" && m.to == [WHITE])
            .unwrap_or_else(|| panic!("{language}: {:?}", super::support::kinds(&mail)));
        assert!(
            !forward.body.contains("FEN"),
            "{language}: {}",
            forward.body
        );
    }
}

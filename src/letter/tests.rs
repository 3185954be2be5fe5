//! The reader's tests: move lines, subjects, errors and their explanations.

use super::*;
use crate::phrases::Phrases;

fn moves(letter: &Letter) -> Vec<String> {
    letter
        .moves
        .iter()
        .map(|m| {
            let number = m.number.map_or(String::new(), |n| n.to_string());
            let dots = match m.color {
                Some(Color::White) => ".",
                Some(Color::Black) => "...",
                None => "",
            };
            format!("{number}{dots}{}", m.text)
        })
        .collect()
}

#[test]
fn move_number_forms() {
    let table = [
        ("12. e4 Nf6", vec!["12.e4", "12...Nf6"]),
        ("12... Nf6", vec!["12...Nf6"]),
        ("12. ... Nf6", vec!["12...Nf6"]),
        ("12...Nf6 13.Bb5", vec!["12...Nf6", "13.Bb5"]),
        ("12.e4", vec!["12.e4"]),
        ("12…Nf6", vec!["12...Nf6"]),
        ("my reply: 2. Ng1-f3", vec!["2.Ng1-f3"]),
        ("Мой ответ: 2... Кc6", vec!["2...Nc6"]),
        ("1. e4 e5 2. Кf3", vec!["1.e4", "1...e5", "2.Nf3"]),
        (
            "1. 5254 5755 2. 7163",
            vec!["1.e2-e4", "1...e7-e5", "2.g1-f3"],
        ),
        ("5. Bxf7+! Kxf7 1-0", vec!["5.Bxf7", "5...Kxf7"]),
    ];
    for (text, expected) in table {
        let letter = read(text);
        assert!(letter.errors.is_empty(), "{text}: {:?}", letter.errors);
        assert_eq!(moves(&letter), expected, "{text}");
    }
}

#[test]
fn subjects_that_name_a_game() {
    let exists = |id: &str| id == "A3";
    let table = [
        ("Партия 6", Some("6")),
        ("Game 6", Some("6")),
        ("Re: Партия 3", Some("3")),
        ("Fwd: game 3", Some("3")),
        ("RE: Мой ход в партии 12.", Some("12")),
        ("Game #4 - my move", Some("4")),
        ("Партия № 5", Some("5")),
        ("game A3", Some("A3")),
        ("Game over", None),
        ("Партия окончена", None),
        ("Re: [CC-2026 #3] 2... Nc6", None),
        ("Endgame 5", None),
    ];
    for (subject, expected) in table {
        assert_eq!(
            subject_game(subject, exists).as_deref(),
            expected,
            "{subject}"
        );
    }
}

#[test]
fn a_fraction_example_is_the_players_own_or_none() {
    let letter = read("2. Nf3\nTime: seven/four\n");
    let [error] = letter.errors.as_slice() else {
        panic!("{:?}", letter.errors);
    };
    let own = Fraction { white: 9, black: 4 };
    for lang in [crate::Lang::Ru, crate::Lang::En] {
        let phrases = Phrases::builtin(lang);
        assert!(
            !error.explain(&phrases).contains("7/4"),
            "no numbers of nobody's game"
        );
        assert!(error.explain_with(&phrases, Some(own)).contains(": 9/4"));
    }
    // Prose that merely holds the word is no time line.
    for prose in [
        "Затраченное время на этот ход велико",
        "Time flies",
        "Время летит",
    ] {
        assert!(read(prose).errors.is_empty(), "{prose}");
    }
    assert_eq!(
        read("Время 7/4").fraction,
        Some(Fraction { white: 7, black: 4 })
    );
}

#[test]
fn a_move_after_a_few_words_on_its_line_is_read() {
    let table = [
        ("My first move: 1. Nf3", vec!["1.Nf3"]),
        (
            "Here is my answer: 12... Qe7 13. Bb5",
            vec!["12...Qe7", "13.Bb5"],
        ),
        ("my reply is 2. Nc3", vec!["2.Nc3"]),
        ("Мой первый ход: 1. Кf3", vec!["1.Nf3"]),
        ("Вот мой ответ: 12... Фe7", vec!["12...Qe7"]),
        ("мой ход 2. Кc3", vec!["2.Nc3"]),
    ];
    for (text, expected) in table {
        let letter = read(&format!("Game 1\n{text}\nTime: 2/0\n"));
        assert!(letter.errors.is_empty(), "{text}: {:?}", letter.errors);
        assert_eq!(moves(&letter), expected, "{text}");
        assert_eq!(letter.leading_ask(), Some(Ask::Move), "{text}");
    }
    // Prose that only mentions a move, or a date after words, is no move.
    for text in [
        "I think 1. e4 was better",
        "Я думаю, 1. e4 было сильнее",
        "Today: 07.11.2026",
        "Сегодня: 07.11.2026",
    ] {
        let letter = read(text);
        assert!(letter.moves.is_empty(), "{text}: {:?}", letter.moves);
    }
    // A move after the words that cannot be read is named.
    let letter = read("Game 1\nMy first move: 1. Zz9\n");
    assert_eq!(
        letter.errors.first().map(|e| &e.kind),
        Some(&ReadErrorKind::NotAMove { word: "Zz9".into() })
    );
}

#[test]
fn prose_starting_with_a_number_is_not_a_move_line() {
    let letter = read("1. Спасибо за ход.\n2. Жду ответа.");
    assert!(letter.moves.is_empty());
    assert!(letter.errors.is_empty(), "{:?}", letter.errors);
}

#[test]
fn a_bad_move_word_is_named() {
    let letter = read("Game 1\n2. Nf3 Zz9");
    assert_eq!(letter.errors.len(), 1);
    assert_eq!(letter.errors[0].line, 2);
    assert_eq!(
        letter.errors[0].kind,
        ReadErrorKind::NotAMove { word: "Zz9".into() }
    );
    let phrases = Phrases::builtin(crate::Lang::En);
    assert!(letter.errors[0].explain(&phrases).contains("line 2"));
}

#[test]
fn absurd_numbers_are_errors() {
    let letter =
        read("Time: 999999999999/-3\nDates: 32.13.2026, 01.11.2026, 02.11.2026\n99999. e4");
    let codes: Vec<&str> = letter.errors.iter().map(ReadError::code).collect();
    assert_eq!(codes, ["fraction_out_of_range", "bad_date", "move_number"]);
    assert_eq!(letter.fraction, None);
    assert!(letter.moves.is_empty());
}

/// Every part of a letter read, and each carried out or named.
mod every_part {
    use super::*;
    use Ask::*;

    const DATES: &str = "Time: 2/4\nDates: 03.11.2026, 03.11.2026, 07.11.2026\n";
    // (a player's letter's own text, its asks, the ask that leads its game
    // part once the leave and the orders are taken apart, the asks that
    // handler does not carry out)
    type Row = (&'static str, &'static [Ask], Option<Ask>, &'static [Ask]);
    const TABLE: &[Row] = &[
        ("1... e5", &[Move], Some(Move), &[]),
        (
            "1... e5\nLEAVE 10.11.2026 - 20.11.2026",
            &[Leave, Move],
            Some(Move),
            &[],
        ),
        (
            "1... e5\nОТПУСК 10.11.2026 - 20.11.2026",
            &[Leave, Move],
            Some(Move),
            &[],
        ),
        (
            "1... e5\nI offer a draw",
            &[Move, DrawOffer],
            Some(Move),
            &[],
        ),
        (
            "1... e5\nпредлагаю ничью",
            &[Move, DrawOffer],
            Some(Move),
            &[],
        ),
        (
            "1... e5\nI decline the draw",
            &[Move, DrawDecline],
            Some(Move),
            &[],
        ),
        (
            "1... e5\nPROTEST: the postmark is wrong",
            &[Protest, Move],
            Some(Protest),
            &[Move],
        ),
        (
            "I resign\nLEAVE 10.11.2026 - 20.11.2026",
            &[Leave, Resignation],
            Some(Resignation),
            &[],
        ),
        (
            "1... e5\nI resign",
            &[Resignation, Move],
            Some(Resignation),
            &[Move],
        ),
        (
            "Сдаюсь. Предлагаю ничью",
            &[Resignation, DrawOffer],
            Some(Resignation),
            &[DrawOffer],
        ),
        (
            "I accept the draw\nI offer a draw",
            &[DrawAccept, DrawOffer],
            Some(DrawAccept),
            &[DrawOffer],
        ),
        (
            "1... e5\nI accept the draw",
            &[DrawAccept, Move],
            Some(DrawAccept),
            &[],
        ),
        (
            "PROTEST\nLEAVE 10.11.2026 - 20.11.2026",
            &[Leave, Protest],
            Some(Protest),
            &[],
        ),
        // A player's orders are answered apart (they order nothing).
        ("1... e5\nRESULT 1 1-0", &[Order, Move], Some(Move), &[]),
        ("RESULT 1 1-0\nFORFEIT 2 WHITE", &[Order], None, &[]),
        ("LEAVE 10.11.2026 - 20.11.2026", &[Leave], None, &[]),
        // STATUS is answered alone, and named beside anything else.
        ("STATUS", &[Status], Some(Status), &[]),
        ("СТАТУС CC-2026", &[Status], Some(Status), &[]),
        ("1... e5\nSTATUS", &[Status, Move], Some(Move), &[Status]),
        (
            "Статус\nСдаюсь",
            &[Status, Resignation],
            Some(Resignation),
            &[Status],
        ),
        // XFCC likewise: a login, answered alone, named beside a move.
        ("XFCC", &[Xfcc], Some(Xfcc), &[]),
        ("1... e5\nИКСФЦЦ", &[Xfcc, Move], Some(Move), &[Xfcc]),
    ];

    #[test]
    fn every_part_of_a_letter_is_read_and_none_is_left_unsaid() {
        for (own, asks, leading, unheeded) in TABLE {
            let letter = read(&format!("Game 1\n{own}\n{DATES}"));
            assert_eq!(letter.asks(), *asks, "{own:?}");
            let rest = letter.without_leave().without_orders();
            assert_eq!(rest.leading_ask(), *leading, "{own:?}");
            assert_eq!(rest.unheeded(), *unheeded, "{own:?}");
            // Every ask is carried out by the leading ask's handler, apart (a
            // leave, orders), or named as not carried out.
            for part in letter.asks() {
                let handled = match rest.leading_ask() {
                    Some(Move) => matches!(part, Move | DrawOffer | DrawDecline),
                    Some(Resignation) => part == Resignation,
                    Some(Protest) => part == Protest,
                    Some(DrawAccept) => matches!(part, DrawAccept | Move),
                    Some(Status) => part == Status,
                    Some(Preferences) => part == Preferences,
                    Some(Xfcc) => part == Xfcc,
                    Some(Order | Leave | DrawOffer | DrawDecline) | None => false,
                };
                let apart = matches!(part, Leave | Order);
                assert!(
                    handled || apart || rest.unheeded().contains(&part),
                    "{own:?}: {part:?} dropped"
                );
            }
        }
    }

    #[test]
    fn two_orders_are_two_rulings() {
        // The arbiter's letter of both is refused whole.
        let two = read("RESULT 1 1-0\nFORFEIT 2 WHITE\n");
        assert_eq!(two.rulings.len(), 2);
    }
}

#[test]
fn a_letter_for_several_games_is_read_block_by_block() {
    type Blocks = &'static [(Option<&'static str>, &'static [&'static str])];
    let table: [(&str, Blocks); 5] = [
        (
            "Партия 1\n1. e4\nВремя: 2/0\nПартия 2\n1. e4\nВремя: 3/0\n",
            &[(Some("1"), &["1.e4"]), (Some("2"), &["1.e4"])],
        ),
        (
            "Hello,\nGame 1\n1... e5\nTime: 2/1\n\nGame: 2\n1. d4\nTime: 1/0\nDates: 2026-11-03\n",
            &[(Some("1"), &["1...e5"]), (Some("2"), &["1.d4"])],
        ),
        // One game named twice is one block.
        (
            "Game 1\n1. e4\nGame: 1\nTime: 2/0\n",
            &[(Some("1"), &["1.e4"])],
        ),
        // No game named: one block.
        ("1. e4\nTime: 2/0\n", &[(None, &["1.e4"])]),
        // A move before the first game line is that block's.
        (
            "1. e4\nGame 1\nTime: 2/0\nGame 3\n2. Nf3\n",
            &[(Some("1"), &["1.e4"]), (Some("3"), &["2.Nf3"])],
        ),
    ];
    for (body, blocks) in table {
        let letter = read(body);
        let read: Vec<(Option<&str>, Vec<String>)> = std::iter::once(&letter)
            .chain(&letter.other_games)
            .map(|block| (block.game.as_deref(), moves(block)))
            .collect();
        let expected: Vec<(Option<&str>, Vec<String>)> = blocks
            .iter()
            .map(|(game, moves)| (*game, moves.iter().map(|m| m.to_string()).collect()))
            .collect();
        assert_eq!(read, expected, "{body:?}");
    }
    let two = read("Game 1\n1. e4\nTime: 2/0\nGame 2\n1. d4\nTime: 5/0\n");
    assert_eq!(two.fraction.map(|f| f.white), Some(2));
    assert_eq!(two.other_games[0].fraction.map(|f| f.white), Some(5));
}

/// A leave, STATUS or a setting in any block is the person's, read with
/// the first block; a block left with nothing but its `Game` line is gone.
#[test]
fn the_persons_asks_of_every_block_are_read_with_the_first() {
    let letter = read(
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\nGame 2\nLEAVE 2026-12-10 - 2026-12-20\n",
    );
    assert_eq!(letter.game.as_deref(), Some("1"));
    assert_eq!(letter.leave.as_ref().map(Vec::len), Some(2));
    assert!(letter.other_games.is_empty(), "{:?}", letter.other_games);
    // Beside a move of game 2, which stays its block's.
    let letter = read("Партия 1\n1... e5\nПартия 2\nСТАТУС\nДИАГРАММЫ ТЕКСТ\n1. d4\n");
    assert!(letter.status.is_some());
    assert_eq!(
        letter.preferences,
        [Preference::Diagrams(crate::Diagrams::Text)]
    );
    assert_eq!(letter.other_games.len(), 1);
    let second = &letter.other_games[0];
    assert_eq!(second.game.as_deref(), Some("2"));
    assert_eq!(moves(second), ["1.d4"]);
    assert!(second.status.is_none() && second.preferences.is_empty());
    // A leave first, a move in game 2 after: read with game 2's move.
    let letter = read("Game 1\nLEAVE 2026-12-10 - 2026-12-20\nGame 2\n1. d4\n");
    assert_eq!(letter.game.as_deref(), Some("2"));
    assert!(letter.leave.is_some() && letter.other_games.is_empty());
    // A block that says something of its game in words is kept.
    let letter = read("Game 1\n1. e4\nGame 2\nLEAVE 2026-12-10 - 2026-12-20\nI resign.\n");
    assert_eq!(letter.other_games.len(), 1, "{letter:?}");
    assert!(letter.leave.is_some());
    // Two leaves in two blocks: the second is one more, told as not taken.
    let letter =
        read("Game 1\nLEAVE 2026-12-10 - 2026-12-20\nGame 2\nLEAVE 2027-01-10 - 2027-01-12\n");
    assert_eq!(letter.more_leaves, ["LEAVE 2027-01-10 - 2027-01-12"]);
}

#[test]
fn status_is_asked_by_its_word_alone_or_with_an_id_not_by_a_signatures_line() {
    // (the line, asked, the event it names)
    let table: &[(&str, bool, Option<&str>)] = &[
        ("STATUS", true, None),
        ("status", true, None),
        ("СТАТУС", true, None),
        ("STATUS CC-2026", true, Some("CC-2026")),
        ("Status: CC-2026", true, Some("CC-2026")),
        ("STATUS: EN", true, Some("EN")),
        ("Status:", true, None),
        ("Status: active", false, None),
        ("Status: Away until Monday", false, None),
        ("Статус: занят", false, None),
        ("The status of game 3 is unclear", false, None),
    ];
    for (line, asked, event) in table {
        let read = read(line);
        assert_eq!(read.status.is_some(), *asked, "{line:?}");
        assert_eq!(
            read.status.as_ref().and_then(|s| s.event.as_deref()),
            *event,
            "{line:?}"
        );
    }
}

/// A line that begins with "If" or "Если" is a conditional only when moves
/// follow the word: prose is prose, under a letter read whole. A
/// conditional as people write it ("then", "то", commas) reads like
/// `if 2. Nf3 2... Nc6`.
#[test]
fn if_begins_a_variant_only_where_moves_follow() {
    let letter = |line: &str| {
        read(&format!(
            "Game 1\n1... e5\n{line}\nTime: 2/4\nDates: 2026-11-03, 2026-11-03, 2026-11-07\n"
        ))
    };
    let prose = [
        "If you want, we can agree a draw later.",
        "If your clock is wrong tell me.",
        "If possible, please send the next move by Friday.",
        "Если вы не против, предлагаю ничью позже.",
        "Если что, пишите.",
        "If 2 days is fine with you, good.",
    ];
    for line in prose {
        let read = letter(line);
        assert!(read.errors.is_empty(), "{line}: {:?}", read.errors);
        assert!(read.variants.is_empty(), "{line}");
        assert_eq!(moves(&read), ["1...e5"], "{line}");
    }
    let conditionals = [
        "if 2. Nf3 2... Nc6",
        "if 2. Nf3 then 2... Nc6",
        "if 2. Nf3, 2... Nc6",
        "If 2. Nf3, then 2... Nc6",
        "если 2. Кf3, то 2... Кc6",
        "Если 2. Кf3, тогда 2... Кc6.",
    ];
    for line in conditionals {
        let read = letter(line);
        assert!(read.errors.is_empty(), "{line}: {:?}", read.errors);
        assert_eq!(read.variants.len(), 1, "{line}");
        let variant = Letter {
            moves: read.variants[0].moves.clone(),
            ..Letter::default()
        };
        assert_eq!(moves(&variant), ["2.Nf3", "2...Nc6"], "{line}");
        assert_eq!(moves(&read), ["1...e5"], "{line}");
    }
}

/// A dates line with an Android attribution glued to it keeps its dates
/// (the quote below, with the partner's own, is not read).
#[test]
fn dates_glued_to_an_attribution_are_read() {
    let bodies = [
        "Game 1\n1... e5\nTime: 2/4\nDates: 03.11.2026, 03.11.2026, 04.11.2026On Mar 9, 2018 6:35 PM, \"Clerk\" <clerk@test.example> wrote:\n> Game 1\n> 1. e4\n> Time: 2/0\n> Dates: 01.11.2026\n",
        "Партия 1\n1... e5\nВремя: 2/4\nДаты: 03.11.2026, 03.11.2026, 04.11.2026On Mar 9, 2018 6:35 PM, \"Clerk\" <clerk@test.example> wrote:\n\n> 1. e4\n",
    ];
    for body in bodies {
        let read = read_with(body, DateReading::default());
        assert!(read.errors.is_empty(), "{body}: {:?}", read.errors);
        assert_eq!(moves(&read), ["1...e5"], "{body}");
        let sent = read.dates.sent.as_ref().map(|d| (d.day, d.month, d.year));
        assert_eq!(sent, Some((4, 11, Some(2026))), "{body}");
    }
}

/// `DIGEST DAILY|NONE` and `СВОДКА ЕЖЕДНЕВНО|НЕТ`, alone on their line, in
/// any case; another word after it is named, not taken.
#[test]
fn a_digest_is_asked_in_either_language() {
    use crate::Digest;
    let table: &[(&str, &[Preference])] = &[
        ("DIGEST DAILY\n", &[Preference::Digest(Digest::Daily)]),
        ("digest: none\n", &[Preference::Digest(Digest::None)]),
        ("Сводка ежедневно\n", &[Preference::Digest(Digest::Daily)]),
        ("СВОДКА НЕТ.\n", &[Preference::Digest(Digest::None)]),
        ("DIGEST WEEKLY\n", &[Preference::Unknown(String::new())]),
        ("I read the digest daily\n", &[]),
    ];
    for (body, expected) in table {
        let letter = read(body);
        let found: Vec<Preference> = letter
            .preferences
            .iter()
            .map(|p| match p {
                Preference::Unknown(_) => Preference::Unknown(String::new()),
                other => other.clone(),
            })
            .collect();
        assert_eq!(found, *expected, "{body:?}");
    }
}

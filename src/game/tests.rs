//! The game record's tests: notation on the board, repeats, variants, ends, PGN.

use super::*;
use crate::key::GameKey;
use crate::letter::read;

fn game(sans: &str) -> Game {
    let sans: Vec<&str> = sans.split_whitespace().collect();
    Game::from_sans(&sans, Vec::new()).unwrap()
}

#[test]
fn a_replayed_game_knows_its_end_and_writes_each_move_as_the_board_does() {
    let mate = game("f3 e5 g4 Qh4");
    assert_eq!(
        mate.end(),
        Some(End::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(game("f3 e5 g4").end(), None);
    // A record edited by hand with a needless file or square reads back
    // as the board writes it; a needed one stays.
    assert_eq!(game("e4 e5 Ngf3").sans(), ["e4", "e5", "Nf3"]);
    assert_eq!(game("e4 e5 Ng1f3").sans(), ["e4", "e5", "Nf3"]);
    assert_eq!(game("d4 d5 Nf3 Nf6 Nbd2").sans()[4], "Nbd2");
    assert!(Game::from_sans(&["e4", "e5", "Nbf3"], Vec::new()).is_err());
}

#[test]
fn a_record_replayed_in_steps_is_the_record_replayed_at_once() {
    let replays = Replays::default();
    let same = |sans: &[&str], replayed: &Game| {
        let whole = Game::from_sans(sans, Vec::new()).unwrap();
        assert_eq!(replayed.sans(), whole.sans(), "{sans:?}");
        assert_eq!(
            format!("{:?}", replayed.position()),
            format!("{:?}", whole.position())
        );
        assert_eq!(replayed.end(), whole.end(), "{sans:?}");
    };
    let moves = ["f3", "e5", "g4", "Qh4"];
    let seven = GameKey::new(None, "7");
    // Stored moves as a run's letters add them, and one letter read again.
    for (n, held) in [(0, 0), (1, 0), (2, 1), (2, 0), (4, 0)] {
        let variants = vec![
            HeldVariant {
                author: Color::White,
                start_ply: 3,
                sans: vec!["Qh4".into()],
            };
            held
        ];
        let replayed = replays.game(&seven, &moves[..n], variants.clone()).unwrap();
        same(&moves[..n], &replayed);
        assert_eq!(
            replayed.held(),
            variants,
            "the held variants given, not kept"
        );
    }
    assert!(matches!(
        replays.game(&seven, &moves, Vec::new()).unwrap().end(),
        Some(End::Checkmate { .. })
    ));
    // Moves taken back (a batch rolled back), another in their place, or
    // a move that cannot be played: rebuilt from the start, or refused
    // with the ply it is at, as a whole replay.
    same(
        &moves[..1],
        &replays.game(&seven, &moves[..1], Vec::new()).unwrap(),
    );
    let other = ["f3", "d5", "g4"];
    same(&other, &replays.game(&seven, &other, Vec::new()).unwrap());
    let wrong = ["f3", "d5", "g4", "Qh4"];
    let error = replays.game(&seven, &wrong, Vec::new()).unwrap_err();
    assert_eq!(error, Game::from_sans(&wrong, Vec::new()).unwrap_err());
    same(&other, &replays.game(&seven, &other, Vec::new()).unwrap());
    // Games are kept apart, a folder's events' games of one id too.
    for another in [GameKey::new(None, "8"), GameKey::new(Some("B"), "7")] {
        same(
            &moves[..2],
            &replays.game(&another, &moves[..2], Vec::new()).unwrap(),
        );
    }
    same(&other, &replays.game(&seven, &other, Vec::new()).unwrap());
}

fn apply(game: &Game, by: Color, text: &str) -> Result<Applied, Refusal> {
    let letter = read(text);
    assert!(letter.errors.is_empty(), "{text}: {:?}", letter.errors);
    game.apply(by, &letter.moves, &letter.variants)
}

fn plies(applied: &Applied) -> Vec<String> {
    applied
        .plies
        .iter()
        .map(|p| format!("{}{}", if p.conditional { "*" } else { "" }, p.san))
        .collect()
}

#[test]
fn every_notation_resolves_to_the_same_move() {
    let start = game("e4 e5");
    for text in [
        "2. Nf3",
        "2. Кf3",
        "2. Ng1-f3",
        "2. g1-f3",
        "2. 7163",
        "2. ♘f3",
        "Move: Nf3",
        "Ход: Кf3",
    ] {
        let applied = apply(&start, Color::White, text).unwrap_or_else(|r| panic!("{text}: {r:?}"));
        assert_eq!(plies(&applied), ["Nf3"], "{text}");
    }
}

#[test]
fn refusals_table() {
    let start = game("e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Nc3 b5 Bb3 d6 Ng5 O-O");
    // (by, letter, reason code)
    let table: [(Color, &str, &str); 8] = [
        (Color::White, "9. Qh5h6", "illegal"),
        (Color::White, "9. Фd1-d3", "illegal"),
        (Color::Black, "9... Nd4", "out_of_turn"),
        (Color::White, "10. d3", "numbering"),
        (Color::White, "8... Nf6 9. d3", "repeat_mismatch"),
        (Color::White, "8... O-O", "no_move"),
        (Color::White, "9. Kxe8", "illegal"),
        (Color::White, "9. d3\nif 9... Bb7 10. Qxd8", "variant"),
    ];
    for (by, text, code) in table {
        let refusal = apply(&start, by, text)
            .err()
            .unwrap_or_else(|| panic!("{text} should be refused"));
        let json = serde_json::to_value(&refusal.reason).unwrap();
        assert_eq!(json["code"], code, "{text}: {refusal:?}");
        assert!(
            !refusal
                .explain(&Phrases::builtin(crate::Lang::Ru))
                .is_empty()
        );
    }
    let knights = game("Nf3 Nf6 d3 d6");
    let Err(Refusal {
        reason: Reason::Ambiguous { candidates },
        ..
    }) = apply(&knights, Color::White, "3. Nd2")
    else {
        panic!("ambiguous expected");
    };
    assert_eq!(candidates, ["Nbd2", "Nfd2"]);
    let refusal = apply(&knights, Color::White, "3. Кd2").unwrap_err();
    let text = refusal.explain(&Phrases::builtin(crate::Lang::Ru));
    assert!(text.contains("подходят: Кbd2, Кfd2"), "{text}");
}

#[test]
fn capture_sign_and_promotion_piece_are_forgiven_when_unique() {
    let start = game("e4 d5");
    let applied = apply(&start, Color::White, "2. ed5").unwrap();
    assert_eq!(plies(&applied), ["exd5"]);
    let applied = apply(&start, Color::White, "2. e4-d5").unwrap();
    assert_eq!(plies(&applied), ["exd5"]);
}

#[test]
fn a_repeated_partner_move_must_match_the_record() {
    let start = game("e4");
    assert!(apply(&start, Color::Black, "1. e4 e5").is_ok());
    assert!(apply(&start, Color::Black, "1. е2-е4 e5").is_ok());
    let refusal = apply(&start, Color::Black, "1. d4 d5").unwrap_err();
    assert_eq!(
        refusal.reason,
        Reason::RepeatMismatch {
            recorded: "1. e4".into()
        }
    );
}

#[test]
fn conditional_variant_played_when_the_partner_matches() {
    let start = game("e4 e5 Nf3 Nc6 Bb5");
    // Black offers: if 4. Ba4 then 4... Nf6.
    let black = apply(&start, Color::Black, "3... a6\nif 4. Ba4 Nf6").unwrap();
    assert_eq!(black.offered.len(), 1);
    assert_eq!(plies(&black), ["a6"]);
    // White plays Ba4: the clerk plays Nf6 for Black at once and tells White.
    let white = apply(&black.game, Color::White, "4. Ba4").unwrap();
    assert_eq!(plies(&white), ["Ba4", "*Nf6"]);
    assert_eq!(white.conditional_reply.as_deref(), Some("4... Nf6"));
    assert!(white.game.held().is_empty());
    // White wrote his next move after it in the same letter: applied in turn.
    let white = apply(&black.game, Color::White, "4. Ba4 Nf6 5. O-O").unwrap();
    assert_eq!(plies(&white), ["Ba4", "*Nf6", "O-O"]);
    assert_eq!(white.conditional_reply, None);
    // White wrote another reply for Black than the variant: refused.
    let refusal = apply(&black.game, Color::White, "4. Ba4 d6 5. O-O").unwrap_err();
    assert_eq!(
        refusal.reason,
        Reason::RepeatMismatch {
            recorded: "4... Nf6".into()
        }
    );
}

#[test]
fn a_variant_that_does_not_match_lapses() {
    let start = game("e4 e5 Nf3 Nc6 Bb5");
    let black = apply(&start, Color::Black, "3... a6\nесли 4. Сa4 Кf6").unwrap();
    let white = apply(&black.game, Color::White, "4. Bxc6").unwrap();
    assert_eq!(plies(&white), ["Bxc6"]);
    assert_eq!(white.lapsed, 1);
    assert!(white.game.held().is_empty());
}

#[test]
fn a_long_variant_continues_move_by_move() {
    let start = game("e4 e5 Nf3 Nc6 Bb5");
    let black = apply(&start, Color::Black, "3... a6\nif 4. Ba4 Nf6 5. O-O Be7").unwrap();
    let white = apply(&black.game, Color::White, "4. Ba4").unwrap();
    assert_eq!(
        white.game.held().len(),
        1,
        "the rest of the variant is still held"
    );
    let white = apply(&white.game, Color::White, "4... Nf6 5. O-O").unwrap();
    assert_eq!(plies(&white), ["O-O", "*Be7"]);
}

#[test]
fn ends_of_a_game() {
    let mate = apply(&game("f3 e5 g4"), Color::Black, "2... Qh4#").unwrap();
    assert_eq!(
        mate.end,
        Some(End::Checkmate {
            winner: Color::Black
        })
    );
    assert_eq!(mate.end.unwrap().result(), "0-1");
    let after = apply(&mate.game, Color::White, "3. Kf2").unwrap_err();
    assert_eq!(after.reason, Reason::GameOver);
    // Sam Loyd's ten-move stalemate.
    let stalemate =
        game("e3 a5 Qh5 Ra6 Qxa5 h5 h4 Rah6 Qxc7 f6 Qxd7+ Kf7 Qxb7 Qd3 Qxb8 Qh7 Qxc8 Kg6");
    let applied = apply(&stalemate, Color::White, "10. Qe6").unwrap();
    assert_eq!(applied.end, Some(End::Stalemate));
}

#[test]
fn pgn_round_trips_through_shakmaty() {
    let record = game("e4 e5 Nf3 Nc6 Bb5 a6");
    let comments = vec![
        Some("2026-11-03, 2 days".to_string()),
        None,
        None,
        Some("x".into()),
        None,
        None,
    ];
    let pgn = record.pgn(
        &[
            ("Event", "CC-2026".into()),
            ("White", "Ivanov \"I\"".into()),
        ],
        &comments,
        "*",
    );
    assert!(pgn.starts_with(
        "[Event \"CC-2026\"]\n[White \"Ivanov \\\"I\\\"\"]\n\n1. e4 {2026-11-03, 2 days} 1... e5"
    ));
    // Read the moves back: strip tags and comments, replay every SAN.
    let body = pgn.split("\n\n").nth(1).unwrap();
    let sans: Vec<&str> = body
        .split(['{', '}'])
        .step_by(2)
        .flat_map(str::split_whitespace)
        .filter(|w| !w.ends_with('.') && *w != "*")
        .collect();
    assert_eq!(
        Game::from_sans(&sans, Vec::new()).unwrap().sans(),
        record.sans()
    );
}

#[test]
fn every_move_of_the_real_games_reads_back_as_the_language_writes_it() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realgames/games.pgn");
    let Ok(text) = std::fs::read_to_string(&path) else {
        assert!(
            std::env::var_os("SHTEMPEL_REQUIRE_SHARED").is_none(),
            "{} is missing",
            path.display()
        );
        return;
    };
    let russian = Phrases::builtin(crate::Lang::Ru);
    let english = Phrases::builtin(crate::Lang::En);
    let mut moves = 0;
    let mut forms = std::collections::BTreeSet::new();
    for movetext in text.split("\n\n").filter(|block| !block.starts_with('[')) {
        let mut position = Chess::default();
        for word in movetext.split_whitespace() {
            if word.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                continue;
            }
            let san: SanPlus = word.parse().unwrap_or_else(|_| panic!("{word}"));
            let mv = san
                .san
                .to_move(&position)
                .unwrap_or_else(|_| panic!("{word}"));
            let written = SanPlus::from_move(position.clone(), mv).to_string();
            assert_eq!(english.san(&written), written);
            let ours = russian.san(&written);
            let read =
                crate::letter::notation::parse_move(&ours).unwrap_or_else(|_| panic!("{ours}"));
            assert_eq!(resolve(&position, read), Ok(mv), "{written} written {ours}");
            let square = |c: &char| ('a'..='h').contains(c) || ('1'..='8').contains(c);
            forms.insert(ours.chars().filter(|c| !square(c)).collect::<String>());
            position.play_unchecked(mv);
            moves += 1;
        }
    }
    assert!(moves > 10_000, "{moves} moves");
    // Every piece, capture, castling and promotion form was met.
    for form in [
        "К", "С", "Л", "Ф", "Кр", ":", "К:", "Кр:+", "0-0", "0-0-0", "=Ф", "Ф#",
    ] {
        assert!(forms.contains(form), "{form} in {forms:?}");
    }
}

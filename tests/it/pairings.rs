//! A round robin made from its list of players (`[tournament] pairing`):
//! the games by the Berger tables, `shtempel pairings`, and a file whose
//! players change after the first run refused.

use serde_json::Value;

use shtempel::rules::PairingSystem;
use shtempel::rules::pairing::{Board, Round};

use crate::support::*;

/// A cup of `players` (id, name) and no `[[games]]`, paired by `pairing`.
fn paired(language: &str, pairing: &str, players: &[(&str, &str)]) -> Tournament {
    let mut cup = Cup::empty().named("F", "Final").in_language(language);
    for (id, name) in players {
        cup = cup.player(id, name, &format!("{id}@test.example"));
    }
    let text = cup.text().replacen(
        &format!("language = \"{language}\"\n"),
        &format!("language = \"{language}\"\npairing = \"{pairing}\"\n"),
        1,
    );
    Tournament::with_config(&text)
}

const FIVE: &[(&str, &str)] = &[
    ("ann", "Ann Adams"),
    ("bob", "Bob Brown"),
    ("cat", "Cat Cole"),
    ("dan", "Dan Dunn"),
    ("eve", "Eve Evans"),
];

/// Each game's (white, black) as `games --json` lists them, in its order.
fn listed(t: &Tournament) -> Vec<(String, String, String)> {
    let out = t.run(&["games", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let games: Value = serde_json::from_str(&out.stdout).unwrap();
    games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let text = |key: &str| g[key].as_str().unwrap().to_string();
            (text("game"), text("white"), text("black"))
        })
        .collect()
}

#[test]
fn five_players_make_ten_games_by_the_berger_table_with_a_bye_each_round() {
    let t = paired("en", "round_robin", FIVE);
    let out = t.run(&["pairings"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // FIDE's table for 5 or 6 players, its 6 the bye: round 1 is 1-6,
    // 2-5, 3-4; round 2 is 6-4, 5-3, 1-2.
    for line in [
        "F: round robin, 5 players (a bye each round), 10 games",
        "Round 1 (bye: 1 Ann Adams)",
        "Round 2 (bye: 4 Dan Dunn)",
    ] {
        assert!(out.stdout.contains(line), "{line:?} in:\n{}", out.stdout);
    }
    let game = |n: &str| {
        out.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("game {n} ")))
            .unwrap_or_else(|| panic!("game {n} in:\n{}", out.stdout))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(game("1"), "game 1 board 1 2 Bob Brown - 5 Eve Evans");
    assert_eq!(game("2"), "game 2 board 2 3 Cat Cole - 4 Dan Dunn");
    assert_eq!(game("3"), "game 3 board 1 5 Eve Evans - 3 Cat Cole");
    assert_eq!(game("4"), "game 4 board 2 1 Ann Adams - 2 Bob Brown");
    // games --json lists the same games in the same order.
    let games = listed(&t);
    assert_eq!(games.len(), 10);
    let names =
        |(game, white, black): &(String, String, String)| format!("{game}: {white} - {black}");
    assert_eq!(names(&games[0]), "1: Bob Brown - Eve Evans");
    assert_eq!(names(&games[3]), "4: Ann Adams - Bob Brown");
    assert_eq!(names(&games[9]), "10: Eve Evans - Ann Adams");
    // --json: five rounds of two boards, each with its bye.
    let out = t.run(&["pairings", "--json"]);
    let tables: Value = serde_json::from_str(&out.stdout).unwrap();
    let rounds = tables[0]["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 5);
    assert_eq!(rounds[0]["bye"]["id"], "ann");
    assert_eq!(rounds[0]["boards"][0]["game"], "1");
    assert_eq!(rounds[0]["boards"][0]["white"]["id"], "bob");
    assert_eq!(rounds[4]["boards"][1]["black"]["number"], 1);
}

#[test]
fn a_game_of_the_pairing_is_played_like_a_listed_one() {
    let mut t = paired("en", "round_robin", FIVE);
    // Game 1: Bob (White) - Eve (Black).
    let mail = t.exchange(
        "bob@test.example",
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("ack", "bob@test.example"),
            pair("forward", "eve@test.example")
        ]
    );
    assert!(mail[1].subject.contains("[F #1]"), "{}", mail[1].subject);
}

#[test]
fn a_double_round_robin_in_russian_reverses_the_colours_in_its_second_cycle() {
    let four = [
        ("ivanov", "Иванов И."),
        ("petrov", "Петров П."),
        ("sidorov", "Сидоров С."),
        ("kuznetsov", "Кузнецов К."),
    ];
    let t = paired("ru", "double_round_robin", &four);
    let out = t.run(&["pairings"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout
            .contains("F: double round robin, 4 players, 12 games"),
        "{}",
        out.stdout
    );
    let games = listed(&t);
    assert_eq!(games.len(), 12);
    // Round 1 (1-4, 2-3) and round 4, the second cycle's first: 4-1, 3-2.
    let pair = |at: usize| (games[at].1.as_str(), games[at].2.as_str());
    assert_eq!(pair(0), ("Иванов И.", "Кузнецов К."));
    assert_eq!(pair(1), ("Петров П.", "Сидоров С."));
    assert_eq!(pair(6), ("Кузнецов К.", "Иванов И."));
    assert_eq!(pair(7), ("Сидоров С.", "Петров П."));
    // The first cycle's last two rounds exchanged: round 2 is FIDE's
    // round 3 (2-4, 3-1).
    assert_eq!(pair(2), ("Петров П.", "Кузнецов К."));
    assert_eq!(pair(3), ("Сидоров С.", "Иванов И."));
}

#[test]
fn players_moved_after_the_first_run_are_refused_and_the_order_put_back_runs() {
    let t = paired("en", "round_robin", FIVE);
    t.poll("2026-11-01");
    let file = t.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    // Ann's entry moved to the end: every game would change hands.
    let ann = "[[players]]\nid = \"ann\"\nname = \"Ann Adams\"\nemail = \"ann@test.example\"\n\n";
    let moved = text.replacen(ann, "", 1) + ann;
    std::fs::write(&file, &moved).unwrap();
    for args in [
        vec!["poll", "--today", "2026-11-02"],
        vec!["games"],
        vec!["pairings"],
    ] {
        let out = t.run(&args);
        assert_eq!(out.code, 2, "{args:?}: {}{}", out.stdout, out.stderr);
        for words in [
            "shtempel.toml: players:",
            "in this order: ann, bob, cat, dan, eve",
            "now lists bob, cat, dan, eve, ann",
            "put the [[players]] back",
        ] {
            assert!(out.stderr.contains(words), "{words:?} in {}", out.stderr);
        }
    }
    // (`pairings` too: its table is one the games no longer follow.)
    std::fs::write(&file, &text).unwrap();
    assert_eq!(t.run(&["pairings"]).code, 0);
    t.poll("2026-11-02");
}

#[test]
fn a_file_with_both_a_pairing_and_games_or_an_unknown_pairing_is_refused() {
    let t = paired("en", "round_robin", FIVE);
    let file = t.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let with_games = text.clone() + "[[games]]\nid = \"1\"\nwhite = \"ann\"\nblack = \"bob\"\n";
    std::fs::write(&file, with_games).unwrap();
    let out = t.run(&["games"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("shtempel.toml: games:"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("remove the [[games]] tables"),
        "{}",
        out.stderr
    );
    std::fs::write(&file, text.replace("\"round_robin\"", "\"swiss\"")).unwrap();
    let out = t.run(&["pairings"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("tournament.pairing: \"swiss\" is not a pairing"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("\"double_round_robin\""),
        "{}",
        out.stderr
    );
}

#[test]
fn a_tournament_that_lists_its_games_says_so() {
    let t = Cup::new().open();
    let out = t.run(&["pairings"]);
    assert_eq!(out.code, 0);
    assert_eq!(
        out.stdout,
        "T: no pairing: its games are listed in the file (1 [[games]])\n"
    );
}

#[test]
fn a_game_under_way_keeps_its_players_whatever_the_file_says_next() {
    let cup = Cup::new()
        .player("carol", "Carol", "carol@test.example")
        .player("dave", "Dave", "dave@test.example")
        .game("2", "carol", "dave");
    let mut t = cup.open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.poll("2026-11-03");
    t.new_mail();
    let file = t.path().join("shtempel.toml");
    let as_made = std::fs::read_to_string(&file).unwrap();
    // Its [[games]] entry edited: game 1, White Player's 1. e4 played,
    // given to Carol.
    let edited = as_made.replacen("white = \"white\"", "white = \"carol\"", 1);
    assert_ne!(edited, as_made);
    std::fs::write(&file, &edited).unwrap();
    for args in [vec!["poll", "--today", "2026-11-04"], vec!["games"]] {
        let out = t.run(&args);
        assert_eq!(out.code, 2, "{args:?}: {}\n{}", out.stdout, out.stderr);
        assert!(
            out.stderr.contains(
                "game 1: its moves were played by white (White) and black (Black); the file now gives it to carol and black"
            ),
            "{}",
            out.stderr
        );
    }
    // The games made by `pairing` instead of the list: refused the same way.
    let paired = as_made.replacen(
        "language = \"en\"\n",
        "language = \"en\"\npairing = \"round_robin\"\n",
        1,
    );
    let paired = paired[..paired.find("[[games]]").unwrap()].to_string();
    std::fs::write(&file, &paired).unwrap();
    let out = t.run(&["poll", "--today", "2026-11-04"]);
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr
            .contains("or the [[games]] list instead of `pairing`"),
        "{}",
        out.stderr
    );
    // A game not begun may be changed; the file as it was runs on.
    let not_begun = as_made.replace(
        "white = \"carol\"\nblack = \"dave\"",
        "white = \"dave\"\nblack = \"carol\"",
    );
    assert_ne!(not_begun, as_made);
    std::fs::write(&file, &not_begun).unwrap();
    t.poll("2026-11-04");
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
}

/// A round robin's start sheet gives the player's number in the draw and
/// his games round by round.
#[test]
fn a_start_sheet_gives_the_draw_number_and_the_rounds() {
    for language in ["en", "ru"] {
        let mut t = paired(language, "round_robin", FIVE);
        let out = t.run(&["start", "--today", "2026-10-25"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let sheets = t.new_mail();
        let bob = sheets
            .iter()
            .find(|m| m.to == ["bob@test.example"])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&sheets)));
        let said: &[&str] = match language {
            "ru" => &[
                "Ваш номер по жеребьёвке: 2.",
                "- тур 1, партия 1: вы играете белыми с партнёром Eve Evans",
                "- тур 2, партия 4: вы играете чёрными с партнёром Ann Adams",
            ],
            _ => &[
                "Your number in the draw: 2.",
                "- round 1, game 1: you play White against Eve Evans",
                "- round 2, game 4: you play Black against Ann Adams",
            ],
        };
        for words in said {
            bob.says(words);
        }
    }
}

/// A pairing system the clerk has never heard of, written here: each player
/// meets the next in the list (the last the first), all in round 1.
struct NextInList;

impl PairingSystem for NextInList {
    fn name(&self) -> &str {
        "next_in_list"
    }

    fn rounds(&self, players: usize) -> Vec<Round> {
        let boards = (1..=players)
            .map(|number| Board {
                round: 1,
                board: number,
                white: number,
                black: number % players + 1,
            })
            .collect();
        vec![Round {
            number: 1,
            boards,
            bye: None,
        }]
    }
}

#[test]
fn a_pairing_system_of_its_own_plays_through_the_clerk_unchanged() {
    // Three players, no games in the file: the test's system makes them
    // (game 1 Ann - Bob, 2 Bob - Cat, 3 Cat - Ann), and the clerk plays
    // them as it plays a round robin's.
    let mut cup = Cup::empty().named("N", "Next");
    for (id, name) in &FIVE[..3] {
        cup = cup.player(id, name, &format!("{id}@test.example"));
    }
    let mut t = Tournament::with_config(&cup.text());
    // Bob opens game 2 with White; Cat, his partner there, gets the move.
    t.letter(
        "bob@test.example",
        "2026-11-03",
        "Game 2",
        "Game 2\n1. d4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    let pass = t.pass_paired_by("2026-11-03", &NextInList);
    assert_eq!(
        pass.count(shtempel::clerk::EventKind::Move),
        1,
        "{}",
        pass.log()
    );
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("ack", "bob@test.example"),
            pair("forward", "cat@test.example")
        ]
    );
    assert!(mail[1].subject.contains("[N #2]"), "{}", mail[1].subject);
    // Cat answers, and Ann opens game 3 as Black's partner: Cat has White
    // there, so Ann's move out of turn is refused as the clerk refuses one.
    t.letter(
        "cat@test.example",
        "2026-11-05",
        "Re: [N #2] 1. d4",
        "Game 2\n1... Nf6\nTime: 2/2\nDates: 2026-11-03, 2026-11-05, 2026-11-05\n",
    );
    t.letter(
        "ann@test.example",
        "2026-11-05",
        "Game 3",
        "Game 3\n1. e4\nTime: 2/0\nDates: 2026-11-05\n",
    );
    t.pass_paired_by("2026-11-05", &NextInList);
    let mail = t.new_mail();
    let to_bob = mail
        .iter()
        .find(|m| m.kind == "forward" && m.to == ["bob@test.example"])
        .unwrap_or_else(|| panic!("Cat's reply goes to Bob: {:?}", kinds(&mail)));
    to_bob.says("1... Nf6");
    assert!(
        mail.iter()
            .any(|m| m.kind == "refused" && m.to == ["ann@test.example"]),
        "Ann is Black in game 3: {:?}",
        kinds(&mail)
    );
}

/// `seed = "rating"`: the players numbered by the rating each brings,
/// highest first, those without one after in the file's order; a rating
/// changed after the first run would move them, and is refused as a move.
#[test]
fn a_round_robin_seeded_by_rating_numbers_the_strongest_first() {
    let t = paired("ru", "round_robin", FIVE);
    let file = t.path().join("shtempel.toml");
    let rated = |text: &str, id: &str, rating: u32| {
        text.replacen(
            &format!("email = \"{id}@test.example\"\n"),
            &format!("email = \"{id}@test.example\"\nrating = {rating}\n"),
            1,
        )
    };
    let mut text = std::fs::read_to_string(&file).unwrap().replacen(
        "pairing = \"round_robin\"\n",
        "pairing = \"round_robin\"\nseed = \"rating\"\n",
        1,
    );
    for (id, rating) in [("bob", 1900), ("dan", 2150), ("eve", 2000)] {
        text = rated(&text, id, rating);
    }
    std::fs::write(&file, &text).unwrap();
    let out = t.run(&["pairings", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let table: Value = serde_json::from_str(&out.stdout).unwrap();
    let order: Vec<&str> = table[0]["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["dan", "eve", "bob", "ann", "cat"]);
    // Round 1 of five is 1-6 (the bye), 2-5, 3-4: Eve – Cat, Bob – Ann.
    assert_eq!(
        listed(&t)[..2],
        [
            ("1".into(), "Eve Evans".into(), "Cat Cole".into()),
            ("2".into(), "Bob Brown".into(), "Ann Adams".into()),
        ]
    );
    t.poll("2026-11-01");
    std::fs::write(&file, rated(&text, "ann", 2300)).unwrap();
    let out = t.run(&["poll", "--today", "2026-11-02"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("now lists ann, dan, eve, bob, cat"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("seed = \"rating\""), "{}", out.stderr);
    std::fs::write(&file, &text).unwrap();
    t.poll("2026-11-02");
    // Without a pairing the seed numbers nothing: refused with its key.
    let plain =
        Cup::new()
            .text()
            .replacen("[tournament]\n", "[tournament]\nseed = \"rating\"\n", 1);
    std::fs::write(&file, plain).unwrap();
    let out = t.run(&["games"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("tournament.seed: numbers the players of a round robin"),
        "{}",
        out.stderr
    );
}

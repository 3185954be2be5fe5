//! The director's desk, end to end (his commands through the binary, the
//! passes mostly in this process): results
//! and forfeits set by the chief arbiter's letter (English and Russian) and
//! by command, each checked in the game's state, its chart notes, its PGN,
//! the report's cross-table and every message sent; and the same orders
//! from anyone else changing nothing.

use crate::support::*;

/// A player's order changed nothing, and he alone was told whose orders
/// count.
fn only_the_player_told(t: &mut Tournament, player: &str) {
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("refused", player)]);
    assert!(
        mail[0]
            .body
            .contains("are carried out only from the chief arbiter's address")
            && mail[0].body.contains("Nothing has been changed."),
        "{}",
        mail[0].body
    );
}

fn notes(t: &Tournament) -> Vec<String> {
    t.chart("1")["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|note| note.as_str().unwrap().to_string())
        .collect()
}

fn result_and_status(t: &Tournament) -> (String, String) {
    let chart = t.chart("1");
    (
        chart["result"].as_str().unwrap_or("none").to_string(),
        chart["status"].as_str().unwrap().to_string(),
    )
}

/// The cells of the report's cross-table, row by row, as the page has them.
fn cross_table(t: &Tournament) -> String {
    let out = t.path().join("site");
    let run = t.run(&[
        "report",
        "--out",
        out.to_str().unwrap(),
        "--today",
        "2026-11-20",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    let start = page.find("<table id=\"crosstable\">").unwrap();
    let end = start + page[start..].find("</table>").unwrap();
    page[start..end].to_string()
}

#[test]
fn the_chief_arbiter_sets_a_result_then_a_forfeit_by_letter() {
    let mut t = Tournament::new();
    t.opening();
    // Anyone else's order changes nothing: a player's, a stranger's.
    t.letter(BLACK, "2026-11-10", "Re: [T #1]", "RESULT 1 0-1\n");
    t.letter(
        "someone@elsewhere.example",
        "2026-11-10",
        "Game 1",
        "RESULT 1 0-1\n",
    );
    t.pass("2026-11-10");
    only_the_player_told(&mut t, BLACK);
    assert_eq!(result_and_status(&t), ("none".into(), "active".into()));

    let mail = t.exchange(
        ARBITER,
        "2026-11-12",
        "Game 1",
        "RESULT 1 1-0 the players agreed it by telephone\n",
    );
    // One letter to each player, the secretary in copy of the first.
    assert_eq!(
        kinds(&mail),
        [
            pair("result", WHITE),
            pair("result", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    assert_eq!(
        (&mail[0].to, &mail[0].cc),
        (&vec![WHITE.to_string()], &vec![SECRETARY.to_string()])
    );
    assert_eq!(
        (&mail[1].to, mail[1].cc.len()),
        (&vec![BLACK.to_string()], 0)
    );
    mail[1].says("Dear Black Player,");
    assert!(
        mail[0].subject.contains("game over: 1-0"),
        "{}",
        mail[0].subject
    );
    mail[0].says("The result was set by the chief arbiter: the players agreed it by telephone.");
    mail[0].says("Result: 1-0");
    mail[0].never_says("replaces");
    assert_eq!(result_and_status(&t), ("1-0".into(), "finished".into()));
    assert!(
        notes(&t).contains(&"result 1-0 set by the chief arbiter on 2026-11-12: the players agreed it by telephone".to_string()),
        "{:?}",
        notes(&t)
    );
    let pgn = t.run(&["pgn", "1"]).stdout;
    assert!(
        pgn.contains("[Result \"1-0\"]") && pgn.contains("[Termination \"normal\"]"),
        "{pgn}"
    );

    // The same result again: the arbiter is told nothing changed.
    let mail = t.exchange(ARBITER, "2026-11-13", "Game 1", "RESULT 1 1-0\n");
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    assert!(
        mail[0]
            .body
            .contains("game 1 already has this result (1-0); nothing was changed"),
        "{}",
        mail[0].body
    );

    // A forfeit replaces it: White loses unplayed, scored -/+.
    let mail = t.exchange(
        ARBITER,
        "2026-11-14",
        "Re: [T #1] game over: 1-0",
        "FORFEIT 1 WHITE\n",
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("result", WHITE),
            pair("result", BLACK),
            pair("order-done", ARBITER)
        ]
    );

    mail[0].says("You lose by forfeit, set by the chief arbiter.");
    mail[1].says("White Player loses by forfeit, set by the chief arbiter.");
    mail[0].says("This replaces the result 1-0 given before.");
    mail[0].says("Result: 0-1");
    assert_eq!(result_and_status(&t), ("0-1".into(), "finished".into()));
    let table = cross_table(&t);
    assert!(
        table.contains("<td>−</td>") && table.contains("<td>+</td>"),
        "{table}"
    );
    let pgn = t.run(&["pgn", "1"]).stdout;
    assert!(
        pgn.contains("[Result \"0-1\"]") && pgn.contains("[Termination \"rules infraction\"]"),
        "{pgn}"
    );
}

#[test]
fn a_russian_arbiter_writes_his_orders_in_russian() {
    let mut t = Cup::new().in_language("ru").open();
    t.opening();
    let mail = t.exchange(
        ARBITER,
        "2026-11-11",
        "Партия 1",
        "ОТМЕНИТЬ 1 ошибка в ходе\n",
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("undo", WHITE),
            pair("undo", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    mail[0].says("Последнее письмо партии 1 (White Player — Black Player) отменено: 1... e5 (Black Player); отменяет главный судья, причина: ошибка в ходе.");
    mail[1].says("Ваше последнее письмо по партии 1 (White Player — Black Player) отменено: 1... e5; отменяет главный судья, причина: ошибка в ходе.");
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
    let mail = t.exchange(
        ARBITER,
        "2026-11-12",
        "Партия 1",
        "РЕЗУЛЬТАТ 1 1/2 ничья по соглашению\n",
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("result", WHITE),
            pair("result", BLACK),
            pair("order-done", ARBITER)
        ]
    );

    mail[0].says("Результат установил главный судья: ничья по соглашению.");
    mail[0].says("Результат: 1/2-1/2");
    assert_eq!(result_and_status(&t), ("1/2-1/2".into(), "finished".into()));
    let mail = t.exchange(
        ARBITER,
        "2026-11-13",
        "Партия 1",
        "ТЕХПОРАЖЕНИЕ 1 ЧЁРНЫЕ неявка\n",
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("result", WHITE),
            pair("result", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    mail[1].says("Вам — техническое поражение, засчитал главный судья: неявка.");

    mail[0].says("Black Player: техническое поражение, засчитал главный судья: неявка.");
    mail[0].says("Этот результат заменяет прежний (1/2-1/2).");
    assert!(
        notes(&t).contains(
            &"техническое поражение (1-0) засчитал главный судья 13.11.2026: неявка".to_string()
        ),
        "{:?}",
        notes(&t)
    );
}

#[test]
fn the_director_sets_a_result_and_a_forfeit_by_command() {
    let mut t = Tournament::new();
    t.opening();
    let out = t.run(&[
        "result",
        "1",
        "1/2",
        "--why",
        "adjudicated: a drawn ending",
        "--today",
        "2026-11-12",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains("game 1: 1/2-1/2 (ruling)"),
        "{}",
        out.stdout
    );
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("result", WHITE), pair("result", BLACK)]);
    assert_eq!(mail[0].cc, [SECRETARY]);
    mail[0].says("The result was set by the tournament director: adjudicated: a drawn ending.");
    assert_eq!(result_and_status(&t), ("1/2-1/2".into(), "finished".into()));
    // Refused: the same result, a game the tournament lacks, a result
    // nobody writes. Nothing is sent.
    for (args, words) in [
        (vec!["result", "1", "1/2"], "already has this result"),
        (vec!["result", "9", "1-0"], "has no game \"9\""),
        (vec!["result", "1", "2-0"], "is not a result"),
        (vec!["forfeit", "1", "purple"], "is not a side"),
    ] {
        let mut args = args.clone();
        args.extend(["--today", "2026-11-13"]);
        let out = t.run(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(words), "{args:?}: {}", out.stderr);
    }
    assert!(t.new_mail().is_empty());
    let out = t.run(&["forfeit", "1", "black", "--today", "2026-11-14"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("result", WHITE), pair("result", BLACK)]);
    assert!(
        mail[0]
            .body
            .contains("Black Player loses by forfeit, set by the tournament director."),
        "{}",
        mail[0].body
    );
    assert!(
        mail[0]
            .body
            .contains("This replaces the result 1/2-1/2 given before."),
        "{}",
        mail[0].body
    );
    assert_eq!(result_and_status(&t), ("1-0".into(), "finished".into()));
    let notes = notes(&t);
    assert_eq!(
        notes[notes.len() - 2..],
        [
            "result 1/2-1/2 set by the tournament director on 2026-11-12: adjudicated: a drawn ending",
            "forfeit (1-0) set by the tournament director on 2026-11-14"
        ]
    );
    // A move letter after it is refused: the game is over.
    let mail = t.exchange(
        WHITE,
        "2026-11-15",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 3/4\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", WHITE)]);
    mail[0].says("the game is over (1-0)");
}

#[test]
fn today_lists_what_the_calendar_then_does_and_the_mail_that_changed_nothing() {
    let mut t = Tournament::new();
    t.opening();
    t.letter(
        "someone@elsewhere.example",
        "2026-11-19",
        "Game 1",
        "1. d4\n",
    );
    t.pass("2026-11-19");
    let out = t.run(&["today", "--today", "2026-11-20", "--days", "40", "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let due: Vec<(String, String)> = value["due"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let kind = match item["kind"].as_str().unwrap() {
                "duty" => item["duty"]["kind"].as_str().unwrap(),
                other => other,
            };
            (item["day"].as_str().unwrap().to_string(), kind.to_string())
        })
        .collect();
    // White to move since 7 November with 2 days used: 48 left, his last
    // day 25 December; Black's 1... e5 of 7 November is repeated 40 days
    // on; White is reminded at 10 and at 3 days left; silent, he oversteps
    // the day after his last.
    let expected = [
        ("2026-12-15", "reminder"),
        ("2026-12-17", "repeat"),
        ("2026-12-22", "reminder"),
        ("2026-12-25", "move_owed"),
        ("2026-12-26", "silent_overstep"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(d, k)| (d.to_string(), k.to_string()))
        .collect();
    assert_eq!(due, expected, "{}", out.stdout);
    // The same last day as `games` and the report give.
    let games = t.run(&["games", "--json", "--today", "2026-11-20"]);
    let games: serde_json::Value = serde_json::from_str(&games.stdout).unwrap();
    assert_eq!(games[0]["last_day"], "2026-12-25");
    let site = t.path().join("site");
    let report = t.run(&[
        "report",
        "--out",
        site.to_str().unwrap(),
        "--today",
        "2026-11-20",
    ]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let page = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(page.contains("2026-12-25"), "the report's next move due");
    // The stranger's letter, with its key.
    let letters = value["changed_nothing"].as_array().unwrap();
    assert_eq!(letters.len(), 1, "{letters:?}");
    assert_eq!(letters[0]["from"], "someone@elsewhere.example");
    assert_eq!(letters[0]["disposition"], "ignored");
    assert!(
        letters[0]["key"]
            .as_str()
            .is_some_and(|key| !key.is_empty())
    );
    // In words, the day before his last.
    let text = t
        .run(&["today", "--today", "2026-12-24", "--days", "3"])
        .stdout;
    assert!(
        text.contains("2026-12-25  game 1  White Player (white) to move: the letter's last day (1 day left today)"),
        "{text}"
    );
    assert!(
        text.contains(
            "2026-12-26  game 1  overstep by silence of White Player (white): 51 > 50 days"
        ),
        "{text}"
    );
    assert!(
        text.contains("Mail since 2026-12-21 that changed nothing:\n  none"),
        "{text}"
    );
    // The calendar does each on the day said.
    let days = [
        ("2026-12-15", "reminder"),
        ("2026-12-17", "repeat"),
        ("2026-12-22", "reminder"),
        ("2026-12-26", "overstep-notice"),
    ];
    for (day, kind) in days {
        t.poll(&add_day(day, -1));
        t.new_mail();
        t.poll(day);
        let mail = t.new_mail();
        assert!(
            mail.iter().any(|m| m.kind == kind),
            "{day}: {:?}",
            kinds(&mail)
        );
    }
}

/// `day` moved by `by` days.
fn add_day(day: &str, by: i64) -> String {
    let day: chrono::NaiveDate = day.parse().unwrap();
    (day + chrono::Duration::days(by)).to_string()
}

/// The key of the one letter `today` lists as refused.
fn refused_key(t: &Tournament, day: &str) -> String {
    let out = t.run(&["today", "--today", day, "--json"]);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let refused: Vec<&serde_json::Value> = value["changed_nothing"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|letter| letter["disposition"] == "refused")
        .collect();
    assert_eq!(refused.len(), 1, "{}", out.stdout);
    refused[0]["key"].as_str().unwrap().to_string()
}

#[test]
fn a_refused_letter_is_accepted_with_the_move_the_director_reads_in_it() {
    let mut t = Tournament::new();
    // White means 1. e4 and writes 1. e5: refused as illegal.
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e5\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-03");
    assert_eq!(kinds(&t.new_mail()), [pair("refused", WHITE)]);
    let key = refused_key(&t, "2026-11-05");
    // The director's reading must be one the rules take.
    let out = t.run(&["accept", &key, "--move", "1. e5", "--today", "2026-11-05"]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr.contains(
            "read so, the letter is refused again: line 1, \"e5\": this move is not legal"
        ),
        "{}",
        out.stderr
    );
    let out = t.run(&[
        "accept",
        "no-such-key",
        "--move",
        "1. e4",
        "--today",
        "2026-11-05",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("no letter has this key"),
        "{}",
        out.stderr
    );
    assert!(t.new_mail().is_empty());
    let out = t.run(&[
        "accept",
        &key,
        "--move",
        "1. e4",
        "--why",
        "he meant e4, said by telephone",
        "--today",
        "2026-11-05",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stdout.contains("accepted"), "{}", out.stdout);
    // Taken as any letter: White's ack, Black's forward, the postmark the
    // letter's own (3 November), delivered to Black today.
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
    assert!(mail[1].body.contains("1. e4"), "{}", mail[1].body);
    mail[0].says("Your letter of 2026-11-03 was refused at first; the tournament director has accepted it, reading its move as 1. e4.");
    mail[1].never_says("refused at first");
    assert_eq!(
        mail[0].cc,
        [SECRETARY],
        "the secretary reads the acceptance"
    );
    let chart = t.chart("1");
    let first = &chart["moves"][0];
    assert_eq!(
        (first["san"].as_str(), first["sent_on"].as_str()),
        (Some("e4"), Some("2026-11-03"))
    );
    assert_eq!(first["delivered_on"], "2026-11-05");
    assert!(
        notes(&t).contains(&"letter of 2026-11-03 accepted by the tournament director, its move read as 1. e4: he meant e4, said by telephone".to_string()),
        "{:?}",
        notes(&t)
    );
    // Once taken, never again.
    let out = t.run(&["accept", &key, "--move", "1. e4", "--today", "2026-11-05"]);
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(t.new_mail().is_empty());
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
}

const THIRD: &str = "third@test.example";

/// Three players, four games: 1 White-Black, 2 Third-White, 3 Black-Third,
/// 4 White-Third.
fn three_players(rules: &str) -> Tournament {
    Tournament::with_config(&three_players_config(rules))
}

/// The config of [`three_players`].
fn three_players_config(rules: &str) -> String {
    format!(
        "{}\n[[players]]\nid = \"third\"\nname = \"Third Player\"\nemail = \"{THIRD}\"\n\n\
         [[games]]\nid = \"2\"\nwhite = \"third\"\nblack = \"white\"\n\n\
         [[games]]\nid = \"3\"\nwhite = \"black\"\nblack = \"third\"\n\n\
         [[games]]\nid = \"4\"\nwhite = \"white\"\nblack = \"third\"\n",
        config(rules, "")
    )
}

fn state(t: &Tournament, game: &str) -> (String, String) {
    let chart = t.chart(game);
    (
        chart["result"].as_str().unwrap_or("none").to_string(),
        chart["status"].as_str().unwrap().to_string(),
    )
}

#[test]
fn a_withdrawal_forfeits_the_games_left_and_keeps_the_finished() {
    let mut t = three_players("");
    assert_eq!(
        t.run(&["result", "1", "1-0", "--today", "2026-11-10"]).code,
        0
    );
    t.new_mail();
    let out = t.run(&[
        "withdraw",
        "white",
        "--why",
        "illness",
        "--today",
        "2026-11-12",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let mail = t.new_mail();
    // Games 2 and 4 forfeited, each told to its players and the secretary.
    assert_eq!(
        kinds(&mail),
        [
            pair("result", THIRD),
            pair("result", WHITE),
            pair("result", WHITE),
            pair("result", THIRD)
        ]
    );
    assert_eq!(mail[0].cc, [SECRETARY]);
    mail[0].says("White Player loses by forfeit, set by the tournament director: White Player withdrew from the tournament: illness.");
    mail[1].says("You lose by forfeit, set by the tournament director: White Player withdrew from the tournament: illness.");
    assert_eq!(state(&t, "1"), ("1-0".into(), "finished".into()));
    assert_eq!(state(&t, "2"), ("1-0".into(), "finished".into()));
    assert_eq!(state(&t, "3"), ("none".into(), "active".into()));
    assert_eq!(state(&t, "4"), ("0-1".into(), "finished".into()));
    // Again: nothing left to change.
    let out = t.run(&["withdraw", "white", "--today", "2026-11-13"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("has no game the withdrawal changes"),
        "{}",
        out.stderr
    );
    let out = t.run(&["withdraw", "nobody", "--today", "2026-11-13"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("no player \"nobody\""),
        "{}",
        out.stderr
    );
    assert!(t.new_mail().is_empty());
}

#[test]
fn a_withdrawal_under_half_annuls_every_game_of_his_the_finished_too() {
    let mut t = three_players("withdrawal = \"annul_if_under_half\"");
    assert_eq!(
        t.run(&["result", "1", "1-0", "--today", "2026-11-10"]).code,
        0
    );
    assert_eq!(
        t.run(&["result", "3", "1/2", "--today", "2026-11-10"]).code,
        0
    );
    t.new_mail();
    // One of his three finished: under half.
    let out = t.run(&["withdraw", "white", "--today", "2026-11-12"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("result", WHITE),
            pair("result", BLACK),
            pair("result", THIRD),
            pair("result", WHITE),
            pair("result", WHITE),
            pair("result", THIRD)
        ]
    );
    let body = &mail[0].body;
    mail[0].says("The game is annulled by the tournament director: White Player withdrew from the tournament. It does not count, and its result 1-0 no longer stands.");
    assert!(!body.contains("Result:"), "{body}");
    mail[1].says("its result 1-0 no longer stands");
    mail[2].never_says("no longer stands");
    for game in ["1", "2", "4"] {
        assert_eq!(
            state(&t, game),
            ("none".into(), "annulled".into()),
            "game {game}"
        );
    }
    assert_eq!(state(&t, "3"), ("1/2-1/2".into(), "finished".into()));
    // The table has no White; Black and Third have their draw.
    let table = cross_table(&t);
    assert!(!table.contains("White Player"), "{table}");
    assert!(
        table.contains("Black Player") && table.contains("Third Player"),
        "{table}"
    );
    // A letter in an annulled game is refused.
    let mail = t.exchange(THIRD, "2026-11-13", "Game 2", "Game 2\n1. e4\nTime: 1/0\n");
    assert_eq!(kinds(&mail), [pair("refused", THIRD)]);
    mail[0].says("annulled when a player withdrew");
    // The chief arbiter's list says annulled, not over.
    let list = t.exchange(ARBITER, "2026-11-13", "status", "STATUS\n");
    assert_eq!(kinds(&list), [pair("status", ARBITER)]);
    assert_eq!(
        list[0].body.matches("; annulled.").count(),
        3,
        "{}",
        list[0].body
    );
    list[0].never_says("over.");
    let pgn = t.run(&["pgn", "2"]).stdout;
    assert!(
        pgn.contains("[Result \"*\"]") && pgn.contains("[Termination \"abandoned\"]"),
        "{pgn}"
    );
}

#[test]
fn a_letter_from_an_address_nobody_has_is_taken_as_the_players_it_is() {
    let mut t = Tournament::new();
    let new_address = "white.at.work@elsewhere.example";
    t.letter(new_address, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    assert!(
        t.new_mail().is_empty(),
        "a stranger's letter is not answered"
    );
    let out = t.run(&["today", "--today", "2026-11-04", "--json"]);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let letter = &value["changed_nothing"][0];
    assert_eq!(
        (letter["from"].as_str(), letter["disposition"].as_str()),
        (Some(new_address), Some("ignored"))
    );
    let key = letter["key"].as_str().unwrap().to_string();
    let out = t.run(&["accept", &key, "--as", "nobody", "--today", "2026-11-04"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("no player \"nobody\""),
        "{}",
        out.stderr
    );
    let out = t.run(&[
        "accept",
        &key,
        "--as",
        "white",
        "--why",
        "his office address",
        "--today",
        "2026-11-04",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    // His, as read: the ack to his own address, the move to Black.
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
    mail[0].says(&format!("Your letter of 2026-11-03 came from {new_address}, an address the clerk does not know; the tournament director has taken it as yours, its move 1. e4."));
    let chart = t.chart("1");
    assert_eq!(
        (
            chart["moves"][0]["san"].as_str(),
            chart["moves"][0]["sent_on"].as_str()
        ),
        (Some("e4"), Some("2026-11-03"))
    );
    assert!(
        notes(&t).contains(&format!("letter of 2026-11-03 from {new_address} taken as White Player's by the tournament director, its move 1. e4: his office address")),
        "{:?}",
        notes(&t)
    );
}

#[test]
fn the_last_letter_is_taken_back_by_the_arbiters_letter_and_by_command() {
    let mut t = Tournament::new();
    t.opening();
    // White's 2. Nf3 of 10 November, 3 days.
    t.letter(
        WHITE,
        "2026-11-10",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 5/4\nDates: 2026-11-07, 2026-11-07, 2026-11-10\n",
    );
    t.pass("2026-11-10");
    t.new_mail();
    assert_eq!(t.totals("1"), (5, 4));
    // Anyone else's UNDO changes nothing.
    t.letter(BLACK, "2026-11-11", "Re: [T #1]", "UNDO 1\n");
    t.pass("2026-11-11");
    only_the_player_told(&mut t, BLACK);
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 3);
    let mail = t.exchange(
        ARBITER,
        "2026-11-12",
        "Game 1",
        "UNDO 1 White wrote the move of another game\n",
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("undo", WHITE),
            pair("undo", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    assert_eq!(
        (&mail[0].to, &mail[0].cc),
        (&vec![WHITE.to_string()], &vec![SECRETARY.to_string()])
    );
    mail[0].says("the chief arbiter has taken back the last letter of game 1 (White Player - Black Player): your 2. Nf3, because: White wrote the move of another game.");
    mail[0].says("Time used (White/Black): 2/4.");
    // White has had 1... e5 since 7 November: 2 days used, 5 more run.
    mail[0].says("You are to move again: as of today, 2026-11-12, 43 days left");
    mail[0].says("Lines for your next letter in game 1");
    mail[1].says("the chief arbiter has taken back the last letter of game 1 (White Player - Black Player): White Player's 2. Nf3, because: White wrote the move of another game.");
    mail[1].says("White Player is to move again: as of today, 2026-11-12, 43 days left");
    mail[1].never_says("Lines for your next letter");
    let chart = t.chart("1");
    assert_eq!(chart["moves"].as_array().unwrap().len(), 2);
    assert_eq!(chart["status"], "active");
    assert_eq!(t.totals("1"), (2, 4));
    assert!(
        notes(&t).contains(&"2. Nf3 of White Player taken back by the chief arbiter on 2026-11-12: White wrote the move of another game".to_string()),
        "{:?}",
        notes(&t)
    );
    // White writes his move again; the game goes on from it.
    t.letter(
        WHITE,
        "2026-11-13",
        "Re: [T #1]",
        "Game 1\n2. d4\nTime: 8/4\nDates: 2026-11-07, 2026-11-07, 2026-11-13\n",
    );
    t.pass("2026-11-13");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert_eq!(t.chart("1")["moves"][2]["san"], "d4");
    // By command, twice: 2. d4, then Black's 1... e5.
    for (day, taken) in [("2026-11-14", "2. d4"), ("2026-11-15", "1... e5")] {
        let out = t.run(&["undo", "1", "--why", "a wrong letter", "--today", day]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        let mail = t.new_mail();
        assert_eq!(kinds(&mail), [pair("undo", WHITE), pair("undo", BLACK)]);
        let to_black = &mail[1];
        to_black.says(&format!("the tournament director has taken back the last letter of game 1 (White Player - Black Player): {}", if taken == "2. d4" { "White Player's 2. d4" } else { "your 1... e5" }));
    }
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
    // Down to nothing, then refused.
    assert_eq!(t.run(&["undo", "1", "--today", "2026-11-16"]).code, 0);
    t.new_mail();
    let out = t.run(&["undo", "1", "--today", "2026-11-16"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("game 1 has no move yet"),
        "{}",
        out.stderr
    );
    // In Russian words from the arbiter: refused, nothing to take back.
    let mail = t.exchange(ARBITER, "2026-11-17", "Партия 1", "ОТМЕНИТЬ 1\n");
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    mail[0].says("game 1 has no move yet");
}

#[test]
fn the_chief_arbiter_withdraws_a_player_by_letter() {
    let mut t = three_players("");
    // A player cannot withdraw another.
    t.letter(BLACK, "2026-11-05", "Withdrawal", "WITHDRAW white\n");
    t.pass("2026-11-05");
    only_the_player_told(&mut t, BLACK);
    assert_eq!(state(&t, "2"), ("none".into(), "active".into()));
    t.letter(
        ARBITER,
        "2026-11-06",
        "Withdrawal",
        "WITHDRAW white he has left the federation\n",
    );
    let out = t.poll("2026-11-06");
    assert!(
        out.stdout.contains("game 2: 1-0 (forfeit)"),
        "{}",
        out.stdout
    );
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("result", WHITE),
            pair("result", BLACK),
            pair("result", THIRD),
            pair("result", WHITE),
            pair("result", WHITE),
            pair("result", THIRD),
            pair("order-done", ARBITER)
        ]
    );
    mail[0].says("You lose by forfeit, set by the chief arbiter: White Player withdrew from the tournament: he has left the federation.");
    mail[1].says("White Player loses by forfeit, set by the chief arbiter: White Player withdrew from the tournament: he has left the federation.");
    assert_eq!(state(&t, "1"), ("0-1".into(), "finished".into()));
    assert_eq!(state(&t, "2"), ("1-0".into(), "finished".into()));
    assert_eq!(state(&t, "3"), ("none".into(), "active".into()));
    assert_eq!(state(&t, "4"), ("0-1".into(), "finished".into()));
    // Again: he has nothing left; the arbiter is told.
    let mail = t.exchange(ARBITER, "2026-11-07", "Withdrawal", "ВЫБЫТИЕ white\n");
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    mail[0].says("has no game the withdrawal changes");
}

#[test]
fn a_leave_stops_the_clocks_of_his_games_within_his_allowance() {
    let mut t = Tournament::with_config(&config("leave_days_per_year = 12", ""));
    t.opening();
    // White to move since 7 November, 2 days used: his last day 25 December.
    t.letter(
        WHITE,
        "2026-11-10",
        "Leave",
        "LEAVE 20.11.2026 - 29.11.2026\n",
    );
    let out = t.poll("2026-11-10");
    assert!(out.stdout.contains("leave"), "{}", out.stdout);
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("leave", WHITE), pair("leave-notice", BLACK)]
    );
    assert_eq!(mail[0].cc, [SECRETARY]);
    mail[0].says("your leave from 2026-11-20 to 2026-11-29 (10 days) is recorded");
    mail[0].says("game 1 (White Player - Black Player)");
    mail[0].says("Leave left for 2026: 2 days.");
    let notice = &mail[1].body;
    assert!(
        notice.contains("your partner in game 1 (White Player - Black Player), White Player, is on leave from 2026-11-20 to 2026-11-29"),
        "{notice}"
    );
    // Ten days later than without the leave.
    assert!(notice.contains("White Player is to move; with the leave counted, the letter with the move must be sent by 2027-01-04."), "{notice}");
    let games = t.run(&["games", "--json", "--today", "2026-11-10"]).stdout;
    let games: serde_json::Value = serde_json::from_str(&games).unwrap();
    assert_eq!(games[0]["last_day"], "2027-01-04");
    assert!(
        notes(&t).contains(&"leave of White Player: 2026-11-20 to 2026-11-29".to_string()),
        "{:?}",
        notes(&t)
    );
    // Refused: overlapping, in the past, over the allowance, unreadable.
    for (body, words) in [
        (
            "LEAVE 25.11.2026 - 02.12.2026\n",
            "it overlaps your leave from 2026-11-20 to 2026-11-29",
        ),
        (
            "LEAVE 01.11.2026 - 05.11.2026\n",
            "a leave begins on the day the letter is sent (2026-11-11) or later",
        ),
        (
            "LEAVE 01.12.2026 - 05.12.2026\n",
            "it asks 5 days of 2026, and you have 2 days of that year's 12 days left",
        ),
        ("LEAVE next week\n", "the leave cannot be read"),
    ] {
        let mail = t.exchange(WHITE, "2026-11-11", "Leave", body);
        assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{body}");
        assert!(mail[0].body.contains(words), "{body}: {}", mail[0].body);
    }
    // Black's 1... e5 of 7 November is repeated 40 days on, the 10 days of
    // leave not counting: on 27 December, not 17.
    t.pass("2026-12-17");
    assert!(
        !kinds(&t.new_mail())
            .iter()
            .any(|(kind, _)| kind == "repeat")
    );
    t.pass("2026-12-26");
    t.new_mail();
    t.pass("2026-12-27");
    assert!(
        kinds(&t.new_mail())
            .iter()
            .any(|(kind, _)| kind == "repeat")
    );
    // His move after the leave: its days leave the leave out.
    t.letter(
        WHITE,
        "2026-12-30",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 45/4\nDates: 2026-11-07, 2026-11-07, 2026-12-30\n",
    );
    t.pass("2026-12-30");
    let chart = t.chart("1");
    assert_eq!(chart["moves"][2]["days"], 43, "53 days less 10 of leave");
}

#[test]
fn a_tournament_without_leave_says_so() {
    let mut t = Tournament::new();
    t.opening();
    let mail = t.exchange(
        WHITE,
        "2026-11-10",
        "Отпуск",
        "ОТПУСК 20.11.2026 - 29.11.2026\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", WHITE)]);
    mail[0].says("this tournament grants no leave");
}

#[test]
fn a_replaced_players_games_go_on_with_the_newcomer() {
    let mut t = three_players("");
    t.opening();
    // The director gives White's entry the newcomer's name and address.
    let file = t.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let newcomer = "new.player@test.example";
    let text = text
        .replacen("name = \"White Player\"", "name = \"New Player\"", 1)
        .replacen(
            &format!("email = \"{WHITE}\""),
            &format!("email = \"{newcomer}\""),
            1,
        );
    std::fs::write(&file, text).unwrap();
    let out = t.run(&[
        "replace",
        "white",
        "--was",
        "White Player <white@test.example>",
        "--why",
        "for health reasons",
        "--today",
        "2026-11-10",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("replacement", newcomer),
            pair("replaced", BLACK),
            pair("replaced", THIRD),
            pair("replaced", THIRD)
        ]
    );
    assert!(
        mail.iter().all(|m| m.cc == [SECRETARY]),
        "the secretary is told"
    );
    let notice = &mail[1].body;
    assert!(
        notice.contains("New Player <new.player@test.example> takes the place of White Player <white@test.example> in game 1 (for health reasons)."),
        "{notice}"
    );
    assert!(
        notice.contains(
            "New Player is to move; the letter with the move must be sent by 2026-12-25."
        ),
        "{notice}"
    );
    let welcome = &mail[0].body;
    // Each game as it stands, addressed to him: the
    // moves, the position, whose move by when, and his letter's lines.
    let welcome = &welcome.replace("\r\n", "\n");
    for said in [
        "Game 1: you play White against Black Player <black@test.example>.\n  Moves so far: 1. e4 e5\n  Position (FEN): rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\n  Time used (White/Black): 2/4\n  You are to move: your letter with the move must be sent by 2026-12-25.",
        "---- Lines for your next letter in game 1 (copy, fill in and send) ----\nGame 1\n2. <your move>",
        "Game 2: you play Black against Third Player <third@test.example>.\n  Moves so far: none yet",
    ] {
        assert!(welcome.contains(said), "{said}\n\nin\n\n{welcome}");
    }
    assert!(!welcome.contains("His games"), "{welcome}");
    assert!(
        notes(&t).contains(&"White Player <white@test.example> replaced by New Player on 2026-11-10: for health reasons".to_string()),
        "{:?}",
        notes(&t)
    );
    // His move comes from his address; the old one is nobody's now: a
    // letter from it changes nothing, and its writer is told he was
    // replaced.
    t.letter(
        WHITE,
        "2026-11-11",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 6/4\n",
    );
    t.letter(
        newcomer,
        "2026-11-12",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 7/4\nDates: 2026-11-07, 2026-11-07, 2026-11-12\n",
    );
    t.pass("2026-11-12");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("refused", WHITE),
            pair("ack", newcomer),
            pair("forward", BLACK)
        ]
    );
    mail[0].says("you no longer play in this tournament: you were replaced on 2026-11-10");
    assert_eq!(t.totals("1"), (7, 4));
}

#[test]
fn the_chief_arbiter_accepts_a_refused_letter_by_his_own() {
    let mut t = Tournament::new();
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e5\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-03");
    t.new_mail();
    let key = refused_key(&t, "2026-11-05");
    let mail = t.exchange(
        ARBITER,
        "2026-11-05",
        "Game 1",
        "ACCEPT no-such-key 1. e4\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    mail[0].says("no letter has the key no-such-key");
    // His order as read, not a move letter's lines.
    assert!(
        mail[0]
            .body
            .contains("The clerk read your order as: ACCEPT no-such-key 1. e4")
            && mail[0].body.contains("Nothing has been changed."),
        "{}",
        mail[0].body
    );
    assert!(!mail[0].body.contains("Moves:"), "{}", mail[0].body);
    let mail = t.exchange(
        ARBITER,
        "2026-11-05",
        "Game 1",
        &format!("ACCEPT {key} 1. e4\n"),
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("ack", WHITE),
            pair("forward", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    mail[0].says("Your letter of 2026-11-03 was refused at first; the chief arbiter has accepted it, reading its move as 1. e4.");
    assert_eq!(t.chart("1")["moves"][0]["san"], "e4");
    assert!(
        notes(&t).contains(
            &"letter of 2026-11-03 accepted by the chief arbiter, its move read as 1. e4"
                .to_string()
        ),
        "{:?}",
        notes(&t)
    );
    // Once only.
    t.letter(
        ARBITER,
        "2026-11-06",
        "Game 1",
        &format!("ПРИНЯТЬ {key} 1. e4\n"),
    );
    t.pass("2026-11-06");
    assert_eq!(kinds(&t.new_mail()), [pair("refused", ARBITER)]);
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 1);
}

/// `check` shows the chief arbiter's order as the clerk carries it out:
/// a first word that is no event's id is the player it names (`REPLACE
/// white Sidorov S. <…>` replaces White), not an event called `white`
/// with a player `Sidorov`.
#[test]
fn check_shows_an_order_as_the_clerk_carries_it_out() {
    let mut t = Tournament::new();
    let file = t.letter(
        ARBITER,
        "2026-11-03",
        "Replacement",
        "REPLACE white Sidorov S. <sidorov@test.example> illness\n",
    );
    let out = t.run(&["check", file.to_str().unwrap(), "--today", "2026-11-03"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let read = out
        .stdout
        .split_once("read: ")
        .and_then(|(_, rest)| rest.split_once("\nown text"))
        .map(|(json, _)| json)
        .unwrap_or_else(|| panic!("no reading shown: {}", out.stdout));
    let read: serde_json::Value = serde_json::from_str(read).unwrap();
    let ruling = &read["rulings"][0];
    let replace = &ruling["order"]["replace"];
    assert_eq!(replace["player"], "white", "{ruling}");
    assert_eq!(replace["newcomer"]["name"], "Sidorov S.", "{ruling}");
    assert_eq!(ruling.get("tournament"), None, "{ruling}");
    assert_eq!(ruling["why"], "illness", "{ruling}");
}

#[test]
fn the_chief_arbiter_replaces_a_player_by_his_letter_and_the_clerk_edits_the_entry() {
    let text = three_players_config("");
    let mut t =
        Tournament::with_config(&text.replacen("language = \"en\"", "language = \"ru\"", 1));
    t.opening();
    let newcomer = "sidorov@test.example";
    // An address that is another player's, and a name left out, are
    // answered with what to write; nothing changes.
    for (line, words) in [
        (
            format!("ЗАМЕНА white Сидоров С. <{THIRD}>"),
            format!("{THIRD} уже адрес участника Third Player"),
        ),
        (
            format!("ЗАМЕНА white Сидоров С. <{SECRETARY}>"),
            format!("{SECRETARY} — адрес секретаря или судьи"),
        ),
        (
            format!("ЗАМЕНА white <{newcomer}>"),
            "не указано имя нового участника".to_string(),
        ),
        (
            format!("REPLACE nobody Сидоров С. <{newcomer}>"),
            "в турнире нет участника «nobody»".to_string(),
        ),
    ] {
        let mail = t.exchange(ARBITER, "2026-11-10", "Замена", &format!("{line}\n"));
        assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{line}");
        assert!(mail[0].body.contains(&words), "{line}: {}", mail[0].body);
    }
    let file = t.path().join("shtempel.toml");
    let before = std::fs::read_to_string(&file).unwrap();
    // A player's order changes nothing.
    let mail = t.exchange(
        BLACK,
        "2026-11-10",
        "Замена",
        &format!("REPLACE white Сидоров С. <{newcomer}>\n"),
    );
    assert_eq!(kinds(&mail), [pair("refused", BLACK)]);
    assert!(
        mail[0]
            .body
            .contains("выполняются только с адреса главного судьи")
            && mail[0]
                .body
                .contains("Секретарь прочёл ваше распоряжение так: REPLACE white")
            && mail[0].body.contains("Ничего не изменено."),
        "{}",
        mail[0].body
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
    // His order: the newcomer gets his games, each partner and the
    // secretary are told, and the entry is his once the letter is taken.
    t.letter(
        ARBITER,
        "2026-11-10",
        "Замена",
        &format!("ЗАМЕНА white Сидоров С. <{newcomer}> по болезни участника\n"),
    );
    // A letter behind the order waits for the run that reads the file as
    // edited.
    t.letter(
        newcomer,
        "2026-11-11",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 6/4\nDates: 2026-11-07, 2026-11-07, 2026-11-11\n",
    );
    let out = t.run(&["poll", "--today", "2026-11-11"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("an order edited a tournament's file")
            && out.stderr.contains("1 letter(s) left"),
        "{}",
        out.stderr
    );
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("replacement", newcomer),
            pair("replaced", BLACK),
            pair("replaced", THIRD),
            pair("replaced", THIRD),
            pair("order-done", ARBITER)
        ]
    );
    assert!(
        mail.iter()
            .filter(|m| m.kind != "order-done")
            .all(|m| m.cc == [SECRETARY])
    );
    mail[1].says(&format!(
            "Сидоров С. <{newcomer}> заменяет участника White Player <{WHITE}> в партии 1 (по болезни участника)."
        ));
    assert!(
        mail[0]
            .body
            .contains("Вы заменяете участника White Player <white@test.example>"),
        "{}",
        mail[0].body
    );
    assert!(
        mail[1]
            .body
            .contains("Ходит Сидоров С.; письмо с ходом нужно отправить не позднее"),
        "the newcomer is to move: {}",
        mail[1].body
    );
    let after = std::fs::read_to_string(&file).unwrap();
    assert_eq!(
        after,
        before.replacen(
            &format!("name = \"White Player\"\nemail = \"{WHITE}\""),
            &format!("name = \"Сидоров С.\"\nemail = \"{newcomer}\""),
            1
        ),
        "only his entry changed"
    );
    assert!(
        notes(&t).iter().any(|note| note.starts_with(&format!(
            "White Player <{WHITE}>: замена — участник Сидоров С."
        ))),
        "{:?}",
        notes(&t)
    );
    // The next run reads the file as edited: the newcomer's letter is his.
    t.pass("2026-11-11");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", newcomer), pair("forward", BLACK)]
    );
    assert_eq!(t.totals("1"), (6, 4));
}

/// The key of the one letter `today` lists as changed nothing.
fn ignored_key(t: &Tournament, day: &str) -> String {
    let out = t.run(&["today", "--today", day, "--json"]);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    value["changed_nothing"][0]["key"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_letter_from_a_new_address_is_taken_as_a_players_with_the_address_added_by_letter_and_command()
{
    let new_address = "white.at.work@elsewhere.example";
    let file_of = |t: &Tournament| std::fs::read_to_string(t.path().join("shtempel.toml")).unwrap();
    let with_both = format!("emails = [\"{WHITE}\", \"{new_address}\"]");
    // By the chief arbiter's letter, in Russian.
    let mut t = Tournament::new();
    t.letter(new_address, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    let key = ignored_key(&t, "2026-11-04");
    t.letter(
        ARBITER,
        "2026-11-04",
        "Письмо с нового адреса",
        &format!("ПРИНЯТЬ {key} КАК white АДРЕС\n"),
    );
    let out = t.run(&["poll", "--today", "2026-11-04"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("ack", WHITE),
            pair("forward", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    mail[0].says(&format!("the chief arbiter has taken it as yours, its move 1. e4. Letters from {new_address} are yours from now on."));
    assert!(file_of(&t).contains(&with_both), "{}", file_of(&t));
    assert!(
        notes(&t).contains(&format!("letter of 2026-11-03 from {new_address} taken as White Player's by the chief arbiter, its move 1. e4; {new_address} is the player's address from then on")),
        "{:?}",
        notes(&t)
    );
    // His next letter from there is his.
    t.letter(BLACK, "2026-11-07", "Re: [T #1] 1. e4", B1);
    t.pass("2026-11-07");
    t.new_mail();
    t.letter(
        new_address,
        "2026-11-10",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 5/4\nDates: 2026-11-07, 2026-11-07, 2026-11-10\n",
    );
    t.pass("2026-11-10");
    // (Black's days count from 4 November, the day the accepted move was
    // forwarded: both letters are corrected to 5/3.)
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("correction", WHITE), pair("forward", BLACK)]
    );
    assert_eq!(t.totals("1"), (5, 3));
    // By the director's command: the same.
    let mut t = Tournament::new();
    t.letter(new_address, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    let key = ignored_key(&t, "2026-11-04");
    let out = t.run(&["accept", &key, "--add-address", "--today", "2026-11-04"]);
    assert_eq!(out.code, 2, "--add-address needs --as: {}", out.stderr);
    let out = t.run(&[
        "accept",
        &key,
        "--as",
        "white",
        "--add-address",
        "--today",
        "2026-11-04",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert!(file_of(&t).contains(&with_both), "{}", file_of(&t));
}

#[test]
fn watch_reads_the_tournament_anew_after_an_order_edits_it() {
    let mut t = Tournament::new();
    let newcomer = "newcomer@test.example";
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    t.new_mail();
    t.letter(
        ARBITER,
        "2026-11-04",
        "Replace",
        &format!("REPLACE black Newcomer N. <{newcomer}>\n"),
    );
    t.letter(
        newcomer,
        "2026-11-05",
        "Re: [T #1]",
        "Game 1\n1... e5\nTime: 2/2\nDates: 2026-11-03, 2026-11-03, 2026-11-05\n",
    );
    let watch = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .arg("--config")
        .arg(t.path().join("shtempel.toml"))
        .arg("--future")
        .args(["watch", "--interval", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The pass that takes the order stops there; the next, with the file
    // read anew, takes the newcomer's letter as his.
    let mut mail = Vec::new();
    for _ in 0..600 {
        mail.extend(t.new_mail());
        if mail.iter().any(|m| m.kind == "forward") {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = std::process::Command::new("kill")
        .arg(watch.id().to_string())
        .status();
    let out = watch.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("watch: an order edited a tournament's file; reading it anew"),
        "{stdout}"
    );
    assert!(
        kinds(&mail).contains(&pair("forward", WHITE)),
        "{:?}\n{stdout}",
        kinds(&mail)
    );
    assert!(stdout.contains("watch: stopped"), "{stdout}");
}

#[test]
fn a_players_words_in_capitals_that_read_like_an_order_are_his_letter() {
    let mut t = Tournament::new();
    t.opening();
    t.letter(
        WHITE,
        "2026-11-10",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nI offer a draw.\nTime: 5/4\nDates: 2026-11-07, 2026-11-07, 2026-11-10\n",
    );
    t.pass("2026-11-10");
    t.new_mail();
    // `ACCEPT DRAW` reads like the arbiter's ACCEPT KEY: from a player it
    // is his acceptance of the draw.
    let mail = t.exchange(BLACK, "2026-11-12", "Re: [T #1]", "Game 1\nACCEPT DRAW\n");
    assert_eq!(kinds(&mail), [pair("result", WHITE), pair("result", BLACK)]);
    assert_eq!(t.chart("1")["result"], "1/2-1/2");
}

/// Games are played by people. A game the leaver
/// finished before he was replaced stays his in `games`, the PGN and the
/// cross-table; a game taken over names both, with the newcomer's first
/// move marked.
#[test]
fn a_replacement_keeps_finished_games_with_their_players() {
    let mut t = three_players("");
    t.opening();
    // Game 2 (Third Player - White Player) is over: Third Player wins.
    let out = t.run(&["result", "2", "1-0", "--today", "2026-11-08"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = t.run(&[
        "replace",
        "white",
        "--by",
        "New Player <new.player@test.example>",
        "--today",
        "2026-11-10",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    t.new_mail();
    t.letter(
        "new.player@test.example",
        "2026-11-12",
        "Re: [T #1]",
        "Game 1\n2. Nf3\nTime: 7/4\nDates: 2026-11-07, 2026-11-07, 2026-11-12\n",
    );
    t.pass("2026-11-12");
    let games = t.run(&["games", "--json", "--today", "2026-11-12"]);
    let games: serde_json::Value = serde_json::from_str(&games.stdout).unwrap();
    let names = |id: &str| {
        let game = games
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["game"] == id)
            .unwrap();
        (
            game["white"].as_str().unwrap().to_string(),
            game["black"].as_str().unwrap().to_string(),
        )
    };
    assert_eq!(names("2"), ("Third Player".into(), "White Player".into()));
    assert_eq!(names("1"), ("New Player".into(), "Black Player".into()));
    assert_eq!(names("4"), ("New Player".into(), "Third Player".into()));
    let pgn = t.run(&["pgn", "2"]).stdout;
    assert!(pgn.contains("[Black \"White Player\"]"), "{pgn}");
    assert!(!pgn.contains("Former"), "{pgn}");
    let pgn = t.run(&["pgn", "1"]).stdout;
    for said in [
        "[White \"New Player\"]",
        "[WhiteFormer \"White Player\"]",
        "New Player plays White from here, replacing White Player}",
    ] {
        assert!(pgn.contains(said), "{said}\n{pgn}");
    }
    let pgn4 = t.run(&["pgn", "4"]).stdout;
    assert!(pgn4.contains("[WhiteFormer \"White Player\"]"), "{pgn4}");
    // The cross-table: Third Player's win is over White Player, who keeps
    // his row; the newcomer has none of it.
    let out = t.path().join("site");
    let report = t.run(&[
        "report",
        "--out",
        out.to_str().unwrap(),
        "--today",
        "2026-11-12",
    ]);
    assert_eq!(report.code, 0, "{}", report.stderr);
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let table = &index[index.find("id=\"crosstable\"").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    assert!(table.contains("White Player"), "{table}");
    assert!(table.contains("New Player"), "{table}");
    let row = |name: &str| {
        table
            .lines()
            .find(|line| line.contains(&format!(">{name}<")))
            .unwrap_or_else(|| panic!("{name} in {table}"))
            .to_string()
    };
    assert!(
        row("White Player").contains("<td class=\"score\">0</td>"),
        "{}",
        row("White Player")
    );
    assert!(
        row("Third Player").contains("<td class=\"score\">1</td>"),
        "{}",
        row("Third Player")
    );
    assert!(
        row("New Player").contains("<td class=\"score\">0</td>"),
        "{}",
        row("New Player")
    );
}

/// The advice of a letter whose game cannot be told ("Write a
/// line Game: N"), followed as written, gets it taken.
#[test]
fn the_advice_of_an_unidentified_letter_followed_gets_it_taken() {
    let mut t = three_players("");
    t.opening();
    // Game 4 to White's second move too: "2. Nf3" then fits games 1 and 4
    // (one it fits alone is taken there).
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 4",
        "Game 4\n1. d4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-07");
    t.letter(
        THIRD,
        "2026-11-07",
        "Re: [T #4]",
        "Game 4\n1... d5\nTime: 2/4\nDates: 2026-11-03, 2026-11-03, 2026-11-07\n",
    );
    t.pass("2026-11-07");
    t.new_mail();
    let letter = "2. Nf3\nTime: 7/4\nDates: 2026-11-07, 2026-11-07, 2026-11-12\n";
    let mail = t.exchange(WHITE, "2026-11-12", "my move", letter);
    assert_eq!(kinds(&mail), [pair("refused", WHITE)]);
    mail[0].says("Write a line \"Game: N\"");
    t.letter(
        WHITE,
        "2026-11-12",
        "my move",
        &format!("Game: 1\n{letter}"),
    );
    t.pass("2026-11-12");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert_eq!(t.totals("1"), (7, 4));
}

/// A Russian deadline is the last day, said as such
/// («не позднее 04.01.2027»; «до 04.01.2027» reads as "before the 4th"),
/// in the leave notice as in the undo.
#[test]
fn russian_deadlines_say_the_last_day_is_inclusive() {
    let mut t = Cup::new()
        .in_language("ru")
        .rules("leave_days_per_year = 12")
        .open();
    t.opening();
    let mail = t.exchange(
        WHITE,
        "2026-11-10",
        "Отпуск",
        "ОТПУСК 20.11.2026 - 29.11.2026\n",
    );
    assert_eq!(
        kinds(&mail),
        [pair("leave", WHITE), pair("leave-notice", BLACK)]
    );
    mail[1].says("с учётом отпуска письмо с ходом нужно отправить не позднее 04.01.2027.");
    mail[1].never_says(" до 04.01.2027");
    let mail = t.exchange(
        ARBITER,
        "2026-11-11",
        "Партия 1",
        "ОТМЕНИТЬ 1 ошибка в ходе\n",
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("undo", WHITE),
            pair("undo", BLACK),
            pair("order-done", ARBITER)
        ]
    );
    mail[0].says("письмо с ходом нужно отправить не позднее");
    mail[0].never_says("отправить до ");
}

/// A director's order refused (exit 2) changes nothing,
/// not even the record's day: a later run as of an earlier day still goes.
#[test]
fn a_refused_order_does_not_move_the_records_day() {
    for order in [
        &["undo", "1", "--today", "2026-12-01"][..],
        &["result", "9", "1-0", "--today", "2026-12-01"][..],
    ] {
        // Nothing to undo yet; no game 9.
        let mut t = Cup::new().open();
        let out = t.run(order);
        assert_eq!(out.code, 2, "{order:?}: {}\n{}", out.stdout, out.stderr);
        t.letter(WHITE, "2026-11-03", "Game 1", W1);
        t.pass("2026-11-03");
        assert_eq!(
            kinds(&t.new_mail()),
            [pair("ack", WHITE), pair("forward", BLACK)]
        );
    }
}

/// `replace --was` takes the player replaced as
/// "Name <address>", as `--by` takes the newcomer; other text is refused
/// with how to write it, and nothing changes.
#[test]
fn replace_was_takes_a_name_and_an_address_only() {
    let mut t = Cup::new().open();
    t.opening();
    for was in [
        "",
        "White Player",
        "<white@test.example>",
        "White Player <not an address>",
    ] {
        let out = t.run(&["replace", "white", "--was", was, "--today", "2026-11-10"]);
        assert_eq!(out.code, 2, "{was:?}: {}\n{}", out.stdout, out.stderr);
        assert!(
            out.stderr
                .contains("write the player replaced as \"Name <address>\""),
            "{was:?}: {}",
            out.stderr
        );
    }
    assert!(t.new_mail().is_empty(), "nothing was sent");
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), 2);
}

/// A second leave line in one letter is not passed over
/// in silence: the first is carried out, and the answer says the other was
/// not and how to ask for it; the same when the first is refused.
#[test]
fn a_second_leave_line_is_named_as_not_carried_out() {
    let second = "ОТПУСК 05.01.2027 - 08.01.2027";
    for (lang, said) in [
        (
            "en",
            "one letter asks one leave; send that one in a letter of its own",
        ),
        (
            "ru",
            "одно письмо просит один отпуск; пришлите этот отдельным письмом",
        ),
    ] {
        let mut t = Cup::new()
            .in_language(lang)
            .rules("leave_days_per_year = 12")
            .open();
        t.opening();
        t.letter(
            WHITE,
            "2026-11-10",
            "Leave",
            &format!("LEAVE 20.11.2026 - 23.11.2026\n{second}\n"),
        );
        t.pass("2026-11-10");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("leave", WHITE), pair("leave-notice", BLACK)],
            "{lang}"
        );
        mail[0].says(&format!("{second}: {said}"));
        // The first refused (past the allowance), the second named too.
        t.letter(
            WHITE,
            "2026-11-11",
            "Leave",
            &format!("LEAVE 01.12.2026 - 30.12.2026\n{second}\n"),
        );
        t.pass("2026-11-11");
        let mail = t.new_mail();
        assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{lang}");
        mail[0].says(&format!("{second}: {said}"));
    }
}

/// `CONFIRM`/`REJECT`/`CONTINUE` and their
/// Russian words followed by a reason are carried out, and the reason is
/// told to both players.
#[test]
fn a_decision_with_a_reason_is_carried_out_and_its_reason_told() {
    let table = [
        (
            "en",
            "CONFIRM 1 no letter came in time",
            "0-1",
            "The chief arbiter's reason: no letter came in time",
        ),
        (
            "ru",
            "ПОДТВЕРДИТЬ 1 письмо отправлено с опозданием",
            "0-1",
            "Обоснование главного судьи: письмо отправлено с опозданием",
        ),
        (
            "en",
            "REJECT 1 5 days, the post office was closed",
            "",
            "The chief arbiter's reason: the post office was closed",
        ),
        (
            "ru",
            "ПРОДОЛЖИТЬ 1 материалы неполны",
            "",
            "Обоснование главного судьи: материалы неполны",
        ),
    ];
    for (lang, order, result, said) in table {
        let (mut t, _) = white_oversteps(Cup::new().in_language(lang));
        assert_eq!(t.chart("1")["status"], "suspended", "{lang}");
        let mail = t.exchange(ARBITER, "2027-02-10", "Re: [T #1]", &format!("{order}\n"));
        assert_eq!(
            kinds(&mail),
            [
                pair("decision", WHITE),
                pair("decision", BLACK),
                pair("order-done", ARBITER)
            ],
            "{order}"
        );
        mail[0].says(said);
        mail[1].says(said);
        // His receipt: the order as he wrote it, its game, who was told.
        let receipt = &mail[2];
        receipt.says(&format!(
            "{}{order}{} {}",
            pick(lang, "your order \"", "Ваше распоряжение «"),
            pick(lang, "\" has been carried out in", "» выполнено по партии"),
            "[T #1]."
        ));
        for told in [WHITE, BLACK, SECRETARY] {
            receipt.says(&format!("<{told}>"));
        }
        match result {
            "" => assert_eq!(t.chart("1")["status"], "active", "{order}"),
            result => assert_eq!(t.chart("1")["result"], result, "{order}"),
        }
    }
}

/// A letter accepted long after its refusal: its forward goes out with the
/// acceptance, and its 40 days (10.3.4) run from then, when the partner
/// got it; no registered repeat goes out beside its forward.
#[test]
fn an_accepted_old_letters_repeat_counts_from_the_acceptance() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        let illegal = "Game 1\n1. e5\nTime: 2/0\nDates: 2026-11-03\n";
        t.letter(WHITE, "2026-11-03", "Game 1", illegal);
        t.pass("2026-11-03");
        assert_eq!(kinds(&t.new_mail()), [pair("refused", WHITE)]);
        let key = refused_key(&t, "2026-11-05");
        // Accepted 42 days after its postmark.
        let out = t.run(&["accept", &key, "--move", "1. e4", "--today", "2026-12-15"]);
        assert_eq!(out.code, 0, "{language}: {}\n{}", out.stdout, out.stderr);
        let mail = t.new_mail();
        assert!(
            mail.iter().any(|m| m.kind == "forward" && m.to == [BLACK]),
            "{language}: {:?}",
            kinds(&mail)
        );
        assert!(
            !mail.iter().any(|m| m.kind == "repeat"),
            "{language}: a repeat beside the forward: {:?}",
            kinds(&mail)
        );
        // Forty days after the acceptance, not after the postmark.
        t.pass("2027-01-23");
        assert!(
            !t.new_mail().iter().any(|m| m.kind == "repeat"),
            "{language}: repeated before its 40 days"
        );
        t.pass("2027-01-24");
        let mail = t.new_mail();
        let repeat = mail
            .iter()
            .find(|m| m.kind == "repeat")
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        repeat.says(match language {
            "en" => "has had no answer for 40 days",
            _ => "нет ответа 40 дн.",
        });
    }
}

/// The answers to an acceptance are in the tournament's words: a letter
/// refused again names why as its writer was told it, a letter accepted
/// already says so with its date, not the log's English ("move 1. e4",
/// "accepted by the director").
#[test]
fn an_acceptances_answers_are_in_the_tournaments_language() {
    for language in ["en", "ru"] {
        let mut t = Cup::new().in_language(language).open();
        let illegal = "Game 1\n1. e5\nTime: 2/0\nDates: 2026-11-03\n";
        t.letter(WHITE, "2026-11-03", "Game 1", illegal);
        t.pass("2026-11-03");
        t.new_mail();
        let key = refused_key(&t, "2026-11-05");
        let out = t.run(&["accept", &key, "--move", "1. e5", "--today", "2026-11-05"]);
        assert_eq!(out.code, 2, "{language}: {}", out.stdout);
        let (again, illegal_words) = match language {
            "en" => (
                "read so, the letter is refused again: ",
                "this move is not legal",
            ),
            _ => (
                "прочитанное так, письмо снова отклонено: ",
                "ход невозможен",
            ),
        };
        assert!(out.stderr.contains(again), "{language}: {}", out.stderr);
        let said = &out.stderr[out.stderr.find(again).unwrap() + again.len()..];
        if language == "ru" {
            assert!(
                !said.contains("this move") && !said.contains("line"),
                "{said}"
            );
        }
        assert!(
            said.contains(illegal_words) || language == "ru",
            "{language}: {said}"
        );
        // Accepted by the chief arbiter's letter; then again, by command.
        let order = format!("ACCEPT {key} 1. e4\n");
        t.exchange(ARBITER, "2026-11-06", "Accept", &order);
        let out = t.run(&["accept", &key, "--move", "1. e4", "--today", "2026-11-07"]);
        assert_eq!(out.code, 2, "{language}: {}", out.stdout);
        let twice = pick(language, "was accepted already", "уже принято после отказа");
        assert!(out.stderr.contains(twice), "{language}: {}", out.stderr);
        for log in ["(move", "accepted by", "director:"] {
            assert!(!out.stderr.contains(log), "{language}: {}", out.stderr);
        }
    }
}

/// A leave asked again is "granted already", not an overlap; one that
/// overlaps a granted leave is refused as a leave, in its own words and
/// with no empty block of moves and dates read.
#[test]
fn a_leave_asked_again_or_overlapping_is_answered_as_a_leave() {
    for language in ["en", "ru"] {
        let mut t = Cup::new()
            .in_language(language)
            .rules("leave_days_per_year = 30")
            .open();
        t.opening();
        let leave = pick(
            language,
            "LEAVE 20.11.2026 - 29.11.2026\n",
            "ОТПУСК 20.11.2026 - 29.11.2026\n",
        );
        t.exchange(BLACK, "2026-11-10", "Leave", leave);
        for day in ["2026-11-12", "2026-11-21"] {
            let mail = t.exchange(BLACK, day, "Leave", leave);
            assert_eq!(kinds(&mail), [pair("leave", BLACK)], "{language} {day}");
            mail[0].says(pick(language, "was granted already", "уже предоставлен"));
        }
        let overlapping = pick(
            language,
            "LEAVE 25.11.2026 - 02.12.2026\n",
            "ОТПУСК 25.11.2026 - 02.12.2026\n",
        );
        let mail = t.exchange(BLACK, "2026-11-22", "Leave", overlapping);
        assert_eq!(kinds(&mail), [pair("refused", BLACK)], "{language}");
        let refusal = &mail[0];
        refusal.says(pick(
            language,
            "the leave asked in your letter could not be granted:",
            "Отпуск, о котором вы просите в письме, не может быть предоставлен:",
        ));
        refusal.never_says(pick(language, "What the clerk read", "Что прочитано"));
        refusal.never_says(pick(language, "Moves: (none)", "Ходы: (нет)"));
        refusal.never_says(pick(
            language,
            "answered in a message of its own",
            "отдельным письмом",
        ));
    }
}

/// The header fields a real GMX delivery writes below its receipt (9 KB,
/// most of it `UI-InboundReport`): `../shared/corpus/mail-parser-eml/
/// thirdparty-015.eml` (mail-parser's corpus, a letter of 13 February
/// 2026), its head without the fields the test writes itself (the receipt,
/// the sender and addressee, subject, date, ids and content type).
fn gmx_fields() -> Option<String> {
    let dir = shared_dir("corpus/mail-parser-eml")?;
    let raw = std::fs::read_to_string(dir.join("thirdparty-015.eml")).unwrap();
    let head = raw.split("\n\n").next().unwrap();
    let ours = [
        "return-path:",
        "received:",
        "from:",
        "to:",
        "subject:",
        "date:",
        "message-id:",
        "mime-version:",
        "content-type:",
    ];
    let mut fields = String::new();
    let mut keep = false;
    for line in head.lines() {
        if !line.starts_with([' ', '\t']) {
            let name = line.to_ascii_lowercase();
            keep = !ours.iter().any(|field| name.starts_with(field));
        }
        if keep {
            fields.push_str(line);
            fields.push_str("\r\n");
        }
    }
    Some(fields)
}

/// A stranger's letter is kept whole (within `max_letter_bytes`): taken by
/// `accept --as`, a real-size letter (its move, time and dates 9 KB down)
/// is read as written, with no warning of dates or time missing.
#[test]
fn a_real_size_letter_from_a_new_address_is_taken_as_written() {
    let Some(fields) = gmx_fields() else {
        return;
    };
    assert!(fields.len() > 8 * 1024, "{}", fields.len());
    let mut t = Tournament::new();
    let new_address = "white.at.work@elsewhere.example";
    t.letter_with(new_address, "2026-11-03", "Game 1", W1, &fields);
    t.pass("2026-11-03");
    assert!(t.new_mail().is_empty());
    let key = ignored_key(&t, "2026-11-04");
    let out = t.run(&["accept", &key, "--as", "white", "--today", "2026-11-04"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("ack", WHITE), pair("forward", BLACK)]);
    assert!(!mail[0].body.contains("10.3.3"), "{}", mail[0].body);
    let chart = t.chart("1");
    assert_eq!(
        (
            chart["moves"][0]["san"].as_str(),
            chart["moves"][0]["sent_on"].as_str(),
        ),
        (Some("e4"), Some("2026-11-03"))
    );
    assert_eq!(t.totals("1"), (2, 0));
}

/// The director may give a newcomer his language: his letters are in it
/// from the first (the welcome, then the partner's moves forwarded), while
/// the partners and the secretary read the event's.
#[test]
fn a_newcomers_language_is_the_one_the_director_gave() {
    let mut t = three_players("");
    t.opening();
    let newcomer = "novy@test.example";
    let out = t.run(&[
        "replace",
        "white",
        "--by",
        "Новый Игрок <novy@test.example>",
        "--language",
        "ru",
        "--today",
        "2026-11-10",
    ]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let mail = t.new_mail();
    let welcome = mail.iter().find(|m| m.kind == "replacement").unwrap();
    assert_eq!(welcome.to, [newcomer]);
    welcome.says("Вы заменяете участника White Player <white@test.example>");
    let notice = mail.iter().find(|m| m.kind == "replaced").unwrap();
    notice.says("takes the place of White Player <white@test.example> in game 1");
    // Game 2: Third opens; the move forwarded to the newcomer is in Russian.
    let mail = t.exchange(
        THIRD,
        "2026-11-12",
        "Game 2",
        "Game 2\n1. d4\nTime: 2/0\nDates: 2026-11-12\n",
    );
    let forward = mail
        .iter()
        .find(|m| m.kind == "forward" && m.to == [newcomer])
        .unwrap();
    forward.says("Партия 2");
    // Refused without a language of the clerk's.
    let out = t.run(&[
        "replace",
        "black",
        "--by",
        "Z <z@test.example>",
        "--language",
        "de",
    ]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("--language"), "{}", out.stderr);
}

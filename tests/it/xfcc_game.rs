//! A game between a player who writes letters (White) and one who moves
//! from his chess program by Xfcc (Black), through `shtempel serve` and the
//! passes it runs, every day count checked against rules.md 2.2: Black's
//! moves are counted from the day White's move reached him (its forward)
//! to the day the server took his, and never charged an omission; White's
//! letters are checked as ever, against the days the server took Black's.
//! And the moves by Xfcc as the rest of the clerk's life takes them: a draw
//! offered by letter and accepted from a program, another player's game
//! refused, a pass killed at each step of a move from the spool.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::support::*;
use crate::xfcc::{Flags, SERVED, Server, asking, element, get_my_games, line_value};

/// The Xfcc server's spool of the tournament `t`.
fn spool(t: &Tournament) -> PathBuf {
    let configs = shtempel::config::load_all(&t.path().join("shtempel.toml")).unwrap();
    configs[0].xfcc_spool()
}

/// The letters of `folder` (`new`, `cur`) of the spool.
fn in_spool(t: &Tournament, folder: &str) -> Vec<String> {
    match std::fs::read_dir(spool(t).join(folder)) {
        Ok(entries) => entries
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Waits for the pass the server runs to apply its moves: the game has
/// `plies` moves (or its result) and the spool is empty. A bound, not a
/// timing: the pass is a process of its own.
fn applied(t: &Tournament, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
    let start = Instant::now();
    loop {
        let chart = t.chart("1");
        if done(&chart) && in_spool(t, "new").is_empty() {
            return chart;
        }
        assert!(
            start.elapsed() < Duration::from_secs(90),
            "the server's pass did not apply the move: {chart:#}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

fn moves(chart: &serde_json::Value) -> usize {
    chart["moves"].as_array().unwrap().len()
}

/// Black's move on `day` from his program, and what the pass sent for it.
fn black_moves(
    t: &mut Tournament,
    day: &str,
    password: &str,
    (movecount, my_move, flags): (u32, &str, Flags),
) -> Vec<Sent> {
    let server = Server::start(t, day);
    let (_, games) = server.post(&get_my_games("black", password));
    let id: u32 = element(&games, "id").parse().unwrap();
    let before = moves(&t.chart("1"));
    let (_, reply) = server.post(&asking("black", password, id, movecount, my_move, flags));
    assert_eq!(element(&reply, "MakeAMoveResult"), "Success", "{my_move}");
    applied(t, |chart| {
        moves(chart) > before || !chart["result"].is_null()
    });
    assert_eq!(server.stop(), Some(0));
    t.new_mail()
}

#[test]
fn a_game_between_a_letter_writer_and_a_chess_program_counts_every_day_by_the_rules() {
    let report = "[report]\nout = \"report\"\nurl = \"https://chess.example.org/cup/\"";
    let mut t = Cup::new().table(SERVED).table(report).open();
    // 1. e4 by letter on 3 November: 2 days from the start (1 November).
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    t.new_mail();
    let mail = t.exchange(BLACK, "2026-11-03", "xfcc", "XFCC");
    let password = line_value(&mail[0].body, "Password:").to_string();

    // Black's program on 7 November: his clock has run 4 days since the
    // forward reached him on the 3rd; White has 48.
    let server = Server::start(&t, "2026-11-07");
    let (_, games) = server.post(&get_my_games("black", &password));
    assert_eq!(element(&games, "myTurn"), "true");
    assert_eq!(element(&games, "daysPlayer"), "46");
    assert_eq!(element(&games, "daysOpponent"), "48");
    assert_eq!(server.stop(), Some(0));
    let mail = black_moves(&mut t, "2026-11-07", &password, (1, "e5", Flags::default()));
    assert_eq!(
        kinds(&mail),
        [pair("ack", BLACK), pair("forward", WHITE)],
        "{mail:#?}"
    );
    // 4 days, as rules.md 2.2 counts them, and nothing omitted: he stated
    // nothing, and the clerk knew every date.
    assert_eq!(t.totals("1"), (2, 4));
    let ack = &mail[0];
    ack.says("your move in game 1 (White Player - Black Player) from your chess program");
    ack.says("your partner's move reached you on");
    ack.never_says("not given");
    let forward = &mail[1];
    forward.says("1... e5");

    // White answers by letter on the 9th: his dates are the forward's (the
    // 7th) and his own, checked as ever.
    let mail = t.exchange(
        WHITE,
        "2026-11-09",
        "Re: [T #1] 1... e5",
        "Game 1\n2. Nf3\nTime: 4/4\nDates: 2026-11-07, 2026-11-07, 2026-11-09\n",
    );
    assert_eq!(
        kinds(&mail),
        [pair("ack", WHITE), pair("forward", BLACK)],
        "{mail:#?}"
    );
    assert_eq!(t.totals("1"), (4, 4));

    // On the 10th Black moves while cron's poll holds the run lock: the
    // move waits in the spool; sent again it is the same move, another
    // is refused; once the lock is free, the server's next try applies it.
    let configs = shtempel::config::load_all(&t.path().join("shtempel.toml")).unwrap();
    let cron = shtempel::run::lock(&configs[0].database)
        .unwrap()
        .expect("the lock is free");
    let server = Server::start(&t, "2026-11-10");
    let (_, games) = server.post(&get_my_games("black", &password));
    let id: u32 = element(&games, "id").parse().unwrap();
    let offer = Flags {
        offer_draw: true,
        message: "A draw? Ничья?",
        ..Flags::default()
    };
    let nc6 = asking("black", &password, id, 2, "Nc6", offer);
    for (request, answer) in [
        (&nc6, "Success"),
        (&nc6, "Success"),
        (
            &asking("black", &password, id, 2, "Nf6", Flags::default()),
            "NotYourTurn",
        ),
    ] {
        let (_, reply) = server.post(request);
        assert_eq!(element(&reply, "MakeAMoveResult"), answer);
    }
    assert_eq!(in_spool(&t, "new").len(), 1, "{:?}", in_spool(&t, "new"));
    assert_eq!(moves(&t.chart("1")), 3);
    drop(cron);
    let chart = applied(&t, |chart| moves(chart) == 4);
    assert_eq!(server.stop(), Some(0));
    assert_eq!(in_spool(&t, "cur").len(), 2);
    // One day since the forward of 2. Nf3 reached him on the 9th.
    assert_eq!(t.totals("1"), (4, 5));
    assert_eq!(chart["moves"][3]["san"], "Nc6", "{chart:#}");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("ack", BLACK), pair("forward", WHITE)],
        "{mail:#?}"
    );
    mail[0].says("with your draw offer");
    mail[1].says("2... Nc6");

    // White plays on (a move declines the offer), by letter on the 12th.
    let mail = t.exchange(
        WHITE,
        "2026-11-12",
        "Re: [T #1] 2... Nc6",
        "Game 1\n3. Bb5\nTime: 6/5\nDates: 2026-11-10, 2026-11-10, 2026-11-12\n",
    );
    assert_eq!(
        kinds(&mail),
        [pair("ack", WHITE), pair("forward", BLACK)],
        "{mail:#?}"
    );
    assert_eq!(t.totals("1"), (6, 5));

    // Black resigns from his program on the 20th: the game is White's.
    let resign = Flags {
        resign: true,
        ..Flags::default()
    };
    let mail = black_moves(&mut t, "2026-11-20", &password, (3, "", resign));
    assert!(
        mail.iter().any(|m| m.to == [WHITE]) && mail.iter().any(|m| m.to == [BLACK]),
        "{mail:#?}"
    );
    let chart = t.chart("1");
    assert_eq!(chart["result"], "1-0", "{chart:#}");
    let server = Server::start(&t, "2026-11-21");
    let (_, games) = server.post(&get_my_games("black", &password));
    assert_eq!(element(&games, "result"), "WhiteWins");
    assert_eq!(element(&games, "moves"), "1. e4 e5 2. Nf3 Nc6 3. Bb5");
    assert_eq!(server.stop(), Some(0));
    // The game's page the link names is the report's.
    assert!(t.path().join("report/game-1.html").is_file());
}

/// A move the server took, in the spool as it writes one: Black's 1... e5
/// of game 1 (server number 1), taken on `day` at noon.
fn taken_e5(t: &Tournament, day: &str) {
    use shtempel::xfcc::letter::{Taken, TakenAsk};
    let at: chrono::DateTime<chrono::Utc> = format!("{day}T12:00:00Z").parse().unwrap();
    let taken = Taken {
        from: BLACK,
        to: CLERK,
        tag: "[T #1]",
        game: "1",
        xfcc_id: 1,
        plies: 1,
        ask: TakenAsk::Move {
            number: 1,
            colour: shakmaty::Color::Black,
            san: "e5".into(),
            offer_draw: false,
        },
        message: "",
        username: "black",
        peer: "127.0.0.1".parse().unwrap(),
        at,
        shown_on: None,
    };
    shtempel::mail::source::spool::deliver(&spool(t), &taken.file_name(), &taken.letter()).unwrap();
}

/// A pass killed at any step of a move from the spool: the next runs apply
/// it once, keep it once, and send its receipt and forward once each.
#[test]
fn a_pass_killed_at_any_step_of_a_move_by_xfcc_loses_nothing_and_doubles_nothing() {
    for fault in [
        "after-parse:1",
        "after-outbox-insert:1",
        "after-commit:1",
        "before-mark-done:1",
        "during-mark-done:1",
        "during-send:1",
    ] {
        let mut t = Cup::new().open();
        t.letter(WHITE, "2026-11-03", "Game 1", W1);
        t.pass("2026-11-03");
        let before = t.outbox().len();
        taken_e5(&t, "2026-11-05");
        let crashed = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
            .arg("--config")
            .arg(t.path().join("shtempel.toml"))
            .args(["--future", "poll", "--today", "2026-11-05"])
            .env("SHTEMPEL_FAULT", fault)
            .output()
            .unwrap();
        assert_eq!(crashed.status.code(), None, "{fault}: the fault fired");
        for _ in 0..2 {
            t.poll("2026-11-05");
        }
        assert_eq!(t.sans("1"), ["e4", "e5"], "{fault}");
        assert_eq!(t.totals("1"), (2, 2), "{fault}");
        assert!(in_spool(&t, "new").is_empty(), "{fault}");
        assert_eq!(in_spool(&t, "cur").len(), 1, "{fault}");
        let mail = t.outbox()[before..].to_vec();
        let mut ids: Vec<&str> = mail.iter().map(|m| m.message_id.as_str()).collect();
        ids.dedup();
        assert_eq!(
            kinds(&mail),
            [pair("ack", BLACK), pair("forward", WHITE)],
            "{fault}"
        );
        assert_eq!(ids.len(), 2, "{fault}");
    }
}

/// A draw offered by letter, accepted from the program; a move asked in a
/// game that is not his, or that does not exist, changes nothing.
#[test]
fn a_draw_offered_by_letter_is_accepted_from_a_program_and_another_players_game_is_refused() {
    let mut t = Cup::new()
        .player("third", "Third Player", "third@test.example")
        .game("2", "white", "third")
        .table(SERVED)
        .open();
    t.opening();
    let mail = t.exchange(
        WHITE,
        "2026-11-09",
        "Re: [T #1] 1... e5",
        "Game 1\n2. Nf3\nI offer a draw.\nTime: 4/4\nDates: 2026-11-07, 2026-11-07, 2026-11-09\n",
    );
    assert!(mail.iter().any(|m| m.kind == "forward"), "{mail:#?}");
    let mail = t.exchange(BLACK, "2026-11-09", "xfcc", "XFCC");
    let password = line_value(&mail[0].body, "Password:").to_string();
    // White's login numbers his games: game 2 too.
    t.exchange(WHITE, "2026-11-09", "xfcc", "XFCC");
    let server = Server::start(&t, "2026-11-10");
    let (_, games) = server.post(&get_my_games("black", &password));
    assert_eq!(games.matches("<XfccGame>").count(), 1, "{games}");
    assert_eq!(element(&games, "drawOffered"), "true");
    let id: u32 = element(&games, "id").parse().unwrap();
    let accept = Flags {
        accept_draw: true,
        ..Flags::default()
    };
    // (game, the answer): White's game with Third, one that is nobody's.
    for (game, answer) in [(id + 1, "NotYourGame"), (id + 99, "InvalidGameID")] {
        let (_, reply) = server.post(&asking("black", &password, game, 2, "", accept));
        assert_eq!(element(&reply, "MakeAMoveResult"), answer);
    }
    assert!(in_spool(&t, "new").is_empty());
    let (_, reply) = server.post(&asking("black", &password, id, 2, "", accept));
    assert_eq!(element(&reply, "MakeAMoveResult"), "Success");
    let chart = applied(&t, |chart| !chart["result"].is_null());
    assert_eq!(chart["result"], "1/2-1/2", "{chart:#}");
    // Sent again once the game is over: refused, nothing changes.
    let (_, reply) = server.post(&asking("black", &password, id, 2, "", accept));
    assert_eq!(element(&reply, "MakeAMoveResult"), "NotYourTurn");
    let (_, games) = server.post(&get_my_games("black", &password));
    assert_eq!(element(&games, "result"), "Draw");
    assert_eq!(server.stop(), Some(0));
    assert_eq!(in_spool(&t, "cur").len(), 1);
    let mail = t.new_mail();
    assert!(mail.iter().any(|m| m.to == [WHITE]), "{mail:#?}");
    assert!(mail.iter().any(|m| m.to == [BLACK]), "{mail:#?}");
}

/// rules.md 2.2 for a move by Xfcc whose answered move's forward has not
/// gone (the mail server refuses it): the move reached the player on the
/// day the server first showed it to him, and his days count from there.
#[test]
fn a_move_shown_before_its_forward_went_counts_from_the_day_it_was_shown() {
    let mut t = Cup::new().table(SERVED).open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass("2026-11-03");
    t.new_mail();
    let mail = t.exchange(BLACK, "2026-11-03", "xfcc", "XFCC");
    let password = line_value(&mail[0].body, "Password:").to_string();
    black_moves(&mut t, "2026-11-05", &password, (1, "e5", Flags::default()));
    assert_eq!(t.totals("1"), (2, 2));
    // From now on the mail server refuses every message: White's 2. Nf3
    // is taken on the 7th, and its forward waits.
    let file = t.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    let refusing = "kind = \"smtp\"\nhost = \"127.0.0.1\"\nport = 1\ntls = \"none\"";
    std::fs::write(
        &file,
        text.replace("kind = \"file\"\npath = \"outbox\"", refusing),
    )
    .unwrap();
    t.letter(
        WHITE,
        "2026-11-07",
        "Re: [T #1] 1... e5",
        "Game 1\n2. Nf3\nTime: 4/2\nDates: 2026-11-05, 2026-11-05, 2026-11-07\n",
    );
    let poll = t.run(&["poll", "--today", "2026-11-07"]);
    assert_eq!(poll.code, 1, "the forward waits: {}", poll.stderr);
    assert_eq!(t.totals("1"), (4, 2));
    // Black's program shows it to him on the 9th; he moves on the 12th.
    let server = Server::start(&t, "2026-11-09");
    let (_, games) = server.post(&get_my_games("black", &password));
    assert_eq!(element(&games, "moves"), "1. e4 e5 2. Nf3");
    assert_eq!(element(&games, "myTurn"), "true");
    assert_eq!(server.stop(), Some(0));
    let server = Server::start(&t, "2026-11-12");
    let (_, games) = server.post(&get_my_games("black", &password));
    let id: u32 = element(&games, "id").parse().unwrap();
    let (_, reply) = server.post(&asking("black", &password, id, 2, "Nc6", Flags::default()));
    assert_eq!(element(&reply, "MakeAMoveResult"), "Success");
    applied(&t, |chart| moves(chart) == 4);
    assert_eq!(server.stop(), Some(0));
    // 3 days (9th to 12th), not 5 from White's postmark of the 7th.
    assert_eq!(t.totals("1"), (4, 5));
}

/// `doctor` says whether moves wait in the spool, and warns where one has
/// waited longer than a pass takes to come (no server's pass, no poll).
#[test]
fn doctor_warns_of_a_move_no_pass_has_applied() {
    let t = Cup::new().table(SERVED).open();
    let out = t.run(&["doctor"]);
    assert!(
        out.stdout.contains("ok    xfcc moves  none waits in "),
        "{}",
        out.stdout
    );
    taken_e5(&t, "2026-11-05");
    let out = t.run(&["doctor"]);
    assert!(
        out.stdout
            .contains("warn  xfcc moves  1 move(s) from chess programs wait in ")
            && out
                .stdout
                .contains("since 2026-11-05 12:00 UTC: no pass has applied them"),
        "{}",
        out.stdout
    );
}

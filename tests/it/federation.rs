//! One clerk, one mailbox, one database, two tournaments: a
//! folder of tournament files, one player in both, letters tagged and
//! untagged, an ambiguous one, start sheets, and a late start sheet that
//! moves a player's start.

use crate::support::*;

const CAROL: &str = "carol@test.example";

/// A tournament file: White and Black play game 1 in `id`.
fn event(id: &str, white: (&str, &str), black: (&str, &str)) -> String {
    format!(
        "[tournament]\nid = \"{id}\"\nname = \"Cup {id}\"\nstart_date = 2026-11-01\n\
         end_date = 2028-11-01\ntimezone = \"Europe/Moscow\"\nlanguage = \"en\"\n\n\
         [[players]]\nid = \"{}\"\nname = \"{}\"\nemail = \"{}\"\n\n\
         [[players]]\nid = \"{}\"\nname = \"{}\"\nemail = \"{}\"\n\n\
         [[games]]\nid = \"1\"\nwhite = \"{}\"\nblack = \"{}\"\n",
        white.0,
        white.1,
        white.0.replace('_', "@"),
        black.0,
        black.1,
        black.0.replace('_', "@"),
        white.0,
        black.0
    )
}

/// The clerk's file and its folder: in A, White Player (white) against
/// Black Player; in B, Carol (white) against White Player (black).
fn federation() -> Tournament {
    federation_with("")
}

/// The same, with more in the clerk's file.
fn federation_with(extra: &str) -> Tournament {
    federation_of(["A", "B"], extra)
}

/// The same, the events' ids `ids`.
fn federation_of(ids: [&str; 2], extra: &str) -> Tournament {
    let clerk = folder_clerk(extra);
    let t = Tournament::with_config(&clerk);
    let folder = t.path().join("tournaments");
    std::fs::create_dir(&folder).unwrap();
    let files = [
        (
            "a.toml",
            event(
                ids[0],
                ("white_test.example", "White Player"),
                ("black_test.example", "Black Player"),
            ),
        ),
        (
            "b.toml",
            event(
                ids[1],
                ("carol_test.example", "Carol"),
                ("white_test.example", "White Player"),
            ),
        ),
    ];
    for (name, text) in files {
        std::fs::write(folder.join(name), text).unwrap();
    }
    t
}

fn run_ok(t: &Tournament, args: &[&str]) -> Output {
    let out = t.run(args);
    assert_eq!(out.code, 0, "{args:?}:\n{}\n{}", out.stdout, out.stderr);
    out
}

/// Game 1's chart in `tournament`, as JSON.
fn chart_of(t: &Tournament, tournament: &str) -> serde_json::Value {
    let out = run_ok(
        t,
        &["chart", "1", "--format", "json", "--tournament", tournament],
    );
    serde_json::from_str(&out.stdout).unwrap()
}

/// Carol's 1. d4 in B, on 3 November.
fn opens_b(t: &mut Tournament) {
    t.letter(
        CAROL,
        "2026-11-03",
        "[B #1]",
        "Game 1\n1. d4\nTime: 2/0\nDates: 2026-11-03\n",
    );
}

/// White Player's 1. e4 in A, on 3 November.
fn opens_a(t: &mut Tournament) {
    t.letter(
        WHITE,
        "2026-11-03",
        "[A #1]",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
}

fn sans(t: &Tournament, tournament: &str) -> Vec<String> {
    chart_of(t, tournament)["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn two_tournaments_one_mailbox_one_database() {
    let mut t = federation();
    // Start sheets: A's before its start, B's four days late.
    run_ok(&t, &["start", "--tournament", "A", "--today", "2026-10-25"]);
    let sheets = t.new_mail();
    assert_eq!(
        kinds(&sheets),
        [pair("start-sheet", WHITE), pair("start-sheet", BLACK)]
    );
    assert!(sheets[0].body.contains("[A #1]"), "{}", sheets[0].body);
    run_ok(&t, &["start", "--tournament", "B", "--today", "2026-11-05"]);
    let sheets = t.new_mail();
    assert_eq!(
        kinds(&sheets),
        [pair("start-sheet", CAROL), pair("start-sheet", WHITE)]
    );
    assert!(
        sheets[1]
            .body
            .contains("game 1: you play Black against Carol <carol@test.example>"),
        "{}",
        sheets[1].body
    );
    // 8 November. White's letter tagged for A; Carol's untagged: she plays
    // only in B. A charges White 7 days from 1 November; B charges Carol
    // 2 days, her start moved to the 6th by her sheet of the 5th.
    t.letter(
        WHITE,
        "2026-11-08",
        "[A #1] my move",
        "1. e4\nTime: 7/0\nDates: 2026-11-08\n",
    );
    t.letter(
        CAROL,
        "2026-11-08",
        "Game 1",
        "Game 1\n1. d4\nTime: 2/0\nDates: 2026-11-08\n",
    );
    let out = t.poll("2026-11-08");
    assert!(
        out.stdout.contains("game A/1"),
        "events name the tournament:\n{}",
        out.stdout
    );
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("ack", WHITE),
            pair("forward", BLACK),
            pair("ack", CAROL),
            pair("forward", WHITE)
        ],
        "{}",
        out.stdout
    );
    assert!(mail[1].subject.starts_with("[A #1]"), "{}", mail[1].subject);
    assert!(mail[3].subject.starts_with("[B #1]"), "{}", mail[3].subject);
    assert_eq!(
        (sans(&t, "A"), sans(&t, "B")),
        (vec!["e4".to_string()], vec!["d4".to_string()])
    );
    // 9 November. White writes "Game 1" with no tag and no thread: he plays
    // a game 1 in both. Nothing is applied; he is asked, with his games.
    t.letter(
        WHITE,
        "2026-11-09",
        "Game 1",
        "Game 1\n1... d5\nTime: 2/2\nDates: 2026-11-08, 2026-11-08, 2026-11-09\n",
    );
    t.pass("2026-11-09");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("refused", WHITE)]);
    let asked = &mail[0].body;
    assert!(asked.contains("more than one tournament"), "{asked}");
    assert!(
        asked.contains("Your games with this clerk: [A #1], [B #1]."),
        "{asked}"
    );
    assert_eq!((sans(&t, "A").len(), sans(&t, "B").len()), (1, 1));
    // 10 November. He answers B's forward (its thread): taken in B.
    let outbox = t.outbox();
    let forward = outbox
        .iter()
        .find(|m| m.kind == "forward" && m.subject.starts_with("[B #1]"))
        .unwrap();
    let in_reply_to = format!("In-Reply-To: {}\r\n", forward.message_id);
    t.letter_with(
        WHITE,
        "2026-11-10",
        "Re: your partner's move",
        "1... d5\nTime: 2/2\nDates: 2026-11-08, 2026-11-08, 2026-11-10\n",
        &in_reply_to,
    );
    t.pass("2026-11-10");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", CAROL)]
    );
    assert_eq!(sans(&t, "B"), ["d4", "d5"]);
    assert_eq!(sans(&t, "A"), ["e4"]);
    // `games` lists every event's games; `chart` must be told which.
    let all = run_ok(&t, &["games"]);
    assert!(
        all.stdout.contains("A/1") && all.stdout.contains("B/1"),
        "{}",
        all.stdout
    );
    let several = t.run(&["chart", "1"]);
    assert_eq!(several.code, 2);
    assert!(
        several.stderr.contains("serves several tournaments (A, B)"),
        "{}",
        several.stderr
    );
    let b = run_ok(&t, &["games", "--tournament", "B"]);
    assert!(b.stdout.contains("Carol"), "{}", b.stdout);
}

#[test]
fn each_tournament_of_a_folder_has_its_report_and_an_idle_poll_rewrites_none() {
    let mut t = federation_with("\n[report]\nout = \"site\"\n");
    t.letter(
        WHITE,
        "2026-11-03",
        "[A #1] my move",
        "1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    let index = |id: &str| t.path().join("site").join(id).join("index.html");
    let a = std::fs::read_to_string(index("A")).unwrap();
    let b = std::fs::read_to_string(index("B")).unwrap();
    assert!(a.contains("Cup A") && !a.contains("Cup B"), "{a}");
    assert!(b.contains("Cup B") && b.contains("Carol"), "{b}");
    let written = |id: &str| std::fs::metadata(index(id)).unwrap().modified().unwrap();
    let before = (written("A"), written("B"));
    t.poll("2026-11-03");
    assert_eq!(
        (written("A"), written("B")),
        before,
        "nothing changed, nothing rewritten"
    );
    // Each report is current by a mark of its own (one mark for both would
    // have each poll rewrite the other's whole site).
    let db = rusqlite::Connection::open(t.path().join("db.sqlite")).unwrap();
    let marks: Vec<(String, String)> = db
        .prepare("SELECT key, value FROM run_state WHERE key LIKE 'report%' ORDER BY key")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let keys: Vec<&str> = marks.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["report:A/", "report:B/"]);
    assert!(marks.iter().all(|(_, v)| !v.is_empty()), "{marks:?}");
    // The index of the events links each one's report.
    let events = std::fs::read_to_string(t.path().join("site/index.html")).unwrap();
    for link in [
        "<a href=\"A/index.html\">Cup A</a>",
        "<a href=\"B/index.html\">Cup B</a>",
    ] {
        assert!(events.contains(link), "{events}");
    }
    assert!(events.contains("Standing on 2026-11-03"), "{events}");
    // White Player plays in both: his page lists his game in each, linked.
    assert!(events.contains("Players in several events"), "{events}");
    assert!(
        !events.contains("Carol</a>"),
        "Carol plays in one event only"
    );
    let page = "players/white_5ftest_2eexample.html";
    assert!(
        events.contains(&format!("<a href=\"{page}\">White Player</a>")),
        "{events}"
    );
    let his = std::fs::read_to_string(t.path().join("site").join(page)).unwrap();
    for row in [
        "<a href=\"../A/game-1.html\">1</a></td><td>White</td><td class=\"name\">Black Player</td>",
        "<a href=\"../B/game-1.html\">1</a></td><td>Black</td><td class=\"name\">Carol</td>",
    ] {
        assert!(his.contains(row), "{row} in:\n{his}");
    }
    assert!(
        t.path().join("site/A/game-1.html").exists(),
        "the link leads somewhere"
    );
    // `report` by hand: every event and the index; of one event, that one.
    let by_hand = t.path().join("by-hand");
    let out = run_ok(
        &t,
        &[
            "report",
            "--today",
            "2026-11-03",
            "--out",
            by_hand.to_str().unwrap(),
        ],
    );
    assert!(
        by_hand.join("A/index.html").exists() && by_hand.join("B/index.html").exists(),
        "{}",
        out.stdout
    );
    assert_eq!(
        std::fs::read_to_string(by_hand.join("index.html")).unwrap(),
        events
    );
    let one = t.path().join("one");
    run_ok(
        &t,
        &[
            "report",
            "--tournament",
            "B",
            "--out",
            one.to_str().unwrap(),
        ],
    );
    assert!(one.join("B/index.html").exists());
    assert!(!one.join("A").exists() && !one.join("index.html").exists());
}

#[test]
fn the_arbiter_of_several_tournaments_names_the_one_he_rules_on() {
    let mut t = federation();
    // A: White moves on 3 November; Black Player is silent past 50 days.
    t.letter(
        WHITE,
        "2026-11-03",
        "[A #1] my move",
        "1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-03");
    t.pass("2026-12-26");
    t.new_mail();
    let status = |t: &Tournament, id: &str| {
        let out = run_ok(t, &["chart", "1", "--format", "json", "--tournament", id]);
        let chart: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        chart["status"].as_str().unwrap().to_string()
    };
    // B's Carol never made her first move: suspended too.
    assert_eq!(
        (status(&t, "A"), status(&t, "B")),
        ("suspended".into(), "suspended".into())
    );
    // "CONFIRM 1" alone, no tag, no thread: which tournament's game 1?
    let mail = t.exchange(ARBITER, "2026-12-27", "decision", "CONFIRM 1\n");
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    mail[0].says("several tournaments (A, B)");
    mail[0].says("CONFIRM");
    assert_eq!(
        (status(&t, "A"), status(&t, "B")),
        ("suspended".into(), "suspended".into())
    );
    // Named: A's game 1 is decided, B's untouched.
    t.letter(ARBITER, "2026-12-27", "decision", "CONFIRM A 1\n");
    let out = t.poll("2026-12-27");
    assert_eq!(status(&t, "A"), "finished", "{}", out.stdout);
    assert_eq!(status(&t, "B"), "suspended");
    assert!(
        kinds(&t.new_mail())
            .iter()
            .any(|(kind, _)| kind == "decision")
    );
}

#[test]
fn a_tournament_of_its_own_file_moves_into_a_folder_with_its_games() {
    // A running tournament of its own file, id A.
    let single = event(
        "A",
        ("white_test.example", "White Player"),
        ("black_test.example", "Black Player"),
    );
    let clerk_tables = format!(
        "[bot]\naddress = \"{CLERK}\"\ndatabase = \"db.sqlite\"\n\n\
         [arbiters]\nchief_arbiter = \"{ARBITER}\"\nchief_secretary = \"{SECRETARY}\"\n\n\
         [source]\nkind = \"maildir\"\npath = \"inbox\"\n\n\
         [transport]\nkind = \"file\"\npath = \"outbox\"\n"
    );
    let mut t = Tournament::with_config(&format!("{single}\n{clerk_tables}"));
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-03");
    let forward = t.new_mail().remove(1);
    assert_eq!(forward.kind, "forward");
    // Into a folder, beside a second tournament.
    let folder = t.path().join("tournaments");
    std::fs::create_dir(&folder).unwrap();
    std::fs::write(folder.join("a.toml"), &single).unwrap();
    let b = event(
        "B",
        ("carol_test.example", "Carol"),
        ("white_test.example", "White Player"),
    );
    std::fs::write(folder.join("b.toml"), b).unwrap();
    let clerk = clerk_tables.replace(
        "database = \"db.sqlite\"\n",
        "database = \"db.sqlite\"\ntournaments = \"tournaments\"\n",
    );
    std::fs::write(t.path().join("shtempel.toml"), clerk).unwrap();
    // Its games belong to no tournament of the folder until adopted.
    let refused = t.run(&["poll", "--today", "2026-11-05"]);
    assert_eq!(refused.code, 2, "{}", refused.stdout);
    assert!(
        refused.stderr.contains("shtempel adopt --tournament ID"),
        "{}",
        refused.stderr
    );
    let adopted = run_ok(&t, &["adopt", "--tournament", "A"]);
    assert!(adopted.stdout.contains("1 game(s)"), "{}", adopted.stdout);
    assert_eq!(sans(&t, "A"), ["e4"]);
    assert!(sans(&t, "B").is_empty());
    // Black answers the forward he had: its thread is A's still.
    let in_reply_to = format!("In-Reply-To: {}\r\n", forward.message_id);
    t.letter_with(
        BLACK,
        "2026-11-05",
        "Re: move",
        "1... e5\nTime: 2/2\nDates: 2026-11-03, 2026-11-03, 2026-11-05\n",
        &in_reply_to,
    );
    t.pass("2026-11-05");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    assert_eq!(sans(&t, "A"), ["e4", "e5"]);
}

#[test]
fn the_directors_operations_in_a_folder_touch_the_tournament_named_and_no_other() {
    let mut t = federation();
    // White Player opens in both: A as White, B as Black after Carol.
    t.letter(
        WHITE,
        "2026-11-03",
        "[A #1]",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.letter(
        CAROL,
        "2026-11-03",
        "[B #1]",
        "Game 1\n1. d4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    run_ok(&t, &["poll", "--today", "2026-11-03"]);
    t.new_mail();
    // A result needs the tournament; with it, only that one changes.
    let out = t.run(&["result", "1", "1-0", "--today", "2026-11-04"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("A, B"), "{}", out.stderr);
    run_ok(
        &t,
        &[
            "--tournament",
            "B",
            "result",
            "1",
            "0-1",
            "--today",
            "2026-11-04",
        ],
    );
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("result", CAROL), pair("result", WHITE)]);
    assert!(mail[0].subject.contains("[B #1]"), "{}", mail[0].subject);
    let games = run_ok(&t, &["games", "--json", "--today", "2026-11-04"]).stdout;
    let games: serde_json::Value = serde_json::from_str(&games).unwrap();
    let results: Vec<(String, String)> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["tournament"].as_str().unwrap().to_string(),
                g["result"].as_str().unwrap_or("none").to_string(),
            )
        })
        .collect();
    assert_eq!(
        results,
        [("A".into(), "none".into()), ("B".into(), "0-1".into())]
    );
    // Undo in A takes back A's 1. e4, not B's 1. d4.
    run_ok(
        &t,
        &["--tournament", "A", "undo", "1", "--today", "2026-11-05"],
    );
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("undo", WHITE), pair("undo", BLACK)]);
    assert!(mail[0].subject.contains("[A #1]"), "{}", mail[0].subject);
    assert!(sans(&t, "A").is_empty());
    assert_eq!(sans(&t, "B"), ["d4"]);
    // The chief arbiter's UNDO names the tournament by its tag.
    t.letter(
        ARBITER,
        "2026-11-06",
        "Re: [B #1] game over",
        "UNDO 1 the result was set by mistake\n",
    );
    run_ok(&t, &["poll", "--today", "2026-11-06"]);
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    mail[0].says("the game is over (0-1)");
    // today lists each tournament's games under their own names.
    let today = run_ok(&t, &["today", "--today", "2026-12-20", "--days", "5"]).stdout;
    assert!(
        today.contains("game A/1  White Player (white) to move"),
        "{today}"
    );
    assert!(!today.contains("game B/1"), "{today}");
    // A withdrawal in A leaves his game in B as it is.
    run_ok(
        &t,
        &[
            "--tournament",
            "A",
            "withdraw",
            "white_test.example",
            "--today",
            "2026-11-07",
        ],
    );
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("result", WHITE), pair("result", BLACK)]);
    assert!(mail[0].subject.contains("[A #1]"), "{}", mail[0].subject);
    let chart = run_ok(&t, &["--tournament", "B", "chart", "1", "--format", "json"]).stdout;
    let chart: serde_json::Value = serde_json::from_str(&chart).unwrap();
    assert_eq!(chart["result"], "0-1");
}

#[test]
fn a_replacement_by_command_edits_the_tournaments_own_file_and_no_other() {
    let mut t = federation();
    t.letter(
        CAROL,
        "2026-11-03",
        "[B #1]",
        "Game 1\n1. d4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    run_ok(&t, &["poll", "--today", "2026-11-03"]);
    t.new_mail();
    let folder = t.path().join("tournaments");
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).unwrap();
    let (a, b) = (read("a.toml"), read("b.toml"));
    let dora = "dora@test.example";
    let out = t.run(&[
        "--tournament",
        "B",
        "replace",
        "carol_test.example",
        "--by",
        "Dora D. dora@test.example",
        "--today",
        "2026-11-04",
    ]);
    assert_eq!(out.code, 2, "an address without <>: {}", out.stderr);
    assert!(out.stderr.contains("\"Name <address>\""), "{}", out.stderr);
    run_ok(
        &t,
        &[
            "--tournament",
            "B",
            "replace",
            "carol_test.example",
            "--by",
            &format!("Dora D. <{dora}>"),
            "--why",
            "Carol moved abroad",
            "--today",
            "2026-11-04",
        ],
    );
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("replacement", dora), pair("replaced", WHITE)]
    );
    mail[1].says(&format!(
        "Dora D. <{dora}> takes the place of Carol <{CAROL}> in game 1 (Carol moved abroad)."
    ));
    assert_eq!(
        read("a.toml"),
        a,
        "the other tournament's file is as it was"
    );
    assert_eq!(
        read("b.toml"),
        b.replacen(
            &format!("name = \"Carol\"\nemail = \"{CAROL}\""),
            &format!("name = \"Dora D.\"\nemail = \"{dora}\""),
            1
        )
    );
    // Her letters are hers in B from the next run on.
    t.letter(
        WHITE,
        "2026-11-05",
        "[B #1]",
        "Game 1\n1... d5\nTime: 2/2\nDates: 2026-11-03 2026-11-03 2026-11-05\n",
    );
    run_ok(&t, &["poll", "--today", "2026-11-05"]);
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", dora)]
    );
}

/// Letters set aside are the mailbox's, so `retry`
/// needs no `--tournament` in a folder.
#[test]
fn retry_in_a_folder_needs_no_tournament() {
    for language in ["en", "ru"] {
        retry_without_a_tournament(language);
    }
}

fn retry_without_a_tournament(language: &str) {
    let mut t = federation_in(language);
    t.letter(
        "white@test.example",
        "2026-11-03",
        "[A #1]",
        "Game 1\n1. e4\nTROUBLE\nTime: 2/0\nDates: 2026-11-03\n",
    );
    for _ in 0..3 {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
            .arg("--config")
            .arg(t.path().join("shtempel.toml"))
            .args(["--future", "poll", "--today", "2026-11-03"])
            .env("SHTEMPEL_FAULT", "panic-letter:TROUBLE")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
    }
    let listed = run_ok(&t, &["retry"]);
    let key = listed.stdout.split_whitespace().next().unwrap().to_string();
    assert!(key.starts_with("quarantine:"), "{}", listed.stdout);
    let out = run_ok(&t, &["retry", &key]);
    assert!(
        out.stdout.contains("is back among the new letters"),
        "{}",
        out.stdout
    );
    t.pass("2026-11-03");
    assert_eq!(sans(&t, "A"), ["e4"]);
    assert_eq!(sans(&t, "B"), Vec::<String>::new());
    assert!(
        run_ok(&t, &["retry"])
            .stdout
            .contains("no letter is set aside")
    );
}

/// An archived event's late letters (its file taken
/// out of the folder) are refused, never routed to another event's game of
/// the same number.
#[test]
fn an_archived_events_letter_is_refused_not_taken_elsewhere() {
    archived_event(
        "en",
        "the letter is for tournament A (its subject's tag or the message it answers says so), which this clerk does not serve any more",
    );
    archived_event(
        "ru",
        "письмо относится к турниру A (так говорит метка в теме или сообщение, на которое оно отвечает), а этот турнир секретарь больше не ведёт",
    );
}

fn archived_event(language: &str, said: &str) {
    let mut t = federation_in(language);
    // In A, White Player is White; in B, Black.
    opens_a(&mut t);
    t.pass("2026-11-03");
    let mail = t.new_mail();
    let ack = mail.iter().find(|m| m.kind == "ack").expect("ack");
    let ack_id = ack.message_id.clone();
    // B's game 1: Carol opens, so that White Player is to move there too.
    opens_b(&mut t);
    t.pass("2026-11-03");
    t.new_mail();
    std::fs::remove_file(t.path().join("tournaments/a.toml")).unwrap();
    // White Player's reply in A's thread (to his receipt there), with no
    // tag; then his letter under A's tag alone. (Black Player plays in A
    // alone: he is nobody's now, and ignored.)
    t.letter_with(
        "white@test.example",
        "2026-11-05",
        "Re: my move",
        "2. Nf3\nTime: 4/0\nDates: 03.11.2026, 03.11.2026, 05.11.2026\n",
        &format!("In-Reply-To: <{ack_id}>\r\n"),
    );
    t.letter(
        "black@test.example",
        "2026-11-05",
        "Re: [A #1] 1. e4",
        "1... e5\nTime: 2/2\nDates: 03.11.2026, 03.11.2026, 05.11.2026\n",
    );
    t.letter(
        "white@test.example",
        "2026-11-05",
        "[A #1] again",
        "1... d5\nTime: 2/2\nDates: 03.11.2026, 03.11.2026, 05.11.2026\n",
    );
    let out = t.poll("2026-11-05");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("refused", "white@test.example"),
            pair("refused", "white@test.example")
        ],
        "{}",
        out.stdout
    );
    for refusal in &mail {
        assert!(refusal.body.contains(said), "{}", refusal.body);
    }
    assert_eq!(sans(&t, "B"), ["d4"], "B's game is untouched");
    let today = run_ok(&t, &["today", "--today", "2026-11-05", "--json"]).stdout;
    assert_eq!(today.matches("does not serve").count(), 2, "{today}");
}

/// One event's chief arbiter naming another event's
/// game is told he is not its chief arbiter; nothing changes.
#[test]
fn another_events_arbiter_is_told_so_and_changes_nothing() {
    let table = [
        (
            "en",
            "RESULT",
            "you are not the chief arbiter of tournament B",
        ),
        ("ru", "РЕЗУЛЬТАТ", "вы не главный судья турнира B"),
    ];
    for (language, result, said) in table {
        let mut t = federation_in(language);
        let cup_arbiter = "cup.arbiter@test.example";
        let b = t.path().join("tournaments/b.toml");
        let text = std::fs::read_to_string(&b).unwrap();
        std::fs::write(
            &b,
            format!("{text}\n[arbiters]\nchief_arbiter = \"{cup_arbiter}\"\n"),
        )
        .unwrap();
        let order = format!("{result} B 1 1-0\n");
        let mail = t.exchange(ARBITER, "2026-11-04", "result", &order);
        assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{language}");
        assert!(mail[0].body.contains(said), "{}", mail[0].body);
        let chart = chart_of(&t, "B");
        assert_eq!(chart["result"], serde_json::Value::Null);
        // B's own arbiter is obeyed.
        t.letter(cup_arbiter, "2026-11-04", "result", &order);
        t.pass("2026-11-04");
        let chart = chart_of(&t, "B");
        assert_eq!(chart["result"], "1-0", "{language}");
    }
}

/// In a folder, the overstep file and `today` give the
/// order with its tournament (`CONFIRM A 1`), and that line, sent back as
/// written, is carried out.
#[test]
fn the_words_given_for_a_decision_work_in_a_folder() {
    for language in ["en", "ru"] {
        decision_words_in_a_folder(language);
    }
}

fn decision_words_in_a_folder(language: &str) {
    let mut t = federation_in(language);
    opens_a(&mut t);
    t.pass("2026-11-03");
    t.pass("2026-12-26");
    let mail = t.new_mail();
    let file = mail
        .iter()
        .find(|m| m.kind == "overstep-file" && m.subject.contains("[A #1]"))
        .unwrap_or_else(|| {
            let games: Vec<_> = mail
                .iter()
                .map(|m| (&m.kind, &m.game, &m.subject))
                .collect();
            panic!("A's overstep file: {games:?}")
        });
    let line = file
        .body
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with(pick(language, "CONFIRM", "ПОДТВЕРДИТЬ")))
        .expect("a CONFIRM line");
    assert!(
        line.starts_with(pick(language, "CONFIRM A 1 ", "ПОДТВЕРДИТЬ A 1 ")),
        "{line}"
    );
    let today = run_ok(&t, &["today", "--today", "2026-12-27"]).stdout;
    assert!(
        today.contains("(CONFIRM A 1, REJECT A 1, CONTINUE A 1)"),
        "{today}"
    );
    let order = line.split("  ").next().unwrap();
    t.letter(ARBITER, "2026-12-27", "decision", &format!("{order}\n"));
    t.pass("2026-12-27");
    let chart = chart_of(&t, "A");
    assert_eq!(chart["status"], "finished", "{order}");
}

/// An address is one person's across the folder: a
/// newcomer in B may not take the address of A's Black Player, by command
/// or by the chief arbiter's letter.
#[test]
fn a_replacement_never_takes_another_events_players_address() {
    for language in ["en", "ru"] {
        replacement_address_of_the_folder(language);
    }
}

fn replacement_address_of_the_folder(language: &str) {
    let mut t = federation_in(language);
    opens_b(&mut t);
    t.pass("2026-11-03");
    t.new_mail();
    let b = t.path().join("tournaments/b.toml");
    let before = std::fs::read_to_string(&b).unwrap();
    let out = t.run(&[
        "--tournament",
        "B",
        "replace",
        "carol_test.example",
        "--by",
        "Dora D. <black@test.example>",
        "--today",
        "2026-11-04",
    ]);
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains("black@test.example") && out.stderr.contains("Black Player"),
        "{}",
        out.stderr
    );
    let mail = t.exchange(
        ARBITER,
        "2026-11-04",
        "replace",
        "REPLACE B carol_test.example Dora D. <black@test.example>\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    assert!(mail[0].body.contains("Black Player"), "{}", mail[0].body);
    assert_eq!(std::fs::read_to_string(&b).unwrap(), before);
}

/// A reply to a start sheet is its event's letter: its
/// thread, or its subject's tag `[A]`, says which (White Player plays game 1
/// in both A and B).
#[test]
fn a_reply_to_a_start_sheet_is_taken_in_its_event() {
    for language in ["en", "ru"] {
        reply_to_a_start_sheet(language);
    }
}

fn reply_to_a_start_sheet(language: &str) {
    // (subject, with the sheet's thread)
    let sheet_subject = match language {
        "ru" => "стартовый лист",
        _ => "start sheet",
    };
    let table = [
        (format!("Re: [A] {sheet_subject}: Cup A"), true),
        (format!("Re: {sheet_subject}"), true),
        (format!("Re: [A] {sheet_subject}: Cup A"), false),
    ];
    for (subject, threaded) in table {
        let mut t = federation_in(language);
        run_ok(&t, &["start", "--tournament", "A", "--today", "2026-10-25"]);
        let sheets = t.new_mail();
        let sheet = sheets
            .iter()
            .find(|m| m.to == [WHITE])
            .expect("White's sheet");
        assert!(sheet.subject.starts_with("[A] "), "{}", sheet.subject);
        let thread = match threaded {
            true => format!("In-Reply-To: <{}>\r\n", sheet.message_id),
            false => String::new(),
        };
        t.letter_with(
            WHITE,
            "2026-11-03",
            &subject,
            "1. e4\nTime: 2/0\nDates: 03.11.2026\n",
            &thread,
        );
        let out = t.poll("2026-11-03");
        assert_eq!(
            kinds(&t.new_mail()),
            [pair("ack", WHITE), pair("forward", BLACK)],
            "{subject:?} threaded {threaded}: {}",
            out.stdout
        );
        assert_eq!(sans(&t, "A"), ["e4"]);
        assert_eq!(sans(&t, "B"), Vec::<String>::new());
    }
}

/// The director's word is the identification: a letter
/// refused as not saying which event's game 1 is taken by `accept --tournament
/// A --game 1`.
#[test]
fn accept_takes_a_letter_for_the_event_and_game_named() {
    for language in ["en", "ru"] {
        accept_for_the_event_named(language);
    }
}

/// White Player's untagged "Game 1 / 1. e4" of 3 November, refused (game 1
/// is his in A and in B): its key, as `today` lists it.
fn untagged_game_1_refused(t: &mut Tournament) -> String {
    t.letter(
        WHITE,
        "2026-11-03",
        "my move",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-03");
    assert_eq!(kinds(&t.new_mail()), [pair("refused", WHITE)]);
    let today = run_ok(t, &["today", "--today", "2026-11-04", "--json"]).stdout;
    let today: serde_json::Value = serde_json::from_str(&today).unwrap();
    today["changed_nothing"][0]["key"]
        .as_str()
        .unwrap()
        .to_string()
}

fn accept_for_the_event_named(language: &str) {
    let mut t = federation_in(language);
    let key = untagged_game_1_refused(&mut t);
    run_ok(
        &t,
        &[
            "accept",
            &key,
            "--tournament",
            "A",
            "--game",
            "1",
            "--move",
            "1. e4",
            "--today",
            "2026-11-04",
        ],
    );
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert_eq!(sans(&t, "A"), ["e4"]);
    assert_eq!(sans(&t, "B"), Vec::<String>::new());
}

/// A leave is the person's: taken in one event, it stops
/// the clocks of his games in the clerk's other events that grant leave, and
/// his receipt says so with their tags.
#[test]
fn a_leave_covers_the_persons_games_in_every_event() {
    for language in ["en", "ru"] {
        leave_in_every_event(language);
    }
}

fn leave_in_every_event(language: &str) {
    let russian = language == "ru";
    let last_day_in_b = |leave: bool| {
        let mut t = federation_with("\n[rules]\nleave_days_per_year = 12\n");
        for name in ["a.toml", "b.toml"] {
            let file = t.path().join("tournaments").join(name);
            let text = std::fs::read_to_string(&file).unwrap();
            let text = text.replace("language = \"en\"", &format!("language = \"{language}\""));
            std::fs::write(&file, text).unwrap();
        }
        opens_b(&mut t);
        opens_a(&mut t);
        t.pass("2026-11-03");
        t.new_mail();
        if leave {
            t.letter(
                WHITE,
                "2026-11-05",
                "leave",
                match russian {
                    true => "ОТПУСК 10.11.2026 - 20.11.2026\n",
                    false => "LEAVE 10.11.2026 - 20.11.2026\n",
                },
            );
            t.pass("2026-11-05");
            let mail = t.new_mail();
            let receipt = mail.iter().find(|m| m.kind == "leave").expect("receipt");
            let said = match russian {
                true => {
                    "он останавливает и часы ваших партий в других турнирах этого секретаря, где отпуск предоставлен: [B #1]."
                }
                false => {
                    "it also stops the clocks of your games in the clerk's other events that grant it: [B #1]."
                }
            };
            assert!(receipt.body.contains(said), "{}", receipt.body);
            // Both partners are told, each under his event's tag.
            let notices: Vec<_> = mail
                .iter()
                .filter(|m| m.kind == "leave-notice")
                .map(|m| (m.to.clone(), m.subject.clone()))
                .collect();
            assert_eq!(notices.len(), 2, "{notices:?}");
            let (subject, due) = match russian {
                true => (
                    "отпуск партнёра с 10.11.2026 по 20.11.2026",
                    "с учётом отпуска письмо с ходом нужно отправить",
                ),
                false => (
                    "your partner's leave from 2026-11-10 to 2026-11-20",
                    "the letter with the move must be sent by",
                ),
            };
            for (to, tag) in [(BLACK, "[A #1]"), (CAROL, "[B #1]")] {
                let notice = (vec![to.to_string()], format!("{tag} {subject}"));
                assert!(notices.contains(&notice), "{notices:?}");
            }
            let carol = mail.iter().find(|m| m.to == [CAROL]).unwrap();
            assert!(carol.body.contains(due), "{}", carol.body);
            let notes = chart_of(&t, "B")["notes"].to_string();
            let noted = if russian { "отпуск" } else { "leave" };
            assert!(notes.contains(noted), "{notes}");
        }
        let games = run_ok(
            &t,
            &[
                "games",
                "--json",
                "--tournament",
                "B",
                "--today",
                "2026-11-05",
            ],
        );
        let games: serde_json::Value = serde_json::from_str(&games.stdout).unwrap();
        let day = games[0]["last_day"].as_str().unwrap().to_string();
        chrono::NaiveDate::parse_from_str(&day, "%Y-%m-%d").unwrap()
    };
    let (without, with) = (last_day_in_b(false), last_day_in_b(true));
    assert_eq!((with - without).num_days(), 11, "{without} -> {with}");
}

/// The same folder with both events' letters in `language`.
fn federation_in(language: &str) -> Tournament {
    let t = federation();
    for name in ["a.toml", "b.toml"] {
        let file = t.path().join("tournaments").join(name);
        let text = std::fs::read_to_string(&file).unwrap();
        let text = text.replace("language = \"en\"", &format!("language = \"{language}\""));
        std::fs::write(&file, text).unwrap();
    }
    t
}

/// White Player's illegal reply to Carol's 1. d4 in B, refused (to him
/// alone) on 5 November: its key, as `today` lists it.
fn refused_reply_in_b(t: &mut Tournament) -> String {
    t.letter(
        WHITE,
        "2026-11-05",
        "Re: [B #1] 1. d4",
        "1... Ke2\nTime: 2/2\nDates: 03.11.2026, 03.11.2026, 05.11.2026\n",
    );
    t.pass("2026-11-05");
    assert_eq!(kinds(&t.new_mail()), [pair("refused", WHITE)]);
    let today = run_ok(t, &["today", "--today", "2026-11-06", "--json"]).stdout;
    let today: serde_json::Value = serde_json::from_str(&today).unwrap();
    today["changed_nothing"][0]["key"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The chief arbiter's `ACCEPT KEY` by mail needs no
/// tournament in a folder (the key names one letter, and so one event),
/// and a refusal for want of one gives the same order with the id in it,
/// which, sent back as written, is carried out.
#[test]
fn an_order_by_mail_in_a_folder_is_carried_out_as_advised() {
    for (language, accept, result) in [("en", "ACCEPT", "RESULT"), ("ru", "ПРИНЯТЬ", "РЕЗУЛЬТАТ")]
    {
        let mut t = federation_in(language);
        opens_b(&mut t);
        t.pass("2026-11-03");
        t.new_mail();
        let key = refused_reply_in_b(&mut t);
        t.letter(
            ARBITER,
            "2026-11-06",
            "accept",
            &format!("{accept} {key} 1... d5\n"),
        );
        let out = t.poll("2026-11-06");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [
                pair("ack", WHITE),
                pair("forward", CAROL),
                pair("order-done", ARBITER)
            ],
            "{language}: {}",
            out.stdout
        );
        assert_eq!(sans(&t, "B"), ["d4", "d5"], "{language}");
        assert_eq!(sans(&t, "A"), Vec::<String>::new(), "{language}");

        // A result without its event: refused, with the order rewritten.
        let mail = t.exchange(
            ARBITER,
            "2026-11-07",
            "result",
            &format!("{result} 1 1-0\n"),
        );
        assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{language}");
        let advised = format!("{result} A 1 1-0");
        assert!(
            mail[0].body.contains(&advised),
            "{language}: {}",
            mail[0].body
        );
        t.letter(ARBITER, "2026-11-07", "result", &format!("{advised}\n"));
        t.pass("2026-11-07");
        assert_eq!(chart_of(&t, "A")["result"], "1-0", "{language}");
        assert_eq!(chart_of(&t, "B")["result"], serde_json::Value::Null);
    }
}

/// An `ACCEPT KEY` of a letter of an event with a chief
/// arbiter of its own, from another event's arbiter, is refused as not his.
#[test]
fn accept_of_another_events_letter_is_not_their_arbiters() {
    let mut t = federation();
    let cup_arbiter = "cup.arbiter@test.example";
    let b = t.path().join("tournaments/b.toml");
    let text = std::fs::read_to_string(&b).unwrap();
    std::fs::write(
        &b,
        format!("{text}\n[arbiters]\nchief_arbiter = \"{cup_arbiter}\"\n"),
    )
    .unwrap();
    opens_b(&mut t);
    t.pass("2026-11-03");
    t.new_mail();
    let key = refused_reply_in_b(&mut t);
    let mail = t.exchange(
        ARBITER,
        "2026-11-06",
        "accept",
        &format!("ACCEPT {key} 1... d5\n"),
    );
    assert_eq!(kinds(&mail), [pair("refused", ARBITER)]);
    assert!(
        mail[0]
            .body
            .contains("you are not the chief arbiter of tournament B"),
        "{}",
        mail[0].body
    );
    t.letter(
        cup_arbiter,
        "2026-11-06",
        "accept",
        &format!("ACCEPT {key} 1... d5\n"),
    );
    t.pass("2026-11-06");
    assert_eq!(sans(&t, "B"), ["d4", "d5"]);
}

/// A letter of a player of both events that neither
/// its tag, nor its thread, nor its game places is answered in its own
/// language, under no event's tag or name, with his games by their tags;
/// its advice, followed, gets the letter taken, and a reply to the answer
/// that still does not say which event is asked about again.
#[test]
fn an_unplaced_letter_is_answered_in_its_language_by_no_event() {
    // White Player plays game 1 in both, White in A; one event is Russian,
    // the other English, and the letter in the language of A.
    let table = [
        (
            "a.toml",
            "мой ход",
            "Партия 1\n1. e4\nВремя: 2/0\nДаты: 03.11.2026\n",
            "Секретарь турниров",
            "например [A #1]",
        ),
        (
            "b.toml",
            "my move",
            "Game 1\n1. e4\nTime: 2/0\nDates: 03.11.2026\n",
            "The tournament clerk",
            "as in [A #1]",
        ),
    ];
    for (russian, subject, body, signed, advice) in table {
        let mut t = federation();
        let file = t.path().join("tournaments").join(russian);
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(
            &file,
            text.replace("language = \"en\"", "language = \"ru\""),
        )
        .unwrap();
        let mail = t.exchange(WHITE, "2026-11-03", subject, body);
        assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{subject}");
        let answer = &mail[0];
        assert!(!answer.subject.contains('['), "{}", answer.subject);
        assert!(answer.body.trim_end().ends_with(signed), "{}", answer.body);
        assert!(!answer.body.contains("Cup "), "{}", answer.body);
        assert!(answer.body.contains(advice), "{}", answer.body);
        assert!(answer.body.contains("[A #1], [B #1]"), "{}", answer.body);
        if signed.is_ascii() {
            assert!(
                answer.headers.contains("From: \"Tournament clerk\" <"),
                "{}",
                answer.headers
            );
        }
        // A reply to the answer that still names no event is asked again.
        let thread = format!("In-Reply-To: <{}>\r\n", answer.message_id);
        let reply = format!("Re: {}", answer.subject);
        t.letter_with(WHITE, "2026-11-03", &reply, body, &thread);
        t.pass("2026-11-03");
        assert_eq!(kinds(&t.new_mail()), [pair("refused", WHITE)], "{subject}");
        // The advice followed: the tag in the subject.
        let reply = format!("Re: [A #1] {}", answer.subject);
        t.letter_with(WHITE, "2026-11-03", &reply, body, &thread);
        t.pass("2026-11-03");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("ack", WHITE), pair("forward", BLACK)],
            "{subject}"
        );
        assert_eq!(sans(&t, "A"), ["e4"]);
        assert_eq!(sans(&t, "B"), Vec::<String>::new());
    }
}

/// Every refusal's advice, followed as written, gets the letter
/// taken. White Player plays game 1 in A (White, after 1. e4 e5) and in B
/// (Black, after 1. d4); his `2. Nf3` without tag or thread is refused,
/// and each way its answer and the arbiter's advise is followed.
#[test]
fn every_refusals_advice_followed_gets_the_letter_taken() {
    let second = "Game 1\n2. Nf3\nTime: 3/2\nDates: 05.11.2026, 05.11.2026, 06.11.2026\n";
    // (the advice, the subject and headers of the letter that follows it)
    type Follow = fn(&crate::support::Sent, &crate::support::Sent) -> (String, String);
    let table: [(&str, Follow); 3] = [
        ("as in [A #1]", |_, _| {
            ("Re: [A #1] my move".into(), String::new())
        }),
        (
            "or reply to the clerk's last message of that game",
            |_, forward| {
                let thread = format!("In-Reply-To: <{}>\r\n", forward.message_id);
                (format!("Re: {}", forward.subject), thread)
            },
        ),
        // The refusal's own words: a reply to it with the tag it names.
        ("as in [A #1]", |refusal, _| {
            let thread = format!("In-Reply-To: <{}>\r\n", refusal.message_id);
            (format!("Re: [A #1] {}", refusal.subject), thread)
        }),
    ];
    for (advice, follow) in table {
        let mut t = federation();
        opens_a(&mut t);
        opens_b(&mut t);
        t.pass("2026-11-03");
        t.letter(
            BLACK,
            "2026-11-05",
            "Re: [A #1] 1. e4",
            "1... e5\nTime: 2/2\nDates: 03.11.2026, 03.11.2026, 05.11.2026\n",
        );
        t.pass("2026-11-05");
        let mail = t.new_mail();
        let forward = mail
            .iter()
            .rfind(|m| m.kind == "forward" && m.to == [WHITE])
            .expect("the forward of 1... e5")
            .clone();
        let mail = t.exchange(WHITE, "2026-11-06", "my move", second);
        assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{advice}");
        let refusal = mail[0].clone();
        assert!(refusal.body.contains(advice), "{advice}\n{}", refusal.body);
        let (subject, headers) = follow(&refusal, &forward);
        t.letter_with(WHITE, "2026-11-06", &subject, second, &headers);
        t.pass("2026-11-06");
        assert_eq!(
            kinds(&t.new_mail()),
            [pair("ack", WHITE), pair("forward", BLACK)],
            "{advice}: {subject}"
        );
        assert_eq!(sans(&t, "A"), ["e4", "e5", "Nf3"], "{advice}");
        assert_eq!(sans(&t, "B"), ["d4"], "{advice}");
    }
}

/// Each event's own allowance decides there. B grants
/// five days a year: an eleven-day leave taken in A is refused in B (its
/// clock goes on, Carol is not told), and the receipt says so and why.
#[test]
fn an_event_that_refuses_the_leave_says_why_and_goes_on() {
    let mut t = federation_with("\n[rules]\nleave_days_per_year = 12\n");
    let b = t.path().join("tournaments/b.toml");
    let text = std::fs::read_to_string(&b).unwrap();
    std::fs::write(&b, format!("{text}\n[rules]\nleave_days_per_year = 5\n")).unwrap();
    opens_b(&mut t);
    opens_a(&mut t);
    t.pass("2026-11-03");
    t.new_mail();
    let last_day = |t: &Tournament| {
        let games = run_ok(
            t,
            &[
                "games",
                "--json",
                "--tournament",
                "B",
                "--today",
                "2026-11-05",
            ],
        );
        let games: serde_json::Value = serde_json::from_str(&games.stdout).unwrap();
        games[0]["last_day"].as_str().unwrap().to_string()
    };
    let before = last_day(&t);
    let mail = t.exchange(
        WHITE,
        "2026-11-05",
        "leave",
        "LEAVE 10.11.2026 - 20.11.2026\n",
    );
    let receipt = mail.iter().find(|m| m.kind == "leave").expect("receipt");
    receipt.says("B: the leave is not granted there (");
    receipt.says("and your games there go on as before.");
    assert!(!receipt.body.contains("[B #1]"), "{}", receipt.body);
    let told: Vec<_> = mail
        .iter()
        .filter(|m| m.kind == "leave-notice")
        .map(|m| m.to.clone())
        .collect();
    assert_eq!(told, [vec![BLACK.to_string()]]);
    assert_eq!(last_day(&t), before, "B's clock goes on");
}

/// A player's page gives each game's result from his
/// side and his score in each event: White Player wins game 1 of A by the
/// arbiter's result and plays on in B.
#[test]
fn a_players_page_gives_each_result_and_the_score_in_each_event() {
    let mut t = federation_with("\n[report]\nout = \"site\"\n");
    t.letter(
        WHITE,
        "2026-11-03",
        "[A #1] my move",
        "1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    t.letter(
        ARBITER,
        "2026-11-04",
        "[A #1] result",
        "RESULT A 1 1-0 Black resigned by telephone\n",
    );
    t.poll("2026-11-04");
    let page = t.path().join("site/players/white_5ftest_2eexample.html");
    let his = std::fs::read_to_string(page).unwrap();
    for words in [
        "<th>Result</th>",
        "<td class=\"name\">Black Player</td><td>1</td>",
        "<td class=\"name\">Carol</td><td>·</td>",
        "Score in Cup A: 1 of 1 games over",
        "Score in Cup B: 0 of 0 games over",
    ] {
        assert!(his.contains(words), "{words} in:\n{his}");
    }
}

/// A player's letter under the tag of an event where he
/// plays no game goes to his game in his own event; a stranger's under the
/// same tag is still a stranger's.
#[test]
fn a_players_letter_under_another_events_tag_goes_to_his_own_game() {
    for language in ["en", "ru"] {
        let mut t = federation_in(language);
        // Carol plays in B alone; she writes her first move under A's tag.
        t.letter(
            CAROL,
            "2026-11-03",
            "Re: [A #1] my move",
            "Game 1\n1. d4\nTime: 2/0\nDates: 2026-11-03\n",
        );
        let out = t.poll("2026-11-03");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("ack", CAROL), pair("forward", WHITE)],
            "{language}: {}",
            out.stdout
        );
        assert!(mail[1].subject.contains("[B #1]"), "{}", mail[1].subject);
        assert_eq!(sans(&t, "B"), ["d4"], "{language}");
        assert!(sans(&t, "A").is_empty(), "{language}: A is untouched");
        // Somebody known nowhere is ignored under that tag, as before.
        t.letter("nobody@test.example", "2026-11-04", "Re: [A #1]", "1. e4\n");
        t.poll("2026-11-04");
        assert!(t.new_mail().is_empty(), "{language}");
    }
}

/// Routing before reading: a letter is read as the event it is
/// for reads letters, not as the folder's first: B reads slashed dates
/// month first, A day first.
#[test]
fn a_letter_is_read_with_the_settings_of_its_own_event() {
    for (language, in_order) in [("en", "Everything is in order."), ("ru", "Всё в порядке.")]
    {
        let mut t = federation_in(language);
        let b = t.path().join("tournaments/b.toml");
        let text = std::fs::read_to_string(&b).unwrap();
        let text = text.replacen(
            &format!("language = \"{language}\"\n"),
            &format!("language = \"{language}\"\ndate_order = \"mdy\"\n"),
            1,
        );
        std::fs::write(&b, text).unwrap();
        // 11/03/2026 is 3 November in B: the day Carol sent it.
        let file = t.letter(
            CAROL,
            "2026-11-03",
            "[B #1]",
            "Game 1\n1. d4\nTime: 2/0\nDates: 11/03/2026\n",
        );
        // `check` of a folder reads it as the poll will.
        let checked = run_ok(
            &t,
            &["check", file.to_str().unwrap(), "--today", "2026-11-03"],
        );
        assert!(
            checked.stdout.contains("==== ack to carol@test.example"),
            "{}",
            checked.stdout
        );
        assert!(
            !checked.stdout.contains("==== warning"),
            "{}",
            checked.stdout
        );
        t.poll("2026-11-03");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("ack", CAROL), pair("forward", WHITE)],
            "{language}"
        );
        mail[0].says(in_order);
        // And day first in A: 03/11/2026 is 3 November there.
        t.letter(
            WHITE,
            "2026-11-03",
            "[A #1]",
            "Game 1\n1. e4\nTime: 2/0\nDates: 03/11/2026\n",
        );
        t.poll("2026-11-03");
        let mail = t.new_mail();
        assert_eq!(
            kinds(&mail),
            [pair("ack", WHITE), pair("forward", "black@test.example")],
            "{language}"
        );
        mail[0].says(in_order);
    }
}

/// A bare order of the chief arbiter
/// of two events about a game only one of them has is carried out there;
/// one about a game both have is refused, each event's order offered.
#[test]
fn a_bare_order_that_can_mean_one_event_is_carried_out_and_one_that_can_mean_two_is_offered_both() {
    for (language, result, or) in [("en", "RESULT", " or "), ("ru", "РЕЗУЛЬТАТ", " или ")]
    {
        let mut t = federation_in(language);
        let b = t.path().join("tournaments/b.toml");
        let text = std::fs::read_to_string(&b).unwrap();
        std::fs::write(
            &b,
            format!("{text}\n[[games]]\nid = \"2\"\nwhite = \"white_test.example\"\nblack = \"carol_test.example\"\n"),
        )
        .unwrap();
        let mail = t.exchange(
            ARBITER,
            "2026-11-05",
            "result",
            &format!("{result} 2 1-0\n"),
        );
        assert_eq!(
            kinds(&mail),
            [
                pair("result", WHITE),
                pair("result", CAROL),
                pair("order-done", ARBITER)
            ],
            "{language}"
        );
        let chart = run_ok(&t, &["chart", "2", "--format", "json", "--tournament", "B"]);
        let chart: serde_json::Value = serde_json::from_str(&chart.stdout).unwrap();
        assert_eq!(chart["result"], "1-0", "{language}");
        // Game 1 is A's and B's: both offered, neither chosen.
        let mail = t.exchange(
            ARBITER,
            "2026-11-05",
            "result",
            &format!("{result} 1 1-0\n"),
        );
        assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{language}");
        mail[0].says(&format!("{result} A 1 1-0{or}{result} B 1 1-0"));
        assert_eq!(chart_of(&t, "A")["result"], serde_json::Value::Null);
        assert_eq!(chart_of(&t, "B")["result"], serde_json::Value::Null);
    }
}

/// `accept KEY --game N` without `--tournament`, where
/// game N is the writer's in two events, is refused asking which (it was
/// chosen by the letter's language); where it is his in one, taken there.
#[test]
fn accept_with_a_game_of_several_events_asks_which() {
    for language in ["en", "ru"] {
        let mut t = federation_in(language);
        // White Player plays game 1 in A (White) and in B (Black).
        let key = untagged_game_1_refused(&mut t);
        let accept = [
            "accept",
            &key,
            "--game",
            "1",
            "--move",
            "1. e4",
            "--today",
            "2026-11-04",
        ];
        let out = t.run(&accept);
        assert_eq!(out.code, 2, "{language}: {}\n{}", out.stdout, out.stderr);
        assert!(
            out.stderr
                .contains("game 1 is the letter's writer's in A, B; say which with --tournament"),
            "{}",
            out.stderr
        );
        assert!(t.new_mail().is_empty());
        assert!(sans(&t, "A").is_empty() && sans(&t, "B").is_empty());
    }
}

/// A letter refused as "the tournament could not be identified" (game 1 is
/// its writer's in A and in B) is taken by the chief arbiter's `ACCEPT`
/// with the event's id, as his refusal of a bare `ACCEPT KEY` offers; and
/// `today`'s command for it works as written.
#[test]
fn a_letter_of_no_identified_tournament_is_accepted_as_offered() {
    for (language, accept, or) in [("en", "ACCEPT", " or "), ("ru", "ПРИНЯТЬ", " или ")] {
        let mut t = federation_in(language);
        let key = untagged_game_1_refused(&mut t);
        let mail = t.exchange(
            ARBITER,
            "2026-11-04",
            "accept",
            &format!("{accept} {key}\n"),
        );
        assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{language}");
        let offered = format!("{accept} A {key}{or}{accept} B {key}");
        mail[0].says(&offered);
        let mail = t.exchange(
            ARBITER,
            "2026-11-04",
            "accept",
            &format!("{accept} A {key}\n"),
        );
        assert_eq!(
            kinds(&mail),
            [
                pair("ack", WHITE),
                pair("forward", BLACK),
                pair("order-done", ARBITER)
            ],
            "{language}"
        );
        assert_eq!(sans(&t, "A"), ["e4"]);
        assert!(sans(&t, "B").is_empty());
        // The director's command, as `today` gives it.
        let mut t = federation_in(language);
        let key = untagged_game_1_refused(&mut t);
        let today = run_ok(&t, &["today", "--today", "2026-11-04"]).stdout;
        let line = today.lines().find(|l| l.contains(&key)).unwrap();
        let first = format!("shtempel accept {key} --tournament A");
        assert!(
            line.contains(&format!(
                "({first}, or shtempel accept {key} --tournament B takes it as the clerk read it"
            )),
            "{line}"
        );
        let mut args: Vec<&str> = first.split_whitespace().skip(1).collect();
        args.extend(["--today", "2026-11-04"]);
        run_ok(&t, &args);
        assert_eq!(
            kinds(&t.new_mail()),
            [pair("ack", WHITE), pair("forward", BLACK)]
        );
        assert_eq!(sans(&t, "A"), ["e4"]);
    }
}

/// An order naming no event, from the chief arbiter of two (A in English,
/// B in Russian) with a game 1 in each, is answered in the order's
/// language, by the clerk rather than an event, offering only his events'
/// orders (C, another arbiter's, is not his to name).
#[test]
fn an_unplaced_order_is_answered_in_its_language_by_the_clerk_with_his_events_only() {
    for (language, result, signed) in [
        ("en", "RESULT", "The tournament clerk"),
        ("ru", "РЕЗУЛЬТАТ", "Секретарь турниров"),
    ] {
        let mut t = federation();
        let folder = t.path().join("tournaments");
        let b = folder.join("b.toml");
        let text = std::fs::read_to_string(&b).unwrap();
        std::fs::write(&b, text.replace("language = \"en\"", "language = \"ru\"")).unwrap();
        let c = event(
            "C",
            ("dora_test.example", "Dora"),
            ("eve_test.example", "Eve"),
        );
        std::fs::write(
            folder.join("c.toml"),
            format!("{c}\n[arbiters]\nchief_arbiter = \"other.arbiter@test.example\"\n"),
        )
        .unwrap();
        let mail = t.exchange(
            ARBITER,
            "2026-11-04",
            "result",
            &format!("{result} 1 1-0\n"),
        );
        assert_eq!(kinds(&mail), [pair("refused", ARBITER)], "{language}");
        let answer = &mail[0];
        answer.says(signed);
        assert!(!answer.subject.starts_with('['), "{}", answer.subject);
        let or = if language == "ru" { " или " } else { " or " };
        answer.says(&format!("{result} A 1 1-0{or}{result} B 1 1-0"));
        assert!(
            !answer.body.contains("C 1 1-0") && !answer.body.contains("A, B, C"),
            "{}",
            answer.body
        );
    }
}

#[test]
fn doctor_in_a_folder_names_the_clerks_file_not_its_first_events() {
    let t = federation();
    let out = t.run(&["doctor"]);
    let line = out
        .stdout
        .lines()
        .find(|line| line.contains("config"))
        .unwrap_or_else(|| panic!("{}", out.stdout));
    assert!(
        line.contains("shtempel.toml: 2 tournament(s) (A, B)"),
        "{line}"
    );
    assert!(!line.contains("a.toml"), "{line}");
}

/// The chief arbiter's letter with no order in it, to a clerk of several
/// tournaments: the help names the orders in the tournament's language and
/// in the form a folder takes (with the tournament's id).
#[test]
fn the_help_for_a_letter_without_an_order_fits_the_folder_and_its_language() {
    for language in ["en", "ru"] {
        let mut t = federation_in(language);
        let mail = t.exchange(ARBITER, "2026-11-05", "A question", "How are the games?\n");
        let answer = mail
            .iter()
            .find(|m| m.to == [ARBITER])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        answer.says(pick(
            language,
            "as in CONFIRM A N or RESULT A N 1-0",
            "например ПОДТВЕРДИТЬ A N или РЕЗУЛЬТАТ A N 1-0",
        ));
        if language == "ru" {
            for english in ["CONFIRM", "REJECT", "CONTINUE", "RESULT"] {
                answer.never_says(english);
            }
        }
    }
}

/// A player replaced in one event who answers its letter (its tag, or
/// its thread) before he hears of it: nothing changes anywhere, his
/// same-numbered game of the other event included, and he is told, in the
/// event's language, that he plays there no more.
#[test]
fn a_replaced_players_letter_to_the_event_he_left_changes_nothing_anywhere() {
    for language in ["en", "ru"] {
        replaced_players_letter(language);
    }
}

fn replaced_players_letter(language: &str) {
    let mut t = federation_in(language);
    opens_b(&mut t);
    t.pass("2026-11-03");
    t.new_mail();
    run_ok(
        &t,
        &[
            "--tournament",
            "A",
            "replace",
            "white_test.example",
            "--by",
            "Dora D. <dora@test.example>",
            "--today",
            "2026-11-04",
        ],
    );
    t.new_mail();
    // In A he was White; in B, Black to move after Carol's 1. d4.
    t.letter(
        WHITE,
        "2026-11-05",
        "Re: [A #1] start",
        "Game 1\n1... d5\nTime: 0/2\nDates: 2026-11-03 2026-11-04 2026-11-05\n",
    );
    t.pass("2026-11-05");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("refused", WHITE)], "{mail:#?}");
    let said = match language {
        "ru" => "заменены",
        _ => "replaced",
    };
    assert!(mail[0].body.contains(said), "{}", mail[0].body);
    assert!(mail[0].body.contains("Cup A"), "{}", mail[0].body);
    assert_eq!(sans(&t, "B"), ["d4"]);
    assert_eq!(sans(&t, "A"), Vec::<String>::new());
}

/// A refused letter read in one event of a folder (its tag named it) is
/// offered to `accept` in that event alone, though its writer plays game
/// 1 in another too.
#[test]
fn todays_accept_names_the_event_the_letter_was_read_in() {
    let mut t = federation();
    t.letter(
        WHITE,
        "2026-11-03",
        "[A #1]",
        "Game 1\n1. Ke3\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-03");
    assert_eq!(kinds(&t.new_mail()), [pair("refused", WHITE)]);
    let today = t.run(&["today", "--today", "2026-11-04"]).stdout;
    let line = today
        .lines()
        .find(|line| line.contains("from white@test.example"))
        .unwrap_or_else(|| panic!("{today}"));
    assert!(
        line.contains("--tournament A") && !line.contains("--tournament B"),
        "{line}"
    );
}

/// The "which event?" refusal's example is a tag of the game he wrote.
#[test]
fn which_event_is_asked_with_a_tag_of_the_game_he_wrote() {
    let t = federation();
    let folder = t.path().join("tournaments");
    let add = |name: &str, lines: &str| {
        let file = folder.join(name);
        let text = std::fs::read_to_string(&file).unwrap();
        std::fs::write(&file, text + lines).unwrap();
    };
    // Game 2 of his in both: Black against him in A, Dan against him in B.
    add(
        "a.toml",
        "\n[[games]]\nid = \"2\"\nwhite = \"black_test.example\"\nblack = \"white_test.example\"\n",
    );
    add(
        "b.toml",
        "\n[[players]]\nid = \"dan\"\nname = \"Dan\"\nemail = \"dan@test.example\"\n\n\
         [[games]]\nid = \"2\"\nwhite = \"dan\"\nblack = \"white_test.example\"\n",
    );
    let mut t = t;
    let mail = t.exchange(WHITE, "2026-11-05", "my move", "Game 2\n1... e5\n");
    assert_eq!(kinds(&mail), [pair("refused", WHITE)]);
    mail[0].says("as in [A #2]");
}

/// An untagged leave letter of a person in two events, one of which grants
/// no leave: the receipt leads with what was granted and where, then says
/// in its own paragraph where it was not and why, with no bracket inside
/// another.
#[test]
fn a_leave_granted_in_one_event_of_two_is_told_granted_first() {
    for language in ["en", "ru"] {
        let t = federation_in(language);
        let b = t.path().join("tournaments/b.toml");
        let text = std::fs::read_to_string(&b).unwrap();
        let with_leave = text.replacen(
            "\n\n[[players]]",
            "\n\n[rules]\nleave_days_per_year = 30\n\n[[players]]",
            1,
        );
        std::fs::write(&b, with_leave).unwrap();
        let mut t = t;
        let line = pick(
            language,
            "LEAVE 10.11.2026 - 14.11.2026\n",
            "ОТПУСК 10.11.2026 - 14.11.2026\n",
        );
        let mail = t.exchange(WHITE, "2026-11-05", "leave", line);
        let receipt = mail
            .iter()
            .find(|m| m.kind == "leave" && m.to == [WHITE])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        let body = receipt.body.replace("\r\n", "\n");
        let granted = pick(language, "is recorded in B", "учтён в турнирах: B");
        let refused = pick(
            language,
            "A: the leave is not granted there: ",
            "A: там отпуск не предоставлен: ",
        );
        let (at_granted, at_refused) = (body.find(granted), body.find(refused));
        assert!(
            at_granted.is_some() && at_refused.is_some() && at_granted < at_refused,
            "{language}: {body}"
        );
        assert!(!body.contains("))"), "{body}");
        // Under the tag and name of the event that granted it.
        assert!(receipt.subject.starts_with("[B] "), "{}", receipt.subject);
        assert!(receipt.message_id.contains(".b@"), "{}", receipt.message_id);
        assert!(
            mail.iter()
                .any(|m| m.kind == "leave-notice" && m.to == [CAROL]),
            "{language}: {:?}",
            kinds(&mail)
        );
    }
}

/// A person's page of a folder is in his language: the one he chose by
/// mail, else his first event's.
#[test]
fn a_persons_page_is_in_the_language_he_chose() {
    let mut t = federation_with("\n[report]\nout = \"site\"\n");
    let page = t.path().join("site/players/white_5ftest_2eexample.html");
    t.poll("2026-11-03");
    let his = std::fs::read_to_string(&page).unwrap();
    assert!(his.contains("<th>Result</th>"), "{his}");
    t.letter(WHITE, "2026-11-04", "language", "ЯЗЫК RU\n");
    t.poll("2026-11-04");
    let his = std::fs::read_to_string(&page).unwrap();
    assert!(his.contains("<th>Результат</th>"), "{his}");
    // Carol's page is of one event, none is made; the index stays the
    // folder's language.
    let index = std::fs::read_to_string(t.path().join("site/index.html")).unwrap();
    assert!(!index.contains("Результат"), "{index}");
}

/// A Cyrillic event's id is its id in any case, as an ASCII one's is:
/// in a subject's tag, an arbiter's order, STATUS and `--tournament`;
/// its report folder is the id in Latin letters.
#[test]
fn a_cyrillic_events_id_is_taken_in_any_case() {
    let mut t = federation_of(["КР-А", "B"], "\n[report]\nout = \"site\"\n");
    // Tagged by hand in lower case: White's move is A's, not B's.
    t.letter(
        WHITE,
        "2026-11-03",
        "[кр-а #1] ход",
        "1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.poll("2026-11-03");
    assert_eq!(sans(&t, "кр-а"), ["e4"]);
    assert!(sans(&t, "B").is_empty());
    let index = std::fs::read_to_string(t.path().join("site/index.html")).unwrap();
    assert!(index.contains("href=\"kr-a/index.html\""), "{index}");
    assert!(t.path().join("site/kr-a/index.html").exists());
    // STATUS of the event named in lower case answers of that event alone.
    let mail = t.exchange(WHITE, "2026-11-04", "status", "STATUS кр-а\n");
    let answer = mail.iter().find(|m| m.kind == "status").unwrap();
    answer.says("Cup КР-А");
    answer.never_says("Cup B");
    // Black is silent past 50 days; the arbiter names the event in lower case.
    t.pass("2026-12-26");
    t.new_mail();
    t.letter(ARBITER, "2026-12-27", "decision", "CONFIRM кр-а 1\n");
    let out = t.poll("2026-12-27");
    let chart = chart_of(&t, "КР-А");
    assert_eq!(chart["status"], "finished", "{}", out.stdout);
}

/// The database failing while a letter is routed stops the run, as it does
/// while a letter is planned: the letter stays new and is routed once the
/// database is mended, never sent to the event its sender alone would pick.
/// (A reply to A's start sheet, untagged, is placed by the outbox's record
/// of the sheet; its column gone, the lookup fails.)
#[test]
fn a_database_error_while_routing_stops_the_run() {
    let mut t = federation();
    run_ok(&t, &["start", "--tournament", "A", "--today", "2026-10-25"]);
    let sheets = t.new_mail();
    let sheet = sheets.iter().find(|m| m.to == [WHITE]).unwrap();
    let thread = format!("In-Reply-To: <{}>\r\n", sheet.message_id);
    let db = t.path().join("db.sqlite");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("ALTER TABLE outbox RENAME COLUMN accepted_on TO accepted_gone")
        .unwrap();
    t.letter_with(
        WHITE,
        "2026-11-03",
        "Re: start sheet",
        "1. e4\nTime: 2/0\nDates: 03.11.2026\n",
        &thread,
    );
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_ne!(out.code, 0, "{}", out.stdout);
    assert!(out.stderr.contains("accepted_on"), "{}", out.stderr);
    assert!(t.new_mail().is_empty(), "nothing sent");
    let new = std::fs::read_dir(t.path().join("inbox/new"))
        .unwrap()
        .count();
    assert_eq!(new, 1, "the letter stays new");
    conn.execute_batch("ALTER TABLE outbox RENAME COLUMN accepted_gone TO accepted_on")
        .unwrap();
    t.poll("2026-11-03");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
    assert_eq!(sans(&t, "A"), ["e4"]);
}

/// `check` shows what `poll` sends for a leave: the notices to his
/// partners in his other events too, planned by their clerks.
#[test]
fn check_shows_a_leaves_notices_in_the_persons_other_events() {
    let mut t = federation_with("\n[rules]\nleave_days_per_year = 12\n");
    opens_b(&mut t);
    opens_a(&mut t);
    t.pass("2026-11-03");
    t.new_mail();
    let file = t.letter(
        WHITE,
        "2026-11-05",
        "leave",
        "LEAVE 10.11.2026 - 20.11.2026\n",
    );
    let checked = run_ok(
        &t,
        &["check", file.to_str().unwrap(), "--today", "2026-11-05"],
    );
    let shown: Vec<&str> = checked
        .stdout
        .lines()
        .filter(|line| line.starts_with("==== "))
        .collect();
    t.pass("2026-11-05");
    let sent: Vec<String> = t
        .new_mail()
        .iter()
        .map(|m| {
            let readers: Vec<&str> = m.to.iter().chain(&m.cc).map(String::as_str).collect();
            format!("==== {} to {} ====", m.kind, readers.join(", "))
        })
        .collect();
    assert!(
        shown.contains(&"==== leave-notice to carol@test.example ===="),
        "{}",
        checked.stdout
    );
    let mut shown: Vec<String> = shown.iter().map(|line| line.to_string()).collect();
    let mut sent = sent;
    shown.sort();
    sent.sort();
    assert_eq!(shown, sent, "check shows what the poll sends");
}

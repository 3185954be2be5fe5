//! The report site in a real browser (headless Chromium: Debian's `chromium`,
//! which `.ci/run` installs) and the PGN read back as chess GUIs read it
//! (pgn-reader, on shakmaty). The tournament is the demo's, played to its end.
//!
//! Without Chromium the browser test says it is skipped, unless
//! `SHTEMPEL_REQUIRE_CHROMIUM` is set (CI), where it fails.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::Command;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use serde_json::Value;
use shakmaty::{Chess, Position};

fn shtempel(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "shtempel {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The demo tournament, played, in a temporary folder.
fn demo() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("demo");
    shtempel(&["demo", "--keep", path.to_str().unwrap()]);
    let config = path.join("shtempel.toml").to_string_lossy().into_owned();
    (dir, config)
}

fn chart(config: &str, game: &str) -> Value {
    serde_json::from_str(&shtempel(&[
        "--config", config, "chart", game, "--format", "json",
    ]))
    .unwrap()
}

fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| {
            std::env::var_os("PATH")
                .map(|paths| {
                    std::env::split_paths(&paths)
                        .map(|d| d.join(name))
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default()
        })
        .find(|path| path.is_file());
    if found.is_none() {
        assert!(
            std::env::var_os("SHTEMPEL_REQUIRE_CHROMIUM").is_none(),
            "Chromium is required here (SHTEMPEL_REQUIRE_CHROMIUM) and was not found"
        );
        eprintln!("skipped: no chromium on PATH (apt-get install chromium)");
    }
    found
}

/// Runs headless Chromium on a page with the flags a closed machine needs.
fn browse(chromium: &Path, profile: &Path, args: &[&str], page: &Path) -> Vec<u8> {
    let out = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "chromium: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn the_report_shows_players_results_and_totals_in_a_real_browser() {
    let (dir, config) = demo();
    let site = dir.path().join("site");
    let said = shtempel(&[
        "--config",
        &config,
        "report",
        "--out",
        site.to_str().unwrap(),
        "--today",
        "2027-01-15",
    ]);
    assert!(said.contains("files written"), "{said}");
    let Some(chromium) = chromium() else {
        return;
    };
    let profile = dir.path().join("profile");
    let dom = String::from_utf8(browse(
        &chromium,
        &profile,
        &["--dump-dom"],
        &site.join("index.html"),
    ))
    .unwrap();
    assert!(dom.contains("<h1>Demo cup 2026</h1>"), "{dom}");
    // The cross-table: Petrov won game 1 and drew game 2, and leads:
    // Sonneborn-Berger ¾ (Ivanov's ½ for the win, half of it for the
    // draw), one win, first place.
    assert!(
        dom.contains(r#"<tr data-player="petrov"><td>1</td><td class="name">Petrov Petr</td><td class="self"></td><td>1 ½</td><td class="score">1½</td><td class="tie-break">¾</td><td class="tie-break">1</td><td class="place">1</td></tr>"#),
        "{dom}"
    );
    assert!(
        dom.contains(r#"<th>Score</th><th>SB</th><th>Wins</th><th>Place</th>"#),
        "{dom}"
    );
    assert!(
        dom.contains(r#"<td class="score">½</td>"#),
        "Ivanov's half point"
    );
    // The games list holds each game's result and the clerk's own totals.
    for (game, result) in [("1", "0–1"), ("2", "½–½")] {
        let totals = chart(&config, game)["totals"].clone();
        let row = dom
            .split(&format!(r#"<tr id="game-{game}""#))
            .nth(1)
            .and_then(|rest| rest.split("</tr>").next())
            .unwrap_or_else(|| panic!("no row for game {game}: {dom}"));
        assert!(
            row.contains(&format!(r#"<td class="result">{result}</td>"#)),
            "{row}"
        );
        assert!(
            row.contains(&format!(
                r#"<td class="totals">{}/{}</td>"#,
                totals["white"], totals["black"]
            )),
            "{row}"
        );
    }

    // A game page: the moves, a chart row per move, the plot.
    let page = String::from_utf8(browse(
        &chromium,
        &profile,
        &["--dump-dom"],
        &site.join("game-2.html"),
    ))
    .unwrap();
    let moves = chart(&config, "2")["moves"].as_array().unwrap().len();
    let table = page.split(r#"<table id="chart">"#).nth(1).unwrap();
    let table = table.split("</table>").next().unwrap();
    assert_eq!(table.matches("<tr>").count(), moves + 1, "a row per move");
    assert!(page.contains(r#"<img class="plot" src="game-2.svg""#));
    let svg = std::fs::read_to_string(site.join("game-2.svg")).unwrap();
    assert!(svg.contains("Game 2: Petrov Petr v Ivanov Ivan, time used"));

    // Screenshots, kept as artefacts of the test run.
    let artefacts = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (page, name) in [
        ("index.html", "report-index.png"),
        ("game-1.html", "report-game-1.png"),
    ] {
        let shot = artefacts.join(name);
        let _ = std::fs::remove_file(&shot);
        browse(
            &chromium,
            &profile,
            &[
                &format!("--screenshot={}", shot.display()),
                "--window-size=1100,900",
            ],
            &site.join(page),
        );
        let png = std::fs::read(&shot).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{name} is a PNG");
        assert!(
            png.len() > 10_000,
            "{name}: {} bytes, a blank page?",
            png.len()
        );
        eprintln!("screenshot: {}", shot.display());
    }
}

/// Collects what a chess GUI would: tags, moves played on a real board,
/// comments and the result.
#[derive(Default)]
struct Collected {
    tags: Vec<(String, String)>,
    sans: Vec<String>,
    comments: Vec<String>,
    outcome: Option<String>,
    position: Chess,
}

impl Visitor for Collected {
    type Tags = ();
    type Movetext = ();
    type Output = Result<Collected, String>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        *self = Collected::default();
        ControlFlow::Continue(())
    }

    fn tag(&mut self, _: &mut (), name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        self.tags.push((
            String::from_utf8_lossy(name).into_owned(),
            value.decode_utf8_lossy().into_owned(),
        ));
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, _: ()) -> ControlFlow<Self::Output, ()> {
        ControlFlow::Continue(())
    }

    fn san(&mut self, _: &mut (), san_plus: SanPlus) -> ControlFlow<Self::Output> {
        match san_plus.san.to_move(&self.position) {
            Ok(mv) => {
                self.sans.push(san_plus.san.to_string());
                self.position.play_unchecked(mv);
                ControlFlow::Continue(())
            }
            Err(e) => ControlFlow::Break(Err(format!("{san_plus}: {e}"))),
        }
    }

    fn comment(&mut self, _: &mut (), comment: RawComment<'_>) -> ControlFlow<Self::Output> {
        self.comments.push(
            String::from_utf8_lossy(comment.as_bytes())
                .trim()
                .to_string(),
        );
        ControlFlow::Continue(())
    }

    fn begin_variation(&mut self, _: &mut ()) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(&mut self, _: &mut (), outcome: Outcome) -> ControlFlow<Self::Output> {
        self.outcome = Some(outcome.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, _: ()) -> Self::Output {
        Ok(std::mem::take(self))
    }
}

#[test]
fn pgn_of_every_game_reads_back_in_a_pgn_reader() {
    let (_dir, config) = demo();
    let pgn = shtempel(&["--config", &config, "pgn", "--all"]);
    let mut reader = Reader::new(std::io::Cursor::new(pgn.as_bytes()));
    let mut visitor = Collected::default();
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor).unwrap() {
        games.push(game.unwrap());
    }
    assert_eq!(games.len(), 2, "{pgn}");
    for (game, (id, result)) in games.iter().zip([("1", "0-1"), ("2", "1/2-1/2")]) {
        let tag = |name: &str| {
            game.tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
                .unwrap_or_else(|| panic!("no {name} tag: {pgn}"))
        };
        for name in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
            tag(name);
        }
        assert_eq!(tag("Round"), id);
        assert_eq!(tag("Result"), result);
        assert_eq!(game.outcome.as_deref(), Some(result));
        assert_eq!(tag("TimeControl"), "50 days / 10 moves");
        // One of the standard's words (8.1.1).
        let standard = [
            "abandoned",
            "adjudication",
            "death",
            "emergency",
            "normal",
            "rules infraction",
            "time forfeit",
            "unterminated",
        ];
        assert!(standard.contains(&tag("Termination").as_str()), "{pgn}");
        let chart = chart(&config, id);
        let moves = chart["moves"].as_array().unwrap();
        let sans: Vec<&str> = moves.iter().map(|m| m["san"].as_str().unwrap()).collect();
        assert_eq!(
            game.sans, sans,
            "game {id}: the moves as the clerk has them"
        );
        assert_eq!(game.comments.len(), moves.len(), "a comment per move");
        for (comment, row) in game.comments.iter().zip(moves) {
            let sent = row["sent_on"].as_str().unwrap();
            let days = &row["days"];
            assert!(
                comment.starts_with(&format!("sent {sent}, received ")),
                "{comment}"
            );
            let unit = if days == 1 { "day" } else { "days" };
            assert!(comment.contains(&format!(", {days} {unit}")), "{comment}");
        }
    }
}

/// The real game of `../shared/realgames/games.pgn` the board test plays
/// (chess.com daily 42375125: both castlings, captures, a promotion with
/// check), its moves in SAN.
fn real_game() -> Option<Vec<String>> {
    let dir = crate::support::shared_dir("realgames")?;
    let text = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    let blocks: Vec<&str> = text.split("\n\n").collect();
    let at = blocks
        .iter()
        .position(|block| block.contains("daily/game/42375125\""))
        .expect("the game in games.pgn");
    Some(
        blocks[at + 1]
            .split_whitespace()
            .filter(|w| !w.ends_with('.') && !["1-0", "0-1", "1/2-1/2", "*"].contains(w))
            .map(str::to_string)
            .collect(),
    )
}

/// The placement field of the FEN of each position of `sans` (the start
/// first), and the squares of the move that led to it, by shakmaty.
fn positions_of(sans: &[String]) -> Vec<(String, Vec<String>)> {
    let mut position = Chess::default();
    let placement = |p: &Chess| {
        shakmaty::fen::Fen::from_position(p, shakmaty::EnPassantMode::Legal)
            .to_string()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let mut out = vec![(placement(&position), Vec::new())];
    for san in sans {
        let mv = san
            .parse::<shakmaty::san::SanPlus>()
            .unwrap()
            .san
            .to_move(&position)
            .unwrap();
        let mut squares = match mv {
            shakmaty::Move::Castle { king, rook } => {
                let file = if rook.file() > king.file() { "g" } else { "c" };
                vec![king.to_string(), format!("{file}{}", king.rank().char())]
            }
            _ => vec![mv.from().unwrap().to_string(), mv.to().to_string()],
        };
        squares.sort();
        position.play_unchecked(mv);
        out.push((placement(&position), squares));
    }
    out
}

/// The page that drives a game page in a frame as a player would: the
/// buttons clicked, each move of the list clicked, the keys pressed; what
/// the board shows after each written into `#out` as JSON.
const DRIVER: &str = r##"<!DOCTYPE html>
<html><body><pre id="out">not run</pre>
<iframe id="game" src="game-1.html" width="1100" height="900"></iframe>
<script>
document.getElementById("game").onload = function () {
  var doc = this.contentDocument;
  function board() {
    var rows = [];
    for (var rank = 8; rank >= 1; rank--) {
      var row = "", empty = 0;
      for (var f = 0; f < 8; f++) {
        var piece = doc.querySelector('[data-square="' + "abcdefgh".charAt(f) + rank + '"]').getAttribute("data-piece");
        if (!piece) { empty++; continue; }
        if (empty) { row += empty; empty = 0; }
        row += piece;
      }
      if (empty) row += empty;
      rows.push(row);
    }
    return rows.join("/");
  }
  function marked() {
    return Array.prototype.map.call(doc.querySelectorAll(".sq.last"), function (s) {
      return s.getAttribute("data-square");
    }).sort();
  }
  function click(id) { doc.getElementById(id).click(); }
  function key(name) { doc.dispatchEvent(new KeyboardEvent("keydown", {key: name})); }
  var seen = {opened: board()};
  var links = doc.querySelectorAll("#moves a[data-ply]");
  click("first"); seen.first = board();
  var forward = [];
  for (var i = 0; i < links.length; i++) {
    click("forward");
    forward.push({board: board(), marked: marked(), label: doc.getElementById("ply").textContent});
  }
  click("forward"); seen.past_the_end = board();
  var back = [];
  for (var i = 0; i < links.length; i++) { click("back"); back.push(board()); }
  var clicked = Array.prototype.map.call(links, function (a) { a.click(); return board(); });
  key("End"); seen.end = board();
  key("ArrowLeft"); seen.left = board();
  key("Home"); seen.home = board();
  key("ArrowRight"); seen.right = board();
  click("last"); seen.last = board();
  document.getElementById("out").textContent = JSON.stringify(
    {moves: links.length, forward: forward, back: back, clicked: clicked, seen: seen});
};
</script></body></html>
"##;

/// A real game played through the clerk by letters, its page
/// stepped through in Chromium: at every ply the board the page shows is
/// the position shakmaty gives for the PGN's moves, by the buttons, by a
/// click on each move, and by the keys.
#[test]
fn a_game_page_steps_through_a_real_game_in_a_real_browser() {
    use crate::support::*;
    let Some(sans) = real_game() else {
        return;
    };
    let mut t = Tournament::new();
    let start = chrono::NaiveDate::from_ymd_opt(2026, 11, 1).unwrap();
    let (mut white, mut black) = (0, 0);
    for (ply, san) in sans.iter().enumerate() {
        // A move a day: each letter goes the day after its partner's
        // reached the writer, one day on his clock.
        let day = start + chrono::Duration::days(ply as i64);
        let label = shtempel::game::ply_label(ply);
        let dates = match ply {
            0 => format!("{day}"),
            _ => {
                let before = day - chrono::Duration::days(1);
                match ply % 2 {
                    0 => white += 1,
                    _ => black += 1,
                }
                format!("{before}, {before}, {day}")
            }
        };
        let from = if ply % 2 == 0 { WHITE } else { BLACK };
        let body = format!("Game 1\n{label} {san}\nTime: {white}/{black}\nDates: {dates}\n");
        let mail = t.exchange(from, &day.to_string(), "Game 1", &body);
        assert!(
            mail.iter().any(|m| m.kind == "ack"),
            "ply {ply} {san}: {:?}",
            kinds(&mail)
        );
    }
    assert_eq!(t.chart("1")["moves"].as_array().unwrap().len(), sans.len());
    let site = t.path().join("site");
    let out = t.run(&[
        "report",
        "--out",
        site.to_str().unwrap(),
        "--today",
        "2027-01-05",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let Some(chromium) = chromium() else {
        return;
    };
    std::fs::write(site.join("driver.html"), DRIVER).unwrap();
    let dom = String::from_utf8(browse(
        &chromium,
        &t.path().join("profile"),
        &[
            "--dump-dom",
            "--allow-file-access-from-files",
            "--virtual-time-budget=20000",
        ],
        &site.join("driver.html"),
    ))
    .unwrap();
    let json = dom
        .split("<pre id=\"out\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .unwrap_or_else(|| panic!("{dom}"))
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let seen: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{e}: {json}"));
    let positions = positions_of(&sans);
    let n = sans.len();
    assert_eq!(seen["moves"], n);
    let board = |ply: usize| Value::from(positions[ply].0.clone());
    for ply in 1..=n {
        let step = &seen["forward"][ply - 1];
        assert_eq!(step["board"], board(ply), "forward to ply {ply}");
        assert_eq!(
            step["marked"],
            serde_json::json!(positions[ply].1),
            "ply {ply}"
        );
        let label = format!("{} {}", shtempel::game::ply_label(ply - 1), sans[ply - 1]);
        assert_eq!(step["label"], label.as_str(), "ply {ply}");
        assert_eq!(
            seen["clicked"][ply - 1],
            board(ply),
            "the move of ply {ply} clicked"
        );
        assert_eq!(
            seen["back"][n - ply],
            board(ply - 1),
            "back to ply {}",
            ply - 1
        );
    }
    for (what, ply) in [
        ("opened", n),
        ("first", 0),
        ("past_the_end", n),
        ("end", n),
        ("left", n - 1),
        ("home", 0),
        ("right", 1),
        ("last", n),
    ] {
        assert_eq!(seen["seen"][what], board(ply), "{what}");
    }
    // A screenshot of the page, kept as an artefact of the run.
    let shot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-real-game.png");
    let _ = std::fs::remove_file(&shot);
    browse(
        &chromium,
        &t.path().join("profile"),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,900",
        ],
        &site.join("game-1.html"),
    );
    assert!(std::fs::read(&shot).unwrap().len() > 10_000);
    eprintln!("screenshot: {}", shot.display());
}

//! The tournament report: a static site (plain HTML and one CSS file, no
//! JavaScript) that works opened from disk or from any web server. `index.html`
//! holds the cross-table and the list of games (status, whose move, totals,
//! days left in the control, the day the next move is due); `game-N.html` the
//! moves, the time chart and its plot (`game-N.svg`); `game-N.pgn` the game.
//! Pure: takes the games as loaded and returns the files to write.

use std::collections::HashMap;
use std::fmt::Write as _;

use chrono::NaiveDate;
use shakmaty::Color;

use crate::chart::Chart;
use crate::config::Config;
use crate::phrases::Phrases;
use crate::record::Record;
use crate::rules::standings::{Scored, standings};
use crate::rules::{EndReason, GameResult, Status, TieBreak};

/// One game as the report shows it.
pub struct GameReport {
    pub state: Record,
    pub chart: Chart,
    pub pgn: String,
}

/// A file of the site: its name in the folder and its content.
pub struct Page {
    pub name: String,
    pub content: String,
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A file name for a game id: letters, digits and dashes as they are, any
/// other character as `_` and its UTF-8 bytes in hex (`1.1` is `1_2e1`,
/// `1_1` is `1_5f1`), so two ids never share a page (issue 20, point 10).
fn slug(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for c in id.chars() {
        if c.is_ascii_alphanumeric() || c == '-' {
            out.push(c);
        } else {
            let mut bytes = [0; 4];
            for byte in c.encode_utf8(&mut bytes).bytes() {
                let _ = write!(out, "_{byte:02x}");
            }
        }
    }
    out
}

fn status_name<'p>(state: &Record, phrases: &'p Phrases) -> &'p str {
    match state.ledger.status() {
        Status::Active => phrases.get("report.status_active"),
        Status::Suspended => phrases.get("report.status_suspended"),
        Status::Adjudication => phrases.get("report.status_adjudication"),
        Status::Finished => phrases.get("report.status_finished"),
        Status::Annulled => phrases.get("report.status_annulled"),
    }
}

/// The result as a reader writes it.
fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::Draw => "½–½",
        GameResult::WhiteWins => "1–0",
        GameResult::BlackWins => "0–1",
    }
}

fn result_of(state: &Record) -> Option<GameResult> {
    state.ledger.standing.outcome.map(|o| o.result)
}

fn score_text(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".into(),
        (whole, 1) => format!("{whole}½"),
        (whole, _) => whole.to_string(),
    }
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#222;background:#fff}
h1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem}
.when{color:#666;margin-top:0}
table{border-collapse:collapse;margin:.5rem 0 1rem}
th,td{border:1px solid #ccc;padding:.3rem .55rem;text-align:center}
th{background:#f3f3f3}td.name,th.name{text-align:left}
td.self{background:#ddd}td.score{font-weight:bold}
tr.finished td{color:#555}tr.suspended td{background:#fff3e0}tr.adjudication td{background:#f3e5f5}
.low{color:#b00;font-weight:bold}
.moves{font-family:ui-monospace,Menlo,Consolas,monospace;line-height:1.6;max-width:60rem}
img.plot{max-width:100%;border:1px solid #ddd}
ul.notes{color:#444}a{color:#1565c0}
";

fn head(out: &mut String, title: &str, phrases: &Phrases) {
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"{}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<link rel=\"stylesheet\" href=\"style.css\">\n</head>\n<body>\n",
        phrases.lang().pick("ru", "en"),
        escape(title)
    );
}

/// One tournament of a folder, as the index of events lists it.
pub struct Event {
    pub id: String,
    pub name: String,
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub games: usize,
}

/// A game of a player of a folder's events, as his page lists it.
pub struct PlayerGame {
    pub event: String,
    pub event_name: String,
    pub game: String,
    pub white: bool,
    pub partner: String,
}

/// A player of a folder's events (the same id in several is one person),
/// with his games in each.
pub struct PlayerEvents {
    pub id: String,
    pub name: String,
    pub games: Vec<PlayerGame>,
}

/// A player's page: his games in every event, each linked to its page in
/// its event's report.
pub fn player_page(player: &PlayerEvents, phrases: &Phrases) -> Page {
    let mut out = String::new();
    head(&mut out, &player.name, phrases);
    // The page is one folder down from the index: links go up.
    out = out.replace("href=\"style.css\"", "href=\"../style.css\"");
    let _ = write!(
        out,
        "<h1>{}</h1>\n<p><a href=\"../index.html\">{}</a></p>\n<table>\n<tr><th class=\"name\">{}</th>\
         <th>{}</th><th>{}</th><th class=\"name\">{}</th></tr>\n",
        escape(&player.name),
        escape(phrases.get("report.back_to_events")),
        escape(phrases.get("report.event")),
        escape(phrases.get("report.game")),
        escape(phrases.get("report.colour")),
        escape(phrases.get("report.partner")),
    );
    for game in &player.games {
        let colour = if game.white {
            "report.white"
        } else {
            "report.black"
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"name\"><a href=\"../{}/index.html\">{}</a></td>\
             <td><a href=\"../{}/game-{}.html\">{}</a></td><td>{}</td><td class=\"name\">{}</td></tr>",
            slug(&game.event),
            escape(&game.event_name),
            slug(&game.event),
            slug(&game.game),
            escape(&game.game),
            escape(phrases.get(colour)),
            escape(&game.partner),
        );
    }
    out.push_str("</table>\n</body>\n</html>\n");
    Page {
        name: format!("players/{}.html", slug(&player.id)),
        content: out,
    }
}

/// The index of a folder's events: each with its dates, its games, and a
/// link to its own report (in the folder of its id).
pub fn events_index(
    events: &[Event],
    in_several: &[&PlayerEvents],
    phrases: &Phrases,
    today: NaiveDate,
) -> Page {
    let mut out = String::new();
    let title = phrases.get("report.events");
    head(&mut out, title, phrases);
    let lang = phrases.lang();
    let _ = write!(
        out,
        "<h1>{}</h1>\n<p class=\"when\">{} {}</p>\n<table>\n<tr><th class=\"name\">{}</th>\
         <th>{}</th><th>{}</th><th>{}</th></tr>\n",
        escape(title),
        escape(phrases.get("report.standing_on")),
        lang.date(today),
        escape(phrases.get("report.event")),
        escape(phrases.get("report.start")),
        escape(phrases.get("report.end")),
        escape(phrases.get("report.games")),
    );
    for event in events {
        let _ = writeln!(
            out,
            "<tr><td class=\"name\"><a href=\"{}/index.html\">{}</a> ({})</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            slug(&event.id),
            escape(&event.name),
            escape(&event.id),
            lang.date(event.start),
            lang.date(event.end),
            event.games
        );
    }
    out.push_str("</table>\n");
    // Players in more than one event: each one's games across them.
    if !in_several.is_empty() {
        let _ = writeln!(
            out,
            "<h2>{}</h2>\n<ul>",
            escape(phrases.get("report.players_in_several"))
        );
        for player in in_several {
            let _ = writeln!(
                out,
                "<li><a href=\"players/{}.html\">{}</a></li>",
                slug(&player.id),
                escape(&player.name)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body>\n</html>\n");
    Page {
        name: "index.html".into(),
        content: out,
    }
}

/// The style sheet of a folder's index of events.
pub fn style() -> Page {
    Page {
        name: "style.css".into(),
        content: STYLE.into(),
    }
}

/// The folder of an event's report under the index of events.
pub fn event_folder(id: &str) -> String {
    slug(id)
}

/// The site for the tournament as of `today`.
pub fn site(
    config: &Config,
    phrases: &Phrases,
    games: &[GameReport],
    today: NaiveDate,
    wanted: &dyn Fn(&str) -> bool,
) -> Vec<Page> {
    let mut pages = vec![
        Page {
            name: "style.css".into(),
            content: STYLE.into(),
        },
        Page {
            name: "index.html".into(),
            content: index(config, phrases, games, today),
        },
    ];
    for game in games.iter().filter(|game| wanted(game.state.id())) {
        let slug = slug(game.state.id());
        pages.push(Page {
            name: format!("game-{slug}.html"),
            content: game_page(phrases, game, today),
        });
        let plot = crate::plot::svg(&game.chart, &config.rules, phrases).unwrap_or_else(|e| {
            format!(
                "<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">{}</text></svg>",
                escape(&e.to_string())
            )
        });
        pages.push(Page {
            name: format!("game-{slug}.svg"),
            content: plot,
        });
        pages.push(Page {
            name: format!("game-{slug}.pgn"),
            content: game.pgn.clone(),
        });
    }
    pages
}

/// Above this many players the cross-table is a list: each player's games
/// by opponent, not a square of mostly empty cells (6,000 players of one
/// game each made a square of 36 million).
const SQUARE_PLAYERS: usize = 100;

/// One of a player's games in the cross-table.
struct Played<'a> {
    opponent: &'a str,
    /// The half points he got, if the game is over.
    halves: Option<u32>,
    /// Scored by forfeit: `+` or `−`.
    forfeit: bool,
}

/// The cross-table: the players who play, ranked by points and then the
/// tournament's tie-breaks ([`standings`]); a square up to
/// [`SQUARE_PLAYERS`], a list beyond. Linear in the games (each game is put
/// in its players' cells once), plus the square's cells.
fn cross_table(out: &mut String, config: &Config, phrases: &Phrases, games: &[GameReport]) {
    let mut played: HashMap<&str, Vec<Played>> = HashMap::new();
    let mut scored = Vec::with_capacity(games.len());
    // An annulled game does not count, nor stand in the table.
    let counted = games
        .iter()
        .filter(|game| game.state.ledger.status() != Status::Annulled);
    for game in counted {
        let state = &game.state;
        let result = result_of(state);
        let forfeit = state.ledger.standing.outcome.map(|o| o.reason) == Some(EndReason::Forfeit);
        scored.push(Scored {
            white: &state.white.id,
            black: &state.black.id,
            result,
        });
        for (color, player, opponent) in [
            (Color::White, &state.white.id, &state.black.id),
            (Color::Black, &state.black.id, &state.white.id),
        ] {
            played.entry(player.as_str()).or_default().push(Played {
                opponent: opponent.as_str(),
                halves: result.map(|r| r.halves(color)),
                forfeit,
            });
        }
    }
    // The entries' players, then those replaced who finished games before
    // they left (issue 31, point 10): each game counts for whoever played it.
    let mut ids: Vec<&str> = config
        .players
        .iter()
        .map(|p| p.id.as_str())
        .filter(|id| played.contains_key(id))
        .collect();
    let mut name_of: HashMap<&str, &str> = config
        .players
        .iter()
        .map(|p| (p.id.as_str(), p.name.as_str()))
        .collect();
    for game in games
        .iter()
        .filter(|game| game.state.ledger.status() != Status::Annulled)
    {
        for player in [&game.state.white, &game.state.black] {
            if !name_of.contains_key(player.id.as_str()) {
                name_of.insert(&player.id, &player.name);
                ids.push(&player.id);
            }
        }
    }
    let tie_breaks = &config.rules.tie_breaks;
    let lines = standings(&ids, &scored, tie_breaks);
    let number: HashMap<&str, usize> = lines
        .iter()
        .enumerate()
        .map(|(at, line)| (line.player, at + 1))
        .collect();
    let square = lines.len() <= SQUARE_PLAYERS;
    let _ = write!(
        out,
        "<h2>{}</h2>\n<table id=\"crosstable\">\n<tr><th>#</th><th class=\"name\">{}</th>",
        phrases.get("report.cross_table"),
        phrases.get("report.player")
    );
    if square {
        for index in 1..=lines.len() {
            let _ = write!(out, "<th>{index}</th>");
        }
    } else {
        let _ = write!(out, "<th>{}</th>", phrases.get("report.games"));
    }
    let _ = write!(out, "<th>{}</th>", phrases.get("report.score"));
    for tie_break in tie_breaks {
        let _ = write!(out, "<th>{}</th>", phrases.get(tie_break_label(*tie_break)));
    }
    let _ = writeln!(out, "<th>{}</th></tr>", phrases.get("report.place"));
    // A forfeit is scored + and − (ICCF's and the federations' tables).
    let cell = |points: Option<u32>, forfeit: bool| match (points, forfeit) {
        (Some(2), true) => "+".to_string(),
        (Some(0), true) => "−".to_string(),
        (points, _) => points.map_or_else(|| "·".to_string(), score_text),
    };
    for (row, line) in lines.iter().enumerate() {
        let own = &played[line.player];
        let _ = write!(
            out,
            "<tr data-player=\"{}\"><td>{}</td><td class=\"name\">{}</td>",
            escape(line.player),
            row + 1,
            escape(name_of.get(line.player).copied().unwrap_or(line.player))
        );
        if square {
            let mut by_opponent: HashMap<&str, Vec<String>> = HashMap::new();
            for game in own {
                by_opponent
                    .entry(game.opponent)
                    .or_default()
                    .push(cell(game.halves, game.forfeit));
            }
            for (column, opponent) in lines.iter().enumerate() {
                if row == column {
                    out.push_str("<td class=\"self\"></td>");
                    continue;
                }
                let cells = by_opponent.get(opponent.player);
                let _ = write!(
                    out,
                    "<td>{}</td>",
                    cells.map_or(String::new(), |c| c.join(" "))
                );
            }
        } else {
            let list: Vec<String> = own
                .iter()
                .map(|game| {
                    let cell = cell(game.halves, game.forfeit);
                    format!("{}: {}", number[game.opponent], cell)
                })
                .collect();
            let _ = write!(out, "<td class=\"list\">{}</td>", list.join(", "));
        }
        let _ = write!(out, "<td class=\"score\">{}</td>", score_text(line.halves));
        for tie_break in tie_breaks {
            let value = line.tie_break(*tie_break);
            let text = match tie_break {
                TieBreak::SonnebornBerger => quarters_text(value),
                TieBreak::Wins => value.to_string(),
            };
            let _ = write!(out, "<td class=\"tie-break\">{text}</td>");
        }
        let _ = writeln!(out, "<td class=\"place\">{}</td></tr>", line.place_text());
    }
    out.push_str("</table>\n");
}

/// The phrase that heads a tie-break's column.
fn tie_break_label(tie_break: TieBreak) -> &'static str {
    match tie_break {
        TieBreak::SonnebornBerger => "report.sonneborn_berger",
        TieBreak::Wins => "report.wins",
    }
}

/// Quarters of a point as a table writes them: `3`, `6½`, `2¼`, `¾`.
fn quarters_text(quarters: u32) -> String {
    let whole = quarters / 4;
    let part = ["", "¼", "½", "¾"][(quarters % 4) as usize];
    match (whole, part) {
        (0, "") => "0".into(),
        (0, part) => part.into(),
        (whole, part) => format!("{whole}{part}"),
    }
}

fn index(config: &Config, phrases: &Phrases, games: &[GameReport], today: NaiveDate) -> String {
    let lang = phrases.lang();
    let mut out = String::new();
    head(&mut out, &config.tournament_name, phrases);
    let _ = write!(
        out,
        "<h1>{}</h1>\n<p class=\"when\">{} {} · {} {} – {}</p>\n",
        escape(&config.tournament_name),
        phrases.get("report.standing_on"),
        lang.date(today),
        escape(&config.tournament_id),
        lang.date(config.start_date),
        lang.date(config.end_date),
    );

    cross_table(&mut out, config, phrases, games);

    let _ = write!(
        out,
        "<h2>{}</h2>\n<table id=\"games\">\n<tr><th>{}</th><th class=\"name\">{}</th><th class=\"name\">{}</th>\
         <th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>\n",
        phrases.get("report.games"),
        phrases.get("report.game"),
        phrases.get("report.white"),
        phrases.get("report.black"),
        phrases.get("report.status"),
        phrases.get("report.result"),
        phrases.get("report.moves"),
        phrases.get("report.to_move"),
        phrases.get("report.time"),
        phrases.get("report.days_left"),
        phrases.get("report.due"),
    );
    for game in games {
        let state = &game.state;
        let totals = state.ledger.totals();
        let clock = state.ledger.due(&config.rules, today);
        let to_move = clock.map_or(String::new(), |due| escape(&state.player(due.player).name));
        let (left, due) = match clock {
            Some(crate::rules::Due {
                days_left: left,
                last_day: due,
                ..
            }) => (
                format!(
                    "<span class=\"{}\">{left}</span>",
                    if left <= 10 { "low" } else { "ok" }
                ),
                lang.date(due),
            ),
            None => (String::new(), String::new()),
        };
        let status_class = state.ledger.status().name();
        let _ = writeln!(
            out,
            "<tr id=\"game-{slug}\" class=\"{status_class}\"><td><a href=\"game-{slug}.html\">{id}</a></td>\
             <td class=\"name\">{white}</td><td class=\"name\">{black}</td><td class=\"status\">{status}</td>\
             <td class=\"result\">{result}</td><td class=\"moves\">{moves}</td><td class=\"to-move\">{to_move}</td>\
             <td class=\"totals\">{tw}/{tb}</td><td class=\"left\">{left}</td><td class=\"due\">{due}</td></tr>",
            slug = slug(state.id()),
            id = escape(state.id()),
            white = escape(&state.white.name),
            black = escape(&state.black.name),
            status = status_name(state, phrases),
            result = result_of(state).map(result_text).unwrap_or(""),
            moves = state.board.moves().len().div_ceil(2),
            tw = totals.white,
            tb = totals.black,
        );
    }
    out.push_str("</table>\n</body>\n</html>\n");
    out
}

fn game_page(phrases: &Phrases, game: &GameReport, today: NaiveDate) -> String {
    let lang = phrases.lang();
    let state = &game.state;
    let slug = slug(state.id());
    let title = phrases.fill(
        "report.title",
        &[
            ("game", &state.id()),
            ("white", &state.white.name),
            ("black", &state.black.name),
        ],
    );
    let mut out = String::new();
    head(&mut out, &title, phrases);
    let totals = state.ledger.totals();
    let _ = write!(
        out,
        "<p><a href=\"index.html\">{}</a></p>\n<h1>{}</h1>\n\
         <p class=\"when\">{} · <span id=\"result\">{}</span> · {} <span id=\"totals\">{}/{}</span> · {} {}</p>\n",
        phrases.get("report.back"),
        escape(&title),
        status_name(state, phrases),
        result_of(state).map(result_text).unwrap_or("*"),
        phrases.get("report.time_word"),
        totals.white,
        totals.black,
        phrases.get("report.on"),
        lang.date(today),
    );
    // The moves, numbered.
    let mut moves = String::new();
    for (ply, san) in state.board.sans_with_signs().iter().enumerate() {
        if ply % 2 == 0 {
            let _ = write!(moves, "{}. ", ply / 2 + 1);
        }
        let _ = write!(moves, "{} ", escape(&phrases.san(san)));
    }
    let _ = write!(
        out,
        "<h2>{}</h2>\n<p class=\"moves\" id=\"moves\">{}</p>\n<p><a href=\"game-{slug}.pgn\">PGN</a></p>\n",
        phrases.get("report.moves_heading"),
        moves.trim_end()
    );
    let _ = write!(
        out,
        "<h2>{}</h2>\n<img class=\"plot\" src=\"game-{slug}.svg\" alt=\"{}\">\n",
        phrases.get("report.time_chart"),
        phrases.get("report.plot_alt"),
    );
    let headers = phrases.list("report.chart_columns");
    out.push_str("<table id=\"chart\">\n<tr>");
    for header in headers {
        let _ = write!(out, "<th>{header}</th>");
    }
    out.push_str("</tr>\n");
    let date = |d: Option<NaiveDate>| d.map(|d| lang.date(d)).unwrap_or_default();
    for row in &game.chart.rows {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            row.number,
            if row.color == Color::White {
                phrases.get("report.white_short")
            } else {
                phrases.get("report.black_short")
            },
            escape(&phrases.san(&row.san)),
            if row.conditional { "*" } else { "" },
            date(row.partner_postmark),
            date(row.received),
            lang.date(row.sent_on),
            date(row.delivered_on),
            row.days,
            if row.penalty > 0 {
                row.penalty.to_string()
            } else {
                String::new()
            },
            row.total,
            row.limit,
            row.left,
        );
    }
    // The header's totals are after the days the arbiter excused; so is
    // the table's last line.
    let credit = game.chart.credit;
    if credit != crate::rules::Fraction::default() {
        let _ = writeln!(
            out,
            "<tr class=\"credit\"><td colspan=\"9\" class=\"name\">{}</td><td colspan=\"3\" id=\"credit-totals\">{}/{}</td></tr>",
            escape(&phrases.fill("chart.credit", &[("credit", &credit)])),
            game.chart.totals.white,
            game.chart.totals.black,
        );
    }
    out.push_str("</table>\n");
    if !game.chart.notes.is_empty() {
        let _ = write!(
            out,
            "<h2>{}</h2>\n<ul class=\"notes\">\n",
            phrases.get("report.notes")
        );
        for note in &game.chart.notes {
            let _ = writeln!(out, "<li>{}</li>", escape(note));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quarters_are_written_as_a_table_writes_points() {
        let table = [
            (0, "0"),
            (1, "¼"),
            (2, "½"),
            (3, "¾"),
            (4, "1"),
            (13, "3¼"),
            (26, "6½"),
        ];
        for (quarters, text) in table {
            assert_eq!(quarters_text(quarters), text, "{quarters}");
        }
    }
}

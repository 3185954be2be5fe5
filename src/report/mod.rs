//! The tournament report: a static site (plain HTML and one CSS file, no
//! JavaScript) that works opened from disk or from any web server. `index.html`
//! holds the cross-table and the list of games (status, whose move, totals,
//! days left in the control, the day the next move is due); `game-N.html` the
//! moves, the time chart and its plot (`game-N.svg`); `game-N.pgn` the game.
//! Pure: takes the games as loaded and returns the files to write. The index
//! is made from a [`GameLine`] a game, a few words each, and each game's
//! pages from its record alone, so that a report costs memory in
//! proportion to one game and its lines, not to the event's records (a round
//! robin of 500 has 124,750 games). A game's pages hold nothing of the day:
//! only the index is rewritten when the day changes.

use std::fmt::Write as _;

use chrono::NaiveDate;
use shakmaty::Color;

use crate::chart::Chart;
use crate::config::Config;
use crate::phrases::Phrases;
use crate::record::Record;
use crate::rules::{GameResult, Status};

mod board;
mod cross_table;
mod federation;
pub mod rated;
mod rating_pages;
pub mod site;

use self::cross_table::cross_table;
pub use self::federation::{
    Event, PlayerEvents, PlayerGame, events_index, player_file, player_page,
};
pub use self::rating_pages::{history_file, history_pages, list_page, words as rating_words};

/// What the index and the cross-table show of one game.
#[derive(Clone, Debug)]
pub struct GameLine {
    pub id: String,
    pub white: (String, String),
    pub black: (String, String),
    pub status: Status,
    pub result: Option<GameResult>,
    pub by_forfeit: bool,
    pub moves: usize,
    pub totals: (u32, u32),
    /// Who is to move, his days left and his last day, as of the day.
    pub due: Option<(String, i64, NaiveDate)>,
}

impl GameLine {
    /// The line of `state` as of `today`.
    pub fn of(state: &Record, config: &Config, today: NaiveDate) -> GameLine {
        let totals = state.ledger.totals();
        let outcome = state.ledger.standing.outcome;
        GameLine {
            id: state.id().to_string(),
            white: (state.white.id.clone(), state.white.name.clone()),
            black: (state.black.id.clone(), state.black.name.clone()),
            status: state.ledger.status(),
            result: outcome.map(|o| o.result),
            by_forfeit: outcome.map(|o| o.reason) == Some(crate::rules::EndReason::Forfeit),
            moves: state.board.moves().len().div_ceil(2),
            totals: (totals.white, totals.black),
            due: state.ledger.due(&config.rules, today).map(|due| {
                let name = state.player(due.player).name.clone();
                (name, due.days_left, due.last_day)
            }),
        }
    }
}

/// One game as its pages show it.
pub struct GameReport {
    pub state: Record,
    pub chart: Chart,
    pub pgn: String,
}

use crate::printable::html_escaped as escape;

/// A file of the site: its name in the folder and its content.
pub struct Page {
    pub name: String,
    pub content: String,
}

/// A file name for a game id: letters, digits and dashes as they are, any
/// other character as `_` and its UTF-8 bytes in hex (`1.1` is `1_2e1`,
/// `1_1` is `1_5f1`), so two ids never share a page.
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

fn status_name(status: Status, phrases: &Phrases) -> &str {
    match status {
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

/// The style sheet of a folder's index of events.
pub fn style() -> Page {
    Page {
        name: "style.css".into(),
        content: format!("{STYLE}{}", board::STYLE),
    }
}

/// The folder of an event's report under the index of events: an ASCII
/// id as it is (`CC-2026`), another in Latin letters as the Message-IDs
/// write it (`КР-2026` is `kr-2026`, not `_d0_9a_d0_a0-2026`). No two
/// events of a folder have one (the config refuses them).
pub fn event_folder(id: &str) -> String {
    match id.is_ascii() {
        true => slug(id),
        false => slug(&crate::key::ascii_id(id)),
    }
}

/// The file of a game's page in its event's report.
pub fn game_page_file(game: &str) -> String {
    format!("game-{}.html", slug(game))
}

/// The address of `game`'s page where the report of `config` is published
/// (`[report] url`); a folder's report keeps each event in a folder of its
/// own.
pub fn game_link(config: &Config, game: &str) -> Option<String> {
    let url = config.report_url.as_deref()?;
    let page = game_page_file(game);
    Some(match config.scope() {
        Some(id) => format!("{url}/{}/{page}", event_folder(id)),
        None => format!("{url}/{page}"),
    })
}

/// The index of the tournament as of `today` (its cross-table and its list
/// of games), and the style sheet.
pub fn index_pages(
    config: &Config,
    phrases: &Phrases,
    lines: &[GameLine],
    today: NaiveDate,
    section: Option<&rated::Section>,
) -> Vec<Page> {
    vec![
        Page {
            name: "style.css".into(),
            content: format!("{STYLE}{}", board::STYLE),
        },
        Page {
            name: "index.html".into(),
            content: index(config, phrases, lines, today, section),
        },
    ]
}

/// One game's pages: the moves and its time chart, the chart's plot, the
/// PGN. Nothing in them depends on the day.
pub fn game_pages(config: &Config, phrases: &Phrases, game: &GameReport) -> Vec<Page> {
    let slug = slug(game.state.id());
    let plot = crate::chart::plot::svg(&game.chart, &config.rules, phrases).unwrap_or_else(|e| {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">{}</text></svg>",
            escape(&e.to_string())
        )
    });
    vec![
        Page {
            name: game_page_file(game.state.id()),
            content: game_page(phrases, game),
        },
        Page {
            name: format!("game-{slug}.svg"),
            content: plot,
        },
        Page {
            name: format!("game-{slug}.pgn"),
            content: game.pgn.clone(),
        },
    ]
}

fn index(
    config: &Config,
    phrases: &Phrases,
    lines: &[GameLine],
    today: NaiveDate,
    section: Option<&rated::Section>,
) -> String {
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

    let section = section.filter(|s| !s.ratings.is_empty());
    cross_table(&mut out, config, phrases, lines, section);

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
    for line in lines {
        let to_move = line
            .due
            .as_ref()
            .map_or(String::new(), |(name, _, _)| escape(name));
        let (left, due) = match &line.due {
            Some((_, left, due)) => (
                format!(
                    "<span class=\"{}\">{left}</span>",
                    if *left <= 10 { "low" } else { "ok" }
                ),
                lang.date(*due),
            ),
            None => (String::new(), String::new()),
        };
        let _ = writeln!(
            out,
            "<tr id=\"game-{slug}\" class=\"{status_class}\"><td><a href=\"game-{slug}.html\">{id}</a></td>\
             <td class=\"name\">{white}</td><td class=\"name\">{black}</td><td class=\"status\">{status}</td>\
             <td class=\"result\">{result}</td><td class=\"moves\">{moves}</td><td class=\"to-move\">{to_move}</td>\
             <td class=\"totals\">{tw}/{tb}</td><td class=\"left\">{left}</td><td class=\"due\">{due}</td></tr>",
            slug = slug(&line.id),
            id = escape(&line.id),
            white = escape(&line.white.1),
            black = escape(&line.black.1),
            status_class = line.status.name(),
            status = status_name(line.status, phrases),
            result = line.result.map(result_text).unwrap_or(""),
            moves = line.moves,
            tw = line.totals.0,
            tb = line.totals.1,
        );
    }
    out.push_str("</table>\n</body>\n</html>\n");
    out
}

fn game_page(phrases: &Phrases, game: &GameReport) -> String {
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
         <p class=\"when\">{} · <span id=\"result\">{}</span> · {} <span id=\"totals\">{}/{}</span></p>\n",
        phrases.get("report.back"),
        escape(&title),
        status_name(state.ledger.status(), phrases),
        result_of(state).map(result_text).unwrap_or("*"),
        phrases.get("report.time_word"),
        totals.white,
        totals.black,
    );
    // The board with the moves to step through, the time chart beside it.
    out.push_str("<div class=\"game\">\n");
    board::board_and_moves(&mut out, phrases, state, &slug);
    let _ = write!(
        out,
        "<div class=\"clock\">\n<h2>{}</h2>\n<img class=\"plot\" src=\"game-{slug}.svg\" alt=\"{}\">\n",
        phrases.get("report.time_chart"),
        phrases.get("report.plot_alt"),
    );
    chart_table(&mut out, phrases, game);
    out.push_str("</table>\n</div>\n</div>\n");
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

/// Where the report's column of days excused goes: after the penalty.
const EXCUSED_AT: usize = 9;

/// A game's time chart as a table (Table 2), its last line the totals
/// after the days the arbiter excused (the table is closed by the caller).
fn chart_table(out: &mut String, phrases: &Phrases, game: &GameReport) {
    let lang = phrases.lang();
    let mut headers = phrases.list("report.chart_columns");
    let excuses = game.chart.excuses();
    if excuses {
        headers.insert(EXCUSED_AT.min(headers.len()), phrases.get("chart.excused"));
    }
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
             <td>{}</td><td>{}</td>{}<td>{}</td><td>{}</td><td>{}</td></tr>",
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
            match (excuses, row.excused) {
                (false, _) => String::new(),
                (true, 0) => "<td></td>".to_string(),
                (true, days) => format!("<td>{days}</td>"),
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
            "<tr class=\"credit\"><td colspan=\"{}\" class=\"name\">{}</td><td colspan=\"3\" id=\"credit-totals\">{}/{}</td></tr>",
            if excuses { 10 } else { 9 },
            escape(&phrases.fill("chart.credit", &[("credit", &credit)])),
            game.chart.totals.white,
            game.chart.totals.black,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::cross_table::quarters_text;

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

//! The cross-table: the players ranked by points and the tournament's
//! tie-breaks, a square up to [`SQUARE_PLAYERS`] players, a list beyond.

use std::collections::HashMap;
use std::fmt::Write as _;

use shakmaty::Color;

use crate::config::Config;
use crate::phrases::Phrases;
use crate::printable::html_escaped as escape;
use crate::rules::standings::{Scored, standings};
use crate::rules::{Status, TieBreak};

use super::{GameLine, score_text};

/// Above this many players the cross-table is a list: each player's games
/// by opponent, not a square of mostly empty cells (6,000 players of one
/// game each made a square of 36 million).
pub(super) const SQUARE_PLAYERS: usize = 100;

/// One of a player's games in the cross-table.
pub(super) struct Played<'a> {
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
pub(super) fn cross_table(
    out: &mut String,
    config: &Config,
    phrases: &Phrases,
    games: &[GameLine],
    section: Option<&super::rated::Section>,
) {
    let Table {
        played,
        scored,
        ids,
        name_of,
    } = table_of(config, games);
    let tie_breaks = &config.rules.tie_breaks;
    let lines = standings(&ids, &scored, tie_breaks);
    let number: HashMap<&str, usize> = lines
        .iter()
        .enumerate()
        .map(|(at, line)| (line.player, at + 1))
        .collect();
    let square = lines.len() <= SQUARE_PLAYERS;
    header(out, phrases, lines.len(), square, tie_breaks, section);
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
        if let Some(section) = section {
            let rating = section.ratings.get(line.player);
            let _ = write!(
                out,
                "<td class=\"rating\">{}</td>",
                rating.map_or("–".to_string(), i32::to_string)
            );
        }
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

/// What the table is made of: each player's games, the games scored, the
/// players in order, and their names.
struct Table<'g> {
    played: HashMap<&'g str, Vec<Played<'g>>>,
    scored: Vec<Scored<'g>>,
    ids: Vec<&'g str>,
    name_of: HashMap<&'g str, &'g str>,
}

/// The games of the table, by player (an annulled game does not count, nor
/// stand in it).
fn table_of<'g>(config: &'g Config, games: &'g [GameLine]) -> Table<'g> {
    let mut played: HashMap<&str, Vec<Played>> = HashMap::new();
    let mut scored = Vec::with_capacity(games.len());
    // An annulled game does not count, nor stand in the table.
    let counted = games.iter().filter(|game| game.status != Status::Annulled);
    for game in counted.clone() {
        scored.push(Scored {
            white: &game.white.0,
            black: &game.black.0,
            result: game.result,
        });
        for (color, player, opponent) in [
            (Color::White, &game.white.0, &game.black.0),
            (Color::Black, &game.black.0, &game.white.0),
        ] {
            played.entry(player.as_str()).or_default().push(Played {
                opponent: opponent.as_str(),
                halves: game.result.map(|r| r.halves(color)),
                forfeit: game.by_forfeit,
            });
        }
    }
    // The entries' players, then those replaced who finished games before
    // they left: each game counts for whoever played it.
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
    for game in counted {
        for (id, name) in [&game.white, &game.black] {
            if !name_of.contains_key(id.as_str()) {
                name_of.insert(id, name);
                ids.push(id);
            }
        }
    }
    Table {
        played,
        scored,
        ids,
        name_of,
    }
}

/// The table's head: its title, and a column a player (a square) or one of
/// games (a list), then the score, the tie-breaks and the place.
fn header(
    out: &mut String,
    phrases: &Phrases,
    players: usize,
    square: bool,
    tie_breaks: &[TieBreak],
    section: Option<&super::rated::Section>,
) {
    let _ = writeln!(out, "<h2>{}</h2>", phrases.get("report.cross_table"));
    // The section's strength: its players' average rating as it began and
    // FIDE's category of it.
    if let Some(average) = section.and_then(super::rated::Section::average) {
        let category = section
            .and_then(super::rated::Section::category)
            .map(|category| {
                phrases.fill("report.category", &[("category", &category.to_string())])
            });
        let average = phrases.fill(
            "report.average_rating",
            &[("average", &average.to_string())],
        );
        let said = match category {
            Some(category) => format!("{average}, {category}"),
            None => average,
        };
        let _ = writeln!(out, "<p class=\"strength\">{}</p>", escape(&said));
    }
    let _ = write!(
        out,
        "<table id=\"crosstable\">\n<tr><th>#</th><th class=\"name\">{}</th>",
        phrases.get("report.player")
    );
    if section.is_some() {
        let _ = write!(out, "<th>{}</th>", phrases.get("report.rating"));
    }
    if square {
        for index in 1..=players {
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
}

/// The phrase that heads a tie-break's column.
pub(super) fn tie_break_label(tie_break: TieBreak) -> &'static str {
    match tie_break {
        TieBreak::SonnebornBerger => "report.sonneborn_berger",
        TieBreak::Wins => "report.wins",
    }
}

/// Quarters of a point as a table writes them: `3`, `6½`, `2¼`, `¾`.
pub(super) fn quarters_text(quarters: u32) -> String {
    let whole = quarters / 4;
    let part = ["", "¼", "½", "¾"][(quarters % 4) as usize];
    match (whole, part) {
        (0, "") => "0".into(),
        (0, part) => part.into(),
        (whole, part) => format!("{whole}{part}"),
    }
}

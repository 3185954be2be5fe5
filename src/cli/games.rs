//! `shtempel games`: every game, one line each, or as JSON.

use std::io::Write;

use chrono::{NaiveDate, Utc};

use shtempel::config::Config;

use super::database::{load_state, open_store};
use super::output::Printer;
use super::{Context, Failure, clock};

#[derive(clap::Args)]
pub struct Args {
    /// The games as JSON on standard output.
    #[arg(long)]
    json: bool,
    /// Count days left as on this date (default: today in the tournament's zone).
    #[arg(long)]
    today: Option<NaiveDate>,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        // A folder's games are all listed unless one tournament is given.
        let configs = cx.given_or_all()?;
        games(&configs, cx.now, self.today, Printer::of(self.json))
    }
}

/// Every game, one line each: moves made (full moves, as the report counts
/// them), totals, the days left of the player to move while his clock runs
/// (none for a finished or suspended game), status and result. Columns are
/// as wide as their longest cell, counted in characters.
/// `shtempel games`: every game of the tournaments given (a folder's games
/// named `ID/<game>`, and in JSON with their `tournament`).
pub(super) fn games(
    configs: &[Config],
    now: chrono::DateTime<Utc>,
    today: Option<NaiveDate>,
    printer: Printer,
) -> Result<u8, Failure> {
    let mut values = Vec::new();
    let mut table = vec![
        [
            "game", "white", "black", "moves", "totals", "left", "status", "result",
        ]
        .map(str::to_string)
        .to_vec(),
    ];
    for config in configs {
        let store = open_store(config)?;
        let clock = clock(config, now, today);
        for game in config.draw().games() {
            let state = load_state(config, &store, &game.id)?;
            let due = state.ledger.due(&config.rules, clock.today);
            let plies = state.board.moves().len();
            let status = state.ledger.status().name();
            let result = state.ledger.standing.result_pgn();
            if printer == Printer::Json {
                let mut value = state.chart(config, Vec::new()).summary_json();
                value["moves"] = serde_json::json!(plies.div_ceil(2));
                value["plies"] = serde_json::json!(plies);
                value["to_move"] = serde_json::json!(due.map(|d| shtempel::color_name(d.player)));
                value["days_left"] = serde_json::json!(due.map(|d| d.days_left));
                value["last_day"] = serde_json::json!(due.map(|d| d.last_day));
                if let Some(id) = config.scope() {
                    value["tournament"] = serde_json::json!(id);
                }
                values.push(value);
                continue;
            }
            let left = due.map_or("-".to_string(), |d| {
                format!("{} {}", d.days_left, &shtempel::color_name(d.player)[..1])
            });
            let label = config.game_key(&game.id).to_string();
            table.push(vec![
                label,
                state.white.name.clone(),
                state.black.name.clone(),
                plies.div_ceil(2).to_string(),
                state.ledger.totals().to_string(),
                left,
                status.to_string(),
                result.unwrap_or("").to_string(),
            ]);
        }
    }
    let mut out = std::io::stdout().lock();
    if printer == Printer::Json {
        let text = serde_json::to_string_pretty(&values).unwrap_or_default();
        let _ = writeln!(out, "{text}");
        return Ok(0);
    }
    let width = |column: usize| {
        table
            .iter()
            .map(|row| row[column].chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..table[0].len()).map(width).collect();
    // Numbers right-aligned, words left.
    let right = [false, false, false, true, true, true, false, false];
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .zip(right)
            .map(|((cell, &width), right)| {
                let pad = " ".repeat(width - cell.chars().count());
                if right {
                    format!("{pad}{cell}")
                } else {
                    format!("{cell}{pad}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    Ok(0)
}

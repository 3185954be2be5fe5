//! `shtempel pairings`: a round robin's table, round by round and board by
//! board, as the clerk makes its games from the players (`[tournament]
//! pairing`); changes nothing, so that a director checks it before `start`.

use std::io::Write;

use serde_json::json;

use shtempel::config::Config;
use shtempel::printable::printable;
use shtempel::rules::PairingSystem;
use shtempel::rules::pairing::Round;

use super::output::Printer;
use super::{Context, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// The table as JSON on standard output.
    #[arg(long)]
    json: bool,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let configs = cx.given_or_all()?;
        // A file whose players were reordered since the games were made
        // gives a table the games no longer follow: refused, as by every
        // other command.
        for config in &configs {
            super::database::open_store(config)?;
        }
        let mut out = std::io::stdout().lock();
        match Printer::of(self.json) {
            Printer::Json => {
                let tables: Vec<serde_json::Value> = configs.iter().map(table_json).collect();
                let text = serde_json::to_string_pretty(&tables).unwrap_or_default();
                let _ = writeln!(out, "{text}");
            }
            Printer::Text => {
                for (at, config) in configs.iter().enumerate() {
                    if at > 0 {
                        let _ = writeln!(out);
                    }
                    let _ = write!(out, "{}", table_text(config));
                }
            }
        }
        Ok(0)
    }
}

/// The rounds of a tournament's pairing, or none where its file lists its
/// games.
fn rounds_of(config: &Config) -> Vec<Round> {
    config
        .pairing
        .map(|pairing| pairing.rounds(config.players.len()))
        .unwrap_or_default()
}

/// A player by his number in the draw (from 1): his name.
fn name(config: &Config, number: usize) -> &str {
    config
        .players
        .get(number - 1)
        .map_or("?", |p| p.name.as_str())
}

fn table_text(config: &Config) -> String {
    let id = &config.tournament_id;
    let Some(pairing) = config.pairing else {
        return format!(
            "{id}: no pairing: its games are listed in the file ({} [[games]])\n",
            config.draw().len()
        );
    };
    let players = config.players.len();
    let mut text = format!(
        "{id}: {}, {players} players{}, {} games{}\n",
        pairing.name().replace('_', " "),
        if players % 2 == 1 {
            " (a bye each round)"
        } else {
            ""
        },
        config.draw().len(),
        if config.seed_by_rating {
            ", numbered by rating"
        } else {
            ""
        }
    );
    let width = config
        .players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(0);
    for (at, player) in config.players.iter().enumerate() {
        // The rating each brings, in a column after the names.
        let rating = player
            .start_rating
            .as_ref()
            .map(|r| {
                let pad = " ".repeat(width - player.name.chars().count());
                format!("{pad}  {:>4}", r.rating)
            })
            .unwrap_or_default();
        text += &format!(
            "{:>4}  {}{rating}\n",
            at + 1,
            printable(&player.name, false)
        );
    }
    let mut game = 0;
    for round in rounds_of(config) {
        text += &format!("Round {}", round.number);
        if let Some(bye) = round.bye {
            text += &format!(" (bye: {} {})", bye, printable(name(config, bye), false));
        }
        text += "\n";
        for board in &round.boards {
            game += 1;
            let white = format!("{} {}", board.white, name(config, board.white));
            text += &format!(
                "  game {game:<4} board {:<3} {:<w$}  -  {} {}\n",
                board.board,
                printable(&white, false),
                board.black,
                printable(name(config, board.black), false),
                w = width + 4
            );
        }
    }
    text
}

fn table_json(config: &Config) -> serde_json::Value {
    let player = |number: usize| {
        let p = &config.players[number - 1];
        json!({
            "number": number,
            "id": p.id,
            "name": p.name,
            "rating": p.start_rating.as_ref().map(|r| r.rating),
        })
    };
    let mut game = 0;
    let rounds: Vec<serde_json::Value> = rounds_of(config)
        .into_iter()
        .map(|round| {
            let boards: Vec<serde_json::Value> = round
                .boards
                .iter()
                .map(|board| {
                    game += 1;
                    json!({
                        "board": board.board,
                        "game": game.to_string(),
                        "white": player(board.white),
                        "black": player(board.black),
                    })
                })
                .collect();
            json!({"round": round.number, "boards": boards, "bye": round.bye.map(player)})
        })
        .collect();
    json!({
        "tournament": config.tournament_id,
        "pairing": config.pairing.map(|p| p.name()),
        "players": (1..=config.players.len()).map(player).collect::<Vec<_>>(),
        "rounds": rounds,
    })
}

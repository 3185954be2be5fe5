//! `shtempel pgn`: a game, or every game, as PGN.

use shtempel::config::Config;

use super::database::{load_state, open_store};
use super::{Context, Failure, load, usage};

#[derive(clap::Args)]
pub struct Args {
    /// The game; leave out with --all.
    #[arg(required_unless_present = "all")]
    game: Option<String>,
    /// Every game of the tournament, one after another.
    #[arg(long, conflicts_with = "game")]
    all: bool,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let config = load(&cx.config, cx.tournament())?;
        pgn(&config, self.game.as_deref())
    }
}

/// One game's PGN, or every game's one after another (`game` = None).
pub(super) fn pgn(config: &Config, game: Option<&str>) -> Result<u8, Failure> {
    let store = open_store(config)?;
    let ids: Vec<&str> = match game {
        Some(game) => vec![game],
        None => config
            .draw()
            .games()
            .iter()
            .map(|g| g.id.as_str())
            .collect(),
    };
    let phrases = shtempel::render::load_phrases(&config.templates, config.language)
        .map_err(|e| usage(e.to_string()))?;
    let mut games = Vec::new();
    for id in ids {
        games.push(load_state(config, &store, id)?.pgn(config, &phrases));
    }
    print!("{}", games.join("\n"));
    Ok(0)
}

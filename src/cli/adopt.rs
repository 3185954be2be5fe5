//! `shtempel adopt`: a database kept by a tournament of its own file made
//! that tournament's of the folder.

use shtempel::config::Config;
use shtempel::run;

use super::database::{database_error, open_store_to_change};
use super::{Context, Failure, load, run_error, usage};

#[derive(clap::Args)]
pub struct Args {}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        adopt(&load(&cx.config, cx.tournament())?)
    }
}

/// `shtempel adopt`: a single tournament's database becomes one of the
/// folder's.
pub(super) fn adopt(config: &Config) -> Result<u8, Failure> {
    let Some(id) = config.scope() else {
        return Err(usage(format!(
            "adopt: {} is a tournament of its own file; its games need no adopting",
            config.file.display()
        )));
    };
    let Some(_lock) = run::lock(&config.database).map_err(|e| run_error(format!("lock: {e}")))?
    else {
        return Err(run_error(
            "adopt: another run is at work; try again after it",
        ));
    };
    let mut store = open_store_to_change(config)?;
    let games = store
        .adopt_games(id)
        .map_err(|e| database_error(config, &e))?;
    println!(
        "adopt: {games} game(s) of {} are now tournament {id}'s",
        config.database.display()
    );
    Ok(0)
}

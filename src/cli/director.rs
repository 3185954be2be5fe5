//! What the director's order commands share (`result`, `forfeit`, `undo`,
//! `withdraw`, `replace`, `accept`): their common arguments, the words for
//! a result and a side, and the pass each runs with its order carried out
//! first (`before_pass`).

use std::path::Path;

use shakmaty::Color;

use shtempel::clerk::Order;
use shtempel::config::Config;
use shtempel::error::Error;
use shtempel::rules::GameResult;

use super::before_pass::Before;
use super::pass::PassArgs;
use super::pass::poll;
use super::{Context, Failure, load_all, pick};

/// Every tournament of the config, and the id of the one a command is
/// about (the one given, or the only one).
pub(super) fn picked(
    path: &Path,
    tournament: Option<&str>,
) -> Result<(Vec<Config>, String), Failure> {
    let configs = load_all(path)?;
    let id = pick(path, configs.clone(), tournament)?.tournament_id;
    Ok((configs, id))
}

/// What every order of the command line takes besides its own words.
#[derive(clap::Args)]
pub struct Given {
    /// The reason, for the note under the chart and the players.
    #[arg(long)]
    pub why: Option<String>,
    #[command(flatten)]
    pub pass: PassArgs,
}

/// The director's order (`result`, `forfeit`, `undo`, `withdraw`,
/// `replace`) in the tournament given (or the only one), then a pass as
/// `poll`.
pub(super) fn order_command(
    cx: &Context,
    order: impl FnOnce(Option<String>) -> Order,
    given: Given,
) -> Result<u8, Failure> {
    let (configs, tournament) = cx.picked()?;
    let before = Before::Order {
        tournament: Some(&tournament),
        order: order(given.why),
    };
    poll(&configs, cx.now, &given.pass, before)
}

/// `1-0`, `0-1`, `1/2` (or `1/2-1/2`, `½`).
pub(super) fn parse_result(text: &str) -> Result<GameResult, Error> {
    match text {
        "1-0" => Ok(GameResult::WhiteWins),
        "0-1" => Ok(GameResult::BlackWins),
        "1/2" | "1/2-1/2" | "½" | "½-½" => Ok(GameResult::Draw),
        _ => Err(Error::usage(format!(
            "{text:?} is not a result: write 1-0, 0-1 or 1/2"
        ))),
    }
}

/// `white` or `black`.
pub(super) fn parse_side(text: &str) -> Result<Color, Error> {
    match text.to_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(Error::usage(format!(
            "{text:?} is not a side: write white or black"
        ))),
    }
}

//! `shtempel result GAME 1-0`: a game's result set as the chief arbiter
//! would (`RESULT 3 1-0`), then a pass.

use shtempel::clerk::{Order, order};
use shtempel::rules::GameResult;
use shtempel::rules::interventions::Scored;

use super::director::{Given, order_command, parse_result};
use super::{Context, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// The game's id.
    game: String,
    /// 1-0, 0-1 or 1/2.
    #[arg(value_parser = parse_result)]
    result: GameResult,
    #[command(flatten)]
    pub given: Given,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let (game, scored) = (self.game, Scored::Result(self.result));
        let order = |why| Order::Score(order::Score { game, scored, why });
        order_command(cx, order, self.given)
    }
}

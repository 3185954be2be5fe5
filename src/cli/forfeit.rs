//! `shtempel forfeit GAME white`: a game lost by forfeit by the side given
//! (`+/-`), then a pass.

use shakmaty::Color;

use shtempel::clerk::{Order, order};
use shtempel::rules::GameResult;
use shtempel::rules::interventions::Scored;

use super::director::{Given, order_command, parse_side};
use super::{Context, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// The game's id.
    game: String,
    /// The side that loses: white or black.
    #[arg(value_parser = parse_side)]
    loser: Color,
    #[command(flatten)]
    pub given: Given,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let (game, scored) = (self.game, Scored::Forfeit(GameResult::loss_of(self.loser)));
        let order = |why| Order::Score(order::Score { game, scored, why });
        order_command(cx, order, self.given)
    }
}

//! `shtempel forfeit GAME white`: a game lost by forfeit by the side given
//! (`+/-`), then a pass.

use super::*;

#[derive(clap::Args)]
pub struct Args {
    game: String,
    /// The side that loses: white or black.
    #[arg(value_parser = parse_side)]
    loser: Color,
    #[arg(long)]
    why: Option<String>,
    #[arg(long)]
    pub today: Option<NaiveDate>,
    #[arg(long)]
    json: bool,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let order = Order::Award {
            game: self.game,
            result: GameResult::loss_of(self.loser),
            forfeit: true,
            why: self.why,
        };
        order_command(cx, order, self.today, self.json)
    }
}

//! `shtempel undo GAME`: a game's last letter taken back (its moves and
//! their days), then a pass.

use super::*;

#[derive(clap::Args)]
pub struct Args {
    game: String,
    #[arg(long)]
    why: Option<String>,
    #[arg(long)]
    pub today: Option<NaiveDate>,
    #[arg(long)]
    json: bool,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let order = Order::Undo {
            game: self.game,
            why: self.why,
        };
        order_command(cx, order, self.today, self.json)
    }
}

//! `shtempel withdraw PLAYER`: a player withdraws; his games as `[rules]
//! withdrawal` says (lost by forfeit, or annulled), each told to its
//! players and the chief secretary, then a pass.

use super::*;

#[derive(clap::Args)]
pub struct Args {
    /// The player's id.
    player: String,
    #[arg(long)]
    why: Option<String>,
    #[arg(long)]
    pub today: Option<NaiveDate>,
    #[arg(long)]
    json: bool,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let order = Order::Withdraw {
            player: self.player,
            why: self.why,
        };
        order_command(cx, order, self.today, self.json)
    }
}

//! `shtempel withdraw PLAYER`: a player withdraws; his games as `[rules]
//! withdrawal` says (lost by forfeit, or annulled), each told to its
//! players and the chief secretary, then a pass.

use shtempel::clerk::{Order, order};

use super::director::{Given, order_command};
use super::{Context, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// The player's id.
    player: String,
    #[command(flatten)]
    pub given: Given,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let player = self.player;
        let withdraw = |why| Order::Withdraw(order::Withdraw { player, why });
        order_command(cx, withdraw, self.given)
    }
}

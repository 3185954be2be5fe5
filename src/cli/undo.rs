//! `shtempel undo GAME`: a game's last letter taken back (its moves and
//! their days), then a pass.

use shtempel::clerk::{Order, order};

use super::director::{Given, order_command};
use super::{Context, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// The game's id.
    game: String,
    #[command(flatten)]
    pub given: Given,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let game = self.game;
        order_command(cx, |why| Order::Undo(order::Undo { game, why }), self.given)
    }
}

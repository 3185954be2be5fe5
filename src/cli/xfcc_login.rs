//! `shtempel xfcc-login PLAYER`: a player's login to the Xfcc server sent
//! to him (as his `XFCC` letter would bring it), then a pass.

use shtempel::clerk::{Order, order};

use super::before_pass::Before;
use super::pass::{PassArgs, poll};
use super::{Context, Failure};

#[derive(clap::Args)]
pub struct Args {
    /// The player's id.
    player: String,
    #[command(flatten)]
    pub pass: PassArgs,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let (configs, tournament) = cx.picked()?;
        let day = self.pass.today.unwrap_or_else(|| cx.now.date_naive());
        let order = Order::IssueLogin(order::IssueLogin {
            player: self.player,
            day,
        });
        let before = Before::Order {
            tournament: Some(&tournament),
            order,
        };
        poll(&configs, cx.now, &self.pass, before)
    }
}

//! `shtempel accept KEY`: a refused letter taken after all, its move as
//! the director reads it (the letter's own postmark, dates and fraction),
//! then a pass.

use shtempel::clerk::{Order, order};

use super::before_pass::Before;
use super::director::Given;
use super::{Context, Failure, load_all, pick, poll};

#[derive(clap::Args)]
pub struct Args {
    /// The letter's key (`today` and the run's events give it).
    key: String,
    /// The move (and any variant) the letter meant: `12. Nf3`; leave it
    /// out to take the moves as the clerk read them.
    #[arg(long = "move")]
    moves: Option<String>,
    /// The player (by id) whose letter it is, where it came from an
    /// address the config does not know.
    #[arg(long = "as")]
    sender: Option<String>,
    /// With --as: the address the letter came from is his from then on
    /// (the clerk adds it to his entry's `emails`).
    #[arg(long, requires = "sender")]
    add_address: bool,
    /// The game, if the letter did not say it right.
    #[arg(long)]
    game: Option<String>,
    #[command(flatten)]
    pub given: Given,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let configs = load_all(&cx.config)?;
        if let Some(id) = cx.tournament() {
            pick(&cx.config, configs.clone(), Some(id))?;
        }
        let order = Order::Accept(order::Accept {
            key: self.key,
            moves: self.moves,
            sender: self.sender,
            add_address: self.add_address,
            game: self.game,
            event_named: cx.tournament().is_some(),
            why: self.given.why,
        });
        let before = Before::Order {
            tournament: cx.tournament(),
            order,
        };
        poll(&configs, cx.now, &self.given.pass, before)
    }
}

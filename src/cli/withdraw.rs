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
        let (configs, tournament) = cx.picked()?;
        let order = Before::Withdraw {
            tournament: &tournament,
            player: &self.player,
            why: self.why.as_deref(),
        };
        poll(&configs, cx.now, self.today, self.json, order)
    }
}

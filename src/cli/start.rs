//! `shtempel start`: each player's start sheet by registered letter
//! (10.3.2), then a pass; a player who got one is never sent another.

use super::before_pass::Before;
use super::pass::PassArgs;
use super::{Context, Failure, load_all, pick, poll};

/// `start`'s words are a pass's alone.
pub type Args = PassArgs;

pub fn run(pass: &PassArgs, cx: &Context) -> Result<u8, Failure> {
    let configs = load_all(&cx.config)?;
    let only = cx.tournament();
    // The one given must be one of them.
    if let Some(id) = only {
        pick(&cx.config, configs.clone(), Some(id))?;
    }
    poll(&configs, cx.now, pass, Before::StartSheets(only))
}

//! `shtempel poll`: one pass over every tournament the clerk serves.

use super::before_pass::Before;
use super::pass::PassArgs;
use super::pass::poll;
use super::{Context, Failure, load_all, usage};

/// `poll`'s words are a pass's alone.
pub type Args = PassArgs;

pub fn run(pass: &PassArgs, cx: &Context) -> Result<u8, Failure> {
    let configs = load_all(&cx.config)?;
    // Before every tournament's start, nothing is counted at all.
    if let Some(day) = pass.today
        && let Some(first) = configs.iter().map(|c| c.start_date).min()
        && day < first
    {
        return Err(usage(format!(
            "poll --today {day}: the tournament starts on {first}, and nothing is \
             counted before it; give a day on or after it, or leave --today out"
        )));
    }
    poll(&configs, cx.now, pass, Before::Nothing)
}

//! `shtempel today`: what falls due today and in the days ahead, and the
//! mail that changed nothing; changes nothing.

use std::io::Write;

use chrono::{NaiveDate, Utc};

use shtempel::config::Config;
use shtempel::printable::{printable, printable_json};

use super::database::{database_error, database_or_run, open_store};
use super::output::Printer;
use super::{Context, Failure, clock};

#[derive(clap::Args)]
pub struct Args {
    /// How many days ahead (and back, for the mail), at most 3660.
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(0..=3660))]
    days: u32,
    /// Count as on this date (default: today in the tournament's zone).
    #[arg(long)]
    today: Option<NaiveDate>,
    /// The agenda as JSON on standard output.
    #[arg(long)]
    json: bool,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let configs = cx.given_or_all()?;
        desk(
            &configs,
            (cx.now, self.today),
            self.days,
            Printer::of(self.json),
        )
    }
}

/// `today`: every tournament's agenda through `days` ahead, by day, then
/// the letters of the last `days` that changed nothing.
pub(super) fn desk(
    configs: &[Config],
    (now, today): (chrono::DateTime<Utc>, Option<NaiveDate>),
    days: u32,
    printer: Printer,
) -> Result<u8, Failure> {
    let Some(first) = configs.first() else {
        return Ok(0);
    };
    let store = open_store(first)?;
    let mut due = Vec::new();
    for config in configs {
        let day = clock(config, now, today).today;
        let through = shtempel::rules::add_days(day, days);
        let agenda = shtempel::desk::agenda_of(config, &store, day, through)
            .map_err(|message| database_or_run(config, message))?;
        due.extend(agenda);
    }
    due.sort_by_key(|item| item.day);
    let day = clock(first, now, today).today;
    let since = day - chrono::Days::new(u64::from(days));
    let unheeded = store
        .changed_nothing(since)
        .map_err(|e| database_error(first, &e))?;
    let through = shtempel::rules::add_days(day, days);
    let mut text = String::new();
    if printer == Printer::Json {
        let value = shtempel::desk::to_json(day, through, &due, &unheeded);
        text = format!("{}\n", printable_json(&value.to_string()));
    } else {
        let mut line = |line: String| {
            text.push_str(&printable(&line, false));
            text.push('\n');
        };
        line(format!("Due from {day} through {through}:"));
        if due.is_empty() {
            line("  nothing".into());
        }
        for item in &due {
            line(format!(
                "  {}  game {}  {}",
                item.day,
                item.label(),
                item.text()
            ));
        }
        line(format!("Mail since {since} that changed nothing:"));
        if unheeded.is_empty() {
            line("  none".into());
        }
        let arbiters: Vec<&str> = configs
            .iter()
            .map(|config| config.chief_arbiter.as_str())
            .collect();
        for letter in &unheeded {
            let sender = letter.sender.as_deref().unwrap_or_default();
            // A letter read in a game (its tag or thread named the event)
            // is that event's; else any event its writer plays in.
            let events: Vec<&str> = match letter.game.as_ref().and_then(|key| key.tournament()) {
                Some(event) => vec![event],
                None => configs
                    .iter()
                    .filter(|config| config.player_by_email(sender).is_some())
                    .map(|config| config.tournament_id.as_str())
                    .collect(),
            };
            let text = shtempel::desk::unheeded_text(letter, &arbiters, &events);
            line(format!("  {text}"));
        }
    }
    // Written at once; a reader that stops early (`| head`) is no error.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(0)
}

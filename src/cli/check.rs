//! `shtempel check FILE`: how a letter reads and what the clerk would do;
//! changes nothing.

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{NaiveDate, Utc};

use shtempel::config::Config;
use shtempel::mail::Envelope;
use shtempel::printable::printable;
use shtempel::store::{DatabaseFile, Store};

use super::database::database_error;
use super::wiring::{clerks, directory, templates_of};
use super::{Context, Failure, clock, load, load_all, run_error, usage};

#[derive(clap::Args)]
pub struct Args {
    /// The letter as a whole message (.eml).
    file: PathBuf,
    /// Check as on this date (YYYY-MM-DD; default: today in the tournament's zone).
    #[arg(long)]
    today: Option<NaiveDate>,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        // The letter is routed among the folder's tournaments as a poll
        // routes it (one named by --tournament alone), then read and
        // planned as its event reads letters: what a poll would do.
        let configs = match cx.tournament() {
            Some(_) => vec![load(&cx.config, cx.tournament())?],
            None => load_all(&cx.config)?,
        };
        check(&configs, cx, self.today, &self.file)
    }
}

pub(super) fn check(
    configs: &[Config],
    cx: &Context,
    today: Option<NaiveDate>,
    file: &Path,
) -> Result<u8, Failure> {
    let Some(first) = configs.first() else {
        return Err(usage("no tournament".to_string()));
    };
    let raw =
        std::fs::read(file).map_err(|e| usage(format!("cannot read {}: {e}", file.display())))?;
    let (templates, template_of) = templates_of(configs)?;
    let directory = directory(configs, &templates, &template_of);
    let clerks = clerks(&directory, cx.now, today);
    // Read as `poll` would find it; an older schema is upgraded in memory,
    // the file unchanged (`check` writes nothing).
    let store = match Store::inspect(&first.database) {
        DatabaseFile::Older(_) => Store::read_upgraded(&first.database),
        _ if first.database.exists() => Store::open(&first.database),
        _ => Store::in_memory(),
    }
    .map_err(|e| database_error(first, &e))?;
    let clock = clerks
        .first()
        .map_or_else(|| clock(first, cx.now, today), |c| c.clock);
    // A file saved from a mail program has no `Received:` header: it
    // arrived when it was saved, or on the day checked as (`--today`), if
    // that is earlier; never after the day the clerk acts as.
    let modified = std::fs::metadata(file)
        .and_then(|m| m.modified())
        .map(chrono::DateTime::<Utc>::from)
        .map_or(clock.now, |modified| modified.min(clock.now));
    let arrived = shtempel::mail::source::maildir::topmost_received(&raw).unwrap_or(modified);
    let envelope = Envelope {
        key: file.display().to_string(),
        size: raw.len(),
        raw,
        arrived,
        channel: shtempel::rules::Channel::Letter,
    };
    let prepared = shtempel::clerk::Prepared::new(first, &envelope);
    let route =
        shtempel::clerk::route_prepared(&directory, &store, &prepared).map_err(run_error)?;
    let config = &configs[route.tournament];
    let clerk = clerks
        .iter()
        .find(|clerk| std::ptr::eq(clerk.config, config))
        .ok_or_else(|| usage(format!("no templates for {}", config.tournament_id)))?;
    let prepared = shtempel::clerk::Prepared {
        route: Some(route),
        ..prepared.read_for(config, &envelope)
    };
    // The record is read as it is now: a day before its last one is said
    // so, not judged as if the later moves were not made.
    if let Some(day) = today
        && let Some(last) = store.last_day().map_err(|e| database_error(config, &e))?
        && day < last
    {
        eprintln!(
            "check --today {day}: the clerk's record goes on to {last}; the letter is judged \
             against the record as it is now, not as it stood on {day}"
        );
    }
    let plan = clerk
        .plan_prepared(&store, &envelope, &prepared)
        .map_err(run_error)?;
    // A leave taken in his other events too: their notices, as the poll
    // sends them after the letter's.
    let elsewhere: Vec<&shtempel::clerk::SaidPlan> =
        plan.elsewhere.iter().map(|(_, plan)| plan).collect();
    // An order is shown as the clerk carries it out: its first word read
    // against the tournaments it serves (`REPLACE petrov …` names a
    // player, not an event called petrov).
    let own = Some(config.tournament_id.as_str());
    let read = prepared.read.as_ref().map(|read| shtempel::letter::Letter {
        rulings: read
            .rulings
            .iter()
            .map(|r| directory.resolve(r, own))
            .collect(),
        ..read.clone()
    });
    print_plan(&plan, &elsewhere, read.as_ref(), config, &envelope);
    Ok(0)
}

/// What the clerk read and would do, written whole, then printed with the
/// letter's control characters escaped.
fn print_plan(
    plan: &shtempel::clerk::SaidPlan,
    elsewhere: &[&shtempel::clerk::SaidPlan],
    read: Option<&shtempel::letter::Letter>,
    config: &Config,
    envelope: &Envelope,
) {
    let mut out = Vec::new();
    if let Some(letter) = &plan.writes.letter {
        let _ = writeln!(out, "postmark: {}", letter.postmark);
        let _ = writeln!(
            out,
            "from: {}",
            letter.sender.as_deref().unwrap_or("(unknown)")
        );
        let _ = writeln!(out, "game: {}", letter.game.as_deref().unwrap_or("(none)"));
        let _ = writeln!(
            out,
            "would be: {:?} ({})",
            letter.disposition, letter.reason
        );
        // The whole reading, even where the database keeps only what it
        // counts (`clerk::stored_reading`).
        if letter.parse_json.is_some()
            && let Some(read) = read
        {
            let pretty = serde_json::to_string_pretty(read).unwrap_or_default();
            let _ = writeln!(out, "read: {pretty}");
        }
        // What was taken for the writer's own text, quotes and signature cut.
        if let Some(mail) = shtempel::mail::format::mime::parse(&envelope.raw, &config.address)
            .filter(|mail| mail.automatic.is_none())
        {
            let _ = writeln!(out, "own text (line: text; quotes and signature cut):");
            for (number, line) in shtempel::letter::own_lines(&mail.text) {
                if !line.trim().is_empty() {
                    let _ = writeln!(out, "  {number:>3}: {line}");
                }
            }
        }
    }
    for event in &plan.writes.events {
        let _ = writeln!(out, "event: {} {}", event.event, event.detail);
    }
    // The letter's own messages, then those of the other games it changes
    // (a block of a letter for several games, a withdrawal's games), then
    // a leave's in his other events.
    let plans = std::iter::once(plan)
        .chain(&plan.more)
        .chain(elsewhere.iter().flat_map(|plan| &plan.more));
    for message in plans.flat_map(|plan| &plan.messages) {
        let _ = writeln!(
            out,
            "\n==== {} to {} ====\nSubject: {}\n\n{}",
            message.kind.header(),
            message.addresses().join(", "),
            message.words.subject,
            message.words.body
        );
    }
    let text = String::from_utf8_lossy(&out);
    let _ = std::io::stdout()
        .lock()
        .write_all(printable(&text, true).as_bytes());
}

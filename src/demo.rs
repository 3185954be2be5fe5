//! `shtempel demo`: the main job on the embedded default. A sample tournament
//! (two games, letters in Russian and English: KOI8-R, windows-1251 HTML,
//! quoted-printable, ICCF notation, a conditional variant, a correction, a
//! warning and a penalty, an auto-reply, a stranger, a duplicate, an overstep by
//! silence with its file, a protest and the arbiter's decision) is played from a
//! Maildir into a file outbox, one `poll` per day, printing what the clerk did.

use std::io::Write;
use std::path::Path;

use chrono::{NaiveDate, TimeZone, Utc};

use crate::clerk::{self, Clerk, Clock, Directory, Event, EventKind};
use crate::config::Config;
use crate::error::Error;
use crate::mail::source::maildir::Maildir;
use crate::mail::transport::file::FileTransport;
use crate::render::{self, Templates};
use crate::store::Store;
use crate::{Lang, run};

const CONFIG: &str = include_str!("demo/config.toml");

/// The letters, named by the day they arrive.
const LETTERS: &[(&str, &[u8])] = &[
    (
        "2026-11-02-01-petrov-d4.eml",
        include_bytes!("demo/2026-11-02-01-petrov-d4.eml"),
    ),
    (
        "2026-11-03-02-ivanov-e4.eml",
        include_bytes!("demo/2026-11-03-02-ivanov-e4.eml"),
    ),
    (
        "2026-11-04-03-ivanov-iccf.eml",
        include_bytes!("demo/2026-11-04-03-ivanov-iccf.eml"),
    ),
    (
        "2026-11-05-04-ivanov-vacation.eml",
        include_bytes!("demo/2026-11-05-04-ivanov-vacation.eml"),
    ),
    (
        "2026-11-06-05-petrov-c4.eml",
        include_bytes!("demo/2026-11-06-05-petrov-c4.eml"),
    ),
    (
        "2026-11-07-06-petrov-e5.eml",
        include_bytes!("demo/2026-11-07-06-petrov-e5.eml"),
    ),
    (
        "2026-11-07-07-stranger.eml",
        include_bytes!("demo/2026-11-07-07-stranger.eml"),
    ),
    (
        "2026-11-09-08-petrov-nc3.eml",
        include_bytes!("demo/2026-11-09-08-petrov-nc3.eml"),
    ),
    (
        "2026-11-12-09-ivanov-nf3.eml",
        include_bytes!("demo/2026-11-12-09-ivanov-nf3.eml"),
    ),
    (
        "2026-11-12-10-petrov-nc6.eml",
        include_bytes!("demo/2026-11-12-10-petrov-nc6.eml"),
    ),
    (
        "2026-11-12-11-petrov-nc6-again.eml",
        include_bytes!("demo/2026-11-12-11-petrov-nc6-again.eml"),
    ),
    (
        "2026-11-14-12-ivanov-nf6.eml",
        include_bytes!("demo/2026-11-14-12-ivanov-nf6.eml"),
    ),
    (
        "2026-11-15-13-ivanov-bb5.eml",
        include_bytes!("demo/2026-11-15-13-ivanov-bb5.eml"),
    ),
    (
        "2026-11-18-14-petrov-bg5-draw.eml",
        include_bytes!("demo/2026-11-18-14-petrov-bg5-draw.eml"),
    ),
    (
        "2026-11-20-15-petrov-a6.eml",
        include_bytes!("demo/2026-11-20-15-petrov-a6.eml"),
    ),
    (
        "2026-11-21-16-ivanov-draw.eml",
        include_bytes!("demo/2026-11-21-16-ivanov-draw.eml"),
    ),
    (
        "2027-01-04-17-ivanov-protest.eml",
        include_bytes!("demo/2027-01-04-17-ivanov-protest.eml"),
    ),
    (
        "2027-01-08-18-arbiter-confirm.eml",
        include_bytes!("demo/2027-01-08-18-arbiter-confirm.eml"),
    ),
];

/// Days on which nothing arrives but the calendar has work.
const CALENDAR_DAYS: &[&str] = &[
    "2026-12-20",
    "2026-12-27",
    "2026-12-30",
    "2026-12-31",
    "2027-01-15",
];

fn io(error: std::io::Error) -> Error {
    Error::files(error)
}

/// Writes the demo tournament into `dir`: configuration, templates, an empty Maildir.
pub fn write_tournament(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(io)?;
    std::fs::write(dir.join("shtempel.toml"), CONFIG).map_err(io)?;
    for (lang, folder) in [(Lang::En, "en"), (Lang::Ru, "ru")] {
        let target = dir.join("templates").join(folder);
        std::fs::create_dir_all(&target).map_err(io)?;
        for name in render::names() {
            let text = render::default_template(lang, name).unwrap_or_default();
            std::fs::write(target.join(format!("{name}.txt")), text).map_err(io)?;
        }
        std::fs::write(
            target.join("phrases.toml"),
            crate::phrases::builtin_text(lang),
        )
        .map_err(io)?;
    }
    Maildir::create(&dir.join("mail/inbox")).map_err(Error::mail)?;
    Ok(())
}

/// Where the games stand at the demo's end: each game's chart, status and
/// result.
fn standings(
    out: &mut dyn Write,
    config: &Config,
    templates: &Templates,
    store: &Store,
) -> Result<(), Error> {
    let w = |out: &mut dyn Write, text: String| writeln!(out, "{text}").map_err(io);
    w(out, "\n== Where the games stand ==".into())?;
    for game in config.draw().games() {
        let state = clerk::load(config, store, game)?;
        let chart = clerk::stored_chart(&state, config, store, config.language)?;
        w(out, format!("\n{}", chart.to_text(templates.phrases())))?;
        w(
            out,
            format!(
                "Status: {:?}, result: {}",
                state.ledger.status(),
                state.ledger.standing.result_pgn().unwrap_or("none")
            ),
        )?;
    }
    Ok(())
}

/// A run's event as the demo prints it.
fn event_line(event: &Event) -> String {
    let game = event
        .game
        .as_ref()
        .map(|g| format!("game {g}: "))
        .unwrap_or_default();
    match event.event {
        EventKind::Sent => format!("    -> sent {}", event.detail),
        other => format!("  {other}: {game}{}", event.detail),
    }
}

/// Plays the demo, printing to `out`. `keep` names a folder to keep it in.
pub fn run(keep: Option<&Path>, out: &mut dyn Write) -> Result<(), Error> {
    let temporary = tempfile::Builder::new()
        .prefix("shtempel-demo-")
        .tempdir()
        .map_err(io)?;
    let dir = keep.unwrap_or(temporary.path()).to_path_buf();
    write_tournament(&dir)?;
    let config = Config::load(&dir.join("shtempel.toml")).map_err(Error::config)?;
    let templates = Templates::load(&config.templates, config.language).map_err(Error::template)?;
    let mut store = Store::open(&config.database)?;
    let maildir_path = dir.join("mail/inbox");
    let mut source = Maildir::open(&maildir_path).map_err(Error::mail)?;
    let mut transport = FileTransport::open(&dir.join("mail/outbox")).map_err(Error::mail)?;
    let w = |out: &mut dyn Write, text: String| writeln!(out, "{text}").map_err(io);

    w(
        out,
        format!(
            "shtempel demo: the tournament \"{}\" in {}",
            config.tournament_name,
            dir.display()
        ),
    )?;
    w(out, "Two players, two games; each step delivers that day's letters to the Maildir and runs one poll.".into())?;
    let mut days: Vec<&str> = LETTERS
        .iter()
        .map(|(name, _)| &name[..10])
        .chain(CALENDAR_DAYS.iter().copied())
        .collect();
    days.sort_unstable();
    days.dedup();
    let last_day: NaiveDate = days
        .last()
        .and_then(|d| d.parse().ok())
        .unwrap_or(config.start_date);
    let mut sent = 0;
    for day in days {
        let today: NaiveDate = day
            .parse()
            .map_err(|_| Error::internal(format!("bad demo day {day}")))?;
        w(out, format!("\n== {today} =="))?;
        for (name, raw) in LETTERS.iter().filter(|(name, _)| name.starts_with(day)) {
            source.deliver(name, raw).map_err(io)?;
            w(
                out,
                format!("  letter arrives: {}", &name[11..name.len() - 4]),
            )?;
        }
        let noon = Utc.from_utc_datetime(&today.and_hms_opt(9, 0, 0).unwrap_or_default());
        let directory = Directory::of(std::slice::from_ref(&config));
        let clerk = Clerk::new(&config, &templates, Clock::of_day(today, noon), &directory);
        let mut lines = Vec::new();
        let summary = run::poll(
            std::slice::from_ref(&clerk),
            &mut store,
            &mut source,
            &mut transport,
            run::Hooks {
                events: &mut |event: Event| lines.push(event_line(&event)),
                progress: &mut |_, _| {},
                stop: &std::sync::atomic::AtomicBool::new(false),
            },
        )?;
        for line in lines {
            w(out, line)?;
        }
        sent += summary.sent;
    }
    standings(out, &config, &templates, &store)?;
    w(
        out,
        format!(
            "\n{sent} messages were sent; each is an .eml file in {}.",
            dir.join("mail/outbox").display()
        ),
    )?;
    let report = dir.join("report");
    crate::report::site::write(
        &config,
        &store,
        last_day,
        &report,
        None,
        None,
        &mut |_, _| {},
    )?;
    w(
        out,
        format!(
            "The tournament report (cross-table, games, time charts) is in {}.",
            report.join("index.html").display()
        ),
    )?;
    if keep.is_none() {
        w(out, "The folder is temporary and is removed now; run `shtempel demo --keep DIR` to keep it.".into())?;
    }
    Ok(())
}

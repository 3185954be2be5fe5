//! The clerk in this process (quinn-proto's `Pair`): the tournament's own
//! files (its config, Maildir, outbox and database in the temporary
//! folder) read and written by the library's adapters, one pass run by
//! `run::poll` on a fixed clock, and what it did handed back as values. A
//! test of a rule or a message needs no process; the binary's tests keep
//! the contract (exit codes, what is printed, the commands).

use std::sync::atomic::AtomicBool;

use chrono::{DateTime, NaiveDate, Utc};
use shtempel::clerk::{Clerk, Clock, Directory, Event, EventKind};
use shtempel::config::{Config, Draw, Source, Transport, load_all};
use shtempel::mail::source::maildir::Maildir;
use shtempel::mail::transport::file::FileTransport;
use shtempel::render::Templates;
use shtempel::rules::PairingSystem;
use shtempel::run::{self, Hooks};
use shtempel::store::Store;

use super::Tournament;

/// The machine's moment every in-process pass starts from: the clock is
/// moved to the pass's day at this time of day, as `--today` moves the
/// binary's (18:00 in Moscow, after the tests' letters arrive at noon).
const MACHINE_NOW: &str = "2026-11-01T15:00:00Z";

/// What one pass did.
pub struct Pass {
    pub events: Vec<Event>,
}

impl Pass {
    /// How many of its events are of `kind`.
    pub fn count(&self, kind: EventKind) -> usize {
        self.events
            .iter()
            .filter(|event| event.event == kind)
            .count()
    }

    /// Whether it did something of `kind`.
    pub fn did(&self, kind: EventKind) -> bool {
        self.count(kind) > 0
    }

    /// Its events, one a line, for a failing assertion.
    pub fn log(&self) -> String {
        let lines: Vec<String> = self
            .events
            .iter()
            .map(|event| format!("{} {}", event.event, event.detail))
            .collect();
        lines.join("\n")
    }
}

impl Tournament {
    /// One pass as on `day`, in this process; it must not fail.
    pub fn pass(&self, day: &str) -> Pass {
        self.pass_of(day, self.configs())
    }

    /// One pass as on `day`, in this process, of a tournament whose games
    /// `system` makes of its players (the loader's lists, which the file
    /// may leave empty, set aside).
    pub fn pass_paired_by(&self, day: &str, system: &dyn PairingSystem) -> Pass {
        let configs = self.configs().into_iter();
        let paired = configs.map(|config| {
            let draw = Draw::paired(system, &config.players).expect("the system pairs the players");
            config.with_draw(draw)
        });
        self.pass_of(day, paired.collect())
    }

    fn configs(&self) -> Vec<Config> {
        load_all(&self.path().join("shtempel.toml")).expect("the config loads")
    }

    /// One pass at `time` (`HH:MM` of the tournament's zone) on `day`, as
    /// cron's run at that hour: what goes from an hour of the day (a
    /// digest) goes only after it.
    pub fn pass_at(&self, day: &str, time: &str) -> Pass {
        let at = format!("{day} {time}");
        self.pass_clocked(day, self.configs(), &|config: &Config| {
            let local = chrono::NaiveDateTime::parse_from_str(&at, "%Y-%m-%d %H:%M")
                .expect("a day and HH:MM");
            let now = local
                .and_local_timezone(config.timezone)
                .single()
                .expect("a moment of the zone")
                .with_timezone(&Utc);
            Clock::of(config.timezone, now, None)
        })
    }

    fn pass_of(&self, day: &str, configs: Vec<Config>) -> Pass {
        let parsed: NaiveDate = day.parse().expect("a day as YYYY-MM-DD");
        let now: DateTime<Utc> = MACHINE_NOW.parse().unwrap();
        self.pass_clocked(day, configs, &|config: &Config| {
            Clock::of(config.timezone, now, Some(parsed))
        })
    }

    fn pass_clocked(
        &self,
        day: &str,
        configs: Vec<Config>,
        clock: &dyn Fn(&Config) -> Clock,
    ) -> Pass {
        let day: NaiveDate = day.parse().expect("a day as YYYY-MM-DD");
        let templates: Vec<Templates> = configs
            .iter()
            .map(|config| Templates::load(&config.templates, config.language).unwrap())
            .collect();
        let directory = Directory::of(&configs).with_templates(templates.iter().collect());
        // One seed for every pass: the passwords a test is sent are the
        // same each run.
        let seed = shtempel::xfcc::login::Seed::from_bytes([42; 32]);
        let clerks: Vec<Clerk> = Clerk::of_each(&directory, |config| clock(config))
            .into_iter()
            .map(|clerk| clerk.with_seed(seed))
            .collect();
        let first = &configs[0];
        let mut store = Store::open(&first.database).expect("the database opens");
        store.note_run_day(day).unwrap();
        let (mut source, mut transport) = adapters(first);
        let mut events = Vec::new();
        run::poll(
            &clerks,
            &mut store,
            &mut source,
            &mut transport,
            Hooks {
                events: &mut |event| events.push(event),
                progress: &mut |_, _| {},
                stop: &AtomicBool::new(false),
            },
        )
        .unwrap_or_else(|error| panic!("the pass of {day} failed: {error}"));
        Pass { events }
    }
}

/// The Maildir and the outbox folder a test's tournament is served from.
fn adapters(config: &Config) -> (Maildir, FileTransport) {
    let Source::Maildir { path } = &config.source else {
        panic!("an in-process pass reads a Maildir");
    };
    let Transport::File { path: outbox } = &config.transport else {
        panic!("an in-process pass writes to an outbox folder");
    };
    (
        Maildir::open(path).unwrap(),
        FileTransport::open(outbox).unwrap(),
    )
}

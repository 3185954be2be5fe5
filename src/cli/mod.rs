//! The command line's commands (cargo's and uv's layout): one
//! file a command, with its arguments (a clap `Args`) and its call, and
//! beside them what several share: the database opened (`database`), the
//! adapters wired (`wiring`), the pass (`pass`), the director's orders
//! carried out before it (`before_pass`) and the words every order command
//! shares (`director`), what is printed (`output`). `main.rs` parses the
//! line, reads the clock and hands each command its [`Context`].

use std::path::{Path, PathBuf};

use chrono::{NaiveDate, Utc};
use shtempel::clerk::Clock;
use shtempel::config::Config;

use shtempel::store::Store;

mod before_pass;
mod database;
mod director;
pub(crate) mod output;
mod pass;
mod wiring;

pub mod accept;
pub mod adopt;
pub mod chart;
pub mod check;
pub mod demo;
pub mod doctor;
pub mod forfeit;
pub mod games;
pub mod init;
pub mod letters;
pub mod pairings;
pub mod pgn;
pub mod poll;
pub mod ratings;
pub mod read;
pub mod replace;
pub mod report;
pub mod result;
pub mod retry;
pub mod serve;
pub mod start;
pub mod today;
pub mod undo;
pub mod watch;
pub mod withdraw;
pub mod xfcc_login;

use self::database::database_error;
use self::director::picked;
use self::pass::poll;

/// What every command is given: the configuration file, the tournament
/// named (`--tournament`), and the moment of the run, read once in `main`.
pub struct Context {
    pub config: PathBuf,
    pub tournament: Option<String>,
    pub now: chrono::DateTime<Utc>,
}

impl Context {
    fn tournament(&self) -> Option<&str> {
        self.tournament.as_deref()
    }

    /// The tournament given (`--tournament`), or every one of the config:
    /// what `games`, `today` and `pairings` show.
    fn given_or_all(&self) -> Result<Vec<Config>, Failure> {
        match self.tournament() {
            Some(id) => Ok(vec![load(&self.config, Some(id))?]),
            None => load_all(&self.config),
        }
    }

    /// Every tournament of the config, and the id of the one a command is
    /// about (the one given, or the only one).
    fn picked(&self) -> Result<(Vec<Config>, String), Failure> {
        picked(&self.config, self.tournament())
    }
}

/// A failure and its exit code.
pub struct Failure {
    pub code: u8,
    pub message: String,
}

pub(super) fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
    }
}

pub fn run_error(message: impl std::fmt::Display) -> Failure {
    Failure {
        code: 1,
        message: message.to_string(),
    }
}

/// Every tournament the config file serves.
pub(super) fn load_all(path: &Path) -> Result<Vec<Config>, Failure> {
    shtempel::config::load_all(path).map_err(|e| usage(e.to_string()))
}

/// The tournament a command is about: the one given, or the only one.
pub(super) fn load(path: &Path, tournament: Option<&str>) -> Result<Config, Failure> {
    pick(path, load_all(path)?, tournament)
}

pub(super) fn pick(
    path: &Path,
    configs: Vec<Config>,
    tournament: Option<&str>,
) -> Result<Config, Failure> {
    let ids = || {
        configs
            .iter()
            .map(|c| c.tournament_id.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match tournament {
        Some(id) => {
            let all = ids();
            configs
                .into_iter()
                .find(|c| shtempel::key::same_id(id, &c.tournament_id))
                .ok_or_else(|| {
                    usage(format!(
                        "--tournament {id}: {} serves no such tournament; it serves {all}",
                        path.display()
                    ))
                })
        }
        None if configs.len() > 1 => Err(usage(format!(
            "{} serves several tournaments ({}): say which with --tournament ID",
            path.display(),
            ids()
        ))),
        None => configs
            .into_iter()
            .next()
            .ok_or_else(|| usage(format!("{}: no tournament", path.display()))),
    }
}

/// The run's day: `--today`, else the date in the tournament's zone (see
/// [`Clock::of`]).
pub(super) fn clock(
    config: &Config,
    now: chrono::DateTime<Utc>,
    today: Option<NaiveDate>,
) -> Clock {
    Clock::of(config.timezone, now, today)
}

/// `--today DAY` of a command that acts on the record (or shows it) must
/// not be before the day the record goes on to.
pub(super) fn not_before_the_record(
    config: &Config,
    store: &Store,
    command: &str,
    day: NaiveDate,
    would: &str,
) -> Result<(), Failure> {
    let last = store.last_day().map_err(|e| database_error(config, &e))?;
    match last {
        Some(last) if day < last => Err(usage(format!(
            "{command} --today {day}: the clerk's record goes on to {last}, and a {command} \
             as of an earlier day would {would}; give a day on or after {last}, or leave \
             --today out"
        ))),
        _ => Ok(()),
    }
}

/// A `--today` after the machine's date is refused for a command that
/// changes the record, unless `--future` says it is meant. The machine's date is taken in the
/// zone furthest ahead (UTC+14), so
/// that no tournament's own today is ever refused.
pub fn not_after_the_machines_date(
    record_day: Option<NaiveDate>,
    future: bool,
    now: chrono::DateTime<Utc>,
) -> Result<(), Failure> {
    let machine = (now + chrono::Duration::hours(14)).date_naive();
    match record_day {
        Some(day) if day > machine && !future => Err(usage(format!(
            "--today {day} is after this machine's date ({}): a command that changes the \
             record acts as of today or an earlier day, since what it does to the record stays; \
             leave --today out, or give --future to act as of a day ahead (a simulation or a test)",
            now.date_naive()
        ))),
        _ => Ok(()),
    }
}

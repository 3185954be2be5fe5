//! The `shtempel` command line: parses arguments, reads the clock (the only
//! place that may), loads the configuration, wires the adapters and maps
//! outcomes to exit codes (contract.md 1): 0 success, 1 a run with a failed
//! letter or send, 2 bad usage or configuration.

use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::{NaiveDate, Utc};
use clap::{Parser, Subcommand, ValueEnum};
use shakmaty::Color;
use shtempel::clerk::{self, Award, AwardError, Clerk, Clock, Directory, Event, Sheet};
use shtempel::config::{Config, Source, Transport};
use shtempel::game::Replays;
use shtempel::key::GameKey;
use shtempel::mail::file::FileTransport;
use shtempel::mail::imap::{ImapSettings, ImapSource};
use shtempel::mail::maildir::Maildir;
use shtempel::mail::smtp::{Pace, SendmailSender, SmtpSender};
use shtempel::mail::{Envelope, MailSource};
use shtempel::printable::{printable, printable_json};
use shtempel::record::Record;
use shtempel::render::Templates;
use shtempel::rules::GameResult;
use shtempel::store::{DatabaseFile, Store};
use shtempel::{demo, run};

#[path = "cli/director.rs"]
mod director;
use director::*;

/// mimalloc instead of glibc's allocator, for Rust and (through `override`)
/// for SQLite too. A letter is read on one thread and dropped on another, and
/// glibc then takes the other thread's arena lock: a `poll` of 10,000 letters
/// made 28,000 futex calls. With mimalloc the same run takes a fifth less
/// time in a RAM folder (benches/README.md, change 27). `no_thp`: with
/// transparent huge pages its arenas doubled the peak RSS (36 -> 70 MB).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "shtempel",
    version,
    about = "An e-mail clerk for correspondence chess (section 10.3)"
)]
struct Cli {
    /// The tournament's configuration file (or the clerk's, naming a folder
    /// of tournaments).
    #[arg(long, global = true, default_value = "shtempel.toml")]
    config: PathBuf,
    /// Of a folder's tournaments, the one a command is about (`games`,
    /// `chart`, `pgn`, `report`, `check`, `start`); `poll` and `watch` serve
    /// them all.
    #[arg(long, global = true)]
    tournament: Option<String>,
    /// Let a command that changes the record act as of a `--today` after
    /// this machine's date (a simulation, a demo, a test): without it such
    /// a day is refused, for one typo would move the record on for good.
    #[arg(long, global = true)]
    future: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum ChartFormat {
    Text,
    Csv,
    Json,
    Svg,
}

#[derive(Subcommand)]
enum Command {
    /// One pass: fetch new letters, process them, send, keep the calendar.
    Poll {
        /// Act as on this date (YYYY-MM-DD): deadlines and the date of what is sent.
        #[arg(long)]
        today: Option<NaiveDate>,
        /// One JSON object per event on standard output.
        #[arg(long)]
        json: bool,
    },
    /// Mail each player his start sheet by registered letter (10.3.2), then
    /// a pass as `poll`; a player who got one is never sent another.
    Start {
        /// Act as on this date (YYYY-MM-DD).
        #[arg(long)]
        today: Option<NaiveDate>,
        #[arg(long)]
        json: bool,
    },
    /// What falls due today and in the next days, per tournament, and the
    /// mail of the last days that changed nothing; changes nothing.
    Today {
        /// How many days ahead (and back, for the mail), at most 3660.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(0..=3660))]
        days: u32,
        /// Count as on this date (default: today in the tournament's zone).
        #[arg(long)]
        today: Option<NaiveDate>,
        #[arg(long)]
        json: bool,
    },
    /// Set a game's result as the chief arbiter would (`RESULT 3 1-0`): the
    /// players and the chief secretary are told, then a pass as `poll`.
    Result {
        game: String,
        /// 1-0, 0-1 or 1/2.
        #[arg(value_parser = parse_result)]
        result: GameResult,
        /// The reason, for the note under the chart and the players.
        #[arg(long)]
        why: Option<String>,
        #[arg(long)]
        today: Option<NaiveDate>,
        #[arg(long)]
        json: bool,
    },
    /// Take a refused letter after all, its move as the director reads it
    /// (the letter's own postmark, dates and fraction), then a pass as `poll`.
    Accept {
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
        #[arg(long)]
        why: Option<String>,
        #[arg(long)]
        today: Option<NaiveDate>,
        #[arg(long)]
        json: bool,
    },
    /// A player withdraws: his games as `[rules] withdrawal` says (lost by
    /// forfeit, or annulled), each told to its players and the chief
    /// secretary, then a pass as `poll`.
    Withdraw {
        /// The player's id.
        player: String,
        #[arg(long)]
        why: Option<String>,
        #[arg(long)]
        today: Option<NaiveDate>,
        #[arg(long)]
        json: bool,
    },
    /// Take back a game's last letter (its moves and their days), telling
    /// both players and the chief secretary, then a pass as `poll`.
    Undo {
        game: String,
        #[arg(long)]
        why: Option<String>,
        #[arg(long)]
        today: Option<NaiveDate>,
        #[arg(long)]
        json: bool,
    },
    /// A player replaced by a newcomer (`--by`: the clerk gives his entry
    /// the newcomer's name and address; `--was`: the director did): the
    /// newcomer gets his games and each partner and the chief secretary are
    /// told, then a pass as `poll`.
    Replace {
        /// The player's id.
        player: String,
        /// After his entry was given the newcomer's name and address: whom
        /// he replaces, as the players knew him: "Name <address>".
        #[arg(long, required_unless_present = "by", conflicts_with = "by")]
        was: Option<String>,
        /// The newcomer, "Name <address>": the clerk gives the entry his
        /// name and address itself.
        #[arg(long)]
        by: Option<String>,
        #[arg(long)]
        why: Option<String>,
        #[arg(long)]
        today: Option<NaiveDate>,
        #[arg(long)]
        json: bool,
    },
    /// Score a game as lost by forfeit by the side given (`+/-`), then a
    /// pass as `poll`.
    Forfeit {
        game: String,
        /// The side that loses: white or black.
        #[arg(value_parser = parse_side)]
        loser: Color,
        #[arg(long)]
        why: Option<String>,
        #[arg(long)]
        today: Option<NaiveDate>,
        #[arg(long)]
        json: bool,
    },
    /// Stay connected and run a pass whenever mail comes (IMAP IDLE), and at
    /// least every `--interval` minutes for the calendar, until interrupted.
    Watch {
        /// Minutes between passes when no mail comes.
        #[arg(long, default_value_t = 20)]
        interval: u64,
        #[arg(long)]
        json: bool,
    },
    /// Dry run: how a letter reads and what the clerk would do; changes nothing.
    Check {
        /// The letter as a whole message (.eml).
        file: PathBuf,
        #[arg(long)]
        today: Option<NaiveDate>,
    },
    /// Every game: players, moves, totals, days left, status.
    Games {
        #[arg(long)]
        json: bool,
        /// Count days left as on this date (default: today in the tournament's zone).
        #[arg(long)]
        today: Option<NaiveDate>,
    },
    /// The time chart (Table 2) of one game.
    Chart {
        game: String,
        #[arg(long, value_enum, default_value = "text")]
        format: ChartFormat,
    },
    /// The game as PGN, with each move's dates and days in comments.
    Pgn {
        /// The game; leave out with --all.
        #[arg(required_unless_present = "all")]
        game: Option<String>,
        /// Every game of the tournament, one after another.
        #[arg(long, conflicts_with = "game")]
        all: bool,
    },
    /// Play a bundled sample tournament into a temporary folder and show what the clerk did.
    Demo {
        /// Keep the tournament in this folder instead of a temporary one.
        #[arg(long)]
        keep: Option<PathBuf>,
    },
    /// Write the tournament report (a static site of HTML pages) into a folder.
    Report {
        /// The folder; by default `[report] out` of the config.
        #[arg(long)]
        out: Option<PathBuf>,
        #[arg(long)]
        today: Option<NaiveDate>,
    },
    /// Create the tournament's database (a first `poll` does it too, while
    /// no letter has been done and nothing sent).
    Init,
    /// Make the games of a database kept by a tournament of its own file
    /// the games of `--tournament ID` of the folder (once, after moving that
    /// tournament into a folder).
    Adopt,
    /// List the letters set aside after failing run after run; with a KEY
    /// (or --all), put them back among the new letters for the next poll.
    Retry {
        /// The letter's key, as `retry` lists it.
        key: Option<String>,
        /// Every letter set aside.
        #[arg(long, conflicts_with = "key")]
        all: bool,
    },
    /// Read a letter's plain text and print what the clerk reads in it, as JSON.
    Read {
        /// The body text; `-` for standard input.
        file: PathBuf,
    },
}

/// A failure and its exit code.
struct Failure {
    code: u8,
    message: String,
}

fn usage(message: impl Into<String>) -> Failure {
    Failure {
        code: 2,
        message: message.into(),
    }
}

fn run_error(message: impl Into<String>) -> Failure {
    Failure {
        code: 1,
        message: message.into(),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A panic is caught around each letter and reported in words; nothing of
    // Rust's own panic output reaches a user.
    std::panic::set_hook(Box::new(|_| {}));
    // The one reading of the clock in the program (style.md: the clock is an input).
    #[allow(clippy::disallowed_methods)]
    let now = Utc::now();
    let outcome = std::panic::catch_unwind(|| dispatch(cli, now)).unwrap_or_else(|panic| {
        let text = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(run_error(format!(
            "internal error, please report it: {text}"
        )))
    });
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            eprintln!("shtempel: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

impl Command {
    /// The `--today` of a command that changes the record.
    fn record_day(&self) -> Option<NaiveDate> {
        match self {
            Command::Poll { today, .. }
            | Command::Start { today, .. }
            | Command::Result { today, .. }
            | Command::Accept { today, .. }
            | Command::Withdraw { today, .. }
            | Command::Undo { today, .. }
            | Command::Replace { today, .. }
            | Command::Forfeit { today, .. } => *today,
            _ => None,
        }
    }
}

/// A `--today` after the machine's date is refused for a command that
/// changes the record, unless `--future` says it is meant (issue 30, point
/// 6). The machine's date is taken in the zone furthest ahead (UTC+14), so
/// that no tournament's own today is ever refused.
fn not_after_the_machines_date(
    command: &Command,
    future: bool,
    now: chrono::DateTime<Utc>,
) -> Result<(), Failure> {
    let machine = (now + chrono::Duration::hours(14)).date_naive();
    match command.record_day() {
        Some(day) if day > machine && !future => Err(usage(format!(
            "--today {day} is after this machine's date ({}): a command that changes the \
             record acts as of today or an earlier day, since what it does to the record stays; \
             leave --today out, or give --future to act as of a day ahead (a simulation or a test)",
            now.date_naive()
        ))),
        _ => Ok(()),
    }
}

fn dispatch(cli: Cli, now: chrono::DateTime<Utc>) -> Result<u8, Failure> {
    not_after_the_machines_date(&cli.command, cli.future, now)?;
    match cli.command {
        Command::Demo { keep } => demo::run(keep.as_deref(), &mut std::io::stdout())
            .map(|()| 0)
            .map_err(run_error),
        Command::Read { file } => read_letter(&file),
        Command::Adopt => {
            let config = load(&cli.config, cli.tournament.as_deref())?;
            adopt(&config)
        }
        Command::Init => {
            let config = load(&cli.config, cli.tournament.as_deref())?;
            init(&config)
        }
        Command::Retry { key, all } => {
            // Letters set aside are the mailbox's, not an event's: every
            // tournament of a folder has the clerk's database and source,
            // so any of them serves (issue 31, point 8).
            let configs = load_all(&cli.config)?;
            let config = match cli.tournament.as_deref() {
                Some(id) => pick(&cli.config, configs, Some(id))?,
                None => configs
                    .into_iter()
                    .next()
                    .ok_or_else(|| usage("retry: the configuration serves no tournament"))?,
            };
            retry(&config, key.as_deref(), all)
        }
        Command::Poll { today, json } => {
            let configs = load_all(&cli.config)?;
            // Before every tournament's start, nothing is counted at all.
            if let Some(day) = today
                && let Some(first) = configs.iter().map(|c| c.start_date).min()
                && day < first
            {
                return Err(usage(format!(
                    "poll --today {day}: the tournament starts on {first}, and nothing is \
                     counted before it; give a day on or after it, or leave --today out"
                )));
            }
            poll(&configs, now, today, json, Before::Nothing)
        }
        Command::Start { today, json } => {
            let configs = load_all(&cli.config)?;
            let only = cli.tournament.as_deref();
            // The one given must be one of them.
            if let Some(id) = only {
                pick(&cli.config, configs.clone(), Some(id))?;
            }
            poll(&configs, now, today, json, Before::StartSheets(only))
        }
        Command::Today { days, today, json } => {
            let configs = match cli.tournament.as_deref() {
                Some(id) => vec![load(&cli.config, Some(id))?],
                None => load_all(&cli.config)?,
            };
            desk(&configs, (now, today), days, json)
        }
        Command::Result {
            game,
            result,
            why,
            today,
            json,
        } => {
            let order = GameOrder::Award(Award::directors(result, false, why));
            let at = (cli.config.as_path(), cli.tournament.as_deref());
            order_command(at, &game, order, (now, today), json)
        }
        Command::Accept {
            key,
            moves,
            sender,
            add_address,
            game,
            why,
            today,
            json,
        } => {
            let configs = load_all(&cli.config)?;
            if let Some(id) = cli.tournament.as_deref() {
                pick(&cli.config, configs.clone(), Some(id))?;
            }
            let order = Before::Accept {
                tournament: cli.tournament.as_deref(),
                key: &key,
                moves: moves.as_deref(),
                sender: sender.as_deref(),
                add_address,
                game: game.as_deref(),
                why: why.as_deref(),
            };
            poll(&configs, now, today, json, order)
        }
        Command::Replace {
            player,
            was,
            by,
            why,
            today,
            json,
        } => {
            let (configs, tournament) = picked(&cli.config, cli.tournament.as_deref())?;
            let newcomer = match by.as_deref() {
                Some(by) => Some(shtempel::letter::Newcomer::parse(by).ok_or_else(|| {
                    usage(format!(
                        "replace --by {by:?}: write the newcomer as \"Name <address>\""
                    ))
                })?),
                None => None,
            };
            let was = match (&was, &newcomer) {
                (Some(was), _) => Whom::Was(was),
                (None, Some(newcomer)) => Whom::By(newcomer),
                (None, None) => return Err(usage("replace: give --was or --by")),
            };
            let order = Before::Replace {
                tournament: &tournament,
                player: &player,
                was,
                why: why.as_deref(),
            };
            poll(&configs, now, today, json, order)
        }
        Command::Withdraw {
            player,
            why,
            today,
            json,
        } => {
            let (configs, tournament) = picked(&cli.config, cli.tournament.as_deref())?;
            let order = Before::Withdraw {
                tournament: &tournament,
                player: &player,
                why: why.as_deref(),
            };
            poll(&configs, now, today, json, order)
        }
        Command::Forfeit {
            game,
            loser,
            why,
            today,
            json,
        } => {
            let award = Award::directors(GameResult::loss_of(loser), true, why);
            let at = (cli.config.as_path(), cli.tournament.as_deref());
            order_command(at, &game, GameOrder::Award(award), (now, today), json)
        }
        Command::Undo {
            game,
            why,
            today,
            json,
        } => {
            let at = (cli.config.as_path(), cli.tournament.as_deref());
            order_command(at, &game, GameOrder::Undo(why), (now, today), json)
        }
        Command::Watch { interval, json } => loop {
            // Read anew after an order edited a tournament's file.
            let configs = load_all(&cli.config)?;
            if let Some(code) = watch(&configs, Duration::from_secs(interval.max(1) * 60), json)? {
                break Ok(code);
            }
        },
        Command::Check { file, today } => {
            let config = load(&cli.config, cli.tournament.as_deref())?;
            check(&config, clock(&config, now, today), &file)
        }
        Command::Games { json, today } => {
            // A folder's games are all listed unless one tournament is given.
            let configs = match cli.tournament.as_deref() {
                Some(id) => vec![load(&cli.config, Some(id))?],
                None => load_all(&cli.config)?,
            };
            games(&configs, now, today, json)
        }
        Command::Chart { game, format } => {
            let config = load(&cli.config, cli.tournament.as_deref())?;
            chart(&config, &game, format)
        }
        Command::Report { out, today } => {
            let all = load_all(&cli.config)?;
            // A folder's report is every event's, under an index of them,
            // unless one is given.
            let (configs, index) = match cli.tournament.as_deref() {
                Some(id) => (vec![pick(&cli.config, all, Some(id))?], false),
                None => {
                    let folder = all.iter().any(|c| c.in_folder);
                    (all, folder)
                }
            };
            report_all(&configs, now, today, out, index)
        }
        Command::Pgn { game, all: _ } => {
            let config = load(&cli.config, cli.tournament.as_deref())?;
            pgn(&config, game.as_deref())
        }
    }
}

/// Every tournament the config file serves.
fn load_all(path: &Path) -> Result<Vec<Config>, Failure> {
    shtempel::config::load_all(path).map_err(|e| usage(e.to_string()))
}

/// The tournament a command is about: the one given, or the only one.
fn load(path: &Path, tournament: Option<&str>) -> Result<Config, Failure> {
    pick(path, load_all(path)?, tournament)
}

fn pick(path: &Path, configs: Vec<Config>, tournament: Option<&str>) -> Result<Config, Failure> {
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
                .find(|c| c.tournament_id == id)
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

/// The run's day: `--today`, else the date in the tournament's zone. With
/// `--today` the moment stamped on messages is that day at the current time.
fn clock(config: &Config, now: chrono::DateTime<Utc>, today: Option<NaiveDate>) -> Clock {
    let real_today = shtempel::rules::postmark_date(&now, config.timezone);
    match today {
        None => Clock {
            today: real_today,
            now,
        },
        Some(day) => {
            let shift = chrono::Duration::days(shtempel::rules::days(real_today, day));
            Clock {
                today: day,
                now: now + shift,
            }
        }
    }
}

/// `--today DAY` of a command that acts on the record (or shows it) must
/// not be before the day the record goes on to (issue 20, point 14).
fn not_before_the_record(
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

/// The database for a command that only reads it: a tournament with none
/// yet reads as one where nothing has happened (in memory, no file made).
fn open_store(config: &Config) -> Result<Store, Failure> {
    match Store::inspect(&config.database) {
        DatabaseFile::Missing | DatabaseFile::Empty => {
            let store =
                Store::in_memory().map_err(|e| run_error(format!("database in memory: {e}")))?;
            Ok(store.kept_on(config.scope()))
        }
        DatabaseFile::Ours => open_file(config),
        other => Err(not_ours(config, &other)),
    }
}

/// The database for a run that writes it. A missing or empty one is made
/// only while nothing shows a tournament under way: no letter done in the
/// source, no message in a file outbox, no log beside the database. Else it
/// was lost, and making a new one would lose the games: exit 2.
fn open_store_to_run(
    config: &Config,
    source: &mut dyn MailSource,
    transport: &dyn shtempel::mail::Transport,
) -> Result<Store, Failure> {
    match Store::inspect(&config.database) {
        DatabaseFile::Ours => open_file(config),
        DatabaseFile::Missing | DatabaseFile::Empty => {
            let done = source
                .has_done_letters()
                .map_err(|e| run_error(e.message))?;
            let evidence = if done {
                Some("the mail source holds letters already done")
            } else if transport.has_sent() {
                Some("the outbox holds messages already sent")
            } else if Store::traces_beside(&config.database) {
                Some("its log files are still beside it")
            } else {
                None
            };
            match evidence {
                Some(evidence) => Err(usage(format!(
                    "database {}: missing or empty, but {evidence}: the tournament's record \
                     is lost, not new; copy its backup back to that path (the README's \
                     Deployment says how backups are made), or run `shtempel init` to begin \
                     the tournament again from nothing",
                    config.database.display()
                ))),
                None => open_file(config),
            }
        }
        other => Err(not_ours(config, &other)),
    }
}

fn not_ours(config: &Config, file: &DatabaseFile) -> Failure {
    let why = match file {
        DatabaseFile::Newer(version) => format!(
            "it was made by a newer shtempel (schema {version}; this one knows {}): run that \
             version, or restore a backup this one made",
            shtempel::store::schema_version()
        ),
        DatabaseFile::Foreign(why) => {
            format!("{why}; [bot] database must name the clerk's own file")
        }
        _ => "it cannot be used".to_string(),
    };
    usage(format!(
        "{}: [bot] database {}: {why}",
        config.file.display(),
        config.database.display()
    ))
}

/// A database error, with the file named, and for a database that cannot
/// be written, what to look at (issue 20, point 17: a `-shm` left read-only
/// by another user keeps every write failing).
fn database_error(config: &Config, error: &dyn std::fmt::Display) -> Failure {
    let path = config.database.display();
    let error = error.to_string();
    let hint = if error.contains("readonly") || error.contains("read-only") {
        format!(
            "; this user must be able to write {path}, {path}-wal and {path}-shm and their \
             folder (a -shm left read-only by another user or run can be removed while no \
             run is at work)"
        )
    } else {
        String::new()
    };
    run_error(format!("database {path}: {error}{hint}"))
}

fn open_file(config: &Config) -> Result<Store, Failure> {
    if let Some(parent) = config.database.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| run_error(format!("cannot create {}: {e}", parent.display())))?;
    }
    let store = Store::open(&config.database).map_err(|e| database_error(config, &e))?;
    Ok(store.kept_on(config.scope()))
}

/// A folder's run refuses a database whose games a tournament of its own
/// file kept (under bare ids): they would belong to no tournament.
fn unadopted(config: &Config, store: &Store) -> Result<(), Failure> {
    if config.scope().is_none() {
        return Ok(());
    }
    let bare = store
        .has_unscoped_games()
        .map_err(|e| database_error(config, &e))?;
    if bare {
        return Err(usage(format!(
            "database {}: its games were kept by a tournament of its own file; say which \
             tournament of the folder they are: shtempel adopt --tournament ID",
            config.database.display()
        )));
    }
    Ok(())
}

/// `shtempel report`: the report of each tournament given (under `out/ID`
/// for a folder's), and with `index` the index of the events beside them.
fn report_all(
    configs: &[Config],
    now: chrono::DateTime<Utc>,
    today: Option<NaiveDate>,
    out: Option<PathBuf>,
    index: bool,
) -> Result<u8, Failure> {
    let Some(first) = configs.first() else {
        return Ok(0);
    };
    let out = out.or_else(|| first.report_out.clone()).ok_or_else(|| {
        usage(format!(
            "report: no folder given: add --out DIR, or [report] out = \"DIR\" to {}",
            first.file.display()
        ))
    })?;
    let mut pages = 0;
    for config in configs {
        let store = open_store(config)?;
        let clock = clock(config, now, today);
        // The report shows the games as the database holds them: a day
        // before the clerk's last would show later results under it.
        if let Some(day) = today {
            not_before_the_record(config, &store, "report", day, "show what happened after it")?;
        }
        let folder = match config.scope() {
            Some(id) => out.join(shtempel::report::event_folder(id)),
            None => out.clone(),
        };
        pages += write_report(config, &store, clock, &folder, None, &Progress::new(false))?;
    }
    if index {
        let day = clock(first, now, today).today;
        shtempel::site::write_events(configs, day, &out)
            .map_err(|e| run_error(format!("report: {e}")))?;
        pages += 2;
    }
    println!("report: {pages} files written to {}", out.display());
    Ok(0)
}

/// `shtempel adopt`: a single tournament's database becomes one of the
/// folder's.
fn adopt(config: &Config) -> Result<u8, Failure> {
    let Some(id) = config.scope() else {
        return Err(usage(format!(
            "adopt: {} is a tournament of its own file; its games need no adopting",
            config.file.display()
        )));
    };
    let Some(_lock) = run::lock(&config.database).map_err(|e| run_error(format!("lock: {e}")))?
    else {
        return Err(run_error(
            "adopt: another run is at work; try again after it",
        ));
    };
    let mut store = open_store(config)?;
    let games = store
        .adopt_games(id)
        .map_err(|e| database_error(config, &e))?;
    println!(
        "adopt: {games} game(s) of {} are now tournament {id}'s",
        config.database.display()
    );
    Ok(0)
}

/// `shtempel init`: the database made on purpose, where none is.
fn init(config: &Config) -> Result<u8, Failure> {
    match Store::inspect(&config.database) {
        DatabaseFile::Missing | DatabaseFile::Empty => {
            open_file(config)?;
            println!("init: database {} created", config.database.display());
            Ok(0)
        }
        DatabaseFile::Ours => Err(usage(format!(
            "init: {} already holds the tournament's database; nothing done (move it away \
             first to begin again from nothing)",
            config.database.display()
        ))),
        other => Err(not_ours(config, &other)),
    }
}

/// A clerk for each tournament, as of `now` (or `today`), with the others
/// beside it where there are several.
fn clerks<'a>(
    directory: &'a Directory<'a>,
    now: chrono::DateTime<Utc>,
    today: Option<NaiveDate>,
) -> Vec<Clerk<'a>> {
    directory
        .tournaments()
        .iter()
        .enumerate()
        .filter_map(|(at, config)| {
            Some(Clerk {
                config,
                templates: directory.templates_at(at)?,
                clock: clock(config, now, today),
                replays: Replays::default(),
                directory,
            })
        })
        .collect()
}

/// The folder's directory, each tournament with its templates.
fn directory<'a>(
    configs: &'a [Config],
    templates: &'a [Templates],
    template_of: &[usize],
) -> Directory<'a> {
    let templates = template_of.iter().map(|&at| &templates[at]).collect();
    Directory::of(configs).with_templates(templates)
}

/// The templates of each tournament: loaded once for each folder and
/// language they share (a federation's hundred events have two).
fn templates_of(configs: &[Config]) -> Result<(Vec<Templates>, Vec<usize>), Failure> {
    let mut loaded: Vec<((&Path, shtempel::Lang), Templates)> = Vec::new();
    let mut index = Vec::with_capacity(configs.len());
    for config in configs {
        let wanted = (config.templates.as_path(), config.language);
        let at = match loaded.iter().position(|(key, _)| *key == wanted) {
            Some(at) => at,
            None => {
                loaded.push((wanted, templates(config)?));
                loaded.len() - 1
            }
        };
        index.push(at);
    }
    Ok((loaded.into_iter().map(|(_, t)| t).collect(), index))
}

fn templates(config: &Config) -> Result<Templates, Failure> {
    Templates::load(&config.templates, config.language)
        .map_err(|e| usage(format!("templates: {e}")))
}

/// The password named by `key` (`source.password_env`), from the environment.
fn password(config: &Config, key: &str, variable: &str) -> Result<String, Failure> {
    std::env::var(variable).map_err(|_| {
        usage(format!(
            "{}: {key}: the environment variable {variable} is not set; export it with the password before running",
            config.file.display()
        ))
    })
}

/// The limit for each network call.
const NETWORK_TIMEOUT: Duration = Duration::from_secs(30);

fn source(config: &Config) -> Result<Box<dyn MailSource>, Failure> {
    match &config.source {
        Source::Maildir { path } => Ok(Box::new(
            Maildir::open(path).map_err(|e| run_error(e.message))?,
        )),
        Source::Imap {
            server,
            mailbox,
            processed_mailbox,
        } => {
            let settings = ImapSettings {
                server: server.clone(),
                password: password(config, "source.password_env", &server.password_env)?,
                mailbox: mailbox.clone(),
                processed_mailbox: processed_mailbox.clone(),
                timeout: NETWORK_TIMEOUT,
                max_letter_bytes: config.limits.max_letter_bytes,
            };
            Ok(Box::new(
                ImapSource::new(settings).map_err(|e| run_error(e.message))?,
            ))
        }
    }
}

fn transport(config: &Config) -> Result<Box<dyn shtempel::mail::Transport>, Failure> {
    match &config.transport {
        Transport::File { path } => Ok(Box::new(
            FileTransport::open(path).map_err(|e| run_error(e.message))?,
        )),
        Transport::Smtp {
            server,
            max_per_connection,
            max_per_minute,
        } => {
            let password = if server.username.is_empty() {
                None
            } else {
                Some(password(
                    config,
                    "transport.password_env",
                    &server.password_env,
                )?)
            };
            let sender = SmtpSender::new(server, password, &config.address, NETWORK_TIMEOUT)
                .map_err(|e| usage(e.message))?
                .max_per_connection(*max_per_connection)
                .pace(max_per_minute.map(|limit| {
                    // The steady clock of this run, read here (only main
                    // reads the clock).
                    let start = std::time::Instant::now();
                    Pace::new(
                        limit,
                        Box::new(move || start.elapsed()),
                        Box::new(std::thread::sleep),
                    )
                }));
            Ok(Box::new(sender))
        }
        Transport::Sendmail { command } => {
            Ok(Box::new(SendmailSender::new(command, &config.address)))
        }
    }
}

fn print_event(out: &mut dyn Write, event: &Event, json: bool) {
    if json {
        let line = serde_json::to_string(event).unwrap_or_default();
        let _ = writeln!(out, "{}", printable_json(&line));
    } else {
        let game = event
            .game
            .as_deref()
            .map(|g| format!("game {g}: "))
            .unwrap_or_default();
        let from = event
            .from
            .as_deref()
            .map(|f| format!(" [{f}]"))
            .unwrap_or_default();
        let line = format!("{game}{}{from}", event.detail);
        let _ = writeln!(out, "{:<14} {}", event.event, printable(&line, false));
    }
}

/// A counter on the terminal for long work, silent under cron (no terminal)
/// and with `--json`.
struct Progress {
    shown: std::cell::Cell<bool>,
    enabled: bool,
}

impl Progress {
    fn new(json: bool) -> Progress {
        use std::io::IsTerminal;
        Progress {
            shown: std::cell::Cell::new(false),
            enabled: !json && std::io::stderr().is_terminal(),
        }
    }

    fn update(&self, what: &str, done: usize, total: usize) {
        if !self.enabled || total < 20 || (!done.is_multiple_of(10) && done != total) {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{what}: {done} of {total}");
        let _ = err.flush();
        self.shown.set(true);
    }

    /// Takes the counter off the line before other output.
    fn clear(&self) {
        if self.shown.replace(false) {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}

/// Writes the report site into `out` (see `shtempel::site`).
fn write_report(
    config: &Config,
    store: &Store,
    clock: Clock,
    out: &Path,
    only: Option<&std::collections::BTreeSet<String>>,
    progress: &Progress,
) -> Result<usize, Failure> {
    let written =
        shtempel::site::write(config, store, clock.today, out, only, &mut |done, total| {
            progress.update("report", done, total)
        })
        .map_err(|e| run_error(format!("report: {e}")));
    progress.clear();
    written
}

/// A pass (`poll`) over every tournament the clerk serves (one file, or a
/// folder's), as on `today` if given; with `start_sheets`, the players'
/// start sheets are written into the outbox first, and go with it
/// (`start`; of the one tournament given, if one is).
fn poll(
    configs: &[Config],
    now: chrono::DateTime<Utc>,
    today: Option<NaiveDate>,
    json: bool,
    before: Before<'_>,
) -> Result<u8, Failure> {
    let Some(config) = configs.first() else {
        return Ok(0);
    };
    let clock_of = |config: &Config| clock(config, now, today);
    if let Some(parent) = config.database.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| run_error(format!("cannot create {}: {e}", parent.display())))?;
    }
    let Some(_lock) = run::lock(&config.database).map_err(|e| run_error(format!("lock: {e}")))?
    else {
        // Another run is at work (cron started this one too early): it will
        // see the same mail, so this one has nothing to do.
        return Ok(0);
    };
    shtempel::fault::point("after-lock");
    let (templates, template_of) = templates_of(configs)?;
    let mut source = source(config)?;
    let mut transport = transport(config)?;
    let mut store = open_store_to_run(config, source.as_mut(), transport.as_ref())?;
    unadopted(config, &store)?;
    let run_day = clock_of(config).today;
    if today.is_some()
        && let Some(last) = store
            .last_run_day()
            .map_err(|e| database_error(config, &e))?
        && run_day < last
    {
        return Err(usage(format!(
            "--today {run_day}: the clerk's record goes on to {last}, and a run as of an \
             earlier day would count days backwards; give a day on or after {last}, or leave \
             --today out"
        )));
    }
    store
        .note_run_day(run_day)
        .map_err(|e| database_error(config, &e))?;
    let directory = directory(configs, &templates, &template_of);
    let clerks = clerks(&directory, now, today);
    match before {
        Before::Nothing => {}
        Before::StartSheets(only) => {
            for clerk in &clerks {
                if only.is_none_or(|id| id == clerk.config.tournament_id) {
                    queue_start_sheets(clerk.config, clerk, &mut store, json)?;
                }
            }
        }
        Before::Game {
            tournament,
            game,
            order,
        } => {
            let clerk = clerk_of(&clerks, tournament)?;
            queue_order(clerk, &mut store, game, &order, json)?;
        }
        Before::Replace {
            tournament,
            player,
            was,
            why,
        } => {
            let clerk = clerk_of(&clerks, tournament)?;
            let mut on_desk = store.tournament(clerk.config.scope());
            let store = &mut *on_desk;
            let (planned, whom) = match was {
                Whom::Was(was) => (clerk.replace(store, player, was, why), was.to_string()),
                Whom::By(newcomer) => (
                    clerk.replace_named(store, player, Some(newcomer), why),
                    format!("by {} <{}>", newcomer.name, newcomer.email),
                ),
            };
            let plan = match planned {
                Ok(Ok(plan)) => plan,
                Ok(Err(reason)) => return Err(usage(format!("replace {player}: {reason}"))),
                Err(message) => return Err(database_or_run(clerk.config, message)),
            };
            let cause = format!("replace:{player}:{whom}");
            commit_and_say(store, clerk, &plan, &cause, json)?;
        }
        Before::Withdraw {
            tournament,
            player,
            why,
        } => {
            let clerk = clerk_of(&clerks, tournament)?;
            queue_withdrawal(clerk, &mut store, player, why, json)?;
        }
        Before::Accept {
            tournament,
            key,
            moves,
            sender,
            add_address,
            game,
            why,
        } => {
            let moves = moves.map(shtempel::letter::read);
            let acceptance = clerk::Acceptance {
                key,
                moves: moves.as_ref(),
                sender,
                game,
                why,
                add_address,
                by: clerk::AwardedBy::Director,
            };
            queue_acceptance(
                &clerks,
                &directory,
                tournament,
                &mut store,
                &acceptance,
                json,
            )?;
        }
    }
    let progress = Progress::new(json);
    // Someone watching sees each event as it happens; cron and a pipe get
    // them in blocks (a write per line was 2 % of a large run). A killed
    // run loses its last block of lines, not what it did: that is in the
    // database and the outbox.
    let stdout = std::io::stdout();
    let mut out: Box<dyn Write> = if stdout.is_terminal() {
        Box::new(stdout)
    } else {
        Box::new(std::io::BufWriter::new(stdout))
    };
    // SIGTERM or SIGINT finish the letter at hand (a second one ends the
    // process at once).
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_signals(&stop)?;
    let summary = run::poll(
        &clerks,
        &mut store,
        source.as_mut(),
        transport.as_mut(),
        run::Hooks {
            events: &mut |event| {
                progress.clear();
                print_event(&mut out, &event, json)
            },
            progress: &mut |done, total| progress.update("letters", done, total),
            stop: &stop,
        },
    );
    let _ = out.flush();
    let summary = summary.map_err(|message| database_or_run(config, message))?;
    progress.clear();
    if !json && (summary.letters > 0 || summary.sent > 0 || summary.failures > 0) {
        let _ = writeln!(
            out,
            "poll {}: {} letter(s) read, {} message(s) sent, {} failure(s)",
            run_day, summary.letters, summary.sent, summary.failures
        );
    }
    drop(out);
    let mut code = if summary.failures > 0 { 1 } else { 0 };
    if summary.reread {
        // Not a failure: the next run goes on with the file as edited.
        let waiting = match summary.left {
            0 => "the calendar waits".to_string(),
            left => format!("{left} letter(s) left in the source and the calendar wait"),
        };
        eprintln!(
            "shtempel: an order edited a tournament's file (config-edited above): {waiting} for \
             the next run, which reads the file anew"
        );
    } else if summary.left > 0 {
        eprintln!(
            "shtempel: stopped by a signal: {} letter(s) done and kept, {} left in the source \
             for the next run; the calendar waits for it too",
            summary.letters, summary.left
        );
        code = 1;
    }
    // Messages that failed before and wait for their next try fail this run
    // too, though none was tried now: cron must say so until they go.
    let (undelivered, last_error) = store
        .undelivered()
        .map_err(|e| database_error(config, &e))?;
    if undelivered > 0 {
        eprintln!(
            "shtempel: {undelivered} message(s) not delivered yet (last error: {last_error}); \
             the next runs try again"
        );
        code = 1;
    }
    for config in configs {
        let Some(out) = &config.report_out else {
            continue;
        };
        // A folder's tournaments each have their report in a folder of its
        // own under `[report] out`.
        let out = match config.scope() {
            Some(id) => out.join(shtempel::report::event_folder(id)),
            None => out.clone(),
        };
        if let Err(failure) = keep_report(
            config,
            &mut store.tournament(config.scope()),
            clock_of(config),
            &out,
            &summary,
            &progress,
        ) {
            // The run's work is done and kept; a report that cannot be
            // written is said, and the run counts as failed so that cron
            // mails it.
            eprintln!("shtempel: {}", failure.message);
            code = 1;
        }
    }
    // A folder's index of its events, beside their reports.
    if let Some(out) = configs
        .iter()
        .find(|c| c.in_folder)
        .and_then(|c| c.report_out.as_ref())
        && let Err(error) = shtempel::site::write_events(configs, run_day, out)
    {
        eprintln!("shtempel: report: {error}");
        code = 1;
    }
    Ok(code)
}

/// A run's error: the database's named with its file.
fn database_or_run(config: &Config, message: String) -> Failure {
    match message.strip_prefix("database: ") {
        Some(error) => database_error(config, &error),
        None => run_error(message),
    }
}

/// `[report] out` after a poll (see `shtempel::site::keep`).
fn keep_report(
    config: &Config,
    store: &mut Store,
    clock: Clock,
    out: &Path,
    summary: &run::Summary,
    progress: &Progress,
) -> Result<(), Failure> {
    // A folder's games are changed as `ID/<game>`: this tournament's, by id.
    let changed: std::collections::BTreeSet<String> = match config.scope() {
        Some(id) => summary
            .games_changed
            .iter()
            .filter_map(|key| GameKey::parse(key).game_in(Some(id)).map(str::to_string))
            .collect(),
        None => summary.games_changed.clone(),
    };
    shtempel::site::keep(
        config,
        store,
        clock.today,
        out,
        &changed,
        &mut |done, total| progress.update("report", done, total),
    )
    .map_err(|e| run_error(format!("report: {e}")))?;
    progress.clear();
    Ok(())
}

/// Sets `stop` on SIGINT or SIGTERM; a second one, with `stop` set, ends
/// the process as the signal does by default (a run stuck on a server).
fn stop_on_signals(stop: &Arc<AtomicBool>) -> Result<(), Failure> {
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_conditional_default(signal, Arc::clone(stop))
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(stop)))
            .map_err(|e| run_error(format!("signals: {e}")))?;
    }
    Ok(())
}

/// Passes until a signal (`Some`), or until an order edited a
/// tournament's file (`None`: the files are to be read again).
fn watch(configs: &[Config], interval: Duration, json: bool) -> Result<Option<u8>, Failure> {
    let Some(config) = configs.first() else {
        return Ok(Some(0));
    };
    let (templates, template_of) = templates_of(configs)?;
    let mut source = source(config)?;
    let mut transport = transport(config)?;
    let Some(_lock) = run::lock(&config.database).map_err(|e| run_error(format!("lock: {e}")))?
    else {
        return Err(run_error(format!(
            "another run holds {}; stop it first",
            config.database.display()
        )));
    };
    let mut store = open_store_to_run(config, source.as_mut(), transport.as_ref())?;
    unadopted(config, &store)?;
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_signals(&stop)?;
    let mut backoff = Duration::from_secs(5);
    while !stop.load(Ordering::Relaxed) {
        #[allow(clippy::disallowed_methods)]
        let now = Utc::now();
        let directory = directory(configs, &templates, &template_of);
        let clerks = clerks(&directory, now, None);
        let pass = run::poll(
            &clerks,
            &mut store,
            source.as_mut(),
            transport.as_mut(),
            run::Hooks {
                events: &mut |event| print_event(&mut std::io::stdout().lock(), &event, json),
                progress: &mut |_, _| {},
                stop: &stop,
            },
        );
        let waited = match pass {
            Ok(summary) if summary.reread => {
                if !json {
                    println!("watch: an order edited a tournament's file; reading it anew");
                }
                return Ok(None);
            }
            Ok(_) => source.wait_for_mail(interval, &stop).map_err(|e| e.message),
            Err(error) => Err(error),
        };
        match waited {
            Ok(_) => backoff = Duration::from_secs(5),
            Err(error) => {
                eprintln!(
                    "shtempel watch: {error}; trying again in {}s",
                    backoff.as_secs()
                );
                let end = std::time::Instant::now() + backoff;
                while !stop.load(Ordering::Relaxed) && std::time::Instant::now() < end {
                    std::thread::sleep(Duration::from_millis(200));
                }
                backoff = (backoff * 2).min(Duration::from_secs(300));
            }
        }
    }
    if !json {
        println!("watch: stopped");
    }
    Ok(Some(0))
}

fn check(config: &Config, clock: Clock, file: &Path) -> Result<u8, Failure> {
    let raw =
        std::fs::read(file).map_err(|e| usage(format!("cannot read {}: {e}", file.display())))?;
    let templates = templates(config)?;
    let store = if config.database.exists() {
        Store::open(&config.database).map_err(|e| database_error(config, &e))?
    } else {
        Store::in_memory().map_err(|e| database_error(config, &e))?
    };
    let store = store.kept_on(config.scope());
    let modified = std::fs::metadata(file)
        .and_then(|m| m.modified())
        .map(chrono::DateTime::<Utc>::from)
        .unwrap_or(clock.now);
    let arrived = shtempel::mail::maildir::topmost_received(&raw).unwrap_or(modified);
    let envelope = Envelope {
        key: file.display().to_string(),
        size: raw.len(),
        raw,
        arrived,
    };
    let clerk = Clerk {
        config,
        templates: &templates,
        clock,
        replays: Replays::default(),
        directory: &Directory::of(std::slice::from_ref(config)),
    };
    let prepared = shtempel::clerk::Prepared::new(config, &envelope);
    let plan = clerk
        .plan_prepared(&store, &envelope, &prepared)
        .map_err(run_error)?;
    // Written whole, then printed with the letter's control characters
    // escaped.
    let mut out = Vec::new();
    if let Some(letter) = &plan.letter {
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
            && let Some(read) = &prepared.read
        {
            let pretty = serde_json::to_string_pretty(read).unwrap_or_default();
            let _ = writeln!(out, "read: {pretty}");
        }
        // What was taken for the writer's own text, quotes and signature cut.
        if let Some(mail) = shtempel::mail::mime::parse(&envelope.raw, &config.address)
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
    for event in &plan.events {
        let _ = writeln!(out, "event: {} {}", event.event, event.detail);
    }
    for message in &plan.messages {
        let _ = writeln!(
            out,
            "\n==== {} to {} ====\nSubject: {}\n\n{}",
            message.kind.header(),
            message.addresses().join(", "),
            message.subject,
            message.body
        );
    }
    let text = String::from_utf8_lossy(&out);
    let _ = std::io::stdout()
        .lock()
        .write_all(printable(&text, true).as_bytes());
    Ok(0)
}

fn load_state(config: &Config, store: &Store, game: &str) -> Result<Record, Failure> {
    let game_config = config.game(game).ok_or_else(|| {
        let known: Vec<&str> = config.games.iter().map(|g| g.id.as_str()).collect();
        usage(format!(
            "no game {game:?} in {}; games: {}",
            config.file.display(),
            known.join(", ")
        ))
    })?;
    clerk::load(config, store, game_config).map_err(run_error)
}

/// Every game, one line each: moves made (full moves, as the report counts
/// them), totals, the days left of the player to move while his clock runs
/// (none for a finished or suspended game), status and result. Columns are
/// as wide as their longest cell, counted in characters.
/// `shtempel games`: every game of the tournaments given (a folder's games
/// named `ID/<game>`, and in JSON with their `tournament`).
fn games(
    configs: &[Config],
    now: chrono::DateTime<Utc>,
    today: Option<NaiveDate>,
    json: bool,
) -> Result<u8, Failure> {
    let mut values = Vec::new();
    let mut table = vec![
        [
            "game", "white", "black", "moves", "totals", "left", "status", "result",
        ]
        .map(str::to_string)
        .to_vec(),
    ];
    for config in configs {
        let store = open_store(config)?;
        let clock = clock(config, now, today);
        for game in &config.games {
            let state = load_state(config, &store, &game.id)?;
            let due = state.ledger.due(&config.rules, clock.today);
            let plies = state.board.moves().len();
            let status = state.ledger.status().name();
            let result = state.ledger.standing.outcome.map(|o| o.result.pgn());
            if json {
                let mut value = state.chart(config, Vec::new()).summary_json();
                value["moves"] = serde_json::json!(plies.div_ceil(2));
                value["plies"] = serde_json::json!(plies);
                value["to_move"] = serde_json::json!(due.map(|d| shtempel::color_name(d.player)));
                value["days_left"] = serde_json::json!(due.map(|d| d.days_left));
                value["last_day"] = serde_json::json!(due.map(|d| d.last_day));
                if let Some(id) = config.scope() {
                    value["tournament"] = serde_json::json!(id);
                }
                values.push(value);
                continue;
            }
            let left = due.map_or("-".to_string(), |d| {
                format!("{} {}", d.days_left, &shtempel::color_name(d.player)[..1])
            });
            let label = config.game_key(&game.id).to_string();
            table.push(vec![
                label,
                state.white.name.clone(),
                state.black.name.clone(),
                plies.div_ceil(2).to_string(),
                state.ledger.totals().to_string(),
                left,
                status.to_string(),
                result.unwrap_or("").to_string(),
            ]);
        }
    }
    let mut out = std::io::stdout().lock();
    if json {
        let text = serde_json::to_string_pretty(&values).unwrap_or_default();
        let _ = writeln!(out, "{text}");
        return Ok(0);
    }
    let width = |column: usize| {
        table
            .iter()
            .map(|row| row[column].chars().count())
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..table[0].len()).map(width).collect();
    // Numbers right-aligned, words left.
    let right = [false, false, false, true, true, true, false, false];
    for row in &table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .zip(right)
            .map(|((cell, &width), right)| {
                let pad = " ".repeat(width - cell.chars().count());
                if right {
                    format!("{pad}{cell}")
                } else {
                    format!("{cell}{pad}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    Ok(0)
}

fn chart(config: &Config, game: &str, format: ChartFormat) -> Result<u8, Failure> {
    let store = open_store(config)?;
    let state = load_state(config, &store, game)?;
    let chart = clerk::stored_chart(&state, config, &store).map_err(run_error)?;
    let phrases = shtempel::render::load_phrases(&config.templates, config.language)
        .map_err(|e| usage(e.to_string()))?;
    let text = match format {
        ChartFormat::Text => chart.to_text(&phrases),
        ChartFormat::Csv => chart.to_csv(),
        ChartFormat::Svg => {
            shtempel::plot::svg(&chart, &config.rules, &phrases).map_err(run_error)?
        }
        ChartFormat::Json => {
            serde_json::to_string_pretty(&chart.to_json()).unwrap_or_default() + "\n"
        }
    };
    print!("{text}");
    Ok(0)
}

/// One game's PGN, or every game's one after another (`game` = None).
fn pgn(config: &Config, game: Option<&str>) -> Result<u8, Failure> {
    let store = open_store(config)?;
    let ids: Vec<&str> = match game {
        Some(game) => vec![game],
        None => config.games.iter().map(|g| g.id.as_str()).collect(),
    };
    let phrases = shtempel::render::load_phrases(&config.templates, config.language)
        .map_err(|e| usage(e.to_string()))?;
    let mut games = Vec::new();
    for id in ids {
        games.push(load_state(config, &store, id)?.pgn(config, &phrases));
    }
    print!("{}", games.join("\n"));
    Ok(0)
}

fn read_letter(file: &Path) -> Result<u8, Failure> {
    let body = if file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| usage(format!("standard input: {e}")))?
    } else {
        let bytes = std::fs::read(file)
            .map_err(|e| usage(format!("cannot read {}: {e}", file.display())))?;
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let letter = shtempel::letter::read(&body);
    let json = serde_json::to_string_pretty(&letter).map_err(|e| run_error(e.to_string()))?;
    println!("{}", printable_json(&json));
    Ok(0)
}

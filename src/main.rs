//! The `shtempel` command line: parses arguments, reads the clock (the only
//! place that may), loads the configuration, wires the adapters and maps
//! outcomes to exit codes (contract.md 1): 0 success, 1 a run with a failed
//! letter or send, 2 bad usage or configuration.

#![warn(clippy::too_many_lines)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use chrono::{NaiveDate, Utc};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod cli;
use cli::{Context, Failure, run_error};

/// mimalloc instead of glibc's allocator, for Rust and (through `override`)
/// for SQLite too. A letter is read on one thread and dropped on another, and
/// glibc then takes the other thread's arena lock: a `poll` of 10,000 letters
/// made 28,000 futex calls. With mimalloc the same run takes a fifth less
/// time in a RAM folder. `no_thp`: with
/// transparent huge pages its arenas doubled the peak RSS (36 -> 70 MB).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What `--version` says: the release, the commit it was built from, and
/// the database schema it writes (docs/running.md, "Upgrading").
fn version() -> &'static str {
    let text = format!(
        "{} (commit {}, database schema {})",
        env!("CARGO_PKG_VERSION"),
        env!("SHTEMPEL_COMMIT"),
        shtempel::store::schema_version()
    );
    // Said once a run; clap keeps the text for the run's whole life.
    Box::leak(text.into_boxed_str())
}

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

/// The commands, each in its file under `src/cli/` with its arguments.
#[derive(Subcommand)]
enum Command {
    /// One pass: fetch new letters, process them, send, keep the calendar.
    Poll(cli::poll::Args),
    /// Mail each player his start sheet by registered letter (10.3.2), then
    /// a pass as `poll`; a player who got one is never sent another.
    Start(cli::start::Args),
    /// What falls due today and in the next days, per tournament, and the
    /// mail of the last days that changed nothing; changes nothing.
    Today(cli::today::Args),
    /// Set a game's result as the chief arbiter would (`RESULT 3 1-0`): the
    /// players and the chief secretary are told, then a pass as `poll`.
    Result(cli::result::Args),
    /// Take a refused letter after all, its move as the director reads it
    /// (the letter's own postmark, dates and fraction), then a pass as `poll`.
    Accept(cli::accept::Args),
    /// A player withdraws: his games as `[rules] withdrawal` says (lost by
    /// forfeit, or annulled), each told to its players and the chief
    /// secretary, then a pass as `poll`.
    Withdraw(cli::withdraw::Args),
    /// Take back a game's last letter (its moves and their days), telling
    /// both players and the chief secretary, then a pass as `poll`.
    Undo(cli::undo::Args),
    /// A player replaced by a newcomer (`--by`: the clerk gives his entry
    /// the newcomer's name and address; `--was`: the director did): the
    /// newcomer gets his games and each partner and the chief secretary are
    /// told, then a pass as `poll`.
    Replace(cli::replace::Args),
    /// Score a game as lost by forfeit by the side given (`+/-`), then a
    /// pass as `poll`.
    Forfeit(cli::forfeit::Args),
    /// Stay connected and run a pass whenever mail comes (IMAP IDLE), and at
    /// least every `--interval` minutes for the calendar, until interrupted.
    Watch(cli::watch::Args),
    /// The Xfcc server of `[xfcc]`, for players who move from their chess
    /// program (Scid vs PC, ChessBase…), until interrupted.
    Serve(cli::serve::Args),
    /// Send a player his login to the Xfcc server (a new password), as his
    /// `XFCC` letter would bring it, then a pass as `poll`.
    XfccLogin(cli::xfcc_login::Args),
    /// Dry run: how a letter reads and what the clerk would do; changes nothing.
    Check(cli::check::Args),
    /// Whether what a run needs is there and works (the config, the
    /// database, the mail source and transport logged into, the templates,
    /// the report folder, the time zone), with the fix of each failure;
    /// sends no letter and changes nothing.
    Doctor(cli::doctor::Args),
    /// Every game: players, moves, totals, days left, status.
    Games(cli::games::Args),
    /// The federation's rating list from the finished games of its events
    /// (the last one published, every one as JSON, or a player's history).
    Ratings(cli::ratings::Args),
    /// A round robin's table (rounds, boards, names, colours) as the clerk
    /// makes its games from the players; changes nothing.
    Pairings(cli::pairings::Args),
    /// The time chart (Table 2) of one game.
    Chart(cli::chart::Args),
    /// The game as PGN, with each move's dates and days in comments.
    Pgn(cli::pgn::Args),
    /// Write every letter the players sent in a game, as it arrived, into a
    /// folder (for the chief arbiter: the overstep file lists those too
    /// large to attach).
    Letters(cli::letters::Args),
    /// Play a bundled sample tournament into a temporary folder and show what the clerk did.
    Demo(cli::demo::Args),
    /// Write the tournament report (a static site of HTML pages) into a folder.
    Report(cli::report::Args),
    /// Create the tournament's database (a first `poll` does it too, while
    /// no letter has been done and nothing sent).
    Init(cli::init::Args),
    /// Make the games of a database kept by a tournament of its own file
    /// the games of `--tournament ID` of the folder (once, after moving that
    /// tournament into a folder).
    Adopt(cli::adopt::Args),
    /// List the letters set aside after failing run after run; with a KEY
    /// (or --all), put them back among the new letters for the next poll.
    Retry(cli::retry::Args),
    /// Read a letter's plain text and print what the clerk reads in it, as JSON.
    Read(cli::read::Args),
}

fn main() -> ExitCode {
    let cli = Cli::from_arg_matches(&Cli::command().version(version()).get_matches())
        .unwrap_or_else(|error| error.exit());
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
        // `println!` gives up on an output it cannot write (a full disk, a
        // closed pipe) by a panic: said as what it is.
        if text.starts_with("failed printing to stdout") {
            return Err(Failure {
                code: 2,
                message: format!(
                    "the output cannot be written ({text}): free room on the disk it goes to, \
                     or mend where it goes, and run again; what the run committed is kept, the \
                     rest is done by the next run"
                ),
            });
        }
        Err(run_error(format!(
            "internal error, please report it: {text}"
        )))
    });
    // A run that could not write its own output ends saying so: its log
    // is lost, and cron must hear of it.
    let outcome = match outcome {
        Ok(_) if cli::output::OUTPUT_LOST.load(std::sync::atomic::Ordering::Relaxed) => {
            Err(Failure {
                code: 2,
                message: "the output cannot be written (a full disk, or a pipe closed): free \
                          room on the disk it goes to, or mend where it goes; the run's work \
                          was done and kept, its log of it is lost"
                    .into(),
            })
        }
        outcome => outcome,
    };
    match outcome {
        Ok(code) => ExitCode::from(code),
        Err(failure) => {
            // Not `eprintln!`: a standard error that cannot be written
            // either leaves the exit status to say it.
            let _ = writeln!(std::io::stderr(), "shtempel: {}", failure.message);
            ExitCode::from(failure.code)
        }
    }
}

impl Command {
    /// The `--today` of a command that changes the record.
    fn record_day(&self) -> Option<NaiveDate> {
        match self {
            Command::Poll(pass) | Command::Start(pass) => pass.today,
            Command::Result(args) => args.given.pass.today,
            Command::Accept(args) => args.given.pass.today,
            Command::Withdraw(args) => args.given.pass.today,
            Command::Undo(args) => args.given.pass.today,
            Command::Replace(args) => args.given.pass.today,
            Command::Forfeit(args) => args.given.pass.today,
            Command::XfccLogin(args) => args.pass.today,
            // Its passes apply the moves it takes as on its day.
            Command::Serve(args) => args.today,
            _ => None,
        }
    }
}

fn dispatch(cli: Cli, now: chrono::DateTime<Utc>) -> Result<u8, Failure> {
    cli::not_after_the_machines_date(cli.command.record_day(), cli.future, now)?;
    let cx = Context {
        config: cli.config,
        tournament: cli.tournament,
        now,
    };
    match cli.command {
        Command::Poll(pass) => cli::poll::run(&pass, &cx),
        Command::Start(pass) => cli::start::run(&pass, &cx),
        Command::Today(args) => args.run(&cx),
        Command::Result(args) => args.run(&cx),
        Command::Accept(args) => args.run(&cx),
        Command::Withdraw(args) => args.run(&cx),
        Command::Undo(args) => args.run(&cx),
        Command::Replace(args) => args.run(&cx),
        Command::Forfeit(args) => args.run(&cx),
        Command::Watch(args) => args.run(&cx),
        Command::Serve(args) => args.run(&cx),
        Command::XfccLogin(args) => args.run(&cx),
        Command::Check(args) => args.run(&cx),
        Command::Doctor(args) => args.run(&cx),
        Command::Games(args) => args.run(&cx),
        Command::Ratings(args) => args.run(&cx),
        Command::Pairings(args) => args.run(&cx),
        Command::Chart(args) => args.run(&cx),
        Command::Pgn(args) => args.run(&cx),
        Command::Letters(args) => args.run(&cx),
        Command::Demo(args) => args.run(&cx),
        Command::Report(args) => args.run(&cx),
        Command::Init(args) => args.run(&cx),
        Command::Adopt(args) => args.run(&cx),
        Command::Retry(args) => args.run(&cx),
        Command::Read(args) => args.run(&cx),
    }
}

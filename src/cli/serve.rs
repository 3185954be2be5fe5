//! `shtempel serve`: the Xfcc server of `[xfcc]`, for players who move from
//! their chess program, until SIGTERM or SIGINT.

use std::ffi::OsString;
use std::io::Write;
use std::sync::Arc;

use chrono::{DateTime, NaiveDate, NaiveTime, Utc};

use shtempel::serve::{Passes, Serving, serve};

use super::{Context, Failure, load_all, run_error, usage};

#[derive(clap::Args)]
pub struct Args {
    /// Count days as on this date (a rehearsal; default: today); the
    /// passes for the moves taken run as on it too.
    #[arg(long)]
    pub today: Option<NaiveDate>,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let configs = load_all(&cx.config)?;
        let Some(settings) = configs.first().and_then(|config| config.xfcc.clone()) else {
            return Err(usage(format!(
                "{}: no [xfcc] table, so no server to run: add one with its url (docs/config.md)",
                cx.config.display()
            )));
        };
        // With --today, noon of that day (a tournament's zone is less than
        // half a day off UTC).
        let today = self.today;
        let now = Arc::new(move || match today {
            Some(day) => day
                .and_time(NaiveTime::from_hms_opt(12, 0, 0).unwrap_or_default())
                .and_utc(),
            None => machine_now(),
        });
        let serving = Serving {
            config_file: cx.config.clone(),
            settings,
            now,
            passes: Passes {
                command: self.pass_command(cx)?,
                spool: configs[0].xfcc_spool(),
                database: configs[0].database.clone(),
            },
        };
        serve(serving, |address| {
            let mut out = std::io::stdout();
            let _ = writeln!(out, "shtempel serve: listening on {address}");
            let _ = out.flush();
        })
        .map_err(run_error)?;
        Ok(0)
    }

    /// The command of the pass that applies the moves taken: this program's
    /// `poll`, of the same file, as on the same day (checked against the
    /// machine's date already, as `poll`'s own `--today` is).
    fn pass_command(&self, cx: &Context) -> Result<Vec<OsString>, Failure> {
        let program = std::env::current_exe()
            .map_err(|e| run_error(format!("cannot find this program to run its passes: {e}")))?;
        let mut command: Vec<OsString> = vec![
            program.into(),
            "--config".into(),
            cx.config.clone().into(),
            "poll".into(),
        ];
        if let Some(today) = self.today {
            command.extend([
                "--today".into(),
                today.to_string().into(),
                "--future".into(),
            ]);
        }
        Ok(command)
    }
}

/// The machine's clock, read for each request as `watch` reads it for
/// each pass.
#[allow(clippy::disallowed_methods)]
fn machine_now() -> DateTime<Utc> {
    Utc::now()
}

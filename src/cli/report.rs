//! `shtempel report`: the tournament report (a static site), of one event
//! or of a folder's every event under an index.

use std::path::PathBuf;

use chrono::{NaiveDate, Utc};

use shtempel::config::Config;

use super::database::open_store_to_change;
use super::output::{Printer, Progress, write_report};
use super::{Context, Failure, clock, load_all, not_before_the_record, pick, run_error, usage};

#[derive(clap::Args)]
pub struct Args {
    /// The folder; by default `[report] out` of the config.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Count days left as on this date (default: today in the tournament's zone).
    #[arg(long)]
    today: Option<NaiveDate>,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let all = load_all(&cx.config)?;
        // A folder's report is every event's, under an index of them,
        // unless one is given.
        let (configs, index) = match cx.tournament() {
            Some(id) => (vec![pick(&cx.config, all, Some(id))?], false),
            None => {
                let folder = all.iter().any(|c| c.in_folder);
                (all, folder)
            }
        };
        report_all(&configs, cx.now, self.today, self.out, index)
    }
}

/// `shtempel report`: the report of each tournament given (under `out/ID`
/// for a folder's), and with `index` the index of the events beside them.
pub(super) fn report_all(
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
    // The federation's lists: the whole folder's, whichever events are written.
    let all = super::load_all(&first.clerk_file)?;
    let day = clock(first, now, today).today;
    let federation =
        shtempel::report::rated::Federation::read(&all, &open_store_to_change(first)?, day)
            .map_err(|e| run_error(format!("report: the rating list: {e}")))?;
    for config in configs {
        let store = open_store_to_change(config)?;
        let place = all
            .iter()
            .position(|c| c.tournament_id == config.tournament_id);
        let section = place.map(|place| federation.section(&all, place));
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
        pages += write_report(
            config,
            &store,
            clock,
            &folder,
            None,
            section.as_ref(),
            &Progress::new(Printer::Text),
        )?;
    }
    if index {
        let day = clock(first, now, today).today;
        let mut store = open_store_to_change(first)?;
        shtempel::report::site::write_events(configs, &mut store, day, &out, Some(&federation))
            .map_err(|e| run_error(format!("report: {e}")))?;
        pages += 2;
    }
    println!("report: {pages} files written to {}", out.display());
    Ok(0)
}

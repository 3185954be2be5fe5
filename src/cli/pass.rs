//! A pass over every tournament the clerk serves (`poll`, and after each
//! director's order), its report kept, stopped by a signal.

use std::io::{IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use chrono::{NaiveDate, Utc};

use shtempel::clerk::Clock;
use shtempel::config::{Config, Source, Transport};
use shtempel::run;
use shtempel::store::Store;

use super::before_pass::{Before, carry_out};
use super::database::{as_before, database_error, database_or_run, open_store_to_run, unadopted};
use super::output::{Printer, Progress, print_event};
use super::wiring::{clerks, directory, source, templates_of, transport};
use super::{Failure, clock, run_error, usage};

/// What every command that runs a pass takes besides its own words.
#[derive(clap::Args)]
pub struct PassArgs {
    /// Act as on this date (YYYY-MM-DD): deadlines and the date of what is sent.
    #[arg(long)]
    pub today: Option<NaiveDate>,
    /// One JSON object per event on standard output.
    #[arg(long)]
    pub json: bool,
}

/// A pass (`poll`) over every tournament the clerk serves (one file, or a
/// folder's), as on `today` if given; with `start_sheets`, the players'
/// start sheets are written into the outbox first, and go with it
/// (`start`; of the one tournament given, if one is).
pub(super) fn poll(
    configs: &[Config],
    now: chrono::DateTime<Utc>,
    pass: &PassArgs,
    before: Before<'_>,
) -> Result<u8, Failure> {
    let (today, printer) = (pass.today, Printer::of(pass.json));
    let Some(config) = configs.first() else {
        return Ok(0);
    };
    let clock_of = |config: &Config| clock(config, now, today);
    if let Some(parent) = config.database.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| run_error(format!("cannot create {}: {e}", parent.display())))?;
    }
    let Some(mut lock) =
        run::lock(&config.database).map_err(|e| run_error(format!("lock: {e}")))?
    else {
        // Another run is at work (cron started this one too early): it will
        // see the same mail, so this one has nothing to do, and says so; a
        // run at work for over an hour is stuck, and this one fails.
        return Ok(held_by_another(config, now));
    };
    lock.note(now)
        .map_err(|e| run_error(format!("lock: {e}")))?;
    sweep_temporary_files(configs);
    shtempel::fault::point("after-lock");
    let (templates, template_of) = templates_of(configs)?;
    // SIGTERM or SIGINT finish the letter at hand (a second one ends the
    // process at once); a wait on the SMTP server ends within a second.
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_signals(&stop)?;
    let mut source = source(config)?;
    let mut transport = transport(config, Some(&stop))?;
    let mut store = open_store_to_run(config, source.as_mut(), transport.as_ref())?;
    unadopted(config, &store)?;
    as_before(configs, &mut store, true)?;
    let run_day = clock_of(config).today;
    if today.is_some() {
        not_before_the_last_run(config, &store, run_day)?;
    }
    let directory = directory(configs, &templates, &template_of);
    let clerks = clerks(&directory, now, today);
    carry_out(before, &clerks, &directory, &mut store, printer)?;
    // Only now: a director's order refused (exit 2) did nothing, and moves
    // the record's day no further.
    store
        .note_run_day(run_day)
        .map_err(|e| database_error(config, &e))?;
    let progress = Progress::new(printer);
    let mut out = event_output();
    let summary = run::poll(
        &clerks,
        &mut store,
        source.as_mut(),
        transport.as_mut(),
        run::Hooks {
            events: &mut |event| {
                progress.clear();
                print_event(&mut out, &event, printer)
            },
            progress: &mut |done, total| progress.update("letters", done, total),
            stop: &stop,
        },
    );
    let _ = out.flush();
    let summary = summary.map_err(|message| database_or_run(config, message))?;
    progress.clear();
    if printer == Printer::Text && (summary.letters > 0 || summary.sent > 0 || summary.failures > 0)
    {
        super::output::line_out(
            &mut out,
            format_args!(
                "poll {}: {} letter(s) read, {} message(s) sent, {} failure(s)",
                run_day, summary.letters, summary.sent, summary.failures
            ),
        );
    }
    drop(out);
    let mut code = exit_code(&summary);
    code = code.max(undelivered(config, &store)?);
    code = code.max(keep_reports(
        configs,
        &mut store,
        (now, today),
        &summary,
        &progress,
    ));
    Ok(code)
}

/// A run as of `--today` must not be before the record's last run: it
/// would count days backwards.
fn not_before_the_last_run(
    config: &Config,
    store: &Store,
    run_day: NaiveDate,
) -> Result<(), Failure> {
    let last = store
        .last_run_day()
        .map_err(|e| database_error(config, &e))?;
    match last {
        Some(last) if run_day < last => Err(usage(format!(
            "--today {run_day}: the clerk's record goes on to {last}, and a run as of an \
             earlier day would count days backwards; give a day on or after {last}, or leave \
             --today out"
        ))),
        _ => Ok(()),
    }
}

/// Where a pass prints its events. Someone watching sees each as it
/// happens; cron and a pipe get them in blocks (a write per line was 2 % of
/// a large run). A killed run loses its last block of lines, not what it
/// did: that is in the database and the outbox.
fn event_output() -> Box<dyn Write> {
    let stdout = std::io::stdout();
    if stdout.is_terminal() {
        Box::new(stdout)
    } else {
        Box::new(std::io::BufWriter::new(stdout))
    }
}

/// Whether a file's name is one of the clerk's temporary files.
type IsOurs = fn(&str) -> bool;

/// Removes the temporary files a run killed while it wrote them left: an outbox message, a
/// report page, an edit of a tournament's
/// file, a letter put back into the Maildir. Only the clerk's own names are
/// taken, and only while it holds the run lock, so none is being written.
fn sweep_temporary_files(configs: &[Config]) {
    let mut places: Vec<(PathBuf, IsOurs)> = Vec::new();
    for config in configs {
        if let Transport::File { path } = &config.transport {
            let writing = path.join(shtempel::mail::transport::file::WRITING);
            places.push((writing, |name| {
                name.starts_with('.') && name.ends_with(".tmp")
            }));
        }
        if let Some(out) = &config.report_out {
            places.push((out.clone(), |name| {
                name.starts_with(".report-") && name.ends_with(".tmp")
            }));
        }
        if let Some(folder) = config.file.parent() {
            places.push((folder.to_path_buf(), |name| {
                name.starts_with(".shtempel-edit")
            }));
        }
        if let Source::Maildir { path } = &config.source {
            places.push((path.join("tmp"), |name| {
                name.contains(".retry-") && name.ends_with(".shtempel")
            }));
        }
    }
    // A folder's tournaments share the outbox, the Maildir and the folder
    // of their files: each is swept once.
    let mut swept: Vec<PathBuf> = Vec::new();
    for (folder, ours) in places {
        if swept.contains(&folder) {
            continue;
        }
        swept.push(folder.clone());
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if is_file && ours(&name.to_string_lossy()) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// How long a run may hold the lock before the runs it keeps out say it is
/// stuck.
const STUCK_AFTER: chrono::TimeDelta = chrono::TimeDelta::hours(1);

/// Says which run holds the lock; 1 where it has held it too long.
fn held_by_another(config: &Config, now: chrono::DateTime<Utc>) -> u8 {
    let Some(holder) = run::holder(&config.database) else {
        eprintln!(
            "shtempel: another run holds the lock of {}: this one did nothing",
            config.database.display()
        );
        return 0;
    };
    let minutes = (now - holder.since).num_minutes().max(0);
    let stuck = now - holder.since > STUCK_AFTER;
    let advice = if stuck {
        format!(
            "; it may be stuck on a mail server: `kill {}` ends it cleanly, and the next run \
             goes on",
            holder.pid
        )
    } else {
        "; it reads the same mail".to_string()
    };
    eprintln!(
        "shtempel: another run (process {}, at work for {minutes} min, since {}) holds the lock \
         of {}: this one did nothing{advice}",
        holder.pid,
        holder.since.format("%Y-%m-%d %H:%M UTC"),
        config.database.display()
    );
    u8::from(stuck)
}

/// The pass's exit code from what it did (1: a letter failed, or a signal
/// stopped it), and what it left for the next run said on stderr.
fn exit_code(summary: &run::Summary) -> u8 {
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
    code
}

/// Messages that failed before and wait for their next try fail this run
/// too, though none was tried now: cron must say so until they go.
fn undelivered(config: &Config, store: &Store) -> Result<u8, Failure> {
    let (undelivered, last_error) = store
        .undelivered()
        .map_err(|e| database_error(config, &e))?;
    if undelivered > 0 {
        eprintln!(
            "shtempel: {undelivered} message(s) not delivered yet (last error: {last_error}); \
             the next runs try again"
        );
        return Ok(1);
    }
    Ok(0)
}

/// Every tournament's `[report] out` kept after the pass, and a folder's
/// index of its events beside them; 1 where one could not be written (the
/// run's work is kept all the same; cron mails the failure).
fn keep_reports(
    configs: &[Config],
    store: &mut Store,
    (now, today): (chrono::DateTime<Utc>, Option<NaiveDate>),
    summary: &run::Summary,
    progress: &Progress,
) -> u8 {
    let mut code = 0;
    // The federation's lists, read once for every event's cross-table.
    let federation = match configs.iter().any(|c| c.report_out.is_some()) {
        true => {
            let day = clock(&configs[0], now, today).today;
            shtempel::report::rated::Federation::read(configs, store, day)
                .map_err(|error| {
                    eprintln!("shtempel: report: the rating list: {error}");
                    code = 1;
                })
                .ok()
        }
        false => None,
    };
    for (place, config) in configs.iter().enumerate() {
        let Some(out) = &config.report_out else {
            continue;
        };
        let section = federation.as_ref().map(|f| f.section(configs, place));
        // A folder's tournaments each have their report in a folder of its
        // own under `[report] out`.
        let out = match config.scope() {
            Some(id) => out.join(shtempel::report::event_folder(id)),
            None => out.clone(),
        };
        if let Err(failure) = keep_report(
            config,
            store,
            clock(config, now, today),
            &out,
            (summary, section.as_ref()),
            progress,
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
        && let Err(error) = shtempel::report::site::write_events(
            configs,
            store,
            clock(&configs[0], now, today).today,
            out,
            federation.as_ref(),
        )
    {
        eprintln!("shtempel: report: {error}");
        code = 1;
    }
    code
}

/// `[report] out` after a poll (see `shtempel::report::site::keep`).
pub(super) fn keep_report(
    config: &Config,
    store: &mut Store,
    clock: Clock,
    out: &Path,
    (summary, section): (&run::Summary, Option<&shtempel::report::rated::Section>),
    progress: &Progress,
) -> Result<(), Failure> {
    // This tournament's games, by their ids in it.
    let changed: std::collections::BTreeSet<String> = summary
        .games_changed
        .iter()
        .filter_map(|key| key.game_in(config.scope()).map(str::to_string))
        .collect();
    shtempel::report::site::keep(
        config,
        store,
        clock.today,
        out,
        &changed,
        section,
        &mut |done, total| progress.update("report", done, total),
    )
    .map_err(|e| run_error(format!("report: {e}")))?;
    progress.clear();
    Ok(())
}

/// Sets `stop` on SIGINT or SIGTERM; a second one, with `stop` set, ends
/// the process as the signal does by default (a run stuck on a server).
pub(super) fn stop_on_signals(stop: &Arc<AtomicBool>) -> Result<(), Failure> {
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register_conditional_default(signal, Arc::clone(stop))
            .and_then(|_| signal_hook::flag::register(signal, Arc::clone(stop)))
            .map_err(|e| run_error(format!("signals: {e}")))?;
    }
    Ok(())
}

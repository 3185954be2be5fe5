//! What a command prints: the run's events, a counter on the terminal,
//! the report written.

use std::io::Write;
use std::path::Path;

use shtempel::clerk::{Clock, Event};
use shtempel::config::Config;
use shtempel::printable::{printable, printable_json};
use shtempel::store::Store;

use super::{Failure, run_error};

/// How a command prints what it did: lines for a person, or one JSON
/// object a line for a script (`--json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Printer {
    Text,
    Json,
}

impl Printer {
    /// The printer `--json` asks for.
    pub(super) fn of(json: bool) -> Printer {
        match json {
            true => Printer::Json,
            false => Printer::Text,
        }
    }
}

/// Set when a line of the run's output could not be written (a full disk,
/// a closed pipe): the run goes on, and ends saying so (`main`).
pub static OUTPUT_LOST: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Writes one line of the run's output; one that cannot be written is
/// remembered, not a reason to stop the run.
pub(super) fn line_out(out: &mut dyn Write, line: std::fmt::Arguments<'_>) {
    if writeln!(out, "{line}").and_then(|()| out.flush()).is_err() {
        OUTPUT_LOST.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

pub(super) fn print_event(out: &mut dyn Write, event: &Event, printer: Printer) {
    if printer == Printer::Json {
        let line = serde_json::to_string(event).unwrap_or_default();
        line_out(out, format_args!("{}", printable_json(&line)));
    } else {
        let game = event
            .game
            .as_ref()
            .map(|g| format!("game {g}: "))
            .unwrap_or_default();
        let from = event
            .from
            .as_deref()
            .map(|f| format!(" [{f}]"))
            .unwrap_or_default();
        let line = format!("{game}{}{from}", event.detail);
        line_out(
            out,
            format_args!("{:<14} {}", event.event, printable(&line, false)),
        );
    }
}

/// A counter on the terminal for long work, silent under cron (no terminal)
/// and with `--json`.
pub(super) struct Progress {
    shown: std::cell::Cell<bool>,
    enabled: bool,
}

impl Progress {
    pub(super) fn new(printer: Printer) -> Progress {
        use std::io::IsTerminal;
        Progress {
            shown: std::cell::Cell::new(false),
            enabled: printer == Printer::Text && std::io::stderr().is_terminal(),
        }
    }

    pub(super) fn update(&self, what: &str, done: usize, total: usize) {
        if !self.enabled || total < 20 || (!done.is_multiple_of(10) && done != total) {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[K{what}: {done} of {total}");
        let _ = err.flush();
        self.shown.set(true);
    }

    /// Takes the counter off the line before other output.
    pub(super) fn clear(&self) {
        if self.shown.replace(false) {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[K");
        }
    }
}

/// Writes the report site into `out` (see `shtempel::report::site`).
pub(super) fn write_report(
    config: &Config,
    store: &Store,
    clock: Clock,
    out: &Path,
    only: Option<&std::collections::BTreeSet<String>>,
    section: Option<&shtempel::report::rated::Section>,
    progress: &Progress,
) -> Result<usize, Failure> {
    let written = shtempel::report::site::write(
        config,
        store,
        clock.today,
        out,
        only,
        section,
        &mut |done, total| progress.update("report", done, total),
    )
    .map_err(|e| run_error(format!("report: {e}")));
    progress.clear();
    written
}

//! `shtempel watch`: passes whenever mail comes (IMAP IDLE), until a signal.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use chrono::Utc;

use shtempel::config::Config;
use shtempel::error::Error;
use shtempel::run;

use super::database::{open_store_to_run, unadopted};
use super::output::{Printer, print_event};
use super::pass::stop_on_signals;
use super::wiring::{clerks, directory, source, templates_of, transport};
use super::{Context, Failure, load_all, run_error};

#[derive(clap::Args)]
pub struct Args {
    /// Minutes between passes when no mail comes.
    #[arg(long, default_value_t = 20)]
    interval: u64,
    /// One JSON object per event on standard output.
    #[arg(long)]
    json: bool,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let interval = Duration::from_secs(self.interval.max(1) * 60);
        loop {
            // Read anew after an order edited a tournament's file.
            let configs = load_all(&cx.config)?;
            if let Some(code) = watch(&configs, interval, Printer::of(self.json))? {
                return Ok(code);
            }
        }
    }
}

/// Passes until a signal (`Some`), or until an order edited a
/// tournament's file (`None`: the files are to be read again).
pub(super) fn watch(
    configs: &[Config],
    interval: Duration,
    printer: Printer,
) -> Result<Option<u8>, Failure> {
    let Some(config) = configs.first() else {
        return Ok(Some(0));
    };
    let (templates, template_of) = templates_of(configs)?;
    let stop = Arc::new(AtomicBool::new(false));
    stop_on_signals(&stop)?;
    let mut source = source(config)?;
    let mut transport = transport(config, Some(&stop))?;
    let Some(_lock) = run::lock(&config.database).map_err(|e| run_error(format!("lock: {e}")))?
    else {
        return Err(run_error(format!(
            "another run holds {}; stop it first",
            config.database.display()
        )));
    };
    let mut store = open_store_to_run(config, source.as_mut(), transport.as_ref())?;
    unadopted(config, &store)?;
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
                events: &mut |event| print_event(&mut std::io::stdout().lock(), &event, printer),
                progress: &mut |_, _| {},
                stop: &stop,
            },
        );
        let waited = match pass {
            Ok(summary) if summary.reread => {
                if printer == Printer::Text {
                    println!("watch: an order edited a tournament's file; reading it anew");
                }
                return Ok(None);
            }
            Ok(_) => source
                .wait_for_mail(interval, &stop)
                .map_err(|e| Error::mail(e.message)),
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
    if printer == Printer::Text {
        println!("watch: stopped");
    }
    Ok(Some(0))
}

//! `shtempel retry`: the letters set aside listed, or put back among the
//! new ones.

use shtempel::config::Config;
use shtempel::error::Error;
use shtempel::printable::printable;
use shtempel::run;
use shtempel::store::Store;

use super::database::{database_error, open_store_to_change};
use super::wiring::source;
use super::{Context, Failure, load_all, pick, run_error, usage};

#[derive(clap::Args)]
pub struct Args {
    /// The letter's key, as `retry` lists it.
    key: Option<String>,
    /// Every letter set aside.
    #[arg(long, conflicts_with = "key")]
    all: bool,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        // Letters set aside are the mailbox's, not an event's: every
        // tournament of a folder has the clerk's database and source,
        // so any of them serves.
        let configs = load_all(&cx.config)?;
        let config = match cx.tournament() {
            Some(id) => pick(&cx.config, configs, Some(id))?,
            None => configs
                .into_iter()
                .next()
                .ok_or_else(|| usage("retry: the configuration serves no tournament"))?,
        };
        retry(&config, self.key.as_deref(), self.all)
    }
}

/// `shtempel retry`: the letters set aside listed, or those named put back
/// into the mail source ([`run::put_back`] says in which order, and why).
pub(super) fn retry(config: &Config, key: Option<&str>, all: bool) -> Result<u8, Failure> {
    let Some(_lock) = run::lock(&config.database).map_err(|e| run_error(format!("lock: {e}")))?
    else {
        return Err(run_error(
            "retry: a poll is at work on this tournament; try again when it is done",
        ));
    };
    let mut store = open_store_to_change(config)?;
    let database = |e: Error| database_error(config, &e);
    let set_aside = store.quarantined().map_err(database)?;
    let Some(key) = key.filter(|_| !all) else {
        if !all {
            let ordered_back = store.releasing().map_err(database)?;
            if set_aside.is_empty() && ordered_back.is_empty() {
                println!("retry: no letter is set aside");
            }
            for letter in &ordered_back {
                println!(
                    "{}  ordered back by the chief arbiter: the next poll puts it back",
                    printable(&letter.dedup_key, false)
                );
            }
            for letter in &set_aside {
                let line = format!(
                    "{}  arrived {}  ({})  {}",
                    letter.dedup_key,
                    letter.arrived.format("%Y-%m-%d %H:%M"),
                    letter.source_key,
                    letter.reason
                );
                println!("{}", printable(&line, false));
            }
            return Ok(0);
        }
        return put_back(config, &mut store, &set_aside);
    };
    let chosen: Vec<_> = set_aside
        .into_iter()
        .filter(|letter| letter.is(key))
        .collect();
    if chosen.is_empty() {
        return Err(usage(format!(
            "retry: no letter is set aside under {key:?}; `shtempel retry` lists those that are"
        )));
    }
    put_back(config, &mut store, &chosen)
}

pub(super) fn put_back(
    config: &Config,
    store: &mut Store,
    letters: &[shtempel::store::Quarantined],
) -> Result<u8, Failure> {
    let mut source = source(config)?;
    for letter in letters {
        let key = &letter.dedup_key;
        match run::put_back(store, source.as_mut(), letter)
            .map_err(|e| run_error(format!("retry: {e}")))?
        {
            run::PutBack::Back => {
                println!("retry: {key} is back among the new letters; the next poll reads it again")
            }
            run::PutBack::NeverRead { file } => println!(
                "retry: {key} was never read ({}): the file is in the Maildir's cur/ as {file}; make it \
                 readable and move it back into new/",
                letter.reason
            ),
        }
    }
    Ok(0)
}

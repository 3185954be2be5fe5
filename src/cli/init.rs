//! `shtempel init`: the tournament's database made.

use shtempel::config::{Config, Source};
use shtempel::mail::source::maildir::Maildir;
use shtempel::store::{DatabaseFile, Store};

use super::database::{not_ours, open_file};
use super::{Context, Failure, load, usage};

#[derive(clap::Args)]
pub struct Args {}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        init(&load(&cx.config, cx.tournament())?)
    }
}

/// `shtempel init`: the database made on purpose, where none is, and a
/// Maildir source where its folder is not there yet.
pub(super) fn init(config: &Config) -> Result<u8, Failure> {
    if let Source::Maildir { path } = &config.source
        && !path.exists()
    {
        Maildir::create(path).map_err(|e| super::run_error(e.message))?;
        println!("init: Maildir {} made", path.display());
    }
    match Store::inspect(&config.database) {
        DatabaseFile::Missing | DatabaseFile::Empty => {
            open_file(config)?;
            println!("init: database {} created", config.database.display());
            Ok(0)
        }
        DatabaseFile::Ours | DatabaseFile::Older(_) => Err(usage(format!(
            "init: {} already holds the tournament's database; nothing done (move it away \
             first to begin again from nothing)",
            config.database.display()
        ))),
        other => Err(not_ours(config, &other)),
    }
}

//! `shtempel demo`: a bundled sample tournament played into a temporary
//! folder, and what the clerk did shown.

use std::path::PathBuf;

use super::{Context, Failure, run_error};

#[derive(clap::Args)]
pub struct Args {
    /// Keep the tournament in this folder instead of a temporary one.
    #[arg(long)]
    keep: Option<PathBuf>,
}

impl Args {
    pub fn run(self, _: &Context) -> Result<u8, Failure> {
        shtempel::demo::run(self.keep.as_deref(), &mut std::io::stdout())
            .map(|()| 0)
            .map_err(run_error)
    }
}

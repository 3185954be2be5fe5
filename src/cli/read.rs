//! `shtempel read FILE`: what the clerk reads in a letter's text, as JSON.

use std::path::{Path, PathBuf};

use shtempel::printable::printable_json;

use super::{Context, Failure, run_error, usage};

#[derive(clap::Args)]
pub struct Args {
    /// The body text; `-` for standard input.
    file: PathBuf,
}

impl Args {
    pub fn run(self, _: &Context) -> Result<u8, Failure> {
        read_letter(&self.file)
    }
}

pub(super) fn read_letter(file: &Path) -> Result<u8, Failure> {
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

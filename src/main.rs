//! The `shtempel` command line. The only place that may read the clock.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "shtempel",
    version,
    about = "An e-mail clerk for correspondence chess (section 10.3)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Read a letter's text (a plain-text body, not a whole .eml) and print what
    /// the clerk reads in it as JSON: game, moves, variants, fraction, dates,
    /// keywords, rulings and the errors with their lines.
    Read {
        /// The letter's body; `-` for standard input.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Read { file } => {
            let body = if file.as_os_str() == "-" {
                std::io::read_to_string(std::io::stdin())
            } else {
                std::fs::read(&file).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
            };
            match body {
                Ok(body) => {
                    let letter = shtempel::letter::read(&body);
                    match serde_json::to_string_pretty(&letter) {
                        Ok(json) => {
                            println!("{json}");
                            ExitCode::SUCCESS
                        }
                        Err(error) => {
                            eprintln!("shtempel: {error}");
                            ExitCode::from(1)
                        }
                    }
                }
                Err(error) => {
                    eprintln!("shtempel: cannot read {}: {error}", file.display());
                    ExitCode::from(2)
                }
            }
        }
    }
}

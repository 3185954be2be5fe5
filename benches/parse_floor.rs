//! The floor for `poll`: read every file of a Maildir's `new/` and parse it with
//! mail-parser alone, taking the text body as the clerk would, and print the
//! rate. `benches/poll.sh` divides the clerk's rate by this one.
//!
//! ```text
//! cargo run --release --features loadgen --bin parse-floor -- DIR/inbox/new
//! ```

use std::time::Instant;

use mail_parser::MessageParser;

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: parse-floor MAILDIR/new");
        std::process::exit(2);
    };
    let started = Instant::now();
    let parser = MessageParser::default();
    let mut letters = 0usize;
    let mut text_bytes = 0usize;
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        eprintln!("parse-floor: {dir}: {e}");
        std::process::exit(2);
    });
    for entry in entries.flatten() {
        let Ok(raw) = std::fs::read(entry.path()) else {
            continue;
        };
        if let Some(message) = parser.parse(&raw) {
            letters += 1;
            text_bytes += message.body_text(0).map_or(0, |t| t.len());
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{letters} letters parsed in {seconds:.3} s: {:.0} letters/s ({text_bytes} bytes of text)",
        letters as f64 / seconds
    );
}

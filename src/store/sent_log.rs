//! The sent log: one line per message the transport took, appended at once
//! (a crash of the process cannot lose a finished `write`), written into the
//! database with a later batch, and removed once no job is out and all it
//! holds is committed (in a run of many letters, at its end). A line written
//! twice changes nothing. On opening, a log left by a crash is written into
//! the database first.
//!
//! The sending thread appends through an instance of its own; the store
//! removes the file only while no job is sending (see `run`).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, NaiveDate, Utc};

use super::OutboxItem;

/// A message recorded as sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    pub id: i64,
    /// When it went (RFC 3339).
    pub at: String,
    /// The day it delivers its move on.
    pub today: NaiveDate,
    pub delivers: Option<(String, usize)>,
    /// The transport's receipt, on one line.
    pub receipt: String,
}

impl Sent {
    /// A message the transport took at `at`; it delivers its move on `today`.
    pub fn new(item: &OutboxItem, at: DateTime<Utc>, receipt: &str, today: NaiveDate) -> Sent {
        Sent {
            id: item.id,
            at: at.to_rfc3339(),
            today,
            delivers: item.delivers.clone(),
            receipt: receipt.replace(['\t', '\n', '\r'], " "),
        }
    }

    fn line(&self) -> String {
        let (game, ply) = match &self.delivers {
            Some((game, ply)) => (game.as_str(), ply.to_string()),
            None => ("", String::new()),
        };
        format!(
            "{}\t{}\t{}\t{game}\t{ply}\t{}\n",
            self.id, self.at, self.today, self.receipt
        )
    }

    /// A line of the log; `None` for a torn or foreign one.
    fn parse(line: &str) -> Option<Sent> {
        let mut fields = line.splitn(6, '\t');
        let id = fields.next()?.parse().ok()?;
        let at = fields.next()?.to_string();
        let today = fields.next()?.parse().ok()?;
        let game = fields.next()?;
        let ply = fields.next()?;
        let receipt = fields.next()?.to_string();
        let delivers = match game {
            "" => None,
            game => Some((game.to_string(), ply.parse().ok()?)),
        };
        Some(Sent {
            id,
            at,
            today,
            delivers,
            receipt,
        })
    }
}

pub struct SentLog {
    path: PathBuf,
    file: Option<File>,
}

impl SentLog {
    /// The log beside `database`.
    pub fn beside(database: &Path) -> SentLog {
        let mut name = database.as_os_str().to_os_string();
        name.push(".sent");
        SentLog {
            path: PathBuf::from(name),
            file: None,
        }
    }

    /// Another handle on the same log, for the sending thread.
    pub fn handle(&self) -> SentLog {
        SentLog {
            path: self.path.clone(),
            file: None,
        }
    }

    /// What a crashed run left in the log.
    pub fn left(&self) -> io::Result<Vec<Sent>> {
        match fs::read_to_string(&self.path) {
            Ok(text) => Ok(text.lines().filter_map(Sent::parse).collect()),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
            Err(error) => Err(error),
        }
    }

    pub fn append(&mut self, sent: &Sent) -> io::Result<()> {
        let file = match &mut self.file {
            Some(file) => file,
            None => {
                let mut options = super::private::options();
                options.append(true);
                self.file
                    .insert(super::private::open(&self.path, &options)?)
            }
        };
        // One write of one line: a crash after it returns cannot undo it.
        file.write_all(sent.line().as_bytes())
    }

    /// Lets go of the file, so that [`SentLog::clear`] through another
    /// handle cannot leave this one writing into a removed file.
    pub fn close(&mut self) {
        self.file = None;
    }

    /// Removes the log: every line in it is in the database.
    pub fn clear(&mut self) -> io::Result<()> {
        self.file = None;
        match fs::remove_file(&self.path) {
            Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_and_torn_ones_are_skipped() {
        let sent = Sent {
            id: 7,
            at: "2026-11-03T10:00:00+00:00".into(),
            today: NaiveDate::from_ymd_opt(2026, 11, 3).unwrap(),
            delivers: Some(("1-a".into(), 4)),
            receipt: "250 2.0.0 Ok: queued as 12345".into(),
        };
        let plain = Sent {
            delivers: None,
            id: 8,
            ..sent.clone()
        };
        let text = format!("{}{}8\t2026-11", sent.line(), plain.line());
        let read: Vec<Sent> = text.lines().filter_map(Sent::parse).collect();
        assert_eq!(read, [sent, plain]);
    }
}

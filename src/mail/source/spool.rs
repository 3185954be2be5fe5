//! The moves the clerk's Xfcc server took (`shtempel serve`), as letters.
//! The server writes each as a letter into a Maildir of its own beside the
//! database (its spool, [`crate::config::Config::xfcc_spool`]), synced
//! before it answers `Success`; a pass reads them with the mail
//! ([`WithSpool`]), in arrival order, as letters that came by Xfcc. The
//! spool is the clerk's: only the server writes there, so what it says of a
//! letter (that it came by Xfcc, the day the player was shown the move he
//! answers) is taken from it, and never from a letter that came by mail.
//! A letter is done, moved to `cur/`, once its effects are committed, as
//! any other; one applied twice (a crash between) is seen by its
//! Message-ID, as any other.

use std::collections::HashSet;
use std::fs;
use std::io::Write as _;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use chrono::{DateTime, NaiveDate, Utc};

use super::maildir::Maildir;
use crate::mail::{Envelope, MailError, MailSource};
use crate::rules::Channel;

use crate::xfcc::letter::SHOWN_HEADER;

/// A source of mail with the Xfcc server's spool beside it.
pub struct WithSpool {
    mail: Box<dyn MailSource>,
    spool: Maildir,
    /// The keys of the spool's letters the last fetch gave.
    from_spool: HashSet<String>,
}

impl WithSpool {
    /// `mail`, with the spool at `spool` where the server made one.
    pub fn over(mail: Box<dyn MailSource>, spool: &Path) -> Result<Box<dyn MailSource>, MailError> {
        if !spool.is_dir() {
            return Ok(mail);
        }
        Ok(Box::new(WithSpool {
            mail,
            spool: Maildir::open(spool)?,
            from_spool: HashSet::new(),
        }))
    }
}

impl MailSource for WithSpool {
    fn fetch_new(&mut self) -> Result<Vec<Envelope>, MailError> {
        let mut letters = self.mail.fetch_new()?;
        let moves = self.spool.fetch_new().map_err(|error| MailError {
            message: format!("the Xfcc server's moves: {}", error.message),
            ..error
        })?;
        self.from_spool = moves.iter().map(|m| m.key.clone()).collect();
        letters.extend(moves.into_iter().map(|mut envelope| {
            envelope.channel = Channel::Xfcc {
                shown_on: shown_on(&envelope.raw),
            };
            envelope
        }));
        // Mail and moves in the order they came (a stable sort: each
        // source's own order stays).
        letters.sort_by_key(|envelope| envelope.arrived);
        Ok(letters)
    }

    fn mark_done(&mut self, key: &str) -> Result<(), MailError> {
        match self.from_spool.contains(key) {
            true => self.spool.mark_done(key),
            false => self.mail.mark_done(key),
        }
    }

    fn mark_all_done(&mut self, keys: &[String]) -> Result<(), MailError> {
        let (moves, mail): (Vec<String>, Vec<String>) = keys
            .iter()
            .cloned()
            .partition(|key| self.from_spool.contains(key));
        if !mail.is_empty() {
            self.mail.mark_all_done(&mail)?;
        }
        self.spool.mark_all_done(&moves)
    }

    fn has_done_letters(&mut self) -> Result<bool, MailError> {
        self.mail.has_done_letters()
    }

    fn take_unreadable(&mut self) -> Vec<(String, String)> {
        let mut unreadable = self.mail.take_unreadable();
        let moves = self.spool.take_unreadable();
        self.from_spool
            .extend(moves.iter().map(|(key, _)| key.clone()));
        unreadable.extend(moves);
        unreadable
    }

    fn put_back(&mut self, raw: &[u8], arrived: DateTime<Utc>) -> Result<(), MailError> {
        self.mail.put_back(raw, arrived)
    }

    fn wait_for_mail(&mut self, max: Duration, stop: &AtomicBool) -> Result<bool, MailError> {
        self.mail.wait_for_mail(max, stop)
    }
}

/// The day the spool's letter says the player was shown the move he
/// answers.
fn shown_on(raw: &[u8]) -> Option<NaiveDate> {
    let head = &raw[..crate::mail::format::keys::header_end(raw).unwrap_or(raw.len())];
    String::from_utf8_lossy(head).lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.eq_ignore_ascii_case(SHOWN_HEADER)
            .then(|| value.trim().parse().ok())
            .flatten()
    })
}

/// Writes a letter into the spool at `spool` (made where missing) under
/// `name`, durably: through `tmp/`, synced, renamed into `new/`, the folder
/// synced. Once it returns, the move is taken and outlives a crash.
pub fn deliver(spool: &Path, name: &str, raw: &[u8]) -> std::io::Result<()> {
    Maildir::create(spool).map_err(|e| std::io::Error::other(e.message))?;
    let tmp = spool.join("tmp").join(name);
    let mut file = fs::File::create(&tmp)?;
    file.write_all(raw)?;
    file.sync_all()?;
    drop(file);
    let new = spool.join("new");
    fs::rename(&tmp, new.join(name))?;
    fs::File::open(&new)?.sync_all()
}

/// The names of the letters in the spool not yet read by a pass.
pub fn waiting(spool: &Path) -> std::io::Result<Vec<String>> {
    match fs::read_dir(spool.join("new")) {
        Ok(entries) => Ok(entries
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect()),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(error) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shown_day_is_read_from_the_spool_letters_header() {
        let raw = b"From: a@b.c\r\nX-Shtempel-Xfcc-Shown: 2026-11-12\r\n\r\nGame: 1\r\n";
        assert_eq!(shown_on(raw), NaiveDate::from_ymd_opt(2026, 11, 12));
        assert_eq!(
            shown_on(b"From: a@b.c\r\n\r\nX-Shtempel-Xfcc-Shown: 2026-11-12\r\n"),
            None
        );
        assert_eq!(shown_on(b"X-Shtempel-Xfcc-Shown: soon\r\n\r\n"), None);
    }
}

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
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, NaiveDate, Utc};

use super::maildir::Maildir;
use crate::mail::{Envelope, MailError, MailSource};
use crate::rules::Channel;

use crate::xfcc::letter::SHOWN_HEADER;

/// How often a wait for mail looks at the spool (an IMAP IDLE is ended and
/// begun again as often).
pub const SPOOL_LOOK: Duration = Duration::from_secs(20);

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

    /// Waits for mail, looking at the spool every [`SPOOL_LOOK`]: a move
    /// the server took while `watch` waits (it holds the run lock, so the
    /// server's own pass cannot run) goes with its next pass.
    fn wait_for_mail(&mut self, max: Duration, stop: &AtomicBool) -> Result<bool, MailError> {
        let end = Instant::now() + max;
        loop {
            if waiting(self.spool.root()).is_ok_and(|names| !names.is_empty()) {
                return Ok(true);
            }
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() || stop.load(Ordering::Relaxed) {
                return Ok(false);
            }
            if self.mail.wait_for_mail(left.min(SPOOL_LOOK), stop)? {
                return Ok(true);
            }
        }
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
    use std::path::PathBuf;

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

    /// A folder of its own under the system's temporary one.
    fn folder(name: &str) -> PathBuf {
        let folder =
            std::env::temp_dir().join(format!("shtempel-spool-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&folder);
        fs::create_dir_all(&folder).unwrap();
        folder
    }

    #[test]
    fn the_servers_moves_come_with_the_mail_in_arrival_order_each_marked_done_where_it_came_from() {
        let root = folder("order");
        let (inbox, spool) = (root.join("inbox"), root.join("spool"));
        let mail = Maildir::create(&inbox).unwrap();
        mail.deliver(
            "1.letter",
            b"Received: x; Thu, 12 Nov 2026 10:00:00 +0000\r\n\r\n1. e4\r\n",
        )
        .unwrap();
        mail.deliver(
            "3.letter",
            b"Received: x; Sat, 14 Nov 2026 10:00:00 +0000\r\n\r\n2. Nf3\r\n",
        )
        .unwrap();
        let taken = b"Received: x; Fri, 13 Nov 2026 10:00:00 +0000\r\nX-Shtempel-Xfcc-Shown: 2026-11-12\r\n\r\n1... e5\r\n";
        deliver(&spool, "2.xfcc-1-1.move-e5", taken).unwrap();
        assert_eq!(waiting(&spool).unwrap(), ["2.xfcc-1-1.move-e5"]);
        let mut source = WithSpool::over(Box::new(Maildir::open(&inbox).unwrap()), &spool).unwrap();
        let letters = source.fetch_new().unwrap();
        let keys: Vec<&str> = letters.iter().map(|l| l.key.as_str()).collect();
        assert_eq!(keys, ["1.letter", "2.xfcc-1-1.move-e5", "3.letter"]);
        let channels: Vec<Channel> = letters.iter().map(|l| l.channel).collect();
        let shown = NaiveDate::from_ymd_opt(2026, 11, 12);
        assert_eq!(
            channels,
            [
                Channel::Letter,
                Channel::Xfcc { shown_on: shown },
                Channel::Letter
            ]
        );
        source
            .mark_all_done(&["1.letter".into(), "2.xfcc-1-1.move-e5".into()])
            .unwrap();
        assert!(waiting(&spool).unwrap().is_empty());
        assert!(spool.join("cur").read_dir().unwrap().count() == 1);
        assert!(inbox.join("cur").read_dir().unwrap().count() == 1);
        // A wait for mail ends at once while a move waits, and not before
        // its end where none does.
        let stop = AtomicBool::new(false);
        assert!(
            !source
                .wait_for_mail(Duration::from_millis(50), &stop)
                .unwrap()
        );
        deliver(&spool, "4.xfcc-1-3.move-Nf6", taken).unwrap();
        assert!(
            source
                .wait_for_mail(Duration::from_secs(600), &stop)
                .unwrap()
        );
        // No spool: the mail alone.
        let alone = WithSpool::over(Box::new(Maildir::open(&inbox).unwrap()), &root.join("none"));
        assert_eq!(alone.unwrap().fetch_new().unwrap().len(), 1);
        let _ = fs::remove_dir_all(&root);
    }
}

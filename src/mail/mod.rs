//! Adapters to mail: where letters come from ([`MailSource`]), how messages go
//! out ([`Transport`]), the MIME front end ([`mime`]) and the composer
//! ([`compose`]).

pub mod format;
pub mod login;
pub mod source;
mod tls;
pub mod transport;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

/// A letter as a source hands it over.
#[derive(Clone, Debug)]
pub struct Envelope {
    /// Names the letter in its source, for marking it done.
    pub key: String,
    /// The letter, or of one over the size limit its headers only (an IMAP
    /// source does not download it whole).
    pub raw: Vec<u8>,
    /// Its whole size in bytes, as the source knows it.
    pub size: usize,
    /// When it reached our server: the postmark (rules.md 2.1).
    pub arrived: DateTime<Utc>,
    /// How it came: by mail, or from the clerk's Xfcc server
    /// (`source::spool`), which only a source says, never a letter's bytes.
    pub channel: crate::rules::Channel,
}

/// An error of a source or transport, saying whether trying again can help.
#[derive(Debug)]
pub struct MailError {
    pub message: String,
    /// A later run may succeed (network, 4xx); otherwise it is final (5xx).
    pub transient: bool,
}

impl std::fmt::Display for MailError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MailError {}

/// Where letters come from.
/// `Send`: a run marks letters done on the thread that sends.
pub trait MailSource: Send {
    /// The letters not yet done, in arrival order.
    fn fetch_new(&mut self) -> Result<Vec<Envelope>, MailError>;
    /// Called after the letter's effects are committed: never before.
    fn mark_done(&mut self, key: &str) -> Result<(), MailError>;

    /// Marks a batch's letters done, in as few round trips as the source
    /// allows (one `UID STORE` or `UID MOVE` over their set for IMAP).
    fn mark_all_done(&mut self, keys: &[String]) -> Result<(), MailError> {
        keys.iter().try_for_each(|key| self.mark_done(key))
    }

    /// Whether letters here are already marked done: a tournament under way,
    /// whose database must exist (a missing one is lost, not new).
    fn has_done_letters(&mut self) -> Result<bool, MailError> {
        Ok(false)
    }

    /// What the last `fetch_new` could not read, each under its key with
    /// why: the rest was read, and these are counted
    /// as failed letters.
    fn take_unreadable(&mut self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Puts a letter back among the new ones, as it arrived at `arrived`
    /// (`shtempel retry`): the next run reads it again, with its postmark.
    fn put_back(&mut self, raw: &[u8], arrived: DateTime<Utc>) -> Result<(), MailError>;

    /// Waits until new mail may have come, `max` at most, or until `stop` is
    /// set; says whether mail came. A source that cannot tell just waits.
    fn wait_for_mail(&mut self, max: Duration, stop: &AtomicBool) -> Result<bool, MailError> {
        let end = Instant::now() + max;
        while !stop.load(Ordering::Relaxed) {
            let left = end.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            std::thread::sleep(left.min(Duration::from_millis(500)));
        }
        Ok(false)
    }
}

/// What a transport answers when it accepts a message: the post-office receipt.
#[derive(Clone, Debug)]
pub struct Receipt {
    pub line: String,
}

/// How messages go out.
/// `Send`: a run sends on a thread of its own.
pub trait Transport: Send {
    fn send(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError>;

    /// How many messages [`Transport::send_many`] takes in one go to
    /// advantage: 1 where each is sent alone (a crash then sends again at
    /// most the message in flight). Asked only with messages to send: an
    /// SMTP sender connects to learn what the server offers.
    fn window(&mut self) -> usize {
        1
    }

    /// Sends messages in order, as many at a time as the transport can (an
    /// SMTP server with PIPELINING and CHUNKING takes a window in one turn):
    /// the outcome of each tried, in order; after a transient failure the
    /// rest are not tried, and have none.
    fn send_many(&mut self, messages: &[(&[String], &[u8])]) -> Vec<Result<Receipt, MailError>> {
        let mut outcomes = Vec::with_capacity(messages.len());
        for (recipients, raw) in messages {
            let outcome = self.send(recipients, raw);
            let stop = outcome.as_ref().is_err_and(|e| e.transient);
            outcomes.push(outcome);
            if stop {
                break;
            }
        }
        outcomes
    }

    /// Whether messages were already sent through it (a file outbox that
    /// holds some): a tournament under way.
    fn has_sent(&self) -> bool {
        false
    }

    /// What makes every message accepted so far durable, before the clerk
    /// records them as sent; `None` where accepting is durable (a post
    /// office's 250 reply). A folder of files is not until it is synced. A
    /// handle of its own, so that a run can sync one batch's messages on
    /// one thread while the next batch's are sent on another.
    fn syncer(&self) -> Option<Syncer> {
        None
    }
}

/// Makes durable what a transport accepted until it was called.
pub type Syncer = Box<dyn FnMut() -> Result<(), MailError> + Send>;

//! The IMAP source (async-imap on a small tokio runtime, TLS by rustls with the
//! ring provider). A poll asks the new letters' UIDs (`UID SEARCH`) and their
//! sizes (one `UID FETCH … RFC822.SIZE` over the set), then fetches them with
//! `UID INTERNALDATE BODY.PEEK[]<0.N>` in chunks of at most 200 letters and
//! 4 MB (one over `max_letter_bytes` for its headers only), so that nothing
//! is marked `\Seen` by reading and the round trips grow by the chunk, not
//! by the letter; the postmark is the `INTERNALDATE`. `N` is one byte past
//! `max_letter_bytes`: a server may announce a size smaller than the letter
//! it sends (Exchange counts an attachment decoded), and a letter that
//! comes that long is one over the limit, kept by its headers, while the
//! others are read. Only after a batch's
//! effects are committed are its letters marked done, in one command over
//! their set: moved to `processed_mailbox`, or flagged `$ShtempelDone` (and
//! `\Seen`).
//! Every network call has a timeout: a server that stops answering fails the run
//! cleanly, and the next run carries on.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use async_imap::Session;
use chrono::{DateTime, Utc};
use tokio::runtime::Runtime;

use crate::config::Server;
use crate::mail::login::Password;
use crate::mail::{Envelope, MailError, MailSource};

mod bound;
mod connection;
mod fetching;

use self::connection::Stream;
use self::fetching::{CHUNK_LETTERS, Got, chunks, envelopes, fetch, uid_set};

/// The keyword that marks a letter done when it is not moved.
pub const DONE_KEYWORD: &str = "$ShtempelDone";

/// How to reach and use the mailbox.
#[derive(Clone, Debug)]
pub struct ImapSettings {
    pub server: Server,
    pub password: Password,
    pub mailbox: String,
    pub processed_mailbox: Option<String>,
    /// The limit for each network call.
    pub timeout: Duration,
    /// A letter larger than this is fetched for its headers only.
    pub max_letter_bytes: usize,
}

/// What an IMAP server offers the clerk, logged in (`shtempel doctor`).
#[derive(Debug)]
pub struct ImapProbe {
    /// `MOVE`: a letter done is moved in one command.
    pub moves: bool,
    /// `UIDPLUS`: without MOVE, a letter copied is expunged alone.
    pub uidplus: bool,
    /// `IDLE`: `watch` hears of new mail at once.
    pub idle: bool,
    /// `[source] processed_mailbox`, if given: there, or why not.
    pub processed_mailbox: Option<Result<(), MailError>>,
}

pub struct ImapSource {
    runtime: Runtime,
    settings: ImapSettings,
    session: Option<Session<Stream>>,
    uid_validity: Option<u32>,
    /// What the server offers for moving letters to `processed_mailbox`,
    /// asked once a run (one `CAPABILITY`) the first time it is needed.
    moving: Option<Moving>,
}

/// How letters go to `processed_mailbox`: `UID MOVE` (RFC 6851) where the
/// server has MOVE; else `UID COPY`, then flagged done and `\Deleted` where
/// they are, and removed by `UID EXPUNGE` where it has UIDPLUS (a plain
/// EXPUNGE would remove every deleted letter of the mailbox, others' too:
/// without UIDPLUS they stay, flagged, and are never read again).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Moving {
    Move,
    CopyAndExpunge,
    Copy,
}

/// A failure a later run may not have. Its words hold what the server
/// said, so they are made printable and cut to a line's length: a server
/// that greets with 28 KB of garbage gets one line in the log.
fn fail(message: String) -> MailError {
    let message = crate::printable::printable(&message, false);
    MailError {
        message: crate::printable::bounded(&message, MOST_SAID).into_owned(),
        transient: true,
    }
}

/// `call` given `limit` to answer, its failure in words: `IMAP host:port:
/// no answer within Ns while fetching letters` where the server kept
/// silent, `IMAP host:port: fetching letters failed: …` where it refused.
async fn within<T, E: std::fmt::Display>(
    limit: Duration,
    where_: &str,
    what: &str,
    call: impl Future<Output = Result<T, E>>,
) -> Result<T, MailError> {
    match tokio::time::timeout(limit, call).await {
        Err(_) => Err(fail(format!(
            "IMAP {where_}: no answer within {}s while {what}",
            limit.as_secs()
        ))),
        Ok(Err(e)) => Err(fail(format!("IMAP {where_}: {what} failed: {e}"))),
        Ok(Ok(value)) => Ok(value),
    }
}

/// The most bytes of an error line about a server.
const MOST_SAID: usize = 1000;

impl ImapSource {
    pub fn new(settings: ImapSettings) -> Result<ImapSource, MailError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| fail(format!("cannot start the IMAP runtime: {e}")))?;
        Ok(ImapSource {
            runtime,
            settings,
            session: None,
            uid_validity: None,
            moving: None,
        })
    }

    /// Logs in and selects the mailbox as a run would, then says what the
    /// server offers and whether the processed mailbox is there; changes
    /// nothing (`shtempel doctor`).
    pub fn probe(&mut self) -> Result<ImapProbe, MailError> {
        let mut session = self.logged_in()?;
        let limit = self.settings.timeout;
        let where_ = self.where_();
        let processed = self.settings.processed_mailbox.clone();
        let probe = self.runtime.block_on(async {
            let offered = tokio::time::timeout(limit, session.capabilities())
                .await
                .map_err(|_| fail(format!("IMAP {where_}: no answer to CAPABILITY")))?
                .map_err(|e| fail(format!("IMAP {where_}: CAPABILITY failed: {e}")))?;
            let processed_mailbox = match &processed {
                None => None,
                Some(name) => Some(
                    tokio::time::timeout(limit, session.examine(name))
                        .await
                        .map_err(|_| fail(format!("no answer to EXAMINE {name:?}")))
                        .and_then(|examined| examined.map(drop).map_err(|e| fail(e.to_string()))),
                ),
            };
            let _ = tokio::time::timeout(limit, session.logout()).await;
            Ok::<_, MailError>(ImapProbe {
                moves: offered.has_str("MOVE"),
                uidplus: offered.has_str("UIDPLUS"),
                idle: offered.has_str("IDLE"),
                processed_mailbox,
            })
        })?;
        Ok(probe)
    }

    /// The headers of the last `count` letters of the mailbox, and of the
    /// processed mailbox where one is set (`shtempel doctor` reads the
    /// server's verdicts in them); reads them without marking them `\Seen`.
    pub fn recent_heads(&mut self, count: usize) -> Result<Vec<Vec<u8>>, MailError> {
        let mut session = self.logged_in()?;
        let limit = self.settings.timeout;
        let where_ = self.where_();
        let processed = self.settings.processed_mailbox.clone();
        let heads = self.runtime.block_on(async {
            let mut heads = Vec::new();
            let last = async |session: &mut Session<Stream>| {
                let uids = within(limit, &where_, "searching", session.uid_search("ALL")).await?;
                let mut uids: Vec<u32> = uids.into_iter().collect();
                uids.sort_unstable();
                let newest = &uids[uids.len().saturating_sub(count)..];
                if newest.is_empty() {
                    return Ok::<_, MailError>(Vec::new());
                }
                let heads = fetch(session, newest, "(UID BODY.PEEK[HEADER])");
                let got = within(limit, &where_, "fetching headers", heads).await?;
                Ok(newest
                    .iter()
                    .filter_map(|uid| got.get(uid).and_then(|f| f.header()).map(<[u8]>::to_vec))
                    .collect())
            };
            heads.extend(last(&mut session).await?);
            if let Some(name) = &processed {
                let what = "examining the processed mailbox";
                let examined = within(limit, &where_, what, session.examine(name)).await;
                if examined.is_ok() {
                    heads.extend(last(&mut session).await?);
                }
            }
            let _ = tokio::time::timeout(limit, session.logout()).await;
            Ok::<_, MailError>(heads)
        })?;
        Ok(heads)
    }

    /// A session logged in with the mailbox selected, taken out for a
    /// one-off conversation that ends by logging out (`doctor`'s).
    fn logged_in(&mut self) -> Result<Session<Stream>, MailError> {
        self.connect()?;
        self.session.take().ok_or_else(|| {
            fail(format!(
                "IMAP {}: no session after logging in",
                self.where_()
            ))
        })
    }

    /// The mailbox's UIDVALIDITY as last seen.
    pub fn uid_validity(&self) -> Option<u32> {
        self.uid_validity
    }

    fn where_(&self) -> String {
        format!(
            "{}:{}",
            self.settings.server.host, self.settings.server.port
        )
    }
}

impl MailSource for ImapSource {
    fn wait_for_mail(&mut self, max: Duration, stop: &AtomicBool) -> Result<bool, MailError> {
        // IDLE for at most 25 minutes at a time: servers drop an IDLE after 30.
        self.idle(max.min(Duration::from_secs(25 * 60)), stop)
    }

    fn fetch_new(&mut self) -> Result<Vec<Envelope>, MailError> {
        self.connect()?;
        let limit = self.settings.timeout;
        let where_ = self.where_();
        let max_bytes = self.settings.max_letter_bytes;
        let query = if self.settings.processed_mailbox.is_some() {
            "ALL".to_string()
        } else {
            format!("UNKEYWORD {DONE_KEYWORD}")
        };
        let validity = self.uid_validity.unwrap_or(0);
        let Some(mut session) = self.session.take() else {
            return Ok(Vec::new());
        };
        let result = self.runtime.block_on(async {
            // NOOP first, so that mail delivered since SELECT is seen.
            within(limit, &where_, "checking for new mail", session.noop()).await?;
            let uids = within(limit, &where_, "searching", session.uid_search(&query)).await?;
            let mut uids: Vec<u32> = uids.into_iter().collect();
            uids.sort_unstable();
            if uids.is_empty() {
                return Ok(Vec::new());
            }
            // The sizes first, in one command: the letters are then fetched
            // in chunks of a few megabytes, and one over the size limit only
            // for its headers.
            let sizes = fetch(&mut session, &uids, "(UID RFC822.SIZE)");
            let sizes = within(limit, &where_, "asking the letters' sizes", sizes).await?;
            let size = |uid: &u32| {
                sizes
                    .get(uid)
                    .and_then(|f| f.size)
                    .map_or(0, |s| s as usize)
            };
            let (whole, heads): (Vec<u32>, Vec<u32>) =
                uids.iter().partition(|uid| size(uid) <= max_bytes);
            let mut fetched = std::collections::HashMap::new();
            let whole_letters = format!(
                "(UID INTERNALDATE BODY.PEEK[]<0.{}>)",
                max_bytes.saturating_add(1)
            );
            for chunk in chunks(&whole, |uid| size(uid)) {
                let letters = fetch(&mut session, chunk, &whole_letters);
                let got = within(limit, &where_, "fetching letters", letters).await?;
                for (uid, item) in got {
                    if let Some(body) = item.body() {
                        fetched.insert(uid, Got::cut_at(body, max_bytes, item.internal_date()));
                    }
                }
            }
            for chunk in heads.chunks(CHUNK_LETTERS) {
                let heads = fetch(&mut session, chunk, "(UID INTERNALDATE BODY.PEEK[HEADER])");
                let got = within(limit, &where_, "fetching headers", heads).await?;
                for (uid, item) in got {
                    if let Some(head) = item.header() {
                        fetched.insert(
                            uid,
                            Got {
                                raw: head.to_vec(),
                                seen: head.len(),
                                internal: item.internal_date(),
                            },
                        );
                    }
                }
            }
            let sizes: Vec<usize> = uids.iter().map(size).collect();
            envelopes(&uids, &sizes, fetched, validity, &where_)
        });
        match result {
            Ok(letters) => {
                self.session = Some(session);
                Ok(letters)
            }
            Err(error) => Err(error),
        }
    }

    /// Letters flagged done in the mailbox, or any in the processed mailbox.
    fn has_done_letters(&mut self) -> Result<bool, MailError> {
        self.connect()?;
        let limit = self.settings.timeout;
        let where_ = self.where_();
        let processed = self.settings.processed_mailbox.clone();
        let Some(mut session) = self.session.take() else {
            return Ok(false);
        };
        let result = self.runtime.block_on(async {
            let found = async {
                match &processed {
                    // A processed mailbox not made yet holds nothing.
                    Some(target) => Ok(session
                        .status(target, "(MESSAGES)")
                        .await
                        .is_ok_and(|mailbox| mailbox.exists > 0)),
                    None => session
                        .uid_search(format!("KEYWORD {DONE_KEYWORD}"))
                        .await
                        .map(|uids| !uids.is_empty()),
                }
            };
            within(limit, &where_, "looking for done letters", found).await
        });
        if result.is_ok() {
            self.session = Some(session);
        }
        result
    }

    /// APPENDed to the mailbox with the time it arrived as its INTERNALDATE
    /// (its postmark).
    fn put_back(&mut self, raw: &[u8], arrived: DateTime<Utc>) -> Result<(), MailError> {
        self.connect()?;
        let limit = self.settings.timeout;
        let where_ = self.where_();
        let mailbox = self.settings.mailbox.clone();
        let Some(mut session) = self.session.take() else {
            return Ok(());
        };
        // RFC 3501's date-time is a quoted string (async-imap writes it as
        // given): unquoted, Dovecot waits for the rest of the command.
        let date = arrived.format("\"%d-%b-%Y %H:%M:%S +0000\"").to_string();
        let result = self.runtime.block_on(async {
            let append = session.append(&mailbox, None, Some(&date), raw);
            within(limit, &where_, "putting a letter back", append).await
        });
        if result.is_ok() {
            self.session = Some(session);
        }
        result
    }

    fn mark_done(&mut self, key: &str) -> Result<(), MailError> {
        self.mark_all_done(&[key.to_string()])
    }

    /// One `UID MOVE` to `processed_mailbox` (or `UID STORE` of the done
    /// keyword) over the batch's set, in chunks of [`CHUNK_LETTERS`].
    fn mark_all_done(&mut self, keys: &[String]) -> Result<(), MailError> {
        let mut uids = Vec::with_capacity(keys.len());
        for key in keys {
            match key
                .rsplit(':')
                .next()
                .and_then(|uid| uid.parse::<u32>().ok())
            {
                Some(uid) => uids.push(uid),
                None => {
                    return Err(MailError {
                        message: format!("not an IMAP letter key: {key}"),
                        transient: false,
                    });
                }
            }
        }
        if uids.is_empty() {
            return Ok(());
        }
        uids.sort_unstable();
        for chunk in uids.chunks(CHUNK_LETTERS) {
            self.mark_set_done(&uid_set(chunk))?;
        }
        Ok(())
    }
}

impl ImapSource {
    fn mark_set_done(&mut self, uid: &str) -> Result<(), MailError> {
        let uid = uid.to_string();
        self.connect()?;
        let limit = self.settings.timeout;
        let where_ = self.where_();
        let processed = self.settings.processed_mailbox.clone();
        let Some(mut session) = self.session.take() else {
            return Ok(());
        };
        let mut moving = self.moving;
        let result = self.runtime.block_on(async {
            let marking = async {
                match &processed {
                    Some(target) => {
                        let how = match moving {
                            Some(how) => how,
                            None => {
                                let offered = session.capabilities().await?;
                                let how = if offered.has_str("MOVE") {
                                    Moving::Move
                                } else if offered.has_str("UIDPLUS") {
                                    Moving::CopyAndExpunge
                                } else {
                                    Moving::Copy
                                };
                                moving = Some(how);
                                how
                            }
                        };
                        if how == Moving::Move {
                            return session.uid_mv(&uid, target).await;
                        }
                        session.uid_copy(&uid, target).await?;
                        let flags = format!("+FLAGS.SILENT (\\Seen \\Deleted {DONE_KEYWORD})");
                        // The command's own answer checked: async-imap's
                        // uid_store passes over a NO (a mailbox the clerk
                        // may not change), and the letter was taken for done.
                        session
                            .run_command_and_check_ok(format!("UID STORE {uid} {flags}"))
                            .await?;
                        if how == Moving::CopyAndExpunge {
                            session
                                .run_command_and_check_ok(format!("UID EXPUNGE {uid}"))
                                .await?;
                        }
                        Ok(())
                    }
                    None => {
                        let flags = format!("+FLAGS.SILENT (\\Seen {DONE_KEYWORD})");
                        session
                            .run_command_and_check_ok(format!("UID STORE {uid} {flags}"))
                            .await
                    }
                }
            };
            within(limit, &where_, &format!("marking UID {uid} done"), marking).await
        });
        if result.is_ok() {
            self.session = Some(session);
            self.moving = moving;
        }
        result
    }
}

impl Drop for ImapSource {
    fn drop(&mut self) {
        self.close();
    }
}

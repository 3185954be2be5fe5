//! Fetching letters by UID: sets of UIDs as IMAP writes them, chunks
//! bounded by count and bytes, one `UID FETCH` read to its end within a
//! bound, and the letters fetched made envelopes.

use async_imap::Session;
use chrono::Utc;
use futures::StreamExt;

use super::connection::Stream;
use crate::mail::{Envelope, MailError};

/// At most this many bytes (by RFC822.SIZE) of letters in one FETCH.
pub(super) const CHUNK_BYTES: usize = 4 * 1024 * 1024;
/// At most this many letters in one FETCH or STORE.
pub(super) const CHUNK_LETTERS: usize = 200;

/// A set of UIDs as IMAP writes it: runs as ranges (`3:7,9,12:13`).
pub(super) fn uid_set(uids: &[u32]) -> String {
    let mut set = String::new();
    let mut at = 0;
    while at < uids.len() {
        let first = uids[at];
        let mut last = first;
        while at + 1 < uids.len() && uids[at + 1] == last + 1 {
            at += 1;
            last = uids[at];
        }
        if !set.is_empty() {
            set.push(',');
        }
        if first == last {
            set.push_str(&first.to_string());
        } else {
            set.push_str(&format!("{first}:{last}"));
        }
        at += 1;
    }
    set
}

/// `uids` in chunks of at most [`CHUNK_LETTERS`] and [`CHUNK_BYTES`] (a
/// letter larger than that is a chunk of its own).
pub(super) fn chunks(uids: &[u32], size: impl Fn(&u32) -> usize) -> Vec<&[u32]> {
    let mut chunks = Vec::new();
    let (mut start, mut bytes) = (0, 0);
    for (at, uid) in uids.iter().enumerate() {
        let full = at > start && (at - start >= CHUNK_LETTERS || bytes + size(uid) > CHUNK_BYTES);
        if full {
            chunks.push(&uids[start..at]);
            (start, bytes) = (at, 0);
        }
        bytes += size(uid);
    }
    if start < uids.len() {
        chunks.push(&uids[start..]);
    }
    chunks
}

/// One `UID FETCH` over `uids`: what came, by UID.
pub(super) async fn fetch(
    session: &mut Session<Stream>,
    uids: &[u32],
    items: &str,
) -> Result<std::collections::HashMap<u32, async_imap::types::Fetch>, async_imap::error::Error> {
    let mut stream = session.uid_fetch(uid_set(uids), items).await?;
    let mut got = std::collections::HashMap::with_capacity(uids.len());
    // A server may repeat an answer, not send endless ones: past twice the
    // letters asked (and a few flag updates) it is not answering this.
    let most = uids.len().saturating_mul(2).saturating_add(64);
    let mut answers = 0usize;
    while let Some(item) = stream.next().await {
        answers += 1;
        if answers > most {
            return Err(async_imap::error::Error::Io(std::io::Error::other(
                format!(
                    "the server sent over {most} FETCH answers for {} letter(s)",
                    uids.len()
                ),
            )));
        }
        let item = item?;
        if let Some(uid) = item.uid {
            got.insert(uid, item);
        }
    }
    Ok(got)
}

/// The letters fetched, by UID: their bytes and INTERNALDATE.
pub(super) type Fetched = std::collections::HashMap<u32, Got>;

/// What came of one letter: the letter (or its headers), how many bytes of
/// it came, and its INTERNALDATE.
pub(super) struct Got {
    pub raw: Vec<u8>,
    pub seen: usize,
    pub internal: Option<chrono::DateTime<chrono::FixedOffset>>,
}

impl Got {
    /// A letter fetched with `<0.max+1>`: whole where it fits `max`, else
    /// (it came longer than the server announced) its headers alone, one
    /// byte past `max` seen, so that it is kept as one over the limit.
    pub(super) fn cut_at(
        body: &[u8],
        max: usize,
        internal: Option<chrono::DateTime<chrono::FixedOffset>>,
    ) -> Got {
        if body.len() <= max {
            return Got {
                raw: body.to_vec(),
                seen: body.len(),
                internal,
            };
        }
        let head_end = body
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map(|at| at + 4)
            .or_else(|| body.windows(2).position(|w| w == b"\n\n").map(|at| at + 2))
            .unwrap_or(body.len());
        Got {
            raw: body[..head_end].to_vec(),
            seen: body.len(),
            internal,
        }
    }
}

/// The letters fetched, as envelopes in the order of their UIDs (`sizes`
/// the server's, beside them), each with its postmark (INTERNALDATE, else
/// the topmost Received: header); one gone meanwhile is left out.
pub(super) fn envelopes(
    uids: &[u32],
    sizes: &[usize],
    mut fetched: Fetched,
    validity: u32,
    where_: &str,
) -> Result<Vec<Envelope>, MailError> {
    let mut letters = Vec::with_capacity(uids.len());
    for (&uid, &size) in uids.iter().zip(sizes) {
        // Gone meanwhile (another client expunged it): nothing to do.
        let Some(Got {
            raw,
            seen,
            internal,
        }) = fetched.remove(&uid)
        else {
            continue;
        };
        // INTERNALDATE is the postmark; a server that gives none
        // (none known) leaves the topmost Received: header.
        let arrived = internal
            .map(|date| date.with_timezone(&Utc))
            .or_else(|| crate::mail::source::maildir::topmost_received(&raw));
        let Some(arrived) = arrived else {
            return Err(super::fail(format!(
                "IMAP {where_}: UID {uid} has no INTERNALDATE"
            )));
        };
        letters.push(Envelope {
            key: format!("imap:{validity}:{uid}"),
            size: size.max(seen),
            raw,
            arrived,
            channel: crate::rules::Channel::Letter,
        });
    }
    Ok(letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uid_sets_are_written_as_runs_and_chunks_bounded_by_count_and_bytes() {
        assert_eq!(uid_set(&[3]), "3");
        assert_eq!(uid_set(&[3, 4, 5, 7, 9, 10]), "3:5,7,9:10");
        let uids: Vec<u32> = (1..=450).collect();
        let by_count: Vec<usize> = chunks(&uids, |_| 1).iter().map(|c| c.len()).collect();
        assert_eq!(by_count, [200, 200, 50]);
        // 1.5 MB letters: two fit in 4 MB, the third starts a chunk; a
        // letter larger than a chunk is one of its own.
        let sizes = |uid: &u32| if *uid == 4 { 9_000_000 } else { 1_500_000 };
        let by_bytes: Vec<&[u32]> = chunks(&[1, 2, 3, 4, 5], sizes);
        assert_eq!(by_bytes, [&[1, 2][..], &[3], &[4], &[5]]);
    }
}

//! What names a letter: where its headers end, its fingerprint (the same
//! letter come again by another route), and the key it is stored under
//! (never twice). The mail's own facts, below every use of them (the
//! sources, the store, the clerk).

use sha2::{Digest, Sha256};

use crate::mail::format::mime::Mail;

/// The most of a header field (a sender, a Message-ID) kept or printed.
pub const FIELD_MOST: usize = 256;

/// Where a message's headers end: after the first empty line.
pub fn header_end(raw: &[u8]) -> Option<usize> {
    raw.windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|at| at + 4)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|at| at + 2))
}

/// The same letter is the same sender and the same body: a letter that
/// comes again under its Message-ID, by another route (other `Received:`
/// headers), has the same fingerprint; another letter under a known
/// Message-ID (a squatter's) has not.
pub fn fingerprint(sender: Option<&str>, raw: &[u8]) -> String {
    let body = &raw[header_end(raw).unwrap_or(raw.len())..];
    let mut digest = Sha256::new();
    digest.update(sender.unwrap_or("").as_bytes());
    digest.update(b"\n");
    digest.update(body);
    format!("{:x}", digest.finalize())
}

/// The key under which a message is never stored twice: Message-ID, else a hash.
pub fn dedup_key(mail: Option<&Mail>, raw: &[u8]) -> String {
    match mail.and_then(|m| m.message_id.as_deref()) {
        // A Message-ID longer than any mail program writes is kept by its
        // digest.
        Some(id) if id.len() > FIELD_MOST => format!("mid-sha256:{:x}", Sha256::digest(id)),
        Some(id) => format!("mid:{id}"),
        None => format!("sha256:{:x}", Sha256::digest(raw)),
    }
}

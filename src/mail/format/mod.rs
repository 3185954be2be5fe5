//! Mail's formats, with no connection to anything: a letter's MIME read
//! (`mime`), the clerk's messages written (`compose`), what names a letter
//! (`keys`: fingerprint, dedup key), the clerk's display name and
//! Message-IDs (`identity`), sender checks (`auth`, over RFC 8601 fields
//! read by their grammar: `authres`), letters filed for the arbiter
//! (`filing`).

pub mod auth;
pub mod authres;
pub mod compose;
pub mod filing;
pub mod identity;
pub mod keys;
pub mod mime;

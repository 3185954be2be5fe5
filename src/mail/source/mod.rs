//! Where letters come from ([`super::MailSource`]): a Maildir folder
//! (`maildir`) or an IMAP mailbox (`imap`), with the moves the Xfcc
//! server took beside either (`spool`).

pub mod imap;
pub mod maildir;
pub mod spool;

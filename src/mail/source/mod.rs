//! Where letters come from ([`super::MailSource`]): a Maildir folder
//! (`maildir`) or an IMAP mailbox (`imap`).

pub mod imap;
pub mod maildir;

//! How messages go out ([`super::Transport`]): files in a folder (`file`),
//! an SMTP server (`smtp`, by layer: wire, window, pace), or the local
//! sendmail (`sendmail`).

pub mod file;
pub mod sendmail;
pub mod smtp;

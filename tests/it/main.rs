//! The integration tests: one crate, as ripgrep and cargo keep theirs, so
//! that a change builds and links one test binary instead of one a file.
//! Each module is a suite of its own (`cargo test --test it attacks::`
//! runs one); `support` is what they share: a tournament in a temporary
//! folder driven through the binary or in this process, and the messages
//! it sent, parsed.

mod support;

mod attacks;
mod boards;
mod corners;
mod corpus;
mod deployment;
mod digest;
mod director;
mod docs;
mod doctor;
mod faults;
mod federation;
mod guarded;
mod hostile;
mod hostile_mail;
mod hostile_servers;
mod layout;
mod life;
mod life_properties;
mod mail_programs;
mod pairings;
mod person;
mod poll;
mod preferences;
mod rating_list;
mod ratings;
mod real_mail;
mod replies;
mod report;
mod rules;
mod several_games;
mod start;
mod status;
mod verdicts;
mod words;
mod xfcc;
mod xfcc_game;

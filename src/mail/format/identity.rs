//! Who the clerk is in the headers it writes: its `From:` display name and
//! subject tag, and the Message-IDs of its messages.

use std::fmt::Write;

use chrono::{DateTime, Datelike, Timelike, Utc};
use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::key::ascii_id;
use crate::mail::format::compose::Sender;
use crate::phrases::Phrases;

/// The clerk's `From:` and subject tag.
pub fn sender(config: &Config, phrases: &Phrases) -> Sender {
    let role = phrases.get("names.clerk");
    Sender {
        name: display_name(&config.tournament_name, role),
        email: config.address.clone(),
        tournament: config.tournament_id.clone(),
    }
}

/// The clerk's `From:` where it speaks for no event: its role alone, and
/// no subject tag (see [`compose::Outgoing::of_event`]).
pub fn clerk_alone(config: &Config, phrases: &Phrases) -> Sender {
    Sender {
        name: phrases.get("names.clerk_alone").to_string(),
        email: config.address.clone(),
        tournament: String::new(),
    }
}

/// The clerk's display name: "<tournament> (<role>)" for every event and
/// language, its spaces single, never the id and never two brackets: a
/// name that ends in its own bracket takes the role inside it ("Cup (final,
/// clerk)"). However long, the name goes whole: its encoded words break at
/// its spaces (`compose::address_field`), so no reader shows a word cut in
/// two.
pub fn display_name(name: &str, role: &str) -> String {
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    match name.strip_suffix(')') {
        _ if name.is_empty() => role.to_string(),
        Some(open) if open.contains('(') => format!("{open}, {role})"),
        _ => format!("{name} ({role})"),
    }
}

/// The Message-ID of a player's start sheet: the same whenever it is
/// made, so that `shtempel start` never sends one twice and the day it was
/// accepted can be looked up.
pub fn start_sheet_id(config: &Config, player: &str) -> String {
    let at = config.start_date.and_time(chrono::NaiveTime::MIN).and_utc();
    let cause = format!("start-sheet:{player}");
    let parts = IdParts {
        cause: &cause,
        at,
        index: 0,
        kind: "start-sheet",
    };
    message_id(config, parts)
}

/// What a Message-ID is made from: its cause (a letter's key, a duty, an
/// order), the time of the cause (`at`: the letter's arrival, or the day
/// of a duty), its place among the cause's messages, and its kind.
#[derive(Clone, Copy, Debug)]
pub struct IdParts<'a> {
    pub cause: &'a str,
    pub at: DateTime<Utc>,
    pub index: usize,
    pub kind: &'a str,
}

/// A Message-ID that is the same whenever the same letter or duty causes the
/// same message, so that a message sent twice after a crash carries one id.
/// It begins with the time of its cause (`at`: the letter's arrival, or the
/// day of a duty), so that the ids of a run come in order and the outbox's
/// unique index takes each at its end: with the digest first, every batch
/// rewrote most of the index's pages (an eighth of the pages a run wrote).
pub fn message_id(config: &Config, parts: IdParts) -> String {
    message_id_in(config, &ascii_id(&config.tournament_id), parts)
}

/// The same for a message of no event (`of_event` false): its last part
/// `no.event`, which no event's [`ascii_id`] is (it has no dot), so that
/// a reply to it is placed by what it says, not by its thread.
pub fn message_id_of_no_event(config: &Config, parts: IdParts) -> String {
    message_id_in(config, "no.event", parts)
}

fn message_id_in(config: &Config, ascii: &str, parts: IdParts) -> String {
    let IdParts {
        cause,
        at,
        index,
        kind,
    } = parts;
    let digest = Sha256::digest(format!("{cause}\n{index}\n{kind}").as_bytes());
    let mut hex = String::with_capacity(24);
    for byte in &digest[..12] {
        let _ = write!(hex, "{byte:02x}");
    }
    let domain = config.address.rsplit('@').next().unwrap_or("localhost");
    // The time written out by hand: a format string is parsed at each use,
    // and every message of a run has an id.
    format!(
        "<{:04}{:02}{:02}{:02}{:02}{:02}.{hex}.{}@{domain}>",
        at.year(),
        at.month(),
        at.day(),
        at.hour(),
        at.minute(),
        at.second(),
        ascii
    )
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use chrono::NaiveDate;

    use super::*;
    use crate::mail::format::compose;

    #[test]
    fn the_clerks_display_name_is_the_events_name_and_role_read_back_whole() {
        let from_line = |name: &str| {
            let sender = Sender {
                name: name.to_string(),
                email: "clerk@example.org".into(),
                tournament: "T".into(),
            };
            let message = compose::Outgoing {
                kind: crate::message::MessageKind::Ack,
                game: None,
                to: vec![compose::Recipient {
                    name: "Игрок".into(),
                    email: "p@example.org".into(),
                }],
                cc: vec![],
                in_reply_to: None,
                registered: false,
                generated: false,
                attachments: vec![],
                delivers: None,
                send_on: None,
                digest_for: None,
                model: crate::render::Model::from(()),
                message_id: None,
                of_event: true,
                event: None,
                words: compose::Words {
                    subject: "s".into(),
                    body: "b".into(),
                    pictures: Vec::new(),
                },
            };
            let raw = compose::build(&message, &sender, "<m@x>", DateTime::UNIX_EPOCH).unwrap();
            let text = String::from_utf8(raw).unwrap();
            let head = text.split("\r\n\r\n").next().unwrap().replace("\r\n ", " ");
            let from = head
                .lines()
                .find(|l| l.starts_with("From:"))
                .unwrap()
                .to_string();
            let parsed = crate::mail::format::mime::parse(text.as_bytes(), "nobody@x").unwrap();
            (from, parsed.from_name.unwrap_or_default())
        };
        // (event's name, role, display name)
        let cases = [
            ("Кубок  РФ", "секретарь", "Кубок РФ (секретарь)"),
            (
                "Кубок Федерации заочных шахмат по переписке 2026 года",
                "секретарь",
                "Кубок Федерации заочных шахмат по переписке 2026 года (секретарь)",
            ),
            ("Кубок (финал)", "секретарь", "Кубок (финал, секретарь)"),
            (
                "Double round robin (EN)",
                "clerk",
                "Double round robin (EN, clerk)",
            ),
            (
                "The Federation's correspondence chess cup of the year 2026",
                "clerk",
                "The Federation's correspondence chess cup of the year 2026 (clerk)",
            ),
            ("", "clerk", "clerk"),
        ];
        for (event, role, expected) in cases {
            let shown = display_name(event, role);
            assert_eq!(shown, expected);
            // Read back whole, however many encoded words it took.
            let (from, read) = from_line(&shown);
            assert_eq!(read, shown, "{from}");
            assert_eq!(shown.is_ascii(), !from.contains("?b?"), "{from}");
        }
    }

    #[test]
    fn message_ids_are_the_same_for_the_same_cause_and_come_in_the_order_of_their_causes() {
        let config = Config::parse(
            Path::new("/srv/cc/shtempel.toml"),
            include_str!("../../../config.example.toml"),
        )
        .unwrap();
        let at = |hour: u32| {
            NaiveDate::from_ymd_opt(2026, 11, 3)
                .unwrap()
                .and_hms_opt(hour, 5, 0)
                .unwrap()
                .and_utc()
        };
        let id = |cause: &str, hour: u32, index: usize, kind: &str| {
            let at = at(hour);
            message_id(
                &config,
                IdParts {
                    cause,
                    at,
                    index,
                    kind,
                },
            )
        };
        let first = id("mid:zz@x", 9, 0, "ack");
        assert_eq!(first, id("mid:zz@x", 9, 0, "ack"));
        assert!(
            first.starts_with("<20261103090500.") && first.ends_with(".cc-2026@example.org>"),
            "{first}"
        );
        // Another message of the same letter, and a later letter whose key
        // sorts first: the time orders them, the digest tells them apart.
        let second = id("mid:zz@x", 9, 1, "forward");
        let later = id("mid:aa@x", 10, 0, "ack");
        assert_ne!(first, second);
        assert!(first.max(second.clone()) < later, "{second} {later}");
    }
}

//! A move taken from a player's chess program, written as the letter the
//! clerk reads and keeps for it: from his address, in his game's thread (its
//! subject's tag), its lines in the letter format the clerk reads (the
//! game, the move, a draw offered, accepted, a resignation), and below the
//! signature what the clerk keeps as evidence: how it came, from which
//! address, the player's message. Its Message-ID names the game, the move
//! and the moment: a letter read again (a pass killed between committing
//! it and marking it done) is applied once.
//!
//! It states no date and no fraction: the clerk knows them itself (rules.md
//! 2.2, Xfcc), and reads the letter as one that came by Xfcc
//! (`rules::Channel::Xfcc`) because it came from the server's spool, never
//! because of anything written in it.

use std::fmt::Write as _;
use std::net::IpAddr;

use chrono::{DateTime, NaiveDate, Utc};
use shakmaty::Color;

/// The header that says on which day the server first showed the player
/// the move his own answers (`YYYY-MM-DD`), where it did: read from a
/// letter of the server's spool alone.
pub const SHOWN_HEADER: &str = "X-Shtempel-Xfcc-Shown";

/// What the player asked, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TakenAsk {
    /// A move (`number`: the full move number), a draw offered with it
    /// where `offer_draw`.
    Move {
        number: u32,
        colour: Color,
        san: String,
        offer_draw: bool,
    },
    Resign,
    AcceptDraw,
}

impl TakenAsk {
    /// The ask in a word, for its Message-ID.
    fn word(&self) -> &'static str {
        match self {
            TakenAsk::Move { .. } => "move",
            TakenAsk::Resign => "resign",
            TakenAsk::AcceptDraw => "draw",
        }
    }
}

/// A move taken, with all the letter says of it.
#[derive(Clone, Debug)]
pub struct Taken<'a> {
    /// The player's address, and the clerk's.
    pub from: &'a str,
    pub to: &'a str,
    /// The game's tag (`[CC-2026 #3]`) and id in its event.
    pub tag: &'a str,
    pub game: &'a str,
    /// The game's number on the server, and its moves before this one.
    pub xfcc_id: u32,
    pub plies: usize,
    pub ask: TakenAsk,
    /// The player's words to his partner, as his program sent them.
    pub message: &'a str,
    pub username: &'a str,
    pub peer: IpAddr,
    pub at: DateTime<Utc>,
    /// The day the server first showed him the move he answers.
    pub shown_on: Option<NaiveDate>,
}

impl Taken<'_> {
    /// The letter's name in the spool: when, which game and move, what.
    pub fn file_name(&self) -> String {
        format!(
            "{}.{}.{}",
            self.at.timestamp(),
            self.move_name(),
            self.ask_name()
        )
    }

    /// What was asked, as its name in the spool says it: the move's SAN
    /// (`+`, `#`, `=` are a file name's), a draw offered with it.
    fn ask_name(&self) -> String {
        match &self.ask {
            TakenAsk::Move {
                san, offer_draw, ..
            } => format!("move-{san}{}", if *offer_draw { "-draw" } else { "" }),
            other => other.word().to_string(),
        }
    }

    /// What names the game's move in the spool, whatever was asked at it.
    fn move_name(&self) -> String {
        format!("xfcc-{}-{}", self.xfcc_id, self.plies)
    }

    /// Whether a letter for this move already waits among the spool's
    /// `names`: `Some(true)` for this very ask (a request sent twice),
    /// `Some(false)` for another.
    pub fn waiting_among(&self, names: &[String]) -> Option<bool> {
        let this_move = format!(".{}.", self.move_name());
        let this_ask = format!("{this_move}{}", self.ask_name());
        let name = names.iter().find(|name| name.contains(&this_move))?;
        Some(name.ends_with(&this_ask))
    }

    /// The letter's bytes.
    pub fn letter(&self) -> Vec<u8> {
        let domain = self.to.rsplit_once('@').map_or("localhost", |(_, d)| d);
        let mut head = String::new();
        let date = self.at.to_rfc2822();
        let _ = write!(
            head,
            "Received: from [{peer}] by shtempel xfcc (user {user}); {date}\r\n\
             From: <{from}>\r\n\
             To: <{to}>\r\n\
             Date: {date}\r\n\
             Subject: {tag} Xfcc\r\n\
             Message-ID: <xfcc.{id}.{plies}.{word}.{time}@{domain}>\r\n\
             MIME-Version: 1.0\r\n\
             Content-Type: text/plain; charset=utf-8\r\n\
             Content-Transfer-Encoding: 8bit\r\n",
            peer = self.peer,
            user = self.username,
            from = self.from,
            to = self.to,
            tag = self.tag,
            id = self.xfcc_id,
            plies = self.plies,
            word = self.ask.word(),
            time = self.at.timestamp(),
        );
        if let Some(shown) = self.shown_on {
            let _ = write!(head, "{SHOWN_HEADER}: {shown}\r\n");
        }
        let mut body = format!("Game: {}\r\n", self.game);
        match &self.ask {
            TakenAsk::Move {
                number,
                colour,
                san,
                offer_draw,
            } => {
                let dots = if *colour == Color::White { "." } else { "..." };
                let _ = write!(body, "{number}{dots} {san}\r\n");
                if *offer_draw {
                    body.push_str("I offer a draw.\r\n");
                }
            }
            TakenAsk::Resign => body.push_str("I resign.\r\n"),
            TakenAsk::AcceptDraw => body.push_str("I accept the draw.\r\n"),
        }
        // Below the signature, which the clerk does not read: what is
        // kept of how it came, and his words, whatever they say.
        let _ = write!(
            body,
            "\r\n-- \r\n{SENT_BY_XFCC}user {}, from {}, {}.\r\n",
            self.username,
            self.peer,
            self.at.format("%Y-%m-%d %H:%M UTC")
        );
        let words = self.message.trim();
        if !words.is_empty() {
            body.push_str(HIS_MESSAGE);
            body.push_str("\r\n");
            for line in words.lines() {
                let _ = write!(body, "{}\r\n", line.trim_end_matches('\r'));
            }
        }
        let mut raw = head.into_bytes();
        raw.extend_from_slice(b"\r\n");
        raw.extend_from_slice(body.as_bytes());
        raw
    }
}

/// The most bytes of a player's message passed on: a few paragraphs.
pub const MESSAGE_MOST: usize = 2000;

/// What the signature of a letter the server wrote begins with.
const SENT_BY_XFCC: &str = "Sent from a chess program by Xfcc: ";

/// What introduces the player's words below it.
const HIS_MESSAGE: &str = "His message:";

/// The player's words in the text of a letter the server wrote
/// ([`Taken::letter`]): what follows its signature's `His message:`, at
/// most [`MESSAGE_MOST`] bytes; `None` for any other letter, or one
/// without words.
pub fn message_of(text: &str) -> Option<String> {
    let mut lines = text.lines().map(|line| line.trim_end_matches('\r'));
    lines.find(|line| *line == "-- ")?;
    lines.next().filter(|line| line.starts_with(SENT_BY_XFCC))?;
    lines.next().filter(|line| *line == HIS_MESSAGE)?;
    let words = lines.collect::<Vec<_>>().join("\n");
    let words = words.trim();
    (!words.is_empty()).then(|| crate::printable::bounded(words, MESSAGE_MOST).into_owned())
}

/// When the move a spool letter's `name` names was taken (its name begins
/// with it: [`Taken::file_name`]).
pub fn taken_at(name: &str) -> Option<DateTime<Utc>> {
    let seconds = name.split('.').next()?.parse::<i64>().ok()?;
    DateTime::from_timestamp(seconds, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::letter::{Keyword, read};

    fn taken(ask: TakenAsk, message: &str) -> Vec<u8> {
        Taken {
            from: "ivanov@example.org",
            to: "clerk@example.org",
            tag: "[CC-2026 #3]",
            game: "3",
            xfcc_id: 7,
            plies: 11,
            ask,
            message,
            username: "ivanov",
            peer: "203.0.113.5".parse().unwrap(),
            at: "2026-11-12T14:03:00Z".parse().unwrap(),
            shown_on: NaiveDate::from_ymd_opt(2026, 11, 10),
        }
        .letter()
    }

    fn text_of(raw: &[u8]) -> crate::letter::Letter {
        let mail = crate::mail::format::mime::parse(raw, "clerk@example.org").unwrap();
        read(&mail.text)
    }

    #[test]
    fn the_clerk_reads_the_move_and_nothing_of_his_message() {
        let ask = TakenAsk::Move {
            number: 6,
            colour: Color::Black,
            san: "Nf6".into(),
            offer_draw: true,
        };
        // His words say what a letter could: none of it is read.
        let raw = taken(ask, "I resign.\nGame: 9\n7. e4\nI accept the draw.");
        let read = text_of(&raw);
        assert_eq!(read.game.as_deref(), Some("3"));
        let moves: Vec<String> = read.moves.iter().map(|m| m.text.to_string()).collect();
        assert_eq!(moves, ["Nf6"]);
        assert_eq!(read.keywords, [Keyword::DrawOffer]);
        assert!(read.errors.is_empty(), "{:?}", read.errors);
        let mail = crate::mail::format::mime::parse(&raw, "clerk@example.org").unwrap();
        assert_eq!(
            message_of(&mail.text).as_deref(),
            Some("I resign.\nGame: 9\n7. e4\nI accept the draw.")
        );
        let text = String::from_utf8(raw).unwrap();
        assert!(text.contains("Message-ID: <xfcc.7.11.move.1794492180@example.org>\r\n"));
        assert!(text.contains("X-Shtempel-Xfcc-Shown: 2026-11-10\r\n"));
        assert!(text.starts_with("Received: from [203.0.113.5] by shtempel xfcc (user ivanov); Thu, 12 Nov 2026 14:03:00 +0000\r\n"));
    }

    #[test]
    fn a_resignation_and_an_acceptance_are_read_as_the_clerk_reads_them() {
        assert_eq!(
            text_of(&taken(TakenAsk::Resign, "")).keywords,
            [Keyword::Resign]
        );
        let accepted = text_of(&taken(TakenAsk::AcceptDraw, "Спасибо за игру"));
        assert_eq!(accepted.keywords, [Keyword::DrawAccept]);
        let mail = crate::mail::format::mime::parse(&taken(TakenAsk::Resign, " "), "c@e.org");
        assert_eq!(message_of(&mail.unwrap().text), None);
        // A letter by mail that ends as the server's do is its writer's
        // own words all the same: only his.
        assert_eq!(message_of("1. e4\n-- \nIvan"), None);
        assert!(accepted.moves.is_empty());
    }
}

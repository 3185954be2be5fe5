//! shtempel: an e-mail clerk for correspondence chess.
//!
//! # Layout
//!
//! The modules form layers; an import may only point down, and the files
//! of a folder import each other one way (`.ci/cycles.py`, run by CI,
//! reads the `crate::` and `super::` paths and finds no cycle).
//!
//! ```text
//! main.rs      CLI: parses the line, reads the clock once, exit codes
//! build.rs     (cargo's) names the commit the binary is built from
//! cli/         (the binary's) a command a file, its arguments and its call;
//!              the database opened, the adapters wired, the pass, the
//!              director's orders carried out before it (before_pass), the
//!              words the order commands share (director), what is printed
//! demo.rs      the sample tournament of `shtempel demo`
//! demo/        the demo's letters, as players write them
//!    |
//! run/         one pass: fetch, plan each letter, commit, send, keep the calendar
//!              (mod.rs: the pass; pass: its steps; lock: one run at a time;
//!              commit: a plan written all or nothing; batch: letters
//!              committed together; poison: a failing letter counted and set
//!              aside, panics caught; calendar: the day's duties; finish:
//!              marking letters done and sending on a thread; deferred: what
//!              a committed order leaves to the run, the letters put back and
//!              the config's edits written)
//! serve/       ADAPTER: the Xfcc server over HTTP (hyper), `shtempel serve`:
//!              a request answered from the record (answer), a person's
//!              games and a move taken into the spool (games), failed logins
//!              held (gate), logins verified lately (verified), the files
//!              read again where they changed (files), the passes it runs
//!              for the moves taken (passes)
//! desk.rs      the director's `today`: every game's agenda, the mail that
//!              changed nothing
//!    |
//! clerk/       a letter identified and handed to the rules by the ask that
//!              leads it, the rules' effects made into messages (its own
//!              map names its files: intake, letters by ask, orders, the
//!              calendar's duties, what is said); order: one type per order
//!    |
//! store/       ADAPTER: SQLite, the only module with SQL: the schema and its
//!              migrations (schema), a new database made whole (made), games
//!              and their letters read (games), the outbox and the run's
//!              state (outbox), letters kept as they came (kept), writes in a
//!              transaction (writer), the sends of a crashed run (sent_log),
//!              the readers' own preferences (preferences), an older schema
//!              read or kept before its upgrade (upgrade), what is kept as
//!              the rest of the program reads it (records), the Xfcc
//!              server's game numbers, logins and days a move was shown
//!              (xfcc); the files with
//!              the players' secrets made 0600 and never through a link
//!              (private)
//!    |
//! mail/        ADAPTERS beside FORMATS: letters' sources (source: maildir,
//!              imap, and the Xfcc server's spool beside either), messages' transports (transport: file, smtp by layer,
//!              sendmail), the login both use (login: a password or OAuth),
//!              TLS for both (tls); and the formats, which connect to nothing
//!              (format: mime, compose, keys, identity, auth, authres, filing)
//!    |
//! report/      the tournament report: its pages PURE (the cross-table, the
//!              boards, a folder's index and players' pages: cross_table,
//!              board, federation; the rating list and each player's
//!              history: rating_pages), the federation's games read for
//!              the rating list (rated), and the site written into a
//!              folder (site)
//! render.rs    the templates of templates/<lang>/ loaded and rendered
//! xfcc/        PURE: the Xfcc web service chess programs speak: a SOAP
//!              request read, the answers written (soap), the WSDL (wsdl),
//!              a game as a player's program is shown it (game), a move
//!              asked checked against it (moving), a move taken written as
//!              the letter the clerk reads (letter), a password and its
//!              Argon2 hash (login); the tests' games (testing)
//! record.rs    PURE: one game as loaded: players, board, ledger, duties done
//!    |
//! config/      the TOML file: as written (raw), its values checked table by
//!              table (parse), the mail tables (servers), the entries of
//!              players and games (entries), `[ratings]` and the ratings
//!              players bring (ratings), the games made into the draw
//!              every other module reads them through (draw); a folder of
//!              tournaments
//!              (federation) and its people (people), read anew each run; the
//!              clerk's own edits of a player's entry (edit), checked by
//!              loading them
//!    |
//! rules/       PURE: a game's state (ledger) and life as a state machine
//!              (life, interventions); its own map names its files
//! ratings/     PURE: the federation's rating lists from finished games, by
//!              FIDE's method (fide) or Glicko-2 (glicko), period by period
//!              (period)
//! letter/      PURE: a letter's own text -> `Letter` (its asks, moves,
//!              variants, fraction, dates, keywords, rulings) or errors
//!              naming the line: what it asks and the person's asks each
//!              read in a file of its own (asks), its lines read (lines)
//!              and its move lines (move_lines),
//!              quote cutting (quote), dates (dates),
//!              notations (notation), draw and resignation words (keywords),
//!              the arbiter's rulings (rulings), what could not be read (errors)
//! game/        PURE: the game record on shakmaty: moves in any notation resolved
//!              on the position (written), repeats, conditional variants, ends,
//!              PGN
//! board/       PURE: the board in a letter: a text diagram with its FEN
//!              (diagram), a PNG picture (picture)
//! chart/       PURE: the time chart (Table 2): rows, text, CSV and JSON; its
//!              SVG picture (plot, by plotters)
//! error.rs     the crate's error, by kind (database, template, mail, config,
//!              files, usage, internal), with its source
//! fault.rs     crash points for the fault tests (debug builds): the run's
//!              and the Maildir's and outbox's steps call them, they call nothing
//! key.rs       PURE: a game's (and a person's) key in a folder's record,
//!              `ID/<game>`; a tournament id as a Message-ID's ASCII
//! message.rs   PURE: the kinds of message, their headers and templates
//! phrases.rs   PURE: the short phrases of templates/<lang>/phrases.toml
//! printable.rs PURE: text from letters made safe to print (control characters)
//! ```
//!
//! The pure modules take values and return values: no files, no network, no
//! database and no clock. The day is always a parameter. Every sentence a
//! person reads is in `templates/` (messages and phrases); the command line
//! and the log speak English to the operator.

#![forbid(unsafe_code)]
#![warn(clippy::too_many_lines)]

/// An enum whose every variant has one name (the log's, the store's),
/// written once beside it: the enum, `ALL`, `name()` and `from_name()` are
/// made from the one list, so that no name is written twice.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident => $text:literal,)*
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)*
        }

        impl $name {
            /// Every variant, in the list's order.
            pub const ALL: &[$name] = &[$($name::$variant),*];

            /// Its name.
            pub fn name(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }

            /// The variant `name` names.
            pub fn from_name(name: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|kind| kind.name() == name)
            }
        }
    };
}

pub mod board;
pub mod chart;
pub mod clerk;
pub mod config;
pub mod demo;
pub mod desk;
pub mod error;
pub mod fault;
pub mod game;
pub mod key;
pub mod letter;
pub mod mail;
pub mod message;
pub mod phrases;
pub mod printable;
pub mod ratings;
pub mod record;
pub mod render;
pub mod report;
pub mod rules;
pub mod run;
pub mod serve;
pub mod store;
pub mod xfcc;

use serde::{Deserialize, Serialize};

/// The language of a tournament and of everything the clerk writes in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    Ru,
    En,
}

impl Lang {
    /// Picks the Russian or the English text.
    pub fn pick<'a>(self, ru: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ru => ru,
            Lang::En => en,
        }
    }

    /// The language a letter is written in: Russian where its own lines
    /// (not those quoted with `>`) have at least half as many Russian
    /// letters as Latin ones (a Russian letter's moves and dates are
    /// Latin), else English.
    pub fn of_text(subject: &str, text: &str) -> Lang {
        let own = text
            .lines()
            .filter(|line| !line.trim_start().starts_with('>'));
        let (mut cyrillic, mut latin) = (0usize, 0usize);
        for c in std::iter::once(subject).chain(own).flat_map(str::chars) {
            match c {
                'а'..='я' | 'А'..='Я' | 'ё' | 'Ё' => cyrillic += 1,
                'a'..='z' | 'A'..='Z' => latin += 1,
                _ => {}
            }
        }
        match cyrillic > 0 && cyrillic * 2 >= latin {
            true => Lang::Ru,
            false => Lang::En,
        }
    }

    /// The clerk's other language.
    pub fn other(self) -> Lang {
        match self {
            Lang::Ru => Lang::En,
            Lang::En => Lang::Ru,
        }
    }

    /// A date as the language writes it: `07.11.2026`, `2026-11-07`.
    pub fn date(self, date: chrono::NaiveDate) -> String {
        date.format(self.pick("%d.%m.%Y", "%Y-%m-%d")).to_string()
    }
}

/// The board a letter that asks for a move shows (`[mail] diagrams`, or a
/// player's own `DIAGRAMS`): the text diagram and the FEN in the plain
/// part, and with `both` the board as a picture in an HTML part beside it;
/// `picture`: the picture, the plain part giving the FEN and the picture's
/// words in the diagram's place; or nothing. Beside the language: a
/// reader's setting, which a letter asks (`letter`) and the config keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Diagrams {
    #[default]
    Both,
    Text,
    Picture,
    None,
}

impl Diagrams {
    /// Its name, as the file and a player's letter write it.
    pub fn name(self) -> &'static str {
        match self {
            Diagrams::Both => "both",
            Diagrams::Text => "text",
            Diagrams::Picture => "picture",
            Diagrams::None => "none",
        }
    }

    pub fn from_name(name: &str) -> Option<Diagrams> {
        [
            Diagrams::Both,
            Diagrams::Text,
            Diagrams::Picture,
            Diagrams::None,
        ]
        .into_iter()
        .find(|d| d.name() == name)
    }

    /// Whether a letter carries the board as a picture.
    pub fn has_picture(self) -> bool {
        matches!(self, Diagrams::Both | Diagrams::Picture)
    }
}

/// How a reader gets the messages that can wait (forwards, receipts, the
/// calendar's reminders): each as it comes, or kept and sent together once
/// a day (`DIGEST DAILY`, a reader's own setting, as `DIAGRAMS`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Digest {
    #[default]
    None,
    Daily,
}

impl Digest {
    /// Its name, as the store keeps it.
    pub fn name(self) -> &'static str {
        match self {
            Digest::None => "none",
            Digest::Daily => "daily",
        }
    }

    pub fn from_name(name: &str) -> Option<Digest> {
        [Digest::None, Digest::Daily]
            .into_iter()
            .find(|d| d.name() == name)
    }
}

/// A colour's lowercase English name, as the contract's JSON writes it.
pub fn color_name(color: shakmaty::Color) -> &'static str {
    match color {
        shakmaty::Color::White => "white",
        shakmaty::Color::Black => "black",
    }
}

/// Serde for shakmaty's `Color` as `"white"` / `"black"`.
pub mod color_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Color;

    pub fn serialize<S: Serializer>(color: &Color, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(crate::color_name(*color))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Color, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!(
                "expected white or black, got {other:?}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Lang;

    #[test]
    fn a_letters_language_is_that_of_its_own_lines() {
        let table = [
            ("мой ход", "Партия 1\n1. e4\nВремя: 2/0\n", Lang::Ru),
            ("", "1. Кf3\nВремя: 2/0\nДаты: 03.11.2026\n", Lang::Ru),
            ("my move", "Game 1\n1. e4\nTime: 2/0\n", Lang::En),
            ("Re: 1. e4", "1... e5\n", Lang::En),
            // A quoted Russian message in an English reply.
            (
                "Re: ход",
                "2. Nf3 my move\n> Ваш партнёр сделал ход\n",
                Lang::En,
            ),
            ("", "", Lang::En),
        ];
        for (subject, text, language) in table {
            assert_eq!(
                Lang::of_text(subject, text),
                language,
                "{subject:?} {text:?}"
            );
        }
    }

    /// Each named enum's names are its own, one a variant: a name written
    /// twice would read back as the first of the two.
    #[test]
    fn every_named_variant_reads_back_from_its_name() {
        fn round_trip<K: Copy + PartialEq + std::fmt::Debug>(
            all: &[K],
            name: fn(K) -> &'static str,
            from_name: fn(&str) -> Option<K>,
        ) {
            for &kind in all {
                assert_eq!(from_name(name(kind)), Some(kind), "{}", name(kind));
            }
            assert_eq!(from_name("no such name"), None);
        }
        use crate::clerk::EventKind;
        use crate::store::NoteKind;
        round_trip(EventKind::ALL, EventKind::name, EventKind::from_name);
        round_trip(NoteKind::ALL, NoteKind::name, NoteKind::from_name);
    }
}

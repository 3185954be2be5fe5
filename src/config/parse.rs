//! The configuration's values checked, table by table: each function takes its
//! raw table and gives the checked values, or an error naming the key.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::NaiveDate;
use chrono_tz::Tz;

use super::raw::{DateValue, RawConfig};
use super::{Config, ConfigError, Source, Transport};
use crate::Lang;
use crate::letter::DateOrder;
use crate::rules::Pairing;

/// Where the values come from: the file, for errors and relative paths.
pub(super) struct Checker<'a> {
    pub(super) file: &'a Path,
    pub(super) base: PathBuf,
}

/// The checked `[tournament]` table.
pub(super) struct Tournament {
    pub(super) start_date: NaiveDate,
    pub(super) end_date: NaiveDate,
    pub(super) timezone: Tz,
    pub(super) language: Lang,
    pub(super) date_order: DateOrder,
    pub(super) pairing: Option<Pairing>,
    /// A round robin's players numbered by their ratings (`seed =
    /// "rating"`), not by their order in the file.
    pub(super) seed_by_rating: bool,
}

/// The clerk's and the arbiters' addresses.
pub(super) struct Addresses {
    pub(super) clerk: String,
    pub(super) chief_arbiter: String,
    pub(super) chief_secretary: String,
}

impl Checker<'_> {
    pub(super) fn err(&self, key: &str, problem: String, fix: &str) -> ConfigError {
        ConfigError {
            file: self.file.to_path_buf(),
            key: key.to_string(),
            problem,
            fix: fix.to_string(),
        }
    }

    /// A path of the file, relative to its folder.
    pub(super) fn resolve(&self, path: &str) -> PathBuf {
        let path = PathBuf::from(path);
        if path.is_absolute() {
            path
        } else {
            self.base.join(path)
        }
    }

    pub(super) fn date(&self, key: &str, value: &DateValue) -> Result<NaiveDate, ConfigError> {
        value.0.parse().map_err(|_| {
            self.err(
                key,
                format!("{:?} is not a date", value.0),
                "write it as 2026-11-01",
            )
        })
    }

    pub(super) fn address(&self, key: &str, text: &str, fix: &str) -> Result<String, ConfigError> {
        checked_address(text)
            .ok_or_else(|| self.err(key, format!("{text:?} is not an e-mail address"), fix))
    }

    /// What must not be one with another: the clerk's
    /// address is nobody else's, and its database, Maildir, file outbox and
    /// report each a place of its own, none inside another (a database in
    /// the Maildir's `cur/` is read as a letter, an outbox that is the inbox
    /// answers itself).
    pub(super) fn apart(
        &self,
        addresses: &Addresses,
        source: &Source,
        transport: &Transport,
        database: &Path,
        report: Option<&Path>,
    ) -> Result<(), ConfigError> {
        for (key, address) in [
            ("arbiters.chief_arbiter", &addresses.chief_arbiter),
            ("arbiters.chief_secretary", &addresses.chief_secretary),
        ] {
            if *address == addresses.clerk {
                return Err(self.err(
                    key,
                    format!("{address} is the clerk's own address ([bot] address)"),
                    "give the person's own address: the clerk would write to itself",
                ));
            }
        }
        let mut places: Vec<(&str, PathBuf, bool)> =
            vec![("bot.database", lexical(database), false)];
        if let Source::Maildir { path } = source {
            places.push(("source.path", lexical(path), true));
        }
        if let Transport::File { path } = transport {
            places.push(("transport.path", lexical(path), true));
        }
        if let Some(report) = report {
            places.push(("report.out", lexical(report), true));
        }
        let inside = |a: &Path, b: &Path| a.starts_with(b) && a != b;
        for (at, (key, path, is_folder)) in places.iter().enumerate() {
            for (other_key, other, other_is_folder) in &places[..at] {
                // (the key named, its place, how, the other key, its place)
                let clash = if path == other {
                    Some((key, path, "is the same place as", other_key, other))
                } else if *other_is_folder && inside(path, other) {
                    Some((key, path, "is inside", other_key, other))
                } else if *is_folder && inside(other, path) {
                    Some((other_key, other, "is inside", key, path))
                } else {
                    None
                };
                if let Some((key, path, how, other_key, other)) = clash {
                    return Err(self.err(
                        key,
                        format!(
                            "{} {how} {other_key} ({})",
                            path.display(),
                            other.display()
                        ),
                        "give each of the database, the Maildir, the outbox and the report a place of its own",
                    ));
                }
            }
        }
        Ok(())
    }

    fn tournament(&self, raw: &RawConfig) -> Result<Tournament, ConfigError> {
        let t = &raw.tournament;
        if !is_tag(&t.id) {
            return Err(self.err(
                "tournament.id",
                format!("{:?} cannot stand in a subject tag and a Message-ID", t.id),
                "use letters, digits and dashes, no spaces, e.g. \"CC-2026\"",
            ));
        }
        let start_date = self.date("tournament.start_date", &t.start_date)?;
        let end_date = self.date("tournament.end_date", &t.end_date)?;
        if end_date <= start_date {
            return Err(self.err(
                "tournament.end_date",
                format!("{end_date} is not after start_date {start_date}"),
                "set an end date after the start",
            ));
        }
        let timezone: Tz = t.timezone.parse().map_err(|_| {
            self.err(
                "tournament.timezone",
                format!("{:?} is not an IANA time zone", t.timezone),
                "write a name like \"Europe/Moscow\" or \"UTC\"",
            )
        })?;
        let language = match t.language.as_str() {
            "ru" => Lang::Ru,
            "en" => Lang::En,
            other => {
                return Err(self.err(
                    "tournament.language",
                    format!("{other:?} is not a language of the clerk"),
                    "write \"ru\" or \"en\"",
                ));
            }
        };
        let date_order = match t.date_order.as_deref() {
            None | Some("dmy") => DateOrder::Dmy,
            Some("mdy") => DateOrder::Mdy,
            Some(other) => {
                return Err(self.err(
                    "tournament.date_order",
                    format!("{other:?} is not an order of day and month"),
                    "write \"dmy\" (07/11/2026 is 7 November) or \"mdy\" (11/07/2026 is 7 November)",
                ));
            }
        };
        let pairing = match t.pairing.as_deref() {
            None => None,
            Some(name) => Some(Pairing::from_name(name).ok_or_else(|| {
                self.err(
                    "tournament.pairing",
                    format!("{name:?} is not a pairing the clerk makes"),
                    "write \"round_robin\" or \"double_round_robin\", or leave it out and list the [[games]]",
                )
            })?),
        };
        let seed_by_rating = match t.seed.as_deref() {
            None | Some("file") => false,
            Some("rating") if pairing.is_some() => true,
            Some("rating") => {
                return Err(self.err(
                    "tournament.seed",
                    "numbers the players of a round robin, and this tournament has no pairing"
                        .into(),
                    "leave it out, or give pairing = \"round_robin\"",
                ));
            }
            Some(other) => {
                return Err(self.err(
                    "tournament.seed",
                    format!("{other:?} is not a way to number the players"),
                    "write \"file\" (their order in the file, the default) or \"rating\" (by the rating each brings, highest first)",
                ));
            }
        };
        Ok(Tournament {
            start_date,
            end_date,
            timezone,
            language,
            date_order,
            pairing,
            seed_by_rating,
        })
    }

    /// `[mail]` and `[limits]`, whose values the file's shape does not check.
    fn mail_and_limits(&self, raw: &RawConfig) -> Result<(), ConfigError> {
        if raw.mail.digest_hour > 23 {
            return Err(self.err(
                "mail.digest_hour",
                format!("{} is not an hour of the day", raw.mail.digest_hour),
                "give the hour the daily digests go from, 0 to 23 (8: from eight in the morning)",
            ));
        }
        if raw.limits.max_letter_bytes < 1024 {
            return Err(self.err(
                "limits.max_letter_bytes",
                format!(
                    "{} bytes is too small for any letter",
                    raw.limits.max_letter_bytes
                ),
                "leave it out for 1 MB",
            ));
        }
        if raw.limits.max_message_bytes < MIN_MESSAGE_BYTES {
            return Err(self.err(
                "limits.max_message_bytes",
                format!(
                    "{} bytes is too small for the arbiter's file of a game",
                    raw.limits.max_message_bytes
                ),
                "give your mail server's limit (its SMTP SIZE; `shtempel doctor` shows it), at least 256 KB, or leave it out for 10 MB",
            ));
        }
        Ok(())
    }

    fn addresses(&self, raw: &RawConfig) -> Result<Addresses, ConfigError> {
        Ok(Addresses {
            clerk: self.address(
                "bot.address",
                &raw.bot.address,
                "write the clerk's mailbox, e.g. \"clerk@example.org\"",
            )?,
            chief_arbiter: self.address(
                "arbiters.chief_arbiter",
                &raw.arbiters.chief_arbiter,
                "write the chief arbiter's address",
            )?,
            chief_secretary: self.address(
                "arbiters.chief_secretary",
                &raw.arbiters.chief_secretary,
                "write the chief secretary's address",
            )?,
        })
    }
}

/// The folder a configuration file is written in, where its relative
/// paths start: where the file given is a symbolic link, the folder of the
/// file it points to (config.md: "relative to the file they are written
/// in"), not the link's.
pub(super) fn written_in(file: &Path) -> PathBuf {
    let file = match std::fs::symlink_metadata(file) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf())
        }
        _ => file.to_path_buf(),
    };
    file.parent().map(Path::to_path_buf).unwrap_or_default()
}

impl Config {
    /// Checks the text of a configuration file named `file` (relative paths in it
    /// are taken relative to the file's folder).
    pub fn parse(file: &Path, text: &str) -> Result<Config, ConfigError> {
        Config::parse_from(file, &written_in(file), text)
    }

    /// The same, its paths relative to `base` (a tournament of a folder:
    /// the clerk's file's folder).
    pub fn parse_from(file: &Path, base: &Path, text: &str) -> Result<Config, ConfigError> {
        let checker = Checker {
            file,
            base: base.to_path_buf(),
        };
        let raw: RawConfig = toml::from_str(text).map_err(|error| {
            let line = error.span().map(|span| super::line_at(text, span.start));
            let key = line.map_or("(syntax)".to_string(), |line| format!("line {line}"));
            checker.err(
                &key,
                error.message().to_string(),
                "compare with config.example.toml",
            )
        })?;
        checker.config(raw)
    }

    /// The same from tables already read (a folder's tournament, its tables
    /// over the clerk's): `None` where their shape is wrong, for the text's
    /// reading to say where.
    pub fn parse_tables(
        file: &Path,
        base: &Path,
        tables: toml::Table,
    ) -> Option<Result<Config, ConfigError>> {
        let checker = Checker {
            file,
            base: base.to_path_buf(),
        };
        let raw: RawConfig = tables.try_into().ok()?;
        Some(checker.config(raw))
    }
}

impl Checker<'_> {
    /// The configuration of a file of the right shape, its values checked.
    fn config(&self, raw: RawConfig) -> Result<Config, ConfigError> {
        let checker = self;
        let file = self.file;
        let tournament = checker.tournament(&raw)?;
        let rules = raw.rules.clone();
        if rules.days_per_control == 0 || rules.moves_per_control == 0 {
            return Err(checker.err(
                "rules",
                "days_per_control and moves_per_control must be above 0".into(),
                "leave them out for 50 days per 10 moves",
            ));
        }
        let addresses = checker.addresses(&raw)?;
        let source = checker.source(&raw.source)?;
        let transport = checker.transport(&raw.transport)?;
        let mut players = checker.players(&raw.players, &addresses)?;
        if tournament.seed_by_rating {
            // Highest first; those without a rating after, as the file
            // orders them (a stable sort keeps the file's order in a tie).
            players.sort_by_key(|p| std::cmp::Reverse(p.start_rating.as_ref().map(|r| r.rating)));
        }
        let draw = match tournament.pairing {
            Some(pairing) => checker.paired(pairing, &raw.games, &players)?,
            None => super::Draw::new(checker.games(&raw.games, &players, &tournament)?),
        };
        let security = checker.security(&raw.security)?;
        let ratings = checker.ratings(&raw.ratings)?;
        checker.mail_and_limits(&raw)?;
        let xfcc = raw
            .xfcc
            .as_ref()
            .map(|xfcc| checker.xfcc(xfcc))
            .transpose()?;
        let database = checker.resolve(&raw.bot.database);
        let report_out = raw
            .report
            .out
            .as_deref()
            .filter(|out| !out.trim().is_empty())
            .map(|out| checker.resolve(out));
        let report_url = checker.report_url(&raw.report)?;
        checker.apart(
            &addresses,
            &source,
            &transport,
            &database,
            report_out.as_deref(),
        )?;
        Ok(Config {
            file: file.to_path_buf(),
            clerk_file: file.to_path_buf(),
            tournament_id: raw.tournament.id.clone(),
            tournament_name: raw.tournament.name.clone(),
            start_date: tournament.start_date,
            end_date: tournament.end_date,
            timezone: tournament.timezone,
            language: tournament.language,
            date_order: tournament.date_order,
            pairing: tournament.pairing,
            rules,
            address: addresses.clerk,
            database,
            templates: checker.resolve(&raw.bot.templates),
            chief_arbiter: addresses.chief_arbiter,
            chief_secretary: addresses.chief_secretary,
            source,
            transport,
            index: OnceLock::new(),
            players,
            draw,
            limits: raw.limits,
            mail: raw.mail,
            security,
            report_out,
            report_url,
            xfcc,
            in_folder: false,
            seed_by_rating: tournament.seed_by_rating,
            ratings,
        })
    }
}

/// `path` with its `.` and `..` taken out, as far as it goes (the places
/// compared may not exist yet).
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A lower-cased address if `text` is one plain address (`local@domain`)
/// that the mail library sends to: an address it refuses (`pe..trov@…`,
/// `petrov.@…`, a local part over 64 characters) would stop every run that
/// writes to it, so it is refused here, at load, with its key.
pub fn checked_address(text: &str) -> Option<String> {
    let text = text.trim();
    let (local, domain) = text.rsplit_once('@')?;
    let clean = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_graphic() && !"<>()[],;:\"\\@".contains(c))
    };
    let text = text.to_ascii_lowercase();
    (clean(local) && clean(domain) && text.parse::<lettre::Address>().is_ok()).then_some(text)
}

/// The most characters of a player's name: it stands in subjects and
/// greetings.
pub const NAME_MOST: usize = 200;

/// What is wrong with a player's name, or `None`: a name nobody means
/// (control characters, NUL among them; the marks that turn text around,
/// U+202E and its kin, which make a subject or a log line read other than
/// it is; or longer than [`NAME_MOST`]) would stand in every message of
/// his games.
pub fn name_problem(name: &str) -> Option<&'static str> {
    let turns = |c: char| matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
    if name.trim().is_empty() {
        Some("is empty")
    } else if name.chars().count() > NAME_MOST {
        Some("is longer than 200 characters")
    } else if name.chars().any(char::is_control) {
        Some("has a control character (a line break, a tab or a NUL)")
    } else if name.chars().any(turns) {
        Some("has a mark that changes the direction of the text (U+202E and its kin)")
    } else {
        None
    }
}

/// Whether an id can stand in a subject tag (`[CC-2026 #12]`), in the
/// clerk's headers and in a key of the record (`ID/<game>`: `crate::key`):
/// not empty, no spaces, control characters, brackets of the tag or of a
/// Message-ID, nor the key's `/`.
pub(super) fn is_tag(id: &str) -> bool {
    !id.is_empty()
        && !id.contains(|c: char| {
            c.is_whitespace() || c.is_control() || "[]#<>".contains(c) || c == crate::key::SEPARATOR
        })
}

/// The least `max_message_bytes` taken: the arbiter's file without its
/// letters (the game, the chart as text, CSV and picture) must fit.
const MIN_MESSAGE_BYTES: usize = 256 * 1024;

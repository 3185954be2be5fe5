//! The tournament's TOML file (contract.md 2): read as a raw table, then checked
//! and resolved into a [`Config`]. Every error names the file, the key and the fix.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::NaiveDate;
use chrono_tz::Tz;
use serde::Deserialize;

use crate::Lang;
use crate::letter::{DateOrder, DateReading};
use crate::rules::Rules;

/// A configuration problem: where it is and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub file: PathBuf,
    pub key: String,
    pub problem: String,
    pub fix: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file.display(), self.key, self.problem)?;
        if !self.fix.is_empty() {
            write!(f, "; {}", self.fix)?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// A date in the TOML file: a TOML date (`2026-11-01`) or a string.
#[derive(Debug, Clone)]
struct DateValue(String);

impl<'de> Deserialize<'de> for DateValue {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Either {
            Date(toml::value::Datetime),
            Text(String),
        }
        Ok(DateValue(match Either::deserialize(deserializer)? {
            Either::Date(date) => date.to_string(),
            Either::Text(text) => text,
        }))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    tournament: RawTournament,
    #[serde(default)]
    rules: Rules,
    bot: RawBot,
    arbiters: RawArbiters,
    source: RawSource,
    transport: RawTransport,
    #[serde(default)]
    limits: Limits,
    #[serde(default)]
    security: RawSecurity,
    #[serde(default)]
    report: RawReport,
    #[serde(default)]
    players: Vec<RawPlayer>,
    #[serde(default)]
    games: Vec<RawGame>,
}

/// Bounds on what the clerk reads and writes, against floods and bombs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Replies to one address a day; then one notice, then silence.
    pub max_replies_per_day: u32,
    /// A larger letter is not read: its sender gets a short notice.
    pub max_letter_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_replies_per_day: 10,
            max_letter_bytes: 1024 * 1024,
        }
    }
}

/// `[report]`: where `poll` refreshes the report site after each run.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReport {
    out: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSecurity {
    trusted_authserv_id: Option<String>,
    require: Option<String>,
}

/// What a letter must prove about its sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Require {
    /// Nothing beyond the From: address (and the player's secret, if he has one).
    None,
    /// `dkim=pass` for the sender's domain, from our own server's Authentication-Results.
    Dkim,
    /// `spf=pass` for the sender's domain, likewise.
    Spf,
}

/// How far the clerk trusts the From: line (contract: `[security]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Security {
    /// The authserv-id of our own server: only its Authentication-Results count.
    pub trusted_authserv_id: Option<String>,
    pub require: Require,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTournament {
    id: String,
    name: String,
    start_date: DateValue,
    end_date: DateValue,
    timezone: String,
    #[serde(default = "default_language")]
    language: String,
    date_order: Option<String>,
}

fn default_language() -> String {
    "ru".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBot {
    address: String,
    #[serde(default = "default_database")]
    database: String,
    #[serde(default = "default_templates")]
    templates: String,
}

fn default_database() -> String {
    "shtempel.sqlite".into()
}

fn default_templates() -> String {
    "templates".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawArbiters {
    chief_arbiter: String,
    chief_secretary: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSource {
    kind: String,
    path: Option<String>,
    host: Option<String>,
    port: Option<u16>,
    tls: Option<String>,
    username: Option<String>,
    password_env: Option<String>,
    mailbox: Option<String>,
    processed_mailbox: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTransport {
    kind: String,
    path: Option<String>,
    host: Option<String>,
    port: Option<u16>,
    tls: Option<String>,
    username: Option<String>,
    password_env: Option<String>,
    command: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    id: String,
    name: String,
    email: String,
    start_sheet_received: Option<DateValue>,
    secret: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGame {
    id: String,
    white: String,
    black: String,
}

/// How a mail connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tls {
    Tls,
    StartTls,
    None,
}

/// A server login (IMAP or SMTP); the password stays in the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    pub username: String,
    pub password_env: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    Maildir {
        path: PathBuf,
    },
    Imap {
        server: Server,
        mailbox: String,
        processed_mailbox: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    File { path: PathBuf },
    Smtp { server: Server },
    Sendmail { command: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub id: String,
    pub name: String,
    /// Lower-case address.
    pub email: String,
    pub start_sheet_received: Option<NaiveDate>,
    /// A word his letters must carry on a `Secret:` line; never echoed.
    pub secret: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameConfig {
    pub id: String,
    pub white: String,
    pub black: String,
}

/// The checked configuration of one tournament.
#[derive(Debug, Clone)]
pub struct Config {
    pub file: PathBuf,
    pub tournament_id: String,
    pub tournament_name: String,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub timezone: Tz,
    pub language: Lang,
    /// How the players write slashed dates (`07/11/2026`).
    pub date_order: DateOrder,
    pub rules: Rules,
    /// The clerk's own address, lower case.
    pub address: String,
    pub database: PathBuf,
    pub templates: PathBuf,
    pub chief_arbiter: String,
    pub chief_secretary: String,
    pub source: Source,
    pub transport: Transport,
    pub players: Vec<Player>,
    pub games: Vec<GameConfig>,
    pub limits: Limits,
    pub security: Security,
    /// The folder of the report site `poll` refreshes, if any.
    pub report_out: Option<PathBuf>,
    /// Where each player and game is in the lists: every letter looks its
    /// sender and game up, and a federation has thousands of both. Built at
    /// the first lookup: a run with no mail makes none.
    index: OnceLock<Index>,
}

/// Positions in `Config::players` and `Config::games`; each lookup checks
/// what it finds, so a list changed after loading is still searched right.
#[derive(Debug, Clone, Default)]
struct Index {
    player_by_id: HashMap<String, usize>,
    player_by_email: HashMap<String, usize>,
    game_by_id: HashMap<String, usize>,
    games_of_player: HashMap<String, Vec<usize>>,
    games: usize,
}

/// The item at the index's position `at` if it is the one sought, else the
/// first that is (a list changed after loading).
fn look_up<'a, T>(list: &'a [T], at: Option<&usize>, is: impl Fn(&T) -> bool) -> Option<&'a T> {
    match at.and_then(|&at| list.get(at)).filter(|item| is(item)) {
        Some(item) => Some(item),
        None => list.iter().find(|item| is(item)),
    }
}

impl Index {
    fn new(players: &[Player], games: &[GameConfig]) -> Index {
        let mut index = Index {
            games: games.len(),
            ..Index::default()
        };
        for (at, player) in players.iter().enumerate() {
            index.player_by_id.entry(player.id.clone()).or_insert(at);
            index
                .player_by_email
                .entry(player.email.clone())
                .or_insert(at);
        }
        for (at, game) in games.iter().enumerate() {
            index.game_by_id.entry(game.id.clone()).or_insert(at);
            for player in [&game.white, &game.black] {
                let mine = index.games_of_player.entry(player.clone()).or_default();
                if mine.last() != Some(&at) {
                    mine.push(at);
                }
            }
        }
        index
    }
}

impl Config {
    /// How the tournament's letters state dates: its order of slashed dates,
    /// and the postmark of the letter at hand where it is known.
    pub fn date_reading(&self, postmark: Option<NaiveDate>) -> DateReading {
        DateReading {
            order: self.date_order,
            postmark,
        }
    }

    /// Reads and checks the file.
    pub fn load(file: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(file).map_err(|error| ConfigError {
            file: file.to_path_buf(),
            key: "(file)".into(),
            problem: format!("cannot be read: {error}"),
            fix: "give the path of the tournament's TOML file with --config (see config.example.toml)".into(),
        })?;
        Config::parse(file, &text)
    }

    /// Checks the text of a configuration file named `file` (relative paths in it
    /// are taken relative to the file's folder).
    pub fn parse(file: &Path, text: &str) -> Result<Config, ConfigError> {
        let err = |key: &str, problem: String, fix: &str| ConfigError {
            file: file.to_path_buf(),
            key: key.to_string(),
            problem,
            fix: fix.to_string(),
        };
        let raw: RawConfig = toml::from_str(text).map_err(|error| {
            let line = error
                .span()
                .map(|span| text[..span.start.min(text.len())].lines().count().max(1));
            let key = line.map_or("(syntax)".to_string(), |line| format!("line {line}"));
            err(
                &key,
                error.message().to_string(),
                "compare with config.example.toml",
            )
        })?;
        let base = file.parent().map(Path::to_path_buf).unwrap_or_default();
        let resolve = |path: &str| -> PathBuf {
            let path = PathBuf::from(path);
            if path.is_absolute() {
                path
            } else {
                base.join(path)
            }
        };
        let date = |key: &str, value: &DateValue| -> Result<NaiveDate, ConfigError> {
            value.0.parse().map_err(|_| {
                err(
                    key,
                    format!("{:?} is not a date", value.0),
                    "write it as 2026-11-01",
                )
            })
        };

        let t = &raw.tournament;
        if t.id.trim().is_empty() || t.id.contains(['[', ']', '#', '\n', '\r']) {
            return Err(err(
                "tournament.id",
                format!("{:?} cannot stand in a subject tag", t.id),
                "use letters, digits and dashes, e.g. \"CC-2026\"",
            ));
        }
        let start_date = date("tournament.start_date", &t.start_date)?;
        let end_date = date("tournament.end_date", &t.end_date)?;
        if end_date <= start_date {
            return Err(err(
                "tournament.end_date",
                format!("{end_date} is not after start_date {start_date}"),
                "set an end date after the start",
            ));
        }
        let timezone: Tz = t.timezone.parse().map_err(|_| {
            err(
                "tournament.timezone",
                format!("{:?} is not an IANA time zone", t.timezone),
                "write a name like \"Europe/Moscow\" or \"UTC\"",
            )
        })?;
        let language = match t.language.as_str() {
            "ru" => Lang::Ru,
            "en" => Lang::En,
            other => {
                return Err(err(
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
                return Err(err(
                    "tournament.date_order",
                    format!("{other:?} is not an order of day and month"),
                    "write \"dmy\" (07/11/2026 is 7 November) or \"mdy\" (11/07/2026 is 7 November)",
                ));
            }
        };
        let rules = raw.rules;
        if rules.days_per_control == 0 || rules.moves_per_control == 0 {
            return Err(err(
                "rules",
                "days_per_control and moves_per_control must be above 0".into(),
                "leave them out for 50 days per 10 moves",
            ));
        }

        let address = checked_address(&raw.bot.address).ok_or_else(|| {
            err(
                "bot.address",
                format!("{:?} is not an e-mail address", raw.bot.address),
                "write the clerk's mailbox, e.g. \"clerk@example.org\"",
            )
        })?;
        let chief_arbiter = checked_address(&raw.arbiters.chief_arbiter).ok_or_else(|| {
            err(
                "arbiters.chief_arbiter",
                format!("{:?} is not an e-mail address", raw.arbiters.chief_arbiter),
                "write the chief arbiter's address",
            )
        })?;
        let chief_secretary = checked_address(&raw.arbiters.chief_secretary).ok_or_else(|| {
            err(
                "arbiters.chief_secretary",
                format!(
                    "{:?} is not an e-mail address",
                    raw.arbiters.chief_secretary
                ),
                "write the chief secretary's address",
            )
        })?;

        let source = match raw.source.kind.as_str() {
            "maildir" => Source::Maildir {
                path: resolve(raw.source.path.as_deref().ok_or_else(|| {
                    err(
                        "source.path",
                        "is missing".into(),
                        "give the Maildir folder, e.g. path = \"mail/inbox\"",
                    )
                })?),
            },
            "imap" => {
                let s = &raw.source;
                Source::Imap {
                    server: server(
                        "source",
                        s.host.as_deref(),
                        s.port,
                        s.tls.as_deref(),
                        s.username.as_deref(),
                        s.password_env.as_deref(),
                        993,
                        &err,
                    )?,
                    mailbox: s.mailbox.clone().unwrap_or_else(|| "INBOX".into()),
                    processed_mailbox: s.processed_mailbox.clone(),
                }
            }
            other => {
                return Err(err(
                    "source.kind",
                    format!("{other:?} is not a source"),
                    "write \"maildir\" or \"imap\"",
                ));
            }
        };
        let transport = match raw.transport.kind.as_str() {
            "file" => Transport::File {
                path: resolve(raw.transport.path.as_deref().ok_or_else(|| {
                    err(
                        "transport.path",
                        "is missing".into(),
                        "give the outbox folder, e.g. path = \"mail/outbox\"",
                    )
                })?),
            },
            "smtp" => {
                let s = &raw.transport;
                Transport::Smtp {
                    // Without a username the clerk sends without logging in
                    // (a relay that trusts the host, as on a local server).
                    server: server(
                        "transport",
                        s.host.as_deref(),
                        s.port,
                        s.tls.as_deref(),
                        s.username.as_deref().or(Some("")),
                        s.password_env
                            .as_deref()
                            .or(s.username.is_none().then_some("")),
                        587,
                        &err,
                    )?,
                }
            }
            "sendmail" => Transport::Sendmail {
                command: raw
                    .transport
                    .command
                    .clone()
                    .unwrap_or_else(|| "/usr/sbin/sendmail".into()),
            },
            other => {
                return Err(err(
                    "transport.kind",
                    format!("{other:?} is not a transport"),
                    "write \"file\", \"smtp\" or \"sendmail\"",
                ));
            }
        };

        let mut players = Vec::new();
        let mut ids = BTreeSet::new();
        let mut emails = BTreeMap::new();
        for (index, p) in raw.players.iter().enumerate() {
            let key = format!("players[{index}]");
            if !ids.insert(p.id.clone()) {
                return Err(err(
                    &format!("{key}.id"),
                    format!("player {:?} is listed twice", p.id),
                    "give each player one [[players]] entry",
                ));
            }
            let email = checked_address(&p.email).ok_or_else(|| {
                err(
                    &format!("{key}.email"),
                    format!("{:?} is not an e-mail address", p.email),
                    "write the player's address",
                )
            })?;
            if let Some(other) = emails.insert(email.clone(), p.id.clone()) {
                return Err(err(
                    &format!("{key}.email"),
                    format!("{email} is also the address of player {other:?}"),
                    "each player needs his own address: the clerk knows players by it",
                ));
            }
            if [&address, &chief_arbiter, &chief_secretary].contains(&&email) {
                return Err(err(
                    &format!("{key}.email"),
                    format!("{email} is the clerk's or an arbiter's address"),
                    "give the player his own address",
                ));
            }
            let start_sheet_received = match &p.start_sheet_received {
                Some(value) => Some(date(&format!("{key}.start_sheet_received"), value)?),
                None => None,
            };
            let secret = p.secret.clone().filter(|s| !s.trim().is_empty());
            players.push(Player {
                id: p.id.clone(),
                name: p.name.clone(),
                email,
                start_sheet_received,
                secret,
            });
        }

        let mut games = Vec::new();
        let mut game_ids = BTreeSet::new();
        for (index, g) in raw.games.iter().enumerate() {
            let key = format!("games[{index}]");
            if g.id.trim().is_empty()
                || g.id
                    .contains(|c: char| c.is_whitespace() || "[]#".contains(c))
            {
                return Err(err(
                    &format!("{key}.id"),
                    format!("{:?} cannot name a game in a subject", g.id),
                    "use letters, digits and dashes",
                ));
            }
            if !game_ids.insert(g.id.clone()) {
                return Err(err(
                    &format!("{key}.id"),
                    format!("game {:?} is listed twice", g.id),
                    "give each game its own id",
                ));
            }
            for (side, id) in [("white", &g.white), ("black", &g.black)] {
                if !ids.contains(id) {
                    return Err(err(
                        &format!("{key}.{side}"),
                        format!("unknown player {id:?}"),
                        &format!("add a [[players]] entry with id = {id:?}, or correct the id"),
                    ));
                }
            }
            if g.white == g.black {
                return Err(err(
                    &format!("{key}.black"),
                    format!("{:?} cannot play himself", g.white),
                    "name two different players",
                ));
            }
            games.push(GameConfig {
                id: g.id.clone(),
                white: g.white.clone(),
                black: g.black.clone(),
            });
        }

        let require = match raw.security.require.as_deref().unwrap_or("none") {
            "none" => Require::None,
            "dkim" => Require::Dkim,
            "spf" => Require::Spf,
            other => {
                return Err(err(
                    "security.require",
                    format!("{other:?} is not a check"),
                    "write \"dkim\", \"spf\" or \"none\"",
                ));
            }
        };
        if require != Require::None && raw.security.trusted_authserv_id.is_none() {
            return Err(err(
                "security.trusted_authserv_id",
                "is missing, and security.require needs it".into(),
                "give the authserv-id your own mail server writes in Authentication-Results (often its host name)",
            ));
        }
        if raw.limits.max_letter_bytes < 1024 {
            return Err(err(
                "limits.max_letter_bytes",
                format!(
                    "{} bytes is too small for any letter",
                    raw.limits.max_letter_bytes
                ),
                "leave it out for 1 MB",
            ));
        }
        let security = Security {
            trusted_authserv_id: raw.security.trusted_authserv_id.clone(),
            require,
        };
        Ok(Config {
            file: file.to_path_buf(),
            tournament_id: t.id.clone(),
            tournament_name: t.name.clone(),
            start_date,
            end_date,
            timezone,
            language,
            date_order,
            rules,
            address,
            database: resolve(&raw.bot.database),
            templates: resolve(&raw.bot.templates),
            chief_arbiter,
            chief_secretary,
            source,
            transport,
            index: OnceLock::new(),
            players,
            games,
            limits: raw.limits,
            security,
            report_out: raw
                .report
                .out
                .as_deref()
                .filter(|out| !out.trim().is_empty())
                .map(resolve),
        })
    }

    fn index(&self) -> &Index {
        self.index
            .get_or_init(|| Index::new(&self.players, &self.games))
    }

    pub fn player(&self, id: &str) -> Option<&Player> {
        let at = self.index().player_by_id.get(id);
        look_up(&self.players, at, |p| p.id == id)
    }

    pub fn player_by_email(&self, email: &str) -> Option<&Player> {
        let at = self.index().player_by_email.get(email);
        look_up(&self.players, at, |p| p.email == email)
    }

    pub fn game(&self, id: &str) -> Option<&GameConfig> {
        let at = self.index().game_by_id.get(id);
        look_up(&self.games, at, |g| g.id == id)
    }

    /// The games `player` plays, in the order of the file.
    pub fn games_of(&self, player: &str) -> Vec<&GameConfig> {
        let plays = |g: &&GameConfig| g.white == player || g.black == player;
        let index = self.index();
        let indexed: Option<Vec<&GameConfig>> =
            index
                .games_of_player
                .get(player)
                .map_or(Some(Vec::new()), |at| {
                    at.iter()
                        .map(|&at| self.games.get(at).filter(plays))
                        .collect()
                });
        match indexed {
            // The index holds every game of the file; a list changed after
            // loading is searched again.
            Some(games) if index.games == self.games.len() => games,
            _ => self.games.iter().filter(plays).collect(),
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn server(
    section: &str,
    host: Option<&str>,
    port: Option<u16>,
    tls: Option<&str>,
    username: Option<&str>,
    password_env: Option<&str>,
    default_port: u16,
    err: &dyn Fn(&str, String, &str) -> ConfigError,
) -> Result<Server, ConfigError> {
    let host = host.ok_or_else(|| {
        err(
            &format!("{section}.host"),
            "is missing".into(),
            "give the server's host name",
        )
    })?;
    let tls = match tls.unwrap_or("tls") {
        "tls" => Tls::Tls,
        "starttls" => Tls::StartTls,
        "none" => Tls::None,
        other => {
            return Err(err(
                &format!("{section}.tls"),
                format!("{other:?} is not a TLS mode"),
                "write \"tls\", \"starttls\" or \"none\"",
            ));
        }
    };
    let username = username.ok_or_else(|| {
        err(
            &format!("{section}.username"),
            "is missing".into(),
            "give the login name",
        )
    })?;
    let password_env = password_env.ok_or_else(|| {
        err(
            &format!("{section}.password_env"),
            "is missing".into(),
            "name the environment variable that holds the password, e.g. \"SHTEMPEL_PASSWORD\"",
        )
    })?;
    Ok(Server {
        host: host.into(),
        port: port.unwrap_or(default_port),
        tls,
        username: username.into(),
        password_env: password_env.into(),
    })
}

/// A lower-cased address if `text` is one plain address (`local@domain`).
pub fn checked_address(text: &str) -> Option<String> {
    let text = text.trim();
    let (local, domain) = text.rsplit_once('@')?;
    let clean = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_graphic() && !"<>()[],;:\"\\@".contains(c))
    };
    (clean(local) && clean(domain)).then(|| text.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../config.example.toml");

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(Path::new("/srv/cc/shtempel.toml"), text)
    }

    #[test]
    fn the_example_config_is_valid() {
        let config = parse(EXAMPLE).unwrap();
        assert_eq!(config.tournament_id, "CC-2026");
        assert_eq!(config.database, PathBuf::from("/srv/cc/shtempel.sqlite"));
        assert_eq!(
            config.source,
            Source::Maildir {
                path: "/srv/cc/mail/inbox".into()
            }
        );
        assert_eq!(config.rules, Rules::default());
        assert_eq!(
            config.players[1].start_sheet_received,
            Some("2026-11-05".parse().unwrap())
        );
        assert_eq!(config.games.len(), 2, "a player may be in several games");
    }

    #[test]
    fn players_and_games_are_found_by_id_email_and_player() {
        let mut config = parse(EXAMPLE).unwrap();
        let ids = |games: Vec<&GameConfig>| games.iter().map(|g| g.id.clone()).collect::<Vec<_>>();
        assert_eq!(config.player("petrov").unwrap().email, "petrov@example.org");
        assert_eq!(
            config.player_by_email("ivanov@example.org").unwrap().id,
            "ivanov"
        );
        assert!(config.player("sidorov").is_none());
        assert_eq!(config.game("2").unwrap().white, "petrov");
        assert_eq!(ids(config.games_of("ivanov")), ["1", "2"]);
        assert!(config.games_of("sidorov").is_empty());
        // Lists changed after loading are still searched right.
        config.games.swap(0, 1);
        config.games.push(GameConfig {
            id: "3".into(),
            white: "sidorov".into(),
            black: "ivanov".into(),
        });
        config.players.swap(0, 1);
        assert_eq!(config.game("1").unwrap().white, "ivanov");
        assert_eq!(ids(config.games_of("ivanov")), ["2", "1", "3"]);
        assert_eq!(ids(config.games_of("sidorov")), ["3"]);
        assert_eq!(
            config.player_by_email("ivanov@example.org").unwrap().id,
            "ivanov"
        );
    }

    #[test]
    fn errors_name_the_key_and_the_fix() {
        // (change to the example, key named, words in the problem)
        let table = [
            (
                "white = \"ivanov\"\nblack = \"petrov\"\n\n[[games]]\nid = \"2\"",
                "white = \"sidorov\"\nblack = \"petrov\"\n\n[[games]]\nid = \"2\"",
                "games[0].white",
                "unknown player \"sidorov\"",
            ),
            (
                "timezone = \"Europe/Moscow\"",
                "timezone = \"Mars/Olympus\"",
                "tournament.timezone",
                "not an IANA time zone",
            ),
            (
                "end_date = 2028-11-01",
                "end_date = 2026-10-01",
                "tournament.end_date",
                "is not after start_date",
            ),
            (
                "chief_arbiter = \"arbiter@example.org\"",
                "chief_arbiter = \"arbiter\"",
                "arbiters.chief_arbiter",
                "not an e-mail address",
            ),
            (
                "language = \"ru\"",
                "language = \"de\"",
                "tournament.language",
                "not a language",
            ),
            (
                "language = \"ru\"",
                "language = \"ru\"\ndate_order = \"ymd\"",
                "tournament.date_order",
                "not an order of day and month",
            ),
            (
                "kind = \"maildir\"",
                "kind = \"pigeon\"",
                "source.kind",
                "not a source",
            ),
            (
                "email = \"petrov@example.org\"",
                "email = \"ivanov@example.org\"",
                "players[1].email",
                "also the address",
            ),
        ];
        for (from, to, key, words) in table {
            assert!(EXAMPLE.contains(from), "{from}");
            let error = parse(&EXAMPLE.replacen(from, to, 1)).unwrap_err();
            assert_eq!(error.key, key, "{error}");
            assert!(error.problem.contains(words), "{error}");
            assert!(!error.fix.is_empty(), "{error}");
            assert!(
                error.to_string().starts_with("/srv/cc/shtempel.toml: "),
                "{error}"
            );
        }
        let missing = parse(&EXAMPLE.replace(
            "[arbiters]\nchief_arbiter = \"arbiter@example.org\"\n",
            "[arbiters]\n",
        ))
        .unwrap_err();
        assert!(missing.problem.contains("chief_arbiter"), "{missing}");
        let unknown = parse(&EXAMPLE.replace("penalty_days = 6", "penalty_dayz = 6")).unwrap_err();
        assert!(unknown.problem.contains("penalty_dayz"), "{unknown}");
        assert!(unknown.key.starts_with("line "), "{unknown}");
    }
}

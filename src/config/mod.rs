//! The tournament's TOML file (contract.md 2): read as a raw table
//! ([`raw`]), then checked and resolved into a [`Config`] table by table
//! ([`parse`]). Every error names the file, the key and the fix.

mod draw;
pub mod edit;
mod entries;
mod federation;
mod parse;
pub mod people;
mod ratings;
mod raw;
mod servers;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use chrono::NaiveDate;
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

pub use self::draw::Draw;
pub use self::federation::{load_all, load_all_over};
pub use self::parse::{NAME_MOST, checked_address, name_problem};
pub use self::people::{People, Person};
pub use crate::Diagrams;
use crate::Lang;
use crate::letter::{DateOrder, DateReading};
use crate::rules::Rules;

/// The line (1-based) of `text` that byte `offset` is on: a span that
/// starts a line is on that line, not the one before.
fn line_at(text: &str, offset: usize) -> usize {
    let before = text.get(..offset).unwrap_or(text);
    before.matches('\n').count() + 1
}

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

/// Bounds on what the clerk reads and writes, against floods and bombs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Limits {
    /// Replies to one address a day; then one notice, then silence.
    pub max_replies_per_day: u32,
    /// A larger letter is not read: its sender gets a short notice.
    pub max_letter_bytes: usize,
    /// The largest message the clerk sends: the mail server's own limit
    /// (its SMTP `SIZE`). The chief arbiter's overstep file is kept within
    /// it, the letters that do not fit listed in it instead.
    pub max_message_bytes: usize,
}

/// Postfix's own default `message_size_limit`, which most servers match or
/// pass.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 10_240_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_replies_per_day: 10,
            max_letter_bytes: 1024 * 1024,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
        }
    }
}

/// What a reader asked of the clerk's letters to him (`DIAGRAMS`,
/// `LANGUAGE` by mail): each `None` where he asked nothing, so his
/// tournament's setting holds. Kept in the database by address, for every
/// address of the person, across the events he plays in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preferences {
    pub diagrams: Option<Diagrams>,
    pub language: Option<crate::Lang>,
    pub digest: Option<crate::Digest>,
}

impl Preferences {
    /// These, with what `newer` sets over them.
    pub fn with(self, newer: Preferences) -> Preferences {
        Preferences {
            diagrams: newer.diagrams.or(self.diagrams),
            language: newer.language.or(self.language),
            digest: newer.digest.or(self.digest),
        }
    }

    /// Whether the messages that can wait go to him once a day.
    pub fn daily(self) -> bool {
        self.digest == Some(crate::Digest::Daily)
    }
}

/// `[mail]`: what the clerk's letters carry, and when a daily digest goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MailOptions {
    pub diagrams: Diagrams,
    /// The hour of the tournament's zone (0 to 23) from which a day's
    /// digest goes: the first poll at or after it sends it.
    pub digest_hour: u32,
}

impl Default for MailOptions {
    fn default() -> MailOptions {
        MailOptions {
            diagrams: Diagrams::default(),
            digest_hour: 8,
        }
    }
}

/// What a letter must prove about its sender.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Require {
    /// Nothing beyond the From: address (and the player's secret, if he has one).
    None,
    /// `dkim=pass` for the sender's domain, from our own server's Authentication-Results.
    Dkim,
    /// `spf=pass` for the sender's domain, likewise.
    Spf,
}

/// How far the clerk trusts the From: line (contract: `[security]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Security {
    /// The authserv-ids of our own server (`trusted_authserv_id`): only
    /// Authentication-Results fields naming one of them count.
    pub trusted: Vec<TrustedId>,
    pub require: Require,
    pub alignment: Alignment,
}

/// An authserv-id the clerk trusts: a host name, or every host under a
/// domain (`*.mail.yandex.net`), for a provider whose id changes from
/// letter to letter. A bare `*` is refused when the file is read: it would
/// trust any field, a sender's own too.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum TrustedId {
    /// This host, lower case.
    Host(String),
    /// Any host under this domain (one label or more before it), lower case.
    Under(String),
}

impl TrustedId {
    /// Whether a field's authserv-id is this one (host names are
    /// case-insensitive; a final dot is the same name).
    pub fn matches(&self, authserv_id: &str) -> bool {
        let id = authserv_id.trim_end_matches('.').to_ascii_lowercase();
        match self {
            TrustedId::Host(host) => id == *host,
            TrustedId::Under(domain) => id
                .strip_suffix(domain.as_str())
                .and_then(|head| head.strip_suffix('.'))
                .is_some_and(|head| !head.is_empty()),
        }
    }
}

impl std::fmt::Display for TrustedId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrustedId::Host(host) => f.write_str(host),
            TrustedId::Under(domain) => write!(f, "*.{domain}"),
        }
    }
}

/// How the domain a server vouches for must fit the From: address's
/// (`[security] alignment`, after DMARC's two modes, RFC 7489 §3.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Alignment {
    /// The very domain of the From: address.
    #[default]
    Strict,
    /// That domain, a subdomain of it (`mail.example.org` for
    /// `@example.org`), or a domain it is a subdomain of.
    Relaxed,
}

/// How a mail connection is secured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tls {
    Tls,
    StartTls,
    None,
}

/// How a client logs in (`auth`): SASL PLAIN, the LOGIN command of IMAP or
/// AUTH LOGIN of SMTP, or an OAuth 2.0 access token by XOAUTH2 (Google's and
/// Microsoft's) or OAUTHBEARER (RFC 7628).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Auth {
    Plain,
    Login,
    XOAuth2,
    OAuthBearer,
}

impl Auth {
    /// The mechanism's name as the servers write it.
    pub fn name(self) -> &'static str {
        match self {
            Auth::Plain => "PLAIN",
            Auth::Login => "LOGIN",
            Auth::XOAuth2 => "XOAUTH2",
            Auth::OAuthBearer => "OAUTHBEARER",
        }
    }
    /// Whether the secret is an OAuth 2.0 access token, not a password.
    pub fn takes_a_token(self) -> bool {
        matches!(self, Auth::XOAuth2 | Auth::OAuthBearer)
    }
}

/// Where a login's password (or access token) comes from; it is never
/// written in the config.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Secret {
    /// The environment variable that holds it (`password_env`), read when
    /// the run starts.
    Env(String),
    /// A command whose first line of output it is (`password_command`), run
    /// at each login, so that a token helper can give a fresh token.
    Command(String),
    /// No login (an SMTP relay that trusts the host).
    None,
}

/// A server login (IMAP or SMTP).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Server {
    pub host: String,
    pub port: u16,
    pub tls: Tls,
    pub username: String,
    pub secret: Secret,
    pub auth: Auth,
    /// Certificates (PEM) of a private certificate authority the server's
    /// certificate may be signed by, beside the web's (`ca_file`).
    pub ca_file: Option<PathBuf>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Transport {
    File {
        path: PathBuf,
    },
    Smtp {
        server: Server,
        /// Messages over one connection before it is opened again (some
        /// providers refuse more): `[transport] max_messages_per_connection`.
        max_per_connection: usize,
        /// Messages a minute at most (a provider's limit), if set:
        /// `[transport] max_per_minute`.
        max_per_minute: Option<usize>,
    },
    Sendmail {
        command: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub id: String,
    pub name: String,
    /// Lower-case address: the one the clerk writes to.
    pub email: String,
    /// His other addresses (`emails = [...]` past the first), lower-case:
    /// letters from any of them are his.
    pub other_emails: Vec<String>,
    pub start_sheet_received: Option<NaiveDate>,
    /// A word his letters must carry on a `Secret:` line; never echoed.
    pub secret: Option<String>,
    /// A rating given him (`rating = 2150`, `rating_source`), which the
    /// rating list takes until he has his own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_rating: Option<StartRating>,
}

/// A rating a player brings (from ICCF, FIDE, a national list), and where
/// it is from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartRating {
    pub rating: u32,
    pub source: Option<String>,
}

impl Player {
    /// Every address of his, the one written to first.
    pub fn addresses(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.email).chain(&self.other_emails)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameConfig {
    pub id: String,
    pub white: String,
    pub black: String,
    /// The day a game added during the tournament starts; `None`: the
    /// tournament's start date.
    pub start_date: Option<NaiveDate>,
    /// The round its pairing put it in; `None` for a game the file lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<usize>,
}

/// `[xfcc]`: where `shtempel serve` listens, the address the players'
/// chess programs reach it at, and its certificate where it speaks TLS
/// itself (not behind a reverse proxy).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct XfccSettings {
    pub url: String,
    pub listen: std::net::SocketAddr,
    /// The certificate chain and its key (PEM).
    pub tls: Option<(PathBuf, PathBuf)>,
}

/// The checked configuration of one tournament.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    pub file: PathBuf,
    /// The file the clerk was started with (`--config`): this one, or the
    /// clerk's file of the folder it is in.
    pub clerk_file: PathBuf,
    pub tournament_id: String,
    pub tournament_name: String,
    pub start_date: NaiveDate,
    pub end_date: NaiveDate,
    pub timezone: Tz,
    pub language: Lang,
    /// How the players write slashed dates (`07/11/2026`).
    pub date_order: DateOrder,
    /// How the games were made from the players (`[tournament] pairing`),
    /// or `None`: the file lists them.
    pub pairing: Option<crate::rules::Pairing>,
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
    /// The games: read through [`Config::draw`], as the loader made them.
    draw: Draw,
    pub limits: Limits,
    pub mail: MailOptions,
    pub security: Security,
    /// The folder of the report site `poll` refreshes, if any.
    pub report_out: Option<PathBuf>,
    /// `[report] url`: the address `report_out` is published at, where it
    /// is (the Xfcc server links each game's page).
    pub report_url: Option<String>,
    /// The Xfcc server's settings, where `[xfcc]` gives them.
    pub xfcc: Option<XfccSettings>,
    /// One of a folder of tournaments (its games are stored under
    /// `ID/<game>`), not a file of its own.
    pub in_folder: bool,
    /// `[tournament] seed = "rating"`: `players` are in the order of
    /// their ratings, not of the file.
    pub seed_by_rating: bool,
    /// `[ratings]`: how the federation's list is made.
    pub ratings: crate::ratings::Settings,
    /// Where each player and game is in the lists: every letter looks its
    /// sender and game up, and a federation has thousands of both. Built at
    /// the first lookup: a run with no mail makes none.
    #[serde(skip)]
    index: OnceLock<Index>,
}

/// Positions in `Config::players`; each lookup checks what it finds, so a
/// list changed after loading is still searched right.
#[derive(Debug, Clone, Default)]
struct Index {
    player_by_id: HashMap<String, usize>,
    player_by_email: HashMap<String, usize>,
    /// The players there were when it was built: with as many, an address
    /// or id it lacks is nobody's (a stranger's letter, or one of another
    /// tournament of a folder, costs no search of the list).
    players: usize,
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
    fn new(players: &[Player]) -> Index {
        let mut index = Index {
            players: players.len(),
            ..Index::default()
        };
        for (at, player) in players.iter().enumerate() {
            index.player_by_id.entry(player.id.clone()).or_insert(at);
            for email in player.addresses() {
                index.player_by_email.entry(email.clone()).or_insert(at);
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

    /// Drops the lookup index: the lists were changed in place.
    pub(crate) fn forget_index(&mut self) {
        self.index = OnceLock::new();
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| Index::new(&self.players))
    }

    /// Where the Xfcc server writes the moves it takes, for the passes to
    /// read (`mail::source::spool`): a Maildir beside the database, which
    /// the events of a folder share as they share the database.
    pub fn xfcc_spool(&self) -> PathBuf {
        let name = self
            .database
            .file_name()
            .map_or_else(|| "shtempel".into(), |name| name.to_string_lossy());
        self.database.with_file_name(format!("{name}.xfcc-moves"))
    }

    /// What the database prefixes to this tournament's game ids: its id,
    /// for one of a folder; `None` for a tournament of its own file. Every
    /// read and write of its games names it (`Store::write`, `GameKey`).
    pub fn scope(&self) -> Option<&str> {
        self.in_folder.then_some(self.tournament_id.as_str())
    }

    /// The key of this tournament's game `game` in the database and in the
    /// run's events: `ID/<game>` in a folder.
    pub fn game_key(&self, game: &str) -> crate::key::GameKey {
        crate::key::GameKey::new(self.scope(), game)
    }

    pub fn player(&self, id: &str) -> Option<&Player> {
        let index = self.index();
        let at = index.player_by_id.get(id);
        if at.is_none() && index.players == self.players.len() {
            return None;
        }
        look_up(&self.players, at, |p| p.id == id)
    }

    /// Whether `address` is this tournament's chief arbiter or chief
    /// secretary.
    pub fn is_official(&self, address: &str) -> bool {
        address == self.chief_arbiter || address == self.chief_secretary
    }

    /// Whether letters from `address` are read: a player's or the chief
    /// arbiter's.
    pub fn is_known(&self, address: &str) -> bool {
        address == self.chief_arbiter || self.player_by_email(address).is_some()
    }

    pub fn player_by_email(&self, email: &str) -> Option<&Player> {
        let index = self.index();
        let at = index.player_by_email.get(email);
        if at.is_none() && index.players == self.players.len() {
            return None;
        }
        look_up(&self.players, at, |p| p.addresses().any(|a| a == email))
    }

    /// The tournament's games (see [`Draw`]).
    pub fn draw(&self) -> &Draw {
        &self.draw
    }

    /// The config with `draw` for its games (the loader's, and a test's).
    pub fn with_draw(self, draw: Draw) -> Config {
        Config { draw, ..self }
    }
}

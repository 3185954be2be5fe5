//! The configuration file as written: serde's view of it, checked only for
//! its shape (unknown keys are refused). [`super::parse`] checks the values.

use serde::Deserialize;

use super::{Limits, MailOptions};
use crate::rules::Rules;

/// A date in the TOML file: a TOML date (`2026-11-01`) or a string.
#[derive(Debug, Clone)]
pub(super) struct DateValue(pub(super) String);

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
pub(super) struct RawConfig {
    pub tournament: RawTournament,
    #[serde(default)]
    pub rules: Rules,
    pub bot: RawBot,
    pub arbiters: RawArbiters,
    pub source: RawSource,
    pub transport: RawTransport,
    #[serde(default)]
    pub limits: Limits,
    #[serde(default)]
    pub mail: MailOptions,
    #[serde(default)]
    pub security: RawSecurity,
    #[serde(default)]
    pub report: RawReport,
    pub xfcc: Option<RawXfcc>,
    #[serde(default)]
    pub ratings: RawRatings,
    #[serde(default)]
    pub players: Vec<RawPlayer>,
    #[serde(default)]
    pub games: Vec<RawGame>,
}

/// `[report]`: where `poll` refreshes the report site after each run.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawReport {
    pub out: Option<String>,
    pub url: Option<String>,
}

/// `[xfcc]`: the Xfcc server chess programs move through (`shtempel serve`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRatings {
    pub method: Option<String>,
    pub period: Option<String>,
    pub newcomer_games: Option<i64>,
    pub rate_forfeits: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawXfcc {
    pub url: Option<String>,
    pub listen: Option<String>,
    pub tls_cert: Option<String>,
    pub tls_key: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSecurity {
    pub trusted_authserv_id: Option<OneOrMany>,
    pub require: Option<String>,
    pub alignment: Option<String>,
}

/// A key that takes one value or a list of them (`"mx.example.org"` or
/// `["mx1.example.org", "*.mail.yandex.net"]`).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    pub fn values(&self) -> &[String] {
        match self {
            OneOrMany::One(one) => std::slice::from_ref(one),
            OneOrMany::Many(many) => many,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTournament {
    pub id: String,
    pub name: String,
    pub start_date: DateValue,
    pub end_date: DateValue,
    pub timezone: String,
    #[serde(default = "default_language")]
    pub language: String,
    pub date_order: Option<String>,
    /// `round_robin` or `double_round_robin`: the games made from the
    /// players (no `[[games]]`).
    pub pairing: Option<String>,
    pub seed: Option<String>,
}

pub(super) fn default_language() -> String {
    "ru".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBot {
    pub address: String,
    #[serde(default = "default_database")]
    pub database: String,
    #[serde(default = "default_templates")]
    pub templates: String,
}

pub(super) fn default_database() -> String {
    "shtempel.sqlite".into()
}

pub(super) fn default_templates() -> String {
    "templates".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawArbiters {
    pub chief_arbiter: String,
    pub chief_secretary: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSource {
    pub kind: String,
    pub path: Option<String>,
    pub host: Option<String>,
    pub port: Option<u16>,
    pub tls: Option<String>,
    pub username: Option<String>,
    pub password_env: Option<String>,
    pub password_command: Option<String>,
    pub auth: Option<String>,
    pub ca_file: Option<String>,
    pub mailbox: Option<String>,
    pub processed_mailbox: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTransport {
    pub kind: String,
    pub path: Option<String>,
    pub host: Option<String>,
    pub port: Option<u16>,
    pub tls: Option<String>,
    pub username: Option<String>,
    pub password_env: Option<String>,
    pub password_command: Option<String>,
    pub auth: Option<String>,
    pub ca_file: Option<String>,
    pub command: Option<String>,
    pub max_messages_per_connection: Option<usize>,
    pub max_per_minute: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlayer {
    pub id: String,
    pub name: String,
    pub email: Option<String>,
    /// A player who writes from several addresses: the first is written to.
    pub emails: Option<Vec<String>>,
    pub start_sheet_received: Option<DateValue>,
    pub secret: Option<String>,
    pub rating: Option<i64>,
    pub rating_source: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGame {
    pub id: String,
    pub white: String,
    pub black: String,
    pub start_date: Option<DateValue>,
}

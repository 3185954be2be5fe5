//! Whether a letter comes from whom it claims (README "Against floods, loops
//! and forgery"): our own server's `Authentication-Results` for the sender's
//! domain, where `[security]` asks for it, and the player's secret word.
//!
//! Which fields are our server's (RFC 8601 §5): those with the trusted
//! authserv-id that stand above the server's own receipt of the letter, the
//! topmost `Received:` whose `by` names the trusted id (or, where none names
//! it, the topmost `Received:`). What is above it was written after the
//! letter reached us (OpenDKIM, OpenDMARC and rspamd insert their fields
//! there; a delivery hop such as Dovecot's LMTP adds its own `Received:`
//! above); what is below it came with the letter, the sender's own words.
//! Every such field is read by RFC 8601's grammar ([`authres`]): one field a
//! method (OpenDMARC's above OpenDKIM's) counts as one. A field that cannot
//! be read whole counts for nothing. The letter passes when one result of
//! the required method is `pass` for the sender's own domain: DKIM's
//! `header.d` (or, without one, `header.i`'s domain, as Gmail writes it);
//! SPF's `smtp.mailfrom` (Yandex writes `smtp.mail`). No other property
//! counts, so a pass for another domain is no pass.
//!
//! The trusted id is best the host name the server writes in its
//! `Received:` (Postfix's `myhostname`, OpenDKIM's default `AuthservID`):
//! where it names no `Received:`, a sender's own `Received: by <id>` below
//! the server's could widen what is read as the server's.

use crate::config::{Player, Require, Security};
use crate::mail::format::authres::{self, AuthResults};
use crate::mail::format::mime::{Mail, Trace};

/// Why a letter is not taken for its sender's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unverified {
    /// Our own server's fields do not say `method=pass` for the sender's
    /// domain; `found` says what they said instead.
    NoPass {
        method: &'static str,
        domain: String,
        trusted: String,
        found: ServerSaid,
    },
    SecretMissing,
    SecretWrong,
}

impl std::fmt::Display for Unverified {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unverified::NoPass {
                method,
                domain,
                trusted,
                found,
            } => write!(f, "no {method}=pass for {domain} from {trusted} ({found})"),
            Unverified::SecretMissing => f.write_str("the secret word is missing"),
            Unverified::SecretWrong => f.write_str("the secret word is wrong"),
        }
    }
}

/// Why a letter is not taken for its sender's, or `Ok` when it is.
pub fn verify(mail: &Mail, security: &Security, player: Option<&Player>) -> Result<(), Unverified> {
    if let Some(trusted) = &security.trusted_authserv_id {
        let method = match security.require {
            Require::None => None,
            Require::Dkim => Some("dkim"),
            Require::Spf => Some("spf"),
        };
        if let Some(method) = method {
            let domain = mail
                .from
                .as_deref()
                .map(authres::domain_of)
                .unwrap_or_default();
            server_vouches(&mail.trace, trusted, method, &domain).map_err(|found| {
                Unverified::NoPass {
                    method,
                    domain,
                    trusted: trusted.clone(),
                    found,
                }
            })?;
        }
    }
    if let Some(secret) = player.and_then(|p| p.secret.as_deref()) {
        let written = crate::letter::own_lines(&mail.text)
            .into_iter()
            .find_map(|(_, line)| secret_on(line));
        match written {
            Some(word) if constant_time_eq(word.as_bytes(), secret.as_bytes()) => {}
            Some(_) => return Err(Unverified::SecretWrong),
            None => return Err(Unverified::SecretMissing),
        }
    }
    Ok(())
}

/// What the trusted server's fields said of a letter that did not pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerSaid {
    /// The letter's `From:` has no domain to vouch for.
    NoDomain,
    /// These results of the method, each with the domain it named.
    Results(Vec<String>),
    /// Fields of its, none of the method.
    NothingOf(String),
    /// This many fields above the receipt that could not be read.
    Unreadable(usize),
    /// No field of its above its receipt.
    NoField,
}

impl std::fmt::Display for ServerSaid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerSaid::NoDomain => f.write_str("the letter names no sender's domain"),
            ServerSaid::Results(said) => write!(f, "it said {}", said.join(", ")),
            ServerSaid::NothingOf(method) => write!(f, "it said nothing of {method}"),
            ServerSaid::Unreadable(count) => {
                write!(f, "{count} field(s) above its receipt could not be read")
            }
            ServerSaid::NoField => f.write_str("it wrote no field above its receipt"),
        }
    }
}

/// `Ok` when the fields `trusted` wrote on receiving the letter say
/// `method=pass` for `domain`; otherwise what they say, for the log.
pub fn server_vouches(
    trace: &[Trace],
    trusted: &str,
    method: &str,
    domain: &str,
) -> Result<(), ServerSaid> {
    let written_by = |id: &str| id.eq_ignore_ascii_case(trusted);
    let received_by_trusted = trace.iter().position(|field| {
        matches!(field, Trace::Received(value)
            if authres::received_by(value).is_some_and(|by| written_by(&by)))
    });
    let receipt = received_by_trusted
        .or_else(|| trace.iter().position(|f| matches!(f, Trace::Received(_))))
        .unwrap_or(trace.len());
    let mut unreadable = 0;
    let ours: Vec<AuthResults> = trace[..receipt]
        .iter()
        .filter_map(|field| match field {
            Trace::AuthenticationResults(value) => Some(authres::parse(value)),
            Trace::Received(_) => None,
        })
        .filter_map(|parsed| {
            parsed
                .inspect_err(|_| unreadable += 1)
                .ok()
                .filter(|field| written_by(&field.authserv_id))
        })
        .collect();
    if domain.is_empty() {
        return Err(ServerSaid::NoDomain);
    }
    let results: Vec<_> = ours
        .iter()
        .flat_map(|field| &field.results)
        .filter(|result| result.method == method)
        .collect();
    if results
        .iter()
        .any(|result| result.result == "pass" && identity(result) == Some(domain.to_string()))
    {
        return Ok(());
    }
    let said: Vec<String> = results
        .iter()
        .map(|result| match identity(result) {
            Some(of) => format!("{}={} for {of}", result.method, result.result),
            None => format!("{}={}", result.method, result.result),
        })
        .collect();
    Err(match (said.is_empty(), ours.is_empty()) {
        (false, _) => ServerSaid::Results(said),
        (true, false) => ServerSaid::NothingOf(method.to_string()),
        (true, true) if unreadable > 0 => ServerSaid::Unreadable(unreadable),
        (true, true) => ServerSaid::NoField,
    })
}

/// The domain a result vouches for: DKIM's signing domain, SPF's envelope
/// sender's.
fn identity(result: &authres::MethodResult) -> Option<String> {
    let value = match result.method.as_str() {
        "dkim" => result
            .property("header", "d")
            .or_else(|| result.property("header", "i")),
        "spf" => result
            .property("smtp", "mailfrom")
            .or_else(|| result.property("smtp", "mail")),
        _ => None,
    }?;
    Some(authres::domain_of(value)).filter(|domain| !domain.is_empty())
}

/// The word on a `Secret:` / `Секрет:` / `Пароль:` line.
fn secret_on(line: &str) -> Option<&str> {
    let line = line.trim();
    let (label, value) = line.split_once(':')?;
    let label = label.trim().to_lowercase();
    ["secret", "секрет", "пароль", "password"]
        .contains(&label.as_str())
        .then(|| value.trim())
}

/// Compares without leaking where the first difference is.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut difference = a.len() ^ b.len();
    for (index, byte) in b.iter().enumerate() {
        difference |= usize::from(a.get(index).copied().unwrap_or(0) ^ byte);
    }
    difference == 0
}

#[cfg(test)]
mod tests;

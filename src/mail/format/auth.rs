//! Whether a letter comes from whom it claims (docs/running.md, "What the
//! clerk trusts"): our own server's `Authentication-Results` for the
//! sender's domain, where `[security]` asks for it, and the player's secret
//! word.
//!
//! The rule. Every `Authentication-Results` field is read top first, by
//! RFC 8601's grammar ([`authres`]); a field counts only where its
//! authserv-id is one of `trusted_authserv_id` (RFC 8601 §5). The topmost
//! such field that carries a result of the required method decides, and
//! every field below it is ignored, whatever it says. A trusted field that
//! cannot be read whole decides too, as no pass: it may be the server's
//! own verdict, and what stands below it may be the sender's. The letter
//! passes when the deciding field says `pass` for the sender's domain:
//! DKIM's `header.d` (or, without one, `header.i`'s domain, as Gmail and
//! Yandex write it); SPF's `smtp.mailfrom` (Yandex writes `smtp.mail`). No
//! other property counts.
//!
//! Why not the `Received:` lines: a receipt is text the sender can shape
//! (Postfix writes his HELO as its first word), and real servers write
//! their field above their own receipt (OpenDKIM, OpenDMARC) or below it
//! (Gmail, Yandex, rspamd, Fastmail), so no place among them tells the
//! server's field from the sender's. Order does: a server adds its fields
//! on top of what came, so its own stand above every field the sender
//! wrote.
//!
//! Where the server wrote no verdict of the method on a letter, the topmost
//! trusted field with one may be the sender's. For DKIM that can only
//! happen on a letter without a signature (every verifier writes a result
//! for a signature it saw: Gmail, Mail.ru and Posteo write none for an
//! unsigned letter), so a DKIM pass counts only where the letter carries a
//! `DKIM-Signature` of the domain the pass names: a forged pass on an
//! unsigned letter is refused, and a forged signature makes the server
//! write its own `fail` above. For SPF there is no such check: the server
//! must write its SPF result on every letter, or remove incoming fields
//! with its id; `shtempel doctor` tells from the mailbox whether it does.

use crate::config::{Alignment, Player, Require, Security, TrustedId};
use crate::mail::format::authres::{self, AuthResults, MethodResult};
use crate::mail::format::mime::{Mail, Trace};

/// Why a letter is not taken for its sender's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unverified {
    /// Our own server's fields do not say `method=pass` for the sender's
    /// domain; `found` says what they said instead.
    NoPass {
        method: &'static str,
        domain: String,
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
                found,
            } => write!(f, "no {method}=pass for {domain} ({found})"),
            Unverified::SecretMissing => f.write_str("the secret word is missing"),
            Unverified::SecretWrong => f.write_str("the secret word is wrong"),
        }
    }
}

/// The method `[security] require` names, if any.
pub fn method(require: Require) -> Option<&'static str> {
    match require {
        Require::None => None,
        Require::Dkim => Some("dkim"),
        Require::Spf => Some("spf"),
    }
}

/// Why a letter is not taken for its sender's, or `Ok` when it is.
pub fn verify(mail: &Mail, security: &Security, player: Option<&Player>) -> Result<(), Unverified> {
    if let Some(method) = method(security.require) {
        let domain = mail
            .from
            .as_deref()
            .map(authres::domain_of)
            .unwrap_or_default();
        let check = Check {
            trusted: &security.trusted,
            method,
            alignment: security.alignment,
        };
        check
            .vouches(&mail.trace, &domain)
            .map_err(|found| Unverified::NoPass {
                method,
                domain,
                found,
            })?;
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
    /// The deciding field's results of the method, each with the domain it
    /// named.
    Results { by: String, said: Vec<String> },
    /// The topmost trusted field with a result could not be read whole.
    Unreadable { by: String, why: String },
    /// A DKIM pass for a domain no signature of the letter names.
    Unsigned { by: String, domain: String },
    /// No trusted field carries a result of the method; `fields` of theirs
    /// were there.
    NothingOf { method: String, fields: usize },
}

impl std::fmt::Display for ServerSaid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServerSaid::NoDomain => f.write_str("the letter names no sender's domain"),
            ServerSaid::Results { by, said } => write!(f, "{by} said {}", said.join(", ")),
            ServerSaid::Unreadable { by, why } => {
                write!(f, "a field of {by} could not be read ({why})")
            }
            ServerSaid::Unsigned { by, domain } => write!(
                f,
                "{by} said dkim=pass for {domain}, but the letter carries no signature of {domain}: \
                 the field is not the server's"
            ),
            ServerSaid::NothingOf { method, fields: 0 } => {
                write!(
                    f,
                    "no field of the trusted server said anything of {method}"
                )
            }
            ServerSaid::NothingOf { method, fields } => write!(
                f,
                "{fields} field(s) of the trusted server, none of them of {method}"
            ),
        }
    }
}

/// What a letter must show: a result of `method` from one of `trusted`,
/// for the From: domain as `alignment` reads it.
#[derive(Clone, Copy, Debug)]
pub struct Check<'a> {
    pub trusted: &'a [TrustedId],
    pub method: &'a str,
    pub alignment: Alignment,
}

/// The field that decides a letter, as [`Check::deciding`] finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deciding {
    /// A trusted field read whole, with a result of the method.
    Field(AuthResults),
    /// A trusted field that could not be read whole: its id, and why.
    Unreadable(String, String),
    /// No trusted field with a result of the method; this many trusted
    /// fields were there.
    None(usize),
}

impl Check<'_> {
    fn trusts(&self, authserv_id: &str) -> bool {
        self.trusted.iter().any(|id| id.matches(authserv_id))
    }

    /// The topmost trusted field carrying a result of the method (or not
    /// readable whole), which alone decides.
    pub fn deciding(&self, trace: &[Trace]) -> Deciding {
        let mut trusted_fields = 0;
        for field in trace {
            let Trace::AuthenticationResults(value) = field else {
                continue;
            };
            let Some(id) = authres::authserv_id(value).filter(|id| self.trusts(id)) else {
                continue;
            };
            trusted_fields += 1;
            match authres::parse(value) {
                Err(why) => return Deciding::Unreadable(id, why.to_string()),
                Ok(read) if read.results.iter().any(|r| r.method == self.method) => {
                    return Deciding::Field(read);
                }
                Ok(_) => {}
            }
        }
        Deciding::None(trusted_fields)
    }

    /// `Ok` when the deciding field says the method passed for `domain`;
    /// otherwise what the fields said, for the log.
    pub fn vouches(&self, trace: &[Trace], domain: &str) -> Result<(), ServerSaid> {
        if domain.is_empty() {
            return Err(ServerSaid::NoDomain);
        }
        let field = match self.deciding(trace) {
            Deciding::Field(field) => field,
            Deciding::Unreadable(by, why) => return Err(ServerSaid::Unreadable { by, why }),
            Deciding::None(fields) => {
                return Err(ServerSaid::NothingOf {
                    method: self.method.to_string(),
                    fields,
                });
            }
        };
        let results: Vec<&MethodResult> = field
            .results
            .iter()
            .filter(|result| result.method == self.method)
            .collect();
        let passed = results.iter().find_map(|result| {
            identity(result).filter(|of| result.result == "pass" && self.aligned(of, domain))
        });
        match passed {
            Some(of) if self.method == "dkim" && !signed_by(trace, &of) => {
                Err(ServerSaid::Unsigned {
                    by: field.authserv_id,
                    domain: of,
                })
            }
            Some(_) => Ok(()),
            None => Err(ServerSaid::Results {
                by: field.authserv_id,
                said: results
                    .iter()
                    .map(|result| match identity(result) {
                        Some(of) => format!("{}={} for {of}", result.method, result.result),
                        None => format!("{}={}", result.method, result.result),
                    })
                    .collect(),
            }),
        }
    }

    /// Whether the domain a result vouches for is the From: domain's.
    fn aligned(&self, vouched: &str, from: &str) -> bool {
        match self.alignment {
            Alignment::Strict => vouched == from,
            Alignment::Relaxed => {
                vouched == from || is_under(vouched, from) || is_under(from, vouched)
            }
        }
    }
}

/// What the last letters of a mailbox show of the trusted server's
/// verdicts (`shtempel doctor`): whether it writes one on every letter that
/// needs it, where the rule is safe.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Survey {
    /// Letters read.
    pub letters: usize,
    /// Letters that need the server's verdict: for DKIM those carrying a
    /// signature (an unsigned one is refused whatever stands in it), for
    /// SPF every one.
    pub needing: usize,
    /// Of those, the letters with a trusted field carrying a result of the
    /// method.
    pub with_verdict: usize,
    /// The authserv-ids the letters' topmost fields name, with how many
    /// letters name each, most first.
    pub topmost_ids: Vec<(String, usize)>,
}

impl Check<'_> {
    /// The survey of these letters' headers.
    pub fn survey<'t>(&self, letters: impl IntoIterator<Item = &'t [Trace]>) -> Survey {
        let mut survey = Survey::default();
        let mut ids: Vec<(String, usize)> = Vec::new();
        for trace in letters {
            survey.letters += 1;
            let signed = trace
                .iter()
                .any(|field| matches!(field, Trace::DkimSignature(_)));
            if self.method == "dkim" && !signed {
                continue;
            }
            survey.needing += 1;
            if !matches!(self.deciding(trace), Deciding::None(_)) {
                survey.with_verdict += 1;
            }
            let topmost = trace.iter().find_map(|field| match field {
                Trace::AuthenticationResults(value) => authres::authserv_id(value),
                Trace::DkimSignature(_) => None,
            });
            if let Some(id) = topmost.map(|id| id.to_ascii_lowercase()) {
                match ids.iter_mut().find(|(seen, _)| *seen == id) {
                    Some((_, count)) => *count += 1,
                    None => ids.push((id, 1)),
                }
            }
        }
        ids.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        survey.topmost_ids = ids;
        survey
    }
}

/// Whether `name` is a subdomain of `domain` (of two labels or more: a
/// pass for a bare top-level domain aligns with nothing).
fn is_under(name: &str, domain: &str) -> bool {
    domain.contains('.')
        && name
            .strip_suffix(domain)
            .is_some_and(|head| head.len() > 1 && head.ends_with('.'))
}

/// Whether the letter carries a `DKIM-Signature` whose `d=` is `domain`,
/// or a domain `domain` is under (an `i=` may name a subdomain of `d=`).
fn signed_by(trace: &[Trace], domain: &str) -> bool {
    trace.iter().any(|field| match field {
        Trace::DkimSignature(value) => authres::dkim_signing_domain(value)
            .is_some_and(|signer| signer == domain || is_under(domain, &signer)),
        Trace::AuthenticationResults(_) => false,
    })
}

/// The domain a result vouches for: DKIM's signing domain, SPF's envelope
/// sender's.
fn identity(result: &MethodResult) -> Option<String> {
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
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut difference = a.len() ^ b.len();
    for (index, byte) in b.iter().enumerate() {
        difference |= usize::from(a.get(index).copied().unwrap_or(0) ^ byte);
    }
    difference == 0
}

#[cfg(test)]
mod tests;

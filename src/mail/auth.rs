//! Whether a letter comes from whom it claims (README "Against floods, loops
//! and forgery"): our own server's `Authentication-Results` for the sender's
//! domain, where `[security]` asks for it, and the player's secret word.

use crate::config::{Player, Require, Security};
use crate::mail::mime::Mail;

/// Why a letter is not taken for its sender's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unverified {
    /// Our own server's topmost field does not say `method=pass` for the
    /// sender's domain.
    NoPass {
        method: &'static str,
        domain: String,
        trusted: String,
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
            } => write!(f, "no {method}=pass for {domain} from {trusted}"),
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
                .and_then(|f| f.rsplit_once('@'))
                .map(|(_, d)| d)
                .unwrap_or("");
            // Only the topmost field of our own server counts: it stands
            // above anything the sender wrote (RFC 8601 §5), whether the
            // server puts it above or just below its `Received:` line, and
            // a sender's own field of the same id further down is his word.
            let ours = mail
                .auth_results
                .iter()
                .find(|header| authserv_id(header).eq_ignore_ascii_case(trusted));
            if !ours.is_some_and(|header| auth_passes(header, trusted, method, domain)) {
                return Err(Unverified::NoPass {
                    method,
                    domain: domain.to_string(),
                    trusted: trusted.clone(),
                });
            }
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

/// Whether an Authentication-Results header written by `trusted` says
/// `method=pass` for `domain` (RFC 8601; `header.d=` for DKIM,
/// `smtp.mailfrom=` for SPF).
pub fn auth_passes(header: &str, trusted: &str, method: &str, domain: &str) -> bool {
    if !authserv_id(header).eq_ignore_ascii_case(trusted) || domain.is_empty() {
        return false;
    }
    header.split(';').skip(1).any(|result| {
        let lower = result.trim().to_ascii_lowercase();
        let Some(rest) = lower.strip_prefix(&format!("{method}=pass")) else {
            return false;
        };
        rest.split_whitespace().any(|property| {
            let value = property
                .strip_prefix("header.d=")
                .or_else(|| property.strip_prefix("header.i="))
                .or_else(|| property.strip_prefix("smtp.mailfrom="));
            value.is_some_and(|v| {
                let v = v.trim_matches(|c| c == '"' || c == '<' || c == '>');
                let v = v.rsplit_once('@').map_or(v, |(_, d)| d);
                v.eq_ignore_ascii_case(domain)
            })
        })
    })
}

/// The authserv-id an `Authentication-Results` field begins with: the
/// server that wrote it.
fn authserv_id(header: &str) -> &str {
    header
        .split(';')
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("")
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
mod tests {
    use super::*;

    fn verified(fields: &[&str]) -> bool {
        let mail = Mail {
            from: Some("white@test.example".into()),
            auth_results: fields.iter().map(|f| f.to_string()).collect(),
            ..Mail::default()
        };
        let security = Security {
            trusted_authserv_id: Some("mx.test.example".into()),
            require: Require::Dkim,
        };
        verify(&mail, &security, None).is_ok()
    }

    #[test]
    fn point_5_only_the_topmost_field_of_our_own_server_counts() {
        let pass = "mx.test.example; dkim=pass header.d=test.example";
        let none = "mx.test.example; dkim=none";
        let other = "mx.evil.example; dkim=pass header.d=test.example";
        // (fields from the top down, verified)
        let table: &[(&[&str], bool)] = &[
            (&[pass], true),
            (&[none], false),
            (&[], false),
            (&[other], false),
            // The sender's own field below the server's real one.
            (&[none, pass], false),
            (&[pass, none], true),
            // Another server's field above ours is passed over.
            (&[other, pass], true),
            (&[other, none, pass], false),
            (&["MX.TEST.EXAMPLE; dkim=pass header.d=test.example"], true),
            (&["mx.test.example; dkim=pass header.d=evil.example"], false),
        ];
        for (fields, expected) in table {
            assert_eq!(verified(fields), *expected, "{fields:?}");
        }
    }
}

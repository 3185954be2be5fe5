//! Logins verified lately: a chess program calls `GetMyGames` and then
//! `MakeAMove` with the same password within seconds, and Argon2 (tens of
//! milliseconds of a core, on purpose) is paid once for both. A login is
//! remembered for [`REMEMBERED_FOR`] by its user name, the hash kept of
//! its password (a new password forgets it) and the SHA-256 of the
//! password given, compared in constant time; nothing is remembered of a
//! failure.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::mail::format::auth::constant_time_eq;

/// How long a verified login is taken without Argon2.
pub const REMEMBERED_FOR: Duration = Duration::from_secs(5 * 60);

/// The most logins remembered (one a player; past it, none are until the
/// old ones expire).
const MOST: usize = 10_000;

#[derive(Debug, Default)]
pub struct Verified {
    logins: HashMap<String, Remembered>,
}

#[derive(Debug)]
struct Remembered {
    hash: String,
    password: [u8; 32],
    at: Instant,
}

impl Verified {
    /// Whether `user`'s `password` was verified against `hash` lately.
    pub fn knows(&self, user: &str, hash: &str, password: &str, now: Instant) -> bool {
        self.logins.get(user).is_some_and(|login| {
            login.hash == hash
                && now.saturating_duration_since(login.at) < REMEMBERED_FOR
                && constant_time_eq(&login.password, &Sha256::digest(password.as_bytes()))
        })
    }

    /// `user`'s `password` verified against `hash` now.
    pub fn remember(&mut self, user: &str, hash: &str, password: &str, now: Instant) {
        if self.logins.len() >= MOST {
            self.logins
                .retain(|_, login| now.saturating_duration_since(login.at) < REMEMBERED_FOR);
            if self.logins.len() >= MOST {
                return;
            }
        }
        let remembered = Remembered {
            hash: hash.to_string(),
            password: Sha256::digest(password.as_bytes()).into(),
            at: now,
        };
        self.logins.insert(user.to_string(), remembered);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_login_is_taken_again_with_its_password_and_hash_until_it_expires() {
        let now = Instant::now();
        let mut verified = Verified::default();
        assert!(!verified.knows("ivanov", "$argon2id$a", "secret", now));
        verified.remember("ivanov", "$argon2id$a", "secret", now);
        let later = now + Duration::from_secs(60);
        // (user, kept hash, password given, when, taken)
        let table = [
            ("ivanov", "$argon2id$a", "secret", later, true),
            ("ivanov", "$argon2id$a", "Secret", later, false),
            ("ivanov", "$argon2id$a", "secret2", later, false),
            ("ivanov", "$argon2id$b", "secret", later, false),
            ("petrov", "$argon2id$a", "secret", later, false),
            (
                "ivanov",
                "$argon2id$a",
                "secret",
                now + REMEMBERED_FOR,
                false,
            ),
        ];
        for (user, hash, password, at, taken) in table {
            assert_eq!(
                verified.knows(user, hash, password, at),
                taken,
                "{user} {hash} {password}"
            );
        }
    }
}

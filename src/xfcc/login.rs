//! A player's login to the Xfcc server: a new password, the Argon2 hash
//! that is kept of it (never the password), and a password checked against
//! a hash. New passwords and their salts are derived from a [`Seed`] the
//! run draws from the operating system and the login's cause, so that
//! planning stays a function of values.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use sha2::{Digest, Sha256};

/// What a password is made of: 32 letters and digits, none that looks like
/// another (`0 O`, `1 l I`), none XML or a shell sets apart, so that a
/// player can type it from a letter and a client can send it unescaped
/// (Scid vs PC does).
const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// Letters in a password: 80 bits.
pub const PASSWORD_LENGTH: usize = 16;

/// The Argon2id the hashes are made with: 4 MiB, one pass, one lane,
/// about 4 ms of a core. Argon2's defaults (19 MiB, two passes, 40 ms here)
/// are sized for passwords people choose; these are 80 random bits the
/// clerk chose, which no hash however fast lets anyone guess from a stolen
/// database. The cost left keeps a guesser slow all the same, and fifty
/// programs logging in at once beside a poll cost it 0.2 s of a core, not
/// 2 s (benches/README.md). A hash keeps its own parameters: one made with
/// others is checked with those.
fn argon2() -> Argon2<'static> {
    let params = argon2::Params::new(4 * 1024, 1, 1, None).unwrap_or_default();
    Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
}

/// What a run derives new passwords from: 32 bytes the binary draws from
/// the operating system once a run. Each login's password
/// and salt are SHA-256 of the seed, what they are for, and the login's
/// cause: another run, another seed, so no password is ever made twice,
/// while one run planning a letter twice (a dry run's and the pass's are
/// different runs) issues one.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Seed([u8; 32]);

impl std::fmt::Debug for Seed {
    /// The seed is never printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Seed(..)")
    }
}

/// A login made: the password to tell the player, and the hash to keep.
#[derive(Clone, PartialEq, Eq)]
pub struct NewLogin {
    pub password: String,
    pub hash: String,
}

impl std::fmt::Debug for NewLogin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NewLogin")
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}

impl Seed {
    /// The seed of `bytes`: the operating system's (the binary's), or a
    /// test's (the same passwords each time).
    pub fn from_bytes(bytes: [u8; 32]) -> Seed {
        Seed(bytes)
    }

    fn derived(&self, purpose: &str, cause: &str) -> [u8; 32] {
        let mut digest = Sha256::new();
        digest.update(self.0);
        digest.update(purpose.as_bytes());
        digest.update([0]);
        digest.update(cause.as_bytes());
        digest.finalize().into()
    }

    /// The login `cause` issues (`xfcc:<the letter's key>`): a password of
    /// [`PASSWORD_LENGTH`] letters and its Argon2id hash with a salt of its
    /// own. Argon2 refuses only a salt or an output of a length it does
    /// not take, and these are the lengths it takes by default.
    pub fn login(&self, cause: &str) -> Result<NewLogin, argon2::password_hash::Error> {
        let bytes = self.derived("password", cause);
        // 32 divides 256: every letter as likely as another.
        let password: String = bytes[..PASSWORD_LENGTH]
            .iter()
            .map(|byte| char::from(ALPHABET[usize::from(byte % 32)]))
            .collect();
        let salt = SaltString::encode_b64(&self.derived("salt", cause)[..16])?;
        let hash = argon2()
            .hash_password(password.as_bytes(), &salt)?
            .to_string();
        Ok(NewLogin { password, hash })
    }
}

/// Whether `password` is the one `hash` was made of. The hashes are
/// compared in constant time (password-hash's `Output`); a hash that
/// cannot be read matches nothing.
pub fn verify(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .is_ok_and(|hash| argon2().verify_password(password.as_bytes(), &hash).is_ok())
}

fn nobody_hash() -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::from_b64("bm9ib2R5LXNhbHQ")?;
    let hash = argon2().hash_password(b"nobody", &salt)?;
    Ok(hash.to_string())
}

/// The work of [`verify`] for a user name that has no login, so that an
/// unknown user takes as long to refuse as a wrong password.
pub fn verify_nobody(password: &str) {
    static NOBODY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    // A hash of no password anyone was given, with a salt of its own.
    let nobody = NOBODY.get_or_init(|| nobody_hash().unwrap_or_default());
    let _ = verify(password, nobody);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_sixteen_plain_letters_and_another_for_each_cause() {
        let seed = Seed::from_bytes([7; 32]);
        let first = seed.login("xfcc:a@x").unwrap();
        let second = seed.login("xfcc:b@x").unwrap();
        assert_eq!(first.password.len(), PASSWORD_LENGTH);
        assert_ne!(first.password, second.password);
        assert!(
            first.password.bytes().all(|b| ALPHABET.contains(&b)),
            "{}",
            first.password
        );
        for unlike in ['0', 'O', '1', 'l', 'I', '&', '<', '"'] {
            assert!(!ALPHABET.contains(&(unlike as u8)), "{unlike}");
        }
        // One seed, one cause: one login (a letter planned twice in a run);
        // another seed (another run): another password.
        assert_eq!(seed.login("xfcc:a@x").unwrap(), first);
        let other = Seed::from_bytes([8; 32]).login("xfcc:a@x").unwrap();
        assert_ne!(other.password, first.password);
        assert!(!format!("{first:?}").contains(&first.password));
    }

    #[test]
    fn a_password_matches_its_hash_and_nothing_else_does() {
        let NewLogin { password, hash } = Seed::from_bytes([1; 32]).login("xfcc:k").unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=4096,t=1,p=1$"), "{hash}");
        assert!(!hash.contains(&password));
        assert!(verify(&password, &hash));
        assert!(!verify("k7qp2mzxk7qp2mzx", &hash));
        assert!(!verify(&password[1..], &hash));
        assert!(!verify(&password, "not a hash"));
        // A hash the last build made, with Argon2's defaults, is checked
        // with its own parameters.
        let salt = SaltString::encode_b64(&[3; 16]).unwrap();
        let old = Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .unwrap()
            .to_string();
        assert!(old.contains("$m=19456,t=2,p=1$"), "{old}");
        assert!(verify(&password, &old));
        assert!(!verify("k7qp2mzxk7qp2mzx", &old));
    }

    #[test]
    fn an_unknown_user_costs_a_hash_as_a_known_one_does() {
        // The hash `verify_nobody` checks against is a real one: the work
        // is done, not skipped at a hash that does not parse.
        verify_nobody("x");
        assert!(verify("nobody", &nobody_hash().unwrap()));
    }
}

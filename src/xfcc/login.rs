//! A player's login to the Xfcc server: a new password, the Argon2 hash
//! that is kept of it (never the password), and a password checked against
//! a hash. The randomness is the caller's (the operating system's in the
//! binary): what is pure here stays a function of its values.

use argon2::Argon2;
use argon2::password_hash::rand_core::CryptoRngCore;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// What a password is made of: 32 letters and digits, none that looks like
/// another (`0 O`, `1 l I`), none XML or a shell sets apart, so that a
/// player can type it from a letter and a client can send it unescaped
/// (Scid vs PC does).
const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// Letters in a password: 80 bits.
pub const PASSWORD_LENGTH: usize = 16;

/// A new password.
pub fn new_password(rng: &mut impl CryptoRngCore) -> String {
    let mut bytes = [0u8; PASSWORD_LENGTH];
    rng.fill_bytes(&mut bytes);
    // 32 divides 256: every letter as likely as another.
    bytes
        .iter()
        .map(|byte| char::from(ALPHABET[usize::from(byte % 32)]))
        .collect()
}

/// The hash kept of `password` (Argon2id, PHC string with its salt).
/// Argon2 refuses only a salt or an output of a length it does not take,
/// and these are its defaults.
pub fn hash(
    password: &str,
    rng: &mut impl CryptoRngCore,
) -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::generate(rng);
    let hash = Argon2::default().hash_password(password.as_bytes(), &salt)?;
    Ok(hash.to_string())
}

/// Whether `password` is the one `hash` was made of. The hashes are
/// compared in constant time (password-hash's `Output`); a hash that
/// cannot be read matches nothing.
pub fn verify(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|hash| {
        Argon2::default()
            .verify_password(password.as_bytes(), &hash)
            .is_ok()
    })
}

fn nobody_hash() -> Result<String, argon2::password_hash::Error> {
    let salt = SaltString::from_b64("bm9ib2R5LXNhbHQ")?;
    let hash = Argon2::default().hash_password(b"nobody", &salt)?;
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
    use argon2::password_hash::rand_core::{CryptoRng, RngCore};

    /// A generator that counts: the same passwords each run.
    struct Counting(u8);

    impl RngCore for Counting {
        fn next_u32(&mut self) -> u32 {
            let mut bytes = [0; 4];
            self.fill_bytes(&mut bytes);
            u32::from_le_bytes(bytes)
        }
        fn next_u64(&mut self) -> u64 {
            let mut bytes = [0; 8];
            self.fill_bytes(&mut bytes);
            u64::from_le_bytes(bytes)
        }
        fn fill_bytes(&mut self, dest: &mut [u8]) {
            for byte in dest {
                *byte = self.0;
                self.0 = self.0.wrapping_add(37);
            }
        }
        fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
            self.fill_bytes(dest);
            Ok(())
        }
    }

    impl CryptoRng for Counting {}

    #[test]
    fn a_password_is_sixteen_plain_letters_and_another_each_time() {
        let mut rng = Counting(0);
        let first = new_password(&mut rng);
        let second = new_password(&mut rng);
        assert_eq!(first.len(), PASSWORD_LENGTH);
        assert_ne!(first, second);
        assert!(first.bytes().all(|b| ALPHABET.contains(&b)), "{first}");
        for unlike in ['0', 'O', '1', 'l', 'I', '&', '<', '"'] {
            assert!(!ALPHABET.contains(&(unlike as u8)), "{unlike}");
        }
    }

    #[test]
    fn a_password_matches_its_hash_and_nothing_else_does() {
        let mut rng = Counting(5);
        let password = new_password(&mut rng);
        let kept = hash(&password, &mut rng).unwrap();
        assert!(kept.starts_with("$argon2id$"), "{kept}");
        assert!(!kept.contains(&password));
        assert!(verify(&password, &kept));
        assert!(!verify("k7qp2mzxk7qp2mzx", &kept));
        assert!(!verify(&password[1..], &kept));
        // The same password hashed again has another salt.
        assert_ne!(hash(&password, &mut rng).unwrap(), kept);
        assert!(!verify(&password, "not a hash"));
        verify_nobody(&password);
    }

    #[test]
    fn an_unknown_user_costs_a_hash_as_a_known_one_does() {
        // The hash `verify_nobody` checks against is a real one: the work
        // is done, not skipped at a hash that does not parse.
        verify_nobody("x");
        assert!(verify("nobody", &nobody_hash().unwrap()));
    }
}

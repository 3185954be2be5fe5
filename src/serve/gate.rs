//! Failed logins counted per user name and per address: past a few in a
//! window, the server checks no password for them and answers as for a
//! wrong one until the window has passed, so a guesser learns nothing and
//! costs no hashing. A success forgets the user name's failures.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Failures a user name or an address may have in a window.
pub const FAILURES: usize = 5;

/// The window failures are counted in.
pub const WINDOW: Duration = Duration::from_secs(15 * 60);

/// The most user names and addresses remembered: past it the oldest
/// failures are forgotten first, so a flood of names costs bounded memory.
const REMEMBERED: usize = 10_000;

/// The most characters of a user name the gate keeps (a name of 64 KB is
/// a name of its first 64 characters here).
const NAME_MOST: usize = 64;

fn key(user: &str) -> &str {
    user.char_indices()
        .nth(NAME_MOST)
        .map_or(user, |(end, _)| &user[..end])
}

#[derive(Debug, Default)]
pub struct Gate {
    users: HashMap<String, Vec<Instant>>,
    addresses: HashMap<IpAddr, Vec<Instant>>,
}

fn recent(times: Option<&Vec<Instant>>, now: Instant) -> usize {
    times.map_or(0, |times| {
        times
            .iter()
            .filter(|t| now.saturating_duration_since(**t) < WINDOW)
            .count()
    })
}

impl Gate {
    /// Whether a login of `user` from `address` is checked at all.
    pub fn allows(&self, user: &str, address: IpAddr, now: Instant) -> bool {
        recent(self.users.get(key(user)), now) < FAILURES
            && recent(self.addresses.get(&address), now) < FAILURES
    }

    /// A login that failed (a wrong password, an unknown user).
    pub fn failed(&mut self, user: &str, address: IpAddr, now: Instant) {
        if self.users.len() + self.addresses.len() >= REMEMBERED {
            self.forget_before(now);
        }
        let keep = |times: &mut Vec<Instant>| {
            times.retain(|t| now.saturating_duration_since(*t) < WINDOW);
            times.push(now);
        };
        keep(self.users.entry(key(user).to_string()).or_default());
        keep(self.addresses.entry(address).or_default());
    }

    /// A login that succeeded: the user name's failures forgotten (the
    /// address's stand: one address guessing many names stays held).
    pub fn succeeded(&mut self, user: &str) {
        self.users.remove(key(user));
    }

    /// Forgets the failures older than the window; where that is not
    /// enough, every one.
    fn forget_before(&mut self, now: Instant) {
        let fresh = |times: &mut Vec<Instant>| {
            times.retain(|t| now.saturating_duration_since(*t) < WINDOW);
            !times.is_empty()
        };
        self.users.retain(|_, times| fresh(times));
        self.addresses.retain(|_, times| fresh(times));
        if self.users.len() + self.addresses.len() >= REMEMBERED {
            self.users.clear();
            self.addresses.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_guesser_is_held_for_the_window_by_name_and_by_address() {
        let mut gate = Gate::default();
        let start = Instant::now();
        let here: IpAddr = "192.0.2.1".parse().unwrap();
        let there: IpAddr = "192.0.2.2".parse().unwrap();
        for _ in 0..FAILURES {
            assert!(gate.allows("ivanov", here, start));
            gate.failed("ivanov", here, start);
        }
        // Held: by his name from anywhere, and anyone from that address.
        assert!(!gate.allows("ivanov", there, start));
        assert!(!gate.allows("petrov", here, start));
        assert!(gate.allows("petrov", there, start));
        // Once the window has passed, checked again.
        let later = start + WINDOW;
        assert!(gate.allows("ivanov", here, later));
        // A success forgets the name's failures, not the address's.
        gate.failed("sidorov", there, later);
        gate.succeeded("sidorov");
        assert!(gate.allows("sidorov", there, later));
    }

    #[test]
    fn a_flood_of_names_costs_bounded_memory() {
        let mut gate = Gate::default();
        let now = Instant::now();
        for n in 0..(REMEMBERED * 2) {
            let address = IpAddr::from([10, 0, (n / 256 % 256) as u8, (n % 256) as u8]);
            gate.failed(&format!("user{n}"), address, now);
        }
        assert!(gate.users.len() + gate.addresses.len() <= REMEMBERED + 2);
    }

    #[test]
    fn a_long_name_is_kept_by_its_first_characters() {
        let mut gate = Gate::default();
        let now = Instant::now();
        let here: IpAddr = "192.0.2.9".parse().unwrap();
        let long = "я".repeat(30_000);
        gate.failed(&long, here, now);
        assert_eq!(gate.users.keys().next().unwrap().chars().count(), NAME_MOST);
        // The same name is the same key.
        assert_eq!(gate.users.len(), 1);
        gate.failed(&long, here, now);
        assert_eq!(gate.users.values().next().unwrap().len(), 2);
    }
}

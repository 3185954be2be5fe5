//! When a message of the clerk counts as delivered, and when one that failed
//! is tried again.
//!
//! Delivery (rules.md 2.1): a move reaches the partner on the day the
//! transport accepted the clerk's message that carries it (the SMTP server's
//! 250 reply is the post-office receipt); the first acceptance counts, a
//! message sent again after a crash changes nothing. [`Ledger::delivered`]
//! keeps it so in a ledger, and the store's record of a send does the same
//! (it sets a move's delivery day only where it has none).
//!
//! [`Ledger::delivered`]: super::Ledger::delivered

use chrono::Duration;

/// How long a message that failed `attempts` times waits before the next
/// try: 5, 10, 20 … minutes, up to 6 hours.
pub fn retry_delay(attempts: u32) -> Duration {
    if attempts == 0 {
        return Duration::zero();
    }
    let minutes = 5i64.saturating_mul(1 << attempts.min(10).saturating_sub(1));
    Duration::minutes(minutes.min(6 * 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retries_wait_twice_as_long_each_time_up_to_six_hours() {
        let minutes: Vec<i64> = (0..12).map(|a| retry_delay(a).num_minutes()).collect();
        assert_eq!(
            minutes,
            [0, 5, 10, 20, 40, 80, 160, 320, 360, 360, 360, 360]
        );
    }
}

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

/// How long to wait before sending `count` messages at `now` so that no
/// minute holds more than `per_minute` of them (a provider's limit, `[transport]
/// max_per_minute`), given when the messages before were sent (`sent`, oldest
/// first, on the same clock as `now`). Zero when they may go at once; a
/// window larger than the limit waits as if it were the limit.
pub fn pacing_wait(
    sent: &[std::time::Duration],
    now: std::time::Duration,
    count: usize,
    per_minute: usize,
) -> std::time::Duration {
    let minute = std::time::Duration::from_secs(60);
    let recent: Vec<_> = sent.iter().filter(|&&at| at + minute > now).collect();
    let count = count.min(per_minute);
    let over = (recent.len() + count).saturating_sub(per_minute);
    match over.checked_sub(1).and_then(|last| recent.get(last)) {
        // The `over` oldest of the last minute must leave it first.
        Some(&&oldest) => (oldest + minute).saturating_sub(now),
        None => std::time::Duration::ZERO,
    }
}

/// What decides whether a reader's daily digest goes now: the day the
/// oldest message kept for it was kept, and whether a digest went to him
/// that day and today.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kept {
    pub since: chrono::NaiveDate,
    pub digest_that_day: bool,
    pub digest_today: bool,
}

/// Whether the digest of what is `kept` goes on `today`: its day is the
/// day the oldest was kept (the next, where that day's digest went before
/// it); on its day it goes from the hour (`past_hour`), once; a day that
/// passed without it sends it at once; and a reader who stopped his digest
/// (`stopped`) gets what was kept at once.
pub fn digest_due(kept: Kept, today: chrono::NaiveDate, past_hour: bool, stopped: bool) -> bool {
    let day = match kept.digest_that_day {
        true => kept.since.succ_opt().unwrap_or(kept.since),
        false => kept.since,
    };
    stopped || day < today || (day == today && past_hour && !kept.digest_today)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pacing_keeps_at_most_the_limit_in_any_minute() {
        let s = std::time::Duration::from_secs;
        // (sent at, now, count, per minute) -> wait
        let table = [
            (vec![], 0, 5, 10, 0),
            (vec![0, 1, 2], 3, 7, 10, 0),
            (vec![0, 1, 2], 3, 8, 10, 57),
            (vec![0, 1, 2], 3, 9, 10, 58),
            (vec![0, 1, 2], 61, 10, 10, 1),
            (vec![0, 1, 2], 62, 10, 10, 0),
            (vec![0, 10, 20, 30], 40, 1, 4, 20),
            // Older than a minute: not counted.
            (vec![0, 10, 20, 30], 70, 2, 4, 0),
            (vec![0, 10, 20, 30], 70, 3, 4, 10),
            // A window over the limit waits for the limit's worth.
            (vec![0], 5, 25, 10, 55),
        ];
        for (sent, now, count, limit, wait) in table {
            let sent: Vec<_> = sent.into_iter().map(s).collect();
            assert_eq!(
                pacing_wait(&sent, s(now), count, limit),
                s(wait),
                "{sent:?} at {now}, {count} of {limit}"
            );
        }
    }

    #[test]
    fn retries_wait_twice_as_long_each_time_up_to_six_hours() {
        let minutes: Vec<i64> = (0..12).map(|a| retry_delay(a).num_minutes()).collect();
        assert_eq!(
            minutes,
            [0, 5, 10, 20, 40, 80, 160, 320, 360, 360, 360, 360]
        );
    }

    #[test]
    fn a_digest_goes_from_its_hour_once_and_late_at_once() {
        let d = |text: &str| text.parse::<chrono::NaiveDate>().unwrap();
        let kept = |since, that_day, today| Kept {
            since: d(since),
            digest_that_day: that_day,
            digest_today: today,
        };
        // (kept, today, past the hour, stopped, due)
        let table = [
            (
                kept("2026-11-03", false, false),
                "2026-11-03",
                false,
                false,
                false,
            ),
            (
                kept("2026-11-03", false, false),
                "2026-11-03",
                true,
                false,
                true,
            ),
            // Kept after the day's digest went: tomorrow's.
            (
                kept("2026-11-03", true, true),
                "2026-11-03",
                true,
                false,
                false,
            ),
            (
                kept("2026-11-03", true, false),
                "2026-11-04",
                false,
                false,
                false,
            ),
            (
                kept("2026-11-03", true, false),
                "2026-11-04",
                true,
                false,
                true,
            ),
            // Its day passed without a run after the hour: at once.
            (
                kept("2026-11-03", false, false),
                "2026-11-04",
                false,
                false,
                true,
            ),
            // A late one went this morning: the next waits for tomorrow.
            (
                kept("2026-11-04", true, true),
                "2026-11-04",
                true,
                false,
                false,
            ),
            // DIGEST NONE: at once.
            (
                kept("2026-11-04", false, false),
                "2026-11-04",
                false,
                true,
                true,
            ),
        ];
        for (kept, today, past_hour, stopped, due) in table {
            assert_eq!(
                digest_due(kept, d(today), past_hour, stopped),
                due,
                "{kept:?} {today} {past_hour} {stopped}"
            );
        }
    }
}

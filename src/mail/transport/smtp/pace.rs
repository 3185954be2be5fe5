//! Pacing: a provider's limit of messages a minute, kept by waiting.

use std::time::Duration;

/// A provider's limit of messages a minute (`[transport] max_per_minute`),
/// kept by waiting before a message or a window that would pass it. The
/// clock and the wait are given (main's: only main reads the clock).
pub struct Pace {
    pub(super) per_minute: usize,
    /// Time on a steady clock since some start.
    pub(super) clock: Box<dyn Fn() -> Duration + Send>,
    pub(super) sleep: Box<dyn Fn(Duration) + Send>,
    /// When the last `per_minute` messages were given, oldest first.
    pub(super) sent: std::collections::VecDeque<Duration>,
}

impl Pace {
    pub fn new(
        per_minute: usize,
        clock: Box<dyn Fn() -> Duration + Send>,
        sleep: Box<dyn Fn(Duration) + Send>,
    ) -> Pace {
        Pace {
            per_minute: per_minute.max(1),
            clock,
            sleep,
            sent: std::collections::VecDeque::new(),
        }
    }

    /// Waits until `count` messages may go.
    pub(super) fn before(&mut self, count: usize) {
        let sent: Vec<Duration> = self.sent.iter().copied().collect();
        let wait =
            crate::rules::sending::pacing_wait(&sent, (self.clock)(), count, self.per_minute);
        if !wait.is_zero() {
            (self.sleep)(wait);
        }
    }

    /// `count` messages were given now.
    pub(super) fn after(&mut self, count: usize) {
        let now = (self.clock)();
        self.sent.extend(std::iter::repeat_n(now, count));
        while self.sent.len() > self.per_minute {
            self.sent.pop_front();
        }
    }
}

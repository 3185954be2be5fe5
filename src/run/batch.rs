//! Batches: letters committed together, synced, marked done and sent on
//! the finishing thread while the next batch is planned.

use std::collections::{HashSet, VecDeque};

use crate::clerk::{Clerk, Event, Prepared, SaidPlan};
use crate::error::Error;
use crate::key::GameKey;
use crate::store::Store;

use super::Summary;
use super::finish::{Finisher, Job, JobReport};

/// How many letters one transaction holds at most: the sync at its end is
/// paid once per batch instead of once per letter, and a crash redoes one
/// batch at most.
pub const BATCH_LETTERS: usize = 1_000;

/// The fewest letters a batch holds while more are waiting.
pub(super) const FIRST_BATCH_LETTERS: usize = 64;

/// How many letters the batch that begins after `written` of a run's
/// letters holds, with `left` of them still to come (this batch's own
/// included). A batch is marked done and sent on another thread while the
/// next is planned, so that thread waits for the run's first batch and the
/// run waits for its last. Batches grow from [`FIRST_BATCH_LETTERS`] by
/// doubling to [`BATCH_LETTERS`] and shrink by halves towards the end: the
/// first sends begin after 64 letters instead of a whole batch's, and the run
/// ends about 64 letters' sending after its last plan instead of a whole
/// batch's (benches/README.md, changes 44 and 45). With the ends short,
/// batches of 1,000 in between cost less than 500: fewer commits rewrite
/// the same index pages, and fewer syncs the same folders.
pub(super) fn batch_letters(written: usize, left: usize) -> usize {
    let growing = written.max(FIRST_BATCH_LETTERS);
    let shrinking = (left / 2).max(FIRST_BATCH_LETTERS);
    growing.min(shrinking).min(BATCH_LETTERS)
}

/// A letter read and not yet written: held while its game waits for a
/// delivery in flight.
pub(super) struct Held {
    /// Its place in the run's letters.
    pub(super) index: usize,
    pub(super) prepared: Result<Prepared, Error>,
    /// The runs it was counted as crashed in (a careful run).
    pub(super) counted: Option<u32>,
}

/// A letter (or a game's duties) written in the open batch.
pub(super) struct Entry {
    /// The source key to mark done once the batch is committed.
    pub(super) done: Option<String>,
    pub(super) events: Vec<Event>,
    /// The outbox id of its last message: sent after its events are shown.
    pub(super) last_message: Option<i64>,
}

/// What the open batch holds, waiting for its commit.
#[derive(Default)]
pub(super) struct Batch {
    pub(super) entries: Vec<Entry>,
    /// Games with a move whose delivery (a forward) is waiting in this batch,
    /// and in the jobs out: the next letter in such a game must see the date
    /// it is delivered, so it is held until the jobs are waited for.
    pub(super) delivering: HashSet<GameKey>,
    /// The jobs out, oldest first.
    pub(super) out: VecDeque<JobOut>,
}

/// A job given to the worker whose report is not yet written.
pub(super) struct JobOut {
    pub(super) delivering: HashSet<GameKey>,
    /// Its messages: they are not given again to the next job.
    pub(super) messages: HashSet<i64>,
}

impl Batch {
    /// A plan written: the games it delivers a move in wait for it.
    pub(super) fn add(&mut self, plan: SaidPlan, last_message: Option<i64>, done: Option<String>) {
        self.delivering
            .extend(plan.delivering().into_iter().cloned());
        self.entries.push(Entry {
            done,
            events: plan.writes.events,
            last_message,
        });
    }

    /// Whether a letter in `game` must wait for a delivery in flight.
    pub(super) fn delivers_to(&self, game: &GameKey) -> bool {
        self.delivering.contains(game) || self.out.iter().any(|job| job.delivering.contains(game))
    }
}

/// Sends every message an earlier run left in the outbox, here and now.
pub(super) fn send_pending(
    store: &mut Store,
    finisher: &mut Finisher<'_>,
    clerk: &Clerk<'_>,
    summary: &mut Summary,
    events: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    let job = Job {
        queue: store.pending(clerk.clock.now, clerk.clock.today, |_| false)?,
        now: clerk.clock.now,
        today: clerk.clock.today,
        ..Job::default()
    };
    record(store, finisher.run(job), clerk, summary, events)?;
    store.clear_sent_log()
}

/// Shows what a job did and writes its sends and failures into the open
/// batch (or a transaction of their own).
pub(super) fn record(
    store: &mut Store,
    report: JobReport,
    clerk: &Clerk<'_>,
    summary: &mut Summary,
    events: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    for event in report.events {
        events(event);
    }
    summary.sent += report.sent.len();
    summary.failures += report.failed.len();
    summary.games_changed.extend(
        report
            .sent
            .iter()
            .filter_map(|sent| sent.delivers.as_ref().map(|(game, _)| GameKey::parse(game))),
    );
    store.record_sent(&report.sent)?;
    for failed in &report.failed {
        let now = clerk.clock.now;
        store.mark_failed(failed.outbox_id, &failed.error, failed.permanent, now)?;
    }
    report.error.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes of a run's batches over `total` letters, where no batch
    /// ends early.
    fn batches(total: usize) -> Vec<usize> {
        let mut sizes = Vec::new();
        let mut written = 0;
        while written < total {
            let size = batch_letters(written, total - written).min(total - written);
            sizes.push(size);
            written += size;
        }
        sizes
    }

    #[test]
    fn batches_grow_from_64_letters_to_1000_and_shrink_towards_the_end() {
        let sizes = batches(10_000);
        assert_eq!(sizes[..6], [64, 64, 128, 256, 512, 1_000]);
        // 1,976 letters left: half of them each time, down to 64.
        assert_eq!(
            sizes[sizes.len() - 7..],
            [1_000, 988, 494, 247, 123, 64, 60]
        );
        assert_eq!(sizes.iter().sum::<usize>(), 10_000);
        assert_eq!(sizes.len(), 18, "{sizes:?}");
        // A few letters are one batch; no batch is ever larger than 1,000.
        assert_eq!(batches(40), [40]);
        assert_eq!(batches(100), [64, 36]);
        for total in [1, 63, 64, 65, 499, 500, 501, 1_999, 123_457] {
            let sizes = batches(total);
            assert_eq!(sizes.iter().sum::<usize>(), total);
            assert!(sizes.iter().all(|&size| size <= BATCH_LETTERS), "{total}");
        }
    }
}

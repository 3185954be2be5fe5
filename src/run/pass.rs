//! The steps of a pass over the run's letters: [`Pass`] holds what every
//! step shares (the store, the open batch, the worker that finishes
//! batches, the summary, who hears of events); [`Queue`] says which letter
//! comes next.

use std::collections::{HashSet, VecDeque};

use crate::clerk::{Clerk, Event, POISON_RUNS, Prepared};
use crate::error::Error;
use crate::key::GameKey;
use crate::store::Store;
use crate::{clerk, fault};

use super::batch::{Batch, Held, JobOut, batch_letters, record};
use super::calendar::{keep_calendar, send_digests};
use super::finish::{Job, Worker};
use super::poison::{CRASHED, count_as_crashed, failed_letter, plan_guarded};
use super::{ReadAhead, Summary, commit, next_prepared};

/// The letters of a run in the order they are taken. Letters go in their
/// order, but one whose game waits for a delivery in flight (a forward not
/// yet accepted: its day is the day the partner received the move) is held,
/// with every later letter of that game, and the others go on. Once the
/// fresh letters are all taken, the deliveries are waited for once and the
/// held letters are taken as the next round: a run of both players' letters
/// in many games waits twice for the mail server, not once a game.
pub(super) struct Queue {
    /// The next fresh letter's place, and how many there are.
    fresh: usize,
    total: usize,
    round: VecDeque<Held>,
    held: Vec<Held>,
    /// The games whose letters are held.
    held_games: HashSet<GameKey>,
}

/// What comes next.
pub(super) enum Next {
    /// A fresh letter, at its place.
    Fresh(usize),
    /// A held letter, its game's delivery done.
    Held(Box<Held>),
    /// Held letters wait for the deliveries in flight.
    WaitForDeliveries,
    Done,
}

impl Queue {
    pub(super) fn of(total: usize) -> Queue {
        Queue {
            fresh: 0,
            total,
            round: VecDeque::new(),
            held: Vec::new(),
            held_games: HashSet::new(),
        }
    }

    pub(super) fn next(&mut self) -> Next {
        if self.fresh < self.total {
            self.fresh += 1;
            Next::Fresh(self.fresh - 1)
        } else if let Some(item) = self.round.pop_front() {
            Next::Held(Box::new(item))
        } else if !self.held.is_empty() {
            Next::WaitForDeliveries
        } else {
            Next::Done
        }
    }

    /// The held letters, their deliveries done, are the next round.
    pub(super) fn next_round(&mut self) {
        self.round = self.held.drain(..).collect();
        self.held_games.clear();
    }

    /// The letters not taken (the pass stopped).
    pub(super) fn left(&self) -> usize {
        self.total - self.fresh + self.round.len() + self.held.len()
    }

    /// Whether a letter that changes `games` must wait (one of them waits
    /// for a delivery, or has a letter held); it is held if so, and so are
    /// the later letters of its games.
    fn holds(&mut self, games: &[GameKey], delivering: bool, item: Held) -> Option<Held> {
        if delivering || games.iter().any(|game| self.held_games.contains(game)) {
            self.held_games.extend(games.iter().cloned());
            self.held.push(item);
            return None;
        }
        Some(item)
    }
}

/// What the steps of a pass share.
pub(super) struct Pass<'p, 'c, 'w> {
    pub(super) clerks: &'p [Clerk<'c>],
    pub(super) store: &'p mut Store,
    pub(super) worker: Worker<'w>,
    pub(super) batch: Batch,
    pub(super) summary: Summary,
    pub(super) events: &'p mut dyn FnMut(Event),
    /// After a crash: each letter is counted before it is read, and each
    /// batch is one letter.
    pub(super) careful: bool,
    /// Letters of this run written or failed.
    pub(super) taken: usize,
}

impl<'c> Pass<'_, 'c, '_> {
    /// The first tournament's clerk: the run's clock, and its failures'.
    fn clerk(&self) -> &Clerk<'c> {
        &self.clerks[0]
    }

    /// A letter failed (`counted`: the runs it was counted as crashed in).
    pub(super) fn fail(
        &mut self,
        envelope: &crate::mail::Envelope,
        error: &str,
        counted: Option<u32>,
    ) -> Result<(), Error> {
        let clerk = &self.clerks[0];
        let (batch, summary) = (&mut self.batch, &mut self.summary);
        failed_letter(self.store, clerk, envelope, error, counted, batch, summary)?;
        self.taken += 1;
        Ok(())
    }

    /// After a crash, each letter is counted as failed before it is read
    /// (and forgiven once written): one that kills the process is set aside
    /// after [`POISON_RUNS`] runs like one that fails. `None`: set aside now;
    /// else the runs it was counted in (none in a run that was not careful).
    pub(super) fn count(
        &mut self,
        envelope: &crate::mail::Envelope,
    ) -> Result<Option<Option<u32>>, Error> {
        if !self.careful {
            return Ok(Some(None));
        }
        let runs = count_as_crashed(self.store, &self.clerks[0], envelope)?;
        if runs <= POISON_RUNS {
            return Ok(Some(Some(runs)));
        }
        self.fail(envelope, CRASHED, Some(runs - 1))?;
        self.finish()?;
        Ok(None)
    }

    /// The run stopped by the database failing while a letter was routed
    /// or planned: the letter stays new, and the next run reads it again
    /// (counting it failed would set a good letter aside). Nor is it
    /// counted as one that stopped a run (after a crash each is counted
    /// before it is read, in a batch of its own): as far as the database
    /// still lets it, its count goes.
    fn stopped_by(&mut self, envelope: &crate::mail::Envelope, error: Error) -> Error {
        if self.careful {
            let _ = self.store.forget_failure(&envelope.key);
            let _ = self.store.end_batch();
        }
        error
    }

    /// Plans and writes one letter in the tournament it is for; a letter
    /// whose game waits for a delivery is held in `queue`.
    pub(super) fn take(
        &mut self,
        item: Held,
        envelope: &crate::mail::Envelope,
        queue: &mut Queue,
    ) -> Result<(), Error> {
        let clerks = self.clerks;
        let clerk = &clerks[0];
        let directory = clerk.directory;
        let routed = item
            .prepared
            .as_ref()
            .ok()
            .map(|prepared| clerk::route_prepared(directory, self.store, prepared))
            .transpose();
        let route = match routed {
            Ok(route) => route,
            Err(error) => return Err(self.stopped_by(envelope, error)),
        };
        // The clerk of the event routed to (each event's clerk is made with
        // its templates: one without stays with the first).
        let desk = route.as_ref().map_or(clerk, |route| {
            let config = &directory.tournaments()[route.tournament];
            clerks
                .iter()
                .find(|desk| std::ptr::eq(desk.config, config))
                .unwrap_or(clerk)
        });
        // Read as its own event reads letters, not as the first one, and
        // planned on the route found.
        let item = Held {
            prepared: item.prepared.map(|p| Prepared {
                route,
                ..p.read_for(desk.config, envelope)
            }),
            ..item
        };
        let planned = plan_guarded(desk, self.store, envelope, &item.prepared);
        let plan = match planned {
            Ok(plan) => plan,
            // The database failing is the run's trouble, not the letter's.
            Err(error) if error.kind == crate::error::Kind::Database => {
                return Err(self.stopped_by(envelope, error));
            }
            Err(error) => {
                let (batch, summary) = (&mut self.batch, &mut self.summary);
                failed_letter(
                    self.store,
                    clerk,
                    envelope,
                    &error.to_string(),
                    item.counted,
                    batch,
                    summary,
                )?;
                self.taken += 1;
                return Ok(());
            }
        };
        let games: Vec<GameKey> = plan.games().cloned().collect();
        let delivering = games.iter().any(|game| self.batch.delivers_to(game));
        let Some(_) = queue.holds(&games, delivering, item) else {
            return Ok(());
        };
        fault::point("after-parse");
        let cause = plan
            .writes
            .letter
            .as_ref()
            .map_or_else(|| envelope.key.clone(), |l| l.dedup_key.clone());
        let last = commit(self.store, desk.config, desk, &plan, &cause)?;
        self.store.forget_failure(&envelope.key)?;
        self.summary.letters += 1;
        self.taken += 1;
        self.summary.games_changed.extend(games);
        // The letters after an order that edits a tournament's file are
        // for a run that reads it as edited (see `Summary::reread`).
        self.summary.reread |= !plan.writes.config_edits.is_empty();
        self.batch.add(plan, last, Some(envelope.key.clone()));
        // Letters of this run written before this batch began.
        let written = self.taken.saturating_sub(self.batch.entries.len());
        let left = queue.total - written;
        if self.careful || self.batch.entries.len() >= batch_letters(written, left) {
            self.finish()?;
        }
        Ok(())
    }

    /// Takes the run's letters in turn (read here, or by the reading
    /// thread of `reading`) until they are all taken, or `stop` is set.
    pub(super) fn letters(
        &mut self,
        letters: &[crate::mail::Envelope],
        mut reading: Option<ReadAhead>,
        stop: &std::sync::atomic::AtomicBool,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<(), Error> {
        let clerk = &self.clerks[0];
        let first = (clerk.config, clerk.directory);
        let mut queue = Queue::of(letters.len());
        loop {
            // Stopped (SIGTERM): the letters done are committed and sent
            // after, the rest wait in the source for the next run.
            if stop.load(std::sync::atomic::Ordering::Relaxed) || self.summary.reread {
                self.summary.left = queue.left();
                break;
            }
            let item = match queue.next() {
                Next::Fresh(index) => {
                    progress(index, letters.len());
                    let Some(counted) = self.count(&letters[index])? else {
                        continue;
                    };
                    let prepared = next_prepared(&mut reading, first, &letters[index])?;
                    Held {
                        index,
                        prepared,
                        counted,
                    }
                }
                Next::Held(item) => *item,
                // The deliveries the held letters wait for: committed, sent
                // and written back.
                Next::WaitForDeliveries => {
                    self.finish()?;
                    self.collect()?;
                    queue.next_round();
                    continue;
                }
                Next::Done => break,
            };
            let envelope = &letters[item.index];
            self.take(item, envelope, &mut queue)?;
        }
        progress(letters.len(), letters.len());
        Ok(())
    }

    /// The end of the letters: the files the source could not read fail
    /// like letters (and are set aside after as many runs), the last
    /// batches are finished, the calendar is kept (unless the pass was
    /// stopped), and the batch closed.
    pub(super) fn end(
        &mut self,
        unreadable: &[(String, String)],
        threads: bool,
    ) -> Result<(), Error> {
        for (key, why) in unreadable {
            let envelope = crate::mail::Envelope {
                key: key.clone(),
                raw: Vec::new(),
                size: 0,
                arrived: self.clerk().clock.now,
                channel: crate::rules::Channel::Letter,
            };
            self.fail(&envelope, why, None)?;
        }
        // The calendar sees every delivery of the letters.
        self.finish()?;
        if threads {
            // While the threads finish the letters' last batches.
            self.store.end_batch()?;
            self.store.checkpoint()?;
            self.store.begin_batch()?;
        }
        self.collect()?;
        if self.summary.left == 0 {
            // Read once: a federation's hundred tournaments would read every
            // game's row a hundred times.
            let checks = self.store.next_checks_keyed()?;
            for desk in self.clerks {
                let (batch, summary) = (&mut self.batch, &mut self.summary);
                keep_calendar(desk, self.store, &checks, batch, summary)?;
            }
            // A reader's digest is the person's, across the events: made once,
            // by the clerk's first event.
            if let Some(first) = self.clerks.first() {
                let (batch, summary) = (&mut self.batch, &mut self.summary);
                send_digests(first, self.store, batch, summary)?;
            }
        }
        self.store.set_run_interrupted(false)?;
        self.finish()?;
        self.collect()?;
        self.store.end_batch()?;
        self.store.clear_sent_log()
    }
}

/// The batch's steps over what the pass holds.
impl Pass<'_, '_, '_> {
    /// Commits the batch with what the oldest job out did (if as many are
    /// out as the worker holds), and gives the worker its letters to mark
    /// done and its messages to send (see [`finish`]); then opens the next
    /// batch.
    pub(super) fn finish(&mut self) -> Result<(), Error> {
        while self.batch.out.len() >= self.worker.capacity() {
            self.collect_oldest()?;
        }
        let clock = &self.clerks[0].clock;
        // The worker syncs the commit before it acts on the batch.
        let sync = self.store.end_batch_unsynced()?;
        if self.batch.out.is_empty() {
            // No job is out: what the sent log holds is committed now (on
            // disk once the job's sync returns; a power cut before it can only
            // make the next run send those messages again, as one in flight).
            self.store.clear_sent_log()?;
        }
        let entries = std::mem::take(&mut self.batch.entries);
        let jobs_out = &self.batch.out;
        let out = |id| jobs_out.iter().any(|job| job.messages.contains(&id));
        let queue = self.store.pending(clock.now, clock.today, out)?;
        self.batch.out.push_back(JobOut {
            delivering: std::mem::take(&mut self.batch.delivering),
            messages: queue.iter().map(|item| item.id).collect(),
        });
        let job = Job {
            sync,
            done: entries.iter().filter_map(|e| e.done.clone()).collect(),
            entries: entries
                .into_iter()
                .map(|e| (e.events, e.last_message))
                .collect(),
            queue,
            now: clock.now,
            today: clock.today,
        };
        self.worker.start(job)?;
        self.store.begin_batch()
    }

    /// Waits for the oldest job out and writes what it did into the open
    /// batch.
    fn collect_oldest(&mut self) -> Result<(), Error> {
        self.batch.out.pop_front();
        match self.worker.wait()? {
            Some(outcome) => {
                let clerk = &self.clerks[0];
                record(self.store, outcome, clerk, &mut self.summary, self.events)
            }
            None => Ok(()),
        }
    }

    /// Waits for every job out and writes what they did into the open batch.
    pub(super) fn collect(&mut self) -> Result<(), Error> {
        while !self.batch.out.is_empty() {
            self.collect_oldest()?;
        }
        Ok(())
    }
}

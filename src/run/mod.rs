//! One pass of the clerk (`poll`): send what an earlier run left in the outbox,
//! read every new letter and write its plan, send, then keep the calendar.
//!
//! A letter is marked done in its source only after its plan is committed, and
//! a message is marked sent only after the transport accepted it. A letter that
//! fails (an error, or a panic caught around it) stays in the source for the
//! next run; the others go on.
//!
//! Four threads share a run (see [`poll`]): one reads letters ahead, the
//! main one plans and writes them in batches, one syncs each committed batch
//! to disk, marks its letters done and sends its messages, and one makes
//! those messages durable while the next batch is sent (`finish`).

use std::collections::VecDeque;

use crate::clerk::{self, Clerk, Event, Prepared};
use crate::config::Config;
use crate::error::Error;
use crate::fault;
use crate::key::GameKey;
use crate::mail::{MailSource, Transport};
use crate::store::Store;

mod batch;
mod calendar;
mod commit;
mod deferred;
mod finish;
mod lock;
mod pass;
mod poison;

pub use self::deferred::{PutBack, put_back, write_edits};

use self::batch::Batch;
use self::batch::send_pending;
pub use self::commit::commit;
use self::finish::{Finisher, Worker};
pub use self::lock::{Holder, RunLock, holder, lock};
use self::pass::Pass;
use self::poison::panic_message;
use self::poison::prepare_guarded;
pub use crate::clerk::POISON_RUNS;

/// What a pass did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    pub letters: usize,
    pub sent: usize,
    pub failures: usize,
    /// The games whose record the pass changed (by a letter, a duty or a
    /// delivery): their report pages are rewritten.
    pub games_changed: std::collections::BTreeSet<GameKey>,
    /// Letters left in the source because the pass was stopped, or because
    /// an order edited a tournament's file (`reread`).
    pub left: usize,
    /// An order's edit of a tournament's file was written: the pass read
    /// no more letters, nor kept the calendar, with the file as it was; the
    /// next run reads it anew.
    pub reread: bool,
}

/// Who hears of a pass: what it did, how far it is, and whether it is to
/// stop (a signal: the letter at hand is finished, the rest left).
pub struct Hooks<'h> {
    pub events: &'h mut dyn FnMut(Event),
    pub progress: &'h mut dyn FnMut(usize, usize),
    pub stop: &'h std::sync::atomic::AtomicBool,
}

/// The chunks the reading thread sends, and those of the last chunk still to plan.
type ReadAhead = (
    std::sync::mpsc::Receiver<Vec<Result<Prepared, Error>>>,
    std::collections::VecDeque<Result<Prepared, Error>>,
);

/// How many letters the reading thread hands over at once.
const READ_AHEAD: usize = 32;

/// One pass: letters first, then the calendar (rules.md 2.4: a letter that came
/// in time is never overtaken by a silence check).
///
/// Letters are planned one by one, each seeing the writes of those before
/// it (a letter whose game waits for a delivery in flight is held for a
/// later round, see the loop), and written in batches of up to [`BATCH_LETTERS`]: one durable commit, then
/// the letters are marked done and the messages sent (and synced), on
/// threads of their own while the next batches are planned; the sends are
/// written into the database with a later batch. A run that finds the
/// previous one ended inside a batch (a crash, not a caught panic) works
/// letter by letter on one thread, so that a letter which kills the process
/// cannot take the others of its batch down with it run after run.
///
/// A clerk of a folder serves several tournaments from one mailbox and one
/// database: `clerks` holds one for each (the first answers for the run:
/// its clock, and letters that belong to none). Each letter goes to the
/// tournament [`clerk::route`] finds, its games read and written under that
/// tournament's keys (`Config::scope`); the calendar is kept for each.
pub fn poll(
    clerks: &[Clerk<'_>],
    store: &mut Store,
    source: &mut dyn MailSource,
    transport: &mut dyn Transport,
    hooks: Hooks<'_>,
) -> Result<Summary, Error> {
    let Hooks {
        events,
        progress,
        stop,
    } = hooks;
    let Some(clerk) = clerks.first() else {
        return Ok(Summary::default());
    };
    let mut summary = Summary::default();
    let mut finisher = Finisher {
        source,
        transport,
        log: store.sent_log(),
    };
    send_pending(store, &mut finisher, clerk, &mut summary, events)?;
    // What a run killed after committing an order left undone (or the
    // director's command before this pass): with a file edited, the
    // tournaments this run read are not the files' any more.
    if write_edits(store, clerk.clock.today, events)? > 0 {
        summary.reread = true;
        return Ok(summary);
    }
    deferred::put_back_released(store, finisher.source, events)?;
    let letters = finisher
        .source
        .fetch_new()
        .map_err(|e| Error::mail(format!("source: {e}")))?;
    let unreadable = finisher.source.take_unreadable();
    fault::point("after-fetch");
    let careful = store.run_interrupted()?;
    if !letters.is_empty() {
        store.set_run_interrupted(true)?;
    }
    store.begin_batch()?;
    // Reading a letter (MIME, quotes, moves, dates) needs no game, and
    // finishing a batch needs no database: a second thread reads ahead and
    // a third marks done and sends while this one plans and writes in
    // order. A careful run does everything here, reading each letter after
    // counting it (see `Pass::count`).
    let summary = std::thread::scope(|scope| -> Result<Summary, Error> {
        let threads = !careful && !letters.is_empty();
        let worker = match threads {
            true => Worker::thread(scope, finisher),
            false => Worker::here(finisher),
        };
        // Letters go over in chunks: a wake-up per letter cost more than
        // the hand-over.
        let reading = threads.then(|| {
            let (sender, receiver) = std::sync::mpsc::sync_channel(4);
            let (letters, first, directory) = (&letters, clerk.config, clerk.directory);
            scope.spawn(move || read_ahead(first, directory, letters, sender));
            (receiver, VecDeque::new())
        });
        let mut pass = Pass {
            clerks,
            store: &mut *store,
            worker,
            batch: Batch::default(),
            summary,
            events: &mut *events,
            careful,
            taken: 0,
        };
        pass.letters(&letters, reading, stop, progress)?;
        pass.end(&unreadable, threads)?;
        Ok(pass.summary)
    })?;
    // The files the run's orders edit, for the next run to read.
    write_edits(store, clerk.clock.today, events)?;
    Ok(summary)
}

/// The next letter as read: from the reading thread where there is one,
/// else read here.
fn next_prepared(
    read_ahead: &mut Option<ReadAhead>,
    (first, directory): (&Config, &clerk::Directory),
    envelope: &crate::mail::Envelope,
) -> Result<Result<Prepared, Error>, Error> {
    match read_ahead {
        Some((chunks, ready)) => {
            if ready.is_empty() {
                ready.extend(chunks.recv().unwrap_or_default());
            }
            ready
                .pop_front()
                .ok_or_else(|| Error::internal("the reading thread stopped"))
        }
        None => Ok(prepare_guarded(first, directory, envelope)),
    }
}

/// Reads the letters in chunks on a thread of its own, ahead of the planning.
fn read_ahead(
    first: &Config,
    directory: &clerk::Directory,
    letters: &[crate::mail::Envelope],
    sender: std::sync::mpsc::SyncSender<Vec<Result<Prepared, Error>>>,
) {
    for chunk in letters.chunks(READ_AHEAD) {
        let prepared: Vec<_> = chunk
            .iter()
            .map(|envelope| prepare_guarded(first, directory, envelope))
            .collect();
        if sender.send(prepared).is_err() {
            break;
        }
    }
}

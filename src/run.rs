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

use std::collections::{HashSet, VecDeque};
use std::fs::{File, TryLockError};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use chrono::{NaiveDate, NaiveTime};

use crate::clerk::{self, Clerk, Event, Plan, Prepared};
use crate::config::Config;
use crate::fault;
use crate::mail::{MailSource, Transport};
use crate::mail::{compose, identity};
use crate::rules;
use crate::store::{Disposition, GameRow, NewOutbox, Store, StoredLetter};

mod finish;
mod orders;

pub use self::orders::{PutBack, put_back, write_edits};

use self::finish::{Finisher, Job, Outcome, Worker};

/// What a pass did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Summary {
    pub letters: usize,
    pub sent: usize,
    pub failures: usize,
    /// The games whose record the pass changed (by a letter, a duty or a
    /// delivery): their report pages are rewritten.
    pub games_changed: std::collections::BTreeSet<String>,
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

/// Holds the lock of one tournament's database while a run works; the kernel
/// releases it when the process ends, however it ends.
pub struct RunLock {
    _file: File,
}

/// Takes the run lock, or `None` when another run holds it.
pub fn lock(database: &Path) -> std::io::Result<Option<RunLock>> {
    let path = lock_path(database);
    let mut options = crate::store::private::options();
    options.truncate(false);
    let file = crate::store::private::open(&path, &options)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(RunLock { _file: file })),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(error)) => Err(error),
    }
}

fn lock_path(database: &Path) -> PathBuf {
    let mut name = database
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".lock");
    database.with_file_name(name)
}

/// Writes a plan all or nothing: the letter, the game, notes, duties done and
/// the composed messages. Returns the outbox id of the last message, if any.
pub fn commit(
    store: &mut Store,
    config: &Config,
    clerk: &Clerk<'_>,
    plan: &Plan,
    cause: &str,
) -> Result<Option<i64>, String> {
    let sender = identity::sender(config, clerk.templates.phrases());
    let clerk_alone = identity::clerk_alone(config, clerk.templates.phrases());
    let at = match &plan.letter {
        Some(letter) => letter.arrived,
        None => clerk.clock.today.and_time(NaiveTime::MIN).and_utc(),
    };
    // The letter's plan, then those of the other games it changes, each
    // message's id made from its own cause.
    let plans: Vec<(&Plan, String)> = std::iter::once((plan, cause.to_string()))
        .chain(plan.more.iter().map(|more| {
            let game = more.game.as_ref().map_or("", |game| game.id());
            (more, format!("{cause}/{game}"))
        }))
        .collect();
    let mut composed = Vec::new();
    for (plan, cause) in &plans {
        for (index, message) in plan.messages.iter().enumerate() {
            let kind = message.kind.header();
            let (id, sender) = match message.of_event {
                true => (
                    identity::message_id(config, cause, at, index, kind),
                    &sender,
                ),
                false => (
                    identity::message_id_of_no_event(config, cause, at, index, kind),
                    &clerk_alone,
                ),
            };
            let id = message.message_id.clone().unwrap_or(id);
            let raw = compose::build(message, sender, &id, clerk.clock.now)?;
            composed.push(NewOutbox {
                game: message.game.clone(),
                kind: message.kind.header().to_string(),
                recipients: message.addresses(),
                message_id: id,
                raw,
                delivers: message.delivers,
                send_on: message.send_on,
            });
        }
    }
    let today = clerk.clock.today;
    store
        .write(|w| {
            let letter_id = match &plan.letter {
                Some(letter) => Some(w.letter(letter)?),
                None => None,
            };
            // A leave of the letter's own, or of a letter it brings in (an
            // accepted one's).
            for (player, days) in plans.iter().filter_map(|(plan, _)| plan.leave.as_ref()) {
                w.leave(player, *days, letter_id, today)?;
            }
            for edit in &plan.config_edits {
                w.config_edit(edit, today)?;
            }
            for key in &plan.releases {
                w.mark_releasing(key)?;
            }
            for (index, (plan, _)) in plans.iter().enumerate() {
                // Another letter the first brings in (an acceptance by the
                // arbiter's letter) is kept with its own moves.
                let letter_id = match (&plan.letter, index) {
                    (Some(letter), 1..) => Some(w.letter(letter)?),
                    _ => letter_id,
                };
                let Some(state) = &plan.game else {
                    continue;
                };
                if let Some(from) = plan.taken_back {
                    w.take_back(state.id(), from)?;
                }
                w.game(
                    state.id(),
                    &GameRow {
                        standing: state.ledger.standing.clone(),
                        held: state.board.held().to_vec(),
                    },
                    &state.ledger.rows,
                    state.stored,
                    letter_id,
                )?;
                for note in &plan.notes {
                    w.note(state.id(), note)?;
                }
                for key in &plan.duties {
                    w.duty_done(state.id(), key, today)?;
                }
                for seat in &plan.seats {
                    w.seat(state.id(), seat, today)?;
                }
            }
            let mut last = None;
            for message in &composed {
                last = Some(w.outbox(message, today)?);
            }
            fault::point("after-outbox-insert");
            Ok(last)
        })
        .map_err(|e| format!("database: {e}"))
        .and_then(|mut last| {
            for (plan, _) in &plans {
                if let Some((player, days)) = &plan.leave {
                    let events = &plan.leave_elsewhere;
                    last = leave_elsewhere(store, clerk, events, player, *days, cause)?.or(last);
                }
            }
            Ok(last)
        })
}

/// A leave is the person's (issue 31, point 1): in the clerk's other
/// events that grant it (`events`, decided by the leave's plan), it is
/// recorded, and the partners of his games are told by those events'
/// clerks, in their words, with a note under each game's chart. Committed
/// after the leave, in the same batch. Returns the outbox id of the last
/// notice, if any.
fn leave_elsewhere(
    store: &mut Store,
    clerk: &Clerk<'_>,
    events: &[String],
    player: &str,
    days: (NaiveDate, NaiveDate),
    cause: &str,
) -> Result<Option<i64>, String> {
    let mut last = None;
    for id in events {
        let Some(sibling) = clerk.sibling(id) else {
            continue;
        };
        let Some(there) = sibling.config.player(player) else {
            continue;
        };
        let mut on_sibling = store.tournament(sibling.config.scope());
        let store = &mut *on_sibling;
        let today = sibling.clock.today;
        store
            .write(|w| w.leave(player, days, None, today))
            .map_err(database)?;
        let (_, notices) = sibling.leave_notices(store, there, days, None)?;
        let plan = Plan {
            more: notices,
            ..Plan::default()
        };
        let cause = format!("{cause}/leave/{id}");
        last = commit(store, sibling.config, &sibling, &plan, &cause)?.or(last);
    }
    Ok(last)
}

/// Sends every message an earlier run left in the outbox, here and now.
fn send_pending(
    store: &mut Store,
    finisher: &mut Finisher<'_>,
    clerk: &Clerk<'_>,
    summary: &mut Summary,
    events: &mut dyn FnMut(Event),
) -> Result<(), String> {
    let job = Job {
        queue: store
            .pending(clerk.clock.now, clerk.clock.today, |_| false)
            .map_err(database)?,
        now: clerk.clock.now,
        today: clerk.clock.today,
        ..Job::default()
    };
    record(store, finisher.run(job), clerk, summary, events)?;
    store.clear_sent_log().map_err(database)
}

/// Shows what a job did and writes its sends and failures into the open
/// batch (or a transaction of their own).
fn record(
    store: &mut Store,
    outcome: Outcome,
    clerk: &Clerk<'_>,
    summary: &mut Summary,
    events: &mut dyn FnMut(Event),
) -> Result<(), String> {
    for event in outcome.events {
        events(event);
    }
    summary.sent += outcome.sent.len();
    summary.failures += outcome.failed.len();
    summary.games_changed.extend(
        outcome
            .sent
            .iter()
            .filter_map(|sent| sent.delivers.as_ref().map(|(game, _)| game.clone())),
    );
    store.record_sent(&outcome.sent).map_err(database)?;
    for (id, error, permanent) in &outcome.failed {
        store
            .mark_failed(*id, error, *permanent, clerk.clock.now)
            .map_err(database)?;
    }
    outcome.error.map_or(Ok(()), Err)
}

fn database(error: rusqlite::Error) -> String {
    format!("database: {error}")
}

/// How many runs a letter may fail before it is set aside.
pub const POISON_RUNS: u32 = 3;

/// What a caught panic said.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let text = panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
        .unwrap_or_else(|| "unknown failure".into());
    format!("the clerk failed on this letter ({text})")
}

/// A letter that could not be processed stays in the source for the next run;
/// after `POISON_RUNS` failed runs it is quarantined: kept in the database with
/// its reason, and marked done once that is committed, so that it blocks
/// nothing and is never lost.
fn failed_letter(
    store: &mut Store,
    clerk: &Clerk<'_>,
    envelope: &crate::mail::Envelope,
    error: &str,
    counted: Option<u32>,
    batch: &mut Batch,
    summary: &mut Summary,
) -> Result<(), String> {
    summary.failures += 1;
    let runs = match counted {
        Some(runs) => runs,
        None => store
            .record_failure(&envelope.key, error, clerk.clock.now)
            .map_err(database)?,
    };
    if runs < POISON_RUNS {
        batch.entries.push(Entry {
            done: None,
            events: vec![Event {
                event: "letter-failed",
                game: None,
                from: None,
                detail: format!(
                    "{}: {error}; left for the next run ({runs} of {POISON_RUNS})",
                    envelope.key
                ),
            }],
            last_message: None,
        });
        return Ok(());
    }
    let letter = StoredLetter {
        // A file never read has no bytes to name it by: its source key does.
        dedup_key: if envelope.raw.is_empty() {
            format!("quarantine:unread:{}", envelope.key)
        } else {
            format!(
                "quarantine:{}",
                crate::clerk::dedup_key(None, &envelope.raw)
            )
        },
        fingerprint: None,
        message_id: None,
        source_key: envelope.key.clone(),
        arrived: envelope.arrived,
        postmark: crate::rules::postmark_date(&envelope.arrived, clerk.config.timezone),
        sender: None,
        game: None,
        color: None,
        disposition: Disposition::Quarantined,
        reason: error.to_string(),
        parse_json: None,
        raw: envelope.raw.clone(),
    };
    store
        .write(|w| w.letter(&letter).map(|_| ()))
        .map_err(database)?;
    batch.entries.push(Entry {
        done: Some(envelope.key.clone()),
        events: vec![Event {
            event: "quarantined",
            game: None,
            from: None,
            detail: format!(
                "{}: failed {runs} runs ({error}); kept in the database and set aside for the director",
                envelope.key
            ),
        }],
        last_message: None,
    });
    Ok(())
}

/// Why a letter is counted as failed before a careful run reads it.
const CRASHED: &str = "the clerk stopped while reading this letter";

/// How many letters one transaction holds at most: the sync at its end is
/// paid once per batch instead of once per letter, and a crash redoes one
/// batch at most.
pub const BATCH_LETTERS: usize = 1_000;

/// The fewest letters a batch holds while more are waiting.
const FIRST_BATCH_LETTERS: usize = 64;

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
fn batch_letters(written: usize, left: usize) -> usize {
    let growing = written.max(FIRST_BATCH_LETTERS);
    let shrinking = (left / 2).max(FIRST_BATCH_LETTERS);
    growing.min(shrinking).min(BATCH_LETTERS)
}

/// How many letters the reading thread hands over at once.
const READ_AHEAD: usize = 32;

/// A letter read and not yet written: held while its game waits for a
/// delivery in flight.
struct Held {
    /// Its place in the run's letters.
    index: usize,
    prepared: Result<Prepared, String>,
    /// The runs it was counted as crashed in (a careful run).
    counted: Option<u32>,
}

/// A letter (or a game's duties) written in the open batch.
struct Entry {
    /// The source key to mark done once the batch is committed.
    done: Option<String>,
    events: Vec<Event>,
    /// The outbox id of its last message: sent after its events are shown.
    last_message: Option<i64>,
}

/// What the open batch holds, waiting for its commit.
#[derive(Default)]
struct Batch {
    entries: Vec<Entry>,
    /// Games with a move whose delivery (a forward) is waiting in this batch,
    /// and in the jobs out: the next letter in such a game must see the date
    /// it is delivered, so it is held until the jobs are waited for.
    delivering: HashSet<String>,
    /// The jobs out, oldest first.
    out: VecDeque<JobOut>,
}

/// A job given to the worker whose outcome is not yet written.
struct JobOut {
    delivering: HashSet<String>,
    /// Its messages: they are not given again to the next job.
    messages: HashSet<i64>,
}

impl Batch {
    /// A plan written, of the game of key `game` (see [`key`]).
    fn add(
        &mut self,
        plan: Plan,
        game: Option<String>,
        last_message: Option<i64>,
        done: Option<String>,
    ) {
        if let Some(game) = game
            && plan.messages.iter().any(|m| m.delivers.is_some())
        {
            self.delivering.insert(game);
        }
        self.entries.push(Entry {
            done,
            events: plan.events,
            last_message,
        });
    }

    /// Commits the batch with what the oldest job out did (if as many are
    /// out as the worker holds), and gives the worker its letters to mark
    /// done and its messages to send (see [`finish`]); then opens the next
    /// batch.
    fn finish(
        &mut self,
        store: &mut Store,
        worker: &mut Worker<'_>,
        clerk: &Clerk<'_>,
        summary: &mut Summary,
        events: &mut dyn FnMut(Event),
    ) -> Result<(), String> {
        while self.out.len() >= worker.capacity() {
            self.collect_oldest(store, worker, clerk, summary, events)?;
        }
        // The worker syncs the commit before it acts on the batch.
        let sync = store.end_batch_unsynced().map_err(database)?;
        if self.out.is_empty() {
            // No job is out: what the sent log holds is committed now (on
            // disk once the job's sync returns; a power cut before it can only
            // make the next run send those messages again, as one in flight).
            store.clear_sent_log().map_err(database)?;
        }
        let entries = std::mem::take(&mut self.entries);
        let out = |id| self.out.iter().any(|job| job.messages.contains(&id));
        let queue = store
            .pending(clerk.clock.now, clerk.clock.today, out)
            .map_err(database)?;
        self.out.push_back(JobOut {
            delivering: std::mem::take(&mut self.delivering),
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
            now: clerk.clock.now,
            today: clerk.clock.today,
        };
        worker.start(job)?;
        store.begin_batch().map_err(database)
    }

    /// Waits for the oldest job out and writes what it did into the open
    /// batch.
    fn collect_oldest(
        &mut self,
        store: &mut Store,
        worker: &mut Worker<'_>,
        clerk: &Clerk<'_>,
        summary: &mut Summary,
        events: &mut dyn FnMut(Event),
    ) -> Result<(), String> {
        self.out.pop_front();
        match worker.wait()? {
            Some(outcome) => record(store, outcome, clerk, summary, events),
            None => Ok(()),
        }
    }

    /// Waits for every job out and writes what they did into the open batch.
    fn collect(
        &mut self,
        store: &mut Store,
        worker: &mut Worker<'_>,
        clerk: &Clerk<'_>,
        summary: &mut Summary,
        events: &mut dyn FnMut(Event),
    ) -> Result<(), String> {
        while !self.out.is_empty() {
            self.collect_oldest(store, worker, clerk, summary, events)?;
        }
        Ok(())
    }

    /// Whether a letter in `game` must wait for a delivery in flight.
    fn delivers_to(&self, game: &str) -> bool {
        self.delivering.contains(game) || self.out.iter().any(|job| job.delivering.contains(game))
    }
}

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
/// tournament [`clerk::route`] finds, its games read and written in that
/// tournament (`Store::tournament`); the calendar is kept for each.
pub fn poll(
    clerks: &[Clerk<'_>],
    store: &mut Store,
    source: &mut dyn MailSource,
    transport: &mut dyn Transport,
    hooks: Hooks<'_>,
) -> Result<Summary, String> {
    let Hooks {
        events,
        progress,
        stop,
    } = hooks;
    let Some(clerk) = clerks.first() else {
        return Ok(Summary::default());
    };
    let directory = clerk.directory;
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
    orders::put_back_released(store, finisher.source, events)?;
    let letters = finisher
        .source
        .fetch_new()
        .map_err(|e| format!("source: {e}"))?;
    let unreadable = finisher.source.take_unreadable();
    let total = letters.len();
    fault::point("after-fetch");
    let careful = store.run_interrupted().map_err(database)?;
    if !letters.is_empty() {
        store.set_run_interrupted(true).map_err(database)?;
    }
    let mut batch = Batch::default();
    store.begin_batch().map_err(database)?;
    // Reading a letter (MIME, quotes, moves, dates) needs no game, and
    // finishing a batch needs no database: a second thread reads ahead and
    // a third marks done and sends while this one plans and writes in
    // order. A careful run does everything here, reading each letter after
    // counting it (see below).
    std::thread::scope(|scope| -> Result<(), String> {
        let threads = !careful && !letters.is_empty();
        let mut worker = if threads {
            Worker::thread(scope, finisher)
        } else {
            Worker::here(finisher)
        };
        // Letters go over in chunks: a wake-up per letter cost more than
        // the hand-over.
        let mut prepared_letters = threads.then(|| {
            let (sender, receiver) = std::sync::mpsc::sync_channel(4);
            let letters = &letters;
            let first = clerk.config;
            scope.spawn(move || read_ahead(first, directory, letters, sender));
            (receiver, std::collections::VecDeque::new())
        });
        // Letters are taken in their order, but one whose game waits for a
        // delivery in flight (a forward not yet accepted: its day is the day
        // the partner received the move) is held, with every later letter of
        // that game, and the others go on. Once the fresh letters are all
        // taken, the deliveries are waited for once and the held letters are
        // taken as the next round: a run of both players' letters in many
        // games waits twice for the mail server, not once a game.
        let mut fresh = 0;
        let mut round: VecDeque<Held> = VecDeque::new();
        let mut held: Vec<Held> = Vec::new();
        let mut held_games: HashSet<String> = HashSet::new();
        // Letters of this run written or failed.
        let mut taken: usize = 0;
        loop {
            // Stopped (SIGTERM): the letters done are committed and sent
            // below, the rest wait in the source for the next run.
            if stop.load(std::sync::atomic::Ordering::Relaxed) || summary.reread {
                summary.left = total - fresh + round.len() + held.len();
                break;
            }
            let item = if fresh < total {
                let index = fresh;
                fresh += 1;
                progress(index, total);
                let envelope = &letters[index];
                // After a crash, each letter is counted as failed before it
                // is read (and forgiven once written): one that kills the
                // process is set aside after POISON_RUNS runs like one that
                // fails.
                let mut counted = None;
                if careful {
                    let runs = count_as_crashed(store, clerk, envelope)?;
                    if runs > POISON_RUNS {
                        let runs = Some(runs - 1);
                        failed_letter(
                            store,
                            clerk,
                            envelope,
                            CRASHED,
                            runs,
                            &mut batch,
                            &mut summary,
                        )?;
                        taken += 1;
                        batch.finish(store, &mut worker, clerk, &mut summary, events)?;
                        continue;
                    }
                    counted = Some(runs);
                }
                Held {
                    index,
                    prepared: next_prepared(
                        &mut prepared_letters,
                        (clerk.config, directory),
                        envelope,
                    )?,
                    counted,
                }
            } else if let Some(item) = round.pop_front() {
                item
            } else if !held.is_empty() {
                // The deliveries the held letters wait for: committed, sent
                // and written back.
                batch.finish(store, &mut worker, clerk, &mut summary, events)?;
                batch.collect(store, &mut worker, clerk, &mut summary, events)?;
                round = held.drain(..).collect();
                held_games.clear();
                continue;
            } else {
                break;
            };
            let envelope = &letters[item.index];
            let desk = item.prepared.as_ref().map_or(clerk, |prepared| {
                let at = clerk::route_prepared(directory, store, prepared);
                let id = &directory.tournaments()[at].tournament_id;
                clerks
                    .iter()
                    .find(|desk| &desk.config.tournament_id == id)
                    .unwrap_or(clerk)
            });
            let mut on_desk = store.tournament(desk.config.scope());
            let store = &mut *on_desk;
            let plan = match plan_guarded(desk, store, envelope, &item.prepared) {
                Ok(plan) => plan,
                Err(error) => {
                    failed_letter(
                        store,
                        clerk,
                        envelope,
                        &error,
                        item.counted,
                        &mut batch,
                        &mut summary,
                    )?;
                    taken += 1;
                    continue;
                }
            };
            let game_key = plan.game.as_ref().map(|state| key(desk.config, state.id()));
            if let Some(game) = &game_key
                && (held_games.contains(game) || batch.delivers_to(game))
            {
                held_games.insert(game.clone());
                held.push(item);
                continue;
            }
            let plan = qualified(desk.config, plan);
            fault::point("after-parse");
            let cause = plan
                .letter
                .as_ref()
                .map_or_else(|| envelope.key.clone(), |l| l.dedup_key.clone());
            let last = commit(store, desk.config, desk, &plan, &cause)?;
            store.forget_failure(&envelope.key).map_err(database)?;
            summary.letters += 1;
            taken += 1;
            if let Some(game) = &game_key {
                summary.games_changed.insert(game.clone());
            }
            for more in plan.more.iter().filter_map(|more| more.game.as_ref()) {
                summary.games_changed.insert(key(desk.config, more.id()));
            }
            // The letters after an order that edits a tournament's file are
            // for a run that reads it as edited (see `Summary::reread`).
            summary.reread |= !plan.config_edits.is_empty();
            batch.add(plan, game_key, last, Some(envelope.key.clone()));
            // Letters of this run written before this batch began.
            let written = taken.saturating_sub(batch.entries.len());
            if careful || batch.entries.len() >= batch_letters(written, total - written) {
                batch.finish(store, &mut worker, clerk, &mut summary, events)?;
            }
        }
        progress(total, total);
        // A file the source could not read fails like a letter (and is set
        // aside after as many runs), without stopping the others.
        for (key, why) in &unreadable {
            let envelope = crate::mail::Envelope {
                key: key.clone(),
                raw: Vec::new(),
                size: 0,
                arrived: clerk.clock.now,
            };
            failed_letter(store, clerk, &envelope, why, None, &mut batch, &mut summary)?;
        }
        // The calendar sees every delivery of the letters.
        batch.finish(store, &mut worker, clerk, &mut summary, events)?;
        if threads {
            // While the threads finish the letters' last batches.
            store.end_batch().map_err(database)?;
            store.checkpoint().map_err(database)?;
            store.begin_batch().map_err(database)?;
        }
        batch.collect(store, &mut worker, clerk, &mut summary, events)?;
        if summary.left == 0 {
            // Read once: a federation's hundred tournaments would read every
            // game's row a hundred times.
            let checks = store.next_checks_keyed().map_err(database)?;
            for desk in clerks {
                let mut on_desk = store.tournament(desk.config.scope());
                keep_calendar(desk, &mut on_desk, &checks, &mut batch, &mut summary)?;
            }
        }
        store.set_run_interrupted(false).map_err(database)?;
        batch.finish(store, &mut worker, clerk, &mut summary, events)?;
        batch.collect(store, &mut worker, clerk, &mut summary, events)?;
        store.end_batch().map_err(database)?;
        store.clear_sent_log().map_err(database)
    })?;
    // The files the run's orders edit, for the next run to read.
    write_edits(store, clerk.clock.today, events)?;
    Ok(summary)
}

/// A game's key in the run: its id, or `ID/<id>` for a tournament of a folder
/// (as the database keys it).
fn key(config: &Config, game: &str) -> String {
    config.game_key(game).to_string()
}

/// A plan whose events name their games by [`key`]: with several
/// tournaments, "game 3" alone says too little.
fn qualified(config: &Config, mut plan: Plan) -> Plan {
    if config.scope().is_some() {
        for event in &mut plan.events {
            if let Some(game) = &mut event.game {
                *game = key(config, game);
            }
        }
    }
    plan
}

/// The chunks the reading thread sends, and those of the last chunk still to plan.
type ReadAhead = (
    std::sync::mpsc::Receiver<Vec<Result<Prepared, String>>>,
    std::collections::VecDeque<Result<Prepared, String>>,
);

/// The next letter as read: from the reading thread where there is one,
/// else read here.
fn next_prepared(
    read_ahead: &mut Option<ReadAhead>,
    (first, directory): (&Config, &clerk::Directory),
    envelope: &crate::mail::Envelope,
) -> Result<Result<Prepared, String>, String> {
    match read_ahead {
        Some((chunks, ready)) => {
            if ready.is_empty() {
                ready.extend(chunks.recv().unwrap_or_default());
            }
            ready
                .pop_front()
                .ok_or_else(|| "the reading thread stopped".to_string())
        }
        None => Ok(prepare_guarded(first, directory, envelope)),
    }
}

/// Reads the letters in chunks on a thread of its own, ahead of the planning.
fn read_ahead(
    first: &Config,
    directory: &clerk::Directory,
    letters: &[crate::mail::Envelope],
    sender: std::sync::mpsc::SyncSender<Vec<Result<Prepared, String>>>,
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

/// After a crash, a letter is counted as failed before it is read (and
/// forgiven once written), outside the batch: one that kills the process is
/// set aside after `POISON_RUNS` runs like one that fails. The runs counted.
fn count_as_crashed(
    store: &mut Store,
    clerk: &Clerk<'_>,
    envelope: &crate::mail::Envelope,
) -> Result<u32, String> {
    store.end_batch().map_err(database)?;
    let runs = store
        .record_failure(&envelope.key, CRASHED, clerk.clock.now)
        .map_err(database)?;
    store.begin_batch().map_err(database)?;
    Ok(runs)
}

/// Plans one letter; a panic while planning becomes the letter's error.
fn plan_guarded(
    clerk: &Clerk<'_>,
    store: &Store,
    envelope: &crate::mail::Envelope,
    prepared: &Result<Prepared, String>,
) -> Result<Plan, String> {
    let prepared = prepared.as_ref().map_err(Clone::clone)?;
    catch_unwind(AssertUnwindSafe(|| {
        fault::poison(&envelope.raw);
        clerk.plan_prepared(store, envelope, prepared)
    }))
    .unwrap_or_else(|panic| Err(panic_message(panic.as_ref())))
}

/// Reads one letter (read whole if its sender is known in any of the
/// tournaments, with the first one's reading of dates); a panic while
/// reading becomes the letter's error.
fn prepare_guarded(
    first: &Config,
    directory: &clerk::Directory,
    envelope: &crate::mail::Envelope,
) -> Result<Prepared, String> {
    let known = |address: &str| !directory.known_in(address).is_empty();
    catch_unwind(AssertUnwindSafe(|| {
        Prepared::reading(first, envelope, &known)
    }))
    .map_err(|panic| panic_message(panic.as_ref()))
}

/// The calendar's duties of every game that may have one today; the others
/// (see [`rules::next_check`]) are not even loaded.
fn keep_calendar(
    clerk: &Clerk<'_>,
    store: &mut Store,
    checks: &std::collections::HashMap<String, Option<NaiveDate>>,
    batch: &mut Batch,
    summary: &mut Summary,
) -> Result<(), String> {
    let config = clerk.config;
    let today = clerk.clock.today;
    for game in &config.games {
        if let Some(Some(day)) = checks.get(&key(config, &game.id))
            && *day > today
        {
            continue;
        }
        let state = clerk::load_replaying(config, store, game, &clerk.replays)?;
        let plan = clerk.plan_duties(store, state)?;
        let mut last = None;
        if !plan.duties.is_empty() {
            let cause = format!(
                "duty:{}:{}",
                game.id,
                plan.duties
                    .iter()
                    .map(|k| k.0.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            );
            last = commit(store, config, clerk, &plan, &cause)?;
            summary.games_changed.insert(key(config, &game.id));
        }
        if let Some(state) = &plan.game {
            // A game only a letter can move is looked at again in 9999.
            let never = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap_or(NaiveDate::MAX);
            let next = rules::next_check(&config.rules, &state.ledger, today).unwrap_or(never);
            store
                .write(|w| w.next_check(&game.id, next))
                .map_err(database)?;
        }
        if !plan.duties.is_empty() {
            let plan = qualified(config, plan);
            batch.add(plan, Some(key(config, &game.id)), last, None);
        }
    }
    Ok(())
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

//! The second half of a batch, after its commit: the commit is synced to disk
//! (the main thread commits without waiting for it), then the letters are
//! marked done in their source and the messages handed to the transport. It
//! touches no database, so it can run on a thread of its own while the next
//! batch is planned (the file outbox and the Maildir cost a third of a run in
//! system calls); what it did comes back as an [`Outcome`] that the run
//! writes into the database with the next batch.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use chrono::{DateTime, NaiveDate, Utc};

use crate::clerk::Event;
use crate::fault;
use crate::mail::{MailSource, Transport};
use crate::store::{OutboxItem, Sent, SentLog, WalSync};

/// What to do after a commit.
#[derive(Default)]
pub struct Job {
    /// Puts the commit on disk: done before anything else.
    pub sync: WalSync,
    /// Source keys of the letters the commit holds.
    pub done: Vec<String>,
    /// In order: what was done, then the messages up to this outbox id.
    pub entries: Vec<(Vec<Event>, Option<i64>)>,
    /// The messages due, oldest first.
    pub queue: Vec<OutboxItem>,
    pub now: DateTime<Utc>,
    pub today: NaiveDate,
}

/// What a job did.
#[derive(Default)]
pub struct Outcome {
    /// The job's events and its sends, in the order they happened.
    pub events: Vec<Event>,
    /// Taken by the transport (and in the sent log).
    pub sent: Vec<Sent>,
    /// Refused by it: (outbox id, error, permanent).
    pub failed: Vec<(i64, String, bool)>,
    /// What stopped the job: the run stops too.
    pub error: Option<String>,
}

/// Marks letters done and sends messages.
pub struct Finisher<'a> {
    pub source: &'a mut dyn MailSource,
    pub transport: &'a mut dyn Transport,
    /// `None` with a database in memory.
    pub log: Option<SentLog>,
}

impl Finisher<'_> {
    /// Syncs the commit, marks the letters done, then sends the messages in
    /// order: each is appended to the sent log as soon as the transport took
    /// it, so that a crash of the process sends at most the message in flight
    /// again. A transient failure stops the sending until the next job.
    pub fn run(&mut self, job: Job) -> Outcome {
        let mut outcome = Outcome::default();
        if let Err(error) = self.work(job, &mut outcome) {
            outcome.error = Some(error);
        }
        if let Some(log) = &mut self.log {
            log.close();
        }
        outcome
    }

    fn work(&mut self, job: Job, outcome: &mut Outcome) -> Result<(), String> {
        job.sync.sync().map_err(|e| format!("database: {e}"))?;
        for key in &job.done {
            fault::point("after-commit");
            fault::point("before-mark-done");
            self.source
                .mark_done(key)
                .map_err(|e| format!("source: {e}"))?;
        }
        let mut queue = job.queue.into_iter().peekable();
        let mut stopped = false;
        let last_entry = (Vec::new(), Some(i64::MAX));
        for (events, last) in job.entries.into_iter().chain([last_entry]) {
            outcome.events.extend(events);
            let Some(last) = last else { continue };
            while !stopped && let Some(item) = queue.next_if(|item| item.id <= last) {
                stopped = self.send(&item, job.now, job.today, outcome)?;
            }
        }
        // The transport makes what it took durable before the run records
        // it as sent.
        self.transport
            .flush()
            .map_err(|e| format!("transport: {e}"))
    }

    /// Sends one message; says whether sending must stop.
    fn send(
        &mut self,
        item: &OutboxItem,
        now: DateTime<Utc>,
        today: NaiveDate,
        outcome: &mut Outcome,
    ) -> Result<bool, String> {
        match self.transport.send(&item.recipients, &item.raw) {
            Ok(receipt) => {
                fault::point("after-send");
                let sent = Sent::new(item, now, &receipt.line, today);
                if let Some(log) = &mut self.log {
                    log.append(&sent).map_err(|e| format!("sent log: {e}"))?;
                }
                outcome.sent.push(sent);
                outcome.events.push(Event {
                    event: "sent",
                    game: item.game.clone(),
                    from: None,
                    detail: format!("{} to {}", item.kind, item.recipients.join(", ")),
                });
                Ok(false)
            }
            Err(error) => {
                let what = if error.transient {
                    "will retry"
                } else {
                    "permanent failure, not retried"
                };
                outcome.events.push(Event {
                    event: "send-failed",
                    game: item.game.clone(),
                    from: None,
                    detail: format!(
                        "{} to {}: {} ({what})",
                        item.kind,
                        item.recipients.join(", "),
                        error.message
                    ),
                });
                outcome
                    .failed
                    .push((item.id, error.message, !error.transient));
                Ok(error.transient)
            }
        }
    }
}

/// Runs the jobs: on this thread, one at a time, or on a thread of its own
/// while this one goes on. One job at most is out; its outcome is taken
/// before the next is given.
pub enum Worker<'a> {
    Here {
        finisher: Finisher<'a>,
        outcome: Option<Outcome>,
    },
    Thread {
        jobs: SyncSender<Job>,
        outcomes: Receiver<Outcome>,
        busy: bool,
    },
}

impl<'a> Worker<'a> {
    pub fn here(finisher: Finisher<'a>) -> Worker<'a> {
        Worker::Here {
            finisher,
            outcome: None,
        }
    }

    /// Moves the finisher onto a thread of `scope`, which ends when the
    /// worker is dropped.
    pub fn thread<'scope>(
        scope: &'scope std::thread::Scope<'scope, 'a>,
        mut finisher: Finisher<'a>,
    ) -> Worker<'a> {
        let (jobs, job_receiver) = sync_channel::<Job>(1);
        let (outcome_sender, outcomes) = sync_channel(1);
        scope.spawn(move || {
            for job in job_receiver {
                let outcome =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| finisher.run(job)))
                        .unwrap_or_else(|panic| Outcome {
                            error: Some(super::panic_message(panic.as_ref())),
                            ..Outcome::default()
                        });
                if outcome_sender.send(outcome).is_err() {
                    break;
                }
            }
        });
        Worker::Thread {
            jobs,
            outcomes,
            busy: false,
        }
    }

    /// Gives a job; the outcome of the one before must have been taken.
    pub fn start(&mut self, job: Job) -> Result<(), String> {
        match self {
            Worker::Here { finisher, outcome } => {
                *outcome = Some(finisher.run(job));
                Ok(())
            }
            Worker::Thread { jobs, busy, .. } => {
                jobs.send(job)
                    .map_err(|_| "the sending thread stopped".to_string())?;
                *busy = true;
                Ok(())
            }
        }
    }

    /// The outcome of the job out, waiting for it; `None` when none is out.
    pub fn wait(&mut self) -> Result<Option<Outcome>, String> {
        match self {
            Worker::Here { outcome, .. } => Ok(outcome.take()),
            Worker::Thread { outcomes, busy, .. } => {
                if !*busy {
                    return Ok(None);
                }
                *busy = false;
                outcomes
                    .recv()
                    .map(Some)
                    .map_err(|_| "the sending thread stopped".to_string())
            }
        }
    }
}

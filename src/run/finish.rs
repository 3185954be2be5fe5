//! The second half of a batch, after its commit: the commit is synced to disk
//! (the main thread commits without waiting for it), then the letters are
//! marked done in their source and the messages handed to the transport,
//! and what the transport took is made durable. It touches no database, so
//! it runs on threads of their own while the next batch is planned (the file
//! outbox and the Maildir cost a third of a run in system calls): one marks
//! and sends, a second syncs the messages of one batch while the first sends
//! the next. What a job did comes back as an [`JobReport`] that the run writes
//! into the database with a later batch.

use crate::error::Error;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use chrono::{DateTime, NaiveDate, Utc};

use crate::clerk::{Event, EventKind};
use crate::fault;
use crate::mail::{MailSource, Syncer, Transport};
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
pub struct JobReport {
    /// The job's events and its sends, in the order they happened.
    pub events: Vec<Event>,
    /// Taken by the transport (and in the sent log).
    pub sent: Vec<Sent>,
    /// Refused by it.
    pub failed: Vec<SendFailure>,
    /// What stopped the job: the run stops too.
    pub error: Option<Error>,
}

/// A message of the outbox the transport refused.
pub struct SendFailure {
    pub outbox_id: i64,
    /// The transport's words.
    pub error: String,
    /// Never to be tried again (the server refused it for good).
    pub permanent: bool,
}

/// Marks letters done and sends messages.
pub struct Finisher<'a> {
    pub source: &'a mut dyn MailSource,
    pub transport: &'a mut dyn Transport,
    /// `None` with a database in memory.
    pub log: Option<SentLog>,
}

impl Finisher<'_> {
    /// Runs a job to its end: [`Finisher::send_all`], then [`make_durable`].
    pub fn run(&mut self, job: Job) -> JobReport {
        let mut report = self.send_all(job);
        make_durable(&mut self.transport.syncer(), &mut report);
        report
    }

    /// Syncs the commit, marks the letters done, then sends the messages in
    /// order: each is appended to the sent log as soon as the transport took
    /// it, so that a crash of the process sends at most the message in flight
    /// again. A transient failure stops the sending until the next job. What
    /// the transport took is not yet durable.
    fn send_all(&mut self, job: Job) -> JobReport {
        let mut report = JobReport::default();
        if let Err(error) = self.work(job, &mut report) {
            report.error = Some(error);
        }
        if let Some(log) = &mut self.log {
            log.close();
        }
        report
    }

    fn work(&mut self, job: Job, report: &mut JobReport) -> Result<(), Error> {
        job.sync.sync().map_err(Error::database)?;
        for _ in &job.done {
            fault::point("after-commit");
            fault::point("before-mark-done");
        }
        // A server that will not mark the letters done (a read-only
        // mailbox) fails the run, but holds back none of their messages:
        // the letters are applied and kept, and read again next time they
        // are known as seen, and marked again.
        let marked = self
            .source
            .mark_all_done(&job.done)
            .map_err(|e| Error::mail(format!("source: {e}")));
        let mut queue = job.queue.into_iter().peekable();
        let mut stopped = false;
        let last_entry = (Vec::new(), Some(i64::MAX));
        // Entries with their messages, sent a window at a time; the events
        // come out in the order of before (each entry's, then its sends).
        let mut window: Vec<(Vec<Event>, Vec<OutboxItem>)> = Vec::new();
        let mut waiting = 0;
        let when = (job.now, job.today);
        for (events, last) in job.entries.into_iter().chain([last_entry]) {
            let mut items = Vec::new();
            if let Some(last) = last {
                while let Some(item) = queue.next_if(|item| item.id <= last) {
                    items.push(item);
                }
            }
            // A window is sent before an entry that would overflow it: a
            // message left over alone would cost a turn of its own. (The
            // transport is asked only with messages to send: it may connect.)
            let full = if items.is_empty() || stopped {
                usize::MAX
            } else {
                self.transport.window()
            };
            if waiting > 0 && waiting + items.len() > full {
                stopped = self.send_window(&mut window, stopped, when, report)?;
                waiting = 0;
            }
            waiting += items.len();
            window.push((events, items));
            if waiting >= full {
                stopped = self.send_window(&mut window, stopped, when, report)?;
                waiting = 0;
            }
        }
        self.send_window(&mut window, stopped, when, report)?;
        marked
    }

    /// Sends a window's messages (none once sending stopped) and records
    /// their reports; says whether sending must stop.
    fn send_window(
        &mut self,
        window: &mut Vec<(Vec<Event>, Vec<OutboxItem>)>,
        stopped: bool,
        (now, today): (DateTime<Utc>, NaiveDate),
        report: &mut JobReport,
    ) -> Result<bool, Error> {
        let items: Vec<&OutboxItem> = window.iter().flat_map(|(_, items)| items).collect();
        // Each message's event, by its place in the window; the sends are
        // recorded (in the sent log) piece by piece as they are taken.
        let mut said: Vec<Option<Event>> = Vec::with_capacity(items.len());
        let mut stopped = stopped;
        // Not asked with nothing to send: it may connect.
        let piece = if items.is_empty() || stopped {
            1
        } else {
            self.transport.window().max(1)
        };
        for chunk in items.chunks(piece) {
            if stopped {
                break;
            }
            let messages: Vec<(&[String], &[u8])> = chunk
                .iter()
                .map(|item| (item.recipients.as_slice(), item.raw.as_slice()))
                .collect();
            let results = self.transport.send_many(&messages);
            // Not tried: after a transient failure.
            let tried = results.len();
            for (item, result) in chunk.iter().zip(results) {
                let (stop, event) = self.record(item, result, now, today, report)?;
                stopped |= stop;
                said.push(Some(event));
            }
            if tried < chunk.len() {
                stopped = true;
            }
        }
        let mut said = said.into_iter();
        for (events, items) in window.drain(..) {
            report.events.extend(events);
            report
                .events
                .extend(items.iter().filter_map(|_| said.next().flatten()));
        }
        Ok(stopped)
    }

    /// What became of one message, kept: whether sending must stop, and
    /// the event that says it.
    fn record(
        &mut self,
        item: &OutboxItem,
        result: Result<crate::mail::Receipt, crate::mail::MailError>,
        now: DateTime<Utc>,
        today: NaiveDate,
        report: &mut JobReport,
    ) -> Result<(bool, Event), Error> {
        match result {
            Ok(receipt) => {
                fault::point("after-send");
                let sent = Sent::new(item, now, &receipt.line, today);
                if let Some(log) = &mut self.log {
                    log.append(&sent)
                        .map_err(|e| Error::database(format!("sent log: {e}")))?;
                }
                report.sent.push(sent);
                let event = Event {
                    event: EventKind::Sent,
                    game: item.game.as_deref().map(crate::key::GameKey::parse),
                    from: None,
                    detail: format!("{} to {}", item.kind, item.recipients.join(", ")),
                };
                Ok((false, event))
            }
            Err(error) => {
                let what = if error.transient {
                    "will retry"
                } else {
                    "permanent failure, not retried"
                };
                let event = Event {
                    event: EventKind::SendFailed,
                    game: item.game.as_deref().map(crate::key::GameKey::parse),
                    from: None,
                    detail: format!(
                        "{} to {}: {} ({what})",
                        item.kind,
                        item.recipients.join(", "),
                        error.message
                    ),
                };
                report.failed.push(SendFailure {
                    outbox_id: item.id,
                    error: error.message,
                    permanent: !error.transient,
                });
                Ok((error.transient, event))
            }
        }
    }
}

/// The transport makes what it took durable before the run records it as
/// sent (even when the job stopped early: what it sent is recorded too).
fn make_durable(syncer: &mut Option<Syncer>, report: &mut JobReport) {
    if report.sent.is_empty() {
        return;
    }
    if let Some(sync) = syncer
        && let Err(error) = sync()
    {
        report
            .error
            .get_or_insert_with(|| Error::mail(format!("transport: {error}")));
    }
}

/// Runs the jobs: on this thread, one at a time, or on threads of their own
/// while this one goes on. Reports are taken oldest first.
pub enum Worker<'a> {
    Here {
        finisher: Finisher<'a>,
        report: Option<JobReport>,
    },
    Thread {
        jobs: SyncSender<Job>,
        reports: Receiver<JobReport>,
        out: usize,
    },
}

/// How many jobs the threads hold at once: one being sent, one being synced.
const JOBS_ON_THREADS: usize = 2;

impl<'a> Worker<'a> {
    pub fn here(finisher: Finisher<'a>) -> Worker<'a> {
        Worker::Here {
            finisher,
            report: None,
        }
    }

    /// Moves the finisher onto a thread of `scope` and the transport's
    /// syncing onto a second; both end when the worker is dropped. The
    /// first sends job N+1 while the second waits for the disk to take job
    /// N's messages: on the disk, the syncs were a third of a run, waited
    /// for by the sending.
    pub fn thread<'scope>(
        scope: &'scope std::thread::Scope<'scope, 'a>,
        mut finisher: Finisher<'a>,
    ) -> Worker<'a> {
        let (jobs, job_receiver) = sync_channel::<Job>(JOBS_ON_THREADS);
        let (sent_sender, sent_receiver) = sync_channel::<JobReport>(JOBS_ON_THREADS);
        let (report_sender, reports) = sync_channel(JOBS_ON_THREADS);
        let mut syncer = finisher.transport.syncer();
        scope.spawn(move || {
            for job in job_receiver {
                let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    finisher.send_all(job)
                }))
                .unwrap_or_else(|panic| JobReport {
                    error: Some(Error::internal(super::panic_message(panic.as_ref()))),
                    ..JobReport::default()
                });
                if sent_sender.send(report).is_err() {
                    break;
                }
            }
        });
        scope.spawn(move || {
            for mut report in sent_receiver {
                make_durable(&mut syncer, &mut report);
                if report_sender.send(report).is_err() {
                    break;
                }
            }
        });
        Worker::Thread {
            jobs,
            reports,
            out: 0,
        }
    }

    /// How many jobs may be out at once: before another is given, the
    /// oldest report must be taken.
    pub fn capacity(&self) -> usize {
        match self {
            Worker::Here { .. } => 1,
            Worker::Thread { .. } => JOBS_ON_THREADS,
        }
    }

    /// Gives a job; fewer than [`Worker::capacity`] may be out.
    pub fn start(&mut self, job: Job) -> Result<(), Error> {
        match self {
            Worker::Here { finisher, report } => {
                *report = Some(finisher.run(job));
                Ok(())
            }
            Worker::Thread { jobs, out, .. } => {
                jobs.send(job)
                    .map_err(|_| Error::internal("the sending thread stopped"))?;
                *out += 1;
                Ok(())
            }
        }
    }

    /// The report of the oldest job out, waiting for it; `None` when none
    /// is out.
    pub fn wait(&mut self) -> Result<Option<JobReport>, Error> {
        match self {
            Worker::Here { report, .. } => Ok(report.take()),
            Worker::Thread { reports, out, .. } => {
                if *out == 0 {
                    return Ok(None);
                }
                *out -= 1;
                reports
                    .recv()
                    .map(Some)
                    .map_err(|_| Error::internal("the sending thread stopped"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::{Arc, Mutex};

    use super::*;
    use crate::mail::{Envelope, MailError, Receipt};

    /// What the fakes saw, in order: "done KEY", "send ID", "sync".
    type Journal = Arc<Mutex<Vec<String>>>;

    struct FakeSource(Journal);

    impl MailSource for FakeSource {
        fn fetch_new(&mut self) -> Result<Vec<Envelope>, MailError> {
            Ok(Vec::new())
        }
        fn mark_done(&mut self, key: &str) -> Result<(), MailError> {
            self.0.lock().unwrap().push(format!("done {key}"));
            Ok(())
        }
        fn put_back(
            &mut self,
            _: &[u8],
            _: chrono::DateTime<chrono::Utc>,
        ) -> Result<(), MailError> {
            unreachable!("no letter is put back in these tests")
        }
    }

    /// A transport whose sync fails when `failing_sync` is set.
    struct FakeTransport {
        journal: Journal,
        failing_sync: bool,
    }

    impl Transport for FakeTransport {
        fn send(&mut self, _: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
            let id = String::from_utf8_lossy(raw).into_owned();
            self.journal.lock().unwrap().push(format!("send {id}"));
            Ok(Receipt {
                line: format!("took {id}"),
            })
        }
        fn syncer(&self) -> Option<Syncer> {
            let journal = self.journal.clone();
            let failing = self.failing_sync;
            Some(Box::new(move || {
                journal.lock().unwrap().push("sync".into());
                match failing {
                    true => Err(MailError {
                        message: "disk gone".into(),
                        transient: true,
                    }),
                    false => Ok(()),
                }
            }))
        }
    }

    /// A source and a transport writing into one journal.
    fn fakes(failing_sync: bool) -> (Journal, FakeSource, FakeTransport) {
        let journal = Journal::default();
        let transport = FakeTransport {
            journal: journal.clone(),
            failing_sync,
        };
        (journal.clone(), FakeSource(journal), transport)
    }

    fn item(id: i64) -> OutboxItem {
        OutboxItem {
            id,
            game: None,
            kind: "ack".into(),
            recipients: vec!["a@x.example".into()],
            message_id: format!("<{id}@x.example>"),
            raw: id.to_string().into_bytes(),
            delivers: None,
            attempts: 0,
        }
    }

    fn job(done: &[&str], ids: &[i64]) -> Job {
        Job {
            done: done.iter().map(|d| d.to_string()).collect(),
            entries: vec![(Vec::new(), ids.last().copied())],
            queue: ids.iter().map(|&id| item(id)).collect(),
            ..Job::default()
        }
    }

    fn sent_ids(report: &JobReport) -> Vec<i64> {
        report.sent.iter().map(|s| s.id).collect()
    }

    #[test]
    fn two_jobs_out_on_the_threads_come_back_in_order_each_synced_after_its_sends() {
        let (journal, mut source, mut transport) = fakes(false);
        let finisher = Finisher {
            source: &mut source,
            transport: &mut transport,
            log: None,
        };
        // What the fakes had seen when each report came back.
        let seen = || journal.lock().unwrap().clone();
        let (first, seen_first, second, seen_second) = std::thread::scope(|scope| {
            let mut worker = Worker::thread(scope, finisher);
            assert_eq!(worker.capacity(), 2);
            worker.start(job(&["a"], &[1, 2])).unwrap();
            worker.start(job(&["b"], &[3])).unwrap();
            let first = worker.wait().unwrap().unwrap();
            let seen_first = seen();
            let second = worker.wait().unwrap().unwrap();
            let seen_second = seen();
            assert!(worker.wait().unwrap().is_none(), "no third job is out");
            (first, seen_first, second, seen_second)
        });
        assert_eq!(sent_ids(&first), [1, 2]);
        assert_eq!(sent_ids(&second), [3]);
        assert!(first.error.is_none() && second.error.is_none());
        // Letters are marked done before the job's sends, and an report
        // comes back only after a sync that came after its last send.
        let synced_after = |seen: &[String], last_send: &str| {
            let send = seen.iter().position(|j| j == last_send).unwrap();
            seen[send..].iter().any(|j| j == "sync")
        };
        let at = |what: &str| seen_second.iter().position(|j| j == what).unwrap();
        assert!(at("done a") < at("send 1") && at("done b") < at("send 3"));
        assert!(synced_after(&seen_first, "send 2"), "{seen_first:?}");
        assert!(synced_after(&seen_second, "send 3"), "{seen_second:?}");
    }

    #[test]
    fn nothing_sent_is_not_synced_and_a_failed_sync_keeps_the_sends_with_an_error() {
        let (journal, mut source, mut transport) = fakes(true);
        let mut finisher = Finisher {
            source: &mut source,
            transport: &mut transport,
            log: None,
        };
        let idle = finisher.run(job(&["a"], &[]));
        assert!(idle.error.is_none());
        assert_eq!(*journal.lock().unwrap(), ["done a"]);

        let failed = finisher.run(job(&[], &[7]));
        assert_eq!(
            sent_ids(&failed),
            [7],
            "sent is sent: recorded all the same"
        );
        assert_eq!(
            failed.error,
            Some(Error::mail("transport: disk gone")),
            "and the run stops"
        );
        assert_eq!(*journal.lock().unwrap(), ["done a", "send 7", "sync"]);
    }
}

//! One pass of the clerk (`poll`): send what an earlier run left in the outbox,
//! read every new letter and write its plan, send, then keep the calendar.
//!
//! A letter is marked done in its source only after its plan is committed, and
//! a message is marked sent only after the transport accepted it. A letter that
//! fails (an error, or a panic caught around it) stays in the source for the
//! next run; the others go on.

use std::fs::{File, TryLockError};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::clerk::{Clerk, Event, GameState, Plan};
use crate::config::Config;
use crate::fault;
use crate::mail::compose::{self, Sender};
use crate::mail::{MailSource, Transport};
use crate::store::{Disposition, NewOutbox, Store, StoredLetter};

/// What a pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub letters: usize,
    pub sent: usize,
    pub failures: usize,
}

/// Holds the lock of one tournament's database while a run works; the kernel
/// releases it when the process ends, however it ends.
pub struct RunLock {
    _file: File,
}

/// Takes the run lock, or `None` when another run holds it.
pub fn lock(database: &Path) -> std::io::Result<Option<RunLock>> {
    let path = lock_path(database);
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)?;
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

/// The clerk's `From:` and subject tag.
pub fn sender(config: &Config) -> Sender {
    let role = config.language.pick("секретарь", "clerk");
    Sender {
        name: format!("{} ({role})", config.tournament_name),
        email: config.address.clone(),
        tournament: config.tournament_id.clone(),
    }
}

/// A Message-ID that is the same whenever the same letter or duty causes the
/// same message, so that a message sent twice after a crash carries one id.
fn message_id(config: &Config, cause: &str, index: usize, kind: &str) -> String {
    let digest = Sha256::digest(format!("{cause}\n{index}\n{kind}").as_bytes());
    let hex: String = digest.iter().take(12).map(|b| format!("{b:02x}")).collect();
    let domain = config.address.rsplit('@').next().unwrap_or("localhost");
    format!(
        "<{hex}.{}@{domain}>",
        config.tournament_id.to_ascii_lowercase()
    )
}

/// Writes a plan in one transaction: the letter, the game, notes, duties done
/// and the composed messages.
pub fn commit(
    store: &mut Store,
    config: &Config,
    clerk: &Clerk<'_>,
    plan: &Plan,
    cause: &str,
) -> Result<(), String> {
    let sender = sender(config);
    let mut composed = Vec::new();
    for (index, message) in plan.messages.iter().enumerate() {
        let id = message_id(config, cause, index, message.kind);
        let raw = compose::build(message, &sender, &id, clerk.clock.now)?;
        composed.push(NewOutbox {
            game: message.game.clone(),
            kind: message.kind.to_string(),
            recipients: message.addresses(),
            message_id: id,
            raw,
            delivers: message.delivers,
        });
    }
    let today = clerk.clock.today;
    store
        .write(|w| {
            let letter_id = match &plan.letter {
                Some(letter) => Some(w.letter(letter)?),
                None => None,
            };
            if let Some(state) = &plan.game {
                w.game(
                    state.id(),
                    &state.stored_row(),
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
            }
            for message in &composed {
                w.outbox(message, today)?;
            }
            fault::point("after-outbox-insert");
            Ok(())
        })
        .map_err(|e| format!("database: {e}"))
}

/// Sends every message waiting in the outbox.
pub fn send_pending(
    store: &mut Store,
    transport: &mut dyn Transport,
    clerk: &Clerk<'_>,
    summary: &mut Summary,
    events: &mut dyn FnMut(Event),
) -> Result<(), String> {
    for item in store
        .pending(clerk.clock.now)
        .map_err(|e| format!("database: {e}"))?
    {
        match transport.send(&item.recipients, &item.raw) {
            Ok(receipt) => {
                fault::point("after-send");
                store
                    .mark_sent(&item, clerk.clock.now, &receipt.line, clerk.clock.today)
                    .map_err(|e| format!("database: {e}"))?;
                summary.sent += 1;
                events(Event {
                    event: "sent",
                    game: item.game.clone(),
                    from: None,
                    detail: format!("{} to {}", item.kind, item.recipients.join(", ")),
                });
            }
            Err(error) => {
                store
                    .mark_failed(&item, &error.message, !error.transient, clerk.clock.now)
                    .map_err(|e| format!("database: {e}"))?;
                summary.failures += 1;
                let what = if error.transient {
                    "will retry"
                } else {
                    "permanent failure, not retried"
                };
                events(Event {
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
                if error.transient {
                    break;
                }
            }
        }
    }
    Ok(())
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
/// its reason, marked done, and reported, so that it stops blocking nothing and
/// is never lost.
fn failed_letter(
    store: &mut Store,
    source: &mut dyn MailSource,
    clerk: &Clerk<'_>,
    envelope: &crate::mail::Envelope,
    error: &str,
    summary: &mut Summary,
    events: &mut dyn FnMut(Event),
) -> Result<(), String> {
    summary.failures += 1;
    let runs = store
        .record_failure(&envelope.key, error, clerk.clock.now)
        .map_err(|e| format!("database: {e}"))?;
    if runs < POISON_RUNS {
        events(Event {
            event: "letter-failed",
            game: None,
            from: None,
            detail: format!(
                "{}: {error}; left for the next run ({runs} of {POISON_RUNS})",
                envelope.key
            ),
        });
        return Ok(());
    }
    let letter = StoredLetter {
        dedup_key: format!(
            "quarantine:{}",
            crate::clerk::dedup_key(None, &envelope.raw)
        ),
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
        .map_err(|e| format!("database: {e}"))?;
    source
        .mark_done(&envelope.key)
        .map_err(|e| format!("source: {e}"))?;
    events(Event {
        event: "quarantined",
        game: None,
        from: None,
        detail: format!(
            "{}: failed {runs} runs ({error}); kept in the database and set aside for the director",
            envelope.key
        ),
    });
    Ok(())
}

/// One pass: letters first, then the calendar (rules.md 2.4: a letter that came
/// in time is never overtaken by a silence check).
pub fn poll(
    config: &Config,
    clerk: &Clerk<'_>,
    store: &mut Store,
    source: &mut dyn MailSource,
    transport: &mut dyn Transport,
    events: &mut dyn FnMut(Event),
) -> Result<Summary, String> {
    let mut summary = Summary::default();
    send_pending(store, transport, clerk, &mut summary, events)?;
    let letters = source.fetch_new().map_err(|e| format!("source: {e}"))?;
    fault::point("after-fetch");
    for envelope in letters {
        let planned = catch_unwind(AssertUnwindSafe(|| {
            fault::poison(&envelope.raw);
            clerk.plan(store, &envelope)
        }))
        .unwrap_or_else(|panic| Err(panic_message(panic.as_ref())));
        let plan = match planned {
            Ok(plan) => plan,
            Err(error) => {
                failed_letter(
                    store,
                    source,
                    clerk,
                    &envelope,
                    &error,
                    &mut summary,
                    events,
                )?;
                continue;
            }
        };
        fault::point("after-parse");
        let cause = plan
            .letter
            .as_ref()
            .map_or_else(|| envelope.key.clone(), |l| l.dedup_key.clone());
        commit(store, config, clerk, &plan, &cause)?;
        fault::point("after-commit");
        store
            .forget_failure(&envelope.key)
            .map_err(|e| format!("database: {e}"))?;
        fault::point("before-mark-done");
        source
            .mark_done(&envelope.key)
            .map_err(|e| format!("source: {e}"))?;
        summary.letters += 1;
        for event in plan.events {
            events(event);
        }
        send_pending(store, transport, clerk, &mut summary, events)?;
    }
    for game in &config.games {
        let state = GameState::load(config, store, game)?;
        let plan = clerk.plan_duties(store, state)?;
        if plan.duties.is_empty() {
            continue;
        }
        let cause = format!(
            "duty:{}:{}",
            game.id,
            plan.duties
                .iter()
                .map(|k| k.0.as_str())
                .collect::<Vec<_>>()
                .join(",")
        );
        commit(store, config, clerk, &plan, &cause)?;
        for event in plan.events {
            events(event);
        }
        send_pending(store, transport, clerk, &mut summary, events)?;
    }
    Ok(summary)
}

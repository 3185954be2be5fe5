//! A letter that fails: counted, kept for the next run, set aside after
//! [`crate::clerk::POISON_RUNS`]; a panic caught around each letter's reading and
//! planning, in words.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::clerk::{Clerk, Event, EventKind, POISON_RUNS, Prepared, SaidPlan};
use crate::config::Config;
use crate::error::Error;
use crate::store::{Disposition, Store, StoredLetter};
use crate::{clerk, fault};

use super::Summary;
use super::batch::{Batch, Entry};

/// What a caught panic said.
pub(super) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
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
pub(super) fn failed_letter(
    store: &mut Store,
    clerk: &Clerk<'_>,
    envelope: &crate::mail::Envelope,
    error: &str,
    counted: Option<u32>,
    batch: &mut Batch,
    summary: &mut Summary,
) -> Result<(), Error> {
    summary.failures += 1;
    let runs = match counted {
        Some(runs) => runs,
        None => store.record_failure(&envelope.key, error, clerk.clock.now)?,
    };
    if runs < POISON_RUNS {
        batch.entries.push(Entry {
            done: None,
            events: vec![Event {
                event: EventKind::LetterFailed,
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
                crate::mail::format::keys::dedup_key(None, &envelope.raw)
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
    // A letter set aside is no game's: no tournament's key is written.
    store.write(None, |w| w.letter(&letter).map(|_| ()))?;
    batch.entries.push(Entry {
        done: Some(envelope.key.clone()),
        events: vec![Event {
            event: EventKind::Quarantined,
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
pub(super) const CRASHED: &str = "the clerk stopped while reading this letter";

/// After a crash, a letter is counted as failed before it is read (and
/// forgiven once written), outside the batch: one that kills the process is
/// set aside after `POISON_RUNS` runs like one that fails. The runs counted.
pub(super) fn count_as_crashed(
    store: &mut Store,
    clerk: &Clerk<'_>,
    envelope: &crate::mail::Envelope,
) -> Result<u32, Error> {
    store.end_batch()?;
    let runs = store.record_failure(&envelope.key, CRASHED, clerk.clock.now)?;
    store.begin_batch()?;
    Ok(runs)
}

/// Plans one letter; a panic while planning becomes the letter's error.
pub(super) fn plan_guarded(
    clerk: &Clerk<'_>,
    store: &Store,
    envelope: &crate::mail::Envelope,
    prepared: &Result<Prepared, Error>,
) -> Result<SaidPlan, Error> {
    let prepared = prepared.as_ref().map_err(Clone::clone)?;
    catch_unwind(AssertUnwindSafe(|| {
        fault::poison(&envelope.raw);
        clerk.plan_prepared(store, envelope, prepared)
    }))
    .unwrap_or_else(|panic| Err(Error::internal(panic_message(panic.as_ref()))))
}

/// Reads one letter (read whole if its sender is known in any of the
/// tournaments, with the first one's reading of dates); a panic while
/// reading becomes the letter's error.
pub(super) fn prepare_guarded(
    first: &Config,
    directory: &clerk::Directory,
    envelope: &crate::mail::Envelope,
) -> Result<Prepared, Error> {
    let known = |address: &str| !directory.known_in(address).is_empty();
    catch_unwind(AssertUnwindSafe(|| {
        Prepared::reading(first, envelope, &known)
    }))
    .map_err(|panic| Error::internal(panic_message(panic.as_ref())))
}

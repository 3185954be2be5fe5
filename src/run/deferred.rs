//! What an order leaves to the run once it is committed: letters set aside
//! put back into the mail source (`RETRY KEY`, `shtempel retry`), and the
//! edits of tournaments' files written (`REPLACE`, `ACCEPT KEY AS PLAYER
//! ADDRESS`). Both are kept in the database until done, so that a run
//! killed halfway does them at its next start.

use chrono::NaiveDate;

use crate::clerk::{Event, EventKind};
use crate::error::Error;
use crate::mail::MailSource;
use crate::store::{Quarantined, Store};

/// What became of a letter set aside.
#[derive(Debug, PartialEq, Eq)]
pub enum PutBack {
    /// Among the new letters again: the next read takes it.
    Back,
    /// A file the source could not read (it has no bytes in the database):
    /// marking it done moved it, unread, to the Maildir's `cur/` as `file`;
    /// it is forgotten, for the director to move it back.
    NeverRead { file: String },
}

/// Puts a letter set aside back into the mail source first and forgets it
/// after, so that a run killed between the two leaves it in both (the next
/// read takes it; the copy put back again is the same letter, taken once)
/// and never in none.
pub fn put_back(
    store: &mut Store,
    source: &mut dyn MailSource,
    letter: &Quarantined,
) -> Result<PutBack, Error> {
    if letter.raw.is_empty() {
        store.release(letter)?;
        return Ok(PutBack::NeverRead {
            file: letter.source_key.clone(),
        });
    }
    source
        .put_back(&letter.raw, letter.arrived)
        .map_err(|e| Error::mail(format!("{}: {e}", letter.dedup_key)))?;
    crate::fault::point("after-put-back");
    store.release(letter)?;
    Ok(PutBack::Back)
}

/// The letters the chief arbiter ordered back (`RETRY`), put back before
/// the run reads its new mail; one the source will not take now stays
/// ordered back for the next run.
pub(super) fn put_back_released(
    store: &mut Store,
    source: &mut dyn MailSource,
    events: &mut dyn FnMut(Event),
) -> Result<(), Error> {
    for letter in store.releasing()? {
        let (event, detail) = match put_back(store, source, &letter) {
            Ok(PutBack::Back) => (EventKind::PutBack, letter.dedup_key.clone()),
            Err(error) => (
                EventKind::PutBackFailed,
                format!("{error}; ordered back still, for the next run"),
            ),
            Ok(PutBack::NeverRead { file }) => (
                EventKind::PutBackUnread,
                format!(
                    "{} was never read ({}): the file is in the Maildir's cur/ as {file}",
                    letter.dedup_key, letter.reason
                ),
            ),
        };
        events(Event {
            event,
            game: None,
            from: None,
            detail,
        });
    }
    Ok(())
}

/// Writes the edits of tournaments' files the committed orders left; one
/// that fails (the file gone, no longer writable) is said and kept for the
/// next run, the others go on. Returns how many files changed.
pub fn write_edits(
    store: &mut Store,
    today: NaiveDate,
    events: &mut dyn FnMut(Event),
) -> Result<usize, Error> {
    let mut changed = 0;
    for (id, edit) in store.pending_edits()? {
        crate::fault::point("before-config-edit");
        let (event, detail) = match edit.apply() {
            Ok(written) => {
                changed += usize::from(written);
                crate::fault::point("after-config-edit");
                store.edit_done(id, today)?;
                (
                    EventKind::ConfigEdited,
                    format!("{}: player {}", edit.file.display(), edit.player),
                )
            }
            Err(error) => (
                EventKind::ConfigEditFailed,
                format!(
                    "{error}; player {}'s entry waits for the next run (or make the edit by hand: {})",
                    edit.player,
                    serde_json::to_string(&edit.edit).unwrap_or_default()
                ),
            ),
        };
        events(Event {
            event,
            game: None,
            from: None,
            detail,
        });
    }
    Ok(changed)
}

//! The calendar kept at the end of a pass: each game due a look today,
//! its duties planned and committed; then, from the digest hour, the day's
//! digests.

use chrono::NaiveDate;

use crate::clerk::Clerk;
use crate::error::Error;
use crate::key::GameKey;
use crate::store::Store;
use crate::{clerk, rules};

use super::batch::Batch;
use super::{Summary, commit};

/// The calendar's duties of every game that may have one today; the others
/// (see [`rules::next_check`]) are not even loaded.
pub(super) fn keep_calendar(
    clerk: &Clerk<'_>,
    store: &mut Store,
    checks: &std::collections::HashMap<GameKey, Option<NaiveDate>>,
    batch: &mut Batch,
    summary: &mut Summary,
) -> Result<(), Error> {
    let config = clerk.config;
    let today = clerk.clock.today;
    for game in config.draw().games() {
        if let Some(Some(day)) = checks.get(&config.game_key(&game.id))
            && *day > today
        {
            continue;
        }
        let state = clerk::load_replaying(config, store, game, &clerk.replays)?;
        let plan = clerk.calendar().plan_duties(store, state)?;
        let mut last = None;
        if !plan.writes.duties.is_empty() {
            let cause = format!(
                "duty:{}:{}",
                game.id,
                plan.writes
                    .duties
                    .iter()
                    .map(rules::DutyKey::text)
                    .collect::<Vec<_>>()
                    .join(",")
            );
            last = commit(store, config, clerk, &plan, &cause)?;
            summary.games_changed.insert(config.game_key(&game.id));
        }
        if let Some(state) = &plan.writes.game {
            // A game only a letter can move is looked at again in 9999.
            let never = NaiveDate::from_ymd_opt(9999, 12, 31).unwrap_or(NaiveDate::MAX);
            let next = rules::next_check(&config.rules, &state.ledger, today).unwrap_or(never);
            store.write(config.scope(), |w| w.next_check(&game.id, next))?;
        }
        if !plan.writes.duties.is_empty() {
            batch.add(plan, last, None);
        }
    }
    Ok(())
}

/// From the digest hour (`[mail] digest_hour` of the clerk's zone; any run
/// as of a day given), each reader's kept messages in one letter, once a
/// day: a message kept after the day's digest went waits for the next. A
/// digest whose day has passed (no run after its hour that day) goes with
/// the next run, whatever its hour. A reader who has stopped his digest
/// (`DIGEST NONE`) gets what was kept for him at once, in a last one: its
/// messages were written for a digest.
pub(super) fn send_digests(
    clerk: &Clerk<'_>,
    store: &mut Store,
    batch: &mut Batch,
    summary: &mut Summary,
) -> Result<(), Error> {
    let config = clerk.config;
    let due = clerk
        .clock
        .past_hour(config.timezone, config.mail.digest_hour);
    let today = clerk.clock.today;
    for (address, kept) in store.digest_readers()? {
        let stopped = !store.preferences_of(&address)?.daily();
        let kept = rules::sending::Kept {
            since: kept,
            digest_that_day: store.digest_written(&address, kept)?,
            digest_today: store.digest_written(&address, today)?,
        };
        if !rules::sending::digest_due(kept, today, due, stopped) {
            continue;
        }
        let held = store.held_for_digest(&address)?;
        summary
            .games_changed
            .extend(held.iter().filter_map(|message| message.game.clone()));
        let plan = clerk.calendar().plan_digest(store, &address, &held)?;
        let cause = format!("digest:{address}:{today}");
        let last = commit(store, config, clerk, &plan, &cause)?;
        batch.add(plan, last, None);
    }
    Ok(())
}

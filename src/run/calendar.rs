//! The calendar kept at the end of a pass: each game due a look today,
//! its duties planned and committed.

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

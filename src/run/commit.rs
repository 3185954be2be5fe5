//! A plan written all or nothing, with the composed messages, and what a
//! leave writes in the clerk's other events.

use chrono::{NaiveDate, NaiveTime};

use crate::clerk::{Clerk, LeaveTaken, SaidPlan};
use crate::config::Config;
use crate::error::Error;
use crate::fault;
use crate::mail::format::{compose, identity};
use crate::store::{GameRow, NewOutbox, Store};

/// Writes a plan all or nothing: the letter, the game, notes, duties done and
/// the composed messages. Returns the outbox id of the last message, if any.
pub fn commit(
    store: &mut Store,
    config: &Config,
    clerk: &Clerk<'_>,
    plan: &SaidPlan,
    cause: &str,
) -> Result<Option<i64>, Error> {
    // The letter's plan, then those of the other games it changes, each
    // message's id made from its own cause.
    let plans: Vec<(&SaidPlan, String)> = std::iter::once((plan, cause.to_string()))
        .chain(plan.more.iter().map(|more| {
            let game = more.writes.game.as_ref().map_or("", |game| game.id());
            (more, format!("{cause}/{game}"))
        }))
        .collect();
    let composed = composed(config, clerk, plan, &plans)?;
    let today = clerk.clock.today;
    store
        .write(config.scope(), |w| {
            let letter_id = match &plan.writes.letter {
                Some(letter) => Some(w.letter(letter)?),
                None => None,
            };
            // A leave of the letter's own, or of a letter it brings in (an
            // accepted one's).
            for leave in plans
                .iter()
                .filter_map(|(plan, _)| plan.writes.leave.as_ref())
            {
                if let Some(player) = &leave.here {
                    w.leave(player, leave.days, letter_id, today)?;
                }
            }
            // Every plan's writes, the letter's and those it carries: none
            // is dropped for standing in a carried plan.
            for (plan, _) in &plans {
                if let Some((player, day)) = &plan.writes.leaves_left {
                    w.leaves_left(player, *day)?;
                }
                if let Some((addresses, set)) = &plan.writes.preferences {
                    w.preferences(addresses, *set, today)?;
                }
                for edit in &plan.writes.config_edits {
                    w.config_edit(edit, today)?;
                }
                for key in &plan.writes.releases {
                    w.mark_releasing(key)?;
                }
                for issued in &plan.writes.logins {
                    w.xfcc_login(&issued.username, &issued.login, today)?;
                    w.xfcc_games(&issued.games)?;
                }
            }
            for (index, (plan, _)) in plans.iter().enumerate() {
                // Another letter the first brings in (an acceptance by the
                // arbiter's letter) is kept with its own moves.
                let letter_id = match (&plan.writes.letter, index) {
                    (Some(letter), 1..) => Some(w.letter(letter)?),
                    _ => letter_id,
                };
                write_game(w, plan, letter_id, today)?;
            }
            let mut last = None;
            for message in &composed {
                last = Some(w.outbox(message, today)?);
            }
            if let Some(digest) = last.filter(|_| !plan.writes.digest_of.is_empty()) {
                w.bundle(digest, &plan.writes.digest_of)?;
            }
            fault::point("after-outbox-insert");
            Ok(last)
        })
        .and_then(|mut last| {
            for (plan, _) in &plans {
                if let Some(leave) = &plan.writes.leave {
                    last = leave_elsewhere(store, clerk, leave, &plan.elsewhere, cause)?.or(last);
                }
            }
            Ok(last)
        })
}

/// The messages of `plans` built for the outbox, each with its Message-ID
/// (made from its plan's cause, or its own) and its sender (the event's,
/// or the clerk's alone for a message of no event).
fn composed(
    config: &Config,
    clerk: &Clerk<'_>,
    plan: &SaidPlan,
    plans: &[(&SaidPlan, String)],
) -> Result<Vec<NewOutbox>, Error> {
    let sender = identity::sender(config, clerk.templates.phrases());
    let clerk_alone = identity::clerk_alone(config, clerk.templates.phrases());
    let at = match &plan.writes.letter {
        Some(letter) => letter.arrived,
        None => clerk.clock.today.and_time(NaiveTime::MIN).and_utc(),
    };
    let mut composed = Vec::new();
    for (plan, cause) in plans {
        for (index, message) in plan.messages.iter().enumerate() {
            let kind = message.kind.header();
            let parts = identity::IdParts {
                cause,
                at,
                index,
                kind,
            };
            // Another event's message (a STATUS asked of it): its tag,
            // name and Message-ID.
            let other = message
                .event
                .as_deref()
                .filter(|id| *id != config.tournament_id)
                .and_then(|id| clerk.sibling(id));
            let other_sender = other
                .as_ref()
                .map(|other| identity::sender(other.config, other.templates.phrases()));
            let (id, sender) = match (message.of_event, &other, &other_sender) {
                (true, Some(other), Some(other_sender)) => {
                    (identity::message_id(other.config, parts), other_sender)
                }
                (true, _, _) => (identity::message_id(config, parts), &sender),
                (false, _, _) => (
                    identity::message_id_of_no_event(config, parts),
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
                digest_for: message.digest_for.clone(),
            });
        }
    }
    Ok(composed)
}

/// A plan's game written: its moves taken back, its row and new moves, its
/// notes, duties done and seats.
fn write_game(
    w: &crate::store::Writer<'_>,
    plan: &SaidPlan,
    letter_id: Option<i64>,
    today: NaiveDate,
) -> Result<(), Error> {
    let Some(state) = &plan.writes.game else {
        return Ok(());
    };
    if let Some(from) = plan.writes.taken_back {
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
        today,
    )?;
    for note in &plan.writes.notes {
        w.note(state.id(), note)?;
    }
    for key in &plan.writes.duties {
        w.duty_done(state.id(), key, today)?;
    }
    for seat in &plan.writes.seats {
        w.seat(state.id(), seat, today)?;
    }
    Ok(())
}

/// A leave is the person's: in the clerk's other events that grant it
/// (decided by the leave's plan, each by its own allowance), it is
/// recorded under his entry there, and the partners of his games are told
/// by those events' clerks, in their words, with a note under each game's
/// chart (`elsewhere`, the plans the clerk made of it). Committed after the
/// leave, in the same batch. Returns the outbox id of the last notice, if
/// any.
pub(super) fn leave_elsewhere(
    store: &mut Store,
    clerk: &Clerk<'_>,
    leave: &LeaveTaken,
    elsewhere: &[(crate::clerk::EntryThere, SaidPlan)],
    cause: &str,
) -> Result<Option<i64>, Error> {
    let mut last = None;
    for (entry, plan) in elsewhere {
        let Some(sibling) = clerk.sibling(&entry.tournament) else {
            continue;
        };
        let today = sibling.clock.today;
        let scope = sibling.config.scope();
        store.write(scope, |w| w.leave(&entry.player, leave.days, None, today))?;
        let cause = format!("{cause}/leave/{}", entry.tournament);
        last = commit(store, sibling.config, &sibling, plan, &cause)?.or(last);
    }
    Ok(last)
}

//! The day's replies to one address held to `max_replies_per_day` (twice
//! the person's games, where that is more): the first over the limit
//! becomes one notice, a refusal is held to a later day rather than
//! dropped, a correction always goes.

use crate::clerk::say::notice::Notice;
use crate::clerk::{Clerk, EventKind, Plan};
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::render::Model;
use crate::store::Store;
use chrono::NaiveDate;
use std::collections::HashMap;

impl Clerk<'_> {
    /// Replies that would pass `max_replies_per_day` to one address are
    /// dropped; the first one over the limit becomes a single notice, in the
    /// thread and under the tag of its game. A refusal is never dropped: a
    /// player whose letter changed nothing is always told. Past the limit it
    /// is held to the first later day with room (it counts there), so that a
    /// mail loop with a careless auto-responder stays at the limit a day.
    pub(in crate::clerk) fn limit_replies(
        &self,
        store: &Store,
        mut plan: Plan,
    ) -> Result<Plan, Error> {
        let Some(sender) = plan.writes.letter.as_ref().and_then(|l| l.sender.clone()) else {
            return Ok(plan);
        };
        // Replies go to a player's first address, whichever he wrote from.
        let player = self.config.player_by_email(&sender);
        let sender = player.map_or(sender, |player| player.email.clone());
        // A person of many games writes many letters he is right to write:
        // two answers a game (a receipt and a correction) before the limit.
        let games: usize = player.map_or(0, |player| {
            std::iter::once((self.config, player))
                .chain(self.others_of_the_person(player))
                .map(|(config, entry)| config.draw().games_of(&entry.id).len())
                .sum()
        });
        let max = self
            .config
            .limits
            .max_replies_per_day
            .max(u32::try_from(2 * games).unwrap_or(u32::MAX));
        let today = self.clock.today;
        // Corrections are not counted: they always go.
        let counted: Vec<&str> = MessageKind::reply_headers()
            .into_iter()
            .filter(|header| *header != MessageKind::Correction.header())
            .collect();
        let replies_on = |day| store.replies_on(&sender, day, &counted);
        let mut sent = replies_on(today)?;
        // Refusals this plan holds, by day, on top of the stored ones.
        let mut held: HashMap<NaiveDate, u32> = HashMap::new();
        let mut kept = Vec::with_capacity(plan.messages.len());
        for message in std::mem::take(&mut plan.messages) {
            // A correction tells him his letter's numbers were wrong: it
            // always goes, uncounted (a loop of letters never makes one).
            let reply = message.kind.is_reply()
                && message.kind != MessageKind::Correction
                && message.to.first().is_some_and(|to| to.email == sender);
            if !reply || sent < max {
                sent += u32::from(reply);
                kept.push(message);
                continue;
            }
            if sent == max {
                sent += 1;
                kept.push(self.limit_notice(&sender, &message, max)?);
                let game = message.game.as_deref().map(|g| self.config.game_key(g));
                plan.event(
                    EventKind::ReplyLimit,
                    game.as_ref(),
                    Some(&sender),
                    format!(
                        "{max} replies today: one notice, refusals held to a later day, \
                         corrections sent"
                    ),
                );
            }
            let refusal = matches!(message.kind, MessageKind::Refused | MessageKind::Withheld);
            if refusal {
                let room = |day| Ok(replies_on(day)? + held.get(&day).copied().unwrap_or(0) < max);
                let day = first_day_after(today, room)?;
                *held.entry(day).or_default() += 1;
                kept.push(self.hold(message, day, max)?);
            } else if message.delivers.is_some() {
                // A reply that carries a move (a conditional reply) still goes.
                kept.push(message);
            }
        }
        plan.messages = kept;
        Ok(plan)
    }

    /// A refusal held to `day`, its facts saying so: it describes the
    /// letter as it was, and offers no lines for a game that may have moved on.
    fn hold(&self, mut message: Notice, day: NaiveDate, max: u32) -> Result<Notice, Error> {
        let held = model! {
            "held" => crate::clerk::say::words::date(day),
            "limit" => max,
            "next" => Model::from(()),
        };
        message.with(held);
        message.send_on = Some(day);
        Ok(message)
    }

    /// The notice that the day's `max` replies to `sender` are used up, in
    /// the thread and under the tag of the reply it replaces, naming the
    /// sender's games when he plays more than one (by their tags where he
    /// plays in several events).
    fn limit_notice(&self, sender: &str, replaced: &Notice, max: u32) -> Result<Notice, Error> {
        let games: Vec<String> = match self.config.player_by_email(sender) {
            Some(player) if self.others_of_the_person(player).next().is_some() => {
                self.tags_of(player)
            }
            Some(player) => self
                .config
                .draw()
                .games_of(&player.id)
                .into_iter()
                .map(|g| g.id.clone())
                .collect(),
            None => Vec::new(),
        };
        let model = model! {
            "count" => max,
            "game" => replaced.game.as_deref(),
            "games" => if games.len() > 1 { games } else { Vec::new() },
        };
        let mut notice = self
            .draft(MessageKind::Limit)
            .each_of(replaced.to.clone())
            .answering(replaced.in_reply_to.clone())
            .notice(model);
        notice.game = replaced.game.clone();
        Ok(notice)
    }
}

/// The first day after `today` that `room` finds room on.
fn first_day_after(
    today: NaiveDate,
    room: impl Fn(NaiveDate) -> Result<bool, Error>,
) -> Result<NaiveDate, Error> {
    let mut day = today;
    loop {
        day = day
            .succ_opt()
            .ok_or_else(|| Error::internal("no day after the last"))?;
        if room(day)? {
            return Ok(day);
        }
    }
}

//! The day's replies to one address held to `max_replies_per_day`: the
//! first over the limit becomes one notice, a refusal is held to a later
//! day rather than dropped.

use crate::clerk::{Clerk, EventKind, Plan};
use crate::error::Error;
use crate::mail::format::compose::Outgoing;
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
        let Some(sender) = plan.letter.as_ref().and_then(|l| l.sender.clone()) else {
            return Ok(plan);
        };
        // Replies go to a player's first address, whichever he wrote from.
        let sender = match self.config.player_by_email(&sender) {
            Some(player) => player.email.clone(),
            None => sender,
        };
        let max = self.config.limits.max_replies_per_day;
        let today = self.clock.today;
        let replies_on = |day| store.replies_on(&sender, day, &MessageKind::reply_headers());
        let mut sent = replies_on(today)?;
        // Refusals this plan holds, by day, on top of the stored ones.
        let mut held: HashMap<NaiveDate, u32> = HashMap::new();
        let mut kept = Vec::with_capacity(plan.messages.len());
        for message in std::mem::take(&mut plan.messages) {
            let reply =
                message.kind.is_reply() && message.to.first().is_some_and(|to| to.email == sender);
            if !reply || sent < max {
                sent += u32::from(reply);
                kept.push(message);
                continue;
            }
            if sent == max {
                sent += 1;
                kept.push(self.limit_notice(&sender, &message)?);
                let game = message.game.as_deref().map(|g| self.config.game_key(g));
                plan.event(
                    EventKind::ReplyLimit,
                    game.as_ref(),
                    Some(&sender),
                    format!("{max} replies today: one notice, refusals held to a later day"),
                );
            }
            let refusal = matches!(message.kind, MessageKind::Refused | MessageKind::Withheld);
            if refusal {
                let mut day = today;
                loop {
                    day = day
                        .succ_opt()
                        .ok_or_else(|| Error::internal("no day after the last"))?;
                    let count = replies_on(day)? + held.get(&day).copied().unwrap_or(0);
                    if count < max {
                        break;
                    }
                }
                *held.entry(day).or_default() += 1;
                kept.push(self.hold(message, day)?);
            } else if message.delivers.is_some() {
                // A reply that carries a move (a conditional reply) still goes.
                kept.push(message);
            }
        }
        plan.messages = kept;
        Ok(plan)
    }

    /// A refusal held to `day`, rendered again to say so: it describes the
    /// letter as it was, and offers no lines for a game that may have moved on.
    fn hold(&self, mut message: Outgoing, day: NaiveDate) -> Result<Outgoing, Error> {
        let held = model! {
            "held" => self.date(day),
            "limit" => self.config.limits.max_replies_per_day,
            "next" => Model::from(()),
        };
        self.render_again(&mut message, held)?;
        message.send_on = Some(day);
        Ok(message)
    }

    /// The notice that the day's replies to `sender` are used up, in the
    /// thread and under the tag of the reply it replaces, naming the
    /// sender's games when he plays more than one.
    fn limit_notice(&self, sender: &str, replaced: &Outgoing) -> Result<Outgoing, Error> {
        let games: Vec<String> = match self.config.player_by_email(sender) {
            Some(player) => self.config.games_of(&player.id),
            None => Vec::new(),
        }
        .into_iter()
        .map(|g| g.id.clone())
        .collect();
        let model = model! {
            "count" => self.config.limits.max_replies_per_day,
            "game" => replaced.game.as_deref(),
            "games" => if games.len() > 1 { games } else { Vec::new() },
        };
        let mut notice = self
            .draft(MessageKind::Limit)
            .each_of(replaced.to.clone())
            .answering(replaced.in_reply_to.clone())
            .render(model)?;
        notice.game = replaced.game.clone();
        Ok(notice)
    }
}

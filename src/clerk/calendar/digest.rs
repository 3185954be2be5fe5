//! The day's digest to a reader who asked for one (`DIGEST DAILY`): the
//! messages kept for him since his last, in one letter, sent from the
//! digest hour (`[mail] digest_hour`). The games where he must move come
//! first, each with his days left and his last day counted from the
//! digest's day, which is the day the moves in it reach him (rules.md 2.2:
//! the day the clerk's message reaches him). A reminder kept for it says
//! nothing the games' list does not: it is sent with the digest, not
//! repeated in it.

use chrono::NaiveDate;

use crate::clerk::say::words;
use crate::clerk::{Calendar, EventKind, Plan, SaidPlan, Writes};
use crate::error::Error;
use crate::mail::format::compose::Recipient;
use crate::mail::format::mime;
use crate::message::MessageKind;
use crate::model;
use crate::render::Model;
use crate::store::{HeldMessage, Store};

/// A game of the digest where its reader is to move.
struct ToMove {
    last_day: NaiveDate,
    model: Model,
    game: crate::key::GameKey,
}

impl Calendar<'_, '_> {
    /// The digest of `held` (the messages kept for `address`, oldest
    /// first), said to him.
    pub fn plan_digest(
        &self,
        store: &Store,
        address: &str,
        held: &[HeldMessage],
    ) -> Result<SaidPlan, Error> {
        let tournaments = self.directory.tournaments();
        let reader = tournaments
            .iter()
            .find_map(|config| config.player_by_email(address));
        let to_move = self.games_to_move(store, address, held)?;
        let first: Vec<&crate::key::GameKey> = to_move.iter().map(|game| &game.game).collect();
        // The messages of the games he must move in first, in their order;
        // the rest as they came. Reminders are in the games' list.
        let mut items: Vec<(usize, &HeldMessage)> = held
            .iter()
            .filter(|message| message.kind != MessageKind::Reminder.header())
            .map(|message| {
                let place = message
                    .game
                    .as_ref()
                    .and_then(|game| first.iter().position(|g| *g == game))
                    .unwrap_or(first.len());
                (place, message)
            })
            .collect();
        items.sort_by_key(|(place, message)| (*place, message.id));
        let items: Vec<Model> = items
            .iter()
            .filter_map(|(_, message)| {
                let mail = mime::parse(&message.raw, &self.config.address)?;
                Some(model! {
                    "subject" => mail.subject,
                    "text" => mail.text.trim_end().to_string(),
                })
            })
            .collect();
        let name = reader.map_or(address, |player| player.name.as_str());
        let mut notice = self
            .draft(MessageKind::Digest)
            .to(Recipient {
                name: name.to_string(),
                email: address.to_string(),
            })
            .notice(model! {
                "games" => to_move.into_iter().map(|game| game.model).collect::<Vec<_>>(),
                "items" => items,
                "count" => held.len(),
                "moves" => held.iter().any(|m| m.kind == MessageKind::Forward.header()),
            });
        notice.of_event = false;
        notice.generated = true;
        let mut plan = Plan::writing(Writes {
            digest_of: held.iter().map(|message| message.id).collect(),
            ..Writes::default()
        });
        plan.messages.push(notice);
        let said = format!("digest of {} message(s) to {address}", held.len());
        plan.event(EventKind::Digest, None, Some(address), said);
        self.said(store, plan)
    }

    /// The games of `held` where `address` is to move once they reach him
    /// today, the most urgent first.
    fn games_to_move(
        &self,
        store: &Store,
        address: &str,
        held: &[HeldMessage],
    ) -> Result<Vec<ToMove>, Error> {
        let today = self.clock.today;
        let mut games: Vec<ToMove> = Vec::new();
        for key in held.iter().filter_map(|message| message.game.as_ref()) {
            if games.iter().any(|game| &game.game == key) {
                continue;
            }
            let Some(config) = self
                .directory
                .tournaments()
                .iter()
                .find(|config| config.scope() == key.tournament())
            else {
                continue;
            };
            let Some(game) = config.draw().game(key.game()) else {
                continue;
            };
            let state = crate::clerk::load(config, store, game)?;
            let Some(color) = state.color_of(address) else {
                continue;
            };
            let Some(due) = state
                .ledger
                .due_if_delivered(&config.rules, today)
                .filter(|due| due.player == color)
            else {
                continue;
            };
            let tag = format!("{} #{}", config.tournament_id, state.id());
            games.push(ToMove {
                last_day: due.last_day,
                game: key.clone(),
                model: model! {
                    "tag" => tag,
                    "game" => state.id(),
                    "white" => state.white.name.as_str(),
                    "black" => state.black.name.as_str(),
                    "color" => crate::color_name(color),
                    "days_left" => due.days_left,
                    "last_day" => words::date(due.last_day),
                },
            });
        }
        games.sort_by_key(|game| game.last_day);
        Ok(games)
    }
}

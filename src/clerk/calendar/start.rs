//! Start sheets by mail (10.3.2): each player's sheet
//! (the event, its dates and time control, his games with colours and
//! partners, the lines of a first letter), by registered letter. The day the
//! transport accepted it is the day he received it: a sheet accepted after
//! the start date starts his clock the day after (`load::sheet_received`),
//! as if the director had written `start_sheet_received`.
//!
//! Who gets one: a player with no sheet in the outbox yet (its Message-ID
//! is fixed by his id: `shtempel start` twice sends nothing twice), no
//! `start_sheet_received` in the config (the director recorded his sheet
//! by hand), and no move in any of his games (a sheet mailed to a player
//! already playing would move his start after the fact). The others are
//! said, with why, and nothing is sent to them.

use crate::clerk::EventKind;
use shakmaty::Color;

use crate::clerk::{Calendar, Plan, recipient};
use crate::config::{GameConfig, Player};
use crate::error::Error;
use crate::mail::format::identity;
use crate::message::MessageKind;
use crate::model;
use crate::render::Model;
use crate::store::Store;

/// A start sheet to send, or why a player gets none.
pub enum Sheet {
    /// The plan holding his sheet, under its fixed Message-ID.
    Send {
        player: String,
        plan: Box<crate::clerk::SaidPlan>,
    },
    /// No sheet for him, and why.
    Skip { player: String, why: String },
}

impl Calendar<'_, '_> {
    /// Every player's start sheet, or why he gets none.
    pub fn start_sheets(&self, store: &Store) -> Result<Vec<Sheet>, Error> {
        let players = &self.config.players;
        players
            .iter()
            .map(|player| self.start_sheet(store, player))
            .collect()
    }

    /// `player`'s start sheet, or why he gets none.
    fn start_sheet(&self, store: &Store, player: &Player) -> Result<Sheet, Error> {
        let config = self.config;
        let id = identity::start_sheet_id(config, &player.id);
        let skip = |why: &str| {
            Ok(Sheet::Skip {
                player: player.id.clone(),
                why: why.to_string(),
            })
        };
        match store.accepted_on(&id)? {
            Some(Some(day)) => return skip(&format!("sent before, accepted {}", self.date(day))),
            Some(None) => return skip("made before, waiting in the outbox"),
            None => {}
        }
        if player.start_sheet_received.is_some() {
            return skip("start_sheet_received is in the config");
        }
        let games = config.draw().games_of(&player.id);
        if games.is_empty() {
            return skip("no games");
        }
        let Some(listed) = self.sheet_games(store, player, &games)? else {
            return skip("the player's games are under way");
        };
        // A round robin made from the players' list: his number in the draw.
        let draw_number = config.pairing.and_then(|_| {
            let at = config.players.iter().position(|p| p.id == player.id)?;
            Some(at + 1)
        });
        let rules = &config.rules;
        // Sent today, it reaches him today: the day his clock starts,
        // said as a day.
        let today = self.clock.today;
        let starts = crate::rules::calendar::clock_start(config.start_date, Some(today));
        let extra = model! {
            "sent" => crate::clerk::say::words::date(today),
            "late" => starts > config.start_date,
            "clock_start" => crate::clerk::say::words::date(starts),
            "start" => crate::clerk::say::words::date(config.start_date),
            "end" => crate::clerk::say::words::date(config.end_date),
            "days_per_control" => rules.days_per_control,
            "moves_per_control" => rules.moves_per_control,
            "clerk" => config.address.as_str(),
            "games" => Model::from(listed.lines),
            "draw_number" => draw_number,
            "firsts" => Model::from(listed.firsts),
            "blacks" => games.iter().any(|g| g.black == player.id),
        };
        let mut message = self
            .draft(MessageKind::StartSheet)
            .to(recipient(player))
            .notice(extra);
        message.generated = true;
        message.registered = true;
        message.message_id = Some(id);
        let mut plan = Plan::default();
        plan.messages.push(message);
        plan.event(
            EventKind::StartSheet,
            None,
            Some(&player.email),
            format!("{}: start sheet, {} game(s)", player.id, games.len()),
        );
        Ok(Sheet::Send {
            player: player.id.clone(),
            plan: Box::new(self.said(store, plan)?),
        })
    }

    /// What a start sheet lists of `player`'s games: a line for each, and
    /// the lines of a first letter for each he opens with White; `None`
    /// where one of them is under way.
    fn sheet_games(
        &self,
        store: &Store,
        player: &Player,
        games: &[&GameConfig],
    ) -> Result<Option<SheetGames>, Error> {
        let config = self.config;
        let mut listed = SheetGames::default();
        for game in games {
            let state = crate::clerk::load_replaying(config, store, game, &self.replays)?;
            if !state.ledger.rows.is_empty() {
                return Ok(None);
            }
            let color = state
                .color_of(&player.email)
                .ok_or_else(|| Error::internal("player not in his game"))?;
            let partner = state.player(!color);
            listed.lines.push(model! {
                "id" => state.id(),
                "white" => color == Color::White,
                "partner" => partner.name.as_str(),
                "partner_email" => partner.email.as_str(),
                "tag" => crate::key::SubjectTag::game(&config.tournament_id, state.id()).to_string(),
                "start" => crate::clerk::say::words::date_of(game.start_date),
                "round" => game.round,
            });
            if color == Color::White {
                let first = crate::clerk::next_lines(&state, Color::White, None);
                listed.firsts.push(first);
            }
        }
        Ok(Some(listed))
    }
}

/// A start sheet's games: a line for each, and the first letter's lines
/// of each he opens.
#[derive(Default)]
struct SheetGames {
    lines: Vec<Model>,
    firsts: Vec<Model>,
}

//! A player replaced (issue 23: `shtempel replace PLAYER --was "…"`): the
//! director gives his entry a new name and address in the config, keeping
//! his id, and his games go on as they stand. The newcomer is sent his
//! games (colour, partner and address, the time used, who is to move and
//! by when); each partner and the chief secretary are told who plays now;
//! each game's chart has a note.

use super::{Clerk, Plan, recipient};
use crate::message::MessageKind;
use crate::model;
use crate::store::Store;

impl Clerk<'_> {
    /// The plan of `player`'s replacement (he is the newcomer, as the
    /// config now has him; `was` names whom he replaces), or the words for
    /// the director of why there is none.
    pub fn replace(
        &self,
        store: &Store,
        player: &str,
        was: &str,
        why: Option<&str>,
    ) -> Result<Result<Plan, String>, String> {
        let phrases = self.phrases();
        let Some(newcomer) = self.config.player(player) else {
            let known: Vec<&str> = self.config.players.iter().map(|p| p.id.as_str()).collect();
            let reason = phrases.fill(
                "reason.no_player",
                &[("player", &player), ("players", &known.join(", "))],
            );
            return Ok(Err(reason));
        };
        let today = self.date(self.clock.today);
        let because = super::because(why);
        let mut plan = Plan::default();
        let mut games = Vec::new();
        for game in self.config.games_of(player) {
            let state = super::load_replaying(self.config, store, game, &self.replays)?;
            if !state.ledger.in_play() {
                continue;
            }
            let (colour, partner) = if state.white.id == player {
                (shakmaty::Color::White, &state.black)
            } else {
                (shakmaty::Color::Black, &state.white)
            };
            let due = state.ledger.due(&self.config.rules, self.clock.today);
            let due_model = due.map(|due| {
                model! {
                    "player" => state.player(due.player).name.as_str(),
                    "last_day" => self.date(due.last_day),
                }
            });
            games.push(model! {
                "id" => state.id(),
                "colour" => phrases.get(&format!("names.{}", crate::color_name(colour))),
                "partner" => partner.name.as_str(),
                "address" => partner.email.as_str(),
                "moves" => state.ledger.moves_made(colour),
                "totals" => state.ledger.totals().to_string(),
                "due" => due_model.clone(),
            });
            let mut more = Plan::default();
            more.notes.push(self.note(
                "replaced",
                phrases.fill(
                    "note.replaced",
                    &[
                        ("was", &was),
                        ("player", &newcomer.name),
                        ("date", &today),
                        ("why", &because),
                    ],
                ),
            ));
            let notice = model! {
                "was" => was,
                "player" => newcomer.name.as_str(),
                "address" => newcomer.email.as_str(),
                "why" => why,
                "due" => due_model,
            };
            more.messages.push(self.message(
                MessageKind::Replaced,
                Some(&state),
                vec![recipient(partner)],
                vec![self.secretary()],
                notice,
                None,
            )?);
            more.event(
                "replaced",
                Some(state.id()),
                None,
                format!("{was} by {}", newcomer.name),
            );
            more.game = Some(state);
            plan.more.push(more);
        }
        if games.is_empty() {
            let reason = phrases.fill("reason.nothing_replaced", &[("player", &newcomer.name)]);
            return Ok(Err(reason));
        }
        let welcome = model! {
            "was" => was,
            "why" => why,
            "games" => games,
        };
        plan.messages.push(self.message(
            MessageKind::Replacement,
            None,
            vec![recipient(newcomer)],
            vec![self.secretary()],
            welcome,
            None,
        )?);
        for more in &plan.more {
            plan.events.extend(more.events.iter().cloned());
        }
        Ok(Ok(plan))
    }
}

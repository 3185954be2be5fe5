//! The ends of a game by words (a resignation, an accepted draw) and every
//! result's message to both players and the chief secretary.

use super::EventKind;
use super::letters::LetterContext;
use super::{Clerk, Plan};
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules::life::{accept_draw, resign};
use crate::rules::{Effect, Outcome, Transition};
use crate::store::{Disposition, Store, StoredLetter};

impl Clerk<'_> {
    pub(super) fn plan_resignation(
        &self,
        state: &mut Record,
        context: &LetterContext<'_>,
        stored: &mut StoredLetter,
    ) -> Result<Plan, Error> {
        match resign(&state.ledger, context.color) {
            Ok(transition) => self.ended_by_letter(state, context, transition, stored),
            Err(refusal) => {
                let reason = self.refusal_reason(&refusal, state.id());
                self.refuse(state, context, vec![reason], stored)
            }
        }
    }

    /// An acceptance of a draw; one with no offer standing that also moves
    /// is a move letter.
    pub(super) fn plan_draw_acceptance(
        &self,
        store: &Store,
        state: &mut Record,
        context: &LetterContext<'_>,
        stored: &mut StoredLetter,
    ) -> Result<Plan, Error> {
        match accept_draw(&state.ledger, context.color, context.read.has_moves()) {
            Ok(Some(transition)) => self.ended_by_letter(state, context, transition, stored),
            Ok(None) => self.plan_move(store, state, context, stored),
            Err(refusal) => {
                let reason = self.refusal_reason(&refusal, state.id());
                self.refuse(state, context, vec![reason], stored)
            }
        }
    }

    fn ended_by_letter(
        &self,
        state: &mut Record,
        context: &LetterContext<'_>,
        transition: Transition,
        stored: &mut StoredLetter,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        state.ledger = transition.ledger;
        for effect in transition.effects {
            if let Effect::Result { outcome, .. } = effect {
                stored.disposition = Disposition::Applied;
                stored.reason = outcome.reason.code().to_string();
                let in_reply_to = context.mail.message_id.clone();
                plan.absorb(self.plan_result(state, outcome, None, in_reply_to)?);
            }
        }
        Ok(plan)
    }

    /// Results to both players and the chief secretary: the plan of their
    /// messages and the result's event.
    pub(super) fn plan_result(
        &self,
        state: &Record,
        outcome: Outcome,
        last_move: Option<(String, usize)>,
        in_reply_to: Option<String>,
    ) -> Result<Plan, Error> {
        // Nobody set it: the board or the players' words ended the game.
        let by_nobody = model! {
            "who" => Option::<String>::None,
            "why" => Option::<String>::None,
            "previous" => Option::<String>::None,
        };
        self.plan_result_with(state, outcome, last_move, in_reply_to, by_nobody)
    }

    /// The same, with more for the template (`extra`: who set it and why).
    pub(super) fn plan_result_with(
        &self,
        state: &Record,
        outcome: Outcome,
        last_move: Option<(String, usize)>,
        in_reply_to: Option<String>,
        extra: Model,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let result = outcome.result.pgn();
        let reason = outcome.reason.code();
        let winner = outcome.result.winner();
        let model = crate::render::merged(
            extra,
            model! {
                "result" => result,
                "reason" => reason,
                "winner" => winner.map(|color| state.player(color).name.clone()),
                "winner_color" => winner.map(crate::color_name),
                "loser" => winner.map(|color| state.player(!color).name.clone()),
                "loser_color" => winner.map(|color| crate::color_name(!color)),
                "move" => last_move.as_ref().map(|(m, _)| m.clone()),
            },
        );
        let letters = self
            .draft(MessageKind::Result)
            .of(state)
            .cc(self.secretary())
            .answering(in_reply_to)
            .render_to_each_player(model)?;
        for (reader, mut letter) in letters {
            // The last move reaches its author's partner with his letter.
            let delivered = last_move.as_ref().map(|(_, ply)| *ply).filter(|ply| {
                state
                    .ledger
                    .rows
                    .get(*ply)
                    .is_some_and(|row| row.by != reader)
            });
            letter.delivers = delivered;
            plan.messages.push(letter);
        }
        plan.event(
            EventKind::Result,
            Some(&state.key),
            None,
            format!("{result} ({reason})"),
        );
        Ok(plan)
    }
}

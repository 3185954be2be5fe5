//! A game's end as told: the result's messages and notes, for a letter's
//! resignation or draw, the arbiter's award and the director's result.

use crate::clerk::EventKind;
use crate::clerk::{Clerk, Plan};
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules::Outcome;

impl Clerk<'_> {
    /// Results to both players and the chief secretary: the plan of their
    /// messages and the result's event.
    pub(in crate::clerk) fn plan_result(
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
    pub(in crate::clerk) fn plan_result_with(
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
                "move" => last_move.as_ref().map(|(m, _)| crate::clerk::say::words::moves(m)),
            },
        );
        let letters = self
            .draft(MessageKind::Result)
            .of(state)
            .cc(self.secretary())
            .answering(in_reply_to)
            .notice_to_each_player(model)?;
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

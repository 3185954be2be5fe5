//! The ends of a game by words (a resignation, an accepted draw) and every
//! result's message to both players and the chief secretary.

use crate::clerk::Letters;
use crate::clerk::context::LetterContext;
use crate::clerk::{Clerk, Fate, Plan, Writes};
use crate::error::Error;
use crate::record::Record;
use crate::rules::life::{accept_draw, resign};
use crate::rules::{Ended, Step};
use crate::store::Store;

impl Letters<'_, '_> {
    pub(in crate::clerk) fn plan_resignation(
        &self,
        state: &Record,
        context: &LetterContext<'_>,
    ) -> Result<Plan, Error> {
        match resign(&state.ledger, context.color) {
            Ok(transition) => self.ended_by_letter(state, context, transition),
            Err(refusal) => {
                let reason = Clerk::refusal_reason(&refusal, state.id());
                self.refuse(state, context, vec![reason])
            }
        }
    }

    /// An acceptance of a draw; one with no offer standing that also moves
    /// is a move letter.
    pub(in crate::clerk) fn plan_draw_acceptance(
        &self,
        store: &Store,
        state: &Record,
        context: &LetterContext<'_>,
    ) -> Result<Plan, Error> {
        match accept_draw(&state.ledger, context.color, context.read.has_moves()) {
            Ok(Some(transition)) => self.ended_by_letter(state, context, transition),
            Ok(None) => self.plan_move(store, state, context),
            Err(refusal) => {
                let reason = Clerk::refusal_reason(&refusal, state.id());
                self.refuse(state, context, vec![reason])
            }
        }
    }

    fn ended_by_letter(
        &self,
        state: &Record,
        context: &LetterContext<'_>,
        ended: Step<Ended>,
    ) -> Result<Plan, Error> {
        let state = Record {
            ledger: ended.ledger,
            ..state.clone()
        };
        let outcome = ended.effect.outcome;
        let in_reply_to = context.mail.message_id.clone();
        let mut plan = Plan::writing(Writes {
            fate: Some(Fate::applied(outcome.reason.code())),
            ..Writes::default()
        });
        plan.absorb(self.plan_result(&state, outcome, None, in_reply_to)?);
        plan.writes.game = Some(state);
        Ok(plan)
    }
}

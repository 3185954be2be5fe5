//! The ends of a game by words (a resignation, an accepted draw) and every
//! result's message to both players and the chief secretary.

use crate::clerk::context::LetterContext;
use crate::clerk::{Clerk, Plan};
use crate::error::Error;
use crate::record::Record;
use crate::rules::life::{accept_draw, resign};
use crate::rules::{Ended, Step};
use crate::store::{Disposition, Store, StoredLetter};

impl Clerk<'_> {
    pub(in crate::clerk) fn plan_resignation(
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
    pub(in crate::clerk) fn plan_draw_acceptance(
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
        ended: Step<Ended>,
        stored: &mut StoredLetter,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        state.ledger = ended.ledger;
        let outcome = ended.effect.outcome;
        stored.disposition = Disposition::Applied;
        stored.reason = outcome.reason.code().to_string();
        let in_reply_to = context.mail.message_id.clone();
        plan.absorb(self.plan_result(state, outcome, None, in_reply_to)?);
        Ok(plan)
    }
}

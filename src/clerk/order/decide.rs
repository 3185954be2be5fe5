//! `CONFIRM 3`, `REJECT 3 7`, `CONTINUE 3` (ПОДТВЕРДИТЬ, ОТКЛОНИТЬ,
//! ПРОДОЛЖИТЬ): the chief arbiter's decision on an overstep (rules.md
//! 2.5.5), with the days he excuses and his reason.

use super::{Command, Execution};
use crate::clerk::{AwardedBy, Clerk, Plan};
use crate::error::Error;
use crate::rules::Decision;
use crate::store::Store;

#[derive(Clone, Debug)]
pub struct Decide {
    pub game: String,
    pub decision: Decision,
    pub days: Option<u32>,
    /// The arbiter's reason after his words, told to the players.
    pub why: Option<String>,
}

impl Command for Decide {
    fn named(&self) -> String {
        format!("game {}", self.game)
    }

    fn cause(&self, _: &Plan) -> String {
        format!("decision:{}:{}", self.game, self.decision.code())
    }

    fn carry_out(
        &self,
        clerk: &Clerk<'_>,
        store: &Store,
        _: AwardedBy,
        in_reply_to: Option<String>,
    ) -> Result<Execution, Error> {
        let decided = (self.decision, self.days, self.why.as_deref());
        clerk.decide(store, &self.game, decided, in_reply_to)
    }
}

//! `RESULT 3 1-0` and `FORFEIT 3 WHITE` (РЕЗУЛЬТАТ, ТЕХПОРАЖЕНИЕ), or
//! `shtempel result` / `shtempel forfeit`: a game's result set, or a
//! forfeit scored.

use super::{Carried, Command, Execution, Ordered};
use crate::clerk::say::words::Sentence;
use crate::clerk::{Award, Orders};
use crate::rules::interventions::Scored;
use crate::store::Store;

#[derive(Clone, Debug)]
pub struct Score {
    pub game: String,
    pub scored: Scored,
    pub why: Option<String>,
}

impl Command for Score {
    fn named(&self) -> String {
        format!("game {}", self.game)
    }

    fn cause(&self, _: Option<usize>) -> String {
        let how = match self.scored {
            Scored::Forfeit(_) => "forfeit",
            Scored::Result(_) => "result",
        };
        format!("award:{}:{}:{how}", self.game, self.scored.result().pgn())
    }

    fn carry_out(&self, clerk: &Orders, store: &Store, ordered: Ordered) -> Carried {
        let Ordered { by, in_reply_to } = ordered;
        let award = Award {
            scored: self.scored,
            why: self.why.clone().map(Sentence::written),
            by,
        };
        let planned = clerk
            .game_by_command(store, &self.game)
            .and_then(|state| clerk.plan_award(state, &award, in_reply_to));
        Execution::of(planned, "result not changed", |id| {
            format!("result {} {id}", self.scored.result().pgn())
        })
    }
}

//! `UNDO 3 he misread` (ОТМЕНИТЬ), or `shtempel undo 3`: a game's last
//! letter taken back.

use super::{Carried, Command, Execution, Ordered};
use crate::clerk::Orders;
use crate::store::Store;

#[derive(Clone, Debug)]
pub struct Undo {
    pub game: String,
    pub why: Option<String>,
}

impl Command for Undo {
    fn named(&self) -> String {
        format!("game {}", self.game)
    }

    fn cause(&self, taken_back: Option<usize>) -> String {
        format!("undo:{}:{}", self.game, taken_back.unwrap_or(0))
    }

    fn carry_out(&self, clerk: &Orders, store: &Store, ordered: Ordered) -> Carried {
        let Ordered { by, in_reply_to } = ordered;
        let planned = clerk
            .game_by_command(store, &self.game)
            .and_then(|state| clerk.plan_undo(state, self.why.as_deref(), by, in_reply_to));
        Execution::of(planned, "nothing taken back", |id| format!("undo {id}"))
    }
}

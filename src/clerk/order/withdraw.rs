//! `WITHDRAW ivanov illness` (ВЫБЫТИЕ), or `shtempel withdraw ivanov`: a
//! player withdraws.

use super::{Command, Execution};
use crate::clerk::{AwardedBy, Clerk, Plan, Refused};
use crate::error::Error;
use crate::store::Store;

#[derive(Clone, Debug)]
pub struct Withdraw {
    pub player: String,
    pub why: Option<String>,
}

impl Command for Withdraw {
    fn named(&self) -> String {
        format!("withdraw {}", self.player)
    }

    fn cause(&self, _: &Plan) -> String {
        format!("withdraw:{}", self.player)
    }

    fn carry_out(
        &self,
        clerk: &Clerk<'_>,
        store: &Store,
        by: AwardedBy,
        _: Option<String>,
    ) -> Result<Execution, Error> {
        Ok(
            match clerk.withdraw(store, &self.player, self.why.as_deref(), by)? {
                Err(Refused(reason)) => Execution::refused("nothing withdrawn", reason),
                Ok(plans) => Execution::Done {
                    plan: Box::new(Plan::of_games(plans)),
                    reason: format!("withdrawal of {}", self.player),
                },
            },
        )
    }
}

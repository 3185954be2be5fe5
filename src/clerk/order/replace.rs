//! `REPLACE ivanov Sidorov S. <sidorov@example.org> illness` (ЗАМЕНА), or
//! `shtempel replace ivanov --by …` / `--was …`: a player replaced.

use super::{Command, Execution};
use crate::clerk::{AwardedBy, Clerk, Plan, Refused};
use crate::error::Error;
use crate::letter::Newcomer;
use crate::store::Store;

/// Who a replacement is of, or by.
#[derive(Clone, Debug)]
pub enum Whom {
    /// The entry has the newcomer already (`--was "Name <address>"`: the
    /// player he replaces).
    Was(String),
    /// The newcomer, whom the clerk writes into the entry (`--by`, the
    /// arbiter's `REPLACE`).
    By(Newcomer),
}

#[derive(Clone, Debug)]
pub struct Replace {
    pub player: String,
    pub whom: Whom,
    pub why: Option<String>,
}

impl Command for Replace {
    fn named(&self) -> String {
        format!("replace {}", self.player)
    }

    fn cause(&self, _: &Plan) -> String {
        match &self.whom {
            Whom::Was(was) => format!("replace:{}:{was}", self.player),
            Whom::By(newcomer) => format!(
                "replace:{}:by {} <{}>",
                self.player, newcomer.name, newcomer.email
            ),
        }
    }

    fn carry_out(
        &self,
        clerk: &Clerk<'_>,
        store: &Store,
        _: AwardedBy,
        _: Option<String>,
    ) -> Result<Execution, Error> {
        let why = self.why.as_deref();
        let planned = match &self.whom {
            Whom::Was(was) => clerk.replace(store, &self.player, was, why)?,
            Whom::By(newcomer) => clerk.replace_named(store, &self.player, Some(newcomer), why)?,
        };
        Ok(match planned {
            Err(Refused(reason)) => Execution::refused("nobody replaced", reason),
            Ok(plan) => Execution::Done {
                plan: Box::new(plan),
                reason: format!("replacement of {}", self.player),
            },
        })
    }
}

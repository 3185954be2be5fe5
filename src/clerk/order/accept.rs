//! `ACCEPT KEY 12. Nf3` (ПРИНЯТЬ, with `AS ivanov` / `КАК`, `ADDRESS` /
//! `АДРЕС`), or `shtempel accept KEY`: a refused letter taken after all
//! ([`Clerk::accept`]), in a plan of its own inside the order's.

use super::{Command, Execution};
use crate::clerk::{Acceptance, AwardedBy, Clerk, Plan, Refused};
use crate::error::Error;
use crate::store::Store;

#[derive(Clone, Debug)]
pub struct Accept {
    pub key: String,
    /// The moves as the director reads them; `None`: as the clerk did.
    pub moves: Option<String>,
    /// The player (by id) whose letter it is, from an address of nobody's.
    pub sender: Option<String>,
    pub add_address: bool,
    /// The game, where the letter did not say it right.
    pub game: Option<String>,
    /// The tournament was named (`ACCEPT A KEY`, `--tournament A`): the
    /// letter is that event's, whatever else its writer plays.
    pub event_named: bool,
    pub why: Option<String>,
}

impl Command for Accept {
    fn named(&self) -> String {
        format!("accept {}", self.key)
    }

    fn cause(&self, _: &Plan) -> String {
        format!("accepted:{}", self.key)
    }

    fn carry_out(
        &self,
        clerk: &Clerk<'_>,
        store: &Store,
        by: AwardedBy,
        _: Option<String>,
    ) -> Result<Execution, Error> {
        let key = self.key.as_str();
        let Some(kept) = store.letter_by_key(key)? else {
            let reason = clerk
                .phrases()
                .fill("reason.accept_no_key", &[("key", &key)]);
            return Ok(Execution::refused("no such letter", reason));
        };
        let moves = self.moves.as_deref().map(crate::letter::read);
        let acceptance = Acceptance {
            key,
            moves: moves.as_ref(),
            sender: self.sender.as_deref(),
            game: self.game.as_deref(),
            event_named: self.event_named,
            why: self.why.as_deref(),
            add_address: self.add_address,
            by,
        };
        Ok(match clerk.accept(store, &kept, &acceptance)? {
            Err(Refused(reason)) => Execution::refused("not accepted", reason),
            Ok(mut accepted) => {
                let mut plan = Plan {
                    events: accepted.events.clone(),
                    ..Plan::default()
                };
                plan.config_edits.append(&mut accepted.config_edits);
                plan.more.push(accepted);
                Execution::Done {
                    plan: Box::new(plan),
                    reason: format!("accept {key}"),
                }
            }
        })
    }
}

//! The chief arbiter's `RETRY KEY` (`ПОВТОРИТЬ KEY`, `RETRY ALL`): letters
//! set aside after failing run after run go back into the mail source, as
//! `shtempel retry` puts them. His letter marks them (in the transaction
//! that takes it); the next run puts them back before it reads its mail
//! (`run::put_back`), and reads them as new. He and the chief secretary
//! are told which letters go back. The letters set aside belong to no
//! tournament yet, so a clerk of several takes the order without one.
//!
//! `RETRY KEY`, `RETRY ALL` (ПОВТОРИТЬ), or `shtempel retry KEY`: letters
//! set aside put back among the new ones.

use super::{Carried, Command, Execution, Ordered};
use crate::clerk::{EventKind, Orders, Plan};
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::store::Store;

#[derive(Clone, Debug)]
pub struct Retry {
    pub key: String,
}

impl Command for Retry {
    fn named(&self) -> String {
        format!("retry {}", self.key)
    }

    fn cause(&self, _: Option<usize>) -> String {
        format!("retry:{}", self.key)
    }

    fn carry_out(&self, clerk: &Orders, store: &Store, ordered: Ordered) -> Carried {
        let in_reply_to = ordered.in_reply_to;
        clerk.retry_order(store, &self.key, in_reply_to)
    }
}

/// How many runs a letter may fail before it is set aside (the run counts,
/// the clerk's retry letter says it).
pub const POISON_RUNS: u32 = 3;

impl Orders<'_, '_> {
    pub(in crate::clerk) fn retry_order(
        &self,
        store: &Store,
        key: &str,
        in_reply_to: Option<String>,
    ) -> Result<Execution, Error> {
        let set_aside = store.quarantined()?;
        let every = matches!(key.to_uppercase().as_str(), "ALL" | "ВСЕ" | "ВСЁ");
        let chosen: Vec<_> = set_aside
            .iter()
            .filter(|letter| every || letter.is(key))
            .collect();
        if chosen.is_empty() {
            let reason = match (every, set_aside.is_empty()) {
                (_, true) => crate::clerk::say::words::Sentence::phrase("reason.retry_none"),
                (_, false) => crate::said!("reason.retry_no_key", "key" => key),
            };
            return Ok(Execution::refused("nothing to retry", reason));
        }
        let mut plan = Plan::default();
        let letters: Vec<_> = chosen
            .iter()
            .map(|letter| {
                model! {
                    "key" => letter.dedup_key.as_str(),
                    "arrived" => crate::clerk::say::words::date(crate::rules::postmark_date(&letter.arrived, self.config.timezone)),
                    "reason" => letter.reason.as_str(),
                    // A file the source could not read has no bytes to put
                    // back: the director moves it back by hand.
                    "unread" => letter.raw.is_empty(),
                    "file" => letter.source_key.as_str(),
                }
            })
            .collect();
        let model = model! {
            "letters" => letters,
            "runs" => POISON_RUNS,
        };
        plan.messages.push(
            self.draft(MessageKind::Retry)
                .to(self.arbiter())
                .cc(self.secretary())
                .answering(in_reply_to)
                .notice(model),
        );
        for letter in &chosen {
            plan.writes.releases.push(letter.dedup_key.clone());
            plan.event(
                EventKind::Retry,
                None,
                Some(&self.config.chief_arbiter),
                letter.dedup_key.clone(),
            );
        }
        Ok(Execution::Done {
            plan: Box::new(plan),
            reason: format!("retry {key}"),
        })
    }
}

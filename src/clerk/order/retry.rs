//! `RETRY KEY`, `RETRY ALL` (ПОВТОРИТЬ), or `shtempel retry KEY`: letters
//! set aside put back among the new ones.

use super::{Command, Execution};
use crate::clerk::{AwardedBy, Clerk, Plan};
use crate::error::Error;
use crate::store::Store;

#[derive(Clone, Debug)]
pub struct Retry {
    pub key: String,
}

impl Command for Retry {
    fn named(&self) -> String {
        format!("retry {}", self.key)
    }

    fn cause(&self, _: &Plan) -> String {
        format!("retry:{}", self.key)
    }

    fn carry_out(
        &self,
        clerk: &Clerk<'_>,
        store: &Store,
        _: AwardedBy,
        in_reply_to: Option<String>,
    ) -> Result<Execution, Error> {
        clerk.retry_order(store, &self.key, in_reply_to)
    }
}

//! `XFCC` / `ИКСФЦЦ`: a login to the Xfcc server for a player who moves
//! from his chess program ([`crate::clerk::Clerk::login_issued`]), in
//! answer to his letter. Where the clerk has no Xfcc server (no `[xfcc]`),
//! he is told so.

use crate::clerk::context::Written;
use crate::clerk::{EventKind, Letters, Plan, recipient};
use crate::config::Player;
use crate::error::Error;
use crate::message::MessageKind;
use crate::store::{Disposition, StoredLetter};

impl Letters<'_, '_> {
    /// A player's letter that asks `XFCC`.
    pub(in crate::clerk) fn plan_xfcc_login(
        &self,
        player: &Player,
        written: Written<'_>,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        let draft = self
            .draft(MessageKind::XfccLogin)
            .to(recipient(player))
            .answering(written.mail.message_id.clone());
        let cause = format!("xfcc:{}", stored.dedup_key);
        let (answer, writes) = self.login_issued(draft, player, &cause)?;
        stored.disposition = Disposition::Applied;
        stored.reason = match writes.logins.first() {
            Some(issued) => format!("xfcc login issued to {}", issued.username),
            None => "xfcc asked: this clerk has no Xfcc server".into(),
        };
        Ok(Plan::writing(writes).answered(answer, EventKind::XfccLogin, &player.email, stored))
    }
}

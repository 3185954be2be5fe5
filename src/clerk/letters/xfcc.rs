//! `XFCC` / `ИКСФЦЦ`: a login to the Xfcc server for a player who moves
//! from his chess program. He is sent, in his language, the server's
//! address, his user name (his name for the clerk across its events) and a
//! new password; the hash of it is kept, and the old password stops
//! working. Where the clerk has no Xfcc server (no `[xfcc]`), he is told so.

use crate::clerk::context::Written;
use crate::clerk::{EventKind, Letters, Plan, Writes, recipient};
use crate::config::Player;
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::store::{Disposition, StoredLetter, XfccLogin};

impl Letters<'_, '_> {
    /// A player's letter that asks `XFCC`.
    pub(in crate::clerk) fn plan_xfcc_login(
        &self,
        player: &Player,
        written: Written<'_>,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        // The person, across the clerk's events: his user name is his key
        // in the folder, his address the one the clerk knows him by.
        let person = self
            .directory
            .place_of(&self.config.tournament_id)
            .and_then(|at| self.directory.people().of_entry(at, &player.id));
        let username = person.map_or_else(|| player.id.clone(), |p| p.key.clone());
        let address = person
            .and_then(|p| p.addresses.first())
            .unwrap_or(&player.email)
            .clone();
        let draft = self
            .draft(MessageKind::XfccLogin)
            .to(recipient(player))
            .answering(written.mail.message_id.clone());
        stored.disposition = Disposition::Applied;
        let (Some(server), Some(seed)) = (&self.config.xfcc, self.seed) else {
            if self.config.xfcc.is_some() {
                return Err(Error::internal(
                    "this run issues no Xfcc login (it drew no seed): run poll or watch",
                ));
            }
            stored.reason = "xfcc asked: this clerk has no Xfcc server".into();
            let answer = draft.notice(model! { "url" => None::<String> });
            return Ok(Plan::default().answered(
                answer,
                EventKind::XfccLogin,
                &player.email,
                stored,
            ));
        };
        let login = seed
            .login(&format!("xfcc:{}", stored.dedup_key))
            .map_err(|e| Error::internal(format!("an Xfcc password could not be hashed: {e}")))?;
        stored.reason = format!("xfcc login issued to {username}");
        let answer = draft.notice(model! {
            "url" => server.url.as_str(),
            "username" => username.as_str(),
            "password" => login.password.as_str(),
        });
        let plan = Plan::writing(Writes {
            logins: vec![(
                username,
                XfccLogin {
                    address,
                    hash: login.hash,
                },
            )],
            ..Writes::default()
        });
        Ok(plan.answered(answer, EventKind::XfccLogin, &player.email, stored))
    }
}

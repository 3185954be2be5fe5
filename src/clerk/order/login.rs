//! `shtempel xfcc-login PLAYER`: the director issues a player his login to
//! the Xfcc server, sent to him as his own `XFCC` letter would bring it (a
//! new password; the old one stops working). The director's alone: no
//! line of the chief arbiter's makes it.

use chrono::NaiveDate;

use super::{Carried, Command, Execution, Ordered};
use crate::clerk::{EventKind, Orders, Plan, recipient};
use crate::message::MessageKind;
use crate::store::Store;

#[derive(Clone, Debug)]
pub struct IssueLogin {
    pub player: String,
    /// The day it is issued: a login issued again another day is another
    /// letter.
    pub day: NaiveDate,
}

impl Command for IssueLogin {
    fn named(&self) -> String {
        format!("xfcc-login {}", self.player)
    }

    fn cause(&self, _: Option<usize>) -> String {
        format!("xfcc-login:{}:{}", self.player, self.day)
    }

    fn carry_out(&self, clerk: &Orders, _: &Store, _: Ordered) -> Carried {
        let Some(player) = clerk.config.player(&self.player) else {
            let known: Vec<&str> = clerk.config.players.iter().map(|p| p.id.as_str()).collect();
            let reason = crate::said!(
                "reason.no_player",
                "player" => self.player.as_str(),
                "players" => known.join(", ")
            );
            return Ok(Execution::refused("no such player", reason));
        };
        let draft = clerk.draft(MessageKind::XfccLogin).to(recipient(player));
        let (letter, writes) = clerk.login_issued(draft, player, &self.cause(None))?;
        let reason = match writes.logins.first() {
            Some(issued) => format!("xfcc login issued to {} by the director", issued.username),
            None => format!(
                "no xfcc login for {}: this clerk has no Xfcc server",
                player.id
            ),
        };
        let mut plan = Plan::writing(writes);
        plan.messages.push(letter);
        plan.event(
            EventKind::XfccLogin,
            None,
            Some(&player.email),
            reason.clone(),
        );
        Ok(Execution::Done {
            plan: Box::new(plan),
            reason,
        })
    }
}

//! The pipelined window: up to [`PIPELINED_WINDOW`] messages in one write
//! (MAIL, RCPT and `BDAT n LAST` each), their replies read in turn.

use super::SmtpSender;
use super::wire::{Connection, Reply, Trouble};
use crate::mail::{MailError, Receipt};

/// Messages over one connection before it is closed and opened again (some
/// providers refuse more), unless the config says otherwise.
pub(super) const MAX_MESSAGES_PER_CONNECTION: usize = 100;

/// Messages written in one turn to a server with PIPELINING and CHUNKING:
/// their replies (three or so a message) stay well within what a server's
/// socket holds while it waits for the client to read them.
pub(super) const PIPELINED_WINDOW: usize = 25;

impl SmtpSender {
    /// A window of messages in one write (MAIL, RCPT, `BDAT n LAST` and the
    /// bytes, each after the other) and their replies read after: one turn
    /// for the window. Every message is given; a connection lost before its
    /// reply leaves it unknown (transient, not tried again in the run). A
    /// 421 (the server closing) refuses the message it answers and those
    /// after it: their outcomes are left out, and the 421 returned.
    pub(super) fn send_pipelined(
        &mut self,
        mut connection: Connection,
        messages: &[(&[String], &[u8])],
    ) -> (Vec<Result<Receipt, MailError>>, Option<Reply>) {
        let mut bytes = Vec::new();
        for (recipients, raw) in messages {
            bytes.extend_from_slice(self.mail_from(&connection, recipients, raw).as_bytes());
            for recipient in recipients.iter() {
                bytes.extend_from_slice(format!("RCPT TO:<{recipient}>\r\n").as_bytes());
            }
            bytes.extend_from_slice(format!("BDAT {} LAST\r\n", raw.len()).as_bytes());
            bytes.extend_from_slice(raw);
        }
        self.round_trips += 1;
        let mut outcomes = Vec::with_capacity(messages.len());
        let mut broken = connection.write(&bytes).err().map(|trouble| match trouble {
            Trouble::Broken(why) => why,
            Trouble::Refused(reply) | Trouble::Abandoned(reply) => reply.line(),
        });
        for (recipients, _) in messages {
            if let Some(why) = &broken {
                outcomes.push(Err(self.error(why.clone(), true)));
                continue;
            }
            match self.replies_of_one(&mut connection, recipients.len()) {
                Ok(outcome) => outcomes.push(outcome),
                Err(Trouble::Refused(reply)) if reply.code == 421 => {
                    self.sent_on_connection = 0;
                    return (outcomes, Some(reply));
                }
                Err(Trouble::Broken(why) | Trouble::Refused(Reply { text: why, .. })) => {
                    outcomes.push(Err(self.error(why.clone(), true)));
                    broken = Some(why);
                }
                Err(Trouble::Abandoned(reply)) => {
                    outcomes.push(Err(self.error(reply.line(), true)));
                    broken = Some(reply.line());
                }
            }
        }
        if broken.is_none() {
            self.sent_on_connection += messages.len();
            self.connection = Some(connection);
        } else {
            self.sent_on_connection = 0;
        }
        (outcomes, None)
    }

    /// The replies to one pipelined message: MAIL's, each RCPT's, BDAT's.
    /// A 421 (the server closing) or a lost connection is the connection's
    /// trouble; any other refusal is the message's.
    pub(super) fn replies_of_one(
        &mut self,
        connection: &mut Connection,
        recipients: usize,
    ) -> Result<Result<Receipt, MailError>, Trouble> {
        let mut read = || -> Result<Reply, Trouble> {
            let reply = connection.reply()?;
            if reply.code == 421 {
                return Err(Trouble::Refused(reply));
            }
            Ok(reply)
        };
        let ok = |reply: &Reply| (200..300).contains(&reply.code);
        let mail = read()?;
        let rcpts: Vec<Reply> = (0..recipients).map(|_| read()).collect::<Result<_, _>>()?;
        let bdat = read()?;
        let refusal = |reply: &Reply| {
            let permanent = (500..600).contains(&reply.code);
            self.error(reply.line(), !permanent)
        };
        if !ok(&mail) {
            return Ok(Err(refusal(&mail)));
        }
        let refused: Vec<&Reply> = rcpts.iter().filter(|r| !ok(r)).collect();
        if refused.len() == rcpts.len()
            && let Some(first) = refused.first()
        {
            return Ok(Err(refusal(first)));
        }
        if !ok(&bdat) {
            return Ok(Err(refusal(&bdat)));
        }
        let mut line = bdat.line();
        for reply in refused {
            line.push_str(&format!(" (a recipient refused: {})", reply.line()));
        }
        Ok(Ok(Receipt { line }))
    }
}

//! The sendmail transport (lettre's): a host's local MTA takes each
//! message; its exit is the receipt.

use lettre::{SendmailTransport, Transport as _};

use crate::mail::transport::smtp::envelope;
use crate::mail::{MailError, Receipt, Transport};

pub struct SendmailSender {
    transport: SendmailTransport,
    from: String,
    command: String,
}

impl SendmailSender {
    pub fn new(command: &str, from: &str) -> SendmailSender {
        SendmailSender {
            transport: SendmailTransport::new_with_command(command),
            from: from.to_string(),
            command: command.to_string(),
        }
    }
}

impl Transport for SendmailSender {
    fn send(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
        let envelope = envelope(&self.from, recipients)?;
        self.transport
            .send_raw(&envelope, raw)
            .map(|()| Receipt {
                line: format!("accepted by {}", self.command),
            })
            .map_err(|error| MailError {
                message: format!("{}: {error}", self.command),
                transient: true,
            })
    }
}

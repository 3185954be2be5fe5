//! The SMTP and sendmail transports (lettre). The server's reply line to the
//! message (`250 2.0.0 Ok: queued as …`) is the post-office receipt. A failure
//! says whether a later try can help: 4xx and network trouble are transient,
//! 5xx is permanent.

use std::time::Duration;

use lettre::address::Envelope as SmtpEnvelope;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls as LettreTls, TlsParameters};
use lettre::{Address, SendmailTransport, SmtpTransport, Transport as _};

use super::{MailError, Receipt, Transport};
use crate::config::{Server, Tls};

fn envelope(from: &str, recipients: &[String]) -> Result<SmtpEnvelope, MailError> {
    let permanent = |message: String| MailError {
        message,
        transient: false,
    };
    let from: Address = from
        .parse()
        .map_err(|e| permanent(format!("bad sender address {from:?}: {e}")))?;
    let to = recipients
        .iter()
        .map(|r| {
            r.parse::<Address>()
                .map_err(|e| permanent(format!("bad recipient {r:?}: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    SmtpEnvelope::new(Some(from), to).map_err(|e| permanent(format!("no recipients: {e}")))
}

pub struct SmtpSender {
    transport: SmtpTransport,
    from: String,
    where_: String,
}

impl SmtpSender {
    /// A transport to `server`; `password` is used when `username` is set.
    pub fn new(
        server: &Server,
        password: Option<String>,
        from: &str,
        timeout: Duration,
    ) -> Result<SmtpSender, MailError> {
        let config_error = |e: lettre::transport::smtp::Error| MailError {
            message: format!("[transport] host {:?}: {e}", server.host),
            transient: false,
        };
        let tls = |host: &str| TlsParameters::new(host.to_string()).map_err(config_error);
        let builder = SmtpTransport::builder_dangerous(server.host.clone()).port(server.port);
        let builder = match server.tls {
            Tls::Tls => builder.tls(LettreTls::Wrapper(tls(&server.host)?)),
            Tls::StartTls => builder.tls(LettreTls::Required(tls(&server.host)?)),
            Tls::None => builder.tls(LettreTls::None),
        };
        let builder = builder.timeout(Some(timeout));
        let builder = match (server.username.is_empty(), password) {
            (false, Some(password)) => {
                builder.credentials(Credentials::new(server.username.clone(), password))
            }
            _ => builder,
        };
        Ok(SmtpSender {
            transport: builder.build(),
            from: from.to_string(),
            where_: format!("{}:{}", server.host, server.port),
        })
    }
}

impl Transport for SmtpSender {
    fn send(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
        let envelope = envelope(&self.from, recipients)?;
        match self.transport.send_raw(&envelope, raw) {
            Ok(response) => {
                let line = format!(
                    "{} {}",
                    response.code(),
                    response.message().collect::<Vec<_>>().join(" ")
                );
                Ok(Receipt { line })
            }
            Err(error) => Err(MailError {
                message: format!("SMTP {}: {error}", self.where_),
                transient: !error.is_permanent(),
            }),
        }
    }
}

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

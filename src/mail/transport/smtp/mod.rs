//! The SMTP transport, a client of our own over one connection held for a
//! run's messages. The server's reply
//! line to the message (`250 2.0.0 Ok: queued as …`) is the post-office
//! receipt. A failure says whether a later try can help: 4xx and network
//! trouble are transient, 5xx is permanent.
//!
//! One connection a run (closed and opened again after 100 messages): one
//! TLS handshake and one login, not one a message, which is how providers
//! tell a clerk from a spammer. MAIL, RCPT and DATA go in one write where
//! the server offers PIPELINING (two turns a message), and where it offers
//! CHUNKING too, a window of up to 25 messages goes in one write of MAIL,
//! RCPT and `BDAT n LAST` each ([`Transport::send_many`]: one turn); a refusal is followed by
//! RSET and the
//! connection serves the next message; one the server drops (or ends with
//! 421) is opened again, and the message tried once more only when it had
//! not been given yet. The outbox decides what is sent, so nothing goes
//! twice but the documented message whose acceptance was never heard.
//! lettre's own SMTP transport opened a connection per message and wrote a
//! message's final line apart, so that each waited for the server's delayed
//! ACK (about 50 ms on loopback).
//!
//! By layer: `wire` (the connection, replies read and expected, data
//! dot-stuffed), `window` (the pipelined window of messages), `pace` (a
//! provider's limit a minute); here the session: connecting, EHLO, TLS,
//! login, and what is tried again. The sendmail transport is
//! `mail::transport::sendmail`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use std::io::BufReader;

use tokio_rustls::rustls;

use crate::config::{Server, Tls};
use crate::mail::login::{Password, Sasl};
use crate::mail::{MailError, Receipt, Transport};

mod pace;
mod window;
mod wire;

pub use self::pace::Pace;
use self::window::MAX_MESSAGES_PER_CONNECTION;
use self::window::PIPELINED_WINDOW;
use self::wire::Clock;
use self::wire::Connection;
use self::wire::Reply;
use self::wire::Socket;
use self::wire::Trouble;
use self::wire::Wire;
use self::wire::connect;
use self::wire::data;
pub(in crate::mail) use self::wire::envelope;

/// The SMTP transport: one connection held for a run's messages.
pub struct SmtpSender {
    server: Server,
    password: Option<Password>,
    from: String,
    /// The name said in EHLO: the clerk's domain.
    hello: String,
    timeout: Duration,
    where_: String,
    max_per_connection: usize,
    connection: Option<Connection>,
    /// Messages sent over the connection held.
    sent_on_connection: usize,
    /// Round trips (a write and the replies it waits for) so far, for the
    /// round-trip test and the benchmark.
    pub round_trips: usize,
    /// Whether the message in hand was given whole (its final dot written):
    /// a connection lost after that may have delivered it.
    given: bool,
    /// A provider's limit of messages a minute, if one is set.
    pace: Option<Pace>,
    /// Why the last connection could not be opened, and when: for a minute
    /// after, the run's later messages fail with it at once instead of each
    /// logging in again (a provider locks an account that fails its login
    /// over and over; a long `watch` tries again after it).
    unopened: Option<(Instant, String)>,
    /// The run's stop (SIGTERM): a wait on the server ends within a second
    /// of it.
    stop: Option<Arc<AtomicBool>>,
}

/// How long a connection that could not be opened is not tried again.
const RECONNECT_AFTER: Duration = Duration::from_secs(60);

impl SmtpSender {
    /// A transport to `server`, logging in with `password` where it has
    /// one. Nothing is connected until the first message.
    pub fn new(
        server: &Server,
        password: Option<Password>,
        from: &str,
        timeout: Duration,
    ) -> Result<SmtpSender, MailError> {
        let hello = from
            .rsplit_once('@')
            .map_or("localhost", |(_, domain)| domain);
        Ok(SmtpSender {
            server: server.clone(),
            password,
            from: from.to_string(),
            hello: hello.to_string(),
            timeout,
            where_: format!("{}:{}", server.host, server.port),
            max_per_connection: MAX_MESSAGES_PER_CONNECTION,
            connection: None,
            sent_on_connection: 0,
            round_trips: 0,
            given: false,
            pace: None,
            unopened: None,
            stop: None,
        })
    }

    /// Every wait on the server ends within a second once `stop` is set.
    pub fn stop_on(mut self, stop: Option<Arc<AtomicBool>>) -> SmtpSender {
        self.stop = stop;
        self
    }

    /// At most so many messages a minute (a provider's limit).
    pub fn pace(mut self, pace: Option<Pace>) -> SmtpSender {
        self.pace = pace;
        self
    }

    /// At most `messages` over one connection (a provider's limit).
    pub fn max_per_connection(mut self, messages: usize) -> SmtpSender {
        self.max_per_connection = messages.max(1);
        self
    }

    /// Why no connection could be opened. Never final for the messages in
    /// hand: a login refused (an expired token, a changed password), a
    /// greeting of 554 or a certificate is the connection's trouble, not
    /// theirs, and once mended a later run sends them; this run stops
    /// sending.
    fn not_connected(&self, trouble: Trouble) -> MailError {
        match trouble {
            Trouble::Broken(why) => self.error(why, true),
            Trouble::Refused(reply) | Trouble::Abandoned(reply) => self.error(reply.line(), true),
        }
    }

    fn error(&self, message: String, transient: bool) -> MailError {
        MailError {
            message: format!("SMTP {}: {message}", self.where_),
            transient,
        }
    }

    /// A connection opened, unless one could not be a moment ago.
    fn connect(&mut self) -> Result<Connection, Trouble> {
        if let Some((at, why)) = &self.unopened
            && at.elapsed() < RECONNECT_AFTER
        {
            return Err(Trouble::Broken(why.clone()));
        }
        let opened = self.open();
        self.unopened = match &opened {
            Ok(_) => None,
            Err(Trouble::Broken(why)) => Some((Instant::now(), why.clone())),
            Err(Trouble::Refused(reply) | Trouble::Abandoned(reply)) => {
                Some((Instant::now(), reply.line()))
            }
        };
        opened
    }

    /// Connects, greets (STARTTLS and EHLO again where asked) and logs in.
    fn open(&mut self) -> Result<Connection, Trouble> {
        let broken = |what: &str, e: std::io::Error| Trouble::Broken(format!("{what}: {e}"));
        let tcp = connect(&self.server.host, self.server.port, self.timeout)
            .map_err(|e| broken("cannot connect", e))?;
        // Each command is one write waiting for its reply: without this the
        // message's last line waits for the server's delayed ACK (40 ms a
        // message on loopback).
        tcp.set_nodelay(true).map_err(|e| broken("socket", e))?;
        let socket = Socket {
            tcp,
            clock: Clock::new(self.stop.clone()),
        };
        let wire = match self.server.tls {
            Tls::Tls => self.tls(socket)?,
            _ => Wire::Plain(socket),
        };
        let mut connection = Connection {
            wire: BufReader::new(wire),
            timeout: self.timeout,
            pipelining: false,
            chunking: false,
            eight_bit: false,
            utf8: false,
            size_limit: None,
        };
        self.round_trips += 1;
        connection.expect(220)?;
        let mut offers = self.ehlo(&mut connection)?;
        if self.server.tls == Tls::StartTls {
            self.round_trips += 1;
            connection.write(b"STARTTLS\r\n")?;
            connection.expect(220)?;
            let Wire::Plain(socket) = connection.wire.into_inner() else {
                return Err(Trouble::Broken("STARTTLS over TLS".into()));
            };
            connection.wire = BufReader::new(self.tls(socket)?);
            offers = self.ehlo(&mut connection)?;
        }
        let offered = |name: &str| offers.iter().any(|o| o.eq_ignore_ascii_case(name));
        connection.pipelining = offered("PIPELINING");
        connection.chunking = offered("CHUNKING");
        connection.eight_bit = offered("8BITMIME");
        connection.utf8 = offered("SMTPUTF8");
        connection.size_limit = offers
            .iter()
            .position(|o| o.eq_ignore_ascii_case("SIZE"))
            .and_then(|at| offers.get(at + 1))
            .and_then(|size| size.parse().ok());
        self.log_in(&mut connection)?;
        Ok(connection)
    }

    /// AUTH as `[transport] auth` says, with the password or token got now
    /// (the first response sent with the command: one turn for all but
    /// LOGIN). A refusal names the mechanism, what the server said in an
    /// OAuth error challenge, and what to check.
    fn log_in(&mut self, connection: &mut Connection) -> Result<(), Trouble> {
        use base64::Engine as _;
        let Some(password) = &self.password else {
            return Ok(());
        };
        let server = &self.server;
        let secret = password.get(self.timeout).map_err(|e| {
            Trouble::Broken(format!("{}; check [transport] password_command", e.message))
        })?;
        let mut sasl = Sasl::new(
            server.auth,
            &server.username,
            &secret,
            &server.host,
            server.port,
        );
        let base64 = base64::engine::general_purpose::STANDARD;
        let mut command = format!("AUTH {}", server.auth.name());
        if let Some(initial) = sasl.initial() {
            command = format!("{command} {}", base64.encode(initial));
        }
        self.round_trips += 1;
        connection.write(format!("{command}\r\n").as_bytes())?;
        loop {
            let reply = connection.reply()?;
            match reply.code {
                235 => return Ok(()),
                334 => {
                    let challenge = base64.decode(reply.text.trim()).unwrap_or_default();
                    let response = base64.encode(sasl.respond(&challenge));
                    self.round_trips += 1;
                    connection.write(format!("{response}\r\n").as_bytes())?;
                }
                _ => {
                    let said = sasl
                        .refusal()
                        .map(|said| format!("; its OAuth error: {said}"))
                        .unwrap_or_default();
                    let text = format!(
                        "{} (logging in as {} by {}{said}); {}",
                        reply.text,
                        server.username,
                        server.auth.name(),
                        password.fix(server.auth)
                    );
                    return Err(Trouble::Refused(Reply {
                        code: reply.code,
                        text,
                    }));
                }
            }
        }
    }

    /// EHLO; the extensions offered, by their first word.
    fn ehlo(&mut self, connection: &mut Connection) -> Result<Vec<String>, Trouble> {
        self.round_trips += 1;
        connection.write(format!("EHLO {}\r\n", self.hello).as_bytes())?;
        let reply = connection.expect(250)?;
        // The reply's lines were joined with spaces: take each extension's
        // keyword as a word.
        Ok(reply.text.split(' ').map(str::to_string).collect())
    }

    fn tls(&self, socket: Socket) -> Result<Wire, Trouble> {
        let name = crate::mail::tls::server_name(&self.server.host)
            .map_err(|e| Trouble::Broken(format!("not a TLS server name: {e}")))?;
        let config = crate::mail::tls::client_config(self.server.ca_file.as_deref())
            .map_err(|e| Trouble::Broken(format!("{e}; check [transport] ca_file")))?;
        let session = rustls::ClientConnection::new(config, name)
            .map_err(|e| Trouble::Broken(format!("TLS: {e}")))?;
        socket.clock.start(self.timeout);
        let mut stream = rustls::StreamOwned::new(session, socket);
        // The handshake now, not at the first read: a refused certificate
        // is said as such, not as a server that did not answer.
        while stream.conn.is_handshaking() {
            stream
                .conn
                .complete_io(&mut stream.sock)
                .map_err(|e| Trouble::Broken(crate::mail::tls::failure(&e, "transport")))?;
        }
        Ok(Wire::Tls(Box::new(stream)))
    }

    /// The MAIL command of a message, with the options it needs and the
    /// server offers.
    fn mail_from(&self, connection: &Connection, recipients: &[String], raw: &[u8]) -> String {
        let mut mail = format!("MAIL FROM:<{}>", self.from);
        if !raw.is_ascii() && connection.eight_bit {
            mail.push_str(" BODY=8BITMIME");
        }
        if recipients.iter().any(|r| !r.is_ascii()) && connection.utf8 {
            mail.push_str(" SMTPUTF8");
        }
        mail + "\r\n"
    }

    /// One message over `connection`: MAIL and RCPT (pipelined where
    /// offered), DATA, the message; a refusal is followed by RSET so that
    /// the connection serves the next message.
    fn transfer(
        &mut self,
        connection: &mut Connection,
        recipients: &[String],
        raw: &[u8],
    ) -> Result<Reply, Trouble> {
        let commands: Vec<String> = std::iter::once(self.mail_from(connection, recipients, raw))
            .chain(recipients.iter().map(|r| format!("RCPT TO:<{r}>\r\n")))
            .collect();
        if connection.pipelining {
            // MAIL, RCPT and DATA in one write (RFC 2920), their replies
            // read in order: two turns a message.
            self.round_trips += 1;
            connection.write((commands.concat() + "DATA\r\n").as_bytes())?;
            let mut refused = None;
            for _ in &commands {
                match connection.expect(250) {
                    Ok(_) => {}
                    Err(Trouble::Refused(reply)) => {
                        refused.get_or_insert(reply);
                    }
                    Err(broken) => return Err(broken),
                }
            }
            let data_reply = connection.reply()?;
            return match (refused, data_reply.code) {
                (None, 354) => {
                    self.round_trips += 1;
                    self.given = true;
                    connection.write(&data(raw))?;
                    connection.expect(250)
                }
                // The server took DATA though a recipient was refused:
                // the message must not go to the others, and DATA cannot
                // be taken back but by leaving the connection.
                (Some(reply), 354) => Err(Trouble::Abandoned(reply)),
                (refused, _) => {
                    self.round_trips += 1;
                    connection.write(b"RSET\r\n")?;
                    connection.expect(250)?;
                    Err(Trouble::Refused(refused.unwrap_or(data_reply)))
                }
            };
        }
        for command in &commands {
            self.round_trips += 1;
            connection.write(command.as_bytes())?;
            match connection.expect(250) {
                Ok(_) => {}
                Err(Trouble::Refused(reply)) => {
                    self.round_trips += 1;
                    connection.write(b"RSET\r\n")?;
                    connection.expect(250)?;
                    return Err(Trouble::Refused(reply));
                }
                Err(broken) => return Err(broken),
            }
        }
        self.round_trips += 2;
        connection.write(b"DATA\r\n")?;
        connection.expect(354)?;
        self.given = true;
        connection.write(&data(raw))?;
        connection.expect(250)
    }
}

impl Transport for SmtpSender {
    fn window(&mut self) -> usize {
        self.open_for_window();
        let limit = self
            .pace
            .as_ref()
            .map_or(usize::MAX, |pace| pace.per_minute);
        match &self.connection {
            Some(connection) if connection.pipelining && connection.chunking => {
                PIPELINED_WINDOW.min(limit)
            }
            _ => 1,
        }
    }

    /// A window over the connection held, where the server pipelines and
    /// takes BDAT, as much of it as the connection has room for (then the
    /// next connection); else one by one. A server that closes with 421
    /// in the middle of a window took none of the messages from the one
    /// refused on: they go on a new connection (once: a new connection
    /// refused at once stops the sending).
    fn send_many(&mut self, messages: &[(&[String], &[u8])]) -> Vec<Result<Receipt, MailError>> {
        let mut outcomes = Vec::with_capacity(messages.len());
        let mut rest = messages;
        while let Some(&(recipients, raw)) = rest.first() {
            let fresh = self.open_for_window();
            let room = self
                .max_per_connection
                .saturating_sub(self.sent_on_connection);
            let limit = self
                .pace
                .as_ref()
                .map_or(usize::MAX, |pace| pace.per_minute);
            let take = rest.len().min(room).min(limit);
            let valid = rest[..take]
                .iter()
                .all(|(recipients, _)| envelope(&self.from, recipients).is_ok());
            let pipelined = self
                .connection
                .as_ref()
                .is_some_and(|c| c.pipelining && c.chunking);
            let (got, closed) = if take > 1
                && valid
                && pipelined
                && let Some(connection) = self.connection.take()
            {
                if let Some(pace) = &mut self.pace {
                    pace.before(take);
                }
                let sent = self.send_pipelined(connection, &rest[..take]);
                if let Some(pace) = &mut self.pace {
                    pace.after(take);
                }
                sent
            } else {
                (vec![self.send(recipients, raw)], None)
            };
            rest = &rest[got.len()..];
            let stop = got.iter().any(|o| o.as_ref().is_err_and(|e| e.transient));
            let progress = !got.is_empty();
            outcomes.extend(got);
            if stop {
                break;
            }
            if let Some(reply) = closed
                && fresh
                && !progress
            {
                outcomes.push(Err(self.error(reply.line(), true)));
                break;
            }
        }
        outcomes
    }

    /// A dropped connection (or a 421) before the message was given is
    /// opened again and the message tried once more; after it was given,
    /// the outcome is unknown and the message is left to the outbox's next
    /// try (it may then go twice, with its Message-ID).
    fn send(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
        envelope(&self.from, recipients)?;
        if let Some(pace) = &mut self.pace {
            pace.before(1);
        }
        let sent = self.send_paced(recipients, raw);
        if let Some(pace) = &mut self.pace {
            pace.after(1);
        }
        sent
    }
}

/// What an SMTP server offers the clerk, logged in (`shtempel doctor`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtpProbe {
    pub pipelining: bool,
    pub chunking: bool,
    /// The largest message it takes, if it says (`SIZE`).
    pub size_limit: Option<u64>,
}

impl SmtpSender {
    /// Connects, greets and logs in as a run would, says what the server
    /// offers, and leaves; sends nothing.
    pub fn probe(&mut self) -> Result<SmtpProbe, MailError> {
        let mut connection = self.connect().map_err(|t| self.not_connected(t))?;
        let probe = SmtpProbe {
            pipelining: connection.pipelining,
            chunking: connection.chunking,
            size_limit: connection.size_limit,
        };
        let _ = connection.write(b"QUIT\r\n");
        Ok(probe)
    }

    /// [`Transport::send`] once its pace allows.
    fn send_paced(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
        if self.sent_on_connection >= self.max_per_connection {
            self.close();
        }
        let mut tries = 0;
        loop {
            tries += 1;
            let fresh = self.connection.is_none();
            let mut connection = match self.connection.take() {
                Some(connection) => connection,
                None => self.connect().map_err(|t| self.not_connected(t))?,
            };
            self.given = false;
            match self.transfer(&mut connection, recipients, raw) {
                Ok(reply) => {
                    self.connection = Some(connection);
                    self.sent_on_connection += 1;
                    return Ok(Receipt { line: reply.line() });
                }
                Err(Trouble::Refused(reply)) if reply.code == 421 => {
                    self.sent_on_connection = 0;
                    if fresh || tries > 1 {
                        return Err(self.error(reply.line(), true));
                    }
                }
                Err(Trouble::Refused(reply)) => {
                    self.connection = Some(connection);
                    let permanent = (500..600).contains(&reply.code);
                    return Err(self.error(reply.line(), !permanent));
                }
                Err(Trouble::Abandoned(reply)) => {
                    self.sent_on_connection = 0;
                    let permanent = (500..600).contains(&reply.code);
                    return Err(self.error(reply.line(), !permanent));
                }
                Err(Trouble::Broken(why)) => {
                    self.sent_on_connection = 0;
                    if fresh || tries > 1 || self.given {
                        return Err(self.error(why, true));
                    }
                }
            }
        }
    }
}

impl SmtpSender {
    /// The connection for the next messages: the one held while it has room
    /// (else QUIT), or a new one, so that a window's first message need
    /// not go alone to learn what the server offers. Whether it is new; a
    /// connection that cannot be opened is left to [`Transport::send`],
    /// which says why.
    fn open_for_window(&mut self) -> bool {
        if self.sent_on_connection >= self.max_per_connection {
            self.close();
        }
        if self.connection.is_some() {
            return false;
        }
        if let Ok(connection) = self.connect() {
            self.connection = Some(connection);
        }
        true
    }

    /// QUIT, and the connection given up.
    fn close(&mut self) {
        if let Some(mut connection) = self.connection.take()
            && connection.write(b"QUIT\r\n").is_ok()
        {
            let _ = connection.reply();
        }
        self.sent_on_connection = 0;
    }
}

impl Drop for SmtpSender {
    fn drop(&mut self) {
        self.close();
    }
}

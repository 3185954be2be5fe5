//! The IMAP connection: a stream plain or TLS, opened, logged in and
//! selected; reset after trouble, closed, and IDLE for new mail.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use async_imap::extensions::idle::IdleResponse;
use async_imap::{Authenticator, Client, Session};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

use crate::config::{Auth, Tls};
use crate::mail::login::Sasl;

use super::bound::LineBound;
use super::{ImapSettings, ImapSource, fail};
use crate::mail::MailError;

/// A plain or TLS connection, every response line of it bounded.
#[derive(Debug)]
pub(super) struct Stream {
    wire: Wire,
    bound: LineBound,
}

#[derive(Debug)]
enum Wire {
    Plain(TcpStream),
    Tls(Box<tokio_rustls::client::TlsStream<TcpStream>>),
}

/// What a response line may carry beyond the largest letter fetched whole:
/// the `FETCH` line's own words around it.
const LINE_MARGIN: usize = 64 * 1024;

impl Stream {
    fn plain(tcp: TcpStream, settings: &ImapSettings) -> Stream {
        Stream::over(Wire::Plain(tcp), settings)
    }

    fn tls(tls: tokio_rustls::client::TlsStream<TcpStream>, settings: &ImapSettings) -> Stream {
        Stream::over(Wire::Tls(Box::new(tls)), settings)
    }

    fn over(wire: Wire, settings: &ImapSettings) -> Stream {
        let limit = settings.max_letter_bytes.saturating_add(LINE_MARGIN);
        Stream {
            wire,
            bound: LineBound::new(limit),
        }
    }
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = match &mut this.wire {
            Wire::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        };
        if let Poll::Ready(Ok(())) = polled
            && let Err(too_long) = this.bound.take(&buf.filled()[before..])
        {
            let error = std::io::Error::new(std::io::ErrorKind::InvalidData, too_long);
            return Poll::Ready(Err(error));
        }
        polled
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        match &mut self.get_mut().wire {
            Wire::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match &mut self.get_mut().wire {
            Wire::Plain(s) => Pin::new(s).poll_flush(cx),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match &mut self.get_mut().wire {
            Wire::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Wire::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// An [`Authenticator`] over a [`Sasl`] exchange the caller still holds
/// (to read the server's refusal after it).
struct Exchange(Arc<Mutex<Sasl>>);

impl Authenticator for Exchange {
    type Response = Vec<u8>;
    fn process(&mut self, challenge: &[u8]) -> Vec<u8> {
        let mut sasl = self.0.lock().unwrap_or_else(|e| e.into_inner());
        sasl.respond(challenge)
    }
}

/// A refusal as the server wrote it: async-imap keeps a NO's or BAD's text
/// as `code: None, info: Some("…")`.
fn answer(error: &async_imap::error::Error) -> String {
    use async_imap::error::Error;
    let (word, text) = match error {
        Error::No(text) => ("NO", text),
        Error::Bad(text) => ("BAD", text),
        other => return other.to_string(),
    };
    let info = text
        .split_once("info: Some(\"")
        .and_then(|(_, rest)| rest.rsplit_once("\")"))
        .map_or(text.as_str(), |(info, _)| info);
    format!("{word} {info}")
}

/// Logs in as `[source] auth` says: the LOGIN command, or AUTHENTICATE by
/// PLAIN, XOAUTH2 or OAUTHBEARER, with the password or token got now.
async fn log_in(
    client: Client<Stream>,
    settings: &ImapSettings,
    where_: &str,
) -> Result<Session<Stream>, MailError> {
    let server = &settings.server;
    let secret = settings
        .password
        .get(settings.timeout)
        .map_err(|e| MailError {
            message: format!(
                "IMAP {where_}: {}; check [source] password_command",
                e.message
            ),
            transient: false,
        })?;
    let (outcome, refusal) = match server.auth {
        Auth::Login => (client.login(&server.username, &secret).await, None),
        auth => {
            let sasl = Sasl::new(auth, &server.username, &secret, &server.host, server.port);
            let sasl = Arc::new(Mutex::new(sasl));
            let outcome = client
                .authenticate(auth.name(), Exchange(Arc::clone(&sasl)))
                .await;
            let refusal = sasl
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .refusal()
                .map(str::to_string);
            (outcome, refusal)
        }
    };
    outcome.map_err(|(e, _)| {
        let by = match server.auth {
            Auth::Login => String::new(),
            auth => format!(" by {}", auth.name()),
        };
        let said = refusal
            .map(|said| format!(" (its OAuth error: {said})"))
            .unwrap_or_default();
        MailError {
            message: format!(
                "IMAP login to {where_} as {}{by} failed: {}{said}; {}",
                server.username,
                answer(&e),
                settings.password.fix(server.auth)
            ),
            transient: false,
        }
    })
}

impl ImapSource {
    /// Connects, logs in and selects the mailbox, unless already done.
    pub(super) fn connect(&mut self) -> Result<(), MailError> {
        if self.session.is_some() {
            return Ok(());
        }
        let settings = self.settings.clone();
        let where_ = self.where_();
        let limit = settings.timeout;
        let session = self.runtime.block_on(async move {
            let where_ = where_.as_str();
            let step = |what: &'static str| {
                move |_| {
                    fail(format!(
                        "IMAP {where_}: no answer within {}s while {what}; check that the server is up, or try later",
                        limit.as_secs()
                    ))
                }
            };
            let tcp = tokio::time::timeout(limit, TcpStream::connect((settings.server.host.as_str(), settings.server.port)))
                .await
                .map_err(step("connecting"))?
                .map_err(|e| fail(format!("cannot connect to IMAP server {where_}: {e}; check [source] host and port")))?;
            let tls_error = |e: std::io::Error| MailError {
                message: format!("IMAP {where_}: {}", crate::mail::tls::failure(&e, "source")),
                transient: false,
            };
            let name = || {
                crate::mail::tls::server_name(&settings.server.host)
                    .map_err(|e| MailError { message: format!("[source] host {:?}: {e}", settings.server.host), transient: false })
            };
            let connector = TlsConnector::from(crate::mail::tls::client_config(settings.server.ca_file.as_deref()).map_err(|e| MailError { message: format!("IMAP {where_}: {e}; check [source] ca_file"), transient: false })?);
            let mut client = match settings.server.tls {
                Tls::Tls => {
                    let tls = tokio::time::timeout(limit, connector.connect(name()?, tcp)).await.map_err(step("starting TLS"))?.map_err(tls_error)?;
                    Client::new(Stream::tls(tls, &settings))
                }
                Tls::None | Tls::StartTls => Client::new(Stream::plain(tcp, &settings)),
            };
            let greeting = tokio::time::timeout(limit, client.read_response()).await.map_err(step("reading the greeting"))?;
            match greeting {
                Ok(Some(_)) => {}
                Ok(None) => return Err(fail(format!("IMAP server {where_} closed the connection at once; check [source] port and tls"))),
                Err(e) => return Err(fail(format!("IMAP server {where_} sent no greeting: {}; check [source] port and tls", greeting_said(&e)))),
            }
            if settings.server.tls == Tls::StartTls {
                tokio::time::timeout(limit, client.run_command_and_check_ok("STARTTLS", None))
                    .await
                    .map_err(step("asking for STARTTLS"))?
                    .map_err(|e| fail(format!("IMAP server {where_} refused STARTTLS: {e}; check [source] tls")))?;
                let Wire::Plain(tcp) = client.into_inner().wire else { unreachable!("STARTTLS starts on a plain stream") };
                let tls = tokio::time::timeout(limit, connector.connect(name()?, tcp)).await.map_err(step("starting TLS"))?.map_err(tls_error)?;
                client = Client::new(Stream::tls(tls, &settings));
            }
            let mut session = tokio::time::timeout(limit, log_in(client, &settings, where_))
                .await
                .map_err(step("logging in"))??;
            let mailbox = tokio::time::timeout(limit, session.select(&settings.mailbox))
                .await
                .map_err(step("selecting the mailbox"))?
                .map_err(|e| MailError {
                    message: format!("IMAP {where_}: cannot select mailbox {:?}: {e}; check [source] mailbox", settings.mailbox),
                    transient: false,
                })?;
            Ok::<_, MailError>((session, mailbox.uid_validity))
        })?;
        self.uid_validity = session.1;
        self.session = Some(session.0);
        Ok(())
    }
    /// Drops the connection after an error, so that the next call reconnects.
    pub(super) fn reset(&mut self) {
        self.session = None;
    }
    /// Logs out politely.
    pub fn close(&mut self) {
        if let Some(mut session) = self.session.take() {
            let limit = self.settings.timeout;
            let _ = self
                .runtime
                .block_on(async move { tokio::time::timeout(limit, session.logout()).await });
        }
    }
    /// Waits with IMAP IDLE until the server reports a change, `max` passes or
    /// `stop` is set (checked every few seconds). Returns whether mail came.
    pub fn idle(&mut self, max: Duration, stop: &AtomicBool) -> Result<bool, MailError> {
        self.connect()?;
        let Some(session) = self.session.take() else {
            return Ok(false);
        };
        let limit = self.settings.timeout;
        let where_ = self.where_();
        let outcome = self.runtime.block_on(async move {
            let mut handle = session.idle();
            tokio::time::timeout(limit, handle.init())
                .await
                .map_err(|_| fail(format!("IMAP {where_}: no answer to IDLE")))?
                .map_err(|e| fail(format!("IMAP {where_}: IDLE refused: {e}")))?;
            let started = Instant::now();
            let mut woke = false;
            while !stop.load(Ordering::Relaxed) && started.elapsed() < max {
                let slice = max
                    .saturating_sub(started.elapsed())
                    .min(Duration::from_secs(3));
                // The library's own timeout restarts on every keepalive, so a
                // server that says "still here" often would hold us forever:
                // interrupt the wait ourselves when the slice is over.
                let (wait, interrupt) = handle.wait_with_timeout(slice);
                tokio::pin!(wait);
                let response = tokio::select! {
                    response = &mut wait => response,
                    () = tokio::time::sleep(slice) => {
                        drop(interrupt);
                        wait.await
                    }
                };
                let response =
                    response.map_err(|e| fail(format!("IMAP {where_}: IDLE failed: {e}")))?;
                if matches!(response, IdleResponse::NewData(_)) {
                    woke = true;
                    break;
                }
            }
            let session = tokio::time::timeout(limit, handle.done())
                .await
                .map_err(|_| fail(format!("IMAP {where_}: no answer to DONE")))?
                .map_err(|e| fail(format!("IMAP {where_}: DONE failed: {e}")))?;
            Ok::<_, MailError>((session, woke))
        });
        match outcome {
            Ok((session, woke)) => {
                self.session = Some(session);
                Ok(woke)
            }
            Err(error) => {
                self.reset();
                Err(error)
            }
        }
    }
}

/// Why the greeting could not be read, in words: where the server sent
/// what is no IMAP, its own bytes as text (the parser's error prints them
/// as a list of numbers, `input: [34, 35, …]`); the caller makes it
/// printable and bounds it.
fn greeting_said(error: &std::io::Error) -> String {
    let text = error.to_string();
    let Some(start) = text.find("input: [").map(|at| at + "input: [".len()) else {
        return text;
    };
    let Some(length) = text[start..].find(']') else {
        return text;
    };
    let bytes: Option<Vec<u8>> = text[start..start + length]
        .split(',')
        .map(|n| n.trim().parse::<u8>().ok())
        .collect();
    match bytes {
        Some(bytes) => format!("what is no IMAP: {:?}", String::from_utf8_lossy(&bytes)),
        None => text,
    }
}

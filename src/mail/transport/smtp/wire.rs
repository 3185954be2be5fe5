//! The SMTP wire: the connection (plain or TLS), the server's replies read
//! and expected, a message's data dot-stuffed, and the envelope of one.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lettre::Address;
use lettre::address::Envelope as SmtpEnvelope;
use tokio_rustls::rustls;

use crate::mail::MailError;

pub(in crate::mail) fn envelope(
    from: &str,
    recipients: &[String],
) -> Result<SmtpEnvelope, MailError> {
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

/// A connection to the host's first address that answers (a name may
/// have several: IPv6 and IPv4, or a provider's many).
pub(super) fn connect(host: &str, port: u16, timeout: Duration) -> std::io::Result<TcpStream> {
    let mut last = None;
    for address in (host, port).to_socket_addrs()? {
        match TcpStream::connect_timeout(&address, timeout) {
            Ok(tcp) => return Ok(tcp),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("the host has no address")))
}

/// The socket to the server, every wait on it held to a whole deadline
/// and to the run's stop (SIGTERM): a server that drips a byte every 20 s
/// never lets one read time out, so each read waits at most a second and
/// the deadline is counted across them (as the IMAP side's per step).
pub(super) struct Socket {
    pub(super) tcp: TcpStream,
    pub(super) clock: Clock,
}

/// When the wait in hand must end, and the run's stop, shared by the
/// socket and the connection that sets them.
#[derive(Clone, Default)]
pub(super) struct Clock {
    deadline: Arc<Mutex<Option<Instant>>>,
    stop: Option<Arc<AtomicBool>>,
}

/// The longest single wait on the socket: how soon a stop is seen.
const SLICE: Duration = Duration::from_secs(1);

impl Clock {
    pub(super) fn new(stop: Option<Arc<AtomicBool>>) -> Clock {
        Clock {
            deadline: Arc::default(),
            stop,
        }
    }

    /// The next waits must end within `limit` from now.
    pub(super) fn start(&self, limit: Duration) {
        *self.deadline.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now() + limit);
    }

    /// How long the next wait may take, or why none may.
    fn slice(&self) -> std::io::Result<Duration> {
        if self
            .stop
            .as_ref()
            .is_some_and(|stop| stop.load(Ordering::Relaxed))
        {
            return Err(std::io::Error::other("stopped by a signal"));
        }
        let deadline = *self.deadline.lock().unwrap_or_else(|e| e.into_inner());
        let Some(deadline) = deadline else {
            return Ok(SLICE);
        };
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "no whole answer in time",
            ));
        }
        Ok(left.min(SLICE))
    }
}

fn waited(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
    )
}

impl Read for Socket {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            self.tcp.set_read_timeout(Some(self.clock.slice()?))?;
            match self.tcp.read(buf) {
                Err(error) if waited(&error) => continue,
                read => return read,
            }
        }
    }
}

impl Write for Socket {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        loop {
            self.tcp.set_write_timeout(Some(self.clock.slice()?))?;
            match self.tcp.write(buf) {
                Err(error) if waited(&error) => continue,
                written => return written,
            }
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.tcp.flush()
    }
}

/// A plain or TLS stream to the server.
pub(super) enum Wire {
    Plain(Socket),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, Socket>>),
}

impl Wire {
    fn socket(&self) -> &Socket {
        match self {
            Wire::Plain(socket) => socket,
            Wire::Tls(tls) => tls.get_ref(),
        }
    }
}

impl Read for Wire {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Wire::Plain(s) => s.read(buf),
            Wire::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Wire {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Wire::Plain(s) => s.write(buf),
            Wire::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Wire::Plain(s) => s.flush(),
            Wire::Tls(s) => s.flush(),
        }
    }
}

/// A connection after EHLO (and STARTTLS, AUTH), with what the server offers.
pub(super) struct Connection {
    pub(super) wire: BufReader<Wire>,
    /// How long a reply, or the writing of a command, may take in all.
    pub(super) timeout: Duration,
    pub(super) pipelining: bool,
    /// BDAT (RFC 3030): with PIPELINING, a window of messages in one turn.
    pub(super) chunking: bool,
    pub(super) eight_bit: bool,
    pub(super) utf8: bool,
    /// The largest message the server takes (`SIZE`), if it says.
    pub(super) size_limit: Option<u64>,
}

/// A reply: its code and its lines' text, joined.
pub(super) struct Reply {
    pub(super) code: u16,
    pub(super) text: String,
}

impl Reply {
    pub(super) fn line(&self) -> String {
        format!("{} {}", self.code, self.text)
    }
}

/// What went wrong on a connection: the server said no (its reply), or the
/// connection itself failed (it is given up).
pub(super) enum Trouble {
    Refused(Reply),
    Broken(String),
    /// Refused, and the connection left (it was inside DATA).
    Abandoned(Reply),
}

impl Connection {
    pub(super) fn write(&mut self, bytes: &[u8]) -> Result<(), Trouble> {
        // A message takes a second more for each 64 KB of it.
        let more = Duration::from_secs(u64::try_from(bytes.len() / (64 * 1024)).unwrap_or(0));
        self.wire
            .get_ref()
            .socket()
            .clock
            .start(self.timeout + more);
        let wire = self.wire.get_mut();
        wire.write_all(bytes)
            .and_then(|()| wire.flush())
            .map_err(|e| Trouble::Broken(format!("cannot write: {e}")))
    }

    pub(super) fn reply(&mut self) -> Result<Reply, Trouble> {
        // A server that writes its replies to pipelined commands apart
        // (Postfix) has the second wait for our ACK of the first; ours
        // would wait 40 ms (delayed ACK) while we only read. Asked again
        // before each read from the socket, as the kernel resets it.
        let socket = self.wire.get_ref().socket();
        if self.wire.buffer().is_empty() {
            let _ = rustix::net::sockopt::set_tcp_quickack(&socket.tcp, true);
        }
        socket.clock.start(self.timeout);
        read_reply(&mut self.wire).map_err(|trouble| match trouble {
            Trouble::Broken(why) if why.contains("no whole answer in time") => Trouble::Broken(
                format!("no whole answer within {}s", self.timeout.as_secs()),
            ),
            other => other,
        })
    }

    /// A reply that must be 2xx (or `want`).
    pub(super) fn expect(&mut self, want: u16) -> Result<Reply, Trouble> {
        let reply = self.reply()?;
        if reply.code == want || (want == 250 && (200..300).contains(&reply.code)) {
            Ok(reply)
        } else {
            Err(Trouble::Refused(reply))
        }
    }
}

/// The longest reply line taken: RFC 5321 §4.5.3.1.5 allows 512 octets,
/// servers write a few hundred; past this it is not SMTP.
const MOST_LINE: usize = 4096;
/// The most lines a reply may have (an EHLO lists a dozen).
const MOST_LINES: usize = 256;

/// One reply, its lines bounded in length and number: a server that sends
/// one endless line, or endless lines, is an error, not memory.
pub(super) fn read_reply(wire: &mut BufReader<Wire>) -> Result<Reply, Trouble> {
    let mut text = Vec::new();
    for _ in 0..MOST_LINES {
        let mut bytes = Vec::new();
        let read = (&mut *wire)
            .take(MOST_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| Trouble::Broken(format!("no answer: {e}")))?;
        if read == 0 {
            return Err(Trouble::Broken("the server closed the connection".into()));
        }
        if bytes.len() > MOST_LINE {
            return Err(Trouble::Broken(format!(
                "a reply line of over {MOST_LINE} bytes: not an SMTP server, or a broken one"
            )));
        }
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim_end();
        let code = line.get(..3).and_then(|c| c.parse::<u16>().ok());
        let Some(code) = code else {
            let said = crate::printable::printable(line, false);
            return Err(Trouble::Broken(format!(
                "not an SMTP reply: {:?}",
                crate::printable::bounded(&said, 200)
            )));
        };
        text.push(line.get(4..).unwrap_or("").to_string());
        if line.as_bytes().get(3) != Some(&b'-') {
            return Ok(Reply {
                code,
                text: text.join(" "),
            });
        }
    }
    Err(Trouble::Broken(format!(
        "a reply of over {MOST_LINES} lines: not an SMTP server, or a broken one"
    )))
}

/// The message as DATA carries it: CRLF lines, a dot doubled at a line's
/// start, and the final dot line.
pub(super) fn data(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() + raw.len() / 50 + 8);
    let mut line_start = true;
    let mut previous = 0u8;
    for &byte in raw {
        if byte == b'\n' && previous != b'\r' {
            out.push(b'\r');
        }
        if line_start && byte == b'.' {
            out.push(b'.');
        }
        out.push(byte);
        line_start = byte == b'\n';
        previous = byte;
    }
    if !line_start {
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b".\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn data_doubles_a_leading_dot_ends_lines_in_crlf_and_closes_with_a_dot_line() {
        let table: [(&[u8], &[u8]); 4] = [
            (b"a\r\nb\r\n", b"a\r\nb\r\n.\r\n"),
            (
                b".hidden\r\n..two\r\nend",
                b"..hidden\r\n...two\r\nend\r\n.\r\n",
            ),
            (b"bare\nlines\n.", b"bare\r\nlines\r\n..\r\n.\r\n"),
            (b"", b".\r\n"),
        ];
        for (raw, sent) in table {
            assert_eq!(data(raw), sent, "{:?}", String::from_utf8_lossy(raw));
        }
    }
}

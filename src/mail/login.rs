//! Logging in to the IMAP and SMTP servers alike: the password or OAuth 2.0
//! access token (from the environment, or a command run at each login, as
//! msmtp's `passwordeval` and isync's `PassCmd` do), and the client's side
//! of the SASL exchange for PLAIN, LOGIN, XOAUTH2 and OAUTHBEARER.

use std::collections::VecDeque;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use super::MailError;
use crate::config::{Auth, Secret};
use crate::printable::printable;

/// A login's password or token as the run has it.
#[derive(Clone)]
pub enum Password {
    /// Read from the environment variable named when the run started.
    Given { variable: String, value: String },
    /// Printed by this command, run at each login.
    Command(String),
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Password::Given { variable, .. } => write!(f, "${variable}"),
            Password::Command(command) => write!(f, "`{command}`"),
        }
    }
}

impl Password {
    /// The password for a `server` as `secret` says, where it needs none
    /// from the environment `value` may be `None`.
    pub fn of(secret: &Secret, value: Option<String>) -> Option<Password> {
        match secret {
            Secret::Env(variable) => Some(Password::Given {
                variable: variable.clone(),
                value: value.unwrap_or_default(),
            }),
            Secret::Command(command) => Some(Password::Command(command.clone())),
            Secret::None => None,
        }
    }

    /// The password now: the command's first line, the command run with a
    /// limit of `timeout`.
    pub fn get(&self, timeout: Duration) -> Result<String, MailError> {
        match self {
            Password::Given { value, .. } => Ok(value.clone()),
            Password::Command(command) => run(command, timeout),
        }
    }

    /// What to check when the server refuses the login.
    pub fn fix(&self, auth: Auth) -> String {
        match (self, auth.takes_a_token()) {
            (Password::Given { variable, .. }, false) => {
                format!("check the user name and the password in ${variable}")
            }
            (Password::Given { variable, .. }, true) => {
                format!("check the user name and the access token in ${variable}")
            }
            (Password::Command(command), false) => {
                format!("check the user name and the password `{command}` prints")
            }
            (Password::Command(command), true) => format!(
                "check the user name, and that `{command}` prints a fresh access token for it"
            ),
        }
    }
}

/// The most of a password command's output kept (a token is a few KB); the
/// rest is read and dropped, so that a command printing more never blocks
/// on a full pipe.
const MOST_OUTPUT: usize = 64 * 1024;
/// How long the output is waited for after the command has ended: a child
/// it left in the background may hold the pipe open for its whole life.
const AFTER_EXIT: Duration = Duration::from_millis(500);
/// The most of its error line shown.
const MOST_SAID: usize = 200;

/// Runs `command` by the shell and takes the first line it prints: the
/// password or token. Its output is read while it runs; once it has ended,
/// what it printed is taken, whatever a child of it still holds open.
fn run(command: &str, timeout: Duration) -> Result<String, MailError> {
    let failed = |why: String| MailError {
        message: format!("password_command `{command}` {why}"),
        transient: false,
    };
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| failed(format!("cannot be started: {e}")))?;
    let out = Drain::start(child.stdout.take());
    let err = Drain::start(child.stderr.take());
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < timeout => {
                std::thread::sleep(Duration::from_millis(10))
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(failed(format!("did not finish within {timeout:?}")));
            }
            Err(e) => return Err(failed(format!("cannot be waited for: {e}"))),
        }
    };
    let ended = Instant::now();
    let (out, err) = (out.taken(ended), err.taken(ended));
    let first_line = out.lines().next().map(str::trim).unwrap_or("");
    if !status.success() {
        let said = err.lines().map(str::trim).find(|l| !l.is_empty());
        let said = match said {
            None => String::new(),
            Some(said) => {
                let said = without_secrets(said, &out);
                let said = printable(&said, false);
                format!(": {}", crate::printable::bounded(&said, MOST_SAID))
            }
        };
        return Err(failed(format!("failed ({status}){said}")));
    }
    match first_line {
        "" => Err(failed("printed nothing".into())),
        line => Ok(line.to_string()),
    }
}

/// `line` with every value the command printed on its standard output
/// (the secret, where it printed one before it failed) blotted out.
fn without_secrets(line: &str, out: &str) -> String {
    out.lines()
        .map(str::trim)
        .filter(|value| !value.is_empty())
        .fold(line.to_string(), |line, value| line.replace(value, "[…]"))
}

/// One pipe of a command read on a thread of its own, at most
/// [`MOST_OUTPUT`] of it kept.
struct Drain {
    kept: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    ended: std::sync::mpsc::Receiver<()>,
}

impl Drain {
    fn start(pipe: Option<impl Read + Send + 'static>) -> Drain {
        let kept = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let (tell, ended) = std::sync::mpsc::channel();
        let keeping = std::sync::Arc::clone(&kept);
        std::thread::spawn(move || {
            if let Some(mut pipe) = pipe {
                let mut buffer = [0u8; 8192];
                while let Ok(read @ 1..) = pipe.read(&mut buffer) {
                    let mut kept = keeping.lock().unwrap_or_else(|e| e.into_inner());
                    let room = MOST_OUTPUT.saturating_sub(kept.len());
                    kept.extend_from_slice(&buffer[..read.min(room)]);
                }
            }
            let _ = tell.send(());
        });
        Drain { kept, ended }
    }

    /// What was read, the pipe's end waited for until [`AFTER_EXIT`] past
    /// `exited`.
    fn taken(self, exited: Instant) -> String {
        let left = (exited + AFTER_EXIT).saturating_duration_since(Instant::now());
        let _ = self.ended.recv_timeout(left);
        let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        String::from_utf8_lossy(&kept).into_owned()
    }
}

/// The client's side of one SASL exchange (RFC 4422): the responses it
/// gives in turn, and what the server said in a challenge after them (an
/// OAuth 2.0 server's error, RFC 7628 §3.2.2).
pub struct Sasl {
    auth: Auth,
    responses: VecDeque<Vec<u8>>,
    refusal: Option<String>,
}

impl Sasl {
    /// The exchange for `user` with `secret` (password or token) at
    /// `host`:`port` (OAUTHBEARER names them).
    pub fn new(auth: Auth, user: &str, secret: &str, host: &str, port: u16) -> Sasl {
        let responses: Vec<String> = match auth {
            Auth::Plain => vec![format!("\0{user}\0{secret}")],
            Auth::Login => vec![user.to_string(), secret.to_string()],
            Auth::XOAuth2 => vec![format!("user={user}\x01auth=Bearer {secret}\x01\x01")],
            Auth::OAuthBearer => vec![format!(
                "n,a={},\x01host={host}\x01port={port}\x01auth=Bearer {secret}\x01\x01",
                user.replace('=', "=3D").replace(',', "=2C")
            )],
        };
        Sasl {
            auth,
            responses: responses.into_iter().map(String::into_bytes).collect(),
            refusal: None,
        }
    }

    /// The response sent with the command itself (SMTP's AUTH, RFC 4954),
    /// where the mechanism begins with the client's.
    pub fn initial(&mut self) -> Option<Vec<u8>> {
        match self.auth {
            Auth::Login => None,
            _ => self.responses.pop_front(),
        }
    }

    /// The response to the server's next challenge. A challenge after the
    /// last response is the server's error: kept, and answered as the
    /// mechanism says (XOAUTH2 an empty line, OAUTHBEARER `%x01`), so that
    /// the server sends its refusal.
    pub fn respond(&mut self, challenge: &[u8]) -> Vec<u8> {
        if let Some(response) = self.responses.pop_front() {
            return response;
        }
        let text = String::from_utf8_lossy(challenge);
        let said = printable(text.trim(), false);
        if !said.is_empty() {
            self.refusal = Some(said.chars().take(200).collect());
        }
        match self.auth {
            Auth::OAuthBearer => vec![1],
            _ => Vec::new(),
        }
    }

    /// What the server said in its error challenge, if it said anything.
    pub fn refusal(&self) -> Option<&str> {
        self.refusal.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_mechanism_gives_its_responses_in_turn() {
        // (mechanism, with the command, to the challenges)
        type Turns<'a> = (Auth, Option<&'a [u8]>, Vec<&'a [u8]>);
        let table: [Turns; 4] = [
            (Auth::Plain, Some(b"\0bot@x.test\0pw"), vec![]),
            (Auth::Login, None, vec![b"bot@x.test", b"pw"]),
            (
                Auth::XOAuth2,
                Some(b"user=bot@x.test\x01auth=Bearer pw\x01\x01"),
                vec![],
            ),
            (
                Auth::OAuthBearer,
                Some(b"n,a=bot@x.test,\x01host=mail.x.test\x01port=993\x01auth=Bearer pw\x01\x01"),
                vec![],
            ),
        ];
        for (auth, initial, then) in table {
            let mut sasl = Sasl::new(auth, "bot@x.test", "pw", "mail.x.test", 993);
            assert_eq!(sasl.initial().as_deref(), initial, "{auth:?}");
            for response in then {
                assert_eq!(sasl.respond(b"Username:"), response, "{auth:?}");
            }
        }
        // IMAP's AUTHENTICATE has no initial response: the first challenge
        // (empty) is answered with it.
        let mut sasl = Sasl::new(Auth::XOAuth2, "bot@x.test", "pw", "h", 1);
        assert_eq!(
            sasl.respond(b""),
            b"user=bot@x.test\x01auth=Bearer pw\x01\x01"
        );
    }

    #[test]
    fn an_oauth_servers_error_challenge_is_kept_and_answered_so_that_it_refuses() {
        let error = br#"{"status":"401","schemes":"bearer","scope":"mail"}"#;
        for (auth, answer) in [(Auth::XOAuth2, &b""[..]), (Auth::OAuthBearer, &[1u8][..])] {
            let mut sasl = Sasl::new(auth, "bot@x.test", "expired", "h", 587);
            assert!(sasl.initial().is_some());
            assert_eq!(sasl.respond(error), answer, "{auth:?}");
            assert_eq!(
                sasl.refusal(),
                Some(r#"{"status":"401","schemes":"bearer","scope":"mail"}"#)
            );
        }
        // A user name with `,` or `=` is escaped in OAUTHBEARER's gs2 header.
        let mut sasl = Sasl::new(Auth::OAuthBearer, "a,b=c", "t", "h", 1);
        assert!(sasl.initial().unwrap().starts_with(b"n,a=a=2Cb=3Dc,\x01"));
    }

    #[test]
    fn a_password_command_gives_its_first_line_and_says_why_it_failed() {
        let limit = Duration::from_secs(5);
        let command = |text: &str| Password::Command(text.into()).get(limit);
        assert_eq!(command("printf 'token-1\\nrest\\n'").unwrap(), "token-1");
        assert_eq!(command("echo '  padded  '").unwrap(), "padded");
        let failed = command("echo 'no refresh token' >&2; exit 3")
            .unwrap_err()
            .message;
        assert_eq!(
            failed,
            "password_command `echo 'no refresh token' >&2; exit 3` failed (exit status: 3): no refresh token"
        );
        // A secret it printed before failing, and a long error, are not
        // repeated: the error is one short line.
        let leaky = command("echo tok-123; echo \"refused tok-123 $(printf 'x%.0s' $(seq 300))\" >&2; echo more >&2; exit 4")
            .unwrap_err()
            .message;
        let (_, said) = leaky.split_once(" failed (").unwrap();
        assert!(
            said.starts_with("exit status: 4): refused […] xxx"),
            "{said}"
        );
        assert!(!said.contains("tok-123"), "{said}");
        assert!(said.ends_with("xxx… (314 bytes in all)"), "{said}");
        assert!(!said.contains("more") && !said.contains('\n'), "{said}");
        // Output past the pipe's 64 KB, and a child left holding it open.
        let long = command("echo token-2; head -c 1000000 /dev/zero | tr '\\0' x").unwrap();
        assert_eq!(long, "token-2");
        let marker = tempfile::tempdir().unwrap();
        let done = marker.path().join("done");
        let background = format!("(sleep 20; touch {}) & echo token-3", done.display());
        assert_eq!(command(&background).unwrap(), "token-3");
        assert!(!done.exists(), "the run did not wait for the child it left");
        let silent = command("true").unwrap_err().message;
        assert_eq!(silent, "password_command `true` printed nothing");
        let slow = Password::Command("sleep 5".into())
            .get(Duration::from_millis(100))
            .unwrap_err()
            .message;
        assert_eq!(
            slow,
            "password_command `sleep 5` did not finish within 100ms"
        );
        let given = Password::Given {
            variable: "PW".into(),
            value: "secret".into(),
        };
        assert_eq!(given.get(limit).unwrap(), "secret");
        assert_eq!(format!("{given:?}"), "$PW", "the secret is never printed");
    }
}

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

/// Runs `command` by the shell and takes the first line it prints: the
/// password or token. Its output must fit the pipe (64 KB; a token is a
/// few).
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
    let mut out = String::new();
    let mut err = String::new();
    if let Some(mut stdout) = child.stdout.take() {
        let _ = stdout.read_to_string(&mut out);
    }
    if let Some(mut stderr) = child.stderr.take() {
        let _ = stderr.read_to_string(&mut err);
    }
    if !status.success() {
        let said = err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let said = match said {
            "" => String::new(),
            said => format!(": {}", printable(said.trim(), false)),
        };
        return Err(failed(format!("failed ({status}){said}")));
    }
    match out.lines().next().map(str::trim) {
        Some(line) if !line.is_empty() => Ok(line.to_string()),
        _ => Err(failed("printed nothing".into())),
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

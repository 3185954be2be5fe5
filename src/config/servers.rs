//! The servers' tables checked: `[source]`, `[transport]` (a server's keys
//! each), `[security]`, and the clerk's own Xfcc server, `[xfcc]`.

use super::parse::Checker;
use super::raw::{RawReport, RawSecurity, RawSource, RawTransport, RawXfcc};
use super::{
    Alignment, Auth, ConfigError, Require, Secret, Security, Server, Source, Tls, Transport,
    TrustedId, XfccSettings,
};

/// Where `shtempel serve` listens without `[xfcc] listen`: this machine
/// only, behind a reverse proxy.
pub const DEFAULT_XFCC_LISTEN: &str = "127.0.0.1:8080";

/// The keys of a `[source]` or `[transport]` table that name a server.
pub(super) struct ServerKeys<'a> {
    host: Option<&'a str>,
    port: Option<u16>,
    tls: Option<&'a str>,
    username: Option<&'a str>,
    password_env: Option<&'a str>,
    password_command: Option<&'a str>,
    auth: Option<&'a str>,
    ca_file: Option<&'a str>,
}

/// The [`ServerKeys`] of a `[source]` or `[transport]` table: each is a
/// struct of its own, so that serde refuses a key of the other (and lists
/// the table's own), with the server's keys alike in both.
macro_rules! server_keys {
    ($table:expr) => {
        ServerKeys {
            host: $table.host.as_deref(),
            port: $table.port,
            tls: $table.tls.as_deref(),
            username: $table.username.as_deref(),
            password_env: $table.password_env.as_deref(),
            password_command: $table.password_command.as_deref(),
            auth: $table.auth.as_deref(),
            ca_file: $table.ca_file.as_deref(),
        }
    };
}

/// What a server table's defaults are: its port, how it logs in where
/// `auth` is not given, and whether a login is needed at all.
pub(super) struct ServerDefaults {
    port: u16,
    auth: Auth,
    /// SMTP without a username sends without logging in (a relay that
    /// trusts the host, as a local server does).
    login_optional: bool,
}

/// Whether `host` names this machine: `localhost` or a loopback address.
fn on_this_machine(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host.to_ascii_lowercase().ends_with(".localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|address| address.is_loopback())
}

/// The TLS mode a server's port stands for where `tls` is not given: the
/// ports of STARTTLS (IMAP 143, SMTP 587 and 25) start plain; any other,
/// implicit TLS (993, 465).
fn default_tls(port: u16) -> &'static str {
    match port {
        143 | 587 | 25 => "starttls",
        _ => "tls",
    }
}

impl Checker<'_> {
    pub(super) fn source(&self, s: &RawSource) -> Result<Source, ConfigError> {
        match s.kind.as_str() {
            "maildir" => Ok(Source::Maildir {
                path: self.resolve(s.path.as_deref().ok_or_else(|| {
                    self.err(
                        "source.path",
                        "is missing".into(),
                        "give the Maildir folder, e.g. path = \"mail/inbox\"",
                    )
                })?),
            }),
            "imap" => Ok(Source::Imap {
                server: self.server(
                    "source",
                    server_keys!(s),
                    ServerDefaults {
                        port: 993,
                        auth: Auth::Login,
                        login_optional: false,
                    },
                )?,
                mailbox: s.mailbox.clone().unwrap_or_else(|| "INBOX".into()),
                processed_mailbox: s.processed_mailbox.clone(),
            }),
            other => Err(self.err(
                "source.kind",
                format!("{other:?} is not a source"),
                "write \"maildir\" or \"imap\"",
            )),
        }
    }
    pub(super) fn transport(&self, s: &RawTransport) -> Result<Transport, ConfigError> {
        match s.kind.as_str() {
            "file" => Ok(Transport::File {
                path: self.resolve(s.path.as_deref().ok_or_else(|| {
                    self.err(
                        "transport.path",
                        "is missing".into(),
                        "give the outbox folder, e.g. path = \"mail/outbox\"",
                    )
                })?),
            }),
            "smtp" => Ok(Transport::Smtp {
                server: self.server(
                    "transport",
                    server_keys!(s),
                    ServerDefaults {
                        port: 587,
                        auth: Auth::Plain,
                        login_optional: true,
                    },
                )?,
                max_per_connection: match s.max_messages_per_connection {
                    None => 100,
                    Some(0) => {
                        return Err(self.err(
                            "transport.max_messages_per_connection",
                            "0 would send nothing".into(),
                            "leave it out for 100, or give the provider's limit",
                        ));
                    }
                    Some(n) => n,
                },
                max_per_minute: match s.max_per_minute {
                    Some(0) => {
                        return Err(self.err(
                            "transport.max_per_minute",
                            "0 would send nothing".into(),
                            "leave it out for no limit, or give the provider's limit",
                        ));
                    }
                    limit => limit,
                },
            }),
            "sendmail" => Ok(Transport::Sendmail {
                command: s
                    .command
                    .clone()
                    .unwrap_or_else(|| "/usr/sbin/sendmail".into()),
            }),
            other => Err(self.err(
                "transport.kind",
                format!("{other:?} is not a transport"),
                "write \"file\", \"smtp\" or \"sendmail\"",
            )),
        }
    }
    pub(super) fn server(
        &self,
        section: &str,
        keys: ServerKeys<'_>,
        defaults: ServerDefaults,
    ) -> Result<Server, ConfigError> {
        let missing =
            |key: &str, fix: &str| self.err(&format!("{section}.{key}"), "is missing".into(), fix);
        let host = keys
            .host
            .ok_or_else(|| missing("host", "give the server's host name"))?;
        let port = keys.port.unwrap_or(defaults.port);
        let tls = match keys.tls.unwrap_or_else(|| default_tls(port)) {
            "tls" => Tls::Tls,
            "starttls" => Tls::StartTls,
            "none" => Tls::None,
            other => {
                return Err(self.err(
                    &format!("{section}.tls"),
                    format!("{other:?} is not a TLS mode"),
                    "write \"tls\", \"starttls\" or \"none\"",
                ));
            }
        };
        let auth = match keys.auth {
            None => defaults.auth,
            Some("plain") => Auth::Plain,
            Some("login") => Auth::Login,
            Some("xoauth2") => Auth::XOAuth2,
            Some("oauthbearer") => Auth::OAuthBearer,
            Some(other) => {
                return Err(self.err(
                    &format!("{section}.auth"),
                    format!("{other:?} is not a way to log in"),
                    "write \"plain\", \"login\", \"xoauth2\" or \"oauthbearer\" (the last two take an OAuth 2.0 token from password_command)",
                ));
            }
        };
        let (username, secret) = match keys.username {
            None if defaults.login_optional && keys.auth.is_none() => ("", Secret::None),
            None => return Err(missing("username", "give the login name")),
            Some(username) => (username, self.secret(section, &keys)?),
        };
        // A login in the clear is one anyone on the way can read: only to a
        // server on this machine.
        if tls == Tls::None && secret != Secret::None && !on_this_machine(host) {
            return Err(self.err(
                &format!("{section}.tls"),
                format!(
                    "\"none\" would send the login of {username} to {host} in the clear, for \
                     anyone on the way to read"
                ),
                "write \"starttls\" (ports 587, 143) or \"tls\" (465, 993), or leave tls out for \
                 the port's own; \"none\" is for a server on this machine (host = \"127.0.0.1\")",
            ));
        }
        let ca_file = keys.ca_file.map(|file| self.resolve(file));
        if let Some(file) = &ca_file {
            // The certificates are read when TLS starts (mail::tls); here
            // only whether the file is one of them.
            let why = match std::fs::read_to_string(file) {
                Ok(text) if text.contains("-----BEGIN CERTIFICATE-----") => None,
                Ok(_) => Some(format!("{}: no PEM certificate in it", file.display())),
                Err(e) => Some(format!("{}: cannot be read: {e}", file.display())),
            };
            if let Some(why) = why {
                return Err(self.err(
                    &format!("{section}.ca_file"),
                    why,
                    "give the PEM file of the certificate authority that signed the server's certificate",
                ));
            }
        }
        Ok(Server {
            host: host.into(),
            port,
            tls,
            username: username.into(),
            secret,
            auth,
            ca_file,
        })
    }
    /// Where a login's password or token comes from: one of `password_env`
    /// and `password_command`.
    fn secret(&self, section: &str, keys: &ServerKeys<'_>) -> Result<Secret, ConfigError> {
        match (keys.password_env, keys.password_command) {
            (Some(_), Some(_)) => Err(self.err(
                &format!("{section}.password_command"),
                "is given beside password_env".into(),
                "keep one: password_env for a password in the environment, password_command for a command that prints it (a token helper)",
            )),
            (Some(variable), None) => Ok(Secret::Env(variable.into())),
            (None, Some(command)) if command.trim().is_empty() => Err(self.err(
                &format!("{section}.password_command"),
                "is empty".into(),
                "give the command that prints the password or the access token, e.g. \"pass show mail/chess\"",
            )),
            (None, Some(command)) => Ok(Secret::Command(command.into())),
            (None, None) => Err(self.err(
                &format!("{section}.password_env"),
                "is missing".into(),
                "name the environment variable that holds the password, e.g. \"SHTEMPEL_PASSWORD\", or give password_command",
            )),
        }
    }
    /// A web address of the config at `key`: http:// or https://.
    fn web_address<'u>(
        &self,
        key: &str,
        url: &'u str,
        (none, fix): (&str, &str),
    ) -> Result<&'u str, ConfigError> {
        let url = url.trim();
        if url.starts_with("https://") || url.starts_with("http://") {
            return Ok(url);
        }
        let said = match url.is_empty() {
            true => none.to_string(),
            false => format!("{url:?} is not an http:// or https:// address"),
        };
        Err(self.err(key, said, fix))
    }

    /// `[report] url`: where the report is published, if it is.
    pub(super) fn report_url(&self, raw: &RawReport) -> Result<Option<String>, ConfigError> {
        let Some(url) = raw.url.as_deref() else {
            return Ok(None);
        };
        let url = self.web_address(
            "report.url",
            url,
            (
                "the address is empty",
                "give the address the folder of [report] out is published at, \"https://chess.example.org/cup\", or leave the key out",
            ),
        )?;
        Ok(Some(url.trim_end_matches('/').to_string()))
    }

    pub(super) fn xfcc(&self, raw: &RawXfcc) -> Result<XfccSettings, ConfigError> {
        let url = self.web_address(
            "xfcc.url",
            raw.url.as_deref().unwrap_or_default(),
            (
                "no address is given for the players' chess programs",
                "give the address the players' chess programs reach the server at, as they must type it: \"https://chess.example.org/xfcc\"",
            ),
        )?;
        let listen = raw.listen.as_deref().unwrap_or(DEFAULT_XFCC_LISTEN);
        let listen = listen.parse().map_err(|_| {
            self.err(
                "xfcc.listen",
                format!("{listen:?} is not an address and port"),
                "write the address and port to listen on, as \"127.0.0.1:8080\" (behind a reverse proxy) or \"0.0.0.0:443\"",
            )
        })?;
        let tls = match (&raw.tls_cert, &raw.tls_key) {
            (Some(cert), Some(key)) => Some((self.resolve(cert), self.resolve(key))),
            (None, None) => None,
            (Some(_), None) | (None, Some(_)) => {
                let missing = if raw.tls_key.is_none() {
                    "tls_key"
                } else {
                    "tls_cert"
                };
                return Err(self.err(
                    &format!("xfcc.{missing}"),
                    "TLS needs both the certificate and its key".to_string(),
                    "give both tls_cert and tls_key (PEM files), or neither where a reverse proxy speaks TLS",
                ));
            }
        };
        Ok(XfccSettings {
            url: url.to_string(),
            listen,
            tls,
        })
    }

    pub(super) fn security(&self, raw: &RawSecurity) -> Result<Security, ConfigError> {
        let require = match raw.require.as_deref().unwrap_or("none") {
            "none" => Require::None,
            "dkim" => Require::Dkim,
            "spf" => Require::Spf,
            other => {
                return Err(self.err(
                    "security.require",
                    format!("{other:?} is not a check"),
                    "write \"dkim\", \"spf\" or \"none\"",
                ));
            }
        };
        let alignment = match raw.alignment.as_deref().unwrap_or("strict") {
            "strict" => Alignment::Strict,
            "relaxed" => Alignment::Relaxed,
            other => {
                return Err(self.err(
                    "security.alignment",
                    format!("{other:?} is not an alignment"),
                    "write \"strict\" (the From: domain itself) or \"relaxed\" (a subdomain of it, or the domain it is under, passes too)",
                ));
            }
        };
        let written = raw
            .trusted_authserv_id
            .as_ref()
            .map_or(&[][..], |ids| ids.values());
        let trusted = written
            .iter()
            .map(|id| self.trusted_id(id))
            .collect::<Result<Vec<_>, _>>()?;
        if require != Require::None && trusted.is_empty() {
            return Err(self.err(
                "security.trusted_authserv_id",
                "is missing, and security.require needs it".into(),
                "give the authserv-id your own mail server writes in Authentication-Results (often its host name), or a list of them",
            ));
        }
        Ok(Security {
            trusted,
            require,
            alignment,
        })
    }

    /// One entry of `trusted_authserv_id`: a host name, or `*.` and a
    /// domain of two labels or more.
    fn trusted_id(&self, written: &str) -> Result<TrustedId, ConfigError> {
        let key = "security.trusted_authserv_id";
        let id = written.trim().trim_end_matches('.').to_ascii_lowercase();
        let refuse = |problem: String, fix: &str| Err(self.err(key, problem, fix));
        if id.is_empty() {
            return refuse(
                "has an empty name".into(),
                "give the authserv-id your server writes, as \"mx.example.org\"",
            );
        }
        if id.contains(|c: char| c.is_whitespace() || c == ';' || c == '"') {
            return refuse(
                format!("{written:?} is not an authserv-id"),
                "give only the name before the first \";\" of the field, as \"mx.example.org\"",
            );
        }
        if id == "*" {
            return refuse(
                "is a bare \"*\", which would trust any field, a sender's own too".into(),
                "name your server's authserv-id, or \"*.\" and the domain all its ids are under, as \"*.mail.yandex.net\"",
            );
        }
        let Some(domain) = id.strip_prefix("*.") else {
            if id.contains('*') {
                return refuse(
                    format!("{written:?} has a * that is not its first label"),
                    "write the pattern as \"*.\" and the domain every id is under, as \"*.mail.yandex.net\"",
                );
            }
            return Ok(TrustedId::Host(id));
        };
        if domain.contains('*') || domain.split('.').filter(|l| !l.is_empty()).count() < 2 {
            return refuse(
                format!("{written:?} would trust the fields of servers you do not run"),
                "name your server, or \"*.\" and a domain of your provider of two labels or more, as \"*.mail.yandex.net\"; a bare \"*\" would trust a sender's own field",
            );
        }
        Ok(TrustedId::Under(domain.to_string()))
    }
}

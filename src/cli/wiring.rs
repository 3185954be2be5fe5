//! The adapters a run is wired with: each tournament's clerk and
//! templates, the mail source and transport, and their passwords.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use chrono::{NaiveDate, Utc};

use shtempel::clerk::{Clerk, Directory};
use shtempel::config::{Config, Secret, Server, Source, Transport};
use shtempel::mail::MailSource;
use shtempel::mail::login::Password;
use shtempel::mail::source::imap::{ImapSettings, ImapSource};
use shtempel::mail::source::maildir::Maildir;
use shtempel::mail::transport::file::FileTransport;
use shtempel::mail::transport::sendmail::SendmailSender;
use shtempel::mail::transport::smtp::{Pace, SmtpSender};
use shtempel::render::Templates;
use shtempel::xfcc::login::Seed;

use super::{Failure, clock, run_error, usage};

/// A clerk for each tournament, as of `now` (or `today`), with the others
/// beside it where there are several, each issuing Xfcc logins from one
/// seed the run draws from the operating system (where it cannot, a
/// letter asking one fails this run and is read again by the next).
pub(super) fn clerks<'a>(
    directory: &'a Directory<'a>,
    now: chrono::DateTime<Utc>,
    today: Option<NaiveDate>,
) -> Vec<Clerk<'a>> {
    let seed = drawn_seed();
    Clerk::of_each(directory, |config| clock(config, now, today))
        .into_iter()
        .map(|clerk| match seed {
            Some(seed) => clerk.with_seed(seed),
            None => clerk,
        })
        .collect()
}

/// The run's seed of new passwords, from the operating system.
fn drawn_seed() -> Option<Seed> {
    use rand_core::RngCore;
    let mut bytes = [0u8; 32];
    rand_core::OsRng.try_fill_bytes(&mut bytes).ok()?;
    Some(Seed::from_bytes(bytes))
}

/// The folder's directory, each tournament with its templates.
pub(super) fn directory<'a>(
    configs: &'a [Config],
    templates: &'a [Templates],
    template_of: &[usize],
) -> Directory<'a> {
    let templates = template_of.iter().map(|&at| &templates[at]).collect();
    Directory::of(configs).with_templates(templates)
}

/// The templates of each tournament: loaded once for each folder and
/// language they share (a federation's hundred events have two).
pub(super) fn templates_of(configs: &[Config]) -> Result<(Vec<Templates>, Vec<usize>), Failure> {
    let mut loaded: Vec<((&Path, shtempel::Lang), Templates)> = Vec::new();
    let mut index = Vec::with_capacity(configs.len());
    for config in configs {
        let wanted = (config.templates.as_path(), config.language);
        let at = match loaded.iter().position(|(key, _)| *key == wanted) {
            Some(at) => at,
            None => {
                loaded.push((wanted, templates(config)?));
                loaded.len() - 1
            }
        };
        index.push(at);
    }
    Ok((loaded.into_iter().map(|(_, t)| t).collect(), index))
}

pub(super) fn templates(config: &Config) -> Result<Templates, Failure> {
    Templates::load(&config.templates, config.language)
        .map_err(|e| usage(format!("templates: {e}")))
}

/// The password of `section`'s server (`source`): from the environment
/// variable `password_env` names, read now, or the command
/// `password_command` names, run at each login; none where the server
/// takes no login.
pub(super) fn password(
    config: &Config,
    section: &str,
    server: &Server,
) -> Result<Option<Password>, Failure> {
    let value = match &server.secret {
        Secret::Env(variable) => Some(std::env::var(variable).map_err(|_| {
            usage(format!(
                "{}: {section}.password_env: the environment variable {variable} is not set; export it with the password before running",
                config.file.display()
            ))
        })?),
        Secret::Command(_) | Secret::None => None,
    };
    Ok(Password::of(&server.secret, value))
}

/// The limit for each network call.
const NETWORK_TIMEOUT: Duration = Duration::from_secs(30);

pub(super) fn source(config: &Config) -> Result<Box<dyn MailSource>, Failure> {
    let mail: Box<dyn MailSource> = match &config.source {
        Source::Maildir { path } => {
            Box::new(Maildir::open(path).map_err(|e| run_error(e.message))?)
        }
        Source::Imap { .. } => Box::new(imap_source(config)?),
    };
    // The moves the Xfcc server took go with the mail, wherever it made
    // its spool (also after `[xfcc]` is taken out: none is lost).
    shtempel::mail::source::spool::WithSpool::over(mail, &config.xfcc_spool())
        .map_err(|e| run_error(e.message))
}

/// The IMAP source of a config whose `[source]` is one.
pub(super) fn imap_source(config: &Config) -> Result<ImapSource, Failure> {
    let Source::Imap {
        server,
        mailbox,
        processed_mailbox,
    } = &config.source
    else {
        return Err(run_error("[source] is not an IMAP mailbox"));
    };
    let settings = ImapSettings {
        server: server.clone(),
        password: password(config, "source", server)?.ok_or_else(|| {
            usage("[source] takes a login: give password_env or password_command")
        })?,
        mailbox: mailbox.clone(),
        processed_mailbox: processed_mailbox.clone(),
        timeout: NETWORK_TIMEOUT,
        max_letter_bytes: config.limits.max_letter_bytes,
    };
    ImapSource::new(settings).map_err(|e| run_error(e.message))
}

/// The transport of `config`; an SMTP one stops waiting on its server
/// within a second of `stop` (SIGTERM).
pub(super) fn transport(
    config: &Config,
    stop: Option<&Arc<AtomicBool>>,
) -> Result<Box<dyn shtempel::mail::Transport>, Failure> {
    match &config.transport {
        Transport::File { path } => Ok(Box::new(
            FileTransport::open(path).map_err(|e| run_error(e.message))?,
        )),
        Transport::Smtp { .. } => Ok(Box::new(smtp_sender(config)?.stop_on(stop.cloned()))),
        Transport::Sendmail { command } => {
            Ok(Box::new(SendmailSender::new(command, &config.address)))
        }
    }
}

/// The SMTP transport of a config whose `[transport]` is one.
pub(super) fn smtp_sender(config: &Config) -> Result<SmtpSender, Failure> {
    let Transport::Smtp {
        server,
        max_per_connection,
        max_per_minute,
    } = &config.transport
    else {
        return Err(run_error("[transport] is not an SMTP server"));
    };
    let password = password(config, "transport", server)?;
    let sender = SmtpSender::new(server, password, &config.address, NETWORK_TIMEOUT)
        .map_err(|e| usage(e.message))?
        .max_per_connection(*max_per_connection)
        .pace(max_per_minute.map(|limit| {
            // The steady clock of this run, read here (only main
            // reads the clock).
            let start = std::time::Instant::now();
            Pace::new(
                limit,
                Box::new(move || start.elapsed()),
                Box::new(std::thread::sleep),
            )
        }));
    Ok(sender)
}

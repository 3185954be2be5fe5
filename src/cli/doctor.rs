//! `shtempel doctor`: whether what a run needs is there and works, as a
//! checklist with the fix of each failure; sends no letter (but the one
//! test message `--send-test` asks for) and changes nothing.

use std::path::Path;

use chrono::Utc;

use shtempel::clerk::{Clerk, Directory};
use shtempel::config::{Auth, Config, Server, Source, Transport};
use shtempel::mail::format::auth::{self, Survey};
use shtempel::mail::format::{compose, identity, mime};
use shtempel::mail::source::maildir::Maildir;
use shtempel::mail::transport::file::FileTransport;
use shtempel::printable::printable;
use shtempel::store::{DatabaseFile, Store};

use super::database::not_ours;
use super::wiring::{imap_source, smtp_sender, templates, transport};
use super::{Context, Failure, clock, load_all, run_error};

#[derive(clap::Args)]
pub struct Args {
    /// Also send one test message to this address through the transport,
    /// once every other check passes (the record is not touched).
    #[arg(long, value_name = "ADDRESS")]
    send_test: Option<String>,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let configs = match load_all(&cx.config) {
            Ok(configs) => configs,
            Err(failure) => {
                show(&Check::failed("config", failure.message));
                return Ok(1);
            }
        };
        let mut checks = checks(&cx.config, &configs, cx.now);
        if let Some(address) = &self.send_test {
            checks.push(match checks.iter().all(|c| c.outcome.is_ok()) {
                true => Check::of("send test", send_test(&configs[0], cx.now, address)),
                false => Check::failed("send test", "not sent: a check above failed"),
            });
        }
        for check in &checks {
            show(check);
        }
        let failed = checks.iter().filter(|c| c.outcome.is_err()).count();
        let warned = checks.iter().filter(|c| c.warning).count();
        match failed {
            0 if warned > 0 => {
                println!(
                    "doctor: all {} checks pass, {warned} with a warning",
                    checks.len()
                );
                Ok(0)
            }
            0 => {
                println!("doctor: all {} checks pass", checks.len());
                Ok(0)
            }
            _ => {
                println!("doctor: {failed} of {} checks failed", checks.len());
                Ok(1)
            }
        }
    }
}

/// One line of the checklist: what was checked, and what was found (or
/// what failed, with its fix); a warning passes, but says what may go
/// wrong.
struct Check {
    what: &'static str,
    outcome: Result<String, Failure>,
    warning: bool,
}

impl Check {
    fn passed(what: &'static str, found: impl Into<String>) -> Check {
        Check::of(what, Ok(found.into()))
    }

    fn failed(what: &'static str, problem: impl std::fmt::Display) -> Check {
        Check::of(what, Err(run_error(problem)))
    }

    fn warned(what: &'static str, found: impl Into<String>) -> Check {
        Check {
            warning: true,
            ..Check::passed(what, found)
        }
    }

    fn of(what: &'static str, outcome: Result<String, Failure>) -> Check {
        Check {
            what,
            outcome,
            warning: false,
        }
    }
}

fn show(check: &Check) {
    match &check.outcome {
        Ok(found) if check.warning => {
            println!("warn  {:<10}  {}", check.what, printable(found, false))
        }
        Ok(found) => println!("ok    {:<10}  {}", check.what, printable(found, false)),
        Err(problem) => println!(
            "FAIL  {:<10}  {}",
            check.what,
            printable(&problem.message, false)
        ),
    }
}

/// Every check, in the order a run needs them: the config (the file given,
/// the clerk's of a folder, not its first event's), each tournament's zone
/// and templates, the database, the mail source and transport (the
/// clerk's, shared by a folder's tournaments), the reports.
fn checks(given: &Path, configs: &[Config], now: chrono::DateTime<Utc>) -> Vec<Check> {
    let Some(first) = configs.first() else {
        return vec![Check::failed("config", "no tournament")];
    };
    let ids: Vec<&str> = configs.iter().map(|c| c.tournament_id.as_str()).collect();
    let mut checks = vec![Check::passed(
        "config",
        format!(
            "{}: {} tournament(s) ({})",
            given.display(),
            configs.len(),
            ids.join(", ")
        ),
    )];
    for config in configs {
        let today = clock(config, now, None).today;
        checks.push(Check::passed(
            "time zone",
            format!(
                "{}: {} (today there: {today})",
                config.tournament_id, config.timezone
            ),
        ));
        checks.push(Check::of(
            "templates",
            templates(config).map(|_| {
                format!(
                    "{}: {} ({})",
                    config.tournament_id,
                    config.templates.display(),
                    config.language.pick("ru", "en")
                )
            }),
        ));
        checks.push(Check::of("templates", other_language(config)));
    }
    checks.push(Check::of("database", database(first)));
    checks.push(Check::of("source", source_works(first)));
    if let Some(check) = verdicts(first) {
        checks.push(check);
    }
    checks.push(Check::of("transport", transport_works(first)));
    for config in configs.iter().filter(|c| c.report_out.is_some()) {
        checks.push(Check::of("report", report_folder(config)));
    }
    if let Some(xfcc) = &first.xfcc {
        checks.push(xfcc_server(xfcc));
    }
    if first.xfcc.is_some() || first.xfcc_spool().is_dir() {
        checks.push(waiting_moves(first, now));
    }
    checks
}

/// How long a move taken may wait in the spool before doctor says so: the
/// server's pass, or cron's poll, applies it within a minute.
const MOVES_WAIT_AT_MOST: chrono::TimeDelta = chrono::TimeDelta::minutes(5);

/// The moves the Xfcc server took and no pass has applied yet: a warning
/// where the oldest has waited longer than a pass takes to come.
fn waiting_moves(config: &Config, now: chrono::DateTime<Utc>) -> Check {
    let what = "xfcc moves";
    let spool = config.xfcc_spool();
    let names = match shtempel::mail::source::spool::waiting(&spool) {
        Ok(names) => names,
        Err(error) => return Check::failed(what, format!("{}: {error}", spool.display())),
    };
    let oldest = names
        .iter()
        .filter_map(|name| shtempel::xfcc::letter::taken_at(name))
        .min();
    match oldest {
        None => Check::passed(what, format!("none waits in {}", spool.display())),
        Some(oldest) if now - oldest <= MOVES_WAIT_AT_MOST => Check::passed(
            what,
            format!(
                "{} taken in the last minutes, for the next pass",
                names.len()
            ),
        ),
        Some(oldest) => Check::warned(
            what,
            format!(
                "{} move(s) from chess programs wait in {} since {}: no pass has applied them; \
                 the server runs one for each move it takes (see its log), and any poll takes \
                 them: run `shtempel poll`",
                names.len(),
                spool.join("new").display(),
                oldest.format("%Y-%m-%d %H:%M UTC")
            ),
        ),
    }
}

/// The Xfcc server of `[xfcc]`: its certificate loads, and something
/// answers where it listens (`shtempel serve`, started apart).
fn xfcc_server(xfcc: &shtempel::config::XfccSettings) -> Check {
    let what = "xfcc";
    if let Some((cert, key)) = &xfcc.tls
        && let Err(error) = shtempel::serve::tls_loads(cert, key)
    {
        return Check::failed(what, error);
    }
    let listen = xfcc.listen;
    match std::net::TcpStream::connect_timeout(&listen, std::time::Duration::from_secs(3)) {
        Ok(_) => Check::passed(
            what,
            format!(
                "something answers on {listen}; players reach it at {}",
                xfcc.url
            ),
        ),
        Err(_) => Check::warned(
            what,
            format!(
                "nothing listens on {listen}: start `shtempel serve` (contrib/shtempel-serve.service) for players to reach {}",
                xfcc.url
            ),
        ),
    }
}

/// The tournament's templates in the language it does not write in, which
/// a player who writes `LANGUAGE` gets his letters in.
fn other_language(config: &Config) -> Result<String, Failure> {
    let (own, other) = match config.language {
        shtempel::Lang::Ru => ("ru", shtempel::Lang::En),
        shtempel::Lang::En => ("en", shtempel::Lang::Ru),
    };
    let name = other.pick("ru", "en");
    shtempel::render::Templates::load(&config.templates, other)
        .map(|_| {
            format!(
                "{}: {} ({name}, for a player who writes LANGUAGE {})",
                config.tournament_id,
                config.templates.display(),
                name.to_uppercase()
            )
        })
        .map_err(|e| {
            run_error(format!(
                "{}: {e}; a player who writes LANGUAGE {} gets his letters in {own} until it is mended",
                config.tournament_id,
                name.to_uppercase()
            ))
        })
}

/// The database: the clerk's, at a schema this build knows, and writable
/// (looked at, not opened: opening may bring its schema up to date).
fn database(config: &Config) -> Result<String, Failure> {
    let path = config.database.display();
    let backup = format!("back it up with: sqlite3 {path} \".backup COPY\"");
    match Store::inspect(&config.database) {
        DatabaseFile::Missing | DatabaseFile::Empty => {
            writable_folder(folder_of(&config.database))?;
            Ok(format!(
                "{path}: not made yet; the first poll (or shtempel init) makes it"
            ))
        }
        file @ (DatabaseFile::Ours | DatabaseFile::Older(_)) => {
            std::fs::OpenOptions::new()
                .append(true)
                .open(&config.database)
                .map_err(|e| {
                    run_error(format!(
                        "{path}: cannot be written: {e}; give the clerk's user write access to it"
                    ))
                })?;
            writable_folder(folder_of(&config.database))?;
            let build = shtempel::store::schema_version();
            Ok(match file {
                DatabaseFile::Older(schema) => format!(
                    "{path}: the clerk's, schema {schema}; this build writes {build}: the next \
                     command that writes it (poll) upgrades it, keeping a copy of it as it is \
                     ({path}.schema-{schema}); {backup}"
                ),
                _ => format!("{path}: the clerk's, schema {build}; {backup}"),
            })
        }
        other => Err(not_ours(config, &other)),
    }
}

fn folder_of(file: &Path) -> &Path {
    match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Whether the clerk may make a file in `folder` (the database's journal,
/// a report page): one made and removed.
fn writable_folder(folder: &Path) -> Result<(), Failure> {
    tempfile::Builder::new()
        .prefix(".shtempel-doctor")
        .tempfile_in(folder)
        .map(drop)
        .map_err(|e| {
            run_error(format!(
                "{}: no file can be made there: {e}; make the folder, and let the clerk's user write in it",
                folder.display()
            ))
        })
}

/// How a server is logged into where it is not the usual way (` by
/// XOAUTH2`).
fn by(server: &Server, usual: Auth) -> String {
    match server.auth == usual {
        true => String::new(),
        false => format!(" by {}", server.auth.name()),
    }
}

/// The mail source: a Maildir that opens, or an IMAP mailbox logged into
/// and selected, with what the server offers.
fn source_works(config: &Config) -> Result<String, Failure> {
    match &config.source {
        Source::Maildir { path } => Maildir::open(path)
            .map(|_| format!("Maildir {}", path.display()))
            .map_err(|e| run_error(e.message)),
        Source::Imap {
            server, mailbox, ..
        } => {
            let mut imap = imap_source(config)?;
            let probe = imap.probe().map_err(|e| run_error(e.message))?;
            let yes = |offered: bool| if offered { "yes" } else { "no" };
            let mut found = format!(
                "IMAP {}:{} as {}{}, mailbox {mailbox:?}; MOVE {}, UIDPLUS {}, IDLE {}",
                server.host,
                server.port,
                server.username,
                by(server, Auth::Login),
                yes(probe.moves),
                yes(probe.uidplus),
                yes(probe.idle)
            );
            if let Some(processed) = probe.processed_mailbox {
                processed.map_err(|why| {
                    run_error(format!("{found}; the processed mailbox cannot be opened: {why}; make it, or check [source] processed_mailbox"))
                })?;
                found.push_str("; the processed mailbox is there");
            }
            if !probe.idle {
                found.push_str(" (without IDLE, `watch` looks every --interval minutes)");
            }
            Ok(found)
        }
    }
}

/// How many of the mailbox's last letters `doctor` reads for the server's
/// verdicts.
const LETTERS_SURVEYED: usize = 20;

/// Whether the trusted server writes its verdict on every letter that
/// needs one, read from the mailbox's last letters (`[security] require`
/// set; `None` otherwise). The clerk's rule is safe only where it does, or
/// removes incoming fields with its id (docs/running.md).
fn verdicts(config: &Config) -> Option<Check> {
    let method = auth::method(config.security.require)?;
    let what = "security";
    let heads = match &config.source {
        Source::Maildir { path } => {
            Maildir::open(path).and_then(|m| m.recent_heads(LETTERS_SURVEYED))
        }
        Source::Imap { .. } => match imap_source(config) {
            Ok(mut imap) => imap.recent_heads(LETTERS_SURVEYED),
            Err(failure) => return Some(Check::of(what, Err(failure))),
        },
    };
    let heads = match heads {
        Ok(heads) => heads,
        Err(e) => return Some(Check::failed(what, e.message)),
    };
    let traces: Vec<_> = heads
        .iter()
        .filter_map(|head| mime::parse(head, &config.address))
        .map(|mail| mail.trace)
        .collect();
    let check = auth::Check {
        trusted: &config.security.trusted,
        method,
        alignment: config.security.alignment,
    };
    let survey = check.survey(traces.iter().map(Vec::as_slice));
    Some(verdicts_said(config, method, &survey))
}

/// The checklist's line for what the survey found.
fn verdicts_said(config: &Config, method: &str, survey: &Survey) -> Check {
    let what = "security";
    let ids = config
        .security
        .trusted
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let kind = if method == "dkim" { "signed " } else { "" };
    let seen = match survey.topmost_ids.as_slice() {
        [] => "no Authentication-Results field at all".to_string(),
        named => named
            .iter()
            .map(|(id, letters)| format!("{id} ({letters})"))
            .collect::<Vec<_>>()
            .join(", "),
    };
    if survey.letters == 0 {
        return Check::warned(
            what,
            format!(
                "cannot tell whether {ids} writes a {method} verdict on every letter: the mailbox holds none yet; run doctor again once letters have come"
            ),
        );
    }
    if survey.needing == 0 {
        return Check::warned(
            what,
            format!(
                "cannot tell whether {ids} writes a {method} verdict on every signed letter: none of the last {} letters carries a DKIM signature",
                survey.letters
            ),
        );
    }
    let missing = survey.needing - survey.with_verdict;
    if survey.with_verdict == 0 {
        return Check::failed(
            what,
            format!(
                "none of the last {} {kind}letters carries a {method} verdict of {ids}, so the clerk would refuse every one; their topmost fields name {seen}: set [security] trusted_authserv_id to the id your server writes",
                survey.needing
            ),
        );
    }
    if missing > 0 {
        return Check::warned(
            what,
            format!(
                "{ids} wrote no {method} verdict on {missing} of the last {} {kind}letters: on such a letter a field the sender wrote himself would be read. Have the server write its {method} result on every letter (OpenDKIM: AlwaysAddARHeader; OpenDMARC: SPFSelfValidate; rspamd does), or remove incoming fields with its id (OpenDKIM: RemoveARFrom), and check that trusted_authserv_id names every id it writes",
                survey.needing
            ),
        );
    }
    Check::passed(
        what,
        format!(
            "{ids} wrote a {method} verdict on each of the last {} {kind}letters ({} read); the topmost decides",
            survey.needing, survey.letters
        ),
    )
}

/// The transport: an outbox folder the clerk may write, an SMTP server
/// logged into (nothing sent), or a sendmail program that is there.
fn transport_works(config: &Config) -> Result<String, Failure> {
    match &config.transport {
        Transport::File { path } => {
            FileTransport::open(path).map_err(|e| run_error(e.message))?;
            writable_folder(path)?;
            Ok(format!("outbox folder {}", path.display()))
        }
        Transport::Smtp { server, .. } => {
            let mut smtp = smtp_sender(config)?;
            let probe = smtp
                .probe()
                .map_err(|e| match e.message.contains("; check ") {
                    // A refused login, or TLS, says what to check itself.
                    true => run_error(e.message),
                    false => run_error(format!(
                        "{}; check [transport] host, port, tls, username and the password",
                        e.message
                    )),
                })?;
            let most = config.limits.max_message_bytes;
            if let Some(bytes) = probe.size_limit
                && bytes < most as u64
            {
                return Err(run_error(format!(
                    "SMTP {}:{} takes messages up to {bytes} bytes, less than [limits] \
                     max_message_bytes = {most}, to which the chief arbiter's overstep file is \
                     made; set max_message_bytes = {bytes} in [limits]",
                    server.host, server.port
                )));
            }
            let yes = |offered: bool| if offered { "yes" } else { "no" };
            let size = match probe.size_limit {
                Some(bytes) => format!("messages up to {} KB", bytes / 1024),
                None => "no size limit given".to_string(),
            };
            let login = match server.username.as_str() {
                "" => "without a login".to_string(),
                user => format!("as {user}{}", by(server, Auth::Plain)),
            };
            Ok(format!(
                "SMTP {}:{} {login}; PIPELINING {}, CHUNKING {}, {size}",
                server.host,
                server.port,
                yes(probe.pipelining),
                yes(probe.chunking)
            ))
        }
        Transport::Sendmail { command } => {
            let path = Path::new(command);
            match std::fs::metadata(path) {
                Ok(meta) if meta.is_file() => Ok(format!("sendmail {command}")),
                _ => Err(run_error(format!(
                    "{command}: no such program; install the host's mail server, or give [transport] command"
                ))),
            }
        }
    }
}

/// The report's folder: made if missing, and writable.
fn report_folder(config: &Config) -> Result<String, Failure> {
    let Some(out) = &config.report_out else {
        return Ok("none".into());
    };
    std::fs::create_dir_all(out).map_err(|e| {
        run_error(format!(
            "{}: cannot be made: {e}; check [report] out",
            out.display()
        ))
    })?;
    writable_folder(out)?;
    Ok(format!("{}: {}", config.tournament_id, out.display()))
}

/// The test message sent to `address` through the transport, with the
/// server's answer.
fn send_test(
    config: &Config,
    now: chrono::DateTime<Utc>,
    address: &str,
) -> Result<String, Failure> {
    if let Transport::File { .. } = config.transport {
        // A file in the outbox folder would tell nothing of the mail path,
        // and would make a first poll take the outbox for a used one.
        return Err(run_error(
            "not sent: [transport] is an outbox folder (kind = \"file\"); the test is for \"smtp\" and \"sendmail\"",
        ));
    }
    let templates = templates(config)?;
    let directory = Directory::of(std::slice::from_ref(config));
    let clerk = Clerk::new(config, &templates, clock(config, now, None), &directory);
    let message = clerk.test_message(address).map_err(run_error)?;
    let cause = format!("doctor:{address}");
    let parts = identity::IdParts {
        cause: &cause,
        at: now,
        index: 0,
        kind: "test",
    };
    let id = identity::message_id(config, parts);
    let sender = identity::sender(config, templates.phrases());
    let raw = compose::build(&message, &sender, &id, now).map_err(run_error)?;
    let mut transport = transport(config, None)?;
    let receipt = transport
        .send(&[address.to_string()], &raw)
        .map_err(|e| run_error(format!("to {address}: {}", e.message)))?;
    Ok(format!("sent to {address}: {}", receipt.line))
}

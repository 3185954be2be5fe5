//! One request answered: the WSDL for `GET …?wsdl`, and a SOAP call read,
//! its login checked, and answered from the clerk's record. The tournament
//! files are read anew for a request wherever they changed (files), so that
//! a director's edit holds at once; the database is opened for the request
//! alone. A login verified is taken again for a while without Argon2
//! (verified).

use std::net::IpAddr;
use std::path::Path;
use std::sync::Mutex;
use std::time::Instant;

use chrono::{DateTime, Utc};

use super::files::Files;
use super::games::{MoveAsked, Who, games_of, move_answer};
use super::gate::Gate;
use super::verified::Verified;
use crate::config::Config;
use crate::error::Error;
use crate::store::Store;
use crate::xfcc::login::{verify, verify_nobody};
use crate::xfcc::soap::{fault, games_response, move_response, read_request};
use crate::xfcc::{Login, MoveResult, Request, wsdl};

/// What the server sends back: its HTTP status, content type and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: String,
}

const XML: &str = "text/xml; charset=utf-8";

impl Reply {
    fn xml(body: String) -> Reply {
        Reply {
            status: 200,
            content_type: XML,
            body,
        }
    }

    /// A SOAP fault: HTTP 500, as SOAP 1.1 answers one.
    fn fault(client: bool, words: &str) -> Reply {
        Reply {
            status: 500,
            content_type: XML,
            body: fault(client, words),
        }
    }
}

/// One request as it came: who sent it, when, and what.
pub struct Asked<'a> {
    pub peer: IpAddr,
    pub now: DateTime<Utc>,
    /// For the gate's window (a monotonic clock).
    pub instant: Instant,
    pub get: bool,
    pub query: Option<&'a str>,
    pub body: &'a [u8],
}

/// What the server keeps across requests: the gate of failed logins, the
/// lock one move is taken under, and who runs the pass once one is.
#[derive(Default)]
pub struct Server {
    pub gate: Mutex<Gate>,
    files: Files,
    verified: Mutex<Verified>,
    taking: Mutex<()>,
    /// Told of each move taken (`serve::passes`).
    wake: Option<Mutex<std::sync::mpsc::Sender<()>>>,
}

impl Server {
    /// A server whose moves taken are told to `wake`.
    pub fn waking(wake: std::sync::mpsc::Sender<()>) -> Server {
        Server {
            wake: Some(Mutex::new(wake)),
            ..Server::default()
        }
    }

    /// A move is in the spool: the pass that applies it is to run.
    fn taken(&self) {
        if let Some(wake) = &self.wake
            && let Ok(wake) = wake.lock()
        {
            let _ = wake.send(());
        }
    }
}

/// The reply to `asked`, the clerk's files read from `config_file`.
pub fn answer(config_file: &Path, server: &Server, asked: &Asked) -> Reply {
    // A file the director is editing may not load: the client is told the
    // server failed, the director finds why in the server's log.
    let configs = match server.files.current(config_file) {
        Ok(configs) if !configs.is_empty() => configs,
        Ok(_) => {
            eprintln!("xfcc: {}: no tournament", config_file.display());
            return Reply::fault(false, "ServerError");
        }
        Err(error) => {
            eprintln!("xfcc: {error}");
            return Reply::fault(false, "ServerError");
        }
    };
    if asked.get {
        let wants_wsdl = asked
            .query
            .is_some_and(|query| query.eq_ignore_ascii_case("wsdl"));
        let url = configs[0].xfcc.as_ref().map(|x| x.url.as_str());
        return match (wants_wsdl, url) {
            (true, Some(url)) => Reply::xml(wsdl::wsdl(url)),
            _ => Reply {
                status: 405,
                content_type: "text/plain; charset=utf-8",
                body: "An Xfcc server: chess programs POST their SOAP calls here; \
                       its description is at ?wsdl.\n"
                    .into(),
            },
        };
    }
    let request = match read_request(asked.body) {
        Ok(request) => request,
        Err(unreadable) => return Reply::fault(true, &unreadable.0),
    };
    match called(&configs, server, asked, &request) {
        Ok(reply) => reply,
        // The store or a game could not be read: likewise.
        Err(error) => {
            eprintln!("xfcc: {error}");
            match request {
                Request::MakeAMove(_) => Reply::xml(move_response(MoveResult::ServerError)),
                _ => Reply::fault(false, "ServerError"),
            }
        }
    }
}

fn called(
    configs: &[Config],
    server: &Server,
    asked: &Asked,
    request: &Request,
) -> Result<Reply, Error> {
    let mut store = Store::open_beside_runs(&configs[0].database)?;
    Ok(match request {
        Request::GetMyGames(login) => match logged_in(&store, server, asked, login)? {
            Some(address) => {
                let who = Who {
                    username: &login.username,
                    address: &address,
                };
                Reply::xml(games_response(&games_of(
                    configs, &mut store, who, asked.now,
                )?))
            }
            None => Reply::fault(true, MoveResult::AuthenticationFailed.name()),
        },
        Request::MakeAMove(request) => {
            let result = match logged_in(&store, server, asked, &request.login)? {
                Some(address) => {
                    let who = Who {
                        username: &request.login.username,
                        address: &address,
                    };
                    let move_asked = MoveAsked {
                        who,
                        request,
                        peer: asked.peer,
                        now: asked.now,
                    };
                    // One move taken at a time: a request sent twice at
                    // once finds the other's letter in the spool.
                    let _taking = server.taking.lock();
                    let result = move_answer(configs, &store, &move_asked)?;
                    if result == MoveResult::Success {
                        server.taken();
                    }
                    result
                }
                None => MoveResult::AuthenticationFailed,
            };
            Reply::xml(move_response(result))
        }
        Request::Unserved { operation } => {
            let operation = crate::printable::bounded(operation, 60);
            Reply::fault(
                true,
                &format!("FeatureUnavailable: {operation} is not served"),
            )
        }
    })
}

/// The address of the person `login` is, where its password is his and
/// the gate lets it be checked; `None` otherwise, the same for a wrong
/// password, an unknown user and one held by the gate.
fn logged_in(
    store: &Store,
    server: &Server,
    asked: &Asked,
    login: &Login,
) -> Result<Option<String>, Error> {
    let gate = &server.gate;
    let user = login.username.as_str();
    let allowed = gate
        .lock()
        .map(|gate| gate.allows(user, asked.peer, asked.instant))
        .unwrap_or(false);
    if !allowed {
        return Ok(None);
    }
    let kept = store.xfcc_login(user)?;
    let password = login.password.as_str();
    let matches = match &kept {
        Some(kept) => {
            let known = server
                .verified
                .lock()
                .is_ok_and(|v| v.knows(user, &kept.hash, password, asked.instant));
            let matches = known || verify(password, &kept.hash);
            if matches
                && !known
                && let Ok(mut verified) = server.verified.lock()
            {
                verified.remember(user, &kept.hash, password, asked.instant);
            }
            matches
        }
        None => {
            verify_nobody(password);
            false
        }
    };
    if let Ok(mut gate) = gate.lock() {
        match matches {
            true => gate.succeeded(user),
            false => gate.failed(user, asked.peer, asked.instant),
        }
    }
    Ok(kept.filter(|_| matches).map(|kept| kept.address))
}

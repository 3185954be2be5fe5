//! A request's SOAP envelope read into a [`Request`], and the answers
//! written as ASMX services write them: the operation's element is taken
//! by its name in the service's namespace whatever prefix the client
//! gives it (Scid vs PC declares the namespace as the default on it,
//! scidCommunity an `ns:` prefix beside an empty `soap:Header`, zeep
//! `ns0:`), and the answers carry the namespace as the default on their
//! response element, unprefixed: Scid vs PC cuts the answer at
//! `<GetMyGamesResult>` and `<MakeAMoveResponse …">` as text.
//!
//! No DTD is read: a request with a `DOCTYPE` is refused, and an entity
//! other than XML's five and character references is an error, so no
//! entity is ever expanded (quick-xml reports each reference as an event
//! of its own; nothing here defines one).

use quick_xml::NsReader;
use quick_xml::escape::{escape, resolve_predefined_entity};
use quick_xml::events::{BytesStart, Event};
use quick_xml::name::{Namespace, ResolveResult};

use super::{Login, MoveRequest, MoveResult, NAMESPACE, Request, XfccGame};

/// SOAP 1.1's envelope namespace.
pub const ENVELOPE: &str = "http://schemas.xmlsoap.org/soap/envelope/";

/// Why a request could not be read: answered by a SOAP fault
/// (`soap:Client`) in these words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable(pub String);

impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The operation a body carries: its name, and its parameters' names and
/// text in order.
struct Operation {
    name: String,
    params: Vec<(String, String)>,
}

/// The request `body` carries.
pub fn read_request(body: &[u8]) -> Result<Request, Unreadable> {
    let operation = read_operation(body)?;
    let text = |name: &str| {
        operation
            .params
            .iter()
            .find(|(param, _)| param == name)
            .map(|(_, value)| value.as_str())
    };
    let login = || Login {
        username: text("username").unwrap_or_default().trim().to_string(),
        password: text("password").unwrap_or_default().to_string(),
    };
    match operation.name.as_str() {
        "GetMyGames" => Ok(Request::GetMyGames(login())),
        "MakeAMove" => {
            let flag = |name: &str| boolean(name, text(name));
            let number = |name: &str| whole_number(name, text(name));
            Ok(Request::MakeAMove(MoveRequest {
                login: login(),
                game_id: number("gameId")?,
                resign: flag("resign")?,
                accept_draw: flag("acceptDraw")?,
                movecount: number("movecount")?,
                my_move: text("myMove").unwrap_or_default().trim().to_string(),
                offer_draw: flag("offerDraw")?,
                claim_draw: flag("claimDraw")?,
                my_message: text("myMessage").unwrap_or_default().to_string(),
            }))
        }
        _ => Ok(Request::Unserved {
            operation: operation.name,
        }),
    }
}

/// An `xs:boolean`; one not sent is false.
fn boolean(name: &str, text: Option<&str>) -> Result<bool, Unreadable> {
    match text.map(str::trim) {
        None | Some("false" | "0" | "") => Ok(false),
        Some("true" | "1") => Ok(true),
        Some(other) => Err(Unreadable(format!(
            "{name} must be true or false, not {other:?}"
        ))),
    }
}

fn whole_number(name: &str, text: Option<&str>) -> Result<u32, Unreadable> {
    let text = text.ok_or_else(|| Unreadable(format!("{name} is missing")))?;
    text.trim()
        .parse()
        .map_err(|_| Unreadable(format!("{name} must be a whole number, not {text:?}")))
}

/// Where the reader stands in the envelope.
enum Place {
    /// Before the envelope's element.
    Outside,
    /// In the envelope, outside its body (its header's content skipped).
    Envelope,
    Body,
    /// In the operation's element.
    Operation,
    /// In a parameter's element, its text gathered.
    Parameter,
    /// Past the operation, or in an element skipped: until `depth` closes.
    Skipping {
        until: usize,
        then: Box<Place>,
    },
}

fn read_operation(body: &[u8]) -> Result<Operation, Unreadable> {
    let mut reader = NsReader::from_reader(body);
    let mut place = Place::Outside;
    let mut depth = 0usize;
    let mut operation: Option<Operation> = None;
    let mut text = String::new();
    let fault = |e: &dyn std::fmt::Display| Unreadable(format!("not well-formed XML: {e}"));
    loop {
        let (namespace, event) = reader.read_resolved_event().map_err(|e| fault(&e))?;
        let named = match namespace {
            ResolveResult::Bound(Namespace(ns)) => Named::In(ns.to_vec()),
            ResolveResult::Unbound => Named::Unbound,
            ResolveResult::Unknown(prefix) => Named::UnknownPrefix(prefix),
        };
        match event {
            Event::Eof => break,
            Event::DocType(_) => {
                return Err(Unreadable("a request may not carry a DOCTYPE".into()));
            }
            Event::Start(start) => {
                depth += 1;
                place = opened(place, &start, depth, &named, &mut operation)?;
                text.clear();
            }
            Event::Empty(start) => {
                // An element without content opens and closes at once.
                depth += 1;
                place = opened(place, &start, depth, &named, &mut operation)?;
                text.clear();
                place = closed(place, depth, &mut text, &mut operation);
                depth -= 1;
            }
            Event::End(_) => {
                place = closed(place, depth, &mut text, &mut operation);
                depth -= 1;
            }
            Event::Text(t) => text.push_str(&t.xml_content().map_err(|e| fault(&e))?),
            Event::CData(t) => text.push_str(&t.decode().map_err(|e| fault(&e))?),
            Event::GeneralRef(reference) => {
                if let Some(c) = reference.resolve_char_ref().map_err(|e| fault(&e))? {
                    text.push(c);
                } else {
                    let name = reference.decode().map_err(|e| fault(&e))?;
                    let value = resolve_predefined_entity(&name).ok_or_else(|| {
                        Unreadable(format!("the entity &{name}; is not XML's own"))
                    })?;
                    text.push_str(value);
                }
            }
            Event::Decl(_) | Event::PI(_) | Event::Comment(_) => {}
        }
    }
    operation.ok_or_else(|| {
        Unreadable("no operation in a SOAP 1.1 envelope's body (GetMyGames, MakeAMove)".into())
    })
}

/// The namespace an element's name is in.
enum Named {
    In(Vec<u8>),
    /// No prefix, and no default namespace declared.
    Unbound,
    /// A prefix no declaration binds.
    UnknownPrefix(Vec<u8>),
}

impl Named {
    fn is(&self, namespace: &str) -> bool {
        matches!(self, Named::In(ns) if ns == namespace.as_bytes())
    }
}

/// Where an element `start` at `depth`, its name in `named`, leads from
/// `place`.
fn opened(
    place: Place,
    start: &BytesStart,
    depth: usize,
    named: &Named,
    operation: &mut Option<Operation>,
) -> Result<Place, Unreadable> {
    let local = String::from_utf8_lossy(start.local_name().as_ref()).into_owned();
    if let Named::UnknownPrefix(prefix) = named {
        let prefix = String::from_utf8_lossy(prefix);
        return Err(Unreadable(format!(
            "the prefix {prefix}: of {local} is not declared"
        )));
    }
    let skip = |then: Place| Place::Skipping {
        until: depth,
        then: Box::new(then),
    };
    Ok(match place {
        Place::Outside if local == "Envelope" && named.is(ENVELOPE) => Place::Envelope,
        Place::Outside => {
            return Err(Unreadable(format!(
                "the request is not a SOAP 1.1 envelope (its first element is {local})"
            )));
        }
        Place::Envelope if local == "Body" && named.is(ENVELOPE) => Place::Body,
        Place::Envelope => skip(Place::Envelope),
        // A client that names no namespace is taken at its word.
        Place::Body if operation.is_none() => {
            if !(named.is(NAMESPACE) || matches!(named, Named::Unbound)) {
                return Err(Unreadable(format!(
                    "{local} is not in the Xfcc namespace {NAMESPACE}"
                )));
            }
            *operation = Some(Operation {
                name: local,
                params: Vec::new(),
            });
            Place::Operation
        }
        Place::Body => skip(Place::Body),
        Place::Operation => {
            if let Some(operation) = operation {
                operation.params.push((local, String::new()));
            }
            Place::Parameter
        }
        Place::Parameter => {
            return Err(Unreadable(format!(
                "a parameter holds an element ({local}); Xfcc's parameters are text"
            )));
        }
        skipping @ Place::Skipping { .. } => skipping,
    })
}

/// Where the end of the element at `depth` leads from `place`; a
/// parameter's gathered `text` is kept.
fn closed(
    place: Place,
    depth: usize,
    text: &mut String,
    operation: &mut Option<Operation>,
) -> Place {
    match place {
        Place::Skipping { until, then } if until == depth => *then,
        skipping @ Place::Skipping { .. } => skipping,
        Place::Parameter => {
            if let Some((_, value)) = operation.as_mut().and_then(|o| o.params.last_mut()) {
                *value = std::mem::take(text);
            }
            Place::Operation
        }
        Place::Operation => Place::Skipping {
            until: 1,
            then: Box::new(Place::Outside),
        },
        Place::Body => Place::Envelope,
        Place::Envelope | Place::Outside => Place::Outside,
    }
}

/// The envelope around `body`, as ASMX writes it.
fn envelope(body: &str) -> String {
    format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\
         <soap:Envelope xmlns:soap=\"{ENVELOPE}\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" \
         xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\">\
         <soap:Body>{body}</soap:Body></soap:Envelope>"
    )
}

/// `MakeAMove`'s answer.
pub fn move_response(result: MoveResult) -> String {
    envelope(&format!(
        "<MakeAMoveResponse xmlns=\"{NAMESPACE}\">\
         <MakeAMoveResult>{}</MakeAMoveResult></MakeAMoveResponse>",
        result.name()
    ))
}

/// A SOAP fault: `client` where the request was at fault (unreadable),
/// else the server.
pub fn fault(client: bool, words: &str) -> String {
    let code = if client { "soap:Client" } else { "soap:Server" };
    envelope(&format!(
        "<soap:Fault><faultcode>{code}</faultcode>\
         <faultstring>{}</faultstring></soap:Fault>",
        escape(words)
    ))
}

/// `GetMyGames`'s answer: the games, each field in the WSDL's order
/// ([`super::wsdl::GAME_FIELDS`]).
pub fn games_response(games: &[XfccGame]) -> String {
    let mut body = format!("<GetMyGamesResponse xmlns=\"{NAMESPACE}\"><GetMyGamesResult>");
    for game in games {
        body.push_str("<XfccGame>");
        for (name, value) in game_fields(game) {
            if let Some(value) = value {
                body.push_str(&format!("<{name}>{}</{name}>", escape(value.as_str())));
            }
        }
        body.push_str("</XfccGame>");
    }
    body.push_str("</GetMyGamesResult></GetMyGamesResponse>");
    envelope(&body)
}

/// A game's fields by name, in the WSDL's order; `None` where a field of
/// `minOccurs="0"` has no value.
pub(super) fn game_fields(game: &XfccGame) -> Vec<(&'static str, Option<String>)> {
    let flag = |b: bool| Some(if b { "true" } else { "false" }.to_string());
    let number = |n: i64| Some(n.to_string());
    vec![
        ("id", number(game.id.into())),
        ("white", Some(game.white.clone())),
        ("black", Some(game.black.clone())),
        ("event", Some(game.event.clone())),
        ("site", Some(game.site.clone())),
        ("myTurn", flag(game.my_turn)),
        ("hasWhite", flag(game.has_white)),
        ("daysPlayer", number(game.days_player)),
        ("hoursPlayer", number(0)),
        ("minutesPlayer", number(0)),
        ("daysOpponent", number(game.days_opponent)),
        ("hoursOpponent", number(0)),
        ("minutesOpponent", number(0)),
        ("moves", Some(game.moves.clone())),
        ("drawOffered", flag(game.draw_offered)),
        ("result", Some(game.result.name().to_string())),
        ("message", game.message.clone()),
        ("setup", flag(false)),
        (
            "eventDate",
            Some(game.event_date.format("%Y.%m.%d").to_string()),
        ),
        ("timeControl", Some(game.time_control.clone())),
        ("round", Some(game.round.clone())),
        ("board", game.board.map(|board| board.to_string())),
        ("gameLink", game.game_link.clone()),
    ]
}

#[cfg(test)]
mod tests;

//! Messages of the clerk, built with lettre's message builder: addresses
//! built from parsed parts (a display name is cleaned of control characters
//! first, so no header can be smuggled in), the headers of contract.md 4,
//! attachments for the arbiter.

use crate::error::Error;
use crate::key::SubjectTag;
use std::time::SystemTime;

use chrono::{DateTime, NaiveDate, Utc};
use lettre::message::header::{
    ContentDisposition, ContentTransferEncoding, ContentType, HeaderName, HeaderValue,
};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};
use lettre::{Address, Message};

use crate::message::MessageKind;

mod html;
use html::with_pictures;

/// Someone the clerk writes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipient {
    pub name: String,
    pub email: String,
}

/// A file attached to a message.
#[derive(Clone, Debug)]
pub struct Attachment {
    pub name: String,
    /// `message/rfc822` for an original letter; `text/plain; charset=utf-8`….
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// The board as a picture, for a message whose text shows its diagram:
/// the HTML part shows the picture where the text has the diagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    /// The diagram as the text has it.
    pub diagram: String,
    /// The board as a PNG.
    pub png: Vec<u8>,
    /// The picture's words for a reader that shows no pictures.
    pub alt: String,
    /// Whose side the board is seen from: the HTML labels its ranks and
    /// files around the picture.
    pub side: shakmaty::Color,
    /// The picture alone (`diagrams = "picture"`): the plain part gives its
    /// words in the diagram's place.
    pub alone: bool,
}

/// One message to send, before it is built: its kind, readers, thread and
/// facts, and `W`, its words: none yet (`()`) while it is decided (the
/// clerk's notice), [`Words`] once said to its reader.
#[derive(Clone, Debug)]
pub struct Outgoing<W = Words> {
    /// Its kind: the `X-Shtempel-Kind` header (contract.md 4) and template.
    pub kind: MessageKind,
    pub game: Option<String>,
    pub to: Vec<Recipient>,
    pub cc: Vec<Recipient>,
    pub in_reply_to: Option<String>,
    /// Registered: asks for a disposition notification (rules.md 2.1).
    pub registered: bool,
    /// Deadline mail is `auto-generated`; answers to a letter `auto-replied`.
    pub generated: bool,
    pub attachments: Vec<Attachment>,
    /// The move (ply) this message brings to its reader.
    pub delivers: Option<usize>,
    /// A refusal held by the daily reply limit goes on this day, not now.
    pub send_on: Option<NaiveDate>,
    /// Kept for this reader's daily digest (`DIGEST DAILY`), not sent alone.
    pub digest_for: Option<String>,
    /// What its template is given: facts (days, phrases, boards) worded
    /// when it is said to its reader.
    pub model: crate::render::Model,
    /// A Message-ID of its own, the same whenever the message is made (a
    /// start sheet's); else one is made from its cause.
    pub message_id: Option<String>,
    /// Of an event: its subject carries the event's tag, its `From:` the
    /// event's name, its Message-ID the event's id. Not so the answer to a
    /// letter no event of a folder could be placed in:
    /// it speaks for the clerk alone, and a reply to it is placed anew.
    pub of_event: bool,
    /// The event (its id) whose message it is, where another of the
    /// folder's than the one whose run plans it: a `STATUS` asked of that
    /// event alone carries its tag, name and Message-ID. `None`: the
    /// planning event's.
    pub event: Option<String>,
    /// What it says, once said.
    pub words: W,
}

/// A message's words and pictures as one reader gets them.
#[derive(Clone, Debug)]
pub struct Words {
    /// The subject after the tag.
    pub subject: String,
    pub body: String,
    /// The boards as pictures, where the text shows them: one
    /// for a game's letter, one a game for a replacement's.
    pub pictures: Vec<Picture>,
}

impl<W> Outgoing<W> {
    /// The same message with `words` for its words.
    pub fn worded<V>(self, words: V) -> Outgoing<V> {
        let Outgoing {
            kind,
            game,
            to,
            cc,
            in_reply_to,
            registered,
            generated,
            attachments,
            delivers,
            send_on,
            digest_for,
            model,
            message_id,
            of_event,
            event,
            words: _,
        } = self;
        Outgoing {
            kind,
            game,
            to,
            cc,
            in_reply_to,
            registered,
            generated,
            attachments,
            delivers,
            send_on,
            digest_for,
            model,
            message_id,
            of_event,
            event,
            words,
        }
    }
}

impl Outgoing {
    pub fn addresses(&self) -> Vec<String> {
        self.to
            .iter()
            .chain(&self.cc)
            .map(|r| r.email.clone())
            .collect()
    }
}

/// Who the clerk is, for the `From:` line and the subject tag.
#[derive(Clone, Debug)]
pub struct Sender {
    pub name: String,
    pub email: String,
    pub tournament: String,
}

/// A mailbox built from parsed parts: the address checked, the display name
/// cleaned of control characters (lettre's `Mailbox::new` would take a CR
/// or LF into the header).
fn mailbox(name: &str, email: &str) -> Result<Mailbox, Error> {
    let address: Address = email
        .parse()
        .map_err(|e| Error::mail(format!("bad address {email:?}: {e}")))?;
    let clean: String = name.chars().filter(|c| !c.is_control()).collect();
    let clean = clean.trim();
    Ok(Mailbox::new(
        (!clean.is_empty()).then(|| clean.to_string()),
        address,
    ))
}

/// An address field's value (`From`, `To`, `Cc`) with each display name in
/// encoded words broken at its spaces: lettre breaks them where the bytes
/// run out, inside a word, and Python's reader, among others, shows the two
/// halves apart (`Иванов И ван`). The space before a
/// break is inside the encoded word that ends there (RFC 2047 6.2: the
/// folding between encoded words is not text): Thunderbird, Gmail and
/// mail-parser read the name as written; Python's reader, which keeps the
/// folding in a display name, shows two spaces at the break, not a word
/// cut in two.
fn address_field(mailboxes: &[Mailbox]) -> String {
    mailboxes
        .iter()
        .map(|mailbox| match &mailbox.name {
            None => mailbox.email.to_string(),
            Some(name) if name.chars().all(|c| c.is_ascii_graphic() || c == ' ') => {
                let quoted = name.replace('\\', "\\\\").replace('"', "\\\"");
                format!("\"{quoted}\" <{}>", mailbox.email)
            }
            Some(name) => format!("{} <{}>", encoded_words(name), mailbox.email),
        })
        .collect::<Vec<_>>()
        .join(",\r\n ")
}

/// A subject as its header gives it: the ASCII words it opens with (the
/// tag, `[T #1]`) as they are, the rest from its first word with another
/// letter as encoded words broken at spaces.
fn subject_field(subject: &str) -> String {
    let first_other = subject
        .find(|c: char| !c.is_ascii())
        .unwrap_or(subject.len());
    let split = subject[..first_other]
        .rfind(' ')
        .map_or(0, |space| space + 1);
    let (plain, rest) = subject.split_at(split);
    if rest.is_empty() {
        return plain.to_string();
    }
    format!("{plain}{}", encoded_words(rest))
}

/// `text` as base64 encoded words of at most 45 bytes of text each (60 of
/// base64: the word within RFC 2047's 75), broken after a space where the
/// words allow, else at a character's edge, folded one to a line.
fn encoded_words(text: &str) -> String {
    use base64::Engine as _;
    const MOST: usize = 45;
    let mut pieces: Vec<&str> = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        if rest.len() <= MOST {
            pieces.push(rest);
            break;
        }
        let mut end = MOST;
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        // After the last space within reach, where there is one.
        if let Some(space) = rest[..end].rfind(' ').filter(|&at| at > 0) {
            end = space + 1;
        }
        pieces.push(&rest[..end]);
        rest = &rest[end..];
    }
    pieces
        .iter()
        .map(|piece| {
            let encoded = base64::engine::general_purpose::STANDARD.encode(piece);
            format!("=?utf-8?b?{encoded}?=")
        })
        .collect::<Vec<_>>()
        .join("\r\n ")
}

/// A text with every line end (CRLF, a lone CR or LF) as LF: lettre makes
/// LF into CRLF, and keeps a lone CR, which a 7bit body must not have.
fn lf_lines(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// A header of the clerk's own (contract.md 4).
fn raw_header(name: &'static str, value: &str) -> HeaderValue {
    let value: String = value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    HeaderValue::new(HeaderName::new_from_ascii_str(name), value)
}

/// A letter's Message-ID fit to copy into `In-Reply-To` and `References`:
/// in angle brackets (mail parsers hand it over without them), printable
/// ASCII, and short enough for its header line (RFC 5322 allows 998
/// characters). One that is not is dropped: the reply loses its thread, not
/// its validity.
fn reference(id: &str) -> Option<String> {
    const LONGEST: usize = 900;
    let id: String = id.chars().filter(|c| !c.is_whitespace()).collect();
    let id = id.trim_start_matches('<').trim_end_matches('>');
    let fit = !id.is_empty()
        && id.len() <= LONGEST
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>');
    fit.then(|| format!("<{id}>"))
}

/// Builds the message with lettre; returns its bytes.
pub fn build(
    out: &Outgoing,
    sender: &Sender,
    message_id: &str,
    date: DateTime<Utc>,
) -> Result<Vec<u8>, Error> {
    let subject = match &out.game {
        _ if !out.of_event => out.words.subject.clone(),
        Some(game) => format!(
            "{} {}",
            SubjectTag::game(&sender.tournament, game),
            out.words.subject
        ),
        None => format!(
            "{} {}",
            SubjectTag::event(&sender.tournament),
            out.words.subject
        ),
    };
    let subject: String = subject.chars().filter(|c| !c.is_control()).collect();
    let from = mailbox(&sender.name, &sender.email)?;
    let to = (out.to.iter())
        .map(|to| mailbox(&to.name, &to.email))
        .collect::<Result<Vec<_>, _>>()?;
    let cc = (out.cc.iter())
        .map(|cc| mailbox(&cc.name, &cc.email))
        .collect::<Result<Vec<_>, _>>()?;
    let mut builder = Message::builder()
        .from(from.clone())
        .subject(subject.clone())
        .message_id(Some(message_id.to_string()))
        .date(SystemTime::from(date));
    for to in &to {
        builder = builder.to(to.clone());
    }
    for cc in &cc {
        builder = builder.cc(cc.clone());
    }
    if let Some(parent) = out.in_reply_to.as_deref().and_then(reference) {
        builder = builder.in_reply_to(parent.clone()).references(parent);
    }
    let body = lf_lines(&out.words.body);
    let pictures = &out.words.pictures;
    let built = match (pictures.is_empty(), out.attachments.is_empty()) {
        (true, true) => builder.singlepart(SinglePart::plain(body)),
        (true, false) => builder.multipart(attachments(out, body)?),
        (false, true) => builder.multipart(with_pictures(body, pictures, message_id)?),
        (false, false) => {
            let mut mixed =
                MultiPart::mixed().multipart(with_pictures(body, pictures, message_id)?);
            for part in attachment_parts(out)? {
                mixed = mixed.singlepart(part);
            }
            builder.multipart(mixed)
        }
    };
    let mut message =
        built.map_err(|e| Error::internal(format!("cannot build the message: {e}")))?;
    let headers = message.headers_mut();
    // The subject's encoded words break at its spaces too (lettre's broke
    // inside a word); its ASCII opening (the tag) stays as it is.
    if !subject.is_ascii()
        && let Some(written) = headers.get_raw("Subject").map(str::to_string)
    {
        let name = HeaderName::new_from_ascii_str("Subject");
        let value = subject_field(&subject);
        headers.insert_raw(HeaderValue::dangerous_new_pre_encoded(name, written, value));
    }
    for (name, mailboxes) in [("From", vec![from]), ("To", to), ("Cc", cc)] {
        if let Some(written) = headers.get_raw(name).map(str::to_string) {
            let value = address_field(&mailboxes);
            let name = HeaderName::new_from_ascii_str(name);
            headers.insert_raw(HeaderValue::dangerous_new_pre_encoded(name, written, value));
        }
    }
    let auto = if out.generated {
        "auto-generated"
    } else {
        "auto-replied"
    };
    headers.insert_raw(raw_header("Auto-Submitted", auto));
    headers.insert_raw(raw_header("X-Auto-Response-Suppress", "All"));
    headers.insert_raw(raw_header("X-Loop", &sender.email));
    headers.insert_raw(raw_header("Precedence", "auto_reply"));
    headers.insert_raw(raw_header("X-Shtempel-Kind", out.kind.header()));
    if let Some(game) = &out.game {
        headers.insert_raw(raw_header("X-Shtempel-Game", game));
    }
    if out.registered {
        headers.insert_raw(raw_header("Disposition-Notification-To", &sender.email));
    }
    Ok(message.formatted())
}

/// An original letter as a `message/rfc822` part: RFC 2046 5.2.1 allows it
/// only 7bit or 8bit (or binary), never base64 or quoted-printable, so it
/// goes as it came, its line ends made CRLF. A letter that cannot be 8bit
/// (a NUL, a line over 998 bytes) is `None`: it goes as
/// `application/octet-stream` in base64, which every program opens too.
fn rfc822_body(bytes: &[u8]) -> Option<Body> {
    let mut lines = Vec::with_capacity(bytes.len() + bytes.len() / 40);
    let mut rest = bytes;
    while !rest.is_empty() {
        let end = rest.iter().position(|&b| b == b'\r' || b == b'\n');
        let (line, next) = match end {
            Some(at) => {
                let eol = if rest[at] == b'\r' && rest.get(at + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                (&rest[..at], &rest[at + eol..])
            }
            None => (rest, &rest[rest.len()..]),
        };
        if line.len() > 998 || line.contains(&0) {
            return None;
        }
        lines.extend_from_slice(line);
        lines.extend_from_slice(b"\r\n");
        rest = next;
    }
    let encoding = if lines.is_ascii() {
        ContentTransferEncoding::SevenBit
    } else {
        ContentTransferEncoding::EightBit
    };
    Some(Body::dangerous_pre_encoded(lines, encoding))
}

/// A chart, a PGN file, a picture: text, whose line ends lettre makes CRLF
/// only when it is given a string (a bare LF in a 7bit part breaks SMTP).
fn text_body(bytes: &[u8]) -> Body {
    match String::from_utf8(bytes.to_vec()) {
        Ok(text) => Body::new(text),
        Err(error) => Body::new(error.into_bytes()),
    }
}

fn base64_body(bytes: &[u8]) -> Body {
    Body::new_with_encoding(bytes.to_vec(), ContentTransferEncoding::Base64)
        .unwrap_or_else(Body::new)
}

/// The `multipart/mixed` body of a message with attachments.
fn attachments(out: &Outgoing, body: String) -> Result<MultiPart, Error> {
    let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(body));
    for part in attachment_parts(out)? {
        parts = parts.singlepart(part);
    }
    Ok(parts)
}

/// An attachment's content type and body as the message carries them.
fn attachment_body(attachment: &Attachment) -> (&str, Body) {
    match attachment.content_type.as_str() {
        "message/rfc822" => match rfc822_body(&attachment.bytes) {
            Some(body) => ("message/rfc822", body),
            None => ("application/octet-stream", base64_body(&attachment.bytes)),
        },
        other => (other, text_body(&attachment.bytes)),
    }
}

/// What an attachment adds to a message, its part's headers and boundary
/// counted at their longest (a name encoded in full): for keeping a message
/// within what the mail server takes.
/// A bound on a message's size as sent (`[limits] max_message_bytes`
/// holds against it): its headers, its text as base64 at worst (a Russian
/// one) in the plain part and again, marked up, in the HTML one, each
/// picture as base64, each attachment.
pub fn size_at_most(out: &Outgoing) -> usize {
    const HEADERS: usize = 8 * 1024;
    const PICTURE_PART: usize = 512;
    HEADERS
        + out.words.body.len() * 4
        + out
            .words
            .pictures
            .iter()
            .map(|p| p.png.len() * 4 / 3 + PICTURE_PART)
            .sum::<usize>()
        + out.attachments.iter().map(wire_size).sum::<usize>()
}

pub fn wire_size(attachment: &Attachment) -> usize {
    let (content_type, body) = attachment_body(attachment);
    const PART_HEADERS: usize = 256;
    body.len() + content_type.len() + attachment.name.len() * 3 + PART_HEADERS
}

/// The message's attachments as parts.
fn attachment_parts(out: &Outgoing) -> Result<Vec<SinglePart>, Error> {
    let mut parts = Vec::new();
    for attachment in &out.attachments {
        let (content_type, body) = attachment_body(attachment);
        let content_type = ContentType::parse(content_type).map_err(Error::mail)?;
        let part = SinglePart::builder()
            .header(content_type)
            .header(ContentDisposition::attachment(&attachment.name))
            .body(body);
        parts.push(part);
    }
    Ok(parts)
}

#[cfg(test)]
mod tests;

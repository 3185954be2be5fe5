//! Messages of the clerk, built with lettre's message builder: addresses
//! built from parsed parts (a display name is cleaned of control characters
//! first, so no header can be smuggled in), the headers of contract.md 4,
//! attachments for the arbiter.

use crate::error::Error;
use std::time::SystemTime;

use chrono::{DateTime, NaiveDate, Utc};
use lettre::message::header::{
    ContentDisposition, ContentTransferEncoding, ContentType, HeaderName, HeaderValue,
};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};
use lettre::{Address, Message};

use crate::message::MessageKind;

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
}

/// One message to send, before it is built.
#[derive(Clone, Debug)]
pub struct Outgoing {
    /// Its kind: the `X-Shtempel-Kind` header (contract.md 4) and template.
    pub kind: MessageKind,
    pub game: Option<String>,
    pub to: Vec<Recipient>,
    pub cc: Vec<Recipient>,
    /// The subject after the tag.
    pub subject: String,
    pub body: String,
    pub in_reply_to: Option<String>,
    /// Registered: asks for a disposition notification (rules.md 2.1).
    pub registered: bool,
    /// Deadline mail is `auto-generated`; answers to a letter `auto-replied`.
    pub generated: bool,
    pub attachments: Vec<Attachment>,
    /// The boards as pictures, where the text shows them (issue 35): one
    /// for a game's letter, one a game for a replacement's.
    pub pictures: Vec<Picture>,
    /// The move (ply) this message brings to its reader.
    pub delivers: Option<usize>,
    /// A refusal held by the daily reply limit goes on this day, not now.
    pub send_on: Option<NaiveDate>,
    /// What its template was rendered from, to render it again (a held
    /// refusal says it was held).
    pub model: crate::render::Model,
    /// A Message-ID of its own, the same whenever the message is made (a
    /// start sheet's); else one is made from its cause.
    pub message_id: Option<String>,
    /// Of an event: its subject carries the event's tag, its `From:` the
    /// event's name, its Message-ID the event's id. Not so the answer to a
    /// letter no event of a folder could be placed in (issue 31, point 6):
    /// it speaks for the clerk alone, and a reply to it is placed anew.
    pub of_event: bool,
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
/// halves apart (`Иванов И ван`, issue 34, point 15). The space before a
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
        _ if !out.of_event => out.subject.clone(),
        Some(game) => format!("[{} #{game}] {}", sender.tournament, out.subject),
        None => format!("[{}] {}", sender.tournament, out.subject),
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
        .subject(subject)
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
    let body = lf_lines(&out.body);
    let pictures = &out.pictures;
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
    let mut message = built.map_err(|e| format!("cannot build the message: {e}"))?;
    let headers = message.headers_mut();
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

/// The text and, as its alternative, HTML with the boards' pictures in
/// their diagrams' places (`multipart/related`, each PNG by `cid:`: Gmail
/// and Outlook show no SVG and fetch no image). The plain text stays the
/// message as it is without pictures, for the mail programs that show
/// text and for the reader of a reply that quotes it.
fn with_pictures(body: String, pictures: &[Picture], message_id: &str) -> Result<MultiPart, Error> {
    // Content-IDs of the message's own, so a reply quoting two boards
    // never confuses them: `board.ID`, then `board-2.ID`, ...
    let local = message_id.trim_matches(|c| c == '<' || c == '>');
    let cids: Vec<String> = (0..pictures.len())
        .map(|at| match at {
            0 => format!("board.{local}"),
            _ => format!("board-{}.{local}", at + 1),
        })
        .collect();
    let mut related =
        MultiPart::related().singlepart(SinglePart::html(html_of(&body, pictures, &cids)));
    for (picture, cid) in pictures.iter().zip(cids) {
        related = related.singlepart(lettre::message::Attachment::new_inline(cid).body(
            picture.png.clone(),
            ContentType::parse("image/png").map_err(Error::mail)?,
        ));
    }
    Ok(MultiPart::alternative()
        .singlepart(SinglePart::plain(body))
        .multipart(related))
}

/// The text as HTML, each picture's diagram, in turn, replaced by the
/// picture of its `cid`.
fn html_of(body: &str, pictures: &[Picture], cids: &[String]) -> String {
    let escape = |text: &str| {
        text.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    };
    let text = |text: &str| {
        format!(
            "<div style=\"font-family:monospace;white-space:pre-wrap\">{}</div>\n",
            escape(text)
        )
    };
    let size = crate::picture::SQUARE * 8;
    let mut html =
        String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
    let mut rest = body;
    for (picture, cid) in pictures.iter().zip(cids) {
        let Some((before, after)) = rest.split_once(&picture.diagram) else {
            continue;
        };
        // The picture's paragraph keeps its own space: the text's blank
        // lines around the diagram would double it.
        html.push_str(&text(before.trim_end_matches('\n')));
        let image = format!(
            "<img src=\"cid:{}\" width=\"{size}\" height=\"{size}\" alt=\"{}\" style=\"display:block\">",
            escape(cid),
            escape(&picture.alt)
        );
        html.push_str(&labelled(&image, picture.side));
        rest = after.trim_start_matches('\n');
    }
    html.push_str(&text(rest));
    html.push_str("</body></html>\n");
    html
}

/// The board's picture in a table with its ranks beside it and its files
/// below, as seen from `side` (tables: what every mail program lays out
/// alike; the labels are text, in the reader's own font size).
fn labelled(image: &str, side: shakmaty::Color) -> String {
    let square = crate::picture::SQUARE;
    let (ranks, files) = crate::diagram::seen_from(side);
    let mut table = String::from(
        "<table cellspacing=\"0\" cellpadding=\"0\" border=\"0\" style=\"margin:1em 0;font:12px sans-serif;color:#555\">\n",
    );
    for (row, rank) in ranks.iter().enumerate() {
        table.push_str(&format!(
            "<tr><td width=\"16\" height=\"{square}\" align=\"center\">{}</td>",
            rank.char()
        ));
        if row == 0 {
            table.push_str(&format!("<td rowspan=\"8\">{image}</td>"));
        }
        table.push_str("</tr>\n");
    }
    table.push_str("<tr><td></td><td><table cellspacing=\"0\" cellpadding=\"0\" border=\"0\" style=\"font:12px sans-serif;color:#555\"><tr>");
    for file in &files {
        table.push_str(&format!(
            "<td width=\"{square}\" align=\"center\">{}</td>",
            file.char()
        ));
    }
    table.push_str("</tr></table></td></tr>\n</table>\n");
    table
}

/// The message's attachments as parts.
fn attachment_parts(out: &Outgoing) -> Result<Vec<SinglePart>, Error> {
    let mut parts = Vec::new();
    for attachment in &out.attachments {
        let (content_type, body) = match attachment.content_type.as_str() {
            "message/rfc822" => match rfc822_body(&attachment.bytes) {
                Some(body) => ("message/rfc822", body),
                None => ("application/octet-stream", base64_body(&attachment.bytes)),
            },
            other => (other, text_body(&attachment.bytes)),
        };
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
mod tests {
    use super::*;

    fn outgoing() -> Outgoing {
        Outgoing {
            kind: MessageKind::Forward,
            game: Some("1".into()),
            to: vec![Recipient {
                name: "Петров П.\r\nBcc: evil@example.org".into(),
                email: "petrov@example.org".into(),
            }],
            cc: vec![],
            subject: "2. Кf3".into(),
            body: "Ход партнёра: 2. Кf3\n".into(),
            in_reply_to: Some("<a@b>".into()),
            registered: true,
            generated: false,
            attachments: vec![],
            pictures: Vec::new(),
            delivers: Some(2),
            send_on: None,
            model: crate::render::Model::from(()),
            message_id: None,
            of_event: true,
        }
    }

    #[test]
    fn headers_of_the_contract_and_no_smuggled_header() {
        let sender = Sender {
            name: "Clerk".into(),
            email: "clerk@example.org".into(),
            tournament: "CC-2026".into(),
        };
        let raw = build(
            &outgoing(),
            &sender,
            "<m1@example.org>",
            DateTime::UNIX_EPOCH,
        )
        .unwrap();
        let mail = crate::mail::mime::parse(&raw, "nobody@example.org").unwrap();
        assert_eq!(mail.subject, "[CC-2026 #1] 2. Кf3");
        assert_eq!(mail.to, ["petrov@example.org"]);
        assert!(mail.cc.is_empty());
        assert_eq!(mail.in_reply_to, ["a@b"]);
        assert_eq!(mail.text.trim(), "Ход партнёра: 2. Кf3");
        let text = String::from_utf8_lossy(&raw);
        for expected in [
            "Auto-Submitted: auto-replied",
            "X-Shtempel-Game: 1",
            "X-Shtempel-Kind: forward",
            "X-Loop: clerk@example.org",
            "Disposition-Notification-To: clerk@example.org",
        ] {
            assert!(text.contains(expected), "{expected} missing in\n{text}");
        }
        assert!(!text.lines().any(|line| line.starts_with("Bcc:")), "{text}");
        // Our own message fed back is recognised as automatic.
        assert!(
            crate::mail::mime::parse(&raw, "clerk@example.org")
                .unwrap()
                .automatic
                .is_some()
        );
    }

    /// Names, subjects and bodies pieced together from what trips header
    /// writers (quotes, specials, long words, mixed scripts, line ends): each
    /// message reads back as it was meant. (A literal encoded word,
    /// `=?utf-8?q?x?=`, is written as it is and read back decoded, by lettre
    /// as by most programs; no text of the clerk's holds one.)
    #[test]
    fn odd_names_subjects_and_bodies_read_back_as_they_were_written() {
        const PIECES: [&str; 25] = [
            "a",
            "Zed",
            " ",
            "  ",
            "Иван",
            "Пётр",
            "\"",
            "\\",
            "(",
            ")",
            ",",
            ":",
            ";",
            "<",
            ">",
            "@",
            "é",
            "😀",
            "?=",
            ".",
            "'",
            "a-very-long-word-without-any-space-that-goes-on-and-on-past-the-fold",
            "длинноеслововкотороммногобукввсеподрядбезпробела",
            "\r\n",
            "\r",
        ];
        let sender = Sender {
            name: "Турнир памяти Кереса (секретарь)".into(),
            email: "clerk@example.org".into(),
            tournament: "CC".into(),
        };
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut text = |pieces: usize| {
            let mut out = String::new();
            for _ in 0..pieces {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                out.push_str(PIECES[(state % PIECES.len() as u64) as usize]);
            }
            out
        };
        for case in 0..400 {
            let mut out = outgoing();
            out.to[0].name = text(case % 9);
            out.subject = text(case % 23);
            out.body = text(case % 31) + "\n";
            let raw = build(&out, &sender, "<m@example.org>", DateTime::UNIX_EPOCH).unwrap();
            let text = String::from_utf8(raw.clone()).unwrap();
            for line in text.split("\r\n") {
                assert!(
                    !line.contains(['\r', '\n']),
                    "case {case}: a bare line end in {line:?}"
                );
                assert!(line.len() <= 998, "case {case}: a line over RFC 5322's 998");
            }
            let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
            // Control characters are dropped; readers differ in the
            // whitespace they keep between encoded words (RFC 2047 6.2), so
            // every other character is compared.
            let clean = |t: &str| -> String {
                t.chars()
                    .filter(|c| !c.is_control() && !c.is_whitespace())
                    .collect()
            };
            assert_eq!(
                clean(parsed.subject().unwrap_or("")),
                clean(&format!("[CC #1] {}", out.subject)),
                "case {case}"
            );
            let to = parsed.to().and_then(|to| to.first()).unwrap();
            assert_eq!(
                clean(to.name().unwrap_or("")),
                clean(&out.to[0].name),
                "case {case}"
            );
            assert_eq!(to.address(), Some("petrov@example.org"), "case {case}");
            let body = parsed.body_text(0).unwrap().replace("\r\n", "\n");
            let sent = out.body.replace("\r\n", "\n").replace('\r', "\n");
            assert_eq!(body.trim_end(), sent.trim_end(), "case {case}");
        }
    }

    /// Issue 34, point 15: a long name's encoded words break at its spaces
    /// (lettre broke `Петровский` as `П|етровский`, shown `П етровский` by
    /// Python's reader); a name without one breaks at a character's edge.
    #[test]
    fn point_15_names_in_headers_are_encoded_in_words_broken_at_spaces() {
        use base64::Engine as _;
        let sender = Sender {
            name: "Турнир памяти Кереса (секретарь)".into(),
            email: "clerk@example.org".into(),
            tournament: "CC".into(),
        };
        let mut out = outgoing();
        out.to[0].name = "Иванов Иван Иванович Петровский-Засядько".into();
        out.cc = vec![Recipient {
            name: "Anna Green".into(),
            email: "anna@example.org".into(),
        }];
        let raw = build(&out, &sender, "<m@example.org>", DateTime::UNIX_EPOCH).unwrap();
        let text = format!("\r\n{}", String::from_utf8(raw.clone()).unwrap());
        let field = |name: &str| -> String {
            let at = text.find(&format!("\r\n{name}: ")).unwrap() + 2;
            let end = text[at..].find("\r\n").map(|e| at + e).unwrap();
            let mut value = text[at + name.len() + 2..end].to_string();
            // Folded lines.
            let mut next = end;
            while text[next + 2..].starts_with(' ') {
                let stop = text[next + 2..].find("\r\n").unwrap() + next + 2;
                value.push_str(&text[next + 2..stop]);
                next = stop;
            }
            value
        };
        let words = |value: &str| -> Vec<String> {
            value
                .split("=?utf-8?b?")
                .skip(1)
                .map(|word| {
                    let b64 = word.split("?=").next().unwrap();
                    let bytes = base64::engine::general_purpose::STANDARD
                        .decode(b64)
                        .unwrap();
                    String::from_utf8(bytes).unwrap()
                })
                .collect()
        };
        assert_eq!(
            words(&field("To")),
            ["Иванов Иван Иванович ", "Петровский-Засядько"]
        );
        assert_eq!(
            words(&field("From")),
            ["Турнир памяти Кереса ", "(секретарь)"]
        );
        assert_eq!(field("Cc"), "\"Anna Green\" <anna@example.org>");
        // Read back whole.
        let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let to = parsed.to().and_then(|to| to.first()).unwrap();
        assert_eq!(to.name(), Some("Иванов Иван Иванович Петровский-Засядько"));
        assert_eq!(to.address(), Some("petrov@example.org"));
        // One long word breaks where it must, at a character's edge.
        assert_eq!(
            encoded_words(&"я".repeat(30))
                .split("\r\n ")
                .map(|w| w.len())
                .collect::<Vec<_>>(),
            [72, 36]
        );
    }

    #[test]
    fn an_original_letter_is_attached_whole() {
        let sender = Sender {
            name: "Clerk".into(),
            email: "clerk@example.org".into(),
            tournament: "CC-2026".into(),
        };
        let original = b"From: ivanov@example.org\r\nContent-Type: text/plain; charset=koi8-r\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\xf0\xc1\xd2\xd4\xc9\xd1 1\r\n".to_vec();
        let mut out = outgoing();
        out.attachments.push(Attachment {
            name: "letter-1.eml".into(),
            content_type: "message/rfc822".into(),
            bytes: original.clone(),
        });
        let raw = build(&out, &sender, "<m2@example.org>", DateTime::UNIX_EPOCH).unwrap();
        let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
        let attached = parsed.attachment(0).expect("attachment");
        let mail_parser::PartType::Message(inner) = &attached.body else {
            panic!("not message/rfc822")
        };
        assert_eq!(inner.body_text(0).unwrap().trim(), "Партия 1");
    }

    #[test]
    fn copied_references_are_valid_or_dropped() {
        assert_eq!(reference("a@b").as_deref(), Some("<a@b>"));
        assert_eq!(reference(" <a@b>\r\n").as_deref(), Some("<a@b>"));
        assert_eq!(reference(&format!("{}@x", "a".repeat(5_000))), None);
        assert_eq!(reference("письмо@почта.рф"), None);
        assert_eq!(reference("<>"), None);
        let sender = Sender {
            name: "Clerk".into(),
            email: "clerk@example.org".into(),
            tournament: "CC-2026".into(),
        };
        let mut out = outgoing();
        out.in_reply_to = Some(format!("{}@x", "a".repeat(5_000)));
        let raw = build(&out, &sender, "<m4@example.org>", DateTime::UNIX_EPOCH).unwrap();
        let text = String::from_utf8(raw).unwrap();
        assert!(text.split("\r\n").all(|line| line.len() <= 998));
        assert!(!text.contains("In-Reply-To") && !text.contains("References"));
    }

    /// The headers of the attachment part named `name`, and its body.
    fn attached_part(raw: &[u8], name: &str) -> (String, Vec<u8>) {
        let find = |from: usize, what: &[u8]| {
            raw[from..]
                .windows(what.len())
                .position(|w| w == what)
                .map(|at| from + at)
        };
        let named = find(0, format!("filename=\"{name}\"").as_bytes()).expect("the part");
        let start = raw[..named]
            .windows(4)
            .rposition(|w| w == b"\r\n--")
            .expect("its boundary")
            + 2;
        let head_end = find(start, b"\r\n\r\n").unwrap();
        let body_end = find(head_end + 4, b"\r\n--").unwrap();
        let head = String::from_utf8_lossy(&raw[start..head_end]).into_owned();
        (head, raw[head_end + 4..body_end].to_vec())
    }

    #[test]
    fn an_original_letter_goes_8bit_with_crlf_or_as_an_octet_stream() {
        let sender = Sender {
            name: "Clerk".into(),
            email: "clerk@example.org".into(),
            tournament: "CC-2026".into(),
        };
        let koi8 = b"From: ivanov@example.org\nSubject: x\n\n\xf0\xc1\xd2\xd4\xc9\xd1 1\n2. Nf3\n"
            .to_vec();
        let long = format!("From: a@b.c\r\n\r\n{}\r\n", "x".repeat(2_000)).into_bytes();
        let mut out = outgoing();
        out.attachments.push(Attachment {
            name: "game.pgn".into(),
            content_type: "application/vnd.chess-pgn".into(),
            bytes: b"[Event \"x\"]\n\n1. e4 *\n".to_vec(),
        });
        for (name, bytes) in [("koi8.eml", &koi8), ("long.eml", &long)] {
            out.attachments.push(Attachment {
                name: name.into(),
                content_type: "message/rfc822".into(),
                bytes: bytes.clone(),
            });
        }
        let raw = build(&out, &sender, "<m3@example.org>", DateTime::UNIX_EPOCH).unwrap();
        let (head, body) = attached_part(&raw, "koi8.eml");
        assert!(head.contains("Content-Type: message/rfc822"), "{head}");
        assert!(head.contains("Content-Transfer-Encoding: 8bit"), "{head}");
        // Byte for byte the letter, its bare LFs made CRLF.
        let crlf = String::from_utf8_lossy(&koi8).replace('\n', "\r\n");
        assert_eq!(String::from_utf8_lossy(&body), crlf);
        assert!(body.windows(6).any(|w| w == b"\xf0\xc1\xd2\xd4\xc9\xd1"));
        // A line over 998 bytes cannot be 8bit: an octet stream in base64.
        let (head, body) = attached_part(&raw, "long.eml");
        assert!(
            head.contains("Content-Type: application/octet-stream"),
            "{head}"
        );
        assert!(head.contains("Content-Transfer-Encoding: base64"), "{head}");
        assert!(body.iter().all(u8::is_ascii));
        // Every line ends in CRLF, the attachments' too.
        assert!(
            !raw.windows(2)
                .enumerate()
                .any(|(at, w)| w[1] == b'\n' && (at == 0 || w[0] != b'\r'))
        );
        // No base64 message/rfc822 anywhere (RFC 2046 5.2.1).
        let text = String::from_utf8_lossy(&raw);
        for part in text.split("Content-Type: message/rfc822").skip(1) {
            let head = part.split("\r\n\r\n").next().unwrap();
            assert!(!head.contains("base64"), "{head}");
        }
    }
}

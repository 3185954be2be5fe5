//! Messages of the clerk, written here with lettre's encoders: addresses
//! built from parsed parts (a display name is cleaned of control characters
//! first, so no header can be smuggled in), the headers of contract.md 4,
//! attachments for the arbiter.

use chrono::{DateTime, Datelike, Timelike, Utc};
use email_encoding::body::{Encoding, base64};
use email_encoding::headers::writer::EmailWriter;
use email_encoding::headers::{quoted_string, rfc2047};
use lettre::Address;
use lettre::message::header::{ContentDisposition, ContentTransferEncoding, ContentType};
use lettre::message::{Body, MultiPart, SinglePart};

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
    /// The move (ply) this message brings to its reader.
    pub delivers: Option<usize>,
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

/// The header block of a message, written the way lettre writes headers:
/// RFC 2047 words for what is not ASCII, lines folded near 78 columns, no
/// CR or LF from a value (so no header can be smuggled in).
///
/// The clerk writes its headers itself instead of through lettre's message
/// builder, which keeps every header in a list searched by name at each
/// insert and encodes each value twice: that was a seventh of the run's main
/// thread (benches/README.md, change 14). Lettre still builds the body of a
/// message with attachments.
#[derive(Default)]
struct Head(String);

impl Head {
    /// A header whose value is written as it is (ASCII the clerk made).
    fn raw(&mut self, name: &str, value: &str) {
        self.0.push_str(name);
        self.0.push_str(": ");
        if value.contains(char::is_control) {
            for c in value.chars() {
                self.0.push(if c.is_control() { ' ' } else { c });
            }
        } else {
            self.0.push_str(value);
        }
        self.0.push_str("\r\n");
    }

    /// Free text (a subject): ASCII words as they are, the others as RFC 2047
    /// encoded words, folded.
    fn text(&mut self, name: &str, value: &str) -> std::fmt::Result {
        use std::fmt::Write;
        let value: String = value.chars().filter(|c| !c.is_control()).collect();
        self.0.push_str(name);
        self.0.push_str(": ");
        let mut writer = EmailWriter::new(&mut self.0, name.len() + 2, 0, false);
        let mut pending = String::new();
        for word in value.split_inclusive(' ') {
            if word.is_ascii() {
                flush_encoded(&mut pending, &mut writer)?;
                writer.folding().write_str(word)?;
            } else {
                pending.push_str(word);
            }
        }
        flush_encoded(&mut pending, &mut writer)?;
        drop(writer);
        self.0.push_str("\r\n");
        Ok(())
    }

    /// A list of mailboxes: `"Name" <address>, …`, each address checked.
    fn mailboxes(&mut self, name: &str, list: &[Mailbox]) -> std::fmt::Result {
        use std::fmt::Write;
        self.0.push_str(name);
        self.0.push_str(": ");
        let mut writer = EmailWriter::new(&mut self.0, name.len() + 2, 0, false);
        for (index, (display, address)) in list.iter().enumerate() {
            if index > 0 {
                writer.write_char(',')?;
                writer.space();
            }
            if display.is_empty() {
                writer.write_str(address.as_ref())?;
            } else {
                quoted_string::encode(display, &mut writer)?;
                writer.space();
                writer.write_char('<')?;
                writer.write_str(address.as_ref())?;
                writer.write_char('>')?;
            }
        }
        drop(writer);
        self.0.push_str("\r\n");
        Ok(())
    }
}

/// Writes the words gathered in `pending` as encoded words, keeping the
/// spaces after them foldable.
fn flush_encoded(pending: &mut String, writer: &mut EmailWriter<'_>) -> std::fmt::Result {
    if pending.is_empty() {
        return Ok(());
    }
    let words = pending.trim_end_matches(' ');
    rfc2047::encode(words, writer)?;
    for _ in words.len()..pending.len() {
        writer.space();
    }
    pending.clear();
    Ok(())
}

/// A checked address and its display name cleaned of control characters.
type Mailbox = (String, Address);

fn mailbox(name: &str, email: &str) -> Result<Mailbox, String> {
    let address: Address = email
        .parse()
        .map_err(|e| format!("bad address {email:?}: {e}"))?;
    let clean: String = name.chars().filter(|c| !c.is_control()).collect();
    Ok((clean.trim().to_string(), address))
}

/// `text` with every line end (CRLF, a lone LF or a lone CR) as CRLF, in
/// one pass.
fn crlf_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 32 + 2);
    let mut rest = text;
    // Searched as bytes (both are ASCII, so every hit is a character's
    // boundary): a search by characters decoded each Cyrillic one.
    while let Some(at) = memchr::memchr2(b'\r', b'\n', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        out.push_str("\r\n");
        let end = if rest[at..].starts_with("\r\n") { 2 } else { 1 };
        rest = &rest[at + end..];
    }
    out.push_str(rest);
    out
}

/// A text body as lettre encodes one: 7bit when it can, else the shorter of
/// quoted-printable and base64; CRLF line ends, and one more at the end.
fn text_body(text: &str) -> (&'static str, Vec<u8>) {
    // Chosen on the text as given, then its line ends made CRLF, as lettre does.
    let choice = Encoding::choose(text, false);
    let crlf = crlf_lines(text);
    let (encoding, mut body) = match choice {
        Encoding::SevenBit | Encoding::EightBit => ("7bit", crlf.into_bytes()),
        Encoding::QuotedPrintable => ("quoted-printable", super::qp::encode(crlf.as_bytes())),
        Encoding::Base64 => {
            let mut out = String::with_capacity(base64::encoded_len(crlf.len()));
            // Writing into a String cannot fail.
            let _ = base64::encode(crlf.as_bytes(), &mut out);
            ("base64", out.into_bytes())
        }
    };
    body.extend_from_slice(b"\r\n");
    (encoding, body)
}

/// `date` as the `Date:` header has it (RFC 5322, in UTC): what chrono's
/// `%a, %d %b %Y %H:%M:%S +0000` writes, without reading a format string
/// for every message.
fn date_header(date: DateTime<Utc>) -> String {
    const DAYS: [&str; 7] = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{}, {:02} {} {:04} {:02}:{:02}:{:02} +0000",
        DAYS[date.weekday().num_days_from_monday() as usize],
        date.day(),
        MONTHS[date.month0() as usize],
        date.year(),
        date.hour(),
        date.minute(),
        date.second()
    )
}

/// Builds the message; returns its bytes.
pub fn build(
    out: &Outgoing,
    sender: &Sender,
    message_id: &str,
    date: DateTime<Utc>,
) -> Result<Vec<u8>, String> {
    let format = |e: std::fmt::Error| format!("cannot write a header: {e}");
    let subject = match &out.game {
        Some(game) => format!("[{} #{game}] {}", sender.tournament, out.subject),
        None => format!("[{}] {}", sender.tournament, out.subject),
    };
    let from = mailbox(&sender.name, &sender.email)?;
    let to = out
        .to
        .iter()
        .map(|r| mailbox(&r.name, &r.email))
        .collect::<Result<Vec<_>, _>>()?;
    let cc = out
        .cc
        .iter()
        .map(|r| mailbox(&r.name, &r.email))
        .collect::<Result<Vec<_>, _>>()?;
    let mut head = Head(String::with_capacity(1024));
    head.mailboxes("From", &[from]).map_err(format)?;
    head.text("Subject", &subject).map_err(format)?;
    head.raw("Message-ID", message_id);
    head.raw("Date", &date_header(date));
    if !to.is_empty() {
        head.mailboxes("To", &to).map_err(format)?;
    }
    if !cc.is_empty() {
        head.mailboxes("Cc", &cc).map_err(format)?;
    }
    if let Some(parent) = &out.in_reply_to {
        // Mail parsers hand Message-IDs over without their angle brackets.
        let parent: String = parent
            .chars()
            .filter(|c| !c.is_control() && !c.is_whitespace())
            .collect();
        let parent = if parent.starts_with('<') {
            parent
        } else {
            format!("<{parent}>")
        };
        head.raw("In-Reply-To", &parent);
        head.raw("References", &parent);
    }
    head.raw("MIME-Version", "1.0");
    head.raw(
        "Auto-Submitted",
        if out.generated {
            "auto-generated"
        } else {
            "auto-replied"
        },
    );
    head.raw("X-Auto-Response-Suppress", "All");
    head.raw("X-Loop", &sender.email);
    head.raw("Precedence", "auto_reply");
    head.raw("X-Shtempel-Kind", out.kind.header());
    if let Some(game) = &out.game {
        head.raw("X-Shtempel-Game", game);
    }
    if out.registered {
        head.raw("Disposition-Notification-To", &sender.email);
    }
    let mut raw = head.0.into_bytes();
    if out.attachments.is_empty() {
        let (encoding, body) = text_body(&out.body);
        raw.extend_from_slice(b"Content-Type: text/plain; charset=utf-8\r\n");
        raw.extend_from_slice(format!("Content-Transfer-Encoding: {encoding}\r\n\r\n").as_bytes());
        raw.extend_from_slice(&body);
    } else {
        raw.extend_from_slice(&attachments(out)?);
    }
    Ok(raw)
}

/// The `multipart/mixed` body of a message with attachments, its own
/// `Content-Type` line first.
fn attachments(out: &Outgoing) -> Result<Vec<u8>, String> {
    let mut parts = MultiPart::mixed().singlepart(SinglePart::plain(out.body.clone()));
    for attachment in &out.attachments {
        let content_type =
            ContentType::parse(&attachment.content_type).map_err(|e| e.to_string())?;
        // An original letter goes as it came (8bit where it can), never re-encoded.
        let body = if attachment.content_type == "message/rfc822" {
            Body::new_with_encoding(attachment.bytes.clone(), ContentTransferEncoding::EightBit)
                .unwrap_or_else(|bytes| {
                    Body::new_with_encoding(bytes, ContentTransferEncoding::Base64)
                        .unwrap_or_else(Body::new)
                })
        } else {
            Body::new(attachment.bytes.clone())
        };
        let part = SinglePart::builder()
            .header(content_type)
            .header(ContentDisposition::attachment(&attachment.name))
            .body(body);
        parts = parts.singlepart(part);
    }
    Ok(parts.formatted())
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
            delivers: Some(2),
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

    /// The message as lettre's builder wrote it before the clerk wrote its
    /// own headers: the oracle the writer is held to.
    fn built_by_lettre(out: &Outgoing, sender: &Sender, id: &str) -> Vec<u8> {
        use lettre::message::header::{HeaderName, HeaderValue};
        let mailbox = |name: &str, email: &str| {
            let name: String = name.chars().filter(|c| !c.is_control()).collect();
            let name = name.trim().to_string();
            lettre::message::Mailbox::new(
                (!name.is_empty()).then_some(name),
                email.parse().unwrap(),
            )
        };
        let tag = match &out.game {
            Some(game) => format!("[{} #{game}]", sender.tournament),
            None => format!("[{}]", sender.tournament),
        };
        let subject: String = format!("{tag} {}", out.subject)
            .chars()
            .filter(|c| !c.is_control())
            .collect();
        let mut builder = lettre::Message::builder()
            .from(mailbox(&sender.name, &sender.email))
            .subject(subject)
            .message_id(Some(id.to_string()))
            .date(std::time::SystemTime::UNIX_EPOCH);
        for to in &out.to {
            builder = builder.to(mailbox(&to.name, &to.email));
        }
        for cc in &out.cc {
            builder = builder.cc(mailbox(&cc.name, &cc.email));
        }
        if let Some(parent) = &out.in_reply_to {
            builder = builder
                .in_reply_to(parent.clone())
                .references(parent.clone());
        }
        let mut message = builder
            .singlepart(SinglePart::plain(out.body.clone()))
            .unwrap();
        let headers = message.headers_mut();
        let mut add = |name: &'static str, value: &str| {
            headers.insert_raw(HeaderValue::new(
                HeaderName::new_from_ascii_str(name),
                value.to_string(),
            ))
        };
        add(
            "Auto-Submitted",
            if out.generated {
                "auto-generated"
            } else {
                "auto-replied"
            },
        );
        add("X-Auto-Response-Suppress", "All");
        add("X-Loop", &sender.email);
        add("Precedence", "auto_reply");
        add("X-Shtempel-Kind", out.kind.header());
        if let Some(game) = &out.game {
            add("X-Shtempel-Game", game);
        }
        if out.registered {
            add("Disposition-Notification-To", &sender.email);
        }
        message.formatted()
    }

    #[test]
    fn the_date_header_is_what_the_format_string_writes() {
        let mut date = DateTime::UNIX_EPOCH;
        // Every weekday and month, single- and double-digit days and hours,
        // across leap years, up to 2109.
        for _ in 0..4000 {
            assert_eq!(
                date_header(date),
                date.format("%a, %d %b %Y %H:%M:%S +0000").to_string()
            );
            date += chrono::Duration::seconds(863_999 + 3_607);
        }
    }

    #[test]
    fn headers_and_bodies_are_written_as_lettre_writes_them() {
        let long_ru = "Дорогой Иван Иванович, ваш ход 12. Кf3 получен, время 23/31, ".repeat(3);
        let long_en =
            "your letter in game 7 (White 7 - Black 7) has been received and checked. ".repeat(4);
        let cases: Vec<(&str, &str, &str)> = vec![
            ("White 7", "2. Nf3", "Dear White 7,\n\nall in order.\n"),
            (
                "Иванов Иван Иванович",
                "получен: 1. е4",
                "Уважаемый Иван Иванович,\n\nход получен.\n",
            ),
            ("O'Brien, \"Pat\"", &long_en, &long_en),
            ("", &long_ru, &long_ru),
            (
                "Mixed Смешанный name",
                "a\tb",
                "line one\r\nline two\nline three\n\n\n",
            ),
            ("Plain", "", ""),
        ];
        let sender = Sender {
            name: "Турнир памяти Кереса (секретарь)".into(),
            email: "clerk@example.org".into(),
            tournament: "CC-2026".into(),
        };
        for (name, subject, body) in cases {
            let mut out = outgoing();
            out.to[0].name = name.into();
            out.cc = vec![Recipient {
                name: format!("{name} партнёр"),
                email: "partner@example.org".into(),
            }];
            out.subject = subject.into();
            out.body = body.into();
            out.game = (!name.is_empty()).then(|| "12".into());
            out.generated = name.is_empty();
            out.registered = !name.is_empty();
            let ours = build(&out, &sender, "<m1@example.org>", DateTime::UNIX_EPOCH).unwrap();
            let theirs = built_by_lettre(&out, &sender, "<m1@example.org>");
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
                "case {name:?} / {subject:?}"
            );
        }
        // A lone CR (lettre keeps it, which 7bit forbids) ends a line.
        let mut out = outgoing();
        out.body = "one\rtwo\n".into();
        let raw = build(&out, &sender, "<m1@example.org>", DateTime::UNIX_EPOCH).unwrap();
        assert!(raw.ends_with(b"\r\n\r\none\r\ntwo\r\n\r\n"), "{raw:?}");
    }

    /// Names, subjects and bodies pieced together from what trips header
    /// writers (quotes, specials, encoded-word markers, long words, mixed
    /// scripts), each message held to lettre's builder.
    #[test]
    fn odd_names_and_subjects_are_written_as_lettre_writes_them() {
        const PIECES: [&str; 24] = [
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
            "=?utf-8?q?x?=",
            "?=",
            ".",
            "'",
            "a-very-long-word-without-any-space-that-goes-on-and-on-past-the-fold",
            "длинноеслововкотороммногобукввсеподрядбезпробела",
        ];
        let sender = Sender {
            name: "Clerk".into(),
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
            let ours = build(&out, &sender, "<m@example.org>", DateTime::UNIX_EPOCH).unwrap();
            let theirs = built_by_lettre(&out, &sender, "<m@example.org>");
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs),
                "case {case}: {:?} / {:?}",
                out.to[0].name,
                out.subject
            );
        }
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
}

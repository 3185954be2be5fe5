//! Messages of the clerk, built with lettre: addresses built from parsed parts
//! (a display name is cleaned of control characters first, so no header can be
//! smuggled in), the headers of contract.md 4, attachments for the arbiter.

use std::time::SystemTime;

use chrono::{DateTime, Utc};
use lettre::address::Envelope;
use lettre::message::header::{
    ContentDisposition, ContentTransferEncoding, ContentType, HeaderName, HeaderValue,
};
use lettre::message::{Body, Mailbox, MultiPart, SinglePart};
use lettre::{Address, Message};

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
    /// `X-Shtempel-Kind` (contract.md 4).
    pub kind: &'static str,
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

fn mailbox(name: &str, email: &str) -> Result<Mailbox, String> {
    let address: Address = email
        .parse()
        .map_err(|e| format!("bad address {email:?}: {e}"))?;
    let clean: String = name.chars().filter(|c| !c.is_control()).collect();
    let clean = clean.trim();
    Ok(Mailbox::new(
        (!clean.is_empty()).then(|| clean.to_string()),
        address,
    ))
}

fn header(name: &'static str, value: impl Into<String>) -> HeaderValue {
    let value: String = value.into();
    HeaderValue::new(
        HeaderName::new_from_ascii_str(name),
        value.replace(['\r', '\n'], " "),
    )
}

/// Builds the message; returns its bytes.
pub fn build(
    out: &Outgoing,
    sender: &Sender,
    message_id: &str,
    date: DateTime<Utc>,
) -> Result<Vec<u8>, String> {
    let tag = match &out.game {
        Some(game) => format!("[{} #{game}]", sender.tournament),
        None => format!("[{}]", sender.tournament),
    };
    let subject: String = format!("{tag} {}", out.subject)
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    let from = mailbox(&sender.name, &sender.email)?;
    // The envelope from the addresses at hand: lettre would otherwise read
    // them back out of the headers just written.
    let mut envelope_to = Vec::with_capacity(out.to.len() + out.cc.len());
    let mut builder = Message::builder()
        .from(from.clone())
        .subject(subject)
        .message_id(Some(message_id.to_string()))
        .date(SystemTime::from(date));
    for to in &out.to {
        let to = mailbox(&to.name, &to.email)?;
        envelope_to.push(to.email.clone());
        builder = builder.to(to);
    }
    for cc in &out.cc {
        let cc = mailbox(&cc.name, &cc.email)?;
        envelope_to.push(cc.email.clone());
        builder = builder.cc(cc);
    }
    let envelope = Envelope::new(Some(from.email), envelope_to).map_err(|e| e.to_string())?;
    builder = builder.envelope(envelope);
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
        builder = builder.in_reply_to(parent.clone()).references(parent);
    }
    let text = SinglePart::plain(out.body.clone());
    let mut message = if out.attachments.is_empty() {
        builder.singlepart(text)
    } else {
        let mut parts = MultiPart::mixed().singlepart(text);
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
        builder.multipart(parts)
    }
    .map_err(|e| e.to_string())?;
    let headers = message.headers_mut();
    headers.insert_raw(header(
        "Auto-Submitted",
        if out.generated {
            "auto-generated"
        } else {
            "auto-replied"
        },
    ));
    headers.insert_raw(header("X-Auto-Response-Suppress", "All"));
    headers.insert_raw(header("X-Loop", sender.email.clone()));
    headers.insert_raw(header("Precedence", "auto_reply"));
    headers.insert_raw(header("X-Shtempel-Kind", out.kind));
    if let Some(game) = &out.game {
        headers.insert_raw(header("X-Shtempel-Game", game.clone()));
    }
    if out.registered {
        headers.insert_raw(header("Disposition-Notification-To", sender.email.clone()));
    }
    Ok(message.formatted())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outgoing() -> Outgoing {
        Outgoing {
            kind: "forward",
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

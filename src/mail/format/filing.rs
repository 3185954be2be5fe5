//! Letters filed for the chief arbiter: the original message, with the
//! sender's secret word taken out.

use crate::mail::format::compose::Attachment;

/// A player's letter as it goes into a file for the arbiter: the original
/// message, with the player's secret word removed. Where the word is encoded
/// (base64, quoted-printable) and cannot be cut from the bytes, a plain-text
/// copy of the letter without it is filed instead of the original.
pub fn filed_letter(name: String, raw: &[u8], secret: Option<&str>) -> Attachment {
    let redacted = redact_secret(raw, secret);
    let still_there = secret.is_some_and(|secret| {
        mail_parser::MessageParser::default()
            .parse(&redacted)
            .and_then(|m| m.body_text(0).map(|t| t.contains(secret)))
            .unwrap_or(false)
    });
    if !still_there {
        return Attachment {
            name,
            content_type: "message/rfc822".into(),
            bytes: redacted,
        };
    }
    let text = mail_parser::MessageParser::default()
        .parse(raw)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default();
    let clean = String::from_utf8_lossy(&redact_secret(text.as_bytes(), secret)).into_owned();
    Attachment {
        name: name.replace(".eml", ".txt"),
        content_type: "text/plain; charset=utf-8".into(),
        bytes: clean.into_bytes(),
    }
}

/// Removes the secret word from a letter before it is filed or forwarded.
pub fn redact_secret(raw: &[u8], secret: Option<&str>) -> Vec<u8> {
    let Some(secret) = secret.filter(|s| !s.is_empty()) else {
        return raw.to_vec();
    };
    let needle = secret.as_bytes();
    let mut out = Vec::with_capacity(raw.len());
    let mut index = 0;
    while index < raw.len() {
        if raw[index..].starts_with(needle) {
            out.extend_from_slice(b"[secret removed]");
            index += needle.len();
        } else {
            out.push(raw[index]);
            index += 1;
        }
    }
    out
}

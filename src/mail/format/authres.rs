//! `Authentication-Results` (RFC 8601 §2.2), read by its grammar: comments
//! (nested, with quoted pairs), quoted strings and folding are the grammar's,
//! so nothing a sender can put inside one of them is ever read as a result;
//! and the signing domain of a `DKIM-Signature` (RFC 6376 §3.5).
//!
//! No widely used crate parses the field (mail-parser hands it over as text),
//! so this is a small tokenizer of our own over the RFC's productions. It is
//! strict where a verdict is read (authserv-id, method, result, property
//! names) and refuses a field it cannot read whole, as OpenDMARC's parser
//! does; it is lenient in two places real servers need, neither of which can
//! make a result:
//! - a property's value is any run of characters up to white space, a
//!   comment or `;` (quoted strings inside it kept whole): Gmail's and
//!   OpenDKIM's `header.b=` carry base64 with `/` and `+`, which RFC 2045's
//!   token does not allow;
//! - a property without a ptype (`x-bits=2048`, Fastmail's) is kept with an
//!   empty ptype, so it never names a domain a decision reads.

use std::fmt;

/// One `Authentication-Results` field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuthResults {
    /// The server that wrote the field, as written.
    pub authserv_id: String,
    pub version: Option<u32>,
    /// Empty for a field that says `none`.
    pub results: Vec<MethodResult>,
}

/// One `method=result` with its reason and properties.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodResult {
    /// Lower case, as are `result`, ptypes and properties (RFC 8601 §2.2:
    /// they are case-insensitive).
    pub method: String,
    pub method_version: Option<u32>,
    pub result: String,
    pub reason: Option<String>,
    pub properties: Vec<Property>,
}

/// `ptype.property=value`, as `header.d=example.org`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Property {
    /// Empty for a property written without one.
    pub ptype: String,
    pub property: String,
    /// As written, quoted strings with their quotes.
    pub value: String,
}

impl MethodResult {
    /// The value of `ptype.property`, the first one written.
    pub fn property(&self, ptype: &str, property: &str) -> Option<&str> {
        self.properties
            .iter()
            .find(|p| p.ptype == ptype && p.property == property)
            .map(|p| p.value.as_str())
    }
}

/// Where a field stops following the grammar, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unreadable {
    /// The byte offset in the field's value.
    pub at: usize,
    pub expected: &'static str,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unreadable at byte {}: {} expected",
            self.at, self.expected
        )
    }
}

impl std::error::Error for Unreadable {}

/// Reads an `Authentication-Results` field's value (what follows the colon,
/// folded or not).
pub fn parse(field: &str) -> Result<AuthResults, Unreadable> {
    let mut cursor = Cursor::new(field);
    cursor.cfws()?;
    let authserv_id = cursor.value("the authserv-id")?;
    // `""` is a quoted string, and names no server.
    if authserv_id.trim().is_empty() {
        return Err(Unreadable {
            at: 0,
            expected: "the authserv-id",
        });
    }
    let space = cursor.cfws()?;
    let version = if space && cursor.peek().is_some_and(|b| b.is_ascii_digit()) {
        let version = cursor.number()?;
        cursor.cfws()?;
        Some(version)
    } else {
        None
    };
    let mut results = Vec::new();
    let mut said_none = false;
    while cursor.eat(b';') {
        cursor.cfws()?;
        if cursor.done() && (said_none || !results.is_empty()) {
            // A `;` closing the last result, as some servers write it.
            break;
        }
        if said_none {
            return Err(cursor.unreadable("the end of the field after `none`"));
        }
        // `; none` is no result at all (RFC 8601 §2.2 no-result); only as
        // the field's one entry.
        let start = cursor.at;
        let word = cursor.keyword("a method")?;
        cursor.cfws()?;
        if word.eq_ignore_ascii_case("none") && results.is_empty() && cursor.peek() != Some(b'=') {
            said_none = true;
            continue;
        }
        cursor.at = start;
        results.push(cursor.resinfo()?);
    }
    if !cursor.done() {
        return Err(cursor.unreadable("`;` and a result"));
    }
    if results.is_empty() && !said_none {
        return Err(cursor.unreadable("a result, or `; none`"));
    }
    Ok(AuthResults {
        authserv_id,
        version,
        results,
    })
}

/// The authserv-id a field names, read as [`parse`] reads it, even where
/// the rest of the field is not readable; `None` when it names none.
pub fn authserv_id(field: &str) -> Option<String> {
    let mut cursor = Cursor::new(field);
    cursor.cfws().ok()?;
    cursor
        .value("the authserv-id")
        .ok()
        .filter(|id| !id.trim().is_empty())
}

/// The signing domain (`d=`) of a `DKIM-Signature` field (RFC 6376 §3.5:
/// a tag list, folding white space allowed around and inside values),
/// lower case; `None` when it has none.
pub fn dkim_signing_domain(field: &str) -> Option<String> {
    field
        .split(';')
        .find_map(|tag| {
            let (name, value) = tag.split_once('=')?;
            (name.trim() == "d").then(|| {
                value
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<String>()
                    .trim_end_matches('.')
                    .to_ascii_lowercase()
            })
        })
        .filter(|domain| !domain.is_empty())
}

/// A position in a field's value.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

fn is_space(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\r' | b'\n')
}

/// RFC 2045's tspecials, which end a token.
fn is_tspecial(byte: u8) -> bool {
    b"()<>@,;:\\\"/[]?=".contains(&byte)
}

fn is_token(byte: u8) -> bool {
    !is_space(byte) && !byte.is_ascii_control() && !is_tspecial(byte)
}

/// RFC 5321's ldh-str, with `_` as servers write it (`x_tls`).
fn is_keyword(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_'
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor { text, at: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn done(&self) -> bool {
        self.at >= self.text.len()
    }

    fn unreadable(&self, expected: &'static str) -> Unreadable {
        Unreadable {
            at: self.at,
            expected,
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        let found = self.peek() == Some(byte);
        if found {
            self.at += 1;
        }
        found
    }

    /// The bytes from here while `keep` holds (a whole UTF-8 text: `keep`
    /// takes every byte of 0x80 and over or none).
    fn run(&mut self, keep: impl Fn(u8) -> bool) -> &'a str {
        let start = self.at;
        while self.peek().is_some_and(&keep) {
            self.at += 1;
        }
        &self.text[start..self.at]
    }

    /// Skips white space, folding and comments; says whether there was any.
    fn cfws(&mut self) -> Result<bool, Unreadable> {
        let start = self.at;
        loop {
            self.run(is_space);
            if self.peek() != Some(b'(') {
                return Ok(self.at > start);
            }
            self.comment()?;
        }
    }

    /// A comment, nested ones inside it and quoted pairs.
    fn comment(&mut self) -> Result<(), Unreadable> {
        let start = self.at;
        let mut depth = 0usize;
        while let Some(byte) = self.peek() {
            self.at += 1;
            match byte {
                b'\\' => self.at = (self.at + 1).min(self.text.len()),
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
        self.at = start;
        Err(self.unreadable("the end of a comment"))
    }

    /// A quoted string, returned with its quotes as written.
    fn quoted_string(&mut self) -> Result<&'a str, Unreadable> {
        let start = self.at;
        self.at += 1;
        while let Some(byte) = self.peek() {
            self.at += 1;
            match byte {
                b'\\' => self.at = (self.at + 1).min(self.text.len()),
                b'"' => return Ok(&self.text[start..self.at]),
                _ => {}
            }
        }
        self.at = start;
        Err(self.unreadable("the end of a quoted string"))
    }

    /// RFC 2045's value: a token or a quoted string (unquoted here).
    fn value(&mut self, what: &'static str) -> Result<String, Unreadable> {
        if self.peek() == Some(b'"') {
            let quoted = self.quoted_string()?;
            return Ok(unquote(quoted));
        }
        let token = self.run(|b| is_token(b) || b >= 0x80);
        if token.is_empty() {
            return Err(self.unreadable(what));
        }
        Ok(token.to_string())
    }

    fn keyword(&mut self, what: &'static str) -> Result<String, Unreadable> {
        let word = self.run(is_keyword);
        if word.is_empty() {
            return Err(self.unreadable(what));
        }
        Ok(word.to_ascii_lowercase())
    }

    fn number(&mut self) -> Result<u32, Unreadable> {
        let digits = self.run(|b| b.is_ascii_digit());
        digits
            .parse()
            .map_err(|_| self.unreadable("a version number"))
    }

    fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), Unreadable> {
        self.cfws()?;
        if !self.eat(byte) {
            return Err(self.unreadable(what));
        }
        self.cfws()?;
        Ok(())
    }

    /// `method [/ version] = result [reason=value] *propspec`, up to the next
    /// `;` or the end.
    fn resinfo(&mut self) -> Result<MethodResult, Unreadable> {
        let method = self.keyword("a method")?;
        self.cfws()?;
        let method_version = if self.eat(b'/') {
            self.cfws()?;
            let version = self.number()?;
            Some(version)
        } else {
            None
        };
        self.expect(b'=', "`=` after the method")?;
        let result = self.keyword("a result")?;
        let mut info = MethodResult {
            method,
            method_version,
            result,
            reason: None,
            properties: Vec::new(),
        };
        loop {
            self.cfws()?;
            if self.done() || self.peek() == Some(b';') {
                return Ok(info);
            }
            let name = self.keyword("a property or `;`")?;
            self.cfws()?;
            if self.eat(b'.') {
                self.cfws()?;
                let property = self.keyword("a property after the `.`")?;
                self.expect(b'=', "`=` after the property")?;
                let value = self.pvalue()?;
                info.properties.push(Property {
                    ptype: name,
                    property,
                    value,
                });
            } else {
                self.expect(b'=', "`=` or `.` after a word")?;
                if name == "reason" && info.reason.is_none() && info.properties.is_empty() {
                    info.reason = Some(self.value("the reason")?);
                } else {
                    let value = self.pvalue()?;
                    info.properties.push(Property {
                        ptype: String::new(),
                        property: name,
                        value,
                    });
                }
            }
        }
    }

    /// A property's value: quoted strings and other characters up to white
    /// space, a comment or `;` (`"x;y"@example.org` is one value).
    fn pvalue(&mut self) -> Result<String, Unreadable> {
        let start = self.at;
        loop {
            match self.peek() {
                Some(b'"') => {
                    self.quoted_string()?;
                }
                Some(byte) if !is_space(byte) && byte != b'(' && byte != b';' => self.at += 1,
                _ => break,
            }
        }
        if self.at == start {
            return Err(self.unreadable("a property's value"));
        }
        Ok(self.text[start..self.at].to_string())
    }
}

/// A quoted string's content, its quoted pairs undone.
fn unquote(quoted: &str) -> String {
    let inner = &quoted[1..quoted.len() - 1];
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            '\r' | '\n' => {}
            c => out.push(c),
        }
    }
    out
}

/// The domain a property's value names: after its last `@` outside quotes
/// (`user@example.org`, `@example.org`, `"x@y"@example.org`), or the whole
/// value; angle brackets and a final dot dropped, lower case.
pub fn domain_of(value: &str) -> String {
    if value.len() > 1 && value.starts_with('"') && value.ends_with('"') {
        return domain_of(&unquote(value).replace('"', ""));
    }
    let mut in_quotes = false;
    let mut escaped = false;
    let mut last_at = None;
    for (index, byte) in value.bytes().enumerate() {
        match byte {
            _ if escaped => escaped = false,
            b'\\' if in_quotes => escaped = true,
            b'"' => in_quotes = !in_quotes,
            b'@' if !in_quotes => last_at = Some(index),
            _ => {}
        }
    }
    let domain = match last_at {
        Some(index) => &value[index + 1..],
        None => value,
    };
    domain
        .trim_matches(|c| c == '<' || c == '>')
        .trim_end_matches('.')
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests;

//! The reply corpus: 102 real replies from the test suites of public
//! reply-parsing libraries (`../shared/corpus/replies/`, its README names each
//! source). Each becomes a move letter: the author's own text is replaced by a
//! move letter, and the quoted part gets a decoy (another move, fraction, dates
//! and a variant, as a quoted clerk's message holds them). The reader must take
//! exactly the own move, fraction and dates, and nothing of the quote.
//!
//! The letters are built in memory and also written to `target/replies/` to be
//! read with `shtempel check`. Without `../shared` the test is skipped, except
//! where `SHTEMPEL_REQUIRE_SHARED` is set (CI), where it fails.

use std::fs;
use std::path::{Path, PathBuf};

use mail_parser::{MessageParser, MimeHeaders, PartType};
use serde_json::Value;
use shakmaty::Color;
use shtempel::letter::{self, Letter};
use shtempel::mail::format::mime;

const OWN_EN: [&str; 3] = [
    "2. Nf3",
    "Time: 7/4",
    "Dates: 07.11.2026, 07.11.2026, 12.11.2026",
];
const OWN_RU: [&str; 3] = [
    "2. Кf3",
    "Время: 7/4",
    "Даты: 07.11.2026, 07.11.2026, 12.11.2026",
];
/// What a quoted clerk's message holds: another move, the lines to fill in,
/// and a variant.
const DECOY: [&str; 4] = [
    "1... c5",
    "Time: 9/9",
    "Dates: 01.10.2026, 02.10.2026, 03.10.2026",
    "if 3... a6 4. Ba4",
];

fn text_of<'a>(spec: &'a Value, key: &str) -> Option<&'a str> {
    spec.get(key).and_then(Value::as_str)
}

/// Where the line holding `at` starts, and its leading quote marks and
/// indentation (those before `at`, when `before_only`).
fn line_prefix(text: &str, at: usize, before_only: bool) -> (usize, &str) {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[start..];
    let mut marks = line.len() - line.trim_start_matches(['>', ' ', '|', '\t']).len();
    if before_only {
        marks = marks.min(at - start);
    }
    (start, &line[..marks])
}

fn line_end(text: &str, at: usize) -> usize {
    text[at..].find('\n').map_or(text.len(), |i| at + i)
}

/// Decoy lines under `prefix`, each a whole line.
fn quoted(prefix: &str) -> String {
    DECOY
        .iter()
        .map(|line| format!("{prefix}{line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A plain-text body: the own text replaced, decoys put into the quote.
fn build_text(source: &str, spec: &Value, own: &[&str]) -> Result<String, String> {
    let mut text = source.replace("\r\n", "\n");
    let own_text = text_of(spec, "own").ok_or("no own text")?;
    let own_at = text
        .find(own_text)
        .ok_or_else(|| format!("own text {own_text:?} not in the file"))?;
    let letter = own.join("\n");
    text.replace_range(own_at..own_at + own_text.len(), &letter);
    let own_end = own_at + letter.len();
    let bottom = spec.get("bottom").and_then(Value::as_bool) == Some(true);
    let search_from = if bottom { 0 } else { own_end };
    if let Some(quote_at) = text_of(spec, "quote_at") {
        let at = text[search_from..]
            .find(quote_at)
            .map(|i| search_from + i)
            .ok_or_else(|| format!("quote {quote_at:?} not in the file"))?;
        let (start, prefix) = line_prefix(&text, at, true);
        let insert_at = start + prefix.len();
        let decoy = format!("{}\n{prefix}", quoted(prefix).trim_start_matches(prefix));
        text.insert_str(insert_at, &decoy);
    } else if let Some(after) = text_of(spec, "quote_after") {
        let at = text[search_from..]
            .find(after)
            .map(|i| search_from + i)
            .ok_or_else(|| format!("{after:?} not in the file"))?;
        let (_, prefix) = line_prefix(&text, at, false);
        let decoy = format!("\n{}", quoted(prefix));
        let end = line_end(&text, at);
        text.insert_str(end, &decoy);
    } else if text_of(spec, "tail_after").is_none() {
        // No quote named: the decoy goes at the end, quoted as the last line is.
        let last = text.trim_end().rfind('\n').map_or(0, |i| i + 1);
        let (_, prefix) = line_prefix(&text, last, false);
        let prefix = prefix.to_string();
        let end = text.trim_end().len();
        text.insert_str(end, &format!("\n{}", quoted(&prefix)));
    }
    if let Some(tail) = text_of(spec, "tail_after") {
        let at = text
            .rfind(tail)
            .ok_or_else(|| format!("tail {tail:?} not in the file"))?;
        let (_, prefix) = line_prefix(&text, at, false);
        let decoy = format!("\n{}", quoted(prefix));
        let end = line_end(&text, at + tail.len());
        text.insert_str(end, &decoy);
    }
    Ok(text)
}

/// `fmt` with `{}` replaced by `line`.
fn fill(fmt: &str, line: &str) -> String {
    fmt.replacen("{}", line, 1)
}

/// An HTML body: the own text replaced, decoys put into the quote and its tail.
fn build_html(source: &str, spec: &Value, own: &[&str]) -> Result<String, String> {
    let mut html = source.to_string();
    if let Some(fixups) = spec.get("fixups").and_then(Value::as_array) {
        for pair in fixups {
            let from = pair[0].as_str().ok_or("fixup")?;
            let to = pair[1].as_str().ok_or("fixup")?;
            html = html.replace(from, to);
        }
    }
    let own_text = text_of(spec, "own").ok_or("no own text")?;
    let own_at = html
        .find(own_text)
        .ok_or_else(|| format!("own html {own_text:?} not in the file"))?;
    let letter = match text_of(spec, "own_tpl") {
        Some(template) => own
            .iter()
            .enumerate()
            .fold(template.to_string(), |t, (i, line)| {
                t.replace(&format!("{{{i}}}"), line)
            }),
        None => own.join(text_of(spec, "own_join").unwrap_or("<br>")),
    };
    html.replace_range(own_at..own_at + own_text.len(), &letter);
    let own_end = own_at + letter.len();
    if let Some(quote_at) = text_of(spec, "quote_at") {
        let at = html[own_end..]
            .find(quote_at)
            .map(|i| own_end + i)
            .ok_or_else(|| format!("quote {quote_at:?} not in the file"))?;
        let fmt = text_of(spec, "quote_fmt").unwrap_or("{}<br>");
        let decoy: String = DECOY.iter().map(|line| fill(fmt, line)).collect();
        html.insert_str(at, &decoy);
    }
    let tail_fmt = text_of(spec, "tail_fmt").unwrap_or("{}<br>");
    let tail: String = DECOY.iter().map(|line| fill(tail_fmt, line)).collect();
    if let Some(after) = text_of(spec, "tail_after") {
        let at = html
            .rfind(after)
            .ok_or_else(|| format!("tail {after:?} not in the file"))?;
        html.insert_str(at + after.len(), &tail);
    } else if let Some(before) = text_of(spec, "tail_before") {
        let at = html
            .rfind(before)
            .ok_or_else(|| format!("tail {before:?} not in the file"))?;
        html.insert_str(at, &tail);
    }
    Ok(html)
}

const HEADERS: &str = "From: Ivanov <ivanov@example.org>\r\nTo: clerk@example.org\r\nSubject: Re: [CC-2026 #1] 1... e5\r\nMessage-ID: <case@example.org>\r\nMIME-Version: 1.0\r\n";

fn single(content_type: &str, body: &str) -> Vec<u8> {
    format!(
        "{HEADERS}Content-Type: {content_type}; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}"
    )
    .into_bytes()
}

/// A whole message's parts: its own headers kept (but for the MIME ones), the
/// text and HTML parts rebuilt in UTF-8 with their format parameters.
fn rebuild_eml(raw: &[u8], text: Option<(&str, &str)>, html: Option<&str>) -> Vec<u8> {
    let head_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 2)
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|i| i + 1))
        .unwrap_or(raw.len());
    let head = String::from_utf8_lossy(&raw[..head_end]).replace("\r\n", "\n");
    let mut kept = String::new();
    let mut skipping = false;
    for line in head.lines() {
        if line.starts_with([' ', '\t']) {
            if !skipping {
                kept.push_str(line);
                kept.push_str("\r\n");
            }
            continue;
        }
        let name = line.split(':').next().unwrap_or("").to_ascii_lowercase();
        skipping = name.starts_with("content-") || name == "mime-version";
        if !skipping {
            kept.push_str(line);
            kept.push_str("\r\n");
        }
    }
    let boundary = "=_shtempel_case";
    let mut out = format!("{kept}MIME-Version: 1.0\r\n");
    let text_part = text.map(|(params, body)| {
        format!("Content-Type: text/plain; charset=utf-8{params}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}")
    });
    let html_part = html.map(|body| {
        format!("Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{body}")
    });
    match (text_part, html_part) {
        (Some(part), None) | (None, Some(part)) => out.push_str(&part),
        (Some(text), Some(html)) => {
            out.push_str(&format!(
                "Content-Type: multipart/alternative; boundary=\"{boundary}\"\r\n\r\n--{boundary}\r\n{text}\r\n--{boundary}\r\n{html}\r\n--{boundary}--\r\n"
            ));
        }
        (None, None) => {}
    }
    out.into_bytes()
}

/// The decoded text and HTML parts of a message, and the text part's
/// `format` and `delsp` parameters.
fn eml_parts(raw: &[u8]) -> (Option<(String, String)>, Option<String>) {
    let message = MessageParser::default().parse(raw).expect("eml parses");
    let mut text = None;
    let mut html = None;
    for part in &message.parts {
        match &part.body {
            PartType::Text(body) if text.is_none() => {
                let params: String = part
                    .content_type()
                    .and_then(|ct| ct.attributes())
                    .map(|attributes| {
                        attributes
                            .iter()
                            .filter(|a| {
                                ["format", "delsp"].contains(&a.name.to_lowercase().as_str())
                            })
                            .map(|a| format!("; {}={}", a.name, a.value))
                            .collect()
                    })
                    .unwrap_or_default();
                text = Some((params, body.to_string()));
            }
            PartType::Html(body) if html.is_none() => html = Some(body.to_string()),
            _ => {}
        }
    }
    (text, html)
}

/// The letters a case becomes: one, or for a whole message with both parts,
/// the message and its HTML part alone.
fn letters_of(dir: &Path, case: &Value) -> Result<Vec<(String, Vec<u8>)>, String> {
    let name = case["name"].as_str().ok_or("name")?;
    let file = dir.join(case["file"].as_str().ok_or("file")?);
    let mut bytes = fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    if let Some(pairs) = case.get("substitute").and_then(Value::as_array) {
        let mut text = String::from_utf8_lossy(&bytes).into_owned();
        for pair in pairs {
            text = text.replace(
                pair[0].as_str().ok_or("substitute")?,
                pair[1].as_str().ok_or("substitute")?,
            );
        }
        bytes = text.into_bytes();
    }
    let own: &[&str] = if case["lang"] == "ru" {
        &OWN_RU
    } else {
        &OWN_EN
    };
    let source = String::from_utf8_lossy(&bytes).into_owned();
    match case["format"].as_str() {
        Some("text") => {
            let body = build_text(&source, &case["text"], own)?;
            Ok(vec![(name.into(), single("text/plain", &body))])
        }
        Some("html") => {
            let body = build_html(&source, &case["html"], own)?;
            Ok(vec![(name.into(), single("text/html", &body))])
        }
        Some("eml") => {
            let (text, html) = eml_parts(&bytes);
            let (params, text) = text.ok_or("no text part")?;
            let text = build_text(&text, &case["text"], own)?;
            let html = match (&html, case.get("html")) {
                (Some(html), Some(spec)) => Some(build_html(html, spec, own)?),
                _ => None,
            };
            let mut letters = vec![(
                name.to_string(),
                rebuild_eml(&bytes, Some((&params, &text)), html.as_deref()),
            )];
            if let Some(html) = html {
                letters.push((
                    format!("{name}-html"),
                    rebuild_eml(&bytes, None, Some(&html)),
                ));
            }
            Ok(letters)
        }
        other => Err(format!("unknown format {other:?}")),
    }
}

/// What must be read, and what was: empty when they agree.
fn misreading(letter: &Letter) -> Vec<String> {
    let mut wrong = Vec::new();
    let moves: Vec<String> = letter
        .moves
        .iter()
        .map(|m| match (m.number, m.color) {
            (Some(n), Some(Color::White)) => format!("{n}. {}", m.text),
            (Some(n), Some(Color::Black)) => format!("{n}... {}", m.text),
            _ => m.text.to_string(),
        })
        .collect();
    if moves != ["2. Nf3"] {
        wrong.push(format!("moves {moves:?}"));
    }
    if letter.fraction.map(|f| f.to_string()).as_deref() != Some("7/4") {
        wrong.push(format!("fraction {:?}", letter.fraction));
    }
    let near = "2026-11-12".parse().unwrap();
    let dates = letter.dates.resolve(near);
    let expected = ["2026-11-07", "2026-11-07", "2026-11-12"].map(|d| d.parse().ok());
    if [dates.postmark, dates.received, dates.sent] != expected {
        wrong.push(format!("dates {dates:?}"));
    }
    if !letter.variants.is_empty() {
        wrong.push(format!("{} variants", letter.variants.len()));
    }
    if !letter.errors.is_empty() {
        let errors: Vec<String> = letter
            .errors
            .iter()
            .map(|e| e.explain(&shtempel::phrases::Phrases::builtin(shtempel::Lang::En)))
            .collect();
        wrong.push(format!("errors {errors:?}"));
    }
    if letter.previous_dates.is_some() || !letter.keywords.is_empty() || letter.game.is_some() {
        wrong.push("words read from the quote".into());
    }
    wrong
}

#[test]
fn every_reply_of_the_corpus_reads_its_own_move_and_nothing_of_the_quote() {
    let Some(root) = crate::support::shared_dir("corpus/replies") else {
        return;
    };
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("replies");
    fs::create_dir_all(&out).unwrap();
    let mut cases = 0;
    let mut failures = Vec::new();
    for set in ["set-a", "set-b"] {
        let dir = root.join(set);
        let list: Value =
            serde_json::from_str(&fs::read_to_string(dir.join("cases.json")).unwrap()).unwrap();
        for case in list["cases"].as_array().expect("cases") {
            cases += 1;
            let name = case["name"].as_str().unwrap_or("?");
            let letters = match letters_of(&dir, case) {
                Ok(letters) => letters,
                Err(why) => {
                    failures.push(format!("{set}/{name}: the case cannot be built: {why}"));
                    continue;
                }
            };
            let mut wrong = Vec::new();
            for (label, raw) in letters {
                fs::write(out.join(format!("{label}.eml")), &raw).unwrap();
                let mail = mime::parse(&raw, "clerk@example.org").expect("mail");
                fs::write(out.join(format!("{label}.txt")), &mail.text).unwrap();
                let read = letter::read(&mail.text);
                let misread = misreading(&read);
                if !misread.is_empty() {
                    wrong.push(format!("{label}: {}", misread.join("; ")));
                }
            }
            if !wrong.is_empty() {
                failures.push(format!("{set}/{name}: {}", wrong.join(" | ")));
            }
        }
    }
    assert_eq!(cases, 102, "the corpus has 102 cases");
    eprintln!(
        "{} of {cases} replies read right; letters in {}",
        cases - failures.len(),
        out.display()
    );
    assert!(
        failures.is_empty(),
        "{} of {cases} replies misread:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

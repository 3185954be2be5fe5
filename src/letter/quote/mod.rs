//! The player's own text: quoted lines, quoted previous messages and signatures
//! are cut before anything is read (contract.md 3), because quotes often hold
//! the partner's move and the clerk's own prefilled lines.
//!
//! Mail programs introduce a quote in four ways, each in many languages:
//! - an attribution line, `On … wrote:` / `… пишет:` / `Am … schrieb …:` /
//!   `2016/11/08 14:26、… のメッセージ:`, often wrapped over two or three lines
//!   (`… <` / `addr> написал:`), above `>` lines or above the bare message;
//! - a header block, `From:`/`От:`/`Von:`/`De :` … with `Sent:`/`Date:`/`To:`…
//!   (Outlook and most webmail, in the program's language), often under a line
//!   of underscores;
//! - a separator, `-----Original Message-----` / `-------- Oprindelig besked
//!   --------` / `---- On … wrote ----`, or `Begin forwarded message:`;
//! - `>` before every quoted line; under an attribution also `|`, or the
//!   quoted writer's initials (`КК>`, as The Bat! writes).
//!
//! A signature (`-- `) ends the own text too. An attribution over quoted lines
//! introduces a quote the writer answers below it (bottom posting): the quote
//! is skipped and the text under it read. Any other introduction ends the own
//! text.

use std::sync::LazyLock;

use regex::Regex;

use crate::printable::is_bidi_control;

/// "wrote" and its kin, in the languages of the reply corpora.
static WROTE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi)
        \b(?:wrote|writes|has\ written|schrieb|geschrieben|a\ écrit|écrit|escribió|escribio|
            ha\ escrito|scrisse|ha\ scritto|schreef|geschreven|skrev|skrevet|napisał|napisała|
            napisal|escreveu|kirjoitti|írta|yazdı|napsal|napísal|
            пишет|писал|писала|написал|написала|написав|написала)
        | \(а\)\s*:
        | 작성 | のメッセージ | 寫道 | 写道 | đã\ viết | كتب | כתב | כתבה | نوشت
        ",
    )
    .expect("wrote pattern")
});

/// An address, bare or in angle brackets.
static ADDRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"[^\s<>()"\[\]:]+@[^\s<>()"\[\]]+\.[A-Za-z]{2,}"#).expect("address pattern")
});

/// A line that begins with a date (`2013/7/20`, `2016. 11. 8.`, `02.04.2012`).
static DATE_FIRST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\s*(?:\d{4}\s*[./-]\s*\d{1,2}\s*[./-]\s*\d{1,2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})\b",
    )
    .expect("date pattern")
});

/// Labels of a quoted header block that name its sender.
const FROM_LABELS: &[&str] = &[
    "from",
    "от",
    "von",
    "de",
    "da",
    "van",
    "fra",
    "från",
    "od",
    "lähettäjä",
    "feladó",
    "kimden",
    "từ",
    "发件人",
    "寄件者",
    "差出人",
    "보낸 사람",
    // Outlook in right-to-left languages: Arabic, Hebrew, Persian.
    "من",
    "מאת",
    "از",
];

/// The block's other labels.
const OTHER_LABELS: &[&str] = &[
    "sent",
    "date",
    "to",
    "subject",
    "cc",
    "reply-to",
    "отправлено",
    "дата",
    "кому",
    "тема",
    "копия",
    "gesendet",
    "an",
    "betreff",
    "datum",
    "envoyé",
    "envoyé le",
    "à",
    "objet",
    "enviado",
    "enviada",
    "para",
    "asunto",
    "fecha",
    "inviato",
    "a",
    "oggetto",
    "data",
    "risposta",
    "verzonden",
    "aan",
    "onderwerp",
    "sendt",
    "til",
    "emne",
    "dato",
    "skickat",
    "till",
    "ämne",
    "wysłano",
    "do",
    "temat",
    "assunto",
    "lähetetty",
    "vastaanottaja",
    "aihe",
    "küldve",
    "címzett",
    "tárgy",
    "gönderildi",
    "kime",
    "konu",
    "gửi",
    "đến",
    "chủ đề",
    "发送时间",
    "收件人",
    "主题",
    "送信日時",
    "宛先",
    "件名",
    "받는 사람",
    "제목",
    "تم الإرسال",
    "أرسلت",
    "التاريخ",
    "إلى",
    "الموضوع",
    "نسخة",
    "נשלח",
    "תאריך",
    "אל",
    "נושא",
    "עותק",
    "ارسال شده",
    "فرستاده شده",
    "تاریخ",
    "به",
    "موضوع",
    "رونوشت",
];

/// Any label of a header block; the group `from` holds a sender's label.
static LABEL: LazyLock<Regex> = LazyLock::new(|| {
    let alternatives = |labels: &[&str]| {
        labels
            .iter()
            .map(|label| regex::escape(label))
            .collect::<Vec<_>>()
            .join("|")
    };
    Regex::new(&format!(
        r"(?i)^\s*\*?(?:(?P<from>{})|{})\*?\s*[:：]",
        alternatives(FROM_LABELS),
        alternatives(OTHER_LABELS)
    ))
    .expect("label pattern")
});

/// `-----Original Message-----`, `-------- Oprindelig besked --------`,
/// `---- On … wrote ----`, and the forwarding lines without dashes.
static SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?xi)^\s*(?:
            [-–—=*_]{2,}\s*[^-–—=*_\s].*?[-–—=*_]{2,}
          | (?:begin\ forwarded\ message|forwarded\ message|начало\ пересылаемого\ сообщения|
               пересылаемое\ сообщение|пересланное\ сообщение)\s*:?
        )\s*$",
    )
    .expect("separator pattern")
});

/// A separator with a header block's first label glued to it on one line
/// (`-------- Ursprüngliche Nachricht --------Von: …`): the label is in
/// `rest`.
static GLUED_SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*[-–—=*_]{2,}\s*[^-–—=*_\s][^-–—=*_]*?[-–—=*_]{2,}\s*(?P<rest>[^-–—=*_\s].*)$")
        .expect("glued separator pattern")
});

/// `line` without its bidirectional controls.
fn without_bidi(line: &str) -> std::borrow::Cow<'_, str> {
    match line.contains(is_bidi_control) {
        false => std::borrow::Cow::Borrowed(line),
        true => std::borrow::Cow::Owned(line.chars().filter(|&c| !is_bidi_control(c)).collect()),
    }
}

/// What a line is to the cutter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Label {
    From,
    Other,
}

fn label(line: &str) -> Option<Label> {
    if !line.contains([':', '：']) {
        return None;
    }
    let caps = LABEL.captures(line)?;
    Some(if caps.name("from").is_some() {
        Label::From
    } else {
        Label::Other
    })
}

/// The lines of `body` the writer wrote himself, each with its 1-based line
/// number in the body (so that a reply can point at it). `own_form` says
/// whether a line holds what a letter states (a move, a fraction, dates): such
/// a line is never taken for the start of a wrapped attribution.
pub fn own_lines<'a>(body: &'a str, own_form: &dyn Fn(&str) -> bool) -> Vec<(usize, &'a str)> {
    let written: Vec<&str> = body
        .lines()
        .map(|line| line.trim_end_matches('\r'))
        .collect();
    // Matched without bidirectional controls; the lines given back are as
    // written.
    let clean: Vec<std::borrow::Cow<'_, str>> =
        written.iter().map(|line| without_bidi(line)).collect();
    let lines: Vec<&str> = clean.iter().map(|line| line.as_ref()).collect();
    let mut own = Vec::new();
    let mut index = 0;
    // Within a quote introduced by an attribution, `|` and initials mark
    // quoted lines too.
    let mut in_quote = false;
    while index < lines.len() {
        let line = lines[index];
        let trimmed = line.trim();
        // GroupWise's `>>> Name <address> date >>>` over the bare quote.
        if is_groupwise_header(trimmed) {
            break;
        }
        if trimmed.starts_with('>') || (in_quote && marked_quote(trimmed)) {
            index += 1;
            continue;
        }
        if !trimmed.is_empty() {
            in_quote = false;
        }
        if line == "-- " || trimmed == "--" {
            break;
        }
        if is_rule(trimmed) || is_separator(trimmed) || html_separator(trimmed) {
            own.extend(marked_answers(&written, index));
            break;
        }
        if header_block(&lines, index) {
            // Headers over `>` lines (Emacs's citation): a quote the
            // writer answers below it, as under an attribution.
            let end = header_end(&lines, index);
            let below = next_lines(&lines, end.saturating_sub(1), 1).next();
            if end > index && below.is_some_and(|next| next.trim_start().starts_with('>')) {
                in_quote = true;
                index = end;
                while lines.get(index).is_some_and(|line| line.trim().is_empty()) {
                    index += 1;
                }
                continue;
            }
            // Outlook's inline answer: the writer's lines under the quote,
            // each marked with his name in brackets.
            own.extend(marked_answers(&written, index));
            break;
        }
        if let Some((at, span)) = glued_attribution(&lines, index, own_form)
            && written[index].len() == line.len()
        {
            // An attribution glued to the writer's last line: his part of
            // the line is his, the rest introduces the quote.
            own.push((index + 1, written[index][..at].trim_end()));
            let below = next_lines(&lines, index + span - 1, 1).next();
            if below.is_some_and(|next| next.trim_start().starts_with('>')) {
                in_quote = true;
                index += span;
                continue;
            }
            break;
        }
        if let Some(span) = attribution(&lines, index, own_form) {
            // Over quoted lines, the writer may answer below the quote.
            let below = next_lines(&lines, index + span - 1, 1).next();
            let quoted_below = below.is_some_and(|next| {
                let next = next.trim_start();
                next.starts_with('>') || marked_quote(next)
            });
            if quoted_below {
                in_quote = true;
                index += span;
                continue;
            }
            break;
        }
        // Outlook's own text marked with the writer's name (`[Petrov P.]
        // 1... e5`) where no quote is above it: the line without the mark.
        own.push((index + 1, without_answer_mark(written[index], own_form)));
        index += 1;
    }
    own
}

/// GroupWise's quote header: `>>> Name <address> 10/22/15 21:02 >>>`,
/// `>>> Greg KH <greg@kroah.com> 09.11.05 17:45:44 >>>` (the quote below
/// it is bare, or `>` lines).
fn is_groupwise_header(trimmed: &str) -> bool {
    trimmed.len() > 8
        && trimmed.starts_with(">>>")
        && trimmed.ends_with(">>>")
        && trimmed.bytes().any(|b| b.is_ascii_digit())
}

/// A line of the program's HTML in a plain part (`<div>-------- Original
/// message --------</div><div>From: …`, as Samsung's mail app sends it)
/// with a separator between its tags.
fn html_separator(trimmed: &str) -> bool {
    trimmed.starts_with('<')
        && trimmed.contains("</")
        && trimmed
            .split(['<', '>'])
            .step_by(2)
            .map(str::trim)
            .any(|text| !text.is_empty() && is_separator(text))
}

/// `line` without a bracketed name before what a letter states
/// (`[Petrov P.] 1... e5`: `1... e5`); any other line as written.
fn without_answer_mark<'a>(line: &'a str, own_form: &dyn Fn(&str) -> bool) -> &'a str {
    match ANSWER_MARK
        .captures(line)
        .and_then(|caps| caps.name("text"))
    {
        Some(text) if own_form(text.as_str()) => &line[text.start()..],
        _ => line,
    }
}

/// A line quoted with `|` or with the quoted writer's initials (`КК> `).
fn marked_quote(trimmed: &str) -> bool {
    if trimmed.starts_with('|') {
        return true;
    }
    let initials = trimmed.chars().take_while(|c| c.is_alphabetic()).count();
    (1..=4).contains(&initials) && trimmed.chars().nth(initials) == Some('>')
}

/// Up to `count` non-blank lines after `index`.
fn next_lines<'a>(
    lines: &'a [&'a str],
    index: usize,
    count: usize,
) -> impl Iterator<Item = &'a str> + 'a {
    lines[(index + 1).min(lines.len())..]
        .iter()
        .copied()
        .filter(|line| !line.trim().is_empty())
        .take(count)
}

/// A line of underscores, which Outlook puts before a quoted header block.
fn is_rule(trimmed: &str) -> bool {
    trimmed.len() >= 5 && trimmed.chars().all(|c| c == '_')
}

/// Words of the heading the clerk's own messages put over the lines of
/// the next letter, as the built-in templates write it. Until 2026-12-06 it
/// was dashed (`---- Lines for your next letter in game 1 (copy, fill in
/// and send) ----`), the form of a separator; a player who copies the
/// block from such a message copies it too, and it is his letter's, not a
/// quote's.
pub(crate) const CLERKS_LINES_HEADING: [&str; 2] = [
    "Lines for your next letter",
    "Строки для вашего следующего письма",
];

fn is_separator(trimmed: &str) -> bool {
    // Every separator begins with a dash or names a forwarded message: the
    // pattern runs only on such lines.
    let dashed = trimmed.starts_with(['-', '–', '—', '=', '*', '_']);
    if dashed
        && CLERKS_LINES_HEADING
            .iter()
            .any(|words| trimmed.contains(words))
    {
        return false;
    }
    let forwarded = trimmed.len() < 60
        && ["orward", "ORWARD", "ересыл", "ЕРЕСЫЛ", "ересла", "ЕРЕСЛА"]
            .iter()
            .any(|word| trimmed.contains(word));
    let glued = || {
        GLUED_SEPARATOR
            .captures(trimmed)
            .and_then(|caps| caps.name("rest"))
            .is_some_and(|rest| label(rest.as_str()).is_some())
    };
    (dashed || forwarded)
        && trimmed.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && (SEPARATOR.is_match(trimmed) || (dashed && glued()))
}

/// A quoted header block starts at `index`: a sender's label with another
/// label within the next lines (a wrapped `From:` may take a line between),
/// or another label with the sender's right under it.
fn header_block(lines: &[&str], index: usize) -> bool {
    let Some(first) = label(lines[index]) else {
        return false;
    };
    let mut following = next_lines(lines, index, 3).map(label);
    match first {
        Label::From => following.take(2).any(|next| next.is_some()),
        Label::Other => following.next() == Some(Some(Label::From)),
    }
}

/// The line after a header block that starts at `index`: its labels and
/// their wrapped lines, up to the first blank or other line.
fn header_end(lines: &[&str], index: usize) -> usize {
    let mut end = index;
    while end < lines.len() {
        let line = lines[end];
        let wrapped = end > index && line.starts_with([' ', '\t']) && !line.trim().is_empty();
        if label(line).is_none() && !wrapped {
            break;
        }
        end += 1;
    }
    end
}

/// A writer's name in brackets before his line (`[Petrov P.] 1... e5`), as
/// Outlook marks an answer written inside the quote; a subject's tag
/// (`[T #1]`) is not one.
static ANSWER_MARK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*\[(?P<name>[^\]\[#>]{1,40})\]\s*(?P<text>\S.*)$").expect("answer mark pattern")
});

/// The lines after `index` (a quote's start) that one bracketed name marks
/// as the writer's, each without its mark, with its 1-based line number.
fn marked_answers<'a>(written: &[&'a str], index: usize) -> Vec<(usize, &'a str)> {
    let mut name: Option<&str> = None;
    let mut answers = Vec::new();
    for (at, line) in written.iter().enumerate().skip(index) {
        let Some(caps) = ANSWER_MARK.captures(line) else {
            continue;
        };
        let (mark, text) = (
            caps.name("name").map_or("", |m| m.as_str()),
            caps.name("text"),
        );
        if name.is_some_and(|name| name != mark) {
            continue;
        }
        name = Some(mark);
        if let Some(text) = text {
            answers.push((at + 1, &line[text.start()..]));
        }
    }
    answers
}

/// An attribution glued to the end of a line that states what a letter
/// states (`Dates: …, 2026-11-07On Mar 9, 2018 6:35 PM, Clerk <c@x>
/// wrote:`, as some mail programs join them): where in the line it begins,
/// and how many lines it takes.
fn glued_attribution(
    lines: &[&str],
    index: usize,
    own_form: &dyn Fn(&str) -> bool,
) -> Option<(usize, usize)> {
    let line = lines[index];
    // An attribution ends with a colon within three lines.
    let ends = lines[index..(index + 3).min(lines.len())]
        .iter()
        .any(|line| line.trim_end().ends_with([':', '：', '<']));
    if !ends {
        return None;
    }
    let starts = line
        .char_indices()
        .zip(line.chars().skip(1))
        .filter_map(|((at, before), c)| {
            // Where a word begins inside another: a letter after a digit
            // (`2026-11-07On`, `07.11.2026вт`), a capital after a small letter.
            let glued = (before.is_ascii_digit() && c.is_alphabetic())
                || (before.is_lowercase() && c.is_uppercase());
            glued.then(|| at + before.len_utf8())
        });
    for at in starts {
        let mut tail: Vec<&str> = vec![&line[at..]];
        tail.extend(lines.iter().skip(index + 1).take(2));
        if let Some(span) = attribution(&tail, 0, own_form)
            && own_form(line[..at].trim())
        {
            return Some((at, span));
        }
    }
    None
}

/// How many lines (one to three) the attribution starting at `index` takes.
fn attribution(lines: &[&str], index: usize, own_form: &dyn Fn(&str) -> bool) -> Option<usize> {
    for span in 1..=3 {
        let line = lines.get(index + span - 1)?.trim();
        if line.is_empty() {
            return None;
        }
        // An attribution ends with a colon (or, Gmail's old one, a `>`).
        if !line.ends_with([':', '：', '>']) {
            continue;
        }
        let joined = lines[index..index + span]
            .iter()
            .map(|line| line.trim())
            .collect::<Vec<_>>()
            .join(" ");
        if joined.len() > 400 {
            return None;
        }
        if is_attribution(&joined) {
            // A wrapped attribution begins with a date, a time or an address,
            // and never with a line of the letter.
            let wrapped = &lines[index..index + span - 1];
            let starts = wrapped.first().is_none_or(|first| {
                first.contains(['@', '<']) || first.bytes().any(|b| b.is_ascii_digit())
            });
            if !starts || wrapped.iter().any(|line| own_form(line)) {
                return None;
            }
            return Some(span);
        }
        if line.ends_with([':', '：']) {
            return None;
        }
    }
    None
}

/// Whether a (joined) line introduces a quote: it ends with a colon and says
/// "wrote" or names an address; or it begins with a date and names an address
/// in angle brackets (Gmail's old `2013/7/20 Name <addr>`).
fn is_attribution(text: &str) -> bool {
    let text = text.trim_end();
    if text.ends_with([':', '：']) {
        return WROTE.is_match(text) || ADDRESS.is_match(text);
    }
    text.ends_with('>') && DATE_FIRST.is_match(text) && ADDRESS.is_match(text)
}

#[cfg(test)]
mod tests;

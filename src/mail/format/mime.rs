//! The MIME front end: from a raw message to what the clerk needs of it: sender,
//! recipients, threading, the plain text (HTML-only letters converted, quoted
//! blocks dropped) and whether it is automatic mail that must not be answered.

use mail_parser::{Address, HeaderValue, MessageParser, MimeHeaders, PartType};

/// The parts of a message the clerk uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mail {
    pub message_id: Option<String>,
    /// The sender's address, lower case.
    pub from: Option<String>,
    pub from_name: Option<String>,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub subject: String,
    pub in_reply_to: Vec<String>,
    pub references: Vec<String>,
    /// The text to read: the plain part, or the HTML part turned into text.
    pub text: String,
    /// Why the message must not be answered (auto-reply, bounce, list, loop).
    pub automatic: Option<String>,
    /// The `Authentication-Results` and `DKIM-Signature` fields, top
    /// first, as written: the sender check reads them (mail/format/auth.rs).
    pub trace: Vec<Trace>,
}

/// A field of the header the sender check reads, its value as written
/// (folding kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trace {
    AuthenticationResults(String),
    DkimSignature(String),
}

impl Mail {
    /// Every address the message went to directly.
    pub fn recipients(&self) -> impl Iterator<Item = &String> {
        self.to.iter().chain(&self.cc)
    }
}

fn addresses(address: Option<&Address<'_>>) -> Vec<String> {
    address
        .map(|list| {
            list.iter()
                .filter_map(|addr| addr.address())
                .map(|a| a.trim().to_ascii_lowercase())
                .collect()
        })
        .unwrap_or_default()
}

fn id_list(value: &HeaderValue<'_>) -> Vec<String> {
    value
        .as_text_list()
        .map(|ids| ids.iter().map(|id| id.trim().to_string()).collect())
        .unwrap_or_default()
}

/// Reads a raw message. `None` when nothing of it can be read as mail.
pub fn parse(raw: &[u8], our_address: &str) -> Option<Mail> {
    let message = MessageParser::default().parse(raw)?;
    let from_addr = message.from().and_then(|list| list.first());
    let from = from_addr
        .and_then(|addr| addr.address())
        .map(|a| a.trim().to_ascii_lowercase());
    let from_name = from_addr
        .and_then(|addr| addr.name())
        .map(|name| name.replace(['\r', '\n'], " "));
    let mut mail = Mail {
        message_id: message
            .message_id()
            .map(|id| id.trim().to_string())
            .filter(|id| !id.is_empty()),
        from,
        from_name,
        to: addresses(message.to()),
        cc: addresses(message.cc()),
        subject: message.subject().unwrap_or("").replace(['\r', '\n'], " "),
        in_reply_to: id_list(message.in_reply_to()),
        references: id_list(message.references()),
        text: String::new(),
        automatic: None,
        trace: message
            .headers_raw()
            .filter_map(|(name, value)| {
                if name.eq_ignore_ascii_case("Authentication-Results") {
                    Some(Trace::AuthenticationResults(value.to_string()))
                } else if name.eq_ignore_ascii_case("DKIM-Signature") {
                    Some(Trace::DkimSignature(value.to_string()))
                } else {
                    None
                }
            })
            .collect(),
    };
    mail.automatic = automatic(&message, &mail, our_address);
    mail.text = body_text(&message);
    Some(mail)
}

/// RFC 3834 and the usual signs of mail no one should answer.
fn automatic(message: &mail_parser::Message<'_>, mail: &Mail, our_address: &str) -> Option<String> {
    let header = |name: &str| {
        message
            .header_raw(name)
            .map(|value| value.trim().to_ascii_lowercase())
    };
    if let Some(value) = header("Auto-Submitted")
        && value.split(';').next().unwrap_or("").trim() != "no"
    {
        return Some(format!("Auto-Submitted: {value}"));
    }
    // Precedence, and cPanel's X-Precedence beside it.
    for name in ["Precedence", "X-Precedence"] {
        if let Some(value) = header(name)
            && ["bulk", "junk", "list", "auto_reply"].contains(&value.as_str())
        {
            return Some(format!("{name}: {value}"));
        }
    }
    // The responders that write no RFC 3834 field: cPanel/Exim's
    // autoresponder (X-Autorespond), the old vacation programs and
    // webmails (X-Autoreply, X-Mailer: vacation), iCloud's vacation
    // (X-Apple-Action: VACATION), and Exchange's "suppress every automatic
    // answer to this" (All, or the kinds naming an answer: OOF,
    // AutoReply), which its out-of-office replies carry. DR, RN and NRN
    // alone (receipts) are set on a person's letters too, and say nothing.
    if let Some(value) = header("X-Autorespond") {
        return Some(format!("X-Autorespond: {value}"));
    }
    if let Some(value) = header("X-Autoreply")
        && value != "no"
    {
        return Some(format!("X-Autoreply: {value}"));
    }
    if header("X-Mailer").is_some_and(|mailer| mailer == "vacation") {
        return Some("X-Mailer: vacation".into());
    }
    if header("X-Apple-Action").is_some_and(|action| action == "vacation") {
        return Some("X-Apple-Action: VACATION (iCloud's vacation reply)".into());
    }
    if let Some(value) = header("X-Auto-Response-Suppress")
        && value
            .split(',')
            .map(str::trim)
            .any(|kind| ["all", "oof", "autoreply"].contains(&kind))
    {
        return Some(format!("X-Auto-Response-Suppress: {value}"));
    }
    for list in ["List-Id", "List-Unsubscribe", "List-Post"] {
        if message.header_raw(list).is_some() {
            return Some(format!("{list} header (mailing list)"));
        }
    }
    if let Some(value) = header("Return-Path")
        && value
            .trim_matches(|c| c == '<' || c == '>' || c == ' ')
            .is_empty()
    {
        return Some("Return-Path: <> (bounce)".into());
    }
    if let Some(value) = header("X-Loop")
        && value.contains(our_address)
    {
        return Some("X-Loop: our own message".into());
    }
    if header("X-Shtempel-Kind").is_some() {
        return Some("one of our own messages came back".into());
    }
    if let Some(from) = &mail.from {
        let local = from.split('@').next().unwrap_or("");
        if from == our_address {
            return Some("sent from our own address".into());
        }
        if [
            "mailer-daemon",
            "postmaster",
            "noreply",
            "no-reply",
            "donotreply",
        ]
        .contains(&local)
            || local.starts_with("owner-")
            || local.ends_with("-request")
            || local.ends_with("-bounces")
        {
            return Some(format!("sender {from} is a robot"));
        }
    } else {
        return Some("no sender".into());
    }
    if message.content_type().is_some_and(|ct| {
        ct.ctype().eq_ignore_ascii_case("multipart")
            && ct
                .subtype()
                .is_some_and(|s| s.eq_ignore_ascii_case("report"))
    }) {
        return Some("multipart/report (delivery or read report)".into());
    }
    None
}

/// The letter's own text: the first plain part; else the first HTML part with
/// its quoted blocks dropped and the markup turned into lines. A byte-order
/// mark before it (Outlook for Mac writes one) is no part of its first line.
fn body_text(message: &mail_parser::Message<'_>) -> String {
    let text = part_text(message);
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

fn part_text(message: &mail_parser::Message<'_>) -> String {
    for part in message.text_bodies() {
        if let PartType::Text(text) = &part.body {
            let param = |name: &str| {
                part.content_type()
                    .and_then(|ct| ct.attributes())
                    .and_then(|attributes| {
                        attributes
                            .iter()
                            .find(|a| a.name.eq_ignore_ascii_case(name))
                            .map(|a| a.value.to_ascii_lowercase())
                    })
            };
            if param("format").as_deref() == Some("flowed") {
                return unflow(text, param("delsp").as_deref() == Some("yes"));
            }
            return text.to_string();
        }
    }
    for part in message.html_bodies() {
        if let PartType::Html(html) = &part.body {
            return html_to_lines(html);
        }
    }
    String::new()
}

/// A `format=flowed` text (RFC 3676) as the writer's program shows it: a line
/// that ends in a space goes on in the next line of the same quote depth
/// (without that space where `delsp` is set), the space a program stuffed
/// before a line is taken away, and quoted lines keep their `>` marks. The
/// signature line `-- ` is never joined.
pub fn unflow(text: &str, delsp: bool) -> String {
    let mut out = String::with_capacity(text.len());
    // The paragraph being joined and its quote depth.
    let mut open: Option<usize> = None;
    for line in text.lines() {
        let depth = line.len() - line.trim_start_matches('>').len();
        let content = &line[depth..];
        let content = content.strip_prefix(' ').unwrap_or(content);
        let flowed = content.ends_with(' ') && content != "-- ";
        match open {
            Some(open_depth) if open_depth == depth => {}
            Some(_) => {
                // A flowed line without its continuation ends its paragraph.
                out.push('\n');
                start_line(&mut out, depth);
            }
            None => start_line(&mut out, depth),
        }
        if flowed {
            out.push_str(if delsp {
                &content[..content.len() - 1]
            } else {
                content
            });
            open = Some(depth);
        } else {
            out.push_str(content);
            out.push('\n');
            open = None;
        }
    }
    if out.ends_with('\n') && !text.ends_with('\n') {
        out.pop();
    }
    out
}

fn start_line(out: &mut String, depth: usize) {
    if depth > 0 {
        out.push_str(&">".repeat(depth));
        out.push(' ');
    }
}

/// HTML to plain lines. Quoted blocks (`<blockquote>`, Gmail's and Yandex's
/// quote containers) are cut: in an HTML reply they hold the previous message.
pub fn html_to_lines(html: &str) -> String {
    let lower = html.to_ascii_lowercase();
    let cut = [
        "<blockquote",
        "class=\"gmail_quote",
        "class=\"yandex_quote",
        "id=\"appendonsend",
        "id=\"divrplyfwdmsg",
    ]
    .iter()
    .filter_map(|marker| lower.find(marker))
    .min()
    .map(|at| lower[..at].rfind('<').unwrap_or(at));
    let own = &html[..cut.unwrap_or(html.len())];
    // Block ends become line ends before the markup is stripped.
    let mut marked = String::with_capacity(own.len());
    let own_lower = own.to_ascii_lowercase();
    let mut index = 0;
    while index < own.len() {
        let rest = &own_lower[index..];
        let breaks = [
            "<br", "</p", "</div", "<p>", "<p ", "<div", "</li", "</tr", "</h", "<hr",
        ];
        if rest.starts_with('<') && breaks.iter().any(|b| rest.starts_with(b)) {
            marked.push('\u{1}');
        }
        let ch = own[index..].chars().next().unwrap_or(' ');
        marked.push(ch);
        index += ch.len_utf8();
    }
    let text = mail_parser::decoders::html::html_to_text(&marked);
    // Nested blocks leave runs of empty lines: one stands for them all, so
    // that the lines are numbered as the writer sees his paragraphs.
    let mut lines: Vec<&str> = Vec::new();
    for line in text.split('\u{1}').flat_map(str::lines) {
        let line = line.trim_matches([' ', '\u{a0}']);
        if line.is_empty() && lines.last().is_none_or(|last| last.is_empty()) {
            continue;
        }
        lines.push(line);
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flowed_text_is_joined_as_its_program_shows_it() {
        let table = [
            // Soft breaks join; a hard break ends the paragraph.
            (
                "Partiya 1, my move is \r\n2. Nf3\r\nTime: 7/4\r\n",
                false,
                "Partiya 1, my move is 2. Nf3\nTime: 7/4\n",
            ),
            // DelSp: the space before the soft break was added by the program.
            (
                "04.11.2026 10:12, \"Clerk\" \r\n<clerk@example.org> wrote:\r\n",
                true,
                "04.11.2026 10:12, \"Clerk\"<clerk@example.org> wrote:\n",
            ),
            (
                "04.11.2026 10:12, \"Clerk\" \r\n<clerk@example.org> wrote:\r\n",
                false,
                "04.11.2026 10:12, \"Clerk\" <clerk@example.org> wrote:\n",
            ),
            // Quoted lines join within their depth and keep their marks.
            (
                "> 1... e5 \r\n> Time: 2/4\r\n>> old\r\n",
                false,
                "> 1... e5 Time: 2/4\n>> old\n",
            ),
            // A flowed line before a deeper quote ends there.
            ("> one \r\n>> two\r\n", false, "> one \n>> two\n"),
            // Space-stuffing is undone; the signature line stays whole.
            (
                "  2. Nf3\r\n From here\r\n-- \r\nIvanov\r\n",
                false,
                " 2. Nf3\nFrom here\n-- \nIvanov\n",
            ),
            ("no line end", false, "no line end"),
        ];
        for (flowed, delsp, shown) in table {
            assert_eq!(unflow(flowed, delsp), shown, "{flowed:?}");
        }
    }

    #[test]
    fn a_flowed_thunderbird_reply_is_read_unwrapped() {
        let raw = "From: Ivanov <ivanov@example.org>\r\nSubject: Re: [CC-2026 #1]\r\nContent-Type: text/plain; charset=UTF-8; format=flowed; delsp=yes\r\n\r\n2. Nf3\r\n\r\n04.11.2026 10:12, \"Cup (clerk)\" \r\n<clerk@example.org> wrote:\r\n> 1... e5\r\n";
        let mail = parse(raw.as_bytes(), "clerk@example.org").unwrap();
        assert_eq!(
            mail.text,
            "2. Nf3\n\n04.11.2026 10:12, \"Cup (clerk)\"<clerk@example.org> wrote:\n> 1... e5\n"
        );
    }

    #[test]
    fn html_paragraphs_become_lines_and_quotes_go() {
        let html = "<html><body><div>Game 1</div><div>2. Nf3<br>Time: 7/4</div><p>Dates: 07.11.2026, 07.11.2026, 12.11.2026</p>\
                    <blockquote>1... e5<br>Time: 2/4</blockquote></body></html>";
        let text = html_to_lines(html);
        let lines: Vec<&str> = text.lines().filter(|l| !l.is_empty()).collect();
        assert_eq!(
            lines,
            [
                "Game 1",
                "2. Nf3",
                "Time: 7/4",
                "Dates: 07.11.2026, 07.11.2026, 12.11.2026"
            ]
        );
    }

    #[test]
    fn an_outlook_header_with_bold_labels_ends_the_own_text() {
        for (labels, own) in [
            (["From:", "Sent:", "To:", "Subject:"], "2... Nc6"),
            (["От:", "Отправлено:", "Кому:", "Тема:"], "2... Кc6"),
        ] {
            let [from, sent, to, subject] = labels;
            let html = format!(
                "<div><p>{own}<br>Time: 7/6</p></div><div style=\"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0cm 0cm 0cm\"><p class=\"MsoNormal\"><b>{from}</b> Clerk &lt;clerk@example.org&gt;<br><b>{sent}</b> 12 Nov 2026<br><b>{to}</b> Petrov<br><b>{subject}</b> [CC-2026 #1]</p></div><p>if 3... a6 4. Ba4</p>"
            );
            let text = html_to_lines(&html);
            let read = crate::letter::read(&text);
            assert_eq!(read.moves.len(), 1, "{text}");
            assert!(read.variants.is_empty(), "the quoted variant: {text}");
        }
    }

    #[test]
    fn automatic_mail_is_recognised() {
        let base = "From: Ivanov <ivanov@example.org>\r\nTo: clerk@example.org\r\nSubject: x\r\n";
        let table = [
            ("Auto-Submitted: auto-replied\r\n", true),
            ("Auto-Submitted: no\r\n", false),
            ("Precedence: bulk\r\n", true),
            ("List-Id: <chess.example.org>\r\n", true),
            ("Return-Path: <>\r\n", true),
            ("X-Loop: clerk@example.org\r\n", true),
            ("", false),
        ];
        for (extra, auto) in table {
            let raw = format!("{base}{extra}\r\nbody\r\n");
            let mail = parse(raw.as_bytes(), "clerk@example.org").unwrap();
            assert_eq!(
                mail.automatic.is_some(),
                auto,
                "{extra:?}: {:?}",
                mail.automatic
            );
        }
        let daemon = "From: MAILER-DAEMON@example.org\r\nSubject: Undelivered\r\n\r\nx";
        assert!(
            parse(daemon.as_bytes(), "clerk@example.org")
                .unwrap()
                .automatic
                .is_some()
        );
        let report = "From: a@example.org\r\nContent-Type: multipart/report; report-type=delivery-status; boundary=b\r\n\r\n--b\r\n\r\nx\r\n--b--\r\n";
        assert!(
            parse(report.as_bytes(), "clerk@example.org")
                .unwrap()
                .automatic
                .is_some()
        );
    }
}

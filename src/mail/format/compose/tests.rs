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
        in_reply_to: Some("<a@b>".into()),
        registered: true,
        generated: false,
        attachments: vec![],
        delivers: Some(2),
        send_on: None,
        digest_for: None,
        model: crate::render::Model::from(()),
        message_id: None,
        of_event: true,
        event: None,
        words: Words {
            subject: "2. Кf3".into(),
            body: "Ход партнёра: 2. Кf3\n".into(),
            pictures: Vec::new(),
        },
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
    let mail = crate::mail::format::mime::parse(&raw, "nobody@example.org").unwrap();
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
        crate::mail::format::mime::parse(&raw, "clerk@example.org")
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
        out.words.subject = text(case % 23);
        out.words.body = text(case % 31) + "\n";
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
            clean(&format!("[CC #1] {}", out.words.subject)),
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
        let sent = out.words.body.replace("\r\n", "\n").replace('\r', "\n");
        assert_eq!(body.trim_end(), sent.trim_end(), "case {case}");
    }
}

/// A long name's encoded words break at its spaces
/// (lettre broke `Петровский` as `П|етровский`, shown `П етровский` by
/// Python's reader); a name without one breaks at a character's edge.
#[test]
fn names_in_headers_are_encoded_in_words_broken_at_spaces() {
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
    let koi8 =
        b"From: ivanov@example.org\nSubject: x\n\n\xf0\xc1\xd2\xd4\xc9\xd1 1\n2. Nf3\n".to_vec();
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

/// A long Russian subject's encoded words break at its spaces, never
/// inside a word; the tag before it stays plain; read back whole.
#[test]
fn a_subject_is_encoded_in_words_broken_at_spaces() {
    use base64::Engine as _;
    let sender = Sender {
        name: "Clerk".into(),
        email: "clerk@example.org".into(),
        tournament: "CC".into(),
    };
    let mut out = outgoing();
    out.words.subject = "повтор хода (заказное): 12. Кf3 Кc6 13. Сb5, осталось десять дней".into();
    let raw = build(&out, &sender, "<m@example.org>", DateTime::UNIX_EPOCH).unwrap();
    let text = String::from_utf8(raw.clone()).unwrap();
    let at = text.find("\r\nSubject: ").unwrap() + 11;
    let mut value = String::new();
    for (index, line) in text[at..].split("\r\n").enumerate() {
        match index {
            0 => value.push_str(line),
            _ if line.starts_with(' ') => value.push_str(line),
            _ => break,
        }
    }
    assert!(value.starts_with("[CC #1] =?utf-8?b?"), "{value}");
    let words: Vec<String> = value
        .split("=?utf-8?b?")
        .skip(1)
        .map(|word| {
            let b64 = word.split("?=").next().unwrap();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64)
                .unwrap();
            String::from_utf8(bytes).unwrap()
        })
        .collect();
    assert!(words.len() > 1, "{words:?}");
    for word in &words[..words.len() - 1] {
        assert!(word.ends_with(' '), "a word split: {words:?}");
    }
    let parsed = mail_parser::MessageParser::default().parse(&raw).unwrap();
    assert_eq!(
        parsed.subject(),
        Some(format!("[CC #1] {}", out.words.subject).as_str())
    );
}

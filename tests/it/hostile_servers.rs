//! Mail servers that attack the clerk: one endless line, endless short
//! lines, a literal of any size announced, before the greeting or in a
//! reply. Each is an error naming the server, the run exits 1, the clerk
//! stops reading at its bound (the fake server counts what it could send
//! before the clerk hung up, a byte count, not a time), and nothing is lost.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::support::*;

/// The most a fake server sends before it gives up: past any bound the
/// clerk keeps (1 MB letters), and under what would exhaust a test machine.
const FLOOD: usize = 96 * 1024 * 1024;
/// What the clerk may have read (and the kernel buffered) before it hung
/// up: its bound, a margin and the sockets' buffers.
const READ_AT_MOST: usize = 24 * 1024 * 1024;

/// A server on loopback that runs `script` on its first connection; how
/// many bytes it wrote is counted.
struct Fake {
    port: u16,
    sent: Arc<AtomicUsize>,
}

impl Fake {
    fn start(script: impl FnOnce(&mut Talk) + Send + 'static) -> Fake {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let sent = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&sent);
        std::thread::spawn(move || {
            if let Ok((stream, _)) = listener.accept() {
                let reader = BufReader::new(stream.try_clone().unwrap());
                let mut talk = Talk {
                    stream,
                    reader,
                    sent: counted,
                };
                script(&mut talk);
            }
        });
        Fake { port, sent }
    }

    fn sent(&self) -> usize {
        self.sent.load(Ordering::SeqCst)
    }
}

/// One connection of a fake server.
struct Talk {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
    sent: Arc<AtomicUsize>,
}

impl Talk {
    fn say(&mut self, text: &str) -> bool {
        let ok = self.stream.write_all(text.as_bytes()).is_ok();
        if ok {
            self.sent.fetch_add(text.len(), Ordering::SeqCst);
        }
        ok
    }

    /// Writes `chunk` again and again until `FLOOD` bytes or the client
    /// hangs up.
    fn flood(&mut self, chunk: &[u8]) {
        while self.sent.load(Ordering::SeqCst) < FLOOD {
            if self.stream.write_all(chunk).is_err() {
                return;
            }
            self.sent.fetch_add(chunk.len(), Ordering::SeqCst);
        }
    }

    fn heard(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line),
        }
    }
}

/// What an IMAP server attacks with.
#[derive(Clone, Copy, Debug)]
enum ImapAttack {
    /// One endless line where the greeting belongs.
    GreetingLine,
    /// One endless line as the answer to LOGIN.
    LoginLine,
    /// A literal of 2 GB announced for the letter, then bytes.
    Literal,
    /// The letter's FETCH line without end, no literal.
    FetchLine,
    /// Answers to the sizes' FETCH without end, each short.
    FetchAnswers,
    /// A letter served as it should be, and `NO` to marking it done.
    RefuseStore,
    /// 28 KB of garbage for a greeting, in one line.
    GarbageGreeting,
}

fn imap_server(attack: ImapAttack) -> Fake {
    let endless: Vec<u8> = [b'x'; 64 * 1024].to_vec();
    Fake::start(move |talk| {
        if let ImapAttack::GreetingLine = attack {
            talk.say("* OK ");
            return talk.flood(&endless);
        }
        if let ImapAttack::GarbageGreeting = attack {
            let garbage: String = (0..28 * 1024)
                .map(|i| (b'!' + (i % 90) as u8) as char)
                .collect();
            talk.say(&format!("{garbage}\r\n"));
            std::thread::sleep(std::time::Duration::from_secs(2));
            return;
        }
        talk.say("* OK [CAPABILITY IMAP4rev1 UIDPLUS MOVE] ready\r\n");
        while let Some(line) = talk.heard() {
            let (tag, command) = line.trim_end().split_once(' ').unwrap_or(("*", ""));
            let command = command.to_ascii_uppercase();
            let done = format!("{tag} OK done\r\n");
            if command.starts_with("LOGIN") {
                if let ImapAttack::LoginLine = attack {
                    talk.say("* OK ");
                    return talk.flood(&endless);
                }
                talk.say(&done);
            } else if command.starts_with("SELECT") || command.starts_with("EXAMINE") {
                talk.say("* 1 EXISTS\r\n* OK [UIDVALIDITY 7] v\r\n");
                talk.say(&format!("{tag} OK [READ-WRITE] done\r\n"));
            } else if command.starts_with("UID SEARCH") {
                let found = if command.contains("UNKEYWORD") {
                    " 1"
                } else {
                    ""
                };
                talk.say(&format!("* SEARCH{found}\r\n{done}"));
            } else if command.contains("RFC822.SIZE") {
                if let ImapAttack::RefuseStore = attack {
                    let size = message(WHITE, CLERK, "2026-11-03", "Game 1", W1, "", 1).len();
                    talk.say(&format!("* 1 FETCH (UID 1 RFC822.SIZE {size})\r\n{done}"));
                    continue;
                }
                if let ImapAttack::FetchAnswers = attack {
                    return talk.flood(&b"* 1 FETCH (UID 1 RFC822.SIZE 900)\r\n".repeat(1024));
                }
                talk.say(&format!("* 1 FETCH (UID 1 RFC822.SIZE 900)\r\n{done}"));
            } else if command.contains("BODY.PEEK") && matches!(attack, ImapAttack::RefuseStore) {
                let letter = message(WHITE, CLERK, "2026-11-03", "Game 1", W1, "", 1);
                talk.say(&format!(
                    "* 1 FETCH (UID 1 INTERNALDATE \"03-Nov-2026 12:00:00 +0300\" BODY[] {{{}}}\r\n{letter})\r\n{done}",
                    letter.len()
                ));
            } else if command.starts_with("UID STORE") {
                talk.say(&format!("{tag} NO [CANNOT] the mailbox is read-only\r\n"));
            } else if command.contains("BODY.PEEK") {
                match attack {
                    ImapAttack::Literal => {
                        talk.say("* 1 FETCH (UID 1 INTERNALDATE \"03-Nov-2026 12:00:00 +0300\" BODY[] {2000000000}\r\n");
                    }
                    _ => {
                        talk.say("* 1 FETCH (UID 1 BODY[] \"");
                    }
                }
                return talk.flood(&endless);
            } else if command.starts_with("LOGOUT") {
                talk.say(&format!("* BYE\r\n{done}"));
                return;
            } else {
                talk.say(&done);
            }
        }
    })
}

fn imap_cup(port: u16) -> Tournament {
    let text = Cup::new().text().replace(
        "[source]\nkind = \"maildir\"\npath = \"inbox\"",
        &format!(
            "[source]\nkind = \"imap\"\nhost = \"127.0.0.1\"\nport = {port}\ntls = \"none\"\nusername = \"clerk\"\npassword_command = \"echo secret\""
        ),
    );
    assert!(text.contains("kind = \"imap\""));
    Tournament::with_config(&text)
}

/// A run that ends with an error naming the server, no panic, in bounds.
fn refused_in_bounds(out: &Output, server: &Fake, said: &str) {
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains(&format!("127.0.0.1:{}", server.port)),
        "the server is named: {}",
        out.stderr
    );
    assert!(out.stderr.contains(said), "{}", out.stderr);
    assert!(!out.caught_a_panic(), "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.lines().all(|line| line.len() < 2000),
        "every error is a line: {}",
        out.stderr.len()
    );
    assert!(
        server.sent() < READ_AT_MOST,
        "the clerk read on to {} bytes",
        server.sent()
    );
}

#[test]
fn an_imap_server_that_sends_without_end_is_an_error_within_the_bound() {
    for (attack, said) in [
        (ImapAttack::GreetingLine, "a response line of over"),
        (ImapAttack::LoginLine, "a response line of over"),
        (ImapAttack::FetchLine, "a response line of over"),
        (
            ImapAttack::Literal,
            "announced a literal of 2000000000 bytes",
        ),
        (
            ImapAttack::FetchAnswers,
            "over 66 FETCH answers for 1 letter(s)",
        ),
        // One line in the error, not the 28 KB.
        (ImapAttack::GarbageGreeting, "sent no greeting"),
    ] {
        let server = imap_server(attack);
        let t = imap_cup(server.port);
        let out = t.run(&["poll", "--today", "2026-11-03"]);
        refused_in_bounds(&out, &server, said);
        eprintln!(
            "{attack:?}: {} bytes sent before the clerk hung up",
            server.sent()
        );
    }
}

/// Nothing was lost: with the config `file` (an outbox folder), the next
/// day's run sends White's receipt and the forward, once each.
fn sent_once_by_file(t: &mut Tournament, file: &str) {
    std::fs::write(t.path().join("shtempel.toml"), file).unwrap();
    t.poll("2026-11-04");
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
}

/// What an SMTP server attacks with.
#[derive(Clone, Copy, Debug)]
enum SmtpAttack {
    /// One endless line where the greeting belongs.
    GreetingLine,
    /// `220-` lines without end.
    GreetingLines,
    /// One endless line as the answer to EHLO.
    EhloLine,
}

fn smtp_server(attack: SmtpAttack) -> Fake {
    Fake::start(move |talk| match attack {
        SmtpAttack::GreetingLine => talk.flood(&[b'2'; 64 * 1024]),
        SmtpAttack::GreetingLines => talk.flood(&b"220-x\r\n".repeat(8 * 1024)),
        SmtpAttack::EhloLine => {
            talk.say("220 ready\r\n");
            if talk.heard().is_some() {
                talk.say("250-");
                talk.flood(&[b'x'; 64 * 1024]);
            }
        }
    })
}

#[test]
fn an_smtp_server_that_sends_without_end_is_an_error_and_the_messages_wait() {
    for (attack, said) in [
        (SmtpAttack::GreetingLine, "a reply line of over 4096 bytes"),
        (SmtpAttack::GreetingLines, "a reply of over 256 lines"),
        (SmtpAttack::EhloLine, "a reply line of over 4096 bytes"),
    ] {
        let server = smtp_server(attack);
        let (mut t, file) = smtp_cup(server.port);
        t.letter(WHITE, "2026-11-03", "Game 1", W1);
        let out = t.run(&["poll", "--today", "2026-11-03"]);
        refused_in_bounds(&out, &server, said);
        eprintln!(
            "{attack:?}: {} bytes sent before the clerk hung up",
            server.sent()
        );
        // Nothing is lost: with a good transport the receipt and the
        // forward go out, once each, on the next run past the retry's wait.
        sent_once_by_file(&mut t, &file);
    }
}

/// A server that greets, then answers EHLO a byte a second and never ends
/// the line: no single read waits long, so only a whole deadline ends it.
fn dripping_server() -> Fake {
    Fake::start(|talk| {
        talk.say("220 ready\r\n");
        if talk.heard().is_none() {
            return;
        }
        for _ in 0..120 {
            if !talk.say("2") {
                return;
            }
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    })
}

fn smtp_cup(port: u16) -> (Tournament, String) {
    let file = Cup::new().text();
    let smtp = file.replace(
        "[transport]\nkind = \"file\"\npath = \"outbox\"",
        &format!(
            "[transport]\nkind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {port}\ntls = \"none\""
        ),
    );
    assert_ne!(smtp, file);
    (Tournament::with_config(&smtp), file)
}

#[test]
fn an_smtp_server_that_drips_its_reply_is_given_up_at_the_whole_deadline() {
    let server = dripping_server();
    let (mut t, file) = smtp_cup(server.port);
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains(&format!("127.0.0.1:{}", server.port))
            && out.stderr.contains("no whole answer within 30s"),
        "{}",
        out.stderr
    );
    // Given up near 30 bytes (a byte a second), not at the server's end.
    assert!(server.sent() < 60, "{} bytes dripped", server.sent());
    sent_once_by_file(&mut t, &file);
}

#[test]
fn sigterm_ends_a_run_held_by_a_slow_smtp_server_cleanly() {
    let server = dripping_server();
    let (mut t, file) = smtp_cup(server.port);
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .arg("--config")
        .arg(t.path().join("shtempel.toml"))
        .args(["--future", "poll", "--today", "2026-11-03"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Once the server has begun to drip its answer, the run is waiting on it.
    for _ in 0..300 {
        if server.sent() >= "220 ready\r\n".len() + 2 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(server.sent() >= 13, "the run reached the server");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("stopped by a signal"), "{stderr}");
    // It hung up long before the server's two minutes of dripping.
    assert!(server.sent() < 60, "{} bytes dripped", server.sent());
    // Nothing is lost: the letter's receipt and forward go once, later.
    sent_once_by_file(&mut t, &file);
}

/// A server's `NO` to marking a letter done is said, and
/// the run fails; the letter's messages go all the same.
#[test]
fn an_imap_servers_refusal_to_mark_a_letter_done_is_said() {
    let server = imap_server(ImapAttack::RefuseStore);
    let mut t = imap_cup(server.port);
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    let said = format!("{}{}", out.stdout, out.stderr);
    assert!(
        said.contains("marking UID 1 done failed") && said.contains("read-only"),
        "{said}"
    );
    assert_eq!(
        kinds(&t.new_mail()),
        [pair("ack", WHITE), pair("forward", BLACK)]
    );
}

/// A server that announces each letter's size as `announced` (as
/// Exchange and Microsoft 365 announce the stored size, an attachment
/// counted decoded) and serves its bytes as they are, partial fetches
/// (`BODY.PEEK[]<0.N>`) as RFC 9051 §6.4.5 says; it keeps the commands
/// that mark letters done.
fn sizes_misannounced(
    letters: Vec<(Vec<u8>, usize)>,
    marked: Arc<std::sync::Mutex<String>>,
) -> Fake {
    Fake::start(move |talk| {
        talk.say("* OK [CAPABILITY IMAP4rev1 UIDPLUS MOVE] ready\r\n");
        let partial = regex::Regex::new(r"BODY\.PEEK\[\]<0\.(\d+)>").unwrap();
        while let Some(line) = talk.heard() {
            let (tag, command) = line.trim_end().split_once(' ').unwrap_or(("*", ""));
            let upper = command.to_ascii_uppercase();
            let done = format!("{tag} OK done\r\n");
            if upper.starts_with("SELECT") || upper.starts_with("EXAMINE") {
                talk.say(&format!(
                    "* {} EXISTS\r\n* OK [UIDVALIDITY 7] v\r\n",
                    letters.len()
                ));
                talk.say(&format!("{tag} OK [READ-WRITE] done\r\n"));
            } else if upper.starts_with("UID SEARCH") {
                // None is done yet: UNKEYWORD finds them all, KEYWORD none.
                let found: String = match upper.contains("UNKEYWORD") {
                    true => (1..=letters.len()).map(|uid| format!(" {uid}")).collect(),
                    false => String::new(),
                };
                talk.say(&format!("* SEARCH{found}\r\n{done}"));
            } else if upper.contains("RFC822.SIZE") {
                for (uid, (_, announced)) in (1..).zip(&letters) {
                    talk.say(&format!(
                        "* {uid} FETCH (UID {uid} RFC822.SIZE {announced})\r\n"
                    ));
                }
                talk.say(&done);
            } else if upper.contains("BODY.PEEK[]") {
                // Whole, or the part asked for.
                let (most, item) = match partial.captures(command) {
                    Some(cap) => (cap[1].parse().unwrap(), "BODY[]<0>"),
                    None => (usize::MAX, "BODY[]"),
                };
                for (uid, (letter, _)) in (1..).zip(&letters) {
                    let part = &letter[..letter.len().min(most)];
                    talk.say(&format!(
                        "* {uid} FETCH (UID {uid} INTERNALDATE \"03-Nov-2026 12:00:00 +0300\" {item} {{{}}}\r\n",
                        part.len()
                    ));
                    talk.say(&String::from_utf8_lossy(part));
                    talk.say(")\r\n");
                }
                talk.say(&done);
            } else if upper.starts_with("UID STORE") || upper.starts_with("UID MOVE") {
                marked.lock().unwrap().push_str(command);
                talk.say(&done);
            } else if upper.starts_with("LOGOUT") {
                talk.say(&format!("* BYE\r\n{done}"));
                return;
            } else {
                talk.say(&done);
            }
        }
    })
}

#[test]
fn a_letter_larger_than_its_server_announced_is_kept_as_too_large_and_the_others_are_read() {
    // A photo of 1.2 MB in a letter Exchange announces as 950,000 bytes,
    // then White's move: the run reads the move, tells White of the
    // photo, and marks both done.
    let photo = format!(
        "From: {WHITE}\r\nTo: {CLERK}\r\nSubject: Game 1, a photo\r\nMessage-ID: <photo@x>\r\n\
         Date: Tue, 03 Nov 2026 12:00:00 +0300\r\n\r\n{}",
        "A".repeat(76).add_crlf().repeat(16_000)
    )
    .into_bytes();
    let move_letter = message(WHITE, CLERK, "2026-11-03", "Game 1", W1, "", 2).into_bytes();
    let announced = move_letter.len();
    let marked = Arc::new(std::sync::Mutex::new(String::new()));
    let server = sizes_misannounced(
        vec![(photo, 950_000), (move_letter, announced)],
        Arc::clone(&marked),
    );
    let mut t = imap_cup(server.port);
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout
            .contains("over the limit of 1048576 bytes (more than its server announced)"),
        "{}",
        out.stdout
    );
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("refused", WHITE),
            pair("ack", WHITE),
            pair("forward", BLACK)
        ],
        "{}",
        out.stdout
    );
    mail[0].says("larger than the limit of 1024 KB and was not read");
    mail[0].never_says("1024 KB, the limit is");
    assert!(
        marked.lock().unwrap().contains("1:2"),
        "{}",
        marked.lock().unwrap()
    );
}

trait CrLf {
    fn add_crlf(&self) -> String;
}

impl CrLf for String {
    fn add_crlf(&self) -> String {
        format!("{self}\r\n")
    }
}

#[test]
fn an_imap_greeting_of_garbage_is_said_as_its_text_not_as_numbers() {
    let server = imap_server(ImapAttack::GarbageGreeting);
    let t = imap_cup(server.port);
    let out = t.run(&["poll", "--today", "2026-11-03"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("sent no greeting: what is no IMAP: \"\\\"#$%&'()*+,-./0123456789"),
        "{}",
        &out.stderr[..out.stderr.len().min(400)]
    );
    assert!(
        !out.stderr.contains("[34, 35"),
        "{}",
        &out.stderr[..out.stderr.len().min(400)]
    );
}

//! The clerk against real servers: Postfix (SMTP on 127.0.0.1:2525) and Dovecot
//! (IMAP on 127.0.0.1:1143), started by `tests/mailstack.sh`. Players send real
//! letters by SMTP, `poll` reads the clerk's mailbox over IMAP and sends by SMTP,
//! and the tests read the partners' and the arbiter's Maildirs.
//!
//! `secured`: TLS and OAuth 2.0 against them; `verdicts`: the receiving
//! servers' verdicts on senders; `xfcc_tls`: the Xfcc server speaking TLS
//! with the stack's certificate.
//!
//! When the servers are not running and cannot be started here (no root, no
//! packages), the tests say so and pass; with `SHTEMPEL_REQUIRE_MAILSTACK=1`
//! (as `.ci/run` sets) that is a failure instead.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use chrono::{Datelike, NaiveDate};
use lettre::address::Envelope;
use lettre::{SmtpTransport, Transport};

use crate::support::{Output, Sent, parse_sent};

mod secured;
mod verdicts;
mod xfcc_tls;

static SERIAL: Mutex<()> = Mutex::new(());

/// A child process that is killed when the test ends, however it ends.
struct Child(std::process::Child);

impl Drop for Child {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

const BOT: &str = "bot@test.local";
const WHITE: &str = "white@test.local";
const BLACK: &str = "black@test.local";
const ARBITER: &str = "arbiter@test.local";

fn root() -> PathBuf {
    PathBuf::from(
        std::env::var("MAILSTACK_ROOT").unwrap_or_else(|_| "/tmp/shtempel-mailstack".into()),
    )
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mailstack.sh")
}

/// Makes sure the servers run; `false` when they cannot (and that is allowed).
fn mailstack() -> bool {
    let up = || {
        Command::new("bash")
            .arg(script())
            .arg("status")
            .status()
            .is_ok_and(|s| s.success())
    };
    if up() {
        return true;
    }
    // Started here, the servers stop once this test process has ended.
    let started = Command::new("bash")
        .arg(script())
        .arg("start-for")
        .arg(std::process::id().to_string())
        .status()
        .is_ok_and(|s| s.success());
    if started && up() {
        return true;
    }
    if std::env::var_os("SHTEMPEL_REQUIRE_MAILSTACK").is_some() {
        panic!(
            "the mail servers are required (SHTEMPEL_REQUIRE_MAILSTACK) but could not be started"
        );
    }
    eprintln!(
        "real_mail: Postfix and Dovecot are not available here; skipped (run tests/mailstack.sh start as root)"
    );
    false
}

fn maildir(user: &str) -> PathBuf {
    root()
        .join("mail")
        .join(user.split('@').next().unwrap())
        .join("Maildir")
}

fn clear_mailboxes() {
    for user in ["bot", "white", "black", "arbiter", "secretary"] {
        for sub in ["new", "cur", ".Done/new", ".Done/cur"] {
            let dir = maildir(user).join(sub);
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The processed mailbox `Done` of the clerk, which must exist on the server.
fn make_done_mailbox() {
    for sub in ["new", "cur", "tmp"] {
        let _ = std::fs::create_dir_all(maildir(BOT).join(".Done").join(sub));
    }
    let _ = Command::new("chown")
        .args(["-R", "vmail:vmail"])
        .arg(maildir(BOT))
        .status();
}

/// How many letters a Maildir folder of the clerk holds (`""` the inbox,
/// `".Done"` the processed mailbox).
fn letters_in(folder: &str) -> usize {
    ["new", "cur"]
        .iter()
        .map(|sub| {
            std::fs::read_dir(maildir(BOT).join(folder).join(sub))
                .map(|d| d.count())
                .unwrap_or(0)
        })
        .sum()
}

/// What a user's mailbox holds, to show when a count is wrong.
fn subjects(user: &str) -> Vec<(String, String)> {
    mailbox(user)
        .into_iter()
        .map(|m| (m.subject, m.message_id))
        .collect()
}

/// The messages in a user's Maildir, oldest first.
fn mailbox(user: &str) -> Vec<Sent> {
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = Vec::new();
    for sub in ["new", "cur"] {
        for entry in std::fs::read_dir(maildir(user).join(sub))
            .into_iter()
            .flatten()
            .flatten()
        {
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            files.push((modified, entry.path()));
        }
    }
    files.sort();
    files
        .iter()
        .map(|(_, path)| parse_sent(&std::fs::read(path).unwrap()))
        .collect()
}

/// Waits until `user` has at least `count` messages.
fn wait_for(user: &str, count: usize) -> Vec<Sent> {
    let start = Instant::now();
    loop {
        let mail = mailbox(user);
        if mail.len() >= count || start.elapsed() > Duration::from_secs(20) {
            return mail;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn smtp_send(from: &str, raw: &[u8]) {
    let transport = SmtpTransport::builder_dangerous("127.0.0.1")
        .port(2525)
        .build();
    let envelope = Envelope::new(Some(from.parse().unwrap()), vec![BOT.parse().unwrap()]).unwrap();
    transport
        .send_raw(&envelope, raw)
        .expect("Postfix accepts the letter");
}

fn letter(from: &str, subject: &str, body: &str, id: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {BOT}\r\nSubject: {subject}\r\nMessage-ID: <{id}@players.test.local>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Letters put into the clerk's mailbox by IMAP APPEND, in this order (by
/// SMTP, Postfix delivers them side by side and their order is a race: a
/// reply may land before the move it answers).
fn imap_append(letters: &[Vec<u8>]) {
    use std::io::{BufRead, BufReader, Write};
    let stream = std::net::TcpStream::connect(("127.0.0.1", 1143)).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    let mut line = String::new();
    let mut until = |reader: &mut BufReader<std::net::TcpStream>, start: &str| loop {
        line.clear();
        assert_ne!(reader.read_line(&mut line).unwrap(), 0, "IMAP closed");
        if line.starts_with(start) {
            assert!(!line.contains(" NO ") && !line.contains(" BAD "), "{line}");
            return;
        }
    };
    until(&mut reader, "* OK");
    writeln!(writer, "a LOGIN {BOT} secret\r").unwrap();
    until(&mut reader, "a ");
    for raw in letters {
        write!(writer, "b APPEND INBOX {{{}}}\r\n", raw.len()).unwrap();
        until(&mut reader, "+");
        writer.write_all(raw).unwrap();
        writer.write_all(b"\r\n").unwrap();
        until(&mut reader, "b ");
    }
    writeln!(writer, "c LOGOUT\r").unwrap();
}

fn today() -> NaiveDate {
    #[allow(clippy::disallowed_methods)]
    chrono::Utc::now()
        .with_timezone(&chrono_tz::Europe::Moscow)
        .date_naive()
}

struct Clerk {
    dir: tempfile::TempDir,
}

impl Clerk {
    /// A tournament that started `days_ago` days ago, reading the bot's mailbox.
    fn new(days_ago: u64, source_extra: &str) -> Clerk {
        let start = today() - chrono::Days::new(days_ago);
        let end = start + chrono::Days::new(700);
        let dir = tempfile::tempdir().unwrap();
        let config = format!(
            r#"[tournament]
id = "R"
name = "Real mail cup"
start_date = {start}
end_date = {end}
timezone = "Europe/Moscow"
language = "ru"

[bot]
address = "{BOT}"
database = "db.sqlite"

[arbiters]
chief_arbiter = "{ARBITER}"
chief_secretary = "secretary@test.local"

[source]
kind = "imap"
host = "127.0.0.1"
port = 1143
tls = "none"
username = "{BOT}"
password_env = "SHTEMPEL_TEST_IMAP_PASSWORD"
{source_extra}

[transport]
kind = "smtp"
host = "127.0.0.1"
port = 2525
tls = "none"

[[players]]
id = "white"
name = "Белый Игрок"
email = "{WHITE}"

[[players]]
id = "black"
name = "Чёрный Игрок"
email = "{BLACK}"

[[games]]
id = "1"
white = "white"
black = "black"
"#
        );
        std::fs::write(dir.path().join("shtempel.toml"), config).unwrap();
        Clerk { dir }
    }

    fn run(&self, args: &[&str]) -> Output {
        self.run_with(args, &[])
    }

    /// A run with the environment variables given (a fault to inject).
    fn run_with(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        let output = Command::new(env!("CARGO_BIN_EXE_shtempel"))
            .arg("--config")
            .arg(self.dir.path().join("shtempel.toml"))
            .arg("--future")
            .args(args)
            .envs(env.iter().copied())
            .env("SHTEMPEL_TEST_IMAP_PASSWORD", "secret")
            .output()
            .unwrap();
        Output {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    fn poll(&self) -> Output {
        let out = self.run(&["poll"]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        out
    }

    fn chart(&self) -> serde_json::Value {
        serde_json::from_str(&self.run(&["chart", "1", "--format", "json"]).stdout).unwrap()
    }
}

fn ru_date(day: NaiveDate) -> String {
    format!("{:02}.{:02}.{}", day.day(), day.month(), day.year())
}

#[test]
fn letters_by_smtp_poll_over_imap_forward_and_correct() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    let clerk = Clerk::new(3, "");
    let day = today();
    smtp_send(
        WHITE,
        &letter(
            WHITE,
            "Партия 1",
            &format!("Партия 1\n1. e4\nВремя: 3/0\nДаты: {}\n", ru_date(day)),
            "w1",
        ),
    );
    wait_for(BOT, 1);
    let out = clerk.poll();
    assert!(
        out.stdout.contains("forward to black@test.local"),
        "{}",
        out.stdout
    );
    let black = wait_for(BLACK, 1);
    assert_eq!(black.len(), 1);
    assert_eq!(black[0].kind, "forward");
    assert!(black[0].body.contains("1. e4"), "{}", black[0].body);
    let white = wait_for(WHITE, 1);
    assert_eq!(white[0].kind, "ack");
    // INTERNALDATE is the postmark; the forward's acceptance is the delivery.
    let chart = clerk.chart();
    assert_eq!(chart["moves"][0]["sent_on"], day.to_string());
    assert_eq!(chart["moves"][0]["delivered_on"], day.to_string());
    assert_eq!(chart["moves"][0]["days"], 3);

    // An idle poll sends nothing and reads nothing again.
    let out = clerk.poll();
    assert!(!out.stdout.contains("sent"), "{}", out.stdout);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(mailbox(BLACK).len(), 1);
    assert_eq!(mailbox(WHITE).len(), 1);

    // Black's letter with a wrong sending date: a correction to him.
    let yesterday = day - chrono::Days::new(1);
    let body = format!(
        "Партия 1\n1... e5\nВремя: 3/0\nДаты: {0}, {0}, {1}\n",
        ru_date(day),
        ru_date(yesterday)
    );
    smtp_send(BLACK, &letter(BLACK, "Re: [R #1] 1. e4", &body, "b1"));
    wait_for(BOT, 2);
    clerk.poll();
    let black = wait_for(BLACK, 2);
    assert_eq!(black[1].kind, "correction");
    assert!(
        black[1]
            .body
            .contains(&format!("{}, а не {}", ru_date(day), ru_date(yesterday))),
        "{}",
        black[1].body
    );
    let white = wait_for(WHITE, 2);
    assert_eq!(white[1].kind, "forward");
    // The clerk's letters are flagged done on the server, not re-read.
    let out = clerk.poll();
    assert!(!out.stdout.contains("move"), "{}", out.stdout);
}

#[test]
fn overstep_file_carries_the_koi8_original() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    // Started 60 days ago: White's first move, sent today, has used 60 days.
    let clerk = Clerk::new(60, "");
    let mut raw = format!(
        "From: {WHITE}\r\nTo: {BOT}\r\nSubject: =?koi8-r?B?8MHS1MnRIDE=?=\r\nMessage-ID: <koi@players.test.local>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=koi8-r\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
    )
    .into_bytes();
    raw.extend_from_slice(b"\xf0\xc1\xd2\xd4\xc9\xd1 1\r\n1. e4\r\n\xf7\xd2\xc5\xcd\xd1: 60/0\r\n");
    smtp_send(WHITE, &raw);
    wait_for(BOT, 1);
    clerk.poll();
    let arbiter = wait_for(ARBITER, 1);
    assert_eq!(arbiter.len(), 1);
    assert_eq!(arbiter[0].kind, "overstep-file");
    let original = arbiter[0]
        .attachments
        .iter()
        .find(|(_, t, _)| t == "message/rfc822")
        .expect("the letter");
    let inner = mail_parser::MessageParser::default()
        .parse(&original.2)
        .unwrap();
    assert!(
        inner.body_text(0).unwrap().contains("Партия 1"),
        "KOI8-R decoded from the attached original"
    );
    assert!(
        original
            .2
            .windows(6)
            .any(|w| w == b"\xf0\xc1\xd2\xd4\xc9\xd1"),
        "the original bytes are intact"
    );
    assert!(
        arbiter[0]
            .attachments
            .iter()
            .any(|(n, _, _)| n.ends_with(".pgn"))
    );
    let white = wait_for(WHITE, 2);
    assert!(
        white
            .iter()
            .any(|m| m.kind == "overstep-notice"
                && m.headers.contains("Disposition-Notification-To"))
    );
}

#[test]
fn a_dead_smtp_server_leaves_mail_in_the_outbox_sent_once_later() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    let clerk = Clerk::new(3, "");
    smtp_send(
        WHITE,
        &letter(WHITE, "Партия 1", "Партия 1\n1. d4\nВремя: 3/0\n", "dead1"),
    );
    wait_for(BOT, 1);
    let postfix = root().join("postfix");
    let stop = Command::new("postfix")
        .arg("-c")
        .arg(&postfix)
        .arg("stop")
        .output()
        .unwrap();
    assert!(stop.status.success());
    let out = clerk.run(&["poll"]);
    assert_eq!(
        out.code, 1,
        "a failed send is a failed run:\n{}\n{}",
        out.stdout, out.stderr
    );
    assert!(
        out.stdout.contains("send-failed") && out.stdout.contains("will retry"),
        "{}",
        out.stdout
    );
    let start = Command::new("postfix")
        .arg("-c")
        .arg(&postfix)
        .arg("start")
        .output()
        .unwrap();
    assert!(start.status.success());
    for _ in 0..50 {
        if std::net::TcpStream::connect("127.0.0.1:2525").is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // The next run waits 5 minutes before a retry; a run tomorrow sends at once.
    let tomorrow = (today() + chrono::Days::new(1)).to_string();
    let out = clerk.run(&["poll", "--today", &tomorrow]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert_eq!(out.stdout.matches("sent ").count(), 2, "{}", out.stdout);
    let black = wait_for(BLACK, 1);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(mailbox(BLACK).len(), 1, "sent once");
    assert_eq!(black[0].kind, "forward");
    assert_eq!(clerk.chart()["moves"][0]["delivered_on"], tomorrow);
    let out = clerk.run(&["poll", "--today", &tomorrow]);
    assert!(
        !out.stdout.contains("sent"),
        "nothing twice: {}",
        out.stdout
    );
}

#[test]
fn connection_problems_say_what_to_check_and_lose_nothing() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    smtp_send(
        WHITE,
        &letter(WHITE, "Партия 1", "Партия 1\n1. c4\nВремя: 3/0\n", "conn1"),
    );
    wait_for(BOT, 1);
    // (change to the config, exit code, words in the one line)
    let table: [(&str, &str, i32, &str); 4] = [
        (
            "username = \"bot@test.local\"",
            "username = \"nobody@test.local\"",
            1,
            "check the user name and the password",
        ),
        ("port = 1143", "port = 1", 1, "check [source] host and port"),
        (
            "tls = \"none\"\nusername",
            "tls = \"tls\"\nusername",
            1,
            "check [source] tls",
        ),
        (
            "port = 1143",
            "port = 1143\nmailbox = \"Archive\"",
            1,
            "check [source] mailbox",
        ),
    ];
    for (from, to, code, words) in table {
        let clerk = Clerk::new(3, "");
        let path = clerk.dir.path().join("shtempel.toml");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{from}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
        let out = clerk.run(&["poll"]);
        assert_eq!(out.code, code, "{to}: {}", out.stderr);
        assert!(out.stderr.contains(words), "{to}: {}", out.stderr);
        assert_eq!(
            out.stderr.trim().lines().count(),
            1,
            "one line: {}",
            out.stderr
        );
    }
    // No password in the environment: a configuration problem.
    let clerk = Clerk::new(3, "");
    let output = Command::new(env!("CARGO_BIN_EXE_shtempel"))
        .arg("--config")
        .arg(clerk.dir.path().join("shtempel.toml"))
        .arg("--future")
        .arg("poll")
        .env_remove("SHTEMPEL_TEST_IMAP_PASSWORD")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("SHTEMPEL_TEST_IMAP_PASSWORD is not set")
    );
    // Nothing was lost or marked done: a good run now reads the letter.
    let out = clerk.poll();
    assert!(out.stdout.contains("move"), "{}", out.stdout);
    assert_eq!(wait_for(BLACK, 1).len(), 1);
}

#[test]
fn watch_wakes_on_new_mail_and_stops_on_sigterm() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    let clerk = Clerk::new(
        3,
        "processed_mailbox = \"INBOX\""
            .replace("INBOX", "Done")
            .as_str(),
    );
    make_done_mailbox();
    let mut child = Child(
        Command::new(env!("CARGO_BIN_EXE_shtempel"))
            .arg("--config")
            .arg(clerk.dir.path().join("shtempel.toml"))
            .arg("--future")
            .args(["watch", "--interval", "5"])
            .env("SHTEMPEL_TEST_IMAP_PASSWORD", "secret")
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap(),
    );
    std::thread::sleep(Duration::from_secs(2));
    smtp_send(
        WHITE,
        &letter(
            WHITE,
            "Партия 1",
            "Партия 1\n1. Кf3\nВремя: 3/0\n",
            "watch1",
        ),
    );
    let black = wait_for(BLACK, 1);
    assert_eq!(black.len(), 1, "the forward came while watch was idling");
    // The letter was moved to the processed mailbox.
    let moved = std::fs::read_dir(maildir(BOT).join(".Done/cur"))
        .map(|d| d.count())
        .unwrap_or(0)
        + std::fs::read_dir(maildir(BOT).join(".Done/new"))
            .map(|d| d.count())
            .unwrap_or(0);
    assert_eq!(moved, 1);
    let started = Instant::now();
    Command::new("kill")
        .arg("-TERM")
        .arg(child.0.id().to_string())
        .status()
        .unwrap();
    let status = child.0.wait().unwrap();
    assert!(status.success(), "{status:?}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "stopped in {:?}",
        started.elapsed()
    );
    let mut stdout = String::new();
    use std::io::Read;
    child
        .0
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    assert!(stdout.contains("watch: stopped"), "{stdout}");
}

/// A TCP proxy on loopback between the clerk and a server, counting the
/// connections and the turns: each time the client speaks after the server
/// did (or first), one request/response turn.
struct TurnCounter {
    port: u16,
    turns: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    connections: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// Everything the client said.
    said: std::sync::Arc<Mutex<Vec<u8>>>,
}

/// Bytes the proxy changes in what the server says, and what into (of the
/// same length, so that a literal's count stays right).
type Rewrite = Option<(&'static [u8], &'static [u8])>;

impl TurnCounter {
    fn to(upstream: u16) -> TurnCounter {
        TurnCounter::dropping(upstream, usize::MAX, "")
    }

    /// The same, changing `from` into `to` in what the server says (a
    /// server that does not offer what the other one does).
    fn rewriting(upstream: u16, from: &'static [u8], to: &'static [u8]) -> TurnCounter {
        assert_eq!(from.len(), to.len());
        TurnCounter::start(upstream, usize::MAX, "", Some((from, to)))
    }

    /// The same, closing the first connection when its client begins turn
    /// `drop_at`, that turn's words not passed on: a server that hangs up
    /// in the middle of a run, with `farewell` (a 421 line) first unless it
    /// is empty.
    fn dropping(upstream: u16, drop_at: usize, farewell: &'static str) -> TurnCounter {
        TurnCounter::start(upstream, drop_at, farewell, None)
    }

    fn start(
        upstream: u16,
        drop_at: usize,
        farewell: &'static str,
        rewrite: Rewrite,
    ) -> TurnCounter {
        use std::io::{Read, Write};
        use std::sync::Arc;
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let turns = Arc::new(AtomicUsize::new(0));
        let connections = Arc::new(AtomicUsize::new(0));
        let (counted, opened) = (Arc::clone(&turns), Arc::clone(&connections));
        let said = Arc::new(Mutex::new(Vec::new()));
        let heard = Arc::clone(&said);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                opened.fetch_add(1, Ordering::SeqCst);
                let Ok(server) = std::net::TcpStream::connect(("127.0.0.1", upstream)) else {
                    continue;
                };
                let _ = (client.set_nodelay(true), server.set_nodelay(true));
                // Whether the client spoke last: its next words after the
                // server's are a new turn.
                let client_spoke = Arc::new(AtomicBool::new(false));
                let first = opened.load(Ordering::SeqCst) == 1;
                let own_turns = Arc::new(AtomicUsize::new(0));
                let pipe = |mut from: std::net::TcpStream,
                            mut to: std::net::TcpStream,
                            is_client: bool| {
                    let (counted, client_spoke) = (Arc::clone(&counted), Arc::clone(&client_spoke));
                    let own_turns = Arc::clone(&own_turns);
                    let heard = Arc::clone(&heard);
                    std::thread::spawn(move || {
                        let mut buf = vec![0; 64 * 1024];
                        while let Ok(n) = from.read(&mut buf) {
                            if n == 0 {
                                break;
                            }
                            let mut buf = buf[..n].to_vec();
                            if is_client {
                                // What the client wrote at once (a pipelined
                                // window is one write) is one turn: read on
                                // while more comes at once, before the server
                                // is given a part of it to answer (Postfix
                                // answered the first messages of a window,
                                // and the rest counted as the next turn).
                                let mut more = vec![0; 64 * 1024];
                                let _ = from.set_read_timeout(Some(Duration::from_millis(10)));
                                while let Ok(m) = from.read(&mut more) {
                                    if m == 0 {
                                        break;
                                    }
                                    buf.extend_from_slice(&more[..m]);
                                }
                                let _ = from.set_read_timeout(None);
                            }
                            let n = buf.len();
                            if is_client && !client_spoke.swap(true, Ordering::SeqCst) {
                                counted.fetch_add(1, Ordering::SeqCst);
                                let turn = own_turns.fetch_add(1, Ordering::SeqCst) + 1;
                                if first && turn == drop_at {
                                    let _ = from.write_all(farewell.as_bytes());
                                    let _ = from.shutdown(std::net::Shutdown::Both);
                                    let _ = to.shutdown(std::net::Shutdown::Both);
                                    break;
                                }
                            }
                            if is_client {
                                heard.lock().unwrap().extend_from_slice(&buf[..n]);
                            } else {
                                client_spoke.store(false, Ordering::SeqCst);
                                if let Some((from, into)) = rewrite {
                                    replace_all(&mut buf[..n], from, into);
                                }
                            }
                            if to.write_all(&buf[..n]).is_err() {
                                break;
                            }
                        }
                        let _ = to.shutdown(std::net::Shutdown::Write);
                    });
                };
                pipe(
                    client.try_clone().unwrap(),
                    server.try_clone().unwrap(),
                    true,
                );
                pipe(server, client, false);
            }
        });
        TurnCounter {
            port,
            turns,
            connections,
            said,
        }
    }

    /// What the client said, as text.
    fn said(&self) -> String {
        String::from_utf8_lossy(&self.said.lock().unwrap()).into_owned()
    }

    fn counts(&self) -> (usize, usize) {
        use std::sync::atomic::Ordering;
        (
            self.turns.load(Ordering::SeqCst),
            self.connections.load(Ordering::SeqCst),
        )
    }
}

/// One poll of `games` first moves through counting proxies: the IMAP
/// turns and connections, the SMTP turns and connections, and the messages.
fn poll_counted(games: usize) -> ((usize, usize), (usize, usize), usize) {
    poll_through(games, TurnCounter::to(2525), "")
}

/// One poll of `games` first moves and their replies (White's `1. e4`,
/// then Black's `1... e5` in each game, in that order in the mailbox):
/// the IMAP and SMTP turns and connections, and the messages.
fn poll_both_counted(games: usize) -> ((usize, usize), (usize, usize), usize) {
    poll_letters(games, TurnCounter::to(2525), "", true)
}

/// The same with the SMTP proxy given.
fn poll_through(
    games: usize,
    smtp: TurnCounter,
    transport_extra: &str,
) -> ((usize, usize), (usize, usize), usize) {
    poll_letters(games, smtp, transport_extra, false)
}

/// `from` changed into `to` (of the same length) wherever it is in `bytes`
/// (a word cut between two reads is missed: the tests' are in short lines).
fn replace_all(bytes: &mut [u8], from: &[u8], to: &[u8]) {
    let mut at = 0;
    while let Some(found) = bytes[at..].windows(from.len()).position(|w| w == from) {
        bytes[at + found..at + found + from.len()].copy_from_slice(to);
        at += found + from.len();
    }
}

/// White's first move in each of `games` games, and Black's reply after it
/// if `replies`, polled at once through counting proxies.
fn poll_letters(
    games: usize,
    smtp: TurnCounter,
    transport_extra: &str,
    replies: bool,
) -> ((usize, usize), (usize, usize), usize) {
    let imap = TurnCounter::to(1143);
    let clerk = letters_waiting(games, &imap, &smtp, transport_extra, replies);
    let out = clerk.poll();
    let messages = out.stdout.lines().filter(|l| l.starts_with("sent")).count();
    let counts = (imap.counts(), smtp.counts(), messages);
    // An idle poll after it: a handful of IMAP turns, no SMTP at all.
    clerk.poll();
    let idle_imap = imap.counts().0 - counts.0.0;
    eprintln!("an idle poll: {idle_imap} IMAP turns");
    assert!(idle_imap <= 6, "an idle poll took {idle_imap} IMAP turns");
    assert_eq!(
        smtp.counts(),
        counts.1,
        "an idle poll opens no SMTP connection"
    );
    counts
}

/// A clerk of `games` games reading IMAP and sending SMTP through the
/// proxies given, and White's first move in each game waiting in its
/// mailbox (with Black's reply after it if `replies`).
fn letters_waiting(
    games: usize,
    imap: &TurnCounter,
    smtp: &TurnCounter,
    transport_extra: &str,
    replies: bool,
) -> Clerk {
    clear_mailboxes();
    let clerk = Clerk::new(2, "");
    let path = clerk.dir.path().join("shtempel.toml");
    let mut config = std::fs::read_to_string(&path)
        .unwrap()
        .replace("port = 1143", &format!("port = {}", imap.port))
        .replace(
            "port = 2525",
            &format!("port = {}\n{transport_extra}", smtp.port),
        );
    for game in 2..=games {
        config.push_str(&format!(
            "\n[[players]]\nid = \"w{game}\"\nname = \"White {game}\"\nemail = \"white+g{game}@test.local\"\n\
             \n[[players]]\nid = \"b{game}\"\nname = \"Black {game}\"\nemail = \"black+g{game}@test.local\"\n\
             \n[[games]]\nid = \"{game}\"\nwhite = \"w{game}\"\nblack = \"b{game}\"\n"
        ));
    }
    std::fs::write(&path, config).unwrap();
    let day = ru_date(today());
    let mut letters = Vec::new();
    for game in 1..=games {
        let from = if game == 1 {
            WHITE.to_string()
        } else {
            format!("white+g{game}@test.local")
        };
        let body = format!("Партия {game}\n1. e4\nВремя: 2/0\nДаты: {day}\n");
        let id = format!("rt{game}-{games}");
        letters.push(letter(&from, &format!("Партия {game}"), &body, &id));
        if replies {
            let from = if game == 1 {
                BLACK.to_string()
            } else {
                format!("black+g{game}@test.local")
            };
            let body = format!("Партия {game}\n1... e5\nВремя: 2/0\nДаты: {day}, {day}, {day}\n");
            let id = format!("rt{game}-{games}-reply");
            letters.push(letter(&from, &format!("Партия {game}"), &body, &id));
        }
    }
    imap_append(&letters);
    clerk
}

#[test]
fn round_trips_of_a_poll_do_not_grow_with_its_letters() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    let (imap_few, smtp_few, sent_few) = poll_counted(3);
    let (imap_many, smtp_many, sent_many) = poll_counted(30);
    eprintln!(
        "IMAP turns/connections: 3 letters {imap_few:?}, 30 letters {imap_many:?}; \
         SMTP: {sent_few} messages {smtp_few:?}, {sent_many} messages {smtp_many:?}"
    );
    assert_eq!(
        (sent_few, sent_many),
        (6, 60),
        "an ack and a forward a letter"
    );
    // IMAP: the same turns for 30 letters as for 3 (one chunk, one batch
    // marked done), one connection each.
    assert_eq!(imap_many.1, 1);
    assert!(imap_many.0 <= imap_few.0 + 1, "{imap_few:?} {imap_many:?}");
    // SMTP: one connection a run: EHLO, then, the server offering
    // PIPELINING and CHUNKING, the messages in windows of up to 25 in one
    // turn each (BDAT; 24 here, a letter's two messages never split), QUIT.
    assert_eq!((smtp_few.1, smtp_many.1), (1, 1));
    assert!(smtp_many.0 <= 2 + sent_many.div_ceil(24), "{smtp_many:?}");
}

#[test]
fn both_players_letters_in_many_games_wait_for_the_mail_server_twice_not_once_a_game() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    // Black's reply is planned once White's forward was accepted (its day
    // is the day Black received the move): the replies of all games are
    // held together until the forwards are out, so 30 games take the turns
    // of 3, give or take a window.
    let (imap_few, smtp_few, sent_few) = poll_both_counted(3);
    let (imap_many, smtp_many, sent_many) = poll_both_counted(30);
    eprintln!(
        "both players: IMAP 3 games {imap_few:?}, 30 games {imap_many:?}; \
         SMTP {sent_few} messages {smtp_few:?}, {sent_many} messages {smtp_many:?}"
    );
    assert_eq!(
        (sent_few, sent_many),
        (12, 120),
        "an ack and a forward a letter"
    );
    // One IMAP connection; SMTP, one a run up to max_messages_per_connection
    // (100 by default), then one more.
    assert_eq!(
        (imap_few.1, imap_many.1, smtp_few.1, smtp_many.1),
        (1, 1, 1, 2)
    );
    // IMAP: the letters in one chunk, marked done in two batches.
    assert!(imap_many.0 <= imap_few.0 + 1, "{imap_few:?} {imap_many:?}");
    // SMTP: EHLO and QUIT on each connection, and each round's messages
    // in windows of 24 (one more where a connection's limit cuts one). Waiting
    // once a game, it was 42.
    let windows = 2 * (sent_many / 2).div_ceil(24) + 1;
    assert!(smtp_many.0 <= 2 * 2 + windows, "{smtp_many:?}");
    // Every reply was applied: White got Black's move in each game.
    let white = wait_for("white", 2 * 30);
    let forwards = white.iter().filter(|m| m.kind == "forward").count();
    assert_eq!(forwards, 30, "every game's reply forwarded to White");
}

#[test]
fn more_letters_than_a_chunk_are_all_read_in_a_few_turns() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    // 205 letters: two fetches of letters (200 a chunk), a few batches
    // marked done.
    let (imap, smtp, sent) = poll_counted(205);
    eprintln!("205 letters: IMAP {imap:?}, SMTP {smtp:?}, {sent} messages");
    assert_eq!(sent, 410);
    assert_eq!(imap.1, 1);
    assert!(imap.0 <= 16, "{imap:?}");
    assert_eq!(wait_for("black", 205).len(), 205, "every forward arrived");
}

#[test]
fn an_smtp_server_closing_with_421_mid_run_gets_the_rest_on_a_new_connection_once_each() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    // 60 messages: EHLO, then windows of 24, 24 and 12 in a turn each. The
    // server says 421 and closes when the clerk begins the second window
    // (3rd turn), which it never got: that window and the last go on a new
    // connection in the same run.
    let farewell = "421 4.7.0 mail.test.local Error: too many messages, closing\r\n";
    let (_, smtp, sent) = poll_through(30, TurnCounter::dropping(2525, 3, farewell), "");
    eprintln!("421: SMTP {smtp:?}, {sent} messages");
    assert_eq!(sent, 60, "every message went");
    assert_eq!(smtp.1, 2, "one connection again after the 421");
    // Each partner got his forward once, each player his receipt once.
    wait_for("black", 30);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(mailbox("black").len(), 30, "{:?}", subjects("black"));
    assert_eq!(mailbox("white").len(), 30, "{:?}", subjects("white"));
}

#[test]
fn a_connection_lost_in_a_window_leaves_its_messages_to_a_later_run_sent_once() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    // The connection is lost as the clerk writes the second window: whether
    // the server took any of it cannot be known, so those messages are left
    // to a later run (this one exits 1, saying so); the third window, never
    // given, goes on a new connection. Here the server never got the second
    // window: each message arrives once.
    let imap = TurnCounter::to(1143);
    let smtp = TurnCounter::dropping(2525, 3, "");
    let clerk = letters_waiting(30, &imap, &smtp, "", false);
    let first = clerk.run(&["poll"]);
    let sent = |out: &Output| out.stdout.lines().filter(|l| l.starts_with("sent")).count();
    assert_eq!(first.code, 1, "{}\n{}", first.stdout, first.stderr);
    assert_eq!(sent(&first), 36, "windows 1 and 3:\n{}", first.stdout);
    let unknown = first
        .stdout
        .lines()
        .filter(|l| l.starts_with("send-failed"));
    assert_eq!(unknown.count(), 24, "{}", first.stdout);
    // The next run waits 5 minutes before a retry; a run tomorrow sends at once.
    let tomorrow = (today() + chrono::Days::new(1)).to_string();
    let second = clerk.run(&["poll", "--today", &tomorrow]);
    assert_eq!(second.code, 0, "{}\n{}", second.stdout, second.stderr);
    assert_eq!(sent(&second), 24, "{}", second.stdout);
    assert_eq!(smtp.counts().1, 3, "a new connection a run after the loss");
    wait_for("black", 30);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(mailbox("black").len(), 30, "{:?}", subjects("black"));
    assert_eq!(mailbox("white").len(), 30, "{:?}", subjects("white"));
}

#[test]
fn a_crash_at_any_step_of_an_imap_poll_loses_nothing_and_doubles_at_most_a_window() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    // Every step of a letter's life, on its first and on a later passage
    // (a later letter, job or window); the process is killed there (abort,
    // as kill -9), then two clean runs finish what it left.
    let points = [
        "after-fetch",
        "after-parse",
        "after-outbox-insert",
        "after-commit",
        "before-mark-done",
        "after-send",
    ];
    let day = ru_date(today());
    let letters = [
        (WHITE, "1. e4\nВремя: 2/0\nДаты: {day}"),
        (BLACK, "1... e5\nВремя: 2/0\nДаты: {day}, {day}, {day}"),
        (WHITE, "2. Nf3\nВремя: 2/0\nДаты: {day}, {day}, {day}"),
    ];
    let mut table = Vec::new();
    for point in points {
        let passages: &[usize] = if point == "after-fetch" {
            &[1]
        } else {
            &[1, 2]
        };
        for &passage in passages {
            clear_mailboxes();
            let clerk = Clerk::new(2, "");
            let raw: Vec<Vec<u8>> = letters
                .iter()
                .enumerate()
                .map(|(n, (from, body))| {
                    let body = format!("Партия 1\n{}\n", body.replace("{day}", &day));
                    letter(
                        from,
                        "Партия 1",
                        &body,
                        &format!("crash{n}-{point}{passage}"),
                    )
                })
                .collect();
            imap_append(&raw);
            let fault = format!("{point}:{passage}");
            let crashed = clerk.run_with(&["poll"], &[("SHTEMPEL_FAULT", &fault)]);
            assert_eq!(crashed.code, -1, "{fault}: killed\n{}", crashed.stdout);
            for _ in 0..2 {
                let out = clerk.run(&["poll"]);
                eprintln!("{fault} {}", out.stdout);
                assert_eq!(out.code, 0, "{fault}: {}\n{}", out.stdout, out.stderr);
            }
            let sans: Vec<String> = clerk.chart()["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["san"].as_str().unwrap().to_string())
                .collect();
            assert_eq!(sans, ["e4", "e5", "Nf3"], "{fault}: each letter once");
            // An idle poll after them reads nothing: every letter was marked done.
            let idle = clerk.poll();
            assert_eq!(idle.stdout.trim(), "", "{fault}: a letter left undone");
            // Three messages each (two acks and a forward, or the reverse).
            wait_for("white", 3);
            wait_for("black", 3);
            std::thread::sleep(Duration::from_millis(500));
            let mail: Vec<Sent> = mailbox("white")
                .into_iter()
                .chain(mailbox("black"))
                .collect();
            let distinct: std::collections::BTreeSet<&str> =
                mail.iter().map(|m| m.message_id.as_str()).collect();
            assert_eq!(distinct.len(), 6, "{fault}: six messages");
            let doubled = mail.len() - distinct.len();
            // Taken by the server and not yet in the sent log: the window in
            // flight (here a letter's two messages) may go again.
            let allowed = if point == "after-send" { 2 } else { 0 };
            assert!(doubled <= allowed, "{fault}: {doubled} sent twice");
            table.push(format!(
                "{fault:<22} then 3 moves, 6 messages, {doubled} twice"
            ));
        }
    }
    eprintln!("{}", table.join("\n"));
}

#[test]
fn letters_go_to_the_processed_mailbox_by_copy_where_the_server_has_no_move() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    make_done_mailbox();
    // Dovecot offers MOVE; through this proxy it does not seem to.
    let imap = TurnCounter::rewriting(1143, b" MOVE", b" XOVE");
    let clerk = Clerk::new(2, "processed_mailbox = \"Done\"");
    let path = clerk.dir.path().join("shtempel.toml");
    let config = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        config.replace("port = 1143", &format!("port = {}", imap.port)),
    )
    .unwrap();
    let day = ru_date(today());
    imap_append(&[
        letter(
            WHITE,
            "Партия 1",
            &format!("1. e4\nВремя: 2/0\nДаты: {day}\n"),
            "nomove1",
        ),
        letter(
            BLACK,
            "Партия 1",
            &format!("1... e5\nВремя: 2/0\nДаты: {day}, {day}, {day}\n"),
            "nomove2",
        ),
    ]);
    clerk.poll();
    let said = imap.said();
    assert!(
        !said.contains("MOVE "),
        "no MOVE asked of a server without it"
    );
    assert!(said.contains("UID COPY"), "{said}");
    // Dovecot has UIDPLUS: the letters are removed from the inbox by UID.
    assert!(said.contains("UID EXPUNGE"), "{said}");
    assert_eq!((letters_in(""), letters_in(".Done")), (0, 2));
    let sans: Vec<String> = clerk.chart()["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["san"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sans, ["e4", "e5"]);
    let idle = clerk.poll();
    assert_eq!(idle.stdout.trim(), "", "nothing read twice");
}

#[test]
fn a_providers_limit_of_messages_a_minute_is_kept_by_waiting() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    use shtempel::mail::Transport as _;
    use std::sync::{Arc, Mutex};
    clear_mailboxes();
    let smtp = TurnCounter::to(2525);
    let server = shtempel::config::Server {
        host: "127.0.0.1".into(),
        port: smtp.port,
        tls: shtempel::config::Tls::None,
        username: String::new(),
        secret: shtempel::config::Secret::None,
        auth: shtempel::config::Auth::Plain,
        ca_file: None,
    };
    // A clock that moves only when the sender waits: the waits are all the
    // pacing's.
    let now = Arc::new(Mutex::new(Duration::ZERO));
    let waits = Arc::new(Mutex::new(Vec::new()));
    let (clock, advance, waited) = (Arc::clone(&now), Arc::clone(&now), Arc::clone(&waits));
    let pace = shtempel::mail::transport::smtp::Pace::new(
        10,
        Box::new(move || *clock.lock().unwrap()),
        Box::new(move |wait| {
            *advance.lock().unwrap() += wait;
            waited.lock().unwrap().push(wait);
        }),
    );
    let mut sender = shtempel::mail::transport::smtp::SmtpSender::new(
        &server,
        None,
        BOT,
        Duration::from_secs(10),
    )
    .unwrap()
    .pace(Some(pace));
    let recipients = vec![BLACK.to_string()];
    let raw: Vec<Vec<u8>> = (0..25)
        .map(|n| letter(BOT, &format!("paced {n}"), "x\n", &format!("paced{n}")))
        .collect();
    let mut sent = 0;
    let mut windows = Vec::new();
    while sent < raw.len() {
        let window = sender.window();
        let messages: Vec<(&[String], &[u8])> = raw[sent..(sent + window).min(raw.len())]
            .iter()
            .map(|r| (recipients.as_slice(), r.as_slice()))
            .collect();
        let outcomes = sender.send_many(&messages);
        assert!(outcomes.iter().all(Result::is_ok), "{outcomes:?}");
        sent += outcomes.len();
        windows.push(outcomes.len());
    }
    drop(sender);
    // 10 at once, a minute's wait, 10, a minute's wait, the last 5: never
    // more than 10 in a minute, and no wait more than needed.
    assert_eq!(windows, [10, 10, 5]);
    let minute = Duration::from_secs(60);
    assert_eq!(*waits.lock().unwrap(), [minute, minute]);
    assert_eq!(wait_for("black", 25).len(), 25);
}

#[test]
fn a_providers_limit_of_messages_a_connection_is_kept() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    let limit = "max_messages_per_connection = 10";
    let (_, smtp, sent) = poll_through(30, TurnCounter::to(2525), limit);
    assert_eq!(sent, 60);
    assert_eq!(smtp.1, 6, "60 messages, 10 a connection: {smtp:?}");
}

#[test]
fn a_letter_set_aside_goes_back_into_the_imap_mailbox_by_the_arbiters_retry_and_is_read() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    let clerk = Clerk::new(3, "");
    let day = today();
    let body = format!(
        "Партия 1\n1. e4\nTROUBLE\nВремя: 3/0\nДаты: {}\n",
        ru_date(day)
    );
    imap_append(&[letter(WHITE, "Партия 1", &body, "w-trouble")]);
    // Three runs fail on it (an injected fault); the third sets it aside.
    for _ in 0..3 {
        let out = clerk.run_with(&["poll"], &[("SHTEMPEL_FAULT", "panic-letter:TROUBLE")]);
        assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    }
    let listed = clerk.run(&["retry"]).stdout;
    assert!(listed.starts_with("quarantine:"), "{listed}");
    assert_eq!(clerk.chart()["moves"].as_array().unwrap().len(), 0);
    // The chief arbiter orders it back: he is told, by SMTP.
    imap_append(&[letter(
        ARBITER,
        "Отложенные письма",
        "ПОВТОРИТЬ ВСЕ\n",
        "a-retry",
    )]);
    clerk.poll();
    let arbiter = wait_for(ARBITER, 1);
    assert_eq!(arbiter[0].kind, "retry", "{:?}", subjects(ARBITER));
    assert!(arbiter[0].body.contains("TROUBLE"), "{}", arbiter[0].body);
    // The next run APPENDs it with its arrival time and reads it in the
    // same session: its postmark is the day it first came.
    let out = clerk.poll();
    assert!(out.stdout.contains("put-back"), "{}", out.stdout);
    let black = wait_for(BLACK, 1);
    assert_eq!(black.len(), 1, "{:?}\n{}", subjects(BLACK), out.stdout);
    assert_eq!(black[0].kind, "forward");
    assert!(black[0].body.contains("1. e4"), "{}", black[0].body);
    let chart = clerk.chart();
    assert_eq!(chart["moves"][0]["sent_on"], day.to_string());
    // Read once: another run finds nothing new.
    let out = clerk.poll();
    assert!(!out.stdout.contains("move"), "{}", out.stdout);
    assert!(
        clerk
            .run(&["retry"])
            .stdout
            .contains("no letter is set aside")
    );
}

#[test]
fn after_the_arbiters_replace_the_letters_behind_it_stay_on_the_server_for_the_next_run() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    let clerk = Clerk::new(3, "");
    // The secretary's mailbox is the newcomer's: the chief arbiter is the
    // secretary too.
    let file = clerk.dir.path().join("shtempel.toml");
    let text = std::fs::read_to_string(&file).unwrap().replace(
        "chief_secretary = \"secretary@test.local\"",
        &format!("chief_secretary = \"{ARBITER}\""),
    );
    std::fs::write(&file, text).unwrap();
    let day = today();
    imap_append(&[letter(
        WHITE,
        "Партия 1",
        &format!("Партия 1\n1. e4\nВремя: 3/0\nДаты: {}\n", ru_date(day)),
        "w1",
    )]);
    clerk.poll();
    wait_for(BLACK, 1);
    // The newcomer takes Black's place; his move is right behind.
    let newcomer = "secretary@test.local";
    let reply = format!(
        "Партия 1\n1... e5\nВремя: 3/0\nДаты: {0}, {0}, {0}\n",
        ru_date(day)
    );
    imap_append(&[
        letter(
            ARBITER,
            "Замена",
            &format!("ЗАМЕНА black Новый Игрок <{newcomer}>\n"),
            "a-replace",
        ),
        letter(newcomer, "Re: [R #1]", &reply, "n1"),
    ]);
    let out = clerk.poll();
    assert!(out.stdout.contains("config-edited"), "{}", out.stdout);
    assert!(out.stderr.contains("1 letter(s) left"), "{}", out.stderr);
    let file = std::fs::read_to_string(clerk.dir.path().join("shtempel.toml")).unwrap();
    assert!(file.contains(&format!("email = \"{newcomer}\"")), "{file}");
    // The next run reads the file anew: the move is the newcomer's.
    let out = clerk.poll();
    assert!(
        out.stdout.contains("forward to white@test.local"),
        "{}",
        out.stdout
    );
    assert_eq!(clerk.chart()["moves"].as_array().unwrap().len(), 2);
}

/// `doctor` against the real servers: all green with
/// the right settings, and one line naming what failed for a wrong
/// password, a processed mailbox the server lacks and a dead SMTP port;
/// nothing is sent and no letter is touched.
#[test]
fn doctor_checks_the_real_servers_and_names_each_failure() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    if !mailstack() {
        return;
    }
    clear_mailboxes();
    make_done_mailbox();
    imap_append(&[letter(WHITE, "Партия 1", "Партия 1\n1. e4\n", "doctor-1")]);
    let clerk = Clerk::new(2, "processed_mailbox = \"Done\"");
    let out = clerk.run(&["doctor"]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stdout.contains(
            "ok    source      IMAP 127.0.0.1:1143 as bot@test.local, mailbox \"INBOX\"; MOVE yes, UIDPLUS yes, IDLE yes; the processed mailbox is there"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("ok    transport   SMTP 127.0.0.1:2525 without a login; PIPELINING yes"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("doctor: all 7 checks pass"),
        "{}",
        out.stdout
    );
    assert_eq!(letters_in(""), 1, "doctor takes no letter");
    assert!(mailbox(BLACK).is_empty(), "doctor sends nothing");
    // Asked to, it sends one test message, and says the server's answer.
    let out = clerk.run(&["doctor", "--send-test", BLACK]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("ok    send test   sent to black@test.local: 250"),
        "{}",
        out.stdout
    );
    let test = wait_for(BLACK, 1);
    assert_eq!(test[0].kind, "test", "{:?}", test[0].subject);
    assert!(
        test[0].body.contains("shtempel doctor --send-test"),
        "{}",
        test[0].body
    );
    assert_eq!(letters_in(""), 1, "doctor takes no letter");

    let path = clerk.dir.path().join("shtempel.toml");
    let good = std::fs::read_to_string(&path).unwrap();
    let broken = |from: &str, to: &str| {
        std::fs::write(&path, good.replace(from, to)).unwrap();
    };
    broken(
        "SHTEMPEL_TEST_IMAP_PASSWORD",
        "SHTEMPEL_TEST_WRONG_PASSWORD",
    );
    let out = clerk.run_with(&["doctor"], &[("SHTEMPEL_TEST_WRONG_PASSWORD", "wrong")]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("FAIL  source      IMAP login to 127.0.0.1:1143 as bot@test.local failed:")
            && out
                .stdout
                .contains("check the user name and the password in $SHTEMPEL_TEST_WRONG_PASSWORD"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("doctor: 1 of 7 checks failed"),
        "{}",
        out.stdout
    );

    broken(
        "processed_mailbox = \"Done\"",
        "processed_mailbox = \"Nowhere\"",
    );
    let out = clerk.run(&["doctor"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("the processed mailbox cannot be opened:")
            && out
                .stdout
                .contains("make it, or check [source] processed_mailbox"),
        "{}",
        out.stdout
    );

    broken("port = 2525", "port = 1");
    let out = clerk.run(&["doctor"]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout
            .contains("FAIL  transport   SMTP 127.0.0.1:1: cannot connect:"),
        "{}",
        out.stdout
    );
    assert_eq!(letters_in(""), 1, "doctor takes no letter");
}

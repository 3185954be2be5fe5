//! A tournament in a temporary folder, driven through the `shtempel` binary
//! (`t.run`, `t.poll`: as cron and the director would) or in this process
//! (`t.pass`, `t.exchange`, `clerk.rs`: the same pass, without a process a
//! letter): letters go into its Maildir with a `Received:` header that sets
//! their postmark, and the outbox is read back as mail.

use std::path::{Path, PathBuf};
use std::process::Command;

use mail_parser::{MessageParser, MimeHeaders, PartType};
use serde_json::Value;

mod clerk;
pub use shtempel::clerk::EventKind;

pub const CLERK: &str = "clerk@test.example";
pub const WHITE: &str = "white@test.example";
pub const BLACK: &str = "black@test.example";
pub const ARBITER: &str = "arbiter@test.example";
pub const SECRETARY: &str = "secretary@test.example";

/// The clerk's own file of a folder of tournaments (`tournaments/`), one
/// database, the test Maildir and file outbox, with `extra` tables after.
pub fn folder_clerk(extra: &str) -> String {
    format!(
        "[bot]\naddress = \"{CLERK}\"\ndatabase = \"db.sqlite\"\ntournaments = \"tournaments\"\n\n\
         [arbiters]\nchief_arbiter = \"{ARBITER}\"\nchief_secretary = \"{SECRETARY}\"\n\n\
         [source]\nkind = \"maildir\"\npath = \"inbox\"\n\n\
         [transport]\nkind = \"file\"\npath = \"outbox\"\n{extra}"
    )
}

pub struct Tournament {
    pub dir: tempfile::TempDir,
    count: usize,
    read: usize,
}

/// A message the clerk sent, as its reader gets it.
#[derive(Debug, Clone)]
pub struct Sent {
    pub kind: String,
    pub game: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub subject: String,
    pub body: String,
    pub headers: String,
    /// (file name, content type, bytes) of each attachment.
    pub attachments: Vec<(String, String, Vec<u8>)>,
    pub message_id: String,
    /// The message as it was written to the outbox.
    pub raw: Vec<u8>,
}

/// The outcome of one run of the binary.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// What the binary says where it caught a panic of its own: of a letter
/// (`run/poison.rs`) or of the whole command (`main.rs`). Its panic hook
/// is silent, so Rust's "panicked at" never shows; these words do.
pub const CAUGHT_PANIC: [&str; 2] = ["the clerk failed on this letter", "internal error"];

impl Output {
    /// Whether the run caught a panic of its own (see [`CAUGHT_PANIC`]).
    pub fn caught_a_panic(&self) -> bool {
        CAUGHT_PANIC
            .iter()
            .any(|said| self.stdout.contains(said) || self.stderr.contains(said))
    }
}

/// The test cup's config with `extra_rules` under `[rules]` and
/// `extra_players` in White's entry (see [`Cup`]).
pub fn config(extra_rules: &str, extra_players: &str) -> String {
    Cup::new()
        .rules(extra_rules)
        .white_has(extra_players)
        .text()
}

/// A tournament's config, built: the test cup (id `T`, in English, White
/// Player against Black Player in game 1, the clerk's Maildir `inbox` and
/// outbox folder `outbox`) with what a test changes.
#[derive(Clone)]
pub struct Cup {
    id: String,
    name: String,
    language: String,
    clerk: String,
    rules: String,
    tables: String,
    players: Vec<Entry>,
    games: Vec<Entry>,
}

/// A `[[players]]` or `[[games]]` entry: its first lines and the lines a
/// test adds.
#[derive(Clone)]
struct Entry {
    id: String,
    lines: String,
}

impl Default for Cup {
    fn default() -> Cup {
        Cup::empty()
            .named("T", "Test cup")
            .player("white", "White Player", WHITE)
            .player("black", "Black Player", BLACK)
            .game("1", "white", "black")
    }
}

impl Cup {
    pub fn new() -> Cup {
        Cup::default()
    }

    /// A cup with no players and no games yet.
    pub fn empty() -> Cup {
        Cup {
            id: String::new(),
            name: String::new(),
            language: "en".into(),
            clerk: CLERK.into(),
            rules: String::new(),
            tables: String::new(),
            players: Vec::new(),
            games: Vec::new(),
        }
    }

    /// The tournament's id and name.
    pub fn named(mut self, id: &str, name: &str) -> Cup {
        (self.id, self.name) = (id.into(), name.into());
        self
    }

    /// The tournament's language (`en`, `ru`).
    pub fn in_language(mut self, language: &str) -> Cup {
        self.language = language.into();
        self
    }

    /// The clerk's own address.
    pub fn clerk(mut self, address: &str) -> Cup {
        self.clerk = address.into();
        self
    }

    pub fn player(mut self, id: &str, name: &str, email: &str) -> Cup {
        let lines = format!("id = \"{id}\"\nname = \"{name}\"\nemail = \"{email}\"\n");
        self.players.push(Entry {
            id: id.into(),
            lines,
        });
        self
    }

    pub fn game(mut self, id: &str, white: &str, black: &str) -> Cup {
        let lines = format!("id = \"{id}\"\nwhite = \"{white}\"\nblack = \"{black}\"\n");
        self.games.push(Entry {
            id: id.into(),
            lines,
        });
        self
    }

    /// A game that starts on `day`, not with the tournament.
    pub fn game_from(self, id: &str, white: &str, black: &str, day: &str) -> Cup {
        let mut cup = self.game(id, white, black);
        let game = cup.games.last_mut().expect("the game just added");
        game.lines.push_str(&format!("start_date = {day}\n"));
        cup
    }

    /// Lines under `[rules]`.
    pub fn rules(mut self, lines: &str) -> Cup {
        self.rules.push_str(lines);
        self.rules.push('\n');
        self
    }

    /// Lines of player `id`'s entry.
    pub fn player_has(mut self, id: &str, lines: &str) -> Cup {
        let entry = self.players.iter_mut().find(|entry| entry.id == id);
        let entry = entry.unwrap_or_else(|| panic!("no player {id}"));
        entry.lines.push_str(lines);
        entry.lines.push('\n');
        self
    }

    /// Lines of White's entry.
    pub fn white_has(self, lines: &str) -> Cup {
        self.player_has("white", lines)
    }

    /// A table of its own before `[rules]` (`[security]`, `[report]`).
    pub fn table(mut self, text: &str) -> Cup {
        self.tables.push_str(text);
        self.tables.push_str("\n\n");
        self
    }

    /// Senders proved by the receiving server's DKIM pass only.
    pub fn secured(self) -> Cup {
        self.table("[security]\ntrusted_authserv_id = \"mx.test.example\"\nrequire = \"dkim\"")
    }

    pub fn text(&self) -> String {
        let entries = |table: &str, entries: &[Entry]| -> String {
            entries
                .iter()
                .map(|entry| format!("[[{table}]]\n{}\n", entry.lines))
                .collect()
        };
        let (id, name, language, clerk) = (&self.id, &self.name, &self.language, &self.clerk);
        let (tables, rules) = (&self.tables, &self.rules);
        let players = entries("players", &self.players);
        let games = entries("games", &self.games);
        format!(
            r#"[tournament]
id = "{id}"
name = "{name}"
start_date = 2026-11-01
end_date = 2028-11-01
timezone = "Europe/Moscow"
language = "{language}"

{tables}[rules]
{rules}
[bot]
address = "{clerk}"
database = "db.sqlite"
templates = "templates"

[arbiters]
chief_arbiter = "{ARBITER}"
chief_secretary = "{SECRETARY}"

[source]
kind = "maildir"
path = "inbox"

[transport]
kind = "file"
path = "outbox"

{players}{games}"#
        )
    }

    /// The tournament in a folder of its own, nothing played.
    pub fn open(&self) -> Tournament {
        Tournament::with_config(&self.text())
    }
}

/// White's 1. e4, sent on 3 November after 2 days.
pub const W1: &str = "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n";
/// Black's 1... e5, sent on 7 November after 4 days.
pub const B1: &str = "Game 1\n1... e5\nTime: 2/4\nDates: 2026-11-03, 2026-11-03, 2026-11-07\n";

/// White's 1. e4 on 25 December after 54 days, over the 50 (with
/// `silent_overstep = false` added to `cup`'s rules): the overstep's file
/// goes to the chief arbiter. The tournament after that poll, and its mail.
pub fn white_oversteps(cup: Cup) -> (Tournament, Vec<Sent>) {
    let mut t = cup.rules("silent_overstep = false").open();
    t.letter(
        WHITE,
        "2026-12-25",
        "Game 1",
        "Game 1\n1. e4\nTime: 54/0\nDates: 2026-12-25\n",
    );
    t.poll("2026-12-25");
    let mail = t.new_mail();
    (t, mail)
}

/// The chief arbiter's REJECT of White's overstep ([`white_oversteps`]) on
/// 10 February: the game resumes, Black to move. The mail of that pass.
pub fn overstep_rejected(t: &mut Tournament) -> Vec<Sent> {
    t.exchange(ARBITER, "2027-02-10", "Re: [T #1]", "REJECT 1\n")
}

pub fn pick<'a>(language: &str, en: &'a str, ru: &'a str) -> &'a str {
    match language {
        "ru" => ru,
        _ => en,
    }
}

impl Sent {
    /// Asserts that its text says `text`, showing the text where not.
    #[track_caller]
    pub fn says(&self, text: &str) {
        assert!(
            self.body.contains(text),
            "{} to {:?} does not say {text:?}:\n{}",
            self.kind,
            self.to,
            self.body
        );
    }

    /// Asserts that its text does not say `text`.
    #[track_caller]
    pub fn never_says(&self, text: &str) {
        assert!(
            !self.body.contains(text),
            "{} to {:?} says {text:?}:\n{}",
            self.kind,
            self.to,
            self.body
        );
    }
}

impl Tournament {
    pub fn new() -> Tournament {
        Tournament::with_config(&config("", ""))
    }

    pub fn with_config(text: &str) -> Tournament {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("shtempel.toml"), text).unwrap();
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir_all(dir.path().join("inbox").join(sub)).unwrap();
        }
        Tournament {
            dir,
            count: 0,
            read: 0,
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Delivers raw bytes into the Maildir.
    pub fn deliver_raw(&mut self, raw: &[u8]) -> PathBuf {
        self.count += 1;
        let name = format!("{:04}.test", self.count);
        let path = self.path().join("inbox/new").join(name);
        std::fs::write(&path, raw).unwrap();
        path
    }

    /// A plain UTF-8 letter from `from`, arriving at noon Moscow time on `day`.
    pub fn letter(&mut self, from: &str, day: &str, subject: &str, body: &str) -> PathBuf {
        self.letter_with(from, day, subject, body, "")
    }

    /// A letter to someone else with the clerk in copy (Cc mode).
    pub fn letter_cc(
        &mut self,
        from: &str,
        to: &str,
        day: &str,
        subject: &str,
        body: &str,
    ) -> PathBuf {
        let cc = format!("Cc: {CLERK}\r\n");
        let raw = message(from, to, day, subject, body, &cc, self.count + 1);
        self.deliver_raw(raw.as_bytes())
    }

    pub fn letter_with(
        &mut self,
        from: &str,
        day: &str,
        subject: &str,
        body: &str,
        headers: &str,
    ) -> PathBuf {
        let raw = message(from, CLERK, day, subject, body, headers, self.count + 1);
        self.deliver_raw(raw.as_bytes())
    }

    /// Runs the binary with `args`; a `--today` after the machine's date
    /// is meant (`--future`): the tests' days run on past it.
    pub fn run(&self, args: &[&str]) -> Output {
        let mut all = vec!["--future"];
        all.extend_from_slice(args);
        self.run_as_given(&all)
    }

    /// Runs the binary with `args` and nothing added.
    pub fn run_as_given(&self, args: &[&str]) -> Output {
        let output = Command::new(env!("CARGO_BIN_EXE_shtempel"))
            .arg("--config")
            .arg(self.path().join("shtempel.toml"))
            .args(args)
            .output()
            .expect("run shtempel");
        Output {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    /// Runs `poll --today DAY`; it must succeed.
    pub fn poll(&self, day: &str) -> Output {
        let out = self.run(&["poll", "--today", day]);
        assert_eq!(
            out.code, 0,
            "poll {day} failed:\n{}\n{}",
            out.stdout, out.stderr
        );
        out
    }

    /// The opening of game 1 the suites share: 1. e4 (3 November, 2 days)
    /// 1... e5 (7 November, 4 days), totals 2/4, its mail read.
    pub fn opening(&mut self) {
        self.letter(WHITE, "2026-11-03", "Game 1", W1);
        self.pass("2026-11-03");
        self.letter(BLACK, "2026-11-07", "Re: [T #1] 1. e4", B1);
        self.pass("2026-11-07");
        self.new_mail();
    }

    /// A letter from `from` on `day` and the pass of that day, in this
    /// process: what the clerk sent for it.
    pub fn exchange(&mut self, from: &str, day: &str, subject: &str, body: &str) -> Vec<Sent> {
        self.letter(from, day, subject, body);
        self.pass(day);
        self.new_mail()
    }

    /// Every message sent so far, in order.
    pub fn outbox(&self) -> Vec<Sent> {
        let dir = self.path().join("outbox");
        let mut names: Vec<PathBuf> = match std::fs::read_dir(&dir) {
            Ok(entries) => entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "eml"))
                .collect(),
            Err(_) => Vec::new(),
        };
        names.sort();
        names
            .iter()
            .map(|path| parse_sent(&std::fs::read(path).unwrap()))
            .collect()
    }

    /// The messages sent since the last call.
    pub fn new_mail(&mut self) -> Vec<Sent> {
        let all = self.outbox();
        let fresh = all[self.read..].to_vec();
        self.read = all.len();
        fresh
    }

    /// The game's time chart as `chart GAME --format json` gives it, read
    /// in this process from the tournament's database (one tournament).
    pub fn chart(&self, game: &str) -> Value {
        let configs = shtempel::config::load_all(&self.path().join("shtempel.toml"))
            .expect("the config loads");
        let [config] = configs.as_slice() else {
            panic!("t.chart reads a file of one tournament; run `chart --tournament`");
        };
        let store = shtempel::store::Store::open(&config.database).expect("the database opens");
        let game = config
            .draw()
            .game(game)
            .unwrap_or_else(|| panic!("no game {game}"));
        let state = shtempel::clerk::load(config, &store, game).expect("the game loads");
        shtempel::clerk::stored_chart(&state, config, &store, config.language)
            .expect("its chart")
            .to_json()
    }

    /// The game's moves in SAN, as its chart gives them.
    pub fn sans(&self, game: &str) -> Vec<String> {
        let chart = self.chart(game);
        let moves = chart["moves"].as_array().expect("the chart's moves");
        moves
            .iter()
            .map(|m| m["san"].as_str().expect("a move's SAN").to_string())
            .collect()
    }

    pub fn totals(&self, game: &str) -> (u64, u64) {
        let chart = self.chart(game);
        (
            chart["totals"]["white"].as_u64().unwrap(),
            chart["totals"]["black"].as_u64().unwrap(),
        )
    }
}

/// A message as a player's mail program would send it.
pub fn message(
    from: &str,
    to: &str,
    day: &str,
    subject: &str,
    body: &str,
    headers: &str,
    seq: usize,
) -> String {
    let date = chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .unwrap()
        .format("%a, %d %b %Y")
        .to_string();
    format!(
        "Received: from mx.test.example by mail.test.example; {date} 12:00:00 +0300\r\n\
         From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: {date} 11:59:00 +0300\r\n\
         Message-ID: <letter-{seq}-{day}@test.example>\r\nMIME-Version: 1.0\r\n\
         {headers}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
}

pub fn parse_sent(raw: &[u8]) -> Sent {
    let message = MessageParser::default()
        .parse(raw)
        .expect("our own message parses");
    let addresses = |list: Option<&mail_parser::Address<'_>>| -> Vec<String> {
        list.map(|l| {
            l.iter()
                .filter_map(|a| a.address().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
    };
    let header_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(raw.len());
    let attachments = message
        .attachments()
        .map(|part| {
            let name = part.attachment_name().unwrap_or("").to_string();
            let ctype = part
                .content_type()
                .map(|c| format!("{}/{}", c.ctype(), c.subtype().unwrap_or("")))
                .unwrap_or_default();
            let bytes = match &part.body {
                PartType::Message(inner) => inner.raw_message().to_vec(),
                PartType::Text(text) => text.as_bytes().to_vec(),
                PartType::Binary(bytes) | PartType::InlineBinary(bytes) => bytes.to_vec(),
                _ => Vec::new(),
            };
            (name, ctype, bytes)
        })
        .collect();
    Sent {
        kind: message
            .header_raw("X-Shtempel-Kind")
            .unwrap_or("")
            .trim()
            .to_string(),
        game: message
            .header_raw("X-Shtempel-Game")
            .unwrap_or("")
            .trim()
            .to_string(),
        to: addresses(message.to()),
        cc: addresses(message.cc()),
        subject: message.subject().unwrap_or("").to_string(),
        body: message
            .body_text(0)
            .map(|b| b.into_owned())
            .unwrap_or_default(),
        headers: String::from_utf8_lossy(&raw[..header_end]).into_owned(),
        attachments,
        message_id: message.message_id().unwrap_or("").to_string(),
        raw: raw.to_vec(),
    }
}

/// The kinds and first recipients of messages, for compact assertions.
pub fn kinds(mail: &[Sent]) -> Vec<(String, String)> {
    mail.iter()
        .map(|m| (m.kind.clone(), m.to.first().cloned().unwrap_or_default()))
        .collect()
}

pub fn pair(kind: &str, to: &str) -> (String, String) {
    (kind.to_string(), to.to_string())
}

/// A folder of `../shared` (the project's shared corpora), or `None` where it
/// is missing and the test may be skipped. Under CI (`SHTEMPEL_REQUIRE_SHARED`
/// set) a missing folder fails the test instead.
pub fn shared_dir(relative: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(relative);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("SHTEMPEL_REQUIRE_SHARED").is_none(),
        "{} is missing, and SHTEMPEL_REQUIRE_SHARED is set",
        dir.display()
    );
    eprintln!("no {}: skipped", dir.display());
    None
}

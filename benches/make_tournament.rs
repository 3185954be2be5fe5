//! The load generator: a tournament of N games × M move letters in a Maildir,
//! with a matching config, for the benchmarks of `benches/`.
//!
//! ```text
//! cargo run --release --features loadgen --bin make-tournament -- \
//!     --games 500 --letters 20 --out /tmp/load [--seed 1] [--lang en] [--players P]
//! ```
//!
//! Each game has two players of its own, or, with `--players P`, the games
//! are those of a round robin of P players (at most P(P-1)/2), in order.
//! With `--tournaments T`, the games are split among T tournaments of a
//! folder (`config.toml` is then the clerk's file, `tournaments/tNNN.toml`
//! the events), each numbering its games from 1.
//!
//! Every game is a legal random game (no move that ends it), every letter states
//! the true fraction and dates, so the clerk answers each with an `ack` and the
//! benchmark measures the clerk's normal path. Letters vary as players write
//! them: English SAN, Russian piece letters, long algebraic and ICCF numeric;
//! English and Russian words; plain text and HTML-only; some with a quoted
//! reply below. Most letters copy the partner (Cc: nothing to forward); the last
//! letter of every other game goes to the clerk alone and is forwarded.
//!
//! Days per move come in shuffled blocks of 0,1,2,3,4 so that, with a multiple
//! of 5 letters, every game spans the same calendar and none oversteps, by
//! letter or by silence, on the day printed to `today.txt` (the day of the last
//! letters: poll with `--today`). Other counts span a few days more or less.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use chrono::{Duration, NaiveDate};
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Color, Move, Position, Role};

/// xorshift64*: small, seeded, the same letters on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

struct Options {
    games: usize,
    letters: usize,
    out: PathBuf,
    seed: u64,
    lang: String,
    /// A round robin of this many players instead of two players a game.
    players: Option<usize>,
    /// The games split among this many tournaments of a folder.
    tournaments: Option<usize>,
    /// Letters of `STATUS` alone, from the players in turn, on the last day.
    status: usize,
    /// Players (in turn, as `status`) who ask for a daily digest
    /// (`DIGEST DAILY`) on the first day, before their moves.
    digest: usize,
}

fn options() -> Result<Options, String> {
    let mut options = Options {
        games: 500,
        letters: 20,
        out: PathBuf::from("load"),
        seed: 1,
        lang: "en".into(),
        players: None,
        tournaments: None,
        status: 0,
        digest: 0,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        let number = || value.parse::<usize>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--games" => options.games = number()?,
            "--letters" => options.letters = number()?,
            "--seed" => options.seed = number()? as u64,
            "--out" => options.out = PathBuf::from(&value),
            "--lang" => options.lang = value,
            "--players" => options.players = Some(number()?),
            "--tournaments" => options.tournaments = Some(number()?.max(1)),
            "--status" => options.status = number()?,
            "--digest" => options.digest = number()?,
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if options.letters == 0 || options.games == 0 {
        return Err("--games and --letters must be at least 1".into());
    }
    if let Some(players) = options.players
        && options.games > players * players.saturating_sub(1) / 2
    {
        return Err(format!(
            "a round robin of {players} players has fewer than {} games",
            options.games
        ));
    }
    Ok(options)
}

/// Game `game`'s tournament (from 1) and its id there, with `--tournaments`.
fn placed(options: &Options, game: usize) -> Option<(usize, usize)> {
    let tournaments = options.tournaments?;
    let per = options.games.div_ceil(tournaments);
    Some(((game - 1) / per + 1, (game - 1) % per + 1))
}

/// The ids of game `game`'s White and Black.
fn pairing(options: &Options, game: usize) -> (String, String) {
    let Some(players) = options.players else {
        return (format!("w{game}"), format!("b{game}"));
    };
    let mut left = game - 1;
    for first in 1..players {
        let rounds = players - first;
        if left < rounds {
            let second = first + 1 + left;
            // Colours alternate, so each player has both.
            return if game.is_multiple_of(2) {
                (format!("p{first}"), format!("p{second}"))
            } else {
                (format!("p{second}"), format!("p{first}"))
            };
        }
        left -= rounds;
    }
    unreachable!("checked in options()")
}

/// A player's address.
fn address(id: &str) -> String {
    match (id.strip_prefix('w'), id.strip_prefix('b')) {
        (Some(n), _) => format!("white{n}@players.example"),
        (_, Some(n)) => format!("black{n}@players.example"),
        _ => format!("{id}@players.example"),
    }
}

const START: (i32, u32, u32) = (2026, 11, 1);

fn start_date() -> NaiveDate {
    NaiveDate::from_ymd_opt(START.0, START.1, START.2).expect("a real date")
}

/// One ply in the notations players use.
fn written(position: &Chess, mv: &Move, notation: usize) -> String {
    let san = San::from_move(position, *mv).to_string();
    match notation {
        0 => san,
        1 => russian(&san),
        2 => long_algebraic(mv),
        _ => iccf(mv),
    }
}

fn russian(san: &str) -> String {
    san.replace("O-O-O", "0-0-0")
        .replace("O-O", "0-0")
        .chars()
        .map(|c| match c {
            'K' => "Кр".to_string(),
            'Q' => "Ф".into(),
            'R' => "Л".into(),
            'B' => "С".into(),
            'N' => "К".into(),
            'x' => ":".into(),
            other => other.to_string(),
        })
        .collect()
}

fn long_algebraic(mv: &Move) -> String {
    if let Some(side) = mv.castling_side() {
        return if side.is_king_side() { "O-O" } else { "O-O-O" }.into();
    }
    let piece = match mv.role() {
        Role::Pawn => "",
        role => match role.upper_char() {
            'K' => "K",
            'Q' => "Q",
            'R' => "R",
            'B' => "B",
            _ => "N",
        },
    };
    let from = mv.from().map(|s| s.to_string()).unwrap_or_default();
    let sign = if mv.is_capture() { "x" } else { "-" };
    let promotion = mv
        .promotion()
        .map(|r| format!("={}", r.upper_char()))
        .unwrap_or_default();
    format!("{piece}{from}{sign}{}{promotion}", mv.to())
}

fn iccf(mv: &Move) -> String {
    let uci = mv.to_uci(CastlingMode::Standard).to_string();
    let bytes = uci.as_bytes();
    let square = |file: u8, rank: u8| format!("{}{}", file - b'a' + 1, rank as char);
    let mut text = square(bytes[0], bytes[1]) + &square(bytes[2], bytes[3]);
    if let Some(&piece) = bytes.get(4) {
        text.push(match piece {
            b'q' => '1',
            b'r' => '2',
            b'b' => '3',
            _ => '4',
        });
    }
    text
}

/// A random legal game of `plies` plies in which no move ends the game.
fn random_game(rng: &mut Rng, plies: usize) -> Vec<(Chess, Move)> {
    'attempt: loop {
        let mut position = Chess::default();
        let mut moves = Vec::with_capacity(plies);
        for _ in 0..plies {
            let legal = position.legal_moves();
            let start = rng.below(legal.len());
            let found = (0..legal.len())
                .map(|i| &legal[(start + i) % legal.len()])
                .find(|mv| {
                    let mut next = position.clone();
                    next.play_unchecked(**mv);
                    !next.is_game_over()
                });
            let Some(mv) = found.cloned() else {
                continue 'attempt;
            };
            moves.push((position.clone(), mv));
            position.play_unchecked(mv);
        }
        return moves;
    }
}

/// Days per move: blocks of 0..=4 shuffled, so every game spans the same days.
fn schedule(rng: &mut Rng, plies: usize) -> Vec<i64> {
    let mut days = Vec::with_capacity(plies);
    while days.len() < plies {
        let mut block = [0i64, 1, 2, 3, 4];
        for i in (1..block.len()).rev() {
            block.swap(i, rng.below(i + 1));
        }
        days.extend_from_slice(&block);
    }
    days
}

fn date_text(date: NaiveDate, russian: bool) -> String {
    if russian {
        date.format("%d.%m.%Y").to_string()
    } else {
        date.format("%Y-%m-%d").to_string()
    }
}

struct Letter {
    game: usize,
    ply: usize,
    from: String,
    cc: Option<String>,
    sent: NaiveDate,
    body: String,
    html: bool,
}

impl Letter {
    fn eml(&self, subject: &str) -> String {
        let date = self.sent.format("%a, %d %b %Y");
        // Minutes after 08:00 by ply keep a game's same-day letters in order
        // (a letter of its own, numbered from 10,000, within its day).
        let minutes = (8 * 60 + self.ply as u32 / 2) % (24 * 60);
        let time = format!(
            "{:02}:{:02}:{:02}",
            minutes / 60,
            minutes % 60,
            (self.ply % 2) * 30
        );
        let mut head = format!(
            "Received: from mx.players.example by clerk.load.example with ESMTP; {date} {time} +0300\r\n\
             From: {from}\r\nTo: clerk@load.example\r\n",
            from = self.from,
        );
        if let Some(cc) = &self.cc {
            let _ = write!(head, "Cc: {cc}\r\n");
        }
        let _ = write!(
            head,
            "Subject: {subject}\r\nDate: {date} {time} +0300\r\n\
             Message-ID: <g{}-p{}@players.example>\r\nMIME-Version: 1.0\r\n",
            self.game, self.ply
        );
        if self.html {
            let divs: String = self
                .body
                .lines()
                .map(|l| format!("<div>{}</div>", l.replace('<', "&lt;")))
                .collect();
            format!(
                "{head}Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
                 <html><body>{divs}</body></html>\r\n"
            )
        } else {
            format!(
                "{head}Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
                self.body.replace('\n', "\r\n")
            )
        }
    }
}

/// The letters of one game, in order.
/// The letters of game `game`, which they name `label` (its id in its
/// tournament).
fn game_letters(
    rng: &mut Rng,
    (game, label): (usize, usize),
    count: usize,
    (white, black): (String, String),
) -> Vec<(Letter, String)> {
    let moves = random_game(rng, count);
    let days = schedule(rng, count);
    let start = start_date();
    let forward_last = game.is_multiple_of(2);
    let mut totals = [0i64; 2];
    let mut delivered = start;
    let mut previous_sent: Option<NaiveDate> = None;
    let mut letters = Vec::with_capacity(count);
    for (ply, ((position, mv), day)) in moves.iter().zip(&days).enumerate() {
        let side = ply % 2;
        let sent = delivered + Duration::days(*day);
        totals[side] += day;
        let russian = rng.below(3) == 0;
        let notation = if russian {
            1
        } else {
            [0, 0, 2, 3][rng.below(4)]
        };
        let number = ply / 2 + 1;
        let dots = if position.turn() == Color::White {
            "."
        } else {
            "..."
        };
        let mut body = String::new();
        if rng.below(2) == 0 {
            body.push_str(if russian {
                "Добрый день!\n\n"
            } else {
                "Hello,\n\n"
            });
        }
        let _ = writeln!(body, "{} {label}", if russian { "Партия" } else { "Game" });
        let _ = writeln!(body, "{number}{dots} {}", written(position, mv, notation));
        let _ = writeln!(
            body,
            "{} {}/{}",
            if russian { "Время:" } else { "Time:" },
            totals[0],
            totals[1]
        );
        let dates = match previous_sent {
            None => date_text(sent, russian),
            Some(partner) => format!(
                "{}, {}, {}",
                date_text(partner, russian),
                date_text(delivered, russian),
                date_text(sent, russian)
            ),
        };
        let _ = writeln!(body, "{} {dates}", if russian { "Даты:" } else { "Dates:" });
        body.push_str(if russian {
            "\nС уважением\n"
        } else {
            "\nRegards\n"
        });
        if rng.below(4) == 0 && ply > 0 {
            let _ = write!(
                body,
                "\n{}\n> {} {label}\n> {number}. ...\n",
                if russian {
                    "Пн, 2 нояб. 2026 г. в 10:00, Партнёр <partner@players.example>:"
                } else {
                    "On Mon, 2 Nov 2026 at 10:00, Partner <partner@players.example> wrote:"
                },
                if russian { "Партия" } else { "Game" }
            );
        }
        let (from, to) = if side == 0 {
            (&white, &black)
        } else {
            (&black, &white)
        };
        let last = ply + 1 == count;
        let direct = !(last && forward_last);
        let subject = format!("{} {label}", if russian { "Партия" } else { "Game" });
        letters.push((
            Letter {
                game,
                ply,
                from: from.clone(),
                cc: direct.then(|| to.clone()),
                sent,
                body,
                html: rng.below(10) == 0,
            },
            subject,
        ));
        previous_sent = Some(sent);
        // A copied partner has the move the day it was sent.
        delivered = sent;
    }
    letters
}

fn config(options: &Options) -> String {
    let mut text = format!(
        "# Generated by benches/make_tournament.rs: {} games x {} letters.\n\
         [tournament]\nid = \"LOAD\"\nname = \"Load test\"\nstart_date = 2026-11-01\n\
         end_date = 2036-11-01\ntimezone = \"Europe/Moscow\"\nlanguage = \"{}\"\n\n\
         [bot]\naddress = \"clerk@load.example\"\ndatabase = \"shtempel.sqlite\"\ntemplates = \"templates\"\n\n\
         [arbiters]\nchief_arbiter = \"arbiter@load.example\"\nchief_secretary = \"secretary@load.example\"\n\n\
         # A season imported in one run: every player gets one reply per letter.\n\
         [limits]\nmax_replies_per_day = 100000\n\n\
         [source]\nkind = \"maildir\"\npath = \"inbox\"\n\n\
         [transport]\nkind = \"file\"\npath = \"outbox\"\n\n",
        options.games, options.letters, options.lang
    );
    let players: Vec<(String, String)> = match options.players {
        Some(players) => (1..=players)
            .map(|n| (format!("p{n}"), format!("Player {n}")))
            .collect(),
        None => (1..=options.games)
            .flat_map(|game| {
                [
                    (format!("w{game}"), format!("White {game}")),
                    (format!("b{game}"), format!("Black {game}")),
                ]
            })
            .collect(),
    };
    for (id, name) in &players {
        let _ = write!(
            text,
            "[[players]]\nid = \"{id}\"\nname = \"{name}\"\nemail = \"{}\"\n\n",
            address(id)
        );
    }
    for game in 1..=options.games {
        let (white, black) = pairing(options, game);
        let _ = write!(
            text,
            "[[games]]\nid = \"{game}\"\nwhite = \"{white}\"\nblack = \"{black}\"\n\n"
        );
    }
    text
}

/// The clerk's file and a tournament file each (see `--tournaments`).
fn write_folder(options: &Options) -> std::io::Result<()> {
    let single = config(options);
    // The clerk's tables are those of the single file, after its players.
    let tables = single
        .split("[[players]]")
        .next()
        .unwrap_or_default()
        .split("[bot]")
        .nth(1)
        .unwrap_or_default();
    let clerk = format!("[bot]{tables}").replacen(
        "database = ",
        "tournaments = \"tournaments\"\ndatabase = ",
        1,
    );
    fs::write(options.out.join("config.toml"), clerk)?;
    let folder = options.out.join("tournaments");
    fs::create_dir_all(&folder)?;
    let mut files: Vec<String> = Vec::new();
    for game in 1..=options.games {
        let Some((tournament, id)) = placed(options, game) else {
            continue;
        };
        if files.len() < tournament {
            files.push(format!(
                "[tournament]\nid = \"T{tournament:03}\"\nname = \"Event {tournament}\"\n\
                 start_date = 2026-11-01\nend_date = 2036-11-01\ntimezone = \"Europe/Moscow\"\n\
                 language = \"{}\"\n\n",
                options.lang
            ));
        }
        let text = files.last_mut().expect("a file for the tournament");
        let (white, black) = pairing(options, game);
        for player in [&white, &black] {
            // A round robin's players come back: once a file each.
            if text.contains(&format!("id = \"{player}\"\n")) {
                continue;
            }
            let _ = write!(
                text,
                "[[players]]\nid = \"{player}\"\nname = \"{player}\"\nemail = \"{}\"\n\n",
                address(player)
            );
        }
        let _ = write!(
            text,
            "[[games]]\nid = \"{id}\"\nwhite = \"{white}\"\nblack = \"{black}\"\n\n"
        );
    }
    for (at, text) in files.iter().enumerate() {
        fs::write(folder.join(format!("t{:03}.toml", at + 1)), text)?;
    }
    Ok(())
}

fn main() {
    let options = match options() {
        Ok(options) => options,
        Err(error) => {
            eprintln!("make-tournament: {error}");
            eprintln!(
                "usage: make-tournament --games N --letters M --out DIR [--seed S] [--lang en|ru] [--status K] [--digest K]"
            );
            std::process::exit(2);
        }
    };
    let new = options.out.join("inbox/new");
    for dir in ["inbox/new", "inbox/cur", "inbox/tmp"] {
        fs::create_dir_all(options.out.join(dir)).expect("cannot create the Maildir");
    }
    match options.tournaments {
        None => fs::write(options.out.join("config.toml"), config(&options)),
        Some(_) => write_folder(&options),
    }
    .expect("cannot write config");
    let mut rng = Rng(options.seed.max(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut last = start_date();
    let mut bytes = 0usize;
    for game in 1..=options.games {
        let (white, black) = pairing(&options, game);
        let addresses = (address(&white), address(&black));
        let label = placed(&options, game).map_or(game, |(_, id)| id);
        for (letter, subject) in game_letters(&mut rng, (game, label), options.letters, addresses) {
            last = last.max(letter.sent);
            let eml = letter.eml(&subject);
            bytes += eml.len();
            let name = format!("{}.g{:05}p{:04}.load", letter.sent, letter.game, letter.ply);
            fs::write(new.join(name), eml).expect("cannot write a letter");
        }
    }
    // DIGEST DAILY letters, one a player in turn, the day before the first:
    // every later letter to him is kept for his digest.
    let before = start_date().pred_opt().unwrap_or(start_date());
    for n in 0..options.digest {
        let letter = ask(&options, n, 20_000, before, "DIGEST DAILY\n");
        bytes += write_ask(&new, &letter, "settings", &format!("a{n:05}"));
    }
    // STATUS letters, one a player in turn (White 1, Black 1, White 2, ...),
    // on the last day, after its moves.
    for n in 0..options.status {
        let body = if n % 3 == 0 {
            "СТАТУС\n"
        } else {
            "STATUS\n"
        };
        let letter = ask(&options, n, 10_000, last, body);
        bytes += write_ask(&new, &letter, "status", &format!("s{n:05}"));
    }
    fs::write(options.out.join("today.txt"), format!("{last}\n")).expect("cannot write today");
    println!(
        "{} letters ({} games x {}, {} STATUS, {} DIGEST), {} KB, last postmark {last}: poll with --today {last}",
        options.games * options.letters + options.status + options.digest,
        options.games,
        options.letters,
        options.status,
        options.digest,
        bytes / 1024
    );
}

/// The `n`th player's letter (White 1, Black 1, White 2, ...) of `body`
/// alone, sent on `sent`, numbered from `from` among his game's letters.
fn ask(options: &Options, n: usize, from: usize, sent: NaiveDate, body: &str) -> Letter {
    let game = n / 2 % options.games + 1;
    let (white, black) = pairing(options, game);
    Letter {
        game,
        ply: from + n,
        from: address(if n.is_multiple_of(2) { &white } else { &black }),
        cc: None,
        sent,
        body: body.into(),
        html: false,
    }
}

/// Writes `letter` into `new` under `{day}.{name}.load`; its size.
fn write_ask(new: &Path, letter: &Letter, subject: &str, name: &str) -> usize {
    let eml = letter.eml(subject);
    fs::write(new.join(format!("{}.{name}.load", letter.sent)), &eml)
        .expect("cannot write a letter");
    eml.len()
}

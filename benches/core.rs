//! Criterion benchmarks of the pure core, in letters per second:
//!
//! - `reader/read`: the letter reader over the golden corpus (`tests/letters/*.txt`:
//!   63 bodies, Russian and English, every notation, quoted replies);
//! - `reader/mime+read`: the MIME front end and the reader over the demo's
//!   `.eml` letters (windows-1251 HTML, base64, plain);
//! - `rules/judge`: the verdict on one letter against a 40-letter ledger;
//! - `board/apply`: one letter's moves resolved on the board;
//! - `ratings/fide`, `ratings/glicko2`: a federation's lists, 2,000 players
//!   over 20,000 games finished in three years (twelve quarterly lists), a
//!   third of the players given a rating (the target: under a second).
//!
//! `cargo bench --bench core` (figures only; nothing here fails on time).

use std::hint::black_box;

use chrono::NaiveDate;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::{ByColor, Color};
use shtempel::game::Game;
use shtempel::letter;
use shtempel::mail::format::mime;
use shtempel::ratings;
use shtempel::rules::{Calendar, Incoming, Ledger, NewPly, Rules, judge};

/// The files of `dir` (under the project) ending in `.ext`, sorted by name.
fn files(dir: &str, ext: &str) -> Vec<Vec<u8>> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("a folder of the project")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| std::fs::read(p).expect("a letter"))
        .collect()
}

fn day(n: i64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 1).unwrap() + chrono::Duration::days(n)
}

fn reader(c: &mut Criterion) {
    let bodies: Vec<String> = files("tests/letters", "txt")
        .into_iter()
        .map(|b| String::from_utf8(b).expect("UTF-8 corpus"))
        .collect();
    let mut group = c.benchmark_group("reader");
    group.throughput(Throughput::Elements(bodies.len() as u64));
    group.bench_function("read", |b| {
        b.iter(|| {
            for body in &bodies {
                black_box(letter::read(black_box(body)));
            }
        })
    });
    let letters = files("src/demo", "eml");
    group.throughput(Throughput::Elements(letters.len() as u64));
    group.bench_function("mime+read", |b| {
        b.iter(|| {
            for raw in &letters {
                if let Some(mail) = mime::parse(black_box(raw), "clerk@demo.example") {
                    black_box(letter::read(&mail.text));
                }
            }
        })
    });
    group.finish();
}

/// A ledger of `plies` plies, two days each, delivered the day they were sent.
fn ledger_of(plies: usize) -> (Ledger, Game) {
    let rules = Rules::default();
    let calendar = Calendar::new(day(0), day(2000), ByColor::default());
    let mut ledger = Ledger::new(calendar);
    let mut game = Game::new();
    let shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"];
    for ply in 0..plies {
        let by = if ply % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let read = letter::read(&format!(
            "{}{} {}",
            ply / 2 + 1,
            if by == Color::White { "." } else { "..." },
            shuffle[ply % 4]
        ));
        let applied = game.apply(by, &read.moves, &read.variants).expect("legal");
        let sent = day(2 * ply as i64 + 2);
        let incoming = Incoming {
            by,
            sent_on: sent,
            stated: Default::default(),
            plies: applied.plies.clone(),
            partner_direct: true,
            channel: shtempel::rules::Channel::Letter,
        };
        let verdict = judge(&rules, &ledger, &incoming);
        ledger.record(&verdict);
        game = applied.game;
    }
    (ledger, game)
}

fn rules(c: &mut Criterion) {
    let rules = Rules::default();
    let (ledger, game) = ledger_of(40);
    let text = "Game 1\n21. Nf3\nTime: 40/40\nDates: 2026-12-21, 2026-12-21, 2026-12-23";
    let read = letter::read(text);
    let mut group = c.benchmark_group("rules");
    group.throughput(Throughput::Elements(1));
    group.bench_function("judge", |b| {
        let plies = vec![NewPly {
            by: Color::White,
            san: "Nf3".into(),
            conditional: false,
        }];
        b.iter(|| {
            let incoming = Incoming {
                by: Color::White,
                sent_on: day(83),
                stated: read.stated(day(83)),
                plies: plies.clone(),
                partner_direct: false,
                channel: shtempel::rules::Channel::Letter,
            };
            black_box(judge(&rules, black_box(&ledger), &incoming))
        })
    });
    group.bench_function("board-apply", |b| {
        b.iter(|| black_box(game.apply(Color::White, &read.moves, &read.variants)))
    });
    group.finish();
}

/// What the board costs a forward: its text diagram and FEN, and
/// its picture, after 40 plies.
fn board(c: &mut Criterion) {
    let (_, game) = ledger_of(40);
    let position = game.position();
    let last = game.moves().last().map(|played| played.mv);
    let letters = shtempel::board::diagram::PieceLetters::english();
    let mut group = c.benchmark_group("board");
    group.throughput(Throughput::Elements(1));
    group.bench_function("text-and-fen", |b| {
        b.iter(|| {
            let text =
                shtempel::board::diagram::text(position, Color::Black, last.as_ref(), &letters);
            black_box((text, shtempel::board::diagram::fen(position)))
        })
    });
    group.bench_function("picture", |b| {
        b.iter(|| {
            black_box(shtempel::board::picture::png(
                position,
                Color::Black,
                last.as_ref(),
            ))
        })
    });
    group.finish();
}

/// 2,000 players, a third with a rating given; 20,000 games, each in an
/// event begun some weeks before it ended, their ends spread over 2027 to
/// 2029 and their results drawn from a fixed sequence.
fn federation() -> (Vec<ratings::Player>, Vec<ratings::Game>) {
    let players: Vec<ratings::Player> = (0..2000u32)
        .map(|n| ratings::Player {
            key: format!("p{n}"),
            name: format!("Player {n}"),
            start: (n % 3 == 0).then_some(1600 + (n * 37) % 900),
            start_source: None,
        })
        .collect();
    let first = NaiveDate::from_ymd_opt(2027, 1, 1).unwrap();
    let mut seed: u64 = 63;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let games = (0..20_000)
        .map(|_| {
            let white = (next() % 2000) as usize;
            let black = (white + 1 + (next() % 1999) as usize) % 2000;
            let ended = first + chrono::Duration::days((next() % 1090) as i64);
            ratings::Game {
                white,
                black,
                white_halves: (next() % 3) as u8,
                began: ended - chrono::Duration::days(30 + (next() % 300) as i64),
                ended,
                forfeit: false,
            }
        })
        .collect();
    (players, games)
}

fn rating_lists(c: &mut Criterion) {
    let (players, games) = federation();
    let today = NaiveDate::from_ymd_opt(2030, 1, 1).unwrap();
    let mut group = c.benchmark_group("ratings");
    group.sample_size(10);
    group.throughput(Throughput::Elements(games.len() as u64));
    for method in [ratings::Method::Fide, ratings::Method::Glicko2] {
        let settings = ratings::Settings {
            method,
            ..ratings::Settings::default()
        };
        group.bench_function(method.name(), |b| {
            b.iter(|| black_box(ratings::rate(&players, &games, &settings, today)))
        });
    }
    group.finish();
}

criterion_group!(benches, reader, rules, board, rating_lists);
criterion_main!(benches);

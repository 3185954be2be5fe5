//! Criterion benchmarks of the pure core, in letters per second:
//!
//! - `reader/read`: the letter reader over the golden corpus (`tests/letters/*.txt`:
//!   63 bodies, Russian and English, every notation, quoted replies);
//! - `reader/mime+read`: the MIME front end and the reader over the demo's
//!   `.eml` letters (windows-1251 HTML, base64, plain);
//! - `rules/judge`: the verdict on one letter against a 40-letter ledger;
//! - `board/apply`: one letter's moves resolved on the board.
//!
//! `cargo bench --bench core` (figures only; nothing here fails on time).

use std::hint::black_box;

use chrono::NaiveDate;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::{ByColor, Color};
use shtempel::game::Game;
use shtempel::letter;
use shtempel::mail::mime;
use shtempel::rules::{Calendar, Incoming, Ledger, NewPly, Rules, judge};

fn corpus() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/letters");
    let mut bodies: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/letters")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "txt"))
        .map(|e| std::fs::read_to_string(e.path()).expect("a letter"))
        .collect();
    bodies.sort();
    bodies
}

fn demo_letters() -> Vec<Vec<u8>> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src/demo");
    let mut letters: Vec<Vec<u8>> = std::fs::read_dir(dir)
        .expect("src/demo")
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
        .map(|e| std::fs::read(e.path()).expect("a letter"))
        .collect();
    letters.sort();
    letters
}

fn day(n: i64) -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 1).unwrap() + chrono::Duration::days(n)
}

fn reader(c: &mut Criterion) {
    let bodies = corpus();
    let mut group = c.benchmark_group("reader");
    group.throughput(Throughput::Elements(bodies.len() as u64));
    group.bench_function("read", |b| {
        b.iter(|| {
            for body in &bodies {
                black_box(letter::read(black_box(body)));
            }
        })
    });
    let letters = demo_letters();
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
            };
            black_box(judge(&rules, black_box(&ledger), &incoming))
        })
    });
    group.bench_function("board-apply", |b| {
        b.iter(|| black_box(game.apply(Color::White, &read.moves, &read.variants)))
    });
    group.finish();
}

criterion_group!(benches, reader, rules);
criterion_main!(benches);

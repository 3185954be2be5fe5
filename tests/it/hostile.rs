//! Untrusted text never panics the pure core: real and malformed mail from the
//! shared corpus, and generated garbage, read as letter bodies and applied to a
//! game. Every error must point at a line that exists.

use shakmaty::Color;
use shtempel::Lang;
use shtempel::game::Game;
use shtempel::letter;
use shtempel::phrases::Phrases;

fn check(body: &str, origin: &str) {
    let read = letter::read(body);
    let lines = body.lines().count();
    for error in &read.errors {
        assert!(
            error.line >= 1 && error.line <= lines,
            "{origin}: error on line {} of {lines}",
            error.line
        );
        assert!(
            !error.explain(&Phrases::builtin(Lang::Ru)).is_empty()
                && !error.explain(&Phrases::builtin(Lang::En)).is_empty()
        );
    }
    for token in &read.moves {
        assert!(
            token.line >= 1 && token.line <= lines,
            "{origin}: move on line {} of {lines}",
            token.line
        );
    }
    let game = Game::from_sans(&["e4", "e5"], Vec::new()).unwrap();
    for by in [Color::White, Color::Black] {
        if let Err(refusal) = game.apply(by, &read.moves, &read.variants) {
            assert!(!refusal.explain(&Phrases::builtin(Lang::Ru)).is_empty());
        }
    }
}

#[test]
fn the_shared_mail_corpus_reads_without_panic() {
    let Some(dir) = crate::support::shared_dir("corpus/mail-parser-eml") else {
        return;
    };
    let entries = std::fs::read_dir(&dir).expect("the shared corpus");
    let mut count = 0;
    for entry in entries.flatten() {
        let bytes = std::fs::read(entry.path()).unwrap();
        check(
            &String::from_utf8_lossy(&bytes),
            &entry.file_name().to_string_lossy(),
        );
        count += 1;
    }
    assert!(count > 100, "{count} messages read");
}

/// A small deterministic generator (xorshift), so failures repeat.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn generated_garbage_reads_without_panic() {
    // Fragments of real letters, recombined at random.
    let pieces = [
        "1.",
        "12...",
        "…",
        " ",
        "\n",
        "e4",
        "Кр",
        "Ф",
        ":",
        "x",
        "=",
        "Q",
        "0-0",
        "O-O-O",
        "7163",
        "57581",
        "Time:",
        "Время:",
        "/",
        "-3",
        "999999999999",
        "Dates:",
        "Даты:",
        "32.13.2026",
        "07.11",
        "2026-02-30",
        "ноября",
        "Nov",
        ",",
        "если",
        "if",
        "> ",
        "-- \n",
        "On x wrote:\n",
        "От: a\nОтправлено: b\n",
        "CONFIRM",
        "ПРОТЕСТ",
        "сдаюсь",
        "\u{0}",
        "\u{feff}",
        "\r",
        "٣",
        "Game:",
        "Партия №",
        "#",
        "Previous dates:",
        "Штемпель:",
    ];
    let mut noise = Noise(0x5eed_cafe_f00d_beef);
    for case in 0..5_000 {
        let length = 1 + noise.next() % 40;
        let body: String = (0..length).map(|_| noise.pick(&pieces)).collect();
        check(&body, &format!("case {case}: {body:?}"));
    }
}

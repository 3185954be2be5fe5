//! The letter reader and the board on any text: no panic, and every error and
//! move points at a line that exists.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shakmaty::Color;
use shtempel::Lang;
use shtempel::phrases::Phrases;
use shtempel::game::Game;
use shtempel::letter;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let read = letter::read(&text);
    let lines = text.lines().count();
    for error in &read.errors {
        assert!(error.line >= 1 && error.line <= lines);
        let _ = error.explain(&Phrases::builtin(Lang::Ru));
    }
    for token in &read.moves {
        assert!(token.line >= 1 && token.line <= lines);
    }
    let game = Game::new();
    for by in [Color::White, Color::Black] {
        if let Err(refusal) = game.apply(by, &read.moves, &read.variants) {
            let _ = refusal.explain(&Phrases::builtin(Lang::En));
        }
    }
});

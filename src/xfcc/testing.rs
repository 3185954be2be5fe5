//! The games the tests of this folder are played on.

use std::collections::BTreeSet;

use crate::config::{GameConfig, Player};
use crate::game::Game;
use crate::key::GameKey;
use crate::record::Record;

pub(crate) use crate::rules::clock::tests::{d, ledger};

fn player(id: &str) -> Player {
    Player {
        id: id.into(),
        name: format!("{id} player"),
        email: format!("{id}@test.example"),
        other_emails: Vec::new(),
        start_sheet_received: None,
        secret: None,
        start_rating: None,
    }
}

/// Game 1 after 1. e4 e5 (Black's move delivered on the 9th): White to move.
pub(crate) fn record() -> Record {
    Record {
        config: GameConfig {
            id: "1".into(),
            white: "white".into(),
            black: "black".into(),
            start_date: None,
            round: None,
        },
        key: GameKey::new(None, "1"),
        white: player("white"),
        black: player("black"),
        board: Game::from_sans(&["e4", "e5"], Vec::new()).unwrap(),
        ledger: ledger(Some("2026-11-09")),
        done: BTreeSet::new(),
        stored: 2,
        former: Vec::new(),
    }
}

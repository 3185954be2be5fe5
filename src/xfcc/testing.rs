//! The games the tests of this folder are played on.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use shakmaty::Color;

use crate::config::{GameConfig, Player};
use crate::game::Game;
use crate::key::GameKey;
use crate::record::Record;
use crate::rules::{Calendar, Ledger, Row};

pub fn d(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

/// The worked example's first moves (rules.md): White's 1. e4 sent on
/// 3 November, 2 days; Black's 1... e5 sent on 7 November, 4 days,
/// delivered as `delivered` says.
pub fn ledger(delivered: Option<&str>) -> Ledger {
    let mut ledger = Ledger::new(Calendar::on_time(d("2026-11-01"), d("2028-11-01")));
    for (by, san, sent, delivered, days) in [
        (Color::White, "e4", "2026-11-03", Some("2026-11-03"), 2),
        (Color::Black, "e5", "2026-11-07", delivered, 4),
    ] {
        ledger.rows.push(Row {
            by,
            san: san.into(),
            conditional: false,
            sent_on: d(sent),
            delivered_on: delivered.map(d),
            days,
            penalty: 0,
            letter: None,
        });
    }
    ledger
}

fn player(id: &str) -> Player {
    Player {
        id: id.into(),
        name: format!("{id} player"),
        email: format!("{id}@test.example"),
        other_emails: Vec::new(),
        start_sheet_received: None,
        secret: None,
    }
}

/// Game 1 after 1. e4 e5 (Black's move delivered on the 9th): White to move.
pub fn record() -> Record {
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

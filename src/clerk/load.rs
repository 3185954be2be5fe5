//! A game loaded from the store: its record, and its chart with the notes.

use chrono::NaiveDate;
use shakmaty::{ByColor, Color};

use crate::chart::Chart;
use crate::config::{Config, GameConfig, Player};
use crate::error::Error;
use crate::game::Replays;
use crate::key::GameKey;
use crate::record::Record;
use crate::rules::{Calendar, Ledger};
use crate::store::Store;

/// Loads a game from the store.
pub fn load(config: &Config, store: &Store, game: &GameConfig) -> Result<Record, Error> {
    load_replaying(config, store, game, &Replays::default())
}

/// Loads a game, its board rebuilt past what `replays` knows of it.
pub fn load_replaying(
    config: &Config,
    store: &Store,
    game: &GameConfig,
    replays: &Replays,
) -> Result<Record, Error> {
    let key = GameKey::new(config.scope(), &game.id);
    let stored = store
        .load_game(&key)
        .map_err(|e| e.context(format!("game {}", game.id)))?;
    let white = config
        .player(&game.white)
        .cloned()
        .ok_or_else(|| Error::internal("unknown white player"))?;
    let black = config
        .player(&game.black)
        .cloned()
        .ok_or_else(|| Error::internal("unknown black player"))?;
    let calendar = Calendar::new(
        game.start_date.unwrap_or(config.start_date),
        config.end_date,
        ByColor {
            white: sheet_received(config, store, &white)?,
            black: sheet_received(config, store, &black)?,
        },
    )
    .starting(config.start_date)
    .with_leaves(leaves_of(config, store, &[&white, &black])?);
    let sans: Vec<&str> = stored.moves.iter().map(|row| row.san.as_str()).collect();
    let board = replays
        .game(&key, &sans, stored.row.held.clone())
        .map_err(|e| Error::new(e.kind, format!("game {}: stored moves: {e}", game.id)))?;
    let ledger = Ledger {
        calendar,
        rows: stored.moves,
        standing: stored.row.standing,
    };
    // A game finished before its player was replaced stays his.
    let played_by = |player: Player, color| match stored
        .seats
        .iter()
        .rfind(|seat| seat.color == color && seat.finished)
    {
        Some(seat) => Player {
            id: seat.player.clone(),
            name: seat.name.clone(),
            email: seat.email.clone(),
            other_emails: Vec::new(),
            ..player
        },
        None => player,
    };
    Ok(Record {
        config: game.clone(),
        key: config.game_key(&game.id),
        white: played_by(white, Color::White),
        black: played_by(black, Color::Black),
        board,
        stored: ledger.rows.len(),
        ledger,
        done: stored.done,
        former: stored.seats,
    })
}

/// The chart of a game with the notes the store holds for it, in `lang`
/// where they were kept in it.
pub fn stored_chart(
    record: &Record,
    config: &Config,
    store: &Store,
    lang: crate::Lang,
) -> Result<Chart, Error> {
    let notes = store
        .notes(&record.key)?
        .iter()
        .map(|n| n.text_in(lang).to_string())
        .collect();
    Ok(record.chart(config, notes))
}

/// The leaves of `players`: none asked of the store where the tournament
/// grants none.
fn leaves_of(
    config: &Config,
    store: &Store,
    players: &[&crate::config::Player],
) -> Result<Vec<(NaiveDate, NaiveDate)>, Error> {
    let mut leaves = Vec::new();
    if config.rules.leave_days_per_year == 0 {
        return Ok(leaves);
    }
    for player in players {
        let his = store.leaves_in(config.scope(), &player.id)?;
        leaves.extend(his);
    }
    Ok(leaves)
}

/// The day a player received his start sheet (10.3.2): the config's
/// `start_sheet_received` where the director wrote one, else the day the
/// transport accepted the one `shtempel start` mailed him, if it did.
fn sheet_received(
    config: &Config,
    store: &Store,
    player: &crate::config::Player,
) -> Result<Option<NaiveDate>, Error> {
    if player.start_sheet_received.is_some() {
        return Ok(player.start_sheet_received);
    }
    let id = crate::mail::format::identity::start_sheet_id(config, &player.id);
    let accepted = store.accepted_on(&id)?;
    Ok(accepted.flatten())
}

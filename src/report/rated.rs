//! The federation's finished games as the rating list counts them: each
//! person of the folder's events (his entries joined by an address, as
//! everywhere), the rating he was given (his first entry's that has one),
//! and each finished game between two of them, with the day its event (or
//! the game, where it was added later) began and the day it ended. A game
//! that was over when its player was replaced stays his.

use std::collections::HashMap;

use shakmaty::Color;

use crate::config::{Config, People};
use crate::error::Error;
use crate::ratings::{Game, Player};
use crate::rules::EndReason;
use crate::store::Store;

/// The people and games of `configs`, from `store`.
pub fn read(configs: &[Config], store: &Store) -> Result<(Vec<Player>, Vec<Game>), Error> {
    let people = People::of(configs);
    let mut players = Vec::new();
    let mut at_key: HashMap<&str, usize> = HashMap::new();
    let mut at_address: HashMap<&str, usize> = HashMap::new();
    for person in people.iter() {
        let start = person.entries.iter().find_map(|entry| {
            let player = configs.get(entry.tournament)?.player(&entry.player)?;
            player.start_rating.as_ref().map(|s| s.rating)
        });
        at_key.insert(person.key.as_str(), players.len());
        for address in &person.addresses {
            at_address.insert(address.as_str(), players.len());
        }
        players.push(Player {
            key: person.key.clone(),
            name: person.name.clone(),
            start,
        });
    }
    let finished = store.finished_games()?;
    let mut games = Vec::new();
    for (place, config) in configs.iter().enumerate() {
        for game in config.draw().games() {
            let Some(end) = finished.get(&config.game_key(&game.id).to_string()) else {
                continue;
            };
            let side = |entry: &str, former: &Option<String>| match former {
                Some(address) => at_address.get(address.as_str()).copied(),
                None => people
                    .of_entry(place, entry)
                    .and_then(|p| at_key.get(p.key.as_str()).copied()),
            };
            let (Some(white), Some(black)) = (
                side(&game.white, &end.former_white),
                side(&game.black, &end.former_black),
            ) else {
                continue;
            };
            let began = game.start_date.unwrap_or(config.start_date);
            games.push(Game {
                white,
                black,
                white_halves: u8::try_from(end.outcome.result.halves(Color::White)).unwrap_or(0),
                began,
                ended: end.ended_on.unwrap_or(began),
                forfeit: end.outcome.reason == EndReason::Forfeit,
            });
        }
    }
    Ok((players, games))
}

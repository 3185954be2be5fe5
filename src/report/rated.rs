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
use crate::ratings::{self, Game, Lists, Player};
use crate::rules::EndReason;
use crate::store::Store;

/// The people of `configs` (`people`) and their finished games, from `store`.
fn read(
    configs: &[Config],
    people: &People,
    store: &Store,
) -> Result<(Vec<Player>, Vec<Game>), Error> {
    let mut players = Vec::new();
    let mut at_address: HashMap<&str, usize> = HashMap::new();
    for person in people.iter() {
        let start = person.entries.iter().find_map(|entry| {
            let player = configs.get(entry.tournament)?.player(&entry.player)?;
            player.start_rating.clone()
        });
        for address in &person.addresses {
            at_address.insert(address.as_str(), players.len());
        }
        players.push(Player {
            key: person.key.clone(),
            name: person.name.clone(),
            start: start.as_ref().map(|s| s.rating),
            start_source: start.and_then(|s| s.source),
        });
    }
    let finished = store.finished_games()?;
    let mut games = Vec::new();
    for (place, config) in configs.iter().enumerate() {
        for game in config.draw().games() {
            let Some(end) = finished.get(&config.game_key(&game.id).to_string()) else {
                continue;
            };
            // A person's place among `players` is his among the people.
            let side = |entry: &str, former: &Option<String>| match former {
                Some(address) => at_address.get(address.as_str()).copied(),
                None => people.place_of_entry(place, entry),
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

/// The federation's lists as of a day, with whom they list.
pub struct Federation {
    pub players: Vec<Player>,
    pub lists: Lists,
    /// The folder's people: `players` are made from them, one each, in
    /// their order.
    people: People,
}

impl Federation {
    /// The lists of `configs`' games published by `today`.
    pub fn read(
        configs: &[Config],
        store: &Store,
        today: chrono::NaiveDate,
    ) -> Result<Federation, Error> {
        let people = People::of(configs);
        let (players, games) = read(configs, &people, store)?;
        let settings = configs.first().map(|c| c.ratings).unwrap_or_default();
        let lists = ratings::rate(&players, &games, &settings, today);
        Ok(Federation {
            players,
            lists,
            people,
        })
    }

    /// The player `wanted` names: his key, an entry's id, or an address.
    pub fn find(&self, wanted: &str) -> Option<usize> {
        let wanted = wanted.trim();
        self.people.iter().position(|person| {
            person.key == wanted
                || person
                    .addresses
                    .iter()
                    .any(|a| a.eq_ignore_ascii_case(wanted))
                || person.entries.iter().any(|e| e.player == wanted)
        })
    }

    /// The players of the tournament at `place` in `configs` with the
    /// ratings they brought to it (the last list before it began).
    pub fn section(&self, configs: &[Config], place: usize) -> Section {
        let mut section = Section::default();
        let Some(config) = configs.get(place) else {
            return section;
        };
        for player in &config.players {
            // `players` are the people, in their order.
            let Some(at) = self.people.place_of_entry(place, &player.id) else {
                continue;
            };
            if let Some(rating) = self
                .lists
                .rating_before(&self.players[at], at, config.start_date)
            {
                section.ratings.insert(player.id.clone(), rating);
            }
        }
        section
    }
}

/// A section's players' ratings as it began, by their ids there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Section {
    pub ratings: HashMap<String, i32>,
}

impl Section {
    /// The average of the ratings (of the players who have one), to the
    /// nearest point, half up.
    pub fn average(&self) -> Option<i32> {
        let count = i64::try_from(self.ratings.len()).ok().filter(|n| *n > 0)?;
        let sum: i64 = self.ratings.values().map(|r| i64::from(*r)).sum();
        i32::try_from((2 * sum + count).div_euclid(2 * count)).ok()
    }

    /// FIDE's category of that average.
    pub fn category(&self) -> Option<u32> {
        self.average().and_then(ratings::fide::category)
    }
}

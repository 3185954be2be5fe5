//! What the Xfcc server reads of the clerk's record for a person: his
//! games in every event, as his program is shown them, and a move he asks
//! checked in its game.

use chrono::{DateTime, Utc};

use crate::clerk::{Clock, load};
use crate::config::{Config, GameConfig, People, Player};
use crate::error::Error;
use crate::key::GameKey;
use crate::rules::leave;
use crate::store::Store;
use crate::xfcc::game::{Seen, game_for};
use crate::xfcc::moving::checked;
use crate::xfcc::{MoveRequest, MoveResult, XfccGame};

/// Who a login is: the person of its address, or, where the director has
/// changed his address since, the person of its user name.
#[derive(Clone, Copy, Debug)]
pub struct Who<'a> {
    pub username: &'a str,
    pub address: &'a str,
}

/// Each game of the person `who` is, in every event of `configs`, with
/// the player he is in it.
fn games_of_person<'c>(
    configs: &'c [Config],
    who: Who,
) -> Vec<(&'c Config, &'c Player, &'c GameConfig)> {
    let people = People::of(configs);
    let by_address = people
        .iter()
        .find(|person| person.addresses.iter().any(|a| a == who.address));
    let Some(person) =
        by_address.or_else(|| people.iter().find(|person| person.key == who.username))
    else {
        return Vec::new();
    };
    let mut games = Vec::new();
    for entry in &person.entries {
        let Some(config) = configs.get(entry.tournament) else {
            continue;
        };
        let Some(player) = config.player(&entry.player) else {
            continue;
        };
        for game in config.draw().games_of(&player.id) {
            games.push((config, player, game));
        }
    }
    games
}

/// Every game of the person `who` is, as on `now`: each
/// numbered on the server once and for good.
pub fn games_of(
    configs: &[Config],
    store: &mut Store,
    who: Who,
    now: DateTime<Utc>,
) -> Result<Vec<XfccGame>, Error> {
    let games = games_of_person(configs, who);
    let keys: Vec<GameKey> = games
        .iter()
        .map(|(config, _, game)| GameKey::new(config.scope(), &game.id))
        .collect();
    let ids = store.xfcc_game_ids(&keys)?;
    let mut shown = Vec::with_capacity(games.len());
    for ((config, player, game), id) in games.into_iter().zip(ids) {
        let record = load(config, store, game)?;
        // A seat he gave up (a replacement) is no longer his game.
        let Some(colour) = record.color_of(&player.email) else {
            continue;
        };
        let today = Clock::of(config.timezone, now, None).today;
        let seen = Seen {
            id,
            colour,
            event: config.tournament_name.clone(),
            site: config.tournament_id.clone(),
            event_date: config.start_date,
            round: game.round,
            board: None,
            game_link: None,
            message: None,
        };
        shown.push(game_for(&record, &config.rules, seen, today));
    }
    Ok(shown)
}

/// What `MakeAMove` answers for the person `who` is: the
/// protocol's refusal, or, for a request the game takes, `FeatureUnavailable`:
/// this build checks a move and takes none (moves come by letter).
pub fn move_answer(
    configs: &[Config],
    store: &Store,
    who: Who,
    request: &MoveRequest,
    now: DateTime<Utc>,
) -> Result<MoveResult, Error> {
    let Some(key) = store.xfcc_game(request.game_id)? else {
        return Ok(MoveResult::InvalidGameId);
    };
    let Some((config, game)) = configs.iter().find_map(|config| {
        let id = key.game_in(config.scope())?;
        config.draw().game(id).map(|game| (config, game))
    }) else {
        return Ok(MoveResult::InvalidGameId);
    };
    let his = games_of_person(configs, who)
        .into_iter()
        .find(|(c, _, g)| std::ptr::eq(*c, config) && g.id == game.id);
    let Some((_, player, _)) = his else {
        return Ok(MoveResult::NotYourGame);
    };
    let record = load(config, store, game)?;
    let Some(colour) = record.color_of(&player.email) else {
        return Ok(MoveResult::NotYourGame);
    };
    let today = Clock::of(config.timezone, now, None).today;
    let leaves = store.leaves_in(config.scope(), &player.id)?;
    let on_leave = leave::in_force(&leaves, today).is_some();
    Ok(match checked(&record, colour, request, on_leave) {
        Err(refused) => refused,
        Ok(_) => MoveResult::FeatureUnavailable,
    })
}

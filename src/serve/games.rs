//! What the Xfcc server reads of the clerk's record for a person: his
//! games in every event, as his program is shown them, and a move he asks
//! checked in its game.

use std::net::IpAddr;

use chrono::{DateTime, Utc};

use crate::clerk::{Clock, load};
use crate::config::{Config, GameConfig, People, Player};
use crate::error::Error;
use crate::key::GameKey;
use crate::key::SubjectTag;
use crate::mail::source::spool;
use crate::rules::leave;
use crate::store::Store;
use crate::xfcc::game::{Seen, game_for};
use crate::xfcc::letter::{Taken, TakenAsk};
use crate::xfcc::moving::{Asked, checked};
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
    by_address
        .or_else(|| people.iter().find(|person| person.key == who.username))
        .map_or_else(Vec::new, |person| person.games(configs))
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
    // The games shown at his move before its forward went, and on which
    // day: the first is the day the move he answers reached him.
    let mut at_his_move = Vec::new();
    for (((config, player, game), id), key) in games.into_iter().zip(ids).zip(keys) {
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
            game_link: crate::report::game_link(config, &game.id),
            message: partners_message(config, store, &key, &record, colour)?,
        };
        let game = game_for(&record, &config.rules, seen, today);
        // Only a move whose forward has not been accepted yet can have
        // reached him first here: the others' day is their forward's.
        let undelivered = record
            .ledger
            .rows
            .last()
            .is_some_and(|row| row.delivered_on.is_none());
        if game.my_turn && undelivered {
            at_his_move.push((key, record.ledger.rows.len(), today));
        }
        shown.push(game);
    }
    store.note_xfcc_shown(&at_his_move)?;
    Ok(shown)
}

/// A `MakeAMove` as the server got it: who asked, from where, when.
pub struct MoveAsked<'a> {
    pub who: Who<'a>,
    pub request: &'a MoveRequest,
    pub peer: IpAddr,
    pub now: DateTime<Utc>,
}

/// The partner's words with his last move, where it is `colour`'s move
/// and the partner sent it from his program with a message.
fn partners_message(
    config: &Config,
    store: &Store,
    key: &GameKey,
    record: &crate::record::Record,
    colour: shakmaty::Color,
) -> Result<Option<String>, Error> {
    let rows = &record.ledger.rows;
    let Some(last) = rows.last().filter(|row| row.by != colour) else {
        return Ok(None);
    };
    if last.conditional {
        return Ok(None);
    }
    let Some(raw) = store.letter_of_ply(key, rows.len() - 1)? else {
        return Ok(None);
    };
    Ok(crate::mail::format::mime::parse(&raw, &config.address)
        .and_then(|mail| crate::xfcc::letter::message_of(&mail.text)))
}

/// What `MakeAMove` answers for the person `asked.who` is: the protocol's
/// refusal, or `Success` once the move is taken: written as his letter
/// into the spool (`mail::source::spool`), durably, for the next pass to
/// apply as the rules say. A move already waiting there for this game is
/// `Success` again where it is the same ask (a request sent twice), and
/// `NotYourTurn` where it is another. The caller lets one request take a
/// move at a time.
pub fn move_answer(
    configs: &[Config],
    store: &Store,
    asked: &MoveAsked,
) -> Result<MoveResult, Error> {
    let (who, request) = (asked.who, asked.request);
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
    let today = Clock::of(config.timezone, asked.now, None).today;
    let leaves = store.leaves_in(config.scope(), &player.id)?;
    let on_leave = leave::in_force(&leaves, today).is_some();
    let ask = match checked(&record, colour, request, on_leave) {
        Err(refused) => return Ok(refused),
        Ok(Asked::Move { san, .. }) => TakenAsk::Move {
            number: u32::try_from(record.ledger.rows.len() / 2 + 1).unwrap_or(u32::MAX),
            colour,
            san,
            offer_draw: request.offer_draw,
        },
        Ok(Asked::Resign) => TakenAsk::Resign,
        Ok(Asked::AcceptDraw) => TakenAsk::AcceptDraw,
    };
    let plies = record.ledger.rows.len();
    let tag = SubjectTag::game(&config.tournament_id, &game.id).to_string();
    let taken = Taken {
        from: &player.email,
        to: &config.address,
        tag: &tag,
        game: &game.id,
        xfcc_id: request.game_id,
        plies,
        ask,
        message: &request.my_message,
        username: who.username,
        peer: asked.peer,
        at: asked.now,
        shown_on: store.xfcc_shown(&GameKey::new(config.scope(), &game.id), plies)?,
    };
    let spool = config.xfcc_spool();
    let waiting = spool::waiting(&spool).map_err(|e| spool_error(&spool, &e))?;
    match taken.waiting_among(&waiting) {
        Some(true) => return Ok(MoveResult::Success),
        Some(false) => return Ok(MoveResult::NotYourTurn),
        None => {}
    }
    spool::deliver(&spool, &taken.file_name(), &taken.letter())
        .map_err(|e| spool_error(&spool, &e))?;
    Ok(MoveResult::Success)
}

fn spool_error(spool: &std::path::Path, error: &std::io::Error) -> Error {
    Error::internal(format!("the Xfcc spool {}: {error}", spool.display()))
}

//! Which tournament a letter is for, when one clerk serves a folder of them
//!. The subject's tag `[ID #N]` decides, then the
//! clerk's message the letter answers; else the tournaments the sender is
//! known in: the only one, or the only one where he plays the game the
//! letter names (a `Game:` line or a subject like `Партия 3`), or where he
//! plays at all. Where that leaves several, the first of them takes the
//! letter, and its clerk asks the sender which game he means
//! (`Clerk::identify` sees the others' games too): nothing is applied.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::config::{Config, People};
use crate::error::Result;
use crate::key::SubjectTag;
use crate::letter::{self, WrittenOrder};
use crate::mail::Envelope;
use crate::mail::format::mime::Mail;
use crate::render::{TemplateError, Templates};
use crate::store::{KeptLetter, Store};

use crate::clerk::{Clerk, Prepared};

/// The tournaments a clerk serves, in order, and who is known where: each
/// address (a player's, a chief arbiter's) and the tournaments, by their
/// place, that know it. The addresses are gathered at the first question
/// (a run with no letters asks none), once for every clerk of the run.
pub struct Directory<'a> {
    tournaments: &'a [Config],
    /// Each tournament's templates, where given ([`Directory::with_templates`]):
    /// a clerk then writes to another event's players in its words.
    templates: Vec<&'a Templates>,
    /// Each tournament's templates in the language it does not write in,
    /// loaded when a reader who prefers it is first written to.
    translated: Vec<OnceLock<Result<Templates, TemplateError>>>,
    known: OnceLock<HashMap<String, Vec<usize>>>,
    people: OnceLock<People>,
}

impl<'a> Directory<'a> {
    pub fn of(tournaments: &'a [Config]) -> Directory<'a> {
        Directory {
            tournaments,
            templates: Vec::new(),
            translated: tournaments.iter().map(|_| OnceLock::new()).collect(),
            known: OnceLock::new(),
            people: OnceLock::new(),
        }
    }

    /// The templates of the tournament at `at` in `lang`: its own, or its
    /// folder's in the other language (the built-in ones where the folder
    /// has none); `None` where they cannot be loaded.
    pub fn templates_in(&'a self, at: usize, lang: crate::Lang) -> Option<&'a Templates> {
        let config = self.tournaments.get(at)?;
        if config.language == lang {
            return self.templates_at(at);
        }
        self.translated(at)?.as_ref().ok()
    }

    /// Why the tournament at `at` cannot write in `lang` (its folder's
    /// templates of that language do not load), if it cannot.
    pub fn unwritable_in(&'a self, at: usize, lang: crate::Lang) -> Option<&'a str> {
        let config = self.tournaments.get(at)?;
        if config.language == lang {
            return None;
        }
        self.translated(at)?
            .as_ref()
            .err()
            .map(|error| error.0.as_str())
    }

    /// The tournament's templates in the language it does not write in,
    /// loaded once, or why they cannot be.
    fn translated(&'a self, at: usize) -> Option<&'a Result<Templates, TemplateError>> {
        let config = self.tournaments.get(at)?;
        let other = config.language.other();
        Some(
            self.translated
                .get(at)?
                .get_or_init(|| Templates::load(&config.templates, other)),
        )
    }

    /// The same, with each tournament's templates, in order.
    pub fn with_templates(self, templates: Vec<&'a Templates>) -> Directory<'a> {
        Directory { templates, ..self }
    }

    /// The templates of the tournament at `at`, if given.
    pub fn templates_at(&self, at: usize) -> Option<&'a Templates> {
        self.templates.get(at).copied()
    }

    pub fn tournaments(&self) -> &'a [Config] {
        self.tournaments
    }

    /// A chief arbiter's order as meant ([`letter::Ruling::resolved`]):
    /// its first word read against the ids of the clerk's tournaments,
    /// `own`'s first where it is one event's letter.
    pub fn resolve(&self, ruling: &letter::Ruling, own: Option<&str>) -> letter::Ruling {
        let ids: Vec<&str> = own
            .into_iter()
            .chain(self.tournaments.iter().map(|t| t.tournament_id.as_str()))
            .collect();
        ruling.resolved(&ids)
    }

    /// The people of the tournaments: each person's entries in the events
    /// he plays in.
    pub fn people(&self) -> &People {
        self.people.get_or_init(|| People::of(self.tournaments))
    }

    /// The place of the tournament `id`.
    pub fn place_of(&self, id: &str) -> Option<usize> {
        self.tournaments
            .iter()
            .position(|t| crate::key::same_id(id, &t.tournament_id))
    }

    /// Whether the clerk serves more than one tournament.
    pub fn several(&self) -> bool {
        self.tournaments.len() > 1
    }

    /// The places of the tournaments that know `address` (a player's, or
    /// one of its officials'), in order.
    pub fn known_in(&self, address: &str) -> &[usize] {
        let known = self.known.get_or_init(|| {
            let mut known: HashMap<String, Vec<usize>> = HashMap::new();
            for (at, tournament) in self.tournaments.iter().enumerate() {
                let addresses = tournament
                    .players
                    .iter()
                    .flat_map(|p| p.addresses())
                    .chain([&tournament.chief_arbiter, &tournament.chief_secretary]);
                for address in addresses {
                    let places = known.entry(address.clone()).or_default();
                    if places.last() != Some(&at) {
                        places.push(at);
                    }
                }
            }
            known
        });
        known.get(address).map_or(&[], Vec::as_slice)
    }
}

/// Whether `subject` holds a tag of tournament `id`: `[ID #N]` of one of
/// its games, or `[ID]` of its own messages (a start sheet, a leave).
fn has_tag(subject: &str, id: &str) -> bool {
    SubjectTag::of_event_in(subject, id).is_some()
}

/// The place of the tournament whose clerk wrote the message a letter
/// answers, where it is one of the clerk's (the outbox has it): its
/// Message-ID carries the tournament's id as ASCII, which is one
/// tournament's alone (`config::load_all` refuses two of one ASCII). A
/// start sheet belongs to no game, but to its tournament.
pub(super) fn tournament_of_thread(
    directory: &Directory,
    store: &Store,
    mail: &Mail,
) -> Result<Option<usize>> {
    for candidate in crate::clerk::thread_ids(mail) {
        if store.accepted_on(&candidate)?.is_none() {
            continue;
        }
        let local = candidate
            .trim_matches(|c| c == '<' || c == '>')
            .split_once('@')
            .map_or("", |(local, _)| local);
        let Some(ascii) = local.splitn(3, '.').nth(2) else {
            continue;
        };
        let at = directory
            .tournaments()
            .iter()
            .position(|t| crate::key::ascii_id(&t.tournament_id) == ascii);
        if at.is_some() {
            return Ok(at);
        }
    }
    Ok(None)
}

/// Where a letter goes, decided once for it before its event's clerk
/// plans it: the tournament (its place in the directory), how that was
/// found, and, for the chief arbiter's `ACCEPT KEY`, the event of the
/// letter the key names. Made from the headers (the tag, the thread, the
/// sender) and from the words only where they name an event (an order's
/// id, the key of a letter, the game a `Game` line names); the letter's
/// text is then read as that event reads letters (its date order, its
/// zone), and its clerk's identification and the arbiter's orders take
/// the route as found, not looked up again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub tournament: usize,
    pub by: RoutedBy,
    /// The game of the clerk's message the letter answers, where the thread
    /// found it.
    pub thread_game: Option<crate::key::GameKey>,
    /// The event of the letter an `ACCEPT KEY` without an id names,
    /// whoever's arbiter wrote it.
    pub accepts: Option<usize>,
}

/// How a letter's tournament was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoutedBy {
    /// The clerk serves one tournament.
    Alone,
    /// The subject's tag `[ID #N]` or `[ID]`.
    Tag,
    /// The clerk's message of a game it answers.
    Thread,
    /// The event's own message it answers (a start sheet).
    EventThread,
    /// The chief arbiter's `ACCEPT KEY`: the event of the letter the key
    /// names, his.
    Acceptance,
    /// The chief arbiter's order names the event's id.
    NamedInOrder,
    /// The chief arbiter's bare order can mean one event of his only.
    OnlyEventOfOrder,
    /// The only event that knows the sender, or where he plays the game
    /// named.
    Sender,
    /// Several (or none) are left: one in the letter's language, or the
    /// first; its clerk asks which.
    Unplaced,
}

impl Route {
    fn to(tournament: usize, by: RoutedBy) -> Route {
        Route {
            tournament,
            by,
            thread_game: None,
            accepts: None,
        }
    }

    /// Whether the letter is this event's for certain (the only one, or
    /// its tag or thread says so), whatever else its writer plays.
    pub fn certain(&self) -> bool {
        matches!(
            self.by,
            RoutedBy::Alone | RoutedBy::Tag | RoutedBy::Thread | RoutedBy::EventThread
        )
    }
}

/// The route of a letter read: a chief arbiter's `ACCEPT KEY` goes to the
/// event of the letter its key names, where he is that event's chief
/// arbiter (a key names one letter, and so one event); a bare order of his
/// that can mean one of his events goes there; any other as [`route`] says.
pub fn route_prepared(directory: &Directory, store: &Store, prepared: &Prepared) -> Result<Route> {
    let tournaments = directory.tournaments();
    let sender = prepared.mail.as_ref().and_then(|mail| mail.from.as_deref());
    let accepts = match (&prepared.read, tournaments.len() > 1) {
        (Some(read), true) => accepted_event(directory, store, read)?,
        _ => None,
    };
    let with_accepts = |route: Route| Ok(Route { accepts, ..route });
    if let (Some(sender), Some(at)) = (sender, accepts)
        && tournaments[at].chief_arbiter == sender
    {
        return with_accepts(Route::to(at, RoutedBy::Acceptance));
    }
    // A chief arbiter's bare order about a game (or player) only one of
    // his events has can mean that one alone.
    if tournaments.len() > 1
        && let Some(sender) = sender
        && let Some(read) = &prepared.read
        && let [ruling] = read.rulings.as_slice()
        && ruling.tournament.is_none()
        && let [only] = events_ruled_on(directory, sender, ruling).as_slice()
        && !tournaments.iter().any(|t| {
            has_tag(
                prepared.mail.as_ref().map_or("", |m| m.subject.as_str()),
                &t.tournament_id,
            )
        })
    {
        return with_accepts(Route::to(*only, RoutedBy::OnlyEventOfOrder));
    }
    let named = prepared.read.as_ref().and_then(|read| read.game.as_deref());
    with_accepts(route(directory, store, prepared.mail.as_ref(), named)?)
}

/// The places of the events where `sender` is chief arbiter and the
/// ruling's game (or, for a withdrawal or a replacement, player) is.
pub(super) fn events_ruled_on(
    directory: &Directory,
    sender: &str,
    ruling: &letter::Ruling,
) -> Vec<usize> {
    let names = |t: &Config| match &ruling.order {
        WrittenOrder::Withdraw { player } | WrittenOrder::Replace { player, .. } => {
            t.player(player).is_some()
        }
        WrittenOrder::Accept { .. } | WrittenOrder::Retry { .. } => false,
        WrittenOrder::Overstep { game, .. }
        | WrittenOrder::Result { game, .. }
        | WrittenOrder::Forfeit { game, .. }
        | WrittenOrder::Undo { game } => t.draw().game(game).is_some(),
    };
    directory
        .tournaments()
        .iter()
        .enumerate()
        .filter(|(_, t)| t.chief_arbiter == sender && names(t))
        .map(|(at, _)| at)
        .collect()
}

/// The place of the event of the letter a chief arbiter's only order,
/// `ACCEPT KEY`, names; `None` for any other letter, or a key of no letter.
pub(super) fn accepted_event(
    directory: &Directory,
    store: &Store,
    read: &letter::Letter,
) -> Result<Option<usize>> {
    let [ruling] = read.rulings.as_slice() else {
        return Ok(None);
    };
    let ruling = directory.resolve(ruling, None);
    let WrittenOrder::Accept { key } = &ruling.order else {
        return Ok(None);
    };
    if ruling.tournament.is_some() {
        return Ok(None);
    }
    let Some(kept) = store.letter_by_key(key)? else {
        return Ok(None);
    };
    Ok(Some(route_kept(directory, store, &kept, None)?.tournament))
}

/// The route of a kept letter, as when it came.
pub fn route_kept(
    directory: &Directory,
    store: &Store,
    letter: &KeptLetter,
    named_game: Option<&str>,
) -> Result<Route> {
    let Some(first) = directory.tournaments().first() else {
        return Ok(Route::to(0, RoutedBy::Alone));
    };
    let envelope = Envelope {
        key: letter.source_key.clone(),
        raw: letter.raw.clone(),
        size: letter.raw.len(),
        arrived: letter.arrived,
        channel: crate::rules::Channel::Letter,
    };
    let prepared = Prepared::new(first, &envelope);
    let named = named_game.or(prepared.read.as_ref().and_then(|r| r.game.as_deref()));
    route(directory, store, prepared.mail.as_ref(), named)
}

/// The route of `mail`, by its headers, its sender, and the game
/// `named_game` (a `Game` line) names.
pub fn route(
    directory: &Directory,
    store: &Store,
    mail: Option<&Mail>,
    named_game: Option<&str>,
) -> Result<Route> {
    let tournaments = directory.tournaments();
    let (Some(mail), true) = (mail, tournaments.len() > 1) else {
        return Ok(Route::to(0, RoutedBy::Alone));
    };
    let by_id = |id: &str| tournaments.iter().position(|t| t.tournament_id == id);
    let sender = mail.from.as_deref();
    let known = sender.map_or(&[][..], |sender| directory.known_in(sender));
    // A player's letter under the tag, or in the thread, of an event that
    // does not know him is for his own events: a misplaced tag is his
    // mistake, not a stranger's letter. Anyone else's (a stranger's,
    // another event's arbiter's) stays with the tag, where it is answered
    // or refused as that event's; so does the letter of one who played
    // there until he was replaced, which is told so there and never taken
    // for a move of his same-numbered game elsewhere.
    let his_elsewhere = |at: usize| -> Result<bool> {
        let Some(sender) = sender else {
            return Ok(false);
        };
        let plays_elsewhere = !known.contains(&at)
            && known
                .iter()
                .any(|&k| tournaments[k].player_by_email(sender).is_some());
        Ok(plays_elsewhere && !left_seat_in(store, sender, &tournaments[at])?)
    };
    if let Some(at) = tournaments
        .iter()
        .position(|t| has_tag(&mail.subject, &t.tournament_id))
        && !his_elsewhere(at)?
    {
        return Ok(Route::to(at, RoutedBy::Tag));
    }
    let mut threaded = None;
    for candidate in crate::clerk::thread_ids(mail) {
        let Some(key) = store.game_key_of_message(&candidate)? else {
            continue;
        };
        if let Some(at) = key.tournament().and_then(by_id) {
            threaded = Some(Route {
                thread_game: Some(key),
                ..Route::to(at, RoutedBy::Thread)
            });
            break;
        }
    }
    if threaded.is_none() {
        threaded = tournament_of_thread(directory, store, mail)?
            .map(|at| Route::to(at, RoutedBy::EventThread));
    }
    if let Some(route) = threaded
        && !his_elsewhere(route.tournament)?
    {
        return Ok(route);
    }
    let Some(sender) = sender else {
        return Ok(Route::to(0, RoutedBy::Unplaced));
    };
    Ok(route_by_sender(directory, mail, sender, named_game))
}

/// Whether `email` played in `tournament` until he was replaced there.
pub(super) fn left_seat_in(store: &Store, email: &str, tournament: &Config) -> Result<bool> {
    let seats = store.seats_left_by(email)?;
    Ok(seats
        .iter()
        .any(|seat| seat.game.tournament() == tournament.scope()))
}

/// The route of a letter neither its tag nor its thread placed: by the
/// event its chief arbiter names, else by the events its sender is known in
/// (the only one, or the only one where he plays the game named), else one
/// of them in the letter's language, whose clerk asks which.
fn route_by_sender(
    directory: &Directory,
    mail: &Mail,
    sender: &str,
    named_game: Option<&str>,
) -> Route {
    let tournaments = directory.tournaments();
    let known = directory.known_in(sender);
    // The chief arbiter names the tournament in his ruling (`CONFIRM CC-2026 3`).
    if known.len() > 1
        && let Some(&at) = known.iter().find(|&&at| {
            let tournament = &tournaments[at];
            let id = tournament.tournament_id.as_str();
            tournament.is_official(sender)
                && mail
                    .text
                    .split_whitespace()
                    .any(|word| crate::key::same_id(word, id))
        })
    {
        return Route::to(at, RoutedBy::NamedInOrder);
    }
    let named = named_game.map(str::to_string).or_else(|| {
        letter::subject_game(&mail.subject, |id| {
            known
                .iter()
                .any(|&at| tournaments[at].draw().game(id).is_some())
        })
    });
    let plays = |at: usize, game: Option<&str>| {
        let config = &tournaments[at];
        config.player_by_email(sender).is_some_and(|player| {
            config
                .draw()
                .games_of(&player.id)
                .iter()
                .any(|g| game.is_none_or(|id| g.id.eq_ignore_ascii_case(id)))
        })
    };
    let mut candidates: Vec<usize> = known
        .iter()
        .copied()
        .filter(|&at| plays(at, named.as_deref()))
        .collect();
    if let [only] = candidates.as_slice() {
        return Route::to(*only, RoutedBy::Sender);
    }
    // An official's letter that names no event of his (a chief arbiter's,
    // a chief secretary's STATUS) is answered by one in its language, as
    // a player's is.
    if candidates.is_empty() {
        candidates = known
            .iter()
            .copied()
            .filter(|&at| tournaments[at].is_official(sender))
            .collect();
    }
    // Where several are left, the clerk asks which; it asks in the
    // letter's language, from an event of that language if he has one.
    let in_its_language = || {
        let language = crate::Lang::of_text(&mail.subject, &mail.text);
        candidates
            .iter()
            .find(|&&at| tournaments[at].language == language)
    };
    let at = (candidates.len() > 1)
        .then(in_its_language)
        .flatten()
        .or(candidates.first())
        .or(known.first())
        .copied()
        .unwrap_or(0);
    let by = match known.len() {
        1 => RoutedBy::Sender,
        _ => RoutedBy::Unplaced,
    };
    Route::to(at, by)
}

impl Clerk<'_> {
    /// Whether the letter's subject has this tournament's tag, or it answers
    /// a message of one of its games: it is this tournament's, whatever
    /// else its sender plays.
    pub(in crate::clerk) fn tagged_or_threaded(&self, store: &Store, mail: &Mail) -> Result<bool> {
        let own =
            |at: usize| self.directory.tournaments()[at].tournament_id == self.config.tournament_id;
        if SubjectTag::of_event_in(&mail.subject, &self.config.tournament_id).is_some() {
            return Ok(true);
        }
        for candidate in crate::clerk::thread_ids(mail) {
            if store
                .game_of_message(self.config.scope(), &candidate)?
                .is_some()
            {
                return Ok(true);
            }
        }
        Ok(tournament_of_thread(self.directory, store, mail)?.is_some_and(own))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_is_the_id_between_a_bracket_and_a_number_sign_or_the_closing_bracket() {
        let table = [
            ("[CC-2026 #3] 1. e4", "CC-2026", true),
            ("Re: [CUP #1] [CC-2026 #3]", "CC-2026", true),
            ("[CC-2026 #3]", "CC-202", false),
            // The tournament's own messages: `[ID]` (a start sheet's reply).
            ("[CC-2026] #3", "CC-2026", true),
            ("Re: [CC-2026] start sheet", "CC-2026", true),
            ("Re: [CC-20266] start sheet", "CC-2026", false),
            ("CC-2026 #3", "CC-2026", false),
            ("[[CC #1]", "CC", true),
            ("[", "CC", false),
        ];
        for (subject, id, tagged) in table {
            assert_eq!(has_tag(subject, id), tagged, "{subject:?} for {id}");
        }
    }
}

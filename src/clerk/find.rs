//! Which game (and which of the clerk's tournaments) a player's letter is
//! for: named by a line, the subject's tag or the subject, else by the
//! thread, else the only game he plays. Found here, answered by whoever
//! asked (intake answers a letter no game is found for; an acceptance is
//! refused where it is ambiguous).

use crate::clerk::Clerk;
use crate::clerk::context::{GameNote, NamedBy};
use crate::config::{Config, GameConfig, Player};
use crate::error::Error;
use crate::key::SubjectTag;
use crate::letter::{self, Letter};
use crate::mail::format::mime::Mail;
use crate::store::Store;

/// Which game a letter is for, as [`Clerk::identify`] found it.
pub(in crate::clerk) enum Identified {
    Found {
        game: GameConfig,
        note: Option<GameNote>,
    },
    /// It names a game of the tournament its sender does not play.
    NotHis { named: String, by: NamedBy },
    /// It names a game the tournament does not have.
    NoSuch { named: String, by: NamedBy },
    /// Nothing tells.
    Unknown,
    /// Nothing tells which tournament: he plays the game it names (or, if
    /// it names none, plays games) in another one of the clerk's too.
    Ambiguous,
    /// Its thread or tag names a tournament the clerk does not serve (any
    /// more: its file left the folder).
    NotServed { tournament: String },
}

impl Clerk<'_> {
    /// Finds the game of a player's letter (contract.md 3). A game named in
    /// the letter decides: a `Game:` line first, then the subject's tag, then
    /// a subject like `Re: Партия 3`; a named game the sender does not play,
    /// or that does not exist, is refused, never taken for another. Without a
    /// name, the thread decides, then the only game he plays. Where the named
    /// game is not the thread's, the note says so. The letter's game or event
    /// named by an acceptance, and its route, are `prepared`'s.
    pub(in crate::clerk) fn identify(
        &self,
        store: &Store,
        player: &Player,
        mail: &Mail,
        read: &Letter,
        prepared: &crate::clerk::Prepared,
    ) -> Result<Identified, Error> {
        let chosen = prepared.directed || prepared.event_named;
        if let Some(tournament) = self.unserved_event(store, mail)?.filter(|_| !chosen) {
            return Ok(Identified::NotServed { tournament });
        }
        // What the store says of the letter's thread: its game as routing
        // found it, else looked up (a tag decided first, or one event);
        // whether a letter not routed (checked alone, accepted) is this
        // event's by its tag or thread.
        let thread = match prepared.route.as_ref().and_then(|r| r.thread_game.as_ref()) {
            Some(key) => key.game_in(self.config.scope()).map(str::to_string),
            None => self.game_of_thread(store, mail)?,
        };
        let placed = match &prepared.route {
            Some(route) => route.certain(),
            None => self.directory.several() && self.tagged_or_threaded(store, mail)?,
        };
        let thread = Thread {
            game: thread,
            placed,
        };
        Ok(self.identify_by(store, player, mail, read, prepared, thread))
    }

    /// The game of the clerk's message the letter answers, nearest first.
    fn game_of_thread(&self, store: &Store, mail: &Mail) -> Result<Option<String>, Error> {
        for candidate in crate::clerk::thread_ids(mail) {
            if let Some(game) = store.game_of_message(self.config.scope(), &candidate)? {
                return Ok(Some(game));
            }
        }
        Ok(None)
    }

    /// [`Clerk::identify`], given the game of the letter's thread and
    /// whether its tag or thread placed it here.
    fn identify_by(
        &self,
        store: &Store,
        player: &Player,
        mail: &Mail,
        read: &Letter,
        prepared: &crate::clerk::Prepared,
        thread: Thread,
    ) -> Identified {
        let Thread {
            game: thread,
            placed,
        } = thread;
        let directed = prepared.directed;
        let chosen = directed || prepared.event_named;
        let mine = self.config.draw().games_of(&player.id);
        let find = |id: &str| {
            mine.iter()
                .find(|g| g.id.eq_ignore_ascii_case(id))
                .map(|g| (*g).clone())
        };
        let tagged = SubjectTag::all_in(&mail.subject)
            .find(|tag| {
                crate::key::same_id(&tag.tournament, &self.config.tournament_id)
                    && tag.game.is_some()
            })
            .and_then(|tag| tag.game);
        let named = self.named_game(mail, read, directed, tagged.clone());
        // The tag and the thread say which tournament; a game named
        // otherwise may be his in another of the clerk's too.
        // (Asked only of a clerk of several: of one, nothing is elsewhere.)
        // The route says whether the tag or the thread placed the letter
        // here; one not routed (checked alone, accepted) is looked at.
        let certain = chosen || !self.directory.several() || placed;
        let elsewhere = |game: Option<&str>| !certain && self.plays_elsewhere(player, game);
        let Some((by, named)) = named else {
            if let Some(game) = thread.as_deref().and_then(find) {
                return Identified::Found { game, note: None };
            }
            if elsewhere(None) {
                return Identified::Ambiguous;
            }
            if let [only] = mine.as_slice() {
                return Identified::Found {
                    game: (*only).clone(),
                    note: None,
                };
            }
            // A letter that names no game and answers none of a game's (a
            // reply to the start sheet): the one game of his under
            // way where he is to move and its first move is the next one.
            if let Some(game) = self.only_game_the_move_fits(store, player, &mine, read) {
                return Identified::Found { game, note: None };
            }
            return Identified::Unknown;
        };
        if !matches!(by, NamedBy::Tag | NamedBy::Accepted) && elsewhere(Some(&named)) {
            return Identified::Ambiguous;
        }
        let Some(game) = find(&named) else {
            return match self.config.draw().game(&named) {
                Some(game) => Identified::NotHis {
                    named: game.id.clone(),
                    by,
                },
                None => Identified::NoSuch { named, by },
            };
        };
        // The tag of a reply is its thread's: a line naming another game
        // overrules both, and says so.
        let tag_of_thread = tagged.filter(|_| matches!(by, NamedBy::Line | NamedBy::Accepted));
        let note = thread
            .into_iter()
            .chain(tag_of_thread)
            .find(|other| !other.eq_ignore_ascii_case(&game.id))
            .map(|other| GameNote { by, other });
        Identified::Found { game, note }
    }

    /// The game a letter names, and by what: its `Game:` line (or the game
    /// an acceptance named), the subject's tag, a subject like `Re: Партия 3`.
    fn named_game(
        &self,
        mail: &Mail,
        read: &Letter,
        directed: bool,
        tagged: Option<String>,
    ) -> Option<(NamedBy, String)> {
        [
            // A game the acceptance named stands where the letter's line
            // would (its receipt said "by its line").
            (
                if directed {
                    NamedBy::Accepted
                } else {
                    NamedBy::Line
                },
                read.game.clone(),
            ),
            (NamedBy::Tag, tagged),
            (
                NamedBy::Subject,
                letter::subject_game(&mail.subject, |id| self.config.draw().game(id).is_some()),
            ),
        ]
        .into_iter()
        .find_map(|(by, id)| id.map(|id| (by, id)))
    }

    /// The one game of `mine` under way where `player` is to move and the
    /// letter's first move, by its number and colour, is the next; `None`
    /// where none or several are.
    fn only_game_the_move_fits(
        &self,
        store: &Store,
        player: &Player,
        mine: &[&crate::config::GameConfig],
        read: &Letter,
    ) -> Option<crate::config::GameConfig> {
        let first = read.moves.first()?;
        let mut fitting = mine.iter().filter(|game| {
            let Ok(record) = crate::clerk::load::load(self.config, store, game) else {
                return false;
            };
            let turn = record.board.turn();
            let next = u32::try_from(record.board.moves().len() / 2 + 1).unwrap_or(u32::MAX);
            record.ledger.standing.status == crate::rules::Status::Active
                && record.color_of(&player.email) == Some(turn)
                && first.number.is_none_or(|number| number == next)
                && first.color.is_none_or(|color| color == turn)
        });
        let game = fitting.next()?;
        fitting.next().is_none().then(|| (*game).clone())
    }

    /// Whether the sender of a letter plays `game` (any game, if `None`) in
    /// another of the clerk's tournaments.
    pub(in crate::clerk) fn plays_elsewhere(&self, player: &Player, game: Option<&str>) -> bool {
        self.others_knowing(player).any(|(other, there)| {
            other
                .draw()
                .games_of(&there.id)
                .iter()
                .any(|g| game.is_none_or(|id| g.id.eq_ignore_ascii_case(id)))
        })
    }
    /// The tags of every game the sender plays with the clerk, this
    /// tournament's first.
    pub(in crate::clerk) fn tags_of(&self, player: &Player) -> Vec<String> {
        std::iter::once((self.config, player))
            .chain(self.others_knowing(player))
            .flat_map(|(config, there)| {
                config
                    .draw()
                    .games_of(&there.id)
                    .into_iter()
                    .map(|g| SubjectTag::game(&config.tournament_id, &g.id).to_string())
                    .collect::<Vec<_>>()
            })
            .collect()
    }
    /// The person's entries in the clerk's other events: each event with
    /// his entry there (the person is known by his addresses: a seat's id
    /// passed to a newcomer by a replacement is not the leaver).
    pub(in crate::clerk) fn others_of_the_person<'p>(
        &'p self,
        player: &'p Player,
    ) -> impl Iterator<Item = (&'p crate::config::Config, &'p Player)> + 'p {
        let tournaments = self.directory.tournaments();
        let here = self.directory.place_of(&self.config.tournament_id);
        here.and_then(|here| Some((here, self.directory.people().of_entry(here, &player.id)?)))
            .into_iter()
            .flat_map(move |(here, person)| {
                person.elsewhere(here).filter_map(move |entry| {
                    let there = &tournaments[entry.tournament];
                    Some((there, there.player(&entry.player)?))
                })
            })
    }

    /// The clerk's other tournaments that know one of `player`'s addresses,
    /// in order, each with its entry of him (found by the directory: a
    /// federation's letter asks one question, not one a tournament).
    pub(in crate::clerk) fn others_knowing<'p>(
        &'p self,
        player: &'p Player,
    ) -> impl Iterator<Item = (&'p Config, &'p Player)> + 'p {
        let mut places: Vec<usize> = player
            .addresses()
            .flat_map(|address| self.directory.known_in(address).iter().copied())
            .collect();
        places.sort_unstable();
        places.dedup();
        let tournaments = self.directory.tournaments();
        places.into_iter().filter_map(move |at| {
            let other = &tournaments[at];
            if other.tournament_id == self.config.tournament_id {
                return None;
            }
            let there = player
                .addresses()
                .find_map(|address| other.player_by_email(address))?;
            Some((other, there))
        })
    }
    /// A tournament the letter's thread (the clerk's message it answers)
    /// or subject tag names, which this clerk does not serve: one whose
    /// file left the folder, its games still in the database. Its letters
    /// are refused, never taken for another tournament's game of the same
    /// number.
    pub(in crate::clerk) fn unserved_event(
        &self,
        store: &Store,
        mail: &Mail,
    ) -> Result<Option<String>, Error> {
        // A tournament of its own file has only its own games.
        if !self.config.in_folder {
            return Ok(None);
        }
        let served = |id: &str| {
            self.directory
                .tournaments()
                .iter()
                .any(|t| crate::key::same_id(id, &t.tournament_id))
        };
        for candidate in crate::clerk::thread_ids(mail) {
            if let Some(key) = store.game_key_of_message(&candidate)? {
                let id = key.tournament();
                return Ok(id.filter(|id| !served(id)).map(str::to_string));
            }
        }
        for tag in SubjectTag::all_in(&mail.subject) {
            let id = tag.tournament;
            let plain = tag.game.is_some() && !id.contains(char::is_whitespace);
            if plain && !served(&id) && store.has_tournament(&id)? {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }
}

/// What the store says of a letter's thread: the game of the clerk's
/// message it answers, and whether its tag or thread placed it in this
/// event.
struct Thread {
    game: Option<String>,
    placed: bool,
}

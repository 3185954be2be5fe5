//! PURE: the federation's rating list, from the finished games of its
//! events. A list is published for each period (`period`) once its last
//! day has passed, from the games finished in it; each game is rated with
//! the ratings of the last list before it began (a player with none then
//! but one since counts with his own present one). By FIDE's method
//! (`fide`, the default) or Glicko-2 (`glicko`).
//!
//! Under FIDE's method a player is rated once he has a rating: one given
//! him (`rating = 2150` in the players' list, "start") or his first, from
//! his performance against rated opponents once he has `newcomer_games`
//! of them (provisional until then: the list shows his performance so
//! far, which no one else's game counts with). As FIDE rates, a period in
//! which a newcomer still has scored nothing against rated players is
//! disregarded (its games are not counted for him), and a first rating is
//! given only from 1400, at most 2200 (`fide::first_rating`). A game between two players
//! without ratings is rated for neither, as FIDE rates: a federation
//! starting its list gives some players their ratings, or rates by
//! Glicko-2, which starts everyone at 1500.

pub mod fide;
pub mod glicko;
pub mod period;

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

pub use glicko::Glicko;
pub use period::{Period, Span};

/// How the list is made (`[ratings]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub method: Method,
    pub period: Period,
    /// Rated games a newcomer needs for his first rating (FIDE), or to be
    /// listed as rated, not provisional (Glicko-2).
    pub newcomer_games: u32,
    /// Whether a result by forfeit (scored, not played) is rated; ICCF
    /// does not rate them.
    pub rate_forfeits: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            method: Method::Fide,
            period: Period::Quarter,
            newcomer_games: 5,
            rate_forfeits: false,
        }
    }
}

/// The rating method.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    #[default]
    Fide,
    Glicko2,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Fide => "fide",
            Method::Glicko2 => "glicko2",
        }
    }

    pub fn from_name(name: &str) -> Option<Method> {
        [Method::Fide, Method::Glicko2]
            .into_iter()
            .find(|method| method.name() == name)
    }
}

/// A person of the federation's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub key: String,
    pub name: String,
    /// A rating given him in the players' list, used until he has his own,
    /// and where it is from.
    pub start: Option<u32>,
    pub start_source: Option<String>,
}

/// A finished game: its players (places in the players given), White's
/// half points, the day it began and the day it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    pub white: usize,
    pub black: usize,
    pub white_halves: u8,
    pub began: NaiveDate,
    pub ended: NaiveDate,
    /// Scored by a forfeit, not played.
    pub forfeit: bool,
}

/// Where a player stands on a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// A rating of his own.
    Rated,
    /// The rating he was given, no game rated here yet.
    Start,
    /// Fewer rated games than a newcomer needs.
    Provisional,
}

/// One player's line of a list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    #[serde(skip)]
    pub player: usize,
    /// His rating (a provisional player's: his performance so far).
    pub rating: i32,
    /// Since the list before; none on his first.
    pub change: Option<i32>,
    /// His games rated in this period, and in all.
    pub games: u32,
    pub total: u32,
    pub status: Status,
    /// FIDE: the K his period's games were rated with.
    pub k: Option<u32>,
    /// Glicko-2: his rating deviation.
    pub deviation: Option<i32>,
}

/// The list of one period.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct List {
    pub span: Span,
    /// Best first: the rated by rating, then the provisional.
    pub entries: Vec<Entry>,
}

/// Every list published by `today`, and the games that wait for the next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lists {
    pub lists: Vec<List>,
    /// Finished games of periods not yet over, and the first such period.
    pub waiting: usize,
    pub next: Option<Span>,
}

impl Lists {
    /// `player`'s line in each list he is on.
    pub fn history(&self, player: usize) -> Vec<(Span, Entry)> {
        self.lists
            .iter()
            .filter_map(|list| {
                let entry = list.entries.iter().find(|e| e.player == player)?;
                Some((list.span, *entry))
            })
            .collect()
    }

    /// The last list, if one was published.
    pub fn latest(&self) -> Option<&List> {
        self.lists.last()
    }

    /// The rating `player` had for a game beginning on `day`: his on the
    /// last list before it, where he was rated there (not provisional),
    /// else the one he was given.
    pub fn rating_before(&self, player: &Player, at: usize, day: NaiveDate) -> Option<i32> {
        let listed = self
            .lists
            .iter()
            .rev()
            .find(|list| list.span.last < day)
            .and_then(|list| list.entries.iter().find(|e| e.player == at))
            .filter(|entry| entry.status != Status::Provisional)
            .map(|entry| entry.rating);
        listed.or_else(|| player.start.and_then(|r| i32::try_from(r).ok()))
    }
}

/// The lists of `games` between `players`, published by `today`.
pub fn rate(players: &[Player], games: &[Game], settings: &Settings, today: NaiveDate) -> Lists {
    let mut rated: Vec<&Game> = games
        .iter()
        .filter(|g| settings.rate_forfeits || !g.forfeit)
        .filter(|g| g.white != g.black && g.white < players.len() && g.black < players.len())
        .collect();
    rated.sort_by_key(|g| g.ended);
    let mut book = Book::new(players, settings);
    let mut lists = Vec::new();
    let mut at = 0;
    let mut span = rated.first().map(|g| settings.period.of(g.ended));
    while let Some(current) = span.filter(|s| s.last < today) {
        let from = at;
        while at < rated.len() && current.contains(rated[at].ended) {
            at += 1;
        }
        lists.push(book.period(current, &rated[from..at]));
        span = Some(current.next());
    }
    Lists {
        lists,
        waiting: rated.len() - at,
        next: rated.get(at).map(|g| settings.period.of(g.ended)),
    }
}

/// A player as the lists have made him so far.
#[derive(Clone, Debug, Default)]
struct Track {
    /// FIDE: his rating, once he has one.
    fide: Option<i32>,
    /// Glicko-2: his standing, once he entered.
    glicko: Option<Glicko>,
    past: fide::Past,
    /// FIDE: a newcomer's games against rated opponents.
    newcomer: Vec<(i32, u8)>,
    /// His standing on each list so far, for the games that began after it.
    seen: Vec<(Option<i32>, Option<Glicko>)>,
}

/// The players' tracks and the lists' last days.
struct Book<'a> {
    players: &'a [Player],
    settings: &'a Settings,
    tracks: Vec<Track>,
    lasts: Vec<NaiveDate>,
}

impl<'a> Book<'a> {
    fn new(players: &'a [Player], settings: &'a Settings) -> Book<'a> {
        let tracks = players
            .iter()
            .map(|p| Track {
                fide: p.start.and_then(|r| i32::try_from(r).ok()),
                glicko: p.start.map(|r| Glicko::new(Some(r))),
                past: fide::Past {
                    games: 0,
                    reached_2400: p.start.is_some_and(|r| r >= 2400),
                },
                ..Track::default()
            })
            .collect();
        Book {
            players,
            settings,
            tracks,
            lasts: Vec::new(),
        }
    }

    /// `player`'s standing on the last list before `day` (before any list:
    /// what he was given).
    fn before(&self, player: usize, day: NaiveDate) -> (Option<i32>, Option<Glicko>) {
        let lists = self.lasts.partition_point(|last| *last < day);
        let track = &self.tracks[player];
        match lists {
            0 => {
                let start = self.players[player].start;
                (
                    start.and_then(|r| i32::try_from(r).ok()),
                    start.map(|r| Glicko::new(Some(r))),
                )
            }
            n => track.seen.get(n - 1).copied().unwrap_or((None, None)),
        }
    }

    /// The list of `span`, from its games.
    fn period(&mut self, span: Span, games: &[&Game]) -> List {
        let mut played: Vec<Vec<(usize, &Game, u8)>> = vec![Vec::new(); self.players.len()];
        for game in games {
            played[game.white].push((game.black, game, game.white_halves));
            played[game.black].push((game.white, game, 2 - game.white_halves.min(2)));
        }
        let mut entries = Vec::new();
        let mut next: Vec<Track> = self.tracks.clone();
        for (player, track) in next.iter_mut().enumerate() {
            let entry = match self.settings.method {
                Method::Fide => self.fide(player, track, &played[player]),
                Method::Glicko2 => self.glicko(player, track, &played[player]),
            };
            entries.extend(entry);
        }
        for track in &mut next {
            track.seen.push((track.fide, track.glicko));
        }
        self.tracks = next;
        self.lasts.push(span.last);
        entries.sort_by(|a, b| {
            let provisional = |e: &Entry| e.status == Status::Provisional;
            provisional(a)
                .cmp(&provisional(b))
                .then(b.rating.cmp(&a.rating))
                .then_with(|| {
                    self.players[a.player]
                        .name
                        .cmp(&self.players[b.player].name)
                })
        });
        List { span, entries }
    }

    /// FIDE: `player`'s line after his games of the period.
    fn fide(
        &self,
        player: usize,
        track: &mut Track,
        played: &[(usize, &Game, u8)],
    ) -> Option<Entry> {
        let mut scored = Vec::new();
        for &(opponent, game, halves) in played {
            let Some(against) = self.before(opponent, game.began).0 else {
                continue;
            };
            let own = self.before(player, game.began).0.or(track.fide);
            scored.push((own, against, halves));
        }
        let games = u32::try_from(scored.len()).unwrap_or(u32::MAX);
        let Some(rating) = track.fide else {
            track
                .newcomer
                .extend(scored.iter().map(|&(_, against, halves)| (against, halves)));
            if track.newcomer.is_empty() {
                return None;
            }
            if track.newcomer.iter().all(|&(_, halves)| halves == 0) {
                // Nothing scored against rated players yet: disregarded.
                track.newcomer.clear();
                return None;
            }
            let total = u32::try_from(track.newcomer.len()).unwrap_or(u32::MAX);
            let first = (total >= self.settings.newcomer_games)
                .then(|| fide::first_rating(&track.newcomer))
                .flatten();
            if let Some(rating) = first {
                track.fide = Some(rating);
                track.past.games = total;
                track.past.reached_2400 = rating >= 2400;
            }
            return Some(Entry {
                player,
                rating: first.unwrap_or_else(|| fide::performance(&track.newcomer)),
                change: None,
                games,
                total,
                status: match first {
                    Some(_) => Status::Rated,
                    None => Status::Provisional,
                },
                k: None,
                deviation: None,
            });
        };
        let k = fide::k_factor(track.past, games);
        let counted: Vec<fide::Scored> = scored
            .iter()
            .map(|&(own, opponent, halves)| fide::Scored {
                own: own.unwrap_or(rating),
                opponent,
                halves,
            })
            .collect();
        let change = fide::change(&counted, k);
        let new = rating + change;
        track.fide = Some(new);
        track.past.games += games;
        track.past.reached_2400 |= new >= 2400;
        Some(Entry {
            player,
            rating: new,
            // A rating given, no game rated yet: nothing has changed it.
            change: (track.past.games > 0).then_some(change),
            games,
            total: track.past.games,
            status: match track.past.games {
                0 => Status::Start,
                _ => Status::Rated,
            },
            k: (games > 0).then_some(k),
            deviation: None,
        })
    }

    /// Glicko-2: `player`'s line after his games of the period.
    fn glicko(
        &self,
        player: usize,
        track: &mut Track,
        played: &[(usize, &Game, u8)],
    ) -> Option<Entry> {
        if track.glicko.is_none() && played.is_empty() {
            return None;
        }
        let before = track.glicko.unwrap_or_else(|| Glicko::new(None));
        let results: Vec<(Glicko, u8)> = played
            .iter()
            .map(|&(opponent, game, halves)| {
                let against = self.before(opponent, game.began).1;
                (against.unwrap_or_else(|| Glicko::new(None)), halves)
            })
            .collect();
        let after = glicko::period(before, &results);
        let games = u32::try_from(results.len()).unwrap_or(u32::MAX);
        let entered = track.glicko.is_some();
        track.glicko = Some(after);
        track.past.games += games;
        let change =
            (entered && track.past.games > 0).then(|| whole(after.rating) - whole(before.rating));
        Some(Entry {
            player,
            rating: whole(after.rating),
            change,
            games,
            total: track.past.games,
            status: match track.past.games {
                0 => Status::Start,
                n if n < self.settings.newcomer_games => Status::Provisional,
                _ => Status::Rated,
            },
            k: None,
            deviation: Some(whole(after.deviation)),
        })
    }
}

/// A Glicko-2 figure as a list prints it: to the nearest point.
fn whole(value: f64) -> i32 {
    value.round() as i32
}

//! A tournament's draw: its games, who plays White and Black in each, in
//! the order of the file (or of the pairing system that made them, each
//! with its round). The loader makes it; everything else reads the games
//! through it ([`Draw::game`], [`Draw::games_of`]), never the list the
//! loader read, and nothing outside `rules::pairing` knows how they were
//! paired.
//!
//! The draw is made anew from the file each run, and kept nowhere else:
//! every game of the systems served today (the round robins) is known from
//! the players' list alone. A system that pairs a round on the results of
//! the last (a Swiss, a knockout) will keep the rounds it makes in the
//! store, and the draw will be read from there; its readers stay as they
//! are.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::{GameConfig, Player};
use crate::rules::PairingSystem;

/// The games of one tournament, looked up by id and by player.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Draw {
    games: Vec<GameConfig>,
    /// Where each game is, by id and by player: every letter looks its
    /// game up, and a federation's event has thousands. Built at the first
    /// lookup: a run with no mail makes none.
    #[serde(skip)]
    index: OnceLock<Index>,
}

#[derive(Debug, Clone, Default)]
struct Index {
    by_id: HashMap<String, usize>,
    of_player: HashMap<String, Vec<usize>>,
}

impl Draw {
    pub fn new(games: Vec<GameConfig>) -> Draw {
        Draw {
            games,
            index: OnceLock::new(),
        }
    }

    /// The games `system` makes of `players` (numbered from 1 in their
    /// order), each with its round, numbered from 1 as the system numbers
    /// them; or, where the system names a number no player has, what it
    /// named (a system's fault, said, never a panic).
    pub fn paired(system: &dyn PairingSystem, players: &[Player]) -> Result<Draw, NoSuchPlayer> {
        let id = |number: usize| match number.checked_sub(1).and_then(|at| players.get(at)) {
            Some(player) => Ok(player.id.clone()),
            None => Err(NoSuchPlayer {
                system: system.name().to_string(),
                number,
                players: players.len(),
            }),
        };
        let mut games = Vec::new();
        for (at, board) in system.boards(players.len()).into_iter().enumerate() {
            games.push(GameConfig {
                id: (at + 1).to_string(),
                white: id(board.white)?,
                black: id(board.black)?,
                start_date: None,
                round: Some(board.round),
            });
        }
        Ok(Draw::new(games))
    }

    fn index(&self) -> &Index {
        self.index.get_or_init(|| {
            let mut index = Index::default();
            for (at, game) in self.games.iter().enumerate() {
                index.by_id.entry(game.id.clone()).or_insert(at);
                for player in [&game.white, &game.black] {
                    let mine = index.of_player.entry(player.clone()).or_default();
                    if mine.last() != Some(&at) {
                        mine.push(at);
                    }
                }
            }
            index
        })
    }

    /// Every game, in the draw's order.
    pub fn games(&self) -> &[GameConfig] {
        &self.games
    }

    pub fn len(&self) -> usize {
        self.games.len()
    }

    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    pub fn game(&self, id: &str) -> Option<&GameConfig> {
        let at = self.index().by_id.get(id)?;
        self.games.get(*at)
    }

    /// The games `player` plays, in the draw's order.
    pub fn games_of(&self, player: &str) -> Vec<&GameConfig> {
        self.index()
            .of_player
            .get(player)
            .map(|at| at.iter().filter_map(|&at| self.games.get(at)).collect())
            .unwrap_or_default()
    }
}

/// A pairing system's fault: it named player `number`, and the file lists
/// `players`.
#[derive(Debug, PartialEq, Eq)]
pub struct NoSuchPlayer {
    pub system: String,
    pub number: usize,
    pub players: usize,
}

impl std::fmt::Display for NoSuchPlayer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the pairing {:?} names player {}, and the file lists {} players",
            self.system, self.number, self.players
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, white: &str, black: &str) -> GameConfig {
        GameConfig {
            id: id.into(),
            white: white.into(),
            black: black.into(),
            start_date: None,
            round: None,
        }
    }

    #[test]
    fn games_are_found_by_id_and_by_player_in_the_draws_order() {
        let draw = Draw::new(vec![
            game("2", "ivanov", "petrov"),
            game("1", "sidorov", "ivanov"),
            game("3", "petrov", "sidorov"),
        ]);
        let ids = |games: Vec<&GameConfig>| -> Vec<String> {
            games.iter().map(|g| g.id.clone()).collect()
        };
        assert_eq!(ids(draw.games_of("ivanov")), ["2", "1"]);
        assert_eq!(ids(draw.games_of("sidorov")), ["1", "3"]);
        assert!(draw.games_of("nobody").is_empty());
        assert_eq!(draw.game("3").map(|g| g.white.as_str()), Some("petrov"));
        assert_eq!(draw.game("4"), None);
        assert_eq!(draw.len(), 3);
    }

    #[test]
    fn a_draw_reads_and_writes_as_its_list_of_games() {
        let draw = Draw::new(vec![game("1", "a", "b")]);
        let json = serde_json::to_string(&draw).unwrap();
        assert_eq!(
            json,
            r#"[{"id":"1","white":"a","black":"b","start_date":null}]"#
        );
        let back: Draw = serde_json::from_str(&json).unwrap();
        assert_eq!(back.games(), draw.games());
    }

    /// A system (none of the clerk's) that numbers a player the file has
    /// not: the config is refused in words, not by a panic.
    #[test]
    fn a_system_that_names_no_player_is_refused_in_words() {
        use crate::rules::pairing::{Board, Round};
        struct Beyond(usize);
        impl PairingSystem for Beyond {
            fn name(&self) -> &str {
                "beyond"
            }
            fn rounds(&self, _: usize) -> Vec<Round> {
                let board = Board {
                    round: 1,
                    board: 1,
                    white: 1,
                    black: self.0,
                };
                vec![Round {
                    number: 1,
                    boards: vec![board],
                    bye: None,
                }]
            }
        }
        let players: Vec<Player> = ["a", "b", "c"]
            .iter()
            .map(|id| Player {
                id: id.to_string(),
                name: id.to_string(),
                email: format!("{id}@example.org"),
                other_emails: Vec::new(),
                start_sheet_received: None,
                secret: None,
                start_rating: None,
            })
            .collect();
        let draw = Draw::paired(&Beyond(3), &players).unwrap();
        assert_eq!(draw.game("1").map(|g| g.black.as_str()), Some("c"));
        for number in [0, 4, 9] {
            let refused = Draw::paired(&Beyond(number), &players).unwrap_err();
            assert_eq!(
                refused.to_string(),
                format!(
                    "the pairing \"beyond\" names player {number}, and the file lists 3 players"
                )
            );
        }
    }
}

//! The games of a round robin made from its list of players, by the Berger
//! tables of the FIDE Handbook (C.05, Annex 1).
//!
//! The players are numbered in the order of the tournament's file (1 is the
//! first `[[players]]` entry); where their number is odd, one more number
//! stands for the bye, and whoever meets it rests that round. The tables are
//! the ones FIDE prints: in every round the highest number sits at the first
//! table, White in the odd rounds and Black in the even ones; the other
//! numbers sit in a circle that turns by half the tables each round, the
//! first named of each pair White. A double round robin plays the tables
//! twice, the second cycle with the colours reversed, and, as the Annex
//! recommends, the last two rounds of the first cycle exchanged, so that
//! nobody has the same colour three times running across the cycles.
//!
//! The games are numbered round by round and board by board from 1, byes
//! left out: the same list of players gives the same games on every machine.

use serde::{Deserialize, Serialize};

/// How a tournament's games are made from its players (`[tournament]
/// pairing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pairing {
    RoundRobin,
    DoubleRoundRobin,
}

impl Pairing {
    /// The name written in the file.
    pub fn name(self) -> &'static str {
        match self {
            Pairing::RoundRobin => "round_robin",
            Pairing::DoubleRoundRobin => "double_round_robin",
        }
    }

    pub fn from_name(name: &str) -> Option<Pairing> {
        [Pairing::RoundRobin, Pairing::DoubleRoundRobin]
            .into_iter()
            .find(|pairing| pairing.name() == name)
    }
}

/// One game of the pairing: its round, its board within the round (from 1,
/// byes not counted), and its players by their numbers (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    pub round: usize,
    pub board: usize,
    pub white: usize,
    pub black: usize,
}

/// One round: its games, and the player who rests, where the number of
/// players is odd.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Round {
    pub number: usize,
    pub boards: Vec<Board>,
    pub bye: Option<usize>,
}

/// The Berger table for `players` (padded to an even number): each round's
/// pairs (White, Black) at tables 1, 2, …, as FIDE prints them; the highest
/// number is the bye where `players` is odd.
pub fn berger_table(players: usize) -> Vec<Vec<(usize, usize)>> {
    let n = players + players % 2;
    if n < 2 {
        return Vec::new();
    }
    let circle = n - 1;
    // The circle's first number at table 1 in each round: 1, then half the
    // tables further on each round (1, 5, 2, 6, 3, 7, 4 for eight).
    let mut first = 0;
    (1..=circle)
        .map(|round| {
            let at = |place: usize| (first + place) % circle + 1;
            let mut pairs = Vec::with_capacity(n / 2);
            pairs.push(match round % 2 {
                1 => (at(0), n),
                _ => (n, at(0)),
            });
            for table in 1..n / 2 {
                pairs.push((at(table), at(circle - table)));
            }
            first = (first + n / 2) % circle;
            pairs
        })
        .collect()
}

/// A way of making a tournament's rounds from its players, numbered from 1
/// in the order of its file. The Berger round robin, single and double
/// ([`Pairing`]), is the clerk's own; another system (one that pairs on
/// results, as a Swiss or a knockout does) joins as a type of its own: the
/// clerk reads the games it makes, each with its round, and never the
/// system.
pub trait PairingSystem {
    /// The name written in the file (`[tournament] pairing`).
    fn name(&self) -> &str;

    /// The rounds of a tournament of `players`, its games numbered round
    /// by round and board by board.
    fn rounds(&self, players: usize) -> Vec<Round>;

    /// Every game in the order of its numbers (game 1 first).
    fn boards(&self, players: usize) -> Vec<Board> {
        self.rounds(players)
            .into_iter()
            .flat_map(|round| round.boards)
            .collect()
    }
}

impl PairingSystem for Pairing {
    fn name(&self) -> &str {
        Pairing::name(*self)
    }

    fn rounds(&self, players: usize) -> Vec<Round> {
        let table = berger_table(players);
        let mut cycle: Vec<&Vec<(usize, usize)>> = table.iter().collect();
        let mut order: Vec<(&Vec<(usize, usize)>, bool)> = Vec::new();
        match self {
            Pairing::RoundRobin => order.extend(cycle.iter().map(|r| (*r, false))),
            Pairing::DoubleRoundRobin => {
                let rounds = cycle.len();
                if rounds >= 2 {
                    cycle.swap(rounds - 2, rounds - 1);
                }
                order.extend(cycle.iter().map(|r| (*r, false)));
                order.extend(table.iter().map(|r| (r, true)));
            }
        }
        order
            .into_iter()
            .enumerate()
            .map(|(at, (pairs, reversed))| round_of(at + 1, pairs, reversed, players))
            .collect()
    }
}

/// Round `number` of a Berger table's `pairs` (its colours `reversed` in a
/// second cycle): its boards, and the player who meets the bye.
fn round_of(number: usize, pairs: &[(usize, usize)], reversed: bool, players: usize) -> Round {
    let mut boards = Vec::new();
    let mut bye = None;
    for &(first, second) in pairs {
        let (white, black) = if reversed {
            (second, first)
        } else {
            (first, second)
        };
        if white > players {
            bye = Some(black);
        } else if black > players {
            bye = Some(white);
        } else {
            boards.push(Board {
                round: number,
                board: boards.len() + 1,
                white,
                black,
            });
        }
    }
    Round {
        number,
        boards,
        bye,
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;

    /// The Berger tables as the FIDE Handbook prints them (C.05, Annex 1),
    /// typed from the Handbook's page, not made by the code under test.
    const FIDE: &[(usize, &str)] = &[
        (4, "1-4 2-3 / 4-3 1-2 / 2-4 3-1"),
        (
            6,
            "1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1",
        ),
        (
            8,
            "1-8 2-7 3-6 4-5 / 8-5 6-4 7-3 1-2 / 2-8 3-1 4-7 5-6 / 8-6 7-5 1-4 2-3 / \
             3-8 4-2 5-1 6-7 / 8-7 1-6 2-5 3-4 / 4-8 5-3 6-2 7-1",
        ),
        (
            10,
            "1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 / \
             10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 / \
             4-10 5-3 6-2 7-1 8-9 / 10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1",
        ),
        (
            12,
            "1-12 2-11 3-10 4-9 5-8 6-7 / 12-7 8-6 9-5 10-4 11-3 1-2 / \
             2-12 3-1 4-11 5-10 6-9 7-8 / 12-8 9-7 10-6 11-5 1-4 2-3 / \
             3-12 4-2 5-1 6-11 7-10 8-9 / 12-9 10-8 11-7 1-6 2-5 3-4 / \
             4-12 5-3 6-2 7-1 8-11 9-10 / 12-10 11-9 1-8 2-7 3-6 4-5 / \
             5-12 6-4 7-3 8-2 9-1 10-11 / 12-11 1-10 2-9 3-8 4-7 5-6 / \
             6-12 7-5 8-4 9-3 10-2 11-1",
        ),
        (
            14,
            "1-14 2-13 3-12 4-11 5-10 6-9 7-8 / 14-8 9-7 10-6 11-5 12-4 13-3 1-2 / \
             2-14 3-1 4-13 5-12 6-11 7-10 8-9 / 14-9 10-8 11-7 12-6 13-5 1-4 2-3 / \
             3-14 4-2 5-1 6-13 7-12 8-11 9-10 / 14-10 11-9 12-8 13-7 1-6 2-5 3-4 / \
             4-14 5-3 6-2 7-1 8-13 9-12 10-11 / 14-11 12-10 13-9 1-8 2-7 3-6 4-5 / \
             5-14 6-4 7-3 8-2 9-1 10-13 11-12 / 14-12 13-11 1-10 2-9 3-8 4-7 5-6 / \
             6-14 7-5 8-4 9-3 10-2 11-1 12-13 / 14-13 1-12 2-11 3-10 4-9 5-8 6-7 / \
             7-14 8-6 9-5 10-4 11-3 12-2 13-1",
        ),
        (
            16,
            "1-16 2-15 3-14 4-13 5-12 6-11 7-10 8-9 / \
             16-9 10-8 11-7 12-6 13-5 14-4 15-3 1-2 / \
             2-16 3-1 4-15 5-14 6-13 7-12 8-11 9-10 / \
             16-10 11-9 12-8 13-7 14-6 15-5 1-4 2-3 / \
             3-16 4-2 5-1 6-15 7-14 8-13 9-12 10-11 / \
             16-11 12-10 13-9 14-8 15-7 1-6 2-5 3-4 / \
             4-16 5-3 6-2 7-1 8-15 9-14 10-13 11-12 / \
             16-12 13-11 14-10 15-9 1-8 2-7 3-6 4-5 / \
             5-16 6-4 7-3 8-2 9-1 10-15 11-14 12-13 / \
             16-13 14-12 15-11 1-10 2-9 3-8 4-7 5-6 / \
             6-16 7-5 8-4 9-3 10-2 11-1 12-15 13-14 / \
             16-14 15-13 1-12 2-11 3-10 4-9 5-8 6-7 / \
             7-16 8-6 9-5 10-4 11-3 12-2 13-1 14-15 / \
             16-15 1-14 2-13 3-12 4-11 5-10 6-9 7-8 / \
             8-16 9-7 10-6 11-5 12-4 13-3 14-2 15-1",
        ),
    ];

    fn printed(table: &str) -> Vec<Vec<(usize, usize)>> {
        table
            .split('/')
            .map(|round| {
                round
                    .split_whitespace()
                    .map(|pair| {
                        let (white, black) = pair.split_once('-').unwrap();
                        (white.parse().unwrap(), black.parse().unwrap())
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn the_tables_are_the_ones_fide_prints() {
        for &(players, table) in FIDE {
            assert_eq!(berger_table(players), printed(table), "{players} players");
            // An odd number plays the next even number's table, its
            // highest number the bye.
            assert_eq!(
                berger_table(players - 1),
                printed(table),
                "{} players",
                players - 1
            );
        }
    }

    /// Each pair of players meets `times` times, and nobody plays twice in a
    /// round.
    fn meetings(pairing: Pairing, players: usize) -> BTreeMap<(usize, usize), usize> {
        let mut met = BTreeMap::new();
        for round in pairing.rounds(players) {
            let mut seated: Vec<usize> = round
                .boards
                .iter()
                .flat_map(|b| [b.white, b.black])
                .chain(round.bye)
                .collect();
            seated.sort();
            assert_eq!(
                seated,
                (1..=players).collect::<Vec<_>>(),
                "round {}",
                round.number
            );
            for b in round.boards {
                *met.entry((b.white.min(b.black), b.white.max(b.black)))
                    .or_insert(0) += 1;
            }
        }
        met
    }

    #[test]
    fn every_pair_meets_once_and_twice_in_a_double() {
        for players in 2..=20 {
            let pairs = players * (players - 1) / 2;
            let single = meetings(Pairing::RoundRobin, players);
            assert_eq!(single.len(), pairs, "{players} players");
            assert!(single.values().all(|&n| n == 1), "{players} players");
            let double = meetings(Pairing::DoubleRoundRobin, players);
            assert_eq!(double.len(), pairs, "{players} players");
            assert!(double.values().all(|&n| n == 2), "{players} players");
        }
    }

    #[test]
    fn the_colours_are_balanced() {
        for players in 2..=20 {
            let mut whites = vec![0i64; players + 1];
            for game in Pairing::RoundRobin.boards(players) {
                whites[game.white] += 1;
                whites[game.black] -= 1;
            }
            assert!(
                whites.iter().all(|w| w.abs() <= 1),
                "{players} players: {whites:?}"
            );
            // A double: each pair once with each colour.
            let double = Pairing::DoubleRoundRobin.boards(players);
            for a in &double {
                assert!(
                    double
                        .iter()
                        .any(|b| b.white == a.black && b.black == a.white),
                    "{players} players: {a:?}"
                );
            }
        }
    }

    #[test]
    fn games_are_numbered_round_by_round_and_board_by_board_without_byes() {
        // Five players: the sixth number is the bye, which sits at table 1.
        let rounds = Pairing::RoundRobin.rounds(5);
        assert_eq!(rounds.len(), 5);
        assert_eq!(rounds[0].bye, Some(1));
        assert_eq!(
            rounds[0].boards,
            vec![
                Board {
                    round: 1,
                    board: 1,
                    white: 2,
                    black: 5
                },
                Board {
                    round: 1,
                    board: 2,
                    white: 3,
                    black: 4
                },
            ]
        );
        assert_eq!(rounds[1].bye, Some(4));
        let all = Pairing::RoundRobin.boards(5);
        assert_eq!(all.len(), 10);
        assert_eq!((all[2].round, all[2].board), (2, 1));
    }

    #[test]
    fn a_double_exchanges_the_last_two_rounds_of_its_first_cycle() {
        let table = berger_table(4);
        let double = Pairing::DoubleRoundRobin.rounds(4);
        let pairs = |round: &Round| -> Vec<(usize, usize)> {
            round.boards.iter().map(|b| (b.white, b.black)).collect()
        };
        assert_eq!(double.len(), 6);
        assert_eq!(pairs(&double[0]), table[0]);
        assert_eq!(pairs(&double[1]), table[2]);
        assert_eq!(pairs(&double[2]), table[1]);
        let reversed: Vec<(usize, usize)> = table[0].iter().map(|&(w, b)| (b, w)).collect();
        assert_eq!(pairs(&double[3]), reversed);
        // Nobody has one colour three rounds running.
        for player in 1..=4 {
            let colours: Vec<bool> = double
                .iter()
                .map(|r| r.boards.iter().any(|b| b.white == player))
                .collect();
            assert!(
                colours.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                "player {player}: {colours:?}"
            );
        }
    }
}

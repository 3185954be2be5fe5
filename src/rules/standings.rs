//! A round robin's standings: players ranked by points,
//! then by the tie-breaks a tournament's `[rules] tie_breaks` lists in
//! order, as federations rank their tables. Only finished games count; a
//! forfeit counts as the result it gives (section 10.3 says nothing of
//! tie-breaks; the regulation does, and this is the common one).
//!
//! - Sonneborn-Berger: for each game, the opponent's points if won, half of
//!   them if drawn, none if lost.
//! - Wins: the number of games won.
//!
//! Players equal in points and in every tie-break share a place.

use serde::{Deserialize, Serialize};

use super::GameResult;
use shakmaty::Color;

/// A tie-break, as `[rules] tie_breaks` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    SonnebornBerger,
    Wins,
}

/// A game of the table: its players (by id) and its result, if over.
#[derive(Clone, Copy, Debug)]
pub struct Scored<'a> {
    pub white: &'a str,
    pub black: &'a str,
    pub result: Option<GameResult>,
}

/// A player's line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    pub player: &'a str,
    /// His points, in halves.
    pub halves: u32,
    /// Sonneborn-Berger, in quarters of a point (a draw with a player of
    /// 1½ points is ¾).
    pub sonneborn_berger: u32,
    pub wins: u32,
    /// His place, from 1; `shared_to` the last place of those equal to him
    /// (the same as `place` when nobody is).
    pub place: usize,
    pub shared_to: usize,
}

impl Line<'_> {
    /// The value of a tie-break for him (higher ranks first).
    pub fn tie_break(&self, tie_break: TieBreak) -> u32 {
        match tie_break {
            TieBreak::SonnebornBerger => self.sonneborn_berger,
            TieBreak::Wins => self.wins,
        }
    }

    /// His place as a table writes it: `2` or, shared, `2-3`.
    pub fn place_text(&self) -> String {
        if self.shared_to > self.place {
            format!("{}-{}", self.place, self.shared_to)
        } else {
            self.place.to_string()
        }
    }
}

/// The standings of `players` (in the order given, which breaks no tie but
/// keeps equal players as listed) over `games`, by points and then by
/// `tie_breaks` in order.
pub fn standings<'a>(
    players: &[&'a str],
    games: &[Scored<'_>],
    tie_breaks: &[TieBreak],
) -> Vec<Line<'a>> {
    let at = |id: &str| players.iter().position(|p| *p == id);
    let mut halves = vec![0u32; players.len()];
    let mut wins = vec![0u32; players.len()];
    // (player, opponent, the player's halves in the game)
    let mut finished: Vec<(usize, usize, u32)> = Vec::new();
    for game in games {
        let (Some(result), Some(white), Some(black)) =
            (game.result, at(game.white), at(game.black))
        else {
            continue;
        };
        for (player, opponent, color) in
            [(white, black, Color::White), (black, white, Color::Black)]
        {
            let got = result.halves(color);
            halves[player] += got;
            wins[player] += u32::from(got == 2);
            finished.push((player, opponent, got));
        }
    }
    let mut sonneborn_berger = vec![0u32; players.len()];
    for &(player, opponent, got) in &finished {
        sonneborn_berger[player] += got * halves[opponent];
    }
    let mut lines: Vec<Line<'a>> = players
        .iter()
        .enumerate()
        .map(|(at, player)| Line {
            player,
            halves: halves[at],
            sonneborn_berger: sonneborn_berger[at],
            wins: wins[at],
            place: 0,
            shared_to: 0,
        })
        .collect();
    let key = |line: &Line| -> Vec<u32> {
        std::iter::once(line.halves)
            .chain(tie_breaks.iter().map(|&t| line.tie_break(t)))
            .collect()
    };
    // A stable sort: players equal on everything stay in the given order.
    lines.sort_by_key(|line| std::cmp::Reverse(key(line)));
    let mut start = 0;
    while start < lines.len() {
        let group = key(&lines[start]);
        let end = start
            + lines[start..]
                .iter()
                .take_while(|l| key(l) == group)
                .count();
        for line in &mut lines[start..end] {
            line.place = start + 1;
            line.shared_to = end;
        }
        start = end;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use GameResult::*;

    fn game<'a>(white: &'a str, black: &'a str, result: Option<GameResult>) -> Scored<'a> {
        Scored {
            white,
            black,
            result,
        }
    }

    /// A four-player round robin: A beats B and C, draws D; B beats C and
    /// D; C draws D; D has one game unfinished with nobody (ignored).
    fn table() -> Vec<Scored<'static>> {
        vec![
            game("a", "b", Some(WhiteWins)),
            game("c", "a", Some(BlackWins)),
            game("a", "d", Some(Draw)),
            game("b", "c", Some(WhiteWins)),
            game("d", "b", Some(BlackWins)),
            game("c", "d", Some(Draw)),
            game("d", "x", None),
        ]
    }

    fn summary<'a>(lines: &[Line<'a>]) -> Vec<(&'a str, u32, u32, u32, String)> {
        lines
            .iter()
            .map(|l| {
                (
                    l.player,
                    l.halves,
                    l.sonneborn_berger,
                    l.wins,
                    l.place_text(),
                )
            })
            .collect()
    }

    #[test]
    fn points_then_sonneborn_berger_then_wins() {
        let players = ["a", "b", "c", "d"];
        let order = [TieBreak::SonnebornBerger, TieBreak::Wins];
        let lines = standings(&players, &table(), &order);
        // Points: a 2½ (5 halves), b 2 (4), c ½ (1), d 1 (2).
        // SB in quarters: a = 2·4 (b) + 2·1 (c) + 1·2 (d) = 12 (3 points);
        // b = 2·1 + 2·2 = 6; d = 1·5 + 1·1 = 6; c = 1·2 = 2.
        assert_eq!(
            summary(&lines),
            [
                ("a", 5, 12, 2, "1".to_string()),
                ("b", 4, 6, 2, "2".to_string()),
                ("d", 2, 6, 0, "3".to_string()),
                ("c", 1, 2, 0, "4".to_string()),
            ]
        );
    }

    #[test]
    fn equal_on_everything_share_a_place_in_the_order_given() {
        let games = [game("a", "b", Some(Draw)), game("c", "d", Some(Draw))];
        let lines = standings(&["a", "b", "c", "d"], &games, &[TieBreak::SonnebornBerger]);
        let places: Vec<(&str, String)> =
            lines.iter().map(|l| (l.player, l.place_text())).collect();
        assert_eq!(
            places,
            [
                ("a", "1-4".into()),
                ("b", "1-4".into()),
                ("c", "1-4".into()),
                ("d", "1-4".into())
            ]
        );
    }

    #[test]
    fn the_order_of_tie_breaks_decides() {
        // b and e have 2 points each behind r; b has more wins, e the
        // higher Sonneborn-Berger.
        let games = [
            game("b", "p", Some(WhiteWins)),
            game("b", "q", Some(WhiteWins)),
            game("b", "e", Some(BlackWins)),
            game("e", "r", Some(Draw)),
            game("e", "s", Some(Draw)),
            game("r", "s", Some(WhiteWins)),
            game("r", "p", Some(WhiteWins)),
        ];
        let players = ["b", "e", "p", "q", "r", "s"];
        let by_wins = standings(
            &players,
            &games,
            &[TieBreak::Wins, TieBreak::SonnebornBerger],
        );
        let by_sb = standings(
            &players,
            &games,
            &[TieBreak::SonnebornBerger, TieBreak::Wins],
        );
        let top = |lines: &[Line]| (lines[0].player.to_string(), lines[1].player.to_string());
        // b: 4 halves, 2 wins, SB 2·0 (p) + 2·0 (q) + 0·4 (e) = 0; e: 4
        // halves, 1 win, SB 2·4 (b) + 1·5 (r) + 1·1 (s) = 14; r: 5 halves.
        assert_eq!((by_wins[0].halves, by_wins[1].halves), (5, 4));
        assert_eq!(top(&by_wins).0, "r");
        let second = |lines: &[Line]| lines[1].player.to_string();
        assert_eq!(second(&by_wins), "b");
        assert_eq!(second(&by_sb), "e");
        // Points alone: they share second and third.
        let none = standings(&players, &games, &[]);
        assert_eq!(
            (none[1].place_text(), none[2].place_text()),
            ("2-3".into(), "2-3".into())
        );
    }
}

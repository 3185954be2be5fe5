//! Glicko-2 (Glickman's, as AICCF rates by it), by the `skillratings`
//! crate: a period's games rated together, a player without games in it
//! only less certain.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A player's Glicko-2 standing: rating, deviation (RD), volatility.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Glicko {
    /// A newcomer's, centred on `rating` (1500 where none was given):
    /// Glicko-2's own start, deviation 350, volatility 0.06.
    pub fn new(rating: Option<u32>) -> Glicko {
        let start = Glicko2Rating::new();
        Glicko {
            rating: rating.map_or(start.rating, f64::from),
            deviation: start.deviation,
            volatility: start.volatility,
        }
    }

    fn of(rating: Glicko2Rating) -> Glicko {
        Glicko {
            rating: rating.rating,
            deviation: rating.deviation,
            volatility: rating.volatility,
        }
    }

    fn crate_rating(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// The player's standing after a period whose games are `games` (each the
/// opponent's standing and the player's half points), from `before`. With
/// no games his deviation grows as the method says.
pub fn period(before: Glicko, games: &[(Glicko, u8)]) -> Glicko {
    let results: Vec<(Glicko2Rating, Outcomes)> = games
        .iter()
        .map(|&(opponent, halves)| {
            let outcome = match halves {
                2 => Outcomes::WIN,
                1 => Outcomes::DRAW,
                _ => Outcomes::LOSS,
            };
            (opponent.crate_rating(), outcome)
        })
        .collect();
    Glicko::of(glicko2_rating_period(
        &before.crate_rating(),
        &results,
        &Glicko2Config::new(),
    ))
}

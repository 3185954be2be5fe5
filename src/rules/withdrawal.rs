//! What a player's withdrawal does to his games:
//! section 10.3 says nothing of it; a tournament's regulation does, and
//! `[rules] withdrawal` names which of the two common ones it has.

use serde::{Deserialize, Serialize};

/// `[rules] withdrawal`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Withdrawal {
    /// His games not yet over are lost by forfeit; the others stand.
    #[default]
    ForfeitRemaining,
    /// If he finished fewer than half of his games, all of them are
    /// annulled (not counted, their results too); else as
    /// `ForfeitRemaining`. (FIDE's rule for round robins, as many
    /// federations have it.)
    AnnulIfUnderHalf,
}

/// What becomes of one of his games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Lost by forfeit by the player who withdrew.
    Forfeit,
    /// Annulled.
    Annul,
    /// Left as it is (over already, and counted).
    Keep,
}

/// The step for each of his games, given whether each is over (finished
/// with a result; an annulled one counts as neither over nor to be played
/// and is kept as it is).
pub fn steps(rule: Withdrawal, over: &[Option<bool>]) -> Vec<Step> {
    let counted = over.iter().flatten().count();
    let finished = over.iter().filter(|game| **game == Some(true)).count();
    let annul = rule == Withdrawal::AnnulIfUnderHalf && finished * 2 < counted;
    over.iter()
        .map(|game| match game {
            None => Step::Keep,
            Some(_) if annul => Step::Annul,
            Some(true) => Step::Keep,
            Some(false) => Step::Forfeit,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Step::*;

    #[test]
    fn a_withdrawal_forfeits_or_annuls_as_the_regulation_says() {
        let (f, a) = (Withdrawal::ForfeitRemaining, Withdrawal::AnnulIfUnderHalf);
        let (over, open, annulled) = (Some(true), Some(false), None);
        let table = [
            (f, vec![over, open, open], vec![Keep, Forfeit, Forfeit]),
            (f, vec![open], vec![Forfeit]),
            (f, vec![over, over], vec![Keep, Keep]),
            // One of three finished: under half, all annulled.
            (a, vec![over, open, open], vec![Annul, Annul, Annul]),
            // Two of four: half, not under: the rest forfeited.
            (
                a,
                vec![over, over, open, open],
                vec![Keep, Keep, Forfeit, Forfeit],
            ),
            (a, vec![open], vec![Annul]),
            // An annulled game stays so and is not counted.
            (a, vec![annulled, over, open], vec![Keep, Keep, Forfeit]),
            (a, vec![], vec![]),
        ];
        for (rule, games, expected) in table {
            assert_eq!(steps(rule, &games), expected, "{rule:?} {games:?}");
        }
    }
}

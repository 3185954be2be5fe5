//! Section 10.3 of the regulation, as functions of values (`rules.md`).
//!
//! Nothing here reads a file, the network or the clock: the clerk hands in the
//! game's ledger (every move with its postmark and delivery date), the facts of a
//! new letter, or the day it acts on, and gets back what the rules say.
//!
//! - [`ledger`]: a game's state as values: one row per move, its status and
//!   standing, what a transition returns;
//! - [`calendar`]: calendar days in the tournament zone, each player's start (10.3.2);
//! - [`clock`]: the ledger of a game, thinking time per move, totals, controls;
//! - [`dates`]: the dates a letter states, and how unlabelled ones are placed.
//! - [`judge`]: one move letter checked: time, corrections, omissions and
//!   penalties (10.3.1, 10.3.3), overstep after the letter (10.3.5);
//! - [`deadlines`]: what falls due on a day: repeats and queries (10.3.4), silent
//!   oversteps, reminders, the protest period (10.3.8) and the end date;
//! - [`sending`]: when a message counts as delivered, when a failed one
//!   is tried again, and when a reader's daily digest goes;
//! - [`life`]: a game's whole life as a state machine: every event (a move
//!   letter, a resignation, a draw, a protest, a ruling, a day) a transition
//!   from one [`Ledger`] to the next with its effects, or a refusal;
//! - [`effects`]: what a move letter, a day and an offender's letter can
//!   each cause, as their own types;
//! - [`interventions`]: the arbiter's and the director's orders on a game
//!   beyond an overstep's decision: a result set or a forfeit, a game
//!   annulled on a withdrawal, its last letter taken back;
//! - [`leave`]: a player's leave, its days checked against his allowance;
//! - [`agenda`]: what falls due in the days ahead, for the director's `today`;
//! - [`standings`]: the standings and their tie-breaks;
//! - [`pairing`]: a round robin's games made from its players (the Berger
//!   tables);
//! - [`withdrawal`]: what a player's withdrawal does to each of his games.

pub mod agenda;
pub mod calendar;
pub mod clock;
pub mod dates;
pub mod deadlines;
pub mod effects;
pub mod interventions;
pub mod judge;
pub mod leave;
pub mod ledger;
pub mod life;
pub mod pairing;
pub mod sending;
pub mod standings;
pub mod withdrawal;

pub use calendar::{Calendar, add_days, days, postmark_date};
pub use clock::Fraction;
pub use dates::{DateItem, Item, Placement, StatedDates};
pub use deadlines::{Duty, DutyKey, due, next_check, unanswered_since};
pub use effects::{
    Annulled, Awarded, DayEffect, Decided, Ended, MoveEffect, OffenderEffect, Protested, Step,
    Undone,
};
pub use judge::{
    Channel, Correction, Expected, Incoming, NewPly, Omission, Overstep, Stated, Verdict, judge,
};
pub use ledger::{
    BoardEnd, Decision, Due, EndReason, Excused, GameResult, Ledger, LetterFacts, Outcome, Refusal,
    Row, Standing, Status, Suspension, Transition, Turn,
};
pub use life::MoveLetter;
pub use pairing::{Pairing, PairingSystem};
pub use standings::TieBreak;
pub use withdrawal::Withdrawal;

use serde::{Deserialize, Serialize};

/// The limits of section 10.3, all adjustable by a tournament's `[rules]` table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Days a player has for each control (10.3.1: 50).
    pub days_per_control: u32,
    /// Moves in one control (10.3.1: 10).
    pub moves_per_control: u32,
    /// Days charged for each repeated omission (10.3.3: 6); also for a wrong claim (10.3.7).
    pub penalty_days: u32,
    /// Charge the penalty at once (the clerk never misses the next-reply deadline).
    pub auto_penalty: bool,
    /// Days without an answer after which a letter is repeated (10.3.4: 40).
    pub repeat_after_days: u32,
    /// Days after the start by which Black queries a missing first move (10.3.4: 30).
    pub first_move_query_days: u32,
    /// Days an overstepper has to protest (10.3.8: 10).
    pub protest_days: u32,
    /// Declare an overstep by silence when the running clock passes the limit.
    pub silent_overstep: bool,
    /// Days left in a control at which a player to move is reminded (our addition).
    pub reminder_days: Vec<u32>,
    /// How the cross-table breaks ties of points, in order.
    pub tie_breaks: Vec<TieBreak>,
    /// What a player's withdrawal does to his games.
    pub withdrawal: Withdrawal,
    /// Days of leave a player may take in a calendar year (0: none).
    pub leave_days_per_year: u32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            days_per_control: 50,
            moves_per_control: 10,
            penalty_days: 6,
            auto_penalty: true,
            repeat_after_days: 40,
            first_move_query_days: 30,
            protest_days: 10,
            silent_overstep: true,
            reminder_days: vec![10, 3],
            tie_breaks: vec![TieBreak::SonnebornBerger, TieBreak::Wins],
            withdrawal: Withdrawal::ForfeitRemaining,
            leave_days_per_year: 0,
        }
    }
}

impl Rules {
    /// The limit after `moves` moves: 50 days for 1..=10 moves, 100 for 11..=20, …
    /// (10.3.5). No move yet counts as the first control.
    pub fn limit(&self, moves: u32) -> u32 {
        let per = self.moves_per_control.max(1);
        let controls = moves.div_ceil(per).max(1);
        self.days_per_control.saturating_mul(controls)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_is_a_staircase_of_controls() {
        let rules = Rules::default();
        let table = [
            (0, 50),
            (1, 50),
            (10, 50),
            (11, 100),
            (20, 100),
            (21, 150),
            (30, 150),
        ];
        for (moves, limit) in table {
            assert_eq!(rules.limit(moves), limit, "limit after {moves} moves");
        }
    }
}

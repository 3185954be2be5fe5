//! One game as a player's chess program is shown it: whose move, each
//! player's days left as the rules count them, the moves, the result in
//! the protocol's words.

use chrono::NaiveDate;
use shakmaty::Color;

use super::{XfccGame, XfccResult};
use crate::record::Record;
use crate::rules::{EndReason, GameResult, Ledger, Rules, Standing, Status, Turn};

/// What the server knows of a game beside its record, for one of its
/// players.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The game's number on the server.
    pub id: u32,
    /// The player's colour in it.
    pub colour: Color,
    pub event: String,
    pub site: String,
    pub event_date: NaiveDate,
    pub round: Option<usize>,
    /// The game's board in its round, where the pairing numbers boards.
    pub board: Option<u32>,
    /// The game's page in the report, where one is published.
    pub game_link: Option<String>,
    /// The partner's words with his last move, if any.
    pub message: Option<String>,
}

/// The game `record` as `seen.colour`'s player is shown it on `today`.
pub fn game_for(record: &Record, rules: &Rules, seen: Seen, today: NaiveDate) -> XfccGame {
    let ledger = &record.ledger;
    let colour = seen.colour;
    XfccGame {
        id: seen.id,
        white: record.white.name.clone(),
        black: record.black.name.clone(),
        event: seen.event,
        site: seen.site,
        my_turn: ledger.clock_for(colour) == Turn::Yours,
        has_white: colour == Color::White,
        days_player: days_left(ledger, rules, colour, today),
        days_opponent: days_left(ledger, rules, !colour, today),
        moves: movetext(&record.board.sans_with_signs()),
        draw_offered: ledger.standing.draw_offer == Some(!colour),
        result: result_of(&ledger.standing),
        message: seen.message,
        event_date: seen.event_date,
        time_control: time_control(rules),
        round: seen
            .round
            .map_or_else(|| "-".to_string(), |round| round.to_string()),
        board: seen.board,
        game_link: seen.game_link,
    }
}

/// The days `colour` has left in his control on `today`: the player to
/// move with his running clock counted (from today where the move he
/// answers has not reached him yet: it reaches him now), the other with
/// his next move's control. Never below 0: an overstep is the rules' to
/// declare, and the clients show no negative time.
pub fn days_left(ledger: &Ledger, rules: &Rules, colour: Color, today: NaiveDate) -> i64 {
    let left = match ledger.due_if_delivered(rules, today) {
        Some(due) if due.player == colour => due.days_left,
        _ => ledger.days_left(rules, colour, 1),
    };
    left.max(0)
}

/// The moves in PGN's movetext: `1. e4 e5 2. Nf3`.
pub fn movetext(sans: &[String]) -> String {
    let mut text = String::new();
    for (ply, san) in sans.iter().enumerate() {
        if !text.is_empty() {
            text.push(' ');
        }
        if ply % 2 == 0 {
            text.push_str(&format!("{}. ", ply / 2 + 1));
        }
        text.push_str(san);
    }
    text
}

/// PGN's time control of the rules: moves per control, then its seconds
/// (`10/4320000`: 10 moves in 50 days).
pub fn time_control(rules: &Rules) -> String {
    let seconds = u64::from(rules.days_per_control) * 24 * 60 * 60;
    format!("{}/{seconds}", rules.moves_per_control)
}

/// A game's result in the protocol's words: a forfeit is the loser's
/// default, an adjudication says so, a game waiting for the chief arbiter
/// (an overstep, the end date passed) is pending his word, an annulled one
/// cancelled.
pub fn result_of(standing: &Standing) -> XfccResult {
    match (standing.status, standing.outcome) {
        (Status::Annulled, _) => XfccResult::Cancelled,
        (Status::Suspended | Status::Adjudication, _) => XfccResult::AdjudicationPending,
        (_, None) => XfccResult::Ongoing,
        (_, Some(outcome)) => match (outcome.reason, outcome.result) {
            (EndReason::Adjudication, GameResult::WhiteWins) => XfccResult::WhiteWinAdjudicated,
            (EndReason::Adjudication, GameResult::BlackWins) => XfccResult::BlackWinAdjudicated,
            (EndReason::Adjudication, GameResult::Draw) => XfccResult::DrawAdjudicated,
            (EndReason::Forfeit, GameResult::WhiteWins) => XfccResult::BlackDefaulted,
            (EndReason::Forfeit, GameResult::BlackWins) => XfccResult::WhiteDefaulted,
            (_, GameResult::WhiteWins) => XfccResult::WhiteWins,
            (_, GameResult::BlackWins) => XfccResult::BlackWins,
            (_, GameResult::Draw) => XfccResult::Draw,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Outcome;

    use crate::xfcc::testing::{d, ledger};

    #[test]
    fn each_player_is_shown_his_days_left_as_the_rules_count_them() {
        let rules = Rules::default();
        // (Black's move delivered on, the day asked, White's days, Black's)
        let table = [
            // Delivered on the 9th, asked on the 12th: White's clock has
            // run 3 days (50 - 2 - 3); Black has 50 - 4 for his next move.
            (Some("2026-11-09"), "2026-11-12", 45, 46),
            // Not delivered yet: it reaches White the day he asks.
            (None, "2026-11-12", 48, 46),
            // 60 days on: White's clock has run past his 48 days: 0, not -12.
            (Some("2026-11-09"), "2027-01-08", 0, 46),
        ];
        for (delivered, today, white, black) in table {
            let ledger = ledger(delivered);
            let today = d(today);
            assert_eq!(
                (
                    days_left(&ledger, &rules, Color::White, today),
                    days_left(&ledger, &rules, Color::Black, today)
                ),
                (white, black),
                "{delivered:?} {today}"
            );
        }
    }

    #[test]
    fn the_moves_are_numbered_as_pgn_numbers_them() {
        let sans = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(movetext(&[]), "");
        assert_eq!(movetext(&sans(&["e4"])), "1. e4");
        assert_eq!(
            movetext(&sans(&["e4", "e5", "Nf3", "Nc6", "Bb5+"])),
            "1. e4 e5 2. Nf3 Nc6 3. Bb5+"
        );
    }

    #[test]
    fn the_time_control_is_pgns() {
        assert_eq!(time_control(&Rules::default()), "10/4320000");
    }

    #[test]
    fn every_ending_has_the_protocols_word() {
        let ended = |result, reason| Standing {
            status: Status::Finished,
            outcome: Some(Outcome { result, reason }),
            ..Standing::default()
        };
        let waiting = |status| Standing {
            status,
            ..Standing::default()
        };
        let table = [
            (Standing::default(), XfccResult::Ongoing),
            (
                ended(GameResult::WhiteWins, EndReason::Resignation),
                XfccResult::WhiteWins,
            ),
            (
                ended(GameResult::BlackWins, EndReason::Overstep),
                XfccResult::BlackWins,
            ),
            (
                ended(GameResult::Draw, EndReason::Agreement),
                XfccResult::Draw,
            ),
            (
                ended(GameResult::Draw, EndReason::Adjudication),
                XfccResult::DrawAdjudicated,
            ),
            (
                ended(GameResult::BlackWins, EndReason::Adjudication),
                XfccResult::BlackWinAdjudicated,
            ),
            // White scored by forfeit: Black defaulted.
            (
                ended(GameResult::WhiteWins, EndReason::Forfeit),
                XfccResult::BlackDefaulted,
            ),
            (
                ended(GameResult::BlackWins, EndReason::Forfeit),
                XfccResult::WhiteDefaulted,
            ),
            (waiting(Status::Suspended), XfccResult::AdjudicationPending),
            (
                waiting(Status::Adjudication),
                XfccResult::AdjudicationPending,
            ),
            (waiting(Status::Annulled), XfccResult::Cancelled),
        ];
        for (standing, result) in table {
            assert_eq!(result_of(&standing), result, "{standing:?}");
        }
    }
}

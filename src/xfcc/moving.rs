//! A `MakeAMove` checked against the game before anything is taken: the
//! protocol's answer where the request cannot be carried out (not his
//! turn, a move number that is not the next, a move that is not legal or
//! names two), or what it asks, its move resolved on the board.

use shakmaty::{Color, Move};

use super::{MoveRequest, MoveResult};
use crate::game::{Reason, resolve};
use crate::letter::notation::parse_move;
use crate::record::Record;
use crate::rules::{Status, Turn};

/// What a request asks, once checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Asked {
    /// A move (a draw offered with it where the request says so).
    Move {
        played: Move,
        san: String,
    },
    Resign,
    /// The partner's offer accepted.
    AcceptDraw,
}

/// `request` checked in `record`, played by `colour`, who is or is not on
/// leave today.
pub fn checked(
    record: &Record,
    colour: Color,
    request: &MoveRequest,
    on_leave: bool,
) -> Result<Asked, MoveResult> {
    let ledger = &record.ledger;
    match ledger.status() {
        Status::Suspended => {
            let his = ledger.standing.suspension.as_ref().map(|s| s.offender) == Some(colour);
            return Err(if his {
                MoveResult::LostOnTime
            } else {
                MoveResult::NotYourTurn
            });
        }
        Status::Finished | Status::Adjudication | Status::Annulled => {
            return Err(MoveResult::NotYourTurn);
        }
        Status::Active => {}
    }
    if on_leave {
        return Err(MoveResult::YouAreOnLeave);
    }
    if request.claim_draw {
        return Err(MoveResult::FeatureUnavailable);
    }
    if request.resign {
        return Ok(Asked::Resign);
    }
    if request.accept_draw {
        return match ledger.standing.draw_offer == Some(!colour) {
            true => Ok(Asked::AcceptDraw),
            false => Err(MoveResult::NoDrawWasOffered),
        };
    }
    if ledger.clock_for(colour) != Turn::Yours {
        return Err(MoveResult::NotYourTurn);
    }
    // The clients send the full move number (White's and Black's 12th: 12).
    let next = u32::try_from(ledger.rows.len() / 2 + 1).unwrap_or(u32::MAX);
    if request.movecount != next {
        return Err(MoveResult::InvalidMoveNumber);
    }
    let text = parse_move(&request.my_move).map_err(|_| MoveResult::InvalidMove)?;
    let played = resolve(record.board.position(), text).map_err(|reason| match reason {
        Reason::Ambiguous { .. } => MoveResult::MoveIsAmbiguous,
        _ => MoveResult::InvalidMove,
    })?;
    let san = shakmaty::san::San::from_move(record.board.position(), played).to_string();
    Ok(Asked::Move { played, san })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::rules::{EndReason, GameResult, Outcome, Suspension};
    use crate::xfcc::Login;
    use crate::xfcc::testing::{d, record};

    fn request(movecount: u32, my_move: &str) -> MoveRequest {
        MoveRequest {
            login: Login {
                username: "white".into(),
                password: String::new(),
            },
            game_id: 1,
            resign: false,
            accept_draw: false,
            movecount,
            my_move: my_move.into(),
            offer_draw: false,
            claim_draw: false,
            my_message: String::new(),
        }
    }

    #[test]
    fn a_move_is_checked_as_the_protocol_answers() {
        let record = record();
        let (white, black) = (Color::White, Color::Black);
        // (who, move number, move, the answer)
        let table: &[(Color, u32, &str, Result<&str, MoveResult>)] = &[
            (white, 2, "Nf3", Ok("Nf3")),
            (white, 2, "Ng1-f3", Ok("Nf3")),
            (white, 2, "Кf3", Ok("Nf3")),
            (white, 1, "Nf3", Err(MoveResult::InvalidMoveNumber)),
            (white, 3, "Nf3", Err(MoveResult::InvalidMoveNumber)),
            (white, 2, "Nf6", Err(MoveResult::InvalidMove)),
            (white, 2, "", Err(MoveResult::InvalidMove)),
            (white, 2, "hello", Err(MoveResult::InvalidMove)),
            (black, 2, "Nf6", Err(MoveResult::NotYourTurn)),
        ];
        for (colour, movecount, my_move, answer) in table {
            let got = checked(&record, *colour, &request(*movecount, my_move), false);
            let got = got.map(|asked| match asked {
                Asked::Move { san, .. } => san,
                other => format!("{other:?}"),
            });
            assert_eq!(
                got,
                answer.map(str::to_string),
                "{colour:?} {movecount} {my_move:?}"
            );
        }
    }

    #[test]
    fn a_move_that_names_two_pieces_is_ambiguous() {
        // After 1. a4 a5 2. h4 h5 3. Ra3 Ra6 4. Rhh3 Rhh6, Rb3 names two
        // rooks; Rab3 one.
        let mut record = record();
        let sans = ["a4", "a5", "h4", "h5", "Ra3", "Ra6", "Rhh3", "Rhh6"];
        record.board = Game::from_sans(&sans, Vec::new()).unwrap();
        for _ in 0..6 {
            let last = record.ledger.rows[record.ledger.rows.len() - 2].clone();
            record.ledger.rows.push(last);
        }
        assert_eq!(record.ledger.rows.len(), 8);
        assert_eq!(
            checked(&record, Color::White, &request(5, "Rb3"), false),
            Err(MoveResult::MoveIsAmbiguous)
        );
        assert!(checked(&record, Color::White, &request(5, "Rab3"), false).is_ok());
    }

    #[test]
    fn a_resignation_a_draw_a_leave_and_a_game_over_are_answered() {
        let mut record = record();
        let resign = MoveRequest {
            resign: true,
            ..request(0, "")
        };
        // A resignation needs no turn nor number.
        assert_eq!(
            checked(&record, Color::Black, &resign, false),
            Ok(Asked::Resign)
        );
        let accept = MoveRequest {
            accept_draw: true,
            ..request(0, "")
        };
        assert_eq!(
            checked(&record, Color::White, &accept, false),
            Err(MoveResult::NoDrawWasOffered)
        );
        record.ledger.standing.draw_offer = Some(Color::Black);
        assert_eq!(
            checked(&record, Color::White, &accept, false),
            Ok(Asked::AcceptDraw)
        );
        // His own offer is not his to accept.
        assert_eq!(
            checked(&record, Color::Black, &accept, false),
            Err(MoveResult::NoDrawWasOffered)
        );
        assert_eq!(
            checked(&record, Color::White, &request(2, "Nf3"), true),
            Err(MoveResult::YouAreOnLeave)
        );
        let claim = MoveRequest {
            claim_draw: true,
            ..request(2, "")
        };
        assert_eq!(
            checked(&record, Color::White, &claim, false),
            Err(MoveResult::FeatureUnavailable)
        );
        record.ledger.standing.status = Status::Suspended;
        record.ledger.standing.suspension = Some(Suspension {
            offender: Color::White,
            notice_on: d("2027-01-10"),
            protest_received: false,
            ply: None,
        });
        assert_eq!(
            checked(&record, Color::White, &request(2, "Nf3"), false),
            Err(MoveResult::LostOnTime)
        );
        assert_eq!(
            checked(&record, Color::Black, &request(2, "Nf3"), false),
            Err(MoveResult::NotYourTurn)
        );
        record.ledger.standing.status = Status::Finished;
        record.ledger.standing.outcome = Some(Outcome {
            result: GameResult::WhiteWins,
            reason: EndReason::Resignation,
        });
        assert_eq!(
            checked(&record, Color::White, &resign, false),
            Err(MoveResult::NotYourTurn)
        );
    }
}

//! The orders of the chief arbiter and the director on a game, beyond his
//! decisions on an overstep (`life::rule`): a result set or a forfeit
//! ([`award`]), a game annulled on a withdrawal ([`annul`]), its last
//! letter taken back ([`undo`]). Each is a pure transition like those of
//! [`super::life`], which re-exports them.

use chrono::NaiveDate;

use super::life::finished;
use super::{Annulled, Awarded, EndReason, Outcome, Refusal, Step, Undone};
use super::{GameResult, Ledger, Rules, Status};

/// Who set a result by hand (kept with it: the PGN names him).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AwardedBy {
    /// The chief arbiter, by letter.
    Arbiter,
    /// The tournament director, by command (`shtempel result`).
    Director,
}

impl AwardedBy {
    /// As the database keeps it.
    pub fn code(self) -> &'static str {
        match self {
            AwardedBy::Arbiter => "arbiter",
            AwardedBy::Director => "director",
        }
    }

    pub fn from_code(code: &str) -> Option<AwardedBy> {
        match code {
            "arbiter" => Some(AwardedBy::Arbiter),
            "director" => Some(AwardedBy::Director),
            _ => None,
        }
    }
}

/// What the chief arbiter (or the director) sets: a result, or a forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scored {
    /// A result the players reached, or the adjudication of 10.3.2
    /// (`RESULT 3 1-0`).
    Result(GameResult),
    /// The result of a game not played out: the side that loses, unplayed
    /// (`FORFEIT 3 WHITE`, scored `+/-`).
    Forfeit(GameResult),
}

impl Scored {
    /// The result it gives.
    pub fn result(self) -> GameResult {
        match self {
            Scored::Result(result) | Scored::Forfeit(result) => result,
        }
    }
}

/// The chief arbiter sets the result (`RESULT 3 1-0`), or scores a forfeit
/// (`FORFEIT 3 WHITE`: White loses, unplayed): in any state, his word being
/// final. A game under way or suspended ends (a held reply stays with him);
/// a finished one gets the new result, the one it replaces in the effect.
/// The same result again changes nothing. `by`: who set it.
pub fn award(ledger: &Ledger, scored: Scored, by: AwardedBy) -> Result<Step<Awarded>, Refusal> {
    // A result set on a game past its end date is the adjudication 10.3.2
    // asks for; on any other, a result the players reached, entered.
    let reason = match (scored, ledger.standing.status) {
        (Scored::Forfeit(_), _) => EndReason::Forfeit,
        (Scored::Result(_), Status::Adjudication) => EndReason::Adjudication,
        (Scored::Result(_), _) => EndReason::Ruling,
    };
    let outcome = Outcome {
        result: scored.result(),
        reason,
    };
    let previous = ledger
        .standing
        .outcome
        .filter(|_| ledger.standing.status == Status::Finished);
    if previous == Some(outcome) {
        return Err(Refusal::SameResult(outcome));
    }
    let mut next = ledger.clone();
    next.finish(outcome);
    next.standing.held_reply = None;
    next.standing.awarded_by = Some(by);
    Ok(Step {
        ledger: next,
        effect: Awarded { outcome, previous },
    })
}

/// The game is annulled (a player withdrew under `[rules] withdrawal =
/// "annul_if_under_half"`): over, its result, if it had one, no longer
/// counted; a suspension and a held reply end with it.
pub fn annul(ledger: &Ledger) -> Result<Step<Annulled>, Refusal> {
    if ledger.standing.status == Status::Annulled {
        return Err(Refusal::Annulled);
    }
    let mut next = ledger.clone();
    let standing = &mut next.standing;
    standing.status = Status::Annulled;
    standing.outcome = None;
    standing.awarded_by = None;
    standing.suspension = None;
    standing.held_reply = None;
    standing.draw_offer = None;
    Ok(Step {
        ledger: next,
        effect: Annulled,
    })
}

/// The chief arbiter takes back a game's last letter (`UNDO 3`): its moves
/// (from the last row that began a letter, with any reply the clerk played
/// from a variant after it) go, and the days charged with them; its
/// author's draw offer and the variants waiting go too. A game the board
/// ended (mate, stalemate) is under way again; one ended otherwise, or
/// suspended, or past its end date, is for a ruling of its own.
pub fn undo(rules: &Rules, ledger: &Ledger, today: NaiveDate) -> Result<Step<Undone>, Refusal> {
    let board_end = ledger.standing.outcome.is_some_and(|o| {
        matches!(
            o.reason,
            EndReason::Checkmate | EndReason::Stalemate | EndReason::InsufficientMaterial
        )
    });
    match ledger.standing.status {
        Status::Finished if !board_end => return Err(finished(ledger)),
        Status::Annulled => return Err(Refusal::Annulled),
        Status::Suspended => return Err(Refusal::Suspended),
        Status::Adjudication => return Err(Refusal::PastEndDate),
        _ => {}
    }
    let Some(first) = ledger.rows.iter().rposition(|row| row.letter.is_some()) else {
        return Err(Refusal::NothingToUndo);
    };
    let author = ledger.rows[first].by;
    let mut next = ledger.clone();
    next.rows.truncate(first);
    let standing = &mut next.standing;
    standing.status = Status::Active;
    standing.outcome = None;
    standing.awarded_by = None;
    if standing.draw_offer == Some(author) {
        standing.draw_offer = None;
    }
    let due = next.due(rules, today);
    Ok(Step {
        ledger: next,
        effect: Undone { first, author, due },
    })
}

//! The rules' state of a game, as values: the ledger (one row per move,
//! with the dates that decide its thinking time), its status and standing
//! (a suspension, the result and how it came), and what a transition of
//! its life returns (the next ledger and its effects, or a refusal). The
//! arithmetic over it is `clock`'s; the transitions are `life`'s and
//! `interventions`'.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::{Calendar, DutyKey, Expected, Fraction};

/// One move made in the game, as the clock sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    #[serde(with = "crate::color_serde")]
    pub by: Color,
    /// The move in SAN, for the chart.
    pub san: String,
    /// Played by the clerk from a variant its author sent earlier (2.4a).
    pub conditional: bool,
    /// Postmark of the letter that carried the move (for a conditional move: the
    /// day the clerk played it).
    pub sent_on: NaiveDate,
    /// The day the partner got it; `None` while the forward is still to be sent.
    pub delivered_on: Option<NaiveDate>,
    /// Thinking days charged for this move.
    pub days: u32,
    /// Penalty days charged with this move (10.3.3).
    pub penalty: u32,
    /// Set on the first move of each letter: what the letter should have stated
    /// and what it left out.
    pub letter: Option<LetterFacts>,
}

/// What the clerk knows of one move letter beyond its moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LetterFacts {
    /// The dates the letter should have stated (from postmarks).
    pub expected: Expected,
    /// The letter was an omission (10.3.3): it lacked a date or the fraction, its
    /// own or a restated one.
    pub omission: bool,
    /// Dates it left out, which the player's next letter must restate.
    pub missing_dates: Vec<super::DateItem>,
}

/// Where a game stands, as far as the clock is concerned.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    #[default]
    Active,
    /// Waiting for the chief arbiter after an overstep (10.3.6).
    Suspended,
    /// Ended with a result.
    Finished,
    /// Past the end date without a result: for the arbiter to adjudicate.
    Adjudication,
    /// Annulled: a player withdrew (`[rules] withdrawal`); over, and not
    /// counted.
    Annulled,
}

impl Status {
    /// The status as stored and shown in JSON (the serde name).
    pub fn name(self) -> &'static str {
        match self {
            Status::Active => "active",
            Status::Suspended => "suspended",
            Status::Finished => "finished",
            Status::Adjudication => "adjudication",
            Status::Annulled => "annulled",
        }
    }
}

/// Whose clock runs, as a letter's writer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// It is his move: his clock runs.
    Yours,
    /// It is his partner's move: his own clock does not run.
    Partners,
    /// Suspended: nobody's clock runs until the arbiter decides.
    Stopped,
    /// The game is over, or past its end date.
    Over,
}

/// An overstep declared and waiting for the arbiter (10.3.6–10.3.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suspension {
    #[serde(with = "crate::color_serde")]
    pub offender: Color,
    /// The day the overstep notice went out: the protest period runs from it.
    pub notice_on: NaiveDate,
    pub protest_received: bool,
    /// The move that overstepped, when a letter did; `None` for silence.
    pub ply: Option<usize>,
}

/// Everything the rules know of one game: its calendar, its moves with their
/// clocks, and its [`Standing`] (status, result, suspension, offers…).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ledger {
    pub calendar: Calendar,
    pub rows: Vec<Row>,
    pub standing: Standing,
}

/// What the player to move owes: his days left in the control, counting the
/// days his clock has run, and the last day he may send his letter on
/// without overstepping (never after the end date).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Due {
    pub player: Color,
    pub days_left: i64,
    pub last_day: NaiveDate,
}

/// A game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum GameResult {
    WhiteWins,
    BlackWins,
    Draw,
}

impl GameResult {
    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    pub fn from_pgn(text: &str) -> Option<GameResult> {
        match text {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// `color` loses.
    pub fn loss_of(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::BlackWins,
            Color::Black => GameResult::WhiteWins,
        }
    }

    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// Half points `color` scored: 2, 1 or 0.
    pub fn halves(self, color: Color) -> u32 {
        match self.winner() {
            Some(winner) if winner == color => 2,
            Some(_) => 0,
            None => 1,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    Resignation,
    Agreement,
    Overstep,
    /// Set by the chief arbiter: a result the players reached otherwise
    /// (a draw agreed by telephone, a resignation by word), entered by him.
    Ruling,
    /// Set by the chief arbiter on a game past the end date (10.3.2).
    Adjudication,
    /// A forfeit set by the chief arbiter: scored, not played (`+/-`).
    Forfeit,
}

impl EndReason {
    /// The reason as stored and as templates name it.
    pub fn code(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::InsufficientMaterial => "insufficient-material",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Overstep => "overstep",
            EndReason::Ruling => "ruling",
            EndReason::Adjudication => "adjudication",
            EndReason::Forfeit => "forfeit",
        }
    }

    pub fn from_code(code: &str) -> Option<EndReason> {
        [
            EndReason::Checkmate,
            EndReason::Stalemate,
            EndReason::InsufficientMaterial,
            EndReason::Resignation,
            EndReason::Agreement,
            EndReason::Overstep,
            EndReason::Ruling,
            EndReason::Adjudication,
            EndReason::Forfeit,
        ]
        .into_iter()
        .find(|reason| reason.code() == code)
    }
}

/// How a game ended: its result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub result: GameResult,
    pub reason: EndReason,
}

/// How the board ended a game (mate, stalemate, no mating material).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardEnd {
    Checkmate { winner: Color },
    Stalemate,
    InsufficientMaterial,
}

impl BoardEnd {
    pub fn outcome(self) -> Outcome {
        match self {
            BoardEnd::Checkmate { winner } => Outcome {
                result: GameResult::loss_of(!winner),
                reason: EndReason::Checkmate,
            },
            BoardEnd::Stalemate => Outcome {
                result: GameResult::Draw,
                reason: EndReason::Stalemate,
            },
            BoardEnd::InsufficientMaterial => Outcome {
                result: GameResult::Draw,
                reason: EndReason::InsufficientMaterial,
            },
        }
    }
}

/// What the rules know of a game besides its moves and its calendar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    pub status: Status,
    pub outcome: Option<Outcome>,
    pub suspension: Option<Suspension>,
    /// Penalty days not tied to a move (a wrong claim, 10.3.7).
    pub extra_penalty: Fraction,
    /// Days the chief arbiter excused when he found no overstep (10.3.7).
    pub credit: Fraction,
    /// The same days, each decision's at the move they belong to (the PGN
    /// shows them there); `credit` is their sum by colour.
    pub excused: Vec<Excused>,
    /// The day play resumed after a suspension: no clock runs from before it.
    pub resumed_on: Option<NaiveDate>,
    /// A draw offered and not yet answered, by whom.
    pub draw_offer: Option<Color>,
    /// The partner's reply held during a suspension (its ply, 10.3.6).
    pub held_reply: Option<usize>,
    /// Who set the result by hand, where one did (`outcome`'s reason then
    /// `Ruling` or `Forfeit`).
    pub awarded_by: Option<super::interventions::AwardedBy>,
}

impl Standing {
    /// The game's result as PGN writes it (`1-0`), once it has one.
    pub fn result_pgn(&self) -> Option<&'static str> {
        self.outcome.map(|outcome| outcome.result.pgn())
    }
}

/// Days the chief arbiter excused one player (10.3.7), and the move they
/// belong to: the move that overstepped; for an overstep by silence, the
/// offender's first move from `after` on (the first after the decision),
/// none while he has not made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Excused {
    #[serde(with = "crate::color_serde")]
    pub by: Color,
    pub days: u32,
    pub ply: Option<usize>,
    /// The number of moves when he decided.
    pub after: usize,
}

impl Excused {
    /// The ply these days are shown at, among `rows`.
    pub fn at(&self, rows: &[Row]) -> Option<usize> {
        match self.ply {
            Some(ply) => (ply < rows.len()).then_some(ply),
            None => (self.after..rows.len()).find(|&ply| rows[ply].by == self.by),
        }
    }
}

/// Why an event cannot change the game; the ledger stays as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The game is over.
    GameOver(Outcome),
    /// Past the end date and with the arbiter for adjudication (10.3.2).
    PastEndDate,
    /// Suspended until the arbiter decides (10.3.6).
    Suspended,
    /// An acceptance with no draw offered.
    NoDrawOffered,
    /// A protest in a game with no overstep declared.
    NoOverstep,
    /// A protest from the player who claimed, not from the offender.
    NotTheOffender,
    /// A ruling on a game that waits for none.
    NotSuspended,
    /// A result set that the game already has.
    SameResult(Outcome),
    /// The game was annulled (a player withdrew): it is over and does not
    /// count.
    Annulled,
    /// No letter to take back: no move yet.
    NothingToUndo,
}

/// The arbiter's decisions (rules.md 2.5.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The overstep stands: the offender loses.
    Confirm,
    /// No overstep: play on, the held reply released.
    Reject,
    /// The file is incomplete: play on.
    Continue,
}

impl Decision {
    pub fn code(self) -> &'static str {
        match self {
            Decision::Confirm => "confirm",
            Decision::Reject => "reject",
            Decision::Continue => "continue",
        }
    }
}

/// A game's next state and what it causes: of a move letter, a day and an
/// offender's letter, what each can cause ([`MoveEffect`], [`DayEffect`],
/// [`OffenderEffect`]); a transition of one effect is a [`Step`].
///
/// [`MoveEffect`]: super::MoveEffect
/// [`DayEffect`]: super::DayEffect
/// [`OffenderEffect`]: super::OffenderEffect
/// [`Step`]: super::Step
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition<E> {
    pub ledger: Ledger,
    pub effects: Vec<E>,
    /// Calendar duties this transition did (to be done once only).
    pub done: Vec<DutyKey>,
}

impl<E> Transition<E> {
    pub(super) fn of(ledger: Ledger, effects: Vec<E>) -> Transition<E> {
        Transition {
            ledger,
            effects,
            done: Vec::new(),
        }
    }
}

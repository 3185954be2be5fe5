//! What a letter asks of the clerk, one [`Ask`] each, and the ask that
//! leads it (whose handler carries the letter). Each ask is read in a file
//! of its own, its words in both languages, its pattern and the first
//! letters the line reader tries it for beside it: a leave ([`leave`]),
//! STATUS ([`status`]), what the clerk's letters to him carry
//! ([`preferences`]), a login to the Xfcc server ([`xfcc`]); the chief arbiter's orders in `rulings`, the words
//! that change a game (a draw offered, accepted or declined, a
//! resignation, a protest) in `keywords`, moves in `move_lines`.

pub(super) mod leave;
pub(super) mod preferences;
pub(super) mod status;
pub(super) mod xfcc;

use super::{Keyword, Letter};

/// One thing a letter asks of the clerk. A letter may ask several (a move
/// and a leave, a move and a draw offer): each is carried out, or its
/// answer says why not; none is dropped unsaid. One of them leads
/// ([`Letter::leading_ask`]): the clerk's handler of that ask carries the
/// letter, and says which of the others it did not carry out
/// ([`Letter::unheeded`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// An order line (`RESULT 1 1-0`): the chief arbiter's; from anyone
    /// else, nothing.
    Order,
    /// A leave asked (`LEAVE …`, `ОТПУСК …`): carried out on its own,
    /// beside the rest.
    Leave,
    /// `STATUS`: where his games stand, answered only in a letter that
    /// asks nothing else of a game.
    Status,
    /// `DIAGRAMS`, `LANGUAGE`: what the clerk's letters to him carry;
    /// likewise.
    Preferences,
    /// `XFCC`: a login to the Xfcc server; likewise.
    Xfcc,
    Resignation,
    DrawAccept,
    Protest,
    Move,
    DrawOffer,
    DrawDecline,
}

impl Ask {
    /// Whether it is the person's, not a game's: a leave, STATUS, a
    /// setting. A letter for several games asks them once, whichever
    /// block they stand in (`letter::read_with`).
    pub fn is_persons(self) -> bool {
        matches!(
            self,
            Ask::Leave | Ask::Status | Ask::Preferences | Ask::Xfcc
        )
    }
}

impl Letter {
    /// Everything the letter asks, each once, in the order above.
    pub fn asks(&self) -> Vec<Ask> {
        let has = |keyword| self.keywords.contains(&keyword);
        [
            (Ask::Order, !self.rulings.is_empty()),
            (Ask::Leave, self.leave.is_some()),
            (Ask::Status, self.status.is_some()),
            (Ask::Preferences, !self.preferences.is_empty()),
            (Ask::Xfcc, self.xfcc),
            (Ask::Resignation, has(Keyword::Resign)),
            (Ask::DrawAccept, has(Keyword::DrawAccept)),
            (Ask::Protest, has(Keyword::Protest)),
            (Ask::Move, self.has_moves()),
            (Ask::DrawOffer, has(Keyword::DrawOffer)),
            (Ask::DrawDecline, has(Keyword::DrawDecline)),
        ]
        .into_iter()
        .filter_map(|(part, there)| there.then_some(part))
        .collect()
    }

    /// The asks of a player's letter in its game that the handler of its
    /// leading ask does not carry out, for its answer to say so: a resignation
    /// plays no move and offers nothing; a protest (the offender's, while
    /// the game is suspended) takes no move; an acceptance of a draw
    /// neither offers nor declines one. (Orders, a leave and the person's
    /// settings are taken apart; the board tells an acceptance with a move
    /// from a move.)
    pub fn unheeded(&self) -> Vec<Ask> {
        let handled: &[Ask] = match self.leading_ask() {
            Some(Ask::Resignation) => &[Ask::Resignation],
            Some(Ask::Protest) => &[Ask::Protest],
            Some(Ask::DrawAccept) => &[Ask::DrawAccept, Ask::Move],
            Some(Ask::Move) => &[Ask::Move, Ask::DrawOffer, Ask::DrawDecline],
            Some(Ask::Status) => &[Ask::Status],
            Some(Ask::Preferences) => &[Ask::Preferences],
            Some(Ask::Xfcc) => &[Ask::Xfcc],
            Some(Ask::Order | Ask::Leave | Ask::DrawOffer | Ask::DrawDecline) | None => &[],
        };
        self.asks()
            .into_iter()
            .filter(|part| {
                !matches!(part, Ask::Order | Ask::Leave | Ask::Preferences)
                    && !handled.contains(part)
            })
            .collect()
    }

    /// The ask that leads the letter, whose handler carries it: an order,
    /// a leave, a setting, STATUS or XFCC asked alone, a resignation, a draw
    /// accepted or a protest by its words, else a move by its moves (an
    /// acceptance that also moves is told from a move by the game: with no
    /// offer standing, it is one); `None` for a letter of no move and no
    /// word the clerk knows. A draw offered or declined never leads: it
    /// goes with a move.
    pub fn leading_ask(&self) -> Option<Ask> {
        let alone = !self.has_moves() && self.keywords.is_empty();
        if !self.rulings.is_empty() {
            Some(Ask::Order)
        } else if self.leave.is_some() {
            Some(Ask::Leave)
        } else if !self.preferences.is_empty() && alone {
            Some(Ask::Preferences)
        } else if self.status.is_some() && alone {
            Some(Ask::Status)
        } else if self.xfcc && alone {
            Some(Ask::Xfcc)
        } else if self.keywords.contains(&Keyword::Resign) {
            Some(Ask::Resignation)
        } else if self.keywords.contains(&Keyword::DrawAccept) {
            Some(Ask::DrawAccept)
        } else if self.keywords.contains(&Keyword::Protest) {
            Some(Ask::Protest)
        } else if self.has_moves() {
            Some(Ask::Move)
        } else {
            None
        }
    }
}

/// Reads `line` as an ask of the person's (a leave, STATUS, a setting)
/// into `letter`, where it is one; `may` says whether a pattern whose
/// labels begin with the given letters is worth trying on it.
pub(super) fn read_persons_ask(
    letter: &mut Letter,
    line_no: usize,
    line: &str,
    reading: super::DateReading,
    may: &dyn Fn(&str) -> bool,
) -> bool {
    preferences::read(letter, line, may)
        || status::read(letter, line, may)
        || xfcc::read(letter, line, may)
        || leave::read(letter, line_no, line, reading, may)
}

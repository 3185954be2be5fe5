//! A written move on the board: the legal move it means, and the reading
//! of a move written with a letter of the other alphabet.

use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

use super::Reason;
use crate::letter::MoveText;

/// A move written with a piece letter of the other alphabet (a Latin `K`
/// for the Russian knight `К`, a Cyrillic `С` for the bishop `B` …),
/// read the other way: the one reading of `written` that is a legal move
/// in `position`, with the move's role, where exactly one is. `None` where none is, or several are.
pub fn lookalike(position: &Chess, written: &str) -> Option<(String, shakmaty::Role)> {
    // Each letter and what it looks like in the other alphabet.
    const TWINS: [(char, char); 3] = [('K', 'К'), ('C', 'С'), ('B', 'В')];
    let swapped: String = written
        .chars()
        .map(|c| {
            TWINS
                .iter()
                .find_map(|&(latin, cyrillic)| {
                    (c == latin)
                        .then_some(cyrillic)
                        .or((c == cyrillic).then_some(latin))
                })
                .unwrap_or(c)
        })
        .collect();
    // The Russian king is `Кр`: a Latin `Kp` is one too.
    let readings = [swapped.replacen("Кp", "Кр", 1), swapped];
    let legal: Vec<(String, Move)> = readings
        .into_iter()
        .filter(|reading| reading != written)
        .filter_map(|reading| {
            let text = crate::letter::notation::parse_move(&reading).ok()?;
            resolve(position, text).ok().map(|mv| (reading, mv))
        })
        .collect();
    match legal.as_slice() {
        [(reading, mv)] => Some((reading.clone(), mv.role())),
        [(reading, mv), (_, other)] if mv == other => Some((reading.clone(), mv.role())),
        _ => None,
    }
}

/// Finds the legal move a written move means. Exact first; then, as an arbiter
/// would, forgiving a missing or extra capture sign and a missing promotion
/// piece, as long as one move remains.
pub fn resolve(position: &Chess, text: MoveText) -> Result<Move, Reason> {
    let legal = position.legal_moves();
    let matches = |m: &Move, lenient: bool| -> bool {
        match text {
            MoveText::Castle(side) => m.castling_side() == Some(side),
            MoveText::Normal(written) => {
                let UciMove::Normal { from, to, .. } = UciMove::from_standard(*m) else {
                    return false;
                };
                let promotion = written.promotion;
                written.role.is_none_or(|role| role == m.role())
                    && written.file.is_none_or(|file| file == from.file())
                    && written.rank.is_none_or(|rank| rank == from.rank())
                    && written.to == to
                    && (promotion == m.promotion() || (lenient && promotion.is_none()))
                    && (lenient || written.capture == m.is_capture() || written.role.is_none())
            }
        }
    };
    for lenient in [false, true] {
        let found: Vec<&Move> = legal.iter().filter(|m| matches(m, lenient)).collect();
        match found.as_slice() {
            [] => continue,
            [one] => return Ok(**one),
            many => {
                let candidates = many
                    .iter()
                    .map(|m| San::from_move(position, **m).to_string())
                    .collect();
                return Err(Reason::Ambiguous { candidates });
            }
        }
    }
    Err(Reason::Illegal)
}

//! One move as a player writes it, in any notation of contract.md, normalised to
//! a [`MoveText`] that the game record resolves on the position.
//!
//! Accepted: English SAN (`Nf3`, `exd5`, `O-O`, `e8=Q`), Russian piece letters
//! (`Кр Ф Л С К`, `:` for a capture, `0-0`, Cyrillic look-alike files `а с е`),
//! long algebraic (`Ng1-f3`, `e2-e4`, `e7xd8=Q`), figurines (`♘f3`) and ICCF
//! numeric notation (`7163`, with a promotion digit 1–4 for Q R B N).

use std::fmt;

use serde::Serialize;
use shakmaty::san::San;
use shakmaty::{CastlingSide, File, Rank, Role, Square};

/// A move as written, normalised but not yet resolved on a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveText {
    Castle(CastlingSide),
    Normal(NormalMove),
}

/// A piece or pawn move as written. `role` is `None` for ICCF numeric
/// notation, which names squares only; `file`/`rank` are the origin as far
/// as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NormalMove {
    pub role: Option<Role>,
    pub file: Option<File>,
    pub rank: Option<Rank>,
    pub capture: bool,
    pub to: Square,
    pub promotion: Option<Role>,
    /// Written with both squares (long algebraic or ICCF).
    pub long: bool,
}

impl MoveText {
    /// The same move as shakmaty's SAN where the notation names the piece.
    pub fn to_san(self) -> Option<San> {
        match self {
            MoveText::Castle(side) => Some(San::Castle(side)),
            MoveText::Normal(written) => Some(San::Normal {
                role: written.role?,
                file: written.file,
                rank: written.rank,
                capture: written.capture,
                to: written.to,
                promotion: written.promotion,
            }),
        }
    }
}

impl Serialize for MoveText {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for MoveText {
    /// SAN where it was SAN; `Ng1-f3` / `e2-e4` for long algebraic; `g1-f3` for
    /// ICCF numeric, which does not name the piece.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            MoveText::Castle(side) => f.write_str(if side == CastlingSide::KingSide {
                "O-O"
            } else {
                "O-O-O"
            }),
            MoveText::Normal(written) => {
                if let Some(role) = written.role.filter(|&role| role != Role::Pawn) {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = written.file {
                    write!(f, "{}", file.char())?;
                }
                if let Some(rank) = written.rank {
                    write!(f, "{}", rank.char())?;
                }
                if written.capture {
                    f.write_str("x")?;
                } else if written.long {
                    f.write_str("-")?;
                }
                write!(f, "{}", written.to)?;
                if let Some(promotion) = written.promotion {
                    write!(f, "={}", promotion.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

/// Why a word is not a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAMove;

/// Strips what may follow a move and means nothing to the record: check and mate
/// signs, annotation marks, punctuation.
pub fn strip_annotations(word: &str) -> &str {
    word.trim_end_matches(['+', '#', '!', '?', ',', ';', '.', '†', '‡', ')', '('])
}

/// Reads one move in any accepted notation.
pub fn parse_move(word: &str) -> Result<MoveText, NotAMove> {
    let ascii = to_ascii(strip_annotations(word.trim())).ok_or(NotAMove)?;
    if ascii.is_empty() {
        return Err(NotAMove);
    }
    match ascii.as_str() {
        "O-O" | "0-0" => return Ok(MoveText::Castle(CastlingSide::KingSide)),
        "O-O-O" | "0-0-0" => return Ok(MoveText::Castle(CastlingSide::QueenSide)),
        _ => {}
    }
    if let Some(numeric) = iccf(&ascii) {
        return Ok(numeric);
    }
    if let Some(long) = long_algebraic(&ascii) {
        return Ok(long);
    }
    let san = San::from_ascii(ascii.as_bytes()).map_err(|_| NotAMove)?;
    match san {
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => Ok(MoveText::Normal(NormalMove {
            role: Some(role),
            file,
            rank,
            capture,
            to,
            promotion,
            long: false,
        })),
        San::Castle(side) => Ok(MoveText::Castle(side)),
        San::Put { .. } | San::Null => Err(NotAMove),
    }
}

/// Rewrites Russian letters, figurines and capture/promotion variants into the
/// ASCII of SAN. `None` when a character has no place in a move.
fn to_ascii(word: &str) -> Option<String> {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars().peekable();
    while let Some(c) = chars.next() {
        let mapped = match c {
            'К' if chars.peek().is_some_and(|&next| next == 'р' || next == 'Р') => {
                chars.next();
                'K'
            }
            'К' | '♘' | '♞' => 'N',
            'Ф' | '♕' | '♛' => 'Q',
            'Л' | '♖' | '♜' => 'R',
            'С' | '♗' | '♝' => 'B',
            '♔' | '♚' => 'K',
            '♙' | '♟' => continue,
            // Cyrillic look-alikes typed on a Russian layout.
            'а' => 'a',
            'с' => 'c',
            'е' => 'e',
            'х' | 'Х' | ':' | '×' => 'x',
            'О' | 'о' => 'O',
            '–' | '—' | '‐' => '-',
            '(' | ')' | '/' => '=',
            c if c.is_ascii_alphanumeric() || c == '-' || c == '=' => c,
            _ => return None,
        };
        out.push(mapped);
    }
    // `e8Q`, `e8(Q)`, `e8/Q` are all `e8=Q`; drop a trailing `=` from `e8(Q)`.
    let trimmed = out.trim_end_matches('=');
    let mut ascii = trimmed.replace("==", "=");
    if let Some(last) = ascii.chars().last().filter(|c| "QRBN".contains(*c)) {
        let before = &ascii[..ascii.len() - 1];
        if before.ends_with(['1', '8']) && !before.ends_with('=') {
            ascii = format!("{before}={last}");
        }
    }
    Some(ascii)
}

/// ICCF numeric notation: from-file, from-rank, to-file, to-rank as digits 1–8,
/// and a promotion digit 1–4 (Q R B N).
fn iccf(ascii: &str) -> Option<MoveText> {
    let digits: Vec<u32> = ascii
        .chars()
        .map(|c| c.to_digit(10))
        .collect::<Option<_>>()?;
    if !(4..=5).contains(&digits.len()) || digits[..4].iter().any(|d| !(1..=8).contains(d)) {
        return None;
    }
    let square =
        |file: u32, rank: u32| Square::from_coords(File::new(file - 1), Rank::new(rank - 1));
    let from = square(digits[0], digits[1]);
    let promotion = match digits.get(4) {
        None => None,
        Some(1) => Some(Role::Queen),
        Some(2) => Some(Role::Rook),
        Some(3) => Some(Role::Bishop),
        Some(4) => Some(Role::Knight),
        Some(_) => return None,
    };
    Some(MoveText::Normal(NormalMove {
        role: None,
        file: Some(from.file()),
        rank: Some(from.rank()),
        capture: false,
        to: square(digits[2], digits[3]),
        promotion,
        long: true,
    }))
}

/// Long algebraic: `Ng1-f3`, `e2-e4`, `e7xd8=Q`, `Ng1f3`.
fn long_algebraic(ascii: &str) -> Option<MoveText> {
    let bytes = ascii.as_bytes();
    let (role, rest) = match bytes.first()? {
        b'K' => (Some(Role::King), &bytes[1..]),
        b'Q' => (Some(Role::Queen), &bytes[1..]),
        b'R' => (Some(Role::Rook), &bytes[1..]),
        b'B' => (Some(Role::Bishop), &bytes[1..]),
        b'N' => (Some(Role::Knight), &bytes[1..]),
        // Without a piece letter the squares alone say the move (`g1-f3`).
        _ => (None, bytes),
    };
    let from = Square::from_ascii(rest.get(0..2)?).ok()?;
    let (capture, rest) = match rest.get(2)? {
        b'-' => (false, &rest[3..]),
        b'x' => (true, &rest[3..]),
        _ => return None,
    };
    let to = Square::from_ascii(rest.get(0..2)?).ok()?;
    let promotion = match &rest[2..] {
        [] => None,
        [b'=', piece] => Some(
            Role::from_char(char::from(*piece).to_ascii_lowercase()).filter(|role| {
                matches!(role, Role::Queen | Role::Rook | Role::Bishop | Role::Knight)
            })?,
        ),
        _ => return None,
    };
    Some(MoveText::Normal(NormalMove {
        role,
        file: Some(from.file()),
        rank: Some(from.rank()),
        capture,
        to,
        promotion,
        long: true,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_table() {
        // (as written, normalised)
        let table = [
            ("Nf3", "Nf3"),
            ("Кf3", "Nf3"),
            ("Крe2", "Ke2"),
            ("Фd1:d8", "Qd1xd8"),
            ("Фd8+", "Qd8"),
            ("Лa1", "Ra1"),
            ("Сb5", "Bb5"),
            ("е4", "e4"),
            ("e4!?", "e4"),
            ("exd5", "exd5"),
            ("e:d5", "exd5"),
            ("eхd5", "exd5"),
            ("O-O", "O-O"),
            ("0-0", "O-O"),
            ("0-0-0", "O-O-O"),
            ("О-О", "O-O"),
            ("e8=Q", "e8=Q"),
            ("e8Q", "e8=Q"),
            ("e8Ф", "e8=Q"),
            ("e8(Q)", "e8=Q"),
            ("Ng1-f3", "Ng1-f3"),
            ("Кg1-f3", "Ng1-f3"),
            ("e2-e4", "e2-e4"),
            ("e7xd8=Q", "e7xd8=Q"),
            ("e7:d8Ф", "e7xd8=Q"),
            ("♘f3", "Nf3"),
            ("♞c6", "Nc6"),
            ("5254", "e2-e4"),
            ("7163", "g1-f3"),
            ("57581", "e7-e8=Q"),
            ("57584", "e7-e8=N"),
            ("Ng1f3", "Ng1f3"),
            ("Nbd2", "Nbd2"),
            ("R1a3", "R1a3"),
        ];
        for (written, normal) in table {
            let parsed =
                parse_move(written).unwrap_or_else(|_| panic!("{written} should read as a move"));
            assert_eq!(parsed.to_string(), normal, "{written}");
        }
    }

    #[test]
    fn words_that_are_not_moves() {
        for word in [
            "hello",
            "ход",
            "9999",
            "5295",
            "575855",
            "e9",
            "Zf3",
            "i4",
            "ничья",
            "",
            "+",
        ] {
            assert_eq!(parse_move(word), Err(NotAMove), "{word:?} is no move");
        }
    }

    #[test]
    fn san_round_trips_through_shakmaty() {
        let table = [
            ("Nf3", "Nf3"),
            ("exd5", "exd5"),
            ("O-O", "O-O"),
            ("0-0-0", "O-O-O"),
            ("e8=Q", "e8=Q"),
            ("Nbd2", "Nbd2"),
            ("Qh4xe1", "Qh4xe1"),
            ("Ng1-f3", "Ng1f3"),
            ("bxa1=N", "bxa1=N"),
        ];
        for (text, san_text) in table {
            let san = parse_move(text).unwrap().to_san().unwrap();
            assert_eq!(san.to_string(), san_text, "{text}");
            assert_eq!(
                San::from_ascii(san_text.as_bytes()).unwrap(),
                san,
                "{text} back through shakmaty"
            );
        }
        assert_eq!(
            parse_move("7163").unwrap().to_san(),
            None,
            "ICCF names no piece"
        );
    }
}

//! The position as a board a player can look at: a fixed-width
//! text diagram for the plain part of a letter, seen from the reader's
//! side with the last move marked, and the position's FEN for chess
//! programs.
//!
//! The diagram's convention (README, "The board in the letters"): White's
//! pieces in capitals, Black's in small letters, the tournament's piece
//! letters (`K Q R B N P`; in Russian `Кр Ф Л С К П`), an empty square `.`,
//! the two squares of the last move in brackets.

use shakmaty::fen::Fen;
use shakmaty::{Chess, Color, EnPassantMode, File, Move, Position, Rank, Role, Square};

use crate::phrases::Phrases;

/// The letters of the pieces, White's (capitals) by role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceLetters {
    king: String,
    queen: String,
    rook: String,
    bishop: String,
    knight: String,
    pawn: String,
}

impl PieceLetters {
    /// The letters of the tournament's language (`[notation]` phrases).
    pub fn of(phrases: &Phrases) -> PieceLetters {
        let letter = |key: &str| phrases.get(&format!("notation.{key}")).to_string();
        PieceLetters {
            king: letter("king"),
            queen: letter("queen"),
            rook: letter("rook"),
            bishop: letter("bishop"),
            knight: letter("knight"),
            pawn: letter("pawn"),
        }
    }

    /// The English letters.
    pub fn english() -> PieceLetters {
        PieceLetters {
            king: "K".into(),
            queen: "Q".into(),
            rook: "R".into(),
            bishop: "B".into(),
            knight: "N".into(),
            pawn: "P".into(),
        }
    }

    fn letter(&self, role: Role, color: Color) -> String {
        let white = match role {
            Role::King => &self.king,
            Role::Queen => &self.queen,
            Role::Rook => &self.rook,
            Role::Bishop => &self.bishop,
            Role::Knight => &self.knight,
            Role::Pawn => &self.pawn,
        };
        match color {
            Color::White => white.clone(),
            Color::Black => white.to_lowercase(),
        }
    }

    /// The widest letter, in characters: a cell's width inside its marks.
    fn width(&self) -> usize {
        [
            &self.king,
            &self.queen,
            &self.rook,
            &self.bishop,
            &self.knight,
            &self.pawn,
        ]
        .iter()
        .map(|letter| letter.chars().count())
        .max()
        .unwrap_or(1)
    }
}

/// The squares a move's mark goes on: where it came from and went to (a
/// castling: the king's two squares).
pub(crate) fn marked_squares(last: Option<&Move>) -> [Option<Square>; 2] {
    match last {
        Some(Move::Castle { king, rook }) => {
            let side = if rook.file() > king.file() {
                File::G
            } else {
                File::C
            };
            [Some(*king), Some(Square::from_coords(side, king.rank()))]
        }
        Some(mv) => [mv.from(), Some(mv.to())],
        None => [None, None],
    }
}

/// The ranks from top to bottom and the files from left to right of a
/// board seen from `side`.
pub fn seen_from(side: Color) -> (Vec<Rank>, Vec<File>) {
    match side {
        Color::White => (Rank::ALL.into_iter().rev().collect(), File::ALL.to_vec()),
        Color::Black => (Rank::ALL.to_vec(), File::ALL.into_iter().rev().collect()),
    }
}

/// The position as a fixed-width text diagram seen from `side` (his pieces
/// at the bottom), the squares of `last` in brackets.
pub fn text(position: &Chess, side: Color, last: Option<&Move>, letters: &PieceLetters) -> String {
    let width = letters.width();
    let marked = marked_squares(last);
    let board = position.board();
    let (ranks, files) = seen_from(side);
    let cell = width + 2;
    let edge = format!("   +{}+\n", "-".repeat(cell * 8));
    let mut out = edge.clone();
    for rank in &ranks {
        out.push_str(&format!(" {} |", rank.char()));
        for file in &files {
            let square = Square::from_coords(*file, *rank);
            let piece = board
                .piece_at(square)
                .map_or_else(|| ".".to_string(), |p| letters.letter(p.role, p.color));
            let pad = " ".repeat(width - piece.chars().count());
            let (open, close) = if marked.contains(&Some(square)) {
                ('[', ']')
            } else {
                (' ', ' ')
            };
            out.push_str(&format!("{open}{piece}{pad}{close}"));
        }
        out.push_str("|\n");
    }
    out.push_str(&edge);
    out.push_str("    ");
    for file in &files {
        out.push(' ');
        out.push(file.char());
        out.push_str(&" ".repeat(width));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// One position of a game as the report's board steps through it: its
/// FEN and the squares of the move that led to it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Step {
    pub fen: String,
    pub marked: Vec<String>,
}

/// Every position of the game of `moves`, the start first.
pub fn steps(moves: &[Move]) -> Vec<Step> {
    let mut position = Chess::default();
    let mut steps = vec![Step {
        fen: fen(&position),
        marked: Vec::new(),
    }];
    for mv in moves {
        position.play_unchecked(*mv);
        steps.push(Step {
            fen: fen(&position),
            marked: marked_squares(Some(mv))
                .iter()
                .flatten()
                .map(|square| square.to_string())
                .collect(),
        });
    }
    steps
}

/// The position's FEN (en passant only where a capture is legal, as
/// chess programs write it).
pub fn fen(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

/// The position after `sans` from the start, and the last move: for the
/// tests of the board's text and picture.
#[cfg(test)]
pub(crate) fn after(sans: &[&str]) -> (Chess, Option<Move>) {
    let mut position = Chess::default();
    let mut last = None;
    for san in sans {
        let mv = san
            .parse::<shakmaty::san::San>()
            .unwrap()
            .to_move(&position)
            .unwrap();
        position.play_unchecked(mv);
        last = Some(mv);
    }
    (position, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_after_1_e4_from_either_side() {
        let (position, last) = after(&["e4"]);
        let white = text(
            &position,
            Color::White,
            last.as_ref(),
            &PieceLetters::english(),
        );
        assert_eq!(
            white,
            "   +------------------------+\n \
             8 | r  n  b  q  k  b  n  r |\n \
             7 | p  p  p  p  p  p  p  p |\n \
             6 | .  .  .  .  .  .  .  . |\n \
             5 | .  .  .  .  .  .  .  . |\n \
             4 | .  .  .  . [P] .  .  . |\n \
             3 | .  .  .  .  .  .  .  . |\n \
             2 | P  P  P  P [.] P  P  P |\n \
             1 | R  N  B  Q  K  B  N  R |\n   \
             +------------------------+\n     \
             a  b  c  d  e  f  g  h\n"
        );
        let black = text(
            &position,
            Color::Black,
            last.as_ref(),
            &PieceLetters::english(),
        );
        let lines: Vec<&str> = black.lines().collect();
        assert_eq!(lines[1], " 1 | R  N  B  K  Q  B  N  R |");
        assert_eq!(lines[3], " 3 | .  .  .  .  .  .  .  . |");
        assert_eq!(lines[4], " 4 | .  .  . [P] .  .  .  . |");
        assert_eq!(lines[10], "     h  g  f  e  d  c  b  a");
    }

    #[test]
    fn russian_letters_and_a_castling_marked_on_the_kings_squares() {
        let letters = PieceLetters {
            king: "Кр".into(),
            queen: "Ф".into(),
            rook: "Л".into(),
            bishop: "С".into(),
            knight: "К".into(),
            pawn: "П".into(),
        };
        let (position, last) = after(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O"]);
        let diagram = text(&position, Color::Black, last.as_ref(), &letters);
        let lines: Vec<&str> = diagram.lines().collect();
        // From Black's side: rank 1 on top, h-file on the left.
        assert_eq!(lines[1], " 1 | .  [Кр] Л  [. ] Ф   С   К   Л  |");
        assert_eq!(lines[8], " 8 | л   к   .   кр  ф   с   .   л  |");
        assert_eq!(
            fen(&position),
            "r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 5 4"
        );
    }

    /// The placement field of a FEN read back from a diagram, by the
    /// diagram's own convention and nothing of this module's, and the
    /// squares in brackets.
    fn read_back(diagram: &str, side: Color, letters: &[(&str, char)]) -> (String, Vec<String>) {
        let lines: Vec<&str> = diagram.lines().collect();
        assert_eq!(lines.len(), 11, "{diagram}");
        let mut ranks: Vec<Vec<Option<char>>> = Vec::new();
        let mut marked = Vec::new();
        for line in &lines[1..9] {
            let rank = line[1..2].to_string();
            let inner: Vec<char> = line.split('|').nth(1).unwrap().chars().collect();
            let width = inner.len() / 8;
            let files = match side {
                Color::White => "abcdefgh",
                Color::Black => "hgfedcba",
            };
            let mut cells = Vec::new();
            for (cell, file) in inner.chunks(width).zip(files.chars()) {
                let text: String = cell.iter().collect();
                if text.starts_with('[') {
                    assert!(text.ends_with(']'), "{text:?}");
                    marked.push(format!("{file}{rank}"));
                }
                let letter = text.trim_matches(|c| c == '[' || c == ']' || c == ' ');
                cells.push(match letter {
                    "." => None,
                    _ => Some(
                        letters
                            .iter()
                            .find(|(l, _)| *l == letter)
                            .unwrap_or_else(|| panic!("{letter:?}"))
                            .1,
                    ),
                });
            }
            if side == Color::Black {
                cells.reverse();
            }
            ranks.push(cells);
        }
        if side == Color::Black {
            ranks.reverse();
        }
        let placement = ranks
            .iter()
            .map(|rank| {
                let mut out = String::new();
                let mut empty = 0;
                for cell in rank {
                    match cell {
                        None => empty += 1,
                        Some(c) => {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            out.push(*c);
                        }
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect::<Vec<_>>()
            .join("/");
        marked.sort();
        (placement, marked)
    }

    /// Every position of the 208 real games, from both sides, in English
    /// and Russian letters: the diagram read back gives the FEN's placement,
    /// and the last move's squares are the ones in brackets.
    #[test]
    fn every_position_of_the_real_games_reads_back_as_its_fen() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/realgames/games.pgn");
        let Ok(games) = std::fs::read_to_string(&path) else {
            assert!(
                std::env::var_os("SHTEMPEL_REQUIRE_SHARED").is_none(),
                "{} is missing",
                path.display()
            );
            return;
        };
        let russian = PieceLetters::of(&Phrases::builtin(crate::Lang::Ru));
        let english = PieceLetters::english();
        let ru: &[(&str, char)] = &[
            ("Кр", 'K'),
            ("Ф", 'Q'),
            ("Л", 'R'),
            ("С", 'B'),
            ("К", 'N'),
            ("П", 'P'),
            ("кр", 'k'),
            ("ф", 'q'),
            ("л", 'r'),
            ("с", 'b'),
            ("к", 'n'),
            ("п", 'p'),
        ];
        let en: &[(&str, char)] = &[
            ("K", 'K'),
            ("Q", 'Q'),
            ("R", 'R'),
            ("B", 'B'),
            ("N", 'N'),
            ("P", 'P'),
            ("k", 'k'),
            ("q", 'q'),
            ("r", 'r'),
            ("b", 'b'),
            ("n", 'n'),
            ("p", 'p'),
        ];
        let mut positions = 0;
        for movetext in games.split("\n\n").filter(|block| !block.starts_with('[')) {
            let mut position = Chess::default();
            for word in movetext.split_whitespace() {
                if word.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
                    continue;
                }
                let san: shakmaty::san::SanPlus = word.parse().unwrap();
                let mv = san.san.to_move(&position).unwrap();
                position.play_unchecked(mv);
                let fen = fen(&position);
                // The FEN is shakmaty's, and reads back to the position.
                let again: Chess = fen
                    .parse::<Fen>()
                    .unwrap()
                    .into_position(shakmaty::CastlingMode::Standard)
                    .unwrap();
                assert_eq!(again.board(), position.board(), "{fen}");
                let placement = fen.split(' ').next().unwrap();
                let mut squares: Vec<String> = marked_squares(Some(&mv))
                    .iter()
                    .flatten()
                    .map(|sq| sq.to_string())
                    .collect();
                squares.sort();
                for side in [Color::White, Color::Black] {
                    for (letters, table) in [(&english, en), (&russian, ru)] {
                        let diagram = text(&position, side, Some(&mv), letters);
                        let (read, marked) = read_back(&diagram, side, table);
                        assert_eq!(read, placement, "{word} from {side:?}:\n{diagram}");
                        assert_eq!(marked, squares, "{word} from {side:?}:\n{diagram}");
                    }
                }
                positions += 1;
            }
        }
        assert!(positions > 10_000, "{positions} positions");
    }
}

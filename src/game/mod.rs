//! The game record on shakmaty: moves in any notation resolved on the position,
//! repeated moves checked against the record, conditional variants held and
//! played (rules.md 2.4a), the ends of a game, and PGN.
//!
//! [`Game::apply`] either returns the next record or the reason the letter's
//! moves cannot stand, leaving the record untouched.

use crate::error::Error;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Color, KnownOutcome, Move, Outcome, Position};

use crate::letter::{MoveToken, Variant};
use crate::phrases::Phrases;
use crate::rules::NewPly;

mod written;
pub use written::{lookalike, resolve};

/// One move in the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub san: String,
    pub by: Color,
    pub mv: Move,
}

/// A variant its author offered: from ply `start_ply` on, the partner's move, the
/// author's reply, and so on, each as SAN.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeldVariant {
    #[serde(with = "crate::color_serde")]
    pub author: Color,
    pub start_ply: usize,
    pub sans: Vec<String>,
}

/// How a game ended on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum End {
    Checkmate {
        #[serde(with = "crate::color_serde")]
        winner: Color,
    },
    Stalemate,
    InsufficientMaterial,
}

impl End {
    /// The result in PGN form.
    pub fn result(self) -> &'static str {
        match self {
            End::Checkmate {
                winner: Color::White,
            } => "1-0",
            End::Checkmate {
                winner: Color::Black,
            } => "0-1",
            End::Stalemate | End::InsufficientMaterial => "1/2-1/2",
        }
    }
}

/// The record of one game.
#[derive(Clone, Debug, Default)]
pub struct Game {
    position: Chess,
    played: Vec<Played>,
    held: Vec<HeldVariant>,
    end: Option<End>,
}

/// Records already rebuilt from their stored moves, by game, so that the
/// next letter of a game replays only the moves stored since, not its
/// whole game (a move generation or two per ply). A record is used only
/// while its moves are the first ones stored, so a record rolled back or
/// changed in any way is rebuilt from the start.
#[derive(Debug, Default)]
pub struct Replays {
    games: RefCell<HashMap<crate::key::GameKey, Game>>,
}

impl Replays {
    /// The record of game `key` after `sans`, as [`Game::from_sans`] gives
    /// it (by its key: the games of a folder's events share their ids).
    pub fn game(
        &self,
        key: &crate::key::GameKey,
        sans: &[&str],
        held: Vec<HeldVariant>,
    ) -> Result<Game, Error> {
        let mut games = self.games.borrow_mut();
        let mut game = games
            .get(key)
            .filter(|known| {
                known.played.len() <= sans.len()
                    && known.played.iter().zip(sans).all(|(p, san)| p.san == *san)
            })
            .cloned()
            .unwrap_or_default();
        let kept = game.played.len();
        if kept < sans.len() {
            game.replay(&sans[kept..])?;
            games.insert(key.clone(), game.clone());
        }
        game.held = held;
        Ok(game)
    }
}

/// What a letter did to the record.
#[derive(Clone, Debug)]
pub struct Applied {
    pub game: Game,
    /// The new moves in order, the writer's and conditional replies between them.
    pub plies: Vec<NewPly>,
    /// The clerk played a conditional reply after the writer's last move: the
    /// writer must be told, and answers that notice (2.4a).
    pub conditional_reply: Option<String>,
    /// Variants of the writer now held for the partner.
    pub offered: Vec<HeldVariant>,
    /// The partner's variants that lapsed because the move did not match.
    pub lapsed: usize,
    pub end: Option<End>,
}

/// Why a letter's moves cannot stand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refusal {
    /// The move as written, where one move is to blame.
    pub written: Option<String>,
    pub line: Option<usize>,
    pub reason: Reason,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "code", rename_all = "snake_case")]
pub enum Reason {
    /// No legal move matches.
    Illegal,
    /// Several legal moves match; they are listed.
    Ambiguous { candidates: Vec<String> },
    /// It is the partner's move.
    OutOfTurn,
    /// The number points past the next move, which is `expected`.
    Numbering { expected: String },
    /// A repeated move differs from the record, which has `recorded`.
    RepeatMismatch { recorded: String },
    /// The letter repeats moves but makes none of its own.
    NoMove,
    /// The game has ended.
    GameOver,
    /// A variant cannot stand.
    Variant { problem: VariantProblem },
}

/// What is wrong with a conditional variant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum VariantProblem {
    /// A move is numbered out of its place, `expected` being its place.
    Numbering { expected: String },
    /// It starts with its author's own move, not the partner's.
    OwnMoveFirst,
    /// One of its moves cannot be played.
    Move { reason: Box<Reason> },
}

impl Refusal {
    fn new(token: &MoveToken, reason: Reason) -> Refusal {
        Refusal {
            written: Some(token.written.clone()),
            line: Some(token.line),
            reason,
        }
    }

    /// The reason in plain words for the player.
    pub fn explain(&self, phrases: &Phrases) -> String {
        let why = reason_text(&self.reason, phrases);
        match self.line {
            Some(line) => {
                let written = self.written.as_deref().unwrap_or("");
                phrases.fill(
                    "board.at",
                    &[("line", &line), ("written", &written), ("why", &why)],
                )
            }
            None => why,
        }
    }
}

fn reason_text(reason: &Reason, phrases: &Phrases) -> String {
    match reason {
        Reason::Illegal => phrases.get("board.illegal").to_string(),
        Reason::Ambiguous { candidates } => {
            let candidates: Vec<String> = candidates.iter().map(|san| phrases.san(san)).collect();
            phrases.fill("board.ambiguous", &[("candidates", &candidates.join(", "))])
        }
        Reason::OutOfTurn => phrases.get("board.out_of_turn").to_string(),
        Reason::Numbering { expected } => {
            phrases.fill("board.numbering", &[("expected", expected)])
        }
        Reason::RepeatMismatch { recorded } => phrases.fill(
            "board.repeat_mismatch",
            &[("recorded", &phrases.moves(recorded))],
        ),
        Reason::NoMove => phrases.get("board.no_move").to_string(),
        Reason::GameOver => phrases.get("board.game_over").to_string(),
        Reason::Variant { problem } => {
            let detail = match problem {
                VariantProblem::Numbering { expected } => {
                    phrases.fill("board.variant_numbering", &[("expected", expected)])
                }
                VariantProblem::OwnMoveFirst => phrases.get("board.variant_own_move").to_string(),
                VariantProblem::Move { reason } => reason_text(reason, phrases),
            };
            phrases.fill("board.variant", &[("detail", &detail)])
        }
    }
}

/// The name of ply `ply` (0-based): `12.` for White, `12...` for Black.
pub fn ply_label(ply: usize) -> String {
    let number = ply / 2 + 1;
    if ply.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

fn ply_of(token: &MoveToken) -> Option<usize> {
    let number = usize::try_from(token.number?).ok()?;
    let black = usize::from(token.color? == Color::Black);
    Some((number - 1) * 2 + black)
}

impl Game {
    /// A new game from the initial position.
    pub fn new() -> Game {
        Game::default()
    }

    /// The record rebuilt from its moves in SAN, as stored.
    pub fn from_sans<S: AsRef<str>>(sans: &[S], held: Vec<HeldVariant>) -> Result<Game, Error> {
        let mut game = Game::new();
        game.replay(sans)?;
        game.held = held;
        Ok(game)
    }

    /// Plays stored moves after the record's own: each move is resolved
    /// once, and the end of the game is looked for after the last one only
    /// (no move is stored after a mate).
    fn replay<S: AsRef<str>>(&mut self, sans: &[S]) -> Result<(), Error> {
        let first = self.played.len();
        for (index, san) in sans.iter().enumerate() {
            let san = san.as_ref();
            let ply = first + index;
            let mv = San::from_ascii(san.as_bytes())
                .map_err(|_| Error::internal(format!("{}{san}: not SAN", ply_label(ply))))?
                .to_move(&self.position)
                .map_err(|e| Error::internal(format!("{}{san}: {e}", ply_label(ply))))?;
            self.play(mv);
        }
        self.end = self.end_of_position();
        Ok(())
    }

    pub fn moves(&self) -> &[Played] {
        &self.played
    }

    pub fn sans(&self) -> Vec<String> {
        self.played.iter().map(|p| p.san.clone()).collect()
    }

    /// Each move in SAN with its check or mate sign (`Qh4#`), as PGN writes it.
    pub fn sans_with_signs(&self) -> Vec<String> {
        let mut position = Chess::default();
        self.played
            .iter()
            .map(|p| SanPlus::from_move_and_play_unchecked(&mut position, p.mv).to_string())
            .collect()
    }

    pub fn held(&self) -> &[HeldVariant] {
        &self.held
    }

    pub fn position(&self) -> &Chess {
        &self.position
    }

    pub fn turn(&self) -> Color {
        self.position.turn()
    }

    pub fn end(&self) -> Option<End> {
        self.end
    }

    /// The label of the next move: `12.` or `12...`.
    pub fn next_label(&self) -> String {
        ply_label(self.played.len())
    }

    /// The position before ply `ply`.
    fn position_at(&self, ply: usize) -> Chess {
        let mut position = Chess::default();
        for played in &self.played[..ply.min(self.played.len())] {
            position.play_unchecked(played.mv);
        }
        position
    }

    fn push(&mut self, mv: Move) {
        self.play(mv);
        self.end = self.end_of_position();
    }

    /// Plays a legal move and records it as the board writes it.
    fn play(&mut self, mv: Move) {
        let by = self.position.turn();
        let san = San::from_move(&self.position, mv).to_string();
        self.position.play_unchecked(mv);
        self.played.push(Played { san, by, mv });
    }

    /// How the game ends in its position, if it does.
    fn end_of_position(&self) -> Option<End> {
        match self.position.outcome() {
            Outcome::Known(KnownOutcome::Decisive { winner }) => Some(End::Checkmate { winner }),
            Outcome::Known(KnownOutcome::Draw) if self.position.is_stalemate() => {
                Some(End::Stalemate)
            }
            Outcome::Known(KnownOutcome::Draw) => Some(End::InsufficientMaterial),
            Outcome::Unknown => None,
        }
    }

    /// Applies a letter of `by`: its moves in turn (repeats checked), conditional
    /// replies of the partner's variants played as they match, and the letter's
    /// own variants held.
    pub fn apply(
        &self,
        by: Color,
        moves: &[MoveToken],
        variants: &[Variant],
    ) -> Result<Applied, Refusal> {
        let mut game = self.clone();
        let first_new = game.played.len();
        let mut plies = Vec::new();
        let mut lapsed = 0;
        let mut own_moves = 0;
        for token in moves {
            let ply = ply_of(token).unwrap_or(game.played.len());
            if ply < game.played.len() {
                let before = game.position_at(ply);
                let recorded = &game.played[ply];
                let written = resolve(&before, token.text).ok();
                if written != Some(recorded.mv) {
                    let recorded = format!("{} {}", ply_label(ply), recorded.san);
                    return Err(Refusal::new(token, Reason::RepeatMismatch { recorded }));
                }
                continue;
            }
            if game.end.is_some() {
                return Err(Refusal::new(token, Reason::GameOver));
            }
            if game.turn() != by {
                return Err(Refusal::new(token, Reason::OutOfTurn));
            }
            if ply > game.played.len() {
                let expected = game.next_label();
                return Err(Refusal::new(token, Reason::Numbering { expected }));
            }
            let mv = resolve(&game.position, token.text)
                .map_err(|reason| Refusal::new(token, reason))?;
            game.push(mv);
            own_moves += 1;
            plies.push(NewPly {
                by,
                san: game.played[ply].san.clone(),
                conditional: false,
            });
            lapsed += game.answer_variants(ply, &mut plies);
        }
        if own_moves == 0 {
            let reason = if game.end.is_some() {
                Reason::GameOver
            } else if game.turn() != by {
                Reason::OutOfTurn
            } else {
                Reason::NoMove
            };
            let token = moves.last();
            return Err(Refusal {
                written: token.map(|t| t.written.clone()),
                line: token.map(|t| t.line),
                reason,
            });
        }
        let conditional_reply = plies
            .last()
            .filter(|ply| ply.conditional)
            .map(|ply| format!("{} {}", ply_label(game.played.len() - 1), ply.san));
        let mut offered = Vec::new();
        if game.end.is_none() {
            for variant in variants {
                offered.push(game.offer(by, variant)?);
            }
        }
        if !offered.is_empty() {
            game.held.retain(|held| held.author != by);
            game.held.extend(offered.iter().cloned());
        }
        debug_assert!(game.played.len() > first_new);
        let end = game.end;
        Ok(Applied {
            game,
            plies,
            conditional_reply,
            offered,
            lapsed,
            end,
        })
    }

    /// After the partner's move at `ply`, plays the reply of a variant of his
    /// partner's that foresaw it, and drops the variants that did not.
    fn answer_variants(&mut self, ply: usize, plies: &mut Vec<NewPly>) -> usize {
        let mover = self.played[ply].by;
        let san = self.played[ply].san.clone();
        let (waiting, others): (Vec<_>, Vec<_>) = self
            .held
            .drain(..)
            .partition(|held| held.author != mover && held.start_ply == ply);
        self.held = others;
        let (matched, lapsed): (Vec<_>, Vec<_>) =
            waiting.into_iter().partition(|held| held.sans[0] == san);
        if let Some(mut variant) = matched.into_iter().next()
            && let Some(reply) = variant.sans.get(1).cloned()
        {
            let mv = San::from_ascii(reply.as_bytes())
                .ok()
                .and_then(|san| san.to_move(&self.position).ok());
            if let Some(mv) = mv {
                self.push(mv);
                plies.push(NewPly {
                    by: variant.author,
                    san: reply,
                    conditional: true,
                });
                if variant.sans.len() > 2 {
                    variant.sans.drain(..2);
                    variant.start_ply += 2;
                    self.held.push(variant);
                }
            }
        }
        lapsed.len()
    }

    /// Checks a variant offered by `author` from the current position.
    fn offer(&self, author: Color, variant: &Variant) -> Result<HeldVariant, Refusal> {
        let start_ply = self.played.len();
        let mut position = self.position.clone();
        let mut sans = Vec::new();
        for (index, token) in variant.moves.iter().enumerate() {
            let ply = start_ply + index;
            let refuse = |problem| Refusal::new(token, Reason::Variant { problem });
            if let Some(written) = ply_of(token)
                && written != ply
            {
                let expected = ply_label(ply);
                return Err(refuse(VariantProblem::Numbering { expected }));
            }
            if index == 0 && position.turn() == author {
                return Err(refuse(VariantProblem::OwnMoveFirst));
            }
            let mv = resolve(&position, token.text).map_err(|reason| {
                refuse(VariantProblem::Move {
                    reason: Box::new(reason),
                })
            })?;
            sans.push(San::from_move(&position, mv).to_string());
            position.play_unchecked(mv);
            if position.is_game_over() {
                break;
            }
        }
        Ok(HeldVariant {
            author,
            start_ply,
            sans,
        })
    }

    /// The game in PGN: `tags` in order, then the moves with an optional comment
    /// after each ply, and the result.
    pub fn pgn(
        &self,
        tags: &[(&str, String)],
        comments: &[Option<String>],
        result: &str,
    ) -> String {
        let mut out = String::new();
        for (name, value) in tags {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{name} \"{value}\"]");
        }
        out.push('\n');
        let mut words = Vec::new();
        let mut position = Chess::default();
        for (ply, played) in self.played.iter().enumerate() {
            if ply.is_multiple_of(2) {
                words.push(format!("{}.", ply / 2 + 1));
            } else if comments.get(ply - 1).is_some_and(Option::is_some) {
                words.push(format!("{}...", ply / 2 + 1));
            }
            words.push(SanPlus::from_move_and_play_unchecked(&mut position, played.mv).to_string());
            if let Some(Some(comment)) = comments.get(ply) {
                words.push(format!("{{{}}}", comment.replace('}', ")")));
            }
        }
        words.push(result.to_string());
        let mut line = String::new();
        for word in words {
            if !line.is_empty() && line.len() + 1 + word.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        out.push_str(&line);
        out.push('\n');
        out
    }
}

#[cfg(test)]
mod tests;

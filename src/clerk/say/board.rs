//! A board as a message shows it, from its reader's side: the text
//! diagram, its FEN, the last move's label and the picture, for every
//! message that asks its reader for a move.

use crate::clerk::{Clerk, label_moves};
use crate::error::Error;
use crate::model;
use crate::record::Record;
use crate::render::Model;

/// A board as a message shows it: the template's values, the diagram's
/// text (the HTML part puts the picture in its place), the picture's
/// words, and what the picture is drawn from.
pub struct BoardView {
    pub model: Model,
    pub diagram: String,
    pub alt: String,
    pub position: shakmaty::Chess,
    pub last: Option<shakmaty::Move>,
    pub reader: shakmaty::Color,
}

impl BoardView {
    /// The board's picture for a message whose text is `body`, with
    /// `diagrams = "both"`; none where the text does not show the board (a
    /// template may show it to the player to move only).
    pub fn picture(
        self,
        diagrams: crate::config::Diagrams,
        body: &str,
    ) -> Result<Option<crate::mail::format::compose::Picture>, Error> {
        if !diagrams.has_picture() || !body.contains(&self.diagram) {
            return Ok(None);
        }
        let png = crate::board::picture::png(&self.position, self.reader, self.last.as_ref())?;
        Ok(Some(crate::mail::format::compose::Picture {
            diagram: self.diagram,
            png,
            alt: self.alt,
            side: self.reader,
            alone: diagrams == crate::config::Diagrams::Picture,
        }))
    }
}

impl Clerk<'_> {
    /// The position of `state` as a board from `reader`'s side, for a
    /// message that asks him for a move (`[mail] diagrams`): the text
    /// diagram, its FEN, and the last move's label; none with
    /// `diagrams = "none"`.
    pub(in crate::clerk) fn board_view(
        &self,
        state: &Record,
        reader: shakmaty::Color,
    ) -> Option<BoardView> {
        if self.diagrams == crate::config::Diagrams::None {
            return None;
        }
        let phrases = self.phrases();
        let position = state.board.position();
        let last = state.board.moves().last().map(|played| played.mv);
        let letters = crate::board::diagram::PieceLetters::of(phrases);
        let last_label = state.ledger.rows.last().map(|row| {
            let ply = state.ledger.rows.len() - 1;
            phrases.moves(&label_moves(ply, &[(row.san.clone(), false)]))
        });
        let diagram = crate::board::diagram::text(position, reader, last.as_ref(), &letters);
        let alt = match &last_label {
            Some(last) => phrases.fill("board.picture_after", &[("last", last)]),
            None => phrases.get("board.picture_start").to_string(),
        };
        Some(BoardView {
            model: model! {
                "diagram" => diagram.as_str(),
                "fen" => crate::board::diagram::fen(position),
                "last" => last_label,
                "picture_only" => self.diagrams == crate::config::Diagrams::Picture,
            },
            diagram,
            alt,
            position: position.clone(),
            last,
            reader,
        })
    }
}

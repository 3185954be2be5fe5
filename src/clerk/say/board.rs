//! A board as a message shows it, from its reader's side: the text
//! diagram, its FEN, the last move's label and the picture, for every
//! message that asks its reader for a move.

use crate::clerk::label_moves;
use crate::clerk::say::voice::Voice;
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

/// A board to show a reader, as facts: the position, its last move, and
/// whose side it is seen from. It is drawn when said, in the reader's
/// voice (his piece letters, his board setting).
#[derive(Debug)]
pub struct Shown {
    position: shakmaty::Chess,
    last: Option<shakmaty::Move>,
    /// The last move's ply and SAN, to label it.
    last_row: Option<(usize, String)>,
    reader: shakmaty::Color,
}

impl minijinja::value::Object for Shown {
    fn repr(self: &std::sync::Arc<Self>) -> minijinja::value::ObjectRepr {
        minijinja::value::ObjectRepr::Plain
    }
}

impl Shown {
    /// The position of `state` as a board from `reader`'s side, for a
    /// message that asks him for a move: a model's value, said as the
    /// board's text diagram, FEN and last move (see [`Shown::view`]).
    pub fn of(state: &Record, reader: shakmaty::Color) -> Model {
        Model::from_object(Shown {
            position: state.board.position().clone(),
            last: state.board.moves().last().map(|played| played.mv),
            last_row: state
                .ledger
                .rows
                .last()
                .map(|row| (state.ledger.rows.len() - 1, row.san.clone())),
            reader,
        })
    }

    /// The board as `voice` shows it: the text diagram, its FEN, and the
    /// last move's label; none with `diagrams = "none"`.
    pub fn view(&self, voice: Voice<'_>) -> Option<BoardView> {
        let Voice { phrases, diagrams } = voice;
        if diagrams == crate::config::Diagrams::None {
            return None;
        }
        let letters = crate::board::diagram::PieceLetters::of(phrases);
        let last_label = self
            .last_row
            .as_ref()
            .map(|(ply, san)| phrases.moves(&label_moves(*ply, &[(san.clone(), false)])));
        let diagram =
            crate::board::diagram::text(&self.position, self.reader, self.last.as_ref(), &letters);
        let alt = match &last_label {
            Some(last) => phrases.fill("board.picture_after", &[("last", last)]),
            None => phrases.get("board.picture_start").to_string(),
        };
        Some(BoardView {
            model: model! {
                "diagram" => diagram.as_str(),
                "fen" => crate::board::diagram::fen(&self.position),
                "last" => last_label,
                "picture_only" => diagrams == crate::config::Diagrams::Picture,
            },
            diagram,
            alt,
            position: self.position.clone(),
            last: self.last,
            reader: self.reader,
        })
    }
}

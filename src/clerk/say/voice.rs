//! How one reader is spoken to: his language's phrases and his board
//! setting, what every fact of a message is worded by when it is said.

use crate::config::Diagrams;
use crate::phrases::Phrases;

/// How one reader is spoken to: his language's phrases and his board.
#[derive(Clone, Copy)]
pub struct Voice<'p> {
    pub phrases: &'p Phrases,
    pub diagrams: Diagrams,
}

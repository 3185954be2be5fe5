//! The board as a letter shows it: a text diagram with its FEN
//! (`diagram`), and a PNG picture of it (`picture`).

pub mod diagram;
pub mod picture;

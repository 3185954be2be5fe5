//! What the clerk says: a message drafted ([`draft`]) as a notice
//! ([`notice`]: decided, not yet worded), the board it shows ([`board`]), the day's replies held to their limit ([`limits`]), what its templates
//! read of a game and of a letter ([`model`]), the answers of a letter
//! that changes nothing ([`refusals`]), a game's end told
//! ([`result`]), whoever ended it, and each reader's own preferences
//! heeded ([`readers`]): the say step, where each notice of a decided plan
//! is worded for its reader. A model holds facts ([`words`]: days,
//! phrases, boards) worded when a message is said in a reader's voice
//! ([`voice`], [`speak`]).

pub mod board;
pub mod draft;
pub mod limits;
pub mod model;
pub mod notice;
pub mod readers;
pub mod refusals;
pub mod result;
pub mod speak;
pub mod voice;
pub mod words;

//! A message being made: its kind, the game it is of, who gets it and what
//! it answers, each said by name at the call site, then made a notice with its
//! template's values.

use shakmaty::Color;

use crate::clerk::say::board::Shown;
use crate::clerk::say::notice::Notice;
use crate::error::Error;
use crate::mail::format::compose::Recipient;
use crate::message::MessageKind;
use crate::record::Record;
use crate::render::{Model, merged};
use crate::rules::Turn;

use crate::clerk::{Clerk, model, recipient};

/// A message of one kind, being drafted.
pub(in crate::clerk) struct Draft<'c, 'a, 'r> {
    clerk: &'c Clerk<'a>,
    kind: MessageKind,
    state: Option<&'r Record>,
    to: Vec<Recipient>,
    cc: Vec<Recipient>,
    in_reply_to: Option<String>,
    /// The player of the game it is to: his letter speaks to him as "you"
    /// (the template's `reader`, `"white"` or `"black"`).
    reader: Option<Color>,
}

impl<'c, 'a, 'r> Draft<'c, 'a, 'r> {
    pub(in crate::clerk) fn new(clerk: &'c Clerk<'a>, kind: MessageKind) -> Draft<'c, 'a, 'r> {
        Draft {
            clerk,
            kind,
            state: None,
            to: Vec::new(),
            cc: Vec::new(),
            in_reply_to: None,
            reader: None,
        }
    }

    /// The game it is of (its subject's tag, its `X-Shtempel-Game`).
    pub(in crate::clerk) fn of(self, state: &'r Record) -> Self {
        self.of_game(Some(state))
    }

    /// The game it is of, if any.
    pub(in crate::clerk) fn of_game(mut self, state: Option<&'r Record>) -> Self {
        self.state = state;
        self
    }

    pub(in crate::clerk) fn to(mut self, who: Recipient) -> Self {
        self.to.push(who);
        self
    }

    /// The player of `state` who plays `color`, its reader.
    pub(in crate::clerk) fn for_player(mut self, state: &Record, color: Color) -> Self {
        self.reader = Some(color);
        self.to(recipient(state.player(color)))
    }

    /// Everyone of `who`, in order.
    pub(in crate::clerk) fn each_of(mut self, who: Vec<Recipient>) -> Self {
        self.to.extend(who);
        self
    }

    pub(in crate::clerk) fn cc(mut self, who: Recipient) -> Self {
        self.cc.push(who);
        self
    }

    /// The letter it answers (`In-Reply-To`), if any.
    pub(in crate::clerk) fn answering(mut self, message_id: Option<String>) -> Self {
        self.in_reply_to = message_id;
        self
    }

    /// One letter to each player of its game, White's first, each to its
    /// reader as "you" (one letter to both spoke of
    /// each in the third person). The copies (`cc`) go with White's only:
    /// the chief secretary needs the news once.
    pub(in crate::clerk) fn notice_to_each_player(
        self,
        model: Model,
    ) -> Result<Vec<(Color, Notice)>, Error> {
        let state = self
            .state
            .ok_or_else(|| Error::internal("a letter to each player without its game"))?;
        let mut letters = Vec::new();
        for color in [Color::White, Color::Black] {
            let draft = Draft {
                clerk: self.clerk,
                kind: self.kind,
                state: self.state,
                to: Vec::new(),
                cc: match color {
                    Color::White => self.cc.clone(),
                    Color::Black => Vec::new(),
                },
                in_reply_to: self.in_reply_to.clone(),
                reader: None,
            };
            let letter = draft.for_player(state, color).notice(model.clone());
            letters.push((color, letter));
        }
        Ok(letters)
    }

    /// The notice, with `model`: the facts its template is given besides
    /// the ones every message has.
    pub(in crate::clerk) fn notice(self, model: Model) -> Notice {
        let Draft {
            clerk,
            kind,
            state,
            to,
            cc,
            in_reply_to,
            reader,
        } = self;
        let addressee = to.first().map_or("", |r| r.name.as_str());
        // The board goes to a reader who is to move now: any letter that
        // asks him for his move shows it where its template asks.
        let board = match (state, reader) {
            (Some(state), Some(reader)) if state.ledger.clock_for(reader) == Turn::Yours => {
                Some(Shown::of(state, reader))
            }
            _ => None,
        };
        let model = merged(
            model,
            merged(
                model! {
                    "reader" => reader.map(crate::color_name),
                    "board" => board,
                },
                clerk.base_model(state, addressee),
            ),
        );
        Notice {
            kind,
            game: state.map(|s| s.id().to_string()),
            to,
            cc,
            in_reply_to,
            registered: false,
            generated: false,
            attachments: Vec::new(),
            delivers: None,
            send_on: None,
            digest_for: None,
            model,
            message_id: None,
            of_event: true,
            event: None,
            words: (),
        }
    }
}

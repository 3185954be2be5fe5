//! A message said: its model's facts worded in a reader's voice, its
//! template rendered, and the boards its text shows drawn as pictures
//! where the reader's board setting asks for them.

use crate::clerk::Clerk;
use crate::clerk::say::words::{Voice, spoken};
use crate::error::Error;
use crate::mail::format::compose::Words;
use crate::message::MessageKind;
use crate::render::{Model, Templates};

/// The message of `kind` from `model`, said with `templates` in `voice`.
pub fn say(
    templates: &Templates,
    voice: Voice<'_>,
    kind: MessageKind,
    model: &Model,
) -> Result<Words, Error> {
    let spoken = spoken(model, voice);
    let rendered = templates
        .render(kind.template(), spoken.model)
        .map_err(Error::template)?;
    let mut pictures = Vec::new();
    for board in spoken.boards {
        pictures.extend(board.picture(voice.diagrams, &rendered.body)?);
    }
    Ok(Words {
        subject: rendered.subject,
        body: rendered.body,
        pictures,
    })
}

impl Clerk<'_> {
    /// How the event speaks: its language and its board (a reader who
    /// chose his own is said his messages again, see `readers`).
    pub(in crate::clerk) fn voice(&self) -> Voice<'_> {
        Voice {
            phrases: self.templates.phrases(),
            diagrams: self.config.mail.diagrams,
        }
    }

    /// The size a notice comes to, said in its event's voice: what a
    /// handler that must keep a message within `max_message_bytes`
    /// measures (pictures aside: the say step drops them from a message
    /// they would take over the limit).
    pub(in crate::clerk) fn size_said(
        &self,
        notice: &crate::clerk::say::notice::Notice,
    ) -> Result<usize, Error> {
        let mut message =
            self.said_as(notice.clone(), crate::config::Preferences::default(), None)?;
        message.words.pictures.clear();
        Ok(crate::mail::format::compose::size_at_most(&message))
    }
}

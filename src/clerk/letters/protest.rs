//! An overstepper's protest (10.3.8): to the chief arbiter with the letter,
//! a copy to the protester.

use crate::clerk::EventKind;
use crate::clerk::context::LetterContext;
use crate::clerk::{Clerk, Plan, recipient};
use crate::error::Error;
use crate::mail::format::filing::filed_letter;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::rules::Protested;
use crate::rules::life::protest;
use crate::store::{Disposition, StoredLetter};

impl Clerk<'_> {
    pub(in crate::clerk) fn plan_protest(
        &self,
        state: &mut Record,
        context: &LetterContext<'_>,
        stored: &mut StoredLetter,
    ) -> Result<Plan, Error> {
        let lang = self.lang();
        let transition = match protest(
            &self.config.rules,
            &state.ledger,
            context.color,
            context.postmark,
        ) {
            Ok(transition) => transition,
            Err(refusal) => {
                let reason = self.refusal_reason(&refusal, state.id());
                return self.refuse(state, context, vec![reason], stored);
            }
        };
        state.ledger = transition.ledger;
        let Protested {
            by,
            late,
            notice_on,
            until,
        } = transition.effect;
        let mut plan = Plan::default();
        let protester = state.player(by);
        stored.disposition = Disposition::Applied;
        stored.reason = if late {
            "protest (late)".into()
        } else {
            "protest".into()
        };
        let model = model! {
            "reasons" => protest_text(&context.mail.text),
            "from" => protester.name.as_str(),
            "late" => late,
            "notice_on" => lang.date(notice_on),
            "until" => lang.date(until),
            "game_id" => self.ruling_game(state),
        };
        let mut message = self
            .draft(MessageKind::Protest)
            .of(state)
            .to(self.arbiter())
            .cc(recipient(protester))
            .render(model)?;
        message.attachments.push(filed_letter(
            "protest.eml".into(),
            context.raw,
            protester.secret.as_deref(),
        ));
        plan.messages.push(message);
        plan.notes
            .push(self.note(crate::store::NoteKind::Protest, |clerk| {
                clerk
                    .phrases()
                    .fill("note.protest", &[("date", &clerk.date(context.postmark))])
            }));
        plan.event(
            EventKind::Protest,
            Some(&state.key),
            Some(&protester.email),
            stored.reason.clone(),
        );
        Ok(plan)
    }
}

/// The protester's own words, quotes and signature cut, for the message's
/// own text (the arbiter reads them without opening the attachment); a
/// long one ends with "…", whole in the attachment.
fn protest_text(body: &str) -> String {
    const MOST: usize = 4_000;
    let lines: Vec<&str> = crate::letter::own_lines(body)
        .into_iter()
        .map(|(_, line)| line.trim_end())
        .collect();
    let text = lines.join("\n");
    let text = text.trim();
    if text.chars().count() <= MOST {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(MOST).collect();
    cut.push_str(" …");
    cut
}

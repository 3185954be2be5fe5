//! An overstepper's protest (10.3.8): to the chief arbiter with the letter,
//! a copy to the protester.

use crate::clerk::EventKind;
use crate::clerk::context::LetterContext;
use crate::clerk::{Clerk, Fate, Letters, Plan, recipient};
use crate::error::Error;
use crate::mail::format::filing::filed_letter;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::rules::Protested;
use crate::rules::life::protest;

impl Letters<'_, '_> {
    pub(in crate::clerk) fn plan_protest(
        &self,
        state: &Record,
        context: &LetterContext<'_>,
    ) -> Result<Plan, Error> {
        let transition = match protest(
            &self.config.rules,
            &state.ledger,
            context.color,
            context.postmark,
        ) {
            Ok(transition) => transition,
            Err(refusal) => {
                let reason = Clerk::refusal_reason(&refusal, state.id());
                return self.refuse(state, context, vec![reason]);
            }
        };
        let changed = Record {
            ledger: transition.ledger,
            ..state.clone()
        };
        let state = &changed;
        let Protested {
            by,
            late,
            notice_on,
            until,
        } = transition.effect;
        let mut plan = Plan::default();
        let protester = state.player(by);
        let why = if late { "protest (late)" } else { "protest" };
        let model = model! {
            "reasons" => protest_text(&context.mail.text),
            "from" => protester.name.as_str(),
            "late" => late,
            "notice_on" => crate::clerk::say::words::date(notice_on),
            "until" => crate::clerk::say::words::date(until),
            "game_id" => self.ruling_game(state),
        };
        let mut message = self
            .draft(MessageKind::Protest)
            .of(state)
            .to(self.arbiter())
            .cc(recipient(protester))
            .notice(model);
        message.attachments.push(filed_letter(
            "protest.eml".into(),
            context.raw,
            protester.secret.as_deref(),
        ));
        plan.messages.push(message);
        plan.writes.notes.push(self.note(
            crate::store::NoteKind::Protest,
            |phrases: &crate::phrases::Phrases| {
                phrases.fill("note.protest", &[("date", &phrases.date(context.postmark))])
            },
        ));
        plan.event(
            EventKind::Protest,
            Some(&state.key),
            Some(&protester.email),
            why.to_string(),
        );
        plan.writes.fate = Some(Fate::applied(why));
        plan.writes.game = Some(changed);
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

//! The clerk's answers of a letter that changes nothing: a refusal in a
//! game or outside any, a forged letter's notice, an oversized letter's,
//! and the rules' refusals in words.

use crate::clerk::EventKind;
use chrono::NaiveDate;

use crate::clerk::context::LetterContext;
use crate::clerk::say::notice::Notice;
use crate::clerk::say::words::{Sentence, phrase, text};
use crate::clerk::{Clerk, Fate, Plan, recipient};
use crate::error::Error;
use crate::letter::Letter;
use crate::mail::Envelope;
use crate::mail::format::auth;
use crate::mail::format::compose::Recipient;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules;
use crate::store::{Store, StoredLetter};

impl Clerk<'_> {
    /// A letter that fails [`auth::verify`]: nothing changes; the registered
    /// address it claims gets a notice, at most one a day: a flood of forged letters costs him
    /// one, and never takes the room
    /// of an answer to a letter of his own (the notice is no reply).
    pub(in crate::clerk) fn forged(
        &self,
        store: &Store,
        who: Recipient,
        why: &auth::Unverified,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let mut reason = format!("not verified: {why}");
        let told = store.replies_on(
            &who.email,
            self.clock.today,
            &[MessageKind::Unverified.header()],
        )?;
        let told_today = told > 0;
        if told_today {
            reason.push_str(" (the day's notice sent already: not answered)");
        }
        plan.event(EventKind::Forged, None, Some(&who.email), reason.clone());
        plan.writes.fate = Some(Fate::ignored(reason));
        if !told_today {
            plan.messages.push(self.unverified_notice(who, why));
        }
        Ok(plan)
    }
    /// The day's notice to the address a letter claimed, of why it was not
    /// taken as its owner's.
    pub(in crate::clerk) fn unverified_notice(
        &self,
        who: Recipient,
        why: &auth::Unverified,
    ) -> Notice {
        let reason = match why.clone() {
            auth::Unverified::NoPass { method, domain, .. } => text(move |phrases| {
                phrases.fill(
                    "reason.unverified_no_pass",
                    &[("method", &method), ("domain", &domain.as_str())],
                )
            }),
            auth::Unverified::SecretMissing => phrase("reason.unverified_secret_missing"),
            auth::Unverified::SecretWrong => phrase("reason.unverified_secret_wrong"),
        };
        let secret = !matches!(why, auth::Unverified::NoPass { .. });
        let model = model! { "why" => reason, "secret" => secret };
        self.draft(MessageKind::Unverified).to(who).notice(model)
    }
    /// A letter over `max_letter_bytes`: kept, not read; a player gets a notice.
    pub(in crate::clerk) fn oversized(
        &self,
        envelope: &Envelope,
        stored: &StoredLetter,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let limit = self.config.limits.max_letter_bytes;
        // A letter that came longer than its server announced is cut one
        // byte past the limit (mail/source/imap): its size is not known.
        let size_known = envelope.size != limit.saturating_add(1);
        let why = match size_known {
            true => format!(
                "{} bytes, over the limit of {limit}: not read",
                envelope.size
            ),
            false => format!(
                "over the limit of {limit} bytes (more than its server announced): not read"
            ),
        };
        plan.event(
            EventKind::TooLarge,
            None,
            stored.sender.as_deref(),
            why.clone(),
        );
        plan.writes.fate = Some(Fate::refused(why));
        let Some(player) = stored
            .sender
            .as_deref()
            .and_then(|s| self.config.player_by_email(s))
        else {
            return Ok(plan);
        };
        let size = envelope.size / 1024;
        let reason = Sentence::new(move |phrases| match size_known {
            true => phrases.fill(
                "reason.too_large",
                &[("size", &size), ("limit", &(limit / 1024))],
            ),
            false => phrases.fill("reason.too_large_unmeasured", &[("limit", &(limit / 1024))]),
        });
        plan.messages.push(self.refusal(
            recipient(player),
            vec![reason],
            &Letter::default(),
            stored.postmark,
            Model::from(()),
            stored.message_id.clone(),
        ));
        Ok(plan)
    }
    /// A refusal outside any game: the reasons, what was read, and (when the
    /// game could not be told) the player's games to choose from.
    pub(in crate::clerk) fn refusal(
        &self,
        to: Recipient,
        reasons: Vec<Sentence>,
        read: &Letter,
        postmark: NaiveDate,
        games: Model,
        in_reply_to: Option<String>,
    ) -> Notice {
        let model = model! {
            "reasons" => reasons.iter().map(Sentence::model).collect::<Vec<_>>(),
            "read" => self.read_model(read, postmark, None, None, None),
            "clock" => "none",
            "next" => Model::from(()),
            "games" => games,
            "held" => Model::from(()),
        };
        self.draft(MessageKind::Refused)
            .to(to)
            .answering(in_reply_to)
            .notice(model)
    }
    /// A player's letter in his game that changes nothing: the reasons, what
    /// was read, and the lines for the letter he owes.
    pub(in crate::clerk) fn refuse(
        &self,
        state: &Record,
        context: &LetterContext<'_>,
        reasons: Vec<Sentence>,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let why = reasons
            .iter()
            .map(|reason| reason.in_words(self.phrases()))
            .collect::<Vec<_>>()
            .join("; ");
        let player = state.player(context.color);
        // Lines to fill in only for a letter he still owes (rules.md 2.7).
        let clock = state.ledger.clock_for(context.color);
        let owes = clock == rules::Turn::Yours;
        let model = model! {
            "reasons" => reasons.iter().map(Sentence::model).collect::<Vec<_>>(),
            "read" => self.read_model(context.read, context.postmark, None, None, context.game_note.as_ref()),
            "clock" => match clock {
                rules::Turn::Yours => "yours",
                rules::Turn::Partners => "partners",
                rules::Turn::Stopped => "stopped",
                rules::Turn::Over => "over",
            },
            "next" => owes.then(|| crate::clerk::next_lines(state, context.color, None)),
            "games" => Model::from(()),
            "held" => Model::from(()),
        };
        let message = self
            .draft(MessageKind::Refused)
            .of(state)
            .for_player(state, context.color)
            .answering(context.mail.message_id.clone())
            .notice(model);
        plan.messages.push(message);
        plan.event(
            EventKind::Refused,
            Some(&state.key),
            Some(&player.email),
            why.clone(),
        );
        plan.writes.fate = Some(Fate::refused(why));
        Ok(plan)
    }
    /// The words of a rules' refusal, for the player.
    pub(in crate::clerk) fn refusal_reason(refusal: &rules::Refusal, game: &str) -> Sentence {
        let game = game.to_string();
        let refusal = refusal.clone();
        Sentence::new(move |phrases| match &refusal {
            rules::Refusal::GameOver(outcome) => {
                phrases.fill("reason.game_over", &[("result", &outcome.result.pgn())])
            }
            rules::Refusal::PastEndDate => phrases.get("reason.past_end_date").to_string(),
            rules::Refusal::Suspended => phrases.get("reason.suspended").to_string(),
            rules::Refusal::NoDrawOffered => phrases.get("reason.no_draw_offered").to_string(),
            rules::Refusal::NoOverstep => phrases.get("reason.no_overstep").to_string(),
            rules::Refusal::NotTheOffender => phrases.get("reason.not_offender").to_string(),
            rules::Refusal::NotSuspended => {
                phrases.fill("reason.not_suspended", &[("game", &game)])
            }
            rules::Refusal::Annulled => phrases.get("reason.annulled").to_string(),
            rules::Refusal::NothingToUndo => {
                phrases.fill("reason.nothing_to_undo", &[("game", &game)])
            }
            rules::Refusal::SameResult(outcome) => phrases.fill(
                "reason.same_result",
                &[("game", &game), ("result", &outcome.result.pgn())],
            ),
        })
    }
}

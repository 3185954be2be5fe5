//! Move letters: read errors and the board first, then the rules'
//! [`move_letter`] transition, its effects made into messages: the writer's
//! receipt (ack, correction, warning or penalty) and the forward to the
//! partner; a held reply, a result or an overstep where the rules say so.

use crate::clerk::EventKind;
use crate::clerk::Letters;
use crate::clerk::context::LetterContext;
use crate::clerk::say::model::{
    correction_model, correction_text, item_label, item_name, label_moves,
};
use crate::clerk::say::notice::Notice;
use crate::clerk::say::words::{self, Sentence};
use crate::clerk::{Clerk, Fate, Plan, Writes, next_lines};
use crate::error::Error;
use crate::game::{Applied, End};
use crate::letter::{Keyword, Letter, ReadErrorKind};
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::{Model, merged};
use crate::rules::life::{admit_move, move_letter};
use crate::rules::{
    BoardEnd, Correction, DateItem, Incoming, Item, MoveEffect, MoveLetter, Omission, Verdict,
};
use crate::store::{Note, NoteKind, Store};

/// What a move letter's receipt says besides the game: the moves as read,
/// whether his move is held for the arbiter (10.3.6), his partner's
/// conditional reply that answered it at once (2.4a), and whether the
/// partner had the letter directly.
pub(in crate::clerk) struct ReceiptFacts<'a> {
    pub(in crate::clerk) moves: &'a str,
    pub(in crate::clerk) held: bool,
    pub(in crate::clerk) conditional: Option<Model>,
    pub(in crate::clerk) partner_direct: bool,
}

impl Letters<'_, '_> {
    /// A move letter out of turn in its game, said where it fits: the one
    /// other game of its writer's in this tournament where he is to move
    /// and its moves are legal. Nothing is applied
    /// there: the letter named its game, and the writer says which he meant.
    fn meant_elsewhere(
        &self,
        store: &Store,
        state: &Record,
        context: &LetterContext<'_>,
    ) -> Result<Option<Sentence>, Error> {
        let player = state.player(context.color);
        let read = context.read;
        let mut fits = Vec::new();
        for game in self.config.draw().games_of(&player.id) {
            if game.id == state.id() {
                continue;
            }
            let other = crate::clerk::load_replaying(self.config, store, game, &self.replays)?;
            let Some(color) = other.color_of(&player.email) else {
                continue;
            };
            let open = admit_move(&other.ledger, color).is_ok();
            if open
                && other
                    .board
                    .apply(color, &read.moves, &read.variants)
                    .is_ok()
            {
                fits.push(other);
            }
        }
        let [other] = fits.as_slice() else {
            return Ok(None);
        };
        let (game, white, black) = (
            other.id().to_string(),
            other.white.name.clone(),
            other.black.name.clone(),
        );
        Ok(Some(Sentence::new(move |phrases| {
            phrases.fill(
                "reason.meant_other",
                &[("game", &game), ("white", &white), ("black", &black)],
            )
        })))
    }

    /// A letter with moves.
    pub(in crate::clerk) fn plan_move(
        &self,
        store: &Store,
        state: &Record,
        context: &LetterContext<'_>,
    ) -> Result<Plan, Error> {
        let color = context.color;
        let read = context.read;
        if let Err(refusal) = admit_move(&state.ledger, color) {
            let reason = Clerk::refusal_reason(&refusal, state.id());
            return self.refuse(state, context, vec![reason]);
        }
        let move_errors = self.move_errors(read);
        if !move_errors.is_empty() {
            return self.refuse(state, context, move_errors);
        }
        let applied = match state.board.apply(color, &read.moves, &read.variants) {
            Ok(applied) => applied,
            Err(refusal) => {
                let reasons = self.unplayable(store, state, context, &refusal)?;
                return self.refuse(state, context, reasons);
            }
        };
        let first_ply = state.board.moves().len();
        let letter = incoming_letter(state, context, &applied);
        let (transition, verdict) =
            move_letter(&self.config.rules, &state.ledger, &letter, self.clock.today);
        let changed = Record {
            ledger: transition.ledger,
            board: applied.game.clone(),
            ..state.clone()
        };
        let state = &changed;
        // The log and the letter's record in English SAN; people read the
        // moves in the tournament's notation.
        let moves_log = label_moves(first_ply, &signed_sans(&applied, first_ply));
        let own_last = first_ply
            + applied
                .plies
                .iter()
                .rposition(|p| p.by == color)
                .unwrap_or(0);
        let mut plan = Plan::writing(Writes {
            notes: self.letter_notes(&verdict, first_ply, own_last, &moves_log),
            fate: Some(Fate::applied(format!("move {moves_log}"))),
            ..Writes::default()
        });
        let detail = format!(
            "{moves_log}: {}, totals {}",
            crate::phrases::english_days(verdict.days),
            verdict.totals
        );
        plan.event(
            EventKind::Move,
            Some(&state.key),
            Some(&state.player(color).email),
            detail,
        );
        let letter = MoveEffects {
            context,
            verdict: &verdict,
            applied: &applied,
            moves: &moves_log,
        };
        for effect in &transition.effects {
            let done = self.move_effect(store, state, &letter, effect, &plan.writes.notes)?;
            plan.absorb(done);
        }
        plan.writes.game = Some(changed);
        Ok(plan)
    }

    /// What the reader could not read as moves (a word that is no move, a
    /// move number out of order, an empty variant), in the reader's words.
    fn move_errors(&self, read: &Letter) -> Vec<Sentence> {
        read.errors
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    ReadErrorKind::NotAMove { .. }
                        | ReadErrorKind::MoveNumber { .. }
                        | ReadErrorKind::EmptyVariant
                )
            })
            .map(|e| {
                let error = e.clone();
                Sentence::new(move |phrases| error.explain(phrases))
            })
            .collect()
    }

    /// Why the moves of a letter cannot be played, in the reader's words:
    /// the board's refusal, with where a move out of turn may have been
    /// meant and, for one illegal move legal in the other alphabet (a Latin
    /// K for the Russian knight К), the reading asked about.
    fn unplayable(
        &self,
        store: &Store,
        state: &Record,
        context: &LetterContext<'_>,
        refusal: &crate::game::Refusal,
    ) -> Result<Vec<Sentence>, Error> {
        let read = context.read;
        let board_refusal = refusal.clone();
        let mut reasons = vec![Sentence::new(move |phrases| board_refusal.explain(phrases))];
        if refusal.reason == crate::game::Reason::OutOfTurn {
            reasons.extend(self.meant_elsewhere(store, state, context)?);
        }
        let one_move = read.moves.len() == 1 && read.variants.is_empty();
        if let (true, crate::game::Reason::Illegal, Some(written)) =
            (one_move, &refusal.reason, &refusal.written)
            && let Some((reading, role)) = crate::game::lookalike(state.board.position(), written)
        {
            let name = match role {
                shakmaty::Role::King => "pieces.king",
                shakmaty::Role::Queen => "pieces.queen",
                shakmaty::Role::Rook => "pieces.rook",
                shakmaty::Role::Bishop => "pieces.bishop",
                shakmaty::Role::Knight => "pieces.knight",
                shakmaty::Role::Pawn => "pieces.pawn",
            };
            reasons.push(Sentence::new(move |phrases| {
                phrases.fill(
                    "reason.lookalike",
                    &[("reading", &reading), ("piece", &phrases.get(name))],
                )
            }));
        }
        Ok(reasons)
    }

    /// One effect of a move letter, as messages.
    fn move_effect(
        &self,
        store: &Store,
        state: &Record,
        letter: &MoveEffects<'_, '_>,
        effect: &MoveEffect,
        earlier: &[Note],
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let context = letter.context;
        match effect {
            MoveEffect::Supplement { from, ply: _ } => {
                let moves = words::moves(letter.moves);
                let supplement = self.supplement(store, state, *from, moves, context)?;
                plan.messages.push(supplement);
            }
            MoveEffect::PartnerCorrection { to } => {
                let notice = self.partner_correction(state, letter, *to);
                plan.messages.push(notice);
            }
            MoveEffect::Receipt {
                held,
                conditional_reply,
                partner_direct,
            } => {
                let conditional = letter
                    .applied
                    .conditional_reply
                    .as_deref()
                    .filter(|_| *conditional_reply)
                    .map(words::moves);
                let facts = ReceiptFacts {
                    moves: letter.moves,
                    held: *held,
                    conditional,
                    partner_direct: *partner_direct,
                };
                let receipt = self.receipt(state, context, letter.verdict, facts)?;
                plan.messages.push(receipt);
            }
            MoveEffect::Forward { to: _, last_ply } => {
                let forward = self.forward(state, letter, *last_ply)?;
                plan.messages.push(forward);
            }
            MoveEffect::Result { outcome, last_ply } => {
                let last_move = last_ply.map(|ply| (letter.moves.to_string(), ply));
                let in_reply_to = context.mail.message_id.clone();
                plan.absorb(self.plan_result(state, *outcome, last_move, in_reply_to)?);
            }
            MoveEffect::Overstep {
                overstep,
                ply,
                protest_until,
            } => {
                let last_move = ply.map(|ply| (letter.moves.to_string(), ply));
                let overstep = crate::clerk::letters::overstep::Declared {
                    overstep: *overstep,
                    last_move,
                    current_raw: Some(context.raw),
                    current_read: crate::clerk::stored_reading(context.read, context.raw.len()),
                    verdict: Some(letter.verdict),
                    protest_until: *protest_until,
                };
                plan.absorb(self.plan_overstep(store, state, &overstep, earlier)?);
            }
        }
        Ok(plan)
    }

    /// Notes for the chart: corrections, warnings and penalties of a
    /// letter carrying `moves` (in SAN: each language writes them its way).
    fn letter_notes(
        &self,
        verdict: &Verdict,
        first_ply: usize,
        own_last: usize,
        moves: &str,
    ) -> Vec<Note> {
        let labels = |missing: &[Item], phrases: &crate::phrases::Phrases| {
            missing
                .iter()
                .map(|i| item_label(*i, phrases))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut notes = Vec::new();
        for correction in &verdict.corrections {
            notes.push(self.note_at(
                Some(own_last),
                NoteKind::Correction,
                |phrases: &crate::phrases::Phrases| {
                    phrases.fill(
                        "note.correction",
                        &[
                            ("moves", &phrases.moves(moves)),
                            ("correction", &correction_text(correction, phrases)),
                        ],
                    )
                },
            ));
        }
        let omitted = match &verdict.omission {
            Some(Omission::Warning { missing }) => {
                Some((NoteKind::Warning, "note.warning", missing, 0))
            }
            Some(Omission::Penalty { missing, days }) => {
                Some((NoteKind::Penalty, "note.penalty", missing, *days))
            }
            None => None,
        };
        if let Some((kind, phrase, missing, days)) = omitted {
            notes.push(self.note_at(
                Some(first_ply),
                kind,
                |phrases: &crate::phrases::Phrases| {
                    phrases.fill(
                        phrase,
                        &[
                            ("moves", &phrases.moves(moves)),
                            ("days", &days),
                            ("missing", &labels(missing, phrases)),
                        ],
                    )
                },
            ));
        }
        notes
    }

    /// The reply to the writer of a move letter: ack, correction, warning or penalty.
    pub(in crate::clerk) fn receipt(
        &self,
        state: &Record,
        context: &LetterContext<'_>,
        verdict: &Verdict,
        facts: ReceiptFacts<'_>,
    ) -> Result<Notice, Error> {
        let ReceiptFacts {
            moves: moves_text,
            held,
            conditional,
            partner_direct,
        } = facts;
        let color = context.color;
        let kind = match &verdict.omission {
            Some(Omission::Penalty { .. }) => MessageKind::Penalty,
            Some(Omission::Warning { .. }) => MessageKind::Warning,
            None if !verdict.corrections.is_empty() => MessageKind::Correction,
            None => MessageKind::Ack,
        };
        // Only the letter's own dates are restated in the next one (10.3.3).
        let missing_dates = verdict
            .omission
            .as_ref()
            .is_some_and(|o| o.missing().iter().any(|item| matches!(item, Item::Date(_))));
        let partner = state.player(!color);
        let mut read = self.read_model(
            context.read,
            context.postmark,
            Some(words::moves(moves_text)),
            Some(verdict),
            context.game_note.as_ref(),
        );
        // A move by Xfcc stated nothing: its receipt says the dates the
        // clerk counted it by.
        if let crate::rules::Channel::Xfcc { .. } = context.channel {
            let counted = model! {
                "received" => verdict.expected.received.map(words::date),
                "sent" => words::date(verdict.expected.sent),
            };
            read = merged(read, model! { "xfcc" => counted });
        }
        let delivered_today = conditional.as_ref().map(|_| self.clock.today);
        let model = merged(
            model! {
            "moves" => words::moves(moves_text),
            "read" => read,
            "penalty_days" => self.config.rules.penalty_days,
            "fraction" => verdict.fraction.to_string(),
            "missing_dates" => missing_dates,
            "partner" => partner.name.as_str(),
            "held" => held,
            "partner_direct" => partner_direct,
            "conditional" => conditional.clone(),
            "next" => next_lines(state, color, delivered_today),
            },
            self.verdict_model(verdict),
        );
        let mut message = self
            .draft(kind)
            .of(state)
            .for_player(state, color)
            .answering(context.mail.message_id.clone())
            .notice(model);
        if conditional.is_some() {
            message.delivers = Some(state.ledger.rows.len() - 1);
        }
        Ok(message)
    }

    /// What a letter's verdict says beyond its move, for a template: the
    /// corrections, what was left out, the penalty.
    pub(in crate::clerk) fn verdict_model(&self, verdict: &Verdict) -> Model {
        let corrections: Vec<Model> = verdict.corrections.iter().map(correction_model).collect();
        let missing: Vec<&str> = verdict
            .omission
            .as_ref()
            .map(|o| o.missing().iter().map(|i| item_name(*i)).collect())
            .unwrap_or_default();
        model! {
            "corrections" => corrections,
            "missing" => missing,
            "penalty" => verdict.penalty,
            "days" => verdict.days,
            "totals" => verdict.totals.to_string(),
        }
    }

    /// With the partner in copy, what the clerk corrected in the letter he
    /// had directly (rules.md 2.3).
    fn partner_correction(
        &self,
        state: &Record,
        letter: &MoveEffects<'_, '_>,
        to: shakmaty::Color,
    ) -> Notice {
        let model = merged(
            model! {
                "from" => state.player(!to).name.as_str(),
                "moves" => words::moves(letter.moves),
                "next" => next_lines(state, to, None),
            },
            self.verdict_model(letter.verdict),
        );
        self.draft(MessageKind::PartnerCorrection)
            .of(state)
            .for_player(state, to)
            .answering(letter.context.mail.message_id.clone())
            .notice(model)
    }

    /// The move passed to the partner.
    fn forward(
        &self,
        state: &Record,
        letter: &MoveEffects<'_, '_>,
        own_last: usize,
    ) -> Result<Notice, Error> {
        let context = letter.context;
        let color = context.color;
        let partner = !color;
        let conditional = letter
            .applied
            .conditional_reply
            .as_deref()
            .map(words::moves);
        let wrong_sent = letter.verdict.corrections.iter().find_map(|c| match c {
            Correction::Date {
                item: Item::Date(DateItem::Sent),
                stated,
                actual,
                ..
            } => Some(model! {
                "stated" => words::date(*stated),
                "actual" => words::date(*actual),
            }),
            _ => None,
        });
        let variants: Vec<Model> = letter
            .applied
            .offered
            .iter()
            .map(|v| {
                let sans: Vec<(String, bool)> = v.sans.iter().map(|s| (s.clone(), false)).collect();
                words::moves(&label_moves(v.start_ply, &sans))
            })
            .collect();
        let pending = u32::from(conditional.is_none());
        let next = if conditional.is_some() {
            Model::from(())
        } else {
            next_lines(state, partner, Some(self.clock.today))
        };
        // A move by Xfcc: sent from a program, with its writer's words.
        let xfcc = matches!(context.channel, crate::rules::Channel::Xfcc { .. });
        let message = xfcc
            .then(|| crate::xfcc::letter::message_of(&context.mail.text))
            .flatten();
        let model = model! {
            "from" => state.player(color).name.as_str(),
            "moves" => words::moves(letter.moves),
            "sent_on" => words::date(context.postmark),
            "xfcc" => xfcc,
            "message" => message,
            "totals" => letter.verdict.totals.to_string(),
            "left" => state.ledger.days_left(&self.config.rules, partner, pending),
            "limit" => self.config.rules.limit(state.ledger.moves_made(partner) + pending),
            "wrong_sent" => wrong_sent,
            "variants" => variants,
            "conditional" => conditional.clone(),
            "draw_offer" => context.read.keywords.contains(&Keyword::DrawOffer),
            "next" => next,
        };
        let mut message = self
            .draft(MessageKind::Forward)
            .of(state)
            .for_player(state, partner)
            .answering(context.mail.message_id.clone())
            .notice(model);
        if conditional.is_none() {
            message.delivers = Some(own_last);
        }
        Ok(message)
    }
}

/// What the effects of one move letter are made of.
struct MoveEffects<'c, 'm> {
    context: &'c LetterContext<'m>,
    verdict: &'c Verdict,
    applied: &'c Applied,
    /// The letter's moves, logged in SAN.
    moves: &'c str,
}

fn board_end(end: End) -> BoardEnd {
    match end {
        End::Checkmate { winner } => BoardEnd::Checkmate { winner },
        End::Stalemate => BoardEnd::Stalemate,
        End::InsufficientMaterial => BoardEnd::InsufficientMaterial,
    }
}

/// The letter as the rules take it: who moved, when it was sent, what it
/// stated, its plies, and whether the partner got it straight.
fn incoming_letter(state: &Record, context: &LetterContext<'_>, applied: &Applied) -> MoveLetter {
    let partner = state.player(!context.color);
    let partner_direct = context
        .mail
        .recipients()
        .any(|r| partner.addresses().any(|a| a == r));
    MoveLetter {
        incoming: Incoming {
            by: context.color,
            sent_on: context.postmark,
            stated: context.read.stated(context.postmark),
            plies: applied.plies.clone(),
            partner_direct,
            channel: context.channel,
        },
        draw_offer: context.read.keywords.contains(&Keyword::DrawOffer),
        end: applied.end.map(board_end),
        conditional_reply: applied.conditional_reply.is_some(),
    }
}

/// The moves a letter played, from ply `first_ply`, with check and mate
/// signs as the PGN writes them, each marked where it is conditional.
fn signed_sans(applied: &Applied, first_ply: usize) -> Vec<(String, bool)> {
    let signed = applied.game.sans_with_signs();
    applied
        .plies
        .iter()
        .enumerate()
        .map(|(at, p)| {
            let san = signed.get(first_ply + at).cloned();
            (san.unwrap_or_else(|| p.san.clone()), p.conditional)
        })
        .collect()
}

//! A player's letter on its game, by the ask that leads it: a move ([`moves`]), a
//! resignation, a draw or a result ([`endings`]), a protest ([`protest`]),
//! an offender's letter held ([`overstep`]), a leave ([`leave`]), the other
//! games of one letter ([`blocks`]), where his games stand ([`status`]),
//! what the clerk's letters to him carry ([`preferences`]), a login to the
//! Xfcc server ([`xfcc`]); and the chief arbiter's letter
//! ([`arbiter`]), read as his order.

pub mod arbiter;
pub mod blocks;
pub mod endings;
pub mod leave;
pub mod moves;
pub mod overstep;
pub mod preferences;
pub mod protest;
pub mod status;
pub mod xfcc;

use crate::clerk::context::LetterContext;
use crate::clerk::context::Written;
use crate::clerk::say::notice::Notice;
use crate::clerk::say::words::Sentence;
use crate::clerk::{Letters, Plan};
use crate::config::Player;
use crate::error::Error;
use crate::letter::{Ask, Letter};
use crate::model;
use crate::record::Record;
use crate::rules;
use crate::store::{Store, StoredLetter};

impl Letters<'_, '_> {
    /// A player's letter, by the ask that leads it ([`Letter::leading_ask`]).
    pub(super) fn plan_player(
        &self,
        store: &Store,
        state: &Record,
        context: &LetterContext<'_>,
    ) -> Result<Plan, Error> {
        let leading = context.read.leading_ask();
        // During his suspension, whatever the offender writes but a protest
        // or a resignation goes to the arbiter (10.3.6).
        if !matches!(leading, Some(Ask::Protest | Ask::Resignation))
            && let Some(transition) =
                rules::life::offender_letter(&self.config.rules, &state.ledger, context.color)
        {
            return self.plan_withheld(store, state, context, transition);
        }
        match leading {
            Some(Ask::Resignation) => self.plan_resignation(state, context),
            Some(Ask::DrawAccept) => self.plan_draw_acceptance(store, state, context),
            Some(Ask::Protest) => self.plan_protest(state, context),
            Some(Ask::Move) => self.plan_move(store, state, context),
            // The person's asks are answered apart, orders are no player's:
            // in its game, a letter of them alone asks no move.
            Some(
                Ask::Order
                | Ask::Leave
                | Ask::Status
                | Ask::Preferences
                | Ask::Xfcc
                | Ask::DrawOffer
                | Ask::DrawDecline,
            )
            | None => {
                let mut reasons: Vec<Sentence> = context
                    .read
                    .errors
                    .iter()
                    .map(|e| {
                        let error = e.clone();
                        Sentence::new(move |phrases| error.explain(phrases))
                    })
                    .collect();
                reasons.push(Sentence::phrase("reason.no_move"));
                self.refuse(state, context, reasons)
            }
        }
    }

    /// What the letter asked in its game that its handler did not carry
    /// out (a move beside a resignation, a player's order line), named in
    /// the answers its writer gets.
    pub(super) fn tell_unheeded(
        &self,
        player: &Player,
        read: &Letter,
        orders: &[String],
        other_games: Vec<Sentence>,
        mut plan: Plan,
    ) -> Result<Plan, Error> {
        let why = match read.leading_ask() {
            Some(Ask::Resignation) => "unheeded.resignation",
            Some(Ask::Protest) => "unheeded.protest_letter",
            _ => "unheeded.draw_acceptance",
        };
        let written: Vec<&str> = read.moves.iter().map(|m| m.written.as_str()).collect();
        let moves = crate::printable::bounded(&written.join(" "), 100).into_owned();
        let mut lines: Vec<Sentence> = read
            .unheeded()
            .into_iter()
            .filter_map(|ask| {
                match ask {
                    Ask::Status => return Some(Sentence::phrase("unheeded.status")),
                    Ask::Xfcc => return Some(Sentence::phrase("unheeded.xfcc")),
                    _ => {}
                }
                let what = match ask {
                    Ask::Move => "unheeded.move",
                    Ask::DrawOffer => "unheeded.draw_offer",
                    Ask::DrawAccept => "unheeded.draw_accept",
                    Ask::DrawDecline => "unheeded.draw_decline",
                    Ask::Protest => "unheeded.protest",
                    Ask::Resignation
                    | Ask::Order
                    | Ask::Leave
                    | Ask::Status
                    | Ask::Preferences
                    | Ask::Xfcc => {
                        return None;
                    }
                };
                let moves = moves.clone();
                Some(Sentence::new(move |phrases| {
                    let what = phrases.fill(what, &[("moves", &moves)]);
                    format!("{what}: {}", phrases.get(why))
                }))
            })
            .collect();
        lines.extend(orders.iter().map(|line| {
            let line = crate::printable::bounded(line, 100);
            crate::said!("unheeded.order", "line" => line)
        }));
        lines.extend(other_games);
        if lines.is_empty() {
            return Ok(plan);
        }
        if let Some(stored) = plan.writes.letter.as_mut() {
            let words: Vec<String> = lines.iter().map(|l| l.in_words(self.phrases())).collect();
            stored.reason = format!("{}; not carried out: {}", stored.reason, words.join("; "));
        }
        let lines: Vec<crate::render::Model> = lines.iter().map(Sentence::model).collect();
        let unheeded = model! { "unheeded" => lines };
        for message in plan.messages.iter_mut().filter(|m| addressed(m, player)) {
            message.with(unheeded.clone());
        }
        Ok(plan)
    }

    /// A leave asked in a letter that asks more in its game: planned after
    /// the rest (on the game as the rest leaves it), its answer a message
    /// of its own, the rest's answer saying so.
    pub(super) fn leave_beside(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        stored: StoredLetter,
        mut plan: Plan,
    ) -> Result<Plan, Error> {
        let apart = model! { "leave_apart" => true };
        for message in plan.messages.iter_mut().filter(|m| addressed(m, player)) {
            if message.kind.is_reply() {
                message.with(apart.clone());
            }
        }
        let changed = plan.writes.game.as_ref();
        let leave = self.plan_leave(store, player, written, stored, changed)?;
        let game = plan.writes.game.as_ref().map(|game| game.id().to_string());
        for more in leave.more {
            // The notes and notices of the game the rest changed go with it.
            if more.writes.game.as_ref().map(|g| g.id()) == game.as_deref() {
                plan.writes.notes.extend(more.writes.notes);
                plan.messages.extend(more.messages);
            } else {
                plan.more.push(more);
            }
        }
        plan.messages.extend(leave.messages);
        plan.writes.events.extend(leave.writes.events);
        plan.writes.leave = leave.writes.leave;
        plan.elsewhere.extend(leave.elsewhere);
        plan.note_apart(leave.writes.letter);
        Ok(plan)
    }
}

/// Whether a message goes to the player (as its addressee or in copy).
pub(in crate::clerk) fn addressed(message: &Notice, player: &Player) -> bool {
    message
        .to
        .iter()
        .chain(&message.cc)
        .any(|r| r.email == player.email)
}

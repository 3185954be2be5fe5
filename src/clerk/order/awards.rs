//! Results set and letters taken back, by the chief arbiter's letter or
//! the director's command: the rules' [`award`] and [`undo`], their notes
//! under the chart, and the players and the chief secretary told.

use crate::clerk::EventKind;
use crate::clerk::say::words::{self, Sentence, text};
use crate::clerk::{Clerk, NotDone, Orders, Plan, Refused, Writes, next_lines};
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules::interventions::{AwardedBy, Scored, award, undo};
use crate::rules::{Awarded, Undone};
use crate::store::Store;

/// A result the chief arbiter sets by letter, or the director by command.
#[derive(Clone, Debug)]
pub struct Award {
    pub scored: Scored,
    /// His reason, as he wrote it (or as the clerk words a withdrawal).
    pub why: Option<Sentence>,
    pub by: AwardedBy,
}

impl Orders<'_, '_> {
    /// The board of a game played again from its ledger's moves.
    fn board_replayed(&self, state: &Record) -> Result<crate::game::Game, Error> {
        let sans: Vec<&str> = state
            .ledger
            .rows
            .iter()
            .map(|row| row.san.as_str())
            .collect();
        self.replays
            .game(&state.key, &sans, Vec::new())
            .map_err(|e| Error::new(e.kind, format!("game {}: {e}", state.id())))
    }

    /// A game of the tournament as stored, for the director's command on
    /// it; one it lacks is said.
    pub(in crate::clerk) fn game_by_command(
        &self,
        store: &Store,
        game: &str,
    ) -> Result<Record, NotDone> {
        let Some(game_config) = self.config.draw().game(game) else {
            let reason = crate::said!("reason.arbiter_no_game", "game" => game);
            return Err(Refused::no_game(reason).into());
        };
        crate::clerk::load_replaying(self.config, store, game_config, &self.replays)
            .map_err(NotDone::Failed)
    }
    /// Takes back a game's last letter ([`undo`]): its moves and their
    /// days go, the note under the chart says who, when and why, and both
    /// players and the chief secretary are told who is to move again.
    pub fn plan_undo(
        &self,
        mut state: Record,
        why: Option<&str>,
        by: AwardedBy,
        in_reply_to: Option<String>,
    ) -> Result<Plan, NotDone> {
        let transition = match undo(&self.config.rules, &state.ledger, self.clock.today) {
            Ok(transition) => transition,
            Err(refusal) => {
                let reason = Clerk::refusal_reason(&refusal, state.id());
                return Err(Refused::in_game(reason, state).into());
            }
        };
        let Undone { first, author, due } = transition.effect;
        let last = state.ledger.rows.len() - 1;
        let phrases = self.phrases();
        let sans_undone = crate::clerk::say::model::moves_of(&state, first, last);
        let moves = phrases.moves(&sans_undone);
        state.ledger = transition.ledger;
        state.board = self.board_replayed(&state)?;
        state.stored = first;
        let mut plan = Plan::writing(Writes {
            taken_back: Some(first),
            ..Writes::default()
        });
        let author_name = state.player(author).name.clone();
        let because = crate::clerk::because(why);
        plan.writes.notes.push(self.note(
            crate::store::NoteKind::Undone,
            |phrases: &crate::phrases::Phrases| {
                phrases.fill(
                    "note.undone",
                    &[
                        ("moves", &phrases.moves(&sans_undone)),
                        ("author", &author_name),
                        ("who", &named_by(phrases, by)),
                        ("date", &phrases.date(self.clock.today)),
                        ("why", &because),
                    ],
                )
            },
        ));
        let model = model! {
            "who" => who_said(by),
            "author" => author_name.as_str(),
            "author_color" => crate::color_name(author),
            "moves" => words::moves(&sans_undone),
            "why" => why,
            "totals" => state.ledger.totals().to_string(),
            "next" => due.map(|due| next_lines(&state, due.player, Some(self.clock.today))),
            "due" => due.map(|due| model! {
                "player" => state.player(due.player).name.as_str(),
                "color" => crate::color_name(due.player),
                "days_left" => due.days_left,
                "last_day" => crate::clerk::say::words::date(due.last_day),
            }),
        };
        let letters = self
            .draft(MessageKind::Undo)
            .of(&state)
            .cc(self.secretary())
            .answering(in_reply_to)
            .notice_to_each_player(model)
            .map_err(NotDone::Failed)?;
        plan.messages
            .extend(letters.into_iter().map(|(_, letter)| letter));
        plan.event(
            EventKind::Undone,
            Some(&state.key),
            None,
            format!("{moves} ({author_name})"),
        );
        plan.writes.game = Some(state);
        Ok(plan)
    }
    /// Sets a game's result ([`award`]): the note under its chart (who,
    /// when, why), the result to both players and the chief secretary.
    pub fn plan_award(
        &self,
        mut state: Record,
        order: &Award,
        in_reply_to: Option<String>,
    ) -> Result<Plan, NotDone> {
        let transition = match award(&state.ledger, order.scored, order.by) {
            Ok(transition) => transition,
            Err(refusal) => {
                let reason = Clerk::refusal_reason(&refusal, state.id());
                return Err(Refused::in_game(reason, state).into());
            }
        };
        state.ledger = transition.ledger;
        let Awarded { outcome, previous } = transition.effect;
        let result = outcome.result.pgn();
        let note = match order.scored {
            Scored::Forfeit(_) => "note.award_forfeit",
            Scored::Result(_) => "note.award",
        };
        let mut plan = Plan::default();
        plan.writes.notes.push(self.note(
            crate::store::NoteKind::Award,
            |phrases: &crate::phrases::Phrases| {
                phrases.fill(
                    note,
                    &[
                        ("result", &result),
                        ("who", &named_by(phrases, order.by)),
                        ("date", &phrases.date(self.clock.today)),
                        (
                            "why",
                            &crate::clerk::because(
                                order
                                    .why
                                    .as_ref()
                                    .map(|why| why.in_words(phrases))
                                    .as_deref(),
                            ),
                        ),
                    ],
                )
            },
        ));
        let extra = model! {
            "who" => who_said(order.by),
            "why" => order.why.as_ref().map(Sentence::model),
            "previous" => previous.map(|p| p.result.pgn()),
        };
        let result = self.plan_result_with(&state, outcome, None, in_reply_to, extra);
        plan.absorb(result.map_err(NotDone::Failed)?);
        plan.writes.game = Some(state);
        Ok(plan)
    }
}

/// Who gave an order, as a message names him to its reader.
pub(in crate::clerk) fn who_said(by: AwardedBy) -> Model {
    text(move |phrases| named_by(phrases, by).to_string())
}

/// Who gave an order, as its notes name him.
pub(in crate::clerk) fn named_by(phrases: &crate::phrases::Phrases, by: AwardedBy) -> &str {
    match by {
        AwardedBy::Arbiter => phrases.get("names.by_arbiter"),
        AwardedBy::Director => phrases.get("names.director"),
    }
}

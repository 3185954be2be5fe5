//! `CONFIRM 3`, `REJECT 3 7`, `CONTINUE 3` (ПОДТВЕРДИТЬ, ОТКЛОНИТЬ,
//! ПРОДОЛЖИТЬ): the chief arbiter's decision on an overstep (rules.md
//! 2.5.5), with the days he excuses and his reason.

use super::{Carried, Command, Execution, Ordered};
use crate::clerk::{Clerk, EventKind, NotDone, Orders, Plan, Refused, label_moves, next_lines};
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules::life::rule;
use crate::rules::{Decided, Decision};
use crate::store::{Note, Store};

#[derive(Clone, Debug)]
pub struct Decide {
    pub game: String,
    pub decision: Decision,
    pub days: Option<u32>,
    /// The arbiter's reason after his words, told to the players.
    pub why: Option<String>,
}

impl Command for Decide {
    fn named(&self) -> String {
        format!("game {}", self.game)
    }

    fn cause(&self, _: Option<usize>) -> String {
        format!("decision:{}:{}", self.game, self.decision.code())
    }

    fn carry_out(&self, clerk: &Orders, store: &Store, ordered: Ordered) -> Carried {
        let in_reply_to = ordered.in_reply_to;
        clerk.decide(store, self, in_reply_to)
    }
}

impl Orders<'_, '_> {
    /// A decision on an overstep (2.5.5): carried out by the rules'
    /// [`rule`], told to both players and the chief secretary.
    pub(in crate::clerk) fn decide(
        &self,
        store: &Store,
        order: &Decide,
        in_reply_to: Option<String>,
    ) -> Result<crate::clerk::Execution, Error> {
        let code = order.decision.code();
        let planned = self.plan_decision(store, order, in_reply_to);
        Execution::of(planned, "game not suspended", |id| {
            format!("decision {code} {id}")
        })
    }

    /// The plan of a decision on an overstep; a game not suspended is
    /// refused, the game as it is.
    fn plan_decision(
        &self,
        store: &Store,
        order: &Decide,
        in_reply_to: Option<String>,
    ) -> Result<Plan, NotDone> {
        let (decision, days, why) = (order.decision, order.days, order.why.as_deref());
        let (phrases, today) = (self.phrases(), self.clock.today);
        let mut state = match self.game_by_command(store, &order.game) {
            Ok(state) => state,
            Err(NotDone::Refused(Refused {
                reason,
                no_game: false,
                ..
            })) => {
                return Err(NotDone::Failed(Error::internal(reason.in_words(phrases))));
            }
            Err(not_found) => return Err(not_found),
        };
        let mut plan = Plan::default();
        let held_move = state
            .ledger
            .standing
            .held_reply
            .map(|ply| label_moves(ply, &[(state.ledger.rows[ply].san.clone(), false)]));
        let transition = match rule(&self.config.rules, &state.ledger, decision, days, today) {
            Ok(transition) => transition,
            Err(refusal) => {
                let reason = Clerk::refusal_reason(&refusal, state.id());
                return Err(Refused::in_game(reason, state).into());
            }
        };
        state.ledger = transition.ledger;
        let Decided {
            decision,
            offender,
            released,
            excused,
            asked,
            due,
        } = transition.effect;
        let code = decision.code();
        let decided = DecisionTold {
            code,
            offender,
            held_move: held_move.filter(|_| released.is_some()),
            excused,
            cut_from: (asked > excused).then_some(asked),
            due,
        };
        let model = crate::render::merged(
            model! { "why" => why },
            self.decision_model(&state, &decided),
        );
        let letters = self
            .draft(MessageKind::Decision)
            .of(&state)
            .cc(self.secretary())
            .answering(in_reply_to)
            .notice_to_each_player(model)?;
        for (reader, mut letter) in letters {
            // The held reply reaches the offender with his letter.
            if reader == offender {
                letter.delivers = released;
            }
            plan.messages.push(letter);
        }
        plan.writes
            .notes
            .extend(self.decision_notes(&state, decision, &decided));
        plan.event(
            EventKind::Decision,
            Some(&state.key),
            Some(&self.config.chief_arbiter),
            code.into(),
        );
        plan.writes.game = Some(state);
        Ok(plan)
    }

    /// What the decision's message says: the decision, the offender, the
    /// result, the move released, the days excused, the totals, and who is
    /// now to move by when, with his letter's lines.
    fn decision_model(&self, state: &Record, decided: &DecisionTold) -> Model {
        let DecisionTold {
            code,
            offender,
            held_move,
            excused,
            cut_from,
            due,
        } = decided;
        model! {
            "decision" => *code,
            "offender" => state.player(*offender).name.as_str(),
            "offender_color" => crate::color_name(*offender),
            "result" => state.ledger.standing.result_pgn(),
            "held_move" => held_move.as_deref().map(crate::clerk::say::words::moves),
            "excused" => *excused,
            "asked" => *cut_from,
            "totals" => state.ledger.totals().to_string(),
            // The lines for the letter of whoever is now to move.
            "next" => due.map(|due| next_lines(state, due.player, Some(self.clock.today))),
            "due" => due.map(|due| model! {
                "player" => state.player(due.player).name.as_str(),
                "color" => crate::color_name(due.player),
                "days_left" => due.days_left,
                "last_day" => crate::clerk::say::words::date(due.last_day),
            }),
        }
    }

    /// The notes of a decision under the chart: the days excused (of a
    /// rejection or a continuation), and the decision.
    fn decision_notes(
        &self,
        state: &Record,
        decision: Decision,
        decided: &DecisionTold,
    ) -> Vec<Note> {
        let mut notes = Vec::new();
        let offender = &state.player(decided.offender).name;
        if let Some(asked) = decided.cut_from.filter(|_| decision != Decision::Confirm) {
            notes.push(self.note(
                crate::store::NoteKind::Credit,
                |phrases: &crate::phrases::Phrases| {
                    phrases.fill(
                        "note.credit_cut",
                        &[
                            ("asked", &asked),
                            ("days", &decided.excused),
                            ("offender", offender),
                        ],
                    )
                },
            ));
        } else if decision != Decision::Confirm && decided.excused > 0 {
            notes.push(self.note(
                crate::store::NoteKind::Credit,
                |phrases: &crate::phrases::Phrases| {
                    phrases.fill(
                        "note.credit",
                        &[("days", &decided.excused), ("offender", offender)],
                    )
                },
            ));
        }
        let code = decided.code;
        notes.push(self.note(
            crate::store::NoteKind::Decision,
            |phrases: &crate::phrases::Phrases| {
                phrases.fill(
                    "note.decision",
                    &[("decision", &phrases.get(&format!("decision.{code}")))],
                )
            },
        ));
        notes
    }
}

/// A decision as its message tells it.
struct DecisionTold {
    code: &'static str,
    offender: shakmaty::Color,
    /// The reply held during the suspension, released: in SAN.
    held_move: Option<String>,
    excused: u32,
    /// The days the arbiter named, where more than had been charged.
    cut_from: Option<u32>,
    due: Option<crate::rules::Due>,
}

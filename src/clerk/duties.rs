//! The calendar (rules.md 2.6): for each game, the rules' [`day`] transition
//! gives the duties due today as effects, made into messages and planned
//! like letters.

use shakmaty::Color;

use super::model::moves_of;
use super::{Clerk, Plan, next_lines, recipient};
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::rules::life::day;
use crate::rules::{self, Effect};
use crate::store::{Note, Store};

impl Clerk<'_> {
    /// Plans the duties of one game due on the clerk's day.
    pub fn plan_duties(&self, store: &Store, mut state: Record) -> Result<Plan, String> {
        let today = self.clock.today;
        let transition = day(&self.config.rules, &state.ledger, today, &state.done);
        state.ledger = transition.ledger;
        let mut plan = Plan {
            duties: transition.done,
            ..Plan::default()
        };
        for effect in &transition.effects {
            self.duty(store, &mut state, effect, &mut plan)?;
        }
        plan.game = Some(state);
        Ok(plan)
    }

    fn duty(
        &self,
        store: &Store,
        state: &mut Record,
        effect: &Effect,
        plan: &mut Plan,
    ) -> Result<(), String> {
        let lang = self.lang();
        let today = self.clock.today;
        let to = |color: Color| recipient(state.player(color));
        match *effect {
            Effect::Repeat {
                first,
                last,
                author,
                totals,
            } => {
                let moves = moves_of(state, first, last);
                let expected = state.ledger.rows[first].letter.as_ref().map(|f| f.expected);
                let sent_on = state.ledger.rows[last].sent_on;
                let days = rules::days(sent_on, today);
                let model = model! {
                    "author" => state.player(author).name.as_str(),
                    "moves" => moves.as_str(),
                    "days" => days,
                    "dates" => model! {
                        "postmark" => expected.and_then(|e| e.partner_postmark).map(|d| lang.date(d)),
                        "received" => expected.and_then(|e| e.received).map(|d| lang.date(d)),
                        "sent" => lang.date(sent_on),
                    },
                    "totals" => totals.to_string(),
                    "next" => next_lines(state, !author, self.config, None),
                };
                let mut message = self.message(
                    MessageKind::Repeat,
                    Some(state),
                    vec![to(!author)],
                    vec![to(author)],
                    model,
                    None,
                )?;
                message.registered = true;
                message.generated = true;
                message.delivers = Some(last);
                plan.messages.push(message);
                plan.notes.push(Note {
                    ply: Some(last),
                    kind: "repeat".into(),
                    text: self.phrases().fill(
                        "note.repeat",
                        &[("moves", &moves), ("date", &lang.date(today))],
                    ),
                    created_on: today,
                });
                let detail = format!("{moves} repeated after {days} days");
                plan.event("repeat", Some(state.id()), None, detail);
            }
            Effect::Query => {
                let model = model! {
                    "start" => lang.date(self.config.start_date),
                    "days" => self.config.rules.first_move_query_days,
                };
                let mut message = self.message(
                    MessageKind::Query,
                    Some(state),
                    vec![to(Color::White)],
                    vec![to(Color::Black)],
                    model,
                    None,
                )?;
                message.registered = true;
                message.generated = true;
                plan.messages.push(message);
                let detail = "first move not received".into();
                plan.event("query", Some(state.id()), None, detail);
            }
            Effect::Reminder {
                player,
                threshold,
                days_left,
            } => {
                let model = model! {
                    "days_left" => days_left,
                    "threshold" => threshold,
                    "next" => next_lines(state, player, self.config, None),
                };
                let mut message = self.message(
                    MessageKind::Reminder,
                    Some(state),
                    vec![to(player)],
                    vec![],
                    model,
                    None,
                )?;
                message.generated = true;
                plan.messages.push(message);
                let detail = format!("{} has {days_left} days left", crate::color_name(player));
                plan.event("reminder", Some(state.id()), None, detail);
            }
            Effect::Overstep {
                overstep,
                ply: _,
                protest_until,
            } => {
                let declared = super::overstep::Declared {
                    overstep,
                    last_move: None,
                    current_raw: None,
                    protest_until,
                };
                self.plan_overstep(store, state, &declared, plan)?;
            }
            Effect::NoProtest {
                offender,
                notice_on,
                until,
            } => {
                let model = model! {
                    "offender" => state.player(offender).name.as_str(),
                    "notice_on" => lang.date(notice_on),
                    "until" => lang.date(until),
                    "game_id" => state.id(),
                };
                let mut message = self.message(
                    MessageKind::NoProtest,
                    Some(state),
                    vec![self.arbiter()],
                    vec![],
                    model,
                    None,
                )?;
                message.generated = true;
                plan.messages.push(message);
                let detail = format!("no protest by {}", lang.date(until));
                plan.event("no-protest", Some(state.id()), None, detail);
            }
            Effect::Adjudication => {
                let to_move = state.player(state.ledger.to_move()).name.clone();
                let model = model! {
                    "end_date" => lang.date(self.config.end_date),
                    "moves" => state.board.moves().len(),
                    "totals" => state.ledger.totals().to_string(),
                    "to_move" => to_move,
                    "pgn" => state.pgn_with(self.config, &[], "*"),
                };
                let mut message = self.message(
                    MessageKind::Adjudication,
                    Some(state),
                    vec![self.arbiter()],
                    vec![self.secretary()],
                    model,
                    None,
                )?;
                message.generated = true;
                plan.messages.push(message);
                let detail = "end date reached without a result".into();
                plan.event("adjudication", Some(state.id()), None, detail);
            }
            ref other => return Err(format!("the calendar does not cause {other:?}")),
        }
        Ok(())
    }
}

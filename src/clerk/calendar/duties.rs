//! The calendar (rules.md 2.6): for each game, the rules' [`day`] transition
//! gives the duties due today as effects, each made into its messages here
//! and planned like letters.

use std::ops::RangeInclusive;

use crate::clerk::EventKind;
use crate::clerk::say::words;
use shakmaty::Color;

use crate::clerk::say::model::moves_of;
use crate::clerk::say::notice::Notice;
use crate::clerk::{Calendar, Plan, SaidPlan, Writes, next_lines, recipient};
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules::life::day;
use crate::rules::{self, DayEffect, Fraction};
use crate::store::Store;

impl Calendar<'_, '_> {
    /// Plans the duties of one game due on the clerk's day.
    pub fn plan_duties(&self, store: &Store, state: Record) -> Result<SaidPlan, Error> {
        let plan = self.duties_of(store, state)?;
        self.said(store, plan)
    }

    /// The day's duties of a game, in this clerk's words.
    fn duties_of(&self, store: &Store, mut state: Record) -> Result<Plan, Error> {
        let today = self.clock.today;
        let transition = day(&self.config.rules, &state.ledger, today, &state.done);
        state.ledger = transition.ledger;
        let mut plan = Plan::writing(Writes {
            duties: transition.done,
            ..Writes::default()
        });
        for effect in &transition.effects {
            match *effect {
                DayEffect::Repeat {
                    first,
                    last,
                    author,
                    totals,
                } => plan.absorb(self.repeat(&state, first..=last, author, totals)?),
                DayEffect::Query => plan.absorb(self.query(&state)?),
                DayEffect::GameStart => plan.absorb(self.game_start(&state)?),
                DayEffect::Reminder {
                    player,
                    threshold,
                    days_left,
                } => plan.absorb(self.reminder(&state, player, threshold, days_left)?),
                DayEffect::Overstep {
                    overstep,
                    ply: _,
                    protest_until,
                } => {
                    let declared = crate::clerk::letters::overstep::Declared {
                        overstep,
                        last_move: None,
                        current_raw: None,
                        current_read: None,
                        verdict: None,
                        protest_until,
                    };
                    let overstep = self.letters().plan_overstep(
                        store,
                        &state,
                        &declared,
                        &plan.writes.notes,
                    )?;
                    plan.absorb(overstep);
                }
                DayEffect::NoProtest {
                    offender,
                    notice_on,
                    until,
                } => plan.absorb(self.no_protest(&state, offender, notice_on, until)?),
                DayEffect::Adjudication => plan.absorb(self.adjudication(&state)?),
            }
        }
        plan.writes.game = Some(state);
        Ok(plan)
    }

    /// What `player` owes today, if his clock runs: his days left and the
    /// last day he may send on.
    pub(in crate::clerk) fn due_model(&self, state: &Record, player: Color) -> Model {
        match state.ledger.due(&self.config.rules, self.clock.today) {
            Some(due) if due.player == player => model! {
                "days_left" => due.days_left,
                "last_day" => crate::clerk::say::words::date(due.last_day),
            },
            _ => Model::from(()),
        }
    }

    /// A duty's message: deadline mail, `auto-generated`.
    fn generated(&self, mut message: Notice, registered: bool) -> Notice {
        message.generated = true;
        message.registered = registered;
        message
    }

    /// The unanswered letter carrying plies `first..=last` repeated to the
    /// partner by registered letter, its author in copy (10.3.4).
    fn repeat(
        &self,
        state: &Record,
        plies: RangeInclusive<usize>,
        author: Color,
        totals: Fraction,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let (first, last) = plies.into_inner();
        let today = self.clock.today;
        let moves_log = moves_of(state, first, last);
        let expected = state.ledger.rows[first].letter.as_ref().map(|f| f.expected);
        let sent_on = state.ledger.rows[last].sent_on;
        // Unanswered since it reached the partner: for a letter accepted
        // after a refusal, since the acceptance, not its old postmark.
        let days = rules::days(rules::unanswered_since(&state.ledger, last), today);
        let model = model! {
            "author" => state.player(author).name.as_str(),
            "moves" => words::moves(&moves_log),
            "days" => days,
            "dates" => model! {
                "postmark" => words::date_of(expected.and_then(|e| e.partner_postmark)),
                "received" => words::date_of(expected.and_then(|e| e.received)),
                "sent" => words::date(sent_on),
            },
            "totals" => totals.to_string(),
            "next" => next_lines(state, !author, None),
            "due" => self.due_model(state, !author),
        };
        let message = self
            .draft(MessageKind::Repeat)
            .of(state)
            .for_player(state, !author)
            .cc(recipient(state.player(author)))
            .notice(model);
        let mut message = self.generated(message, true);
        message.delivers = Some(last);
        plan.messages.push(message);
        plan.writes.notes.push(self.note_at(
            Some(last),
            crate::store::NoteKind::Repeat,
            |phrases: &crate::phrases::Phrases| {
                phrases.fill(
                    "note.repeat",
                    &[
                        ("moves", &phrases.moves(&moves_log)),
                        ("date", &phrases.date(today)),
                    ],
                )
            },
        ));
        let detail = format!(
            "{moves_log} repeated after {}",
            crate::phrases::english_days(days)
        );
        plan.event(EventKind::Repeat, Some(&state.key), None, detail);
        Ok(plan)
    }

    /// White queried for the first move Black has not had (10.3.4).
    fn query(&self, state: &Record) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let model = model! {
            "start" => crate::clerk::say::words::date(state.ledger.calendar.start_date),
            "days" => self.config.rules.first_move_query_days,
            "due" => self.due_model(state, Color::White),
            "next" => next_lines(state, Color::White, None),
        };
        let message = self
            .draft(MessageKind::Query)
            .of(state)
            .for_player(state, Color::White)
            .cc(recipient(&state.black))
            .notice(model);
        plan.messages.push(self.generated(message, true));
        let detail = "first move not received".into();
        plan.event(EventKind::Query, Some(&state.key), None, detail);
        Ok(plan)
    }

    /// The two players of a game added during the tournament told it has
    /// begun, White given the lines for his first letter.
    fn game_start(&self, state: &Record) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let rules = &self.config.rules;
        let model = model! {
            "start" => crate::clerk::say::words::date(state.ledger.calendar.start_date),
            "days_per_control" => rules.days_per_control,
            "moves_per_control" => rules.moves_per_control,
            "next" => next_lines(state, Color::White, None),
        };
        let letters = self
            .draft(MessageKind::Start)
            .of(state)
            .notice_to_each_player(model)?;
        for (_, letter) in letters {
            plan.messages.push(self.generated(letter, false));
        }
        let detail = format!("begins {}", self.date(state.ledger.calendar.start_date));
        plan.event(EventKind::Start, Some(&state.key), None, detail);
        Ok(plan)
    }

    fn reminder(
        &self,
        state: &Record,
        player: Color,
        threshold: u32,
        days_left: i64,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let model = model! {
            "days_left" => days_left,
            "last_day" => state.ledger.due(&self.config.rules, self.clock.today).map(|due| words::date(due.last_day)),
            "threshold" => threshold,
            "next" => next_lines(state, player, None),
        };
        let message = self
            .draft(MessageKind::Reminder)
            .of(state)
            .for_player(state, player)
            .notice(model);
        plan.messages.push(self.generated(message, false));
        let detail = format!(
            "{} has {} left",
            crate::color_name(player),
            crate::phrases::english_days(days_left)
        );
        plan.event(EventKind::Reminder, Some(&state.key), None, detail);
        Ok(plan)
    }

    /// The arbiter told that the protest period ended without one (10.3.8).
    fn no_protest(
        &self,
        state: &Record,
        offender: Color,
        notice_on: chrono::NaiveDate,
        until: chrono::NaiveDate,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let model = model! {
            "offender" => state.player(offender).name.as_str(),
            "notice_on" => crate::clerk::say::words::date(notice_on),
            "until" => crate::clerk::say::words::date(until),
            "game_id" => self.ruling_game(state),
        };
        let message = self
            .draft(MessageKind::NoProtest)
            .of(state)
            .to(self.arbiter())
            .notice(model);
        plan.messages.push(self.generated(message, false));
        let detail = format!("no protest by {}", self.date(until));
        plan.event(EventKind::NoProtest, Some(&state.key), None, detail);
        Ok(plan)
    }

    /// The end date without a result: the game for the arbiter (10.3.2).
    fn adjudication(&self, state: &Record) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let to_move = state.player(state.ledger.to_move()).name.clone();
        let model = model! {
            "end_date" => crate::clerk::say::words::date(self.config.end_date),
            "moves" => state.board.moves().len(),
            "totals" => state.ledger.totals().to_string(),
            "to_move" => to_move,
            "pgn" => state.pgn_with(self.config, &[], "*"),
        };
        let message = self
            .draft(MessageKind::Adjudication)
            .of(state)
            .to(self.arbiter())
            .cc(self.secretary())
            .notice(model);
        plan.messages.push(self.generated(message, false));
        let detail = "end date reached without a result".into();
        plan.event(EventKind::Adjudication, Some(&state.key), None, detail);
        Ok(plan)
    }
}

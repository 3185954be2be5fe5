//! The calendar (rules.md 2.6): for each game, the duties due today become
//! messages and state changes, planned like letters and written the same way.

use crate::model;
use shakmaty::Color;

use crate::clerk::{Clerk, Event, GameState, Plan, fmt_date, label_moves, next_lines};
use crate::color_name;
use crate::mail::compose::Recipient;
use crate::rules::{self, Duty, Status};
use crate::store::{Note, Store};

fn recipient(state: &GameState, color: Color) -> Recipient {
    let player = state.player(color);
    Recipient {
        name: player.name.clone(),
        email: player.email.clone(),
    }
}

impl Clerk<'_> {
    /// Plans the duties of one game due on the clerk's day.
    pub fn plan_duties(&self, store: &Store, mut state: GameState) -> Result<Plan, String> {
        let lang = self.config.language;
        let today = self.clock.today;
        let duties = rules::due(&self.config.rules, &state.ledger, today, &state.done);
        let mut plan = Plan::default();
        for duty in duties {
            plan.duties.push(duty.key(&state.ledger));
            match duty {
                Duty::Repeat { row, author } => {
                    let first = state.ledger.rows[..=row]
                        .iter()
                        .rposition(|r| r.letter.is_some())
                        .unwrap_or(row);
                    let sans: Vec<(String, bool)> = state.ledger.rows[first..=row]
                        .iter()
                        .map(|r| (r.san.clone(), r.conditional))
                        .collect();
                    let moves = label_moves(first, &sans);
                    let expected = state.ledger.rows[first].letter.as_ref().map(|f| f.expected);
                    let mut totals = rules::Fraction::default();
                    for r in &state.ledger.rows[..=row] {
                        totals.add(r.by, r.days + r.penalty);
                    }
                    let days = rules::days(state.ledger.rows[row].sent_on, today);
                    let model = model! {
                        "author" => state.player(author).name.as_str(),
                        "moves" => moves.as_str(),
                        "days" => days,
                        "dates" => model! {
                            "postmark" => expected.and_then(|e| e.partner_postmark).map(|d| fmt_date(d, lang)),
                            "received" => expected.and_then(|e| e.received).map(|d| fmt_date(d, lang)),
                            "sent" => fmt_date(state.ledger.rows[row].sent_on, lang),
                        },
                        "totals" => totals.to_string(),
                        "next" => next_lines(&state, !author, self.config, None),
                    };
                    let mut message = self.message(
                        "repeat",
                        "repeat",
                        Some(&state),
                        vec![recipient(&state, !author)],
                        vec![recipient(&state, author)],
                        model,
                        None,
                    )?;
                    message.registered = true;
                    message.generated = true;
                    message.delivers = Some(row);
                    plan.messages.push(message);
                    plan.notes.push(Note {
                        ply: Some(row),
                        kind: "repeat".into(),
                        text: format!(
                            "{} {moves}: {}",
                            lang.pick("повтор", "repeat"),
                            fmt_date(today, lang)
                        ),
                        created_on: today,
                    });
                    plan.events.push(Event {
                        event: "repeat",
                        game: Some(state.id().into()),
                        from: None,
                        detail: format!("{moves} repeated after {days} days"),
                    });
                }
                Duty::FirstMoveQuery => {
                    let model = model! {
                        "start" => fmt_date(self.config.start_date, lang),
                        "days" => self.config.rules.first_move_query_days,
                    };
                    let mut message = self.message(
                        "query",
                        "query",
                        Some(&state),
                        vec![recipient(&state, Color::White)],
                        vec![recipient(&state, Color::Black)],
                        model,
                        None,
                    )?;
                    message.registered = true;
                    message.generated = true;
                    plan.messages.push(message);
                    plan.events.push(Event {
                        event: "query",
                        game: Some(state.id().into()),
                        from: None,
                        detail: "first move not received".into(),
                    });
                }
                Duty::Reminder {
                    player,
                    threshold,
                    days_left,
                } => {
                    let model = model! {
                        "days_left" => days_left,
                        "threshold" => threshold,
                        "next" => next_lines(&state, player, self.config, None),
                    };
                    let mut message = self.message(
                        "reminder",
                        "reminder",
                        Some(&state),
                        vec![recipient(&state, player)],
                        vec![],
                        model,
                        None,
                    )?;
                    message.generated = true;
                    plan.messages.push(message);
                    plan.events.push(Event {
                        event: "reminder",
                        game: Some(state.id().into()),
                        from: None,
                        detail: format!("{} has {days_left} days left", color_name(player)),
                    });
                }
                Duty::SilentOverstep(overstep) => {
                    self.plan_overstep(store, &mut state, overstep, None, None, &mut plan)?;
                }
                Duty::NoProtest {
                    offender,
                    notice_on,
                } => {
                    let until =
                        rules::calendar::add_days(notice_on, self.config.rules.protest_days);
                    let model = model! {
                        "offender" => state.player(offender).name.as_str(),
                        "notice_on" => fmt_date(notice_on, lang),
                        "until" => fmt_date(until, lang),
                        "game_id" => state.id(),
                    };
                    let mut message = self.message(
                        "no-protest",
                        "no-protest",
                        Some(&state),
                        vec![self.arbiter()],
                        vec![],
                        model,
                        None,
                    )?;
                    message.generated = true;
                    plan.messages.push(message);
                    plan.events.push(Event {
                        event: "no-protest",
                        game: Some(state.id().into()),
                        from: None,
                        detail: format!("no protest by {}", fmt_date(until, lang)),
                    });
                }
                Duty::Adjudication => {
                    state.ledger.status = Status::Adjudication;
                    let to_move = state.player(state.ledger.to_move()).name.clone();
                    let model = model! {
                        "end_date" => fmt_date(self.config.end_date, lang),
                        "moves" => state.game.moves().len(),
                        "totals" => state.ledger.totals().to_string(),
                        "to_move" => to_move,
                        "pgn" => state.pgn_with(self.config, &[], "*"),
                    };
                    let mut message = self.message(
                        "adjudication",
                        "adjudication",
                        Some(&state),
                        vec![self.arbiter()],
                        vec![self.secretary()],
                        model,
                        None,
                    )?;
                    message.generated = true;
                    plan.messages.push(message);
                    plan.events.push(Event {
                        event: "adjudication",
                        game: Some(state.id().into()),
                        from: None,
                        detail: "end date reached without a result".into(),
                    });
                }
            }
        }
        plan.game = Some(state);
        Ok(plan)
    }
}

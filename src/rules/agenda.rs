//! What falls due in a game from today through a day ahead (`shtempel
//! today`): the move owed and its last day, the
//! calendar's duties (repeats, the first-move query, reminders, an overstep
//! by silence, the end of a protest period, the adjudication at the end
//! date) on the day each will fall if no letter comes first, and what waits
//! for the chief arbiter.
//!
//! The duties are [`due`]'s, asked day by day with those found counted as
//! done, so that `today` says exactly what the calendar will do. A day that
//! changes the game (an overstep, the end date) ends the look ahead: what
//! would follow depends on the arbiter.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use serde::Serialize;
use shakmaty::Color;

use super::calendar::add_days;
use super::deadlines::{Duty, DutyKey, due};
use super::{Ledger, Rules, Status};

/// One thing of a game's agenda.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Agendum {
    /// The player to move owes his move: his letter's last day.
    MoveOwed {
        #[serde(with = "crate::color_serde")]
        player: Color,
        days_left: i64,
    },
    /// A duty of the calendar on its day, if no letter comes first.
    Duty { duty: Duty },
    /// The offender's protest period ends (10.3.8): after it the arbiter is
    /// told no protest came.
    ProtestCloses {
        #[serde(with = "crate::color_serde")]
        offender: Color,
    },
    /// Suspended since the day given, for the chief arbiter's decision
    /// (10.3.6-10.3.7).
    DecisionAwaited {
        #[serde(with = "crate::color_serde")]
        offender: Color,
    },
    /// Past the end date: for the chief arbiter's adjudication (10.3.2).
    AdjudicationAwaited,
}

/// The agenda of a game from `today` through `through`, by day: each item
/// with its day (the last day of a move, the day of a duty, the close of a
/// protest period, the day a decision has been awaited since). A finished
/// game has none.
pub fn agenda(
    rules: &Rules,
    ledger: &Ledger,
    today: NaiveDate,
    through: NaiveDate,
    done: &BTreeSet<DutyKey>,
) -> Vec<(NaiveDate, Agendum)> {
    let mut items = Vec::new();
    match ledger.status() {
        Status::Finished | Status::Annulled => return items,
        Status::Adjudication => {
            items.push((ledger.calendar.end_date, Agendum::AdjudicationAwaited));
            return items;
        }
        Status::Suspended => {
            if let Some(suspension) = ledger.standing.suspension {
                let offender = suspension.offender;
                items.push((suspension.notice_on, Agendum::DecisionAwaited { offender }));
                let until = suspension.protest_until(rules);
                if !suspension.protest_received && (today..=through).contains(&until) {
                    items.push((until, Agendum::ProtestCloses { offender }));
                }
            }
        }
        Status::Active => {
            // Past the limit it is the overstep that is due (by silence),
            // unless the clerk declares none: then the move is owed still.
            if let Some(owed) = ledger.due(rules, today)
                && owed.last_day <= through
                && (owed.days_left >= 0 || !rules.silent_overstep)
            {
                let agendum = Agendum::MoveOwed {
                    player: owed.player,
                    days_left: owed.days_left,
                };
                items.push((owed.last_day, agendum));
            }
        }
    }
    let mut done = done.clone();
    let mut day = today;
    'days: while day <= through {
        for duty in due(rules, ledger, day, &done) {
            done.insert(duty.key(ledger));
            let changes_the_game = matches!(duty, Duty::SilentOverstep(_) | Duty::Adjudication);
            items.push((day, Agendum::Duty { duty }));
            if changes_the_game {
                break 'days;
            }
        }
        day = add_days(day, 1);
    }
    // By day; on one day, what waits first, then the duties in their order.
    items.sort_by_key(|(day, _)| *day);
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Calendar, Row, Suspension};

    fn d(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    /// 1. e4 sent 3 November, delivered that day; Black to move since.
    fn game() -> Ledger {
        let mut ledger = Ledger::new(Calendar::on_time(d("2026-11-01"), d("2028-11-01")));
        ledger.rows.push(Row {
            by: Color::White,
            san: "e4".into(),
            conditional: false,
            sent_on: d("2026-11-03"),
            delivered_on: Some(d("2026-11-03")),
            days: 2,
            penalty: 0,
            letter: None,
        });
        ledger
    }

    fn names(items: &[(NaiveDate, Agendum)]) -> Vec<(String, String)> {
        items
            .iter()
            .map(|(day, item)| {
                let name = match item {
                    Agendum::MoveOwed { days_left, .. } => format!("move owed ({days_left} left)"),
                    Agendum::Duty {
                        duty: Duty::Reminder { days_left, .. },
                    } => {
                        format!("reminder ({days_left} left)")
                    }
                    Agendum::Duty {
                        duty: Duty::Repeat { .. },
                    } => "repeat".into(),
                    Agendum::Duty {
                        duty: Duty::SilentOverstep(_),
                    } => "overstep".into(),
                    Agendum::Duty { duty } => format!("{duty:?}"),
                    Agendum::ProtestCloses { .. } => "protest closes".into(),
                    Agendum::DecisionAwaited { .. } => "decision awaited".into(),
                    Agendum::AdjudicationAwaited => "adjudication awaited".into(),
                };
                (day.to_string(), name)
            })
            .collect()
    }

    fn pairs(rows: &[(&str, &str)]) -> Vec<(String, String)> {
        rows.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn a_games_agenda_by_day_as_the_calendar_will_do_it() {
        let rules = Rules::default();
        let none = BTreeSet::new();
        // Black has 50 days from 3 November: his last day 23 December.
        // (today, through, the agenda as (day, what))
        type Row = (
            &'static str,
            &'static str,
            Vec<(&'static str, &'static str)>,
        );
        let table: [Row; 5] = [
            ("2026-11-20", "2026-11-27", vec![]),
            (
                "2026-11-20",
                "2026-12-23",
                vec![
                    ("2026-12-13", "repeat"),
                    ("2026-12-13", "reminder (10 left)"),
                    ("2026-12-20", "reminder (3 left)"),
                    ("2026-12-23", "move owed (33 left)"),
                ],
            ),
            // 40 days after 1. e4 was sent it is repeated; the reminders;
            // the overstep ends the look ahead.
            (
                "2026-12-10",
                "2027-02-01",
                vec![
                    ("2026-12-13", "repeat"),
                    ("2026-12-13", "reminder (10 left)"),
                    ("2026-12-20", "reminder (3 left)"),
                    ("2026-12-23", "move owed (13 left)"),
                    ("2026-12-24", "overstep"),
                ],
            ),
            (
                "2026-12-23",
                "2026-12-23",
                vec![
                    ("2026-12-23", "move owed (0 left)"),
                    ("2026-12-23", "repeat"),
                    ("2026-12-23", "reminder (0 left)"),
                ],
            ),
            (
                "2026-12-24",
                "2026-12-30",
                vec![("2026-12-24", "repeat"), ("2026-12-24", "overstep")],
            ),
        ];
        for (today, through, expected) in table {
            let items = agenda(&rules, &game(), d(today), d(through), &none);
            assert_eq!(names(&items), pairs(&expected), "{today} through {through}");
        }
    }

    #[test]
    fn what_was_done_is_not_due_again_and_a_suspended_game_waits_for_the_arbiter() {
        let rules = Rules::default();
        let none = BTreeSet::new();
        let ledger = game();
        let done: BTreeSet<DutyKey> = [DutyKey::Repeat { row: 0 }].into();
        let items = agenda(&rules, &ledger, d("2026-12-14"), d("2026-12-14"), &done);
        assert_eq!(names(&items), pairs(&[("2026-12-14", "reminder (9 left)")]));
        let mut suspended = game();
        suspended.standing.status = Status::Suspended;
        suspended.standing.suspension = Some(Suspension {
            offender: Color::Black,
            notice_on: d("2026-12-24"),
            protest_received: false,
            ply: None,
        });
        let items = agenda(&rules, &suspended, d("2026-12-28"), d("2027-01-10"), &none);
        assert_eq!(
            names(&items),
            pairs(&[
                ("2026-12-24", "decision awaited"),
                ("2027-01-03", "protest closes"),
                (
                    "2027-01-04",
                    "NoProtest { offender: Black, notice_on: 2026-12-24 }"
                )
            ])
        );
        let mut finished = game();
        finished.standing.status = Status::Finished;
        assert!(agenda(&rules, &finished, d("2026-12-01"), d("2027-12-01"), &none).is_empty());
    }
}

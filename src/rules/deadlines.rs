//! What falls due on a given day (rules.md 2.6): repeats and the first-move query
//! (10.3.4), oversteps by silence (10.3.5), reminders, the end of the protest
//! period (10.3.8) and the end date (10.3.2).

use std::collections::BTreeSet;

use chrono::NaiveDate;
use serde::Serialize;
use shakmaty::Color;

use super::calendar::add_days;
use super::{Ledger, Overstep, Rules, Status};

/// One thing the clerk must do today.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Duty {
    /// No answer to the letter carrying `ledger.rows[row]` for `repeat_after_days`:
    /// repeat it to the partner by registered letter.
    Repeat {
        row: usize,
        #[serde(with = "crate::color_serde")]
        author: Color,
    },
    /// Black has not had White's first move `first_move_query_days` after the start.
    FirstMoveQuery,
    /// `player`, to move, has `days_left` days (at most `threshold`) in his control.
    Reminder {
        #[serde(with = "crate::color_serde")]
        player: Color,
        threshold: u32,
        days_left: i64,
    },
    /// The running clock of the player to move has passed the limit.
    SilentOverstep(Overstep),
    /// The protest period after an overstep notice ended without a protest.
    NoProtest {
        #[serde(with = "crate::color_serde")]
        offender: Color,
        notice_on: NaiveDate,
    },
    /// The end date has come without a result.
    Adjudication,
    /// A game added during the tournament has begun: its players are told.
    GameStart,
}

/// Names a duty so that it is done once; the clerk stores the keys it has done.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct DutyKey(pub String);

impl Duty {
    pub fn key(&self, ledger: &Ledger) -> DutyKey {
        let text = match self {
            Duty::Repeat { row, .. } => format!("repeat:{row}"),
            Duty::FirstMoveQuery => "query".to_string(),
            Duty::Reminder {
                player, threshold, ..
            } => {
                let key = format!(
                    "reminder:{}:{}:{threshold}",
                    crate::color_name(*player),
                    ledger.moves_made(*player)
                );
                resumed(key, ledger)
            }
            Duty::SilentOverstep(overstep) => {
                let key = format!(
                    "silence:{}:{}",
                    crate::color_name(overstep.offender),
                    overstep.moves
                );
                resumed(key, ledger)
            }
            Duty::NoProtest { notice_on, .. } => format!("no-protest:{notice_on}"),
            Duty::Adjudication => "adjudication".to_string(),
            Duty::GameStart => "start".to_string(),
        };
        DutyKey(text)
    }
}

/// A duty's key with the day play resumed, if a ruling resumed it: the
/// clock restarted then, and its reminders and silences are new ones
/// (rules.md 2.5.6).
fn resumed(key: String, ledger: &Ledger) -> String {
    match ledger.standing.resumed_on {
        None => key,
        Some(day) => format!("{key}:{day}"),
    }
}

/// The duties due on `today` that are not in `done`, in the order to do them.
pub fn due(
    rules: &Rules,
    ledger: &Ledger,
    today: NaiveDate,
    done: &BTreeSet<DutyKey>,
) -> Vec<Duty> {
    let mut duties = Vec::new();
    match ledger.status() {
        Status::Finished | Status::Annulled => {}
        _ if today >= ledger.calendar.end_date => duties.push(Duty::Adjudication),
        Status::Adjudication => {}
        Status::Suspended => {
            if let Some((day, no_protest)) = no_protest_on(rules, ledger)
                && today >= day
            {
                duties.push(no_protest);
            }
        }
        Status::Active => active_duties(rules, ledger, today, &mut duties),
    }
    // On a day of leave no letter goes to the players, not even one that
    // fell due before it and was not sent then (no run that day): it goes
    // on the first day after the leave, as the leave's receipt promises
    //.
    if ledger.calendar.leave_through(today).is_some() {
        duties.retain(|duty| {
            !matches!(
                duty,
                Duty::Repeat { .. } | Duty::Reminder { .. } | Duty::FirstMoveQuery
            )
        });
    }
    duties.retain(|duty| !done.contains(&duty.key(ledger)) && !reminded(duty, ledger, done));
    duties
}

/// The first day after `today` on which [`due`] may find something new for
/// this ledger, or `None` when only a letter can (a finished game, a game
/// waiting for the arbiter). Never later than the true first day, often
/// earlier: a clock counted as if it ran every day from today. The calendar
/// looks again at a game on that day and loads no other (an idle run).
pub fn next_check(rules: &Rules, ledger: &Ledger, today: NaiveDate) -> Option<NaiveDate> {
    let tomorrow = add_days(today, 1);
    let end = ledger.calendar.end_date;
    let mut candidates = Vec::new();
    match ledger.status() {
        Status::Finished | Status::Adjudication | Status::Annulled => return None,
        _ if today >= end => return Some(tomorrow),
        Status::Suspended => candidates.extend(no_protest_on(rules, ledger).map(|(day, _)| day)),
        Status::Active => {
            let cal = &ledger.calendar;
            // What the leave held back is looked for the day after it.
            if let Some(last) = cal.leave_through(today) {
                candidates.push(add_days(last, 1));
            }
            candidates.extend(game_start_on(ledger));
            candidates.extend(query_on(rules, ledger));
            candidates.extend(repeat_on(rules, ledger).map(|(day, _)| day));
            match ledger.days_left_on(rules, today) {
                // Not running (a move not yet delivered, a start not yet come):
                // look daily until it does.
                None => candidates.push(tomorrow),
                Some(days_left) => {
                    let warn = rules.reminder_days.iter().copied().max().unwrap_or(0);
                    // The clock gains at most a day a day: no reminder before
                    // `days_left - warn` days, no overstep before `days_left + 1`.
                    let quiet = (days_left - i64::from(warn)).clamp(1, i64::from(u32::MAX));
                    candidates.push(add_days(today, quiet as u32));
                }
            }
        }
    }
    candidates.push(end);
    candidates
        .into_iter()
        .filter(|day| *day > today)
        .min()
        .or(Some(tomorrow))
}

/// The day from which the letter carrying `ledger.rows[row]` counts as
/// unanswered (2.6): the day its move reached the partner, which is the
/// day it was sent but for a letter forwarded later (one the director
/// accepted after a refusal: its 40 days run from the acceptance, not from
/// its old postmark, so that no repeat goes out beside its forward); or,
/// where a ruling resumed the game after it, the day the decision went out
/// (2.5.6: the partner's clock counts from then, and so does his silence).
pub fn unanswered_since(ledger: &Ledger, row: usize) -> NaiveDate {
    let row = &ledger.rows[row];
    let reached = row
        .delivered_on
        .map_or(row.sent_on, |got| got.max(row.sent_on));
    ledger
        .standing
        .resumed_on
        .map_or(reached, |resumed| resumed.max(reached))
}

/// The day after the protest period of a suspension with no protest
/// (10.3.8), and the duty.
fn no_protest_on(rules: &Rules, ledger: &Ledger) -> Option<(NaiveDate, Duty)> {
    let suspension = ledger.standing.suspension.filter(|s| !s.protest_received)?;
    let day = add_days(suspension.protest_until(rules), 1);
    let duty = Duty::NoProtest {
        offender: suspension.offender,
        notice_on: suspension.notice_on,
    };
    Some((day, duty))
}

/// The day a game added to begin later begins (its players told), while
/// it has no move.
fn game_start_on(ledger: &Ledger) -> Option<NaiveDate> {
    let cal = &ledger.calendar;
    (cal.late_start && ledger.rows.is_empty()).then_some(cal.start_date)
}

/// The day Black queries White's first move (10.3.4), while it has not
/// reached him.
fn query_on(rules: &Rules, ledger: &Ledger) -> Option<NaiveDate> {
    let cal = &ledger.calendar;
    let arrived = ledger
        .rows
        .first()
        .is_some_and(|row| row.delivered_on.is_some());
    (!arrived).then(|| cal.counted_after(cal.start_date, rules.first_move_query_days))
}

/// The day the last letter is repeated, unanswered (10.3.4), and the duty.
fn repeat_on(rules: &Rules, ledger: &Ledger) -> Option<(NaiveDate, Duty)> {
    let last = ledger.rows.len().checked_sub(1)?;
    let from = unanswered_since(ledger, last);
    let day = ledger.calendar.counted_after(from, rules.repeat_after_days);
    let author = ledger.rows[last].by;
    Some((day, Duty::Repeat { row: last, author }))
}

/// The duties of a game under way due on `today`: those of a day in the
/// calendar (the same days [`next_check`] looks for), then those of the
/// running clock.
fn active_duties(rules: &Rules, ledger: &Ledger, today: NaiveDate, duties: &mut Vec<Duty>) {
    if game_start_on(ledger).is_some_and(|day| today >= day) {
        duties.push(Duty::GameStart);
    }
    if query_on(rules, ledger).is_some_and(|day| today >= day) {
        duties.push(Duty::FirstMoveQuery);
    }
    if let Some((day, repeat)) = repeat_on(rules, ledger)
        && today >= day
    {
        duties.push(repeat);
    }
    let player = ledger.to_move();
    let Some(running) = ledger.running_days(player, today) else {
        return;
    };
    let moves = ledger.moves_made(player).saturating_add(1);
    let limit = rules.limit(moves);
    let total = ledger.totals().get(player).saturating_add(running);
    if total > limit {
        if rules.silent_overstep {
            duties.push(Duty::SilentOverstep(Overstep {
                offender: player,
                total,
                limit,
                moves,
            }));
        }
        return;
    }
    let days_left = i64::from(limit) - i64::from(total);
    let tightest = rules
        .reminder_days
        .iter()
        .copied()
        .filter(|&threshold| days_left <= i64::from(threshold))
        .min();
    if let Some(threshold) = tightest {
        duties.push(Duty::Reminder {
            player,
            threshold,
            days_left,
        });
    }
}

/// A reminder is already done when one at its threshold or a tighter one went out
/// for the same move, since play last resumed.
fn reminded(duty: &Duty, ledger: &Ledger, done: &BTreeSet<DutyKey>) -> bool {
    let Duty::Reminder {
        player, threshold, ..
    } = duty
    else {
        return false;
    };
    let prefix = format!(
        "reminder:{}:{}:",
        crate::color_name(*player),
        ledger.moves_made(*player)
    );
    let since = ledger.standing.resumed_on.map(|day| day.to_string());
    done.iter().any(|key| {
        let Some(rest) = key.0.strip_prefix(&prefix) else {
            return false;
        };
        let (sent, resumed) = match rest.split_once(':') {
            Some((sent, resumed)) => (sent, Some(resumed.to_string())),
            None => (rest, None),
        };
        resumed == since && sent.parse::<u32>().is_ok_and(|sent| sent <= *threshold)
    })
}

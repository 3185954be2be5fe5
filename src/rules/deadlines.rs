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

/// Names a duty so that it is done once; the clerk stores the keys it has
/// done, as their text (`repeat:3`, `reminder:white:10:5`, …: [`DutyKey::text`]).
/// A reminder's and a silence's carry the day play resumed, if a ruling
/// resumed it: the clock restarted then, and they are new ones (rules.md
/// 2.5.6).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DutyKey {
    /// The letter carrying row `row` repeated.
    Repeat {
        row: usize,
    },
    Query,
    /// `player` reminded at `threshold` days left, with `moves` made.
    Reminder {
        player: Color,
        moves: u32,
        threshold: u32,
        resumed: Option<NaiveDate>,
    },
    /// `offender`'s overstep by silence, counted at `moves` moves.
    Silence {
        offender: Color,
        moves: u32,
        resumed: Option<NaiveDate>,
    },
    /// The protest period after the notice of `notice_on` ended.
    NoProtest {
        notice_on: NaiveDate,
    },
    Adjudication,
    Start,
    /// A key this build does not read (another build wrote it): kept as
    /// written, so that it stays done.
    Other(String),
}

impl DutyKey {
    /// The key as the store keeps it.
    pub fn text(&self) -> String {
        let with_resumed = |key: String, resumed: &Option<NaiveDate>| match resumed {
            None => key,
            Some(day) => format!("{key}:{day}"),
        };
        match self {
            DutyKey::Repeat { row } => format!("repeat:{row}"),
            DutyKey::Query => "query".to_string(),
            DutyKey::Reminder {
                player,
                moves,
                threshold,
                resumed,
            } => with_resumed(
                format!(
                    "reminder:{}:{moves}:{threshold}",
                    crate::color_name(*player)
                ),
                resumed,
            ),
            DutyKey::Silence {
                offender,
                moves,
                resumed,
            } => with_resumed(
                format!("silence:{}:{moves}", crate::color_name(*offender)),
                resumed,
            ),
            DutyKey::NoProtest { notice_on } => format!("no-protest:{notice_on}"),
            DutyKey::Adjudication => "adjudication".to_string(),
            DutyKey::Start => "start".to_string(),
            DutyKey::Other(text) => text.clone(),
        }
    }

    /// The key the store's `text` is ([`DutyKey::Other`] where it reads as
    /// none).
    pub fn of_text(text: &str) -> DutyKey {
        DutyKey::parsed(text).unwrap_or_else(|| DutyKey::Other(text.to_string()))
    }

    fn parsed(text: &str) -> Option<DutyKey> {
        let color = |name: &str| match name {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            _ => None,
        };
        let day = |text: Option<&str>| match text {
            None => Some(None),
            Some(text) => text.parse().ok().map(Some),
        };
        let parts: Vec<&str> = text.splitn(5, ':').collect();
        match parts.as_slice() {
            ["repeat", row] => Some(DutyKey::Repeat {
                row: row.parse().ok()?,
            }),
            ["query"] => Some(DutyKey::Query),
            ["reminder", player, moves, threshold, rest @ ..] if rest.len() <= 1 => {
                Some(DutyKey::Reminder {
                    player: color(player)?,
                    moves: moves.parse().ok()?,
                    threshold: threshold.parse().ok()?,
                    resumed: day(rest.first().copied())?,
                })
            }
            ["silence", offender, moves, rest @ ..] if rest.len() <= 1 => Some(DutyKey::Silence {
                offender: color(offender)?,
                moves: moves.parse().ok()?,
                resumed: day(rest.first().copied())?,
            }),
            ["no-protest", notice_on] => Some(DutyKey::NoProtest {
                notice_on: notice_on.parse().ok()?,
            }),
            ["adjudication"] => Some(DutyKey::Adjudication),
            ["start"] => Some(DutyKey::Start),
            _ => None,
        }
    }
}

/// In the order of their texts, as the store lists them (a colour has no
/// order of its own).
impl Ord for DutyKey {
    fn cmp(&self, other: &DutyKey) -> std::cmp::Ordering {
        self.text().cmp(&other.text())
    }
}

impl PartialOrd for DutyKey {
    fn partial_cmp(&self, other: &DutyKey) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Duty {
    pub fn key(&self, ledger: &Ledger) -> DutyKey {
        let resumed = ledger.standing.resumed_on;
        match self {
            Duty::Repeat { row, .. } => DutyKey::Repeat { row: *row },
            Duty::FirstMoveQuery => DutyKey::Query,
            Duty::Reminder {
                player, threshold, ..
            } => DutyKey::Reminder {
                player: *player,
                moves: ledger.moves_made(*player),
                threshold: *threshold,
                resumed,
            },
            Duty::SilentOverstep(overstep) => DutyKey::Silence {
                offender: overstep.offender,
                moves: overstep.moves,
                resumed,
            },
            Duty::NoProtest { notice_on, .. } => DutyKey::NoProtest {
                notice_on: *notice_on,
            },
            Duty::Adjudication => DutyKey::Adjudication,
            Duty::GameStart => DutyKey::Start,
        }
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
    let moves = ledger.moves_made(*player);
    let since = ledger.standing.resumed_on;
    done.iter().any(|key| {
        matches!(
            key,
            DutyKey::Reminder { player: sent_to, moves: at, threshold: sent, resumed }
                if sent_to == player && *at == moves && *resumed == since && sent <= threshold
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key reads back from the text the store keeps, the texts being
    /// those earlier builds wrote; a text no key has stays as written.
    #[test]
    fn a_duty_key_reads_back_from_its_stored_text() {
        let day = |text: &str| text.parse::<NaiveDate>().unwrap();
        let table = [
            ("repeat:3", DutyKey::Repeat { row: 3 }),
            ("query", DutyKey::Query),
            (
                "reminder:white:10:5",
                DutyKey::Reminder {
                    player: Color::White,
                    moves: 10,
                    threshold: 5,
                    resumed: None,
                },
            ),
            (
                "reminder:black:0:10:2027-01-05",
                DutyKey::Reminder {
                    player: Color::Black,
                    moves: 0,
                    threshold: 10,
                    resumed: Some(day("2027-01-05")),
                },
            ),
            (
                "silence:black:7",
                DutyKey::Silence {
                    offender: Color::Black,
                    moves: 7,
                    resumed: None,
                },
            ),
            (
                "silence:white:12:2027-02-10",
                DutyKey::Silence {
                    offender: Color::White,
                    moves: 12,
                    resumed: Some(day("2027-02-10")),
                },
            ),
            (
                "no-protest:2026-12-25",
                DutyKey::NoProtest {
                    notice_on: day("2026-12-25"),
                },
            ),
            ("adjudication", DutyKey::Adjudication),
            ("start", DutyKey::Start),
            (
                "digest:2027-01-01",
                DutyKey::Other("digest:2027-01-01".into()),
            ),
            ("repeat:x", DutyKey::Other("repeat:x".into())),
        ];
        for (text, key) in table {
            assert_eq!(DutyKey::of_text(text), key, "{text}");
            assert_eq!(key.text(), text);
        }
    }
}

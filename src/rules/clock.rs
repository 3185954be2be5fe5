//! The ledger of a game: one row per move made, with the dates that decide its
//! thinking time, and what follows from the rows: totals, moves made, controls.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

use super::{Calendar, Due, Ledger, Row, Rules, Standing, Status, Turn};

/// Days used by both players, written as a fraction White/Black (10.3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fraction {
    pub white: u32,
    pub black: u32,
}

impl Fraction {
    pub fn get(self, color: Color) -> u32 {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub fn add(&mut self, color: Color, days: u32) {
        let slot = match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        };
        *slot = slot.saturating_add(days);
    }
}

impl std::fmt::Display for Fraction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.white, self.black)
    }
}

impl Ledger {
    pub fn new(calendar: Calendar) -> Ledger {
        Ledger {
            calendar,
            rows: Vec::new(),
            standing: Standing::default(),
        }
    }

    pub fn status(&self) -> Status {
        self.standing.status
    }

    /// Whether a player may still owe a letter: the game goes on, or waits
    /// for the arbiter (not finished, not past its end date).
    pub fn in_play(&self) -> bool {
        matches!(self.standing.status, Status::Active | Status::Suspended)
    }

    /// Whose clock `player`'s letter meets (rules.md 2.7): his own when it is
    /// his move, his partner's when it is not, nobody's during a suspension
    /// (2.5) or once the game is over.
    pub fn clock_for(&self, player: Color) -> Turn {
        match self.standing.status {
            Status::Active if self.to_move() == player => Turn::Yours,
            Status::Active => Turn::Partners,
            Status::Suspended => Turn::Stopped,
            Status::Finished | Status::Adjudication | Status::Annulled => Turn::Over,
        }
    }

    /// The player to move, his days left and the last day he may send his
    /// letter on; for a game in play, begun, whose clock runs.
    pub fn due(&self, rules: &Rules, today: NaiveDate) -> Option<Due> {
        if self.standing.status != Status::Active || today < self.calendar.start_date {
            return None;
        }
        let days_left = self.days_left_on(rules, today)?;
        let last = match u32::try_from(days_left) {
            Ok(left) => self.calendar.counted_after(today, left),
            // Past it (before a poll declares the overstep): the last day
            // stays the day his days ran out, not today.
            Err(_) => self.day_days_ran_out(rules, today),
        };
        Some(Due {
            player: self.to_move(),
            days_left,
            last_day: last.min(self.calendar.end_date),
        })
    }

    /// [`Ledger::due`] once the last move, made and not delivered yet,
    /// reaches the player to move on `day`: what a run that forwards it on
    /// `day` tells him (his days count from the day the move reaches him,
    /// rules.md 2.1). A ledger whose last move was delivered is as `due`.
    pub fn due_if_delivered(&self, rules: &Rules, day: NaiveDate) -> Option<Due> {
        match self.rows.last() {
            Some(last) if last.delivered_on.is_none() && self.standing.held_reply.is_none() => {
                let mut delivered = self.clone();
                if let Some(last) = delivered.rows.last_mut() {
                    last.delivered_on = Some(day);
                }
                delivered.due(rules, day)
            }
            _ => self.due(rules, day),
        }
    }

    /// The last day the player to move still had days left on, for a
    /// `today` past it: found by going back day by day (no more than a
    /// season's days: a clock runs out within its control's).
    fn day_days_ran_out(&self, rules: &Rules, today: NaiveDate) -> NaiveDate {
        let mut day = today;
        for _ in 0..1000 {
            let Some(earlier) = day.pred_opt() else {
                break;
            };
            day = earlier;
            if self.days_left_on(rules, day).is_none_or(|left| left >= 0) {
                break;
            }
        }
        day
    }

    /// `total_P` for both players: days plus penalties (rules.md 2.2), less
    /// the days the arbiter excused.
    pub fn totals(&self) -> Fraction {
        let mut totals = self.standing.extra_penalty;
        for row in &self.rows {
            totals.add(row.by, row.days.saturating_add(row.penalty));
        }
        let credit = self.standing.credit;
        Fraction {
            white: totals.white.saturating_sub(credit.white),
            black: totals.black.saturating_sub(credit.black),
        }
    }

    /// The days and penalties of the moves up to `row`, as the letter that
    /// carried it stated them (the excused days and penalties not tied to a
    /// move came later and are not counted).
    pub fn totals_through(&self, row: usize) -> Fraction {
        let mut totals = Fraction::default();
        for move_row in self.rows.iter().take(row + 1) {
            totals.add(move_row.by, move_row.days.saturating_add(move_row.penalty));
        }
        totals
    }

    /// Where a clock starts that would start at `from` (a delivery, or the
    /// player's start for `None`): never before play resumed after a suspension.
    pub fn clock_from(&self, from: Option<NaiveDate>) -> Option<NaiveDate> {
        match (from, self.standing.resumed_on) {
            (Some(from), Some(resumed)) => Some(from.max(resumed)),
            (from, resumed) => from.or(resumed),
        }
    }

    /// Moves `player` has actually made: variants count only once played (10.3.5).
    pub fn moves_made(&self, player: Color) -> u32 {
        let count = self.rows.iter().filter(|row| row.by == player).count();
        u32::try_from(count).unwrap_or(u32::MAX)
    }

    /// Whose move it is: White before the first move, then the side that did not
    /// make the last one.
    pub fn to_move(&self) -> Color {
        self.rows.last().map_or(Color::White, |row| !row.by)
    }

    /// The last move of `player`'s partner: the move `player` answers, if any.
    pub fn answered_by(&self, player: Color) -> Option<&Row> {
        self.rows.last().filter(|row| row.by != player)
    }

    /// The last letter of `player` (the first move of it), with its index.
    pub fn last_letter_of(&self, player: Color) -> Option<(usize, &Row)> {
        self.rows
            .iter()
            .enumerate()
            .rev()
            .find(|(_, row)| row.by == player && row.letter.is_some())
    }

    /// Whether `player` has had a letter with an omission in this game already.
    pub fn has_omitted(&self, player: Color) -> bool {
        self.rows
            .iter()
            .any(|row| row.by == player && row.letter.as_ref().is_some_and(|facts| facts.omission))
    }

    /// The days `player` has left in his current control, counting a move still
    /// to make (`pending` = 1) or not: negative once overstepped.
    pub fn days_left(&self, rules: &Rules, player: Color, pending: u32) -> i64 {
        let limit = rules.limit(self.moves_made(player).saturating_add(pending));
        i64::from(limit) - i64::from(self.totals().get(player))
    }

    /// The days the player to move has left in his current control on `today`,
    /// his running clock counted; `None` while it does not run.
    pub fn days_left_on(&self, rules: &Rules, today: NaiveDate) -> Option<i64> {
        let player = self.to_move();
        let running = self.running_days(player, today)?;
        Some(self.days_left(rules, player, 1) - i64::from(running))
    }

    /// The thinking days `player`, to move, has run up by `today` since the move
    /// he answers reached him; `None` when nothing runs (not his move, the move
    /// not yet delivered, or past the end date).
    pub fn running_days(&self, player: Color, today: NaiveDate) -> Option<u32> {
        if self.to_move() != player {
            return None;
        }
        let from = match self.answered_by(player) {
            Some(row) => Some(row.delivered_on?),
            None if player == Color::White => None,
            None => return None,
        };
        Some(
            self.calendar
                .thinking_days(player, self.clock_from(from), today),
        )
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn d(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    /// White's first move (2 days) delivered on 3 November, Black's reply
    /// (4 days) sent on 7 November, delivered as `delivered` says (the
    /// worked example's first moves, rules.md).
    pub(crate) fn ledger(delivered: Option<&str>) -> Ledger {
        let mut ledger = Ledger::new(Calendar::on_time(d("2026-11-01"), d("2028-11-01")));
        for (by, sent, delivered, days) in [
            (Color::White, "2026-11-03", Some("2026-11-03"), 2),
            (Color::Black, "2026-11-07", delivered, 4),
        ] {
            ledger.rows.push(Row {
                by,
                san: "x".into(),
                conditional: false,
                sent_on: d(sent),
                delivered_on: delivered.map(d),
                days,
                penalty: 0,
                letter: None,
            });
        }
        ledger
    }

    /// A move not delivered yet is due from the day the run that forwards
    /// it reaches the player to move; one delivered, as `due` says.
    #[test]
    fn a_move_forwarded_today_is_due_from_today() {
        let rules = Rules::default();
        let table = [
            // (delivered, the run's day, days left, last day)
            (None, "2026-11-09", 48, "2026-12-27"),
            (None, "2026-11-20", 48, "2027-01-07"),
            (Some("2026-11-07"), "2026-11-09", 46, "2026-12-25"),
        ];
        for (delivered, day, left, last) in table {
            let due = ledger(delivered)
                .due_if_delivered(&rules, d(day))
                .expect("due");
            assert_eq!(
                (due.player, due.days_left, due.last_day),
                (Color::White, left, d(last)),
                "{delivered:?} {day}"
            );
        }
        assert_eq!(ledger(None).due(&rules, d("2026-11-09")), None);
    }
}

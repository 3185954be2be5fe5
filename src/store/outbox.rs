//! The outbox: messages waiting to be sent, their sends and failures, the
//! replies a day gave each address, letters that keep failing, the run's state.

use std::collections::HashSet;

use chrono::{DateTime, NaiveDate, Utc};
use rusqlite::{OptionalExtension, params};

use crate::key::GameKey;

use super::Sql;
use super::sent_log::{Sent, SentLog};
use super::{
    HeldMessage, OutboxItem, Replies, Result, SentMessage, Store, day_text, first_recipient,
    from_sql_err,
};

impl Store {
    /// Messages not yet sent and due for a try at `now`, oldest first,
    /// but for those `skip` names (given to a job that is still out) and
    /// those held to a day after `today`. A message that failed waits 5
    /// minutes, then 10, 20, … up to 6 hours.
    pub fn pending(
        &self,
        now: DateTime<Utc>,
        today: NaiveDate,
        skip: impl Fn(i64) -> bool,
    ) -> Result<Vec<OutboxItem>> {
        let written = std::mem::take(&mut self.cache.borrow_mut().written);
        let mut written = written.into_iter().peekable();
        let unsent: Vec<i64> = self
            .conn
            .prepare_cached(
                "SELECT id FROM outbox WHERE sent_at IS NULL AND failed = 0 AND digest_for IS NULL
                 AND (send_on IS NULL OR send_on <= ?1) ORDER BY id",
            )?
            .query_map([day_text(today)], |r| r.get(0))?
            .collect::<Sql<_>>()?;
        let mut read = self.conn.prepare_cached(
            "SELECT o.id, game_id, kind, recipients, message_id, raw, delivers_game, delivers_ply,
                    attempts, last_attempt
             FROM outbox o JOIN outbox_raw r ON r.id = o.id
             WHERE o.id = ?1",
        )?;
        let mut due = Vec::new();
        for id in unsent {
            while written.next_if(|item| item.id < id).is_some() {}
            if skip(id) {
                continue;
            }
            if let Some(item) = written.next_if(|item| item.id == id) {
                due.push(item);
                continue;
            }
            let (item, last) = read.query_row([id], |r| {
                let recipients: String = r.get(3)?;
                let delivers_game: Option<String> = r.get(6)?;
                let delivers_ply: Option<i64> = r.get(7)?;
                let last_attempt: Option<String> = r.get(9)?;
                Ok((
                    OutboxItem {
                        id: r.get(0)?,
                        game: r.get(1)?,
                        kind: r.get(2)?,
                        recipients: recipients
                            .split(',')
                            .filter(|s| !s.is_empty())
                            .map(str::to_string)
                            .collect(),
                        message_id: r.get(4)?,
                        raw: r.get(5)?,
                        delivers: delivers_game
                            .zip(delivers_ply.and_then(|ply| usize::try_from(ply).ok())),
                        attempts: r.get(8)?,
                    },
                    last_attempt.and_then(|t| DateTime::parse_from_rfc3339(&t).ok()),
                ))
            })?;
            let wait = crate::rules::sending::retry_delay(item.attempts);
            if last.is_none_or(|last| now >= last.with_timezone(&Utc) + wait) {
                due.push(item);
            }
        }
        Ok(due)
    }

    /// The readers with messages kept for their digests and not in one
    /// yet, each with the day the oldest was kept: read by every poll, so
    /// without the messages themselves.
    pub fn digest_readers(&self) -> Result<Vec<(String, NaiveDate)>> {
        let rows = self
            .conn
            .prepare_cached(
                "SELECT digest_for, MIN(created_on) FROM outbox
                 WHERE digest_for IS NOT NULL AND in_digest IS NULL AND sent_at IS NULL
                 GROUP BY digest_for ORDER BY digest_for",
            )?
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?
            .collect::<Sql<Vec<_>>>()?;
        rows.into_iter()
            .map(|(address, day)| Ok((address, super::date_from(&day)?)))
            .collect()
    }

    /// The messages kept for `address`'s digest and not in one yet, oldest
    /// first.
    pub fn held_for_digest(&self, address: &str) -> Result<Vec<HeldMessage>> {
        self.conn
            .prepare_cached(
                "SELECT o.id, game_id, kind, raw, created_on FROM outbox o
                 JOIN outbox_raw r ON r.id = o.id
                 WHERE digest_for = ?1 AND in_digest IS NULL AND sent_at IS NULL
                 ORDER BY o.id",
            )?
            .query_map([address], |r| {
                Ok(HeldMessage {
                    id: r.get(0)?,
                    game: r
                        .get::<_, Option<String>>(1)?
                        .map(|key| GameKey::parse(&key)),
                    kind: r.get(2)?,
                    raw: r.get(3)?,
                    created_on: super::date_from(&r.get::<_, String>(4)?)?,
                })
            })?
            .collect::<Sql<_>>()
            .map_err(Into::into)
    }

    /// Whether `address` was written a digest on `day` already.
    pub fn digest_written(&self, address: &str, day: NaiveDate) -> Result<bool> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT 1 FROM outbox INDEXED BY outbox_digests
                 WHERE kind = 'digest' AND recipients = ?1 AND created_on = ?2",
            )?
            .query_row(params![address, day_text(day)], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// Whether the outbox holds a message of this Message-ID, and the day
    /// the transport accepted it (`None` while it waits).
    pub fn accepted_on(&self, message_id: &str) -> Result<Option<Option<NaiveDate>>> {
        let accepted: Option<Option<String>> = self
            .conn
            .prepare_cached("SELECT accepted_on FROM outbox WHERE message_id = ?1")?
            .query_row([message_id], |r| r.get(0))
            .optional()?;
        Ok(accepted.map(|day| day.and_then(|d| NaiveDate::parse_from_str(&d, "%Y-%m-%d").ok())))
    }

    /// Messages not sent yet that failed before (waiting for their next
    /// try): how many, and the last error of the latest.
    pub fn undelivered(&self) -> Result<(u32, String)> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT count(*),
                        coalesce((SELECT last_error FROM outbox
                                  WHERE sent_at IS NULL AND failed = 0 AND attempts > 0
                                  ORDER BY last_attempt DESC LIMIT 1), '')
                 FROM outbox WHERE sent_at IS NULL AND failed = 0 AND attempts > 0",
            )?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?)
    }

    /// A handle on the sent log for the one who sends: each message the
    /// transport took is appended to it at once (one line, which outlives a
    /// crash of the process) and written into the database by
    /// [`Store::record_sent`] with the next batch. A commit per message cost
    /// more than the message; the log keeps "a crash sends again at most the
    /// message in flight" (for an SMTP server that pipelines, the window of
    /// up to 25 messages in flight, `Transport::window`). A crash of the machine loses the
    /// unsynced log and
    /// sends its messages again, with their Message-IDs. `None` for a
    /// database in memory.
    pub fn sent_log(&self) -> Option<SentLog> {
        self.sent_log.as_ref().map(SentLog::handle)
    }

    /// Records messages as sent with their receipts, and delivers the moves
    /// they carry on their day: in the game cache at once, in the database
    /// with the open batch (or in a transaction of its own).
    pub fn record_sent(&mut self, sent: &[Sent]) -> Result<()> {
        if sent.is_empty() {
            return Ok(());
        }
        for sent in sent {
            if let Some((game, ply)) = &sent.delivers
                && let Some(cached) = self.cache.borrow_mut().games.get_mut(game)
                && let Some(row) = cached.moves.get_mut(*ply)
            {
                row.delivered_on.get_or_insert(sent.today);
            }
        }
        self.write(None, |w| sent.iter().try_for_each(|s| w.sent(s)))
    }

    /// Removes the sent log once what it held is committed (and before
    /// anyone appends to it again).
    pub fn clear_sent_log(&mut self) -> Result<()> {
        match &mut self.sent_log {
            Some(log) => Ok(log.clear().map_err(from_sql_err)?),
            None => Ok(()),
        }
    }

    /// Records a failed send; a permanent failure is not tried again.
    pub fn mark_failed(
        &mut self,
        outbox_id: i64,
        error: &str,
        permanent: bool,
        at: DateTime<Utc>,
    ) -> Result<()> {
        self.conn.prepare_cached(
            "UPDATE outbox SET attempts = attempts + 1, last_error = ?2, failed = ?3, last_attempt = ?4
             WHERE id = ?1",
        )?
        .execute(
            params![outbox_id, error, permanent, at.to_rfc3339()],
        )?;
        Ok(())
    }

    /// Counts one more failed run for a letter; returns how many it has had.
    pub fn record_failure(
        &mut self,
        source_key: &str,
        error: &str,
        at: DateTime<Utc>,
    ) -> Result<u32> {
        let runs = self.conn.query_row(
            "INSERT INTO failures (source_key, runs, last_error, last_at) VALUES (?1, 1, ?2, ?3)
             ON CONFLICT (source_key) DO UPDATE SET runs = runs + 1, last_error = ?2, last_at = ?3
             RETURNING runs",
            params![source_key, error, at.to_rfc3339()],
            |r| r.get(0),
        )?;
        if let Some(failing) = &mut self.cache.borrow_mut().failing {
            failing.insert(source_key.to_string());
        }
        Ok(runs)
    }

    /// A letter that went through after failing before. Most never failed:
    /// their keys are looked up in memory, not deleted from the table one
    /// by one (a hundredth of a run).
    pub fn forget_failure(&mut self, source_key: &str) -> Result<()> {
        if self.cache.borrow().failing.is_none() {
            let keys = self
                .conn
                .prepare("SELECT source_key FROM failures")?
                .query_map([], |row| row.get(0))?
                .collect::<Sql<HashSet<String>>>()?;
            self.cache.borrow_mut().failing = Some(keys);
        }
        let known = self
            .cache
            .borrow_mut()
            .failing
            .as_mut()
            .is_some_and(|failing| failing.remove(source_key));
        if known {
            self.conn
                .prepare_cached("DELETE FROM failures WHERE source_key = ?1")?
                .execute(params![source_key])?;
        }
        Ok(())
    }

    /// How many answers of `kinds` went to `address` on `day`. The kinds of
    /// a day's messages are read once, by the day, and then kept with the
    /// messages added (a query per letter was a twenty-fifth of a run; one
    /// per address needed an index by recipient, whose pages every batch
    /// rewrote).
    pub fn replies_on(&self, address: &str, day: NaiveDate, kinds: &[&str]) -> Result<u32> {
        if !self.cache.borrow().replies.contains_key(&day) {
            let stored = self.replies_of(day)?;
            self.cache.borrow_mut().replies.insert(day, stored);
        }
        let cache = self.cache.borrow();
        let stored = cache
            .replies
            .get(&day)
            .and_then(|replies| replies.get(address))
            .map_or(&[][..], Vec::as_slice);
        Ok(stored
            .iter()
            .filter(|kind| kinds.contains(&kind.as_str()))
            .count() as u32)
    }

    /// The kinds of the messages of `day` (created on it, or held to it), by
    /// first recipient.
    fn replies_of(&self, day: NaiveDate) -> Result<Replies> {
        let mut statement = self.conn.prepare_cached(
            "SELECT recipients, kind FROM outbox WHERE created_on = ?1 AND send_on IS NULL
             UNION ALL SELECT recipients, kind FROM outbox WHERE send_on = ?1",
        )?;
        let mut rows = statement.query(params![day_text(day)])?;
        let mut replies = Replies::new();
        while let Some(row) = rows.next()? {
            let recipients: String = row.get(0)?;
            replies
                .entry(first_recipient(&recipients).to_string())
                .or_default()
                .push(row.get(1)?);
        }
        Ok(replies)
    }

    /// How many letters are stored (for reports and benchmarks).
    /// Whether the last run that had letters ended before finishing them.
    pub fn run_interrupted(&self) -> Result<bool> {
        Ok(self
            .conn
            .query_row(
                "SELECT value FROM run_state WHERE key = 'interrupted'",
                [],
                |r| r.get::<_, String>(0),
            )
            .optional()?
            .is_some_and(|value| value == "1"))
    }

    pub fn set_run_interrupted(&mut self, interrupted: bool) -> Result<()> {
        self.conn
            .prepare_cached(
                // Unchanged, no row is changed: an idle run's batch stays
                // empty and is not synced.
                "INSERT INTO run_state (key, value) VALUES ('interrupted', ?1)
             ON CONFLICT (key) DO UPDATE SET value = ?1 WHERE value <> ?1",
            )?
            .execute(params![if interrupted { "1" } else { "0" }])?;
        Ok(())
    }

    /// What the report of `[report] out` was last written from
    /// (`main::report_mark`), or none since a report failed: `tournament`'s,
    /// where a folder's each have one.
    pub fn report_mark(&self, tournament: Option<&str>) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT value FROM run_state WHERE key = ?1",
                [report_key(tournament)],
                |r| r.get(0),
            )
            .optional()?)
    }

    pub fn set_report_mark(&mut self, tournament: Option<&str>, mark: &str) -> Result<()> {
        let key = report_key(tournament);
        self.conn
            .prepare_cached(
                "INSERT INTO run_state (key, value) VALUES (?2, ?1)
                 ON CONFLICT (key) DO UPDATE SET value = ?1 WHERE value <> ?1",
            )?
            .execute(params![mark, key])?;
        Ok(())
    }

    /// The latest day a run acted on (`poll --today` is refused before it),
    /// kept as runs go: [`Store::last_day`] scans every letter, which an idle
    /// poll cannot pay. A database of an older clerk has none until its first
    /// run: it falls back to that scan.
    pub fn last_run_day(&self) -> Result<Option<NaiveDate>> {
        let kept: Option<String> = self
            .conn
            .query_row("SELECT value FROM run_state WHERE key = 'day'", [], |r| {
                r.get(0)
            })
            .optional()?;
        match kept.and_then(|day| day.parse().ok()) {
            Some(day) => Ok(Some(day)),
            None => self.last_day(),
        }
    }

    /// Records that a run acts on `day` (a later day only: written once a
    /// day, so an idle run writes nothing the rest of it).
    pub fn note_run_day(&mut self, day: NaiveDate) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO run_state (key, value) VALUES ('day', ?1)
                 ON CONFLICT (key) DO UPDATE SET value = ?1 WHERE value < ?1",
            )?
            .execute(params![day_text(day)])?;
        Ok(())
    }

    /// The last day the clerk acted on: the latest postmark of a letter, day
    /// of a message made, or duty done. `None` for a new database.
    pub fn last_day(&self) -> Result<Option<NaiveDate>> {
        let last: Option<String> = self.conn.query_row(
            "SELECT max(day) FROM (
                SELECT max(postmark) AS day FROM letters
                UNION ALL SELECT max(created_on) FROM outbox
                UNION ALL SELECT max(done_on) FROM duties_done)",
            [],
            |r| r.get(0),
        )?;
        Ok(last.and_then(|day| day.get(..10)?.parse().ok()))
    }

    /// Every message sent or waiting, oldest first, with whether it was sent.
    pub fn outbox(&self) -> Result<Vec<SentMessage>> {
        let mut statement = self.conn.prepare_cached(
            "SELECT kind, recipients, raw, sent_at IS NOT NULL
             FROM outbox o JOIN outbox_raw r ON r.id = o.id ORDER BY o.id",
        )?;
        Ok(statement
            .query_map([], |r| {
                Ok(SentMessage {
                    kind: r.get(0)?,
                    recipients: r.get(1)?,
                    raw: r.get(2)?,
                    sent: r.get(3)?,
                })
            })?
            .collect::<Sql<_>>()?)
    }
}

/// Where `run_state` keeps the report mark of `tournament`.
fn report_key(tournament: Option<&str>) -> String {
    match tournament {
        None => "report".into(),
        Some(tournament) => format!("report:{}", GameKey::new(Some(tournament), "")),
    }
}

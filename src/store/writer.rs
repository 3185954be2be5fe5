//! Writes inside one transaction: a letter, a game's state and new moves,
//! notes, duties done, and messages put into the outbox.

use std::cell::RefCell;

use chrono::NaiveDate;
use rusqlite::{Connection, params};

use crate::color_name;
use crate::key::GameKey;
use crate::record::Seat;
use crate::rules::{DutyKey, Row};

use super::sent_log::Sent;
use super::{
    Cache, GameRow, NewOutbox, Note, OutboxItem, Result, StoredLetter, day_text, first_recipient,
    to_sql_err,
};

/// Writes inside one transaction.
pub struct Writer<'a> {
    pub(super) tx: &'a Connection,
    pub(super) cache: &'a RefCell<Cache>,
    /// The tournament whose games are written (see [`Store::write`]).
    pub(super) tournament: Option<&'a str>,
}

impl Writer<'_> {
    /// A game's key in the database.
    fn scoped(&self, game: &str) -> String {
        GameKey::new(self.tournament, game).to_string()
    }

    /// Stores a letter; returns its id.
    pub fn letter(&self, letter: &StoredLetter) -> Result<i64> {
        let game = letter.game.as_deref().map(|game| self.scoped(game));
        self.tx.prepare_cached(
            "INSERT INTO letters (dedup_key, message_id, source_key, arrived, postmark, sender, game_id, color,
                                  disposition, reason, parse, raw, fingerprint)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        )?
        .execute(
            params![
                letter.dedup_key,
                letter.message_id,
                letter.source_key,
                letter.arrived.to_rfc3339(),
                day_text(letter.postmark),
                letter.sender,
                game,
                letter.color.map(color_name),
                letter.disposition.as_str(),
                letter.reason,
                letter.parse_json,
                letter.raw,
                letter.fingerprint,
            ],
        )?;
        Ok(self.tx.last_insert_rowid())
    }

    /// Writes a game's state and its moves from ply `from` on, which the
    /// database does not hold yet (moves are only ever added): a ply it
    /// holds fails the write. A plain insert also needs no statement journal,
    /// where `INSERT OR REPLACE` (or an upsert) copied every page it touched
    /// into one first (2.4 % of a large run's main thread).
    pub fn game(
        &self,
        id: &str,
        row: &GameRow,
        moves: &[Row],
        from: usize,
        letter: Option<i64>,
        today: NaiveDate,
    ) -> Result<()> {
        let id = self.scoped(id);
        let id = id.as_str();
        let settled = {
            let cache = self.cache.borrow();
            cache.settled.contains(id) && cache.games.get(id).is_some_and(|g| g.row == *row)
        };
        if !settled {
            self.game_row(id, row, today)?;
        }
        let mut insert = self.tx.prepare_cached(
            "INSERT INTO moves (game_id, ply, color, san, conditional, letter_id, sent_on, delivered_on,
                                days, penalty, facts)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        )?;
        for (ply, move_row) in moves.iter().enumerate().skip(from) {
            let facts = move_row
                .letter
                .as_ref()
                .map(serde_json::to_string)
                .transpose()
                .map_err(to_sql_err)?;
            insert.execute(params![
                id,
                ply as i64,
                color_name(move_row.by),
                move_row.san,
                move_row.conditional,
                letter,
                day_text(move_row.sent_on),
                move_row.delivered_on.map(day_text),
                move_row.days,
                move_row.penalty,
                facts,
            ])?;
        }
        // The cache holds what the database now holds: rows before `from`
        // were not rewritten.
        let mut cache = self.cache.borrow_mut();
        if let Some(cached) = cache.games.get_mut(id) {
            cached.row = row.clone();
            cached.moves.truncate(from);
            cached.moves.extend(moves.iter().skip(from).cloned());
            cache.settled.insert(id.to_string());
        }
        Ok(())
    }

    /// Takes back a game's moves from ply `from` on (`UNDO`).
    pub fn take_back(&self, id: &str, from: usize) -> Result<()> {
        let id = self.scoped(id);
        self.tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            params![id, from as i64],
        )?;
        let mut cache = self.cache.borrow_mut();
        if let Some(cached) = cache.games.get_mut(&id) {
            cached.moves.truncate(from);
        }
        Ok(())
    }

    /// Writes a game's row and clears its `next_check` (the game changed:
    /// the calendar must look at it again); a game finished `today` is
    /// noted as ended then, one finished before keeps its day.
    fn game_row(&self, id: &str, row: &GameRow, today: NaiveDate) -> Result<()> {
        let held = serde_json::to_string(&row.held).map_err(to_sql_err)?;
        let excused = serde_json::to_string(&row.standing.excused).map_err(to_sql_err)?;
        let standing = &row.standing;
        self.tx.prepare_cached(
            "INSERT INTO games (id, status, result, result_reason, offender, notice_on, protest_received,
                                extra_white, extra_black, held, draw_offer, held_reply,
                                overstep_ply, credit_white, credit_black, resumed_on, excused, result_by,
                                ended_on)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18,
                     CASE WHEN ?2 = 'finished' THEN ?19 END)
             ON CONFLICT (id) DO UPDATE SET status = ?2, result = ?3, result_reason = ?4, offender = ?5,
                 notice_on = ?6, protest_received = ?7, extra_white = ?8, extra_black = ?9, held = ?10,
                 draw_offer = ?11, held_reply = ?12, overstep_ply = ?13, credit_white = ?14,
                 credit_black = ?15, resumed_on = ?16, excused = ?17, result_by = ?18,
                 ended_on = CASE WHEN ?2 = 'finished' THEN COALESCE(games.ended_on, ?19) END,
                 next_check = NULL",
        )?
        .execute(
            params![
                id,
                standing.status.name(),
                standing.result_pgn(),
                standing.outcome.map(|o| o.reason.code()),
                standing.suspension.map(|s| color_name(s.offender)),
                standing.suspension.map(|s| day_text(s.notice_on)),
                standing.suspension.is_some_and(|s| s.protest_received),
                standing.extra_penalty.white,
                standing.extra_penalty.black,
                held,
                standing.draw_offer.map(color_name),
                standing.held_reply.map(|ply| ply as i64),
                standing.suspension.and_then(|s| s.ply).map(|ply| ply as i64),
                standing.credit.white,
                standing.credit.black,
                standing.resumed_on.map(day_text),
                excused,
                standing.awarded_by.map(|by| by.code()),
                day_text(today),
            ],
        )?;
        Ok(())
    }

    /// The day the calendar must look at `game` again (see [`Store::next_checks`]).
    pub fn next_check(&self, game: &str, on: NaiveDate) -> Result<()> {
        let game = self.scoped(game);
        let game = game.as_str();
        self.cache.borrow_mut().settled.remove(game);
        self.tx
            .prepare_cached("UPDATE games SET next_check = ?2 WHERE id = ?1")?
            .execute(params![game, day_text(on)])?;
        Ok(())
    }

    /// A message recorded as sent (see [`Store::mark_sent`]); a second time
    /// changes nothing.
    pub(super) fn sent(&self, sent: &Sent) -> Result<()> {
        let changed = self
            .tx
            .prepare_cached(
                "UPDATE outbox SET sent_at = ?2, receipt = ?3, accepted_on = ?4,
                 attempts = attempts + 1
                 WHERE id = ?1 AND sent_at IS NULL",
            )?
            .execute(params![
                sent.id,
                sent.at,
                sent.receipt,
                day_text(sent.today)
            ])?;
        if changed == 0 {
            return Ok(());
        }
        // A login's letter carries a password: once it is sent, the
        // outbox keeps no copy of it (the hash is the login's record).
        self.tx
            .prepare_cached(
                "UPDATE outbox_raw SET raw = X'' WHERE id = ?1
                 AND (SELECT kind FROM outbox WHERE id = ?1) = ?2",
            )?
            .execute(params![
                sent.id,
                crate::message::MessageKind::XfccLogin.header()
            ])?;
        // The messages a digest holds go with it: sent when it is, the moves
        // they bring delivered on its day.
        let holds: bool = self
            .tx
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM outbox WHERE in_digest = ?1)")?
            .query_row([sent.id], |r| r.get(0))?;
        if holds {
            // Their games are read again from the database.
            let games = self
                .tx
                .prepare_cached(
                    "SELECT DISTINCT delivers_game FROM outbox WHERE in_digest = ?1
                     AND delivers_game IS NOT NULL",
                )?
                .query_map([sent.id], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut cache = self.cache.borrow_mut();
            for game in games {
                cache.games.remove(&game);
            }
            drop(cache);
            self.tx
                .prepare_cached(
                    "UPDATE moves SET delivered_on = ?2 WHERE delivered_on IS NULL AND (game_id, ply) IN
                         (SELECT delivers_game, delivers_ply FROM outbox WHERE in_digest = ?1)",
                )?
                .execute(params![sent.id, day_text(sent.today)])?;
            self.tx
                .prepare_cached(
                    "UPDATE games SET next_check = NULL
                     WHERE id IN (SELECT delivers_game FROM outbox WHERE in_digest = ?1)",
                )?
                .execute(params![sent.id])?;
            self.tx
                .prepare_cached(
                    "UPDATE outbox SET sent_at = ?2, accepted_on = ?3, receipt = 'in its digest'
                     WHERE in_digest = ?1 AND sent_at IS NULL",
                )?
                .execute(params![sent.id, sent.at, day_text(sent.today)])?;
        }
        if let Some((game, ply)) = &sent.delivers {
            self.tx
                .prepare_cached(
                    "UPDATE moves SET delivered_on = ?3 WHERE game_id = ?1 AND ply = ?2 AND delivered_on IS NULL",
                )?
                .execute(params![game, *ply as i64, day_text(sent.today)])?;
            // The partner's clock starts: the calendar must look again.
            self.tx
                .prepare_cached("UPDATE games SET next_check = NULL WHERE id = ?1")?
                .execute(params![game])?;
        }
        Ok(())
    }

    /// Records a player's leave, first and last day.
    /// A player replaced on `day`: his seat's leaves from that day on were
    /// the leaver's. They are kept under the leaver's key in the record
    /// (`ID~day`, as his seats are), and one running into that day ends the
    /// day before, so that no leave of his stops his successor's clock.
    pub fn leaves_left(&self, player: &str, day: NaiveDate) -> Result<()> {
        let seat = self.scoped(player);
        let leaver = self.scoped(&format!("{player}~{day}"));
        let before = day.pred_opt().unwrap_or(day);
        self.tx
            .prepare_cached("UPDATE leaves SET player = ?2 WHERE player = ?1 AND first >= ?3")?
            .execute(params![seat, leaver, day_text(day)])?;
        self.tx
            .prepare_cached(
                "INSERT INTO leaves (player, first, last, letter_id, created_on)
                 SELECT ?2, ?3, last, letter_id, created_on FROM leaves
                 WHERE player = ?1 AND first < ?3 AND last >= ?3",
            )?
            .execute(params![seat, leaver, day_text(day)])?;
        self.tx
            .prepare_cached("UPDATE leaves SET last = ?2 WHERE player = ?1 AND last >= ?3")?
            .execute(params![seat, day_text(before), day_text(day)])?;
        Ok(())
    }

    pub fn leave(
        &self,
        player: &str,
        (first, last): (NaiveDate, NaiveDate),
        letter: Option<i64>,
        today: NaiveDate,
    ) -> Result<()> {
        self.tx
            .prepare_cached(
                "INSERT INTO leaves (player, first, last, letter_id, created_on)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                self.scoped(player),
                day_text(first),
                day_text(last),
                letter,
                day_text(today)
            ])?;
        Ok(())
    }

    /// An edit of a tournament's file, to be written once this transaction
    /// is committed ([`Store::pending_edits`]).
    pub fn config_edit(
        &self,
        edit: &crate::config::edit::ConfigEdit,
        today: NaiveDate,
    ) -> Result<()> {
        let edit = serde_json::to_string(edit).unwrap_or_default();
        self.tx
            .prepare_cached("INSERT INTO config_edits (edit, created_on) VALUES (?1, ?2)")?
            .execute(params![edit, day_text(today)])?;
        Ok(())
    }

    /// A letter set aside, marked to go back into the mail source at the
    /// next run's start ([`Store::releasing`]); false if none is set aside
    /// under `key`.
    pub fn mark_releasing(&self, key: &str) -> Result<bool> {
        let marked = self
            .tx
            .prepare_cached(
                "UPDATE letters SET disposition = 'releasing'
                 WHERE dedup_key = ?1 AND disposition = 'quarantined'",
            )?
            .execute([key])?;
        Ok(marked > 0)
    }

    pub fn note(&self, game: &str, note: &Note) -> Result<()> {
        let game = self.scoped(game);
        self.tx.prepare_cached(
            "INSERT INTO notes (game_id, ply, kind, text, created_on, other_language, other_text)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(
            params![
                game,
                note.ply.map(|p| p as i64),
                note.kind.name(),
                note.text,
                day_text(note.created_on),
                note.other.as_ref().map(|(lang, _)| lang.pick("ru", "en")),
                note.other.as_ref().map(|(_, text)| text),
            ],
        )?;
        Ok(())
    }

    /// Records who played a colour of `game` before his replacement.
    pub fn seat(&self, game: &str, seat: &Seat, on: NaiveDate) -> Result<()> {
        let game = self.scoped(game);
        let game = game.as_str();
        self.tx
            .prepare_cached(
                "INSERT INTO seats (game_id, color, until_ply, finished, player, name, email,
                                    created_on)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            )?
            .execute(params![
                game,
                color_name(seat.color),
                seat.until_ply as i64,
                seat.finished,
                seat.player,
                seat.name,
                seat.email,
                day_text(on)
            ])?;
        if let Some(cached) = self.cache.borrow_mut().games.get_mut(game) {
            cached.seats.push(seat.clone());
        }
        Ok(())
    }

    pub fn duty_done(&self, game: &str, key: &DutyKey, on: NaiveDate) -> Result<()> {
        let game = self.scoped(game);
        let game = game.as_str();
        self.tx
            .prepare_cached(
                "INSERT OR IGNORE INTO duties_done (game_id, key, done_on) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![game, key.text(), day_text(on)])?;
        if let Some(cached) = self.cache.borrow_mut().games.get_mut(game) {
            cached.done.insert(key.clone());
        }
        Ok(())
    }

    /// The messages `held` go in the digest `digest` (an outbox id).
    pub fn bundle(&self, digest: i64, held: &[i64]) -> Result<()> {
        let mut statement = self.tx.prepare_cached(
            "UPDATE outbox SET in_digest = ?1 WHERE id = ?2 AND in_digest IS NULL",
        )?;
        for id in held {
            statement.execute(params![digest, id])?;
        }
        Ok(())
    }

    pub fn outbox(&self, message: &NewOutbox, created_on: NaiveDate) -> Result<i64> {
        let recipients = message.recipients.join(",");
        let game = message.game.as_deref().map(|game| self.scoped(game));
        self.tx.prepare_cached(
            "INSERT INTO outbox (game_id, kind, recipients, message_id, delivers_game, delivers_ply, created_on,
                                 send_on, digest_for)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(
            params![
                game,
                message.kind,
                recipients,
                message.message_id,
                message.delivers.and(game.as_deref()),
                message.delivers.map(|p| p as i64),
                day_text(created_on),
                message.send_on.map(day_text),
                message.digest_for,
            ],
        )?;
        let id = self.tx.last_insert_rowid();
        self.tx
            .prepare_cached("INSERT INTO outbox_raw (id, raw) VALUES (?1, ?2)")?
            .execute(params![id, message.raw])?;
        let mut cache = self.cache.borrow_mut();
        let counted_on = message.send_on.unwrap_or(created_on);
        if let Some(replies) = cache.replies.get_mut(&counted_on) {
            replies
                .entry(first_recipient(&recipients).to_string())
                .or_default()
                .push(message.kind.clone());
        }
        if message.send_on.is_some() || message.digest_for.is_some() {
            // Not for this run's sending: `pending` reads it on its day; a
            // digest's goes with its digest.
            return Ok(id);
        }
        cache.written.push(OutboxItem {
            id,
            game: game.clone(),
            kind: message.kind.clone(),
            recipients: message.recipients.clone(),
            message_id: message.message_id.clone(),
            raw: message.raw.clone(),
            delivers: message
                .delivers
                .zip(game.clone())
                .map(|(ply, game)| (game, ply)),
            attempts: 0,
        });
        Ok(id)
    }
}

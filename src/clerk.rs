//! The clerk at work: each new letter is identified, read, resolved on its game,
//! judged by the rules, and turned into a [`Plan`]: the letter as stored, the
//! game's new state, notes, and the messages it causes. The plan is written in
//! one transaction; the messages go out after the commit.
//!
//! Planning reads the store but never writes it, so `shtempel check` shows
//! exactly what a `poll` would do.

use std::collections::BTreeSet;

use crate::model;
use crate::render::{Model, merged};
use chrono::{DateTime, Datelike, NaiveDate, Utc};
use serde::Serialize;
use sha2::{Digest, Sha256};
use shakmaty::{ByColor, Color};

use crate::chart::{self, Chart};
use crate::config::{Config, GameConfig, Player};
use crate::game::{Game, Replays, ply_label};
use crate::letter::{self, Decision, Keyword, Letter, ReadErrorKind};
use crate::mail::Envelope;
use crate::mail::compose::{Attachment, Outgoing, Recipient};
use crate::mail::mime::{self, Mail};
use crate::render::Templates;
use crate::rules::{
    self, Calendar, Correction, DateItem, DutyKey, Incoming, Item, Ledger, Omission, Overstep,
    Status, Suspension,
};
use crate::store::{Disposition, GameRow, Note, Store, StoredLetter};
use crate::{Lang, color_name};

/// What is read from a letter before the tournament's state is looked at:
/// its MIME front (of the headers only, when it is over `max_letter_bytes`),
/// its key, and its text as read. Pure, so a run prepares the next letters on
/// a second thread while the first plans, writes and sends.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub oversized: bool,
    pub mail: Option<Mail>,
    pub key: String,
    pub read: Option<Letter>,
    /// `read` as stored with the letter: written here, on the reading
    /// thread (it was a fiftieth of the main thread's time).
    pub read_json: Option<String>,
}

impl Prepared {
    pub fn new(config: &Config, envelope: &Envelope) -> Prepared {
        let raw = &envelope.raw;
        let oversized = raw.len() > config.limits.max_letter_bytes;
        // An oversized letter is read for its headers only.
        let readable = if oversized {
            let head_end = raw
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .map(|at| at + 4)
                .or_else(|| raw.windows(2).position(|w| w == b"\n\n").map(|at| at + 2));
            &raw[..head_end.unwrap_or(0).min(64 * 1024)]
        } else {
            &raw[..]
        };
        let mail = mime::parse(readable, &config.address);
        let key = dedup_key(mail.as_ref(), raw);
        let reading = config.date_reading(Some(rules::postmark_date(
            &envelope.arrived,
            config.timezone,
        )));
        let read = mail
            .as_ref()
            .filter(|m| !oversized && m.automatic.is_none())
            .map(|m| letter::read_with(&m.text, reading));
        let read_json = read.as_ref().and_then(|r| serde_json::to_string(r).ok());
        Prepared {
            oversized,
            mail,
            key,
            read,
            read_json,
        }
    }
}

/// The day a run acts on, and the moment it stamps on what it sends.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub today: NaiveDate,
    pub now: DateTime<Utc>,
}

/// Something the clerk did, for the log, `poll --json` and the demo.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    pub event: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub detail: String,
}

/// One game loaded with everything the rules and the board need.
#[derive(Clone, Debug)]
pub struct GameState {
    pub config: GameConfig,
    pub white: Player,
    pub black: Player,
    pub game: Game,
    pub ledger: Ledger,
    pub row: GameRow,
    pub done: BTreeSet<DutyKey>,
    /// Moves already in the database.
    pub stored: usize,
}

impl GameState {
    pub fn load(config: &Config, store: &Store, game: &GameConfig) -> Result<GameState, String> {
        GameState::load_replaying(config, store, game, &Replays::default())
    }

    /// Loads a game, its record rebuilt past what `replays` knows of it.
    pub fn load_replaying(
        config: &Config,
        store: &Store,
        game: &GameConfig,
        replays: &Replays,
    ) -> Result<GameState, String> {
        let stored = store
            .load_game(&game.id)
            .map_err(|e| format!("game {}: {e}", game.id))?;
        let white = config
            .player(&game.white)
            .cloned()
            .ok_or("unknown white player")?;
        let black = config
            .player(&game.black)
            .cloned()
            .ok_or("unknown black player")?;
        let calendar = Calendar::new(
            config.start_date,
            config.end_date,
            ByColor {
                white: white.start_sheet_received,
                black: black.start_sheet_received,
            },
        );
        let sans: Vec<&str> = stored.moves.iter().map(|row| row.san.as_str()).collect();
        let board = replays
            .game(&game.id, &sans, stored.row.held.clone())
            .map_err(|e| format!("game {}: stored moves: {e}", game.id))?;
        let mut ledger = Ledger::new(calendar);
        ledger.rows = stored.moves;
        ledger.status = stored.row.status;
        ledger.suspension = stored.row.suspension;
        ledger.extra_penalty = stored.row.extra_penalty;
        ledger.credit = stored.row.credit;
        ledger.resumed_on = stored.row.resumed_on;
        Ok(GameState {
            config: game.clone(),
            white,
            black,
            game: board,
            stored: ledger.rows.len(),
            ledger,
            row: stored.row,
            done: stored.done,
        })
    }

    pub fn id(&self) -> &str {
        &self.config.id
    }

    pub fn player(&self, color: Color) -> &Player {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn color_of(&self, email: &str) -> Option<Color> {
        if self.white.email == email {
            Some(Color::White)
        } else if self.black.email == email {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The row to store: board and ledger state folded back in.
    pub fn stored_row(&self) -> GameRow {
        GameRow {
            status: self.ledger.status,
            suspension: self.ledger.suspension,
            extra_penalty: self.ledger.extra_penalty,
            credit: self.ledger.credit,
            resumed_on: self.ledger.resumed_on,
            held: self.game.held().to_vec(),
            ..self.row.clone()
        }
    }

    pub fn chart(&self, config: &Config, notes: Vec<String>) -> Chart {
        Chart {
            game: self.id().to_string(),
            white: self.white.name.clone(),
            black: self.black.name.clone(),
            status: self.ledger.status,
            result: self.row.result.clone(),
            totals: self.ledger.totals(),
            rows: chart::rows(&self.ledger, &config.rules),
            notes,
        }
    }

    /// The chart with the notes the store holds for the game.
    pub fn stored_chart(&self, config: &Config, store: &Store) -> Result<Chart, String> {
        let notes = store
            .notes(self.id())
            .map_err(|e| format!("database: {e}"))?
            .into_iter()
            .map(|n| n.text)
            .collect();
        Ok(self.chart(config, notes))
    }

    /// The Seven Tag Roster and the time control.
    pub fn pgn_tags(&self, config: &Config) -> Vec<(&'static str, String)> {
        vec![
            ("Event", config.tournament_name.clone()),
            ("Site", format!("{} (e-mail)", config.tournament_id)),
            ("Date", config.start_date.format("%Y.%m.%d").to_string()),
            ("Round", self.id().to_string()),
            ("White", self.white.name.clone()),
            ("Black", self.black.name.clone()),
            (
                "Result",
                self.row.result.clone().unwrap_or_else(|| "*".into()),
            ),
            (
                "TimeControl",
                format!(
                    "{} days / {} moves",
                    config.rules.days_per_control, config.rules.moves_per_control
                ),
            ),
        ]
    }

    /// The game as PGN with `comments` (one per move, or none) and `result`.
    pub fn pgn_with(&self, config: &Config, comments: &[Option<String>], result: &str) -> String {
        self.game.pgn(&self.pgn_tags(config), comments, result)
    }

    /// The game as PGN: each move's dates, days and penalty in a comment, and
    /// the result. What `pgn`, the report and the arbiter's file carry.
    pub fn pgn(&self, config: &Config) -> String {
        let lang = config.language;
        let comments: Vec<Option<String>> = self
            .ledger
            .rows
            .iter()
            .map(|row| {
                let delivered = row.delivered_on.map_or("-".to_string(), |d| d.to_string());
                let penalty = if row.penalty > 0 {
                    format!(", {} {}", lang.pick("штраф", "penalty"), row.penalty)
                } else {
                    String::new()
                };
                Some(format!(
                    "{} {}, {} {delivered}, {} {}{penalty}",
                    lang.pick("отправлен", "sent"),
                    row.sent_on,
                    lang.pick("получен", "received"),
                    row.days,
                    lang.pick("дн.", "days"),
                ))
            })
            .collect();
        let result = self.row.result.clone().unwrap_or_else(|| "*".into());
        self.pgn_with(config, &comments, &result)
    }

    /// Finishes the game with `result` ("1-0", "0-1", "1/2-1/2").
    pub fn finish(&mut self, result: &str, reason: &str) {
        self.ledger.status = Status::Finished;
        self.ledger.suspension = None;
        self.row.result = Some(result.to_string());
        self.row.result_reason = Some(reason.to_string());
        self.row.draw_offer = None;
    }
}

/// What one letter (or one day's duty) changes, before it is written.
#[derive(Debug, Default)]
pub struct Plan {
    pub letter: Option<StoredLetter>,
    pub game: Option<GameState>,
    pub notes: Vec<Note>,
    pub messages: Vec<Outgoing>,
    pub duties: Vec<DutyKey>,
    pub events: Vec<Event>,
}

/// Formats a date the way the tournament's language writes it.
pub fn fmt_date(date: NaiveDate, lang: Lang) -> String {
    // Written out by hand: chrono's `format` reads its pattern again at
    // each call, and a letter's messages write a dozen dates.
    let (year, month, day) = (date.year(), date.month(), date.day());
    if !(0..=9999).contains(&year) {
        return date.format(lang.pick("%d.%m.%Y", "%Y-%m-%d")).to_string();
    }
    match lang {
        Lang::Ru => format!("{day:02}.{month:02}.{year:04}"),
        Lang::En => format!("{year:04}-{month:02}-{day:02}"),
    }
}

fn fmt_opt(date: Option<NaiveDate>, lang: Lang) -> Option<String> {
    date.map(|d| fmt_date(d, lang))
}

fn recipient(player: &Player) -> Recipient {
    Recipient {
        name: player.name.clone(),
        email: player.email.clone(),
    }
}

/// The key under which a message is never stored twice: Message-ID, else a hash.
pub fn dedup_key(mail: Option<&Mail>, raw: &[u8]) -> String {
    match mail.and_then(|m| m.message_id.as_deref()) {
        Some(id) => format!("mid:{id}"),
        None => format!("sha256:{:x}", Sha256::digest(raw)),
    }
}

fn item_name(item: Item) -> &'static str {
    match item {
        Item::Date(DateItem::PartnerPostmark) => "postmark",
        Item::Date(DateItem::Received) => "received",
        Item::Date(DateItem::Sent) => "sent",
        Item::Fraction => "fraction",
        Item::Previous(DateItem::PartnerPostmark) => "previous_postmark",
        Item::Previous(DateItem::Received) => "previous_received",
        Item::Previous(DateItem::Sent) => "previous_sent",
    }
}

/// Moves as a player reads them: `2. Nf3`, `2... Nc6`, with conditional ones marked.
pub fn label_moves(first_ply: usize, sans: &[(String, bool)]) -> String {
    let mut out = Vec::new();
    for (index, (san, conditional)) in sans.iter().enumerate() {
        let ply = first_ply + index;
        let label = ply_label(ply);
        let mark = if *conditional { " (*)" } else { "" };
        out.push(format!("{label} {san}{mark}"));
    }
    out.join(" ")
}

/// Lines that tell a player what to write next (the "lines to write").
pub fn next_lines(
    state: &GameState,
    color: Color,
    config: &Config,
    delivered_today: Option<NaiveDate>,
) -> Model {
    let lang = config.language;
    let ledger = &state.ledger;
    let answered = ledger.rows.last().filter(|row| row.by != color);
    let received = answered.and_then(|row| row.delivered_on.or(delivered_today));
    let previous = ledger.last_letter_of(color).and_then(|(_, row)| {
        let facts = row.letter.as_ref()?;
        (!facts.missing_dates.is_empty()).then(|| {
            model! {
                "postmark" => fmt_opt(facts.expected.partner_postmark, lang),
                "received" => fmt_opt(facts.expected.received, lang),
                "sent" => fmt_date(facts.expected.sent, lang),
            }
        })
    });
    let totals = ledger.totals();
    let plies = state.game.moves().len() + usize::from(ledger.to_move() != color);
    model! {
        "game" => state.id(),
        "label" => ply_label(plies),
        "color" => color_name(color),
        "first" => ledger.rows.is_empty() && color == Color::White,
        "postmark" => answered.map(|row| fmt_date(row.sent_on, lang)),
        "received" => received.map(|d| fmt_date(d, lang)),
        "totals" => totals.to_string(),
        "own_total" => totals.get(color),
        "previous" => previous,
    }
}

/// The clerk's work on letters.
pub struct Clerk<'a> {
    pub config: &'a Config,
    pub templates: &'a Templates,
    pub clock: Clock,
    /// The games' records as the run's letters left them.
    pub replays: Replays,
}

impl<'a> Clerk<'a> {
    fn lang(&self) -> Lang {
        self.config.language
    }

    fn base_model(&self, state: Option<&GameState>, to: &str) -> Model {
        model! {
            "tournament" => model! {
                "id" => self.config.tournament_id.as_str(),
                "name" => self.config.tournament_name.as_str(),
            },
            "game" => state.map(|s| model! {
                "id" => s.id(),
                "white" => s.white.name.as_str(),
                "black" => s.black.name.as_str(),
            }),
            "to" => to,
            "today" => fmt_date(self.clock.today, self.lang()),
        }
    }

    /// Renders a template into a message.
    #[allow(clippy::too_many_arguments)]
    pub fn message(
        &self,
        template: &str,
        kind: &'static str,
        state: Option<&GameState>,
        to: Vec<Recipient>,
        cc: Vec<Recipient>,
        extra: Model,
        in_reply_to: Option<String>,
    ) -> Result<Outgoing, String> {
        let base = self.base_model(state, to.first().map_or("", |r| r.name.as_str()));
        let rendered = self
            .templates
            .render(template, merged(extra, base))
            .map_err(|e| e.to_string())?;
        Ok(Outgoing {
            kind,
            game: state.map(|s| s.id().to_string()),
            to,
            cc,
            subject: rendered.subject,
            body: rendered.body,
            in_reply_to,
            registered: false,
            generated: false,
            attachments: Vec::new(),
            delivers: None,
        })
    }

    /// The arbiter's or secretary's recipient.
    fn official(&self, email: &str, ru: &str, en: &str) -> Recipient {
        Recipient {
            name: self.lang().pick(ru, en).to_string(),
            email: email.to_string(),
        }
    }

    pub fn arbiter(&self) -> Recipient {
        self.official(&self.config.chief_arbiter, "Главный судья", "Chief arbiter")
    }

    pub fn secretary(&self) -> Recipient {
        self.official(
            &self.config.chief_secretary,
            "Главный секретарь",
            "Chief secretary",
        )
    }

    /// Plans what to do with one letter. Never writes anything.
    pub fn plan(&self, store: &Store, envelope: &Envelope) -> Result<Plan, String> {
        let prepared = Prepared::new(self.config, envelope);
        self.plan_prepared(store, envelope, &prepared)
    }

    /// Plans a letter whose reading was prepared (perhaps on another thread).
    pub fn plan_prepared(
        &self,
        store: &Store,
        envelope: &Envelope,
        prepared: &Prepared,
    ) -> Result<Plan, String> {
        let mut plan = self.plan_letter(store, envelope, prepared)?;
        self.limit_replies(store, &mut plan)?;
        Ok(plan)
    }

    /// Replies that would pass `max_replies_per_day` to one address are
    /// dropped; the first one over the limit becomes a single notice.
    fn limit_replies(&self, store: &Store, plan: &mut Plan) -> Result<(), String> {
        const REPLIES: &[&str] = &[
            "ack",
            "correction",
            "warning",
            "penalty",
            "refused",
            "limit",
        ];
        let Some(sender) = plan.letter.as_ref().and_then(|l| l.sender.clone()) else {
            return Ok(());
        };
        let max = self.config.limits.max_replies_per_day;
        let mut sent = store
            .replies_on(&sender, self.clock.today, REPLIES)
            .map_err(|e| format!("database: {e}"))?;
        let mut kept = Vec::with_capacity(plan.messages.len());
        for message in std::mem::take(&mut plan.messages) {
            let reply = REPLIES.contains(&message.kind)
                && message.to.first().is_some_and(|to| to.email == sender);
            if !reply {
                kept.push(message);
                continue;
            }
            if sent < max {
                sent += 1;
                kept.push(message);
            } else if sent == max {
                sent += 1;
                let to = message.to.clone();
                let model = model! {
                    "count" => max,
                };
                let notice = self.message(
                    "limit",
                    "refused",
                    None,
                    to,
                    vec![],
                    model,
                    message.in_reply_to.clone(),
                )?;
                kept.push(notice);
                plan.events.push(Event {
                    event: "reply-limit",
                    game: message.game.clone(),
                    from: Some(sender.clone()),
                    detail: format!("{max} replies today: one notice, then silence"),
                });
            } else if message.delivers.is_some() {
                // A reply that carries a move (a conditional reply) still goes.
                kept.push(message);
            }
        }
        plan.messages = kept;
        Ok(())
    }

    /// Whether a letter proves its sender as `[security]` asks: our own
    /// server's Authentication-Results for the sender's domain, and the
    /// player's secret word where he has one.
    fn authentic(&self, mail: &Mail, player: Option<&Player>) -> Result<(), String> {
        let security = &self.config.security;
        if let Some(trusted) = &security.trusted_authserv_id {
            let method = match security.require {
                crate::config::Require::None => None,
                crate::config::Require::Dkim => Some("dkim"),
                crate::config::Require::Spf => Some("spf"),
            };
            if let Some(method) = method {
                let domain = mail
                    .from
                    .as_deref()
                    .and_then(|f| f.rsplit_once('@'))
                    .map(|(_, d)| d)
                    .unwrap_or("");
                let passed = mail
                    .auth_results
                    .iter()
                    .any(|header| auth_passes(header, trusted, method, domain));
                if !passed {
                    return Err(format!("no {method}=pass for {domain} from {trusted}"));
                }
            }
        }
        if let Some(secret) = player.and_then(|p| p.secret.as_deref()) {
            let written = letter::own_lines(&mail.text)
                .into_iter()
                .find_map(|(_, line)| secret_on(line));
            match written {
                Some(word) if constant_time_eq(word.as_bytes(), secret.as_bytes()) => {}
                Some(_) => return Err("the secret word is wrong".into()),
                None => return Err("the secret word is missing".into()),
            }
        }
        Ok(())
    }

    /// A letter that fails `authentic`: nothing changes; the registered address
    /// it claims gets a notice, nobody else.
    fn forged(
        &self,
        who: Recipient,
        why: &str,
        mut stored: StoredLetter,
        mail: &Mail,
        plan: &mut Plan,
    ) -> Result<(), String> {
        stored.disposition = Disposition::Ignored;
        stored.reason = format!("not verified: {why}");
        plan.events.push(Event {
            event: "forged",
            game: None,
            from: Some(who.email.clone()),
            detail: stored.reason.clone(),
        });
        let reason = match self.lang() {
            Lang::Ru => format!(
                "секретарь не может убедиться, что письмо отправлено вами ({why}); ничего не изменено. Если письмо ваше, проверьте настройки почты или секретное слово"
            ),
            Lang::En => format!(
                "the clerk cannot verify that this letter comes from you ({why}); nothing was changed. If you sent it, check your mail settings or your secret word"
            ),
        };
        plan.messages.push(self.refusal(
            who,
            vec![reason],
            &letter::Letter::default(),
            stored.postmark,
            Model::from(()),
            mail.message_id.clone(),
        )?);
        plan.letter = Some(stored);
        Ok(())
    }

    /// A letter over `max_letter_bytes`: kept, not read; a player gets a notice.
    fn oversized(
        &self,
        envelope: &Envelope,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), String> {
        let limit = self.config.limits.max_letter_bytes;
        stored.disposition = Disposition::Refused;
        stored.reason = format!(
            "{} bytes, over the limit of {limit}: not read",
            envelope.raw.len()
        );
        plan.events.push(Event {
            event: "too-large",
            game: None,
            from: stored.sender.clone(),
            detail: stored.reason.clone(),
        });
        let Some(player) = stored
            .sender
            .as_deref()
            .and_then(|s| self.config.player_by_email(s))
        else {
            return Ok(());
        };
        let reason = match self.lang() {
            Lang::Ru => format!(
                "письмо слишком большое ({} КБ, предел {} КБ) и не прочитано. Пришлите ход обычным текстом, без вложений",
                envelope.raw.len() / 1024,
                limit / 1024
            ),
            Lang::En => format!(
                "the letter is too large ({} KB, the limit is {} KB) and was not read. Send the move as plain text, without attachments",
                envelope.raw.len() / 1024,
                limit / 1024
            ),
        };
        plan.messages.push(self.refusal(
            recipient(player),
            vec![reason],
            &letter::Letter::default(),
            stored.postmark,
            Model::from(()),
            stored.message_id.clone(),
        )?);
        Ok(())
    }

    /// A refusal outside any game: the reasons, what was read, and (when the
    /// game could not be told) the player's games to choose from.
    fn refusal(
        &self,
        to: Recipient,
        reasons: Vec<String>,
        read: &Letter,
        postmark: NaiveDate,
        games: Model,
        in_reply_to: Option<String>,
    ) -> Result<Outgoing, String> {
        let model = model! {
            "reasons" => reasons,
            "read" => self.read_model(read, postmark, None, None, None),
            "next" => Model::from(()),
            "games" => games,
        };
        self.message(
            "refused",
            "refused",
            None,
            vec![to],
            vec![],
            model,
            in_reply_to,
        )
    }

    fn plan_letter(
        &self,
        store: &Store,
        envelope: &Envelope,
        prepared: &Prepared,
    ) -> Result<Plan, String> {
        let oversized = prepared.oversized;
        let parsed = prepared.mail.as_ref();
        let key = prepared.key.clone();
        // The source knows the postmark (rules.md 2.1): INTERNALDATE, or the
        // topmost Received: header of a Maildir letter.
        let arrived = envelope.arrived;
        let postmark = rules::postmark_date(&arrived, self.config.timezone);
        let mut stored = StoredLetter {
            dedup_key: key.clone(),
            message_id: parsed.as_ref().and_then(|m| m.message_id.clone()),
            source_key: envelope.key.clone(),
            arrived,
            postmark,
            sender: parsed.as_ref().and_then(|m| m.from.clone()),
            game: None,
            color: None,
            disposition: Disposition::Ignored,
            reason: String::new(),
            parse_json: None,
            raw: envelope.raw.clone(),
        };
        let mut plan = Plan::default();
        if store.letter_seen(&key).map_err(|e| e.to_string())? {
            plan.events.push(Event {
                event: "duplicate",
                game: None,
                from: stored.sender.clone(),
                detail: format!("{key} seen before: not applied again"),
            });
            return Ok(plan);
        }
        let Some(mail) = parsed else {
            stored.reason = "not readable as mail".into();
            plan.events.push(Event {
                event: "ignored",
                game: None,
                from: None,
                detail: stored.reason.clone(),
            });
            plan.letter = Some(stored);
            return Ok(plan);
        };
        if let Some(reason) = &mail.automatic {
            stored.reason = format!("automatic mail: {reason}");
            plan.events.push(Event {
                event: "ignored",
                game: None,
                from: mail.from.clone(),
                detail: stored.reason.clone(),
            });
            plan.letter = Some(stored);
            return Ok(plan);
        }
        if oversized {
            self.oversized(envelope, &mut stored, &mut plan)?;
            plan.letter = Some(stored);
            return Ok(plan);
        }
        let sender = mail.from.clone().unwrap_or_default();
        let claimed = if sender == self.config.chief_arbiter {
            Some((self.arbiter(), None))
        } else {
            self.config
                .player_by_email(&sender)
                .map(|p| (recipient(p), Some(p)))
        };
        if let Some((who, player)) = claimed
            && let Err(why) = self.authentic(mail, player)
        {
            self.forged(who, &why, stored, mail, &mut plan)?;
            return Ok(plan);
        }
        let read = match &prepared.read {
            Some(read) => {
                stored.parse_json = prepared.read_json.clone();
                std::borrow::Cow::Borrowed(read)
            }
            None => {
                let read = letter::read_with(&mail.text, self.config.date_reading(Some(postmark)));
                stored.parse_json = serde_json::to_string(&read).ok();
                std::borrow::Cow::Owned(read)
            }
        };
        if sender == self.config.chief_arbiter {
            plan.letter = Some(stored);
            self.plan_arbiter(store, mail, &read, &mut plan)?;
            return Ok(plan);
        }
        let Some(player) = self.config.player_by_email(&sender).cloned() else {
            stored.reason = format!("{sender} is neither a player nor the chief arbiter");
            plan.events.push(Event {
                event: "ignored",
                game: None,
                from: Some(sender),
                detail: stored.reason.clone(),
            });
            plan.letter = Some(stored);
            return Ok(plan);
        };
        if !read.rulings.is_empty() {
            stored.reason =
                format!("a ruling from {sender}, who is not the chief arbiter: nothing changed");
            plan.events.push(Event {
                event: "forged-ruling",
                game: None,
                from: Some(sender),
                detail: stored.reason.clone(),
            });
            plan.letter = Some(stored);
            return Ok(plan);
        }
        let lang = self.lang();
        let (game_config, game_note) = match self.identify(store, &player, mail, &read) {
            Identified::Found { game, note } => (game, note),
            refused => {
                let (why, reason) = match refused {
                    Identified::NotHis { named, by } => (
                        format!("names game {named}, which {sender} does not play"),
                        match lang {
                            Lang::Ru => format!("в письме указана партия {named} ({}), но вы в ней не играете; ничего не изменено", by.text(lang)),
                            Lang::En => format!("the letter names game {named} ({}), but you do not play in it; nothing was changed", by.text(lang)),
                        },
                    ),
                    Identified::NoSuch { named, by } => (
                        format!("names game {named}, which the tournament does not have"),
                        match lang {
                            Lang::Ru => format!("в письме указана партия {named} ({}), но такой партии в турнире нет; ничего не изменено", by.text(lang)),
                            Lang::En => format!("the letter names game {named} ({}), but the tournament has no such game; nothing was changed", by.text(lang)),
                        },
                    ),
                    _ => (
                        "the game could not be identified".to_string(),
                        lang.pick(
                            "не удалось понять, к какой партии относится письмо. Укажите строку «Партия: N» или отвечайте на письмо судьи-секретаря по этой партии",
                            "the clerk could not tell which game this letter is for. Write a line \"Game: N\", or reply to the clerk's last message of that game",
                        ).to_string(),
                    ),
                };
                stored.disposition = Disposition::Refused;
                stored.reason = why;
                let games: Vec<String> = self
                    .config
                    .games_of(&player.id)
                    .iter()
                    .map(|g| g.id.clone())
                    .collect();
                let message = self.refusal(
                    recipient(&player),
                    vec![reason],
                    &read,
                    postmark,
                    Model::from(games),
                    mail.message_id.clone(),
                )?;
                plan.messages.push(message);
                plan.events.push(Event {
                    event: "refused",
                    game: None,
                    from: Some(sender),
                    detail: stored.reason.clone(),
                });
                plan.letter = Some(stored);
                return Ok(plan);
            }
        };
        let mut state = GameState::load_replaying(self.config, store, &game_config, &self.replays)?;
        let color = state
            .color_of(&player.email)
            .ok_or("player not in the game")?;
        stored.game = Some(state.id().to_string());
        stored.color = Some(color);
        let context = LetterContext {
            mail,
            read: &read,
            color,
            postmark,
            raw: &envelope.raw,
            game_note,
        };
        self.plan_player(store, &mut state, &context, &mut stored, &mut plan)?;
        plan.letter = Some(stored);
        plan.game = Some(state);
        Ok(plan)
    }

    /// Finds the game of a player's letter (contract.md 3). A game named in
    /// the letter decides: a `Game:` line first, then the subject's tag, then
    /// a subject like `Re: Партия 3`; a named game the sender does not play,
    /// or that does not exist, is refused, never taken for another. Without a
    /// name, the thread decides, then the only game he plays. Where the named
    /// game is not the thread's, the note says so.
    fn identify(&self, store: &Store, player: &Player, mail: &Mail, read: &Letter) -> Identified {
        let mine = self.config.games_of(&player.id);
        let find = |id: &str| {
            mine.iter()
                .find(|g| g.id.eq_ignore_ascii_case(id))
                .map(|g| (*g).clone())
        };
        let thread = mail
            .in_reply_to
            .iter()
            .chain(mail.references.iter().rev())
            .find_map(|id| {
                [id.clone(), format!("<{id}>")]
                    .iter()
                    .find_map(|candidate| store.game_of_message(candidate).ok().flatten())
            });
        let tag = format!("[{} #", self.config.tournament_id);
        let tagged = mail.subject.find(&tag).and_then(|start| {
            let rest = &mail.subject[start + tag.len()..];
            rest.split(']').next().map(|id| id.trim().to_string())
        });
        let named = [
            (NamedBy::Line, read.game.clone()),
            (NamedBy::Tag, tagged),
            (
                NamedBy::Subject,
                letter::subject_game(&mail.subject, |id| self.config.game(id).is_some()),
            ),
        ]
        .into_iter()
        .find_map(|(by, id)| id.map(|id| (by, id)));
        if let Some((by, named)) = named {
            let Some(game) = find(&named) else {
                return match self.config.game(&named) {
                    Some(game) => Identified::NotHis {
                        named: game.id.clone(),
                        by,
                    },
                    None => Identified::NoSuch { named, by },
                };
            };
            // The tag of a reply is its thread's: a line naming another game
            // overrules both, and says so.
            let other = thread
                .clone()
                .into_iter()
                .chain(
                    (by == NamedBy::Line)
                        .then(|| {
                            let tagged = mail.subject.find(&tag)?;
                            let rest = &mail.subject[tagged + tag.len()..];
                            rest.split(']').next().map(|id| id.trim().to_string())
                        })
                        .flatten(),
                )
                .find(|other| !other.eq_ignore_ascii_case(&game.id));
            let note = other.map(|other| GameNote { by, other });
            return Identified::Found { game, note };
        }
        if let Some(game) = thread.as_deref().and_then(find) {
            return Identified::Found { game, note: None };
        }
        if let [only] = mine.as_slice() {
            return Identified::Found {
                game: (*only).clone(),
                note: None,
            };
        }
        Identified::Unknown
    }

    /// What the clerk read in a letter, for the reply. `verdict`, where the
    /// letter was judged, says how dates without labels were taken and what
    /// fraction it should have stated.
    fn read_model(
        &self,
        read: &Letter,
        postmark: NaiveDate,
        moves: Option<String>,
        verdict: Option<&rules::Verdict>,
        game_note: Option<&GameNote>,
    ) -> Model {
        let lang = self.lang();
        let stated = read.stated(postmark);
        let written: Vec<String> = read.moves.iter().map(|m| m.written.clone()).collect();
        let placement = verdict.and_then(|v| v.placement.as_ref());
        let placed: Vec<Model> = placement
            .into_iter()
            .flat_map(|p| &p.placed)
            .filter(|(item, _)| matches!(item, Item::Date(_)))
            .map(|(item, date)| {
                model! {
                    "item" => item_name(*item),
                    "date" => fmt_date(*date, lang),
                }
            })
            .collect();
        let unplaced: Vec<String> = stated
            .dates
            .unplaced
            .iter()
            .map(|date| fmt_date(*date, lang))
            .collect();
        let fraction = verdict.map(|v| v.fraction);
        model! {
            "moves" => moves,
            "written" => written.join(" "),
            "fraction" => read.fraction.map(|f| f.to_string()),
            "postmark" => fmt_opt(stated.dates.postmark, lang),
            "received" => fmt_opt(stated.dates.received, lang),
            "sent" => fmt_opt(stated.dates.sent, lang),
            "placed" => placed,
            "placed_certain" => placement.is_none_or(|p| p.certain),
            "unplaced" => unplaced,
            "game_note" => game_note.map(|note| model! {
                "by" => note.by.code(),
                "other" => note.other.as_str(),
            }),
            "errors" => read.errors.iter().map(|e| e.explain_with(lang, fraction)).collect::<Vec<_>>(),
        }
    }
}

/// Which game a letter is for, as [`Clerk::identify`] found it.
enum Identified {
    Found {
        game: GameConfig,
        note: Option<GameNote>,
    },
    /// It names a game of the tournament its sender does not play.
    NotHis { named: String, by: NamedBy },
    /// It names a game the tournament does not have.
    NoSuch { named: String, by: NamedBy },
    /// Nothing tells.
    Unknown,
}

/// Where a letter names its game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedBy {
    /// A `Game: N` / `Партия N` line.
    Line,
    /// The subject's tag `[ID #N]`.
    Tag,
    /// A subject like `Re: Партия 3`.
    Subject,
}

impl NamedBy {
    fn code(self) -> &'static str {
        match self {
            NamedBy::Line => "line",
            NamedBy::Tag => "tag",
            NamedBy::Subject => "subject",
        }
    }

    fn text(self, lang: Lang) -> &'static str {
        match (self, lang) {
            (NamedBy::Line, Lang::Ru) => "строкой «Партия»",
            (NamedBy::Tag, Lang::Ru) => "в метке темы",
            (NamedBy::Subject, Lang::Ru) => "в теме",
            (NamedBy::Line, Lang::En) => "by a line \"Game\"",
            (NamedBy::Tag, Lang::En) => "in the subject's tag",
            (NamedBy::Subject, Lang::En) => "in the subject",
        }
    }
}

/// A named game that is not the one the letter's thread (or tag) is of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameNote {
    pub by: NamedBy,
    /// The game of the thread.
    pub other: String,
}

/// The facts of the letter being planned.
pub struct LetterContext<'m> {
    pub mail: &'m Mail,
    pub read: &'m Letter,
    pub color: Color,
    pub postmark: NaiveDate,
    pub raw: &'m [u8],
    /// Said in the reply: the game was named against its thread.
    pub game_note: Option<GameNote>,
}

impl Clerk<'_> {
    fn refuse(
        &self,
        state: &GameState,
        context: &LetterContext<'_>,
        reasons: Vec<String>,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), String> {
        stored.disposition = Disposition::Refused;
        stored.reason = reasons.join("; ");
        let player = state.player(context.color);
        let model = model! {
            "reasons" => reasons,
            "read" => self.read_model(context.read, context.postmark, None, None, context.game_note.as_ref()),
            // A finished game, or one past its end date, has no next letter to prefill.
            "next" => matches!(state.ledger.status, Status::Active | Status::Suspended) .then(|| next_lines(state, context.color, self.config, None)),
            "games" => Model::from(()),
        };
        let message = self.message(
            "refused",
            "refused",
            Some(state),
            vec![recipient(player)],
            vec![],
            model,
            context.mail.message_id.clone(),
        )?;
        plan.messages.push(message);
        plan.events.push(Event {
            event: "refused",
            game: Some(state.id().into()),
            from: Some(player.email.clone()),
            detail: stored.reason.clone(),
        });
        Ok(())
    }

    fn plan_player(
        &self,
        store: &Store,
        state: &mut GameState,
        context: &LetterContext<'_>,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), String> {
        let lang = self.lang();
        let color = context.color;
        let read = context.read;
        let keywords = &read.keywords;
        if keywords.contains(&Keyword::Resign) && state.ledger.status != Status::Finished {
            let result = if color == Color::White { "0-1" } else { "1-0" };
            return self.end_by_letter(state, context, result, "resignation", stored, plan);
        }
        if keywords.contains(&Keyword::DrawAccept) && state.ledger.status != Status::Finished {
            if state.row.draw_offer == Some(!color) {
                return self.end_by_letter(state, context, "1/2-1/2", "agreement", stored, plan);
            }
            if !read.has_moves() {
                let reason = lang.pick(
                    "ваш партнёр не предлагал ничью, принимать нечего",
                    "your partner has not offered a draw, so there is none to accept",
                );
                return self.refuse(state, context, vec![reason.into()], stored, plan);
            }
        }
        if keywords.contains(&Keyword::Protest) {
            return self.plan_protest(state, context, stored, plan);
        }
        if !read.has_moves() {
            let mut reasons: Vec<String> = read.errors.iter().map(|e| e.explain(lang)).collect();
            reasons.push(lang.pick(
                "в письме не найден ход. Напишите ход с номером, например: 12. Кf3 или 12... Кc6",
                "no move was found in the letter. Write the move with its number, e.g. 12. Nf3 or 12... Nc6",
            ).to_string());
            return self.refuse(state, context, reasons, stored, plan);
        }
        match state.ledger.status {
            Status::Finished => {
                let result = state.row.result.clone().unwrap_or_default();
                let reason = match lang {
                    Lang::Ru => format!("партия окончена ({result}), ходы больше не принимаются"),
                    Lang::En => format!("the game is over ({result}); no more moves are taken"),
                };
                return self.refuse(state, context, vec![reason], stored, plan);
            }
            Status::Adjudication => {
                let reason = lang.pick(
                    "срок игры истёк, партия передана на присуждение; отвечать не нужно, кроме согласия на ничью или признания поражения (10.3.2)",
                    "the game's end date has passed and it is with the arbiter for adjudication; no answer is needed except to accept a draw or to resign (10.3.2)",
                );
                return self.refuse(state, context, vec![reason.into()], stored, plan);
            }
            Status::Suspended => {
                let offender = state.ledger.suspension.map(|s| s.offender);
                if offender == Some(color) || state.row.held_reply.is_some() {
                    let reason = lang.pick(
                        "партия приостановлена до решения главного судьи по просрочке времени; ход не принят",
                        "the game is suspended until the chief arbiter decides on the overstep; the move is not taken",
                    );
                    return self.refuse(state, context, vec![reason.into()], stored, plan);
                }
            }
            Status::Active => {}
        }
        let move_errors: Vec<String> = read
            .errors
            .iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    ReadErrorKind::NotAMove { .. }
                        | ReadErrorKind::MoveNumber { .. }
                        | ReadErrorKind::EmptyVariant
                )
            })
            .map(|e| e.explain(lang))
            .collect();
        if !move_errors.is_empty() {
            return self.refuse(state, context, move_errors, stored, plan);
        }
        let applied = match state.game.apply(color, &read.moves, &read.variants) {
            Ok(applied) => applied,
            Err(refusal) => {
                return self.refuse(state, context, vec![refusal.explain(lang)], stored, plan);
            }
        };
        let partner = !color;
        let partner_player = state.player(partner).clone();
        let partner_direct = context
            .mail
            .recipients()
            .any(|r| *r == partner_player.email);
        let first_ply = state.game.moves().len();
        let incoming = Incoming {
            by: color,
            sent_on: context.postmark,
            stated: read.stated(context.postmark),
            plies: applied.plies.clone(),
            partner_direct,
        };
        let verdict = rules::judge(&self.config.rules, &state.ledger, &incoming);
        state.ledger.record(&verdict);
        state.game = applied.game.clone();
        stored.disposition = Disposition::Applied;
        let sans: Vec<(String, bool)> = applied
            .plies
            .iter()
            .map(|p| (p.san.clone(), p.conditional))
            .collect();
        let moves_text = label_moves(first_ply, &sans);
        stored.reason = format!("move {moves_text}");
        let own_last = first_ply
            + applied
                .plies
                .iter()
                .rposition(|p| p.by == color)
                .unwrap_or(0);

        // Draw offers: a new one stands until the partner answers; a move of
        // the partner without acceptance declines it.
        if state.row.draw_offer == Some(partner) {
            state.row.draw_offer = None;
        }
        let draw_offer = keywords.contains(&Keyword::DrawOffer);
        if draw_offer {
            state.row.draw_offer = Some(color);
        }

        let notes = self.letter_notes(&verdict, first_ply, own_last, &moves_text);
        plan.notes.extend(notes);
        plan.events.push(Event {
            event: "move",
            game: Some(state.id().into()),
            from: Some(state.player(color).email.clone()),
            detail: format!(
                "{moves_text}: {} days, totals {}",
                verdict.days, verdict.totals
            ),
        });

        if state.ledger.status == Status::Suspended {
            // The partner's reply during a suspension: held for the arbiter (2.5.3).
            state.row.held_reply = Some(own_last);
            let offender = state.ledger.suspension.map_or(partner, |s| s.offender);
            let model = model! {
                "from" => state.player(color).name.as_str(),
                "offender" => state.player(offender).name.as_str(),
                "moves" => moves_text.as_str(),
            };
            let mut supplement = self.message(
                "overstep-supplement",
                "overstep-supplement",
                Some(state),
                vec![self.arbiter()],
                vec![],
                model,
                None,
            )?;
            supplement.attachments.push(filed_letter(
                format!("letter-{}.eml", context.postmark),
                context.raw,
                state.player(color).secret.as_deref(),
            ));
            supplement
                .attachments
                .push(self.plot_attachment(&state.stored_chart(self.config, store)?)?);
            plan.messages.push(supplement);
            let ack =
                self.sender_message(state, context, &verdict, &moves_text, true, None, false)?;
            plan.messages.push(ack);
            return Ok(());
        }

        if let Some(end) = applied.end {
            state.finish(
                end.result(),
                match end {
                    crate::game::End::Checkmate { .. } => "checkmate",
                    crate::game::End::Stalemate => "stalemate",
                    crate::game::End::InsufficientMaterial => "insufficient-material",
                },
            );
            let reason = state.row.result_reason.clone().unwrap_or_default();
            self.plan_result(
                state,
                &reason,
                Some((moves_text.clone(), own_last)),
                context.mail.message_id.clone(),
                plan,
            )?;
            return Ok(());
        }

        if let Some(overstep) = verdict.overstep {
            let ack =
                self.sender_message(state, context, &verdict, &moves_text, false, None, false)?;
            plan.messages.push(ack);
            self.plan_overstep(
                store,
                state,
                overstep,
                Some((moves_text, own_last)),
                Some(context.raw),
                plan,
            )?;
            return Ok(());
        }

        let conditional = applied.conditional_reply.clone();
        let sender_message = self.sender_message(
            state,
            context,
            &verdict,
            &moves_text,
            false,
            conditional.clone(),
            partner_direct,
        )?;
        plan.messages.push(sender_message);
        if !partner_direct || conditional.is_some() {
            let own_sans: Vec<(String, bool)> = applied
                .plies
                .iter()
                .filter(|p| !p.conditional || conditional.is_none())
                .map(|p| (p.san.clone(), p.conditional))
                .collect();
            let _ = own_sans;
            let forward = self.forward(
                state,
                color,
                &verdict,
                &moves_text,
                own_last,
                &applied.offered,
                conditional.as_deref(),
                draw_offer,
                context,
            )?;
            plan.messages.push(forward);
        }
        Ok(())
    }

    /// Notes for the chart: corrections, warnings and penalties of a letter.
    fn letter_notes(
        &self,
        verdict: &rules::Verdict,
        first_ply: usize,
        own_last: usize,
        moves: &str,
    ) -> Vec<Note> {
        let lang = self.lang();
        let mut notes = Vec::new();
        for correction in &verdict.corrections {
            notes.push(Note {
                ply: Some(own_last),
                kind: "correction".into(),
                text: format!("{moves}: {}", correction_text(correction, lang)),
                created_on: self.clock.today,
            });
        }
        match &verdict.omission {
            Some(Omission::Warning { missing }) => notes.push(Note {
                ply: Some(first_ply),
                kind: "warning".into(),
                text: format!(
                    "{moves}: {} {}",
                    lang.pick("не указано:", "missing:"),
                    missing
                        .iter()
                        .map(|i| item_label(*i, lang))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                created_on: self.clock.today,
            }),
            Some(Omission::Penalty { missing, days }) => notes.push(Note {
                ply: Some(first_ply),
                kind: "penalty".into(),
                text: format!(
                    "{moves}: {} {} ({})",
                    lang.pick("штраф, дней:", "penalty days:"),
                    days,
                    missing
                        .iter()
                        .map(|i| item_label(*i, lang))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                created_on: self.clock.today,
            }),
            None => {}
        }
        notes
    }

    /// The reply to the writer of a move letter: ack, correction, warning or penalty.
    #[allow(clippy::too_many_arguments)]
    fn sender_message(
        &self,
        state: &GameState,
        context: &LetterContext<'_>,
        verdict: &rules::Verdict,
        moves_text: &str,
        held: bool,
        conditional: Option<String>,
        partner_direct: bool,
    ) -> Result<Outgoing, String> {
        let lang = self.lang();
        let color = context.color;
        let (template, kind) = match &verdict.omission {
            Some(Omission::Penalty { .. }) => ("penalty", "penalty"),
            Some(Omission::Warning { .. }) => ("warning", "warning"),
            None if !verdict.corrections.is_empty() => ("correction", "correction"),
            None => ("ack", "ack"),
        };
        let corrections: Vec<Model> = verdict
            .corrections
            .iter()
            .map(|c| correction_model(c, lang))
            .collect();
        let missing: Vec<&str> = verdict
            .omission
            .as_ref()
            .map(|o| o.missing().iter().map(|i| item_name(*i)).collect())
            .unwrap_or_default();
        // Only the letter's own dates are restated in the next one (10.3.3).
        let missing_dates = verdict
            .omission
            .as_ref()
            .is_some_and(|o| o.missing().iter().any(|item| matches!(item, Item::Date(_))));
        let partner = state.player(!color);
        let model = model! {
            "moves" => moves_text,
            "read" => self.read_model(context.read, context.postmark, Some(moves_text.to_string()), Some(verdict), context.game_note.as_ref()),
            "days" => verdict.days,
            "penalty" => verdict.penalty,
            "penalty_days" => self.config.rules.penalty_days,
            "totals" => verdict.totals.to_string(),
            "fraction" => verdict.fraction.to_string(),
            "corrections" => corrections,
            "missing" => missing,
            "missing_dates" => missing_dates,
            "partner" => partner.name.as_str(),
            "held" => held,
            "partner_direct" => partner_direct,
            "conditional" => conditional.clone(),
            "next" => next_lines(state, color, self.config, conditional.as_ref().map(|_| self.clock.today)),
        };
        let mut message = self.message(
            template,
            kind,
            Some(state),
            vec![recipient(state.player(color))],
            vec![],
            model,
            context.mail.message_id.clone(),
        )?;
        if conditional.is_some() {
            message.delivers = Some(state.ledger.rows.len() - 1);
        }
        Ok(message)
    }

    /// The move passed to the partner.
    #[allow(clippy::too_many_arguments)]
    fn forward(
        &self,
        state: &GameState,
        color: Color,
        verdict: &rules::Verdict,
        moves_text: &str,
        own_last: usize,
        offered: &[crate::game::HeldVariant],
        conditional: Option<&str>,
        draw_offer: bool,
        context: &LetterContext<'_>,
    ) -> Result<Outgoing, String> {
        let lang = self.lang();
        let partner = !color;
        let wrong_sent = verdict.corrections.iter().find_map(|c| match c {
            Correction::Date {
                item: Item::Date(DateItem::Sent),
                stated,
                actual,
                ..
            } => Some(model! {
                "stated" => fmt_date(*stated, lang),
                "actual" => fmt_date(*actual, lang),
            }),
            _ => None,
        });
        let variants: Vec<String> = offered
            .iter()
            .map(|v| {
                let sans: Vec<(String, bool)> = v.sans.iter().map(|s| (s.clone(), false)).collect();
                label_moves(v.start_ply, &sans)
            })
            .collect();
        let pending = u32::from(conditional.is_none());
        let model = model! {
            "from" => state.player(color).name.as_str(),
            "moves" => moves_text,
            "sent_on" => fmt_date(context.postmark, lang),
            "totals" => verdict.totals.to_string(),
            "left" => state.ledger.days_left(&self.config.rules, partner, pending),
            "limit" => self.config.rules.limit(state.ledger.moves_made(partner) + pending),
            "wrong_sent" => wrong_sent,
            "variants" => variants,
            "conditional" => conditional,
            "draw_offer" => draw_offer,
            "next" => if conditional.is_some() { Model::from(()) } else { next_lines(state, partner, self.config, Some(self.clock.today)) },
        };
        let mut message = self.message(
            "forward",
            "forward",
            Some(state),
            vec![recipient(state.player(partner))],
            vec![],
            model,
            context.mail.message_id.clone(),
        )?;
        if conditional.is_none() {
            message.delivers = Some(own_last);
        }
        Ok(message)
    }

    /// A letter that ends the game by words (resignation, an accepted draw).
    fn end_by_letter(
        &self,
        state: &mut GameState,
        context: &LetterContext<'_>,
        result: &str,
        reason: &str,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), String> {
        state.finish(result, reason);
        stored.disposition = Disposition::Applied;
        stored.reason = reason.to_string();
        self.plan_result(state, reason, None, context.mail.message_id.clone(), plan)
    }

    /// Results to both players and the chief secretary.
    fn plan_result(
        &self,
        state: &GameState,
        reason: &str,
        last_move: Option<(String, usize)>,
        in_reply_to: Option<String>,
        plan: &mut Plan,
    ) -> Result<(), String> {
        let result = state.row.result.clone().unwrap_or_default();
        let winner = match result.as_str() {
            "1-0" => Some(state.white.name.clone()),
            "0-1" => Some(state.black.name.clone()),
            _ => None,
        };
        let loser = match result.as_str() {
            "1-0" => Some(state.black.name.clone()),
            "0-1" => Some(state.white.name.clone()),
            _ => None,
        };
        let model = model! {
            "result" => result.as_str(),
            "reason" => reason,
            "winner" => winner,
            "loser" => loser,
            "move" => last_move.as_ref().map(|(m, _)| m.clone()),
        };
        let mut message = self.message(
            "result",
            "result",
            Some(state),
            vec![recipient(&state.white), recipient(&state.black)],
            vec![self.secretary()],
            model,
            in_reply_to,
        )?;
        message.delivers = last_move.map(|(_, ply)| ply);
        plan.messages.push(message);
        plan.events.push(Event {
            event: "result",
            game: Some(state.id().into()),
            from: None,
            detail: format!("{result} ({reason})"),
        });
        Ok(())
    }

    /// Suspends the game on an overstep and writes the notices and the file
    /// (2.5.1–2.5.2). `last_move` is the offender's move that came with it.
    pub fn plan_overstep(
        &self,
        store: &Store,
        state: &mut GameState,
        overstep: Overstep,
        last_move: Option<(String, usize)>,
        current_raw: Option<&[u8]>,
        plan: &mut Plan,
    ) -> Result<(), String> {
        let lang = self.lang();
        let offender = overstep.offender;
        let claimant = !offender;
        let by_silence = last_move.is_none();
        state.ledger.status = Status::Suspended;
        state.ledger.suspension = Some(Suspension {
            offender,
            notice_on: self.clock.today,
            protest_received: false,
            ply: last_move.as_ref().map(|(_, ply)| *ply),
        });
        let protest_until =
            rules::calendar::add_days(self.clock.today, self.config.rules.protest_days);
        let notes: Vec<String> = store
            .notes(state.id())
            .map_err(|e| e.to_string())?
            .into_iter()
            .map(|n| n.text)
            .chain(plan.notes.iter().map(|n| n.text.clone()))
            .collect();
        let chart = state.chart(self.config, notes);
        let computation = match lang {
            Lang::Ru => format!(
                "Ходов сделано{}: {}; лимит {} дн.; затрачено {} дн.{}: {} > {}.",
                if by_silence {
                    " (с учётом хода, который нужно сделать)"
                } else {
                    ""
                },
                overstep.moves,
                overstep.limit,
                overstep.total,
                if by_silence {
                    " (с учётом дней без ответа по сегодня)"
                } else {
                    ""
                },
                overstep.total,
                overstep.limit
            ),
            Lang::En => format!(
                "Moves made{}: {}; limit {} days; days used{}: {} > {}.",
                if by_silence {
                    " (counting the move owed)"
                } else {
                    ""
                },
                overstep.moves,
                overstep.limit,
                if by_silence {
                    " (counting the days without an answer up to today)"
                } else {
                    ""
                },
                overstep.total,
                overstep.limit
            ),
        };
        let chart_text = chart.to_text(lang);
        let common = model! {
            "offender" => state.player(offender).name.as_str(),
            "claimant" => state.player(claimant).name.as_str(),
            "overstep" => model! {
                "total" => overstep.total,
                "limit" => overstep.limit,
                "moves" => overstep.moves,
                "by_silence" => by_silence,
            },
            "computation" => computation.as_str(),
            "chart" => chart_text.as_str(),
            "move" => last_move.as_ref().map(|(m, _)| m.clone()),
            "protest_days" => self.config.rules.protest_days,
            "protest_until" => fmt_date(protest_until, lang),
        };
        let mut notice = self.message(
            "overstep-notice",
            "overstep-notice",
            Some(state),
            vec![recipient(state.player(offender))],
            vec![],
            common.clone(),
            None,
        )?;
        notice.registered = true;
        notice.generated = by_silence;
        plan.messages.push(notice);
        let mut partner = self.message(
            "overstep-partner",
            "overstep-notice",
            Some(state),
            vec![recipient(state.player(claimant))],
            vec![],
            common.clone(),
            None,
        )?;
        partner.delivers = last_move.as_ref().map(|(_, ply)| *ply);
        partner.generated = by_silence;
        plan.messages.push(partner);

        let mut letters = store
            .letters_from(state.id(), offender)
            .map_err(|e| e.to_string())?;
        if let Some(raw) = current_raw {
            letters.push((self.clock.today, raw.to_vec()));
        }
        let mut attachments = Vec::new();
        let secret = state.player(offender).secret.clone();
        for (index, (postmark, raw)) in letters.into_iter().enumerate() {
            let name = format!("letter-{:02}-{postmark}.eml", index + 1);
            attachments.push(filed_letter(name, &raw, secret.as_deref()));
        }
        // The game as `shtempel pgn` gives it: dates, days and penalties.
        let pgn = state.pgn(self.config);
        let names: Vec<String> = attachments.iter().map(|a| a.name.clone()).collect();
        let file_model = merged(
            model! {
                "attachments" => names,
                "game_id" => state.id(),
            },
            common.clone(),
        );
        let mut file = self.message(
            "overstep-file",
            "overstep-file",
            Some(state),
            vec![self.arbiter()],
            vec![],
            file_model,
            None,
        )?;
        file.generated = true;
        file.attachments = attachments;
        file.attachments.push(Attachment {
            name: format!("game-{}.pgn", state.id()),
            content_type: "application/vnd.chess-pgn; charset=utf-8".into(),
            bytes: pgn.into_bytes(),
        });
        file.attachments.push(Attachment {
            name: format!("chart-{}.txt", state.id()),
            content_type: "text/plain; charset=utf-8".into(),
            bytes: chart_text.into_bytes(),
        });
        file.attachments.push(Attachment {
            name: format!("chart-{}.csv", state.id()),
            content_type: "text/csv; charset=utf-8".into(),
            bytes: chart.to_csv().into_bytes(),
        });
        file.attachments.push(self.plot_attachment(&chart)?);
        plan.messages.push(file);
        let mut claim = self.message(
            "claim-notice",
            "claim-notice",
            Some(state),
            vec![self.secretary()],
            vec![],
            common,
            None,
        )?;
        claim.generated = true;
        plan.messages.push(claim);
        plan.notes.push(Note {
            ply: last_move.as_ref().map(|(_, ply)| *ply),
            kind: "overstep".into(),
            text: format!(
                "{}: {}",
                lang.pick("просрочка времени", "time overstepped"),
                computation
            ),
            created_on: self.clock.today,
        });
        plan.events.push(Event {
            event: "overstep",
            game: Some(state.id().into()),
            from: None,
            detail: format!(
                "{} overstepped: {} > {} ({})",
                state.player(offender).name,
                overstep.total,
                overstep.limit,
                if by_silence {
                    "by silence"
                } else {
                    "with a letter"
                }
            ),
        });
        Ok(())
    }

    /// The time chart as a picture, for the arbiter's file.
    fn plot_attachment(&self, chart: &crate::chart::Chart) -> Result<Attachment, String> {
        Ok(Attachment {
            name: format!("chart-{}.svg", chart.game),
            content_type: "image/svg+xml".into(),
            bytes: crate::plot::svg(chart, &self.config.rules, self.lang())?.into_bytes(),
        })
    }

    /// A protest of the overstepper goes to the arbiter (2.5.4).
    fn plan_protest(
        &self,
        state: &mut GameState,
        context: &LetterContext<'_>,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), String> {
        let lang = self.lang();
        let Some(suspension) = state
            .ledger
            .suspension
            .filter(|s| s.offender == context.color)
        else {
            let reason = lang.pick(
                "протест принимается только от игрока, которому объявлена просрочка времени",
                "a protest is taken only from the player whose overstep was declared",
            );
            return self.refuse(state, context, vec![reason.into()], stored, plan);
        };
        let until = rules::calendar::add_days(suspension.notice_on, self.config.rules.protest_days);
        let late = context.postmark > until;
        state.ledger.suspension = Some(Suspension {
            protest_received: true,
            ..suspension
        });
        stored.disposition = Disposition::Applied;
        stored.reason = if late {
            "protest (late)".into()
        } else {
            "protest".into()
        };
        let model = model! {
            "from" => state.player(context.color).name.as_str(),
            "late" => late,
            "notice_on" => fmt_date(suspension.notice_on, lang),
            "until" => fmt_date(until, lang),
            "game_id" => state.id(),
        };
        let mut message = self.message(
            "protest",
            "protest",
            Some(state),
            vec![self.arbiter()],
            vec![recipient(state.player(context.color))],
            model,
            None,
        )?;
        message.attachments.push(filed_letter(
            "protest.eml".into(),
            context.raw,
            state.player(context.color).secret.as_deref(),
        ));
        plan.messages.push(message);
        plan.notes.push(Note {
            ply: None,
            kind: "protest".into(),
            text: format!(
                "{} {}",
                lang.pick("протест получен", "protest received"),
                fmt_date(context.postmark, lang)
            ),
            created_on: self.clock.today,
        });
        plan.events.push(Event {
            event: "protest",
            game: Some(state.id().into()),
            from: Some(state.player(context.color).email.clone()),
            detail: stored.reason.clone(),
        });
        Ok(())
    }

    /// Answers an arbiter's letter that decides nothing.
    fn refuse_arbiter(
        &self,
        state: Option<&GameState>,
        mail: &Mail,
        read: &Letter,
        why: &str,
        reason: String,
        plan: &mut Plan,
    ) -> Result<(), String> {
        let Some(stored) = plan.letter.as_mut() else {
            return Err("no letter to refuse".into());
        };
        stored.disposition = Disposition::Refused;
        stored.reason = why.to_string();
        let model = model! {
            "reasons" => vec![reason],
            "read" => self.read_model(read, stored.postmark, None, None, None),
            "next" => Model::from(()),
            "games" => Model::from(()),
        };
        let message = self.message(
            "refused",
            "refused",
            state,
            vec![self.arbiter()],
            vec![],
            model,
            mail.message_id.clone(),
        )?;
        plan.messages.push(message);
        Ok(())
    }

    /// The chief arbiter's decisions (2.5.5).
    fn plan_arbiter(
        &self,
        store: &Store,
        mail: &Mail,
        read: &Letter,
        plan: &mut Plan,
    ) -> Result<(), String> {
        let lang = self.lang();
        let Some(stored) = plan.letter.as_mut() else {
            return Err("the arbiter's letter was not recorded".into());
        };
        let Some(ruling) = read.rulings.first() else {
            let reason = lang.pick(
                "в письме не найдено решение. Напишите отдельной строкой: CONFIRM N (просрочка подтверждена), REJECT N (просрочки нет) или CONTINUE N (материалы неполны, игра продолжается), где N — номер партии",
                "no decision was found in the letter. Write on a line of its own: CONFIRM N (overstep confirmed), REJECT N (no overstep) or CONTINUE N (incomplete file, play on), N being the game",
            );
            return self.refuse_arbiter(None, mail, read, "no ruling found", reason.into(), plan);
        };
        let Some(game_config) = self.config.game(&ruling.game).cloned() else {
            let reason = match lang {
                Lang::Ru => format!("в турнире нет партии «{}»", ruling.game),
                Lang::En => format!("the tournament has no game \"{}\"", ruling.game),
            };
            return self.refuse_arbiter(None, mail, read, "no such game", reason, plan);
        };
        let mut state = GameState::load_replaying(self.config, store, &game_config, &self.replays)?;
        stored.game = Some(state.id().to_string());
        let Some(suspension) = state
            .ledger
            .suspension
            .filter(|_| state.ledger.status == Status::Suspended)
        else {
            let reason = match lang {
                Lang::Ru => format!("партия {} не приостановлена, решать нечего", state.id()),
                Lang::En => format!(
                    "game {} is not suspended; there is nothing to decide",
                    state.id()
                ),
            };
            return self.refuse_arbiter(
                Some(&state),
                mail,
                read,
                "game not suspended",
                reason,
                plan,
            );
        };
        let offender = suspension.offender;
        stored.disposition = Disposition::Applied;
        let decision = match ruling.decision {
            Decision::Confirm => "confirm",
            Decision::Reject => "reject",
            Decision::Continue => "continue",
        };
        stored.reason = format!("decision {decision} {}", state.id());
        let held_move = state
            .row
            .held_reply
            .map(|ply| label_moves(ply, &[(state.ledger.rows[ply].san.clone(), false)]));
        let delivers = state.row.held_reply;
        match ruling.decision {
            Decision::Confirm => {
                let result = if offender == Color::White {
                    "0-1"
                } else {
                    "1-0"
                };
                state.finish(result, "overstep");
            }
            Decision::Reject | Decision::Continue => {
                // No overstep: the disputed days (those the arbiter names, else
                // the overstepping move's) are excused, and no clock runs from
                // before today, so the same overstep is not declared again.
                let excused = ruling.days.unwrap_or_else(|| {
                    suspension
                        .ply
                        .and_then(|ply| state.ledger.rows.get(ply))
                        .map_or(0, |row| row.days)
                });
                state.ledger.credit.add(offender, excused);
                state.ledger.resumed_on = Some(self.clock.today);
                state.ledger.status = Status::Active;
                state.ledger.suspension = None;
                state.row.held_reply = None;
                if excused > 0 {
                    plan.notes.push(Note {
                        ply: None,
                        kind: "credit".into(),
                        text: match lang {
                            Lang::Ru => format!("главный судья: просрочки нет, {excused} дн. не засчитаны игроку {}", state.player(offender).name),
                            Lang::En => format!("chief arbiter: no overstep; {excused} days of {} excused", state.player(offender).name),
                        },
                        created_on: self.clock.today,
                    });
                }
            }
        }
        let model = model! {
            "decision" => decision,
            "offender" => state.player(offender).name.as_str(),
            "result" => state.row.result.clone(),
            "held_move" => held_move,
            "next" => next_lines(&state, offender, self.config, Some(self.clock.today)),
        };
        let mut message = self.message(
            "decision",
            "decision",
            Some(&state),
            vec![recipient(&state.white), recipient(&state.black)],
            vec![self.secretary()],
            model,
            mail.message_id.clone(),
        )?;
        if ruling.decision != Decision::Confirm {
            message.delivers = delivers;
        }
        plan.messages.push(message);
        plan.notes.push(Note {
            ply: None,
            kind: "decision".into(),
            text: format!(
                "{}: {decision}",
                lang.pick("решение главного судьи", "chief arbiter's decision")
            ),
            created_on: self.clock.today,
        });
        plan.events.push(Event {
            event: "decision",
            game: Some(state.id().into()),
            from: Some(self.config.chief_arbiter.clone()),
            detail: decision.into(),
        });
        plan.game = Some(state);
        Ok(())
    }
}

/// Whether an Authentication-Results header written by `trusted` says
/// `method=pass` for `domain` (RFC 8601; `header.d=` for DKIM,
/// `smtp.mailfrom=` for SPF).
pub fn auth_passes(header: &str, trusted: &str, method: &str, domain: &str) -> bool {
    let mut parts = header.split(';');
    let authserv = parts
        .next()
        .unwrap_or("")
        .split_whitespace()
        .next()
        .unwrap_or("");
    if !authserv.eq_ignore_ascii_case(trusted) || domain.is_empty() {
        return false;
    }
    parts.any(|result| {
        let lower = result.trim().to_ascii_lowercase();
        let Some(rest) = lower.strip_prefix(&format!("{method}=pass")) else {
            return false;
        };
        rest.split_whitespace().any(|property| {
            let value = property
                .strip_prefix("header.d=")
                .or_else(|| property.strip_prefix("header.i="))
                .or_else(|| property.strip_prefix("smtp.mailfrom="));
            value.is_some_and(|v| {
                let v = v.trim_matches(|c| c == '"' || c == '<' || c == '>');
                let v = v.rsplit_once('@').map_or(v, |(_, d)| d);
                v.eq_ignore_ascii_case(domain)
            })
        })
    })
}

/// The word on a `Secret:` / `Секрет:` / `Пароль:` line.
fn secret_on(line: &str) -> Option<&str> {
    let line = line.trim();
    let (label, value) = line.split_once(':')?;
    let label = label.trim().to_lowercase();
    ["secret", "секрет", "пароль", "password"]
        .contains(&label.as_str())
        .then(|| value.trim())
}

/// Compares without leaking where the first difference is.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    let mut difference = a.len() ^ b.len();
    for (index, byte) in b.iter().enumerate() {
        difference |= usize::from(a.get(index).copied().unwrap_or(0) ^ byte);
    }
    difference == 0
}

/// A player's letter as it goes into a file for the arbiter: the original
/// message, with the player's secret word removed. Where the word is encoded
/// (base64, quoted-printable) and cannot be cut from the bytes, a plain-text
/// copy of the letter without it is filed instead of the original.
pub fn filed_letter(name: String, raw: &[u8], secret: Option<&str>) -> Attachment {
    let redacted = redact_secret(raw, secret);
    let still_there = secret.is_some_and(|secret| {
        mail_parser::MessageParser::default()
            .parse(&redacted)
            .and_then(|m| m.body_text(0).map(|t| t.contains(secret)))
            .unwrap_or(false)
    });
    if !still_there {
        return Attachment {
            name,
            content_type: "message/rfc822".into(),
            bytes: redacted,
        };
    }
    let text = mail_parser::MessageParser::default()
        .parse(raw)
        .and_then(|m| m.body_text(0).map(|t| t.into_owned()))
        .unwrap_or_default();
    let clean = String::from_utf8_lossy(&redact_secret(text.as_bytes(), secret)).into_owned();
    Attachment {
        name: name.replace(".eml", ".txt"),
        content_type: "text/plain; charset=utf-8".into(),
        bytes: clean.into_bytes(),
    }
}

/// Removes the secret word from a letter before it is filed or forwarded.
pub fn redact_secret(raw: &[u8], secret: Option<&str>) -> Vec<u8> {
    let Some(secret) = secret.filter(|s| !s.is_empty()) else {
        return raw.to_vec();
    };
    let needle = secret.as_bytes();
    let mut out = Vec::with_capacity(raw.len());
    let mut index = 0;
    while index < raw.len() {
        if raw[index..].starts_with(needle) {
            out.extend_from_slice(b"[secret removed]");
            index += needle.len();
        } else {
            out.push(raw[index]);
            index += 1;
        }
    }
    out
}

/// The name of an item in the player's language.
pub fn item_label(item: Item, lang: Lang) -> &'static str {
    match (item, lang) {
        (Item::Date(DateItem::PartnerPostmark), Lang::Ru) => {
            "дата отправки хода партнёром (штемпель)"
        }
        (Item::Date(DateItem::Received), Lang::Ru) => "дата получения хода",
        (Item::Date(DateItem::Sent), Lang::Ru) => "дата отправки ответа",
        (Item::Fraction, Lang::Ru) => "затраченное время (дробь)",
        (Item::Previous(DateItem::PartnerPostmark), Lang::Ru) => {
            "штемпель партнёра предыдущего письма"
        }
        (Item::Previous(DateItem::Received), Lang::Ru) => "дата получения из предыдущего письма",
        (Item::Previous(DateItem::Sent), Lang::Ru) => "дата отправки предыдущего письма",
        (Item::Date(DateItem::PartnerPostmark), Lang::En) => {
            "the partner's sending date (postmark)"
        }
        (Item::Date(DateItem::Received), Lang::En) => "the date you received the move",
        (Item::Date(DateItem::Sent), Lang::En) => "the date you send your reply",
        (Item::Fraction, Lang::En) => "the time used (fraction)",
        (Item::Previous(DateItem::PartnerPostmark), Lang::En) => {
            "the partner's postmark of your previous letter"
        }
        (Item::Previous(DateItem::Received), Lang::En) => {
            "the received date of your previous letter"
        }
        (Item::Previous(DateItem::Sent), Lang::En) => "the sending date of your previous letter",
    }
}

/// A correction in one line of plain words.
pub fn correction_text(correction: &Correction, lang: Lang) -> String {
    match correction {
        Correction::Date {
            item,
            stated,
            actual,
            effect_days,
        } => {
            let effect = effect_days.filter(|d| *d != 0).map(|d| match lang {
                Lang::Ru => format!(": {d:+} дн."),
                Lang::En => format!(": {d:+} days"),
            });
            match lang {
                Lang::Ru => format!(
                    "{}: {}, а не {}{}",
                    item_label(*item, lang),
                    fmt_date(*actual, lang),
                    fmt_date(*stated, lang),
                    effect.unwrap_or_default()
                ),
                Lang::En => format!(
                    "{}: {}, not {}{}",
                    item_label(*item, lang),
                    fmt_date(*actual, lang),
                    fmt_date(*stated, lang),
                    effect.unwrap_or_default()
                ),
            }
        }
        Correction::Total {
            player,
            stated,
            actual,
        } => match (lang, player) {
            (Lang::Ru, Color::White) => format!("время белых {actual}, а не {stated}"),
            (Lang::Ru, Color::Black) => format!("время чёрных {actual}, а не {stated}"),
            (Lang::En, Color::White) => format!("White's total is {actual}, not {stated}"),
            (Lang::En, Color::Black) => format!("Black's total is {actual}, not {stated}"),
        },
    }
}

fn correction_model(correction: &Correction, lang: Lang) -> Model {
    let (item, stated, actual, effect) = match correction {
        Correction::Date {
            item,
            stated,
            actual,
            effect_days,
        } => (
            item_name(*item).to_string(),
            fmt_date(*stated, lang),
            fmt_date(*actual, lang),
            *effect_days,
        ),
        Correction::Total {
            player,
            stated,
            actual,
        } => (
            format!("{}_total", color_name(*player)),
            stated.to_string(),
            actual.to_string(),
            None,
        ),
    };
    model! {
        "item" => item,
        "stated" => stated,
        "actual" => actual,
        "effect" => effect,
        "text" => correction_text(correction, lang),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_as_chrono_writes_them() {
        let as_chrono = |date: NaiveDate| {
            assert_eq!(
                fmt_date(date, Lang::Ru),
                date.format("%d.%m.%Y").to_string()
            );
            assert_eq!(
                fmt_date(date, Lang::En),
                date.format("%Y-%m-%d").to_string()
            );
        };
        let mut date = NaiveDate::from_ymd_opt(1999, 12, 25).unwrap();
        let mut checked = 0;
        while date.year() < 2031 {
            as_chrono(date);
            date = date.succ_opt().unwrap();
            checked += 1;
        }
        assert!(checked > 11_000);
        for (y, m, d) in [
            (1, 1, 1),
            (999, 3, 4),
            (9999, 12, 31),
            (10_000, 1, 2),
            (-5, 6, 7),
        ] {
            as_chrono(NaiveDate::from_ymd_opt(y, m, d).unwrap());
        }
        assert_eq!(
            fmt_date(NaiveDate::from_ymd_opt(2026, 3, 9).unwrap(), Lang::Ru),
            "09.03.2026"
        );
    }
}

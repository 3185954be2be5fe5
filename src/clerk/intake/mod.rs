//! The gate: a letter identified (seen before, unreadable, automatic, too
//! large, forged, a stranger's, the chief arbiter's or a player's), a
//! player's letter assigned to its game (`clerk::find`; one no game is
//! found for answered by [`unidentified`]) and handed on to the letters'
//! handlers by the ask that leads it.

pub mod unidentified;

use crate::clerk::EventKind;
use crate::clerk::context::Written;
use crate::clerk::say::words::Sentence;
use std::borrow::Cow;

use crate::clerk::context::LetterContext;
use crate::clerk::find::Identified;
use crate::clerk::letters::addressed;
use crate::clerk::{Intake, Plan, Prepared, recipient};
use crate::config::Player;
use crate::error::Error;
use crate::letter::{self, Ask, Letter};
use crate::mail::Envelope;
use crate::mail::format::auth;
use crate::mail::format::mime::Mail;
use crate::rules;
use crate::store::{Disposition, LeftSeat, Seen, Store, StoredLetter};

/// Whether the letter was seen before (and is not applied again), with the
/// plan of its event; another letter under a Message-ID already stored (a
/// squatter's, or the real one after him) is kept under a key of its own
/// (`Seen::Clash`) and read.
fn seen_before(
    store: &Store,
    prepared: &Prepared,
    sender: Option<&str>,
) -> Result<(Seen, Plan), Error> {
    let mut plan = Plan::default();
    let key = &prepared.key;
    let seen = store.letter_seen(key, &prepared.fingerprint)?;
    match &seen {
        Seen::Before => {
            let detail = format!("{key} seen before: not applied again");
            plan.event(EventKind::Duplicate, None, sender, detail);
        }
        Seen::Clash(own_key) => {
            let detail = format!(
                "{key} was stored for another letter (other sender or text): this one kept as {own_key}"
            );
            plan.event(EventKind::MessageIdClash, None, sender, detail);
        }
        Seen::New => {}
    }
    Ok((seen, plan))
}

impl Intake<'_, '_> {
    pub(super) fn plan_letter(
        &self,
        store: &Store,
        envelope: &Envelope,
        prepared: &Prepared,
    ) -> Result<Plan, Error> {
        let parsed = prepared.mail.as_ref();
        let mut stored = letter_kept(envelope, prepared, self.config.timezone);
        let postmark = stored.postmark;
        let (seen, plan) = seen_before(store, prepared, stored.sender.as_deref())?;
        match seen {
            Seen::Before => return Ok(plan),
            Seen::Clash(own_key) => stored.dedup_key = own_key,
            Seen::New => {}
        }
        let Some(mail) = parsed else {
            return Ok(ignored_unread(
                stored,
                plan,
                None,
                "not readable as mail".into(),
            ));
        };
        if let Some(reason) = &mail.automatic {
            let reason = format!("automatic mail: {reason}");
            return Ok(ignored_unread(stored, plan, mail.from.as_deref(), reason));
        }
        if prepared.oversized {
            let refused = self.oversized(envelope, &stored)?;
            return Ok(plan.with_fate_on(refused, stored, crate::clerk::keep_unread));
        }
        let sender = mail.from.clone().unwrap_or_default();
        // The chief secretary is read for STATUS alone (where he is not the
        // chief arbiter too, whose letters are read as ever).
        let secretary =
            sender == self.config.chief_secretary && sender != self.config.chief_arbiter;
        if !self.config.is_known(&sender) && !secretary {
            if let Some(left) = self.seat_left_by(store, &sender)? {
                return Ok(plan.with(self.answer_replaced(mail, &sender, left, stored)?));
            }
            let reason = format!("{sender} is neither a player nor the chief arbiter");
            return Ok(ignored(stored, plan, Some(&sender), reason));
        }
        let claimed = if sender == self.config.chief_arbiter {
            Some((self.arbiter(), None))
        } else if secretary {
            Some((self.secretary(), None))
        } else {
            self.config
                .player_by_email(&sender)
                .map(|p| (recipient(p), Some(p)))
        };
        // A move by Xfcc was logged in with his password: the server's
        // spool is the clerk's own, and no mail server vouches for it.
        if let Some((who, player)) = claimed
            && prepared.channel == crate::rules::Channel::Letter
            && let Err(why) = auth::verify(mail, &self.config.security, player)
        {
            let ignored = self.forged(store, who, &why)?;
            return Ok(plan.with_fate_on(ignored, stored, crate::clerk::keep_unread));
        }
        let read = match &prepared.read {
            Some(read) => {
                stored.parse_json = prepared.read_json.clone();
                Cow::Borrowed(read)
            }
            None => {
                let read = letter::read_with(&mail.text, self.config.date_reading(Some(postmark)));
                stored.parse_json = crate::clerk::stored_reading(&read, envelope.raw.len());
                Cow::Owned(read)
            }
        };
        let written = Written {
            mail,
            read: &read,
            raw: &envelope.raw,
        };
        if sender == self.config.chief_arbiter || secretary {
            return Ok(plan.with(self.plan_officials(store, prepared, written, stored)?));
        }
        let from_player = self.plan_from_player(store, envelope, prepared, mail, read, stored)?;
        Ok(plan.with(from_player))
    }

    /// A letter of the chief arbiter (his order, or STATUS) or of the chief
    /// secretary (STATUS alone is answered).
    fn plan_officials(
        &self,
        store: &Store,
        prepared: &Prepared,
        written: Written<'_>,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        let sender = written.mail.from.clone().unwrap_or_default();
        if written.read.leading_ask() == Some(Ask::Status) {
            return self.letters().plan_event_status(store, written, stored);
        }
        if sender != self.config.chief_arbiter {
            let reason = format!("{sender} is the chief secretary: only STATUS is answered");
            return Ok(ignored(stored, Plan::default(), Some(&sender), reason));
        }
        let route = prepared.route.as_ref();
        let decided = self
            .letters()
            .plan_arbiter(store, written, route, &stored)?;
        // The letter is kept under the game its order changed.
        if let Some(state) = &decided.writes.game {
            stored.game = Some(state.id().to_string());
        }
        Ok(Plan::default().with_fate_on(decided, stored, |letter| letter))
    }

    /// The last seat `email` left in this tournament, replaced, if he
    /// played in it.
    fn seat_left_by(&self, store: &Store, email: &str) -> Result<Option<LeftSeat>, Error> {
        let scope = self.config.scope();
        Ok(store
            .seats_left_by(email)?
            .into_iter()
            .filter(|seat| seat.game.tournament() == scope)
            .max_by_key(|seat| seat.on))
    }

    /// The letter of a player replaced here (he wrote before he heard, or
    /// answers an old message): it changes nothing, in this event or his
    /// same-numbered game of another, and he is told he plays here no more,
    /// with his games elsewhere. Where the server's verdict does not vouch
    /// for his address, nobody is answered.
    fn answer_replaced(
        &self,
        mail: &Mail,
        sender: &str,
        left: LeftSeat,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        if let Err(why) = auth::verify(mail, &self.config.security, None) {
            let reason = format!("{sender}, replaced on {}: {why}", left.on);
            return Ok(ignored(stored, Plan::default(), Some(sender), reason));
        }
        let former = Player {
            id: String::new(),
            name: left.name,
            email: sender.to_string(),
            other_emails: Vec::new(),
            start_sheet_received: None,
            secret: None,
            start_rating: None,
        };
        let read = letter::read_with(&mail.text, self.config.date_reading(Some(stored.postmark)));
        stored.disposition = Disposition::Refused;
        stored.reason = format!("{sender} was replaced on {}: nothing changed", left.on);
        let on = left.on;
        let reason = Sentence::new(move |phrases| {
            phrases.fill("reason.replaced_here", &[("day", &phrases.date(on))])
        });
        let refusal = self.refusal(
            recipient(&former),
            vec![reason],
            &read,
            stored.postmark,
            crate::render::Model::from(self.tags_of(&former)),
            mail.message_id.clone(),
        );
        Ok(Plan::default().answered(refusal, EventKind::Refused, sender, stored))
    }

    /// A player's letter (his orders no orders, his leave apart), assigned
    /// to its game and planned by the ask that leads it; one no game is found for is
    /// answered with his games.
    fn plan_from_player(
        &self,
        store: &Store,
        envelope: &Envelope,
        prepared: &Prepared,
        mail: &Mail,
        read: Cow<'_, Letter>,
        stored: StoredLetter,
    ) -> Result<Plan, Error> {
        let raw = envelope.raw.as_slice();
        let sender = mail.from.clone().unwrap_or_default();
        let Some(player) = self.config.player_by_email(&sender).cloned() else {
            return Err(Error::internal(format!(
                "{sender} is known but is no player"
            )));
        };
        // A player's orders order nothing: a letter with a move or a
        // player's words besides (`ACCEPT DRAW` in capitals) is read as his
        // letter without them, one of orders alone is told whose they are.
        let orders: Vec<String> = read.rulings.iter().map(|r| r.line.clone()).collect();
        let written = Written {
            mail,
            read: &read,
            raw,
        };
        if let Some(refused) = self.orders_of_a_player(&player, written, &stored)? {
            return Ok(refused);
        }
        let read = match read.leading_ask() {
            Some(Ask::Order) => Cow::Owned(read.without_orders()),
            _ => read,
        };
        // What the clerk's letters to him carry: the person's.
        let written = Written {
            mail,
            read: &read,
            raw,
        };
        if let Some(answered) = self.plan_persons_asks(store, &player, written, &stored)? {
            return Ok(answered);
        }
        // A leave is the person's, carried out apart from what else the
        // letter asks in its game: each is answered.
        let leave = read.leave.is_some().then(|| read.clone().into_owned());
        let read = match &leave {
            Some(with_leave) if with_leave.without_leave().leading_ask().is_none() => {
                let written = Written {
                    mail,
                    read: with_leave,
                    raw,
                };
                let leave = self
                    .letters()
                    .plan_leave(store, &player, written, stored, None)?;
                let plan = Plan::default().with(leave);
                return self.with_other_blocks(store, &player, written, plan);
            }
            Some(with_leave) => Cow::Owned(with_leave.without_leave()),
            None => read,
        };
        let letter = InGame {
            written: Written {
                mail,
                read: &read,
                raw,
            },
            orders: &orders,
            leave: leave.as_ref(),
        };
        self.plan_in_game(store, prepared, &player, letter, stored)
    }

    /// A letter of orders alone from a player, who is not the chief
    /// arbiter: told whose they are, nothing changed; `None` for any other.
    fn orders_of_a_player(
        &self,
        player: &Player,
        written: Written<'_>,
        stored: &StoredLetter,
    ) -> Result<Option<Plan>, Error> {
        let read = written.read;
        if read.leading_ask() != Some(Ask::Order) || read.without_orders().leading_ask().is_some() {
            return Ok(None);
        }
        let sender = written.mail.from.as_deref().unwrap_or_default();
        let why = format!("a ruling from {sender}, who is not the chief arbiter: nothing changed");
        let mut plan = Plan::default();
        plan.event(EventKind::ForgedRuling, None, Some(sender), why.clone());
        let reason = Sentence::phrase("reason.not_arbiter");
        let to = recipient(player);
        let refused = self
            .letters()
            .refuse_order(None, to, written, &why, reason, stored)?;
        Ok(Some(
            plan.with_fate_on(refused, stored.clone(), |letter| letter),
        ))
    }

    /// A letter of the person's asks alone: what the clerk's letters to
    /// him carry (a STATUS beside them asks nothing of a game either), or
    /// where his games stand, across the clerk's events; answered with its
    /// other blocks. `None` for a letter that asks more.
    fn plan_persons_asks(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        stored: &StoredLetter,
    ) -> Result<Option<Plan>, Error> {
        let read = written.read;
        let mut plan = match read.leading_ask() {
            Some(Ask::Preferences) => {
                self.letters()
                    .plan_preferences(store, player, written, stored.clone())?
            }
            Some(Ask::Status | Ask::Xfcc) => Plan::default(),
            _ => return Ok(None),
        };
        if read.status.is_some() {
            plan = plan.with(
                self.letters()
                    .plan_status(store, player, written, stored.clone())?,
            );
        }
        if read.xfcc {
            plan = plan.with(
                self.letters()
                    .plan_xfcc_login(player, written, stored.clone())?,
            );
        }
        self.with_other_blocks(store, player, written, plan)
            .map(Some)
    }

    /// A player's letter that asks something of a game (his preferences,
    /// STATUS and a leave alone answered already): planned in the game it
    /// is found to be of, with its other blocks and a leave beside it.
    fn plan_in_game(
        &self,
        store: &Store,
        prepared: &Prepared,
        player: &Player,
        letter: InGame<'_>,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        let InGame {
            written,
            orders,
            leave,
        } = letter;
        let Written { mail, read, raw } = written;
        let postmark = stored.postmark;
        let plan = Plan::default();
        let identified = self.identify(store, player, mail, read, prepared)?;
        let (game_config, game_note) = match identified {
            Identified::Found { game, note } => (game, note),
            refused => {
                let unidentified = Unidentified {
                    refused,
                    stored,
                    leave,
                };
                return self.answer_unidentified(store, player, written, unidentified, plan);
            }
        };
        let state = crate::clerk::load_replaying(self.config, store, &game_config, &self.replays)?;
        let color = state
            .color_of(&player.email)
            .ok_or_else(|| Error::internal("player not in the game"))?;
        stored.game = Some(state.id().to_string());
        stored.color = Some(color);
        let context = LetterContext {
            mail,
            read,
            color,
            postmark,
            raw,
            game_note,
            channel: prepared.channel,
        };
        let mut plan = self.letters().plan_player(store, &state, &context)?;
        if let Some(fate) = plan.writes.fate.take() {
            stored = fate.on(stored);
        }
        plan.writes.game = Some(plan.writes.game.take().unwrap_or(state));
        let others = self
            .letters()
            .plan_other_games(store, player, written, postmark, &plan)?;
        stored = others.noted_on(stored);
        plan.carry(others.plans);
        let other_games = others.unheeded;
        let kept = stored.clone();
        plan.writes.letter = Some(stored);
        plan = self
            .letters()
            .tell_unheeded(player, read, orders, other_games, plan)?;
        let plan = self.with_preferences_beside(store, player, written, kept.clone(), plan)?;
        self.with_leave_beside(store, player, written, leave, kept, plan)
    }

    /// `plan`, with the settings (`DIAGRAMS`, `LANGUAGE`) its letter asks
    /// beside what it asks of a game: set, and answered by a message of
    /// their own, as a letter of settings alone is.
    fn with_preferences_beside(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        kept: StoredLetter,
        mut plan: Plan,
    ) -> Result<Plan, Error> {
        if written.read.preferences.is_empty() {
            return Ok(plan);
        }
        let mut set = self
            .letters()
            .plan_preferences(store, player, written, kept)?;
        plan.note_apart(set.writes.letter.take());
        plan.absorb(set);
        Ok(plan)
    }

    /// A player's letter no game was found for: answered with his games;
    /// the letter's other games are each their own, and a leave beside it
    /// is carried out apart.
    fn answer_unidentified(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        unidentified: Unidentified<'_>,
        mut plan: Plan,
    ) -> Result<Plan, Error> {
        let Unidentified {
            refused,
            stored,
            leave,
        } = unidentified;
        let kept = stored.clone();
        let (mail, read) = (written.mail, written.read);
        plan = plan.with(self.unidentified(refused, player, read, mail, stored)?);
        plan = self.with_other_blocks(store, player, written, plan)?;
        self.with_leave_beside(store, player, written, leave, kept, plan)
    }

    /// `plan`, with the leave its letter asks beside, if any: carried out
    /// apart, on the game as the rest leaves it.
    fn with_leave_beside(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        leave: Option<&Letter>,
        kept: StoredLetter,
        plan: Plan,
    ) -> Result<Plan, Error> {
        let Some(with_leave) = leave else {
            return Ok(plan);
        };
        let written = Written {
            read: with_leave,
            ..written
        };
        self.letters()
            .leave_beside(store, player, written, kept, plan)
    }
}

impl Intake<'_, '_> {
    /// `plan`, of a letter's first block, with the plans of its other
    /// blocks (each its game's), the blocks it could not carry out named
    /// in the answers to him.
    fn with_other_blocks(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        mut plan: Plan,
    ) -> Result<Plan, Error> {
        let Some(letter) = plan.writes.letter.take() else {
            return Ok(plan);
        };
        let others =
            self.letters()
                .plan_other_games(store, player, written, letter.postmark, &plan)?;
        plan.writes.letter = Some(others.noted_on(letter));
        plan.carry(others.plans);
        if !others.unheeded.is_empty() {
            let lines: Vec<crate::render::Model> =
                others.unheeded.iter().map(Sentence::model).collect();
            let said = crate::model! { "unheeded" => lines };
            for message in plan.messages.iter_mut().filter(|m| addressed(m, player)) {
                message.with(said.clone());
            }
        }
        Ok(plan)
    }
}

/// A letter as it is kept before anything is decided of it: its keys, its
/// sender, its bytes, and its postmark, the day the source knows it came
/// (rules.md 2.1: INTERNALDATE, or the topmost Received: header of a
/// Maildir letter) in the tournament's zone.
fn letter_kept(envelope: &Envelope, prepared: &Prepared, zone: chrono_tz::Tz) -> StoredLetter {
    let parsed = prepared.mail.as_ref();
    StoredLetter {
        dedup_key: prepared.key.clone(),
        fingerprint: Some(prepared.fingerprint.clone()),
        message_id: parsed.and_then(|m| m.message_id.clone()),
        source_key: envelope.key.clone(),
        arrived: envelope.arrived,
        postmark: rules::postmark_date(&envelope.arrived, zone),
        sender: parsed.and_then(|m| m.from.clone()),
        game: None,
        color: None,
        disposition: Disposition::Ignored,
        reason: String::new(),
        parse_json: None,
        raw: envelope.raw.clone(),
    }
}

/// A player's letter to be planned in a game: the letter, the orders he
/// wrote in it (which order nothing), and the leave it asks beside.
struct InGame<'l> {
    written: Written<'l>,
    orders: &'l [String],
    leave: Option<&'l Letter>,
}

/// A player's letter no game of his was found for: why, the letter, and
/// the leave it asks beside, if any.
struct Unidentified<'l> {
    refused: Identified,
    stored: StoredLetter,
    leave: Option<&'l Letter>,
}

/// The plan of a letter the clerk does not answer, kept with `reason` and
/// not read again: kept whole (a stranger's, which the director
/// may take as a player's; an official's that asks nothing).
fn ignored(stored: StoredLetter, mut plan: Plan, sender: Option<&str>, reason: String) -> Plan {
    plan.event(EventKind::Ignored, None, sender, reason.clone());
    let stored = StoredLetter { reason, ..stored };
    plan.writes.letter = Some(crate::clerk::bound_fields(stored));
    plan
}

/// A letter the clerk does not read (an automatic one, or one not
/// readable as mail): its first bytes kept ([`crate::clerk::keep_unread`]).
fn ignored_unread(stored: StoredLetter, plan: Plan, sender: Option<&str>, reason: String) -> Plan {
    let mut plan = ignored(stored, plan, sender, reason);
    plan.writes.letter = plan.writes.letter.map(crate::clerk::keep_unread);
    plan
}

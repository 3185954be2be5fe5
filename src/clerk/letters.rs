//! A letter identified: seen before, unreadable, automatic, too large,
//! forged, a stranger's, the chief arbiter's or a player's; a player's letter
//! assigned to its game and handed on by its kind.

use std::borrow::Cow;

use chrono::NaiveDate;
use shakmaty::Color;

use super::{Clerk, Plan, Prepared, recipient};
use crate::config::{Config, GameConfig, Player};
use crate::error::Error;
use crate::letter::{self, Letter, LetterKind, Part};
use crate::mail::compose::{Outgoing, Recipient};
use crate::mail::mime::Mail;
use crate::mail::{Envelope, auth};
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules;
use crate::store::{Disposition, Seen, Store, StoredLetter};

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
    /// Nothing tells which tournament: he plays the game it names (or, if
    /// it names none, plays games) in another one of the clerk's too.
    Ambiguous,
    /// Its thread or tag names a tournament the clerk does not serve (any
    /// more: its file left the folder).
    NotServed { tournament: String },
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
    pub fn code(self) -> &'static str {
        match self {
            NamedBy::Line => "line",
            NamedBy::Tag => "tag",
            NamedBy::Subject => "subject",
        }
    }

    fn phrase(self) -> &'static str {
        match self {
            NamedBy::Line => "named_by.line",
            NamedBy::Tag => "named_by.tag",
            NamedBy::Subject => "named_by.subject",
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

/// Whether the letter was seen before (and is not applied again); another
/// letter under a Message-ID already stored (a squatter's, or the real one
/// after him) is kept under a key of its own and read.
fn seen_before(
    store: &Store,
    prepared: &Prepared,
    stored: &mut StoredLetter,
    plan: &mut Plan,
) -> Result<bool, Error> {
    let key = &prepared.key;
    match store
        .letter_seen(key, &prepared.fingerprint)
        .map_err(|e| e.to_string())?
    {
        Seen::Before => {
            let detail = format!("{key} seen before: not applied again");
            plan.event("duplicate", None, stored.sender.as_deref(), detail);
            Ok(true)
        }
        Seen::Clash(own_key) => {
            let detail = format!(
                "{key} was stored for another letter (other sender or text): this one kept as {own_key}"
            );
            plan.event("message-id-clash", None, stored.sender.as_deref(), detail);
            stored.dedup_key = own_key;
            Ok(false)
        }
        Seen::New => Ok(false),
    }
}

impl Clerk<'_> {
    pub(super) fn plan_letter(
        &self,
        store: &Store,
        envelope: &Envelope,
        prepared: &Prepared,
    ) -> Result<Plan, Error> {
        let parsed = prepared.mail.as_ref();
        let key = prepared.key.clone();
        // The source knows the postmark (rules.md 2.1): INTERNALDATE, or the
        // topmost Received: header of a Maildir letter.
        let arrived = envelope.arrived;
        let postmark = rules::postmark_date(&arrived, self.config.timezone);
        let mut stored = StoredLetter {
            dedup_key: key.clone(),
            fingerprint: Some(prepared.fingerprint.clone()),
            message_id: parsed.and_then(|m| m.message_id.clone()),
            source_key: envelope.key.clone(),
            arrived,
            postmark,
            sender: parsed.and_then(|m| m.from.clone()),
            game: None,
            color: None,
            disposition: Disposition::Ignored,
            reason: String::new(),
            parse_json: None,
            raw: envelope.raw.clone(),
        };
        let mut plan = Plan::default();
        if seen_before(store, prepared, &mut stored, &mut plan)? {
            return Ok(plan);
        }
        let Some(mail) = parsed else {
            stored.reason = "not readable as mail".into();
            plan.event("ignored", None, None, stored.reason.clone());
            super::keep_unread(&mut stored);
            plan.letter = Some(stored);
            return Ok(plan);
        };
        if let Some(reason) = &mail.automatic {
            stored.reason = format!("automatic mail: {reason}");
            plan.event("ignored", None, mail.from.as_deref(), stored.reason.clone());
            super::keep_unread(&mut stored);
            plan.letter = Some(stored);
            return Ok(plan);
        }
        if prepared.oversized {
            self.oversized(envelope, &mut stored, &mut plan)?;
            super::keep_unread(&mut stored);
            plan.letter = Some(stored);
            return Ok(plan);
        }
        let sender = mail.from.clone().unwrap_or_default();
        if !self.config.is_known(&sender) {
            stored.reason = format!("{sender} is neither a player nor the chief arbiter");
            plan.event("ignored", None, Some(&sender), stored.reason.clone());
            super::keep_unread(&mut stored);
            plan.letter = Some(stored);
            return Ok(plan);
        }
        let claimed = if sender == self.config.chief_arbiter {
            Some((self.arbiter(), None))
        } else {
            self.config
                .player_by_email(&sender)
                .map(|p| (recipient(p), Some(p)))
        };
        if let Some((who, player)) = claimed
            && let Err(why) = auth::verify(mail, &self.config.security, player)
        {
            self.forged(store, who, &why, stored, &mut plan)?;
            return Ok(plan);
        }
        let read = match &prepared.read {
            Some(read) => {
                stored.parse_json = prepared.read_json.clone();
                Cow::Borrowed(read)
            }
            None => {
                let read = letter::read_with(&mail.text, self.config.date_reading(Some(postmark)));
                stored.parse_json = super::stored_reading(&read, envelope.raw.len());
                Cow::Owned(read)
            }
        };
        if sender == self.config.chief_arbiter {
            plan.letter = Some(stored);
            self.plan_arbiter(store, mail, &read, &mut plan)?;
            return Ok(plan);
        }
        let Some(player) = self.config.player_by_email(&sender).cloned() else {
            return Err(format!("{sender} is known but is no player").into());
        };
        // A player's orders order nothing: a letter with a move or a
        // player's words besides (`ACCEPT DRAW` in capitals) is read as his
        // letter without them, one of orders alone is told whose they are.
        let orders: Vec<String> = read.rulings.iter().map(|r| r.line.clone()).collect();
        let read = match read.kind() {
            LetterKind::Ruling => {
                let without = read.without_orders();
                if without.kind() == LetterKind::Unknown {
                    let why = format!(
                        "a ruling from {sender}, who is not the chief arbiter: nothing changed"
                    );
                    plan.event("forged-ruling", None, Some(&sender), why.clone());
                    plan.letter = Some(stored);
                    let reason = self.phrases().get("reason.not_arbiter").to_string();
                    let to = recipient(&player);
                    self.refuse_order(None, to, mail, &read, &why, reason, &mut plan)?;
                    return Ok(plan);
                }
                Cow::Owned(without)
            }
            _ => read,
        };
        // A leave is the person's, carried out apart from what else the
        // letter asks in its game (issue 30, point 2): each is answered.
        let leave = read.leave.is_some().then(|| read.clone().into_owned());
        let read = match &leave {
            Some(with_leave) if with_leave.without_leave().kind() == LetterKind::Unknown => {
                self.plan_leave(store, &player, with_leave, mail, stored, &mut plan, None)?;
                return Ok(plan);
            }
            Some(with_leave) => Cow::Owned(with_leave.without_leave()),
            None => read,
        };
        let identified = self.identify(store, &player, mail, &read, prepared.directed);
        let (game_config, game_note) = match identified {
            Identified::Found { game, note } => (game, note),
            refused => {
                let kept = stored.clone();
                self.unidentified(refused, &player, &read, postmark, mail, stored, &mut plan)?;
                if let Some(with_leave) = &leave {
                    self.leave_beside(store, &player, with_leave, mail, kept, &mut plan)?;
                }
                return Ok(plan);
            }
        };
        let mut state = super::load_replaying(self.config, store, &game_config, &self.replays)?;
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
        let kept = stored.clone();
        plan.letter = Some(stored);
        plan.game = Some(state);
        self.tell_unheeded(&player, &read, &orders, &mut plan)?;
        if let Some(with_leave) = &leave {
            self.leave_beside(store, &player, with_leave, mail, kept, &mut plan)?;
        }
        Ok(plan)
    }

    /// A player's letter, by its kind.
    fn plan_player(
        &self,
        store: &Store,
        state: &mut Record,
        context: &LetterContext<'_>,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        let kind = context.read.kind();
        // During his suspension, whatever the offender writes but a protest
        // or a resignation goes to the arbiter (10.3.6).
        if !matches!(kind, LetterKind::Protest | LetterKind::Resignation)
            && let Some(transition) =
                rules::life::offender_letter(&self.config.rules, &state.ledger, context.color)
        {
            return self.plan_withheld(store, state, context, transition, stored, plan);
        }
        match kind {
            LetterKind::Resignation => self.plan_resignation(state, context, stored, plan),
            LetterKind::DrawAcceptance => {
                self.plan_draw_acceptance(store, state, context, stored, plan)
            }
            LetterKind::Protest => self.plan_protest(state, context, stored, plan),
            LetterKind::Move => self.plan_move(store, state, context, stored, plan),
            LetterKind::Ruling | LetterKind::Leave | LetterKind::Unknown => {
                let phrases = self.phrases();
                let mut reasons: Vec<String> = context
                    .read
                    .errors
                    .iter()
                    .map(|e| e.explain(phrases))
                    .collect();
                reasons.push(phrases.get("reason.no_move").to_string());
                self.refuse(state, context, reasons, stored, plan)
            }
        }
    }

    /// A letter whose game is not one of its sender's: nothing changes
    /// anywhere, and he is told why, with his games.
    #[allow(clippy::too_many_arguments)]
    fn unidentified(
        &self,
        refused: Identified,
        player: &Player,
        read: &Letter,
        postmark: NaiveDate,
        mail: &Mail,
        mut stored: StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        let phrases = self.phrases();
        let sender = &player.email;
        // Asked which tournament: his games by their tags, in every one.
        let tagged = matches!(
            refused,
            Identified::Ambiguous | Identified::NotServed { .. }
        );
        let named = |phrase, game: &str, by: NamedBy| {
            phrases.fill(
                phrase,
                &[("game", &game), ("by", &phrases.get(by.phrase()))],
            )
        };
        let games: Vec<String> = if tagged {
            self.tags_of(player)
        } else {
            self.config
                .games_of(&player.id)
                .iter()
                .map(|g| g.id.clone())
                .collect()
        };
        let (why, reason) = match refused {
            Identified::NotHis { named: game, by } => (
                format!("names game {game}, which {sender} does not play"),
                named("reason.not_his", &game, by),
            ),
            Identified::NoSuch { named: game, by } => (
                format!("names game {game}, which the tournament does not have"),
                named("reason.no_such_game", &game, by),
            ),
            Identified::Ambiguous => (
                "the tournament could not be identified: the sender plays in several".to_string(),
                phrases.fill(
                    "reason.which_tournament",
                    &[("tag", &games.first().map_or("", String::as_str))],
                ),
            ),
            Identified::NotServed { tournament } => (
                format!("for tournament {tournament}, which this clerk does not serve"),
                phrases.fill("reason.not_served", &[("tournament", &tournament)]),
            ),
            _ => (
                "the game could not be identified".to_string(),
                phrases.get("reason.unidentified").to_string(),
            ),
        };
        stored.disposition = Disposition::Refused;
        stored.reason = why;
        let mut message = self.refusal(
            recipient(player),
            vec![reason],
            read,
            postmark,
            Model::from(games),
            mail.message_id.clone(),
        )?;
        // Placed in no event: the answer speaks for the clerk, under no
        // event's tag or name (issue 31, point 6).
        if tagged {
            self.render_again(&mut message, model! { "of_no_event" => true })?;
            message.of_event = false;
        }
        plan.messages.push(message);
        plan.event("refused", None, Some(sender), stored.reason.clone());
        plan.letter = Some(stored);
        Ok(())
    }

    /// Finds the game of a player's letter (contract.md 3). A game named in
    /// the letter decides: a `Game:` line first, then the subject's tag, then
    /// a subject like `Re: Партия 3`; a named game the sender does not play,
    /// or that does not exist, is refused, never taken for another. Without a
    /// name, the thread decides, then the only game he plays. Where the named
    /// game is not the thread's, the note says so.
    fn identify(
        &self,
        store: &Store,
        player: &Player,
        mail: &Mail,
        read: &Letter,
        directed: bool,
    ) -> Identified {
        if let Some(tournament) = self.unserved_event(store, mail).filter(|_| !directed) {
            return Identified::NotServed { tournament };
        }
        let mine = self.config.games_of(&player.id);
        let find = |id: &str| {
            mine.iter()
                .find(|g| g.id.eq_ignore_ascii_case(id))
                .map(|g| (*g).clone())
        };
        let thread = super::thread_ids(mail)
            .find_map(|candidate| store.game_of_message(&candidate).ok().flatten());
        let tag = format!("[{} #", self.config.tournament_id);
        let tagged = mail.subject.find(&tag).and_then(|start| {
            let rest = &mail.subject[start + tag.len()..];
            rest.split(']').next().map(|id| id.trim().to_string())
        });
        let named = [
            (NamedBy::Line, read.game.clone()),
            (NamedBy::Tag, tagged.clone()),
            (
                NamedBy::Subject,
                letter::subject_game(&mail.subject, |id| self.config.game(id).is_some()),
            ),
        ]
        .into_iter()
        .find_map(|(by, id)| id.map(|id| (by, id)));
        // The tag and the thread say which tournament; a game named
        // otherwise may be his in another of the clerk's too.
        // (Asked only of a clerk of several: of one, nothing is elsewhere.)
        let certain = directed || !self.directory.several() || self.tagged_or_threaded(store, mail);
        let elsewhere = |game: Option<&str>| !certain && self.plays_elsewhere(player, game);
        let Some((by, named)) = named else {
            if let Some(game) = thread.as_deref().and_then(find) {
                return Identified::Found { game, note: None };
            }
            if elsewhere(None) {
                return Identified::Ambiguous;
            }
            if let [only] = mine.as_slice() {
                return Identified::Found {
                    game: (*only).clone(),
                    note: None,
                };
            }
            return Identified::Unknown;
        };
        if by != NamedBy::Tag && elsewhere(Some(&named)) {
            return Identified::Ambiguous;
        }
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
        let tag_of_thread = tagged.filter(|_| by == NamedBy::Line);
        let note = thread
            .into_iter()
            .chain(tag_of_thread)
            .find(|other| !other.eq_ignore_ascii_case(&game.id))
            .map(|other| GameNote { by, other });
        Identified::Found { game, note }
    }

    /// Whether the letter's subject has this tournament's tag, or it answers
    /// a message of one of its games: it is this tournament's, whatever
    /// else its sender plays.
    pub(super) fn tagged_or_threaded(&self, store: &Store, mail: &Mail) -> bool {
        let own =
            |at: usize| self.directory.tournaments()[at].tournament_id == self.config.tournament_id;
        super::route::has_tag(&mail.subject, &self.config.tournament_id)
            || super::thread_ids(mail)
                .any(|candidate| store.game_of_message(&candidate).ok().flatten().is_some())
            || super::route::tournament_of_thread(self.directory, store, mail).is_some_and(own)
    }

    /// Whether the sender of a letter plays `game` (any game, if `None`) in
    /// another of the clerk's tournaments.
    fn plays_elsewhere(&self, player: &Player, game: Option<&str>) -> bool {
        self.others_knowing(player).any(|(other, there)| {
            other
                .games_of(&there.id)
                .iter()
                .any(|g| game.is_none_or(|id| g.id.eq_ignore_ascii_case(id)))
        })
    }

    /// The tags of every game the sender plays with the clerk, this
    /// tournament's first.
    fn tags_of(&self, player: &Player) -> Vec<String> {
        std::iter::once((self.config, player))
            .chain(self.others_knowing(player))
            .flat_map(|(config, there)| {
                config
                    .games_of(&there.id)
                    .into_iter()
                    .map(|g| format!("[{} #{}]", config.tournament_id, g.id))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// The clerk's other tournaments that know one of `player`'s addresses,
    /// in order, each with its entry of him (found by the directory: a
    /// federation's letter asks one question, not one a tournament).
    pub(super) fn others_knowing<'p>(
        &'p self,
        player: &'p Player,
    ) -> impl Iterator<Item = (&'p Config, &'p Player)> + 'p {
        let mut places: Vec<usize> = player
            .addresses()
            .flat_map(|address| self.directory.known_in(address).iter().copied())
            .collect();
        places.sort_unstable();
        places.dedup();
        let tournaments = self.directory.tournaments();
        places.into_iter().filter_map(move |at| {
            let other = &tournaments[at];
            if other.tournament_id == self.config.tournament_id {
                return None;
            }
            let there = player
                .addresses()
                .find_map(|address| other.player_by_email(address))?;
            Some((other, there))
        })
    }

    /// A tournament the letter's thread (the clerk's message it answers)
    /// or subject tag names, which this clerk does not serve: one whose
    /// file left the folder, its games still in the database. Its letters
    /// are refused, never taken for another tournament's game of the same
    /// number (issue 31, point 11).
    fn unserved_event(&self, store: &Store, mail: &Mail) -> Option<String> {
        // A tournament of its own file has only its own games.
        if !self.config.in_folder {
            return None;
        }
        let served = |id: &str| {
            self.directory
                .tournaments()
                .iter()
                .any(|t| t.tournament_id == id)
        };
        let threaded = super::thread_ids(mail)
            .find_map(|candidate| store.game_key_of_message(&candidate).ok().flatten());
        if let Some(key) = threaded {
            let id = key.tournament()?;
            return (!served(id)).then(|| id.to_string());
        }
        mail.subject.match_indices('[').find_map(|(at, _)| {
            let (id, _) = mail.subject[at + 1..].split_once(" #")?;
            let plain =
                !id.is_empty() && !id.contains(|c: char| c.is_whitespace() || "[]".contains(c));
            (plain && !served(id) && store.has_tournament(id).unwrap_or(false))
                .then(|| id.to_string())
        })
    }

    /// What the letter asked in its game that its handler did not carry
    /// out (a move beside a resignation, a player's order line), named in
    /// the answers its writer gets.
    fn tell_unheeded(
        &self,
        player: &Player,
        read: &Letter,
        orders: &[String],
        plan: &mut Plan,
    ) -> Result<(), Error> {
        let phrases = self.phrases();
        let why = match read.kind() {
            LetterKind::Resignation => "unheeded.resignation",
            LetterKind::Protest => "unheeded.protest_letter",
            _ => "unheeded.draw_acceptance",
        };
        let written: Vec<&str> = read.moves.iter().map(|m| m.written.as_str()).collect();
        let moves = crate::printable::bounded(&written.join(" "), 100).into_owned();
        let mut lines: Vec<String> = read
            .unheeded()
            .into_iter()
            .filter_map(|part| {
                let what = match part {
                    Part::Move => phrases.fill("unheeded.move", &[("moves", &moves)]),
                    Part::DrawOffer => phrases.get("unheeded.draw_offer").to_string(),
                    Part::DrawAccept => phrases.get("unheeded.draw_accept").to_string(),
                    Part::DrawDecline => phrases.get("unheeded.draw_decline").to_string(),
                    Part::Protest => phrases.get("unheeded.protest").to_string(),
                    Part::Resignation | Part::Order | Part::Leave => return None,
                };
                Some(format!("{what}: {}", phrases.get(why)))
            })
            .collect();
        lines.extend(orders.iter().map(|line| {
            let line = crate::printable::bounded(line, 100);
            phrases.fill("unheeded.order", &[("line", &line.as_ref())])
        }));
        if lines.is_empty() {
            return Ok(());
        }
        if let Some(stored) = plan.letter.as_mut() {
            stored.reason = format!("{}; not carried out: {}", stored.reason, lines.join("; "));
        }
        let unheeded = model! { "unheeded" => lines };
        for message in plan.messages.iter_mut().filter(|m| addressed(m, player)) {
            self.render_again(message, unheeded.clone())?;
        }
        Ok(())
    }

    /// A leave asked in a letter that asks more in its game: planned after
    /// the rest (on the game as the rest leaves it), its answer a message
    /// of its own, the rest's answer saying so.
    fn leave_beside(
        &self,
        store: &Store,
        player: &Player,
        read: &Letter,
        mail: &Mail,
        stored: StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        let apart = model! { "leave_apart" => true };
        for message in plan.messages.iter_mut().filter(|m| addressed(m, player)) {
            if message.kind.is_reply() {
                self.render_again(message, apart.clone())?;
            }
        }
        let mut leave = Plan::default();
        self.plan_leave(
            store,
            player,
            read,
            mail,
            stored,
            &mut leave,
            plan.game.as_ref(),
        )?;
        let game = plan.game.as_ref().map(|game| game.id().to_string());
        for more in leave.more {
            // The notes and notices of the game the rest changed go with it.
            if more.game.as_ref().map(|g| g.id()) == game.as_deref() {
                plan.notes.extend(more.notes);
                plan.messages.extend(more.messages);
            } else {
                plan.more.push(more);
            }
        }
        plan.messages.extend(leave.messages);
        plan.events.extend(leave.events);
        plan.leave = leave.leave;
        if let (Some(main), Some(taken)) = (plan.letter.as_mut(), leave.letter) {
            main.reason = format!("{}; {}", main.reason, taken.reason);
            if taken.disposition == Disposition::Applied {
                main.disposition = Disposition::Applied;
            }
        }
        Ok(())
    }

    /// A letter that fails [`auth::verify`]: nothing changes; the registered
    /// address it claims gets a notice, at most one a day (issue 30, point
    /// 1): a flood of forged letters costs him one, and never takes the room
    /// of an answer to a letter of his own (the notice is no reply).
    fn forged(
        &self,
        store: &Store,
        who: Recipient,
        why: &auth::Unverified,
        mut stored: StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        stored.disposition = Disposition::Ignored;
        stored.reason = format!("not verified: {why}");
        super::keep_unread(&mut stored);
        let told = store
            .replies_on(
                &who.email,
                self.clock.today,
                &[MessageKind::Unverified.header()],
            )
            .map_err(Error::database)?;
        let told_today = told > 0;
        if told_today {
            stored
                .reason
                .push_str(" (the day's notice sent already: not answered)");
        }
        plan.event("forged", None, Some(&who.email), stored.reason.clone());
        if !told_today {
            plan.messages.push(self.unverified_notice(who, why)?);
        }
        plan.letter = Some(stored);
        Ok(())
    }

    /// The day's notice to the address a letter claimed, of why it was not
    /// taken as its owner's.
    fn unverified_notice(&self, who: Recipient, why: &auth::Unverified) -> Result<Outgoing, Error> {
        let phrases = self.phrases();
        let reason = match why {
            auth::Unverified::NoPass { method, domain, .. } => phrases.fill(
                "reason.unverified_no_pass",
                &[("method", method), ("domain", &domain.as_str())],
            ),
            auth::Unverified::SecretMissing => {
                phrases.get("reason.unverified_secret_missing").to_string()
            }
            auth::Unverified::SecretWrong => {
                phrases.get("reason.unverified_secret_wrong").to_string()
            }
        };
        let secret = !matches!(why, auth::Unverified::NoPass { .. });
        let model = model! { "why" => reason, "secret" => secret };
        self.message(
            MessageKind::Unverified,
            None,
            vec![who],
            vec![],
            model,
            None,
        )
    }

    /// A letter over `max_letter_bytes`: kept, not read; a player gets a notice.
    fn oversized(
        &self,
        envelope: &Envelope,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        let limit = self.config.limits.max_letter_bytes;
        stored.disposition = Disposition::Refused;
        stored.reason = format!(
            "{} bytes, over the limit of {limit}: not read",
            envelope.size
        );
        plan.event(
            "too-large",
            None,
            stored.sender.as_deref(),
            stored.reason.clone(),
        );
        let Some(player) = stored
            .sender
            .as_deref()
            .and_then(|s| self.config.player_by_email(s))
        else {
            return Ok(());
        };
        let reason = self.phrases().fill(
            "reason.too_large",
            &[
                ("size", &(envelope.size / 1024)),
                ("limit", &(limit / 1024)),
            ],
        );
        plan.messages.push(self.refusal(
            recipient(player),
            vec![reason],
            &Letter::default(),
            stored.postmark,
            Model::from(()),
            stored.message_id.clone(),
        )?);
        Ok(())
    }

    /// A refusal outside any game: the reasons, what was read, and (when the
    /// game could not be told) the player's games to choose from.
    pub(super) fn refusal(
        &self,
        to: Recipient,
        reasons: Vec<String>,
        read: &Letter,
        postmark: NaiveDate,
        games: Model,
        in_reply_to: Option<String>,
    ) -> Result<Outgoing, Error> {
        let model = model! {
            "reasons" => reasons,
            "read" => self.read_model(read, postmark, None, None, None),
            "clock" => "none",
            "next" => Model::from(()),
            "games" => games,
            "held" => Model::from(()),
        };
        self.message(
            MessageKind::Refused,
            None,
            vec![to],
            vec![],
            model,
            in_reply_to,
        )
    }

    /// A player's letter in his game that changes nothing: the reasons, what
    /// was read, and the lines for the letter he owes.
    pub(super) fn refuse(
        &self,
        state: &Record,
        context: &LetterContext<'_>,
        reasons: Vec<String>,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        stored.disposition = Disposition::Refused;
        stored.reason = reasons.join("; ");
        let player = state.player(context.color);
        // Lines to fill in only for a letter he still owes (rules.md 2.7).
        let clock = state.ledger.clock_for(context.color);
        let owes = clock == rules::Turn::Yours;
        let model = model! {
            "reasons" => reasons,
            "read" => self.read_model(context.read, context.postmark, None, None, context.game_note.as_ref()),
            "clock" => match clock {
                rules::Turn::Yours => "yours",
                rules::Turn::Partners => "partners",
                rules::Turn::Stopped => "stopped",
                rules::Turn::Over => "over",
            },
            "next" => owes.then(|| super::next_lines(state, context.color, self.config, None)),
            "games" => Model::from(()),
            "held" => Model::from(()),
        };
        let message = self.message(
            MessageKind::Refused,
            Some(state),
            vec![recipient(player)],
            vec![],
            model,
            context.mail.message_id.clone(),
        )?;
        plan.messages.push(message);
        plan.event(
            "refused",
            Some(state.id()),
            Some(&player.email),
            stored.reason.clone(),
        );
        Ok(())
    }

    /// The words of a rules' refusal, for the player.
    pub(super) fn refusal_reason(&self, refusal: &rules::Refusal, game: &str) -> String {
        let phrases = self.phrases();
        match refusal {
            rules::Refusal::GameOver(outcome) => {
                phrases.fill("reason.game_over", &[("result", &outcome.result.pgn())])
            }
            rules::Refusal::PastEndDate => phrases.get("reason.past_end_date").to_string(),
            rules::Refusal::Suspended => phrases.get("reason.suspended").to_string(),
            rules::Refusal::NoDrawOffered => phrases.get("reason.no_draw_offered").to_string(),
            rules::Refusal::NoOverstep => phrases.get("reason.no_overstep").to_string(),
            rules::Refusal::NotTheOffender => phrases.get("reason.not_offender").to_string(),
            rules::Refusal::NotSuspended => {
                phrases.fill("reason.not_suspended", &[("game", &game)])
            }
            rules::Refusal::Annulled => phrases.get("reason.annulled").to_string(),
            rules::Refusal::NothingToUndo => {
                phrases.fill("reason.nothing_to_undo", &[("game", &game)])
            }
            rules::Refusal::SameResult(outcome) => phrases.fill(
                "reason.same_result",
                &[("game", &game), ("result", &outcome.result.pgn())],
            ),
        }
    }
}

/// Whether a message goes to the player (as its addressee or in copy).
fn addressed(message: &Outgoing, player: &Player) -> bool {
    message
        .to
        .iter()
        .chain(&message.cc)
        .any(|r| r.email == player.email)
}

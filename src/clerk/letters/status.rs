//! A player's `STATUS` (`СТАТУС`): where his games stand, in every event of
//! the clerk he plays in (or the one he names), in one answer. It changes
//! nothing and counts no time; a second one the same day gets a line
//! saying the first was sent.

use chrono::NaiveDate;
use shakmaty::Color;

use crate::clerk::EventKind;
use crate::clerk::context::Written;
use crate::clerk::say::notice::Notice;
use crate::clerk::say::words;
use crate::clerk::{Fate, Letters, Plan, recipient};
use crate::config::{Config, Player};
use crate::error::Error;
use crate::key::SubjectTag;
use crate::letter::Letter;
use crate::mail::format::compose::Recipient;
use crate::mail::format::mime::Mail;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules::{Status, Turn, leave};
use crate::store::{Disposition, Store, StoredLetter};

/// The games of one event of the person's, as his answer lists them.
#[derive(Default)]
struct EventGames {
    under_way: Vec<Model>,
    finished: Vec<Model>,
}

impl Letters<'_, '_> {
    /// A player's letter that asks `STATUS` and nothing else.
    pub(in crate::clerk) fn plan_status(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        let Written { mail, read, .. } = written;
        let to = recipient(player);
        if let Some(again) = self.status_again(store, &to, mail, &stored)? {
            return Ok(again);
        }
        stored.disposition = Disposition::Applied;
        let mut entries: Vec<(&Config, &Player)> = vec![(self.config, player)];
        entries.extend(self.others_of_the_person(player));
        let (entries, unknown_event) =
            named_in(entries, |(c, _)| &c.tournament_id, named_event(read));
        // Asked of one other event: answered under its tag and name.
        if let [(config, entry)] = entries.as_slice()
            && config.tournament_id != self.config.tournament_id
            && let Some(clerk) = self.sibling(&config.tournament_id)
        {
            return Ok(of_event(
                clerk.letters().plan_status(store, entry, written, stored)?,
                config,
            ));
        }
        let mut under_way = Vec::new();
        let mut finished = Vec::new();
        for (config, entry) in entries {
            let games = self.status_in(store, config, entry)?;
            under_way.extend(games.under_way);
            finished.extend(games.finished);
        }
        // How his letters come: the digest he asked for, or each at once.
        let daily = store.preferences_of(&to.email)?.daily();
        let answer = |games: Vec<Model>, boards_left_out: bool| {
            self.draft(MessageKind::Status)
                .to(to.clone())
                .answering(mail.message_id.clone())
                .notice(model! {
                    "games" => games,
                    "finished" => finished.clone(),
                    "unknown_event" => unknown_event.clone(),
                    "events" => Vec::<Model>::new(),
                    "boards_left_out" => boards_left_out,
                    "part" => 1,
                    "parts" => 1,
                    "ids" => "",
                    "clerk_of" => Vec::<String>::new(),
                    "daily" => daily,
                    "digest_hour" => self.config.mail.digest_hour,
                })
        };
        let mut letter = answer(under_way.clone(), false);
        // Within `max_message_bytes`: the pictures go first (the say step
        // drops them from a message they take over it), then the text
        // boards; the list of his games stays whole.
        if self.size_said(&letter)? > self.config.limits.max_message_bytes {
            let without_boards = under_way
                .into_iter()
                // `merged` keeps its first model's keys over the second's.
                .map(|game| crate::render::merged(model! { "board" => None::<Model> }, game))
                .collect();
            letter = answer(without_boards, true);
        }
        stored.reason = "status asked: answered".into();
        Ok(Plan::default().answered(letter, EventKind::Status, &player.email, stored))
    }

    /// The answer to a STATUS asked again the same day (by a player, or
    /// an official, whose list is long): the first answer stands. `None`
    /// where none went to `to` today.
    fn status_again(
        &self,
        store: &Store,
        to: &Recipient,
        mail: &Mail,
        stored: &StoredLetter,
    ) -> Result<Option<Plan>, Error> {
        let today = self.clock.today;
        if store.replies_on(&to.email, today, &[MessageKind::Status.header()])? == 0 {
            return Ok(None);
        }
        let official =
            [&self.config.chief_arbiter, &self.config.chief_secretary].contains(&&to.email);
        let by = if official { " by an official" } else { "" };
        let fate = Fate::applied(format!(
            "status asked again the same day{by}: the first answer stands"
        ));
        let again = self
            .draft(MessageKind::StatusAgain)
            .to(to.clone())
            .answering(mail.message_id.clone())
            .notice(
                model! { "day" => crate::clerk::say::words::date(today), "official" => official },
            );
        let stored = fate.on(stored.clone());
        Ok(Some(Plan::default().answered(
            again,
            EventKind::Status,
            &to.email,
            stored,
        )))
    }

    /// His games in event `config` as his entry `entry` plays them, read
    /// from the store on that event; each counted by its own rules, on the
    /// clerk's day.
    fn status_in(
        &self,
        store: &Store,
        config: &Config,
        entry: &Player,
    ) -> Result<EventGames, Error> {
        // A folder's events keep one day (`Clerk::sibling`).
        let today = self.clock.today;
        let leave = leave::in_force(&store.leaves_in(config.scope(), &entry.id)?, today);
        let mut games = EventGames::default();
        for game in config.draw().games_of(&entry.id) {
            let state = crate::clerk::load_replaying(config, store, game, &self.replays)?;
            let Some(colour) = state.color_of(&entry.email) else {
                continue;
            };
            if !state.ledger.in_play() {
                games
                    .finished
                    .push(self.finished_line(&state, colour, config));
                continue;
            }
            let board = (state.ledger.clock_for(colour) == Turn::Yours)
                .then(|| crate::clerk::say::board::Shown::of(&state, colour));
            let game_model = self.game_status(&state, config, colour, leave);
            games.under_way.push(crate::render::merged(
                game_model,
                model! { "board" => board },
            ));
        }
        Ok(games)
    }

    /// One game under way as his answer gives it.
    fn game_status(
        &self,
        state: &Record,
        config: &Config,
        colour: Color,
        leave: Option<(NaiveDate, NaiveDate)>,
    ) -> Model {
        let today = self.clock.today;
        let (tag, partner) = tag_and_partner(state, config, colour);
        let rows = state.ledger.rows.len();
        let score = (rows > 0)
            .then(|| words::moves(&crate::clerk::say::model::moves_of(state, 0, rows - 1)));
        // A move forwarded in this run reaches him today.
        let due = state.ledger.due_if_delivered(&config.rules, today);
        let turn = match state.ledger.clock_for(colour) {
            Turn::Yours => "yours",
            Turn::Partners => "partners",
            Turn::Stopped | Turn::Over => "stopped",
        };
        // A game added during the tournament may begin later.
        let begins = state
            .config
            .start_date
            .filter(|start| today < *start)
            .map(crate::clerk::say::words::date);
        model! {
            "tag" => tag,
            "partner" => partner,
            "colour" => crate::clerk::say::words::colour(colour),
            "begins" => begins,
            "score" => score,
            "turn" => turn,
            "suspended" => state.ledger.status() == Status::Suspended,
            "totals" => state.ledger.totals().to_string(),
            "due" => due.filter(|due| due.player == colour).map(|due| model! {
                "days_left" => due.days_left,
                "last_day" => crate::clerk::say::words::date(due.last_day),
            }),
            "leave" => leave.map(|(first, last)| model! {
                "first" => crate::clerk::say::words::date(first),
                "last" => crate::clerk::say::words::date(last),
            }),
        }
    }

    /// A finished game in one line: its tag, partner, colour and result.
    fn finished_line(&self, state: &Record, colour: Color, config: &Config) -> Model {
        let (tag, partner) = tag_and_partner(state, config, colour);
        let result = state.ledger.standing.result_pgn();
        let status = self.status_word(state);
        model! {
            "tag" => tag,
            "partner" => partner,
            "colour" => crate::clerk::say::words::colour(colour),
            "result" => result,
            "status" => status,
        }
    }
}

impl Letters<'_, '_> {
    /// A game's state in the event's words (`finished`, `annulled`).
    fn status_word(&self, state: &Record) -> Model {
        let phrase = match state.ledger.status() {
            Status::Active => "report.status_active",
            Status::Suspended => "report.status_suspended",
            Status::Adjudication => "report.status_adjudication",
            Status::Finished => "report.status_finished",
            Status::Annulled => "report.status_annulled",
        };
        words::phrase(phrase)
    }

    /// `STATUS` from the chief arbiter or the chief secretary: every game
    /// of each event of the clerk where he holds that office (or of the
    /// one he names), a line each.
    pub(in crate::clerk) fn plan_event_status(
        &self,
        store: &Store,
        written: Written<'_>,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        let Written { mail, read, .. } = written;
        let sender = mail.from.clone().unwrap_or_default();
        let to = match sender == self.config.chief_arbiter {
            true => self.arbiter(),
            false => self.secretary(),
        };
        // One a day, as a player's: the list of an event is long.
        if let Some(again) = self.status_again(store, &to, mail, &stored)? {
            return Ok(again);
        }
        stored.disposition = Disposition::Applied;
        let his: Vec<&Config> = self
            .directory
            .tournaments()
            .iter()
            .filter(|c| c.chief_arbiter == sender || c.chief_secretary == sender)
            .collect();
        let (his, unknown_event) = named_in(his, |c| &c.tournament_id, named_event(read));
        if let [config] = his.as_slice()
            && config.tournament_id != self.config.tournament_id
            && let Some(clerk) = self.sibling(&config.tournament_id)
        {
            return Ok(of_event(
                clerk.letters().plan_event_status(store, written, stored)?,
                config,
            ));
        }
        let ids: Vec<&str> = his.iter().map(|c| c.tournament_id.as_str()).collect();
        let mut events = Vec::new();
        for config in &his {
            events.push((*config, self.event_games(store, config)?));
        }
        let answer = |events: &[(&Config, Vec<Model>)], part: Part| {
            self.draft(MessageKind::Status)
                .to(to.clone())
                .answering(mail.message_id.clone())
                .notice(model! {
                    "events" => events_model(events),
                    "unknown_event" => unknown_event.clone(),
                    "games" => Vec::<Model>::new(),
                    "finished" => Vec::<Model>::new(),
                    "part" => part.at,
                    "parts" => part.of,
                    "ids" => ids.join(", "),
                    "boards_left_out" => false,
                    // Signed by the clerk of every event the answer is of.
                    "clerk_of" => his.iter().map(|c| c.tournament_name.clone()).collect::<Vec<_>>(),
                })
        };
        let mut parts = self.within_limit(&events, answer)?.into_iter();
        stored.reason = match parts.len() {
            1 => "status asked by an official: answered".into(),
            count => format!(
                "status asked by an official: answered in {count} parts, the list being longer than a message may be"
            ),
        };
        let Some(first) = parts.next() else {
            return Err(Error::internal("an official's status answered in no part"));
        };
        let mut plan = Plan::default().answered(first, EventKind::Status, &sender, stored);
        plan.messages.extend(parts);
        Ok(plan)
    }

    /// The answer `answer` makes of `events`: one message where it fits
    /// within the limit of a message, else the list in parts, each within
    /// the limit, each saying which it is and how to ask for one event.
    fn within_limit<'c>(
        &self,
        events: &[(&'c Config, Vec<Model>)],
        answer: impl Fn(&[(&'c Config, Vec<Model>)], Part) -> Notice,
    ) -> Result<Vec<Notice>, Error> {
        let whole = answer(events, Part { at: 1, of: 1 });
        let limit = self.config.limits.max_message_bytes;
        let whole_size = self.size_said(&whole)?;
        if whole_size <= limit {
            return Ok(vec![whole]);
        }
        let games: usize = events.iter().map(|(_, games)| games.len()).sum();
        let mut per_part = games * limit / whole_size.max(1) * 9 / 10;
        loop {
            let parts = in_parts(events, per_part.max(1));
            let of = parts.len();
            let notices: Vec<Notice> = parts
                .iter()
                .enumerate()
                .map(|(at, part)| answer(part, Part { at: at + 1, of }))
                .collect();
            let mut sizes = Vec::with_capacity(notices.len());
            for notice in &notices {
                sizes.push(self.size_said(notice)?);
            }
            if per_part <= 1 || sizes.iter().all(|size| *size <= limit) {
                return Ok(notices);
            }
            per_part /= 2;
        }
    }

    /// An event's games, a line each: tag, players, moves, totals, and who
    /// is to move by when.
    fn event_games(&self, store: &Store, config: &Config) -> Result<Vec<Model>, Error> {
        let today = self.clock.today;
        let mut games = Vec::new();
        for game in config.draw().games() {
            let state = crate::clerk::load_replaying(config, store, game, &self.replays)?;
            // A move forwarded in this run reaches him today.
            let due = state.ledger.due_if_delivered(&config.rules, today);
            let result = state.ledger.standing.result_pgn();
            games.push(model! {
                "tag" => SubjectTag::game(&config.tournament_id, &game.id).to_string(),
                "white" => state.white.name.as_str(),
                "black" => state.black.name.as_str(),
                "moves" => state.ledger.rows.len().div_ceil(2),
                "totals" => state.ledger.totals().to_string(),
                "suspended" => state.ledger.status() == Status::Suspended,
                "result" => result,
                "begins" => game.start_date.filter(|start| today < *start).map(crate::clerk::say::words::date),
                "over" => !state.ledger.in_play(),
                "status" => self.status_word(&state),
                "due" => due.map(|due| model! {
                    "player" => state.player(due.player).name.as_str(),
                    "last_day" => crate::clerk::say::words::date(due.last_day),
                }),
            });
        }
        Ok(games)
    }
}

/// A plan another event's clerk made: its messages that event's (its tag,
/// name and Message-ID).
/// Which part of an answer in parts a message is: `at` of `of`.
#[derive(Clone, Copy)]
struct Part {
    at: usize,
    of: usize,
}

/// The events of an official's answer, each with its games' lines.
fn events_model(events: &[(&Config, Vec<Model>)]) -> Vec<Model> {
    events
        .iter()
        .map(|(config, games)| {
            model! {
                "id" => config.tournament_id.as_str(),
                "name" => config.tournament_name.as_str(),
                "games" => games.clone(),
            }
        })
        .collect()
}

fn of_event(mut plan: Plan, config: &Config) -> Plan {
    for message in &mut plan.messages {
        message.event = Some(config.tournament_id.clone());
    }
    plan
}

/// The events' game lines in parts of at most `per_part` lines, each part
/// its events in order, an event cut where a part ends.
fn in_parts<'c>(
    events: &[(&'c Config, Vec<Model>)],
    per_part: usize,
) -> Vec<Vec<(&'c Config, Vec<Model>)>> {
    let mut parts = vec![Vec::new()];
    let mut room = per_part;
    for (config, games) in events {
        let mut games = games.as_slice();
        loop {
            if room == 0 {
                parts.push(Vec::new());
                room = per_part;
            }
            let (here, rest) = games.split_at(games.len().min(room));
            room -= here.len();
            if let Some(part) = parts.last_mut() {
                part.push((*config, here.to_vec()));
            }
            games = rest;
            if games.is_empty() {
                break;
            }
        }
    }
    parts
}

/// The event a `STATUS` names after its word, if it names one.
fn named_event(read: &Letter) -> Option<&str> {
    read.status.as_ref()?.event.as_deref()
}

/// The events a `STATUS` is about: the one `named` where it is among
/// `events`, else all of them, with the name that named none of them.
fn named_in<T>(
    mut events: Vec<T>,
    id: impl Fn(&T) -> &String,
    named: Option<&str>,
) -> (Vec<T>, Option<String>) {
    let Some(named) = named else {
        return (events, None);
    };
    if events.iter().any(|e| crate::key::same_id(named, id(e))) {
        events.retain(|e| crate::key::same_id(named, id(e)));
        (events, None)
    } else {
        (events, Some(named.to_string()))
    }
}

/// A game's tag in its event (`[RU-CUP #3]`) and the name of `colour`'s
/// partner in it, as his answer names them.
fn tag_and_partner(state: &Record, config: &Config, colour: Color) -> (String, String) {
    let tag = SubjectTag::game(&config.tournament_id, state.id()).to_string();
    (tag, state.player(colour.other()).name.clone())
}

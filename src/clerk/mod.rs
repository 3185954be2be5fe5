//! The clerk at work: each new letter is identified, read, resolved on its
//! game and handed to the rules, and what the rules say it causes becomes a
//! [`Plan`]: the letter as stored, the game's new state, notes, and the
//! messages. The plan is written in one transaction; the messages go out after
//! the commit. The clerk decides nothing of a game's life itself: the
//! transitions of [`crate::rules::life`] do, and the clerk maps their effects
//! to messages.
//!
//! Planning reads the store but never writes it, so `shtempel check` shows
//! exactly what a `poll` would do.
//!
//! - `route`: which tournament a letter is for, decided once ([`Route`]);
//!   `prepared`: a letter read ahead, as its event reads letters;
//! - `letters`: who sent a letter, and what is done with mail that is no
//!   player's letter; `identify`: which game a player's letter is for;
//!   `blocks`: a letter written for several games, block by block;
//!   `refusals`: the answers of a letter that changes nothing;
//! - `order`: an order of the arbiter's or the director's, one type each,
//!   carried out; `accept`, `awards`, `replace`, `withdraw`, `retry`: what
//!   they plan;
//! - `moves`: move letters, their receipts and forwards;
//! - `endings`: resignations, draws and results;
//! - `leave`: a person's leave, in each of his events;
//! - `overstep`: an overstep's notices and file, and letters held during a
//!   suspension;
//! - `protest`: an overstepper's protest;
//! - `arbiter`: the chief arbiter's rulings;
//! - `duties`: the calendar's duties; `start`: the start sheets;
//! - `plan`: what a letter changes, before it is written;
//! - `draft`, `model`: a message and what templates read of a game and of a
//!   letter; `event`: the kinds of what the clerk did;
//! - `load`: a game loaded from the store.

mod accept;
mod arbiter;
mod awards;
mod blocks;
mod draft;
mod duties;
mod endings;
mod event;
mod identify;
mod leave;
mod letters;
mod load;
mod model;
mod moves;
pub mod order;
mod overstep;
mod plan;
mod prepared;
mod protest;
mod refusals;
mod replace;
mod retry;
mod route;
mod start;
mod withdraw;

use std::collections::HashMap;

use chrono::{DateTime, NaiveDate, Utc};

pub use self::accept::Acceptance;
pub use self::awards::{Award, AwardError, AwardedBy};
use self::draft::Draft;
pub use self::event::EventKind;
pub use self::load::{load, load_replaying, stored_chart};
pub use self::model::{label_moves, next_lines};
pub use self::order::{Execution, Order, Refused, Whom};
pub use self::plan::{EntryThere, Event, LeaveTaken, Plan};
use self::prepared::keep_unread;
pub use self::prepared::{Prepared, stored_reading};
pub use self::retry::POISON_RUNS;
pub use self::route::{Directory, Route, RoutedBy, route, route_kept, route_prepared};
pub use self::start::Sheet;
use crate::config::{Config, Player};
use crate::error::Error;
use crate::game::Replays;
use crate::mail::Envelope;
use crate::mail::format::compose::{Outgoing, Recipient};
use crate::mail::format::mime::Mail;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::{Model, Templates, merged};
use crate::rules;
use crate::store::{Note, Store};

/// The most of a reason or an event's detail kept or printed.
pub const REASON_MOST: usize = 512;

/// The day a run acts on, and the moment it stamps on what it sends.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub today: NaiveDate,
    pub now: DateTime<Utc>,
}

impl Clock {
    /// The clock of a run at `now` (the machine's, read by `main`) in a
    /// tournament of `zone`: its day is `today` if given (`--today`), else
    /// the date in the zone; with `today` the moment stamped on messages is
    /// that day at `now`'s time.
    pub fn of(zone: chrono_tz::Tz, now: DateTime<Utc>, today: Option<NaiveDate>) -> Clock {
        let real_today = rules::postmark_date(&now, zone);
        match today {
            None => Clock {
                today: real_today,
                now,
            },
            Some(day) => Clock {
                today: day,
                now: now + chrono::Duration::days(rules::days(real_today, day)),
            },
        }
    }
}

/// A reason as a note ends with it: `: he misread`, or nothing.
fn because(why: Option<&str>) -> String {
    why.map(|why| format!(": {why}")).unwrap_or_default()
}

/// The Message-IDs a letter answers, nearest first (`In-Reply-To`, then
/// `References` from the last), each as written and in angle brackets: the
/// thread that tells its game.
pub fn thread_ids(mail: &Mail) -> impl Iterator<Item = String> + '_ {
    mail.in_reply_to
        .iter()
        .chain(mail.references.iter().rev())
        .flat_map(|id| [id.clone(), format!("<{id}>")])
}

fn recipient(player: &Player) -> Recipient {
    Recipient {
        name: player.name.clone(),
        email: player.email.clone(),
    }
}

/// A board as a message shows it: the template's values, the diagram's
/// text (the HTML part puts the picture in its place), the picture's
/// words, and what the picture is drawn from.
struct BoardView {
    model: Model,
    diagram: String,
    alt: String,
    position: shakmaty::Chess,
    last: Option<shakmaty::Move>,
    reader: shakmaty::Color,
}

impl BoardView {
    /// The board's picture for a message whose text is `body`, with
    /// `diagrams = "both"`; none where the text does not show the board (a
    /// template may show it to the player to move only).
    fn picture(
        self,
        diagrams: crate::config::Diagrams,
        body: &str,
    ) -> Result<Option<crate::mail::format::compose::Picture>, Error> {
        if diagrams != crate::config::Diagrams::Both || !body.contains(&self.diagram) {
            return Ok(None);
        }
        let png = crate::board::picture::png(&self.position, self.reader, self.last.as_ref())?;
        Ok(Some(crate::mail::format::compose::Picture {
            diagram: self.diagram,
            png,
            alt: self.alt,
            side: self.reader,
        }))
    }
}

/// The clerk's work on letters.
pub struct Clerk<'a> {
    pub config: &'a Config,
    pub templates: &'a Templates,
    pub clock: Clock,
    /// The games' records as the run's letters left them.
    pub replays: Replays,
    /// Every tournament the clerk serves, this one among them, and who is
    /// known in which: a letter that does not say which one it is for,
    /// from a player in several, is asked about rather than taken.
    pub directory: &'a Directory<'a>,
}

impl<'a> Clerk<'a> {
    /// The clerk of `config`, one of `directory`'s tournaments, with no
    /// game replayed yet.
    pub fn new(
        config: &'a Config,
        templates: &'a Templates,
        clock: Clock,
        directory: &'a Directory<'a>,
    ) -> Clerk<'a> {
        Clerk {
            config,
            templates,
            clock,
            replays: Replays::default(),
            directory,
        }
    }

    /// The clerk of each of `directory`'s tournaments whose templates it
    /// holds, each on its clock.
    pub fn of_each(
        directory: &'a Directory<'a>,
        clock: impl Fn(&Config) -> Clock,
    ) -> Vec<Clerk<'a>> {
        let tournaments = directory.tournaments();
        (0..tournaments.len())
            .filter_map(|at| {
                let config = &tournaments[at];
                let templates = directory.templates_at(at)?;
                Some(Clerk::new(config, templates, clock(config), directory))
            })
            .collect()
    }

    /// The clerk of another of the directory's tournaments, by its id, as
    /// of this one's day (a folder's events keep one day: a zone apart
    /// shifts it by a day at most, around midnight); `None` where its
    /// templates were not given. Its store reads and writes need the
    /// store's scope set to its tournament.
    pub fn sibling(&self, id: &str) -> Option<Clerk<'a>> {
        let tournaments = self.directory.tournaments();
        let at = tournaments.iter().position(|t| t.tournament_id == id)?;
        let templates = self.directory.templates_at(at)?;
        Some(Clerk::new(
            &tournaments[at],
            templates,
            self.clock,
            self.directory,
        ))
    }

    fn lang(&self) -> crate::Lang {
        self.config.language
    }

    fn phrases(&self) -> &crate::phrases::Phrases {
        self.templates.phrases()
    }

    fn date(&self, date: NaiveDate) -> String {
        self.lang().date(date)
    }

    /// A note of today's under a game's chart, of no one move.
    fn note(&self, kind: &str, text: String) -> Note {
        Note {
            ply: None,
            kind: kind.into(),
            text,
            created_on: self.clock.today,
        }
    }

    /// The position of `state` as a board from `reader`'s side, for a
    /// message that asks him for a move (`[mail] diagrams`): the text
    /// diagram, its FEN, and the last move's label; none with
    /// `diagrams = "none"`.
    fn board_view(&self, state: &Record, reader: shakmaty::Color) -> Option<BoardView> {
        if self.config.mail.diagrams == crate::config::Diagrams::None {
            return None;
        }
        let phrases = self.phrases();
        let position = state.board.position();
        let last = state.board.moves().last().map(|played| played.mv);
        let letters = crate::board::diagram::PieceLetters::of(phrases);
        let last_label = state.ledger.rows.last().map(|row| {
            let ply = state.ledger.rows.len() - 1;
            phrases.moves(&label_moves(ply, &[(row.san.clone(), false)]))
        });
        let diagram = crate::board::diagram::text(position, reader, last.as_ref(), &letters);
        let alt = match &last_label {
            Some(last) => phrases.fill("board.picture_after", &[("last", last)]),
            None => phrases.get("board.picture_start").to_string(),
        };
        Some(BoardView {
            model: model! {
                "diagram" => diagram.as_str(),
                "fen" => crate::board::diagram::fen(position),
                "last" => last_label,
            },
            diagram,
            alt,
            position: position.clone(),
            last,
            reader,
        })
    }

    fn base_model(&self, state: Option<&Record>, to: &str) -> Model {
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
            "today" => self.date(self.clock.today),
            // Said in a receipt of a letter the director accepted after
            // its refusal (`accept`).
            "accepted" => Option::<String>::None,
        }
    }

    /// A message of `kind` to make (see [`Draft`]).
    fn draft<'r>(&self, kind: MessageKind) -> Draft<'_, 'a, 'r> {
        Draft::new(self, kind)
    }

    /// The arbiter's or secretary's recipient.
    fn official(&self, email: &str, title: &str) -> Recipient {
        Recipient {
            name: self.phrases().get(title).to_string(),
            email: email.to_string(),
        }
    }

    /// A game as the chief arbiter's order names it: `1`, or in a folder
    /// `RU-FIN 1` (the clerk of several refuses `CONFIRM 1` as not saying
    /// which tournament's).
    pub fn ruling_game(&self, state: &Record) -> String {
        match self.directory.several() {
            true => format!("{} {}", self.config.tournament_id, state.id()),
            false => state.id().to_string(),
        }
    }

    pub fn arbiter(&self) -> Recipient {
        self.official(&self.config.chief_arbiter, "names.chief_arbiter")
    }

    pub fn secretary(&self) -> Recipient {
        self.official(&self.config.chief_secretary, "names.chief_secretary")
    }

    /// Plans what to do with one letter. Never writes anything.
    pub fn plan(&self, store: &Store, envelope: &Envelope) -> Result<Plan, Error> {
        let prepared = Prepared::new(self.config, envelope);
        self.plan_prepared(store, envelope, &prepared)
    }

    /// Plans a letter whose reading was prepared (perhaps on another thread).
    pub fn plan_prepared(
        &self,
        store: &Store,
        envelope: &Envelope,
        prepared: &Prepared,
    ) -> Result<Plan, Error> {
        let plan = self.plan_letter(store, envelope, prepared)?;
        self.limit_replies(store, plan)
    }

    /// Replies that would pass `max_replies_per_day` to one address are
    /// dropped; the first one over the limit becomes a single notice, in the
    /// thread and under the tag of its game. A refusal is never dropped: a
    /// player whose letter changed nothing is always told. Past the limit it
    /// is held to the first later day with room (it counts there), so that a
    /// mail loop with a careless auto-responder stays at the limit a day.
    fn limit_replies(&self, store: &Store, mut plan: Plan) -> Result<Plan, Error> {
        let Some(sender) = plan.letter.as_ref().and_then(|l| l.sender.clone()) else {
            return Ok(plan);
        };
        // Replies go to a player's first address, whichever he wrote from.
        let sender = match self.config.player_by_email(&sender) {
            Some(player) => player.email.clone(),
            None => sender,
        };
        let max = self.config.limits.max_replies_per_day;
        let today = self.clock.today;
        let replies_on = |day| store.replies_on(&sender, day, &MessageKind::reply_headers());
        let mut sent = replies_on(today)?;
        // Refusals this plan holds, by day, on top of the stored ones.
        let mut held: HashMap<NaiveDate, u32> = HashMap::new();
        let mut kept = Vec::with_capacity(plan.messages.len());
        for message in std::mem::take(&mut plan.messages) {
            let reply =
                message.kind.is_reply() && message.to.first().is_some_and(|to| to.email == sender);
            if !reply || sent < max {
                sent += u32::from(reply);
                kept.push(message);
                continue;
            }
            if sent == max {
                sent += 1;
                kept.push(self.limit_notice(&sender, &message)?);
                let game = message.game.as_deref().map(|g| self.config.game_key(g));
                plan.event(
                    EventKind::ReplyLimit,
                    game.as_ref(),
                    Some(&sender),
                    format!("{max} replies today: one notice, refusals held to a later day"),
                );
            }
            let refusal = matches!(message.kind, MessageKind::Refused | MessageKind::Withheld);
            if refusal {
                let mut day = today;
                loop {
                    day = day
                        .succ_opt()
                        .ok_or_else(|| Error::internal("no day after the last"))?;
                    let count = replies_on(day)? + held.get(&day).copied().unwrap_or(0);
                    if count < max {
                        break;
                    }
                }
                *held.entry(day).or_default() += 1;
                kept.push(self.hold(message, day)?);
            } else if message.delivers.is_some() {
                // A reply that carries a move (a conditional reply) still goes.
                kept.push(message);
            }
        }
        plan.messages = kept;
        Ok(plan)
    }

    /// The test message of `shtempel doctor --send-test`, to `address`:
    /// generated, so that no auto-reply answers it.
    pub fn test_message(&self, address: &str) -> Result<Outgoing, Error> {
        let to = Recipient {
            name: String::new(),
            email: address.to_string(),
        };
        let mut message = self.draft(MessageKind::Test).to(to).render(model! {})?;
        message.generated = true;
        Ok(message)
    }

    /// A refusal held to `day`, rendered again to say so: it describes the
    /// letter as it was, and offers no lines for a game that may have moved on.
    fn hold(&self, mut message: Outgoing, day: NaiveDate) -> Result<Outgoing, Error> {
        let held = model! {
            "held" => self.date(day),
            "limit" => self.config.limits.max_replies_per_day,
            "next" => Model::from(()),
        };
        self.render_again(&mut message, held)?;
        message.send_on = Some(day);
        Ok(message)
    }

    /// Renders a message again with `more` over its model.
    pub(super) fn render_again(&self, message: &mut Outgoing, more: Model) -> Result<(), Error> {
        let model = merged(more, message.model.clone());
        let rendered = self
            .templates
            .render(message.kind.template(), model.clone())
            .map_err(Error::template)?;
        message.subject = rendered.subject;
        message.body = rendered.body;
        message.model = model;
        Ok(())
    }

    /// The notice that the day's replies to `sender` are used up, in the
    /// thread and under the tag of the reply it replaces, naming the
    /// sender's games when he plays more than one.
    fn limit_notice(&self, sender: &str, replaced: &Outgoing) -> Result<Outgoing, Error> {
        let games: Vec<String> = match self.config.player_by_email(sender) {
            Some(player) => self.config.games_of(&player.id),
            None => Vec::new(),
        }
        .into_iter()
        .map(|g| g.id.clone())
        .collect();
        let model = model! {
            "count" => self.config.limits.max_replies_per_day,
            "game" => replaced.game.as_deref(),
            "games" => if games.len() > 1 { games } else { Vec::new() },
        };
        let mut notice = self
            .draft(MessageKind::Limit)
            .each_of(replaced.to.clone())
            .answering(replaced.in_reply_to.clone())
            .render(model)?;
        notice.game = replaced.game.clone();
        Ok(notice)
    }
}

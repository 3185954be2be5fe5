//! The clerk at work: each new letter is identified, read, resolved on its
//! game and handed to the rules, and what the rules say it causes becomes a
//! [`Plan`]: the letter as stored, the game's new state, notes, and the
//! messages as notices (their facts, not yet worded). Once the plan is
//! decided, one step says each notice to its reader, in his language and
//! with his board ([`SaidPlan`]). The plan is written in one transaction;
//! the messages go out after the commit. The clerk decides nothing of a
//! game's life itself: the transitions of [`crate::rules::life`] do, and
//! the clerk maps their effects to notices.
//!
//! Planning reads the store but never writes it, so `shtempel check` shows
//! exactly what a `poll` would do.
//!
//! The clerk is cut by job, each folder's calls pointing down the list
//! (`tests/it/layout.rs` reads the calls between the folders and holds
//! them to it). A job folder's methods are on its own type ([`Intake`],
//! [`Calendar`], [`Letters`], [`Orders`]: a borrow of the [`Clerk`],
//! `clerk.letters()`); `say` and the files beside the folders are the
//! clerk's own, which every job calls:
//!
//! - `intake`: the gate (what a letter is and from whom), a letter no game
//!   is found for answered (`unidentified`), the letter handed on by kind;
//! - `calendar`: the calendar's duties, the start sheets and the day's
//!   digests;
//! - `letters`: a player's letter on its game, by kind (moves, endings,
//!   protests, an offender's letters, leaves, the other games of one
//!   letter), and the chief arbiter's letter read as his order;
//! - `order`: an order of the arbiter's or the director's, one type and one
//!   file each (accept, decide, replace, retry, score, undo, withdraw,
//!   login; the awards they share), carried out;
//! - `say`: what is said: a notice drafted, the board it shows, what
//!   templates read of a game and a letter, the refusals, a game's end
//!   told, the day's replies held to their limit, and the say step that
//!   words every notice for its reader;
//! - and beside them, what all of them share: `route` (which tournament a
//!   letter is for, decided once: [`Route`]), `find` (which game a
//!   player's letter is for), `prepared` (a letter read
//!   ahead, as its event reads letters), `context` (the letter in hand, as
//!   intake gives it to the letters' handlers), `plan` (what a letter
//!   changes, before it is written), `event` (the kinds of what the clerk
//!   did), `load` (a game loaded from the store) and `login` (a login to
//!   the Xfcc server issued, by letter or by the director).

mod calendar;
mod context;
mod event;
mod find;
mod intake;
mod letters;
mod load;
mod login;
pub mod order;
mod plan;
mod prepared;
mod route;
mod say;

use crate::phrases::Phrases;
use chrono::{DateTime, NaiveDate, Utc};

pub use self::calendar::start::Sheet;
pub use self::event::EventKind;
pub use self::load::{load, load_replaying, stored_chart};
pub use self::order::accept::Acceptance;
pub use self::order::awards::Award;
pub use self::order::retry::POISON_RUNS;
pub use self::order::{Execution, NotDone, Order, Ordered, Refused, Whom};
pub use self::plan::{EntryThere, Event, Fate, LeaveTaken, Plan, SaidPlan, Writes};
pub use self::prepared::{Prepared, stored_reading};
use self::prepared::{bound_fields, keep_unread};
pub use self::route::{Directory, Route, RoutedBy, route, route_kept, route_prepared};
use self::say::draft::Draft;
pub use self::say::model::{label_moves, next_lines};
use crate::config::{Config, Player};
use crate::error::Error;
use crate::game::Replays;
use crate::mail::Envelope;
use crate::mail::format::compose::{Outgoing, Recipient};
use crate::mail::format::mime::Mail;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::{Model, Templates};
use crate::rules;
pub use crate::rules::interventions::AwardedBy;
use crate::store::{Note, Store};

/// The most of a reason or an event's detail kept or printed.
pub const REASON_MOST: usize = 512;

/// The day a run acts on, and the moment it stamps on what it sends.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    pub today: NaiveDate,
    pub now: DateTime<Utc>,
    /// The day was given (`--today`): the run acts as that day's last, so
    /// that what goes from an hour of the day (a daily digest) goes.
    pub day_given: bool,
}

impl Clock {
    /// A run as of `today` (a day given), at the moment `now`.
    pub fn of_day(today: NaiveDate, now: DateTime<Utc>) -> Clock {
        Clock {
            today,
            now,
            day_given: true,
        }
    }

    /// Whether the day's digests are due: from `hour` of `zone`'s day, or
    /// in a run as of a day given.
    pub fn past_hour(&self, zone: chrono_tz::Tz, hour: u32) -> bool {
        use chrono::Timelike;
        self.day_given || self.now.with_timezone(&zone).hour() >= hour
    }

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
                day_given: false,
            },
            Some(day) => Clock {
                today: day,
                now: now + chrono::Duration::days(rules::days(real_today, day)),
                day_given: true,
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

pub(crate) fn recipient(player: &Player) -> Recipient {
    Recipient {
        name: player.name.clone(),
        email: player.email.clone(),
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
    /// What the run derives new Xfcc passwords from (drawn by the binary);
    /// `None`: this run issues none (a dry run's, the demo's).
    pub seed: Option<crate::xfcc::login::Seed>,
}

/// Makes `$job` one of the clerk's jobs: the methods of one job folder,
/// over the context every job shares (the tournament, its templates, the
/// clock, the directory; what is found and said), which it reaches through
/// `Deref`. A job is a borrow of the clerk, made by the clerk's method of
/// its name (`clerk.letters()`), so a folder's methods are its type's alone.
macro_rules! job {
    ($job:ident, $made_by:ident, $folder:literal) => {
        #[doc = concat!("The clerk's work in `clerk/", $folder, "/`.")]
        #[derive(Clone, Copy)]
        pub struct $job<'c, 'a>(&'c Clerk<'a>);

        impl<'a> std::ops::Deref for $job<'_, 'a> {
            type Target = Clerk<'a>;
            fn deref(&self) -> &Clerk<'a> {
                self.0
            }
        }

        impl<'a> Clerk<'a> {
            #[doc = concat!("The clerk at its work in `clerk/", $folder, "/`.")]
            pub fn $made_by(&self) -> $job<'_, 'a> {
                $job(self)
            }
        }
    };
}

job!(Intake, intake, "intake");
job!(Calendar, calendar, "calendar");
job!(Letters, letters, "letters");
job!(Orders, orders, "order");

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
            seed: None,
        }
    }

    /// The same clerk, issuing Xfcc logins from `seed`.
    pub fn with_seed(self, seed: crate::xfcc::login::Seed) -> Clerk<'a> {
        Clerk {
            seed: Some(seed),
            ..self
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
        let sibling = Clerk::new(&tournaments[at], templates, self.clock, self.directory);
        Some(Clerk {
            seed: self.seed,
            ..sibling
        })
    }

    /// The event's language: its log's and its files' (a message is
    /// said in its reader's, see [`say`]).
    fn lang(&self) -> crate::Lang {
        self.config.language
    }

    fn phrases(&self) -> &Phrases {
        self.templates.phrases()
    }

    fn date(&self, date: NaiveDate) -> String {
        self.lang().date(date)
    }

    /// A note of today's under a game's chart, of no one move, worded by
    /// `text` in the event's language and, where the other language's
    /// templates load, in that one too (for a reader who chose it).
    fn note(&self, kind: crate::store::NoteKind, text: impl Fn(&Phrases) -> String) -> Note {
        self.note_at(None, kind, text)
    }

    /// [`Clerk::note`], at the move `ply`.
    fn note_at(
        &self,
        ply: Option<usize>,
        kind: crate::store::NoteKind,
        text: impl Fn(&Phrases) -> String,
    ) -> Note {
        let event = self.config.language;
        let other = event.other();
        Note {
            ply,
            kind,
            text: text(self.phrases_in(event).unwrap_or(self.phrases())),
            other: self.phrases_in(other).map(|phrases| (other, text(phrases))),
            created_on: self.clock.today,
        }
    }

    /// The phrases of `lang` for this event (its director's own, where
    /// he wrote them); `None` where they cannot be loaded.
    fn phrases_in(&self, lang: crate::Lang) -> Option<&Phrases> {
        if lang == self.lang() {
            return Some(self.phrases());
        }
        let at = self.directory.place_of(&self.config.tournament_id)?;
        Some(self.directory.templates_in(at, lang)?.phrases())
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
            "today" => crate::clerk::say::words::date(self.clock.today),
            // Said in a receipt of a letter the director accepted after
            // its refusal (`accept`).
            "accepted" => Option::<String>::None,
            // Kept for the reader's daily digest (set as it is said to him).
            "digest" => false,
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
    pub fn plan(&self, store: &Store, envelope: &Envelope) -> Result<SaidPlan, Error> {
        let prepared = Prepared::new(self.config, envelope);
        self.plan_prepared(store, envelope, &prepared)
    }

    /// Plans a letter whose reading was prepared (perhaps on another thread).
    pub fn plan_prepared(
        &self,
        store: &Store,
        envelope: &Envelope,
        prepared: &Prepared,
    ) -> Result<SaidPlan, Error> {
        let plan = self.decided(store, envelope, prepared)?;
        self.said(store, plan)
    }

    /// What a letter whose reading was prepared changes, decided: its
    /// plan, its replies held to the day's limit, not yet said.
    fn decided(
        &self,
        store: &Store,
        envelope: &Envelope,
        prepared: &Prepared,
    ) -> Result<Plan, Error> {
        let plan = self.intake().plan_letter(store, envelope, prepared)?;
        self.limit_replies(store, plan)
    }

    /// The test message of `shtempel doctor --send-test`, to `address`:
    /// generated, so that no auto-reply answers it.
    pub fn test_message(&self, address: &str) -> Result<Outgoing, Error> {
        let to = Recipient {
            name: String::new(),
            email: address.to_string(),
        };
        let mut notice = self.draft(MessageKind::Test).to(to).notice(model! {});
        notice.generated = true;
        self.said_as(notice, crate::config::Preferences::default(), None)
    }
}

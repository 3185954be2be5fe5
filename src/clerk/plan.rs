//! What one letter (or one day's duty) changes, before it is written: the
//! clerk's [`Plan`], and the events it reports.

use chrono::NaiveDate;
use serde::Serialize;

use crate::clerk::EventKind;
use crate::clerk::say::notice::Notice;
use crate::mail::format::compose::Outgoing;
use crate::mail::format::keys::FIELD_MOST;
use crate::record::Record;
use crate::rules::DutyKey;
use crate::store::{Disposition, Note, StoredLetter};

use crate::clerk::REASON_MOST;

/// Something the clerk did, for the log, `poll --json` and the demo.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    pub event: EventKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<crate::key::GameKey>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub detail: String,
}

/// What becomes of a letter, as its handler decided: carried out,
/// refused or left alone, and the log's words for why. The intake writes
/// it on the letter it keeps; a handler never touches the letter itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fate {
    pub disposition: Disposition,
    pub reason: String,
}

impl Fate {
    pub fn applied(reason: impl Into<String>) -> Fate {
        Fate {
            disposition: Disposition::Applied,
            reason: reason.into(),
        }
    }

    pub fn refused(reason: impl Into<String>) -> Fate {
        Fate {
            disposition: Disposition::Refused,
            reason: reason.into(),
        }
    }

    pub fn ignored(reason: impl Into<String>) -> Fate {
        Fate {
            disposition: Disposition::Ignored,
            reason: reason.into(),
        }
    }

    /// `letter`, with this fate.
    pub fn on(self, letter: StoredLetter) -> StoredLetter {
        StoredLetter {
            disposition: self.disposition,
            reason: self.reason,
            ..letter
        }
    }
}

/// What one letter (or one day's duty) changes, before it is written:
/// what it writes ([`Writes`]), and its messages decided ([`Notice`]s) or
/// said to their readers ([`Outgoing`], see [`SaidPlan`]).
#[derive(Debug)]
pub struct Plan<M = Notice> {
    pub writes: Writes,
    pub messages: Vec<M>,
    /// The other games the same letter changes (a withdrawal by the chief
    /// arbiter's letter), written with it in one transaction.
    pub more: Vec<Plan<M>>,
    /// A leave taken in the person's other events too: for each, his entry
    /// there and the notices to his partners there, decided by that
    /// event's clerk and said in its words; committed after this plan,
    /// with the leave recorded there.
    pub elsewhere: Vec<(EntryThere, Plan<M>)>,
}

/// What a plan writes in its transaction, whatever its messages are: the
/// letter and its fate, the game, a leave, settings, edits, notes, the
/// calendar's duties done and the events of the log.
#[derive(Debug, Default)]
pub struct Writes {
    pub letter: Option<StoredLetter>,
    /// What becomes of the letter, where a handler that does not hold it
    /// decided (its caller writes it on [`Writes::letter`]).
    pub fate: Option<Fate>,
    pub game: Option<Record>,
    /// The game's moves from this ply on are taken back (`UNDO`).
    pub taken_back: Option<usize>,
    /// A person's leave taken, and the events that record it.
    pub leave: Option<LeaveTaken>,
    /// A player replaced from this day on: the leaves of his seat from then
    /// are the leaver's, not his successor's (`player` is the seat's id).
    pub leaves_left: Option<(String, NaiveDate)>,
    /// Edits of the tournament's file the letter orders (a player
    /// replaced, an address added), written once it is committed.
    pub config_edits: Vec<crate::config::edit::ConfigEdit>,
    /// Letters set aside to go back into the mail source (`RETRY KEY`),
    /// by key.
    pub releases: Vec<String>,
    pub notes: Vec<Note>,
    /// A reader's own preferences set (`DIAGRAMS`, `LANGUAGE`), for each
    /// of his addresses.
    pub preferences: Option<(Vec<String>, crate::config::Preferences)>,
    /// Who played the game's colours before a replacement, recorded with it.
    pub seats: Vec<crate::record::Seat>,
    /// Xfcc logins issued.
    pub logins: Vec<IssuedLogin>,
    pub duties: Vec<DutyKey>,
    /// A digest's messages (outbox ids), which go with it.
    pub digest_of: Vec<i64>,
    pub events: Vec<Event>,
}

/// An Xfcc login issued: the user name, the address and hash kept, and the
/// person's games, numbered on the server now (so that his program's first
/// call reads their numbers, and never waits to write them beside a poll).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssuedLogin {
    pub username: String,
    pub login: crate::store::XfccLogin,
    pub games: Vec<crate::key::GameKey>,
}

/// The one value two plans write where a plan holds one (the game, the
/// fate, a leave): the same in both, or written by one of them. Two
/// different values would lose one of them at the commit: no planning
/// makes them (every test runs with this held in debug builds), and a
/// release build keeps this plan's.
fn one_of<T: std::fmt::Debug>(
    mine: Option<T>,
    theirs: Option<T>,
    same: impl Fn(&T, &T) -> bool,
) -> Option<T> {
    if let (Some(mine), Some(theirs)) = (&mine, &theirs) {
        debug_assert!(same(mine, theirs), "a write lost: {mine:?} over {theirs:?}");
    }
    mine.or(theirs)
}

impl Writes {
    /// Takes in what another plan writes (its letter aside): the settings
    /// of both, every list's rows, and where each holds one value (the
    /// game, the fate, a leave), the one both write ([`one_of`]).
    fn absorb(&mut self, other: Writes) {
        let Writes {
            letter: _,
            fate,
            game,
            taken_back,
            leave,
            leaves_left,
            config_edits,
            releases,
            notes,
            preferences,
            seats,
            logins,
            duties,
            digest_of,
            events,
        } = other;
        self.preferences = match (self.preferences.take(), preferences) {
            // Two settings of one letter: both, the later over the earlier.
            (Some((mut addresses, set)), Some((more, newer))) => {
                for address in more {
                    if !addresses.contains(&address) {
                        addresses.push(address);
                    }
                }
                Some((addresses, set.with(newer)))
            }
            (set, other) => set.or(other),
        };
        // The game's state of both is one state: the plans taken in are of
        // the same game, or of none (another game's plan goes in `more`).
        let same_game = |a: &Record, b: &Record| a.key == b.key && a.ledger == b.ledger;
        self.game = one_of(self.game.take(), game, same_game);
        self.fate = one_of(self.fate.take(), fate, PartialEq::eq);
        self.taken_back = one_of(self.taken_back, taken_back, PartialEq::eq);
        self.leave = one_of(self.leave.take(), leave, PartialEq::eq);
        self.leaves_left = one_of(self.leaves_left.take(), leaves_left, PartialEq::eq);
        self.config_edits.extend(config_edits);
        self.releases.extend(releases);
        self.notes.extend(notes);
        self.seats.extend(seats);
        self.logins.extend(logins);
        self.duties.extend(duties);
        self.digest_of.extend(digest_of);
        self.events.extend(events);
    }
}

/// A plan whose messages are said to their readers: what the run commits
/// and `check` shows.
pub type SaidPlan = Plan<Outgoing>;

impl<M> Default for Plan<M> {
    fn default() -> Plan<M> {
        Plan {
            writes: Writes::default(),
            messages: Vec::new(),
            more: Vec::new(),
            elsewhere: Vec::new(),
        }
    }
}

impl<M> Plan<M> {
    /// A plan that writes `writes`, and says nothing yet.
    pub fn writing(writes: Writes) -> Plan<M> {
        Plan {
            writes,
            ..Plan::default()
        }
    }

    /// The plan with each message made by `say` (its nested plans' too),
    /// all else as it is. `say` is given the event whose message it is:
    /// `event` (`None`: the planning event's), or for a plan of the
    /// person's other events ([`Plan::elsewhere`]), that event's id.
    pub fn map_messages<N, E>(
        self,
        event: Option<&str>,
        say: &mut impl FnMut(M, Option<&str>) -> Result<N, E>,
    ) -> Result<Plan<N>, E> {
        let Plan {
            writes,
            messages,
            more,
            elsewhere,
        } = self;
        Ok(Plan {
            writes,
            messages: messages
                .into_iter()
                .map(|message| say(message, event))
                .collect::<Result<_, E>>()?,
            more: more
                .into_iter()
                .map(|more| more.map_messages(event, say))
                .collect::<Result<_, E>>()?,
            elsewhere: elsewhere
                .into_iter()
                .map(|(entry, plan)| {
                    let plan = plan.map_messages(Some(&entry.tournament), say)?;
                    Ok((entry, plan))
                })
                .collect::<Result<_, E>>()?,
        })
    }

    /// The games this plan changes, by key: its own, then those of the
    /// plans it carries.
    pub fn games(&self) -> impl Iterator<Item = &crate::key::GameKey> {
        let more = self
            .more
            .iter()
            .filter_map(|more| more.writes.game.as_ref());
        self.writes.game.iter().chain(more).map(|state| &state.key)
    }

    pub(super) fn event(
        &mut self,
        event: EventKind,
        game: Option<&crate::key::GameKey>,
        from: Option<&str>,
        detail: String,
    ) {
        let bounded = |text: &str, most| crate::printable::bounded(text, most).into_owned();
        self.writes.events.push(Event {
            event,
            game: game.cloned(),
            from: from.map(|from| bounded(from, FIELD_MOST)),
            detail: bounded(&detail, REASON_MOST),
        });
    }
}

impl SaidPlan {
    /// The games a message of this plan delivers a move in (a forward):
    /// the next letter in one must see the day it is delivered.
    pub fn delivering(&self) -> Vec<&crate::key::GameKey> {
        std::iter::once(self)
            .chain(&self.more)
            .filter(|plan| plan.messages.iter().any(|m| m.delivers.is_some()))
            .filter_map(|plan| plan.writes.game.as_ref().map(|state| &state.key))
            .collect()
    }
}

impl Plan {
    /// A plan of several games' plans (a withdrawal's), their events
    /// gathered.
    pub fn of_games(plans: Vec<Plan>) -> Plan {
        let events = plans.iter().flat_map(|plan| plan.writes.events.clone());
        let events = events.collect();
        Plan {
            more: plans,
            ..Plan::writing(Writes {
                events,
                ..Writes::default()
            })
        }
    }

    /// A letter answered with one message, nothing else changed by it: the
    /// answer, its event, and the letter kept with its reason.
    pub(super) fn answered(
        self,
        message: Notice,
        event: EventKind,
        from: &str,
        stored: StoredLetter,
    ) -> Plan {
        let mut plan = self;
        plan.messages.push(message);
        plan.event(event, None, Some(from), stored.reason.clone());
        plan.writes.letter = Some(stored);
        plan
    }

    /// Takes in what an order's plan changes (its letter aside): an
    /// arbiter's letter is applied with it.
    pub(super) fn absorb(&mut self, done: Plan) {
        self.writes.absorb(done.writes);
        self.messages.extend(done.messages);
        self.more.extend(done.more);
        self.elsewhere.extend(done.elsewhere);
    }

    /// Takes in all another plan changes, its letter too (a letter's plan
    /// its handler made): the events this one holds come first.
    pub(super) fn with(mut self, mut done: Plan) -> Plan {
        let letter = done.writes.letter.take();
        self.absorb(done);
        self.writes.letter = self.writes.letter.or(letter);
        self
    }

    /// Takes in a handler's plan whose letter is `letter`: its fate written
    /// on it, then `kept` (how much of it is kept).
    pub(super) fn with_fate_on(
        mut self,
        mut decided: Plan,
        letter: StoredLetter,
        kept: impl FnOnce(StoredLetter) -> StoredLetter,
    ) -> Plan {
        let letter = match decided.writes.fate.take() {
            Some(fate) => fate.on(letter),
            None => letter,
        };
        self.absorb(decided);
        self.writes.letter = Some(kept(letter));
        self
    }

    /// The letter, its reason naming what a part of it taken apart did (a
    /// leave, a setting: `taken`, that part's letter as its plan kept it),
    /// and applied where that part was.
    pub(super) fn note_apart(&mut self, taken: Option<StoredLetter>) {
        if let (Some(main), Some(taken)) = (self.writes.letter.as_mut(), taken) {
            main.reason = format!("{}; {}", main.reason, taken.reason);
            if taken.disposition == Disposition::Applied {
                main.disposition = Disposition::Applied;
            }
        }
    }

    /// Carries the plans of the other games the same letter changes, their
    /// events among its own.
    pub(super) fn carry(&mut self, plans: Vec<Plan>) {
        for mut more in plans {
            self.writes.events.append(&mut more.writes.events);
            self.more.push(more);
        }
    }
}

/// A leave a person's letter took, as each event decided by its own
/// allowance: recorded in the letter's event where it grants it (`here`,
/// his id there), and in each of his other events that grants it, whose
/// partners its clerk tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaveTaken {
    pub days: (NaiveDate, NaiveDate),
    pub here: Option<String>,
    pub elsewhere: Vec<EntryThere>,
}

/// A person's entry in another event of the clerk's: its id, and his id
/// there (which need not be the same).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryThere {
    pub tournament: String,
    pub player: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Diagrams, Preferences};

    /// A plan that takes in another's settings keeps both: the later over
    /// the earlier, for every address either names.
    #[test]
    fn settings_taken_in_are_merged_not_dropped() {
        let set = |address: &str, diagrams, language| {
            Some((
                vec![address.to_string()],
                Preferences {
                    diagrams,
                    language,
                    digest: None,
                },
            ))
        };
        let mut plan = Plan::writing(Writes {
            preferences: set("a@x", Some(Diagrams::Text), None),
            ..Writes::default()
        });
        plan.absorb(Plan::writing(Writes {
            preferences: set("b@x", None, Some(crate::Lang::En)),
            ..Writes::default()
        }));
        let (addresses, merged) = plan.writes.preferences.unwrap();
        assert_eq!(addresses, ["a@x", "b@x"]);
        assert_eq!(
            merged,
            Preferences {
                diagrams: Some(Diagrams::Text),
                language: Some(crate::Lang::En),
                digest: None,
            }
        );
    }

    /// Where a plan holds one value, the value both plans write, or the
    /// one that writes it, is kept.
    #[test]
    fn one_value_written_by_one_plan_or_the_same_by_both_is_kept() {
        let fate = || Some(Fate::applied("move 2. Nf3"));
        let mut plan = Plan::<Notice>::default();
        plan.absorb(Plan::writing(Writes {
            fate: fate(),
            taken_back: Some(3),
            ..Writes::default()
        }));
        plan.absorb(Plan::writing(Writes {
            fate: fate(),
            ..Writes::default()
        }));
        assert_eq!(plan.writes.fate, fate());
        assert_eq!(plan.writes.taken_back, Some(3));
    }

    /// Two plans that write different values where one is held would
    /// lose one at the commit: a debug build (every test's) stops there.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "a write lost")]
    fn two_different_values_of_one_write_are_a_fault_not_a_silent_loss() {
        let mut plan = Plan::<Notice>::writing(Writes {
            taken_back: Some(3),
            ..Writes::default()
        });
        plan.absorb(Plan::writing(Writes {
            taken_back: Some(5),
            ..Writes::default()
        }));
    }
}

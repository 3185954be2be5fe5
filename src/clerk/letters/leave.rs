//! A player's leave: `LEAVE 10.12.2026 - 20.12.2026`
//! (`ОТПУСК …`) in a letter of his own. [`leave::check`] decides; a leave
//! taken is kept (the clocks of his games stop on its days: see
//! `Calendar::leaves`), he is told what he has left of the year's
//! allowance, and the partner of each of his games under way is told, with
//! a note under that game's chart. One refused is answered with why.

use crate::clerk::EventKind;
use crate::clerk::context::Written;
use chrono::{Datelike, NaiveDate};
use shakmaty::Color;

use crate::clerk::say::notice::Notice;
use crate::clerk::say::words::{Sentence, date, text};
use crate::clerk::{EntryThere, Letters, Plan, recipient};
use crate::config::Player;
use crate::error::Error;
use crate::letter::Letter;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules::leave::{self, LeaveRefusal};
use crate::store::{Disposition, Store, StoredLetter};

/// A leave as the person's events decided it, each by its own allowance.
struct Verdicts {
    /// This event's: the days, or why not.
    here: Result<u32, LeaveRefusal>,
    /// The days of leave he has left here in the leave's first year, once
    /// it is taken (where it is).
    left_here: u32,
    /// His entries in the other events that grant it.
    granted: Vec<crate::clerk::EntryThere>,
    /// The tags of his games there, for his receipt.
    granted_games: Vec<String>,
    /// What he has left in each of those, once it is taken: id and days.
    left_there: Vec<Model>,
    /// The events that granted this very leave already.
    already: Vec<String>,
    /// The events that grant no leave.
    without: Vec<String>,
    /// The events that refuse this one.
    refused: Vec<RefusedThere>,
}

/// An event of the person's that refuses the leave, and why (in the words
/// of this clerk's language).
struct RefusedThere {
    tournament: String,
    reason: Sentence,
}

impl Letters<'_, '_> {
    /// A letter asking for leave. `changed`: a game the same letter
    /// changed besides (its move), as it now stands; the leave's notices of
    /// that game speak of it so, and the answer of a refusal speaks of the
    /// leave alone.
    ///
    /// A leave is the person's, and each of his events grants or refuses it
    /// by its own allowance and last day: it is taken where granted (here,
    /// his partners told by this clerk; elsewhere, recorded and told there
    /// by `run::leave_elsewhere`), and refused only where no event grants
    /// it. The receipt says what each event did.
    pub(in crate::clerk) fn plan_leave(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        mut stored: StoredLetter,
        changed: Option<&Record>,
    ) -> Result<Plan, Error> {
        let (mail, read) = (written.mail, written.read);
        let beside = read.without_leave().leading_ask().is_some();
        let postmark = stored.postmark;
        let (first, last) = match asked_days(read, postmark) {
            Ok(days) => days,
            Err(phrase) => {
                let reason = Sentence::phrase(phrase);
                return self.refuse_leave(player, written, stored, vec![reason], beside);
            }
        };
        let verdicts = self.leave_verdicts(store, player, (first, last), postmark)?;
        let days = leave::length((first, last));
        let already_here = verdicts.here == Err(LeaveRefusal::Granted);
        let nothing_new = verdicts.here.is_err() && verdicts.granted.is_empty();
        if nothing_new && !already_here && verdicts.already.is_empty() {
            let reasons = self.leave_refusals(&verdicts, postmark);
            return self.refuse_leave(player, written, stored, reasons, beside);
        }
        let granted_here = verdicts.here.is_ok();
        let (games, notices) = match granted_here {
            true => self.leave_notices(store, player, (first, last), changed)?,
            false => (Vec::new(), Vec::new()),
        };
        let mut plan = Plan {
            more: notices,
            ..Plan::default()
        };
        let answer = self.receipt_model(&verdicts, (first, last), postmark, games);
        let mut receipt = self
            .draft(MessageKind::Leave)
            .to(recipient(player))
            .cc(self.secretary())
            .answering(mail.message_id.clone())
            .notice(answer);
        self.tell_more_leaves(&mut receipt, read);
        // Refused here and granted elsewhere: the news is the granting
        // event's, and its receipt comes under that event's tag and name.
        if !granted_here && let Some(there) = verdicts.granted.first() {
            receipt.event = Some(there.tournament.clone());
        }
        plan.messages.push(receipt);
        if nothing_new {
            stored.disposition = Disposition::Applied;
            stored.reason = format!("leave {first} - {last} granted already");
            plan.writes.letter = Some(stored);
            return Ok(plan);
        }
        stored.disposition = Disposition::Applied;
        stored.reason = format!("leave {first} - {last}");
        plan.event(
            EventKind::Leave,
            None,
            Some(&player.email),
            format!("{first} - {last}, {}", crate::phrases::english_days(days)),
        );
        for more in &plan.more {
            plan.writes
                .events
                .extend(more.writes.events.iter().cloned());
        }
        let leave = crate::clerk::LeaveTaken {
            days: (first, last),
            here: granted_here.then(|| player.id.clone()),
            elsewhere: verdicts.granted,
        };
        plan.elsewhere = self.leave_elsewhere(store, &leave)?;
        plan.writes.leave = Some(leave);
        plan.writes.letter = Some(stored);
        Ok(plan)
    }

    /// What the receipt of a leave says: each event's verdict, the games
    /// whose clocks it stops, and what is left of each event's allowance.
    fn receipt_model(
        &self,
        verdicts: &Verdicts,
        days: (NaiveDate, NaiveDate),
        postmark: NaiveDate,
        games: Vec<Model>,
    ) -> Model {
        let (first, last) = days;
        let granted_here = verdicts.here.is_ok();
        let already_here = verdicts.here == Err(LeaveRefusal::Granted);
        let nothing_new = verdicts.here.is_err() && verdicts.granted.is_empty();
        let days = leave::length((first, last));
        let refused_here = verdicts
            .here
            .clone()
            .err()
            .filter(|_| !already_here)
            .map(|refusal| leave_refused(refusal, postmark, &self.config.rules).model());
        let several = !verdicts.left_there.is_empty();
        let mut left = Vec::new();
        if granted_here || already_here {
            left.push(model! {
                "tournament" => self.config.tournament_id.as_str(),
                "days" => verdicts.left_here,
            });
        }
        left.extend(verdicts.left_there.iter().cloned());
        model! {
            "granted_here" => granted_here,
            "already_here" => already_here,
            "already_there" => verdicts.already.clone(),
            "nothing_new" => nothing_new,
            "refused_here" => refused_here,
            "elsewhere" => verdicts.granted_games.clone(),
            "granted_events" => verdicts
                .granted
                .iter()
                .map(|there| there.tournament.clone())
                .fold(Vec::<String>::new(), |mut ids, id| {
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                    ids
                }),
            "without" => verdicts.without.clone(),
            "refused_there" => verdicts
                .refused
                .iter()
                .map(|there| model! {
                    "tournament" => there.tournament.as_str(),
                    "reason" => there.reason.model(),
                })
                .collect::<Vec<_>>(),
            "first" => date(first),
            "last" => date(last),
            "days" => days,
            "year" => first.year(),
            "left" => left,
            "several" => several,
            "games" => games,
        }
    }

    /// What each of the person's events says of the leave `asked`: this
    /// one, and each other one he plays in.
    fn leave_verdicts(
        &self,
        store: &Store,
        player: &Player,
        asked: (NaiveDate, NaiveDate),
        postmark: NaiveDate,
    ) -> Result<Verdicts, Error> {
        let year = asked.0.year();
        let taken = store.leaves_in(self.config.scope(), &player.id)?;
        let rules = &self.config.rules;
        let here = leave::check(rules, &taken, asked, postmark, self.config.end_date);
        let with_it = |mut taken: Vec<(NaiveDate, NaiveDate)>| {
            if !taken.contains(&asked) {
                taken.push(asked);
            }
            taken
        };
        let mut verdicts = Verdicts {
            left_here: leave::left_in(rules, &with_it(taken), year),
            here,
            granted: Vec::new(),
            granted_games: Vec::new(),
            left_there: Vec::new(),
            already: Vec::new(),
            without: Vec::new(),
            refused: Vec::new(),
        };
        for (other, there) in self.others_of_the_person(player) {
            if other.rules.leave_days_per_year == 0 {
                verdicts.without.push(other.tournament_id.clone());
                continue;
            }
            let theirs = store.leaves_in(other.scope(), &there.id)?;
            match leave::check(&other.rules, &theirs, asked, postmark, other.end_date) {
                Ok(_) => {
                    verdicts.granted.push(crate::clerk::EntryThere {
                        tournament: other.tournament_id.clone(),
                        player: there.id.clone(),
                    });
                    verdicts
                        .granted_games
                        .extend(other.draw().games_of(&there.id).iter().map(|g| {
                            crate::key::SubjectTag::game(&other.tournament_id, &g.id).to_string()
                        }));
                    verdicts.left_there.push(model! {
                        "tournament" => other.tournament_id.as_str(),
                        "days" => leave::left_in(&other.rules, &with_it(theirs), year),
                    });
                }
                Err(LeaveRefusal::Granted) => {
                    verdicts.already.push(other.tournament_id.clone());
                    verdicts.left_there.push(model! {
                        "tournament" => other.tournament_id.as_str(),
                        "days" => leave::left_in(&other.rules, &theirs, year),
                    });
                }
                Err(refusal) => verdicts.refused.push(RefusedThere {
                    tournament: other.tournament_id.clone(),
                    reason: leave_refused(refusal, postmark, &other.rules),
                }),
            }
        }
        Ok(verdicts)
    }

    /// Why each event refused a leave no event grants, in the reader's
    /// words.
    fn leave_refusals(&self, verdicts: &Verdicts, postmark: NaiveDate) -> Vec<Sentence> {
        let mut reasons = Vec::new();
        if let Err(refusal) = &verdicts.here {
            reasons.push(leave_refused(refusal.clone(), postmark, &self.config.rules));
        }
        reasons.extend(verdicts.refused.iter().map(|there| {
            let (tournament, reason) = (there.tournament.clone(), there.reason.clone());
            Sentence::new(move |phrases| {
                phrases.fill(
                    "reason.leave_there",
                    &[
                        ("tournament", &tournament),
                        ("reason", &reason.in_words(phrases)),
                    ],
                )
            })
        }));
        reasons
    }

    /// A leave refused: the letter kept as refused, and he told why (in a
    /// message of its own where his letter asked more besides).
    fn refuse_leave(
        &self,
        player: &Player,
        written: Written<'_>,
        mut stored: StoredLetter,
        reasons: Vec<Sentence>,
        beside: bool,
    ) -> Result<Plan, Error> {
        let Written { mail, read, .. } = written;
        let mut plan = Plan::default();
        let postmark = stored.postmark;
        stored.disposition = Disposition::Refused;
        let words: Vec<String> = reasons.iter().map(|r| r.in_words(self.phrases())).collect();
        stored.reason = format!("leave refused: {}", words.join("; "));
        plan.event(
            EventKind::Refused,
            None,
            Some(&player.email),
            stored.reason.clone(),
        );
        let mut message = self.refusal(
            recipient(player),
            reasons,
            read,
            postmark,
            Model::from(()),
            mail.message_id.clone(),
        );
        // A leave's refusal, whether or not the letter asked more: its
        // own words, and no block of moves and dates it never had.
        let leave = model! { "part" => "leave", "beside" => beside };
        message.with(leave);
        self.tell_more_leaves(&mut message, read);
        plan.messages.push(message);
        plan.writes.letter = Some(stored);
        Ok(plan)
    }

    /// A letter's leave lines after its first, named in its answer as not
    /// carried out (they were passed over in silence).
    fn tell_more_leaves(&self, answer: &mut Notice, read: &Letter) {
        if read.more_leaves.is_empty() {
            return;
        }
        let lines: Vec<Model> = read
            .more_leaves
            .iter()
            .map(|line| {
                let line = crate::printable::bounded(line, 100).into_owned();
                text(move |phrases| phrases.fill("unheeded.second_leave", &[("line", &line)]))
            })
            .collect();
        answer.with(model! { "unheeded" => lines });
    }

    /// A leave taken in the clerk's other events that grant it (the
    /// leave's plan decided which): for each, his entry there and the
    /// notices to his partners there, decided by that event's clerk on its
    /// games (and said in its words). The commit records the leave there
    /// and writes each plan after the letter's; `check` shows them.
    fn leave_elsewhere(
        &self,
        store: &Store,
        leave: &crate::clerk::LeaveTaken,
    ) -> Result<Vec<(EntryThere, Plan)>, Error> {
        let mut planned = Vec::new();
        for entry in &leave.elsewhere {
            let Some(sibling) = self.sibling(&entry.tournament) else {
                continue;
            };
            let Some(there) = sibling.config.player(&entry.player) else {
                continue;
            };
            let letters = sibling.letters();
            let (_, notices) = letters.leave_notices(store, there, leave.days, None)?;
            let plan = Plan {
                more: notices,
                ..Plan::default()
            };
            planned.push((entry.clone(), plan));
        }
        Ok(planned)
    }

    /// The leave's notice in one game under way: its partner told, with
    /// who is to move by when counting the leave, and a note under its
    /// chart.
    fn leave_notice(
        &self,
        state: Record,
        player: &Player,
        days: (NaiveDate, NaiveDate),
    ) -> Result<Plan, Error> {
        let (first, last) = days;
        let partner = if state.white.id == player.id {
            Color::Black
        } else {
            Color::White
        };
        let mut more = Plan::default();
        more.writes.notes.push(self.note(
            crate::store::NoteKind::Leave,
            |phrases: &crate::phrases::Phrases| {
                phrases.fill(
                    "note.leave",
                    &[
                        ("player", &player.name),
                        ("first", &phrases.date(first)),
                        ("last", &phrases.date(last)),
                    ],
                )
            },
        ));
        // Who is to move, and by when, with the leave counted.
        let mut ledger = state.ledger.clone();
        let mut leaves = ledger.calendar.leaves.clone();
        // In another event the leave is stored already.
        if !leaves.contains(&(first, last)) {
            leaves.push((first, last));
        }
        ledger.calendar = ledger.calendar.with_leaves(leaves);
        // A move forwarded in this run reaches the partner today: his
        // days count from today.
        let due = ledger.due_if_delivered(&self.config.rules, self.clock.today);
        let turn = shakmaty::Position::turn(state.board.position());
        let moving = due.is_none() && turn == partner;
        let notice = model! {
            "moving" => moving,
            "player" => player.name.as_str(),
            "first" => date(first),
            "last" => date(last),
            "due" => due.map(|due| model! {
                "player" => state.player(due.player).name.as_str(),
                "color" => crate::color_name(due.player),
                "last_day" => crate::clerk::say::words::date(due.last_day),
            }),
        };
        more.messages.push(
            self.draft(MessageKind::LeaveNotice)
                .of(&state)
                .for_player(&state, partner)
                .notice(notice),
        );
        more.event(
            EventKind::Leave,
            Some(&state.key),
            Some(&player.email),
            format!("{first} - {last}"),
        );
        more.writes.game = Some(state);
        Ok(more)
    }

    /// The leave's notices in this tournament: a plan for each of
    /// `player`'s games under way (its partner told, with his new last
    /// day, and a note under its chart), and the games for his receipt.
    /// `changed`: a game the leave's letter changed besides, as it now is.
    pub fn leave_notices(
        &self,
        store: &Store,
        player: &Player,
        days: (NaiveDate, NaiveDate),
        changed: Option<&Record>,
    ) -> Result<(Vec<Model>, Vec<Plan>), Error> {
        let mut games = Vec::new();
        let mut plans = Vec::new();
        for game in self.config.draw().games_of(&player.id) {
            let state = match changed.filter(|state| state.id() == game.id) {
                Some(state) => state.clone(),
                None => crate::clerk::load_replaying(self.config, store, game, &self.replays)?,
            };
            if !state.ledger.in_play() {
                continue;
            }
            games.push(model! {
                "id" => state.id(),
                "white" => state.white.name.as_str(),
                "black" => state.black.name.as_str(),
            });
            plans.push(self.leave_notice(state, player, days)?);
        }
        Ok((games, plans))
    }
}

/// The first and last day of the leave a letter asks, or the phrase of
/// why they cannot be taken: not two dates, or the last before the first.
fn asked_days(read: &Letter, postmark: NaiveDate) -> Result<(NaiveDate, NaiveDate), &'static str> {
    let written = read.leave.clone().unwrap_or_default();
    let asked = match written.as_slice() {
        [first, last] => first.resolve(postmark).zip(last.resolve(postmark)),
        _ => None,
    };
    match asked {
        None => Err("reason.leave_dates"),
        Some((first, last)) if first > last => Err("reason.leave_backwards"),
        Some(days) => Ok(days),
    }
}

/// The words of a leave's refusal under `rules` (this event's, or
/// another's of the person).
fn leave_refused(
    refusal: LeaveRefusal,
    postmark: NaiveDate,
    rules: &crate::rules::Rules,
) -> Sentence {
    let allowance = rules.leave_days_per_year;
    Sentence::new(move |phrases| match refusal {
        LeaveRefusal::NoLeave => phrases.get("reason.leave_none").to_string(),
        LeaveRefusal::Backwards => phrases.get("reason.leave_backwards").to_string(),
        LeaveRefusal::Granted => phrases.get("reason.leave_granted").to_string(),
        LeaveRefusal::Past => phrases.fill(
            "reason.leave_past",
            &[("postmark", &phrases.date(postmark))],
        ),
        LeaveRefusal::Overlaps { first, last } => phrases.fill(
            "reason.leave_overlaps",
            &[
                ("first", &phrases.date(first)),
                ("last", &phrases.date(last)),
            ],
        ),
        LeaveRefusal::AfterEnd { end } => {
            phrases.fill("reason.leave_after_end", &[("end", &phrases.date(end))])
        }
        LeaveRefusal::OverAllowance { year, asked, left } => phrases.fill(
            "reason.leave_over",
            &[
                ("year", &year),
                ("asked", &phrases.days(i64::from(asked))),
                ("left", &phrases.days(i64::from(left))),
                ("allowance", &phrases.days(i64::from(allowance))),
            ],
        ),
    })
}

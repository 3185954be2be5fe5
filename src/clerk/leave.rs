//! A player's leave (issue 23, point 3): `LEAVE 10.12.2026 - 20.12.2026`
//! (`ОТПУСК …`) in a letter of his own. [`leave::check`] decides; a leave
//! taken is kept (the clocks of his games stop on its days: see
//! `Calendar::leaves`), he is told what he has left of the year's
//! allowance, and the partner of each of his games under way is told, with
//! a note under that game's chart. One refused is answered with why.

use super::EventKind;
use chrono::{Datelike, NaiveDate};
use shakmaty::Color;

use super::{Clerk, Plan, recipient};
use crate::config::Player;
use crate::error::Error;
use crate::letter::Letter;
use crate::mail::mime::Mail;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::rules::leave::{self, LeaveRefusal};
use crate::store::{Disposition, Store, StoredLetter};

/// A leave in the person's other events.
struct Elsewhere {
    /// The tags of his games where it is granted.
    granted: Vec<String>,
    /// The events that grant no leave.
    without: Vec<String>,
    /// The events that refuse this one: their ids and why.
    refused: Vec<Model>,
}

impl Clerk<'_> {
    /// A letter asking for leave. `changed`: a game the same letter
    /// changed besides (its move), as it now stands; the leave's notices of
    /// that game speak of it so, and the answer of a refusal speaks of the
    /// leave alone.
    pub(super) fn plan_leave(
        &self,
        store: &Store,
        player: &Player,
        (mail, read): (&Mail, &Letter),
        mut stored: StoredLetter,
        plan: &mut Plan,
        changed: Option<&Record>,
    ) -> Result<(), Error> {
        let beside = read.without_leave().kind() != crate::letter::LetterKind::Unknown;
        let postmark = stored.postmark;
        let phrases = self.phrases();
        let written = read.leave.clone().unwrap_or_default();
        let asked = match written.as_slice() {
            [first, last] => first.resolve(postmark).zip(last.resolve(postmark)),
            _ => None,
        };
        let taken = store.leaves_of(&player.id).map_err(Error::database)?;
        let checked = match asked {
            Some(asked) => {
                let end = self.config.end_date;
                leave::check(&self.config.rules, &taken, asked, postmark, end)
                    .map(|days| (asked, days))
            }
            None => Err(LeaveRefusal::Backwards),
        };
        let ((first, last), days) = match checked {
            Ok(taken) => taken,
            Err(refusal) => {
                let reason = match asked {
                    None => phrases.get("reason.leave_dates").to_string(),
                    Some(_) => self.leave_refused(refusal, postmark, &self.config.rules),
                };
                return self.refuse_leave(player, read, mail, (stored, reason), beside, plan);
            }
        };
        let mut all = taken.clone();
        all.push((first, last));
        let left = leave::left_in(&self.config.rules, &all, first.year());
        let (first_text, last_text) = (self.date(first), self.date(last));
        let (games, notices) = self.leave_notices(store, player, (first, last), changed)?;
        plan.more.extend(notices);
        // The leave is the person's (issue 31, point 1): his entries of the
        // same id in the clerk's other events that grant leave have it too,
        // each by its own allowance and last day (recorded there, and their
        // partners told, by `run::leave_elsewhere`); an event that grants
        // none, or refuses it, goes on, and the receipt says why.
        let Elsewhere {
            granted: elsewhere,
            without,
            refused: refused_there,
        } = self.leave_elsewhere(store, player, (first, last), postmark, plan)?;
        let answer = model! {
            "elsewhere" => elsewhere,
            "without" => without,
            "refused_there" => refused_there,
            "first" => first_text.as_str(),
            "last" => last_text.as_str(),
            "days" => days,
            "year" => first.year(),
            "left" => left,
            "games" => games,
        };
        let mut receipt = self
            .draft(MessageKind::Leave)
            .to(recipient(player))
            .cc(self.secretary())
            .answering(mail.message_id.clone())
            .render(answer)?;
        self.tell_more_leaves(&mut receipt, read)?;
        plan.messages.push(receipt);
        stored.disposition = Disposition::Applied;
        stored.reason = format!("leave {first} - {last}");
        plan.event(
            EventKind::Leave,
            None,
            Some(&player.email),
            format!("{first} - {last}, {}", crate::phrases::english_days(days)),
        );
        for more in &plan.more {
            plan.events.extend(more.events.iter().cloned());
        }
        plan.leave = Some((player.id.clone(), (first, last)));
        plan.letter = Some(stored);
        Ok(())
    }

    /// A leave refused: the letter kept as refused, and he told why (in a
    /// message of its own where his letter asked more besides).
    fn refuse_leave(
        &self,
        player: &Player,
        read: &Letter,
        mail: &Mail,
        (mut stored, reason): (StoredLetter, String),
        beside: bool,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        let postmark = stored.postmark;
        stored.disposition = Disposition::Refused;
        stored.reason = format!("leave refused: {reason}");
        plan.event(
            EventKind::Refused,
            None,
            Some(&player.email),
            stored.reason.clone(),
        );
        let mut message = self.refusal(
            recipient(player),
            vec![reason],
            read,
            postmark,
            Model::from(()),
            mail.message_id.clone(),
        )?;
        if beside {
            self.render_again(&mut message, model! { "part" => "leave" })?;
        }
        self.tell_more_leaves(&mut message, read)?;
        plan.messages.push(message);
        plan.letter = Some(stored);
        Ok(())
    }

    /// A letter's leave lines after its first, named in its answer as not
    /// carried out (issue 48, point 5: they were passed over in silence).
    fn tell_more_leaves(
        &self,
        answer: &mut crate::mail::compose::Outgoing,
        read: &Letter,
    ) -> Result<(), Error> {
        if read.more_leaves.is_empty() {
            return Ok(());
        }
        let lines: Vec<String> = read
            .more_leaves
            .iter()
            .map(|line| {
                let line = crate::printable::bounded(line, 100);
                self.phrases()
                    .fill("unheeded.second_leave", &[("line", &line.as_ref())])
            })
            .collect();
        self.render_again(answer, model! { "unheeded" => lines })
    }

    /// The same leave in the person's other events of the clerk's: the
    /// tags of his games where it is granted (each event's own allowance
    /// and last day decide; their ids go into the plan), the events that
    /// grant no leave, and those that refuse this one, with why.
    fn leave_elsewhere(
        &self,
        store: &Store,
        player: &Player,
        (first, last): (NaiveDate, NaiveDate),
        postmark: NaiveDate,
        plan: &mut Plan,
    ) -> Result<Elsewhere, Error> {
        let mut elsewhere = Vec::new();
        let mut without = Vec::new();
        let mut refused_there = Vec::new();
        for (other, there) in self.others_of_the_person(player) {
            if other.rules.leave_days_per_year == 0 {
                without.push(other.tournament_id.clone());
                continue;
            }
            // Each event's own allowance and last day decide there.
            let theirs = store
                .leaves_in(other.scope(), &there.id)
                .map_err(Error::database)?;
            match leave::check(
                &other.rules,
                &theirs,
                (first, last),
                postmark,
                other.end_date,
            ) {
                Ok(_) => {
                    plan.leave_elsewhere.push(other.tournament_id.clone());
                    elsewhere.extend(
                        other
                            .games_of(&there.id)
                            .iter()
                            .map(|g| format!("[{} #{}]", other.tournament_id, g.id)),
                    );
                }
                Err(refusal) => refused_there.push(model! {
                    "tournament" => other.tournament_id.as_str(),
                    "reason" => self.leave_refused(refusal, postmark, &other.rules),
                }),
            }
        }
        Ok(Elsewhere {
            granted: elsewhere,
            without,
            refused: refused_there,
        })
    }

    /// The words of a leave's refusal under `rules` (this event's, or
    /// another's of the person).
    fn leave_refused(
        &self,
        refusal: LeaveRefusal,
        postmark: NaiveDate,
        rules: &crate::rules::Rules,
    ) -> String {
        let phrases = self.phrases();
        match refusal {
            LeaveRefusal::NoLeave => phrases.get("reason.leave_none").to_string(),
            LeaveRefusal::Backwards => phrases.get("reason.leave_backwards").to_string(),
            LeaveRefusal::Past => {
                phrases.fill("reason.leave_past", &[("postmark", &self.date(postmark))])
            }
            LeaveRefusal::Overlaps { first, last } => phrases.fill(
                "reason.leave_overlaps",
                &[("first", &self.date(first)), ("last", &self.date(last))],
            ),
            LeaveRefusal::AfterEnd { end } => {
                phrases.fill("reason.leave_after_end", &[("end", &self.date(end))])
            }
            LeaveRefusal::OverAllowance { year, asked, left } => phrases.fill(
                "reason.leave_over",
                &[
                    ("year", &year),
                    ("asked", &phrases.days(i64::from(asked))),
                    ("left", &phrases.days(i64::from(left))),
                    (
                        "allowance",
                        &phrases.days(i64::from(rules.leave_days_per_year)),
                    ),
                ],
            ),
        }
    }

    /// The clerk's other events where `player` (the same id) plays, each
    /// with his entry there.
    fn others_of_the_person<'p>(
        &'p self,
        player: &'p Player,
    ) -> impl Iterator<Item = (&'p crate::config::Config, &'p Player)> + 'p {
        self.others_knowing(player)
            .filter(move |(_, there)| there.id == player.id)
    }

    /// The leave's notices in this tournament: a plan for each of
    /// `player`'s games under way (its partner told, with his new last
    /// day, and a note under its chart), and the games for his receipt.
    /// `changed`: a game the leave's letter changed besides, as it now is.
    pub fn leave_notices(
        &self,
        store: &Store,
        player: &Player,
        (first, last): (NaiveDate, NaiveDate),
        changed: Option<&Record>,
    ) -> Result<(Vec<Model>, Vec<Plan>), Error> {
        let phrases = self.phrases();
        let (first_text, last_text) = (self.date(first), self.date(last));
        let mut games = Vec::new();
        let mut plans = Vec::new();
        for game in self.config.games_of(&player.id) {
            let state = match changed.filter(|state| state.id() == game.id) {
                Some(state) => state.clone(),
                None => super::load_replaying(self.config, store, game, &self.replays)?,
            };
            if !state.ledger.in_play() {
                continue;
            }
            games.push(model! {
                "id" => state.id(),
                "white" => state.white.name.as_str(),
                "black" => state.black.name.as_str(),
            });
            let partner = if state.white.id == player.id {
                Color::Black
            } else {
                Color::White
            };
            let mut more = Plan::default();
            more.notes.push(self.note(
                "leave",
                phrases.fill(
                    "note.leave",
                    &[
                        ("player", &player.name),
                        ("first", &first_text),
                        ("last", &last_text),
                    ],
                ),
            ));
            // Who is to move, and by when, with the leave counted.
            let mut ledger = state.ledger.clone();
            let mut leaves = ledger.calendar.leaves.clone();
            // In another event the leave is stored already.
            if !leaves.contains(&(first, last)) {
                leaves.push((first, last));
            }
            ledger.calendar = ledger.calendar.with_leaves(leaves);
            let due = ledger.due(&self.config.rules, self.clock.today);
            let notice = model! {
                "player" => player.name.as_str(),
                "first" => first_text.as_str(),
                "last" => last_text.as_str(),
                "due" => due.map(|due| model! {
                    "player" => state.player(due.player).name.as_str(),
                    "color" => crate::color_name(due.player),
                    "last_day" => self.date(due.last_day),
                }),
            };
            more.messages.push(
                self.draft(MessageKind::LeaveNotice)
                    .of(&state)
                    .for_player(&state, partner)
                    .render(notice)?,
            );
            more.event(
                EventKind::Leave,
                Some(state.id()),
                Some(&player.email),
                format!("{first} - {last}"),
            );
            more.game = Some(state);
            plans.push(more);
        }
        Ok((games, plans))
    }
}

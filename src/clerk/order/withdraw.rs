//! A player's withdrawal (`shtempel withdraw PLAYER`): each of
//! his games as `[rules] withdrawal` says ([`withdrawal::steps`]): lost by
//! forfeit ([`Orders::plan_award`]), or annulled ([`annul`]), or left as it
//! is; each change told to both players of the game and the chief
//! secretary, with a note under its chart.
//!
//! `WITHDRAW ivanov illness` (ВЫБЫТИЕ), or `shtempel withdraw ivanov`: a
//! player withdraws.

use super::{Carried, Command, Execution, Ordered};
use crate::clerk::say::words::Sentence;
use crate::clerk::{Award, AwardedBy, EventKind, NotDone, Orders, Plan, Refused};
use crate::error::Error;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::rules::interventions::{Scored, annul};
use crate::rules::withdrawal::{self, Step};
use crate::rules::{GameResult, Status};
use crate::store::Store;
use shakmaty::Color;

#[derive(Clone, Debug)]
pub struct Withdraw {
    pub player: String,
    pub why: Option<String>,
}

impl Command for Withdraw {
    fn named(&self) -> String {
        format!("withdraw {}", self.player)
    }

    fn cause(&self, _: Option<usize>) -> String {
        format!("withdraw:{}", self.player)
    }

    fn carry_out(&self, clerk: &Orders, store: &Store, ordered: Ordered) -> Carried {
        let by = ordered.by;
        let planned = clerk.withdraw(store, &self.player, self.why.as_deref(), by);
        Execution::of(planned, "nothing withdrawn", |_| {
            format!("withdrawal of {}", self.player)
        })
    }
}

impl Orders<'_, '_> {
    /// The plan of `player`'s withdrawal (one carried plan for each game it
    /// changes), or the words for the director of why none.
    pub fn withdraw(
        &self,
        store: &Store,
        player: &str,
        why: Option<&str>,
        by: AwardedBy,
    ) -> Result<Plan, NotDone> {
        let Some(who) = self.config.player(player) else {
            let known: Vec<&str> = self.config.players.iter().map(|p| p.id.as_str()).collect();
            let reason =
                crate::said!("reason.no_player", "player" => player, "players" => known.join(", "));
            return Err(Refused::new(reason).into());
        };
        let mut records = Vec::new();
        for game in self.config.draw().games_of(player) {
            records.push(crate::clerk::load_replaying(
                self.config,
                store,
                game,
                &self.replays,
            )?);
        }
        let over: Vec<Option<bool>> = records
            .iter()
            .map(|record| match record.ledger.status() {
                Status::Annulled => None,
                Status::Finished => Some(true),
                _ => Some(false),
            })
            .collect();
        let steps = withdrawal::steps(self.config.rules.withdrawal, &over);
        let (name, written) = (who.name.clone(), why.map(str::to_string));
        let why = Sentence::new(move |phrases| {
            let withdrew = phrases.fill("note.withdrew", &[("player", &name)]);
            match &written {
                Some(why) => format!("{withdrew}: {why}"),
                None => withdrew,
            }
        });
        let mut plans = Vec::new();
        for (record, step) in records.into_iter().zip(steps) {
            let color = if record.white.id == player {
                Color::White
            } else {
                Color::Black
            };
            let plan = match step {
                Step::Keep => continue,
                Step::Forfeit => {
                    let award = Award {
                        scored: Scored::Forfeit(GameResult::loss_of(color)),
                        why: Some(why.clone()),
                        by,
                    };
                    match self.plan_award(record, &award, None) {
                        Ok(plan) => plan,
                        // The withdrawal is refused, in its words alone.
                        Err(NotDone::Refused(refused)) => {
                            return Err(Refused::new(refused.reason).into());
                        }
                        Err(failed) => return Err(failed),
                    }
                }
                Step::Annul => self.plan_annulment(record, &why, by)?,
            };
            plans.push(plan);
        }
        if plans.is_empty() {
            let reason = crate::said!("reason.nothing_withdrawn", "player" => who.name);
            return Err(Refused::new(reason).into());
        }
        Ok(Plan::of_games(plans))
    }

    /// Annuls a game: its plan of the note, the notice to both players and
    /// the secretary.
    fn plan_annulment(
        &self,
        mut state: Record,
        why: &Sentence,
        by: AwardedBy,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let annulled =
            annul(&state.ledger).map_err(|refusal| Error::internal(format!("{refusal:?}")))?;
        let previous = state.ledger.standing.result_pgn();
        state.ledger = annulled.ledger;
        plan.writes.notes.push(self.note(
            crate::store::NoteKind::Annulled,
            |phrases: &crate::phrases::Phrases| {
                phrases.fill(
                    "note.annulled",
                    &[
                        ("who", &crate::clerk::order::awards::named_by(phrases, by)),
                        ("date", &phrases.date(self.clock.today)),
                        ("why", &why.in_words(phrases)),
                    ],
                )
            },
        ));
        let model = model! {
            "result" => crate::clerk::say::words::phrase("report.status_annulled"),
            "reason" => "annulled",
            "who" => crate::clerk::order::awards::who_said(by),
            "why" => why.model(),
            "previous" => previous,
            "winner" => Option::<String>::None,
            "winner_color" => Option::<String>::None,
            "loser" => Option::<String>::None,
            "loser_color" => Option::<String>::None,
            "move" => Option::<String>::None,
        };
        let letters = self
            .draft(MessageKind::Result)
            .of(&state)
            .cc(self.secretary())
            .notice_to_each_player(model)?;
        plan.messages
            .extend(letters.into_iter().map(|(_, letter)| letter));
        let logged = why.in_words(self.phrases());
        plan.event(EventKind::Annulled, Some(&state.key), None, logged);
        plan.writes.game = Some(state);
        Ok(plan)
    }
}

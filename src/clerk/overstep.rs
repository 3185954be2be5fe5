//! An overstep declared (10.3.6): the offender's registered notice, the
//! partner's notice, the chief arbiter's file (every letter of the offender,
//! the game, the time chart and its computation) and the secretary's notice of
//! the claim; and a letter that comes during the suspension, for the arbiter.

use super::EventKind;
use super::letters::LetterContext;
use super::{Clerk, Plan, load::stored_chart, recipient};
use crate::error::Error;
use crate::mail::compose::{Attachment, Outgoing};
use crate::mail::filing::filed_letter;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::{Model, merged};
use crate::rules::Effect;
use crate::rules::Overstep;
use crate::store::{Disposition, Note, Store, StoredLetter};
use shakmaty::Color;

/// An overstep the rules declared.
pub(super) struct Declared<'a> {
    pub overstep: Overstep,
    /// The offender's move that came with it, as read and its ply; none for
    /// a silence.
    pub last_move: Option<(String, usize)>,
    /// The offender's letter that overstepped, not yet stored.
    pub current_raw: Option<&'a [u8]>,
    /// That letter's verdict: what was corrected in it or left out of it.
    pub verdict: Option<&'a crate::rules::Verdict>,
    pub protest_until: chrono::NaiveDate,
}

impl Clerk<'_> {
    /// The notices and the file of an overstep the rules declared; the game
    /// is suspended already.
    pub(super) fn plan_overstep(
        &self,
        store: &Store,
        state: &mut Record,
        declared: &Declared<'_>,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        let overstep = declared.overstep;
        let offender = overstep.offender;
        let claimant = !offender;
        let by_silence = declared.last_move.is_none();
        let Facts {
            chart,
            chart_text,
            computation,
            common,
        } = self.overstep_facts(store, state, declared, plan)?;
        let letter = declared.verdict.map(|verdict| self.verdict_model(verdict));
        let notice_model = merged(model! { "letter" => letter }, common.clone());
        let mut notice = self
            .draft(MessageKind::OverstepNotice)
            .of(state)
            .to(recipient(state.player(offender)))
            .render(notice_model)?;
        notice.registered = true;
        notice.generated = by_silence;
        plan.messages.push(notice);
        let mut partner = self
            .draft(MessageKind::OverstepPartner)
            .of(state)
            .to(recipient(state.player(claimant)))
            .render(common.clone())?;
        partner.delivers = declared.last_move.as_ref().map(|(_, ply)| *ply);
        partner.generated = by_silence;
        plan.messages.push(partner);

        let file = self.overstep_file(store, state, declared, &chart, &chart_text, &common)?;
        plan.messages.push(file);
        let mut claim = self
            .draft(MessageKind::ClaimNotice)
            .of(state)
            .to(self.secretary())
            .render(common)?;
        claim.generated = true;
        plan.messages.push(claim);
        plan.notes.push(Note {
            ply: declared.last_move.as_ref().map(|(_, ply)| *ply),
            kind: "overstep".into(),
            text: self
                .phrases()
                .fill("note.overstep", &[("computation", &computation)]),
            created_on: self.clock.today,
        });
        let detail = format!(
            "{} overstepped: {} > {} ({})",
            state.player(offender).name,
            overstep.total,
            overstep.limit,
            if by_silence {
                "by silence"
            } else {
                "with a letter"
            }
        );
        plan.event(EventKind::Overstep, Some(state.id()), None, detail);
        Ok(())
    }

    /// What every message of an overstep tells: the computation, the time
    /// chart (with the notes so far and the plan's), and the model they
    /// share.
    fn overstep_facts(
        &self,
        store: &Store,
        state: &Record,
        declared: &Declared<'_>,
        plan: &Plan,
    ) -> Result<Facts, Error> {
        let lang = self.lang();
        let overstep = declared.overstep;
        let offender = overstep.offender;
        let claimant = !offender;
        let by_silence = declared.last_move.is_none();
        let notes: Vec<String> = store
            .notes(state.id())
            .map_err(Error::database)?
            .into_iter()
            .map(|n| n.text)
            .chain(plan.notes.iter().map(|n| n.text.clone()))
            .collect();
        let chart = state.chart(self.config, notes);
        let computation = self.phrases().fill(
            if by_silence {
                "overstep.computation_silence"
            } else {
                "overstep.computation"
            },
            &[
                ("moves", &overstep.moves),
                ("limit", &overstep.limit),
                ("total", &overstep.total),
            ],
        );
        let chart_text = chart.to_text(self.phrases());
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
            "move" => declared.last_move.as_ref().map(|(m, _)| m.clone()),
                        "protest_days" => self.config.rules.protest_days,
            "protest_until" => lang.date(declared.protest_until),
        };
        Ok(Facts {
            chart,
            chart_text,
            computation,
            common,
        })
    }

    /// The chief arbiter's file (10.3.6): every letter of the offender in
    /// the game as its original, the game as PGN, the time chart as text,
    /// CSV and a picture.
    fn overstep_file(
        &self,
        store: &Store,
        state: &Record,
        declared: &Declared<'_>,
        chart: &crate::chart::Chart,
        chart_text: &str,
        common: &crate::render::Model,
    ) -> Result<Outgoing, Error> {
        let offender = declared.overstep.offender;
        let mut letters = store
            .letters_from(state.id(), offender)
            .map_err(|e| e.to_string())?;
        if let Some(raw) = declared.current_raw {
            letters.push((self.clock.today, raw.to_vec()));
        }
        let mut attachments = Vec::new();
        let secret = state.player(offender).secret.clone();
        for (index, (postmark, raw)) in letters.into_iter().enumerate() {
            let name = format!("letter-{:02}-{postmark}.eml", index + 1);
            attachments.push(filed_letter(name, &raw, secret.as_deref()));
        }
        // The game as `shtempel pgn` gives it: dates, days and penalties.
        let pgn = state.pgn(self.config, self.phrases());
        let names: Vec<String> = attachments.iter().map(|a| a.name.clone()).collect();
        let file_model = merged(
            model! {
                "attachments" => names,
                "game_id" => self.ruling_game(state),
            },
            common.clone(),
        );
        let mut file = self
            .draft(MessageKind::OverstepFile)
            .of(state)
            .to(self.arbiter())
            .render(file_model)?;
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
            bytes: chart_text.as_bytes().to_vec(),
        });
        file.attachments.push(Attachment {
            name: format!("chart-{}.csv", state.id()),
            content_type: "text/csv; charset=utf-8".into(),
            bytes: chart.to_csv().into_bytes(),
        });
        file.attachments.push(self.plot_attachment(chart)?);
        Ok(file)
    }

    /// The time chart as a picture, for the arbiter's file.
    fn plot_attachment(&self, chart: &crate::chart::Chart) -> Result<Attachment, Error> {
        Ok(Attachment {
            name: format!("chart-{}.svg", chart.game),
            content_type: "image/svg+xml".into(),
            bytes: crate::plot::svg(chart, &self.config.rules, self.phrases())?.into_bytes(),
        })
    }

    /// The partner's reply during a suspension: held, and sent to the
    /// arbiter with the letter and the chart (2.5.3).
    pub(super) fn supplement(
        &self,
        store: &Store,
        state: &Record,
        from: Color,
        moves_text: &str,
        context: &LetterContext<'_>,
    ) -> Result<Outgoing, Error> {
        let offender = state
            .ledger
            .standing
            .suspension
            .map_or(!from, |s| s.offender);
        let model = model! {
            "from" => state.player(from).name.as_str(),
            "offender" => state.player(offender).name.as_str(),
            "by_offender" => from == offender,
            "moves" => moves_text,
        };
        let mut supplement = self
            .draft(MessageKind::OverstepSupplement)
            .of(state)
            .to(self.arbiter())
            .render(model)?;
        supplement.attachments.push(filed_letter(
            format!("letter-{}.eml", context.postmark),
            context.raw,
            state.player(from).secret.as_deref(),
        ));
        let chart = stored_chart(state, self.config, store)?;
        supplement.attachments.push(self.plot_attachment(&chart)?);
        Ok(supplement)
    }

    /// A letter of the offender during his suspension (10.3.6): to the
    /// arbiter with the letter; he is told the game waits for the arbiter.
    pub(super) fn plan_withheld(
        &self,
        store: &Store,
        state: &mut Record,
        context: &LetterContext<'_>,
        transition: crate::rules::Transition,
        stored: &mut StoredLetter,
        plan: &mut Plan,
    ) -> Result<(), Error> {
        stored.disposition = Disposition::Refused;
        stored.reason =
            "a letter of the offender during the suspension: passed to the arbiter".into();
        let written: Vec<&str> = context
            .read
            .moves
            .iter()
            .map(|m| m.written.as_str())
            .collect();
        for effect in &transition.effects {
            match *effect {
                Effect::Supplement { from, .. } => {
                    let supplement =
                        self.supplement(store, state, from, &written.join(" "), context)?;
                    plan.messages.push(supplement);
                }
                Effect::Withheld {
                    protest_until,
                    protest_received,
                } => {
                    let model = model! {
                        "protest_until" => self.date(protest_until),
                        "protest_received" => protest_received,
                        "protest_open" => context.postmark <= protest_until,
                        "held" => Model::from(()),
                    };
                    let player = state.player(context.color);
                    let message = self
                        .draft(MessageKind::Withheld)
                        .of(state)
                        .to(recipient(player))
                        .answering(context.mail.message_id.clone())
                        .render(model)?;
                    plan.messages.push(message);
                }
                ref other => {
                    return Err(format!("an offender's letter does not cause {other:?}").into());
                }
            }
        }
        let detail = "passed to the arbiter: the game is suspended".to_string();
        let from = state.player(context.color).email.clone();
        plan.event(EventKind::Withheld, Some(state.id()), Some(&from), detail);
        Ok(())
    }
}

/// What every message of an overstep tells ([`Clerk::overstep_facts`]).
struct Facts {
    chart: crate::chart::Chart,
    chart_text: String,
    computation: String,
    common: Model,
}

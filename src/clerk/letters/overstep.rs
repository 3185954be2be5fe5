//! An overstep declared (10.3.6): the offender's registered notice, the
//! partner's notice, the chief arbiter's file (every letter of the offender,
//! the game, the time chart and its computation) and the secretary's notice of
//! the claim; and a letter that comes during the suspension, for the arbiter.

use crate::clerk::EventKind;
use crate::clerk::context::LetterContext;
use crate::clerk::say::notice::Notice;
use crate::clerk::say::words::{self, text};
use crate::clerk::{Fate, Letters, Plan, Writes, load::stored_chart, recipient};
use crate::error::Error;
use crate::mail::format::compose::{Attachment, wire_size};
use crate::mail::format::filing::filed_letter;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::{Model, merged};
use crate::rules::Overstep;
use crate::rules::{OffenderEffect, Transition};
use crate::store::{GameLetter, Note, Store};
use shakmaty::Color;

/// An overstep the rules declared.
pub(in crate::clerk) struct Declared<'a> {
    pub overstep: Overstep,
    /// The offender's move that came with it, as read and its ply; none for
    /// a silence.
    pub last_move: Option<(String, usize)>,
    /// The offender's letter that overstepped, not yet stored.
    pub current_raw: Option<&'a [u8]>,
    /// What the clerk read in it, as the store keeps a reading.
    pub current_read: Option<String>,
    /// That letter's verdict: what was corrected in it or left out of it.
    pub verdict: Option<&'a crate::rules::Verdict>,
    pub protest_until: chrono::NaiveDate,
}

impl Letters<'_, '_> {
    /// The notices and the file of an overstep the rules declared; the game
    /// is suspended already. `earlier` are the notes planned before it (the
    /// letter's own), shown in the chart with the stored ones.
    pub(in crate::clerk) fn plan_overstep(
        &self,
        store: &Store,
        state: &Record,
        declared: &Declared<'_>,
        earlier: &[Note],
    ) -> Result<Plan, Error> {
        let mut plan = Plan::default();
        let overstep = declared.overstep;
        let offender = overstep.offender;
        let claimant = !offender;
        let by_silence = declared.last_move.is_none();
        let Facts {
            chart,
            chart_text,
            common,
        } = self.overstep_facts(store, state, declared, earlier)?;
        let letter = declared.verdict.map(|verdict| self.verdict_model(verdict));
        let notice_model = merged(model! { "letter" => letter }, common.clone());
        let mut notice = self
            .draft(MessageKind::OverstepNotice)
            .of(state)
            .to(recipient(state.player(offender)))
            .notice(notice_model);
        notice.registered = true;
        notice.generated = by_silence;
        plan.messages.push(notice);
        let mut partner = self
            .draft(MessageKind::OverstepPartner)
            .of(state)
            .to(recipient(state.player(claimant)))
            .notice(common.clone());
        partner.delivers = declared.last_move.as_ref().map(|(_, ply)| *ply);
        partner.generated = by_silence;
        plan.messages.push(partner);

        let file = self.overstep_file(store, state, declared, &chart, &chart_text, &common)?;
        plan.messages.push(file);
        let mut claim = self
            .draft(MessageKind::ClaimNotice)
            .of(state)
            .to(self.secretary())
            .notice(common);
        claim.generated = true;
        plan.messages.push(claim);
        let ply = declared.last_move.as_ref().map(|(_, ply)| *ply);
        plan.writes.notes.push(self.note_at(
            ply,
            crate::store::NoteKind::Overstep,
            |phrases: &crate::phrases::Phrases| {
                let computation = overstep_computation(phrases, &overstep, by_silence);
                phrases.fill("note.overstep", &[("computation", &computation)])
            },
        ));
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
        plan.event(EventKind::Overstep, Some(&state.key), None, detail);
        Ok(plan)
    }

    /// What every message of an overstep tells: the computation, the time
    /// chart (with the stored notes and the `earlier` ones planned), and
    /// the model they share.
    fn overstep_facts(
        &self,
        store: &Store,
        state: &Record,
        declared: &Declared<'_>,
        earlier: &[Note],
    ) -> Result<Facts, Error> {
        let overstep = declared.overstep;
        let offender = overstep.offender;
        let claimant = !offender;
        let by_silence = declared.last_move.is_none();
        let stored_notes = store.notes(&state.key)?;
        // The chart with its notes in each language: its readers' words.
        let chart_in = |lang: crate::Lang| {
            let notes = stored_notes.iter().chain(earlier);
            state.chart(
                self.config,
                notes.map(|n| n.text_in(lang).to_string()).collect(),
            )
        };
        let event = self.config.language;
        let chart = chart_in(event);
        let chart_text = chart.to_text(self.phrases());
        let charts = [
            (event, chart.clone()),
            (event.other(), chart_in(event.other())),
        ];
        let chart_said = text(move |phrases| {
            let (_, chart) = charts
                .iter()
                .find(|(lang, _)| *lang == phrases.lang())
                .unwrap_or(&charts[0]);
            chart.to_text(phrases)
        });
        let computation = text(move |phrases| overstep_computation(phrases, &overstep, by_silence));
        let common = model! {
            "offender" => state.player(offender).name.as_str(),
            "claimant" => state.player(claimant).name.as_str(),
            "overstep" => model! {
                "total" => overstep.total,
                "limit" => overstep.limit,
                "moves" => overstep.moves,
                "by_silence" => by_silence,
            },
            "computation" => computation,
            "chart" => chart_said,
            "move" => declared.last_move.as_ref().map(|(m, _)| words::moves(m)),
                        "protest_days" => self.config.rules.protest_days,
            "protest_until" => crate::clerk::say::words::date(declared.protest_until),
        };
        Ok(Facts {
            chart,
            chart_text,
            common,
        })
    }

    /// The chief arbiter's file (10.3.6): every letter of the offender in
    /// the game as its original, the game as PGN, the time chart as text,
    /// CSV and a picture; all within `[limits] max_message_bytes`, so that
    /// the mail server takes it. Letters that do not fit (a player who sent
    /// many large ones) are listed in it instead, each with its sender,
    /// date, size and what the clerk read; the database keeps them for
    /// `shtempel letters`.
    fn overstep_file(
        &self,
        store: &Store,
        state: &Record,
        declared: &Declared<'_>,
        chart: &crate::chart::Chart,
        chart_text: &str,
        common: &crate::render::Model,
    ) -> Result<Notice, Error> {
        let offender = declared.overstep.offender;
        let mut letters = store.letters_from(&state.key, offender)?;
        if let Some(raw) = declared.current_raw {
            letters.push(GameLetter {
                postmark: self.clock.today,
                sender: Some(state.player(offender).email.clone()),
                parse_json: declared.current_read.clone(),
                raw: raw.to_vec(),
            });
        }
        let secret = state.player(offender).secret.clone();
        let filed: Vec<Attachment> = letters
            .iter()
            .enumerate()
            .map(|(index, letter)| {
                let name = format!("letter-{:02}-{}.eml", index + 1, letter.postmark);
                filed_letter(name, &letter.raw, secret.as_deref())
            })
            .collect();
        // The game as `shtempel pgn` gives it: dates, days and penalties.
        let pgn = state.pgn(self.config, self.phrases());
        let others = vec![
            Attachment {
                name: format!("game-{}.pgn", state.id()),
                content_type: "application/vnd.chess-pgn; charset=utf-8".into(),
                bytes: pgn.into_bytes(),
            },
            Attachment {
                name: format!("chart-{}.txt", state.id()),
                content_type: "text/plain; charset=utf-8".into(),
                bytes: chart_text.as_bytes().to_vec(),
            },
            Attachment {
                name: format!("chart-{}.csv", state.id()),
                content_type: "text/csv; charset=utf-8".into(),
                bytes: chart.to_csv().into_bytes(),
            },
            self.plot_attachment(chart)?,
        ];
        let limit = self.config.limits.max_message_bytes;
        let fixed: usize = others.iter().map(wire_size).sum::<usize>() + MESSAGE_HEADERS;
        let sizes: Vec<usize> = filed.iter().map(wire_size).collect();
        let mut attached = fitting(&sizes, limit.saturating_sub(fixed));
        loop {
            let file = self.file_message(state, common, &filed, &letters, &attached)?;
            // The text goes as base64 at worst (a Russian one): 4/3 of it.
            let body = self
                .said_as(file.clone(), Default::default(), None)?
                .words
                .body;
            let size = fixed + body.len() * 4 / 3 + attached_size(&sizes, &attached);
            let largest = (0..attached.len())
                .filter(|&i| attached[i])
                .max_by_key(|&i| sizes[i]);
            match largest {
                Some(index) if size > limit => attached[index] = false,
                _ => {
                    let mut file = file;
                    file.attachments = filed
                        .into_iter()
                        .zip(&attached)
                        .filter_map(|(letter, &kept)| kept.then_some(letter))
                        .chain(others)
                        .collect();
                    return Ok(file);
                }
            }
        }
    }

    /// The file's text with the letters `attached` named and the others
    /// listed as left out.
    fn file_message(
        &self,
        state: &Record,
        common: &Model,
        filed: &[Attachment],
        letters: &[GameLetter],
        attached: &[bool],
    ) -> Result<Notice, Error> {
        let kilobytes = |bytes: usize| {
            let n = bytes.div_ceil(1024);
            text(move |phrases| phrases.fill("units.kilobytes", &[("n", &n)]))
        };
        let names: Vec<String> = filed
            .iter()
            .zip(attached)
            .filter(|(_, kept)| **kept)
            .map(|(a, _)| a.name.clone())
            .collect();
        let left_out: Vec<Model> = filed
            .iter()
            .zip(letters)
            .zip(attached)
            .filter(|(_, kept)| !**kept)
            .map(|((a, letter), _)| {
                model! {
                    "name" => a.name.as_str(),
                    "from" => letter.sender.as_deref().unwrap_or(""),
                    "date" => crate::clerk::say::words::date(letter.postmark),
                    "size" => kilobytes(letter.raw.len()),
                    "read" => letter.parse_json.as_deref().map(what_was_read).unwrap_or_default(),
                }
            })
            .collect();
        let file_model = merged(
            model! {
                "attachments" => names,
                "letters" => filed.len(),
                "left_out" => left_out,
                "max_message" => kilobytes(self.config.limits.max_message_bytes),
                "game_id" => self.ruling_game(state),
            },
            common.clone(),
        );
        let mut file = self
            .draft(MessageKind::OverstepFile)
            .of(state)
            .to(self.arbiter())
            .notice(file_model);
        file.generated = true;
        Ok(file)
    }

    /// The time chart as a picture, for the arbiter's file.
    fn plot_attachment(&self, chart: &crate::chart::Chart) -> Result<Attachment, Error> {
        Ok(Attachment {
            name: format!("chart-{}.svg", chart.game),
            content_type: "image/svg+xml".into(),
            bytes: crate::chart::plot::svg(chart, &self.config.rules, self.phrases())?.into_bytes(),
        })
    }

    /// The partner's reply during a suspension: held, and sent to the
    /// arbiter with the letter and the chart (2.5.3).
    pub(in crate::clerk) fn supplement(
        &self,
        store: &Store,
        state: &Record,
        from: Color,
        moves: Model,
        context: &LetterContext<'_>,
    ) -> Result<Notice, Error> {
        let offender = state
            .ledger
            .standing
            .suspension
            .map_or(!from, |s| s.offender);
        let model = model! {
            "from" => state.player(from).name.as_str(),
            "offender" => state.player(offender).name.as_str(),
            "by_offender" => from == offender,
            "moves" => moves,
        };
        let mut supplement = self
            .draft(MessageKind::OverstepSupplement)
            .of(state)
            .to(self.arbiter())
            .notice(model);
        supplement.attachments.push(filed_letter(
            format!("letter-{}.eml", context.postmark),
            context.raw,
            state.player(from).secret.as_deref(),
        ));
        let chart = stored_chart(state, self.config, store, self.lang())?;
        supplement.attachments.push(self.plot_attachment(&chart)?);
        Ok(supplement)
    }

    /// A letter of the offender during his suspension (10.3.6): to the
    /// arbiter with the letter; he is told the game waits for the arbiter.
    pub(in crate::clerk) fn plan_withheld(
        &self,
        store: &Store,
        state: &Record,
        context: &LetterContext<'_>,
        transition: Transition<OffenderEffect>,
    ) -> Result<Plan, Error> {
        let mut plan = Plan::writing(Writes {
            fate: Some(Fate::refused(
                "a letter of the offender during the suspension: passed to the arbiter",
            )),
            ..Writes::default()
        });
        let written: Vec<&str> = context
            .read
            .moves
            .iter()
            .map(|m| m.written.as_str())
            .collect();
        for effect in &transition.effects {
            match *effect {
                OffenderEffect::Supplement { from } => {
                    let supplement = self.supplement(
                        store,
                        state,
                        from,
                        Model::from(written.join(" ")),
                        context,
                    )?;
                    plan.messages.push(supplement);
                }
                OffenderEffect::Withheld {
                    protest_until,
                    protest_received,
                } => {
                    let model = model! {
                        "protest_until" => crate::clerk::say::words::date(protest_until),
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
                        .notice(model);
                    plan.messages.push(message);
                }
            }
        }
        let detail = "passed to the arbiter: the game is suspended".to_string();
        let from = state.player(context.color).email.clone();
        plan.event(EventKind::Withheld, Some(&state.key), Some(&from), detail);
        Ok(plan)
    }
}

/// What every message of an overstep tells ([`Clerk::overstep_facts`]).
struct Facts {
    chart: crate::chart::Chart,
    chart_text: String,
    common: Model,
}

/// The moves and the fraction a stored reading holds, as the letter wrote
/// them (`12... Nf6 13. Bb5; 20/22`): what the clerk read in a letter the
/// file lists instead of attaching it.
fn what_was_read(parse_json: &str) -> String {
    let Ok(read) = serde_json::from_str::<serde_json::Value>(parse_json) else {
        return String::new();
    };
    let moves: Vec<String> = read["moves"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|m| {
            let dots = if m["color"] == "black" { "..." } else { "." };
            format!(
                "{}{dots} {}",
                m["number"],
                m["written"].as_str().unwrap_or("")
            )
        })
        .collect();
    let fraction = &read["fraction"];
    let fraction = (fraction["white"].is_u64() && fraction["black"].is_u64())
        .then(|| format!("{}/{}", fraction["white"], fraction["black"]));
    let moves = (!moves.is_empty()).then(|| moves.join(" "));
    moves
        .into_iter()
        .chain(fraction)
        .collect::<Vec<_>>()
        .join("; ")
}

/// What the file's own headers and MIME frame take at most.
const MESSAGE_HEADERS: usize = 8 * 1024;

/// Which letters of `sizes` (oldest first) go into a file with room for
/// `budget` bytes of letters: the last letter first (the overstepping one,
/// or the last before a silence), then the others from the newest back,
/// each that still fits.
fn fitting(sizes: &[usize], budget: usize) -> Vec<bool> {
    let mut attached = vec![false; sizes.len()];
    let mut left = budget;
    for index in (0..sizes.len()).rev() {
        if sizes[index] <= left {
            attached[index] = true;
            left -= sizes[index];
        }
    }
    attached
}

fn attached_size(sizes: &[usize], attached: &[bool]) -> usize {
    sizes
        .iter()
        .zip(attached)
        .filter(|(_, kept)| **kept)
        .map(|(size, _)| size)
        .sum()
}

/// How the overstep was counted: "7 moves, 54 days of 50".
fn overstep_computation(
    phrases: &crate::phrases::Phrases,
    overstep: &Overstep,
    by_silence: bool,
) -> String {
    phrases.fill(
        match by_silence {
            true => "overstep.computation_silence",
            false => "overstep.computation",
        },
        &[
            ("moves", &overstep.moves),
            ("limit", &overstep.limit),
            ("total", &overstep.total),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_letters_go_first_and_each_that_fits_after_them() {
        // (sizes oldest first, the room, what is attached)
        let table: &[(&[usize], usize, &[bool])] = &[
            (&[10, 10, 10], 30, &[true, true, true]),
            (&[10, 10, 10], 25, &[false, true, true]),
            (&[5, 100, 10], 20, &[true, false, true]),
            (&[10, 10, 100], 20, &[true, true, false]),
            (&[], 0, &[]),
            (&[1], 0, &[false]),
        ];
        for (sizes, budget, attached) in table {
            assert_eq!(fitting(sizes, *budget), *attached, "{sizes:?} in {budget}");
        }
    }
}

//! What templates read: the lines for a player's next letter, what was read
//! in a letter, corrections, moves as players write them. Dates are written
//! in the tournament's language here, once.

use chrono::NaiveDate;
use shakmaty::Color;

use crate::clerk::Clerk;
use crate::clerk::context::GameNote;
use crate::clerk::say::words::{self, date, date_of, text};
use crate::color_name;
use crate::game::ply_label;
use crate::letter::Letter;
use crate::model;
use crate::phrases::Phrases;
use crate::record::Record;
use crate::render::Model;
use crate::rules::{self, Correction, DateItem, Item};

/// An item's name as templates know it.
pub fn item_name(item: Item) -> &'static str {
    match item {
        Item::Date(DateItem::PartnerPostmark) => "postmark",
        Item::Date(DateItem::Received) => "received",
        Item::Date(DateItem::Sent) => "sent",
        Item::Fraction => "fraction",
        Item::Previous(DateItem::PartnerPostmark) => "previous_postmark",
        Item::Previous(DateItem::Received) => "previous_received",
        Item::Previous(DateItem::Sent) => "previous_sent",
    }
}

/// A change of days with its sign: "+2 days", "-1 day".
fn signed_days(days: i64, phrases: &Phrases) -> String {
    let sign = if days < 0 { '-' } else { '+' };
    format!("{sign}{}", phrases.days(days.abs()))
}

/// Moves as a player reads them, as a score is written: `2. Nf3 Nc6 3. Bb5`
/// (Black's move after White's in the list unnumbered), `2... Nc6` where
/// the list begins with Black's; conditional ones marked.
pub fn label_moves(first_ply: usize, sans: &[(String, bool)]) -> String {
    let mut out = Vec::new();
    for (index, (san, conditional)) in sans.iter().enumerate() {
        let ply = first_ply + index;
        let mark = if *conditional { " (*)" } else { "" };
        if index > 0 && ply % 2 == 1 {
            out.push(format!("{san}{mark}"));
        } else {
            out.push(format!("{} {san}{mark}", ply_label(ply)));
        }
    }
    out.join(" ")
}

/// The moves of plies `first..=last` of a game, as a player reads them:
/// with check and mate signs, as the PGN writes them (the record keeps
/// bare SAN).
pub fn moves_of(record: &Record, first: usize, last: usize) -> String {
    let signed = record.board.sans_with_signs();
    let sans: Vec<(String, bool)> = record.ledger.rows[first..=last]
        .iter()
        .enumerate()
        .map(|(at, row)| {
            let san = signed
                .get(first + at)
                .cloned()
                .unwrap_or_else(|| row.san.clone());
            (san, row.conditional)
        })
        .collect();
    label_moves(first, &sans)
}

/// Lines that tell a player what to write next (the "lines to write").
pub fn next_lines(state: &Record, color: Color, delivered_today: Option<NaiveDate>) -> Model {
    let ledger = &state.ledger;
    let answered = ledger.rows.last().filter(|row| row.by != color);
    // His days count from the day the move reached him, or from the day
    // play resumed where that is later: the lines give that day, so that
    // his count and the clerk's agree.
    let received = answered
        .and_then(|row| row.delivered_on.or(delivered_today))
        .and_then(|day| ledger.clock_from(Some(day)));
    let previous = ledger.last_letter_of(color).and_then(|(_, row)| {
        let facts = row.letter.as_ref()?;
        (!facts.missing_dates.is_empty()).then(|| {
            model! {
                "postmark" => date_of(facts.expected.partner_postmark),
                "received" => date_of(facts.expected.received),
                "sent" => date(facts.expected.sent),
            }
        })
    });
    let totals = ledger.totals();
    let plies = state.board.moves().len() + usize::from(ledger.to_move() != color);
    model! {
        "game" => state.id(),
        "label" => ply_label(plies),
        "color" => color_name(color),
        "first" => ledger.rows.is_empty() && color == Color::White,
        "postmark" => date_of(answered.map(|row| row.sent_on)),
        "received" => date_of(received),
        "totals" => totals.to_string(),
        "own_total" => totals.get(color),
        "previous" => previous,
    }
}

/// The name of an item in the player's language.
pub fn item_label(item: Item, phrases: &Phrases) -> String {
    phrases
        .get(&format!("item.{}", item_name(item)))
        .to_string()
}

/// A correction in one line of plain words.
pub fn correction_text(correction: &Correction, phrases: &Phrases) -> String {
    match correction {
        Correction::Date {
            item,
            stated,
            actual,
            effect_days,
        } => {
            let item = item_label(*item, phrases);
            let (actual, stated) = (phrases.date(*actual), phrases.date(*stated));
            match effect_days.filter(|d| *d != 0) {
                Some(days) => phrases.fill(
                    "correction.date_effect",
                    &[
                        ("item", &item),
                        ("actual", &actual),
                        ("stated", &stated),
                        ("days", &signed_days(days, phrases)),
                    ],
                ),
                None => phrases.fill(
                    "correction.date",
                    &[("item", &item), ("actual", &actual), ("stated", &stated)],
                ),
            }
        }
        Correction::Total {
            player,
            stated,
            actual,
            clock_start,
            leave_days,
            resumed_on,
        } => {
            let name = match player {
                Color::White => "correction.white_total",
                Color::Black => "correction.black_total",
            };
            let text = phrases.fill(name, &[("actual", actual), ("stated", stated)]);
            let key = format!("names.{}", color_name(*player));
            let colour = phrases.get(&key);
            let mut why = Vec::new();
            // Why the days are fewer than from the start date (10.3.2).
            if let Some(day) = clock_start {
                why.push(phrases.fill(
                    "correction.late_start",
                    &[("colour", &colour), ("start", &phrases.date(*day))],
                ));
            }
            // Why they count from a later day: play resumed then (10.3.7).
            if let Some(day) = resumed_on {
                why.push(phrases.fill(
                    "correction.resumed",
                    &[("colour", &colour), ("day", &phrases.date(*day))],
                ));
            }
            // Why they are fewer than the dates count: a leave's days.
            if let Some(days) = leave_days {
                why.push(phrases.fill(
                    "correction.leave",
                    &[("days", &phrases.days(i64::from(*days)))],
                ));
            }
            match why.is_empty() {
                true => text,
                false => format!("{text} ({})", why.join("; ")),
            }
        }
    }
}

pub fn correction_model(correction: &Correction) -> Model {
    let (item, stated, actual, effect) = match correction {
        Correction::Date {
            item,
            stated,
            actual,
            effect_days,
        } => (
            item_name(*item).to_string(),
            date(*stated),
            date(*actual),
            *effect_days,
        ),
        Correction::Total {
            player,
            stated,
            actual,
            ..
        } => (
            format!("{}_total", color_name(*player)),
            Model::from(stated.to_string()),
            Model::from(actual.to_string()),
            None,
        ),
    };
    let said = correction.clone();
    model! {
        "item" => item,
        "stated" => stated,
        "actual" => actual,
        "effect" => effect,
        "text" => text(move |phrases| correction_text(&said, phrases)),
    }
}

impl Clerk<'_> {
    /// What the clerk read in a letter, for the reply. `verdict`, where the
    /// letter was judged, says how dates without labels were taken and what
    /// fraction it should have stated.
    pub(in crate::clerk) fn read_model(
        &self,
        read: &Letter,
        postmark: NaiveDate,
        moves: Option<Model>,
        verdict: Option<&rules::Verdict>,
        game_note: Option<&GameNote>,
    ) -> Model {
        let stated = read.stated(postmark);
        let written: Vec<String> = read.moves.iter().map(|m| m.written.clone()).collect();
        let placement = verdict.and_then(|v| v.placement.as_ref());
        let placed: Vec<Model> = placement
            .into_iter()
            .flat_map(|p| &p.placed)
            .filter(|(item, _)| matches!(item, Item::Date(_)))
            .map(|(item, date)| {
                model! {
                    "item" => item_name(*item),
                    "date" => words::date(*date),
                }
            })
            .collect();
        let unplaced: Vec<Model> = stated.dates.unplaced.iter().copied().map(date).collect();
        let fraction = verdict.map(|v| v.fraction);
        model! {
            "moves" => moves,
            "written" => written.join(" "),
            "fraction" => read.fraction.map(|f| f.to_string()),
            "postmark" => date_of(stated.dates.postmark),
            "received" => date_of(stated.dates.received),
            "sent" => date_of(stated.dates.sent),
            "placed" => placed,
            "placed_certain" => placement.is_none_or(|p| p.certain),
            "unused" => placement.map_or_else(Vec::new, |p| p.unused.iter().copied().map(date).collect()),
            "unplaced" => unplaced,
            // Carried out beside the move (forwarded with it): its receipt
            // says so.
            "draw_offer" => read.keywords.contains(&crate::letter::Keyword::DrawOffer),
            "game_note" => game_note.map(|note| model! {
                "by" => note.by.code(),
                "other" => note.other.as_str(),
            }),
            "errors" => read.errors.iter().map(|e| {
                let error = e.clone();
                text(move |phrases| error.explain_with(phrases, fraction))
            }).collect::<Vec<_>>(),
        }
    }
}

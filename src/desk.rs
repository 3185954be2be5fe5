//! The director's desk: `shtempel today`, what falls
//! due in each tournament from today through a day ahead
//! ([`rules::agenda`]), and the mail that changed nothing
//! ([`Store::changed_nothing`]).
//!
//! Its lines are for the director at a terminal, in English like every
//! command's output; the messages players read stay in the templates.

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::{Value, json};
use shakmaty::Color;

use crate::clerk;
use crate::config::Config;
use crate::error::Error;
use crate::rules::agenda::{Agendum, agenda};
use crate::rules::{Duty, GameResult};
use crate::store::{Store, Unheeded};

/// One line of the agenda: a game's item on its day.
#[derive(Clone, Debug, Serialize)]
pub struct Due {
    /// The tournament's id, for one of a folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    pub game: String,
    pub day: NaiveDate,
    pub white: String,
    pub black: String,
    #[serde(flatten)]
    pub item: Agendum,
}

/// The agenda of every game of `config` from `today` through `through`,
/// by day (the store set to the tournament's scope).
pub fn agenda_of(
    config: &Config,
    store: &Store,
    today: NaiveDate,
    through: NaiveDate,
) -> Result<Vec<Due>, Error> {
    let mut items = Vec::new();
    for game in config.draw().games() {
        let record = clerk::load(config, store, game)?;
        for (day, item) in agenda(&config.rules, &record.ledger, today, through, &record.done) {
            items.push(Due {
                tournament: config.scope().map(str::to_string),
                game: game.id.clone(),
                day,
                white: record.white.name.clone(),
                black: record.black.name.clone(),
                item,
            });
        }
    }
    items.sort_by_key(|due| due.day);
    Ok(items)
}

impl Due {
    /// The game's label: `3`, or `CC-2026/3` in a folder.
    pub fn label(&self) -> String {
        crate::key::GameKey::new(self.tournament.as_deref(), &self.game).to_string()
    }

    fn name(&self, color: Color) -> String {
        let name = match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        };
        format!("{name} ({})", crate::color_name(color))
    }

    /// What falls due, in words.
    pub fn text(&self) -> String {
        // The game as an order names it: with its tournament's id in a
        // folder (`CONFIRM RU-FIN 1`), where `CONFIRM 1` is refused.
        let game = match &self.tournament {
            Some(id) => format!("{id} {}", self.game),
            None => self.game.clone(),
        };
        match &self.item {
            Agendum::MoveOwed { player, days_left } => format!(
                "{} to move: the letter's last day ({} left today)",
                self.name(*player),
                crate::phrases::english_days(*days_left)
            ),
            Agendum::Duty { duty } => match duty {
                Duty::Repeat { author, .. } => format!(
                    "the last move of {} is repeated to the partner by registered letter (10.3.4)",
                    self.name(*author)
                ),
                Duty::FirstMoveQuery => {
                    "Black queries White's first move, none having come (10.3.4)".into()
                }
                Duty::Reminder {
                    player, days_left, ..
                } => format!(
                    "{} is reminded: {} left",
                    self.name(*player),
                    crate::phrases::english_days(*days_left)
                ),
                Duty::SilentOverstep(overstep) => format!(
                    "overstep by silence of {}: {} > {} days (10.3.5); the file goes to the chief arbiter",
                    self.name(overstep.offender),
                    overstep.total,
                    overstep.limit
                ),
                Duty::NoProtest { offender, .. } => format!(
                    "no protest from {} came: the chief arbiter is told (10.3.8)",
                    self.name(*offender)
                ),
                Duty::Adjudication => {
                    "the end date: the game goes to the chief arbiter for adjudication (10.3.2)"
                        .into()
                }
                Duty::GameStart => "the game begins: both players are told".into(),
            },
            Agendum::ProtestCloses { offender } => format!(
                "the last day of {}'s protest against the overstep notice (10.3.8)",
                self.name(*offender)
            ),
            Agendum::DecisionAwaited { offender } => format!(
                "suspended since this day: the chief arbiter's decision on {}'s overstep is awaited (CONFIRM {game}, REJECT {game}, CONTINUE {game})",
                self.name(*offender)
            ),
            Agendum::AdjudicationAwaited => format!(
                "past the end date since this day: the adjudication is awaited (RESULT {game} {}, 0-1 or 1/2)",
                GameResult::WhiteWins.pgn()
            ),
        }
    }
}

/// A letter that changed nothing, in words; `arbiters` are the chief
/// arbiters' addresses (an order of theirs that was refused is not for
/// `accept`, nor is a letter refused in a game now over); `events`, the
/// tournaments of a folder it may be taken in (the command that takes it
/// names one where there are several).
pub fn unheeded_text(letter: &Unheeded, arbiters: &[&str], events: &[&str]) -> String {
    let of_an_arbiter = letter
        .sender
        .as_deref()
        .is_some_and(|sender| arbiters.contains(&sender));
    let what = match letter.disposition.as_str() {
        "quarantined" => "set aside (shtempel retry KEY puts it back)",
        "releasing" => "set aside, ordered back by the chief arbiter (the next poll reads it)",
        "refused" if of_an_arbiter => "an order not carried out, the chief arbiter told why",
        // What `accept` cannot take gets no `accept`:
        // the clerk writes these reasons so (clerk::letters, clerk::leave).
        "refused" if letter.reason.starts_with("a ruling from ") => {
            "an order from someone not the chief arbiter, not carried out, its writer told whose orders count"
        }
        "refused" if letter.reason.starts_with("leave refused") => {
            "a leave refused, its writer told why (a new leave letter, within the allowance, is taken)"
        }
        "refused" if letter.game_over => {
            "refused, its writer told why; its game is over, so nothing in it can be taken"
        }
        "refused" => {
            let key = shell_word(&letter.dedup_key);
            // The event is named where the letter was read in one of a
            // folder's, or where it may be taken in several.
            let named = letter.game.as_ref().and_then(|game| game.tournament());
            let commands: Vec<String> = match (events, named) {
                ([_, _, ..], _) | ([_], Some(_)) => events
                    .iter()
                    .map(|id| format!("shtempel accept {key} --tournament {}", shell_word(id)))
                    .collect(),
                _ => vec![format!("shtempel accept {key}")],
            };
            return format!(
                "{}  {}  from {}: refused, its writer told why ({} takes it as the clerk \
                 read it; add --move \"…\" to take it with the move it meant): {}",
                letter.postmark,
                letter.dedup_key,
                letter.sender.as_deref().unwrap_or("(no sender)"),
                commands.join(", or "),
                letter.reason
            );
        }
        _ => "ignored",
    };
    format!(
        "{}  {}  from {}: {what}: {}",
        letter.postmark,
        letter.dedup_key,
        letter.sender.as_deref().unwrap_or("(no sender)"),
        letter.reason
    )
}

/// A word as a shell reads it back unchanged: as it is where it holds
/// nothing a shell treats specially, else in single quotes.
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "@%+=:,./_-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The JSON of `today --json`.
pub fn to_json(today: NaiveDate, through: NaiveDate, due: &[Due], unheeded: &[Unheeded]) -> Value {
    let letters: Vec<Value> = unheeded
        .iter()
        .map(|letter| {
            json!({
                "key": letter.dedup_key,
                "source_key": letter.source_key,
                "postmark": letter.postmark,
                "from": letter.sender,
                "disposition": letter.disposition,
                "reason": letter.reason,
                "game": letter.game.as_ref().map(|key| key.game()),
                "tournament": letter.game.as_ref().and_then(|key| key.tournament()),
                "game_over": letter.game_over,
            })
        })
        .collect();
    json!({
        "today": today,
        "through": through,
        "due": due,
        "changed_nothing": letters,
    })
}

//! What a message says, held as facts until it is said to its reader: a
//! day, a phrase, a sentence of the phrases, a board. A model holds these
//! where the words depend on who reads them (his language, his board
//! setting); [`spoken`] words them all in one reader's [`Voice`], so that
//! one decision is said to each reader in his own words without deciding
//! again.

use std::sync::Arc;

use chrono::NaiveDate;
use minijinja::value::{Object, ObjectRepr, ValueKind};

use crate::clerk::say::board::{BoardView, Shown};
pub use crate::clerk::say::voice::Voice;
use crate::phrases::Phrases;
use crate::render::{Fields, Model};

type Wording = dyn Fn(Voice<'_>) -> Model + Send + Sync;

/// A value worded when said: a day, a phrase, a sentence.
pub struct Words(Arc<Wording>);

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<words said to a reader>")
    }
}

impl Object for Words {
    fn repr(self: &Arc<Self>) -> ObjectRepr {
        ObjectRepr::Plain
    }
}

/// A value worded by `wording` in each reader's voice.
pub fn worded(wording: impl Fn(Voice<'_>) -> Model + Send + Sync + 'static) -> Model {
    Model::from_object(Words(Arc::new(wording)))
}

/// A sentence (or any text) of the reader's phrases.
pub fn text(wording: impl Fn(&Phrases) -> String + Send + Sync + 'static) -> Model {
    worded(move |voice| Model::from(wording(voice.phrases)))
}

/// A day, written as the reader's language writes days.
pub fn date(day: NaiveDate) -> Model {
    text(move |phrases| phrases.date(day))
}

/// A day, if any.
pub fn date_of(day: Option<NaiveDate>) -> Model {
    day.map_or(Model::from(()), date)
}

/// Moves logged in SAN (`1. Nf3 Nc6`), in the reader's notation.
pub fn moves(log: &str) -> Model {
    let log = log.to_string();
    text(move |phrases| phrases.moves(&log))
}

/// A colour's name (`names.white`), as the reader's language says it.
pub fn colour(colour: shakmaty::Color) -> Model {
    text(move |phrases| {
        let name = format!("names.{}", crate::color_name(colour));
        phrases.get(&name).to_string()
    })
}

/// The phrase `name` of the reader's phrases.
pub fn phrase(name: &'static str) -> Model {
    text(move |phrases| phrases.get(name).to_string())
}

/// A phrase filled with values that read the same in every language:
/// `said!("reason.no_player", "player" => id)` (a [`Sentence`]).
#[macro_export]
macro_rules! said {
    ($name:literal $(, $key:literal => $value:expr)* $(,)?) => {
        $crate::clerk::say::words::Sentence::filled(
            $name,
            vec![$(($key, ($value).to_string())),*],
        )
    };
}

/// Words in any reader's language, kept to be said to a player and
/// logged in the event's: a reason a letter is refused.
#[derive(Clone)]
pub struct Sentence(Arc<dyn Fn(&Phrases) -> String + Send + Sync>);

impl Sentence {
    pub fn new(wording: impl Fn(&Phrases) -> String + Send + Sync + 'static) -> Sentence {
        Sentence(Arc::new(wording))
    }

    /// Words as someone wrote them, the same in every language.
    pub fn written(words: impl Into<String>) -> Sentence {
        let words = words.into();
        Sentence::new(move |_| words.clone())
    }

    /// The phrase `name`.
    pub fn phrase(name: &'static str) -> Sentence {
        Sentence::new(move |phrases| phrases.get(name).to_string())
    }

    /// The phrase `name` filled with `values` (see [`said!`]).
    pub fn filled(name: &'static str, values: Vec<(&'static str, String)>) -> Sentence {
        Sentence::new(move |phrases| {
            let values: Vec<(&str, &dyn std::fmt::Display)> = values
                .iter()
                .map(|(key, value)| (*key, value as &dyn std::fmt::Display))
                .collect();
            phrases.fill(name, &values)
        })
    }

    /// In the words of `phrases`.
    pub fn in_words(&self, phrases: &Phrases) -> String {
        (self.0)(phrases)
    }

    /// As a model's value, worded when said.
    pub fn model(&self) -> Model {
        let sentence = self.clone();
        text(move |phrases| sentence.in_words(phrases))
    }
}

impl std::fmt::Debug for Sentence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.in_words(&Phrases::builtin(crate::Lang::En)))
    }
}

/// A model as its reader reads it, and the boards it shows him (drawn as
/// pictures where his text shows them).
pub struct Spoken {
    pub model: Model,
    pub boards: Vec<BoardView>,
}

/// `model` with every fact in it worded in `voice`.
pub fn spoken(model: &Model, voice: Voice<'_>) -> Spoken {
    let mut boards = Vec::new();
    let model = said(model, voice, &mut boards).unwrap_or_else(|| model.clone());
    Spoken { model, boards }
}

/// `value` worded, or `None` where it holds nothing to word (it is then
/// used as it is, not copied).
fn said(value: &Model, voice: Voice<'_>, boards: &mut Vec<BoardView>) -> Option<Model> {
    if let Some(words) = value.downcast_object_ref::<Words>() {
        let worded = (words.0)(voice);
        return Some(said(&worded, voice, boards).unwrap_or(worded));
    }
    if let Some(shown) = value.downcast_object_ref::<Shown>() {
        // No board at all where the reader asked for none.
        let Some(view) = shown.view(voice) else {
            return Some(Model::from(()));
        };
        let model = view.model.clone();
        boards.push(view);
        return Some(model);
    }
    if let Some(fields) = value.downcast_object_ref::<Fields>() {
        let mut changed = false;
        let values: Vec<_> = fields
            .0
            .iter()
            .map(|(name, value)| match said(value, voice, boards) {
                Some(new) => {
                    changed = true;
                    (*name, new)
                }
                None => (*name, value.clone()),
            })
            .collect();
        return changed.then(|| Model::from_object(Fields(values)));
    }
    match value.kind() {
        ValueKind::Seq => {
            let items: Vec<Model> = value.try_iter().ok()?.collect();
            let mut changed = false;
            let items: Vec<Model> = items
                .into_iter()
                .map(|item| match said(&item, voice, boards) {
                    Some(new) => {
                        changed = true;
                        new
                    }
                    None => item,
                })
                .collect();
            changed.then(|| Model::from(items))
        }
        ValueKind::Map => {
            let keys: Vec<Model> = value.try_iter().ok()?.collect();
            let mut changed = false;
            let entries: Vec<(Model, Model)> = keys
                .into_iter()
                .map(|key| {
                    let item = value.get_item(&key).unwrap_or_default();
                    match said(&item, voice, boards) {
                        Some(new) => {
                            changed = true;
                            (key, new)
                        }
                        None => (key, item),
                    }
                })
                .collect();
            changed.then(|| {
                Model::from_object(
                    entries
                        .into_iter()
                        .collect::<std::collections::BTreeMap<_, _>>(),
                )
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;
    use crate::model;
    use crate::render::merged;

    fn voice(phrases: &Phrases) -> Voice<'_> {
        Voice {
            phrases,
            diagrams: crate::config::Diagrams::Text,
        }
    }

    #[test]
    fn facts_are_worded_in_each_readers_language_wherever_they_stand() {
        let day = NaiveDate::from_ymd_opt(2026, 12, 6).unwrap();
        let model = merged(
            model! { "held" => date(day) },
            model! {
                "games" => vec![model! { "last_day" => date(day), "id" => "1" }],
                "days" => text(|p| p.days(3)),
                "plain" => "as it is",
            },
        );
        for (lang, written, days) in [
            (Lang::En, "2026-12-06", "3 days"),
            (Lang::Ru, "06.12.2026", "3 дн."),
        ] {
            let phrases = Phrases::builtin(lang);
            let said = spoken(&model, voice(&phrases)).model;
            let get = |path: &str| {
                let step = |value: Model, part: &str| match part.parse::<usize>() {
                    Ok(at) => value.get_item(&Model::from(at)).unwrap(),
                    Err(_) => value.get_attr(part).unwrap(),
                };
                path.split('.').fold(said.clone(), step).to_string()
            };
            assert_eq!(get("held"), written, "{lang:?}");
            assert_eq!(get("games.0.last_day"), written, "{lang:?}");
            assert_eq!(get("games.0.id"), "1");
            assert_eq!(get("days"), days, "{lang:?}");
            assert_eq!(get("plain"), "as it is");
        }
    }

    #[test]
    fn a_model_of_no_facts_is_used_as_it_is() {
        let model = model! { "id" => "1", "list" => vec![1, 2] };
        assert!(said(&model, voice(&Phrases::builtin(Lang::En)), &mut Vec::new()).is_none());
    }
}

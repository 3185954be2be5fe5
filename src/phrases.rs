//! The clerk's short phrases (`templates/<lang>/phrases.toml`): reasons,
//! notes, explanations of errors, and the labels of the chart, its plot and
//! the report. Each is a text with `{name}` places for values. A tournament's
//! own file overrides any of them; the rest come from the built-in file. Pure:
//! the text is handed in.

use crate::error::Error;
use std::collections::HashMap;
use std::sync::OnceLock;

use chrono::NaiveDate;

use crate::Lang;

const BUILTIN_RU: &str = include_str!("../templates/ru/phrases.toml");
const BUILTIN_EN: &str = include_str!("../templates/en/phrases.toml");

/// A number of days in English, as the director's lines and the log say
/// it: "1 day", "5 days" (not "day(s)").
pub fn english_days(n: impl Into<i64>) -> String {
    match n.into() {
        1 => "1 day".to_string(),
        n => format!("{n} days"),
    }
}

/// The phrases of one language, by `section.key`.
#[derive(Clone, Debug)]
pub struct Phrases {
    lang: Lang,
    texts: HashMap<String, String>,
    lists: HashMap<String, Vec<String>>,
}

/// The text of the built-in phrases file.
pub fn builtin_text(lang: Lang) -> &'static str {
    match lang {
        Lang::Ru => BUILTIN_RU,
        Lang::En => BUILTIN_EN,
    }
}

impl Phrases {
    /// The built-in phrases (parsed once per language).
    pub fn builtin(lang: Lang) -> Phrases {
        static RU: OnceLock<Phrases> = OnceLock::new();
        static EN: OnceLock<Phrases> = OnceLock::new();
        let cell = match lang {
            Lang::Ru => &RU,
            Lang::En => &EN,
        };
        cell.get_or_init(|| Phrases::parse(lang, None).expect("the built-in phrases are valid"))
            .clone()
    }

    /// The built-in phrases with those of `own` (a tournament's file) over
    /// them. An unknown phrase, or a place for a value the built-in phrase
    /// does not have, is an error naming the phrase.
    pub fn parse(lang: Lang, own: Option<&str>) -> Result<Phrases, Error> {
        let builtin = builtin_text(lang);
        let mut phrases = Phrases {
            lang,
            texts: HashMap::new(),
            lists: HashMap::new(),
        };
        phrases.add(builtin, false)?;
        if let Some(own) = own {
            phrases.add(own, true)?;
        }
        Ok(phrases)
    }

    fn add(&mut self, text: &str, over: bool) -> Result<(), Error> {
        let table: toml::Table = text.parse().map_err(Error::template)?;
        for (section, keys) in table {
            let toml::Value::Table(keys) = keys else {
                return Err(Error::template(format!(
                    "{section}: a section of phrases expected"
                )));
            };
            for (key, value) in keys {
                let name = format!("{section}.{key}");
                match value {
                    toml::Value::String(text) => {
                        if over {
                            self.check_override(&name, &text)?;
                        }
                        self.texts.insert(name, text);
                    }
                    toml::Value::Array(items) => {
                        let items: Option<Vec<String>> = items
                            .into_iter()
                            .map(|item| item.as_str().map(str::to_string))
                            .collect();
                        let items = items.ok_or_else(|| {
                            Error::template(format!("{name}: a list of texts expected"))
                        })?;
                        if over && self.lists.get(&name).map(Vec::len) != Some(items.len()) {
                            return Err(Error::template(format!(
                                "{name}: {} texts, as many as the built-in list has, expected",
                                self.lists.get(&name).map_or(0, Vec::len)
                            )));
                        }
                        self.lists.insert(name, items);
                    }
                    _ => return Err(Error::template(format!("{name}: a text expected"))),
                }
            }
        }
        Ok(())
    }

    /// A director's phrase must be one the clerk has, with no place for a
    /// value it does not give.
    fn check_override(&self, name: &str, text: &str) -> Result<(), Error> {
        let Some(builtin) = self.texts.get(name) else {
            return Err(Error::template(format!("{name}: no such phrase")));
        };
        let given = places(builtin);
        if let Some(unknown) = places(text)
            .into_iter()
            .find(|place| !given.contains(place))
        {
            return Err(Error::template(format!(
                "{name}: {{{unknown}}} is not a value of this phrase (it has: {})",
                given.join(", ")
            )));
        }
        Ok(())
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// A date as the language writes it.
    pub fn date(&self, date: NaiveDate) -> String {
        self.lang.date(date)
    }

    /// The phrase `name`, its places filled from `values`.
    pub fn fill(&self, name: &str, values: &[(&str, &dyn std::fmt::Display)]) -> String {
        let mut text = self.get(name).to_string();
        for (place, value) in values {
            text = text.replace(&format!("{{{place}}}"), &value.to_string());
        }
        text
    }

    /// The phrase `name` as it is.
    pub fn get<'a>(&'a self, name: &'a str) -> &'a str {
        self.texts.get(name).map_or(name, String::as_str)
    }

    /// A number of days: "1 day", "5 days"; "5 дн.".
    pub fn days(&self, n: i64) -> String {
        let unit = if n == 1 { "units.day" } else { "units.days" };
        format!("{n} {}", self.get(unit))
    }

    /// A move in SAN (`Nxf3+`, `O-O`, `e8=Q`) as the language writes it for
    /// people: `К:f3+`, `0-0`, `e8=Ф` in Russian.
    pub fn san(&self, san: &str) -> String {
        let signs = san.trim_start_matches(|c: char| c != '+' && c != '#');
        let bare = &san[..san.len() - signs.len()];
        match bare {
            "O-O" => return format!("{}{signs}", self.get("notation.castle_short")),
            "O-O-O" => return format!("{}{signs}", self.get("notation.castle_long")),
            _ => {}
        }
        let mut out = String::with_capacity(san.len() + 4);
        for c in san.chars() {
            match c {
                'K' => out.push_str(self.get("notation.king")),
                'Q' => out.push_str(self.get("notation.queen")),
                'R' => out.push_str(self.get("notation.rook")),
                'B' => out.push_str(self.get("notation.bishop")),
                'N' => out.push_str(self.get("notation.knight")),
                'x' => out.push_str(self.get("notation.capture")),
                c => out.push(c),
            }
        }
        out
    }

    /// A text of move labels and SAN moves (`4... Nf6 5. O-O`), each move as
    /// the language writes it.
    pub fn moves(&self, text: &str) -> String {
        text.split(' ')
            .map(|word| self.san(word))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The list of texts `name` (table columns).
    pub fn list(&self, name: &str) -> Vec<&str> {
        self.lists
            .get(name)
            .map(|items| items.iter().map(String::as_str).collect())
            .unwrap_or_default()
    }
}

/// The `{name}` places of a phrase.
fn places(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('{') {
        let after = &rest[start + 1..];
        let Some(end) = after.find('}') else { break };
        found.push(after[..end].to_string());
        rest = &after[end + 1..];
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_russian_words_name_the_clerk_one_way_and_a_player_without_gender() {
        let ru = Phrases::builtin(Lang::Ru);
        for (name, text) in &ru.texts {
            assert!(
                !text.contains("судья-секретар") && !text.contains("судьи-секретар"),
                "{name}: {text}"
            );
        }
        // Of a player whose address was added: «этого игрока», never «его».
        let added = ru.fill("note.address_added", &[("address", &"b@x.example")]);
        assert_eq!(added, "; адрес b@x.example с тех пор — адрес этого игрока");
        let en = Phrases::builtin(Lang::En);
        let added = en.fill("note.address_added", &[("address", &"b@x.example")]);
        assert_eq!(added, "; b@x.example is the player's address from then on");
    }

    #[test]
    fn both_languages_have_the_same_phrases_with_the_same_places() {
        let ru = Phrases::builtin(Lang::Ru);
        let en = Phrases::builtin(Lang::En);
        let mut names: Vec<&String> = ru.texts.keys().collect();
        names.sort();
        for name in names {
            let english = en
                .texts
                .get(name)
                .unwrap_or_else(|| panic!("{name} in English"));
            let mut ours = places(&ru.texts[name]);
            let mut theirs = places(english);
            ours.sort();
            ours.dedup();
            theirs.sort();
            theirs.dedup();
            // The same values in both, but where a language writes a date
            // its own way.
            if name != "error.ambiguous_date" {
                assert_eq!(ours, theirs, "{name}");
            }
        }
        assert_eq!(ru.texts.len(), en.texts.len());
        for (name, list) in &ru.lists {
            assert_eq!(en.lists[name].len(), list.len(), "{name}");
        }
    }

    #[test]
    fn a_directors_phrase_replaces_the_builtin_one_and_is_checked() {
        let own = "[reason]\nno_move = \"Ход не найден.\"\n";
        let phrases = Phrases::parse(Lang::Ru, Some(own)).unwrap();
        assert_eq!(phrases.get("reason.no_move"), "Ход не найден.");
        assert_eq!(
            phrases.fill("reason.game_over", &[("result", &"1-0")]),
            "партия окончена (1-0), ходы больше не принимаются"
        );
        let unknown = Phrases::parse(Lang::Ru, Some("[reason]\nno_moves = \"x\"\n")).unwrap_err();
        assert!(
            unknown
                .to_string()
                .contains("reason.no_moves: no such phrase"),
            "{unknown}"
        );
        let place =
            Phrases::parse(Lang::En, Some("[reason]\ngame_over = \"{score}\"\n")).unwrap_err();
        assert!(
            place.to_string().contains("{score} is not a value"),
            "{place}"
        );
        let short = Phrases::parse(Lang::En, Some("[chart]\ncolumns = [\"a\"]\n")).unwrap_err();
        assert!(short.to_string().contains("chart.columns"), "{short}");
    }
}

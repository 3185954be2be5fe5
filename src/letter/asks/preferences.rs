//! What the clerk's letters to their reader carry: `DIAGRAMS TEXT|PICTURE|
//! BOTH|NONE` (`ДИАГРАММЫ ТЕКСТ|КАРТИНКА|ОБА|НЕТ`), `LANGUAGE EN|RU`
//! (`ЯЗЫК …`), and how they come, `DIGEST DAILY|NONE` (`СВОДКА
//! ЕЖЕДНЕВНО|НЕТ`), each alone on its line.

use crate::Diagrams;
use crate::letter::{Letter, Preference};

// `DIAGRAMS TEXT`, `ЯЗЫК EN`: the word and one value, alone on the line.
pattern!(
    PREFERENCE_LINE,
    r"(?i)^\s*(diagrams?|диаграммы?|language|язык|digest|сводка)\s*:?\s+(\p{L}+)\s*\.?\s*$"
);

/// A preference's line read: what it sets, or the word that sets nothing.
fn preference_of(word: &str, value: &str) -> Preference {
    let (word, lower) = (word.to_lowercase(), value.to_lowercase());
    let set = if word.starts_with("diagram") || word.starts_with("диаграм") {
        match lower.as_str() {
            "text" | "текст" => Some(Preference::Diagrams(Diagrams::Text)),
            "picture" | "картинка" | "рисунок" => {
                Some(Preference::Diagrams(Diagrams::Picture))
            }
            "both" | "оба" | "всё" | "все" => Some(Preference::Diagrams(Diagrams::Both)),
            "none" | "no" | "нет" => Some(Preference::Diagrams(Diagrams::None)),
            _ => None,
        }
    } else if word == "digest" || word == "сводка" {
        match lower.as_str() {
            "daily" | "ежедневно" | "ежедневная" => {
                Some(Preference::Digest(crate::Digest::Daily))
            }
            "none" | "no" | "off" | "нет" => Some(Preference::Digest(crate::Digest::None)),
            _ => None,
        }
    } else {
        match lower.as_str() {
            "en" | "english" | "английский" => {
                Some(Preference::Language(crate::Lang::En))
            }
            "ru" | "russian" | "русский" | "ру" => {
                Some(Preference::Language(crate::Lang::Ru))
            }
            _ => None,
        }
    };
    set.unwrap_or_else(|| Preference::Unknown(value.to_string()))
}

/// The first letters (lower-cased) of its labels.
const PREFERENCE_FIRST: &str = "dдlяс";

/// Reads `line` as a setting, where it is one.
pub(in crate::letter) fn read(letter: &mut Letter, line: &str, may: &dyn Fn(&str) -> bool) -> bool {
    let Some(caps) = may(PREFERENCE_FIRST)
        .then(|| PREFERENCE_LINE.captures(line))
        .flatten()
    else {
        return false;
    };
    letter.preferences.push(preference_of(&caps[1], &caps[2]));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_begins_with_a_letter_its_pattern_is_tried_for() {
        crate::letter::lines::tests::assert_tried_for(&[(&PREFERENCE_LINE, PREFERENCE_FIRST, 6)]);
    }
}

//! Every word true, round two (issue 34): the clerk's letters as the
//! player reads them, one test a point, named after it, showing the text
//! that now goes out.

use std::path::Path;

use crate::support::*;

/// The built-in templates and phrases of `language`, each file's text.
fn templates(language: &str) -> Vec<(String, String)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("templates")
        .join(language);
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (
                path.file_name().unwrap().to_string_lossy().into_owned(),
                text,
            )
        })
        .collect()
}

/// Point 2: no letter assumes a man. English: the name or "they", never
/// he, him or his; Russian: no past tense that needs a gender, not even
/// the «сделал(а)» that admits it.
#[test]
fn point_2_no_letter_assumes_a_man() {
    let he = regex::Regex::new(r"\b(?i:he|him|his|himself)\b").unwrap();
    for (file, text) in templates("en") {
        for (at, line) in text.lines().enumerate() {
            assert!(!he.is_match(line), "templates/en/{file}:{}: {line}", at + 1);
        }
    }
    let either = regex::Regex::new(r"[а-яё]\((а|ла|ёл)\)").unwrap();
    for (file, text) in templates("ru") {
        for (at, line) in text.lines().enumerate() {
            assert!(
                !either.is_match(line),
                "templates/ru/{file}:{}: {line}",
                at + 1
            );
        }
    }
    // As a partner reads them: the forward in Russian, and the letter
    // about a newcomer in English.
    let mut t = Cup::new().in_language("ru").open();
    let mail = t.exchange(WHITE, "2026-11-03", "Партия 1", W1);
    let forward = mail.iter().find(|m| m.kind == "forward").unwrap();
    forward.says("Ход партнёра (White Player) в партии 1 (White Player — Black Player):");
    let mut t = Cup::new().open();
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.poll("2026-11-03");
    t.new_mail();
    let mail = t.exchange(
        ARBITER,
        "2026-11-04",
        "Game 1",
        "REPLACE white Anna Green <anna@test.example>\n",
    );
    let replaced = mail.iter().find(|m| m.kind == "replaced").unwrap();
    replaced.says("write your moves to Anna Green (or to the clerk, as before).");
}

//! The golden corpus: `tests/letters/NAME.txt` is a letter body (or
//! `NAME.eml` a whole message as a mail program writes it, read through the
//! MIME front end), `NAME.json`
//! gives the game before it (`before`, moves in SAN), who writes (`by`, default
//! the side to move), the day it arrived (`near`, for dates without a year) and
//! under `expect` what the reader and the board must make of it.
//!
//! One test runs them all and names every file that fails, with a diff written to
//! `NAME.failed`. `SHTEMPEL_BLESS=1 cargo test --test corpus` rewrites `expect`
//! from the current output, to be reviewed before committing.

use std::fs;
use std::path::Path;

use chrono::NaiveDate;
use serde_json::{Value, json};
use shakmaty::Color;
use shtempel::game::{Game, ply_label};
use shtempel::letter::{self, DateOrder, DateReading, Letter, MoveToken, WrittenDates};
use shtempel::mail::format::mime;

fn token_text(token: &MoveToken) -> String {
    match (token.number, token.color) {
        (Some(number), Some(Color::White)) => format!("{number}. {}", token.text),
        (Some(number), Some(Color::Black)) => format!("{number}... {}", token.text),
        _ => token.text.to_string(),
    }
}

fn dates_json(dates: &WrittenDates, near: NaiveDate) -> Value {
    let resolved = dates.resolve(near);
    let mut out = serde_json::Map::new();
    for (name, date) in [
        ("postmark", resolved.postmark),
        ("received", resolved.received),
        ("sent", resolved.sent),
    ] {
        if let Some(date) = date {
            out.insert(name.into(), json!(date.to_string()));
        }
    }
    if !resolved.unplaced.is_empty() {
        let unplaced: Vec<String> = resolved.unplaced.iter().map(|d| d.to_string()).collect();
        out.insert("unplaced".into(), json!(unplaced));
    }
    Value::Object(out)
}

fn board_json(letter: &Letter, before: &str, by: Option<Color>) -> Value {
    let sans: Vec<&str> = before.split_whitespace().collect();
    let game = Game::from_sans(&sans, Vec::new()).expect("`before` must be a legal game");
    let by = by.unwrap_or(game.turn());
    match game.apply(by, &letter.moves, &letter.variants) {
        Ok(applied) => {
            let first = sans.len();
            let played: Vec<String> = applied
                .plies
                .iter()
                .enumerate()
                .map(|(i, ply)| {
                    let mark = if ply.conditional { "*" } else { "" };
                    format!("{mark}{}{}", ply_label(first + i), ply.san)
                })
                .collect();
            let variants: Vec<Vec<String>> =
                applied.offered.iter().map(|v| v.sans.clone()).collect();
            json!({"played": played, "variants": variants, "end": applied.end.map(|e| e.result())})
        }
        Err(refusal) => {
            json!({"refused": serde_json::to_value(&refusal.reason).unwrap()["code"], "line": refusal.line})
        }
    }
}

fn actual(body: &str, meta: &Value) -> Value {
    let near: NaiveDate = meta["near"]
        .as_str()
        .unwrap_or("2026-11-15")
        .parse()
        .expect("near");
    let order = match meta["date_order"].as_str() {
        Some("mdy") => DateOrder::Mdy,
        _ => DateOrder::Dmy,
    };
    let reading = DateReading {
        order,
        postmark: Some(near),
    };
    let letter = letter::read_with(body, reading);
    let by = match meta["by"].as_str() {
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        _ => None,
    };
    let mut out = json!({
        "game": letter.game,
        "read": letter.moves.iter().map(token_text).collect::<Vec<_>>(),
        "variants": letter.variants.iter().map(|v| v.moves.iter().map(token_text).collect::<Vec<_>>()).collect::<Vec<_>>(),
        "fraction": letter.fraction.map(|f| f.to_string()),
        "dates": dates_json(&letter.dates, near),
        "previous_dates": letter.previous_dates.as_ref().map(|d| dates_json(d, near)),
        "keywords": letter.keywords,
        "rulings": letter.rulings.iter().map(ruling_text).collect::<Vec<_>>(),
        "errors": letter.errors.iter().map(|e| format!("line {}: {}", e.line, e.code())).collect::<Vec<_>>(),
    });
    if letter.has_moves() {
        out["board"] = board_json(&letter, meta["before"].as_str().unwrap_or(""), by);
    }
    // Every error explains itself in both languages, naming its line.
    for error in &letter.errors {
        for lang in [shtempel::Lang::Ru, shtempel::Lang::En] {
            let text = error.explain(&shtempel::phrases::Phrases::builtin(lang));
            assert!(text.contains(&error.line.to_string()), "{text}");
        }
    }
    out
}

#[test]
fn golden_corpus_of_letters() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/letters");
    let bless = std::env::var_os("SHTEMPEL_BLESS").is_some();
    let mut names: Vec<String> = fs::read_dir(&dir)
        .expect("tests/letters")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".txt") || name.ends_with(".eml"))
        .collect();
    names.sort();
    assert!(
        names.len() >= 40,
        "the corpus has {} letters, at least 40 expected",
        names.len()
    );
    let mut failures = Vec::new();
    for file in &names {
        let (name, extension) = file.rsplit_once('.').expect("an extension");
        let body = match extension {
            "eml" => {
                let raw = fs::read(dir.join(file)).expect("letter");
                mime::parse(&raw, "clerk@example.org")
                    .unwrap_or_else(|| panic!("{file} is mail"))
                    .text
            }
            _ => fs::read_to_string(dir.join(file)).expect("letter"),
        };
        let meta_path = dir.join(format!("{name}.json"));
        let mut meta: Value = serde_json::from_str(&fs::read_to_string(&meta_path).expect("json"))
            .expect("valid json");
        let got = actual(&body, &meta);
        let failed = dir.join(format!("{name}.failed"));
        if bless {
            meta["expect"] = got;
            fs::write(
                &meta_path,
                serde_json::to_string_pretty(&meta).unwrap() + "\n",
            )
            .unwrap();
            continue;
        }
        if meta["expect"] == got {
            let _ = fs::remove_file(&failed);
        } else {
            fs::write(&failed, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
            failures.push(format!(
                "{name}: expected\n{}\ngot\n{}",
                serde_json::to_string_pretty(&meta["expect"]).unwrap(),
                serde_json::to_string_pretty(&got).unwrap()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} letters differ:\n\n{}",
        failures.len(),
        names.len(),
        failures.join("\n\n")
    );
}

/// A ruling as the golden files write it: `confirm 1`, `result(whitewins) 3`.
fn ruling_text(ruling: &shtempel::letter::Ruling) -> String {
    use shtempel::letter::WrittenOrder;
    let order = match &ruling.order {
        WrittenOrder::Overstep { decision, .. } => format!("{decision:?}"),
        WrittenOrder::Result { result, .. } => format!("Result({result:?})"),
        WrittenOrder::Forfeit { result, .. } => format!("Forfeit({result:?})"),
        other => format!("{other:?}")
            .split([' ', '('])
            .next()
            .unwrap_or_default()
            .to_string(),
    };
    format!("{order} {}", ruling.order.named()).to_lowercase()
}

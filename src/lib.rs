//! shtempel: an e-mail clerk for correspondence chess.
//!
//! # Layout
//!
//! The modules form layers; an arrow may only point down (see `design.md`).
//!
//! ```text
//! main.rs      CLI: reads the clock once, loads config, wires adapters, exit codes
//!    |
//! rules/       PURE: calendar days, clocks, corrections, omissions, penalties,
//!              overstep, the calendar duties of 10.3.4 (`rules::due`)
//! letter/      PURE: a letter's own text -> `Letter` (moves, variants, fraction,
//!              dates, keywords, decisions) or errors naming the line
//! game.rs      PURE: the game record on shakmaty: moves in any notation resolved on
//!              the position, repeats checked, conditional variants held and played,
//!              the ends of a game, PGN
//! chart.rs     PURE: the time chart (Table 2): rows, text, CSV and JSON
//! plot.rs      PURE: the time chart as an SVG picture (plotters)
//! report.rs    PURE: the tournament report: a static site of HTML pages
//! ```
//!
//! The pure modules take values and return values: no files, no network, no
//! database and no clock. The day is always a parameter.

#![forbid(unsafe_code)]

pub mod chart;
pub mod game;
pub mod letter;
pub mod mail;
pub mod message;
pub mod phrases;
pub mod plot;
pub mod rules;

use serde::Serialize;

/// The language of a tournament and of everything the clerk writes in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    Ru,
    En,
}

impl Lang {
    /// Picks the Russian or the English text.
    pub fn pick<'a>(self, ru: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Ru => ru,
            Lang::En => en,
        }
    }

    /// A date as the language writes it: `07.11.2026`, `2026-11-07`.
    pub fn date(self, date: chrono::NaiveDate) -> String {
        date.format(self.pick("%d.%m.%Y", "%Y-%m-%d")).to_string()
    }
}

/// A colour's lowercase English name, as the contract's JSON writes it.
pub fn color_name(color: shakmaty::Color) -> &'static str {
    match color {
        shakmaty::Color::White => "white",
        shakmaty::Color::Black => "black",
    }
}

/// Serde for shakmaty's `Color` as `"white"` / `"black"`.
pub mod color_serde {
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Color;

    pub fn serialize<S: Serializer>(color: &Color, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(crate::color_name(*color))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Color, D::Error> {
        match String::deserialize(deserializer)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::custom(format!(
                "expected white or black, got {other:?}"
            ))),
        }
    }
}
pub mod clerk;
pub mod config;
pub mod demo;
pub mod fault;
pub mod record;
pub mod render;
pub mod report;
pub mod run;
pub mod site;
pub mod store;

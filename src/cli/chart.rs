//! `shtempel chart GAME`: a game's time chart (Table 2) as text, CSV, JSON
//! or SVG.

use shtempel::clerk;
use shtempel::config::Config;

use super::database::{load_state, open_store};
use super::{Context, Failure, load, run_error, usage};

#[derive(clap::Args)]
pub struct Args {
    /// The game's id.
    game: String,
    /// Text (Table 2 as the rules print it), CSV, JSON or an SVG picture.
    #[arg(long, value_enum, default_value = "text")]
    format: ChartFormat,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let config = load(&cx.config, cx.tournament())?;
        chart(&config, &self.game, self.format)
    }
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub(super) enum ChartFormat {
    Text,
    Csv,
    Json,
    Svg,
}

pub(super) fn chart(config: &Config, game: &str, format: ChartFormat) -> Result<u8, Failure> {
    let store = open_store(config)?;
    let state = load_state(config, &store, game)?;
    let chart = clerk::stored_chart(&state, config, &store, config.language).map_err(run_error)?;
    let phrases = shtempel::render::load_phrases(&config.templates, config.language)
        .map_err(|e| usage(e.to_string()))?;
    let text = match format {
        ChartFormat::Text => chart.to_text(&phrases),
        ChartFormat::Csv => chart.to_csv(),
        ChartFormat::Svg => {
            shtempel::chart::plot::svg(&chart, &config.rules, &phrases).map_err(run_error)?
        }
        ChartFormat::Json => {
            serde_json::to_string_pretty(&chart.to_json()).unwrap_or_default() + "\n"
        }
    };
    print!("{text}");
    Ok(0)
}

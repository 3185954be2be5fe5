//! Writes the tournament report (`report.rs`) into a folder: loads every
//! game, builds the pages, and writes each file through a temporary name so
//! that a reader (or a web server) never sees half a page.

use std::path::Path;

use chrono::NaiveDate;

use crate::clerk;
use crate::config::Config;
use crate::report::{self, GameReport};
use crate::store::Store;

/// Writes the site as of `today` into `out`; returns how many files.
/// `progress(done, total)` is called as games are loaded.
pub fn write(
    config: &Config,
    store: &Store,
    today: NaiveDate,
    out: &Path,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<usize, String> {
    let phrases = crate::render::load_phrases(&config.templates, config.language)
        .map_err(|e| e.to_string())?;
    let mut games = Vec::with_capacity(config.games.len());
    for (index, game) in config.games.iter().enumerate() {
        // A game added to begin later is not in the tournament yet.
        if game.start_date.is_some_and(|start| start > today) {
            continue;
        }
        let state = clerk::load(config, store, game)?;
        games.push(GameReport {
            chart: clerk::stored_chart(&state, config, store)?,
            pgn: state.pgn(config, &phrases),
            state,
        });
        progress(index + 1, config.games.len());
    }
    let pages = report::site(config, &phrases, &games, today);
    let io = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    for page in &pages {
        let path = out.join(&page.name);
        let tmp = out.join(format!(".{}.tmp", page.name));
        std::fs::write(&tmp, &page.content).map_err(|e| io(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| io(&path, e))?;
    }
    Ok(pages.len())
}

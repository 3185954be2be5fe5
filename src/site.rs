//! Writes the tournament report (`report.rs`) into a folder: loads every
//! game, builds the pages, and writes each file through a temporary name so
//! that a reader (or a web server) never sees half a page.

use std::path::Path;

use crate::clerk::{Clerk, Clock, GameState};
use crate::config::Config;
use crate::render::Templates;
use crate::report::{self, GameReport};
use crate::store::Store;

/// Writes the site for `clock.today` into `out`; returns how many files.
/// `progress(done, total)` is called as games are loaded.
pub fn write(
    config: &Config,
    store: &Store,
    clock: Clock,
    out: &Path,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<usize, String> {
    let templates = Templates::builtin(config.language);
    let clerk = Clerk {
        config,
        templates: &templates,
        clock,
    };
    let mut loaded = Vec::with_capacity(config.games.len());
    for (index, game) in config.games.iter().enumerate() {
        let state = GameState::load(config, store, game)?;
        let notes = store
            .notes(&game.id)
            .map_err(|e| format!("database: {e}"))?
            .into_iter()
            .map(|n| n.text)
            .collect();
        let chart = state.chart(config, notes);
        let pgn = clerk.pgn(&state);
        loaded.push((state, chart, pgn));
        progress(index + 1, config.games.len());
    }
    let games: Vec<GameReport<'_>> = loaded
        .iter()
        .map(|(state, chart, pgn)| GameReport {
            state,
            chart: chart.clone(),
            pgn: pgn.clone(),
        })
        .collect();
    let pages = report::site(config, &games, clock.today);
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

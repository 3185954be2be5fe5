//! Writes the tournament report (`report.rs`) into a folder: loads every
//! game, builds the pages, and writes each file through a temporary file of
//! its own so that a reader (or a web server) never sees half a page.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use chrono::NaiveDate;

use crate::clerk;
use crate::config::Config;
use crate::report::{self, GameReport};
use crate::store::Store;

/// Writes the site as of `today` into `out`; returns how many files.
/// With `only`, the pages of those games alone (and the index): a poll
/// rewrites what its letters changed. `progress(done, total)` is called as
/// games are loaded.
pub fn write(
    config: &Config,
    store: &Store,
    today: NaiveDate,
    out: &Path,
    only: Option<&BTreeSet<String>>,
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
    let wanted = |game: &str| only.is_none_or(|only| only.contains(game));
    let pages = report::site(config, &phrases, &games, today, &wanted);
    let io = |what: &Path, e: std::io::Error| format!("{}: {e}", what.display());
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    for page in &pages {
        // The style never changes: a poll's rewrite leaves it be.
        if only.is_some() && page.name == "style.css" && out.join(&page.name).exists() {
            continue;
        }
        write_page(out, page).map_err(|e| io(&out.join(&page.name), e))?;
    }
    Ok(pages.len())
}

/// Writes one page through a temporary file created anew in the folder
/// (never a file or link already there: issue 20, point 9), then renamed
/// over the page (a link there is replaced, not followed). A failed write
/// (a full disk) removes its temporary file (point 11).
fn write_page(out: &Path, page: &report::Page) -> std::io::Result<()> {
    let mut file = tempfile::Builder::new()
        .prefix(".report-")
        .suffix(".tmp")
        .permissions(std::fs::Permissions::from_mode(0o644))
        .tempfile_in(out)?;
    file.write_all(page.content.as_bytes())?;
    file.persist(out.join(&page.name))
        .map(drop)
        .map_err(|error| error.error)
}

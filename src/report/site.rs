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
use crate::error::Error;
use crate::report::{self, GameReport};
use crate::store::Store;

/// Writes the site as of `today` into `out`; returns how many files.
/// With `only`, the pages of those games alone (and the index): a poll
/// rewrites what its letters changed. `progress(done, total)` is called as
/// games are loaded. One game's record is in memory at a time: its pages
/// are written as it is read, and only its line is kept for the index.
pub fn write(
    config: &Config,
    store: &Store,
    today: NaiveDate,
    out: &Path,
    only: Option<&BTreeSet<String>>,
    section: Option<&report::rated::Section>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<usize, Error> {
    let phrases =
        crate::render::load_phrases(&config.templates, config.language).map_err(Error::template)?;
    let io = |what: &Path, e: std::io::Error| Error::files(format!("{}: {e}", what.display()));
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let wanted = |game: &str| only.is_none_or(|only| only.contains(game));
    let mut lines = Vec::with_capacity(config.draw().len());
    let mut written = 0;
    for (index, game) in config.draw().games().iter().enumerate() {
        // A game added to begin later is not in the tournament yet.
        if game.start_date.is_some_and(|start| start > today) {
            continue;
        }
        let state = clerk::load(config, store, game)?;
        lines.push(report::GameLine::of(&state, config, today));
        if wanted(state.id()) {
            let report = GameReport {
                chart: clerk::stored_chart(&state, config, store, phrases.lang())?,
                pgn: state.pgn(config, &phrases),
                state,
            };
            for page in report::game_pages(config, &phrases, &report) {
                write_page(out, &page).map_err(|e| io(&out.join(&page.name), e))?;
                written += 1;
            }
        }
        progress(index + 1, config.draw().len());
    }
    for page in report::index_pages(config, &phrases, &lines, today, section) {
        // The style never changes: a poll's rewrite leaves it be.
        if only.is_some() && page.name == "style.css" && out.join(&page.name).exists() {
            continue;
        }
        write_page(out, &page).map_err(|e| io(&out.join(&page.name), e))?;
        written += 1;
    }
    Ok(written)
}

/// Writes one page through a temporary file created anew in the folder
/// (never a file or link already there), then renamed
/// over the page (a link there is replaced, not followed). A failed write
/// (a full disk) removes its temporary file.
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

/// The index of a folder's events in `out` (each event's report is in the
/// folder [`report::event_folder`] names), rewritten only when it changed.
pub fn write_events(
    configs: &[Config],
    store: &mut Store,
    today: NaiveDate,
    out: &Path,
    federation: Option<&report::rated::Federation>,
) -> Result<(), Error> {
    let Some(first) = configs.first() else {
        return Ok(());
    };
    let phrases =
        crate::render::load_phrases(&first.templates, first.language).map_err(Error::template)?;
    let events: Vec<report::Event> = configs
        .iter()
        .map(|config| report::Event {
            id: config.tournament_id.clone(),
            name: config.tournament_name.clone(),
            start: config.start_date,
            end: config.end_date,
            games: config.draw().len(),
        })
        .collect();
    let io = |what: &Path, e: std::io::Error| Error::files(format!("{}: {e}", what.display()));
    std::fs::create_dir_all(out.join("players")).map_err(|e| io(out, e))?;
    let mut in_several: Vec<report::PlayerEvents> = players_of(configs)
        .into_iter()
        .filter(|p| p.games.iter().any(|g| g.event != p.games[0].event))
        .collect();
    for player in &mut in_several {
        with_results(player, configs, store)?;
    }
    let in_several: Vec<&report::PlayerEvents> = in_several.iter().collect();
    // Each person's page in his language: the one he chose, else his
    // first event's (the folder's own templates, in either language).
    let other_language = first.language.other();
    let mut other: Option<crate::phrases::Phrases> = None;
    let mut person_pages = Vec::with_capacity(in_several.len());
    for person in &in_several {
        let lang = store
            .preferences_of(&person.address)
            .map_err(|e| e.context(first.database.display()))?
            .language
            .unwrap_or(person.language);
        let phrases = match lang == first.language {
            true => &phrases,
            false => match &mut other {
                Some(loaded) => &*loaded,
                slot @ None => &*slot.insert(
                    crate::render::load_phrases(&first.templates, other_language)
                        .map_err(Error::template)?,
                ),
            },
        };
        person_pages.push(report::player_page(person, phrases));
    }
    let ratings = match federation {
        Some(federation) => rating_pages(federation, first, &phrases, out)?,
        None => Vec::new(),
    };
    let pages = [
        report::events_index(&events, &in_several, &phrases, today, federation.is_some()),
        report::style(),
    ]
    .into_iter()
    .chain(person_pages)
    .chain(ratings);
    // A page of a person no longer in several events (his seat given to
    // another by a replacement) goes: it would show what is no longer so.
    let written: Vec<String> = in_several
        .iter()
        .map(|p| report::player_file(&p.id))
        .collect();
    if let Ok(entries) = std::fs::read_dir(out.join("players")) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".html") && !written.contains(&name) {
                std::fs::remove_file(entry.path()).map_err(|e| io(&entry.path(), e))?;
            }
        }
    }
    for page in pages {
        let path = out.join(&page.name);
        if std::fs::read_to_string(&path).is_ok_and(|old| old == page.content) {
            continue;
        }
        // A player's page is written in its folder under its own name.
        let folder = path.parent().unwrap_or(out);
        let named = report::Page {
            name: page
                .name
                .rsplit('/')
                .next()
                .unwrap_or(&page.name)
                .to_string(),
            content: page.content,
        };
        write_page(folder, &named).map_err(|e| io(&path, e))?;
    }
    Ok(())
}

/// The rating list's pages (`report::list_page`, `report::history_pages`),
/// in the folder's language; the history of a player on no list any more
/// goes. Made only when what they show changed since they were written
/// (`ratings/.made`, a digest of the lists, the players and the words):
/// an idle poll of a federation of 2,000 players made 4,000 pages and
/// plots to find them the same (0.3 s of a 0.5 s poll, benches/README.md).
fn rating_pages(
    federation: &report::rated::Federation,
    first: &Config,
    phrases: &crate::phrases::Phrases,
    out: &Path,
) -> Result<Vec<report::Page>, Error> {
    use sha2::Digest as _;
    let (lists, players, settings) = (&federation.lists, &federation.players, &first.ratings);
    let shown = format!(
        "{lists:?}{players:?}{settings:?}{}",
        report::rating_words(phrases)
    );
    let made = format!("{:x}\n", sha2::Sha256::digest(shown.as_bytes()));
    let stamp = out.join("ratings").join(".made");
    if std::fs::read_to_string(&stamp).is_ok_and(|old| old == made)
        && out.join("ratings.html").exists()
    {
        return Ok(Vec::new());
    }
    let mut listed = vec![false; players.len()];
    for entry in lists.lists.iter().flat_map(|list| &list.entries) {
        listed[entry.player] = true;
    }
    let mut pages = vec![report::list_page(lists, players, settings, phrases)];
    for (at, _) in listed.iter().enumerate().filter(|(_, on)| **on) {
        pages.extend(report::history_pages(lists, players, at, settings, phrases));
    }
    let folder = out.join("ratings");
    std::fs::create_dir_all(&folder)
        .map_err(|e| Error::files(format!("{}: {e}", folder.display())))?;
    let names: std::collections::HashSet<&str> = pages
        .iter()
        .filter_map(|page| page.name.strip_prefix("ratings/"))
        .collect();
    for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') && !names.contains(name.as_str()) {
            std::fs::remove_file(entry.path())
                .map_err(|e| Error::files(format!("{}: {e}", entry.path().display())))?;
        }
    }
    // The stamp goes with the pages: written last, by the caller.
    pages.push(report::Page {
        name: "ratings/.made".into(),
        content: made,
    });
    Ok(pages)
}

/// Each person of a folder's events (his entries joined by an address:
/// `config::People`), with the games in each, in the order of the files;
/// results not yet read (see [`with_results`]). A seat given to a newcomer
/// by a replacement is the newcomer's, under his own name.
fn players_of(configs: &[Config]) -> Vec<report::PlayerEvents> {
    let people = crate::config::People::of(configs);
    let mut players: Vec<report::PlayerEvents> = Vec::new();
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (place, config) in configs.iter().enumerate() {
        for game in config.draw().games() {
            let sides = [
                (&game.white, &game.black, true),
                (&game.black, &game.white, false),
            ];
            for (me, partner, white) in sides {
                let Some(person) = people.of_entry(place, me) else {
                    continue;
                };
                let index = *at.entry(person.key.as_str()).or_insert_with(|| {
                    players.push(report::PlayerEvents {
                        id: person.key.clone(),
                        name: person.name.clone(),
                        games: Vec::new(),
                        address: person.addresses.first().cloned().unwrap_or_default(),
                        language: config.language,
                    });
                    players.len() - 1
                });
                let partner = config
                    .player(partner)
                    .map_or_else(|| partner.clone(), |p| p.name.clone());
                players[index].games.push(report::PlayerGame {
                    event: config.tournament_id.clone(),
                    event_name: config.tournament_name.clone(),
                    game: game.id.clone(),
                    white,
                    partner,
                    halves: None,
                    forfeit: false,
                    annulled: false,
                });
            }
        }
    }
    players
}

/// The results of `player`'s games, from each game's
/// stored standing: no game is replayed, and only the players whose pages
/// are written are asked for (the index is rewritten after every poll).
fn with_results(
    player: &mut report::PlayerEvents,
    configs: &[Config],
    store: &mut Store,
) -> Result<(), Error> {
    use crate::rules::{EndReason, Status};
    for game in &mut player.games {
        let Some(config) = configs.iter().find(|c| c.tournament_id == game.event) else {
            continue;
        };
        let key = crate::key::GameKey::new(config.scope(), &game.game);
        let standing = store.load_game(&key)?.row.standing;
        let color = if game.white {
            shakmaty::Color::White
        } else {
            shakmaty::Color::Black
        };
        game.annulled = standing.status == Status::Annulled;
        game.halves = standing.outcome.map(|o| o.result.halves(color));
        game.forfeit = standing
            .outcome
            .is_some_and(|o| o.reason == EndReason::Forfeit);
    }
    Ok(())
}

/// What the pages of the last report depend on besides the games: the day
/// (days left), the config (names, games) and the program.
/// What the game pages were written from: the config's file as it was and
/// this build (a game's pages hold nothing of the day).
fn mark(config: &Config) -> String {
    let config_changed = std::fs::metadata(&config.file)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    format!("{config_changed}|{}", env!("CARGO_PKG_VERSION"))
}

/// `[report] out` after a poll: as it was when nothing changed (an idle
/// poll loads no game for it), the changed games' pages and the index when
/// games changed, the index alone on a new day (its days left are counted
/// to it), and the whole site on a changed config or build, or when the
/// last report failed or is gone.
pub fn keep(
    config: &Config,
    store: &mut Store,
    today: NaiveDate,
    out: &Path,
    changed: &BTreeSet<String>,
    section: Option<&report::rated::Section>,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(), Error> {
    let in_database = |e: Error| e.context(config.database.display());
    let mark = mark(config);
    let kept = store
        .report_mark(config.scope())
        .map_err(in_database)?
        .unwrap_or_default();
    let (kept_mark, kept_day) = kept.rsplit_once('@').unwrap_or((kept.as_str(), ""));
    let current = kept_mark == mark && out.join("index.html").exists();
    if current && changed.is_empty() && kept_day == today.to_string() {
        return Ok(());
    }
    // Until it is written, no report is current: a failure rewrites it all.
    store
        .set_report_mark(config.scope(), "")
        .map_err(in_database)?;
    write(
        config,
        store,
        today,
        out,
        current.then_some(changed),
        section,
        progress,
    )?;
    store
        .set_report_mark(config.scope(), &format!("{mark}@{today}"))
        .map_err(in_database)
}

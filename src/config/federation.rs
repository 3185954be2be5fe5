//! Many tournaments from one clerk: the clerk's own
//! file (`[bot]`, `[source]`, `[transport]`, `[limits]`, `[security]`,
//! `[report]`, `[xfcc]`, and default `[arbiters]` and `[rules]`) names a folder of
//! tournament files (`[bot] tournaments = "tournaments"`), each with its
//! `[tournament]`, its players and games, and its own `[rules]` and
//! `[arbiters]` keys where they differ (key by key over the defaults). A
//! file with a `[tournament]` table is one tournament, as before.
//!
//! Each tournament is checked as one file would be: the clerk's tables and
//! its own merged. An error names the file the key was written in: the
//! clerk's for its tables (and for a default it does not override), the
//! tournament's for the rest. Paths (database, templates, mail folders,
//! report) are the clerk file's, relative to its folder.

use std::path::{Path, PathBuf};

use toml::Table;

use super::{Config, ConfigError};

/// A file's text to read in place of what the disk holds: an edit of the
/// clerk's, checked by loading it before it replaces the file.
pub type Overlay<'a> = Option<(&'a Path, &'a str)>;

/// Tables of the clerk's own file.
const CLERK_TABLES: &[&str] = &[
    "bot",
    "source",
    "transport",
    "limits",
    "mail",
    "security",
    "report",
    "xfcc",
    "ratings",
    "arbiters",
    "rules",
];

/// Tables of a tournament's file.
const TOURNAMENT_TABLES: &[&str] = &["tournament", "rules", "arbiters", "players", "games"];

/// Tables a tournament's file may give key by key over the clerk's.
const DEFAULTS: &[&str] = &["rules", "arbiters"];

/// Every tournament `file` configures: itself, if it has a `[tournament]`
/// table, else those of the folder its `[bot] tournaments` names, in the
/// order of their file names.
pub fn load_all(file: &Path) -> Result<Vec<Config>, ConfigError> {
    load_all_over(file, None)
}

/// The same, with one file's text given (`overlay`) in place of the one on
/// disk.
pub fn load_all_over(file: &Path, overlay: Overlay<'_>) -> Result<Vec<Config>, ConfigError> {
    let text = read(file, overlay)?;
    let mut clerk = table(file, &text)?;
    if clerk.contains_key("tournament") {
        let mut config = Config::parse(file, &text)?;
        config.clerk_file = file.to_path_buf();
        return Ok(vec![config]);
    }
    let error = |key: &str, problem: String, fix: &str| ConfigError {
        file: file.to_path_buf(),
        key: key.to_string(),
        problem,
        fix: fix.to_string(),
    };
    let folder = match clerk
        .get_mut("bot")
        .and_then(|bot| bot.as_table_mut())
        .and_then(|bot| bot.remove("tournaments"))
    {
        Some(toml::Value::String(folder)) => folder,
        Some(_) => {
            return Err(error(
                "bot.tournaments",
                "is not a folder name".into(),
                "write tournaments = \"tournaments\"",
            ));
        }
        None => {
            return Err(error(
                "tournament",
                "is missing".into(),
                "add a [tournament] table, or name a folder of tournament files: [bot] tournaments = \"tournaments\"",
            ));
        }
    };
    for key in clerk.keys() {
        if !CLERK_TABLES.contains(&key.as_str()) {
            return Err(error(
                key,
                "does not belong in the clerk's file".into(),
                "players and games go in the tournament files; see \"Several tournaments from one clerk\" in docs/guide.md",
            ));
        }
    }
    let base = super::parse::written_in(file);
    let dir = base.join(&folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| {
            error(
                "bot.tournaments",
                format!("{} cannot be read: {e}", dir.display()),
                "make the folder, one .toml file a tournament in it",
            )
        })?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(error(
            "bot.tournaments",
            format!("{} has no .toml files", dir.display()),
            "put one file a tournament there, each with its [tournament] table",
        ));
    }
    let mut tournaments: Vec<Config> = Vec::with_capacity(files.len());
    for path in &files {
        let config = tournament(file, &clerk, &base, path, overlay)?;
        not_twice(path, &config, &tournaments)?;
        tournaments.push(config);
    }
    // A person's addresses are his in every event he plays in.
    super::people::share_addresses(&mut tournaments);
    Ok(tournaments)
}

/// A tournament's id is its own in the folder: no other has it, nor one
/// of the same ASCII.
fn not_twice(path: &Path, config: &Config, tournaments: &[Config]) -> Result<(), ConfigError> {
    if let Some(other) = tournaments
        .iter()
        .find(|t| t.tournament_id == config.tournament_id)
    {
        return Err(ConfigError {
            file: path.to_path_buf(),
            key: "tournament.id".into(),
            problem: format!(
                "{:?} is also the id of the tournament in {}",
                config.tournament_id,
                other.file.display()
            ),
            fix: "give each tournament its own id: it stands in the subject tags".into(),
        });
    }
    // The clerk's Message-IDs carry the id as ASCII (`КР-2026` is
    // `kr-2026`): two ids of one ASCII would give two events' messages
    // the same ids, and a poll that makes both would fail on the
    // outbox's unique index.
    let ascii = crate::key::ascii_id(&config.tournament_id);
    if let Some(other) = tournaments
        .iter()
        .find(|t| crate::key::ascii_id(&t.tournament_id) == ascii)
    {
        return Err(ConfigError {
            file: path.to_path_buf(),
            key: "tournament.id".into(),
            problem: format!(
                "{:?} is written {ascii:?} in the clerk's Message-IDs, as is {:?}, the id of \
                 the tournament in {}",
                config.tournament_id,
                other.tournament_id,
                other.file.display()
            ),
            fix: "give the tournaments ids that differ in more than case or alphabet \
                  (KR-2026 and КР-2026 are one id to the clerk's mail)"
                .into(),
        });
    }
    Ok(())
}

/// One tournament's file over the clerk's tables.
fn tournament(
    clerk_file: &Path,
    clerk: &Table,
    base: &Path,
    path: &Path,
    overlay: Overlay<'_>,
) -> Result<Config, ConfigError> {
    let text = read(path, overlay)?;
    let own = table(path, &text)?;
    for key in own.keys() {
        if !TOURNAMENT_TABLES.contains(&key.as_str()) {
            let fix = if CLERK_TABLES.contains(&key.as_str()) {
                format!(
                    "[{key}] is the clerk's: move it to {}",
                    clerk_file.display()
                )
            } else {
                "a tournament file has [tournament], [rules], [arbiters], [[players]] and [[games]]"
                    .into()
            };
            return Err(ConfigError {
                file: path.to_path_buf(),
                key: key.clone(),
                problem: "does not belong in a tournament's file".into(),
                fix,
            });
        }
    }
    // Read from the tables themselves; only a file of the wrong shape is
    // written out and read again as text, for its error to name its key.
    let parsed = match Config::parse_tables(path, base, merge(clerk, &own)) {
        Some(parsed) => parsed,
        None => as_text(path, base, &merge(clerk, &own)),
    };
    let parsed = parsed.map_err(|mut error| {
        error.file = written_in(&error.key, &own, path, clerk_file);
        error
    });
    let mut config = parsed?;
    config.in_folder = true;
    config.clerk_file = clerk_file.to_path_buf();
    Ok(config)
}

/// The clerk's tables with a tournament's over them: its `[rules]` and
/// `[arbiters]` key by key, the rest whole.
fn merge(clerk: &Table, own: &Table) -> Table {
    let mut merged = clerk.clone();
    for (key, value) in own {
        match (merged.get_mut(key), value) {
            (Some(toml::Value::Table(default)), toml::Value::Table(given))
                if DEFAULTS.contains(&key.as_str()) =>
            {
                for (name, value) in given {
                    default.insert(name.clone(), value.clone());
                }
            }
            _ => {
                merged.insert(key.clone(), value.clone());
            }
        }
    }
    merged
}

/// A merged tournament read as text: its error names the key (not a line
/// of a text nobody wrote).
fn as_text(path: &Path, base: &Path, merged: &Table) -> Result<Config, ConfigError> {
    let merged_text = toml::to_string(merged).map_err(|e| ConfigError {
        file: path.to_path_buf(),
        key: "(file)".into(),
        problem: format!("cannot be combined with the clerk's file: {e}"),
        fix: String::new(),
    })?;
    Config::parse_from(path, base, &merged_text).map_err(|mut error| {
        if let Some(key) = error
            .key
            .strip_prefix("line ")
            .and_then(|line| line.parse().ok())
            .and_then(|line| key_at_line(&merged_text, line))
        {
            // serde points an unknown key's error at a line of its table:
            // the key is the one it names.
            let unknown = error
                .problem
                .strip_prefix("unknown field `")
                .and_then(|rest| rest.split('`').next());
            error.key = match (unknown, key.split_once('.')) {
                (Some(name), Some((table, _))) => format!("{table}.{name}"),
                (Some(name), None) => format!("{key}.{name}"),
                (None, _) => key,
            };
        }
        error
    })
}

/// The key written on `line` (1-based) of a TOML text: `table.name`, or
/// `table` for a table's header.
fn key_at_line(text: &str, line: usize) -> Option<String> {
    let mut table = String::new();
    for (at, content) in text.lines().enumerate().take(line) {
        let content = content.trim();
        if let Some(header) = content.strip_prefix('[') {
            table = header
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string();
            if at + 1 == line {
                return Some(table);
            }
        } else if at + 1 == line {
            let name = content.split('=').next()?.trim();
            return Some(if table.is_empty() {
                name.to_string()
            } else {
                format!("{table}.{name}")
            });
        }
    }
    None
}

/// The file a key of a merged tournament was written in.
fn written_in(key: &str, own: &Table, tournament: &Path, clerk: &Path) -> PathBuf {
    let mut parts = key.split('.');
    let table = parts.next().unwrap_or_default();
    let table = table.split('[').next().unwrap_or_default();
    let name = parts.next();
    let own_it = match (own.get(table), name) {
        (Some(toml::Value::Table(given)), Some(name)) if DEFAULTS.contains(&table) => {
            given.contains_key(name)
        }
        (Some(_), _) => true,
        (None, _) => false,
    };
    if own_it || !CLERK_TABLES.contains(&table) {
        tournament.to_path_buf()
    } else {
        clerk.to_path_buf()
    }
}

fn read(file: &Path, overlay: Overlay<'_>) -> Result<String, ConfigError> {
    if let Some((path, text)) = overlay
        && path == file
    {
        return Ok(text.to_string());
    }
    std::fs::read_to_string(file).map_err(|error| ConfigError {
        file: file.to_path_buf(),
        key: "(file)".into(),
        problem: format!("cannot be read: {error}"),
        fix: "give the path of the clerk's or the tournament's TOML file with --config (see config.example.toml)".into(),
    })
}

/// The file's tables; a syntax error names its line.
fn table(file: &Path, text: &str) -> Result<Table, ConfigError> {
    text.parse::<Table>().map_err(|error| {
        let line = error.span().map(|span| super::line_at(text, span.start));
        ConfigError {
            file: file.to_path_buf(),
            key: line.map_or("(syntax)".to_string(), |line| format!("line {line}")),
            problem: error.message().to_string(),
            fix: "compare with config.example.toml".into(),
        }
    })
}

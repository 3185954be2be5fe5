//! The database a command opens: read only, or to run (made while nothing
//! shows a tournament under way), and its errors named with its file.

use shtempel::clerk;
use shtempel::config::Config;
use shtempel::error::{Error, Kind};
use shtempel::mail::MailSource;
use shtempel::record::Record;
use shtempel::store::{DatabaseFile, Store};

use super::{Failure, run_error, usage};

/// The database for a command that only reads it: a tournament with none
/// yet reads as one where nothing has happened (in memory, no file made);
/// one of an older schema is read as this build's (upgraded in memory),
/// the file left as it was for a command that writes to upgrade.
pub(super) fn open_store(config: &Config) -> Result<Store, Failure> {
    let mut store = match Store::inspect(&config.database) {
        DatabaseFile::Missing | DatabaseFile::Empty => {
            let store =
                Store::in_memory().map_err(|e| run_error(format!("database in memory: {e}")))?;
            return Ok(store);
        }
        DatabaseFile::Ours => open_file(config)?,
        DatabaseFile::Older(schema) => {
            let store =
                Store::read_upgraded(&config.database).map_err(|e| database_error(config, &e))?;
            eprintln!(
                "database {}: schema {schema}, read as this build's ({}) and not changed; the \
                 next command that writes it (poll) upgrades it, keeping a copy of it as it is",
                config.database.display(),
                shtempel::store::schema_version()
            );
            store
        }
        other => return Err(not_ours(config, &other)),
    };
    as_before(std::slice::from_ref(config), &mut store, false)?;
    Ok(store)
}

/// The database for a command that writes it but is no run (`adopt`,
/// `retry`, `report`): as [`open_store`], an older schema upgraded in the
/// file ([`upgraded`]).
pub(super) fn open_store_to_change(config: &Config) -> Result<Store, Failure> {
    match Store::inspect(&config.database) {
        DatabaseFile::Older(schema) => {
            let mut store = upgraded(config, schema)?;
            as_before(std::slice::from_ref(config), &mut store, false)?;
            Ok(store)
        }
        _ => open_store(config),
    }
}

/// The database of an older schema upgraded, the file as it was kept
/// beside it first (named with its schema), and both said on standard
/// error.
fn upgraded(config: &Config, schema: i64) -> Result<Store, Failure> {
    let copy = Store::keep_before_upgrade(&config.database, schema)
        .map_err(|e| database_error(config, &e))?;
    let store = open_file(config)?;
    eprintln!(
        "database {}: upgraded from schema {schema} to {}; the file as it was is kept as {} \
         (docs/running.md, \"Upgrading\", says how to go back)",
        config.database.display(),
        shtempel::store::schema_version(),
        copy.display()
    );
    Ok(store)
}

/// The database for a run that writes it. A missing or empty one is made
/// only while nothing shows a tournament under way: no letter done in the
/// source, no message in a file outbox, no log beside the database. Else it
/// was lost, and making a new one would lose the games: exit 2.
pub(super) fn open_store_to_run(
    config: &Config,
    source: &mut dyn MailSource,
    transport: &dyn shtempel::mail::Transport,
) -> Result<Store, Failure> {
    match Store::inspect(&config.database) {
        DatabaseFile::Ours => open_file(config),
        DatabaseFile::Older(schema) => upgraded(config, schema),
        DatabaseFile::Missing | DatabaseFile::Empty => {
            let done = source
                .has_done_letters()
                .map_err(|e| run_error(e.message))?;
            let evidence = if done {
                Some("the mail source holds letters already done")
            } else if transport.has_sent() {
                Some("the outbox holds messages already sent")
            } else if Store::traces_beside(&config.database) {
                Some("its log files are still beside it")
            } else {
                None
            };
            match evidence {
                Some(evidence) => Err(usage(format!(
                    "database {}: missing or empty, but {evidence}: the tournament's record \
                     is lost, not new; copy its backup back to that path (docs/running.md's \
                     deployment says how backups are made), or run `shtempel init` to begin \
                     the tournament again from nothing",
                    config.database.display()
                ))),
                None => open_file(config),
            }
        }
        other => Err(not_ours(config, &other)),
    }
}

pub(super) fn not_ours(config: &Config, file: &DatabaseFile) -> Failure {
    let why = match file {
        DatabaseFile::Newer(version) => format!(
            "it was made by a newer shtempel (schema {version}; this one knows {}): run that \
             version, or restore a backup this one made",
            shtempel::store::schema_version()
        ),
        DatabaseFile::Foreign(why) => {
            format!("{why}; [bot] database must name the clerk's own file")
        }
        DatabaseFile::Damaged(why) => format!(
            "it is an SQLite file, damaged ({why}): the record cannot be read; copy its last \
             backup back to that path (docs/running.md says how backups are made), keeping the \
             damaged file aside for `sqlite3 FILE .recover`"
        ),
        DatabaseFile::Unreadable(why) => format!(
            "it cannot be read now ({why}): look at the disk it is on (full?) and at the rights \
             of the file and its folder, then run again; nothing was changed"
        ),
        _ => "it cannot be used".to_string(),
    };
    usage(format!(
        "{}: [bot] database {}: {why}",
        config.file.display(),
        config.database.display()
    ))
}

/// A database error, with the file named, and for a database SQLite says
/// it cannot write (its code, not its words), what to look at: a `-shm`
/// left read-only by another user keeps every write failing.
pub(super) fn database_error(config: &Config, error: &Error) -> Failure {
    let path = config.database.display();
    let hint = if error.sqlite_code() == Some(rusqlite::ErrorCode::DiskFull) {
        format!(
            "; the disk {path} is on is full: free room on it and run again (what the run had \
             not committed was undone; nothing is lost)"
        )
    } else if matches!(
        error.sqlite_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    ) {
        "; the file is damaged: copy its last backup back (docs/running.md says how backups are \
         made), keeping the damaged file aside for `sqlite3 FILE .recover`"
            .to_string()
    } else if error.sqlite_code() == Some(rusqlite::ErrorCode::ReadOnly) {
        format!(
            "; this user must be able to write {path}, {path}-wal and {path}-shm and their \
             folder (a -shm left read-only by another user or run can be removed while no \
             run is at work)"
        )
    } else {
        String::new()
    };
    run_error(format!("database {path}: {}{hint}", error.message))
}

pub(super) fn open_file(config: &Config) -> Result<Store, Failure> {
    if let Some(parent) = config.database.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| run_error(format!("cannot create {}: {e}", parent.display())))?;
    }
    let store = Store::open(&config.database).map_err(|e| database_error(config, &e))?;
    Ok(store)
}

/// A folder's run refuses a database whose games a tournament of its own
/// file kept (under bare ids): they would belong to no tournament.
pub(super) fn unadopted(config: &Config, store: &Store) -> Result<(), Failure> {
    if config.scope().is_none() {
        return Ok(());
    }
    let bare = store
        .has_unscoped_games()
        .map_err(|e| database_error(config, &e))?;
    if bare {
        return Err(usage(format!(
            "database {}: its games were kept by a tournament of its own file; say which \
             tournament of the folder they are: shtempel adopt --tournament ID",
            config.database.display()
        )));
    }
    Ok(())
}

/// A run's error: the database's named with its file.
pub(super) fn database_or_run(config: &Config, error: Error) -> Failure {
    match error.kind {
        Kind::Database => database_error(config, &error),
        _ => run_error(error),
    }
}

/// A game of the tournament, loaded; a game it has not is a usage error
/// naming the games it has.
pub(super) fn load_state(config: &Config, store: &Store, game: &str) -> Result<Record, Failure> {
    let game_config = config.draw().game(game).ok_or_else(|| {
        let known: Vec<&str> = config
            .draw()
            .games()
            .iter()
            .map(|g| g.id.as_str())
            .collect();
        usage(format!(
            "no game {game:?} in {}; games: {}",
            config.file.display(),
            known.join(", ")
        ))
    })?;
    clerk::load(config, store, game_config).map_err(run_error)
}

/// The file as the record was made by: a round robin's players in their
/// order, and each game under way with its players. `pass`: a pass, which
/// keeps what it checks against.
pub(super) fn as_before(configs: &[Config], store: &mut Store, pass: bool) -> Result<(), Failure> {
    paired_as_before(configs, store, pass)?;
    seated_as_before(configs, store, pass)
}

/// Each game with a move played has the players it was played by: a file
/// that gives such a game to others (its `[[games]]` entry edited, or its
/// games now made by `pairing` where the file listed them) would give the
/// moves to them, and is refused; a game not begun may be changed. A pass
/// keeps the players of every game as the file gives them.
fn seated_as_before(configs: &[Config], store: &mut Store, pass: bool) -> Result<(), Failure> {
    for config in configs {
        let scope = config.scope();
        let failed = |e: shtempel::error::Error| database_error(config, &e);
        let kept = store.kept_seats(scope).map_err(failed)?;
        let games: Vec<&str> = kept.iter().map(|(game, _, _)| game.as_str()).collect();
        let played = store.games_with_moves(scope, &games).map_err(failed)?;
        for (game, white, black) in kept.iter().filter(|(game, _, _)| played.contains(game)) {
            let now = config.draw().game(game);
            if now.is_some_and(|g| g.white == *white && g.black == *black) {
                continue;
            }
            let given = match now {
                Some(g) => format!("the file now gives it to {} and {}", g.white, g.black),
                None => "the file no longer has it".to_string(),
            };
            return Err(usage(format!(
                "{}: game {game}: its moves were played by {white} (White) and {black} (Black); \
                 {given}. A game under way keeps its players (the moves are theirs): put its \
                 [[games]] entry back as it was{}. A newcomer takes a player's place by \
                 `shtempel replace` or REPLACE (the id stays); a new pairing is a new event",
                config.file.display(),
                match config.pairing {
                    Some(_) => ", or the [[games]] list instead of `pairing`",
                    None => "",
                }
            )));
        }
        if pass {
            let seats: Vec<(&str, &str, &str)> = config
                .draw()
                .games()
                .iter()
                .map(|g| (g.id.as_str(), g.white.as_str(), g.black.as_str()))
                .collect();
            store.keep_seats(scope, &seats).map_err(failed)?;
        }
    }
    Ok(())
}

/// A round robin's players as at its first run: its games were made from
/// them in that order, so a file whose players have changed since (one
/// added, dropped or moved) would give its games to others, and is refused.
/// `first_run`: a pass, which keeps the order where none is kept yet.
fn paired_as_before(configs: &[Config], store: &mut Store, first_run: bool) -> Result<(), Failure> {
    for config in configs.iter().filter(|c| c.pairing.is_some()) {
        let now: Vec<&str> = config.players.iter().map(|p| p.id.as_str()).collect();
        let kept = store
            .paired_players(config.scope())
            .map_err(|e| database_error(config, &e))?;
        match kept {
            None if first_run => store
                .keep_paired_players(config.scope(), &now)
                .map_err(|e| database_error(config, &e))?,
            Some(kept) if kept != now => {
                return Err(usage(format!(
                    "{}: players: the games of this round robin were made at its first run from \
                     the players in this order: {}; the file now lists {}. The pairing is fixed \
                     by that order (a player added, dropped or moved would give games to others): \
                     put the [[players]] back as they were. A newcomer takes a player's place by \
                     `shtempel replace` or REPLACE (the id stays); a new player plays in a new \
                     section{}",
                    config.file.display(),
                    kept.join(", "),
                    now.join(", "),
                    match config.seed_by_rating {
                        true =>
                            ". With seed = \"rating\" the order is that of their ratings: \
                                 put back the ratings the players had at the first run",
                        false => "",
                    }
                )));
            }
            _ => {}
        }
    }
    Ok(())
}

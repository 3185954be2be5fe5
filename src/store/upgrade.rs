//! A database of an older schema, as an upgrade of the build finds it:
//! read as this build's schema without changing the file (a command that
//! only reads), or kept as it was in a file beside it before a command that
//! writes upgrades it, so that the build before can be run again on the
//! copy. docs/running.md, "Upgrading".

use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::backup::Backup;
use rusqlite::{Connection, OpenFlags};

use super::{Result, Store, private};

/// How the file is opened to be read and never written.
fn read_only(path: &Path) -> rusqlite::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NOFOLLOW;
    Connection::open_with_flags(private::for_sqlite(path), flags)
}

impl Store {
    /// The database at `path` as this build's schema: a copy of it in
    /// memory, brought up to date there; the file is not changed, and what
    /// is written to the store is lost with it.
    pub fn read_upgraded(path: &Path) -> Result<Store> {
        let file = read_only(path)?;
        let mut copy = Connection::open_in_memory()?;
        Backup::new(&file, &mut copy)?.run_to_completion(1024, Duration::ZERO, None)?;
        drop(file);
        Store::setup(copy)
    }

    /// Keeps the database at `path` as it is now in a file beside it named
    /// with its schema (`db.sqlite.schema-17`; `….schema-17.2` where that
    /// one is taken), made for its owner alone: the copy to go back to.
    pub fn keep_before_upgrade(path: &Path, schema: i64) -> Result<PathBuf> {
        let copy = (1..)
            .map(|n| match n {
                1 => private::beside(path, &format!(".schema-{schema}")),
                n => private::beside(path, &format!(".schema-{schema}.{n}")),
            })
            .find_map(
                |copy| match private::open(&copy, private::options().create_new(true)) {
                    Ok(_) => Some(Ok(copy)),
                    Err(error) if error.kind() == io::ErrorKind::AlreadyExists => None,
                    Err(error) => Some(Err(error)),
                },
            )
            .unwrap_or_else(|| Err(io::Error::other("no name left for the copy")))
            .map_err(|error| {
                crate::error::Error::database(format!(
                    "{}: no copy of the old file could be made beside it: {error}",
                    path.display()
                ))
            })?;
        let target = private::for_sqlite(&copy);
        // An empty file of its own is what VACUUM INTO may write into.
        let written = read_only(path)
            .and_then(|file| file.execute("VACUUM INTO ?1", [target.to_string_lossy()]));
        if let Err(error) = written {
            let _ = std::fs::remove_file(&copy);
            return Err(error.into());
        }
        Ok(copy)
    }
}

//! A new database made all or nothing: its schema written beside it and the
//! finished file renamed into place, so that a run killed while making it
//! leaves nothing the next run takes for a lost record.

use std::path::Path;

use rusqlite::Connection;

use super::{Store, private};
use crate::error::Error;

/// Why a database could not be made.
pub(super) enum Made {
    Io(std::io::Error),
    Sql(Error),
}

impl From<std::io::Error> for Made {
    fn from(error: std::io::Error) -> Made {
        Made::Io(error)
    }
}

impl From<rusqlite::Error> for Made {
    fn from(error: rusqlite::Error) -> Made {
        Made::Sql(error.into())
    }
}

impl From<Error> for Made {
    fn from(error: Error) -> Made {
        Made::Sql(error)
    }
}

fn remove_if_there(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

impl Store {
    /// Makes a new database all or nothing: its schema
    /// is written into `PATH.new` and the finished file renamed to `path`,
    /// so that a run killed while it is made leaves no half-made database
    /// (which the next run took for a lost one) but a `.new` file, which
    /// the next run removes and makes again.
    pub(super) fn create_whole(path: &Path) -> std::result::Result<(), Made> {
        let new = private::beside(path, ".new");
        for suffix in ["", "-wal", "-shm", "-journal"] {
            remove_if_there(&private::beside(&new, suffix))?;
        }
        private::prepare_database(&new)?;
        crate::fault::point("create-database");
        {
            let flags = rusqlite::OpenFlags::default() | rusqlite::OpenFlags::SQLITE_OPEN_NOFOLLOW;
            let store = Store::setup(Connection::open_with_flags(
                private::for_sqlite(&new),
                flags,
            )?)?;
            crate::fault::point("create-database-made");
            // Everything into the file itself: closing the last connection
            // then removes its log.
            store
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        }
        std::fs::File::open(&new)?.sync_all()?;
        // An empty file, or logs, at `path` are no database's.
        for suffix in ["-wal", "-shm", "-journal"] {
            remove_if_there(&private::beside(path, suffix))?;
        }
        remove_if_there(&private::beside(&new, "-wal"))?;
        remove_if_there(&private::beside(&new, "-shm"))?;
        std::fs::rename(&new, path)?;
        if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::File::open(folder)?.sync_all()?;
        }
        Ok(())
    }
}

//! The run lock: one run at a time on a database (cron may start the
//! next before the last ends).

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

/// Holds the lock of one tournament's database while a run works; the kernel
/// releases it when the process ends, however it ends.
pub struct RunLock {
    _file: File,
}

impl RunLock {
    /// Writes who holds the lock and since when, for a run that finds it
    /// held ([`holder`]).
    pub fn note(&mut self, now: chrono::DateTime<chrono::Utc>) -> std::io::Result<()> {
        use std::io::{Seek, Write};
        self._file.set_len(0)?;
        self._file.rewind()?;
        let note = Holder {
            pid: std::process::id(),
            since: now,
        };
        writeln!(self._file, "{} {}", note.pid, note.since.to_rfc3339())
    }
}

/// The run that holds a lock, as it noted itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    pub since: chrono::DateTime<chrono::Utc>,
}

/// Who holds the lock of `database`, where the holder noted it.
pub fn holder(database: &Path) -> Option<Holder> {
    let text = std::fs::read_to_string(lock_path(database)).ok()?;
    let (pid, since) = text.trim().split_once(' ')?;
    Some(Holder {
        pid: pid.parse().ok()?,
        since: chrono::DateTime::parse_from_rfc3339(since)
            .ok()?
            .with_timezone(&chrono::Utc),
    })
}

/// Takes the run lock, or `None` when another run holds it.
pub fn lock(database: &Path) -> std::io::Result<Option<RunLock>> {
    let path = lock_path(database);
    let mut options = crate::store::private::options();
    options.truncate(false);
    let file = crate::store::private::open(&path, &options)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(RunLock { _file: file })),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(error)) => Err(error),
    }
}

pub(super) fn lock_path(database: &Path) -> PathBuf {
    let mut name = database
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(".lock");
    database.with_file_name(name)
}

//! The run lock: one run at a time on a database (cron may start the
//! next before the last ends).

use super::*;

/// Holds the lock of one tournament's database while a run works; the kernel
/// releases it when the process ends, however it ends.
pub struct RunLock {
    _file: File,
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

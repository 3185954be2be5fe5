//! The clerk's files as the server last read them: read again for a request
//! only where one of them has changed since (its time or its size), or the
//! folder of a clerk's events has (a file added or taken out), so that a
//! director's edit holds at the next request and an unchanged file of many
//! games is not parsed for every call (13 ms of a core for 550 games).

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use crate::config::{Config, ConfigError, load_all};

/// What a file or folder was, when read.
type Stamp = Vec<(PathBuf, Option<(SystemTime, u64)>)>;

#[derive(Default)]
pub struct Files {
    read: Mutex<Option<(Stamp, Arc<Vec<Config>>)>>,
}

impl Files {
    /// The tournaments of `file`, read anew where anything read changed.
    pub fn current(&self, file: &Path) -> Result<Arc<Vec<Config>>, ConfigError> {
        if let Ok(read) = self.read.lock()
            && let Some((stamp, configs)) = read.as_ref()
            && stamp.first().is_some_and(|(path, _)| path == file)
            && stamp.iter().all(|(path, was)| now(path) == *was)
        {
            return Ok(Arc::clone(configs));
        }
        // Stamped before reading: an edit while it is read is read next time.
        let before = now(file);
        let configs = Arc::new(load_all(file)?);
        let mut stamp = vec![(file.to_path_buf(), before)];
        for config in configs.iter() {
            let folder = config.file.parent().filter(|_| config.in_folder);
            for path in std::iter::once(config.file.as_path()).chain(folder) {
                if !stamp.iter().any(|(seen, _)| seen == path) {
                    stamp.push((path.to_path_buf(), now(path)));
                }
            }
        }
        if let Ok(mut read) = self.read.lock() {
            *read = Some((stamp, Arc::clone(&configs)));
        }
        Ok(configs)
    }
}

fn now(path: &Path) -> Option<(SystemTime, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
}

//! A folder's checked tournaments kept beside the database, for the runs
//! that find them unchanged (issue 22's idle poll: reading 100 tournament
//! files of 10,000 players costs more than the whole run may).
//!
//! The cache is a file `<database>-config.json`: its first line the stamp
//! of what it was read from, the rest the checked tournaments. It is used
//! only when the stamp is the same to the byte: the same build of the clerk
//! (its version and its executable's length and time), the same working
//! folder and clerk's file (path and whole text), and the same tournament
//! files (names, lengths and modification times). Anything else, a stamp
//! that cannot be taken or a cache that cannot be read, and the files are
//! read and checked as ever. It is a cache only: losing it, or failing to
//! write it, costs time and nothing else. Like the database beside it, it
//! holds the players' secrets; it is written for its owner alone.
//!
//! A file's time has a coarse clock (a few milliseconds on Linux): a file
//! written again within one tick, to the same length, would look the same.
//! As git does with its index, no cache is kept while a file it was read
//! from is younger than [`SETTLED`] by the cache's own time; the next run
//! reads the files again.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::Config;

/// How old every file read must be, by the cache's time, for the cache to
/// be kept.
const SETTLED: std::time::Duration = std::time::Duration::from_secs(2);

/// What a folder's tournaments were read from.
#[derive(Serialize)]
pub(super) struct Stamp<'a> {
    build: (&'static str, u64, u128),
    folder: PathBuf,
    clerk: &'a Path,
    clerk_text: &'a str,
    files: Vec<(&'a Path, u64, u128)>,
}

/// A file's length and modification time (nanoseconds since the epoch).
fn length_and_time(path: &Path) -> Option<(u64, u128)> {
    let meta = std::fs::metadata(path).ok()?;
    let time = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some((meta.len(), time.as_nanos()))
}

impl<'a> Stamp<'a> {
    /// The stamp of the clerk's file and its tournament files, if every
    /// part of it can be read.
    pub(super) fn of(clerk: &'a Path, clerk_text: &'a str, files: &'a [PathBuf]) -> Option<Self> {
        let exe = std::env::current_exe().ok()?;
        let (length, time) = length_and_time(&exe)?;
        let files = std::iter::once(clerk)
            .chain(files.iter().map(PathBuf::as_path))
            .map(|file| length_and_time(file).map(|(length, time)| (file, length, time)))
            .collect::<Option<Vec<_>>>()?;
        Some(Stamp {
            build: (env!("CARGO_PKG_VERSION"), length, time),
            folder: std::env::current_dir().ok()?,
            clerk,
            clerk_text,
            files,
        })
    }

    /// The stamp as the cache's first line.
    fn line(&self) -> Option<String> {
        serde_json::to_string(self).ok()
    }

    /// The time of the youngest file read (nanoseconds since the epoch).
    fn youngest(&self) -> u128 {
        self.files
            .iter()
            .map(|&(_, _, time)| time)
            .max()
            .unwrap_or(0)
    }
}

/// The cache file of a database.
pub(super) fn path_of(database: &Path) -> PathBuf {
    let mut name = database.as_os_str().to_owned();
    name.push("-config.json");
    PathBuf::from(name)
}

/// The tournaments cached under `stamp`, if the cache holds them.
pub(super) fn read(cache: &Path, stamp: &Stamp) -> Option<Vec<Config>> {
    let text = std::fs::read_to_string(cache).ok()?;
    let (cached_stamp, body) = text.split_once('\n')?;
    if cached_stamp != stamp.line()? {
        return None;
    }
    serde_json::from_str(body).ok()
}

/// Keeps `tournaments` under `stamp`, as well as it can: a cache that
/// cannot be written is read from the files next time.
pub(super) fn write(cache: &Path, stamp: &Stamp, tournaments: &[Config]) {
    let (Some(stamp_line), Ok(body)) = (stamp.line(), serde_json::to_string(tournaments)) else {
        return;
    };
    let mut part = cache.as_os_str().to_owned();
    part.push(".part");
    let part = PathBuf::from(part);
    let written = owners_file(&part).and_then(|mut file| {
        use std::io::Write;
        file.write_all(stamp_line.as_bytes())?;
        file.write_all(b"\n")?;
        file.write_all(body.as_bytes())
    });
    if written
        .and_then(|()| std::fs::rename(&part, cache))
        .is_err()
    {
        let _ = std::fs::remove_file(&part);
        return;
    }
    let settled = length_and_time(cache)
        .is_some_and(|(_, written)| written >= stamp.youngest() + SETTLED.as_nanos());
    if !settled {
        let _ = std::fs::remove_file(cache);
    }
}

/// A new file only its owner reads (where the system has owners).
fn owners_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

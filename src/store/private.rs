//! The files that hold players' secrets: the database,
//! its `-wal` and `-shm`, and the files the clerk keeps beside it (the log
//! of messages sent, the run lock). Each is made for its owner alone (mode
//! 0600, whatever the umask) and never opened through a symbolic link: a
//! link planted beside the database would have the clerk write the
//! players' secrets wherever it points.

use std::fs::{File, OpenOptions, Permissions};
use std::io;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The mode of every file the clerk makes beside its database.
pub const MODE: u32 = 0o600;

/// Options that open a file for writing, creating it 0600, and refuse a
/// symbolic link in the last part of its path.
pub fn options() -> OpenOptions {
    let mut options = OpenOptions::new();
    options
        .write(true)
        .create(true)
        .mode(MODE)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32);
    options
}

/// Opens `path` with `options` (from [`options`]); a file it made is set to
/// 0600 itself, since the umask may have taken bits off the owner's too.
pub fn open(path: &Path, options: &OpenOptions) -> io::Result<File> {
    let existed = path.exists();
    let file = options.open(path).map_err(|error| linked(path, error))?;
    if !existed {
        file.set_permissions(Permissions::from_mode(MODE))?;
    }
    Ok(file)
}

/// ELOOP, the kernel's answer to O_NOFOLLOW on a link, said in words.
fn linked(path: &Path, error: io::Error) -> io::Error {
    if is_link(path) {
        return io::Error::other(link_said(path));
    }
    error
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// What is said of a link where a file with the secrets goes.
pub fn link_said(path: &Path) -> String {
    format!(
        "{} is a symbolic link: the clerk writes its players' secrets only to a file of its \
         own; remove the link (or name the real file)",
        path.display()
    )
}

/// The first of the database and the logs SQLite keeps beside it (`-wal`,
/// `-shm`, `-journal`) that is a symbolic link.
pub fn link_at_database(path: &Path) -> Option<PathBuf> {
    ["", "-wal", "-shm", "-journal"]
        .into_iter()
        .map(|suffix| beside(path, suffix))
        .find(|file| is_link(file))
}

/// `path` as SQLite is given it: its folder resolved through any symbolic
/// links (a tournament folder reached through a link is a normal
/// deployment), its own name kept, so that SQLite's NOFOLLOW, which refuses
/// a link anywhere in the path, refuses one only where the database file
/// itself is a link.
pub fn for_sqlite(path: &Path) -> PathBuf {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(folder), path.file_name()) {
        (Ok(real), Some(name)) => real.join(name),
        _ => path.to_path_buf(),
    }
}

/// `path` with `suffix` after its name (`db.sqlite-wal`).
pub fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

/// Makes the database file ready for SQLite: none of it or the logs SQLite
/// keeps beside it (`-wal`, `-shm`, `-journal`) a link, and the file made
/// 0600 where it is missing (SQLite gives its logs the database's mode).
pub fn prepare_database(path: &Path) -> io::Result<()> {
    if let Some(link) = link_at_database(path) {
        return Err(io::Error::other(link_said(&link)));
    }
    open(path, &options()).map(drop)
}

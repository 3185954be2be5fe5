//! The file transport: each message becomes one `.eml` file in a folder,
//! written as a file without a name and named once whole (or, where the
//! filesystem cannot, through a temporary name), so that a reader never sees
//! half a message, and synced to disk in one `syncfs` per batch
//! ([`Transport::syncer`]) before the clerk records the batch as sent.

use std::fs;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, CWD, Mode, OFlags};

use super::{MailError, Receipt, Syncer, Transport};

pub struct FileTransport {
    dir: PathBuf,
    /// Files in the folder, counted at the first send: an idle run never
    /// lists a folder that grows by every message of the season.
    count: Option<usize>,
}

impl FileTransport {
    pub fn open(dir: &Path) -> Result<FileTransport, MailError> {
        fs::create_dir_all(dir).map_err(|error| MailError {
            message: format!("cannot use outbox folder {}: {error}", dir.display()),
            transient: false,
        })?;
        Ok(FileTransport {
            dir: dir.to_path_buf(),
            count: None,
        })
    }
}

impl Transport for FileTransport {
    fn send(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
        let count = match self.count {
            Some(count) => count + 1,
            None => fs::read_dir(&self.dir).map_or(0, |entries| entries.count()) + 1,
        };
        self.count = Some(count);
        let first = recipients.first().map_or("nobody", String::as_str);
        let safe: String = first
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '@' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let name = format!("{count:06}-{safe}.eml");
        let tmp = self.dir.join(format!(".{name}.tmp"));
        let path = self.dir.join(&name);
        let io = |error: std::io::Error| MailError {
            message: format!("cannot write {}: {error}", path.display()),
            transient: true,
        };
        write_whole(&self.dir, &path, &tmp, raw).map_err(io)?;
        Ok(Receipt {
            line: format!("written to {}", path.display()),
        })
    }

    fn syncer(&self) -> Option<Syncer> {
        let dir = self.dir.clone();
        Some(Box::new(move || {
            let error = |error: std::io::Error| MailError {
                message: format!("cannot sync {}: {error}", dir.display()),
                transient: true,
            };
            let folder = fs::File::open(&dir).map_err(error)?;
            // One syncfs writes every file of the batch and the folder's
            // entries; an fsync per message costs a disk flush per message.
            rustix::fs::syncfs(&folder).map_err(|e| error(e.into()))
        }))
    }
}

/// Writes `raw` as a new file at `path`: first a file without a name in the
/// folder (`O_TMPFILE`), linked in once written; a folder whose filesystem
/// has no such files gets it through the name `tmp`, renamed. The first way
/// makes one folder entry instead of two and a rename: half the directory
/// work of the worker's sends (benches/README.md, change 23).
fn write_whole(dir: &Path, path: &Path, tmp: &Path, raw: &[u8]) -> io::Result<()> {
    let flags = OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC;
    if let Ok(fd) = rustix::fs::open(dir, flags, Mode::from_raw_mode(0o666)) {
        let mut file = fs::File::from(fd);
        file.write_all(raw)?;
        crate::fault::point("during-send");
        // Linking a descriptor by its name in /proc needs no privilege (an
        // empty path would need CAP_DAC_READ_SEARCH).
        let name = format!("/proc/self/fd/{}", file.as_raw_fd());
        if rustix::fs::linkat(CWD, name.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW).is_ok() {
            return Ok(());
        }
        // No /proc: the unnamed file goes with its descriptor.
    }
    write_renamed(path, tmp, raw)
}

fn write_renamed(path: &Path, tmp: &Path, raw: &[u8]) -> io::Result<()> {
    fs::write(tmp, raw)?;
    crate::fault::point("during-send");
    fs::rename(tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn each_message_is_one_whole_file_and_nothing_else_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let mut transport = FileTransport::open(dir.path()).unwrap();
        let first = b"Subject: one\r\n\r\nbody\r\n".as_slice();
        let second = "Subject: два\r\n\r\nход\r\n".as_bytes();
        transport.send(&["a@x.example".into()], first).unwrap();
        let receipt = transport.send(&["b c@y.example".into()], second).unwrap();
        (transport.syncer().unwrap())().unwrap();
        assert_eq!(
            listing(dir.path()),
            ["000001-a@x.example.eml", "000002-b_c@y.example.eml"]
        );
        let path = dir.path().join("000002-b_c@y.example.eml");
        assert_eq!(receipt.line, format!("written to {}", path.display()));
        assert_eq!(
            fs::read(dir.path().join("000001-a@x.example.eml")).unwrap(),
            first
        );
        assert_eq!(fs::read(&path).unwrap(), second);
        // As `fs::write` makes a file: readable by whoever the umask lets.
        let written = dir.path().join("written");
        fs::write(&written, b"").unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), mode(&written));
    }

    #[test]
    fn without_unnamed_files_a_temporary_name_is_renamed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("000001-a.eml");
        write_renamed(&path, &dir.path().join(".000001-a.eml.tmp"), b"raw").unwrap();
        assert_eq!(listing(dir.path()), ["000001-a.eml"]);
        assert_eq!(fs::read(&path).unwrap(), b"raw");
    }
}

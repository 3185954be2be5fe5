//! The file transport: each message becomes one `.eml` file in a folder,
//! written as a file without a name and named once whole (or, where the
//! filesystem cannot, through a temporary name), so that a reader never sees
//! half a message, and synced to disk in one `syncfs` per batch
//! ([`Transport::syncer`]) before the clerk records the batch as sent.

use std::fs;
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::path::{Path, PathBuf};

use rustix::fs::{AtFlags, CWD, Mode, OFlags, RenameFlags};

use super::{MailError, Receipt, Syncer, Transport};

pub struct FileTransport {
    dir: PathBuf,
    /// The number of the last file written, found at the first send (the
    /// highest in the folder): an idle run never lists a folder that grows
    /// by every message of the season.
    last: Option<u64>,
    /// How an unnamed file gets its name here (see [`write_whole`]).
    link: Link,
}

/// How a file without a name is linked into the folder, learnt at the first
/// message and kept for the rest.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Link {
    /// By its descriptor (`AT_EMPTY_PATH`): Linux 6.10 and later let a
    /// process link a file it opened itself.
    Descriptor,
    /// By its name in `/proc/self/fd`: older kernels refuse the first way
    /// without a privilege; this one costs a walk through `/proc` (a tenth
    /// of the sending thread's system time, benches/README.md change 34).
    Proc,
    /// Neither: a temporary name, renamed.
    Renamed,
}

impl FileTransport {
    pub fn open(dir: &Path) -> Result<FileTransport, MailError> {
        fs::create_dir_all(dir).map_err(|error| MailError {
            message: format!("cannot use outbox folder {}: {error}", dir.display()),
            transient: false,
        })?;
        Ok(FileTransport {
            dir: dir.to_path_buf(),
            last: None,
            link: Link::Descriptor,
        })
    }
}

/// The highest number that begins a file name in `dir` (0 for none).
fn highest_number(dir: &Path) -> u64 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(|entry| {
            let name = entry.ok()?.file_name();
            let digits: String = name
                .to_str()?
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().ok()
        })
        .max()
        .unwrap_or(0)
}

impl Transport for FileTransport {
    fn send(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
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
        let mut number = match self.last {
            Some(last) => last,
            None => highest_number(&self.dir),
        };
        // A file someone else put under the next name is never replaced:
        // the message takes the name after it.
        loop {
            number += 1;
            let name = format!("{number:06}-{safe}.eml");
            let path = self.dir.join(&name);
            match write_whole(&path, raw, &mut self.link) {
                Ok(()) => {
                    self.last = Some(number);
                    return Ok(Receipt {
                        line: format!("written to {}", path.display()),
                    });
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(error) => {
                    return Err(MailError {
                        message: format!("cannot write {}: {error}", path.display()),
                        transient: true,
                    });
                }
            }
        }
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

/// Writes `raw` as a new file at `path`, or fails with `AlreadyExists` if
/// there is one: first a file without a name in the folder (`O_TMPFILE`),
/// linked in once written; a folder whose filesystem has no such files gets
/// it through a temporary name, renamed ([`write_renamed`]). The first way
/// makes one folder entry instead of two and a rename: half the directory
/// work of the worker's sends (benches/README.md, change 23). `link` is the way that worked
/// last, tried first; a way refused is not tried again.
fn write_whole(path: &Path, raw: &[u8], link: &mut Link) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let taken = |error: rustix::io::Errno| error == rustix::io::Errno::EXIST;
    if *link != Link::Renamed {
        let flags = OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC;
        if let Ok(fd) = rustix::fs::open(dir, flags, Mode::from_raw_mode(0o666)) {
            let mut file = fs::File::from(fd);
            file.write_all(raw)?;
            crate::fault::point("during-send");
            if *link == Link::Descriptor {
                match rustix::fs::linkat(&file, "", CWD, path, AtFlags::EMPTY_PATH) {
                    Ok(()) => return Ok(()),
                    Err(error) if taken(error) => return Err(error.into()),
                    Err(_) => *link = Link::Proc,
                }
            }
            // Linking a descriptor by its name in /proc needs no privilege.
            let name = format!("/proc/self/fd/{}", file.as_raw_fd());
            match rustix::fs::linkat(CWD, name.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW) {
                Ok(()) => return Ok(()),
                Err(error) if taken(error) => return Err(error.into()),
                // No /proc: the unnamed file goes with its descriptor.
                Err(_) => {}
            }
        }
        *link = Link::Renamed;
    }
    write_renamed(path, raw)
}

/// Writes `raw` under a temporary name beside `path` (`.NAME.tmp`, hidden
/// from scripts that read `*.eml`), renamed only onto no file
/// (`RENAME_NOREPLACE`, or a look first where the filesystem cannot).
fn write_renamed(path: &Path, raw: &[u8]) -> io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    fs::write(&tmp, raw)?;
    crate::fault::point("during-send");
    let renamed = match rustix::fs::renameat_with(CWD, &tmp, CWD, path, RenameFlags::NOREPLACE) {
        Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) if path.exists() => {
            Err(io::ErrorKind::AlreadyExists.into())
        }
        Err(rustix::io::Errno::INVAL | rustix::io::Errno::NOSYS) => fs::rename(&tmp, path),
        other => other.map_err(io::Error::from),
    };
    if renamed.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    renamed
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
    fn without_unnamed_files_a_temporary_name_is_renamed_onto_no_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("000001-a.eml");
        write_renamed(&path, b"raw").unwrap();
        assert_eq!(listing(dir.path()), ["000001-a.eml"]);
        assert_eq!(fs::read(&path).unwrap(), b"raw");
        let error = write_renamed(&path, b"other").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(listing(dir.path()), ["000001-a.eml"]);
        assert_eq!(fs::read(&path).unwrap(), b"raw");
    }

    #[test]
    fn every_way_of_naming_writes_the_whole_file_and_refuses_a_taken_name() {
        for way in [Link::Descriptor, Link::Proc, Link::Renamed] {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("000001-a.eml");
            let mut link = way;
            write_whole(&path, b"first", &mut link).unwrap();
            let error = write_whole(&path, b"second", &mut link).unwrap_err();
            assert_eq!(error.kind(), io::ErrorKind::AlreadyExists, "{way:?}");
            assert_eq!(listing(dir.path()), ["000001-a.eml"], "{way:?}");
            assert_eq!(fs::read(&path).unwrap(), b"first", "{way:?}");
            // The kernels this runs on link by descriptor or through /proc;
            // a way that works is kept.
            assert_eq!(link, way);
        }
    }

    #[test]
    fn numbers_go_on_from_the_highest_and_files_put_there_are_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        // A script took messages 2 and 4 away; someone left a note.
        fs::write(dir.path().join("000001-a@x.example.eml"), b"one").unwrap();
        fs::write(dir.path().join("000003-a@x.example.eml"), b"three").unwrap();
        fs::write(dir.path().join("notes.txt"), b"note").unwrap();
        let mut transport = FileTransport::open(dir.path()).unwrap();
        transport.send(&["b@y.example".into()], b"four").unwrap();
        // Put under the next name while the run goes on.
        fs::write(dir.path().join("000005-b@y.example.eml"), b"theirs").unwrap();
        let receipt = transport.send(&["b@y.example".into()], b"six").unwrap();
        assert!(
            receipt.line.ends_with("000006-b@y.example.eml"),
            "{}",
            receipt.line
        );
        assert_eq!(
            listing(dir.path()),
            [
                "000001-a@x.example.eml",
                "000003-a@x.example.eml",
                "000004-b@y.example.eml",
                "000005-b@y.example.eml",
                "000006-b@y.example.eml",
                "notes.txt"
            ]
        );
        let read = |name: &str| fs::read(dir.path().join(name)).unwrap();
        assert_eq!(read("000004-b@y.example.eml"), b"four");
        assert_eq!(read("000005-b@y.example.eml"), b"theirs");
        assert_eq!(read("000006-b@y.example.eml"), b"six");
    }
}

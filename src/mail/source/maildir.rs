//! A Maildir as the source: letters in `new/`, moved to `cur/` once done. The
//! postmark is the date of the topmost `Received:` header (added by our own
//! server), else the file's modification time.

use std::fs;
use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use crate::mail::{Envelope, MailError, MailSource};

pub struct Maildir {
    root: PathBuf,
    /// The files of `new/` the last fetch could not read, and why.
    unreadable: Vec<(String, String)>,
}

impl Maildir {
    /// Opens a Maildir, creating `new/`, `cur/` and `tmp/` when missing; the
    /// folder itself must be there: a path that names nothing is a typo
    /// (`inbx`), and a Maildir made there would never get a letter.
    pub fn open(root: &Path) -> Result<Maildir, MailError> {
        match fs::metadata(root) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(MailError {
                    message: format!(
                        "Maildir {} is a file, not a folder; check [source] path",
                        root.display()
                    ),
                    transient: false,
                });
            }
            Err(_) => {
                return Err(MailError {
                    message: format!(
                        "Maildir {} does not exist; check [source] path (a relative one is read \
                         from the config file's folder), or run `shtempel init`, which makes it",
                        root.display()
                    ),
                    transient: false,
                });
            }
        }
        Maildir::create(root)
    }

    /// Makes a Maildir (the folder and `new/`, `cur/`, `tmp/`) where parts of
    /// it are missing, and opens it (`shtempel init`, the demo).
    pub fn create(root: &Path) -> Result<Maildir, MailError> {
        for sub in ["new", "cur", "tmp"] {
            fs::create_dir_all(root.join(sub)).map_err(|error| MailError {
                message: format!("cannot use Maildir {}: {error}", root.display()),
                transient: false,
            })?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
            unreadable: Vec::new(),
        })
    }

    /// The headers of the `count` newest letters of `new/` and `cur/`, by
    /// their files' times (`shtempel doctor` reads the server's verdicts in
    /// them); files behind links and unreadable ones are passed over.
    pub fn recent_heads(&self, count: usize) -> Result<Vec<Vec<u8>>, MailError> {
        let mut files = Vec::new();
        for sub in ["new", "cur"] {
            let folder = self.root.join(sub);
            let entries = fs::read_dir(&folder).map_err(|error| MailError {
                message: format!("cannot read {}: {error}", folder.display()),
                transient: true,
            })?;
            for entry in entries.flatten() {
                let Ok(meta) = fs::symlink_metadata(entry.path()) else {
                    continue;
                };
                if meta.is_file() {
                    let time = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
                    files.push((time, entry.path()));
                }
            }
        }
        files.sort();
        let newest = &files[files.len().saturating_sub(count)..];
        Ok(newest
            .iter()
            .filter_map(|(_, path)| head_of(path))
            .collect())
    }

    /// The Maildir's folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Puts a message into `new/` the way a delivery agent does (through `tmp/`).
    pub fn deliver(&self, name: &str, raw: &[u8]) -> std::io::Result<PathBuf> {
        let tmp = self.root.join("tmp").join(name);
        fs::write(&tmp, raw)?;
        let new = self.root.join("new").join(name);
        fs::rename(&tmp, &new)?;
        Ok(new)
    }
}

/// A letter's header (at most 256 KB), read without following a link.
fn head_of(path: &Path) -> Option<Vec<u8>> {
    let file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)
        .ok()?;
    let mut head = Vec::new();
    file.take(256 * 1024).read_to_end(&mut head).ok()?;
    let end = head
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|at| at + 4)
        .or_else(|| head.windows(2).position(|w| w == b"\n\n").map(|at| at + 2));
    head.truncate(end.unwrap_or(head.len()));
    Some(head)
}

/// The date of the first `Received:` header of a message, if it has one.
pub fn topmost_received(raw: &[u8]) -> Option<DateTime<Utc>> {
    let head_end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .or_else(|| raw.windows(2).position(|w| w == b"\n\n"));
    let head = String::from_utf8_lossy(&raw[..head_end.unwrap_or(raw.len()).min(256 * 1024)]);
    let mut lines = head.lines().peekable();
    while let Some(line) = lines.next() {
        if !line.to_ascii_lowercase().starts_with("received:") {
            continue;
        }
        let mut value = line["received:".len()..].to_string();
        while let Some(next) = lines.peek().filter(|next| next.starts_with([' ', '\t'])) {
            value.push(' ');
            value.push_str(next.trim());
            lines.next();
        }
        let date = value.rsplit_once(';')?.1.trim();
        // Drop a trailing comment such as "(MSK)".
        let date = date.split(" (").next().unwrap_or(date).trim();
        return DateTime::parse_from_rfc2822(date)
            .ok()
            .map(|d| d.with_timezone(&Utc));
    }
    None
}

/// Reads one letter of `new/` through `scratch` (the letter itself gets a
/// buffer of its own size); `Ok(None)` when it went away meanwhile (another
/// program took it), `Err` with why when it cannot be read.
fn read_letter(
    new: &Path,
    key: String,
    scratch: &mut Vec<u8>,
) -> Result<Option<Envelope>, MailError> {
    let path = new.join(&key);
    let failed = |error: std::io::Error| MailError {
        message: format!("cannot read {}: {error}", path.display()),
        transient: true,
    };
    // Not through a link put there since the listing, and never blocked by
    // a FIFO: only a plain file is read.
    let opened = fs::File::options()
        .read(true)
        .custom_flags((rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32)
        .open(&path)
        .and_then(|file| match file.metadata()?.is_file() {
            true => Ok(file),
            false => Err(std::io::Error::other("not a plain file")),
        });
    let mut file = match opened {
        Ok(file) => file,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(failed(error)),
    };
    scratch.clear();
    file.read_to_end(scratch).map_err(failed)?;
    let raw = scratch.clone();
    let arrived = match topmost_received(&raw) {
        Some(arrived) => arrived,
        None => file
            .metadata()
            .and_then(|m| m.modified())
            .map(DateTime::<Utc>::from)
            .unwrap_or_default(),
    };
    Ok(Some(Envelope {
        key,
        size: raw.len(),
        raw,
        arrived,
        channel: crate::rules::Channel::Letter,
    }))
}

/// A name for a file of `new/` whose name is not UTF-8 (no key could name
/// it): its name with the bytes that are not replaced, and a digest of the
/// bytes, so two such names stay two.
fn utf8_name(name: &std::ffi::OsStr) -> String {
    let bytes = name.as_encoded_bytes();
    let digest = crate::mail::format::keys::fingerprint(None, bytes);
    let readable: String = String::from_utf8_lossy(bytes)
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || ".,-_=".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    format!("{readable}.renamed-{}", &digest[..12])
}

impl MailSource for Maildir {
    fn fetch_new(&mut self) -> Result<Vec<Envelope>, MailError> {
        let new = self.root.join("new");
        let listed = |error: std::io::Error| MailError {
            message: format!("cannot read {}: {error}", new.display()),
            transient: true,
        };
        let mut keys = Vec::new();
        self.unreadable.clear();
        for entry in fs::read_dir(&new).map_err(listed)? {
            let entry = entry.map_err(listed)?;
            // The type comes with the name on most file systems. A link is
            // not followed: a delivery agent writes
            // files, and a link planted there would have the clerk read, and
            // file for the arbiter, whatever it points to.
            let kind = entry
                .file_type()
                .or_else(|_| fs::symlink_metadata(entry.path()).map(|m| m.file_type()));
            match kind {
                Ok(kind) if kind.is_file() => {}
                Ok(kind) if kind.is_symlink() => {
                    let name = entry.file_name().to_string_lossy().into_owned();
                    self.unreadable.push((
                        name,
                        format!(
                            "{} is a symbolic link, not a letter: the clerk follows none; \
                             remove it",
                            entry.path().display()
                        ),
                    ));
                    continue;
                }
                _ => continue,
            }
            match entry.file_name().into_string() {
                Ok(key) => keys.push(key),
                // Renamed where it lies, then read like any other.
                Err(name) => {
                    let key = utf8_name(&name);
                    match fs::rename(new.join(&name), new.join(&key)) {
                        Ok(()) => keys.push(key),
                        Err(error) => self
                            .unreadable
                            .push((key, format!("cannot rename {name:?}: {error}"))),
                    }
                }
            }
        }
        // Reading ten thousand small files is system calls: two threads
        // read them in half the time.
        let half = keys.len().div_ceil(2);
        let second = keys.split_off(half);
        let new = new.as_path();
        let read_all = |keys: Vec<String>| {
            let mut letters = Vec::with_capacity(keys.len());
            let mut unreadable = Vec::new();
            let mut scratch = Vec::with_capacity(64 * 1024);
            for key in keys {
                match read_letter(new, key.clone(), &mut scratch) {
                    Ok(letter) => letters.extend(letter),
                    Err(why) => unreadable.push((key, why.message)),
                }
            }
            (letters, unreadable)
        };
        let (first, rest) = std::thread::scope(|scope| {
            let rest = (!second.is_empty()).then(|| scope.spawn(|| read_all(second)));
            let first = read_all(keys);
            (
                first,
                rest.map_or(Ok(Default::default()), |thread| thread.join()),
            )
        });
        let (rest, rest_unreadable) = rest.map_err(|_| MailError {
            message: format!("reading {} failed", new.display()),
            transient: true,
        })?;
        let (mut letters, unreadable) = first;
        letters.extend(rest);
        self.unreadable.extend(unreadable);
        self.unreadable.extend(rest_unreadable);
        letters.sort_by(|a, b| a.arrived.cmp(&b.arrived).then_with(|| a.key.cmp(&b.key)));
        Ok(letters)
    }

    fn take_unreadable(&mut self) -> Vec<(String, String)> {
        std::mem::take(&mut self.unreadable)
    }

    /// Delivered through `tmp/` under a name of its own, with the time it
    /// arrived as its modification time (its postmark, where it has no
    /// `Received:` header).
    fn put_back(&mut self, raw: &[u8], arrived: DateTime<Utc>) -> Result<(), MailError> {
        let digest = crate::mail::format::keys::fingerprint(None, raw);
        let name = format!("{}.retry-{}.shtempel", arrived.timestamp(), &digest[..16]);
        let failed = |error: std::io::Error| MailError {
            message: format!(
                "cannot put a letter back into {}: {error}",
                self.root.display()
            ),
            transient: true,
        };
        let path = self.deliver(&name, raw).map_err(failed)?;
        fs::File::options()
            .append(true)
            .open(&path)
            .and_then(|file| file.set_modified(arrived.into()))
            .map_err(failed)
    }

    fn has_done_letters(&mut self) -> Result<bool, MailError> {
        let cur = self.root.join("cur");
        let mut entries = fs::read_dir(&cur).map_err(|error| MailError {
            message: format!("cannot read {}: {error}", cur.display()),
            transient: true,
        })?;
        Ok(entries.next().is_some())
    }

    fn mark_done(&mut self, key: &str) -> Result<(), MailError> {
        let from = self.root.join("new").join(key);
        let name = if key.contains(":2,") {
            key.to_string()
        } else {
            format!("{key}:2,S")
        };
        let to = self.root.join("cur").join(name);
        let io = |error: std::io::Error| MailError {
            message: format!("cannot move {} to cur/: {error}", from.display()),
            transient: true,
        };
        // One rename: the letter is in new/ or in cur/, never in neither and
        // never in both. A crash before it leaves the letter in new/; the next
        // run sees by its key that it was applied and only moves it.
        crate::fault::point("during-mark-done");
        fs::rename(&from, &to).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topmost_received_header_is_the_postmark() {
        let raw = b"Received: from mx.example.org by clerk.example.org\r\n\twith ESMTP id 1; Thu, 12 Nov 2026 23:10:00 +0300 (MSK)\r\nReceived: from a by b; Wed, 11 Nov 2026 10:00:00 +0000\r\nSubject: x\r\n\r\nbody";
        let date = topmost_received(raw).unwrap();
        assert_eq!(date.to_rfc3339(), "2026-11-12T20:10:00+00:00");
        assert_eq!(
            topmost_received(
                b"Subject: none\r\n\r\nReceived: in body; Thu, 12 Nov 2026 23:10:00 +0300"
            ),
            None
        );
    }

    #[test]
    fn new_letters_in_arrival_order_then_cur() {
        let dir = tempfile::tempdir().unwrap();
        let mut maildir = Maildir::create(dir.path()).unwrap();
        maildir
            .deliver(
                "b",
                b"Received: x; Thu, 12 Nov 2026 10:00:00 +0000\r\n\r\nsecond",
            )
            .unwrap();
        maildir
            .deliver(
                "a",
                b"Received: x; Wed, 11 Nov 2026 10:00:00 +0000\r\n\r\nfirst",
            )
            .unwrap();
        let letters = maildir.fetch_new().unwrap();
        assert_eq!(
            letters.iter().map(|l| l.key.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        maildir.mark_done("a").unwrap();
        assert!(dir.path().join("cur/a:2,S").exists());
        assert_eq!(maildir.fetch_new().unwrap().len(), 1);
    }

    #[test]
    fn many_letters_are_read_whole_in_order_and_folders_are_skipped() {
        let dir = tempfile::tempdir().unwrap();
        let maildir = Maildir::create(dir.path()).unwrap();
        // Delivered in reverse: arrival order is the Received date, then the
        // key; one letter has no Received header and keeps its file's time.
        for n in (0..25).rev() {
            let raw = format!(
                "Received: x; Thu, 12 Nov 2026 10:{:02}:00 +0000\r\n\r\nletter {n}",
                n / 2
            );
            maildir
                .deliver(&format!("m{n:02}"), raw.as_bytes())
                .unwrap();
        }
        maildir
            .deliver("plain", b"Subject: no postmark\r\n\r\nx")
            .unwrap();
        fs::create_dir(dir.path().join("new/folder")).unwrap();
        let mut maildir = maildir;
        let letters = maildir.fetch_new().unwrap();
        let keys: Vec<&str> = letters.iter().map(|l| l.key.as_str()).collect();
        let mut expected: Vec<String> = (0..25).map(|n| format!("m{n:02}")).collect();
        expected.push("plain".into());
        assert_eq!(
            keys, expected,
            "the letter without a postmark arrived now, last"
        );
        assert_eq!(
            letters[7].raw,
            b"Received: x; Thu, 12 Nov 2026 10:03:00 +0000\r\n\r\nletter 7"
        );
        assert!(letters[25].arrived > letters[24].arrived);
        assert_eq!(
            letters[24].arrived.to_rfc3339(),
            "2026-11-12T10:12:00+00:00"
        );
    }
}

//! The file transport: each message becomes one `.eml` file in a folder,
//! written under a hidden temporary name and named once whole, onto no file,
//! so that a reader never sees half a message and no file is replaced; synced
//! to disk in one `syncfs` per batch ([`Transport::syncer`]) before the clerk
//! records the batch as sent.

use std::fs;
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::mail::{MailError, Receipt, Syncer, Transport};

pub struct FileTransport {
    dir: PathBuf,
    /// The number of the last file written, found at the first send (the
    /// highest in the folder): an idle run never lists a folder that grows
    /// by every message of the season.
    last: Option<u64>,
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
    fn has_sent(&self) -> bool {
        fs::read_dir(&self.dir).is_ok_and(|mut entries| {
            entries.any(|entry| {
                entry.is_ok_and(|e| e.path().extension().is_some_and(|ext| ext == "eml"))
            })
        })
    }

    fn send(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
        let first = recipients.first().map_or("nobody", String::as_str);
        // A file name holds 255 bytes: a long address (a valid one may have
        // 254 characters) is cut, the name only telling whose it is. An
        // address's own `-` and `+` stay: `open-arbiter@` is no `open_arbiter@`.
        let safe: String = first
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '@' | '-' | '+') {
                    c
                } else {
                    '_'
                }
            })
            .take(MAX_NAME_ADDRESS)
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
            match write_whole(&path, raw) {
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
                        transient: transient(&error),
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

/// The most characters of the recipient's address in a file's name.
const MAX_NAME_ADDRESS: usize = 64;

/// Whether writing may succeed on a later run: a full disk, a folder made
/// read-only or unreachable for a while, can be mended; a name the file
/// system refuses cannot, and retrying it forever would fail every run
///.
fn transient(error: &io::Error) -> bool {
    !matches!(
        error.kind(),
        io::ErrorKind::InvalidFilename | io::ErrorKind::InvalidInput
    )
}

/// The folder inside the outbox where a message is written before it is
/// named: a run killed meanwhile leaves its file there, where the next run
/// finds it without reading the whole outbox (a season's outbox holds a
/// hundred thousand messages; listing them took an idle poll 40 ms).
pub const WRITING: &str = ".writing";

/// Writes `raw` as a new file at `path`, or fails with `AlreadyExists` if
/// there is one: under a temporary name in the outbox's [`WRITING`] folder
/// (`.*.tmp`, which scripts reading `*.eml` pass over), named once whole
/// without replacing a file (tempfile's `persist_noclobber`), and with the
/// permissions `fs::write` would give it.
fn write_whole(path: &Path, raw: &[u8]) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new(".")).join(WRITING);
    fs::create_dir_all(&dir)?;
    let mut file = tempfile::Builder::new()
        .prefix(".")
        .suffix(".tmp")
        .permissions(fs::Permissions::from_mode(0o666))
        .tempfile_in(&dir)?;
    file.write_all(raw)?;
    crate::fault::point("during-send");
    file.persist_noclobber(path)
        .map(drop)
        .map_err(|error| error.error)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The outbox's files, and what its writing folder holds (its own
    /// name aside).
    fn listing(dir: &Path) -> Vec<String> {
        let files = |dir: &Path| -> Vec<String> {
            fs::read_dir(dir)
                .into_iter()
                .flatten()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|name| name != WRITING)
                .collect()
        };
        let mut names = files(dir);
        names.extend(files(&dir.join(WRITING)));
        names.sort();
        names
    }

    #[test]
    fn a_name_the_file_system_refuses_is_permanent_a_full_or_locked_folder_is_not() {
        for (kind, retried) in [
            (io::ErrorKind::InvalidFilename, false),
            (io::ErrorKind::InvalidInput, false),
            (io::ErrorKind::PermissionDenied, true),
            (io::ErrorKind::StorageFull, true),
            (io::ErrorKind::ReadOnlyFilesystem, true),
        ] {
            assert_eq!(transient(&io::Error::from(kind)), retried, "{kind:?}");
        }
    }

    #[test]
    fn each_message_is_one_whole_file_and_nothing_else_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let mut transport = FileTransport::open(dir.path()).unwrap();
        let first = b"Subject: one\r\n\r\nbody\r\n".as_slice();
        let second = "Subject: два\r\n\r\nход\r\n".as_bytes();
        transport.send(&["a@x.example".into()], first).unwrap();
        let receipt = transport.send(&["b c@y.example".into()], second).unwrap();
        transport
            .send(&["open-arbiter+cc@z.example".into()], first)
            .unwrap();
        (transport.syncer().unwrap())().unwrap();
        assert_eq!(
            listing(dir.path()),
            [
                "000001-a@x.example.eml",
                "000002-b_c@y.example.eml",
                "000003-open-arbiter+cc@z.example.eml"
            ]
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
    fn a_file_is_written_whole_onto_no_file_and_no_temporary_is_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("000001-a.eml");
        write_whole(&path, b"first").unwrap();
        let error = write_whole(&path, b"second").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(listing(dir.path()), ["000001-a.eml"]);
        assert_eq!(fs::read(&path).unwrap(), b"first");
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

//! The file transport: each message becomes one `.eml` file in a folder, written
//! through a temporary name so that a reader never sees half a message, and
//! synced to disk in one `syncfs` per batch ([`Transport::flush`]) before the
//! clerk records the batch as sent.

use std::fs;
use std::path::{Path, PathBuf};

use super::{MailError, Receipt, Transport};

pub struct FileTransport {
    dir: PathBuf,
    /// Files in the folder, counted at the first send: an idle run never
    /// lists a folder that grows by every message of the season.
    count: Option<usize>,
    unsynced: bool,
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
            unsynced: false,
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
        self.unsynced = true;
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
        fs::write(&tmp, raw).map_err(io)?;
        crate::fault::point("during-send");
        fs::rename(&tmp, &path).map_err(io)?;
        Ok(Receipt {
            line: format!("written to {}", path.display()),
        })
    }

    fn flush(&mut self) -> Result<(), MailError> {
        if !self.unsynced {
            return Ok(());
        }
        let error = |error: std::io::Error| MailError {
            message: format!("cannot sync {}: {error}", self.dir.display()),
            transient: true,
        };
        let dir = fs::File::open(&self.dir).map_err(error)?;
        // One syncfs writes every file of the batch and the folder's entries;
        // an fsync per message costs a disk flush per message.
        rustix::fs::syncfs(&dir).map_err(|e| error(e.into()))?;
        self.unsynced = false;
        Ok(())
    }
}

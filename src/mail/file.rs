//! The file transport: each message becomes one `.eml` file in a folder, written
//! through a temporary name so that a reader never sees half a message.

use std::fs;
use std::path::{Path, PathBuf};

use super::{MailError, Receipt, Transport};

pub struct FileTransport {
    dir: PathBuf,
    count: usize,
}

impl FileTransport {
    pub fn open(dir: &Path) -> Result<FileTransport, MailError> {
        fs::create_dir_all(dir).map_err(|error| MailError {
            message: format!("cannot use outbox folder {}: {error}", dir.display()),
            transient: false,
        })?;
        let count = fs::read_dir(dir)
            .map(|entries| entries.count())
            .unwrap_or(0);
        Ok(FileTransport {
            dir: dir.to_path_buf(),
            count,
        })
    }
}

impl Transport for FileTransport {
    fn send(&mut self, recipients: &[String], raw: &[u8]) -> Result<Receipt, MailError> {
        self.count += 1;
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
        let name = format!("{:06}-{safe}.eml", self.count);
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
}

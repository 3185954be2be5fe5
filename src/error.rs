//! The crate's error: what failed, by kind, and in words. The command line
//! chooses its exit code and its hint by the kind (a database's error names
//! the file; a template's, the folder), never by reading the words.
//! A letter the rules refuse is no error: it is answered.

use std::fmt;
use std::sync::Arc;

/// What failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The database (SQLite): the run stops, and the next one redoes it.
    Database,
    /// A template or its phrases could not be rendered.
    Template,
    /// The mail source or transport.
    Mail,
    /// The configuration (a tournament's file, an edit of it).
    Config,
    /// A file or folder the clerk writes (the report's pages, the demo's
    /// tournament) could not be written.
    Files,
    /// A command line the clerk cannot read (a value clap hands over).
    Usage,
    /// Anything else: a bug, or a state the clerk does not expect.
    Internal,
}

/// An error of the clerk's, with its kind, its words and, where a library
/// raised it, that library's error (SQLite's code is read off it).
#[derive(Clone, Debug)]
pub struct Error {
    pub kind: Kind,
    pub message: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

/// Two errors are the same when they say the same of the same kind.
impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        (self.kind, &self.message) == (other.kind, &other.message)
    }
}

impl Eq for Error {}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, message: impl fmt::Display) -> Error {
        Error {
            kind,
            message: message.to_string(),
            source: None,
        }
    }

    /// The same error, its words led by what it is about (a file's name).
    pub fn context(self, about: impl fmt::Display) -> Error {
        Error {
            message: format!("{about}: {}", self.message),
            ..self
        }
    }

    /// SQLite's code for the error, where SQLite raised it: the command
    /// line's hint for a database it cannot write is chosen by it.
    pub fn sqlite_code(&self) -> Option<rusqlite::ErrorCode> {
        let source = self.source.as_deref()?;
        source
            .downcast_ref::<rusqlite::Error>()?
            .sqlite_error_code()
    }

    pub fn database(error: impl fmt::Display) -> Error {
        Error::new(Kind::Database, error)
    }

    pub fn template(error: impl fmt::Display) -> Error {
        Error::new(Kind::Template, error)
    }

    pub fn mail(error: impl fmt::Display) -> Error {
        Error::new(Kind::Mail, error)
    }

    pub fn config(error: impl fmt::Display) -> Error {
        Error::new(Kind::Config, error)
    }

    pub fn files(error: impl fmt::Display) -> Error {
        Error::new(Kind::Files, error)
    }

    pub fn usage(error: impl fmt::Display) -> Error {
        Error::new(Kind::Usage, error)
    }

    pub fn internal(error: impl fmt::Display) -> Error {
        Error::new(Kind::Internal, error)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Database => write!(f, "database: {}", self.message),
            _ => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        let source = self.source.as_deref()?;
        Some(source)
    }
}

impl From<rusqlite::Error> for Error {
    fn from(error: rusqlite::Error) -> Error {
        Error {
            kind: Kind::Database,
            message: error.to_string(),
            source: Some(Arc::new(error)),
        }
    }
}

impl From<minijinja::Error> for Error {
    fn from(error: minijinja::Error) -> Error {
        Error::template(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_error_keeps_sqlites_error_and_its_code_through_its_context() {
        let readonly = rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_READONLY),
            Some("attempt to write a readonly database".into()),
        );
        let error = Error::from(readonly).context("db.sqlite");
        assert_eq!(error.kind, Kind::Database);
        assert_eq!(error.sqlite_code(), Some(rusqlite::ErrorCode::ReadOnly));
        assert_eq!(
            error.message,
            "db.sqlite: attempt to write a readonly database"
        );
        let source = std::error::Error::source(&error).expect("SQLite's error kept");
        assert!(source.downcast_ref::<rusqlite::Error>().is_some());
        // Words alone carry no code: the hint is never read off the text.
        let said = Error::database("attempt to write a readonly database");
        assert_eq!(said.sqlite_code(), None);
    }
}

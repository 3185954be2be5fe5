//! The crate's error: what failed, by kind, and in words. The command line
//! chooses its exit code and its hint by the kind (a database's error names
//! the file; a template's, the folder), never by reading the words.
//! A letter the rules refuse is no error: it is answered.

use std::fmt;

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

/// An error of the clerk's, with its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub kind: Kind,
    pub message: String,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: Kind, message: impl fmt::Display) -> Error {
        Error {
            kind,
            message: message.to_string(),
        }
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

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(error: rusqlite::Error) -> Error {
        Error::database(error)
    }
}

impl From<minijinja::Error> for Error {
    fn from(error: minijinja::Error) -> Error {
        Error::template(error)
    }
}

//! The clerk's own changes to a tournament's file, ordered by the chief
//! arbiter's letter: a player replaced (`REPLACE ivanov Petrov P.
//! <petrov@example.org>`) and an address added to a player's (`ACCEPT KEY
//! AS ivanov ADDRESS`). Only the player's `[[players]]` entry changes; the
//! rest of the file (the director's comments, order and layout) stays as
//! he wrote it. The new text replaces the file whole (written beside it,
//! then renamed over it), so that a reader never sees half of it.
//!
//! The run writes an edit after the letter that orders it is committed
//! (the database keeps it until it is done, `Store::pending_edits`), and
//! an edit is written the same twice: a run killed between the two does
//! it again.

use crate::error::Error;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml_edit::{Array, DocumentMut, Item, Table};

/// What changes in a player's entry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerEdit {
    /// A newcomer takes the entry (its id stays): his name and his one
    /// address; the addresses of the player he replaces go.
    Replace { name: String, email: String },
    /// One more address of the player's, written to `emails`.
    AddAddress { email: String },
}

/// An edit of one player's entry in one file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigEdit {
    /// The file holding the entry (the tournament's own, in a folder).
    pub file: PathBuf,
    /// The player's id.
    pub player: String,
    pub edit: PlayerEdit,
    /// The clerk's file (`--config`) the edited file is loaded under to
    /// check it; empty in edits kept before it was kept: the file itself.
    #[serde(default)]
    pub clerk_file: PathBuf,
}

impl ConfigEdit {
    /// Makes the edit in its file; `Ok(false)`: the entry had it already.
    pub fn apply(&self) -> Result<bool, Error> {
        let file = self.file.display();
        let text = std::fs::read_to_string(&self.file)
            .map_err(|e| Error::config(format!("{file}: {e}")))?;
        let Some(edited) = edited(&text, &self.player, &self.edit)
            .map_err(|problem| Error::config(format!("{file}: {problem}")))?
        else {
            return Ok(false);
        };
        self.loads(&edited)?;
        replace_file(&self.file, &edited).map_err(|e| Error::config(format!("{file}: {e}")))?;
        Ok(true)
    }

    /// Whether the edit can be made: the file with it loads, as every
    /// tournament of the clerk's file would then be read (an address or a
    /// name the config refuses would stop every command of every event
    /// until the file was mended by hand), and the clerk may write it.
    /// Asked before the order is taken, and again before the file is
    /// replaced.
    pub fn check(&self) -> Result<(), Error> {
        let file = self.file.display();
        let text = std::fs::read_to_string(&self.file)
            .map_err(|e| Error::config(format!("{file}: {e}")))?;
        if let Some(edited) = edited(&text, &self.player, &self.edit)
            .map_err(|problem| Error::config(format!("{file}: {problem}")))?
        {
            self.loads(&edited).map_err(Error::config)?;
        }
        self.writable()
    }

    /// Whether the edited text of the file loads.
    fn loads(&self, edited: &str) -> Result<(), Error> {
        let clerk_file = match self.clerk_file.as_os_str().is_empty() {
            true => &self.file,
            false => &self.clerk_file,
        };
        super::load_all_over(clerk_file, Some((&self.file, edited)))
            .map(drop)
            .map_err(|error| {
                Error::config(format!("the file would not load with the edit: {error}"))
            })
    }

    /// Whether the edit can be written: its file is there and the clerk
    /// may write it and the folder it is in (where the new text goes
    /// first). Asked before the order is taken, so that its answer is true.
    fn writable(&self) -> Result<(), Error> {
        let file = self.file.display();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&self.file)
            .map_err(|e| Error::config(format!("{file}: {e}")))?;
        let real =
            std::fs::canonicalize(&self.file).map_err(|e| Error::config(format!("{file}: {e}")))?;
        let folder = folder_of(&real);
        tempfile::Builder::new()
            .prefix(".shtempel-check")
            .tempfile_in(folder)
            .map(drop)
            .map_err(|e| Error::config(format!("{}: {e}", folder.display())))
    }
}

fn folder_of(file: &Path) -> &Path {
    match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// The file's text with the edit made, or `None` where it has it already;
/// a file without the player's entry is an error.
pub fn edited(text: &str, player: &str, edit: &PlayerEdit) -> Result<Option<String>, Error> {
    let mut document: DocumentMut = text.parse().map_err(Error::config)?;
    let entry = document
        .get_mut("players")
        .and_then(Item::as_array_of_tables_mut)
        .and_then(|players| {
            players
                .iter_mut()
                .find(|entry| entry.get("id").and_then(Item::as_str) == Some(player))
        })
        .ok_or_else(|| Error::config(format!("no [[players]] entry with id = {player:?}")))?;
    let changed = match edit {
        PlayerEdit::Replace { name, email } => replace(entry, name, email),
        PlayerEdit::AddAddress { email } => add_address(entry, email),
    };
    Ok(changed.then(|| document.to_string()))
}

/// Whether the entry's `email` or `emails` has `address`, in any case.
fn has_address(entry: &Table, address: &str) -> bool {
    let same = |item: &str| item.eq_ignore_ascii_case(address);
    entry.get("email").and_then(Item::as_str).is_some_and(same)
        || entry
            .get("emails")
            .and_then(Item::as_array)
            .is_some_and(|all| all.iter().filter_map(|v| v.as_str()).any(same))
}

fn replace(entry: &mut Table, name: &str, email: &str) -> bool {
    let same_name = entry.get("name").and_then(Item::as_str) == Some(name);
    let only_address = entry.get("emails").is_none()
        && entry
            .get("email")
            .and_then(Item::as_str)
            .is_some_and(|e| e.eq_ignore_ascii_case(email));
    if same_name && only_address {
        return false;
    }
    set(entry, "name", name.into());
    entry.remove("emails");
    set(entry, "email", email.into());
    true
}

/// Sets `key`, the comment after its old value (`name = "…"   # …`) kept.
fn set(entry: &mut Table, key: &str, new: toml_edit::Value) {
    let mut new = new;
    if let Some(old) = entry.get(key).and_then(Item::as_value) {
        *new.decor_mut() = old.decor().clone();
    }
    entry[key] = Item::Value(new);
}

fn add_address(entry: &mut Table, email: &str) -> bool {
    if has_address(entry, email) {
        return false;
    }
    // `email = "a"` becomes `emails = ["a", "b"]`: the first is still the
    // one written to.
    let mut all = match entry.get("emails").and_then(Item::as_array) {
        Some(all) => all.clone(),
        None => {
            let mut all = Array::new();
            if let Some(first) = entry.get("email").and_then(Item::as_str) {
                all.push(first);
            }
            all
        }
    };
    all.push(email);
    entry.remove("email");
    set(entry, "emails", all.into());
    true
}

/// Writes `text` beside `file` and renames it over it, keeping the file's
/// permissions; synced, so that the edit outlives a crash after it.
fn replace_file(file: &Path, text: &str) -> std::io::Result<()> {
    // A link (a director's file kept elsewhere, linked into the folder)
    // stays a link: the file it points to is the one written.
    let file = &std::fs::canonicalize(file)?;
    let permissions = std::fs::metadata(file)?.permissions();
    let folder = folder_of(file);
    let mut written = tempfile::Builder::new()
        .prefix(".shtempel-edit")
        .tempfile_in(folder)?;
    written.write_all(text.as_bytes())?;
    written.as_file().set_permissions(permissions)?;
    written.as_file().sync_all()?;
    written.persist(file).map_err(|e| e.error)?;
    std::fs::File::open(folder)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"# Our autumn round robin.
[tournament]
id = "CC-2026"

[[players]]
id = "ivanov"
name = "Ivanov I."   # the organiser's friend
email = "ivanov@example.org"

[[players]]
id = "petrov"
name = "Petrov P."
emails = ["petrov@example.org", "p.petrov@work.example"]
"#;

    fn replaced(player: &str, name: &str, email: &str) -> Option<String> {
        let edit = PlayerEdit::Replace {
            name: name.into(),
            email: email.into(),
        };
        edited(FILE, player, &edit).unwrap()
    }

    fn added(player: &str, email: &str) -> Option<String> {
        let edit = PlayerEdit::AddAddress {
            email: email.into(),
        };
        edited(FILE, player, &edit).unwrap()
    }

    #[test]
    fn a_replacement_changes_the_name_and_the_addresses_of_one_entry_and_nothing_else() {
        let text = replaced("petrov", "Sidorov S.", "sidorov@example.org").unwrap();
        let expected = FILE.replace(
            "name = \"Petrov P.\"\nemails = [\"petrov@example.org\", \"p.petrov@work.example\"]",
            "name = \"Sidorov S.\"\nemail = \"sidorov@example.org\"",
        );
        assert_eq!(text, expected);
        // The comments of the director stay.
        let text = replaced("ivanov", "Sidorov S.", "sidorov@example.org").unwrap();
        assert!(text.starts_with("# Our autumn round robin.\n"), "{text}");
        assert!(
            text.contains("name = \"Sidorov S.\"   # the organiser's friend\n"),
            "{text}"
        );
        assert!(text.contains("email = \"sidorov@example.org\"\n"), "{text}");
        assert!(text.contains("name = \"Petrov P.\""), "{text}");
    }

    #[test]
    fn an_address_added_turns_email_into_emails_with_the_first_still_first() {
        let text = added("ivanov", "i.ivanov@office.example").unwrap();
        assert!(
            text.contains("emails = [\"ivanov@example.org\", \"i.ivanov@office.example\"]"),
            "{text}"
        );
        assert!(!text.contains("email = "), "{text}");
        let text = added("petrov", "petrov@mail.example").unwrap();
        assert!(
            text.contains(
                "emails = [\"petrov@example.org\", \"p.petrov@work.example\", \"petrov@mail.example\"]"
            ),
            "{text}"
        );
    }

    #[test]
    fn an_edit_made_already_changes_nothing_and_a_missing_entry_is_said() {
        assert_eq!(added("ivanov", "IVANOV@example.org"), None);
        assert_eq!(added("petrov", "p.petrov@work.example"), None);
        assert_eq!(replaced("ivanov", "Ivanov I.", "ivanov@example.org"), None);
        // The same name and address, but his second address must go.
        assert!(replaced("petrov", "Petrov P.", "petrov@example.org").is_some());
        let edit = PlayerEdit::AddAddress {
            email: "x@example.org".into(),
        };
        let error = edited(FILE, "sidorov", &edit).unwrap_err();
        assert_eq!(
            error.to_string(),
            "no [[players]] entry with id = \"sidorov\""
        );
    }

    #[test]
    fn an_edit_is_written_whole_with_the_file_kept_as_it_was_allowed() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cc-2026.toml");
        std::fs::write(&file, loadable(FILE)).unwrap();
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
        let edit = ConfigEdit {
            file: file.clone(),
            player: "ivanov".into(),
            edit: PlayerEdit::AddAddress {
                email: "i@office.example".into(),
            },
            clerk_file: file.clone(),
        };
        edit.check().unwrap();
        assert_eq!(edit.apply(), Ok(true));
        assert_eq!(edit.apply(), Ok(false), "the same edit twice");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("\"i@office.example\"]"), "{text}");
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file left");
        let missing = ConfigEdit {
            file: dir.path().join("gone.toml"),
            ..edit
        };
        assert!(
            missing
                .check()
                .unwrap_err()
                .to_string()
                .contains("gone.toml")
        );
    }

    #[test]
    fn an_edit_of_a_linked_file_writes_the_file_and_keeps_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("kept");
        std::fs::create_dir(&kept).unwrap();
        let real = kept.join("cc-2026.toml");
        std::fs::write(&real, loadable(FILE)).unwrap();
        let link = dir.path().join("cc-2026.toml");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let edit = ConfigEdit {
            file: link.clone(),
            player: "ivanov".into(),
            edit: PlayerEdit::AddAddress {
                email: "i@office.example".into(),
            },
            clerk_file: link.clone(),
        };
        edit.check().unwrap();
        assert_eq!(edit.apply(), Ok(true));
        let meta = std::fs::symlink_metadata(&link).unwrap();
        assert!(meta.file_type().is_symlink(), "the link is a link still");
        let text = std::fs::read_to_string(&real).unwrap();
        assert!(text.contains("\"i@office.example\"]"), "{text}");
        assert_eq!(std::fs::read_dir(&kept).unwrap().count(), 1);
    }

    /// `text` with the tables a tournament's file needs to load.
    fn loadable(text: &str) -> String {
        text.replace(
            "id = \"CC-2026\"\n",
            "id = \"CC-2026\"\nname = \"Autumn\"\nstart_date = 2026-11-01\nend_date = 2027-11-01\n\
             timezone = \"Europe/Moscow\"\n\n[bot]\naddress = \"clerk@example.org\"\n\
             [arbiters]\nchief_arbiter = \"arbiter@example.org\"\nchief_secretary = \"secretary@example.org\"\n\
             [source]\nkind = \"maildir\"\npath = \"inbox\"\n[transport]\nkind = \"file\"\npath = \"outbox\"\n",
        )
    }

    #[test]
    fn an_edit_the_config_would_refuse_is_refused_and_the_file_kept() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("cc-2026.toml");
        let text = loadable(FILE);
        std::fs::write(&file, &text).unwrap();
        crate::config::load_all(&file).unwrap();
        // Addresses the mail library or the config refuses.
        for email in [
            "\"ivanov office\"@work.example",
            "x@[127.0.0.1]",
            "a@b.org.",
            "иван@пример.рф",
            "arbiter@example.org",
        ] {
            let edit = ConfigEdit {
                file: file.clone(),
                player: "ivanov".into(),
                edit: PlayerEdit::AddAddress {
                    email: email.into(),
                },
                clerk_file: file.clone(),
            };
            let error = edit.check().unwrap_err();
            assert!(
                error.to_string().contains("would not load"),
                "{email}: {error}"
            );
            let error = edit.apply().unwrap_err();
            assert!(
                error.to_string().contains("would not load"),
                "{email}: {error}"
            );
            assert_eq!(std::fs::read_to_string(&file).unwrap(), text, "{email}");
        }
        crate::config::load_all(&file).unwrap();
    }
}

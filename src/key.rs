//! The keys of a federation's record: a game's, `ID/<game>` in a
//! folder's database and `<game>` for a tournament of its own file, and a
//! person's, `ID/<player>` and `<player>` the same way. This module is the
//! only Rust code that writes that form or takes it apart (the store's SQL
//! selects one tournament's keys by their `ID/` prefix, and moves a file's
//! games into a folder by writing it: `store/games.rs`); a tournament id
//! never holds the separator (`config` refuses ids that do), so the first
//! `/` ends it. And a tournament id as the ASCII a Message-ID carries
//! ([`ascii_id`]), one event's alone; and the tag of a subject line
//! ([`SubjectTag`]), written and read here alone.

use std::fmt;

/// What stands between a tournament's id and its game's (or player's) in a key.
pub const SEPARATOR: char = '/';

/// A game (or a player) of one tournament, as the database keys it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameKey {
    /// The tournament of a folder; `None` for one of its own file.
    tournament: Option<String>,
    game: String,
}

impl GameKey {
    pub fn new(tournament: Option<&str>, game: &str) -> GameKey {
        GameKey {
            tournament: tournament.map(str::to_string),
            game: game.to_string(),
        }
    }

    /// A key as the database holds it.
    pub fn parse(key: &str) -> GameKey {
        match key.split_once(SEPARATOR) {
            Some((tournament, game)) => GameKey::new(Some(tournament), game),
            None => GameKey::new(None, key),
        }
    }

    pub fn tournament(&self) -> Option<&str> {
        self.tournament.as_deref()
    }

    /// The game's id in its tournament (or the player's).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The game's id where the key is of `tournament` (`None`: of its own
    /// file), else `None`.
    pub fn game_in(&self, tournament: Option<&str>) -> Option<&str> {
        (self.tournament() == tournament).then_some(self.game())
    }
}

impl serde::Serialize for GameKey {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for GameKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.tournament {
            Some(tournament) => write!(f, "{tournament}{SEPARATOR}{}", self.game),
            None => f.write_str(&self.game),
        }
    }
}

/// The tag the clerk's subjects begin with, and a player's replies keep:
/// `[ID #N]` for game N of tournament ID, `[ID]` for the event's own
/// messages (a start sheet, a leave's receipt). The only code that writes
/// a tag or reads one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubjectTag {
    pub tournament: String,
    pub game: Option<String>,
}

impl SubjectTag {
    pub fn game(tournament: &str, game: &str) -> SubjectTag {
        SubjectTag {
            tournament: tournament.to_string(),
            game: Some(game.to_string()),
        }
    }

    pub fn event(tournament: &str) -> SubjectTag {
        SubjectTag {
            tournament: tournament.to_string(),
            game: None,
        }
    }

    /// Every tag `subject` holds, in order: each `[` with no `[` before its
    /// `]`, its text the tournament's id, then ` #` and the game's where it
    /// has one (`Re: [CUP #1] [CC-2026 #3]` holds two; `[[CC #1]` one).
    pub fn all_in(subject: &str) -> impl Iterator<Item = SubjectTag> + '_ {
        subject.match_indices('[').filter_map(|(at, _)| {
            let inside = subject[at + 1..].split_once(']')?.0;
            if inside.contains('[') {
                return None;
            }
            let (tournament, game) = match inside.rsplit_once(" #") {
                Some((tournament, game)) => (tournament, Some(game.trim())),
                None => (inside, None),
            };
            (!tournament.is_empty() && game.is_none_or(|g| !g.is_empty())).then(|| SubjectTag {
                tournament: tournament.to_string(),
                game: game.map(str::to_string),
            })
        })
    }

    /// The first tag of tournament `id` in `subject`, either form.
    pub fn of_event_in(subject: &str, id: &str) -> Option<SubjectTag> {
        SubjectTag::all_in(subject).find(|tag| same_id(&tag.tournament, id))
    }
}

impl fmt::Display for SubjectTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.game {
            Some(game) => write!(f, "[{} #{game}]", self.tournament),
            None => write!(f, "[{}]", self.tournament),
        }
    }
}

/// Whether `written`, an event's id as a person typed it (in a subject tag,
/// an order, `--tournament`), is the id `id`: in any case, Cyrillic as well
/// as Latin (`кр-2026` is `КР-2026`). The config refuses two ids that
/// differ in case alone ([`ascii_id`] is one for both).
pub fn same_id(written: &str, id: &str) -> bool {
    written == id || written.to_lowercase() == id.to_lowercase()
}

/// A tournament id as the ASCII a Message-ID may hold (RFC 5322 `atext`):
/// lower case, Russian letters transliterated (`КР-2026` is `kr-2026`),
/// any other character as the hex of its UTF-8 bytes.
pub fn ascii_id(id: &str) -> String {
    const RUSSIAN: &str = "абвгдеёжзийклмнопрстуфхцчшщъыьэюя";
    const LATIN: [&str; 33] = [
        "a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r",
        "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya",
    ];
    let mut out = String::with_capacity(id.len());
    for c in id.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_alphanumeric() || "!#$%&'*+-/=?^_`{|}~".contains(c) {
            out.push(c);
        } else if let Some(at) = RUSSIAN.chars().position(|r| r == c) {
            out.push_str(LATIN[at]);
        } else {
            let mut bytes = [0; 4];
            for byte in c.encode_utf8(&mut bytes).bytes() {
                out.push_str(&format!("{byte:02x}"));
            }
        }
    }
    if out.is_empty() { "t".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_written_and_read_back_the_same() {
        let table = [
            (Some("CC-2026"), "3", "CC-2026/3"),
            (None, "3", "3"),
            (Some("КР-2026"), "A1", "КР-2026/A1"),
        ];
        for (tournament, game, written) in table {
            let key = GameKey::new(tournament, game);
            assert_eq!(key.to_string(), written);
            assert_eq!(GameKey::parse(written), key, "{written}");
            assert_eq!(key.game_in(tournament), Some(game));
            assert_eq!(key.game_in(Some("other")), None);
        }
    }

    #[test]
    fn a_subject_tag_is_written_and_read_back_and_found_among_others() {
        type Tags = &'static [(&'static str, Option<&'static str>)];
        let table: [(&str, Tags); 9] = [
            ("[CC-2026 #3] 1. e4", &[("CC-2026", Some("3"))]),
            (
                "Re: [CUP #1] [CC-2026 #3]",
                &[("CUP", Some("1")), ("CC-2026", Some("3"))],
            ),
            ("[CC-2026] #3", &[("CC-2026", None)]),
            ("Re: [Кубок 2026 #A1] ход", &[("Кубок 2026", Some("A1"))]),
            ("[[CC #1]", &[("CC", Some("1"))]),
            ("CC-2026 #3", &[]),
            ("[", &[]),
            ("[] [ #2] [X #]", &[]),
            ("[CC #3 ]", &[("CC", Some("3"))]),
        ];
        for (subject, tags) in table {
            let found: Vec<SubjectTag> = SubjectTag::all_in(subject).collect();
            let expected: Vec<SubjectTag> = tags
                .iter()
                .map(|(t, g)| SubjectTag {
                    tournament: t.to_string(),
                    game: g.map(str::to_string),
                })
                .collect();
            assert_eq!(found, expected, "{subject:?}");
            for tag in found {
                let written = tag.to_string();
                assert_eq!(SubjectTag::all_in(&written).collect::<Vec<_>>(), [tag]);
            }
        }
        assert_eq!(SubjectTag::game("КР", "2").to_string(), "[КР #2]");
        assert_eq!(SubjectTag::event("КР").to_string(), "[КР]");
        assert!(SubjectTag::of_event_in("Re: [CC-20266] start", "CC-2026").is_none());
    }

    #[test]
    fn message_ids_are_ascii_whatever_the_tournaments_id() {
        assert_eq!(ascii_id("CC-2026"), "cc-2026");
        assert_eq!(ascii_id("КР-2026"), "kr-2026");
        assert_eq!(ascii_id("Щука.Ёж"), "shchuka2eezh");
        assert_eq!(ascii_id("Δ1"), "ceb41");
        for id in ["КР-2026", "Δ1", "a.b", "Щ"] {
            let made = ascii_id(id);
            assert!(
                made.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&b)),
                "{id}: {made}"
            );
        }
    }
}

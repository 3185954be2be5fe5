//! The people of a folder of tournaments. A tournament's file lists its
//! players; the same person may play in several of the folder's events,
//! with an entry in each. His entries are one [`Person`] when they share an
//! address: the address is what the clerk knows a person by (his letters
//! come from it), while an id is the event's name for a seat, which a
//! replacement gives to someone else (the newcomer keeps the leaver's id in
//! that event, with his own address).
//!
//! What is the person's (his addresses, his leave, his page in the report)
//! is read through his `Person`; what is the event's (a seat in a game, its
//! allowance of leave) stays with the entry.

use std::collections::HashMap;

use super::Config;

/// One entry of a person's: the tournament's place in the folder, and his
/// id there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub tournament: usize,
    pub player: String,
}

/// A person of the folder: his entries in the events he plays in, in the
/// order of the files, and every address any of them has, the first
/// entry's own first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    /// His name for his page: the key the site writes it under, unique in
    /// the folder (his first entry's id; where another person with more
    /// entries has that id too, it is followed by `-` and his first event's
    /// id).
    pub key: String,
    pub name: String,
    pub addresses: Vec<String>,
    pub entries: Vec<Entry>,
}

impl Person {
    /// His entries in events other than `tournament`.
    pub fn elsewhere(&self, tournament: usize) -> impl Iterator<Item = &Entry> {
        self.entries
            .iter()
            .filter(move |e| e.tournament != tournament)
    }

    /// Each game of his in `tournaments` (the folder's, in its order), with
    /// the event and his entry there.
    pub fn games<'c>(
        &self,
        tournaments: &'c [Config],
    ) -> Vec<(&'c Config, &'c super::Player, &'c super::GameConfig)> {
        let mut games = Vec::new();
        for entry in &self.entries {
            let Some(config) = tournaments.get(entry.tournament) else {
                continue;
            };
            let Some(player) = config.player(&entry.player) else {
                continue;
            };
            for game in config.draw().games_of(&player.id) {
                games.push((config, player, game));
            }
        }
        games
    }
}

/// Every person of a folder's events.
#[derive(Debug, Clone, Default)]
pub struct People {
    persons: Vec<Person>,
    /// Where each entry's person is in `persons`.
    of_entry: HashMap<(usize, String), usize>,
}

impl People {
    /// The people of `tournaments`: entries that share an address are one
    /// person, however many events the sharing runs through (A and B share
    /// one address, B and C another: one person in three events).
    pub fn of(tournaments: &[Config]) -> People {
        let entries: Vec<(usize, &super::Player)> = tournaments
            .iter()
            .enumerate()
            .flat_map(|(at, t)| t.players.iter().map(move |p| (at, p)))
            .collect();
        // Union-find over the entries, joined by each address's first entry.
        let mut parent: Vec<usize> = (0..entries.len()).collect();
        fn root(parent: &mut [usize], mut at: usize) -> usize {
            while parent[at] != at {
                parent[at] = parent[parent[at]];
                at = parent[at];
            }
            at
        }
        let mut first_with: HashMap<&str, usize> = HashMap::new();
        for (index, (_, player)) in entries.iter().enumerate() {
            for address in player.addresses() {
                let other = *first_with.entry(address.as_str()).or_insert(index);
                let (a, b) = (root(&mut parent, index), root(&mut parent, other));
                if a != b {
                    parent[a.max(b)] = a.min(b);
                }
            }
        }
        let mut people = People::default();
        let mut of_root: HashMap<usize, usize> = HashMap::new();
        for (index, (at, player)) in entries.iter().enumerate() {
            let root = root(&mut parent, index);
            let place = *of_root.entry(root).or_insert_with(|| {
                people.persons.push(Person {
                    key: format!("{}-{}", player.id, tournaments[*at].tournament_id),
                    name: player.name.clone(),
                    addresses: Vec::new(),
                    entries: Vec::new(),
                });
                people.persons.len() - 1
            });
            let person = &mut people.persons[place];
            for address in player.addresses() {
                if !person.addresses.contains(address) {
                    person.addresses.push(address.clone());
                }
            }
            person.entries.push(Entry {
                tournament: *at,
                player: player.id.clone(),
            });
            people.of_entry.insert((*at, player.id.clone()), place);
        }
        // A person's key is his first entry's id; where two share it, the
        // one with more entries (the leaver in his other events, not the
        // newcomer of one) keeps it, and the other's is made his own.
        let mut order: Vec<usize> = (0..people.persons.len()).collect();
        order.sort_by_key(|&place| std::cmp::Reverse(people.persons[place].entries.len()));
        let mut taken = std::collections::HashSet::new();
        for place in order {
            let person = &mut people.persons[place];
            let id = person.entries[0].player.clone();
            if taken.insert(id.clone()) {
                person.key = id;
            }
        }
        people
    }

    /// The person whose entry in the tournament at `tournament` is
    /// `player`.
    pub fn of_entry(&self, tournament: usize, player: &str) -> Option<&Person> {
        self.persons.get(self.place_of_entry(tournament, player)?)
    }

    /// That person's place in [`People::iter`]'s order.
    pub fn place_of_entry(&self, tournament: usize, player: &str) -> Option<usize> {
        self.of_entry
            .get(&(tournament, player.to_string()))
            .copied()
    }

    pub fn iter(&self) -> impl Iterator<Item = &Person> {
        self.persons.iter()
    }
}

/// Each person's addresses given to every entry of his, so that an address
/// added in one event (by `accept --add-address` or the arbiter's `ACCEPT
/// … AS … ADDRESS`) is his in the others too: there his letters would
/// otherwise be a stranger's, ignored while his clock runs. An address
/// another player of that event has is left to him: an event never gives
/// one address to two.
pub fn share_addresses(tournaments: &mut [Config]) {
    let people = People::of(tournaments);
    for person in people.iter().filter(|p| p.entries.len() > 1) {
        for entry in &person.entries {
            let config = &tournaments[entry.tournament];
            let missing: Vec<String> = person
                .addresses
                .iter()
                .filter(|address| config.player_by_email(address).is_none())
                .cloned()
                .collect();
            if missing.is_empty() {
                continue;
            }
            let config = &mut tournaments[entry.tournament];
            if let Some(player) = config.players.iter_mut().find(|p| p.id == entry.player) {
                player.other_emails.extend(missing);
            }
            config.forget_index();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Player;

    fn player(id: &str, emails: &[&str]) -> Player {
        Player {
            id: id.into(),
            name: id.to_uppercase(),
            email: emails[0].into(),
            other_emails: emails[1..].iter().map(|e| e.to_string()).collect(),
            start_sheet_received: None,
            secret: None,
            start_rating: None,
        }
    }

    /// The example's tournament under `id`, with these players.
    fn event(id: &str, players: Vec<Player>) -> Config {
        let example = include_str!("../../config.example.toml");
        let mut config =
            Config::parse(std::path::Path::new("/srv/t.toml"), example).expect("parses");
        config.tournament_id = id.into();
        config.players = players;
        config.forget_index();
        config
    }

    #[test]
    fn entries_sharing_an_address_are_one_person_and_an_id_alone_joins_nobody() {
        let events = [
            event("A", vec![player("ivanov", &["new@x.example"])]),
            event("B", vec![player("ivanov", &["old@x.example"])]),
            event(
                "C",
                vec![player("ivan", &["old@x.example", "third@x.example"])],
            ),
            event("D", vec![player("petrov", &["third@x.example"])]),
        ];
        let people = People::of(&events);
        let keys: Vec<(&str, usize)> = people
            .iter()
            .map(|p| (p.key.as_str(), p.entries.len()))
            .collect();
        // A's ivanov (a newcomer by replacement) is not B's ivanov; B, C
        // and D are one person through two addresses.
        assert_eq!(keys, [("ivanov-A", 1), ("ivanov", 3)]);
        let old = people.of_entry(3, "petrov").expect("petrov");
        assert_eq!(old.addresses, ["old@x.example", "third@x.example"]);
        let places: Vec<usize> = old.elsewhere(1).map(|e| e.tournament).collect();
        assert_eq!(places, [2, 3]);
        assert_eq!(people.of_entry(0, "ivanov").unwrap().key, "ivanov-A");
    }

    #[test]
    fn an_address_of_one_entry_is_given_to_his_others_and_never_to_another_player() {
        let mut events = [
            event(
                "A",
                vec![player("ivanov", &["ivanov@x.example", "added@x.example"])],
            ),
            event(
                "B",
                vec![
                    player("ivanov", &["ivanov@x.example"]),
                    player("petrov", &["petrov@x.example"]),
                ],
            ),
        ];
        share_addresses(&mut events);
        let there = events[1]
            .player_by_email("added@x.example")
            .expect("known in B");
        assert_eq!(there.id, "ivanov");
        assert_eq!(
            events[1].player_by_email("petrov@x.example").unwrap().id,
            "petrov"
        );
        assert_eq!(events[0].players[0].other_emails, ["added@x.example"]);
    }
}

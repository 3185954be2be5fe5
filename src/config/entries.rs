//! The tournament's entries checked: `[[players]]` and `[[games]]`.

use std::collections::{BTreeMap, BTreeSet};

use super::parse::{Addresses, Checker, Tournament, is_tag, name_problem};
use super::raw::{RawGame, RawPlayer};
use super::{ConfigError, GameConfig, Player};
use crate::rules::Pairing;

impl Checker<'_> {
    pub(super) fn players(
        &self,
        raw: &[RawPlayer],
        reserved: &Addresses,
    ) -> Result<Vec<Player>, ConfigError> {
        let mut players = Vec::new();
        let mut ids = BTreeSet::new();
        let mut emails = BTreeMap::new();
        for (index, p) in raw.iter().enumerate() {
            let key = format!("players[{index}]");
            if !ids.insert(p.id.clone()) {
                return Err(self.err(
                    &format!("{key}.id"),
                    format!("player {:?} is listed twice", p.id),
                    "give each player one [[players]] entry",
                ));
            }
            // `email = "…"`, or `emails = ["…", "…"]` (both: `email` first).
            let given: Vec<(String, &String)> = p
                .email
                .iter()
                .map(|e| (format!("{key}.email"), e))
                .chain(
                    p.emails
                        .iter()
                        .flatten()
                        .enumerate()
                        .map(|(n, e)| (format!("{key}.emails[{n}]"), e)),
                )
                .collect();
            if given.is_empty() {
                return Err(self.err(
                    &format!("{key}.email"),
                    "is missing".into(),
                    "write the player's address: email = \"…\", or emails = [\"…\", \"…\"] for several",
                ));
            }
            let mut addresses: Vec<String> = Vec::with_capacity(given.len());
            for (address_key, raw_address) in given {
                let email =
                    self.address(&address_key, raw_address, "write the player's address")?;
                if addresses.contains(&email) {
                    continue;
                }
                if let Some(other) = emails.insert(email.clone(), p.id.clone()) {
                    return Err(self.err(
                        &address_key,
                        format!("{email} is also the address of player {other:?}"),
                        "each player needs his own address: the clerk knows players by it",
                    ));
                }
                if [
                    &reserved.clerk,
                    &reserved.chief_arbiter,
                    &reserved.chief_secretary,
                ]
                .contains(&&email)
                {
                    return Err(self.err(
                        &address_key,
                        format!("{email} is the clerk's or an arbiter's address"),
                        "give the player his own address",
                    ));
                }
                addresses.push(email);
            }
            let email = addresses.remove(0);
            if let Some(problem) = name_problem(&p.name) {
                return Err(self.err(
                    &format!("{key}.name"),
                    problem.into(),
                    "write the player's name in plain letters, as his partners should read it",
                ));
            }
            let start_sheet_received = match &p.start_sheet_received {
                Some(value) => Some(self.date(&format!("{key}.start_sheet_received"), value)?),
                None => None,
            };
            let start_rating = self.start_rating(&key, p.rating, p.rating_source.as_deref())?;
            players.push(Player {
                id: p.id.clone(),
                name: p.name.clone(),
                email,
                other_emails: addresses,
                start_sheet_received,
                secret: p.secret.clone().filter(|s| !s.trim().is_empty()),
                start_rating,
            });
        }
        Ok(players)
    }
    pub(super) fn games(
        &self,
        raw: &[RawGame],
        players: &[Player],
        tournament: &Tournament,
    ) -> Result<Vec<GameConfig>, ConfigError> {
        let ids: BTreeSet<&str> = players.iter().map(|p| p.id.as_str()).collect();
        let mut games = Vec::new();
        let mut game_ids = BTreeSet::new();
        for (index, g) in raw.iter().enumerate() {
            let key = format!("games[{index}]");
            if !is_tag(&g.id) {
                return Err(self.err(
                    &format!("{key}.id"),
                    format!("{:?} cannot name a game in a subject", g.id),
                    "use letters, digits and dashes",
                ));
            }
            if !game_ids.insert(g.id.clone()) {
                return Err(self.err(
                    &format!("{key}.id"),
                    format!("game {:?} is listed twice", g.id),
                    "give each game its own id",
                ));
            }
            for (side, id) in [("white", &g.white), ("black", &g.black)] {
                if !ids.contains(id.as_str()) {
                    return Err(self.err(
                        &format!("{key}.{side}"),
                        format!("unknown player {id:?}"),
                        &format!("add a [[players]] entry with id = {id:?}, or correct the id"),
                    ));
                }
            }
            if g.white == g.black {
                return Err(self.err(
                    &format!("{key}.black"),
                    format!("{:?} cannot play himself", g.white),
                    "name two different players",
                ));
            }
            let start_date = match &g.start_date {
                Some(value) => Some(self.date(&format!("{key}.start_date"), value)?),
                None => None,
            };
            if let Some(day) = start_date
                && !(tournament.start_date..tournament.end_date).contains(&day)
            {
                return Err(self.err(
                    &format!("{key}.start_date"),
                    format!(
                        "{day} is not within the tournament ({} to {})",
                        tournament.start_date, tournament.end_date
                    ),
                    "give the day the game starts, after the tournament's start and before its end",
                ));
            }
            games.push(GameConfig {
                id: g.id.clone(),
                white: g.white.clone(),
                black: g.black.clone(),
                start_date,
                round: None,
            });
        }
        Ok(games)
    }

    /// The games of a round robin, made from the players in the order of
    /// the file (`rules::pairing`): game 1 is round 1's first board.
    pub(super) fn paired(
        &self,
        pairing: Pairing,
        raw: &[RawGame],
        players: &[Player],
    ) -> Result<super::Draw, ConfigError> {
        if !raw.is_empty() {
            return Err(self.err(
                "games",
                format!(
                    "[tournament] pairing = {:?} makes the games from the players, and the file lists {} [[games]] too",
                    pairing.name(),
                    raw.len()
                ),
                "remove the [[games]] tables (the clerk makes them), or the pairing key to list them yourself",
            ));
        }
        if players.len() < 2 {
            return Err(self.err(
                "players",
                format!(
                    "a round robin needs two players or more, and the file lists {}",
                    players.len()
                ),
                "list the players as [[players]] tables, in the order of their numbers in the draw",
            ));
        }
        super::Draw::paired(&pairing, players).map_err(|fault| {
            self.err(
                "pairing",
                fault.to_string(),
                "this is a fault of the clerk's pairing: report it, with the file",
            )
        })
    }
}

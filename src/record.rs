//! One game as the clerk, the commands and the report see it: its
//! configuration and players, the board, the rules' ledger and the calendar
//! duties already done. Pure: loading it is the clerk's (`clerk::load`).

use std::collections::BTreeSet;

use shakmaty::Color;

use crate::chart::{self, Chart};
use crate::config::{Config, GameConfig, Player};
use crate::game::Game;
use crate::phrases::Phrases;
use crate::rules::interventions::AwardedBy;
use crate::rules::{DutyKey, EndReason, Ledger, Status};

/// A game with everything the rules and the board need.
#[derive(Clone, Debug)]
pub struct Record {
    pub config: GameConfig,
    /// The game's key in the record (`ID/<game>` in a folder).
    pub key: crate::key::GameKey,
    pub white: Player,
    pub black: Player,
    pub board: Game,
    pub ledger: Ledger,
    pub done: BTreeSet<DutyKey>,
    /// Moves already in the database.
    pub stored: usize,
    /// Who played a colour before a replacement, in order. A game over when its player was
    /// replaced stays his: `white` or
    /// `black` is then he, not the entry's newcomer.
    pub former: Vec<Seat>,
}

impl Record {
    pub fn id(&self) -> &str {
        &self.config.id
    }

    pub fn player(&self, color: Color) -> &Player {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    pub fn color_of(&self, email: &str) -> Option<Color> {
        if self.white.email == email {
            Some(Color::White)
        } else if self.black.email == email {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The result in PGN form, `*` while the game goes on.
    pub fn result(&self) -> &'static str {
        self.ledger.standing.result_pgn().unwrap_or("*")
    }

    pub fn chart(&self, config: &Config, notes: Vec<String>) -> Chart {
        let mut rows = chart::rows(&self.ledger, &config.rules);
        // The record keeps bare SAN; the chart writes check and mate signs
        // as the PGN does.
        for (row, san) in rows.iter_mut().zip(self.board.sans_with_signs()) {
            row.san = san;
        }
        Chart {
            game: self.id().to_string(),
            white: self.white.name.clone(),
            black: self.black.name.clone(),
            status: self.ledger.status(),
            result: self.ledger.standing.result_pgn().map(str::to_string),
            totals: self.ledger.totals(),
            rows,
            credit: self.ledger.standing.credit,
            notes,
        }
    }

    /// The Seven Tag Roster and the time control; a result the chief
    /// arbiter set says so in a `Termination` tag (the `Result` tag holds
    /// only what the standard allows: a forfeit is `1-0` or `0-1` there,
    /// `+/-` in the cross-table).
    pub fn pgn_tags(&self, config: &Config) -> Vec<(&'static str, String)> {
        let mut tags = vec![
            ("Event", config.tournament_name.clone()),
            ("Site", format!("{} (e-mail)", config.tournament_id)),
            ("Date", config.start_date.format("%Y.%m.%d").to_string()),
            ("Round", self.id().to_string()),
            ("White", self.white.name.clone()),
            ("Black", self.black.name.clone()),
            ("Result", self.result().to_string()),
            (
                "TimeControl",
                format!(
                    "{} days / {} moves",
                    config.rules.days_per_control, config.rules.moves_per_control
                ),
            ),
        ];
        tags.push(("Termination", self.termination().to_string()));
        // A game taken over: who played each colour before (a tag of the
        // PGN standard's kind, 8.1.1: a name for the players' programs).
        for (color, tag) in [(Color::White, "WhiteFormer"), (Color::Black, "BlackFormer")] {
            let former: Vec<&str> = self
                .taken_over(color)
                .map(|(seat, _)| seat.name.as_str())
                .collect();
            if !former.is_empty() {
                tags.push((tag, former.join("; ")));
            }
        }
        tags
    }

    /// How the game ended, in the words of the PGN standard's `Termination`
    /// tag (8.1.1: abandoned, adjudication, death, emergency, normal, rules
    /// infraction, time forfeit, unterminated): a confirmed overstep is a
    /// time forfeit, a forfeit the arbiter scored a rules infraction, his
    /// result on a game past the end date an adjudication; the board's
    /// ends, a resignation, an agreed draw and a result the arbiter
    /// entered for the players are normal (the last with a comment saying
    /// who entered it); an annulled game is abandoned; one under way or
    /// suspended unterminated.
    pub fn termination(&self) -> &'static str {
        if self.ledger.status() == Status::Annulled {
            return "abandoned";
        }
        match self.ledger.standing.outcome.map(|o| o.reason) {
            None => "unterminated",
            Some(EndReason::Overstep) => "time forfeit",
            Some(EndReason::Forfeit) => "rules infraction",
            Some(EndReason::Adjudication) => "adjudication",
            Some(
                EndReason::Ruling
                | EndReason::Checkmate
                | EndReason::Stalemate
                | EndReason::InsufficientMaterial
                | EndReason::Resignation
                | EndReason::Agreement,
            ) => "normal",
        }
    }

    /// Each player who played `color` of this game until he was replaced
    /// in it, with who took it over from him, in order.
    pub fn taken_over(&self, color: Color) -> impl Iterator<Item = (&Seat, &str)> {
        let seats: Vec<&Seat> = self
            .former
            .iter()
            .filter(|seat| seat.color == color && !seat.finished)
            .collect();
        let successors = seats
            .iter()
            .skip(1)
            .map(|seat| seat.name.as_str())
            .chain([self.player(color).name.as_str()])
            .collect::<Vec<_>>();
        seats.into_iter().zip(successors)
    }

    /// The game as PGN with `comments` (one per move, or none) and `result`.
    pub fn pgn_with(&self, config: &Config, comments: &[Option<String>], result: &str) -> String {
        self.board.pgn(&self.pgn_tags(config), comments, result)
    }

    /// The game as PGN: each move's dates, days and penalty in a comment, and
    /// the result. What `pgn`, the report and the arbiter's file carry.
    pub fn pgn(&self, config: &Config, phrases: &Phrases) -> String {
        let comments: Vec<Option<String>> = self
            .ledger
            .rows
            .iter()
            .map(|row| {
                let delivered = row.delivered_on.map_or("-".to_string(), |d| d.to_string());
                let penalty = if row.penalty > 0 {
                    format!(", {} {}", phrases.get("pgn.penalty"), row.penalty)
                } else {
                    String::new()
                };
                Some(format!(
                    "{} {}, {} {delivered}, {}{penalty}",
                    phrases.get("pgn.sent"),
                    row.sent_on,
                    phrases.get("pgn.received"),
                    phrases.days(i64::from(row.days)),
                ))
            })
            .collect();
        let mut comments = comments;
        // The days the chief arbiter excused, at the move they belong to
        //.
        for excused in &self.ledger.standing.excused {
            let at = excused.at(&self.ledger.rows);
            if let Some(Some(comment)) = at.and_then(|ply| comments.get_mut(ply)) {
                let days = phrases.days(i64::from(excused.days));
                let said = phrases.fill("pgn.excused", &[("days", &days)]);
                comment.push_str(&format!(", {said}"));
            }
        }
        // At the first move of whoever took the game over, or at the last
        // move when he has made none yet.
        for color in [Color::White, Color::Black] {
            for (seat, successor) in self.taken_over(color) {
                let rows = &self.ledger.rows;
                let first = (seat.until_ply..rows.len()).find(|&ply| rows[ply].by == color);
                let (at, phrase) = match first {
                    Some(ply) => (ply, "pgn.replaced"),
                    None => (rows.len().saturating_sub(1), "pgn.replaced_next"),
                };
                let said = phrases.fill(
                    phrase,
                    &[
                        ("player", &successor),
                        (
                            "colour",
                            &phrases.get(&format!("names.{}", crate::color_name(color))),
                        ),
                        ("was", &seat.name.as_str()),
                    ],
                );
                if let Some(comment) = comments.get_mut(at) {
                    *comment = Some(match comment.take() {
                        Some(text) => format!("{text}; {said}"),
                        None => said,
                    });
                }
            }
        }
        // Who entered a result the board did not make (the Termination tag
        // says only "normal"), or that the game was annulled: last, after a
        // replacement it followed (a finished game takes no newcomer).
        let entered = match self.ledger.standing.outcome.map(|o| o.reason) {
            _ if self.ledger.status() == Status::Annulled => Some("pgn.annulled"),
            Some(EndReason::Ruling) => match self.ledger.standing.awarded_by {
                Some(AwardedBy::Director) => Some("pgn.entered_by_director"),
                Some(AwardedBy::Arbiter) | None => Some("pgn.entered"),
            },
            _ => None,
        };
        if let (Some(phrase), Some(last)) = (entered, comments.last_mut()) {
            let said = phrases.get(phrase);
            *last = Some(match last.take() {
                Some(text) => format!("{text}; {said}"),
                None => said.to_string(),
            });
        }
        self.pgn_with(config, &comments, self.result())
    }
}

/// A player who played a colour of a game and was replaced: games are played by people, and a
/// replacement does not
/// rewrite who played what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub color: Color,
    /// The plies of his colour before this one were his.
    pub until_ply: usize,
    /// The game was over when he was replaced: it is his whole, and his
    /// successor never played it.
    pub finished: bool,
    /// The person's key in the record: the player id he had, and the day
    /// he left (`ivanov~2026-11-20`), no entry of the config's.
    pub player: String,
    pub name: String,
    pub email: String,
}

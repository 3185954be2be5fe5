//! A player replaced: the director gives his entry a new name
//! and address in the config, keeping his id, and runs `shtempel replace
//! PLAYER --was "…"`; or the chief arbiter writes `REPLACE PLAYER Name
//! <address>`, and the clerk edits the entry itself once his letter is
//! taken (`config::edit`). His games go on as they stand. The newcomer is
//! sent his games (colour, partner and address, the time used, who is to
//! move and by when); each partner and the chief secretary are told who
//! plays now; each game's chart has a note.
//!
//! `REPLACE ivanov Sidorov S. <sidorov@example.org> illness` (ЗАМЕНА), or
//! `shtempel replace ivanov --by …` / `--was …`: a player replaced.

use super::{Carried, Command, Execution, Ordered};
use crate::clerk::say::words::Sentence;
use crate::clerk::{EventKind, NotDone, Orders, Plan, Refused, Writes, recipient};
use crate::config::Player;
use crate::config::edit::{ConfigEdit, PlayerEdit};
use crate::error::Error;
use crate::letter::Newcomer;
use crate::message::MessageKind;
use crate::model;
use crate::record::{Record, Seat};
use crate::render::Model;
use crate::store::Store;

/// Who a replacement is of, or by.
#[derive(Clone, Debug)]
pub enum Whom {
    /// The entry has the newcomer already (`--was "Name <address>"`: the
    /// player he replaces).
    Was(String),
    /// The newcomer, whom the clerk writes into the entry (`--by`, the
    /// arbiter's `REPLACE`).
    By(Newcomer),
    /// An order that names no newcomer: refused, asking for him.
    Unnamed,
}

#[derive(Clone, Debug)]
pub struct Replace {
    pub player: String,
    pub whom: Whom,
    pub why: Option<String>,
    /// The newcomer's language, where the director gave it (`replace
    /// --language`): his letters from the first are in it, as if he had
    /// written `LANGUAGE` himself.
    pub language: Option<crate::Lang>,
}

impl Command for Replace {
    fn named(&self) -> String {
        format!("replace {}", self.player)
    }

    fn cause(&self, _: Option<usize>) -> String {
        match &self.whom {
            Whom::Was(was) => format!("replace:{}:{was}", self.player),
            Whom::By(newcomer) => format!(
                "replace:{}:by {} <{}>",
                self.player, newcomer.name, newcomer.email
            ),
            Whom::Unnamed => format!("replace:{}:by nobody", self.player),
        }
    }

    fn carry_out(&self, clerk: &Orders, store: &Store, _: Ordered) -> Carried {
        let why = self.why.as_deref();
        let planned = match &self.whom {
            Whom::Was(was) => clerk.replace(store, &self.player, was, why),
            Whom::By(newcomer) => clerk.replace_named(store, &self.player, Some(newcomer), why),
            Whom::Unnamed => clerk.replace_named(store, &self.player, None, why),
        };
        let with_language = planned.map(|mut plan| {
            let newcomer = match &self.whom {
                Whom::By(named) => crate::config::checked_address(&named.email),
                Whom::Was(_) => clerk.config.player(&self.player).map(|p| p.email.clone()),
                Whom::Unnamed => None,
            };
            if let (Some(language), Some(address)) = (self.language, newcomer) {
                let set = crate::config::Preferences {
                    language: Some(language),
                    ..Default::default()
                };
                plan.writes.preferences = Some((vec![address], set));
            }
            plan
        });
        Execution::of(with_language, "nobody replaced", |_| {
            format!("replacement of {}", self.player)
        })
    }
}

impl Orders<'_, '_> {
    /// The plan of `player`'s replacement (he is the newcomer, as the
    /// config now has him; `was` names whom he replaces), or the words for
    /// the director of why there is none.
    pub fn replace(
        &self,
        store: &Store,
        player: &str,
        was: &str,
        why: Option<&str>,
    ) -> Result<Plan, NotDone> {
        match self.config.player(player) {
            Some(newcomer) => self.replace_by(store, newcomer, was, why),
            None => Err(Refused::new(self.no_player(player)).into()),
        }
    }

    /// Whether `email` may be given to a player by the clerk's edit: not
    /// another player's, nor the clerk's or an arbiter's (the config would
    /// not load); the words of why not.
    pub(in crate::clerk) fn address_free(&self, email: &str, person: &str) -> Result<(), Refused> {
        let taken = |name: &str| crate::said!("reason.replace_address_taken", "address" => email, "player" => name);
        if let Some(other) = self.config.player_by_email(email) {
            return Err(Refused::new(taken(&other.name)));
        }
        // An address is one person's across the folder: another event's player's, unless he is
        // the same person (the
        // same id), or its officials', is taken.
        for config in std::iter::once(self.config).chain(self.directory.tournaments()) {
            if let Some(other) = config.player_by_email(email)
                && other.id != person
            {
                return Err(Refused::new(taken(&other.name)));
            }
            if [
                &config.address,
                &config.chief_arbiter,
                &config.chief_secretary,
            ]
            .iter()
            .any(|reserved| *reserved == email)
            {
                return Err(Refused::new(
                    crate::said!("reason.address_reserved", "address" => email),
                ));
            }
        }
        Ok(())
    }

    /// The words for whoever named a player the tournament lacks.
    pub(in crate::clerk) fn no_player(&self, player: &str) -> Sentence {
        let known: Vec<&str> = self.config.players.iter().map(|p| p.id.as_str()).collect();
        let player = crate::clerk::letters::arbiter::said_back(player);
        crate::said!("reason.no_player", "player" => player, "players" => known.join(", "))
    }

    /// The plan of the replacement by `newcomer` (with the id of the
    /// player he replaces) of `was`.
    fn replace_by(
        &self,
        store: &Store,
        newcomer: &Player,
        was: &str,
        why: Option<&str>,
    ) -> Result<Plan, NotDone> {
        let player = newcomer.id.as_str();
        let mut plan = Plan::default();
        let mut games = Vec::new();
        // Whom he replaces, as the record keeps him: his games stay his.
        let (was_name, was_email) = match Newcomer::parse(was) {
            Some(named) => (named.name, named.email),
            None => (was.to_string(), String::new()),
        };
        let seat = |color, state: &crate::record::Record| Seat {
            color,
            until_ply: state.ledger.rows.len(),
            finished: !state.ledger.in_play(),
            player: format!("{player}~{}", self.clock.today),
            name: was_name.clone(),
            email: was_email.clone(),
        };
        let mut finished = Vec::new();
        for game in self.config.draw().games_of(player) {
            let state = crate::clerk::load_replaying(self.config, store, game, &self.replays)?;
            let colour = match state.white.id == player {
                true => shakmaty::Color::White,
                false => shakmaty::Color::Black,
            };
            if !state.ledger.in_play() {
                // Over before he left, it stays his;
                // one over before an earlier replacement is already another's.
                if state.player(colour).id == player {
                    finished.push(Plan::writing(Writes {
                        seats: vec![seat(colour, &state)],
                        game: Some(state),
                        ..Writes::default()
                    }));
                }
                continue;
            }
            let taken_over = seat(colour, &state);
            let state = self.taken_over_by(store, state, newcomer, colour)?;
            let partner = state.player(colour.other());
            games.push(self.game_for_newcomer(&state, colour, partner));
            let more = self.replaced_in(state, colour, newcomer, was, why, taken_over)?;
            plan.more.push(more);
        }
        if games.is_empty() {
            let reason = crate::said!("reason.nothing_replaced", "player" => was);
            return Err(Refused::new(reason).into());
        }
        plan.more.extend(finished);
        let welcome = model! {
            "was" => was,
            "why" => why,
            "games" => games,
        };
        let letter = self
            .draft(MessageKind::Replacement)
            .to(recipient(newcomer))
            .cc(self.secretary())
            .notice(welcome);
        plan.messages.push(letter);
        plan.writes.leaves_left = Some((player.to_string(), self.clock.today));
        for more in &plan.more {
            plan.writes
                .events
                .extend(more.writes.events.iter().cloned());
        }
        Ok(plan)
    }

    /// A game as `newcomer` takes over the seat of `colour` in it: named
    /// in it (by the arbiter's letter the config still has the player he
    /// replaces, and the messages name the newcomer), and the leaves of the
    /// one he replaces ended (from today none stops the newcomer's clock).
    fn taken_over_by(
        &self,
        store: &Store,
        mut state: Record,
        newcomer: &Player,
        colour: shakmaty::Color,
    ) -> Result<Record, Error> {
        if self.config.rules.leave_days_per_year > 0 {
            let partner = state.player(colour.other()).id.clone();
            let mut leaves = store.leaves_in(self.config.scope(), &partner)?;
            let his = store.leaves_in(self.config.scope(), &newcomer.id)?;
            leaves.extend(crate::rules::leave::ended_before(&his, self.clock.today));
            state.ledger.calendar = state.ledger.calendar.clone().with_leaves(leaves);
        }
        match colour {
            shakmaty::Color::White => state.white = newcomer.clone(),
            shakmaty::Color::Black => state.black = newcomer.clone(),
        }
        Ok(state)
    }
}

impl Orders<'_, '_> {
    /// The replacement of `player` by the newcomer `named` (`shtempel
    /// replace PLAYER --by "Name <address>"`, or the chief arbiter's
    /// `REPLACE`): planned with the newcomer as named, and with the edit of
    /// the player's entry that makes the config say so, written once the
    /// plan is committed (`Plan::config_edits`); or the words of why not.
    pub fn replace_named(
        &self,
        store: &Store,
        player: &str,
        named: Option<&Newcomer>,
        why: Option<&str>,
    ) -> Result<Plan, NotDone> {
        let Some(entry) = self.config.player(player) else {
            return Err(Refused::new(self.no_player(player)).into());
        };
        let Some(named) = named.filter(|n| !n.name.is_empty()) else {
            return Err(
                Refused::new(crate::said!("reason.replace_no_name", "player" => player)).into(),
            );
        };
        if crate::config::name_problem(&named.name).is_some() {
            let reason =
                crate::said!("reason.replace_bad_name", "most" => crate::config::NAME_MOST);
            return Err(Refused::new(reason).into());
        }
        let Some(email) = crate::config::checked_address(&named.email) else {
            let address = crate::clerk::letters::arbiter::said_back(&named.email);
            let reason = crate::said!("reason.replace_bad_address", "address" => address);
            return Err(Refused::new(reason).into());
        };
        self.address_free(&email, player)?;
        let edit = ConfigEdit {
            file: self.config.file.clone(),
            player: player.to_string(),
            edit: PlayerEdit::Replace {
                name: named.name.clone(),
                email: email.clone(),
            },
            clerk_file: self.config.clerk_file.clone(),
        };
        if let Err(error) = edit.check() {
            let reason = crate::said!("reason.config_not_writable", "error" => error);
            return Err(Refused::new(reason).into());
        }
        let was = format!("{} <{}>", entry.name, entry.email);
        let newcomer = Player {
            name: named.name.clone(),
            email,
            other_emails: Vec::new(),
            // The leaver's rating is his, not the newcomer's.
            start_rating: None,
            ..entry.clone()
        };
        let mut plan = self.replace_by(store, &newcomer, &was, why)?;
        plan.writes.config_edits.push(edit);
        Ok(plan)
    }

    /// A game as the newcomer's own letter gives it:
    /// the moves and the position, the time used, whether he is to move and
    /// by when, and the lines of his next letter.
    fn game_for_newcomer(
        &self,
        state: &Record,
        colour: shakmaty::Color,
        partner: &Player,
    ) -> Model {
        let due = state.ledger.due(&self.config.rules, self.clock.today);
        // His own letter speaks to him: the game as it stands (the
        // moves, the position), whether he is to move and by when, and
        // the lines of his next letter.
        let rows = state.ledger.rows.len();
        let score = (rows > 0).then(|| {
            crate::clerk::say::words::moves(&crate::clerk::say::model::moves_of(state, 0, rows - 1))
        });
        let fen = shakmaty::fen::Fen::from_position(
            state.board.position(),
            shakmaty::EnPassantMode::Legal,
        )
        .to_string();
        let yours = due.as_ref().is_some_and(|due| due.player == colour);
        let next = yours.then(|| crate::clerk::say::model::next_lines(state, colour, None));
        model! {
            "id" => state.id(),
            "colour" => crate::clerk::say::words::colour(colour),
            "partner" => partner.name.as_str(),
            "address" => partner.email.as_str(),
            "score" => score,
            "fen" => fen,
            "board" => crate::clerk::say::board::Shown::of(state, colour),
            "totals" => state.ledger.totals().to_string(),
            "due" => due.map(|due| model! {
                "yours" => due.player == colour,
                "player" => state.player(due.player).name.as_str(),
                "last_day" => crate::clerk::say::words::date(due.last_day),
            }),
            "next" => next,
        }
    }

    /// The plan of a game taken over: the seat recorded, the note under its
    /// chart, and the partner (and the chief secretary) told who plays now
    /// and who is to move by when.
    fn replaced_in(
        &self,
        state: Record,
        colour: shakmaty::Color,
        newcomer: &Player,
        was: &str,
        why: Option<&str>,
        taken_over: Seat,
    ) -> Result<Plan, Error> {
        let because = crate::clerk::because(why);
        let due = state.ledger.due(&self.config.rules, self.clock.today);
        let due_model = due.map(|due| {
            model! {
                "player" => state.player(due.player).name.as_str(),
                "color" => crate::color_name(due.player),
                "last_day" => crate::clerk::say::words::date(due.last_day),
            }
        });
        let mut more = Plan::writing(Writes {
            seats: vec![taken_over],
            ..Writes::default()
        });
        more.writes.notes.push(self.note(
            crate::store::NoteKind::Replaced,
            |phrases: &crate::phrases::Phrases| {
                phrases.fill(
                    "note.replaced",
                    &[
                        ("was", &was),
                        ("player", &newcomer.name),
                        ("date", &phrases.date(self.clock.today)),
                        ("why", &because),
                    ],
                )
            },
        ));
        let notice = model! {
            "was" => was,
            "player" => newcomer.name.as_str(),
            "address" => newcomer.email.as_str(),
            "why" => why,
            "due" => due_model,
        };
        more.messages.push(
            self.draft(MessageKind::Replaced)
                .of(&state)
                .for_player(&state, colour.other())
                .cc(self.secretary())
                .notice(notice),
        );
        more.event(
            EventKind::Replaced,
            Some(&state.key),
            None,
            format!("{was} by {}", newcomer.name),
        );
        more.writes.game = Some(state);
        Ok(more)
    }
}

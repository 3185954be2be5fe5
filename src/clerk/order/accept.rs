//! A refused letter accepted after all (`shtempel accept KEY
//! --move "12. Nf3"`): the clerk read it wrong, or could not read its move;
//! the director gives the move, and the letter is taken as if it had said
//! so, with its own postmark, dates and fraction. A letter ignored as a
//! stranger's (a player writing from an address the config lacks) is
//! taken as a player's the same way (`--as PLAYER`), its moves as read or
//! as given. The rules decide as for
//! any letter: one they would refuse again (the game over, a move out of
//! turn) is not taken, and the director is told why. The refused letter
//! stays in the database as it was; the accepted one is kept beside it
//! under `accepted:KEY`, and a note under the game's chart says who
//! accepted it, when and why.
//!
//! `ACCEPT KEY 12. Nf3` (ПРИНЯТЬ, with `AS ivanov` / `КАК`, `ADDRESS` /
//! `АДРЕС`), or `shtempel accept KEY`: a refused letter taken after all
//! ([`Orders::accept`]), in a plan of its own inside the order's.

use super::{Carried, Command, Execution, Ordered};
use crate::clerk::say::model::moves_of;
use crate::clerk::say::words::{Sentence, text};
use crate::clerk::{EventKind, NotDone, Orders, Plan, Prepared, Refused, Writes};
use crate::config::Player;
use crate::config::edit::{ConfigEdit, PlayerEdit};
use crate::error::Error;
use crate::letter::Letter;
use crate::mail::Envelope;
use crate::message::MessageKind;
use crate::phrases::Phrases;
use crate::rules;
use crate::store::{Disposition, KeptLetter, Store};
use chrono::NaiveDate;

#[derive(Clone, Debug)]
pub struct Accept {
    pub key: String,
    /// The moves as the director reads them; `None`: as the clerk did.
    pub moves: Option<String>,
    /// The player (by id) whose letter it is, from an address of nobody's.
    pub sender: Option<String>,
    pub add_address: bool,
    /// The game, where the letter did not say it right.
    pub game: Option<String>,
    /// The tournament was named (`ACCEPT A KEY`, `--tournament A`): the
    /// letter is that event's, whatever else its writer plays.
    pub event_named: bool,
    pub why: Option<String>,
}

impl Command for Accept {
    fn named(&self) -> String {
        format!("accept {}", self.key)
    }

    fn cause(&self, _: Option<usize>) -> String {
        format!("accepted:{}", self.key)
    }

    fn carry_out(&self, clerk: &Orders, store: &Store, ordered: Ordered) -> Carried {
        let by = ordered.by;
        let key = self.key.as_str();
        let Some(kept) = store.letter_by_key(key)? else {
            let reason = crate::said!("reason.accept_no_key", "key" => key);
            return Ok(Execution::refused("no such letter", reason));
        };
        let moves = self.moves.as_deref().map(crate::letter::read);
        let acceptance = Acceptance {
            key,
            moves: moves.as_ref(),
            sender: self.sender.as_deref(),
            game: self.game.as_deref(),
            event_named: self.event_named,
            why: self.why.as_deref(),
            add_address: self.add_address,
            by,
        };
        let planned = clerk.accept(store, &kept, &acceptance).map(|mut accepted| {
            let mut plan = Plan::writing(Writes {
                events: accepted.writes.events.clone(),
                ..Writes::default()
            });
            plan.writes
                .config_edits
                .append(&mut accepted.writes.config_edits);
            plan.more.push(accepted);
            plan
        });
        Execution::of(planned, "not accepted", |_| format!("accept {key}"))
    }
}

/// The director's acceptance of a letter.
pub struct Acceptance<'a> {
    /// The refused letter's key (as `today` and the run's events give it).
    pub key: &'a str,
    /// The moves as the director reads them (`12. Nf3`, a variant too);
    /// `None`: as the clerk read them.
    pub moves: Option<&'a Letter>,
    /// The player whose letter it is (by id), where it came from an address
    /// of nobody's.
    pub sender: Option<&'a str>,
    /// The game, where the letter did not say it right.
    pub game: Option<&'a str>,
    /// The acceptance named this event: the letter is read as its.
    pub event_named: bool,
    pub why: Option<&'a str>,
    /// With `sender`: the address the letter came from is his from then on
    /// (added to his entry's `emails` once the acceptance is taken).
    pub add_address: bool,
    /// The director by command, or the chief arbiter by letter.
    pub by: crate::clerk::AwardedBy,
}

impl Orders<'_, '_> {
    /// The plan of `letter` read as `acceptance` says, or the words for the
    /// director of why it cannot be taken.
    pub fn accept(
        &self,
        store: &Store,
        letter: &KeptLetter,
        acceptance: &Acceptance<'_>,
    ) -> Result<Plan, NotDone> {
        let key = acceptance.key;
        let accepted_key = format!("accepted:{key}");
        if let Some(refused) = self.taken_already(store, letter, acceptance, &accepted_key)? {
            return Err(refused.into());
        }
        let player = match acceptance.sender {
            Some(id) => Some(
                self.config
                    .player(id)
                    .ok_or_else(|| Refused::new(self.no_player(id)))?,
            ),
            None => None,
        };
        let envelope = envelope_of(letter);
        // A letter taken as a player's is read whole, whoever sent it, and
        // is his from then on.
        let mut prepared = match player {
            Some(_) => Prepared::reading(self.config, &envelope, &|_| true),
            None => Prepared::new(self.config, &envelope),
        };
        let written_from = prepared.mail.as_ref().and_then(|mail| mail.from.clone());
        let address_edit = self.address_edit(player, written_from.as_deref(), acceptance)?;
        if let (Some(player), Some(mail)) = (player, prepared.mail.as_mut()) {
            mail.from = Some(player.email.clone());
        }
        let Some(read) = &prepared.read else {
            let from = written_from.as_deref().unwrap_or("-");
            let said = crate::said!("reason.accept_nobody", "key" => key, "from" => from);
            return Err(Refused::new(said).into());
        };
        // A letter of orders is nobody's move: accepting one would carry
        // out its orders again, and one that accepts itself (or another
        // that accepts it) would never end.
        let from_arbiter = written_from.as_deref() == Some(self.config.chief_arbiter.as_str());
        if !read.rulings.is_empty() || (from_arbiter && player.is_none()) {
            return Err(Refused::new(crate::said!("reason.accept_order", "key" => key)).into());
        }
        let mut read = match acceptance.moves {
            Some(moves) => read.with_moves_of(moves),
            None => read.clone(),
        };
        if let Some(game) = acceptance.game {
            read.game = Some(game.to_string());
            prepared.directed = true;
        }
        prepared.event_named = acceptance.event_named;
        if let Some(refused) = self.which_event(store, &prepared, acceptance)? {
            return Err(refused.into());
        }
        prepared.read_json = crate::clerk::stored_reading(&read, envelope.raw.len());
        prepared.read = Some(read);
        prepared.key = accepted_key;
        let mut plan = self.decided(store, &envelope, &prepared)?;
        let Some(stored) = plan.writes.letter.as_mut() else {
            return Err(Error::internal("an accepted letter without its record").into());
        };
        if stored.disposition != Disposition::Applied {
            // The reasons as its writer would be told them, in the
            // tournament's words (the stored reason is the log's).
            let logged = stored.reason.clone();
            let reason = told_reasons(&plan, self.voice()).unwrap_or(logged);
            return Err(
                Refused::new(crate::said!("reason.accept_refused", "reason" => reason)).into(),
            );
        }
        let who = match acceptance.by {
            crate::clerk::AwardedBy::Arbiter => "the chief arbiter",
            crate::clerk::AwardedBy::Director => "the director",
        };
        stored.reason = format!("accepted by {who}: {}", stored.reason);
        let written_from = written_from.as_deref();
        Ok(self.say_accepted(plan, acceptance, player, written_from, address_edit)?)
    }

    /// Why a letter cannot be accepted before it is read: applied already,
    /// accepted once, or accepted with no move.
    fn taken_already(
        &self,
        store: &Store,
        letter: &KeptLetter,
        acceptance: &Acceptance<'_>,
        accepted_key: &str,
    ) -> Result<Option<Refused>, Error> {
        let key = acceptance.key.to_string();
        let arrived = rules::postmark_date(&letter.arrived, self.config.timezone);
        let with_date = |name: &'static str| {
            let key = key.clone();
            Sentence::new(move |phrases| {
                phrases.fill(name, &[("key", &key), ("date", &phrases.date(arrived))])
            })
        };
        if letter.disposition == "applied" {
            return Ok(Some(Refused::new(with_date("reason.accept_taken"))));
        }
        if store.letter_by_key(accepted_key)?.is_some() {
            return Ok(Some(Refused::new(with_date("reason.accept_twice"))));
        }
        if acceptance.moves.is_some_and(|moves| moves.moves.is_empty()) {
            return Ok(Some(Refused::new(Sentence::phrase(
                "reason.accept_no_move",
            ))));
        }
        Ok(None)
    }

    /// What the accepted letter's plan says of its acceptance: the note
    /// under the chart (who took it, as what, why), the receipt's words
    /// (copied to the chief secretary), the address added, the event.
    fn say_accepted(
        &self,
        mut plan: Plan,
        acceptance: &Acceptance<'_>,
        player: Option<&Player>,
        written_from: Option<&str>,
        address_edit: Option<ConfigEdit>,
    ) -> Result<Plan, Error> {
        let told = Accepted {
            postmark: plan.writes.letter.as_ref().map(|l| l.postmark),
            // The moves as the board took them (in SAN; each reader's notation).
            sans: plan
                .writes
                .game
                .as_ref()
                .filter(|game| game.ledger.rows.len() > game.stored)
                .map(|game| moves_of(game, game.stored, game.ledger.rows.len() - 1)),
            why: crate::clerk::because(acceptance.why),
            from: written_from.unwrap_or_default().to_string(),
            player: player.map(|player| player.name.clone()),
            by: acceptance.by,
            address_added: address_edit.is_some(),
        };
        plan.writes
            .notes
            .push(self.note(crate::store::NoteKind::Accepted, |phrases| {
                told.note(phrases)
            }));
        plan.writes.config_edits.extend(address_edit);
        // The writer's receipt says why it comes after his refusal; the
        // chief secretary reads it too: the director's acceptance is an
        // operation of the tournament's.
        let receipt = told.clone();
        let accepted = text(move |phrases| receipt.receipt(phrases));
        for message in plan.messages.iter_mut().filter(|m| m.kind.is_reply()) {
            message.with(crate::model! { "accepted" => accepted.clone() });
            message.cc.push(self.secretary());
        }
        let game = plan.writes.game.as_ref().map(|game| game.key.clone());
        let moves = told.moves(self.phrases());
        plan.event(
            EventKind::Accepted,
            game.as_ref(),
            None,
            format!("{} as {moves}", acceptance.key),
        );
        Ok(plan)
    }

    /// With `ACCEPT … AS PLAYER ADDRESS`: the edit that makes the letter's
    /// address his, checked (another person's address, or a file the clerk
    /// may not write, refuses the acceptance).
    fn address_edit(
        &self,
        player: Option<&Player>,
        written_from: Option<&str>,
        acceptance: &Acceptance<'_>,
    ) -> Result<Option<ConfigEdit>, Refused> {
        let address_edit = match (player, written_from) {
            (Some(player), Some(from)) if acceptance.add_address => Some(ConfigEdit {
                file: self.config.file.clone(),
                player: player.id.clone(),
                edit: PlayerEdit::AddAddress {
                    email: from.to_lowercase(),
                },
                clerk_file: self.config.clerk_file.clone(),
            }),
            _ => None,
        };
        if let Some(ConfigEdit {
            edit: PlayerEdit::AddAddress { email },
            player,
            ..
        }) = &address_edit
            && let Err(refused) = self.address_free(email, player)
        {
            return Err(refused);
        }
        if let Some(Err(error)) = address_edit.as_ref().map(ConfigEdit::check) {
            return Err(Refused::new(
                crate::said!("reason.address_not_writable", "error" => error),
            ));
        }
        Ok(address_edit)
    }

    /// The refusal of an acceptance that does not name the event of a
    /// letter its writer may mean for several (he plays its game in each,
    /// and it has no tag or thread): each event's order is offered, none
    /// chosen for him.
    fn which_event(
        &self,
        store: &Store,
        prepared: &Prepared,
        acceptance: &Acceptance<'_>,
    ) -> Result<Option<Refused>, Error> {
        if prepared.event_named || prepared.directed || !self.directory.several() {
            return Ok(None);
        }
        let (Some(mail), Some(read)) = (prepared.mail.as_ref(), prepared.read.as_ref()) else {
            return Ok(None);
        };
        let Some(player) = mail
            .from
            .as_deref()
            .and_then(|from| self.config.player_by_email(from))
        else {
            return Ok(None);
        };
        let ambiguous = self.identify(store, player, mail, read, prepared)?;
        if !matches!(ambiguous, crate::clerk::find::Identified::Ambiguous) {
            return Ok(None);
        }
        let plays = |config: &crate::config::Config, there: &Player| {
            config.draw().games_of(&there.id).iter().any(|g| {
                read.game
                    .as_deref()
                    .is_none_or(|id| g.id.eq_ignore_ascii_case(id))
            })
        };
        let events: Vec<&str> = std::iter::once((self.config, player))
            .chain(self.others_knowing(player))
            .filter(|(config, there)| plays(config, there))
            .map(|(config, _)| config.tournament_id.as_str())
            .collect();
        let form = match acceptance.by {
            crate::clerk::AwardedBy::Arbiter => "reason.accept_in_event_by_mail",
            crate::clerk::AwardedBy::Director => "reason.accept_in_event_by_command",
        };
        let events: Vec<String> = events.into_iter().map(str::to_string).collect();
        let key = acceptance.key.to_string();
        Ok(Some(Refused::new(Sentence::new(move |phrases| {
            let orders: Vec<String> = events
                .iter()
                .map(|id| phrases.fill(form, &[("id", id), ("key", &key)]))
                .collect();
            phrases.fill(
                "reason.accept_which_event",
                &[
                    ("events", &events.join(", ")),
                    ("orders", &orders.join(phrases.get("reason.or"))),
                ],
            )
        }))))
    }
}

/// The reasons a letter's refusal gives its writer, as the plan's answer
/// to him says them; `None` where the plan answers no one (a letter read
/// as no player's).
fn told_reasons(plan: &Plan, voice: crate::clerk::say::words::Voice<'_>) -> Option<String> {
    let refusal = plan
        .messages
        .iter()
        .find(|m| m.kind == MessageKind::Refused)?;
    let reasons = refusal.model.get_attr("reasons").ok()?;
    let reasons = crate::clerk::say::words::spoken(&reasons, voice).model;
    let said: Vec<String> = reasons.try_iter().ok()?.map(|r| r.to_string()).collect();
    (!said.is_empty()).then(|| said.join("; "))
}

/// A kept letter as the mail source gave it: its key, bytes and arrival.
fn envelope_of(letter: &KeptLetter) -> Envelope {
    Envelope {
        key: letter.source_key.clone(),
        raw: letter.raw.clone(),
        size: letter.raw.len(),
        arrived: letter.arrived,
        channel: crate::rules::Channel::Letter,
    }
}

/// An acceptance as its note and its receipt tell it, in any language.
#[derive(Clone)]
struct Accepted {
    postmark: Option<NaiveDate>,
    /// The moves taken, in SAN.
    sans: Option<String>,
    why: String,
    /// The address the letter came from.
    from: String,
    /// The player it was assigned to, if it was.
    player: Option<String>,
    by: crate::clerk::AwardedBy,
    address_added: bool,
}

impl Accepted {
    fn moves(&self, phrases: &Phrases) -> String {
        self.sans
            .as_deref()
            .map(|sans| phrases.moves(sans))
            .unwrap_or_default()
    }

    fn postmark(&self, phrases: &Phrases) -> String {
        self.postmark
            .map(|day| phrases.date(day))
            .unwrap_or_default()
    }

    /// The phrase `name` where the address was added.
    fn added(&self, phrases: &Phrases, name: &str) -> String {
        match self.address_added {
            true => phrases.fill(name, &[("address", &self.from)]),
            false => String::new(),
        }
    }

    /// The note under the chart: who took it, as what, why.
    fn note(&self, phrases: &Phrases) -> String {
        let (postmark, moves) = (self.postmark(phrases), self.moves(phrases));
        let who = crate::clerk::order::awards::named_by(phrases, self.by);
        let text = match &self.player {
            Some(player) => phrases.fill(
                "note.assigned",
                &[
                    ("date", &postmark),
                    ("address", &self.from),
                    ("player", player),
                    ("moves", &moves),
                    ("why", &self.why),
                    ("who", &who),
                ],
            ),
            None => phrases.fill(
                "note.accepted",
                &[
                    ("date", &postmark),
                    ("moves", &moves),
                    ("why", &self.why),
                    ("who", &who),
                ],
            ),
        };
        text + &self.added(phrases, "note.address_added")
    }

    /// The receipt's words of why it comes after a refusal.
    fn receipt(&self, phrases: &Phrases) -> String {
        let said = match self.player {
            Some(_) => "reason.assigned",
            None => "reason.accepted",
        };
        let who = crate::clerk::order::awards::named_by(phrases, self.by);
        phrases.fill(
            said,
            &[
                ("date", &self.postmark(phrases)),
                ("moves", &self.moves(phrases)),
                ("address", &self.from),
                ("who", &who),
            ],
        ) + &self.added(phrases, "reason.address_added")
    }
}

//! The chief arbiter's letters (rules.md 2.5.5): a ruling on a suspended game
//! is carried out by the rules' [`rule`] and told to both players and the
//! chief secretary; a letter that decides nothing is answered with why.

use crate::clerk::context::Written;
use crate::clerk::say::notice::Notice;
use crate::clerk::say::words::Sentence;
use crate::clerk::{Fate, Letters, Ordered, Plan, Writes};
use crate::error::Error;
use crate::letter::{Ruling, WrittenOrder};
use crate::mail::format::compose::Recipient;
use crate::mail::format::mime::Mail;
use crate::message::MessageKind;
use crate::model;
use crate::record::Record;
use crate::render::Model;
use crate::store::{Store, StoredLetter};

impl Letters<'_, '_> {
    /// Answers an arbiter's letter that decides nothing.
    pub(in crate::clerk) fn refuse_arbiter(
        &self,
        state: Option<&Record>,
        written: Written<'_>,
        why: &str,
        reason: Sentence,
        stored: &StoredLetter,
    ) -> Result<Plan, Error> {
        let to = self.arbiter();
        self.refuse_order(state, to, written, why, reason, stored)
    }

    /// Answers a letter of orders that changes nothing (the chief
    /// arbiter's that cannot be carried out, or a player's): the reason and
    /// the order as read. `(why, reason)`: the log's words and the
    /// reader's.
    pub(in crate::clerk) fn refuse_order(
        &self,
        state: Option<&Record>,
        to: Recipient,
        written: Written<'_>,
        why: &str,
        reason: Sentence,
        stored: &StoredLetter,
    ) -> Result<Plan, Error> {
        let Written { mail, read, .. } = written;
        let postmark = stored.postmark;
        let model = model! {
            "reasons" => vec![reason.model()],
            "is_order" => true,
            // His line as he wrote it, bounded and its control characters
            // (a bidirectional override among them) neutralised.
            "order" => read.rulings.first().map(|ruling| said_back(&ruling.line)),
            "read" => self.read_model(read, postmark, None, None, None),
            "clock" => "none",
            "next" => Model::from(()),
            "games" => Model::from(()),
            "held" => Model::from(()),
        };
        let message = self
            .draft(MessageKind::Refused)
            .of_game(state)
            .to(to)
            .answering(mail.message_id.clone())
            .notice(model);
        Ok(Plan {
            messages: vec![message],
            ..Plan::writing(Writes {
                fate: Some(Fate::refused(why)),
                ..Writes::default()
            })
        })
    }

    /// The chief arbiter's decisions (2.5.5).
    pub(in crate::clerk) fn plan_arbiter(
        &self,
        store: &Store,
        written: Written<'_>,
        route: Option<&crate::clerk::Route>,
        stored: &StoredLetter,
    ) -> Result<Plan, Error> {
        let Written { mail, read, .. } = written;
        let Some(ruling) = read.rulings.first() else {
            let reason = self.no_ruling();
            return self.refuse_arbiter(None, written, "no ruling found", reason, stored);
        };
        // One order a letter.
        if read.rulings.len() > 1 {
            return self.several_orders(written, stored);
        }
        let own = self.config.tournament_id.as_str();
        let ruling = &self.directory.resolve(ruling, Some(own));
        // The letters set aside are the mailbox's: no tournament to name.
        if let WrittenOrder::Retry { .. } = ruling.order {
            return self.carry_out_by_letter(store, written, ruling, stored);
        }
        // `ACCEPT KEY` names its letter, and so its event: this one, where
        // routing found him its chief arbiter, or another's.
        let accepted_in = match ruling.order {
            WrittenOrder::Accept { .. } if self.directory.several() => match route {
                Some(route) => route.accepts,
                None => crate::clerk::route::accepted_event(self.directory, store, read)?,
            },
            _ => None,
        };
        if let Some(at) = accepted_in
            && let other = &self.directory.tournaments()[at]
            && other.tournament_id != own
        {
            return self.not_their_arbiter(&other.tournament_id, written, stored);
        }
        // Of a clerk of several, a ruling must say which tournament: by
        // naming it, by the subject's tag, or by answering its file.
        if self.directory.several()
            && ruling.tournament.is_none()
            && accepted_in.is_none()
            && !route.map_or_else(|| self.tagged_or_threaded(store, mail), |r| Ok(r.certain()))?
        {
            return self.which_tournament(store, written, ruling, stored);
        }
        // A ruling naming another of the clerk's tournaments is not for
        // this one's game of that number.
        let Some(elsewhere) = ruling.tournament.as_deref().filter(|id| *id != own) else {
            return self.carry_out_by_letter(store, written, ruling, stored);
        };
        // Another event of the clerk's, with a chief arbiter of its own:
        // this one rules there on nothing.
        let theirs =
            self.directory.tournaments().iter().find(|t| {
                t.tournament_id == elsewhere && t.chief_arbiter != self.config.chief_arbiter
            });
        if let Some(other) = theirs {
            return self.not_their_arbiter(&other.tournament_id, written, stored);
        }
        let named = format!("{elsewhere} {}", ruling.order.named());
        let reason = crate::said!("reason.arbiter_no_game", "game" => named);
        self.refuse_arbiter(None, written, "no such game", reason, stored)
    }

    /// Why a letter of the chief arbiter's orders nothing: no order read
    /// (and, in a folder, how to name the tournament).
    fn no_ruling(&self) -> Sentence {
        let several = self.directory.several();
        let id = self.config.tournament_id.clone();
        Sentence::new(move |phrases| {
            let reason = phrases.get("reason.no_ruling");
            match several {
                true => {
                    let folder = phrases.fill("reason.no_ruling_in_folder", &[("id", &id)]);
                    format!("{reason}; {folder}")
                }
                false => reason.to_string(),
            }
        })
    }

    /// A letter of several orders: none is carried out (two would be
    /// planned on the same record, the second blind to the first), and
    /// each is named in the answer.
    fn several_orders(&self, written: Written<'_>, stored: &StoredLetter) -> Result<Plan, Error> {
        let lines: Vec<String> = written
            .read
            .rulings
            .iter()
            .map(|ruling| crate::printable::bounded(&ruling.line, 100).into_owned())
            .collect();
        let reason = crate::said!("reason.orders_several", "count" => lines.len(), "orders" => lines.join("; "));
        let why = "several orders in one letter: none carried out";
        self.refuse_arbiter(None, written, why, reason, stored)
    }

    /// A ruling of a clerk of several that names no tournament: carried out
    /// where it can mean only this one, else refused with each event it may
    /// mean offered, none chosen for him.
    fn which_tournament(
        &self,
        store: &Store,
        written: Written<'_>,
        ruling: &Ruling,
        stored: &StoredLetter,
    ) -> Result<Plan, Error> {
        let mail = written.mail;
        let own = self.config.tournament_id.as_str();
        let sender = mail.from.as_deref().unwrap_or_default();
        let meant = self.events_ruled_on(sender, ruling);
        // It can mean one thing: the only event of his with that game
        // (or player) is this one.
        if meant == [own] {
            return self.carry_out_by_letter(store, written, ruling, stored);
        }
        let offered: Vec<&str> = match meant.is_empty() {
            true => vec![own],
            false => meant,
        };
        let orders: Vec<String> = offered
            .iter()
            .map(|id| with_tournament(&ruling.line, id))
            .collect();
        // The events he is the chief arbiter of, none other's.
        let his: Vec<&str> = self
            .directory
            .tournaments()
            .iter()
            .filter(|t| t.chief_arbiter == sender)
            .map(|t| t.tournament_id.as_str())
            .collect();
        let his = his.join(", ");
        let reason = Sentence::new(move |phrases| {
            phrases.fill(
                "reason.arbiter_which_tournament",
                &[
                    ("ids", &his),
                    ("order", &orders.join(phrases.get("reason.or"))),
                ],
            )
        });
        let why = "no tournament named";
        let mut plan = self.refuse_arbiter(None, written, why, reason, stored)?;
        // Placed in no event: the answer speaks for the clerk, under no
        // event's tag or name.
        for message in &mut plan.messages {
            message.with(crate::model! { "of_no_event" => true });
            message.of_event = false;
        }
        Ok(plan)
    }

    /// The chief arbiter's order carried out ([`Clerk::carry_out`]), his
    /// letter applied with it; or answered with why not.
    fn carry_out_by_letter(
        &self,
        store: &Store,
        written: Written<'_>,
        ruling: &Ruling,
        stored: &StoredLetter,
    ) -> Result<Plan, Error> {
        let mail = written.mail;
        let order = crate::clerk::Order::of_ruling(ruling);
        let in_reply_to = mail.message_id.clone();
        match self
            .orders()
            .carried_out(store, &order, Ordered::by_arbiter(in_reply_to))?
        {
            crate::clerk::Execution::Refused { refused, why } => {
                let state = refused.state.as_deref();
                self.refuse_arbiter(state, written, why, refused.reason, stored)
            }
            crate::clerk::Execution::Done { plan: done, reason } => {
                let receipt = self.order_done(mail, ruling, &done)?;
                let mut plan = *done;
                plan.writes.letter = None;
                plan.writes.fate = Some(Fate::applied(reason));
                // After all of the order's own messages (a withdrawal's and a
                // replacement's are its games' plans): his receipt says they
                // went.
                if let Some(receipt) = receipt {
                    plan.more.push(Plan {
                        messages: vec![receipt],
                        ..Plan::default()
                    });
                }
                Ok(plan)
            }
        }
    }

    /// The receipt of an order carried out, to its author: the order as he
    /// wrote it, its games, and everyone its messages go to; none where one
    /// of them goes to him already (`RETRY`'s list of letters).
    fn order_done(
        &self,
        mail: &Mail,
        ruling: &Ruling,
        done: &Plan,
    ) -> Result<Option<Notice>, Error> {
        let author = self.arbiter();
        let plans = all_plans(done);
        let messages = || plans.iter().flat_map(|plan| &plan.messages);
        let to_him = |r: &Recipient| r.email.eq_ignore_ascii_case(&author.email);
        if messages().any(|m| m.to.iter().chain(&m.cc).any(to_him)) {
            return Ok(None);
        }
        let mut told: Vec<String> = Vec::new();
        for whom in messages().flat_map(|m| m.to.iter().chain(&m.cc)) {
            let line = format!("{} <{}>", whom.name, whom.email);
            if !told.contains(&line) {
                told.push(line);
            }
        }
        let mut games: Vec<String> = Vec::new();
        for state in plans.iter().filter_map(|plan| plan.writes.game.as_ref()) {
            let tag =
                crate::key::SubjectTag::game(&self.config.tournament_id, state.id()).to_string();
            if !games.contains(&tag) {
                games.push(tag);
            }
        }
        let noted: Vec<String> = plans
            .iter()
            .flat_map(|plan| &plan.writes.notes)
            .map(|note| note.text.clone())
            .collect();
        let order = crate::printable::bounded(&ruling.line, 200).into_owned();
        let model = model! {
            "order" => order,
            "games" => games,
            "told" => told,
            "noted" => noted,
        };
        Ok(Some(
            self.draft(MessageKind::OrderDone)
                .to(author)
                .answering(mail.message_id.clone())
                .notice(model),
        ))
    }
}

impl Letters<'_, '_> {
    /// The ids of the clerk's events where `sender` is chief arbiter and
    /// the ruling's game (or player) is: those his order may mean.
    fn events_ruled_on(&self, sender: &str, ruling: &Ruling) -> Vec<&str> {
        let tournaments = self.directory.tournaments();
        crate::clerk::route::events_ruled_on(self.directory, sender, ruling)
            .into_iter()
            .map(|at| tournaments[at].tournament_id.as_str())
            .collect()
    }

    /// The order of another event's chief arbiter: he is told he rules
    /// there on nothing.
    fn not_their_arbiter(
        &self,
        tournament: &str,
        written: Written<'_>,
        stored: &StoredLetter,
    ) -> Result<Plan, Error> {
        let reason = crate::said!("reason.not_their_arbiter", "tournament" => tournament);
        let why = "the chief arbiter of another tournament: nothing changed";
        self.refuse_arbiter(None, written, why, reason, stored)
    }
}

/// An order's line as written, with a tournament's id after its first word
/// (`RESULT 4 1-0` → `RESULT EN-CUP 4 1-0`): the same order, carried out
/// in a folder.
fn with_tournament(line: &str, id: &str) -> String {
    let line = line.trim();
    match line.split_once(char::is_whitespace) {
        Some((word, rest)) => format!("{word} {id} {}", rest.trim_start()),
        None => format!("{line} {id}"),
    }
}

/// A plan and every plan it holds (a withdrawal's, a replacement's games).
fn all_plans(plan: &Plan) -> Vec<&Plan> {
    let mut all = vec![plan];
    let mut at = 0;
    while at < all.len() {
        let more = &all[at].more;
        all.extend(more.iter());
        at += 1;
    }
    all
}

/// A line of a letter said back to its writer: at most 200 bytes, its
/// control characters escaped.
pub(in crate::clerk) fn said_back(line: &str) -> String {
    crate::printable::bounded(&crate::printable::printable(line, false), 200).into_owned()
}

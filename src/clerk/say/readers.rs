//! Each reader's own preferences heeded (`DIAGRAMS`, `LANGUAGE` by mail):
//! a message to a reader who asked for another language or another board
//! than his tournament's is made again by the clerk speaking as he asked.
//! Planning writes nothing and reads the same store, so the work planned
//! again gives the same messages in the same order; only their words and
//! boards differ, and those replace the first plan's.

use crate::clerk::{Clerk, Plan};
use crate::config::Preferences;
use crate::error::Error;
use crate::mail::format::compose::Outgoing;
use crate::store::Store;

/// Where a message stands in a plan: among its own, or its other games'.
type Place = (Option<usize>, usize);

fn places(plan: &Plan) -> Vec<Place> {
    let own = (0..plan.messages.len()).map(|at| (None, at));
    let more = plan
        .more
        .iter()
        .enumerate()
        .flat_map(|(game, more)| (0..more.messages.len()).map(move |at| (Some(game), at)));
    own.chain(more).collect()
}

fn message_at(plan: &Plan, (game, at): Place) -> Option<&Outgoing> {
    match game {
        None => plan.messages.get(at),
        Some(game) => plan.more.get(game)?.messages.get(at),
    }
}

/// Whether two messages are the same message in other words: its kind,
/// game and readers.
fn same(one: &Outgoing, other: &Outgoing) -> bool {
    let emails = |m: &Outgoing| m.to.iter().map(|r| r.email.clone()).collect::<Vec<_>>();
    one.kind == other.kind && one.game == other.game && emails(one) == emails(other)
}

impl<'a> Clerk<'a> {
    /// This clerk as a reader who asked for `wanted` reads: in his
    /// language, with his board; `None` where that is how it writes now,
    /// or where the templates of his language cannot be loaded (he then
    /// gets the tournament's).
    pub(in crate::clerk) fn for_reader(&self, wanted: Preferences) -> Option<Clerk<'a>> {
        let lang = wanted.language.unwrap_or(self.config.language);
        let diagrams = wanted.diagrams.unwrap_or(self.config.mail.diagrams);
        if (lang, diagrams) == (self.lang, self.diagrams) {
            return None;
        }
        let at = self.directory.place_of(&self.config.tournament_id)?;
        let templates = self.directory.templates_in(at, lang)?;
        let mut clerk = Clerk::new(self.config, templates, self.clock, self.directory);
        (clerk.lang, clerk.diagrams) = (lang, diagrams);
        Some(clerk)
    }

    /// `plan`, each message to a reader with preferences of his own made
    /// again by `again` (the same work, planned by the clerk given).
    pub(in crate::clerk) fn heeding(
        &self,
        store: &Store,
        mut plan: Plan,
        again: impl Fn(&Clerk<'a>) -> Result<Plan, Error>,
    ) -> Result<Plan, Error> {
        let mut wanted: Vec<(Preferences, Vec<Place>)> = Vec::new();
        for place in places(&plan) {
            let Some(reader) = message_at(&plan, place).and_then(|m| m.to.first()) else {
                continue;
            };
            // A preference the plan itself sets (`LANGUAGE`, a newcomer's
            // language) holds for its own messages.
            let setting = plan
                .preferences
                .as_ref()
                .and_then(|(addresses, set)| addresses.contains(&reader.email).then_some(*set));
            let his = store
                .preferences_of(&reader.email)?
                .with(setting.unwrap_or_default());
            if his == Preferences::default() {
                continue;
            }
            match wanted.iter_mut().find(|(set, _)| *set == his) {
                Some((_, places)) => places.push(place),
                None => wanted.push((his, vec![place])),
            }
        }
        let mut theirs: Vec<(Place, Outgoing)> = Vec::new();
        for (his, places) in wanted {
            let Some(clerk) = self.for_reader(his) else {
                continue;
            };
            let other = again(&clerk)?;
            for place in places {
                if let (Some(ours), Some(his)) =
                    (message_at(&plan, place), message_at(&other, place))
                    && same(ours, his)
                {
                    theirs.push((place, his.clone()));
                }
            }
        }
        for ((game, at), message) in theirs {
            let messages = match game {
                None => Some(&mut plan.messages),
                Some(game) => plan.more.get_mut(game).map(|more| &mut more.messages),
            };
            if let Some(slot) = messages.and_then(|messages| messages.get_mut(at)) {
                *slot = message;
            }
        }
        Ok(plan)
    }
}

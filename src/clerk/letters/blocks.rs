//! A player's letter written for several games (`Партия 1` and its lines,
//! then `Партия 2` and its: the reader's blocks): the first block is the
//! letter's, planned as any; each other block goes to the game it names, as
//! a letter of that game with the same postmark, and is answered there.
//! A block naming a game that is not his is named in the first block's
//! answer as not carried out: nothing is read into another game, and no
//! answer says "all is in order" over a block it left.

use crate::clerk::context::LetterContext;
use chrono::NaiveDate;

use crate::clerk::context::Written;
use crate::clerk::{Fate, Letters, Plan};
use crate::config::Player;
use crate::error::Error;
use crate::store::{Disposition, Store, StoredLetter};

impl Letters<'_, '_> {
    /// The other blocks of `read` planned on their games (the letter is
    /// kept once, with the first block's game, whose plan is `first`): a
    /// plan for each, its events in the first's, and the words for the
    /// blocks that name no game of his, for his answer's "not carried out".
    pub(in crate::clerk) fn plan_other_games(
        &self,
        store: &Store,
        player: &Player,
        written: Written<'_>,
        postmark: NaiveDate,
        first: &Plan,
    ) -> Result<OtherGames, Error> {
        let Written { mail, read, raw } = written;
        let mut others = OtherGames::default();
        let unheeded = &mut others.unheeded;
        let mut planned: Vec<String> = first.games().map(|key| key.game().to_string()).collect();
        for block in &read.other_games {
            let Some(named) = block.game.as_deref() else {
                continue;
            };
            let game = self
                .config
                .draw()
                .games_of(&player.id)
                .into_iter()
                .find(|g| g.id.eq_ignore_ascii_case(named))
                .cloned();
            let game = match game {
                Some(game) if !planned.contains(&game.id) => game,
                Some(game) => {
                    unheeded.push(crate::said!("unheeded.game_twice", "game" => game.id));
                    continue;
                }
                None => {
                    let named = crate::printable::bounded(named, 40);
                    unheeded.push(crate::said!("unheeded.game_not_his", "game" => named));
                    continue;
                }
            };
            planned.push(game.id.clone());
            let state = crate::clerk::load_replaying(self.config, store, &game, &self.replays)?;
            let color = state
                .color_of(&player.email)
                .ok_or_else(|| Error::internal("player not in the game"))?;
            let context = LetterContext {
                mail,
                read: block,
                color,
                postmark,
                raw,
                game_note: None,
                channel: crate::rules::Channel::Letter,
            };
            let mut more = self.plan_player(store, &state, &context)?;
            if let Some(fate) = more.writes.fate.take() {
                others.fates.push((game.id.clone(), fate));
            }
            more.writes.game = Some(more.writes.game.take().unwrap_or(state));
            others.plans.push(more);
        }
        Ok(others)
    }
}

/// A letter's other games as planned: a plan for each, and the words for
/// the blocks not carried out.
#[derive(Default)]
pub(in crate::clerk) struct OtherGames {
    pub plans: Vec<Plan>,
    pub unheeded: Vec<crate::clerk::say::words::Sentence>,
    /// What became of each block, by its game.
    pub fates: Vec<(String, Fate)>,
}

impl OtherGames {
    /// The letter, its reason naming what became of each other block; it
    /// is applied where any block was.
    pub fn noted_on(&self, letter: StoredLetter) -> StoredLetter {
        let mut letter = letter;
        for (game, fate) in &self.fates {
            letter.reason = format!("{}; game {game}: {}", letter.reason, fate.reason);
            if fate.disposition == Disposition::Applied {
                letter.disposition = Disposition::Applied;
            }
        }
        letter
    }
}

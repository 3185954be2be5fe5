//! A player's letter no game of his was found for (see `clerk::find`):
//! nothing changes anywhere, and he is told why, with his games.

use crate::clerk::EventKind;
use crate::clerk::context::NamedBy;
use crate::clerk::find::Identified;
use crate::clerk::say::words::Sentence;
use crate::clerk::{Intake, Plan, recipient};
use crate::config::Player;
use crate::error::Error;
use crate::letter::Letter;
use crate::mail::format::mime::Mail;
use crate::model;
use crate::render::Model;
use crate::store::{Disposition, StoredLetter};

impl Intake<'_, '_> {
    /// A letter whose game is not one of its sender's: nothing changes
    /// anywhere, and he is told why, with his games.
    pub(in crate::clerk) fn unidentified(
        &self,
        refused: Identified,
        player: &Player,
        read: &Letter,
        mail: &Mail,
        mut stored: StoredLetter,
    ) -> Result<Plan, Error> {
        let postmark = stored.postmark;
        let sender = &player.email;
        // Asked which tournament: his games by their tags, in every one.
        let tagged = matches!(
            refused,
            Identified::Ambiguous | Identified::NotServed { .. }
        );
        let games: Vec<String> = if tagged {
            self.tags_of(player)
        } else {
            self.config
                .draw()
                .games_of(&player.id)
                .iter()
                .map(|g| g.id.clone())
                .collect()
        };
        let (why, reason) = self.unidentified_reasons(refused, player, read, &games);
        stored.disposition = Disposition::Refused;
        stored.reason = why;
        let mut message = self.refusal(
            recipient(player),
            vec![reason],
            read,
            postmark,
            Model::from(games),
            mail.message_id.clone(),
        );
        // Placed in no event: the answer speaks for the clerk, under no
        // event's tag or name.
        if tagged {
            message.with(model! { "of_no_event" => true });
            message.of_event = false;
        }
        Ok(Plan::default().answered(message, EventKind::Refused, sender, stored))
    }
    /// Why a letter's game was not found: the log's words and the
    /// player's. `games`: his games as his answer lists them.
    fn unidentified_reasons(
        &self,
        refused: Identified,
        player: &Player,
        read: &Letter,
        games: &[String],
    ) -> (String, Sentence) {
        let sender = &player.email;
        let named = |phrase: &'static str, game: &str, by: NamedBy| {
            let game = game.to_string();
            Sentence::new(move |phrases| {
                phrases.fill(
                    phrase,
                    &[("game", &game), ("by", &phrases.get(by.phrase()))],
                )
            })
        };
        match refused {
            Identified::NotHis { named: game, by } => (
                format!("names game {game}, which {sender} does not play"),
                named("reason.not_his", &game, by),
            ),
            Identified::NoSuch { named: game, by } => (
                format!("names game {game}, which the tournament does not have"),
                named("reason.no_such_game", &game, by),
            ),
            Identified::Ambiguous => {
                // The example is a tag of the game he wrote, where he named one.
                let named = read.game.as_deref().map(|game| format!("#{game}]"));
                let example = named
                    .and_then(|end| games.iter().find(|tag| tag.ends_with(&end)))
                    .or(games.first())
                    .cloned()
                    .unwrap_or_default();
                (
                    "the tournament could not be identified: the sender plays in several"
                        .to_string(),
                    Sentence::new(move |phrases| {
                        phrases.fill("reason.which_tournament", &[("tag", &example)])
                    }),
                )
            }
            Identified::NotServed { tournament } => (
                format!("for tournament {tournament}, which this clerk does not serve"),
                Sentence::new(move |phrases| {
                    phrases.fill("reason.not_served", &[("tournament", &tournament)])
                }),
            ),
            _ => (
                "the game could not be identified".to_string(),
                Sentence::phrase("reason.unidentified"),
            ),
        }
    }
}

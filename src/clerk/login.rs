//! A person's login to the Xfcc server issued: the letter to him (the
//! server's address, his user name, a new password) and the login the
//! commit keeps (his address and the password's hash). His `XFCC` letter
//! and the director's `shtempel xfcc-login` issue it alike.

use crate::clerk::plan::IssuedLogin;
use crate::clerk::say::draft::Draft;
use crate::clerk::{Clerk, Writes};
use crate::config::Player;
use crate::error::Error;
use crate::key::GameKey;
use crate::model;
use crate::store::XfccLogin;

use super::say::notice::Notice;

impl Clerk<'_> {
    /// The letter `draft` becomes for `player`, and what it writes: his
    /// login, made for `cause` from the run's seed. Where the clerk has no
    /// Xfcc server, the letter says so and nothing is written.
    pub(super) fn login_issued(
        &self,
        draft: Draft<'_, '_, '_>,
        player: &Player,
        cause: &str,
    ) -> Result<(Notice, Writes), Error> {
        let Some(server) = &self.config.xfcc else {
            let notice = draft.notice(model! { "url" => None::<String> });
            return Ok((notice, Writes::default()));
        };
        let seed = self.seed.ok_or_else(|| {
            Error::internal("this run issues no Xfcc login (it drew no seed): run poll or watch")
        })?;
        // The person, across the clerk's events: his user name is his key
        // in the folder, his address the one the clerk knows him by.
        let person = self
            .directory
            .place_of(&self.config.tournament_id)
            .and_then(|at| self.directory.people().of_entry(at, &player.id));
        let username = person.map_or_else(|| player.id.clone(), |p| p.key.clone());
        let address = person
            .and_then(|p| p.addresses.first())
            .unwrap_or(&player.email)
            .clone();
        let login = seed
            .login(cause)
            .map_err(|e| Error::internal(format!("an Xfcc password could not be hashed: {e}")))?;
        let notice = draft.notice(model! {
            "url" => server.url.as_str(),
            "username" => username.as_str(),
            "password" => login.password.as_str(),
        });
        let key = |config: &crate::config::Config, game: &crate::config::GameConfig| {
            GameKey::new(config.scope(), &game.id)
        };
        let games = match person {
            Some(person) => person
                .games(self.directory.tournaments())
                .into_iter()
                .map(|(config, _, game)| key(config, game))
                .collect(),
            None => self
                .config
                .draw()
                .games_of(&player.id)
                .into_iter()
                .map(|game| key(self.config, game))
                .collect(),
        };
        let writes = Writes {
            logins: vec![IssuedLogin {
                username,
                login: XfccLogin {
                    address,
                    hash: login.hash,
                },
                games,
            }],
            ..Writes::default()
        };
        Ok((notice, writes))
    }
}

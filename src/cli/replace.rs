//! `shtempel replace PLAYER`: a player replaced by a newcomer (`--by`: the
//! clerk gives his entry the newcomer's name and address; `--was`: the
//! director did), then a pass.

use shtempel::clerk::{Order, Whom, order};

use super::director::{Given, order_command};
use super::{Context, Failure, usage};

#[derive(clap::Args)]
pub struct Args {
    /// The player's id.
    player: String,
    /// After his entry was given the newcomer's name and address: whom
    /// he replaces, as the players knew him: "Name <address>".
    #[arg(long, required_unless_present = "by", conflicts_with = "by")]
    was: Option<String>,
    /// The newcomer, "Name <address>": the clerk gives the entry his
    /// name and address itself.
    #[arg(long)]
    by: Option<String>,
    /// The newcomer's language, `ru` or `en`: his letters are in it from
    /// the first (as if he had written LANGUAGE himself).
    #[arg(long, value_parser = ["ru", "en"])]
    language: Option<String>,
    #[command(flatten)]
    pub given: Given,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let whom = match (self.was, self.by.as_deref()) {
            (Some(was), _) => {
                // Told to the players as whom the newcomer replaces: a name
                // and an address, as --by takes them.
                let known = shtempel::letter::Newcomer::parse(&was);
                let named = known.is_some_and(|was| {
                    !was.name.trim().is_empty()
                        && shtempel::config::checked_address(&was.email).is_some()
                });
                if !named {
                    return Err(usage(format!(
                        "replace --was {was:?}: write the player replaced as \"Name <address>\", \
                         as the players knew him"
                    )));
                }
                Whom::Was(was)
            }
            (None, Some(by)) => {
                Whom::By(shtempel::letter::Newcomer::parse(by).ok_or_else(|| {
                    usage(format!(
                        "replace --by {by:?}: write the newcomer as \"Name <address>\""
                    ))
                })?)
            }
            (None, None) => return Err(usage("replace: give --was or --by")),
        };
        let player = self.player;
        let language = self.language.map(|name| match name.as_str() {
            "ru" => shtempel::Lang::Ru,
            _ => shtempel::Lang::En,
        });
        let replace = |why| {
            Order::Replace(order::Replace {
                player,
                whom,
                why,
                language,
            })
        };
        order_command(cx, replace, self.given)
    }
}

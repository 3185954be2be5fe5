//! `shtempel letters GAME --out FOLDER`: every letter the players sent in a
//! game, as it arrived (their secret words taken out), for the chief
//! arbiter. The overstep file names its letters the same way and lists
//! those it could not attach within `[limits] max_message_bytes`.

use std::path::PathBuf;

use shakmaty::Color;

use shtempel::mail::format::filing::filed_letter;

use super::database::{database_error, load_state, open_store};
use super::{Context, Failure, load, run_error};

#[derive(clap::Args)]
pub struct Args {
    /// The game.
    game: String,
    /// The folder to write them into, made if missing: `white/` and
    /// `black/`, each letter as `letter-NN-DATE.eml`.
    #[arg(long)]
    out: PathBuf,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        let config = load(&cx.config, cx.tournament())?;
        let store = open_store(&config)?;
        let state = load_state(&config, &store, &self.game)?;
        let mut written = 0;
        for color in [Color::White, Color::Black] {
            let letters = store
                .letters_from(&state.key, color)
                .map_err(|e| database_error(&config, &e))?;
            if letters.is_empty() {
                continue;
            }
            let folder = self.out.join(shtempel::color_name(color));
            std::fs::create_dir_all(&folder).map_err(|e| {
                run_error(format!("cannot make the folder {}: {e}", folder.display()))
            })?;
            let secret = state.player(color).secret.as_deref();
            for (index, letter) in letters.iter().enumerate() {
                let name = format!("letter-{:02}-{}.eml", index + 1, letter.postmark);
                let filed = filed_letter(name, &letter.raw, secret);
                let path = folder.join(&filed.name);
                std::fs::write(&path, &filed.bytes)
                    .map_err(|e| run_error(format!("cannot write {}: {e}", path.display())))?;
                println!("{} ({} bytes)", path.display(), filed.bytes.len());
                written += 1;
            }
        }
        println!("{written} letter(s) of game {} written", state.id());
        Ok(0)
    }
}

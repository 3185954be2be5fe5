//! The director's orders before a pass (issue 23): a game's (`result`,
//! `forfeit`, `undo`), a player's (`withdraw`, `replace`), a letter's
//! (`accept`), the start sheets; each committed with its messages, which
//! the pass then sends.

use super::*;

/// Every tournament of the config, and the id of the one a command is
/// about (the one given, or the only one).
pub(super) fn picked(
    path: &Path,
    tournament: Option<&str>,
) -> Result<(Vec<Config>, String), Failure> {
    let configs = load_all(path)?;
    let id = pick(path, configs.clone(), tournament)?.tournament_id;
    Ok((configs, id))
}

/// `result`, `forfeit` and `undo`: the director's order on a game of the
/// tournament given (or the only one), then a pass as `poll`.
pub(super) fn order_command(
    cx: &Context,
    game: &str,
    order: GameOrder,
    today: Option<NaiveDate>,
    json: bool,
) -> Result<u8, Failure> {
    let (configs, tournament) = cx.picked()?;
    let order = Before::Game {
        tournament: &tournament,
        game,
        order,
    };
    poll(&configs, cx.now, today, json, order)
}

/// `1-0`, `0-1`, `1/2` (or `1/2-1/2`, `½`).
pub(super) fn parse_result(text: &str) -> Result<GameResult, String> {
    match text {
        "1-0" => Ok(GameResult::WhiteWins),
        "0-1" => Ok(GameResult::BlackWins),
        "1/2" | "1/2-1/2" | "½" | "½-½" => Ok(GameResult::Draw),
        _ => Err(format!("{text:?} is not a result: write 1-0, 0-1 or 1/2")),
    }
}

/// `white` or `black`.
pub(super) fn parse_side(text: &str) -> Result<Color, String> {
    match text.to_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("{text:?} is not a side: write white or black")),
    }
}

/// The director's order on one game.
pub(super) enum GameOrder {
    Award(Award),
    /// Take back its last letter, and why.
    Undo(Option<String>),
}

/// Who the replacement is of, or by.
pub(super) enum Whom<'a> {
    /// The entry has the newcomer already (`--was "Name <address>"`: the
    /// player he replaces).
    Was(&'a str),
    /// The newcomer (`--by`), whom the clerk writes into the entry.
    By(&'a shtempel::letter::Newcomer),
}

/// What a run does before the mail.
pub(super) enum Before<'a> {
    /// Nothing (`poll`).
    Nothing,
    /// The start sheets of one tournament or of all (`start`).
    StartSheets(Option<&'a str>),
    /// The director's order on a game (`result`, `forfeit`, `undo`).
    Game {
        tournament: &'a str,
        game: &'a str,
        order: GameOrder,
    },
    /// A player replaced (`replace`).
    Replace {
        tournament: &'a str,
        player: &'a str,
        was: Whom<'a>,
        why: Option<&'a str>,
    },
    /// A player's withdrawal (`withdraw`).
    Withdraw {
        tournament: &'a str,
        player: &'a str,
        why: Option<&'a str>,
    },
    /// A refused letter taken after all (`accept`), in the tournament
    /// given, or the one it is for.
    Accept {
        tournament: Option<&'a str>,
        key: &'a str,
        moves: Option<&'a str>,
        sender: Option<&'a str>,
        add_address: bool,
        game: Option<&'a str>,
        why: Option<&'a str>,
    },
}

/// The director's order on `game` (a result, a forfeit, an undo),
/// committed with its messages for the pass to send; one the rules refuse
/// (the game has that result already, no letter to take back) is said, and
/// nothing is done.
pub(super) fn queue_order(
    clerk: &Clerk<'_>,
    store: &mut Store,
    game: &str,
    order: &GameOrder,
    json: bool,
) -> Result<(), Failure> {
    let config = clerk.config;
    let mut on_desk = store.tournament(config.scope());
    let store = &mut *on_desk;
    let plan = match order {
        GameOrder::Award(award) => clerk.award_by_command(store, game, award),
        GameOrder::Undo(why) => clerk.undo_by_command(store, game, why.as_deref()),
    };
    let plan = match plan {
        Ok(plan) => plan,
        Err(AwardError::Refused(_, reason) | AwardError::NoGame(reason)) => {
            return Err(usage(format!("game {game}: {reason}")));
        }
        Err(AwardError::Failed(message)) => return Err(database_or_run(config, message)),
    };
    let cause = match order {
        GameOrder::Award(award) => format!(
            "award:{game}:{}:{}",
            award.result.pgn(),
            if award.forfeit { "forfeit" } else { "result" }
        ),
        GameOrder::Undo(_) => format!("undo:{game}:{}", plan.taken_back.unwrap_or_default()),
    };
    commit_and_say(store, clerk, &plan, &cause, json)
}

/// A player's withdrawal, each game's change committed for the pass to
/// send; one that changes nothing is said.
pub(super) fn queue_withdrawal(
    clerk: &Clerk<'_>,
    store: &mut Store,
    player: &str,
    why: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let config = clerk.config;
    let mut on_desk = store.tournament(config.scope());
    let store = &mut *on_desk;
    let plans = match clerk.withdraw(store, player, why, clerk::AwardedBy::Director) {
        Ok(Ok(plans)) => plans,
        Ok(Err(reason)) => return Err(usage(format!("withdraw {player}: {reason}"))),
        Err(message) => return Err(database_or_run(config, message)),
    };
    for plan in &plans {
        let game = plan.game.as_ref().map_or("", |game| game.id());
        commit_and_say(
            store,
            clerk,
            plan,
            &format!("withdraw:{player}:{game}"),
            json,
        )?;
    }
    Ok(())
}

/// The clerk of tournament `id` (one the command picked already).
pub(super) fn clerk_of<'c, 'a>(
    clerks: &'c [Clerk<'a>],
    id: &str,
) -> Result<&'c Clerk<'a>, Failure> {
    clerks
        .iter()
        .find(|clerk| clerk.config.tournament_id == id)
        .ok_or_else(|| usage(format!("no tournament {id}")))
}

/// Commits a plan of the director's (its messages for the pass to send)
/// and prints its events.
pub(super) fn commit_and_say(
    store: &mut Store,
    clerk: &Clerk<'_>,
    plan: &clerk::Plan,
    cause: &str,
    json: bool,
) -> Result<(), Failure> {
    let config = clerk.config;
    run::commit(store, config, clerk, plan, cause)
        .map_err(|message| database_or_run(config, message))?;
    let mut out = std::io::stdout().lock();
    for event in &plan.events {
        print_event(&mut out, event, json);
    }
    Ok(())
}

/// A refused letter taken after all, committed for the pass to send; one
/// the rules would refuse again is said, and nothing is done.
pub(super) fn queue_acceptance(
    clerks: &[Clerk<'_>],
    directory: &Directory<'_>,
    tournament: Option<&str>,
    store: &mut Store,
    acceptance: &clerk::Acceptance<'_>,
    json: bool,
) -> Result<(), Failure> {
    let Some(first) = clerks.first() else {
        return Ok(());
    };
    let key = acceptance.key;
    let letter = store
        .letter_by_key(key)
        .map_err(|e| database_error(first.config, &e))?
        .ok_or_else(|| {
            usage(format!(
                "accept {key}: no letter has this key; `shtempel today` lists the keys of the \
                 letters that changed nothing, and a run's events name every letter's"
            ))
        })?;
    // The tournament given, or the only one of the player it is taken as,
    // or the one the letter is for.
    let of_player: Vec<&str> = match acceptance.sender {
        Some(player) => clerks
            .iter()
            .filter(|clerk| clerk.config.player(player).is_some())
            .map(|clerk| clerk.config.tournament_id.as_str())
            .collect(),
        None => Vec::new(),
    };
    if tournament.is_none() && of_player.len() > 1 {
        return Err(usage(format!(
            "accept {key}: {} plays in {}; say which with --tournament",
            acceptance.sender.unwrap_or_default(),
            of_player.join(", ")
        )));
    }
    let id = match tournament.or(of_player.first().copied()) {
        Some(id) => id.to_string(),
        None => {
            let at = clerk::route_kept(directory, store, &letter, acceptance.game);
            directory.tournaments()[at].tournament_id.clone()
        }
    };
    let desk = clerks
        .iter()
        .find(|clerk| clerk.config.tournament_id == id)
        .unwrap_or(first);
    let config = desk.config;
    let mut on_desk = store.tournament(config.scope());
    let store = &mut *on_desk;
    let plan = match desk.accept(store, &letter, acceptance) {
        Ok(Ok(plan)) => plan,
        Ok(Err(why)) => return Err(usage(format!("accept {key}: {why}"))),
        Err(message) => return Err(database_or_run(config, message)),
    };
    commit_and_say(store, desk, &plan, &format!("accepted:{key}"), json)
}

pub(super) fn queue_start_sheets(
    config: &Config,
    clerk: &Clerk<'_>,
    store: &mut Store,
    json: bool,
) -> Result<(), Failure> {
    let sheets = clerk
        .start_sheets(store)
        .map_err(|message| database_or_run(config, message))?;
    let mut out = std::io::stdout().lock();
    for sheet in sheets {
        match sheet {
            Sheet::Send { player, plan } => {
                run::commit(
                    store,
                    config,
                    clerk,
                    &plan,
                    &format!("start-sheet:{player}"),
                )
                .map_err(|message| database_or_run(config, message))?;
                for event in &plan.events {
                    print_event(&mut out, event, json);
                }
            }
            Sheet::Skip { player, why } => {
                let event = Event {
                    event: "start-sheet-skipped",
                    game: None,
                    from: None,
                    detail: format!("{player}: no start sheet ({why})"),
                };
                print_event(&mut out, &event, json);
            }
        }
    }
    Ok(())
}

/// The director's order given with a command, committed with its messages
/// before the pass that sends them: the one place an order of the command
/// line is carried out.
pub(super) fn carry_out(
    before: Before<'_>,
    clerks: &[Clerk<'_>],
    directory: &Directory<'_>,
    store: &mut Store,
    json: bool,
) -> Result<(), Failure> {
    match before {
        Before::Nothing => {}
        Before::StartSheets(only) => {
            for clerk in clerks {
                if only.is_none_or(|id| id == clerk.config.tournament_id) {
                    queue_start_sheets(clerk.config, clerk, store, json)?;
                }
            }
        }
        Before::Game {
            tournament,
            game,
            order,
        } => {
            let clerk = clerk_of(clerks, tournament)?;
            queue_order(clerk, store, game, &order, json)?;
        }
        Before::Replace {
            tournament,
            player,
            was,
            why,
        } => {
            let clerk = clerk_of(clerks, tournament)?;
            let mut on_desk = store.tournament(clerk.config.scope());
            let store = &mut *on_desk;
            let (planned, whom) = match was {
                Whom::Was(was) => (clerk.replace(store, player, was, why), was.to_string()),
                Whom::By(newcomer) => (
                    clerk.replace_named(store, player, Some(newcomer), why),
                    format!("by {} <{}>", newcomer.name, newcomer.email),
                ),
            };
            let plan = match planned {
                Ok(Ok(plan)) => plan,
                Ok(Err(reason)) => return Err(usage(format!("replace {player}: {reason}"))),
                Err(message) => return Err(database_or_run(clerk.config, message)),
            };
            let cause = format!("replace:{player}:{whom}");
            commit_and_say(store, clerk, &plan, &cause, json)?;
        }
        Before::Withdraw {
            tournament,
            player,
            why,
        } => {
            let clerk = clerk_of(clerks, tournament)?;
            queue_withdrawal(clerk, store, player, why, json)?;
        }
        Before::Accept {
            tournament,
            key,
            moves,
            sender,
            add_address,
            game,
            why,
        } => {
            let moves = moves.map(shtempel::letter::read);
            let acceptance = clerk::Acceptance {
                key,
                moves: moves.as_ref(),
                sender,
                game,
                why,
                add_address,
                by: clerk::AwardedBy::Director,
            };
            queue_acceptance(clerks, directory, tournament, store, &acceptance, json)?;
        }
    }
    Ok(())
}

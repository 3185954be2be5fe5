//! The director's commands (issue 23): `today`, and the operations that
//! change a game (`result`, `forfeit`, `undo`, `withdraw`, `replace`,
//! `accept`), each committed with its messages before a pass as `poll`
//! sends them; the start sheets of `start`; and the letters set aside put
//! back (`retry`).

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
    (path, tournament): (&Path, Option<&str>),
    game: &str,
    order: GameOrder,
    (now, today): (chrono::DateTime<Utc>, Option<NaiveDate>),
    json: bool,
) -> Result<u8, Failure> {
    let (configs, tournament) = picked(path, tournament)?;
    let order = Before::Game {
        tournament: &tournament,
        game,
        order,
    };
    poll(&configs, now, today, json, order)
}

/// `today`: every tournament's agenda through `days` ahead, by day, then
/// the letters of the last `days` that changed nothing.
pub(super) fn desk(
    configs: &[Config],
    (now, today): (chrono::DateTime<Utc>, Option<NaiveDate>),
    days: u32,
    json: bool,
) -> Result<u8, Failure> {
    let Some(first) = configs.first() else {
        return Ok(0);
    };
    let mut store = open_store(first)?;
    let mut due = Vec::new();
    for config in configs {
        let store = store.tournament(config.scope());
        let day = clock(config, now, today).today;
        let through = shtempel::rules::add_days(day, days);
        let agenda = shtempel::desk::agenda_of(config, &store, day, through)
            .map_err(|message| database_or_run(config, message))?;
        due.extend(agenda);
    }
    due.sort_by_key(|item| item.day);
    let day = clock(first, now, today).today;
    let since = day - chrono::Days::new(u64::from(days));
    let unheeded = store
        .changed_nothing(since)
        .map_err(|e| database_error(first, &e))?;
    let through = shtempel::rules::add_days(day, days);
    let mut text = String::new();
    if json {
        let value = shtempel::desk::to_json(day, through, &due, &unheeded);
        text = format!("{}\n", printable_json(&value.to_string()));
    } else {
        let mut line = |line: String| {
            text.push_str(&printable(&line, false));
            text.push('\n');
        };
        line(format!("Due from {day} through {through}:"));
        if due.is_empty() {
            line("  nothing".into());
        }
        for item in &due {
            line(format!(
                "  {}  game {}  {}",
                item.day,
                item.label(),
                item.text()
            ));
        }
        line(format!("Mail since {since} that changed nothing:"));
        if unheeded.is_empty() {
            line("  none".into());
        }
        let arbiters: Vec<&str> = configs
            .iter()
            .map(|config| config.chief_arbiter.as_str())
            .collect();
        for letter in &unheeded {
            line(format!(
                "  {}",
                shtempel::desk::unheeded_text(letter, &arbiters)
            ));
        }
    }
    // Written at once; a reader that stops early (`| head`) is no error.
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
    Ok(0)
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

/// `shtempel retry`: the letters set aside listed, or those named put back
/// into the mail source ([`run::put_back`] says in which order, and why).
pub(super) fn retry(config: &Config, key: Option<&str>, all: bool) -> Result<u8, Failure> {
    let Some(_lock) = run::lock(&config.database).map_err(|e| run_error(format!("lock: {e}")))?
    else {
        return Err(run_error(
            "retry: a poll is at work on this tournament; try again when it is done",
        ));
    };
    let mut store = open_store(config)?;
    let database = |e: rusqlite::Error| database_error(config, &e);
    let set_aside = store.quarantined().map_err(database)?;
    let Some(key) = key.filter(|_| !all) else {
        if !all {
            let ordered_back = store.releasing().map_err(database)?;
            if set_aside.is_empty() && ordered_back.is_empty() {
                println!("retry: no letter is set aside");
            }
            for letter in &ordered_back {
                println!(
                    "{}  ordered back by the chief arbiter: the next poll puts it back",
                    printable(&letter.dedup_key, false)
                );
            }
            for letter in &set_aside {
                let line = format!(
                    "{}  arrived {}  ({})  {}",
                    letter.dedup_key,
                    letter.arrived.format("%Y-%m-%d %H:%M"),
                    letter.source_key,
                    letter.reason
                );
                println!("{}", printable(&line, false));
            }
            return Ok(0);
        }
        return put_back(config, &mut store, &set_aside);
    };
    let chosen: Vec<_> = set_aside
        .into_iter()
        .filter(|letter| letter.is(key))
        .collect();
    if chosen.is_empty() {
        return Err(usage(format!(
            "retry: no letter is set aside under {key:?}; `shtempel retry` lists those that are"
        )));
    }
    put_back(config, &mut store, &chosen)
}

fn put_back(
    config: &Config,
    store: &mut Store,
    letters: &[shtempel::store::Quarantined],
) -> Result<u8, Failure> {
    let mut source = source(config)?;
    for letter in letters {
        let key = &letter.dedup_key;
        match run::put_back(store, source.as_mut(), letter)
            .map_err(|e| run_error(format!("retry: {e}")))?
        {
            run::PutBack::Back => {
                println!("retry: {key} is back among the new letters; the next poll reads it again")
            }
            run::PutBack::NeverRead { file } => println!(
                "retry: {key} was never read ({}): the file is in the Maildir's cur/ as {file}; make it \
                 readable and move it back into new/",
                letter.reason
            ),
        }
    }
    Ok(0)
}

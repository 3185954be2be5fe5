//! The director's orders carried out at the start of a pass, under its
//! lock: a game's (`result`, `forfeit`, `undo`), a player's (`withdraw`,
//! `replace`), a letter's (`accept`), each a `clerk::Order` carried out as
//! the chief arbiter's letter's are; and the start sheets. Each is committed
//! with its messages, which the pass then sends.

use shtempel::clerk::{Clerk, Directory, Event, EventKind, Execution, Order, Sheet};
use shtempel::config::Config;
use shtempel::store::Store;
use shtempel::{clerk, run};

use super::database::{database_error, database_or_run};
use super::output::{Printer, print_event};
use super::{Failure, usage};

/// The clerk of tournament `id` (one the command picked already).
pub(super) fn clerk_of<'c, 'a>(
    clerks: &'c [Clerk<'a>],
    id: &str,
) -> Result<&'c Clerk<'a>, Failure> {
    clerks
        .iter()
        .find(|clerk| shtempel::key::same_id(id, &clerk.config.tournament_id))
        .ok_or_else(|| usage(format!("no tournament {id}")))
}

/// Commits a plan of the director's (its messages for the pass to send)
/// and prints its events.
pub(super) fn commit_and_say(
    store: &mut Store,
    clerk: &Clerk<'_>,
    plan: &clerk::SaidPlan,
    cause: &str,
    printer: Printer,
) -> Result<(), Failure> {
    let config = clerk.config;
    run::commit(store, config, clerk, plan, cause)
        .map_err(|message| database_or_run(config, message))?;
    let mut out = std::io::stdout().lock();
    for event in &plan.writes.events {
        print_event(&mut out, event, printer);
    }
    Ok(())
}

pub(super) fn queue_start_sheets(
    config: &Config,
    clerk: &Clerk<'_>,
    store: &mut Store,
    printer: Printer,
) -> Result<(), Failure> {
    let sheets = clerk
        .calendar()
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
                for event in &plan.writes.events {
                    print_event(&mut out, event, printer);
                }
            }
            Sheet::Skip { player, why } => {
                let event = Event {
                    event: EventKind::StartSheetSkipped,
                    game: None,
                    from: None,
                    detail: format!("{player}: no start sheet ({why})"),
                };
                print_event(&mut out, &event, printer);
            }
        }
    }
    Ok(())
}

/// What a run does before the mail.
pub(super) enum Before<'a> {
    /// Nothing (`poll`).
    Nothing,
    /// The start sheets of one tournament or of all (`start`).
    StartSheets(Option<&'a str>),
    /// The director's order, in the tournament named (`accept` without
    /// one: in the tournament its letter is for).
    Order {
        tournament: Option<&'a str>,
        order: Order,
    },
}

/// What a run does before the mail, committed with its messages before the
/// pass that sends them: the director's order carried out by the same
/// function as the chief arbiter's letter ([`Clerk::carry_out`]).
pub(super) fn carry_out(
    before: Before<'_>,
    clerks: &[Clerk<'_>],
    directory: &Directory<'_>,
    store: &mut Store,
    printer: Printer,
) -> Result<(), Failure> {
    let (tournament, order) = match before {
        Before::Nothing => return Ok(()),
        Before::StartSheets(only) => {
            for clerk in clerks {
                if only.is_none_or(|id| shtempel::key::same_id(id, &clerk.config.tournament_id)) {
                    queue_start_sheets(clerk.config, clerk, store, printer)?;
                }
            }
            return Ok(());
        }
        Before::Order { tournament, order } => (tournament, order),
    };
    let desk = match (&order, tournament) {
        (
            Order::Accept(clerk::order::Accept {
                key, sender, game, ..
            }),
            _,
        ) => desk_of_letter(
            clerks,
            directory,
            tournament,
            store,
            key,
            sender.as_deref(),
            game.as_deref(),
        )?,
        (_, Some(id)) => clerk_of(clerks, id)?,
        (_, None) => clerks.first().ok_or_else(|| usage("no tournament"))?,
    };
    let config = desk.config;
    match desk
        .orders()
        .carry_out(store, &order, clerk::Ordered::by_director())
    {
        Err(message) => Err(database_or_run(config, message)),
        Ok(Execution::Refused { refused, .. }) => {
            // In the event's words, as the director's commands speak.
            let reason = refused.reason.in_words(desk.templates.phrases());
            Err(usage(format!("{}: {reason}", order.named())))
        }
        Ok(Execution::Done { plan, .. }) => {
            commit_and_say(store, desk, &plan, &order.cause(&plan), printer)
        }
    }
}

/// The clerk a refused letter is accepted by: of the tournament given, or
/// the only one of the player it is taken as, or the one it is for.
fn desk_of_letter<'c, 'a>(
    clerks: &'c [Clerk<'a>],
    directory: &Directory<'_>,
    tournament: Option<&str>,
    store: &Store,
    key: &str,
    sender: Option<&str>,
    game: Option<&str>,
) -> Result<&'c Clerk<'a>, Failure> {
    let first = clerks.first().ok_or_else(|| usage("no tournament"))?;
    let letter = store
        .letter_by_key(key)
        .map_err(|e| database_error(first.config, &e))?
        .ok_or_else(|| {
            usage(format!(
                "accept {key}: no letter has this key; `shtempel today` lists the keys of the \
                 letters that changed nothing, and a run's events name every letter's"
            ))
        })?;
    let of_player: Vec<&str> = match sender {
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
            sender.unwrap_or_default(),
            of_player.join(", ")
        )));
    }
    // The game named is his in which events? One decides; several are
    // asked, never chosen by the letter's language.
    let written_by = shtempel::mail::format::mime::parse(&letter.raw, &first.config.address)
        .and_then(|mail| mail.from);
    let with_game: Vec<&str> = match (tournament, game) {
        (None, Some(game)) => clerks
            .iter()
            .filter(|clerk| {
                let config = clerk.config;
                let player = match sender {
                    Some(id) => config.player(id),
                    None => written_by
                        .as_deref()
                        .and_then(|a| config.player_by_email(a)),
                };
                player.is_some_and(|p| {
                    config
                        .draw()
                        .games_of(&p.id)
                        .iter()
                        .any(|g| g.id.eq_ignore_ascii_case(game))
                })
            })
            .map(|clerk| clerk.config.tournament_id.as_str())
            .collect(),
        _ => Vec::new(),
    };
    if with_game.len() > 1 {
        return Err(usage(format!(
            "accept {key}: game {} is the letter's writer's in {}; say which with --tournament",
            game.unwrap_or_default(),
            with_game.join(", ")
        )));
    }
    let id = match tournament
        .or(of_player.first().copied())
        .or(with_game.first().copied())
    {
        Some(id) => id.to_string(),
        None => {
            let route =
                clerk::route_kept(directory, store, &letter, game).map_err(crate::run_error)?;
            directory.tournaments()[route.tournament]
                .tournament_id
                .clone()
        }
    };
    Ok(clerks
        .iter()
        .find(|clerk| shtempel::key::same_id(&id, &clerk.config.tournament_id))
        .unwrap_or(first))
}

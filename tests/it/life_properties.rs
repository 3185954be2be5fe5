//! Properties of a game's life (`rules::life`) over random games: random
//! legal moves (shakmaty), random letter days, dates stated right, wrong or
//! not at all, fractions right or wrong, and days of the calendar between.
//! Whatever the letters, a letter charges only its writer, a refused letter
//! is as if it never came, and the same letters replayed give the same
//! ledger and the same effects.

use std::collections::BTreeSet;

use chrono::{Duration, NaiveDate};
use proptest::prelude::*;
use shakmaty::{Chess, Color, Position};
use shtempel::rules::life::{admit_move, day, move_letter, resign};
use shtempel::rules::{
    Calendar, DutyKey, Fraction, Incoming, Ledger, MoveLetter, NewPly, Rules, Stated, StatedDates,
    due, next_check,
};

/// One thing that happens to a game, drawn at random.
#[derive(Clone, Debug)]
struct Step {
    /// Days after the step before (or after the start).
    gap: u8,
    /// 0..=5: a letter of the side to move; 6: a letter of the other side;
    /// 7: a day of the calendar; 8: a resignation; 9 (never drawn): the
    /// days pass and nothing comes.
    kind: u8,
    /// Which of the legal moves is played.
    pick: u16,
    /// How the letter states its dates and fraction (bits).
    written: u8,
}

fn step() -> impl Strategy<Value = Step> {
    (0u8..25, 0u8..9, any::<u16>(), any::<u8>()).prop_map(|(gap, kind, pick, written)| Step {
        gap,
        kind,
        pick,
        written,
    })
}

/// A game replayed: its ledger, the board, the duties done, and what each
/// step gave (its effects, or that it was refused).
struct Replay {
    ledger: Ledger,
    board: Chess,
    done: BTreeSet<DutyKey>,
    said: Vec<Result<Vec<String>, String>>,
}

fn start() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 2).unwrap()
}

/// The dates and fraction the letter states: each right, shifted, or left
/// out, as `written`'s bits say.
fn stated(ledger: &Ledger, on: NaiveDate, written: u8) -> Stated {
    let last = ledger.rows.last();
    let shift = |date: NaiveDate, bit: u8| match written & bit {
        0 => Some(date),
        _ if written & 0x80 != 0 => None,
        _ => Some(date + Duration::days(1)),
    };
    let totals = ledger.totals();
    let fraction = match written & 0x40 {
        0 => Some(totals),
        _ => Some(Fraction {
            white: totals.white + 3,
            black: totals.black,
        }),
    };
    Stated {
        dates: StatedDates {
            postmark: last.and_then(|row| shift(row.sent_on, 1)),
            received: last.and_then(|row| shift(row.delivered_on.unwrap_or(row.sent_on), 2)),
            sent: shift(on, 4),
            unplaced: Vec::new(),
        },
        fraction: (written & 0x20 == 0).then_some(fraction).flatten(),
        previous: None,
    }
}

fn replay(rules: &Rules, steps: &[Step]) -> Replay {
    let end = start() + Duration::days(2000);
    let mut game = Replay {
        ledger: Ledger::new(Calendar::on_time(start(), end)),
        board: Chess::default(),
        done: BTreeSet::new(),
        said: Vec::new(),
    };
    let mut today = start();
    for step in steps {
        today += Duration::days(i64::from(step.gap));
        let said = match step.kind {
            0..=6 => letter(rules, &mut game, step, today),
            7 => {
                let transition = day(rules, &game.ledger, today, &game.done);
                game.done.extend(transition.done.iter().cloned());
                game.ledger = transition.ledger;
                Ok(said(&transition.effects))
            }
            9 => Ok(Vec::new()),
            _ => {
                let by = if step.pick % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                match resign(&game.ledger, by) {
                    Ok(ended) => {
                        game.ledger = ended.ledger;
                        Ok(said(&[ended.effect]))
                    }
                    Err(refusal) => Err(format!("{refusal:?}")),
                }
            }
        };
        game.said.push(said);
    }
    game
}

/// A move letter of the side to move (or, for kind 6, of the other side):
/// admitted or refused as the clerk does, then judged.
fn letter(
    rules: &Rules,
    game: &mut Replay,
    step: &Step,
    today: NaiveDate,
) -> Result<Vec<String>, String> {
    let to_move = game.ledger.to_move();
    let by = if step.kind == 6 { !to_move } else { to_move };
    if let Err(refusal) = admit_move(&game.ledger, by) {
        return Err(format!("{refusal:?}"));
    }
    let moves = game.board.legal_moves();
    if moves.is_empty() || game.board.turn() != by {
        return Err("no move on the board".into());
    }
    let chosen = moves[usize::from(step.pick) % moves.len()];
    let san = shakmaty::san::San::from_move(&game.board, chosen).to_string();
    let letter = MoveLetter {
        incoming: Incoming {
            by,
            sent_on: today,
            stated: stated(&game.ledger, today, step.written),
            plies: vec![NewPly {
                by,
                san,
                conditional: false,
            }],
            partner_direct: step.written & 0x10 != 0,
            channel: shtempel::rules::Channel::Letter,
        },
        draw_offer: false,
        end: None,
        conditional_reply: false,
    };
    let before = game.ledger.totals();
    let transition = move_letter(rules, &game.ledger, &letter, today).0;
    let after = transition.ledger.totals();
    // A letter charges its writer, never his partner.
    assert!(
        of(after, by) >= of(before, by),
        "the writer's total went down: {before:?} -> {after:?}"
    );
    assert_eq!(
        of(after, !by),
        of(before, !by),
        "the partner was charged: {before:?} -> {after:?}"
    );
    if transition.ledger.rows.len() > game.ledger.rows.len() {
        game.board.play_unchecked(chosen);
    }
    game.ledger = transition.ledger;
    Ok(said(&transition.effects))
}

/// Effects as they read, to be compared between replays.
fn said<E: std::fmt::Debug>(effects: &[E]) -> Vec<String> {
    effects.iter().map(|effect| format!("{effect:?}")).collect()
}

/// The plies played on the board.
fn plies(board: &Chess) -> usize {
    let full = usize::try_from(board.fullmoves().get()).unwrap_or(usize::MAX);
    (full - 1) * 2 + usize::from(board.turn() == Color::Black)
}

fn of(fraction: Fraction, color: Color) -> u32 {
    match color {
        Color::White => fraction.white,
        Color::Black => fraction.black,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_same_letters_replayed_give_the_same_ledger_and_effects(
        steps in prop::collection::vec(step(), 1..60)
    ) {
        let rules = Rules::default();
        let (first, second) = (replay(&rules, &steps), replay(&rules, &steps));
        prop_assert_eq!(&first.ledger, &second.ledger);
        prop_assert_eq!(format!("{:?}", first.said), format!("{:?}", second.said));
    }

    #[test]
    fn a_refused_letter_is_as_if_it_never_came(
        steps in prop::collection::vec(step(), 1..60)
    ) {
        let rules = Rules::default();
        let game = replay(&rules, &steps);
        // Each refused step left out, its days kept.
        let kept: Vec<Step> = steps
            .iter()
            .zip(&game.said)
            .map(|(step, said)| match said {
                Ok(_) => step.clone(),
                Err(_) => Step { kind: 9, ..step.clone() },
            })
            .collect();
        let without = replay(&rules, &kept);
        prop_assert_eq!(&game.ledger, &without.ledger);
        prop_assert!(without.said.iter().all(Result::is_ok));
    }

    #[test]
    fn the_totals_are_the_rows_days_and_penalties_of_each_side(
        steps in prop::collection::vec(step(), 1..60)
    ) {
        let game = replay(&Rules::default(), &steps);
        let mut sum = Fraction::default();
        for row in &game.ledger.rows {
            match row.by {
                Color::White => sum.white += row.days + row.penalty,
                Color::Black => sum.black += row.days + row.penalty,
            }
        }
        let extra = game.ledger.standing.extra_penalty;
        let credit = game.ledger.standing.credit;
        let totals = game.ledger.totals();
        prop_assert_eq!(totals.white, (sum.white + extra.white).saturating_sub(credit.white));
        prop_assert_eq!(totals.black, (sum.black + extra.black).saturating_sub(credit.black));
        // Rows only come from letters: as many as the board's moves.
        prop_assert_eq!(game.ledger.rows.len(), plies(&game.board));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The calendar looks at a game again on `next_check`'s day and not
    /// before (an idle run loads no game): so no duty may fall due between
    /// a run and that day, whatever the game went through.
    #[test]
    fn no_duty_falls_due_before_the_calendar_looks_again(
        steps in prop::collection::vec(step(), 1..60),
        wait in 0u8..40,
    ) {
        let rules = Rules::default();
        let mut game = replay(&rules, &steps);
        let gaps: i64 = steps.iter().map(|step| i64::from(step.gap)).sum();
        let today = start() + Duration::days(gaps + i64::from(wait));
        // The run of that day does what is due.
        let transition = day(&rules, &game.ledger, today, &game.done);
        game.done.extend(transition.done.iter().cloned());
        let ledger = transition.ledger;
        let next = next_check(&rules, &ledger, today);
        // With no next day, only a letter can bring anything: look 200 days.
        let until = next.unwrap_or(today + Duration::days(200));
        prop_assert!(until > today, "next check {until} not after {today}");
        let mut later = today + Duration::days(1);
        while later < until {
            let found = due(&rules, &ledger, later, &game.done);
            prop_assert!(
                found.is_empty(),
                "{later:?}: {found:?} falls due before the next check {next:?} (run on {today})"
            );
            later += Duration::days(1);
        }
    }
}

#[test]
fn the_random_games_are_played_letters_and_not_refusals_alone() {
    // The generator's ground: letters of the side to move every few days
    // play their moves, with days and corrections charged.
    let steps: Vec<Step> = (0..40)
        .map(|i| Step {
            gap: 3,
            kind: 0,
            pick: i * 7,
            written: if i % 5 == 0 { 0x01 } else { 0 },
        })
        .collect();
    let game = replay(&Rules::default(), &steps);
    assert!(game.said.iter().all(Result::is_ok), "{:?}", game.said);
    assert_eq!(game.ledger.rows.len(), plies(&game.board));
    assert!(game.ledger.rows.len() >= 30, "{}", game.ledger.rows.len());
    let totals = game.ledger.totals();
    assert!(totals.white > 0 && totals.black > 0, "{totals:?}");
}

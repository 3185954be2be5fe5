//! A game's life as a state machine (rules.md 2.3–2.7): each event of a game
//! is a pure transition that takes the game's [`Ledger`], the event and the
//! day, and returns the next ledger with its effects (who must be told
//! what, as facts: [`super::effects`]), or a [`Refusal`] with the ledger
//! untouched.
//!
//! | event | function | clauses |
//! | --- | --- | --- |
//! | a move letter may be taken at all | [`admit_move`] | 10.3.2, 10.3.6 |
//! | a move letter, its moves on the board | [`move_letter`] | 10.3.1, 10.3.3, 10.3.5, 10.3.6 |
//! | a resignation | [`resign`] | 10.3.2 |
//! | a draw accepted | [`accept_draw`] | 10.3.2 |
//! | a protest of an overstep | [`protest`] | 10.3.8 |
//! | the chief arbiter's decision | [`rule`] | 10.3.7 |
//! | a result the chief arbiter sets, or a forfeit | [`award`](super::interventions::award) | 10.3.2, 10.3.7 |
//! | a game annulled on a withdrawal | [`annul`](super::interventions::annul) | the regulation's |
//! | the last letter taken back | [`undo`](super::interventions::undo) | the arbiter's |
//! | a letter of the offender during his suspension | [`offender_letter`] | 10.3.6 |
//! | a day of the calendar | [`day`] | 10.3.2, 10.3.4, 10.3.5, 10.3.8 |

use std::collections::BTreeSet;

use chrono::NaiveDate;
use shakmaty::Color;

use super::calendar::add_days;
use super::deadlines::{Duty, DutyKey, due};
use super::judge::{Incoming, Verdict, judge};
use super::{
    BoardEnd, DayEffect, Decided, Decision, EndReason, Ended, Excused, GameResult, Ledger,
    MoveEffect, OffenderEffect, Outcome, Overstep, Protested, Refusal, Rules, Status, Step,
    Suspension, Transition,
};

impl Suspension {
    /// The last day a protest may bear as its postmark (10.3.8).
    pub fn protest_until(&self, rules: &Rules) -> NaiveDate {
        add_days(self.notice_on, rules.protest_days)
    }
}

impl Ledger {
    pub(super) fn finish(&mut self, outcome: Outcome) {
        self.standing.status = Status::Finished;
        self.standing.suspension = None;
        self.standing.outcome = Some(outcome);
        self.standing.awarded_by = None;
        self.standing.draw_offer = None;
    }

    /// Suspends the game on `overstep`, found on `day` (10.3.6).
    fn suspend(
        &mut self,
        rules: &Rules,
        overstep: Overstep,
        ply: Option<usize>,
        day: NaiveDate,
    ) -> NaiveDate {
        let suspension = Suspension {
            offender: overstep.offender,
            notice_on: day,
            protest_received: false,
            ply,
        };
        self.standing.status = Status::Suspended;
        self.standing.suspension = Some(suspension);
        suspension.protest_until(rules)
    }
}

/// Whether a move letter of `by` may be taken at all: not in a finished
/// game, not past the end date, and during a suspension only the partner's
/// reply, once (10.3.6).
pub fn admit_move(ledger: &Ledger, by: Color) -> Result<(), Refusal> {
    let standing = &ledger.standing;
    match standing.status {
        Status::Finished => Err(finished(ledger)),
        Status::Annulled => Err(Refusal::Annulled),
        Status::Adjudication => Err(Refusal::PastEndDate),
        Status::Suspended => {
            let offender = standing.suspension.map(|s| s.offender);
            if offender == Some(by) || standing.held_reply.is_some() {
                Err(Refusal::Suspended)
            } else {
                Ok(())
            }
        }
        Status::Active => Ok(()),
    }
}

pub(super) fn finished(ledger: &Ledger) -> Refusal {
    Refusal::GameOver(ledger.standing.outcome.unwrap_or(Outcome {
        result: GameResult::Draw,
        reason: EndReason::Agreement,
    }))
}

/// A move letter whose moves the board took: `plies` (the writer's, and the
/// conditional replies played between them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLetter {
    pub incoming: Incoming,
    /// The letter offers a draw.
    pub draw_offer: bool,
    /// The board ended the game with the letter's moves.
    pub end: Option<BoardEnd>,
    /// The partner's variant answered the writer's last move (2.4a).
    pub conditional_reply: bool,
}

/// A move letter (rules.md 2.3–2.5): its [`Verdict`] recorded; a draw offer
/// of the partner declined by the move, one of the writer's standing; then
/// one of four ends: during a suspension the reply is held for the arbiter; a
/// move that ends the game gives the result; an overstep suspends the game;
/// else the receipt and the forward.
pub fn move_letter(
    rules: &Rules,
    ledger: &Ledger,
    letter: &MoveLetter,
    day: NaiveDate,
) -> (Transition<MoveEffect>, Verdict) {
    let by = letter.incoming.by;
    let verdict = judge(rules, ledger, &letter.incoming);
    let first_ply = ledger.rows.len();
    let last_ply = first_ply
        + letter
            .incoming
            .plies
            .iter()
            .rposition(|ply| ply.by == by)
            .unwrap_or(0);
    let mut next = ledger.clone();
    next.record(&verdict);
    // A draw offer stands until the partner answers; his move without an
    // acceptance declines it.
    if next.standing.draw_offer == Some(!by) {
        next.standing.draw_offer = None;
    }
    if letter.draw_offer {
        next.standing.draw_offer = Some(by);
    }
    // The receipt of a reply held during a suspension.
    let withheld = |held| MoveEffect::Receipt {
        held,
        conditional_reply: false,
        partner_direct: false,
    };
    let effects = if ledger.standing.status == Status::Suspended {
        next.standing.held_reply = Some(last_ply);
        vec![
            MoveEffect::Supplement {
                from: by,
                ply: Some(last_ply),
            },
            withheld(true),
        ]
    } else if let Some(end) = letter.end {
        let outcome = end.outcome();
        next.finish(outcome);
        vec![MoveEffect::Result {
            outcome,
            last_ply: Some(last_ply),
        }]
    } else if let Some(overstep) = verdict.overstep {
        // The offender gets the overstep notice only: his move stands and
        // goes to the partner with the hold notice (rules.md 2.5.1).
        let protest_until = next.suspend(rules, overstep, Some(last_ply), day);
        vec![MoveEffect::Overstep {
            overstep,
            ply: Some(last_ply),
            protest_until,
        }]
    } else {
        let direct = letter.incoming.partner_direct;
        let mut effects = vec![MoveEffect::Receipt {
            held: false,
            conditional_reply: letter.conditional_reply,
            partner_direct: direct,
        }];
        if !direct || letter.conditional_reply {
            effects.push(MoveEffect::Forward { to: !by, last_ply });
        } else if !verdict.corrections.is_empty() {
            effects.push(MoveEffect::PartnerCorrection { to: !by });
        }
        effects
    };
    (Transition::of(next, effects), verdict)
}

/// A letter of the offender during his suspension (10.3.6): it changes
/// nothing, goes to the arbiter, and he is told so; `None` for anyone else,
/// or a game not suspended.
pub fn offender_letter(
    rules: &Rules,
    ledger: &Ledger,
    by: Color,
) -> Option<Transition<OffenderEffect>> {
    let suspension = ledger
        .standing
        .suspension
        .filter(|s| s.offender == by && ledger.standing.status == Status::Suspended)?;
    let effects = vec![
        OffenderEffect::Supplement { from: by },
        OffenderEffect::Withheld {
            protest_until: suspension.protest_until(rules),
            protest_received: suspension.protest_received,
        },
    ];
    Some(Transition::of(ledger.clone(), effects))
}

/// Why nothing more is taken in a game that is over, if it is.
fn over(ledger: &Ledger) -> Result<(), Refusal> {
    match ledger.standing.status {
        Status::Finished => Err(finished(ledger)),
        Status::Annulled => Err(Refusal::Annulled),
        _ => Ok(()),
    }
}

/// `by` resigns (10.3.2: a resignation is taken even past the end date).
pub fn resign(ledger: &Ledger, by: Color) -> Result<Step<Ended>, Refusal> {
    over(ledger)?;
    let mut next = ledger.clone();
    let outcome = Outcome {
        result: GameResult::loss_of(by),
        reason: EndReason::Resignation,
    };
    next.finish(outcome);
    Ok(Step {
        ledger: next,
        effect: Ended { outcome },
    })
}

/// `by` accepts a draw: the game is drawn when his partner offered one. With
/// no offer standing, a letter that also moves is a move letter (`Ok(None)`),
/// one that does not is refused.
pub fn accept_draw(
    ledger: &Ledger,
    by: Color,
    moves: bool,
) -> Result<Option<Step<Ended>>, Refusal> {
    over(ledger)?;
    if ledger.standing.draw_offer == Some(!by) {
        let mut next = ledger.clone();
        let outcome = Outcome {
            result: GameResult::Draw,
            reason: EndReason::Agreement,
        };
        next.finish(outcome);
        return Ok(Some(Step {
            ledger: next,
            effect: Ended { outcome },
        }));
    }
    if moves {
        Ok(None)
    } else {
        Err(Refusal::NoDrawOffered)
    }
}

/// A protest of `by`, posted on `postmark` (10.3.8): only the offender
/// protests; one posted after the period is passed on, marked late.
pub fn protest(
    rules: &Rules,
    ledger: &Ledger,
    by: Color,
    postmark: NaiveDate,
) -> Result<Step<Protested>, Refusal> {
    let Some(suspension) = ledger.standing.suspension else {
        return Err(Refusal::NoOverstep);
    };
    if suspension.offender != by {
        return Err(Refusal::NotTheOffender);
    }
    let until = suspension.protest_until(rules);
    let mut next = ledger.clone();
    next.standing.suspension = Some(Suspension {
        protest_received: true,
        ..suspension
    });
    let effect = Protested {
        by,
        late: postmark > until,
        notice_on: suspension.notice_on,
        until,
    };
    Ok(Step {
        ledger: next,
        effect,
    })
}

/// The chief arbiter rules on a suspended game on `day` (10.3.7): confirmed,
/// the offender loses; rejected or continued, play resumes from `day` with
/// the disputed days excused (those he names, else the overstepping move's;
/// no more than were charged to the offender), and the held reply is
/// released.
pub fn rule(
    rules: &Rules,
    ledger: &Ledger,
    ruling: Decision,
    days: Option<u32>,
    day: NaiveDate,
) -> Result<Step<Decided>, Refusal> {
    let Some(suspension) = ledger
        .standing
        .suspension
        .filter(|_| ledger.standing.status == Status::Suspended)
    else {
        return Err(Refusal::NotSuspended);
    };
    let offender = suspension.offender;
    let mut next = ledger.clone();
    let released = ledger.standing.held_reply;
    let mut excused = 0;
    let mut asked = 0;
    match ruling {
        Decision::Confirm => next.finish(Outcome {
            result: GameResult::loss_of(offender),
            reason: EndReason::Overstep,
        }),
        Decision::Reject | Decision::Continue => {
            asked = days.unwrap_or_else(|| {
                suspension
                    .ply
                    .and_then(|ply| ledger.rows.get(ply))
                    .map_or(0, |row| row.days)
            });
            // No more days can be excused than were charged: the days of
            // a silence are never charged (the clock counts again from the
            // decision, 2.5.6), and a credit beyond the total would eat
            // the days of moves not yet made.
            excused = asked.min(ledger.totals().get(offender));
            let standing = &mut next.standing;
            standing.credit.add(offender, excused);
            if excused > 0 {
                standing.excused.push(Excused {
                    by: offender,
                    days: excused,
                    ply: suspension.ply,
                    after: ledger.rows.len(),
                });
            }
            standing.resumed_on = Some(day);
            standing.status = Status::Active;
            standing.suspension = None;
            standing.held_reply = None;
        }
    }
    let released = (ruling != Decision::Confirm).then_some(released).flatten();
    // The decision goes out today: the reply it releases reaches the
    // offender with it.
    let mut delivered = next.clone();
    if let Some(row) = released.and_then(|ply| delivered.rows.get_mut(ply)) {
        row.delivered_on.get_or_insert(day);
    }
    let effect = Decided {
        decision: ruling,
        offender,
        released,
        excused,
        asked,
        due: delivered.due(rules, day),
    };
    Ok(Step {
        ledger: next,
        effect,
    })
}

/// A day of the calendar (rules.md 2.6): the duties due on `today` that are
/// not in `done`, each an effect; a silence that passes the limit suspends
/// the game, the end date sends it to adjudication.
pub fn day(
    rules: &Rules,
    ledger: &Ledger,
    today: NaiveDate,
    done: &BTreeSet<DutyKey>,
) -> Transition<DayEffect> {
    let mut next = ledger.clone();
    let mut effects = Vec::new();
    let mut keys = Vec::new();
    for duty in due(rules, ledger, today, done) {
        keys.push(duty.key(ledger));
        let effect = match duty {
            Duty::Repeat { row, author } => {
                let first = ledger.rows[..=row]
                    .iter()
                    .rposition(|r| r.letter.is_some())
                    .unwrap_or(row);
                DayEffect::Repeat {
                    first,
                    last: row,
                    author,
                    totals: ledger.totals_through(row),
                }
            }
            Duty::FirstMoveQuery => DayEffect::Query,
            Duty::Reminder {
                player,
                threshold,
                days_left,
            } => DayEffect::Reminder {
                player,
                threshold,
                days_left,
            },
            Duty::SilentOverstep(overstep) => DayEffect::Overstep {
                overstep,
                ply: None,
                protest_until: next.suspend(rules, overstep, None, today),
            },
            Duty::NoProtest {
                offender,
                notice_on,
            } => DayEffect::NoProtest {
                offender,
                notice_on,
                until: ledger
                    .standing
                    .suspension
                    .map_or(notice_on, |s| s.protest_until(rules)),
            },
            Duty::Adjudication => {
                next.standing.status = Status::Adjudication;
                DayEffect::Adjudication
            }
            Duty::GameStart => DayEffect::GameStart,
        };
        effects.push(effect);
    }
    Transition {
        ledger: next,
        effects,
        done: keys,
    }
}

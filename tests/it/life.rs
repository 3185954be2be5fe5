//! Tables over the transitions of a game's life (`rules::life`): a ledger, an
//! event and a day give the next ledger's status and result and the effects,
//! or a refusal with the ledger untouched. No mail, no database.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use shakmaty::Color;
use shtempel::rules::interventions::{self, AwardedBy};
use shtempel::rules::life::{self, admit_move, move_letter};
use shtempel::rules::{
    Annulled, Awarded, BoardEnd, Calendar, DayEffect, Decided, Decision, EndReason, Ended, Excused,
    GameResult, Incoming, Ledger, MoveEffect, MoveLetter, NewPly, OffenderEffect, Outcome,
    Protested, Refusal, Row, Rules, Stated, Status, Step, Suspension, Transition, Undone,
};

const WHITE: Color = Color::White;
const BLACK: Color = Color::Black;

fn d(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

/// A game of `plies` plies, two days each, delivered on their postmarks,
/// from 2026-11-02 on.
fn game(plies: usize) -> Ledger {
    let mut ledger = Ledger::new(Calendar::on_time(d("2026-11-01"), d("2028-11-01")));
    for ply in 0..plies {
        let day = d("2026-11-02") + chrono::Duration::days(2 * ply as i64);
        ledger.rows.push(Row {
            by: if ply % 2 == 0 { WHITE } else { BLACK },
            san: format!("m{ply}"),
            conditional: false,
            sent_on: day,
            delivered_on: Some(day),
            days: 2,
            penalty: 0,
            letter: None,
        });
    }
    ledger
}

fn suspended(ledger: Ledger, offender: Color, notice_on: &str) -> Ledger {
    let mut ledger = ledger;
    ledger.standing.status = Status::Suspended;
    ledger.standing.suspension = Some(Suspension {
        offender,
        notice_on: d(notice_on),
        protest_received: false,
        ply: ledger.rows.len().checked_sub(1),
    });
    ledger
}

fn finished(ledger: Ledger, result: GameResult, reason: EndReason) -> Ledger {
    let mut ledger = ledger;
    ledger.standing.status = Status::Finished;
    ledger.standing.outcome = Some(Outcome { result, reason });
    ledger
}

fn offered(ledger: Ledger, by: Color) -> Ledger {
    let mut ledger = ledger;
    ledger.standing.draw_offer = Some(by);
    ledger
}

/// An effect by its name, for compact rows.
trait Named {
    fn name(&self) -> &'static str;
}

impl Named for MoveEffect {
    fn name(&self) -> &'static str {
        match self {
            MoveEffect::Receipt { held: true, .. } => "receipt(held)",
            MoveEffect::Receipt { .. } => "receipt",
            MoveEffect::Forward { .. } => "forward",
            MoveEffect::Result { .. } => "result",
            MoveEffect::Overstep { .. } => "overstep",
            MoveEffect::Supplement { .. } => "supplement",
            MoveEffect::PartnerCorrection { .. } => "partner-correction",
        }
    }
}

impl Named for DayEffect {
    fn name(&self) -> &'static str {
        match self {
            DayEffect::Repeat { .. } => "repeat",
            DayEffect::Query => "query",
            DayEffect::GameStart => "start",
            DayEffect::Reminder { .. } => "reminder",
            DayEffect::Overstep { .. } => "overstep",
            DayEffect::NoProtest { .. } => "no-protest",
            DayEffect::Adjudication => "adjudication",
        }
    }
}

impl Named for OffenderEffect {
    fn name(&self) -> &'static str {
        match self {
            OffenderEffect::Supplement { .. } => "supplement",
            OffenderEffect::Withheld { .. } => "withheld",
        }
    }
}

impl Named for Protested {
    fn name(&self) -> &'static str {
        match self.late {
            true => "protest(late)",
            false => "protest",
        }
    }
}

impl Named for Decided {
    fn name(&self) -> &'static str {
        "decision"
    }
}

impl Named for Undone {
    fn name(&self) -> &'static str {
        "undone"
    }
}

impl Named for Awarded {
    fn name(&self) -> &'static str {
        match self.previous {
            None => "award",
            Some(_) => "award(replaces)",
        }
    }
}

impl Named for Ended {
    fn name(&self) -> &'static str {
        "result"
    }
}

impl Named for Annulled {
    fn name(&self) -> &'static str {
        "annulled"
    }
}

fn names<E: Named>(effects: &[E]) -> Vec<&'static str> {
    effects.iter().map(Named::name).collect()
}

/// What a transition must give.
#[derive(Debug, PartialEq)]
enum Expect {
    Next {
        status: Status,
        result: Option<GameResult>,
        effects: Vec<&'static str>,
    },
    Refused(Refusal),
}

fn next(status: Status, result: Option<GameResult>, effects: &[&'static str]) -> Expect {
    Expect::Next {
        status,
        result,
        effects: effects.to_vec(),
    }
}

fn outcome_of<E: Named>(transition: Result<Transition<E>, Refusal>) -> Expect {
    match transition {
        Ok(t) => Expect::Next {
            status: t.ledger.standing.status,
            result: t.ledger.standing.outcome.map(|o| o.result),
            effects: names(&t.effects),
        },
        Err(refusal) => Expect::Refused(refusal),
    }
}

const OVER: Outcome = Outcome {
    result: GameResult::WhiteWins,
    reason: EndReason::Checkmate,
};

#[test]
fn resignation_table() {
    use GameResult::*;
    let table: Vec<(&str, Ledger, Color, Expect)> = vec![
        (
            "White resigns",
            game(4),
            WHITE,
            next(Status::Finished, Some(BlackWins), &["result"]),
        ),
        (
            "Black resigns",
            game(5),
            BLACK,
            next(Status::Finished, Some(WhiteWins), &["result"]),
        ),
        (
            "past the end date a resignation is taken (10.3.2)",
            {
                let mut l = game(4);
                l.standing.status = Status::Adjudication;
                l
            },
            BLACK,
            next(Status::Finished, Some(WhiteWins), &["result"]),
        ),
        (
            "during a suspension the offender may resign",
            suspended(game(5), BLACK, "2026-12-20"),
            BLACK,
            next(Status::Finished, Some(WhiteWins), &["result"]),
        ),
        (
            "a finished game: the game is over, with its result",
            finished(game(6), WhiteWins, EndReason::Checkmate),
            BLACK,
            Expect::Refused(Refusal::GameOver(OVER)),
        ),
    ];
    for (what, ledger, by, expected) in table {
        assert_eq!(
            outcome_of(life::resign(&ledger, by).map(Step::into_transition)),
            expected,
            "{what}"
        );
    }
}

#[test]
fn draw_acceptance_table() {
    use GameResult::*;
    let table: Vec<(&str, Ledger, Color, bool, Option<Expect>)> = vec![
        (
            "the partner's offer accepted",
            offered(game(4), BLACK),
            WHITE,
            false,
            Some(next(Status::Finished, Some(Draw), &["result"])),
        ),
        (
            "no offer, no moves: refused",
            game(4),
            WHITE,
            false,
            Some(Expect::Refused(Refusal::NoDrawOffered)),
        ),
        (
            "one's own offer is not the partner's",
            offered(game(4), WHITE),
            WHITE,
            false,
            Some(Expect::Refused(Refusal::NoDrawOffered)),
        ),
        (
            "no offer, with moves: a move letter",
            game(4),
            WHITE,
            true,
            None,
        ),
        (
            "a finished game: over",
            finished(offered(game(6), BLACK), WhiteWins, EndReason::Checkmate),
            WHITE,
            false,
            Some(Expect::Refused(Refusal::GameOver(OVER))),
        ),
    ];
    for (what, ledger, by, moves, expected) in table {
        let got = match life::accept_draw(&ledger, by, moves) {
            Ok(Some(ended)) => Some(outcome_of(Ok(ended.into_transition()))),
            Ok(None) => None,
            Err(refusal) => Some(Expect::Refused(refusal)),
        };
        assert_eq!(got, expected, "{what}");
    }
}

#[test]
fn admission_of_move_letters_table() {
    let table: Vec<(&str, Ledger, Color, Result<(), Refusal>)> = vec![
        ("an active game", game(4), WHITE, Ok(())),
        (
            "finished",
            finished(game(6), GameResult::WhiteWins, EndReason::Checkmate),
            BLACK,
            Err(Refusal::GameOver(OVER)),
        ),
        (
            "past the end date",
            {
                let mut l = game(4);
                l.standing.status = Status::Adjudication;
                l
            },
            WHITE,
            Err(Refusal::PastEndDate),
        ),
        (
            "suspended: the offender",
            suspended(game(5), BLACK, "2026-12-20"),
            BLACK,
            Err(Refusal::Suspended),
        ),
        (
            "suspended: the partner's reply is taken (to be held)",
            suspended(game(5), BLACK, "2026-12-20"),
            WHITE,
            Ok(()),
        ),
        (
            "suspended: a second reply of the partner",
            {
                let mut l = suspended(game(5), BLACK, "2026-12-20");
                l.standing.held_reply = Some(5);
                l
            },
            WHITE,
            Err(Refusal::Suspended),
        ),
    ];
    for (what, ledger, by, expected) in table {
        assert_eq!(admit_move(&ledger, by), expected, "{what}");
    }
}

/// A letter of `by` posted on `sent_on` with one move, stating nothing.
fn letter(by: Color, sent_on: &str) -> MoveLetter {
    MoveLetter {
        incoming: Incoming {
            by,
            sent_on: d(sent_on),
            stated: Stated::default(),
            plies: vec![NewPly {
                by,
                san: "x".into(),
                conditional: false,
            }],
            partner_direct: false,
            channel: shtempel::rules::Channel::Letter,
        },
        draw_offer: false,
        end: None,
        conditional_reply: false,
    }
}

#[test]
fn move_letter_table() {
    let rules = Rules::default();
    let day = d("2026-11-20");
    let with = |f: fn(&mut MoveLetter)| {
        let mut l = letter(WHITE, "2026-11-20");
        f(&mut l);
        l
    };
    let table: Vec<(&str, Ledger, MoveLetter, Expect)> = vec![
        (
            "a move: the receipt and the forward",
            game(4),
            letter(WHITE, "2026-11-12"),
            next(Status::Active, None, &["receipt", "forward"]),
        ),
        (
            "the partner in copy: no forward",
            game(4),
            with(|l| l.incoming.partner_direct = true),
            next(Status::Active, None, &["receipt"]),
        ),
        (
            "the partner in copy, a conditional reply played: the forward tells him",
            game(4),
            with(|l| {
                l.incoming.partner_direct = true;
                l.conditional_reply = true;
            }),
            next(Status::Active, None, &["receipt", "forward"]),
        ),
        (
            "mate: the result only",
            game(4),
            with(|l| l.end = Some(BoardEnd::Checkmate { winner: WHITE })),
            next(Status::Finished, Some(GameResult::WhiteWins), &["result"]),
        ),
        (
            "stalemate: a draw",
            game(4),
            with(|l| l.end = Some(BoardEnd::Stalemate)),
            next(Status::Finished, Some(GameResult::Draw), &["result"]),
        ),
        (
            "over 50 days on the first move: the game is suspended, the notice the offender's only answer",
            game(4),
            letter(WHITE, "2027-01-20"),
            next(Status::Suspended, None, &["overstep"]),
        ),
        (
            "the partner's reply during a suspension is held for the arbiter",
            suspended(game(5), BLACK, "2026-12-20"),
            letter(WHITE, "2026-12-22"),
            next(Status::Suspended, None, &["supplement", "receipt(held)"]),
        ),
    ];
    for (what, ledger, letter, expected) in table {
        let (t, _) = move_letter(&rules, &ledger, &letter, day);
        assert_eq!(outcome_of(Ok(t)), expected, "{what}");
    }

    // Draw offers: the partner's is declined by a move, one's own stands.
    let (t, _) = move_letter(
        &rules,
        &offered(game(4), BLACK),
        &letter(WHITE, "2026-11-12"),
        day,
    );
    assert_eq!(t.ledger.standing.draw_offer, None);
    let (t, _) = move_letter(&rules, &game(4), &with(|l| l.draw_offer = true), day);
    assert_eq!(t.ledger.standing.draw_offer, Some(WHITE));
    // A held reply is the last ply.
    let (t, _) = move_letter(
        &rules,
        &suspended(game(5), BLACK, "2026-12-20"),
        &letter(WHITE, "2026-12-22"),
        day,
    );
    assert_eq!(t.ledger.standing.held_reply, Some(5));
}

#[test]
fn protest_table() {
    let rules = Rules::default();
    let table: Vec<(&str, Ledger, Color, &str, Expect)> = vec![
        (
            "within ten days of the notice",
            suspended(game(5), BLACK, "2026-12-20"),
            BLACK,
            "2026-12-30",
            next(Status::Suspended, None, &["protest"]),
        ),
        (
            "after the tenth day: passed on, marked late",
            suspended(game(5), BLACK, "2026-12-20"),
            BLACK,
            "2026-12-31",
            next(Status::Suspended, None, &["protest(late)"]),
        ),
        (
            "from the claimant",
            suspended(game(5), BLACK, "2026-12-20"),
            WHITE,
            "2026-12-22",
            Expect::Refused(Refusal::NotTheOffender),
        ),
        (
            "with no overstep declared",
            game(5),
            BLACK,
            "2026-12-22",
            Expect::Refused(Refusal::NoOverstep),
        ),
    ];
    for (what, ledger, by, postmark, expected) in table {
        let got = life::protest(&rules, &ledger, by, d(postmark));
        if let Ok(t) = &got {
            assert!(
                t.ledger.standing.suspension.unwrap().protest_received,
                "{what}"
            );
        }
        assert_eq!(
            outcome_of(got.map(Step::into_transition)),
            expected,
            "{what}"
        );
    }
}

#[test]
fn ruling_table() {
    let day = d("2027-01-05");
    let mut held = suspended(game(6), BLACK, "2026-12-20");
    held.standing.held_reply = Some(5);
    // (what, ledger, decision, days named, expected, days excused, reply released)
    type Case = (
        &'static str,
        Ledger,
        Decision,
        Option<u32>,
        Expect,
        u32,
        Option<usize>,
    );
    let table: Vec<Case> = vec![
        (
            "confirmed: the offender loses",
            held.clone(),
            Decision::Confirm,
            None,
            next(Status::Finished, Some(GameResult::WhiteWins), &["decision"]),
            0,
            None,
        ),
        (
            "rejected: play resumes, the overstepping move's days excused, the held reply released",
            held.clone(),
            Decision::Reject,
            None,
            next(Status::Active, None, &["decision"]),
            2,
            Some(5),
        ),
        (
            "continued with the days the arbiter names",
            held.clone(),
            Decision::Continue,
            Some(5),
            next(Status::Active, None, &["decision"]),
            5,
            Some(5),
        ),
        (
            "more days named than were charged: the 6 charged are excused",
            held.clone(),
            Decision::Reject,
            Some(30),
            next(Status::Active, None, &["decision"]),
            6,
            Some(5),
        ),
        (
            "no suspension: nothing to decide",
            game(6),
            Decision::Confirm,
            None,
            Expect::Refused(Refusal::NotSuspended),
            0,
            None,
        ),
    ];
    for (what, ledger, decision, days, expected, excused, released) in table {
        let got = life::rule(&Rules::default(), &ledger, decision, days, day);
        if let Ok(t) = &got {
            let Decided {
                excused: e,
                released: r,
                ..
            } = t.effect;
            assert_eq!((e, r), (excused, released), "{what}");
            if t.ledger.standing.status == Status::Active {
                assert_eq!(t.ledger.standing.resumed_on, Some(day), "{what}");
                assert_eq!(t.ledger.standing.credit.black, excused, "{what}");
                // Itemized at the move that overstepped, for the PGN.
                let at_move = Excused {
                    by: BLACK,
                    days: excused,
                    ply: Some(5),
                    after: 6,
                };
                assert_eq!(t.ledger.standing.excused, [at_move], "{what}");
                assert_eq!(t.ledger.standing.excused[0].at(&t.ledger.rows), Some(5));
                assert_eq!(t.ledger.standing.held_reply, None, "{what}");
            }
        }
        assert_eq!(
            outcome_of(got.map(Step::into_transition)),
            expected,
            "{what}"
        );
    }
}

/// Where excused days are shown: at the move that overstepped; after a
/// silence, at the offender's first move from the decision on, none
/// before he makes it; none at a move taken back.
#[test]
fn excused_days_belong_to_a_move() {
    let silence = |after| Excused {
        by: WHITE,
        days: 5,
        ply: None,
        after,
    };
    let letter = Excused {
        ply: Some(3),
        ..silence(4)
    };
    let table = [
        ("the overstepping move", letter.clone(), 6, Some(3)),
        ("that move taken back", letter, 3, None),
        ("silence, White's next move made", silence(4), 6, Some(4)),
        (
            "silence, Black moved first from there",
            silence(3),
            6,
            Some(4),
        ),
        ("silence, no move of White's yet", silence(4), 4, None),
    ];
    for (what, excused, plies, at) in table {
        assert_eq!(excused.at(&game(plies).rows), at, "{what}");
    }
}

#[test]
fn day_table() {
    let rules = Rules::default();
    let none = BTreeSet::new();
    let table: Vec<(&str, Ledger, &str, Expect)> = vec![
        (
            "nothing due",
            game(1),
            "2026-11-10",
            next(Status::Active, None, &[]),
        ),
        (
            "no first move 30 days after the start",
            game(0),
            "2026-12-01",
            next(Status::Active, None, &["query"]),
        ),
        (
            "40 days without an answer, 10 left",
            game(1),
            "2026-12-12",
            next(Status::Active, None, &["repeat", "reminder"]),
        ),
        (
            "a silence past the limit suspends the game",
            game(1),
            "2026-12-23",
            next(Status::Suspended, None, &["repeat", "overstep"]),
        ),
        (
            "the protest period over without a protest",
            suspended(game(5), BLACK, "2026-12-20"),
            "2026-12-31",
            next(Status::Suspended, None, &["no-protest"]),
        ),
        (
            "the end date without a result",
            game(5),
            "2028-11-01",
            next(Status::Adjudication, None, &["adjudication"]),
        ),
        (
            "a finished game has no duties",
            finished(game(6), GameResult::WhiteWins, EndReason::Checkmate),
            "2028-11-01",
            next(Status::Finished, Some(GameResult::WhiteWins), &[]),
        ),
    ];
    for (what, ledger, today, expected) in table {
        let t = life::day(&rules, &ledger, d(today), &none);
        assert_eq!(
            t.done.len(),
            t.effects.len(),
            "{what}: every duty recorded once"
        );
        assert_eq!(outcome_of(Ok(t)), expected, "{what}");
    }
}

/// After a ruling resumes play, the clock restarts
/// from the ruling and the game is reminded and declared again, as any other.
#[test]
fn a_resumed_game_is_reminded_and_declared_again() {
    let rules = Rules::default();
    let mut ledger = game(1);
    let mut done = BTreeSet::new();
    let day = |ledger: &mut Ledger, done: &mut BTreeSet<_>, today: &str| {
        let t = life::day(&rules, ledger, d(today), done);
        *ledger = t.ledger.clone();
        done.extend(t.done.iter().cloned());
        names(&t.effects)
    };
    // Black's clock runs from 2 November: 10 days left on 12 December.
    assert_eq!(
        day(&mut ledger, &mut done, "2026-12-12"),
        ["repeat", "reminder"]
    );
    assert_eq!(day(&mut ledger, &mut done, "2026-12-19"), ["reminder"]);
    assert_eq!(day(&mut ledger, &mut done, "2026-12-23"), ["overstep"]);
    for ruling in [Decision::Continue, Decision::Reject] {
        let mut resumed = life::rule(&rules, &ledger, ruling, None, d("2026-12-28"))
            .unwrap()
            .ledger;
        let mut done = done.clone();
        assert_eq!(
            day(&mut resumed, &mut done, "2027-02-05"),
            Vec::<&str>::new()
        );
        // 50 days from 28 December: 10 left on 6 February, 3 on the 13th,
        // past the limit on the 17th.
        assert_eq!(
            day(&mut resumed, &mut done, "2027-02-06"),
            ["reminder"],
            "{ruling:?}"
        );
        assert_eq!(
            day(&mut resumed, &mut done, "2027-02-13"),
            ["reminder"],
            "{ruling:?}"
        );
        assert_eq!(
            day(&mut resumed, &mut done, "2027-02-16"),
            Vec::<&str>::new()
        );
        assert_eq!(
            day(&mut resumed, &mut done, "2027-02-17"),
            ["overstep"],
            "{ruling:?}"
        );
        assert_eq!(resumed.standing.status, Status::Suspended);
    }
}

/// A game added during the tournament counts from its
/// own start: no query, no silence before it, and its players told once.
#[test]
fn a_game_added_later_counts_from_its_own_start() {
    let rules = Rules::default();
    let calendar = Calendar::on_time(d("2027-02-01"), d("2028-11-01")).starting(d("2026-11-01"));
    assert!(calendar.late_start);
    let ledger = Ledger::new(calendar);
    let none = BTreeSet::new();
    let on = |today: &str, done: &BTreeSet<_>| {
        names(&life::day(&rules, &ledger, d(today), done).effects)
    };
    // Before its start: nothing, though the tournament is 90 days old.
    assert_eq!(on("2027-01-30", &none), Vec::<&str>::new());
    assert_eq!(on("2027-02-01", &none), ["start"]);
    let started: BTreeSet<_> = life::day(&rules, &ledger, d("2027-02-01"), &none)
        .done
        .into_iter()
        .collect();
    assert_eq!(on("2027-02-02", &started), Vec::<&str>::new());
    // The first-move query 30 days after its own start, not the tournament's.
    assert_eq!(on("2027-03-03", &started), ["query"]);
    assert_eq!(ledger.due(&rules, d("2027-01-30")), None);
    assert_eq!(
        ledger.due(&rules, d("2027-02-11")).map(|due| due.days_left),
        Some(40)
    );
}

#[test]
fn award_table() {
    use GameResult::*;
    let past_end = {
        let mut l = game(8);
        l.standing.status = Status::Adjudication;
        l
    };
    // (what, ledger, result, forfeit, expected, the reason it ends with)
    type Row = (
        &'static str,
        Ledger,
        GameResult,
        bool,
        Expect,
        Option<EndReason>,
    );
    let table: Vec<Row> = vec![
        (
            "a game under way is given its result",
            game(6),
            Draw,
            false,
            next(Status::Finished, Some(Draw), &["award"]),
            Some(EndReason::Ruling),
        ),
        (
            "past the end date: the adjudication (10.3.2)",
            past_end,
            WhiteWins,
            false,
            next(Status::Finished, Some(WhiteWins), &["award"]),
            Some(EndReason::Adjudication),
        ),
        (
            "a suspended game ends, its held reply with it",
            {
                let mut l = suspended(game(5), BLACK, "2026-12-20");
                l.standing.held_reply = Some(4);
                l
            },
            BlackWins,
            true,
            next(Status::Finished, Some(BlackWins), &["award"]),
            Some(EndReason::Forfeit),
        ),
        (
            "a finished game's result is replaced",
            finished(game(6), WhiteWins, EndReason::Checkmate),
            BlackWins,
            false,
            next(Status::Finished, Some(BlackWins), &["award(replaces)"]),
            Some(EndReason::Ruling),
        ),
        (
            "a result becomes a forfeit",
            finished(game(6), WhiteWins, EndReason::Ruling),
            WhiteWins,
            true,
            next(Status::Finished, Some(WhiteWins), &["award(replaces)"]),
            Some(EndReason::Forfeit),
        ),
        (
            "the same result again changes nothing",
            finished(game(6), WhiteWins, EndReason::Forfeit),
            WhiteWins,
            true,
            Expect::Refused(Refusal::SameResult(Outcome {
                result: WhiteWins,
                reason: EndReason::Forfeit,
            })),
            None,
        ),
    ];
    for (what, ledger, result, forfeit, expected, reason) in table {
        let scored = match forfeit {
            true => interventions::Scored::Forfeit(result),
            false => interventions::Scored::Result(result),
        };
        let transition = interventions::award(&ledger, scored, AwardedBy::Director);
        if let Ok(t) = &transition {
            let standing = &t.ledger.standing;
            assert_eq!(standing.outcome.map(|o| o.reason), reason, "{what}");
            assert_eq!(
                standing.awarded_by,
                Some(AwardedBy::Director),
                "{what}: who"
            );
            assert_eq!(
                (
                    standing.suspension,
                    standing.held_reply,
                    t.ledger.rows.len()
                ),
                (None, None, ledger.rows.len()),
                "{what}: no suspension, no held reply, the moves kept"
            );
        }
        assert_eq!(
            outcome_of(transition.map(Step::into_transition)),
            expected,
            "{what}"
        );
    }
}

#[test]
fn annulment_table() {
    use GameResult::*;
    let table: Vec<(&str, Ledger, Expect)> = vec![
        (
            "a game under way",
            game(4),
            next(Status::Annulled, None, &["annulled"]),
        ),
        (
            "a finished game: its result no longer counts",
            finished(game(6), WhiteWins, EndReason::Checkmate),
            next(Status::Annulled, None, &["annulled"]),
        ),
        (
            "a suspended game, its held reply with it",
            {
                let mut l = suspended(game(5), BLACK, "2026-12-20");
                l.standing.held_reply = Some(4);
                l
            },
            next(Status::Annulled, None, &["annulled"]),
        ),
        (
            "annulled once only",
            {
                let mut l = game(4);
                l.standing.status = Status::Annulled;
                l
            },
            Expect::Refused(Refusal::Annulled),
        ),
    ];
    for (what, ledger, expected) in table {
        let transition = interventions::annul(&ledger);
        if let Ok(t) = &transition {
            let standing = &t.ledger.standing;
            assert_eq!(
                (
                    standing.suspension,
                    standing.held_reply,
                    standing.draw_offer
                ),
                (None, None, None),
                "{what}"
            );
        }
        let transition = transition.map(Step::into_transition);
        assert_eq!(outcome_of(transition), expected, "{what}");
    }
    // Nothing more is taken in it.
    let mut annulled = game(4);
    annulled.standing.status = Status::Annulled;
    assert_eq!(life::resign(&annulled, WHITE), Err(Refusal::Annulled));
    assert_eq!(admit_move(&annulled, WHITE), Err(Refusal::Annulled));
    assert_eq!(
        life::accept_draw(&annulled, WHITE, false),
        Err(Refusal::Annulled)
    );
}

/// `game(plies)` with each ply the first move of a letter of its own, as a
/// move letter's rows are.
fn lettered(plies: usize) -> Ledger {
    let mut ledger = game(plies);
    for row in &mut ledger.rows {
        row.letter = Some(shtempel::rules::LetterFacts {
            expected: shtempel::rules::Expected {
                partner_postmark: None,
                received: None,
                sent: row.sent_on,
            },
            omission: false,
            missing_dates: Vec::new(),
        });
    }
    ledger
}

#[test]
fn undo_table() {
    use GameResult::*;
    let rules = Rules::default();
    let today = d("2026-11-20");
    // (what, ledger, plies left after, expected)
    let table: Vec<(&str, Ledger, usize, Expect)> = vec![
        (
            "the last letter's move goes; the game is under way",
            lettered(4),
            3,
            next(Status::Active, None, &["undone"]),
        ),
        (
            "with the reply the clerk played from a variant after it",
            {
                let mut l = lettered(4);
                l.rows[3].letter = None;
                l.rows[3].conditional = true;
                l
            },
            2,
            next(Status::Active, None, &["undone"]),
        ),
        (
            "a mate taken back: play goes on",
            finished(lettered(5), WhiteWins, EndReason::Checkmate),
            4,
            next(Status::Active, None, &["undone"]),
        ),
        (
            "a resignation is not a letter's move: for a ruling",
            finished(lettered(5), BlackWins, EndReason::Resignation),
            5,
            Expect::Refused(Refusal::GameOver(Outcome {
                result: BlackWins,
                reason: EndReason::Resignation,
            })),
        ),
        (
            "a suspended game is the arbiter's decision",
            suspended(lettered(5), BLACK, "2026-11-18"),
            5,
            Expect::Refused(Refusal::Suspended),
        ),
        (
            "no move yet",
            lettered(0),
            0,
            Expect::Refused(Refusal::NothingToUndo),
        ),
    ];
    for (what, ledger, left, expected) in table {
        let transition = interventions::undo(&rules, &ledger, today);
        let rows = transition
            .as_ref()
            .map_or(ledger.rows.len(), |t| t.ledger.rows.len());
        assert_eq!(rows, left, "{what}");
        assert_eq!(
            outcome_of(transition.map(Step::into_transition)),
            expected,
            "{what}"
        );
    }
    // The author's draw offer goes with his letter; the days he was
    // charged are his again: Black to move after his 2... is taken back.
    let undone = interventions::undo(&rules, &offered(lettered(4), BLACK), today).unwrap();
    assert_eq!(undone.ledger.standing.draw_offer, None);
    let Undone { first, author, due } = undone.effect;
    assert_eq!((first, author), (3, BLACK));
    assert_eq!(due.map(|due| due.player), Some(BLACK));
}

/// The last day a player may send his move on stays that day as the days
/// go by, and after it too (before a poll declares the overstep): a past
/// last day is shown as past (days left below zero), never as today.
#[test]
fn the_last_day_stays_the_last_day_after_it_has_passed() {
    let rules = Rules::default();
    let ledger = game(1);
    let last = ledger.due(&rules, d("2026-11-10")).unwrap().last_day;
    assert!(last > d("2026-12-01"), "{last}");
    let mut day = d("2026-11-10");
    while day <= last + chrono::Duration::days(5) {
        let due = ledger.due(&rules, day).unwrap();
        assert_eq!(due.player, BLACK);
        assert_eq!(due.last_day, last, "on {day}");
        assert_eq!(due.days_left < 0, day > last, "on {day}: {}", due.days_left);
        day += chrono::Duration::days(1);
    }
}

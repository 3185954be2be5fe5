//! Table tests over the pure core: every clause of rules.md, the worked example
//! of its section 3 to the day, and the deadlines of 2.6.

use std::collections::BTreeSet;

use chrono::NaiveDate;
use shakmaty::{ByColor, Color};
use shtempel::game::Game;
use shtempel::letter;
use shtempel::rules::{
    Calendar, Channel, Correction, DateItem, Duty, DutyKey, Fraction, Incoming, Item, Ledger,
    NewPly, Omission, Row, Rules, Stated, StatedDates, Status, Suspension, Verdict, due, judge,
};

const WHITE: Color = Color::White;
const BLACK: Color = Color::Black;

fn d(text: &str) -> NaiveDate {
    text.parse()
        .unwrap_or_else(|_| panic!("bad date in test: {text}"))
}

fn calendar() -> Calendar {
    Calendar::on_time(d("2026-11-01"), d("2028-11-01"))
}

/// Everything stated correctly unless a test changes it.
struct Letter {
    by: Color,
    sent_on: &'static str,
    postmark: Option<&'static str>,
    received: Option<&'static str>,
    sent: Option<&'static str>,
    fraction: Option<(u32, u32)>,
    previous: Option<[&'static str; 3]>,
    /// Dates given without saying which they are.
    unplaced: Vec<&'static str>,
    /// `Previous dates:` with fewer than three.
    previous_unplaced: Vec<&'static str>,
    plies: Vec<(Color, &'static str, bool)>,
    direct: bool,
    channel: Channel,
}

fn letter(by: Color, sent_on: &'static str) -> Letter {
    Letter {
        by,
        sent_on,
        postmark: None,
        received: None,
        sent: Some(sent_on),
        fraction: None,
        previous: None,
        unplaced: Vec::new(),
        previous_unplaced: Vec::new(),
        plies: vec![(by, "move", false)],
        direct: false,
        channel: Channel::Letter,
    }
}

impl Letter {
    fn dates(mut self, postmark: &'static str, received: &'static str, sent: &'static str) -> Self {
        self.postmark = Some(postmark);
        self.received = Some(received);
        self.sent = Some(sent);
        self
    }
    /// Only these dates, in this order, without labels.
    fn only_dates(mut self, dates: &[&'static str]) -> Self {
        (self.postmark, self.received, self.sent) = (None, None, None);
        self.unplaced = dates.to_vec();
        self
    }
    fn time(mut self, white: u32, black: u32) -> Self {
        self.fraction = Some((white, black));
        self
    }
    /// A move the Xfcc server took: it states nothing.
    fn by_xfcc(mut self, shown_on: Option<&'static str>) -> Self {
        (self.postmark, self.received, self.sent) = (None, None, None);
        self.channel = Channel::Xfcc {
            shown_on: shown_on.map(d),
        };
        self
    }
    fn incoming(&self) -> Incoming {
        let dates = StatedDates {
            postmark: self.postmark.map(d),
            received: self.received.map(d),
            sent: self.sent.map(d),
            unplaced: self.unplaced.iter().map(|day| d(day)).collect(),
        };
        let previous = match (self.previous, self.previous_unplaced.as_slice()) {
            (Some([p, r, s]), _) => Some(StatedDates {
                postmark: Some(d(p)),
                received: Some(d(r)),
                sent: Some(d(s)),
                unplaced: Vec::new(),
            }),
            (None, []) => None,
            (None, days) => Some(StatedDates {
                unplaced: days.iter().map(|day| d(day)).collect(),
                ..StatedDates::default()
            }),
        };
        Incoming {
            by: self.by,
            sent_on: d(self.sent_on),
            stated: Stated {
                dates,
                fraction: self
                    .fraction
                    .map(|(white, black)| Fraction { white, black }),
                previous,
            },
            plies: self
                .plies
                .iter()
                .map(|&(by, san, conditional)| NewPly {
                    by,
                    san: san.to_string(),
                    conditional,
                })
                .collect(),
            partner_direct: self.direct,
            channel: self.channel,
        }
    }
}

/// Judges a letter, records it, and delivers its last move on `delivered`.
fn play(rules: &Rules, ledger: &mut Ledger, letter: &Letter, delivered: Option<&str>) -> Verdict {
    let verdict = judge(rules, ledger, &letter.incoming());
    ledger.record(&verdict);
    if let Some(day) = delivered {
        ledger.delivered(d(day));
    }
    verdict
}

/// A ledger of moves alternating from White, each with its days and delivered
/// the day it was sent.
fn ledger_of(days: &[(u32, u32)]) -> Ledger {
    let mut ledger = Ledger::new(calendar());
    let mut day = d("2026-11-01");
    for (ply, &(days, penalty)) in days.iter().enumerate() {
        day = day.succ_opt().unwrap();
        ledger.rows.push(Row {
            by: if ply.is_multiple_of(2) { WHITE } else { BLACK },
            san: format!("m{ply}"),
            conditional: false,
            sent_on: day,
            delivered_on: Some(day),
            days,
            penalty,
            letter: None,
        });
    }
    ledger
}

#[test]
fn worked_example_of_section_3() {
    let rules = Rules::default();
    let mut ledger = Ledger::new(calendar());

    // 1. White sends 1. e4, postmark 2026-11-03: t = 2, totals 2/0; forwarded that day.
    let v = play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-03").time(2, 0),
        Some("2026-11-03"),
    );
    assert_eq!((v.days, v.totals), (2, Fraction { white: 2, black: 0 }));
    assert!(v.corrections.is_empty() && v.omission.is_none() && v.overstep.is_none());

    // 2. Black answers 1... e5 with d1 03.11, d2 03.11, d3 2026-11-07, time 2/4.
    let black = letter(BLACK, "2026-11-07")
        .dates("2026-11-03", "2026-11-03", "2026-11-07")
        .time(2, 4);
    let v = play(&rules, &mut ledger, &black, Some("2026-11-07"));
    assert_eq!((v.days, v.totals), (4, Fraction { white: 2, black: 4 }));
    assert!(v.corrections.is_empty(), "{:?}", v.corrections);

    // 3. White answers 2. Nf3, writes d3 10.11, postmark 2026-11-12, time 5/4.
    let white = letter(WHITE, "2026-11-12")
        .dates("2026-11-07", "2026-11-07", "2026-11-10")
        .time(5, 4);
    let v = play(&rules, &mut ledger, &white, Some("2026-11-12"));
    assert_eq!((v.days, v.totals), (5, Fraction { white: 7, black: 4 }));
    assert_eq!(
        v.corrections,
        vec![
            Correction::Date {
                item: Item::Date(DateItem::Sent),
                stated: d("2026-11-10"),
                actual: d("2026-11-12"),
                effect_days: Some(2),
            },
            Correction::Total {
                player: WHITE,
                stated: 5,
                actual: 7,
                clock_start: None,
                leave_days: None,
                resumed_on: None
            },
        ],
        "sent 12.11 by postmark, not 10.11: +2 days; your total is 7, not 5"
    );

    // 4. Black answers the day he receives it: t = 0, totals 7/4.
    let black = letter(BLACK, "2026-11-12")
        .dates("2026-11-12", "2026-11-12", "2026-11-12")
        .time(7, 4);
    let v = play(&rules, &mut ledger, &black, None);
    assert_eq!((v.days, v.totals), (0, Fraction { white: 7, black: 4 }));
    assert!(v.corrections.is_empty());

    // 5. Black to move at move 9 with total 44, White's letter received 2027-02-01,
    //    no answer by 2027-02-08: 44 + 7 = 51 > 50 at 9 moves.
    let mut late = ledger_of(&[(0, 0); 16]);
    late.rows[1].days = 44;
    late.rows.push(Row {
        by: WHITE,
        san: "9.".into(),
        conditional: false,
        sent_on: d("2027-01-28"),
        delivered_on: Some(d("2027-02-01")),
        days: 0,
        penalty: 0,
        letter: None,
    });
    assert_eq!(late.moves_made(BLACK), 8);
    let on_the_7th = due(&rules, &late, d("2027-02-07"), &BTreeSet::new());
    assert!(
        !on_the_7th
            .iter()
            .any(|duty| matches!(duty, Duty::SilentOverstep(_))),
        "50 is still fine"
    );
    let duties = due(&rules, &late, d("2027-02-08"), &BTreeSet::new());
    let overstep = duties.iter().find_map(|duty| match duty {
        Duty::SilentOverstep(o) => Some(*o),
        _ => None,
    });
    let overstep = overstep.expect("overstep by silence on 2027-02-08");
    assert_eq!(
        (
            overstep.offender,
            overstep.total,
            overstep.limit,
            overstep.moves
        ),
        (BLACK, 51, 50, 9)
    );
}

#[test]
fn worked_example_through_the_letter_reader_and_the_board() {
    let rules = Rules::default();
    let mut ledger = Ledger::new(calendar());
    let mut game = Game::new();
    // (by, postmark, delivered, text, expected totals)
    type Step = (
        Color,
        &'static str,
        &'static str,
        &'static str,
        (u32, u32),
        usize,
    );
    let steps: [Step; 4] = [
        (
            WHITE,
            "2026-11-03",
            "2026-11-03",
            "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03",
            (2, 0),
            0,
        ),
        (
            BLACK,
            "2026-11-07",
            "2026-11-07",
            "Партия 1\n1. e4 e5\nВремя: 2/4\nДаты: 03.11, 03.11, 2026-11-07",
            (2, 4),
            0,
        ),
        (
            WHITE,
            "2026-11-12",
            "2026-11-12",
            "Game 1\n2. Nf3\nTime: 5/4\nDates: 07.11, 07.11, 10.11",
            (7, 4),
            2,
        ),
        (
            BLACK,
            "2026-11-12",
            "2026-11-12",
            "Партия 1\n2. Кf3 Кc6\nВремя: 7/4\nДаты: 12.11.2026, 12.11.2026, 12.11.2026",
            (7, 4),
            0,
        ),
    ];
    for (step, (by, postmark, delivered, text, totals, corrections)) in
        steps.into_iter().enumerate()
    {
        let read = letter::read(text);
        assert!(
            read.errors.is_empty(),
            "step {}: {:?}",
            step + 1,
            read.errors
        );
        let applied = game.apply(by, &read.moves, &read.variants).expect("legal");
        let incoming = Incoming {
            by,
            sent_on: d(postmark),
            stated: read.stated(d(postmark)),
            plies: applied.plies.clone(),
            partner_direct: false,
            channel: shtempel::rules::Channel::Letter,
        };
        let verdict = judge(&rules, &ledger, &incoming);
        ledger.record(&verdict);
        ledger.delivered(d(delivered));
        game = applied.game;
        assert_eq!(
            (verdict.totals.white, verdict.totals.black),
            totals,
            "step {}",
            step + 1
        );
        assert_eq!(
            verdict.corrections.len(),
            corrections,
            "step {}: {:?}",
            step + 1,
            verdict.corrections
        );
    }
    assert_eq!(game.sans(), ["e4", "e5", "Nf3", "Nc6"]);
}

#[test]
fn late_start_sheets() {
    let rules = Rules::default();
    // Black's sheet came on 5 November: his clock starts on the 6th.
    let cal = Calendar::new(
        d("2026-11-01"),
        d("2028-11-01"),
        ByColor {
            white: None,
            black: Some(d("2026-11-05")),
        },
    );
    let mut ledger = Ledger::new(cal);
    play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-03").time(2, 0),
        Some("2026-11-03"),
    );
    let black = letter(BLACK, "2026-11-08")
        .dates("2026-11-03", "2026-11-03", "2026-11-08")
        .time(2, 2);
    let v = play(&rules, &mut ledger, &black, Some("2026-11-08"));
    assert_eq!(
        v.days, 2,
        "from 6 November, not from the delivery on the 3rd"
    );
    assert!(v.corrections.is_empty(), "{:?}", v.corrections);

    // White's sheet came on 10 November: his first move is free until the 11th.
    let cal = Calendar::new(
        d("2026-11-01"),
        d("2028-11-01"),
        ByColor {
            white: Some(d("2026-11-10")),
            black: None,
        },
    );
    let mut ledger = Ledger::new(cal.clone());
    let v = play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-11").time(0, 0),
        None,
    );
    assert_eq!(v.days, 0);
    let mut ledger = Ledger::new(cal);
    let v = play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-14").time(3, 0),
        None,
    );
    assert_eq!(v.days, 3);
}

#[test]
fn end_date_stops_the_clock_for_moves_received_on_it_or_later() {
    let rules = Rules::default();
    let cal = Calendar::on_time(d("2026-11-01"), d("2026-12-01"));
    // (delivered to Black, Black's postmark, days charged)
    let table = [
        ("2026-11-20", "2026-11-25", 5),
        // Received before the end date, answered after it: charged in full
        // (10.3.2 speaks of the day the reply was received).
        ("2026-11-28", "2026-12-05", 7),
        ("2026-12-01", "2026-12-03", 0), // received on the end date: no more time
        ("2026-12-02", "2026-12-09", 0),
    ];
    for (delivered, sent, expected) in table {
        let mut ledger = Ledger::new(cal.clone());
        play(
            &rules,
            &mut ledger,
            &letter(WHITE, "2026-11-02").time(1, 0),
            Some(delivered),
        );
        let black = letter(BLACK, sent)
            .dates("2026-11-02", delivered, sent)
            .time(1, expected);
        let v = play(&rules, &mut ledger, &black, None);
        assert_eq!(v.days, expected, "delivered {delivered}, sent {sent}");
        assert!(v.overstep.is_none());
    }
    // From the end date on: no overstep by silence, no reminder; adjudication.
    let mut ledger = Ledger::new(cal);
    play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-02").time(1, 0),
        Some("2026-11-02"),
    );
    let duties = due(&rules, &ledger, d("2026-12-01"), &BTreeSet::new());
    assert_eq!(duties, vec![Duty::Adjudication]);
}

/// rules.md 2.2 for a move by Xfcc: it states nothing, so nothing is
/// corrected or omitted, and the move it answers reached its player on its
/// forward's day or the day the server first showed it to him, whichever
/// was first (with neither, its postmark, as for a letter).
#[test]
fn a_move_by_xfcc_counts_from_the_first_day_its_player_had_the_move() {
    // (forward accepted on, first shown on, days, the received day counted)
    let table: &[(Option<&str>, Option<&str>, u32, &str)] = &[
        (Some("2026-11-03"), None, 4, "2026-11-03"),
        (Some("2026-11-03"), Some("2026-11-05"), 4, "2026-11-03"),
        (Some("2026-11-06"), Some("2026-11-04"), 3, "2026-11-04"),
        (None, Some("2026-11-05"), 2, "2026-11-05"),
        (None, None, 4, "2026-11-03"),
    ];
    let rules = Rules::default();
    for &(delivered, shown, days, received) in table {
        let mut ledger = Ledger::new(calendar());
        play(
            &rules,
            &mut ledger,
            &letter(WHITE, "2026-11-03").time(2, 0),
            delivered,
        );
        let black = letter(BLACK, "2026-11-07").by_xfcc(shown);
        let v = play(&rules, &mut ledger, &black, None);
        let case = format!("{delivered:?} {shown:?}");
        assert_eq!(v.days, days, "{case}");
        assert_eq!(v.expected.received, Some(d(received)), "{case}");
        assert_eq!(
            v.totals,
            Fraction {
                white: 2,
                black: days
            },
            "{case}"
        );
        assert!(v.corrections.is_empty(), "{case}: {:?}", v.corrections);
        assert_eq!(v.omission, None, "{case}");
        // The same letter by mail, stating nothing, is an omission.
        let mut by_mail = Ledger::new(calendar());
        play(
            &rules,
            &mut by_mail,
            &letter(WHITE, "2026-11-03").time(2, 0),
            delivered,
        );
        let mut unstated = letter(BLACK, "2026-11-07").by_xfcc(shown);
        unstated.channel = Channel::Letter;
        let v = judge(&rules, &by_mail, &unstated.incoming());
        assert!(
            matches!(v.omission, Some(Omission::Warning { .. })),
            "{case}"
        );
    }
}

#[test]
fn same_day_reply_is_free() {
    let rules = Rules::default();
    let mut ledger = Ledger::new(calendar());
    play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-01").time(0, 0),
        Some("2026-11-05"),
    );
    let v = play(
        &rules,
        &mut ledger,
        &letter(BLACK, "2026-11-05")
            .dates("2026-11-01", "2026-11-05", "2026-11-05")
            .time(0, 0),
        None,
    );
    assert_eq!(v.days, 0);
    assert!(v.corrections.is_empty() && v.omission.is_none());
}

#[test]
fn corrections_name_the_right_value_and_the_effect() {
    let rules = Rules::default();
    let mut ledger = Ledger::new(calendar());
    play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-03").time(2, 0),
        Some("2026-11-04"),
    );
    // Black: correct d3 2026-11-09 → 5 days from the delivery on the 4th.
    // (postmark, received, sent, fraction, expected corrections as (item, effect) or totals)
    type Case = (
        &'static str,
        &'static str,
        &'static str,
        (u32, u32),
        Vec<(&'static str, Option<i64>)>,
    );
    let table: Vec<Case> = vec![
        ("2026-11-03", "2026-11-04", "2026-11-09", (2, 5), vec![]),
        (
            "2026-11-02",
            "2026-11-04",
            "2026-11-09",
            (2, 5),
            vec![("d1", None)],
        ),
        (
            "2026-11-03",
            "2026-11-06",
            "2026-11-09",
            (2, 3),
            vec![("d2", Some(2)), ("black", None)],
        ),
        (
            "2026-11-03",
            "2026-11-03",
            "2026-11-09",
            (2, 6),
            vec![("d2", Some(-1)), ("black", None)],
        ),
        (
            "2026-11-03",
            "2026-11-04",
            "2026-11-08",
            (2, 4),
            vec![("d3", Some(1)), ("black", None)],
        ),
        (
            "2026-11-03",
            "2026-11-04",
            "2026-11-09",
            (1, 5),
            vec![("white", None)],
        ),
    ];
    for (postmark, received, sent, (white, black), expected) in table {
        let black_letter = letter(BLACK, "2026-11-09")
            .dates(postmark, received, sent)
            .time(white, black);
        let v = judge(&rules, &ledger, &black_letter.incoming());
        assert_eq!(v.days, 5);
        let got: Vec<(&str, Option<i64>)> = v
            .corrections
            .iter()
            .map(|c| match c {
                Correction::Date {
                    item: Item::Date(DateItem::PartnerPostmark),
                    effect_days,
                    ..
                } => ("d1", *effect_days),
                Correction::Date {
                    item: Item::Date(DateItem::Received),
                    effect_days,
                    ..
                } => ("d2", *effect_days),
                Correction::Date {
                    item: Item::Date(DateItem::Sent),
                    effect_days,
                    ..
                } => ("d3", *effect_days),
                Correction::Date { .. } => ("previous", None),
                Correction::Total { player: WHITE, .. } => ("white", None),
                Correction::Total { .. } => ("black", None),
            })
            .collect();
        assert_eq!(
            got, expected,
            "stated {postmark} {received} {sent} {white}/{black}"
        );
        assert!(v.omission.is_none());
    }
}

#[test]
fn omission_warning_then_penalty_with_restated_dates() {
    let rules = Rules::default();
    let mut ledger = Ledger::new(calendar());
    play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-02").time(1, 0),
        Some("2026-11-02"),
    );

    // Black's first letter leaves out d2: a warning, d2 must be restated.
    let mut b1 = letter(BLACK, "2026-11-04")
        .dates("2026-11-02", "2026-11-02", "2026-11-04")
        .time(1, 2);
    b1.received = None;
    let v = play(&rules, &mut ledger, &b1, Some("2026-11-04"));
    assert_eq!(
        v.omission,
        Some(Omission::Warning {
            missing: vec![Item::Date(DateItem::Received)]
        })
    );
    assert_eq!(v.penalty, 0);

    play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-05")
            .dates("2026-11-04", "2026-11-04", "2026-11-05")
            .time(2, 2),
        Some("2026-11-05"),
    );

    // Black's next letter is complete but does not restate d2: a penalty of 6.
    let b2 = letter(BLACK, "2026-11-07")
        .dates("2026-11-05", "2026-11-05", "2026-11-07")
        .time(2, 4);
    let v = judge(&rules, &ledger, &b2.incoming());
    assert_eq!(
        v.omission,
        Some(Omission::Penalty {
            missing: vec![Item::Previous(DateItem::Received)],
            days: 6
        })
    );
    assert_eq!(
        (v.penalty, v.fraction, v.totals),
        (
            6,
            Fraction { white: 2, black: 4 },
            Fraction {
                white: 2,
                black: 10
            }
        )
    );

    // Restated correctly instead: no violation.
    let mut restated = letter(BLACK, "2026-11-07")
        .dates("2026-11-05", "2026-11-05", "2026-11-07")
        .time(2, 4);
    restated.previous = Some(["2026-11-02", "2026-11-02", "2026-11-04"]);
    let v = judge(&rules, &ledger, &restated.incoming());
    assert_eq!(v.omission, None);
    assert!(v.corrections.is_empty(), "{:?}", v.corrections);

    // Restated wrongly: a correction of the restated date, no penalty.
    restated.previous = Some(["2026-11-02", "2026-11-03", "2026-11-04"]);
    let v = judge(&rules, &ledger, &restated.incoming());
    assert_eq!(v.omission, None);
    assert!(matches!(
        v.corrections.as_slice(),
        [Correction::Date {
            item: Item::Previous(DateItem::Received),
            ..
        }]
    ));

    // `Previous dates:` with only the date the previous letter left out.
    restated.previous = None;
    restated.previous_unplaced = vec!["2026-11-02"];
    let v = judge(&rules, &ledger, &restated.incoming());
    assert_eq!(v.omission, None, "the one missing date is restated");
    assert!(v.corrections.is_empty(), "{:?}", v.corrections);
    restated.previous_unplaced = vec!["2026-11-03"];
    let v = judge(&rules, &ledger, &restated.incoming());
    assert!(matches!(
        v.corrections.as_slice(),
        [Correction::Date {
            item: Item::Previous(DateItem::Received),
            ..
        }]
    ));

    // A later letter with its own omission, after the penalised one: penalty again.
    let v = play(&rules, &mut ledger, &b2, Some("2026-11-07"));
    assert_eq!(v.penalty, 6);
    play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-08")
            .dates("2026-11-07", "2026-11-07", "2026-11-08")
            .time(3, 10),
        Some("2026-11-08"),
    );
    let mut b3 = letter(BLACK, "2026-11-09").dates("2026-11-08", "2026-11-08", "2026-11-09");
    b3.fraction = None;
    let v = play(&rules, &mut ledger, &b3, None);
    assert_eq!(
        v.omission,
        Some(Omission::Penalty {
            missing: vec![Item::Fraction],
            days: 6
        })
    );
    assert_eq!(ledger.totals().black, 4 + 6 + 1 + 6);

    // One letter lacking several items is one violation: one penalty.
    let mut ledger = ledger_of(&[(0, 0), (0, 0)]);
    ledger.rows[1].letter = Some(shtempel::rules::LetterFacts {
        expected: shtempel::rules::Expected {
            partner_postmark: None,
            received: None,
            sent: d("2026-11-03"),
        },
        omission: true,
        missing_dates: vec![],
    });
    ledger.rows.push(ledger_of(&[(0, 0)]).rows[0].clone());
    let mut bare = letter(BLACK, "2026-11-10");
    bare.sent = None;
    let v = judge(&rules, &ledger, &bare.incoming());
    assert_eq!(v.penalty, 6);
    assert_eq!(v.omission.unwrap().missing().len(), 4);

    // With auto_penalty off the violation is reported, no days are charged.
    let manual = Rules {
        auto_penalty: false,
        ..Rules::default()
    };
    let v = judge(&manual, &ledger, &bare.incoming());
    assert!(matches!(
        v.omission,
        Some(Omission::Penalty { days: 0, .. })
    ));
    assert_eq!(v.penalty, 0);
}

#[test]
fn whites_first_letter_needs_only_its_date_and_the_fraction() {
    let rules = Rules::default();
    let ledger = Ledger::new(calendar());
    let v = judge(
        &rules,
        &ledger,
        &letter(WHITE, "2026-11-03").time(2, 0).incoming(),
    );
    assert!(v.omission.is_none() && v.corrections.is_empty());
    let mut no_date = letter(WHITE, "2026-11-03").time(2, 0);
    no_date.sent = None;
    let v = judge(&rules, &ledger, &no_date.incoming());
    assert_eq!(
        v.omission,
        Some(Omission::Warning {
            missing: vec![Item::Date(DateItem::Sent)]
        })
    );
}

#[test]
fn accumulation_over_controls() {
    let rules = Rules::default();
    // (White's moves after this letter, his total after it, overstep?)
    let table = [
        (1, 50, false),
        (1, 51, true),
        (10, 50, false),
        (10, 51, true),
        (11, 51, false),
        (20, 100, false),
        (20, 101, true),
        (21, 101, false),
    ];
    for (moves, total, overstep) in table {
        // White's earlier moves (and Black's answers) cost nothing; this letter
        // costs `total` days, counted from the delivery of Black's last move.
        let earlier = vec![(0u32, 0u32); (moves - 1) * 2];
        let ledger = ledger_of(&earlier);
        let from = ledger
            .rows
            .last()
            .map_or(d("2026-11-01"), |row| row.delivered_on.unwrap());
        let sent_on = from
            .checked_add_days(chrono::Days::new(u64::from(total)))
            .unwrap();
        let incoming = Incoming {
            by: WHITE,
            sent_on,
            stated: Stated::default(),
            plies: vec![NewPly {
                by: WHITE,
                san: "m".into(),
                conditional: false,
            }],
            partner_direct: false,
            channel: shtempel::rules::Channel::Letter,
        };
        let v = judge(&rules, &ledger, &incoming);
        assert_eq!(v.totals.white, total, "moves {moves}");
        assert_eq!(
            v.overstep.is_some(),
            overstep,
            "{total} days on {moves} moves"
        );
        if let Some(o) = v.overstep {
            let moves = u32::try_from(moves).unwrap();
            assert_eq!(
                (o.offender, o.moves, o.limit, o.total),
                (WHITE, moves, rules.limit(moves), total)
            );
        }
    }
}

#[test]
fn a_variant_does_not_count_until_played() {
    let rules = Rules::default();
    // White's 10th move costs 51 days in all. His letter also offers a variant
    // (2 moves) — held by the game, never in the ledger: still 10 moves, overstep.
    let mut ledger = ledger_of(&[(0, 0); 18]);
    ledger.rows[0].days = 40;
    let last_black = ledger.rows.last().unwrap().delivered_on.unwrap();
    let sent = last_black.checked_add_days(chrono::Days::new(11)).unwrap();
    let incoming = Incoming {
        by: WHITE,
        sent_on: sent,
        stated: Stated::default(),
        plies: vec![NewPly {
            by: WHITE,
            san: "Nf3".into(),
            conditional: false,
        }],
        partner_direct: false,
        channel: shtempel::rules::Channel::Letter,
    };
    let v = judge(&rules, &ledger, &incoming);
    assert_eq!(v.totals.white, 51);
    assert_eq!(
        v.overstep.map(|o| o.moves),
        Some(10),
        "variant moves are not moves made"
    );

    // An executed conditional move counts from the moment it is played, and costs
    // its author nothing: Black's letter makes his 10th move and the clerk plays
    // White's conditional 11th, so White has 11 moves and 51 days is within 100.
    let mut ledger = ledger_of(&[(0, 0); 19]);
    ledger.rows[0].days = 51;
    let before = ledger.moves_made(WHITE);
    let incoming = Incoming {
        by: BLACK,
        sent_on: d("2026-12-01"),
        stated: Stated::default(),
        plies: vec![
            NewPly {
                by: BLACK,
                san: "a6".into(),
                conditional: false,
            },
            NewPly {
                by: WHITE,
                san: "Ba4".into(),
                conditional: true,
            },
        ],
        partner_direct: false,
        channel: shtempel::rules::Channel::Letter,
    };
    let v = judge(&rules, &ledger, &incoming);
    ledger.record(&v);
    assert_eq!(ledger.moves_made(WHITE), before + 1);
    assert_eq!(v.rows[1].days, 0, "a conditional move costs nothing");
    assert_eq!(
        ledger.to_move(),
        BLACK,
        "Black answers the conditional move"
    );
    assert_eq!(
        ledger.days_left(&rules, WHITE, 0),
        100 - 51,
        "11 moves: the second control"
    );
}

#[test]
fn silence_table() {
    let rules = Rules::default();
    // White's first move: counted from the start with m = 0.
    let ledger = Ledger::new(calendar());
    let none = BTreeSet::new();
    let silent = |ledger: &Ledger, today: &str| {
        due(&rules, ledger, d(today), &none)
            .into_iter()
            .find_map(|duty| match duty {
                Duty::SilentOverstep(o) => Some((o.offender, o.total, o.limit)),
                _ => None,
            })
    };
    assert_eq!(
        silent(&ledger, "2026-12-21"),
        None,
        "50 days from 1 November"
    );
    assert_eq!(silent(&ledger, "2026-12-22"), Some((WHITE, 51, 50)));

    // Black to move, the move not yet delivered: nothing runs.
    let mut undelivered = ledger_of(&[(0, 0)]);
    undelivered.rows[0].delivered_on = None;
    assert_eq!(silent(&undelivered, "2027-06-01"), None);

    // Off by configuration.
    let off = Rules {
        silent_overstep: false,
        ..Rules::default()
    };
    assert!(
        due(&off, &Ledger::new(calendar()), d("2026-12-22"), &none)
            .iter()
            .all(|duty| !matches!(duty, Duty::SilentOverstep(_)))
    );

    // Suspended or finished games are left alone.
    let mut suspended = Ledger::new(calendar());
    suspended.standing.status = Status::Finished;
    assert_eq!(silent(&suspended, "2027-06-01"), None);
}

#[test]
fn deadlines_table() {
    let rules = Rules::default();
    let none = BTreeSet::new();
    let kinds = |ledger: &Ledger, today: &str, done: &BTreeSet<DutyKey>| -> Vec<String> {
        due(&rules, ledger, d(today), done)
            .iter()
            .map(|duty| match duty {
                Duty::Repeat { row, .. } => format!("repeat:{row}"),
                Duty::FirstMoveQuery => "query".into(),
                Duty::Reminder {
                    threshold,
                    days_left,
                    ..
                } => format!("reminder:{threshold}:{days_left}"),
                Duty::SilentOverstep(_) => "overstep".into(),
                Duty::NoProtest { .. } => "no-protest".into(),
                Duty::Adjudication => "adjudication".into(),
                Duty::GameStart => "start".into(),
            })
            .collect()
    };

    // First-move query: 30 days after the start, while Black has no move.
    let empty = Ledger::new(calendar());
    assert_eq!(kinds(&empty, "2026-11-30", &none), Vec::<String>::new());
    assert_eq!(kinds(&empty, "2026-12-01", &none), ["query"]);
    let done: BTreeSet<DutyKey> = [DutyKey::of_text("query")].into();
    assert_eq!(
        kinds(&empty, "2026-12-02", &done),
        Vec::<String>::new(),
        "once"
    );

    // Repeat: 40 days after the postmark of an unanswered letter. White's move
    // of 2 November: on its 40th day it is repeated, and Black, with 10 days
    // left, is reminded.
    let ledger = ledger_of(&[(1, 0)]);
    assert_eq!(kinds(&ledger, "2026-12-11", &none), Vec::<String>::new());
    assert_eq!(
        kinds(&ledger, "2026-12-12", &none),
        ["repeat:0", "reminder:10:10"]
    );
    let done: BTreeSet<DutyKey> = [
        DutyKey::Repeat { row: 0 },
        DutyKey::of_text("reminder:black:0:10"),
    ]
    .into();
    assert_eq!(
        kinds(&ledger, "2026-12-13", &done),
        Vec::<String>::new(),
        "each once"
    );
    assert_eq!(kinds(&ledger, "2026-12-19", &done), ["reminder:3:3"]);
    // Jumping straight past both thresholds sends the tighter one only, once.
    assert_eq!(
        kinds(&ledger, "2026-12-20", &none),
        ["repeat:0", "reminder:3:2"]
    );
    let done: BTreeSet<DutyKey> = [
        DutyKey::Repeat { row: 0 },
        DutyKey::of_text("reminder:black:0:3"),
    ]
    .into();
    assert_eq!(kinds(&ledger, "2026-12-21", &done), Vec::<String>::new());
    assert_eq!(kinds(&ledger, "2026-12-23", &done), ["overstep"]);

    // A letter forwarded after its postmark (accepted by the director 20
    // days later): its 40 days run from the day it reached the partner.
    let mut forwarded_late = ledger_of(&[(1, 0)]);
    let row = &mut forwarded_late.rows[0];
    row.delivered_on = Some(row.sent_on + chrono::Days::new(20));
    let repeats = |today| kinds(&forwarded_late, today, &none).contains(&"repeat:0".into());
    assert!(!repeats("2026-12-12"), "not 40 days after its postmark");
    assert!(!repeats("2026-12-31"));
    assert!(repeats("2027-01-01"), "40 days after it reached Black");

    // Protest period: 10 days from the notice; the day after, if no protest.
    let mut suspended = ledger_of(&[(1, 0)]);
    suspended.standing.status = Status::Suspended;
    suspended.standing.suspension = Some(Suspension {
        offender: BLACK,
        notice_on: d("2027-01-01"),
        protest_received: false,
        ply: None,
    });
    assert_eq!(kinds(&suspended, "2027-01-11", &none), Vec::<String>::new());
    assert_eq!(kinds(&suspended, "2027-01-12", &none), ["no-protest"]);
    suspended
        .standing
        .suspension
        .as_mut()
        .unwrap()
        .protest_received = true;
    assert_eq!(kinds(&suspended, "2027-01-12", &none), Vec::<String>::new());

    // End date: adjudication, once.
    assert_eq!(kinds(&ledger, "2028-11-01", &none), ["adjudication"]);
    let done: BTreeSet<DutyKey> = [DutyKey::of_text("adjudication")].into();
    assert_eq!(kinds(&ledger, "2028-11-02", &done), Vec::<String>::new());
}

#[test]
fn letter_with_partner_in_copy_is_delivered_on_its_postmark() {
    let rules = Rules::default();
    let mut ledger = Ledger::new(calendar());
    let mut white = letter(WHITE, "2026-11-03").time(2, 0);
    white.direct = true;
    let v = play(&rules, &mut ledger, &white, None);
    assert_eq!(v.rows[0].delivered_on, Some(d("2026-11-03")));
    assert_eq!(ledger.running_days(BLACK, d("2026-11-05")), Some(2));
}

/// Two of the three dates: placed where the postmarks say, only the third
/// named missing; where two placings fit equally, the one taken is said to be
/// uncertain.
#[test]
fn two_dates_of_three_are_placed_by_the_postmarks() {
    use DateItem::{PartnerPostmark as D1, Received as D2, Sent as D3};
    let rules = Rules::default();
    // White's move posted 2026-11-20 and reaching Black on the given day;
    // Black answers on 2026-12-02 with two dates.
    // (delivered, the two dates written, taken as, certain, missing)
    type Case = (
        &'static str,
        [&'static str; 2],
        [DateItem; 2],
        bool,
        DateItem,
    );
    let table: [Case; 5] = [
        // Delivered a week after its postmark: the pair is d2, d3.
        (
            "2026-11-27",
            ["2026-11-27", "2026-12-02"],
            [D2, D3],
            true,
            D1,
        ),
        // The same day: d1 or d2 is left out; which cannot be told.
        (
            "2026-11-20",
            ["2026-11-20", "2026-12-02"],
            [D1, D3],
            false,
            D2,
        ),
        // d1 and d2 given, the sending date left out.
        (
            "2026-11-27",
            ["2026-11-20", "2026-11-27"],
            [D1, D2],
            true,
            D3,
        ),
        // A wrong date still goes where it fits best, and is corrected there.
        (
            "2026-11-27",
            ["2026-11-26", "2026-12-02"],
            [D2, D3],
            true,
            D1,
        ),
        (
            "2026-11-27",
            ["2026-11-20", "2026-12-01"],
            [D1, D3],
            true,
            D2,
        ),
    ];
    for (row, (delivered, written, items, certain, missing)) in table.iter().enumerate() {
        let mut ledger = Ledger::new(calendar());
        play(
            &rules,
            &mut ledger,
            &letter(WHITE, "2026-11-20").time(19, 0),
            Some(delivered),
        );
        let black = letter(BLACK, "2026-12-02").only_dates(written);
        let v = judge(&rules, &ledger, &black.incoming());
        let placement = v.placement.as_ref().expect("placed");
        let placed: Vec<Item> = placement.placed.iter().map(|(item, _)| *item).collect();
        assert_eq!(placed, items.map(Item::Date), "row {row}");
        assert_eq!(placement.certain, *certain, "row {row}");
        assert_eq!(
            v.omission.as_ref().map(|o| o.missing().to_vec()),
            Some(vec![Item::Date(*missing), Item::Fraction]),
            "row {row}: only the third date (and the fraction) is missing"
        );
    }
    // A wrong date placed is corrected in its place.
    let mut ledger = Ledger::new(calendar());
    play(
        &rules,
        &mut ledger,
        &letter(WHITE, "2026-11-20").time(19, 0),
        Some("2026-11-27"),
    );
    let v = judge(
        &rules,
        &ledger,
        &letter(BLACK, "2026-12-02")
            .only_dates(&["2026-11-26", "2026-12-02"])
            .time(19, 5)
            .incoming(),
    );
    assert!(
        matches!(
            v.corrections.as_slice(),
            [Correction::Date {
                item: Item::Date(DateItem::Received),
                ..
            }]
        ),
        "{:?}",
        v.corrections
    );
}

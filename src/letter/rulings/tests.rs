//! The chief arbiter's lines read: the tournament word, the game, the days
//! and the reason of a decision.

use crate::letter::{WrittenOrder, read};

/// The days a decision excuses, as its line gives them.
fn excused(order: &WrittenOrder) -> Option<u32> {
    match order {
        WrittenOrder::Overstep { days, .. } => *days,
        _ => None,
    }
}

#[test]
fn a_ruling_may_name_its_tournament_and_the_clerk_tells_a_game_word_apart() {
    // (line, tournament word, game, days) as read; then as resolved by a
    // clerk of CC-2026, B and КР.
    let table = [
        ("CONFIRM 1", None, "1", None, (None, "1", None)),
        ("REJECT 1 7", None, "1", Some(7), (None, "1", Some(7))),
        (
            "CONFIRM CC-2026 3",
            Some("CC-2026"),
            "3",
            None,
            (Some("CC-2026"), "3", None),
        ),
        (
            "REJECT CC-2026 3 7",
            Some("CC-2026"),
            "3",
            Some(7),
            (Some("CC-2026"), "3", Some(7)),
        ),
        (
            "ПОДТВЕРЖДАЮ B №2",
            Some("B"),
            "2",
            None,
            (Some("B"), "2", None),
        ),
        // An id in another case is the id, Cyrillic as well as Latin.
        (
            "REJECT cc-2026 3 7",
            Some("cc-2026"),
            "3",
            Some(7),
            (Some("CC-2026"), "3", Some(7)),
        ),
        (
            "ОТКЛОНЯЮ кр №2 5",
            Some("кр"),
            "2",
            Some(5),
            (Some("КР"), "2", Some(5)),
        ),
        ("CONFIRM A1", None, "A1", None, (None, "A1", None)),
        // A game id that reads like a tournament's: the days come back.
        ("REJECT A1 7", Some("A1"), "7", None, (None, "A1", Some(7))),
    ];
    for (line, tournament, game, days, resolved) in table {
        let read = read(line);
        let ruling = read.rulings.first().unwrap_or_else(|| panic!("{line}"));
        assert_eq!(
            (
                ruling.tournament.as_deref(),
                ruling.order.named(),
                excused(&ruling.order)
            ),
            (tournament, game, days),
            "{line}"
        );
        let meant = ruling.resolved(&["CC-2026", "B", "КР"]);
        assert_eq!(
            (
                meant.tournament.as_deref(),
                meant.order.named(),
                excused(&meant.order)
            ),
            resolved,
            "{line}"
        );
    }
}

#[test]
fn a_decision_is_read_with_the_reason_after_its_words() {
    // (line, game, days, reason) as resolved by a clerk of CC-2026 and B.
    let table = [
        (
            "CONFIRM 1 no letter came in 50 days",
            None,
            "1",
            None,
            Some("no letter came in 50 days"),
        ),
        (
            "REJECT 1 7 the postmark shows he sent it in time",
            None,
            "1",
            Some(7),
            Some("the postmark shows he sent it in time"),
        ),
        (
            "REJECT 1 7 days, the post was on strike.",
            None,
            "1",
            Some(7),
            Some("the post was on strike"),
        ),
        (
            "CONTINUE CC-2026 3 the file lacks letter 4",
            Some("CC-2026"),
            "3",
            None,
            Some("the file lacks letter 4"),
        ),
        (
            "ПОДТВЕРДИТЬ 2 письма не было 50 дней",
            None,
            "2",
            None,
            Some("письма не было 50 дней"),
        ),
        (
            "ОТКЛОНИТЬ B №2 5 дней почта бастовала",
            Some("B"),
            "2",
            Some(5),
            Some("почта бастовала"),
        ),
        (
            "ПРОДОЛЖИТЬ 3 материалы неполны",
            None,
            "3",
            None,
            Some("материалы неполны"),
        ),
        // A game id that reads like a tournament's, and a reason.
        ("CONFIRM A1 no answer", None, "A1", None, Some("no answer")),
        ("REJECT A1 7 in time", None, "A1", Some(7), Some("in time")),
        ("CONFIRM 1", None, "1", None, None),
    ];
    for (line, tournament, game, days, why) in table {
        let read = read(line);
        let ruling = read.rulings.first().unwrap_or_else(|| panic!("{line}"));
        let meant = ruling.resolved(&["CC-2026", "B"]);
        assert_eq!(
            (
                meant.tournament.as_deref(),
                meant.order.named(),
                excused(&meant.order),
                meant.why.as_deref()
            ),
            (tournament, game, days, why),
            "{line}"
        );
    }
}

/// A replacement and a retry read with the newcomer and the key.
mod replacement {
    use crate::letter::{WrittenOrder, read};

    /// The order's kind, as the table names it.
    fn kind(order: &WrittenOrder) -> &'static str {
        match order {
            WrittenOrder::Replace { .. } => "replace",
            WrittenOrder::Retry { .. } => "retry",
            _ => "other",
        }
    }

    /// The newcomer a replacement names: his name and address.
    fn newcomer(order: &WrittenOrder) -> Option<(&str, &str)> {
        match order {
            WrittenOrder::Replace { newcomer, .. } => {
                Some((newcomer.name.as_str(), newcomer.email.as_str()))
            }
            _ => None,
        }
    }

    // (line, tournament word, player or key, newcomer, reason; resolved
    // against the ids CC-2026 and B: player, newcomer's name).
    type Row = (
        &'static str,
        Option<(
            &'static str,
            Option<&'static str>,
            &'static str,
            Option<(&'static str, &'static str)>,
            Option<&'static str>,
        )>,
        (&'static str, &'static str),
    );
    const TABLE: [Row; 10] = [
        (
            "REPLACE ivanov Sidorov S. <Sidorov@Example.org>",
            Some((
                "replace",
                Some("ivanov"),
                "Sidorov",
                Some(("S.", "sidorov@example.org")),
                None,
            )),
            ("ivanov", "Sidorov S."),
        ),
        (
            "ЗАМЕНА CC-2026 ivanov Сидоров Сергей <s@example.org> по болезни Иванова.",
            Some((
                "replace",
                Some("CC-2026"),
                "ivanov",
                Some(("Сидоров Сергей", "s@example.org")),
                Some("по болезни Иванова"),
            )),
            ("ivanov", "Сидоров Сергей"),
        ),
        (
            "REPLACE ivanov <s@example.org>",
            Some(("replace", None, "ivanov", Some(("", "s@example.org")), None)),
            ("ivanov", ""),
        ),
        // No address: no replacement.
        ("REPLACE ivanov Sidorov S.", None, ("", "")),
        // Outlook's plain text of an address it made a link; a bare one.
        (
            "REPLACE ivanov Sidorov S. <sidorov@example.org<mailto:sidorov@example.org>> ill",
            Some((
                "replace",
                Some("ivanov"),
                "Sidorov",
                Some(("S.", "sidorov@example.org")),
                Some("ill"),
            )),
            ("ivanov", "Sidorov S."),
        ),
        (
            "REPLACE ivanov Sidorov S. sidorov@example.org<mailto:sidorov@example.org>",
            Some((
                "replace",
                Some("ivanov"),
                "Sidorov",
                Some(("S.", "sidorov@example.org")),
                None,
            )),
            ("ivanov", "Sidorov S."),
        ),
        (
            "ЗАМЕНА ivanov Сидоров С. sidorov@example.org [mailto:sidorov@example.org] по болезни",
            Some((
                "replace",
                None,
                "ivanov",
                Some(("Сидоров С.", "sidorov@example.org")),
                Some("по болезни"),
            )),
            ("ivanov", "Сидоров С."),
        ),
        (
            "RETRY quarantine:sha256:01ab",
            Some(("retry", None, "quarantine:sha256:01ab", None, None)),
            ("quarantine:sha256:01ab", ""),
        ),
        (
            "ПОВТОРИТЬ ВСЕ",
            Some(("retry", None, "ВСЕ", None, None)),
            ("ВСЕ", ""),
        ),
        // A player's words are no order.
        ("Повторить ход", None, ("", "")),
    ];

    #[test]
    fn a_replacement_and_a_retry_are_read_with_the_newcomer_and_the_key() {
        for (line, expected, (player, name)) in TABLE {
            let read = read(line);
            let got = read.rulings.first().map(|r| {
                (
                    kind(&r.order),
                    r.tournament.as_deref(),
                    r.order.named(),
                    newcomer(&r.order),
                    r.why.as_deref(),
                )
            });
            assert_eq!(got, expected, "{line}");
            if let Some(ruling) = read.rulings.first() {
                let meant = ruling.resolved(&["CC-2026", "B"]);
                let meant_name = newcomer(&meant.order).map_or("", |(name, _)| name);
                assert_eq!((meant.order.named(), meant_name), (player, name), "{line}");
            }
        }
    }
}

#[test]
fn the_words_after_an_acceptances_key_name_the_player_the_address_and_the_moves() {
    use crate::letter::{AcceptWords, accept_words};
    let table = [
        (None, AcceptWords::default()),
        (
            Some("12. Nf3"),
            AcceptWords {
                moves: Some("12. Nf3"),
                ..AcceptWords::default()
            },
        ),
        (
            Some("AS ivanov"),
            AcceptWords {
                player: Some("ivanov"),
                ..AcceptWords::default()
            },
        ),
        (
            Some("as ivanov address 1. e4"),
            AcceptWords {
                player: Some("ivanov"),
                add_address: true,
                moves: Some("1. e4"),
            },
        ),
        (
            Some("КАК ivanov АДРЕС"),
            AcceptWords {
                player: Some("ivanov"),
                add_address: true,
                moves: None,
            },
        ),
        // ADDRESS without a player is no word of the acceptance.
        (
            Some("ADDRESS 1. e4"),
            AcceptWords {
                moves: Some("ADDRESS 1. e4"),
                ..AcceptWords::default()
            },
        ),
    ];
    for (rest, expected) in table {
        assert_eq!(accept_words(rest), expected, "{rest:?}");
    }
}

#[test]
fn every_orders_word_begins_with_a_letter_its_pattern_is_tried_for() {
    use super::*;
    crate::letter::lines::tests::assert_tried_for(&[
        (&RULING_LINE, DECISION_FIRST, 9),
        (&ACCEPT_LINE, ACCEPT_FIRST, 2),
        (&REPLACE_LINE, REPLACE_FIRST, 3),
        (&RETRY_LINE, RETRY_FIRST, 2),
        (&UNDO_LINE, UNDO_FIRST, 4),
        (&AWARD_LINE, AWARD_FIRST, 4),
    ]);
}

#[test]
fn a_result_or_a_forfeit_is_read_with_its_game_its_tournament_and_its_reason() {
    use crate::rules::GameResult::{self, *};
    let result = |game: &str, result| WrittenOrder::Result {
        game: game.into(),
        result,
    };
    let forfeit = |game: &str, result: GameResult| WrittenOrder::Forfeit {
        game: game.into(),
        result,
    };
    // (line, the order and its game, tournament word, reason); None: no
    // ruling.
    type Row<'a> = (
        &'a str,
        Option<(WrittenOrder, Option<&'a str>, Option<&'a str>)>,
    );
    let table: [Row; 13] = [
        ("RESULT 3 1-0", Some((result("3", WhiteWins), None, None))),
        ("RESULT 3 0-1.", Some((result("3", BlackWins), None, None))),
        ("RESULT 3 1/2", Some((result("3", Draw), None, None))),
        ("РЕЗУЛЬТАТ 3 ½-½", Some((result("3", Draw), None, None))),
        (
            "RESULT CC-2026 3 1-0 adjudicated: White's attack wins",
            Some((
                result("3", WhiteWins),
                Some("CC-2026"),
                Some("adjudicated: White's attack wins"),
            )),
        ),
        ("RESULT A1 1-0", Some((result("A1", WhiteWins), None, None))),
        (
            "FORFEIT 3 WHITE",
            Some((forfeit("3", BlackWins), None, None)),
        ),
        (
            "FORFEIT 3 black",
            Some((forfeit("3", WhiteWins), None, None)),
        ),
        (
            "ТЕХПОРАЖЕНИЕ КР-2026 №3 ЧЁРНЫЕ неявка",
            Some((forfeit("3", WhiteWins), Some("КР-2026"), Some("неявка"))),
        ),
        (
            "ТЕХПОРАЖЕНИЕ 3 черным неявка",
            Some((forfeit("3", WhiteWins), None, Some("неявка"))),
        ),
        // A forfeit needs a side, a result a score.
        ("FORFEIT 3 1-0", None),
        ("RESULT 3 WHITE", None),
        ("RESULT 3", None),
    ];
    for (line, expected) in table {
        let read = read(line);
        let got = read
            .rulings
            .first()
            .map(|r| (r.order.clone(), r.tournament.as_deref(), r.why.as_deref()));
        assert_eq!(got, expected, "{line}");
        if expected.is_some() {
            assert_eq!(
                read.leading_ask(),
                Some(crate::letter::Ask::Order),
                "{line}"
            );
        }
    }
}

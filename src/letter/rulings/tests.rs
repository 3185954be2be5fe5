//! The chief arbiter's lines read: the tournament word, the game, the days
//! and the reason of a decision.

use crate::letter::read;

#[test]
fn a_ruling_may_name_its_tournament_and_the_clerk_tells_a_game_word_apart() {
    // (line, tournament word, game, days) as read; then as resolved by a
    // clerk of CC-2026 and B.
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
                ruling.game.as_str(),
                ruling.days
            ),
            (tournament, game, days),
            "{line}"
        );
        let meant = ruling.resolved(&["CC-2026", "B"]);
        assert_eq!(
            (meant.tournament.as_deref(), meant.game.as_str(), meant.days),
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
                meant.game.as_str(),
                meant.days,
                meant.why.as_deref()
            ),
            (tournament, game, days, why),
            "{line}"
        );
    }
}

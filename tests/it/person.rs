//! A person who plays in several events of one clerk: his addresses, his
//! leave and his page are his, in every event; a seat in a game is the
//! event's, and a replacement gives it to someone else. Each test runs in
//! English and Russian, in a folder whose events read dates and keep days
//! each their own way (A: day first, Moscow; B: month first, London).

use crate::support::*;

const CAROL: &str = "carol@test.example";
const NINA: &str = "nina@test.example";

/// A tournament file: `white` and `black` (id, name; the id's `_` is the
/// address's `@`) play game 1, in `language`, with its own date order,
/// zone and leave allowance.
fn event(
    id: &str,
    (language, order, zone, leave): (&str, &str, &str, u32),
    white: (&str, &str),
    black: (&str, &str),
) -> String {
    let player = |(id, name): (&str, &str)| {
        format!(
            "[[players]]\nid = \"{id}\"\nname = \"{name}\"\nemail = \"{}\"\n\n",
            id.replace('_', "@")
        )
    };
    format!(
        "[tournament]\nid = \"{id}\"\nname = \"Cup {id}\"\nstart_date = 2026-11-01\n\
         end_date = 2028-11-01\ntimezone = \"{zone}\"\nlanguage = \"{language}\"\n\
         date_order = \"{order}\"\n\n[rules]\nleave_days_per_year = {leave}\n\n{}{}\
         [[games]]\nid = \"1\"\nwhite = \"{}\"\nblack = \"{}\"\n",
        player(white),
        player(black),
        white.0,
        black.0
    )
}

/// The clerk's folder: in A, White Player (white) against Black Player; in
/// B, Carol (white) against White Player (black). `leave`: each event's
/// days of leave a year.
pub(crate) fn folder(language: &str, leave: (u32, u32)) -> Tournament {
    let clerk = folder_clerk("\n[report]\nout = \"site\"\n");
    let t = Tournament::with_config(&clerk);
    let dir = t.path().join("tournaments");
    std::fs::create_dir(&dir).unwrap();
    let white = ("white_test.example", "White Player");
    let a = event(
        "A",
        (language, "dmy", "Europe/Moscow", leave.0),
        white,
        ("black_test.example", "Black Player"),
    );
    let b = event(
        "B",
        (language, "mdy", "Europe/London", leave.1),
        ("carol_test.example", "Carol"),
        white,
    );
    std::fs::write(dir.join("a.toml"), a).unwrap();
    std::fs::write(dir.join("b.toml"), b).unwrap();
    t
}

/// Carol's 1. d4 in B on 3 November, dated month first as B writes dates.
pub(crate) fn carol_opens(t: &mut Tournament) {
    t.letter(
        CAROL,
        "2026-11-03",
        "[B #1]",
        "Game 1\n1. d4\nTime: 2/0\nDates: 11/03/2026\n",
    );
}

/// Carol opens B and White Player opens A on 3 November, each date as its
/// event writes it: White is to move in B, Black in A.
fn both_opened(t: &mut Tournament) {
    carol_opens(t);
    t.letter(
        WHITE,
        "2026-11-03",
        "[A #1]",
        "Game 1\n1. e4\nTime: 2/0\nDates: 03/11/2026\n",
    );
    t.pass("2026-11-03");
    assert_eq!(
        kinds(&t.new_mail()),
        [
            pair("ack", CAROL),
            pair("forward", WHITE),
            pair("ack", WHITE),
            pair("forward", BLACK)
        ]
    );
}

/// Game 1's last day in `tournament` as `games --json` gives it on 5
/// November.
fn last_day(t: &Tournament, tournament: &str) -> chrono::NaiveDate {
    let out = t.run(&[
        "games",
        "--json",
        "--tournament",
        tournament,
        "--today",
        "2026-11-05",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let games: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    games[0]["last_day"].as_str().unwrap().parse().unwrap()
}

fn leave_line(language: &str) -> &'static str {
    match language {
        "ru" => "ОТПУСК 2026-11-10 - 2026-11-20\n",
        _ => "LEAVE 2026-11-10 - 2026-11-20\n",
    }
}

/// Who was told of a leave (the `leave-notice`s), with their subjects' tags.
fn told(mail: &[Sent]) -> Vec<(String, String)> {
    mail.iter()
        .filter(|m| m.kind == "leave-notice")
        .map(|m| {
            (
                m.to.join(","),
                m.subject.split(']').next().unwrap_or("").to_string() + "]",
            )
        })
        .collect()
}

/// Each event grants a leave by its own allowance: A grants five days, B
/// twelve. Eleven days asked in A are refused there and taken in B: B's
/// clock stops, Carol is told, Black is not, and the receipt says both.
#[test]
fn a_leave_over_one_events_allowance_is_taken_in_the_event_that_grants_it() {
    for language in ["en", "ru"] {
        let mut t = folder(language, (5, 12));
        both_opened(&mut t);
        let (a_before, b_before) = (last_day(&t, "A"), last_day(&t, "B"));
        let mail = t.exchange(WHITE, "2026-11-05", "[A #1] leave", leave_line(language));
        let receipt = mail.iter().find(|m| m.kind == "leave").expect("a receipt");
        // What was granted first, then where it was not and why.
        let (taken, refused, left) = match language {
            "ru" => (
                "учтён в турнирах: B. В эти дни ни вам, ни вашим партнёрам по партиям там ([B #1]) время не засчитывается",
                "A: там отпуск не предоставлен: в просьбе 11 дн. в 2026 году, а у вас на этот год осталось 5 дн. из 5 дн.",
                "Остаток отпуска на 2026 год в турнире B: 1 дн.",
            ),
            _ => (
                "is recorded in B: on those days no time is charged to you or to your partners in your games there ([B #1])",
                "A: the leave is not granted there: it asks 11 days of 2026, and you have 5 days of that year's 5 days left.",
                "Leave left for 2026 in B: 1 day.",
            ),
        };
        let body = receipt.body.replace("\r\n", "\n");
        assert!(
            body.find(taken).unwrap_or(usize::MAX) < body.find(refused).unwrap_or(0),
            "{language}: {body}"
        );
        receipt.says(refused);
        receipt.says(taken);
        receipt.says(left);
        assert_eq!(
            told(&mail),
            [(CAROL.to_string(), "[B #1]".to_string())],
            "{language}"
        );
        assert_eq!(last_day(&t, "A"), a_before, "{language}: A's clock goes on");
        assert_eq!((last_day(&t, "B") - b_before).num_days(), 11, "{language}");
    }
}

/// A leave asked beside a move is the person's too: the partners in his
/// other events are told and their clocks stop, as for a leave alone.
#[test]
fn a_leave_beside_a_move_stops_the_persons_games_in_every_event() {
    for language in ["en", "ru"] {
        let mut t = folder(language, (12, 12));
        both_opened(&mut t);
        t.exchange(
            BLACK,
            "2026-11-04",
            "Re: [A #1]",
            "Game 1\n1... e5\nTime: 2/1\nDates: 03/11/2026, 04/11/2026, 04/11/2026\n",
        );
        let b_before = last_day(&t, "B");
        let mail = t.exchange(
            WHITE,
            "2026-11-05",
            "Re: [A #1]",
            &format!(
                "Game 1\n2. Nf3\nTime: 3/1\nDates: 04/11/2026, 05/11/2026, 05/11/2026\n{}",
                leave_line(language)
            ),
        );
        assert!(
            mail.iter().any(|m| m.kind == "forward" && m.to == [BLACK]),
            "{:?}",
            kinds(&mail)
        );
        let told = told(&mail);
        for (to, tag) in [(BLACK, "[A #1]"), (CAROL, "[B #1]")] {
            assert!(
                told.contains(&(to.to_string(), tag.to_string())),
                "{language}: {told:?}"
            );
        }
        assert_eq!((last_day(&t, "B") - b_before).num_days(), 11, "{language}");
        // Black, to move in A by the forward of today, is told his last
        // day: his days count from today, the day the move reaches him,
        // with the leave's days left out.
        let notice = mail
            .iter()
            .find(|m| m.kind == "leave-notice" && m.to == [BLACK])
            .unwrap();
        notice.says(match language {
            "ru" => "Ваш ход; с учётом отпуска письмо с ходом нужно отправить не позднее ",
            _ => {
                "You are to move; with the leave counted, the letter with the move must be sent by "
            }
        });
        notice.never_says(match language {
            "ru" => "когда ход до вас дошёл",
            _ => "reaches you",
        });
    }
}

/// After a replacement the leaver's leave is his: in the event where he
/// was replaced it no longer stops the newcomer's clock (nor his partner's,
/// who is told the last day without it); in his other event it stands.
#[test]
fn a_replaced_players_leave_leaves_with_him() {
    for language in ["en", "ru"] {
        let mut t = folder(language, (12, 12));
        both_opened(&mut t);
        let (a_before, b_before) = (last_day(&t, "A"), last_day(&t, "B"));
        t.exchange(WHITE, "2026-11-04", "leave", leave_line(language));
        assert_eq!((last_day(&t, "A") - a_before).num_days(), 11);
        let out = t.run(&["poll", "--today", "2026-11-04"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let page = t.path().join("site/players/white_5ftest_2eexample.html");
        let before = std::fs::read_to_string(&page).expect("his page, in two events");
        assert!(before.contains("Cup B"), "{before}");
        let out = t.run(&[
            "--tournament",
            "A",
            "replace",
            "white_test.example",
            "--by",
            &format!("Nina N. <{NINA}>"),
            "--today",
            "2026-11-05",
        ]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        let mail = t.new_mail();
        let replaced = mail
            .iter()
            .find(|m| m.kind == "replaced")
            .expect("Black told");
        let without = match language {
            "ru" => a_before.format("%d.%m.%Y").to_string(),
            _ => a_before.to_string(),
        };
        replaced.says(&without);
        assert_eq!(
            last_day(&t, "A"),
            a_before,
            "{language}: Nina never asked for leave"
        );
        assert_eq!((last_day(&t, "B") - b_before).num_days(), 11, "{language}");
        // No page gives Nina the leaver's games: each plays in one event now.
        let out = t.run(&["poll", "--today", "2026-11-05"]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        let site = t.path().join("site");
        let index = std::fs::read_to_string(site.join("index.html")).unwrap();
        assert!(!index.contains("Nina N."), "{index}");
        let pages: Vec<String> = std::fs::read_dir(site.join("players"))
            .unwrap()
            .map(|page| std::fs::read_to_string(page.unwrap().path()).unwrap())
            .collect();
        assert!(
            pages.iter().all(|page| !page.contains("Nina N.")),
            "{pages:?}"
        );
    }
}

/// The same leave asked again is the one granted: said so, nothing
/// recorded twice, and what is left told for each event.
#[test]
fn a_leave_asked_again_is_granted_already_not_an_overlap() {
    for language in ["en", "ru"] {
        let mut t = folder(language, (12, 20));
        both_opened(&mut t);
        t.exchange(WHITE, "2026-11-04", "leave", leave_line(language));
        let b_after = last_day(&t, "B");
        let mail = t.exchange(WHITE, "2026-11-05", "leave", leave_line(language));
        assert_eq!(
            kinds(&mail),
            [pair("leave", WHITE)],
            "{language}: no partner told twice"
        );
        let receipt = &mail[0];
        let (already, left_a, left_b) = match language {
            "ru" => (
                "уже предоставлен: он остаётся в силе, и ничего не меняется",
                "Остаток отпуска на 2026 год в турнире A: 1 дн.",
                "Остаток отпуска на 2026 год в турнире B: 9 дн.",
            ),
            _ => (
                "was granted already: it stands as recorded, and nothing changes",
                "Leave left for 2026 in A: 1 day.",
                "Leave left for 2026 in B: 9 days.",
            ),
        };
        receipt.says(already);
        receipt.says(left_a);
        receipt.says(left_b);
        assert!(!receipt.body.contains("overlap") && !receipt.body.contains("пересека"));
        assert_eq!(last_day(&t, "B"), b_after, "{language}");
    }
}

/// An address added in one event (the director's `accept --add-address`)
/// is the person's: his letters from it are his in his other events too.
#[test]
fn an_address_added_in_one_event_is_known_in_the_persons_others() {
    for language in ["en", "ru"] {
        let mut t = folder(language, (0, 0));
        let home = "white.home@test.example";
        carol_opens(&mut t);
        t.letter(
            home,
            "2026-11-03",
            "[A #1]",
            "Game 1\n1. e4\nTime: 2/0\nDates: 03/11/2026\n",
        );
        t.pass("2026-11-03");
        t.new_mail();
        let out = t.run(&["today", "--today", "2026-11-03", "--json"]);
        let today: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        let key = today["changed_nothing"][0]["key"]
            .as_str()
            .expect("the stranger's letter")
            .to_string();
        let out = t.run(&[
            "--tournament",
            "A",
            "accept",
            &key,
            "--as",
            "white_test.example",
            "--add-address",
            "--today",
            "2026-11-03",
        ]);
        assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
        t.new_mail();
        let mail = t.exchange(
            home,
            "2026-11-04",
            "Re: [B #1]",
            "Game 1\n1... Nf6\nTime: 2/1\nDates: 11/03/2026, 11/03/2026, 11/04/2026\n",
        );
        assert_eq!(
            kinds(&mail),
            [pair("ack", WHITE), pair("forward", CAROL)],
            "{language}"
        );
    }
}

/// A letter is dated by its own event's zone and read by its own event's
/// date order: Carol's letter reaching the server at 23:30 UTC on 3
/// November is of 3 November in London (B), though of the 4th in Moscow
/// (A, the first file), and her `11/03/2026` is 3 November in B.
#[test]
fn a_letter_is_dated_in_its_own_events_zone() {
    for (language, sent) in [("en", "Sent on 2026-11-03"), ("ru", "03.11.2026")] {
        let mut t = folder(language, (0, 0));
        let raw = message(
            CLERK,
            CLERK,
            "2026-11-03",
            "[B #1]",
            "Game 1\n1. d4\nTime: 2/0\nDates: 11/03/2026\n",
            "",
            1,
        )
        .replace(
            "Received: from mx.test.example by mail.test.example; Tue, 03 Nov 2026 12:00:00 +0300",
            "Received: from mx.test.example by mail.test.example; Tue, 03 Nov 2026 23:30:00 +0000",
        )
        .replacen(&format!("From: {CLERK}"), &format!("From: {CAROL}"), 1);
        assert!(raw.contains("23:30:00 +0000"), "{raw}");
        t.deliver_raw(raw.as_bytes());
        let mail = t.exchange(WHITE, "2026-11-04", "nothing", "hello\n");
        let ack = mail
            .iter()
            .find(|m| m.kind == "ack" && m.to == [CAROL])
            .expect("an ack");
        ack.says(if language == "ru" {
            "Всё в порядке."
        } else {
            "Everything is in order."
        });
        let forward = mail
            .iter()
            .find(|m| m.kind == "forward")
            .expect("the forward");
        forward.says(sent);
    }
}

#[test]
fn a_leave_refused_says_once_that_the_games_go_on() {
    for ((a, b), last) in [
        ((0, 10), "30.11.2026"),
        ((0, 0), "16.11.2026"),
        ((5, 10), "16.11.2026"),
    ] {
        let mut t = folder("en", (a, b));
        let mail = t.exchange(
            WHITE,
            "2026-11-03",
            "[A] leave",
            &format!("LEAVE 10.11.2026 - {last}"),
        );
        let to_him = mail.iter().find(|m| m.to[0] == WHITE).expect("an answer");
        for line in to_him.body.lines() {
            assert!(line.matches("go on as before").count() <= 1, "{line}");
        }
        assert!(
            !to_him.body.contains("none); your games"),
            "{}",
            to_him.body
        );
    }
}

/// The notice of a leave taken in the person's other event is said to its
/// reader as she asked: Carol, who chose the other language, reads it in
/// hers, as `check` of the same letter shows it.
#[test]
fn a_leave_taken_in_another_event_is_told_in_its_readers_language() {
    for (language, asked, hers) in [
        ("en", "ЯЗЫК RU", "Carol, здравствуйте"),
        ("ru", "LANGUAGE EN", "Dear Carol"),
    ] {
        let mut t = folder(language, (12, 12));
        let mail = t.exchange(CAROL, "2026-11-02", "[B #1] settings", asked);
        assert_eq!(kinds(&mail), [pair("preferences", CAROL)], "{language}");
        both_opened(&mut t);
        let letter = t.letter(WHITE, "2026-11-05", "[A #1] leave", leave_line(language));
        let checked = t.run(&["check", letter.to_str().unwrap(), "--today", "2026-11-05"]);
        assert!(
            checked.stdout.contains(hers),
            "{language}: {}",
            checked.stdout
        );
        t.pass("2026-11-05");
        let mail = t.new_mail();
        let notice = mail
            .iter()
            .find(|m| m.kind == "leave-notice" && m.to == [CAROL])
            .unwrap_or_else(|| panic!("{language}: {:?}", kinds(&mail)));
        notice.says(hers);
    }
}

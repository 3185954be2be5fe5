//! A player's daily digest (`DIGEST DAILY`): what can wait is kept and
//! sent in one letter a day from the digest hour (here 20:00), the move in
//! it reaching him that day (rules.md 2.2: his days count from the day the
//! clerk's message reaches him), urgent notices at once, and `DIGEST NONE`
//! sending what was kept. The passes run at an hour of the day, as cron's.

use serde_json::Value;

use crate::support::*;

fn cup(language: &str) -> Tournament {
    Cup::new()
        .in_language(language)
        .table("[mail]\ndigest_hour = 20")
        .open()
}

/// A move as the chart gives it: its SAN, the day it reached the partner
/// (`-` while it has not), its days.
type Move = (String, String, u64);

/// Each move and the totals, from the chart.
fn moves(t: &Tournament) -> (Vec<Move>, (u64, u64)) {
    let chart = t.chart("1");
    let rows = chart["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m: &Value| {
            (
                m["san"].as_str().unwrap().to_string(),
                m["delivered_on"].as_str().unwrap_or("-").to_string(),
                m["days"].as_u64().unwrap(),
            )
        })
        .collect();
    (rows, t.totals("1"))
}

fn kinds_to(mail: &[Sent]) -> Vec<(String, String)> {
    mail.iter()
        .map(|m| (m.kind.clone(), m.to.join(",")))
        .collect()
}

fn row(san: &str, delivered: &str, days: u64) -> Move {
    (san.into(), delivered.into(), days)
}

#[test]
fn a_month_of_play_with_black_reading_one_letter_a_day() {
    let mut t = cup("en");
    let set = t.exchange(BLACK, "2026-11-02", "Settings", "DIGEST DAILY\n");
    assert_eq!(kinds_to(&set), [pair("preferences", BLACK)]);
    set[0].says("As you asked, your forwards, receipts and reminders come together, one letter a day: the first the clerk sends from 20:00");
    set[0].says("the clerk's letters to you, in every event you play in, come in English");
    set[0].never_says("as you asked, the clerk's letters");

    // 3 Nov: White's 1. e4 at 13:00: his receipt goes, the forward is kept.
    t.letter(WHITE, "2026-11-03", "Game 1", W1);
    t.pass_at("2026-11-03", "13:00");
    assert_eq!(kinds_to(&t.new_mail()), [pair("ack", WHITE)]);
    assert_eq!(moves(&t).0, [row("e4", "-", 2)]);
    // At 21:00, the digest: the move reaches Black today.
    t.pass_at("2026-11-03", "21:00");
    let digest = t.new_mail();
    assert_eq!(kinds_to(&digest), [pair("digest", BLACK)]);
    let digest = &digest[0];
    digest.says("The moves in it reach you today, 2026-11-03");
    digest.says("#1 (White Player - Black Player): 50 days left, last day 2026-12-23");
    digest.says("======== [T #1] 1. e4 ========");
    digest.says("Dates: 2026-11-03, <the date of your digest>, <the date you send it>");
    assert_eq!(moves(&t).0, [row("e4", "2026-11-03", 2)]);
    // A second pass that evening sends nothing more.
    t.pass_at("2026-11-03", "22:00");
    assert!(t.new_mail().is_empty());

    // 7 Nov: Black answers, received the 3rd (his digest's day): 4 days,
    // in order. White's forward goes at once; Black's receipt is kept.
    t.letter(BLACK, "2026-11-07", "Re: the day's digest", B1);
    t.pass_at("2026-11-07", "13:00");
    assert_eq!(kinds_to(&t.new_mail()), [pair("forward", WHITE)]);
    assert_eq!(
        moves(&t),
        (
            vec![row("e4", "2026-11-03", 2), row("e5", "2026-11-07", 4)],
            (2, 4)
        )
    );
    t.pass_at("2026-11-07", "20:05");
    let digest = t.new_mail();
    assert_eq!(kinds_to(&digest), [pair("digest", BLACK)]);
    digest[0].says("received: 1... e5");
    digest[0].never_says("Your move (");
    digest[0].never_says("reach you today");

    // 9 Nov: White's 2. Nf3 comes in the evening run: kept and sent in the
    // same run's digest.
    t.letter(
        WHITE,
        "2026-11-09",
        "Re: [T #1] 1... e5",
        "Game 1\n2. Nf3\nTime: 4/4\nDates: 2026-11-07, 2026-11-07, 2026-11-09\n",
    );
    t.pass_at("2026-11-09", "21:30");
    assert_eq!(
        kinds_to(&t.new_mail()),
        [pair("ack", WHITE), pair("digest", BLACK)]
    );

    // 15 Nov: Black's 2... Nc6, received the 9th: 6 days, 4/10.
    t.letter(
        BLACK,
        "2026-11-15",
        "Re: the day's digest",
        "Game 1\n2... Nc6\nTime: 4/10\nDates: 2026-11-09, 2026-11-09, 2026-11-15\n",
    );
    t.pass_at("2026-11-15", "13:00");
    assert_eq!(kinds_to(&t.new_mail()), [pair("forward", WHITE)]);
    assert_eq!(moves(&t).1, (4, 10));
    t.pass_at("2026-11-15", "20:00");
    assert_eq!(kinds_to(&t.new_mail()), [pair("digest", BLACK)]);

    // 17 Nov: White's 3. Bb5 at 13:00, kept; no run after 20:00 that day.
    // The next run, on the 18th at 09:00, sends the late digest at once:
    // the move reaches Black on the 18th, and he is told so.
    t.letter(
        WHITE,
        "2026-11-17",
        "Re: [T #1] 2... Nc6",
        "Game 1\n3. Bb5\nTime: 6/10\nDates: 2026-11-15, 2026-11-15, 2026-11-17\n",
    );
    t.pass_at("2026-11-17", "13:00");
    assert_eq!(kinds_to(&t.new_mail()), [pair("ack", WHITE)]);
    t.pass_at("2026-11-18", "09:00");
    let late = t.new_mail();
    assert_eq!(kinds_to(&late), [pair("digest", BLACK)]);
    late[0].says("The moves in it reach you today, 2026-11-18");
    late[0].says("#1 (White Player - Black Player): 40 days left, last day 2026-12-28");
    assert_eq!(moves(&t).0[4], row("Bb5", "2026-11-18", 2));

    // 20 Nov: an illegal move is refused at once, not kept.
    t.letter(
        BLACK,
        "2026-11-20",
        "Re: the day's digest",
        "Game 1\n3... Ke3\nTime: 6/12\nDates: 2026-11-17, 2026-11-18, 2026-11-20\n",
    );
    t.pass_at("2026-11-20", "13:00");
    let refused = t.new_mail();
    assert_eq!(kinds_to(&refused), [pair("refused", BLACK)]);

    // 21 Nov: 3... a6, received the 18th: 3 days, 6/13; the receipt kept.
    t.letter(
        BLACK,
        "2026-11-21",
        "Re: the day's digest",
        "Game 1\n3... a6\nTime: 6/13\nDates: 2026-11-17, 2026-11-18, 2026-11-21\n",
    );
    t.pass_at("2026-11-21", "13:00");
    assert_eq!(kinds_to(&t.new_mail()), [pair("forward", WHITE)]);
    assert_eq!(moves(&t).1, (6, 13));
    t.pass_at("2026-11-21", "20:00");
    assert_eq!(kinds_to(&t.new_mail()), [pair("digest", BLACK)]);
    // 23 Nov: White's 4. Ba4 kept at 13:00; then Black stops his digest:
    // what was kept for him goes at once, and the next forward comes alone.
    t.letter(
        WHITE,
        "2026-11-23",
        "Re: [T #1] 3... a6",
        "Game 1\n4. Ba4\nTime: 8/13\nDates: 2026-11-21, 2026-11-21, 2026-11-23\n",
    );
    t.pass_at("2026-11-23", "13:00");
    assert_eq!(kinds_to(&t.new_mail()), [pair("ack", WHITE)]);
    t.letter(BLACK, "2026-11-23", "Settings", "DIGEST NONE\n");
    t.pass_at("2026-11-23", "14:00");
    let last = t.new_mail();
    assert_eq!(
        kinds_to(&last),
        [pair("preferences", BLACK), pair("digest", BLACK)]
    );
    last[0].says("As you asked, each message comes as it is written");
    last[1].says("[T #1] 4. Ba4");
    assert_eq!(moves(&t).0[6], row("Ba4", "2026-11-23", 2));
    // 30 Nov: 4... Nf6, received the 23rd: 7 days, 8/20; receipt at once.
    t.letter(
        BLACK,
        "2026-11-30",
        "Re: [T #1] 4. Ba4",
        "Game 1\n4... Nf6\nTime: 8/20\nDates: 2026-11-23, 2026-11-23, 2026-11-30\n",
    );
    t.pass_at("2026-11-30", "13:00");
    assert_eq!(
        kinds_to(&t.new_mail()),
        [pair("ack", BLACK), pair("forward", WHITE)]
    );
    let (rows, totals) = moves(&t);
    let days: Vec<u64> = rows.iter().map(|r| r.2).collect();
    assert_eq!(days, [2, 4, 2, 6, 2, 3, 2, 7]);
    assert_eq!(totals, (8, 20));
}

/// Two events in Russian, one player in both with one address: one digest
/// a day for his games of both, in Russian, the game with the earlier last
/// day first; an overstep's notice is not kept.
#[test]
fn one_digest_for_a_persons_games_in_two_events_in_russian() {
    let t = Tournament::with_config(&folder_clerk("\n[mail]\ndigest_hour = 20\n"));
    let folder = t.path().join("tournaments");
    std::fs::create_dir(&folder).unwrap();
    let event = |id: &str, white: (&str, &str), start: &str| {
        format!(
            "[tournament]\nid = \"{id}\"\nname = \"Кубок {id}\"\nstart_date = {start}\n\
             end_date = 2028-11-01\ntimezone = \"Europe/Moscow\"\nlanguage = \"ru\"\n\n\
             [[players]]\nid = \"{}\"\nname = \"{}\"\nemail = \"{}@test.example\"\n\n\
             [[players]]\nid = \"petrov\"\nname = \"Петров П.\"\nemail = \"{BLACK}\"\n\n\
             [[games]]\nid = \"1\"\nwhite = \"{}\"\nblack = \"petrov\"\n",
            white.0, white.1, white.0, white.0
        )
    };
    std::fs::write(
        folder.join("a.toml"),
        event("A", ("ivanov", "Иванов И."), "2026-11-01"),
    )
    .unwrap();
    std::fs::write(
        folder.join("b.toml"),
        event("B", ("sidorov", "Сидоров С."), "2026-10-20"),
    )
    .unwrap();
    let mut t = t;
    let set = t.exchange(BLACK, "2026-11-02", "Настройки", "СВОДКА ЕЖЕДНЕВНО\n");
    assert_eq!(kinds_to(&set), [pair("preferences", BLACK)]);
    set[0].says("одним письмом в день: первым, которое секретарь отправит после 20:00");
    let a = "Партия 1\n1. e2-e4\nВремя: 2/0\nДаты: 03.11.2026\n";
    t.letter("ivanov@test.example", "2026-11-03", "[A #1] Партия 1", a);
    // B began on 20 October: Sidorov's first move has used 14 days.
    let b = "Партия 1\n1. d2-d4\nВремя: 14/0\nДаты: 03.11.2026\n";
    t.letter("sidorov@test.example", "2026-11-03", "[B #1] Партия 1", b);
    t.pass_at("2026-11-03", "13:00");
    let mail = t.new_mail();
    assert_eq!(
        kinds_to(&mail),
        [
            pair("ack", "ivanov@test.example"),
            pair("ack", "sidorov@test.example")
        ]
    );
    t.pass_at("2026-11-03", "20:00");
    let digest = t.new_mail();
    assert_eq!(kinds_to(&digest), [pair("digest", BLACK)]);
    let digest = &digest[0];
    assert_eq!(digest.subject, "сводка за день: писем — 2");
    digest.says("Ходы из неё доходят до вас сегодня, 03.11.2026");
    digest.says("Ваш ход (сначала самые срочные):");
    digest.says("    A #1 (Иванов И. – Петров П.): осталось 50 дн., последний день 23.12.2026");
    digest.says("    B #1 (Сидоров С. – Петров П.): осталось 50 дн., последний день 23.12.2026");
    digest.says("Даты: 03.11.2026, <дата сводки>, <дата отправки>");
    // STATUS says the mode, at once.
    let status = t.exchange(BLACK, "2026-11-04", "Статус", "СТАТУС\n");
    assert_eq!(kinds_to(&status), [pair("status", BLACK)]);
    status[0].says("приходят вам одной сводкой в день, после 20:00 по времени турнира");
}

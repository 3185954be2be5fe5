//! The corners of a game's life, end to end: what the clerk says
//! there must fit the game's state. One Russian tournament is played through a
//! silent overstep, a CONTINUE, a second overstep, a REJECT with excused days,
//! a finished game with a late resignation and a game added later; then each
//! point is reached once more another way (the other colour, English).

use crate::support::*;

const IVANOV: &str = "ivanov@test.example";
const PETROV: &str = "petrov@test.example";
const SIDOROV: &str = "sidorov@test.example";
const KOZLOV: &str = "kozlov@test.example";

/// КР-2026: Иванов–Петров (1), Сидоров–Козлов (2), Иванов–Козлов from
/// 1 February 2027 (3), Сидоров–Петров from 1 June 2027 (4).
fn russian() -> Tournament {
    Cup::empty()
        .named("КР-2026", "Кубок России 2026")
        .in_language("ru")
        .player("ivanov", "Иванов Иван Петрович", IVANOV)
        .player("petrov", "Петров Пётр Сергеевич", PETROV)
        .player("sidorov", "Сидоров Сидор Сидорович", SIDOROV)
        .player("kozlov", "Козлов Константин Андреевич", KOZLOV)
        .game("1", "ivanov", "petrov")
        .game("2", "sidorov", "kozlov")
        .game_from("3", "ivanov", "kozlov", "2027-02-01")
        .game_from("4", "sidorov", "petrov", "2027-06-01")
        .open()
}

/// White's first letter of game 1 on 3 November, answered and forwarded.
fn opens(t: &mut Tournament, white: &str, letter: &str) {
    t.letter(white, "2026-11-03", "Game 1", letter);
    t.pass("2026-11-03");
    t.new_mail();
}

fn body_of<'a>(mail: &'a [Sent], kind: &str, to: &str) -> &'a str {
    &mail
        .iter()
        .find(|m| m.kind == kind && m.to.first().is_some_and(|t| t == to))
        .unwrap_or_else(|| panic!("no {kind} to {to} in {:?}", kinds(mail)))
        .body
}

/// What a Russian player reads has no English move or word of the clerk's
/// in it, and no name declined by hand («игроку Петров»).
fn reads_russian(message: &Sent) {
    let text = format!("{}\n{}", message.subject, message.body);
    for english in [
        "Nf3",
        "Nc6",
        "Qh4",
        " expected",
        "reject",
        "confirm /",
        " days",
        "1 days",
    ] {
        assert!(
            !text.contains(english),
            "{english:?} in {}:\n{text}",
            message.kind
        );
    }
    for declined in ["игроку ", "игроком ", "от игрока "] {
        if let Some(at) = text.find(declined) {
            let next = text[at + declined.len()..].chars().next().unwrap_or(' ');
            assert!(
                !next.is_uppercase(),
                "{declined:?} before a name in:\n{text}"
            );
        }
    }
}

#[test]
fn a_russian_tournament_through_every_corner() {
    let mut t = russian();
    t.letter(
        IVANOV,
        "2026-11-03",
        "Партия 1",
        "Партия 1\n1. e4\nВремя: 2/0\nДаты: 03.11.2026\n",
    );
    let mut all = t.exchange(
        SIDOROV,
        "2026-11-03",
        "Партия 2",
        "Партия 2\n1. f3\nВремя: 2/0\nДаты: 03.11.2026\n",
    );
    assert_eq!(
        kinds(&all),
        [
            pair("ack", IVANOV),
            pair("forward", PETROV),
            pair("ack", SIDOROV),
            pair("forward", KOZLOV)
        ]
    );
    // The clerk's Message-IDs are ASCII for a Cyrillic id.
    assert!(all[0].message_id.is_ascii() && all[0].message_id.contains(".kr-2026@"));
    assert!(
        all[0].subject.starts_with("[КР-2026 #1]"),
        "{}",
        all[0].subject
    );

    // Game 2: Black mates on move 2; a resignation and a draw acceptance
    // after it are told the game is over and its result.
    let game_two = [
        (
            KOZLOV,
            "2026-11-05",
            "1... e5\nВремя: 2/2\nДаты: 03.11.2026, 03.11.2026, 05.11.2026",
        ),
        (
            SIDOROV,
            "2026-11-07",
            "2. g4\nВремя: 4/2\nДаты: 05.11.2026, 05.11.2026, 07.11.2026",
        ),
        (
            KOZLOV,
            "2026-11-09",
            "2... Фh4#\nВремя: 4/4\nДаты: 07.11.2026, 07.11.2026, 09.11.2026",
        ),
    ];
    for (from, day, text) in game_two {
        t.letter(
            from,
            day,
            "Re: [КР-2026 #2]",
            &format!("Партия 2\n{text}\n"),
        );
        t.poll(day);
    }
    let mail = t.new_mail();
    // The mate told in Russian letters.
    let mate = mail
        .iter()
        .find(|m| m.kind == "result")
        .unwrap_or_else(|| panic!("{:?}", kinds(&mail)));
    assert_eq!(mate.to, [SIDOROV]);
    mate.says("Последний ход: 2... Фh4");
    mate.says("Мат: побеждает");
    let winner = mail
        .iter()
        .find(|m| m.kind == "result" && m.to == [KOZLOV])
        .unwrap();
    winner.says("Мат: вы побеждаете.");
    let white_move = mail
        .iter()
        .find(|m| m.kind == "forward" && m.to == [KOZLOV])
        .unwrap();
    assert!(
        white_move.subject.contains("2. g4"),
        "{}",
        white_move.subject
    );
    all.extend(mail);
    t.letter(
        SIDOROV,
        "2026-11-12",
        "Re: [КР-2026 #2]",
        "Партия 2\nСдаюсь.\n",
    );
    t.pass("2026-11-12");
    let mail = t.exchange(
        KOZLOV,
        "2026-11-13",
        "Re: [КР-2026 #2]",
        "Партия 2\nПринимаю ничью.\n",
    );
    assert_eq!(
        kinds(&mail),
        [pair("refused", SIDOROV), pair("refused", KOZLOV)]
    );
    for late in &mail {
        assert!(late.body.contains("партия окончена (0-1)"), "{}", late.body);
        assert!(!late.body.contains("не найден ход"), "{}", late.body);
        assert!(!late.body.contains("<ваш ход>"), "{}", late.body);
    }
    all.extend(mail);

    // Game 1: Petrov is silent. Reminders give the last day,
    // then the overstep is declared by silence.
    t.pass("2026-12-13");
    let mail = t.new_mail();
    // Forty days unanswered: the move repeated, with the last day too.
    assert_eq!(
        kinds(&mail),
        [pair("repeat", PETROV), pair("reminder", PETROV)]
    );
    assert!(mail[0].body.contains("1. e4"), "{}", mail[0].body);
    mail[0].says("не позднее 23.12.2026");
    assert!(
        mail[1].subject.contains("осталось 10 дн."),
        "{}",
        mail[1].subject
    );
    mail[1].says("не позднее 23.12.2026");
    all.extend(mail);
    t.pass("2026-12-20");
    t.pass("2026-12-24");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("reminder", PETROV),
            pair("overstep-notice", PETROV),
            pair("overstep-notice", IVANOV),
            pair("overstep-file", ARBITER),
            pair("claim-notice", SECRETARY)
        ]
    );
    assert!(
        body_of(&mail, "claim-notice", SECRETARY).contains("нарушитель — Петров Пётр Сергеевич"),
        "{}",
        body_of(&mail, "claim-notice", SECRETARY)
    );
    all.extend(mail);

    // CONTINUE: the decision says who is to move, his days and last day (11).
    let mail = t.exchange(ARBITER, "2026-12-28", "Re: [КР-2026 #1]", "ПРОДОЛЖИТЬ 1\n");
    assert_eq!(
        kinds(&mail),
        [
            pair("decision", IVANOV),
            pair("decision", PETROV),
            pair("order-done", ARBITER)
        ]
    );
    mail[1].says("Ваш ход: на сегодня, 28.12.2026, в текущем контроле осталось 50 дн.");
    let decision = &mail[0].body;
    assert!(
        decision.contains("Ходит Петров Пётр Сергеевич: на сегодня, 28.12.2026, в текущем контроле осталось 50 дн.")
            && decision.contains("не позднее 16.02.2027"),
        "{decision}"
    );
    all.extend(mail);

    // The resumed game is watched again: reminders from the
    // decision on; then Petrov's letter itself oversteps (52 > 50), and
    // he gets the overstep notice only, his correction inside it.
    t.pass("2027-02-06");
    let mail = t.new_mail();
    // Game 3 began on 1 February: both players are told, White given the
    // lines for his first letter; nothing else for it.
    assert_eq!(
        kinds(&mail),
        [
            pair("reminder", PETROV),
            pair("start", IVANOV),
            pair("start", KOZLOV)
        ],
        "{:#?}",
        mail
    );
    mail[0].says("не позднее 16.02.2027");
    mail[1].says("начинается 01.02.2027");
    mail[1].says("Вы играете белыми: ваше время идёт с этого дня.");
    assert!(mail[1].body.contains("1. <ваш ход>"), "{}", mail[1].body);
    mail[2].says("Вы играете чёрными: с этого дня идёт время белых, Иванов Иван Петрович, а ваше начнёт идти, когда до вас дойдёт первый ход белых.");
    mail[2].never_says("<ваш ход>");
    all.extend(mail);
    t.letter(
        PETROV,
        "2027-02-18",
        "Re: [КР-2026 #1]",
        "Партия 1\n1... e5\nВремя: 2/50\nДаты: 03.11.2026, 03.11.2026, 18.02.2027\n",
    );
    t.pass("2027-02-18");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("overstep-notice", PETROV),
            pair("overstep-notice", IVANOV),
            pair("overstep-file", ARBITER),
            pair("claim-notice", SECRETARY)
        ]
    );
    let notice = body_of(&mail, "overstep-notice", PETROV);
    assert!(notice.contains("52 > 50"), "{notice}");
    assert!(
        notice.contains("Ваш ход 1... e5 записан в партию"),
        "{notice}"
    );
    assert!(notice.contains("время чёрных 52, а не 50"), "{notice}");
    assert!(
        !notice.contains("Всё в порядке") && !notice.contains("<ваш ход>"),
        "{notice}"
    );
    // The file's letters open in every program: message/rfc822
    // in 7bit or 8bit, never base64.
    let file = mail.iter().find(|m| m.kind == "overstep-file").unwrap();
    let raw = String::from_utf8_lossy(&file.raw);
    let parts: Vec<&str> = raw.split("Content-Type: message/rfc822").skip(1).collect();
    assert!(!parts.is_empty(), "no letter attached");
    for part in parts {
        let head = part.split("\r\n\r\n").next().unwrap();
        assert!(
            head.contains("Content-Transfer-Encoding: 8bit")
                || head.contains("Content-Transfer-Encoding: 7bit"),
            "{head}"
        );
    }
    all.extend(mail);

    // The offender writes again during the suspension: his letter
    // goes to the arbiter; he is told nobody's clock runs, and the protest day.
    let mail = t.exchange(
        PETROV,
        "2027-02-20",
        "Re: [КР-2026 #1]",
        "Партия 1\n1... e5\nВремя: 2/52\n",
    );
    assert_eq!(
        kinds(&mail),
        [
            pair("overstep-supplement", ARBITER),
            pair("refused", PETROV)
        ]
    );
    let told = &mail[1].body;
    assert!(told.contains("ничьи часы не идут"), "{told}");
    assert!(told.contains("не позднее 28.02.2027"), "{told}");
    assert!(
        !told.contains("продолжает идти") && !told.contains("сейчас 0/0"),
        "{told}"
    );
    all.extend(mail);

    // REJECT with 7 days excused: the decision gives the totals after the
    // excuse, and Ivanov, now to move, his days from today and last day.
    let mail = t.exchange(ARBITER, "2027-02-22", "Re: [КР-2026 #1]", "ОТКЛОНИТЬ 1 7\n");
    assert_eq!(
        kinds(&mail),
        [
            pair("decision", IVANOV),
            pair("decision", PETROV),
            pair("order-done", ARBITER)
        ]
    );
    let decision = &mail[0].body;
    assert!(
        decision.contains("не засчитал вашему партнёру (Петров Пётр Сергеевич): 7 дн.; время (белые/чёрные) теперь 2/45"),
        "{decision}"
    );
    assert!(
        decision.contains("Ваш ход: на сегодня, 22.02.2027, в текущем контроле осталось 48 дн.")
            && decision.contains("не позднее 11.04.2027"),
        "{decision}"
    );
    // And the lines for his letter; the offender's letter says who moves.
    assert!(decision.contains("2. <ваш ход>"), "{decision}");
    mail[1].says("не засчитал вам: 7 дн.");
    mail[1].says("Ходит Иванов Иван Петрович: на сегодня, 22.02.2027,");
    mail[1].never_says("<ваш ход>");
    all.extend(mail);
    assert_eq!(t.totals("1"), (2, 45));

    // `games` and the report tell the same story.
    let out = t.run(&["games", "--today", "2027-02-23"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    let line = |game: &str| {
        *lines
            .iter()
            .find(|l| l.starts_with(&format!("{game} ")))
            .unwrap_or_else(|| panic!("{}", out.stdout))
    };
    assert!(
        line("1").contains("2/45") && line("1").contains("47 w"),
        "{}",
        out.stdout
    );
    assert!(
        line("2").contains("finished") && line("2").contains("0-1"),
        "{}",
        out.stdout
    );
    // A finished game has no days left; moves are full moves (4 plies: 2).
    let cells: Vec<&str> = line("2").split_whitespace().collect();
    assert!(
        cells.contains(&"-") && cells.contains(&"2"),
        "{}",
        out.stdout
    );
    // Columns line up in characters, Cyrillic names and all.
    let column = |l: &str, cell: &str| {
        let at = l.find(cell).unwrap();
        l[..at].chars().count() + cell.chars().count()
    };
    assert_eq!(
        column(lines[0], "totals"),
        column(line("1"), "2/45"),
        "{}",
        out.stdout
    );
    assert_eq!(
        column(lines[0], "totals"),
        column(line("2"), "4/4"),
        "{}",
        out.stdout
    );
    let early = t.run(&["report", "--out", "site", "--today", "2027-01-15"]);
    assert_eq!(early.code, 2, "{}", early.stdout);
    assert!(early.stderr.contains("2027-02-22"), "{}", early.stderr);
    let site = t.path().join("site");
    let out = t.run(&[
        "report",
        "--out",
        site.to_str().unwrap(),
        "--today",
        "2027-02-23",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let page = std::fs::read_to_string(site.join("game-1.html")).unwrap();
    assert!(page.contains("id=\"credit-totals\">2/45<"), "{page}");
    assert!(page.contains("<span id=\"totals\">2/45</span>"), "{page}");
    assert!(
        page.contains(r##"1. <a href="#" data-ply="1" data-label="1. e4">e4</a> <a href="#" data-ply="2" data-label="1... e5">e5</a>"##),
        "{page}"
    );
    // Game 4 begins in June: not in the report of February.
    assert!(!site.join("game-4.html").exists());
    assert!(site.join("game-3.html").exists());
    let chart = t.run(&["chart", "1"]).stdout;
    assert!(
        chart.contains("Не засчитано главным судьёй, дней (белые/чёрные): 0/7"),
        "{chart}"
    );
    assert!(
        chart.contains("главный судья не засчитал дней: 7 (Петров Пётр Сергеевич)"),
        "{chart}"
    );
    assert!(
        chart.contains("решение главного судьи: просрочки нет"),
        "{chart}"
    );
    // The rows count as the letters do: Black's 52 less the 7 excused,
    // 5 left, in every form of the chart (Table 2 of the next file).
    let moves = &t.chart("1")["moves"];
    assert_eq!(
        (&moves[1]["total"], &moves[1]["excused"]),
        (&serde_json::json!(45), &serde_json::json!(7)),
        "{moves}"
    );
    let csv = t.run(&["chart", "1", "--format", "csv"]).stdout;
    let row = csv.lines().nth(2).unwrap();
    assert!(row.ends_with(",52,0,45,50,5,7"), "{csv}");
    let header = chart.lines().nth(1).unwrap();
    assert!(header.contains("Штраф  Не засчитано  Итого"), "{chart}");
    let black: Vec<&str> = chart.lines().nth(3).unwrap().split_whitespace().collect();
    assert_eq!(black[6..], ["52", "0", "7", "45", "50", "5"], "{chart}");
    assert!(
        page.contains("<td>52</td><td></td><td>7</td><td>45</td><td>50</td><td>5</td>"),
        "{page}"
    );
    // The chart's JSON writes the mate sign as the PGN does.
    assert_eq!(t.chart("2")["moves"][3]["san"], "Qh4#");

    // Every message a Russian player got reads Russian.
    all.extend(t.new_mail());
    for message in all.iter().filter(|m| m.to.iter().any(|to| to != ARBITER)) {
        reads_russian(message);
    }
    // Game 4 heard nothing before its day.
    assert!(!all.iter().any(|m| m.game == "4"), "{:?}", kinds(&all));
    assert!(!all.iter().any(|m| m.game == "3" && m.kind != "start"));
}

#[test]
fn an_overstepping_letter_gets_the_overstep_notice_only() {
    // Black this time, in English, his fraction wrong.
    let mut t = Tournament::new();
    opens(
        &mut t,
        WHITE,
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.letter(
        BLACK,
        "2026-12-27",
        "Re: [T #1]",
        "Game 1\n1... e5\nTime: 2/40\nDates: 2026-11-03, 2026-11-03, 2026-12-27\n",
    );
    t.pass("2026-12-27");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [
            pair("overstep-notice", BLACK),
            pair("overstep-notice", WHITE),
            pair("overstep-file", ARBITER),
            pair("claim-notice", SECRETARY)
        ]
    );
    let notice = &mail[0].body;
    assert!(
        notice.contains("Your move 1... e5 stands in the game"),
        "{notice}"
    );
    assert!(notice.contains("Black's total is 54, not 40"), "{notice}");
    assert!(!notice.contains("Everything is in order"), "{notice}");
    assert!(!notice.contains("Lines for your next letter"), "{notice}");
}

#[test]
fn a_move_out_of_turn_is_told_whose_move_it_is() {
    let mut t = Tournament::new();
    t.letter(
        WHITE,
        "2026-11-03",
        "Game 1",
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    t.pass("2026-11-03");
    t.letter(
        BLACK,
        "2026-11-05",
        "Re: [T #1]",
        "Game 1\n1... e5\nTime: 2/2\nDates: 2026-11-03, 2026-11-03, 2026-11-05\n",
    );
    t.pass("2026-11-05");
    t.new_mail();
    // Black writes again before White answered.
    let mail = t.exchange(
        BLACK,
        "2026-11-06",
        "Re: [T #1]",
        "Game 1\n2... Nc6\nTime: 2/3\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", BLACK)]);
    let text = &mail[0].body;
    assert!(
        text.contains("It is your partner's move: your clock is not running"),
        "{text}"
    );
    assert!(
        !text.contains("keeps running") && !text.contains("<your move>"),
        "{text}"
    );
    // The same for White in Russian, writing twice.
    let mut t = russian();
    opens(
        &mut t,
        IVANOV,
        "Партия 1\n1. e4\nВремя: 2/0\nДаты: 03.11.2026\n",
    );
    let mail = t.exchange(
        IVANOV,
        "2026-11-04",
        "Партия 1",
        "Партия 1\n2. Кf3\nВремя: 3/0\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", IVANOV)]);
    let text = &mail[0].body;
    assert!(
        text.contains("Сейчас ход партнёра: ваши часы не идут"),
        "{text}"
    );
    assert!(
        !text.contains("продолжает идти") && !text.contains("<ваш ход>"),
        "{text}"
    );
}

#[test]
fn a_protest_without_an_overstep_is_told_so() {
    let mut t = Tournament::new();
    opens(
        &mut t,
        WHITE,
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    let mail = t.exchange(
        BLACK,
        "2026-11-04",
        "Re: [T #1]",
        "Game 1\nPROTEST: I did nothing wrong.\n",
    );
    assert_eq!(kinds(&mail), [pair("refused", BLACK)]);
    assert!(mail[0].body.contains("no overstep"), "{}", mail[0].body);
    mail[0].never_says("no move was found");
}

#[test]
fn a_draw_accepted_after_mate_is_told_the_result() {
    let mut t = Tournament::new();
    let letters = [
        (WHITE, "2026-11-03", "1. e4\nTime: 1/0\nDates: 2026-11-03"),
        (
            BLACK,
            "2026-11-04",
            "1... f6\nTime: 1/1\nDates: 2026-11-03, 2026-11-03, 2026-11-04",
        ),
        (
            WHITE,
            "2026-11-05",
            "2. d4\nTime: 2/1\nDates: 2026-11-04, 2026-11-04, 2026-11-05",
        ),
        (
            BLACK,
            "2026-11-06",
            "2... g5\nTime: 2/2\nDates: 2026-11-05, 2026-11-05, 2026-11-06",
        ),
        (
            WHITE,
            "2026-11-07",
            "3. Qh5#\nTime: 3/2\nDates: 2026-11-06, 2026-11-06, 2026-11-07",
        ),
    ];
    for (from, day, text) in letters {
        t.letter(from, day, "Re: [T #1]", &format!("Game 1\n{text}\n"));
        t.poll(day);
    }
    t.new_mail();
    t.letter(
        BLACK,
        "2026-11-08",
        "Re: [T #1]",
        "Game 1\nI accept the draw.\n",
    );
    let mail = t.exchange(BLACK, "2026-11-08", "Re: [T #1]", "Game 1\nI resign.\n");
    assert_eq!(
        kinds(&mail),
        [pair("refused", BLACK), pair("refused", BLACK)]
    );
    for late in &mail {
        late.says("the game is over (1-0)");
    }
    assert_eq!(t.chart("1")["moves"][4]["san"], "Qh5#");
}

#[test]
fn the_limit_notice_names_the_games_of_a_player_in_several() {
    let text = config("", "") + "\n[[games]]\nid = \"2\"\nwhite = \"black\"\nblack = \"white\"\n";
    let mut t = Tournament::with_config(&text);
    for n in 0..11 {
        let game = if n % 2 == 0 { "1" } else { "2" };
        t.letter(
            WHITE,
            "2026-11-03",
            &format!("Game {game}"),
            &format!("Game {game}\nhello {n}\n"),
        );
    }
    t.pass("2026-11-03");
    let mail = t.new_mail();
    assert_eq!(mail.len(), 11, "{:?}", kinds(&mail));
    let notice = &mail[10];
    assert_eq!(notice.kind, "refused");
    assert!(
        notice.subject.contains("too many letters today"),
        "{}",
        notice.subject
    );
    notice.says("This holds for all your games: 1, 2");
    // The eleventh refusal is not swallowed: it comes the next day.
    t.pass("2026-11-04");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("refused", WHITE)]);
    mail[0].says("held until 2026-11-04");
}

#[test]
fn in_cc_mode_a_correction_reaches_both_players() {
    let mut t = russian();
    opens(
        &mut t,
        IVANOV,
        "Партия 1\n1. e4\nВремя: 2/0\nДаты: 03.11.2026\n",
    );
    // Petrov writes to Ivanov with the clerk in copy, dating it 06.11;
    // the postmark says 08.11.
    t.letter_cc(
        PETROV,
        IVANOV,
        "2026-11-08",
        "Re: [КР-2026 #1]",
        "Партия 1\n1... e5\nВремя: 2/3\nДаты: 03.11.2026, 03.11.2026, 06.11.2026\n",
    );
    t.pass("2026-11-08");
    let mail = t.new_mail();
    assert_eq!(
        kinds(&mail),
        [pair("correction", PETROV), pair("correction", IVANOV)],
        "{mail:#?}"
    );
    let partner = &mail[1].body;
    assert!(partner.contains("08.11.2026, а не 06.11.2026"), "{partner}");
    assert!(partner.contains("2/5"), "the right totals: {partner}");
    reads_russian(&mail[1]);
}

#[test]
fn the_query_and_the_repeat_give_the_last_day() {
    let mut t = Tournament::new();
    // No first move by 1 December: White is queried with his last day.
    t.pass("2026-12-01");
    let mail = t.new_mail();
    assert_eq!(kinds(&mail), [pair("query", WHITE)]);
    mail[0].says("send your letter by 2026-12-21");
    assert!(mail[0].body.contains("1. <your move>"), "{}", mail[0].body);
    // White moves; Black does not answer in 40 days: the repeat tells him
    // his last day.
    t.letter(
        WHITE,
        "2026-12-02",
        "Game 1",
        "Game 1\n1. e4\nTime: 31/0\nDates: 2026-12-02\n",
    );
    t.pass("2026-12-02");
    t.new_mail();
    t.pass("2027-01-11");
    let mail = t.new_mail();
    let repeat = mail
        .iter()
        .find(|m| m.kind == "repeat")
        .unwrap_or_else(|| panic!("{:?}", kinds(&mail)));
    assert_eq!(repeat.to, [BLACK]);
    repeat.says("you have 10 days left");
    repeat.says("send your letter by 2027-01-21");
}

#[test]
fn english_counts_one_day_as_a_day() {
    let text = config("reminder_days = [1]", "");
    let mut t = Tournament::with_config(&text);
    opens(
        &mut t,
        WHITE,
        "Game 1\n1. e4\nTime: 2/0\nDates: 2026-11-03\n",
    );
    // Black's clock runs from 3 November: one day left on 22 December.
    t.pass("2026-12-22");
    let mail = t.new_mail();
    let reminder = mail
        .iter()
        .find(|m| m.kind == "reminder")
        .unwrap_or_else(|| panic!("{:?}", kinds(&mail)));
    assert!(
        reminder.subject.contains("reminder: 1 day left"),
        "{}",
        reminder.subject
    );
    reminder.says("you have 1 day left");
    assert!(!reminder.body.contains("1 days"), "{}", reminder.body);
}

//! The federation's rating list through the binary: two seasons of three
//! events each (Russian and English), finished by the players' letters
//! and the director's orders, rated by hand (`tests/it/ratings.rs` holds
//! the arithmetic's tables; here every figure is worked out below from
//! FIDE's table 8.1(b)).

use serde_json::Value;

use crate::support::*;

const A: &str = "anna@test.example";
const B: &str = "boris@test.example";
const C: &str = "vera@test.example";
const D: &str = "gleb@test.example";

/// An event's file: its players (id, name, address, the rating lines) and
/// games (id, White, Black).
fn event(
    id: &str,
    language: &str,
    start: &str,
    players: &[(&str, &str, &str, &str)],
    games: &[(&str, &str, &str)],
) -> String {
    let mut text = format!(
        "[tournament]\nid = \"{id}\"\nname = \"Cup {id}\"\nstart_date = {start}\n\
         end_date = 2030-12-31\ntimezone = \"Europe/Moscow\"\nlanguage = \"{language}\"\n"
    );
    for (player, name, email, rating) in players {
        text.push_str(&format!(
            "\n[[players]]\nid = \"{player}\"\nname = \"{name}\"\nemail = \"{email}\"\n{rating}"
        ));
    }
    for (game, white, black) in games {
        text.push_str(&format!(
            "\n[[games]]\nid = \"{game}\"\nwhite = \"{white}\"\nblack = \"{black}\"\n"
        ));
    }
    text
}

/// Anna (2200, ICCF), Boris (2100), Vera (2000) and Gleb, without one,
/// in six events: 2027's begin on 1 January, 2028's on 10 January. A
/// year a list; a newcomer is rated after three games.
fn seasons() -> Tournament {
    let t = Tournament::with_config(&folder_clerk(
        "\n[ratings]\nperiod = \"year\"\nnewcomer_games = 3\n",
    ));
    let folder = t.path().join("tournaments");
    std::fs::create_dir(&folder).unwrap();
    let anna = (
        "anna",
        "Анна",
        A,
        "rating = 2200\nrating_source = \"ICCF 2026/4\"\n",
    );
    let boris = ("boris", "Борис", B, "rating = 2100\n");
    let vera = ("vera", "Вера", C, "rating = 2000\n");
    let gleb = ("gleb", "Глеб", D, "");
    let anna_en = ("ann", "Anna", A, "");
    let boris_en = ("bob", "Boris", B, "");
    let vera_en = ("vera", "Vera", C, "");
    let gleb_en = ("gleb", "Gleb", D, "");
    let (s1, s2) = ("2027-01-01", "2028-01-10");
    let files = [
        (
            "1-s1-a.toml",
            event(
                "S1-A",
                "ru",
                s1,
                &[anna, boris, vera],
                &[
                    ("1", "anna", "boris"),
                    ("2", "boris", "vera"),
                    ("3", "vera", "anna"),
                ],
            ),
        ),
        (
            "2-s1-b.toml",
            event(
                "S1-B",
                "en",
                s1,
                &[anna_en, boris_en, gleb_en],
                &[("1", "ann", "gleb"), ("2", "gleb", "bob")],
            ),
        ),
        (
            "3-s1-c.toml",
            event(
                "S1-C",
                "ru",
                s1,
                &[anna, vera, gleb],
                &[("1", "vera", "gleb"), ("2", "anna", "vera")],
            ),
        ),
        (
            "4-s2-a.toml",
            event(
                "S2-A",
                "en",
                s2,
                &[anna_en, boris_en, gleb_en],
                &[
                    ("1", "ann", "bob"),
                    ("2", "bob", "gleb"),
                    ("3", "gleb", "ann"),
                ],
            ),
        ),
        (
            "5-s2-b.toml",
            event(
                "S2-B",
                "ru",
                s2,
                &[anna, vera, gleb],
                &[("1", "vera", "anna"), ("2", "gleb", "vera")],
            ),
        ),
        (
            "6-s2-c.toml",
            event(
                "S2-C",
                "en",
                s2,
                &[boris_en, vera_en],
                &[("1", "bob", "vera")],
            ),
        ),
    ];
    for (name, text) in files {
        std::fs::write(folder.join(name), text).unwrap();
    }
    t
}

fn ok(t: &Tournament, args: &[&str]) -> Output {
    let out = t.run(args);
    assert_eq!(out.code, 0, "{args:?}:\n{}\n{}", out.stdout, out.stderr);
    out
}

/// The director sets a result (or a forfeit) on `day`.
fn result(t: &Tournament, event: &str, game: &str, result: &str, day: &str) {
    ok(
        t,
        &[
            "result",
            game,
            result,
            "--tournament",
            event,
            "--today",
            day,
        ],
    );
}

fn ratings_json(t: &Tournament, day: &str) -> Value {
    let out = ok(t, &["ratings", "--json", "--today", day]);
    serde_json::from_str(&out.stdout).unwrap()
}

/// Each player's (rating, change, games, total, status) on a list.
fn lines(list: &Value) -> Vec<(String, i64, Option<i64>, i64, i64, String)> {
    list["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["player"].as_str().unwrap().to_string(),
                p["rating"].as_i64().unwrap(),
                p["change"].as_i64(),
                p["games"].as_i64().unwrap(),
                p["total"].as_i64().unwrap(),
                p["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn row(
    player: &str,
    rating: i64,
    change: Option<i64>,
    games: i64,
    total: i64,
    status: &str,
) -> (String, i64, Option<i64>, i64, i64, String) {
    (player.into(), rating, change, games, total, status.into())
}

/// 2027: the first season's games as played.
fn first_season(t: &mut Tournament) {
    t.poll("2027-01-02");
    // S1-A #2, Boris – Vera 1-0, by letters in Russian: 1. e4, Vera resigns.
    t.letter(
        B,
        "2027-01-05",
        "[S1-A #2] Партия 2",
        "Партия 2\n1. e2-e4\nВремя: 0/0\n",
    );
    t.poll("2027-01-05");
    t.letter(
        C,
        "2027-01-08",
        "Re: [S1-A #2] Партия 2",
        "Партия 2\nСдаюсь.\n",
    );
    t.poll("2027-01-08");
    // S1-B #1, Anna – Gleb 1-0, in English: 1. e4, Gleb resigns.
    t.letter(
        A,
        "2027-02-01",
        "[S1-B #1] Game 1",
        "Game 1\n1. e4\nTime: 0/0\n",
    );
    t.poll("2027-02-01");
    t.letter(
        D,
        "2027-02-04",
        "Re: [S1-B #1] Game 1",
        "Game 1\nI resign.\n",
    );
    t.poll("2027-02-04");
    result(t, "S1-A", "1", "1/2", "2027-03-01");
    result(t, "S1-A", "3", "1-0", "2027-04-01");
    result(t, "S1-B", "2", "1/2", "2027-05-01");
    result(t, "S1-C", "1", "0-1", "2027-06-01");
    // Scored, not played: not rated.
    ok(
        t,
        &[
            "forfeit",
            "2",
            "black",
            "--tournament",
            "S1-C",
            "--today",
            "2027-07-01",
        ],
    );
}

/// 2028: the second season's, rated with the 2027 list.
fn second_season(t: &mut Tournament) {
    t.poll("2028-01-11");
    // S2-B #2, Gleb – Vera 1-0 (Russian letters).
    t.letter(
        D,
        "2028-01-12",
        "[S2-B #2] Партия 2",
        "Партия 2\n1. d2-d4\nВремя: 0/0\n",
    );
    t.poll("2028-01-12");
    t.letter(
        C,
        "2028-01-15",
        "Re: [S2-B #2] Партия 2",
        "Партия 2\nСдаюсь.\n",
    );
    t.poll("2028-01-15");
    // S2-A #1, Anna – Boris 0-1 (English): Anna resigns after 1. e4 e5.
    t.letter(
        A,
        "2028-02-01",
        "[S2-A #1] Game 1",
        "Game 1\n1. e4\nTime: 0/0\n",
    );
    t.poll("2028-02-01");
    t.letter(
        B,
        "2028-02-03",
        "Re: [S2-A #1] Game 1",
        "Game 1\n1... e5\nTime: 0/2\n",
    );
    t.poll("2028-02-03");
    t.letter(
        A,
        "2028-02-05",
        "Re: [S2-A #1] Game 1",
        "Game 1\nI resign.\n",
    );
    t.poll("2028-02-05");
    result(t, "S2-A", "2", "1/2", "2028-03-01");
    result(t, "S2-A", "3", "1/2", "2028-04-01");
    result(t, "S2-B", "1", "1/2", "2028-05-01");
    result(t, "S2-C", "1", "1-0", "2028-06-01");
}

#[test]
fn two_seasons_of_three_events_rated_by_hand() {
    let mut t = seasons();
    first_season(&mut t);
    let charted = t.run(&["chart", "2", "--format", "json", "--tournament", "S1-A"]);
    assert!(charted.stdout.contains("\"1-0\""), "{}", charted.stdout);
    // Before 2027 is over, no list: the six games to rate wait (the
    // forfeit is not one).
    let waiting = ratings_json(&t, "2027-12-31");
    assert_eq!(waiting["lists"].as_array().unwrap().len(), 0);
    assert_eq!(
        (
            waiting["waiting"].as_i64(),
            waiting["next"]["period"].as_str()
        ),
        (Some(6), Some("2027"))
    );

    // 2027, K 40 for all (no game rated before). Ratings given: Anna 2200,
    // Boris 2100, Vera 2000; Gleb none, so no one's game against him is
    // rated, and the forfeit (Anna – Vera) is not rated.
    // Anna: Boris D 100 .64, draw: -.14; Vera D 200 .76, lost: -.76;
    //   -.90 x 40 = -36 -> 2164.
    // Boris: Anna D 100 .36, draw: +.14; Vera D 100 .64, won: +.36;
    //   +.50 x 40 = +20 -> 2120.
    // Vera: Boris .36, lost: -.36; Anna D 200 .24, won: +.76; +.40 -> +16 -> 2016.
    // Gleb, his first rating from three games: Anna 2200 lost, Boris 2100
    //   drawn, Vera 2000 won, with two draws against 1800: Ra = 9,900 / 5
    //   = 1980, p = 2.5 / 5 = .50, dp 0: 1980.
    let first = ratings_json(&t, "2028-01-01");
    let lists = first["lists"].as_array().unwrap();
    assert_eq!(lists.len(), 1);
    assert_eq!(lists[0]["period"], "2027");
    assert_eq!(
        lines(&lists[0]),
        [
            row("anna", 2164, Some(-36), 2, 2, "rated"),
            row("boris", 2120, Some(20), 2, 2, "rated"),
            row("vera", 2016, Some(16), 2, 2, "rated"),
            row("gleb", 1980, None, 3, 3, "rated"),
        ]
    );

    second_season(&mut t);
    // 2028, with the 2027 list (the events began after it): Anna 2164,
    // Boris 2120, Vera 2016, Gleb 1980; K still 40 (under 30 games).
    // Anna: Boris D 44 .56, lost: -.56; Gleb D 184 .74, drawn: -.24;
    //   Vera D 148 .70, drawn: -.20; -1.00 x 40 = -40 -> 2124.
    // Boris: Anna .44, won: +.56; Gleb D 140 .69, drawn: -.19; Vera D 104
    //   .64, won: +.36; +.73 x 40 = 29.2 -> +29 -> 2149.
    // Vera: Anna .30, drawn: +.20; Gleb D 36 .55, lost: -.55; Boris .36,
    //   lost: -.36; -.71 x 40 = -28.4 -> -28 -> 1988.
    // Gleb: Boris .31, drawn: +.19; Anna .26, drawn: +.24; Vera .45, won:
    //   +.55; +.98 x 40 = 39.2 -> +39 -> 2019.
    let second = ratings_json(&t, "2029-01-01");
    let lists = second["lists"].as_array().unwrap();
    assert_eq!(lists.len(), 2);
    assert_eq!(
        lines(&lists[1]),
        [
            row("boris", 2149, Some(29), 3, 5, "rated"),
            row("anna", 2124, Some(-40), 3, 5, "rated"),
            row("gleb", 2019, Some(39), 3, 6, "rated"),
            row("vera", 1988, Some(-28), 3, 5, "rated"),
        ]
    );
    assert!(
        lists[1]["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["k"] == 40)
    );

    // The text list and a player's history, by any of his ids or his address.
    let text = ok(&t, &["ratings", "--today", "2029-01-01"]).stdout;
    assert!(
        text.starts_with("Rating list 2028 (FIDE, 2028-01-01 to 2028-12-31): 4 players\n"),
        "{text}"
    );
    let boris_line = text.lines().find(|l| l.contains("Борис")).unwrap();
    let cells: Vec<&str> = boris_line.split_whitespace().collect();
    assert_eq!(
        cells,
        ["1", "Борис", "2149", "+29", "3", "5", "rated", "40"],
        "{text}"
    );
    let anna = ok(&t, &["ratings", "--player", "ann", "--today", "2029-01-01"]).stdout;
    assert!(
        anna.starts_with("Анна (anna), FIDE, given 2200 (ICCF 2026/4)\n"),
        "{anna}"
    );
    for who in ["bob", "boris", B] {
        let history = ok(&t, &["ratings", "--player", who, "--today", "2029-01-01"]).stdout;
        assert!(
            history.starts_with("Борис (boris), FIDE, given 2100\n"),
            "{history}"
        );
        let periods: Vec<&str> = history
            .lines()
            .skip(2)
            .map(|l| l.split_whitespace().next().unwrap())
            .collect();
        assert_eq!(periods, ["2027", "2028"], "{history}");
    }
    let json = ok(
        &t,
        &[
            "ratings",
            "--player",
            "gleb",
            "--json",
            "--today",
            "2029-01-01",
        ],
    )
    .stdout;
    let gleb: Value = serde_json::from_str(&json).unwrap();
    let ratings: Vec<i64> = gleb["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["rating"].as_i64().unwrap())
        .collect();
    assert_eq!(ratings, [1980, 2019]);
    the_report_shows_the_lists(&t);
    let nobody = t.run(&["ratings", "--player", "nobody"]);
    assert_eq!(nobody.code, 2);
    assert!(
        nobody.stderr.contains("--player nobody: no player"),
        "{}",
        nobody.stderr
    );
}

#[test]
fn a_bad_rating_is_refused_with_its_file_and_key() {
    let t = seasons();
    let file = t.path().join("tournaments/6-s2-c.toml");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(
        &file,
        text.replacen(
            "email = \"boris@test.example\"\n",
            "email = \"boris@test.example\"\nrating = 21500\n",
            1,
        ),
    )
    .unwrap();
    let out = t.run(&["ratings"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("6-s2-c.toml: players[0].rating: 21500 is not a rating"),
        "{}",
        out.stderr
    );
    std::fs::write(&file, text).unwrap();
    let clerk = t.path().join("shtempel.toml");
    let clerk_text = std::fs::read_to_string(&clerk).unwrap();
    std::fs::write(
        &clerk,
        clerk_text.replace("period = \"year\"", "period = \"week\""),
    )
    .unwrap();
    let out = t.run(&["ratings"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr
            .contains("shtempel.toml: ratings.period: \"week\" is not a period"),
        "{}",
        out.stderr
    );
}

/// The folder's report: the last list, each player's history and its plot,
/// and each section's ratings as it began, in its language.
fn the_report_shows_the_lists(t: &Tournament) {
    let site = t.path().join("site");
    ok(
        t,
        &[
            "report",
            "--out",
            site.to_str().unwrap(),
            "--today",
            "2029-01-01",
        ],
    );
    let read = |name: &str| std::fs::read_to_string(site.join(name)).unwrap();
    let index = read("index.html");
    assert!(
        index.contains("<a href=\"ratings.html\">Рейтинг-лист</a>"),
        "{index}"
    );
    let list = read("ratings.html");
    assert!(list.contains("<h1>Рейтинг-лист 2028</h1>"), "{list}");
    assert!(
        list.contains("01.01.2028 – 31.12.2028 · по системе ФИДЕ"),
        "{list}"
    );
    let boris = "<tr><td>1</td><td class=\"name\"><a href=\"ratings/boris.html\">Борис</a></td>\
                 <td>2149</td><td>+29</td><td>3</td><td>5</td><td class=\"name\">рейтинг</td><td>40</td></tr>";
    assert!(list.contains(boris), "{list}");
    let history = read("ratings/boris.html");
    assert!(history.contains("Начальный рейтинг: 2100"), "{history}");
    assert!(
        history.contains("<td class=\"name\">2027</td><td>2120</td><td>+20</td>"),
        "{history}"
    );
    assert!(history.contains("<img src=\"boris.svg\""), "{history}");
    let plot = read("ratings/boris.svg");
    assert!(
        plot.starts_with("<svg") && plot.contains("2027") && plot.contains("2028"),
        "{plot}"
    );
    // S2-A (English), begun 2028-01-10: the 2027 list's Anna 2164, Boris
    // 2120, Gleb 1980; average 6,264 / 3 = 2088, no category (under 2251).
    let section = read("S2-A/index.html");
    assert!(
        section.contains("<p class=\"strength\">Average rating 2088</p>"),
        "{section}"
    );
    assert!(section.contains("<th>Rating</th>"), "{section}");
    assert!(
        section.contains("<td class=\"name\">Boris</td><td class=\"rating\">2120</td>"),
        "{section}"
    );
    // S1-A (Russian), before any list: the ratings given, 2200, 2100, 2000.
    let first = read("S1-A/index.html");
    assert!(first.contains("Средний рейтинг 2100"), "{first}");
    assert!(
        first.contains("<td class=\"name\">Анна</td><td class=\"rating\">2200</td>"),
        "{first}"
    );

    // Written again with nothing changed, the pages are left as they are;
    // a result the arbiter changes later changes the list it was rated in.
    let modified = || {
        std::fs::metadata(site.join("ratings/boris.html"))
            .unwrap()
            .modified()
            .unwrap()
    };
    let before = modified();
    std::thread::sleep(std::time::Duration::from_millis(20));
    ok(
        t,
        &[
            "report",
            "--out",
            site.to_str().unwrap(),
            "--today",
            "2029-01-01",
        ],
    );
    assert_eq!(modified(), before);
    result(t, "S2-C", "1", "0-1", "2029-01-02");
    ok(
        t,
        &[
            "report",
            "--out",
            site.to_str().unwrap(),
            "--today",
            "2029-01-02",
        ],
    );
    assert_ne!(modified(), before);
    // Boris lost to Vera instead: -.64 for the game, +.73 - 1.00 = -.27
    // x 40 = -10.8 -> -11: 2109.
    let list = read("ratings.html");
    assert!(list.contains("<td>2109</td><td>-11</td>"), "{list}");
}

/// A section strong enough for a FIDE category: its heading says which.
#[test]
fn a_strong_section_has_its_fide_category() {
    let t = Tournament::with_config(&folder_clerk(""));
    let folder = t.path().join("tournaments");
    std::fs::create_dir(&folder).unwrap();
    let players = [
        ("a", "Anna", A, "rating = 2300\n"),
        ("b", "Boris", B, "rating = 2280\n"),
        ("c", "Vera", C, "rating = 2261\n"),
        ("d", "Gleb", D, ""),
    ];
    let text = event(
        "M",
        "en",
        "2027-01-01",
        &players,
        &[("1", "a", "b"), ("2", "c", "d")],
    );
    std::fs::write(folder.join("m.toml"), text).unwrap();
    let site = t.path().join("site");
    ok(
        &t,
        &[
            "report",
            "--out",
            site.to_str().unwrap(),
            "--today",
            "2027-01-02",
        ],
    );
    let section = std::fs::read_to_string(site.join("M/index.html")).unwrap();
    // (2300 + 2280 + 2261) / 3 = 2280.3 -> 2280: category 2 (2276-2300);
    // Gleb, unrated, counts in no average.
    assert!(
        section.contains("Average rating 2280, category 2"),
        "{section}"
    );
    assert!(
        section.contains("<td class=\"name\">Gleb</td><td class=\"rating\">–</td>"),
        "{section}"
    );
    let list = std::fs::read_to_string(site.join("ratings.html")).unwrap();
    assert!(list.contains("No rating list yet"), "{list}");
}

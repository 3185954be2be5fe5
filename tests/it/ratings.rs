//! The rating list's arithmetic as tables against what FIDE and Glickman
//! publish: FIDE's expected-score table (Handbook B.02, table 8.1(b)) row
//! by row at both ends, its score-to-difference table (8.1(a)), K, the
//! 400-point rule, a newcomer's first rating; Glickman's own worked
//! example of Glicko-2 (glicko2.pdf, "Example calculation"); and a round
//! robin of six rated by hand below, each figure read off the tables.

use chrono::NaiveDate;
use shtempel::ratings::fide::{self, Past, Scored};
use shtempel::ratings::{
    self, Entry, Game, Glicko, Method, Period, Player, Settings, Status, glicko,
};

fn d(text: &str) -> NaiveDate {
    text.parse().unwrap()
}

/// Table 8.1(b) as FIDE prints it: the difference's first and last point,
/// and the higher rated player's expected score.
const TABLE_8_1_B: &[(u32, u32, i64)] = &[
    (0, 3, 50),
    (4, 10, 51),
    (11, 17, 52),
    (18, 25, 53),
    (26, 32, 54),
    (33, 39, 55),
    (40, 46, 56),
    (47, 53, 57),
    (54, 61, 58),
    (62, 68, 59),
    (69, 76, 60),
    (77, 83, 61),
    (84, 91, 62),
    (92, 98, 63),
    (99, 106, 64),
    (107, 113, 65),
    (114, 121, 66),
    (122, 129, 67),
    (130, 137, 68),
    (138, 145, 69),
    (146, 153, 70),
    (154, 162, 71),
    (163, 170, 72),
    (171, 179, 73),
    (180, 188, 74),
    (189, 197, 75),
    (198, 206, 76),
    (207, 215, 77),
    (216, 225, 78),
    (226, 235, 79),
    (236, 245, 80),
    (246, 256, 81),
    (257, 267, 82),
    (268, 278, 83),
    (279, 290, 84),
    (291, 302, 85),
    (303, 315, 86),
    (316, 328, 87),
    (329, 344, 88),
    (345, 357, 89),
    (358, 374, 90),
    (375, 391, 91),
    (392, 411, 92),
];

#[test]
fn the_expected_score_is_fides_table_row_by_row() {
    for &(first, last, higher) in TABLE_8_1_B {
        for difference in [first, last] {
            let (strong, weak) = (2000 + difference as i32, 2000);
            assert_eq!(fide::expected(strong, weak), higher, "D = {difference}, H");
            assert_eq!(
                fide::expected(weak, strong),
                100 - higher,
                "D = {difference}, L"
            );
        }
    }
}

#[test]
fn a_difference_over_400_counts_as_400() {
    // 8.3.1: 500 would be .95 in the table's later rows; it counts as 400 (.92).
    for difference in [401, 412, 500, 735, 1200] {
        assert_eq!(fide::expected(1500 + difference, 1500), 92, "{difference}");
        assert_eq!(fide::expected(1500, 1500 + difference), 8, "{difference}");
    }
}

#[test]
fn a_score_is_worth_fides_difference() {
    // Table 8.1(a), a row from each of its columns and its ends.
    let table = [
        (100, 800),
        (99, 677),
        (92, 401),
        (83, 273),
        (75, 193),
        (66, 117),
        (57, 50),
        (50, 0),
        (49, -7),
        (43, -50),
        (32, -133),
        (25, -193),
        (15, -296),
        (1, -677),
        (0, -800),
    ];
    for (p, dp) in table {
        assert_eq!(fide::difference_of(p), dp, "p = .{p:02}");
    }
}

#[test]
fn k_is_40_then_20_then_10_and_700_bounds_a_period() {
    let new = Past {
        games: 0,
        reached_2400: false,
    };
    let seasoned = Past {
        games: 30,
        reached_2400: false,
    };
    let strong = Past {
        games: 30,
        reached_2400: true,
    };
    let table = [
        (new, 5, 40),
        (
            Past {
                games: 29,
                reached_2400: true,
            },
            1,
            40,
        ),
        (seasoned, 10, 20),
        (strong, 10, 10),
        // 8.3.3: K x n at most 700: 40 x 20 = 800 gives 35; 20 x 36 gives 19.
        (new, 20, 35),
        (seasoned, 36, 19),
        (strong, 71, 9),
    ];
    for (past, games, k) in table {
        assert_eq!(fide::k_factor(past, games), k, "{past:?}, {games} games");
    }
}

/// 8.3.4: "rounded to the nearest whole number. 0.5 is rounded away from zero."
#[test]
fn a_change_is_summed_then_rounded_half_away_from_zero() {
    // Against 2000 at 2000 (.50): a win is +.50 x 40 = 20.
    let win = Scored {
        own: 2000,
        opponent: 2000,
        halves: 2,
    };
    assert_eq!(fide::change(&[win], 40), 20);
    // .59 expected, a draw: -.09 x 20 = -1.8 -> -2; twice: -3.6 -> -4.
    let draw = Scored {
        own: 2065,
        opponent: 2000,
        halves: 1,
    };
    assert_eq!(fide::change(&[draw], 20), -2);
    assert_eq!(fide::change(&[draw, draw], 20), -4);
    // -.09 x 10 x 5 = -4.5 rounds away from zero, to -5; +.09 x 10 x 5 to +5.
    assert_eq!(fide::change(&[draw; 5], 10), -5);
    let weak_draw = Scored {
        own: 2000,
        opponent: 2065,
        halves: 1,
    };
    assert_eq!(fide::change(&[weak_draw; 5], 10), 5);
    // -.32 x 40 = -12.8 -> -13; +.94 x 40 = 37.6 -> 38.
    let loss = Scored {
        own: 2180,
        opponent: 2310,
        halves: 0,
    };
    assert_eq!(fide::change(&[loss], 40), -13);
}

#[test]
fn a_newcomers_first_rating_counts_two_draws_against_1800() {
    // 3 of 5 against 2000, 2100, 1900, 2000, 2050; with the two draws:
    // Ra = (10,050 + 3,600) / 7 = 1950, p = 4 / 7 = .571 -> .57, dp = 50.
    let games = [(2000, 2), (2100, 1), (1900, 2), (2000, 0), (2050, 1)];
    assert_eq!(fide::performance(&games), 2000);
    // 0 of 5 against 1600: Ra = (8,000 + 3,600) / 7 = 1657.1, p = 1 / 7
    // = .143 -> .14, dp = -309: 1348.1 -> 1348.
    assert_eq!(fide::performance(&[(1600, 0); 5]), 1348);
    // 8.2 (2024): a first rating needs half a point against rated players
    // and 1400 at least; it is at most 2200.
    assert_eq!(fide::first_rating(&games), Some(2000));
    assert_eq!(fide::first_rating(&[(1600, 0); 5]), None);
    assert_eq!(
        fide::first_rating(&[(1500, 1), (1500, 0), (1500, 0), (1500, 0), (1500, 0)]),
        None
    );
    // 5 of 5 against 2300: Ra = (11,500 + 3,600) / 7 = 2157.1, p = 6 / 7 =
    // .857 -> .86, dp 309: 2466 -> 2200.
    assert_eq!(fide::performance(&[(2300, 2); 5]), 2466);
    assert_eq!(fide::first_rating(&[(2300, 2); 5]), Some(2200));
}

#[test]
fn fides_category_is_the_average_in_steps_of_25_above_2250() {
    let table = [
        (2250, None),
        (2251, Some(1)),
        (2275, Some(1)),
        (2276, Some(2)),
        (2500, Some(10)),
        (2513, Some(11)),
    ];
    for (average, category) in table {
        assert_eq!(fide::category(average), category, "{average}");
    }
}

#[test]
fn glicko2_is_glickmans_example() {
    // glicko2.pdf: a player of 1500, RD 200, volatility 0.06 beats 1400
    // (RD 30), loses to 1550 (RD 100) and to 1700 (RD 300): 1464.06, RD
    // 151.52, volatility 0.05999.
    let player = Glicko {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let opponent = |rating, deviation| Glicko {
        rating,
        deviation,
        volatility: 0.06,
    };
    let after = glicko::period(
        player,
        &[
            (opponent(1400.0, 30.0), 2),
            (opponent(1550.0, 100.0), 0),
            (opponent(1700.0, 300.0), 0),
        ],
    );
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    // A period without games: only less certain, sqrt(φ² + σ²) on its
    // scale (173.7178 points a unit): 200.27.
    let idle = glicko::period(player, &[]);
    assert_eq!(idle.rating, 1500.0);
    let grown = (200.0f64.powi(2) + (0.06f64 * 173.7178).powi(2)).sqrt();
    assert!(
        (idle.deviation - grown).abs() < 1e-9 && grown > 200.27,
        "{idle:?}"
    );
}

fn players(starts: &[(&str, Option<u32>)]) -> Vec<Player> {
    starts
        .iter()
        .map(|&(key, start)| Player {
            key: key.into(),
            name: key.into(),
            start,
            start_source: None,
        })
        .collect()
}

fn game(white: usize, black: usize, white_halves: u8, began: &str, ended: &str) -> Game {
    Game {
        white,
        black,
        white_halves,
        began: d(began),
        ended: d(ended),
        forfeit: false,
    }
}

fn line(list: &ratings::List, player: usize) -> Entry {
    *list.entries.iter().find(|e| e.player == player).unwrap()
}

/// Six players with ratings given, every game finished in the first
/// quarter of 2027, K = 40 for all (no game rated here before).
#[test]
fn a_round_robin_of_six_rated_by_hand() {
    let six = players(&[
        ("a", Some(2310)),
        ("b", Some(2245)),
        ("c", Some(2180)),
        ("d", Some(2105)),
        ("e", Some(1990)),
        ("f", Some(1920)),
    ]);
    let (a, b, c, dd, e, f) = (0, 1, 2, 3, 4, 5);
    let results = [
        (a, b, 1),
        (a, c, 2),
        (a, dd, 1),
        (a, e, 2),
        (a, f, 0),
        (b, c, 0),
        (b, dd, 2),
        (b, e, 1),
        (b, f, 2),
        (c, dd, 1),
        (c, e, 0),
        (c, f, 2),
        (dd, e, 2),
        (dd, f, 1),
        (e, f, 1),
    ];
    let games: Vec<Game> = results
        .iter()
        .map(|&(w, bl, h)| game(w, bl, h, "2027-01-05", "2027-03-20"))
        .collect();
    let lists = ratings::rate(&six, &games, &Settings::default(), d("2027-04-01"));
    assert_eq!(lists.lists.len(), 1);
    let list = &lists.lists[0];
    assert_eq!(list.span.label(), "2027-Q1");
    // Each player's games: the difference D, the table's PD for him, his
    // score W; the change is 40 x sum(W - PD), rounded half up.
    // a 2310: B  65 .59 ½, C 130 .68 1, D 205 .76 ½, E 320 .87 1, F 390 .91 0:
    //   -.09 +.32 -.26 +.13 -.91 = -.81 -> -32.4 -> -32
    // b 2245: A  65 .41 ½, C  65 .59 0, D 140 .69 1, E 255 .81 ½, F 325 .87 1:
    //   +.09 -.59 +.31 -.31 +.13 = -.37 -> -14.8 -> -15
    // c 2180: A 130 .32 0, B  65 .41 1, D  75 .60 ½, E 190 .75 0, F 260 .82 1:
    //   -.32 +.59 -.10 -.75 +.18 = -.40 -> -16
    // d 2105: A 205 .24 ½, B 140 .31 0, C  75 .40 ½, E 115 .66 1, F 185 .74 ½:
    //   +.26 -.31 +.10 +.34 -.24 = +.15 -> +6
    // e 1990: A 320 .13 0, B 255 .19 ½, C 190 .25 1, D 115 .34 0, F  70 .60 ½:
    //   -.13 +.31 +.75 -.34 -.10 = +.49 -> +19.6 -> +20
    // f 1920: A 390 .09 1, B 325 .13 0, C 260 .18 0, D 185 .26 ½, E  70 .40 ½:
    //   +.91 -.13 -.18 +.24 +.10 = +.94 -> +37.6 -> +38
    let by_hand = [
        (a, 2278, -32),
        (b, 2230, -15),
        (c, 2164, -16),
        (dd, 2111, 6),
        (e, 2010, 20),
        (f, 1958, 38),
    ];
    for (player, rating, change) in by_hand {
        let entry = line(list, player);
        assert_eq!(
            (entry.rating, entry.change),
            (rating, Some(change)),
            "{}",
            six[player].key
        );
        assert_eq!((entry.games, entry.total, entry.k), (5, 5, Some(40)));
        assert_eq!(entry.status, Status::Rated);
    }
    let order: Vec<usize> = list.entries.iter().map(|e| e.player).collect();
    assert_eq!(order, [a, b, c, dd, e, f]);
}

#[test]
fn a_game_is_rated_with_the_list_before_it_began() {
    let three = players(&[("x", Some(2000)), ("y", Some(2000)), ("z", Some(2020))]);
    let games = [
        // Q1: x beats y: .50 expected, +20 / -20.
        game(0, 1, 2, "2027-01-10", "2027-02-01"),
        // Began 2027-03-01, before the Q1 list (published after 03-31), ended
        // in Q2: x counts with 2000, not his 2020: D 20, .47 for him, a loss
        // -18.8 -> -19 (with 2020: .50, -20).
        game(2, 0, 2, "2027-03-01", "2027-05-02"),
    ];
    let lists = ratings::rate(&three, &games, &Settings::default(), d("2027-07-01"));
    let [q1, q2] = &lists.lists[..] else {
        panic!("{lists:?}")
    };
    assert_eq!(line(q1, 0).rating, 2020);
    assert_eq!(line(q1, 1).rating, 1980);
    assert_eq!(line(q1, 2).status, Status::Start);
    assert_eq!((line(q2, 0).rating, line(q2, 0).change), (2001, Some(-19)));
    // z: 2020 against x's 2000, .53 expected, a win: +.47 x 40 = 18.8 -> 19.
    assert_eq!(line(q2, 2).rating, 2039);
    // y played nothing in Q2: listed as he was.
    assert_eq!(
        (line(q2, 1).rating, line(q2, 1).games, line(q2, 1).k),
        (1980, 0, None)
    );
    assert_eq!(lists.waiting, 0);
}

#[test]
fn a_list_is_published_once_its_period_is_over() {
    let two = players(&[("x", Some(2000)), ("y", Some(2000))]);
    let games = [
        game(0, 1, 2, "2027-01-10", "2027-03-31"),
        game(1, 0, 1, "2027-01-10", "2027-04-02"),
    ];
    let on_the_last_day = ratings::rate(&two, &games, &Settings::default(), d("2027-03-31"));
    assert!(on_the_last_day.lists.is_empty());
    assert_eq!(on_the_last_day.waiting, 2);
    let after = ratings::rate(&two, &games, &Settings::default(), d("2027-04-01"));
    assert_eq!(after.lists.len(), 1);
    assert_eq!(
        (after.waiting, after.next.map(|s| s.label())),
        (1, Some("2027-Q2".into()))
    );
    let monthly = Settings {
        period: Period::Month,
        ..Settings::default()
    };
    let months = ratings::rate(&two, &games, &monthly, d("2027-06-01"));
    let labels: Vec<String> = months.lists.iter().map(|l| l.span.label()).collect();
    assert_eq!(labels, ["2027-03", "2027-04", "2027-05"]);
}

#[test]
fn forfeits_are_not_rated_unless_the_federation_says() {
    let two = players(&[("x", Some(2000)), ("y", Some(2000))]);
    let forfeit = Game {
        forfeit: true,
        ..game(0, 1, 2, "2027-01-10", "2027-02-01")
    };
    let lists = ratings::rate(&two, &[forfeit], &Settings::default(), d("2027-07-01"));
    assert!(lists.lists.is_empty());
    let rated = Settings {
        rate_forfeits: true,
        ..Settings::default()
    };
    let lists = ratings::rate(&two, &[forfeit], &rated, d("2027-07-01"));
    assert_eq!(line(&lists.lists[0], 0).rating, 2020);
}

#[test]
fn a_newcomer_is_provisional_until_his_fifth_rated_game() {
    // n plays five rated players, one game a quarter from 2027-Q1; two games
    // against another newcomer (m) count for neither.
    let mut list = players(&[("n", None), ("m", None)]);
    let opponents = [2000, 2100, 1900, 2000, 2050];
    list.extend(opponents.iter().enumerate().map(|(i, &r)| Player {
        key: format!("o{i}"),
        name: format!("o{i}"),
        start: Some(r),
        start_source: None,
    }));
    let scores = [2, 1, 2, 0, 1];
    let ends = [
        "2027-02-01",
        "2027-05-01",
        "2027-08-01",
        "2027-11-01",
        "2028-02-01",
    ];
    let mut games: Vec<Game> = (0..5)
        .map(|i| game(0, 2 + i, scores[i], "2027-01-05", ends[i]))
        .collect();
    games.push(game(0, 1, 2, "2027-01-05", "2027-02-01"));
    games.push(game(1, 0, 2, "2027-01-05", "2027-05-01"));
    let lists = ratings::rate(&list, &games, &Settings::default(), d("2028-04-01"));
    let history = lists.history(0);
    let statuses: Vec<(Status, u32)> = history.iter().map(|(_, e)| (e.status, e.total)).collect();
    assert_eq!(
        statuses,
        [
            (Status::Provisional, 1),
            (Status::Provisional, 2),
            (Status::Provisional, 3),
            (Status::Provisional, 4),
            (Status::Rated, 5),
        ]
    );
    // His fifth: the performance worked out above, 2000.
    assert_eq!(history[4].1.rating, 2000);
    // The other newcomer met only him: on no list.
    assert!(lists.history(1).is_empty());
    // The rated players' games against him were not rated for them.
    let o0 = lists.history(2);
    assert_eq!((o0[0].1.rating, o0[0].1.games), (2000, 0));
}

#[test]
fn glicko2_starts_everyone_at_1500_and_rates_a_period_at_once() {
    let two = players(&[("x", None), ("y", Some(1700))]);
    let settings = Settings {
        method: Method::Glicko2,
        newcomer_games: 1,
        ..Settings::default()
    };
    let games = [
        game(0, 1, 2, "2027-01-05", "2027-02-01"),
        game(1, 0, 1, "2027-01-05", "2027-03-01"),
    ];
    let lists = ratings::rate(&two, &games, &settings, d("2027-04-01"));
    let list = &lists.lists[0];
    // The same two games, by the crate's own period.
    let expected = glicko::period(
        Glicko::new(None),
        &[(Glicko::new(Some(1700)), 2), (Glicko::new(Some(1700)), 1)],
    );
    let x = line(list, 0);
    assert_eq!(x.rating, expected.rating.round() as i32);
    assert_eq!(x.deviation, Some(expected.deviation.round() as i32));
    assert_eq!((x.change, x.k, x.status), (None, None, Status::Rated));
    assert!(x.rating > 1500 && line(list, 1).rating < 1700);
}

/// A newcomer who scored nothing against rated players in a period: its
/// games are disregarded (8.2), and he is on no list until he scores.
#[test]
fn a_newcomers_period_without_a_point_is_disregarded() {
    let mut list = players(&[("n", None)]);
    list.extend((0..3).map(|i| Player {
        key: format!("o{i}"),
        name: format!("o{i}"),
        start: Some(2000),
        start_source: None,
    }));
    let settings = Settings {
        newcomer_games: 3,
        ..Settings::default()
    };
    let mut games: Vec<Game> = (1..4)
        .map(|o| game(0, o, 0, "2027-01-05", "2027-02-01"))
        .collect();
    let lists = ratings::rate(&list, &games, &settings, d("2027-04-01"));
    assert!(lists.history(0).is_empty());
    // Three more in Q2 with a draw: three games count, not six.
    games
        .extend((1..4).map(|o| game(o, 0, if o == 1 { 1 } else { 2 }, "2027-04-05", "2027-05-01")));
    let lists = ratings::rate(&list, &games, &settings, d("2027-07-01"));
    let history = lists.history(0);
    assert_eq!(history.len(), 1);
    // ½ of 3 against 2000, with two draws against 1800: Ra = 9,600 / 5 =
    // 1920, p = 1.5 / 5 = .30, dp -149: 1771.
    assert_eq!(
        (history[0].1.total, history[0].1.rating, history[0].1.status),
        (3, 1771, Status::Rated)
    );
}

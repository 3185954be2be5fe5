//! FIDE's rating method (Handbook B.02, the rating regulations in force
//! from 1 March 2024): a rated player's change from the table of expected
//! scores, a newcomer's first rating from his performance. Integers
//! throughout: the tables are in hundredths, a change is summed in
//! hundredths of a point and rounded once, 0.5 away from zero (8.3.4).

/// Table 8.1(b): the highest difference `D` at which the higher rated
/// player's expected score `PD` is 0.50, 0.51, … 0.99, in that order; a
/// difference over the last is 1.00 (never reached here: see [`CAP`]).
const EXPECTED_UP_TO: [u32; 50] = [
    3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153, 162,
    170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344, 357, 374,
    391, 411, 432, 456, 484, 517, 559, 619, 735,
];

/// Table 8.1(a): the difference `dp` a fractional score `p` of 0.50, 0.51,
/// … 1.00 is worth; a score under 0.50 is worth the same below.
const DIFFERENCE_OF_SCORE: [i32; 51] = [
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// 8.3.1: a difference of more than 400 points counts as 400.
pub const CAP: u32 = 400;

/// 8.3.3: K is lowered where K times a period's games would pass 700.
const MOST_K_TIMES_GAMES: u32 = 700;

/// 8.2 (2024): a newcomer's first rating counts two draws more, against
/// opponents of 1800.
const HYPOTHETICAL_OPPONENT: i64 = 1800;
const HYPOTHETICAL_GAMES: i64 = 2;

/// The expected score, in hundredths, of a player rated `own` against one
/// rated `opponent` (table 8.1(b), the difference capped at 400).
pub fn expected(own: i32, opponent: i32) -> i64 {
    let difference = own.abs_diff(opponent).min(CAP);
    let step = EXPECTED_UP_TO
        .iter()
        .position(|&most| difference <= most)
        .unwrap_or(EXPECTED_UP_TO.len());
    let higher = 50 + step as i64;
    if own >= opponent {
        higher
    } else {
        100 - higher
    }
}

/// The difference `dp` (table 8.1(a)) a score of `hundredths` is worth.
pub fn difference_of(hundredths: i64) -> i32 {
    let from_half = usize::try_from((hundredths - 50).unsigned_abs()).unwrap_or(usize::MAX);
    let dp = DIFFERENCE_OF_SCORE[from_half.min(DIFFERENCE_OF_SCORE.len() - 1)];
    if hundredths >= 50 { dp } else { -dp }
}

/// What a player has done before a period: his rated games, and whether a
/// list has shown him at 2400 or more.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Past {
    pub games: u32,
    pub reached_2400: bool,
}

/// 8.3.3: K is 40 until a player has 30 rated games, then 20, and 10 once
/// he was rated 2400 (for good); lowered for `games` this period where K
/// times them would pass 700.
pub fn k_factor(past: Past, games: u32) -> u32 {
    let k = if past.games < 30 {
        40
    } else if past.reached_2400 {
        10
    } else {
        20
    };
    match games {
        0 => k,
        n => k.min(MOST_K_TIMES_GAMES / n),
    }
}

/// One game as the method counts it: the ratings both had when it began,
/// and the player's half points (0, 1 or 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scored {
    pub own: i32,
    pub opponent: i32,
    pub halves: u8,
}

/// A rated player's change for a period's games, with `k`: the sum of
/// `K (W - PD)`, rounded once to the nearest point, 0.5 away from zero.
pub fn change(games: &[Scored], k: u32) -> i32 {
    let hundredths: i64 = games
        .iter()
        .map(|game| {
            let won = i64::from(game.halves) * 50;
            i64::from(k) * (won - expected(game.own, game.opponent))
        })
        .sum();
    let whole = (hundredths.abs() + 50) / 100;
    i32::try_from(whole * hundredths.signum()).unwrap_or(0)
}

/// A newcomer's rating from his games against rated opponents (their
/// ratings and his half points): `Ra + dp`, with two draws against 1800
/// counted beside them (8.2); `Ra` their average, `dp` the difference his
/// fractional score is worth, the score rounded to hundredths half up.
pub fn performance(games: &[(i32, u8)]) -> i32 {
    let count = games.len() as i64 + HYPOTHETICAL_GAMES;
    let ratings: i64 =
        games.iter().map(|&(r, _)| i64::from(r)).sum::<i64>() + HYPOTHETICAL_OPPONENT * 2;
    let halves: i64 = games.iter().map(|&(_, h)| i64::from(h)).sum::<i64>() + HYPOTHETICAL_GAMES;
    // p = halves / (2 count), in hundredths rounded half up.
    let hundredths = (100 * halves + count).div_euclid(2 * count);
    let total = ratings + count * i64::from(difference_of(hundredths));
    i32::try_from((2 * total + count).div_euclid(2 * count)).unwrap_or(0)
}

/// The lowest rating FIDE publishes, and the highest first rating it gives.
const FLOOR: i32 = 1400;
const HIGHEST_FIRST: i32 = 2200;

/// A newcomer's first rating from his games against rated opponents (8.2):
/// his performance, at most 2200; none while he has scored nothing against
/// them or his performance is under 1400, the lowest rating FIDE lists.
pub fn first_rating(games: &[(i32, u8)]) -> Option<i32> {
    let scored = games.iter().any(|&(_, halves)| halves > 0);
    let rating = performance(games);
    (scored && rating >= FLOOR).then(|| rating.min(HIGHEST_FIRST))
}

/// FIDE's category of a round robin whose players' ratings average
/// `average` (rounded to a whole point): 1 for 2251 to 2275, one more for
/// each 25 points above; none at 2250 and below.
pub fn category(average: i32) -> Option<u32> {
    let above = average - 2250;
    (above > 0).then(|| u32::try_from((above + 24) / 25).unwrap_or(0))
}

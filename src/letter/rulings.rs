//! The chief arbiter's rulings, each a line of its own: decisions on an
//! overstep (`CONFIRM 3`), and the orders of results, forfeits, undoing,
//! withdrawals, replacements, acceptances and retries (`RESULT 3 1-0`,
//! `ACCEPT KEY 12. Nf3`), read here from their lines.

use serde::Serialize;
use shakmaty::Color;

use crate::rules::{Decision, GameResult};

/// What a ruling of the chief arbiter orders, with what it names: a game,
/// a player or a letter's key, each where its order has one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WrittenOrder {
    /// A decision on an overstep (rules.md 2.5.5): `CONFIRM 3`, `REJECT 3
    /// 7`, with the days he excuses (REJECT, CONTINUE).
    Overstep {
        decision: Decision,
        game: String,
        days: Option<u32>,
    },
    /// The result set: `RESULT 3 1-0`, `РЕЗУЛЬТАТ 3 1/2` (an adjudication,
    /// or a result the players reached otherwise).
    Result { game: String, result: GameResult },
    /// A forfeit: `FORFEIT 3 WHITE`, `ТЕХПОРАЖЕНИЕ 3 БЕЛЫЕ`: the side named
    /// loses, unplayed; the result it gives.
    Forfeit { game: String, result: GameResult },
    /// The game's last letter taken back: `UNDO 3 he misread`, `ОТМЕНИТЬ 3`.
    Undo { game: String },
    /// A player withdraws: `WITHDRAW ivanov illness`, `ВЫБЫТИЕ ivanov`.
    Withdraw { player: String },
    /// A refused letter taken after all: `ACCEPT KEY 12. Nf3`, `ПРИНЯТЬ
    /// KEY`; the ruling's `why` is what follows the key ([`accept_words`]:
    /// a player, the moves).
    Accept { key: String },
    /// A player replaced by a newcomer: `REPLACE ivanov Sidorov S.
    /// <sidorov@example.org> illness`, `ЗАМЕНА …`.
    Replace { player: String, newcomer: Newcomer },
    /// A letter set aside goes back into the mail source: `RETRY KEY`,
    /// `RETRY ALL`, `ПОВТОРИТЬ KEY`, `ПОВТОРИТЬ ВСЕ`.
    Retry { key: String },
}

impl WrittenOrder {
    /// The word the order names: its game, player or letter's key.
    pub fn named(&self) -> &str {
        match self {
            WrittenOrder::Overstep { game, .. }
            | WrittenOrder::Result { game, .. }
            | WrittenOrder::Forfeit { game, .. }
            | WrittenOrder::Undo { game } => game,
            WrittenOrder::Withdraw { player } | WrittenOrder::Replace { player, .. } => player,
            WrittenOrder::Accept { key } | WrittenOrder::Retry { key } => key,
        }
    }

    /// The order naming `word` in place of what it named.
    fn naming(mut self, word: &str) -> WrittenOrder {
        let (WrittenOrder::Overstep { game: named, .. }
        | WrittenOrder::Result { game: named, .. }
        | WrittenOrder::Forfeit { game: named, .. }
        | WrittenOrder::Undo { game: named }
        | WrittenOrder::Withdraw { player: named }
        | WrittenOrder::Replace { player: named, .. }
        | WrittenOrder::Accept { key: named }
        | WrittenOrder::Retry { key: named }) = &mut self;
        *named = word.to_string();
        self
    }
}

/// A newcomer's name and address, as the chief arbiter writes them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Newcomer {
    pub name: String,
    pub email: String,
}

/// What the chief arbiter decides (rules.md 2.5), a line of its own.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Ruling {
    pub order: WrittenOrder,
    /// A word before the game, as a tournament's id (`CONFIRM CC-2026 3`,
    /// for a clerk of several): it may be a game's id instead (`REJECT A1
    /// 7`), which the clerk, knowing its tournaments, tells apart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tournament: Option<String>,
    /// With RESULT, FORFEIT, UNDO, WITHDRAW or REPLACE: the words after
    /// it, his reason; with ACCEPT, what follows the key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The line as he wrote it, for the answer that cannot carry it out.
    #[serde(skip)]
    pub line: String,
}

impl Ruling {
    /// The ruling as meant, given the tournament it reached and the ids of
    /// the clerk's tournaments: a first word that is no tournament's id was
    /// the game (`REJECT A1 7`), and its game word the days.
    /// A tournament word in another case than its id's is the id
    /// (`confirm кр-2026 3`).
    pub fn resolved(&self, ids: &[&str]) -> Ruling {
        let named = |word: &str| {
            ids.iter()
                .find(|id| crate::key::same_id(word, id))
                .map(|id| id.to_string())
        };
        let Some(word) = &self.tournament else {
            return self.clone();
        };
        if let Some(id) = named(word) {
            return Ruling {
                tournament: Some(id),
                ..self.clone()
            };
        }
        // The first word is the game (the player, the key), and the word
        // read as it is the next of the line.
        let next = self.order.named();
        let then = |why: &Option<String>| match why {
            Some(why) => format!("{next} {why}"),
            None => next.to_string(),
        };
        let (order, why) = match &self.order {
            // `REJECT A1 7` or `CONFIRM A1 no letter came`: the days or the
            // reason's first word.
            WrittenOrder::Overstep { decision, days, .. } => match next.parse::<u32>() {
                Ok(excused) => (
                    WrittenOrder::Overstep {
                        decision: *decision,
                        game: word.clone(),
                        days: Some(excused),
                    },
                    self.why.clone(),
                ),
                Err(_) => (
                    WrittenOrder::Overstep {
                        decision: *decision,
                        game: word.clone(),
                        days: *days,
                    },
                    Some(then(&self.why)),
                ),
            },
            // `REPLACE ivanov Sidorov S. <…>`: the newcomer's name.
            WrittenOrder::Replace { newcomer, .. } => (
                WrittenOrder::Replace {
                    player: word.clone(),
                    newcomer: Newcomer {
                        name: format!("{next} {}", newcomer.name).trim().to_string(),
                        email: newcomer.email.clone(),
                    },
                },
                self.why.clone(),
            ),
            // `UNDO A1 he misread`: the reason.
            WrittenOrder::Undo { .. }
            | WrittenOrder::Withdraw { .. }
            | WrittenOrder::Accept { .. } => {
                (self.order.clone().naming(word), Some(then(&self.why)))
            }
            WrittenOrder::Result { .. }
            | WrittenOrder::Forfeit { .. }
            | WrittenOrder::Retry { .. } => {
                return self.clone();
            }
        };
        Ruling {
            order,
            tournament: None,
            why,
            line: self.line.clone(),
        }
    }
}

pattern!(
    RULING_LINE,
    r"^\s*(CONFIRM|REJECT|CONTINUE|ПОДТВЕРДИТЬ|ПОДТВЕРЖДАЮ|ОТКЛОНИТЬ|ОТКЛОНЯЮ|ПРОДОЛЖИТЬ|ПРОДОЛЖАТЬ)\s+(?:(\p{L}[\w.-]*)\s+)?(?:#|№)?\s*([A-Za-z0-9][\w.-]*?)(?:\s+(\d{1,4})\s*(?:days?|дн\.?|дней|дня|день)?)?(?:(?:\s+|\s*[,;:]\s*)(.*?))?\s*\.?\s*$"
);
pattern!(
    AWARD_LINE,
    r"^\s*(RESULT|РЕЗУЛЬТАТ|FORFEIT|ТЕХПОРАЖЕНИЕ)\s+(?:(\p{L}[\w.-]*)\s+)?(?:#|№)?\s*([A-Za-z0-9][\w.-]*?)\s+(1-0|0-1|1/2-1/2|1/2|½-½|½|(?i:white|black|белые|белым|ч[её]рные|ч[её]рным))(?:\s+(.*?))?\s*\.?\s*$"
);
pattern!(
    ACCEPT_LINE,
    r"^\s*(ACCEPT|ПРИНЯТЬ)\s+(?:(\p{L}[\w.-]*)\s+)?(\S+)(?:\s+(.*?))?\s*$"
);
pattern!(
    UNDO_LINE,
    r"^\s*(UNDO|ОТМЕНИТЬ|WITHDRAW|ВЫБЫТИЕ)\s+(?:(\p{L}[\w.-]*)\s+)?(?:#|№)?\s*([A-Za-z0-9][\w.-]*?)(?:\s+(.*?))?\s*\.?\s*$"
);
pattern!(
    REPLACE_LINE,
    r"^\s*(REPLACE|ЗАМЕНА|ЗАМЕНИТЬ)\s+(?:(\p{L}[\w.-]*)\s+)?([A-Za-z0-9][\w.-]*)\s+([^<>]*?)\s*(?:<\s*([^<>\s]+@[^<>\s]+?)\s*>|([^<>\s]+@[^<>\s]+))\s*(.*?)\s*\.?\s*$"
);
// The link a mail program writes after an address it made one, in the
// plain text of an HTML letter: Outlook's `a@b.org<mailto:a@b.org>`, and
// `[mailto:a@b.org]`.
pattern!(MAILTO_LINK, r"\s*(?:<mailto:[^<>]*>|\[mailto:[^\]]*\])");
pattern!(RETRY_LINE, r"^\s*(?:RETRY|ПОВТОРИТЬ)\s+(\S+)\s*\.?\s*$");
/// The first letters (lower-cased) of each order's words: a line is tried
/// against an order's pattern only where its first letter is one of these
/// (a test holds each to its pattern's words).
const DECISION_FIRST: &str = "crпо";
const ACCEPT_FIRST: &str = "aп";
const REPLACE_FIRST: &str = "rз";
const RETRY_FIRST: &str = "rп";
const UNDO_FIRST: &str = "uоwв";
const AWARD_FIRST: &str = "rfрт";

/// The ruling a line is, if any; `may` tells whether a line's first letter
/// may begin a word (the regexes are tried only where it may).
pub(super) fn ruling_of(line: &str, may: &dyn Fn(&str) -> bool) -> Option<Ruling> {
    if may(DECISION_FIRST)
        && let Some(caps) = RULING_LINE.captures(line)
    {
        let decision = match &caps[1] {
            "CONFIRM" | "ПОДТВЕРДИТЬ" | "ПОДТВЕРЖДАЮ" => Decision::Confirm,
            "REJECT" | "ОТКЛОНИТЬ" | "ОТКЛОНЯЮ" => Decision::Reject,
            _ => Decision::Continue,
        };
        // `REJECT 3 7 the letter was in time`: the days, then the reason.
        let order = WrittenOrder::Overstep {
            decision,
            game: caps[3].to_string(),
            days: caps.get(4).and_then(|m| m.as_str().parse().ok()),
        };
        return Some(ruling(order, &caps, Some(5)));
    }
    if may(ACCEPT_FIRST)
        && let Some(caps) = ACCEPT_LINE.captures(line)
    {
        let key = caps[3].to_string();
        return Some(ruling(WrittenOrder::Accept { key }, &caps, Some(4)));
    }
    if may(REPLACE_FIRST)
        && let unlinked = MAILTO_LINK.replace_all(line, "")
        && let Some(caps) = REPLACE_LINE.captures(&unlinked)
    {
        let email = caps.get(5).or(caps.get(6)).map_or("", |m| m.as_str());
        let order = WrittenOrder::Replace {
            player: caps[3].to_string(),
            newcomer: Newcomer {
                name: caps[4].trim().to_string(),
                email: email.to_lowercase(),
            },
        };
        return Some(ruling(order, &caps, Some(7)));
    }
    if may(RETRY_FIRST)
        && let Some(caps) = RETRY_LINE.captures(line)
    {
        let key = caps[1].to_string();
        return Some(ruling(WrittenOrder::Retry { key }, &caps, None));
    }
    if may(UNDO_FIRST)
        && let Some(caps) = UNDO_LINE.captures(line)
    {
        let named = caps[3].to_string();
        let order = match &caps[1] {
            "UNDO" | "ОТМЕНИТЬ" => WrittenOrder::Undo { game: named },
            _ => WrittenOrder::Withdraw { player: named },
        };
        return Some(ruling(order, &caps, Some(4)));
    }
    if may(AWARD_FIRST)
        && let Some(caps) = AWARD_LINE.captures(line)
        && let Some(order) = award_order(&caps[1], &caps[3], &caps[4])
    {
        return Some(ruling(order, &caps, Some(5)));
    }
    None
}

/// The ruling of `order` read from a line's captures: its tournament word
/// in group 2 (a retry has none), the reason (or what follows) in group
/// `why`, if it has one.
fn ruling(order: WrittenOrder, caps: &regex::Captures<'_>, why: Option<usize>) -> Ruling {
    Ruling {
        order,
        tournament: caps.get(2).map(|m| m.as_str().to_string()),
        why: why
            .and_then(|why| caps.get(why))
            .map(|m| m.as_str().trim().to_string())
            .filter(|why| !why.is_empty()),
        line: caps[0].trim().to_string(),
    }
}

impl Newcomer {
    /// `Sidorov S. <sidorov@example.org>` (the address lower-cased; the
    /// name may be empty); none without an address between `<` and `>`.
    pub fn parse(text: &str) -> Option<Newcomer> {
        let (name, rest) = text.trim().split_once('<')?;
        let email = rest.strip_suffix('>')?.trim();
        (!email.is_empty() && !email.contains(['<', '>'])).then(|| Newcomer {
            name: name.trim().to_string(),
            email: email.to_lowercase(),
        })
    }
}

/// What an `ACCEPT KEY` line says after the key: `AS ivanov` (`КАК
/// ivanov`), the player whose letter it is (one from an address nobody
/// has); `ADDRESS` (`АДРЕС`) after him, that the address is his from then
/// on; the rest, the moves (none: as the clerk read them).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct AcceptWords<'a> {
    pub player: Option<&'a str>,
    pub add_address: bool,
    pub moves: Option<&'a str>,
}

pub fn accept_words(rest: Option<&str>) -> AcceptWords<'_> {
    let mut words = AcceptWords::default();
    let Some(mut rest) = rest.map(str::trim) else {
        return words;
    };
    let word = |text: &str, options: &[&str]| -> Option<usize> {
        let first = text.split_whitespace().next()?;
        let upper = first.to_uppercase();
        options
            .contains(&upper.as_str())
            .then(|| text.find(first).unwrap_or(0) + first.len())
    };
    if let Some(end) = word(rest, &["AS", "КАК"]) {
        let after = rest[end..].trim_start();
        let player = after.split_whitespace().next().unwrap_or("");
        if !player.is_empty() {
            words.player = Some(player);
            rest = after[player.len()..].trim_start();
            if let Some(end) = word(rest, &["ADDRESS", "АДРЕС"]) {
                words.add_address = true;
                rest = rest[end..].trim_start();
            }
        }
    }
    words.moves = Some(rest).filter(|moves| !moves.is_empty());
    words
}

/// A RESULT's or FORFEIT's order of `game` from its word and what follows
/// the game: a result for RESULT, the side that loses for FORFEIT.
fn award_order(word: &str, game: &str, what: &str) -> Option<WrittenOrder> {
    let game = game.to_string();
    let side = match what.to_lowercase().replace('ё', "е").as_str() {
        "white" | "белые" | "белым" => Some(Color::White),
        "black" | "черные" | "черным" => Some(Color::Black),
        _ => None,
    };
    let result = match what {
        "1-0" => Some(GameResult::WhiteWins),
        "0-1" => Some(GameResult::BlackWins),
        "1/2-1/2" | "1/2" | "½-½" | "½" => Some(GameResult::Draw),
        _ => None,
    };
    match (word, side, result) {
        ("RESULT" | "РЕЗУЛЬТАТ", None, Some(result)) => {
            Some(WrittenOrder::Result { game, result })
        }
        ("FORFEIT" | "ТЕХПОРАЖЕНИЕ", Some(loser), None) => {
            Some(WrittenOrder::Forfeit {
                game,
                result: GameResult::loss_of(loser),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;

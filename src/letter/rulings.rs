//! The chief arbiter's rulings, each a line of its own: decisions on an
//! overstep (`CONFIRM 3`), and the orders of results, forfeits, undoing,
//! withdrawals, replacements, acceptances and retries (`RESULT 3 1-0`,
//! `ACCEPT KEY 12. Nf3`), read here from their lines.

use serde::Serialize;
use shakmaty::Color;

use crate::rules::{Decision, GameResult};

/// What a ruling of the chief arbiter orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WrittenOrder {
    /// A decision on an overstep (rules.md 2.5.5): `CONFIRM 3`, `REJECT 3 7`.
    Overstep(Decision),
    /// The result set: `RESULT 3 1-0`, `РЕЗУЛЬТАТ 3 1/2` (an adjudication,
    /// or a result the players reached otherwise).
    Result(GameResult),
    /// A forfeit: `FORFEIT 3 WHITE`, `ТЕХПОРАЖЕНИЕ 3 БЕЛЫЕ`: the side named
    /// loses, unplayed; the result it gives.
    Forfeit(GameResult),
    /// The game's last letter taken back: `UNDO 3 he misread`, `ОТМЕНИТЬ 3`.
    Undo,
    /// A player withdraws: `WITHDRAW ivanov illness`, `ВЫБЫТИЕ ivanov`; the
    /// ruling's `game` is the player's id.
    Withdraw,
    /// A refused letter taken after all: `ACCEPT KEY 12. Nf3`, `ПРИНЯТЬ
    /// KEY`; the ruling's `game` is the letter's key, its `why` what
    /// follows it ([`accept_words`]: a player, the moves).
    Accept,
    /// A player replaced by a newcomer: `REPLACE ivanov Sidorov S.
    /// <sidorov@example.org> illness`, `ЗАМЕНА …`; the ruling's `game` is
    /// the player's id, its `newcomer` whom he is replaced by.
    Replace,
    /// A letter set aside goes back into the mail source: `RETRY KEY`,
    /// `RETRY ALL`, `ПОВТОРИТЬ KEY`, `ПОВТОРИТЬ ВСЕ`; the ruling's `game` is
    /// the key.
    Retry,
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
    pub game: String,
    /// With REJECT or CONTINUE: the days the arbiter excuses (`REJECT 1 7`).
    pub days: Option<u32>,
    /// With RESULT, FORFEIT, UNDO, WITHDRAW or REPLACE: the words after
    /// it, his reason; with ACCEPT, what follows the key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// With REPLACE: the newcomer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub newcomer: Option<Newcomer>,
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
        if let Some(word) = &self.tournament
            && let Some(id) = named(word).filter(|id| id != word)
        {
            let written_as_id = Ruling {
                tournament: Some(id),
                ..self.clone()
            };
            return written_as_id.resolved(ids);
        }
        match (&self.tournament, self.order) {
            // `REJECT A1 7` or `CONFIRM A1 no letter came`: the game, then
            // the days or the reason's first word.
            (Some(word), WrittenOrder::Overstep(_)) if named(word).is_none() => {
                let days: Option<u32> = self.game.parse().ok();
                let why = match (days, &self.why) {
                    (Some(_), why) => why.clone(),
                    (None, Some(why)) => Some(format!("{} {why}", self.game)),
                    (None, None) => Some(self.game.clone()),
                };
                Ruling {
                    tournament: None,
                    game: word.clone(),
                    days: days.or(self.days),
                    why,
                    ..self.clone()
                }
            }
            // `REPLACE ivanov Sidorov S. <…>`: the player, then the
            // newcomer's name.
            (Some(word), WrittenOrder::Replace) if named(word).is_none() => Ruling {
                tournament: None,
                game: word.clone(),
                newcomer: self.newcomer.as_ref().map(|newcomer| Newcomer {
                    name: format!("{} {}", self.game, newcomer.name)
                        .trim()
                        .to_string(),
                    email: newcomer.email.clone(),
                }),
                ..self.clone()
            },
            // `UNDO A1 he misread`: the game, then the reason.
            (Some(word), WrittenOrder::Undo | WrittenOrder::Withdraw | WrittenOrder::Accept)
                if named(word).is_none() =>
            {
                Ruling {
                    tournament: None,
                    game: word.clone(),
                    why: Some(match &self.why {
                        Some(why) => format!("{} {why}", self.game),
                        None => self.game.clone(),
                    }),
                    ..self.clone()
                }
            }
            _ => self.clone(),
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
/// The ruling a line is, if any; `may` tells whether a line's first letter
/// may begin a word (the regexes are tried only where it may).
pub(super) fn ruling_of(line: &str, may: &dyn Fn(&str) -> bool) -> Option<Ruling> {
    if may("crпо")
        && let Some(caps) = RULING_LINE.captures(line)
    {
        let decision = match &caps[1] {
            "CONFIRM" | "ПОДТВЕРДИТЬ" | "ПОДТВЕРЖДАЮ" => Decision::Confirm,
            "REJECT" | "ОТКЛОНИТЬ" | "ОТКЛОНЯЮ" => Decision::Reject,
            _ => Decision::Continue,
        };
        // `REJECT 3 7 the letter was in time`: the days, then the reason.
        return Some(Ruling {
            days: caps.get(4).and_then(|m| m.as_str().parse().ok()),
            ..order_ruling(WrittenOrder::Overstep(decision), &caps, Some(5))
        });
    }
    if may("aп")
        && let Some(caps) = ACCEPT_LINE.captures(line)
    {
        return Some(order_ruling(WrittenOrder::Accept, &caps, Some(4)));
    }
    if may("rз")
        && let unlinked = MAILTO_LINK.replace_all(line, "")
        && let Some(caps) = REPLACE_LINE.captures(&unlinked)
    {
        let email = caps.get(5).or(caps.get(6)).map_or("", |m| m.as_str());
        return Some(Ruling {
            newcomer: Some(Newcomer {
                name: caps[4].trim().to_string(),
                email: email.to_lowercase(),
            }),
            ..order_ruling(WrittenOrder::Replace, &caps, Some(7))
        });
    }
    if may("rп")
        && let Some(caps) = RETRY_LINE.captures(line)
    {
        return Some(Ruling {
            order: WrittenOrder::Retry,
            tournament: None,
            game: caps[1].to_string(),
            days: None,
            why: None,
            newcomer: None,
            line: caps[0].trim().to_string(),
        });
    }
    if may("uоwв")
        && let Some(caps) = UNDO_LINE.captures(line)
    {
        let order = match &caps[1] {
            "UNDO" | "ОТМЕНИТЬ" => WrittenOrder::Undo,
            _ => WrittenOrder::Withdraw,
        };
        return Some(order_ruling(order, &caps, Some(4)));
    }
    if may("rfрт")
        && let Some(caps) = AWARD_LINE.captures(line)
        && let Some(order) = award_order(&caps[1], &caps[4])
    {
        return Some(order_ruling(order, &caps, Some(5)));
    }
    None
}

/// A ruling of a line's captures: its tournament word in group 2, its game
/// (player, key) in 3, the reason (or what follows) in group `why`, if it
/// has one.
fn order_ruling(order: WrittenOrder, caps: &regex::Captures<'_>, why: Option<usize>) -> Ruling {
    Ruling {
        order,
        tournament: caps.get(2).map(|m| m.as_str().to_string()),
        game: caps[3].to_string(),
        days: None,
        why: why
            .and_then(|why| caps.get(why))
            .map(|m| m.as_str().trim().to_string())
            .filter(|why| !why.is_empty()),
        newcomer: None,
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

/// A RESULT's or FORFEIT's order from its word and what follows the game:
/// a result for RESULT, the side that loses for FORFEIT.
fn award_order(word: &str, what: &str) -> Option<WrittenOrder> {
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
        ("RESULT" | "РЕЗУЛЬТАТ", None, Some(result)) => Some(WrittenOrder::Result(result)),
        ("FORFEIT" | "ТЕХПОРАЖЕНИЕ", Some(loser), None) => {
            Some(WrittenOrder::Forfeit(GameResult::loss_of(loser)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests;

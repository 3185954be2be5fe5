//! The words that are not moves but change a game: draw offers, acceptances
//! and declines, resignation, protest, in Russian and English.

use super::{Keyword, PROTEST};

/// Draw offers, acceptances, declines, resignation and protest, in Russian and
/// English. A decline is looked for first, so that "I do not accept the draw"
/// is no acceptance.
pub(super) fn keywords(own_text: &str, own: &[(usize, &str)]) -> Vec<Keyword> {
    const DECLINE: [&str; 8] = [
        "не согласен на ничью",
        "не согласна на ничью",
        "не принимаю ничью",
        "отклоняю ничью",
        "decline the draw",
        "do not accept the draw",
        "don't accept the draw",
        "draw declined",
    ];
    const ACCEPT: [&str; 10] = [
        "согласен на ничью",
        "согласна на ничью",
        "принимаю ничью",
        "ничью принимаю",
        "accept the draw",
        "accept your draw",
        "accept a draw",
        "accept draw",
        "draw accepted",
        "i agree to a draw",
    ];
    const OFFER: [&str; 7] = [
        "предлагаю ничью",
        "предлагаю вам ничью",
        "offer a draw",
        "offer you a draw",
        "offer draw",
        "draw offer",
        "propose a draw",
    ];
    const RESIGN: [&str; 5] = [
        "сдаюсь",
        "сдаю партию",
        "i resign",
        "resign the game",
        "i hereby resign",
    ];
    let has = |phrases: &[&str]| phrases.iter().any(|phrase| own_text.contains(phrase));
    let mut found = Vec::new();
    // Most letters have no keyword: every phrase of a kind holds one of a
    // few words, looked for first (thirty scans of each letter before).
    if own_text.contains("draw") || own_text.contains("ничью") {
        if has(&DECLINE) {
            found.push(Keyword::DrawDecline);
        } else if has(&ACCEPT) {
            found.push(Keyword::DrawAccept);
        }
        if has(&OFFER) {
            found.push(Keyword::DrawOffer);
        }
    }
    if own_text.contains("resign") || own_text.contains("сда") {
        let negated_resign = own_text.contains("не сдаюсь") || own_text.contains("not resign");
        if has(&RESIGN) && !negated_resign {
            found.push(Keyword::Resign);
        }
    }
    if (own_text.contains("protest") || own_text.contains("протест"))
        && own.iter().any(|(_, line)| PROTEST.is_match(line))
    {
        found.push(Keyword::Protest);
    }
    found
}

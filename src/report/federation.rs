//! A folder's pages: the index of its events, and a page for each player
//! who plays in several.

use std::fmt::Write as _;

use chrono::NaiveDate;

use crate::phrases::Phrases;
use crate::printable::html_escaped as escape;

use super::{Page, head, score_text, slug};

/// One tournament of a folder, as the index of events lists it.
pub struct Event {
    pub id: String,
    pub name: String,
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub games: usize,
}

/// A game of a player of a folder's events, as the page lists it.
pub struct PlayerGame {
    pub event: String,
    pub event_name: String,
    pub game: String,
    pub white: bool,
    pub partner: String,
    /// The half points the player got, once the game is over.
    pub halves: Option<u32>,
    /// Scored by a forfeit (`+` / `−`), not played.
    pub forfeit: bool,
    /// Annulled: it does not count.
    pub annulled: bool,
}

impl PlayerGame {
    /// The result from the player's side: `1`, `½`, `0`, `+`, `−`, `·`
    /// under way, or the word for an annulled game.
    fn result(&self, phrases: &Phrases) -> String {
        match (self.annulled, self.halves, self.forfeit) {
            (true, _, _) => phrases.get("report.status_annulled").to_string(),
            (false, None, _) => "·".to_string(),
            (false, Some(halves), true) => if halves > 0 { "+" } else { "−" }.to_string(),
            (false, Some(halves), false) => score_text(halves),
        }
    }
}

/// A player of a folder's events (the same id in several is one person),
/// with his games in each.
pub struct PlayerEvents {
    pub id: String,
    pub name: String,
    pub games: Vec<PlayerGame>,
    /// The address the clerk writes to him at (his first entry's).
    pub address: String,
    /// The language of his first event: his page's, unless he chose
    /// another (`LANGUAGE`).
    pub language: crate::Lang,
}

/// A player's page: the games in every event, each linked to its page in
/// its event's report, with its result, and the score in each event
///.
pub fn player_page(player: &PlayerEvents, phrases: &Phrases) -> Page {
    let mut out = String::new();
    head(&mut out, &player.name, phrases);
    // The page is one folder down from the index: links go up.
    out = out.replace("href=\"style.css\"", "href=\"../style.css\"");
    let _ = write!(
        out,
        "<h1>{}</h1>\n<p><a href=\"../index.html\">{}</a></p>\n<table>\n<tr><th class=\"name\">{}</th>\
         <th>{}</th><th>{}</th><th class=\"name\">{}</th><th>{}</th></tr>\n",
        escape(&player.name),
        escape(phrases.get("report.back_to_events")),
        escape(phrases.get("report.event")),
        escape(phrases.get("report.game")),
        escape(phrases.get("report.colour")),
        escape(phrases.get("report.partner")),
        escape(phrases.get("report.result")),
    );
    for game in &player.games {
        let colour = if game.white {
            "report.white"
        } else {
            "report.black"
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"name\"><a href=\"../{}/index.html\">{}</a></td>\
             <td><a href=\"../{}/game-{}.html\">{}</a></td><td>{}</td><td class=\"name\">{}</td><td>{}</td></tr>",
            super::event_folder(&game.event),
            escape(&game.event_name),
            super::event_folder(&game.event),
            slug(&game.game),
            escape(&game.game),
            escape(phrases.get(colour)),
            escape(&game.partner),
            escape(&game.result(phrases)),
        );
    }
    out.push_str("</table>\n");
    // The score in each event, of its games over (an annulled one does not
    // count), in the order the events come.
    let mut events: Vec<&str> = Vec::new();
    for game in &player.games {
        if !events.contains(&game.event.as_str()) {
            events.push(&game.event);
        }
    }
    for event in events {
        let over: Vec<&PlayerGame> = player
            .games
            .iter()
            .filter(|g| g.event == event && !g.annulled && g.halves.is_some())
            .collect();
        let name = player
            .games
            .iter()
            .find(|g| g.event == event)
            .map_or(event, |g| g.event_name.as_str());
        let halves: u32 = over.iter().filter_map(|g| g.halves).sum();
        let said = phrases.fill(
            "report.score_in",
            &[
                ("event", &name),
                ("points", &score_text(halves)),
                ("games", &over.len()),
            ],
        );
        let _ = writeln!(out, "<p class=\"score\">{}</p>", escape(&said));
    }
    out.push_str("</body>\n</html>\n");
    Page {
        name: format!("players/{}", player_file(&player.id)),
        content: out,
    }
}

/// The file of a player's page in the `players` folder.
pub fn player_file(key: &str) -> String {
    format!("{}.html", slug(key))
}

/// The index of a folder's events: each with its dates, its games, and a
/// link to its own report (in the folder of its id).
pub fn events_index(
    events: &[Event],
    in_several: &[&PlayerEvents],
    phrases: &Phrases,
    today: NaiveDate,
    ratings: bool,
) -> Page {
    let mut out = String::new();
    let title = phrases.get("report.events");
    head(&mut out, title, phrases);
    let lang = phrases.lang();
    let _ = write!(
        out,
        "<h1>{}</h1>\n<p class=\"when\">{} {}</p>\n<table>\n<tr><th class=\"name\">{}</th>\
         <th>{}</th><th>{}</th><th>{}</th></tr>\n",
        escape(title),
        escape(phrases.get("report.standing_on")),
        lang.date(today),
        escape(phrases.get("report.event")),
        escape(phrases.get("report.start")),
        escape(phrases.get("report.end")),
        escape(phrases.get("report.games")),
    );
    for event in events {
        let _ = writeln!(
            out,
            "<tr><td class=\"name\"><a href=\"{}/index.html\">{}</a> ({})</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            super::event_folder(&event.id),
            escape(&event.name),
            escape(&event.id),
            lang.date(event.start),
            lang.date(event.end),
            event.games
        );
    }
    out.push_str("</table>\n");
    if ratings {
        let _ = writeln!(
            out,
            "<p><a href=\"ratings.html\">{}</a></p>",
            escape(phrases.get("report.rating_list_link"))
        );
    }
    // Players in more than one event: each one's games across them.
    if !in_several.is_empty() {
        let _ = writeln!(
            out,
            "<h2>{}</h2>\n<ul>",
            escape(phrases.get("report.players_in_several"))
        );
        for player in in_several {
            let _ = writeln!(
                out,
                "<li><a href=\"players/{}\">{}</a></li>",
                player_file(&player.id),
                escape(&player.name)
            );
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</body>\n</html>\n");
    Page {
        name: "index.html".into(),
        content: out,
    }
}

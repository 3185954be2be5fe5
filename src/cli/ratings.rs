//! `shtempel ratings`: the federation's rating list, the last one published
//! or every one (`--json`), or one player's history (`--player`).

use std::io::Write;

use chrono::NaiveDate;
use serde_json::{Value, json};

use shtempel::config::Config;
use shtempel::ratings::{self, Entry, Lists, Method, Player, Span};
use shtempel::report::rated::Federation;

use super::database::{database_error, open_store};
use super::output::Printer;
use super::{Context, Failure, clock, usage};

#[derive(clap::Args)]
pub struct Args {
    /// One player's history: his id in any of the events, or his address.
    #[arg(long)]
    player: Option<String>,
    /// Every list as JSON on standard output.
    #[arg(long)]
    json: bool,
    /// The lists published by this date (default: today in the tournament's zone).
    #[arg(long)]
    today: Option<NaiveDate>,
}

impl Args {
    pub fn run(self, cx: &Context) -> Result<u8, Failure> {
        // The list is the federation's: every event of the folder.
        let configs = super::load_all(&cx.config)?;
        let Some(first) = configs.first() else {
            return Err(usage(format!("{}: no tournament", cx.config.display())));
        };
        let store = open_store(first)?;
        let today = clock(first, cx.now, self.today).today;
        let federation =
            Federation::read(&configs, &store, today).map_err(|e| database_error(first, &e))?;
        let (players, lists) = (&federation.players, &federation.lists);
        let text = match &self.player {
            Some(wanted) => {
                let player = federation.find(wanted).ok_or_else(|| {
                    usage(format!(
                        "--player {wanted}: no player of {} has that id or address",
                        cx.config.display()
                    ))
                })?;
                history(lists, players, player, first, Printer::of(self.json))
            }
            None => list(lists, players, first, Printer::of(self.json)),
        };
        let _ = write!(std::io::stdout().lock(), "{text}");
        Ok(0)
    }
}

fn method_name(config: &Config) -> &'static str {
    match config.ratings.method {
        Method::Fide => "FIDE",
        Method::Glicko2 => "Glicko-2",
    }
}

fn entry_json(players: &[Player], entry: &Entry) -> Value {
    let mut value = serde_json::to_value(entry).unwrap_or_default();
    value["player"] = json!(players[entry.player].key);
    value["name"] = json!(players[entry.player].name);
    value
}

fn span_json(span: Span) -> Value {
    json!({"period": span.label(), "first": span.first, "last": span.last})
}

/// The lists: the last as a table, or all as JSON; and what waits.
fn list(lists: &Lists, players: &[Player], config: &Config, printer: Printer) -> String {
    let waiting = lists.next.map(|next| {
        format!(
            "{} finished game(s) wait for the list of {}, published after {}.\n",
            lists.waiting,
            next.label(),
            next.last
        )
    });
    if printer == Printer::Json {
        let all: Vec<Value> = lists
            .lists
            .iter()
            .map(|list| {
                let mut value = span_json(list.span);
                value["players"] = list
                    .entries
                    .iter()
                    .map(|e| entry_json(players, e))
                    .collect();
                value
            })
            .collect();
        let value = json!({
            "method": config.ratings.method,
            "period": config.ratings.period,
            "lists": all,
            "waiting": lists.waiting,
            "next": lists.next.map(span_json),
        });
        return format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    }
    let Some(latest) = lists.latest() else {
        return format!(
            "No rating list yet: no period with finished games has ended.\n{}",
            waiting.unwrap_or_default()
        );
    };
    let mut head = vec!["#".to_string(), "player".to_string()];
    head.extend(header(config));
    let mut table = vec![head];
    for (place, entry) in latest.entries.iter().enumerate() {
        let mut row = vec![(place + 1).to_string(), players[entry.player].name.clone()];
        row.extend(cells(entry));
        table.push(row);
    }
    let mut out = format!(
        "Rating list {} ({}, {} to {}): {} players\n",
        latest.span.label(),
        method_name(config),
        latest.span.first,
        latest.span.last,
        latest.entries.len()
    );
    out.push_str(&columns(&table, &[true, false], 2));
    if config.ratings.method == Method::Fide
        && latest
            .entries
            .iter()
            .all(|e| e.status == ratings::Status::Provisional)
    {
        out.push_str(
            "No player has a rating: FIDE's method rates no game between two players without \
             one. Give some their ratings (rating = 2150 in [[players]]), or rate by Glicko-2 \
             ([ratings] method = \"glicko2\").\n",
        );
    }
    out.push_str(&waiting.unwrap_or_default());
    out
}

/// One player's line in each list.
fn history(
    lists: &Lists,
    players: &[Player],
    player: usize,
    config: &Config,
    printer: Printer,
) -> String {
    let history = lists.history(player);
    let who = &players[player];
    if printer == Printer::Json {
        let rows: Vec<Value> = history
            .iter()
            .map(|(span, entry)| {
                let mut value = entry_json(players, entry);
                value["period"] = json!(span.label());
                value
            })
            .collect();
        let value = json!({
            "player": who.key,
            "name": who.name,
            "start": who.start,
            "start_source": who.start_source,
            "history": rows,
        });
        return format!(
            "{}\n",
            serde_json::to_string_pretty(&value).unwrap_or_default()
        );
    }
    let mut out = format!("{} ({}), {}", who.name, who.key, method_name(config));
    if let Some(start) = who.start {
        out.push_str(&format!(", given {start}"));
        if let Some(source) = &who.start_source {
            out.push_str(&format!(" ({source})"));
        }
    }
    out.push('\n');
    if history.is_empty() {
        out.push_str("On no list yet.\n");
        return out;
    }
    let mut head = vec!["period".to_string()];
    head.extend(header(config));
    let mut table = vec![head];
    for (span, entry) in &history {
        let mut row = vec![span.label()];
        row.extend(cells(entry));
        table.push(row);
    }
    out.push_str(&columns(&table, &[false], 1));
    out
}

fn header(config: &Config) -> Vec<String> {
    let last = match config.ratings.method {
        Method::Fide => "K",
        Method::Glicko2 => "RD",
    };
    ["rating", "change", "games", "total", "status", last]
        .map(str::to_string)
        .to_vec()
}

fn cells(entry: &Entry) -> Vec<String> {
    let status = match entry.status {
        ratings::Status::Rated => "rated",
        ratings::Status::Start => "start",
        ratings::Status::Provisional => "provisional",
    };
    vec![
        entry.rating.to_string(),
        entry.change.map_or("-".to_string(), |c| format!("{c:+}")),
        entry.games.to_string(),
        entry.total.to_string(),
        status.to_string(),
        entry
            .k
            .or(entry.deviation.and_then(|d| u32::try_from(d).ok()))
            .map_or("-".to_string(), |v| v.to_string()),
    ]
}

/// Rows as columns as wide as their longest cell: the first ones as
/// `leading` says (right-aligned where true), then `cells`' own, the
/// numbers right-aligned and the status left.
fn columns(table: &[Vec<String>], leading: &[bool], first_cell: usize) -> String {
    let width = |column: usize| {
        table
            .iter()
            .map(|row| row.get(column).map_or(0, |c| c.chars().count()))
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..table[0].len()).map(width).collect();
    let status = first_cell + 4;
    let mut out = String::new();
    for row in table {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(column, (cell, &width))| {
                let pad = " ".repeat(width - cell.chars().count());
                let right = leading.get(column).copied().unwrap_or(column != status);
                if right {
                    format!("{pad}{cell}")
                } else {
                    format!("{cell}{pad}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

//! The rating list's pages in a folder's report: `ratings.html`, the last
//! list published (each player linked to his history), and for each
//! player on a list `ratings/<key>.html`, his line on every list, with its
//! plot (`ratings/<key>.svg`). Pure: takes the lists and returns pages.

use std::fmt::Write as _;

use plotters::prelude::*;

use crate::error::Error;
use crate::phrases::Phrases;
use crate::printable::html_escaped as escape;
use crate::ratings::{Entry, Lists, Method, Player, Settings, Span, Status};

use super::{Page, head, slug};

const WIDTH: u32 = 720;
const HEIGHT: u32 = 360;
const LINE: RGBColor = RGBColor(31, 119, 180);

/// The phrases these pages say: what they show besides the lists.
const WORDS: &[&str] = &[
    "report.back_to_events",
    "report.back_to_list",
    "report.method_fide",
    "report.method_glicko2",
    "report.player",
    "report.rating",
    "report.rating_change",
    "report.rating_deviation",
    "report.rating_games",
    "report.rating_given",
    "report.rating_history",
    "report.rating_k",
    "report.rating_list",
    "report.rating_list_link",
    "report.rating_none",
    "report.rating_period",
    "report.rating_period_column",
    "report.rating_plot_alt",
    "report.rating_status",
    "report.rating_status_provisional",
    "report.rating_status_rated",
    "report.rating_status_start",
    "report.rating_total",
    "report.rating_waiting",
];

/// The words of `phrases` these pages use, one a line: a change of the
/// templates changes the pages.
pub fn words(phrases: &Phrases) -> String {
    WORDS
        .iter()
        .map(|key| format!("{}\n", phrases.get(key)))
        .collect()
}

/// The file of `player`'s history, under `ratings/`.
pub fn history_file(player: &Player) -> String {
    format!("{}.html", slug(&player.key))
}

fn method(settings: &Settings, phrases: &Phrases) -> String {
    phrases
        .get(match settings.method {
            Method::Fide => "report.method_fide",
            Method::Glicko2 => "report.method_glicko2",
        })
        .to_string()
}

fn span_text(span: Span, phrases: &Phrases) -> String {
    let lang = phrases.lang();
    phrases.fill(
        "report.rating_period",
        &[
            ("first", &lang.date(span.first)),
            ("last", &lang.date(span.last)),
        ],
    )
}

/// The columns after the player's name (or the period).
fn columns(settings: &Settings, phrases: &Phrases) -> String {
    let last = match settings.method {
        Method::Fide => "report.rating_k",
        Method::Glicko2 => "report.rating_deviation",
    };
    [
        "report.rating",
        "report.rating_change",
        "report.rating_games",
        "report.rating_total",
        "report.rating_status",
        last,
    ]
    .iter()
    .map(|name| format!("<th>{}</th>", escape(phrases.get(name))))
    .collect()
}

fn cells(entry: &Entry, phrases: &Phrases) -> String {
    let status = match entry.status {
        Status::Rated => "report.rating_status_rated",
        Status::Start => "report.rating_status_start",
        Status::Provisional => "report.rating_status_provisional",
    };
    let last = entry
        .k
        .map(|k| k.to_string())
        .or(entry.deviation.map(|d| d.to_string()))
        .unwrap_or_else(|| "–".into());
    format!(
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"name\">{}</td><td>{}</td>",
        entry.rating,
        entry.change.map_or("–".to_string(), |c| format!("{c:+}")),
        entry.games,
        entry.total,
        escape(phrases.get(status)),
        last
    )
}

/// `ratings.html`: the last list, and what waits for the next.
pub fn list_page(
    lists: &Lists,
    players: &[Player],
    settings: &Settings,
    phrases: &Phrases,
) -> Page {
    let mut out = String::new();
    let title = phrases.get("report.rating_list_link");
    head(&mut out, title, phrases);
    let _ = writeln!(
        out,
        "<p><a href=\"index.html\">{}</a></p>",
        escape(phrases.get("report.back_to_events"))
    );
    match lists.latest() {
        None => {
            let _ = writeln!(
                out,
                "<h1>{}</h1>\n<p>{}</p>",
                escape(title),
                escape(phrases.get("report.rating_none"))
            );
        }
        Some(list) => {
            let heading = phrases.fill("report.rating_list", &[("period", &list.span.label())]);
            let _ = writeln!(
                out,
                "<h1>{}</h1>\n<p class=\"when\">{} · {}</p>\n<table id=\"ratings\">\n\
                 <tr><th>#</th><th class=\"name\">{}</th>{}</tr>",
                escape(&heading),
                escape(&span_text(list.span, phrases)),
                escape(&method(settings, phrases)),
                escape(phrases.get("report.player")),
                columns(settings, phrases)
            );
            for (place, entry) in list.entries.iter().enumerate() {
                let player = &players[entry.player];
                let _ = writeln!(
                    out,
                    "<tr><td>{}</td><td class=\"name\"><a href=\"ratings/{}\">{}</a></td>{}</tr>",
                    place + 1,
                    history_file(player),
                    escape(&player.name),
                    cells(entry, phrases)
                );
            }
            out.push_str("</table>\n");
        }
    }
    if let Some(next) = lists.next {
        let lang = phrases.lang();
        let said = phrases.fill(
            "report.rating_waiting",
            &[
                ("games", &lists.waiting),
                ("period", &next.label()),
                ("day", &lang.date(next.last)),
            ],
        );
        let _ = writeln!(out, "<p>{}</p>", escape(&said));
    }
    out.push_str("</body>\n</html>\n");
    Page {
        name: "ratings.html".into(),
        content: out,
    }
}

/// `player`'s history: his page and its plot, under `ratings/`.
pub fn history_pages(
    lists: &Lists,
    players: &[Player],
    at: usize,
    settings: &Settings,
    phrases: &Phrases,
) -> [Page; 2] {
    let player = &players[at];
    let history = lists.history(at);
    let stem = slug(&player.key);
    let mut out = String::new();
    head(&mut out, &player.name, phrases);
    // One folder down from the list: links go up.
    out = out.replace("href=\"style.css\"", "href=\"../style.css\"");
    let _ = writeln!(
        out,
        "<h1>{}</h1>\n<p><a href=\"../ratings.html\">{}</a></p>\n<h2>{}</h2>\n<p>{}</p>",
        escape(&player.name),
        escape(phrases.get("report.back_to_list")),
        escape(phrases.get("report.rating_history")),
        escape(&method(settings, phrases)),
    );
    if let Some(start) = player.start {
        let rating = match &player.start_source {
            Some(source) => format!("{start} ({source})"),
            None => start.to_string(),
        };
        let given = phrases.fill("report.rating_given", &[("rating", &rating)]);
        let _ = writeln!(out, "<p>{}</p>", escape(&given));
    }
    let _ = writeln!(
        out,
        "<table>\n<tr><th class=\"name\">{}</th>{}</tr>",
        escape(phrases.get("report.rating_period_column")),
        columns(settings, phrases)
    );
    for (span, entry) in &history {
        let _ = writeln!(
            out,
            "<tr><td class=\"name\">{}</td>{}</tr>",
            escape(&span.label()),
            cells(entry, phrases)
        );
    }
    out.push_str("</table>\n");
    let _ = writeln!(
        out,
        "<p><img src=\"{stem}.svg\" alt=\"{}\"></p>\n</body>\n</html>",
        escape(phrases.get("report.rating_plot_alt"))
    );
    let points: Vec<(String, i32)> = history
        .iter()
        .map(|(span, entry)| (span.label(), entry.rating))
        .collect();
    let plot = history_svg(&player.name, &points).unwrap_or_else(|e| {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"10\" y=\"20\">{}</text></svg>",
            escape(&e.to_string())
        )
    });
    [
        Page {
            name: format!("ratings/{stem}.html"),
            content: out,
        },
        Page {
            name: format!("ratings/{stem}.svg"),
            content: plot,
        },
    ]
}

/// A player's rating list by list, as an SVG line; the periods under it.
fn history_svg(name: &str, points: &[(String, i32)]) -> Result<String, Error> {
    let err = |e: DrawingAreaErrorKind<_>| Error::internal(format!("plot: {e}"));
    let low = points.iter().map(|p| p.1).min().unwrap_or(1500) - 25;
    let high = points.iter().map(|p| p.1).max().unwrap_or(1500) + 25;
    let last = points.len().saturating_sub(1).max(1);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut plot = ChartBuilder::on(&root)
            .caption(name, ("sans-serif", 18))
            .margin(14)
            .x_label_area_size(36)
            .y_label_area_size(50)
            .build_cartesian_2d(0..last, low..high)
            .map_err(err)?;
        let label = |x: &usize| points.get(*x).map(|p| p.0.clone()).unwrap_or_default();
        plot.configure_mesh()
            .x_labels(points.len().min(12))
            .x_label_formatter(&label)
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(err)?;
        let line: Vec<(usize, i32)> = points.iter().enumerate().map(|(x, p)| (x, p.1)).collect();
        plot.draw_series(LineSeries::new(line.clone(), LINE.stroke_width(2)))
            .map_err(err)?;
        plot.draw_series(line.into_iter().map(|p| Circle::new(p, 3, LINE.filled())))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

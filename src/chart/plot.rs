//! The time chart as a picture (SVG, drawn with plotters): each player's
//! cumulative days against the moves he has made, under the staircase of the
//! limit (50 days for moves 1-10, 100 for 11-20, …), with penalties marked.
//! Text is left to the viewer (SVG `<text>`): no font is read or embedded.
//! Pure: takes the chart and returns the SVG document.

use crate::error::Error;
use plotters::prelude::*;
use plotters::style::Color as _;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use shakmaty::Color;

use crate::chart::Chart;
use crate::phrases::Phrases;
use crate::rules::Rules;

const WIDTH: u32 = 800;
const HEIGHT: u32 = 520;
/// The strip under the plot that holds the legend.
const LEGEND_HEIGHT: u32 = 56;
const WHITE_LINE: RGBColor = RGBColor(31, 119, 180);
const BLACK_LINE: RGBColor = RGBColor(40, 40, 40);
const LIMIT_LINE: RGBColor = RGBColor(214, 39, 40);
const PENALTY: RGBColor = RGBColor(255, 127, 14);

/// A point of the plot: (moves made, cumulative days).
type Point = (u32, u32);
/// A penalty: where it was charged, and its days.
type Penalty = (u32, u32, u32);

/// One player's line from (0, 0), and the points where a penalty was charged.
fn line(chart: &Chart, color: Color) -> (Vec<Point>, Vec<Penalty>) {
    let mut points = vec![(0, 0)];
    let mut penalties = Vec::new();
    for row in chart.rows.iter().filter(|r| r.color == color) {
        let made = points.len() as u32;
        points.push((made, row.total));
        if row.penalty > 0 {
            penalties.push((made, row.total, row.penalty));
        }
    }
    (points, penalties)
}

/// The limit as a staircase over `0..=moves`.
fn staircase(rules: &Rules, moves: u32) -> Vec<(u32, u32)> {
    let step = rules.moves_per_control.max(1);
    let mut points = Vec::new();
    let mut from = 0;
    while from < moves {
        let limit = rules.limit(from + 1);
        points.push((from, limit));
        from += step;
        points.push((from, limit));
    }
    points
}

/// The chart of one game as an SVG document, labelled in the phrases' language.
pub fn svg(chart: &Chart, rules: &Rules, phrases: &Phrases) -> Result<String, Error> {
    let (white, white_penalties) = line(chart, Color::White);
    let (black, black_penalties) = line(chart, Color::Black);
    let step = rules.moves_per_control.max(1);
    let made = (white.len().max(black.len()) as u32).saturating_sub(1);
    // Whole controls on the axis, and one more when the last is nearly full.
    let moves = (made / step + 1) * step;
    let limits = staircase(rules, moves);
    let top = limits
        .iter()
        .map(|p| p.1)
        .chain(white.iter().chain(&black).map(|p| p.1))
        .max()
        .unwrap_or(0);
    let top = top + top / 10 + 1;
    let title = phrases.fill(
        "plot.title",
        &[
            ("game", &chart.game),
            ("white", &chart.white),
            ("black", &chart.black),
        ],
    );
    let err = |e: DrawingAreaErrorKind<_>| Error::internal(format!("plot: {e}"));
    let limit_name = phrases.fill(
        "plot.limit",
        &[
            ("days", &rules.days_per_control),
            ("moves", &rules.moves_per_control),
        ],
    );
    let names = [Color::White, Color::Black].map(|color| {
        let (name, side) = match color {
            Color::White => (&chart.white, phrases.get("names.white")),
            Color::Black => (&chart.black, phrases.get("names.black")),
        };
        format!("{name} ({side})")
    });
    let penalties: Vec<Penalty> = white_penalties.into_iter().chain(black_penalties).collect();
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        // The legend has a strip of its own under the plot: inside the plot
        // it would hide the points of a long first move.
        let (area, legend) = root.split_vertically(HEIGHT - LEGEND_HEIGHT);
        let mut plot = ChartBuilder::on(&area)
            .caption(title, ("sans-serif", 20))
            .margin(14)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0..moves, 0..top)
            .map_err(err)?;
        plot.configure_mesh()
            .x_desc(phrases.get("plot.moves"))
            .y_desc(phrases.get("plot.days"))
            .light_line_style(WHITE)
            .bold_line_style(RGBColor(225, 225, 225))
            .label_style(("sans-serif", 14))
            .axis_desc_style(("sans-serif", 15))
            .draw()
            .map_err(err)?;
        plot.draw_series(LineSeries::new(limits, LIMIT_LINE.stroke_width(2)))
            .map_err(err)?;
        for (points, colour) in [(white, WHITE_LINE), (black, BLACK_LINE)] {
            plot.draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(err)?;
            plot.draw_series(
                points
                    .into_iter()
                    .skip(1)
                    .map(|p| Circle::new(p, 3, colour.filled())),
            )
            .map_err(err)?;
        }
        if !penalties.is_empty() {
            plot.draw_series(penalties.iter().map(|&(x, y, days)| {
                EmptyElement::at((x, y))
                    + Circle::new((0, 0), 7, PENALTY.stroke_width(2))
                    + Text::new(format!("+{days}"), (9, -16), ("sans-serif", 13))
            }))
            .map_err(err)?;
        }
        let mut entries: Vec<(String, RGBColor, bool)> = vec![
            (names[0].clone(), WHITE_LINE, false),
            (names[1].clone(), BLACK_LINE, false),
            (limit_name, LIMIT_LINE, false),
        ];
        if !penalties.is_empty() {
            entries.push((phrases.get("plot.penalty").to_string(), PENALTY, true));
        }
        draw_legend(&legend, entries).map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(out)
}

/// The legend in its strip, two entries a row (the players, then the limit
/// and the penalties): a line's sample, or a ring for the penalty, and its label.
fn draw_legend<DB: DrawingBackend>(
    strip: &DrawingArea<DB, plotters::coord::Shift>,
    entries: Vec<(String, RGBColor, bool)>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let column = WIDTH as i32 / 2;
    for (index, (label, colour, ring)) in entries.into_iter().enumerate() {
        let x = 64 + column * (index as i32 % 2);
        let y = 16 + 24 * (index as i32 / 2);
        if ring {
            strip.draw(&Circle::new((x + 10, y), 6, colour.stroke_width(2)))?;
        } else {
            strip.draw(&PathElement::new(
                vec![(x, y), (x + 20, y)],
                colour.stroke_width(2),
            ))?;
        }
        let style = ("sans-serif", 14)
            .into_text_style(strip)
            .pos(Pos::new(HPos::Left, VPos::Center));
        strip.draw(&Text::new(label, (x + 28, y), style))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chart::ChartRow;
    use crate::rules::{Fraction, Status};
    use chrono::NaiveDate;

    fn chart(penalty_on_third: bool) -> Chart {
        let day = |d| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
        let mut totals = [0, 0];
        let rows = (0..6)
            .map(|ply| {
                let color = if ply % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                let penalty = if penalty_on_third && ply == 2 { 6 } else { 0 };
                totals[ply % 2] += 3 + penalty;
                ChartRow {
                    number: ply as u32 / 2 + 1,
                    color,
                    san: "e4".into(),
                    conditional: false,
                    partner_postmark: None,
                    received: None,
                    sent_on: day(ply as u32 + 1),
                    delivered_on: None,
                    days: 3,
                    penalty,
                    excused: 0,
                    total: totals[ply % 2],
                    limit: 50,
                    left: 50 - i64::from(totals[ply % 2]),
                }
            })
            .collect();
        Chart {
            game: "7".into(),
            white: "Ivanov <I.>".into(),
            black: "Petrov".into(),
            status: Status::Active,
            result: None,
            totals: Fraction {
                white: totals[0],
                black: totals[1],
            },
            rows,
            credit: Fraction::default(),
            notes: vec![],
        }
    }

    #[test]
    fn the_plot_names_the_game_and_marks_penalties_in_the_tournament_language() {
        let rules = Rules::default();
        let en = svg(&chart(true), &rules, &Phrases::builtin(crate::Lang::En)).unwrap();
        assert!(en.starts_with("<svg"), "{}", &en[..60.min(en.len())]);
        assert!(en.contains("Game 7: Ivanov &lt;I.&gt; v Petrov, time used"));
        assert!(en.contains("limit: 50 days per 10 moves"));
        assert!(
            en.contains("\n+6\n</text>"),
            "the penalty is marked with its days"
        );
        assert!(en.contains("moves made"));
        let ru = svg(&chart(false), &rules, &Phrases::builtin(crate::Lang::Ru)).unwrap();
        assert!(ru.contains("Партия 7"));
        assert!(ru.contains("лимит: 50 дней на 10 ходов"));
        assert!(!ru.contains("штраф"), "no penalty, no penalty legend");
    }

    #[test]
    fn the_staircase_rises_by_a_control_every_control() {
        let rules = Rules::default();
        assert_eq!(
            staircase(&rules, 20),
            [(0, 50), (10, 50), (10, 100), (20, 100)]
        );
        let (points, penalties) = line(&chart(true), Color::White);
        assert_eq!(points, [(0, 0), (1, 3), (2, 12), (3, 15)]);
        assert_eq!(penalties, [(2, 12, 6)]);
    }

    #[test]
    fn the_legend_hides_no_point() {
        // White's first move took 54 days: a point in the plot's top left,
        // where a legend inside the plot would sit.
        let mut long = chart(true);
        for row in long.rows.iter_mut().filter(|r| r.color == Color::White) {
            row.total += 51;
        }
        let svg = svg(&long, &Rules::default(), &Phrases::builtin(crate::Lang::En)).unwrap();
        let number = |tag: &str, name: &str| -> f64 {
            let at = tag.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            tag[at..].split('"').next().unwrap().parse().unwrap()
        };
        let strip = f64::from(HEIGHT - LEGEND_HEIGHT);
        let points: Vec<f64> = svg
            .split("<circle")
            .skip(1)
            .filter(|tag| tag.contains("r=\"3\""))
            .map(|tag| number(tag, "cy"))
            .collect();
        assert_eq!(points.len(), 6, "every move a point");
        assert!(points.iter().all(|&y| y < strip), "{points:?}");
        let texts: Vec<(f64, &str)> = svg
            .split("<text")
            .skip(1)
            .map(|tag| (number(tag, "y"), tag))
            .filter(|(_, tag)| {
                ["(White)", "(Black)", "limit:", ">\npenalty"]
                    .iter()
                    .any(|label| tag.contains(label))
            })
            .collect();
        assert_eq!(
            texts.len(),
            4,
            "both players, the limit, the penalty: {texts:?}"
        );
        assert!(texts.iter().all(|(y, _)| *y > strip), "{texts:?}");
    }
}

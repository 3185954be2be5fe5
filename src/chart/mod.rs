//! The time chart (Table 2 of the regulation): one row per move with its dates,
//! days, penalty, running total, the limit of the current control and the days
//! left; rendered as text, CSV and the JSON object of `chart --format json`.

pub mod plot;

use chrono::NaiveDate;
use serde::Serialize;
use serde_json::{Value, json};
use shakmaty::Color;

use crate::color_name;
use crate::phrases::Phrases;
use crate::rules::{Fraction, Ledger, Rules, Status};

/// One row of the chart.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChartRow {
    pub number: u32,
    #[serde(with = "crate::color_serde")]
    pub color: Color,
    pub san: String,
    pub conditional: bool,
    /// d1: the postmark of the partner's move this one answers.
    pub partner_postmark: Option<NaiveDate>,
    /// d2: when that move reached the player.
    pub received: Option<NaiveDate>,
    /// d3: the postmark of this move.
    pub sent_on: NaiveDate,
    /// When this move reached the partner.
    pub delivered_on: Option<NaiveDate>,
    pub days: u32,
    pub penalty: u32,
    /// Days the chief arbiter excused at this move (10.3.7: he found no
    /// overstep): taken off the running total from here on.
    pub excused: u32,
    /// The player's running total after this move, less the days excused
    /// so far.
    pub total: u32,
    /// The limit for the moves he has made so far (50, 100, …).
    pub limit: u32,
    pub left: i64,
}

/// A game's chart with what names it.
#[derive(Clone, Debug)]
pub struct Chart {
    pub game: String,
    pub white: String,
    pub black: String,
    pub status: Status,
    pub result: Option<String>,
    /// The totals after the days the arbiter excused.
    pub totals: Fraction,
    pub rows: Vec<ChartRow>,
    /// The days the arbiter excused (10.3.7), each taken off the rows'
    /// running totals at its move; an overstep by silence's are taken off
    /// at the offender's next move (`totals` has them at once).
    pub credit: Fraction,
    /// Corrections, penalties, repeats: one line each, under the table.
    pub notes: Vec<String>,
}

/// The rows of the chart from the ledger: the running totals are the
/// player's days and penalties less the days the arbiter excused up to
/// that move, as the letters count them.
pub fn rows(ledger: &Ledger, rules: &Rules) -> Vec<ChartRow> {
    let mut excused_at = vec![0u32; ledger.rows.len()];
    for excused in &ledger.standing.excused {
        if let Some(at) = excused.at(&ledger.rows) {
            excused_at[at] = excused_at[at].saturating_add(excused.days);
        }
    }
    let mut charged = Fraction::default();
    let mut excused = Fraction::default();
    let mut moves = Fraction::default();
    let mut out = Vec::with_capacity(ledger.rows.len());
    for (ply, row) in ledger.rows.iter().enumerate() {
        charged.add(row.by, row.days.saturating_add(row.penalty));
        excused.add(row.by, excused_at[ply]);
        moves.add(row.by, 1);
        let answered = ply.checked_sub(1).map(|previous| &ledger.rows[previous]);
        let total = charged.get(row.by).saturating_sub(excused.get(row.by));
        let limit = rules.limit(moves.get(row.by));
        out.push(ChartRow {
            number: u32::try_from(ply / 2 + 1).unwrap_or(u32::MAX),
            color: row.by,
            san: row.san.clone(),
            conditional: row.conditional,
            partner_postmark: answered.map(|previous| previous.sent_on),
            received: answered.and_then(|previous| previous.delivered_on),
            sent_on: row.sent_on,
            delivered_on: row.delivered_on,
            days: row.days,
            penalty: row.penalty,
            excused: excused_at[ply],
            total,
            limit,
            left: i64::from(limit) - i64::from(total),
        });
    }
    out
}

fn date_text(date: Option<NaiveDate>, phrases: &Phrases) -> String {
    date.map_or("-".to_string(), |date| phrases.date(date))
}

impl Chart {
    /// The one-line summary of `games --json`: the chart object without moves.
    pub fn summary_json(&self) -> Value {
        json!({
            "game": self.game,
            "white": self.white,
            "black": self.black,
            "status": self.status.name(),
            "result": self.result,
            "totals": {"white": self.totals.white, "black": self.totals.black},
        })
    }

    /// The object of `chart GAME --format json` (contract.md 1).
    pub fn to_json(&self) -> Value {
        let mut value = self.summary_json();
        let moves: Vec<Value> = self
            .rows
            .iter()
            .map(|row| {
                json!({
                    "number": row.number,
                    "color": color_name(row.color),
                    "san": row.san,
                    "sent_on": row.sent_on,
                    "delivered_on": row.delivered_on,
                    "days": row.days,
                    "penalty": row.penalty,
                    "excused": row.excused,
                    "total": row.total,
                })
            })
            .collect();
        value["moves"] = Value::Array(moves);
        // The notes under the table: corrections, penalties, repeats, and
        // who set a result, when and why.
        value["notes"] = json!(self.notes);
        value
    }

    /// CSV with a header line; dates in ISO form. The days excused are the
    /// last column, so that the contract's columns keep their places.
    pub fn to_csv(&self) -> String {
        let mut out = String::from(
            "number,color,move,partner_postmark,received,sent,days,penalty,total,limit,left,excused\n",
        );
        for row in &self.rows {
            let iso = |date: Option<NaiveDate>| date.map_or(String::new(), |d| d.to_string());
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}\n",
                row.number,
                color_name(row.color),
                csv_field(&row.san),
                iso(row.partner_postmark),
                iso(row.received),
                row.sent_on,
                row.days,
                row.penalty,
                row.total,
                row.limit,
                row.left,
                row.excused
            ));
        }
        out
    }

    /// Whether the arbiter excused days at any of the rows: the text and
    /// the report then show a column of them after the penalties.
    pub fn excuses(&self) -> bool {
        self.rows.iter().any(|row| row.excused > 0)
    }

    /// A plain-text table for letters and terminals, with the notes under it.
    pub fn to_text(&self, phrases: &Phrases) -> String {
        let mut header: Vec<String> = phrases
            .list("chart.columns")
            .iter()
            .map(|h| h.to_string())
            .collect();
        if self.excuses() {
            header.insert(
                EXCUSED_AT.min(header.len()),
                phrases.get("chart.excused").to_string(),
            );
        }
        let mut table: Vec<Vec<String>> = vec![header.clone()];
        for row in &self.rows {
            let colour = match row.color {
                Color::White => phrases.get("names.white"),
                Color::Black => phrases.get("names.black"),
            };
            let san = phrases.san(&row.san);
            let san = if row.conditional {
                format!("{san} (*)")
            } else {
                san
            };
            let mut cells = vec![
                row.number.to_string(),
                colour.to_string(),
                san,
                date_text(row.partner_postmark, phrases),
                date_text(row.received, phrases),
                date_text(Some(row.sent_on), phrases),
                row.days.to_string(),
                row.penalty.to_string(),
                row.total.to_string(),
                row.limit.to_string(),
                row.left.to_string(),
            ];
            if self.excuses() {
                cells.insert(EXCUSED_AT, row.excused.to_string());
            }
            table.push(cells);
        }
        let mut widths = vec![0usize; header.len()];
        for line in &table {
            for (width, cell) in widths.iter_mut().zip(line) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let title = phrases.fill(
            "chart.title",
            &[
                ("game", &self.game),
                ("white", &self.white),
                ("black", &self.black),
            ],
        );
        let mut out = format!("{title}\n");
        for line in &table {
            let cells: Vec<String> = line
                .iter()
                .zip(&widths)
                .map(|(cell, width)| format!("{cell}{}", " ".repeat(width - cell.chars().count())))
                .collect();
            out.push_str(cells.join("  ").trim_end());
            out.push('\n');
        }
        if self.credit != Fraction::default() {
            out.push_str(&phrases.fill("chart.credit", &[("credit", &self.credit)]));
            out.push('\n');
        }
        out.push_str(&phrases.fill("chart.totals", &[("totals", &self.totals)]));
        out.push('\n');
        if self.rows.iter().any(|row| row.conditional) {
            out.push_str(phrases.get("chart.conditional"));
            out.push('\n');
        }
        for note in &self.notes {
            out.push_str(&format!("- {note}\n"));
        }
        out
    }
}

/// Where the text table's column of days excused goes: after the penalty.
const EXCUSED_AT: usize = 8;

fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lang;
    use crate::rules::{Calendar, Row};

    fn d(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    /// The worked example of rules.md 3, steps 1 to 4.
    fn base_rows() -> Vec<Row> {
        let moves = [
            (Color::White, "e4", "2026-11-03", 2, 0),
            (Color::Black, "e5", "2026-11-07", 4, 0),
            (Color::White, "Nf3", "2026-11-12", 5, 0),
            (Color::Black, "Nc6", "2026-11-12", 0, 6),
        ];
        moves
            .into_iter()
            .map(|(by, san, sent, days, penalty)| Row {
                by,
                san: san.into(),
                conditional: false,
                sent_on: d(sent),
                delivered_on: Some(d(sent)),
                days,
                penalty,
                letter: None,
            })
            .collect()
    }

    fn chart() -> Chart {
        let mut ledger = Ledger::new(Calendar::on_time(d("2026-11-01"), d("2028-11-01")));
        ledger.rows = base_rows();
        let rules = Rules::default();
        Chart {
            game: "1".into(),
            white: "Ivanov I.".into(),
            black: "Petrov P.".into(),
            status: Status::Active,
            result: None,
            totals: ledger.totals(),
            rows: rows(&ledger, &rules),
            credit: Fraction::default(),
            notes: vec!["2. Nf3: sent 12.11 by postmark, not 10.11: +2 days".into()],
        }
    }

    #[test]
    fn rows_carry_dates_totals_and_limits() {
        let chart = chart();
        let third = &chart.rows[2];
        assert_eq!(
            (third.number, third.color, third.san.as_str()),
            (2, Color::White, "Nf3")
        );
        assert_eq!(third.partner_postmark, Some(d("2026-11-07")));
        assert_eq!(third.received, Some(d("2026-11-07")));
        assert_eq!(
            (third.days, third.total, third.limit, third.left),
            (5, 7, 50, 43)
        );
        let fourth = &chart.rows[3];
        assert_eq!((fourth.penalty, fourth.total, fourth.left), (6, 10, 40));
        assert_eq!(
            chart.totals,
            Fraction {
                white: 7,
                black: 10
            }
        );
    }

    /// The days the arbiter excused come off the running totals at their
    /// move (an overstep by silence's at the offender's next move), as the
    /// letters count them; the rows before are as they were.
    #[test]
    fn excused_days_come_off_the_totals_from_their_move_on() {
        use crate::rules::Excused;
        let base = chart();
        let table: [(Excused, [u32; 4], [u32; 4]); 3] = [
            // (excused, each row's excused, each row's total)
            (
                Excused {
                    by: Color::Black,
                    days: 3,
                    ply: Some(1),
                    after: 2,
                },
                [0, 3, 0, 0],
                [2, 1, 7, 7],
            ),
            (
                Excused {
                    by: Color::White,
                    days: 5,
                    ply: Some(2),
                    after: 3,
                },
                [0, 0, 5, 0],
                [2, 4, 2, 10],
            ),
            // By silence: shown at Black's first move after the decision.
            (
                Excused {
                    by: Color::Black,
                    days: 4,
                    ply: None,
                    after: 2,
                },
                [0, 0, 0, 4],
                [2, 4, 7, 6],
            ),
        ];
        for (excused, at, totals) in table {
            let mut ledger = Ledger::new(Calendar::on_time(d("2026-11-01"), d("2028-11-01")));
            ledger.rows = base_rows();
            ledger.standing.excused.push(excused.clone());
            let rows = rows(&ledger, &Rules::default());
            let got: Vec<(u32, u32)> = rows.iter().map(|r| (r.excused, r.total)).collect();
            let want: Vec<(u32, u32)> = at.into_iter().zip(totals).collect();
            assert_eq!(got, want, "{excused:?}");
            for row in &rows {
                assert_eq!(row.left, i64::from(row.limit) - i64::from(row.total));
            }
        }
        assert!(!base.excuses());
    }

    #[test]
    fn csv_has_the_columns_of_the_contract() {
        let csv = chart().to_csv();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(
            lines[0],
            "number,color,move,partner_postmark,received,sent,days,penalty,total,limit,left,excused"
        );
        assert_eq!(lines[1], "1,white,e4,,,2026-11-03,2,0,2,50,48,0");
        assert_eq!(
            lines[3],
            "2,white,Nf3,2026-11-07,2026-11-07,2026-11-12,5,0,7,50,43,0"
        );
        assert_eq!(lines.len(), 5);
    }

    #[test]
    fn json_is_the_object_of_the_contract() {
        let value = chart().to_json();
        assert_eq!(value["game"], "1");
        assert_eq!(value["status"], "active");
        assert_eq!(value["result"], Value::Null);
        assert_eq!(value["totals"], json!({"white": 7, "black": 10}));
        assert_eq!(
            value["moves"][0],
            json!({"number": 1, "color": "white", "san": "e4", "sent_on": "2026-11-03",
                   "delivered_on": "2026-11-03", "days": 2, "penalty": 0, "excused": 0, "total": 2})
        );
        assert_eq!(value["moves"].as_array().unwrap().len(), 4);
        assert!(chart().summary_json().get("moves").is_none());
        assert_eq!(value["notes"], json!(chart().notes));
        assert_eq!(value["notes"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn text_table_in_both_languages() {
        let ru = chart().to_text(&Phrases::builtin(Lang::Ru));
        assert!(ru.starts_with("Партия 1: Ivanov I. — Petrov P.\n"));
        // Moves in the tournament's notation.
        assert!(ru.contains("2    белые   Кf3"), "{ru}");
        assert!(ru.contains("2    чёрные  Кc6"), "{ru}");
        assert!(ru.contains("07.11.2026"));
        assert!(ru.contains("Время (белые/чёрные): 7/10"));
        assert!(ru.contains("- 2. Nf3: sent 12.11"));
        let en = chart().to_text(&Phrases::builtin(Lang::En));
        assert!(en.contains("Time (White/Black): 7/10"));
        assert!(en.contains("Nf3"), "{en}");
        assert!(en.contains("2026-11-07"));
        // Columns line up: every row is as wide as the header or narrower.
        let widths: Vec<usize> = en
            .lines()
            .skip(1)
            .take(5)
            .map(|l| l.chars().count())
            .collect();
        assert!(widths.iter().all(|&w| w <= widths[0] + 2), "{en}");
    }
}

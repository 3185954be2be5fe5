//! The HTML alternative of a message that shows boards: the
//! text with each board's picture in its diagram's place, the ranks and
//! files labelled around it, the PNGs in the message by `cid:`.

use lettre::message::header::ContentType;
use lettre::message::{MultiPart, SinglePart};

use super::Picture;
use crate::error::Error;
use crate::printable::html_escaped as escape;

/// The text and, as its alternative, HTML with the boards' pictures in
/// their diagrams' places (`multipart/related`, each PNG by `cid:`: Gmail
/// and Outlook show no SVG and fetch no image). The plain text stays the
/// message as it is without pictures, for the mail programs that show
/// text and for the reader of a reply that quotes it.
pub(super) fn with_pictures(
    body: String,
    pictures: &[Picture],
    message_id: &str,
) -> Result<MultiPart, Error> {
    // Content-IDs of the message's own, so a reply quoting two boards
    // never confuses them: `board.ID`, then `board-2.ID`, ...
    let local = message_id.trim_matches(|c| c == '<' || c == '>');
    let cids: Vec<String> = (0..pictures.len())
        .map(|at| match at {
            0 => format!("board.{local}"),
            _ => format!("board-{}.{local}", at + 1),
        })
        .collect();
    let mut related =
        MultiPart::related().singlepart(SinglePart::html(html_of(&body, pictures, &cids)));
    for (picture, cid) in pictures.iter().zip(cids) {
        related = related.singlepart(lettre::message::Attachment::new_inline(cid).body(
            picture.png.clone(),
            ContentType::parse("image/png").map_err(Error::mail)?,
        ));
    }
    // A reader who asked for the picture alone: its words in the text.
    let plain = pictures
        .iter()
        .filter(|picture| picture.alone)
        .fold(body, |text, picture| {
            text.replacen(&picture.diagram, &format!("[{}]\n", picture.alt), 1)
        });
    Ok(MultiPart::alternative()
        .singlepart(SinglePart::plain(plain))
        .multipart(related))
}

/// The text as HTML, each picture's diagram, in turn, replaced by the
/// picture of its `cid`.
fn html_of(body: &str, pictures: &[Picture], cids: &[String]) -> String {
    let text = |text: &str| {
        format!(
            "<div style=\"font-family:monospace;white-space:pre-wrap\">{}</div>\n",
            escape(text)
        )
    };
    let size = crate::board::picture::SQUARE * 8;
    let mut html =
        String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n");
    let mut rest = body;
    for (picture, cid) in pictures.iter().zip(cids) {
        let Some((before, after)) = rest.split_once(&picture.diagram) else {
            continue;
        };
        // The picture's paragraph keeps its own space: the text's blank
        // lines around the diagram would double it.
        html.push_str(&text(before.trim_end_matches('\n')));
        let image = format!(
            "<img src=\"cid:{}\" width=\"{size}\" height=\"{size}\" alt=\"{}\" style=\"display:block\">",
            escape(cid),
            escape(&picture.alt)
        );
        html.push_str(&labelled(&image, picture.side));
        rest = after.trim_start_matches('\n');
    }
    html.push_str(&text(rest));
    html.push_str("</body></html>\n");
    html
}

/// The board's picture in a table with its ranks beside it and its files
/// below, as seen from `side` (tables: what every mail program lays out
/// alike; the labels are text, in the reader's own font size).
fn labelled(image: &str, side: shakmaty::Color) -> String {
    // The labels' look, on each table (a mail program may not pass a
    // table's style on to one inside it).
    const LABELS: &str = "font:12px sans-serif;color:#555";
    let square = crate::board::picture::SQUARE;
    let (ranks, files) = crate::board::diagram::seen_from(side);
    let mut table = format!(
        "<table cellspacing=\"0\" cellpadding=\"0\" border=\"0\" style=\"margin:1em 0;{LABELS}\">\n"
    );
    for (row, rank) in ranks.iter().enumerate() {
        table.push_str(&format!(
            "<tr><td width=\"16\" height=\"{square}\" align=\"center\">{}</td>",
            rank.char()
        ));
        if row == 0 {
            table.push_str(&format!("<td rowspan=\"8\">{image}</td>"));
        }
        table.push_str("</tr>\n");
    }
    table.push_str(&format!("<tr><td></td><td><table cellspacing=\"0\" cellpadding=\"0\" border=\"0\" style=\"{LABELS}\"><tr>"));
    for file in &files {
        table.push_str(&format!(
            "<td width=\"{square}\" align=\"center\">{}</td>",
            file.char()
        ));
    }
    table.push_str("</tr></table></td></tr>\n</table>\n");
    table
}

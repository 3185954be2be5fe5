//! A game page's board: the position after the last move drawn
//! in the page itself, the moves to step through (first, back, forward,
//! last; the arrow keys, Home and End; a click on a move), by a script in
//! the page that draws each position from its FEN. No framework, nothing
//! fetched: the page works opened from disk, and without scripts it shows
//! the final position.

use std::fmt::Write;

use shakmaty::{File, Rank, Square};

use super::escape;
use crate::board::diagram::{Step, steps};
use crate::game::ply_label;
use crate::phrases::Phrases;
use crate::record::Record;

/// The script that steps through `#steps`; see the module's doc.
const SCRIPT: &str = r##"(function () {
  var steps = JSON.parse(document.getElementById("steps").textContent);
  var glyphs = {K: "\u2654", Q: "\u2655", R: "\u2656", B: "\u2657", N: "\u2658", P: "\u2659",
                k: "\u265a", q: "\u265b", r: "\u265c", b: "\u265d", n: "\u265e", p: "\u265f"};
  var squares = {};
  document.querySelectorAll("#board [data-square]").forEach(function (square) {
    squares[square.getAttribute("data-square")] = square;
  });
  var moves = document.querySelectorAll("#moves a[data-ply]");
  var label = document.getElementById("ply");
  var current = steps.length - 1;
  function put(file, row, piece) {
    var square = squares["abcdefgh".charAt(file) + (8 - row)];
    square.setAttribute("data-piece", piece);
    square.textContent = piece ? glyphs[piece] : "";
  }
  function show(ply) {
    current = Math.max(0, Math.min(steps.length - 1, ply));
    var step = steps[current];
    step.fen.split(" ")[0].split("/").forEach(function (rank, row) {
      var file = 0;
      for (var i = 0; i < rank.length; i++) {
        var c = rank.charAt(i);
        if (c >= "1" && c <= "8") {
          for (var n = 0; n < Number(c); n++) put(file++, row, "");
        } else {
          put(file++, row, c);
        }
      }
    });
    Object.keys(squares).forEach(function (name) {
      squares[name].classList.toggle("last", step.marked.indexOf(name) >= 0);
    });
    moves.forEach(function (move) {
      move.classList.toggle("current", Number(move.getAttribute("data-ply")) === current);
    });
    label.textContent = current === 0 ? label.getAttribute("data-start")
                                      : moves[current - 1].getAttribute("data-label");
  }
  document.getElementById("first").onclick = function () { show(0); };
  document.getElementById("back").onclick = function () { show(current - 1); };
  document.getElementById("forward").onclick = function () { show(current + 1); };
  document.getElementById("last").onclick = function () { show(steps.length - 1); };
  moves.forEach(function (move) {
    move.onclick = function (event) {
      event.preventDefault();
      show(Number(move.getAttribute("data-ply")));
    };
  });
  document.addEventListener("keydown", function (event) {
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: steps.length - 1}[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to);
  });
  show(current);
})();
"##;

/// The board's style, added to the site's sheet.
pub(super) const STYLE: &str = ".game{display:flex;flex-wrap:wrap;gap:2rem;align-items:flex-start}
.game>.play{flex:0 1 23rem}.game>.clock{flex:1 1 24rem;min-width:0;overflow-x:auto}.game>.clock h2{margin-top:0}
.board{display:grid;grid-template-columns:repeat(8,2.7rem);grid-template-rows:repeat(8,2.7rem);border:2px solid #555;width:max-content}
.sq{display:flex;align-items:center;justify-content:center;font-size:2.1rem;line-height:1;user-select:none;color:#111}
.sq.light{background:#f0d9b5}.sq.dark{background:#b58863}
.sq.last{box-shadow:inset 0 0 0 3px #e5a50a}
.controls{display:flex;gap:.4rem;align-items:center;margin:.6rem 0}
.controls button{font-size:1.1rem;min-width:2.6rem;padding:.2rem .4rem}
#ply{min-width:6rem;text-align:center;font-family:ui-monospace,Menlo,Consolas,monospace}
#moves a{color:inherit;text-decoration:none;padding:0 .15rem}
#moves a.current{background:#ffe082;border-radius:3px}
";

/// The glyph of a piece letter of a FEN.
fn glyph(piece: char) -> &'static str {
    match piece {
        'K' => "\u{2654}",
        'Q' => "\u{2655}",
        'R' => "\u{2656}",
        'B' => "\u{2657}",
        'N' => "\u{2658}",
        'P' => "\u{2659}",
        'k' => "\u{265a}",
        'q' => "\u{265b}",
        'r' => "\u{265c}",
        'b' => "\u{265d}",
        'n' => "\u{265e}",
        'p' => "\u{265f}",
        _ => "",
    }
}

/// The squares of a FEN's placement, rank 8 first, each with its piece
/// letter or none.
fn placement(fen: &str) -> Vec<(Square, Option<char>)> {
    let mut squares = Vec::new();
    let field = fen.split(' ').next().unwrap_or_default();
    for (row, rank) in field.split('/').enumerate() {
        let mut file = 0u32;
        for c in rank.chars() {
            let run = c.to_digit(10).unwrap_or(0);
            let pieces = if run > 0 {
                vec![None; run as usize]
            } else {
                vec![Some(c)]
            };
            for piece in pieces {
                if let (Some(file), Some(rank)) = (
                    File::try_from(file).ok(),
                    Rank::try_from(7 - row as u32).ok(),
                ) {
                    squares.push((Square::from_coords(file, rank), piece));
                }
                file += 1;
            }
        }
    }
    squares
}

/// The board, its controls and the moves to step through, with the
/// script; `moves_heading` the moves' heading.
pub(super) fn board_and_moves(out: &mut String, phrases: &Phrases, state: &Record, slug: &str) {
    let played: Vec<shakmaty::Move> = state.board.moves().iter().map(|p| p.mv).collect();
    let steps: Vec<Step> = steps(&played);
    let last = steps.last().cloned().unwrap_or(Step {
        fen: String::new(),
        marked: Vec::new(),
    });
    out.push_str("<div class=\"play\">\n<div id=\"board\" class=\"board\">");
    for (square, piece) in placement(&last.fen) {
        let shade = if (u32::from(square.file()) + u32::from(square.rank())) % 2 == 1 {
            "light"
        } else {
            "dark"
        };
        let marked = if last.marked.contains(&square.to_string()) {
            " last"
        } else {
            ""
        };
        let _ = write!(
            out,
            "<div class=\"sq {shade}{marked}\" data-square=\"{square}\" data-piece=\"{}\">{}</div>",
            piece.map(String::from).unwrap_or_default(),
            piece.map(glyph).unwrap_or_default()
        );
    }
    out.push_str("</div>\n");
    let start = phrases.get("report.board_start");
    let _ = writeln!(
        out,
        "<p class=\"controls\"><button id=\"first\" title=\"{}\">«</button><button id=\"back\" title=\"{}\">◀</button>\
         <span id=\"ply\" data-start=\"{}\"></span>\
         <button id=\"forward\" title=\"{}\">▶</button><button id=\"last\" title=\"{}\">»</button></p>",
        escape(phrases.get("report.board_first")),
        escape(phrases.get("report.board_back")),
        escape(start),
        escape(phrases.get("report.board_forward")),
        escape(phrases.get("report.board_last")),
    );
    // The moves, numbered, each a link to its position.
    let mut moves = String::new();
    for (ply, san) in state.board.sans_with_signs().iter().enumerate() {
        if ply % 2 == 0 {
            let _ = write!(moves, "{}. ", ply / 2 + 1);
        }
        let san = escape(&phrases.san(san));
        let label = format!("{} {san}", ply_label(ply));
        let _ = write!(
            moves,
            "<a href=\"#\" data-ply=\"{}\" data-label=\"{label}\">{san}</a> ",
            ply + 1
        );
    }
    let _ = write!(
        out,
        "<h2>{}</h2>\n<p class=\"moves\" id=\"moves\">{}</p>\n<p><a href=\"game-{slug}.pgn\">PGN</a></p>\n",
        phrases.get("report.moves_heading"),
        moves.trim_end()
    );
    let data = serde_json::to_string(&steps)
        .unwrap_or_else(|_| "[]".into())
        .replace("</", "<\\/");
    let _ = write!(
        out,
        "<script type=\"application/json\" id=\"steps\">{data}</script>\n<script>\n{SCRIPT}</script>\n</div>\n"
    );
}

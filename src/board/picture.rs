//! The position as a picture: a PNG of the board from the
//! reader's side, the last move's squares tinted, for the HTML part of a
//! letter that asks for a move (Gmail and Outlook show no SVG).
//!
//! Drawn by tiny-skia. The pieces are the project's own set, plain
//! silhouettes drawn here from a few lines and curves each (so under the
//! project's licence, GPL-3.0-or-later; the README says so): a pawn, a
//! rook with battlements, a knight's head, a bishop's mitre, a queen's
//! crown, a king's cross.

use shakmaty::{Chess, Color, Move, Position, Role, Square};

use crate::error::{Error, Result};
use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

/// The side of one square, in pixels: the board is eight of them.
pub const SQUARE: u32 = 40;

const LIGHT: (u8, u8, u8) = (0xf0, 0xd9, 0xb5);
const DARK: (u8, u8, u8) = (0xb5, 0x88, 0x63);
const LIGHT_MARKED: (u8, u8, u8) = (0xcd, 0xd2, 0x6a);
const DARK_MARKED: (u8, u8, u8) = (0xaa, 0xa2, 0x3a);
const WHITE_FILL: (u8, u8, u8) = (0xff, 0xff, 0xff);
const BLACK_FILL: (u8, u8, u8) = (0x22, 0x22, 0x22);
const INK: (u8, u8, u8) = (0x11, 0x11, 0x11);

fn paint(rgb: (u8, u8, u8)) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color_rgba8(rgb.0, rgb.1, rgb.2, 0xff);
    paint.anti_alias = true;
    paint
}

/// The background of a square: light or dark, tinted when marked.
pub fn square_colour(square: Square, marked: bool) -> (u8, u8, u8) {
    let light = (u32::from(square.file()) + u32::from(square.rank())) % 2 == 1;
    match (light, marked) {
        (true, false) => LIGHT,
        (false, false) => DARK,
        (true, true) => LIGHT_MARKED,
        (false, true) => DARK_MARKED,
    }
}

/// A point in a square of side 1, y down.
type Point = (f32, f32);

/// A closed shape: its corners in order.
type Outline = Vec<Point>;

/// A dot drawn over a piece's fill: its centre and radius.
type Dot = (Point, f32);

/// A piece's outline as closed shapes, and its details (dots drawn over
/// the fill: the bishop's slit, the knight's eye).
fn shapes(role: Role) -> (Vec<Outline>, Vec<Dot>) {
    match role {
        Role::Pawn => pawn(),
        Role::Rook => rook(),
        Role::Knight => knight(),
        Role::Bishop => bishop(),
        Role::Queen => queen(),
        Role::King => king(),
    }
}

/// The foot every piece stands on.
fn base() -> Outline {
    vec![(0.24, 0.88), (0.24, 0.8), (0.76, 0.8), (0.76, 0.88)]
}

/// A circle of centre (`cx`, `cy`) and radius `r`, as 24 points.
fn circle(cx: f32, cy: f32, r: f32) -> Outline {
    (0..24)
        .map(|i| {
            let a = i as f32 * std::f32::consts::TAU / 24.0;
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect()
}

fn pawn() -> (Vec<Outline>, Vec<Dot>) {
    let base = base();
    (
        vec![
            base,
            vec![(0.36, 0.8), (0.43, 0.5), (0.57, 0.5), (0.64, 0.8)],
            circle(0.5, 0.36, 0.13),
        ],
        Vec::new(),
    )
}

fn rook() -> (Vec<Outline>, Vec<Dot>) {
    let base = base();
    (
        vec![
            base,
            vec![(0.34, 0.8), (0.34, 0.4), (0.66, 0.4), (0.66, 0.8)],
            vec![
                (0.27, 0.42),
                (0.27, 0.18),
                (0.37, 0.18),
                (0.37, 0.26),
                (0.45, 0.26),
                (0.45, 0.18),
                (0.55, 0.18),
                (0.55, 0.26),
                (0.63, 0.26),
                (0.63, 0.18),
                (0.73, 0.18),
                (0.73, 0.42),
            ],
        ],
        Vec::new(),
    )
}

fn knight() -> (Vec<Outline>, Vec<Dot>) {
    let base = base();
    (
        vec![
            base,
            vec![
                (0.3, 0.8),
                (0.33, 0.6),
                (0.48, 0.46),
                (0.3, 0.5),
                (0.22, 0.42),
                (0.4, 0.24),
                (0.46, 0.12),
                (0.52, 0.2),
                (0.64, 0.24),
                (0.74, 0.42),
                (0.74, 0.8),
            ],
        ],
        vec![((0.48, 0.3), 0.035)],
    )
}

fn bishop() -> (Vec<Outline>, Vec<Dot>) {
    let base = base();
    // A mitre: a pointed oval over a short neck.
    let mitre: Vec<(f32, f32)> = (0..=20)
        .map(|i| {
            let t = i as f32 / 20.0 * std::f32::consts::PI;
            let x = 0.5 - 0.15 * t.cos();
            let y = 0.7 - 0.46 * t.sin() * (0.6 + 0.4 * t.sin());
            (x, y)
        })
        .collect();
    (
        vec![
            base,
            vec![(0.38, 0.8), (0.42, 0.66), (0.58, 0.66), (0.62, 0.8)],
            mitre,
            circle(0.5, 0.2, 0.05),
        ],
        vec![((0.5, 0.44), 0.03)],
    )
}

fn queen() -> (Vec<Outline>, Vec<Dot>) {
    let base = base();
    (
        vec![
            base,
            vec![
                (0.3, 0.8),
                (0.2, 0.32),
                (0.36, 0.52),
                (0.41, 0.24),
                (0.5, 0.5),
                (0.59, 0.24),
                (0.64, 0.52),
                (0.8, 0.32),
                (0.7, 0.8),
            ],
            circle(0.2, 0.29, 0.05),
            circle(0.41, 0.21, 0.05),
            circle(0.59, 0.21, 0.05),
            circle(0.8, 0.29, 0.05),
        ],
        Vec::new(),
    )
}

fn king() -> (Vec<Outline>, Vec<Dot>) {
    let base = base();
    (
        vec![
            base,
            vec![
                (0.31, 0.8),
                (0.24, 0.5),
                (0.38, 0.42),
                (0.5, 0.5),
                (0.62, 0.42),
                (0.76, 0.5),
                (0.69, 0.8),
            ],
            vec![(0.46, 0.46), (0.46, 0.1), (0.54, 0.1), (0.54, 0.46)],
            vec![(0.38, 0.2), (0.38, 0.27), (0.62, 0.27), (0.62, 0.2)],
        ],
        Vec::new(),
    )
}

/// Where a square is drawn from `side`: its column and row, 0..8.
fn at(square: Square, side: Color) -> (u32, u32) {
    let (file, rank) = (u32::from(square.file()), u32::from(square.rank()));
    match side {
        Color::White => (file, 7 - rank),
        Color::Black => (7 - file, rank),
    }
}

fn draw_piece(pixmap: &mut Pixmap, role: Role, color: Color, x: f32, y: f32) {
    let size = SQUARE as f32;
    let (fill, detail) = match color {
        Color::White => (WHITE_FILL, INK),
        Color::Black => (BLACK_FILL, WHITE_FILL),
    };
    let transform = Transform::from_row(size, 0.0, 0.0, size, x, y);
    let stroke = Stroke {
        width: 0.045,
        ..Stroke::default()
    };
    let (outlines, dots) = shapes(role);
    for outline in outlines {
        let mut path = PathBuilder::new();
        let mut points = outline.into_iter();
        if let Some((x0, y0)) = points.next() {
            path.move_to(x0, y0);
        }
        for (px, py) in points {
            path.line_to(px, py);
        }
        path.close();
        if let Some(path) = path.finish() {
            pixmap.fill_path(&path, &paint(fill), FillRule::Winding, transform, None);
            pixmap.stroke_path(&path, &paint(INK), &stroke, transform, None);
        }
    }
    for ((cx, cy), r) in dots {
        if let Some(path) = PathBuilder::from_circle(cx, cy, r) {
            pixmap.fill_path(&path, &paint(detail), FillRule::Winding, transform, None);
        }
    }
}

/// The position from `side` as a PNG, eight squares of [`SQUARE`] pixels
/// a side, the squares of `last` tinted.
pub fn png(position: &Chess, side: Color, last: Option<&Move>) -> Result<Vec<u8>> {
    let size = SQUARE * 8;
    let mut pixmap =
        Pixmap::new(size, size).ok_or_else(|| Error::internal("no board picture of that size"))?;
    let marked = crate::board::diagram::marked_squares(last);
    for square in Square::ALL {
        let (column, row) = at(square, side);
        let rect = Rect::from_xywh(
            (column * SQUARE) as f32,
            (row * SQUARE) as f32,
            SQUARE as f32,
            SQUARE as f32,
        )
        .ok_or_else(|| Error::internal("a square outside the board"))?;
        let colour = square_colour(square, marked.contains(&Some(square)));
        let mut fill = paint(colour);
        fill.anti_alias = false;
        pixmap.fill_rect(rect, &fill, Transform::identity(), None);
    }
    for (square, piece) in position.board().clone() {
        let (column, row) = at(square, side);
        draw_piece(
            &mut pixmap,
            piece.role,
            piece.color,
            (column * SQUARE) as f32,
            (row * SQUARE) as f32,
        );
    }
    indexed_png(&pixmap)
}

/// The picture as an 8-bit indexed PNG (its colours, opaque, are far
/// fewer than 256); RGB where a picture had more.
fn indexed_png(pixmap: &Pixmap) -> Result<Vec<u8>> {
    let mut palette: Vec<[u8; 3]> = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut indices = Vec::with_capacity(pixmap.pixels().len());
    // Most pixels are the one before them again (a square is one colour):
    // the map is asked only where the colour changes.
    let mut previous = None;
    for pixel in pixmap.pixels() {
        let colour = [pixel.red(), pixel.green(), pixel.blue()];
        let at = match previous {
            Some((same, at)) if same == colour => at,
            _ => *index.entry(colour).or_insert_with(|| {
                palette.push(colour);
                palette.len() - 1
            }),
        };
        previous = Some((colour, at));
        indices.push(u8::try_from(at).unwrap_or(0));
    }
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_depth(png::BitDepth::Eight);
    let data = if palette.len() <= 256 {
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_palette(palette.concat());
        indices
    } else {
        encoder.set_color(png::ColorType::Rgb);
        let rgb =
            |pixel: &tiny_skia::PremultipliedColorU8| [pixel.red(), pixel.green(), pixel.blue()];
        pixmap.pixels().iter().flat_map(rgb).collect()
    };
    let failed = |e: png::EncodingError| Error::internal(format!("the board's PNG: {e}"));
    let mut writer = encoder.write_header().map_err(failed)?;
    writer.write_image_data(&data).map_err(failed)?;
    writer.finish().map_err(failed)?;
    Ok(out)
}

/// A pixel of `square` on a board drawn from `side` that every piece's
/// fill covers (low in the middle, above its base), and a corner pixel
/// (the square's own colour, no piece reaches it).
pub fn pixels_of(square: Square, side: Color) -> ((u32, u32), (u32, u32)) {
    let (column, row) = at(square, side);
    let (x, y) = (column * SQUARE, row * SQUARE);
    ((x + SQUARE / 2, y + SQUARE * 74 / 100), (x + 1, y + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::diagram::after;

    fn pixel(pixmap: &Pixmap, (x, y): (u32, u32)) -> (u8, u8, u8) {
        let p = pixmap.pixel(x, y).unwrap();
        (p.red(), p.green(), p.blue())
    }

    /// The board after 1. e4 from either side, read back from the PNG: each
    /// square's corner is its colour (tinted on e2 and e4), its centre a
    /// piece's fill where a piece stands and the square's colour where
    /// none does.
    #[test]
    fn a_board_read_back_from_its_png() {
        let (position, last) = after(&["e4"]);
        for side in [Color::White, Color::Black] {
            let bytes = png(&position, side, last.as_ref()).unwrap();
            assert!(
                (8_000..30_000).contains(&bytes.len()),
                "{} bytes",
                bytes.len()
            );
            let pixmap = Pixmap::decode_png(&bytes).unwrap();
            assert_eq!((pixmap.width(), pixmap.height()), (320, 320));
            for square in Square::ALL {
                let tinted = [Square::E2, Square::E4].contains(&square);
                let (centre, corner) = pixels_of(square, side);
                assert_eq!(
                    pixel(&pixmap, corner),
                    square_colour(square, tinted),
                    "{square}"
                );
                let expected = match position.board().piece_at(square) {
                    Some(piece) if piece.color == Color::White => WHITE_FILL,
                    Some(_) => BLACK_FILL,
                    None => square_colour(square, tinted),
                };
                assert_eq!(pixel(&pixmap, centre), expected, "{square} from {side:?}");
            }
        }
        // Ranks and files as the board's own: a1 is dark, h1 light.
        assert_eq!(square_colour(Square::A1, false), DARK);
        assert_eq!(square_colour(Square::H1, false), LIGHT);
    }
}
#[cfg(test)]
mod reference {
    use shakmaty::Color;

    /// A known position (the Italian game after 4... Qe7, White castled)
    /// from each side matches the picture kept in `tests/boards/` pixel
    /// for pixel. `SHTEMPEL_BLESS=1` writes them anew after a change of
    /// the drawing meant to change them.
    #[test]
    fn a_known_position_matches_its_kept_picture() {
        let (position, last) =
            crate::board::diagram::after(&["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5", "O-O", "Qe7"]);
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/boards");
        for (side, name) in [
            (Color::White, "italian-white.png"),
            (Color::Black, "italian-black.png"),
        ] {
            let bytes = super::png(&position, side, last.as_ref()).unwrap();
            let kept = dir.join(name);
            if std::env::var_os("SHTEMPEL_BLESS").is_some() {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&kept, &bytes).unwrap();
            }
            let ours = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
            let reference = tiny_skia::Pixmap::decode_png(&std::fs::read(&kept).unwrap()).unwrap();
            assert_eq!(ours.width(), reference.width());
            let differ = ours
                .pixels()
                .iter()
                .zip(reference.pixels())
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(differ, 0, "{name}: {differ} pixels differ");
        }
    }
}

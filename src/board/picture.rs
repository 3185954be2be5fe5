//! The position as a picture: a PNG of the board from the
//! reader's side, the last move's squares tinted, for the HTML part of a
//! letter that asks for a move (Gmail and Outlook show no SVG).
//!
//! Drawn by tiny-skia. The pieces are the project's own set, drawn here
//! from a few lines and curves each (so under the project's licence,
//! GPL-3.0-or-later; the README says so), in the Staunton forms the sets
//! of chess servers follow, to be told apart at 40 pixels: a pawn's round
//! head over a collar, a rook's crenellations, a horse's head with its
//! ear, eye and mane, a bishop's mitre cut by a slit, a queen's crown of
//! five points, a king's crown with a cross.

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

/// One step of a piece's outline, in a square of side 1.
#[derive(Clone, Copy)]
enum Step {
    To(Point),
    Line(Point),
    /// A cubic curve: two control points, then where it ends.
    Curve(Point, Point, Point),
    Close,
}

use Step::{Close, Curve, Line, To};

/// What a piece is drawn from: shapes filled in its colour and outlined
/// in ink, in order (a later one over an earlier), then its marks (lines
/// in the contrasting colour: the bishop's slit, the knight's mane, the
/// bands of a collar).
struct Drawing {
    shapes: Vec<Vec<Step>>,
    marks: Vec<Vec<Step>>,
}

/// A circle of centre (`cx`, `cy`) and radius `r`, as four curves.
fn circle(cx: f32, cy: f32, r: f32) -> Vec<Step> {
    let k = 0.552_284_8 * r;
    vec![
        To((cx, cy - r)),
        Curve((cx + k, cy - r), (cx + r, cy - k), (cx + r, cy)),
        Curve((cx + r, cy + k), (cx + k, cy + r), (cx, cy + r)),
        Curve((cx - k, cy + r), (cx - r, cy + k), (cx - r, cy)),
        Curve((cx - r, cy - k), (cx - k, cy - r), (cx, cy - r)),
        Close,
    ]
}

/// The foot every piece stands on: a low slab, rounded at its ends.
fn base() -> Vec<Step> {
    vec![
        To((0.25, 0.9)),
        Curve((0.2, 0.9), (0.2, 0.8), (0.27, 0.8)),
        Line((0.73, 0.8)),
        Curve((0.8, 0.8), (0.8, 0.9), (0.75, 0.9)),
        Close,
    ]
}

/// A collar: a flat band across a piece at height `y`, `w` wide.
fn collar(y: f32, w: f32) -> Vec<Step> {
    let (x0, x1) = (0.5 - w / 2.0, 0.5 + w / 2.0);
    vec![
        To((x0 + 0.02, y - 0.035)),
        Line((x1 - 0.02, y - 0.035)),
        Curve(
            (x1 + 0.01, y - 0.035),
            (x1 + 0.01, y + 0.035),
            (x1 - 0.02, y + 0.035),
        ),
        Line((x0 + 0.02, y + 0.035)),
        Curve(
            (x0 - 0.01, y + 0.035),
            (x0 - 0.01, y - 0.035),
            (x0 + 0.02, y - 0.035),
        ),
        Close,
    ]
}

/// The piece as the Staunton pattern draws it, the form chess servers'
/// sets follow (a round-headed pawn, a crenellated tower, a horse's
/// head, a mitre cut by a slit, a crown of points, a crown with a cross).
fn drawing(role: Role) -> Drawing {
    match role {
        Role::Pawn => pawn(),
        Role::Rook => rook(),
        Role::Knight => knight(),
        Role::Bishop => bishop(),
        Role::Queen => queen(),
        Role::King => king(),
    }
}

fn pawn() -> Drawing {
    let body = vec![
        To((0.33, 0.8)),
        Curve((0.35, 0.66), (0.42, 0.58), (0.44, 0.48)),
        Line((0.56, 0.48)),
        Curve((0.58, 0.58), (0.65, 0.66), (0.67, 0.8)),
        Close,
    ];
    Drawing {
        shapes: vec![base(), body, collar(0.48, 0.26), circle(0.5, 0.32, 0.115)],
        marks: Vec::new(),
    }
}

fn rook() -> Drawing {
    let body = vec![
        To((0.31, 0.8)),
        Line((0.35, 0.38)),
        Line((0.65, 0.38)),
        Line((0.69, 0.8)),
        Close,
    ];
    // The top: a platform with three merlons and two gaps between them.
    let top = vec![
        To((0.27, 0.4)),
        Line((0.27, 0.17)),
        Line((0.37, 0.17)),
        Line((0.37, 0.24)),
        Line((0.45, 0.24)),
        Line((0.45, 0.17)),
        Line((0.55, 0.17)),
        Line((0.55, 0.24)),
        Line((0.63, 0.24)),
        Line((0.63, 0.17)),
        Line((0.73, 0.17)),
        Line((0.73, 0.4)),
        Close,
    ];
    Drawing {
        shapes: vec![base(), body, collar(0.66, 0.42), top],
        marks: vec![vec![To((0.3, 0.33)), Line((0.7, 0.33))]],
    }
}

fn knight() -> Drawing {
    // A horse's head looking left: the chest, the back of the neck up to
    // the mane, an ear, the forehead down to the muzzle, the jaw and the
    // throat.
    let head = vec![
        To((0.34, 0.8)),
        Curve((0.34, 0.68), (0.44, 0.62), (0.5, 0.52)),
        Curve((0.44, 0.54), (0.38, 0.58), (0.33, 0.6)),
        Curve((0.29, 0.61), (0.25, 0.6), (0.23, 0.56)),
        Curve((0.2, 0.52), (0.21, 0.48), (0.25, 0.45)),
        Curve((0.32, 0.38), (0.36, 0.3), (0.41, 0.24)),
        Line((0.43, 0.12)),
        Line((0.5, 0.2)),
        Curve((0.64, 0.2), (0.78, 0.32), (0.78, 0.52)),
        Curve((0.78, 0.64), (0.74, 0.72), (0.72, 0.8)),
        Close,
    ];
    let eye = circle(0.42, 0.33, 0.03);
    Drawing {
        shapes: vec![base(), head],
        marks: vec![
            // The mane along the neck, and the eye and nostril.
            vec![
                To((0.53, 0.23)),
                Curve((0.66, 0.28), (0.72, 0.42), (0.7, 0.72)),
            ],
            eye,
            circle(0.26, 0.51, 0.012),
        ],
    }
}

fn bishop() -> Drawing {
    // The mitre: a pointed oval, widest below its middle.
    let mitre = vec![
        To((0.5, 0.18)),
        Curve((0.6, 0.28), (0.7, 0.4), (0.66, 0.52)),
        Curve((0.64, 0.6), (0.58, 0.64), (0.57, 0.66)),
        Line((0.43, 0.66)),
        Curve((0.42, 0.64), (0.36, 0.6), (0.34, 0.52)),
        Curve((0.3, 0.4), (0.4, 0.28), (0.5, 0.18)),
        Close,
    ];
    let foot = vec![
        To((0.34, 0.8)),
        Curve((0.38, 0.74), (0.42, 0.72), (0.43, 0.68)),
        Line((0.57, 0.68)),
        Curve((0.58, 0.72), (0.62, 0.74), (0.66, 0.8)),
        Close,
    ];
    Drawing {
        shapes: vec![
            base(),
            foot,
            collar(0.66, 0.3),
            mitre,
            circle(0.5, 0.14, 0.045),
        ],
        // The slit: a cut down across the mitre.
        marks: vec![vec![To((0.57, 0.3)), Line((0.43, 0.47))]],
    }
}

fn queen() -> Drawing {
    // A crown of five points over a flared body.
    let crown = vec![
        To((0.31, 0.8)),
        Curve((0.3, 0.66), (0.26, 0.5), (0.17, 0.3)),
        Line((0.33, 0.48)),
        Line((0.34, 0.24)),
        Line((0.44, 0.46)),
        Line((0.5, 0.2)),
        Line((0.56, 0.46)),
        Line((0.66, 0.24)),
        Line((0.67, 0.48)),
        Line((0.83, 0.3)),
        Curve((0.74, 0.5), (0.7, 0.66), (0.69, 0.8)),
        Close,
    ];
    Drawing {
        shapes: vec![
            base(),
            crown,
            collar(0.66, 0.4),
            circle(0.17, 0.28, 0.045),
            circle(0.34, 0.21, 0.045),
            circle(0.5, 0.17, 0.045),
            circle(0.66, 0.21, 0.045),
            circle(0.83, 0.28, 0.045),
        ],
        marks: Vec::new(),
    }
}

fn king() -> Drawing {
    // Two lobes of a crown over a flared body, a cross on top.
    let body = vec![
        To((0.31, 0.8)),
        Curve((0.3, 0.68), (0.28, 0.62), (0.26, 0.58)),
        Curve((0.14, 0.46), (0.22, 0.3), (0.36, 0.34)),
        Curve((0.44, 0.36), (0.48, 0.42), (0.5, 0.48)),
        Curve((0.52, 0.42), (0.56, 0.36), (0.64, 0.34)),
        Curve((0.78, 0.3), (0.86, 0.46), (0.74, 0.58)),
        Curve((0.72, 0.62), (0.7, 0.68), (0.69, 0.8)),
        Close,
    ];
    let cross = vec![
        To((0.47, 0.4)),
        Line((0.47, 0.2)),
        Line((0.41, 0.2)),
        Line((0.41, 0.14)),
        Line((0.47, 0.14)),
        Line((0.47, 0.07)),
        Line((0.53, 0.07)),
        Line((0.53, 0.14)),
        Line((0.59, 0.14)),
        Line((0.59, 0.2)),
        Line((0.53, 0.2)),
        Line((0.53, 0.4)),
        Close,
    ];
    Drawing {
        shapes: vec![base(), cross, body, collar(0.66, 0.4)],
        marks: vec![vec![
            To((0.29, 0.6)),
            Curve((0.42, 0.56), (0.58, 0.56), (0.71, 0.6)),
        ]],
    }
}

/// The path of a list of steps.
fn path_of(steps: &[Step]) -> Option<tiny_skia::Path> {
    let mut path = PathBuilder::new();
    for step in steps {
        match *step {
            To((x, y)) => path.move_to(x, y),
            Line((x, y)) => path.line_to(x, y),
            Curve((x1, y1), (x2, y2), (x, y)) => path.cubic_to(x1, y1, x2, y2, x, y),
            Close => path.close(),
        }
    }
    path.finish()
}

/// Where a square is drawn from `side`: its column and row, 0..8.
fn at(square: Square, side: Color) -> (u32, u32) {
    let (file, rank) = (u32::from(square.file()), u32::from(square.rank()));
    match side {
        Color::White => (file, 7 - rank),
        Color::Black => (7 - file, rank),
    }
}

/// A piece drawn on a square of its own, transparent around it.
fn sprite(role: Role, color: Color) -> Option<Pixmap> {
    let mut pixmap = Pixmap::new(SQUARE, SQUARE)?;
    let size = SQUARE as f32;
    let (fill, detail) = match color {
        Color::White => (WHITE_FILL, INK),
        Color::Black => (BLACK_FILL, WHITE_FILL),
    };
    let transform = Transform::from_scale(size, size);
    let outline = Stroke {
        width: 0.04,
        line_join: tiny_skia::LineJoin::Round,
        ..Stroke::default()
    };
    let mark = Stroke {
        width: 0.035,
        line_cap: tiny_skia::LineCap::Round,
        ..Stroke::default()
    };
    let drawing = drawing(role);
    for shape in &drawing.shapes {
        if let Some(path) = path_of(shape) {
            pixmap.fill_path(&path, &paint(fill), FillRule::Winding, transform, None);
            pixmap.stroke_path(&path, &paint(INK), &outline, transform, None);
        }
    }
    for steps in &drawing.marks {
        if let Some(path) = path_of(steps) {
            pixmap.stroke_path(&path, &paint(detail), &mark, transform, None);
        }
    }
    Some(pixmap)
}

/// Each piece drawn once a process (the curves are most of a picture's
/// time), then laid on its squares.
fn sprites() -> &'static [Option<Pixmap>] {
    static SPRITES: std::sync::OnceLock<Vec<Option<Pixmap>>> = std::sync::OnceLock::new();
    SPRITES.get_or_init(|| {
        [Color::White, Color::Black]
            .into_iter()
            .flat_map(|color| Role::ALL.into_iter().map(move |role| sprite(role, color)))
            .collect()
    })
}

fn draw_piece(pixmap: &mut Pixmap, role: Role, color: Color, x: u32, y: u32) {
    let at = usize::from(color == Color::Black) * Role::ALL.len()
        + Role::ALL.iter().position(|r| *r == role).unwrap_or(0);
    if let Some(Some(sprite)) = sprites().get(at) {
        let (x, y) = (i32::try_from(x).unwrap_or(0), i32::try_from(y).unwrap_or(0));
        pixmap.draw_pixmap(
            x,
            y,
            sprite.as_ref(),
            &tiny_skia::PixmapPaint::default(),
            Transform::identity(),
            None,
        );
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
            column * SQUARE,
            row * SQUARE,
        );
    }
    indexed_png(&pixmap)
}

/// The colours of the board and its pieces, kept exact in the PNG.
const EXACT: [(u8, u8, u8); 7] = [
    LIGHT,
    DARK,
    LIGHT_MARKED,
    DARK_MARKED,
    WHITE_FILL,
    BLACK_FILL,
    INK,
];

/// A colour of the picture as the PNG keeps it: the board's and the
/// pieces' own exact, an edge's blend rounded to a multiple of `step`.
fn kept_colour(colour: [u8; 3], step: u16) -> [u8; 3] {
    if EXACT.contains(&(colour[0], colour[1], colour[2])) {
        return colour;
    }
    colour.map(|c| {
        let rounded = (u16::from(c) + step / 2) / step * step;
        u8::try_from(rounded.min(255)).unwrap_or(255)
    })
}

/// The picture's palette and each pixel's place in it, its edges' blends
/// rounded by `step`; `None` where more than 256 colours remain.
fn palette_of(pixmap: &Pixmap, step: u16) -> Option<(Vec<[u8; 3]>, Vec<u8>)> {
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
            _ => *index.entry(kept_colour(colour, step)).or_insert_with(|| {
                palette.push(kept_colour(colour, step));
                palette.len() - 1
            }),
        };
        previous = Some((colour, at));
        indices.push(u8::try_from(at).ok()?);
    }
    Some((palette, indices))
}

/// The picture as an 8-bit indexed PNG: the anti-aliased edges of the
/// pieces' curves blend into a few hundred colours, which are rounded
/// (by the least step that leaves 256) while the squares' and the
/// pieces' own stay exact; RGB where even that leaves more.
fn indexed_png(pixmap: &Pixmap) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
    encoder.set_depth(png::BitDepth::Eight);
    // Exact, a board of pieces' curves has more than 256 colours: its
    // first try rounds by 2.
    let indexed = [2, 4, 8, 16]
        .into_iter()
        .find_map(|step| palette_of(pixmap, step));
    let data = match indexed {
        Some((palette, indices)) => {
            encoder.set_color(png::ColorType::Indexed);
            encoder.set_palette(palette.concat());
            indices
        }
        None => {
            encoder.set_color(png::ColorType::Rgb);
            let rgb = |pixel: &tiny_skia::PremultipliedColorU8| {
                [pixel.red(), pixel.green(), pixel.blue()]
            };
            pixmap.pixels().iter().flat_map(rgb).collect()
        }
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

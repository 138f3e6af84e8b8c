//! The Windmill's puzzle codes (windmill.thefifthmatt.com), as ttws reads
//! them: a base64 body holding a protobuf `GridProto.Storage`, then `_0`
//! (see `windmill-format.md`).
//!
//! The decoder follows the Windmill's own client: run-length entities are
//! repeated, absent lines and points become removed slots ([`Gap::Full`]),
//! broken lines become [`Gap::Break`], symbols without a stored colour take
//! the client's defaults, start and end points are made symmetric (its
//! `sanitize`), and each end's cap points to the first of left, right, up,
//! down that leaves the grid or enters an absent line (an end with no such
//! side is unusable in the Windmill and is dropped).
//!
//! [`to_string`] writes a puzzle as a code the Windmill reads back the same;
//! [`judged_differently`] tells when the Windmill's rules may judge it
//! otherwise.

mod write;

pub use write::{judged_differently, to_string, RULES_NOTE};

use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use base64::Engine;
use prost::Message;

use crate::error::{how_many, Error, Result};
use crate::model::{
    Color, Direction, Dot, Gap, Polyomino, Pos, Puzzle, SlotKind, Symbol, SymbolKind, Symmetry,
    MAX_SLOTS,
};

/// The protobuf messages of `grid.proto` (package `GridProto`), written by
/// hand for `prost`. Enums are kept as raw `i32` so unknown values reach the
/// decoder, which reports them.
#[doc(hidden)]
pub mod proto {
    /// The root message: the store grid's width and its run-length entities.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Storage {
        /// Store width, `2 * cells across + 1`.
        #[prost(int32, tag = "1")]
        pub width: i32,
        /// Run-length-encoded store grid, row by row.
        #[prost(message, repeated, tag = "2")]
        pub entity: Vec<Entity>,
        /// `SymmetryType`: 0/1 none, 2 horizontal, 3 vertical, 4 rotational.
        #[prost(int32, tag = "3")]
        pub symmetry: i32,
    }

    /// One store slot (or a run of them).
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Entity {
        /// `Type`: see [`super::entity_type`].
        #[prost(int32, tag = "1")]
        pub r#type: i32,
        /// `Color`: 0 unset, 1 black … 9 orange.
        #[prost(int32, tag = "2")]
        pub color: i32,
        /// Legacy end orientation; ignored as the current client ignores it.
        #[prost(message, optional, tag = "3")]
        pub orientation: Option<Orientation>,
        /// A polyomino's shape (TETRIS only).
        #[prost(message, optional, tag = "4")]
        pub shape: Option<Shape>,
        /// Run length: the entity stands for `max(count, 1)` slots.
        #[prost(int32, tag = "5")]
        pub count: i32,
        /// Triangle count (TRIANGLE only); 0 means 1.
        #[prost(int32, tag = "6")]
        pub triangle_count: i32,
    }

    /// A polyomino: a row-major boolean grid `width` columns wide.
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Shape {
        /// Columns of the bounding box.
        #[prost(int32, tag = "1")]
        pub width: i32,
        /// The squares, row by row (packed or not).
        #[prost(bool, repeated, tag = "2")]
        pub grid: Vec<bool>,
        /// May be rotated (never mirrored).
        #[prost(bool, tag = "3")]
        pub free: bool,
        /// Subtractive (blue) piece.
        #[prost(bool, tag = "4")]
        pub negative: bool,
    }

    /// The legacy stored direction of an end (zigzag varints, −1..1).
    #[derive(Clone, PartialEq, prost::Message)]
    pub struct Orientation {
        /// −1 left, 1 right.
        #[prost(sint32, tag = "1")]
        pub horizontal: i32,
        /// −1 up, 1 down.
        #[prost(sint32, tag = "2")]
        pub vertical: i32,
    }
}

/// The values of the Windmill's `Type` enum.
#[doc(hidden)]
pub mod entity_type {
    /// Unset: a plain slot.
    pub const UNKNOWN: i32 = 0;
    /// An absent point or line.
    pub const NONE: i32 = 1;
    /// A plain slot, written explicitly.
    pub const BASIC: i32 = 2;
    /// A start point.
    pub const START: i32 = 3;
    /// An end point.
    pub const END: i32 = 4;
    /// A broken line.
    pub const DISJOINT: i32 = 5;
    /// A dot on a point or line.
    pub const HEXAGON: i32 = 6;
    /// A coloured square.
    pub const SQUARE: i32 = 7;
    /// A star.
    pub const STAR: i32 = 8;
    /// A polyomino.
    pub const TETRIS: i32 = 9;
    /// An elimination mark.
    pub const ERROR: i32 = 10;
    /// Triangles.
    pub const TRIANGLE: i32 = 11;
}

use entity_type as t;

/// The most store slots a code may expand to.
const MAX_STORE: usize = MAX_SLOTS * MAX_SLOTS;

/// True when a text looks like one Windmill code or URL: a single word that
/// ends in `_0`, made of base64 characters (or a URL to the Windmill).
pub fn looks_like_code(text: &str) -> bool {
    let t = text.trim();
    if t.is_empty() || t.split_whitespace().nth(1).is_some() {
        return false;
    }
    if t.contains("windmill.thefifthmatt.com") {
        return true;
    }
    let body = t.rsplit('/').next().unwrap_or(t);
    body.len() > 2
        && body.ends_with("_0")
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'_' | b'=' | b'/'))
}

/// The protobuf bytes of a Windmill code or URL.
pub fn code_bytes(text: &str) -> Result<Vec<u8>> {
    let t = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    if t.is_empty() {
        return Err(Error::Parse("empty Windmill code".into()));
    }
    if t.split_whitespace().nth(1).is_some() {
        return Err(Error::Parse(
            "expected one Windmill code, found several words (a file of codes is read one line at a time)"
                .into(),
        ));
    }
    let code = t.rsplit('/').next().unwrap_or(t);
    let Some(body) = code.strip_suffix("_0") else {
        return Err(Error::Parse(format!(
            "a Windmill code must end in \"_0\" (the format version): \"{}\"{}",
            shorten(code),
            if code.len() < 16 {
                "; short links are server ids and cannot be decoded offline"
            } else {
                ""
            }
        )));
    };
    if body.is_empty() {
        return Err(Error::Parse(
            "the Windmill code has no body before \"_0\"".into(),
        ));
    }
    let std_body: String = body
        .chars()
        .map(|c| match c {
            '-' => '+',
            '_' => '/',
            c => c,
        })
        .collect();
    let engine = GeneralPurpose::new(
        &alphabet::STANDARD,
        GeneralPurposeConfig::new()
            .with_decode_padding_mode(DecodePaddingMode::Indifferent)
            .with_decode_allow_trailing_bits(true),
    );
    engine
        .decode(std_body.as_bytes())
        .map_err(|e| Error::Parse(format!("the Windmill code is not valid base64: {e}")))
}

fn shorten(s: &str) -> String {
    if s.chars().count() <= 40 {
        s.to_string()
    } else {
        let head: String = s.chars().take(37).collect();
        format!("{head}...")
    }
}

/// The Windmill code of a message's protobuf bytes: standard base64 with
/// `+` and `/` spelled `-` and `_`, its padding kept, then `_0`.
#[doc(hidden)]
pub fn code_of(bytes: &[u8]) -> String {
    let body: String = base64::engine::general_purpose::STANDARD
        .encode(bytes)
        .chars()
        .map(|c| match c {
            '+' => '-',
            '/' => '_',
            c => c,
        })
        .collect();
    body + "_0"
}

/// Decodes the protobuf message of a Windmill code or URL.
#[doc(hidden)]
pub fn decode_storage(text: &str) -> Result<proto::Storage> {
    let bytes = code_bytes(text)?;
    proto::Storage::decode(bytes.as_slice())
        .map_err(|e| Error::Parse(format!("the Windmill code's protobuf is broken: {e}")))
}

/// Reads a puzzle from a Windmill code or URL.
pub fn parse(text: &str) -> Result<Puzzle> {
    from_storage(&decode_storage(text)?)
}

fn color_of(c: i32, what: &str, p: Pos) -> Result<Option<Color>> {
    Ok(Some(match c {
        0 => return Ok(None),
        1 => Color::Black,
        2 => Color::White,
        3 => Color::Cyan,
        4 => Color::Magenta,
        5 => Color::Yellow,
        6 => Color::Red,
        7 => Color::Green,
        8 => Color::Blue,
        9 => Color::Orange,
        other => {
            return Err(Error::Invalid(format!(
                "the {what} at store column {}, row {} has the unknown colour {other}",
                p.x, p.y
            )))
        }
    }))
}

fn type_name(ty: i32) -> &'static str {
    match ty {
        t::UNKNOWN => "UNKNOWN",
        t::NONE => "NONE",
        t::BASIC => "BASIC",
        t::START => "START",
        t::END => "END",
        t::DISJOINT => "DISJOINT",
        t::HEXAGON => "HEXAGON",
        t::SQUARE => "SQUARE",
        t::STAR => "STAR",
        t::TETRIS => "TETRIS",
        t::ERROR => "ERROR",
        t::TRIANGLE => "TRIANGLE",
        _ => "unknown",
    }
}

fn shape_of(s: &proto::Shape, p: Pos) -> Result<Polyomino> {
    let at = format!("store column {}, row {}", p.x, p.y);
    let width = s.width;
    if width <= 0 || s.grid.is_empty() || !s.grid.len().is_multiple_of(width as usize) {
        return Err(Error::Invalid(format!(
            "the polyomino at {at} has an invalid shape: width {width}, {}",
            how_many(s.grid.len(), "square")
        )));
    }
    let width = width as usize;
    let height = s.grid.len() / width;
    if width > u8::MAX as usize || height > u8::MAX as usize {
        return Err(Error::Invalid(format!(
            "the polyomino at {at} is {width} x {height}, too large"
        )));
    }
    let cells = s
        .grid
        .iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| ((i % width) as u8, (i / width) as u8));
    Ok(Polyomino::new(cells, s.free))
}

/// Builds the puzzle a decoded Windmill message describes.
#[doc(hidden)]
pub fn from_storage(storage: &proto::Storage) -> Result<Puzzle> {
    if storage.width <= 0 {
        return Err(Error::Invalid(format!(
            "the Windmill code has store width {}: no puzzle",
            storage.width
        )));
    }
    if storage.entity.is_empty() {
        return Err(Error::Invalid(
            "the Windmill code has no entities: no puzzle".into(),
        ));
    }
    let store_w = storage.width as usize;
    if store_w > MAX_SLOTS {
        return Err(Error::Size(format!(
            "the Windmill store is {store_w} slots wide; at most {MAX_SLOTS} is supported"
        )));
    }
    // Run-length expansion: each entity stands for max(count, 1) slots.
    let mut store: Vec<&proto::Entity> = Vec::new();
    for (k, e) in storage.entity.iter().enumerate() {
        if e.count < 0 {
            return Err(Error::Invalid(format!(
                "entity {k} has the negative run length {}",
                e.count
            )));
        }
        let n = (e.count as usize).max(1);
        if store.len() + n > MAX_STORE {
            return Err(Error::Size(format!(
                "the Windmill code expands to more than {MAX_STORE} slots"
            )));
        }
        store.extend(std::iter::repeat_n(e, n));
    }
    if !store.len().is_multiple_of(store_w) {
        return Err(Error::Invalid(format!(
            "the entities fill {} slots, which is not a whole number of rows of {store_w}",
            store.len()
        )));
    }
    let store_h = store.len() / store_w;
    if store_w.is_multiple_of(2) || store_h.is_multiple_of(2) {
        return Err(Error::Invalid(format!(
            "the store grid is {store_w} x {store_h} slots; both must be odd (2 per cell, plus 1)"
        )));
    }
    let (w, h) = (store_w / 2, store_h / 2);
    let mut puzzle = Puzzle::new(w, h, false)?;
    // Its codes were authored against the Windmill's own rules.
    puzzle.rules = crate::model::RuleSet::Windmill;
    let (sw, sh) = (puzzle.width(), puzzle.height());
    let entity = |p: Pos| store[p.x + store_w * p.y];
    let ty = |p: Pos| entity(p).r#type;

    for b in 0..sh {
        for a in 0..sw {
            let p = Pos::new(a, b);
            let e = entity(p);
            let kind = p.kind();
            let misplaced = || {
                let where_ = match kind {
                    SlotKind::Face => "a cell",
                    SlotKind::Node => "a point",
                    SlotKind::Edge => "a line",
                };
                Error::Invalid(format!(
                    "a {} entity on {where_} (store column {a}, row {b})",
                    type_name(e.r#type)
                ))
            };
            let cell = puzzle.cell_mut(p);
            match (e.r#type, kind) {
                (t::UNKNOWN | t::BASIC, _) => {}
                (t::NONE, SlotKind::Face) => {}
                (t::NONE, _) => cell.gap = Gap::Full,
                (t::START, SlotKind::Node) => cell.start = true,
                (t::END, SlotKind::Node) => {} // placed below, once gaps are known
                (t::DISJOINT, SlotKind::Edge) => cell.gap = Gap::Break,
                (t::HEXAGON, SlotKind::Node | SlotKind::Edge) => cell.dot = Dot::Black,
                (t::SQUARE | t::STAR, SlotKind::Face) => {
                    let what = if e.r#type == t::SQUARE {
                        "square"
                    } else {
                        "star"
                    };
                    let color = color_of(e.color, what, p)?.ok_or_else(|| {
                        Error::Invalid(format!(
                            "the {what} at store column {a}, row {b} has no colour"
                        ))
                    })?;
                    let kind = if e.r#type == t::SQUARE {
                        SymbolKind::Square
                    } else {
                        SymbolKind::Star
                    };
                    cell.symbol = Some(Symbol::new(kind, color));
                }
                (t::TETRIS, SlotKind::Face) => {
                    let s = e.shape.as_ref().ok_or_else(|| {
                        Error::Invalid(format!(
                            "the polyomino at store column {a}, row {b} has no shape"
                        ))
                    })?;
                    let shape = shape_of(s, p)?;
                    let default = if s.negative {
                        Color::Blue
                    } else {
                        Color::Yellow
                    };
                    let color = color_of(e.color, "polyomino", p)?.unwrap_or(default);
                    let kind = if s.negative {
                        SymbolKind::Ylop(shape)
                    } else {
                        SymbolKind::Poly(shape)
                    };
                    cell.symbol = Some(Symbol::new(kind, color));
                }
                (t::ERROR, SlotKind::Face) => {
                    let color = color_of(e.color, "elimination mark", p)?.unwrap_or(Color::White);
                    cell.symbol = Some(Symbol::new(SymbolKind::Nega, color));
                }
                (t::TRIANGLE, SlotKind::Face) => {
                    let n = match e.triangle_count {
                        0 => 1,
                        n if n < 0 => {
                            return Err(Error::Invalid(format!(
                                "the triangle at store column {a}, row {b} has the count {n}"
                            )))
                        }
                        n => n as u32,
                    };
                    let color = color_of(e.color, "triangle", p)?.unwrap_or(Color::Orange);
                    cell.symbol = Some(Symbol::new(SymbolKind::Triangle(n), color));
                }
                (t::START..=t::TRIANGLE, _) => return Err(misplaced()),
                (other, _) => {
                    return Err(Error::Invalid(format!(
                        "unknown entity type {other} at store column {a}, row {b}"
                    )))
                }
            }
        }
    }

    puzzle.symmetry = match storage.symmetry {
        0 | 1 => None,
        2 => Some(Symmetry { x: true, y: false }),
        3 => Some(Symmetry { x: false, y: true }),
        4 => Some(Symmetry { x: true, y: true }),
        other => {
            return Err(Error::Invalid(format!("unknown symmetry type {other}")));
        }
    };

    // Ends: the cap points to the first side (left, right, up, down) whose
    // line is off the grid or absent; an end without one is unusable.
    let mut is_end = vec![false; sw * sh];
    for p in puzzle.positions() {
        if p.kind() == SlotKind::Node && ty(p) == t::END {
            is_end[puzzle.index(p)] = true;
        }
    }
    // sanitize(): a start or end that is its own mirror is deleted; the
    // mirror of any other one becomes one too.
    if puzzle.symmetry.is_some() {
        let nodes: Vec<Pos> = puzzle
            .positions()
            .filter(|p| p.kind() == SlotKind::Node)
            .collect();
        for &p in &nodes {
            let m = puzzle.mirror(p);
            let (i, mi) = (puzzle.index(p), puzzle.index(m));
            if m == p {
                puzzle.cell_mut(p).start = false;
                is_end[i] = false;
                continue;
            }
            if puzzle.cell(p).start {
                puzzle.cell_mut(m).start = true;
            }
            if is_end[i] {
                is_end[mi] = true;
            }
        }
    }
    for p in puzzle.positions().collect::<Vec<_>>() {
        if !is_end[puzzle.index(p)] {
            continue;
        }
        let dir = Direction::ALL
            .into_iter()
            .find(|&d| match puzzle.neighbor(p, d) {
                None => true,
                Some(q) => ty(q) == t::NONE,
            });
        puzzle.cell_mut(p).end = dir;
    }
    puzzle.check_symmetry()?;
    Ok(puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2x2 example code.
    const EXAMPLE: &str =
        "CAUSAggDEgIoBRIJCAkiBQgBEgEBEgASBAgIEAESAigHEgQICzABEgASBAgIEAESAigFEgIIBA==_0";

    #[test]
    fn decodes_the_spec_example() {
        let p = parse(EXAMPLE).unwrap();
        assert_eq!((p.width(), p.height()), (5, 5));
        assert!(p.cell(Pos::new(0, 0)).start);
        assert_eq!(p.cell(Pos::new(4, 4)).end, Some(Direction::Right));
        let poly = p.cell(Pos::new(1, 1)).symbol.clone().unwrap();
        assert_eq!(poly.kind, SymbolKind::Poly(Polyomino::new([(0, 0)], false)));
        assert_eq!(poly.color, Color::Yellow);
        let star = p.cell(Pos::new(3, 1)).symbol.clone().unwrap();
        assert_eq!(star, Symbol::new(SymbolKind::Star, Color::Black));
        let tri = p.cell(Pos::new(1, 3)).symbol.clone().unwrap();
        assert_eq!(tri, Symbol::new(SymbolKind::Triangle(1), Color::Orange));
    }

    #[test]
    fn url_and_padding_variants() {
        let a = parse(EXAMPLE).unwrap();
        let url = format!("https://windmill.thefifthmatt.com/build/{EXAMPLE}");
        assert_eq!(parse(&url).unwrap(), a);
        let unpadded = EXAMPLE.replace("==_0", "_0");
        assert_eq!(parse(&unpadded).unwrap(), a);
        assert!(looks_like_code(EXAMPLE) && looks_like_code(&url));
        assert!(!looks_like_code("{\"grid\":[]}"));
    }
}

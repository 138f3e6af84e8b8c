//! Writing a puzzle as a Windmill code, the counterpart of [`super::parse`].
//!
//! The code is laid out as the Windmill's own encoder lays it out: one
//! entity per store slot, row by row, a run of plain slots as one entity
//! with its count, the symbols' colours left out where they are the
//! Windmill's defaults, its base64 body with `+` and `/` spelled `-` and
//! `_` and the padding kept, then `_0`. (The Windmill's editor also
//! stores each end's cap in a legacy field that its player ignores; this
//! writer leaves it out.)
//!
//! What the Windmill cannot hold is refused with an
//! [`Error::Unsupported`] that names it and its place: pillars, panels
//! without faces across or down, lines drawn either way (Alcazar mazes),
//! faces cut off by removed lines on a site panel whose symbols look at
//! regions (the Windmill's regions cross removed lines), symbols outside
//! the panel, pieces too large to store, coloured and invisible dots,
//! starts and ends off the points, two elements on one point, colours the
//! Windmill lacks, empty pieces. The Windmill also
//! places each end's cap itself and, on a symmetry panel, makes the mirror
//! image of every start and end one too; so every code is read back before
//! it is returned, and a puzzle the Windmill would read differently (an
//! end it could not place, a start without its mirror image) is refused
//! as well. An end's cap may point elsewhere once read back: the cap is
//! drawn, and the rules do not look at it.

use prost::Message;

use super::{code_of, entity_type as t, from_storage, proto};
use crate::error::{Error, Result};
use crate::model::{
    Color, Dot, Gap, Polyomino, Pos, Puzzle, RuleSet, SlotKind, Symbol, SymbolKind,
};

/// The Windmill code of `puzzle` (`…_0`), or an [`Error::Unsupported`]
/// naming what the Windmill cannot hold. Read back with
/// [`super::parse`], it is the same puzzle, but for the rules (the
/// Windmill's: see [`judged_differently`]), its title and the engine
/// settings (the Windmill has neither) and where the ends' caps point.
///
/// ```
/// use witness::formats::{read_puzzle, windmill};
///
/// let p = read_puzzle("witness 1x1\n+ - E>\n| * |\nS - +\n", None).unwrap();
/// let code = windmill::to_string(&p).unwrap();
/// assert!(code.ends_with("_0"));
/// let back = windmill::parse(&code).unwrap();
/// assert_eq!(back.cell(witness::model::Pos::new(1, 1)), p.cell(witness::model::Pos::new(1, 1)));
/// ```
pub fn to_string(puzzle: &Puzzle) -> Result<String> {
    let storage = to_storage(puzzle)?;
    let back = from_storage(&storage)
        .map_err(|e| unsupported(format!("a panel the Windmill would not read ({e})")))?;
    same_for_the_windmill(puzzle, &back)?;
    Ok(code_of(&storage.encode_to_vec()))
}

/// The most squares the pieces' bounding boxes may hold in all: far more
/// than any real panel's pieces (a 64 x 64 panel of 4 x 4 pieces holds
/// 65,536), so that a code is never hundreds of megabytes.
const MAX_SHAPE_SQUARES: usize = 1 << 20;

/// The slot's place for messages, in slot coordinates (the store's).
fn at(p: Pos) -> String {
    format!("({}, {})", p.x, p.y)
}

fn unsupported(what: String) -> Error {
    Error::Unsupported(format!("{what}: a Windmill code cannot hold it"))
}

/// The Windmill's number of a colour.
fn color_number(c: &Color, what: &str, p: Pos) -> Result<i32> {
    Ok(match c {
        Color::Black => 1,
        Color::White => 2,
        Color::Cyan => 3,
        Color::Magenta => 4,
        Color::Yellow => 5,
        Color::Red => 6,
        Color::Green => 7,
        Color::Blue => 8,
        Color::Orange => 9,
        other => {
            return Err(unsupported(format!(
                "the {what} at {} is {} (the Windmill's colours are black, white, cyan, \
                 magenta, yellow, red, green, blue and orange)",
                at(p),
                other.name()
            )))
        }
    })
}

/// The colour field: left out (0) where it is the Windmill's default for
/// the symbol, which it reads back as that default.
fn color_field(c: &Color, default: Color, what: &str, p: Pos) -> Result<i32> {
    if *c == default {
        return Ok(0);
    }
    color_number(c, what, p)
}

/// A piece's shape: its bounding box row by row.
fn shape(poly: &Polyomino, negative: bool, p: Pos) -> Result<proto::Shape> {
    let cells = poly.cells();
    if cells.is_empty() {
        return Err(unsupported(format!("the empty piece at {}", at(p))));
    }
    let (w, h) = poly.bounds();
    let mut grid = vec![false; w * h];
    for &(x, y) in cells {
        grid[x as usize + w * y as usize] = true;
    }
    Ok(proto::Shape {
        width: w as i32,
        grid,
        free: poly.rotatable,
        negative,
    })
}

/// The entity of a face's symbol.
fn symbol_entity(s: &Symbol, p: Pos) -> Result<proto::Entity> {
    let name = s.kind_name();
    let mut e = proto::Entity::default();
    match &s.kind {
        SymbolKind::Square | SymbolKind::Star => {
            e.r#type = if s.kind == SymbolKind::Square {
                t::SQUARE
            } else {
                t::STAR
            };
            e.color = color_number(&s.color, name, p)?;
        }
        SymbolKind::Poly(poly) => {
            e.r#type = t::TETRIS;
            e.color = color_field(&s.color, Color::Yellow, name, p)?;
            e.shape = Some(shape(poly, false, p)?);
        }
        SymbolKind::Ylop(poly) => {
            e.r#type = t::TETRIS;
            e.color = color_field(&s.color, Color::Blue, name, p)?;
            e.shape = Some(shape(poly, true, p)?);
        }
        SymbolKind::Nega => {
            e.r#type = t::ERROR;
            e.color = color_field(&s.color, Color::White, name, p)?;
        }
        SymbolKind::Triangle(n) => {
            // The Windmill reads a count of 0 as 1.
            let count = i32::try_from(*n).ok().filter(|&n| n > 0).ok_or_else(|| {
                unsupported(format!("the triangle at {} with the count {n}", at(p)))
            })?;
            e.r#type = t::TRIANGLE;
            e.color = color_field(&s.color, Color::Orange, name, p)?;
            e.triangle_count = count;
        }
    }
    Ok(e)
}

/// The entity of one slot.
fn entity(puzzle: &Puzzle, p: Pos) -> Result<proto::Entity> {
    let cell = puzzle.cell(p);
    let kind = p.kind();
    let mut e = proto::Entity::default();
    let mut what: Vec<&str> = Vec::new();
    if cell.start {
        what.push("a start");
    }
    if cell.end.is_some() {
        what.push("an end");
    }
    match cell.dot {
        Dot::None => {}
        Dot::Black => what.push("a dot"),
        other => {
            return Err(unsupported(format!(
                "the {} dot at {}",
                match other {
                    Dot::Blue => "blue",
                    Dot::Yellow => "yellow",
                    _ => "invisible",
                },
                at(p)
            )))
        }
    }
    if cell.gap != Gap::None {
        what.push(match cell.gap {
            Gap::Break => "a broken line",
            _ => "a removed slot",
        });
    }
    if cell.symbol.is_some() {
        if kind != SlotKind::Face || !what.is_empty() {
            return Err(unsupported(format!(
                "a symbol off a cell, or with another element, at {}",
                at(p)
            )));
        }
    } else if kind == SlotKind::Face && !what.is_empty() {
        return Err(unsupported(format!("{} on a cell at {}", what[0], at(p))));
    }
    if what.len() > 1 {
        return Err(unsupported(format!(
            "{} together at {}",
            what.join(" and "),
            at(p)
        )));
    }
    if (cell.start || cell.end.is_some()) && kind != SlotKind::Node {
        return Err(unsupported(format!(
            "{} on a line at {} (the Windmill's starts and ends are on points)",
            what[0],
            at(p)
        )));
    }
    if cell.start {
        e.r#type = t::START;
    } else if cell.end.is_some() {
        e.r#type = t::END;
    } else if cell.dot == Dot::Black {
        e.r#type = t::HEXAGON;
    } else {
        match (cell.gap, kind) {
            (Gap::None, _) => {}
            (Gap::Break, SlotKind::Edge) => e.r#type = t::DISJOINT,
            (Gap::Full, _) => e.r#type = t::NONE,
            (Gap::Break, _) => {
                return Err(unsupported(format!(
                    "a broken point at {} (the Windmill breaks lines only)",
                    at(p)
                )))
            }
        }
    }
    if let Some(s) = &cell.symbol {
        e = symbol_entity(s, p)?;
    }
    Ok(e)
}

/// The Windmill's message for `puzzle`, with runs of plain slots as one
/// entity each.
fn to_storage(puzzle: &Puzzle) -> Result<proto::Storage> {
    if puzzle.pillar() {
        return Err(unsupported("a pillar (a panel that wraps)".into()));
    }
    if puzzle.face_width() == 0 || puzzle.face_height() == 0 {
        return Err(unsupported(format!(
            "a panel {} faces wide and {} high (the Windmill's have faces both ways)",
            puzzle.face_width(),
            puzzle.face_height()
        )));
    }
    if puzzle.undirected {
        return Err(unsupported(
            "a panel whose line may be drawn either way, from an end too (an Alcazar maze)".into(),
        ));
    }
    let (w, h) = (puzzle.width(), puzzle.height());
    // The site leaves the faces cut off by removed lines out of every
    // region; the Windmill's regions cross removed lines (only the line
    // parts them), so a symbol there would count, and an empty face there
    // would join regions and add to their area. (A puzzle read from a code
    // is the Windmill's own, whatever its regions: it is written back, and
    // under the Windmill's rules no face is outside.)
    let outside = puzzle.outside_faces();
    let off = puzzle
        .positions()
        .find(|&p| p.kind() == SlotKind::Face && outside[puzzle.index(p)]);
    if let Some(o) = off {
        if let Some((p, _)) = puzzle.cells().find(|(_, c)| {
            c.symbol
                .as_ref()
                .is_some_and(|s| !matches!(s.kind, SymbolKind::Triangle(_)))
        }) {
            return Err(unsupported(format!(
                "removed lines that cut the face at {} off the panel, with a symbol that \
                 looks at its region at {} (the Windmill's regions cross removed lines)",
                at(o),
                at(p)
            )));
        }
        if let Some((p, _)) = puzzle
            .cells()
            .find(|(p, c)| c.symbol.is_some() && outside[puzzle.index(*p)])
        {
            return Err(unsupported(format!(
                "the symbol at {}, outside the panel (cut off by removed lines; the Windmill \
                 would judge it)",
                at(p)
            )));
        }
    }
    // Each piece is stored as its bounding box, square by square.
    let boxes: usize = puzzle
        .cells()
        .filter_map(|(_, c)| match c.symbol.as_ref().map(|s| &s.kind) {
            Some(SymbolKind::Poly(x) | SymbolKind::Ylop(x)) => {
                let (bw, bh) = x.bounds();
                Some(bw * bh)
            }
            _ => None,
        })
        .sum();
    if boxes > MAX_SHAPE_SQUARES {
        return Err(unsupported(format!(
            "pieces whose bounding boxes hold {boxes} squares in all, more than the \
             {MAX_SHAPE_SQUARES} a code is written with"
        )));
    }
    let mut entities: Vec<proto::Entity> = Vec::new();
    let mut plain = 0i32;
    let flush = |entities: &mut Vec<proto::Entity>, plain: &mut i32| {
        if *plain > 0 {
            entities.push(proto::Entity {
                count: if *plain > 1 { *plain } else { 0 },
                ..Default::default()
            });
            *plain = 0;
        }
    };
    for y in 0..h {
        for x in 0..w {
            let e = entity(puzzle, Pos::new(x, y))?;
            if e == proto::Entity::default() {
                plain += 1;
            } else {
                flush(&mut entities, &mut plain);
                entities.push(e);
            }
        }
    }
    flush(&mut entities, &mut plain);
    let symmetry = match puzzle.symmetry {
        None => 0,
        Some(s) => match (s.x, s.y) {
            (true, false) => 2,
            (false, true) => 3,
            (true, true) => 4,
            (false, false) => 0,
        },
    };
    Ok(proto::Storage {
        width: w as i32,
        entity: entities,
        symmetry,
    })
}

/// Checks that the Windmill reads `back` where `puzzle` was written: the
/// same slots, but for the ends' caps.
fn same_for_the_windmill(puzzle: &Puzzle, back: &Puzzle) -> Result<()> {
    if puzzle.symmetry != back.symmetry {
        return Err(unsupported("a symmetry that mirrors neither way".into()));
    }
    if (puzzle.width(), puzzle.height()) != (back.width(), back.height()) {
        return Err(unsupported(format!(
            "a panel of {} x {} slots, read back as {} x {}",
            puzzle.width(),
            puzzle.height(),
            back.width(),
            back.height()
        )));
    }
    for (p, mine) in puzzle.cells() {
        let theirs = back.cell(p);
        if mine.start != theirs.start {
            let why = if mine.start {
                "a start on the mirror axis of a symmetry panel (the Windmill deletes it)"
            } else {
                "a start whose mirror image is not one (the Windmill makes it one)"
            };
            let q = if mine.start { p } else { puzzle.mirror(p) };
            return Err(unsupported(format!("{why}, at {}", at(q))));
        }
        if mine.end.is_some() != theirs.end.is_some() {
            let why = if mine.end.is_none() {
                format!(
                    "an end whose mirror image is not one (the Windmill makes it one), at {}",
                    at(puzzle.mirror(p))
                )
            } else if puzzle.symmetry.is_some() && puzzle.mirror(p) == p {
                format!(
                    "an end on the mirror axis of a symmetry panel (the Windmill deletes it), at {}",
                    at(p)
                )
            } else {
                format!(
                    "an end at {} with no side off the panel or into a removed line, where \
                     the Windmill could put its cap",
                    at(p)
                )
            };
            return Err(unsupported(why));
        }
        let strip = |c: &crate::model::Cell| crate::model::Cell {
            end: c.end.map(|_| crate::model::Direction::Left),
            ..c.clone()
        };
        if strip(mine) != strip(theirs) {
            return Err(unsupported(format!(
                "the slot at {}, which the Windmill would read otherwise",
                at(p)
            )));
        }
    }
    Ok(())
}

/// What to tell a user of a code whose puzzle the Windmill's rules may
/// judge otherwise ([`judged_differently`]).
pub const RULES_NOTE: &str = "the Windmill judges a puzzle by its own rules, which differ \
    from the site's on elimination marks and pieces (docs/rules.md): its solutions there may \
    not be the same";

/// True when the Windmill's rules may judge `puzzle` otherwise than its
/// own rules do: it is under the site's rules and holds elimination marks
/// or pieces, where the two rule sets differ (`docs/rules.md`). Its code
/// then plays in the Windmill with solutions that may not be its own.
/// (Panels whose regions the Windmill would draw otherwise, across
/// removed lines, [`to_string`] refuses.)
pub fn judged_differently(puzzle: &Puzzle) -> bool {
    puzzle.rules != RuleSet::Windmill
        && puzzle.cells().any(|(_, c)| {
            c.symbol.as_ref().is_some_and(|s| {
                matches!(
                    s.kind,
                    SymbolKind::Nega | SymbolKind::Poly(_) | SymbolKind::Ylop(_)
                )
            })
        })
}

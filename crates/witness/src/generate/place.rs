//! Symbols placed along a line: each proposal puts one symbol (or a
//! group: a star pair, a region's polyominoes, a mark with what it erases)
//! on a copy of the panel, and is kept only when the validator accepts the
//! line on it. As a cut, a proposal must also make the validator refuse
//! another solution.

use rand::seq::{IndexedRandom, SliceRandom};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::model::{Color, Direction, Dot, Polyomino, Pos, Puzzle, SlotKind, Symbol, SymbolKind};
use crate::path::{Line, Trace};
use crate::rules::Rules;

use super::Spec;

/// The kinds of symbol the generator places.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A black dot on the line.
    Dot,
    /// A coloured square.
    Square,
    /// A star (with its partner).
    Star,
    /// A triangle.
    Triangle,
    /// A region's polyominoes (with subtractive pieces when asked).
    Poly,
    /// An elimination mark and a symbol it erases.
    Mark,
}

/// The colours squares take, in order (`--symbols squares=N/C` uses the first C).
pub const SQUARE_COLORS: [Color; 6] = [
    Color::Black,
    Color::White,
    Color::Red,
    Color::Blue,
    Color::Green,
    Color::Purple,
];
/// The colours stars take, in order: those of the squares, so that a star
/// may pair with a square of its colour.
pub const STAR_COLORS: [Color; 6] = SQUARE_COLORS;

/// True when the validator accepts the trace on the panel.
pub fn accepts(p: &Puzzle, t: &Trace) -> bool {
    Rules::new(p).is_ok_and(|r| r.check(t).valid)
}

/// True when a line covers slot `q`.
fn covered(p: &Puzzle, t: &Trace, q: Pos) -> bool {
    t.lines[p.index(q)] != Line::None
}

/// How many of a face's four edges a line covers.
pub fn edges_covered(p: &Puzzle, t: &Trace, f: Pos) -> u32 {
    Direction::ALL
        .iter()
        .filter_map(|&d| p.neighbor(f, d))
        .filter(|&e| covered(p, t, e))
        .count() as u32
}

/// The regions the line cuts the panel into: lists of inside faces.
pub fn regions(p: &Puzzle, t: &Trace) -> Vec<Vec<Pos>> {
    let outside = p.outside_faces();
    let mut seen = vec![false; p.width() * p.height()];
    let mut out = Vec::new();
    for f in p.positions().filter(|q| q.kind() == SlotKind::Face) {
        if seen[p.index(f)] || outside[p.index(f)] {
            continue;
        }
        let mut region = Vec::new();
        let mut stack = vec![f];
        seen[p.index(f)] = true;
        while let Some(g) = stack.pop() {
            region.push(g);
            for d in Direction::ALL {
                let Some(e) = p.neighbor(g, d) else { continue };
                let Some(h) = p.neighbor(e, d) else { continue };
                if covered(p, t, e) || seen[p.index(h)] || outside[p.index(h)] {
                    continue;
                }
                seen[p.index(h)] = true;
                stack.push(h);
            }
        }
        region.sort();
        out.push(region);
    }
    out
}

/// What a proposal works with: the panel, the line, and the other
/// solution a cut must refuse.
pub struct Ctx<'a> {
    /// The line the puzzle is built around.
    pub line: &'a Trace,
    /// Another solution, for cuts.
    pub other: Option<&'a Trace>,
    /// The symbol mix (colours, rotatable and subtractive pieces).
    pub spec: &'a Spec,
}

/// Proposes one placement of `kind` on a copy of `p`, or `None` when this
/// try has nothing to offer. The caller checks it with the validator.
pub fn propose(
    p: &Puzzle,
    kind: Kind,
    cx: &Ctx<'_>,
    pieces: usize,
    rng: &mut ChaCha8Rng,
) -> Option<Puzzle> {
    let mut q = p.clone();
    let ok = match kind {
        Kind::Dot => dot(&mut q, cx, rng),
        Kind::Square => square(&mut q, cx, rng),
        Kind::Star => star(&mut q, cx, rng),
        Kind::Triangle => triangle(&mut q, cx, rng),
        Kind::Poly => polys(&mut q, cx, pieces, rng),
        Kind::Mark => mark(&mut q, cx, rng),
    };
    ok.then_some(q)
}

/// The faces with no symbol, inside the panel, of a region.
fn free(p: &Puzzle, region: &[Pos]) -> Vec<Pos> {
    region
        .iter()
        .copied()
        .filter(|&f| p.cell(f).symbol.is_none())
        .collect()
}

fn dot(p: &mut Puzzle, cx: &Ctx<'_>, rng: &mut ChaCha8Rng) -> bool {
    let slots: Vec<Pos> = p
        .positions()
        .filter(|&q| q.kind() != SlotKind::Face)
        .filter(|&q| covered(p, cx.line, q) && !p.cell(q).dot.is_some())
        .filter(|&q| !p.cell(q).start && p.cell(q).end.is_none())
        .filter(|&q| cx.other.is_none_or(|o| !covered(p, o, q)))
        .collect();
    let Some(&q) = slots.choose(rng) else {
        return false;
    };
    p.cell_mut(q).dot = Dot::Black;
    true
}

fn triangle(p: &mut Puzzle, cx: &Ctx<'_>, rng: &mut ChaCha8Rng) -> bool {
    let outside = p.outside_faces();
    let faces: Vec<(Pos, u32)> = p
        .positions()
        .filter(|&f| f.kind() == SlotKind::Face && !outside[p.index(f)])
        .filter(|&f| p.cell(f).symbol.is_none())
        .map(|f| (f, edges_covered(p, cx.line, f)))
        .filter(|&(_, n)| (1..=3).contains(&n))
        .filter(|&(f, n)| cx.other.is_none_or(|o| edges_covered(p, o, f) != n))
        .collect();
    let Some(&(f, n)) = faces.choose(rng) else {
        return false;
    };
    p.cell_mut(f).symbol = Some(Symbol::new(SymbolKind::Triangle(n), Color::Orange));
    true
}

/// A random region of the line, weighted by its size.
fn random_face_region(p: &Puzzle, cx: &Ctx<'_>, rng: &mut ChaCha8Rng) -> Option<Vec<Pos>> {
    let regions = regions(p, cx.line);
    let faces: usize = regions.iter().map(Vec::len).sum();
    if faces == 0 {
        return None;
    }
    let mut k = rng.random_range(0..faces);
    for r in regions {
        if k < r.len() {
            return Some(r);
        }
        k -= r.len();
    }
    None
}

fn square(p: &mut Puzzle, cx: &Ctx<'_>, rng: &mut ChaCha8Rng) -> bool {
    let Some(region) = random_face_region(p, cx, rng) else {
        return false;
    };
    let Some(&f) = free(p, &region).choose(rng) else {
        return false;
    };
    let present = region.iter().find_map(|&g| match &p.cell(g).symbol {
        Some(s) if s.kind == SymbolKind::Square => Some(s.color.clone()),
        _ => None,
    });
    let colors = cx.spec.square_colors.clamp(1, SQUARE_COLORS.len());
    let color = present.unwrap_or_else(|| SQUARE_COLORS[rng.random_range(0..colors)].clone());
    p.cell_mut(f).symbol = Some(Symbol::new(SymbolKind::Square, color));
    true
}

fn star(p: &mut Puzzle, cx: &Ctx<'_>, rng: &mut ChaCha8Rng) -> bool {
    let Some(region) = random_face_region(p, cx, rng) else {
        return false;
    };
    let mut spots = free(p, &region);
    spots.shuffle(rng);
    let colors = cx.spec.star_colors.clamp(1, STAR_COLORS.len());
    let color = STAR_COLORS[rng.random_range(0..colors)].clone();
    let same = region
        .iter()
        .filter(|&&g| p.cell(g).symbol.as_ref().is_some_and(|s| s.color == color))
        .count();
    // A star joins a lone symbol of its colour, or comes with a partner.
    let n = match same {
        0 => 2,
        1 => 1,
        _ => return false,
    };
    if spots.len() < n {
        return false;
    }
    for &f in &spots[..n] {
        p.cell_mut(f).symbol = Some(Symbol::new(SymbolKind::Star, color.clone()));
    }
    true
}

fn mark(p: &mut Puzzle, cx: &Ctx<'_>, rng: &mut ChaCha8Rng) -> bool {
    let Some(region) = random_face_region(p, cx, rng) else {
        return false;
    };
    let mut spots = free(p, &region);
    if spots.len() < 2 {
        return false;
    }
    spots.shuffle(rng);
    let (m, f) = (spots[0], spots[1]);
    p.cell_mut(m).symbol = Some(Symbol::new(SymbolKind::Nega, Color::White));
    // What the mark erases: a symbol the line breaks.
    let square_color = region.iter().find_map(|&g| match &p.cell(g).symbol {
        Some(s) if s.kind == SymbolKind::Square => Some(s.color.clone()),
        _ => None,
    });
    let n = edges_covered(p, cx.line, f);
    let erased = match (rng.random_range(0..3), square_color) {
        (0, Some(c)) => {
            let other = SQUARE_COLORS.iter().find(|&k| *k != c).cloned();
            Symbol::new(SymbolKind::Square, other.unwrap_or(Color::Red))
        }
        (1, _) => {
            let wrong: Vec<u32> = (1..=3).filter(|&k| k != n).collect();
            Symbol::new(
                SymbolKind::Triangle(*wrong.choose(rng).unwrap_or(&1)),
                Color::Orange,
            )
        }
        _ => Symbol::new(SymbolKind::Star, Color::Cyan),
    };
    p.cell_mut(f).symbol = Some(erased);
    true
}

/// The faces of `region` next to `f` (through an edge the line leaves
/// free), with the step taken, for growing pieces.
fn steps(p: &Puzzle, cx: &Ctx<'_>, f: Pos) -> Vec<(Pos, (i32, i32))> {
    let mut out = Vec::new();
    for d in Direction::ALL {
        let Some(e) = p.neighbor(f, d) else { continue };
        let Some(g) = p.neighbor(e, d) else { continue };
        if covered(p, cx.line, e) {
            continue;
        }
        let (dx, dy) = d.delta();
        out.push((g, (dx as i32, dy as i32)));
    }
    out
}

/// Tiles a small region of the line with at most `pieces` pieces of 1 to
/// 4 squares and puts their symbols in it; with subtractive pieces asked,
/// one piece grows by a square another piece covers and a subtractive
/// square makes up for it.
fn polys(p: &mut Puzzle, cx: &Ctx<'_>, pieces: usize, rng: &mut ChaCha8Rng) -> bool {
    if pieces == 0 {
        return false;
    }
    let mut regions: Vec<Vec<Pos>> = regions(p, cx.line)
        .into_iter()
        .filter(|r| r.len() <= 4 * pieces && free(p, r).len() >= r.len().div_ceil(4))
        .collect();
    if regions.is_empty() {
        return false;
    }
    regions.shuffle(rng);
    let region = regions.swap_remove(0);
    let mut left: Vec<Pos> = region.clone();
    // Each piece: its faces and their offsets from its first face.
    let mut shapes: Vec<Vec<(Pos, (i32, i32))>> = Vec::new();
    while !left.is_empty() {
        let seed = left[rng.random_range(0..left.len())];
        left.retain(|&f| f != seed);
        let size = rng.random_range(1..=4usize);
        let mut piece = vec![(seed, (0, 0))];
        while piece.len() < size {
            let mut grow: Vec<(Pos, (i32, i32))> = Vec::new();
            for &(f, (x, y)) in &piece {
                for (g, (dx, dy)) in steps(p, cx, f) {
                    if left.contains(&g) && !grow.iter().any(|&(h, _)| h == g) {
                        grow.push((g, (x + dx, y + dy)));
                    }
                }
            }
            let Some(&next) = grow.choose(rng) else { break };
            left.retain(|&f| f != next.0);
            piece.push(next);
        }
        shapes.push(piece);
    }
    if shapes.len() > pieces {
        return false;
    }
    let mut spots = free(p, &region);
    spots.shuffle(rng);
    if spots.len() < shapes.len() {
        return false;
    }
    let shape = |cells: &[(i32, i32)], rotatable: bool| {
        let mx = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let my = cells.iter().map(|c| c.1).min().unwrap_or(0);
        Polyomino::new(
            cells.iter().map(|&(x, y)| ((x - mx) as u8, (y - my) as u8)),
            rotatable,
        )
    };
    let mut rotatable = cx.spec.rotatable;
    let mut subtractive = cx.spec.subtractive;
    for (i, piece) in shapes.iter().enumerate() {
        let mut cells: Vec<(i32, i32)> = piece.iter().map(|c| c.1).collect();
        if subtractive > 0 && region.len() > piece.len() {
            // Grow onto a neighbouring square of another piece.
            let mut grow = Vec::new();
            for &(f, (x, y)) in piece {
                for (g, (dx, dy)) in steps(p, cx, f) {
                    if region.contains(&g) && !piece.iter().any(|&(h, _)| h == g) {
                        grow.push((x + dx, y + dy));
                    }
                }
            }
            if let Some(&c) = grow.choose(rng) {
                let mut bigger = cells.clone();
                bigger.push(c);
                let big = shape(&bigger, false);
                if big.to_mask().is_some() && spots.len() > shapes.len() {
                    cells = bigger;
                    subtractive -= 1;
                    let ylop = Polyomino::new([(0, 0)], false);
                    let at = spots.pop().expect("a free face");
                    p.cell_mut(at).symbol = Some(Symbol::new(SymbolKind::Ylop(ylop), Color::Blue));
                }
            }
        }
        let turn = rotatable > 0 && cells.len() > 1 && rng.random_bool(0.5);
        if turn {
            rotatable -= 1;
        }
        let poly = shape(&cells, turn);
        if poly.to_mask().is_none() {
            return false;
        }
        let at = spots[i];
        p.cell_mut(at).symbol = Some(Symbol::new(SymbolKind::Poly(poly), Color::Yellow));
    }
    true
}

/// Every placement of one symbol (a star pair counts as one) of `kinds`
/// on a copy of `p` that may keep the line and break `cx.other`: a dot
/// on a slot only the line covers, a triangle of the line's count where
/// the other's differs, a square of each colour on each free face, a
/// star of each colour joining the lone symbol of its colour in the
/// line's region, or a pair of a colour the region lacks on two faces
/// the other line parts. Polyominoes and marks are left to [`propose`].
/// The caller checks each with the validator; the list is in the panel's
/// order (the caller shuffles it).
pub fn all_cuts(p: &Puzzle, kinds: &[Kind], cx: &Ctx<'_>) -> Vec<Puzzle> {
    let mut out = Vec::new();
    let Some(other) = cx.other else {
        return out;
    };
    let with = |f: &dyn Fn(&mut Puzzle)| {
        let mut q = p.clone();
        f(&mut q);
        q
    };
    if kinds.contains(&Kind::Dot) {
        for q in p.positions().filter(|&q| q.kind() != SlotKind::Face) {
            let c = p.cell(q);
            if covered(p, cx.line, q)
                && !covered(p, other, q)
                && !c.dot.is_some()
                && !c.start
                && c.end.is_none()
            {
                out.push(with(&|r: &mut Puzzle| r.cell_mut(q).dot = Dot::Black));
            }
        }
    }
    let ours = regions(p, cx.line);
    let theirs = regions(p, other);
    let region_of = |rs: &[Vec<Pos>], f: Pos| rs.iter().position(|r| r.contains(&f));
    for region in &ours {
        for &f in &free(p, region) {
            if kinds.contains(&Kind::Triangle) {
                let n = edges_covered(p, cx.line, f);
                if (1..=3).contains(&n) && edges_covered(p, other, f) != n {
                    let t = Symbol::new(SymbolKind::Triangle(n), Color::Orange);
                    out.push(with(&|r: &mut Puzzle| {
                        r.cell_mut(f).symbol = Some(t.clone())
                    }));
                }
            }
            if kinds.contains(&Kind::Square) {
                let colors = cx.spec.square_colors.clamp(1, SQUARE_COLORS.len());
                for c in &SQUARE_COLORS[..colors] {
                    let s = Symbol::new(SymbolKind::Square, c.clone());
                    out.push(with(&|r: &mut Puzzle| {
                        r.cell_mut(f).symbol = Some(s.clone())
                    }));
                }
            }
            if kinds.contains(&Kind::Star) {
                let colors = cx.spec.star_colors.clamp(1, STAR_COLORS.len());
                for c in &STAR_COLORS[..colors] {
                    let same = region
                        .iter()
                        .filter(|&&g| p.cell(g).symbol.as_ref().is_some_and(|s| s.color == *c))
                        .count();
                    let s = Symbol::new(SymbolKind::Star, c.clone());
                    match same {
                        1 => out.push(with(&|r: &mut Puzzle| {
                            r.cell_mut(f).symbol = Some(s.clone())
                        })),
                        0 => {
                            let here = region_of(&theirs, f);
                            for &g in free(p, region).iter().filter(|&&g| g > f) {
                                if region_of(&theirs, g) != here {
                                    out.push(with(&|r: &mut Puzzle| {
                                        r.cell_mut(f).symbol = Some(s.clone());
                                        r.cell_mut(g).symbol = Some(s.clone());
                                    }));
                                }
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

/// True when a cut of `kind` that turned `p` into `q` lets the SAT
/// engine of the rounds keep its clauses (`Rounds`): a dot, or a triangle
/// or a square of a colour no star on `q` has.
pub fn keeps_solver(p: &Puzzle, q: &Puzzle, kind: Kind) -> bool {
    match kind {
        Kind::Dot => true,
        Kind::Triangle | Kind::Square => {
            let star = |c: &Color| {
                q.cells().any(|(_, x)| {
                    x.symbol
                        .as_ref()
                        .is_some_and(|s| s.kind == SymbolKind::Star && s.color == *c)
                })
            };
            q.cells()
                .zip(p.cells())
                .all(|((_, a), (_, b))| match &a.symbol {
                    Some(s) if a.symbol != b.symbol => !star(&s.color),
                    _ => true,
                })
        }
        Kind::Star | Kind::Poly | Kind::Mark => false,
    }
}

/// The kind of the symbol that `q` adds to `p` (a dot when it adds no
/// face symbol).
pub fn kind_added(p: &Puzzle, q: &Puzzle) -> Kind {
    let added = q.cells().zip(p.cells()).find_map(|((_, a), (_, b))| {
        (a.symbol != b.symbol)
            .then_some(a.symbol.as_ref())
            .flatten()
    });
    match added.map(|s| &s.kind) {
        None => Kind::Dot,
        Some(SymbolKind::Square) => Kind::Square,
        Some(SymbolKind::Star) => Kind::Star,
        Some(SymbolKind::Triangle(_)) => Kind::Triangle,
        Some(SymbolKind::Nega) => Kind::Mark,
        Some(SymbolKind::Poly(_) | SymbolKind::Ylop(_)) => Kind::Poly,
    }
}

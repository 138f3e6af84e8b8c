//! A puzzle compiled for the rules: flat per-slot tables, play-mode
//! normalisation applied, colours numbered.

use crate::error::{Error, Result};
use crate::model::{Dot, Gap, Polyomino, Pos, Puzzle, SlotKind, SymbolKind, Symmetry};

/// No neighbour (off the grid).
pub const NONE: u32 = u32::MAX;

/// A face symbol in compact form.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sym {
    /// An empty face (or any node or edge).
    Empty,
    /// A coloured square.
    Square,
    /// A star.
    Star,
    /// Triangles with their count.
    Triangle(u32),
    /// A polyomino: index into [`Board::shapes`].
    Poly(u16),
    /// A subtractive polyomino: index into [`Board::shapes`].
    Ylop(u16),
    /// An elimination mark.
    Nega,
}

impl Sym {
    /// True for polyominoes and subtractive ones.
    pub fn is_poly(self) -> bool {
        matches!(self, Sym::Poly(_) | Sym::Ylop(_))
    }
}

/// The puzzle as the rules see it (`docs/rules.md#play-mode`, trace mode:
/// symbols on faces outside the panel are gone).
#[derive(Clone, Debug)]
pub struct Board {
    /// Width in slots.
    pub w: usize,
    /// Height in slots.
    pub h: usize,
    /// Wraps horizontally.
    pub pillar: bool,
    /// The symmetry, if two lines are drawn.
    pub symmetry: Option<Symmetry>,
    /// Leftover elimination marks cancel in pairs.
    pub ncn: bool,
    /// Equal-area polyomino sets cancel whatever their shapes.
    pub shapeless_zero_poly: bool,
    /// Precise polyomino footprints.
    pub precise: bool,
    /// A start on an edge blocks that edge.
    pub fat_startpoints: bool,
    /// The Windmill's rules (`docs/rules.md#rule-profiles`): nothing is
    /// outside; regions with elimination marks follow its bookkeeping;
    /// `shapeless_zero_poly` is on and `precise` off whatever the settings
    /// say.
    pub windmill: bool,
    /// Slot kind per slot.
    pub kind: Vec<SlotKind>,
    /// Neighbours per slot in the engine's flood order: down, up, right, left.
    pub flood_nbr: Vec<[u32; 4]>,
    /// Neighbours per slot by [`crate::model::Direction`] order: left, right, up, down.
    pub nbr: Vec<[u32; 4]>,
    /// Dot per slot.
    pub dot: Vec<Dot>,
    /// Gap per slot.
    pub gap: Vec<Gap>,
    /// Start flag per slot.
    pub start: Vec<bool>,
    /// End flag per slot.
    pub end: Vec<bool>,
    /// Symbol per slot.
    pub sym: Vec<Sym>,
    /// Colour number per slot (0 for no colour; others index `colors`).
    pub color: Vec<u8>,
    /// Number of distinct colours + 1.
    pub n_colors: usize,
    /// Shapes referenced by `Sym::Poly` and `Sym::Ylop`.
    pub shapes: Vec<Polyomino>,
    /// Slots the outside fill marks (faces, removed edges, nodes beside them).
    /// None under the Windmill's rules, whose regions cross removed lines.
    pub outside: Vec<bool>,
    /// Mirror slot per slot (itself without symmetry).
    pub mirror: Vec<u32>,
    /// Any elimination mark on the board.
    pub has_negations: bool,
    /// Any polyomino on the board.
    pub has_polys: bool,
}

/// An element of `c`, the slot at `p` of kind `kind`, where none can be:
/// a symbol off a face, or a start, an end or a dot on a face. The
/// formats never place one so; a puzzle built slot by slot may.
fn misplaced(c: &crate::model::Cell, kind: SlotKind, p: Pos) -> Result<()> {
    let what = if kind == SlotKind::Face {
        if c.start {
            "a start"
        } else if c.end.is_some() {
            "an end"
        } else if c.dot != Dot::None {
            "a dot"
        } else {
            return Ok(());
        }
    } else if c.symbol.is_some() {
        "a symbol"
    } else {
        return Ok(());
    };
    let place = if kind == SlotKind::Face {
        "a face (starts, ends and dots go on nodes and edges)"
    } else {
        "a node or edge (symbols go on faces)"
    };
    Err(Error::Invalid(format!("slot {p}: {what} on {place}")))
}

impl Board {
    /// Compiles a puzzle. Fails only for puzzles the rules cannot handle
    /// (custom mechanics are already rejected by the parsers): a grid too
    /// large, a broken symmetry, an element where none can be (a symbol
    /// off a face, or a start, an end or a dot on one: a puzzle built
    /// through [`Puzzle::cell_mut`]), more than 253 colours.
    pub fn new(p: &Puzzle) -> Result<Board> {
        let (w, h) = (p.width(), p.height());
        let n = w * h;
        if n > u32::MAX as usize / 2 {
            return Err(Error::Size("grid too large".into()));
        }
        p.check_symmetry()?;
        // Per-slot tables, filled in one pass a column at a time.
        // Neighbours by index arithmetic (column-major: `x * h + y`), the
        // same as `Puzzle::neighbor`: x wraps on pillars.
        let pillar = p.pillar();
        let cells = p.cell_slice();
        let mut kind = vec![SlotKind::Face; n];
        let mut nbr = vec![[NONE; 4]; n];
        let mut flood_nbr = vec![[NONE; 4]; n];
        let mut dot = vec![Dot::None; n];
        let mut gap = vec![Gap::None; n];
        let mut start = vec![false; n];
        let mut end = vec![false; n];
        for x in 0..w {
            let left = if x > 0 {
                Some(x - 1)
            } else {
                pillar.then_some(w - 1)
            };
            let right = if x + 1 < w {
                Some(x + 1)
            } else {
                pillar.then_some(0)
            };
            let here = x * h;
            for y in 0..h {
                let i = here + y;
                let c = &cells[i];
                kind[i] = match (x % 2, y % 2) {
                    (1, 1) => SlotKind::Face,
                    (0, 0) => SlotKind::Node,
                    _ => SlotKind::Edge,
                };
                misplaced(c, kind[i], Pos::new(x, y))?;
                let l = left.map_or(NONE, |c| (c * h + y) as u32);
                let r = right.map_or(NONE, |c| (c * h + y) as u32);
                let u = if y > 0 { (i - 1) as u32 } else { NONE };
                let d = if y + 1 < h { (i + 1) as u32 } else { NONE };
                nbr[i] = [l, r, u, d];
                flood_nbr[i] = [d, u, r, l];
                dot[i] = c.dot;
                gap[i] = c.gap;
                start[i] = c.start;
                end[i] = c.end.is_some();
            }
        }
        let mirror = if p.symmetry.is_some() {
            (0..w)
                .flat_map(|x| (0..h).map(move |y| p.index(p.mirror(Pos::new(x, y))) as u32))
                .collect()
        } else {
            (0..n as u32).collect()
        };
        let windmill = p.rules == crate::model::RuleSet::Windmill;
        let mut b = Board {
            w,
            h,
            pillar,
            symmetry: p.symmetry,
            ncn: p.settings.negations_cancel_negations,
            shapeless_zero_poly: p.settings.shapeless_zero_poly || windmill,
            precise: p.settings.precise_polyominos && !windmill,
            fat_startpoints: p.settings.fat_startpoints,
            windmill,
            kind,
            flood_nbr,
            nbr,
            dot,
            gap,
            start,
            end,
            sym: vec![Sym::Empty; n],
            color: vec![0; n],
            n_colors: 1,
            shapes: Vec::new(),
            outside: vec![false; n],
            mirror,
            has_negations: false,
            has_polys: false,
        };
        if !windmill {
            b.compute_outside();
        }
        let mut colors: Vec<crate::model::Color> = Vec::new();
        for (i, c) in cells.iter().enumerate() {
            let Some(s) = &c.symbol else {
                continue;
            };
            if b.outside[i] {
                continue; // play mode: outside faces are emptied
            }
            // Equal shapes share one entry.
            let mut shape = |s: &Polyomino| match b.shapes.iter().position(|k| k == s) {
                Some(k) => k as u16,
                None => {
                    b.shapes.push(s.clone());
                    (b.shapes.len() - 1) as u16
                }
            };
            b.sym[i] = match &s.kind {
                SymbolKind::Square => Sym::Square,
                SymbolKind::Star => Sym::Star,
                SymbolKind::Triangle(k) => Sym::Triangle(*k),
                SymbolKind::Poly(s) => Sym::Poly(shape(s)),
                SymbolKind::Ylop(s) => Sym::Ylop(shape(s)),
                SymbolKind::Nega => Sym::Nega,
            };
            let ci = match colors.iter().position(|k| *k == s.color) {
                Some(ci) => ci,
                None => {
                    colors.push(s.color.clone());
                    colors.len() - 1
                }
            };
            if ci >= 254 {
                return Err(Error::Unsupported("more than 253 colours".into()));
            }
            b.color[i] = ci as u8 + 1;
            b.has_negations |= b.sym[i] == Sym::Nega;
            b.has_polys |= b.sym[i].is_poly();
        }
        b.n_colors = colors.len() + 1;
        b.settle_outside_dots();
        Ok(b)
    }

    /// Dots on removed edges outside the panel (`docs/rules.md#regions`).
    /// When every inside face holds a triangle, the engine judges one
    /// region of every face and uncovered slot, outside slots included: such
    /// a dot is judged (and fails, as no line covers a removed edge), so it
    /// is taken into the panel. Otherwise it is in no region, never judged,
    /// and is dropped, so that no solver asks for it.
    fn settle_outside_dots(&mut self) {
        let one_region = (0..self.len()).all(|i| {
            self.kind[i] != SlotKind::Face
                || self.outside[i]
                || matches!(self.sym[i], Sym::Triangle(_))
        });
        for i in 0..self.len() {
            if self.outside[i] && self.dot[i] != Dot::None {
                if one_region {
                    self.outside[i] = false;
                } else {
                    self.dot[i] = Dot::None;
                }
            }
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.w * self.h
    }
    /// True for an empty grid (never, for a valid puzzle).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Position of a slot index.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new(i / self.h, i % self.h)
    }
    /// Slot index of a position.
    pub fn index(&self, x: usize, y: usize) -> usize {
        x * self.h + y
    }

    /// The outside fill of `docs/rules.md#regions`, independent of any path:
    /// faces and removed edges joined to the border through removed edges, and
    /// the nodes without dots beside them.
    fn compute_outside(&mut self) {
        let (w, h) = (self.w, self.h);
        let mut stack: Vec<u32> = Vec::new();
        for x in (1..w).step_by(2) {
            stack.push(self.index(x, 0) as u32);
            stack.push(self.index(x, h - 1) as u32);
        }
        if !self.pillar {
            for y in (1..h).step_by(2) {
                stack.push(self.index(0, y) as u32);
                stack.push(self.index(w - 1, y) as u32);
            }
        }
        while let Some(i) = stack.pop() {
            let i = i as usize;
            if self.outside[i] {
                continue;
            }
            match self.kind[i] {
                SlotKind::Node => {
                    if self.dot[i] == Dot::None {
                        self.outside[i] = true;
                    }
                    continue;
                }
                SlotKind::Edge if self.gap[i] != Gap::Full => continue,
                _ => {}
            }
            self.outside[i] = true;
            for &j in &self.flood_nbr[i] {
                if j != NONE {
                    stack.push(j);
                }
            }
        }
    }
}

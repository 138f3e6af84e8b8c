//! Minimal puzzles: every symbol the uniqueness does not need removed.
//!
//! A symbol here is one dot or one face symbol (a square, a star, a
//! triangle, a polyomino, a subtractive piece, an elimination mark). A
//! puzzle is **minimal** when, for each of its symbols, the panel without
//! it no longer has the generated line as its one and only solution:
//! either the line fails there (taking away one star of a pair, a
//! polyomino its region needs, or a mark's target leaves a symbol the
//! line breaks) or a second solution appears. A dot counts alone even
//! where dots sit side by side; a mark and the symbol it erases are two
//! symbols, and neither can go: without the mark the line breaks its
//! target, without the target the mark has nothing to erase.
//!
//! Removal goes in random order, one symbol at a time, keeping each
//! removal that leaves the line the unique solution, and repeats until a
//! whole round removes nothing.

use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::place::accepts;
use super::unique::{other_solution, Other};
use crate::error::Result;
use crate::model::{Dot, Pos, Puzzle, SlotKind};
use crate::path::{Path, Trace};
use crate::solve::Limits;

/// Every symbol of the panel: its slot (a dot's node or edge, or a face).
pub fn symbols(p: &Puzzle) -> Vec<Pos> {
    p.cells()
        .filter(|(q, c)| {
            if q.kind() == SlotKind::Face {
                c.symbol.is_some()
            } else {
                c.dot.is_some()
            }
        })
        .map(|(q, _)| q)
        .collect()
}

/// The panel without the symbol at `q`.
pub fn without(p: &Puzzle, q: Pos) -> Puzzle {
    let mut out = p.clone();
    let c = out.cell_mut(q);
    c.symbol = None;
    c.dot = Dot::None;
    out
}

/// Removes symbols until the panel is minimal (module documentation).
/// `Ok(false)` when the limits stopped a search first.
pub fn minimise(
    p: &mut Puzzle,
    line: &Path,
    trace: &Trace,
    limits: &Limits,
    rng: &mut ChaCha8Rng,
) -> Result<bool> {
    loop {
        let mut order = symbols(p);
        order.shuffle(rng);
        let mut removed = false;
        for q in order {
            let candidate = without(p, q);
            if !accepts(&candidate, trace) {
                continue;
            }
            match other_solution(&candidate, line, limits)? {
                Other::None => {
                    *p = candidate;
                    removed = true;
                }
                Other::Found => {}
                Other::Stopped => return Ok(false),
            }
        }
        if !removed {
            return Ok(true);
        }
    }
}

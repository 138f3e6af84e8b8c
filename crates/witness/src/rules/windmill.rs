//! The Windmill's verdict on a region that holds elimination marks
//! (`docs/rules.md#rule-profiles`). Regions without marks are judged as the
//! site judges them, with the Windmill's polyomino settings (equal areas
//! cancel, footprints are faces only), which the board already carries.
//!
//! The Windmill keeps a count of the marks still to use and lowers it by
//! the elements each rule would have to lose, in this order: squares, stars,
//! dots and triangles, pieces. The region passes exactly when the count
//! ends at zero and the pieces did not rule themselves out.

use super::board::{Board, Sym};
use super::marks::NegationOutcome;
use super::scratch::Scratch;
use super::symbols::{poly_fit, triangle_edges, PolyTables};
use crate::model::SlotKind;

/// The Windmill's procedure for a region with at least one mark. `removed`
/// must be all false on entry and is restored. With `decide_only` the
/// failures are left empty; no (mark, element) pairs are reported (the
/// Windmill does not say which mark erased which element).
pub fn resolve(
    b: &Board,
    t: &PolyTables,
    region: &[u32],
    covered: &[bool],
    removed: &mut [bool],
    scratch: &mut Scratch,
    decide_only: bool,
) -> NegationOutcome {
    let mut marks = 0i64;
    let mut failing: Vec<u32> = Vec::new();
    // Every coloured symbol counts its colour (marks too, white unless
    // coloured); squares per colour.
    scratch.color_count.clear();
    scratch.color_count.resize(b.n_colors, 0);
    let mut square_count = vec![0u32; b.n_colors];
    let mut pieces: Vec<u32> = Vec::new();
    for &s in region {
        let i = s as usize;
        if b.kind[i] != SlotKind::Face {
            continue;
        }
        match b.sym[i] {
            Sym::Empty => continue,
            Sym::Nega => marks += 1,
            Sym::Square => square_count[b.color[i] as usize] += 1,
            Sym::Poly(_) | Sym::Ylop(_) => pieces.push(s),
            _ => {}
        }
        scratch.color_count[b.color[i] as usize] += 1;
    }
    let mut left = marks;
    // Squares: with two colours or more, every square outside the colour
    // the Windmill keeps must go. It keeps the last of the (count, colour)
    // pairs sorted as text, so the count kept is the one whose digits
    // followed by a comma sort last ("9," after "10,").
    let colours: Vec<u32> = square_count.iter().copied().filter(|&c| c > 0).collect();
    if colours.len() > 1 {
        let kept = colours
            .iter()
            .map(|c| format!("{c},"))
            .max()
            .and_then(|k| k.trim_end_matches(',').parse::<u32>().ok())
            .unwrap_or(0);
        let total: u32 = colours.iter().sum();
        if left >= 0 {
            left -= (total - kept) as i64;
        }
        failing.extend(
            region.iter().copied().filter(|&s| {
                b.kind[s as usize] == SlotKind::Face && b.sym[s as usize] == Sym::Square
            }),
        );
    }
    // Stars: for each colour whose total is not two, all its stars must go
    // (one alone, or all), or enough of several to leave two of the colour.
    let mut star_count = vec![0u32; b.n_colors];
    for &s in region {
        let i = s as usize;
        if b.kind[i] == SlotKind::Face && b.sym[i] == Sym::Star {
            star_count[b.color[i] as usize] += 1;
        }
    }
    for (c, &n) in star_count.iter().enumerate() {
        let total = scratch.color_count[c] as u32;
        if n == 0 || total == 2 {
            continue;
        }
        if left >= 0 {
            let need = if n > 1 { n.min(total - 2) } else { n };
            left -= need as i64;
        }
        failing.extend(region.iter().copied().filter(|&s| {
            let i = s as usize;
            b.kind[i] == SlotKind::Face && b.sym[i] == Sym::Star && b.color[i] as usize == c
        }));
    }
    // Dots off the line and triangles with the wrong count: one mark each.
    let mut local = 0i64;
    for &s in region {
        let i = s as usize;
        let bad = if b.kind[i] != SlotKind::Face {
            b.dot[i].is_some()
        } else if let Sym::Triangle(k) = b.sym[i] {
            triangle_edges(b, covered, i) != k
        } else {
            false
        };
        if bad {
            local += 1;
            failing.push(s);
        }
    }
    if left >= 0 {
        left -= local;
    }
    // Pieces: they fit; or, when the marks left equal the pieces, all go;
    // or, with one mark left, one piece goes and the rest fit. With more
    // marks left than one (and not one per piece) they must fit as they are.
    let mut feasible = true;
    let fits =
        |removed: &mut [bool], scratch: &mut Scratch| poly_fit(b, t, region, removed, scratch);
    if !pieces.is_empty() && !fits(removed, scratch) {
        let room = left.max(0);
        if room > 0 && pieces.len() as i64 == room {
            left -= room;
        } else if room == 1 {
            let mut one = false;
            for &s in &pieces {
                removed[s as usize] = true;
                one = fits(removed, scratch);
                removed[s as usize] = false;
                if one {
                    break;
                }
            }
            if one {
                left -= 1;
            } else {
                feasible = false;
            }
        } else {
            feasible = false;
        }
        failing.extend_from_slice(&pieces);
    }
    let valid = feasible && left == 0;
    let mut out = NegationOutcome {
        valid,
        ..Default::default()
    };
    if !valid && !decide_only {
        // The marks fail, with every element a rule found wrong.
        let mut all: Vec<u32> = region
            .iter()
            .copied()
            .filter(|&s| b.kind[s as usize] == SlotKind::Face && b.sym[s as usize] == Sym::Nega)
            .collect();
        all.extend(failing);
        let order = |s: &u32| region.iter().position(|r| r == s).unwrap_or(usize::MAX);
        all.sort_by_key(order);
        all.dedup();
        out.invalid = all;
    }
    out
}

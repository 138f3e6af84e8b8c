//! The polyomino fit of spec §5.6, decided exactly but without the engine's
//! blow-up.
//!
//! The engine places every subtractive piece (ylop) anywhere, then tiles
//! with the pieces (polys). Its answer is a plain yes or no: do placements
//! exist such that the board `B0 − ylops + polys` is `<= 0` on every slot and
//! `== 0` on every face? Here the same question is answered by one scan over
//! the faces in row-major order: every placement is filed under the first
//! face it covers, and at each face we choose the pieces that start there.
//! Since no later piece touches an earlier face, that face must be 0 once
//! its pieces are chosen; since no later poly touches an earlier row, the
//! edges of finished rows must be `<= 0`. Identical pieces are chosen as
//! multisets, never in every order.

use super::board::Board;
use crate::model::SlotKind;

/// A placement: the footprint slots of one piece at one position.
#[derive(Clone, Debug)]
struct Placement {
    first_face: u32,
    slots: Vec<u32>,
}

/// All placements of a shape on the board, sorted by first face order.
#[derive(Clone, Debug)]
pub struct Placements {
    list: Vec<Placement>,
    /// `by_face[k]..by_face[k+1]` are the placements whose first face is the
    /// k-th face in scan order.
    by_face: Vec<u32>,
}

/// The faces of a board in scan order (rows top to bottom, then columns).
pub fn scan_faces(b: &Board) -> Vec<u32> {
    let mut out = Vec::new();
    for y in (1..b.h).step_by(2) {
        for x in (1..b.w).step_by(2) {
            out.push(b.index(x, y) as u32);
        }
    }
    out
}

impl Placements {
    /// Every placement of `shape` (all its orientations) whose footprint
    /// lies on the grid.
    pub fn new(b: &Board, shape: &crate::model::Polyomino, subtractive: bool) -> Placements {
        let faces = scan_faces(b);
        let mut order = vec![u32::MAX; b.len()];
        for (k, &f) in faces.iter().enumerate() {
            order[f as usize] = k as u32;
        }
        let mut list: Vec<Placement> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for o in shape.orientations() {
            let fp = o.footprint(subtractive, b.precise);
            if fp.is_empty() {
                continue;
            }
            for &f in &faces {
                let (fx, fy) = (f as usize / b.h, f as usize % b.h);
                let mut slots = Vec::with_capacity(fp.len());
                let mut ok = true;
                for &(dx, dy) in &fp {
                    let y = fy as isize + dy;
                    let mut x = fx as isize + dx;
                    if b.pillar {
                        x = x.rem_euclid(b.w as isize);
                    }
                    if y < 0 || y >= b.h as isize || x < 0 || x >= b.w as isize {
                        ok = false;
                        break;
                    }
                    slots.push(b.index(x as usize, y as usize) as u32);
                }
                if !ok {
                    continue;
                }
                slots.sort_unstable();
                if !seen.insert(slots.clone()) {
                    continue;
                }
                let first = slots
                    .iter()
                    .copied()
                    .filter(|&s| b.kind[s as usize] == SlotKind::Face)
                    .min_by_key(|&s| order[s as usize])
                    .expect("a footprint has a face");
                list.push(Placement {
                    first_face: first,
                    slots,
                });
            }
        }
        list.sort_by_key(|p| order[p.first_face as usize]);
        let mut by_face = vec![0u32; faces.len() + 1];
        let mut k = 0;
        for (fi, &f) in faces.iter().enumerate() {
            by_face[fi] = k as u32;
            while k < list.len() && list[k].first_face == f {
                k += 1;
            }
        }
        by_face[faces.len()] = list.len() as u32;
        Placements { list, by_face }
    }
}

/// One kind of piece in a fit: its placements, whether it subtracts, and
/// how many of it there are.
pub struct PieceKind<'a> {
    /// Where it can go.
    pub placements: &'a Placements,
    /// A ylop rather than a poly.
    pub subtractive: bool,
    /// How many pieces of this kind.
    pub count: u32,
}

/// Decides whether the pieces fit. `region` lists the region's slots (used
/// when the pieces must tile it); `region_faces` is its face count.
/// `polys_area` and `ylops_area` are the total sizes. Zero-size pieces are
/// not passed here: the caller applies their rule.
pub fn fits<'a>(
    b: &'a Board,
    faces: &'a [u32],
    region: &[u32],
    region_faces: usize,
    kinds: &mut [PieceKind<'a>],
    polys_area: usize,
    ylops_area: usize,
) -> bool {
    let net = polys_area as isize - ylops_area as isize;
    if net < 0 || (net > 0 && net as usize != region_faces) {
        return false;
    }
    let mut val = vec![0i8; b.len()];
    if net > 0 {
        for &s in region {
            val[s as usize] = -1;
        }
    }
    // Ylops first: at a face they can only lower the value, polys raise it.
    kinds.sort_by_key(|k| !k.subtractive);
    let mut search = Search {
        b,
        faces,
        val,
        kinds,
        polys_left: 0,
        ylops_left: 0,
        steps: 0,
    };
    for k in search.kinds.iter() {
        if k.subtractive {
            search.ylops_left += k.count;
        } else {
            search.polys_left += k.count;
        }
    }
    search.face(0)
}

struct Search<'a, 'k> {
    b: &'a Board,
    faces: &'a [u32],
    val: Vec<i8>,
    kinds: &'k mut [PieceKind<'a>],
    polys_left: u32,
    ylops_left: u32,
    steps: u64,
}

impl Search<'_, '_> {
    fn face(&mut self, k: usize) -> bool {
        if k == self.faces.len() {
            return self.polys_left == 0
                && self.ylops_left == 0
                && self.val.iter().all(|&v| v <= 0);
        }
        if self.polys_left == 0 && self.ylops_left == 0 {
            // Nothing left to place: every face from here on must be 0
            // already, and every slot <= 0.
            return self.faces[k..].iter().all(|&f| self.val[f as usize] == 0)
                && self.val.iter().all(|&v| v <= 0);
        }
        self.at(k, 0, 0)
    }

    /// Chooses pieces starting at face `k`, in canonical order: kind `t`
    /// onward, and within kind `t` placement `p` onward.
    fn at(&mut self, k: usize, t: usize, p: u32) -> bool {
        self.steps += 1;
        let f = self.faces[k] as usize;
        let v = self.val[f];
        // Close this face.
        if v == 0 && self.row_ok(k) && self.face(k + 1) {
            return true;
        }
        // Ylops must bring a raised face back down, polys a lowered one up.
        if (v > 0 && v as u32 > self.ylops_left)
            || (v < 0 && (-(v as i32)) as u32 > self.polys_left)
        {
            return false;
        }
        for tt in t..self.kinds.len() {
            if self.kinds[tt].count == 0 {
                continue;
            }
            let sub = self.kinds[tt].subtractive;
            if !sub && self.val[f] >= 0 {
                break; // polys only raise the face further
            }
            let pl = self.kinds[tt].placements;
            let lo = pl.by_face[k];
            let hi = pl.by_face[k + 1];
            let from = if tt == t { lo.max(p) } else { lo };
            for pi in from..hi {
                let slots = &pl.list[pi as usize].slots;
                let delta: i8 = if sub { -1 } else { 1 };
                if !sub && self.ylops_left == 0 {
                    // Without ylops to come nothing is lowered again: the
                    // piece may only cover slots still below 0.
                    if slots.iter().any(|&s| self.val[s as usize] >= 0) {
                        continue;
                    }
                }
                for &s in slots {
                    self.val[s as usize] += delta;
                }
                self.kinds[tt].count -= 1;
                if sub {
                    self.ylops_left -= 1;
                } else {
                    self.polys_left -= 1;
                }
                let ok = self.at(k, tt, pi);
                self.kinds[tt].count += 1;
                if sub {
                    self.ylops_left += 1;
                } else {
                    self.polys_left += 1;
                }
                for &s in slots {
                    self.val[s as usize] -= delta;
                }
                if ok {
                    return true;
                }
            }
        }
        false
    }

    /// At the end of a face row, the slots no later piece can lower or raise
    /// must be settled: every slot in the rows above the face row's bottom
    /// edge row is final.
    fn row_ok(&self, k: usize) -> bool {
        let b = self.b;
        let f = self.faces[k] as usize;
        let y = f % b.h;
        let last_in_row = k + 1 == self.faces.len() || (self.faces[k + 1] as usize % b.h) != y;
        if !last_in_row {
            return true;
        }
        // Rows y-1 and y are final now (earlier rows were checked before).
        for x in 0..b.w {
            for yy in [y - 1, y] {
                if self.val[b.index(x, yy)] > 0 {
                    return false;
                }
            }
        }
        true
    }
}

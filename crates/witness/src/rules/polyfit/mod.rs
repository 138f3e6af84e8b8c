//! The polyomino fit of `docs/rules.md#polyominoes`, decided exactly but
//! without the engine's blow-up.
//!
//! The engine places every subtractive piece (ylop) anywhere, then tiles
//! with the pieces (polys). Its answer is a plain yes or no: do placements
//! exist such that the board `B0 − ylops + polys` is `<= 0` on every slot and
//! `== 0` on every face? (`B0` is −1 on the region's slots when the net area
//! is positive, else 0.)
//!
//! # The scan
//!
//! The same question is answered by one scan over the faces in row-major
//! order: every placement is filed under the first face it covers, and at
//! each face we choose the pieces that start there (ylops first, then polys;
//! identical pieces as multisets, never in every order). No later piece
//! touches an earlier face, so a face must be 0 once its pieces are chosen.
//!
//! # Final slots
//!
//! A piece whose first face is face `k`, at slot `(x, y)`, only covers slots
//! at or after the slot `(x, y − 1)` in row-major order: its top squares lie
//! in row `y` at columns `>= x` (a ylop adds their left and top edges, at
//! `(x − 1, y)` and `(x', y − 1)`), everything else lies lower. Call that
//! row-major position the cut of face `k`. Cuts grow with `k`, so once the
//! scan passes face `k` every slot before the cut of face `k + 1` is final
//! and is checked (`<= 0`) right away.
//!
//! # Failure memo (a broken-profile DP)
//!
//! What is left to decide when the scan enters face `k` depends only on `k`,
//! on the pieces still unplaced, and on the values of the slots that are not
//! final yet. Those three are hashed into a 128-bit key, and keys of states
//! that failed are remembered for the rest of the fit, so a sub-search is
//! never repeated: the same frontier reached by different arrangements of
//! earlier pieces (or with a cancelling ylop and poly pair still to come at
//! any of many positions) is explored once. The key is a sum of per-slot
//! and per-kind pseudo-random 64-bit multipliers times the values and
//! counts (two independent ones), so it is updated in O(1) per placed
//! piece; two different states collide with probability about 2^-128.
//! Small fits do without it: it starts after 1,024 steps.
//!
//! # Exact pruning
//!
//! * A face above 0 needs that many ylops still to place at it, one below 0
//!   that many polys (counting a piece twice where its footprint wraps
//!   onto itself on a narrow pillar, as it then covers a slot twice).
//! * A poly may raise a slot above 0 only if enough remaining ylops have a
//!   placement covering that slot that starts at a later face (ylops at the
//!   current face were chosen before any poly). For each kind and slot the
//!   last first face of a placement covering it is precomputed.
//! * A ylop may lower a face below 0 only if enough remaining polys have a
//!   placement covering that face starting at the current face or later.
//! * The last ylop, put down at a face it leaves below 0, needs a poly
//!   that can start there on slots below 0 only, as no ylop is left to
//!   lower what that poly raises. This is looked at before the ylop's
//!   bookkeeping is done: most places for a last ylop fail it.
//! * Ylop budget: only ylops lower values, so the positive values on the
//!   board, summed over faces (over other slots), may not exceed what the
//!   remaining ylops can lower: their count times the most faces (other
//!   slots) one placement covers. Kept up to date in O(1) per change.
//! * Poly needs: each remaining poly, wherever it goes from the current
//!   face on, raises above 0 at least the non-negative slots of its
//!   cheapest placement; those needs are added to the budget check when
//!   the scan enters a face (a poly with no placement left fails at once).
//!   Only in long fits (with the memo), where it pays for itself. Once
//!   every ylop is placed it is a quicker test: some placement lies on
//!   slots below 0 only.
//!
//! # Order
//!
//! Bigger kinds are tried first at each face (they are the hardest to
//! place), which finds fits much sooner in practice, and among kinds of
//! one size those with fewer placements (fewer orientations); the
//! multisets tried are the same in any order.
//!
//! # Stopping
//!
//! A fit can take exponential time. [`FitLimits`] lets a caller give a
//! deadline or cancel flags; an interrupted fit answers `true` and marks the
//! scratch as interrupted (see [`FitScratch::interrupted`]).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::board::Board;
use crate::model::SlotKind;

/// The splitmix64 finaliser: pseudo-random multipliers from small numbers.
const fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The two hash multipliers of a slot.
fn slot_mult(s: u32) -> [u64; 2] {
    [mix(2 * s as u64), mix(2 * s as u64 + 1)]
}

/// The hash multipliers of the counts of the first kinds of a fit.
const KIND_MULT: [[u64; 2]; 64] = {
    let mut out = [[0u64; 2]; 64];
    let mut t = 0;
    while t < 64 {
        out[t] = [
            mix(0x4b1d_0000 + 2 * t as u64),
            mix(0x4b1d_0001 + 2 * t as u64),
        ];
        t += 1;
    }
    out
};

/// The two hash multipliers of the count of the `t`-th kind of a fit.
fn kind_mult(t: usize) -> [u64; 2] {
    match KIND_MULT.get(t) {
        Some(&m) => m,
        None => [
            mix(0x4b1d_0000 + 2 * t as u64),
            mix(0x4b1d_0001 + 2 * t as u64),
        ],
    }
}

/// The two hash multipliers of the scan position.
const FACE_MULT: [u64; 2] = [0x2545_F491_4F6C_DD1D, 0x9FB2_1C65_1E98_DF25];

/// The scan geometry of a board, shared by every fit on it.
#[derive(Clone, Debug)]
pub struct Geometry {
    /// Faces in scan order (rows top to bottom, then columns).
    pub faces: Vec<u32>,
    /// Slots in row-major order.
    rm_slot: Vec<u32>,
    /// `cut[k]`: the row-major position of the slot above face `k`; no piece
    /// starting at face `k` or later covers a slot before it. `cut[n]` is
    /// the slot count.
    cut: Vec<u32>,
    /// True for faces.
    is_face: Vec<bool>,
    /// Hash multipliers per slot.
    mult: Vec<[u64; 2]>,
    /// Per slot: its index in `faces`, or `u32::MAX` for other slots.
    order: Vec<u32>,
    /// Per slot: its row-major position.
    rm_pos: Vec<u32>,
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

impl Geometry {
    /// The scan tables of a board.
    pub fn new(b: &Board) -> Geometry {
        let faces = scan_faces(b);
        let mut rm_slot = Vec::with_capacity(b.len());
        for y in 0..b.h {
            for x in 0..b.w {
                rm_slot.push(b.index(x, y) as u32);
            }
        }
        let mut cut: Vec<u32> = faces
            .iter()
            .map(|&f| {
                let (x, y) = (f as usize / b.h, f as usize % b.h);
                ((y - 1) * b.w + x) as u32
            })
            .collect();
        cut.push(b.len() as u32);
        let mut order = vec![u32::MAX; b.len()];
        for (k, &f) in faces.iter().enumerate() {
            order[f as usize] = k as u32;
        }
        let mut rm_pos = vec![0; b.len()];
        for (i, &s) in rm_slot.iter().enumerate() {
            rm_pos[s as usize] = i as u32;
        }
        Geometry {
            faces,
            rm_slot,
            cut,
            is_face: b.kind.iter().map(|&k| k == SlotKind::Face).collect(),
            mult: (0..b.len() as u32).map(slot_mult).collect(),
            order,
            rm_pos,
        }
    }
}

/// All placements of a shape on the board, sorted by first face order.
#[derive(Clone, Debug)]
pub struct Placements {
    /// The footprint slots of every placement, one after another, faces
    /// first (a slot twice where a footprint wraps onto itself on a narrow
    /// pillar).
    slots: Vec<u32>,
    /// `start[i]..start[i + 1]` are placement `i`'s slots, and
    /// `start[i]..face_end[i]` its faces.
    start: Vec<u32>,
    face_end: Vec<u32>,
    /// Per placement: the sums of its slots' hash multipliers.
    hash: Vec<[u64; 2]>,
    /// `by_face[k]..by_face[k+1]` are the placements whose first face is the
    /// k-th face in scan order.
    by_face: Vec<u32>,
    /// Per slot: the largest scan index of the first face of a placement
    /// covering it, or −1 when none does.
    last_cover: Vec<i32>,
    /// The most faces one placement covers (with multiplicity).
    max_faces: u32,
    /// The most other slots one placement covers (with multiplicity).
    max_edges: u32,
    /// The most times one placement covers a slot: 1, except where a
    /// footprint wraps onto itself on a narrow pillar.
    max_mult: u32,
}

impl Placements {
    /// Every placement of `shape` (all its orientations) whose footprint
    /// lies on the grid.
    pub fn new(b: &Board, shape: &crate::model::Polyomino, subtractive: bool) -> Placements {
        Placements::build(b, &Geometry::new(b), shape, subtractive)
    }

    /// [`Placements::new`] with the board's scan tables at hand.
    ///
    /// Placements come orientation by orientation, each at every face in
    /// scan order; a footprint equal (as a multiset of slots) to an earlier
    /// one is left out, and the rest are sorted stably by first face.
    pub fn build(
        b: &Board,
        g: &Geometry,
        shape: &crate::model::Polyomino,
        subtractive: bool,
    ) -> Placements {
        if b.pillar {
            Placements::build_any(b, g, shape, subtractive)
        } else {
            Placements::build_plain(b, g, shape, subtractive)
        }
    }

    /// Tables with room for `n` placements of `slots` slots in all, and
    /// none yet but the first-face index `by_face`.
    fn empty(b: &Board, by_face: Vec<u32>, n: usize, slots: usize) -> Placements {
        let mut start = Vec::with_capacity(n + 1);
        start.push(0);
        Placements {
            slots: Vec::with_capacity(slots),
            start,
            face_end: Vec::with_capacity(n),
            hash: Vec::with_capacity(n),
            by_face,
            last_cover: vec![-1; b.len()],
            max_faces: 0,
            max_edges: 0,
            max_mult: 1,
        }
    }

    /// The footprints of `shape`'s distinct orientations that cover any
    /// slot ([`crate::model::Polyomino::footprint`]).
    fn footprints(
        b: &Board,
        shape: &crate::model::Polyomino,
        subtractive: bool,
    ) -> Vec<Vec<(isize, isize)>> {
        let orientations = shape.orientations();
        (0..orientations.len())
            // A repeated orientation has the same footprints again.
            .filter(|&oi| !orientations[..oi].contains(&orientations[oi]))
            .map(|oi| orientations[oi].footprint(subtractive, b.precise))
            .filter(|fp| !fp.is_empty())
            .collect()
    }

    /// The bounding box `(x0, x1, y0, y1)` of a footprint's offsets, the
    /// anchor `(0, 0)` included.
    fn bounds(fp: &[(isize, isize)]) -> (isize, isize, isize, isize) {
        fp.iter().fold((0, 0, 0, 0), |(x0, x1, y0, y1), &(dx, dy)| {
            (x0.min(dx), x1.max(dx), y0.min(dy), y1.max(dy))
        })
    }

    /// Files the next placement in first-face order: first face `first`,
    /// its faces, then its other slots.
    fn file(
        &mut self,
        g: &Geometry,
        first: u32,
        faces: impl IntoIterator<Item = u32>,
        others: impl IntoIterator<Item = u32>,
    ) {
        let mut hash = [0u64; 2];
        let mut count = [0u32; 2];
        let mut add = |out: &mut Placements, s: u32| {
            let m = g.mult[s as usize];
            hash[0] = hash[0].wrapping_add(m[0]);
            hash[1] = hash[1].wrapping_add(m[1]);
            let lc = &mut out.last_cover[s as usize];
            *lc = (*lc).max(first as i32);
            out.slots.push(s);
        };
        for s in faces {
            add(self, s);
            count[0] += 1;
        }
        self.face_end.push(self.slots.len() as u32);
        for s in others {
            add(self, s);
            count[1] += 1;
        }
        self.max_faces = self.max_faces.max(count[0]);
        self.max_edges = self.max_edges.max(count[1]);
        self.start.push(self.slots.len() as u32);
        self.hash.push(hash);
    }

    /// [`Placements::build`] on a board without a pillar, where a footprint
    /// is its anchor face plus fixed slot offsets: so each orientation's
    /// offsets are sorted (faces, then the other slots) and its first face
    /// found once, and no two placements cover the same slots (the faces
    /// of a placement fix its orientation, as orientations are normalized
    /// and equal ones skipped, and its anchor). The same tables as
    /// [`Placements::build_any`], built in a fraction of the time.
    fn build_plain(
        b: &Board,
        g: &Geometry,
        shape: &crate::model::Polyomino,
        subtractive: bool,
    ) -> Placements {
        let faces = &g.faces;
        let (w, h) = (b.w as isize, b.h as isize);
        // Per orientation kept: its face offsets and other offsets (slot
        // index deltas from the anchor face, each sorted), the delta of its
        // first face in scan order, and its bounding box.
        struct Shape {
            faces: Vec<isize>,
            others: Vec<isize>,
            first: isize,
            bounds: (isize, isize, isize, isize),
        }
        let footprints = Placements::footprints(b, shape, subtractive);
        let mut shapes: Vec<Shape> = Vec::with_capacity(footprints.len());
        for fp in &footprints {
            // Scan order is by rows, then columns: the first face is the
            // one with the least (dy, dx) among the face offsets (even ones).
            let mut first = (isize::MAX, isize::MAX);
            let (mut fs, mut os) = (Vec::new(), Vec::new());
            for &(dx, dy) in fp {
                let delta = dx * h + dy;
                if dx % 2 == 0 && dy % 2 == 0 {
                    fs.push(delta);
                    first = first.min((dy, dx));
                } else {
                    os.push(delta);
                }
            }
            fs.sort_unstable();
            os.sort_unstable();
            shapes.push(Shape {
                faces: fs,
                others: os,
                first: first.1 * h + first.0,
                bounds: Placements::bounds(fp),
            });
        }
        // Every placement: (first face, orientation, anchor face).
        let mut list: Vec<(u32, u32, u32)> = Vec::with_capacity(shapes.len() * faces.len());
        for (k, sh) in shapes.iter().enumerate() {
            let (x0, x1, y0, y1) = sh.bounds;
            for &f in faces {
                let (fx, fy) = ((f as usize / b.h) as isize, (f as usize % b.h) as isize);
                if fy + y0 < 0 || fy + y1 >= h || fx + x0 < 0 || fx + x1 >= w {
                    continue;
                }
                let first = g.order[(f as isize + sh.first) as usize];
                list.push((first, k as u32, f));
            }
        }
        let (by_face, sorted) = by_first_face(&list, faces.len());
        let per = shapes.first().map_or(0, |s| s.faces.len() + s.others.len());
        let mut out = Placements::empty(b, by_face, list.len(), list.len() * per);
        for &i in &sorted {
            let (first, k, f) = list[i as usize];
            let sh = &shapes[k as usize];
            let at = |d: &isize| (f as isize + d) as u32;
            out.file(g, first, sh.faces.iter().map(at), sh.others.iter().map(at));
        }
        out
    }

    /// [`Placements::build`] on any board, pillars included (where a
    /// footprint may wrap onto itself or onto another placement's slots,
    /// which are then listed once).
    fn build_any(
        b: &Board,
        g: &Geometry,
        shape: &crate::model::Polyomino,
        subtractive: bool,
    ) -> Placements {
        let faces = &g.faces;
        let (w, h) = (b.w as isize, b.h as isize);
        // The sorted footprints, one after another: (first face, start, len).
        let orientations = shape.orientations();
        // (Room for every orientation at every face: no growing.)
        let most = orientations.len() * faces.len();
        let mut arena: Vec<u32> = Vec::new();
        let mut list: Vec<(u32, u32, u32)> = Vec::with_capacity(most);
        // Per first face the latest footprint filed there, and per
        // footprint the one before it: equal footprints share a first face.
        let mut head = vec![u32::MAX; faces.len()];
        let mut prev: Vec<u32> = Vec::with_capacity(most);
        for fp in &Placements::footprints(b, shape, subtractive) {
            if arena.capacity() == 0 {
                // Every orientation's footprint has as many slots.
                arena.reserve_exact(most * fp.len());
            }
            let (x0, x1, y0, y1) = Placements::bounds(fp);
            for &f in faces {
                let (fx, fy) = ((f as usize / b.h) as isize, (f as usize % b.h) as isize);
                if fy + y0 < 0 || fy + y1 >= h {
                    continue;
                }
                if !b.pillar && (fx + x0 < 0 || fx + x1 >= w) {
                    continue;
                }
                let base = arena.len();
                for &(dx, dy) in fp {
                    let mut x = fx + dx;
                    if b.pillar {
                        x = x.rem_euclid(w);
                    }
                    arena.push(b.index(x as usize, (fy + dy) as usize) as u32);
                }
                let slots = &mut arena[base..];
                slots.sort_unstable();
                let first = slots
                    .iter()
                    .map(|&s| g.order[s as usize])
                    .min()
                    .expect("a footprint has a face");
                let mut e = head[first as usize];
                let mut dup = false;
                while e != u32::MAX {
                    let (_, st, len) = list[e as usize];
                    if arena[st as usize..(st + len) as usize] == arena[base..] {
                        dup = true;
                        break;
                    }
                    e = prev[e as usize];
                }
                if dup {
                    arena.truncate(base);
                    continue;
                }
                prev.push(head[first as usize]);
                head[first as usize] = list.len() as u32;
                list.push((first, base as u32, fp.len() as u32));
            }
        }
        let (by_face, sorted) = by_first_face(&list, faces.len());
        let mut out = Placements::empty(b, by_face, list.len(), arena.len());
        for &i in &sorted {
            let (first, st, len) = list[i as usize];
            let slots = &arena[st as usize..(st + len) as usize];
            for w in slots.chunk_by(|a, b| a == b) {
                out.max_mult = out.max_mult.max(w.len() as u32);
            }
            let is_face = |s: &&u32| g.is_face[**s as usize];
            out.file(
                g,
                first,
                slots.iter().filter(is_face).copied(),
                slots.iter().filter(|s| !is_face(s)).copied(),
            );
        }
        out
    }

    /// Number of placements.
    pub fn len(&self) -> usize {
        self.hash.len()
    }

    /// True when the shape fits nowhere.
    pub fn is_empty(&self) -> bool {
        self.hash.is_empty()
    }

    /// The slots of placement `i`.
    fn slots(&self, i: u32) -> &[u32] {
        &self.slots[self.start[i as usize] as usize..self.start[i as usize + 1] as usize]
    }

    /// The faces and the other slots of placement `i`.
    pub fn parts(&self, i: u32) -> (&[u32], &[u32]) {
        let (a, f, z) = (
            self.start[i as usize] as usize,
            self.face_end[i as usize] as usize,
            self.start[i as usize + 1] as usize,
        );
        (&self.slots[a..f], &self.slots[f..z])
    }
}

/// A stable counting sort of placements `(first face, _, _)` by first
/// face, of `faces` faces: the start of each face's run in the order
/// (`faces + 1` entries), and the placements' indices in that order.
fn by_first_face(list: &[(u32, u32, u32)], faces: usize) -> (Vec<u32>, Vec<u32>) {
    let mut by_face = vec![0u32; faces + 1];
    for &(first, _, _) in list {
        by_face[first as usize + 1] += 1;
    }
    for k in 1..by_face.len() {
        by_face[k] += by_face[k - 1];
    }
    let mut next = by_face.clone();
    let mut sorted = vec![0u32; list.len()];
    for (i, &(first, _, _)) in list.iter().enumerate() {
        sorted[next[first as usize] as usize] = i as u32;
        next[first as usize] += 1;
    }
    (by_face, sorted)
}

/// One kind of piece in a fit: its placements, whether it subtracts, and
/// how many of it there are.
#[derive(Clone, Copy)]
pub struct PieceKind<'a> {
    /// Where it can go.
    pub placements: &'a Placements,
    /// A ylop rather than a poly.
    pub subtractive: bool,
    /// How many pieces of this kind.
    pub count: u32,
}

/// When a fit must give up: a deadline, cancel flags, or neither.
#[derive(Clone, Debug, Default)]
pub struct FitLimits {
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up when any of these becomes true.
    pub flags: Vec<Arc<AtomicBool>>,
    /// Give up after this many steps of one fit (a caller's work budget).
    pub max_steps: Option<u64>,
}

impl FitLimits {
    /// True when some limit is set.
    pub fn is_set(&self) -> bool {
        self.deadline.is_some() || !self.flags.is_empty() || self.max_steps.is_some()
    }

    /// True when the fit must stop now.
    pub fn expired(&self) -> bool {
        self.flags.iter().any(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// A hasher for keys that are already random: it keeps the last word.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 ^= n;
    }
}

/// The failure memo: 128-bit state keys.
type Memo = HashSet<(u64, u64), BuildHasherDefault<KeyHasher>>;

/// Most failed states one fit remembers.
const MEMO_CAP: usize = 1 << 20;

/// The memo starts after this many steps (small fits do without it). The
/// step count starts at `0xFFF`, so the first step looks at the limits.
const MEMO_FROM: u64 = 0xFFF + 1024;

/// Buffers and limits reused between fits.
#[derive(Clone, Debug, Default)]
pub struct FitScratch {
    val: Vec<i16>,
    memo: Memo,
    /// When fits must give up.
    pub limits: FitLimits,
    /// Set when a fit gave up; cleared only by [`FitScratch::clear_interrupted`].
    interrupted: bool,
    /// Set when the latest fit gave up.
    last_interrupted: bool,
    /// The steps the latest fit took.
    last_steps: u64,
    /// The steps of all fits so far.
    total_steps: u64,
}

impl FitScratch {
    /// True when a fit gave up on its limits since the last
    /// [`FitScratch::clear_interrupted`]: its answer (`true`) was a guess.
    pub fn interrupted(&self) -> bool {
        self.interrupted
    }

    /// True when the latest fit gave up on its limits.
    pub fn last_interrupted(&self) -> bool {
        self.last_interrupted
    }

    /// How many search steps the latest fit took (0 when it needed none).
    pub fn last_steps(&self) -> u64 {
        self.last_steps
    }

    /// How many search steps all fits so far took.
    pub fn total_steps(&self) -> u64 {
        self.total_steps
    }

    /// Forgets an earlier interruption.
    pub fn clear_interrupted(&mut self) {
        self.interrupted = false;
    }

    /// Raises the interruption flag again (after a caller cleared it to
    /// watch one fit).
    pub fn raise_interrupted(&mut self) {
        self.interrupted = true;
    }
}

mod scan;

pub use scan::fits;

#[cfg(test)]
mod tests;

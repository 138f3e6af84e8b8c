//! The polyomino fit of spec §5.6, decided exactly but without the engine's
//! blow-up.
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
    fn parts(&self, i: u32) -> (&[u32], &[u32]) {
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

/// Decides whether the pieces fit. `region` lists the region's slots (used
/// when the pieces must tile it); `region_faces` is its face count.
/// `polys_area` and `ylops_area` are the total sizes. Zero-size pieces are
/// not passed here: the caller applies their rule.
///
/// With limits set in `fs`, a fit that runs past them answers `true` and
/// marks `fs` as interrupted.
#[allow(clippy::too_many_arguments)]
pub fn fits<'a>(
    g: &'a Geometry,
    b: &'a Board,
    region: &[u32],
    region_faces: usize,
    kinds: &mut [PieceKind<'a>],
    polys_area: usize,
    ylops_area: usize,
    fs: &mut FitScratch,
) -> bool {
    fs.last_interrupted = false;
    fs.last_steps = 0;
    let net = polys_area as isize - ylops_area as isize;
    if net < 0 || (net > 0 && net as usize != region_faces) {
        return false;
    }
    if fs.interrupted && fs.limits.is_set() && fs.limits.expired() {
        fs.last_interrupted = true;
        return true;
    }
    let mut val = std::mem::take(&mut fs.val);
    val.clear();
    val.resize(b.len(), 0);
    let hv = if net > 0 {
        start_board(g, &mut val, region)
    } else {
        [0; 2]
    };
    let mut memo = std::mem::take(&mut fs.memo);
    let mut search = Search::new(g, &mut val, hv, kinds, &mut memo, &fs.limits);
    let found = search.face(0);
    let aborted = search.aborted;
    fs.last_steps = search.steps - 0xFFF;
    fs.total_steps += fs.last_steps;
    if memo.capacity() > 1 << 16 {
        memo = Memo::default(); // give the memory back
    } else {
        memo.clear();
    }
    fs.memo = memo;
    fs.val = val;
    if aborted {
        fs.interrupted = true;
        fs.last_interrupted = true;
        return true;
    }
    found
}

/// Sets the board `B0` of a fit with net area above 0 (−1 on every slot
/// of `region`) on `val`, all 0 before, and returns its part of the state
/// hash: the slots from the first cut on, times their multipliers. Only
/// the region's slots are looked at, not the whole board: most fits are
/// over in a few steps.
fn start_board(g: &Geometry, val: &mut [i16], region: &[u32]) -> [u64; 2] {
    let mut hv = [0u64; 2];
    for &s in region {
        let v = &mut val[s as usize];
        if *v == 0 {
            *v = -1;
            if g.rm_pos[s as usize] >= g.cut[0] {
                let m = g.mult[s as usize];
                hv[0] = hv[0].wrapping_sub(m[0]);
                hv[1] = hv[1].wrapping_sub(m[1]);
            }
        }
    }
    hv
}

/// The state of one fit's scan.
struct Search<'a, 'k> {
    g: &'a Geometry,
    val: &'k mut [i16],
    kinds: &'k mut [PieceKind<'a>],
    /// `kinds[..n_ylop_kinds]` are the ylops, the rest polys.
    n_ylop_kinds: usize,
    polys_left: u32,
    ylops_left: u32,
    /// The most the remaining polys can raise one slot.
    poly_reach: u32,
    /// The most the remaining ylops can lower one slot.
    ylop_reach: u32,
    /// The sum of the positive values on faces.
    over_faces: u32,
    /// The sum of the positive values on other slots.
    over_edges: u32,
    /// The most face values the remaining ylops can lower.
    face_cap: u32,
    /// The most other slot values the remaining ylops can lower.
    edge_cap: u32,
    /// The state hash without the scan position: the values of the slots
    /// not final yet and the counts, times their multipliers.
    hv: [u64; 2],
    memo: &'k mut Memo,
    steps: u64,
    limits: &'k FitLimits,
    aborted: bool,
}

impl<'a, 'k> Search<'a, 'k> {
    /// The scan at its start: the board `val` (B0), its part of the state
    /// hash ([`start_board`]) and the pieces.
    fn new(
        g: &'a Geometry,
        val: &'k mut [i16],
        mut hv: [u64; 2],
        kinds: &'k mut [PieceKind<'a>],
        memo: &'k mut Memo,
        limits: &'k FitLimits,
    ) -> Search<'a, 'k> {
        // Ylops first: at a face they can only lower the value, polys
        // raise it. Big pieces first: they are the hardest to place; then
        // those with fewer placements.
        kinds.sort_by_key(|k| {
            (
                !k.subtractive,
                std::cmp::Reverse(k.placements.max_faces),
                k.placements.len(),
            )
        });
        let n_ylop_kinds = kinds.iter().take_while(|k| k.subtractive).count();
        let (mut polys_left, mut ylops_left, mut face_cap, mut edge_cap) = (0, 0, 0, 0);
        let (mut poly_reach, mut ylop_reach) = (0, 0);
        for (t, k) in kinds.iter().enumerate() {
            if k.subtractive {
                ylops_left += k.count;
                ylop_reach += k.count * k.placements.max_mult;
                face_cap += k.count * k.placements.max_faces;
                edge_cap += k.count * k.placements.max_edges;
            } else {
                polys_left += k.count;
                poly_reach += k.count * k.placements.max_mult;
            }
            let km = kind_mult(t);
            hv[0] = hv[0].wrapping_add(km[0].wrapping_mul(k.count as u64));
            hv[1] = hv[1].wrapping_add(km[1].wrapping_mul(k.count as u64));
        }
        Search {
            g,
            val,
            kinds,
            n_ylop_kinds,
            polys_left,
            ylops_left,
            poly_reach,
            ylop_reach,
            over_faces: 0,
            over_edges: 0,
            face_cap,
            edge_cap,
            hv,
            memo,
            // The first step already looks at the limits.
            steps: 0xFFF,
            limits,
            aborted: false,
        }
    }
}

impl Search<'_, '_> {
    /// Enters face `k`: every slot before its cut is final and checked, and
    /// every earlier face is 0.
    fn face(&mut self, k: usize) -> bool {
        let g = self.g;
        if k == g.faces.len() {
            return self.polys_left == 0 && self.ylops_left == 0;
        }
        if self.polys_left == 0 && self.ylops_left == 0 {
            // Nothing left to place: every face from here on must be 0
            // already, and every other slot <= 0.
            return g.rm_slot[g.cut[k] as usize..].iter().all(|&s| {
                let v = self.val[s as usize];
                v == 0 || (v < 0 && !g.is_face[s as usize])
            });
        }
        let kk = k as u64 + 1;
        let key = (
            self.hv[0].wrapping_add(FACE_MULT[0].wrapping_mul(kk)),
            self.hv[1].wrapping_add(FACE_MULT[1].wrapping_mul(kk)),
        );
        let memo = self.steps >= MEMO_FROM;
        if memo && self.memo.contains(&key) {
            return false;
        }
        // The needs bound pays off in long fits only.
        let found = (!memo || self.needs_ok(k)) && self.at(k, 0, 0);
        if memo && !found && !self.aborted && self.memo.len() < MEMO_CAP {
            self.memo.insert(key);
        }
        found
    }

    /// True when the remaining ylops can lower every positive value now on
    /// the board plus, for every remaining poly, the non-negative slots of
    /// its cheapest placement from face `k` on (faces and other slots
    /// counted apart). Each poly raises those slots above 0 whatever else
    /// happens, and a ylop lowers at most its own footprint.
    fn needs_ok(&self, k: usize) -> bool {
        if self.ylops_left == 0 {
            return self.polys_fit_somewhere(k);
        }
        let mut need_f = self.over_faces;
        let mut need_e = self.over_edges;
        for t in &self.kinds[self.n_ylop_kinds..] {
            if t.count == 0 {
                continue;
            }
            let pl = t.placements;
            let (mut mf, mut me) = (u32::MAX, u32::MAX);
            for pi in pl.by_face[k]..pl.len() as u32 {
                let (faces, others) = pl.parts(pi);
                let nonneg = |s: &&u32| self.val[**s as usize] >= 0;
                let a = faces.iter().filter(nonneg).count() as u32;
                let e = others.iter().filter(nonneg).count() as u32;
                mf = mf.min(a);
                me = me.min(e);
                if mf == 0 && me == 0 {
                    break;
                }
            }
            if mf == u32::MAX {
                return false; // it fits nowhere
            }
            need_f += t.count * mf;
            need_e += t.count * me;
            if need_f > self.face_cap || need_e > self.edge_cap {
                return false;
            }
        }
        true
    }

    /// [`Search::needs_ok`] with every ylop placed, when both caps are 0:
    /// true when every remaining poly kind still has a placement from face
    /// `k` on that covers only slots below 0. It stops at the first one
    /// instead of counting every placement's slots.
    fn polys_fit_somewhere(&self, k: usize) -> bool {
        self.kinds[self.n_ylop_kinds..].iter().all(|t| {
            let pl = t.placements;
            t.count == 0 || self.any_below_zero(pl, pl.by_face[k]..pl.len() as u32)
        })
    }

    /// True when one of the placements `range` of `pl` covers only slots
    /// below 0: a poly can go there with no ylop to lower it after.
    fn any_below_zero(&self, pl: &Placements, range: std::ops::Range<u32>) -> bool {
        range
            .into_iter()
            .any(|pi| pl.slots(pi).iter().all(|&s| self.val[s as usize] < 0))
    }

    /// Moves past face `k` (its value 0): checks the slots that become final
    /// and goes on to face `k + 1`.
    fn close(&mut self, k: usize) -> bool {
        let g = self.g;
        let mut dh = [0u64; 2];
        for &s in &g.rm_slot[g.cut[k] as usize..g.cut[k + 1] as usize] {
            let v = self.val[s as usize];
            if v > 0 {
                return false;
            }
            let m = g.mult[s as usize];
            dh[0] = dh[0].wrapping_add(m[0].wrapping_mul(v as i64 as u64));
            dh[1] = dh[1].wrapping_add(m[1].wrapping_mul(v as i64 as u64));
        }
        self.hv[0] = self.hv[0].wrapping_sub(dh[0]);
        self.hv[1] = self.hv[1].wrapping_sub(dh[1]);
        let found = self.face(k + 1);
        self.hv[0] = self.hv[0].wrapping_add(dh[0]);
        self.hv[1] = self.hv[1].wrapping_add(dh[1]);
        found
    }

    /// How much the remaining ylops could still lower slot `s` from faces
    /// after face `k`.
    fn ylops_after(&self, s: u32, k: usize) -> u32 {
        self.kinds[..self.n_ylop_kinds]
            .iter()
            .filter(|t| t.count > 0 && t.placements.last_cover[s as usize] > k as i32)
            .map(|t| t.count * t.placements.max_mult)
            .sum()
    }

    /// How much the remaining polys could still raise slot `s` from face
    /// `k` on.
    fn polys_from(&self, s: u32, k: usize) -> u32 {
        self.kinds[self.n_ylop_kinds..]
            .iter()
            .filter(|t| t.count > 0 && t.placements.last_cover[s as usize] >= k as i32)
            .map(|t| t.count * t.placements.max_mult)
            .sum()
    }

    /// True when placement `pi` of kind `tt` at face `k` leaves the board
    /// repairable: a poly raises no slot beyond what later ylops can lower,
    /// a ylop lowers no face beyond what polys can fill.
    fn placeable(&self, tt: usize, pi: u32, k: usize) -> bool {
        let pl = self.kinds[tt].placements;
        if tt >= self.n_ylop_kinds {
            for &s in pl.slots(pi) {
                let nv = self.val[s as usize] + 1;
                if nv > 0 && (self.ylops_left == 0 || nv as u32 > self.ylops_after(s, k)) {
                    return false;
                }
            }
        } else {
            for &s in pl.parts(pi).0 {
                let nv = self.val[s as usize] - 1;
                if nv < 0 && (self.polys_left == 0 || (-nv) as u32 > self.polys_from(s, k)) {
                    return false;
                }
            }
        }
        true
    }

    /// For the last ylop, placement `pi` of kind `tt` at face `k`: true
    /// unless it leaves face `k` below 0 with no poly able to start there.
    /// Once it is down no ylop can lower anything, so a poly there must
    /// cover slots below 0 only. Decided on the values alone, without the
    /// bookkeeping of [`Search::apply`]; most such placements fail here.
    fn last_ylop_leaves_room(&mut self, tt: usize, pi: u32, k: usize) -> bool {
        let f = self.g.faces[k] as usize;
        let slots = self.kinds[tt].placements.slots(pi);
        for &s in slots {
            self.val[s as usize] -= 1;
        }
        let room = self.val[f] >= 0
            || self.kinds[self.n_ylop_kinds..].iter().any(|t| {
                let pl = t.placements;
                t.count > 0 && self.any_below_zero(pl, pl.by_face[k]..pl.by_face[k + 1])
            });
        for &s in slots {
            self.val[s as usize] += 1;
        }
        room
    }

    /// Puts placement `pi` of kind `tt` down (`sign` 1) or takes it back up
    /// (`sign` −1), keeping the counts, sums and hash up to date.
    fn apply(&mut self, tt: usize, pi: u32, sign: i16) {
        let pl = self.kinds[tt].placements;
        let sub = tt < self.n_ylop_kinds;
        let delta = if sub { -sign } else { sign };
        let (faces, others) = pl.parts(pi);
        // A step of ±1 changes the positive sum by ±1 exactly where the
        // value is above 0 after a raise or before a lowering.
        let above = if delta > 0 { 0 } else { 1 };
        let mut over = |slots: &[u32]| -> i32 {
            let mut n = 0;
            for &s in slots {
                let v = &mut self.val[s as usize];
                n += (*v >= above) as i32;
                *v += delta;
            }
            n * i32::from(delta)
        };
        let df = over(faces);
        let de = over(others);
        self.over_faces = (self.over_faces as i32 + df) as u32;
        self.over_edges = (self.over_edges as i32 + de) as u32;
        let h = pl.hash[pi as usize];
        let d = delta as i64 as u64;
        let c = sign as i64 as u64;
        let km = kind_mult(tt);
        self.hv[0] = self.hv[0]
            .wrapping_add(h[0].wrapping_mul(d))
            .wrapping_sub(km[0].wrapping_mul(c));
        self.hv[1] = self.hv[1]
            .wrapping_add(h[1].wrapping_mul(d))
            .wrapping_sub(km[1].wrapping_mul(c));
        let n = sign as i32;
        self.kinds[tt].count = (self.kinds[tt].count as i32 - n) as u32;
        let reach = n * pl.max_mult as i32;
        if sub {
            self.ylops_left = (self.ylops_left as i32 - n) as u32;
            self.ylop_reach = (self.ylop_reach as i32 - reach) as u32;
            self.face_cap = (self.face_cap as i32 - n * pl.max_faces as i32) as u32;
            self.edge_cap = (self.edge_cap as i32 - n * pl.max_edges as i32) as u32;
        } else {
            self.polys_left = (self.polys_left as i32 - n) as u32;
            self.poly_reach = (self.poly_reach as i32 - reach) as u32;
        }
    }

    /// Chooses pieces starting at face `k`, in canonical order: kind `t`
    /// onward, and within kind `t` placement `p` onward.
    fn at(&mut self, k: usize, t: usize, p: u32) -> bool {
        self.steps += 1;
        if self.steps & 0xFFF == 0
            && self.limits.is_set()
            && (self.limits.expired()
                || self
                    .limits
                    .max_steps
                    .is_some_and(|m| self.steps - 0xFFF > m))
        {
            self.aborted = true;
        }
        if self.aborted {
            return false;
        }
        // Every positive value needs remaining ylops to lower it.
        if self.over_faces > self.face_cap || self.over_edges > self.edge_cap {
            return false;
        }
        let f = self.g.faces[k] as usize;
        let v = self.val[f];
        // Close this face.
        if v == 0 && self.close(k) {
            return true;
        }
        // Ylops must bring a raised face back down, polys a lowered one up.
        if v > 0 && (t >= self.n_ylop_kinds || v as u32 > self.ylop_reach) {
            return false;
        }
        if v < 0 && (-v) as u32 > self.poly_reach {
            return false;
        }
        for tt in t..self.kinds.len() {
            if self.kinds[tt].count == 0 {
                continue;
            }
            if tt >= self.n_ylop_kinds && self.val[f] >= 0 {
                break; // polys only raise the face further
            }
            let pl = self.kinds[tt].placements;
            let lo = pl.by_face[k];
            let hi = pl.by_face[k + 1];
            let from = if tt == t { lo.max(p) } else { lo };
            for pi in from..hi {
                if !self.placeable(tt, pi, k) {
                    continue;
                }
                if tt < self.n_ylop_kinds
                    && self.ylops_left == 1
                    && !self.last_ylop_leaves_room(tt, pi, k)
                {
                    continue;
                }
                self.apply(tt, pi, 1);
                let found = self.at(k, tt, pi);
                self.apply(tt, pi, -1);
                if found {
                    return true;
                }
                if self.aborted {
                    return false;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Polyomino, Puzzle};

    /// A board `fw` x `fh` faces.
    fn board(fw: usize, fh: usize, pillar: bool, precise: bool) -> Board {
        let p = Puzzle::new(fw, fh, pillar).unwrap();
        let mut b = Board::new(&p).unwrap();
        b.precise = precise;
        b
    }

    /// The face slot at face coordinates `(i, j)`.
    fn face(b: &Board, i: usize, j: usize) -> u32 {
        b.index(2 * i + 1, 2 * j + 1) as u32
    }

    /// A region made of the given faces and every edge or node whose faces
    /// on the grid are all among them.
    fn region(b: &Board, faces: &[(usize, usize)]) -> Vec<u32> {
        let set: Vec<u32> = faces.iter().map(|&(i, j)| face(b, i, j)).collect();
        let mut out = set.clone();
        for s in 0..b.len() {
            let offsets: [(isize, isize); 4] = match b.kind[s] {
                SlotKind::Face => continue,
                SlotKind::Node => [(-1, -1), (1, -1), (-1, 1), (1, 1)],
                _ => [(-1, 0), (1, 0), (0, -1), (0, 1)],
            };
            let (x, y) = ((s / b.h) as isize, (s % b.h) as isize);
            let around: Vec<u32> = offsets
                .iter()
                .filter_map(|&(dx, dy)| {
                    let (mut fx, fy) = (x + dx, y + dy);
                    if b.pillar {
                        fx = fx.rem_euclid(b.w as isize);
                    }
                    if fx < 0 || fy < 0 || fx >= b.w as isize || fy >= b.h as isize {
                        return None;
                    }
                    let f = b.index(fx as usize, fy as usize);
                    (b.kind[f] == SlotKind::Face).then_some(f as u32)
                })
                .collect();
            if !around.is_empty() && around.iter().all(|f| set.contains(f)) {
                out.push(s as u32);
            }
        }
        out
    }

    /// A shape from its squares.
    fn shape(cells: &[(u8, u8)], rotatable: bool) -> Polyomino {
        Polyomino::new(cells.iter().copied(), rotatable)
    }

    /// The pieces grouped into kinds with their placement tables.
    fn tables(b: &Board, pieces: &[(Polyomino, bool)]) -> (Vec<Placements>, Vec<(bool, u32)>) {
        let mut keys: Vec<&(Polyomino, bool)> = Vec::new();
        let mut counts = Vec::new();
        for p in pieces {
            match keys.iter().position(|k| *k == p) {
                Some(i) => counts[i] += 1,
                None => {
                    keys.push(p);
                    counts.push(1);
                }
            }
        }
        let pl = keys
            .iter()
            .map(|(s, sub)| Placements::new(b, s, *sub))
            .collect();
        let info = keys.iter().zip(counts).map(|(k, c)| (k.1, c)).collect();
        (pl, info)
    }

    /// `fits` on a region and a list of pieces (shape, subtractive).
    /// The piece kinds of a test fit over its placement tables.
    fn kinds_of<'a>(pl: &'a [Placements], info: &[(bool, u32)]) -> Vec<PieceKind<'a>> {
        pl.iter()
            .zip(info)
            .map(|(p, &(sub, count))| PieceKind {
                placements: p,
                subtractive: sub,
                count,
            })
            .collect()
    }

    fn run(b: &Board, region: &[u32], pieces: &[(Polyomino, bool)]) -> bool {
        run_with(b, region, pieces, &mut FitScratch::default())
    }

    fn run_with(
        b: &Board,
        region: &[u32],
        pieces: &[(Polyomino, bool)],
        fs: &mut FitScratch,
    ) -> bool {
        let g = Geometry::new(b);
        let (pl, info) = tables(b, pieces);
        let mut kinds = kinds_of(&pl, &info);
        let area = |sub: bool| -> usize {
            pieces
                .iter()
                .filter(|p| p.1 == sub)
                .map(|p| p.0.size())
                .sum()
        };
        let region_faces = region
            .iter()
            .filter(|&&s| b.kind[s as usize] == SlotKind::Face)
            .count();
        fits(
            &g,
            b,
            region,
            region_faces,
            &mut kinds,
            area(false),
            area(true),
            fs,
        )
    }

    /// Builds the scan state of a fit at its start and hands it to `probe`.
    fn probe<R>(
        b: &Board,
        region: &[u32],
        pieces: &[(Polyomino, bool)],
        probe: impl FnOnce(&mut Search, &Board) -> R,
    ) -> R {
        let g = Geometry::new(b);
        let (pl, info) = tables(b, pieces);
        let mut kinds = kinds_of(&pl, &info);
        let mut val = vec![0i16; b.len()];
        let hv = start_board(&g, &mut val, region);
        let mut memo = Memo::default();
        let limits = FitLimits::default();
        let mut s = Search::new(&g, &mut val, hv, &mut kinds, &mut memo, &limits);
        probe(&mut s, b)
    }

    /// The index of the placement of kind `tt` covering exactly these faces.
    fn placement(s: &Search, tt: usize, faces: &[u32]) -> u32 {
        let pl = s.kinds[tt].placements;
        (0..pl.len() as u32)
            .find(|&i| {
                let mut f: Vec<u32> = pl
                    .slots(i)
                    .iter()
                    .copied()
                    .filter(|&x| s.g.is_face[x as usize])
                    .collect();
                f.sort_unstable();
                let mut want = faces.to_vec();
                want.sort_unstable();
                f == want
            })
            .expect("no such placement")
    }

    // ---- The engine's own search, literally (spec §5.6 steps 6–8) ----

    /// The slots of `shape`'s footprint anchored at face `(x, y)`, if it
    /// lies on the grid (x wrapped on pillars).
    fn anchor(b: &Board, shape: &Polyomino, sub: bool, x: usize, y: usize) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        for (dx, dy) in shape.footprint(sub, b.precise) {
            let mut sx = x as isize + dx;
            let sy = y as isize + dy;
            if b.pillar {
                sx = sx.rem_euclid(b.w as isize);
            }
            if sx < 0 || sy < 0 || sx >= b.w as isize || sy >= b.h as isize {
                return None;
            }
            out.push(b.index(sx as usize, sy as usize));
        }
        Some(out)
    }

    /// `polyFit` steps 3–8 for non-empty pieces.
    fn engine(b: &Board, region: &[u32], pieces: &[(Polyomino, bool)]) -> bool {
        let polys: Vec<Polyomino> = pieces
            .iter()
            .filter(|p| !p.1)
            .map(|p| p.0.clone())
            .collect();
        let ylops: Vec<Polyomino> = pieces.iter().filter(|p| p.1).map(|p| p.0.clone()).collect();
        if polys.is_empty() && ylops.is_empty() {
            return true;
        }
        let region_faces = region
            .iter()
            .filter(|&&s| b.kind[s as usize] == SlotKind::Face)
            .count() as isize;
        let net = polys.iter().map(|p| p.size() as isize).sum::<isize>()
            - ylops.iter().map(|p| p.size() as isize).sum::<isize>();
        if (net > 0 && net != region_faces) || net < 0 {
            return false;
        }
        let mut val = vec![0i32; b.len()];
        if net > 0 {
            for &s in region {
                val[s as usize] = -1;
            }
        }
        place_ylops(b, &mut val, &ylops, 0, &polys)
    }

    /// `placeYlops`: every ylop at every face and orientation, in turn.
    fn place_ylops(
        b: &Board,
        val: &mut [i32],
        ylops: &[Polyomino],
        i: usize,
        polys: &[Polyomino],
    ) -> bool {
        if i == ylops.len() {
            let mut rest: Vec<Polyomino> = polys.to_vec();
            return place_polys(b, val, &mut rest);
        }
        for x in (1..b.w).step_by(2) {
            for y in (1..b.h).step_by(2) {
                for o in ylops[i].orientations() {
                    if let Some(fp) = anchor(b, &o, true, x, y) {
                        fp.iter().for_each(|&s| val[s] -= 1);
                        let ok = place_ylops(b, val, ylops, i + 1, polys);
                        fp.iter().for_each(|&s| val[s] += 1);
                        if ok {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// `placePolys`: tile from the first open face.
    fn place_polys(b: &Board, val: &mut [i32], polys: &mut Vec<Polyomino>) -> bool {
        if val.iter().any(|&v| v > 0) {
            return false;
        }
        let is_face = |s: usize| b.kind[s] == SlotKind::Face;
        if polys.is_empty() {
            return (0..b.len()).all(|s| !is_face(s) || val[s] >= 0);
        }
        let mut open = Vec::new();
        let mut row = 0;
        for y in (1..b.h).step_by(2) {
            for x in (1..b.w).step_by(2) {
                if val[b.index(x, y)] < 0 {
                    open.push(x);
                    if !b.pillar {
                        break;
                    }
                }
            }
            if !open.is_empty() {
                row = y;
                break;
            }
        }
        for &x in &open {
            let mut tried: Vec<Polyomino> = Vec::new();
            for i in 0..polys.len() {
                if tried.contains(&polys[i]) {
                    continue;
                }
                tried.push(polys[i].clone());
                let p = polys.remove(i);
                for o in p.orientations() {
                    if let Some(fp) = anchor(b, &o, false, x, row) {
                        fp.iter().for_each(|&s| val[s] += 1);
                        let ok = place_polys(b, val, polys);
                        fp.iter().for_each(|&s| val[s] -= 1);
                        if ok {
                            polys.insert(i, p);
                            return true;
                        }
                    }
                }
                polys.insert(i, p);
            }
        }
        false
    }

    /// Checks `fits` against the engine and returns the answer.
    fn both(b: &Board, region: &[u32], pieces: &[(Polyomino, bool)]) -> bool {
        let want = engine(b, region, pieces);
        assert_eq!(
            run(b, region, pieces),
            want,
            "pieces {pieces:?} region {region:?}"
        );
        want
    }

    /// The placement tables list each footprint (as a multiset of slots)
    /// once, and every one that lies on the board: against every
    /// orientation at every face, gathered in a set. Without a pillar the
    /// tables are built by offsets, with no duplicate search (the faces fix
    /// the orientation and the anchor), so symmetric shapes are here too,
    /// and they must equal the general build's.
    #[test]
    fn placements_list_every_footprint_once() {
        let shapes = [
            shape(&[(0, 0), (1, 0)], true),
            shape(&[(0, 0), (1, 0), (0, 1), (1, 1)], true),
            shape(&[(1, 0), (2, 0), (0, 1), (1, 1)], true),
            shape(&[(0, 0), (1, 0), (2, 0), (1, 1)], true),
            shape(&[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], true),
            shape(&[(0, 0), (0, 1), (0, 2), (1, 2)], false),
            shape(&[(0, 0), (2, 0), (1, 1)], true),
        ];
        for (fw, fh, pillar) in [(4, 3, false), (5, 5, false), (4, 3, true), (2, 4, true)] {
            for precise in [false, true] {
                let b = board(fw, fh, pillar, precise);
                let g = Geometry::new(&b);
                for sh in &shapes {
                    for sub in [false, true] {
                        let pl = Placements::build(&b, &g, sh, sub);
                        if !pillar {
                            // The plain build makes the general one's tables,
                            // placements in the same order.
                            let any = Placements::build_any(&b, &g, sh, sub);
                            assert_eq!(format!("{pl:?}"), format!("{any:?}"), "{fw}x{fh}");
                        }
                        let mut got: Vec<Vec<u32>> = (0..pl.len() as u32)
                            .map(|i| {
                                let mut v = pl.slots(i).to_vec();
                                v.sort_unstable();
                                v
                            })
                            .collect();
                        let n = got.len();
                        got.sort();
                        got.dedup();
                        assert_eq!(got.len(), n, "{fw}x{fh} pillar {pillar}: a footprint twice");
                        let mut want = std::collections::BTreeSet::new();
                        for o in sh.orientations() {
                            let fp = o.footprint(sub, precise);
                            for &f in &g.faces {
                                let (fx, fy) =
                                    ((f as usize / b.h) as isize, (f as usize % b.h) as isize);
                                let mut slots = Vec::new();
                                for &(dx, dy) in &fp {
                                    let (mut x, y) = (fx + dx, fy + dy);
                                    if pillar {
                                        x = x.rem_euclid(b.w as isize);
                                    }
                                    if x < 0 || y < 0 || x >= b.w as isize || y >= b.h as isize {
                                        slots.clear();
                                        break;
                                    }
                                    slots.push(b.index(x as usize, y as usize) as u32);
                                }
                                if !slots.is_empty() {
                                    slots.sort_unstable();
                                    want.insert(slots);
                                }
                            }
                        }
                        let want: Vec<Vec<u32>> = want.into_iter().collect();
                        assert_eq!(got, want, "{fw}x{fh} pillar {pillar} precise {precise}");
                    }
                }
            }
        }
    }

    // ---- Hand-made boards ----

    #[test]
    fn plain_tilings() {
        let b = board(2, 1, false, true);
        let r = region(&b, &[(0, 0), (1, 0)]);
        assert!(both(&b, &r, &[(shape(&[(0, 0), (1, 0)], false), false)]));
        // A fixed vertical domino fits nowhere on one row: cut at once.
        let vert = shape(&[(0, 0), (0, 1)], false);
        assert!(!both(&b, &r, &[(vert.clone(), false)]));
        assert!(!probe(&b, &r, &[(vert, false)], |s, _| s.needs_ok(0)));
        // Rotatable, it lies down.
        assert!(both(&b, &r, &[(shape(&[(0, 0), (0, 1)], true), false)]));
    }

    #[test]
    fn a_poly_may_not_straddle_a_path_edge() {
        let b = board(2, 1, false, true);
        let mut r = region(&b, &[(0, 0), (1, 0)]);
        let mid = b.index(2, 1) as u32;
        r.retain(|&s| s != mid);
        let dom = (shape(&[(0, 0), (1, 0)], false), false);
        // The inner edge stays 0, the domino raises it, no ylop can lower it.
        assert!(!probe(&b, &r, std::slice::from_ref(&dom), |s, b| {
            let pi = placement(s, 0, &[face(b, 0, 0), face(b, 1, 0)]);
            s.placeable(0, pi, 0)
        }));
        assert!(!both(&b, &r, std::slice::from_ref(&dom)));
        // Without precise footprints it may.
        let b2 = board(2, 1, false, false);
        assert!(both(&b2, &r, &[dom]));
    }

    #[test]
    fn an_overhang_needs_a_ylop_under_it() {
        let b = board(2, 1, false, true);
        let r = region(&b, &[(0, 0)]);
        let dom = (shape(&[(0, 0), (1, 0)], false), false);
        let mono = shape(&[(0, 0)], false);
        assert!(both(&b, &r, &[dom.clone(), (mono.clone(), true)]));
        // On a single face there is nowhere to hang over.
        let b1 = board(1, 1, false, true);
        let r1 = region(&b1, &[(0, 0)]);
        assert!(!both(&b1, &r1, &[dom, (mono, true)]));
    }

    #[test]
    fn the_ylops_bound_the_overhang() {
        // Two dominoes on the two left faces of a 3x1 board, with two
        // monomino ylops: stacking both dominoes on the right pair raises
        // the faces by 3 in all, more than the ylops can take back.
        let b = board(3, 1, false, true);
        let r = region(&b, &[(0, 0), (1, 0)]);
        let dom = shape(&[(0, 0), (1, 0)], false);
        let mono = shape(&[(0, 0)], false);
        let pieces = [
            (mono.clone(), true),
            (mono, true),
            (dom.clone(), false),
            (dom, false),
        ];
        probe(&b, &r, &pieces, |s, b| {
            assert_eq!(s.face_cap, 2);
            let pi = placement(s, 1, &[face(b, 1, 0), face(b, 2, 0)]);
            s.apply(1, pi, 1);
            assert!(s.over_faces <= s.face_cap);
            s.apply(1, pi, 1);
            assert_eq!(s.over_faces, 3);
            assert!(s.over_faces > s.face_cap);
            s.apply(1, pi, -1);
            s.apply(1, pi, -1);
            assert_eq!((s.over_faces, s.over_edges), (0, 0));
        });
        assert!(both(&b, &r, &pieces));
        // The I3 on the middle face needs both ends lowered; a domino ylop
        // cannot lower both.
        let r = region(&b, &[(1, 0)]);
        let i3 = (shape(&[(0, 0), (1, 0), (2, 0)], false), false);
        assert!(!both(
            &b,
            &r,
            &[i3.clone(), (shape(&[(0, 0), (1, 0)], true), true)]
        ));
        let mono = (shape(&[(0, 0)], false), true);
        assert!(both(&b, &r, &[i3, mono.clone(), mono]));
    }

    #[test]
    fn polys_that_cannot_reach_the_pits_need_ylops() {
        // Diagonal faces of a 2x2 board: a horizontal domino always covers
        // one face outside the region, which a ylop must lower.
        let b = board(2, 2, false, true);
        let r = region(&b, &[(0, 0), (1, 1)]);
        let dom = (shape(&[(0, 0), (1, 0)], false), false);
        let mono = (shape(&[(0, 0)], false), true);
        // Right area, but no ylop: cut before any placement.
        assert!(!probe(&b, &r, std::slice::from_ref(&dom), |s, _| s.needs_ok(0)));
        assert!(!both(&b, &r, std::slice::from_ref(&dom)));
        // Two monomino ylops lower one outside face each.
        let two = [dom.clone(), dom.clone(), mono.clone(), mono];
        assert!(probe(&b, &r, &two, |s, _| s.needs_ok(0)));
        assert!(both(&b, &r, &two));
        // A domino ylop cannot lower two diagonal faces.
        let one = [dom.clone(), dom, (shape(&[(0, 0), (1, 0)], true), true)];
        assert!(!both(&b, &r, &one));
    }

    #[test]
    fn a_ylop_needs_polys_to_fill_it() {
        // Net 0 on a 2x2 board: a horizontal domino ylop and a vertical
        // domino poly never cancel.
        let b = board(2, 2, false, true);
        let yh = (shape(&[(0, 0), (1, 0)], false), true);
        let pv = (shape(&[(0, 0), (0, 1)], false), false);
        assert!(!both(&b, &[], &[yh.clone(), pv.clone()]));
        // On the bottom row, its faces can only be covered by polys that
        // start on the top row: the ylop is cut.
        probe(&b, &[], &[yh.clone(), pv.clone()], |s, b| {
            let pi = placement(s, 0, &[face(b, 0, 1), face(b, 1, 1)]);
            assert!(!s.placeable(0, pi, 2));
            let top = placement(s, 0, &[face(b, 0, 0), face(b, 1, 0)]);
            assert!(s.placeable(0, top, 0));
        });
        // The same shape cancels anywhere.
        let ph = (shape(&[(0, 0), (1, 0)], false), false);
        assert!(both(&b, &[], &[yh, ph]));
    }

    #[test]
    fn the_last_ylop_needs_a_poly_to_start_on_it() {
        // The right face of a 2x1 board, a domino and a monomino ylop: the
        // only fit puts the ylop under the domino's left half, outside the
        // region.
        let b = board(2, 1, false, true);
        let r = region(&b, &[(1, 0)]);
        let pieces = [
            (shape(&[(0, 0), (1, 0)], false), false),
            (shape(&[(0, 0)], false), true),
        ];
        assert!(both(&b, &r, &pieces));
        probe(&b, &r, &pieces, |s, b| {
            assert!(s.kinds[0].subtractive, "ylops come first");
            // On the left face, the domino can start there on that face,
            // the inner edge (both at -1 once the ylop is down) and the
            // region's face.
            let left = placement(s, 0, &[face(b, 0, 0)]);
            assert!(s.last_ylop_leaves_room(0, left, 0));
            // On the region's face it would leave -2, and no domino starts
            // there: cut before its bookkeeping.
            let right = placement(s, 0, &[face(b, 1, 0)]);
            assert!(!s.last_ylop_leaves_room(0, right, 1));
        });
    }

    #[test]
    fn a_footprint_wrapped_onto_itself_counts_twice() {
        // On a pillar one face wide a horizontal domino covers its face
        // twice. Face (0,0) ends at -1 - 2 - 2 + 1 + 2 + 2 = 0 with the
        // twin domino pair there, the I3 and the split tromino pair.
        let b = board(1, 3, true, true);
        let r: Vec<u32> = (0..b.len() as u32).collect();
        let split = shape(&[(1, 0), (2, 0), (0, 2)], false);
        let pieces = [
            (shape(&[(0, 0), (0, 1), (0, 2)], false), false),
            (split.clone(), false),
            (shape(&[(0, 0), (1, 0)], false), false),
            (split, true),
            (shape(&[(0, 0), (1, 0)], true), true),
        ];
        probe(&b, &r, &pieces, |s, b| {
            let dom = (0..s.kinds.len())
                .find(|&t| !s.kinds[t].subtractive && s.kinds[t].placements.len() == 3);
            let dom = dom.expect("the domino");
            assert_eq!(s.kinds[dom].placements.max_mult, 2);
            assert_eq!(s.polys_from(face(b, 0, 0), 0), 5);
        });
        assert!(both(&b, &r, &pieces));
    }

    #[test]
    fn a_limit_stops_the_fit() {
        let b = board(2, 2, false, true);
        let yh = (shape(&[(0, 0), (1, 0)], false), true);
        let pv = (shape(&[(0, 0), (0, 1)], false), false);
        let mut fs = FitScratch::default();
        fs.limits.flags.push(Arc::new(AtomicBool::new(true)));
        // A wrong "fits" that says it is a guess.
        assert!(run_with(&b, &[], &[yh.clone(), pv.clone()], &mut fs));
        assert!(fs.interrupted() && fs.last_interrupted());
        fs.limits = FitLimits::default();
        assert!(!run_with(&b, &[], &[yh, pv], &mut fs));
        assert!(fs.interrupted() && !fs.last_interrupted());
        fs.clear_interrupted();
        assert!(!fs.interrupted());
    }

    // ---- Random boards against the engine ----

    /// A small xorshift generator.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn chance(&mut self, num: usize, den: usize) -> bool {
            self.below(den) < num
        }
    }

    /// A random shape of `size` squares in a 4x4 box, usually connected.
    fn random_shape(rng: &mut Rng, size: usize) -> Polyomino {
        let mut cells = vec![(rng.below(4) as u8, rng.below(4) as u8)];
        while cells.len() < size {
            let c = if rng.chance(1, 6) {
                (rng.below(4) as u8, rng.below(4) as u8)
            } else {
                let (x, y) = cells[rng.below(cells.len())];
                let (dx, dy) = [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)][rng.below(4)];
                let (nx, ny) = (x as i8 + dx, y as i8 + dy);
                if !(0..4).contains(&nx) || !(0..4).contains(&ny) {
                    continue;
                }
                (nx as u8, ny as u8)
            };
            if !cells.contains(&c) {
                cells.push(c);
            }
        }
        Polyomino::new(cells, rng.chance(1, 3))
    }

    /// Cuts a set of face coordinates into random pieces.
    fn cut_into_pieces(rng: &mut Rng, faces: &[(usize, usize)]) -> Vec<Polyomino> {
        let mut left: Vec<(usize, usize)> = faces.to_vec();
        let mut out = Vec::new();
        while !left.is_empty() {
            let first = left.swap_remove(rng.below(left.len()));
            let mut cells = vec![first];
            let size = 1 + rng.below(4);
            while cells.len() < size {
                let near: Vec<usize> = (0..left.len())
                    .filter(|&i| {
                        cells.iter().any(|c| {
                            let (a, b) = (
                                c.0 as isize - left[i].0 as isize,
                                c.1 as isize - left[i].1 as isize,
                            );
                            a.abs() + b.abs() == 1
                        })
                    })
                    .collect();
                if near.is_empty() {
                    break;
                }
                cells.push(left.swap_remove(near[rng.below(near.len())]));
            }
            let (mx, my) = (
                cells.iter().map(|c| c.0).min().unwrap(),
                cells.iter().map(|c| c.1).min().unwrap(),
            );
            out.push(Polyomino::new(
                cells.iter().map(|c| ((c.0 - mx) as u8, (c.1 - my) as u8)),
                rng.chance(1, 3),
            ));
        }
        out
    }

    /// Random pieces of total area `area` (at most 4 squares each).
    fn random_area(rng: &mut Rng, mut area: usize) -> Vec<Polyomino> {
        let mut out = Vec::new();
        while area > 0 {
            let n = 1 + rng.below(area.min(4));
            out.push(random_shape(rng, n));
            area -= n;
        }
        out
    }

    #[test]
    fn random_boards_agree_with_the_engine() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let (mut yes, mut no) = (0, 0);
        let mut fs = FitScratch::default();
        for case in 0..6000 {
            let (fw, fh) = (1 + rng.below(3), 1 + rng.below(3));
            let pillar = rng.chance(1, 5);
            let b = board(fw, fh, pillar, !rng.chance(1, 6));
            let all: Vec<(usize, usize)> =
                (0..fw).flat_map(|i| (0..fh).map(move |j| (i, j))).collect();
            let mut chosen: Vec<(usize, usize)> =
                all.iter().copied().filter(|_| rng.chance(2, 3)).collect();
            if chosen.is_empty() {
                chosen.push(all[rng.below(all.len())]);
            }
            let mut r = region(&b, &chosen);
            // Now and then a stray slot in or out, as paths make.
            for s in 0..b.len() as u32 {
                if b.kind[s as usize] != SlotKind::Face && rng.chance(1, 12) {
                    match r.iter().position(|&x| x == s) {
                        Some(i) => {
                            r.swap_remove(i);
                        }
                        None => r.push(s),
                    }
                }
            }
            let ylops: Vec<Polyomino> = (0..rng.below(3))
                .map(|_| {
                    let n = 1 + rng.below(3);
                    random_shape(&mut rng, n)
                })
                .collect();
            let ylop_area: usize = ylops.iter().map(|y| y.size()).sum();
            let mut polys = match rng.below(4) {
                // A tiling of the region, plus a twin poly for every ylop.
                0 | 1 => {
                    let mut p = cut_into_pieces(&mut rng, &chosen);
                    for y in &ylops {
                        p.push(Polyomino::new(y.cells().iter().copied(), rng.chance(1, 2)));
                    }
                    p
                }
                // Random pieces of the right area.
                2 => random_area(&mut rng, chosen.len() + ylop_area),
                // Net zero: the pieces must cancel.
                _ => random_area(&mut rng, ylop_area),
            };
            if rng.chance(1, 4) && !polys.is_empty() {
                // Swap one poly for another shape of the same size.
                let i = rng.below(polys.len());
                let n = polys[i].size();
                polys[i] = random_shape(&mut rng, n);
            }
            let mut pieces: Vec<(Polyomino, bool)> =
                polys.into_iter().map(|p| (p, false)).collect();
            pieces.extend(ylops.into_iter().map(|y| (y, true)));
            if pieces.len() > 7 {
                continue; // keep the engine quick
            }
            let want = engine(&b, &r, &pieces);
            let got = run_with(&b, &r, &pieces, &mut fs);
            assert_eq!(
                got, want,
                "case {case}: {fw}x{fh} pillar {pillar} precise {} region {r:?} pieces {pieces:?}",
                b.precise
            );
            if want {
                yes += 1;
            } else {
                no += 1;
            }
        }
        assert!(yes > 1000 && no > 1000, "yes {yes} no {no}");
    }
}

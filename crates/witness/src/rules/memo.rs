//! Region verdicts remembered by region: the failing elements of each
//! region judged before, for a local search that judges many paths which
//! differ only here and there.
//!
//! A region's verdict depends only on its slots (their symbols and dots),
//! the covered edges around its triangles and, with elimination marks, the
//! order of the engine's flood. Given the path's start and end slots (the
//! only slots a flood passes without listing), the set of listed slots
//! fixes all three: an uncovered edge beside a face of the region is in the
//! region, and the flood's order is a function of the slots it can enter.
//! So the memo's key is the region's slot set, hashed by XOR of per-slot
//! random words, with the start and end mixed in.
//!
//! The regions themselves are found by a flood over per-column bitsets
//! that takes a whole run of a column's open slots at a time and keys it
//! with one XOR of prefix tables (boards more than 63 slots tall flood
//! slot by slot), so a region the memo knows costs a few word operations
//! per run.

use std::collections::HashMap;

use super::board::{Board, Sym};
use super::polyfit::KeyHasher;
use super::regions;
use super::{Rules, Workspace};
use crate::model::{Dot, SlotKind};
use crate::path::Line;

/// The most regions remembered; the memo starts afresh past it.
const MAX_REGIONS: usize = 1 << 16;

/// The most slots a column may have for the flood on column bitsets (one
/// bit to spare, so that a run's end is found by a carry).
const MAX_COLUMN: usize = 63;

/// The failing elements of regions judged before, by region. Made for one
/// [`Rules`]; see [`Rules::failures_remembered`].
#[derive(Clone, Debug, Default)]
pub struct RegionMemo {
    /// The [`super::symbols::PolyTables::id`] of the rules it was made for.
    rules_id: u64,
    /// A random word per slot.
    keys: Vec<u64>,
    /// For boards whose columns (slots of one x, consecutive indices) have
    /// at most [`MAX_COLUMN`] slots: per column, `h + 1` words, the XOR
    /// of the keys of its slots below each row, so that a run of slots is
    /// keyed in one step. Empty for taller boards.
    prefix: Vec<u64>,
    /// Per column, the slots not outside, the faces, and the elimination
    /// marks.
    inside: Vec<u64>,
    faces: Vec<u64>,
    marks: Vec<u64>,
    /// Never flood on column bitsets (as boards with taller columns).
    by_slot: bool,
    /// Region key → range of `failing`, and the region's area gap.
    known: HashMap<u64, (u32, u32, u32), std::hash::BuildHasherDefault<KeyHasher>>,
    /// The failing slots of all remembered regions, one after another.
    failing: Vec<u32>,
    /// Scratch of the column flood: the slots a flood may enter, the slots
    /// flooded, the runs (column, bits) of all regions one after another,
    /// and per region its runs (a range of `runs`), key and seed.
    open: Vec<u64>,
    flooded: Vec<u64>,
    runs: Vec<(u32, u64)>,
    parts: Vec<Part>,
    /// The cover flooded before, per column (`open`), and its regions,
    /// which the next flood keeps where the cover did not change
    /// ([`RegionMemo::split_columns`]); valid while `flood_kept`.
    last_open: Vec<u64>,
    last_runs: Vec<(u32, u64)>,
    last_parts: Vec<Part>,
    flood_kept: bool,
    /// Scratch: per column, the slots changed since the last flood and
    /// those beside them.
    near: Vec<u64>,
    /// Scratch: the regions of the last flood the memo did not know, the
    /// span of each region's failures in the list, and the list put in
    /// the regions' order.
    unknown: Vec<u32>,
    spans: Vec<(u32, u32)>,
    listed: Vec<u32>,
    /// Scratch: one region's slots (in the engine's flood order when it
    /// holds marks), and the ordered flood's stack.
    ordered: Vec<u32>,
    stack: Vec<u32>,
    /// Regions answered from the memo.
    pub hits: u64,
    /// Regions judged afresh.
    pub misses: u64,
    /// Regions the column flood found.
    pub found: u64,
    /// Of those, the regions it kept from the cover flooded before.
    pub kept: u64,
    /// The area gap of the last path judged: over its failing regions
    /// that hold polyominoes, the faces by which the pieces' net area
    /// misses the region's area at best (see [`area_gap`]). Zero when the
    /// path fails nothing; a slope for a local search where the count of
    /// failing elements is flat.
    pub gap: u32,
}

impl RegionMemo {
    /// A memo that floods slot by slot on every board, as it does on
    /// boards whose columns are too tall for the column bitsets: slower,
    /// for comparisons and tests.
    pub fn slot_by_slot() -> RegionMemo {
        RegionMemo {
            by_slot: true,
            ..RegionMemo::default()
        }
    }

    /// Fits the memo to board `b` (when made for another size) and
    /// forgets every region.
    fn reset(&mut self, b: &Board) {
        let n = b.len();
        if self.keys.len() != n {
            let mut z = 0x2545_F491_4F6C_DD1Du64;
            self.keys = (0..n)
                .map(|_| {
                    // SplitMix64.
                    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
                    let mut x = z;
                    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                    x ^ (x >> 31)
                })
                .collect();
            self.prefix.clear();
            self.inside.clear();
            self.faces.clear();
            self.marks.clear();
            if b.h <= MAX_COLUMN && !self.by_slot {
                for x in 0..b.w {
                    let (mut acc, mut inside, mut faces, mut marks) = (0, 0u64, 0u64, 0u64);
                    for y in 0..b.h {
                        let i = b.index(x, y);
                        self.prefix.push(acc);
                        acc ^= self.keys[i];
                        inside |= (!b.outside[i] as u64) << y;
                        faces |= ((b.kind[i] == SlotKind::Face) as u64) << y;
                        marks |= ((b.sym[i] == Sym::Nega) as u64) << y;
                    }
                    self.prefix.push(acc);
                    self.inside.push(inside);
                    self.faces.push(faces);
                    self.marks.push(marks);
                }
            }
        }
        self.known.clear();
        self.failing.clear();
        self.flood_kept = false;
    }

    /// The regions of the lines' cover on column bitsets (see
    /// [`regions::regions`]: walls are covered edges and nodes and outside
    /// slots; a start on an edge is a pass-through unless FAT, an end on
    /// an edge always), into `runs` and `parts`, in the order of their
    /// seeds: a flood along whole runs of a column at a time, keying each
    /// run as it goes. A region's key covers its pass-through slots too,
    /// which its listed slots and the start and end fix.
    ///
    /// The flood is incremental: a region of the cover flooded last whose
    /// slots are neither changed nor beside a changed slot (open in one
    /// cover and a wall in the other) is a region of this cover too, with
    /// the same slots, key and seed, and is kept as it is; only the rest is
    /// flooded again. Its slots are all still open, and every slot beside
    /// it is still a wall, so it is still a whole connected region; and a
    /// flood of the rest cannot reach it, as it is walled off. Its seed is
    /// its least slot (the column scan meets a region first there), so the
    /// regions, sorted by seed, are exactly those of a flood from scratch.
    fn split_columns(&mut self, b: &Board, lines: &[Line], start: usize, end: usize) {
        let (w, h) = (b.w, b.h);
        std::mem::swap(&mut self.open, &mut self.last_open);
        self.open.clear();
        for (x, column) in lines[..w * h].chunks_exact(h).enumerate() {
            let drawn = drawn_bits(column);
            self.open.push(self.inside[x] & !(drawn & !self.faces[x]));
        }
        let bit = |i: usize| (i / h, 1u64 << (i % h));
        if b.kind[start] == SlotKind::Edge {
            let (x, m) = bit(start);
            if b.fat_startpoints {
                self.open[x] &= !m;
            } else {
                self.open[x] |= m;
            }
        }
        if b.kind[end] == SlotKind::Edge {
            let (x, m) = bit(end);
            self.open[x] |= m;
        }
        // The columns beside each column (`usize::MAX`: none).
        let side = |cx: usize| {
            let left = if cx > 0 {
                cx - 1
            } else if b.pillar {
                w - 1
            } else {
                usize::MAX
            };
            let right = if cx + 1 < w {
                cx + 1
            } else if b.pillar {
                0
            } else {
                usize::MAX
            };
            [left, right]
        };
        self.flooded.clear();
        self.flooded.resize(w, 0);
        std::mem::swap(&mut self.runs, &mut self.last_runs);
        std::mem::swap(&mut self.parts, &mut self.last_parts);
        self.runs.clear();
        self.parts.clear();
        if self.flood_kept && self.last_open.len() == w {
            if self.open == self.last_open {
                // The same cover: the same regions.
                std::mem::swap(&mut self.runs, &mut self.last_runs);
                std::mem::swap(&mut self.parts, &mut self.last_parts);
                self.kept += self.parts.len() as u64;
                self.found += self.parts.len() as u64;
                return;
            }
            // The changed slots and those beside them, per column.
            self.near.clear();
            self.near.resize(w, 0);
            for x in 0..w {
                let c = self.open[x] ^ self.last_open[x];
                if c == 0 {
                    continue;
                }
                self.near[x] |= c | c << 1 | c >> 1;
                for nx in side(x) {
                    if nx != usize::MAX {
                        self.near[nx] |= c;
                    }
                }
            }
            for p in &self.last_parts {
                let old = &self.last_runs[p.runs.0 as usize..p.runs.1 as usize];
                if old.iter().any(|&(x, r)| self.near[x as usize] & r != 0) {
                    continue;
                }
                let first = self.runs.len() as u32;
                for &(x, r) in old {
                    self.flooded[x as usize] |= r;
                }
                self.runs.extend_from_slice(old);
                self.parts.push(Part {
                    runs: (first, self.runs.len() as u32),
                    ..*p
                });
            }
        }
        let kept = self.parts.len();
        self.kept += kept as u64;
        // The run of `open` through bit `s`: from above the highest wall
        // below `s` up to the lowest wall above it (found by a carry).
        let run_of = |open: u64, s: u64| {
            let hi = open.wrapping_add(s) & !open;
            let below = !open & (s - 1);
            let lo = if below == 0 {
                1
            } else {
                1u64 << (64 - below.leading_zeros())
            };
            hi - lo
        };
        let (open, flooded, runs) = (&self.open, &mut self.flooded, &mut self.runs);
        let col_keys = |x: usize| &self.prefix[x * (h + 1)..(x + 1) * (h + 1)];
        // The key of the slots `run` of column `x` (consecutive bits).
        let run_key = |x: usize, run: u64| {
            let col = col_keys(x);
            col[run.trailing_zeros() as usize] ^ col[64 - run.leading_zeros() as usize]
        };
        for x in 0..w {
            loop {
                let free = open[x] & !flooded[x];
                if free == 0 {
                    break;
                }
                let s = free & free.wrapping_neg();
                let first = runs.len();
                let run = run_of(open[x], s);
                flooded[x] |= run;
                let mut key = run_key(x, run);
                runs.push((x as u32, run));
                let mut k = first;
                while k < runs.len() {
                    let (cx, run) = runs[k];
                    k += 1;
                    for nx in side(cx as usize) {
                        if nx == usize::MAX {
                            continue;
                        }
                        let mut touch = open[nx] & run & !flooded[nx];
                        while touch != 0 {
                            let s = touch & touch.wrapping_neg();
                            let r = run_of(open[nx], s);
                            flooded[nx] |= r;
                            key ^= run_key(nx, r);
                            runs.push((nx as u32, r));
                            touch &= !r;
                        }
                    }
                }
                let seed = x * h + s.trailing_zeros() as usize;
                self.parts.push(Part {
                    runs: (first as u32, runs.len() as u32),
                    key,
                    seed: seed as u32,
                });
            }
        }
        if kept > 0 && kept < self.parts.len() {
            // Kept and new regions, each in the order of their seeds.
            self.parts.sort_unstable_by_key(|p| p.seed);
        }
        self.flood_kept = true;
        self.found += self.parts.len() as u64;
    }
}

/// A region found by [`RegionMemo::split_columns`]: its runs (a range of
/// `runs`), its key (without the start and end) and its seed, the least
/// of its slots.
#[derive(Clone, Copy, Debug, Default)]
struct Part {
    runs: (u32, u32),
    key: u64,
    seed: u32,
}

/// The slots of `column` (at most 64) a line covers, as bits: eight at a
/// time, each byte's "covered" bit gathered by one multiply, and the last
/// few (fewer than eight) one by one.
#[inline]
fn drawn_bits(column: &[Line]) -> u64 {
    debug_assert!(column.len() <= 64, "a column of at most 64 slots");
    // Byte k's bit 0 lands on bit 56 + k, and no other product term
    // reaches the top byte or carries into it.
    const GATHER: u64 = 0x0102_0408_1020_4080;
    const LOW: u64 = 0x0101_0101_0101_0101;
    // A line colour is 1 to 3: bit 0 or bit 1 of its byte.
    let gather = |bytes: [u8; 8]| {
        let w = u64::from_le_bytes(bytes);
        ((w | w >> 1) & LOW).wrapping_mul(GATHER) >> 56
    };
    let mut drawn = 0u64;
    let mut chunks = column.chunks_exact(8);
    let mut j = 0;
    for chunk in &mut chunks {
        drawn |= gather(std::array::from_fn(|k| chunk[k] as u8)) << j;
        j += 8;
    }
    // The rest bit by bit: assembling a word of it in memory would cost
    // a stalled load.
    for (k, &l) in chunks.remainder().iter().enumerate() {
        drawn |= u64::from(l != Line::None) << (j + k);
    }
    drawn
}

impl Rules {
    /// The slots of the elements that fail for the lines drawn from
    /// `start` to `end`, into `out` (the global errors, then each region's
    /// in the order of the regions' least slots; empty exactly when the
    /// path solves the puzzle), as [`Rules::failures`] lists them, with
    /// each region's failures remembered in `memo` (which must only ever
    /// be used with these rules). A polyomino fit that gives up on the
    /// workspace's limits raises [`Workspace::fit_interrupted`] as usual,
    /// and its region is not remembered.
    #[doc(hidden)]
    pub fn failures_remembered(
        &self,
        lines: &[Line],
        start: usize,
        end: usize,
        ws: &mut Workspace,
        memo: &mut RegionMemo,
        out: &mut Vec<u32>,
    ) {
        self.failures_remembered_until(lines, start, end, ws, memo, out, |_, _| false);
    }

    /// [`Rules::failures_remembered`], stopped early once `enough` says
    /// so: the global errors and the regions the memo knows are listed
    /// first, then `enough` is asked, with the failures listed so far and
    /// the area gap summed so far ([`RegionMemo::gap`]), before each
    /// region judged afresh (never when the memo knows them all). Both
    /// only grow as regions are added, so a caller that weighs a path by
    /// them (each weight at least zero) and stops past some cost knows
    /// that the whole path costs more. True when every region was judged
    /// (`out` and the gap complete); false when stopped, with `out` and
    /// the gap partial. Boards too tall for the column flood, and a memo
    /// that floods slot by slot, are judged whole.
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub fn failures_remembered_until(
        &self,
        lines: &[Line],
        start: usize,
        end: usize,
        ws: &mut Workspace,
        memo: &mut RegionMemo,
        out: &mut Vec<u32>,
        mut enough: impl FnMut(usize, u32) -> bool,
    ) -> bool {
        let b = &self.board;
        let n = b.len();
        if memo.rules_id != self.polys.id {
            // Other rules: the tables are made afresh.
            memo.keys.clear();
            memo.rules_id = self.polys.id;
            memo.reset(b);
        } else if memo.known.len() >= MAX_REGIONS {
            memo.reset(b);
        }
        out.clear();
        memo.gap = 0;
        // The workspace's cover, made on the first region judged afresh.
        let mut ready = false;
        let columns = !memo.prefix.is_empty();
        if columns {
            memo.split_columns(b, lines, start, end);
        }
        let fails = self.line_fails_of(lines);
        // Global errors: gaps crossed, dots of the wrong colour.
        if fails & 1 != 0 {
            // (A slot with both fails twice, as the validator lists it.)
            for &i in &self.fail_slots {
                let (i, l) = (i as usize, lines[i as usize]);
                if l == Line::None {
                    continue;
                }
                if b.gap[i] != crate::model::Gap::None {
                    out.push(i as u32);
                }
                if matches!(
                    (b.dot[i], l),
                    (Dot::Blue, Line::Yellow) | (Dot::Yellow, Line::Blue)
                ) {
                    out.push(i as u32);
                }
            }
        }
        let ends = memo.keys[start].rotate_left(17) ^ memo.keys[end].rotate_left(41);
        let end_edge = if b.kind[end] == SlotKind::Edge {
            end
        } else {
            usize::MAX
        };
        // The slots a flood passes without listing them.
        let unlisted = |i: usize| {
            (i == start && b.kind[i] == SlotKind::Edge && !b.fat_startpoints)
                || (i == end && b.kind[i] == SlotKind::Edge)
        };
        if columns {
            let h = b.h;
            // The regions the memo knows first, as they cost next to
            // nothing, then the rest while `enough` allows; each region's
            // failures are a span of `out`.
            let global = out.len();
            let mut unknown = std::mem::take(&mut memo.unknown);
            unknown.clear();
            memo.spans.clear();
            for p in 0..memo.parts.len() {
                let from = out.len() as u32;
                if !memo.recall(memo.parts[p].key ^ ends, out) {
                    unknown.push(p as u32);
                }
                memo.spans.push((from, out.len() as u32));
            }
            let mut complete = true;
            for &p in &unknown {
                if enough(out.len(), memo.gap) {
                    complete = false;
                    break;
                }
                let from = out.len() as u32;
                let Part { runs, key, seed } = memo.parts[p as usize];
                let key = key ^ ends;
                let runs = runs.0 as usize..runs.1 as usize;
                let marked = memo.runs[runs.clone()]
                    .iter()
                    .any(|&(x, r)| memo.marks[x as usize] & r != 0);
                let mut slots = std::mem::take(&mut memo.ordered);
                slots.clear();
                if !marked {
                    for &(x, r) in &memo.runs[runs] {
                        let mut r = r;
                        while r != 0 {
                            let i = x as usize * h + r.trailing_zeros() as usize;
                            r &= r - 1;
                            if !unlisted(i) {
                                slots.push(i as u32);
                            }
                        }
                    }
                }
                memo.ordered = slots;
                let fresh = Fresh {
                    key,
                    marked,
                    seed: seed as usize,
                    start,
                    end_edge,
                };
                self.judge_fresh(lines, &mut ready, ws, memo, fresh, out);
                memo.spans[p as usize] = (from, out.len() as u32);
            }
            if complete && !unknown.is_empty() {
                // The failures in the order of the regions' seeds, as a
                // flood lists them, whatever the memo knew.
                let mut listed = std::mem::take(&mut memo.listed);
                listed.clear();
                listed.extend_from_slice(&out[..global]);
                for &(from, to) in &memo.spans {
                    listed.extend_from_slice(&out[from as usize..to as usize]);
                }
                std::mem::swap(out, &mut listed);
                memo.listed = listed;
            }
            memo.unknown = unknown;
            complete
        } else {
            ws.covered.clear();
            ws.covered.extend(lines.iter().map(|&l| l != Line::None));
            ws.removed.clear();
            ws.removed.resize(n, false);
            ready = true;
            let mut regions = std::mem::take(&mut ws.regions);
            regions::regions_unordered(b, &ws.covered, start, end, &mut regions);
            for r in 0..regions.len() {
                let region = regions.get(r);
                let key = region.iter().fold(ends, |h, &s| h ^ memo.keys[s as usize]);
                if memo.recall(key, out) {
                    continue;
                }
                let marked =
                    b.has_negations && region.iter().any(|&s| b.sym[s as usize] == Sym::Nega);
                memo.ordered.clear();
                memo.ordered.extend_from_slice(region);
                let fresh = Fresh {
                    key,
                    marked,
                    seed: regions.seed(r),
                    start,
                    end_edge,
                };
                self.judge_fresh(lines, &mut ready, ws, memo, fresh, out);
            }
            ws.regions = regions;
            true
        }
    }

    /// Judges a region the memo does not know (see [`Fresh`]): its slots
    /// are in `memo.ordered`, unless it holds elimination marks. Its
    /// failures go to `out` and, unless a polyomino fit gave up, into the
    /// memo. The workspace's cover is made from `lines` unless `ready`.
    fn judge_fresh(
        &self,
        lines: &[Line],
        ready: &mut bool,
        ws: &mut Workspace,
        memo: &mut RegionMemo,
        fresh: Fresh,
        out: &mut Vec<u32>,
    ) {
        memo.misses += 1;
        if !*ready {
            ws.covered.clear();
            ws.covered.extend(lines.iter().map(|&l| l != Line::None));
            ws.removed.clear();
            ws.removed.resize(self.board.len(), false);
            *ready = true;
        }
        let mut slots = std::mem::take(&mut memo.ordered);
        if fresh.marked {
            regions::ordered_region(
                &self.board,
                &ws.covered,
                fresh.start,
                fresh.end_edge,
                fresh.seed,
                &mut slots,
                &mut memo.stack,
            );
        }
        let was = ws.scratch.fit_interrupted();
        ws.scratch.clear_fit_interrupted();
        let covered = std::mem::take(&mut ws.covered);
        let outcome = self.judge_region(&slots, &covered, ws, false);
        ws.covered = covered;
        let gap = if outcome.invalid.is_empty() || !self.board.has_polys {
            0
        } else {
            area_gap(&self.board, &self.polys, &slots)
        };
        memo.gap += gap;
        memo.ordered = slots;
        out.extend_from_slice(&outcome.invalid);
        if ws.scratch.fit_interrupted() {
            return; // a guess: not remembered (and the flag stays up)
        }
        if was {
            ws.scratch.raise_fit_interrupted();
        }
        let from = memo.failing.len() as u32;
        memo.failing.extend_from_slice(&outcome.invalid);
        memo.known
            .insert(fresh.key, (from, memo.failing.len() as u32, gap));
    }
}

/// The most pieces of a region whose erasures [`area_gap`] tries.
const GAP_PIECES: usize = 12;

/// The most faces [`area_gap`] counts for one region.
const GAP_CAP: u32 = 32;

/// How far the polyominoes of `region` are from covering it exactly, in
/// faces: the least `|faces - net area|` over the ways its elimination
/// marks may erase pieces (none when it has more than `GAP_PIECES`
/// pieces), zero when they may erase them all or leave a net area of
/// zero (pieces that cancel may fit in any region), capped at `GAP_CAP`;
/// zero for a region without pieces. A region whose fit fails at equal
/// area also has gap zero: the count of its failures stays its cost.
pub fn area_gap(b: &Board, t: &super::symbols::PolyTables, region: &[u32]) -> u32 {
    let mut faces = 0i64;
    let mut marks = 0u32;
    let mut sizes = [0i64; GAP_PIECES];
    let (mut k, mut net, mut many) = (0usize, 0i64, false);
    for &s in region {
        let i = s as usize;
        if b.kind[i] != SlotKind::Face {
            continue;
        }
        faces += 1;
        let (si, sub) = match b.sym[i] {
            Sym::Poly(si) => (si, false),
            Sym::Ylop(si) => (si, true),
            Sym::Nega => {
                marks += 1;
                continue;
            }
            _ => continue,
        };
        let kind = &t.kinds[t.kind_of_shape[si as usize][sub as usize] as usize];
        if kind.ignored {
            continue;
        }
        let size = if sub {
            -(kind.size as i64)
        } else {
            kind.size as i64
        };
        net += size;
        if k < GAP_PIECES {
            sizes[k] = size;
        } else {
            many = true;
        }
        k += 1;
    }
    if k == 0 {
        return 0;
    }
    let marks = if many { 0 } else { marks.min(k as u32) };
    // Pieces that cancel (net area zero) may fit whatever the region's
    // area (docs/rules.md#polyominoes): no faces to miss.
    let miss = |n: i64| {
        if n == 0 {
            0
        } else {
            (faces - n).unsigned_abs()
        }
    };
    let mut best = miss(net);
    if marks > 0 {
        for mask in 1u32..1 << k {
            if mask.count_ones() > marks {
                continue;
            }
            if mask.count_ones() as usize == k {
                return 0;
            }
            let erased: i64 = (0..k)
                .filter(|&j| mask >> j & 1 != 0)
                .map(|j| sizes[j])
                .sum();
            best = best.min(miss(net - erased));
        }
    }
    best.min(GAP_CAP as u64) as u32
}

/// A region the memo does not know.
struct Fresh {
    /// Its key.
    key: u64,
    /// Whether it holds elimination marks, which need the engine's flood
    /// order: it is then flooded afresh from `seed`.
    marked: bool,
    seed: usize,
    /// The path's start, and its end if on an edge (else `usize::MAX`).
    start: usize,
    end_edge: usize,
}

impl RegionMemo {
    /// Adds the failures of the region with `key` to `out`, if known.
    fn recall(&mut self, key: u64, out: &mut Vec<u32>) -> bool {
        match self.known.get(&key) {
            Some(&(from, to, gap)) => {
                self.hits += 1;
                self.gap += gap;
                out.extend_from_slice(&self.failing[from as usize..to as usize]);
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Puzzle;

    /// The gathered bits of a column are its covered slots, for every
    /// line colour and every column height up to 64.
    #[test]
    fn drawn_bits_are_the_covered_slots() {
        let mut next = regions::tests::xorshift(0x9E37_79B9_7F4A_7C15);
        let colours = [Line::None, Line::Black, Line::Blue, Line::Yellow];
        for h in 1..=64 {
            for _ in 0..50 {
                let column: Vec<Line> = (0..h).map(|_| colours[next() as usize % 4]).collect();
                let want = column
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (y, &l)| m | u64::from(l != Line::None) << y);
                assert_eq!(drawn_bits(&column), want, "{column:?}");
            }
        }
    }

    /// The column flood finds the regions of [`regions::regions_unordered`]
    /// (the same slot sets, in the same order, from the same seeds), each
    /// keyed by the XOR of its slots' keys, on random covers of random
    /// boards up to 63 slots tall: pillars, removed edges, FAT starts,
    /// starts and ends anywhere.
    #[test]
    fn the_column_flood_finds_the_regions() {
        let mut next = regions::tests::xorshift(0x2545_F491_4F6C_DD1D);
        let mut want = regions::Regions::default();
        let mut pillars = 0;
        for case in 0..4000 {
            let pillar = next().is_multiple_of(3);
            // Now and then a board 63 slots tall, the most the column
            // bitsets take.
            let (fw, fh) = if next().is_multiple_of(10) {
                (1 + next() as usize % 2, 31)
            } else {
                (1 + next() as usize % 6, 1 + next() as usize % 6)
            };
            let (board, covered, start, end) =
                regions::tests::random_cover(&mut next, fw, fh, pillar);
            pillars += board.pillar as usize;
            regions::regions_unordered(&board, &covered, start, end, &mut want);
            let mut fresh = RegionMemo::default();
            fresh.reset(&board);
            let lines: Vec<Line> = covered
                .iter()
                .map(|&c| if c { Line::Black } else { Line::None })
                .collect();
            fresh.split_columns(&board, &lines, start, end);
            assert_eq!(fresh.parts.len(), want.len(), "case {case}");
            assert!(!fresh.prefix.is_empty(), "case {case}: column tables");
            for (k, &Part { runs, key, seed }) in fresh.parts.iter().enumerate() {
                let mut got: Vec<u32> = Vec::new();
                for &(x, r) in &fresh.runs[runs.0 as usize..runs.1 as usize] {
                    for y in 0..board.h {
                        if r >> y & 1 != 0 {
                            got.push(board.index(x as usize, y) as u32);
                        }
                    }
                }
                // The key is the XOR of the keys of the region's slots,
                // pass-through slots included.
                let xor = got.iter().fold(0, |h, &i| h ^ fresh.keys[i as usize]);
                assert_eq!(key, xor, "case {case}, region {k}: key");
                // The column flood lists pass-through slots too.
                let pass = |i: u32| {
                    let i = i as usize;
                    board.kind[i] == SlotKind::Edge
                        && ((i == start && !board.fat_startpoints) || i == end)
                };
                got.retain(|&i| !pass(i));
                got.sort_unstable();
                let mut region = want.get(k).to_vec();
                region.sort_unstable();
                assert_eq!(got, region, "case {case}, region {k}");
                assert_eq!(seed as usize, want.seed(k), "case {case}, region {k}");
            }
        }
        assert!(pillars > 1000);
    }

    /// The flood of a cover changed here and there from the one flooded
    /// before finds the regions a flood from scratch finds: the same
    /// slots (in the same runs, in the same order), keys and seeds, in the
    /// same order. Covers change by a few slots at a time (as a move of
    /// the local search changes them), now and then by many or in their
    /// start and end, on random boards with pillars, removed edges and FAT
    /// starts, some 63 slots tall (the most the column bitsets take); many
    /// regions are kept.
    #[test]
    fn the_flood_keeps_the_regions_a_change_leaves_alone() {
        let mut next = regions::tests::xorshift(0x0DDB_1A5E_5BAD_5EED);
        let (mut kept, mut found, mut same) = (0, 0, 0);
        // One memo over every board, reset for each as a memo is for new
        // rules: boards of the same width follow one another.
        let mut memo = RegionMemo::default();
        for case in 0..600 {
            let pillar = next().is_multiple_of(3);
            let (fw, fh) = if next().is_multiple_of(10) {
                (1 + next() as usize % 3, 31)
            } else {
                (1 + next() as usize % 3, 1 + next() as usize % 7)
            };
            let (board, mut covered, mut start, mut end) =
                regions::tests::random_cover(&mut next, fw, fh, pillar);
            let n = board.len();
            memo.keys.clear();
            memo.reset(&board);
            for step in 0..40 {
                let changes = match next() % 10 {
                    0 => n,
                    1 => 0,
                    _ => 1 + next() as usize % 4,
                };
                for _ in 0..changes {
                    let i = next() as usize % n;
                    covered[i] = !covered[i];
                }
                if next().is_multiple_of(12) {
                    (start, end) = (next() as usize % n, next() as usize % n);
                }
                let lines: Vec<Line> = covered
                    .iter()
                    .map(|&c| if c { Line::Black } else { Line::None })
                    .collect();
                let before = memo.kept;
                memo.split_columns(&board, &lines, start, end);
                kept += memo.kept - before;
                same += usize::from(changes == 0);
                let mut fresh = RegionMemo::default();
                fresh.reset(&board);
                fresh.split_columns(&board, &lines, start, end);
                // Per region: its key, its seed and its runs.
                type Found = Vec<(u64, u32, Vec<(u32, u64)>)>;
                let regions_of = |m: &RegionMemo| -> Found {
                    m.parts
                        .iter()
                        .map(|p| {
                            let runs = m.runs[p.runs.0 as usize..p.runs.1 as usize].to_vec();
                            (p.key, p.seed, runs)
                        })
                        .collect()
                };
                assert_eq!(
                    regions_of(&memo),
                    regions_of(&fresh),
                    "case {case}, step {step}"
                );
                found += fresh.parts.len() as u64;
            }
        }
        assert!(kept * 3 > found, "{kept} of {found} regions kept");
        assert!(same > 500, "{same} covers flooded again unchanged");
    }

    /// The area gap of a region: how many faces its pieces' net area
    /// misses its area by, at best over the erasures its marks allow.
    #[test]
    fn area_gap_counts_the_faces_missed() {
        use crate::model::{Color, Polyomino, Pos, Symbol, SymbolKind};
        // A 3x1 panel: faces at x = 1, 3, 5 (y = 1).
        let gap_with = |syms: &[Option<SymbolKind>]| {
            let mut p = Puzzle::new(3, 1, false).unwrap();
            for (k, sym) in syms.iter().enumerate() {
                p.cell_mut(Pos::new(1 + 2 * k, 1)).symbol = sym
                    .clone()
                    .map(|kind| Symbol::new(kind, Color::from_name("black")));
            }
            let rules = Rules::new(&p).unwrap();
            let b = &rules.board;
            // The whole panel as one region.
            let region: Vec<u32> = (0..b.len() as u32).collect();
            area_gap(b, &rules.polys, &region)
        };
        let line = |n: u8| SymbolKind::Poly(Polyomino::new((0..n).map(|x| (x, 0)), false));
        let ylop = |n: u8| SymbolKind::Ylop(Polyomino::new((0..n).map(|x| (x, 0)), false));
        assert_eq!(gap_with(&[None, None, None]), 0, "no pieces");
        assert_eq!(gap_with(&[Some(line(3)), None, None]), 0);
        assert_eq!(gap_with(&[Some(line(1)), None, None]), 2);
        assert_eq!(gap_with(&[Some(line(2)), Some(line(2)), None]), 1);
        assert_eq!(gap_with(&[Some(line(2)), Some(line(2)), Some(ylop(1))]), 0);
        // Pieces that cancel may fit in a region of any area.
        assert_eq!(
            gap_with(&[Some(line(1)), Some(ylop(1)), None]),
            0,
            "net zero"
        );
        assert_eq!(gap_with(&[Some(ylop(2)), None, None]), 5, "net below zero");
        // A mark may erase one piece: 2 + 1 of 3 faces.
        assert_eq!(
            gap_with(&[Some(line(2)), Some(line(2)), Some(SymbolKind::Nega)]),
            1,
            "one erased leaves 2 of 3 faces"
        );
        assert_eq!(
            gap_with(&[Some(line(1)), Some(SymbolKind::Nega), None]),
            0,
            "every piece erased"
        );
    }

    /// Taller boards flood slot by slot, and the memo still answers as
    /// the validator does.
    #[test]
    fn taller_boards_flood_slot_by_slot() {
        let mut p = Puzzle::new(2, 32, false).unwrap();
        p.cell_mut(crate::model::Pos::new(0, 64)).start = true;
        p.cell_mut(crate::model::Pos::new(4, 0)).end = Some(crate::model::Direction::Up);
        p.cell_mut(crate::model::Pos::new(2, 2)).dot = Dot::Black;
        let rules = Rules::new(&p).unwrap();
        let path = crate::path::Path::parse("0,64:R4U64").unwrap();
        let trace = path.trace(&p).unwrap();
        let (start, end) = (rules.board.index(0, 64), rules.board.index(4, 0));
        let (mut ws, mut memo) = (Workspace::default(), RegionMemo::default());
        let (mut got, mut want) = (Vec::new(), Vec::new());
        for _ in 0..2 {
            rules.failures_remembered(&trace.lines, start, end, &mut ws, &mut memo, &mut got);
            rules.failures(
                &trace.lines,
                start,
                end,
                &mut Workspace::default(),
                &mut want,
            );
            assert_eq!(got, want);
            assert_eq!(got, vec![rules.board.index(2, 2) as u32]);
        }
        assert!(memo.prefix.is_empty(), "65 slots tall: no column tables");
        assert_eq!((memo.hits, memo.misses), (1, 1));
    }
}

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

use std::collections::HashMap;

use super::board::Sym;
use super::regions;
use super::{Rules, Workspace};
use crate::model::{Dot, SlotKind};
use crate::path::Line;

/// Passes a key through: keys are already random words.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// The most regions remembered; the memo starts afresh past it.
const MAX_REGIONS: usize = 1 << 16;

/// The failing elements of regions judged before, by region. Made for one
/// [`Rules`]; see [`Rules::failures_remembered`].
#[derive(Clone, Debug, Default)]
pub struct RegionMemo {
    /// A random word per slot.
    keys: Vec<u64>,
    /// Region key → range of `failing`.
    seen: HashMap<u64, (u32, u32), std::hash::BuildHasherDefault<KeyHasher>>,
    /// The failing slots of all remembered regions, one after another.
    failing: Vec<u32>,
    /// Scratch: one region in the engine's flood order, and its stack.
    ordered: Vec<u32>,
    stack: Vec<u32>,
    /// Regions answered from the memo, and judged afresh.
    pub hits: u64,
    /// Regions judged afresh.
    pub misses: u64,
}

impl RegionMemo {
    /// Forgets every region (and sizes the keys for `n` slots).
    fn reset(&mut self, n: usize) {
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
        }
        self.seen.clear();
        self.failing.clear();
    }
}

impl Rules {
    /// The slots of the elements that fail for the lines drawn from
    /// `start` to `end`, into `out` (in some order; empty exactly when the
    /// path solves the puzzle), as [`Rules::failures`] lists them, with
    /// each region's failures remembered in `memo` (which must only ever
    /// be used with these rules). A polyomino fit that gives up on the
    /// workspace's limits raises [`Workspace::fit_interrupted`] as usual,
    /// and its region is not remembered.
    pub fn failures_remembered(
        &self,
        lines: &[Line],
        start: usize,
        end: usize,
        ws: &mut Workspace,
        memo: &mut RegionMemo,
        out: &mut Vec<u32>,
    ) {
        let b = &self.board;
        let n = b.len();
        if memo.keys.len() != n || memo.seen.len() >= MAX_REGIONS {
            memo.reset(n);
        }
        out.clear();
        ws.covered.clear();
        ws.covered.extend(lines.iter().map(|&l| l != Line::None));
        ws.removed.clear();
        ws.removed.resize(n, false);
        // Global errors: gaps crossed, dots of the wrong colour.
        let fails = lines
            .iter()
            .zip(&self.line_fails)
            .fold(0u8, |acc, (&l, &f)| acc | (f >> l as u8));
        if fails & 1 != 0 {
            for (i, &l) in lines.iter().enumerate() {
                let wrong = l != Line::None
                    && (b.gap[i] != crate::model::Gap::None
                        || matches!(
                            (b.dot[i], l),
                            (Dot::Blue, Line::Yellow) | (Dot::Yellow, Line::Blue)
                        ));
                if wrong {
                    out.push(i as u32);
                }
            }
        }
        let mut regions = std::mem::take(&mut ws.regions);
        regions::regions_unordered(b, &ws.covered, start, end, &mut regions);
        let ends = memo.keys[start].rotate_left(17) ^ memo.keys[end].rotate_left(41);
        let end_edge = if b.kind[end] == SlotKind::Edge {
            end
        } else {
            usize::MAX
        };
        for r in 0..regions.len() {
            let region = regions.get(r);
            let key = region.iter().fold(ends, |h, &s| h ^ memo.keys[s as usize]);
            if let Some(&(from, to)) = memo.seen.get(&key) {
                memo.hits += 1;
                out.extend_from_slice(&memo.failing[from as usize..to as usize]);
                continue;
            }
            memo.misses += 1;
            // Elimination marks need the engine's order; the other checks
            // do not.
            let marked = b.has_negations && region.iter().any(|&s| b.sym[s as usize] == Sym::Nega);
            let mut ordered = std::mem::take(&mut memo.ordered);
            if marked {
                regions::ordered_region(
                    b,
                    &ws.covered,
                    start,
                    end_edge,
                    regions.seed(r),
                    &mut ordered,
                    &mut memo.stack,
                );
            } else {
                ordered.clear();
                ordered.extend_from_slice(region);
            }
            let was = ws.scratch.fit_interrupted();
            ws.scratch.clear_fit_interrupted();
            let covered = std::mem::take(&mut ws.covered);
            let outcome = self.judge_region(&ordered, &covered, ws, false);
            ws.covered = covered;
            memo.ordered = ordered;
            out.extend_from_slice(&outcome.invalid);
            if ws.scratch.fit_interrupted() {
                continue; // a guess: not remembered (and the flag stays up)
            }
            if was {
                ws.scratch.raise_fit_interrupted();
            }
            let from = memo.failing.len() as u32;
            memo.failing.extend_from_slice(&outcome.invalid);
            memo.seen.insert(key, (from, memo.failing.len() as u32));
        }
        ws.regions = regions;
    }
}

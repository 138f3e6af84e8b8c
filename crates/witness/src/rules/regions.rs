//! Regions: the masked grid and the engine's flood fill, in its exact
//! depth-first order (`docs/rules.md#regions`).

use super::board::{Board, NONE};
use crate::model::SlotKind;

/// Mask values of the engine's masked grid.
const COUNT: u8 = 0;
const PROCESSED: u8 = 1;
const NONCOUNT: u8 = 2;

/// The regions of a traced board: each a list of slot indices in the
/// engine's flood-fill pre-order (NONCOUNT slots left out).
#[derive(Clone, Debug, Default)]
pub struct Regions {
    /// Slot indices of all regions, one after another.
    pub slots: Vec<u32>,
    /// Region `k` is `slots[bounds[k]..bounds[k+1]]`.
    pub bounds: Vec<usize>,
    /// The slot each region's flood started at (the smallest of its
    /// component, which may be an unlisted pass-through start or end).
    pub seeds: Vec<u32>,
    /// Scratch: the masked grid.
    mask: Vec<u8>,
    /// Scratch: the flood's stack.
    stack: Vec<u32>,
}

impl Regions {
    /// Number of regions.
    pub fn len(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }
    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The slots of region `k`.
    pub fn get(&self, k: usize) -> &[u32] {
        &self.slots[self.bounds[k]..self.bounds[k + 1]]
    }
    /// The slot region `k`'s flood started at: the seed from which
    /// [`ordered_region`] floods it in the engine's order.
    pub fn seed(&self, k: usize) -> usize {
        self.seeds[k] as usize
    }
}

/// Splits the board into regions for the given lines, start and end.
pub fn regions(board: &Board, covered: &[bool], start: usize, end: usize, out: &mut Regions) {
    split(board, covered, start, end, out, true);
}

/// [`regions`], with the slots of each region in some order (the regions
/// themselves, their slot sets and their order are the same): quicker, for
/// checks that do not depend on the order within a region.
pub fn regions_unordered(
    board: &Board,
    covered: &[bool],
    start: usize,
    end: usize,
    out: &mut Regions,
) {
    split(board, covered, start, end, out, false);
}

/// The regions, each in the engine's flood order when `ordered`.
fn split(
    board: &Board,
    covered: &[bool],
    start: usize,
    end: usize,
    out: &mut Regions,
    ordered: bool,
) {
    let n = board.len();
    let mut mask = std::mem::take(&mut out.mask);
    mask.clear();
    // PROCESSED for covered nodes and edges and for outside slots, COUNT
    // for the rest.
    mask.extend(
        board
            .kind
            .iter()
            .zip(covered)
            .zip(&board.outside)
            .map(|((&k, &c), &o)| {
                // Bitwise, so that the loop has no branches.
                if ((k != SlotKind::Face) & c) | o {
                    PROCESSED
                } else {
                    COUNT
                }
            }),
    );
    if board.kind[start] == SlotKind::Edge {
        mask[start] = if board.fat_startpoints {
            PROCESSED
        } else {
            NONCOUNT
        };
    }
    if board.kind[end] == SlotKind::Edge {
        mask[end] = NONCOUNT;
    }
    out.slots.clear();
    out.bounds.clear();
    out.bounds.push(0);
    out.seeds.clear();
    let mut stack = std::mem::take(&mut out.stack);
    stack.clear();
    // A region starts at its smallest slot, as in the engine's scan.
    for i in 0..n {
        if mask[i] == PROCESSED {
            continue;
        }
        out.seeds.push(i as u32);
        if ordered {
            flood_ordered(board, i, &mut mask, &mut stack, &mut out.slots);
        } else {
            flood(board, i, &mut mask, &mut stack, &mut out.slots);
        }
        out.bounds.push(out.slots.len());
    }
    out.mask = mask;
    out.stack = stack;
}

/// Lists slot `j` unless NONCOUNT, and marks it PROCESSED.
#[inline]
fn take(j: usize, mask: &mut [u8], slots: &mut Vec<u32>) {
    if mask[j] != NONCOUNT {
        slots.push(j as u32);
    }
    mask[j] = PROCESSED;
}

/// The engine's recursive `_floodFill` from slot `i`, with an explicit
/// stack of frames (slot, next neighbour to try), neighbours in the order
/// down, up, right, left: its slots in the engine's pre-order.
fn flood_ordered(
    board: &Board,
    i: usize,
    mask: &mut [u8],
    stack: &mut Vec<u32>,
    slots: &mut Vec<u32>,
) {
    take(i, mask, slots);
    stack.push((i as u32) << 2);
    while let Some(&top) = stack.last() {
        let (j, mut d) = ((top >> 2) as usize, top & 3);
        let nbr = &board.flood_nbr[j];
        let mut next = None;
        while next.is_none() && d < 4 {
            let k = nbr[d as usize];
            if k != NONE && mask[k as usize] != PROCESSED {
                next = Some(k as usize);
            }
            d += 1;
        }
        let Some(k) = next else {
            stack.pop();
            continue;
        };
        if d < 4 {
            *stack.last_mut().expect("a frame") = ((j as u32) << 2) | d;
        } else {
            stack.pop(); // nothing left to try here
        }
        take(k, mask, slots);
        stack.push((k as u32) << 2);
    }
}

/// A plain flood from slot `i`: every slot is marked when first reached.
fn flood(board: &Board, i: usize, mask: &mut [u8], stack: &mut Vec<u32>, slots: &mut Vec<u32>) {
    take(i, mask, slots);
    stack.push(i as u32);
    while let Some(j) = stack.pop() {
        for &k in &board.flood_nbr[j as usize] {
            if k != NONE && mask[k as usize] != PROCESSED {
                take(k as usize, mask, slots);
                stack.push(k);
            }
        }
    }
}

/// The region grown from `seed` (the smallest slot index of its component,
/// where the engine's scan would start it), in the engine's flood order,
/// for a line that has not ended yet, or, with `end` a mid-segment end slot
/// (`usize::MAX` for none), has ended there: walls are covered slots (a
/// mid-segment start is a pass-through unless FAT, a mid-segment end
/// always; neither is listed) and outside slots.
/// `stack` is scratch (it also keeps the flood's seen bits, so nothing is
/// allocated once it has grown); its contents on return are unspecified.
pub fn ordered_region(
    board: &Board,
    covered: &[bool],
    start: usize,
    end: usize,
    seed: usize,
    out: &mut Vec<u32>,
    stack: &mut Vec<u32>,
) {
    let noncount = if board.kind[start] == SlotKind::Edge && !board.fat_startpoints {
        start
    } else {
        usize::MAX
    };
    let blocked = |j: usize| board.outside[j] || (covered[j] && j != noncount && j != end);
    out.clear();
    // `stack[..words]` are the seen bits, the flood's stack lies above.
    let words = board.len().div_ceil(32);
    stack.clear();
    stack.resize(words, 0);
    let seen = |stack: &[u32], j: usize| stack[j / 32] & (1 << (j % 32)) != 0;
    stack.push(seed as u32);
    while stack.len() > words {
        let j = stack.pop().expect("non-empty") as usize;
        if seen(stack, j) {
            continue;
        }
        stack[j / 32] |= 1 << (j % 32);
        if j != noncount && j != end {
            out.push(j as u32);
        }
        for &k in board.flood_nbr[j].iter().rev() {
            if k != NONE && !seen(stack, k as usize) && !blocked(k as usize) {
                stack.push(k);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::Puzzle;

    /// The engine's flood written plainly, as a reference: an iterative
    /// DFS that marks on pop and pushes neighbours in reverse.
    fn reference(board: &Board, covered: &[bool], start: usize, end: usize) -> Vec<Vec<u32>> {
        let n = board.len();
        let mut mask = vec![COUNT; n];
        for i in 0..n {
            if board.kind[i] != SlotKind::Face && covered[i] || board.outside[i] {
                mask[i] = PROCESSED;
            }
        }
        if board.kind[start] == SlotKind::Edge {
            mask[start] = if board.fat_startpoints {
                PROCESSED
            } else {
                NONCOUNT
            };
        }
        if board.kind[end] == SlotKind::Edge {
            mask[end] = NONCOUNT;
        }
        let mut out = Vec::new();
        for i in 0..n {
            if mask[i] == PROCESSED {
                continue;
            }
            let mut region = Vec::new();
            let mut stack = vec![i as u32];
            while let Some(j) = stack.pop() {
                let j = j as usize;
                if mask[j] == PROCESSED {
                    continue;
                }
                if mask[j] != NONCOUNT {
                    region.push(j as u32);
                }
                mask[j] = PROCESSED;
                for &k in board.flood_nbr[j].iter().rev() {
                    if k != NONE && mask[k as usize] != PROCESSED {
                        stack.push(k);
                    }
                }
            }
            out.push(region);
        }
        out
    }

    /// A xorshift generator from `seed`, for the random boards.
    pub(crate) fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
        move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        }
    }

    /// A random board `fw` x `fh` faces (a pillar or not) with removed
    /// edges, some joined to the border (outside slots), FAT starts a
    /// third of the time, and a random cover with a start and an end
    /// anywhere.
    pub(crate) fn random_cover(
        next: &mut impl FnMut() -> u64,
        fw: usize,
        fh: usize,
        pillar: bool,
    ) -> (Board, Vec<bool>, usize, usize) {
        let mut p = Puzzle::new(fw, fh, pillar).unwrap();
        for pos in p.positions().collect::<Vec<_>>() {
            if pos.kind() == SlotKind::Edge && next().is_multiple_of(6) {
                p.cell_mut(pos).gap = crate::model::Gap::Full;
            }
        }
        let mut board = Board::new(&p).unwrap();
        board.fat_startpoints = next().is_multiple_of(3);
        let n = board.len();
        let density = 1 + next() % 4;
        let covered: Vec<bool> = (0..n).map(|_| next() % 5 < density).collect();
        let (start, end) = (next() as usize % n, next() as usize % n);
        (board, covered, start, end)
    }

    #[test]
    fn the_flood_keeps_the_engine_order() {
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut out = Regions::default();
        let (mut outside, mut checked) = (0, 0);
        for case in 0..3000 {
            let pillar = next().is_multiple_of(4);
            let (fw, fh) = (1 + next() as usize % 5, 1 + next() as usize % 5);
            let (board, covered, start, end) = random_cover(&mut next, fw, fh, pillar);
            outside += board.outside.iter().filter(|&&o| o).count();
            regions(&board, &covered, start, end, &mut out);
            let got: Vec<Vec<u32>> = (0..out.len()).map(|k| out.get(k).to_vec()).collect();
            let want = reference(&board, &covered, start, end);
            assert_eq!(got, want, "case {case}");
            regions_unordered(&board, &covered, start, end, &mut out);
            let sorted = |r: &[u32]| {
                let mut r = r.to_vec();
                r.sort_unstable();
                r
            };
            let got: Vec<Vec<u32>> = (0..out.len()).map(|k| sorted(out.get(k))).collect();
            let want: Vec<Vec<u32>> = want.iter().map(|r| sorted(r)).collect();
            assert_eq!(got, want, "case {case}, unordered");
            // One region at a time, from the slot the engine's scan starts
            // it at, for a line whose start and end are covered (and not on
            // removed edges, where the editor puts none): the same.
            if board.outside[start] || board.outside[end] {
                continue;
            }
            checked += 1;
            let mut covered = covered;
            for (i, c) in covered.iter_mut().enumerate() {
                *c = (*c || i == start || i == end) && board.kind[i] != SlotKind::Face;
            }
            let end_edge = if board.kind[end] == SlotKind::Edge {
                end
            } else {
                usize::MAX
            };
            let want = reference(&board, &covered, start, end);
            let seeds = reference_seeds(&board, &covered, start, end);
            let (mut slots, mut stack) = (Vec::new(), Vec::new());
            for (region, &seed) in want.iter().zip(&seeds) {
                ordered_region(
                    &board, &covered, start, end_edge, seed, &mut slots, &mut stack,
                );
                assert_eq!(&slots, region, "case {case}, region from {seed}");
            }
        }
        assert!(outside > 1000 && checked > 2000);
    }

    /// The slot each region of [`reference`] starts at (the smallest not
    /// yet flooded, which may be a pass-through start or end).
    fn reference_seeds(board: &Board, covered: &[bool], start: usize, end: usize) -> Vec<usize> {
        let n = board.len();
        let mut seen = vec![false; n];
        let wall = |i: usize| {
            let pass = board.kind[i] == SlotKind::Edge
                && (i == end || (i == start && !board.fat_startpoints));
            board.outside[i] || (board.kind[i] != SlotKind::Face && covered[i] && !pass)
        };
        let mut seeds = Vec::new();
        for i in 0..n {
            if seen[i] || wall(i) {
                continue;
            }
            seeds.push(i);
            let mut stack = vec![i];
            while let Some(j) = stack.pop() {
                if seen[j] {
                    continue;
                }
                seen[j] = true;
                for &k in &board.flood_nbr[j] {
                    if k != NONE && !seen[k as usize] && !wall(k as usize) {
                        stack.push(k as usize);
                    }
                }
            }
        }
        seeds
    }
}

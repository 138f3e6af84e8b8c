//! Regions: the masked grid and the engine's flood fill, in its exact
//! depth-first order (spec §5.2).

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
}

/// Splits the board into regions for the given lines, start and end.
pub fn regions(board: &Board, covered: &[bool], start: usize, end: usize, out: &mut Regions) {
    let n = board.len();
    let mut mask = std::mem::take(&mut out.mask);
    mask.clear();
    mask.resize(n, COUNT);
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
    out.slots.clear();
    out.bounds.clear();
    out.bounds.push(0);
    let mut stack = std::mem::take(&mut out.stack);
    stack.clear();
    for i in 0..n {
        if mask[i] == PROCESSED {
            continue;
        }
        // Iterative DFS that marks on pop and pushes neighbours in reverse:
        // the same pre-order as the engine's recursive `_floodFill`.
        stack.push(i as u32);
        while let Some(j) = stack.pop() {
            let j = j as usize;
            if mask[j] == PROCESSED {
                continue;
            }
            if mask[j] != NONCOUNT {
                out.slots.push(j as u32);
            }
            mask[j] = PROCESSED;
            for &k in board.flood_nbr[j].iter().rev() {
                if k != NONE && mask[k as usize] != PROCESSED {
                    stack.push(k);
                }
            }
        }
        out.bounds.push(out.slots.len());
    }
    out.mask = mask;
    out.stack = stack;
}

/// The region grown from `seed` (the smallest slot index of its component,
/// where the engine's scan would start it), in the engine's flood order,
/// for a line that has not ended yet: walls are covered slots (a
/// mid-segment start is a pass-through unless FAT) and outside slots.
pub fn ordered_region(
    board: &Board,
    covered: &[bool],
    start: usize,
    seed: usize,
    out: &mut Vec<u32>,
    stack: &mut Vec<u32>,
) {
    let noncount = if board.kind[start] == SlotKind::Edge && !board.fat_startpoints {
        start
    } else {
        usize::MAX
    };
    let blocked = |j: usize| board.outside[j] || (covered[j] && j != noncount);
    out.clear();
    stack.clear();
    stack.push(seed as u32);
    let mut seen = vec![false; board.len()];
    while let Some(j) = stack.pop() {
        let j = j as usize;
        if seen[j] {
            continue;
        }
        seen[j] = true;
        if j != noncount {
            out.push(j as u32);
        }
        for &k in board.flood_nbr[j].iter().rev() {
            if k != NONE && !seen[k as usize] && !blocked(k as usize) {
                stack.push(k);
            }
        }
    }
}

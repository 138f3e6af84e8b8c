//! Looking at the search from outside its walk, for measurement
//! (`witness-lab`'s `subtrees`): where each node of the current
//! branch was entered, every test at full strength, and one node's
//! verdict alone.

use super::*;

impl<'p, const N: usize> Search<'p, N> {
    /// Records (or stops recording) the visit count at which each node of
    /// the current branch was entered ([`Search::trail`]). Recording costs
    /// a store per node; nothing else changes.
    pub fn set_trail(&mut self, on: bool) {
        self.trail = on.then(Vec::new);
    }

    /// With [`Search::set_trail`] on: at index `d`, the visit count
    /// ([`Search::visited`]) when the node `d` moves deep on the current
    /// branch (while a solution is being reported: the solution's) was
    /// entered. Entries past the branch's depth are stale.
    pub fn trail(&self) -> &[u64] {
        self.trail.as_deref().unwrap_or(&[])
    }

    /// Runs every budgeted test at every node (the pocket and packing
    /// tests' budgets do not apply), a packing search for up to
    /// `pack_steps` steps and an open region's tiling for up to
    /// `open_tile_steps`. Only more cuts, each still sound: the budgets
    /// decide only whether a test runs, and a packing search that gives up
    /// lets the region pass.
    pub fn set_full_tests(&mut self, pack_steps: u32, open_tile_steps: u32) {
        self.pocket_budget.on = false;
        self.caps = TestCaps {
            pack_steps,
            open_tile_steps,
            budgeted: false,
        };
    }

    /// The verdict of the tests on the node reached by `prefix` from
    /// `start` (a start slot, the prefix's moves legal), judged alone as
    /// the walk judges a node it enters (without what the branch above
    /// narrowed); `None` when that node is not a node slot or the prefix
    /// leaves the board. The line is drawn and taken away again, and the
    /// branch's state is cleared: call it between runs only.
    pub fn judge(&mut self, start: usize, prefix: &[Direction]) -> Option<bool> {
        let b = &self.plan.rules.board;
        let mut path = vec![start];
        for &d in prefix {
            let q = b.nbr[*path.last().expect("a start")][d as usize];
            if q == NONE {
                return None;
            }
            path.push(q as usize);
        }
        let h = *path.last().expect("a start");
        if b.kind[h] != SlotKind::Node {
            return None;
        }
        self.start = start;
        self.room = self.corridor.unwrap_or(self.masks.walk);
        self.passed = (Bits::empty(), NONE);
        self.finals.clear();
        // The parts kept by depth belong to the walk's branch.
        self.kept.part_hints.borrow_mut().at.clear();
        self.set_half_walls(start);
        for &q in &path {
            self.mark(q);
        }
        self.moves.extend_from_slice(prefix);
        let ok = self.promising(h);
        self.moves.clear();
        self.finals.clear();
        self.kept.part_hints.borrow_mut().at.clear();
        for &q in path.iter().rev() {
            self.unmark(q);
        }
        Some(ok)
    }
}

/// Cuts made by the tests, by test (the `CUT_` indices), over every search
/// of the process; counted only with the `pack-stats` feature, for
/// measurement.
pub static CUTS: [AtomicU64; CUT_KINDS] = [const { AtomicU64::new(0) }; CUT_KINDS];

/// How many kinds of cut [`CUTS`] tells apart.
pub const CUT_KINDS: usize = 12;
/// A node the line must visit is out of its reach.
pub const CUT_MUST: usize = 0;
/// The pocket narrowing found no way through the pockets.
pub const CUT_NARROW: usize = 1;
/// No end is in reach.
pub const CUT_ENDS: usize = 2;
/// More elements are lost for good than there are marks.
pub const CUT_MARKS: usize = 3;
/// Dots, triangles, square pairs or must-pass nodes (no marks).
pub const CUT_LOCAL: usize = 4;
/// The grid's colour parity.
pub const CUT_PARITY: usize = 5;
/// A region (beside the head or the dropped nodes) failed.
pub const CUT_REGIONS: usize = 6;
/// The pocket test.
pub const CUT_POCKETS: usize = 7;
/// Of `CUT_REGIONS`: an open region failed a test.
pub const CUT_OPEN: usize = 8;
/// Of `CUT_REGIONS`: a sealed region failed.
pub const CUT_SEALED: usize = 9;
/// Of `CUT_OPEN`, without marks: the pieces could not be packed or tiled.
pub const CUT_PIECES: usize = 10;
/// Of `CUT_OPEN`, without marks: the parts' areas could not balance.
pub const CUT_AREA: usize = 11;

/// Counts a cut of kind `kind` in [`CUTS`] (with the `pack-stats`
/// feature; otherwise nothing).
#[inline(always)]
pub fn note(kind: usize) {
    #[cfg(feature = "pack-stats")]
    CUTS[kind].fetch_add(1, Ordering::Relaxed);
    #[cfg(not(feature = "pack-stats"))]
    let _ = kind;
}

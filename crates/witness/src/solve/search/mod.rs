//! The depth-first search over legal paths, with pruning that never loses a
//! solution.
//!
//! The line advances one slot at a time, in the engine's move order. At each
//! endpoint the validator decides (after the cheap tests below have passed).
//! At each node the search floods the nodes the line can still reach (a
//! bitset fill) and gives up the branch when:
//! - no endpoint is reachable any more;
//! - without elimination marks on the board: a dot can no longer be
//!   covered or passed through, a triangle already has too many line edges
//!   or can no longer get enough, two squares of different colours side by
//!   side can no longer be separated, a node the line must pass has fewer
//!   than two ways left (counted again after the edges that nodes with
//!   exactly two ways force, which may close no ring), or the nodes it
//!   must still visit break the grid's colour parity;
//! - a node the line must visit is out of its reach, or lies in a pocket
//!   it could only enter to end there, where there is no end or the
//!   pockets do not nest ([`pockets`]). With symmetry this is the
//!   main (blue) line, over the nodes it alone can reach: it must visit
//!   the blue dots and the mirror nodes of the yellow ones. One step out
//!   of a dead end of a reach the test passed with (nothing else lost),
//!   it passes again without a search ([`Pockets::follows`]). Without
//!   symmetry the test runs on a budget its cuts are measured to earn
//!   (`PocketBudget`);
//! - with elimination marks: more dots, triangles and unseparable square
//!   pairs are lost for good than there are marks to cancel them, on the
//!   whole board or in one region;
//! - a region the line can no longer touch (sealed against the border,
//!   removed edges, the line itself or its mirror, around a pillar) fails
//!   the validator's own region check, elimination marks included. Such a
//!   region is final: its slots, its walls and so its verdict cannot change.
//!   Without marks, when only a fit of its pieces is left to decide and
//!   they must tile it exactly, the tiling is searched on face bitsets
//!   ([`FaceMasks::tiles`]) instead of the validator's slot-by-slot fit;
//! - an open region without elimination marks is already hopeless (a star
//!   without a partner left, an odd number of stars of a colour nothing
//!   else has there, pieces needing more room than there is, a
//!   piece with no placement inside the region, a part the line can no
//!   longer cut holding two square colours, a crowded star, more room than
//!   its pieces fill or faces no placement of the region's pieces covers;
//!   parts with pieces that have more faces than their pieces' area, by
//!   more than the other parts' pieces have area beyond their faces; with
//!   subtractive pieces, a net area below 0 or above its size), or its
//!   pieces cannot all be placed in it at once, apart, covering the parts
//!   the line can no longer cut that hold a piece or touch a placement,
//!   each group of touching placements holding exactly the pieces placed
//!   in it ([`FaceMasks::packs`]; when their area is the region's size, every
//!   final region holds pieces, so they must tile it whole:
//!   [`FaceMasks::tiles`], whose verdicts are kept), tested on a budget
//!   that the test's cuts earn (about a quarter of the search's time, and
//!   the nodes its cuts save);
//! - an open region with elimination marks has more elements that must go
//!   (lost dots and triangles, lone stars, pieces that cannot tile it,
//!   squares of a second colour or a third star of a colour in a part the
//!   line can no longer cut) than marks.
//!
//! "Reach" is narrowed to the nodes the line may still visit before any of
//! these tests: dead ends are peeled off (nodes with one way on that are
//! not ends nor must-visit nodes, again and again), and on boards of
//! [`Plan::narrow_min_nodes`] nodes or more (49: 6x6 faces), every 16 slots
//! of depth the pocket search drops the pockets
//! the line could only enter to end there without an end, or beside the
//! pocket it must end in. What is dropped stays dropped below (the next
//! floods stay inside it). So a region beside dropped nodes only counts
//! as sealed, dots and triangles there as lost. All this only shrinks an
//! over-estimate of where the line can go, so nothing is lost.
//!
//! The line covers an edge only by passing from one of its nodes to the
//! other, or by ending on it: so an edge counts as still coverable only
//! while both its nodes are reachable (one, for an edge the line may end
//! on). The regions beside the head are judged at every step, and all
//! regions when some free node has dropped out of reach since the last
//! node checked; sealed regions, being final, once per branch.
//!
//! Regions are face bitsets flooded over per-edge links ([`super::faces`]);
//! on boards with removed faces, where nodes and edges beside them join
//! faces that share no edge, the flood also runs through those rim nodes.

pub mod inspect;
mod marks;
mod must_pass;
mod packing;
#[cfg(feature = "pack-stats")]
pub use packing::pack_stats;
pub mod pockets;
mod reach;
mod regions;
mod walk;

pub use walk::run_branches;

use super::bits::Bits;
use super::faces::{coverable, FaceMasks, Link, Links, RimLinks, StuckParts, TileMemo};
use super::hash::Kept;
use super::plan::{Masks, MirrorShape, Plan, VERTICAL};
use super::Limits;
use crate::model::{Direction, SlotKind};
use crate::path::Line;
use crate::rules::board::{Sym, NONE};

use crate::rules::Workspace;
use pockets::Pockets;
#[cfg(feature = "native")]
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The pocket narrowing runs every this many slots of depth (the module
/// overview says 16); the nodes it drops stay dropped below.
const NARROW_EVERY: usize = 16;

/// The most steps [`Search::tiles`] takes before it leaves a sealed
/// region's fit to the validator.
const TILE_STEPS: u32 = 1 << 20;

/// The most steps the tiling of an open region takes before the packing
/// test judges it instead.
const OPEN_TILE_STEPS: u32 = 1 << 12;

/// Tiling steps that count as one unit of the packing test's budget.
const TILE_STEPS_PER_UNIT: u64 = 4;

/// The most verdicts [`Search::tiles`] keeps. Small enough to stay mostly
/// in cache (about 1.6 MB: 2^15 buckets of 48 bytes); more verdicts miss
/// the cache on nearly every lookup and save next to nothing (see
/// docs/benchmarks.md).
const TILE_MEMO: usize = 1 << 14;

/// What the visitor is told about each solution.
pub struct Found<'a> {
    /// The start slot.
    pub start: usize,
    /// The end slot.
    pub end: usize,
    /// The moves.
    pub moves: &'a [Direction],
}

/// The search state for one thread.
pub struct Search<'p, const N: usize> {
    plan: &'p Plan,
    masks: &'p Masks<N>,
    lines: Vec<Line>,
    covered: Vec<bool>,
    free: Bits<N>,
    /// The nodes of the first row (for mirroring sets row by row,
    /// [`Search::with_mirrors`]).
    row: Bits<N>,
    /// The nodes the line may still visit, as the last node checked on
    /// this branch found them: later floods stay inside them.
    room: Bits<N>,
    /// Whether the pocket narrowing runs ([`Plan::narrow_min_nodes`]).
    narrowing: bool,
    /// The (main line's) reach the pocket test last passed with on this
    /// branch, and the head node it passed at (`NONE`: none yet).
    passed: (Bits<N>, u32),
    /// Enterable horizontal edges the line does not cover, by west node.
    open_h: Bits<N>,
    /// Enterable vertical edges the line does not cover, by north node.
    open_v: Bits<N>,
    moves: Vec<Direction>,
    start: usize,
    ws: Workspace,
    fm: FaceMasks<N>,
    links: Links<N>,
    /// The rim links in force (boards with removed faces).
    rim: RimLinks<N>,
    /// Covered start edges (the fat main start, the mirror's start) that
    /// may still join their faces around an uncovered end node.
    half_walls: Vec<(Link, [[u32; 3]; 2])>,
    /// Elimination marks on the board (inside faces).
    negas: u32,
    /// Nodes the single line must visit (dotted nodes and those of
    /// [`Plan::must_pass`]), when the parity test applies; otherwise empty.
    must_nodes: Bits<N>,
    /// Nodes of even colour in the grid's 2-colouring.
    even: Bits<N>,
    /// Nodes the line (with symmetry: the main line) must visit, for the
    /// pocket test, without elimination marks; otherwise empty.
    pocket_must: Bits<N>,
    /// The pocket test's tables, for must-visit nodes or narrowing.
    pockets: Option<Pockets>,
    /// The nodes of `pocket_must` that are not ends: the line passes them,
    /// so each needs two ways.
    main_must: Bits<N>,
    /// With symmetry, without elimination marks: the dotted nodes and the
    /// main line's must-pass nodes and their mirrors, but none at or
    /// beside an end or its mirror. One line or the other passes each, so
    /// each needs two ways to nodes either line can reach.
    both_must: Bits<N>,
    /// With elimination marks, without symmetry: the dotted nodes that are
    /// not ends, which the line covers only by passing them.
    dot_passes: Bits<N>,
    /// With elimination marks: a face of the region of each dot the line
    /// can no longer cover, as found at the current node (at most 64).
    lost_dots: Vec<u32>,
    /// With elimination marks: the faces of the triangles already wrong for
    /// good, as found at the current node.
    lost_triangles: Bits<N>,
    /// The verdicts and covers kept from branch to branch ([`Kept`]).
    kept: KeptTables<N>,
    /// Whether open regions get the packing test ([`Plan::packing`], and
    /// pieces on the board).
    packing: bool,
    /// Per depth (in slots, the last for all deeper): the nodes of the
    /// subtrees searched to the end while packing, and how many there were.
    sizes: [(u64, u64); DEPTHS],
    /// The pocket test's budget ([`PocketBudget`]).
    pocket_budget: PocketBudget,
    region_buf: Vec<u32>,
    /// The steps [`Search::tiles`] has taken.
    tile_steps: std::cell::Cell<u64>,
    stack: Vec<u32>,
    /// While judging the regions at an end on an edge: that slot, which the
    /// validator's regions pass through (`docs/rules.md#regions`); else
    /// `usize::MAX`.
    end_through: usize,
    /// Faces of sealed regions already judged and passed, as known at each
    /// depth of the current branch (top: the latest). Sealed regions are
    /// final, so they are not judged again below.
    finals: Vec<Bits<N>>,
    /// The nodes the line may visit at all ([`Search::set_corridor`]),
    /// if kept to some.
    corridor: Option<Bits<N>>,
    /// The plan's enterable slots, but for the nodes out of the corridor.
    enterable: Vec<bool>,
    /// Start slots not searched from ([`Search::skip_starts`]).
    skipped: Option<Vec<bool>>,
    limits: &'p Limits,
    ticks: u32,
    /// Set when the limits stopped the search.
    pub stopped: bool,
    /// When set, branches reaching this depth are recorded, not searched.
    pub split_depth: Option<usize>,
    /// Prefixes recorded at `split_depth`: start and moves.
    pub tasks: Vec<(usize, Vec<Direction>)>,
    /// Count of search nodes visited.
    pub visited: u64,
    /// Where a run begins, its budget, and where it resumes
    /// ([`Search::set_budget`], [`Search::set_resume`]).
    turn: TurnState,
    /// Set when the turn's budget (`run_cap`), not the limits, stopped
    /// the search.
    pub out_of_budget: bool,
    /// When set, the visit count at which the node at each depth of the
    /// current branch was entered ([`Search::set_trail`]).
    trail: Option<Vec<u64>>,
    /// The step caps of the tests that have one, and whether budgets
    /// apply ([`Search::set_full_tests`]).
    caps: TestCaps,
}

/// How far the budgeted tests may go: the packing search's and the open
/// tiling's step caps, and whether the packing test's budget applies.
struct TestCaps {
    pack_steps: u32,
    open_tile_steps: u32,
    budgeted: bool,
}

/// The tables a [`Search`] keeps from branch to branch: verdicts on
/// regions, pockets and packings, and the piece covers and tilings found,
/// each bounded (then it starts over).
struct KeptTables<const N: usize> {
    /// Piece-fit verdicts of sealed regions, by their faces, the links
    /// inside them (the covered edges between their faces) and the start
    /// (which decides the covered edge regions pass through).
    fits: Kept<(Bits<N>, Links<N>, u64), bool>,
    /// Sealed region verdicts with elimination marks, by what decides them
    /// ([`Search::sealed_key`]; at most [`MAX_FITS`]).
    sealed_verdicts: Kept<SealedKey<N>, bool>,
    /// Pocket test verdicts by the (main line's) reach, the head node and
    /// the start, which decide them (at most [`MAX_POCKET_VERDICTS`]).
    pocket_verdicts: Kept<(Bits<N>, u32, u32), bool>,
    /// Pocket narrowings by the same (the narrowed reach, or `None` when
    /// the test fails).
    narrowed: Kept<(Bits<N>, u32, u32), Option<Bits<N>>>,
    /// Open regions' piece covers ([`FaceMasks::piece_cover`]) by region.
    covers: std::cell::RefCell<Kept<Bits<N>, Option<Bits<N>>>>,
    /// Open regions' packing verdicts, kept from test to test.
    packings: std::cell::RefCell<Packings<N>>,
    /// The parts of open regions found at each depth of the branch, to
    /// start the floods of the nodes below from ([`PartHints`]).
    part_hints: std::cell::RefCell<PartHints<N>>,
    /// The verdicts of [`Search::tiles`].
    tile_memo: std::cell::RefCell<TileMemo<N>>,
}

/// A [`Search`] run's place in the turns of a search by turns: the move
/// order and first start, the budget, and the branch it resumes from.
struct TurnState {
    /// The order in which moves are tried at each slot.
    order: [Direction; 4],
    /// [`Search::run_all`] begins with this start (by index) and goes on
    /// round the list.
    first_start: usize,
    /// The run stops once its work (nodes and fit steps, [`Search::work`])
    /// passes this: a turn's budget.
    run_cap: u64,
    /// Below this node count the budget needs no look (checked anyway
    /// every 64 nodes, as fits add work too).
    node_cap: u64,
    /// Where the budget stopped the search: [`Search::run_all`] resumes
    /// there.
    resume: Option<Resume>,
    /// The loop index of the current start in [`Search::run_all`].
    start_k: usize,
    /// The moves of the branch being replayed to resume a search.
    replay: Vec<Direction>,
    /// Nodes at depths below this are replayed (already searched up to
    /// the branch in `replay`); 0 when not resuming.
    replay_to: usize,
}

/// Where a search stopped by its budget goes on: the node reached by
/// `moves` from the `k`th start of [`Search::run_all`]'s loop, searched
/// afresh, then everything after it in the search's order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resume {
    /// The loop index of the start.
    pub k: usize,
    /// The moves from it.
    pub moves: Vec<Direction>,
    /// Whether a polyomino fit outlasted the budget at that node: the
    /// next turn then lets fits run to the end, or it would stop there
    /// again.
    pub in_fit: bool,
}

/// Whether to go on.
type Go = bool;

/// Per edge bit (by west or north node): the uncovered edges the line may
/// still cover (whether an edge is covered is read from the slots).
struct EdgeStates<const N: usize> {
    may_h: Bits<N>,
    may_v: Bits<N>,
}

impl<const N: usize> EdgeStates<N> {
    /// Whether the uncovered edge with this bit may still be covered.
    #[inline]
    fn may(&self, bit: u32) -> bool {
        let v = (bit & !VERTICAL) as usize;
        if bit & VERTICAL != 0 {
            self.may_v.get(v)
        } else {
            self.may_h.get(v)
        }
    }
}

/// Polyomino fit (and bitset tiling) steps that count as one search node
/// in a run's budget.
pub const FIT_STEPS_PER_NODE: u64 = 4;

/// The most steps (choice points of its search) one packing test of an
/// open region takes before it gives up and lets the region pass.
pub const PACK_STEPS: u32 = 256;

/// The packing test's budget, in units of about one search node's time
/// (see [`Packings`]): the units it may spend before it has earned any.
const PACK_START_UNITS: u64 = 4096;

/// Search nodes per unit of the packing test's budget earned by the search
/// itself: so the test costs at most about a quarter more time than the
/// search, unless its cuts earn more.
const PACK_NODES_PER_UNIT: u64 = 4;

/// Placement checks (the packing test's inner step) per unit of budget.
const PACK_WORK_PER_UNIT: u64 = 32;

/// Depths (in slots) told apart by the subtree sizes ([`Search::sizes`]).
const DEPTHS: usize = 128;

/// How many parts [`PartHints`] keeps per node.
const PART_HINTS: usize = 16;

/// The parts of open regions (faces joined by links the line can no
/// longer cut, [`FaceMasks::stuck`]) found at the nodes of the current
/// branch, by depth. Down a branch the line's reach only shrinks, so those
/// links only grow and parts only merge: a part found above, whose links
/// are all still uncuttable here, lies inside the part that holds any of
/// its faces, and a flood from it gets there in a few steps where a flood
/// from one face takes as many as the part is wide. Whether its links are
/// still uncuttable is checked, not assumed ([`PartRecord::within`]), so a
/// record left by another branch at the same depth is safe to use too.
#[derive(Default)]
struct PartHints<const N: usize> {
    at: Vec<PartRecord<N>>,
}

/// The parts found at one node ([`PartHints`]).
#[derive(Clone, Copy, Default)]
struct PartRecord<const N: usize> {
    /// The node ([`Search::visited`] when it was judged); 0: none yet.
    stamp: u64,
    /// The links the line could no longer cut there.
    stuck: Links<N>,
    /// The parts found there (the first `n`).
    parts: [Bits<N>; PART_HINTS],
    n: usize,
}

impl<const N: usize> PartRecord<N> {
    /// Whether every link of `self.stuck` is in `stuck`: then each part
    /// kept is joined by `stuck` too.
    fn within(&self, stuck: &Links<N>) -> bool {
        self.stamp != 0
            && self.stuck.right.and_not(&stuck.right).is_empty()
            && self.stuck.down.and_not(&stuck.down).is_empty()
            && self.stuck.wrap.and_not(&stuck.wrap).is_empty()
    }
}

/// How many recent packings a search keeps to try first.
const RECENT_PACKINGS: usize = 8;

/// The packing test's state ([`Search::packs_cached`]): what it keeps from
/// test to test, and its budget.
///
/// The test cuts some searches a thousandfold (a column the line can no
/// longer cut that two pieces cannot cover, found a dozen moves in) and
/// on others costs several times what it saves (many small pieces, where
/// every packing question is hard and the cuts come a step before other
/// tests would make them anyway). So it runs on a budget, in units of
/// about one search node's time: it earns one unit per
/// [`PACK_NODES_PER_UNIT`] nodes searched, and for each cut the nodes the
/// cut saves, estimated as the mean size of the subtrees searched to the
/// end at that depth; each test spends one unit, and one more per
/// [`PACK_WORK_PER_UNIT`] placement checks. Once spent, regions pass
/// untested until the search earns more. Skipping a test never loses a
/// solution.
struct Packings<const N: usize> {
    /// Recent packings found, with the pieces they place.
    recent: Vec<(Bits<N>, Vec<(u16, u32)>)>,
    /// Where the next one goes in `recent`.
    next: usize,
    /// Verdicts by region and the links inside it the line can no longer
    /// cut.
    verdicts: Kept<(Bits<N>, Links<N>), bool>,
    /// A reused buffer for the packing found.
    found: Vec<(u16, u32)>,
    /// Units spent.
    spent: u64,
    /// Units earned by cuts: the nodes they saved, estimated.
    saved: u64,
}

/// The pocket test's budget ([`Search::pockets_ok`]), in units of about one
/// search node's time.
///
/// The test cuts some searches a hundredfold; on others (a line that must
/// pass every node, where a node left with one way on tells the same
/// a step later) its cuts save about a node each and its scans cost a
/// quarter of the time. What a cut saves is measured: every
/// [`POCKET_PROBE_EVERY`]th cut is ignored and the branch searched all
/// the same (it holds no solution, so only time is lost), and the mean
/// size of those branches is what each cut earns. The test also earns
/// one unit per [`POCKET_NODES_PER_UNIT`] nodes searched, and
/// [`POCKET_START_UNITS`] to begin with; a scan of the reach costs one
/// unit per [`POCKET_NODES_PER_SCAN_UNIT`] nodes, and one more. Once the
/// budget is spent, nodes pass untested until the search earns more.
/// Skipping a test never loses a solution.
///
/// Only without symmetry: there the test is on the main line's reach, and
/// on slow symmetry puzzles it pays for itself several times over.
#[derive(Default)]
struct PocketBudget {
    /// Whether the budget applies (else every scan runs).
    on: bool,
    /// Units spent on scans.
    spent: u64,
    /// Cuts made (ignored ones included).
    cuts: u64,
    /// The nodes of the branches searched in spite of a cut, and how many.
    probed: u64,
    probes: u64,
    /// The depth of the branch searched in spite of a cut, if one is, and
    /// the nodes visited before it.
    probe: Option<usize>,
    probe_from: u64,
}

impl PocketBudget {
    /// Whether the budget allows a scan after `visited` search nodes.
    #[inline]
    fn may_test(&self, visited: u64) -> bool {
        if !self.on {
            return true;
        }
        let per_cut = self
            .probed
            .checked_div(self.probes)
            .unwrap_or(POCKET_FIRST_SAVING);
        let earned = POCKET_START_UNITS + visited / POCKET_NODES_PER_UNIT + self.cuts * per_cut;
        self.spent < earned
    }
}

/// The units the pocket test may spend before it has earned any: none, so
/// that a search of a few hundred nodes (half the corpus's puzzles) does
/// not pay for scans that rarely cut it (see docs/benchmarks.md).
const POCKET_START_UNITS: u64 = 0;

/// Search nodes per unit of the pocket test's budget earned by the search.
const POCKET_NODES_PER_UNIT: u64 = 8;

/// Nodes of the reach per unit of a pocket scan's cost.
const POCKET_NODES_PER_SCAN_UNIT: u64 = 4;

/// Every how many pocket cuts one is ignored, to measure what cuts save.
const POCKET_PROBE_EVERY: u64 = 16;

/// The most nodes of a branch searched in spite of a pocket cut.
const POCKET_PROBE_CAP: u64 = 1 << 14;

/// What a pocket cut is taken to save before any has been measured.
const POCKET_FIRST_SAVING: u64 = 64;

/// The most piece-fit verdicts a search keeps (then it starts over).
pub const MAX_FITS: usize = 1 << 15;

/// A sealed region's faces, open horizontal and vertical edges and free
/// nodes around them, and the start ([`Search::sealed_key`]).
type SealedKey<const N: usize> = (Bits<N>, Bits<N>, Bits<N>, Bits<N>, u32);

/// The most pocket test verdicts (and narrowings) a search keeps (then it
/// starts over).
pub const MAX_POCKET_VERDICTS: usize = 1 << 16;

/// The most piece covers of open regions a search keeps (then it starts
/// over): the same regions come back again and again (on hard puzzles a
/// few times each), and a cover costs some two thousand instructions to
/// find.
pub const MAX_COVERS: usize = 1 << 14;

/// Per node, whether at least one, at least two and at least three of the
/// sets hold it.
#[inline]
fn tally<const N: usize>(sets: &[Bits<N>; 4]) -> (Bits<N>, Bits<N>, Bits<N>) {
    let (mut one, mut two, mut three) = (Bits::empty(), Bits::empty(), Bits::empty());
    for x in sets {
        three = three.or(&two.and(x));
        two = two.or(&one.and(x));
        one = one.or(x);
    }
    (one, two, three)
}

/// The move index (left, right, up, down) the mirror line makes when the
/// main line makes move `d`.
fn mirror_dir(plan: &Plan, d: usize) -> usize {
    match plan.rules.board.symmetry {
        Some(s) if (d < 2 && s.x) || (d >= 2 && s.y) => d ^ 1,
        _ => d,
    }
}

impl<'p, const N: usize> Search<'p, N> {
    /// A fresh search over a plan.
    pub fn new(plan: &'p Plan, masks: &'p Masks<N>, limits: &'p Limits) -> Self {
        let n = plan.rules.board.len();
        let mut ws = Workspace::default();
        // Long polyomino fits watch the same limits; an interrupted fit
        // answers "fits", so the search then stops and reports nothing.
        ws.set_fit_limits(limits.deadline, limits.flags());
        let fm = FaceMasks::new(plan);
        let b = &plan.rules.board;
        let mut must_nodes = Bits::empty();
        let mut pocket_must = Bits::empty();
        if !plan.symmetric && plan.local_prune {
            for &v in &plan.must_pass {
                pocket_must.set(plan.node_of[v as usize] as usize);
            }
            pocket_must = pocket_must.or(&masks.dot_nodes);
        }
        if plan.symmetric && plan.local_prune {
            // The main (blue) line must pass its blue dots and the mirror
            // nodes of yellow ones.
            for &s in &plan.colored_dots {
                let s = s as usize;
                let t = match b.dot[s] {
                    crate::model::Dot::Blue => s,
                    _ => b.mirror[s] as usize,
                };
                if plan.node_of[t] != NONE {
                    pocket_must.set(plan.node_of[t] as usize);
                }
            }
        }
        let mut even = Bits::empty();
        // The 2-colouring holds across a pillar's seam only for an even
        // number of columns.
        if !plan.symmetric && plan.local_prune && (!b.pillar || plan.ncols.is_multiple_of(2)) {
            for &v in &plan.must_pass {
                must_nodes.set(plan.node_of[v as usize] as usize);
            }
            must_nodes = must_nodes.or(&masks.dot_nodes);
        }
        for v in 0..plan.nodes() {
            if (v % plan.ncols + v / plan.ncols).is_multiple_of(2) {
                even.set(v);
            }
        }
        let mut main_must = pocket_must;
        for &v in &plan.end_nodes {
            if b.end[plan.slot_of_node[v as usize] as usize] {
                main_must.clear(v as usize);
            }
        }
        let mut both_must = Bits::empty();
        if plan.symmetric && plan.local_prune {
            both_must = masks.dot_nodes.or(&main_must);
            for v in main_must.iter() {
                both_must.set(plan.mirror_node[v] as usize);
            }
            // Not the nodes at or beside an end, nor their mirrors: the
            // mirror line ends at the mirror of the main line's end, which
            // need not be an end itself.
            for &v in &plan.end_nodes {
                both_must.clear(v as usize);
                both_must.clear(plan.mirror_node[v as usize] as usize);
            }
        }
        let mut dot_passes = Bits::empty();
        if !plan.symmetric && !plan.local_prune {
            dot_passes = masks.dot_nodes;
            for &v in &plan.end_nodes {
                if b.end[plan.slot_of_node[v as usize] as usize] {
                    dot_passes.clear(v as usize);
                }
            }
        }
        let packing = plan.packing && !fm.placements.is_empty();
        Search {
            main_must,
            both_must,
            dot_passes,
            must_nodes,
            even,
            pocket_must,
            pockets: (!plan.bare
                && (plan.nodes() >= plan.narrow_min_nodes || !pocket_must.is_empty()))
            .then(|| Pockets::new(plan)),
            plan,
            masks,
            lines: vec![Line::None; n],
            covered: vec![false; n],
            free: masks.walk,
            row: {
                let mut row = Bits::empty();
                for v in 0..plan.ncols {
                    row.set(v);
                }
                row
            },
            room: masks.walk,
            narrowing: plan.nodes() >= plan.narrow_min_nodes,
            passed: (Bits::empty(), NONE),
            open_h: masks.edge_h,
            open_v: masks.edge_v,
            moves: Vec::with_capacity(n),
            start: 0,
            ws,
            links: fm.links,
            rim: fm.rim_links,
            fm,
            half_walls: Vec::new(),

            negas: (0..n)
                .filter(|&i| plan.rules.board.sym[i] == Sym::Nega)
                .count() as u32,
            lost_dots: Vec::with_capacity(64),
            lost_triangles: Bits::empty(),
            kept: KeptTables {
                fits: Kept::new(MAX_FITS),
                sealed_verdicts: Kept::new(MAX_FITS),
                pocket_verdicts: Kept::new(MAX_POCKET_VERDICTS),
                narrowed: Kept::new(MAX_POCKET_VERDICTS),
                covers: std::cell::RefCell::new(Kept::new(MAX_COVERS)),
                part_hints: std::cell::RefCell::new(PartHints::default()),
                packings: std::cell::RefCell::new(Packings {
                    recent: Vec::new(),
                    next: 0,
                    verdicts: Kept::new(MAX_FITS),
                    found: Vec::new(),
                    spent: 0,
                    saved: 0,
                }),
                tile_memo: std::cell::RefCell::new(TileMemo::new(TILE_MEMO)),
            },
            packing,
            sizes: [(0, 0); DEPTHS],
            pocket_budget: PocketBudget {
                on: !plan.symmetric,
                ..PocketBudget::default()
            },
            region_buf: Vec::with_capacity(n),
            tile_steps: std::cell::Cell::new(0),
            stack: Vec::with_capacity(n),
            end_through: usize::MAX,
            finals: Vec::new(),
            corridor: None,
            enterable: plan.enterable.clone(),
            skipped: None,
            limits,
            ticks: 0,
            stopped: false,
            split_depth: None,
            tasks: Vec::new(),
            visited: 0,
            turn: TurnState {
                order: Direction::ALL,
                first_start: 0,
                run_cap: u64::MAX,
                node_cap: u64::MAX,
                resume: None,
                start_k: 0,
                replay: Vec::new(),
                replay_to: 0,
            },
            out_of_budget: false,
            trail: None,
            caps: TestCaps {
                pack_steps: PACK_STEPS,
                open_tile_steps: OPEN_TILE_STEPS,
                budgeted: true,
            },
        }
    }

    /// Keeps the line to the nodes of `nodes` (node indices): the search
    /// is then over the paths that visit no other node, with its pruning
    /// as sound for them as for all paths (the floods of where the line
    /// can go stay inside `nodes`). For looking near a known solution.
    pub fn set_corridor(&mut self, nodes: Bits<N>) {
        self.corridor = Some(nodes);
        for (v, &s) in self.plan.slot_of_node.iter().enumerate() {
            if !nodes.get(v) {
                self.enterable[s as usize] = false;
            }
        }
    }

    /// Searches from no start slot `s` with `skip[s]` set (for counts that
    /// stand a solution for its mirror twin, [`super::nearby::twin_starts`]).
    pub fn skip_starts(&mut self, skip: Vec<bool>) {
        self.skipped = Some(skip);
    }

    /// The plan searched.
    pub fn plan(&self) -> &'p Plan {
        self.plan
    }

    /// Sets the order in which moves are tried (the engine's is
    /// [`Direction::ALL`]), and the start [`Search::run_all`] begins with
    /// (an index into the plan's starts, taken modulo their number).
    pub fn set_order(&mut self, order: [Direction; 4], first_start: usize) {
        self.turn.order = order;
        self.turn.first_start = first_start;
    }

    /// Stops the next runs once `n` more search nodes have been visited,
    /// then sets [`Search::out_of_budget`] (and `stopped`); `None` lifts
    /// the cap. Clears both flags.
    ///
    /// The budget counts polyomino fit steps too, [`FIT_STEPS_PER_NODE`] to
    /// a node, and a single fit gives up past the whole budget's worth:
    /// some fits take seconds, so nodes alone do not bound a run's time.
    pub fn set_budget(&mut self, n: Option<u64>) {
        self.turn.run_cap = n.map_or(u64::MAX, |n| self.work().saturating_add(n));
        self.turn.node_cap = n.map_or(u64::MAX, |n| self.visited.saturating_add(n));
        self.ws
            .set_fit_step_cap(n.map(|n| n.saturating_mul(FIT_STEPS_PER_NODE)));
        self.ws.clear_fit_interrupted();
        self.stopped = false;
        self.out_of_budget = false;
    }

    /// Whether the turn's budget is used up (by an interrupted fit, or by
    /// nodes and fit steps); also sets `node_cap`, the node count at which
    /// it will be if no fit runs meanwhile.
    fn over_budget(&mut self) -> bool {
        if self.turn.run_cap == u64::MAX {
            return false;
        }
        let w = self.work();
        self.turn.node_cap = self.visited + self.turn.run_cap.saturating_sub(w);
        self.out_of_budget || w > self.turn.run_cap
    }

    /// The work done so far, as turn budgets count it: nodes, and fit and
    /// tiling steps in node units.
    #[inline]
    pub fn work(&self) -> u64 {
        self.visited + (self.ws.fit_steps() + self.tile_steps.get()) / FIT_STEPS_PER_NODE
    }

    /// Where the budget stopped the last run, if it did (taken away).
    pub fn take_resume(&mut self) -> Option<Resume> {
        self.turn.resume.take()
    }

    /// Makes the next [`Search::run_all`] go on from `resume` (with the
    /// order it was stopped in): it searches nothing before that point
    /// again. The nodes on the way there are passed through again without
    /// their endpoints being judged again; the resume node itself is
    /// searched afresh (so when the budget stopped in the middle of its
    /// polyomino fit, after its endpoint was reported, that endpoint is
    /// reported again: harmless for a first solution).
    pub fn set_resume(&mut self, resume: Option<Resume>) {
        self.turn.resume = resume;
    }

    /// Notes that the budget stopped the search here (the first time), in
    /// the middle of a polyomino fit or not.
    fn budget_stop(&mut self, in_fit: bool) {
        self.stopped = true;
        self.out_of_budget = true;
        self.turn.node_cap = 0;
        if self.turn.resume.is_none() {
            self.turn.resume = Some(Resume {
                k: self.turn.start_k,
                moves: self.moves.clone(),
                in_fit,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Pos, Puzzle};

    fn nodes(list: &[usize]) -> Bits<1> {
        list.iter().copied().collect()
    }

    /// Forced edges that close a loop are no part of a simple path; a
    /// chain of them, however long, is.
    #[test]
    fn forced_edges_may_not_close_a_cycle() {
        // A 3x2 panel: nodes 0..=3 on the top row, 4..=7, 8..=11 below.
        let mut p = Puzzle::new(3, 2, false).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        p.cell_mut(Pos::new(6, 4)).end = Some(crate::model::Direction::Right);
        let plan = Plan::new(&p).unwrap();
        assert_eq!((plan.ncols, plan.nrows), (4, 3));
        let masks = Masks::<1>::new(&plan);
        let none = Limits::none();
        let s = Search::<1>::new(&plan, &masks, &none);
        // Each node's forced edges, as `ways_ok` tallies them.
        let check = |fh: &[usize], fv: &[usize]| {
            let (fh, fv) = (nodes(fh), nodes(fv));
            let (one, two, _) = tally(&[fh, s.onto_east(&fh), fv, fv.shl(4)]);
            s.no_forced_cycle(&fh, &fv, &one, &two)
        };
        // The square 1-2-6-5 round face (1, 0).
        assert!(!check(&[1, 5], &[1, 2]));
        // The same square with a chain 8-9-10 beside it.
        assert!(!check(&[1, 5, 8, 9], &[1, 2]));
        // The six nodes 1-2-3-7-6-5 round two faces.
        assert!(!check(&[1, 2, 5, 6], &[1, 3]));
        // Open at one edge, the ring is a chain: 2-1-5-6-7-3.
        assert!(check(&[1, 5, 6], &[1, 3]));
        // A snake through every node, from 0 to 11.
        assert!(check(&[0, 1, 2, 4, 5, 6, 8, 9, 10], &[3, 4]));
    }

    /// With symmetry, a dotted node needs two ways whichever line passes
    /// it, unless the mirror line may end there.
    #[test]
    fn symmetry_dots_need_two_ways_unless_a_line_may_end_there() {
        use crate::model::{Direction, Dot, Symmetry};
        // A 2x2 panel turned half round: nodes 0..=2 on the top row, 3..=5,
        // 6..=8 below; the lines start at 0 and 8.
        let panel = |end: Pos| {
            let mut p = Puzzle::new(2, 2, false).unwrap();
            p.symmetry = Some(Symmetry { x: true, y: true });
            p.cell_mut(Pos::new(0, 0)).start = true;
            p.cell_mut(end).end = Some(Direction::Down);
            // A dot on node 2, the top right corner.
            p.cell_mut(Pos::new(4, 0)).dot = Dot::Black;
            p
        };
        let ways = |p: &Puzzle, reach: &[usize]| {
            let plan = Plan::new(p).unwrap();
            let masks = Masks::<1>::new(&plan);
            let none = Limits::none();
            let s = Search::<1>::new(&plan, &masks, &none);
            s.both_ways_ok(0, &nodes(reach))
        };
        // The ends at node 7 and its mirror 1 (bottom and top middle).
        let p = panel(Pos::new(2, 4));
        assert!(ways(&p, &[0, 1, 2, 3, 4, 5, 6, 7, 8]));
        // Node 5 and its mirror 3 out of reach: node 2 has one way left,
        // to 1, so neither line can pass it.
        assert!(!ways(&p, &[0, 1, 2, 4, 6, 7, 8]));
        // Ends at node 6 and its mirror 2: the mirror line may end on the
        // dot, so one way is enough.
        let p = panel(Pos::new(0, 4));
        assert!(ways(&p, &[0, 1, 2, 4, 6, 7, 8]));
    }
}

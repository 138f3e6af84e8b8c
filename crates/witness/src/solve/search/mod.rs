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
//!   the line can no longer cut that hold a piece or touch a placement
//!   ([`FaceMasks::packs`]; when their area is the region's size, every
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

pub mod pockets;

use super::bits::Bits;
use super::faces::{coverable, FaceMasks, Link, Links, RimLinks, StuckParts, TileMemo};
use super::hash::Kept;
use super::plan::{Masks, MirrorShape, Plan, VERTICAL};
use super::Limits;
use crate::model::{Direction, SlotKind};
use crate::path::Line;
use crate::rules::board::{Sym, NONE};
use crate::rules::regions;
use crate::rules::Workspace;
use pockets::Pockets;
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
/// in cache (about 1.6 MB: 2^15 buckets of 48 bytes), where 2^18 verdicts
/// (about 25 MB) missed it on nearly every lookup and insert, and the
/// verdicts kept beyond 2^14 saved next to nothing (with 2^14, the dev
/// corpus's search nodes and fit steps to a first solution, capped at 3M
/// a puzzle, are within 0.01% of 2^18's; the search of 96FE4285 in the
/// engine's order took 0.55 s against 0.62 s with 2^18, and `witness
/// bench` on the 24 slowest puzzles 1,103 ms against 1,183 ms for it, the
/// others within the noise; see the thirty-second session's figures).
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
    /// Whether open regions get the packing test ([`Plan::packing`], and
    /// pieces on the board).
    packing: bool,
    /// Per depth (in slots, the last for all deeper): the nodes of the
    /// subtrees searched to the end while packing, and how many there were.
    sizes: [(u64, u64); DEPTHS],
    /// The pocket test's budget ([`PocketBudget`]).
    pocket_budget: PocketBudget,
    region_buf: Vec<u32>,
    /// The verdicts of [`Search::tiles`].
    tile_memo: std::cell::RefCell<TileMemo<N>>,
    /// The steps [`Search::tiles`] has taken.
    tile_steps: std::cell::Cell<u64>,
    stack: Vec<u32>,
    /// While judging the regions at an end on an edge: that slot, which the
    /// validator's regions pass through (spec §5.2); else `usize::MAX`.
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
    /// Set when `run_cap`, not the limits, stopped the search.
    pub out_of_budget: bool,
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
/// on the dev corpus's slow symmetry puzzles it pays for itself several
/// times over (TWFQY8BW searches 2.4 times the nodes without it).
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
/// that a search of a few hundred nodes (half the dev corpus's puzzles)
/// does not pay for scans that rarely cut it. (With 4,096 units, the
/// pocket scans took 10% of the instructions of a solve on the 650 dev
/// puzzles around the median time; without them the puzzles of under
/// 1,000 nodes search 1.2% more nodes and the whole corpus 0.2% more,
/// within 100,000 nodes each, and the 112 puzzles of 10,000 nodes or
/// more 0.02% more.)
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
/// over): the same regions come back again and again (on 96FE4285, 600,000
/// cover tests saw 83,000 regions), and a cover costs some two thousand
/// instructions to find.
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
            packing,
            sizes: [(0, 0); DEPTHS],
            pocket_budget: PocketBudget {
                on: !plan.symmetric,
                ..PocketBudget::default()
            },
            region_buf: Vec::with_capacity(n),
            tile_memo: std::cell::RefCell::new(TileMemo::new(TILE_MEMO)),
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
            order: Direction::ALL,
            first_start: 0,
            run_cap: u64::MAX,
            node_cap: u64::MAX,
            out_of_budget: false,
            resume: None,
            start_k: 0,
            replay: Vec::new(),
            replay_to: 0,
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
        self.order = order;
        self.first_start = first_start;
    }

    /// Stops the next runs once `n` more search nodes have been visited,
    /// then sets [`Search::out_of_budget`] (and `stopped`); `None` lifts
    /// the cap. Clears both flags.
    ///
    /// The budget counts polyomino fit steps too, [`FIT_STEPS_PER_NODE`] to
    /// a node, and a single fit gives up past the whole budget's worth:
    /// some fits take seconds, so nodes alone do not bound a run's time.
    pub fn set_budget(&mut self, n: Option<u64>) {
        self.run_cap = n.map_or(u64::MAX, |n| self.work().saturating_add(n));
        self.node_cap = n.map_or(u64::MAX, |n| self.visited.saturating_add(n));
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
        if self.run_cap == u64::MAX {
            return false;
        }
        let w = self.work();
        self.node_cap = self.visited + self.run_cap.saturating_sub(w);
        self.out_of_budget || w > self.run_cap
    }

    /// The work done so far, as turn budgets count it: nodes, and fit and
    /// tiling steps in node units.
    #[inline]
    pub fn work(&self) -> u64 {
        self.visited + (self.ws.fit_steps() + self.tile_steps.get()) / FIT_STEPS_PER_NODE
    }

    /// Where the budget stopped the last run, if it did (taken away).
    pub fn take_resume(&mut self) -> Option<Resume> {
        self.resume.take()
    }

    /// Makes the next [`Search::run_all`] go on from `resume` (with the
    /// order it was stopped in): it searches nothing before that point
    /// again. The nodes on the way there are passed through again without
    /// their endpoints being judged again; the resume node itself is
    /// searched afresh (so when the budget stopped in the middle of its
    /// polyomino fit, after its endpoint was reported, that endpoint is
    /// reported again: harmless for a first solution).
    pub fn set_resume(&mut self, resume: Option<Resume>) {
        self.resume = resume;
    }

    /// Notes that the budget stopped the search here (the first time), in
    /// the middle of a polyomino fit or not.
    fn budget_stop(&mut self, in_fit: bool) {
        self.stopped = true;
        self.out_of_budget = true;
        self.node_cap = 0;
        if self.resume.is_none() {
            self.resume = Some(Resume {
                k: self.start_k,
                moves: self.moves.clone(),
                in_fit,
            });
        }
    }

    /// Searches from every start in turn (going on from a resume point, if
    /// one is set).
    pub fn run_all(&mut self, visit: &mut impl FnMut(&Found) -> Go) {
        let n = self.plan.starts.len();
        let from = self.resume.take();
        let k0 = from.as_ref().map_or(0, |r| r.k);
        if from.as_ref().is_some_and(|r| r.in_fit) {
            self.ws.set_fit_step_cap(None);
        }
        for k in k0..n {
            let s = self.plan.starts[(k + self.first_start) % n.max(1)] as usize;
            self.start_k = k;
            if k == k0 {
                if let Some(r) = &from {
                    self.replay.clone_from(&r.moves);
                    self.replay_to = r.moves.len();
                }
            }
            let go = self.run_from(s, &[], visit);
            self.replay_to = 0;
            if !go {
                return;
            }
        }
    }

    /// Searches the paths from `start` that begin with `prefix`. Endpoints
    /// inside the prefix are not reported (the caller saw them).
    pub fn run_from(
        &mut self,
        start: usize,
        prefix: &[Direction],
        visit: &mut impl FnMut(&Found) -> Go,
    ) -> Go {
        self.start = start;
        let v = self.plan.node_of[start];
        let outside = v != NONE && self.corridor.is_some_and(|c| !c.get(v as usize));
        let skipped = self.skipped.as_ref().is_some_and(|k| k[start]);
        if outside || skipped || !self.can_enter(start, true) {
            return true;
        }
        self.room = self.corridor.unwrap_or(self.masks.walk);
        self.passed.1 = NONE;
        self.half_walls.clear();
        let mut starts = [start, usize::MAX];
        if self.plan.symmetric {
            starts[1] = self.plan.rules.board.mirror[start] as usize;
        }
        for s in starts {
            if s == usize::MAX || s == self.noncount() {
                continue;
            }
            if let Some(l) = self.fm.link_of[s] {
                self.half_walls
                    .push((l, FaceMasks::<N>::corners(self.plan, s)));
            }
        }
        if prefix.is_empty() {
            return self.enter(start, visit);
        }
        // Replay the prefix without checks, then search from its last slot.
        let b = &self.plan.rules.board;
        let mut path = vec![start];
        let mut p = start;
        for &d in &prefix[..prefix.len() - 1] {
            p = b.nbr[p][d as usize] as usize;
            path.push(p);
        }
        let last = b.nbr[p][prefix[prefix.len() - 1] as usize] as usize;
        for &q in &path {
            self.mark(q);
        }
        self.moves.extend_from_slice(prefix);
        let go = self.enter(last, visit);
        self.moves.clear();
        for &q in path.iter().rev() {
            self.unmark(q);
        }
        go
    }

    #[inline]
    fn can_enter(&self, q: usize, is_start: bool) -> bool {
        if is_start && self.plan.symmetric {
            // Play mode: a start may be its own mirror.
            let b = &self.plan.rules.board;
            let m = b.mirror[q] as usize;
            return b.kind[q] != SlotKind::Face
                && b.gap[q] == crate::model::Gap::None
                && b.gap[m] == crate::model::Gap::None
                && self.lines[q] == Line::None;
        }
        self.enterable[q] && self.lines[q] == Line::None
    }

    #[inline]
    fn mark(&mut self, q: usize) {
        let p = self.plan;
        if p.symmetric {
            let m = p.rules.board.mirror[q] as usize;
            self.lines[q] = Line::Blue;
            self.lines[m] = Line::Yellow;
            self.covered[q] = true;
            self.covered[m] = true;
            for s in [q, m] {
                let v = p.node_of[s];
                if v != NONE {
                    self.free.clear(v as usize);
                }
            }
            self.cut(q);
            self.cut(m);
        } else {
            self.lines[q] = Line::Black;
            self.covered[q] = true;
            let v = p.node_of[q];
            if v != NONE {
                self.free.clear(v as usize);
            }
            self.cut(q);
        }
    }

    /// Makes an edge the line now covers a wall between its faces (not the
    /// pass-through start).
    #[inline]
    fn cut(&mut self, s: usize) {
        if let Some(l) = self.fm.link_of[s] {
            if s != self.noncount() {
                self.links.put(l, false);
            }
        }
        self.put_edge(s, false);
        self.rim_update(s);
    }

    /// Clears (covered) or restores (uncovered) edge slot `s`'s bit in the
    /// open-edge sets; nothing for other slots.
    #[inline(always)]
    fn put_edge(&mut self, s: usize, open: bool) {
        let bit = self.masks.edge_bit[s];
        if bit == NONE {
            return;
        }
        let (set, all) = if bit & VERTICAL != 0 {
            (&mut self.open_v, &self.masks.edge_v)
        } else {
            (&mut self.open_h, &self.masks.edge_h)
        };
        let v = (bit & !VERTICAL) as usize;
        if open && all.get(v) {
            set.set(v);
        } else {
            set.clear(v);
        }
    }

    /// Recomputes the rim links that depend on slot `s` (boards with
    /// removed faces only).
    #[inline(always)]
    fn rim_update(&mut self, s: usize) {
        if self.fm.rim.is_some() {
            self.rim_refresh(s);
        }
    }

    /// [`Search::rim_update`] on a board with a rim.
    #[inline(never)]
    fn rim_refresh(&mut self, s: usize) {
        let Some(rim) = &self.fm.rim else { return };
        let nc = self.noncount();
        let open = |t: u32| !self.covered[t as usize] || t as usize == nc;
        for k in rim.at[s]..rim.at[s + 1] {
            let bit = rim.bits[rim.ids[k as usize] as usize];
            let [a, c, d] = bit.slots;
            let on = if bit.set < 4 {
                open(a) && (open(c) || open(d))
            } else {
                open(a) && open(c) && open(d)
            };
            self.rim.put(bit.set, bit.index, on);
        }
    }

    #[inline]
    fn unmark(&mut self, q: usize) {
        let p = self.plan;
        let clear = |s: usize, this: &mut Self| {
            this.lines[s] = Line::None;
            this.covered[s] = false;
            if let Some(l) = this.fm.link_of[s] {
                this.links.put(l, true);
            }
            this.put_edge(s, true);
            this.rim_update(s);
            let v = p.node_of[s];
            if v != NONE && this.masks.walk.get(v as usize) {
                this.free.set(v as usize);
            }
        };
        clear(q, self);
        if p.symmetric {
            clear(p.rules.board.mirror[q] as usize, self);
        }
    }

    /// Enters slot `q` (known enterable) and searches on from it.
    fn enter(&mut self, q: usize, visit: &mut impl FnMut(&Found) -> Go) -> Go {
        self.visited += 1;
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks & 1023 == 0
            && (self.limits.expired() || self.limits.max_nodes.is_some_and(|m| self.visited > m))
        {
            self.stopped = true;
            return false;
        }
        if self.replay_to > 0 {
            // Nodes on the way back to a resume point were searched before;
            // the resume point itself is searched afresh whatever the
            // budget, so that every turn gets somewhere.
            if self.replay_to == self.moves.len() {
                self.replay_to = 0;
            }
        } else if (self.visited > self.node_cap || self.ticks & 63 == 0) && self.over_budget() {
            // A turn's budget; an interrupted fit may have used it up.
            self.budget_stop(false);
            return false;
        }
        if let Some(d) = self.split_depth {
            if self.moves.len() == d {
                self.tasks.push((self.start, self.moves.clone()));
                return true;
            }
        }
        if self.pocket_budget.probe.is_some()
            && self.visited - self.pocket_budget.probe_from > POCKET_PROBE_CAP
        {
            // Deep enough into a branch the pocket test cut: it holds no
            // solution, so the rest of it may go unsearched.
            return true;
        }
        self.mark(q);
        let finals = self.finals.len();
        let (room, passed) = (self.room, self.passed);
        let before = self.visited;
        let go = self.explore(q, visit);
        if self.pocket_budget.probe == Some(self.moves.len()) {
            // The end of a branch searched in spite of a pocket cut.
            let pb = &mut self.pocket_budget;
            pb.probe = None;
            if go {
                pb.probed += (self.visited - before).min(POCKET_PROBE_CAP);
                pb.probes += 1;
            }
        }
        if self.packing && go {
            // The sizes of searched subtrees by depth: what a packing
            // failure there saves, on average.
            let d = self.moves.len().min(DEPTHS - 1);
            self.sizes[d].0 += self.visited - before + 1;
            self.sizes[d].1 += 1;
        }
        self.room = room;
        self.passed = passed;
        self.finals.truncate(finals);
        self.unmark(q);
        go
    }

    fn explore(&mut self, q: usize, visit: &mut impl FnMut(&Found) -> Go) -> Go {
        let plan = self.plan;
        let b = &plan.rules.board;
        let depth = self.moves.len();
        // On the way back to a resume point: its endpoint was judged.
        let replaying = self.replay_to > depth;
        if b.end[q] && !replaying {
            let report = !plan.undirected || self.start <= q || {
                let twin = self.reverse_is_solution(q);
                if self.stopped {
                    return false;
                }
                !twin
            };
            if report
                && (!plan.local_prune || self.complete_locally())
                && (if plan.local_only {
                    self.dot_colors_ok()
                } else if !self.end_regions_ok(q) {
                    if self.stopped {
                        // A fit cut short by the budget: the node is
                        // searched again on resuming.
                        return false;
                    }
                    false
                } else {
                    let ok = plan
                        .rules
                        .is_valid(&self.lines, self.start, q, &mut self.ws);
                    if self.fit_interrupted() {
                        return false;
                    }
                    ok
                })
            {
                let f = Found {
                    start: self.start,
                    end: q,
                    moves: &self.moves,
                };
                if !visit(&f) {
                    return false;
                }
            }
        }
        if b.kind[q] == SlotKind::Node && !self.arrival_ok(q) {
            // Not on the way back to a resume point: it passed before.
            debug_assert!(
                !replaying || self.stopped,
                "a replayed node failed its checks"
            );
            self.replay_to = 0;
            return true;
        }
        let nbr = b.nbr[q];
        let allowed = plan.moves_at[q];
        let mut skip = replaying;
        for d in self.order {
            let k = d as usize;
            let r = nbr[k];
            let open = allowed & (1 << k) != 0 && r != NONE && self.can_enter(r as usize, false);
            if skip {
                // Resuming: the moves before the replayed one were searched.
                if d != self.replay[depth] {
                    continue;
                }
                skip = false;
                if !open {
                    // Cannot happen (the same state allowed it before);
                    // search the rest afresh rather than lose it.
                    debug_assert!(false, "a replayed move is closed");
                    self.replay_to = 0;
                    continue;
                }
            }
            if !open {
                continue;
            }
            self.moves.push(d);
            let go = self.enter(r as usize, visit);
            self.moves.pop();
            if !go {
                return false;
            }
        }
        true
    }

    /// The checks on arriving at node `h`: cheap incremental ones, then the
    /// full ones unless the neighbourhood shows nothing can have changed.
    fn arrival_ok(&mut self, h: usize) -> bool {
        let plan = self.plan;
        let Some(&last) = self.moves.last() else {
            return self.promising(h);
        };
        let d = last as usize;
        if plan.local_prune {
            // The edge just covered may overload the triangles beside it.
            let b = &plan.rules.board;
            let e = b.nbr[h][d ^ 1] as usize;
            let sides = if d < 2 { [2, 3] } else { [0, 1] };
            for k in sides {
                let f = b.nbr[e][k];
                if f != NONE && self.triangle_over(f as usize) {
                    return false;
                }
                if plan.symmetric {
                    let m = b.mirror[e] as usize;
                    let f = b.nbr[m][k];
                    if f != NONE && self.triangle_over(f as usize) {
                        return false;
                    }
                }
            }
        }
        if self.block_open(h, d)
            && (!plan.symmetric || {
                let m = plan.rules.board.mirror[h] as usize;
                self.block_open(m, mirror_dir(plan, d))
            })
        {
            return true;
        }
        self.promising(h)
    }

    /// At an endpoint, without elimination marks: every dot covered, every
    /// triangle exact, every square pair separated. Cheaper than the full
    /// validation, which runs only when this holds.
    fn complete_locally(&self) -> bool {
        let plan = self.plan;
        plan.dots.iter().all(|&d| self.covered[d as usize])
            && plan.must_cover.iter().all(|&e| self.covered[e as usize])
            && plan.triangles.iter().all(|&(_, k, edges)| {
                edges
                    .iter()
                    .filter(|&&e| e != NONE && self.covered[e as usize])
                    .count() as u32
                    == k
            })
    }

    /// In an undirected puzzle, whether the line drawn to end `q`, drawn
    /// back from `q`, is a solution when this one is: then the pair is
    /// reported once, from its earlier slot. It is when `q` is a start, the
    /// start an end that is not its own mirror (play mode allows that only
    /// for a start), and the validator accepts it. Its verdict is this
    /// line's unless fat starts make a mid-edge start or end slot count
    /// (see [`super::reverse`]), so only then is it validated.
    fn reverse_is_solution(&mut self, q: usize) -> bool {
        let plan = self.plan;
        let b = &plan.rules.board;
        let s = self.start;
        if !(b.start[q] && b.end[s]) || (plan.symmetric && b.mirror[s] as usize == s) {
            return false;
        }
        let edge = |x: usize| b.kind[x] == SlotKind::Edge;
        if !(b.fat_startpoints && (edge(s) || edge(q))) {
            return true;
        }
        let ok = plan.rules.is_valid(&self.lines, q, s, &mut self.ws);
        // Interrupted, the fit said "fits": the search stops (the caller
        // sees `stopped`) and reports nothing more.
        !self.fit_interrupted() && ok
    }

    /// No blue dot under the yellow line and no yellow dot under the blue one.
    fn dot_colors_ok(&self) -> bool {
        let b = &self.plan.rules.board;
        self.plan.colored_dots.iter().all(|&d| {
            let d = d as usize;
            !matches!(
                (b.dot[d], self.lines[d]),
                (crate::model::Dot::Blue, Line::Yellow) | (crate::model::Dot::Yellow, Line::Blue)
            )
        })
    }

    /// True when a triangle on face `f` already has more line edges than it allows.
    #[inline]
    fn triangle_over(&self, f: usize) -> bool {
        let k = self.plan.triangle_count[f];
        if k == u32::MAX {
            return false;
        }
        let b = &self.plan.rules.board;
        let have = b.nbr[f]
            .iter()
            .filter(|&&e| e != NONE && self.covered[e as usize])
            .count() as u32;
        have > k
    }

    /// True when every slot of the open block around `h` is free.
    #[inline]
    fn block_open(&self, h: usize, d: usize) -> bool {
        let plan = self.plan;
        if !plan.rules.board.pillar {
            return plan.block_inner[h]
                && plan.block_deltas[d].iter().all(|&o| {
                    let s = (h as isize + o) as usize;
                    self.enterable[s] && self.lines[s] == Line::None
                });
        }
        let at = &plan.block_at[4 * h + d..4 * h + d + 2];
        let blk = &plan.block[at[0] as usize..at[1] as usize];
        !blk.is_empty() && blk.iter().all(|&s| self.lines[s as usize] == Line::None)
    }

    /// The nodes reachable from the head at node slot `h`, the head included.
    fn reach(&self, h: usize) -> Bits<N> {
        self.reach_until(h, None).1
    }

    /// Floods from the head at `h`; with `stop`, returns early (true) as
    /// soon as a node of `stop` other than the head is reached.
    fn reach_until(&self, h: usize, stop: Option<&Bits<N>>) -> (bool, Bits<N>) {
        let plan = self.plan;
        let b = &plan.rules.board;
        let mut cur = Bits::<N>::empty();
        let room = self.free.and(&self.room);
        for k in 0..4 {
            let e = b.nbr[h][k];
            if e == NONE || !self.can_enter(e as usize, false) {
                continue;
            }
            let t = b.nbr[e as usize][k];
            if t != NONE {
                let v = plan.node_of[t as usize];
                if v != NONE && room.get(v as usize) {
                    cur.set(v as usize);
                }
            }
        }
        let m = self.masks;
        let nc = plan.ncols;
        loop {
            let mut nx = cur
                .or(&cur.and(&m.right_in).shl(1))
                .or(&cur.and(&m.left_in).shr(1))
                .or(&cur.and(&m.down).shl(nc))
                .or(&cur.and(&m.up).shr(nc));
            if plan.rules.board.pillar {
                nx = nx
                    .or(&cur.and(&m.right_wrap).shr(nc - 1))
                    .or(&cur.and(&m.left_wrap).shl(nc - 1));
            }
            nx = nx.and(&room);
            if let Some(stop) = stop {
                if nx.intersects(stop) {
                    return (true, nx);
                }
            }
            if nx == cur {
                break;
            }
            cur = nx;
        }
        let hit = stop.is_some_and(|s| cur.intersects(s));
        cur.set(plan.node_of[h] as usize);
        (hit, cur)
    }

    /// False when the branch at head `h` (a node) cannot lead to a solution.
    fn promising(&mut self, h: usize) -> bool {
        let plan = self.plan;
        let b = &plan.rules.board;
        if plan.bare {
            // Only an endpoint needs to stay reachable: stop at the first.
            let mut ends = self.masks.ends;
            ends.clear(plan.node_of[h] as usize);
            return self.reach_until(h, Some(&ends)).0
                || b.nbr[h]
                    .iter()
                    .any(|&e| e != NONE && b.end[e as usize] && self.can_enter(e as usize, false));
        }
        let mut reach = self.reach(h);
        let hv = plan.node_of[h] as usize;
        reach = self.peel(hv, reach);
        // Nodes the main line must still visit: none out of its reach, and
        // the pockets must allow one line through them all.
        let mut must = self.pocket_must.and(&self.free);
        if !must.and_not(&reach).is_empty() {
            return false;
        }
        must.clear(hv);
        let mut pockets_seen = false;
        if self.narrowing
            && self.pockets.is_some()
            && !self.moves.is_empty()
            && self.moves.len().is_multiple_of(NARROW_EVERY)
        {
            // Then only the nodes such a line may visit count.
            if !self.narrow(hv, &mut reach, &must) {
                return false;
            }
            pockets_seen = true;
            self.passed = (reach, hv as u32);
        }
        // The nodes that dropped out of reach since the last node checked
        // on this branch.
        let mut dropped = self.room.and(&self.free).and_not(&reach);
        self.room = reach;
        // An endpoint must stay reachable (beyond the head itself).
        let mut ends = reach.and(&self.masks.ends);
        ends.clear(hv);
        if ends.is_empty() {
            let near = b.nbr[h]
                .iter()
                .any(|&e| e != NONE && b.end[e as usize] && self.can_enter(e as usize, false));
            if !near {
                return false;
            }
        }
        // The nodes the main line alone can reach.
        let main_reach = reach;
        if plan.symmetric {
            reach = self.with_mirrors(&reach);
            dropped = self.with_mirrors(&dropped).and_not(&reach);
        }
        if !plan.local_prune && !self.negation_budget_ok(&reach) {
            return false;
        }
        if plan.local_prune && !self.local_ok(h, &reach, &main_reach) {
            return false;
        }
        if !self.must_nodes.is_empty() && !self.parity_ok(h, &reach) {
            return false;
        }
        // Without squares, stars or pieces, what a sealed region could fail
        // (dots, triangles) the local checks have already seen.
        if !(plan.local_only || self.regions_ok(h, &reach, &dropped)) {
            return false;
        }
        if !pockets_seen && !must.is_empty() && self.pockets.is_some() {
            let prev = self.prev_node(h);
            if !self.pockets_ok(hv, prev, &main_reach, &must) {
                return false;
            }
            self.passed = (main_reach, hv as u32);
        }
        true
    }

    /// The pocket narrowing ([`Pockets::narrow`]) at head node `hv`, with
    /// the main line's `reach` and the nodes it `must` visit; kept, as
    /// the pocket test's verdicts are ([`Search::pockets_ok`]).
    fn narrow(&mut self, hv: usize, reach: &mut Bits<N>, must: &Bits<N>) -> bool {
        let Some(pockets) = &mut self.pockets else {
            return true;
        };
        let key = (*reach, hv as u32, self.start as u32);
        let memo = self.visited >= self.plan.memo_after;
        if memo {
            if let Some(narrowed) = self.narrowed.get(&key) {
                if let Some(r) = narrowed {
                    *reach = r;
                }
                return narrowed.is_some();
            }
        }
        let lines = &self.lines;
        let ok = pockets.narrow(hv, reach, must, &self.masks.ends, |e| {
            lines[e as usize] == Line::None
        });
        if memo {
            self.narrowed.put(key, ok.then_some(*reach));
        }
        ok
    }

    /// The pocket test ([`Pockets::ok`]) at head node `hv`, come from node
    /// `prev`, with the main line's `reach` and the nodes it `must` visit:
    /// known to pass one step out of a dead end ([`Pockets::follows`]),
    /// else kept from an earlier search once the search is no longer
    /// small (the verdict depends only on the reach, the head and the
    /// start: every covered edge between nodes of the reach is the start's
    /// at the head, and `must` is the must-visit nodes of the reach), else
    /// searched.
    fn pockets_ok(&mut self, hv: usize, prev: u32, reach: &Bits<N>, must: &Bits<N>) -> bool {
        let Some(pockets) = &mut self.pockets else {
            return true;
        };
        // On the way back to a resume point the nodes passed before; with
        // the budget spent then, the test may not have run there.
        if self.replay_to > self.moves.len() || pockets.follows(hv, prev, reach, &self.passed) {
            return true;
        }
        let key = (*reach, hv as u32, self.start as u32);
        let memo = self.visited >= self.plan.memo_after;
        if memo {
            if let Some(ok) = self.pocket_verdicts.get(&key) {
                return ok;
            }
        }
        let pb = &mut self.pocket_budget;
        if !pb.may_test(self.visited) {
            return true;
        }
        let lines = &self.lines;
        let ok = pockets.ok(hv, reach, must, &self.masks.ends, |e| {
            lines[e as usize] == Line::None
        });
        pb.spent += 1 + u64::from(reach.count()) / POCKET_NODES_PER_SCAN_UNIT;
        if memo {
            self.pocket_verdicts.put(key, ok);
        }
        if !ok {
            pb.cuts += 1;
            // Search this branch all the same, to learn what a cut saves
            // (not near the end of a turn: a turn resumed inside the
            // branch would search it to the end).
            if pb.on
                && pb.probe.is_none()
                && pb.cuts.is_multiple_of(POCKET_PROBE_EVERY)
                && self.node_cap.saturating_sub(self.visited) > 2 * POCKET_PROBE_CAP
            {
                pb.probe = Some(self.moves.len());
                pb.probe_from = self.visited;
                return true;
            }
        }
        ok
    }

    /// The node the line left to reach node slot `h` (`NONE` when it came
    /// from a mid-edge start or there is none).
    fn prev_node(&self, h: usize) -> u32 {
        let Some(&d) = self.moves.last() else {
            return NONE;
        };
        let b = &self.plan.rules.board;
        let e = b.nbr[h][d as usize ^ 1];
        if e == NONE {
            return NONE;
        }
        let a = b.nbr[e as usize][d as usize ^ 1];
        if a == NONE || self.lines[a as usize] == Line::None {
            return NONE;
        }
        self.plan.node_of[a as usize]
    }

    /// The nodes of `x` and their mirror nodes.
    fn with_mirrors(&self, x: &Bits<N>) -> Bits<N> {
        let plan = self.plan;
        let (nc, nr) = (plan.ncols, plan.nrows);
        let mirrored = match plan.mirror_shape {
            MirrorShape::Turn => x.reversed(nc * nr),
            MirrorShape::FlipColumns => x.reversed(nc * nr).rows_reversed(nc, nr, &self.row),
            MirrorShape::FlipRows => x.rows_reversed(nc, nr, &self.row),
            MirrorShape::Other => {
                let mut m = Bits::empty();
                for v in x.iter() {
                    m.set(plan.mirror_node[v] as usize);
                }
                m
            }
        };
        debug_assert!(
            x.iter().all(|v| mirrored.get(plan.mirror_node[v] as usize))
                && mirrored.count() == x.count(),
            "a set mirrors node by node"
        );
        x.or(&mirrored)
    }

    /// `reach` without its dead ends: nodes other than the head, ends and
    /// must-visit nodes with at most one way on, again until none is left.
    fn peel(&self, hv: usize, mut reach: Bits<N>) -> Bits<N> {
        let mut keep = self.masks.ends.or(&self.pocket_must);
        keep.set(hv);
        loop {
            let leaves = reach.and_not(&self.two_ways(&reach)).and_not(&keep);
            if leaves.is_empty() {
                return reach;
            }
            reach = reach.and_not(&leaves);
        }
    }

    /// True when an uncovered edge may still be covered: the line passes
    /// it from one of its nodes to the other, so both must be in `reach`
    /// (the head included), or it ends on it, from one of them.
    #[inline]
    fn edge_coverable(&self, e: usize, reach: &Bits<N>) -> bool {
        if !self.plan.enterable[e] {
            return false;
        }
        let [a, c] = self.plan.edge_nodes[e];
        let at = |v: u32| v != NONE && reach.get(v as usize);
        (at(a) && at(c)) || (self.plan.rules.board.end[e] && (at(a) || at(c)))
    }

    #[inline]
    fn slot_coverable(&self, s: usize, reach: &Bits<N>) -> bool {
        if self.covered[s] {
            return true;
        }
        let v = self.plan.node_of[s];
        if v != NONE {
            return reach.get(v as usize);
        }
        self.edge_coverable(s, reach)
            || (self.plan.symmetric
                && self.edge_coverable(self.plan.rules.board.mirror[s] as usize, reach))
    }

    /// With elimination marks: each dot the line can no longer cover and
    /// each triangle already wrong for good is an error only a mark of its
    /// own can cancel (one mark removes one element), so there may not be
    /// more of them than marks on the board.
    fn negation_budget_ok(&mut self, reach: &Bits<N>) -> bool {
        let plan = self.plan;
        self.lost_dots.clear();
        // Dotted nodes out of reach, or passed only, with fewer than two
        // ways left.
        let mut lost = self.masks.dot_nodes.and(&self.free).and_not(reach);
        let pass = self.dot_passes.and(&self.free).and(reach);
        if !pass.is_empty() {
            lost = lost.or(&pass.and_not(&self.two_ways(reach)));
        }
        let mut errors = lost.count();
        if errors > self.negas {
            return false;
        }
        let states = self.edge_states(reach);
        let st = Some(&states);
        for &d in &plan.edge_dots {
            if !self.edge_open_on(d as usize, st, reach) {
                errors += 1;
            }
        }
        self.lost_triangles = Bits::empty();
        for (t, &(f, k, edges)) in plan.triangles.iter().enumerate() {
            let lost = self.triangle_lost_on(t, k, &edges, &states, reach);
            if lost {
                errors += 1;
                let f = self.fm.face_of[f as usize];
                if f != NONE {
                    self.lost_triangles.set(f as usize);
                }
            }
        }
        if errors > self.negas {
            return false;
        }
        // Squares of different colours side by side that the line can no
        // longer separate: one of each such pair goes. Pairs sharing no
        // square (a greedy matching) need a mark each.
        let mut used = Bits::<N>::empty();
        let mut pairs = [0u32; 16];
        let mut npairs = 0;
        for &e in &plan.must_cover {
            let e = e as usize;
            if self.edge_open_on(e, st, reach) {
                continue;
            }
            let (f, g) = self.pair_faces(e);
            if f == NONE || g == NONE || used.get(f as usize) || used.get(g as usize) {
                continue;
            }
            used.set(f as usize);
            used.set(g as usize);
            if npairs < pairs.len() {
                pairs[npairs] = f;
            }
            npairs += 1;
        }
        errors += npairs as u32;
        errors <= self.negas
            && (errors == 0 || self.lost_regions_ok(reach, lost, &pairs[..npairs.min(pairs.len())]))
    }

    /// The inside faces on the two sides of edge slot `e` (`NONE` where
    /// there is none).
    fn pair_faces(&self, e: usize) -> (u32, u32) {
        let b = &self.plan.rules.board;
        let sides = if (e % b.h).is_multiple_of(2) {
            [2, 3]
        } else {
            [0, 1]
        };
        let face = |k: usize| {
            let f = b.nbr[e][k];
            if f == NONE {
                return NONE;
            }
            let f = self.fm.face_of[f as usize];
            if f != NONE && self.fm.inside.get(f as usize) {
                f
            } else {
                NONE
            }
        };
        (face(sides[0]), face(sides[1]))
    }

    /// With elimination marks: a dot or triangle lost for good is an error
    /// in the region that holds it, and only a mark in that region can
    /// cancel it. Regions only split as the line grows, and a part gets
    /// its share of both the errors and the marks, so already now no region
    /// may hold more lost errors than marks.
    fn lost_regions_ok(&mut self, reach: &Bits<N>, mut lost: Bits<N>, pairs: &[u32]) -> bool {
        let plan = self.plan;
        let b = &plan.rules.board;
        // The face each lost error's region is found from (at most 64).
        let mut faces = [0u32; 64];
        let mut k = 0;
        while let Some(v) = lost.first() {
            lost.clear(v);
            let s = plan.slot_of_node[v] as usize;
            // An uncovered node joins the faces beside its uncovered edges.
            let f = (0..4).find_map(|d| {
                let e = b.nbr[s][d];
                if e == NONE || self.covered[e as usize] || b.outside[e as usize] {
                    return None;
                }
                self.side_face(e as usize)
            });
            if let (Some(f), true) = (f, k < faces.len()) {
                faces[k] = f;
                k += 1;
            }
        }
        for &d in &plan.edge_dots {
            let d = d as usize;
            if !self.slot_coverable(d, reach) && k < faces.len() {
                if let Some(f) = self.side_face(d) {
                    faces[k] = f;
                    k += 1;
                }
            }
        }
        self.lost_dots.extend_from_slice(&faces[..k]);
        // The triangles lost for good, as the caller just found them.
        for f in self.lost_triangles.and(&self.fm.inside).iter() {
            if k < faces.len() {
                faces[k] = f as u32;
                k += 1;
            }
        }
        // Each matched square pair: one error in the region of its faces
        // (the edge between them is uncovered, so they share a region).
        for &f in pairs {
            if k < faces.len() {
                faces[k] = f;
                k += 1;
            }
        }
        if k == 0 {
            return true;
        }
        self.mend_half_walls();
        let mut seen = Bits::<N>::empty();
        for i in 0..k {
            let f = faces[i] as usize;
            if seen.get(f) {
                continue;
            }
            let region = self.region_at(f);
            seen = seen.or(&region);
            let errors = faces[i..k]
                .iter()
                .filter(|&&g| region.get(g as usize))
                .count() as u32;
            if errors > region.and(&self.fm.negas).count() {
                return false;
            }
        }
        true
    }

    /// An inside face beside uncovered edge slot `e` (its region is the
    /// edge's), if any.
    fn side_face(&self, e: usize) -> Option<u32> {
        let (f, g) = self.pair_faces(e);
        [f, g].into_iter().find(|&f| f != NONE)
    }

    /// The line alternates node colours: after the head it visits as many
    /// nodes of the head's colour as of the other, or one fewer. So the
    /// nodes it must still visit of one colour cannot outnumber the nodes
    /// it can still reach of the other (one more for the other colour).
    fn parity_ok(&self, h: usize, reach: &Bits<N>) -> bool {
        let hv = self.plan.node_of[h] as usize;
        let mut free = *reach;
        free.clear(hv);
        let must = self.must_nodes.and(&free);
        let count = |set: &Bits<N>| {
            let even = set.and(&self.even).count();
            let odd = set.count() - even;
            if self.even.get(hv) {
                (even, odd)
            } else {
                (odd, even)
            }
        };
        let (free_same, free_other) = count(&free);
        let (must_same, must_other) = count(&must);
        if !(must_same <= free_other && must_other <= free_same + 1) {
            return false;
        }
        // Where the line may stop decides more: ending on a node of the
        // head's colour, it visits as many of each colour after the head;
        // on one of the other colour, one more of the other. (The last
        // node is an end node, or a node beside an end mid-edge.)
        let ends = free.and(&self.masks.ends);
        let (ends_same, ends_other) = count(&ends);
        if ends_same + ends_other == 0 {
            return true;
        }
        (ends_same > 0 && must_same.max(must_other) <= free_same.min(free_other))
            || (ends_other > 0
                && must_same.max(must_other.saturating_sub(1))
                    <= free_same.min(free_other.saturating_sub(1)))
    }

    /// The uncovered edges the line may still cover, horizontal and
    /// vertical (by west and by north node): an enterable edge with both
    /// nodes in `reach`, or one node for an edge the line may end on (as
    /// [`Search::edge_coverable`] tells). With symmetry `reach` holds the
    /// nodes either line can reach; the mirror line covers an edge when the
    /// main one covers its mirror edge, which callers look up too
    /// ([`Masks::mirror_bit`]): it differs only at ends that have no mirror
    /// end.
    fn edge_states(&self, reach: &Bits<N>) -> EdgeStates<N> {
        let m = self.masks;
        let nc = self.plan.ncols;
        EdgeStates {
            may_h: coverable(reach, &self.east_of(reach), &m.end_h).and(&self.open_h),
            may_v: coverable(reach, &reach.shr(nc), &m.end_v).and(&self.open_v),
        }
    }

    /// [`Search::slot_coverable`] for edge slot `e`: covered or still
    /// coverable, read from the edge states where the edge (and with
    /// symmetry its mirror) has a bit.
    #[inline]
    fn edge_open_on(&self, e: usize, st: Option<&EdgeStates<N>>, reach: &Bits<N>) -> bool {
        if let Some(st) = st {
            let (bit, mbit) = (self.masks.edge_bit[e], self.masks.mirror_bit[e]);
            if bit != NONE && mbit != NONE {
                return self.covered[e] || st.may(bit) || (mbit != bit && st.may(mbit));
            }
        }
        self.slot_coverable(e, reach)
    }

    /// True when a triangle wanting `k` of its `edges` already has more line
    /// edges, or can no longer get enough: read from the edge states
    /// (edges without a bit, and with symmetry without a mirror bit, looked
    /// up one by one).
    #[inline]
    fn triangle_lost_on(
        &self,
        t: usize,
        k: u32,
        edges: &[u32; 4],
        st: &EdgeStates<N>,
        reach: &Bits<N>,
    ) -> bool {
        if let Some((th, tv)) = &self.masks.triangle_bits[t] {
            // Covered edges are those of the edge sets no longer open.
            let m = self.masks;
            let have = th.and(&m.edge_h).and_not(&self.open_h).count()
                + tv.and(&m.edge_v).and_not(&self.open_v).count();
            let may = th.and(&st.may_h).count() + tv.and(&st.may_v).count();
            debug_assert_eq!(
                (have, may),
                self.triangle_counts(edges, st, reach),
                "triangle {t}: the edge sets count as the edges do"
            );
            return have > k || have + may < k;
        }
        let (have, may) = self.triangle_counts(edges, st, reach);
        have > k || have + may < k
    }

    /// A triangle's covered `edges` and those the line may still cover,
    /// edge by edge.
    fn triangle_counts(&self, edges: &[u32; 4], st: &EdgeStates<N>, reach: &Bits<N>) -> (u32, u32) {
        let (mut have, mut may) = (0, 0);
        for &e in edges {
            if e == NONE {
                continue;
            }
            let e = e as usize;
            let (bit, mbit) = (self.masks.edge_bit[e], self.masks.mirror_bit[e]);
            if bit == NONE || mbit == NONE {
                if self.covered[e] {
                    have += 1;
                } else if self.slot_coverable(e, reach) {
                    may += 1;
                }
                continue;
            }
            if self.covered[e] {
                have += 1;
            } else if st.may(bit) || (mbit != bit && st.may(mbit)) {
                may += 1;
            }
        }
        (have, may)
    }

    /// Dots, triangles and square pairs, for boards without elimination marks.
    fn local_ok(&self, h: usize, reach: &Bits<N>, main_reach: &Bits<N>) -> bool {
        let plan = self.plan;
        if !plan.symmetric {
            if !(self.ways_ok(h, reach) && self.covers_ok(reach)) {
                return false;
            }
            if plan.triangles.is_empty() {
                return true;
            }
            let edges = self.edge_states(reach);
            return plan
                .triangles
                .iter()
                .enumerate()
                .all(|(t, &(_, k, e))| !self.triangle_lost_on(t, k, &e, &edges, reach));
        }
        // The main line passes its must-visit nodes: two ways each; and
        // one line or the other passes each dot.
        if !(self.ways_ok(h, main_reach) && self.both_ways_ok(h, reach)) {
            return false;
        }
        if !self
            .masks
            .dot_nodes
            .and(&self.free)
            .and_not(reach)
            .is_empty()
        {
            return false;
        }
        if plan.edge_dots.is_empty() && plan.must_cover.is_empty() && plan.triangles.is_empty() {
            return true;
        }
        let states = self.edge_states(reach);
        let st = Some(&states);
        plan.edge_dots
            .iter()
            .chain(&plan.must_cover)
            .all(|&e| self.edge_open_on(e as usize, st, reach))
            && plan
                .triangles
                .iter()
                .enumerate()
                .all(|(t, &(_, k, e))| !self.triangle_lost_on(t, k, &e, &states, reach))
    }

    /// `x` moved from each node's east neighbour onto the node (across a
    /// pillar's seam too).
    #[inline]
    fn east_of(&self, x: &Bits<N>) -> Bits<N> {
        let m = self.masks;
        let mut out = x.shr(1).and(&m.east_in);
        if self.plan.rules.board.pillar {
            out = out.or(&x.shl(self.plan.ncols - 1).and(&m.east_wrap));
        }
        out
    }

    /// `x` moved from each node onto its east neighbour (across a pillar's
    /// seam too).
    #[inline]
    fn onto_east(&self, x: &Bits<N>) -> Bits<N> {
        let m = self.masks;
        let mut out = x.and(&m.east_in).shl(1);
        if self.plan.rules.board.pillar {
            out = out.or(&x.and(&m.east_wrap).shr(self.plan.ncols - 1));
        }
        out
    }

    /// Every node of `main_must` the line (with symmetry: the main line)
    /// has still to pass has a way in and a different way out. A way is an
    /// uncovered enterable edge that ends the line there or leads to a node
    /// of `reach` (the nodes the line can still visit, the head included). As bitsets: per
    /// direction, the must-pass nodes with a way that way; each needs two.
    ///
    /// Then forced edges: a must-pass node with exactly two ways takes both.
    /// The rest of the line is a simple path from the head, so no node
    /// takes three edges and the head takes one; a node whose two edges
    /// are forced takes no other (nor does the head, once its one is), and
    /// those edges are dropped before the ways are counted again, until
    /// nothing changes. Then the forced edges may close no ring
    /// ([`Search::no_forced_cycle`]).
    fn ways_ok(&self, h: usize, reach: &Bits<N>) -> bool {
        let mut head = Bits::<N>::empty();
        head.set(self.plan.node_of[h] as usize);
        self.ways_of_ok(&self.main_must, &head, reach)
    }

    /// With symmetry: every node of `both_must` still free has two ways to
    /// nodes of `reach` (the nodes either line can still visit, both heads
    /// included), as [`Search::ways_ok`] tells for one line. Such a node
    /// is passed by one line or the other, neither of which may end there.
    /// The two lines are disjoint simple paths: no node takes three edges,
    /// each head one more (a start that is its own mirror, the head of
    /// both, two), and no ring closes, so the forced edges are followed as
    /// for one line, from the two heads at `h` and its mirror.
    fn both_ways_ok(&self, h: usize, reach: &Bits<N>) -> bool {
        let mut heads = Bits::<N>::empty();
        let hv = self.plan.node_of[h] as usize;
        let mv = self.plan.mirror_node[hv] as usize;
        // At a start that is its own mirror both lines leave the one
        // head: it takes two more edges, as a node the lines pass does.
        if mv != hv {
            heads.set(hv);
            heads.set(mv);
        }
        self.ways_of_ok(&self.both_must, &heads, reach)
    }

    /// [`Search::ways_ok`] for the free nodes of `must`, with the lines'
    /// heads at `head`.
    fn ways_of_ok(&self, must: &Bits<N>, head: &Bits<N>, reach: &Bits<N>) -> bool {
        let m = self.masks;
        let nc = self.plan.ncols;
        let must = must.and(&self.free);
        if must.is_empty() {
            return true;
        }
        // Edges between two nodes of `reach`, by west and by north node.
        let mut eh = self.open_h.and(reach).and(&self.east_of(reach));
        let mut ev = self.open_v.and(reach).and(&reach.shr(nc));
        for _ in 0..16 {
            let (_, two, three) = tally(&self.way_sets(&eh, &ev));
            if !must.and_not(&two).is_empty() {
                return false;
            }
            // Edges forced by a must-pass node with two ways, at either end
            // (not end edges: the line may stop on one, short of its far
            // node).
            let pair = must.and(&two).and_not(&three);
            let fh = eh.and_not(&m.end_h).and(&pair.or(&self.east_of(&pair)));
            let fv = ev.and_not(&m.end_v).and(&pair.or(&pair.shr(nc)));
            let (one, two, three) = tally(&[fh, self.onto_east(&fh), fv, fv.shl(nc)]);
            if !three.is_empty() || head.intersects(&two) {
                return false;
            }
            // Nodes with all the edges they may take.
            let full = two.or(&head.and(&one));
            let nh = fh.or(&eh.and_not(&full).and_not(&self.east_of(&full)));
            let nv = fv.or(&ev.and_not(&full).and_not(&full.shr(nc)));
            if nh == eh && nv == ev {
                return self.no_forced_cycle(&fh, &fv, &one, &two);
            }
            eh = nh;
            ev = nv;
        }
        true
    }

    /// False when the forced edges `fh` (by west node) and `fv` (by north
    /// node) close a cycle: the rest of the line is a simple path and
    /// takes them all. `one` holds the nodes with at least one of them,
    /// `two` those with at least two (none has three). A node on a cycle
    /// has two, and following them from the nodes with one never reaches
    /// it.
    fn no_forced_cycle(&self, fh: &Bits<N>, fv: &Bits<N>, one: &Bits<N>, two: &Bits<N>) -> bool {
        // A ring on the grid has four nodes or more (round a pillar one or
        // two faces wide, shorter ones are left to the rest of the search).
        if two.count() < 4 {
            return true;
        }
        let nc = self.plan.ncols;
        let mut seen = one.and_not(two);
        loop {
            let next = seen
                .or(&self.onto_east(&seen.and(fh)))
                .or(&fh.and(&self.east_of(&seen)))
                .or(&seen.and(fv).shl(nc))
                .or(&fv.and(&seen.shr(nc)));
            if next == seen {
                return two.and_not(&seen).is_empty();
            }
            seen = next;
        }
    }

    /// Each node's ways out, as four sets (east, west, south, north): the
    /// open edges `eh` (by west node) and `ev` (by north node), and the open
    /// end edges, by the node they leave.
    #[inline]
    fn way_sets(&self, eh: &Bits<N>, ev: &Bits<N>) -> [Bits<N>; 4] {
        let m = self.masks;
        let nc = self.plan.ncols;
        let end_h = self.open_h.and(&m.end_h);
        let end_v = self.open_v.and(&m.end_v);
        [
            eh.or(&end_h),
            self.onto_east(eh).or(&self.onto_east(&end_h)),
            ev.or(&end_v),
            ev.shl(nc).or(&end_v.shl(nc)),
        ]
    }

    /// The nodes with two ways or more to go on: open edges to nodes of
    /// `reach` (the head included) or open end edges.
    fn two_ways(&self, reach: &Bits<N>) -> Bits<N> {
        let nc = self.plan.ncols;
        let eh = self.open_h.and(reach).and(&self.east_of(reach));
        let ev = self.open_v.and(reach).and(&reach.shr(nc));
        tally(&self.way_sets(&eh, &ev)).1
    }

    /// Without symmetry: every dot and every edge the line must cover is
    /// covered or can still be (as [`Search::edge_coverable`] tells).
    fn covers_ok(&self, reach: &Bits<N>) -> bool {
        let m = self.masks;
        let nc = self.plan.ncols;
        if !m.dot_nodes.and(&self.free).and_not(reach).is_empty() {
            return false;
        }
        // Covered edges, or enterable ones the line may still pass (both
        // nodes reachable) or end on (an end edge, one node reachable).
        let ok_h = coverable(reach, &self.east_of(reach), &m.end_h)
            .and(&m.edge_h)
            .or(&m.edge_h.and_not(&self.open_h));
        let ok_v = coverable(reach, &reach.shr(nc), &m.end_v)
            .and(&m.edge_v)
            .or(&m.edge_v.and_not(&self.open_v));
        m.must_h.and_not(&ok_h).is_empty() && m.must_v.and_not(&ok_v).is_empty()
    }

    /// Checks the regions beside the head (and beside its mirror), and all
    /// regions beside the nodes `dropped` out of reach since the last node
    /// checked on this branch (theirs are the only other cuts and seals
    /// that can have changed): a region the line can
    /// no longer touch gets the validator's region check, an open one the
    /// hopelessness tests.
    fn regions_ok(&mut self, h: usize, reach: &Bits<N>, dropped: &Bits<N>) -> bool {
        let plan = self.plan;
        let b = &plan.rules.board;
        let heads = if plan.symmetric {
            [h, b.mirror[h] as usize]
        } else {
            [h, h]
        };
        self.mend_half_walls();
        // The faces the line may still cut: those at a node it can reach
        // (not the heads: the line is on them), and those beside an edge
        // the line may end on from here and beside its mirror (the mirror
        // line covers it; a mid-edge end joins the faces on both sides in
        // the final regions).
        let mut ahead = *reach;
        for &hh in &heads {
            ahead.clear(plan.node_of[hh] as usize);
        }
        let mut touch = self.fm.touched(&ahead);
        if b.nbr[h]
            .iter()
            .any(|&e| e != NONE && b.end[e as usize] && self.can_enter(e as usize, false))
        {
            for &hh in &heads {
                for f in self.fm.around[hh] {
                    if f != NONE {
                        touch.set(f as usize);
                    }
                }
            }
        }
        // Sealed regions judged higher up this branch are final: skip them.
        let known = self.finals.last().copied().unwrap_or(Bits::empty());
        let mut sealed = known;
        let mut done = known;
        let mut stuck = None;
        for (hi, &hh) in heads.iter().enumerate() {
            if hi == 1 && hh == h {
                break;
            }
            for k in 0..4 {
                let f = self.fm.around[hh][k];
                if f == NONE {
                    break;
                }
                let f = f as usize;
                if done.get(f) {
                    continue;
                }
                let mut seed = Bits::empty();
                seed.set(f);
                let (region, open) = self.region_of(seed, &touch, &ahead);
                done = done.or(&region);
                if !self.region_judged_ok(&region, open, reach, &mut stuck, &mut sealed) {
                    return false;
                }
            }
        }
        // Away from the head, regions change when free nodes drop out of
        // reach: a region loses its last reachable corner (sealed), or links
        // beside the lost nodes can no longer be cut. So the regions beside
        // them are judged too.
        if self.fm.open_checks && !dropped.is_empty() {
            let mut rest = self.fm.touched(dropped).and_not(&done);
            while let Some(f) = rest.first() {
                let mut seed = Bits::empty();
                seed.set(f);
                let (region, open) = self.region_of(seed, &touch, &ahead);
                rest = rest.and_not(&region);
                if !self.region_judged_ok(&region, open, reach, &mut stuck, &mut sealed) {
                    return false;
                }
            }
        }
        if sealed != known {
            self.finals.push(sealed);
        }
        true
    }

    /// Judges one region: an open one by the hopelessness tests (without
    /// elimination marks: an open region without marks never gets one, the
    /// plain rules judge whatever it splits into, and its parts the line can
    /// no longer cut grow with every step), a sealed one by the validator's
    /// region check, adding it to `sealed` when it passes.
    fn region_judged_ok(
        &mut self,
        region: &Bits<N>,
        open: bool,
        reach: &Bits<N>,
        stuck: &mut Option<Links<N>>,
        sealed: &mut Bits<N>,
    ) -> bool {
        if open {
            if !self.fm.open_checks {
                return true;
            }
            if region.intersects(&self.fm.negas) {
                return self.marked_region_ok(region, false, reach, stuck);
            }
            return self.open_region_ok(region, reach, stuck);
        }
        if !self.sealed_ok(region, reach, stuck) {
            return false;
        }
        *sealed = sealed.or(region);
        true
    }

    /// The region of the faces in `seed`, and whether the line can still
    /// touch it (a face of it in `touch`, or a rim node of it in `ahead`).
    #[inline]
    fn region_of(&self, seed: Bits<N>, touch: &Bits<N>, ahead: &Bits<N>) -> (Bits<N>, bool) {
        if self.fm.exact {
            let region = self.fm.flood(seed, &self.links);
            (region, region.intersects(touch))
        } else {
            let (region, nodes) = self.fm.flood_rim(seed, &self.links, &self.rim);
            (region, region.intersects(touch) || nodes.intersects(ahead))
        }
    }

    /// Sets the links of covered start edges: joined while an end node and
    /// the edges beside it on both sides are open (the pass-through start
    /// and, at an end on an edge, that edge count as open).
    fn mend_half_walls(&mut self) {
        let b = &self.plan.rules.board;
        let (nc, end) = (self.noncount(), self.end_through);
        let open = |s: u32| {
            s != NONE && {
                let s = s as usize;
                !b.outside[s] && (!self.covered[s] || s == nc || s == end)
            }
        };
        for k in 0..self.half_walls.len() {
            let (link, corners) = self.half_walls[k];
            let joined = corners.iter().any(|c| c.iter().all(|&s| open(s)));
            self.links.put(link, joined);
        }
    }

    /// A region's verdict from the bitsets alone, without elimination marks
    /// and assuming its dots and triangles are right: squares of one
    /// colour, stars with exactly one partner, pieces whose net area
    /// (subtractive ones counting against it) is not below 0 and, when
    /// above 0, equals the region's (spec §5.6, steps 3 and 4). `None` when
    /// pieces pass that test and only a fit can tell.
    fn region_bits(&self, region: &Bits<N>) -> Option<bool> {
        let fm = &self.fm;
        if fm.mixed_squares(region) {
            return Some(false);
        }
        for sc in &fm.stars {
            if region.intersects(&sc.stars) && region.and(&sc.all).count() != 2 {
                return Some(false);
            }
        }
        if !region.intersects(&fm.any_poly) {
            return Some(true);
        }
        let area = i64::from(fm.area(region)) - i64::from(fm.ylop_area(region));
        if area < 0 || (area > 0 && area != i64::from(region.count())) {
            return Some(false);
        }
        None
    }

    /// The region (as the face links stand) holding face index `f`.
    #[inline]
    fn region_at(&self, f: usize) -> Bits<N> {
        let mut seed = Bits::empty();
        seed.set(f);
        if self.fm.exact {
            self.fm.flood(seed, &self.links)
        } else {
            self.fm.flood_rim(seed, &self.links, &self.rim).0
        }
    }

    /// At endpoint `q`: false when some region already fails, so the full
    /// validation need not run. Every region is final there: those sealed
    /// higher up this branch passed, the others get the sealed regions'
    /// checks ([`Search::sealed_ok`]: the bitset tests, then the
    /// validator's own region check, whose verdicts are kept). With
    /// elimination marks, at an end on a node, the search's own counting
    /// tests with nothing left for the line to reach come first.
    ///
    /// At an end on an edge the validator's regions pass through it (spec
    /// §5.2), and with symmetry round the tip of the mirror line's end,
    /// a node the line has not covered: so there the regions are listed
    /// slot by slot as the validator floods them (only on boards without
    /// removed faces), and the counting tests, which know regions as the
    /// search floods them, are left out.
    fn end_regions_ok(&mut self, q: usize) -> bool {
        let none = Bits::empty();
        let on_edge = self.plan.rules.board.kind[q] == SlotKind::Edge;
        if on_edge {
            if !self.fm.exact {
                return true;
            }
            // Found at another node (maybe on another branch): the region
            // tests below count none.
            self.lost_dots.clear();
            self.lost_triangles = Bits::empty();
        } else if !self.plan.local_prune && !self.negation_budget_ok(&none) {
            return false;
        }
        if !self.fm.open_checks {
            return true;
        }
        if on_edge {
            self.end_through = q;
        }
        // (A covered start edge may join faces round its node through an
        // end edge there.)
        self.mend_half_walls();
        let known = self.finals.last().copied().unwrap_or(Bits::empty());
        let (mut stuck, mut sealed) = (None, known);
        let mut rest = self.fm.inside.and_not(&known);
        // Without symmetry the end edge joins just the faces on its sides:
        // past it the flood goes on only to its far node when that is
        // uncovered, and then no line has reached that node, so its other
        // edges join the faces round it already. So the face links tell the
        // regions once the end edge's link is open (and then as it was: it
        // may be the pass-through start).
        let end_link = if on_edge && !self.plan.symmetric {
            self.fm.link_of[q].map(|l| (l, self.links.get(l)))
        } else {
            None
        };
        if let Some((l, _)) = end_link {
            self.links.put(l, true);
        }
        let mut ok = true;
        while let Some(f) = rest.first() {
            let region = if on_edge && !self.plan.symmetric {
                self.region_at(f)
            } else if on_edge {
                let slots = self.list_region(self.fm.slot_of[f] as usize);
                let mut region = Bits::empty();
                for &s in &slots {
                    let g = self.fm.face_of[s as usize];
                    if g != NONE {
                        region.set(g as usize);
                    }
                }
                self.region_buf = slots;
                region
            } else {
                self.region_at(f)
            };
            rest = rest.and_not(&region);
            if !self.region_judged_ok(&region, false, &none, &mut stuck, &mut sealed) {
                ok = false;
                break;
            }
        }
        if let Some((l, was)) = end_link {
            self.links.put(l, was);
        }
        self.end_through = usize::MAX;
        if on_edge {
            self.mend_half_walls();
        }
        ok
    }

    /// Judges a region the line can no longer touch: its slots, walls and
    /// so its verdict are final. Without elimination marks and pieces the
    /// bitsets decide (squares of one colour, stars with exactly one
    /// partner; dots and triangles the local checks have already seen);
    /// otherwise the validator's own region check runs on its slots (with
    /// elimination marks, after the cheap tests of open regions). `reach`
    /// and `stuck` are those of the open regions' tests.
    fn sealed_ok(
        &mut self,
        region: &Bits<N>,
        reach: &Bits<N>,
        stuck: &mut Option<Links<N>>,
    ) -> bool {
        let plan = self.plan;
        let b = &plan.rules.board;
        let fm = &self.fm;
        if !b.has_negations {
            if let Some(verdict) = self.region_bits(region) {
                return verdict;
            }
            if fm.exact {
                return self.fits_cached(region);
            }
        }
        // (The key does not tell an end on an edge the regions pass through.)
        let key = (fm.exact && self.visited >= plan.memo_after && self.end_through == usize::MAX)
            .then(|| self.sealed_key(region));
        if let Some(ok) = key.as_ref().and_then(|k| self.sealed_verdicts.get(k)) {
            return ok;
        }
        // With elimination marks, the open regions' tests first, which cost
        // far less than the validator: a sealed region is final, so what
        // fails it in every future fails it now (the mark count with marks
        // in it; without, the bitset tests, as its dots and triangles could
        // only add failures).
        if b.has_negations && fm.open_checks {
            let hopeless = if region.intersects(&fm.negas) {
                !self.marked_region_ok(region, true, reach, stuck)
            } else {
                self.region_bits(region) == Some(false)
            };
            if hopeless {
                if let Some(key) = key {
                    self.sealed_verdicts.put(key, false);
                }
                return false;
            }
        }
        let first = region.first().expect("a region has a face");
        // The engine lists a region from its first slot in scan order (the
        // pass-through start included): with elimination marks its order
        // matters to the elimination search.
        let seed = if !b.has_negations {
            fm.slot_of[first] as usize
        } else if fm.exact {
            let seed = self.first_slot(region);
            debug_assert_eq!(seed, self.first_slot_flooded(first), "the first slot");
            seed
        } else {
            self.first_slot_flooded(first)
        };
        let slots = self.list_region(seed);
        let ok = plan
            .rules
            .region_ok(&slots, &self.covered, self.start, &mut self.ws);
        self.region_buf = slots;
        if self.fit_interrupted() {
            return false;
        }
        if let Some(key) = key {
            self.sealed_verdicts.put(key, ok);
        }
        ok
    }

    /// What decides the validator's check of a sealed region on a board
    /// without removed faces: its faces, whether each edge and node around
    /// them is covered (the region's slots are its faces and the uncovered
    /// slots around them; a triangle counts the covered ones), and the
    /// start (a pass-through start edge is no wall).
    fn sealed_key(&self, region: &Bits<N>) -> SealedKey<N> {
        let nc = self.plan.ncols;
        // Faces share their index with their north-west node.
        let vertical = region.or(&self.fm.push_east(region));
        let horizontal = region.or(&region.shl(nc));
        let corners = vertical.or(&vertical.shl(nc));
        (
            *region,
            self.open_h.and(&horizontal),
            self.open_v.and(&vertical),
            self.free.and(&corners),
            self.start as u32,
        )
    }

    /// The first slot in scan order (column by column, top to bottom) of
    /// the slot region whose faces are `region`, on a board without removed
    /// faces: where the engine's flood starts it, so that the region is
    /// listed in its order without a flood to find that slot. Its pass-through
    /// slots (a mid-segment start or end) count, as the engine floods them.
    ///
    /// An edge belongs to the region when it is no wall and a face beside
    /// it does, a node when it is no wall and an edge of the region meets
    /// it. Only three slot columns can hold the first slot: the first
    /// face's, the one left of it, and on pillars the first column, which
    /// the last face column wraps to (a node there joins the first face
    /// column too unless covered start edges wall it off, so that case is
    /// rare). Debug builds check it against a flood.
    fn first_slot(&self, region: &Bits<N>) -> usize {
        let b = &self.plan.rules.board;
        let fm = &self.fm;
        let (noncount, end) = (self.noncount(), self.end_through);
        let open = |j: usize| !b.outside[j] && (!self.covered[j] || j == noncount || j == end);
        let face_in = |j: u32| {
            j != NONE && {
                let f = fm.face_of[j as usize];
                f != NONE && region.get(f as usize)
            }
        };
        let edge_in = |j: u32| {
            j != NONE
                && b.kind[j as usize] == SlotKind::Edge
                && open(j as usize)
                && b.flood_nbr[j as usize].iter().any(|&k| face_in(k))
        };
        let slot_in = |j: usize| match b.kind[j] {
            SlotKind::Face => face_in(j as u32),
            SlotKind::Edge => edge_in(j as u32),
            SlotKind::Node => open(j) && b.flood_nbr[j].iter().any(|&k| edge_in(k)),
        };
        let face = region
            .iter()
            .map(|f| fm.slot_of[f] as usize)
            .min()
            .expect("a region has a face");
        let x = face / b.h;
        let mut from = [usize::MAX; 2];
        if b.pillar && x > 1 {
            from[0] = 0;
        }
        if x > 0 {
            from[1] = (x - 1) * b.h;
        }
        from.into_iter()
            .filter(|&f| f != usize::MAX)
            .flat_map(|f| f..f + b.h)
            .chain(x * b.h..face)
            .find(|&j| slot_in(j))
            .unwrap_or(face)
    }

    /// [`Search::first_slot`] of the region holding face index `first`,
    /// found by flooding it (boards with removed faces, and the check of
    /// `first_slot` in debug builds).
    fn first_slot_flooded(&mut self, first: usize) -> usize {
        let b = &self.plan.rules.board;
        let slots = self.list_region(self.fm.slot_of[first] as usize);
        let mut min = slots.iter().copied().min().expect("a region has a face") as usize;
        for through in [self.noncount(), self.end_through] {
            if through < min && b.flood_nbr[through].iter().any(|t| slots.contains(t)) {
                min = through;
            }
        }
        self.region_buf = slots;
        min
    }

    /// The slots of the region holding slot `seed`, in the engine's flood
    /// order from it, in the reused region buffer (put it back after use).
    fn list_region(&mut self, seed: usize) -> Vec<u32> {
        let mut slots = std::mem::take(&mut self.region_buf);
        regions::ordered_region(
            &self.plan.rules.board,
            &self.covered,
            self.start,
            self.end_through,
            seed,
            &mut slots,
            &mut self.stack,
        );
        slots
    }

    /// The slots of the region whose faces are `region`, listed from its
    /// first face (in the reused region buffer: put it back after use).
    fn list_faces(&mut self, region: &Bits<N>) -> Vec<u32> {
        let first = region.first().expect("a region has a face");
        self.list_region(self.fm.slot_of[first] as usize)
    }

    /// True (and the search stopping) when a polyomino fit gave up on the
    /// limits: it then said "fits", and the search reports nothing more.
    fn fit_interrupted(&mut self) -> bool {
        let interrupted = self.ws.fit_interrupted();
        self.stopped |= interrupted;
        if interrupted && self.run_cap != u64::MAX && !self.limits.expired() {
            // Not the limits: the budget's step cap, in the middle of the
            // current node, which a resumed run searches afresh.
            self.budget_stop(true);
        }
        interrupted
    }

    /// Without elimination marks, on a board without removed faces: whether
    /// a sealed region's pieces fit it, which is all its check has left to
    /// tell once the bitsets have passed (the local checks have seen its
    /// dots and triangles; a wrong "yes" would only be caught at the end).
    /// The fit depends on the region's faces and on which edges between them
    /// are covered (and the start: a pass-through start edge is no wall),
    /// so verdicts are kept by those (at most [`MAX_FITS`]).
    fn fits_cached(&mut self, region: &Bits<N>) -> bool {
        let links = self.links_walled();
        let key = (
            *region,
            Links {
                right: links.right.and(region),
                down: links.down.and(region),
                wrap: links.wrap.and(region),
            },
            // An end on an edge the region passes through joins it.
            self.start as u64 | (self.end_through.wrapping_add(1) as u64) << 32,
        );
        if let Some(fits) = self.fits.get(&key) {
            return fits;
        }
        if let Some(fits) = self.tiles(region) {
            #[cfg(debug_assertions)]
            self.check_tiling(region, fits);
            self.fits.put(key, fits);
            return fits;
        }
        let slots = self.list_faces(region);
        let fits = self.plan.rules.region_fits(&slots, &mut self.ws);
        self.region_buf = slots;
        if self.fit_interrupted() {
            return false;
        }
        self.fits.put(key, fits);
        fits
    }

    /// Whether a sealed region's pieces tile it, decided on face bitsets
    /// ([`FaceMasks::tiles`]) where that is the validator's fit: pieces of
    /// positive size only, none subtractive, an area equal to the region's
    /// (as the bitset tests have found), and footprints of faces only, or
    /// precise ones (which hold the edges between their squares) in a
    /// region holding every edge between two of its faces. `None` when it
    /// does not apply or gives up after [`TILE_STEPS`] steps. Its steps
    /// count in the turn's budget as fit steps do. Its placements include
    /// every one the validator's fit allows, so a "no" is the validator's
    /// anyway; the wall test keeps a "yes" exact too (a wrong one would
    /// only prune less, as every end is validated in full).
    fn tiles(&self, region: &Bits<N>) -> Option<bool> {
        let fm = &self.fm;
        if !fm.tileable(region) {
            return None;
        }
        if self.plan.rules.board.precise && self.walls_inside(region) {
            // A precise piece may not lie across a wall between two faces
            // of the region; the placements here do not know walls.
            return None;
        }
        debug_assert_eq!(fm.area(region), region.count(), "a tiling's area");
        self.tile_within(region, TILE_STEPS)
    }

    /// [`FaceMasks::tiles`] with up to `cap` steps, counted in the work.
    fn tile_within(&self, region: &Bits<N>, cap: u32) -> Option<bool> {
        let mut steps = cap;
        let verdict = self
            .fm
            .tiles(region, &mut steps, &mut self.tile_memo.borrow_mut());
        self.tile_steps
            .set(self.tile_steps.get() + u64::from(cap - steps));
        verdict
    }

    /// Debug builds: a verdict of [`Search::tiles`] is the validator's fit
    /// (in a workspace of its own, without the search's limits).
    #[cfg(debug_assertions)]
    fn check_tiling(&mut self, region: &Bits<N>, fits: bool) {
        let slots = self.list_faces(region);
        let slow = self
            .plan
            .rules
            .region_fits(&slots, &mut Workspace::default());
        self.region_buf = slots;
        assert_eq!(fits, slow, "the bitset tiling against the validator's fit");
    }

    /// Whether two faces side by side in `region` have an edge between
    /// them that the validator's region does not hold: a wall (the line,
    /// or a covered start edge, ending inside it; a removed edge), or an
    /// edge its flood passes through without holding it (a mid-segment
    /// start, an end on an edge).
    fn walls_inside(&self, region: &Bits<N>) -> bool {
        let fm = &self.fm;
        let mut links = self.links_walled();
        for through in [self.noncount(), self.end_through] {
            if let Some(&Some(link)) = fm.link_of.get(through) {
                links.put(link, false);
            }
        }
        let nc = fm.ncols;
        let right = region.and(&region.shr(1)).and(&fm.not_last);
        let down = region.and(&region.shr(nc));
        if !right.and_not(&links.right).is_empty() || !down.and_not(&links.down).is_empty() {
            return true;
        }
        fm.pillar && {
            let wrap = region.and(&fm.last_col).and(&region.shl(nc - 1));
            !wrap.and_not(&links.wrap).is_empty()
        }
    }

    /// False when an open region is already hopeless. Regions only ever
    /// split as the line grows, so it is when a star in it has no partner
    /// of its colour left in it (or the stars of a colour nothing else has
    /// there cannot pair up), when its pieces need more room than it has
    /// (with subtractive pieces: a net area below 0 or above its size), or
    /// when a part the line can no longer cut holds squares of two colours,
    /// a star with more than one partner or faces no piece can cover, or
    /// when its parts with pieces are short of area by more than the other
    /// parts' pieces have over, or (with subtractive pieces on the board)
    /// when a part with pieces cannot reach pieces enough to fill the
    /// region it ends up in ([`Search::piece_room_ok`]). Only used on
    /// regions without elimination marks.
    fn open_region_ok(
        &self,
        region: &Bits<N>,
        reach: &Bits<N>,
        stuck: &mut Option<Links<N>>,
    ) -> bool {
        let fm = &self.fm;
        for sc in &fm.stars {
            // Each final region with stars of the colour holds exactly two
            // symbols of it: with nothing else of the colour, two stars.
            let stars = region.and(&sc.stars).count();
            let all = region.and(&sc.all).count();
            if stars > 0 && (all < 2 || (all == stars && stars % 2 == 1)) {
                return false;
            }
        }
        // Pieces (none subtractive) must fill their final regions exactly.
        let area = if !fm.polys.is_empty() && !region.intersects(&fm.ylops) {
            fm.area(region)
        } else {
            if region.intersects(&fm.ylops) {
                // Each final region's pieces have a net area of 0 or its
                // size: the region's net area is between 0 and its size.
                let (add, take) = (fm.area(region), fm.ylop_area(region));
                if take > add || add - take > region.count() {
                    return false;
                }
            }
            0
        };
        if area > region.count() {
            return false;
        }
        let pieces = if area > 0 {
            region.and(&fm.sized_polys)
        } else {
            Bits::empty()
        };
        // Pieces, subtractive or not, whose parts get the room test, and
        // the region's area of each.
        let roomy = if self.plan.room && fm.exact && !fm.ylops.is_empty() {
            region.and(&fm.sized_polys.or(&fm.ylops))
        } else {
            Bits::empty()
        };
        let whole_room = if roomy.is_empty() {
            (0, 0)
        } else {
            (fm.area(region), fm.ylop_area(region))
        };
        // Without pieces, and with at most two symbols of each star's
        // colour, only squares of two colours in one part can fail it.
        let few_stars = pieces.is_empty()
            && roomy.is_empty()
            && fm
                .stars
                .iter()
                .all(|sc| !region.intersects(&sc.stars) || region.and(&sc.all).count() <= 2);
        if few_stars && !fm.mixed_squares(region) {
            return true;
        }
        let stuck = stuck.get_or_insert_with(|| self.stuck_links(reach));
        let linked = fm.linked(stuck);
        // A face without such links and without a piece is a part of one
        // square or star: nothing to find there. One with a piece (outside
        // the room test) is a part of one face that passes the tests below,
        // all such parts at once: the region's pieces have area (at least
        // 1), the part's own piece covers it, and one face holds no two
        // colours and at most one star's symbol.
        let singles = if roomy.is_empty() {
            pieces.and_not(&linked)
        } else {
            Bits::empty()
        };
        let seeds = region
            .and(&fm.colored_squares_stars)
            .and(&linked)
            .or(&pieces.and_not(&singles))
            .or(&roomy);
        if few_stars {
            // A flood per square colour, not one per part.
            return !fm.parts_mix_squares(&seeds, stuck);
        }
        // Faces the parts with pieces have beyond their pieces' area, and
        // area their pieces have beyond their faces (a one-face part with
        // a piece of size k has k - 1 over).
        let (mut short, mut over) = (0, fm.area(&singles) - singles.count());
        // The parts with pieces, which placements inside the region must
        // cover.
        let mut need = singles;
        let parts_ok = self.parts_of(seeds, stuck, |part| {
            // A part the line can no longer cut ends up whole in one region,
            // which holds at most the region's pieces.
            // That region is tiled by the pieces, so they cover the part.
            if part.intersects(&pieces) {
                let size = part.count();
                if size > area {
                    return false;
                }
                need = need.or(part);
                let own = fm.area(part);
                short += size.saturating_sub(own);
                over += own.saturating_sub(size);
            }
            !fm.mixed_squares(part)
                && fm
                    .stars
                    .iter()
                    .all(|sc| !part.intersects(&sc.stars) || part.and(&sc.all).count() <= 2)
                && (!part.intersects(&roomy) || self.piece_room_ok(part, region, whole_room))
        });
        if !parts_ok {
            return false;
        }
        // Each final region with pieces has as many faces as its pieces'
        // area, so its parts that are short of area are made up by parts
        // with area over. (Far cheaper than the cover test below, and on
        // 96FE4285 it cuts about 29 times as often: it goes first.)
        if short > over {
            return false;
        }
        // Each kind of piece standing in the region needs a placement
        // inside it, and those placements must cover the parts above.
        if area > 0 {
            // Once the search is no longer small, the region's whole cover,
            // kept: it holds `need` exactly when the cover that stops once
            // `need` is covered does.
            let cover = if self.visited >= self.plan.memo_after {
                let mut covers = self.covers.borrow_mut();
                covers.get(region).unwrap_or_else(|| {
                    let cover = fm.piece_cover(region);
                    covers.put(*region, cover);
                    cover
                })
            } else {
                fm.piece_cover_of(region, &need)
            };
            match cover {
                Some(cover) if need.and_not(&cover).is_empty() => {}
                _ => return false,
            }
        }
        // The pieces must also fit in it all at once, covering those parts.
        // With as many faces as its pieces have area, every final region
        // holds pieces, so they tile the whole region (across what may
        // become walls too: that only allows more).
        let whole = area == region.count() && fm.tileable(region);
        area == 0 || self.packs_cached(region, &need, stuck, whole)
    }

    /// False when `part` (faces the line can no longer part, holding a
    /// piece, subtractive or not, in the open `region`, whose pieces have
    /// an area of `whole` and subtractive ones of `whole_neg`) can grow
    /// into no final region its pieces pass in (spec §5.6).
    ///
    /// That final region holds `part` and lies in `region`, and holds no
    /// elimination mark; so no square of another colour than the part's,
    /// and nothing more of the colour of a star the part already pairs
    /// up. Its pieces have a net area of 0, or of its own size:
    /// - of 0: the part's pieces must be outweighed by subtractive ones
    ///   it can reach, and the other way round (tested on the whole region
    ///   first, which is cheap and usually passes);
    /// - of its size: it must reach, beyond the part, pieces enough to
    ///   make up its size, and reaching a piece `d` faces away takes at
    ///   least `d` faces more. A flood from the part, a ring of faces at a
    ///   time, stops as soon as what it has reached would do.
    ///
    /// Only on boards without removed faces (theirs also join through the
    /// rim), and with subtractive pieces: on other boards the parts' own
    /// area tests ([`Search::open_region_ok`]) cut nearly as much, for
    /// less (0.7% fewer nodes on the dev corpus's puzzles without
    /// subtractive pieces, for 10% more time on 96FE4285).
    fn piece_room_ok(&self, part: &Bits<N>, region: &Bits<N>, whole: (u32, u32)) -> bool {
        let fm = &self.fm;
        let (pos, neg) = (fm.area(part) as i64, fm.ylop_area(part) as i64);
        let size = i64::from(part.count());
        if size <= pos - neg {
            return true;
        }
        let (whole_pos, whole_neg) = whole;
        if pos <= i64::from(whole_neg) && neg <= i64::from(whole_pos) {
            return true;
        }
        let mut blocked = Bits::empty();
        if let Some(own) = fm.squares.iter().position(|sq| part.intersects(sq)) {
            for (k, sq) in fm.squares.iter().enumerate() {
                if k != own {
                    blocked = blocked.or(sq);
                }
            }
        }
        for sc in &fm.stars {
            if part.intersects(&sc.stars) && part.and(&sc.all).count() >= 2 {
                blocked = blocked.or(&sc.all);
            }
        }
        let allowed = region.and_not(&blocked).or(part);
        let (mut cur, mut d, mut gain) = (*part, 0, 0);
        loop {
            let next = fm.step(&cur, &self.links).and(&allowed);
            if next == cur {
                break;
            }
            d += 1;
            gain += fm.area(&next.and_not(&cur)) as i64;
            if size + d <= pos - neg + gain {
                return true;
            }
            cur = next;
        }
        pos <= fm.ylop_area(&cur) as i64 && neg <= fm.area(&cur) as i64
    }

    /// Hands `each` the parts `stuck` joins that hold a face of `seeds`
    /// (a flood from the first seed left, whose part then leaves the
    /// seeds) until it returns false (then false). A flood starts from a
    /// part found above on this branch where one holds its seed
    /// ([`PartHints`]); the parts are kept for the nodes below.
    fn parts_of(
        &self,
        mut seeds: Bits<N>,
        stuck: &Links<N>,
        mut each: impl FnMut(&Bits<N>) -> bool,
    ) -> bool {
        if seeds.is_empty() {
            return true;
        }
        let fm = &self.fm;
        let mut hints = self.part_hints.borrow_mut();
        let depth = self.moves.len();
        if hints.at.len() <= depth {
            hints.at.resize(depth + 1, PartRecord::default());
        }
        let (above, here) = hints.at.split_at_mut(depth);
        let rec = &mut here[0];
        if rec.stamp != self.visited {
            rec.stamp = self.visited;
            rec.stuck = *stuck;
            rec.n = 0;
        }
        // The nearest node above (two slots up: a node, then an edge).
        let from = above
            .len()
            .checked_sub(2)
            .map(|k| &above[k])
            .filter(|r| r.within(stuck));
        while let Some(f) = seeds.first() {
            let mut one = Bits::empty();
            one.set(f);
            let hint = from.and_then(|r| r.parts[..r.n].iter().find(|p| p.get(f)));
            let part = fm.flood(*hint.unwrap_or(&one), stuck);
            debug_assert!(
                hint.is_none() || fm.flood(one, stuck) == part,
                "a part from above floods as its face does"
            );
            seeds = seeds.and_not(&part);
            if rec.n < PART_HINTS && part.count() > 1 {
                rec.parts[rec.n] = part;
                rec.n += 1;
            }
            if !each(&part) {
                return false;
            }
        }
        true
    }

    /// [`FaceMasks::packs`] for an open region, with `need` the parts
    /// holding its pieces, within the test's budget (see [`Packings`]):
    /// when its pieces must tile it `whole`, first the tiling
    /// ([`Search::tile_within`], up to [`OPEN_TILE_STEPS`] steps); then a
    /// recent packing of the same pieces that still holds answers at
    /// once, then the verdicts kept by the region and the links inside it
    /// the line can no longer cut (which decide it). True (the region
    /// passes) when the budget is spent or the test gives up.
    fn packs_cached(
        &self,
        region: &Bits<N>,
        need: &Bits<N>,
        stuck: &Links<N>,
        whole: bool,
    ) -> bool {
        // On the way back to a resume point the nodes passed before; with
        // the budget spent then, the test may not have run there.
        if !self.packing || self.replay_to > self.moves.len() {
            return true;
        }
        let mut cache = self.packings.borrow_mut();
        let earned = self.visited / PACK_NODES_PER_UNIT + cache.saved + PACK_START_UNITS;
        if cache.spent >= earned {
            return true;
        }
        // A region its pieces must tile whole: the tiling's kept verdicts
        // (by the region alone) answer most often, so they come first.
        if whole {
            let before = self.tile_steps.get();
            let tiles = self.tile_within(region, OPEN_TILE_STEPS);
            cache.spent += (self.tile_steps.get() - before).div_ceil(TILE_STEPS_PER_UNIT);
            if let Some(ok) = tiles {
                if !ok {
                    cache.saved += self.cut_saves();
                }
                return ok;
            }
        }
        let fm = &self.fm;
        let pieces = region.and(&fm.sized_polys);
        let inside = Links {
            right: stuck.right.and(region),
            down: stuck.down.and(region),
            wrap: stuck.wrap.and(region),
        };
        if cache
            .recent
            .iter()
            .any(|(p, w)| *p == pieces && fm.packing_holds(region, need, &inside, w))
        {
            return true;
        }
        let key = (*region, inside);
        if let Some(ok) = cache.verdicts.get(&key) {
            return ok;
        }
        let parts = StuckParts::new(fm, inside);
        let mut steps = PACK_STEPS;
        let mut work = 0;
        let mut found = std::mem::take(&mut cache.found);
        let ok = fm.packs(region, need, &parts, &mut steps, &mut found, &mut work);
        cache.spent += work / PACK_WORK_PER_UNIT + 1;
        if !ok {
            cache.saved += self.cut_saves();
        } else if steps > 0 && !found.is_empty() {
            // A packing it found (not one it gave up on).
            let k = cache.next;
            if cache.recent.len() < RECENT_PACKINGS {
                cache.recent.push((pieces, found.clone()));
            } else {
                cache.recent[k] = (pieces, found.clone());
            }
            cache.next = (k + 1) % RECENT_PACKINGS;
        }
        cache.found = found;
        cache.verdicts.put(key, ok);
        ok
    }

    /// What a packing test's cut here saves: the mean size of the
    /// subtrees searched to the end at this depth (16 before there is one).
    fn cut_saves(&self) -> u64 {
        let (sum, n) = self.sizes[self.moves.len().min(DEPTHS - 1)];
        sum.checked_div(n).unwrap_or(16)
    }

    /// False when an open region holding elimination marks already has
    /// more elements that must go than marks. A mark removes one element of
    /// its own final region, and the region's final regions split its
    /// elements and its marks between them, so the elements that are wrong
    /// in any part of it each need a mark of their own: dots the line can
    /// no longer cover, triangles already wrong for good, stars with no
    /// partner of their colour left in it (marks do not count: a used mark
    /// is gone at the final check), the pieces that cannot all tile a part
    /// of it ([`FaceMasks::pieces_in_excess`], without subtractive pieces
    /// in it), in a `sealed` region, which is final, the pieces that must
    /// go before the rest have the net area the fit needs
    /// ([`FaceMasks::final_pieces_in_excess`]), and in each part the line can no longer cut all squares but
    /// those of one colour and all stars of a colour but two. These are
    /// distinct elements, so their counts add up.
    fn marked_region_ok(
        &self,
        region: &Bits<N>,
        sealed: bool,
        reach: &Bits<N>,
        stuck: &mut Option<Links<N>>,
    ) -> bool {
        let fm = &self.fm;
        let marks = region.and(&fm.negas).count();
        let mut need = self
            .lost_dots
            .iter()
            .filter(|&&f| region.get(f as usize))
            .count() as u32;
        for sc in &fm.stars {
            if region.intersects(&sc.stars) && region.and(&sc.all).and_not(&fm.negas).count() < 2 {
                need += 1;
            }
        }
        need += region.and(&self.lost_triangles).count();
        if need > marks {
            return false;
        }
        if sealed && region.intersects(&fm.ylops) {
            need += fm.final_pieces_in_excess(region);
        } else if region.intersects(&fm.sized_polys) && !region.intersects(&fm.ylops) {
            let mut excess = fm.pieces_in_excess(region);
            if sealed && fm.area(region) != region.count() {
                excess = excess.max(fm.final_pieces_in_excess(region));
            }
            need += excess;
        }
        if need > marks {
            return false;
        }
        if !region.intersects(&fm.colored_squares_stars) {
            return true;
        }
        // Squares of one colour and at most two stars of each colour: no
        // part has anything to count.
        if !fm.mixed_squares(region) && fm.stars.iter().all(|sc| region.and(&sc.stars).count() <= 2)
        {
            return true;
        }
        let stuck = stuck.get_or_insert_with(|| self.stuck_links(reach));
        // A face without such links is a part of one symbol: nothing to
        // count there.
        let seeds = region.and(&fm.colored_squares_stars).and(&fm.linked(stuck));
        self.parts_of(seeds, stuck, |part| {
            let (mut all, mut most) = (0, 0);
            for sq in &fm.squares {
                let n = part.and(sq).count();
                all += n;
                most = most.max(n);
            }
            need += all - most;
            // Stars of one colour: all go, or two symbols of the colour
            // stay in the final region, so at most two of them.
            for sc in &fm.stars {
                need += part.and(&sc.stars).count().saturating_sub(2);
            }
            need <= marks
        })
    }

    /// The links the line can no longer cut ([`FaceMasks::stuck`]); covered
    /// start edges joined for now may still turn into walls, so they are
    /// left out.
    fn stuck_links(&self, reach: &Bits<N>) -> Links<N> {
        self.fm.stuck(&self.links_walled(), reach)
    }

    /// The face links with every covered start edge a wall (as it is
    /// covered), whatever it joins for now.
    fn links_walled(&self) -> Links<N> {
        let mut links = self.links;
        for &(link, _) in &self.half_walls {
            links.put(link, false);
        }
        links
    }

    /// The mid-segment start the regions pass through (not a wall), or
    /// `usize::MAX` when the start is a node or FAT_STARTPOINTS is set.
    #[inline]
    fn noncount(&self) -> usize {
        let b = &self.plan.rules.board;
        if b.kind[self.start] == SlotKind::Edge && !b.fat_startpoints {
            self.start
        } else {
            usize::MAX
        }
    }
}

/// Searches `branches` (each a start slot and the moves it begins with,
/// as [`Search::run_from`] takes them) in parallel on the current thread
/// pool, handing `visit` every solution. A branch starts only while the
/// limits allow and, with `cap` (a tally of search nodes and its ceiling),
/// while the tally is under the ceiling, getting what is left of it;
/// `done` (a flag per branch) records those searched to the end. True
/// when every branch was.
pub fn run_branches<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limits: &Limits,
    branches: &[(usize, Vec<Direction>)],
    cap: Option<(&AtomicU64, u64)>,
    done: Option<&[AtomicBool]>,
    visit: &(impl Fn(&Found) -> bool + Sync),
) -> bool {
    let unfinished = AtomicBool::new(false);
    branches.par_iter().enumerate().for_each_init(
        || Search::<N>::new(plan, masks, limits),
        |s, (k, (start, prefix))| {
            if limits.expired() {
                unfinished.store(true, Ordering::Relaxed);
                return;
            }
            if let Some((spent, ceiling)) = cap {
                let used = spent.load(Ordering::Relaxed);
                if used >= ceiling {
                    unfinished.store(true, Ordering::Relaxed);
                    return;
                }
                s.set_budget(Some(ceiling - used));
            }
            s.stopped = false;
            let before = s.visited;
            let go = s.run_from(*start, prefix, &mut |f: &Found| visit(f));
            if let Some((spent, _)) = cap {
                spent.fetch_add(s.visited - before, Ordering::Relaxed);
            }
            if go && !s.stopped {
                if let Some(done) = done {
                    done[k].store(true, Ordering::Relaxed);
                }
            } else {
                unfinished.store(true, Ordering::Relaxed);
            }
        },
    );
    !unfinished.load(Ordering::Relaxed)
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

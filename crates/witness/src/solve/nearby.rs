//! Solutions near a known one: its mirror twin, and the paths that keep
//! to its nodes.
//!
//! In a symmetry puzzle, a solution drawn from the mirrored start (the
//! lines swapping places, and so colours) is another solution whenever
//! nothing can tell the colours or the two starts apart
//! ([`mirror_twin`]).
//!
//! A puzzle with two solutions often has them close together: a detour
//! taken the other way round, a few nodes visited in another order, a
//! stop at an end the line passes. Those paths visit only the
//! nodes the first solution visits, and there are few such paths, so a
//! search kept to those nodes ([`Search::set_corridor`]) finds them in a
//! few thousand nodes, where the turns of a count might need millions
//! before any lane wanders back there. Counts with a small limit
//! (`witness count --unique`) run it on each of their first solutions
//! ([`super::portfolio::distinct_solutions`]). Every path it reports is a
//! solution (the search validates it as always), so it only ever adds to
//! a count; that the count is complete is proved elsewhere (the `second`
//! example measures how often it finds a second solution; see
//! docs/benchmarks.md).

use super::answer::Answer;
use super::bits::Bits;
use super::plan::{Masks, Plan};
use super::search::{Found, Search};
use super::Limits;
use crate::model::{Direction, SlotKind};
use crate::rules::board::NONE;

/// The search nodes a near search may take. (Of the 33 second solutions
/// the lab binary `second` found within 20,000 nodes, 28 took fewer than
/// 8,000; a near search that finds nothing costs a count these nodes.)
pub const NEAR_NODES: u64 = 8_000;

/// The largest share of the board's nodes a solution may visit for a
/// near search: beyond it the search would be about as wide as any.
pub const NEAR_SHARE: (u64, u64) = (9, 10);

/// The nodes (node indices) a path from slot `start` with `moves` visits.
pub fn nodes_of<const N: usize>(plan: &Plan, start: usize, moves: &[Direction]) -> Bits<N> {
    let b = &plan.rules.board;
    let mut out = Bits::empty();
    let mut put = |s: usize| {
        let v = plan.node_of[s];
        if v != NONE {
            out.set(v as usize);
        }
    };
    let mut s = start;
    put(s);
    for &d in moves {
        s = b.nbr[s][d as usize] as usize;
        put(s);
    }
    out
}

/// Whether the solution from slot `start` with `moves` visits at most
/// [`NEAR_SHARE`] of the nodes a line may visit: a near search of it is
/// worth its nodes.
pub fn narrow<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    start: usize,
    moves: &[Direction],
) -> bool {
    let on = u64::from(nodes_of::<N>(plan, start, moves).count());
    on * NEAR_SHARE.1 <= u64::from(masks.walk.count()) * NEAR_SHARE.0
}

/// Searches, for up to `budget` nodes, the paths that visit only the nodes
/// of the solution from slot `start` with `moves`, handing `visit` every
/// solution found but that one, until it returns false. Returns false when
/// `visit` stopped it.
pub fn near_solutions<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limits: &Limits,
    (start, moves): (usize, &[Direction]),
    budget: u64,
    visit: &mut impl FnMut(Answer) -> bool,
) -> bool {
    let mut search = Search::<N>::new(plan, masks, limits);
    search.set_corridor(nodes_of(plan, start, moves));
    search.set_budget(Some(budget));
    let mut go = true;
    search.run_all(&mut |f: &Found| {
        if f.start == start && f.moves == moves {
            return true;
        }
        go = visit((f.start, f.end, f.moves.to_vec()));
        go
    });
    go
}

/// The mirror twin of the solution from slot `start` with `moves`, in a
/// symmetry puzzle: the same two lines with the main one drawn from the
/// mirrored start, when that is another solution for sure. It covers the
/// same slots, so it passes the same checks, provided that its start is a
/// start and its end an end (the mirror line may end anywhere, the main
/// one may not), that no blue or yellow dot tells the lines' colours
/// apart, and that the start and the end are nodes and no start is fat
/// (a start or end on an edge, or a fat start, shapes the regions around
/// it as the mirror's does not). `None` otherwise, and for undirected
/// puzzles and a start that is its own mirror.
pub fn mirror_twin(
    plan: &Plan,
    start: usize,
    moves: &[Direction],
) -> Option<(usize, Vec<Direction>)> {
    let b = &plan.rules.board;
    let sym = b.symmetry?;
    if plan.undirected || b.fat_startpoints || !plan.colored_dots.is_empty() {
        return None;
    }
    let end = moves
        .iter()
        .fold(start, |s, &d| b.nbr[s][d as usize] as usize);
    let (ms, me) = (b.mirror[start] as usize, b.mirror[end] as usize);
    let nodes = b.kind[start] == SlotKind::Node && b.kind[end] == SlotKind::Node;
    if !nodes || ms == start || !b.start[ms] || !b.end[me] {
        return None;
    }
    let flip = |d: Direction| {
        let k = d as usize;
        let k = if (k < 2 && sym.x) || (k >= 2 && sym.y) {
            k ^ 1
        } else {
            k
        };
        Direction::ALL[k]
    };
    Some((ms, moves.iter().map(|&d| flip(d)).collect()))
}

/// In a symmetry puzzle where every solution has a mirror twin
/// ([`mirror_twin`]), whatever its start and end: the start slots a count
/// may leave out, the later of each pair of mirrored starts (each
/// solution from the earlier one then counts twice, one for its twin).
/// That holds when no blue or yellow dot is on the board, no start is fat,
/// the puzzle is not undirected, every start and end is a node, and the
/// mirror of every start is a start and of every end an end. `None`
/// otherwise, or when no start has a mirrored start of its own.
pub fn twin_starts(plan: &Plan) -> Option<Vec<bool>> {
    let b = &plan.rules.board;
    b.symmetry?;
    if plan.undirected || b.fat_startpoints || !plan.colored_dots.is_empty() {
        return None;
    }
    let node = |s: usize| b.kind[s] == SlotKind::Node;
    for s in 0..b.len() {
        let m = b.mirror[s] as usize;
        if (b.start[s] && (!node(s) || !b.start[m])) || (b.end[s] && (!node(s) || !b.end[m])) {
            return None;
        }
    }
    let skip: Vec<bool> = (0..b.len())
        .map(|s| b.start[s] && (b.mirror[s] as usize) < s)
        .collect();
    skip.contains(&true).then_some(skip)
}

//! Exact solution counts of bare panels by a frontier (transfer-matrix) dynamic programme.
//!
//! On a [`bare`](Plan::bare) panel every legal path is a solution, so the
//! count is a count of simple paths in the grid graph: for every path with
//! terminal slots `a` and `b`, one solution per way of reading it from a
//! start to an end (`a` a start and `b` an end, and the reverse), plus one
//! zero-length solution per slot that is both a start and an end.
//!
//! The programme visits the nodes line by line (the shorter side of the
//! panel is the line) and keeps, for every way the processed part of the
//! panel can hold pieces of one path, how many such ways there are. A state
//! is the frontier: one plug per edge crossing the cut between processed
//! and unprocessed nodes, packed 3 bits each into a `u64`:
//!
//! - `0` no line on that edge;
//! - `1` / `2` the first / second end of a piece whose both ends are on the
//!   frontier (pieces never cross, so these nest like brackets);
//! - `3`, `4`, `5` the frontier end of a piece whose other end is a
//!   terminal, tagged with what that terminal may be (start, end, both);
//! - `6` a mid-edge terminal on that edge already used from the processed
//!   side (the edge carries no line but cannot be used again).
//!
//! A terminal is a node (the path stops on it) or a start or end on an
//! edge, which a node may reach by half its edge (a "pendant"). Every node
//! on the path then has exactly two incident pieces: line edges, pendants,
//! or itself as a terminal. When the two ends of the path meet, its count,
//! weighted by the number of start-to-end readings, is added to the total;
//! nothing else may then be left on the frontier.
//!
//! Supported: one line (no symmetry), no pillar, any gaps, any number of
//! starts and ends on nodes or edges. Undirected puzzles count a path from
//! `s` to `t` only when `s <= t` (the search's rule); they run one pass per
//! such pair of slots, at most [`MAX_PAIRS`] of them. Everything else is
//! left to the search.

use super::natural::Natural;
use super::plan::Plan;
use super::{Count, Limits, Status};
use crate::model::SlotKind;
use crate::rules::board::NONE;
use plugs::*;
use table::{Table, Total, HEADROOM};

mod plugs;
mod table;

/// The memory the two state tables of a count may take together, by
/// default: 2 GiB. Beyond it (or when the allocator refuses) the count
/// gives up and the search counts instead. An empty 12x12 panel takes
/// about 20 MB.
pub const MAX_BYTES: usize = 2 << 30;

/// The most (start, end) pairs an undirected count runs a pass for each;
/// with more, the search counts instead.
pub const MAX_PAIRS: usize = 64;

/// States between two looks at the limits.
const CHECK_EVERY: u64 = 4096;

/// The node grid in processing order: `outer` lines of `inner` nodes.
struct Grid {
    outer: usize,
    inner: usize,
    /// Node slot per cell (`outer * inner`, line by line).
    node: Vec<u32>,
    /// The edge slot to the next cell of the same line (`NONE` at its end).
    next_inner: Vec<u32>,
    /// The edge slot to the same cell of the next line (`NONE` in the last).
    next_outer: Vec<u32>,
}

impl Grid {
    /// Lines along the shorter side of the node grid.
    fn new(plan: &Plan) -> Grid {
        let b = &plan.rules.board;
        let (nc, nr) = (plan.ncols, plan.nrows);
        // Columns as lines (x outer) or rows as lines (y outer).
        let by_columns = nr <= nc;
        let (outer, inner) = if by_columns { (nc, nr) } else { (nr, nc) };
        let mut g = Grid {
            outer,
            inner,
            node: Vec::with_capacity(outer * inner),
            next_inner: Vec::with_capacity(outer * inner),
            next_outer: Vec::with_capacity(outer * inner),
        };
        for i in 0..outer {
            for j in 0..inner {
                let (c, r) = if by_columns { (i, j) } else { (j, i) };
                let (x, y) = (2 * c, 2 * r);
                g.node.push(b.index(x, y) as u32);
                let (ix, iy, ox, oy) = if by_columns {
                    (x, y + 1, x + 1, y)
                } else {
                    (x + 1, y, x, y + 1)
                };
                g.next_inner.push(if j + 1 < inner {
                    b.index(ix, iy) as u32
                } else {
                    NONE
                });
                g.next_outer.push(if i + 1 < outer {
                    b.index(ox, oy) as u32
                } else {
                    NONE
                });
            }
        }
        g
    }

    /// The edge slots that reach cell `k` from the previous cell of its
    /// line and from the same cell of the previous line (`NONE` where
    /// there is none).
    fn prev(&self, k: usize) -> (u32, u32) {
        let prev_inner = if !k.is_multiple_of(self.inner) {
            self.next_inner[k - 1]
        } else {
            NONE
        };
        let prev_outer = if k >= self.inner {
            self.next_outer[k - self.inner]
        } else {
            NONE
        };
        (prev_inner, prev_outer)
    }
}

/// What the programme needs to know about one node.
#[derive(Copy, Clone, Default)]
struct Cell {
    /// The line may occupy the node.
    ok: bool,
    /// Its roles as a terminal (0: it cannot be one).
    own: u8,
    /// A line may run to the next cell of the line.
    to_inner: bool,
    /// A line may run to the same cell of the next line.
    to_outer: bool,
    /// Roles of mid-edge terminals the node may reach by half an edge, on
    /// its edges: previous in the line, from the previous line, to the next
    /// line, next in the line (0: none).
    pend: [u8; 4],
    /// Terminals later cells may still use, at most 2: a state with fewer
    /// terminal pieces than `2 - future` can never become a whole path.
    future: u8,
}

/// The cells for the given roles of slots.
fn cells(plan: &Plan, g: &Grid, role: &impl Fn(usize) -> u8) -> Vec<Cell> {
    let b = &plan.rules.board;
    let en = |s: u32| s != NONE && plan.enterable[s as usize];
    let pend = |ok: bool, e: u32| -> u8 {
        if ok && en(e) && b.kind[e as usize] == SlotKind::Edge {
            role(e as usize)
        } else {
            0
        }
    };
    let inner = g.inner;
    let mut cs: Vec<Cell> = (0..g.outer * inner)
        .map(|k| {
            let ok = en(g.node[k]);
            let (ei, eo) = (g.next_inner[k], g.next_outer[k]);
            let (prev_inner, prev_outer) = g.prev(k);
            Cell {
                ok,
                own: if ok { role(g.node[k] as usize) } else { 0 },
                to_inner: ok && en(ei) && en(g.node[k + 1]),
                to_outer: ok && en(eo) && en(g.node[k + inner]),
                pend: [
                    pend(ok, prev_inner),
                    pend(ok, prev_outer),
                    pend(ok, eo),
                    pend(ok, ei),
                ],
                future: 0,
            }
        })
        .collect();
    // The last cell that may use each terminal (a node, or an edge that
    // either of its nodes may reach by half of it).
    let mut last = vec![usize::MAX; b.len()];
    for (k, c) in cs.iter().enumerate() {
        let (prev_inner, prev_outer) = g.prev(k);
        let slots = [
            g.node[k],
            prev_inner,
            prev_outer,
            g.next_outer[k],
            g.next_inner[k],
        ];
        let roles = [c.own, c.pend[0], c.pend[1], c.pend[2], c.pend[3]];
        for (slot, r) in slots.into_iter().zip(roles) {
            if r != 0 {
                last[slot as usize] = k;
            }
        }
    }
    let mut ends: Vec<usize> = last.into_iter().filter(|&k| k != usize::MAX).collect();
    ends.sort_unstable();
    for (k, c) in cs.iter_mut().enumerate() {
        let later = ends.len() - ends.partition_point(|&e| e <= k);
        c.future = later.min(2) as u8;
    }
    cs
}

/// How one pass ended.
enum Pass {
    /// The exact number of solutions.
    Done(Natural),
    /// The limits stopped it (or the count reached `stop_at`) with this
    /// many solutions found so far.
    Stopped(Natural),
    /// The state tables outgrew their memory.
    TooBig,
}

/// One thing a node may join: a line arriving on a plug, a pendant
/// terminal, or a line leaving on a plug.
#[derive(Copy, Clone)]
enum Item {
    /// A line arriving: plug value, position.
    In(u64, usize),
    /// A terminal: roles, and which edge's half is used (0..4 as in
    /// [`Cell::pend`], 4 for the node itself).
    Pend(u8, u8),
    /// A line leaving at this position.
    Out(usize),
}

/// The work done and the limits watched by the passes of one count.
struct Budget<'a> {
    limits: &'a Limits,
    work: u64,
}

impl Budget<'_> {
    /// Counts one state expanded; true when the count must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.work += 1;
        self.work.is_multiple_of(CHECK_EVERY) && self.over()
    }
    fn over(&self) -> bool {
        self.limits.expired() || self.limits.max_nodes.is_some_and(|m| self.work > m)
    }
}

/// What a count took: for the measurements.
#[derive(Copy, Clone, Debug, Default)]
pub struct Stats {
    /// The most states one step held.
    pub peak_states: usize,
    /// The most bytes the two state tables took together.
    pub peak_bytes: usize,
    /// Limbs (64 bits each) per count at the end.
    pub limbs: usize,
    /// States expanded, over all passes.
    pub work: u64,
}

/// One pass of the programme over the cells; stops early once the total
/// reaches `stop_at`. The two state tables take at most `max_bytes`.
fn pass(
    cells: &[Cell],
    g: &Grid,
    stop_at: Option<u128>,
    budget: &mut Budget,
    max_bytes: usize,
    stats: &mut Stats,
) -> Pass {
    let plugs = g.inner + 1;
    let width_mask = if BITS * plugs >= 64 {
        u64::MAX
    } else {
        (1u64 << (BITS * plugs)) - 1
    };
    let mut cur = Table::new(1, max_bytes / 2);
    let mut next = Table::new(1, max_bytes / 2);
    cur.add::<1>(0, &[1]);
    let mut total = Total::default();
    for i in 0..g.outer {
        if i > 0 {
            // The next line: plugs move one place on (the last one, the
            // edge below the line's last node, is always empty).
            for e in cur.entries() {
                debug_assert_eq!(get(e[0], g.inner), 0);
                next.add::<0>((e[0] << BITS) & width_mask, &e[1..]);
                if next.failed {
                    return Pass::TooBig;
                }
            }
            cur.clear();
            std::mem::swap(&mut cur, &mut next);
        }
        for j in 0..g.inner {
            let cell = &cells[i * g.inner + j];
            let args = (j, cell, plugs);
            let stopped = match cur.k {
                1 => sweep::<1>(&mut cur, &mut next, args, &mut total, budget),
                2 => sweep::<2>(&mut cur, &mut next, args, &mut total, budget),
                3 => sweep::<3>(&mut cur, &mut next, args, &mut total, budget),
                4 => sweep::<4>(&mut cur, &mut next, args, &mut total, budget),
                _ => sweep::<0>(&mut cur, &mut next, args, &mut total, budget),
            };
            if stopped {
                return Pass::Stopped(total.natural());
            }
            if next.failed {
                return Pass::TooBig;
            }
            std::mem::swap(&mut cur, &mut next);
            stats.peak_states = stats.peak_states.max(cur.len);
            stats.peak_bytes = stats.peak_bytes.max(cur.bytes() + next.bytes());
            if cur.hi >= HEADROOM {
                // One more limb before the counts could overflow.
                cur.widen();
                next.widen();
                if cur.failed || next.failed {
                    return Pass::TooBig;
                }
            }
            cur.hi = 0;
            stats.limbs = stats.limbs.max(cur.k);
            if stop_at.is_some_and(|s| total.at_least(s)) || budget.over() {
                return Pass::Stopped(total.natural());
            }
            if cur.len == 0 {
                return Pass::Done(total.natural());
            }
        }
    }
    Pass::Done(total.natural())
}

/// Expands every state of `cur` over the node at line position `j`
/// into `next`, emptying `cur`; counts of `K` limbs (`cur.k` when `K` is
/// 0). True when the limits stopped it.
#[inline(never)]
fn sweep<const K: usize>(
    cur: &mut Table,
    next: &mut Table,
    (j, cell, plugs): (usize, &Cell, usize),
    total: &mut Total,
    budget: &mut Budget,
) -> bool {
    let w = 1 + if K == 0 { cur.k } else { K };
    let mut out = Pending {
        items: [(0, 0); BATCH],
        n: 0,
        src: 0,
    };
    for (p, e) in cur.data.chunks_exact(w).enumerate() {
        if budget.tick() {
            return true;
        }
        out.src = p as u32;
        step(e[0], &e[1..], j, cell, plugs, &mut out, total);
        if out.full() {
            out.flush::<K>(cur, next);
            if next.failed {
                return false;
            }
        }
    }
    out.flush::<K>(cur, next);
    cur.clear();
    false
}

/// Expands state `s` (with `c` ways) over the node of `cell`, at line
/// position `j`: plug `j` is the edge from the previous cell of the line,
/// `j + 1` the edge from the previous line; afterwards `j` is the edge to
/// the next line and `j + 1` the edge to the next cell of the line.
#[inline]
fn step(
    s: u64,
    c: &[u64],
    j: usize,
    cell: &Cell,
    plugs: usize,
    out: &mut Pending,
    total: &mut Total,
) {
    let (u, l) = (get(s, j), get(s, j + 1));
    let base = set(set(s, j, 0), j + 1, 0);
    let need = 2 - cell.future as u32;
    if !cell.ok {
        // No line reaches a node it may not occupy.
        debug_assert!(!is_active(u) && !is_active(l));
        out.emit(need, base);
        return;
    }
    let mut items = [Item::Out(0); 9];
    let mut n = 0;
    let mut push = |it: Item| {
        items[n] = it;
        n += 1;
    };
    let mut forced = 0;
    if is_active(u) {
        push(Item::In(u, j));
        forced += 1;
    }
    if is_active(l) {
        push(Item::In(l, j + 1));
        forced += 1;
    }
    if cell.own != 0 {
        push(Item::Pend(cell.own, 4));
    }
    // Half of an edge from before: not when the edge carries the line or
    // its terminal was used from the other side.
    if cell.pend[0] != 0 && u == 0 {
        push(Item::Pend(cell.pend[0], 0));
    }
    if cell.pend[1] != 0 && l == 0 {
        push(Item::Pend(cell.pend[1], 1));
    }
    if cell.pend[2] != 0 {
        push(Item::Pend(cell.pend[2], 2));
    }
    if cell.pend[3] != 0 {
        push(Item::Pend(cell.pend[3], 3));
    }
    if cell.to_outer {
        push(Item::Out(j));
    }
    if cell.to_inner {
        push(Item::Out(j + 1));
    }
    if forced == 0 {
        // The node stays empty.
        out.emit(need, base);
    }
    // Otherwise the node joins exactly two items, the arriving lines among
    // them (they come first in `items`).
    let at = Join {
        s,
        base,
        c,
        j,
        plugs,
        need,
    };
    for a in 0..n {
        if forced >= 1 && a != 0 {
            break;
        }
        for b in a + 1..n {
            if forced == 2 && b != 1 {
                break;
            }
            at.join(items[a], items[b], out, total);
        }
    }
}

/// The states one step emits, waiting to be added to the next table a
/// batch at a time: the slots of a batch are loaded before any is
/// probed, so that the memory waits overlap instead of coming one after
/// another.
struct Pending {
    /// The states emitted, and the slot in the current table of the state
    /// each came from (whose count it gets).
    items: [(u64, u32); BATCH],
    /// How many there are.
    n: usize,
    /// The slot of the state being expanded.
    src: u32,
}

/// The states a batch holds; one state expands to at most 37.
const BATCH: usize = 128;

impl Pending {
    /// Emits state `st` unless it has fewer than `need` terminal pieces:
    /// then too few terminals are left for its pieces to become one path.
    #[inline]
    fn emit(&mut self, need: u32, st: u64) {
        if need == 0 || singles(st).count_ones() >= need {
            self.items[self.n] = (st, self.src);
            self.n += 1;
        }
    }

    /// True when the batch may not have room for one more state's
    /// expansion.
    #[inline]
    fn full(&self) -> bool {
        self.n + 40 > BATCH
    }

    /// Adds the batch to `next`, the counts taken from `cur`.
    #[inline]
    fn flush<const K: usize>(&mut self, cur: &Table, next: &mut Table) {
        let w = 1 + if K == 0 { cur.k } else { K };
        // The index slots first, then the states they point to: each
        // round's loads are independent of one another.
        let mut at = [0u32; BATCH];
        for (a, &(st, _)) in at.iter_mut().zip(&self.items[..self.n]) {
            *a = next.index[next.home(st)];
        }
        let mut touch = 0;
        for &a in &at[..self.n] {
            if a != 0 {
                touch ^= next.data[(a as usize - 1) * w];
            }
        }
        std::hint::black_box(touch);
        for &(st, src) in &self.items[..self.n] {
            let at = src as usize * w;
            next.add::<K>(st, &cur.data[at + 1..at + w]);
        }
        self.n = 0;
    }
}

/// A state being expanded at a node: the state, the state with the
/// node's two incoming plugs cleared, its count, the node's position in
/// the line and the number of plugs.
struct Join<'a> {
    s: u64,
    base: u64,
    c: &'a [u64],
    j: usize,
    plugs: usize,
    /// The terminal pieces a state needs to be kept ([`emit`]).
    need: u32,
}

impl Join<'_> {
    /// Joins items `a` and `b` (in `items` order: arrivals, pendants,
    /// leavings) at the node.
    #[inline]
    fn join(&self, a: Item, b: Item, out: &mut Pending, total: &mut Total) {
        let Join {
            s,
            base,
            c,
            j,
            plugs,
            need,
        } = *self;
        // The path is complete: nothing else may be under way.
        let mut finish = |ta: u8, tb: u8| {
            if !any_active(base) {
                total.add(c, weight(ta, tb));
            }
        };
        // Marks a mid-edge terminal on an edge to a later node as used.
        let used = |st: u64, e: u8| match e {
            2 => set(st, j, USED),
            3 => set(st, j + 1, USED),
            _ => st,
        };
        match (a, b) {
            (Item::In(x, px), Item::In(y, py)) => match (is_single(x), is_single(y)) {
                (true, true) => finish(tag_of(x), tag_of(y)),
                (true, false) => {
                    let m = partner(s, py, y, plugs);
                    out.emit(need, set(base, m, x));
                }
                (false, true) => {
                    let m = partner(s, px, x, plugs);
                    out.emit(need, set(base, m, y));
                }
                (false, false) => match (x, y) {
                    // The two ends of one piece: a cycle.
                    (OPEN, CLOSE) => {}
                    (CLOSE, OPEN) => out.emit(need, base),
                    (OPEN, OPEN) => {
                        let m = partner(s, py, y, plugs);
                        out.emit(need, set(base, m, OPEN));
                    }
                    _ => {
                        let m = partner(s, px, x, plugs);
                        out.emit(need, set(base, m, CLOSE));
                    }
                },
            },
            (Item::In(x, px), Item::Pend(t, e)) => {
                if is_single(x) {
                    finish(tag_of(x), t);
                } else {
                    let m = partner(s, px, x, plugs);
                    let st = used(set(base, m, single(t)), e);
                    if singles_ok(st) {
                        out.emit(need, st);
                    }
                }
            }
            (Item::In(x, _), Item::Out(po)) => out.emit(need, set(base, po, x)),
            (Item::Pend(ta, _), Item::Pend(tb, _)) => finish(ta, tb),
            (Item::Pend(t, e), Item::Out(po)) => {
                // Half an edge and the whole of it exclude each other.
                if (e == 2 && po == j) || (e == 3 && po == j + 1) {
                    return;
                }
                let st = set(used(base, e), po, single(t));
                if singles_ok(st) {
                    out.emit(need, st);
                }
            }
            (Item::Out(_), Item::Out(_)) => out.emit(need, set(set(base, j, OPEN), j + 1, CLOSE)),
            // `items` order never puts a later kind first.
            _ => unreachable!("items out of order"),
        }
    }
}

/// Counts the solutions of a bare plan exactly, or says `None` when the
/// plan is not supported (symmetry, pillar, anything but lines, starts,
/// ends and gaps, a line longer than 20 nodes on both sides, more than
/// [`MAX_PAIRS`] pairs in an undirected puzzle) or the state tables
/// outgrew [`MAX_BYTES`]: then the caller should run the search.
///
/// `limit` and the answer follow [`count_plan`](super::count_plan): when
/// the total reaches `limit`, the answer is `limit` and
/// [`Status::Stopped`]. Without a limit the count is exact at any size.
/// When the deadline passes, a cancel flag is raised or the work (states
/// expanded, counted like the search's [`max_nodes`](Limits::max_nodes))
/// exceeds its budget, the answer is the solutions completed so far (a
/// lower bound) and `Stopped`: no fallback, since the limits have run out
/// for the search too.
pub fn frontier_count(plan: &Plan, limit: Option<u64>, limits: &Limits) -> Option<Count> {
    frontier_count_with(plan, limit, limits, MAX_BYTES).0
}

/// [`frontier_count`] with the state tables kept within `max_bytes`
/// (instead of [`MAX_BYTES`]), and what the count took.
pub fn frontier_count_with(
    plan: &Plan,
    limit: Option<u64>,
    limits: &Limits,
    max_bytes: usize,
) -> (Option<Count>, Stats) {
    let mut stats = Stats::default();
    let b = &plan.rules.board;
    if !plan.bare || plan.symmetric || b.pillar {
        return (None, stats);
    }
    let g = Grid::new(plan);
    if g.inner + 1 > MAX_PLUGS {
        return (None, stats);
    }
    let n = b.len();
    let terminal = |s: usize| plan.enterable[s] && (b.start[s] || b.end[s]);
    // Zero-length solutions: a start that is also an end.
    let zero = (0..n)
        .filter(|&s| plan.enterable[s] && b.start[s] && b.end[s])
        .count();
    // The search stops at the solution that reaches the limit (so a limit
    // of 0 still lets it prove there is none).
    let stop_at = limit.map(|l| l.max(1) as u128);
    let reached = |t: &Natural| stop_at.is_some_and(|s| t.to_u128().is_none_or(|v| v >= s));
    let left = |t: &Natural| stop_at.map(|s| s - t.to_u128().unwrap_or(s).min(s));
    let mut budget = Budget { limits, work: 0 };
    let mut total = Natural::from(zero);
    let mut stopped = reached(&total);
    let mut run = |cs: &[Cell], total: &mut Natural| -> Option<bool> {
        let r = pass(cs, &g, left(total), &mut budget, max_bytes, &mut stats);
        match r {
            Pass::Done(k) => {
                *total += &k;
                Some(false)
            }
            Pass::Stopped(k) => {
                *total += &k;
                Some(true)
            }
            Pass::TooBig => None,
        }
    };
    if !stopped && plan.undirected {
        // One pass per pair: s only a start, t only an end. A path and its
        // reverse count once, from the earlier slot; a path whose reverse is
        // not a path (t no start or s no end) counts from either.
        let starts: Vec<usize> = (0..n).filter(|&s| terminal(s) && b.start[s]).collect();
        let ends: Vec<usize> = (0..n).filter(|&s| terminal(s) && b.end[s]).collect();
        let once = |s: usize, t: usize| s < t || (s > t && !(b.start[t] && b.end[s]));
        let pairs: Vec<(usize, usize)> = starts
            .iter()
            .flat_map(|&s| {
                ends.iter()
                    .filter(move |&&t| once(s, t))
                    .map(move |&t| (s, t))
            })
            .collect();
        if pairs.len() > MAX_PAIRS {
            return (None, stats);
        }
        for (s, t) in pairs {
            let role = |x: usize| {
                if x == s {
                    START
                } else if x == t {
                    END
                } else {
                    0
                }
            };
            let cs = cells(plan, &g, &role);
            match run(&cs, &mut total) {
                Some(false) => {}
                Some(true) => {
                    stopped = true;
                    break;
                }
                None => return (None, stats),
            }
        }
    } else if !stopped {
        let role = |x: usize| {
            if terminal(x) {
                (b.start[x] as u8 * START) | (b.end[x] as u8 * END)
            } else {
                0
            }
        };
        let cs = cells(plan, &g, &role);
        match run(&cs, &mut total) {
            Some(s) => stopped = s,
            None => return (None, stats),
        }
    }
    stats.work = budget.work;
    // Reaching the limit: not exhaustive.
    let capped = reached(&total);
    let count = match limit {
        Some(l) if total > l => Natural::from(l),
        _ => total,
    };
    let status = if stopped || capped {
        Status::Stopped
    } else {
        Status::Complete
    };
    (Some(Count::new(count, status)), stats)
}

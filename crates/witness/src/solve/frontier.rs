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

use super::hash::WordHash;
use super::plan::Plan;
use super::{Count, Limits, Status};
use crate::model::SlotKind;
use crate::rules::board::NONE;
use std::collections::HashMap;

/// The most states one step of the programme may hold; beyond it the count
/// gives up and the search counts instead. Two tables of this many states
/// take up to about 140 MB; an empty 12x12 panel needs 230,000 states, and
/// each face more on the shorter side about 2.7 times as many.
pub const MAX_STATES: usize = 1 << 20;

/// The most (start, end) pairs an undirected count runs a pass for each;
/// with more, the search counts instead.
pub const MAX_PAIRS: usize = 64;

/// Bits per plug.
const BITS: usize = 3;
/// One plug's bits.
const MASK: u64 = 7;
/// The most plugs a `u64` state holds (the line length plus one).
const MAX_PLUGS: usize = 64 / BITS;
/// First end of a piece with both ends on the frontier.
const OPEN: u64 = 1;
/// Second end of such a piece.
const CLOSE: u64 = 2;
/// A mid-edge terminal used from the processed side.
const USED: u64 = 6;
/// Role bit: the terminal may be the start.
const START: u8 = 1;
/// Role bit: the terminal may be the end.
const END: u8 = 2;
/// States between two looks at the limits.
const CHECK_EVERY: u64 = 4096;

/// The plug of a piece ending at a terminal with roles `tag` (1..=3).
#[inline]
fn single(tag: u8) -> u64 {
    2 + tag as u64
}

/// True for the plug of a piece ending at a terminal.
#[inline]
fn is_single(v: u64) -> bool {
    (3..=5).contains(&v)
}

/// True for a plug carrying a line.
#[inline]
fn is_active(v: u64) -> bool {
    v != 0 && v != USED
}

/// The roles of a terminal plug.
#[inline]
fn tag_of(v: u64) -> u8 {
    (v - 2) as u8
}

/// The number of start-to-end readings of a path between terminals with
/// roles `a` and `b`.
#[inline]
fn weight(a: u8, b: u8) -> u128 {
    (a & START != 0 && b & END != 0) as u128 + (b & START != 0 && a & END != 0) as u128
}

#[inline]
fn get(s: u64, p: usize) -> u64 {
    (s >> (BITS * p)) & MASK
}

#[inline]
fn set(s: u64, p: usize, v: u64) -> u64 {
    (s & !(MASK << (BITS * p))) | (v << (BITS * p))
}

/// The position of the bracket matching the one (`v`) at `p`.
#[inline]
fn partner(s: u64, p: usize, v: u64, plugs: usize) -> usize {
    let mut depth = 0i32;
    if v == OPEN {
        for q in p..plugs {
            match get(s, q) {
                OPEN => depth += 1,
                CLOSE => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                return q;
            }
        }
    } else {
        for q in (0..=p).rev() {
            match get(s, q) {
                CLOSE => depth += 1,
                OPEN => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                return q;
            }
        }
    }
    unreachable!("unbalanced frontier state {s:#x}")
}

/// True when some plug carries a line.
#[inline]
fn any_active(s: u64, plugs: usize) -> bool {
    (0..plugs).any(|p| is_active(get(s, p)))
}

/// False when the state holds more than two terminal pieces, or two that
/// cannot be read from a start to an end.
#[inline]
fn singles_ok(s: u64, plugs: usize) -> bool {
    let mut tags = [0u8; 3];
    let mut n = 0;
    for p in 0..plugs {
        let v = get(s, p);
        if is_single(v) {
            if n == 2 {
                return false;
            }
            tags[n] = tag_of(v);
            n += 1;
        }
    }
    n < 2 || weight(tags[0], tags[1]) > 0
}

type Table = HashMap<u64, u128, WordHash>;

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
    (0..g.outer * inner)
        .map(|k| {
            let ok = en(g.node[k]);
            let (ei, eo) = (g.next_inner[k], g.next_outer[k]);
            let prev_inner = if k % inner > 0 {
                g.next_inner[k - 1]
            } else {
                NONE
            };
            let prev_outer = if k >= inner {
                g.next_outer[k - inner]
            } else {
                NONE
            };
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
            }
        })
        .collect()
}

/// How one pass ended.
enum Pass {
    /// The exact number of solutions (saturated at `u128::MAX`).
    Done(u128),
    /// The limits stopped it (or the count reached `stop_at`) with this
    /// many solutions found so far.
    Stopped(u128),
    /// The state table outgrew [`MAX_STATES`].
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

/// Adds `c` ways to state `s`.
#[inline]
fn add(t: &mut Table, s: u64, c: u128) {
    let e = t.entry(s).or_insert(0);
    *e = e.saturating_add(c);
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

/// One pass of the programme over the cells; stops early once the total
/// reaches `stop_at`.
fn pass(cells: &[Cell], g: &Grid, stop_at: u128, budget: &mut Budget) -> Pass {
    let plugs = g.inner + 1;
    let width_mask = if BITS * plugs >= 64 {
        u64::MAX
    } else {
        (1u64 << (BITS * plugs)) - 1
    };
    let mut cur = Table::default();
    let mut next = Table::default();
    cur.insert(0, 1);
    let mut total: u128 = 0;
    for i in 0..g.outer {
        if i > 0 {
            // The next line: plugs move one place on (the last one, the
            // edge below the line's last node, is always empty).
            next.clear();
            for (&s, &c) in &cur {
                debug_assert_eq!(get(s, g.inner), 0);
                add(&mut next, (s << BITS) & width_mask, c);
            }
            std::mem::swap(&mut cur, &mut next);
        }
        for j in 0..g.inner {
            let cell = &cells[i * g.inner + j];
            next.clear();
            for (&s, &c) in &cur {
                if budget.tick() {
                    return Pass::Stopped(total);
                }
                step(s, c, j, cell, plugs, &mut next, &mut total);
                if next.len() > MAX_STATES {
                    return Pass::TooBig;
                }
            }
            std::mem::swap(&mut cur, &mut next);
            if total >= stop_at {
                return Pass::Stopped(total);
            }
            if budget.over() {
                return Pass::Stopped(total);
            }
            if cur.is_empty() {
                return Pass::Done(total);
            }
        }
    }
    Pass::Done(total)
}

/// Expands state `s` (with `c` ways) over the node of `cell`, at line
/// position `j`: plug `j` is the edge from the previous cell of the line,
/// `j + 1` the edge from the previous line; afterwards `j` is the edge to
/// the next line and `j + 1` the edge to the next cell of the line.
#[inline]
fn step(s: u64, c: u128, j: usize, cell: &Cell, plugs: usize, next: &mut Table, total: &mut u128) {
    let (u, l) = (get(s, j), get(s, j + 1));
    let base = set(set(s, j, 0), j + 1, 0);
    if !cell.ok {
        // No line reaches a node it may not occupy.
        debug_assert!(!is_active(u) && !is_active(l));
        add(next, base, c);
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
        add(next, base, c);
    }
    // Otherwise the node joins exactly two items, the arriving lines among
    // them (they come first in `items`).
    for a in 0..n {
        if forced >= 1 && a != 0 {
            break;
        }
        for b in a + 1..n {
            if forced == 2 && b != 1 {
                break;
            }
            join(s, base, c, j, items[a], items[b], plugs, next, total);
        }
    }
}

/// Joins items `a` and `b` (in `items` order: arrivals, pendants, leavings)
/// at the node at position `j`.
#[allow(clippy::too_many_arguments)]
#[inline]
fn join(
    s: u64,
    base: u64,
    c: u128,
    j: usize,
    a: Item,
    b: Item,
    plugs: usize,
    next: &mut Table,
    total: &mut u128,
) {
    // The path is complete: nothing else may be under way.
    let mut finish = |ta: u8, tb: u8| {
        if !any_active(base, plugs) {
            *total = total.saturating_add(c.saturating_mul(weight(ta, tb)));
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
                add(next, set(base, m, x), c);
            }
            (false, true) => {
                let m = partner(s, px, x, plugs);
                add(next, set(base, m, y), c);
            }
            (false, false) => match (x, y) {
                // The two ends of one piece: a cycle.
                (OPEN, CLOSE) => {}
                (CLOSE, OPEN) => add(next, base, c),
                (OPEN, OPEN) => {
                    let m = partner(s, py, y, plugs);
                    add(next, set(base, m, OPEN), c);
                }
                _ => {
                    let m = partner(s, px, x, plugs);
                    add(next, set(base, m, CLOSE), c);
                }
            },
        },
        (Item::In(x, px), Item::Pend(t, e)) => {
            if is_single(x) {
                finish(tag_of(x), t);
            } else {
                let m = partner(s, px, x, plugs);
                let st = used(set(base, m, single(t)), e);
                if singles_ok(st, plugs) {
                    add(next, st, c);
                }
            }
        }
        (Item::In(x, _), Item::Out(po)) => add(next, set(base, po, x), c),
        (Item::Pend(ta, _), Item::Pend(tb, _)) => finish(ta, tb),
        (Item::Pend(t, e), Item::Out(po)) => {
            // Half an edge and the whole of it exclude each other.
            if (e == 2 && po == j) || (e == 3 && po == j + 1) {
                return;
            }
            let st = set(used(base, e), po, single(t));
            if singles_ok(st, plugs) {
                add(next, st, c);
            }
        }
        (Item::Out(_), Item::Out(_)) => add(next, set(set(base, j, OPEN), j + 1, CLOSE), c),
        // `items` order never puts a later kind first.
        _ => unreachable!("items out of order"),
    }
}

/// Counts the solutions of a bare plan exactly, or says `None` when the
/// plan is not supported (symmetry, pillar, anything but lines, starts,
/// ends and gaps, a line longer than 20 nodes on both sides, more than
/// [`MAX_PAIRS`] pairs in an undirected puzzle) or the state table outgrew
/// [`MAX_STATES`]: then the caller should run the search.
///
/// `limit` and the answer follow [`count_plan`](super::count_plan): when
/// the total reaches `limit`, the answer is `limit` and
/// [`Status::Stopped`]; a total above `u64::MAX` is answered as `u64::MAX`
/// (or `limit`) and `Stopped`. When the deadline passes, a cancel flag is
/// raised or the work (states expanded, counted like the search's
/// [`max_nodes`](Limits::max_nodes)) exceeds its budget, the answer is the
/// solutions completed so far (a lower bound) and `Stopped`: no fallback,
/// since the limits have run out for the search too.
pub fn frontier_count(plan: &Plan, limit: Option<u64>, limits: &Limits) -> Option<Count> {
    let b = &plan.rules.board;
    if !plan.bare || plan.symmetric || b.pillar {
        return None;
    }
    let g = Grid::new(plan);
    if g.inner + 1 > MAX_PLUGS {
        return None;
    }
    let n = b.len();
    let terminal = |s: usize| plan.enterable[s] && (b.start[s] || b.end[s]);
    // Zero-length solutions: a start that is also an end.
    let zero = (0..n)
        .filter(|&s| plan.enterable[s] && b.start[s] && b.end[s])
        .count() as u128;
    // The search stops at the solution that reaches the limit (so a limit
    // of 0 still lets it prove there is none); without a limit, a total
    // beyond `u64::MAX` is answered as saturated as soon as it is reached.
    let stop_at = limit.map_or(u64::MAX as u128 + 1, |l| l.max(1) as u128);
    let mut budget = Budget { limits, work: 0 };
    let mut total = zero;
    let mut stopped = total >= stop_at;
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
            return None;
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
            match pass(&cs, &g, stop_at.saturating_sub(total), &mut budget) {
                Pass::Done(k) => total = total.saturating_add(k),
                Pass::Stopped(k) => {
                    total = total.saturating_add(k);
                    stopped = true;
                    break;
                }
                Pass::TooBig => return None,
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
        match pass(&cs, &g, stop_at - total, &mut budget) {
            Pass::Done(k) => total = total.saturating_add(k),
            Pass::Stopped(k) => {
                total = total.saturating_add(k);
                stopped = true;
            }
            Pass::TooBig => return None,
        }
    }
    // Reaching the limit, or beyond u64::MAX: not exhaustive.
    let capped = total >= stop_at;
    let mut count = total.min(u64::MAX as u128) as u64;
    if let Some(l) = limit {
        count = count.min(l);
    }
    Some(Count {
        count,
        status: if stopped || capped {
            Status::Stopped
        } else {
            Status::Complete
        },
    })
}

//! Parallel tempering (replica-exchange annealing): a local search over
//! whole paths that finds solutions of some heavily marked panels long
//! before the exact search reaches them. It proves nothing: it only ever
//! adds solutions, each one checked by the validator.
//!
//! Elimination marks blunt the exact search's pruning: a region holding
//! one may break a rule, so little is settled before the line seals it,
//! and the cases of [`super::mark_cases`] are too many with five or six marks.
//! But such panels tend to have many solutions, and the validator's count
//! of failing elements is a good guide towards one: a path that fails two
//! symbols is usually a few detours away from a path that fails none.
//!
//! [`Anneal`] keeps `REPLICAS` legal paths (replicas), each from a start
//! to an end and each at a temperature of its own, from `COLDEST` to
//! `HOTTEST`. A replica is changed at random: mostly a short piece is
//! rerouted (nine times in ten one that passes near a failing element),
//! now and then the path's start or end moves to another one. A change
//! is kept when the path costs no more than before, or, with
//! probability `exp(-rise / temperature)`, when it costs more (the
//! Metropolis rule). The replicas take turns of `SWEEP` moves; after
//! each round, neighbouring temperatures offer to swap their paths
//! (accepted by the rule that keeps each temperature's share of paths
//! fair, `exp((1/t_cold - 1/t_hot) * (cost_cold - cost_hot))`), so a cold
//! replica stuck where every detour costs more is handed a path a hot
//! replica found elsewhere, instead of being reheated or restarted.
//!
//! A path's cost is its count of failing elements, plus half an element
//! for each face of area gap ([`crate::rules::memo::area_gap`]): over its
//! failing regions that hold polyominoes, by how many faces the pieces'
//! net area misses the region's area, at best over the erasures the
//! region's marks allow. A fit is all-or-nothing, so the count alone
//! gives no slope: a region whose pieces do not tile it fails the same
//! pieces whether it is one face off or twenty, and a walk towards the
//! right area is blind. The gap is counted in failing regions only, so a
//! path costs zero exactly when it fails nothing; the validator still
//! judges every path reported.
//!
//! Replica exchange solves such panels from far more seeds than one run
//! of simulated annealing with the same moves and the same judging; the
//! number of replicas, the sweep and the temperatures sit where the
//! choice is within the seeds' noise (the lab binary `anneal`; see
//! docs/benchmarks.md).
//!
//! The solver runs it by turns beside its lanes on marked panels
//! ([`super::lanes::Turns::run_with_cases_visit`]). Judging a path is
//! mostly the validator's flood of the regions, less where [`RegionMemo`]
//! knows them. The runs are repeatable: the
//! random numbers come from a seed, and the work is counted in steps, not
//! time (the lab binary `anneal` runs it alone).
//!
//! Paths with two lines (symmetry) are not searched here: a detour of one
//! line moves the other, and most detours would collide. Nor are
//! undirected panels, whose solutions the exact search reports from one
//! end only.

use super::answer::Answer;
use super::limits::Limits;
use super::plan::Plan;
use crate::model::Direction;
use crate::path::Line;
use crate::rules::board::NONE;
use crate::rules::{RegionMemo, Workspace};

/// A way for the path to begin: the start slot, the first node, and the
/// move from a start on an edge to that node.
#[derive(Copy, Clone, Debug)]
struct Begin {
    slot: u32,
    node: u32,
    head: Option<Direction>,
}

/// A way for the path to finish: the end slot, the last node, and the
/// move from that node onto an end on an edge.
#[derive(Copy, Clone, Debug)]
struct Finish {
    slot: u32,
    node: u32,
    tail: Option<Direction>,
}

/// A step from a node: the move, the edge slot and the node beyond.
#[derive(Copy, Clone, Debug)]
struct Step {
    dir: Direction,
    edge: u32,
    node: u32,
}

/// Steps a detour may take before the search gives it up.
const DETOUR_TRIES: u32 = 2_000;

/// The longest piece of the path a move reroutes, in nodes.
const MAX_SPAN: usize = 10;

/// How many nodes longer than the piece it replaces a detour may be, at
/// most.
const MAX_STRETCH: usize = 12;

/// How many replicas the search keeps, each at a temperature of its own.
const REPLICAS: usize = 6;

/// The coldest replica's temperature, in failing elements.
const COLDEST: f64 = 0.2;

/// The hottest replica's temperature; those between are spaced
/// geometrically.
const HOTTEST: f64 = 2.0;

/// A failing element's share of a path's cost ([`Anneal::cost_of`]);
/// temperatures are in failing elements.
const COST_UNIT: u64 = 4;

/// A face of area gap's share of a path's cost, in the units where a
/// failing element is [`COST_UNIT`].
const GAP_COST: u64 = 2;

/// Moves each replica makes in a sweep, between two rounds of exchanges.
const SWEEP: u64 = 200;

// The ladder's spacing needs two rungs.
const _: () = assert!(REPLICAS >= 2);

/// The share of moves that reroute a piece near a failing element rather
/// than anywhere.
const FOCUS: f64 = 0.9;

/// The share of moves that move an end of the path, when it has more
/// than one way to begin or finish.
const END_MOVES: f64 = 0.05;

/// How near, in slots (either axis), a piece must pass to a failing
/// element to count as near it.
const RADIUS: isize = 4;

/// Marks slot `s` drawn in `lines` and lists it in `drawn`; false (and
/// nothing changed) when it is drawn already.
fn put(lines: &mut [Line], drawn: &mut Vec<u32>, s: u32) -> bool {
    if lines[s as usize] != Line::None {
        return false;
    }
    lines[s as usize] = Line::Black;
    drawn.push(s);
    true
}

/// One replica: a path, its verdict and its temperature.
#[derive(Clone, Debug)]
struct Replica {
    /// The path's nodes, first to last.
    path: Vec<u32>,
    begin: Begin,
    finish: Finish,
    /// Edge slots no step may take: a start or end on an edge.
    banned: [u32; 2],
    /// The path's cost ([`Anneal::cost_of`]), in [`COST_UNIT`]s a failing
    /// element.
    cost: u64,
    /// The path's failing slots.
    fails: Vec<u32>,
    temp: f64,
    /// False until the replica has a path, and again once it reached a
    /// path that fails nothing (a solution reported, or one the full
    /// validation turned down), so that it starts afresh.
    started: bool,
}

/// The local search's state: the tables of the panel's node graph, the
/// replica being moved and the others.
pub struct Anneal<'p> {
    plan: &'p Plan,
    steps: Vec<Vec<Step>>,
    begins: Vec<Begin>,
    finishes: Vec<Finish>,
    rng: u64,
    /// The replica being moved.
    cur: Replica,
    /// The replicas, coldest first; while `cur` is out on its sweep, its
    /// rung holds a spare (an unstarted replica), which it swaps back.
    ladder: Vec<Replica>,
    /// The rung of the ladder `cur` came from.
    at: usize,
    /// Moves `cur` has made in its sweep.
    swept: u64,
    // Scratch.
    lines: Vec<Line>,
    /// The slots drawn in `lines`, in the path's order.
    drawn: Vec<u32>,
    /// The nodes of the path drawn.
    drawn_path: Vec<u32>,
    /// The begin and finish slots it was drawn with (`None`: nothing is
    /// drawn).
    drawn_ends: Option<(u32, u32)>,
    /// Scratch: the slots of a piece drawn over the path drawn.
    piece_slots: Vec<u32>,
    /// Paths drawn over the one drawn before (not afresh).
    drawn_over: u64,
    stamp: Vec<u32>,
    gen: u32,
    piece: Vec<u32>,
    trial: Vec<u32>,
    /// The failing slots of the last path judged.
    trial_fails: Vec<u32>,
    near: Vec<usize>,
    ws: Workspace,
    /// The failing elements of regions judged before.
    memo: RegionMemo,
    /// Moves tried so far.
    pub moves: u64,
    /// Steps of the random walks and shortest-path searches so far.
    pub walked: u64,
    /// Paths the validator judged so far.
    pub judged: u64,
    /// Of those, the paths turned down before they were judged whole:
    /// their cost so far was already more than the Metropolis rule's
    /// draw lets through.
    pub cut_short: u64,
    /// Judge every path whole, for comparisons in tests.
    judge_whole: bool,
    /// Exchanges between replicas tried, and made.
    pub exchanges: (u64, u64),
}

/// The work of judging one path, in search nodes, besides the regions
/// judged afresh: drawing it, splitting it into regions and looking them
/// up in the memo (about ten times a node of the exact search).
pub const JUDGE_WORK: u64 = 9;

/// The work of judging one region the memo does not know, in search
/// nodes, besides its polyomino fits' steps.
pub const FRESH_REGION_WORK: u64 = 6;

/// The work of a move besides judging, in search nodes.
pub const MOVE_WORK: u64 = 2;

/// Steps of a random walk (or nodes of a shortest-path search) that count
/// as one search node of work.
pub const WALK_STEPS_PER_NODE: u64 = 4;

/// The most steps one polyomino fit of the validator takes for the local
/// search before it gives up (most take a few hundred).
pub const FIT_STEP_CAP: u64 = 200_000;

/// How many moves go between looks at the limits.
const CHECK_EVERY: u64 = 256;

impl<'p> Anneal<'p> {
    /// A local search on `plan` seeded with `seed`, or `None` for panels it
    /// does not handle: symmetry, undirected panels (where a line and its
    /// reversal are one solution, reported from one end only), or no start
    /// and end it can join.
    pub fn new(plan: &'p Plan, seed: u64) -> Option<Anneal<'p>> {
        if plan.symmetric || plan.undirected {
            return None;
        }
        let b = &plan.rules.board;
        let n = plan.nodes();
        let ok = |s: u32| s != NONE && plan.enterable[s as usize];
        let mut steps = vec![Vec::new(); n];
        for (v, out) in steps.iter_mut().enumerate() {
            let s = plan.slot_of_node[v];
            if !ok(s) {
                continue;
            }
            for dir in Direction::ALL {
                let e = b.nbr[s as usize][dir as usize];
                if !ok(e) {
                    continue;
                }
                let t = b.nbr[e as usize][dir as usize];
                if !ok(t) || plan.node_of[t as usize] == NONE {
                    continue;
                }
                out.push(Step {
                    dir,
                    edge: e,
                    node: plan.node_of[t as usize],
                });
            }
        }
        // Ways to begin and finish: on a node, or on an edge and its nodes.
        let ends_of = |s: u32| -> Vec<(u32, Option<Direction>)> {
            if plan.node_of[s as usize] != NONE {
                return vec![(plan.node_of[s as usize], None)];
            }
            Direction::ALL
                .into_iter()
                .filter_map(|d| {
                    let t = b.nbr[s as usize][d as usize];
                    (ok(t) && plan.node_of[t as usize] != NONE)
                        .then(|| (plan.node_of[t as usize], Some(d)))
                })
                .collect()
        };
        let mut begins = Vec::new();
        for &s in &plan.starts {
            for (node, head) in ends_of(s) {
                begins.push(Begin {
                    slot: s,
                    node,
                    head,
                });
            }
        }
        let mut finishes = Vec::new();
        for s in 0..b.len() as u32 {
            if !b.end[s as usize] || !ok(s) {
                continue;
            }
            for (node, d) in ends_of(s) {
                finishes.push(Finish {
                    slot: s,
                    node,
                    tail: d.map(Direction::opposite),
                });
            }
        }
        if begins.is_empty() || finishes.is_empty() {
            return None;
        }
        let (begin, finish) = (begins[0], finishes[0]);
        let replica = |temp: f64| Replica {
            path: Vec::new(),
            begin,
            finish,
            banned: [NONE; 2],
            cost: u64::MAX,
            fails: Vec::new(),
            temp,
            started: false,
        };
        let ratio = HOTTEST / COLDEST;
        let ladder = (0..REPLICAS)
            .map(|i| replica(COLDEST * ratio.powf(i as f64 / (REPLICAS - 1) as f64)))
            .collect();
        Some(Anneal {
            plan,
            steps,
            begins,
            finishes,
            rng: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            // The coldest replica, out on its sweep: rung 0 is its spare.
            cur: replica(COLDEST),
            ladder,
            at: 0,
            swept: 0,
            lines: vec![Line::None; b.len()],
            drawn: Vec::new(),
            drawn_path: Vec::new(),
            drawn_ends: None,
            piece_slots: Vec::new(),
            drawn_over: 0,
            stamp: vec![0; b.len().max(n)],
            gen: 0,
            piece: Vec::new(),
            trial: Vec::new(),
            trial_fails: Vec::new(),
            near: Vec::new(),
            ws: Workspace::default(),
            memo: RegionMemo::default(),
            moves: 0,
            walked: 0,
            judged: 0,
            cut_short: 0,
            judge_whole: false,
            exchanges: (0, 0),
        })
    }

    fn next(&mut self) -> u64 {
        self.rng = Self::after(self.rng);
        self.rng
    }

    /// The generator's state after `x` (xorshift64).
    fn after(mut x: u64) -> u64 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    fn unit(&mut self) -> f64 {
        Self::unit_of(self.next())
    }

    /// The number [`Anneal::unit`] would draw next, without drawing it.
    fn next_unit(&self) -> f64 {
        Self::unit_of(Self::after(self.rng))
    }

    /// A draw as a number in `[0, 1)`.
    fn unit_of(x: u64) -> f64 {
        (x >> 11) as f64 / (1u64 << 53) as f64
    }

    fn fresh_stamp(&mut self) -> u32 {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.gen = 1;
        }
        self.gen
    }

    /// A random self-avoiding walk into `self.piece` from node `a` to node
    /// `b` of at most `max` steps, through nodes not stamped `g`.
    fn detour(&mut self, a: u32, b: u32, max: usize, g: u32) -> bool {
        self.piece.clear();
        self.piece.push(a);
        self.stamp[a as usize] = g;
        let mut tries = 0;
        let found = self.walk(b, max, g, &mut tries);
        if !found {
            self.stamp[a as usize] = 0;
        }
        found
    }

    fn walk(&mut self, b: u32, max: usize, g: u32, tries: &mut u32) -> bool {
        *tries += 1;
        self.walked += 1;
        if *tries > DETOUR_TRIES {
            return false;
        }
        let cur = *self.piece.last().expect("the walk has begun");
        let left = max + 1 - self.piece.len();
        // (Not on pillars, where the wrap makes the distance no bound.)
        if !self.plan.rules.board.pillar && self.distance(cur, b) > left {
            return false;
        }
        let cur = cur as usize;
        let k = self.steps[cur].len();
        let mut order = [0usize, 1, 2, 3];
        for i in (1..k).rev() {
            let j = self.below(i + 1);
            order.swap(i, j);
        }
        for &i in &order[..k] {
            let Step { node: t, edge, .. } = self.steps[cur][i];
            if self.cur.banned.contains(&edge) {
                continue;
            }
            if t == b {
                self.piece.push(t);
                return true;
            }
            if self.stamp[t as usize] == g || left <= 1 {
                continue;
            }
            self.stamp[t as usize] = g;
            self.piece.push(t);
            if self.walk(b, max, g, tries) {
                return true;
            }
            self.piece.pop();
            self.stamp[t as usize] = 0;
        }
        false
    }

    /// The Manhattan distance between nodes `u` and `v`, in steps.
    fn distance(&self, u: u32, v: u32) -> usize {
        let nc = self.plan.ncols;
        let (u, v) = (u as usize, v as usize);
        (u % nc).abs_diff(v % nc) + (u / nc).abs_diff(v / nc)
    }

    /// A shortest path into `self.piece` from node `a` to node `b`.
    fn shortest(&mut self, a: u32, b: u32) -> bool {
        let n = self.steps.len();
        let mut from = vec![NONE; n];
        let mut queue = std::collections::VecDeque::from([a]);
        from[a as usize] = a;
        while let Some(u) = queue.pop_front() {
            self.walked += 1;
            if u == b {
                break;
            }
            for st in &self.steps[u as usize] {
                if from[st.node as usize] == NONE && !self.cur.banned.contains(&st.edge) {
                    from[st.node as usize] = u;
                    queue.push_back(st.node);
                }
            }
        }
        if from[b as usize] == NONE {
            return false;
        }
        self.piece.clear();
        let mut v = b;
        while v != a {
            self.piece.push(v);
            v = from[v as usize];
        }
        self.piece.push(a);
        self.piece.reverse();
        true
    }

    /// The step from node `u` to node `v`.
    fn step(&self, u: u32, v: u32) -> Option<Step> {
        self.steps[u as usize].iter().copied().find(|s| s.node == v)
    }

    /// Draws `nodes` with the current begin and finish into `self.lines`
    /// and weighs it: [`COST_UNIT`] per failing element (their slots go
    /// to `trial_fails`) and [`GAP_COST`] per face of the memo's area gap
    /// (zero when nothing fails); `None` when the path is not legal
    /// (it passes a slot twice, or two nodes in a row are not neighbours).
    fn cost_of(&mut self, nodes: &[u32]) -> Option<u64> {
        self.cost_unless(nodes, |_| false)
            .map(|c| c.expect("judged whole"))
    }

    /// [`Anneal::cost_of`], given up (`Some(None)`) as soon as `over`
    /// holds for the cost so far: the regions are judged one by one, and
    /// the cost so far only grows as they are added (a failing element
    /// and a face of gap each weigh more than zero), so the whole path
    /// costs at least as much.
    fn cost_unless(&mut self, nodes: &[u32], over: impl Fn(u64) -> bool) -> Option<Option<u64>> {
        if !self.draw(nodes) {
            return None;
        }
        let (begin, finish) = (self.cur.begin, self.cur.finish);
        self.judged += 1;
        let weigh = |fails: usize, gap: u32| fails as u64 * COST_UNIT + u64::from(gap) * GAP_COST;
        let whole = self.plan.rules.failures_remembered_until(
            &self.lines,
            begin.slot as usize,
            finish.slot as usize,
            &mut self.ws,
            &mut self.memo,
            &mut self.trial_fails,
            |fails, gap| over(weigh(fails, gap)),
        );
        Some(whole.then(|| weigh(self.trial_fails.len(), self.memo.gap)))
    }

    /// Draws `nodes` with the current begin and finish into `self.lines`;
    /// false (and nothing drawn) when the path is not legal. A path with
    /// the same begin and finish as the one drawn is drawn over it: only
    /// the slots between the nodes the two paths share at their start and
    /// at their end (their longest common first and last runs of nodes)
    /// change. Most moves reroute a short piece, so that is a few slots
    /// where the whole path is a hundred or more.
    fn draw(&mut self, nodes: &[u32]) -> bool {
        let (begin, finish) = (self.cur.begin, self.cur.finish);
        // (A path of one node, begun and finished there, is drawn whole.)
        let same_ends = self.drawn_path.first() == nodes.first()
            && self.drawn_path.last() == nodes.last()
            && self.drawn_path.len().min(nodes.len()) >= 2
            && self.drawn_ends == Some((begin.slot, finish.slot));
        if !same_ends {
            return self.draw_whole(nodes);
        }
        // Slot `off + 2k` of `drawn` is node `k`, `off + 2k + 1` the edge
        // from node `k` on.
        let off = usize::from(begin.head.is_some());
        let (lo, ln) = (self.drawn_path.len(), nodes.len());
        let most = lo.min(ln);
        let p = self
            .drawn_path
            .iter()
            .zip(nodes)
            .take(most - 1)
            .take_while(|(a, b)| a == b)
            .count();
        let q = self.drawn_path[p..]
            .iter()
            .rev()
            .zip(nodes[p..].iter().rev())
            .take(most - p)
            .take_while(|(a, b)| a == b)
            .count();
        // The first and last nodes match, so 1 <= p and 1 <= q (the prefix
        // stops short of the last node, so that a path drawn again is its
        // last edge drawn again), and the slots from the edge into node `p`
        // to the edge out of node `len - q - 1` are the middle's edges and
        // nodes alone.
        debug_assert!(p >= 1 && q >= 1 && p + q <= most);
        let from = off + 2 * p - 1;
        let old_to = off + 2 * (lo - q);
        for &s in &self.drawn[from..old_to] {
            self.lines[s as usize] = Line::None;
        }
        let mut middle = std::mem::take(&mut self.piece_slots);
        middle.clear();
        let mut legal = true;
        for k in p - 1..ln - q {
            let Some(st) = self.step(nodes[k], nodes[k + 1]) else {
                legal = false;
                break;
            };
            legal = put(&mut self.lines, &mut middle, st.edge)
                && (k + 1 == ln - q
                    || put(
                        &mut self.lines,
                        &mut middle,
                        self.plan.slot_of_node[nodes[k + 1] as usize],
                    ));
            if !legal {
                break;
            }
        }
        if !legal {
            // Nothing stays drawn: the next path is drawn whole. (The
            // erased middle of `drawn` is erased again: no matter.)
            for &s in &middle {
                self.lines[s as usize] = Line::None;
            }
            self.piece_slots = middle;
            self.erase_drawn();
            return false;
        }
        self.drawn_over += 1;
        self.drawn.splice(from..old_to, middle.iter().copied());
        self.drawn_path
            .splice(p..lo - q, nodes[p..ln - q].iter().copied());
        self.piece_slots = middle;
        debug_assert_eq!(self.drawn_path, nodes);
        true
    }

    /// Erases the path drawn: nothing is drawn after.
    fn erase_drawn(&mut self) {
        for &s in &self.drawn {
            self.lines[s as usize] = Line::None;
        }
        self.drawn.clear();
        self.drawn_path.clear();
        self.drawn_ends = None;
    }

    /// Draws `nodes` afresh (see [`Anneal::draw`]).
    fn draw_whole(&mut self, nodes: &[u32]) -> bool {
        self.erase_drawn();
        let (begin, finish) = (self.cur.begin, self.cur.finish);
        let mut legal = put(&mut self.lines, &mut self.drawn, begin.slot);
        let first = self.plan.slot_of_node[nodes[0] as usize];
        if begin.head.is_some() {
            legal &= put(&mut self.lines, &mut self.drawn, first);
        }
        for w in nodes.windows(2) {
            let Some(st) = self.step(w[0], w[1]) else {
                legal = false;
                break;
            };
            let t = self.plan.slot_of_node[w[1] as usize];
            legal &= put(&mut self.lines, &mut self.drawn, st.edge);
            legal &= put(&mut self.lines, &mut self.drawn, t);
        }
        if finish.tail.is_some() {
            legal &= put(&mut self.lines, &mut self.drawn, finish.slot);
        }
        if !legal {
            self.erase_drawn();
            return false;
        }
        self.drawn_path.extend_from_slice(nodes);
        self.drawn_ends = Some((begin.slot, finish.slot));
        true
    }

    /// A new run: a random begin and finish and a random path between them.
    fn restart(&mut self) -> bool {
        let (i, j) = (
            self.below(self.begins.len()),
            self.below(self.finishes.len()),
        );
        self.cur.begin = self.begins[i];
        self.cur.finish = self.finishes[j];
        if self.cur.begin.node == self.cur.finish.node && self.cur.begin.head.is_some() {
            return false;
        }
        self.cur.banned = self.banned_edges();
        let g = self.fresh_stamp();
        let (a, b) = (self.cur.begin.node, self.cur.finish.node);
        let max = self.plan.nodes();
        if a == b {
            self.piece.clear();
            self.piece.push(a);
        } else if !self.detour(a, b, max, g) && !self.shortest(a, b) {
            return false;
        }
        let nodes = std::mem::take(&mut self.piece);
        let cost = self.cost_of(&nodes);
        self.piece = nodes;
        let Some(cost) = cost else {
            return false;
        };
        std::mem::swap(&mut self.cur.path, &mut self.piece);
        std::mem::swap(&mut self.cur.fails, &mut self.trial_fails);
        self.cur.cost = cost;
        self.cur.started = true;
        true
    }

    /// The memo of region verdicts (its hit and miss counts).
    pub fn memo(&self) -> &RegionMemo {
        &self.memo
    }

    /// The work done so far, in search nodes ([`JUDGE_WORK`],
    /// [`FRESH_REGION_WORK`], [`MOVE_WORK`], [`WALK_STEPS_PER_NODE`], and
    /// the polyomino fits' steps, as the search's budgets count them): what
    /// the solver weighs against its other searches.
    pub fn work(&self) -> u64 {
        self.judged * JUDGE_WORK
            + self.memo.misses * FRESH_REGION_WORK
            + self.moves * MOVE_WORK
            + self.walked / WALK_STEPS_PER_NODE
            + self.ws.fit_steps()
    }

    /// Lets the validator's polyomino fits give up on `limits` (its
    /// deadline, cancel and stop flags) and after [`FIT_STEP_CAP`] steps
    /// each; an answer judged by a fit that gave up is not reported.
    pub fn set_limits(&mut self, limits: &Limits) {
        self.ws.set_fit_limits(limits.deadline, limits.flags());
        self.ws.set_fit_step_cap(Some(FIT_STEP_CAP));
    }

    /// Runs until [`Anneal::work`] reaches `work` or `limits` stop it; the
    /// first solution found, if any, as the exact search reports one
    /// (start and end slots, moves).
    pub fn run_until(&mut self, work: u64, limits: &Limits) -> Option<Answer> {
        while self.work() < work {
            if limits.expired() {
                return None;
            }
            if let Some(answer) = self.run(CHECK_EVERY) {
                return Some(answer);
            }
        }
        None
    }

    /// Runs `budget` moves; the first solution found, if any, as the
    /// exact search reports one (start and end slots, moves).
    pub fn run(&mut self, budget: u64) -> Option<Answer> {
        let stop = self.moves.saturating_add(budget);
        while self.moves < stop {
            if self.swept == SWEEP {
                self.next_replica();
            }
            self.moves += 1;
            self.swept += 1;
            let kept = if self.cur.started {
                self.try_move()
            } else {
                self.restart()
            };
            if kept && self.cur.cost == 0 {
                if let Some(a) = self.answer() {
                    return Some(a);
                }
            }
        }
        None
    }

    /// Ends the current replica's sweep and loads the next; after the
    /// hottest, exchanges paths between neighbouring temperatures.
    fn next_replica(&mut self) {
        std::mem::swap(&mut self.cur, &mut self.ladder[self.at]);
        self.at += 1;
        if self.at == self.ladder.len() {
            self.at = 0;
            self.exchange();
        }
        std::mem::swap(&mut self.cur, &mut self.ladder[self.at]);
        self.swept = 0;
    }

    /// Offers each pair of neighbouring replicas, hottest first, to swap
    /// their paths: always taken when the colder one gains, else with
    /// probability `exp(-(1/t_cold - 1/t_hot) * (cost_cold_after -
    /// cost_cold_before))`, which keeps each temperature's share of paths
    /// as the Metropolis rule would.
    fn exchange(&mut self) {
        for i in (0..self.ladder.len() - 1).rev() {
            let (cold, hot) = (&self.ladder[i], &self.ladder[i + 1]);
            if !cold.started || !hot.started {
                continue;
            }
            let gain = (cold.cost as f64 - hot.cost as f64) / COST_UNIT as f64
                * (1.0 / cold.temp - 1.0 / hot.temp);
            self.exchanges.0 += 1;
            if gain >= 0.0 || self.unit() < gain.exp() {
                self.exchanges.1 += 1;
                let (lo, hi) = self.ladder.split_at_mut(i + 1);
                std::mem::swap(&mut lo[i], &mut hi[0]);
                std::mem::swap(&mut lo[i].temp, &mut hi[0].temp);
            }
        }
    }

    /// One move: reroute a random piece of the path, or (now and then,
    /// with more than one way to begin or finish) move one of its ends;
    /// true when it was kept.
    fn try_move(&mut self) -> bool {
        let ends = self.begins.len() + self.finishes.len() > 2;
        if ends && (self.cur.path.len() < 2 || self.unit() < END_MOVES) {
            return self.try_end_move();
        }
        let len = self.cur.path.len();
        if len < 2 {
            return false;
        }
        let span = 1 + self.below(MAX_SPAN.min(len - 1));
        let i = if !self.cur.fails.is_empty() && self.unit() < FOCUS {
            self.near_fail(span)
        } else {
            self.below(len - span)
        };
        let j = i + span;
        let g = self.fresh_stamp();
        for (k, &v) in self.cur.path.iter().enumerate() {
            if k < i || k > j {
                self.stamp[v as usize] = g;
            }
        }
        let max = span + 2 + self.below(MAX_STRETCH);
        let (a, b) = (self.cur.path[i], self.cur.path[j]);
        if !self.detour(a, b, max, g) {
            return false;
        }
        let mut trial = std::mem::take(&mut self.trial);
        trial.clear();
        trial.extend_from_slice(&self.cur.path[..i]);
        trial.extend_from_slice(&self.piece);
        trial.extend_from_slice(&self.cur.path[j + 1..]);
        let kept = self.judge(&mut trial);
        self.trial = trial;
        kept
    }

    /// Moves the path's start or end to another way to begin or finish:
    /// the path is cut a few nodes from that end and joined to the new
    /// one by a random walk; true when it was kept.
    fn try_end_move(&mut self) -> bool {
        let len = self.cur.path.len();
        let at_finish = self.begins.len() == 1 || (self.finishes.len() > 1 && self.next() & 1 == 0);
        let (old_begin, old_finish, old_banned) =
            (self.cur.begin, self.cur.finish, self.cur.banned);
        let cut = self.below(MAX_SPAN.min(len));
        let g = self.fresh_stamp();
        let (from, to);
        if at_finish {
            let k = self.below(self.finishes.len());
            self.cur.finish = self.finishes[k];
            let keep = len - 1 - cut;
            for &v in &self.cur.path[..keep] {
                self.stamp[v as usize] = g;
            }
            (from, to) = (self.cur.path[keep], self.cur.finish.node);
        } else {
            let k = self.below(self.begins.len());
            self.cur.begin = self.begins[k];
            for &v in &self.cur.path[cut + 1..] {
                self.stamp[v as usize] = g;
            }
            (from, to) = (self.cur.begin.node, self.cur.path[cut]);
        }
        self.cur.banned = self.banned_edges();
        let max = self.distance(from, to) + cut + 2 + self.below(MAX_STRETCH);
        let joined = if from == to {
            self.piece.clear();
            self.piece.push(from);
            true
        } else {
            let free = |v: u32| self.stamp[v as usize] != g;
            free(from) && free(to) && self.detour(from, to, max, g)
        };
        let mut kept = false;
        if joined {
            let mut trial = std::mem::take(&mut self.trial);
            trial.clear();
            if at_finish {
                trial.extend_from_slice(&self.cur.path[..len - 1 - cut]);
                trial.extend_from_slice(&self.piece);
            } else {
                trial.extend_from_slice(&self.piece);
                trial.extend_from_slice(&self.cur.path[cut + 1..]);
            }
            kept = self.judge(&mut trial);
            self.trial = trial;
        }
        if !kept {
            (self.cur.begin, self.cur.finish, self.cur.banned) =
                (old_begin, old_finish, old_banned);
        }
        kept
    }

    /// The edge slots no step may take for the current begin and finish.
    fn banned_edges(&self) -> [u32; 2] {
        let edge_of = |slot: u32, on_edge: bool| if on_edge { slot } else { NONE };
        [
            edge_of(self.cur.begin.slot, self.cur.begin.head.is_some()),
            edge_of(self.cur.finish.slot, self.cur.finish.tail.is_some()),
        ]
    }

    /// Judges the path `trial` (with the current begin and finish) and
    /// keeps it by the Metropolis rule, swapping it into the current path;
    /// true when it was kept.
    ///
    /// The rule turns a path down when the next draw `u` is at least
    /// `exp(-rise / temp)`, that is when its cost rises by at least
    /// `-ln(u) * temp` failing elements. That draw is known before the
    /// path is judged ([`Anneal::next_unit`]), so judging stops once the
    /// cost so far has risen past that bound (with a margin for rounding,
    /// so that the rule below would turn the path down too): the path
    /// is turned down, and the draw is taken as the rule would take it.
    /// The moves and their outcomes are the same as when every path is
    /// judged whole; a path turned down early spares the judging of its
    /// remaining new regions, the costly part of a move.
    fn judge(&mut self, trial: &mut Vec<u32>) -> bool {
        let (now, temp) = (self.cur.cost, self.cur.temp);
        let bound = -self.next_unit().ln() * temp * COST_UNIT as f64;
        let whole = self.judge_whole;
        let over = |c: u64| !whole && c > now && (c - now) as f64 > bound * (1.0 + 1e-9) + 1e-9;
        let cost = match self.cost_unless(trial, over) {
            Some(None) => {
                self.cut_short += 1;
                self.unit();
                return false;
            }
            Some(Some(c)) => Some(c),
            None => None,
        };
        let kept = match cost {
            Some(c) if c <= self.cur.cost => true,
            Some(c) => {
                let rise = (c - self.cur.cost) as f64 / COST_UNIT as f64;
                let p = (-rise / self.cur.temp).exp();
                self.unit() < p
            }
            None => false,
        };
        if kept {
            std::mem::swap(&mut self.cur.path, trial);
            std::mem::swap(&mut self.cur.fails, &mut self.trial_fails);
            self.cur.cost = cost.expect("kept only when legal");
        }
        kept
    }

    /// A piece start, for a piece of `span` steps, whose piece passes near
    /// a failing element.
    fn near_fail(&mut self, span: usize) -> usize {
        let pick = self.below(self.cur.fails.len());
        let f = self.cur.fails[pick] as usize;
        let h = self.plan.rules.board.h;
        let (fx, fy) = ((f / h) as isize, (f % h) as isize);
        self.near.clear();
        let len = self.cur.path.len();
        for k in 0..len - span {
            let s = self.plan.slot_of_node[self.cur.path[k] as usize] as usize;
            let (x, y) = ((s / h) as isize, (s % h) as isize);
            if (x - fx).abs().max((y - fy).abs()) <= RADIUS {
                self.near.push(k);
            }
        }
        if self.near.is_empty() {
            return self.below(len - span);
        }
        let pick = self.below(self.near.len());
        let k = self.near[pick];
        k.saturating_sub(self.below(span + 1)).min(len - span - 1)
    }

    /// The moves of replica `r`'s path, from its begin to its finish.
    fn moves_of(&self, r: &Replica) -> Vec<Direction> {
        let mut moves = Vec::with_capacity(r.path.len() * 2 + 2);
        if let Some(d) = r.begin.head {
            moves.push(d);
        }
        for w in r.path.windows(2) {
            let d = self.step(w[0], w[1]).expect("a legal path").dir;
            moves.push(d);
            moves.push(d);
        }
        if let Some(d) = r.finish.tail {
            moves.push(d);
        }
        moves
    }

    /// The current path as an answer, if the validator accepts it.
    fn answer(&mut self) -> Option<Answer> {
        let nodes = std::mem::take(&mut self.cur.path);
        let cost = self.cost_of(&nodes);
        self.cur.path = nodes;
        let (begin, finish) = (self.cur.begin, self.cur.finish);
        self.ws.clear_fit_interrupted();
        let valid = cost.is_some()
            && self.plan.rules.is_valid(
                &self.lines,
                begin.slot as usize,
                finish.slot as usize,
                &mut self.ws,
            );
        // (A fit that gave up said "fits": no verdict. And a path of no
        // moves, at a start that is also an end, is left to the exact
        // search, which reports it as a solution of no moves.)
        let empty = self.cur.path.len() < 2 && begin.head.is_none() && finish.tail.is_none();
        if !valid || self.ws.fit_interrupted() || empty {
            self.cur.started = false;
            return None;
        }
        let moves = self.moves_of(&self.cur);
        // The replica goes on from this path: a caller that wants more
        // solutions (a count) finds them here. On heavily marked panels a
        // solution's detours are often solutions too, a few hundred moves
        // away, where a fresh path takes as long to reach a solution as the
        // first did (see docs/benchmarks.md). A path may be reported again;
        // callers tell solutions apart by their lines.
        Some((begin.slot as usize, finish.slot as usize, moves))
    }
}

#[cfg(test)]
mod tests;

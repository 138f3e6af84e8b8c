//! The walk itself: entering a node, exploring its moves in the search's
//! order, marking and unmarking the line's slots, the cheap tests at each
//! arrival, the runs over every start or from one branch, and the runs of
//! many branches in parallel ([`run_branches`]).

use super::*;

impl<'p, const N: usize> Search<'p, N> {
    /// Searches from every start in turn (going on from a resume point, if
    /// one is set).
    pub fn run_all(&mut self, visit: &mut impl FnMut(&Found) -> Go) {
        let n = self.plan.starts.len();
        let from = self.turn.resume.take();
        let k0 = from.as_ref().map_or(0, |r| r.k);
        if from.as_ref().is_some_and(|r| r.in_fit) {
            self.ws.set_fit_step_cap(None);
        }
        for k in k0..n {
            let s = self.plan.starts[(k + self.turn.first_start) % n.max(1)] as usize;
            self.turn.start_k = k;
            if k == k0 {
                if let Some(r) = &from {
                    self.turn.replay.clone_from(&r.moves);
                    self.turn.replay_to = r.moves.len();
                }
            }
            let go = self.run_from(s, &[], visit);
            self.turn.replay_to = 0;
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
        self.set_half_walls(start);
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
    pub(super) fn can_enter(&self, q: usize, is_start: bool) -> bool {
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
    pub(super) fn mark(&mut self, q: usize) {
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
    pub(super) fn cut(&mut self, s: usize) {
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
    pub(super) fn put_edge(&mut self, s: usize, open: bool) {
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
    pub(super) fn rim_update(&mut self, s: usize) {
        if self.fm.rim.is_some() {
            self.rim_refresh(s);
        }
    }

    /// [`Search::rim_update`] on a board with a rim.
    #[inline(never)]
    pub(super) fn rim_refresh(&mut self, s: usize) {
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
    pub(super) fn unmark(&mut self, q: usize) {
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
    pub(super) fn enter(&mut self, q: usize, visit: &mut impl FnMut(&Found) -> Go) -> Go {
        self.visited += 1;
        if let Some(trail) = &mut self.trail {
            let d = self.moves.len();
            if trail.len() <= d {
                trail.resize(d + 1, 0);
            }
            trail[d] = self.visited;
        }
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks & 1023 == 0
            && (self.limits.expired() || self.limits.max_nodes.is_some_and(|m| self.visited > m))
        {
            self.stopped = true;
            return false;
        }
        if self.turn.replay_to > 0 {
            // Nodes on the way back to a resume point were searched before;
            // the resume point itself is searched afresh whatever the
            // budget, so that every turn gets somewhere.
            if self.turn.replay_to == self.moves.len() {
                self.turn.replay_to = 0;
            }
        } else if (self.visited > self.turn.node_cap || self.ticks & 63 == 0) && self.over_budget()
        {
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

    pub(super) fn explore(&mut self, q: usize, visit: &mut impl FnMut(&Found) -> Go) -> Go {
        let plan = self.plan;
        let b = &plan.rules.board;
        let depth = self.moves.len();
        // On the way back to a resume point: its endpoint was judged.
        let replaying = self.turn.replay_to > depth;
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
            self.turn.replay_to = 0;
            return true;
        }
        let nbr = b.nbr[q];
        let allowed = plan.moves_at[q];
        let mut skip = replaying;
        for d in self.turn.order {
            let k = d as usize;
            let r = nbr[k];
            let open = allowed & (1 << k) != 0 && r != NONE && self.can_enter(r as usize, false);
            if skip {
                // Resuming: the moves before the replayed one were searched.
                if d != self.turn.replay[depth] {
                    continue;
                }
                skip = false;
                if !open {
                    // Cannot happen (the same state allowed it before);
                    // search the rest afresh rather than lose it.
                    debug_assert!(false, "a replayed move is closed");
                    self.turn.replay_to = 0;
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
    pub(super) fn arrival_ok(&mut self, h: usize) -> bool {
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
    pub(super) fn complete_locally(&self) -> bool {
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
    /// (see [`crate::solve::reverse`]), so only then is it validated.
    pub(super) fn reverse_is_solution(&mut self, q: usize) -> bool {
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
    pub(super) fn dot_colors_ok(&self) -> bool {
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
    pub(super) fn triangle_over(&self, f: usize) -> bool {
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

    /// The half walls of a line from `start` (and of its mirror with
    /// symmetry): a start on an edge that counts as no wall joins the
    /// faces beside it only at its corners.
    pub(super) fn set_half_walls(&mut self, start: usize) {
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
    }

    /// True when every slot of the open block around `h` is free.
    #[inline]
    pub(super) fn block_open(&self, h: usize, d: usize) -> bool {
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
    let fresh = || Search::<N>::new(plan, masks, limits);
    let branch = |s: &mut Search<'_, N>,
                  (k, (start, prefix)): (usize, &(usize, Vec<Direction>))| {
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
        let room = crate::stack::need(plan.rules.board.len(), N);
        let go = crate::stack::with_room(room, || {
            s.run_from(*start, prefix, &mut |f: &Found| visit(f))
        });
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
    };
    #[cfg(feature = "native")]
    branches.par_iter().enumerate().for_each_init(fresh, branch);
    // Without threads, one after another on this thread.
    #[cfg(not(feature = "native"))]
    {
        let mut s = fresh();
        for item in branches.iter().enumerate() {
            branch(&mut s, item);
        }
    }
    !unfinished.load(Ordering::Relaxed)
}

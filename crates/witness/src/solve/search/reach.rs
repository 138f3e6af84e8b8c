//! Where the line can still go: the reach floods from the head, narrowed
//! by peeling dead ends and dropping pockets ([`super::pockets`]), and the
//! tests that every node and edge the line must still cover is in reach.

use super::inspect;
use super::*;

impl<'p, const N: usize> Search<'p, N> {
    /// The nodes reachable from the head at node slot `h`, the head included.
    pub(super) fn reach(&self, h: usize) -> Bits<N> {
        self.reach_until(h, None).1
    }

    /// Floods from the head at `h`; with `stop`, returns early (true) as
    /// soon as a node of `stop` other than the head is reached.
    pub(super) fn reach_until(&self, h: usize, stop: Option<&Bits<N>>) -> (bool, Bits<N>) {
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
    pub(super) fn promising(&mut self, h: usize) -> bool {
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
            inspect::note(inspect::CUT_MUST);
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
                inspect::note(inspect::CUT_NARROW);
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
                inspect::note(inspect::CUT_ENDS);
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
            inspect::note(inspect::CUT_MARKS);
            return false;
        }
        if plan.local_prune && !self.local_ok(h, &reach, &main_reach) {
            inspect::note(inspect::CUT_LOCAL);
            return false;
        }
        if !self.must_nodes.is_empty() && !self.parity_ok(h, &reach) {
            inspect::note(inspect::CUT_PARITY);
            return false;
        }
        // Without squares, stars or pieces, what a sealed region could fail
        // (dots, triangles) the local checks have already seen.
        if !(plan.local_only || self.regions_ok(h, &reach, &dropped)) {
            inspect::note(inspect::CUT_REGIONS);
            return false;
        }
        if !pockets_seen && !must.is_empty() && self.pockets.is_some() {
            let prev = self.prev_node(h);
            if !self.pockets_ok(hv, prev, &main_reach, &must) {
                inspect::note(inspect::CUT_POCKETS);
                return false;
            }
            self.passed = (main_reach, hv as u32);
        }
        true
    }

    /// The pocket narrowing ([`Pockets::narrow`]) at head node `hv`, with
    /// the main line's `reach` and the nodes it `must` visit; kept, as
    /// the pocket test's verdicts are ([`Search::pockets_ok`]).
    pub(super) fn narrow(&mut self, hv: usize, reach: &mut Bits<N>, must: &Bits<N>) -> bool {
        let Some(pockets) = &mut self.pockets else {
            return true;
        };
        let key = (*reach, hv as u32, self.start as u32);
        let memo = self.visited >= self.plan.memo_after;
        if memo {
            if let Some(narrowed) = self.kept.narrowed.get(&key) {
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
            self.kept.narrowed.put(key, ok.then_some(*reach));
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
    pub(super) fn pockets_ok(
        &mut self,
        hv: usize,
        prev: u32,
        reach: &Bits<N>,
        must: &Bits<N>,
    ) -> bool {
        let Some(pockets) = &mut self.pockets else {
            return true;
        };
        // On the way back to a resume point the nodes passed before; with
        // the budget spent then, the test may not have run there.
        if self.turn.replay_to > self.moves.len() || pockets.follows(hv, prev, reach, &self.passed)
        {
            return true;
        }
        let key = (*reach, hv as u32, self.start as u32);
        let memo = self.visited >= self.plan.memo_after;
        if memo {
            if let Some(ok) = self.kept.pocket_verdicts.get(&key) {
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
            self.kept.pocket_verdicts.put(key, ok);
        }
        if !ok {
            pb.cuts += 1;
            // Search this branch all the same, to learn what a cut saves
            // (not near the end of a turn: a turn resumed inside the
            // branch would search it to the end).
            if pb.on
                && pb.probe.is_none()
                && pb.cuts.is_multiple_of(POCKET_PROBE_EVERY)
                && self.turn.node_cap.saturating_sub(self.visited) > 2 * POCKET_PROBE_CAP
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
    pub(super) fn prev_node(&self, h: usize) -> u32 {
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
    pub(super) fn with_mirrors(&self, x: &Bits<N>) -> Bits<N> {
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
    pub(super) fn peel(&self, hv: usize, mut reach: Bits<N>) -> Bits<N> {
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
    pub(super) fn edge_coverable(&self, e: usize, reach: &Bits<N>) -> bool {
        if !self.plan.enterable[e] {
            return false;
        }
        let [a, c] = self.plan.edge_nodes[e];
        let at = |v: u32| v != NONE && reach.get(v as usize);
        (at(a) && at(c)) || (self.plan.rules.board.end[e] && (at(a) || at(c)))
    }

    #[inline]
    pub(super) fn slot_coverable(&self, s: usize, reach: &Bits<N>) -> bool {
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
}

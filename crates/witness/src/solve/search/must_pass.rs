//! The nodes the line must pass: the grid's colour parity, the ways left
//! at each must-pass node (and the edges forced by nodes with exactly two
//! ways, which may close no ring), the triangles' edge counts, and the
//! squares that must be separated.

use super::*;

impl<'p, const N: usize> Search<'p, N> {
    /// The line alternates node colours: after the head it visits as many
    /// nodes of the head's colour as of the other, or one fewer. So the
    /// nodes it must still visit of one colour cannot outnumber the nodes
    /// it can still reach of the other (one more for the other colour).
    pub(super) fn parity_ok(&self, h: usize, reach: &Bits<N>) -> bool {
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
    pub(super) fn edge_states(&self, reach: &Bits<N>) -> EdgeStates<N> {
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
    pub(super) fn edge_open_on(
        &self,
        e: usize,
        st: Option<&EdgeStates<N>>,
        reach: &Bits<N>,
    ) -> bool {
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
    pub(super) fn triangle_lost_on(
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
    pub(super) fn triangle_counts(
        &self,
        edges: &[u32; 4],
        st: &EdgeStates<N>,
        reach: &Bits<N>,
    ) -> (u32, u32) {
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
    pub(super) fn local_ok(&self, h: usize, reach: &Bits<N>, main_reach: &Bits<N>) -> bool {
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
    pub(super) fn east_of(&self, x: &Bits<N>) -> Bits<N> {
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
    pub(super) fn onto_east(&self, x: &Bits<N>) -> Bits<N> {
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
    pub(super) fn ways_ok(&self, h: usize, reach: &Bits<N>) -> bool {
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
    pub(super) fn both_ways_ok(&self, h: usize, reach: &Bits<N>) -> bool {
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
    pub(super) fn ways_of_ok(&self, must: &Bits<N>, head: &Bits<N>, reach: &Bits<N>) -> bool {
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
    pub(super) fn no_forced_cycle(
        &self,
        fh: &Bits<N>,
        fv: &Bits<N>,
        one: &Bits<N>,
        two: &Bits<N>,
    ) -> bool {
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
    pub(super) fn way_sets(&self, eh: &Bits<N>, ev: &Bits<N>) -> [Bits<N>; 4] {
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
    pub(super) fn two_ways(&self, reach: &Bits<N>) -> Bits<N> {
        let nc = self.plan.ncols;
        let eh = self.open_h.and(reach).and(&self.east_of(reach));
        let ev = self.open_v.and(reach).and(&reach.shr(nc));
        tally(&self.way_sets(&eh, &ev)).1
    }

    /// Without symmetry: every dot and every edge the line must cover is
    /// covered or can still be (as [`Search::edge_coverable`] tells).
    pub(super) fn covers_ok(&self, reach: &Bits<N>) -> bool {
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
}

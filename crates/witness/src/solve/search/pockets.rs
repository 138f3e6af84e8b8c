//! Pockets: parts of the free grid the line can enter through one node only.
//!
//! The rest of a line is a simple path from its head through the free
//! nodes it can reach, ending at an end. Take a node `v` other than the
//! head whose removal cuts a part `C` of those nodes off from the head: a
//! line that enters `C` passes `v` and can never come back out, so it ends
//! in `C`. Hence a pocket holding a node the line must visit needs an end,
//! and all such pockets must nest, since the line ends in each of them.
//! Likewise the line leaves the head into one part of the other nodes and
//! never returns, so the nodes it must visit all lie in one such part, and
//! that part holds an end.
//!
//! The cut nodes come from one depth-first search (Tarjan's low links) over
//! the reachable nodes, with tallies of must-visit nodes and ends per
//! subtree; a child whose low link does not climb above its parent roots a
//! part cut off by that parent.

use crate::rules::board::NONE;
use crate::solve::bits::Bits;
use crate::solve::plan::Plan;

/// Per node tallies of the depth-first search.
#[derive(Clone, Copy, Default)]
struct Info {
    disc: u16,
    low: u16,
    parent: u16,
    must: u16,
    ends: u16,
    size: u16,
    /// The edge slot the node was discovered by (`NONE` for the head).
    via: u32,
}

/// Scratch space and adjacency for the pocket test.
pub struct Pockets {
    /// Per node: up to four (edge slot, neighbour node), `NONE`-padded.
    adj: Vec<[(u32, u32); 4]>,
    info: Vec<Info>,
    /// The depth-first stack: node and next neighbour to try.
    stack: Vec<(u16, u8)>,
    /// The node discovered at each time (from 1).
    order: Vec<u16>,
    /// The pockets of the last search: root's discovery time, size, and
    /// whether they hold an end.
    found: Vec<(u16, u16, bool)>,
    /// Per discovery time, for [`narrow`](Self::narrow).
    skip: Vec<u16>,
}

impl Pockets {
    /// The adjacency of a plan's nodes, over edges the line may ever take.
    pub fn new(plan: &Plan) -> Pockets {
        let b = &plan.rules.board;
        let n = plan.nodes();
        let mut adj = vec![[(NONE, NONE); 4]; n];
        for (v, a) in adj.iter_mut().enumerate() {
            let s = plan.slot_of_node[v] as usize;
            let mut k = 0;
            for d in 0..4 {
                let e = b.nbr[s][d];
                if e == NONE || !plan.enterable[e as usize] {
                    continue;
                }
                let t = b.nbr[e as usize][d];
                if t == NONE || plan.node_of[t as usize] == NONE {
                    continue;
                }
                a[k] = (e, plan.node_of[t as usize]);
                k += 1;
            }
        }
        Pockets {
            adj,
            info: vec![Info::default(); n],
            stack: Vec::with_capacity(n),
            order: vec![0; n + 2],
            found: Vec::with_capacity(n),
            skip: vec![0; n + 2],
        }
    }

    /// False when no line from node `head` through the nodes of `reach`
    /// (the head included), over edges `open` allows, can visit every node
    /// of `must` and end at a node of `ends`.
    pub fn ok<const N: usize>(
        &mut self,
        head: usize,
        reach: &Bits<N>,
        must: &Bits<N>,
        ends: &Bits<N>,
        open: impl Fn(u32) -> bool,
    ) -> bool {
        self.scan::<N, false>(head, reach, must, ends, open)
            .is_some()
    }

    /// True when [`ok`](Self::ok) at node `head` with `reach` is known to
    /// hold because it held one step back, as `passed` records (the reach
    /// then and the head node `prev` then): the line has only moved from
    /// `prev` to `head`, its only neighbour in that reach, and lost nothing
    /// else of its reach (the must-visit nodes and ends being the same or
    /// fewer, as they are along a branch). A line from `prev` then had to
    /// go on through `head`, so every cut node and pocket the test could
    /// find now it found then, as cut off from `prev` as from `head`.
    pub fn follows<const N: usize>(
        &self,
        head: usize,
        prev: u32,
        reach: &Bits<N>,
        passed: &(Bits<N>, u32),
    ) -> bool {
        if prev == NONE || passed.1 != prev {
            return false;
        }
        let prev = prev as usize;
        let mut was = *reach;
        was.set(prev);
        was == passed.0
            && self.adj[prev]
                .iter()
                .all(|&(e, t)| e == NONE || t as usize == head || !was.get(t as usize))
    }

    /// [`ok`](Self::ok), and on success narrows `reach` to the nodes such a
    /// line may still visit. Dropped are the nodes the head cannot reach
    /// over `open` edges, the pockets without an end (a line entering one
    /// would have to end there), and, when some pocket holds a node of
    /// `must`, the pockets beside the innermost such pocket (the line ends
    /// in that one, so it enters no pocket outside it). The rest stays: it
    /// is an over-estimate, so the checks that read it stay exact.
    pub fn narrow<const N: usize>(
        &mut self,
        head: usize,
        reach: &mut Bits<N>,
        must: &Bits<N>,
        ends: &Bits<N>,
        open: impl Fn(u32) -> bool,
    ) -> bool {
        let Some((time, inner)) = self.scan::<N, true>(head, reach, must, ends, open) else {
            return false;
        };
        let time = time as usize;
        // Per discovery time: the end of a dropped subtree starting there.
        self.skip[..=time].fill(0);
        let mut dropped = false;
        for &(d, s, has_ends) in &self.found {
            let beside = inner.is_some_and(|(di, si)| di + si <= d || d + s <= di);
            if !has_ends || beside {
                let at = &mut self.skip[d as usize];
                *at = (*at).max(d + s);
                dropped = true;
            }
        }
        if !dropped && time == reach.count() as usize {
            return true;
        }
        let mut out = Bits::empty();
        let mut d = 1;
        while d <= time {
            let to = self.skip[d] as usize;
            if to > d {
                d = to;
                continue;
            }
            out.set(self.order[d] as usize);
            d += 1;
        }
        *reach = out;
        true
    }

    /// The depth-first search: `None` when the test fails, else the last
    /// discovery time and the innermost pocket holding a must-visit node
    /// (its root's discovery time and size). `found` gets every pocket
    /// cut off from the head side (root's discovery time, size, whether it
    /// holds an end), and `order` the node discovered at each time, when
    /// `RECORD` (only [`narrow`](Self::narrow) reads them).
    fn scan<const N: usize, const RECORD: bool>(
        &mut self,
        head: usize,
        reach: &Bits<N>,
        must: &Bits<N>,
        ends: &Bits<N>,
        open: impl Fn(u32) -> bool,
    ) -> Option<(u16, Option<(u16, u16)>)> {
        for v in reach.iter() {
            self.info[v].disc = 0;
        }
        if RECORD {
            self.found.clear();
        }
        let mut time = 1u16;
        self.info[head] = Info {
            disc: time,
            low: time,
            via: NONE,
            ..Info::default()
        };
        self.order[1] = head as u16;
        self.stack.clear();
        self.stack.push((head as u16, 0));
        // The innermost pocket holding a must-visit node.
        let mut inner: Option<(u16, u16)> = None;
        while let Some(top) = self.stack.last_mut() {
            let u = top.0 as usize;
            if (top.1 as usize) < 4 {
                let (e, t) = self.adj[u][top.1 as usize];
                top.1 += 1;
                if e == NONE {
                    top.1 = 4;
                    continue;
                }
                let t = t as usize;
                if !reach.get(t) || e == self.info[u].via || !open(e) {
                    continue;
                }
                let dt = self.info[t].disc;
                if dt == 0 {
                    time += 1;
                    self.info[t] = Info {
                        disc: time,
                        low: time,
                        parent: u as u16,
                        must: must.get(t) as u16,
                        ends: ends.get(t) as u16,
                        size: 1,
                        via: e,
                    };
                    if RECORD {
                        self.order[time as usize] = t as u16;
                    }
                    self.stack.push((t as u16, 0));
                } else if dt < self.info[u].low {
                    self.info[u].low = dt;
                }
                continue;
            }
            self.stack.pop();
            if u == head {
                break;
            }
            let c = self.info[u];
            let p = c.parent as usize;
            let pi = &mut self.info[p];
            pi.low = pi.low.min(c.low);
            pi.must += c.must;
            pi.ends += c.ends;
            pi.size += c.size;
            if c.low < pi.disc {
                continue;
            }
            // The subtree of `u` is cut off by `p`: a line entering it
            // passes `p` and never comes back out, so it ends in it.
            if RECORD {
                self.found.push((c.disc, c.size, c.ends > 0));
            }
            if c.must == 0 {
                continue;
            }
            // It holds must-visit nodes, so the line ends in it: it needs
            // an end.
            if c.ends == 0 {
                return None;
            }
            // Found in post-order: a later pocket either contains the
            // earlier ones or lies beside them (the parts beside the head
            // too: the line enters only one of them).
            let (d, s) = (c.disc, c.size);
            match inner {
                None => inner = Some((d, s)),
                Some((di, _)) => {
                    if !(d <= di && di < d + s) {
                        return None;
                    }
                }
            }
        }
        Some((time, inner))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direction, Pos, Puzzle};

    /// A strip of three faces: nodes 0..=3 along the top, 4..=7 below.
    fn strip() -> Plan {
        let mut p = Puzzle::new(3, 1, false).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        p.cell_mut(Pos::new(6, 2)).end = Some(Direction::Right);
        Plan::new(&p).unwrap()
    }

    fn set(nodes: &[usize]) -> Bits<1> {
        nodes.iter().copied().collect()
    }

    #[test]
    fn pockets_need_an_end_and_must_nest() {
        let plan = strip();
        assert_eq!((plan.ncols, plan.nrows), (4, 2));
        let mut pk = Pockets::new(&plan);
        let all = |_: u32| true;
        // The top row and node 7 below its end: 7 hangs off 3.
        let reach = set(&[0, 1, 2, 3, 7]);
        // A line from 0 reaches 7 only by ending there.
        assert!(!pk.ok(0, &reach, &set(&[7]), &set(&[]), all));
        assert!(pk.ok(0, &reach, &set(&[7]), &set(&[7]), all));
        assert!(pk.ok(0, &reach, &set(&[2, 7]), &set(&[7]), all));
        // From 1, the line goes left or right, not both.
        let row = set(&[0, 1, 2, 3]);
        assert!(!pk.ok(1, &row, &set(&[0, 3]), &set(&[0, 3]), all));
        assert!(pk.ok(1, &row, &set(&[2, 3]), &set(&[0, 3]), all));
        // With the edge between 5 and 6 closed, 5 and 6 hang off 1 and 2:
        // two dead ends for one line.
        let comb = set(&[0, 1, 2, 3, 5, 6]);
        let b56 = plan.rules.board.index(3, 2) as u32;
        let teeth = |e: u32| e != b56;
        assert!(!pk.ok(0, &comb, &set(&[5, 6]), &set(&[5, 6]), teeth));
        // Open, 1-5-6-2 is a loop the line can go round.
        assert!(pk.ok(0, &comb, &set(&[5, 6]), &set(&[5, 6]), all));
        // 3 and 6 both hang off 2.
        assert!(!pk.ok(0, &comb, &set(&[3, 6]), &set(&[3, 6]), teeth));
        // Nested pockets: 3 lies in the part behind 2 and behind 1.
        assert!(pk.ok(0, &comb, &set(&[3]), &set(&[3]), teeth));
        assert!(pk.ok(0, &comb, &set(&[2, 3]), &set(&[3]), teeth));
        // With the whole strip open there is no cut node at all.
        let strip = set(&[0, 1, 2, 3, 4, 5, 6, 7]);
        assert!(pk.ok(0, &strip, &set(&[4, 7]), &set(&[7]), all));
        // Closing the rung between 3 and 7 leaves 7 a dead end off 6.
        let rung = plan.rules.board.index(6, 1) as u32;
        assert!(!pk.ok(0, &strip, &set(&[7]), &set(&[3]), |e| e != rung));
    }

    #[test]
    fn a_step_out_of_a_dead_end_keeps_the_verdict() {
        let plan = strip();
        let mut pk = Pockets::new(&plan);
        let all = |_: u32| true;
        let full = set(&[0, 1, 2, 3, 4, 5, 6, 7]);
        // From 0 (neighbours 1 and 4) to 1: with 4 in the reach, 0 was no
        // dead end, so nothing follows.
        let was = (full, 0);
        assert!(!pk.follows(1, 0, &set(&[1, 2, 3, 4, 5, 6, 7]), &was));
        // Without 4 it was, and the reach lost only 0.
        let was = (set(&[0, 1, 2, 3, 5, 6, 7]), 0);
        let now = set(&[1, 2, 3, 5, 6, 7]);
        assert!(pk.follows(1, 0, &now, &was));
        // Not if something else went too, the test passed elsewhere, or
        // the line came from no node.
        assert!(!pk.follows(1, 0, &set(&[1, 2, 3, 5, 6]), &was));
        assert!(!pk.follows(1, 0, &now, &(was.0, 2)));
        assert!(!pk.follows(1, NONE, &now, &was));
        // Every case on the strip: whenever the test held one step back
        // and `follows` says so, it holds now (with the must-visit nodes
        // and ends of the step back, less the new head).
        let adjacent =
            |a: usize, b: usize| pk.adj[a].iter().any(|&(e, t)| e != NONE && t as usize == b);
        let pairs: Vec<(usize, usize)> = (0..8)
            .flat_map(|a| (0..8).map(move |b| (a, b)))
            .filter(|&(a, b)| adjacent(a, b))
            .collect();
        let mut checked = 0;
        for r in 0u32..256 {
            let reach = set(&(0..8).filter(|v| r >> v & 1 == 1).collect::<Vec<_>>());
            for &(a, b) in &pairs {
                if !reach.get(a) || !reach.get(b) {
                    continue;
                }
                let mut now = reach;
                now.clear(a);
                if !pk.follows(b, a as u32, &now, &(reach, a as u32)) {
                    continue;
                }
                for m in 0u32..256 {
                    if m & !r != 0 || m >> a & 1 == 1 {
                        continue;
                    }
                    let must = set(&(0..8).filter(|v| m >> v & 1 == 1).collect::<Vec<_>>());
                    for ends in [set(&[3]), set(&[7]), set(&[3, 7]), set(&[0, 5])] {
                        if pk.ok(a, &reach, &must, &ends, all) {
                            let mut must_now = must;
                            must_now.clear(b);
                            assert!(
                                pk.ok(b, &now, &must_now, &ends, all),
                                "reach {r:#b}, {a} to {b}, must {m:#b}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn narrowing_drops_pockets_without_an_end_and_beside_the_must_pocket() {
        let plan = strip();
        let mut pk = Pockets::new(&plan);
        let b56 = plan.rules.board.index(3, 2) as u32;
        let teeth = |e: u32| e != b56;
        let nodes = |r: &Bits<1>| r.iter().collect::<Vec<_>>();
        // From 0 along the top, with 5 and 6 hanging off 1 and 2: with the
        // end at 3, neither tooth can be entered (the line would have to
        // end in it).
        let mut reach = set(&[0, 1, 2, 3, 5, 6]);
        assert!(pk.narrow(0, &mut reach, &set(&[]), &set(&[3]), teeth));
        assert_eq!(nodes(&reach), [0, 1, 2, 3]);
        // An end in tooth 6 keeps it; tooth 5 goes.
        let mut reach = set(&[0, 1, 2, 3, 5, 6]);
        assert!(pk.narrow(0, &mut reach, &set(&[]), &set(&[3, 6]), teeth));
        assert_eq!(nodes(&reach), [0, 1, 2, 3, 6]);
        // Ends at 3 and in both teeth: nothing goes.
        let mut reach = set(&[0, 1, 2, 3, 5, 6]);
        assert!(pk.narrow(0, &mut reach, &set(&[]), &set(&[3, 5, 6]), teeth));
        assert_eq!(nodes(&reach), [0, 1, 2, 3, 5, 6]);
        // The line must visit 6 and so ends there: tooth 5 and node 3, in
        // pockets beside tooth 6, go although they hold ends.
        let mut reach = set(&[0, 1, 2, 3, 5, 6]);
        assert!(pk.narrow(0, &mut reach, &set(&[6]), &set(&[3, 5, 6]), teeth));
        assert_eq!(nodes(&reach), [0, 1, 2, 6]);
        // With the rung 5-6 open, 1-5-6-2 is a loop: nothing is cut off
        // but 3, which holds the only end and stays.
        let mut reach = set(&[0, 1, 2, 3, 5, 6]);
        assert!(pk.narrow(0, &mut reach, &set(&[]), &set(&[3]), |_| true));
        assert_eq!(nodes(&reach), [0, 1, 2, 3, 5, 6]);
        // Nodes the head cannot get to over open edges go too.
        let mut reach = set(&[0, 1, 2, 3, 7]);
        let rung = plan.rules.board.index(6, 1) as u32;
        assert!(pk.narrow(0, &mut reach, &set(&[]), &set(&[3]), |e| e != rung));
        assert_eq!(nodes(&reach), [0, 1, 2, 3]);
        // A failed test leaves the answer false, as `ok` gives it.
        let mut reach = set(&[0, 1, 2, 3, 5, 6]);
        assert!(!pk.narrow(0, &mut reach, &set(&[5, 6]), &set(&[5, 6]), teeth));
    }
}

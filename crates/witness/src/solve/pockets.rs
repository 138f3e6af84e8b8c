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

use super::bits::Bits;
use super::plan::Plan;
use crate::rules::board::NONE;

/// Scratch space and adjacency for the pocket test.
pub struct Pockets {
    /// Per node: up to four (edge slot, neighbour node), `NONE`-padded.
    adj: Vec<[(u32, u32); 4]>,
    disc: Vec<u16>,
    low: Vec<u16>,
    /// The edge slot a node was discovered by (`NONE` for the head).
    via: Vec<u32>,
    parent: Vec<u16>,
    must: Vec<u16>,
    ends: Vec<u16>,
    size: Vec<u16>,
    /// The depth-first stack: node and next neighbour to try.
    stack: Vec<(u16, u8)>,
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
            disc: vec![0; n],
            low: vec![0; n],
            via: vec![NONE; n],
            parent: vec![0; n],
            must: vec![0; n],
            ends: vec![0; n],
            size: vec![0; n],
            stack: Vec::with_capacity(n),
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
        for v in reach.iter() {
            self.disc[v] = 0;
        }
        let mut time = 1u16;
        self.start(head, NONE, 0, time, must, ends);
        self.stack.clear();
        self.stack.push((head as u16, 0));
        // Parts of the rest beside the head holding must-visit nodes.
        let mut head_parts = 0;
        // The innermost pocket holding a must-visit node: (disc, size).
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
                if !reach.get(t) || e == self.via[u] || !open(e) {
                    continue;
                }
                if self.disc[t] == 0 {
                    time += 1;
                    self.start(t, e, u, time, must, ends);
                    self.stack.push((t as u16, 0));
                } else if self.disc[t] < self.low[u] {
                    self.low[u] = self.disc[t];
                }
                continue;
            }
            self.stack.pop();
            if u == head {
                break;
            }
            let p = self.parent[u] as usize;
            self.low[p] = self.low[p].min(self.low[u]);
            self.must[p] += self.must[u];
            self.ends[p] += self.ends[u];
            self.size[p] += self.size[u];
            if self.low[u] < self.disc[p] || self.must[u] == 0 {
                continue;
            }
            // The subtree of `u` is cut off by `p` and holds must-visit
            // nodes: the line ends in it, so it needs an end.
            if self.ends[u] == 0 {
                return false;
            }
            if p == head {
                head_parts += 1;
                if head_parts > 1 {
                    return false;
                }
            } else {
                // Found in post-order: a later pocket either contains the
                // earlier ones or lies beside them.
                let (d, s) = (self.disc[u], self.size[u]);
                match inner {
                    None => inner = Some((d, s)),
                    Some((di, _)) => {
                        if !(d <= di && di < d + s) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    #[inline]
    fn start<const N: usize>(
        &mut self,
        v: usize,
        via: u32,
        parent: usize,
        time: u16,
        must: &Bits<N>,
        ends: &Bits<N>,
    ) {
        self.disc[v] = time;
        self.low[v] = time;
        self.via[v] = via;
        self.parent[v] = parent as u16;
        self.must[v] = must.get(v) as u16;
        self.ends[v] = ends.get(v) as u16;
        self.size[v] = 1;
    }
}

//! Region floods over face bitsets: one step over the links, the flood
//! from a seed, through the rim nodes on boards with removed faces, and
//! the faces the line's reach touches.

use super::*;

impl<const N: usize> FaceMasks<N> {
    /// Builds the rim tables (see [`Rim`]) and sets every rim link.
    pub(super) fn build_rim(&mut self, p: &Plan) {
        let b = &p.rules.board;
        let n = b.len();
        let edge = |s: u32| s != NONE && b.kind[s as usize] == SlotKind::Edge;
        let mut rim_node = vec![false; n];
        for i in 0..n {
            if b.kind[i] != SlotKind::Node || b.outside[i] {
                continue;
            }
            rim_node[i] = b.nbr[i]
                .iter()
                .any(|&e| edge(e) && !b.outside[e as usize] && self.link_of[e as usize].is_none());
        }
        let mut bits = Vec::new();
        for i in 0..n {
            let f = self.face_of[i];
            if f == NONE || b.outside[i] {
                continue;
            }
            // Edges of the face: left, right, up, down; corners NW, NE, SW, SE.
            let [l, r, u, d] = b.nbr[i];
            let corners = [
                (b.nbr[u as usize][0], u, l),
                (b.nbr[u as usize][1], u, r),
                (b.nbr[d as usize][0], d, l),
                (b.nbr[d as usize][1], d, r),
            ];
            for (k, (v, e1, e2)) in corners.into_iter().enumerate() {
                if v != NONE && rim_node[v as usize] {
                    bits.push(RimBit {
                        set: k as u8,
                        index: f,
                        slots: [v, e1, e2],
                    });
                }
            }
        }
        for e in 0..n {
            if b.kind[e] != SlotKind::Edge || b.outside[e] {
                continue;
            }
            let x = e / b.h;
            let (v1, v2, set) = if x.is_multiple_of(2) {
                (b.nbr[e][2], b.nbr[e][3], 5) // vertical edge: up and down nodes
            } else if b.pillar && x == b.w - 1 {
                (b.nbr[e][0], b.nbr[e][1], 6) // across the seam
            } else {
                (b.nbr[e][0], b.nbr[e][1], 4)
            };
            if v1 == NONE || v2 == NONE || !rim_node[v1 as usize] || !rim_node[v2 as usize] {
                continue;
            }
            bits.push(RimBit {
                set,
                index: p.node_of[v1 as usize],
                slots: [v1, v2, e as u32],
            });
        }
        let mut per_slot: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (k, bit) in bits.iter().enumerate() {
            for s in bit.slots {
                per_slot[s as usize].push(k as u32);
            }
            self.rim_links.put(bit.set, bit.index, true);
        }
        let mut at = Vec::with_capacity(n + 1);
        let mut ids = Vec::new();
        at.push(0);
        for list in per_slot {
            ids.extend(list);
            at.push(ids.len() as u32);
        }
        self.rim = Some(Rim { at, ids, bits });
    }

    /// For an edge slot: per end node, the node and the edges beside it of
    /// the two faces the edge parts (`NONE` where missing). A covered edge
    /// whose end node the line has not covered (a start on an edge) does
    /// not part its faces: they stay joined around that node.
    pub fn corners(p: &Plan, e: usize) -> [[u32; 3]; 2] {
        let b = &p.rules.board;
        let nb = &b.nbr[e];
        // Vertical edge: nodes up and down, side edges left and right of
        // them; horizontal edge: nodes left and right, side edges up and down.
        let (ends, sides) = if (e / b.h).is_multiple_of(2) {
            ([nb[2], nb[3]], [0, 1])
        } else {
            ([nb[0], nb[1]], [2, 3])
        };
        ends.map(|v| {
            if v == NONE {
                [NONE; 3]
            } else {
                let vn = &b.nbr[v as usize];
                [v, vn[sides[0]], vn[sides[1]]]
            }
        })
    }

    /// True when `set` holds squares of two or more colours.
    #[inline]
    pub fn mixed_squares(&self, set: &Bits<N>) -> bool {
        self.squares
            .iter()
            .filter(|sq| set.intersects(sq))
            .nth(1)
            .is_some()
    }

    /// True when one of the parts that `links` join holds squares of two
    /// colours, among the parts with a square of `set`: the squares of each
    /// colour are flooded together, and meet another colour's.
    pub fn parts_mix_squares(&self, set: &Bits<N>, links: &Links<N>) -> bool {
        let Some((_, rest)) = self.squares.split_last() else {
            return false;
        };
        let all = self
            .squares
            .iter()
            .fold(Bits::empty(), |a, sq| a.or(sq))
            .and(set);
        rest.iter().any(|sq| {
            let seeds = set.and(sq);
            let others = all.and_not(sq);
            !seeds.is_empty() && !others.is_empty() && self.flood(seeds, links).intersects(&others)
        })
    }

    /// The total size of the subtractive polyominoes in `region`.
    #[inline]
    pub fn ylop_area(&self, region: &Bits<N>) -> u32 {
        self.ylop_sizes
            .iter()
            .map(|(size, set)| size * region.and(set).count())
            .sum()
    }

    /// The total size of the (not subtractive) polyominoes in `region`.
    #[inline]
    pub fn area(&self, region: &Bits<N>) -> u32 {
        self.polys
            .iter()
            .map(|(size, set)| size * region.and(set).count())
            .sum()
    }

    /// One step of a flood over `links` (faces and nodes share the stride,
    /// so node links flood nodes the same way): `cur` and the faces one
    /// link from it.
    #[inline]
    pub fn step(&self, cur: &Bits<N>, links: &Links<N>) -> Bits<N> {
        let nc = self.ncols;
        let mut nx = cur
            .or(&cur.and(&links.right).shl(1))
            .or(&cur.shr(1).and(&links.right))
            .or(&cur.and(&links.down).shl(nc))
            .or(&cur.shr(nc).and(&links.down));
        if self.pillar {
            nx = nx
                .or(&cur.and(&links.wrap).shr(nc - 1))
                .or(&cur.shl(nc - 1).and(&links.wrap));
        }
        nx
    }

    /// The faces joined to `seed` under `links`.
    #[inline]
    pub fn flood(&self, seed: Bits<N>, links: &Links<N>) -> Bits<N> {
        let mut cur = seed;
        loop {
            let nx = self.step(&cur, links);
            if nx == cur {
                return cur;
            }
            cur = nx;
        }
    }

    /// The faces with at least one of `links` (the others are parts of
    /// one face each).
    #[inline]
    pub fn linked(&self, links: &Links<N>) -> Bits<N> {
        let nc = self.ncols;
        let mut out = links
            .right
            .or(&links.right.shl(1))
            .or(&links.down)
            .or(&links.down.shl(nc));
        if self.pillar {
            out = out.or(&links.wrap).or(&links.wrap.shr(nc - 1));
        }
        out
    }

    /// The faces and rim nodes joined to `seed` under `links` and the rim
    /// links: on boards with removed faces. The faces are flooded over
    /// their own links first and the rim only between those floods (the
    /// same closure, in fewer of the costlier rim steps).
    pub fn flood_rim(
        &self,
        seed: Bits<N>,
        links: &Links<N>,
        rim: &RimLinks<N>,
    ) -> (Bits<N>, Bits<N>) {
        let nc = self.ncols;
        let (mut f, mut v) = (seed, Bits::<N>::empty());
        loop {
            f = self.flood(f, links);
            // The rim nodes at corners of those faces, flooded along the
            // rim's own links.
            let mut nv = v
                .or(&f.and(&rim.corner[0]))
                .or(&self.push_east(&f.and(&rim.corner[1])))
                .or(&f.and(&rim.corner[2]).shl(nc))
                .or(&self.push_east(&f.and(&rim.corner[3])).shl(nc));
            loop {
                let next = self.step(&nv, &rim.nodes);
                if next == nv {
                    break;
                }
                nv = next;
            }
            // The faces at those nodes.
            let below = nv.shr(nc);
            let nf = f
                .or(&nv.and(&rim.corner[0]))
                .or(&self.east(&nv).and(&rim.corner[1]))
                .or(&below.and(&rim.corner[2]))
                .or(&self.east(&below).and(&rim.corner[3]));
            // No new faces: `f` is closed under its links, and `nv` under
            // the rim's, holding every rim corner of `f`.
            if nf == f {
                return (f, nv);
            }
            f = nf;
            v = nv;
        }
    }

    /// Face bits moved onto the node at each face's north-east corner (a
    /// face shares its index with its north-west node), across a pillar's
    /// seam too.
    #[inline]
    pub fn push_east(&self, y: &Bits<N>) -> Bits<N> {
        let mut e = y.and(&self.not_last).shl(1);
        if self.pillar {
            e = e.or(&y.and(&self.last_col).shr(self.ncols - 1));
        }
        e
    }

    /// Node set `x` moved onto the faces to the west of its nodes: bit `f`
    /// set when the node at face `f`'s east side (same row) is in `x`.
    #[inline]
    pub(super) fn east(&self, x: &Bits<N>) -> Bits<N> {
        let mut e = x.shr(1).and(&self.not_last);
        if self.pillar {
            e = e.or(&x.shl(self.ncols - 1).and(&self.last_col));
        }
        e
    }

    /// The inside faces with a corner at a node of `reach`: the faces a line
    /// that can reach those nodes may still cut off or join a wall to.
    #[inline]
    pub fn touched(&self, reach: &Bits<N>) -> Bits<N> {
        let rows = reach.or(&reach.shr(self.ncols));
        rows.or(&self.east(&rows)).and(&self.inside)
    }

    /// The links the line can never cut any more: not walls, and their edge
    /// not enterable, or with an end node not in `reach` (the nodes the line
    /// can still visit, the head included): the line covers an edge by
    /// passing from one of its nodes to the other, or by ending on it from
    /// one of them. Links that covered start edges may still turn into
    /// walls are not in `links` here (the caller leaves them out).
    #[inline]
    pub fn stuck(&self, links: &Links<N>, reach: &Bits<N>) -> Links<N> {
        let below = reach.shr(self.ncols);
        // A vertical edge east of face f: the east nodes of both rows.
        let (top_r, bottom_r) = (self.east(reach), self.east(&below));
        // A horizontal edge below face f: both nodes of the row below.
        let e = &self.end_links;
        let cut_r = coverable(&top_r, &bottom_r, &e.right);
        let cut_w = coverable(&top_r, &bottom_r, &e.wrap);
        let cut_d = coverable(&below, &bottom_r, &e.down);
        Links {
            right: links.right.and_not(&self.enterable.right.and(&cut_r)),
            down: links.down.and_not(&self.enterable.down.and(&cut_d)),
            wrap: links.wrap.and_not(&self.enterable.wrap.and(&cut_w)),
        }
    }
}

/// The edges the line may still cover, per edge bit: those with both nodes
/// in reach (`a`: one node's bit, `b`: the other's), and those it may end on
/// (`ends`) with either. The line covers an edge only by passing from one of
/// its nodes to the other, or by ending on it.
#[inline]
pub fn coverable<const N: usize>(a: &Bits<N>, b: &Bits<N>, ends: &Bits<N>) -> Bits<N> {
    a.and(b).or(&ends.and(&a.or(b)))
}

//! What the search precomputes once per puzzle: which slots a line may
//! enter, the node grid for flood fills, and the symbols that allow early
//! pruning.

use super::bits::Bits;
use crate::error::Result;
use crate::model::{Gap, Puzzle, SlotKind};
use crate::rules::board::{Sym, NONE};
use crate::rules::Rules;

/// The per-puzzle tables of the search.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The compiled rules (validator).
    pub rules: Rules,
    /// Two lines are drawn.
    pub symmetric: bool,
    /// A path and its reverse count once.
    pub undirected: bool,
    /// Node columns and rows.
    pub ncols: usize,
    /// Node rows.
    pub nrows: usize,
    /// Node index per slot (`NONE` for faces and edges).
    pub node_of: Vec<u32>,
    /// Slot index per node.
    pub slot_of_node: Vec<u32>,
    /// Static: the line may occupy this slot (not a face, no gap, and with
    /// symmetry not its own mirror and its mirror has no gap).
    pub enterable: Vec<bool>,
    /// Start slots, column by column.
    pub starts: Vec<u32>,
    /// For an edge slot, the node indices at its two ends (`NONE` if off-grid).
    pub edge_nodes: Vec<[u32; 2]>,
    /// For a node, the faces diagonal to it.
    pub faces_around: Vec<[u32; 4]>,
    /// Node indices with an endpoint on them or on an edge beside them.
    pub end_nodes: Vec<u32>,
    /// Mirror node per node.
    pub mirror_node: Vec<u32>,
    /// No elimination marks: uncovered dots, wrong triangles and clashing
    /// neighbours may prune at once.
    pub local_prune: bool,
    /// Slots holding dots.
    pub dots: Vec<u32>,
    /// Triangles: face, count, its four edges.
    pub triangles: Vec<(u32, u32, [u32; 4])>,
    /// Edges between squares of different colours: the line must take them.
    pub must_cover: Vec<u32>,
    /// Per node slot and incoming direction (left, right, up, down: the move
    /// that arrived): the slots around the node that must all be free for
    /// the arrival to leave regions and reachability unchanged (see
    /// [`Plan::open_block`]). Empty when the block is cut by the border.
    pub block: Vec<[Vec<u32>; 4]>,
    /// Per face: whether it holds a triangle (for the incremental check).
    pub triangle_count: Vec<u32>,
}

impl Plan {
    /// Builds the tables for a puzzle.
    pub fn new(puzzle: &Puzzle) -> Result<Plan> {
        let rules = Rules::new(puzzle)?;
        let b = &rules.board;
        let n = b.len();
        let symmetric = b.symmetry.is_some();
        let ncols = if b.pillar { b.w / 2 } else { b.w / 2 + 1 };
        let nrows = b.h / 2 + 1;
        let mut node_of = vec![NONE; n];
        let mut slot_of_node = vec![0u32; ncols * nrows];
        for r in 0..nrows {
            for c in 0..ncols {
                let s = b.index(2 * c, 2 * r);
                node_of[s] = (r * ncols + c) as u32;
                slot_of_node[r * ncols + c] = s as u32;
            }
        }
        let mut enterable = vec![false; n];
        for i in 0..n {
            if b.kind[i] == SlotKind::Face || b.gap[i] != Gap::None {
                continue;
            }
            if symmetric {
                let m = b.mirror[i] as usize;
                if m == i || b.gap[m] != Gap::None {
                    continue;
                }
            }
            enterable[i] = true;
        }
        let starts = (0..n).filter(|&i| b.start[i]).map(|i| i as u32).collect();
        let mut edge_nodes = vec![[NONE; 2]; n];
        let mut faces_around = vec![[NONE; 4]; n];
        for i in 0..n {
            match b.kind[i] {
                SlotKind::Edge => {
                    let nb = &b.nbr[i];
                    let (a, c) = if (i % b.h) % 2 == 0 {
                        (nb[0], nb[1]) // horizontal edge: left and right
                    } else {
                        (nb[2], nb[3]) // vertical edge: up and down
                    };
                    let node = |s: u32| if s == NONE { NONE } else { node_of[s as usize] };
                    edge_nodes[i] = [node(a), node(c)];
                }
                SlotKind::Node => {
                    let (x, y) = (i / b.h, i % b.h);
                    let mut k = 0;
                    for (dx, dy) in [(-1isize, -1isize), (1, -1), (-1, 1), (1, 1)] {
                        let yy = y as isize + dy;
                        let mut xx = x as isize + dx;
                        if b.pillar {
                            xx = xx.rem_euclid(b.w as isize);
                        }
                        if yy < 0 || yy >= b.h as isize || xx < 0 || xx >= b.w as isize {
                            continue;
                        }
                        faces_around[i][k] = b.index(xx as usize, yy as usize) as u32;
                        k += 1;
                    }
                }
                SlotKind::Face => {}
            }
        }
        let mut end_nodes = Vec::new();
        for v in 0..ncols * nrows {
            let s = slot_of_node[v] as usize;
            let near_end = b.end[s]
                || b.nbr[s]
                    .iter()
                    .any(|&e| e != NONE && b.end[e as usize] && enterable[e as usize]);
            if near_end {
                end_nodes.push(v as u32);
            }
        }
        let mirror_node = (0..ncols * nrows)
            .map(|v| {
                let m = b.mirror[slot_of_node[v] as usize] as usize;
                node_of[m]
            })
            .collect();
        let local_prune = !b.has_negations;
        let dots = (0..n)
            .filter(|&i| b.kind[i] != SlotKind::Face && b.dot[i].is_some())
            .map(|i| i as u32)
            .collect();
        let mut triangles = Vec::new();
        let mut must_cover = Vec::new();
        for i in 0..n {
            if b.kind[i] != SlotKind::Face {
                continue;
            }
            if let Sym::Triangle(k) = b.sym[i] {
                triangles.push((i as u32, k, b.nbr[i]));
            }
            if b.sym[i] == Sym::Square {
                // Right and down neighbours: the edge between, the face beyond.
                for d in [1usize, 3] {
                    let e = b.nbr[i][d];
                    if e == NONE {
                        continue;
                    }
                    let f = b.nbr[e as usize][d];
                    if f == NONE {
                        continue;
                    }
                    let f = f as usize;
                    if b.sym[f] == Sym::Square && b.color[f] != b.color[i] {
                        must_cover.push(e);
                    }
                }
            }
        }
        let block = (0..n)
            .map(|i| {
                if b.kind[i] != SlotKind::Node {
                    return Default::default();
                }
                std::array::from_fn(|d| open_block_slots(&rules, &enterable, i, d))
            })
            .collect();
        let mut triangle_count = vec![u32::MAX; n];
        for &(f, k, _) in &triangles {
            triangle_count[f as usize] = k;
        }
        Ok(Plan {
            block,
            triangle_count,
            undirected: puzzle.undirected,
            rules,
            symmetric,
            ncols,
            nrows,
            node_of,
            slot_of_node,
            enterable,
            starts,
            edge_nodes,
            faces_around,
            end_nodes,
            mirror_node,
            local_prune,
            dots,
            triangles,
            must_cover,
        })
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.ncols * self.nrows
    }
}

/// The slots of the 3x3-node block around node `h` other than the node the
/// line came from (reached by the move `d`, so it lies opposite `d`) and the
/// ring edges beside it: seven ring nodes, six ring edges and three spokes.
/// When all are enterable and uncovered, entering `h` neither seals a region
/// nor cuts the free nodes apart: the ring joins `h`'s other neighbours.
/// Empty when some of them do not exist or can never be entered: then the
/// full checks always run.
fn open_block_slots(rules: &Rules, enterable: &[bool], h: usize, d: usize) -> Vec<u32> {
    let b = &rules.board;
    let step = |s: usize, dir: usize| -> Option<usize> {
        let t = b.nbr[s][dir];
        (t != NONE).then_some(t as usize)
    };
    // Ring positions as (dx, dy) in nodes, cyclic: N NE E SE S SW W NW.
    let ring = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];
    // The node the line came from, as a ring index: a move left (d = 0)
    // came from the east, right from the west, up from the south, down
    // from the north.
    let from = match d {
        0 => 2,
        1 => 6,
        2 => 4,
        _ => 0,
    };
    let node_at = |dx: isize, dy: isize| -> Option<usize> {
        let mut s = h;
        for _ in 0..2 {
            if dx != 0 {
                s = step(s, if dx < 0 { 0 } else { 1 })?;
            }
        }
        for _ in 0..2 {
            if dy != 0 {
                s = step(s, if dy < 0 { 2 } else { 3 })?;
            }
        }
        Some(s)
    };
    let edge_between = |a: usize, c: usize| -> Option<usize> {
        (0..4).find_map(|k| {
            let e = step(a, k)?;
            (step(e, k)? == c).then_some(e)
        })
    };
    let mut out = Vec::new();
    let mut nodes = [None; 8];
    for (k, &(dx, dy)) in ring.iter().enumerate() {
        nodes[k] = node_at(dx, dy);
    }
    for k in 0..8 {
        if k == from {
            continue;
        }
        let Some(v) = nodes[k] else { return Vec::new() };
        out.push(v as u32);
        // Ring edge to the next node, unless it touches the excluded one.
        let next = (k + 1) % 8;
        if next != from {
            let Some(w) = nodes[next] else { return Vec::new() };
            let Some(e) = edge_between(v, w) else { return Vec::new() };
            out.push(e as u32);
        }
        // Spokes from h to the orthogonal ring nodes.
        if k % 2 == 0 {
            let Some(e) = edge_between(h, v) else { return Vec::new() };
            out.push(e as u32);
        }
    }
    if out.iter().any(|&s| !enterable[s as usize]) {
        return Vec::new();
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// The plan's node sets as bitsets of `N` words.
#[derive(Clone, Debug)]
pub struct Masks<const N: usize> {
    /// Nodes a line may occupy.
    pub walk: Bits<N>,
    /// Nodes from which a step right stays in the same row.
    pub right_in: Bits<N>,
    /// Nodes from which a step left stays in the same row.
    pub left_in: Bits<N>,
    /// Last-column nodes that step right across a pillar's seam.
    pub right_wrap: Bits<N>,
    /// First-column nodes that step left across a pillar's seam.
    pub left_wrap: Bits<N>,
    /// Nodes that can step down.
    pub down: Bits<N>,
    /// Nodes that can step up.
    pub up: Bits<N>,
    /// Nodes at or beside an endpoint.
    pub ends: Bits<N>,
}

impl<const N: usize> Masks<N> {
    /// Builds the bitsets; the plan must have at most `64 * N` nodes.
    pub fn new(p: &Plan) -> Masks<N> {
        let b = &p.rules.board;
        let mut m = Masks {
            walk: Bits::empty(),
            right_in: Bits::empty(),
            left_in: Bits::empty(),
            right_wrap: Bits::empty(),
            left_wrap: Bits::empty(),
            down: Bits::empty(),
            up: Bits::empty(),
            ends: Bits::empty(),
        };
        for v in 0..p.nodes() {
            let s = p.slot_of_node[v] as usize;
            if !p.enterable[s] {
                continue;
            }
            m.walk.set(v);
            let c = v % p.ncols;
            // Directions: left, right, up, down, as in Board::nbr.
            for d in 0..4 {
                let e = b.nbr[s][d];
                if e == NONE || !p.enterable[e as usize] {
                    continue;
                }
                let t = b.nbr[e as usize][d];
                if t == NONE || !p.enterable[t as usize] {
                    continue;
                }
                match d {
                    0 if c == 0 => m.left_wrap.set(v),
                    0 => m.left_in.set(v),
                    1 if c == p.ncols - 1 => m.right_wrap.set(v),
                    1 => m.right_in.set(v),
                    2 => m.up.set(v),
                    _ => m.down.set(v),
                }
            }
        }
        for &v in &p.end_nodes {
            m.ends.set(v as usize);
        }
        m
    }
}

//! What the search precomputes once per puzzle: which slots a line may
//! enter, the node grid for flood fills, and the symbols that allow early
//! pruning.

use super::bits::Bits;
use crate::error::Result;
use crate::model::{Dot, Gap, Puzzle, SlotKind};
use crate::rules::board::{Board, Sym, NONE};
use crate::rules::Rules;

/// The board size from which the search narrows its reach with the pocket
/// search (7x7 nodes: panels of 6x6 faces); on smaller boards it costs more
/// than it saves.
pub const NARROW_MIN_NODES: usize = 49;

/// The search keeps verdicts (pocket tests, narrowings, sealed regions with
/// elimination marks) once it has visited this many nodes: smaller
/// searches would spend more on the tables than they save.
pub const MEMO_AFTER: u64 = 512;

/// How the mirror map of a symmetry puzzle lays out over node indices
/// (row by row, `ncols` to a row), so that a whole set of nodes can be
/// mirrored with a few word operations ([`super::bits::Bits::reversed`],
/// [`super::bits::Bits::rows_reversed`]) rather than node by node.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MirrorShape {
    /// Half a turn: node `v` of `n` mirrors to `n - 1 - v`.
    Turn,
    /// Columns flipped: the node in column `c` mirrors to column
    /// `ncols - 1 - c` of its row.
    FlipColumns,
    /// Rows flipped: the node in row `r` mirrors to row `nrows - 1 - r`
    /// of its column.
    FlipRows,
    /// Anything else (pillars, or no symmetry): node by node.
    Other,
}

impl MirrorShape {
    /// The shape of `mirror` (per node index) on a grid of `ncols` by
    /// `nrows` nodes.
    pub fn of(mirror: &[u32], ncols: usize, nrows: usize) -> MirrorShape {
        let n = ncols * nrows;
        let fits = |f: &dyn Fn(usize, usize) -> usize| {
            mirror.len() == n && (0..n).all(|v| mirror[v] as usize == f(v / ncols, v % ncols))
        };
        if fits(&|r, c| n - 1 - (r * ncols + c)) {
            MirrorShape::Turn
        } else if fits(&|r, c| r * ncols + ncols - 1 - c) {
            MirrorShape::FlipColumns
        } else if fits(&|r, c| (nrows - 1 - r) * ncols + c) {
            MirrorShape::FlipRows
        } else {
            MirrorShape::Other
        }
    }
}

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
    /// How `mirror_node` lays out over node indices.
    pub mirror_shape: MirrorShape,
    /// No elimination marks: uncovered dots, wrong triangles and clashing
    /// neighbours may prune at once.
    pub local_prune: bool,
    /// The search's pocket narrowing runs on boards of at least this many
    /// nodes ([`NARROW_MIN_NODES`] unless changed; tests lower it to run
    /// it on small panels).
    pub narrow_min_nodes: usize,
    /// The search keeps verdicts past this many search nodes
    /// ([`MEMO_AFTER`] unless changed; tests lower it to use the tables on
    /// small panels).
    pub memo_after: u64,
    /// Open regions with pieces get the packing test
    /// ([`super::faces::FaceMasks::packs`]; true unless changed: tests turn
    /// it off to see what it cuts).
    pub packing: bool,
    /// Parts of open regions with pieces get the room test, on boards with
    /// subtractive pieces (`Search::piece_room_ok`; true unless changed:
    /// tests turn it off to see what it cuts).
    pub room: bool,
    /// Check open regions for hopeless stars and crowded pieces (no
    /// elimination marks, and stars or polyominoes on the board).
    pub open_checks: bool,
    /// Also check the parts of open regions the line can no longer separate
    /// (squares or stars on the board, no elimination marks).
    pub component_checks: bool,
    /// No squares, stars, polyominoes or elimination marks: a path is valid
    /// exactly when its dots, triangles and dot colours are right, which
    /// the search checks itself without the full validator.
    pub local_only: bool,
    /// Nothing but lines, starts, ends and gaps: every legal path solves.
    pub bare: bool,
    /// Slots holding blue or yellow dots (checked for the line's colour).
    pub colored_dots: Vec<u32>,
    /// Without symmetry: node slots the line must pass through (dots on
    /// nodes, both ends of dotted edges and of edges between squares of
    /// different colours, nodes between diagonal squares of different
    /// colours, the corners of triangles of 3), unless they are endpoints.
    pub must_pass: Vec<u32>,
    /// Slots holding dots.
    pub dots: Vec<u32>,
    /// Edge slots holding dots.
    pub edge_dots: Vec<u32>,
    /// Triangles: face, count, its four edges.
    pub triangles: Vec<(u32, u32, [u32; 4])>,
    /// Edges between squares of different colours: the line must take them.
    pub must_cover: Vec<u32>,
    /// Per node slot and incoming direction (left, right, up, down: the move
    /// that arrived): the slots around the node that must all be free for
    /// the arrival to leave regions and reachability unchanged (see
    /// `open_block_slots`). Empty when the block is cut by the border.
    pub block: Vec<u32>,
    /// `block[block_at[4 * slot + d]..block_at[4 * slot + d + 1]]` is the
    /// block of a node slot for incoming direction `d`. On pillars only
    /// (both empty otherwise: see `block_deltas`).
    pub block_at: Vec<u32>,
    /// Off a pillar, the block of node slot `h` for incoming direction `d`
    /// is `h + block_deltas[d][k]`, when `block_inner[h]`; there is a block
    /// when all of its slots are enterable.
    pub block_deltas: [[isize; 16]; 4],
    /// Off a pillar, the node slots whose whole block lies on the grid.
    pub block_inner: Vec<bool>,
    /// Per face: whether it holds a triangle (for the incremental check).
    pub triangle_count: Vec<u32>,
    /// Per slot: the moves (bit `k` for [`crate::model::Direction::ALL`]`[k]`) that stay
    /// on the grid's lines: left and right in even slot rows, up and down
    /// in even slot columns.
    pub moves_at: Vec<u8>,
}

impl Plan {
    /// Builds the tables for a puzzle.
    pub fn new(puzzle: &Puzzle) -> Result<Plan> {
        Ok(Plan::from_rules(Rules::new(puzzle)?, puzzle.undirected))
    }

    /// Builds the tables for compiled rules (`undirected` as
    /// [`Puzzle::undirected`]).
    pub fn from_rules(rules: Rules, undirected: bool) -> Plan {
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
        // One pass over the slots, a column at a time.
        let mut enterable = vec![false; n];
        let mut edge_nodes = vec![[NONE; 2]; n];
        let mut faces_around = vec![[NONE; 4]; n];
        let mut moves_at = vec![0u8; n];
        let mut starts = Vec::new();
        let mut dots = Vec::new();
        let mut edge_dots = Vec::new();
        let mut colored_dots = Vec::new();
        let mut triangles = Vec::new();
        let mut must_cover = Vec::new();
        let mut triangle_count = vec![u32::MAX; n];
        // Symbols seen: stars, squares, pieces, any but triangles.
        let (mut stars, mut squares, mut polys, mut others) = (false, false, false, false);
        let node = |s: u32| if s == NONE { NONE } else { node_of[s as usize] };
        for x in 0..b.w {
            for y in 0..b.h {
                let i = x * b.h + y;
                if b.start[i] {
                    starts.push(i as u32);
                }
                moves_at[i] =
                    (if y % 2 == 0 { 0b0011 } else { 0 }) | (if x % 2 == 0 { 0b1100 } else { 0 });
                if matches!(b.dot[i], Dot::Blue | Dot::Yellow) {
                    colored_dots.push(i as u32);
                }
                let kind = b.kind[i];
                if kind == SlotKind::Face {
                    match b.sym[i] {
                        Sym::Empty => continue,
                        Sym::Triangle(k) => {
                            triangles.push((i as u32, k, b.nbr[i]));
                            triangle_count[i] = k;
                            continue;
                        }
                        Sym::Star => stars = true,
                        Sym::Poly(_) => polys = true,
                        Sym::Square => {
                            squares = true;
                            // Right and down neighbours: the edge between,
                            // the face beyond.
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
                        _ => {}
                    }
                    others = true;
                    continue;
                }
                if b.dot[i].is_some() {
                    dots.push(i as u32);
                    if kind == SlotKind::Edge {
                        edge_dots.push(i as u32);
                    }
                }
                let m = b.mirror[i] as usize;
                enterable[i] =
                    b.gap[i] == Gap::None && (!symmetric || (m != i && b.gap[m] == Gap::None));
                if kind == SlotKind::Edge {
                    let nb = &b.nbr[i];
                    edge_nodes[i] = if y % 2 == 0 {
                        [node(nb[0]), node(nb[1])] // horizontal edge: left and right
                    } else {
                        [node(nb[2]), node(nb[3])] // vertical edge: up and down
                    };
                    continue;
                }
                // A node: the faces diagonal to it.
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
        let mirror_node: Vec<u32> = (0..ncols * nrows)
            .map(|v| {
                let m = b.mirror[slot_of_node[v] as usize] as usize;
                node_of[m]
            })
            .collect();
        let local_prune = !b.has_negations;
        let offsets = block_offsets();
        // Off a pillar, a block is its node's index plus fixed deltas, and
        // the search reads it from those; on a pillar the blocks, which
        // wrap, are listed here.
        let block_deltas = offsets.map(|o| o.map(|(dx, dy)| dx * b.h as isize + dy));
        let mut block_inner = vec![false; n];
        let mut block = Vec::new();
        let mut block_at = Vec::new();
        if b.pillar {
            block_at.reserve(4 * n + 1);
            block_at.push(0);
            let mut scratch = Vec::with_capacity(16);
            for i in 0..n {
                let y = i % b.h;
                // Every block has ring nodes two slots away on all four sides.
                if b.kind[i] != SlotKind::Node || y < 2 || y + 2 >= b.h {
                    let end = block.len() as u32;
                    block_at.extend_from_slice(&[end; 4]);
                    continue;
                }
                for o in &offsets {
                    open_block_slots(&rules, &enterable, i, o, &mut scratch);
                    block.extend_from_slice(&scratch);
                    block_at.push(block.len() as u32);
                }
            }
        } else {
            for x in 2..b.w.saturating_sub(2) {
                for y in 2..b.h.saturating_sub(2) {
                    let i = b.index(x, y);
                    block_inner[i] = b.kind[i] == SlotKind::Node;
                }
            }
        }
        let component_checks = local_prune && (stars || squares);
        let open_checks = (local_prune && (stars || polys)) || component_checks;
        let local_only = !others;
        let bare = local_only && triangles.is_empty() && b.dot.iter().all(|&d| d == Dot::None);
        let mut must_pass: Vec<u32> = Vec::new();
        if !symmetric && local_prune {
            for i in 0..n {
                if !b.dot[i].is_some() {
                    continue;
                }
                match b.kind[i] {
                    SlotKind::Node => must_pass.push(i as u32),
                    // A dotted edge that is a start or an end may be only
                    // half-travelled: its nodes are not forced.
                    SlotKind::Edge if !b.end[i] && !b.start[i] => {
                        for v in edge_nodes[i] {
                            if v != NONE {
                                must_pass.push(slot_of_node[v as usize]);
                            }
                        }
                    }
                    _ => {}
                }
            }
            // Both ends of an edge between squares of different colours:
            // the line must take the whole edge (unless it may start or
            // end on it).
            for &e in &must_cover {
                if b.end[e as usize] || b.start[e as usize] {
                    continue;
                }
                for v in edge_nodes[e as usize] {
                    if v != NONE {
                        must_pass.push(slot_of_node[v as usize]);
                    }
                }
            }
            // The corners of a triangle of 3: three of the face's four
            // edges cover all four (unless an edge may be travelled only
            // halfway, by a line that starts or ends on it, or the face's
            // left and right edges are one, round a pillar one face wide).
            let halfway = |e: u32| e != NONE && (b.end[e as usize] || b.start[e as usize]);
            for &(_, k, edges) in &triangles {
                if k != 3 || edges.iter().any(|&e| halfway(e)) || edges[0] == edges[1] {
                    continue;
                }
                // Its top and bottom edges (left, right, up, down).
                for e in [edges[2], edges[3]] {
                    if e == NONE {
                        continue;
                    }
                    for v in edge_nodes[e as usize] {
                        if v != NONE {
                            must_pass.push(slot_of_node[v as usize]);
                        }
                    }
                }
            }
            // A node whose diagonal faces hold squares of different colours:
            // the line must part them, so it must take an edge of the node
            // between each of them and either face beside both; two edges, so
            // it passes the node (`docs/rules.md#regions`: faces join across an
            // edge the line does not cover).
            for i in 0..n {
                if b.kind[i] == SlotKind::Node && parts_diagonal_squares(b, i, &faces_around[i]) {
                    must_pass.push(i as u32);
                }
            }
            must_pass.retain(|&v| !b.end[v as usize]);
            must_pass.sort_unstable();
            must_pass.dedup();
        }
        Plan {
            must_pass,
            bare,
            local_only,
            colored_dots,
            component_checks,
            open_checks,
            block,
            block_at,
            block_deltas,
            block_inner,
            triangle_count,
            moves_at,
            undirected,
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
            mirror_shape: MirrorShape::of(&mirror_node, ncols, nrows),
            mirror_node,
            local_prune,
            narrow_min_nodes: NARROW_MIN_NODES,
            memo_after: MEMO_AFTER,
            packing: true,
            room: true,
            dots,
            edge_dots,
            triangles,
            must_cover,
        }
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
/// full checks always run. `offsets` are [`block_offsets`] of `d`.
fn open_block_slots(
    rules: &Rules,
    enterable: &[bool],
    h: usize,
    offsets: &[(isize, isize); 16],
    out: &mut Vec<u32>,
) {
    out.clear();
    if !fill_open_block(rules, enterable, h, offsets, out) {
        out.clear();
    }
}

/// Per incoming direction `d` (left, right, up, down), the slot offsets of
/// a block from its node, in the order the block lists them: for each ring
/// node after the one the line came from, the node, the ring edge to the
/// next ring node (unless that is where the line came from) and, for the
/// nodes straight across, the spoke between it and the centre.
fn block_offsets() -> [[(isize, isize); 16]; 4] {
    // Ring positions in nodes, cyclic: N NE E SE S SW W NW; the node the line
    // came from is opposite the move (a move left came from the east).
    const RING: [(isize, isize); 8] = [
        (0, -1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut out = [[(0, 0); 16]; 4];
    for (d, out) in out.iter_mut().enumerate() {
        let from = [2, 6, 4, 0][d];
        let mut n = 0;
        let mut push = |o: (isize, isize)| {
            out[n] = o;
            n += 1;
        };
        for k in 0..8 {
            if k == from {
                continue;
            }
            let (dx, dy) = RING[k];
            push((2 * dx, 2 * dy));
            let next = (k + 1) % 8;
            if next != from {
                let (ex, ey) = RING[next];
                // The ring edge between ring nodes k and next is their midpoint.
                push((dx + ex, dy + ey));
            }
            if k % 2 == 0 {
                push((dx, dy));
            }
        }
        debug_assert_eq!(n, 16);
    }
    out
}

/// Fills `out` with the block; false when the block is cut.
fn fill_open_block(
    rules: &Rules,
    enterable: &[bool],
    h: usize,
    offsets: &[(isize, isize); 16],
    out: &mut Vec<u32>,
) -> bool {
    let b = &rules.board;
    let (w, hh) = (b.w as isize, b.h as isize);
    let (x, y) = ((h / b.h) as isize, (h % b.h) as isize);
    // Every block has ring nodes two slots away on all four sides.
    if y < 2 || y + 2 >= hh || (!b.pillar && (x < 2 || x + 2 >= w)) {
        return false;
    }
    for &(dx, dy) in offsets {
        let sy = y + dy;
        let mut sx = x + dx;
        if b.pillar {
            if sx < 0 {
                sx += w;
            } else if sx >= w {
                sx -= w;
            }
            if sx < 0 || sx >= w {
                return false;
            }
        }
        let i = (sx * hh + sy) as usize;
        if !enterable[i] {
            return false;
        }
        out.push(i as u32);
    }
    // A pillar too narrow for a ring meets itself: then there is no block.
    if b.pillar && b.w < 8 {
        let before = out.len();
        out.sort_unstable();
        out.dedup();
        return out.len() == before && !out.contains(&(h as u32));
    }
    true
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
    /// Nodes holding dots.
    pub dot_nodes: Bits<N>,
    /// Enterable horizontal edges, as the bit of their west node (across
    /// a pillar's seam: the last column's).
    pub edge_h: Bits<N>,
    /// Enterable vertical edges, as the bit of their north node.
    pub edge_v: Bits<N>,
    /// The horizontal edges of `edge_h` the line may end on.
    pub end_h: Bits<N>,
    /// The vertical edges of `edge_v` the line may end on.
    pub end_v: Bits<N>,
    /// Horizontal edges the line must cover (dotted edges, edges between
    /// squares of different colours), by west node.
    pub must_h: Bits<N>,
    /// Vertical edges the line must cover, by north node.
    pub must_v: Bits<N>,
    /// The nodes of `Plan::must_pass`.
    pub must_pass: Bits<N>,
    /// Nodes with an east neighbour in their row (every column but the
    /// last), enterable or not.
    pub east_in: Bits<N>,
    /// On a pillar, the last column's nodes, whose east neighbour is across
    /// the seam; empty otherwise.
    pub east_wrap: Bits<N>,
    /// Per slot: for an edge with nodes at both ends, its bit in the edge
    /// sets, with [`VERTICAL`] set for vertical edges; `NONE` otherwise.
    pub edge_bit: Vec<u32>,
    /// Per slot: the [`Masks::edge_bit`] of its mirror slot with symmetry
    /// (`NONE` when either has none), its own without.
    pub mirror_bit: Vec<u32>,
    /// Per triangle of [`Plan::triangles`]: its edges as bits of the
    /// horizontal and the vertical edge sets, when every edge it has has a
    /// bit and, with symmetry, a mirror bit, and neither it nor its mirror
    /// is an end (then the edge states count them in a few words).
    pub triangle_bits: Vec<Option<(Bits<N>, Bits<N>)>>,
}

/// The flag of [`Masks::edge_bit`] that marks a vertical edge.
pub const VERTICAL: u32 = 1 << 31;

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
            dot_nodes: Bits::empty(),
            edge_h: Bits::empty(),
            edge_v: Bits::empty(),
            end_h: Bits::empty(),
            end_v: Bits::empty(),
            must_h: Bits::empty(),
            must_v: Bits::empty(),
            must_pass: Bits::empty(),
            east_in: Bits::empty(),
            east_wrap: Bits::empty(),
            edge_bit: vec![NONE; b.len()],
            mirror_bit: Vec::new(),
            triangle_bits: Vec::new(),
        };
        for v in 0..p.nodes() {
            if v % p.ncols + 1 < p.ncols {
                m.east_in.set(v);
            } else if b.pillar {
                m.east_wrap.set(v);
            }
        }
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
        // Edges lie where exactly one coordinate is odd: in even slot rows
        // they run horizontally, in odd ones vertically.
        let edges = (0..b.w).flat_map(|x| (1 - x % 2..b.h).step_by(2).map(move |y| (x, y)));
        for (x, y) in edges {
            let e = x * b.h + y;
            if b.kind[e] != SlotKind::Edge {
                continue;
            }
            let vertical = y % 2 == 1;
            let (back, ahead) = if vertical { (2, 3) } else { (0, 1) };
            let (a, c) = (b.nbr[e][back], b.nbr[e][ahead]);
            if a == NONE || c == NONE {
                continue;
            }
            let (v, w) = (p.node_of[a as usize], p.node_of[c as usize]);
            if v == NONE || w == NONE {
                continue;
            }
            m.edge_bit[e] = v | if vertical { VERTICAL } else { 0 };
            if p.enterable[e] {
                let (set, end) = if vertical {
                    (&mut m.edge_v, &mut m.end_v)
                } else {
                    (&mut m.edge_h, &mut m.end_h)
                };
                set.set(v as usize);
                if b.end[e] {
                    end.set(v as usize);
                }
            }
        }
        m.mirror_bit = if p.symmetric {
            (0..b.len())
                .map(
                    |e| match (m.edge_bit[e], m.edge_bit[b.mirror[e] as usize]) {
                        (NONE, _) | (_, NONE) => NONE,
                        (_, mb) => mb,
                    },
                )
                .collect()
        } else {
            m.edge_bit.clone()
        };
        m.triangle_bits = p
            .triangles
            .iter()
            .map(|&(_, _, edges)| {
                // On a pillar one face wide a face's left and right edges
                // are one edge, which the rules count twice: edge by edge.
                let twice = |i: usize| edges[i] != NONE && edges[i + 1..].contains(&edges[i]);
                if (0..edges.len()).any(twice) {
                    return None;
                }
                let (mut th, mut tv) = (Bits::empty(), Bits::empty());
                for e in edges.into_iter().filter(|&e| e != NONE) {
                    let e = e as usize;
                    let bit = m.edge_bit[e];
                    // With symmetry the edge states are the same at an
                    // edge and at its mirror (both lines cover both; the
                    // reach holds the mirror nodes), but at ends, and a
                    // start that is its own mirror is covered though no
                    // line may enter it (so not in the edge sets).
                    let me = b.mirror[e] as usize;
                    let asymmetric = p.symmetric
                        && (m.mirror_bit[e] == NONE
                            || b.end[e]
                            || b.end[me]
                            || b.start[e]
                            || b.start[me]
                            || p.enterable[e] != p.enterable[me]);
                    if bit == NONE || asymmetric {
                        return None;
                    }
                    let v = (bit & !VERTICAL) as usize;
                    if bit & VERTICAL != 0 {
                        tv.set(v);
                    } else {
                        th.set(v);
                    }
                }
                Some((th, tv))
            })
            .collect();
        for &e in p.must_cover.iter().chain(&p.edge_dots) {
            let bit = m.edge_bit[e as usize];
            if bit == NONE {
                continue;
            }
            let v = (bit & !VERTICAL) as usize;
            if bit & VERTICAL != 0 {
                m.must_v.set(v);
            } else {
                m.must_h.set(v);
            }
        }
        for &s in &p.must_pass {
            m.must_pass.set(p.node_of[s as usize] as usize);
        }
        for &s in &p.dots {
            let v = p.node_of[s as usize];
            if v != NONE {
                m.dot_nodes.set(v as usize);
            }
        }
        m
    }
}

/// Whether node slot `v`, with the faces `around` it (north-west,
/// north-east, south-west, south-east when all four are there), has
/// squares of different colours on opposite corners, all four faces and
/// all four edges inside the board, and no start or end on those edges
/// (a line may stop short on one, covering it only halfway).
fn parts_diagonal_squares(b: &Board, v: usize, around: &[u32; 4]) -> bool {
    if around.contains(&NONE) {
        return false;
    }
    let edges = b.nbr[v];
    let inside = |s: u32| s != NONE && !b.outside[s as usize];
    if !around.iter().chain(&edges).all(|&s| inside(s))
        || edges
            .iter()
            .any(|&e| b.start[e as usize] || b.end[e as usize])
    {
        return false;
    }
    let differ = |f: u32, g: u32| {
        let (f, g) = (f as usize, g as usize);
        b.sym[f] == Sym::Square && b.sym[g] == Sym::Square && b.color[f] != b.color[g]
    };
    differ(around[0], around[3]) || differ(around[1], around[2])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Direction, Pos, Symmetry};

    /// The mirror maps of the three symmetries off a pillar lay out as
    /// whole-set operations; on a pillar they do not.
    #[test]
    fn mirror_maps_have_their_shapes() {
        for (x, y, pillar, want) in [
            (true, false, false, MirrorShape::FlipColumns),
            (false, true, false, MirrorShape::FlipRows),
            (true, true, false, MirrorShape::Turn),
            (true, false, true, MirrorShape::Other),
        ] {
            let mut p = Puzzle::new(4, 3, pillar).unwrap();
            p.symmetry = Some(Symmetry { x, y });
            p.cell_mut(Pos::new(0, 6)).start = true;
            p.cell_mut(Pos::new(2, 0)).end = Some(Direction::Up);
            let plan = Plan::new(&p).unwrap();
            assert_eq!(plan.mirror_shape, want, "x {x}, y {y}, pillar {pillar}");
        }
    }

    /// A triangle of 3: the line covers three of the face's edges, so it
    /// passes all four corners. Not so for a triangle of 2, nor when the
    /// line may stop halfway along an edge of the face.
    #[test]
    fn a_triangle_of_three_needs_its_corners_passed() {
        use crate::model::{Color, Symbol, SymbolKind};
        let panel = |count: u32, end_beside: bool| {
            let mut p = Puzzle::new(3, 3, false).unwrap();
            p.cell_mut(Pos::new(0, 6)).start = true;
            p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Up);
            p.cell_mut(Pos::new(3, 3)).symbol =
                Some(Symbol::new(SymbolKind::Triangle(count), Color::Orange));
            if end_beside {
                p.cell_mut(Pos::new(3, 4)).end = Some(Direction::Down);
            }
            Plan::new(&p).unwrap()
        };
        let corners = |plan: &Plan| {
            [(2, 2), (4, 2), (2, 4), (4, 4)].map(|(x, y)| {
                plan.must_pass
                    .contains(&(plan.rules.board.index(x, y) as u32))
            })
        };
        assert_eq!(corners(&panel(3, false)), [true; 4]);
        assert_eq!(corners(&panel(2, false)), [false; 4]);
        assert_eq!(corners(&panel(3, true)), [false; 4]);
    }

    /// Squares of two colours on opposite corners of a node: the line
    /// must pass that node to part them. Not so for one colour, nor when
    /// the line may stop halfway along an edge of the node.
    #[test]
    fn diagonal_squares_of_two_colours_need_their_node_passed() {
        use crate::model::{Color, Symbol, SymbolKind};
        let square = |c| Some(Symbol::new(SymbolKind::Square, c));
        let panel = |other: Color, end_beside: bool| {
            let mut p = Puzzle::new(3, 3, false).unwrap();
            p.cell_mut(Pos::new(0, 6)).start = true;
            p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Up);
            // Node (2, 2) between faces (1, 1) and (3, 3), slot coordinates.
            p.cell_mut(Pos::new(1, 1)).symbol = square(Color::Black);
            p.cell_mut(Pos::new(3, 3)).symbol = square(other);
            if end_beside {
                p.cell_mut(Pos::new(3, 2)).end = Some(Direction::Right);
            }
            Plan::new(&p).unwrap()
        };
        let node = |plan: &Plan| plan.rules.board.index(2, 2) as u32;
        let plan = panel(Color::White, false);
        assert!(plan.must_pass.contains(&node(&plan)));
        let plan = panel(Color::Black, false);
        assert!(!plan.must_pass.contains(&node(&plan)));
        let plan = panel(Color::White, true);
        assert!(!plan.must_pass.contains(&node(&plan)));
        // Round a pillar, across its seam: node (0, 2) between faces
        // (5, 1) and (1, 3).
        let mut p = Puzzle::new(3, 3, true).unwrap();
        p.cell_mut(Pos::new(0, 6)).start = true;
        p.cell_mut(Pos::new(2, 0)).end = Some(Direction::Up);
        p.cell_mut(Pos::new(5, 1)).symbol = square(Color::Black);
        p.cell_mut(Pos::new(1, 3)).symbol = square(Color::White);
        let plan = Plan::new(&p).unwrap();
        assert!(plan
            .must_pass
            .contains(&(plan.rules.board.index(0, 2) as u32)));
    }
}

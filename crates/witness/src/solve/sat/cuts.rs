//! Reading a model back as a line, and the lazy cuts: clauses added when
//! a model is no solution. Each cut excludes the model it was made from
//! (so the loop advances) and never excludes a solution of the puzzle;
//! each function says why.

use std::collections::VecDeque;

use super::encode::{move_to_side, side_node, side_of_move, Encoding, Term};
use crate::model::{Direction, SlotKind};
use crate::rules::board::{Board, Sym, NONE};

/// A link: an edge slot and the side of it (0 left or up, 1 right or
/// down) where the line runs to the node.
pub type Link = (u32, u8);

/// What a model says of the main line: per slot whether it covers it, per
/// edge slot its links, and the start and end used.
#[derive(Clone, Debug)]
pub struct Model {
    /// Per slot: covered by the main line.
    pub x: Vec<bool>,
    /// Per edge slot: the link on each side is on.
    pub link: Vec<[bool; 2]>,
    /// The start used.
    pub start: usize,
    /// The end used.
    pub end: usize,
}

/// The line from the start a model draws: its slots, moves and links.
#[derive(Clone, Debug, Default)]
pub struct Line {
    /// The start slot.
    pub start: usize,
    /// The slot it stops at.
    pub end: usize,
    /// The moves, one slot each.
    pub moves: Vec<Direction>,
    /// The links it uses, in order.
    pub links: Vec<Link>,
}

/// A model read back: the line from the start, and the loops apart from
/// it (each as its slots and its links).
#[derive(Clone, Debug, Default)]
pub struct Decoded {
    /// The line, when it runs from the start to the end as the degrees
    /// require.
    pub line: Option<Line>,
    /// The covered slots not on the line, in loops.
    pub loops: Vec<(Vec<u32>, Vec<Link>)>,
}

/// The links on at slot `s`, with the neighbour each leads to and the
/// move there (an index of [`Board::nbr`]).
fn links_at(b: &Board, m: &Model, s: usize, out: &mut Vec<(Link, usize, usize)>) {
    out.clear();
    match b.kind[s] {
        SlotKind::Node => {
            for d in 0..4 {
                let e = b.nbr[s][d];
                if e == NONE {
                    continue;
                }
                let k = side_of_move(d);
                if b.kind[e as usize] == SlotKind::Edge && m.link[e as usize][k] {
                    out.push(((e, k as u8), e as usize, d));
                }
            }
        }
        SlotKind::Edge => {
            for k in 0..2 {
                let node = side_node(b, s, k);
                if node != NONE && m.link[s][k] {
                    out.push(((s as u32, k as u8), node as usize, move_to_side(b, s, k)));
                }
            }
        }
        SlotKind::Face => {}
    }
}

/// Reads the line and the loops of a model that satisfies the encoding's
/// degree clauses.
pub fn decode(b: &Board, m: &Model) -> Decoded {
    let n = b.len();
    let mut seen = vec![false; n];
    let mut out = Decoded::default();
    let mut at = Vec::new();
    // The line: from the start, always on along the link not come by.
    let mut line = Line {
        start: m.start,
        end: m.start,
        ..Line::default()
    };
    let mut cur = m.start;
    let mut came: Option<Link> = None;
    seen[cur] = true;
    loop {
        links_at(b, m, cur, &mut at);
        let Some(&(l, next, d)) = at.iter().find(|(l, _, _)| Some(*l) != came) else {
            break;
        };
        if seen[next] {
            break;
        }
        line.moves.push(Direction::ALL[d]);
        line.links.push(l);
        seen[next] = true;
        came = Some(l);
        cur = next;
    }
    line.end = cur;
    if cur == m.end {
        out.line = Some(line);
    }
    // The loops: every other covered slot, component by component.
    let mut queue = VecDeque::new();
    for s in 0..n {
        if !m.x[s] || seen[s] {
            continue;
        }
        let (mut slots, mut links) = (Vec::new(), Vec::new());
        seen[s] = true;
        queue.push_back(s);
        while let Some(c) = queue.pop_front() {
            slots.push(c as u32);
            links_at(b, m, c, &mut at);
            for &(l, next, _) in &at {
                if b.kind[c] == SlotKind::Edge {
                    links.push(l);
                }
                if !seen[next] {
                    seen[next] = true;
                    queue.push_back(next);
                }
            }
        }
        out.loops.push((slots, links));
    }
    out
}

/// An order of terms, to compare clauses.
fn term_key(t: &Term) -> i64 {
    match *t {
        Term::True => i64::MAX,
        Term::False => i64::MIN,
        Term::Lit(l) => l as i64,
    }
}

/// The term of a link.
fn link_term(enc: &Encoding, l: Link) -> Term {
    enc.link[l.0 as usize][l.1 as usize]
}

/// The clause that excludes exactly this line (its start, its end and its
/// links): the solutions the count has found, and the rare model no other
/// cut applies to.
///
/// Sound: a line is its start and its links (it follows them from the
/// start), so any other line differs from it in its start, its end or a
/// link it leaves off. A line using all of these links, from this start
/// to this end, is this line: it follows them from the start to the end,
/// where its degree of one stops it.
pub fn block(enc: &Encoding, line: &Line) -> Vec<Term> {
    let mut c = vec![!enc.st[line.start], !enc.en[line.end]];
    c.extend(line.links.iter().map(|&l| !link_term(enc, l)));
    c
}

/// The same clause for the line drawn backwards (from its end to its
/// start), for undirected puzzles, where a line and its reverse are one
/// solution; `None` when the reverse is no line (its end is no start, or
/// its start no end).
pub fn block_reverse(enc: &Encoding, line: &Line) -> Option<Vec<Term>> {
    let (s, e) = (enc.st[line.end], enc.en[line.start]);
    if s == Term::False || e == Term::False {
        return None;
    }
    let mut c = vec![!s, !e];
    c.extend(line.links.iter().map(|&l| !link_term(enc, l)));
    Some(c)
}

/// The cuts for a loop of a model (its slots and links), apart from the
/// line:
///
/// 1. Not all of its links (as AlcaSAT does). Sound: a solution's links
///    form one simple line, which holds no cycle.
/// 2. The closure cut. Let `Z` be the loop's slots and every slot the loop
///    shuts off from the border of the grid (those a flood from the
///    border, kept off the loop's slots, does not reach). Every link
///    between a slot of `Z` and one outside starts on the loop (a slot
///    shut off has every neighbour in `Z`, or the flood would reach it).
///    A line that covers a slot of `Z` and starts outside `Z` crosses
///    into it along such a link; likewise one that ends outside `Z`. So
///    every solution satisfies both "a link leaves `Z`, or the start is
///    in `Z`" and "a link leaves `Z`, or the end is in `Z`" whenever it
///    covers a slot of `Z`: always, when `Z` holds one of the groups
///    every solution covers a slot of unless one of the group's terms
///    holds ([`Encoding::forced`]: its symbol is switched off, or erased;
///    the cut takes these terms); otherwise at least when it uses a link of the loop (`a` below, a
///    fresh variable that any link of the loop implies). The model breaks them:
///    its loop's slots have both their links on the loop, and its line,
///    apart from the loop, cannot cross into `Z` unless it starts there
///    (then cut 1 excludes it).
pub fn loop_cuts(b: &Board, enc: &mut Encoding, slots: &[u32], links: &[Link]) -> Vec<Vec<Term>> {
    let mut out = vec![links
        .iter()
        .map(|&l| !link_term(enc, l))
        .collect::<Vec<_>>()];
    let n = b.len();
    let mut on_loop = vec![false; n];
    for &s in slots {
        on_loop[s as usize] = true;
    }
    // The flood from the border, kept off the loop.
    let mut reached = vec![false; n];
    let mut queue = VecDeque::new();
    for s in 0..n {
        let p = b.pos(s);
        let border = p.y == 0 || p.y == b.h - 1 || (!b.pillar && (p.x == 0 || p.x == b.w - 1));
        if border && !on_loop[s] {
            reached[s] = true;
            queue.push_back(s);
        }
    }
    while let Some(s) = queue.pop_front() {
        for &j in &b.flood_nbr[s] {
            if j != NONE && !reached[j as usize] && !on_loop[j as usize] {
                reached[j as usize] = true;
                queue.push_back(j as usize);
            }
        }
    }
    let in_z = |s: usize| !reached[s];
    // Links leaving Z, all from loop slots.
    let mut leave = Vec::new();
    for &s in slots {
        let s = s as usize;
        match b.kind[s] {
            SlotKind::Node => {
                for d in 0..4 {
                    let e = b.nbr[s][d];
                    if e != NONE && !in_z(e as usize) {
                        leave.push(enc.node_link(b, s, d));
                    }
                }
            }
            SlotKind::Edge => {
                for k in 0..2 {
                    let node = side_node(b, s, k);
                    if node != NONE && !in_z(node as usize) {
                        leave.push(enc.link[s][k]);
                    }
                }
            }
            SlotKind::Face => {}
        }
    }
    let starts: Vec<Term> = (0..n).filter(|&s| in_z(s)).map(|s| enc.st[s]).collect();
    let ends: Vec<Term> = (0..n).filter(|&s| in_z(s)).map(|s| enc.en[s]).collect();
    let forced = enc
        .forced
        .iter()
        .find(|(g, _)| !g.is_empty() && g.iter().all(|&s| in_z(s as usize)));
    let guard: Vec<Term> = if let Some((_, terms)) = forced {
        terms.clone()
    } else {
        let a = enc.var();
        for &l in links {
            out.push(vec![!link_term(enc, l), a]);
        }
        vec![!a]
    };
    for side in [&starts, &ends] {
        let mut c = guard.clone();
        c.extend(leave.iter().copied());
        c.extend(side.iter().copied());
        out.push(c);
    }
    out
}

/// The mask of `docs/rules.md#regions` for a line: walls (covered nodes
/// and edges, and the outside), pass-through slots (a mid-edge start
/// unless starts are fat, a mid-edge end) and the rest.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mask {
    Open,
    Pass,
    Wall,
}

/// The regions of a line, as the cuts see them: per slot its flood
/// component (or [`NONE`] for walls), and per component its slots.
pub struct Parts {
    mask: Vec<Mask>,
    /// Per slot, its component.
    pub part: Vec<u32>,
    /// Per component, its slots (listed and pass-through).
    pub slots: Vec<Vec<u32>>,
}

impl Parts {
    /// The flood components of the masked grid for the line drawn with
    /// `covered` slots from `start` to `end`.
    pub fn new(b: &Board, covered: &[bool], start: usize, end: usize) -> Parts {
        let n = b.len();
        let mut mask: Vec<Mask> = (0..n)
            .map(|s| {
                if b.outside[s] || (b.kind[s] != SlotKind::Face && covered[s]) {
                    Mask::Wall
                } else {
                    Mask::Open
                }
            })
            .collect();
        if b.kind[start] == SlotKind::Edge {
            mask[start] = if b.fat_startpoints {
                Mask::Wall
            } else {
                Mask::Pass
            };
        }
        if b.kind[end] == SlotKind::Edge {
            mask[end] = Mask::Pass;
        }
        let mut part = vec![NONE; n];
        let mut slots = Vec::new();
        let mut queue = VecDeque::new();
        for s in 0..n {
            if mask[s] == Mask::Wall || part[s] != NONE {
                continue;
            }
            let id = slots.len() as u32;
            let mut these = Vec::new();
            part[s] = id;
            queue.push_back(s);
            while let Some(c) = queue.pop_front() {
                these.push(c as u32);
                for &j in &b.flood_nbr[c] {
                    let j = j as usize;
                    if j != NONE as usize && mask[j] != Mask::Wall && part[j] == NONE {
                        part[j] = id;
                        queue.push_back(j);
                    }
                }
            }
            slots.push(these);
        }
        Parts { mask, part, slots }
    }

    /// "Some wall around component `c` opens": one of the slots that wall
    /// it in (covered nodes and edges, not the outside) is uncovered, or is
    /// a mid-edge start (starts not fat) or end, which the flood passes.
    /// In a line that breaks this, every wall around the component is a
    /// wall again, so the region of any slot of the component stays within
    /// the component's slots.
    pub fn open_walls(&self, b: &Board, enc: &Encoding, c: usize) -> Vec<Term> {
        wall_terms(b, enc, &self.walls(b, c))
    }

    /// The slots that wall component `c` in (covered nodes and edges, not
    /// the outside), in order.
    fn walls(&self, b: &Board, c: usize) -> Vec<usize> {
        let mut wall = Vec::new();
        for &s in &self.slots[c] {
            for &j in &b.flood_nbr[s as usize] {
                if j != NONE && self.mask[j as usize] == Mask::Wall && !b.outside[j as usize] {
                    wall.push(j as usize);
                }
            }
        }
        wall.sort_unstable();
        wall.dedup();
        wall
    }

    /// Of the walls around component `c`, which holds face `a` and no slot
    /// `target` accepts, a set that still keeps `a` from every such slot:
    /// with these walls alone (and the outside) in the way, the flood from
    /// `a` reaches none. Pared down one wall at a time (a wall goes when
    /// the flood without it still reaches none), so no wall of the set can
    /// go; it is not always a smallest such set.
    fn separating_walls(
        &self,
        b: &Board,
        c: usize,
        a: usize,
        target: impl Fn(usize) -> bool,
    ) -> Vec<usize> {
        let walls = self.walls(b, c);
        let n = b.len();
        let mut blocked = vec![false; n];
        for &w in &walls {
            blocked[w] = true;
        }
        let mut seen = vec![false; n];
        let mut queue = VecDeque::new();
        let mut reaches = |blocked: &[bool]| {
            seen.iter_mut().for_each(|v| *v = false);
            seen[a] = true;
            queue.clear();
            queue.push_back(a);
            while let Some(f) = queue.pop_front() {
                if target(f) {
                    return true;
                }
                for &g in &b.flood_nbr[f] {
                    let g = g as usize;
                    if g != NONE as usize && !seen[g] && !blocked[g] && !b.outside[g] {
                        seen[g] = true;
                        queue.push_back(g);
                    }
                }
            }
            false
        };
        debug_assert!(!reaches(&blocked), "the component holds a target");
        let mut kept = Vec::new();
        for &w in &walls {
            blocked[w] = false;
            if reaches(&blocked) {
                blocked[w] = true;
                kept.push(w);
            }
        }
        kept
    }

    /// The region cut of component `c` of the line from `start` to `end`:
    /// not (its listed slots uncovered, its pass-through slots passed
    /// through, the walls around it walls).
    ///
    /// Sound: a region's verdict depends only on its listed slots (their
    /// symbols and dots; a polyomino fit starts from −1 on exactly these,
    /// `docs/rules.md#polyominoes`), the covered edges around its
    /// triangles, and with elimination marks the engine's flood order
    /// (`rules::memo`'s module documentation). Take a line that breaks the clause. Its
    /// listed slots here are uncovered, so no start or end, and open; the
    /// pass-through slots here are its start (starts not fat) or its end,
    /// so pass-through again; the walls around are covered and neither its
    /// mid-edge start nor its mid-edge end, so walls again (the outside is
    /// the same for every line). So its flood from this component's first
    /// slot takes the same slots in the same order, lists the same ones,
    /// and every edge around them is covered as it is here: the same
    /// region with the same failing verdict, and the line is no solution.
    pub fn region_cut(
        &self,
        b: &Board,
        enc: &Encoding,
        c: usize,
        start: usize,
        end: usize,
    ) -> Vec<Term> {
        let mut out = Vec::new();
        for &s in &self.slots[c] {
            let s = s as usize;
            match self.mask[s] {
                Mask::Pass if s == end => out.push(!enc.en[s]),
                Mask::Pass => {
                    debug_assert_eq!(s, start);
                    out.push(!enc.st[s]);
                }
                _ => {
                    if b.kind[s] != SlotKind::Face {
                        out.push(enc.cov[s]);
                    }
                }
            }
        }
        out.extend(self.open_walls(b, enc, c));
        out
    }

    /// The guard of the region cut of failing component `c` (a line's
    /// `covered` slots), in the selector mode: the negated selectors of
    /// symbols of the component whose presence makes its region fail,
    /// whatever other symbols of the panel are switched off. Empty (all
    /// terms false) outside the selector mode.
    ///
    /// The region cut pins the region's slots, its walls and the edges
    /// around its triangles (see [`Parts::region_cut`]), so with the
    /// guard's symbols there, a line that breaks the cut has the same
    /// region with a subset of this one's symbols, those of the guard
    /// among them. Sound when that region fails for every such subset:
    ///
    /// - with an elimination mark in the component, or under the
    ///   Windmill's rules: every symbol of the component (then the region
    ///   is this one);
    /// - else, the first of: an uncovered dot (it fails, and no mark
    ///   erases it); a triangle with the wrong count; two squares of
    ///   different colours; a star with no partner in the component (a
    ///   subset has none either) or its two first partners (a superset of
    ///   these has two or more); these failures do not depend on other
    ///   symbols (`docs/rules.md#symbols`);
    /// - else the component's pieces: a failure that none of the above
    ///   explains is the pieces' fit, which depends only on the region's
    ///   slots and its pieces (`docs/rules.md#polyominoes`).
    pub fn region_guard(&self, b: &Board, enc: &Encoding, c: usize, covered: &[bool]) -> Vec<Term> {
        let slots: Vec<usize> = self.slots[c].iter().map(|&s| s as usize).collect();
        let off = |s: &usize| !enc.sel[*s];
        let face = |s: usize| b.kind[s] == SlotKind::Face && !b.outside[s];
        let all = || slots.iter().map(off).collect::<Vec<Term>>();
        if b.windmill || slots.iter().any(|&s| face(s) && b.sym[s] == Sym::Nega) {
            return all();
        }
        let open = |s: usize| self.mask[s] == Mask::Open && !b.outside[s];
        if let Some(s) = slots
            .iter()
            .find(|&&s| b.kind[s] != SlotKind::Face && open(s) && b.dot[s].is_some())
        {
            return vec![off(s)];
        }
        if let Some(s) = slots.iter().find(|&&s| {
            face(s)
                && matches!(b.sym[s], Sym::Triangle(k)
                    if crate::rules::symbols::triangle_edges(b, covered, s) != k)
        }) {
            return vec![off(s)];
        }
        let squares: Vec<usize> = slots
            .iter()
            .copied()
            .filter(|&s| face(s) && b.sym[s] == Sym::Square)
            .collect();
        if let Some(&a) = squares.first() {
            if let Some(g) = squares.iter().find(|&&g| b.color[g] != b.color[a]) {
                return vec![off(&a), off(g)];
            }
        }
        for &a in &slots {
            if !face(a) || b.sym[a] != Sym::Star {
                continue;
            }
            let partners: Vec<usize> = slots
                .iter()
                .copied()
                .filter(|&g| {
                    g != a
                        && face(g)
                        && !matches!(b.sym[g], Sym::Empty | Sym::Nega)
                        && b.color[g] == b.color[a]
                })
                .take(2)
                .collect();
            if partners.len() != 1 {
                let mut guard = vec![off(&a)];
                guard.extend(partners.iter().map(off));
                return guard;
            }
        }
        let pieces: Vec<Term> = slots
            .iter()
            .filter(|&&s| face(s) && b.sym[s].is_poly())
            .map(off)
            .collect();
        // A region that fails must fail for one of the reasons above or
        // its pieces; with none found, every symbol of the region guards
        // the cut (a region's verdict depends on its own symbols only).
        if pieces.is_empty() {
            return all();
        }
        pieces
    }

    /// The shortest chains of open slots of component `c` (listed,
    /// uncovered) from face `a` to the first `k` slots `target` accepts,
    /// nearest first: each as the target and the nodes and edges on the
    /// way. With none of
    /// these covered, a line leaves them open (an uncovered slot listed
    /// here is inside the panel, and no start or end), and the flood joins
    /// `a` and the target.
    fn chains(
        &self,
        b: &Board,
        c: usize,
        a: usize,
        k: usize,
        target: impl Fn(usize) -> bool,
    ) -> Vec<(usize, Vec<u32>)> {
        // Per slot reached: the slot it was reached from (NONE: not yet).
        let mut from = vec![NONE; b.len()];
        from[a] = a as u32;
        let mut queue = VecDeque::from([a]);
        let mut found = Vec::new();
        'bfs: while let Some(f) = queue.pop_front() {
            for &g in &b.flood_nbr[f] {
                let g = g as usize;
                if g == NONE as usize
                    || self.part[g] != c as u32
                    || self.mask[g] != Mask::Open
                    || from[g] != NONE
                {
                    continue;
                }
                from[g] = f as u32;
                if target(g) {
                    found.push(g);
                    if found.len() == k {
                        break 'bfs;
                    }
                }
                queue.push_back(g);
            }
        }
        found
            .into_iter()
            .map(|target| {
                let (mut g, mut slots) = (target, Vec::new());
                while g != a {
                    if b.kind[g] != SlotKind::Face {
                        slots.push(g as u32);
                    }
                    g = from[g] as usize;
                }
                (target, slots)
            })
            .collect()
    }

    /// The square cuts of component `c`, when it holds squares of two
    /// colours: from each square, along the shortest chain of open slots
    /// to a square of another colour, "one of the chain's nodes and edges
    /// is covered, or a mark erases one of the two squares".
    ///
    /// Sound: with none of the chain covered, the flood joins the two
    /// squares into one region (see `chains`); if neither is erased, the
    /// squares left there after the marks have acted disagree, and fail.
    /// Guarded by the two squares' selectors: the argument needs both
    /// there, and nothing else.
    pub fn square_cuts(&self, b: &Board, enc: &Encoding, c: usize) -> Vec<Vec<Term>> {
        let squares: Vec<usize> = self.slots[c]
            .iter()
            .map(|&s| s as usize)
            .filter(|&s| b.kind[s] == SlotKind::Face && b.sym[s] == Sym::Square)
            .collect();
        let Some(&first) = squares.first() else {
            return Vec::new();
        };
        if squares.iter().all(|&s| b.color[s] == b.color[first]) {
            return Vec::new();
        }
        let mut out: Vec<Vec<Term>> = Vec::new();
        for &a in &squares {
            let other = |g: usize| b.sym[g] == Sym::Square && b.color[g] != b.color[a];
            for (g, chain) in self.chains(b, c, a, 1, other) {
                let mut cut: Vec<Term> = chain.iter().map(|&e| enc.cov[e as usize]).collect();
                cut.extend([enc.erased[a], enc.erased[g], !enc.sel[a], !enc.sel[g]]);
                add_cut(&mut out, cut);
            }
        }
        out
    }

    /// The star cuts of component `c`, for each star that fails there. Its
    /// partners are the elements of its colour other than elimination
    /// marks (a mark is never a star's partner in a region that passes:
    /// it is used up, `docs/rules.md#elimination-marks`).
    ///
    /// - A star with no partner in the whole component: "one of the walls
    ///   that keep it from every partner opens, or a mark erases the
    ///   star", over the walls around the component pared down to a set
    ///   that alone keeps the star from every partner of the panel
    ///   (`separating_walls`). Sound: in a line where each of these is a
    ///   wall (covered, and neither its mid-edge start nor its mid-edge
    ///   end, see `open_walls`), the star's region, a flood kept off that
    ///   line's walls and the outside, lies within the flood kept off
    ///   these walls and the outside alone, which reaches no partner; so
    ///   the star has none in its region and, unless erased, fails.
    /// - A star with two partners or more: for each two of its nearest
    ///   [`STAR_CHAINS`] partners (nearest along shortest chains of open
    ///   slots of the component), "a slot of the chains to the two is
    ///   covered, or a mark erases one of the three". Sound: with none
    ///   covered, the three are in one region (see `chains`), and unless
    ///   one is erased the star fails with more than one partner. A cut
    ///   for each two, rather than for the two nearest alone, spares the
    ///   solver a model for each other way to join the star with two of
    ///   them.
    ///
    ///   A partner may be an element without a flag of its own that a mark
    ///   erases (a subtractive piece, a piece of polyshape 0): then the cut
    ///   holds by a star's flag that the witness assignment lends
    ///   ([`super::pieces`], "The witness assignment"). Take a cut that
    ///   the erased elements' flags leave unmet: it names three elements
    ///   of one region of the solution, of one colour, none with its flag
    ///   set, the first a star. That star is not erased, so the region,
    ///   which passes, keeps exactly two elements of the colour once the
    ///   marks act: the star and one more. The three named are among those
    ///   two and the `k` erased elements of the colour without a flag in
    ///   the region, so `k` is at least one. If `k` is one, every such cut
    ///   names both elements left (one as the star, the other as a
    ///   partner, or the other way), and the flag of a star among them
    ///   meets them all; if `k` is two or more, the flags of the stars
    ///   among them (two at most) do. So at most `k` flags are lent per
    ///   region and colour, one for each mark whose erasure set no flag,
    ///   and the count of flags holds. Stars' flags appear in no clause
    ///   but these cuts (as "or erased") and that count, so the lent
    ///   flags break nothing.
    ///
    /// Guarded by the selectors of the star and of the partners named:
    /// with them there the arguments hold, whatever else is switched off
    /// (a panel with fewer symbols has no partner the component lacks,
    /// and no fewer than the two named).
    pub fn star_cuts(&self, b: &Board, enc: &Encoding, c: usize) -> Vec<Vec<Term>> {
        let faces: Vec<usize> = self.slots[c]
            .iter()
            .map(|&s| s as usize)
            .filter(|&s| b.kind[s] == SlotKind::Face && b.sym[s] != Sym::Empty)
            .collect();
        let mut out: Vec<Vec<Term>> = Vec::new();
        if !faces.iter().any(|&a| b.sym[a] == Sym::Star) {
            return out;
        }
        // Per colour, the elements of the component that may be a star's
        // partner: every face symbol but marks.
        let mut of_colour = vec![0usize; b.n_colors];
        for &g in &faces {
            if b.sym[g] != Sym::Nega {
                of_colour[b.color[g] as usize] += 1;
            }
        }
        for &a in &faces {
            if b.sym[a] != Sym::Star {
                continue;
            }
            let partner = |g: usize| {
                g != a
                    && b.kind[g] == SlotKind::Face
                    && !matches!(b.sym[g], Sym::Empty | Sym::Nega)
                    && b.color[g] == b.color[a]
            };
            // The star itself is one of its colour's elements.
            match of_colour[b.color[a] as usize] - 1 {
                0 => {
                    let walls = self.separating_walls(b, c, a, partner);
                    let mut cut = wall_terms(b, enc, &walls);
                    cut.extend([enc.erased[a], !enc.sel[a]]);
                    add_cut(&mut out, cut);
                }
                1 => {}
                _ => {
                    let chains = self.chains(b, c, a, STAR_CHAINS, partner);
                    for (i, one) in chains.iter().enumerate() {
                        for two in &chains[i + 1..] {
                            let pair = [one, two];
                            let mut cut: Vec<Term> = pair
                                .iter()
                                .flat_map(|(_, chain)| chain)
                                .map(|&e| enc.cov[e as usize])
                                .collect();
                            cut.extend([enc.erased[a], !enc.sel[a]]);
                            cut.extend(pair.iter().map(|&&(g, _)| enc.erased[g]));
                            cut.extend(pair.iter().map(|&&(g, _)| !enc.sel[g]));
                            cut.sort_unstable_by_key(term_key);
                            cut.dedup();
                            add_cut(&mut out, cut);
                        }
                    }
                }
            }
        }
        out
    }

    /// The cuts of failing component `c` when it holds no elimination
    /// mark, on a board with marks: for each of its uncovered dots and
    /// triangles among `fails` (the line's failing elements), "some wall
    /// around the component opens, or the dot is covered (the triangle's
    /// count is right)".
    ///
    /// Sound: take a line that keeps every wall: the region of any slot of
    /// the component then lies within the component's slots (see
    /// `open_walls`), so it holds no mark, nothing erases a failure there,
    /// and an uncovered dot or a triangle with the wrong count fails.
    /// Guarded by the dot's (triangle's) selector: a panel with fewer
    /// symbols has no mark in the component either.
    pub fn plain_cuts(&self, b: &Board, enc: &Encoding, c: usize, fails: &[u32]) -> Vec<Vec<Term>> {
        let mut out = Vec::new();
        let walls = self.open_walls(b, enc, c);
        for &f in fails {
            let f = f as usize;
            if self.part[f] != c as u32 {
                continue;
            }
            let ok = if b.kind[f] != SlotKind::Face {
                enc.cov[f]
            } else if let Sym::Triangle(_) = b.sym[f] {
                enc.tri_ok[f]
            } else {
                continue;
            };
            let mut cut = walls.clone();
            cut.extend([ok, !enc.sel[f]]);
            add_cut(&mut out, cut);
        }
        out
    }

    /// The mark cut of component `c`, when its failures need more
    /// elimination marks than it holds (`covered` per slot for the line):
    /// its failing dots and triangles, each a hard failure that takes a
    /// mark, and pairs of squares of different colours, no square in two
    /// pairs, each joined by the shortest chain of open slots (see
    /// `chains`). The cut: "some wall around the component opens, or one of
    /// these dots and triangles passes, or a slot of these chains is
    /// covered", over as many of them as the component has marks, and one.
    ///
    /// Sound: in a line that keeps every wall, the regions of the
    /// component's slots lie within it (see `open_walls`) and hold its
    /// marks at most. If every one of these dots and triangles still
    /// fails and no slot of the chains is covered, each pair's squares
    /// share a region. A region needs a mark of its own for each of its
    /// hard failures (those left over fail it), and after them one for
    /// each of its pairs: a mark erases one element, and with `t` such
    /// pairs no colour holds more than `t` of their `2t` squares, so at
    /// least `t` must go for its squares to agree
    /// (`docs/rules.md#elimination-marks`). Together they need more marks
    /// than there are, and some region fails. Guarded by the selectors of
    /// the dots, triangles and squares it names: with them there the
    /// demand is the same, and a panel with fewer symbols has no more
    /// marks.
    pub fn mark_cut(
        &self,
        b: &Board,
        enc: &Encoding,
        c: usize,
        covered: &[bool],
    ) -> Option<Vec<Term>> {
        let marks = self.slots[c]
            .iter()
            .filter(|&&s| b.sym[s as usize] == Sym::Nega)
            .count();
        let mut cut: Vec<Term> = enc
            .erasable
            .iter()
            .filter(|&&(s, _, _)| {
                let s = s as usize;
                self.part[s] == c as u32
                    && self.mask[s] == Mask::Open
                    && match b.sym[s] {
                        Sym::Triangle(k) => {
                            crate::rules::symbols::triangle_edges(b, covered, s) != k
                        }
                        _ => b.kind[s] != SlotKind::Face,
                    }
            })
            .map(|&(s, ok, _)| [ok, !enc.sel[s as usize]])
            .take(marks + 1)
            .flatten()
            .collect();
        let mut demand = cut.len() / 2;
        // Pairs of squares of different colours, each square in one pair.
        let mut paired: Vec<usize> = Vec::new();
        let squares: Vec<usize> = self.slots[c]
            .iter()
            .map(|&s| s as usize)
            .filter(|&s| b.kind[s] == SlotKind::Face && b.sym[s] == Sym::Square)
            .collect();
        for &a in &squares {
            if demand > marks {
                break;
            }
            if paired.contains(&a) {
                continue;
            }
            let other = |g: usize| {
                b.sym[g] == Sym::Square && b.color[g] != b.color[a] && !paired.contains(&g)
            };
            let Some((g, chain)) = self.chains(b, c, a, 1, other).pop() else {
                continue;
            };
            paired.push(a);
            paired.push(g);
            cut.extend(chain.iter().map(|&s| enc.cov[s as usize]));
            cut.extend([!enc.sel[a], !enc.sel[g]]);
            demand += 1;
        }
        if demand <= marks {
            return None;
        }
        cut.extend(self.open_walls(b, enc, c));
        Some(cut)
    }
}

/// "Some of these walls opens": each uncovered, or a mid-edge start
/// (starts not fat) or end, which the flood passes.
fn wall_terms(b: &Board, enc: &Encoding, walls: &[usize]) -> Vec<Term> {
    let mut out = Vec::new();
    for &w in walls {
        out.push(!enc.cov[w]);
        if b.kind[w] == SlotKind::Edge {
            if !b.fat_startpoints {
                out.push(enc.st[w]);
            }
            out.push(enc.en[w]);
        }
    }
    out
}

/// The partners a failing star's cuts name at most: the nearest, along
/// shortest chains, and a cut for each two of them.
const STAR_CHAINS: usize = 3;

/// Adds `cut` to `out` unless it is there already (terms in any order).
fn add_cut(out: &mut Vec<Vec<Term>>, mut cut: Vec<Term>) {
    cut.sort_unstable_by_key(term_key);
    if !out.contains(&cut) {
        out.push(cut);
    }
}

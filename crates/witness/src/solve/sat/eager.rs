//! Eager clauses for stars and squares: before any solver call, the
//! short chains of faces that would put symbols into one region where
//! they cannot be together.
//!
//! A chain is a sequence of inside faces, each beside the next across an
//! edge slot (a face's [`Board::flood_nbr`] are its four edges, an edge's
//! its two faces and two nodes). With none of a chain's edges covered, the
//! flood of `docs/rules.md#regions` passes every one of them (an uncovered
//! edge inside the panel is no wall: a wall is a covered slot, and a
//! mid-edge start or end is covered), so the chain's faces are in one
//! region. Hence, for symbols joined by chains that cannot share a region,
//! "one of the chains' edges is covered" holds in every solution:
//!
//! - a star and two other elements of its colour (squares, stars,
//!   triangles, pieces): the star would have more than one partner, a
//!   failure (`docs/rules.md#symbols`);
//! - two squares of different colours: both fail.
//!
//! Only on boards without elimination marks, where no failure is erased
//! (so these failures are final whatever else the region holds). Each
//! clause is guarded by the selectors of the symbols it names: with them
//! there the argument holds, whatever other symbols are switched off.
//!
//! The lazy cuts ([`super::cuts::Parts::star_cuts`],
//! [`super::cuts::Parts::square_cuts`]) say the same for the chains of
//! one model; here every short chain is said at once, so the first models
//! already keep such symbols apart.

use super::encode::{Encoding, Term};
use crate::model::SlotKind;
use crate::rules::board::{Board, Sym, NONE};

/// The most edges of a clause: the edges of the chains from a star to two
/// partners together, or of the chain between two squares.
pub const MAX_EDGES: usize = 4;

/// Per inside face, the faces beside it and the edge between: the steps
/// of a chain.
fn steps(b: &Board) -> Vec<Vec<(usize, usize)>> {
    let n = b.len();
    let inside = |s: usize| b.kind[s] == SlotKind::Face && !b.outside[s];
    let mut out = vec![Vec::new(); n];
    for (f, next) in out.iter_mut().enumerate() {
        if !inside(f) {
            continue;
        }
        for &e in &b.flood_nbr[f] {
            if e == NONE || b.outside[e as usize] || b.kind[e as usize] != SlotKind::Edge {
                continue;
            }
            for &g in &b.flood_nbr[e as usize] {
                if g != NONE && g as usize != f && inside(g as usize) {
                    next.push((g as usize, e as usize));
                }
            }
        }
    }
    out
}

/// Every simple chain from face `a` of at most `max` edges: its last face
/// and its edges (sorted), in no particular order. The empty chain is
/// left out.
fn chains_from(steps: &[Vec<(usize, usize)>], a: usize, max: usize) -> Vec<(usize, Vec<usize>)> {
    let mut out = Vec::new();
    let mut faces = vec![a];
    let mut edges = Vec::new();
    fn walk(
        steps: &[Vec<(usize, usize)>],
        max: usize,
        faces: &mut Vec<usize>,
        edges: &mut Vec<usize>,
        out: &mut Vec<(usize, Vec<usize>)>,
    ) {
        if edges.len() == max {
            return;
        }
        let f = *faces.last().unwrap();
        for &(g, e) in &steps[f] {
            if faces.contains(&g) {
                continue;
            }
            faces.push(g);
            edges.push(e);
            let mut sorted = edges.clone();
            sorted.sort_unstable();
            out.push((g, sorted));
            walk(steps, max, faces, edges, out);
            faces.pop();
            edges.pop();
        }
    }
    walk(steps, max, &mut faces, &mut edges, &mut out);
    out
}

/// Adds the clauses (see the module documentation) of chains of at most
/// [`MAX_EDGES`] edges; returns how many it added.
pub fn add(b: &Board, enc: &mut Encoding) -> u64 {
    add_up_to(b, enc, MAX_EDGES)
}

/// [`add`] with chains of at most `max` edges together.
pub fn add_up_to(b: &Board, enc: &mut Encoding, max: usize) -> u64 {
    if b.has_negations || max == 0 {
        return 0;
    }
    let n = b.len();
    let inside = |s: usize| b.kind[s] == SlotKind::Face && !b.outside[s];
    let has_star = (0..n).any(|s| inside(s) && b.sym[s] == Sym::Star);
    let mut squares = (0..n).filter(|&s| inside(s) && b.sym[s] == Sym::Square);
    let two_colours = squares
        .next()
        .is_some_and(|first| squares.any(|s| b.color[s] != b.color[first]));
    if !has_star && !two_colours {
        return 0;
    }
    let steps = steps(b);
    let mut clauses: Vec<Vec<Term>> = Vec::new();
    let cut = |edges: &[usize], named: &[usize]| -> Vec<Term> {
        let mut c: Vec<Term> = edges.iter().map(|&e| enc.cov[e]).collect();
        c.extend(named.iter().map(|&s| !enc.sel[s]));
        c
    };
    for a in 0..n {
        if !inside(a) || !matches!(b.sym[a], Sym::Star | Sym::Square) {
            continue;
        }
        let chains = chains_from(&steps, a, max);
        if b.sym[a] == Sym::Star {
            let partner =
                |g: usize| !matches!(b.sym[g], Sym::Empty | Sym::Nega) && b.color[g] == b.color[a];
            let to: Vec<&(usize, Vec<usize>)> =
                chains.iter().filter(|(g, _)| partner(*g)).collect();
            for (i, (g1, e1)) in to.iter().enumerate() {
                for (g2, e2) in &to[i + 1..] {
                    if g1 == g2 {
                        continue;
                    }
                    let mut edges: Vec<usize> = e1.iter().chain(e2.iter()).copied().collect();
                    edges.sort_unstable();
                    edges.dedup();
                    if edges.len() <= max {
                        clauses.push(cut(&edges, &[a, *g1, *g2]));
                    }
                }
            }
        } else {
            for (g, edges) in &chains {
                if *g > a && b.sym[*g] == Sym::Square && b.color[*g] != b.color[a] {
                    clauses.push(cut(edges, &[a, *g]));
                }
            }
        }
    }
    let key = |t: &Term| match *t {
        Term::Lit(l) => l as i64,
        Term::True => i64::MAX,
        Term::False => i64::MIN,
    };
    let mut keyed: Vec<Vec<i64>> = Vec::new();
    let mut kept: Vec<Vec<Term>> = Vec::new();
    for mut c in clauses {
        c.sort_unstable_by_key(key);
        keyed.push(c.iter().map(key).collect());
        kept.push(c);
    }
    let mut order: Vec<usize> = (0..kept.len()).collect();
    order.sort_by(|&i, &j| keyed[i].cmp(&keyed[j]));
    order.dedup_by(|i, j| keyed[*i] == keyed[*j]);
    for &i in &order {
        enc.clause(&kept[i]);
    }
    order.len() as u64
}

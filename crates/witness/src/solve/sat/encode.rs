//! The clauses every solution satisfies: the line as booleans per slot,
//! its degrees, its one start and one end, and the symbols whose rule
//! does not depend on regions (dots, triangles; with elimination marks,
//! only the dots' colours), with symmetry and pillars built in.
//!
//! The encoding only has to be *sound*: every solution of the puzzle
//! satisfies it (each constraint below says why). Models that are no
//! solution are caught by the validator and cut away ([`super::cuts`]).
//!
//! # Variables
//! - `x[s]`: the main line (the only line, or the blue one of a symmetry
//!   puzzle) covers slot `s` (a node or an edge). A slot the line may
//!   never enter has none: a gap, with symmetry a slot whose mirror has a
//!   gap, or a self-mirrored slot that is no start (`docs/rules.md#paths`).
//! - `link[e][k]`: the main line runs between edge slot `e` and its node
//!   on side `k` (0 left or up, 1 right or down). For an edge that is no
//!   start and no end this is `x[e]` itself: a line through an edge covers
//!   both its nodes. Starts and ends in the middle of an edge get a
//!   variable per side, since the line leaves them one way only.
//! - `st[s]`, `en[s]`: the line starts, stops at `s` (only on starts and
//!   ends).
//! - `cov[s]`: either line covers `s`: `x[s]`, or with symmetry
//!   `x[s] ∨ x[S(s)]`.
//! - `tri_ok[f]`, with elimination marks: the triangle on face `f` has its
//!   count of covered edges.
//! - `sel[s]`, only in the selector mode ([`Encoding::new_selected`]): the
//!   symbol on slot `s` (a face symbol or a dot) is there. Otherwise, and
//!   for slots without a symbol, `sel[s]` is the constant true.
//!
//! # Selectors
//!
//! In the selector mode the formula speaks of every panel made of this
//! one by keeping only some of its symbols (starts, ends and gaps kept):
//! with `sel` set to "the symbols of `A` are there", every solution of
//! the panel with only the symbols of `A` satisfies it. The clauses that
//! exist only because of a symbol are *guarded* by it (`¬sel[s] ∨
//! clause`): switched off, it drops them, which is what the panel without
//! the symbol asks. The line's own clauses (degrees, starts and ends,
//! gaps, symmetry, pillars) hold for every such panel and are not
//! guarded; each other clause says why it holds with symbols switched
//! off. An unsatisfiable core over the `sel` literals then names symbols
//! that cannot all be there (`docs/ARCHITECTURE.md`, "Why a panel has no solution").
//! Outside this mode every guard is the constant false, which
//! [`Encoding::clause`] drops: the clauses are the same as without
//! selectors.
//!
//! Literals are numbers as in DIMACS (a variable from 1, negative for its
//! negation), so that the encoding does not depend on the solver.

use crate::model::{Dot, Gap, SlotKind};
use crate::rules::board::{Board, Sym, NONE};

/// A literal: a variable number (from 1), negative for the negation.
pub type Lit = i32;

/// A literal or a constant, while clauses are built.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// Always true.
    True,
    /// Always false.
    False,
    /// A literal.
    Lit(Lit),
}

impl std::ops::Not for Term {
    type Output = Term;
    fn not(self) -> Term {
        match self {
            Term::True => Term::False,
            Term::False => Term::True,
            Term::Lit(l) => Term::Lit(-l),
        }
    }
}

/// The side of its edge a node is on, seen from the node moving in
/// direction `d` (an index of [`Board::nbr`]: left, right, up, down).
pub fn side_of_move(d: usize) -> usize {
    // Moving left (or up) reaches the edge's right (or lower) side.
    match d {
        0 | 2 => 1,
        _ => 0,
    }
}

/// The direction (index of [`Board::nbr`]) of the move from edge `e` to
/// its node on side `k`.
pub fn move_to_side(b: &Board, e: usize, k: usize) -> usize {
    let horizontal = b.pos(e).y.is_multiple_of(2);
    if horizontal {
        k
    } else {
        2 + k
    }
}

/// The node on side `k` of edge slot `e`, or [`NONE`].
pub fn side_node(b: &Board, e: usize, k: usize) -> u32 {
    b.nbr[e][move_to_side(b, e, k)]
}

/// The variables and clauses of a puzzle (see the module documentation).
#[derive(Clone, Debug)]
pub struct Encoding {
    /// Variables used so far (numbered 1 to `n_vars`).
    pub n_vars: i32,
    /// Literals of every clause made so far, handed to the solver or
    /// not: what the memory of the clauses and the solver grows with.
    pub n_lits: u64,
    /// The most literals the clauses may hold ([`MAX_LITS`] unless set
    /// otherwise): once past it, further clauses are left out
    /// ([`Encoding::clause`]) and the engine gives up on the panel
    /// ([`Encoding::too_large`]), never using the clauses it holds.
    pub max_lits: u64,
    /// Clauses not yet handed to the solver.
    pub clauses: Vec<Vec<Lit>>,
    /// An empty clause was made: there is no solution.
    pub empty: bool,
    /// Per slot: the main line covers it.
    pub x: Vec<Term>,
    /// Per slot: either line covers it.
    pub cov: Vec<Term>,
    /// Per slot: the line starts there.
    pub st: Vec<Term>,
    /// Per slot: the line stops there.
    pub en: Vec<Term>,
    /// Per edge slot: the line runs to its node on each side.
    pub link: Vec<[Term; 2]>,
    /// Per triangle face: a term that implies its count of covered edges
    /// is right (true, the count being a constraint, without elimination
    /// marks).
    pub tri_ok: Vec<Term>,
    /// With elimination marks, per dot and triangle: the term that says it
    /// passes (`cov` of the dot, `tri_ok` of the triangle), and its
    /// "erased" flag, which every such element that fails has.
    pub erasable: Vec<(u32, Term, Term)>,
    /// Per slot, with elimination marks: "a mark erases the element here"
    /// (dots, triangles, squares, stars, pieces of positive polyshape);
    /// false without marks and for the other elements a mark may erase
    /// (subtractive pieces, pieces of polyshape 0). At most as many are set
    /// as there are marks, since each mark erases one element; a mark that
    /// erases an element without a flag may lend its flag to a star
    /// ([`super::pieces`], "The witness assignment").
    pub erased: Vec<Term>,
    /// Groups of slots of which the main line covers at least one in every
    /// solution where none of the group's terms holds (a dot's slot, a
    /// triangle's edges; the terms are the negated selector of its symbol
    /// and, with elimination marks, its "erased" flag): what the closure
    /// cuts look for inside a loop.
    pub forced: Vec<(Vec<u32>, Vec<Term>)>,
    /// Per slot: its symbol is there (see "Selectors" in the module
    /// documentation); the constant true outside the selector mode.
    pub sel: Vec<Term>,
}

/// The most literals a panel's encoding may hold when it is built: about
/// a gigabyte of memory between the clauses made and the solver's copy of
/// them with its variables (some hundred bytes a literal, measured on
/// large piece panels), where the largest of the dev corpus's encodings
/// holds about 200,000. The largest panels the tool reads (64x64 faces)
/// hold far more where pieces cover a quarter of the faces: tens of
/// millions of literals from thousands of placements of each piece.
/// Past it the engine gives up on the panel with a size error
/// ([`Encoding::too_large`]), and `auto` leaves it to the search.
pub const MAX_LITS: u64 = 8_000_000;

/// The most literals the clauses may hold once the cuts and blocking
/// clauses of a run are added: those the solver alone holds, at some
/// twelve to twenty bytes a literal, so about half a gigabyte more.
pub const MAX_RUN_LITS: u64 = 4 * MAX_LITS;

impl Default for Encoding {
    fn default() -> Encoding {
        Encoding {
            n_vars: 0,
            n_lits: 0,
            max_lits: MAX_LITS,
            clauses: Vec::new(),
            empty: false,
            x: Vec::new(),
            cov: Vec::new(),
            st: Vec::new(),
            en: Vec::new(),
            link: Vec::new(),
            tri_ok: Vec::new(),
            erasable: Vec::new(),
            erased: Vec::new(),
            forced: Vec::new(),
            sel: Vec::new(),
        }
    }
}

impl Encoding {
    /// Whether the clauses made so far hold more than
    /// [`Encoding::max_lits`] literals.
    pub fn too_large(&self) -> bool {
        self.n_lits > self.max_lits
    }

    /// A new variable.
    pub fn var(&mut self) -> Term {
        self.n_vars += 1;
        Term::Lit(self.n_vars)
    }

    /// Adds the clause `terms` (an OR), simplified: a true term drops it,
    /// false terms are left out. Past [`Encoding::max_lits`] nothing is
    /// added: the encoding is then [`Encoding::too_large`] and unused.
    pub fn clause(&mut self, terms: &[Term]) {
        if self.too_large() {
            return;
        }
        let mut lits = Vec::with_capacity(terms.len());
        for &t in terms {
            match t {
                Term::True => return,
                Term::False => {}
                Term::Lit(l) => {
                    if lits.contains(&-l) {
                        return;
                    }
                    if !lits.contains(&l) {
                        lits.push(l);
                    }
                }
            }
        }
        if lits.is_empty() {
            self.empty = true;
        }
        self.n_lits += lits.len() as u64;
        self.clauses.push(lits);
    }

    /// At most one of `terms`: pairwise for a few, else a sequential
    /// counter.
    pub fn at_most_one(&mut self, terms: &[Term]) {
        let t: Vec<Term> = terms
            .iter()
            .copied()
            .filter(|&t| t != Term::False)
            .collect();
        if t.len() <= 5 {
            for i in 0..t.len() {
                for j in i + 1..t.len() {
                    self.clause(&[!t[i], !t[j]]);
                }
            }
            return;
        }
        // s[i]: one of t[0..=i] is true.
        let mut prev = self.var();
        self.clause(&[!t[0], prev]);
        for i in 1..t.len() {
            let s = self.var();
            self.clause(&[!t[i], s]);
            self.clause(&[!prev, s]);
            self.clause(&[!t[i], !prev]);
            prev = s;
        }
    }

    /// At most `k` of `terms`: a sequential counter (`s[i][j]`: more than
    /// `j` of the first `i + 1` terms are true).
    pub fn at_most(&mut self, terms: &[Term], k: usize) {
        let t: Vec<Term> = terms
            .iter()
            .copied()
            .filter(|&t| t != Term::False)
            .collect();
        if t.len() <= k {
            return;
        }
        if k == 0 {
            for &x in &t {
                self.clause(&[!x]);
            }
            return;
        }
        let mut prev: Vec<Term> = Vec::new();
        for (i, &x) in t.iter().enumerate() {
            let s: Vec<Term> = (0..k).map(|_| self.var()).collect();
            self.clause(&[!x, s[0]]);
            if i == 0 {
                for &sj in &s[1..] {
                    self.clause(&[!sj]);
                }
            } else {
                for j in 0..k {
                    self.clause(&[!prev[j], s[j]]);
                    if j > 0 {
                        self.clause(&[!x, !prev[j - 1], s[j]]);
                    }
                }
                self.clause(&[!x, !prev[k - 1]]);
            }
            prev = s;
        }
    }

    /// When `guard` holds, exactly `k` of `terms` (a few, repeats counted
    /// as often as they appear): every `k + 1` of them not all true, every
    /// `n - k + 1` not all false.
    pub fn exactly(&mut self, guard: Term, terms: &[Term], k: usize) {
        let n = terms.len();
        if k > n {
            self.clause(&[!guard]);
            return;
        }
        for mask in 0u32..1 << n {
            let size = mask.count_ones() as usize;
            let pick = |neg: bool| -> Vec<Term> {
                (0..n)
                    .filter(|&i| mask >> i & 1 == 1)
                    .map(|i| if neg { !terms[i] } else { terms[i] })
                    .chain([!guard])
                    .collect()
            };
            if size == k + 1 {
                self.clause(&pick(true));
            }
            if size == n - k + 1 {
                self.clause(&pick(false));
            }
        }
    }

    /// A slot's degree: with `x` the slot is covered and has exactly
    /// `2 - s - e` of `links` on, where `s`, `e` say the line starts, stops
    /// there (both: the line of no moves, no link); without `x`, no link.
    fn degree(&mut self, x: Term, links: &[Term], s: Term, e: Term) {
        let links: Vec<Term> = links
            .iter()
            .copied()
            .filter(|&t| t != Term::False)
            .collect();
        for &l in &links {
            self.clause(&[!l, x]);
        }
        let mut any = links.clone();
        any.push(!x);
        // Covered with no link: the line of no moves.
        self.clause(&[&any[..], &[s]].concat());
        self.clause(&[&any[..], &[e]].concat());
        // Neither start nor end: at least two.
        for a in 0..links.len() {
            let mut c: Vec<Term> = vec![!x, s, e];
            c.extend(
                links
                    .iter()
                    .enumerate()
                    .filter(|&(b, _)| b != a)
                    .map(|(_, &t)| t),
            );
            self.clause(&c);
        }
        for a in 0..links.len() {
            for b in a + 1..links.len() {
                // A start or an end: at most one.
                self.clause(&[!s, !links[a], !links[b]]);
                self.clause(&[!e, !links[a], !links[b]]);
                for c in b + 1..links.len() {
                    self.clause(&[!links[a], !links[b], !links[c]]);
                }
            }
            // Both: none.
            self.clause(&[!s, !e, !links[a]]);
        }
    }

    /// The link term of node `n`'s move in direction `d` (an index of
    /// [`Board::nbr`]).
    pub fn node_link(&self, b: &Board, n: usize, d: usize) -> Term {
        let e = b.nbr[n][d];
        if e == NONE {
            return Term::False;
        }
        self.link[e as usize][side_of_move(d)]
    }

    /// The encoding of a board without polyominoes. With elimination
    /// marks, which may erase an uncovered dot or a triangle, those are
    /// left to the cuts.
    pub fn new(b: &Board) -> Encoding {
        Encoding::new_selected(b, false)
    }

    /// [`Encoding::new`], with a selector per symbol (face symbols inside
    /// the panel, and dots) when `selectors` is true (see "Selectors" in
    /// the module documentation).
    pub fn new_selected(b: &Board, selectors: bool) -> Encoding {
        let n = b.len();
        let sym = b.symmetry.is_some();
        let mut enc = Encoding {
            x: vec![Term::False; n],
            cov: vec![Term::False; n],
            st: vec![Term::False; n],
            en: vec![Term::False; n],
            link: vec![[Term::False; 2]; n],
            tri_ok: vec![Term::True; n],
            erased: vec![Term::False; n],
            sel: vec![Term::True; n],
            ..Encoding::default()
        };
        if selectors {
            for s in 0..n {
                let symbol = if b.kind[s] == SlotKind::Face {
                    b.sym[s] != Sym::Empty
                } else {
                    b.dot[s].is_some()
                };
                if symbol && !b.outside[s] {
                    enc.sel[s] = enc.var();
                }
            }
        }
        // The slots the main line may cover (`docs/rules.md#paths`, rules
        // 2, 3 and 5): nodes first, as edges need their nodes.
        let open = |s: usize| {
            let m = b.mirror[s] as usize;
            b.gap[s] == Gap::None && (!sym || (b.gap[m] == Gap::None && (m != s || b.start[s])))
        };
        for s in 0..n {
            if b.kind[s] == SlotKind::Node && open(s) {
                enc.x[s] = enc.var();
            }
        }
        for e in 0..n {
            if b.kind[e] != SlotKind::Edge || !open(e) {
                continue;
            }
            let nodes = [side_node(b, e, 0), side_node(b, e, 1)];
            let has: [bool; 2] = std::array::from_fn(|k| {
                nodes[k] != NONE && enc.x[nodes[k] as usize] != Term::False
            });
            if b.start[e] || b.end[e] {
                if has[0] || has[1] || (b.start[e] && b.end[e]) {
                    enc.x[e] = enc.var();
                    for k in 0..2 {
                        if has[k] {
                            enc.link[e][k] = enc.var();
                        }
                    }
                }
            } else if has[0] && has[1] && nodes[0] != nodes[1] {
                // A line through the edge enters it from one node and
                // leaves to the other; an edge whose two sides are one node
                // (a pillar one face round) is never passed.
                enc.x[e] = enc.var();
                enc.link[e] = [enc.x[e]; 2];
            }
        }
        for s in 0..n {
            if enc.x[s] == Term::False {
                continue;
            }
            if b.start[s] {
                enc.st[s] = enc.var();
            }
            if b.end[s] {
                enc.en[s] = enc.var();
            }
        }
        // Exactly one start and one end (`docs/rules.md#paths`, rule 6).
        for ends in [false, true] {
            let t: Vec<Term> = if ends { &enc.en } else { &enc.st }
                .iter()
                .copied()
                .filter(|&t| t != Term::False)
                .collect();
            enc.clause(&t);
            enc.at_most_one(&t);
            for s in 0..n {
                let v = if ends { enc.en[s] } else { enc.st[s] };
                let x = enc.x[s];
                enc.clause(&[!v, x]);
            }
        }
        // Degrees: the covered slots form one line from the start to the
        // end, and perhaps loops apart from it (cut later).
        for s in 0..n {
            let x = enc.x[s];
            if x == Term::False {
                continue;
            }
            match b.kind[s] {
                SlotKind::Node => {
                    let links: Vec<Term> = (0..4).map(|d| enc.node_link(b, s, d)).collect();
                    enc.degree(x, &links, enc.st[s], enc.en[s]);
                }
                SlotKind::Edge => {
                    let l = enc.link[s];
                    for k in 0..2 {
                        let node = side_node(b, s, k);
                        if l[k] != Term::False {
                            let nx = enc.x[node as usize];
                            enc.clause(&[!l[k], nx]);
                        }
                    }
                    if l[0] != l[1] {
                        enc.degree(x, &l, enc.st[s], enc.en[s]);
                        if side_node(b, s, 0) == side_node(b, s, 1) {
                            enc.clause(&[!l[0], !l[1]]);
                        }
                    }
                }
                SlotKind::Face => {}
            }
        }
        // Symmetry (`docs/rules.md#paths`, rules 3 and 5): the line never
        // touches its mirror; a self-mirrored slot is only ever the start.
        for s in 0..n {
            let m = b.mirror[s] as usize;
            if !sym || enc.x[s] == Term::False {
                continue;
            }
            if m == s {
                let (x, st) = (enc.x[s], enc.st[s]);
                enc.clause(&[!x, st]);
            } else if s < m {
                let (x, xm) = (enc.x[s], enc.x[m]);
                enc.clause(&[!x, !xm]);
            }
        }
        for s in 0..n {
            if b.kind[s] == SlotKind::Face {
                continue;
            }
            let m = b.mirror[s] as usize;
            enc.cov[s] = match (enc.x[s], if sym && m != s { enc.x[m] } else { Term::False }) {
                (Term::False, t) | (t, Term::False) => t,
                (a, c) => {
                    let v = enc.var();
                    enc.clause(&[!v, a, c]);
                    enc.clause(&[v, !a]);
                    enc.clause(&[v, !c]);
                    v
                }
            };
        }
        // Dots (`docs/rules.md#symbols`): a blue (yellow) dot under the
        // other line fails, an error nothing erases; with symmetry a
        // self-mirrored start is drawn yellow, and the yellow line covers
        // `s` where the main line covers `S(s)`. Without elimination marks
        // an uncovered dot inside the panel fails too, and nothing erases
        // it: the main line covers the dot or, with symmetry, its mirror.
        // Each of these clauses is there for the dot alone, and guarded by
        // its selector: a panel without the dot asks none of them.
        let marks = b.has_negations;
        for s in 0..n {
            if b.kind[s] == SlotKind::Face || !b.dot[s].is_some() || b.outside[s] {
                continue;
            }
            let m = b.mirror[s] as usize;
            let off = !enc.sel[s];
            match b.dot[s] {
                Dot::Blue if sym => {
                    let xm = enc.x[m];
                    enc.clause(&[off, !xm]);
                }
                Dot::Yellow if sym && m != s => {
                    let x = enc.x[s];
                    enc.clause(&[off, !x]);
                }
                _ => {}
            }
            // The slots the main line covers when the dot is covered and
            // of the right colour.
            let group: Vec<u32> = match b.dot[s] {
                Dot::Blue if sym && m == s => vec![],
                Dot::Blue if sym => vec![s as u32],
                Dot::Yellow if sym => vec![m as u32],
                _ if sym && m != s => vec![s as u32, m as u32],
                _ => vec![s as u32],
            };
            if marks {
                // A dot that fails is erased (below), so the group is
                // covered unless the dot has its flag.
                enc.erased[s] = enc.var();
                enc.erasable.push((s as u32, enc.cov[s], enc.erased[s]));
                enc.forced.push((group, vec![off, enc.erased[s]]));
                continue;
            }
            let mut t: Vec<Term> = group.iter().map(|&g| enc.x[g as usize]).collect();
            t.push(off);
            enc.clause(&t);
            enc.forced.push((group, vec![off]));
        }
        // Triangles: exactly their count of the face's four edges covered
        // by either line, a failure that without elimination marks nothing
        // erases. With marks, `tri_ok[f]` (a fresh variable) implies the
        // count, for the cuts to use. The count is there for the triangle
        // alone: without marks it is guarded by the triangle's selector
        // (the constant true outside the selector mode), with marks
        // `tri_ok[f]` is free and the clause that asks for it is guarded
        // below.
        for f in 0..n {
            let Sym::Triangle(k) = b.sym[f] else { continue };
            if b.kind[f] != SlotKind::Face || b.outside[f] {
                continue;
            }
            let edges: Vec<u32> = b.nbr[f].iter().copied().filter(|&e| e != NONE).collect();
            let t: Vec<Term> = edges.iter().map(|&e| enc.cov[e as usize]).collect();
            enc.tri_ok[f] = if marks { enc.var() } else { Term::True };
            let guard = if marks { enc.tri_ok[f] } else { enc.sel[f] };
            enc.exactly(guard, &t, k as usize);
            if marks {
                enc.erased[f] = enc.var();
                enc.erasable.push((f as u32, enc.tri_ok[f], enc.erased[f]));
            }
            if k > 0 {
                // Some edge is covered by either line when the count holds:
                // always without marks, and with marks unless the triangle
                // has its "erased" flag (one that fails has it, below).
                let mut group: Vec<u32> = edges.clone();
                if sym {
                    group.extend(edges.iter().map(|&e| b.mirror[e as usize]));
                }
                enc.forced.push((group, vec![!enc.sel[f], enc.erased[f]]));
            }
        }
        // With elimination marks (`docs/rules.md#elimination-marks`): in a
        // solution, set the flag of each element a mark erases. A dot or
        // triangle that fails is a hard failure, erased by a mark of its
        // own (those left over fail their region), so it has its flag. A
        // mark erases one element, so at most as many flags are set as
        // there are marks. Squares and stars get flags for the cuts. The
        // clause that a dot or triangle passes or is erased is there for
        // it alone, and guarded by its selector. The count of flags is
        // not: a panel with fewer symbols has no more marks, and its
        // solutions set no more flags.
        if marks {
            for s in 0..n {
                let face = b.kind[s] == SlotKind::Face && !b.outside[s];
                if face && matches!(b.sym[s], Sym::Square | Sym::Star) {
                    enc.erased[s] = enc.var();
                }
            }
            let erasable = std::mem::take(&mut enc.erasable);
            for &(s, ok, erased) in &erasable {
                let off = !enc.sel[s as usize];
                enc.clause(&[ok, erased, off]);
            }
            enc.erasable = erasable;
            let flags: Vec<Term> = enc.erased.clone();
            let m = (0..n).filter(|&f| b.sym[f] == Sym::Nega).count();
            enc.at_most(&flags, m);
        }
        enc
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// True when some value of the encoding's own variables (those past
    /// the first `n`) satisfies every clause of `enc` with the first `n`
    /// variables set as the bits of `a` (variable `v` is bit `v - 1`).
    pub(crate) fn admits(enc: &Encoding, n: i32, a: u32) -> bool {
        let aux = (enc.n_vars - n) as u32;
        (0u64..1 << aux).any(|h| {
            let val = |l: Lit| {
                let v = l.unsigned_abs();
                let bit = if v <= n as u32 {
                    (a >> (v - 1) & 1) as u64
                } else {
                    h >> (v - 1 - n as u32) & 1
                };
                (bit == 1) == (l > 0)
            };
            enc.clauses.iter().all(|c| c.iter().any(|&l| val(l)))
        })
    }

    /// Every assignment of four terms satisfies `exactly(k)` exactly when
    /// `k` of them are true, repeats counted.
    #[test]
    fn exactly_counts_with_repeats() {
        for k in 0..=5 {
            for shape in [[1, 2, 3, 4], [1, 1, 2, 3], [1, 2, 1, 2]] {
                let mut enc = Encoding::default();
                let terms: Vec<Term> = shape.iter().map(|&v| Term::Lit(v)).collect();
                enc.n_vars = 4;
                enc.exactly(Term::True, &terms, k);
                for a in 0u32..16 {
                    let val = |l: Lit| (a >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0);
                    let sat = !enc.empty && enc.clauses.iter().all(|c| c.iter().any(|&l| val(l)));
                    let count = shape.iter().filter(|&&v| val(v)).count();
                    assert_eq!(sat, count == k, "k {k} shape {shape:?} assignment {a:04b}");
                }
            }
        }
    }

    /// The sequential counter of `at_most` allows every assignment with at
    /// most `k` true terms, and no other.
    #[test]
    fn at_most_k_is_exact() {
        let n = 5;
        for k in 0..=5 {
            let mut enc = Encoding {
                n_vars: n,
                ..Encoding::default()
            };
            let terms: Vec<Term> = (1..=n).map(Term::Lit).collect();
            enc.at_most(&terms, k);
            for a in 0u32..1 << n {
                let sat = admits(&enc, n, a);
                assert_eq!(
                    sat,
                    a.count_ones() as usize <= k,
                    "k {k} assignment {a:05b}"
                );
            }
        }
    }

    /// The sequential counter allows every assignment with at most one
    /// true term, and no other.
    #[test]
    fn at_most_one_is_exact() {
        let n = 7;
        let mut enc = Encoding {
            n_vars: n,
            ..Encoding::default()
        };
        let terms: Vec<Term> = (1..=n).map(Term::Lit).collect();
        enc.at_most_one(&terms);
        let aux = enc.n_vars - n;
        for a in 0u32..1 << n {
            // Some value of the counter's variables satisfies every clause.
            let sat = (0u32..1 << aux).any(|h| {
                let val = |l: Lit| {
                    let v = l.unsigned_abs();
                    let bit = if v <= n as u32 {
                        a >> (v - 1) & 1
                    } else {
                        h >> (v - 1 - n as u32) & 1
                    };
                    (bit == 1) == (l > 0)
                };
                enc.clauses.iter().all(|c| c.iter().any(|&l| val(l)))
            });
            assert_eq!(sat, a.count_ones() <= 1, "assignment {a:07b}");
        }
    }
}

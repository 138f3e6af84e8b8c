//! Polyominoes in the SAT engine: one boolean per placement of each piece,
//! tied to the line by clauses that every solution satisfies
//! (`docs/rules.md#polyominoes`, `docs/ARCHITECTURE.md`, "The SAT engine").
//!
//! The clauses are a sound relaxation: for every solution of the puzzle
//! some value of the variables below satisfies them all (each clause says
//! why), but a model may still put a piece in another piece's region. The
//! validator is the referee, and a failing region is cut away exactly
//! ([`super::cuts::Parts::region_cut`]), which is sound for pieces too: a
//! fit depends only on the region's listed slots (subtractive pieces lie
//! anywhere on the grid, which is the same for every line).
//!
//! # Subtractive pieces
//!
//! A region that holds a subtractive piece (`ylop`, of `polyshape` other
//! than 0) has a fit whose pieces may overlap, leave the region and the
//! panel's faces uncovered where the subtractive pieces cancel them
//! (`docs/rules.md#polyominoes`). The pieces of such a region are *free*:
//! they get no placement, and their region is left to the validator and
//! its region cut. A region without one is judged as if no panel had
//! subtractive pieces: its net area is the area of its pieces, and a fit
//! with pieces of any area covers every face of the region exactly once,
//! no slot outside it, and (with precise pieces) no wall inside it.
//! Subtractive pieces themselves have no variables.
//!
//! # The witness assignment
//!
//! Every soundness argument below uses the same values, read off a
//! solution: `free[p]` is true when the region of piece `p` holds a
//! subtractive piece; in each region without one, the pieces a mark does
//! not erase (`docs/rules.md#elimination-marks`: in a region that passes
//! they are left after the marks act, and must fit) are put where one fit
//! of the region puts them; `place[p][i]` is true for the placement `i`
//! piece `p` has there, false for every other, for every placement of an
//! erased piece and of a free one; `erased` is the engine's flag
//! ([`Encoding::erased`]), set for the elements the marks erase that have
//! one (subtractive pieces and pieces of polyshape 0 have none), and
//! lent, for each mark that erases an element without one, to a star of
//! that element's colour left in its region when a star cut needs it (at
//! most one flag a mark; [`super::cuts::Parts::star_cuts`] says why this
//! is enough and harmless); `cover[f]`
//! is true when a placement covers face `f`. So every placement lies in a
//! region without subtractive pieces. In the selector mode
//! ([`Encoding::sel`]) the pieces are those of the symbols there: a piece
//! switched off has no placement and no flag, a subtractive piece
//! switched off makes no piece free, and only the clauses that ask for a
//! piece's placement or speak of one subtractive piece are guarded by its
//! selector; the others hold for every set of pieces, as their arguments
//! show.
//!
//! # Variables
//! - `place[p][i]`: piece `p` lies at its placement `i` (an orientation of
//!   its shape at an offset, wrapping on pillars, every footprint slot
//!   inside the panel, none twice).
//! - `cover[f]`: some placement covers face `f`.
//! - `free[p]`, on panels with subtractive pieces: piece `p` is free (the
//!   constant false on other panels).
//! - `full[f]`, on panels with subtractive pieces and no elimination
//!   marks: the region of face `f` has a positive net area
//!   (`net_count`).

use super::cuts::Parts;
use super::encode::{Encoding, Term};
use crate::model::SlotKind;
use crate::rules::board::{Board, Sym, NONE};
use crate::rules::symbols::PolyTables;
use crate::solve::limits::Limits;

/// True when face `f` of board `b` holds a subtractive piece the rules
/// do not ignore (`polyshape` 0 is none).
fn is_ylop(b: &Board, f: usize) -> bool {
    b.kind[f] == SlotKind::Face
        && !b.outside[f]
        && matches!(b.sym[f], Sym::Ylop(i) if !b.shapes[i as usize].is_ignored())
}

/// What the piece encoding made, for benchmarks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PieceStats {
    /// Pieces encoded (polyshape 0 is no piece).
    pub pieces: u64,
    /// Placement variables.
    pub placements: u64,
    /// The region labels are encoded (`labels`).
    pub labelled: bool,
}

/// One piece: its face, its kind, its placement variables (in the
/// order of its kind's placements, those left out skipped) with the faces
/// each covers, and its `free` term.
struct Piece {
    face: usize,
    kind: usize,
    place: Vec<Term>,
    faces: Vec<Vec<u32>>,
    free: Term,
}

/// The pieces of a board as encoded, for the cuts.
#[derive(Default)]
pub struct Pieces {
    pieces: Vec<Piece>,
    /// The clauses of the area cardinality ([`encode`]), for the engine
    /// to add once the solver struggles without them: they make easy
    /// panels slower and hard tilings much faster.
    pub area: Vec<Vec<super::encode::Lit>>,
    /// What the encoding made.
    pub stats: PieceStats,
    /// The region labels ([`labels`]) per piece and slot, if encoded.
    labels: Option<Vec<Vec<Term>>>,
}

impl Pieces {
    /// The label cut of component `c` of a line's regions (`parts`), with
    /// region labels ([`labels`]): a fresh variable `k` that holds whenever
    /// every wall around the component holds, and under `k` no label of a
    /// piece whose face is inside holds on the face of a piece outside;
    /// when no piece's face is inside, no label holds on a face inside.
    /// Empty without labels or when nothing is banned.
    ///
    /// Sound: in a line that keeps every wall around the component, the
    /// region of any slot of the component lies within the component's
    /// slots ([`Parts::open_walls`]), so the region of a piece whose face
    /// is inside holds no face outside, and a region holding a face inside
    /// holds no face outside; in the witness assignment a label holds
    /// exactly on its piece's region.
    pub fn label_cut(
        &self,
        b: &Board,
        enc: &mut Encoding,
        parts: &Parts,
        c: usize,
    ) -> Vec<Vec<Term>> {
        let Some(r) = &self.labels else {
            return Vec::new();
        };
        let inside = |f: usize| parts.part[f] == c as u32;
        let (ins, outs): (Vec<usize>, Vec<usize>) =
            (0..self.pieces.len()).partition(|&i| inside(self.pieces[i].face));
        let mut banned: Vec<Term> = Vec::new();
        if ins.is_empty() {
            for &s in &parts.slots[c] {
                let s = s as usize;
                if b.kind[s] == SlotKind::Face {
                    banned.extend(r.iter().map(|l| l[s]).filter(|&t| t != Term::False));
                }
            }
        } else {
            for &i in &ins {
                for &j in &outs {
                    banned.push(r[i][self.pieces[j].face]);
                }
            }
        }
        walled_bans(b, enc, parts, c, banned)
    }

    /// The confinement cut of component `c` of a line's regions
    /// (`parts`): a fresh variable `k` that holds whenever every wall
    /// around the component holds, and under `k` no placement lies partly
    /// inside the component and partly outside; none of a kind whose
    /// pieces all have their faces inside lies partly outside; none of a
    /// kind whose pieces all have their faces outside lies partly inside.
    /// When the component holds no subtractive piece, under `k` no piece
    /// whose face is inside is free. Empty when nothing is banned.
    ///
    /// Sound: in a line that keeps every wall around the component, the
    /// region of any slot of the component lies within the component's
    /// slots ([`Parts::open_walls`]), so a piece's region is within the
    /// component exactly when its face is; in the witness assignment (the
    /// module documentation) every placed piece lies in its own region,
    /// and a piece whose region (within the component) holds no
    /// subtractive piece is not free. So the witness assignment, with `k`
    /// true exactly when the walls hold, satisfies these clauses. They speak of kinds, never of which
    /// piece of a kind lies where, so they hold as well when pieces of one
    /// kind swap placements (which the order of pieces of one kind in
    /// [`encode`] relies on).
    pub fn confine_cut(
        &self,
        b: &Board,
        enc: &mut Encoding,
        parts: &Parts,
        c: usize,
    ) -> Vec<Vec<Term>> {
        let inside = |f: u32| parts.part[f as usize] == c as u32;
        // Per kind: some piece's face inside, some outside.
        let mut home: std::collections::HashMap<usize, (bool, bool)> = Default::default();
        for p in &self.pieces {
            let h = home.entry(p.kind).or_default();
            if inside(p.face as u32) {
                h.0 = true;
            } else {
                h.1 = true;
            }
        }
        let mut banned: Vec<Term> = Vec::new();
        for p in &self.pieces {
            let (some_in, some_out) = home[&p.kind];
            for (y, faces) in p.place.iter().zip(&p.faces) {
                let any_in = faces.iter().any(|&f| inside(f));
                let any_out = faces.iter().any(|&f| !inside(f));
                let ban = match (any_in, any_out) {
                    (true, true) => true,
                    (true, false) => !some_in,
                    (false, true) => !some_out,
                    (false, false) => false,
                };
                if ban {
                    banned.push(*y);
                }
            }
        }
        let ylops = parts.slots[c].iter().any(|&f| is_ylop(b, f as usize));
        if !ylops {
            for p in &self.pieces {
                if inside(p.face as u32) && p.free != Term::False {
                    banned.push(p.free);
                }
            }
        }
        walled_bans(b, enc, parts, c, banned)
    }
}

/// The clauses of a cut that bans the terms `banned` while every wall
/// around component `c` of a line's regions (`parts`) holds: a fresh
/// variable `k` that holds whenever they all do, and `¬k ∨ ¬y` for each
/// banned `y`; empty when nothing is banned. Sound whenever each banned
/// term is false in the witness assignment of every solution that keeps
/// those walls (as its callers argue).
fn walled_bans(
    b: &Board,
    enc: &mut Encoding,
    parts: &Parts,
    c: usize,
    banned: Vec<Term>,
) -> Vec<Vec<Term>> {
    if banned.is_empty() {
        return Vec::new();
    }
    let k = enc.var();
    let mut hold = parts.open_walls(b, enc, c);
    hold.push(k);
    let mut out = vec![hold];
    out.extend(banned.into_iter().map(|y| vec![!k, !y]));
    out
}

/// The balance cut of component `c` of a line's regions (`parts`), when
/// it holds no elimination mark and the net area of its pieces (that of
/// its pieces less that of its subtractive pieces) is below 0 or above
/// the number of its faces: "some wall around the component opens"
/// ([`Parts::open_walls`]), with the negated selectors of the component's
/// pieces and subtractive pieces as its guard. `None` otherwise.
///
/// Sound: in a line that keeps every wall around the component, the
/// region of any slot of the component lies within the component's slots
/// ([`Parts::open_walls`]), so the component's faces are split among
/// regions within it, and the net areas of these regions add up to the
/// component's. Below 0, some region has a net area below 0: no fit
/// (`docs/rules.md#polyominoes`). Above the number of faces, some region
/// has a net area above its own number of faces, hence above 0 and not
/// equal to it: no fit. Either region fails, and with no mark in the
/// component nothing erases its pieces. With the guard's symbols there,
/// the component holds the same pieces whatever other symbols are
/// switched off, and no mark.
pub fn balance_cut(
    b: &Board,
    t: &PolyTables,
    enc: &Encoding,
    parts: &Parts,
    c: usize,
) -> Option<Vec<Term>> {
    let mut net = 0isize;
    let mut faces = 0isize;
    let mut guard = Vec::new();
    for &s in &parts.slots[c] {
        let s = s as usize;
        if b.kind[s] != SlotKind::Face || b.outside[s] {
            continue;
        }
        faces += 1;
        if b.sym[s] == Sym::Nega {
            return None;
        }
        let Some(area) = signed_area(b, t, s) else {
            continue;
        };
        net += area;
        guard.push(!enc.sel[s]);
    }
    if net >= 0 && net <= faces {
        return None;
    }
    let mut cut = parts.open_walls(b, enc, c);
    cut.extend(guard);
    Some(cut)
}

/// The area of the piece on slot `s` of `b`, negative for a subtractive
/// piece; `None` for no piece or one the rules ignore (polyshape 0).
fn signed_area(b: &Board, t: &PolyTables, s: usize) -> Option<isize> {
    let (si, sub) = match b.sym[s] {
        Sym::Poly(si) => (si, false),
        Sym::Ylop(si) => (si, true),
        _ => return None,
    };
    let kind = &t.kinds[t.kind_of_shape[si as usize][sub as usize] as usize];
    if kind.ignored {
        return None;
    }
    let size = kind.size as isize;
    Some(if sub { -size } else { size })
}

/// True when no slot appears twice in `slots`.
fn distinct(slots: &[u32]) -> bool {
    slots
        .iter()
        .enumerate()
        .all(|(i, s)| !slots[..i].contains(s))
}

/// Adds the placement encoding of the pieces of `b` to `enc` (a board
/// the engine takes: [`super::unsupported`]); with `with_labels`, outside
/// the selector mode and where every line separates the faces beside its
/// edges ([`separates`]), the region labels (`labels`) too. `None` when
/// `limits` stopped it first, or its clauses grew past the encoding's
/// ceiling ([`Encoding::max_lits`]; it looks at both between its parts),
/// with `enc` part-made.
pub fn encode(
    b: &Board,
    t: &PolyTables,
    enc: &mut Encoding,
    with_labels: bool,
    limits: &Limits,
) -> Option<Pieces> {
    let n = b.len();
    let marks = b.has_negations;
    let ylops = (0..n).any(|f| is_ylop(b, f));
    let mut stats = PieceStats::default();
    let mut pieces: Vec<Piece> = Vec::new();
    // Per face: the placements covering it.
    let mut covering: Vec<Vec<Term>> = vec![Vec::new(); n];
    // Faces some piece needs covered, with the piece's erased flag and
    // its free term.
    let mut needed: Vec<(usize, Term, Term)> = Vec::new();
    for f in 0..n {
        let Sym::Poly(si) = b.sym[f] else { continue };
        if b.kind[f] != SlotKind::Face || b.outside[f] {
            continue;
        }
        let k = t.kind_of_shape[si as usize][0] as usize;
        let kind = &t.kinds[k];
        if kind.ignored {
            continue; // polyshape 0 is no piece at all
        }
        stats.pieces += 1;
        if marks {
            enc.erased[f] = enc.var();
        }
        let erased = enc.erased[f];
        let free = if ylops { enc.var() } else { Term::False };
        if kind.size == 0 {
            // A shape of no squares is never placed; its region needs
            // pieces of some area, whose net area (no ylops: it is not
            // free) is then positive: the region is covered, its face
            // among it. Unless shapeless zero-area sets pass (then nothing
            // is needed), or a mark erases it.
            if !b.shapeless_zero_poly {
                needed.push((f, erased, free));
            }
            continue;
        }
        if limits.expired() || enc.too_large() {
            return None;
        }
        let pl = t.placements(b, k);
        let mut place = Vec::new();
        let mut placed = Vec::new();
        for i in 0..pl.len() {
            let (faces, others) = pl.parts(i as u32);
            // A placement with a slot outside the panel, or a slot twice
            // (a footprint wrapping onto itself on a narrow pillar), puts
            // a slot above 0 in any region without ylops (nothing lowers
            // it): no fit of a piece that is not free uses it.
            let all: Vec<u32> = faces.iter().chain(others).copied().collect();
            if all.iter().any(|&s| b.outside[s as usize]) || !distinct(&all) {
                continue;
            }
            let y = enc.var();
            place.push(y);
            placed.push(faces.to_vec());
            for &g in faces {
                covering[g as usize].push(y);
            }
            // Its other slots (the edges between adjacent squares, with
            // precise pieces) must be listed slots of the region: a fit
            // raises each to 0 from the region's −1, and an unlisted slot
            // would go above 0. A slot the line covers is unlisted (a wall,
            // or an unlisted mid-edge start or end). Sound: in the witness
            // assignment the placement is a fit's.
            for &s in others {
                let c = enc.cov[s as usize];
                enc.clause(&[!y, !c]);
            }
        }
        stats.placements += place.len() as u64;
        // Exactly one placement unless erased or free, none if erased or
        // free. Sound: the witness assignment places each piece no mark
        // erases and that is not free once (a region with such a piece
        // fits it), and no other. The "one" is guarded by the piece's
        // selector: a piece switched off has none.
        let mut one = place.clone();
        one.extend([erased, free, !enc.sel[f]]);
        enc.clause(&one);
        enc.at_most_one(&place);
        for gone in [erased, free] {
            if gone != Term::False {
                for &y in &place {
                    enc.clause(&[!gone, !y]);
                }
            }
        }
        // Its own face is covered unless it is erased or free. Sound: a
        // piece that is neither has positive area, its region's net area
        // is that of its pieces (no ylops), so the fit covers every face
        // of the region, this one among them. Guarded by the piece's
        // selector (below), as is the same clause for an empty shape.
        needed.push((f, erased, free));
        pieces.push(Piece {
            face: f,
            kind: k,
            place,
            faces: placed,
            free,
        });
    }
    // cover[f] is exactly "some placement covers f"; no two placements
    // cover one face. Sound: a fit of a region without ylops covers each
    // face of its region once, and pieces of different regions lie in
    // different regions, whose faces are disjoint.
    if limits.expired() || enc.too_large() {
        return None;
    }
    let mut cover = vec![Term::False; n];
    for f in 0..n {
        let list = &covering[f];
        cover[f] = match list.len() {
            0 => Term::False,
            1 => list[0],
            _ => {
                let c = enc.var();
                let mut any = vec![!c];
                any.extend(list.iter().copied());
                enc.clause(&any);
                for &y in list {
                    enc.clause(&[!y, c]);
                }
                c
            }
        };
        let list = std::mem::take(&mut covering[f]);
        enc.at_most_one(&list);
    }
    for &(f, erased, free) in &needed {
        let off = !enc.sel[f];
        enc.clause(&[erased, free, cover[f], off]);
    }
    // A face with a ylop is never covered. Sound: every placement of the
    // witness assignment lies in a region without ylops. Guarded by the
    // ylop's selector: switched off, it frees no piece.
    for g in (0..n).filter(|&g| is_ylop(b, g)) {
        let off = !enc.sel[g];
        enc.clause(&[!cover[g], off]);
    }
    // The area cardinality: between `lo` and `hi` faces are covered,
    // `hi` the area of all pieces, `lo` that less the largest pieces as
    // many as there are marks (0 with ylops: every piece may be free).
    // Sound: it follows from the clauses above (each piece neither erased
    // nor free has one placement, of `size` distinct faces, no face
    // covered twice, no erased or free piece placed, at most as many
    // flags as marks), so the witness assignment satisfies it. It only
    // spells that count out for the solver, which cannot count by
    // resolution; kept apart ([`Pieces::area`]) since it slows easy
    // panels.
    let mut sizes: Vec<usize> = pieces.iter().map(|p| t.kinds[p.kind].size).collect();
    sizes.sort_unstable_by(|a, b| b.cmp(a));
    let hi: usize = sizes.iter().sum();
    let m = if marks {
        (0..n).filter(|&f| b.sym[f] == Sym::Nega).count()
    } else {
        0
    };
    let lo = if ylops {
        0
    } else {
        hi - sizes.iter().take(m).sum::<usize>()
    };
    let selectors = enc.sel.iter().any(|&s| s != Term::True);
    let faces: Vec<Term> = cover
        .iter()
        .copied()
        .filter(|&c| c != Term::False)
        .collect();
    if lo > faces.len() {
        // More area than faces to cover: not every piece can be there.
        // Guarded by the pieces' selectors (a piece switched off needs no
        // room; marks switched off only raise `lo`); outside the selector
        // mode the clause is empty and the panel has no solution.
        let guard: Vec<Term> = pieces.iter().map(|p| !enc.sel[p.face]).collect();
        enc.clause(&guard);
    }
    if limits.expired() || enc.too_large() {
        return None;
    }
    let start = enc.clauses.len();
    between(enc, &faces, lo, hi);
    let area = enc.clauses.split_off(start);
    // A covered face spreads its cover across every edge the line leaves
    // uncovered: "cover[f], the edge between f and g uncovered → cover[g]".
    // Sound: an uncovered edge inside the panel is no wall, so f and g
    // lie in one region (`docs/rules.md#regions`); in the witness
    // assignment a placement covers f, its piece (not erased, not free,
    // of positive area) lies in that region, which holds no ylop and
    // whose net area is then positive, so its fit covers every face of
    // it, g too.
    for f in 0..n {
        if b.kind[f] != SlotKind::Face || b.outside[f] || cover[f] == Term::False {
            continue;
        }
        for d in 0..4 {
            let e = b.nbr[f][d];
            if e == NONE || b.outside[e as usize] {
                continue;
            }
            let g = b.nbr[e as usize][d];
            if g == NONE || g as usize == f || b.outside[g as usize] {
                continue;
            }
            let (c, ce, cg) = (cover[f], enc.cov[e as usize], cover[g as usize]);
            enc.clause(&[!c, ce, cg]);
        }
    }
    // The net-area count ([`net_count`]): on panels with subtractive
    // pieces, where the area cardinality says little (every piece may be
    // free), it says how many faces lie in regions of positive net area.
    // Outside the selector mode only (it counts every piece as there).
    // Each of its clauses holds for every solution.
    if ylops && !marks && !selectors {
        net_count(b, t, enc, &pieces, &cover);
    }
    // The region labels ([`labels`]), when the line separates what it
    // crosses and no symbol is switched off.
    let label = if with_labels && !selectors && separates(b, enc) {
        Some(labels(b, enc, &pieces, &cover))
    } else {
        None
    };
    // Pieces of one kind in increasing placement order. Sound: without
    // marks every clause above (and every cut: they speak of the line, and
    // the confinement cut of kinds of pieces only, and of free terms,
    // which a swap of placements leaves alone) is unchanged when two
    // placed pieces of one kind swap placements, as they have the same
    // placement list (both are not free); so the witness assignment with
    // such pieces' placements sorted satisfies them too, and two pieces
    // never share a placement (they would cover a face twice). A free
    // piece has no placement, which the clauses below allow. In the
    // selector mode the sorting is among the pieces there (the guarded
    // clauses of two of them swap with them); a piece switched off has
    // no placement, which the clauses below allow on either side.
    // With region labels the swap argument holds for two pieces of one
    // region only (a placement lies in its piece's region, and two pieces
    // of different regions cannot swap): each pair of pieces of one kind
    // is sorted when the first one's label holds on the second one's
    // face, and the witness assignment sorts the pieces of one kind
    // within each region (the labels and the label cuts speak of
    // regions, which such a swap leaves alone).
    if let (false, Some(label)) = (marks, &label) {
        for (a, q) in pieces.iter().enumerate() {
            let firsts: Vec<usize> = (0..a).filter(|&i| pieces[i].kind == q.kind).collect();
            if firsts.is_empty() {
                continue;
            }
            let mut prev = Term::False;
            let mut before = Vec::with_capacity(q.place.len());
            for i in 0..q.place.len() {
                let v = enc.var();
                enc.clause(&[!q.place[i], v]);
                enc.clause(&[!prev, v]);
                before.push(v);
                prev = v;
            }
            for &i in &firsts {
                let p = &pieces[i];
                let same = label[i][q.face];
                for (j, &y) in p.place.iter().enumerate() {
                    enc.clause(&[!same, !y, !before[j]]);
                }
            }
        }
    } else if !marks {
        for (a, p) in pieces.iter().enumerate() {
            let Some(q) = pieces[a + 1..].iter().find(|q| q.kind == p.kind) else {
                continue;
            };
            debug_assert_eq!(p.place.len(), q.place.len());
            // before[i]: q lies at one of its placements 0..=i.
            let mut prev = Term::False;
            for i in 0..q.place.len() {
                let before = enc.var();
                enc.clause(&[!q.place[i], before]);
                enc.clause(&[!prev, before]);
                enc.clause(&[!p.place[i], !before]);
                prev = before;
            }
            debug_assert!(p.face != q.face);
        }
    }
    // With marks, the erased flags of pieces join those of the other
    // symbols: at most as many are set as there are marks. Sound: each
    // mark erases one element at most.
    if marks {
        let m = (0..n).filter(|&f| b.sym[f] == Sym::Nega).count();
        let flags = enc.erased.clone();
        enc.at_most(&flags, m);
    }
    stats.labelled = label.is_some();
    Some(Pieces {
        pieces,
        area,
        stats,
        labels: label,
    })
}

/// True when every line of `b` separates the two faces beside each edge
/// it covers: no pillar, and every slot where a line may start or stop
/// ([`Encoding::st`], [`Encoding::en`], and their mirror images with
/// symmetry) lies on the grid's outer border.
///
/// Why: each line is then a simple curve from the border of the grid's
/// rectangle to its border, through it (a line never passes a node
/// twice, and two symmetric lines never meet): a chord, which splits the
/// rectangle so that the two sides of each of its edges lie in different
/// parts (a closed curve through the two face centres, crossing the
/// line's edge once and the line nowhere else, would otherwise be
/// crossed an odd number of times by a path whose ends both lie outside
/// it). A region is a set of slots joined by steps through slots no line
/// covers (`docs/rules.md#regions`), each step a segment that meets no
/// line, so it never joins the two sides of a covered edge.
pub fn separates(b: &Board, enc: &Encoding) -> bool {
    if b.pillar {
        return false;
    }
    let border = |s: usize| {
        let p = b.pos(s);
        p.x == 0 || p.y == 0 || p.x + 1 == b.w || p.y + 1 == b.h
    };
    (0..b.len()).all(|s| {
        let ends = enc.st[s] != Term::False || enc.en[s] != Term::False;
        !ends || (border(s) && border(b.mirror[s] as usize))
    })
}

/// The faces of `b` inside the panel on either side of each edge inside
/// it: `(f, e, g)` for each such edge `e`, once.
fn face_pairs(b: &Board) -> Vec<(usize, usize, usize)> {
    let face = |f: usize| b.kind[f] == SlotKind::Face && !b.outside[f];
    let mut out = Vec::new();
    for f in (0..b.len()).filter(|&f| face(f)) {
        for d in [1, 3] {
            let e = b.nbr[f][d];
            if e == NONE || b.outside[e as usize] {
                continue;
            }
            let g = b.nbr[e as usize][d];
            if g == NONE || g as usize == f || !face(g as usize) {
                continue;
            }
            out.push((f, e as usize, g as usize));
        }
    }
    out
}

/// The region labels of the pieces, on a board whose lines separate what
/// they cross ([`separates`]): per piece `p` and face `f` inside the
/// panel a variable `r[p][f]`, true in the witness assignment (the module
/// documentation) exactly when `f` lies in the region of `p`'s face. They
/// make "a piece lies in its own region" clauses, which otherwise only
/// the region cuts say. Returns `r` (the constant false off the panel's
/// faces). The clauses, each true of the witness assignment:
///
/// - `r[p][face of p]`: a face lies in its own region.
/// - `r[p][f]`, the edge between `f` and `g` uncovered → `r[p][g]` (and
///   from `g` to `f`): an uncovered edge inside the panel is no wall, so
///   `f` and `g` lie in one region (`docs/rules.md#regions`).
/// - `r[p][f]`, the edge covered → `¬r[p][g]`: the covered edge separates
///   its two faces ([`separates`]).
/// - a placement of `p` → `r[p][f]` for each face `f` it covers: the
///   witness places each piece in its own region.
/// - `r[p][f] ∧ r[q][f] → r[p][face of q]`: `f` lies in both regions,
///   which are then one, and holds `q`'s face.
/// - `r[p][face of q] ∧ r[q][f] → r[p][f]` and `r[p][face of q] ∧ r[p][f]
///   → r[q][f]`: the two pieces lie in one region, and their labels are
///   the same.
/// - `r[p][f] → cover[f] ∨ erased[p] ∨ free[p]`: a piece neither erased
///   nor free lies in a region without subtractive pieces whose net area
///   is that of its pieces left after the marks act, positive with `p`
///   among them, so a fit covers every face of the region.
///
/// Together: the faces a piece's label holds on are a union of regions
/// no two of which touch, covered (unless the piece is gone) by the
/// pieces whose faces lie there, and only by them. A model may still
/// join regions far apart under one label; the validator and the region
/// cuts ([`Pieces::label_cut`]) catch it.
fn labels(b: &Board, enc: &mut Encoding, pieces: &[Piece], cover: &[Term]) -> Vec<Vec<Term>> {
    let n = b.len();
    let faces: Vec<usize> = (0..n)
        .filter(|&f| b.kind[f] == SlotKind::Face && !b.outside[f])
        .collect();
    let pairs = face_pairs(b);
    let mut r: Vec<Vec<Term>> = Vec::with_capacity(pieces.len());
    for p in pieces {
        let mut lab = vec![Term::False; n];
        for &f in &faces {
            lab[f] = enc.var();
        }
        enc.clause(&[lab[p.face]]);
        for &(f, e, g) in &pairs {
            let c = enc.cov[e];
            enc.clause(&[!lab[f], c, lab[g]]);
            enc.clause(&[!lab[g], c, lab[f]]);
            enc.clause(&[!lab[f], !c, !lab[g]]);
        }
        for (y, fs) in p.place.iter().zip(&p.faces) {
            for &f in fs {
                enc.clause(&[!*y, lab[f as usize]]);
            }
        }
        for &f in &faces {
            enc.clause(&[!lab[f], cover[f], enc.erased[p.face], p.free]);
        }
        r.push(lab);
    }
    for (i, p) in pieces.iter().enumerate() {
        for (j, q) in pieces.iter().enumerate().skip(i + 1) {
            let same = r[i][q.face];
            for &f in &faces {
                let (a, c) = (r[i][f], r[j][f]);
                enc.clause(&[!a, !c, same]);
                enc.clause(&[!same, !c, a]);
                enc.clause(&[!same, !a, c]);
            }
            // The relation is symmetric: r[q][face of p] too.
            enc.clause(&[!same, r[j][p.face]]);
            enc.clause(&[!r[j][p.face], same]);
        }
    }
    r
}

/// The net-area count of a panel with subtractive pieces and no
/// elimination marks: a variable `full[f]` per face of the panel, and
/// clauses that exactly `N` of them hold, `N` the area of the pieces less
/// that of the subtractive pieces (polyshape 0 counts for neither);
/// `cover` is [`encode`]'s cover of each face. The clauses, with
/// `full[f]` true in the witness assignment (the module documentation)
/// exactly when the region of `f` has a positive net area (that of its
/// pieces less that of its subtractive pieces):
///
/// - `cover[f] → full[f]`: a placement of the witness assignment lies in
///   the region of its piece, which holds no subtractive piece and whose
///   net area is then at least the piece's, above 0.
/// - `full[f]`, the edge between `f` and `g` uncovered → `full[g]`: an
///   uncovered edge inside the panel is no wall, so `f` and `g` lie in
///   one region (`docs/rules.md#regions`).
/// - `full[face of p] ∨ free[p]` for each piece `p` of positive area: a
///   piece that is not free lies in a region without subtractive pieces,
///   whose net area is at least its own.
/// - exactly `N` faces are full: in a solution every region passes, so
///   the net area of each is 0 or its number of faces (below 0 nothing
///   fits, above 0 a fit needs the net area to equal the number of faces:
///   `docs/rules.md#polyominoes`; a region without pieces has net area
///   0); every piece and subtractive piece lies in one region, so the
///   regions' net areas add up to `N`, and those of positive net area
///   have `N` faces in all. With `N` below 0 some region's net area is
///   below 0: no solution, and the clauses are contradictory.
///
/// Without marks nothing erases a piece, so the argument takes every
/// piece. Unlike [`Pieces::area`] it holds with free pieces, which the
/// area cardinality cannot count on, so it ties regions holding
/// subtractive pieces to the pieces' area without a region cut for each.
fn net_count(b: &Board, t: &PolyTables, enc: &mut Encoding, pieces: &[Piece], cover: &[Term]) {
    let n = b.len();
    let face = |f: usize| b.kind[f] == SlotKind::Face && !b.outside[f];
    let mut full = vec![Term::False; n];
    for f in (0..n).filter(|&f| face(f)) {
        full[f] = enc.var();
        enc.clause(&[!cover[f], full[f]]);
    }
    for f in (0..n).filter(|&f| face(f)) {
        for d in 0..4 {
            let e = b.nbr[f][d];
            if e == NONE || b.outside[e as usize] {
                continue;
            }
            let g = b.nbr[e as usize][d];
            if g == NONE || g as usize == f || !face(g as usize) {
                continue;
            }
            enc.clause(&[!full[f], enc.cov[e as usize], full[g as usize]]);
        }
    }
    for p in pieces {
        if t.kinds[p.kind].size > 0 {
            enc.clause(&[full[p.face], p.free]);
        }
    }
    let net: isize = (0..n)
        .filter(|&f| face(f))
        .filter_map(|f| signed_area(b, t, f))
        .sum();
    let terms: Vec<Term> = full.into_iter().filter(|&x| x != Term::False).collect();
    match usize::try_from(net) {
        Ok(net) => between(enc, &terms, net, net),
        Err(_) => enc.clause(&[]),
    }
}

/// The unary count of `terms`, up to `cap`: `out[j]` holds exactly when
/// more than `j` of them are true (a totalizer, its outputs cut at `cap`).
fn totalize(enc: &mut Encoding, terms: &[Term], cap: usize) -> Vec<Term> {
    if terms.len() <= 1 {
        return terms.to_vec();
    }
    let (l, r) = terms.split_at(terms.len() / 2);
    let a = totalize(enc, l, cap);
    let b = totalize(enc, r, cap);
    let len = (a.len() + b.len()).min(cap);
    let out: Vec<Term> = (0..len).map(|_| enc.var()).collect();
    // i of a and j of b true: more than i + j - 1 true; and conversely.
    for i in 0..=a.len() {
        for j in 0..=b.len() {
            let k = i + j;
            if k >= 1 && k <= len {
                let mut c = vec![out[k - 1]];
                if i > 0 {
                    c.push(!a[i - 1]);
                }
                if j > 0 {
                    c.push(!b[j - 1]);
                }
                enc.clause(&c);
            }
            // Fewer than i + 1 of a and fewer than j + 1 of b: at most i + j.
            if k < len {
                let mut c = vec![!out[k]];
                if i < a.len() {
                    c.push(a[i]);
                }
                if j < b.len() {
                    c.push(b[j]);
                }
                enc.clause(&c);
            }
        }
    }
    out
}

/// Between `lo` and `hi` of `terms` are true.
fn between(enc: &mut Encoding, terms: &[Term], lo: usize, hi: usize) {
    if lo == 0 && hi >= terms.len() {
        return;
    }
    if lo > terms.len() {
        // No way: a contradiction among the cardinality's own clauses
        // (a fresh variable and its negation), so that it stays with
        // them wherever they go, and the encoding is not marked empty.
        let v = enc.var();
        enc.clause(&[v]);
        enc.clause(&[!v]);
        return;
    }
    let out = totalize(enc, terms, hi + 1);
    if hi < out.len() {
        enc.clause(&[!out[hi]]);
    }
    if lo > 0 {
        enc.clause(&[out[lo - 1]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::sat::encode::tests::admits;

    /// `between(lo, hi)` allows every assignment of `n` terms with `lo`
    /// to `hi` true, and no other (some value of the totalizer's own
    /// variables satisfies its clauses exactly then).
    #[test]
    fn between_counts_exactly() {
        for n in 1..=4i32 {
            for lo in 0..=n as usize + 1 {
                for hi in lo..=n as usize + 1 {
                    let mut enc = Encoding {
                        n_vars: n,
                        ..Encoding::default()
                    };
                    let terms: Vec<Term> = (1..=n).map(Term::Lit).collect();
                    between(&mut enc, &terms, lo, hi);
                    for a in 0u32..1 << n {
                        let sat = !enc.empty && admits(&enc, n, a);
                        let count = a.count_ones() as usize;
                        let want = lo <= count && count <= hi;
                        assert_eq!(sat, want, "n {n} lo {lo} hi {hi} assignment {a:b}");
                    }
                }
            }
        }
    }

    /// A panel whose pieces' net area is below 0 (a domino and a
    /// subtractive straight tromino, on a row of three faces) has no
    /// solution: some region's net area is below 0, where nothing fits.
    /// The net-area count alone refutes it, at the first solver call,
    /// without a region or balance cut (without the count, the engine
    /// cuts failing regions call after call).
    #[test]
    fn a_negative_net_area_is_refuted_by_the_count_alone() {
        use crate::model::{Color, Direction, Polyomino, Pos, Puzzle, Symbol, SymbolKind};
        use crate::solve::sat::SatRun;
        use crate::solve::{Limits, Status};
        let mut p = Puzzle::new(3, 1, false).unwrap();
        p.cell_mut(Pos::new(0, 2)).start = true;
        p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Up);
        let piece = |kind| Some(Symbol::new(kind, Color::White));
        p.cell_mut(Pos::new(1, 1)).symbol =
            piece(SymbolKind::Poly(Polyomino::new([(0, 0), (1, 0)], false)));
        p.cell_mut(Pos::new(5, 1)).symbol = piece(SymbolKind::Ylop(Polyomino::new(
            [(0, 0), (1, 0), (2, 0)],
            false,
        )));
        let mut run = SatRun::new(&p, &Limits::none()).unwrap();
        let s = run.solve(&Limits::none()).unwrap();
        assert!(s.path.is_none() && s.status == Status::Complete, "{s:?}");
        let st = &run.stats;
        assert!(
            st.calls <= 1 && st.regions == 0 && st.balance == 0,
            "refuted by cuts: {st:?}"
        );
    }
}

//! `regionCheck` (`docs/rules.md#symbols`): the symbol rules inside one region,
//! with the engine's split into very-invalid and soft-invalid elements, in its
//! order.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use super::board::{Board, Sym};
use super::polyfit::{fits, Geometry, PieceKind, Placements};
use super::scratch::{CheckResult, Scratch};
use crate::model::SlotKind;

/// One kind of piece of a board: a shape, poly or ylop, and its placement
/// table, built the first time a fit needs it.
#[derive(Clone, Debug)]
pub struct PolyKind {
    /// The shape (index into [`Board::shapes`]).
    pub shape: u16,
    /// A ylop rather than a poly.
    pub subtractive: bool,
    /// Its number of squares.
    pub size: usize,
    /// The shape the rules skip (polyshape 0).
    pub ignored: bool,
    placements: OnceLock<Placements>,
}

/// The polyomino tables of a board: placements per distinct shape. The
/// scan geometry and each kind's placements are built on first use (many
/// searches never fit some kinds, or any), so the tables must always be
/// used with the board they were made for.
#[derive(Clone, Debug)]
pub struct PolyTables {
    /// The scan tables of the board (faces in scan order and more).
    geo: OnceLock<Geometry>,
    /// A number unique to these tables (kept by clones), naming the board
    /// in the fit cache.
    pub id: u64,
    /// For each shape index of the board, as a poly and as a ylop: the
    /// index of its kind in `kinds` (`u32::MAX` when not on the board).
    pub kind_of_shape: Vec<[u32; 2]>,
    /// The kinds, numbered in the order the board first shows them.
    pub kinds: Vec<PolyKind>,
}

impl PolyTables {
    /// Numbers the kinds of every poly and ylop of the board.
    pub fn new(b: &Board) -> PolyTables {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let mut kinds: Vec<PolyKind> = Vec::new();
        let mut kind_of_shape = vec![[u32::MAX; 2]; b.shapes.len()];
        if b.has_polys {
            for i in 0..b.len() {
                let (si, sub) = match b.sym[i] {
                    Sym::Poly(s) => (s, false),
                    Sym::Ylop(s) => (s, true),
                    _ => continue,
                };
                let k = &mut kind_of_shape[si as usize][sub as usize];
                if *k != u32::MAX {
                    continue;
                }
                *k = kinds.len() as u32;
                let shape = &b.shapes[si as usize];
                kinds.push(PolyKind {
                    shape: si,
                    subtractive: sub,
                    size: shape.size(),
                    ignored: shape.is_ignored(),
                    placements: OnceLock::new(),
                });
            }
        }
        PolyTables {
            geo: OnceLock::new(),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            kind_of_shape,
            kinds,
        }
    }

    /// The scan tables of the board `b` (the tables' own board).
    pub fn geometry(&self, b: &Board) -> &Geometry {
        self.geo.get_or_init(|| Geometry::new(b))
    }

    /// The placements of kind `k` on the board `b` (the tables' own board).
    pub fn placements(&self, b: &Board, k: usize) -> &Placements {
        let kind = &self.kinds[k];
        kind.placements.get_or_init(|| {
            Placements::build(
                b,
                self.geometry(b),
                &b.shapes[kind.shape as usize],
                kind.subtractive,
            )
        })
    }
}

/// Most kinds of piece a fit takes without a heap buffer.
const STACK_KINDS: usize = 16;

/// Most answers the fit cache keeps before starting over.
const FIT_CACHE_CAP: usize = 1 << 15;

/// Fits quicker than this many search steps are not worth caching.
const FIT_CACHE_STEPS: u64 = 64;

/// True when the element at a slot has not been erased.
#[inline]
fn present(removed: &[bool], i: usize) -> bool {
    !removed[i]
}

/// Counts the covered edges around a face.
#[inline]
pub fn triangle_edges(b: &Board, covered: &[bool], i: usize) -> u32 {
    b.nbr[i]
        .iter()
        .filter(|&&j| j != super::board::NONE && covered[j as usize])
        .count() as u32
}

/// Runs `regionCheck` on a region. `removed` marks slots the elimination
/// search has erased; elimination marks still present count their colour,
/// as the engine's `nonce` stand-ins do.
pub fn region_check(
    b: &Board,
    t: &PolyTables,
    region: &[u32],
    covered: &[bool],
    removed: &[bool],
    scratch: &mut Scratch,
    out: &mut CheckResult,
) {
    out.very.clear();
    out.soft.clear();
    scratch.color_count.clear();
    scratch.color_count.resize(b.n_colors, 0);
    scratch.squares.clear();
    scratch.stars.clear();
    let mut square_color = 0u8;
    let mut clash = false;
    let mut any_poly = false;
    for &s in region {
        let i = s as usize;
        if !present(removed, i) {
            continue;
        }
        if b.kind[i] != SlotKind::Face {
            if b.dot[i].is_some() {
                out.very.push(s);
            }
            continue;
        }
        match b.sym[i] {
            Sym::Empty => continue,
            Sym::Triangle(k) => {
                if triangle_edges(b, covered, i) != k {
                    out.very.push(s);
                }
            }
            Sym::Square => {
                scratch.squares.push(s);
                if square_color == 0 {
                    square_color = b.color[i];
                } else if square_color != b.color[i] {
                    clash = true;
                }
            }
            Sym::Star => scratch.stars.push(s),
            Sym::Poly(_) | Sym::Ylop(_) => any_poly = true,
            Sym::Nega => {}
        }
        scratch.color_count[b.color[i] as usize] += 1;
    }
    if clash {
        out.soft.extend_from_slice(&scratch.squares);
    }
    for &s in &scratch.stars {
        match scratch.color_count[b.color[s as usize] as usize] {
            1 => out.very.push(s),
            2 => {}
            _ => out.soft.push(s),
        }
    }
    if any_poly && !poly_fit(b, t, region, removed, scratch) {
        for &s in region {
            let i = s as usize;
            if present(removed, i) && b.sym[i].is_poly() {
                out.soft.push(s);
            }
        }
    }
}

/// True when [`region_check`] would find nothing wrong: the same rules,
/// but it stops at the first failure, and fits the polyominoes only when
/// everything else passed.
pub fn region_clean(
    b: &Board,
    t: &PolyTables,
    region: &[u32],
    covered: &[bool],
    removed: &[bool],
    scratch: &mut Scratch,
) -> bool {
    scratch.color_count.clear();
    scratch.color_count.resize(b.n_colors, 0);
    let mut square_color = 0u8;
    let mut any_star = false;
    let mut any_poly = false;
    for &s in region {
        let i = s as usize;
        if !present(removed, i) {
            continue;
        }
        if b.kind[i] != SlotKind::Face {
            if b.dot[i].is_some() {
                return false;
            }
            continue;
        }
        match b.sym[i] {
            Sym::Empty => continue,
            Sym::Triangle(k) => {
                if triangle_edges(b, covered, i) != k {
                    return false;
                }
            }
            Sym::Square => {
                if square_color == 0 {
                    square_color = b.color[i];
                } else if square_color != b.color[i] {
                    return false;
                }
            }
            Sym::Star => any_star = true,
            Sym::Poly(_) | Sym::Ylop(_) => any_poly = true,
            Sym::Nega => {}
        }
        scratch.color_count[b.color[i] as usize] += 1;
    }
    if any_star {
        for &s in region {
            let i = s as usize;
            if present(removed, i)
                && b.kind[i] == SlotKind::Face
                && b.sym[i] == Sym::Star
                && scratch.color_count[b.color[i] as usize] != 2
            {
                return false;
            }
        }
    }
    !any_poly || poly_fit(b, t, region, removed, scratch)
}

/// `polyFit` (`docs/rules.md#polyominoes`) for the pieces present in a region.
pub fn poly_fit(
    b: &Board,
    t: &PolyTables,
    region: &[u32],
    removed: &[bool],
    scratch: &mut Scratch,
) -> bool {
    scratch.piece_counts.clear();
    scratch.piece_counts.resize(t.kinds.len(), 0);
    let mut region_faces = 0usize;
    let mut any = false;
    let (mut polys_area, mut ylops_area) = (0usize, 0usize);
    let mut empty_polys = false;
    for &s in region {
        let i = s as usize;
        if b.kind[i] == SlotKind::Face {
            region_faces += 1;
        }
        if !present(removed, i) {
            continue;
        }
        let (si, sub) = match b.sym[i] {
            Sym::Poly(si) => (si, false),
            Sym::Ylop(si) => (si, true),
            _ => continue,
        };
        let k = t.kind_of_shape[si as usize][sub as usize] as usize;
        let kind = &t.kinds[k];
        if kind.ignored {
            continue; // polyshape 0 is skipped entirely
        }
        any = true;
        let size = kind.size;
        if size == 0 {
            // An empty shape: a ylop of it changes nothing; a poly of it can
            // only be put down while some face is still open, which happens
            // exactly when the other pieces have area to place.
            if !sub {
                empty_polys = true;
            }
            continue;
        }
        scratch.piece_counts[k] += 1;
        if sub {
            ylops_area += size;
        } else {
            polys_area += size;
        }
    }
    if !any {
        return true;
    }
    let net = polys_area as isize - ylops_area as isize;
    // The engine tests SHAPELESS_ZERO_POLY before placing anything, so it
    // also accepts a region whose only pieces are empty shapes.
    if net == 0 && b.shapeless_zero_poly {
        return true;
    }
    if empty_polys && polys_area == 0 {
        return false;
    }
    if net < 0 || (net > 0 && net as usize != region_faces) {
        return false;
    }
    // The same fits come back again and again in a solver: look the
    // answer up by board, piece counts and (for a tiling) region slots.
    let cache = &mut scratch.cache;
    if cache.table != t.id {
        cache.table = t.id;
        cache.map.clear();
    }
    let key_of = |key: &mut Vec<u64>, counts: &[u32]| {
        key.clear();
        key.extend(counts.iter().map(|&c| c as u64));
        if net > 0 {
            let base = key.len();
            key.resize(base + b.len().div_ceil(64), 0);
            for &s in region {
                key[base + s as usize / 64] |= 1 << (s % 64);
            }
        }
    };
    if !cache.map.is_empty() {
        key_of(&mut cache.key, &scratch.piece_counts);
        if let Some(&known) = cache.map.get(cache.key.as_slice()) {
            return known;
        }
    }
    // The kinds present, in kind order: on the stack when there are few
    // (a heap buffer for none or many costs nothing or little).
    let geo = t.geometry(b);
    let piece = |k: usize, c: u32| PieceKind {
        placements: t.placements(b, k),
        subtractive: t.kinds[k].subtractive,
        count: c,
    };
    let present = scratch
        .piece_counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(k, &c)| (k, c));
    let mut heap: Vec<PieceKind> = Vec::new();
    let mut buf;
    let kinds: &mut [PieceKind] = match (present.clone().next(), present.clone().nth(STACK_KINDS)) {
        (Some((k0, _)), None) => {
            buf = [piece(k0, 0); STACK_KINDS];
            let mut n = 0;
            for (k, c) in present {
                buf[n] = piece(k, c);
                n += 1;
            }
            &mut buf[..n]
        }
        _ => {
            heap.extend(present.map(|(k, c)| piece(k, c)));
            &mut heap
        }
    };
    let found = fits(
        geo,
        b,
        region,
        region_faces,
        kinds,
        polys_area,
        ylops_area,
        &mut scratch.fit,
    );
    if scratch.fit.last_interrupted() {
        return found; // a guess: never cached
    }
    if scratch.fit.last_steps() >= FIT_CACHE_STEPS {
        let cache = &mut scratch.cache;
        if cache.map.is_empty() {
            key_of(&mut cache.key, &scratch.piece_counts);
        }
        if cache.map.len() >= FIT_CACHE_CAP {
            cache.map.clear();
        }
        cache.map.insert(cache.key.as_slice().into(), found);
    }
    found
}

use super::scan::{start_board, Search};
use super::*;
use crate::model::{Polyomino, Puzzle};

/// A board `fw` x `fh` faces.
fn board(fw: usize, fh: usize, pillar: bool, precise: bool) -> Board {
    let p = Puzzle::new(fw, fh, pillar).unwrap();
    let mut b = Board::new(&p).unwrap();
    b.precise = precise;
    b
}

/// The face slot at face coordinates `(i, j)`.
fn face(b: &Board, i: usize, j: usize) -> u32 {
    b.index(2 * i + 1, 2 * j + 1) as u32
}

/// A region made of the given faces and every edge or node whose faces
/// on the grid are all among them.
fn region(b: &Board, faces: &[(usize, usize)]) -> Vec<u32> {
    let set: Vec<u32> = faces.iter().map(|&(i, j)| face(b, i, j)).collect();
    let mut out = set.clone();
    for s in 0..b.len() {
        let offsets: [(isize, isize); 4] = match b.kind[s] {
            SlotKind::Face => continue,
            SlotKind::Node => [(-1, -1), (1, -1), (-1, 1), (1, 1)],
            _ => [(-1, 0), (1, 0), (0, -1), (0, 1)],
        };
        let (x, y) = ((s / b.h) as isize, (s % b.h) as isize);
        let around: Vec<u32> = offsets
            .iter()
            .filter_map(|&(dx, dy)| {
                let (mut fx, fy) = (x + dx, y + dy);
                if b.pillar {
                    fx = fx.rem_euclid(b.w as isize);
                }
                if fx < 0 || fy < 0 || fx >= b.w as isize || fy >= b.h as isize {
                    return None;
                }
                let f = b.index(fx as usize, fy as usize);
                (b.kind[f] == SlotKind::Face).then_some(f as u32)
            })
            .collect();
        if !around.is_empty() && around.iter().all(|f| set.contains(f)) {
            out.push(s as u32);
        }
    }
    out
}

/// A shape from its squares.
fn shape(cells: &[(u8, u8)], rotatable: bool) -> Polyomino {
    Polyomino::new(cells.iter().copied(), rotatable)
}

/// The pieces grouped into kinds with their placement tables.
fn tables(b: &Board, pieces: &[(Polyomino, bool)]) -> (Vec<Placements>, Vec<(bool, u32)>) {
    let mut keys: Vec<&(Polyomino, bool)> = Vec::new();
    let mut counts = Vec::new();
    for p in pieces {
        match keys.iter().position(|k| *k == p) {
            Some(i) => counts[i] += 1,
            None => {
                keys.push(p);
                counts.push(1);
            }
        }
    }
    let pl = keys
        .iter()
        .map(|(s, sub)| Placements::new(b, s, *sub))
        .collect();
    let info = keys.iter().zip(counts).map(|(k, c)| (k.1, c)).collect();
    (pl, info)
}

/// `fits` on a region and a list of pieces (shape, subtractive).
/// The piece kinds of a test fit over its placement tables.
fn kinds_of<'a>(pl: &'a [Placements], info: &[(bool, u32)]) -> Vec<PieceKind<'a>> {
    pl.iter()
        .zip(info)
        .map(|(p, &(sub, count))| PieceKind {
            placements: p,
            subtractive: sub,
            count,
        })
        .collect()
}

fn run(b: &Board, region: &[u32], pieces: &[(Polyomino, bool)]) -> bool {
    run_with(b, region, pieces, &mut FitScratch::default())
}

fn run_with(b: &Board, region: &[u32], pieces: &[(Polyomino, bool)], fs: &mut FitScratch) -> bool {
    let g = Geometry::new(b);
    let (pl, info) = tables(b, pieces);
    let mut kinds = kinds_of(&pl, &info);
    let area = |sub: bool| -> usize {
        pieces
            .iter()
            .filter(|p| p.1 == sub)
            .map(|p| p.0.size())
            .sum()
    };
    let region_faces = region
        .iter()
        .filter(|&&s| b.kind[s as usize] == SlotKind::Face)
        .count();
    fits(
        &g,
        b,
        region,
        region_faces,
        &mut kinds,
        area(false),
        area(true),
        fs,
    )
}

/// Builds the scan state of a fit at its start and hands it to `probe`.
fn probe<R>(
    b: &Board,
    region: &[u32],
    pieces: &[(Polyomino, bool)],
    probe: impl FnOnce(&mut Search, &Board) -> R,
) -> R {
    let g = Geometry::new(b);
    let (pl, info) = tables(b, pieces);
    let mut kinds = kinds_of(&pl, &info);
    let mut val = vec![0i16; b.len()];
    let hv = start_board(&g, &mut val, region);
    let mut memo = Memo::default();
    let limits = FitLimits::default();
    let mut s = Search::new(&g, &mut val, hv, &mut kinds, &mut memo, &limits);
    probe(&mut s, b)
}

/// The index of the placement of kind `tt` covering exactly these faces.
fn placement(s: &Search, tt: usize, faces: &[u32]) -> u32 {
    let pl = s.kinds[tt].placements;
    (0..pl.len() as u32)
        .find(|&i| {
            let mut f: Vec<u32> = pl
                .slots(i)
                .iter()
                .copied()
                .filter(|&x| s.g.is_face[x as usize])
                .collect();
            f.sort_unstable();
            let mut want = faces.to_vec();
            want.sort_unstable();
            f == want
        })
        .expect("no such placement")
}

// ---- The engine's own search, literally (`docs/rules.md#polyominoes`, steps
// 6–8) ----

/// The slots of `shape`'s footprint anchored at face `(x, y)`, if it
/// lies on the grid (x wrapped on pillars).
fn anchor(b: &Board, shape: &Polyomino, sub: bool, x: usize, y: usize) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for (dx, dy) in shape.footprint(sub, b.precise) {
        let mut sx = x as isize + dx;
        let sy = y as isize + dy;
        if b.pillar {
            sx = sx.rem_euclid(b.w as isize);
        }
        if sx < 0 || sy < 0 || sx >= b.w as isize || sy >= b.h as isize {
            return None;
        }
        out.push(b.index(sx as usize, sy as usize));
    }
    Some(out)
}

/// `polyFit` steps 3–8 for non-empty pieces.
fn engine(b: &Board, region: &[u32], pieces: &[(Polyomino, bool)]) -> bool {
    let polys: Vec<Polyomino> = pieces
        .iter()
        .filter(|p| !p.1)
        .map(|p| p.0.clone())
        .collect();
    let ylops: Vec<Polyomino> = pieces.iter().filter(|p| p.1).map(|p| p.0.clone()).collect();
    if polys.is_empty() && ylops.is_empty() {
        return true;
    }
    let region_faces = region
        .iter()
        .filter(|&&s| b.kind[s as usize] == SlotKind::Face)
        .count() as isize;
    let net = polys.iter().map(|p| p.size() as isize).sum::<isize>()
        - ylops.iter().map(|p| p.size() as isize).sum::<isize>();
    if (net > 0 && net != region_faces) || net < 0 {
        return false;
    }
    let mut val = vec![0i32; b.len()];
    if net > 0 {
        for &s in region {
            val[s as usize] = -1;
        }
    }
    place_ylops(b, &mut val, &ylops, 0, &polys)
}

/// `placeYlops`: every ylop at every face and orientation, in turn.
fn place_ylops(
    b: &Board,
    val: &mut [i32],
    ylops: &[Polyomino],
    i: usize,
    polys: &[Polyomino],
) -> bool {
    if i == ylops.len() {
        let mut rest: Vec<Polyomino> = polys.to_vec();
        return place_polys(b, val, &mut rest);
    }
    for x in (1..b.w).step_by(2) {
        for y in (1..b.h).step_by(2) {
            for o in ylops[i].orientations() {
                if let Some(fp) = anchor(b, &o, true, x, y) {
                    fp.iter().for_each(|&s| val[s] -= 1);
                    let ok = place_ylops(b, val, ylops, i + 1, polys);
                    fp.iter().for_each(|&s| val[s] += 1);
                    if ok {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// `placePolys`: tile from the first open face.
fn place_polys(b: &Board, val: &mut [i32], polys: &mut Vec<Polyomino>) -> bool {
    if val.iter().any(|&v| v > 0) {
        return false;
    }
    let is_face = |s: usize| b.kind[s] == SlotKind::Face;
    if polys.is_empty() {
        return (0..b.len()).all(|s| !is_face(s) || val[s] >= 0);
    }
    let mut open = Vec::new();
    let mut row = 0;
    for y in (1..b.h).step_by(2) {
        for x in (1..b.w).step_by(2) {
            if val[b.index(x, y)] < 0 {
                open.push(x);
                if !b.pillar {
                    break;
                }
            }
        }
        if !open.is_empty() {
            row = y;
            break;
        }
    }
    for &x in &open {
        let mut tried: Vec<Polyomino> = Vec::new();
        for i in 0..polys.len() {
            if tried.contains(&polys[i]) {
                continue;
            }
            tried.push(polys[i].clone());
            let p = polys.remove(i);
            for o in p.orientations() {
                if let Some(fp) = anchor(b, &o, false, x, row) {
                    fp.iter().for_each(|&s| val[s] += 1);
                    let ok = place_polys(b, val, polys);
                    fp.iter().for_each(|&s| val[s] -= 1);
                    if ok {
                        polys.insert(i, p);
                        return true;
                    }
                }
            }
            polys.insert(i, p);
        }
    }
    false
}

/// Checks `fits` against the engine and returns the answer.
fn both(b: &Board, region: &[u32], pieces: &[(Polyomino, bool)]) -> bool {
    let want = engine(b, region, pieces);
    assert_eq!(
        run(b, region, pieces),
        want,
        "pieces {pieces:?} region {region:?}"
    );
    want
}

/// The placement tables list each footprint (as a multiset of slots)
/// once, and every one that lies on the board: against every
/// orientation at every face, gathered in a set. Without a pillar the
/// tables are built by offsets, with no duplicate search (the faces fix
/// the orientation and the anchor), so symmetric shapes are here too,
/// and they must equal the general build's.
#[test]
fn placements_list_every_footprint_once() {
    let shapes = [
        shape(&[(0, 0), (1, 0)], true),
        shape(&[(0, 0), (1, 0), (0, 1), (1, 1)], true),
        shape(&[(1, 0), (2, 0), (0, 1), (1, 1)], true),
        shape(&[(0, 0), (1, 0), (2, 0), (1, 1)], true),
        shape(&[(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], true),
        shape(&[(0, 0), (0, 1), (0, 2), (1, 2)], false),
        shape(&[(0, 0), (2, 0), (1, 1)], true),
    ];
    for (fw, fh, pillar) in [(4, 3, false), (5, 5, false), (4, 3, true), (2, 4, true)] {
        for precise in [false, true] {
            let b = board(fw, fh, pillar, precise);
            let g = Geometry::new(&b);
            for sh in &shapes {
                for sub in [false, true] {
                    let pl = Placements::build(&b, &g, sh, sub);
                    if !pillar {
                        // The plain build makes the general one's tables,
                        // placements in the same order.
                        let any = Placements::build_any(&b, &g, sh, sub);
                        assert_eq!(format!("{pl:?}"), format!("{any:?}"), "{fw}x{fh}");
                    }
                    let mut got: Vec<Vec<u32>> = (0..pl.len() as u32)
                        .map(|i| {
                            let mut v = pl.slots(i).to_vec();
                            v.sort_unstable();
                            v
                        })
                        .collect();
                    let n = got.len();
                    got.sort();
                    got.dedup();
                    assert_eq!(got.len(), n, "{fw}x{fh} pillar {pillar}: a footprint twice");
                    let mut want = std::collections::BTreeSet::new();
                    for o in sh.orientations() {
                        let fp = o.footprint(sub, precise);
                        for &f in &g.faces {
                            let (fx, fy) =
                                ((f as usize / b.h) as isize, (f as usize % b.h) as isize);
                            let mut slots = Vec::new();
                            for &(dx, dy) in &fp {
                                let (mut x, y) = (fx + dx, fy + dy);
                                if pillar {
                                    x = x.rem_euclid(b.w as isize);
                                }
                                if x < 0 || y < 0 || x >= b.w as isize || y >= b.h as isize {
                                    slots.clear();
                                    break;
                                }
                                slots.push(b.index(x as usize, y as usize) as u32);
                            }
                            if !slots.is_empty() {
                                slots.sort_unstable();
                                want.insert(slots);
                            }
                        }
                    }
                    let want: Vec<Vec<u32>> = want.into_iter().collect();
                    assert_eq!(got, want, "{fw}x{fh} pillar {pillar} precise {precise}");
                }
            }
        }
    }
}

// ---- Hand-made boards ----

#[test]
fn plain_tilings() {
    let b = board(2, 1, false, true);
    let r = region(&b, &[(0, 0), (1, 0)]);
    assert!(both(&b, &r, &[(shape(&[(0, 0), (1, 0)], false), false)]));
    // A fixed vertical domino fits nowhere on one row: cut at once.
    let vert = shape(&[(0, 0), (0, 1)], false);
    assert!(!both(&b, &r, &[(vert.clone(), false)]));
    assert!(!probe(&b, &r, &[(vert, false)], |s, _| s.needs_ok(0)));
    // Rotatable, it lies down.
    assert!(both(&b, &r, &[(shape(&[(0, 0), (0, 1)], true), false)]));
}

#[test]
fn a_poly_may_not_straddle_a_path_edge() {
    let b = board(2, 1, false, true);
    let mut r = region(&b, &[(0, 0), (1, 0)]);
    let mid = b.index(2, 1) as u32;
    r.retain(|&s| s != mid);
    let dom = (shape(&[(0, 0), (1, 0)], false), false);
    // The inner edge stays 0, the domino raises it, no ylop can lower it.
    assert!(!probe(&b, &r, std::slice::from_ref(&dom), |s, b| {
        let pi = placement(s, 0, &[face(b, 0, 0), face(b, 1, 0)]);
        s.placeable(0, pi, 0)
    }));
    assert!(!both(&b, &r, std::slice::from_ref(&dom)));
    // Without precise footprints it may.
    let b2 = board(2, 1, false, false);
    assert!(both(&b2, &r, &[dom]));
}

#[test]
fn an_overhang_needs_a_ylop_under_it() {
    let b = board(2, 1, false, true);
    let r = region(&b, &[(0, 0)]);
    let dom = (shape(&[(0, 0), (1, 0)], false), false);
    let mono = shape(&[(0, 0)], false);
    assert!(both(&b, &r, &[dom.clone(), (mono.clone(), true)]));
    // On a single face there is nowhere to hang over.
    let b1 = board(1, 1, false, true);
    let r1 = region(&b1, &[(0, 0)]);
    assert!(!both(&b1, &r1, &[dom, (mono, true)]));
}

#[test]
fn the_ylops_bound_the_overhang() {
    // Two dominoes on the two left faces of a 3x1 board, with two
    // monomino ylops: stacking both dominoes on the right pair raises
    // the faces by 3 in all, more than the ylops can take back.
    let b = board(3, 1, false, true);
    let r = region(&b, &[(0, 0), (1, 0)]);
    let dom = shape(&[(0, 0), (1, 0)], false);
    let mono = shape(&[(0, 0)], false);
    let pieces = [
        (mono.clone(), true),
        (mono, true),
        (dom.clone(), false),
        (dom, false),
    ];
    probe(&b, &r, &pieces, |s, b| {
        assert_eq!(s.face_cap, 2);
        let pi = placement(s, 1, &[face(b, 1, 0), face(b, 2, 0)]);
        s.apply(1, pi, 1);
        assert!(s.over_faces <= s.face_cap);
        s.apply(1, pi, 1);
        assert_eq!(s.over_faces, 3);
        assert!(s.over_faces > s.face_cap);
        s.apply(1, pi, -1);
        s.apply(1, pi, -1);
        assert_eq!((s.over_faces, s.over_edges), (0, 0));
    });
    assert!(both(&b, &r, &pieces));
    // The I3 on the middle face needs both ends lowered; a domino ylop
    // cannot lower both.
    let r = region(&b, &[(1, 0)]);
    let i3 = (shape(&[(0, 0), (1, 0), (2, 0)], false), false);
    assert!(!both(
        &b,
        &r,
        &[i3.clone(), (shape(&[(0, 0), (1, 0)], true), true)]
    ));
    let mono = (shape(&[(0, 0)], false), true);
    assert!(both(&b, &r, &[i3, mono.clone(), mono]));
}

#[test]
fn polys_that_cannot_reach_the_pits_need_ylops() {
    // Diagonal faces of a 2x2 board: a horizontal domino always covers
    // one face outside the region, which a ylop must lower.
    let b = board(2, 2, false, true);
    let r = region(&b, &[(0, 0), (1, 1)]);
    let dom = (shape(&[(0, 0), (1, 0)], false), false);
    let mono = (shape(&[(0, 0)], false), true);
    // Right area, but no ylop: cut before any placement.
    assert!(!probe(&b, &r, std::slice::from_ref(&dom), |s, _| s.needs_ok(0)));
    assert!(!both(&b, &r, std::slice::from_ref(&dom)));
    // Two monomino ylops lower one outside face each.
    let two = [dom.clone(), dom.clone(), mono.clone(), mono];
    assert!(probe(&b, &r, &two, |s, _| s.needs_ok(0)));
    assert!(both(&b, &r, &two));
    // A domino ylop cannot lower two diagonal faces.
    let one = [dom.clone(), dom, (shape(&[(0, 0), (1, 0)], true), true)];
    assert!(!both(&b, &r, &one));
}

#[test]
fn a_ylop_needs_polys_to_fill_it() {
    // Net 0 on a 2x2 board: a horizontal domino ylop and a vertical
    // domino poly never cancel.
    let b = board(2, 2, false, true);
    let yh = (shape(&[(0, 0), (1, 0)], false), true);
    let pv = (shape(&[(0, 0), (0, 1)], false), false);
    assert!(!both(&b, &[], &[yh.clone(), pv.clone()]));
    // On the bottom row, its faces can only be covered by polys that
    // start on the top row: the ylop is cut.
    probe(&b, &[], &[yh.clone(), pv.clone()], |s, b| {
        let pi = placement(s, 0, &[face(b, 0, 1), face(b, 1, 1)]);
        assert!(!s.placeable(0, pi, 2));
        let top = placement(s, 0, &[face(b, 0, 0), face(b, 1, 0)]);
        assert!(s.placeable(0, top, 0));
    });
    // The same shape cancels anywhere.
    let ph = (shape(&[(0, 0), (1, 0)], false), false);
    assert!(both(&b, &[], &[yh, ph]));
}

#[test]
fn the_last_ylop_needs_a_poly_to_start_on_it() {
    // The right face of a 2x1 board, a domino and a monomino ylop: the
    // only fit puts the ylop under the domino's left half, outside the
    // region.
    let b = board(2, 1, false, true);
    let r = region(&b, &[(1, 0)]);
    let pieces = [
        (shape(&[(0, 0), (1, 0)], false), false),
        (shape(&[(0, 0)], false), true),
    ];
    assert!(both(&b, &r, &pieces));
    probe(&b, &r, &pieces, |s, b| {
        assert!(s.kinds[0].subtractive, "ylops come first");
        // On the left face, the domino can start there on that face,
        // the inner edge (both at -1 once the ylop is down) and the
        // region's face.
        let left = placement(s, 0, &[face(b, 0, 0)]);
        assert!(s.last_ylop_leaves_room(0, left, 0));
        // On the region's face it would leave -2, and no domino starts
        // there: cut before its bookkeeping.
        let right = placement(s, 0, &[face(b, 1, 0)]);
        assert!(!s.last_ylop_leaves_room(0, right, 1));
    });
}

#[test]
fn a_footprint_wrapped_onto_itself_counts_twice() {
    // On a pillar one face wide a horizontal domino covers its face
    // twice. Face (0,0) ends at -1 - 2 - 2 + 1 + 2 + 2 = 0 with the
    // twin domino pair there, the I3 and the split tromino pair.
    let b = board(1, 3, true, true);
    let r: Vec<u32> = (0..b.len() as u32).collect();
    let split = shape(&[(1, 0), (2, 0), (0, 2)], false);
    let pieces = [
        (shape(&[(0, 0), (0, 1), (0, 2)], false), false),
        (split.clone(), false),
        (shape(&[(0, 0), (1, 0)], false), false),
        (split, true),
        (shape(&[(0, 0), (1, 0)], true), true),
    ];
    probe(&b, &r, &pieces, |s, b| {
        let dom = (0..s.kinds.len())
            .find(|&t| !s.kinds[t].subtractive && s.kinds[t].placements.len() == 3);
        let dom = dom.expect("the domino");
        assert_eq!(s.kinds[dom].placements.max_mult, 2);
        assert_eq!(s.polys_from(face(b, 0, 0), 0), 5);
    });
    assert!(both(&b, &r, &pieces));
}

#[test]
fn a_limit_stops_the_fit() {
    let b = board(2, 2, false, true);
    let yh = (shape(&[(0, 0), (1, 0)], false), true);
    let pv = (shape(&[(0, 0), (0, 1)], false), false);
    let mut fs = FitScratch::default();
    fs.limits.flags.push(Arc::new(AtomicBool::new(true)));
    // A wrong "fits" that says it is a guess.
    assert!(run_with(&b, &[], &[yh.clone(), pv.clone()], &mut fs));
    assert!(fs.interrupted() && fs.last_interrupted());
    fs.limits = FitLimits::default();
    assert!(!run_with(&b, &[], &[yh, pv], &mut fs));
    assert!(fs.interrupted() && !fs.last_interrupted());
    fs.clear_interrupted();
    assert!(!fs.interrupted());
}

// ---- Random boards against the engine ----

/// A small xorshift generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
}

/// A random shape of `size` squares in a 4x4 box, usually connected.
fn random_shape(rng: &mut Rng, size: usize) -> Polyomino {
    let mut cells = vec![(rng.below(4) as u8, rng.below(4) as u8)];
    while cells.len() < size {
        let c = if rng.chance(1, 6) {
            (rng.below(4) as u8, rng.below(4) as u8)
        } else {
            let (x, y) = cells[rng.below(cells.len())];
            let (dx, dy) = [(1i8, 0i8), (-1, 0), (0, 1), (0, -1)][rng.below(4)];
            let (nx, ny) = (x as i8 + dx, y as i8 + dy);
            if !(0..4).contains(&nx) || !(0..4).contains(&ny) {
                continue;
            }
            (nx as u8, ny as u8)
        };
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    Polyomino::new(cells, rng.chance(1, 3))
}

/// Cuts a set of face coordinates into random pieces.
fn cut_into_pieces(rng: &mut Rng, faces: &[(usize, usize)]) -> Vec<Polyomino> {
    let mut left: Vec<(usize, usize)> = faces.to_vec();
    let mut out = Vec::new();
    while !left.is_empty() {
        let first = left.swap_remove(rng.below(left.len()));
        let mut cells = vec![first];
        let size = 1 + rng.below(4);
        while cells.len() < size {
            let near: Vec<usize> = (0..left.len())
                .filter(|&i| {
                    cells.iter().any(|c| {
                        let (a, b) = (
                            c.0 as isize - left[i].0 as isize,
                            c.1 as isize - left[i].1 as isize,
                        );
                        a.abs() + b.abs() == 1
                    })
                })
                .collect();
            if near.is_empty() {
                break;
            }
            cells.push(left.swap_remove(near[rng.below(near.len())]));
        }
        let (mx, my) = (
            cells.iter().map(|c| c.0).min().unwrap(),
            cells.iter().map(|c| c.1).min().unwrap(),
        );
        out.push(Polyomino::new(
            cells.iter().map(|c| ((c.0 - mx) as u8, (c.1 - my) as u8)),
            rng.chance(1, 3),
        ));
    }
    out
}

/// Random pieces of total area `area` (at most 4 squares each).
fn random_area(rng: &mut Rng, mut area: usize) -> Vec<Polyomino> {
    let mut out = Vec::new();
    while area > 0 {
        let n = 1 + rng.below(area.min(4));
        out.push(random_shape(rng, n));
        area -= n;
    }
    out
}

#[test]
fn random_boards_agree_with_the_engine() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut yes, mut no) = (0, 0);
    let mut fs = FitScratch::default();
    for case in 0..6000 {
        let (fw, fh) = (1 + rng.below(3), 1 + rng.below(3));
        let pillar = rng.chance(1, 5);
        let b = board(fw, fh, pillar, !rng.chance(1, 6));
        let all: Vec<(usize, usize)> = (0..fw).flat_map(|i| (0..fh).map(move |j| (i, j))).collect();
        let mut chosen: Vec<(usize, usize)> =
            all.iter().copied().filter(|_| rng.chance(2, 3)).collect();
        if chosen.is_empty() {
            chosen.push(all[rng.below(all.len())]);
        }
        let mut r = region(&b, &chosen);
        // Now and then a stray slot in or out, as paths make.
        for s in 0..b.len() as u32 {
            if b.kind[s as usize] != SlotKind::Face && rng.chance(1, 12) {
                match r.iter().position(|&x| x == s) {
                    Some(i) => {
                        r.swap_remove(i);
                    }
                    None => r.push(s),
                }
            }
        }
        let ylops: Vec<Polyomino> = (0..rng.below(3))
            .map(|_| {
                let n = 1 + rng.below(3);
                random_shape(&mut rng, n)
            })
            .collect();
        let ylop_area: usize = ylops.iter().map(|y| y.size()).sum();
        let mut polys = match rng.below(4) {
            // A tiling of the region, plus a twin poly for every ylop.
            0 | 1 => {
                let mut p = cut_into_pieces(&mut rng, &chosen);
                for y in &ylops {
                    p.push(Polyomino::new(y.cells().iter().copied(), rng.chance(1, 2)));
                }
                p
            }
            // Random pieces of the right area.
            2 => random_area(&mut rng, chosen.len() + ylop_area),
            // Net zero: the pieces must cancel.
            _ => random_area(&mut rng, ylop_area),
        };
        if rng.chance(1, 4) && !polys.is_empty() {
            // Swap one poly for another shape of the same size.
            let i = rng.below(polys.len());
            let n = polys[i].size();
            polys[i] = random_shape(&mut rng, n);
        }
        let mut pieces: Vec<(Polyomino, bool)> = polys.into_iter().map(|p| (p, false)).collect();
        pieces.extend(ylops.into_iter().map(|y| (y, true)));
        if pieces.len() > 7 {
            continue; // keep the engine quick
        }
        let want = engine(&b, &r, &pieces);
        let got = run_with(&b, &r, &pieces, &mut fs);
        assert_eq!(
            got, want,
            "case {case}: {fw}x{fh} pillar {pillar} precise {} region {r:?} pieces {pieces:?}",
            b.precise
        );
        if want {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert!(yes > 1000 && no > 1000, "yes {yes} no {no}");
}

use super::*;
use crate::model::{Color, Polyomino, Pos, Puzzle, Symbol, SymbolKind};

/// A 3x3 panel with one fixed L piece (three squares: `#.` over `##`)
/// on the centre face.
fn l_panel(pillar: bool) -> (FaceMasks<1>, usize) {
    let mut p = Puzzle::new(3, 3, pillar).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    let shape = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
    p.cell_mut(Pos::new(3, 3)).symbol = Some(Symbol::new(
        SymbolKind::Poly(shape),
        Color::from_name("black"),
    ));
    let plan = Plan::new(&p).unwrap();
    (FaceMasks::new(&plan), plan.ncols)
}

fn faces(ncols: usize, at: &[(usize, usize)]) -> Bits<1> {
    let mut b = Bits::empty();
    for &(x, y) in at {
        b.set(y * ncols + x);
    }
    b
}

#[test]
fn pieces_cover_only_what_fits_inside_the_region() {
    let (fm, nc) = l_panel(false);
    // The L fits nowhere in a straight row of faces.
    assert_eq!(fm.piece_cover(&faces(nc, &[(0, 1), (1, 1), (2, 1)])), None);
    // Of the four placements on the panel, two lie in the left column
    // and the lower middle faces, and together they cover them all.
    let left = faces(nc, &[(0, 0), (0, 1), (0, 2), (1, 1), (1, 2)]);
    assert_eq!(
        fm.piece_cover(&left),
        Some(faces(nc, &[(0, 0), (0, 1), (0, 2), (1, 1), (1, 2)]))
    );
    let corner = faces(nc, &[(1, 0), (1, 1), (2, 1), (1, 2)]);
    assert_eq!(
        fm.piece_cover(&corner),
        Some(faces(nc, &[(1, 0), (1, 1), (2, 1)]))
    );
    // A region without the piece asks nothing.
    assert_eq!(fm.piece_cover(&faces(nc, &[(0, 0)])), Some(Bits::empty()));
    // Across a pillar's seam: the L at x 2 reaches back to x 0.
    let (fm, nc) = l_panel(true);
    let seam = faces(nc, &[(2, 0), (2, 1), (0, 1)]);
    assert_eq!(fm.piece_cover(&seam.or(&faces(nc, &[(1, 1)]))), Some(seam));
}

/// The cover by orientations at once (off pillars) is the union of the
/// placements inside the region, one by one: on a 5x4 panel with an
/// L tetromino (rotatable), a fixed S, a domino and a monomino, over
/// 2,000 random regions (each face in one with odds of 3 in 4).
#[test]
fn covers_by_orientation_are_the_placements_one_by_one() {
    let mut p = Puzzle::new(5, 4, false).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    let pieces = [
        (
            Polyomino::new([(0, 0), (0, 1), (0, 2), (1, 2)], true),
            (1, 1),
        ),
        (
            Polyomino::new([(1, 0), (2, 0), (0, 1), (1, 1)], false),
            (5, 3),
        ),
        (Polyomino::new([(0, 0), (1, 0)], true), (7, 5)),
        (Polyomino::new([(0, 0)], false), (3, 7)),
    ];
    for (shape, (x, y)) in pieces {
        let black = Color::from_name("black");
        p.cell_mut(Pos::new(x, y)).symbol = Some(Symbol::new(SymbolKind::Poly(shape), black));
    }
    let plan = Plan::new(&p).unwrap();
    let fm = FaceMasks::<1>::new(&plan);
    assert!(fm.placements.iter().all(|k| !k.shifts.is_empty()));
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut some = 0;
    for _ in 0..2000 {
        let mut region = Bits::<1>::empty();
        for f in fm.inside.iter() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            if !seed.is_multiple_of(4) {
                region.set(f);
            }
        }
        let mut want = Some(Bits::empty());
        for k in fm.placements.iter().filter(|k| k.at.intersects(&region)) {
            let inside: Vec<_> = k
                .places
                .iter()
                .filter(|pl| pl.and_not(&region).is_empty())
                .collect();
            want = match (want, inside.is_empty()) {
                (Some(c), false) => Some(inside.iter().fold(c, |c, pl| c.or(pl))),
                _ => None,
            };
        }
        some += want.is_some() as u32;
        assert_eq!(fm.piece_cover(&region), want, "region {region:?}");
    }
    assert!(some > 100, "only {some} regions with a cover");
}

/// A 3x3 panel with the fixed L piece (`#.` over `##`) on each face of
/// `at`.
fn ls_panel(at: &[(usize, usize)]) -> (FaceMasks<1>, usize) {
    let mut p = Puzzle::new(3, 3, false).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    let shape = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
    for &(x, y) in at {
        p.cell_mut(Pos::new(2 * x + 1, 2 * y + 1)).symbol = Some(Symbol::new(
            SymbolKind::Poly(shape.clone()),
            Color::from_name("black"),
        ));
    }
    let plan = Plan::new(&p).unwrap();
    (FaceMasks::new(&plan), plan.ncols)
}

/// `packs` with up to `steps` steps, and the packing it found.
fn packs(
    fm: &FaceMasks<1>,
    region: &Bits<1>,
    need: &Bits<1>,
    links: &Links<1>,
    steps: u32,
) -> (bool, u32, Vec<(u16, u32)>) {
    let inside = Links {
        right: links.right.and(region),
        down: links.down.and(region),
        wrap: links.wrap.and(region),
    };
    let parts = StuckParts::new(fm, inside);
    let (mut left, mut found, mut work) = (steps, Vec::new(), 0);
    let ok = fm.packs(region, need, &parts, &mut left, &mut found, &mut work);
    (ok, left, found)
}

fn no_links() -> Links<1> {
    Links {
        right: Bits::empty(),
        down: Bits::empty(),
        wrap: Bits::empty(),
    }
}

#[test]
fn pieces_must_fit_all_at_once() {
    // Each of the two Ls has one placement covering its own face, and
    // both take the centre: each fits, not both.
    let (fm, nc) = ls_panel(&[(0, 0), (2, 2)]);
    let all = faces(nc, &[(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])
        .or(&faces(nc, &[(0, 2), (1, 2), (2, 2)]));
    let need = faces(nc, &[(0, 0), (2, 2)]);
    assert!(fm.piece_cover_of(&all, &need).is_some());
    let (ok, left, _) = packs(&fm, &all, &need, &no_links(), 100);
    assert!(!ok && left > 0, "decided: no packing");
    // Alone, either fits.
    let (fm1, _) = ls_panel(&[(0, 0)]);
    let one = faces(nc, &[(0, 0)]);
    let (ok, _, found) = packs(&fm1, &all, &one, &no_links(), 100);
    assert!(ok);
    assert_eq!(found.len(), 1);
    assert!(fm1.packing_holds(&all, &one, &no_links(), &found));
    // On a wider panel both fit, apart.
    let mut p = Puzzle::new(4, 3, false).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    let shape = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
    for (x, y) in [(0, 0), (3, 2)] {
        p.cell_mut(Pos::new(2 * x + 1, 2 * y + 1)).symbol = Some(Symbol::new(
            SymbolKind::Poly(shape.clone()),
            Color::from_name("black"),
        ));
    }
    let plan = Plan::new(&p).unwrap();
    let (fm4, nc4) = (FaceMasks::<1>::new(&plan), plan.ncols);
    let wide = fm4.inside;
    let need4 = faces(nc4, &[(0, 0), (3, 2)]);
    let (ok, _, found) = packs(&fm4, &wide, &need4, &no_links(), 100);
    assert!(ok);
    let covered = found.iter().fold(Bits::empty(), |u, &(k, i)| {
        u.or(&fm4.placements[k as usize].places[i as usize])
    });
    assert_eq!(covered.count(), 6, "two placements, apart");
    assert!(need4.and_not(&covered).is_empty());
    // Out of steps, it gives up: the region passes.
    let (ok, left, _) = packs(&fm, &all, &need, &no_links(), 1);
    assert!(ok && left == 0);
}

#[test]
fn pieces_tile_a_region_exactly_or_not() {
    // The fixed L (`#.` over `##`) on a 3x3 panel has four placements,
    // at (0, 0), (1, 0), (0, 1) and (1, 1) (top left). The ones at
    // (1, 0) and (0, 1) are apart: they tile the six faces they cover.
    let (fm, nc) = ls_panel(&[(1, 0), (0, 1)]);
    let region = faces(nc, &[(1, 0), (1, 1), (2, 1), (0, 1), (0, 2), (1, 2)]);
    let mut memo = TileMemo::new(64);
    let mut steps = 100;
    assert_eq!(fm.tiles(&region, &mut steps, &mut memo), Some(true));
    // Out of steps it leaves the question open (one step places one
    // piece).
    let mut memo = TileMemo::new(64);
    assert_eq!(fm.tiles(&region, &mut 1, &mut memo), None);
    assert_eq!(fm.tiles(&region, &mut 2, &mut memo), Some(true));
    // Six faces whose only two placements inside, at (0, 0) and
    // (1, 1), overlap: no tiling, also when asked again (from the kept
    // verdicts, without a step).
    let (fm, nc) = ls_panel(&[(0, 0), (2, 2)]);
    let region = faces(nc, &[(0, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2)]);
    let mut memo = TileMemo::new(64);
    assert_eq!(fm.tiles(&region, &mut 100, &mut memo), Some(false));
    assert_eq!(fm.tiles(&region, &mut 0, &mut memo), Some(false));
}

#[test]
fn a_part_the_line_cannot_cut_is_covered_whole_or_not_at_all() {
    let (fm, nc) = ls_panel(&[(1, 1)]);
    // Without (0, 0) the L on the centre has two placements inside:
    // over (1, 1), (1, 2), (2, 2) and over (1, 0), (1, 1), (2, 1).
    let region = faces(nc, &[(1, 0), (2, 0), (0, 1), (1, 1), (2, 1)])
        .or(&faces(nc, &[(0, 2), (1, 2), (2, 2)]));
    let need = faces(nc, &[(1, 1)]);
    assert!(packs(&fm, &region, &need, &no_links(), 100).0);
    // Joined for good, (2, 1) and (2, 2) lie in one final region: each
    // placement covers one of them only, and no piece is left for the
    // other.
    let mut links = no_links();
    links.down = faces(nc, &[(2, 1)]);
    let (ok, left, _) = packs(&fm, &region, &need, &links, 100);
    assert!(!ok && left > 0);
    let with_corner = region.or(&faces(nc, &[(0, 0)]));
    let (ok, _, found) = packs(&fm, &with_corner, &need, &links, 100);
    assert!(ok, "the placement over (0, 0) stays clear of the part");
    assert!(fm.packing_holds(&with_corner, &need, &links, &found));
    // That packing no longer holds once the region loses (0, 0), nor
    // once the part reaches into it.
    assert!(!fm.packing_holds(&region, &need, &links, &found));
    let mut reaching = links;
    reaching.right = faces(nc, &[(1, 1)]);
    assert!(!fm.packing_holds(&with_corner, &need, &reaching, &found));
    // A part holding the piece must be covered whole: (1, 1) joined to
    // (2, 1), which is joined to (2, 2), no placement covers.
    let mut joined = no_links();
    joined.right = faces(nc, &[(1, 1)]);
    let need = faces(nc, &[(1, 1), (2, 1)]);
    assert!(packs(&fm, &with_corner, &need, &joined, 100).0);
    joined.down = faces(nc, &[(2, 1)]);
    let need = faces(nc, &[(1, 1), (2, 1), (2, 2)]);
    assert!(!packs(&fm, &with_corner, &need, &joined, 100).0);
}

/// A 4x1 panel with pieces: `sizes` gives each face's piece by its
/// size, negative for a subtractive one (straight pieces), 0 for none.
fn sized_panel(sizes: [i32; 4]) -> (FaceMasks<1>, usize) {
    let mut p = Puzzle::new(4, 1, false).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    for (x, &size) in sizes.iter().enumerate() {
        if size == 0 {
            continue;
        }
        let shape = Polyomino::new((0..size.unsigned_abs() as u8).map(|k| (k, 0)), false);
        let kind = if size > 0 {
            SymbolKind::Poly(shape)
        } else {
            SymbolKind::Ylop(shape)
        };
        p.cell_mut(Pos::new(2 * x + 1, 1)).symbol =
            Some(Symbol::new(kind, Color::from_name("yellow")));
    }
    let plan = Plan::new(&p).unwrap();
    (FaceMasks::new(&plan), plan.ncols)
}

#[test]
fn final_regions_count_the_pieces_that_must_go_for_the_area() {
    // A 3, a 2 and a subtractive 1 on faces 0, 1 and 2 of a row.
    let (fm, nc) = sized_panel([3, 2, -1, 0]);
    let at = |xs: &[usize]| faces(nc, &xs.iter().map(|&x| (x, 0)).collect::<Vec<_>>());
    // All three in 4 faces: net 3 + 2 - 1 = 4, as they are.
    assert_eq!(fm.final_pieces_in_excess(&at(&[0, 1, 2, 3])), 0);
    // In 3 faces: all three make 4, any two 1, 2 or 5: only the 3 alone
    // fits, so two go.
    assert_eq!(fm.final_pieces_in_excess(&at(&[0, 1, 2])), 2);
    // The 3 and the 2 in 2 faces: the 2 alone fits, the 3 goes.
    assert_eq!(fm.final_pieces_in_excess(&at(&[0, 1])), 1);
    // The 3 and the subtractive 1 in 2 faces: net 2, as they are.
    assert_eq!(fm.final_pieces_in_excess(&at(&[0, 2])), 0);
    // The 3 in 1 face, or the subtractive 1 alone (net below 0): it goes.
    assert_eq!(fm.final_pieces_in_excess(&at(&[0])), 1);
    assert_eq!(fm.final_pieces_in_excess(&at(&[2, 3])), 1);
    // A 3 and a 1 in 2 faces: 4, 3 and 1 do not fit, so both go.
    let (fm, nc) = sized_panel([3, 1, 0, 0]);
    assert_eq!(fm.final_pieces_in_excess(&faces(nc, &[(0, 0), (1, 0)])), 2);
    // A 2 and a subtractive 2: a net of 0 is left to the fit (the two
    // may cancel out), so none has to go.
    let (fm, nc) = sized_panel([2, -2, 0, 0]);
    let three = faces(nc, &[(0, 0), (1, 0), (2, 0)]);
    assert_eq!(fm.final_pieces_in_excess(&three), 0);
}

/// Whether the pieces `left` (a count by kind) tile `free` exactly,
/// trying every placement inside it of every piece left on its lowest
/// face: no kept verdicts, no cover check, no step limit.
fn tiles_plainly(fm: &FaceMasks<1>, free: &Bits<1>, left: &mut [u32]) -> bool {
    let Some(f) = free.first() else {
        return left.iter().all(|&n| n == 0);
    };
    for k in 0..left.len() {
        if left[k] == 0 {
            continue;
        }
        for pl in &fm.placements[k].places {
            if pl.get(f) && pl.and_not(free).is_empty() {
                left[k] -= 1;
                let ok = tiles_plainly(fm, &free.and_not(pl), left);
                left[k] += 1;
                if ok {
                    return true;
                }
            }
        }
    }
    false
}

/// The tiling (with its cover check at each step and its kept verdicts)
/// answers as the plain search does, on 600 random 4x4 panels: a random
/// region (each face in it with odds of 3 in 4), pieces of five shapes
/// (some rotatable) on random faces of it, then monominoes until their
/// area is the region's.
#[test]
fn tilings_agree_with_placing_every_piece_everywhere() {
    let shapes = [
        Polyomino::new([(0, 0), (1, 0)], true),
        Polyomino::new([(0, 0), (0, 1), (1, 1)], true),
        Polyomino::new([(0, 0), (1, 0), (2, 0)], false),
        Polyomino::new([(0, 0), (1, 0), (2, 0), (1, 1)], true),
        Polyomino::new([(0, 0), (1, 0), (1, 1), (2, 1)], false),
    ];
    let mono = Polyomino::new([(0, 0)], false);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (mut yes, mut no) = (0, 0);
    for _ in 0..600 {
        let mut p = Puzzle::new(4, 4, false).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        let mut at = Vec::new();
        for y in 0..4 {
            for x in 0..4 {
                if !next().is_multiple_of(4) {
                    at.push((x, y));
                }
            }
        }
        let count = at.len() as u32;
        let mut area = 0;
        let mut empty = Vec::new();
        for &(x, y) in &at {
            let shape = &shapes[(next() % 5) as usize];
            let size = shape.size() as u32;
            if next().is_multiple_of(2) && area + size <= count {
                area += size;
                p.cell_mut(Pos::new(2 * x + 1, 2 * y + 1)).symbol = Some(Symbol::new(
                    SymbolKind::Poly(shape.clone()),
                    Color::from_name("black"),
                ));
            } else {
                empty.push((x, y));
            }
        }
        for &(x, y) in &empty {
            if area == count {
                break;
            }
            area += 1;
            p.cell_mut(Pos::new(2 * x + 1, 2 * y + 1)).symbol = Some(Symbol::new(
                SymbolKind::Poly(mono.clone()),
                Color::from_name("black"),
            ));
        }
        if area != count || count == 0 {
            continue;
        }
        let plan = Plan::new(&p).unwrap();
        let fm = FaceMasks::<1>::new(&plan);
        let region = faces(plan.ncols, &at);
        let mut left: Vec<u32> = fm
            .placements
            .iter()
            .map(|k| k.at.and(&region).count())
            .collect();
        let want = tiles_plainly(&fm, &region, &mut left);
        let mut memo = TileMemo::new(1 << 10);
        let got = fm.tiles(&region, &mut 1_000_000, &mut memo);
        assert_eq!(got, Some(want), "region {at:?}");
        // Asked again: from the kept verdicts.
        assert_eq!(fm.tiles(&region, &mut 0, &mut memo), Some(want));
        if want {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert!(yes > 30 && no > 30, "{yes} tilings, {no} without");
}

/// A `w` x 1 panel with each fixed piece of `pieces` (its squares, by
/// column) standing on the face at its column.
fn row_panel(w: usize, pieces: &[(usize, &[(u8, u8)])]) -> (FaceMasks<1>, usize) {
    let mut p = Puzzle::new(w, 1, false).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    for &(x, cells) in pieces {
        let shape = Polyomino::new(cells.iter().copied(), false);
        p.cell_mut(Pos::new(2 * x + 1, 1)).symbol = Some(Symbol::new(
            SymbolKind::Poly(shape),
            Color::from_name("black"),
        ));
    }
    let plan = Plan::new(&p).unwrap();
    (FaceMasks::new(&plan), plan.ncols)
}

#[test]
fn each_part_of_a_packing_holds_the_pieces_placed_in_it() {
    // A domino standing on face 0, a single square on face 4. In the
    // faces 0, 3 and 4 the only packing covering both puts the domino on
    // 3 and 4 and the square on 0: apart, each part holds the other's
    // piece, so no final regions tile that way.
    let (fm, nc) = row_panel(5, &[(0, &[(0, 0), (1, 0)]), (4, &[(0, 0)])]);
    let region = faces(nc, &[(0, 0), (3, 0), (4, 0)]);
    let need = faces(nc, &[(0, 0), (4, 0)]);
    let (ok, left, _) = packs(&fm, &region, &need, &no_links(), 100);
    assert!(!ok && left > 0, "decided: no packing");
    // In the whole row the domino goes on 0 and 1, the square on 4.
    let row = faces(nc, &[(0, 0), (1, 0), (2, 0), (3, 0), (4, 0)]);
    let (ok, _, found) = packs(&fm, &row, &need, &no_links(), 100);
    assert!(ok);
    let used = found.iter().fold(Bits::empty(), |u, &(k, i)| {
        u.or(&fm.placements[k as usize].places[i as usize])
    });
    assert!(fm.groups_hold(&used, &found));
    assert!(fm.packing_holds(&row, &need, &no_links(), &found));
    // A piece of two squares a face apart lies in one final region only
    // with something between them.
    let gap: &[(u8, u8)] = &[(0, 0), (2, 0)];
    let (fm, nc) = row_panel(3, &[(0, gap)]);
    let row = faces(nc, &[(0, 0), (1, 0), (2, 0)]);
    let (ok, left, _) = packs(&fm, &row, &faces(nc, &[(0, 0)]), &no_links(), 100);
    assert!(!ok && left > 0, "decided: no packing");
    let (fm, nc) = row_panel(3, &[(0, gap), (1, &[(0, 0)])]);
    let need = faces(nc, &[(0, 0), (1, 0)]);
    assert!(packs(&fm, &row, &need, &no_links(), 100).0);
}

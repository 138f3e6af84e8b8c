//! `witness::why`: on hand-made unsolvable panels whose minimal sets are
//! reasoned out below, the set named; on random unsolvable panels, a set
//! whose panel (only those symbols, starts, ends and gaps kept) has no
//! solution, while dropping any one of them gives one, both from the SAT
//! engine's unsatisfiable core and by deletion alone; the core itself
//! names symbols whose panel has no solution, and on hand-made panels
//! with one minimal set, exactly that set.

use crate::common;

use common::random::{
    fill_slots, line_slot, mirror_starts_and_ends, place_start_end, random_frame, random_shape,
    starts_and_ends, Rng, COLORS,
};
use witness::model::{Direction, Dot, Gap, Pos, Puzzle, SlotKind, Symbol, SymbolKind};
use witness::{why, Engine, Error, SolveOptions, Status, WhyOptions};

/// A 1x1 panel, start (0,2) bottom-left, end (2,0) top-right.
fn one_by_one() -> Puzzle {
    let mut p = Puzzle::new(1, 1, false).unwrap();
    p.cell_mut(Pos::new(0, 2)).start = true;
    p.cell_mut(Pos::new(2, 0)).end = Some(Direction::Up);
    p
}

fn square(c: usize) -> Option<Symbol> {
    Some(Symbol::new(SymbolKind::Square, COLORS[c].clone()))
}

#[test]
fn hand_made_panels() {
    // Dots on the left edge (0,1) and the bottom edge (1,2): both touch
    // the start (0,2), which the line leaves by one of them and never
    // comes back to, so no line covers both; either alone is covered (up
    // then right, right then up). The square at (1,1) is alone in the
    // only face and always satisfied: it is not named.
    let mut p = one_by_one();
    p.cell_mut(Pos::new(0, 1)).dot = Dot::Black;
    p.cell_mut(Pos::new(1, 2)).dot = Dot::Black;
    p.cell_mut(Pos::new(1, 1)).symbol = square(0);
    let w = why(&p, &WhyOptions::default()).unwrap();
    assert_eq!(
        (w.symbols, w.no_line, w.status),
        (
            vec![Pos::new(0, 1), Pos::new(1, 2)],
            false,
            Status::Complete
        )
    );

    // A lone star: the panel's one face is always a region of its own
    // with no other symbol of the star's colour. The dot on the top edge
    // is covered by up-then-right: the star alone is named.
    let mut p = one_by_one();
    p.cell_mut(Pos::new(1, 1)).symbol = Some(Symbol::new(SymbolKind::Star, COLORS[0].clone()));
    p.cell_mut(Pos::new(1, 0)).dot = Dot::Black;
    let w = why(&p, &WhyOptions::default()).unwrap();
    assert_eq!((w.symbols, w.no_line), (vec![Pos::new(1, 1)], false));

    // A 2x1 panel (two faces side by side), start (0,2) bottom-left, end
    // (4,0) top-right, a black square at (1,1) and a white one at (3,1),
    // which only the middle edge (2,1) parts, a dot on the bottom-left
    // edge (1,2) and one on the right edge (4,1). A line crossing the
    // middle goes up it, (0,2)→(2,2)→(2,0)→(4,0), missing (4,1), or down
    // it, (0,2)→(0,0)→(2,0)→(2,2)→(4,2)→(4,0), missing (1,2): no
    // solution. Without a square, (0,2)→(2,2)→(4,2)→(4,0) covers both
    // dots; without the dot (1,2), the line down the middle; without the
    // dot (4,1), the line up it. All four are named.
    let mut p = Puzzle::new(2, 1, false).unwrap();
    p.cell_mut(Pos::new(0, 2)).start = true;
    p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    p.cell_mut(Pos::new(1, 1)).symbol = square(0);
    p.cell_mut(Pos::new(3, 1)).symbol = square(1);
    p.cell_mut(Pos::new(1, 2)).dot = Dot::Black;
    p.cell_mut(Pos::new(4, 1)).dot = Dot::Black;
    let w = why(&p, &WhyOptions::default()).unwrap();
    let mut got = w.symbols.clone();
    got.sort();
    let mut want = vec![
        Pos::new(1, 1),
        Pos::new(3, 1),
        Pos::new(1, 2),
        Pos::new(4, 1),
    ];
    want.sort();
    assert_eq!((got, w.no_line), (want, false));
    // The same with a dot on the top-right edge (3,0) as well: then the
    // two dots (3,0) and (4,1) are enough, as the line enters the end
    // (4,0) once, from the left (covering (3,0)) or from below (covering
    // (4,1)); each alone is covered. The deletion, by chunks in slot
    // order and then one symbol at a time, drops the squares and (1,2),
    // so this pair is named.
    p.cell_mut(Pos::new(3, 0)).dot = Dot::Black;
    let w = why(&p, &WhyOptions::default()).unwrap();
    assert_eq!(w.symbols, vec![Pos::new(3, 0), Pos::new(4, 1)]);

    // The same two dots with a black star on each face instead: the dots
    // cannot both be covered, while either alone is, by a line that keeps
    // the stars in one region. A lone star is a set too (no partner, it
    // fails whatever the line), but it is not what makes this panel
    // unsolvable: the stars are tried first, with the dots there, and
    // dropped, so the two dots are named.
    let mut p = Puzzle::new(2, 1, false).unwrap();
    p.cell_mut(Pos::new(0, 2)).start = true;
    p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    for x in [1, 3] {
        p.cell_mut(Pos::new(x, 1)).symbol = Some(Symbol::new(SymbolKind::Star, COLORS[0].clone()));
    }
    p.cell_mut(Pos::new(3, 0)).dot = Dot::Black;
    p.cell_mut(Pos::new(4, 1)).dot = Dot::Black;
    let w = why(&p, &WhyOptions::default()).unwrap();
    assert_eq!(w.symbols, vec![Pos::new(3, 0), Pos::new(4, 1)]);

    // Gaps on the left and bottom edges shut the start in: no line at
    // all, whatever the dot on the top edge asks.
    let mut p = one_by_one();
    p.cell_mut(Pos::new(0, 1)).gap = Gap::Full;
    p.cell_mut(Pos::new(1, 2)).gap = Gap::Full;
    p.cell_mut(Pos::new(1, 0)).dot = Dot::Black;
    let w = why(&p, &WhyOptions::default()).unwrap();
    assert_eq!((w.symbols, w.no_line), (vec![], true));

    // A panel with a solution has nothing to name.
    let p = one_by_one();
    assert!(matches!(
        why(&p, &WhyOptions::default()),
        Err(Error::Options(_))
    ));
}

/// A random panel with faces of every kind and dots: many have no
/// solution.
fn random_panel(r: &mut Rng) -> Puzzle {
    let mut p = random_frame(r, 3, 2);
    let kind = |r: &mut Rng| match r.below(6) {
        0 => SymbolKind::Triangle(1 + r.below(3) as u32),
        1 => SymbolKind::Square,
        2 => SymbolKind::Star,
        3 => SymbolKind::Nega,
        4 => SymbolKind::Poly(random_shape(r)),
        _ => SymbolKind::Square,
    };
    fill_slots(r, &mut p, 45, kind, (10, 20));
    starts_and_ends(r, &mut p, 100);
    p
}

/// `p` with only the symbols (face symbols and dots) at `keep`.
fn only(p: &Puzzle, keep: &[Pos]) -> Puzzle {
    let mut q = p.clone();
    for s in p.positions().collect::<Vec<_>>() {
        if !keep.contains(&s) {
            q.cell_mut(s).symbol = None;
            q.cell_mut(s).dot = Dot::None;
        }
    }
    q
}

fn solvable(p: &Puzzle) -> bool {
    let s = witness::solve(p, &SolveOptions::default().with_engine(Engine::Search)).unwrap();
    assert_eq!(s.status, Status::Complete);
    s.path.is_some()
}

#[test]
fn sets_are_minimal_on_random_unsolvable_panels() {
    let mut r = Rng(common::env_u64("WHY_SEED").unwrap_or(0x0779_11ab));
    let want = common::env_u64("WHY_CASES").unwrap_or(120);
    let (mut checked, mut empty, mut tries) = (0, 0, 0);
    while checked < want {
        tries += 1;
        assert!(tries < 50 * want, "too few unsolvable panels");
        let p = random_panel(&mut r);
        if solvable(&p) {
            continue;
        }
        let w = why(&p, &WhyOptions::default()).unwrap();
        let show = witness::formats::wpjson::to_string(&p).unwrap();
        assert_eq!(w.status, Status::Complete);
        assert!(!solvable(&only(&p, &w.symbols)), "{show}: {w:?}");
        if w.no_line {
            assert!(w.symbols.is_empty());
            empty += 1;
        }
        for k in 0..w.symbols.len() {
            let mut fewer = w.symbols.clone();
            fewer.remove(k);
            assert!(solvable(&only(&p, &fewer)), "{show}: {w:?} without {k}");
        }
        checked += 1;
    }
    assert!(
        empty < checked / 2,
        "{empty} of {checked} without a line at all"
    );
}

/// `p`'s symbols (face symbols and dots).
fn symbols_of(p: &Puzzle) -> Vec<Pos> {
    p.positions()
        .filter(|&q| match q.kind() {
            SlotKind::Face => p.cell(q).symbol.is_some(),
            _ => p.cell(q).dot != Dot::None,
        })
        .collect()
}

/// Checks that `set` is an answer for `p`: `p` with only `set` has no
/// solution, and without any one of them it has one.
fn assert_minimal(p: &Puzzle, set: &[Pos], what: &str) {
    let show = witness::formats::wpjson::to_string(p).unwrap();
    assert!(!solvable(&only(p, set)), "{what} {show}: {set:?}");
    for k in 0..set.len() {
        let mut fewer = set.to_vec();
        fewer.remove(k);
        assert!(
            solvable(&only(p, &fewer)),
            "{what} {show}: {set:?} without {k}"
        );
    }
}

/// The SAT engine's unsatisfiable core over the symbols of `p` that
/// `fixed` leaves, or `None` for a panel it does not take.
#[cfg(feature = "sat")]
fn core_of(p: &Puzzle, fixed: impl Fn(Pos) -> bool) -> Option<Vec<Pos>> {
    use witness::internals::sat::{Core, SatRun};
    let limits = witness::Limits::default();
    let mut run = match SatRun::with_selectors(p, &limits) {
        Ok(run) => run,
        Err(Error::Unsupported(_)) => return None,
        Err(e) => panic!("{e}"),
    };
    // A first call with every symbol fixed names none, and leaves nothing
    // behind for the second: calls are independent.
    match run.core(|_| true, &limits).unwrap() {
        Core::Core(c) => assert_eq!(c, vec![]),
        other => panic!("no core for an unsolvable panel: {other:?}"),
    }
    match run.core(fixed, &limits).unwrap() {
        Core::Core(c) => Some(c),
        other => panic!("no core for an unsolvable panel: {other:?}"),
    }
}

/// A piece with more cells than the panel has faces: the 1x1 panel with
/// a domino in its one face (and a dot on the top edge, covered by up
/// then right) has no solution, since the face's region cannot hold two
/// cells. Every selector is assumed, none fixed: the core names the
/// piece (the area argument holds only while it is there), and its panel
/// has no solution; `why` names the piece alone.
#[cfg(feature = "sat")]
#[test]
fn too_large_a_piece_is_in_the_core() {
    let mut p = one_by_one();
    let domino = witness::model::Polyomino::new([(0, 0), (0, 1)], false);
    p.cell_mut(Pos::new(1, 1)).symbol =
        Some(Symbol::new(SymbolKind::Poly(domino), COLORS[0].clone()));
    p.cell_mut(Pos::new(1, 0)).dot = Dot::Black;
    assert!(!solvable(&p));
    let core = core_of(&p, |_| false).expect("the SAT engine takes pieces");
    assert!(core.contains(&Pos::new(1, 1)), "{core:?}");
    assert!(!solvable(&only(&p, &core)), "{core:?}");
    let w = why(&p, &WhyOptions::default().with_engine(Engine::Sat)).unwrap();
    assert_eq!(w.symbols, vec![Pos::new(1, 1)]);
}

/// A random small panel whose faces take the mechanics of `mode`: 0
/// triangles, 1 squares, 2 stars and squares, 3 elimination marks among
/// squares, stars and triangles, 4 polyominoes among squares and stars,
/// else everything ([`random_panel`]).
fn random_panel_of(r: &mut Rng, mode: u64) -> Puzzle {
    if mode >= 5 {
        return random_panel(r);
    }
    let mut p = random_frame(r, 3, 2);
    let symmetric = p.symmetry.is_some();
    for q in p.positions().collect::<Vec<_>>() {
        let color = COLORS[r.below(COLORS.len() as u64) as usize].clone();
        let kind = q.kind();
        if kind == SlotKind::Face {
            if r.chance(50) {
                let k = match (mode, r.below(4)) {
                    (0, _) => SymbolKind::Triangle(1 + r.below(3) as u32),
                    (1, _) | (2, 0) | (3, 0) | (4, 0) => SymbolKind::Square,
                    (2, _) | (3, 1) | (4, 1) => SymbolKind::Star,
                    (3, 2) => SymbolKind::Nega,
                    (3, _) => SymbolKind::Triangle(1 + r.below(3) as u32),
                    _ => SymbolKind::Poly(random_shape(r)),
                };
                p.cell_mut(q).symbol = Some(Symbol::new(k, color));
            }
        } else {
            line_slot(r, p.cell_mut(q), kind, 10, 20);
        }
    }
    let slots: Vec<Pos> = p
        .positions()
        .filter(|q| q.kind() != SlotKind::Face)
        .collect();
    place_start_end(r, &mut p, &slots);
    if symmetric {
        mirror_starts_and_ends(&mut p, true);
    }
    p
}

/// On random small unsolvable panels of every mechanic the SAT engine
/// takes (symmetry and pillars among them): the core over every symbol
/// names symbols whose panel has no solution, as does the core over the
/// symbols that are no star, mark or piece with those always there; and
/// `why` from the core (the `sat` engine) and `why` by deletion alone (the
/// `search` engine) both name minimal sets (which may differ).
#[cfg(feature = "sat")]
#[test]
fn core_and_deletion_sets_are_both_minimal() {
    let mut r = Rng(common::env_u64("WHY_SEED").unwrap_or(0x5eed_c04e));
    let want = common::env_u64("WHY_CASES").unwrap_or(120);
    let (mut checked, mut tries, mut cores) = (0, 0, 0);
    while checked < want {
        tries += 1;
        assert!(tries < 50 * want, "too few unsolvable panels");
        let p = random_panel_of(&mut r, checked % 6);
        if solvable(&p) {
            continue;
        }
        let show = witness::formats::wpjson::to_string(&p).unwrap();
        if let Some(core) = core_of(&p, |_| false) {
            assert!(!solvable(&only(&p, &core)), "core {show}: {core:?}");
            let fragile = |q: Pos| {
                p.cell(q).symbol.as_ref().is_some_and(|s| {
                    !matches!(s.kind, SymbolKind::Square | SymbolKind::Triangle(_))
                })
            };
            let mut with_fixed = core_of(&p, fragile).unwrap();
            with_fixed.extend(symbols_of(&p).into_iter().filter(|&q| fragile(q)));
            assert!(
                !solvable(&only(&p, &with_fixed)),
                "core with fixed {show}: {with_fixed:?}"
            );
            cores += 1;
        }
        // The `sat` engine: `auto` leaves panels with pieces to the search,
        // without a core.
        let by_core = why(&p, &WhyOptions::default().with_engine(Engine::Sat)).unwrap();
        let by_deletion = why(&p, &WhyOptions::default().with_engine(Engine::Search)).unwrap();
        for (w, what) in [(&by_core, "core"), (&by_deletion, "deletion")] {
            assert_eq!(w.status, Status::Complete);
            assert_minimal(&p, &w.symbols, what);
            assert_eq!(w.no_line, w.symbols.is_empty(), "{what} {show}");
        }
        assert_eq!(by_core.no_line, by_deletion.no_line, "{show}");
        checked += 1;
    }
    assert!(cores > want / 2, "{cores} of {checked} panels with a core");
}

/// Hand-made panels with one minimal set, every symbol of the panel (each
/// proper subset allows a line, checked below): an unsatisfiable core
/// names a set whose panel has no solution, so it names them all. A clause
/// or cut whose guard left out one of its symbols would let the solver
/// prove the panel unsolvable without that symbol's selector, and the
/// core would miss it.
#[cfg(feature = "sat")]
#[test]
fn cores_name_every_symbol_of_a_lone_minimal_set() {
    let mut panels = Vec::new();
    // Squares and dots (the third hand-made panel above): a black square
    // at (1,1) and a white one at (3,1) need the middle edge (2,1) on the
    // line, and a line crossing the middle misses the dot (4,1) (going up
    // it) or the dot (1,2) (going down it). Only the square cuts (or the
    // region cuts of the squares) exclude the lines that keep the
    // squares together, so the core needs both squares' selectors; the
    // dots' clauses need the dots'.
    let mut p = Puzzle::new(2, 1, false).unwrap();
    p.cell_mut(Pos::new(0, 2)).start = true;
    p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    p.cell_mut(Pos::new(1, 1)).symbol = square(0);
    p.cell_mut(Pos::new(3, 1)).symbol = square(1);
    p.cell_mut(Pos::new(1, 2)).dot = Dot::Black;
    p.cell_mut(Pos::new(4, 1)).dot = Dot::Black;
    panels.push(p);
    // A triangle of one at (1,1) and a dot on the left edge (0,1), same
    // frame: a line up the left edge goes on along the top edge (1,0)
    // (the only way on from the corner (0,0)), two edges of the
    // triangle's face. Without the dot, along the bottom and up the right
    // side touches the face once; without the triangle, the dot is
    // covered. The triangle's count is a clause guarded by its selector.
    let mut p = Puzzle::new(2, 1, false).unwrap();
    p.cell_mut(Pos::new(0, 2)).start = true;
    p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    p.cell_mut(Pos::new(1, 1)).symbol =
        Some(Symbol::new(SymbolKind::Triangle(1), COLORS[0].clone()));
    p.cell_mut(Pos::new(0, 1)).dot = Dot::Black;
    panels.push(p);
    // Two stars of one colour at (1,1) and (3,1) and a dot on the middle
    // edge (2,1), with the stars always there (not assumptions, as in
    // `why`): the dot parts the stars, each then alone in its region;
    // without the dot, the line along the bottom and up the right keeps
    // them together. The star cuts hold only with the stars there, which
    // they are: the core is the dot. (Each star alone is a minimal set
    // too, so `why` is not asked here.)
    let mut p = Puzzle::new(2, 1, false).unwrap();
    p.cell_mut(Pos::new(0, 2)).start = true;
    p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    for x in [1, 3] {
        p.cell_mut(Pos::new(x, 1)).symbol = Some(Symbol::new(SymbolKind::Star, COLORS[0].clone()));
    }
    p.cell_mut(Pos::new(2, 1)).dot = Dot::Black;
    panels.push(p);
    for p in &panels {
        let all = symbols_of(p);
        let star = |q: Pos| {
            p.cell(q)
                .symbol
                .as_ref()
                .is_some_and(|s| s.kind == SymbolKind::Star)
        };
        let mut free: Vec<Pos> = all.iter().copied().filter(|&q| !star(q)).collect();
        free.sort();
        assert!(!solvable(p));
        // Every proper subset of the free symbols, with the stars, allows
        // a line.
        for mask in 0u32..(1 << free.len()) - 1 {
            let mut keep: Vec<Pos> = all.iter().copied().filter(|&q| star(q)).collect();
            keep.extend(
                (0..free.len())
                    .filter(|&i| mask >> i & 1 == 1)
                    .map(|i| free[i]),
            );
            assert!(solvable(&only(p, &keep)), "{keep:?}");
        }
        assert_eq!(core_of(p, star), Some(free.clone()));
        if free.len() < all.len() {
            continue;
        }
        let w = why(p, &WhyOptions::default()).unwrap();
        let mut got = w.symbols.clone();
        got.sort();
        assert_eq!(got, free);
    }
}

//! `witness::why`: on hand-made unsolvable panels whose minimal sets are
//! reasoned out below, the set named; on random unsolvable panels, a set
//! whose panel (only those symbols, starts, ends and gaps kept) has no
//! solution, while dropping any one of them gives one.

use crate::common;

use common::random::{fill_slots, random_frame, random_shape, starts_and_ends, Rng, COLORS};
use witness::model::{Direction, Dot, Gap, Pos, Puzzle, Symbol, SymbolKind};
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

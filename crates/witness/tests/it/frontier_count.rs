//! The frontier count of bare panels (`witness::internals::frontier`) against the brute
//! force and the search: empty squares and rectangles against known counts,
//! hundreds of small random bare panels (gaps, starts and ends on nodes and
//! edges, directed and undirected) against `brute::enumerate`, and the
//! limit, stop and fallback behaviour against the search's.

use crate::common;

use common::random::{place_start_end, Rng};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use witness::internals::{
    frontier::{frontier_count, frontier_count_with, MAX_BYTES},
    plan::Plan,
};
use witness::model::{Direction, Dot, Gap, Pos, Puzzle, SlotKind, Symmetry};
use witness::{Count, Limits, Natural, Status};

/// An empty panel `w` x `h` faces, start bottom-left, end top-right.
fn corner_panel(w: usize, h: usize) -> Puzzle {
    let mut p = Puzzle::new(w, h, false).unwrap();
    p.cell_mut(Pos::new(0, 2 * h)).start = true;
    p.cell_mut(Pos::new(2 * w, 0)).end = Some(Direction::Up);
    p
}

/// The frontier count, which must support the puzzle.
fn frontier(p: &Puzzle) -> Count {
    let plan = Plan::new(p).unwrap();
    assert!(plan.bare);
    frontier_count(&plan, None, &Limits::none()).expect("frontier count supports this panel")
}

/// The search's count (the plan marked not bare, so the frontier count
/// declines it and the depth-first search runs).
fn search_count(p: &Puzzle, limit: Option<u64>, limits: &Limits) -> Count {
    let mut plan = Plan::new(p).unwrap();
    plan.bare = false;
    assert!(frontier_count(&plan, limit, limits).is_none());
    witness::internals::count_plan(&plan, limit, limits).unwrap()
}

/// Every legal path validated at its end, as the solver counts them (an
/// undirected path and its reverse once: `common::brute_solutions`).
fn brute_count(p: &Puzzle) -> u64 {
    common::brute_solutions(p).len() as u64
}

/// OEIS A007764, "Number of nonintersecting (or self-avoiding) rook paths
/// joining opposite corners of an n X n grid", terms a(1) to a(14) as the
/// sequence lists them (https://oeis.org/A007764). The grid is of nodes,
/// so an n x n panel of faces has a(n + 1) paths from corner to corner.
const A007764: [&str; 14] = [
    "1",
    "2",
    "12",
    "184",
    "8512",
    "1262816",
    "575780564",
    "789360053252",
    "3266598486981642",
    "41044208702632496804",
    "1568758030464750013214100",
    "182413291514248049241470885236",
    "64528039343270018963357185158482118",
    "69450664761521361664274701548907358996488",
];

/// The frontier count of the empty `n` x `n` panel against A007764.
fn check_a007764(n: usize) {
    let c = frontier(&corner_panel(n, n));
    assert_eq!(c.status, Status::Complete, "{n}x{n}");
    assert_eq!(c.count.to_string(), A007764[n], "{n}x{n}");
    let want: Natural = A007764[n].parse().unwrap();
    assert_eq!(c.count, want, "{n}x{n}");
}

#[test]
fn empty_squares_count_as_a007764() {
    // Self-avoiding paths between opposite corners of an n x n square of
    // faces: a(n + 1).
    for n in 1..=9 {
        check_a007764(n);
    }
    // Through the public entry point, as `witness count` runs it.
    for n in [4usize, 5, 9] {
        let c = witness::count(&corner_panel(n, n), &witness::CountOptions::default()).unwrap();
        assert_eq!(c.status, Status::Complete, "{n}x{n}");
        assert_eq!(c.count.to_string(), A007764[n], "{n}x{n}");
    }
    // The small ones against the brute force too.
    for (n, want) in A007764.iter().enumerate().take(5).skip(1) {
        let got = brute_count(&corner_panel(n, n)).to_string();
        assert_eq!(&got, want, "{n}x{n} brute");
    }
}

/// The larger squares up to 12x12 (13x13 below): a second in a release
/// build, minutes in a debug one.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only (slow in a debug build)")]
fn large_empty_squares_count_as_a007764() {
    for n in 10..=12 {
        check_a007764(n);
    }
}

/// Counts past `u128` stay exact: the 13x13 count needs a third limb
/// per state before the end, and the memory limit turns a count that
/// cannot fit into "too large" (`None`, the search's turn), not an abort.
#[test]
#[cfg_attr(debug_assertions, ignore = "release only (slow in a debug build)")]
fn counts_widen_as_they_grow_and_stop_at_the_memory_limit() {
    let plan = Plan::new(&corner_panel(13, 13)).unwrap();
    let (c, stats) = frontier_count_with(&plan, None, &Limits::none(), MAX_BYTES);
    assert_eq!(c.unwrap().count.to_string(), A007764[13]);
    assert!(c_bits(A007764[13]) > 128 && stats.limbs >= 3, "{stats:?}");
    assert!(stats.peak_bytes <= MAX_BYTES, "{stats:?}");
    // A tenth of the memory that count took is not enough.
    let small = stats.peak_bytes / 10;
    let (c, stats) = frontier_count_with(&plan, None, &Limits::none(), small);
    assert!(c.is_none(), "{stats:?}");
    assert!(stats.peak_bytes <= small, "{stats:?}");
}

/// The bits of a decimal number.
fn c_bits(digits: &str) -> u64 {
    digits.parse::<Natural>().unwrap().bits()
}

#[test]
fn empty_rectangles_count_as_brute_force_and_search() {
    for w in 1..=6usize {
        for h in 1..=6usize {
            if w * h > 20 {
                continue;
            }
            let p = corner_panel(w, h);
            let got = frontier(&p);
            assert_eq!(got.status, Status::Complete);
            // One row of faces: each of the w columns of edges is crossed
            // at the left or at the right, 2^w paths.
            if h == 1 {
                assert_eq!(got.count, 1 << w, "{w}x1");
            }
            // The transposed panel: the other processing orientation.
            assert_eq!(got.count, frontier(&corner_panel(h, w)).count, "{w}x{h}");
            let want = if w * h <= 12 {
                brute_count(&p).into()
            } else {
                search_count(&p, None, &Limits::none()).count
            };
            assert_eq!(got.count, want, "{w}x{h}");
        }
    }
}

/// A random bare panel of at most 4x3 faces: gaps on edges and nodes,
/// starts and ends on nodes (and on edges when `edge_terminals`), some of
/// them on gaps.
fn random_bare(r: &mut Rng, edge_terminals: bool) -> Puzzle {
    let (w, h) = if r.chance(15) {
        (4, 1 + r.below(3) as usize)
    } else {
        (1 + r.below(3) as usize, 1 + r.below(3) as usize)
    };
    let (w, h) = if r.chance(50) { (w, h) } else { (h, w) };
    let mut p = Puzzle::new(w, h, false).unwrap();
    let gaps = r.below(30);
    let terms = 2 + r.below(12);
    let edge_terms = if edge_terminals { terms } else { 0 };
    for q in p.positions().collect::<Vec<_>>() {
        let kind = q.kind();
        let c = p.cell_mut(q);
        match kind {
            SlotKind::Face => {}
            SlotKind::Edge => {
                if r.chance(gaps) {
                    c.gap = if r.chance(50) { Gap::Break } else { Gap::Full };
                }
                c.start = r.chance(edge_terms / 2);
                if r.chance(edge_terms / 2) {
                    c.end = Some(Direction::Up);
                }
            }
            SlotKind::Node => {
                if r.chance(gaps / 4) {
                    c.gap = Gap::Full;
                }
                c.start = r.chance(terms);
                if r.chance(terms) {
                    c.end = Some(Direction::Down);
                }
            }
        }
    }
    // At least one start and one end on usable nodes (maybe the same).
    let nodes: Vec<Pos> = p
        .positions()
        .filter(|q| q.kind() == SlotKind::Node)
        .collect();
    place_start_end(r, &mut p, &nodes);
    p
}

/// Slots that are both a start and an end, each a zero-length solution.
fn zero_length(p: &Puzzle) -> u64 {
    p.cells()
        .filter(|(q, c)| {
            q.kind() != SlotKind::Face && c.start && c.end.is_some() && c.gap == Gap::None
        })
        .count() as u64
}

/// Random bare panels: the frontier count equals the brute force's, and
/// `witness::count` (which runs it) says the same.
fn random_against_brute(seed: u64, cases: usize, edge_terminals: bool, undirected: bool) {
    let mut r = Rng(seed);
    let mut nontrivial = 0;
    for case in 0..cases {
        let mut p = random_bare(&mut r, edge_terminals);
        p.undirected = undirected;
        let want = brute_count(&p);
        let got = frontier(&p);
        assert_eq!(
            (got.count.clone(), got.status),
            (want.into(), Status::Complete),
            "case {case}: frontier {} vs brute {want} on\n{}",
            got.count,
            witness::formats::wpjson::to_string(&p).unwrap()
        );
        let via = common::count_all(&p);
        assert_eq!(via.count, want, "case {case}: witness::count");
        nontrivial += (want > zero_length(&p)) as usize;
    }
    // Most panels must have paths of some length, or the comparison says
    // little.
    eprintln!("{nontrivial} of {cases} panels with paths");
    assert!(
        nontrivial > cases / 2,
        "only {nontrivial} of {cases} panels with paths"
    );
}

#[test]
fn random_bare_panels_on_nodes_count_as_brute_force() {
    random_against_brute(0x9E37_79B9_7F4A_7C15, 300, false, false);
}

#[test]
fn random_bare_panels_with_edge_terminals_count_as_brute_force() {
    random_against_brute(0xD1B5_4A32_D192_ED03, 300, true, false);
}

#[test]
fn random_undirected_panels_count_as_brute_force() {
    random_against_brute(0x2545_F491_4F6C_DD1D, 150, false, true);
    random_against_brute(0x5851_F42D_4C95_7F2D, 150, true, true);
}

#[test]
fn undirected_square_counts_each_path_once() {
    // Two doors, each a start and an end: a path and its reverse are one
    // solution, plus the two zero-length ones.
    let mut p = corner_panel(4, 4);
    p.cell_mut(Pos::new(0, 8)).end = Some(Direction::Down);
    p.cell_mut(Pos::new(8, 0)).start = true;
    let directed = frontier(&p).count;
    assert_eq!(directed, 2 * 8_512 + 2);
    p.undirected = true;
    assert_eq!(frontier(&p).count, 8_512 + 2);
    assert_eq!(search_count(&p, None, &Limits::none()).count, 8_512 + 2);
}

#[test]
fn limits_answer_as_the_search_does() {
    let p = corner_panel(4, 4);
    for limit in [0u64, 1, 100, 8_511, 8_512, 8_513, 20_000] {
        let plan = Plan::new(&p).unwrap();
        let got = frontier_count(&plan, Some(limit), &Limits::none()).unwrap();
        let want = search_count(&p, Some(limit), &Limits::none());
        assert_eq!(
            (got.count, got.status),
            (want.count, want.status),
            "limit {limit}"
        );
    }
    // A panel without paths under limit 0: complete, as the search says.
    let mut p = corner_panel(1, 1);
    p.cell_mut(Pos::new(0, 1)).gap = Gap::Full;
    p.cell_mut(Pos::new(1, 2)).gap = Gap::Full;
    let plan = Plan::new(&p).unwrap();
    let got = frontier_count(&plan, Some(0), &Limits::none()).unwrap();
    assert_eq!((got.count, got.status), (0u64.into(), Status::Complete));
}

#[test]
fn cancel_and_budget_stop_the_count() {
    let plan = Plan::new(&corner_panel(6, 6)).unwrap();
    let cancel = Arc::new(AtomicBool::new(true));
    let c = frontier_count(&plan, None, &Limits::none().with_cancel(cancel)).unwrap();
    assert_eq!(c.status, Status::Stopped);
    assert!(c.count < 575_780_564);
    let c = frontier_count(&plan, None, &Limits::none().with_max_nodes(1_000)).unwrap();
    assert_eq!(c.status, Status::Stopped);
    let c = frontier_count(&plan, None, &Limits::timeout(std::time::Duration::ZERO)).unwrap();
    assert_eq!(c.status, Status::Stopped);
}

#[test]
fn totals_beyond_u64_are_exact() {
    // 9x9 faces: 41,044,208,702,632,496,804 paths (A007764), above u64::MAX.
    let c = frontier(&corner_panel(9, 9));
    assert_eq!(c.count.to_string(), "41044208702632496804");
    assert_eq!(c.status, Status::Complete);
    assert!(c.count > u64::MAX);
    let plan = Plan::new(&corner_panel(9, 9)).unwrap();
    let c = frontier_count(&plan, Some(5), &Limits::none()).unwrap();
    assert_eq!((c.count, c.status), (5u64.into(), Status::Stopped));
}

#[test]
fn other_panels_fall_back_to_the_search() {
    let none = |p: &Puzzle| frontier_count(&Plan::new(p).unwrap(), None, &Limits::none()).is_none();
    let mut dotted = corner_panel(2, 2);
    dotted.cell_mut(Pos::new(2, 2)).dot = Dot::Black;
    assert!(none(&dotted));
    let mut sym = Puzzle::new(2, 2, false).unwrap();
    sym.symmetry = Some(Symmetry { x: true, y: false });
    sym.cell_mut(Pos::new(0, 4)).start = true;
    sym.cell_mut(Pos::new(4, 4)).start = true;
    sym.cell_mut(Pos::new(0, 0)).end = Some(Direction::Up);
    sym.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    assert!(none(&sym));
    let mut pillar = Puzzle::new(3, 2, true).unwrap();
    pillar.cell_mut(Pos::new(0, 4)).start = true;
    pillar.cell_mut(Pos::new(2, 0)).end = Some(Direction::Up);
    assert!(none(&pillar));
    // And they still count exactly.
    for p in [&dotted, &sym, &pillar] {
        assert_eq!(common::count_all(p).count, brute_count(p));
    }
    // Too many undirected pairs.
    let mut many = Puzzle::new(4, 4, false).unwrap();
    many.undirected = true;
    for q in many.positions().collect::<Vec<_>>() {
        if q.kind() == SlotKind::Node {
            many.cell_mut(q).start = true;
            many.cell_mut(q).end = Some(Direction::Up);
        }
    }
    assert!(none(&many));
}

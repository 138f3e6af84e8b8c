//! Counts of random panels of every mechanic without symmetry or pieces, exact and limited, against the brute force.

use super::*;

#[test]
fn fast_count_equals_brute_force_on_random_panels() {
    // More by hand: WITNESS_EXACT_SEED=<u64> WITNESS_EXACT_CASES=<n>.
    let var = common::env_u64;
    let seed = var("WITNESS_EXACT_SEED").unwrap_or(0x9E37_79B9_7F4A_7C15);
    let cases = var("WITNESS_EXACT_CASES").unwrap_or(600);
    let mut r = Rng(seed);
    let mut checked = 0;
    let mut with_solutions = 0;
    for case in 0..3 * cases {
        if !common::goes_on(case, cases, with_solutions > 150) {
            break;
        }
        let p = random_puzzle(&mut r);
        assert_counts_agree(case, &p);
        // solve finds the brute force's first solution, which validates.
        let first = witness::solve(
            &p,
            &witness::SolveOptions::default().with_limits(Limits::none()),
        )
        .unwrap();
        let brute_first = brute_first(&p);
        assert_eq!(
            first.path, brute_first,
            "case {case}: first solutions differ"
        );
        if let Some(path) = &first.path {
            let v = Rules::new(&p).unwrap().check_path(&p, path).unwrap();
            assert!(v.valid, "case {case}: returned path fails validation");
            with_solutions += 1;
        }
        checked += 1;
    }
    assert!(checked >= cases, "{checked} of {cases} cases checked");
    // The generator must produce a fair share of solvable panels, or the
    // comparison says little.
    assert!(
        with_solutions > 150,
        "only {with_solutions} solvable panels"
    );
}

/// Undirected panels with symbols, whose starts and ends mostly differ (a
/// third with fat starts, where a path and its reverse can differ in
/// verdict): a path and its reverse count once, and a path whose reverse
/// is no solution (its end no start, or its start no end, or the
/// validator refusing it) counts alone.
#[test]
fn undirected_panels_count_each_pair_once() {
    let var = common::env_u64;
    let mut r = Rng(var("UNDIRECTED_SEED").unwrap_or(0x0005_EED0_F0DD_D1CE));
    let (mut one_way, mut both_ways) = (0, 0);
    let n = var("UNDIRECTED_CASES").unwrap_or(400);
    for case in 0..3 * n {
        if !common::goes_on(case, n, one_way > 50 && both_ways > 50) {
            break;
        }
        let mut p = if case % 2 == 0 {
            random_puzzle(&mut r)
        } else {
            let mut p = random_panel(&mut r, 4, 6, 3);
            fill_faces(&mut r, &mut p, mixed_symbol);
            p
        };
        p.undirected = true;
        p.settings.fat_startpoints = case % 3 == 1;
        assert_counts_agree(case, &p);
        let first = witness::solve(
            &p,
            &witness::SolveOptions::default().with_limits(Limits::none()),
        )
        .unwrap();
        assert_eq!(
            first.path.is_some(),
            brute_count(&p) > 0,
            "case {case}: solve and count disagree"
        );
        // Paths kept whose reverse is a legal path too, and paths kept alone.
        for q in common::brute_solutions(&p) {
            let end = q
                .moves
                .iter()
                .fold(q.start, |at, &d| p.neighbor(at, d).unwrap());
            if p.cell(end).start && p.cell(q.start).end.is_some() {
                both_ways += 1;
            } else {
                one_way += 1;
            }
        }
    }
    // Both kinds must occur, or the test says little.
    assert!(
        one_way > 50 && both_ways > 50,
        "{one_way} one way, {both_ways} both ways"
    );
}

/// Counts with a small limit go on by turns in every lane, from the ends
/// too, once the engine's order has not settled them (`count_plan_with`;
/// here after 0 to 4,096 nodes, mostly with turns of a few nodes, so that
/// on these panels of up to 4x4 faces, a fifth undirected and a seventh
/// with fat starts, the hand-over happens at every stage and every lane
/// takes turns), keeping the solutions found before. They give the brute force's count up to the limit,
/// complete exactly when it is below the limit. The lanes alone, with
/// turns of a few nodes and seeded with some of the brute force's
/// solutions, agree too. More by hand: LIMITED_SEED, LIMITED_CASES.
#[test]
fn limited_counts_by_lanes_agree_with_brute_force() {
    let var = common::env_u64;
    let mut r = Rng(var("LIMITED_SEED").unwrap_or(0x0123_4567_89AB_CDEF));
    let tiny = short_turns(3, 200, 20);
    let mut reached = 0;
    let n = var("LIMITED_CASES").unwrap_or(200);
    for case in 0..3 * n {
        if !common::goes_on(case, n, reached > 20) {
            break;
        }
        let mut p = match case % 3 {
            0 => random_puzzle(&mut r),
            1 => random_panel(&mut r, 4, 10, 2),
            _ => {
                let mut p = random_panel(&mut r, 4, 6, 2);
                fill_faces(&mut r, &mut p, |r| mixed_symbol(r).filter(|_| r.chance(30)));
                p
            }
        };
        p.undirected = case % 5 == 4;
        p.settings.fat_startpoints = case % 7 == 5;
        let all = common::brute_solutions(&p);
        let n = all.len() as u64;
        let plan = Plan::new(&p).unwrap();
        let show = || witness::formats::wpjson::to_string(&p).unwrap();
        let default = Schedule::default();
        let runs = [
            (1, 0, &tiny),
            (2, 0, &tiny),
            (2, 1, &default),
            (2, 300, &tiny),
            (3, 4096, &tiny),
            (5, 100, &default),
        ];
        assert_limited_counts(case, &p, &plan, n, &runs);
        // Cut short by a node budget, a count says so: complete only with
        // every solution, never more than there are.
        let cut = Limits::none().with_max_nodes(40);
        let c = witness::internals::count_plan_with(&plan, Some(3), &cut, 0, &tiny, None).unwrap();
        assert!(
            c.count <= n.min(3) && (c.status == Status::Stopped || c.count == n),
            "case {case}: cut short, {c:?} of {n} on\n{}",
            show()
        );
        // The lanes alone, seeded with every third solution.
        let seed: std::collections::HashSet<_> = all
            .iter()
            .step_by(3)
            .map(|q| (p.index(q.start), q.moves.clone()))
            .collect();
        let l = 4;
        for two in [false, true] {
            let d = witness::internals::distinct_lanes(
                &plan,
                &Limits::none(),
                &tiny,
                l,
                seed.clone(),
                two,
            )
            .unwrap();
            assert_eq!(
                (d.count, d.complete),
                (n.min(l), n < l),
                "case {case}: lanes (two threads: {two}) seeded with {} on\n{}",
                seed.len(),
                show()
            );
        }
        reached += (n >= l) as u32;
    }
    assert!(reached > 20, "only {reached} panels reached the limit");
}

/// Counts by turns on marked panels with more than `FEW_CASES` cases:
/// the lanes with the cases, on one thread and on two (one running them
/// all, the other a local search), with turns
/// of a few nodes so that the cases take turns from the first, give the
/// brute force's count, complete exactly when it is below the limit.
/// More by hand: SHARED_SEED, SHARED_CASES.
#[test]
fn counts_with_many_cases_shared_agree_with_brute_force() {
    use witness::internals::mark_cases::{case_count, FEW_CASES};
    let var = common::env_u64;
    let mut r = Rng(var("SHARED_SEED").unwrap_or(0x5AA2_ED00_CA5E_0021));
    let tiny = short_turns(2, 64, 20);
    let (mut many, mut reached) = (0, 0);
    let n = var("SHARED_CASES").unwrap_or(1500);
    for case in 0..3 * n {
        if !common::goes_on(case, n, many > 60 && reached > 10) {
            break;
        }
        let Some(p) = mixed_panel(&mut r, 4, 5, 5) else {
            continue;
        };
        let plan = Plan::new(&p).unwrap();
        if case_count(&plan).is_none_or(|n| n <= FEW_CASES) {
            continue;
        }
        many += 1;
        let n = common::brute_solutions(&p).len() as u64;
        for (l, two, sched) in [
            (2, true, &tiny),
            (2, false, &tiny),
            (1000, true, &tiny),
            (1000, false, &tiny),
        ] {
            let seen = Default::default();
            let d = witness::internals::distinct_lanes(&plan, &Limits::none(), sched, l, seen, two)
                .unwrap();
            assert_eq!(
                (d.count, d.complete),
                (n.min(l), n < l),
                "case {case}: limit {l}, two threads: {two}, on\n{}",
                witness::formats::wpjson::to_string(&p).unwrap()
            );
        }
        reached += (n >= 2) as u32;
    }
    assert!(
        many > 60 && reached > 10,
        "{many} panels with many cases, {reached} with two solutions"
    );
}

/// An undirected symmetry panel whose middle bottom node, its own mirror,
/// is a start and an end: a line from it to the top left corner (a start
/// and an end too) counts, though it runs from a later slot to an earlier
/// one, since drawn back it would end on a node that is its own mirror,
/// which play mode allows only for a start.
#[test]
fn an_undirected_line_from_a_self_mirrored_start_counts() {
    let mut p = Puzzle::new(2, 1, false).unwrap();
    p.symmetry = Some(Symmetry { x: true, y: false });
    p.undirected = true;
    for q in [Pos::new(2, 2), Pos::new(0, 0), Pos::new(4, 0)] {
        p.cell_mut(q).start = true;
        p.cell_mut(q).end = Some(Direction::Up);
    }
    let all = common::brute_solutions(&p);
    let around = [
        Direction::Left,
        Direction::Left,
        Direction::Up,
        Direction::Up,
    ];
    assert!(
        all.contains(&Path::new(Pos::new(2, 2), around.to_vec())),
        "the brute force keeps the line"
    );
    assert_counts_agree(0, &p);
    assert_counts_agree(1, &p);
}

#[test]
fn empty_panels_count_as_known() {
    // Corner to corner on an empty panel: the number of self-avoiding
    // lattice paths between opposite corners (OEIS A007764).
    for (n, want) in [(1usize, 2u64), (2, 12), (3, 184), (4, 8512), (5, 1_262_816)] {
        let mut p = Puzzle::new(n, n, false).unwrap();
        p.cell_mut(Pos::new(0, 2 * n)).start = true;
        p.cell_mut(Pos::new(2 * n, 0)).end = Some(Direction::Up);
        let c = common::count_all(&p);
        assert_eq!(c.count, want, "{n}x{n}");
    }
}

/// Larger panels with many full gaps, so that faces are often cut off
/// (outside): there regions also join through the border nodes and edges
/// around removed faces.
#[test]
fn fast_count_equals_brute_force_on_cut_panels() {
    // More by hand: CUT_SEED, CUT_CASES, CUT_MAX (faces a side), CUT_GAPS (%).
    let var = common::env_u64;
    let mut r = Rng(var("CUT_SEED").unwrap_or(0x2545_F491_4F6C_DD1D));
    let mut with_outside = 0;
    let n = var("CUT_CASES").unwrap_or(1000);
    for case in 0..3 * n {
        if !common::goes_on(case, n, with_outside > 100) {
            break;
        }
        let p = random_panel(
            &mut r,
            var("CUT_MAX").unwrap_or(4),
            var("CUT_GAPS").unwrap_or(15),
            6,
        );
        let rules = Rules::new(&p).unwrap();
        let b = &rules.board;
        if (0..b.len()).any(|i| b.kind[i] == witness::model::SlotKind::Face && b.outside[i]) {
            with_outside += 1;
        }
        assert_counts_agree(case, &p);
    }
    assert!(
        with_outside > 100,
        "only {with_outside} panels with removed faces"
    );
}

/// Panels thick with dots, where the line must visit many nodes (the
/// search's colour-parity and must-pass tests do the pruning there).
#[test]
fn fast_count_equals_brute_force_on_dotted_panels() {
    // More by hand: DOT_SEED, DOT_CASES.
    let var = common::env_u64;
    let mut r = Rng(var("DOT_SEED").unwrap_or(0x0DD0_7500_1234_5678));
    for case in 0..var("DOT_CASES").unwrap_or(600) {
        let p = random_panel(&mut r, 4, 4, 60);
        assert_counts_agree(case, &p);
    }
}

/// Panels of squares in two colours with elimination marks (and some
/// dots and triangles): side-by-side squares the line can no longer
/// separate, dots it can no longer cover and triangles already wrong each
/// need a mark in their own region, which the search counts ahead.
/// More by hand: MARK_SEED, MARK_CASES.
#[test]
fn fast_count_equals_brute_force_on_marked_square_panels() {
    let var = common::env_u64;
    let mut r = Rng(var("MARK_SEED").unwrap_or(0x005E_ED0F_A11C_0105));
    let mut marked = 0;
    let n = var("MARK_CASES").unwrap_or(800);
    for case in 0..3 * n {
        if !common::goes_on(case, n, marked > 300) {
            break;
        }
        let mut p = random_panel(&mut r, 3, 6, 4);
        marked += fill_faces(&mut r, &mut p, |r| {
            Some(match r.below(12) {
                0..=5 => SymbolKind::Square,
                6 | 7 => SymbolKind::Nega,
                8 => SymbolKind::Triangle(1 + r.below(3) as u32),
                _ => return None,
            })
        }) as u32;
        assert_counts_agree(case, &p);
    }
    assert!(marked > 300, "only {marked} panels with marks");
}

/// Panels of squares, stars, pieces and triangles in two colours with
/// many elimination marks: an open region holding marks fails once more
/// of its elements must go (lone stars, wrong triangles, pieces that
/// cannot tile it, squares of a second colour the line can no longer
/// separate) than it holds marks. More by hand: MIXED_SEED, MIXED_CASES.
#[test]
fn fast_count_equals_brute_force_on_marked_mixed_panels() {
    let var = common::env_u64;
    let mut r = Rng(var("MIXED_SEED").unwrap_or(0x0A11_5EED_0F00_0042));
    let mut marked = 0;
    let n = var("MIXED_CASES").unwrap_or(800);
    for case in 0..3 * n {
        if !common::goes_on(case, n, marked > 300) {
            break;
        }
        let mut p = random_panel(&mut r, 4, 6, 3);
        marked += fill_faces(&mut r, &mut p, mixed_symbol) as u32;
        assert_counts_agree(case, &p);
    }
    assert!(marked > 300, "only {marked} panels with marks");
}

/// A 3x2 panel starting at the centre of its left 2x2 block. Going round
/// the block seals it with the first edge covered inside it (a spur): up,
/// the spur lies between the top faces; down, between the bottom ones. The
/// block's fixed L-tromino (top left, bottom left, bottom right) and
/// monomino fit only when the spur is on top. The search keeps piece-fit
/// verdicts of sealed regions; two seals of the same faces with different
/// covered edges inside must not share one. Each variant (and its mirror
/// image, which tries the other seal first) counts what the brute force
/// counts, and has a solution (the spur on top, out along the top).
#[test]
fn fit_verdicts_depend_on_the_covered_edges_inside_a_region() {
    for flip in [false, true] {
        let mut p = Puzzle::new(3, 2, false).unwrap();
        let y = |y: usize| if flip { 4 - y } else { y };
        p.cell_mut(Pos::new(2, 2)).start = true;
        p.cell_mut(Pos::new(6, y(0))).end =
            Some(if flip { Direction::Down } else { Direction::Up });
        let ell: Vec<(u8, u8)> = [(0, 0), (0, 1), (1, 1)]
            .iter()
            .map(|&(x, cy)| (x, if flip { 1 - cy } else { cy }))
            .collect();
        p.cell_mut(Pos::new(1, y(1))).symbol = Some(Symbol::new(
            SymbolKind::Poly(witness::model::Polyomino::new(ell, false)),
            COLORS[0].clone(),
        ));
        p.cell_mut(Pos::new(3, y(3))).symbol = Some(Symbol::new(
            SymbolKind::Poly(witness::model::Polyomino::new([(0, 0)], false)),
            COLORS[0].clone(),
        ));
        assert_counts_agree(flip as u64, &p);
        let mut found = Vec::new();
        witness::internals::for_each_solution(&p, &Limits::none(), |path| {
            found.push(path.to_string());
            true
        })
        .unwrap();
        assert!(!found.is_empty(), "flip {flip}: no solution");
    }
}

/// Counts with a small limit called from a thread pool of one thread (as
/// `witness bench --jobs 1` runs them) go on on two threads: one runs the
/// lanes, cases and local search as one thread would; the other helps,
/// on marked panels with a local search of its own from the start, on the
/// others in the branches the pool's count left. Either way they give the brute force's
/// count up to the limit, complete exactly below it, with the hand-over
/// after 0 to 300 nodes and turns of a few nodes (the local search takes
/// turns from the first). Marked and unmarked panels are both met. More by
/// hand: POOL_SEED, POOL_CASES.
#[test]
fn limited_counts_on_a_pool_of_one_agree_with_brute_force() {
    // On one core such a count keeps to one thread, which the other
    // count tests check.
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        eprintln!("skipped: counts go on on two threads only with two cores");
        return;
    }
    let var = common::env_u64;
    let mut r = Rng(var("POOL_SEED").unwrap_or(0x0B0E_1E0F_7A11_2222));
    let tiny = short_turns(3, 200, 20);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (mut marked, mut plain, mut reached) = (0, 0, 0);
    let n = var("POOL_CASES").unwrap_or(150);
    for case in 0..3 * n {
        if !common::goes_on(case, n, marked > 30 && plain > 30 && reached > 30) {
            break;
        }
        let p = match case % 2 {
            0 => random_panel(&mut r, 4, 10, 2),
            _ => match mixed_panel(&mut r, 4, 6, 2) {
                Some(p) => p,
                None => continue,
            },
        };
        let plan = Plan::new(&p).unwrap();
        let n = common::brute_solutions(&p).len() as u64;
        let runs = [(2, 0, &tiny), (2, 300, &tiny), (5, 40, &tiny)];
        pool.install(|| assert_limited_counts(case, &p, &plan, n, &runs));
        if plan.rules.board.has_negations {
            marked += 1;
        } else {
            plain += 1;
        }
        reached += (n >= 2) as u32;
    }
    assert!(
        marked > 30 && plain > 30 && reached > 30,
        "{marked} marked panels, {plain} others, {reached} with two solutions"
    );
}

/// Dots on removed edges: random panels with many removed edges, a dot on
/// some of them, and on the faces either triangles alone (the engine then
/// judges one region of everything, outside slots included) or random
/// symbols (real regions, where a dot outside the panel is in none): the
/// search and the SAT engine count what the brute force counts.
#[test]
fn dots_on_removed_edges_count_as_the_brute_force_does() {
    let var = common::env_u64;
    let seed = var("WITNESS_EXACT_SEED").unwrap_or(0x51_7CC1_B727_220A);
    let cases = var("WITNESS_EXACT_CASES").unwrap_or(300);
    let mut r = Rng(seed);
    // Panels with a dotted removed edge on the border (outside the panel),
    // by regime, and panels with solutions.
    let (mut one_region, mut split, mut solvable) = (0, 0, 0);
    for case in 0..3 * cases {
        let enough = one_region > 30 && split > 30 && solvable > 30;
        if !common::goes_on(case, cases, enough) {
            break;
        }
        let mut p = random_frame(&mut r, 3, 2);
        let triangles_only = r.chance(50);
        let (w, h) = (p.width(), p.height());
        let mut dotted_outside = false;
        for q in line_slots(&p) {
            if q.kind() != witness::model::SlotKind::Edge || !r.chance(30) {
                continue;
            }
            let c = p.cell_mut(q);
            c.gap = Gap::Full;
            if r.chance(40) {
                c.dot = Dot::Black;
                let border =
                    q.y == 0 || q.y == h - 1 || (!p.pillar() && (q.x == 0 || q.x == w - 1));
                dotted_outside |= border;
            }
        }
        for q in face_slots(&p) {
            p.cell_mut(q).symbol = if triangles_only {
                Some(Symbol::new(
                    SymbolKind::Triangle(1 + r.below(3) as u32),
                    COLORS[0].clone(),
                ))
            } else if r.chance(40) {
                random_symbol(&mut r, false)
            } else {
                None
            };
        }
        starts_and_ends(&mut r, &mut p, 80);
        assert_counts_agree(case, &p);
        let want = brute_count(&p);
        let sat = CountOptions {
            engine: Engine::Sat,
            limits: Limits::none(),
            ..CountOptions::default()
        };
        match witness::count(&p, &sat) {
            Ok(c) => assert_eq!(
                c.count,
                want,
                "case {case}: SAT {} vs brute {want} on\n{}",
                c.count,
                witness::formats::wpjson::to_string(&p).unwrap()
            ),
            Err(witness::Error::Unsupported(_)) => {}
            Err(e) => panic!("case {case}: {e}"),
        }
        if dotted_outside {
            if triangles_only {
                one_region += 1;
            } else {
                split += 1;
            }
        }
        solvable += u32::from(want > 0);
    }
    assert!(
        one_region > 30 && split > 30 && solvable > 30,
        "{one_region} panels of triangles and {split} others with a dot outside, {solvable} solvable"
    );
}

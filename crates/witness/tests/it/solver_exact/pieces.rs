//! Panels with pieces and subtractive pieces, pillars among them, against the brute force.

use super::*;

/// Panels of pieces (and a few other symbols): the open regions' packing
/// test, which asks whether a region's pieces all fit in it at once and
/// cover the parts the line can no longer cut, cuts here, and must cut no
/// solution. The search with it visits fewer nodes than without.
/// More by hand: PIECE_SEED, PIECE_CASES.
#[test]
fn fast_count_equals_brute_force_on_piece_panels() {
    let var = common::env_u64;
    let mut r = Rng(var("PIECE_SEED").unwrap_or(0x0F17_0F17_5EED_CAFE));
    let (mut with, mut without) = (0, 0);
    for case in 0..var("PIECE_CASES").unwrap_or(300) {
        let pillar = r.chance(25);
        let (w, h) = if pillar {
            (3 + r.below(2) as usize, 1 + r.below(3) as usize)
        } else {
            (2 + r.below(3) as usize, 2 + r.below(3) as usize)
        };
        let mut p = piece_board(&mut r, w, h, pillar, 15);
        let faces = face_slots(&p);
        let pieces = 2 + r.below(4);
        for _ in 0..pieces {
            let q = faces[r.below(faces.len() as u64) as usize];
            let color = COLORS[r.below(2) as usize].clone();
            let kind = match r.below(20) {
                0 => SymbolKind::Ylop(random_piece(&mut r, 2)),
                1 => SymbolKind::Nega,
                2 => SymbolKind::Star,
                3 => SymbolKind::Square,
                _ => SymbolKind::Poly(random_piece(&mut r, 5)),
            };
            p.cell_mut(q).symbol = Some(Symbol::new(kind, color));
        }
        gaps_starts_and_ends(&mut r, &mut p, 5);
        assert_counts_agree(case, &p);
        // The first-solution search (exhaustive where there is none), with
        // the packing test and without.
        let mut plan = Plan::new(&p).unwrap();
        with += witness::internals::solve_plan_stats(&plan, &Limits::none())
            .unwrap()
            .1;
        plan.packing = false;
        without += witness::internals::solve_plan_stats(&plan, &Limits::none())
            .unwrap()
            .1;
    }
    eprintln!("piece panels: {with} nodes with the packing test, {without} without");
    assert!(
        with * 10 < without * 9,
        "the packing test cut little: {with} nodes with it, {without} without"
    );
}

/// Panels of pieces with subtractive ones, squares of two colours and
/// stars, some of them pillars or symmetric: the room test ([`Plan::room`]), which asks whether a part of an
/// open region can still reach pieces enough to fill the region it ends
/// up in, cuts here, and must cut no solution. Counts agree with the
/// brute force, and the first-solution search visits fewer nodes with the
/// test than without. More by hand: ROOM_SEED, ROOM_CASES.
#[test]
fn fast_count_equals_brute_force_on_subtractive_piece_panels() {
    let var = common::env_u64;
    let mut r = Rng(var("ROOM_SEED").unwrap_or(0x5B7A_C71E_0F00_D00D));
    let (mut with, mut without) = (0, 0);
    for case in 0..var("ROOM_CASES").unwrap_or(300) {
        let pillar = r.chance(15);
        let (w, h) = if pillar {
            (3 + r.below(2) as usize, 1 + r.below(3) as usize)
        } else if r.chance(50) {
            (3 + r.below(2) as usize, 2 + r.below(2) as usize)
        } else {
            (2 + r.below(2) as usize, 3 + r.below(2) as usize)
        };
        let mut p = piece_board(&mut r, w, h, pillar, 20);
        let faces = face_slots(&p);
        let put = |r: &mut Rng, p: &mut Puzzle, kind| put_on_a_face(r, p, &faces, kind);
        for _ in 0..1 + r.below(2) {
            let piece = random_piece(&mut r, 2);
            put(&mut r, &mut p, SymbolKind::Ylop(piece));
        }
        for _ in 0..2 + r.below(3) {
            let piece = random_piece(&mut r, 4);
            put(&mut r, &mut p, SymbolKind::Poly(piece));
        }
        for _ in 0..r.below(4) {
            put(&mut r, &mut p, SymbolKind::Square);
        }
        if r.chance(30) {
            put(&mut r, &mut p, SymbolKind::Star);
        }
        if r.chance(10) {
            put(&mut r, &mut p, SymbolKind::Nega);
        }
        gaps_starts_and_ends(&mut r, &mut p, 4);
        assert_counts_agree(case, &p);
        let mut plan = Plan::new(&p).unwrap();
        with += witness::internals::solve_plan_stats(&plan, &Limits::none())
            .unwrap()
            .1;
        plan.room = false;
        assert_counts_agree_on(case, &p, &plan);
        without += witness::internals::solve_plan_stats(&plan, &Limits::none())
            .unwrap()
            .1;
    }
    eprintln!("subtractive piece panels: {with} nodes with the room test, {without} without");
    assert!(
        with * 20 < without * 19,
        "the room test cut little: {with} nodes with it, {without} without"
    );
}

/// On a pillar three faces round, a piece four faces wide wraps round onto
/// the other side of the row below (found by the panels above: the
/// search once had no placement for a piece wider than the pillar, and
/// called such panels unsolvable). With a one-face piece it tiles the whole
/// pillar, which a line along the top leaves whole.
#[test]
fn a_piece_wider_than_a_pillar_wraps_round() {
    let mut p = Puzzle::new(3, 2, true).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    let wide = witness::model::Polyomino::new([(1, 0), (2, 0), (3, 0), (0, 1), (1, 1)], false);
    let one = witness::model::Polyomino::new([(0, 0)], false);
    let black = COLORS[0].clone();
    p.cell_mut(Pos::new(1, 1)).symbol = Some(Symbol::new(SymbolKind::Poly(wide), black.clone()));
    p.cell_mut(Pos::new(3, 3)).symbol = Some(Symbol::new(SymbolKind::Poly(one), black));
    let along = Path::new(Pos::new(0, 0), vec![Direction::Right; 4]);
    let all = common::brute_solutions(&p);
    assert!(all.contains(&along), "the line along the top is a solution");
    assert_counts_agree(0, &p);
    assert_counts_agree(1, &p);
}

/// Pillars one or two faces round, where a face's left and right edges
/// are one edge (one face round), which the rules count twice for a
/// triangle, and regions wrap onto themselves: every mechanic, symmetry
/// (a half turn round the pillar, mirrored across it or the rows or not)
/// in half the pillars two faces round, counted as the brute force counts. (A triangle's
/// edges once counted once there, in a few words.) More by hand:
/// NARROW_SEED, NARROW_CASES.
#[test]
fn narrow_pillars_count_as_brute_force() {
    let var = common::env_u64;
    let mut r = Rng(var("NARROW_SEED").unwrap_or(0x1234_5678_9ABC_DEF1));
    let (mut triangles, mut symmetric) = (0, 0);
    let n = var("NARROW_CASES").unwrap_or(3000);
    for case in 0..3 * n {
        if !common::goes_on(case, n, triangles > 1500 && symmetric > 500) {
            break;
        }
        let (w, h) = (1 + r.below(2) as usize, 1 + r.below(3) as usize);
        let mut p = Puzzle::new(w, h, true).unwrap();
        // (One face round, a half turn would take nodes to edges: refused.)
        if w == 2 && r.chance(50) {
            p.symmetry = Some(Symmetry {
                x: r.chance(50),
                y: r.chance(50),
            });
            symmetric += 1;
        }
        let negations = r.chance(35);
        for q in p.positions().collect::<Vec<_>>() {
            let c = p.cell_mut(q);
            match q.kind() {
                witness::model::SlotKind::Face => {
                    if r.chance(30) {
                        c.symbol = Some(Symbol::new(
                            SymbolKind::Triangle(1 + r.below(3) as u32),
                            COLORS[0].clone(),
                        ));
                        triangles += 1;
                    } else if r.chance(40) {
                        c.symbol = random_symbol(&mut r, negations);
                    }
                }
                witness::model::SlotKind::Edge => {
                    if r.chance(8) {
                        c.gap = if r.chance(50) { Gap::Break } else { Gap::Full };
                    } else if r.chance(5) {
                        c.dot = Dot::Black;
                    }
                }
                _ => {
                    if r.chance(25) {
                        c.start = true;
                    }
                    if r.chance(25) {
                        c.end = Some(Direction::Up);
                    }
                    if r.chance(8) {
                        c.dot = Dot::Black;
                    }
                }
            }
        }
        assert_counts_agree(case, &p);
    }
    assert!(triangles > 1500, "only {triangles} triangles");
    assert!(symmetric > 500, "only {symmetric} symmetric pillars");
}

/// A search of `plan` with every test at full strength
/// ([`Search::set_full_tests`]) and the trail on: every solution, as many
/// as the brute force counts, also in turns of a small budget, each
/// resuming where the last stopped; and a second run stopped at its first
/// solution: the visits at which the solution's nodes were entered
/// ([`Search::trail`]) grow along it and end at the last node visited,
/// and the tests on their budgets ([`Search::judge`]) pass every node of
/// it before its end. The count, and whether there was a first solution.
fn full_strength_count<const N: usize>(plan: &Plan) -> (u64, bool) {
    use witness::internals::plan::Masks;
    use witness::internals::search::{Found, Search};
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_full_tests(1 << 16, 1 << 20);
    s.set_trail(true);
    let mut count = 0;
    s.run_all(&mut |_: &Found| {
        count += 1;
        true
    });
    // In turns of a few units of work, each resuming where the last one
    // stopped (a fit cut short stops the turn): the same solutions.
    let in_turns = || {
        let mut s = Search::<N>::new(plan, &masks, &limits);
        let mut found = std::collections::BTreeSet::new();
        let mut resume = None;
        for _ in 0..1_000_000 {
            s.set_budget(Some(3));
            s.set_resume(resume);
            s.run_all(&mut |f: &Found| {
                found.insert((
                    f.start,
                    f.moves.iter().map(|&d| d as u8).collect::<Vec<_>>(),
                ));
                true
            });
            if !s.out_of_budget {
                assert!(!s.stopped, "a turned run stopped");
                return found;
            }
            resume = s.take_resume();
        }
        panic!("a turned run made no progress");
    };
    assert_eq!(in_turns().len() as u64, count, "the solutions in turns");
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_trail(true);
    let mut first = None;
    s.run_all(&mut |f: &Found| {
        first = Some((f.start, f.moves.to_vec()));
        false
    });
    let Some((start, moves)) = first else {
        return (count, false);
    };
    let trail = &s.trail()[..=moves.len()];
    assert!(trail.windows(2).all(|w| w[0] < w[1]), "the trail grows");
    assert_eq!(trail[moves.len()], s.visited, "the end was entered last");
    // (Not the end: the line stops there.)
    for d in 1..moves.len() {
        if let Some(ok) = s.judge(start, &moves[..d]) {
            assert!(ok, "the tests cut a solution's node {d} moves deep");
        }
    }
    (count, true)
}

/// Every test at full strength (no budgets, long packing searches) counts
/// what the brute force counts on panels of pieces, and the inspection
/// hooks ([`Search::trail`], [`Search::judge`])
/// tell the truth about a first solution. More by hand: FULL_SEED, FULL_CASES.
#[test]
fn full_strength_tests_count_as_brute_force() {
    let var = common::env_u64;
    let mut r = Rng(var("FULL_SEED").unwrap_or(0x0F11_57E4_5EED_0042));
    let mut solvable = 0;
    let n = var("FULL_CASES").unwrap_or(200);
    for case in 0..3 * n {
        if !common::goes_on(case, n, solvable > 20) {
            break;
        }
        let pillar = r.chance(20);
        let (w, h) = if pillar {
            (3 + r.below(2) as usize, 1 + r.below(3) as usize)
        } else {
            (2 + r.below(3) as usize, 2 + r.below(3) as usize)
        };
        let mut p = piece_board(&mut r, w, h, pillar, 20);
        let faces = face_slots(&p);
        for _ in 0..2 + r.below(4) {
            let q = faces[r.below(faces.len() as u64) as usize];
            let color = COLORS[r.below(2) as usize].clone();
            let kind = match r.below(12) {
                0 => SymbolKind::Ylop(random_piece(&mut r, 2)),
                1 => SymbolKind::Star,
                2 => SymbolKind::Square,
                _ => SymbolKind::Poly(random_piece(&mut r, 5)),
            };
            p.cell_mut(q).symbol = Some(Symbol::new(kind, color));
        }
        gaps_starts_and_ends(&mut r, &mut p, 5);
        let Ok(plan) = Plan::new(&p) else {
            continue;
        };
        let want = brute_count(&p);
        let (count, found) = match plan.nodes() {
            0..=64 => full_strength_count::<1>(&plan),
            _ => full_strength_count::<2>(&plan),
        };
        let show = || witness::formats::wpjson::to_string(&p).unwrap();
        assert_eq!(count, want, "case {case}: full strength on\n{}", show());
        assert_eq!(
            found,
            want > 0,
            "case {case}: a first solution on\n{}",
            show()
        );
        solvable += found as u32;
    }
    assert!(solvable > 20, "only {solvable} panels with a solution");
}

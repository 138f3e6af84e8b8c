//! The solver under the Windmill's rules (`docs/rules.md#rule-profiles`)
//! against the brute force under the same rules, on random panels with
//! stars, squares, marks, dots, triangles, pieces and subtractive pieces.
//! The pruned search's mark and piece tests follow the profile; the
//! brute force only judges every legal path with the validator.

use super::*;
use witness::model::RuleSet;

#[test]
fn windmill_counts_and_solutions_match_the_brute_force() {
    let mut r = Rng(0x571d_3111);
    let (mut marked, mut solvable) = (0, 0);
    // Fewer in a debug build, whose assertions make each case slower.
    let cases = if cfg!(debug_assertions) { 400 } else { 2000 };
    for case in 0..cases {
        // Odd cases: a mixed panel with at least one mark (one in two up to
        // 4x4).
        let mut p = random_puzzle(&mut r);
        while case % 2 == 1
            && !p.cells().any(|(_, c)| {
                c.symbol
                    .as_ref()
                    .is_some_and(|s| s.kind == SymbolKind::Nega)
            })
        {
            p = mixed_panel(&mut r, 3 + case % 4 / 3, 8, 6)
                .unwrap_or_else(|| random_puzzle(&mut r));
        }
        p.rules = RuleSet::Windmill;
        let plan = Plan::new(&p).unwrap();
        marked += u64::from(plan.rules.board.has_negations);
        assert_counts_agree_on(case, &p, &plan);
        let want = brute_count(&p);
        let s = witness::solve(&p, &witness::SolveOptions::default()).unwrap();
        assert_eq!(s.status, Status::Complete, "case {case}");
        match &s.path {
            Some(path) => {
                solvable += 1;
                let v = witness::check(&p, path).unwrap();
                assert!(v.valid, "case {case}: the solver's path fails");
            }
            None => assert_eq!(want, 0, "case {case}: no solution but brute {want}"),
        }
    }
    // Marks, and both outcomes, were exercised.
    assert!(marked >= cases / 2, "{marked} panels with marks");
    assert!(solvable > cases / 10, "{solvable}");
}

/// Panels full of pieces and subtractive pieces (with squares and stars),
/// no marks, under the Windmill's rules: equal areas cancel and footprints
/// are faces only, which the pruned search answers. Its count equals the
/// brute force's; a fair share of panels have solutions the site's rules
/// would not give (the profiles' counts differ), so the test sees the
/// difference at work.
#[test]
fn windmill_piece_panels_count_as_brute_force() {
    let mut r = Rng(0x3111_d0d0_5eed_0042);
    let mut differ = 0;
    for case in 0..300 {
        let pillar = r.chance(15);
        let (w, h) = if pillar {
            (3 + r.below(2) as usize, 1 + r.below(3) as usize)
        } else {
            (2 + r.below(2) as usize, 2 + r.below(2) as usize)
        };
        let mut p = piece_board(&mut r, w, h, pillar, 20);
        let faces = face_slots(&p);
        let put = |r: &mut Rng, p: &mut Puzzle, kind| put_on_a_face(r, p, &faces, kind);
        for _ in 0..r.below(3) {
            let piece = random_piece(&mut r, 3);
            put(&mut r, &mut p, SymbolKind::Ylop(piece));
        }
        for _ in 0..1 + r.below(3) {
            let piece = random_piece(&mut r, 4);
            put(&mut r, &mut p, SymbolKind::Poly(piece));
        }
        if r.chance(30) {
            put(&mut r, &mut p, SymbolKind::Square);
        }
        if r.chance(30) {
            put(&mut r, &mut p, SymbolKind::Star);
        }
        gaps_starts_and_ends(&mut r, &mut p, 4);
        let site = brute_count(&p);
        p.rules = RuleSet::Windmill;
        let plan = Plan::new(&p).unwrap();
        assert_counts_agree_on(case, &p, &plan);
        differ += u64::from(brute_count(&p) != site);
    }
    assert!(
        differ > 15,
        "only {differ} panels where the profiles differ"
    );
}

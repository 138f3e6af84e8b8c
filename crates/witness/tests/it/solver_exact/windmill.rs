//! The solver under the Windmill's rules (`docs/rules.md#rule-profiles`)
//! against the brute force under the same rules, on random panels with
//! stars, squares, marks, dots, triangles, pieces and subtractive pieces.
//! Panels with marks or pieces are answered by the reference search
//! (`Plan::reference`); the others by the pruned search, whose rules are
//! the site's there.

use super::*;
use witness::model::RuleSet;

#[test]
fn windmill_counts_and_solutions_match_the_brute_force() {
    let mut r = Rng(0x571d_3111);
    let (mut reference, mut pruned, mut solvable) = (0, 0, 0);
    for case in 0..300 {
        let mut p = if case % 2 == 0 {
            random_puzzle(&mut r)
        } else {
            match mixed_panel(&mut r, 3, 8, 6) {
                Some(p) => p,
                None => random_puzzle(&mut r),
            }
        };
        p.rules = RuleSet::Windmill;
        let plan = Plan::new(&p).unwrap();
        if plan.reference {
            reference += 1;
        } else {
            pruned += 1;
        }
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
    // Both ways of answering, and both outcomes, were exercised.
    assert!(reference > 50 && pruned > 50, "{reference} / {pruned}");
    assert!(solvable > 30, "{solvable}");
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
        let faces = faces_of(&p);
        let put = |r: &mut Rng, p: &mut Puzzle, kind: SymbolKind| {
            let q = faces[r.below(faces.len() as u64) as usize];
            let color = COLORS[r.below(2) as usize].clone();
            p.cell_mut(q).symbol = Some(Symbol::new(kind, color));
        };
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
        assert!(!plan.reference, "case {case}: no marks, the pruned search");
        assert_counts_agree_on(case, &p, &plan);
        differ += u64::from(brute_count(&p) != site);
    }
    assert!(
        differ > 15,
        "only {differ} panels where the profiles differ"
    );
}

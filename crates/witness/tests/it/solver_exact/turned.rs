//! Turned copies ([`Turn`]): on random panels of every mechanic, each
//! copy's solutions are the original's turned, and the solver counts them.

use super::*;
use std::collections::HashSet;
use witness::model::Turn;

/// Each turned copy of a random small panel (symmetry, pillars, pieces and
/// marks included) has the solver's count equal to the brute force's, and,
/// on panels with fewer than two elimination marks, exactly the brute
/// force's solutions of the original, turned (as a count on panels where
/// a path and its reverse are one solution, whose kept reading depends on
/// slot order). With two marks or more the verdict can depend on the
/// order of the engine's flood, which turns with the panel
/// (`docs/rules.md`, "Order dependence"). A piece shape, a cap or a
/// symmetry turned the wrong way would show as a difference.
#[test]
fn turned_copies_have_the_solutions_turned() {
    // More by hand: TURNED_SEED=<u64> TURNED_CASES=<n>.
    let var = common::env_u64;
    let mut r = Rng(var("TURNED_SEED").unwrap_or(0x5DEE_CE66_D1CE_4E5B));
    let cases = var("TURNED_CASES").unwrap_or(150);
    let (mut copies, mut solutions) = (0u64, 0u64);
    for case in 0..cases {
        let p = random_puzzle(&mut r);
        let original = common::brute_solutions(&p);
        for t in Turn::ALL {
            let Ok(q) = p.turned(t) else {
                assert!(p.pillar() && t == Turn::Transpose, "case {case}: {t:?}");
                continue;
            };
            let got = common::brute_solutions(&q);
            if marks(&p) >= 2 {
                // Order dependence: no claim on the solutions.
            } else if p.undirected {
                assert_eq!(got.len(), original.len(), "case {case}: {t:?}");
            } else {
                let want: HashSet<Path> = original.iter().map(|s| s.turned(&p, t)).collect();
                let got: HashSet<Path> = got.into_iter().collect();
                assert_eq!(
                    got,
                    want,
                    "case {case}: {t:?} of\n{}",
                    witness::formats::wpjson::to_string(&p).unwrap()
                );
            }
            assert_counts_agree(case, &q);
            copies += 1;
            solutions += original.len() as u64;
        }
    }
    // Most panels have copies of every kind, and enough have solutions.
    assert!(copies > 2 * cases, "{copies} copies");
    assert!(solutions > cases, "{solutions} solutions");
}

/// The elimination marks of `p`.
fn marks(p: &Puzzle) -> usize {
    p.cells()
        .filter(|(_, c)| {
            c.symbol
                .as_ref()
                .is_some_and(|s| s.kind == SymbolKind::Nega)
        })
        .count()
}

//! Turned copies ([`Turn`]): on random panels of every mechanic, each
//! copy's solutions are the original's turned, and the solver counts them.

use super::*;
use std::collections::HashSet;
use witness::model::Turn;

/// Each turned copy of a random small panel (symmetry, pillars, pieces and
/// marks included) has the solver's count equal to the brute force's, and,
/// on panels with at most two elimination marks, exactly the brute
/// force's solutions of the original, turned (as a count on panels where
/// a path and its reverse are one solution, whose kept reading depends on
/// slot order). With three marks or more the verdict can depend on the
/// order of the engine's flood, which turns with the panel
/// (`docs/rules.md`, "Order dependence": marks cancel in pairs, and only
/// in a configuration that erases a candidate too; see
/// [`a_copy_with_three_marks_may_be_another_puzzle`]). A piece shape or a
/// symmetry turned the wrong way would show as a difference (the rules
/// never look at an end's cap, which `model::Turn`'s own tests pin).
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
            if !Turn::keeps_solutions(&p) {
                // Order dependence: no claim on the solutions.
            } else if p.undirected {
                assert_eq!(got.len(), original.len(), "case {case}: {t:?}");
            } else {
                let want: HashSet<Path> =
                    original.iter().map(|s| s.turned(&p, t).unwrap()).collect();
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

/// The corner where a turned copy is another puzzle: 4DDACB22, a
/// published 4x4 panel with three elimination marks, has one solution;
/// mirrored top to bottom it has two. On the copy, the second solution's
/// region has one mark erase the piece at (5, 3) while the other two
/// cancel each other; turned back, the same path fails on the original
/// ("polyominoes that do not fit their region"), because which
/// configurations of marks the engine tries follows its flood order
/// (`docs/rules.md`, "Order dependence"), and the order turns with the
/// panel.
#[test]
fn a_copy_with_three_marks_may_be_another_puzzle() {
    let text = "witness 4x4
+ -  + -  o -  + - E>
| Ak | Bk | 2k | . |
+ -  + -  + x  + - +
| Yk | .  | .  | . |
+ -  + -  + -  + - o
| Yk | Yk | Ck | . |
+ -  + -  + -  + - o
| .  | .  | Bk | . |
S x  + -  + -  + - o
A = poly rot ###/#../#..
B = poly ##
C = poly ####/####/####/####
";
    let p = witness::formats::read_puzzle(text, None).unwrap();
    assert!(!Turn::keeps_solutions(&p), "three marks");
    let q = p.turned(Turn::MirrorY).unwrap();
    assert_eq!(brute_count(&p), 1, "the original");
    assert_eq!(brute_count(&q), 2, "the copy");
    assert_counts_agree(0, &q);
    let extra = Path::parse("0,0:D8R4U2L2U2R4U4R2D6L2D2R2").unwrap();
    let on_copy = Rules::new(&q).unwrap().check_path(&q, &extra).unwrap();
    assert!(on_copy.valid);
    assert_eq!(on_copy.negations.len(), 1, "one mark erases, two cancel");
    let back = extra.turned(&q, Turn::MirrorY).unwrap();
    assert_eq!(back, Path::parse("0,8:U8R4D2L2D2R4D4R2U6L2U2R2").unwrap());
    let on_original = Rules::new(&p).unwrap().check_path(&p, &back).unwrap();
    assert!(!on_original.valid);
}

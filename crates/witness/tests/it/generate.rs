//! `witness::generate`: every generated puzzle re-counted by the unpruned
//! brute force (exactly one solution, the one returned), minimal puzzles
//! checked symbol by symbol, the output independent of the thread that
//! makes it, every preset's mechanic present, and bad options refused.

use rayon::prelude::*;
use witness::generate::{GenerateOptions, Preset, Spec};
use witness::internals::generate::{symbols, without};
use witness::model::Puzzle;
use witness::{Error, Path};

use crate::common::{brute_solutions, env_u64};

/// The brute force's solutions, up to two.
fn brute_two(p: &Puzzle) -> Vec<Path> {
    let mut all = Vec::new();
    witness::internals::brute::enumerate(p, &witness::Limits::none(), |q| {
        all.push(q.clone());
        all.len() < 2
    })
    .unwrap();
    all
}

/// The options for a preset on a `w x h` panel; pillars have an even
/// width (the symmetric ones need it, the others like it too).
fn options(preset: Preset, w: usize, h: usize) -> GenerateOptions {
    GenerateOptions::preset(preset, w, h)
}

/// The sizes tested and how many puzzles of each, per preset.
const SIZES: [(usize, usize, u64); 6] = [
    (2, 2, 34),
    (3, 2, 22),
    (3, 3, 22),
    (4, 3, 10),
    (4, 4, 9),
    (5, 5, 3),
];

#[test]
fn every_preset_gives_exactly_one_solution_by_brute_force() {
    let seed = env_u64("WITNESS_GENERATE_SEED").unwrap_or(1);
    let jobs: Vec<(Preset, usize, usize, u64)> = Preset::ALL
        .iter()
        .flat_map(|&p| {
            SIZES
                .iter()
                .flat_map(move |&(w, h, n)| (0..n).map(move |i| (p, w, h, i)))
        })
        .collect();
    assert!(jobs.len() >= 1000, "{} puzzles", jobs.len());
    let failures: Vec<String> = jobs
        .par_iter()
        .filter_map(|&(preset, w, h, i)| {
            let o = options(preset, w, h);
            let g = match witness::generate_nth(&o, seed, i) {
                Ok(g) => g,
                Err(e) => return Some(format!("{} {w}x{h} #{i}: {e}", preset.name())),
            };
            let all = brute_two(&g.puzzle);
            if all != [g.solution.clone()] {
                return Some(format!(
                    "{} {w}x{h} #{i}: brute force found {} solutions ({:?}), not just {}",
                    preset.name(),
                    all.len(),
                    all.iter().map(Path::to_moves).collect::<Vec<_>>(),
                    g.solution.to_moves()
                ));
            }
            // The preset's mechanic is there.
            let has = |k: &str| g.symbols.get(k).copied().unwrap_or(0) > 0;
            let ok = match preset {
                Preset::Dots => has("dots"),
                Preset::Squares => has("squares"),
                Preset::Stars => has("stars"),
                Preset::Triangles => has("triangles"),
                Preset::Polyominoes => has("polyominoes"),
                Preset::Subtractive => has("subtractive") && has("polyominoes"),
                Preset::Elimination => has("marks"),
                Preset::Symmetry => g.puzzle.symmetry.is_some(),
                Preset::Pillar => g.puzzle.pillar(),
                Preset::Mixed => g.symbols.keys().filter(|k| **k != "rotatable").count() >= 2,
            };
            (!ok).then(|| {
                format!(
                    "{} {w}x{h} #{i}: the mechanic is missing: {:?}",
                    preset.name(),
                    g.symbols
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn minimal_puzzles_need_every_symbol() {
    let seed = env_u64("WITNESS_GENERATE_SEED").unwrap_or(2);
    let jobs: Vec<(Preset, usize, usize, u64)> = Preset::ALL
        .iter()
        .flat_map(|&p| [(p, 2, 2), (p, 3, 3), (p, 4, 3)])
        .flat_map(|(p, w, h)| (0..4).map(move |i| (p, w, h, i)))
        .collect();
    let failures: Vec<String> = jobs
        .par_iter()
        .flat_map(|&(preset, w, h, i)| {
            let mut o = options(preset, w, h);
            o.minimal = true;
            let g = match witness::generate_nth(&o, seed, i) {
                Ok(g) => g,
                Err(e) => return vec![format!("{} {w}x{h} #{i}: {e}", preset.name())],
            };
            let name = format!("{} {w}x{h} #{i}", preset.name());
            let mut out = Vec::new();
            if brute_two(&g.puzzle) != [g.solution.clone()] {
                out.push(format!("{name}: not unique by brute force"));
            }
            for q in symbols(&g.puzzle) {
                let fewer = without(&g.puzzle, q);
                // Minimal: without it the line is not the one and only
                // solution (it fails, or another one appears).
                let all = brute_solutions(&fewer);
                if all == [g.solution.clone()] {
                    out.push(format!("{name}: the symbol at {q} is not needed"));
                }
            }
            out
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_same_seed_gives_the_same_puzzles_on_any_thread() {
    let o = options(Preset::Mixed, 4, 4);
    let one: Vec<String> = (0..24)
        .map(|i| format!("{:?}", witness::generate_nth(&o, 9, i).map(|g| g.puzzle)))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let two: Vec<String> = pool.install(|| {
        (0..24u64)
            .collect::<Vec<_>>()
            .into_par_iter()
            .rev()
            .map(|i| format!("{:?}", witness::generate_nth(&o, 9, i).map(|g| g.puzzle)))
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect()
    });
    assert_eq!(one, two);
    // Another seed gives other puzzles.
    let other = format!("{:?}", witness::generate_nth(&o, 10, 0).map(|g| g.puzzle));
    assert_ne!(one[0], other);
}

#[test]
fn frames_from_the_options() {
    // Symmetry, pillars, several starts and ends, gaps and removed edges.
    let spec = Spec::parse("dots=2,squares=2/2,triangles=1").unwrap();
    let mut o = GenerateOptions::new(4, 4, spec);
    o.symmetry = Some(witness::model::Symmetry { x: true, y: false });
    o.pillar = true;
    o.ends = 2;
    o.gaps = 2;
    for i in 0..6 {
        let g = witness::generate_nth(&o, 3, i).unwrap();
        assert!(g.puzzle.pillar() && g.puzzle.symmetry.is_some());
        assert_eq!(brute_two(&g.puzzle), std::slice::from_ref(&g.solution));
    }
    let mut o = GenerateOptions::new(3, 3, Spec::parse("squares=3/2,dots=2").unwrap());
    o.starts = 2;
    o.ends = 3;
    o.removed = 1;
    for i in 0..6 {
        let g = witness::generate_nth(&o, 4, i).unwrap();
        assert_eq!(g.puzzle.starts().count(), 2);
        assert_eq!(brute_two(&g.puzzle), std::slice::from_ref(&g.solution));
    }
    // 1x1 panels.
    let o = GenerateOptions::new(1, 1, Spec::parse("dots=1").unwrap());
    let g = witness::generate(&o, 0).unwrap();
    assert_eq!(brute_two(&g.puzzle), [g.solution]);
}

/// Puzzles made for the Windmill's rules (`GenerateOptions::rules`) carry
/// them and have exactly one solution under them, by the brute force
/// judging with those rules. Squares of two colours, stars and two marks
/// are where the rule sets part most (a Windmill mark must be used, and
/// may be a star's partner while it erases something else,
/// `docs/rules.md#rule-profiles`), so many of these puzzles are not
/// unique, or not solved by their line, under the site's rules: proof
/// that the generator judged them by the Windmill's. Also, `like` takes
/// the model puzzle's rules.
#[test]
fn puzzles_made_for_the_windmill_are_unique_under_its_rules() {
    use witness::model::RuleSet;
    let mut o = GenerateOptions::new(3, 3, Spec::parse("squares=4/2,stars=2/2,marks=2").unwrap());
    o.rules = RuleSet::Windmill;
    let mut apart = 0;
    for i in 0..12 {
        let g = witness::generate_nth(&o, 5, i).unwrap();
        assert_eq!(g.puzzle.rules, RuleSet::Windmill, "#{i}");
        let moves = g.solution.to_moves();
        let one = std::slice::from_ref(&g.solution);
        assert_eq!(brute_two(&g.puzzle), one, "#{i}: {moves}");
        let mut site = g.puzzle.clone();
        site.rules = RuleSet::WitnessPuzzles;
        if brute_two(&site) != one {
            apart += 1;
        }
        let like = GenerateOptions::like(&g.puzzle).unwrap();
        assert_eq!(like.rules, RuleSet::Windmill);
    }
    assert!(
        apart >= 3,
        "only {apart} of 12 judged otherwise by the site's rules"
    );
}

#[test]
fn like_a_puzzle_takes_its_size_and_mix() {
    let text =
        std::fs::read_to_string("../../examples/puzzles/stars-squares-polyomino.json").unwrap();
    let model = witness::read_puzzle(&text, None).unwrap();
    let o = GenerateOptions::like(&model).unwrap();
    assert_eq!(
        (o.width, o.height),
        (model.face_width(), model.face_height())
    );
    assert!(o.spec.stars > 0 && o.spec.squares > 0 && o.spec.polyominoes > 0);
    let empty = witness::model::Puzzle::new(3, 3, false).unwrap();
    assert!(matches!(
        GenerateOptions::like(&empty),
        Err(Error::Options(_))
    ));
}

#[test]
fn bad_options_are_errors() {
    let spec = Spec::parse("dots=1").unwrap();
    for (w, h) in [(0, 3), (3, 0), (100, 3)] {
        let o = GenerateOptions::new(w, h, spec.clone());
        assert!(witness::generate(&o, 0).is_err(), "{w}x{h}");
    }
    let mut o = GenerateOptions::new(3, 3, spec.clone());
    o.pillar = true;
    o.symmetry = Some(witness::model::Symmetry { x: true, y: false });
    assert!(
        witness::generate(&o, 0).is_err(),
        "a symmetric pillar of 3 faces round"
    );
    // More symbols than a 4x4 panel has faces (16) or nodes and edges (65):
    // refused at once, naming the count.
    for (text, what) in [
        ("squares=10000", "16 faces"),
        ("dots=66", "65 nodes and edges"),
    ] {
        let o = GenerateOptions::new(4, 4, Spec::parse(text).unwrap());
        match witness::generate(&o, 0) {
            Err(Error::Options(m)) => assert!(m.contains(what), "{text}: {m}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    // Starts and ends a panel has no room for, as `frame::draw` places
    // them: a 2x2 panel has 9 nodes, 8 of them on its border; turned half
    // round, its centre is its own mirror and the other 8 pair up.
    for (starts, ends, xy, what) in [
        (
            9,
            1,
            false,
            "9 starts and 1 end asked for; a 2 x 2 panel has 9 nodes",
        ),
        (
            1,
            9,
            false,
            "9 ends asked for; a 2 x 2 panel has 8 nodes on its border",
        ),
        (5, 1, true, "room for 4 starts"),
    ] {
        let mut o = GenerateOptions::new(2, 2, spec.clone());
        (o.starts, o.ends) = (starts, ends);
        if xy {
            o.symmetry = Some(witness::model::Symmetry { x: true, y: true });
        }
        match witness::generate(&o, 0) {
            Err(Error::Options(m)) => assert!(m.contains(what), "{m}"),
            other => panic!("{starts} starts, {ends} ends: {other:?}"),
        }
        // Taken to that size from a model, the counts are lowered to fit.
        let mut o = GenerateOptions::new(6, 6, spec.clone());
        (o.starts, o.ends, o.gaps, o.removed) = (starts, ends, 60, 20);
        if xy {
            o.symmetry = Some(witness::model::Symmetry { x: true, y: true });
        }
        o.resize(2, 2);
        assert!(o.starts + o.ends <= 9 && o.ends <= 8 && o.gaps <= 12 && o.removed <= 8);
        assert!(!matches!(witness::generate(&o, 0), Err(Error::Options(_))));
    }
    // As many as the panel holds are drawn: the starts leave the border
    // to the ends (on a 2x2 panel, 8 ends leave the start its one inner
    // node; 6 ends and 3 starts, two of the border's nodes).
    use rand::SeedableRng;
    for (starts, ends) in [(1, 8), (3, 6)] {
        let mut o = GenerateOptions::new(2, 2, spec.clone());
        (o.starts, o.ends) = (starts, ends);
        let mut drawn = 0;
        for seed in 0..40 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let Some(f) = witness::internals::generate::draw(&o, &mut rng).unwrap() else {
                continue;
            };
            drawn += 1;
            let p = &f.puzzle;
            assert_eq!((p.starts().count(), p.ends().count()), (starts, ends));
        }
        assert!(drawn > 10, "{starts} starts, {ends} ends: {drawn} drawn");
    }
    let mut o = GenerateOptions::new(3, 3, spec);
    o.attempts = 0;
    assert!(matches!(witness::generate(&o, 0), Err(Error::Options(_))));
    // A difficulty band past what the node budget can measure: refused
    // at once.
    let mut o = options(Preset::Dots, 2, 2);
    o.difficulty = Some((1000.0, 2000.0));
    o.attempts = 5;
    assert!(matches!(witness::generate(&o, 0), Err(Error::Options(_))));
    // One within it that no 2x2 panel of dots reaches (the measure is
    // log2 of one more than the search nodes, and such a panel has few
    // paths): given up after the attempts, not a panic.
    let top = (1.0 + o.max_nodes as f64).log2();
    o.difficulty = Some((top - 1.0, top));
    assert!(matches!(witness::generate(&o, 0), Err(Error::Stopped)));
}

#[test]
fn cancel_stops_a_large_panel() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let mut o = options(Preset::Mixed, 30, 30);
    let flag = Arc::new(AtomicBool::new(true));
    o.limits = witness::Limits::none().with_cancel(flag);
    assert!(matches!(witness::generate(&o, 0), Err(Error::Stopped)));
}

#[test]
fn a_difficulty_band_far_from_the_typical_value_is_reached() {
    // Generated mixed 4x4 puzzles sit around 7 (docs/benchmarks.md,
    // "Difficulty"); bands above and below it are steered into, every
    // puzzle inside its band and unique by the brute force.
    for band in [(10.0, 14.0), (0.0, 5.5)] {
        let mut o = options(Preset::Mixed, 4, 4);
        o.difficulty = Some(band);
        let made: Vec<_> = (0..6u64)
            .into_par_iter()
            .map(|i| witness::generate_nth(&o, 11, i).unwrap())
            .collect();
        for g in made {
            assert!(
                (band.0..=band.1).contains(&g.difficulty),
                "{band:?}: {}",
                g.difficulty
            );
            assert_eq!(brute_two(&g.puzzle), std::slice::from_ref(&g.solution));
        }
    }
}

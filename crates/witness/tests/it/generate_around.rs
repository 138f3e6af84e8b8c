//! `witness::generate` around a given line (`GenerateOptions::around`):
//! for random legal lines on small panels (symmetry and pillars among
//! them) every puzzle made has that line as its only solution by the
//! unpruned brute force; a line no symbol of the kinds asked for can pin
//! down is refused with the reason; an illegal line is refused naming why.

use witness::generate::{GenerateOptions, Preset};
use witness::internals::generate as frame;
use witness::model::{Direction, Pos, Puzzle, SlotKind, Symmetry};
use witness::{Error, Path};

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

/// A small deterministic random stream (splitmix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// True when an end may sit at node `n` (the border; on a pillar only the
/// top and bottom rows).
fn on_border(p: &Puzzle, n: Pos) -> bool {
    n.y == 0 || n.y == p.height() - 1 || (!p.pillar() && (n.x == 0 || n.x == p.width() - 1))
}

/// A random self-avoiding line on the empty panel `p` from a random node
/// to a border node, in single-slot moves; `None` when the walk got stuck
/// before reaching the border.
fn random_line(p: &Puzzle, rng: &mut Rng) -> Option<Path> {
    let nodes: Vec<Pos> = p
        .positions()
        .filter(|q| q.kind() == SlotKind::Node)
        .collect();
    let start = nodes[rng.below(nodes.len())];
    let mut used = vec![start];
    let mut at = start;
    let mut moves = Vec::new();
    loop {
        if !moves.is_empty() && on_border(p, at) && rng.below(3) == 0 {
            return Some(Path::new(start, moves));
        }
        let next: Vec<(Direction, Pos)> = Direction::ALL
            .iter()
            .filter_map(|&d| {
                let e = p.neighbor(at, d)?;
                let n = p.neighbor(e, d)?;
                (!used.contains(&n)).then_some((d, n))
            })
            .collect();
        if next.is_empty() {
            return (!moves.is_empty() && on_border(p, at)).then(|| Path::new(start, moves));
        }
        let (d, n) = next[rng.below(next.len())];
        moves.push(d);
        moves.push(d);
        used.push(n);
        at = n;
    }
}

/// One case: a preset, a panel, and its symmetry.
struct Case {
    preset: Preset,
    w: usize,
    h: usize,
    symmetry: Option<Symmetry>,
    lines: usize,
}

#[test]
fn random_lines_are_the_only_solution_by_brute_force() {
    let x = Some(Symmetry { x: true, y: false });
    let y = Some(Symmetry { x: false, y: true });
    let xy = Some(Symmetry { x: true, y: true });
    let case = |preset, w, h, symmetry, lines| Case {
        preset,
        w,
        h,
        symmetry,
        lines,
    };
    let cases = [
        case(Preset::Dots, 3, 3, None, 50),
        case(Preset::Squares, 3, 3, None, 30),
        case(Preset::Stars, 3, 3, None, 25),
        case(Preset::Triangles, 3, 3, None, 30),
        case(Preset::Mixed, 4, 4, None, 30),
        case(Preset::Dots, 5, 5, None, 15),
        case(Preset::Mixed, 5, 4, None, 15),
        case(Preset::Symmetry, 4, 4, x, 20),
        case(Preset::Symmetry, 4, 3, y, 15),
        case(Preset::Symmetry, 5, 5, xy, 15),
        case(Preset::Pillar, 4, 3, None, 25),
        case(Preset::Pillar, 4, 4, None, 20),
    ];
    let mut rng = Rng(45);
    let (mut made, mut refused, mut tried) = (0, 0, 0);
    let mut failures = Vec::new();
    for c in &cases {
        let mut o = GenerateOptions::preset(c.preset, c.w, c.h);
        o.symmetry = c.symmetry;
        o.attempts = 40;
        let mut empty = Puzzle::new(c.w, c.h, o.pillar).unwrap();
        empty.symmetry = c.symmetry;
        let mut lines = 0;
        while lines < c.lines {
            let Some(line) = random_line(&empty, &mut rng) else {
                continue;
            };
            // Only legal lines: with symmetry, the line and its mirror
            // must not meet.
            if frame::around(&empty, &line).is_err() {
                continue;
            }
            lines += 1;
            tried += 1;
            o.around = Some(line.clone());
            let seed = rng.next();
            match witness::generate(&o, seed) {
                Ok(g) => {
                    made += 1;
                    assert_eq!(g.solution, line);
                    let all = brute_two(&g.puzzle);
                    if all != [line.clone()] {
                        failures.push(format!(
                            "{:?} {}x{} {line}: brute force found {all:?}",
                            c.preset, c.w, c.h
                        ));
                    }
                }
                Err(Error::Options(m)) if m.contains("the only solution") => {
                    refused += 1;
                    // Dots on every edge of the line pin it down: a line
                    // through all of them from the one start is this line.
                    if c.preset == Preset::Dots {
                        failures.push(format!("dots {}x{} {line}: refused", c.w, c.h));
                    }
                }
                Err(e) => failures.push(format!("{:?} {}x{} {line}: {e}", c.preset, c.w, c.h)),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Most lines get a puzzle; short lines that part the panel into few
    // regions are often refused by the region kinds (squares, stars).
    assert!(tried >= 280, "{tried} lines");
    assert!(
        made * 2 >= tried,
        "only {made} of {tried} lines made a puzzle ({refused} refused)"
    );
}

#[test]
fn the_symmetry_preset_picks_axes_the_line_fits() {
    // From the top-left corner down to the bottom-left corner of a 4x4
    // panel, never past the second column: legal with a left-right mirror
    // and with the rotation (the mirror line keeps to the right half), not
    // with a top-bottom mirror (the mirror of the start is the end). Each
    // puzzle made uses an axis on which the line is legal.
    let mut o = GenerateOptions::preset(Preset::Symmetry, 4, 4);
    let line = Path::parse("0,0:R2D2D2L2D2D2").unwrap();
    o.around = Some(line.clone());
    for seed in 0..6 {
        let g = witness::generate(&o, seed).unwrap();
        assert!(g.puzzle.symmetry.is_some());
        assert_eq!(g.solution, line);
        assert_eq!(brute_two(&g.puzzle), std::slice::from_ref(&line));
    }
}

#[test]
fn a_line_squares_cannot_pin_down_is_refused() {
    // One edge along the top of a 3x3 panel, from the corner (0,0) to the
    // node (2,0). It splits nothing: the whole panel is one region, so
    // every square the line satisfies has the same colour. The line
    // down, right and up round the top-left face reaches the same end
    // and is satisfied by squares of one colour too, whatever they are:
    // no squares make the given line the only solution.
    let mut o = GenerateOptions::preset(Preset::Squares, 3, 3);
    o.attempts = 25;
    o.around = Some(Path::parse("0,0:R2").unwrap());
    match witness::generate(&o, 1) {
        Err(Error::Options(m)) => {
            assert!(m.contains("only solution in 25 attempts"), "{m}")
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    // Dots on that edge pin it down.
    let mut o = GenerateOptions::preset(Preset::Dots, 3, 3);
    o.around = Some(Path::parse("0,0:R2").unwrap());
    let g = witness::generate(&o, 1).unwrap();
    assert_eq!(brute_two(&g.puzzle), [Path::parse("0,0:R2").unwrap()]);
}

#[test]
fn illegal_lines_are_refused_naming_why() {
    let cases = [
        // Ends inside the panel, where no end can be.
        ("0,0:R2D2", None, "inside the panel"),
        // Starts on an edge.
        ("1,0:R1D2", None, "not a node"),
        // Crosses itself.
        ("0,0:R2D2L2U2R2", None, "the line to make a puzzle around"),
        // Leaves the grid.
        ("0,0:L2", None, "leaves the grid"),
        // Starts on the axis of a left-right mirror (its own mirror).
        (
            "4,0:D2D2D2D2",
            Some(Symmetry { x: true, y: false }),
            "own mirror",
        ),
        // Meets its mirror line.
        (
            "0,0:R2R2R2",
            Some(Symmetry { x: true, y: false }),
            "the line to make a puzzle around",
        ),
    ];
    for (text, symmetry, why) in cases {
        let mut o = GenerateOptions::preset(Preset::Dots, 4, 4);
        o.symmetry = symmetry;
        o.around = Some(Path::parse(text).unwrap());
        match witness::generate(&o, 1) {
            Err(Error::Options(m)) => assert!(m.contains(why), "{text}: {m}"),
            other => panic!("{text}: expected a refusal, got {other:?}"),
        }
    }
}

#[test]
fn starts_and_ends_are_refused_around_a_line() {
    for (starts, ends) in [(2, 1), (1, 3)] {
        let mut o = GenerateOptions::preset(Preset::Dots, 3, 3);
        o.starts = starts;
        o.ends = ends;
        o.around = Some(Path::parse("0,0:R2").unwrap());
        match witness::generate(&o, 1) {
            Err(Error::Options(m)) => {
                assert!(m.contains("only start") && m.contains("only end"), "{m}")
            }
            other => panic!("expected a refusal, got {other:?}"),
        }
    }
}

#[test]
fn a_request_keeps_the_panels_pillar_and_symmetry() {
    // The page sends the panel's pillar and symmetry with the line drawn
    // on it; the puzzle made is of that kind, its only solution the line.
    let cases = [
        (serde_json::json!({"pillar": true}), true, None),
        (
            serde_json::json!({"symmetry": {"x": true, "y": false}}),
            false,
            Some(Symmetry { x: true, y: false }),
        ),
    ];
    for (extra, pillar, symmetry) in cases {
        let mut body = serde_json::json!({
            "preset": "dots", "width": 4, "height": 4, "seed": 3,
            "around": "0,0:D2D2D2D2",
        });
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        let (o, seed) = witness::generate::read_request(&body).unwrap();
        let g = witness::generate(&o, seed).unwrap();
        assert_eq!(g.puzzle.pillar(), pillar);
        assert_eq!(g.puzzle.symmetry, symmetry);
        assert_eq!(g.solution, Path::parse("0,0:D2D2D2D2").unwrap());
        assert_eq!(brute_two(&g.puzzle), std::slice::from_ref(&g.solution));
    }
    let bad = serde_json::json!({"symmetry": "x"});
    assert!(matches!(
        witness::generate::read_request(&bad),
        Err(Error::Options(m)) if m.contains("symmetry")
    ));
}

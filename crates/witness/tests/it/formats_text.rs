//! The text format: hand-written puzzles read as intended, every model
//! feature round trips, and malformed text gives errors, never panics.

use crate::common;

use witness::formats::{self, text, wpjson, Format};
use witness::model::{
    Color, Direction, Dot, Gap, Polyomino, Pos, Puzzle, Symbol, SymbolKind, Symmetry,
};
use witness::{Limits, Path};

/// The first example of `docs/text-format.md`.
const EXAMPLE: &str = "\
witness 3x3
name: Squares and a dot
// Two white squares and two black ones, a dot on the bottom edge.
+ -  + - + -  E^
| #  | . | #w |
+ -  + - + -  +
| .  | . | .  |
+ -  + - + -  +
| #w | . | #  |
S -  + o + -  +
";

#[test]
fn the_docs_example_reads_as_drawn() {
    assert_eq!(formats::detect(EXAMPLE), Ok(Format::Text));
    let p = formats::read_puzzle(EXAMPLE, None).unwrap();
    assert_eq!((p.face_width(), p.face_height()), (3, 3));
    assert_eq!(p.name.as_deref(), Some("Squares and a dot"));
    assert!(p.cell(Pos::new(0, 6)).start);
    assert_eq!(p.cell(Pos::new(6, 0)).end, Some(Direction::Up));
    assert_eq!(p.cell(Pos::new(3, 6)).dot, Dot::Black);
    let sq = |c| Some(Symbol::new(SymbolKind::Square, c));
    assert_eq!(p.cell(Pos::new(1, 1)).symbol, sq(Color::Black));
    assert_eq!(p.cell(Pos::new(5, 1)).symbol, sq(Color::White));
    assert_eq!(p.cell(Pos::new(1, 5)).symbol, sq(Color::White));
    assert_eq!(p.cell(Pos::new(5, 5)).symbol, sq(Color::Black));
    // Up the left side and along the top misses the dot.
    let miss = Path::parse("0,6:U6R6").unwrap();
    assert!(!witness::check(&p, &miss).unwrap().valid);
    let s = witness::solve(
        &p,
        &witness::SolveOptions::default().with_limits(Limits::none()),
    )
    .unwrap();
    let path = s.path.expect("the example is solvable");
    assert!(witness::check(&p, &path).unwrap().valid);
}

/// A puzzle using every feature the model has.
fn kitchen_sink() -> Puzzle {
    let mut p = Puzzle::new(6, 3, true).unwrap();
    p.symmetry = Some(Symmetry { x: false, y: false });
    p.undirected = true;
    p.settings.shapeless_zero_poly = true;
    p.settings.precise_polyominos = false;
    p.settings.fat_startpoints = true;
    p.name = Some("  \"odd\" name\twith tab ".into());
    let big = Polyomino::new([(0, 0), (4, 0), (2, 2), (0, 4), (4, 4), (1, 4)], true);
    let ell = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
    let faces = [
        (SymbolKind::Square, Color::Other("#ff8800".into())),
        (SymbolKind::Star, Color::Cyan),
        (SymbolKind::Star, Color::Magenta),
        (SymbolKind::Triangle(12), Color::Purple),
        (SymbolKind::Triangle(2), Color::Orange),
        (SymbolKind::Nega, Color::White),
        (SymbolKind::Nega, Color::Other("Red".into())),
        (SymbolKind::Poly(big.clone()), Color::Yellow),
        (SymbolKind::Ylop(big), Color::Green),
        (SymbolKind::Poly(ell.clone()), Color::Other("".into())),
        (SymbolKind::Ylop(ell), Color::Blue),
        (SymbolKind::Poly(Polyomino::new([], false)), Color::Yellow),
        (SymbolKind::Poly(Polyomino::new([], true)), Color::Black),
        (SymbolKind::Square, Color::Other("a b".into())),
    ];
    let mut fi = faces.iter().cycle();
    for y in (1..7).step_by(2) {
        for x in (1..12).step_by(2) {
            let (k, c) = fi.next().unwrap();
            p.set_symbol(Pos::new(x, y), Some(Symbol::new(k.clone(), c.clone())))
                .unwrap();
        }
    }
    type Mark<'a> = (usize, usize, &'a dyn Fn(&mut witness::model::Cell));
    let marks: [Mark; 9] = [
        (0, 0, &|c| c.start = true),
        (1, 0, &|c| {
            c.start = true;
            c.end = Some(Direction::Down);
            c.dot = Dot::Blue;
            c.gap = Gap::Full;
        }),
        (2, 0, &|c| c.end = Some(Direction::Left)),
        (4, 0, &|c| c.end = Some(Direction::Right)),
        (6, 6, &|c| c.dot = Dot::Yellow),
        (7, 6, &|c| c.dot = Dot::Invisible),
        (0, 3, &|c| c.gap = Gap::Break),
        (8, 4, &|c| c.gap = Gap::Full),
        (11, 6, &|c| c.dot = Dot::Black),
    ];
    for (x, y, f) in marks {
        f(p.cell_mut(Pos::new(x, y)));
    }
    p
}

#[test]
fn every_model_feature_round_trips() {
    let p = kitchen_sink();
    let t = text::to_string(&p);
    let back = text::parse(&t).unwrap_or_else(|e| panic!("{e}\n{t}"));
    assert_eq!(back, p, "{t}");
    assert_eq!(text::to_string(&back), t);
    assert!(t.starts_with("witness 6x3 pillar symmetry=shift undirected"));
    assert!(t.contains("color "), "{t}");
}

#[test]
fn text_to_model_to_text() {
    // Canonical texts read and write back unchanged.
    let texts = [
        "witness 1x1\nS - E>\n| . |\n+ - +\n".to_string(),
        "witness 2x1 pillar symmetry=xy\nS - E^ -\n| A | Ab\nS x E^ x\nA = ylop rot ##./.##\n"
            .to_string(),
        "witness 2x2 shapeless-zero-poly=true\nS - + -  E>\n| A | 3  |\n+ o + ~  +\n| Y | *g |\n+ x + -  ~\nA = poly #/#\n"
            .to_string(),
        text::to_string(&kitchen_sink()),
    ];
    for t in texts {
        let p = text::parse(&t).unwrap_or_else(|e| panic!("{e}\n{t}"));
        let again = text::to_string(&p);
        let p2 = text::parse(&again).unwrap();
        assert_eq!(p2, p);
        assert_eq!(text::to_string(&p2), again);
    }
    // And a canonical text is a fixed point.
    let t = "witness 1x1\nS - E>\n| . |\n+ - +\n";
    assert_eq!(text::to_string(&text::parse(t).unwrap()), t);
}

#[test]
fn lenient_spellings() {
    // Size left out, base characters kept, an end without an arrow, a bare
    // arrow, extra spaces and comments.
    let t = "// a comment\n\nwitness\n  +S   -  +E\n|   #r  |\n  + -   >\n// done\n";
    let p = text::parse(t).unwrap();
    assert!(p.cell(Pos::new(0, 0)).start);
    assert_eq!(p.cell(Pos::new(2, 0)).end, Some(Direction::Right));
    assert_eq!(p.cell(Pos::new(2, 2)).end, Some(Direction::Right));
    assert_eq!(
        p.cell(Pos::new(1, 1)).symbol,
        Some(Symbol::new(SymbolKind::Square, Color::Red))
    );
}

#[test]
fn json_corpus_round_trips_through_text() {
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        return;
    };
    for line in &lines {
        let (id, json) = common::puzzle_of_line(line);
        let p = wpjson::parse(&json).unwrap();
        let t = text::to_string(&p);
        let back = text::parse(&t).unwrap_or_else(|e| panic!("{id}: {e}\n{t}"));
        assert_eq!(back, p, "{id}\n{t}");
    }
}

#[test]
fn malformed_text_gives_clear_errors() {
    let cases = [
        ("", "no \"witness\" header"),
        ("witness 1x1\n", "no grid"),
        ("hello\n", "header line"),
        (
            "witness 1x1 bogus\nS - E>\n| . |\n+ - +\n",
            "unknown header option \"bogus\"",
        ),
        (
            "witness 1x1 symmetry=z\nS - E>\n| . |\n+ - +\n",
            "symmetry must be",
        ),
        (
            "witness 1x1 fat-startpoints=maybe\nS - E>\n| . |\n+ - +\n",
            "true or false",
        ),
        ("witness 2x2\nS - E>\n| . |\n+ - +\n", "header says 2x2"),
        (
            "witness\nS - E>\n| . |\n+ - + -\n",
            "line 4: the row has 4 slots",
        ),
        ("witness\nS - E>\n| . |\n", "odd number of slot rows"),
        (
            "witness\nS - E>\n| Q |\n+ - +\n",
            "shape \"Q\" is not defined",
        ),
        (
            "witness\nS - E>\n| #z |\n+ - +\n",
            "unknown colour code \"z\"",
        ),
        ("witness\nS - E>\n| #R |\n+ - +\n", "line 3, slot (1, 1)"),
        ("witness\nS - E>\n| @ |\n+ - +\n", "not a face token"),
        (
            "witness\nS - E>\n| . |\n+ | +\n",
            "does not fit a horizontal edge",
        ),
        ("witness\nSS - E>\n| . |\n+ - +\n", "S twice"),
        ("witness\nS - E>\n| . |\n+ - +q\n", "'q'"),
        ("witness\nS - E>\n| A |\n+ - +\nA = poly ##/#q\n", "ROWS"),
        ("witness\nS - E>\n| A |\n+ - +\nA = poly ..\n", "no squares"),
        ("witness\nS - E>\n| . |\n+ - +\nA = poly #\n", "never used"),
        (
            "witness\nS - E>\n| . |\n+ - +\nY = poly #\n",
            "other than \"Y\"",
        ),
        (
            "witness\nS - E>\n| . |\n+ - +\ncolor k = pink\n",
            "built-in",
        ),
        (
            "witness\nname: \"unterminated\nS - E>\n| . |\n+ - +\n",
            "quoted string",
        ),
        ("witness\nS - E>\n| 99999999999 |\n+ - +\n", "too large"),
    ];
    for (t, want) in cases {
        let e = text::parse(t).expect_err(t);
        let msg = e.to_string();
        assert!(msg.contains(want), "{t:?}: {msg:?} should mention {want:?}");
    }
}

#[test]
fn corrupted_text_never_panics() {
    let base: Vec<char> = text::to_string(&kitchen_sink()).chars().collect();
    let alphabet: Vec<char> = "+-|SE<>^vobyix~.#*0123456789YABZkrwg= /\n\""
        .chars()
        .collect();
    let mut seed = 99u64;
    let mut rand = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for _ in 0..3000 {
        let mut m = base.clone();
        for _ in 0..1 + rand(3) {
            let i = rand(m.len());
            match rand(3) {
                0 => m[i] = alphabet[rand(alphabet.len())],
                1 => {
                    m.remove(i);
                }
                _ => m.insert(i, alphabet[rand(alphabet.len())]),
            }
        }
        let s: String = m.into_iter().collect();
        if let Ok(p) = text::parse(&s) {
            // Whatever reads must write and read back the same.
            assert_eq!(text::parse(&text::to_string(&p)).unwrap(), p, "{s}");
        }
    }
}

#[test]
fn docs_examples_read_and_write_back_unchanged() {
    let doc = include_str!("../../../../docs/text-format.md");
    let mut blocks = 0;
    let mut rest = doc;
    while let Some(i) = rest.find("```text\n") {
        let body = &rest[i + 8..];
        let end = body.find("```").expect("closed block");
        let block = &body[..end];
        rest = &body[end + 3..];
        let p = text::parse(block).unwrap_or_else(|e| panic!("{e}\n{block}"));
        assert_eq!(text::to_string(&p), block);
        // Each example is a puzzle a reader can solve.
        let solved = witness::solve(&p, &witness::SolveOptions::default()).unwrap();
        let path = solved
            .path
            .unwrap_or_else(|| panic!("no solution:\n{block}"));
        assert!(witness::check(&p, &path).unwrap().valid, "{block}");
        blocks += 1;
    }
    assert!(blocks >= 5);
    // The first one is the example at the top of this file.
    assert!(doc.contains(
        EXAMPLE
            .replace(
                "// Two white squares and two black ones, a dot on the bottom edge.\n",
                ""
            )
            .as_str()
    ));
}

/// A shape may span 255 squares across or down, no more: one of 255 rows
/// reads and writes back; one of 256 is refused with the shape's name
/// (its bounding box would not fit the model's counts). Empty rows above
/// a shape are no part of its span.
#[test]
fn shapes_span_at_most_255_squares() {
    let panel = |rows: usize| {
        format!(
            "witness 1x1\n+ - E>\n| A |\nS - +\nA = poly {}\n",
            vec!["#"; rows].join("/")
        )
    };
    let p = text::parse(&panel(255)).unwrap();
    assert_eq!(text::parse(&text::to_string(&p)).unwrap(), p);
    match text::parse(&panel(256)) {
        Err(witness::Error::Parse(m)) => assert!(m.contains("\"A\"") && m.contains("255"), "{m}"),
        other => panic!("{other:?}"),
    }
    let low = "witness 1x1\n+ - E>\n| A |\nS - +\nA = poly ".to_string() + &"/".repeat(300) + "#\n";
    let p = text::parse(&low).unwrap();
    assert_eq!(text::parse(&text::to_string(&p)).unwrap(), p);
}

//! Bad input never panics: every malformed puzzle or path gets an `Err`
//! whose one-line message says what is wrong and where.

use witness::formats::{self, wpjson};
use witness::model::{Direction, Gap, Pos, Puzzle, MAX_SLOTS};
use witness::{Path, Rules};

/// The error message of a result that must be an error, checked to be one
/// line and to contain every key word.
#[track_caller]
fn err_with<T: std::fmt::Debug>(r: witness::Result<T>, words: &[&str]) -> String {
    let e = r.expect_err("expected an error").to_string();
    assert!(!e.contains('\n'), "message is not one line: {e:?}");
    for w in words {
        assert!(e.contains(w), "message {e:?} lacks {w:?}");
    }
    e
}

#[track_caller]
fn bad_puzzle(text: &str, words: &[&str]) -> String {
    err_with(wpjson::parse(text), words)
}

/// A 1x1 panel: start (0,2) bottom-left, end (2,0) top-right, a gap on the
/// top edge (1,0).
const SMALL: &str = r#"{"grid":[
    [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
    [{"type":"line","gap":1},null,{"type":"line"}],
    [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#;

/// SMALL with `face` on its only face (1,1).
fn with_face(face: &str) -> String {
    format!(
        r#"{{"grid":[[{{"type":"line"}},{{"type":"line"}},{{"type":"line","start":true}}],
        [{{"type":"line"}},{face},{{"type":"line"}}],
        [{{"type":"line","end":"right"}},{{"type":"line"}},{{"type":"line"}}]]}}"#
    )
}

// ---------------------------------------------------------------------------
// Text that is not a puzzle
// ---------------------------------------------------------------------------

#[test]
fn truncated_json() {
    // Cut inside the grid: serde's position is passed on.
    bad_puzzle(
        r#"{"grid":[[{"type":"line"},"#,
        &["not valid JSON", "line 1", "column"],
    );
    // Every prefix of a good puzzle is an error or a puzzle, never a panic.
    for cut in 0..SMALL.len() {
        let _ = wpjson::parse(&SMALL[..cut]);
        let _ = formats::read_puzzle(&SMALL[..cut], None);
    }
    // A prefix cut in the fourth line (the grid's third column) says so.
    let cut = SMALL.find("[{\"type\":\"line\",\"end\"").unwrap() + 5;
    bad_puzzle(&SMALL[..cut], &["not valid JSON", "line 4"]);
}

#[test]
fn text_that_is_not_json() {
    bad_puzzle("hello", &["not valid JSON", "line 1, column 1"]);
    bad_puzzle("", &["not valid JSON"]);
    bad_puzzle(
        "{\"grid\": [[null]]} trailing",
        &["not valid JSON", "column"],
    );
    // The format detector says what it expected.
    err_with(formats::read_puzzle("hello", None), &["format", "'{'"]);
    // An empty text (or one of blanks, or a byte-order mark alone) is
    // said to be empty.
    for empty in ["", " \n", "\u{feff}"] {
        err_with(formats::read_puzzle(empty, None), &["empty"]);
    }
}

#[test]
fn json_that_is_not_a_puzzle() {
    bad_puzzle("[1, 2]", &["JSON object", "grid"]);
    bad_puzzle("42", &["JSON object"]);
    bad_puzzle("{}", &["no \"grid\""]);
    bad_puzzle(r#"{"grid": null}"#, &["\"grid\"", "array"]);
}

#[test]
fn deeply_nested_json_is_an_error_not_a_stack_overflow() {
    let deep = format!(
        "{{\"grid\":{}{}}}",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    bad_puzzle(&deep, &["not valid JSON"]);
    let deep_path = "[".repeat(100_000);
    err_with(Path::parse(&deep_path), &["not valid JSON"]);
}

// ---------------------------------------------------------------------------
// Wrong field types
// ---------------------------------------------------------------------------

#[test]
fn wrong_type_of_grid_or_column() {
    bad_puzzle(r#"{"grid": 5}"#, &["\"grid\" must be an array"]);
    bad_puzzle(r#"{"grid": "abc"}"#, &["\"grid\" must be an array"]);
    bad_puzzle(
        r#"{"grid": [[null, null, null], 5, [null, null, null]]}"#,
        &["grid column 1", "not an array"],
    );
}

#[test]
fn wrong_type_of_slot_fields() {
    // Each names the slot (1, 1) and the field.
    bad_puzzle(
        &with_face(r#"{"type":5}"#),
        &["slot (1, 1)", "\"type\"", "string"],
    );
    bad_puzzle(
        &with_face(r#"{"type":"banana"}"#),
        &["slot (1, 1)", "\"banana\""],
    );
    bad_puzzle(
        &with_face(r#"{"type":"square","color":3}"#),
        &["slot (1, 1)", "\"color\"", "string"],
    );
    bad_puzzle(
        &with_face(r#"{"type":"star"}"#),
        &["slot (1, 1)", "star", "no \"color\""],
    );
    bad_puzzle(
        &with_face(r#"{"type":"triangle","color":"orange","count":"two"}"#),
        &["slot (1, 1)", "triangle", "\"count\""],
    );
    bad_puzzle(
        &with_face(r#"{"type":"triangle","color":"orange","count":-1}"#),
        &["slot (1, 1)", "\"count\""],
    );
    bad_puzzle(
        &with_face(r#"{"type":"poly","color":"yellow","polyshape":"L"}"#),
        &["slot (1, 1)", "\"polyshape\"", "whole number"],
    );
    bad_puzzle(
        &with_face(r#"{"type":"poly","color":"yellow","polyshape":-5}"#),
        &["slot (1, 1)", "\"polyshape\""],
    );
    bad_puzzle(
        &with_face(r#"{"type":"ylop","color":"blue"}"#),
        &["slot (1, 1)", "no \"polyshape\""],
    );
}

#[test]
fn wrong_type_of_top_level_fields() {
    let with = |extra: &str| SMALL.replacen('{', &format!("{{{extra},"), 1);
    bad_puzzle(&with(r#""symmetry":"yes""#), &["\"symmetry\""]);
    bad_puzzle(&with(r#""settings":[1]"#), &["\"settings\"", "object"]);
    bad_puzzle(
        &with(r#""startPoints":[{"x":"a","y":0}]"#),
        &["start point", "\"x\"", "whole number"],
    );
    bad_puzzle(
        &with(r#""endPoints":[{"x":0}]"#),
        &["endpoint", "\"y\"", "whole number"],
    );
    bad_puzzle(
        &with(r#""dots":[{"x":9,"y":9}]"#),
        &["dot", "(9, 9)", "not a node or edge"],
    );
    bad_puzzle(
        &with(r#""gaps":[{"x":1,"y":1}]"#),
        &["gap", "(1, 1)", "not a node or edge"],
    );
}

#[test]
fn symbols_out_of_place_and_custom_mechanics() {
    // A symbol on a node.
    let j = SMALL.replacen(
        r#"{"type":"line"}"#,
        r#"{"type":"square","color":"white"}"#,
        1,
    );
    bad_puzzle(&j, &["slot (0, 0)", "square", "node or edge"]);
    // Custom mechanics are refused, not misjudged (`docs/rules.md#decisions`).
    let e = bad_puzzle(
        &with_face(r#"{"type":"bridge","color":"white"}"#),
        &["slot (1, 1)", "bridge"],
    );
    assert!(e.starts_with("unsupported"), "{e}");
}

/// The same out of place in a puzzle built slot by slot (no format reads
/// one so): a symbol on an edge, a start, an end or a dot on a face. Every
/// job refuses it with the slot's place, and none panics.
#[test]
fn elements_out_of_place_in_a_built_puzzle() {
    use witness::model::{Cell, Color, Dot, Symbol, SymbolKind};
    /// What is put out of place, on a slot.
    type Misplace = fn(&mut Cell);
    let good = wpjson::parse(SMALL).unwrap();
    let edge = Pos::new(1, 2);
    let face = Pos::new(1, 1);
    let cases: Vec<(Pos, Misplace, &str)> = vec![
        (
            edge,
            |c| c.symbol = Some(Symbol::new(SymbolKind::Square, Color::White)),
            "a symbol on a node or edge",
        ),
        (face, |c| c.start = true, "a start on a face"),
        (face, |c| c.end = Some(Direction::Up), "an end on a face"),
        (face, |c| c.dot = Dot::Black, "a dot on a face"),
    ];
    for (at, set, words) in cases {
        let mut p = good.clone();
        set(p.cell_mut(at));
        let place = format!("slot {at}");
        let solve = witness::solve(&p, &Default::default());
        err_with(solve, &[&place, words]);
        let count = witness::count(&p, &Default::default());
        err_with(count, &[&place, words]);
        let path = Path::new(Pos::new(0, 2), vec![Direction::Right; 2]);
        err_with(witness::check(&p, &path), &[&place, words]);
    }
}

// ---------------------------------------------------------------------------
// Shapes and sizes
// ---------------------------------------------------------------------------

#[test]
fn ragged_columns() {
    bad_puzzle(
        r#"{"grid":[[null,null,null],[null,null],[null,null,null]]}"#,
        &["grid column 1", "2 slots", "column 0 has 3"],
    );
    bad_puzzle(
        r#"{"grid":[[null,null,null],[null,null,null],[null,null,null,null,null]]}"#,
        &["grid column 2", "5 slots"],
    );
}

#[test]
fn absurd_sizes() {
    // A 10,000 x 10,000 grid, cheaply: 10,000 columns, the first 10,000
    // slots high. The size is refused before anything else is looked at.
    let mut j = String::from("{\"grid\":[[");
    j.push_str(&vec!["null"; 10_000].join(","));
    j.push(']');
    j.push_str(&",[]".repeat(9_999));
    j.push_str("]}");
    let e = bad_puzzle(&j, &["10000 x 10000", "at most"]);
    assert!(e.starts_with("bad size"), "{e}");
    // Very wide but flat, and very tall but thin.
    let wide = format!("{{\"grid\":[{}]}}", vec!["[null]"; 10_001].join(","));
    bad_puzzle(&wide, &["10001 x 1"]);
    let tall = format!("{{\"grid\":[[{}]]}}", vec!["null"; 10_001].join(","));
    bad_puzzle(&tall, &["1 x 10001"]);
    // The model refuses them too.
    err_with(Puzzle::new(5_000, 5_000, false), &["5000 x 5000 faces"]);
    err_with(Puzzle::with_slots(MAX_SLOTS + 2, 3, false), &["slots"]);
    // The largest accepted grid is still fine to check.
    let mut big = Puzzle::with_slots(MAX_SLOTS, MAX_SLOTS, false).unwrap();
    big.cell_mut(Pos::new(0, 0)).start = true;
    big.cell_mut(Pos::new(2, 0)).end = Some(Direction::Right);
    let v = witness::check(&big, &Path::parse("0,0:R2").unwrap()).unwrap();
    assert!(v.valid);
}

#[test]
fn impossible_shapes() {
    bad_puzzle(r#"{"grid":[]}"#, &["no columns"]);
    bad_puzzle(r#"{"grid":[[]]}"#, &["1 x 0"]);
    bad_puzzle(
        r#"{"grid":[[null,null]]}"#,
        &["odd number of slot rows", "2"],
    );
    bad_puzzle(
        r#"{"grid":[[null],[null]]}"#,
        &["odd number of slot columns", "2"],
    );
    let pillar = r#"{"pillar":true,"grid":[[null,null,null],[null,null,null],[null,null,null]]}"#;
    bad_puzzle(pillar, &["pillar", "even number", "3"]);
    // A symmetric pillar needs a multiple of 4 columns (mirror of a node
    // must be a node).
    let col = "[null,null,null]";
    let sym_pillar = format!(
        r#"{{"pillar":true,"symmetry":{{"x":true,"y":false}},"grid":[{}]}}"#,
        [col; 6].join(",")
    );
    bad_puzzle(&sym_pillar, &["symmetric pillar", "multiple of 4", "6"]);
    // The same in the text format, and for a puzzle made in code: an
    // error from the validator and the solver, not a panic (the mirror
    // of a node would be an edge).
    let text = "witness 3x2 pillar symmetry=y\nS - + - + -\n| . | . | .\n+ - + - + -\n| . | . | .\nEv - + - + -\n";
    err_with(
        witness::formats::read_puzzle(text, None),
        &["symmetric pillar", "3 faces"],
    );
    let mut p = witness::model::Puzzle::new(1, 2, true).unwrap();
    p.symmetry = Some(witness::model::Symmetry { x: false, y: true });
    err_with(witness::Rules::new(&p), &["symmetric pillar", "(1 face)"]);
    err_with(
        witness::solve(
            &p,
            &witness::SolveOptions::default().with_limits(witness::Limits::none()),
        ),
        &["symmetric pillar"],
    );
}

// ---------------------------------------------------------------------------
// Paths that cannot be read
// ---------------------------------------------------------------------------

#[test]
fn unreadable_paths() {
    err_with(
        Path::parse("[{\"x\":0,\"y\":2},3,3"),
        &["not valid JSON", "column"],
    );
    err_with(Path::parse("[]"), &["empty"]);
    err_with(
        Path::parse("[{\"x\":\"a\",\"y\":2},3]"),
        &["{\"x\": X, \"y\": Y}"],
    );
    err_with(
        Path::parse("[{\"x\":0,\"y\":2},3,7,0]"),
        &["element 2", "7"],
    );
    err_with(
        Path::parse("[{\"x\":0,\"y\":2},3,0,3]"),
        &["element 2", "last"],
    );
    err_with(Path::parse("[{\"x\":0,\"y\":2},\"up\"]"), &["element 1"]);
    err_with(Path::parse("0,2:UXR"), &["character 2", "'X'"]);
    err_with(Path::parse("UURR"), &["start slot"]);
    err_with(Path::parse("a,b:UU"), &["\"a,b\"", "whole numbers"]);
    err_with(Path::parse("0,2,4:UU"), &["two whole numbers"]);
    err_with(
        Path::parse("0,2:R99999999999999999999999"),
        &["repeat count", "too large"],
    );
    err_with(
        Path::parse("[[0,2],[2,2]]"),
        &["elements 0 and 1", "not neighbours"],
    );
    err_with(Path::parse("[[0,2],\"x\"]"), &["element 1"]);
    err_with(Path::from_coordinates(&serde_json::json!([])), &["empty"]);
}

#[test]
fn coordinate_paths_with_huge_numbers_do_not_overflow() {
    // Coordinates near the 64-bit limits must not overflow while working
    // out the moves.
    let r = Path::parse("[[18446744073709551615,0],[9223372036854775807,0]]");
    err_with(r, &["elements 0 and 1", "not neighbours"]);
    let r = Path::parse("[[9223372036854775807,0],[18446744073709551615,0]]");
    err_with(r, &["elements 0 and 1", "not neighbours"]);
    // A far-away but well-formed path reads, then fails against a puzzle.
    let p = wpjson::parse(SMALL).unwrap();
    let far = Path::parse("[[18446744073709551615,0],[18446744073709551614,0]]").unwrap();
    err_with(witness::check(&p, &far), &["off the", "grid"]);
}

// ---------------------------------------------------------------------------
// Paths that do not fit the puzzle
// ---------------------------------------------------------------------------

#[track_caller]
fn bad_path(puzzle: &Puzzle, path: &str, words: &[&str]) -> String {
    let parsed = Path::parse(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rules = Rules::new(puzzle).unwrap();
    let e = err_with(rules.check_path(puzzle, &parsed), words);
    // The one-call form gives the same error.
    assert_eq!(witness::check(puzzle, &parsed).unwrap_err().to_string(), e);
    assert!(e.starts_with("bad path"), "{e}");
    e
}

#[test]
fn path_off_the_grid() {
    let p = wpjson::parse(SMALL).unwrap();
    bad_path(&p, "9,9:U", &["start (9, 9)", "off the 3 x 3 grid"]);
    bad_path(
        &p,
        "0,2:L",
        &["move 1", "Left", "(0, 2)", "leaves the grid"],
    );
    bad_path(&p, "0,2:U2U2", &["move 3", "(0, 0)", "leaves the grid"]);
    // A very long path (within the cap on moves) stops at the first bad
    // move.
    bad_path(&p, "0,2:R2R16000", &["move 3", "(2, 2)", "leaves the grid"]);
}

#[test]
fn path_through_a_gap() {
    let p = wpjson::parse(SMALL).unwrap();
    // Up the left edge, then right into the gap on the top edge (1,0).
    bad_path(&p, "0,2:U2R2", &["move 3", "(1, 0)", "gap"]);
    // A start on a gap slot cannot be used either.
    let mut q = p.clone();
    q.cell_mut(Pos::new(0, 1)).start = true;
    q.cell_mut(Pos::new(0, 1)).gap = Gap::Break;
    bad_path(&q, "0,1:U1R2", &["start (0, 1)", "gap"]);
}

#[test]
fn path_not_ending_at_an_end() {
    let p = wpjson::parse(SMALL).unwrap();
    bad_path(&p, "0,2:R2", &["stops at (2, 2)", "not an endpoint"]);
    bad_path(&p, "0,2:", &["stops at (0, 2)", "not an endpoint"]);
    bad_path(&p, "0,2:R2U1", &["stops at (2, 1)", "not an endpoint"]);
}

#[test]
fn other_illegal_paths() {
    let p = wpjson::parse(SMALL).unwrap();
    // Not starting at a start.
    bad_path(&p, "2,2:U2", &["(2, 2)", "not a start point"]);
    // Moving up from a horizontal edge.
    bad_path(&p, "0,2:R1U1", &["move 2", "(1, 2)", "along grid lines"]);
    // Crossing itself.
    bad_path(&p, "0,2:R2L2", &["move 3", "(1, 2)", "already covered"]);
    // A start flag put on a face through the model API: the puzzle
    // itself is refused (`elements_out_of_place_in_a_built_puzzle`).
    let mut q = p.clone();
    q.cell_mut(Pos::new(1, 1)).start = true;
    err_with(Rules::new(&q), &["slot (1, 1)", "a start on a face"]);
}

// ---------------------------------------------------------------------------
// Random damage: never a panic
// ---------------------------------------------------------------------------

#[test]
fn damaged_puzzles_and_paths_never_panic() {
    // A small panel with every kind of element, damaged byte by byte with a
    // fixed pseudo-random sequence; whatever parses is checked with a few
    // paths, which must give a verdict or an error.
    let base = r#"{"grid":[
      [{"type":"line","start":true},{"type":"line","dot":1},{"type":"line"},{"type":"line","gap":2},{"type":"line","end":"left"}],
      [{"type":"line"},{"type":"square","color":"white"},{"type":"line","gap":1},{"type":"triangle","color":"orange","count":2},{"type":"line"}],
      [{"type":"line","dot":2},{"type":"line"},{"type":"line","start":true,"end":"top"},{"type":"line"},{"type":"line"}],
      [{"type":"line"},{"type":"poly","color":"yellow","polyshape":1048627},{"type":"line"},{"type":"nega","color":"white"},{"type":"line"}],
      [{"type":"line","end":"right"},{"type":"line"},{"type":"line"},{"type":"line","dot":4},{"type":"line"}]],
      "symmetry":{"x":true,"y":true},"settings":{"NEGATIONS_CANCEL_NEGATIONS":false}}"#;
    let paths = [
        "0,0:D4",
        "0,0:R4",
        "2,2:",
        "2,2:U2R2",
        r#"[{"x":0,"y":0},2,2,4,4,0]"#,
        "[[0,0],[0,1],[0,2]]",
    ];
    wpjson::parse(base).expect("the undamaged panel parses");
    let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
    let try_all = |text: &str| -> bool {
        let Ok(puzzle) = wpjson::parse(text) else {
            return false;
        };
        if let Ok(rules) = Rules::new(&puzzle) {
            for path in paths {
                if let Ok(path) = Path::parse(path) {
                    let _ = rules.check_path(&puzzle, &path);
                }
            }
        }
        true
    };
    // Byte damage: mostly unreadable text.
    let alphabet = b"{}[]:,\"0123456789-.eEtruefalsnl xyz";
    for _ in 0..2_000 {
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..1 + next() % 3 {
            let i = (next() as usize) % bytes.len();
            match next() % 3 {
                0 => bytes[i] = alphabet[(next() as usize) % alphabet.len()],
                1 => {
                    bytes.remove(i);
                }
                _ => bytes.insert(i, alphabet[(next() as usize) % alphabet.len()]),
            }
        }
        if let Ok(text) = String::from_utf8(bytes) {
            try_all(&text);
        }
    }
    // Value damage: well-formed JSON with odd values in odd places.
    use serde_json::{json, Value};
    let odd = [
        json!(null),
        json!(true),
        json!(false),
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(-1),
        json!(2.5),
        json!(1e300),
        json!(4294967296u64),
        json!(1048576),
        json!(""),
        json!("top"),
        json!("all"),
        json!("line"),
        json!("nonce"),
        json!([]),
        json!({}),
        json!({"x": 1, "y": 1}),
    ];
    let keys = [
        "type",
        "color",
        "count",
        "polyshape",
        "rot",
        "dot",
        "gap",
        "start",
        "end",
        "line",
    ];
    let top_keys = [
        "pillar",
        "symmetry",
        "settings",
        "startPoints",
        "endPoints",
        "dots",
        "gaps",
        "start",
        "end",
    ];
    let base_value: Value = serde_json::from_str(base).unwrap();
    let mut parsed = 0;
    for _ in 0..2_000 {
        let mut v = base_value.clone();
        for _ in 0..1 + next() % 3 {
            let pick = |n: u64, len: usize| (n as usize) % len;
            let val = odd[pick(next(), odd.len())].clone();
            if next().is_multiple_of(4) {
                v[top_keys[pick(next(), top_keys.len())]] = val;
            } else {
                let (x, y) = (pick(next(), 5), pick(next(), 5));
                let slot = &mut v["grid"][x][y];
                if next().is_multiple_of(5) {
                    *slot = val;
                } else if slot.is_object() {
                    slot[keys[pick(next(), keys.len())]] = val;
                }
            }
        }
        parsed += try_all(&v.to_string()) as usize;
    }
    assert!(
        parsed > 200,
        "too few damaged puzzles still parsed: {parsed}"
    );
    // Damaged paths on the intact puzzle.
    let puzzle = wpjson::parse(base).unwrap();
    let rules = Rules::new(&puzzle).unwrap();
    let path_alphabet = b"0123456789,:LRUD[]{}\"xy ";
    for _ in 0..3_000 {
        let mut bytes = paths[(next() as usize) % paths.len()].as_bytes().to_vec();
        let i = (next() as usize) % bytes.len();
        bytes[i] = path_alphabet[(next() as usize) % path_alphabet.len()];
        let text = String::from_utf8(bytes).unwrap();
        if let Ok(path) = Path::parse(&text) {
            let _ = rules.check_path(&puzzle, &path);
        }
    }
}

/// Odd shapes never panic the solver: panels one to three faces wide and
/// tall, pillars or not, with every symmetry (the identity map too, which
/// pairs every slot with itself), starts and ends on random nodes and
/// edges (ends pointing anywhere). Solving, counting (up to a limit) and
/// hints answer or give an error, never a panic.
#[test]
fn odd_shapes_never_panic_the_solver() {
    use witness::model::{Direction, Puzzle, SlotKind, Symmetry};
    use witness::{count, hint, solve, CountOptions, HintOptions, HintSize, Limits, SolveOptions};
    let mut next = xorshift(0xD1B5_4A32_D192_ED03);
    let symmetries = [
        None,
        Some(Symmetry { x: true, y: false }),
        Some(Symmetry { x: false, y: true }),
        Some(Symmetry { x: true, y: true }),
        Some(Symmetry { x: false, y: false }),
    ];
    let (mut answered, mut refused) = (0, 0);
    for w in 1..=3 {
        for h in 1..=3 {
            for pillar in [false, true] {
                for symmetry in symmetries {
                    for _ in 0..6 {
                        let mut p = Puzzle::new(w, h, pillar).unwrap();
                        p.symmetry = symmetry;
                        let lines: Vec<_> = p
                            .positions()
                            .filter(|q| q.kind() != SlotKind::Face)
                            .collect();
                        for _ in 0..1 + next() % 2 {
                            let q = lines[next() as usize % lines.len()];
                            p.cell_mut(q).start = true;
                        }
                        for _ in 0..1 + next() % 2 {
                            let q = lines[next() as usize % lines.len()];
                            p.cell_mut(q).end = Some(Direction::ALL[next() as usize % 4]);
                        }
                        let limits = Limits::timeout(std::time::Duration::from_secs(5));
                        match solve(&p, &SolveOptions::default().with_limits(limits.clone())) {
                            Ok(_) => answered += 1,
                            Err(_) => refused += 1,
                        }
                        let _ = count(
                            &p,
                            &CountOptions::default()
                                .with_limit(50)
                                .with_limits(limits.clone()),
                        );
                        let _ = hint(
                            &p,
                            &HintOptions::default()
                                .with_size(HintSize::Fraction(0.5))
                                .with_limits(limits),
                        );
                    }
                }
            }
        }
    }
    assert!(
        answered > 300 && refused > 20,
        "{answered} answered, {refused} refused"
    );
}

/// A xorshift random number generator from `seed` (not zero).
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// Misuse of the library's API gets an `Err` (or, for an off-grid
/// position, the documented panic), never a wrong slot or an overflow.
#[test]
fn api_misuse_is_an_error() {
    use std::time::Duration;
    use witness::generate::Spec;
    use witness::{GenerateOptions, HintOptions, HintSize, Limits, SolveOptions};
    let small = wpjson::parse(SMALL).unwrap();
    // Rules of one puzzle, a path on another of another size.
    let big = Puzzle::new(3, 3, false).unwrap();
    let rules = Rules::new(&small).unwrap();
    err_with(
        rules.check_path(&big, &Path::parse("0,6:U6R6").unwrap()),
        &["3 x 3 slots", "7 x 7"],
    );
    // Sizes far past any panel, refused before any arithmetic.
    err_with(Puzzle::new(usize::MAX / 2 + 1, 1, true), &["faces"]);
    // Off the grid: the documented panic, not another slot.
    let off = std::panic::catch_unwind(|| small.cell(Pos::new(0, 3)).start);
    assert!(off.is_err());
    // A deadline past what the clock holds is no deadline.
    let far = Limits::timeout(Duration::MAX);
    let s = witness::solve(&small, &SolveOptions::default().with_limits(far)).unwrap();
    assert_eq!(s.status, witness::Status::Complete);
    // A hint's share outside 0..=1.
    for f in [f64::NAN, -1.0, 2.0] {
        let o = HintOptions::default().with_size(HintSize::Fraction(f));
        err_with(witness::hint(&small, &o), &["from 0 to 1"]);
    }
    // Generator options built field by field are checked as parsed ones.
    let spec = |squares, square_colors| Spec {
        squares,
        square_colors,
        ..Spec::default()
    };
    let band = |lo, hi| GenerateOptions {
        difficulty: Some((lo, hi)),
        ..GenerateOptions::new(3, 3, spec(3, 2))
    };
    for (o, words) in [
        (
            GenerateOptions::new(3, 3, spec(3, 0)),
            &["colours must be 1 to"][..],
        ),
        (
            GenerateOptions::new(3, 3, spec(3, 50)),
            &["colours must be 1 to"],
        ),
        (GenerateOptions::new(3, 3, Spec::default()), &["no symbol"]),
        (
            GenerateOptions {
                starts: 0,
                ..GenerateOptions::new(3, 3, spec(3, 2))
            },
            &["at least one of each"],
        ),
        (band(5.0, 1.0), &["at most its MAX"]),
        (band(f64::NAN, f64::NAN), &["difficulty band"]),
        (band(300.0, 400.0), &["the measure is at most"]),
    ] {
        let e = err_with(witness::generate_nth(&o, 1, 0), words);
        assert!(e.starts_with("bad options"), "{e}");
    }
}

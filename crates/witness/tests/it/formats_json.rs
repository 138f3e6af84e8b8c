//! witnesspuzzles JSON through the model and back, malformed JSON, and
//! format detection across all four formats.

use crate::common;

use witness::formats::{self, alcazar, text, windmill, wpjson, Format};
use witness::Error;

const SMALL: &str = r#"{"grid":[
    [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
    [{"type":"line","dot":1},{"type":"square","color":"cyan"},{"type":"line","gap":1}],
    [{"type":"line","end":"right"},{"type":"line"},{"type":"line","gap":2}]],
    "symmetry":{"x":true,"y":false},"name":"small"}"#;

/// JSON → model → JSON: the second JSON is the first's modern form, reads
/// back to the same puzzle, and writes the same JSON again.
fn json_round_trip(id: &str, json: &str) {
    let p = wpjson::parse(json).unwrap_or_else(|e| panic!("{id}: {e}"));
    let out = wpjson::to_value(&p).unwrap_or_else(|e| panic!("{id}: {e}"));
    let mut back = wpjson::from_value(&out).unwrap_or_else(|e| panic!("{id}: {e}"));
    if p.name.is_none() {
        back.name = None;
    }
    assert_eq!(back, p, "{id}");
    assert_eq!(wpjson::to_value(&back).unwrap(), out, "{id}");
}

#[test]
fn json_to_model_to_json() {
    json_round_trip("small", SMALL);
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        return;
    };
    for line in &lines {
        let (id, json) = common::puzzle_of_line(line);
        json_round_trip(&id, &json);
    }
}

#[test]
fn malformed_json_gives_errors() {
    let cases = [
        ("{", "not valid JSON"),
        ("{}", "no \"grid\""),
        (r#"{"grid":3}"#, "array of columns"),
        (r#"{"grid":[]}"#, "no columns"),
        (r#"{"grid":[[null],[null,null]]}"#, "equal lengths"),
        (
            r#"{"grid":[[null,null,null],[null,{"type":"square"},null],[null,null,null]]}"#,
            "no \"color\"",
        ),
    ];
    for (json, want) in cases {
        let e = formats::read_puzzle(json, None).expect_err(json);
        assert!(
            e.to_string().contains(want),
            "{json}: {e} should mention {want:?}"
        );
    }
    // Every prefix of a valid puzzle is an error, not a panic.
    for cut in 0..SMALL.len() {
        let _ = formats::read_puzzle(&SMALL[..cut], None);
    }
}

#[test]
fn detection_names_every_format() {
    let code = include_str!("../data/windmill-samples.txt")
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap();
    let maze = include_str!("../data/alcazar-sample1.puzzle");
    let drawn = "witness 1x1\nS - E>\n| . |\n+ - +\n";
    let url = format!("https://windmill.thefifthmatt.com/play/{code}");
    let cases = [
        (SMALL, Format::Json),
        (code, Format::Windmill),
        (url.as_str(), Format::Windmill),
        (maze, Format::Alcazar),
        (drawn, Format::Text),
    ];
    for (t, want) in cases {
        assert_eq!(formats::detect(t), Ok(want), "{t}");
        // With a trailing newline and leading blank lines too.
        assert_eq!(formats::detect(&format!("\n\n{t}\n")), Ok(want), "{t}");
        let p = formats::read_puzzle(t, None).unwrap();
        assert_eq!(formats::read_puzzle(t, Some(want)).unwrap(), p);
    }
    assert_eq!(
        formats::read_puzzle(code, None).unwrap(),
        windmill::parse(code).unwrap()
    );
    assert_eq!(
        formats::read_puzzle(maze, None).unwrap(),
        alcazar::parse(maze).unwrap()
    );
    assert_eq!(
        formats::read_puzzle(drawn, None).unwrap(),
        text::parse(drawn).unwrap()
    );
    // Names for --format.
    for f in Format::ALL {
        assert_eq!(Format::from_name(f.name()), Some(f));
    }
    // Unknown text, and a format forced onto the wrong text, are errors.
    assert!(matches!(
        formats::detect("hello world"),
        Err(Error::Parse(_))
    ));
    for f in Format::ALL {
        for (t, _) in cases.iter().filter(|(_, g)| *g != f) {
            assert!(
                formats::read_puzzle(t, Some(f)).is_err(),
                "{t} as {}",
                f.name()
            );
        }
    }
}

/// The engine's own panels with invisible pieces (`polyshape` 0, no
/// colour): a 2x1 panel, start on node (0,2) bottom left, end on node
/// (4,0) top right, with an invisible poly on face (1,1), an invisible ylop
/// on face (3,1), or both. An invisible piece is no piece
/// (`docs/rules.md#the-puzzle-json`), so each panel has the bare panel's
/// solutions: the simple paths across a 3x2 node grid between opposite
/// corners, which are four (in node steps: right right up; up right right;
/// right up right; up right down right up).
#[test]
fn invisible_pieces_are_no_pieces() {
    let line = r#"{"type":"line","line":0}"#;
    let poly = r#"{"type":"poly","polyshape":0}"#;
    let ylop = r#"{"type":"ylop","polyshape":0}"#;
    let panel = |left: &str, right: &str| {
        format!(
            r#"{{"grid":[[{line},{line},{{"type":"line","line":0,"start":true}}],[{line},{left},{line}],[{line},{line},{line}],[{line},{right},{line}],[{{"type":"line","line":0,"end":"right"}},{line},{line}]],"pillar":false}}"#
        )
    };
    let panels = [
        ("poly", panel(poly, "null")),
        ("ylop", panel("null", ylop)),
        ("both", panel(poly, ylop)),
    ];
    let bare = wpjson::parse(&panel("null", "null")).unwrap();
    for (name, json) in panels {
        let p = wpjson::parse(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p, bare, "{name}: an invisible piece reads as an empty face");
        let c = witness::count(&p, &witness::CountOptions::default()).unwrap();
        assert_eq!(c.status, witness::Status::Complete, "{name}");
        assert_eq!(c.count.to_string(), "4", "{name}");
    }
    // A coloured piece of polyshape 0 stays a symbol (its colour counts for
    // stars); an uncoloured piece of any other shape is still an error.
    let coloured = panel(r#"{"type":"poly","polyshape":0,"color":"red"}"#, "null");
    assert_ne!(wpjson::parse(&coloured).unwrap(), bare);
    let shaped = panel(r#"{"type":"poly","polyshape":3}"#, "null");
    assert!(matches!(wpjson::parse(&shaped), Err(Error::Parse(_))));
}

/// A JSON Lines entry `{"id", "puzzle"}` reads as its puzzle, whether the
/// puzzle is an object or a JSON string of one; what is wrong inside names
/// the entry; a text of several entries is refused, saying so.
#[test]
fn json_lines_entries_read_as_their_puzzle() {
    let want = formats::read_puzzle(SMALL, None).unwrap();
    let as_object = format!(r#"{{"id": "A1", "puzzle": {SMALL}}}"#);
    let as_string = serde_json::json!({"id": "A1", "puzzle": SMALL}).to_string();
    for text in [&as_object, &as_string] {
        let got = formats::read_puzzle(text, None).expect(text);
        assert_eq!(
            wpjson::to_string(&got).unwrap(),
            wpjson::to_string(&want).unwrap()
        );
    }
    let cases = [
        (
            r#"{"id": "B2", "puzzle": 3}"#,
            "entry \"B2\", its \"puzzle\": must be",
        ),
        (
            r#"{"id": 7, "puzzle": "{"}"#,
            "entry 7, its \"puzzle\": not valid JSON",
        ),
        (
            r#"{"id": "C3", "puzzle": {}}"#,
            "entry \"C3\", its \"puzzle\": the puzzle has no \"grid\"",
        ),
        (
            r#"{"puzzle": {"puzzle": {}}}"#,
            "entry, its \"puzzle\": the puzzle has no \"grid\"",
        ),
    ];
    for (text, want) in cases {
        let e = formats::read_puzzle(text, None).expect_err(text);
        assert!(
            e.to_string().contains(want),
            "{text}: {e} should say {want:?}"
        );
    }
    let lines = format!("{as_string}\n\n{as_object}\n");
    let e = formats::read_puzzle(&lines, None).expect_err("two entries");
    assert!(
        e.to_string()
            .contains("more than one JSON value (a second one on line 3)"),
        "{e}"
    );
}

//! `witness count --unique` for designers: on a puzzle with two or more
//! solutions it shows two of them, drawn one after the other (both in
//! `--json` as `"solutions"`), and names the slot where they part; and
//! `witness solve` and `render --solve` on a puzzle with no solution name
//! and ring the symbols that cannot all be satisfied.

use std::path::PathBuf;
use std::process::Output;

use serde_json::{json, Value};

use crate::common::cli::{stdout, witness, TempDir, ONE_DOT as ONE};

/// A 1x1 panel, start (0,2) bottom-left, end (2,0) top-right, nothing
/// else: two solutions, up then right and right then up, which part at
/// once, at the start.
const TWO: &str = r#"{"grid":[
    [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
    [{"type":"line"},null,{"type":"line"}],
    [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#;

/// A 1x2 panel (one face wide, two high), start (0,4) bottom-left, end
/// (2,0) top-right, a dot on the left edge (0,3) and on the middle node
/// (0,2): the line goes up to (0,2), then either on up and right (U2R2)
/// or right and up (R2U2): they part at (0,2). The same panel with a
/// one-cell piece on each face (which the SAT engine does not handle, so
/// the search finds them) has the same two solutions: each face is a
/// region of its own, or both one region of two faces holding two cells.
fn tall(pieces: bool) -> String {
    let face = if pieces {
        r#"{"type":"poly","color":"yellow","polyshape":1}"#
    } else {
        "null"
    };
    format!(
        r#"{{"grid":[
    [{{"type":"line"}},{{"type":"line"}},{{"type":"line","dot":1}},{{"type":"line","dot":1}},{{"type":"line","start":true}}],
    [{{"type":"line"}},{face},{{"type":"line"}},{face},{{"type":"line"}}],
    [{{"type":"line","end":"right"}},{{"type":"line"}},{{"type":"line"}},{{"type":"line"}},{{"type":"line"}}]]}}"#
    )
}

/// The `--json` answer of `count --unique` on `path`.
fn unique_json(path: &std::path::Path, engine: &str) -> Value {
    let o = witness(&[
        "count",
        "--unique",
        "--json",
        "--engine",
        engine,
        path.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// The moves of a site path in `"solutions"`, as a set of strings.
fn moves(v: &Value) -> Vec<Value> {
    let mut all: Vec<Value> = v["solutions"].as_array().unwrap().clone();
    all.sort_by_key(|p| p.to_string());
    all
}

#[test]
fn two_solutions_and_where_they_part() {
    let tmp = TempDir::new("two_solutions_and_where_they_part");
    let two = tmp.file("two.json", TWO);
    for engine in ["search", "sat", "auto"] {
        let v = unique_json(&two, engine);
        assert_eq!(v["unique"], "not unique", "{v}");
        // Up then right, right then up (site moves: 2 right, 3 up).
        let want = vec![
            json!([{"x": 0, "y": 2}, 2, 2, 3, 3, 0]),
            json!([{"x": 0, "y": 2}, 3, 3, 2, 2, 0]),
        ];
        assert_eq!(moves(&v), want, "{engine}: {v}");
        assert_eq!(v["part"], json!({"x": 0, "y": 2}), "{engine}: {v}");
    }
    for (name, pieces) in [("tall", false), ("pieces", true)] {
        let p = tmp.file(&format!("{name}.json"), &tall(pieces));
        let v = unique_json(&p, "auto");
        let want = vec![
            json!([{"x": 0, "y": 4}, 3, 3, 2, 2, 3, 3, 0]),
            json!([{"x": 0, "y": 4}, 3, 3, 3, 3, 2, 2, 0]),
        ];
        assert_eq!(moves(&v), want, "{name}: {v}");
        assert_eq!(v["part"], json!({"x": 0, "y": 2}), "{name}: {v}");
    }
    // In the terminal: both drawn, each after its moves, and the place.
    let o = witness(&["count", "--unique", two.to_str().unwrap()]);
    let text = stdout(&o);
    assert!(text.starts_with("not unique\n"), "{text}");
    let first = text.find("solution 1: 0,2:").expect("the first solution");
    let second = text.find("solution 2: 0,2:").expect("the second solution");
    assert!(first < second, "{text}");
    // Each drawing has the panel's three node rows between its line and the next.
    assert!(text[first..second].lines().count() >= 4, "{text}");
    assert!(text.trim_end().ends_with("they part at (0, 2)"), "{text}");
}

#[test]
fn a_unique_puzzle_shows_its_one_solution_in_json() {
    let tmp = TempDir::new("a_unique_puzzle_shows_its_one_solution_in_json");
    let one = tmp.file("one.json", ONE);
    let o = witness(&["count", "--unique", "--json", one.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["unique"], "unique");
    // Its one solution is listed, with nothing to part from.
    assert_eq!(v["solutions"].as_array().map(Vec::len), Some(1), "{v}");
    assert!(v.get("part").is_none(), "{v}");
    let o = witness(&["count", "--unique", one.to_str().unwrap()]);
    assert_eq!(stdout(&o), "unique\n");
}

/// The 1x1 panel with dots on the left edge (0,1), the top edge (1,0) and
/// the right edge (2,1), start (0,2), end (2,0); the black square is alone
/// in the one face. The two lines are up then right (covering the left and
/// top edges) and right then up (covering the bottom and right edges), so
/// the right dot cannot be covered with either of the others: the minimal
/// sets are {top, right} and {left, right}, and `why` may name either.
const DOTS: &str = r#"{"grid":[
    [{"type":"line"},{"type":"line","dot":1},{"type":"line","start":true}],
    [{"type":"line","dot":1},{"type":"square","color":"black"},{"type":"line"}],
    [{"type":"line","end":"right"},{"type":"line","dot":1},{"type":"line"}]]}"#;

#[test]
fn why_there_is_no_solution() {
    let tmp = TempDir::new("why_there_is_no_solution");
    let dots = tmp.file("dots.json", DOTS);
    let o = witness(&["solve", dots.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let text = stdout(&o);
    assert!(
        ["(1, 0)", "(0, 1)"].iter().any(|q| text.ends_with(&format!(
            "these symbols cannot all be satisfied:\n  dot at {q}\n  dot at (2, 1)\n"
        )) || text.ends_with(&format!(
            "these symbols cannot all be satisfied:\n  dot at (2, 1)\n  dot at {q}\n"
        ))),
        "{text}"
    );
    // `hint` names them too.
    let o = witness(&["hint", dots.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("no solution\nthese symbols cannot all be satisfied:\n"),
        "{}",
        stdout(&o)
    );
    for (command, engine) in [
        ("solve", "search"),
        ("solve", "sat"),
        ("solve", "auto"),
        ("hint", "auto"),
    ] {
        let o = witness(&[
            command,
            "--json",
            "--engine",
            engine,
            dots.to_str().unwrap(),
        ]);
        let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
        let mut why: Vec<(u64, u64)> = v["why"]
            .as_array()
            .unwrap_or_else(|| panic!("{engine}: {v}"))
            .iter()
            .map(|q| (q["x"].as_u64().unwrap(), q["y"].as_u64().unwrap()))
            .collect();
        why.sort_unstable();
        assert!(
            why == [(0, 1), (2, 1)] || why == [(1, 0), (2, 1)],
            "{engine}: {v}"
        );
        assert_eq!(v["why_no_line"], false);
    }
    // render --solve rings the two dots: the SVG has the rings a failing
    // path's elements get, two of them.
    let plain = witness(&["render", dots.to_str().unwrap()]);
    let ringed = witness(&["render", "--solve", dots.to_str().unwrap()]);
    let count = |o: &Output| stdout(o).matches("<circle").count();
    assert_eq!(count(&ringed), count(&plain) + 2, "{}", stdout(&ringed));
    // Its exit code is solve's, with a line saying why.
    assert_eq!(ringed.status.code(), Some(1));
    let said = String::from_utf8_lossy(&ringed.stderr);
    assert!(
        said.contains("the 2 ringed symbols cannot all be satisfied"),
        "{said}"
    );
    // A drawn path gets check's exit code: 1 invalid (the dot at (2, 1) is
    // left out by up then right), 2 not a legal line, 0 the plain drawing.
    for (path, code, says) in [
        ("0,2:U2R2", 1, "1 failing symbol, ringed"),
        ("0,2:U2", 2, "not a legal line"),
    ] {
        let o = witness(&["render", dots.to_str().unwrap(), "--path", path]);
        assert_eq!(o.status.code(), Some(code), "{path}");
        assert!(stdout(&o).starts_with("<svg"), "{path}: drawn anyway");
        let said = String::from_utf8_lossy(&o.stderr);
        assert!(said.contains(says), "{path}: {said}");
    }
    assert_eq!(plain.status.code(), Some(0));
    // Gaps shutting the start in: said distinctly.
    let shut = DOTS.replace(
        r#"{"type":"line","dot":1},{"type":"line","start":true}"#,
        r#"{"type":"line","gap":1},{"type":"line","start":true}"#,
    );
    let shut = shut.replace(
        r#"[{"type":"line","dot":1},{"type":"square","color":"black"},{"type":"line"}]"#,
        r#"[{"type":"line","dot":1},{"type":"square","color":"black"},{"type":"line","gap":1}]"#,
    );
    let shut = tmp.file("shut.json", &shut);
    let o = witness(&["solve", shut.to_str().unwrap()]);
    assert!(
        stdout(&o).ends_with(
            "no line reaches an end at all: the starts, ends and gaps alone allow none\n"
        ),
        "{}",
        stdout(&o)
    );
    let o = witness(&["solve", "--json", shut.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(
        (v["why"].clone(), v["why_no_line"].clone()),
        (json!([]), json!(true))
    );
}

/// A dev-corpus panel (dots, squares and stars, no pieces) with more
/// than one solution that the search takes some milliseconds to tell:
/// with every engine, `count --unique` shows two valid, different
/// solutions. They are the count's own (`Count::solutions`, kept by the
/// run that counted to 2): the command makes no second search.
#[test]
fn two_valid_different_solutions_of_a_corpus_panel() {
    let dir = std::env::var("WITNESS_CORPUS").map_or_else(
        |_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"),
        PathBuf::from,
    );
    let Ok(text) = std::fs::read_to_string(dir.join("witnesspuzzles-dev.jsonl")) else {
        eprintln!("skipped: no corpus");
        return;
    };
    let line = text
        .lines()
        .find(|l| l.contains("\"2CE74CE7\""))
        .expect("the panel is in the corpus");
    let v: Value = serde_json::from_str(line).unwrap();
    let puzzle_text = v["puzzle"].as_str().unwrap().to_string();
    let tmp = TempDir::new("two_valid_different_solutions_of_a_corpus_panel");
    let path = tmp.file("corpus.json", &puzzle_text);
    let puzzle = witness::read_puzzle(&puzzle_text, None).unwrap();
    for engine in ["search", "sat", "auto"] {
        let v = unique_json(&path, engine);
        assert_eq!(v["unique"], "not unique", "{engine}: {v}");
        let paths: Vec<witness::Path> = v["solutions"]
            .as_array()
            .unwrap_or_else(|| panic!("{engine}: no solutions in {v}"))
            .iter()
            .map(|p| witness::Path::from_site(p).unwrap())
            .collect();
        assert_eq!(paths.len(), 2, "{engine}: {v}");
        assert_ne!(paths[0], paths[1], "{engine}");
        for p in &paths {
            let verdict = witness::check(&puzzle, p).unwrap();
            assert!(verdict.valid, "{engine}: {}", p.to_moves());
        }
        // The terminal output prints the same two, drawn.
        let o = witness(&[
            "count",
            "--unique",
            "--engine",
            engine,
            path.to_str().unwrap(),
        ]);
        let text = stdout(&o);
        assert!(text.starts_with("not unique\n"), "{text}");
        assert!(
            text.contains("solution 1: ") && text.contains("solution 2: "),
            "{text}"
        );
    }
}

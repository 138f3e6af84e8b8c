//! `--engine` on `solve`, `count` and `hint`: the SAT engine answers as the
//! search does, subtractive polyominoes too, refuses pieces under the
//! Windmill's rules in one line, and an unknown engine is bad input.

use crate::common::cli::{json, witness, TempDir, ONE_DOT as PUZZLE};

/// A 2x1 panel: start (0,2), end (4,0), a piece of one square on the
/// left face and a subtractive one on the right face (they cancel when
/// the line leaves the two faces in one region).
const PIECE: &str = r#"{"grid":[
    [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
    [{"type":"line"},{"type":"poly","color":"yellow","polyshape":1},{"type":"line"}],
    [{"type":"line"},{"type":"line"},{"type":"line"}],
    [{"type":"line"},{"type":"ylop","color":"blue","polyshape":1},{"type":"line"}],
    [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#;

#[test]
fn engines_agree_on_solve_count_and_hint() {
    let tmp = TempDir::new("engines_agree");
    let f = tmp.file("p.json", PUZZLE);
    let p = f.to_str().unwrap();
    for engine in ["search", "sat", "auto"] {
        let o = witness(&["solve", p, "--json", "--engine", engine]);
        assert_eq!(o.status.code(), Some(0), "{engine}");
        assert_eq!(json(&o)["moves"], "0,2:U2R2", "{engine}");
        let o = witness(&["count", p, "--json", "--unique", "--engine", engine]);
        assert_eq!(o.status.code(), Some(0), "{engine}");
        let j = json(&o);
        assert_eq!((&j["count"], &j["unique"]), (&1.into(), &"unique".into()));
        let o = witness(&["hint", p, "--steps", "1", "--engine", engine]);
        assert_eq!(o.status.code(), Some(0), "{engine}");
        assert!(String::from_utf8_lossy(&o.stdout).contains("0,2:U2"));
    }
}

#[test]
fn sat_takes_subtractive_pieces_refuses_windmill_pieces_and_unknown_engines_are_bad_input() {
    let tmp = TempDir::new("sat_refuses");
    let f = tmp.file("p.json", PIECE);
    let p = f.to_str().unwrap();
    // Both engines solve it, with the same count (the lines along the
    // bottom and along the top, which keep both faces in one region) and
    // the same solution.
    let mut answers = Vec::new();
    for engine in ["search", "sat"] {
        let o = witness(&["count", p, "--json", "--engine", engine]);
        assert_eq!(o.status.code(), Some(0), "{engine}");
        let count = json(&o)["count"].clone();
        let o = witness(&["solve", p, "--json", "--engine", engine]);
        assert_eq!(o.status.code(), Some(0), "{engine}");
        answers.push((count, json(&o)["moves"].clone()));
    }
    assert_eq!(answers[0], answers[1]);
    assert_eq!(answers[0].0, 2, "{answers:?}");
    // Under the Windmill's rules the SAT engine refuses pieces, in one line.
    let o = witness(&["solve", p, "--engine", "sat", "--rules", "windmill"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("unsupported") && err.contains("Windmill"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let o = witness(&["count", p, "--engine", "quantum"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown engine"));
}

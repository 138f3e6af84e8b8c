//! `witness generate`: JSON lines whose puzzles read back and have their
//! `solution` as the one solution, identical output with 1 and 2 jobs,
//! `--out`, one-line errors with exit code 2 for bad options, puzzles
//! made around a given line (`--around`, `"around"`) and for the
//! Windmill's rules (`--rules`, `"rules"`).

use std::process::Output;

use serde_json::Value;
use witness::{count, formats, CountOptions, Path, Status};

use crate::common::cli::witness;

/// The lines of a run's standard output, parsed.
fn lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn lines_hold_unique_puzzles_and_their_solutions() {
    for preset in ["mixed", "symmetry", "pillar", "subtractive"] {
        let o = witness(&[
            "generate", "--preset", preset, "--size", "3x3", "--count", "4", "--seed", "5",
        ]);
        assert_eq!(o.status.code(), Some(0), "{preset}: {o:?}");
        let ls = lines(&o);
        assert_eq!(ls.len(), 4);
        for (i, l) in ls.iter().enumerate() {
            assert_eq!(l["id"], format!("5-{i}"));
            let p = formats::wpjson::from_value(&l["puzzle"]).unwrap();
            let s = Path::from_site(&l["solution"]).unwrap();
            assert_eq!(s.to_moves(), l["moves"].as_str().unwrap());
            assert!(witness::check(&p, &s).unwrap().valid);
            let c = count(&p, &CountOptions::uniqueness()).unwrap();
            assert_eq!(
                (c.count.to_u64(), c.status),
                (Some(1), Status::Complete),
                "{preset} #{i}"
            );
            assert!(l["difficulty"].as_f64().unwrap() >= 0.0);
            assert!(l["symbols"].as_object().is_some_and(|m| !m.is_empty()));
        }
    }
}

#[test]
fn output_does_not_depend_on_jobs() {
    let args = |jobs: &'static str| {
        vec![
            "generate", "--preset", "mixed", "--size", "4x4", "--count", "12", "--seed", "3",
            "--jobs", jobs,
        ]
    };
    let one = witness(&args("1"));
    let two = witness(&args("2"));
    assert_eq!(one.status.code(), Some(0));
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
}

/// `--rules windmill`: each puzzle carries the Windmill's rules and has
/// one solution under them; `"rules"` in a request does the same; a rule
/// set of another name is refused.
#[test]
fn rules_windmill_makes_puzzles_for_the_windmill() {
    let o = witness(&[
        "generate",
        "--preset",
        "elimination",
        "--size",
        "3x3",
        "--count",
        "3",
        "--seed",
        "2",
        "--rules",
        "windmill",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    for (i, l) in lines(&o).iter().enumerate() {
        assert_eq!(l["puzzle"]["rules"], "windmill", "#{i}");
        let p = formats::wpjson::from_value(&l["puzzle"]).unwrap();
        assert_eq!(p.rules, witness::model::RuleSet::Windmill);
        let s = Path::from_site(&l["solution"]).unwrap();
        assert!(witness::check(&p, &s).unwrap().valid);
        let c = count(&p, &CountOptions::uniqueness()).unwrap();
        assert_eq!((c.count.to_u64(), c.status), (Some(1), Status::Complete));
    }
    let o = witness(&["generate", "--rules", "alcazar"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let s = crate::common::Server::start(&[]);
    let (status, v) = s.post(
        "/api/generate",
        &serde_json::json!({"preset": "dots", "width": 3, "height": 3, "rules": "windmill"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["puzzle"]["rules"], "windmill");
    for bad in [serde_json::json!("site"), serde_json::json!(true)] {
        let (status, v) = s.post("/api/generate", &serde_json::json!({"rules": bad}));
        assert_eq!(status, 400, "{bad}: {v}");
    }
}

#[test]
fn out_writes_a_file() {
    let path = std::env::temp_dir().join(format!("witness-generate-{}.jsonl", std::process::id()));
    let p = path.to_str().unwrap();
    let o = witness(&[
        "generate",
        "--symbols",
        "dots=2,triangles=2",
        "--size",
        "2x3",
        "--count",
        "3",
        "--out",
        p,
        "--minimal",
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 3);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bad_options_are_one_line_errors() {
    for args in [
        &["generate", "--symbols", "squares=x"][..],
        &["generate", "--symbols", "hexagons=3"],
        &["generate", "--preset", "nope"],
        &["generate", "--size", "4by4"],
        &["generate", "--size", "0x3"],
        &["generate", "--size", "300x3"],
        &["generate", "--symmetry", "z"],
        &["generate", "--difficulty", "9..2"],
        &["generate", "--pillar", "--symmetry", "x", "--size", "3x3"],
    ] {
        let o = witness(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(o.stdout.is_empty());
    }
}

#[test]
fn a_band_no_puzzle_reaches_is_given_up() {
    let dots = |band: &str| {
        let args = [
            "generate",
            "--preset",
            "dots",
            "--size",
            "2x2",
            "--difficulty",
            band,
        ];
        witness(&[&args[..], &["--attempts", "3"]].concat())
    };
    let o = dots("20..");
    assert_eq!(o.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&o.stderr).contains("given up"));
    // Past what the node budget can measure: bad options, at once.
    let o = dots("500..");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the measure is at most"));
}

#[test]
fn the_generate_endpoint() {
    let s = crate::common::Server::start(&[]);
    let body = serde_json::json!({"preset": "squares", "width": 3, "height": 2, "seed": 4});
    let (status, v) = s.post("/api/generate", &body);
    assert_eq!(status, 200, "{v}");
    let p = formats::wpjson::from_value(&v["puzzle"]).unwrap();
    assert_eq!((p.face_width(), p.face_height()), (3, 2));
    let sol = Path::from_site(&v["solution"]).unwrap();
    assert!(witness::check(&p, &sol).unwrap().valid);
    let c = count(&p, &CountOptions::uniqueness()).unwrap();
    assert_eq!((c.count.to_u64(), c.status), (Some(1), Status::Complete));
    // The page asks for it from its "New puzzle" button.
    assert!(s.get("/").2.contains("id=\"generate\""));
    assert!(s.get("/app.js").2.contains("api('generate'"));
    // The same request, the same puzzle.
    assert_eq!(s.post("/api/generate", &body).1["puzzle"], v["puzzle"]);
    let (status, v) = s.post(
        "/api/generate",
        &serde_json::json!({"symbols": "dots=2", "minimal": true}),
    );
    assert_eq!(status, 200, "{v}");
    for bad in [
        serde_json::json!({"preset": "nope"}),
        serde_json::json!({"symbols": "dots=x"}),
        serde_json::json!({"width": 11}),
        serde_json::json!({"width": 0}),
        serde_json::json!({"seed": "x"}),
        serde_json::json!({"preset": "dots", "symbols": "dots=1"}),
        // A field of another name, not the default puzzle.
        serde_json::json!({"size": "100x100"}),
        serde_json::json!([3, 3]),
    ] {
        let (status, v) = s.post("/api/generate", &bad);
        assert_eq!(status, 400, "{bad}: {v}");
    }
}

/// Starts and ends the panel has no room for, and worker counts past
/// the ceiling, are refused before any work (one-line errors, exit 2),
/// not given up on after every attempt.
#[test]
fn counts_the_panel_cannot_hold_are_refused() {
    for (args, why) in [
        (
            &["--starts", "25"][..],
            "25 starts and 1 end asked for; a 4 x 4 panel has 25 nodes",
        ),
        (
            &["--ends", "17"][..],
            "17 ends asked for; a 4 x 4 panel has 16 nodes on its border",
        ),
        (
            &["--starts", "13", "--symmetry", "xy"][..],
            "room for 12 starts",
        ),
        (&["--jobs", "0"][..], "--jobs"),
        (&["--jobs", "100000"][..], "--jobs"),
    ] {
        let mut all = vec!["generate"];
        all.extend_from_slice(args);
        let o = witness(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(o.stdout.is_empty());
    }
    // As many as fit: made.
    let o = witness(&["generate", "--starts", "3", "--ends", "12"]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
}

#[test]
fn around_makes_puzzles_whose_only_solution_is_the_line() {
    // The same line in the three notations `check` reads.
    let moves = "0,0:R2D2R2D4L2L2";
    let site = r#"[{"x":0,"y":0},2,2,4,4,2,2,4,4,4,4,1,1,1,1,0]"#;
    let coords = "[[0,0],[1,0],[2,0],[2,1],[2,2],[3,2],[4,2],[4,3],[4,4],[4,5],[4,6],[3,6],[2,6],[1,6],[0,6]]";
    let line = Path::parse(moves).unwrap();
    assert_eq!(Path::parse(site).unwrap(), line);
    assert_eq!(Path::parse(coords).unwrap(), line);
    for (text, preset) in [(moves, "mixed"), (site, "dots"), (coords, "triangles")] {
        let o = witness(&[
            "generate", "--size", "3x3", "--preset", preset, "--around", text, "--count", "3",
            "--seed", "9",
        ]);
        assert_eq!(o.status.code(), Some(0), "{preset}: {o:?}");
        let ls = lines(&o);
        assert_eq!(ls.len(), 3);
        for l in &ls {
            let p = formats::wpjson::from_value(&l["puzzle"]).unwrap();
            assert_eq!(Path::from_site(&l["solution"]).unwrap(), line);
            let c = count(&p, &CountOptions::uniqueness()).unwrap();
            assert_eq!((c.count.to_u64(), c.status), (Some(1), Status::Complete));
            assert!(witness::check(&p, &line).unwrap().valid);
        }
    }
    // A line no squares can pin down, an illegal line, a bad notation:
    // one-line errors with the reason.
    for (text, preset, why) in [
        ("0,0:R2", "squares", "only solution"),
        ("0,0:R2D2", "dots", "inside the panel"),
        ("not a line", "dots", "--around"),
    ] {
        let o = witness(&[
            "generate",
            "--size",
            "3x3",
            "--preset",
            preset,
            "--around",
            text,
            "--attempts",
            "20",
        ]);
        assert_eq!(o.status.code(), Some(2), "{text}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{text}: {err}");
        assert!(err.contains(why), "{text}: {err}");
        assert!(o.stdout.is_empty());
    }
    // Starts and ends are the line's own: other counts are refused.
    for flag in ["--starts", "--ends"] {
        let o = witness(&[
            "generate", "--size", "3x3", "--preset", "dots", "--around", "0,0:R2", flag, "2",
        ]);
        assert_eq!(o.status.code(), Some(2), "{flag}: {o:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{flag}: {err}");
        assert!(
            err.contains("--starts and --ends do not apply with --around"),
            "{err}"
        );
    }
}

#[test]
fn the_generate_endpoint_takes_around() {
    let s = crate::common::Server::start(&[]);
    let line = Path::parse("0,4:U2R2R2U2R2").unwrap();
    for around in [serde_json::json!("0,4:U2R2R2U2R2"), line.to_site()] {
        let body = serde_json::json!({"preset": "dots", "width": 3, "height": 2, "around": around});
        let (status, v) = s.post("/api/generate", &body);
        assert_eq!(status, 200, "{v}");
        let p = formats::wpjson::from_value(&v["puzzle"]).unwrap();
        assert_eq!(Path::from_site(&v["solution"]).unwrap(), line);
        let c = count(&p, &CountOptions::uniqueness()).unwrap();
        assert_eq!((c.count.to_u64(), c.status), (Some(1), Status::Complete));
    }
    for bad in [
        serde_json::json!({"preset": "squares", "width": 3, "height": 3, "around": "0,0:R2"}),
        serde_json::json!({"width": 3, "height": 3, "around": "0,0:R2D2"}),
        serde_json::json!({"around": 5}),
    ] {
        let (status, v) = s.post("/api/generate", &bad);
        assert_eq!(status, 400, "{bad}: {v}");
    }
}

/// Frame options no panel can honour are refused, never cut down: no
/// start, no end, no puzzle, more gaps than the panel has edges, more
/// removed edges than its border has; each a one-line error (exit 2)
/// that says what is possible.
#[test]
fn frame_options_beyond_the_panel_are_refused() {
    for (args, words) in [
        (&["--starts", "0"][..], &["--starts 0", "at least 1"][..]),
        (&["--ends", "0"], &["--ends 0", "at least 1"]),
        (&["--count", "0"], &["--count 0", "at least 1"]),
        (
            &["--gaps", "1000"],
            &["1000 gaps", "4 x 4 panel has 40 edges"],
        ),
        (
            &["--removed", "1000"],
            &["1000 removed edges", "16 edges on its border"],
        ),
        (
            &["--size", "1x1", "--symbols", "squares=2"],
            &["1 x 1 panel has 1 face"],
        ),
    ] {
        let mut all = vec!["generate", "--seed", "3"];
        all.extend_from_slice(args);
        let o = witness(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        for w in words {
            assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
        }
        assert!(!err.contains("1 faces"), "{err}");
    }
    // As many as the panel holds is no error.
    let o = witness(&["generate", "--seed", "3", "--size", "2x2", "--removed", "8"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

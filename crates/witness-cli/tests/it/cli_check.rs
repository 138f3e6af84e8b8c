//! `witness check`: exit codes (0 valid, 1 invalid, 2 bad input), the
//! one-line error, `--json` and `--batch`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

use crate::common::cli::{stderr, stdout, witness, TempDir, ONE_DOT as PUZZLE};

/// Bad input: exit 2, nothing on stdout, one line on stderr naming the
/// problem.
#[track_caller]
fn assert_bad_input(o: &Output, words: &[&str]) {
    assert_eq!(o.status.code(), Some(2), "stderr: {}", stderr(o));
    assert_eq!(stdout(o), "");
    let err = stderr(o);
    assert_eq!(err.lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("witness: "), "{err:?}");
    for w in words {
        assert!(err.contains(w), "{err:?} lacks {w:?}");
    }
}

#[test]
fn valid_path_prints_valid_and_exits_0() {
    let tmp = TempDir::new("valid_path_prints_valid_and_exits_0");
    let f = tmp.file("p.json", PUZZLE);
    let o = witness(&["check", f.to_str().unwrap(), "--path", "0,2:U2R2"]);
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert_eq!(stdout(&o), "valid\n");
    // The site's form of the same path.
    let o = witness(&[
        "check",
        f.to_str().unwrap(),
        "--path",
        r#"[{"x":0,"y":2},3,3,2,2,0]"#,
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "valid\n");
}

#[test]
fn invalid_path_lists_failures_and_exits_1() {
    let tmp = TempDir::new("invalid_path_lists_failures_and_exits_1");
    let f = tmp.file("p.json", PUZZLE);
    let o = witness(&["check", f.to_str().unwrap(), "--path", "0,2:R2U2"]);
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("invalid"), "{out}");
    assert!(out.contains("dot") && out.contains("(1, 0)"), "{out}");
}

#[test]
fn puzzle_from_standard_input() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_witness"))
        .args(["check", "-", "--path", "0,2:U2R2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(PUZZLE.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "stderr: {}", stderr(&o));
    assert_eq!(stdout(&o), "valid\n");
}

#[test]
fn bad_puzzle_exits_2_with_one_line() {
    let tmp = TempDir::new("bad_puzzle_exits_2_with_one_line");
    let f = tmp.file("trunc.json", &PUZZLE[..40]);
    let o = witness(&["check", f.to_str().unwrap(), "--path", "0,2:U2R2"]);
    assert_bad_input(&o, &["trunc.json", "not valid JSON", "line"]);

    let ragged = r#"{"grid":[[null,null,null],[null],[null,null,null]]}"#;
    let f = tmp.file("ragged.json", ragged);
    let o = witness(&["check", f.to_str().unwrap(), "--path", "0,2:U2R2"]);
    assert_bad_input(&o, &["ragged.json", "grid column 1"]);

    let f = tmp.file("text.txt", "hello");
    let o = witness(&["check", f.to_str().unwrap(), "--path", "0,2:U2R2"]);
    assert_bad_input(&o, &["text.txt", "format"]);

    let missing = std::env::temp_dir().join("witness-cli-no-such-file.json");
    let o = witness(&["check", missing.to_str().unwrap(), "--path", "0,2:U2R2"]);
    assert_bad_input(&o, &["cannot read", "witness-cli-no-such-file.json"]);
}

#[test]
fn bad_path_exits_2_with_one_line() {
    let tmp = TempDir::new("bad_path_exits_2_with_one_line");
    let f = tmp.file("p.json", PUZZLE);
    let p = f.to_str().unwrap();
    // Off the grid.
    assert_bad_input(
        &witness(&["check", p, "--path", "0,2:L"]),
        &["move 1", "(0, 2)", "leaves the grid"],
    );
    // Not ending at an endpoint.
    assert_bad_input(
        &witness(&["check", p, "--path", "0,2:R2"]),
        &["stops at (2, 2)", "not an endpoint"],
    );
    // Unreadable.
    assert_bad_input(&witness(&["check", p, "--path", "0,2:UXR"]), &["'X'"]);
    assert_bad_input(
        &witness(&["check", p, "--path", "[{\"x\":0,\"y\":2},3,3"]),
        &["not valid JSON"],
    );
}

#[test]
fn an_illegal_path_with_json_is_a_json_error() {
    let tmp = TempDir::new("an_illegal_path_with_json_is_a_json_error");
    let f = tmp.file("p.json", PUZZLE);
    let p = f.to_str().unwrap();
    for (path, words) in [
        ("0,2:L", "leaves the grid"),
        ("0,2:R2", "not an endpoint"),
        ("0,2:UXR", "'X'"),
    ] {
        let o = witness(&["check", p, "--path", path, "--json"]);
        assert_eq!(o.status.code(), Some(2), "{path}");
        let v: Value = serde_json::from_str(stdout(&o).trim())
            .unwrap_or_else(|e| panic!("{path}: {e}: {}", stdout(&o)));
        assert_eq!(v["valid"], Value::Null, "{path}: {v}");
        assert_eq!(v["status"], "error", "{path}: {v}");
        let error = v["error"].as_str().unwrap();
        assert!(error.contains(words), "{path}: {error}");
    }
    // A puzzle that does not read, likewise.
    let bad = tmp.file("bad.json", &PUZZLE[..40]);
    let o = witness(&[
        "check",
        bad.to_str().unwrap(),
        "--path",
        "0,2:U2R2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "error", "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("not valid JSON"),
        "{v}"
    );
}

#[test]
fn json_output_shape() {
    let tmp = TempDir::new("json_output_shape");
    let f = tmp.file("p.json", PUZZLE);
    let p = f.to_str().unwrap();
    let o = witness(&["check", p, "--path", "0,2:R2U2", "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(keys.len(), 4, "{v}");
    assert_eq!(v["rules"], "witnesspuzzles", "the rules that judged it");
    for k in ["valid", "invalid", "negations"] {
        assert!(keys.contains(&k), "{v} lacks {k}");
    }
    assert_eq!(v["valid"], Value::Bool(false));
    assert_eq!(v["invalid"], serde_json::json!([[1, 0]]));
    assert_eq!(v["negations"], serde_json::json!([]));

    let o = witness(&["check", p, "--path", "0,2:U2R2", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["valid"], Value::Bool(true));
    assert_eq!(v["invalid"], serde_json::json!([]));
}

#[test]
fn batch_writes_one_line_per_input_line() {
    let tmp = TempDir::new("batch_writes_one_line_per_input_line");
    let puzzle: Value = serde_json::from_str(PUZZLE).unwrap();
    let lines = [
        serde_json::json!({"id": "good", "puzzle": puzzle, "path": [{"x":0,"y":2},3,3,2,2,0]})
            .to_string(),
        serde_json::json!({"id": "bad-verdict", "puzzle": PUZZLE, "path": "0,2:R2U2"}).to_string(),
        serde_json::json!({"id": "off-grid", "puzzle": puzzle, "path": "0,2:L"}).to_string(),
        serde_json::json!({"id": "ragged", "puzzle": {"grid": [[null, null, null], [null]]},
            "path": "0,2:U2"})
        .to_string(),
        "this line is not JSON".to_string(),
    ];
    let f = tmp.file("in.jsonl", &(lines.join("\n") + "\n"));
    let o = witness(&["check", "--batch", f.to_str().unwrap()]);
    // Some lines do not read: bad input, though every line is answered.
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let out: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(out.len(), lines.len(), "{}", stdout(&o));

    assert_eq!(out[0]["id"], "good");
    assert_eq!(out[0]["valid"], true);
    assert_eq!(out[0]["invalid"], serde_json::json!([]));

    assert_eq!(out[1]["id"], "bad-verdict");
    assert_eq!(out[1]["valid"], false);
    assert_eq!(out[1]["invalid"], serde_json::json!([[1, 0]]));

    // Bad lines: {"id", "error"}, the error one line saying what and where.
    for (k, id, words) in [
        (
            2,
            Value::from("off-grid"),
            &["(0, 2)", "leaves the grid"][..],
        ),
        (3, Value::from("ragged"), &["grid column 1"][..]),
        (4, Value::Null, &["not valid JSON"][..]),
    ] {
        let r = &out[k];
        assert_eq!(r["id"], id, "{r}");
        let e = r["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error in {r}"));
        assert!(!e.contains('\n'));
        for w in words {
            assert!(e.contains(w), "{e:?} lacks {w:?}");
        }
        assert!(r.get("valid").is_none(), "{r}");
    }
}

/// Ctrl-C stops `witness bench`: it reports the puzzles that finished (none
/// here: the one it works on is far from done) and exits with 130.
#[cfg(unix)]
#[test]
fn bench_stops_on_ctrl_c() {
    // The corpus as the library's corpus tests find it.
    let dir = std::env::var("WITNESS_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
        });
    let corpus = dir.join("witnesspuzzles-dev.jsonl");
    let text = match std::fs::read_to_string(&corpus) {
        Ok(t) => t,
        Err(e) if std::env::var("WITNESS_REQUIRE_CORPUS").is_ok_and(|v| v == "1") => {
            panic!(
                "corpus file {} is required but unreadable: {e}",
                corpus.display()
            )
        }
        Err(e) => {
            eprintln!("SKIPPED: corpus file {} not found ({e})", corpus.display());
            return;
        }
    };
    // A panel whose count up to 1,000 solutions does not finish in the
    // 1.5 s before Ctrl-C, nor in minutes: above 64 a count runs the
    // engine's order alone (no other lanes, no local search), which on
    // this panel finds solutions very rarely.
    let hard = text
        .lines()
        .find(|l| l.contains("\"QYJXSUN7\""))
        .expect("puzzle QYJXSUN7 in the corpus");
    let dir = TempDir::new("ctrl-c");
    let file = dir.file("hard.jsonl", &format!("{hard}\n{hard}\n{hard}\n"));
    let child = Command::new(env!("CARGO_BIN_EXE_witness"))
        .args(["bench", file.to_str().unwrap(), "--jobs", "1"])
        .args(["--timeout-ms", "120000", "--count-limit", "1000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    // SAFETY: sends SIGINT to the child we spawned, which is still running
    // (it cannot finish a puzzle in that time).
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGINT);
    }
    let start = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    assert!(start.elapsed().as_secs() < 30, "stopping took too long");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(
        stdout.contains("stopped by Ctrl-C: 0 of 3 puzzles finished"),
        "{stdout}"
    );
    assert!(stdout.contains("puzzles: 0 "), "{stdout}");
}

/// `--rules` picks the rules that judge, and the answer names them. A 2x1
/// panel walked along its bottom (start (0,2), end (4,2)) with an
/// elimination mark on each face: one region holding two marks. The
/// site's marks cancel in pairs (valid); the Windmill's must each erase
/// something (invalid: both marks fail), `docs/rules.md#rule-profiles`.
#[test]
fn rules_choose_the_verdict_and_are_named() {
    let tmp = TempDir::new("rules_choose_the_verdict");
    let f = tmp.file(
        "marks.json",
        r#"{"grid":[
        [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
        [{"type":"line"},{"type":"nega","color":"white"},{"type":"line"}],
        [{"type":"line"},{"type":"line"},{"type":"line"}],
        [{"type":"line"},{"type":"nega","color":"white"},{"type":"line"}],
        [{"type":"line"},{"type":"line"},{"type":"line","end":"right"}]]}"#,
    );
    let p = f.to_str().unwrap();
    let o = witness(&["check", p, "--path", "0,2:R4"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&o.stderr).contains("rules: witnesspuzzles"));
    let o = witness(&[
        "check", p, "--path", "0,2:R4", "--rules", "windmill", "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["rules"], "windmill");
    assert_eq!(v["invalid"], serde_json::json!([[1, 1], [3, 1]]));
    let o = witness(&["count", p, "--rules", "windmill", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (v["count"].to_string(), &v["rules"]),
        ("0".into(), &Value::from("windmill"))
    );
    let o = witness(&["check", p, "--path", "0,2:R4", "--rules", "site"]);
    assert_eq!(o.status.code(), Some(2), "unknown rules are bad input");
    // A batch is judged under the rules given, as a single check is.
    let puzzle: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
    let line = serde_json::json!({"id": "m", "puzzle": puzzle, "path": "0,2:R4"});
    let batch = tmp.arg("marks.jsonl", &format!("{line}\n"));
    for (rules, code, valid) in [("windmill", 1, false), ("witnesspuzzles", 0, true)] {
        let o = witness(&["check", "--batch", &batch, "--rules", rules]);
        assert_eq!(o.status.code(), Some(code), "{rules}: {}", stdout(&o));
        let v: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v["valid"], valid, "{rules}: {v}");
    }
}

/// The path of a batch line in any of the three notations `--path` reads:
/// the site's form, a move string, or coordinates written as a JSON array.
#[test]
fn batch_reads_coordinates_written_as_a_json_array() {
    let tmp = TempDir::new("batch_reads_coordinates_written_as_a_json_array");
    let line = serde_json::json!({"id": "xy", "puzzle": PUZZLE,
        "path": [[0, 2], [0, 1], [0, 0], [1, 0], [2, 0]]});
    let f = tmp.arg("in.jsonl", &format!("{line}\n"));
    let o = witness(&["check", "--batch", &f]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let r: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(r["valid"], true, "{r}");
}

/// Every error of a batch names its line (counted from 1, blank lines
/// included), whether or not the line has an id.
#[test]
fn batch_errors_carry_their_line_number() {
    let tmp = TempDir::new("batch_errors_carry_their_line_number");
    let lines = [
        serde_json::json!({"id": "good", "puzzle": PUZZLE, "path": "0,2:U2R2"}).to_string(),
        String::new(),
        "not JSON".to_string(),
        serde_json::json!({"id": "no-puzzle", "path": "0,2:U2R2"}).to_string(),
        serde_json::json!({"puzzle": PUZZLE, "path": "0,2:L"}).to_string(),
        serde_json::json!({"id": "no-path", "puzzle": PUZZLE}).to_string(),
    ];
    let f = tmp.arg("in.jsonl", &(lines.join("\n") + "\n"));
    let o = witness(&["check", "--batch", &f]);
    let out: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(out.len(), 5, "{}", stdout(&o));
    assert!(out[0].get("line").is_none(), "{}", out[0]);
    for (r, line) in out[1..].iter().zip([3, 4, 5, 6]) {
        assert!(r["error"].is_string(), "{r}");
        assert_eq!(r["line"], line, "{r}");
    }
    let missing = out[4]["error"].as_str().unwrap();
    assert!(missing.starts_with("a line needs \"path\""), "{missing}");
}

/// `--format` with `--batch` is the format of every line's puzzle.
#[test]
fn batch_reads_each_puzzle_in_the_format_given() {
    let tmp = TempDir::new("batch_reads_each_puzzle_in_the_format_given");
    let line = serde_json::json!({"id": "a", "puzzle": PUZZLE, "path": "0,2:U2R2"});
    let f = tmp.arg("in.jsonl", &format!("{line}\n"));
    let o = witness(&["check", "--batch", &f, "--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let o = witness(&["check", "--batch", &f, "--format", "windmill"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let r: Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let e = r["error"].as_str().unwrap_or_else(|| panic!("{r}"));
    assert!(e.to_lowercase().contains("windmill"), "{e}");
}

/// `witness bench` on a file of puzzles; its output.
fn bench(tmp: &TempDir, lines: &[String], args: &[&str]) -> Output {
    let f = tmp.arg("bench.jsonl", &(lines.join("\n") + "\n"));
    let mut all = vec!["bench", f.as_str(), "--jobs", "1"];
    all.extend_from_slice(args);
    witness(&all)
}

/// `bench --out` opens its file before the work: a file that cannot be
/// written is a one-line error before any figure.
#[test]
fn bench_opens_its_output_file_first() {
    let tmp = TempDir::new("bench_opens_its_output_file_first");
    let line = serde_json::json!({"id": "a", "puzzle": PUZZLE}).to_string();
    let out = tmp.path("no-such-folder/out.jsonl");
    let o = bench(&tmp, &[line], &["--out", &out]);
    assert_bad_input(&o, &["cannot write", "no-such-folder"]);
}

/// `bench --format` reads every line's puzzle in that format.
#[test]
fn bench_reads_the_format_given() {
    let tmp = TempDir::new("bench_reads_the_format_given");
    let line = serde_json::json!({"id": "a", "puzzle": PUZZLE}).to_string();
    let o = bench(&tmp, &[line], &["--format", "json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("solved: 1 "), "{}", stdout(&o));
}

/// The slowest puzzles are finished ones: a line that could not be read is
/// no part of the list, and with no finished puzzle there is no list; with
/// no line read as a puzzle, bench exits 2 (bad input).
#[test]
fn bench_ranks_finished_puzzles_only() {
    let tmp = TempDir::new("bench_ranks_finished_puzzles_only");
    let good = serde_json::json!({"id": "good", "puzzle": PUZZLE}).to_string();
    let bad = serde_json::json!({"id": "broken", "puzzle": {}}).to_string();
    let o = bench(&tmp, &[good, bad.clone()], &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let slowest = out
        .lines()
        .find(|l| l.starts_with("slowest:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        slowest.contains("good") && !slowest.contains("broken"),
        "{out}"
    );
    assert!(out.contains("error: broken:"), "{out}");
    assert!(out.contains("with 1 thread\n"), "{out}");

    let o = bench(&tmp, &[bad, "not a puzzle".to_string()], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(!out.contains("slowest"), "{out}");
    assert!(out.contains("error: 2"), "{out}");
}

/// `bench --versus` compares the two engines' medians over the puzzles
/// both finished: one puzzle read and one broken line make one puzzle
/// both finished.
#[test]
fn bench_versus_compares_the_puzzles_both_finished() {
    let tmp = TempDir::new("bench_versus_compares_the_puzzles_both_finished");
    let good = serde_json::json!({"id": "good", "puzzle": PUZZLE}).to_string();
    let bad = serde_json::json!({"id": "broken", "puzzle": {}}).to_string();
    let o = bench(&tmp, &[good, bad], &["--versus", "sat"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("p50 auto / sat over the 1 puzzle both finished: "),
        "{out}"
    );
}

//! Every command's limits and exit codes: 0 done, 1 the answer is no,
//! 2 bad input, 3 stopped by a time or count limit; `--timeout-ms 0` is no
//! limit everywhere; huge panels, paths and inputs end in an answer or a
//! clear error, never in an abort.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::cli::TempDir;

/// An empty 32x32 panel as a Windmill code: start bottom left, end top
/// right. Its paths run over 3,000 slots deep.
const EMPTY_32: &str = "CEESAihAEgIIBBIDKP8fEgIIAxICKEA=_0";

/// A 1x1 panel, start bottom left, end top right, a dot on the top edge:
/// one solution, `0,2:U2R2`.
const ONE_DOT: &str = "witness 1x1\n+ o E>\n| . |\nS - +\n";

/// A 1x1 panel whose dot on the top edge and dot on the bottom edge no
/// path from the bottom-left start to the top-right end covers both of
/// (it would have to pass the start's corner twice): no solution.
const NO_SOLUTION: &str = "witness 1x1\n+ o E>\n| . |\nS o +\n";

/// A 2x1 panel, start bottom left, end top right, nothing else: the
/// paths along the edges are many, so the solution is not unique.
const MANY: &str = "witness 2x1\n+ - + - E>\n| . | . |\nS - + - +\n";

/// Runs `witness` with `args`; its output and how long it took.
fn witness(args: &[&str]) -> (Output, Duration) {
    let t0 = Instant::now();
    let o = common::cli::witness(args);
    (o, t0.elapsed())
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[track_caller]
fn code(o: &Output, want: i32) {
    assert_eq!(
        o.status.code(),
        Some(want),
        "stdout: {}\nstderr: {}",
        text(&o.stdout),
        text(&o.stderr)
    );
}

#[test]
fn deep_panels_are_counted_and_solved_without_a_crash() {
    let dir = TempDir::new("limits-deep");
    let p = dir.arg("e32.txt", EMPTY_32);
    let (o, took) = witness(&["count", &p, "--timeout-ms", "500"]);
    code(&o, 3);
    assert!(text(&o.stdout).contains("at least"), "{}", text(&o.stdout));
    assert!(took < Duration::from_secs(20), "{took:?}");
    let (o, _) = witness(&["solve", &p, "--timeout-ms", "20000", "--json"]);
    code(&o, 0);
    let (o, _) = witness(&["hint", &p, "--timeout-ms", "20000"]);
    code(&o, 0);
    let (o, _) = witness(&["bench", &p, "--timeout-ms", "20000", "--jobs", "1"]);
    code(&o, 0);
    assert!(text(&o.stdout).contains("solved"), "{}", text(&o.stdout));
}

#[test]
fn a_check_stops_at_its_time_limit() {
    let dir = TempDir::new("limits-check");
    let p = dir.arg("tiles.txt", &common::tiling_panel());
    let (o, took) = witness(&["check", &p, "--path", "0,60:R60U60", "--timeout-ms", "300"]);
    code(&o, 3);
    assert!(text(&o.stdout).contains("timeout"), "{}", text(&o.stdout));
    assert!(took < Duration::from_secs(20), "{took:?}");
    let (o, _) = witness(&[
        "check",
        &p,
        "--path",
        "0,60:R60U60",
        "--timeout-ms",
        "300",
        "--json",
    ]);
    code(&o, 3);
    assert!(text(&o.stdout).contains(r#""status":"timeout""#));
}

#[test]
fn over_long_paths_are_refused_before_they_are_built() {
    let dir = TempDir::new("limits-path");
    let p = dir.arg("one.txt", ONE_DOT);
    // Two hundred runs of 100,000 moves: twenty million moves.
    let path = format!("0,2:{}", "R100000".repeat(200));
    let (o, took) = witness(&["check", &p, "--path", &path]);
    code(&o, 2);
    assert!(text(&o.stderr).contains("more than"), "{}", text(&o.stderr));
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn endless_and_oversized_input_is_refused() {
    let (o, took) = witness(&["solve", "/dev/zero"]);
    code(&o, 2);
    assert!(
        text(&o.stderr).contains("larger than"),
        "{}",
        text(&o.stderr)
    );
    assert!(took < Duration::from_secs(10), "{took:?}");
    // A batch line that never ends.
    let (o, _) = witness(&["check", "--batch", "/dev/zero"]);
    code(&o, 2);
    assert!(
        text(&o.stderr).contains("longer than"),
        "{}",
        text(&o.stderr)
    );
    // Standard input is capped alike.
    let mut child = Command::new(env!("CARGO_BIN_EXE_witness"))
        .args(["solve", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 20];
        for _ in 0..16 {
            if stdin.write_all(&chunk).is_err() {
                break;
            }
        }
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    code(&o, 2);
    assert!(
        text(&o.stderr).contains("larger than"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn the_exit_codes_say_what_the_answer_was() {
    let dir = TempDir::new("limits-codes");
    let one = dir.arg("one.txt", ONE_DOT);
    let none = dir.arg("none.txt", NO_SOLUTION);
    let many = dir.arg("many.txt", MANY);
    // check: valid 0, invalid 1, bad path 2.
    code(&witness(&["check", &one, "--path", "0,2:U2R2"]).0, 0);
    code(&witness(&["check", &one, "--path", "0,2:R2U2"]).0, 1);
    code(&witness(&["check", &one, "--path", "0,2:U9"]).0, 2);
    // solve and hint: solved 0, proved without a solution 1.
    code(&witness(&["solve", &one]).0, 0);
    code(&witness(&["solve", &none]).0, 1);
    code(&witness(&["hint", &one]).0, 0);
    code(&witness(&["hint", &none]).0, 1);
    // count: counted 0; --unique: unique 0, not unique or none 1; a count
    // that reaches its --limit 3.
    code(&witness(&["count", &many]).0, 0);
    code(&witness(&["count", &one, "--unique"]).0, 0);
    code(&witness(&["count", &many, "--unique"]).0, 1);
    code(&witness(&["count", &none, "--unique"]).0, 1);
    let (o, _) = witness(&["count", &many, "--limit", "2"]);
    code(&o, 3);
    assert!(text(&o.stdout).contains("limit reached"));
    // A limit of 0 solutions is a usage error.
    let (o, _) = witness(&["count", &many, "--limit", "0"]);
    code(&o, 2);
    // Every command's help lists the exit codes.
    for cmd in [
        "check", "solve", "count", "hint", "render", "convert", "bench",
    ] {
        let (o, _) = witness(&[cmd, "--help"]);
        code(&o, 0);
        assert!(text(&o.stdout).contains("Exit codes"), "{cmd}");
    }
}

#[test]
fn a_time_limit_of_zero_is_no_limit_everywhere() {
    let dir = TempDir::new("limits-zero");
    let one = dir.arg("one.txt", ONE_DOT);
    for args in [
        vec!["solve", &one, "--timeout-ms", "0"],
        vec!["hint", &one, "--timeout-ms", "0"],
        vec!["count", &one, "--timeout-ms", "0"],
        vec!["check", &one, "--path", "0,2:U2R2", "--timeout-ms", "0"],
    ] {
        let (o, _) = witness(&args);
        code(&o, 0);
    }
    // bench reads one puzzle a line: the Windmill code.
    let line = dir.arg("e32.txt", EMPTY_32);
    let (o, _) = witness(&["bench", &line, "--timeout-ms", "0", "--jobs", "1"]);
    code(&o, 0);
    assert!(text(&o.stdout).contains("solved: 1"), "{}", text(&o.stdout));
}

#[test]
fn a_check_of_the_largest_panel_of_pieces_runs_on_a_small_stack() {
    // The fit of 4,096 monominoes recurses thousands of levels deep; the
    // command runs here with a 1 MiB main-thread stack.
    let dir = TempDir::new("limits-mono");
    let p = dir.arg("mono.txt", &common::monomino_panel());
    let bin = env!("CARGO_BIN_EXE_witness");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -s 1024 && exec '{bin}' check '{p}' --path 0,128:R128U128"
        ))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    code(&o, 0);
    assert_eq!(text(&o.stdout).trim(), "valid");
    // bench checks every path it finds again, on its own threads.
    let line = serde_json::json!({"id": "mono", "puzzle": common::monomino_panel()}).to_string();
    let file = dir.arg("mono.jsonl", &format!("{line}\n"));
    let (o, _) = witness(&["bench", &file, "--jobs", "2", "--timeout-ms", "20000"]);
    code(&o, 0);
    assert!(text(&o.stdout).contains("solved: 1"), "{}", text(&o.stdout));
}

#[test]
fn render_checks_its_path_and_solves_within_the_time_limit() {
    let dir = TempDir::new("limits-render");
    let p = dir.arg("tiles.txt", &common::tiling_panel());
    let out = dir.path("t.svg");
    let (o, took) = witness(&[
        "render",
        &p,
        "--path",
        "0,60:R60U60",
        "--timeout-ms",
        "300",
        "-o",
        &out,
    ]);
    code(&o, 3);
    assert!(text(&o.stderr).contains("unchecked"), "{}", text(&o.stderr));
    assert!(took < Duration::from_secs(20), "{took:?}");
    // A solve stopped by its limit is a 3 too; the tiling panel's first
    // solution takes far longer than 200 ms.
    let (o, _) = witness(&["render", &p, "--solve", "--timeout-ms", "200", "-o", &out]);
    code(&o, 3);
}

#[test]
fn counts_past_64_bits_are_exact_and_json_strings_past_53() {
    let dir = TempDir::new("limits-big-count");
    let count = |n: usize, json: bool| {
        let p = dir.arg(&format!("e{n}.txt"), &common::text_panel(n, |_, _| ".", ""));
        let mut args = vec!["count", p.as_str()];
        if json {
            args.push("--json");
        }
        let (o, _) = witness(&args);
        code(&o, 0);
        text(&o.stdout)
    };
    // Empty panels corner to corner (OEIS A007764): 5x5 fits in a JSON
    // number; 9x9 is past 2^64, 11x11 past 2^96.
    let v: serde_json::Value = serde_json::from_str(&count(5, true)).unwrap();
    assert_eq!(v["count"], 1_262_816, "{v}");
    assert_eq!(v["exhaustive"], true, "{v}");
    for (n, want) in [
        (9, "41044208702632496804"),
        (11, "182413291514248049241470885236"),
    ] {
        let v: serde_json::Value = serde_json::from_str(&count(n, true)).unwrap();
        assert_eq!(v["count"], want, "{v}");
        assert_eq!(v["exhaustive"], true, "{v}");
        assert_eq!(count(n, false).trim(), want);
    }
}

/// A standard output that cannot be written (`/dev/full`, a full disk) is
/// a one-line error and exit 2 for every command that writes one, never a
/// panic (which would exit 101).
#[test]
fn a_full_standard_output_is_a_clean_error() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        eprintln!("SKIPPED: no /dev/full here");
        return;
    }
    let dir = TempDir::new("limits-full");
    let p = dir.arg("one.txt", ONE_DOT);
    let line = format!(
        r#"{{"id":"a","puzzle":{}}}"#,
        serde_json::to_string(ONE_DOT).unwrap()
    );
    let batch = dir.arg(
        "batch.jsonl",
        &format!(
            r#"{{"id":"a","puzzle":{},"path":"0,2:U2R2"}}"#,
            serde_json::to_string(ONE_DOT).unwrap()
        ),
    );
    let list = dir.arg("list.jsonl", &line);
    let runs: [&[&str]; 13] = [
        &["--help"],
        &["--version"],
        &["solve", "--help"],
        &["solve", &p],
        &["solve", &p, "--json"],
        &["count", &p],
        &["count", &p, "--unique"],
        &["hint", &p],
        &["check", &p, "--path", "0,2:U2R2"],
        &["check", "--batch", &batch],
        &["convert", &p, "--to", "json"],
        &["render", &p],
        &["bench", &list],
    ];
    for args in runs {
        let o = Command::new(env!("CARGO_BIN_EXE_witness"))
            .args(args)
            .stdout(std::fs::File::create(full).expect("/dev/full opens"))
            .output()
            .expect("run witness");
        code(&o, 2);
        let err = text(&o.stderr);
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
    // `bench --out` has written its rows before the summary failed.
    let rows = dir.path("rows.jsonl");
    let o = Command::new(env!("CARGO_BIN_EXE_witness"))
        .args(["bench", &list, "--out", &rows])
        .stdout(std::fs::File::create(full).expect("/dev/full opens"))
        .output()
        .expect("run witness");
    code(&o, 2);
    let written = std::fs::read_to_string(&rows).expect("the rows file");
    assert_eq!(written.lines().count(), 1, "{written}");
}

/// A hint of the fraction 0 shows no segment, as `--steps 0` does.
#[test]
fn a_hint_of_the_fraction_zero_shows_nothing() {
    let tmp = TempDir::new("a_hint_of_the_fraction_zero_shows_nothing");
    let f = tmp.file("one-dot.txt", ONE_DOT);
    let f = f.to_str().unwrap();
    let (o, _) = witness(&["hint", f, "--fraction", "0", "--json"]);
    code(&o, 0);
    let h: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(h["moves"], "0,2:", "{h}");
    let (steps, _) = witness(&["hint", f, "--steps", "0"]);
    let (fraction, _) = witness(&["hint", f, "--fraction", "0"]);
    code(&fraction, 0);
    assert_eq!(text(&fraction.stdout), text(&steps.stdout));
    // Any fraction above 0 shows at least one segment.
    let (o, _) = witness(&["hint", f, "--fraction", "0.01"]);
    assert!(text(&o.stdout).ends_with("0,2:U2\n"), "{}", text(&o.stdout));
}

/// Worker counts and repeats past their ceilings are bad options, refused
/// before any work (a million workers would stall the machine; a huge
/// repeat count would ask for more memory than there is).
#[test]
fn workers_and_rounds_have_ceilings() {
    let dir = TempDir::new("ceilings");
    let line = format!("{}\n", serde_json::json!({"id": "a", "puzzle": ONE_DOT}));
    let list = dir.arg("list.jsonl", &line);
    // The solution `0,2:U2R2` in the site's form.
    let verdicts = dir.arg(
        "v.jsonl",
        "{\"id\":\"a\",\"path\":[{\"x\":0,\"y\":2},3,3,2,2,0]}\n",
    );
    for args in [
        &["bench", list.as_str(), "--jobs", "0"][..],
        &["bench", list.as_str(), "--jobs", "1025"][..],
        &["generate", "--jobs", "100000"][..],
        &[
            "bench-check",
            verdicts.as_str(),
            "--puzzles",
            list.as_str(),
            "--rounds",
            "0",
        ][..],
        &[
            "bench-check",
            verdicts.as_str(),
            "--puzzles",
            list.as_str(),
            "--rounds",
            "18446744073709551615",
        ][..],
    ] {
        let (o, _) = witness(args);
        code(&o, 2);
        assert!(
            text(&o.stderr).contains("is not in 1..="),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    let (o, _) = witness(&[
        "bench-check",
        &verdicts,
        "--puzzles",
        &list,
        "--rounds",
        "2",
    ]);
    code(&o, 0);
}

//! Puzzle files as the commands read them: a JSON Lines entry
//! `{"id", "puzzle"}` stands for its puzzle; in a file of several, `--id`
//! or `--line` picks one, and without them the error says how to pick.

use serde_json::json;

use crate::common::cli::{stderr, stdout, witness, TempDir, ONE_DOT};

/// A 1x1 panel: start (0,2) bottom-left, end (2,0) top-right, a black dot
/// on the bottom edge (1,2). One solution: `0,2:R2U2` covers the dot;
/// `0,2:U2R2` (the solution of [`ONE_DOT`]) misses it.
const BOTTOM_DOT: &str = r#"{"grid":[
    [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
    [{"type":"line"},null,{"type":"line","dot":1}],
    [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#;

/// A pillar one face round and one high: start at the top, end at the
/// bottom.
const PILLAR: &str = r#"{"pillar":true,"grid":[
    [{"type":"line","start":true},{"type":"line"},{"type":"line","end":"bottom"}],
    [{"type":"line"},null,{"type":"line"}]]}"#;

/// A file of three entries: `a` ([`ONE_DOT`], a string), a blank line,
/// `b` ([`BOTTOM_DOT`], an object), `c` (no grid) on line 4.
fn three(tmp: &TempDir) -> String {
    let bottom: serde_json::Value = serde_json::from_str(BOTTOM_DOT).unwrap();
    let lines = [
        json!({"id": "a", "puzzle": ONE_DOT}).to_string(),
        String::new(),
        json!({"id": "b", "puzzle": bottom}).to_string(),
        json!({"id": "c", "puzzle": {}}).to_string(),
    ];
    tmp.arg("three.jsonl", &(lines.join("\n") + "\n"))
}

#[test]
fn an_entry_stands_for_its_puzzle() {
    let tmp = TempDir::new("input-entry");
    let one = tmp.arg(
        "one.jsonl",
        &json!({"id": "a", "puzzle": ONE_DOT}).to_string(),
    );
    let o = witness(&["solve", &one, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(r#""moves":"0,2:U2R2""#),
        "{}",
        stdout(&o)
    );
    for cmd in [
        vec!["check", &one, "--path", "0,2:U2R2"],
        vec!["count", &one],
        vec!["hint", &one],
        vec!["render", &one],
    ] {
        let o = witness(&cmd);
        assert_eq!(o.status.code(), Some(0), "{cmd:?}: {}", stderr(&o));
    }
}

#[test]
fn id_or_line_picks_one_of_several() {
    let tmp = TempDir::new("input-pick");
    let f = three(&tmp);
    for pick in [["--id", "a"], ["--line", "1"]] {
        let o = witness(&["check", &f, pick[0], pick[1], "--path", "0,2:U2R2"]);
        assert_eq!(stdout(&o), "valid\n", "{pick:?}: {}", stderr(&o));
        let o = witness(&["check", &f, pick[0], pick[1], "--path", "0,2:R2U2"]);
        assert_eq!(o.status.code(), Some(1), "{pick:?}");
    }
    for pick in [["--id", "b"], ["--line", "3"]] {
        let o = witness(&["check", &f, pick[0], pick[1], "--path", "0,2:R2U2"]);
        assert_eq!(stdout(&o), "valid\n", "{pick:?}: {}", stderr(&o));
        let o = witness(&["check", &f, pick[0], pick[1], "--path", "0,2:U2R2"]);
        assert_eq!(o.status.code(), Some(1), "{pick:?}");
        let o = witness(&["count", &f, pick[0], pick[1], "--json"]);
        assert_eq!(o.status.code(), Some(0), "{pick:?}: {}", stderr(&o));
        let o = witness(&["render", &f, pick[0], pick[1]]);
        assert!(stdout(&o).starts_with("<svg"), "{pick:?}: {}", stderr(&o));
        // `convert` writes the picked puzzle: the dot on its bottom edge
        // (1,2) is there.
        let o = witness(&["convert", &f, pick[0], pick[1], "--to", "json"]);
        assert_eq!(o.status.code(), Some(0), "{pick:?}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert_eq!(v["grid"][1][2]["dot"], 1, "{pick:?}: {v}");
        // `generate --like` takes the picked puzzle's 1x1 frame.
        let o = witness(&["generate", "--like", &f, pick[0], pick[1], "--seed", "1"]);
        assert_eq!(o.status.code(), Some(0), "{pick:?}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
        assert_eq!(v["puzzle"]["grid"].as_array().map(Vec::len), Some(3), "{v}");
    }
}

/// Bad input: exit 2, one line on standard error holding every word.
#[track_caller]
fn assert_error(args: &[&str], words: &[&str]) {
    let o = witness(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    for w in words {
        assert!(err.contains(w), "{args:?}: {err:?} lacks {w:?}");
    }
}

#[test]
fn several_entries_without_a_pick_say_how_to_pick() {
    let tmp = TempDir::new("input-errors");
    let f = three(&tmp);
    for cmd in ["solve", "count", "hint", "render"] {
        assert_error(
            &[cmd, &f],
            &[
                "holds 3 puzzles",
                "--id ID (ids such as a, b, c)",
                "--line N",
            ],
        );
    }
    assert_error(
        &["check", &f, "--path", "0,2:U2R2"],
        &["holds 3 puzzles", "--id", "--line"],
    );
    assert_error(
        &["solve", &f, "--id", "z"],
        &["no line has the id \"z\"", "3 puzzles"],
    );
    assert_error(
        &["solve", &f, "--line", "2"],
        &["no puzzle on line 2", "line 4"],
    );
    assert_error(&["solve", &f, "--line", "9"], &["no puzzle on line 9"]);
    assert_error(
        &["solve", &f, "--id", "c"],
        &["three.jsonl line 4", "entry \"c\"", "no \"grid\""],
    );
    let text = tmp.arg("one.txt", "witness 1x1\n+ o E>\n| . |\nS - +\n");
    assert_error(&["solve", &text, "--id", "a"], &["not", "JSON Lines"]);
    // Both at once: clap's usage error.
    let o = witness(&["solve", &f, "--id", "a", "--line", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

/// `convert --turn` writes the panel turned over, its solutions turned with
/// it: [`BOTTOM_DOT`] mirrored left to right starts at (2,2), ends at (0,0)
/// and is solved by `2,2:L2U2` (along the dot on the bottom edge), not
/// `2,2:U2L2`; transposed, it starts at (2,0), has its dot on the right
/// edge (2,1) and is solved by `2,0:D2L2`; turned a quarter clockwise
/// (`tx`), it starts at (0,0), has its dot on the left edge (0,1) and is
/// solved by `0,0:D2R2`. A pillar has no transpose, hence no quarter turn.
#[test]
fn convert_turns_the_panel_over() {
    let tmp = TempDir::new("input-turn");
    let f = tmp.arg("bottom.json", BOTTOM_DOT);
    for (turn, valid, invalid) in [
        ("x", "2,2:L2U2", "2,2:U2L2"),
        ("t", "2,0:D2L2", "2,0:L2D2"),
        ("tx", "0,0:D2R2", "0,0:R2D2"),
    ] {
        let o = witness(&["convert", &f, "--to", "json", "--turn", turn]);
        assert_eq!(o.status.code(), Some(0), "{turn}: {}", stderr(&o));
        let turned = tmp.arg(&format!("turned-{turn}.json"), &stdout(&o));
        let o = witness(&["check", &turned, "--path", valid]);
        assert_eq!(stdout(&o), "valid\n", "{turn}: {}", stderr(&o));
        let o = witness(&["check", &turned, "--path", invalid]);
        assert_eq!(o.status.code(), Some(1), "{turn}: {}", stderr(&o));
    }
    let pillar = tmp.arg("pillar.json", PILLAR);
    for turn in ["t", "tx"] {
        assert_error(
            &["convert", &pillar, "--to", "json", "--turn", turn],
            &["pillar", "transposed"],
        );
    }
    let o = witness(&["convert", &pillar, "--to", "json", "--turn", "xq"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("x, y and t"), "{}", stderr(&o));
    let o = witness(&["convert", &pillar, "--to", "json", "--turn", "x"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// `convert --to windmill` writes a code that every command reads: the
/// panel of [`BOTTOM_DOT`] as a code is solved by the same path
/// (`0,2:R2U2`, along the dot on the bottom edge) and not by the other
/// (`0,2:U2R2`). Without marks or pieces, no note about the rules; with an
/// elimination mark, a note that the Windmill's rules judge it. What a
/// code cannot hold (a pillar) is bad input, named.
#[test]
fn convert_writes_windmill_codes() {
    let tmp = TempDir::new("input-windmill");
    let f = tmp.arg("bottom.json", BOTTOM_DOT);
    let o = witness(&["convert", &f, "--to", "windmill"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let code = stdout(&o);
    assert!(
        code.trim_end().ends_with("_0") && code.lines().count() == 1,
        "{code}"
    );
    let w = tmp.arg("bottom.txt", &code);
    let o = witness(&["check", &w, "--path", "0,2:R2U2"]);
    assert_eq!(stdout(&o), "valid\n", "{}", stderr(&o));
    let o = witness(&["check", &w, "--path", "0,2:U2R2"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let pillar = tmp.arg("pillar.json", PILLAR);
    assert_error(
        &["convert", &pillar, "--to", "windmill"],
        &["pillar", "Windmill"],
    );
    // An elimination mark, judged differently by the Windmill: a note.
    let mark = tmp.arg("mark.txt", "witness 1x1\n+ - E>\n| Y |\nS - +\n");
    let o = witness(&["convert", &mark, "--to", "windmill"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("its own rules"), "{}", stderr(&o));
}

/// Runs `witness` with `input` on standard input.
fn with_stdin(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_witness"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// A UTF-8 byte-order mark before the text (as some editors write it) is
/// no part of it: in a puzzle file, on standard input, in a JSON Lines
/// file of puzzles, a batch and a bench file.
#[test]
fn a_byte_order_mark_is_skipped_wherever_input_is_read() {
    let tmp = TempDir::new("a_byte_order_mark_is_skipped_wherever_input_is_read");
    let bom = "\u{feff}";
    let valid = |o: &std::process::Output| {
        assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    };
    let f = tmp.arg("p.json", &format!("{bom}{ONE_DOT}"));
    valid(&witness(&["check", &f, "--path", "0,2:U2R2"]));
    let text = "witness 1x1\n+ o E>\n| . |\nS - +\n";
    let o = with_stdin(
        &["check", "-", "--path", "0,2:U2R2"],
        format!("{bom}{text}").as_bytes(),
    );
    valid(&o);
    let entry = json!({"id": "a", "puzzle": ONE_DOT});
    let f = tmp.arg("one.jsonl", &format!("{bom}{entry}\n{entry}\n"));
    valid(&witness(&[
        "check", &f, "--line", "1", "--path", "0,2:U2R2",
    ]));
    let line = json!({"id": "a", "puzzle": ONE_DOT, "path": "0,2:U2R2"});
    let f = tmp.arg("batch.jsonl", &format!("{bom}{line}\n"));
    let o = witness(&["check", "--batch", &f]);
    valid(&o);
    assert!(stdout(&o).contains("\"valid\":true"), "{}", stdout(&o));
    let f = tmp.arg("bench.jsonl", &format!("{bom}{entry}\n"));
    let o = witness(&["bench", &f, "--jobs", "1"]);
    valid(&o);
    assert!(stdout(&o).contains("solved: 1 "), "{}", stdout(&o));
}

/// An empty input is said to be empty, not of an unknown format.
#[test]
fn an_empty_input_is_called_empty() {
    let tmp = TempDir::new("an_empty_input_is_called_empty");
    for text in ["", "\n  \n", "\u{feff}"] {
        let f = tmp.arg("empty.json", text);
        assert_error(&["solve", &f], &["empty"]);
        let o = with_stdin(&["solve", "-"], text.as_bytes());
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("standard input: "), "{}", stderr(&o));
        assert!(stderr(&o).contains("empty"), "{}", stderr(&o));
        assert!(!stderr(&o).contains("cannot tell"), "{}", stderr(&o));
    }
}

/// Numbers too large for their field are out of range (not "not a whole
/// number"); counts of one are singular.
#[test]
fn messages_say_what_is_wrong_in_plain_words() {
    let tmp = TempDir::new("messages_say_what_is_wrong_in_plain_words");
    let big = ONE_DOT.replace(
        "null",
        r#"{"type":"poly","color":"red","polyshape":4294967296}"#,
    );
    let f = tmp.arg("big.json", &big);
    let o = witness(&["solve", &f]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(err.contains("out of range"), "{err}");
    assert!(!err.contains("whole number"), "{err}");

    let entry = json!({"id": "a", "puzzle": ONE_DOT});
    let f = tmp.arg("one.jsonl", &format!("{entry}\n"));
    assert_error(
        &["solve", &f, "--line", "5"],
        &["it has 1 puzzle,", "the last on line 1"],
    );
    assert_error(&["solve", &f, "--id", "zz"], &["among its 1 puzzle"]);
}

/// A file of puzzles one a line in another format than JSON Lines (here
/// Windmill codes: a 2x1-face panel the README solves with `2,4:U4`, and
/// an empty 32x32 panel): `--line N` picks one; a line past the end and
/// `--id` (which needs JSON Lines) are one-line errors.
#[test]
fn line_picks_a_puzzle_of_a_file_of_codes() {
    let tmp = TempDir::new("input-codes");
    let codes = tmp.arg(
        "codes.txt",
        "CAUSAigCEgIIBBICKAMSBAgIEAkSABIECAgQCRICKAQSAggFEgIoAhIECAgQCRIAEgQICBAJEgIoAxICCAMSAigC_0\n\
         CEESAihAEgIIBBIDKP8fEgIIAxICKEA=_0\n",
    );
    let o = witness(&["solve", &codes, "--line", "1", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("\"moves\":\"2,4:U4\""),
        "{}",
        stdout(&o)
    );
    let o = witness(&["convert", &codes, "--line", "2", "--to", "text"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("witness 32x32"), "{}", stdout(&o));
    assert_error(&["solve", &codes, "--line", "3"], &["2 lines, not 3"]);
    assert_error(&["solve", &codes, "--id", "a"], &["--id", "JSON Lines"]);
    // One code: "1 line"; a blank line picked is called blank.
    let one = tmp.arg(
        "one.txt",
        "CAUSAigCEgIIBBICKAMSBAgIEAkSABIECAgQCRICKAQSAggFEgIoAhIECAgQCRIAEgQICBAJEgIoAxICCAMSAigC_0\n",
    );
    assert_error(&["solve", &one, "--line", "2"], &["has 1 line, not 2"]);
    let gap = tmp.arg(
        "gap.txt",
        "CAUSAigCEgIIBBICKAMSBAgIEAkSABIECAgQCRICKAQSAggFEgIoAhIECAgQCRIAEgQICBAJEgIoAxICCAMSAigC_0\n\n\
         CEESAihAEgIIBBIDKP8fEgIIAxICKEA=_0\n",
    );
    assert_error(&["solve", &gap, "--line", "2"], &["line 2 is blank"]);
}

/// `--line` on a file that holds one puzzle written over several lines
/// (pretty JSON, the text format): line 1 is that puzzle, another line
/// says so, rather than reading one line of it as a puzzle.
#[test]
fn line_on_one_puzzle_over_several_lines() {
    let tmp = TempDir::new("input-one-over-lines");
    let text = tmp.arg("one.txt", "witness 1x1\n+ - E\n| . |\nS - +\n");
    let o = witness(&["solve", &text, "--line", "1", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = witness(&["convert", &text, "--to", "json", "--pretty"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let pretty = tmp.arg("pretty.json", &stdout(&o));
    for f in [&text, &pretty] {
        assert_error(
            &["solve", f, "--line", "2"],
            &["holds 1 puzzle, written over"],
        );
    }
}

/// With `--json`, a puzzle that does not read is answered in JSON on
/// standard output (exit 2), nothing on standard error, by every command
/// that takes `--json`.
#[test]
fn json_errors_are_json() {
    let tmp = TempDir::new("input-json-errors");
    let missing = tmp.path("missing.json");
    let garbage = tmp.arg("garbage.txt", "garbage\n");
    for cmd in ["solve", "count", "hint", "render", "check"] {
        for f in [&missing, &garbage] {
            let mut args = vec![cmd, f.as_str(), "--json"];
            if cmd == "check" {
                args.extend(["--path", "0,2:U2"]);
            }
            let o = witness(&args);
            assert_eq!(o.status.code(), Some(2), "{args:?}");
            assert_eq!(stderr(&o), "", "{args:?}");
            let v: serde_json::Value = serde_json::from_str(stdout(&o).trim())
                .unwrap_or_else(|e| panic!("{args:?}: {e}: {}", stdout(&o)));
            assert_eq!(v["status"], "error", "{args:?}: {v}");
            assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
        }
    }
}

/// The same codes read whole: the error says how to pick one. And as
/// the `"puzzle"` of JSON Lines entries (ids of either type), picked by
/// `--id` or `--line`, with or without `--format windmill`.
#[test]
fn codes_read_whole_or_as_entries() {
    let tmp = TempDir::new("input-code-entries");
    let code = "CAUSAigCEgIIBBICKAMSBAgIEAkSABIECAgQCRICKAQSAggFEgIoAhIECAgQCRIAEgQICBAJEgIoAxICCAMSAigC_0";
    let codes = tmp.arg("codes.txt", &format!("{code}\n{code}\n"));
    assert_error(
        &["solve", &codes],
        &["holds 2 puzzles, one a line", "--line N"],
    );
    let entries = tmp.arg(
        "entries.jsonl",
        &format!(
            "{}\n{}\n",
            json!({"id": 5, "puzzle": code}),
            json!({"id": "b", "puzzle": code})
        ),
    );
    for pick in [
        &["--id", "5"][..],
        &["--id", "b"][..],
        &["--line", "2"][..],
        &["--id", "5", "--format", "windmill"][..],
    ] {
        let mut args = vec!["solve", &entries, "--json"];
        args.extend_from_slice(pick);
        let o = witness(&args);
        assert_eq!(o.status.code(), Some(0), "{pick:?}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("\"moves\":\"2,4:U4\""),
            "{}",
            stdout(&o)
        );
    }
    assert_error(
        &["solve", &entries, "--id", "b", "--format", "text"],
        &["line 2", "text format"],
    );
    // A puzzle object (as an entry's "puzzle" or as the whole line)
    // under a --format of text: the error names both, each once.
    let object = json!({"grid": [[{"type": "line", "start": true}]]});
    let objects = tmp.arg(
        "objects.jsonl",
        &format!("{}\n{}\n", json!({"id": "o", "puzzle": object}), object),
    );
    for (line, what) in [
        ("1", "\"puzzle\" is a witnesspuzzles JSON object"),
        ("2", "no \"puzzle\" field"),
    ] {
        let o = witness(&["solve", &objects, "--line", line, "--format", "windmill"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        let e = stderr(&o);
        assert!(
            e.contains(&format!("line {line}")) && e.contains(what),
            "{e}"
        );
        assert!(
            e.contains("--format says windmill") && e.matches("windmill").count() == 1,
            "{e}"
        );
    }
    // bench names the entries by their ids, numbers too.
    let o = witness(&["bench", &entries, "--jobs", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("slowest: "), "{}", stdout(&o));
    assert!(!stdout(&o).contains("line 1"), "{}", stdout(&o));
}

/// A control character quoted from the input (an escape sequence) is
/// written out in the error, not sent to the terminal.
#[test]
fn errors_write_control_characters_out() {
    let tmp = TempDir::new("input-control");
    let p = tmp.arg("esc.txt", "witness 1x1\nS - E>\n| \u{1b}[31mRED |\n+ - +\n");
    assert_error(&["solve", &p], &["line 3", "\\u{1b}[31mRED"]);
    let o = witness(&["solve", &p]);
    assert!(!stderr(&o).contains('\u{1b}'), "{:?}", stderr(&o));
}

//! `witness check`: the validator's verdict on a path.

use std::io::{BufRead, BufReader, Write};

use clap::Args as ClapArgs;
use serde_json::{json, Value};
use witness::formats::Format;
use witness::model::RuleSet;
use witness::{check_within, Error, Path};

use crate::input;
use crate::solve::limits_of;
use crate::{EXIT_BAD_INPUT, EXIT_DONE, EXIT_NO, EXIT_STOPPED};
use witness::request::verdict as verdict_json;

/// Options of `witness check`.
#[derive(ClapArgs)]
pub struct Args {
    /// The puzzle file, or `-` for standard input.
    #[arg(required_unless_present = "batch")]
    puzzle: Option<String>,
    /// The path: the site's JSON form `[{"x":0,"y":6},2,2,…,0]`, a move
    /// string such as `0,6:R6U4`, or `[[x,y],…]`.
    #[arg(long, required_unless_present = "batch")]
    path: Option<String>,
    /// Print `{"valid","invalid","negations"}` as JSON (a puzzle or path
    /// that does not read, a path that is not a legal line:
    /// `{"valid": null, "status": "error", "error"}`).
    #[arg(long)]
    json: bool,
    /// The puzzle's format, `json`, `windmill`, `alcazar` or `text`
    /// (guessed when left out); with `--batch`, the
    /// format of every line's "puzzle".
    #[arg(long, value_parser = input::parse_format)]
    format: Option<Format>,
    #[command(flatten)]
    pick: input::Pick,
    /// Check every line `{"id","puzzle","path"}` of a JSON Lines file. The
    /// exit code: 2 when a line does not read (its puzzle or path), else 3
    /// when a line ran out of time, 1 when a path is invalid, 0 when every
    /// path is valid.
    #[arg(long, conflicts_with_all = ["puzzle", "path", "id", "line"])]
    batch: Option<String>,
    /// Give up after this many milliseconds (0: no limit); with `--batch`,
    /// per line.
    #[arg(long, default_value_t = 60_000)]
    timeout_ms: u64,
    /// The rules that judge: `witnesspuzzles` or `windmill` (default: the
    /// Windmill's for Windmill codes, the site's for the rest).
    #[arg(long, value_parser = input::parse_rules)]
    rules: Option<RuleSet>,
}

/// Runs the command; the exit code is 0 valid, 1 invalid, 2 bad input,
/// 3 stopped by the time limit.
pub fn run(a: Args) -> Result<u8, String> {
    if let Some(batch) = a.batch {
        return run_batch(&batch, a.format, a.rules, a.timeout_ms);
    }
    let source = a.puzzle.expect("clap requires it");
    // With --json, a puzzle or a path that does not read, or a path that
    // is not a legal line, is told as JSON too (exit 2, as every bad
    // input), so that a script reading the output has one form to read.
    let bad_input = |e: String| -> Result<u8, String> {
        if a.json {
            outln!("{}", json!({"valid": null, "status": "error", "error": e}));
            Ok(EXIT_BAD_INPUT)
        } else {
            Err(e)
        }
    };
    let puzzle = match input::read_picked(&source, a.format, &a.pick) {
        Ok(p) => input::with_rules(p, a.rules),
        Err(e) => return bad_input(e),
    };
    let path_text = a.path.expect("clap requires it");
    let path = match Path::parse_on(&path_text, &puzzle) {
        Ok(p) => p,
        Err(e) => return bad_input(e.to_string()),
    };
    let verdict = match check_within(&puzzle, &path, &limits_of(a.timeout_ms)) {
        Ok(v) => v,
        Err(Error::Stopped) => {
            if a.json {
                outln!("{}", json!({"valid": null, "status": "timeout"}));
            } else {
                outln!("timeout: no verdict within {} ms", a.timeout_ms);
            }
            return Ok(EXIT_STOPPED);
        }
        Err(e) => return bad_input(e.to_string()),
    };
    if a.json {
        let mut j = verdict_json(&verdict);
        j["rules"] = json!(puzzle.rules.name());
        outln!("{j}");
    } else if verdict.valid {
        outln!("valid");
    } else {
        outln!("invalid:");
        for f in &verdict.invalid {
            outln!("  {} at {}", f.reason.describe(), f.pos);
        }
    }
    if !a.json && verdict.valid {
        for (m, e) in &verdict.negations {
            outln!("  elimination mark at {m} erases {e}");
        }
    }
    if !a.json {
        input::note_rules(&puzzle);
    }
    Ok(if verdict.valid { EXIT_DONE } else { EXIT_NO })
}

/// One line of a batch (line `n` of the file, counted from 1): its verdict
/// under `rules` (when given, else the puzzle's own), or its error with
/// the line's number.
fn batch_line(
    n: u64,
    line: &str,
    format: Option<Format>,
    rules: Option<RuleSet>,
    timeout_ms: u64,
) -> Value {
    let v: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return json!({"id": null, "line": n, "error": format!("not valid JSON: {e}")}),
    };
    let id = v.get("id").cloned().unwrap_or(Value::Null);
    let result = (|| -> Result<Value, String> {
        if v.get("puzzle").is_none() {
            return Err("a line needs \"puzzle\": a JSON string or object".into());
        }
        let puzzle = input::with_rules(input::entry_puzzle(&v, format)?, rules);
        let path = match v.get("path") {
            Some(Value::String(s)) => Path::parse_on(s, &puzzle),
            // Any of the JSON notations, read as `--path` reads them: the
            // site's form or a list of coordinates.
            Some(p @ Value::Array(_)) => Path::parse_on(&p.to_string(), &puzzle),
            None | Some(Value::Null) => {
                return Err("a line needs \"path\": an array (the site's form or \
                     [[x,y],…]) or a move string"
                    .into())
            }
            _ => {
                return Err("\"path\" must be an array (the site's form or [[x,y],…]) \
                     or a move string"
                    .into())
            }
        }
        .map_err(|e| e.to_string())?;
        let verdict = match check_within(&puzzle, &path, &limits_of(timeout_ms)) {
            Err(Error::Stopped) => return Ok(json!({"id": id, "status": "timeout"})),
            v => v.map_err(|e| e.to_string())?,
        };
        let j = verdict_json(&verdict);
        Ok(
            json!({"id": id, "valid": j["valid"], "invalid": j["invalid"],
            "rules": puzzle.rules.name()}),
        )
    })();
    result.unwrap_or_else(|e| json!({"id": id, "line": n, "error": e}))
}

fn run_batch(
    file: &str,
    format: Option<Format>,
    rules: Option<RuleSet>,
    timeout_ms: u64,
) -> Result<u8, String> {
    let mut reader: Box<dyn BufRead> = if file == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        Box::new(BufReader::new(
            std::fs::File::open(file).map_err(|e| format!("cannot read {file}: {e}"))?,
        ))
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut all_valid, mut stopped, mut bad) = (true, false, false);
    for n in 1.. {
        let line = match input::next_line(&mut reader, input::MAX_LINE_BYTES) {
            Ok(Some(line)) if line.starts_with(input::BOM) && n == 1 => {
                line[input::BOM.len_utf8()..].to_string()
            }
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => return Err(format!("{file}: line {n}: {e}")),
        };
        if line.trim().is_empty() {
            continue;
        }
        let r = batch_line(n, &line, format, rules, timeout_ms);
        all_valid &= r.get("valid") == Some(&Value::Bool(true));
        stopped |= r.get("status").and_then(Value::as_str) == Some("timeout");
        bad |= r.get("error").is_some();
        writeln!(out, "{r}").map_err(|e| format!("cannot write to standard output: {e}"))?;
    }
    out.flush()
        .map_err(|e| format!("cannot write to standard output: {e}"))?;
    Ok(if bad {
        EXIT_BAD_INPUT
    } else if stopped {
        EXIT_STOPPED
    } else if all_valid {
        EXIT_DONE
    } else {
        EXIT_NO
    })
}

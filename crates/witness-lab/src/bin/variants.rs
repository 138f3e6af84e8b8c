//! Turned copies of a corpus, to see how the solver's figures hold on
//! puzzles it was not measured on:
//! `cargo run --release -p witness-lab --bin variants FILE.jsonl [KINDS]`
//! prints, for every puzzle of FILE.jsonl, one `{"id", "puzzle"}` line per
//! kind of copy asked for in KINDS (default `xyt`): `x` mirrored left to
//! right, `y` top to bottom, `t` transposed ([`Turn`]; not for pillars,
//! which are left out with a note on standard error), each with the id
//! `ID-x`, `ID-y`, `ID-t`.
//!
//! A copy is the same puzzle to a player, but not to a depth-first search:
//! its move orders meet the panel from another side, so its time to a
//! first solution is another draw from the same class of puzzles. (With
//! three elimination marks or more, a copy's solutions can differ from
//! the original's: see [`Turn`].)
//!
//! `variants FILE.jsonl KINDS VERDICTS.jsonl` checks the copies instead:
//! for every path of VERDICTS.jsonl (`{"id", "path", "valid"}` lines, as
//! the corpus's verdicts file), it turns the path with its puzzle and
//! prints how often the validator's verdict on the copy is the engine's
//! on the original, and each path where it is not.

use std::collections::HashMap;
use witness::model::{Puzzle, Turn};
use witness::Path;

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: variants FILE.jsonl [KINDS: any of x, y, t] [VERDICTS.jsonl]";
    let file = args.next().expect(usage);
    let turns: Vec<Turn> = args
        .next()
        .unwrap_or_else(|| "xyt".into())
        .chars()
        .map(|c| c.to_string().parse().expect(usage))
        .collect();
    let corpus = witness_lab::corpus(&file);
    if let Some(verdicts) = args.next() {
        check(&corpus, &turns, &verdicts);
        return;
    }
    for (id, p) in corpus {
        for &t in &turns {
            let copy = p
                .turned(t)
                .and_then(|q| witness::formats::wpjson::to_string(&q));
            match copy {
                Ok(text) => println!(
                    "{}",
                    serde_json::json!({"id": format!("{id}-{}", t.letter()), "puzzle": text})
                ),
                Err(e) => eprintln!("{id}-{}: left out: {e}", t.letter()),
            }
        }
    }
}

/// Checks the copies against the engine's verdicts on the originals (see
/// the module's page).
fn check(corpus: &[(String, Puzzle)], turns: &[Turn], verdicts: &str) {
    let puzzles: HashMap<&str, &Puzzle> = corpus.iter().map(|(id, p)| (id.as_str(), p)).collect();
    let text = std::fs::read_to_string(verdicts).unwrap_or_else(|e| panic!("{verdicts}: {e}"));
    let (mut same, mut other, mut left_out) = (0u64, 0u64, 0u64);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let id = v["id"].as_str().expect("an id");
        let (Some(&p), Ok(path)) = (puzzles.get(id), Path::from_site(&v["path"])) else {
            left_out += 1;
            continue;
        };
        let want = v["valid"].as_bool().expect("a verdict");
        for &t in turns {
            let Ok(q) = p.turned(t) else {
                left_out += 1;
                continue;
            };
            let got = witness::Rules::new(&q)
                .and_then(|r| r.check_path(&q, &path.turned(p, t)?))
                .map(|v| v.valid);
            if got.as_ref().is_ok_and(|&g| g == want) {
                same += 1;
            } else {
                other += 1;
                println!(
                    "{id}-{}: engine {want}, copy {got:?}: {}",
                    t.letter(),
                    v["path"]
                );
            }
        }
    }
    println!("copies judged as the originals: {same}; otherwise: {other}; left out: {left_out}");
}

//! Shared helpers for the corpus tests.
#![allow(dead_code)]

use std::path::PathBuf;

pub mod random;

/// The shared corpus folder: `$WITNESS_CORPUS`, or `../shared/corpus`
/// beside the project root.
pub fn corpus_dir() -> PathBuf {
    if let Ok(d) = std::env::var("WITNESS_CORPUS") {
        return PathBuf::from(d);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// The lines of a corpus file, or `None` (with a loud note) when the corpus
/// is absent. Set `WITNESS_REQUIRE_CORPUS=1` to make absence a failure.
pub fn corpus_lines(name: &str) -> Option<Vec<String>> {
    let path = corpus_dir().join(name);
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(
            s.lines()
                .filter(|l| !l.trim().is_empty())
                .map(String::from)
                .collect(),
        ),
        Err(e) => {
            if std::env::var("WITNESS_REQUIRE_CORPUS").is_ok_and(|v| v == "1") {
                panic!(
                    "corpus file {} is required but unreadable: {e}",
                    path.display()
                );
            }
            eprintln!(
                "SKIPPED: corpus file {} not found ({e}); this test checked nothing",
                path.display()
            );
            None
        }
    }
}

/// The id and puzzle JSON text of a corpus line `{"id", "puzzle"}`.
pub fn puzzle_of_line(line: &str) -> (String, String) {
    let v: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
    let id = v["id"].as_str().expect("id").to_string();
    let text = match &v["puzzle"] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    (id, text)
}

/// Every solution the brute force enumerates, as the solver counts them:
/// in an undirected puzzle a path whose reverse is a solution too is kept
/// only when its start slot comes no later than its end slot (so each pair
/// once), and a path whose reverse is not a solution is kept alone.
pub fn brute_solutions(p: &witness::model::Puzzle) -> Vec<witness::Path> {
    use witness::Path;
    let mut all = Vec::new();
    let st = witness::internals::brute::enumerate(p, &witness::Limits::none(), |q| {
        all.push(q.clone());
        true
    })
    .unwrap();
    assert_eq!(st, witness::Status::Complete);
    if !p.undirected {
        return all;
    }
    let end_of = |q: &Path| {
        q.moves
            .iter()
            .fold(q.start, |at, &d| p.neighbor(at, d).expect("a legal path"))
    };
    let key = |q: &Path| (p.index(q.start), q.moves.clone());
    let set: std::collections::HashSet<_> = all.iter().map(key).collect();
    all.into_iter()
        .filter(|q| {
            let end = end_of(q);
            let back = Path::new(end, q.moves.iter().rev().map(|d| d.opposite()).collect());
            p.index(q.start) <= p.index(end) || !set.contains(&key(&back))
        })
        .collect()
}

/// `witness::count` of every solution of `p`, with no limits.
pub fn count_all(p: &witness::model::Puzzle) -> witness::Count {
    let options = witness::CountOptions {
        limit: None,
        limits: witness::Limits::none(),
        ..Default::default()
    };
    witness::count(p, &options).unwrap()
}

/// A number from environment variable `name` (a test's seed or case
/// count, set by hand), if it is set and parses.
pub fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Whether a random test of `n` cases goes on to case `case`: always
/// below `n`; past it, while the sample does not yet hold `enough` of
/// each kind the test needs, up to `3 * n` cases in all. A change to the
/// random panels that makes one kind rarer then lengthens the run instead
/// of failing the test's coverage check, which stays after the loop:
/// `for case in 0..3 * n { if !goes_on(case, n, enough) { break } ... }`.
pub fn goes_on(case: u64, n: u64, enough: bool) -> bool {
    case < n || (!enough && case < 3 * n)
}

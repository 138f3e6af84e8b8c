//! Replays the fuzz targets' saved inputs through the targets' own code
//! (`fuzz/harness.rs`): the seed corpus in `fuzz/corpus/<target>/` and the
//! inputs that found bugs in `fuzz/regressions/<target>/`. A panic or a
//! failed assertion of a target fails the test, naming the file.

#[path = "../../../../fuzz/harness.rs"]
mod harness;

use std::path::{Path, PathBuf};

/// The fuzz crate's folder.
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files of `dir/<target>/` for every target, sorted, checking that
/// every subfolder is a target's.
fn inputs(dir: &Path) -> Vec<(harness::Target, PathBuf)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries {
        let sub = entry.expect("a readable folder").path();
        let name = sub.file_name().unwrap().to_string_lossy().into_owned();
        let target = *harness::TARGETS
            .iter()
            .find(|(t, _)| *t == name)
            .unwrap_or_else(|| panic!("{}: no fuzz target is called {name}", sub.display()));
        let mut files: Vec<PathBuf> = std::fs::read_dir(&sub)
            .expect("a readable folder")
            .map(|e| e.expect("a readable file").path())
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| (target, f)));
    }
    out
}

/// Runs each input through its target, reporting every one that fails;
/// returns the inputs the targets refused to read.
fn replay(inputs: &[(harness::Target, PathBuf)]) -> Vec<String> {
    let mut failed = Vec::new();
    let mut refused = Vec::new();
    for ((target, run), file) in inputs {
        let data = std::fs::read(file).expect("a readable input");
        let name = format!("{target}: {}", file.display());
        match std::panic::catch_unwind(|| run(&data)) {
            Ok(true) => {}
            Ok(false) => refused.push(name),
            Err(_) => failed.push(name),
        }
    }
    assert!(
        failed.is_empty(),
        "inputs that fail:\n{}",
        failed.join("\n")
    );
    refused
}

#[test]
fn seed_corpus_passes_every_target() {
    let inputs = inputs(&fuzz_dir().join("corpus"));
    for (target, _) in harness::TARGETS {
        let n = inputs.iter().filter(|((t, _), _)| *t == target).count();
        assert!(n > 0, "fuzz/corpus/{target}/ has no seed inputs");
    }
    // The seeds are inputs each target reads, so that the fuzzer starts
    // from inside the formats.
    let refused = replay(&inputs);
    assert!(refused.is_empty(), "seeds refused:\n{}", refused.join("\n"));
}

#[test]
fn regression_inputs_pass() {
    // Inputs that found bugs need not be readable: only the failure counts.
    replay(&inputs(&fuzz_dir().join("regressions")));
}

#[test]
fn coordinates_cross_a_pillar_seam_both_ways() {
    use witness::model::{Direction, Pos};
    // A pillar 4 slot columns round: right from column 3 wraps onto column
    // 0, left from column 0 onto column 3.
    let right = witness::Path::parse("[[2,0],[3,0],[0,0]]").unwrap();
    assert_eq!(right.start, Pos::new(2, 0));
    assert_eq!(right.moves, [Direction::Right, Direction::Right]);
    let left = witness::Path::parse("[[0,0],[3,0],[2,0]]").unwrap();
    assert_eq!(left.moves, [Direction::Left, Direction::Left]);
    // Columns apart that no seam joins are no step: the seam joins column
    // 0 to a pillar's last column, which is odd.
    assert!(witness::Path::parse("[[1,0],[3,0]]").is_err());
    assert!(witness::Path::parse("[[0,0],[2,0]]").is_err());
    assert!(witness::Path::parse("[[4,0],[0,0]]").is_err());
}

//! Shared reading for the measurement harnesses in `src/bin`: corpus files
//! of `{"id", "puzzle"}` JSON lines and lists of puzzle ids.

use witness::model::Puzzle;

/// Every puzzle of a corpus file (one `{"id", "puzzle"}` JSON object a
/// line, blank lines skipped), with its id (empty when it has none).
/// Panics with the line's number on a line that does not read: these are
/// developer tools run on known files.
pub fn corpus(file: &str) -> Vec<(String, Puzzle)> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            let j: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
            let text = j["puzzle"]
                .as_str()
                .unwrap_or_else(|| panic!("{file}:{}: no \"puzzle\" string", n + 1));
            let p = witness::formats::read_puzzle(text, None)
                .unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
            (j["id"].as_str().unwrap_or("").to_string(), p)
        })
        .collect()
}

/// The puzzles of a corpus file whose ids are listed, white-space
/// separated, in the file `ids`, in corpus order.
pub fn picked(file: &str, ids: &str) -> Vec<(String, Puzzle)> {
    let ids = std::fs::read_to_string(ids).unwrap_or_else(|e| panic!("{ids}: {e}"));
    let ids: Vec<&str> = ids.split_whitespace().collect();
    corpus(file)
        .into_iter()
        .filter(|(id, _)| ids.contains(&id.as_str()))
        .collect()
}

/// The command line of a harness that takes puzzle files and options:
/// the files, and the value of each option named in `options` (such as
/// `--count`) that was given.
pub fn files_and_options(options: &[&str]) -> (Vec<String>, Vec<(String, String)>) {
    let mut files = Vec::new();
    let mut given = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if options.contains(&a.as_str()) {
            let value = args.next().unwrap_or_else(|| panic!("{a} takes a value"));
            given.push((a, value));
        } else {
            files.push(a);
        }
    }
    (files, given)
}

/// The value of option `name` among `given` ([`files_and_options`]) read
/// as a `T`, or `None` when it was not given.
pub fn option<T: std::str::FromStr>(given: &[(String, String)], name: &str) -> Option<T> {
    given.iter().rev().find(|(n, _)| n == name).map(|(_, v)| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name}: bad value {v}"))
    })
}

/// Each puzzle file of `files` that reads, with its name; one that does
/// not is named with its error on standard output and skipped.
pub fn puzzle_files(files: &[String]) -> Vec<(String, Puzzle)> {
    files
        .iter()
        .filter_map(|f| {
            let read = std::fs::read_to_string(f)
                .map_err(|e| e.to_string())
                .and_then(|text| witness::read_puzzle(&text, None).map_err(|e| e.to_string()));
            match read {
                Ok(p) => Some((f.clone(), p)),
                Err(e) => {
                    println!("{f}: {e}");
                    None
                }
            }
        })
        .collect()
}

/// This thread's CPU time in milliseconds: on a busy machine it shifts
/// less than the wall clock with the other processes' load.
pub fn thread_cpu_ms() -> f64 {
    cpu_time::ThreadTime::now().as_duration().as_secs_f64() * 1e3
}

/// The SAT engine's verdict on `puzzle` within `ms` milliseconds: "live"
/// (a solution), "dead" (none, proved), "?" (stopped) or the error; and
/// the seconds it took.
pub fn sat_verdict(puzzle: &Puzzle, ms: u64) -> (String, f64) {
    use witness::internals::sat::SatRun;
    let limits = witness::Limits::timeout(std::time::Duration::from_millis(ms));
    let t0 = std::time::Instant::now();
    let verdict = match SatRun::new(puzzle, &limits).and_then(|mut r| r.solve(&limits)) {
        Ok(s) if s.path.is_some() => "live".to_string(),
        Ok(s) if s.status == witness::Status::Complete => "dead".to_string(),
        Ok(_) => "?".to_string(),
        Err(e) => format!("error: {e}"),
    };
    (verdict, t0.elapsed().as_secs_f64())
}

/// `puzzle` with a black dot on each of `slots` (slots of `plan`'s board):
/// every line through a branch covers its slots, so where this puzzle has
/// no solution no solution takes the branch.
pub fn dotted(puzzle: &Puzzle, plan: &witness::internals::plan::Plan, slots: &[usize]) -> Puzzle {
    let mut p = puzzle.clone();
    for &s in slots {
        p.cell_mut(plan.rules.board.pos(s)).dot = witness::model::Dot::Black;
    }
    p
}

/// Runs `s` on the subtree below `moves` from slot `start` to its first
/// solution or its node cap, with the cut counters
/// (`search::inspect::CUTS`, counted with the `pack-stats` feature) reset
/// first: whether it met a solution, the seconds it took, and the cuts by
/// test.
pub fn run_subtree<const N: usize>(
    s: &mut witness::internals::search::Search<'_, N>,
    start: usize,
    moves: &[witness::model::Direction],
) -> (bool, f64, Vec<u64>) {
    use std::sync::atomic::Ordering;
    use witness::internals::search::inspect::CUTS;
    for c in &CUTS {
        c.store(0, Ordering::Relaxed);
    }
    let t0 = std::time::Instant::now();
    let mut found = false;
    s.run_from(
        start,
        moves,
        &mut |_: &witness::internals::search::Found| {
            found = true;
            false
        },
    );
    let secs = t0.elapsed().as_secs_f64();
    (
        found,
        secs,
        CUTS.iter().map(|c| c.load(Ordering::Relaxed)).collect(),
    )
}

/// The positional arguments of a binary: the first is required (the
/// binary stops with `usage` without it), the others take defaults.
pub struct Positional(std::iter::Skip<std::env::Args>);

impl Positional {
    /// The process's arguments after the binary's name.
    pub fn new() -> Positional {
        Positional(std::env::args().skip(1))
    }

    /// The next argument; without one, the process stops with `usage`.
    pub fn required(&mut self, usage: &str) -> String {
        self.0.next().unwrap_or_else(|| {
            eprintln!("usage: {usage}");
            std::process::exit(2)
        })
    }

    /// The next argument read as a `T`, or `default` when it is missing
    /// or does not read.
    pub fn or<T: std::str::FromStr>(&mut self, default: T) -> T {
        self.0
            .next()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    }
}

impl Default for Positional {
    fn default() -> Self {
        Positional::new()
    }
}

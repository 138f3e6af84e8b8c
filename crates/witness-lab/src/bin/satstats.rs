//! The SAT engine's work on puzzles, for tuning its cuts:
//! `cargo run --release -p witness-lab --bin satstats PUZZLE.json... [--count N] [--timeout-ms MS]`
//! prints per puzzle the time, the answer and [`witness::internals::sat::Stats`].

use std::time::{Duration, Instant};

use witness::internals::sat::SatRun;
use witness::Limits;

fn main() {
    let (files, given) = witness_lab::files_and_options(&["--count", "--timeout-ms"]);
    let count: Option<u64> = witness_lab::option(&given, "--count");
    let ms: u64 = witness_lab::option(&given, "--timeout-ms").unwrap_or(20_000);
    for (f, puzzle) in witness_lab::puzzle_files(&files) {
        let limits = Limits::timeout(Duration::from_millis(ms));
        let t = Instant::now();
        let mut run = match SatRun::new(&puzzle, &limits) {
            Ok(r) => r,
            Err(e) => {
                println!("{f}: {e}");
                continue;
            }
        };
        let answer = match count {
            Some(n) => format!(
                "{:?}",
                run.count(Some(n), &limits, |_| true).map(|c| c.count)
            ),
            None => format!("{:?}", run.solve(&limits).map(|s| s.path.is_some())),
        };
        println!(
            "{f}: {:.1} ms {answer} {:?}",
            t.elapsed().as_secs_f64() * 1e3,
            run.stats
        );
    }
}

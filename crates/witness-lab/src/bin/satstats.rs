//! The SAT engine's work on puzzles, for tuning its cuts:
//! `cargo run --release -p witness-lab --bin satstats PUZZLE.json... [--count N] [--timeout-ms MS]`
//! prints per puzzle the time, the answer and [`witness::internals::sat::Stats`].

use std::time::{Duration, Instant};

use witness::internals::sat::SatRun;
use witness::Limits;

fn main() {
    let mut files = Vec::new();
    let mut count: Option<u64> = None;
    let mut ms = 20_000u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--count" => count = args.next().and_then(|s| s.parse().ok()),
            "--timeout-ms" => ms = args.next().and_then(|s| s.parse().ok()).unwrap_or(ms),
            _ => files.push(a),
        }
    }
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable puzzle");
        let puzzle = match witness::read_puzzle(&text, None) {
            Ok(p) => p,
            Err(e) => {
                println!("{f}: {e}");
                continue;
            }
        };
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

//! The `auto` race on puzzles, for tuning its head starts:
//! `cargo run --release -p witness-lab --bin racestats PUZZLE... [--count N] [--runs R]`
//! runs each puzzle's `auto` solve (or count to `N`) `R` times and prints
//! per run the wall time, whether the race ran and who answered, then the
//! search's and the SAT engine's own times for comparison.

use std::time::{Duration, Instant};

use witness::internals::plan::Plan;
use witness::internals::race;
use witness::internals::sat::SatRun;
use witness::Limits;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn main() {
    let mut files = Vec::new();
    let mut count: Option<u64> = None;
    let mut runs = 5usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--count" => count = args.next().and_then(|s| s.parse().ok()),
            "--runs" => runs = args.next().and_then(|s| s.parse().ok()).unwrap_or(runs),
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
        let limits = || Limits::timeout(Duration::from_secs(20));
        let mut line = format!("{f}:");
        for _ in 0..runs {
            let t = Instant::now();
            let plan = Plan::new(&puzzle).expect("a plan");
            let (raced, winner) = match count {
                Some(n) => {
                    let r = race::count_plan(&puzzle, &plan, Some(n), &limits()).expect("counted");
                    (r.raced, r.winner)
                }
                None => {
                    let r = race::solve_plan(&puzzle, &plan, &limits()).expect("solved");
                    (r.raced, r.winner)
                }
            };
            let who = if raced {
                format!("{winner:?}")
            } else {
                "alone".into()
            };
            line += &format!(" {:.2}/{who}", ms(t));
        }
        let t = Instant::now();
        let plan = Plan::new(&puzzle).expect("a plan");
        match count {
            Some(n) => drop(witness::internals::count_plan(&plan, Some(n), &limits())),
            None => drop(witness::internals::solve_plan(&plan, &limits())),
        }
        line += &format!(" | search {:.2}", ms(t));
        let t = Instant::now();
        if let Ok(mut run) = SatRun::new(&puzzle, &limits()) {
            match count {
                Some(n) => drop(run.count(Some(n), &limits(), |_| true)),
                None => drop(run.solve(&limits())),
            }
            line += &format!(" sat {:.2} {:?}", ms(t), run.stats);
        }
        println!("{line}");
    }
}

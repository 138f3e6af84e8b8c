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
    let (files, given) = witness_lab::files_and_options(&["--count", "--runs"]);
    let count: Option<u64> = witness_lab::option(&given, "--count");
    let runs: usize = witness_lab::option(&given, "--runs").unwrap_or(5);
    for (f, puzzle) in witness_lab::puzzle_files(&files) {
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

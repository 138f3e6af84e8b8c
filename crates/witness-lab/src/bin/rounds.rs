//! Solve time without parsing, steadied by repeats:
//! `cargo run --release -p witness-lab --bin rounds FILE.jsonl [ROUNDS] [BUDGET_MS]`
//! parses every puzzle once, then solves each `ROUNDS` times (plan and
//! search, default 5) and keeps its fastest run. Prints p50, p90, p99 and the
//! sum of those best times over the puzzles solved within `BUDGET_MS`
//! (default 100), and how many were not; with `ROUNDS_EACH=1`, first one
//! line per puzzle: id, best µs, solved.

use std::time::{Duration, Instant};

/// The allocator the `witness` binary uses.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use witness::internals::plan::Plan;
use witness::Limits;

fn main() {
    let mut args = witness_lab::Positional::new();
    let file = args.required("rounds FILE.jsonl [ROUNDS] [BUDGET_MS]");
    let rounds: usize = args.or(5).max(1);
    let cap: u64 = args.or(100);
    let (ids, puzzles): (Vec<String>, Vec<_>) = witness_lab::corpus(&file).into_iter().unzip();
    let mut best = vec![f64::INFINITY; puzzles.len()];
    let mut solved = vec![false; puzzles.len()];
    for _ in 0..rounds {
        for (i, p) in puzzles.iter().enumerate() {
            let t = Instant::now();
            let plan = Plan::new(p).expect("plan");
            let limits = Limits::timeout(Duration::from_millis(cap));
            let s = witness::internals::solve_plan(&plan, &limits).expect("solve");
            let us = t.elapsed().as_secs_f64() * 1e6;
            solved[i] = s.path.is_some();
            best[i] = best[i].min(us);
        }
    }
    if std::env::var_os("ROUNDS_EACH").is_some() {
        for (i, id) in ids.iter().enumerate() {
            println!("{id} {:.1} {}", best[i], solved[i]);
        }
    }
    let mut done: Vec<f64> = (0..puzzles.len())
        .filter(|&i| solved[i])
        .map(|i| best[i])
        .collect();
    done.sort_by(f64::total_cmp);
    let k = done.len();
    let q = |f: f64| done[((k as f64 - 1.0) * f) as usize];
    println!(
        "best of {rounds}: p50 {:.1} µs  p90 {:.1} µs  p99 {:.1} µs  sum {:.1} ms  unsolved within {cap} ms: {}",
        q(0.5),
        q(0.9),
        q(0.99),
        done.iter().sum::<f64>() / 1e3,
        puzzles.len() - k
    );
}

//! The whole search tree of a puzzle in the engine's order, in
//! machine-independent units: `cargo run --release -p witness-lab --bin
//! exhaust FILE... ` searches every path of each puzzle (up to
//! `EXHAUST_LIMIT` solutions, default 2, as `count --unique` asks) and
//! prints its nodes, its solutions and its time.

use witness::internals::{
    plan::{Masks, Plan},
    search::{Found, Search},
};
use witness::Limits;

/// Searches `plan` to the end (or to `limit` solutions).
fn run<const N: usize>(name: &str, plan: &Plan, limit: u64) {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let t = std::time::Instant::now();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    let mut n = 0;
    s.run_all(&mut |_: &Found| {
        n += 1;
        n < limit
    });
    println!(
        "{name}: {} nodes, {} solutions, {:.1} ms",
        s.visited,
        n,
        t.elapsed().as_secs_f64() * 1e3
    );
}

fn main() {
    let limit: u64 = std::env::var("EXHAUST_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    for file in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&file).expect("readable file");
        let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
        let plan = Plan::new(&p).expect("plan");
        match plan.nodes() {
            0..=64 => run::<1>(&file, &plan, limit),
            65..=128 => run::<2>(&file, &plan, limit),
            129..=512 => run::<8>(&file, &plan, limit),
            _ => run::<16>(&file, &plan, limit),
        }
    }
}

//! Search effort on one puzzle: `probe FILE [BUDGET_MS]` prints nodes
//! visited, time and whether it was solved.

use witness::solve::{plan::Plan, Limits};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: probe FILE [BUDGET_MS]");
    let cap: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let plan = Plan::new(&p).expect("plan");
    let limits = Limits::timeout(std::time::Duration::from_millis(cap));
    let t = std::time::Instant::now();
    let (s, n) = witness::solve::solve_plan_stats(&plan, &limits).expect("solve");
    let ms = t.elapsed().as_secs_f64() * 1e3;
    println!(
        "{} nodes {n} in {ms:.1} ms ({:.0} ns/node)",
        if s.path.is_some() {
            "solved"
        } else {
            "unsolved"
        },
        ms * 1e6 / n as f64
    );
}

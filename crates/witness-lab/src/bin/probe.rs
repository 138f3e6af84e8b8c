//! Search effort on one puzzle: `probe FILE [BUDGET_MS] [REPEAT]` prints
//! nodes visited, time (the median of REPEAT runs, default 1) and whether
//! it was solved. Two variables switch parts of the search, to see
//! what they cost and cut: `PROBE_NARROW=<n>` sets the board size (in
//! nodes) from which the pocket narrowing runs (`Plan::narrow_min_nodes`;
//! a large number turns it off), `PROBE_PACKING=0` turns the packing test
//! of open regions off (`Plan::packing`).

use witness::internals::plan::Plan;
use witness::Limits;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: probe FILE [BUDGET_MS] [REPEAT]");
    let cap: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let repeat: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(1).max(1);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let mut plan = Plan::new(&p).expect("plan");
    if let Ok(v) = std::env::var("PROBE_NARROW") {
        plan.narrow_min_nodes = v.parse().expect("PROBE_NARROW: a number of nodes");
    }
    if std::env::var("PROBE_PACKING").is_ok_and(|v| v == "0") {
        plan.packing = false;
    }
    let mut times = Vec::with_capacity(repeat);
    let mut last = None;
    for _ in 0..repeat {
        let limits = Limits::timeout(std::time::Duration::from_millis(cap));
        let t = std::time::Instant::now();
        let r = witness::internals::solve_plan_stats(&plan, &limits).expect("solve");
        times.push(t.elapsed().as_secs_f64() * 1e3);
        last = Some(r);
    }
    times.sort_by(f64::total_cmp);
    let ms = times[times.len() / 2];
    let (s, n) = last.expect("at least one run");
    println!(
        "{} nodes {n} in {ms:.3} ms ({:.0} ns/node)",
        if s.path.is_some() {
            "solved"
        } else {
            "unsolved"
        },
        ms * 1e6 / n as f64
    );
}

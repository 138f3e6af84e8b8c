//! How hard the corpus is for the search, in machine-independent units:
//! `cargo run --release -p witness-lab --bin visits FILE.jsonl [BUDGET_MS]`
//! prints percentiles of search nodes visited to the first solution;
//! with `VISITS_NODES=<n>`, a budget of `n` search nodes per puzzle
//! replaces the time budget (the figures then do not depend on the
//! machine); with `VISITS_EACH=1`, one line per puzzle: id, nodes, solved, plan µs,
//! search µs.

use witness::internals::plan::Plan;
use witness::Limits;

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: visits FILE.jsonl [BUDGET_MS]");
    let cap: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(100);
    let nodes: Option<u64> = std::env::var("VISITS_NODES")
        .ok()
        .and_then(|v| v.parse().ok());
    let budget = match nodes {
        Some(n) => format!("{n} nodes"),
        None => format!("{cap} ms"),
    };
    let mut visits = Vec::new();
    let mut unsolved = 0;
    for (id, p) in witness_lab::corpus(&file) {
        let t0 = std::time::Instant::now();
        let plan = Plan::new(&p).expect("plan");
        let t1 = std::time::Instant::now();
        let limits = match nodes {
            Some(nodes) => Limits::none().with_max_nodes(nodes),
            None => Limits::timeout(std::time::Duration::from_millis(cap)),
        };
        let (s, n) = witness::internals::solve_plan_stats(&plan, &limits).expect("solve");
        let t2 = std::time::Instant::now();
        unsolved += s.path.is_none() as usize;
        if std::env::var_os("VISITS_EACH").is_some() {
            println!(
                "{} {n} {} {:.1} {:.1}",
                id,
                s.path.is_some(),
                (t1 - t0).as_secs_f64() * 1e6,
                (t2 - t1).as_secs_f64() * 1e6
            );
            #[cfg(feature = "pack-stats")]
            {
                let st = witness::internals::search::pack_stats::take();
                let per = |a: u64, b: u64| a as f64 / b.max(1) as f64;
                let outside = ((t2 - t1).as_nanos() as u64).saturating_sub(st.nanos);
                println!(
                    "  packing: untested {} tested {} cuts {} {:.0} ns/test | searches {} work {:.0} steps {:.1} gave up {} | {:.0} ns/node outside",
                    st.untested,
                    st.tested,
                    st.cuts,
                    per(st.nanos, st.tested),
                    st.packs,
                    per(st.work, st.packs),
                    per(st.steps, st.packs),
                    st.gave_up,
                    per(outside, n),
                );
            }
        }
        visits.push(n);
    }
    visits.sort_unstable();
    let k = visits.len();
    let q = |f: f64| visits[((k as f64 - 1.0) * f) as usize];
    println!(
        "visits p25 {} p50 {} p75 {} p90 {} p99 {}  unsolved within {budget}: {unsolved}",
        q(0.25),
        q(0.5),
        q(0.75),
        q(0.9),
        q(0.99)
    );
}

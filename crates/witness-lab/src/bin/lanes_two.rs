//! The work each lane of the turns needs alone to two distinct
//! solutions: `cargo run --release -p witness-lab --bin lanes_two
//! FILE.jsonl IDS [BUDGET]` searches each listed puzzle in each lane (the
//! three move orders of [`witness::internals::portfolio`], on the plan and
//! on its reversal) for up to `BUDGET` work (default 20,000,000) and
//! prints, per lane, the work at the second distinct solution (a solution's mirror twin counts as found with it; -1: not
//! within the budget).

use std::collections::HashSet;
use witness::internals::{
    nearby::mirror_twin,
    plan::{Masks, Plan},
    reverse,
    search::{Found, Search},
};
use witness::model::Direction;
use witness::Limits;

/// The work at the first and second distinct solutions of one lane.
fn run<const N: usize>(
    plan: &Plan,
    fwd: &Plan,
    back: bool,
    order: [Direction; 4],
    share: (usize, usize),
    cap: u64,
) -> Option<u64> {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_order(order, plan.starts.len() * share.0 / share.1);
    s.set_budget(Some(cap));
    let mut seen: HashSet<(usize, Vec<Direction>)> = HashSet::new();
    s.run_all(&mut |f: &Found| {
        let mut a = (f.start, f.end, f.moves.to_vec());
        if back {
            a = reverse::answer(a);
        }
        if let Some(t) = mirror_twin(fwd, a.0, &a.2) {
            seen.insert(t);
        }
        seen.insert((a.0, a.2));
        seen.len() < 2
    });
    (seen.len() >= 2).then(|| s.work())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: lanes_two FILE.jsonl IDS [BUDGET]";
    let file = args.next().expect(usage);
    let ids = args.next().expect(usage);
    let cap: u64 = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000_000);
    // The orders of the turns' lanes, with the start each begins with.
    let orders = witness::internals::lanes::ORDERS;
    for (id, p) in witness_lab::picked(&file, &ids) {
        let plan = Plan::new(&p).expect("plan");
        let back = reverse::reversed(&plan);
        let mut out = vec![];
        for (pl, is_back) in [(Some(&plan), false), (back.as_ref(), true)] {
            for (order, share) in orders {
                let t = std::time::Instant::now();
                let r = pl.map(|pl| match pl.nodes() {
                    0..=64 => run::<1>(pl, &plan, is_back, order, share, cap),
                    65..=128 => run::<2>(pl, &plan, is_back, order, share, cap),
                    129..=512 => run::<8>(pl, &plan, is_back, order, share, cap),
                    _ => run::<16>(pl, &plan, is_back, order, share, cap),
                });
                let s = r.flatten().map_or("-1".to_string(), |n| n.to_string());
                out.push(format!("{s}({:.0}ms)", t.elapsed().as_secs_f64() * 1e3));
            }
        }
        println!("{id} {}", out.join(" "));
    }
}

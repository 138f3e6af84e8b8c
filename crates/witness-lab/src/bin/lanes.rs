//! The work each lane of the turns needs alone to a first solution:
//! `cargo run --release -p witness-lab --bin lanes FILE.jsonl IDS [BUDGET]`
//! searches each puzzle of FILE.jsonl whose id is listed in the file IDS
//! (whitespace-separated) in each of the three move orders of
//! [`witness::internals::portfolio`], on the plan and on its reversal, for up to
//! `BUDGET` of work (default 3,000,000), and prints one line per puzzle:
//! the id, 1 if it has elimination marks (else 0), then the six lanes'
//! work as the turns' budgets count it (search nodes, and polyomino fit
//! and tiling steps in node units; -1: no solution within the budget; the
//! reversal's are -1 when the puzzle has none), in the order forward
//! orders 0, 1, 2, then reversed orders 0, 1, 2. From these, schedules of turns can be compared
//! offline.

use witness::internals::{
    plan::{Masks, Plan},
    reverse,
    search::{Found, Search},
};
use witness::model::Direction;
use witness::Limits;

/// The work to the first solution in `order` from the start at `share`
/// of the list, as the turns' budgets count it (nodes, and fit and tiling
/// steps in node units), or `None` within `cap`.
fn run<const N: usize>(
    plan: &Plan,
    order: [Direction; 4],
    share: (usize, usize),
    cap: u64,
) -> Option<u64> {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_order(order, plan.starts.len() * share.0 / share.1);
    s.set_budget(Some(cap));
    let mut found = false;
    s.run_all(&mut |_: &Found| {
        found = true;
        false
    });
    found.then_some(s.work())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: lanes FILE.jsonl IDS [BUDGET]";
    let file = args.next().expect(usage);
    let ids = args.next().expect(usage);
    let cap: u64 = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_000_000);
    // The orders of the turns' lanes, with the start each begins with.
    let orders = witness::internals::lanes::ORDERS;
    for (id, p) in witness_lab::picked(&file, &ids) {
        let plan = Plan::new(&p).expect("plan");
        let back = reverse::reversed(&plan);
        let mut out = vec![];
        for pl in [Some(&plan), back.as_ref()] {
            for (order, share) in orders {
                let nodes = pl.and_then(|pl| match pl.nodes() {
                    0..=64 => run::<1>(pl, order, share, cap),
                    65..=128 => run::<2>(pl, order, share, cap),
                    129..=512 => run::<8>(pl, order, share, cap),
                    _ => run::<16>(pl, order, share, cap),
                });
                out.push(nodes.map_or("-1".to_string(), |n| n.to_string()));
            }
        }
        let marked = plan.rules.board.has_negations as u8;
        println!("{id} {marked} {}", out.join(" "));
    }
}

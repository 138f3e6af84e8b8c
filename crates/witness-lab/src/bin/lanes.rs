//! The work each lane of the turns needs alone to its first solutions:
//! `cargo run --release -p witness-lab --bin lanes FILE.jsonl IDS [BUDGET]
//! [SOLUTIONS]` searches each puzzle of FILE.jsonl whose id is listed in
//! the file IDS (whitespace-separated) in each of the three move orders of
//! [`witness::internals::portfolio`], on the plan and on its reversal, for
//! up to `BUDGET` of work (default 3,000,000), until it has seen
//! `SOLUTIONS` distinct solutions (default 1; 2 is what a count to 2, such
//! as `--unique`, asks). A solution's mirror twin counts as seen with it,
//! so on a symmetry panel a first solution with a twin already makes two.
//! It prints one line per puzzle: the id, 1 if it has elimination marks
//! (else 0), then the six lanes' work as the turns' budgets count it
//! (search nodes, and polyomino fit and tiling steps in node units; -1: not
//! within the budget, or no reversal) with the lane's time in brackets, in
//! the order forward orders 0, 1, 2, then reversed orders 0, 1, 2. From
//! these, schedules of turns can be compared offline.

use std::collections::HashSet;
use witness::internals::{
    nearby::mirror_twin,
    plan::{Masks, Plan},
    reverse,
    search::{Found, Search},
};
use witness::model::Direction;
use witness::Limits;

/// One lane's search: its plan, whether that is the reversal of `fwd`,
/// its order and the start it begins with.
struct Lane<'a> {
    plan: &'a Plan,
    fwd: &'a Plan,
    back: bool,
    order: [Direction; 4],
    share: (usize, usize),
}

/// The work at which `lane` has seen `want` distinct solutions, or `None`
/// within `cap`.
fn run<const N: usize>(lane: &Lane, want: usize, cap: u64) -> Option<u64> {
    let masks = Masks::<N>::new(lane.plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(lane.plan, &masks, &limits);
    s.set_order(
        lane.order,
        lane.plan.starts.len() * lane.share.0 / lane.share.1,
    );
    s.set_budget(Some(cap));
    let mut seen: HashSet<(usize, Vec<Direction>)> = HashSet::new();
    s.run_all(&mut |f: &Found| {
        let mut a = (f.start, f.end, f.moves.to_vec());
        if lane.back {
            a = reverse::answer(a);
        }
        if let Some(t) = mirror_twin(lane.fwd, a.0, &a.2) {
            seen.insert(t);
        }
        seen.insert((a.0, a.2));
        seen.len() < want
    });
    (seen.len() >= want).then(|| s.work())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: lanes FILE.jsonl IDS [BUDGET] [SOLUTIONS]";
    let file = args.next().expect(usage);
    let ids = args.next().expect(usage);
    let cap: u64 = args.next().map_or(3_000_000, |v| v.parse().expect(usage));
    let want: usize = args.next().map_or(1, |v| v.parse().expect(usage));
    assert!(want >= 1, "SOLUTIONS must be at least 1");
    // The orders of the turns' lanes, with the start each begins with.
    let orders = witness::internals::lanes::ORDERS;
    for (id, p) in witness_lab::picked(&file, &ids) {
        let plan = Plan::new(&p).expect("plan");
        let back = reverse::reversed(&plan);
        let mut out = vec![];
        for (pl, is_back) in [(Some(&plan), false), (back.as_ref(), true)] {
            for (order, share) in orders {
                let t = std::time::Instant::now();
                let work = pl.and_then(|pl| {
                    let lane = Lane {
                        plan: pl,
                        fwd: &plan,
                        back: is_back,
                        order,
                        share,
                    };
                    match pl.nodes() {
                        0..=64 => run::<1>(&lane, want, cap),
                        65..=128 => run::<2>(&lane, want, cap),
                        129..=512 => run::<8>(&lane, want, cap),
                        _ => run::<16>(&lane, want, cap),
                    }
                });
                let w = work.map_or("-1".to_string(), |n| n.to_string());
                out.push(format!("{w}({:.0}ms)", t.elapsed().as_secs_f64() * 1e3));
            }
        }
        let marked = plan.rules.board.has_negations as u8;
        println!("{id} {marked} {}", out.join(" "));
    }
}

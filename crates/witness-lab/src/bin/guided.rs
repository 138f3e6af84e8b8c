//! Whether a local search's nearest path can guide the exact search:
//! `guided FILE.jsonl IDS [MOVES] [SEED] [CAP]` runs the local search on
//! each listed puzzle for MOVES moves (default 20,000), takes the path of
//! least cost among its replicas, and searches the puzzle with each slot
//! on that path trying the path's move first (the engine's order
//! otherwise; [`Shuffle::slots`]), from the path's start; it prints the
//! work to the first solution guided and in the engine's order (-1: not
//! within CAP, default 3,000,000), and the guide's cost in failing
//! elements.

use witness::internals::{
    local::Anneal,
    plan::{Masks, Plan},
    search::{Found, Search, Shuffle},
};
use witness::model::Direction;
use witness::Limits;

/// The work to the first solution, with `slots` as the order per slot
/// (the engine's order when empty), from start `first`, or `None`
/// within `cap`.
fn run<const N: usize>(
    plan: &Plan,
    slots: &[[Direction; 4]],
    first: usize,
    cap: u64,
) -> Option<u64> {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_order(Direction::ALL, first);
    if !slots.is_empty() {
        s.set_shuffle(Some(Shuffle {
            slots: slots.to_vec(),
            ..Shuffle::default()
        }));
    }
    s.set_budget(Some(cap));
    let mut found = false;
    s.run_all(&mut |_: &Found| {
        found = true;
        false
    });
    found.then_some(s.work())
}

/// [`run`] at the plan's width.
fn run_at_width(plan: &Plan, slots: &[[Direction; 4]], first: usize, cap: u64) -> Option<u64> {
    match plan.nodes() {
        0..=64 => run::<1>(plan, slots, first, cap),
        65..=128 => run::<2>(plan, slots, first, cap),
        129..=512 => run::<8>(plan, slots, first, cap),
        _ => run::<16>(plan, slots, first, cap),
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: guided FILE.jsonl IDS [MOVES] [SEED] [CAP]";
    let file = args.next().expect(usage);
    let ids = args.next().expect(usage);
    let moves: u64 = args.next().map_or(20_000, |v| v.parse().expect(usage));
    let seed: u64 = args.next().map_or(1, |v| v.parse().expect(usage));
    let cap: u64 = args.next().map_or(3_000_000, |v| v.parse().expect(usage));
    let show = |w: Option<u64>| w.map_or("-1".to_string(), |n| n.to_string());
    for (id, p) in witness_lab::picked(&file, &ids) {
        let plan = Plan::new(&p).expect("plan");
        let Some(mut a) = Anneal::new(&plan, seed) else {
            println!("{id} not handled by the local search");
            continue;
        };
        a.set_limits(&Limits::none());
        let solved = a.run(moves).is_some();
        let Some((cost, (start, _, path))) = a
            .replica_paths()
            .into_iter()
            .min_by(|x, y| x.0.total_cmp(&y.0))
        else {
            println!("{id} no path");
            continue;
        };
        let b = &plan.rules.board;
        let mut slots = vec![Direction::ALL; b.nbr.len()];
        let mut q = start;
        for &d in &path {
            let mut order = [d; 4];
            let rest = Direction::ALL.into_iter().filter(|&e| e != d);
            for (o, e) in order[1..].iter_mut().zip(rest) {
                *o = e;
            }
            slots[q] = order;
            q = b.nbr[q][d as usize] as usize;
        }
        let first = plan
            .starts
            .iter()
            .position(|&s| s as usize == start)
            .unwrap_or(0);
        let guided = run_at_width(&plan, &slots, first, cap);
        let plain = run_at_width(&plan, &[], 0, cap);
        println!(
            "{id} guide cost {cost:.1}{} guided {} engine {}",
            if solved { " (a solution)" } else { "" },
            show(guided),
            show(plain)
        );
    }
}

//! Second solutions near the first: `cargo run --release -p witness-lab
//! --bin second FILE.jsonl IDS [BUDGET] [RADIUS]` solves each puzzle
//! of FILE.jsonl whose id is listed in the file IDS (whitespace-separated),
//! then searches the paths that keep within RADIUS nodes (Chebyshev
//! distance, default 0: the solution's own nodes, as
//! [`witness::internals::nearby`] does) of the solution's nodes for up to BUDGET
//! nodes (default 20,000), and prints whether another solution turned up,
//! after how many nodes, and how many nodes the corridor holds.

use witness::internals::{
    bits::Bits,
    plan::{Masks, Plan},
    search::{Found, Search},
};
use witness::{Limits, Path};

fn run<const N: usize>(
    puzzle: &witness::model::Puzzle,
    plan: &Plan,
    first: &Path,
    budget: u64,
    radius: usize,
) -> (Option<u64>, u64, u32) {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let nc = plan.ncols;
    let mut near = Bits::<N>::empty();
    let pts = first.slots(puzzle).expect("slots");
    for q in &pts {
        if q.x % 2 == 0 && q.y % 2 == 0 {
            let (x, y) = ((q.x / 2) as isize, (q.y / 2) as isize);
            for dx in -(radius as isize)..=radius as isize {
                for dy in -(radius as isize)..=radius as isize {
                    let (a, c) = (x + dx, y + dy);
                    if a >= 0 && c >= 0 && (a as usize) < nc && (c as usize) < plan.nrows {
                        near.set(c as usize * nc + a as usize);
                    }
                }
            }
        }
    }
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_corridor(near);
    s.set_budget(Some(budget));
    let mut found = false;
    s.run_all(&mut |f: &Found| {
        found = Path::new(plan.rules.board.pos(f.start), f.moves.to_vec()) != *first;
        !found
    });
    let v = s.visited;
    (found.then_some(v), v, near.count())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: second FILE.jsonl IDS [BUDGET] [RADIUS]");
    let ids = args.next().expect("IDS");
    let budget: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(20_000);
    let radius: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    for (id, p) in witness_lab::picked(&file, &ids) {
        let plan = Plan::new(&p).expect("plan");
        let limits = Limits::timeout(std::time::Duration::from_secs(10));
        let sol = witness::internals::solve_plan(&plan, &limits).expect("solve");
        let Some(first) = sol.path else {
            println!("{id} unsolved");
            continue;
        };
        let t = std::time::Instant::now();
        let (hit, nodes, size) = match plan.nodes() {
            0..=64 => run::<1>(&p, &plan, &first, budget, radius),
            65..=128 => run::<2>(&p, &plan, &first, budget, radius),
            129..=512 => run::<8>(&p, &plan, &first, budget, radius),
            _ => run::<16>(&p, &plan, &first, budget, radius),
        };
        println!(
            "{id} corridor {size}/{} nodes: {} after {nodes} nodes, {:.2} ms",
            plan.nodes(),
            if hit.is_some() {
                "second found"
            } else {
                "none"
            },
            t.elapsed().as_secs_f64() * 1e3
        );
    }
}

//! Where the plain search of a puzzle (its lanes, marks and all) is:
//! `cargo run --release -p witness-lab --bin trace FILE [EVERY] [SLICES]`
//! searches in the engine's order in slices of EVERY nodes (default
//! 1,000,000), up to SLICES slices (default 10), and prints the path each
//! slice stopped on, or the solution.

use witness::internals::{
    plan::{Masks, Plan},
    search::{Found, Search},
};
use witness::{Limits, Path};

/// Searches `plan` slice by slice, printing where each slice stopped.
fn run<const N: usize>(plan: &Plan, every: u64, slices: u32) {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    for _ in 0..slices {
        s.set_budget(Some(every));
        let mut sol = None;
        s.run_all(&mut |f: &Found| {
            sol = Some(Path::new(plan.rules.board.pos(f.start), f.moves.to_vec()));
            false
        });
        if let Some(p) = sol {
            println!("solved at {}: {p}", s.visited);
            return;
        }
        if !s.out_of_budget {
            println!("no solution: {} nodes", s.visited);
            return;
        }
        let r = s
            .take_resume()
            .expect("a stopped run leaves a resume point");
        let start = plan.rules.board.pos(plan.starts[r.k] as usize);
        println!(
            "at {} ({} moves): {}",
            s.visited,
            r.moves.len(),
            Path::new(start, r.moves.clone())
        );
        s.set_resume(Some(r));
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: trace FILE [EVERY] [SLICES]");
    let every: u64 = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let slices: u32 = args.next().and_then(|v| v.parse().ok()).unwrap_or(10);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let plan = Plan::new(&p).expect("plan");
    match plan.nodes() {
        0..=64 => run::<1>(&plan, every, slices),
        65..=128 => run::<2>(&plan, every, slices),
        129..=512 => run::<8>(&plan, every, slices),
        _ => run::<16>(&plan, every, slices),
    }
}

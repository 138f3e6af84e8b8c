//! The elimination cases of a puzzle as assumptions of one SAT run
//! (`sat::cubes::CaseCubes`): `casecubes FILE.json [CASES] [MS] [ROUNDS]`
//! builds the SAT engine once on the marked puzzle and asks about its
//! first `CASES` cases in their order (nearest first), `MS` milliseconds a
//! case (default 2); with `ROUNDS` above 1, rounds over the cases still
//! open with the budget doubled each round (default 6: 2 ms up to 64 ms).
//! Prints each case's verdict and time and the total to the first
//! solution. With `CASECUBES_COUNT=K`, each solution is blocked once
//! found and the rounds go on to K solutions; a case that found one is
//! asked again in the next round, and the run without assumptions (the
//! solver's proof that none is left) is not made, so it cannot end a
//! count.

use std::time::{Duration, Instant};
use witness::internals::sat::cubes::CaseCubes;
use witness::Limits;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = witness_lab::Positional::new();
    let file = args.required("casecubes FILE.json [CASES] [MS] [ROUNDS]");
    let k: usize = args.or(usize::MAX);
    let ms: u64 = args.or(2);
    let rounds: u32 = args.or(6);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let t0 = Instant::now();
    let limits = Limits::timeout(Duration::from_secs(600));
    let mut cubes = CaseCubes::new(&p, &limits).expect("a SAT run");
    println!(
        "{} cases, encoded in {:.3} s",
        cubes.open(),
        t0.elapsed().as_secs_f64()
    );
    // Indices into the cases as made; `solve_case` takes them while
    // none is dropped.
    let mut open: Vec<usize> = (0..cubes.open().min(k)).collect();
    let (mut budget, mut dead) = (ms, 0);
    // With CASECUBES_COUNT=K, on to K solutions, each blocked once found.
    let want: u32 = std::env::var("CASECUBES_COUNT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut found = 0;
    if want > 1 {
        cubes.block_found();
    }
    for round in 0..rounds {
        let mut still = Vec::new();
        for &n in &open {
            let t = Instant::now();
            let lim = Limits::timeout(Duration::from_millis(budget));
            let sol = cubes.solve_case(n, &lim).expect("a solve");
            let what = match (&sol.path, sol.status) {
                (Some(_), _) => "live",
                (None, witness::Status::Complete) => "dead",
                _ => "?",
            };
            println!(
                "round {round} case {n}: {what} {:.3} s (total {:.3} s)",
                t.elapsed().as_secs_f64(),
                t0.elapsed().as_secs_f64()
            );
            if let Some(path) = sol.path {
                println!("solution {} ({dead} cases refuted)", path.to_moves());
                found += 1;
                if found >= want {
                    return;
                }
                still.push(n);
                continue;
            }
            if what == "?" {
                still.push(n);
            } else {
                dead += 1;
            }
        }
        open = still;
        budget *= 2;
    }
    println!(
        "no solution found: {dead} cases refuted, {} open, {:.3} s",
        open.len(),
        t0.elapsed().as_secs_f64()
    );
}

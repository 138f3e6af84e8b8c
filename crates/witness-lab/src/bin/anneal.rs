//! The local search alone on one puzzle: `anneal FILE [MOVES] [SEED]
//! [DISTINCT]` prints the moves and time to a solution (or that it found
//! none); with DISTINCT above 1, it goes on to that many distinct
//! solutions (as a count does) and prints the work and time at each.

use witness::internals::{local::Anneal, plan::Plan};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: anneal FILE [MOVES] [SEED] [DISTINCT]");
    let budget: u64 = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let seed: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(1);
    let distinct: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let plan = Plan::new(&p).expect("plan");
    let Some(mut a) = Anneal::new(&plan, seed) else {
        println!("not handled");
        return;
    };
    // The fits' step cap, as in the solver.
    a.set_limits(&witness::Limits::none());
    let t = std::time::Instant::now();
    if distinct > 1 {
        let mut seen = std::collections::HashSet::new();
        let mut reports = 0;
        while seen.len() < distinct && a.moves < budget {
            if let Some((start, _, moves)) = a.run(256) {
                reports += 1;
                if seen.insert((start, moves)) {
                    println!(
                        "distinct solution {} at work {} ({reports} reported), {:.1} ms",
                        seen.len(),
                        a.work(),
                        t.elapsed().as_secs_f64() * 1e3
                    );
                }
            }
        }
        return;
    }
    let found = a.run(budget);
    let ms = t.elapsed().as_secs_f64() * 1e3;
    let ns = ms * 1e6 / a.moves.max(1) as f64;
    let (hits, misses) = (a.memo().hits, a.memo().misses);
    println!(
        "regions judged: {hits} from the memo, {misses} afresh ({:.1}% from the memo)",
        100.0 * hits as f64 / (hits + misses).max(1) as f64
    );
    println!(
        "regions kept by the flood from the cover before: {} of {}; paths turned down before judged whole: {} of {}",
        a.memo().kept,
        a.memo().found,
        a.cut_short,
        a.judged
    );
    println!(
        "exchanges between replicas: {} of {} tried",
        a.exchanges.1, a.exchanges.0
    );
    match found {
        Some((start, _, moves)) => {
            let path = witness::Path::new(plan.rules.board.pos(start), moves);
            let ok = witness::check(&p, &path).map(|v| v.valid);
            println!(
                "solved after {} moves, {} judged, {} walked, work {} in {ms:.1} ms ({ns:.0} ns/move), valid {ok:?}: {}",
                a.moves,
                a.judged,
                a.walked,
                a.work(),
                path.to_moves()
            );
        }
        None => println!(
            "none after {} moves, {} judged in {ms:.1} ms ({ns:.0} ns/move)",
            a.moves, a.judged
        ),
    }
}

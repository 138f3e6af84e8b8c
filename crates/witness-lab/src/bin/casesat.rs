//! Whether the SAT engine settles an elimination case the search finds
//! slow: `cargo run --release -p witness-lab --bin casesat FILE.json [CASES] [BUDGET] [SAT_MS]`
//! takes the first CASES cases of the puzzle in FILE.json (default 8, in
//! the order of [`witness::internals::mark_cases`]), rebuilds each as a
//! puzzle without marks (a mark and what it erases become two stars of a
//! colour of their own; an erased dot goes), and prints the search's
//! nodes in the engine's order (up to BUDGET, default 1,000,000; `solved`,
//! `none` or `open`) and the SAT engine's verdict on the case (up to
//! SAT_MS ms, default 2,000) with its time. `CASESAT_DUMP=PREFIX` also
//! writes each case as witnesspuzzles JSON to `PREFIX<case>.json`.

use std::time::Instant;
use witness::internals::{
    board::Sym,
    mark_cases::{case_boards, MAX_CASES},
    plan::{Masks, Plan},
    search::{Found, Search},
};
use witness::model::{Color, Dot, Symbol, SymbolKind};
use witness::{Limits, Rules};

fn search<const N: usize>(plan: &Plan, cap: u64) -> (&'static str, u64) {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none().with_max_nodes(cap);
    let mut s = Search::<N>::new(plan, &masks, &limits);
    let mut found = false;
    s.run_all(&mut |_: &Found| {
        found = true;
        false
    });
    let what = if found {
        "solved"
    } else if s.stopped {
        "open"
    } else {
        "none"
    };
    (what, s.visited)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: casesat FILE.json [CASES] [BUDGET] [SAT_MS]");
    let k: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(8);
    let cap: u64 = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let ms: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(2000);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let plan = Plan::new(&p).expect("plan");
    let b0 = &plan.rules.board;
    let boards = case_boards(b0, MAX_CASES).expect("a puzzle with cases");
    for (n, b) in boards.into_iter().take(k).enumerate() {
        let mut q = p.clone();
        for i in 0..b.len() {
            if (b0.sym[i], b0.color[i], b0.dot[i]) == (b.sym[i], b.color[i], b.dot[i]) {
                continue;
            }
            let cell = q.cell_mut(b0.pos(i));
            if b.dot[i] == Dot::None {
                cell.dot = Dot::None;
            }
            match b.sym[i] {
                Sym::Empty => cell.symbol = None,
                Sym::Star => {
                    cell.symbol = Some(Symbol::new(
                        SymbolKind::Star,
                        Color::Other(format!("case{}", b.color[i])),
                    ))
                }
                _ => {}
            }
        }
        if let Ok(prefix) = std::env::var("CASESAT_DUMP") {
            let json = witness::formats::wpjson::to_string(&q).expect("a case writes");
            std::fs::write(format!("{prefix}{n}.json"), json).expect("a writable file");
        }
        let cp = Plan::from_rules(Rules::from_board(b), plan.undirected);
        let t0 = Instant::now();
        let (what, nodes) = match cp.nodes() {
            0..=64 => search::<1>(&cp, cap),
            65..=128 => search::<2>(&cp, cap),
            129..=512 => search::<8>(&cp, cap),
            _ => search::<16>(&cp, cap),
        };
        let ts = t0.elapsed().as_secs_f64();
        let (sat, secs) = witness_lab::sat_verdict(&q, ms);
        println!("case {n}: search {what} {nodes} nodes {ts:.3} s | SAT {sat} {secs:.3} s");
    }
}

//! One branch of a puzzle's search, alone, with every test at full
//! strength, and by the SAT engine: `cargo run --release -p witness-lab
//! --bin branch FILE PATH [CAP] [SAT_MS]` searches the subtree below PATH
//! (a move string such as `6,8:U2R2`, from a start of the puzzle; its
//! last slot is the subtree's root) in the engine's order, up to CAP
//! nodes (default 10,000,000), once with the tests on their budgets and
//! once at full strength (`Search::set_full_tests`), and prints for each
//! whether the tests cut the root itself, the subtree's nodes, whether a
//! solution lies below, and its cuts by test (the indices of
//! `search::inspect::CUTS`; counted only when built with `--features
//! pack-stats`, else zeros). Then the SAT engine's verdict on the puzzle
//! with a dot on every slot of the branch, up to SAT_MS ms (default
//! 3,000; 0 skips it): any completion of the branch covers them all, so
//! "dead" there proves the branch dead; "live" proves nothing (the line
//! may pass those slots in another order). It also prints the plan's
//! must-pass nodes. Where `subtrees` needs a first solution to find the
//! dead branches, this takes a branch named by hand: the path a stuck
//! search is on (`trace`), or the first moves of an elimination case
//! written as a puzzle (`casesat` with `CASESAT_DUMP`).

use witness::internals::{
    board::NONE,
    plan::{Masks, Plan},
    search::Search,
};
use witness::model::Direction;
use witness::Limits;

fn branch<const N: usize>(plan: &Plan, start: usize, moves: &[Direction], cap: u64, full: bool) {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none().with_max_nodes(cap);
    let mut s = Search::<N>::new(plan, &masks, &limits);
    if full {
        s.set_full_tests(1 << 16, 1 << 20);
    }
    let judged = s.judge(start, moves);
    let (found, secs, cuts) = witness_lab::run_subtree(&mut s, start, moves);
    println!(
        "{}: root cut {:?}, {} nodes{}, {}, {:.3} s",
        if full { "full" } else { "alone" },
        judged.map(|j| !j),
        s.visited,
        if s.visited >= cap { " (cap)" } else { "" },
        if found {
            "solution below"
        } else {
            "no solution met"
        },
        secs
    );
    println!("  cuts by test {cuts:?}");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: branch FILE PATH [CAP] [SAT_MS]";
    let file = args.next().expect(usage);
    let text = args.next().expect(usage);
    let cap: u64 = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000_000);
    let ms: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(3000);
    let p = witness::formats::read_puzzle(&std::fs::read_to_string(&file).expect("file"), None)
        .expect("puzzle");
    let plan = Plan::new(&p).expect("plan");
    let path = witness::Path::parse_on(&text, &p).expect("a move string");
    let b = &plan.rules.board;
    let must: Vec<String> = plan
        .must_pass
        .iter()
        .map(|&v| {
            let q = b.pos(v as usize);
            format!("{},{}", q.x, q.y)
        })
        .collect();
    println!("must-pass nodes: {}", must.join(" "));
    let start = (0..b.len())
        .find(|&i| b.pos(i) == path.start)
        .expect("the path's start on the board");
    assert!(
        plan.starts.contains(&(start as u32)),
        "the path must begin at a start of the puzzle"
    );
    let mut slots = vec![start];
    for &d in &path.moves {
        let next = b.nbr[*slots.last().expect("a start")][d as usize];
        assert!(next != NONE, "the path leaves the board");
        slots.push(next as usize);
    }
    for full in [false, true] {
        match plan.nodes() {
            0..=64 => branch::<1>(&plan, start, &path.moves, cap, full),
            65..=128 => branch::<2>(&plan, start, &path.moves, cap, full),
            129..=512 => branch::<8>(&plan, start, &path.moves, cap, full),
            _ => branch::<16>(&plan, start, &path.moves, cap, full),
        }
    }
    if ms > 0 {
        let (verdict, secs) = witness_lab::sat_verdict(&witness_lab::dotted(&p, &plan, &slots), ms);
        println!("SAT with a dot on every slot of the branch: {verdict}, {secs:.3} s");
    }
}

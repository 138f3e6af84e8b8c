//! Each elimination case of a puzzle searched alone:
//! `cargo run --release -p witness-lab --bin cases FILE [BUDGET] [MAX_CASES]`
//! splits the puzzle into its cases ([`witness::internals::mark_cases`]; at most
//! `MAX_CASES`, default the solver's cap) and searches each in the
//! engine's order for up to `BUDGET` nodes (default 1,000,000). One line
//! per case: what changed (`x:y:kind`, `M` for a mark), then `solved`
//! (a case solution the puzzle's rules accept), `none` (searched to the
//! end without one) or `open` (out of budget), its nodes and its case
//! solutions. `CASES_ONLY=3,17` searches only those cases; `CASES_WORK=1`
//! starts each line with the work the budget counted (`work N`: nodes
//! and polyomino fit steps, as the turns count them); `TRACE_EVERY=N` searches in slices of N and prints the path
//! each slice stopped on. `CASES_ORDER=DULR` searches in that move order
//! (letters L, R, U, D) instead of the engine's, and `CASES_START=K`
//! begins with start K of the plan's starts (default 0).

use witness::internals::{
    board::{Board, Sym},
    mark_cases::{case_boards, MAX_CASES},
    plan::{Masks, Plan},
    search::{Found, Search},
};
use witness::model::{Direction, Puzzle};
use witness::{Limits, Path, Rules};

/// The outcome of one case's search, its nodes and its case solutions.
fn run<const N: usize>(
    plan: &Plan,
    rules: &Rules,
    p: &Puzzle,
    cap: u64,
) -> (&'static str, u64, u32) {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    if let Some(order) = order() {
        let first = std::env::var("CASES_START")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        s.set_order(order, first);
    }
    // TRACE_EVERY=N: search in slices of N nodes and print where each
    // slice stopped (the path the search was on).
    let every: Option<u64> = std::env::var("TRACE_EVERY")
        .ok()
        .and_then(|v| v.parse().ok());
    let (mut solved, mut found) = (false, 0);
    let mut left = cap;
    loop {
        let slice = every.unwrap_or(cap).min(left);
        s.set_budget(Some(slice));
        s.run_all(&mut |f: &Found| {
            found += 1;
            let path = Path::new(plan.rules.board.pos(f.start), f.moves.to_vec());
            solved = rules.check_path(p, &path).is_ok_and(|v| v.valid);
            !solved
        });
        left = left.saturating_sub(slice);
        if !s.out_of_budget || left == 0 {
            break;
        }
        let r = s
            .take_resume()
            .expect("a stopped run leaves a resume point");
        let start = plan.rules.board.pos(plan.starts[r.k] as usize);
        println!("  at {}: {}", s.visited, Path::new(start, r.moves.clone()));
        s.set_resume(Some(r));
    }
    let outcome = if solved {
        "solved"
    } else if s.out_of_budget {
        "open"
    } else {
        "none"
    };
    if std::env::var("CASES_WORK").is_ok() {
        print!("work {} ", s.work());
    }
    (outcome, s.visited, found)
}

/// The move order `CASES_ORDER` names (four letters of L, R, U, D, each
/// once), if set.
fn order() -> Option<[Direction; 4]> {
    let text = std::env::var("CASES_ORDER").ok()?;
    let dirs: Vec<Direction> = text
        .chars()
        .map(|c| match c {
            'L' => Direction::Left,
            'R' => Direction::Right,
            'U' => Direction::Up,
            'D' => Direction::Down,
            _ => panic!("CASES_ORDER: {c} is not one of L, R, U, D"),
        })
        .collect();
    let order: [Direction; 4] = dirs
        .try_into()
        .unwrap_or_else(|_| panic!("CASES_ORDER: four letters"));
    assert!(
        Direction::ALL.iter().all(|d| order.contains(d)),
        "CASES_ORDER: each of L, R, U, D once"
    );
    Some(order)
}

/// The slots a case changed, as `x:y:kind`.
fn changes(puzzle: &Board, case: &Board) -> String {
    let kind = |s: Sym| match s {
        Sym::Nega => "M".to_string(),
        Sym::Empty => "dot".to_string(),
        s => format!("{s:?}")
            .chars()
            .take_while(|c| c.is_alphabetic())
            .collect(),
    };
    (0..puzzle.len())
        .filter(|&i| {
            (puzzle.sym[i], puzzle.color[i], puzzle.dot[i])
                != (case.sym[i], case.color[i], case.dot[i])
        })
        .map(|i| {
            let at = puzzle.pos(i);
            format!("{}:{}:{}", at.x, at.y, kind(puzzle.sym[i]))
        })
        .collect::<Vec<_>>()
        .join(",")
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("usage: cases FILE [BUDGET] [MAX_CASES]");
    let cap: u64 = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let max: usize = args
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or(MAX_CASES);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let plan = Plan::new(&p).expect("plan");
    let rules = Rules::new(&p).expect("rules");
    let Some(boards) = case_boards(&plan.rules.board, max) else {
        println!("no cases (no marks, or more than {max} cases)");
        return;
    };
    println!("{} cases", boards.len());
    let mut total = 0;
    // CASES_ONLY=3,17: only those cases.
    let only: Option<Vec<usize>> = std::env::var("CASES_ONLY")
        .ok()
        .map(|v| v.split(',').filter_map(|k| k.trim().parse().ok()).collect());
    for (k, b) in boards.into_iter().enumerate() {
        if only.as_ref().is_some_and(|o| !o.contains(&k)) {
            continue;
        }
        let what = changes(&plan.rules.board, &b);
        let cp = Plan::from_rules(Rules::from_board(b), plan.undirected);
        let t = std::time::Instant::now();
        let (outcome, nodes, found) = match cp.nodes() {
            0..=64 => run::<1>(&cp, &rules, &p, cap),
            65..=128 => run::<2>(&cp, &rules, &p, cap),
            129..=512 => run::<8>(&cp, &rules, &p, cap),
            _ => run::<16>(&cp, &rules, &p, cap),
        };
        total += nodes;
        println!(
            "case {k} {what}: {outcome}, {nodes} nodes, {found} case solutions, {:.1} ms",
            t.elapsed().as_secs_f64() * 1e3
        );
    }
    println!("total {total} nodes");
}

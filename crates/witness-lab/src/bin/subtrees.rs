//! Where a search to a first solution spends its nodes, and what could
//! have cut it sooner:
//! `cargo run --release -p witness-lab --bin subtrees FILE.jsonl ID [options]`
//! searches puzzle ID of FILE.jsonl in one lane (`--order K`, 0 to 2 as
//! in `lanes`, and `--reversed`) to its first solution, up to `--cap`
//! nodes (default 20,000,000), and attributes every node visited to the
//! dead subtree it lies in: the depth (in slots) at which its branch
//! leaves the solution's. It prints the largest of those forks (`--top`,
//! default 12) and, for the dead children of the largest few
//! (`--roots`, default 4): the subtree's nodes as the search met it alone
//! (the tests on their budgets) and with every test at full strength
//! (no budgets, packing searches of up to `--pack-steps` steps, default
//! 65,536), whether the tests cut the root itself either way, and whether
//! the SAT engine finds the puzzle unsolvable with a dot on every slot of
//! the root's branch (any completion of the branch covers them all, so
//! "no solution" there proves the root dead; up to `--sat-ms` ms, default
//! 3,000; 0 skips it), and the subtree's depths (in slots, from its root
//! to the deepest node) and its cuts by test (the indices of
//! `search::inspect::CUTS`; counted only when built with
//! `--features pack-stats`, else zeros). Finally the whole lane with
//! every test at full strength.

use std::time::Instant;
use witness::internals::{
    plan::{Masks, Plan},
    reverse,
    search::{Found, Search},
};
use witness::model::{Direction, Puzzle};
use witness::Limits;

/// The lane's settings.
struct Lane {
    order: [Direction; 4],
    share: (usize, usize),
    cap: u64,
    pack_steps: u32,
    top: usize,
    roots: usize,
    sat_ms: u64,
}

/// A first solution: start, moves, and the visit count at which each of
/// its nodes was entered; with the whole run's nodes and time.
struct First {
    start: usize,
    moves: Vec<Direction>,
    entered: Vec<u64>,
    nodes: u64,
    secs: f64,
}

fn first<const N: usize>(plan: &Plan, lane: &Lane, full: bool) -> Option<First> {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none().with_max_nodes(lane.cap);
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_order(lane.order, plan.starts.len() * lane.share.0 / lane.share.1);
    s.set_trail(true);
    if full {
        s.set_full_tests(lane.pack_steps, 1 << 20);
    }
    let t0 = Instant::now();
    let mut out = None;
    let mut trail = Vec::new();
    s.run_all(&mut |f: &Found| {
        out = Some((f.start, f.moves.to_vec()));
        false
    });
    trail.extend_from_slice(s.trail());
    let secs = t0.elapsed().as_secs_f64();
    let (start, moves) = out?;
    trail.truncate(moves.len() + 1);
    Some(First {
        start,
        moves,
        entered: trail,
        nodes: s.visited,
        secs,
    })
}

/// The nodes of the subtree at `prefix` from `start`, searched to its end
/// (or the cap), its time, and whether a solution was met there.
fn subtree<const N: usize>(
    plan: &Plan,
    lane: &Lane,
    start: usize,
    prefix: &[Direction],
    full: bool,
) -> (u64, f64, bool, Option<bool>) {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none().with_max_nodes(lane.cap);
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_order(lane.order, 0);
    if full {
        s.set_full_tests(lane.pack_steps, 1 << 20);
    }
    let mut to_node = prefix.to_vec();
    to_node.push(*prefix.last().expect("a root below the start"));
    let judged = s.judge(start, &to_node);
    s.set_trail(true);
    let (found, secs, cuts) = witness_lab::run_subtree(&mut s, start, prefix);
    println!(
        "    {} depth {}..{} cuts {:?}",
        if full { "full" } else { "alone" },
        prefix.len(),
        s.trail().len(),
        cuts
    );
    (s.visited, secs, found, judged)
}

/// The slots of the branch `prefix` from `start`.
fn slots(plan: &Plan, start: usize, prefix: &[Direction]) -> Vec<usize> {
    let b = &plan.rules.board;
    let mut path = vec![start];
    for &d in prefix {
        path.push(b.nbr[*path.last().unwrap()][d as usize] as usize);
    }
    path
}

/// Whether move `d` from the end of `path` is open (on the board, allowed,
/// enterable and not yet covered).
fn open(plan: &Plan, path: &[usize], d: Direction) -> bool {
    let b = &plan.rules.board;
    let q = *path.last().unwrap();
    let r = b.nbr[q][d as usize];
    plan.moves_at[q] & (1 << d as usize) != 0
        && r != u32::MAX
        && plan.enterable[r as usize]
        && !path.contains(&(r as usize))
}

fn run<const N: usize>(puzzle: &Puzzle, plan: &Plan, lane: &Lane) {
    let Some(sol) = first::<N>(plan, lane, false) else {
        println!("no solution within {} nodes", lane.cap);
        return;
    };
    println!(
        "first solution at {} nodes, {:.3} s, {} moves",
        sol.nodes,
        sol.secs,
        sol.moves.len()
    );
    let e = &sol.entered;
    let mut forks: Vec<(usize, u64)> = (0..sol.moves.len())
        .map(|d| (d, e[d + 1] - e[d] - 1))
        .collect();
    forks.sort_by_key(|&(d, n)| (std::cmp::Reverse(n), d));
    let total = sol.nodes.max(1) as f64;
    let mut cum = 0;
    println!("largest dead subtrees (fork depth: nodes, share, cumulative):");
    for &(d, n) in forks.iter().take(lane.top) {
        cum += n;
        println!(
            "  {d:4}: {n:10} {:5.1}% {:5.1}%",
            100.0 * n as f64 / total,
            100.0 * cum as f64 / total
        );
    }
    for &(d, n) in forks.iter().take(lane.roots) {
        if n == 0 {
            break;
        }
        let path = slots(plan, sol.start, &sol.moves[..d]);
        let taken = sol.moves[d];
        for c in lane.order {
            if c == taken {
                break;
            }
            if !open(plan, &path, c) {
                continue;
            }
            let mut prefix = sol.moves[..d].to_vec();
            prefix.push(c);
            let (n0, t0, f0, j0) = subtree::<N>(plan, lane, sol.start, &prefix, false);
            let (n1, t1, f1, j1) = subtree::<N>(plan, lane, sol.start, &prefix, true);
            let (sat, ts) = if lane.sat_ms > 0 {
                witness_lab::sat_verdict(
                    &witness_lab::dotted(puzzle, plan, &slots(plan, sol.start, &prefix)),
                    lane.sat_ms,
                )
            } else {
                ("-".to_string(), 0.0)
            };
            println!(
                "  root {d}+{c:?}: alone {n0} nodes {t0:.3} s{} root cut {:?} | full {n1} nodes {t1:.3} s{} root cut {:?} | SAT {sat} {ts:.3} s",
                if f0 { " (solution!)" } else { "" },
                j0.map(|j| !j),
                if f1 { " (solution!)" } else { "" },
                j1.map(|j| !j),
            );
        }
    }
    match first::<N>(plan, lane, true) {
        Some(f) => println!(
            "full-strength tests: first solution at {} nodes, {:.3} s",
            f.nodes, f.secs
        ),
        None => println!("full-strength tests: none within {} nodes", lane.cap),
    }
}

fn main() {
    use Direction::*;
    let (files, given) = witness_lab::files_and_options(&[
        "--order",
        "--cap",
        "--top",
        "--roots",
        "--sat-ms",
        "--pack-steps",
    ]);
    let reversed = files.iter().any(|f| f == "--reversed");
    let files: Vec<&String> = files.iter().filter(|f| *f != "--reversed").collect();
    let usage = "usage: subtrees FILE.jsonl ID [--order K] [--reversed] [--cap N] ...";
    let (file, id) = (files.first().expect(usage), files.get(1).expect(usage));
    let orders = [
        (Direction::ALL, (0, 1)),
        ([Down, Up, Left, Right], (1, 2)),
        ([Up, Right, Left, Down], (1, 3)),
    ];
    let k: usize = witness_lab::option(&given, "--order").unwrap_or(0);
    let (order, share) = orders[k.min(2)];
    let lane = Lane {
        order,
        share,
        cap: witness_lab::option(&given, "--cap").unwrap_or(20_000_000),
        pack_steps: witness_lab::option(&given, "--pack-steps").unwrap_or(1 << 16),
        top: witness_lab::option(&given, "--top").unwrap_or(12),
        roots: witness_lab::option(&given, "--roots").unwrap_or(4),
        sat_ms: witness_lab::option(&given, "--sat-ms").unwrap_or(3000),
    };
    let (_, puzzle) = witness_lab::corpus(file)
        .into_iter()
        .find(|(i, _)| i == *id)
        .expect("no such id in the file");
    let plan = Plan::new(&puzzle).expect("plan");
    let plan = if reversed {
        reverse::reversed(&plan).expect("the puzzle has no reversal")
    } else {
        plan
    };
    match plan.nodes() {
        0..=64 => run::<1>(&puzzle, &plan, &lane),
        65..=128 => run::<2>(&puzzle, &plan, &lane),
        129..=512 => run::<8>(&puzzle, &plan, &lane),
        _ => run::<16>(&puzzle, &plan, &lane),
    }
}

//! Whether the local search can rank the elimination cases:
//! `case_prior FILE.jsonl [CAP] [MOVES,...]` takes every puzzle of the
//! file with elimination cases ([`witness::internals::mark_cases`], at
//! most the solver's cap) that the local search handles, runs the local
//! search (seed `PRIOR_SEED`, default 1) and, at each move count of `MOVES` (default
//! `2000,10000,50000`), weighs every element by how often it fails on the
//! replicas' paths sampled so far (after every move, each path weighted
//! by `exp(-cost)`, its cost in failing elements; paths that fail nothing
//! are left out). A case's prior is the sum, over what its marks erase,
//! of the log of that share (the likeliest dots when a case drops every
//! dot; a mark that cancels another, or erases nothing the search saw
//! fail, counts a share of one in a million). A case is solvable when its
//! search alone in the engine's order reaches a solution the puzzle's
//! rules accept within `CAP` nodes (default 3,000), as `cases` searches
//! it. One line per puzzle: id, cases, the rank (from 1) of the first
//! solvable case nearest first (the solver's order) and, per move count,
//! under the prior (ties nearest first) and alternating, or `-` when
//! no case is solvable within `CAP`; then per move count how many puzzles the prior ranks
//! better, worse and the same, and the geometric mean of the ratio of
//! the ranks (prior over nearest first); the same for the two orders
//! taken in turn (`alternating`: nearest first, then the prior's first,
//! each case once), which is never worse than twice either.
//! With `PRIOR_BY=pairs` the prior counts uses instead of failures: every
//! `PRIOR_EVERY` moves (default 50) each replica's path that fails
//! something is judged in full, and each (mark, erased element) pair of
//! its verdict (the validator's choice of what each mark erases) is
//! weighted by `exp(-cost)`; a case's prior is the sum over its marks
//! of the log share of that mark's use in the case, and `PRIOR_BLEND=L`
//! adds `-L ln(r + 2)` for the case of rank `r` (from 0) nearest first,
//! the log of the solver's share by rank to the power `L`.

use std::collections::HashMap;
use witness::internals::{
    board::{Board, Sym},
    local::Anneal,
    mark_cases::{case_boards, MAX_CASES},
    plan::{Masks, Plan},
    search::{Found, Search},
};
use witness::model::Puzzle;
use witness::{Limits, Path, Rules};

/// Whether the case `plan` alone reaches a solution of `p` within `cap`
/// nodes.
fn solvable<const N: usize>(plan: &Plan, rules: &Rules, p: &Puzzle, cap: u64) -> bool {
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    s.set_budget(Some(cap));
    let mut solved = false;
    s.run_all(&mut |f: &Found| {
        let path = Path::new(plan.rules.board.pos(f.start), f.moves.to_vec());
        solved = rules.check_path(p, &path).is_ok_and(|v| v.valid);
        !solved
    });
    solved
}

/// The slots other than marks that a case changed: what its marks erase.
fn erased(puzzle: &Board, case: &Board) -> Vec<usize> {
    (0..puzzle.len())
        .filter(|&i| puzzle.sym[i] != Sym::Nega)
        .filter(|&i| {
            (puzzle.sym[i], puzzle.color[i], puzzle.dot[i])
                != (case.sym[i], case.color[i], case.dot[i])
        })
        .collect()
}

/// What each mark of the puzzle uses up in a case: the mark's slot and
/// the slots it may erase (its partner of a fresh colour, or the dots the
/// case drops when the mark erases a dot).
fn uses(puzzle: &Board, case: &Board) -> Vec<(usize, Vec<usize>)> {
    let fresh = |i: usize| case.sym[i] == Sym::Star && case.color[i] as usize >= puzzle.n_colors;
    (0..puzzle.len())
        .filter(|&m| puzzle.sym[m] == Sym::Nega)
        .map(|m| {
            let partners = if fresh(m) {
                (0..puzzle.len())
                    .filter(|&i| i != m && fresh(i) && case.color[i] == case.color[m])
                    .collect()
            } else {
                (0..puzzle.len())
                    .filter(|&i| puzzle.dot[i] != case.dot[i])
                    .collect()
            };
            (m, partners)
        })
        .collect()
}

/// A case's prior from the shares of (mark, erased) pairs: per mark,
/// the log share of its likeliest use in the case ([`FLOOR`] at least).
fn pair_prior(uses: &[(usize, Vec<usize>)], share: &HashMap<(usize, usize), f64>) -> f64 {
    uses.iter()
        .map(|(m, partners)| {
            partners
                .iter()
                .map(|&e| share.get(&(*m, e)).copied().unwrap_or(0.0).max(FLOOR).ln())
                .fold(FLOOR.ln(), f64::max)
        })
        .sum()
}

/// The share of one in a million given to what the search never saw fail.
const FLOOR: f64 = 1e-6;

/// A case's prior: the log shares of the `marks` likeliest of what it
/// erases, and [`FLOOR`] for each mark beyond them.
fn prior(erases: &[usize], share: &[f64], marks: usize) -> f64 {
    let mut logs: Vec<f64> = erases.iter().map(|&e| share[e].max(FLOOR).ln()).collect();
    logs.sort_by(|a, b| b.total_cmp(a));
    logs.resize(marks, FLOOR.ln());
    logs.iter().take(marks).sum()
}

/// The cases of `a` and `b` taken in turn, each once (at its first
/// place in either).
fn alternate(a: &[usize], b: &[usize]) -> Vec<usize> {
    let mut listed = vec![false; a.len()];
    let mut out = Vec::with_capacity(a.len());
    for (&x, &y) in a.iter().zip(b) {
        for k in [x, y] {
            if !std::mem::replace(&mut listed[k], true) {
                out.push(k);
            }
        }
    }
    out
}

/// The rank (from 1) of the first solvable case in `order`, asking
/// `verdict` (remembered in `known`).
fn first_rank(
    order: &[usize],
    known: &mut [Option<bool>],
    verdict: &mut impl FnMut(usize) -> bool,
) -> Option<usize> {
    for (r, &k) in order.iter().enumerate() {
        let v = *known[k].get_or_insert_with(|| verdict(k));
        if v {
            return Some(r + 1);
        }
    }
    None
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: case_prior FILE.jsonl [CAP] [MOVES,...]");
    let cap: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(3_000);
    let checkpoints: Vec<u64> = args
        .next()
        .map(|v| v.split(',').filter_map(|m| m.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![2_000, 10_000, 50_000]);
    let mut better = vec![0usize; checkpoints.len()];
    let mut worse = vec![0usize; checkpoints.len()];
    let mut same = vec![0usize; checkpoints.len()];
    let mut log_ratio = vec![0f64; checkpoints.len()];
    let mut alt_better = vec![0usize; checkpoints.len()];
    let mut alt_worse = vec![0usize; checkpoints.len()];
    let mut alt_log_ratio = vec![0f64; checkpoints.len()];
    let seed: u64 = std::env::var("PRIOR_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let by_pairs = std::env::var("PRIOR_BY").is_ok_and(|v| v == "pairs");
    let every: u64 = std::env::var("PRIOR_EVERY")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let blend: f64 = std::env::var("PRIOR_BLEND")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    let (mut measured, mut unsettled) = (0usize, 0usize);
    for (id, p) in witness_lab::corpus(&file) {
        let (Ok(plan), Ok(rules)) = (Plan::new(&p), Rules::new(&p)) else {
            continue;
        };
        let Some(mut anneal) = Anneal::new(&plan, seed) else {
            continue;
        };
        let b = &plan.rules.board;
        let Some(boards) = case_boards(b, MAX_CASES) else {
            continue;
        };
        let marks = (0..b.len()).filter(|&i| b.sym[i] == Sym::Nega).count();
        let erases: Vec<Vec<usize>> = boards.iter().map(|c| erased(b, c)).collect();
        let case_uses: Vec<Vec<(usize, Vec<usize>)>> = boards.iter().map(|c| uses(b, c)).collect();
        let mut pairs: HashMap<(usize, usize), f64> = HashMap::new();
        let mut known = vec![None; boards.len()];
        let mut verdict = |k: usize| {
            let cp = Plan::from_rules(Rules::from_board(boards[k].clone()), plan.undirected);
            match cp.nodes() {
                0..=64 => solvable::<1>(&cp, &rules, &p, cap),
                65..=128 => solvable::<2>(&cp, &rules, &p, cap),
                129..=512 => solvable::<8>(&cp, &rules, &p, cap),
                _ => solvable::<16>(&cp, &rules, &p, cap),
            }
        };
        let nearest: Vec<usize> = (0..boards.len()).collect();
        let Some(near_rank) = first_rank(&nearest, &mut known, &mut verdict) else {
            unsettled += 1;
            println!("{id} {} cases: -", boards.len());
            continue;
        };
        measured += 1;
        anneal.set_limits(&Limits::none());
        let (mut weight, mut fails) = (0f64, vec![0f64; b.len()]);
        let mut seen = vec![false; b.len()];
        let mut line = format!("{id} {} cases: nearest {near_rank}", boards.len());
        for (c, &k) in checkpoints.iter().enumerate() {
            while anneal.moves < k {
                anneal.run(1);
                if by_pairs {
                    if anneal.moves % every == 0 {
                        for (cost, (start, _, moves)) in anneal.replica_paths() {
                            let path = Path::new(b.pos(start), moves);
                            let Ok(v) = rules.check_path(&p, &path) else {
                                continue;
                            };
                            if cost == 0.0 || v.valid {
                                continue;
                            }
                            let w = (-cost).exp();
                            weight += w;
                            for (m, e) in v.negations {
                                let key = (b.index(m.x, m.y), b.index(e.x, e.y));
                                *pairs.entry(key).or_default() += w;
                            }
                        }
                    }
                    continue;
                }
                for (cost, slots) in anneal.replica_fails() {
                    if slots.is_empty() {
                        continue;
                    }
                    let w = (-cost).exp();
                    weight += w;
                    for &s in slots {
                        let s = s as usize;
                        if !seen[s] {
                            seen[s] = true;
                            fails[s] += w;
                        }
                    }
                    slots.iter().for_each(|&s| seen[s as usize] = false);
                }
            }
            let share: Vec<f64> = fails
                .iter()
                .map(|f| if weight > 0.0 { f / weight } else { 0.0 })
                .collect();
            let scores: Vec<f64> = if by_pairs {
                let share: HashMap<(usize, usize), f64> = pairs
                    .iter()
                    .map(|(&k, &f)| (k, f / weight.max(f64::MIN_POSITIVE)))
                    .collect();
                case_uses
                    .iter()
                    .enumerate()
                    .map(|(r, u)| pair_prior(u, &share) - blend * ((r + 2) as f64).ln())
                    .collect()
            } else {
                erases.iter().map(|e| prior(e, &share, marks)).collect()
            };
            let mut order = nearest.clone();
            order.sort_by(|&x, &y| scores[y].total_cmp(&scores[x]).then(x.cmp(&y)));
            let rank = first_rank(&order, &mut known, &mut verdict).expect("a solvable case");
            let mixed = first_rank(&alternate(&nearest, &order), &mut known, &mut verdict)
                .expect("a solvable case");
            line += &format!(", {k} moves {rank} alternating {mixed}");
            match mixed.cmp(&near_rank) {
                std::cmp::Ordering::Less => alt_better[c] += 1,
                std::cmp::Ordering::Greater => alt_worse[c] += 1,
                std::cmp::Ordering::Equal => {}
            }
            alt_log_ratio[c] += (mixed as f64 / near_rank as f64).ln();
            match rank.cmp(&near_rank) {
                std::cmp::Ordering::Less => better[c] += 1,
                std::cmp::Ordering::Greater => worse[c] += 1,
                std::cmp::Ordering::Equal => same[c] += 1,
            }
            log_ratio[c] += (rank as f64 / near_rank as f64).ln();
        }
        println!("{line}");
    }
    println!("{measured} puzzles with a solvable case within {cap} nodes, {unsettled} without");
    for (c, k) in checkpoints.iter().enumerate() {
        println!(
            "{k} moves: prior better on {}, worse on {}, same on {}; geometric mean rank ratio {:.3}",
            better[c],
            worse[c],
            same[c],
            (log_ratio[c] / measured.max(1) as f64).exp()
        );
        println!(
            "{k} moves, alternating: better on {}, worse on {}; geometric mean rank ratio {:.3}",
            alt_better[c],
            alt_worse[c],
            (alt_log_ratio[c] / measured.max(1) as f64).exp()
        );
    }
}

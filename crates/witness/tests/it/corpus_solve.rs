//! Every dev-corpus puzzle (each solved by its author, so each solvable)
//! through the solver: none may be declared unsolvable, and every solution
//! returned must pass the validator. The search has a budget in search
//! nodes, the same on every machine; puzzles that exhaust it are listed, and
//! their number may not grow past the recorded ceiling.

use crate::common;

use std::sync::Mutex;

use rayon::prelude::*;
use witness::formats::wpjson;
use witness::internals::plan::Plan;
use witness::{Limits, Status};

/// Search nodes per puzzle.
const BUDGET: u64 = 2_000_000;
/// Puzzles allowed to exhaust the budget (lower it as the solver improves).
const CEILING: usize = 3;

#[test]
fn every_dev_puzzle_is_solved_and_validated() {
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        return;
    };
    let unsolved = Mutex::new(Vec::new());
    let out_of_budget = Mutex::new(Vec::new());
    let bad = Mutex::new(Vec::new());
    lines.par_iter().for_each(|line| {
        let (id, text) = common::puzzle_of_line(line);
        let puzzle = wpjson::parse(&text).unwrap();
        let plan = Plan::new(&puzzle).unwrap();
        let limits = Limits::none().with_max_nodes(BUDGET);
        let s = witness::internals::solve_plan(&plan, &limits).unwrap();
        match (&s.path, s.status) {
            (Some(p), _) => {
                if !plan.rules.check_path(&puzzle, p).is_ok_and(|v| v.valid) {
                    bad.lock().unwrap().push(id);
                }
            }
            (None, Status::Complete) => unsolved.lock().unwrap().push(id),
            (None, Status::Stopped) => out_of_budget.lock().unwrap().push(id),
        }
    });
    let (unsolved, mut out, bad) = (
        unsolved.into_inner().unwrap(),
        out_of_budget.into_inner().unwrap(),
        bad.into_inner().unwrap(),
    );
    out.sort();
    eprintln!(
        "{} puzzles: {} solved, {} out of budget ({BUDGET} nodes): {}",
        lines.len(),
        lines.len() - unsolved.len() - out.len(),
        out.len(),
        out.join(" ")
    );
    assert!(bad.is_empty(), "solutions failing validation: {bad:?}");
    assert!(unsolved.is_empty(), "declared unsolvable: {unsolved:?}");
    assert!(
        out.len() <= CEILING,
        "{} puzzles exhausted the budget (ceiling {CEILING})",
        out.len()
    );
}

/// On every dev puzzle of at most 3x3 faces, the fast count equals the
/// brute force's (every legal path validated).
#[test]
fn small_dev_puzzles_count_as_brute_force() {
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        return;
    };
    let mut compared = 0;
    for line in &lines {
        let (id, text) = common::puzzle_of_line(line);
        let p = wpjson::parse(&text).unwrap();
        if p.width() * p.height() > 49 {
            continue;
        }
        let mut want = 0u64;
        let st = witness::internals::brute::enumerate(&p, &Limits::none(), |_| {
            want += 1;
            true
        })
        .unwrap();
        assert_eq!(st, Status::Complete);
        let got = common::count_all(&p);
        assert_eq!(got.count, want, "{id}");
        compared += 1;
    }
    assert!(compared > 400, "only {compared} small puzzles");
}

/// The local search (`witness::internals::local`) alone on every dev puzzle with
/// elimination marks that it takes (not symmetric, not undirected), a few
/// thousand moves each: whatever it reports passes the validator, and it
/// solves some of them.
#[test]
fn the_local_search_answers_only_valid_paths_on_marked_dev_puzzles() {
    use witness::internals::local::Anneal;
    use witness::Path;
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        return;
    };
    let taken = std::sync::atomic::AtomicUsize::new(0);
    let solved = Mutex::new(Vec::new());
    lines.par_iter().for_each(|line| {
        let (id, text) = common::puzzle_of_line(line);
        let puzzle = wpjson::parse(&text).unwrap();
        let plan = Plan::new(&puzzle).unwrap();
        if !plan.rules.board.has_negations {
            return;
        }
        let Some(mut a) = Anneal::new(&plan, 1) else {
            return;
        };
        taken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if let Some((start, _, moves)) = a.run(3_000) {
            let path = Path::new(plan.rules.board.pos(start), moves);
            let v = plan.rules.check_path(&puzzle, &path).unwrap();
            assert!(v.valid, "{id}: {} fails", path.to_moves());
            solved.lock().unwrap().push(id);
        }
    });
    let (taken, solved) = (taken.into_inner(), solved.into_inner().unwrap());
    eprintln!(
        "local search: {} of {taken} marked puzzles solved",
        solved.len()
    );
    assert!(
        taken > 300 && solved.len() * 2 > taken,
        "{} of {taken} solved",
        solved.len()
    );
}

/// With more than `FEW_CASES` elimination cases, the nearest get a first
/// look soon after the lanes' first turn, before the cases all join late.
/// 4CWQNS42 (three marks, 138 cases) is settled by one of its nearest
/// cases in a small fraction of the nodes its best lane needs.
#[test]
fn the_nearest_of_many_cases_get_an_early_look() {
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        return;
    };
    let line = lines
        .iter()
        .find(|l| l.contains("\"4CWQNS42\""))
        .expect("4CWQNS42 in the corpus");
    let puzzle = wpjson::parse(&common::puzzle_of_line(line).1).unwrap();
    let plan = Plan::new(&puzzle).unwrap();
    assert!(witness::internals::mark_cases::case_count(&plan)
        .is_some_and(|n| n > witness::internals::mark_cases::FEW_CASES));
    let (s, visited) = witness::internals::solve_plan_stats(&plan, &Limits::none()).unwrap();
    let path = s.path.expect("a solution");
    assert!(plan.rules.check_path(&puzzle, &path).unwrap().valid);
    assert!(visited < 60_000, "{visited} nodes");
}

/// On two threads, a marked panel's second thread runs a local search of
/// its own alone (`portfolio::first_solution_helped`), while the first
/// goes on as one thread would. With a node cap on each side (the same on
/// every machine), every dev puzzle with elimination marks that the
/// local search takes and that the first turn leaves open: two threads
/// answer wherever one thread does (the exact side is the one thread's
/// search, node for node), and some that one thread leaves stopped (the
/// local search's answers), every path passing the validator.
#[test]
fn on_two_threads_the_local_search_answers_marked_panels_the_lanes_leave() {
    use witness::internals::portfolio::helped;
    /// Search nodes per side per puzzle.
    const CAP: u64 = 150_000;
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        return;
    };
    let helped_only = Mutex::new(Vec::new());
    let compared = std::sync::atomic::AtomicUsize::new(0);
    lines.par_iter().for_each(|line| {
        let (id, text) = common::puzzle_of_line(line);
        let puzzle = wpjson::parse(&text).unwrap();
        let plan = Plan::new(&puzzle).unwrap();
        if !helped(&plan) {
            return;
        }
        let limits = Limits::none().with_max_nodes(CAP);
        let (one, visited) = witness::internals::solve_plan_stats(&plan, &limits).unwrap();
        if visited < 30_000 && one.path.is_some() {
            return;
        }
        compared.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let two = witness::internals::solve_plan_threads(&plan, &limits)
            .unwrap()
            .0;
        for (threads, s) in [("one", &one), ("two", &two)] {
            if let Some(p) = &s.path {
                let v = plan.rules.check_path(&puzzle, p).unwrap();
                assert!(
                    v.valid,
                    "{id} on {threads} thread(s): {} fails",
                    p.to_moves()
                );
            }
        }
        assert!(
            two.path.is_some() || one.path.is_none(),
            "{id}: one thread answers, two do not"
        );
        if two.path.is_some() && one.path.is_none() {
            assert_eq!(one.status, Status::Stopped, "{id}: one thread's status");
            helped_only.lock().unwrap().push(id);
        }
    });
    let helped_only = helped_only.into_inner().unwrap();
    eprintln!(
        "answered on two threads only: {helped_only:?} of {} compared",
        compared.into_inner()
    );
    assert!(helped_only.len() >= 2, "{helped_only:?}");
}

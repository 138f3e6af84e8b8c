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

/// The dev corpus's puzzle `id`; `None` without the corpus.
fn dev_puzzle(id: &str) -> Option<witness::Puzzle> {
    let lines = common::corpus_lines("witnesspuzzles-dev.jsonl")?;
    let key = format!("\"{id}\"");
    let line = lines
        .iter()
        .find(|l| l.contains(&key))
        .unwrap_or_else(|| panic!("{id} in the corpus"));
    Some(wpjson::parse(&common::puzzle_of_line(line).1).unwrap())
}

/// With more than `FEW_CASES` elimination cases, the nearest get a first
/// look soon after the lanes' first turn, before the cases all join late.
/// 4CWQNS42 (three marks, 138 cases) is settled by one of its nearest
/// cases in a small fraction of the nodes its best lane needs.
#[test]
fn the_nearest_of_many_cases_get_an_early_look() {
    let Some(puzzle) = dev_puzzle("4CWQNS42") else {
        return;
    };
    let plan = Plan::new(&puzzle).unwrap();
    assert!(witness::internals::mark_cases::case_count(&plan)
        .is_some_and(|n| n > witness::internals::mark_cases::FEW_CASES));
    let (s, visited) = witness::internals::solve_plan_stats(&plan, &Limits::none()).unwrap();
    let path = s.path.expect("a solution");
    assert!(plan.rules.check_path(&puzzle, &path).unwrap().valid);
    assert!(visited < 60_000, "{visited} nodes");
}

/// The one-thread solve of the lanes and cases alone: a schedule whose
/// local search never joins, with a helper or without (under the node
/// caps below, the default's local search beside a helper does not join
/// either, so this is the exact side of a two-thread solve node for
/// node).
fn without_local_search() -> witness::internals::Schedule {
    witness::internals::Schedule {
        anneal_after: u64::MAX,
        anneal_alone_after: u64::MAX,
        ..Default::default()
    }
}

/// Over the dev puzzles with elimination marks that the local search
/// takes and that the first turn leaves open, with a node cap (the same
/// on every machine): the solve `with` and the solve without the local
/// search (`without_local_search`). `with` must answer wherever the
/// other does (its exact side searches the same nodes), every path must
/// pass the validator, and the puzzles only `with` answers (the local
/// search's answers, the other stopped) are returned; `None` without the
/// corpus. At least 20 puzzles must be compared (33 are).
fn marked_answered_only_with(
    cap: u64,
    with: impl Fn(&Plan, &Limits) -> witness::Solution + Sync,
) -> Option<Vec<String>> {
    use witness::internals::portfolio::helped;
    let lines = common::corpus_lines("witnesspuzzles-dev.jsonl")?;
    let only_with = Mutex::new(Vec::new());
    let compared = std::sync::atomic::AtomicUsize::new(0);
    lines.par_iter().for_each(|line| {
        let (id, text) = common::puzzle_of_line(line);
        let puzzle = wpjson::parse(&text).unwrap();
        let plan = Plan::new(&puzzle).unwrap();
        if !helped(&plan) {
            return;
        }
        let limits = Limits::none().with_max_nodes(cap);
        let (one, visited) =
            witness::internals::solve_plan_with(&plan, &limits, &without_local_search()).unwrap();
        if visited < 30_000 && one.path.is_some() {
            return;
        }
        compared.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let two = with(&plan, &limits);
        for (threads, s) in [("without", &one), ("with", &two)] {
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
            "{id}: the lanes and cases answer, the solve with the local search does not"
        );
        if two.path.is_some() && one.path.is_none() {
            assert_eq!(one.status, Status::Stopped, "{id}: the lanes' status");
            only_with.lock().unwrap().push(id);
        }
    });
    let compared = compared.into_inner();
    assert!(compared >= 20, "only {compared} marked puzzles compared");
    Some(only_with.into_inner().unwrap())
}

/// [`marked_answered_only_with`] under a node cap of 150,000: `solve`
/// (`how` it runs) answers at least two marked dev puzzles that the
/// lanes and cases leave stopped.
fn answers_some_the_lanes_leave(
    how: &str,
    solve: impl Fn(&Plan, &Limits) -> witness::Solution + Sync,
) {
    let Some(only) = marked_answered_only_with(150_000, solve) else {
        return;
    };
    eprintln!("answered {how} only: {only:?}");
    assert!(only.len() >= 2, "{only:?}");
}

/// On two threads, a marked panel's second thread runs a local search of
/// its own alone (`portfolio::first_solution_helped`), while the first
/// goes on as one thread with a helper would: with a node cap on each
/// side, two threads answer some marked dev puzzles that the lanes and
/// cases leave stopped.
#[test]
fn on_two_threads_the_local_search_answers_marked_panels_the_lanes_leave() {
    answers_some_the_lanes_leave("on two threads", |plan, limits| {
        witness::internals::solve_plan_threads(plan, limits)
            .unwrap()
            .0
    });
}

/// On one thread with no helper (`CaseShare::alone`), the solve's own
/// local search takes the helper's place, from 40,000 of the lanes'
/// nodes: with the same node cap, the one-thread solve answers some
/// marked dev puzzles that the lanes and cases leave stopped (with the
/// default schedule's local search beside a helper, which joins after
/// 300,000 nodes, it would answer none of them).
#[test]
fn on_one_thread_the_local_search_stands_in_for_the_helper() {
    answers_some_the_lanes_leave("with the local search on one thread", |plan, limits| {
        witness::internals::solve_plan(plan, limits).unwrap()
    });
}

/// `auto` on a marked piece panel with elimination cases where no second
/// thread is to be had (a job of a pool of two threads, as `witness bench`
/// runs puzzles): the pillar panel BN8SJ6KG mirrored left to right, 601
/// cases, which the lanes and cases alone leave unsettled for seconds,
/// gives the SAT engine's case cubes turns on the solve's own thread and
/// on the count's; what they answer passes the validator.
#[test]
fn in_a_pool_auto_gives_a_marked_piece_panel_the_case_cubes() {
    use witness::internals::portfolio::cube_turns_here;
    use witness::model::Turn;
    let Some(puzzle) = dev_puzzle("BN8SJ6KG") else {
        return;
    };
    let puzzle = puzzle.turned(Turn::MirrorX).unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let limits = || Limits::timeout(std::time::Duration::from_secs(20));
    // Each job with the cubes' turns on the pool's thread that ran it.
    let options = witness::SolveOptions {
        limits: limits(),
        ..Default::default()
    };
    let (s, took) = pool.install(|| {
        let before = cube_turns_here();
        (
            witness::solve(&puzzle, &options),
            cube_turns_here() - before,
        )
    });
    assert!(took > 0, "the solve gave the cubes no turn");
    if let Some(path) = &s.unwrap().path {
        assert!(witness::check(&puzzle, path).unwrap().valid);
    }
    let options = witness::CountOptions {
        limits: limits(),
        ..witness::CountOptions::uniqueness()
    };
    let (c, took) = pool.install(|| {
        let before = cube_turns_here();
        (
            witness::count(&puzzle, &options),
            cube_turns_here() - before,
        )
    });
    assert!(took > 0, "the count gave the cubes no turn");
    for path in &c.unwrap().solutions {
        assert!(witness::check(&puzzle, path).unwrap().valid);
    }
}

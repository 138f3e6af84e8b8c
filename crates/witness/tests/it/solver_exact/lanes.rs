//! The portfolio's parts against the brute force: lanes by turns, reversed plans, elimination cases, nearby solutions, the local search.

use super::*;

/// Case `case` of a cross-check: on even cases a random puzzle of the
/// shared generator (symmetry, pillars), on odd ones a random panel with
/// mixed symbols (marks among them).
fn random_or_mixed(r: &mut Rng, case: u64) -> Puzzle {
    if case.is_multiple_of(2) {
        random_puzzle(r)
    } else {
        let mut p = random_panel(r, 4, 6, 3);
        fill_faces(r, &mut p, mixed_symbol);
        p
    }
}

/// Turns with tiny budgets (cut after a few nodes, in every move order the
/// schedule tries, each going on from where it stopped) still find a
/// solution exactly when the brute force finds one, and it validates; and
/// counting in turns of one to three nodes, in each lane's move order on
/// the plan and on its reversal, counts what the brute force counts, so
/// resuming loses and repeats nothing. Half the panels are the
/// random panels above (symmetry, pillars), half the marked mixed ones,
/// which on two threads get a local search beside the one-thread search:
/// among them, enough without a solution, which must still be proved.
#[test]
fn turns_find_a_solution_exactly_when_there_is_one() {
    let var = common::env_u64;
    let mut r = Rng(var("TURNS_SEED").unwrap_or(0x5EED_0F00_7E57_A7E5));
    let tiny = short_turns(1, 64, 5);
    let (mut solvable, mut not_first) = (0, 0);
    // Marked panels that two threads solve with a local search beside the
    // one-thread search (`portfolio::first_solution_helped`): with and
    // without a solution.
    let mut helped = [0u32; 2];
    let n = var("TURNS_CASES").unwrap_or(600);
    for case in 0..3 * n {
        if !common::goes_on(
            case,
            n,
            solvable > 150 && not_first > 30 && helped[0] > 20 && helped[1] > 20,
        ) {
            break;
        }
        let p = random_or_mixed(&mut r, case);
        let mut plan = Plan::new(&p).unwrap();
        if case % 4 < 2 {
            plan.narrow_min_nodes = 0;
        }
        if case % 8 >= 4 {
            plan.memo_after = 0;
        }
        let want = brute_count(&p);
        // Each lane's move order, on the plan and on its reversal (which
        // has the same solutions, drawn the other way), in turns of one to
        // three nodes.
        let order = (case / 3 % 3) as usize;
        let back = witness::internals::reverse::reversed(&plan);
        for (side, lane) in [("plan", Some(&plan)), ("reversal", back.as_ref())] {
            let Some(lane) = lane else { continue };
            let turns =
                witness::internals::count_in_turns(lane, &Limits::none(), 1 + case % 3, order)
                    .unwrap();
            assert_eq!(
                turns,
                Some(want),
                "case {case}: counted in turns (order {order}, {side}) vs brute force on\n{}",
                witness::formats::wpjson::to_string(&p).unwrap()
            );
        }
        let brute_first = brute_first(&p);
        // On one thread, and on two past a first round of one node a turn:
        // a solution exactly when the brute force has one, and valid.
        let (on_one, one_visited) =
            witness::internals::solve_plan_with(&plan, &Limits::none(), &tiny).unwrap();
        let on_two =
            witness::internals::solve_plan_threads_with(&plan, &Limits::none(), &tiny, None)
                .unwrap()
                .0;
        // On two threads with the SAT engine beside the local search on
        // the helper thread (`auto` on marked panels without pieces).
        let with_sat =
            witness::internals::solve_plan_threads_with(&plan, &Limits::none(), &tiny, Some(&p))
                .unwrap()
                .0;
        for (threads, sol) in [("one", &on_one), ("two", &on_two), ("two, SAT", &with_sat)] {
            assert_eq!(sol.status, Status::Complete, "case {case} on {threads}");
            assert_eq!(
                sol.path.is_some(),
                brute_first.is_some(),
                "case {case}: turns on {threads} thread(s) and brute force disagree on\n{}",
                witness::formats::wpjson::to_string(&p).unwrap()
            );
            if let Some(path) = &sol.path {
                let v = Rules::new(&p).unwrap().check_path(&p, path).unwrap();
                assert!(v.valid, "case {case}: path on {threads} fails validation");
            }
        }
        // Past the first turn (one node) the helper thread ran.
        if witness::internals::portfolio::helped(&plan) && one_visited > tiny.first {
            helped[brute_first.is_some() as usize] += 1;
        }
        if on_one.path.is_some() {
            solvable += 1;
            not_first += (on_one.path != brute_first) as u32;
        }
    }
    // The tiny budgets must really hand panels to the other orders.
    assert!(solvable > 150, "only {solvable} solvable panels");
    assert!(
        not_first > 30,
        "only {not_first} solutions from other orders"
    );
    // "No solution" on two threads must be proved beside the local search.
    eprintln!(
        "marked panels with a local search on two threads, without and with a solution: {helped:?}"
    );
    assert!(helped[0] > 20 && helped[1] > 20, "{helped:?}");
}

/// The reversed plan (starts and ends swapped, `witness::internals::reverse`) has
/// exactly the original's solutions, each drawn the other way: on random
/// panels of every kind (symmetry and pillars, mid-edge starts and ends,
/// removed faces, elimination marks), its solutions turned round are the
/// brute force's, one for one. A fifth of the panels have fat starts,
/// where mid-edge starts and ends differ, and a seventh are undirected;
/// panels the reversal refuses must have one of the differences the module
/// names.
#[test]
fn reversed_plans_have_the_solutions_drawn_the_other_way() {
    let var = common::env_u64;
    let mut r = Rng(var("REVERSE_SEED").unwrap_or(0x0DD5_1DE5_0F7E_57ED));
    let (mut reversed, mut refused, mut solvable) = (0, 0, 0);
    let key = |p: &Path| format!("{:?}", (p.start, &p.moves));
    let n = var("REVERSE_CASES").unwrap_or(600);
    for case in 0..3 * n {
        if !common::goes_on(case, n, reversed > 300 && refused > 20 && solvable > 150) {
            break;
        }
        let mut p = match case % 3 {
            0 => random_puzzle(&mut r),
            1 => random_panel(&mut r, 4, 15, 6),
            _ => {
                let mut p = random_panel(&mut r, 4, 6, 3);
                fill_faces(&mut r, &mut p, mixed_symbol);
                p
            }
        };
        p.settings.fat_startpoints = case % 5 == 0;
        p.undirected = case % 7 == 3;
        let mut plan = Plan::new(&p).unwrap();
        if case % 2 == 1 {
            plan.narrow_min_nodes = 0;
            plan.memo_after = 0;
        }
        let Some(back) = witness::internals::reverse::reversed(&plan) else {
            let fat_edge = p.settings.fat_startpoints
                && p.positions().any(|q| {
                    q.kind() == witness::model::SlotKind::Edge
                        && (p.cell(q).start || p.cell(q).end.is_some())
                });
            let own_mirror = p
                .positions()
                .any(|q| p.is_self_mirror(q) && (p.cell(q).start || p.cell(q).end.is_some()));
            assert!(
                fat_edge || own_mirror || p.undirected,
                "case {case}: refused for no reason"
            );
            refused += 1;
            continue;
        };
        let mut got = Vec::new();
        let st = witness::internals::for_each_found(&back, &Limits::none(), |f| {
            let (start, _, moves) =
                witness::internals::reverse::answer((f.start, f.end, f.moves.to_vec()));
            got.push(key(&Path::new(p.pos(start), moves)));
            true
        })
        .unwrap();
        assert_eq!(st, Status::Complete);
        let mut want = Vec::new();
        brute::enumerate(&p, &Limits::none(), |q| {
            want.push(key(q));
            true
        })
        .unwrap();
        got.sort();
        want.sort();
        assert_eq!(
            got,
            want,
            "case {case}: reversed solutions differ on\n{}",
            witness::formats::wpjson::to_string(&p).unwrap()
        );
        reversed += 1;
        solvable += !want.is_empty() as u32;
    }
    assert!(reversed > 300, "only {reversed} panels reversed");
    assert!(refused > 20, "only {refused} panels refused");
    assert!(solvable > 150, "only {solvable} solvable panels");
}

/// The elimination cases (`witness::internals::mark_cases`) cover every solution: on random
/// panels with marks (squares, stars, pieces, triangles, dots; symmetry
/// and pillars), every solution the brute force finds solves at least one
/// case, checked by the case's own rules, and no case keeps a mark. The
/// solver may therefore answer from a case's solution (checked against
/// the puzzle's rules) and call a puzzle unsolvable once every case is
/// searched. More by hand: CASES_SEED, CASES_CASES.
#[test]
fn every_solution_of_a_marked_panel_solves_one_of_its_cases() {
    use witness::internals::mark_cases::{case_boards, MAX_CASES};
    let var = common::env_u64;
    let mut r = Rng(var("CASES_SEED").unwrap_or(0xCA5E_5EED_0000_0017));
    let (mut checked, mut split) = (0, 0);
    let n = var("CASES_CASES").unwrap_or(500);
    for case in 0..3 * n {
        if !common::goes_on(case, n, split > 150 && checked > 500) {
            break;
        }
        let Some(p) = mixed_panel(&mut r, 3, 6, 5) else {
            continue;
        };
        let rules = Rules::new(&p).unwrap();
        let Some(boards) = case_boards(&rules.board, MAX_CASES) else {
            continue;
        };
        split += 1;
        let cases: Vec<Rules> = boards.into_iter().map(Rules::from_board).collect();
        assert!(cases.iter().all(|c| !c.board.has_negations));
        for path in common::brute_solutions(&p) {
            let trace = path.trace(&p).unwrap();
            assert!(
                cases.iter().any(|c| c.check(&trace).valid),
                "case {case}: {path} solves no case of\n{}",
                witness::formats::wpjson::to_string(&p).unwrap()
            );
            checked += 1;
        }
    }
    assert!(split > 150, "only {split} panels split into cases");
    assert!(checked > 500, "only {checked} solutions checked");
}

/// The elimination cases searched by turns (`CaseRuns`) answer exactly:
/// on random marked panels, run until they settle, they find a solution
/// exactly when the brute force does, and it passes the puzzle's own
/// rules; both with each case's tables and search kept from turn to turn,
/// and made afresh at each turn (as with many cases), resuming where the
/// last turn stopped; and shared between two threads (`Cases::share`),
/// each share searched to its end and a solution in either. Turns of one
/// to a few nodes make every case resume often; some panels have cases
/// enough to take turns by rank. More by hand: RUNS_SEED,
/// RUNS_CASES.
#[test]
fn case_runs_answer_exactly_whether_kept_or_made_each_turn() {
    use witness::internals::mark_cases::{CaseRuns, Cases, Outcome, FEW_CASES, MAX_CASES};
    fn settle<const N: usize>(
        plan: &Plan,
        fresh: bool,
        share: (usize, usize),
    ) -> Option<Option<Path>> {
        let tiny = short_turns(1, 8, 0);
        let cases = Cases::<N>::new(plan, MAX_CASES)?.share(share.0, share.1);
        let limits = Limits::none();
        let mut runs = CaseRuns::new(&cases, &limits, &tiny);
        if fresh {
            runs = runs.fresh_each_turn();
        }
        loop {
            match runs.step() {
                Outcome::Open => {}
                Outcome::Solved((start, _, moves)) => {
                    return Some(Some(Path::new(plan.rules.board.pos(start), moves)))
                }
                Outcome::None => return Some(None),
                Outcome::Stopped => panic!("no limits to stop it"),
            }
        }
    }
    let var = common::env_u64;
    let mut r = Rng(var("RUNS_SEED").unwrap_or(0x0C45_E5E5_0000_0018));
    let (mut settled, mut solved, mut shared, mut ranked) = (0, 0, 0, 0);
    let n = var("RUNS_CASES").unwrap_or(300);
    for case in 0..3 * n {
        if !common::goes_on(
            case,
            n,
            settled > 150 && solved > 40 && shared > 75 && ranked > 0,
        ) {
            break;
        }
        let Some(p) = mixed_panel(&mut r, 3, 5, 5) else {
            continue;
        };
        let plan = Plan::new(&p).unwrap();
        let want = brute_first(&p).is_some();
        // Panels with more than FEW_CASES cases take turns by rank too.
        let many = |n: usize| n > FEW_CASES;
        ranked += if plan.nodes() <= 64 {
            Cases::<1>::new(&plan, MAX_CASES).is_some_and(|c| many(c.len()))
        } else {
            Cases::<2>::new(&plan, MAX_CASES).is_some_and(|c| many(c.len()))
        } as u32;
        let run = |fresh, share| {
            if plan.nodes() <= 64 {
                settle::<1>(&plan, fresh, share)
            } else {
                settle::<2>(&plan, fresh, share)
            }
        };
        // Shared between two threads: each share alone, run to its end,
        // and a solution in either exactly when there is one.
        if let (Some(a), Some(b)) = (run(case % 2 == 0, (0, 2)), run(case % 2 == 1, (1, 2))) {
            shared += 1;
            assert_eq!(
                a.is_some() || b.is_some(),
                want,
                "case {case}: shared cases and brute force disagree on\n{}",
                witness::formats::wpjson::to_string(&p).unwrap()
            );
            for path in a.iter().chain(&b) {
                let v = Rules::new(&p).unwrap().check_path(&p, path).unwrap();
                assert!(v.valid, "case {case}: {path} from a share fails validation");
            }
        }
        for fresh in [false, true] {
            let Some(got) = run(fresh, (0, 1)) else { break };
            settled += 1;
            assert_eq!(
                got.is_some(),
                want,
                "case {case} (fresh tables each turn: {fresh}): cases and brute force disagree on\n{}",
                witness::formats::wpjson::to_string(&p).unwrap()
            );
            if let Some(path) = got {
                solved += 1;
                let v = Rules::new(&p).unwrap().check_path(&p, &path).unwrap();
                assert!(v.valid, "case {case}: {path} fails validation");
            }
        }
    }
    assert!(
        settled > 150 && solved > 40 && shared > 75 && ranked > 0,
        "only {settled} settled, {solved} solved, {shared} shared, {ranked} by rank"
    );
}

/// The elimination cases run to their end, handing each solution that
/// solves the puzzle to a visitor (`CaseRuns::step_with`, as counting
/// does), show exactly the brute force's solutions, each at least once:
/// on random marked panels, some with more dots than get a case each, so
/// that one case drops every dot and its solutions that miss more dots
/// than its marks can erase are turned away before the rules are asked.
/// So a count may take the cases' solutions, and once every case is
/// searched to the end it has them all. More by hand: SEEN_SEED,
/// SEEN_CASES.
#[test]
fn case_runs_run_to_their_end_see_every_solution() {
    use witness::internals::mark_cases::{CaseRuns, Cases, Outcome, MAX_CASES, PER_DOT_MAX};
    type Seen = std::collections::HashSet<(usize, Vec<Direction>)>;
    fn collect<const N: usize>(plan: &Plan) -> Option<Seen> {
        let tiny = short_turns(1, 16, 0);
        let cases = Cases::<N>::new(plan, MAX_CASES)?;
        let limits = Limits::none();
        let mut runs = CaseRuns::new(&cases, &limits, &tiny);
        let mut seen = Seen::new();
        loop {
            let outcome = runs.step_with(&mut |(start, _, moves)| {
                seen.insert((*start, moves.clone()));
                true
            });
            match outcome {
                Outcome::Open => {}
                Outcome::None => return Some(seen),
                other => panic!("a visitor that never stops, and no limits: {other:?}"),
            }
        }
    }
    let var = common::env_u64;
    let mut r = Rng(var("SEEN_SEED").unwrap_or(0x5EE5_0000_CA5E_0019));
    let (mut split, mut many_dots, mut solutions) = (0, 0, 0);
    let n = var("SEEN_CASES").unwrap_or(400);
    for case in 0..3 * n {
        if !common::goes_on(case, n, split > 150 && many_dots > 40 && solutions > 150) {
            break;
        }
        let dots = if case % 2 == 0 { 5 } else { 40 };
        let Some(p) = mixed_panel(&mut r, 3, 5, dots) else {
            continue;
        };
        let plan = Plan::new(&p).unwrap();
        let got = if plan.nodes() <= 64 {
            collect::<1>(&plan)
        } else {
            collect::<2>(&plan)
        };
        let Some(got) = got else { continue };
        split += 1;
        many_dots +=
            (plan.rules.board.dot.iter().filter(|d| d.is_some()).count() > PER_DOT_MAX) as u32;
        let want: Seen = common::brute_solutions(&p)
            .into_iter()
            .map(|q| (p.index(q.start), q.moves))
            .collect();
        solutions += want.len();
        assert_eq!(
            got,
            want,
            "case {case}: the cases' solutions and the brute force's differ on\n{}",
            witness::formats::wpjson::to_string(&p).unwrap()
        );
    }
    assert!(
        split > 150 && many_dots > 40 && solutions > 150,
        "{split} panels split into cases, {many_dots} with many dots, {solutions} solutions"
    );
}

/// The near search ([`witness::internals::nearby`]) kept to the nodes of a first
/// solution finds exactly the other solutions that visit only those
/// nodes (the brute force's, filtered), on panels of every mechanic and
/// on panels with elimination marks; and on enough of them there is such
/// a solution for the test to mean something. More by hand: NEAR_SEED,
/// NEAR_CASES.
#[test]
fn near_searches_find_exactly_the_solutions_on_the_first_ones_nodes() {
    use std::collections::HashSet;
    use witness::internals::{
        nearby::{near_solutions, nodes_of},
        plan::Masks,
    };
    type Seen = HashSet<(usize, Vec<Direction>)>;
    fn near<const N: usize>(plan: &Plan, start: usize, moves: &[Direction]) -> Seen {
        let masks = Masks::<N>::new(plan);
        let mut got = Seen::new();
        let go = near_solutions(
            plan,
            &masks,
            &Limits::none(),
            (start, moves),
            u64::MAX,
            &mut |(s, _, m)| {
                assert!(got.insert((s, m)), "a solution reported twice");
                true
            },
        );
        assert!(go, "a visitor that never stops");
        got
    }
    fn nodes<const N: usize>(plan: &Plan, start: usize, moves: &[Direction]) -> Vec<usize> {
        nodes_of::<N>(plan, start, moves).iter().collect()
    }
    let var = common::env_u64;
    let mut r = Rng(var("NEAR_SEED").unwrap_or(0x0EA2_5EED_0000_0025));
    let (mut searched, mut found) = (0, 0);
    let n = var("NEAR_CASES").unwrap_or(900);
    for case in 0..3 * n {
        if !common::goes_on(case, n, searched > 300 && found > 100) {
            break;
        }
        let mut p = match case % 3 {
            0 => random_puzzle(&mut r),
            1 => random_panel(&mut r, 4, 8, 4),
            _ => match mixed_panel(&mut r, 3, 5, 10) {
                Some(p) => p,
                None => continue,
            },
        };
        p.undirected = case % 7 == 3;
        let all = common::brute_solutions(&p);
        let Some(first) = all.first() else { continue };
        let plan = Plan::new(&p).unwrap();
        let start = p.index(first.start);
        let small = plan.nodes() <= 64;
        let corridor: HashSet<usize> = if small {
            nodes::<1>(&plan, start, &first.moves)
        } else {
            nodes::<2>(&plan, start, &first.moves)
        }
        .into_iter()
        .collect();
        let within = |q: &Path| {
            q.slots(&p).unwrap().iter().all(|s| {
                s.x % 2 == 1 || s.y % 2 == 1 || corridor.contains(&(s.y / 2 * plan.ncols + s.x / 2))
            })
        };
        let want: Seen = all
            .iter()
            .filter(|q| *q != first && within(q))
            .map(|q| (p.index(q.start), q.moves.clone()))
            .collect();
        let got = if small {
            near::<1>(&plan, start, &first.moves)
        } else {
            near::<2>(&plan, start, &first.moves)
        };
        assert_eq!(
            got,
            want,
            "case {case}: the near search and the brute force differ on\n{}",
            witness::formats::wpjson::to_string(&p).unwrap()
        );
        searched += 1;
        found += !want.is_empty() as u32;
    }
    assert!(
        searched > 300 && found > 100,
        "{searched} panels searched, {found} with another solution near the first"
    );
}

/// The local search (`witness::internals::local`) reports only solutions, each as the
/// exact search draws it: on random marked panels (mid-edge starts and
/// ends, gaps, pillars, fat starts), every answer it gives is one of the
/// brute force's solutions, and it finds some on most solvable panels.
/// It refuses symmetry and undirected panels. More by hand: ANNEAL_SEED,
/// ANNEAL_CASES.
#[test]
fn the_local_search_reports_only_brute_force_solutions() {
    use witness::internals::local::Anneal;
    let var = common::env_u64;
    let mut r = Rng(var("ANNEAL_SEED").unwrap_or(0xA22E_A150_1357_9BDF));
    let (mut solvable, mut found, mut answers) = (0, 0, 0);
    let n = var("ANNEAL_CASES").unwrap_or(400);
    for case in 0..3 * n {
        if !common::goes_on(case, n, solvable > 80 && answers > 300) {
            break;
        }
        let Some(mut p) = mixed_panel(&mut r, 4, 6, 3) else {
            continue;
        };
        p.settings.fat_startpoints = case % 5 == 3;
        let plan = Plan::new(&p).unwrap();
        let Some(mut a) = Anneal::new(&plan, case) else {
            assert!(p.symmetry.is_some() || p.undirected, "case {case} refused");
            continue;
        };
        let all = common::brute_solutions(&p);
        solvable += !all.is_empty() as u32;
        // (On panels without a solution a few runs show it reports none.)
        let (runs, mut left): (u32, u32) = if all.is_empty() { (3, 0) } else { (20, 5) };
        let mut any = false;
        for _ in 0..runs {
            let Some((start, _, moves)) = a.run(2_000) else {
                continue;
            };
            left = left.saturating_sub(1);
            brute_solution(case, &p, &plan, &all, start, moves);
            answers += 1;
            any = true;
            if left == 0 {
                break;
            }
        }
        found += any as u32;
    }
    assert!(
        solvable > 80 && found * 10 > solvable * 9 && answers > 300,
        "{found} of {solvable} solvable panels solved, {answers} answers"
    );
}

/// The path the local search reported on case `case` (panel `p`), after
/// asserting it is one of the brute force's solutions `all`.
fn brute_solution(
    case: u64,
    p: &Puzzle,
    plan: &Plan,
    all: &[Path],
    start: usize,
    moves: Vec<witness::model::Direction>,
) -> Path {
    let path = Path::new(plan.rules.board.pos(start), moves);
    assert!(
        all.contains(&path),
        "case {case}: {} is no solution of\n{}",
        path.to_moves(),
        witness::formats::wpjson::to_string(p).unwrap()
    );
    path
}

/// The local search goes on from each solution it reports, so a count
/// that wants more finds them among its detours: on random mixed panels
/// with two solutions or more, every path it reports over its runs is one
/// of the brute force's solutions, and on most of them it reports two
/// different ones; the second comes after fewer moves past the first, in
/// all, than half the moves to the first (a replica that starts afresh
/// after a solution needs about as many again). More by hand:
/// ANNEAL_ON_SEED, ANNEAL_ON_CASES.
#[test]
fn the_local_search_goes_on_to_other_solutions() {
    use witness::internals::local::Anneal;
    let var = common::env_u64;
    let mut r = Rng(var("ANNEAL_ON_SEED").unwrap_or(0x0A0E_A1ED_2468_ACE0));
    let (mut several, mut two) = (0, 0);
    let (mut to_first, mut to_second) = (0u64, 0u64);
    let n = var("ANNEAL_ON_CASES").unwrap_or(300);
    for case in 0..3 * n {
        if !common::goes_on(case, n, several > 50) {
            break;
        }
        let Some(p) = mixed_panel(&mut r, 4, 6, 3) else {
            continue;
        };
        let plan = Plan::new(&p).unwrap();
        let Some(mut a) = Anneal::new(&plan, case) else {
            continue;
        };
        let all = common::brute_solutions(&p);
        if all.len() < 2 {
            continue;
        }
        several += 1;
        let mut seen = std::collections::HashSet::new();
        let mut first = None;
        for _ in 0..100 {
            let Some((start, _, moves)) = a.run(2_000) else {
                continue;
            };
            let at = a.moves;
            let path = brute_solution(case, &p, &plan, &all, start, moves);
            seen.insert(path.to_moves());
            let m1 = *first.get_or_insert(at);
            if seen.len() == 2 {
                to_first += m1;
                to_second += at - m1;
                break;
            }
        }
        two += (seen.len() == 2) as u32;
    }
    assert!(
        several > 50 && two * 10 > several * 8,
        "two solutions found on {two} of {several} panels with several"
    );
    assert!(
        to_second * 2 < to_first,
        "moves to the first solution {to_first}, from it to the second {to_second}"
    );
}

/// Why each elimination case fixes the use of every mark: cases over
/// only some of the marks, the others left as marks, do not cover the
/// puzzle. On this 3x3 panel (white mark at (1,1), black mark at (3,5),
/// a black square and two white ones, a white piece), the line below is
/// a solution where the white mark erases the white square at (3,1) and
/// the black mark the black square at (1,5). It solves one of the
/// puzzle's cases, but none of the cases that fix the white mark's use
/// alone: where the white mark and that white square become a star pair,
/// the black square's region holds squares of one colour, so at the first
/// look (`docs/rules.md#elimination-marks`) the black square no longer
/// fails and the black mark is left with nothing to erase.
#[test]
fn cases_over_some_marks_only_do_not_cover_the_puzzle() {
    use witness::internals::board::Sym;
    use witness::internals::mark_cases::{case_boards, MAX_CASES};
    let p = witness::formats::read_puzzle(
        r#"{"grid":[[{"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"},{"end":"top","line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"}],[{"line":0,"type":"line"},{"color":"white","type":"nega"},{"line":0,"type":"line"},null,{"line":0,"type":"line"},{"color":"black","type":"square"},{"line":0,"type":"line"}],[{"line":0,"start":true,"type":"line"},{"gap":2,"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"}],[{"line":0,"type":"line"},{"color":"white","type":"square"},{"line":0,"type":"line"},{"color":"white","polyshape":17,"type":"poly"},{"line":0,"type":"line"},{"color":"black","type":"nega"},{"line":0,"type":"line"}],[{"line":0,"type":"line"},{"line":0,"start":true,"type":"line"},{"line":0,"type":"line"},{"line":0,"start":true,"type":"line"},{"line":0,"start":true,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"}],[{"line":0,"type":"line"},null,{"end":"bottom","line":0,"type":"line"},{"color":"white","type":"square"},{"line":0,"type":"line"},null,{"line":0,"type":"line"}],[{"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"start":true,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"},{"line":0,"type":"line"}]],"height":7,"name":"Unnamed Puzzle","pillar":false,"settings":{"CUSTOM_MECHANICS":false,"FAT_STARTPOINTS":false,"FLASH_FOR_ERRORS":true,"NEGATIONS_CANCEL_NEGATIONS":true,"PRECISE_POLYOMINOS":true,"SHAPELESS_ZERO_POLY":false},"width":7}"#,
        None,
    )
    .unwrap();
    let rules = Rules::new(&p).unwrap();
    let path = Path::parse_on("2,0:R4D2L4D2R4D2L6U3", &p).unwrap();
    let trace = path.trace(&p).unwrap();
    assert!(rules.check(&trace).valid);
    let b = &rules.board;
    let full = case_boards(b, MAX_CASES).unwrap();
    assert!(full
        .into_iter()
        .any(|c| Rules::from_board(c).check(&trace).valid));
    // Every use of the white mark, the black one left as a mark.
    let white = b.index(1, 1);
    assert_eq!(b.sym[white], Sym::Nega);
    let others: Vec<usize> = (0..b.len())
        .filter(|&i| i != white && b.sym[i] != Sym::Empty)
        .filter(|&i| b.sym[i] != Sym::Nega || b.ncn)
        .collect();
    assert_eq!(others.len(), 5);
    for x in others {
        let mut c = b.clone();
        let color = c.n_colors as u8;
        c.n_colors += 1;
        for s in [white, x] {
            c.sym[s] = Sym::Star;
            c.color[s] = color;
        }
        c.has_negations = c.sym.contains(&Sym::Nega);
        c.has_polys = c.sym.iter().any(|s| s.is_poly());
        let case = Rules::from_board(c);
        assert!(
            !case.check(&trace).valid,
            "the case erasing slot {x} holds it"
        );
    }
}

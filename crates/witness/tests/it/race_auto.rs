//! The `auto` engine's race (`solve::race`) against the search alone: on
//! random small panels of every mechanic (polyominoes included, which
//! stay with the search or have the SAT engine beside it, or in a pool
//! of threads between two runs of the search) and on
//! hand-made ones, the race's first solution is
//! valid and exists exactly when the search finds one, and its uniqueness
//! count equals the search's; the loser of a race is stopped through its
//! flag.
#![cfg(feature = "sat")]

use crate::common;

use std::time::{Duration, Instant};

use common::random::{fill_slots, random_frame, random_shape, starts_and_ends, Rng, COLORS};
use witness::internals::plan::Plan;
use witness::internals::race::{self, Winner};
use witness::model::{Pos, Puzzle, Symbol, SymbolKind};
use witness::{CountOptions, Engine, Limits, SolveOptions, Status};

/// A random panel of at most `max` faces a side with faces of every kind
/// (polyominoes when `polys`), dots, gaps, starts and ends.
fn random_panel(r: &mut Rng, max: u64, polys: bool) -> Puzzle {
    let mut p = random_frame(r, max, 2);
    let density = 15 + r.below(45);
    let kind = |r: &mut Rng| match r.below(if polys { 6 } else { 5 }) {
        0 => SymbolKind::Triangle(1 + r.below(3) as u32),
        1 => SymbolKind::Square,
        2 => SymbolKind::Star,
        3 if r.chance(30) => SymbolKind::Nega,
        5 => SymbolKind::Poly(random_shape(r)),
        _ => SymbolKind::Square,
    };
    fill_slots(r, &mut p, density, kind, (10, 10));
    starts_and_ends(r, &mut p, 80);
    p
}

/// The race (forced, without the search's first budget) and the `auto`
/// engine agree with the search on `p`: a valid first solution exactly
/// when the search has one, and the same uniqueness count.
fn assert_race_agrees(case: u64, p: &Puzzle) {
    let show = || witness::formats::wpjson::to_string(p).unwrap();
    let none = Limits::none();
    let plan = Plan::new(p).unwrap();
    let search = witness::solve(p, &SolveOptions::default().with_engine(Engine::Search)).unwrap();
    assert_eq!(search.status, Status::Complete);
    let raced = race::solve_race(p, &plan, &none).unwrap().answer;
    let auto = witness::solve(p, &SolveOptions::default()).unwrap();
    for (name, sol) in [("race", &raced), ("auto", &auto)] {
        assert_same_first(&format!("case {case} {name}"), p, sol, &search);
    }
    let unique = CountOptions::uniqueness().with_engine(Engine::Search);
    let want = witness::count(p, &unique).unwrap();
    let raced = race::count_race(p, &plan, Some(2), &none).unwrap().answer;
    let auto = witness::count(p, &CountOptions::uniqueness()).unwrap();
    let sat = witness::count(p, &CountOptions::uniqueness().with_engine(Engine::Sat));
    let mut counts = vec![("race", &raced), ("auto", &auto), ("search", &want)];
    if let Ok(sat) = &sat {
        counts.push(("sat", sat));
    }
    for (name, c) in counts {
        assert_eq!(
            (c.count.clone(), c.status),
            (want.count.clone(), want.status),
            "case {case} {name} on\n{}",
            show()
        );
        assert_kept(p, c, &format!("case {case} {name}"));
    }
}

/// `sol` agrees with the search's first solution `search` on `p`: a
/// finished answer, a solution exactly when the search has one, valid.
fn assert_same_first(what: &str, p: &Puzzle, sol: &witness::Solution, search: &witness::Solution) {
    assert_eq!(sol.status, Status::Complete, "{what}");
    assert_eq!(
        sol.path.is_some(),
        search.path.is_some(),
        "{what} on\n{}",
        witness::formats::wpjson::to_string(p).unwrap()
    );
    if let Some(q) = &sol.path {
        assert!(witness::check(p, q).unwrap().valid, "{what}");
    }
}

/// A count with a small limit keeps as many solutions as it counted
/// (`Count::solutions`), each valid, no two the same line, nor (on
/// undirected panels) one the other's reverse: the solutions a designer
/// is shown come from the count's own run.
fn assert_kept(p: &Puzzle, c: &witness::Count, what: &str) {
    assert_eq!(
        c.count,
        c.solutions.len() as u64,
        "{what}: {:?}",
        c.solutions
    );
    for (k, q) in c.solutions.iter().enumerate() {
        assert!(
            witness::check(p, q).unwrap().valid,
            "{what}: {}",
            q.to_moves()
        );
        let slots = q.slots(p).unwrap();
        for r in &c.solutions[..k] {
            let other = r.slots(p).unwrap();
            let reversed: Vec<_> = other.iter().rev().copied().collect();
            assert!(
                slots != other && !(p.undirected && slots == reversed),
                "{what}: {} twice",
                q.to_moves()
            );
        }
    }
}

#[test]
fn the_race_agrees_with_the_search_on_random_panels() {
    let mut r = Rng(common::env_u64("RACE_SEED").unwrap_or(0x5eed_4ace));
    let cases = common::env_u64("RACE_CASES").unwrap_or(300);
    let mut solvable = 0;
    for case in 0..cases {
        let p = random_panel(&mut r, 4, case % 5 == 4);
        assert_race_agrees(case, &p);
        solvable += u64::from(
            witness::solve(&p, &SolveOptions::default())
                .unwrap()
                .path
                .is_some(),
        );
    }
    // Both kinds of answer were exercised.
    assert!(
        solvable > cases / 10 && solvable < cases * 9 / 10,
        "{solvable} of {cases}"
    );
}

/// Panels with polyominoes and no elimination mark, whose `auto` solves
/// have the SAT engine beside the search when they have at most
/// `race::SAT_HELPER_MAX_PIECES` pieces (`solve_plan_sat_helper`): with
/// turns of a few nodes, so that the second thread runs on nearly every
/// panel, a valid solution exactly when the search has one.
#[test]
fn the_sat_engine_beside_the_search_agrees_with_it_on_random_piece_panels() {
    let mut r = Rng(common::env_u64("RACE_SEED").unwrap_or(0x009e_1ce5));
    let cases = common::env_u64("RACE_CASES").unwrap_or(150);
    let tiny = witness::internals::Schedule {
        first: 2,
        growth: 2,
        most: 64,
        ..Default::default()
    };
    let mut few = 0;
    for case in 0..cases {
        let mut p = random_frame(&mut r, 4, 2);
        let density = 15 + r.below(30);
        let kind = |r: &mut Rng| match r.below(4) {
            0 => SymbolKind::Square,
            1 => SymbolKind::Star,
            _ => SymbolKind::Poly(random_shape(r)),
        };
        fill_slots(&mut r, &mut p, density, kind, (10, 10));
        starts_and_ends(&mut r, &mut p, 80);
        let plan = Plan::new(&p).unwrap();
        let pieces = plan.rules.board.sym.iter().filter(|s| s.is_poly()).count();
        few += u64::from((1..=race::SAT_HELPER_MAX_PIECES).contains(&pieces));
        let search =
            witness::solve(&p, &SolveOptions::default().with_engine(Engine::Search)).unwrap();
        let beside =
            witness::internals::solve_plan_threads_with(&plan, &Limits::none(), &tiny, Some(&p))
                .unwrap()
                .0;
        assert_same_first(&format!("case {case} beside"), &p, &beside, &search);
        assert_race_agrees(2000 + case, &p);
    }
    assert!(few > cases / 3, "{few} of {cases} panels had a few pieces");
}

/// Where no second thread is to be had (a pool of two threads, as
/// `witness bench` runs two puzzles at once), a piece panel with a few
/// pieces and no mark has the SAT engine on its own thread between two
/// runs of the search (`race::SEARCH_BEFORE_SAT`, `race::SAT_BETWEEN`),
/// and a count of it the SAT engine's count first
/// (`portfolio::distinct_solutions_sat_first`). Two dev-corpus panels the
/// search alone takes about a hundred milliseconds or more over and the
/// SAT engine a few tens: `auto`'s first solution is valid, its count to
/// 2 is the search's (and as complete), and both came to the SAT engine's
/// turn.
#[test]
fn in_a_pool_the_sat_engine_takes_a_turn_on_piece_panels() {
    use std::sync::atomic::Ordering::Relaxed;
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        eprintln!("skipped: no corpus");
        return;
    };
    let counts = || witness::internals::portfolio::SAT_FIRST_RUNS.load(Relaxed);
    let solves = || race::SAT_BETWEEN_RUNS.load(Relaxed);
    let (counts_before, solves_before) = (counts(), solves());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    for id in ["C3463CC9", "PZN5LLEH"] {
        let line = lines
            .iter()
            .find(|l| l.contains(&format!("\"{id}\"")))
            .expect("a dev puzzle");
        let (_, text) = common::puzzle_of_line(line);
        let p = witness::read_puzzle(&text, None).unwrap();
        let plan = Plan::new(&p).unwrap();
        let limits = Limits::timeout(Duration::from_secs(60));
        let r = pool
            .install(|| race::solve_plan(&p, &plan, &limits))
            .unwrap();
        let path = r.answer.path.expect("a solution");
        assert!(witness::check(&p, &path).unwrap().valid, "{id}");
        let auto = CountOptions::uniqueness().with_limits(limits.clone());
        let c = pool.install(|| witness::count(&p, &auto)).unwrap();
        let want =
            witness::count(&p, &CountOptions::uniqueness().with_engine(Engine::Search)).unwrap();
        assert_eq!((c.count, c.status), (want.count, want.status), "{id}");
    }
    // (The counters are shared by the tests running beside this one, and
    // only these panels take these turns.)
    assert!(
        solves() > solves_before,
        "no solve came to the SAT engine's turn"
    );
    assert!(
        counts() > counts_before,
        "no count came to the SAT engine's turn"
    );
}

/// A hand-made panel: a `w` by `h` grid, start at the bottom left, end at
/// the top right, with squares of two colours down the middle column
/// (black above white), which one line must part: many solutions.
fn parted(w: usize, h: usize) -> Puzzle {
    let mut p = Puzzle::new(w, h, false).unwrap();
    p.cell_mut(Pos::new(0, 2 * h)).start = true;
    p.cell_mut(Pos::new(2 * w, 0)).end = Some(witness::model::Direction::Up);
    let x = 2 * (w / 2) + 1;
    for y in 0..h {
        let c = if y < h / 2 {
            COLORS[0].clone()
        } else {
            COLORS[1].clone()
        };
        p.cell_mut(Pos::new(x, 2 * y + 1)).symbol = Some(Symbol::new(SymbolKind::Square, c));
    }
    p
}

#[test]
fn the_race_agrees_with_the_search_on_hand_made_panels() {
    // Solvable, several solutions.
    assert_race_agrees(0, &parted(3, 2));
    assert_race_agrees(1, &parted(4, 4));
    // A column of squares of alternating colours on a 1-wide panel: only
    // the zigzag up it parts them, one solution.
    let mut p = Puzzle::new(1, 3, false).unwrap();
    p.cell_mut(Pos::new(0, 6)).start = true;
    p.cell_mut(Pos::new(2, 0)).end = Some(witness::model::Direction::Up);
    for (y, c) in [(1, 0), (3, 1), (5, 0)] {
        p.cell_mut(Pos::new(1, y)).symbol =
            Some(Symbol::new(SymbolKind::Square, COLORS[c].clone()));
    }
    assert_race_agrees(2, &p);
}

/// A dev-corpus panel on which the search alone takes a while (more than
/// a hundred milliseconds) while the SAT engine answers in tens: the race
/// must give a valid answer, and the side that lost stops on its flag
/// rather than running to its end.
#[test]
fn the_loser_of_a_race_is_stopped() {
    let Some(lines) = common::corpus_lines("witnesspuzzles-dev.jsonl") else {
        eprintln!("skipped: no corpus");
        return;
    };
    let mut tried = 0;
    for id in ["TWFQY8BW", "QQ29MRPT", "R8GZAB6H"] {
        let Some(line) = lines.iter().find(|l| l.contains(&format!("\"{id}\""))) else {
            continue;
        };
        let (_, text) = common::puzzle_of_line(line);
        let p = witness::read_puzzle(&text, None).unwrap();
        let plan = Plan::new(&p).unwrap();
        let t0 = Instant::now();
        let r = race::solve_race(&p, &plan, &Limits::timeout(Duration::from_secs(60))).unwrap();
        let took = t0.elapsed();
        let path = r.answer.path.expect("a solution");
        assert!(witness::check(&p, &path).unwrap().valid, "{id}");
        assert!(r.raced, "{id}");
        assert!(
            r.loser_stopped,
            "{id}: the {:?} side won in {took:?}, the other had ended",
            r.winner
        );
        // The loser ends soon after, on its flag, without an answer of
        // its own.
        let (who, answer) = r
            .loser
            .expect("the loser's answer to come")
            .recv_timeout(Duration::from_secs(30))
            .expect("the loser stops");
        assert_ne!(who, r.winner);
        if let Ok(s) = answer {
            assert!(
                s.path.is_none() && s.status == Status::Stopped,
                "{id}: {s:?}"
            );
        }
        if r.winner == Winner::Sat {
            tried += 1;
        }
        let u = race::count_race(&p, &plan, Some(2), &Limits::none()).unwrap();
        let want = witness::count(&p, &CountOptions::uniqueness().with_engine(Engine::Search));
        assert_eq!(u.answer.count, want.unwrap().count, "{id}");
    }
    eprintln!("the SAT engine won {tried} of the races");
}

/// The Alcazar mazes: panels whose every rule is a clause of the SAT
/// encoding (a dot in every room), where a count to a limit gives the
/// search a short budget and then the SAT engine the lead: the race's
/// answers equal the search's, and so does `auto`'s count to 2 (with its
/// solutions kept, valid and distinct).
#[test]
fn the_race_agrees_with_the_search_on_the_alcazar_mazes() {
    let dir = common::corpus_dir().join("alcazar");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: no corpus");
        return;
    };
    let mut seen = 0;
    for (k, e) in entries.enumerate() {
        let path = e.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let p = witness::read_puzzle(&text, None).unwrap();
        assert_race_agrees(1000 + k as u64, &p);
        seen += 1;
    }
    assert!(seen >= 10, "{seen} mazes");
}

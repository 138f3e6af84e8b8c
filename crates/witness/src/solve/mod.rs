//! Solving: finding, counting and hinting solutions, exactly with respect to
//! the validator (`docs/rules.md#decisions`).
//!
//! A solution is a legal path (`docs/rules.md#paths`, play-mode start rule) whose
//! verdict is valid. Two solutions differ when their paths differ: the start
//! chosen (in a symmetry puzzle, starting from the mirrored start is another
//! solution), the moves, or where the path stops. For puzzles marked
//! [`undirected`](crate::model::Puzzle::undirected) a path and its reverse
//! are one solution, counted from the earlier start slot; a path whose
//! reverse is no solution (its end is no start, say) counts alone.
//!
//! The modules: [`plan`] precomputes per puzzle, [`search`] is the pruned
//! depth-first search, [`faces`] its regions as face bitsets, [`bits`] the
//! bitsets its flood fills use, [`brute`] the unpruned reference it is
//! tested against, [`limits`] time limits and cancellation, [`frontier`]
//! the exact path count of bare panels, [`search::pockets`] the cut-node test for
//! nodes the line must visit, [`hash`] the tables of verdicts the search
//! keeps and their hasher, [`portfolio`] the search for a first solution by
//! turns in several move orders, [`reverse`] the puzzle with starts and
//! ends swapped that some of those turns search, [`mark_cases`] the mark-free
//! puzzles that cover a puzzle with elimination marks, which take turns
//! too, [`local`] the local search that takes turns beside them on such
//! puzzles (it only adds solutions the validator accepts, so "no solution"
//! still comes from an exhaustive search alone), [`nearby`] the search for
//! more solutions on a solution's own nodes that counts with a small limit
//! run, [`race`] the `auto` engine that races the search and the SAT
//! engine, [`why`] the symbols of an unsolvable panel that cannot all be
//! satisfied.
//!
//! `sat` (with the `sat` feature, on by default) is a second, exact
//! engine: the line as a boolean formula for a SAT solver, with the rules
//! that depend on regions added as cuts when the validator refuses a
//! model. [`Engine`] chooses between them.

pub mod answer;
pub mod bits;
pub mod brute;
pub mod faces;
pub mod frontier;
pub mod hash;
pub mod lanes;
pub mod limits;
pub mod local;
pub mod mark_cases;
pub mod natural;
pub mod nearby;
pub mod plan;
pub mod portfolio;
pub mod race;
pub mod reverse;
#[cfg(feature = "sat")]
pub mod sat;
pub mod search;
pub mod why;

pub use answer::{Count, Hint, HintSize, Solution, Status};
pub use lanes::Schedule;
pub use limits::Limits;
pub use natural::Natural;
pub use why::{why, Why};

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::model::{Direction, Puzzle};
use crate::path::Path;
use plan::{Masks, Plan};
use search::{Found, Search};

/// Which engine answers [`solve`], [`count`] and [`hint`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Engine {
    /// The depth-first search, with its lanes and tables.
    Search,
    /// The SAT engine (`solve::sat`): CaDiCaL with lazy cuts. Marks and
    /// pieces under the Windmill's rules get [`Error::Unsupported`], as
    /// do all panels in a build without the `sat` feature.
    Sat,
    /// The library's choice ([`race`]): the search alone for a short
    /// budget, then the search and the SAT engine side by side, the first
    /// answer winning. Panels the SAT engine does not support stay with
    /// the search.
    #[default]
    Auto,
}

impl std::str::FromStr for Engine {
    type Err = Error;
    fn from_str(s: &str) -> Result<Engine> {
        match s {
            "search" => Ok(Engine::Search),
            "sat" => Ok(Engine::Sat),
            "auto" => Ok(Engine::Auto),
            _ => Err(Error::Parse(format!(
                "unknown engine \"{s}\": search, sat or auto"
            ))),
        }
    }
}

impl Engine {
    /// True when this choice runs the SAT engine.
    fn is_sat(self) -> bool {
        self == Engine::Sat
    }
}

/// The SAT engine's `sat::solve`, or an error without it.
fn sat_solve(puzzle: &Puzzle, limits: &Limits) -> Result<Solution> {
    #[cfg(feature = "sat")]
    return sat::solve(puzzle, limits);
    #[cfg(not(feature = "sat"))]
    {
        let _ = (puzzle, limits);
        Err(Error::Unsupported(
            "this build has no SAT engine (the `sat` feature is off)".into(),
        ))
    }
}

/// The SAT engine's `sat::count`, or an error without it.
fn sat_count(puzzle: &Puzzle, limit: Option<u64>, limits: &Limits) -> Result<Count> {
    #[cfg(feature = "sat")]
    return sat::count(puzzle, limit, limits);
    #[cfg(not(feature = "sat"))]
    {
        let _ = (puzzle, limit, limits);
        Err(Error::Unsupported(
            "this build has no SAT engine (the `sat` feature is off)".into(),
        ))
    }
}

/// The `with_limits` and `with_engine` builders of the options types that
/// have `limits` and `engine` fields.
macro_rules! limits_and_engine {
    ($($options:ty),+) => {$(
        impl $options {
            /// These options with `limits`.
            pub fn with_limits(mut self, limits: Limits) -> Self {
                self.limits = limits;
                self
            }

            /// These options with `engine`.
            pub fn with_engine(mut self, engine: Engine) -> Self {
                self.engine = engine;
                self
            }
        }
    )+};
}

limits_and_engine!(SolveOptions, CountOptions, HintOptions, why::WhyOptions);

/// How [`solve`] searches: its limits (none by default) and engine.
#[derive(Clone, Debug, Default)]
pub struct SolveOptions {
    /// When to give up: a deadline, a node budget, a cancel flag.
    pub limits: Limits,
    /// Which engine answers.
    pub engine: Engine,
}

/// What [`count`] counts: every solution by default, with no limits.
#[derive(Clone, Debug, Default)]
pub struct CountOptions {
    /// Stop counting at this many solutions (`None`: count them all).
    pub limit: Option<u64>,
    /// When to give up: a deadline, a node budget, a cancel flag.
    pub limits: Limits,
    /// Which engine counts.
    pub engine: Engine,
}

impl CountOptions {
    /// Options that tell whether the solution is unique: counting stops
    /// at 2.
    pub fn uniqueness() -> Self {
        CountOptions {
            limit: Some(2),
            ..CountOptions::default()
        }
    }

    /// These options with counting stopped at `limit` solutions.
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = Some(limit);
        self
    }
}

/// What [`hint`] shows: a quarter of a solution by default, with no
/// limits.
#[derive(Clone, Debug, Default)]
pub struct HintOptions {
    /// How much of the solution to show.
    pub size: HintSize,
    /// When to give up: a deadline, a node budget, a cancel flag.
    pub limits: Limits,
    /// Which engine finds the solution.
    pub engine: Engine,
}

impl HintOptions {
    /// These options showing `size` of the solution.
    pub fn with_size(mut self, size: HintSize) -> Self {
        self.size = size;
        self
    }
}

/// Runs `f` with a search whose bitsets fit the plan's node count.
macro_rules! with_width {
    ($plan:expr, |$masks:ident : $n:ident| $body:expr) => {{
        let nodes = $plan.nodes();
        let slots = $plan.rules.board.len();
        if nodes <= 64 {
            const $n: usize = 1;
            with_width!(@run $plan, slots, $masks, $n, $body)
        } else if nodes <= 128 {
            const $n: usize = 2;
            with_width!(@run $plan, slots, $masks, $n, $body)
        } else if nodes <= 512 {
            const $n: usize = 8;
            with_width!(@run $plan, slots, $masks, $n, $body)
        } else if nodes <= 4352 {
            // The WebAssembly build (no `native` feature) keeps one copy of
            // the search fewer, for a smaller module: such panels take the
            // widest bitsets.
            #[cfg(feature = "native")]
            if nodes <= 1024 {
                const $n: usize = 16;
                return with_width!(@run $plan, slots, $masks, $n, $body);
            }
            const $n: usize = 68;
            with_width!(@run $plan, slots, $masks, $n, $body)
        } else {
            return Err(Error::Size(format!(
                "{nodes} nodes is more than the solver handles"
            )));
        }
    }};
    // The body runs with the stack room its recursion needs; the macro
    // stands as its function's last expression, so a `return` in the body
    // leaves the function as it would without the closure.
    (@run $plan:expr, $slots:expr, $masks:ident, $n:ident, $body:expr) => {
        crate::stack::with_room(crate::stack::need($slots, $n), || {
            let $masks = Masks::<$n>::new($plan);
            $body
        })
    };
}

fn path_of(plan: &Plan, f: &Found) -> Path {
    Path::new(plan.rules.board.pos(f.start), f.moves.to_vec())
}

/// The solution of a search's answer; without one, "no solution" when the
/// search was `complete`, else stopped.
fn solution_of(plan: &Plan, answer: Option<answer::Answer>, complete: bool) -> Solution {
    let status = if answer.is_none() && !complete {
        Status::Stopped
    } else {
        Status::Complete
    };
    let path = answer.map(|(start, end, moves)| {
        path_of(
            plan,
            &Found {
                start,
                end,
                moves: &moves,
            },
        )
    });
    Solution { path, status }
}

/// Finds one solution: the first in the engine's order (starts column by
/// column, moves left, right, up, down) when that order finds it quickly,
/// else the first that one of the [`portfolio`] lanes finds (other move
/// orders, and searches from the ends drawn back to front, two of them
/// joining late).
///
/// When the first round of turns does not settle it and the machine has
/// two cores, the engine's order goes on on one thread and the other
/// lanes on another, and the first to finish answers
/// ([`solve_plan_threads`]), unless it is called from a thread pool of
/// several threads (a caller running several solves at once keeps the
/// cores busy itself); [`solve_plan`] stays on one thread.
///
/// With [`Engine::Sat`], the SAT engine answers instead: its solution is
/// whichever valid line the solver reaches first. With [`Engine::Auto`]
/// (the default), puzzles the search settles within its first budget get
/// the search's answer; the others, whichever engine answers first
/// ([`race`]).
pub fn solve(puzzle: &Puzzle, options: &SolveOptions) -> Result<Solution> {
    let limits = &options.limits;
    if options.engine.is_sat() {
        return sat_solve(puzzle, limits);
    }
    let plan = Plan::new(puzzle)?;
    if options.engine == Engine::Auto {
        return race::solve_plan(puzzle, &plan, limits).map(|r| r.answer);
    }
    race::search_alone(&plan, limits)
}

/// True when the machine has two cores or more for this process (asked
/// once: the answer comes from the system's files, which costs more than
/// the median solve).
#[cfg(feature = "native")]
fn two_cores() -> bool {
    static TWO: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TWO.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
}

/// [`solve_plan`] on two threads past the first round of turns: one goes
/// on in the engine's order, the other in the other lanes by turns (the
/// other orders, and the search from the ends), each from where the first
/// round left it, and the first to find a solution or
/// prove there is none stops the other. The elimination cases take turns
/// on the second thread; with more than [`mark_cases::FEW_CASES`] of them each
/// thread takes every other case ([`mark_cases::Cases::share`]); the local
/// search ([`local`]) takes turns on the first. Puzzles settled in the first round
/// get the same answer as from [`solve_plan`]; later, which order answers
/// first may depend on timing. Also tells the search nodes visited.
///
/// Panels with elimination marks that the local search handles
/// ([`portfolio::helped`]) divide the work otherwise: past the first
/// turn, one thread runs everything [`solve_plan`] runs, and the other a
/// local search of its own alone (`portfolio::first_solution_helped`).
pub fn solve_plan_threads(plan: &Plan, limits: &Limits) -> Result<(Solution, u64)> {
    solve_plan_threads_with(plan, limits, &Schedule::default(), None)
}

/// [`solve_plan_threads`] with the turns' budgets given; with `sat` (the
/// plan's puzzle), the second thread runs the SAT engine (by turns with a
/// local search on a panel [`portfolio::helped`] selects) rather than the
/// other lanes (as `auto` has it on some panels). Without the `native` feature
/// (no threads), [`solve_plan_with`].
#[cfg(not(feature = "native"))]
pub fn solve_plan_threads_with(
    plan: &Plan,
    limits: &Limits,
    schedule: &Schedule,
    sat: Option<&Puzzle>,
) -> Result<(Solution, u64)> {
    let _ = sat;
    solve_plan_with(plan, limits, schedule)
}

/// [`solve_plan_threads`] with the turns' budgets given; with `sat` (the
/// plan's puzzle), the second thread runs the SAT engine (by turns with a
/// local search on a panel [`portfolio::helped`] selects) rather than the
/// other lanes (as `auto` has it on some panels).
#[cfg(feature = "native")]
pub fn solve_plan_threads_with(
    plan: &Plan,
    limits: &Limits,
    schedule: &Schedule,
    sat: Option<&Puzzle>,
) -> Result<(Solution, u64)> {
    with_width!(plan, |masks: N| {
        let helper = match (sat, portfolio::helped(plan)) {
            (Some(p), true) => Some(portfolio::Helper::LocalSat(p)),
            (Some(p), false) => Some(portfolio::Helper::Sat(p)),
            (None, true) => Some(portfolio::Helper::Local),
            (None, false) => None,
        };
        if let Some(helper) = helper {
            let (answer, complete, visited) =
                portfolio::first_solution_helped(plan, &masks, limits, schedule, helper);
            return Ok((solution_of(plan, answer, complete), visited));
        }
        // A stop flag of our own, to stop the thread that lost the race.
        let stop = Arc::new(AtomicBool::new(false));
        let mut lim = limits.clone();
        lim.stop = Some(stop.clone());
        let all = &lanes::Turns::ALL;
        let mut turns = lanes::Turns::new(schedule, lim.max_nodes);
        let mut s = Search::<N>::new(plan, &masks, &lim);
        // The first round on this thread; the reversed plan only once the
        // first turn has not settled the puzzle.
        let settled = turns.step(&mut s, None, all);
        let back = match settled {
            None => lanes::Back::<N>::new(plan),
            Some(_) => None,
        };
        let mut bs = back.as_ref().map(|b| b.search(&lim));
        let first = settled.or_else(|| turns.finish_round(&mut s, bs.as_mut(), all));
        let (answer, complete, visited) = match first {
            Some(answer) => {
                let visited = s.visited + bs.as_ref().map_or(0, |b| b.visited);
                (answer, !turns.stopped, visited)
            }
            None => {
                let mut other = turns.clone();
                let masks = &masks;
                let lim = &lim;
                // The elimination cases take turns on the other thread; with
                // many, which start late, on both, half each. A local search
                // takes turns on each, with seeds of its own.
                let finished = std::sync::atomic::AtomicUsize::new(0);
                let (here, there) = portfolio::CaseShare::for_two_threads(plan, &finished);
                let race = |fwd: &mut Search<'_, N>,
                            back: Option<&mut Search<'_, N>>,
                            t: &mut lanes::Turns,
                            lanes: &[usize],
                            share: Option<&portfolio::CaseShare>| {
                    let (answer, case_nodes) = match share {
                        Some(share) => t.run_with_cases(fwd, back, lanes, plan, lim, share),
                        None => (t.run(fwd, back, lanes), 0),
                    };
                    // Stopped by the other thread's win, or by the limits.
                    let complete = !t.stopped;
                    if answer.is_some() || complete {
                        stop.store(true, Ordering::Relaxed);
                    }
                    (answer, complete, case_nodes)
                };
                let (mine, theirs) = std::thread::scope(|scope| {
                    let race = &race;
                    let room = crate::stack::need(plan.rules.board.len(), N);
                    let handle = scope.spawn(move || {
                        crate::stack::with_room(room, || {
                            let mut s2 = Search::<N>::new(plan, masks, lim);
                            let (answer, complete, case_nodes) =
                                race(&mut s2, bs.as_mut(), &mut other, &all[1..], Some(&there));
                            let visited = s2.visited + bs.map_or(0, |b| b.visited) + case_nodes;
                            ((answer, complete), visited)
                        })
                    });
                    let (answer, complete, case_nodes) =
                        race(&mut s, None, &mut turns, &all[..1], here.as_ref());
                    let mine = (answer, complete);
                    (
                        (mine, s.visited + case_nodes),
                        handle.join().expect("the solving thread does not panic"),
                    )
                });
                let ((mine, v1), (theirs, v2)) = (mine, theirs);
                let visited = v1 + v2;
                // The engine's order wins a tie.
                if mine.0.is_some() || (mine.1 && theirs.0.is_none()) {
                    (mine.0, true, visited)
                } else if theirs.0.is_some() || theirs.1 {
                    (theirs.0, true, visited)
                } else {
                    (None, false, visited)
                }
            }
        };
        Ok((solution_of(plan, answer, complete), visited))
    })
}

/// [`solve_plan_threads`] of `puzzle` (the puzzle of `plan`) with the SAT
/// engine on the second thread: past the first turn, one thread goes on
/// as one thread would (its local search, on marked panels, joining as
/// beside a helper, [`portfolio::CaseShare::all`]), from where the first
/// turn left it, and the
/// other runs the SAT engine, by turns with a local search on a panel
/// [`portfolio::helped`] selects ([`portfolio::first_solution_helped`]).
/// `auto` takes it for the marked panels without polyominoes and for the
/// piece panels with a few pieces and no mark, where the SAT engine
/// settles panels the search takes long over; beside the search rather
/// than in a race, the search is never started twice (docs/benchmarks.md,
/// "The SAT engine beside the search").
#[cfg(feature = "sat")]
pub fn solve_plan_sat_helper(puzzle: &Puzzle, plan: &Plan, limits: &Limits) -> Result<Solution> {
    solve_plan_threads_with(plan, limits, &Schedule::default(), Some(puzzle)).map(|(s, _)| s)
}

/// [`solve_plan`] of `puzzle` (the puzzle of `plan`) on this thread,
/// with the SAT engine's case cubes taking turns with the lanes, the
/// elimination cases and the local search
/// ([`portfolio::CaseShare::alone_with_sat`]): what `auto` runs on a
/// marked piece panel with elimination cases where no second thread is
/// to be had, in the helper thread's place (with the default schedule;
/// tests give shorter turns).
#[cfg(feature = "sat")]
pub fn solve_plan_cube_turns(
    puzzle: &Puzzle,
    plan: &Plan,
    limits: &Limits,
    schedule: &Schedule,
) -> Result<Solution> {
    with_width!(plan, |masks: N| {
        let share = portfolio::CaseShare::alone_with_sat(puzzle);
        let (answer, complete, _) =
            portfolio::first_solution_with_share(plan, &masks, limits, schedule, &share);
        Ok(solution_of(plan, answer, complete))
    })
}

/// [`solve`] on a prepared plan.
pub fn solve_plan(plan: &Plan, limits: &Limits) -> Result<Solution> {
    solve_plan_stats(plan, limits).map(|(s, _)| s)
}

/// [`solve_plan`], also telling how many search nodes it visited.
pub fn solve_plan_stats(plan: &Plan, limits: &Limits) -> Result<(Solution, u64)> {
    solve_plan_with(plan, limits, &Schedule::default())
}

/// [`solve_plan_stats`] with the turns' budgets given.
pub fn solve_plan_with(
    plan: &Plan,
    limits: &Limits,
    schedule: &Schedule,
) -> Result<(Solution, u64)> {
    with_width!(plan, |masks: N| {
        let (answer, complete, visited) = portfolio::first_solution(plan, &masks, limits, schedule);
        Ok((solution_of(plan, answer, complete), visited))
    })
}

/// Counts solutions on one thread in move order `lanes::ORDERS[order]`,
/// in turns of `budget` search nodes, each going on from where the last
/// stopped ([`lanes::count_in_turns`]): a check that resuming loses and
/// repeats nothing. `None` when the limits stopped it.
pub fn count_in_turns(
    plan: &Plan,
    limits: &Limits,
    budget: u64,
    order: usize,
) -> Result<Option<u64>> {
    with_width!(plan, |masks: N| {
        let mut s = Search::<N>::new(plan, &masks, limits);
        Ok(lanes::count_in_turns(&mut s, budget, order))
    })
}

/// Calls `visit` with every solution in the engine's order, on one thread,
/// until it returns false. Returns how the search ended.
pub fn for_each_solution(
    puzzle: &Puzzle,
    limits: &Limits,
    mut visit: impl FnMut(&Path) -> bool,
) -> Result<Status> {
    let plan = Plan::new(puzzle)?;
    for_each_found(&plan, limits, |f| visit(&path_of(&plan, f)))
}

/// [`for_each_solution`] on a prepared plan, with each solution as the
/// search reports it (start and end slots, moves).
pub fn for_each_found(
    plan: &Plan,
    limits: &Limits,
    mut visit: impl FnMut(&Found) -> bool,
) -> Result<Status> {
    with_width!(plan, |masks: N| {
        let mut s = Search::<N>::new(plan, &masks, limits);
        s.run_all(&mut |f: &Found| visit(f));
        Ok(if s.stopped {
            Status::Stopped
        } else {
            Status::Complete
        })
    })
}

/// Counts solutions, stopping at the options' `limit` if given, on all
/// cores. With [`CountOptions::uniqueness`] (a limit of 2), the count
/// tells whether the solution is unique. With [`Engine::Sat`] the SAT
/// engine counts, on one thread; with [`Engine::Auto`] (the default) the
/// search counts alone for a moment, then beside the SAT engine
/// ([`race`]). A count to 1 or 2 of a symmetry puzzle whose solutions
/// come in mirror pairs is a solve and the solution's twin
/// (`paired_count`).
pub fn count(puzzle: &Puzzle, options: &CountOptions) -> Result<Count> {
    if options.limit == Some(0) {
        return Err(zero_limit());
    }
    if options.engine.is_sat() {
        // A count to 2 of paired solutions is a solve (see `paired_count`).
        let paired = puzzle.symmetry.is_some() && options.limit.is_some_and(|l| l <= 2);
        let plan = paired.then(|| Plan::new(puzzle).ok()).flatten();
        if let Some(c) = plan.and_then(|plan| {
            paired_count(&plan, options.limit, || sat_solve(puzzle, &options.limits))
        }) {
            return c;
        }
        return sat_count(puzzle, options.limit, &options.limits);
    }
    let plan = Plan::new(puzzle)?;
    if options.engine == Engine::Auto {
        return race::count_plan(puzzle, &plan, options.limit, &options.limits).map(|r| r.answer);
    }
    count_plan(&plan, options.limit, &options.limits)
}

/// A count to at most 2 on a symmetry puzzle whose solutions come in
/// pairs, settled by a first solution from `solve`: `None` (and `solve`
/// not called) when that does not apply.
///
/// Where [`nearby::twin_starts`] holds and no start is its own mirror,
/// every solution has a mirror twin ([`nearby::mirror_twin`]: the same
/// two lines, the main one drawn from the mirrored start) that is also a
/// solution, and differs from it, since it starts elsewhere; the twin's
/// twin is the solution again. So the solutions pair off and their number
/// is even: 0 when the solve proves there is none, else at least 2, the
/// solution found and its twin. A solve finds a first solution sooner
/// than a count does (a count splits its work over the engine's order
/// before the other lanes have their turns).
pub(crate) fn paired_count(
    plan: &Plan,
    limit: Option<u64>,
    solve: impl FnOnce() -> Result<Solution>,
) -> Option<Result<Count>> {
    let limit = limit.filter(|&l| l <= 2)?;
    nearby::twin_starts(plan)?;
    let b = &plan.rules.board;
    if (0..b.len()).any(|s| b.start[s] && b.mirror[s] as usize == s) {
        return None;
    }
    Some(solve().map(|sol| match sol.path {
        None => Count::new(Natural::from(0u64), sol.status),
        Some(p) => {
            let start = b.index(p.start.x, p.start.y);
            let (ts, tm) = nearby::mirror_twin(plan, start, &p.moves)
                .expect("every solution has a twin where twin_starts holds");
            let mut solutions = vec![p, Path::new(b.pos(ts), tm)];
            solutions.truncate(limit as usize);
            Count {
                count: Natural::from(limit),
                status: Status::Stopped,
                solutions,
            }
        }
    }))
}

/// The error for a count limit of 0, which could only answer "at least 0".
fn zero_limit() -> Error {
    Error::Options("a count limit must be at least 1 (leave it out for no limit)".into())
}

/// The depth (in slots) at which counting splits the search into tasks.
const SPLIT_DEPTH: usize = 10;

/// Counts with a limit up to this by turns in every lane (see
/// [`count_plan`]) when the engine's order has not settled them.
pub const LANE_COUNT_MAX_LIMIT: u64 = 64;

/// The search nodes (in all) a count with a small limit runs in the
/// engine's order before it goes on by turns in every lane.
pub const LANE_COUNT_AFTER: u64 = 20_000;

/// [`count`] on a prepared plan.
///
/// Bare plans (nothing but lines, starts, ends and gaps) are counted by
/// [`frontier::frontier_count`] without enumerating paths when it supports
/// them; everything else, or a frontier count that outgrows its memory
/// cap, runs the search: on all cores in the engine's order. A count with
/// a small limit (up to [`LANE_COUNT_MAX_LIMIT`], as `--unique` has)
/// that this has not settled within [`LANE_COUNT_AFTER`] nodes goes on by
/// turns in the move orders and directions that find first solutions,
/// and with the elimination cases if it has marks
/// ([`portfolio::distinct_solutions`]), keeping the solutions already found
/// and searching the paths on each of the first ones' nodes ([`nearby`]):
/// on puzzles with several solutions, other orders often reach a second
/// one far sooner, and the first lane to search every path settles a
/// puzzle with fewer than the limit. Where `second_thread` allows, that
/// part runs on two threads, one as on one thread (but for its local
/// search, which joins as beside a helper) and the other helping
/// ([`portfolio::distinct_solutions_threads`]).
pub fn count_plan(plan: &Plan, limit: Option<u64>, limits: &Limits) -> Result<Count> {
    let solve = || {
        if second_thread() {
            solve_plan_threads(plan, limits).map(|(s, _)| s)
        } else {
            solve_plan(plan, limits)
        }
    };
    if let Some(c) = paired_count(plan, limit, solve) {
        return c;
    }
    count_plan_with(
        plan,
        limit,
        limits,
        LANE_COUNT_AFTER,
        &Schedule::default(),
        None,
    )
}

/// [`count_plan`] going on by turns in every lane, with turns of
/// `schedule`, after `lanes_after` search nodes in the engine's order;
/// with `sat`, the plan's puzzle, the helper thread runs the SAT engine's
/// count first where it may (`count_plan_pieces`).
pub fn count_plan_with(
    plan: &Plan,
    limit: Option<u64>,
    limits: &Limits,
    lanes_after: u64,
    schedule: &Schedule,
    sat: Option<&Puzzle>,
) -> Result<Count> {
    count_plan_threads(
        plan,
        limit,
        limits,
        lanes_after,
        schedule,
        second_thread(),
        sat,
    )
}

/// [`count_plan`] of `puzzle` (the puzzle of `plan`): a count with a
/// small limit that goes on on two threads has its helper run the SAT
/// engine's count first, before the engine's order on the branches left,
/// beside the side that runs every lane, where the panel is directed,
/// has no elimination marks and the limits no node cap, or the local
/// search and the SAT engine's case cubes by turns on a marked panel
/// with elimination cases ([`portfolio::distinct_solutions_threads`]);
/// without a second thread, on such directed unmarked panels, the
/// SAT engine's count between two runs of the search on the count's own
/// thread, and on such marked panels the case cubes by turns with the
/// lanes there ([`portfolio::distinct_solutions_sat_first`]). `auto` takes it for
/// panels with a handful of pieces, where the two engines are
/// complementary: each settles in milliseconds some counts the other
/// takes seconds over (docs/benchmarks.md, "Uniqueness on the slowest
/// piece panels").
#[cfg(feature = "sat")]
pub fn count_plan_pieces(
    puzzle: &Puzzle,
    plan: &Plan,
    limit: Option<u64>,
    limits: &Limits,
) -> Result<Count> {
    let schedule = Schedule::default();
    count_plan_with(
        plan,
        limit,
        limits,
        LANE_COUNT_AFTER,
        &schedule,
        Some(puzzle),
    )
}

/// [`count_plan`] on the current thread pool alone: a count with a small
/// limit does not go on on a thread of its own beside it. For a caller
/// that keeps the other cores for other work, as the `auto` race keeps
/// one for the SAT engine.
#[cfg(feature = "sat")]
pub fn count_plan_one_thread(plan: &Plan, limit: Option<u64>, limits: &Limits) -> Result<Count> {
    count_plan_threads(
        plan,
        limit,
        limits,
        LANE_COUNT_AFTER,
        &Schedule::default(),
        false,
        None,
    )
}

/// [`count_plan_with`], going on on two threads when `threads` is true
/// ([`portfolio::distinct_solutions_threads`], with the SAT engine's
/// count on `sat`, the plan's puzzle, as the helper), else on this
/// thread, with the SAT engine's count on `sat` between two runs of the
/// search, or its case cubes by turns with the lanes on a marked panel
/// ([`portfolio::distinct_solutions_sat_first`]).
fn count_plan_threads(
    plan: &Plan,
    limit: Option<u64>,
    limits: &Limits,
    lanes_after: u64,
    schedule: &Schedule,
    threads: bool,
    sat: Option<&Puzzle>,
) -> Result<Count> {
    let keep = answer::keeps_solutions(limit);
    if let Some(mut c) = frontier::frontier_count(plan, limit, limits) {
        if keep {
            c.solutions = first_solutions(plan, limits, c.count.to_u64().unwrap_or(u64::MAX))?;
        }
        return Ok(c);
    }
    with_width!(plan, |masks: N| {
        let small = limit.filter(|l| (1..=LANE_COUNT_MAX_LIMIT).contains(l));
        // A node budget of the caller's within the first part is final.
        let final_cap = limits.max_nodes.is_some_and(|m| m <= lanes_after);
        let seen = Mutex::new(portfolio::Seen::new());
        let record = keep.then_some(&seen);
        let Some(l) = small.filter(|_| !final_cap) else {
            let mut c = count_tasks(plan, &masks, limit, limits, record, None).0;
            c.solutions = kept(plan, seen.into_inner().expect("lock"), &c);
            return Ok(c);
        };
        let (c, spent, rest) = count_tasks(plan, &masks, limit, limits, record, Some(lanes_after));
        let seen = seen.into_inner().expect("lock");
        if c.status == Status::Complete || c.count >= l || limits.expired() {
            let solutions = kept(plan, seen, &c);
            return Ok(Count { solutions, ..c });
        }
        // The caller's node budget, less what the first part took.
        let max_nodes = limits
            .max_nodes
            .map_or(u64::MAX, |m| m.saturating_sub(spent));
        let job = portfolio::CountJob {
            plan,
            masks: &masks,
            limits,
            schedule,
            limit: l,
            max_nodes,
        };
        let d = if threads {
            portfolio::distinct_solutions_threads(&job, seen, rest, sat)
        } else {
            portfolio::distinct_solutions_sat_first(&job, seen, sat)
        };
        let status = if d.complete {
            Status::Complete
        } else {
            Status::Stopped
        };
        let c = Count::new(d.count.into(), status);
        let solutions = kept(plan, d.seen, &c);
        Ok(Count { solutions, ..c })
    })
}

/// True when a job may start a second thread of its own (a solve going
/// on on two threads past its first round, [`solve_plan_threads`]; the SAT
/// engine beside the search, [`solve_plan_sat_helper`]; a count with a
/// small limit, [`portfolio::distinct_solutions_threads`]): on a machine
/// with two cores or more, when it is not called from a thread pool's
/// thread, or is called from a pool of one thread. A pool of several
/// threads is a caller that runs several jobs at once (as `witness bench
/// --jobs 2` does), whose threads keep the cores busy; a pool of one runs
/// one job at a time and leaves the other cores free (`--jobs 1`). Which
/// thread finds a solution changes only when it is found, not what a
/// count counts: the threads share one set of solutions, told apart by
/// their lines.
pub(crate) fn second_thread() -> bool {
    #[cfg(feature = "native")]
    {
        match rayon::current_thread_index() {
            None => two_cores(),
            Some(_) => rayon::current_num_threads() == 1 && two_cores(),
        }
    }
    #[cfg(not(feature = "native"))]
    false
}

/// The solutions of `seen` that a count `c` keeps
/// ([`Count::solutions`]): as many as it counted, in the order of their
/// start slot and moves.
fn kept(plan: &Plan, seen: portfolio::Seen, c: &Count) -> Vec<Path> {
    let n = c.count.to_u64().unwrap_or(u64::MAX);
    let mut all: Vec<(usize, Vec<Direction>)> = seen.into_iter().collect();
    all.sort_by_key(|(s, m)| (*s, m.iter().map(|&d| d as u8).collect::<Vec<_>>()));
    all.into_iter()
        .take(usize::try_from(n).unwrap_or(usize::MAX))
        .map(|(start, moves)| Path::new(plan.rules.board.pos(start), moves))
        .collect()
}

/// The first `n` solutions in the engine's order, for a count that did
/// not draw them ([`frontier`] counts bare panels without drawing
/// lines; there every line from a start to an end is a solution, so the
/// first are found at once).
fn first_solutions(plan: &Plan, limits: &Limits, n: u64) -> Result<Vec<Path>> {
    let mut found = Vec::new();
    if n == 0 {
        return Ok(found);
    }
    for_each_found(plan, limits, |f| {
        found.push(path_of(plan, f));
        (found.len() as u64) < n
    })?;
    Ok(found)
}

/// [`portfolio::distinct_solutions`] (or, with `two_threads`,
/// [`portfolio::distinct_solutions_threads`]) on a plan, with no node cap but
/// the limits': the distinct solutions found by turns in every lane, up
/// to `limit`, `seen` (start slot and moves) counting as found.
pub fn distinct_lanes(
    plan: &Plan,
    limits: &Limits,
    schedule: &Schedule,
    limit: u64,
    seen: portfolio::Seen,
    two_threads: bool,
) -> Result<portfolio::Distinct> {
    with_width!(plan, |masks: N| {
        let max_nodes = limits.max_nodes.unwrap_or(u64::MAX);
        let job = portfolio::CountJob {
            plan,
            masks: &masks,
            limits,
            schedule,
            limit,
            max_nodes,
        };
        Ok(if two_threads {
            portfolio::distinct_solutions_threads(&job, seen, None, None)
        } else {
            portfolio::distinct_solutions(&job, seen)
        })
    })
}

/// The count of [`count_plan`] in the engine's order on all cores: the
/// moves down to a split depth on this thread, the branches below it as
/// parallel tasks. With `record`, each solution found is also kept there
/// as its start and moves; with `cap`, the count stops (as cut short)
/// once its searches have visited about that many nodes in all (a task
/// that begins under the cap gets what is left of it). Also gives the
/// nodes visited and, when the moves above the split depth were all
/// searched, the branches not searched to the end.
#[allow(clippy::type_complexity)]
fn count_tasks<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limit: Option<u64>,
    limits: &Limits,
    record: Option<&Mutex<portfolio::Seen>>,
    cap: Option<u64>,
) -> (Count, u64, Option<Vec<(usize, Vec<Direction>)>>) {
    let total = AtomicU64::new(0);
    let capped = AtomicBool::new(false);
    let stop_flag = Arc::new(AtomicBool::new(false));
    let mut inner = limits.clone();
    inner.stop = Some(stop_flag.clone());
    // In a symmetry puzzle where every solution has a mirror twin, one of
    // each pair of mirrored starts is searched and its solutions count
    // twice.
    let skip = nearby::twin_starts(plan);
    let b = &plan.rules.board;
    let tally = |f: &Found| -> bool {
        let twinned = skip.is_some() && b.mirror[f.start] as usize != f.start;
        if let Some(r) = record {
            portfolio::insert_solution(
                plan,
                &mut r.lock().expect("lock"),
                (f.start, f.moves.to_vec()),
            );
        }
        let w = if twinned { 2 } else { 1 };
        let n = total.fetch_add(w, Ordering::Relaxed) + w;
        if limit.is_some_and(|l| n >= l) {
            capped.store(true, Ordering::Relaxed);
            stop_flag.store(true, Ordering::Relaxed);
            return false;
        }
        true
    };
    // Phase 1: everything shallower than the split depth, recording
    // the deeper branches as tasks.
    let mut s = Search::<N>::new(plan, masks, &inner);
    if let Some(skip) = &skip {
        s.skip_starts(skip.clone());
    }
    s.split_depth = Some(SPLIT_DEPTH);
    s.set_budget(cap.map(|c| c.max(1)));
    s.run_all(&mut |f: &Found| tally(f));
    let mut stopped = s.stopped;
    let spent = AtomicU64::new(s.visited);
    let tasks = std::mem::take(&mut s.tasks);
    // Phase 2: the tasks, in parallel.
    let split_done = !stopped;
    let done: Vec<AtomicBool> = tasks.iter().map(|_| AtomicBool::new(false)).collect();
    if !stopped && !capped.load(Ordering::Relaxed) {
        let cap = cap.map(|c| (&spent, c));
        stopped |= !search::run_branches(plan, masks, &inner, &tasks, cap, Some(&done), &tally);
    }
    let capped = capped.load(Ordering::Relaxed);
    let mut count = total.load(Ordering::Relaxed);
    if let Some(l) = limit {
        count = count.min(l);
    }
    // Stopped by our own limit flag counts as capped, not as a timeout.
    let timed_out = stopped && !capped;
    let status = if capped || timed_out {
        Status::Stopped
    } else {
        Status::Complete
    };
    let count = Count::new(count.into(), status);
    let rest = split_done.then(|| {
        tasks
            .into_iter()
            .zip(&done)
            .filter(|(_, d)| !d.load(Ordering::Relaxed))
            .map(|(t, _)| t)
            .collect()
    });
    (count, spent.load(Ordering::Relaxed), rest)
}

/// The first part of a solution (for a puzzle with one solution, the start
/// of that solution).
pub fn hint(puzzle: &Puzzle, options: &HintOptions) -> Result<Hint> {
    let size = options.size;
    if let HintSize::Fraction(f) = size {
        if !(0.0..=1.0).contains(&f) {
            return Err(Error::Options(format!(
                "a hint's share of the solution must be from 0 to 1, not {f}"
            )));
        }
    }
    let sol = solve(
        puzzle,
        &SolveOptions {
            limits: options.limits.clone(),
            engine: options.engine,
        },
    )?;
    let Some(full) = sol.path.clone() else {
        return Ok(Hint {
            path: None,
            solution: None,
            status: sol.status,
        });
    };
    // Segment boundaries: after each move that lands on a node.
    let slots = full.slots(puzzle)?;
    let mut cuts = Vec::new();
    for (k, p) in slots.iter().enumerate().skip(1) {
        if p.x % 2 == 0 && p.y % 2 == 0 || k == slots.len() - 1 {
            cuts.push(k);
        }
    }
    let segments = cuts.len();
    let want = match size {
        HintSize::Steps(k) => k.min(segments),
        // None of it for a fraction of 0 (or less), at least a segment
        // for any more.
        HintSize::Fraction(f) if f.is_nan() || f <= 0.0 => 0,
        HintSize::Fraction(f) => ((segments as f64 * f.min(1.0)).ceil() as usize).max(1),
    }
    .min(segments);
    let moves: Vec<Direction> = if want == 0 {
        Vec::new()
    } else {
        full.moves[..cuts[want - 1]].to_vec()
    };
    Ok(Hint {
        path: Some(Path::new(full.start, moves)),
        solution: Some(full),
        status: sol.status,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Pos;
    use std::collections::HashSet;

    /// A solve or a count takes a second thread when its caller is no
    /// pool's thread or a pool of one (one job at a time, the other cores
    /// free), never from a pool of several (which keeps the cores busy
    /// itself); on a machine of one core, never.
    #[cfg(feature = "native")]
    #[test]
    fn a_second_thread_outside_pools_and_in_a_pool_of_one() {
        let pool = |n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        };
        let two = two_cores();
        assert_eq!(second_thread(), two);
        assert_eq!(pool(1).install(second_thread), two);
        assert!(!pool(2).install(second_thread));
    }

    /// A count keeps each solution it finds as its start slot and whole
    /// moves, those of paths found in the parallel tasks included (their
    /// moves begin with the task's prefix): exactly the brute force's
    /// solutions, as the lanes that go on from them tell solutions apart.
    #[test]
    fn counts_keep_the_solutions_as_the_lanes_tell_them_apart() {
        let mut p = Puzzle::new(3, 3, false).unwrap();
        p.cell_mut(Pos::new(0, 6)).start = true;
        p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Up);
        let plan = Plan::new(&p).unwrap();
        let mut want = HashSet::new();
        brute::enumerate(&p, &Limits::none(), |q| {
            want.insert((p.index(q.start), q.moves.clone()));
            true
        })
        .unwrap();
        assert_eq!(want.len(), 184);
        let kept = Mutex::new(HashSet::new());
        let masks = Masks::<1>::new(&plan);
        let (c, _, _) = count_tasks(&plan, &masks, None, &Limits::none(), Some(&kept), None);
        assert_eq!((c.count, c.status), (184u64.into(), Status::Complete));
        assert_eq!(kept.into_inner().unwrap(), want);
        // Cut short, a count leaves branches that with what it searched
        // cover every path: their solutions and the ones it kept are all.
        let mut resumed = 0;
        for cap in [100, 200, 400, 800, 1600] {
            let kept = Mutex::new(HashSet::new());
            let (c, _, rest) =
                count_tasks(&plan, &masks, None, &Limits::none(), Some(&kept), Some(cap));
            let Some(rest) = rest else { continue };
            if c.status == Status::Complete {
                continue;
            }
            let mut all = kept.into_inner().unwrap();
            let none = Limits::none();
            let mut s = Search::<1>::new(&plan, &masks, &none);
            for (start, prefix) in &rest {
                s.run_from(*start, prefix, &mut |f: &Found| {
                    all.insert((f.start, f.moves.to_vec()));
                    true
                });
            }
            assert_eq!(all, want, "cap {cap}: {} branches left", rest.len());
            resumed += 1;
        }
        assert!(
            resumed >= 2,
            "only {resumed} counts cut short after the split"
        );
        // Seeded with all of them, the lanes find nothing new.
        let d = distinct_lanes(
            &plan,
            &Limits::none(),
            &Schedule::default(),
            1000,
            want,
            false,
        )
        .unwrap();
        assert_eq!((d.count, d.complete), (184, true));
    }
}

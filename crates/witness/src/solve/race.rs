//! The `auto` engine ([`super::Engine::Auto`]): the search first, alone,
//! for a short budget; then, when it has not answered, the search and the
//! SAT engine side by side, the first answer winning and the other
//! stopped through its limits' race flag.
//!
//! - **Solving** ([`solve_plan`]): the search by turns on this thread for
//!   [`SEARCH_FIRST`] (the same first answer as [`super::solve_plan`] for
//!   every puzzle it settles, so the median puzzle pays nothing for the
//!   race); on a panel whose rules are all clauses of the SAT encoding
//!   (`clauses_only`), then the SAT engine on this thread for as long.
//!   Past it, the search starts afresh (the budget is lost: the
//!   search cannot resume where a limit stopped it) beside the SAT
//!   engine, each on a thread of its own. A piece panel with a handful
//!   of pieces and no mark where no second thread is to be had (a pool
//!   of several threads) has instead the search for `SEARCH_BEFORE_SAT`,
//!   the SAT engine for `SAT_BETWEEN`, then the search afresh, all on
//!   this thread (`sat_between`).
//! - **Counting with a limit** (`count --unique` has 2) ([`count_plan`]):
//!   the search's count for [`COUNT_FIRST`], then the search's count and
//!   the SAT engine's (blocking each solution found) side by side. On a
//!   panel whose rules are all clauses of the SAT encoding (dots,
//!   triangles, no region rule: `clauses_only`), the search's count
//!   for [`CLAUSES_FIRST`] only; then the SAT engine's, on this thread
//!   too, for [`COUNT_FIRST`]; then the race, both afresh. A count to 1
//!   or 2 of a symmetry puzzle whose solutions come in mirror pairs is
//!   the race of a solve instead (`super::paired_count`).
//! - **Full counts**: the same, but the SAT engine, which finds solutions
//!   one solver call at a time, gives up past [`SAT_COUNT_CAP`] solutions
//!   and leaves the count to the search (whose tables and frontier count
//!   many solutions at once); it wins full counts of panels with few
//!   solutions that the search is slow to exhaust.
//!
//! - **Counting piece panels with a handful of pieces**
//!   ([`SAT_HELPER_MAX_PIECES`]): no race; the search's count, whose
//!   second thread (past the engine's order's first part) runs the SAT
//!   engine's count first on directed panels without elimination marks,
//!   and the local search beside the SAT engine's case cubes on marked
//!   ones with elimination cases (`super::count_plan_pieces`); without
//!   a second thread, on the directed unmarked ones, the search for
//!   [`SAT_AFTER`](super::lanes::SAT_AFTER), the SAT engine's count, then
//!   the search afresh, on the count's own thread.
//!
//! - **The SAT engine beside the search** (`sat_beside`): no race; a
//!   solve of a panel with a handful of pieces and no mark, or of a marked
//!   panel that the local search takes (without pieces, or with a
//!   handful of pieces and elimination cases), where a second thread is
//!   to be had, runs the search on one thread from where its first turn
//!   left it and the SAT engine on the other (by turns with a local
//!   search on the marked panels, the SAT engine asking about the cases
//!   one at a time: `solve_plan_sat_helper`). Where no second thread is
//!   to be had, the marked piece panels with elimination cases have the
//!   SAT engine's case cubes by turns with the search on the solve's own
//!   thread instead (`super::solve_plan_cube_turns`), and their counts
//!   to a small limit alike
//!   ([`distinct_solutions_sat_first`](super::portfolio::distinct_solutions_sat_first)).
//!
//! Panels the SAT engine does not support ([`crate::Error::Unsupported`]),
//! other work on panels with polyominoes (where the search is the faster
//! engine), and limits with a node budget (which only the search
//! measures) stay with the search alone, as [`super::Engine::Search`]
//! runs it. Whoever
//! answers, the answer has the same type; every SAT answer passed the
//! validator (`solve::sat`). Which engine answers a puzzle past the first
//! budget may depend on timing, and so may which solution is returned.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::limits::Work;
use super::plan::Plan;
use super::{Count, Limits, Solution, Status};
use crate::error::Result;
use crate::model::Puzzle;

/// A head start: a budget of work, as the processor time of the threads
/// that do it ([`crate::solve::limits::Work`]), and a cap of wall time
/// past which it ends anyway.
///
/// Work rather than wall time, so that the race does not depend on the
/// machine's load: on a loaded machine a wall-time budget shrinks in
/// work (a thread waiting for a core spends its budget waiting), the
/// search settles fewer puzzles alone, and more of them pay for a race
/// that, with both sides waiting for cores too, is slower still. Work
/// rather than search nodes: a node costs a hundred times more on some
/// panels than on others, and a node budget changes the order in which
/// the search takes its turns. The wall-time cap is a backstop, for a
/// machine so loaded that a thread gets less than a tenth of a core, and
/// for work the thread clocks cannot see (a pool thread's work before its
/// first check of its limits).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HeadStart {
    /// The processor time.
    pub work: Duration,
    /// The wall time past which the head start ends anyway.
    pub wall: Duration,
}

impl HeadStart {
    /// `work` of processor time, capped at ten times as much wall time.
    pub const fn of(work: Duration) -> HeadStart {
        HeadStart {
            work,
            wall: work.saturating_mul(10),
        }
    }
}

/// How long the search runs alone before the SAT engine joins in: 2 ms of
/// work, about a hundred times the median puzzle's need, so that all but
/// a few percent of the puzzles without pieces are settled by the search
/// alone, with its own answer and no thread started (the search's
/// percentiles are in docs/benchmarks.md, "The SAT engine").
pub const SEARCH_FIRST: HeadStart = HeadStart::of(Duration::from_millis(2));

/// How long a count runs the search alone before the SAT engine joins
/// in: 3 ms of work, a little more than a solve's, since a count's search
/// settles most puzzles in about twice a solve's time (it must search on
/// past the first solution) and the SAT engine pays a solver call per
/// solution.
pub const COUNT_FIRST: HeadStart = HeadStart::of(Duration::from_millis(3));

/// How long a count with a limit runs the search alone on a panel whose
/// every rule is a clause of the SAT encoding (`clauses_only`) before
/// the SAT engine takes over: 0.3 ms of work, a few times the median
/// such panel's need. The SAT engine then runs alone on the same thread
/// for [`COUNT_FIRST`]'s work, and only past that does the race start.
/// There the SAT engine's models are solutions unless they have loops,
/// and a count to a small limit costs it a few solver calls, while the
/// search must walk every path the dots and triangles leave open (a maze
/// whose rooms all carry dots, say): the search keeps the panels it
/// settles at once, and the SAT engine answers the others without a
/// thread to start (on a loaded machine a new thread waits for a core,
/// which costs more than such a count).
pub const CLAUSES_FIRST: HeadStart = HeadStart::of(Duration::from_micros(300));

/// The solutions past which the SAT engine gives up a full count (one with
/// no limit) and leaves it to the search.
pub const SAT_COUNT_CAP: u64 = 1_000;

/// Which engine answered.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Winner {
    /// The search, alone in its first budget or first in the race.
    Search,
    /// The SAT engine, alone in its turn on a panel of clauses, or first
    /// in the race.
    Sat,
}

/// A race's answer, who gave it, and the other side.
#[derive(Debug)]
pub struct Raced<T> {
    /// The answer.
    pub answer: T,
    /// Who gave it.
    pub winner: Winner,
    /// True when the race ran (the search alone did not settle it).
    pub raced: bool,
    /// True when the other side's race flag was set (it was still
    /// running when the winner answered).
    pub loser_stopped: bool,
    /// The other side's answer, when it comes: the race returns as soon
    /// as the winner answers, and the loser ends on its own thread once
    /// it sees its flag.
    pub loser: Option<Receiver<(Winner, Result<T>)>>,
}

impl<T> Raced<T> {
    fn alone(answer: T) -> Raced<T> {
        Raced {
            answer,
            winner: Winner::Search,
            raced: false,
            loser_stopped: false,
            loser: None,
        }
    }

    /// The SAT engine's answer in its own turn alone, on the caller's
    /// thread (after the search's): no thread was started, but the
    /// search's head start did not settle it.
    #[cfg(feature = "sat")]
    fn by_sat(answer: T) -> Raced<T> {
        Raced {
            answer,
            winner: Winner::Sat,
            raced: true,
            loser_stopped: false,
            loser: None,
        }
    }
}

/// One side of a race: a job run with the limits given.
type Side<T> = Box<dyn FnOnce(&Limits) -> Result<T> + Send>;

/// Runs `search` and `sat` on threads of their own, with limits `limits`
/// each plus a race flag of its own, and returns the first answer for
/// which `settled` holds, as soon as it comes; the other side's flag is
/// set then, and it ends on its own thread. When neither settles (the
/// caller's limits stopped both, or the SAT side gave up), the search's
/// answer, unless `better(search's, SAT's)` prefers the SAT side's (a
/// partial count that found more). A failing SAT side leaves the answer
/// to the search.
pub fn run<T: Send + 'static>(
    limits: &Limits,
    slots: usize,
    search: impl FnOnce(&Limits) -> Result<T> + Send + 'static,
    sat: impl FnOnce(&Limits) -> Result<T> + Send + 'static,
    settled: impl Fn(&T) -> bool + Send + Sync + Copy + 'static,
    better: impl Fn(&T, &T) -> bool,
) -> Result<Raced<T>> {
    let search_flag = Arc::new(AtomicBool::new(false));
    let sat_flag = Arc::new(AtomicBool::new(false));
    let mut slim = limits.clone();
    slim.race = Some(search_flag.clone());
    let mut tlim = limits.clone();
    tlim.race = Some(sat_flag.clone());
    // 0: nobody settled yet; 1: the search first; 2: the SAT engine first.
    let first = Arc::new(AtomicU8::new(0));
    let (tx, rx) = channel::<(Winner, Result<T>)>();
    let room = crate::stack::need_for_slots(slots);
    let side = |who: Winner, lim: Limits, other: Arc<AtomicBool>, f: Side<T>| {
        let (tx, first) = (tx.clone(), first.clone());
        let code = if who == Winner::Search { 1 } else { 2 };
        move || {
            let r = crate::stack::with_room(room, || f(&lim));
            if r.as_ref().is_ok_and(settled)
                && first
                    .compare_exchange(0, code, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok()
            {
                other.store(true, Ordering::SeqCst);
            }
            let _ = tx.send((who, r));
        }
    };
    let jobs = [
        side(Winner::Sat, tlim, search_flag.clone(), Box::new(sat)),
        side(Winner::Search, slim, sat_flag.clone(), Box::new(search)),
    ];
    drop(tx);
    for job in jobs {
        let job = Arc::new(std::sync::Mutex::new(Some(job)));
        let mine = job.clone();
        let spawned = std::thread::Builder::new().spawn(move || {
            if let Some(job) = mine.lock().ok().and_then(|mut j| j.take()) {
                job();
            }
        });
        if spawned.is_err() {
            // No thread to be had: run the side here.
            if let Some(job) = job.lock().ok().and_then(|mut j| j.take()) {
                job();
            }
        }
    }
    let (mut search_answer, mut sat_answer) = (None, None);
    while let Ok((who, r)) = rx.recv() {
        let code = if who == Winner::Search { 1 } else { 2 };
        if r.as_ref().is_ok_and(settled) && first.load(Ordering::SeqCst) == code {
            let other = if who == Winner::Search {
                &sat_flag
            } else {
                &search_flag
            };
            // The loser may have answered first (it saw its flag and
            // sent before the winner did): its answer goes on a channel
            // of its own, so that the caller receives it either way.
            let early = if who == Winner::Search {
                sat_answer.take().map(|a| (Winner::Sat, a))
            } else {
                search_answer.take().map(|a| (Winner::Search, a))
            };
            let loser = match early {
                Some(message) => {
                    let (tx, rx) = channel();
                    let _ = tx.send(message);
                    rx
                }
                None => rx,
            };
            return Ok(Raced {
                answer: r?,
                winner: who,
                raced: true,
                loser_stopped: other.load(Ordering::SeqCst),
                loser: Some(loser),
            });
        }
        if who == Winner::Search {
            search_answer = Some(r);
        } else {
            sat_answer = Some(r);
        }
    }
    let answer = search_answer.unwrap_or_else(|| {
        Err(crate::Error::Options(
            "the search's thread ended without an answer".into(),
        ))
    });
    // Neither settled: the search's answer, or the SAT side's when it is
    // better; a failed search is the answer's error.
    let (answer, winner) = match (answer, sat_answer.and_then(Result::ok)) {
        (Ok(a), Some(t)) if better(&a, &t) => (t, Winner::Sat),
        (Ok(a), _) => (a, Winner::Search),
        (Err(e), _) => return Err(e),
    };
    Ok(Raced {
        answer,
        winner,
        raced: true,
        loser_stopped: false,
        loser: None,
    })
}

/// `limits` with the head start `budget` from now on this thread: its
/// work budget, and a deadline no later than its wall-time cap (without
/// a thread clock, no later than its work budget, in wall time).
pub(crate) fn within(limits: &Limits, budget: HeadStart) -> Limits {
    let mut l = limits.clone();
    let work = Work::new(budget.work);
    let wall = if work.is_some() {
        budget.wall
    } else {
        budget.work
    };
    // A budget too long for a clock to reach sets no deadline of its own.
    if let Some(soon) = Instant::now().checked_add(wall) {
        l.deadline = Some(limits.deadline.map_or(soon, |d| d.min(soon)));
    }
    l.work = work;
    l
}

/// True when a solve's answer is final: a path, or "no solution" proved.
fn solved(s: &Solution) -> bool {
    s.path.is_some() || s.status == Status::Complete
}

/// True when a count with `limit` is final: complete, or at its limit.
fn counted(c: &Count, limit: Option<u64>) -> bool {
    c.status == Status::Complete || limit.is_some_and(|l| c.count >= l)
}

/// The search alone, as [`super::Engine::Search`] runs it: on two threads
/// past its first round when the machine has two cores and the caller is
/// not a thread pool's (a caller running several jobs at once), or is a
/// pool of one (`second_thread`).
pub fn search_alone(plan: &Plan, limits: &Limits) -> Result<Solution> {
    search_alone_on(plan, limits, super::second_thread())
}

/// [`search_alone`] on two threads past its first round when `two`.
fn search_alone_on(plan: &Plan, limits: &Limits, two: bool) -> Result<Solution> {
    if two {
        return super::solve_plan_threads(plan, limits).map(|(s, _)| s);
    }
    super::solve_plan(plan, limits)
}

/// [`super::solve`] with [`super::Engine::Auto`] on a prepared plan of
/// `puzzle`; also tells who answered.
pub fn solve_plan(puzzle: &Puzzle, plan: &Plan, limits: &Limits) -> Result<Raced<Solution>> {
    solve_plan_on(puzzle, plan, limits, super::second_thread())
}

/// [`solve_plan`], the search alone going on on two threads past its
/// first round when `two` (a count's first solution takes the threads a
/// count would, [`super::second_thread`]).
fn solve_plan_on(
    puzzle: &Puzzle,
    plan: &Plan,
    limits: &Limits,
    two: bool,
) -> Result<Raced<Solution>> {
    let search_alone = |plan: &Plan, limits: &Limits| search_alone_on(plan, limits, two);
    // Without the SAT engine there is no race, and no clock is read (a
    // WebAssembly build in a browser has none).
    if !cfg!(feature = "sat") || limits.max_nodes.is_some() {
        return search_alone(plan, limits).map(Raced::alone);
    }
    // The SAT engine beside the search on its second thread, where one is
    // to be had (the answer is reported as the search's).
    #[cfg(feature = "sat")]
    if sat_beside(plan) && super::second_thread() {
        return super::solve_plan_sat_helper(puzzle, plan, limits).map(Raced::alone);
    }
    // Without a second thread (a pool of several, each on a puzzle of its
    // own), a marked piece panel with elimination cases has the SAT
    // engine's case cubes by turns with the search on this thread.
    #[cfg(feature = "sat")]
    if marked_pieces_with_cases(plan) {
        let schedule = super::Schedule::default();
        return super::solve_plan_cube_turns(puzzle, plan, limits, &schedule).map(Raced::alone);
    }
    // Without a second thread, a piece panel with a handful of pieces and
    // no mark has the SAT engine between two runs of the search, on this
    // thread.
    #[cfg(feature = "sat")]
    if sat_helps(plan) && !plan.rules.board.has_negations {
        return sat_between(puzzle, plan, limits, two);
    }
    if !sat_joins(plan) {
        return search_alone(plan, limits).map(Raced::alone);
    }
    let first = super::solve_plan(plan, &within(limits, SEARCH_FIRST))?;
    if solved(&first) || limits.expired() {
        // Stopped by the caller's limits, not by the budget: say so.
        return Ok(Raced::alone(first));
    }
    // A panel whose rules are all clauses: the SAT engine alone on this
    // thread for as long, before any thread is started.
    #[cfg(feature = "sat")]
    if clauses_only(plan) {
        let room = crate::stack::need_for_slots(plan.rules.board.len());
        let sat = crate::stack::with_room(room, || {
            let l = within(limits, SEARCH_FIRST);
            super::sat::SatRun::new(puzzle, &l)?.solve(&l)
        });
        match sat {
            Ok(s) if solved(&s) => return Ok(Raced::by_sat(s)),
            _ if limits.expired() => return Ok(Raced::alone(first)),
            _ => {}
        }
    }
    solve_race(puzzle, plan, limits)
}

/// A solve on one thread of a piece panel the SAT engine helps with
/// (`sat_helps`, no elimination mark) where no second thread is to be
/// had: the search for [`SEARCH_BEFORE_SAT`], then the SAT engine for
/// [`SAT_BETWEEN`], then the search afresh under the caller's limits.
/// The engines are complementary on such panels (each settles in
/// milliseconds some the other takes seconds over); a panel the search
/// settles within its first run pays nothing, and one that neither
/// settles there pays the SAT engine's budget and the first run again.
#[cfg(feature = "sat")]
fn sat_between(
    puzzle: &Puzzle,
    plan: &Plan,
    limits: &Limits,
    two: bool,
) -> Result<Raced<Solution>> {
    let first = search_alone_on(plan, &within(limits, SEARCH_BEFORE_SAT), two)?;
    if solved(&first) || limits.expired() {
        return Ok(Raced::alone(first));
    }
    SAT_BETWEEN_RUNS.fetch_add(1, Ordering::Relaxed);
    let room = crate::stack::need_for_slots(plan.rules.board.len());
    let sat = crate::stack::with_room(room, || {
        let l = within(limits, SAT_BETWEEN);
        super::sat::SatRun::new(puzzle, &l)?.solve(&l)
    });
    match sat {
        Ok(s) if solved(&s) => Ok(Raced::by_sat(s)),
        _ if limits.expired() => Ok(Raced::alone(first)),
        _ => search_alone_on(plan, limits, two).map(Raced::alone),
    }
}

/// The solves on one thread that came to the SAT engine's turn of
/// `sat_between`, in all, since the process started: for tests, to tell
/// that the turn came.
#[cfg(feature = "sat")]
pub static SAT_BETWEEN_RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// How long a solve on one thread runs the search before the SAT
/// engine's turn (`sat_between`): [`SAT_AFTER`](super::lanes::SAT_AFTER)
/// of work, as a count's.
#[cfg(feature = "sat")]
pub const SEARCH_BEFORE_SAT: HeadStart = HeadStart::of(super::lanes::SAT_AFTER);

/// The SAT engine's turn in a solve on one thread of a piece panel with
/// a handful of pieces ([`SAT_HELPER_MAX_PIECES`]): the budget the
/// count's helper gives it
/// ([`SAT_HELPER_FIRST`](super::portfolio::SAT_HELPER_FIRST)).
#[cfg(feature = "sat")]
pub const SAT_BETWEEN: HeadStart = super::portfolio::SAT_HELPER_FIRST;

/// True when every rule of the panel is a clause of the SAT encoding,
/// with no cut to wait for but the loops': dots, gaps and triangles
/// (exact cardinalities over a face's edges), symmetry and pillars, and
/// no other symbol (no region rule, no elimination mark). At least one
/// dot or triangle: bare panels are the frontier count's. A pass over the
/// board's slots, without encoding anything.
#[cfg(feature = "sat")]
fn clauses_only(plan: &Plan) -> bool {
    use crate::rules::board::Sym;
    let b = &plan.rules.board;
    if b.has_negations || b.has_polys {
        return false;
    }
    let mut any = false;
    for (s, sym) in b.sym.iter().enumerate() {
        match sym {
            Sym::Empty => any |= b.dot[s] != crate::model::Dot::None,
            Sym::Triangle(_) => any = true,
            _ => return false,
        }
    }
    any
}

/// Whether the SAT engine joins every race on `puzzle`: it supports the
/// panel, and the panel has no polyominoes. The SAT engine answers
/// panels with pieces exactly, but on panels with many pieces the search
/// is the faster engine, and a race would take the second of the
/// search's two threads from it: racing such panels makes `auto`'s tail
/// slower (docs/benchmarks.md, "The SAT engine", "Region labels"). On a
/// few panels a solve has the SAT engine beside the search instead
/// ([`sat_beside`]).
#[cfg(feature = "sat")]
fn sat_joins(plan: &Plan) -> bool {
    let b = &plan.rules.board;
    !b.has_polys && super::sat::unsupported(b).is_none()
}

/// The most pieces (polyominoes and subtractive ones) a panel may hold
/// for its counts to have the SAT engine's count as a helper
/// (`super::count_plan_pieces`): the placement encoding grows with the pieces, and
/// tiling a region with many small pieces is where the search's packing
/// tests are strong and CDCL weak (it refutes a wrong tiling placement
/// by placement). Over the piece panels of the dev corpus and their
/// turned copies whose counts to 2 take the search over 100 ms, the SAT
/// helper settles counts of panels with three to seven pieces in
/// milliseconds and none of a panel with eight or more, which pay its
/// budget (docs/benchmarks.md, "Uniqueness on the slowest piece
/// panels").
pub const SAT_HELPER_MAX_PIECES: usize = 7;

/// The most faces a panel may have for the SAT engine to help with its
/// pieces (the count's helper, and the SAT engine beside the search of a
/// solve): 20 by 20. The placement encoding grows with
/// the faces times each piece's orientations, and with it the engine's
/// memory and the time to build it: about 150 MB on a 20 by 20 panel
/// with seven pieces of eight squares, 1 GB on a 64 by 64 one, where the
/// encoding alone takes seconds. The corpus's piece panels have at most
/// 100 faces.
pub const SAT_HELPER_MAX_FACES: usize = 400;

/// Whether a count of `plan` goes to [`super::count_plan_pieces`], whose
/// helper thread runs the SAT engine's count first (on directed panels
/// without elimination marks) or its case cubes (on marked ones with
/// elimination cases), and a solve without marks has the SAT
/// engine beside the search ([`sat_beside`]; without a second thread,
/// between two runs of the search, `sat_between`): a panel with polyominoes,
/// at most [`SAT_HELPER_MAX_PIECES`] pieces and
/// [`SAT_HELPER_MAX_FACES`] faces, that the SAT engine supports.
#[cfg(feature = "sat")]
fn sat_helps(plan: &Plan) -> bool {
    use crate::model::SlotKind;
    let b = &plan.rules.board;
    let pieces = || b.sym.iter().filter(|s| s.is_poly()).count();
    let faces = || {
        (0..b.len())
            .filter(|&s| b.kind[s] == SlotKind::Face && !b.outside[s])
            .count()
    };
    b.has_polys
        && super::sat::unsupported(b).is_none()
        && pieces() <= SAT_HELPER_MAX_PIECES
        && faces() <= SAT_HELPER_MAX_FACES
}

/// Without the SAT engine, it never joins.
#[cfg(not(feature = "sat"))]
fn sat_joins(_: &Plan) -> bool {
    false
}

/// Whether a solve of `plan` has the SAT engine beside the search, on
/// the search's second thread, rather than in a race
/// ([`super::solve_plan_sat_helper`]): a marked panel the local search
/// takes ([`portfolio::helped`](super::portfolio::helped): no symmetry,
/// directed lines) that the SAT engine joins (no polyominoes), where the
/// helper runs the local search and the SAT engine by turns; and a panel
/// with at most [`SAT_HELPER_MAX_PIECES`] pieces and no elimination mark,
/// where it runs the SAT engine alone. Beside the search, the search goes
/// on from its first turn on one thread (a race would start it afresh,
/// which the panels it settles a little past its head start pay for
/// twice). On such piece panels the engines are complementary: CDCL
/// settles in milliseconds tilings the search reaches after hundreds.
/// Marked piece panels with elimination cases have the local search and
/// the SAT engine by turns there too ([`marked_pieces_with_cases`]),
/// the SAT engine only after the local search's head start
/// ([`HELPER_SAT_AFTER`](super::portfolio::HELPER_SAT_AFTER)); other
/// marked piece panels (more than
/// [`MAX_CASES`](super::mark_cases::MAX_CASES) cases) have the local
/// search alone there, which answers more of them than the SAT engine
/// does (docs/benchmarks.md, "The SAT engine beside the search", and
/// "Marked piece panels: the cases as SAT cubes").
#[cfg(feature = "sat")]
fn sat_beside(plan: &Plan) -> bool {
    let b = &plan.rules.board;
    (super::portfolio::helped(plan) && sat_joins(plan))
        || (sat_helps(plan) && !b.has_negations)
        || marked_pieces_with_cases(plan)
}

/// A marked piece panel the local search takes
/// ([`portfolio::helped`](super::portfolio::helped)) with elimination
/// cases ([`super::mark_cases::case_count`]), at most
/// [`SAT_HELPER_MAX_PIECES`] pieces and [`SAT_HELPER_MAX_FACES`] faces
/// (the placement encoding grows with both), that the SAT engine
/// supports: the
/// SAT engine, asking about one case at a time
/// ([`super::sat::cubes`]), takes turns with the local search on the
/// search's second thread. On such panels neither the search's cases
/// nor the local search is reliable: a case the search cannot settle
/// in millions of nodes the SAT engine often refutes in a millisecond.
#[cfg(feature = "sat")]
fn marked_pieces_with_cases(plan: &Plan) -> bool {
    // `sat_helps` checks the pieces, the faces and the SAT engine's
    // support; the cases are counted last, as they cost the most.
    super::portfolio::helped(plan)
        && sat_helps(plan)
        && super::mark_cases::case_count(plan).is_some()
}

/// The race of a solve, without the search's first budget: the search
/// (afresh) and the SAT engine, each on a thread of its own.
#[cfg(feature = "sat")]
pub fn solve_race(puzzle: &Puzzle, plan: &Plan, limits: &Limits) -> Result<Raced<Solution>> {
    let slots = plan.rules.board.len();
    // The SAT side's limits get their race flag in `run`; the run is
    // built on its own thread, after a quick check of support here.
    if !sat_joins(plan) {
        return search_alone(plan, limits).map(Raced::alone);
    }
    // Each side owns its copy of the puzzle: the race returns as soon as
    // one answers, while the other may still be running.
    let (mine, theirs) = (puzzle.clone(), puzzle.clone());
    run(
        limits,
        slots,
        move |l| super::solve_plan(&Plan::new(&mine)?, l),
        move |l| super::sat::SatRun::new(&theirs, l)?.solve(l),
        solved,
        |_, _| false,
    )
}

/// Without the SAT engine, the search alone.
#[cfg(not(feature = "sat"))]
pub fn solve_race(_: &Puzzle, plan: &Plan, limits: &Limits) -> Result<Raced<Solution>> {
    search_alone(plan, limits).map(Raced::alone)
}

/// [`super::count`] with [`super::Engine::Auto`] on a prepared plan of
/// `puzzle`; also tells who answered.
pub fn count_plan(
    puzzle: &Puzzle,
    plan: &Plan,
    limit: Option<u64>,
    limits: &Limits,
) -> Result<Raced<Count>> {
    // Solutions in mirror pairs, counted to 2: the race's first solution
    // settles it (`super::paired_count`).
    let mut solved = None;
    if let Some(c) = super::paired_count(plan, limit, || {
        let r = solve_plan_on(puzzle, plan, limits, super::second_thread())?;
        solved = Some((r.winner, r.raced, r.loser_stopped));
        Ok(r.answer)
    }) {
        let (winner, raced, loser_stopped) = solved.unwrap_or((Winner::Search, false, false));
        return c.map(|answer| Raced {
            answer,
            winner,
            raced,
            loser_stopped,
            loser: None,
        });
    }
    // A piece panel with a handful of pieces: the search's count, whose
    // second thread runs the SAT engine's count first, or on a marked
    // panel with elimination cases its case cubes (without a second
    // thread: between two runs of the search, or the cubes by turns on
    // the count's thread; the answer is reported as the search's: one
    // count, one set of solutions).
    #[cfg(feature = "sat")]
    if limits.max_nodes.is_none() && sat_helps(plan) {
        return super::count_plan_pieces(puzzle, plan, limit, limits).map(Raced::alone);
    }
    if !cfg!(feature = "sat") || limits.max_nodes.is_some() || !sat_joins(plan) {
        return super::count_plan(plan, limit, limits).map(Raced::alone);
    }
    // A panel whose rules are all clauses, counted to a limit: the search
    // alone for a short budget, then the SAT engine alone, on this thread
    // too (no thread to start, which on a loaded machine waits for a
    // core), for the usual budget, and only then the race (a full count
    // keeps the usual budget: the SAT engine, one solver call per
    // solution, rarely wins one).
    #[cfg(feature = "sat")]
    if limit.is_some() && clauses_only(plan) {
        let first = super::count_plan(plan, limit, &within(limits, CLAUSES_FIRST))?;
        if counted(&first, limit) || limits.expired() {
            return Ok(Raced::alone(first));
        }
        let room = crate::stack::need_for_slots(plan.rules.board.len());
        let sat = crate::stack::with_room(room, || {
            let l = within(limits, COUNT_FIRST);
            super::sat::SatRun::new(puzzle, &l)?.count(limit, &l, |_| true)
        });
        match sat {
            Ok(c) if counted(&c, limit) => return Ok(Raced::by_sat(c)),
            _ if limits.expired() => return Ok(Raced::alone(first)),
            _ => return count_race(puzzle, plan, limit, limits),
        }
    }
    let first = super::count_plan(plan, limit, &within(limits, COUNT_FIRST))?;
    if counted(&first, limit) || limits.expired() {
        return Ok(Raced::alone(first));
    }
    count_race(puzzle, plan, limit, limits)
}

/// The race of a count, without the search's first budget: the search's
/// count (afresh) on one thread of a pool of its own, the SAT engine's
/// on another thread.
#[cfg(feature = "sat")]
pub fn count_race(
    puzzle: &Puzzle,
    plan: &Plan,
    limit: Option<u64>,
    limits: &Limits,
) -> Result<Raced<Count>> {
    let slots = plan.rules.board.len();
    if !sat_joins(plan) {
        return super::count_plan(plan, limit, limits).map(Raced::alone);
    }
    let (mine, theirs) = (puzzle.clone(), puzzle.clone());
    run(
        limits,
        slots,
        move |l| {
            let plan = Plan::new(&mine)?;
            // The search's count keeps to one thread (a pool of its
            // own, and no helper thread), so that the SAT engine has the
            // other core.
            match rayon::ThreadPoolBuilder::new().num_threads(1).build() {
                Ok(pool) => pool.install(|| super::count_plan_one_thread(&plan, limit, l)),
                Err(_) => super::count_plan_one_thread(&plan, limit, l),
            }
        },
        move |l| {
            let mut found = 0u64;
            super::sat::SatRun::new(&theirs, l)?.count(limit, l, |_| {
                found += 1;
                limit.is_some() || found < SAT_COUNT_CAP
            })
        },
        move |c| counted(c, limit),
        |search, sat| sat.count > search.count,
    )
}

/// Without the SAT engine, the search alone.
#[cfg(not(feature = "sat"))]
pub fn count_race(
    _: &Puzzle,
    plan: &Plan,
    limit: Option<u64>,
    limits: &Limits,
) -> Result<Raced<Count>> {
    super::count_plan(plan, limit, limits).map(Raced::alone)
}

/// Where two paths part: the last slot they share from their start
/// before their slots differ (`None` when they start on different
/// slots, or one is the other).
pub fn parting(
    puzzle: &Puzzle,
    a: &crate::Path,
    b: &crate::Path,
) -> Result<Option<crate::model::Pos>> {
    let (sa, sb) = (a.slots(puzzle)?, b.slots(puzzle)?);
    let shared = sa.iter().zip(&sb).take_while(|(x, y)| x == y).count();
    Ok(
        if shared == 0 || (shared == sa.len() && shared == sb.len()) {
            None
        } else {
            Some(sa[shared - 1])
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side that waits for its limits to stop it, and says so.
    fn wait(l: &Limits) -> Result<Option<u32>> {
        while !l.expired() {
            std::thread::sleep(Duration::from_micros(200));
        }
        Ok(None)
    }

    /// Which solves have the SAT engine beside the search: piece panels
    /// with a few pieces, a few hundred faces and no mark; marked panels
    /// without symmetry or undirected lines, with pieces only when they
    /// have elimination cases and a few hundred faces.
    #[cfg(feature = "sat")]
    #[test]
    fn the_sat_engine_goes_beside_the_search_on_the_panels_it_helps() {
        use crate::model::{Direction, Polyomino, Pos, Symbol, SymbolKind, Symmetry};
        let panel = |w: usize, h: usize, pieces: usize, marks: usize, symmetric: bool| {
            let mut p = Puzzle::new(w, h, false).unwrap();
            p.cell_mut(Pos::new(0, 2 * h)).start = true;
            p.cell_mut(Pos::new(2 * w, 0)).end = Some(Direction::Up);
            if symmetric {
                p.symmetry = Some(Symmetry { x: true, y: false });
            }
            let faces = (0..h).flat_map(|y| (0..w).map(move |x| Pos::new(2 * x + 1, 2 * y + 1)));
            let mono = Polyomino::new([(0, 0)], false);
            for (k, f) in faces.take(pieces + marks).enumerate() {
                let kind = if k < pieces {
                    SymbolKind::Poly(mono.clone())
                } else {
                    SymbolKind::Nega
                };
                p.cell_mut(f).symbol = Some(Symbol::new(kind, crate::model::Color::White));
            }
            Plan::new(&p).unwrap()
        };
        assert!(sat_beside(&panel(4, 4, 3, 0, false)));
        assert!(sat_beside(&panel(20, 20, SAT_HELPER_MAX_PIECES, 0, false)));
        assert!(!sat_beside(&panel(
            4,
            4,
            SAT_HELPER_MAX_PIECES + 1,
            0,
            false
        )));
        assert!(!sat_beside(&panel(21, 20, 3, 0, false)));
        // Marked piece panels with elimination cases (3 here: the mark
        // erases one of the pieces), but not with more than `MAX_CASES`
        // (five marks among 7 pieces: 7 * 6 * 5 * 4 * 3 ways), more than
        // 7 pieces or 400 faces, or symmetry.
        assert!(sat_beside(&panel(4, 4, 3, 1, false)));
        assert!(sat_beside(&panel(10, 10, 7, 1, false)));
        assert!(!sat_beside(&panel(10, 10, 7, 5, false)));
        assert!(!sat_beside(&panel(10, 10, 8, 1, false)));
        assert!(!sat_beside(&panel(21, 20, 3, 1, false)));
        assert!(!sat_beside(&panel(4, 4, 3, 1, true)));
        assert!(sat_beside(&panel(4, 4, 0, 1, false)));
        assert!(!sat_beside(&panel(4, 4, 0, 1, true)));
        assert!(!sat_beside(&panel(4, 4, 0, 0, false)));
    }

    #[test]
    fn the_first_answer_wins_and_the_other_side_is_stopped() {
        let none = Limits::timeout(Duration::from_secs(20));
        let t0 = Instant::now();
        let r = run(
            &none,
            10,
            wait,
            |_| Ok(Some(2)),
            Option::is_some,
            |_, _| false,
        )
        .unwrap();
        assert_eq!(
            (r.answer, r.winner, r.loser_stopped),
            (Some(2), Winner::Sat, true)
        );
        // The loser sees its flag and ends, without an answer.
        let loser = r.loser.unwrap().recv_timeout(Duration::from_secs(10));
        let (who, answer) = loser.unwrap();
        assert_eq!((who, answer.unwrap()), (Winner::Search, None));
        let r = run(
            &none,
            10,
            |_| Ok(Some(1)),
            wait,
            Option::is_some,
            |_, _| false,
        )
        .unwrap();
        assert_eq!(
            (r.answer, r.winner, r.loser_stopped),
            (Some(1), Winner::Search, true)
        );
        assert!(t0.elapsed() < Duration::from_secs(10));
        // A failing SAT side leaves the answer to the search.
        let r = run(
            &none,
            10,
            |_| Ok(Some(1)),
            |_| Err(crate::Error::Unsupported("no".into())),
            Option::is_some,
            |_, _| false,
        )
        .unwrap();
        assert_eq!((r.answer, r.winner), (Some(1), Winner::Search));
        // Neither settling: the search's answer, once the limits stop both.
        let short = Limits::timeout(Duration::from_millis(20));
        let r = run(&short, 10, wait, wait, Option::is_some, |_, _| false).unwrap();
        assert_eq!(
            (r.answer, r.winner, r.loser_stopped),
            (None, Winner::Search, false)
        );
    }

    /// A count side that counts `n` solutions, then waits for its limits
    /// to stop it, and says it was stopped.
    fn partial(n: u64) -> impl FnOnce(&Limits) -> Result<Count> {
        move |l| {
            while !l.expired() {
                std::thread::sleep(Duration::from_micros(200));
            }
            Ok(Count::new(n.into(), Status::Stopped))
        }
    }

    #[test]
    fn a_full_count_stopped_on_both_sides_keeps_the_larger_partial_count() {
        let settled = |c: &Count| c.status == Status::Complete;
        let more = |search: &Count, sat: &Count| sat.count > search.count;
        // The SAT side gave up (as past its cap) with more solutions than
        // the search had when the limits stopped it.
        let short = Limits::timeout(Duration::from_millis(30));
        let gave_up = |_: &Limits| Ok(Count::new(7u64.into(), Status::Stopped));
        let r = run(&short, 10, partial(3), gave_up, settled, more).unwrap();
        assert_eq!(r.answer.count, 7u64);
        assert_eq!((r.answer.status, r.winner), (Status::Stopped, Winner::Sat));
        // Both stopped by the limits: the larger, still partial.
        let short = Limits::timeout(Duration::from_millis(30));
        let r = run(&short, 10, partial(5), partial(2), settled, more).unwrap();
        assert_eq!(r.answer.count, 5u64);
        assert_eq!(
            (r.answer.status, r.winner),
            (Status::Stopped, Winner::Search)
        );
        // An exact count wins over any partial one.
        let none = Limits::timeout(Duration::from_secs(20));
        let exact = |_: &Limits| Ok(Count::new(4u64.into(), Status::Complete));
        let r = run(&none, 10, exact, partial(9), settled, more).unwrap();
        assert_eq!(r.answer.count, 4u64);
        assert_eq!(
            (r.answer.status, r.winner),
            (Status::Complete, Winner::Search)
        );
    }
}

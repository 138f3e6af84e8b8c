//! Interleaved runs: finding a first solution by searching in several move
//! orders by turns, from the starts and from the ends.
//!
//! How long a depth-first search takes to reach its first solution depends
//! a great deal on the order in which it tries moves and on the side it
//! starts from: on hard puzzles one order may need a thousand times the
//! nodes of another, and no order is best for all. So
//! [`first_solution`] searches in a few lanes by turns, each lane a move
//! order on the plan or on its reversal ([`reverse`](super::reverse): the puzzle with
//! starts and ends swapped), each turn with a budget of work
//! ([`Schedule`]). A turn that runs out of budget leaves a resume point
//! ([`Resume`](super::search::Resume)), and the lane's next turn goes on from there, so no work is
//! done twice. Each round begins with the engine's order, so most puzzles
//! (solved within the first budget) get the engine's first solution, and
//! never pay for the reversal's tables ([`Back`]).
//!
//! Exactness does not depend on the lanes: a lane whose turns end without
//! running out of budget has searched every path, so "no solution" from it
//! is proved. A budget counts search nodes and polyomino fit steps
//! ([`Search::set_budget`]).
//!
//! On puzzles with elimination marks, the mark-free cases that cover the
//! puzzle ([`super::mark_cases`]) take turns too once the lanes have visited
//! [`Schedule::cases_after`] nodes ([`Turns::run_with_cases`]), and the
//! local search ([`super::local`]) once they have visited
//! [`Schedule::anneal_after`] (on one thread with no helper, where it
//! stands in for the helper, [`Schedule::anneal_alone_after`],
//! [`CaseShare::alone`]); its solutions are checked by the validator,
//! and it never ends a search that finds none. On two threads, such a
//! puzzle's second thread runs a local search alone from the first turn
//! on (`first_solution_helped`).

use super::answer::Answer;
use super::lanes::{Back, Schedule, Turns};
use super::limits::Limits;
use super::local::Anneal;
use super::mark_cases::{CaseRuns, Cases, Outcome, FEW_CASES, MAX_CASES};
use super::nearby::{mirror_twin, narrow, near_solutions, NEAR_NODES};
use super::plan::{Masks, Plan};
#[cfg(feature = "sat")]
use super::sat::cubes::{CubeTurn, CubeTurns};
use super::search::Search;
use crate::model::{Direction, Puzzle};
use std::collections::HashSet;
#[cfg(feature = "native")]
use std::sync::atomic::AtomicBool;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The share of the work the elimination cases get, at most, as a
/// fraction of the other lanes' nodes past [`Schedule::cases_after`]
/// ([`Turns::run_with_cases`]): twice as many, which helps the marked
/// puzzles the cases settle and costs the others nothing measurable (see
/// docs/benchmarks.md).
pub const CASE_SHARE: (u64, u64) = (2, 1);

/// [`CASE_SHARE`] with more than [`FEW_CASES`] cases, which start late
/// ([`MANY_CASES_LATER`]): four times as many, as the puzzles with that
/// many cases that the lanes leave to them tend to be solved by a case
/// (see docs/benchmarks.md).
pub const MANY_CASE_SHARE: (u64, u64) = (4, 1);

/// The nodes more than [`FEW_CASES`] cases may take before they join late
/// ([`MANY_CASES_LATER`]): from [`Schedule::cases_after`] on, as many as
/// the lanes take meanwhile, up to this cap, about the first turns of the
/// few nearest cases: enough for a near case to settle a puzzle early,
/// little for the puzzles no case settles (see docs/benchmarks.md).
pub const EARLY_CASE_NODES: u64 = 5_000;

/// How much later than [`Schedule::cases_after`] more than [`FEW_CASES`]
/// cases start.
pub const MANY_CASES_LATER: u64 = 15;

/// The share of a puzzle's elimination cases one thread takes
/// ([`Turns::run_with_cases`]): the cases at `part`, `part + parts`, ...
/// ([`Cases::share`]), with a count of the shares searched to the end that
/// the threads taking the others share; and whether the thread runs the
/// local search ([`super::local`]) as well.
#[derive(Debug)]
pub struct CaseShare<'a> {
    /// Which share.
    pub part: usize,
    /// Of how many; 0 for none of the cases.
    pub parts: usize,
    /// The shares searched to the end so far (`None` for all the cases).
    pub finished: Option<&'a AtomicUsize>,
    /// The seed of the local search this thread also runs, on puzzles
    /// with elimination marks, with [`ANNEAL_SHARE`] of the work (or
    /// [`ANNEAL_SHARE_BESIDE_CASES`], or [`ANNEAL_SHARE_ALONE`] when
    /// `alone`); `None` for none.
    pub anneal: Option<u64>,
    /// No helper thread runs a local search beside this one (a solve or a
    /// count on one thread): this thread's local search takes the
    /// helper's place, from [`Schedule::anneal_alone_after`] with
    /// [`ANNEAL_SHARE_ALONE`], with elimination cases or without (unless
    /// that is `u64::MAX`: then as beside a helper).
    pub alone: bool,
    /// With `alone`, the plan's puzzle, for the SAT engine's case cubes
    /// (`sat::cubes`) to take turns as well, as the helper thread runs
    /// them beside the search (`helper_turns_visit`): from
    /// [`Schedule::cubes_alone_after`] with `CUBES_SHARE_ALONE` of the
    /// time, blocking each solution they find. Taken only with the `sat`
    /// feature.
    pub sat: Option<&'a Puzzle>,
}

impl<'a> CaseShare<'a> {
    /// The shares of `plan`'s elimination cases for two threads: for the
    /// thread of the engine's order, none, or with more than
    /// [`FEW_CASES`] cases (which start late) every other case; for the
    /// other thread, the rest (all of them with few). Each runs a local
    /// search of its own seed ([`ANNEAL_SEED`] and the next): a local
    /// search's time to a solution depends mostly on its seed, so two
    /// seeds at once tend to find one sooner than either alone.
    /// `finished` counts the shares searched to the end; the last one
    /// proves the cases hold nothing more. On a puzzle without marks the
    /// first is `None`.
    pub fn for_two_threads(
        plan: &Plan,
        finished: &'a AtomicUsize,
    ) -> (Option<CaseShare<'a>>, CaseShare<'a>) {
        let many = super::mark_cases::case_count(plan).is_some_and(|n| n > FEW_CASES);
        let parts = if many { 2 } else { 1 };
        let share = |part, seed| CaseShare {
            part,
            parts,
            finished: Some(finished),
            anneal: Some(seed),
            alone: false,
            sat: None,
        };
        let here = if many {
            Some(share(0, ANNEAL_SEED))
        } else {
            plan.rules.board.has_negations.then_some(CaseShare {
                part: 0,
                parts: 0,
                finished: None,
                anneal: Some(ANNEAL_SEED),
                alone: false,
                sat: None,
            })
        };
        (here, share(parts - 1, ANNEAL_SEED + 1))
    }

    /// [`CaseShare::alone`], with the SAT engine's case cubes of `puzzle`
    /// (the plan's) taking turns too (the field `sat`).
    pub fn alone_with_sat(puzzle: &'a Puzzle) -> Self {
        CaseShare {
            sat: Some(puzzle),
            ..CaseShare::alone()
        }
    }
}

impl CaseShare<'static> {
    /// All the cases, and the local search, on one thread, beside a
    /// helper thread that runs a local search of its own.
    pub fn all() -> Self {
        CaseShare {
            part: 0,
            parts: 1,
            finished: None,
            anneal: Some(ANNEAL_SEED),
            alone: false,
            sat: None,
        }
    }

    /// All the cases, and the local search in a helper thread's place, on
    /// one thread that has no helper (the field `alone`).
    pub fn alone() -> Self {
        CaseShare {
            alone: true,
            ..CaseShare::all()
        }
    }
}

/// The work the local search ([`super::local`]) gets on puzzles with
/// elimination marks, as a fraction of the lanes' nodes past
/// [`Schedule::anneal_after`]: eight times as many. Only puzzles with
/// more than [`MAX_CASES`] cases get it; the lanes solve most others
/// within 300,000 nodes. The price: on such a puzzle without a solution,
/// the proof takes up to nine times the lanes' time past 300,000 nodes,
/// not four. The local search also finds the second solution of a count
/// (`witness count --unique`). See docs/benchmarks.md for the figures.
pub const ANNEAL_SHARE: (u64, u64) = (8, 1);

/// [`ANNEAL_SHARE`] on puzzles whose elimination cases the solver runs (at
/// most [`MAX_CASES`]), on whichever thread (the engine's order may take
/// none of them): a sixteenth as much. The cases solve those sooner than
/// the local search does, and a larger share slows them (see
/// docs/benchmarks.md).
pub const ANNEAL_SHARE_BESIDE_CASES: (u64, u64) = (1, 16);

/// The local search's work on a puzzle with elimination marks on one
/// thread with no helper beside it ([`CaseShare::alone`]), as a fraction
/// of the lanes' nodes past [`Schedule::anneal_alone_after`]: twice as
/// many, with elimination cases or without. With a second thread, the
/// helper runs a local search alone and the small shares above suit the
/// thread of the lanes and cases; on one thread the local search is
/// the only part whose time to a solution does not grow with the lanes',
/// and on many marked panels it answers in milliseconds where the cases
/// and lanes take seconds. The price: puzzles the lanes or cases settle
/// past the first turns, and proofs that there is no solution, take up
/// to three times the lanes' time past 40,000 nodes (about twice as long
/// as measured on the corpus's marked panels, docs/benchmarks.md,
/// "Marked panels on one thread").
pub const ANNEAL_SHARE_ALONE: (u64, u64) = (2, 1);

/// The SAT engine's share of the time of a job on one thread with its
/// case cubes ([`CaseShare::sat`]), past
/// [`Schedule::cubes_alone_after`]: as much time as the rest of the job
/// (lanes, cases, local search) has had past it. After each of the
/// lanes' turns (with the cases' and the local search's work that comes
/// with it), the cubes take turns (of up to
/// [`TURN_MAX`](super::sat::cubes::TURN_MAX), but for the first, which
/// also builds their encoding) while their time is under the rest's,
/// however long that turn was. So neither side takes more than about
/// twice as long past that point as it would alone: on the marked piece
/// panels that take long on one thread the case cubes (which the helper
/// thread runs where there is one) settle most, and the rest settles the
/// others, proofs that there is no (other) solution among them
/// (docs/benchmarks.md, "Marked piece panels on one thread").
#[cfg(feature = "sat")]
pub const CUBES_SHARE_ALONE: (u32, u32) = (1, 1);

/// The local search's seed (on two threads, the second's is the next):
/// its runs are the same every time.
pub const ANNEAL_SEED: u64 = 1;

impl Turns {
    /// [`Turns::run`], with turns of `plan`'s elimination cases (if it has
    /// any, [`Cases`]) in between, as long as they have visited fewer nodes
    /// than [`CASE_SHARE`] (or [`MANY_CASE_SHARE`]) of what the searches
    /// (`fwd` and `back`) visited past [`Schedule::cases_after`]: a case's
    /// solution that solves the puzzle answers, and the cases all searched
    /// to the end prove there is none. With a [`CaseShare`], only that
    /// share of the cases: once they are searched to the end, the lanes go
    /// on alone, unless theirs was the last share to be, which proves there
    /// is none. With [`CaseShare::anneal`], on a puzzle with marks, the
    /// local search ([`Anneal`]) takes turns as well, as long as its work
    /// is below [`ANNEAL_SHARE`] (or [`ANNEAL_SHARE_BESIDE_CASES`]) of the
    /// lanes' nodes past
    /// [`Schedule::anneal_after`] (with [`CaseShare::alone`],
    /// [`ANNEAL_SHARE_ALONE`] past [`Schedule::anneal_alone_after`]): a
    /// solution it finds answers. Also tells the nodes the cases visited.
    pub fn run_with_cases<const N: usize>(
        &mut self,
        fwd: &mut Search<'_, N>,
        back: Option<&mut Search<'_, N>>,
        lanes: &[usize],
        plan: &Plan,
        limits: &Limits,
        share: &CaseShare,
    ) -> (Option<Answer>, u64) {
        let mut found = None;
        let case_nodes =
            self.run_with_cases_visit(fwd, back, lanes, plan, limits, share, &mut |a| {
                found = Some(a);
                false
            });
        (found, case_nodes)
    }

    /// [`Turns::run_with_cases`], handing `visit` every solution the lanes,
    /// the cases and the local search find (the cases' and the local
    /// search's checked against the puzzle's rules; a solution may come
    /// more than once) until it returns false. Ends when `visit` stops it,
    /// when a lane has searched every path, the last share of the cases
    /// is searched to the end, or the SAT engine's case cubes (with
    /// [`CaseShare::alone_with_sat`]) prove there is no solution besides
    /// those they handed on (each way `visit` has seen every solution; the
    /// local search never ends it so), or when the limits stop it
    /// ([`Turns::stopped`]). Tells the nodes the cases visited.
    #[allow(clippy::too_many_arguments)]
    pub fn run_with_cases_visit<const N: usize>(
        &mut self,
        fwd: &mut Search<'_, N>,
        mut back: Option<&mut Search<'_, N>>,
        lanes: &[usize],
        plan: &Plan,
        limits: &Limits,
        share: &CaseShare,
        visit: &mut impl FnMut(Answer) -> bool,
    ) -> u64 {
        let cases = match share.parts {
            0 => None,
            parts => Cases::<N>::new(plan, MAX_CASES).map(|c| c.share(share.part, parts)),
        };
        let marked = plan.rules.board.has_negations;
        let mut anneal = match share.anneal {
            Some(seed) if marked => Anneal::new(plan, seed),
            _ => None,
        };
        // In a helper's place, unless the schedule has no such place.
        let alone = share.alone && self.schedule.anneal_alone_after != u64::MAX;
        // (The puzzle's cases, not this thread's share, which may be none.)
        let anneal_share = match anneal.as_mut() {
            Some(a) => {
                a.set_limits(limits);
                if alone {
                    ANNEAL_SHARE_ALONE
                } else if super::mark_cases::case_count(plan).is_some() {
                    ANNEAL_SHARE_BESIDE_CASES
                } else {
                    ANNEAL_SHARE
                }
            }
            None => ANNEAL_SHARE,
        };
        let anneal_after = if alone {
            self.schedule.anneal_alone_after
        } else {
            self.schedule.anneal_after
        };
        // The SAT engine's case cubes, in a helper's place, by time.
        #[cfg(feature = "sat")]
        let mut sat = share
            .sat
            .filter(|_| alone)
            .map(|p| CubeTurns::new(p, super::sat::cubes::TURN_FIRST, true));
        #[cfg(not(feature = "sat"))]
        let sat: Option<()> = None;
        if cases.is_none() && anneal.is_none() && sat.is_none() {
            while !self.step_with(fwd, back.as_deref_mut(), lanes, visit) {}
            return 0;
        }
        let mut runs = cases
            .as_ref()
            .map(|cases| CaseRuns::new(cases, limits, &self.schedule));
        let mut cases_left = runs.is_some();
        let many = cases.as_ref().is_some_and(|c| c.total() > FEW_CASES);
        let ((num, den), after) = if many {
            (
                MANY_CASE_SHARE,
                self.schedule.cases_after.saturating_mul(MANY_CASES_LATER),
            )
        } else {
            (CASE_SHARE, self.schedule.cases_after)
        };
        'search: loop {
            if self.step_with(fwd, back.as_deref_mut(), lanes, visit) {
                break;
            }
            let total = fwd.visited + back.as_ref().map_or(0, |b| b.visited);
            if let Some(a) = anneal.as_mut() {
                let (num, den) = anneal_share;
                let due = total.saturating_sub(anneal_after);
                let work = due.saturating_mul(num) / den;
                while let Some(answer) = a.run_until(work, limits) {
                    if !visit(answer) {
                        break 'search;
                    }
                }
                if limits.expired() {
                    self.stopped = true;
                    break 'search;
                }
            }
            // A step of the rest grows long (the lanes' turns double, the
            // cases and the local search keep up with them), so the cubes
            // take turns until they have their share of the time again.
            #[cfg(feature = "sat")]
            if let Some(cubes) = sat.as_mut() {
                while cubes.due(self.schedule.cubes_alone_after, CUBES_SHARE_ALONE) {
                    CUBE_TURNS_HERE.with(|n| n.set(n.get() + 1));
                    match cubes.turn(limits) {
                        CubeTurn::Found(answer) => {
                            if !visit(answer) {
                                break 'search;
                            }
                        }
                        // No solution besides those handed on (each is
                        // blocked once found): `visit` has seen them all.
                        CubeTurn::Proved => break 'search,
                        CubeTurn::Open | CubeTurn::Gone => {}
                    }
                    if limits.expired() {
                        self.stopped = true;
                        break 'search;
                    }
                }
            }
            let Some(runs) = runs.as_mut() else {
                continue;
            };
            // With many cases, the nearest get a first look before they
            // all join late: as many nodes as the lanes, up to a cap.
            let early = if many {
                total
                    .saturating_sub(self.schedule.cases_after)
                    .min(EARLY_CASE_NODES)
            } else {
                0
            };
            let mine = total.saturating_sub(after);
            while cases_left
                && (runs.visited().saturating_mul(den) < mine.saturating_mul(num)
                    || runs.visited() < early)
            {
                match runs.step_with(&mut |a| visit(a.clone())) {
                    Outcome::Solved(_) => break 'search,
                    Outcome::None => {
                        // The other shares' threads may still be at theirs.
                        let last =
                            |f: &AtomicUsize| f.fetch_add(1, Ordering::Relaxed) + 1 >= share.parts;
                        if share.finished.is_none_or(last) {
                            break 'search;
                        }
                        cases_left = false;
                    }
                    Outcome::Stopped => {
                        self.stopped = true;
                        break 'search;
                    }
                    Outcome::Open => {}
                }
            }
        }
        runs.map_or(0, |r| r.visited())
    }
}

/// What a count to a small limit by turns works with, one value for the
/// counts that share it ([`distinct_solutions`],
/// [`distinct_solutions_threads`], [`distinct_solutions_sat_first`]).
#[derive(Clone, Copy, Debug)]
pub struct CountJob<'a, const N: usize> {
    /// The puzzle's plan.
    pub plan: &'a Plan,
    /// The plan's search masks.
    pub masks: &'a Masks<N>,
    /// The caller's limits.
    pub limits: &'a Limits,
    /// The turns' budgets.
    pub schedule: &'a Schedule,
    /// The solutions wanted (at least 1).
    pub limit: u64,
    /// The lanes' nodes, in all, at most (on two threads, each thread's).
    pub max_nodes: u64,
}

impl<'a, const N: usize> CountJob<'a, N> {
    /// The fields, in their order.
    pub fn parts(&self) -> (&'a Plan, &'a Masks<N>, &'a Limits, &'a Schedule, u64, u64) {
        (
            self.plan,
            self.masks,
            self.limits,
            self.schedule,
            self.limit,
            self.max_nodes,
        )
    }
}

/// Solutions told apart: the start slot and the moves of each, drawn
/// forward.
pub type Seen = HashSet<(usize, Vec<Direction>)>;

/// The first this many solutions a count finds get a search of the paths
/// on their nodes ([`super::nearby`]).
pub const NEAR_SEARCHES: usize = 2;

/// Adds the solution `(start, moves)` to `seen`, with its mirror twin
/// ([`mirror_twin`]) if it has one; true when it was new.
pub(crate) fn insert_solution(
    plan: &Plan,
    seen: &mut Seen,
    (start, moves): (usize, Vec<Direction>),
) -> bool {
    if let Some(twin) = mirror_twin(plan, start, &moves) {
        seen.insert(twin);
    }
    seen.insert((start, moves))
}

/// Adds `(start, moves)` to `seen` behind `lock`, with its mirror twin
/// ([`mirror_twin`]); on one of the first
/// [`NEAR_SEARCHES`] solutions, also those of its near search. True while
/// `seen` holds fewer than `limit`.
fn add_with_near<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limits: &Limits,
    lock: &std::sync::Mutex<Seen>,
    (start, moves): (usize, Vec<Direction>),
    limit: u64,
) -> bool {
    let n = {
        let mut seen = lock.lock().expect("lock");
        if !insert_solution(plan, &mut seen, (start, moves.clone())) {
            return (seen.len() as u64) < limit;
        }
        seen.len()
    };
    if n as u64 >= limit {
        return false;
    }
    if n > NEAR_SEARCHES {
        return true;
    }
    near_into(plan, masks, limits, lock, (start, &moves), limit)
}

/// The near search of the solution `(start, moves)`, unless it visits
/// nearly every node ([`narrow`]), adding what it finds to `seen` behind
/// `lock` (with mirror twins); true while `seen` holds fewer than `limit`.
fn near_into<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limits: &Limits,
    lock: &std::sync::Mutex<Seen>,
    (start, moves): (usize, &[Direction]),
    limit: u64,
) -> bool {
    if narrow(plan, masks, start, moves) {
        let mut add = |(s, _, m): Answer| {
            let mut seen = lock.lock().expect("lock");
            insert_solution(plan, &mut seen, (s, m));
            (seen.len() as u64) < limit
        };
        near_solutions(plan, masks, limits, (start, moves), NEAR_NODES, &mut add);
    }
    (lock.lock().expect("lock").len() as u64) < limit
}

/// What [`distinct_solutions`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distinct {
    /// The distinct solutions found (at most the limit).
    pub count: u64,
    /// True when that is every solution (a lane searched every path, the
    /// cases were all searched to the end, or the SAT engine proved there
    /// are no more); false when the limit was reached, or `max_nodes` or
    /// the limits cut the search short.
    pub complete: bool,
    /// The solutions found (those given as already seen among them), as
    /// start slot and moves, mirror twins included: `count` of them or
    /// more.
    pub seen: Seen,
}

impl Distinct {
    /// The answer of a count to `limit` (at least 1) whose solutions are
    /// `seen`: complete when a side `searched_all` (every path searched,
    /// or a proof that none is left) and the limit was not reached.
    fn of(seen: Seen, limit: u64, searched_all: bool) -> Distinct {
        let count = seen.len() as u64;
        Distinct {
            count: count.min(limit),
            complete: count < limit && searched_all,
            seen,
        }
    }
}

/// Collects distinct solutions by turns in every lane (as
/// [`first_solution`] searches), until `limit` of them are found, a lane
/// has searched every path, or the lanes together pass `max_nodes` (or the
/// limits stop them). The lanes find solutions in different orders, so a
/// puzzle with several solutions shows `limit` of them much sooner than
/// one search in the engine's order can reach them. On puzzles with
/// elimination marks the cases take turns too, as when solving
/// ([`Turns::run_with_cases_visit`]), and once every case is searched to
/// the end every solution has been seen. Solutions are told apart as the
/// line drawn forward (start and moves); `seen` holds those already known
/// (found by another search), which count too. The first
/// [`NEAR_SEARCHES`] solutions, from `seen` or found, each get a near
/// search ([`super::nearby`]) of [`NEAR_NODES`] nodes at most, unless they
/// visit nearly every node.
pub fn distinct_solutions<const N: usize>(job: &CountJob<'_, N>, seen: Seen) -> Distinct {
    distinct_solutions_with_share(job, seen, &CaseShare::alone())
}

/// [`distinct_solutions`] with `share` past the first turn: one of
/// [`CaseShare::alone`] and [`CaseShare::alone_with_sat`] (whose SAT
/// engine blocks each solution it finds, and whose "no more" is a proof
/// that ends the count as complete).
pub fn distinct_solutions_with_share<const N: usize>(
    job: &CountJob<'_, N>,
    mut seen: Seen,
    share: &CaseShare,
) -> Distinct {
    let (plan, masks, limits, schedule, limit, max_nodes) = job.parts();
    let mut turns = Turns::new(schedule, Some(max_nodes));
    let limit = limit.max(1);
    let seen = std::sync::Mutex::new(std::mem::take(&mut seen));
    if !near_of_seen(plan, masks, limits, &seen, limit) {
        return Distinct {
            count: limit,
            complete: false,
            seen: seen.into_inner().expect("lock"),
        };
    }
    let mut visit =
        |answer: Answer| add_with_near(plan, masks, limits, &seen, (answer.0, answer.2), limit);
    let mut fwd = Search::new(plan, masks, limits);
    let ended = turns.step_with(&mut fwd, None, &Turns::ALL, &mut visit);
    if !ended {
        let back = Back::<N>::new(plan);
        let mut bs = back.as_ref().map(|b| b.search(limits));
        turns.run_with_cases_visit(
            &mut fwd,
            bs.as_mut(),
            &Turns::ALL,
            plan,
            limits,
            share,
            &mut visit,
        );
    }
    Distinct::of(seen.into_inner().expect("lock"), limit, !turns.stopped)
}

/// Runs the near searches of the first [`NEAR_SEARCHES`] solutions
/// already in `seen` (found by an earlier search), adding what they find;
/// true while `seen` holds fewer than `limit`.
fn near_of_seen<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limits: &Limits,
    seen: &std::sync::Mutex<Seen>,
    limit: u64,
) -> bool {
    let known: Vec<(usize, Vec<Direction>)> = {
        let mut seen = seen.lock().expect("lock");
        let mut known: Vec<_> = seen.iter().cloned().collect();
        for k in &known {
            insert_solution(plan, &mut seen, k.clone());
        }
        if seen.len() as u64 >= limit {
            return false;
        }
        known.sort_by_key(|(s, m)| (*s, m.iter().map(|&d| d as u8).collect::<Vec<_>>()));
        known.truncate(NEAR_SEARCHES);
        known
    };
    known
        .iter()
        .all(|(start, moves)| near_into(plan, masks, limits, seen, (*start, moves), limit))
}

/// Searches by `schedule` until a lane finds a solution or proves there is
/// none, or the limits stop it; returns the solution as `(start, end,
/// moves)`, whether the search ended without the limits cutting it short,
/// and the nodes visited. The reversed plan is made only when the first
/// turn does not settle the puzzle; on puzzles with elimination marks the
/// cases and the local search take turns as well
/// ([`Turns::run_with_cases`]).
pub fn first_solution<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limits: &Limits,
    schedule: &Schedule,
) -> (Option<Answer>, bool, u64) {
    first_solution_with_share(plan, masks, limits, schedule, &CaseShare::alone())
}

/// [`first_solution`] with `share` past the first turn: one of
/// [`CaseShare::alone`] and [`CaseShare::alone_with_sat`].
pub fn first_solution_with_share<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limits: &Limits,
    schedule: &Schedule,
    share: &CaseShare,
) -> (Option<Answer>, bool, u64) {
    let mut turns = Turns::new(schedule, limits.max_nodes);
    let mut fwd = Search::new(plan, masks, limits);
    if let Some(answer) = turns.step(&mut fwd, None, &Turns::ALL) {
        return (answer, !turns.stopped, fwd.visited);
    }
    first_solution_rest(plan, limits, &mut turns, &mut fwd, share)
}

/// [`first_solution`] past its first turn (`turns` and `fwd` where that
/// left them): every lane, the elimination cases and the local search by
/// turns, on this thread (the local search as `share` has it: in a
/// helper's place, or beside one).
fn first_solution_rest<const N: usize>(
    plan: &Plan,
    limits: &Limits,
    turns: &mut Turns,
    fwd: &mut Search<'_, N>,
    share: &CaseShare,
) -> (Option<Answer>, bool, u64) {
    let back = Back::<N>::new(plan);
    let mut bs = back.as_ref().map(|b| b.search(limits));
    let (answer, case_nodes) =
        turns.run_with_cases(fwd, bs.as_mut(), &Turns::ALL, plan, limits, share);
    let visited = fwd.visited + bs.map_or(0, |b| b.visited) + case_nodes;
    (answer, !turns.stopped, visited)
}

/// The work between the helper's looks at the limits and its stop flag
/// when it runs a local search alone
/// ([`distinct_solutions_threads`], `first_solution_helped`): about a
/// millisecond.
pub const HELPER_ANNEAL_STEP: u64 = 10_000;

/// Sets a stop flag when dropped while its thread panics, so that the
/// side sharing the flag (which may have no limits of its own) ends and
/// the panic reaches the caller at the join instead of leaving it waiting.
#[cfg(feature = "native")]
struct StopOnPanic<'a>(&'a AtomicBool);

#[cfg(feature = "native")]
impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs the local search `a` alone, handing `visit` each solution it
/// finds, until `visit` returns false, the limits stop it or its work
/// reaches `max_work`.
#[cfg(feature = "native")]
fn anneal_alone(
    a: &mut Anneal<'_>,
    limits: &Limits,
    max_work: u64,
    visit: &mut impl FnMut(Answer) -> bool,
) {
    while !limits.expired() && a.work() < max_work {
        let work = a.work().saturating_add(HELPER_ANNEAL_STEP);
        if let Some(answer) = a.run_until(work, limits) {
            if !visit(answer) {
                return;
            }
        }
    }
}

/// True when a first solution on two threads divides the work as
/// `first_solution_helped` does: the panel has elimination marks, and
/// neither symmetry nor undirected lines (which the local search does not
/// handle, [`Anneal::new`]). A look at the plan's flags, no tables built.
pub fn helped(plan: &Plan) -> bool {
    plan.rules.board.has_negations && !plan.symmetric && !plan.undirected
}

/// What the helper thread of `first_solution_helped` runs.
#[derive(Clone, Copy, Debug)]
pub enum Helper<'a> {
    /// A local search of its own seed alone.
    Local,
    /// A local search and the SAT engine's solve of the puzzle (the
    /// plan's) by turns (`helper_turns`); without the `sat` feature, the
    /// local search alone.
    LocalSat(&'a Puzzle),
    /// The SAT engine's solve of the puzzle (the plan's) alone; without
    /// the `sat` feature, nothing.
    Sat(&'a Puzzle),
}

/// [`first_solution`] on two threads beside a helper: past the first
/// turn, one thread goes on as [`first_solution`] does on one (every
/// lane, the elimination cases and its local search by turns, from where
/// the first turn left them), but for its local search, which joins as
/// beside a helper ([`CaseShare::all`]: after
/// [`Schedule::anneal_after`], with a small share), and the other runs `helper`
/// from the start: for the panels [`helped`] selects, a local search of
/// its own seed ([`ANNEAL_SEED`]` + 1`) alone, or with the SAT engine by
/// turns; on others, the SAT engine alone. The first to answer stops the
/// other. The local search's time to a solution depends
/// mostly on its seed and not on the lanes, and on a core of its own it
/// takes nothing from them, so it need not wait for
/// [`Schedule::anneal_after`] as the one beside the lanes does; the side
/// that runs every lane is never left with less than one thread's work,
/// and nothing is searched twice. "No solution" comes from the exact
/// side, or from the SAT engine, whose "none" is a proof too (every cut
/// it adds is sound); the local search proves nothing, and its solutions,
/// like the SAT engine's, are the validator's. Puzzles the first turn
/// settles start no thread and get [`first_solution`]'s answer; later,
/// which side answers first may depend on timing. A node cap
/// ([`Limits::max_nodes`]) caps each side's work, and leaves the SAT
/// engine out (it counts no nodes).
#[cfg(feature = "native")]
pub fn first_solution_helped<const N: usize>(
    plan: &Plan,
    masks: &Masks<N>,
    limits: &Limits,
    schedule: &Schedule,
    helper: Helper<'_>,
) -> (Option<Answer>, bool, u64) {
    use std::sync::Arc;
    // A stop flag of our own, set by the side that answers first.
    let stop = Arc::new(AtomicBool::new(false));
    let mut lim = limits.clone();
    lim.stop = Some(stop.clone());
    let lim = &lim;
    let mut turns = Turns::new(schedule, lim.max_nodes);
    let mut fwd = Search::new(plan, masks, lim);
    if let Some(answer) = turns.step(&mut fwd, None, &Turns::ALL) {
        return (answer, !turns.stopped, fwd.visited);
    }
    let (exact, found) = std::thread::scope(|scope| {
        let (turns, fwd, stop) = (&mut turns, &mut fwd, &stop);
        let room = crate::stack::need(plan.rules.board.len(), N);
        // The exact side starts first: the helper's tables are built on
        // this thread meanwhile.
        let handle = scope.spawn(move || {
            let _panic = StopOnPanic(stop);
            crate::stack::with_room(room, || {
                let exact = first_solution_rest(plan, lim, turns, fwd, &CaseShare::all());
                // Answered or proved none: the helper stops. (Stopped by
                // the limits, it stops too; stopped by the node cap, it
                // goes on to its own.)
                if exact.0.is_some() || exact.1 {
                    stop.store(true, Ordering::Relaxed);
                }
                exact
            })
        });
        // A panic on this side stops the other, so that it reaches the
        // caller at the scope's end rather than leaving it waiting.
        let _panic = StopOnPanic(stop);
        // `Some(answer)`: the helper found a solution; `Some(None)`: the
        // SAT engine proved there is none.
        let mut found = None;
        let local = match helper {
            Helper::Local => true,
            #[cfg(feature = "sat")]
            Helper::LocalSat(puzzle) | Helper::Sat(puzzle) if lim.max_nodes.is_none() => {
                let local = matches!(helper, Helper::LocalSat(_));
                found = helper_turns(plan, puzzle, lim, local);
                if found.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
                return (
                    handle.join().expect("the solving thread does not panic"),
                    found,
                );
            }
            Helper::LocalSat(_) => true,
            Helper::Sat(_) => false,
        };
        if let Some(mut helper) = local.then(|| Anneal::new(plan, ANNEAL_SEED + 1)).flatten() {
            helper.set_limits(lim);
            let max_work = lim.max_nodes.unwrap_or(u64::MAX);
            anneal_alone(&mut helper, lim, max_work, &mut |answer| {
                found = Some(Some(answer));
                stop.store(true, Ordering::Relaxed);
                false
            });
        }
        (
            handle.join().expect("the solving thread does not panic"),
            found,
        )
    });
    match (exact, found) {
        // The exact side's answer wins a tie, and a proof is its own.
        (exact @ (Some(_), _, _), _) => exact,
        ((None, _, visited), Some(answer)) => (answer, true, visited),
        (exact, None) => exact,
    }
}

/// The first turn of each side on the helper thread of
/// [`first_solution_helped`] with the SAT engine ([`helper_turns`]); each
/// later turn is twice as long, up to [`HELPER_TURN_MAX`].
#[cfg(feature = "sat")]
pub const HELPER_TURN_FIRST: std::time::Duration = std::time::Duration::from_millis(2);

/// The longest turn of the local search on the helper thread of
/// [`first_solution_helped`] with the SAT engine (the SAT engine's turns
/// there end at [`TURN_MAX`](super::sat::cubes::TURN_MAX), as long).
#[cfg(feature = "sat")]
pub const HELPER_TURN_MAX: std::time::Duration = std::time::Duration::from_millis(64);

/// On a piece panel, the local search's time alone on the helper thread
/// of [`first_solution_helped`] before the SAT engine's first turn
/// ([`helper_turns`]): the local search alone settles most marked piece
/// panels within tens of milliseconds, where building the SAT engine's
/// placement encoding takes some milliseconds and sharing the thread
/// doubles the local search's time. (Wall time: the local search's
/// turns are budgets of processor time, so on a loaded machine the head
/// start holds less of its work.)
#[cfg(feature = "sat")]
pub const HELPER_SAT_AFTER: std::time::Duration = std::time::Duration::from_millis(32);

/// The helper of [`first_solution_helped`] on a panel the SAT engine
/// encodes: a local search of its own seed and the SAT engine's solve of
/// `puzzle` (the puzzle of `plan`; with elimination cases, one case at a
/// time first, [`super::sat::cubes`]), by turns from
/// [`HELPER_TURN_FIRST`] doubling to [`HELPER_TURN_MAX`], each side going
/// on from where its last turn stopped (the local search keeps its
/// state; the SAT engine its encoding, its cuts and what the solver
/// learned). The SAT engine is built at its first turn, which counts as
/// its time, and the side that has had less time so far goes next; on
/// a piece panel the SAT engine's first turn waits until the local
/// search has had [`HELPER_SAT_AFTER`]. Each settles marked panels the other takes long over: the
/// local search those whose marks leave the exact side little pruning,
/// the SAT engine those where propagation does the work. `Some(Some(_))`
/// is a solution (the local search's and the SAT engine's pass the
/// validator), `Some(None)` the SAT engine's proof that there is none,
/// `None` nothing before `limits` stopped both (or both gave up: a panel
/// neither handles). Without `local`, the SAT engine's turns alone (for
/// tests).
#[cfg(feature = "sat")]
pub fn helper_turns(
    plan: &Plan,
    puzzle: &Puzzle,
    limits: &Limits,
    local: bool,
) -> Option<Option<Answer>> {
    let mut found = None;
    let proved = helper_turns_visit(plan, puzzle, limits, local, false, &mut |a| {
        found = Some(a);
        false
    });
    match found {
        Some(a) => Some(Some(a)),
        None => proved.then_some(None),
    }
}

/// [`helper_turns`], handing `visit` every solution either side finds
/// until it returns false (a solution may come any number of times: the
/// local search finds some again, and the SAT engine may find one the
/// local search handed on already);
/// with `block`, the SAT engine blocks each solution it finds, so that
/// its next turns find others, as a count wants. True when the SAT
/// engine proved that the panel has no solution besides those it handed
/// on (with `block`; without, no solution at all): its run without
/// assumptions found no model once they were blocked, and every cut and
/// blocking clause it adds is sound, so `visit` has seen every solution.
#[cfg(feature = "sat")]
pub fn helper_turns_visit(
    plan: &Plan,
    puzzle: &Puzzle,
    limits: &Limits,
    local: bool,
    block: bool,
    visit: &mut dyn FnMut(Answer) -> bool,
) -> bool {
    use super::race::{within, HeadStart};
    use std::time::{Duration, Instant};
    let b = &plan.rules.board;
    let room = crate::stack::need_for_slots(b.len());
    crate::stack::with_room(room, || {
        let mut anneal = local.then(|| Anneal::new(plan, ANNEAL_SEED + 1)).flatten();
        if let Some(a) = anneal.as_mut() {
            a.set_limits(limits);
        }
        // The SAT engine is built at its first turn, which pays for it;
        // alone, it needs no turns.
        let first = if anneal.is_none() {
            Duration::MAX
        } else {
            HELPER_TURN_FIRST
        };
        let mut sat = CubeTurns::new(puzzle, first, block);
        // Each side's time so far: the side that has had less goes next,
        // so that an encoding that takes long is paid back to the local
        // search before the SAT engine's next turn. On a piece panel the
        // SAT engine's first turn waits for the local search's head start.
        let mut local_time = Duration::ZERO;
        let head_start = if b.has_polys && anneal.is_some() {
            HELPER_SAT_AFTER
        } else {
            Duration::ZERO
        };
        let mut local_turn = HELPER_TURN_FIRST;
        while !limits.expired() && (anneal.is_some() || !sat.gone()) {
            let sat_due = !sat.gone()
                && (anneal.is_none() || (local_time >= head_start && sat.time() < local_time));
            if let Some(a) = anneal.as_mut().filter(|_| !sat_due) {
                let t = Instant::now();
                // Not past the head start in one turn.
                let turn = match head_start.saturating_sub(local_time) {
                    Duration::ZERO => local_turn,
                    left => local_turn.min(left),
                };
                let l = within(limits, HeadStart::of(turn));
                while !l.expired() {
                    let work = a.work().saturating_add(HELPER_ANNEAL_STEP);
                    if let Some(answer) = a.run_until(work, &l) {
                        if !visit(answer) {
                            return false;
                        }
                    }
                }
                local_time += t.elapsed();
                local_turn = (local_turn * 2).min(HELPER_TURN_MAX);
            }
            if sat_due {
                match sat.turn(limits) {
                    CubeTurn::Found(answer) => {
                        if !visit(answer) || !block {
                            return false;
                        }
                    }
                    // No (other) solution: proved.
                    CubeTurn::Proved => return true,
                    CubeTurn::Open | CubeTurn::Gone => {}
                }
            }
            if anneal.is_none() && (sat.gone() || !block) {
                // The SAT engine alone was stopped by the limits, or gave
                // up.
                break;
            }
        }
        false
    })
}

/// [`distinct_solutions`] on two threads, sharing the solutions found (the
/// near searches on the thread that finds the solution). One thread runs
/// what [`distinct_solutions`] runs on one: every lane by turns, with the
/// elimination cases and the local search ([`super::local`]) on marked
/// puzzles (joining as beside a helper, [`CaseShare::all`], where the one
/// thread's stands in for one), so that a count is never left with less
/// than the lanes and cases of one thread, however the other fares. The other helps: on a puzzle without
/// elimination marks it searches in the engine's order alone, the
/// branches of `rest` if given (on the thread pool, as the count that
/// left them ran), else the whole tree by turns; on a marked puzzle, a
/// local search of its own seed alone from the start (a local search's
/// time to a solution depends mostly on its seed, and once it has one it
/// finds more among its detours; on a core of its own the helper takes
/// nothing from the other side, so it need not wait for the lanes as a
/// local search beside them does), or where the local search does not run (symmetry,
/// undirected panels) the engine's order by turns. `rest` holds the branches an
/// earlier count in the engine's order left, which with the ones it
/// searched (whose solutions `seen` holds) cover every path. With `sat`
/// (the plan's puzzle), on a directed panel without elimination marks and
/// without a node cap, the helper first runs the SAT engine's count for
/// `SAT_HELPER_FIRST` (its `sat_side`), then goes on as above; with
/// `sat`, on a marked panel the local search handles ([`helped`]: no
/// symmetry, directed lines) with elimination cases
/// ([`super::mark_cases::case_count`]) and without a node cap, it runs
/// the local search and the SAT engine by turns (`helper_turns_visit`),
/// the SAT engine asking about the cases one at a time and blocking each
/// solution it finds.
///
/// Exact: each side only adds solutions to one set, told apart by their
/// lines (with mirror twins); a side ends the count as complete only when
/// it has seen every solution: a lane searched every path, the cases were
/// all searched to the end, every branch of `rest` was searched, or the
/// SAT engine's count (or, on the turns of a marked panel, its run
/// without assumptions once its solutions were blocked) found no more
/// (every cut and blocking clause it adds is sound, so its "no more" is a
/// proof, and every solution it found went to the set). On
/// an undirected panel a line and its reverse are one solution, which the
/// searches report from its earlier slot and the SAT engine from either
/// end, so neither the SAT count nor the turns run there. The
/// solution that reaches `limit` stops both, and so does the end of the
/// side that runs every lane (past it the count is settled or stopped,
/// whatever the helper would find); `max_nodes` caps each thread's nodes.
#[cfg(feature = "native")]
pub fn distinct_solutions_threads<const N: usize>(
    job: &CountJob<'_, N>,
    seen: Seen,
    rest: Option<Vec<(usize, Vec<Direction>)>>,
    sat: Option<&Puzzle>,
) -> Distinct {
    let (plan, masks, limits, schedule, limit, max_nodes) = job.parts();
    let limit = limit.max(1);
    if seen.len() as u64 >= limit {
        return Distinct {
            count: limit,
            complete: false,
            seen,
        };
    }
    // A stop flag of our own, set by the side that settles the count.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut lim = limits.clone();
    lim.stop = Some(stop.clone());
    let seen = std::sync::Mutex::new(seen);
    if !near_of_seen(plan, masks, &lim, &seen, limit) {
        return Distinct {
            count: limit,
            complete: false,
            seen: seen.into_inner().expect("lock"),
        };
    }
    let visit = |(start, _, moves): Answer| {
        let go = add_with_near(plan, masks, &lim, &seen, (start, moves), limit);
        if !go {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        go
    };
    let marked = plan.rules.board.has_negations;
    // The pool's two threads beside the other side's would make three on
    // two cores where the helper is the engine's order by turns anyway.
    let rest = rest.filter(|_| !marked);
    // Lanes `lanes` by turns until they end, with that share of the
    // elimination cases and local search; true when one searched every
    // path or the cases are all searched to the end (then the other side
    // is stopped).
    let side = |fwd: &mut Search<'_, N>,
                back: Option<&mut Search<'_, N>>,
                lanes: &[usize],
                share: &CaseShare| {
        let mut turns = Turns::new(schedule, Some(max_nodes));
        turns.run_with_cases_visit(fwd, back, lanes, plan, &lim, share, &mut |a| visit(a));
        let searched_all = !turns.stopped;
        if searched_all {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        searched_all
    };
    let all = &Turns::ALL;
    let (mine, theirs) = std::thread::scope(|scope| {
        let (side, lim, stop) = (&side, &lim, &stop);
        let room = crate::stack::need(plan.rules.board.len(), N);
        let handle = scope.spawn(move || {
            let _panic = StopOnPanic(stop);
            crate::stack::with_room(room, || {
                let mut fwd = Search::new(plan, masks, lim);
                let back = Back::<N>::new(plan);
                let mut bs = back.as_ref().map(|b| b.search(lim));
                let searched_all = side(&mut fwd, bs.as_mut(), all, &CaseShare::all());
                // Done either way: searched to the end, or stopped by the
                // limits or its node cap, past which the count is stopped
                // whatever the helper finds; the helper stops too.
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                searched_all
            })
        });
        // On a piece panel the SAT engine supports, the SAT engine's count
        // first, for `SAT_HELPER_FIRST` of work; on, as below, if it has
        // not settled the count.
        #[cfg(feature = "sat")]
        if let Some(puzzle) = sat.filter(|_| sat_counts(plan, limits)) {
            let first = super::race::within(lim, SAT_HELPER_FIRST);
            if sat_side(plan, puzzle, &first, limit, &|a| visit(a)) {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
                return (
                    true,
                    handle.join().expect("the counting thread does not panic"),
                );
            }
        }
        #[cfg(not(feature = "sat"))]
        let _ = sat;
        let mine = match rest {
            // The engine's order goes on with the branches left.
            Some(rest) => {
                // On the pool, as the count it goes on from ran them.
                let tally = std::sync::atomic::AtomicU64::new(0);
                let cap = Some((&tally, max_nodes));
                let searched_all =
                    super::search::run_branches(plan, masks, lim, &rest, cap, None, &|f| {
                        visit((f.start, f.end, f.moves.to_vec()))
                    });
                if searched_all {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                searched_all
            }
            // A marked panel with elimination cases whose pieces the SAT
            // engine helps with: the local search and the SAT engine by
            // turns, the SAT engine asking about the cases one at a time
            // and blocking each solution it finds; its "no more" settles
            // the count.
            #[cfg(feature = "sat")]
            None if sat.is_some() && cubes_count(plan, limits) => {
                let puzzle = sat.expect("checked above");
                CUBES_HELPER_COUNTS.fetch_add(1, Ordering::Relaxed);
                let proved = helper_turns_visit(plan, puzzle, lim, true, true, &mut |a| visit(a));
                if proved {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
                proved
            }
            None => match marked.then(|| Anneal::new(plan, ANNEAL_SEED + 1)).flatten() {
                // A local search of its own seed, with the whole thread
                // from the start: it never ends the count, which the
                // other side's searches prove complete or stop.
                Some(mut a) => {
                    a.set_limits(lim);
                    anneal_alone(&mut a, lim, max_nodes, &mut |answer| visit(answer));
                    false
                }
                None => side(
                    &mut Search::new(plan, masks, lim),
                    None,
                    &all[..1],
                    &CaseShare {
                        part: 0,
                        parts: 0,
                        finished: None,
                        anneal: None,
                        alone: false,
                        sat: None,
                    },
                ),
            },
        };
        (
            mine,
            handle.join().expect("the counting thread does not panic"),
        )
    });
    Distinct::of(seen.into_inner().expect("lock"), limit, mine || theirs)
}

/// [`distinct_solutions`] on this thread alone; with `sat` (the plan's
/// puzzle), on a directed panel without elimination marks and without a
/// node cap, the search for the schedule's
/// [`sat_after`](Schedule::sat_after) (its limits are looked at every
/// thousand nodes or so), then the SAT engine's count for
/// `SAT_HELPER_FIRST`, as the helper thread of
/// [`distinct_solutions_threads`] runs it, then the search afresh (its
/// first run's work done again) with the solutions found, none lost: where no
/// second thread is to be had (a pool of several threads, each on a
/// count of its own), the count's piece panels keep the engine that
/// settles some of them in milliseconds. On a marked panel with
/// elimination cases ([`helped`]: directed, no symmetry) without a node
/// cap, the SAT engine's case cubes take turns with the lanes instead, as
/// the helper thread runs them beside a count where there is one
/// ([`distinct_solutions_with_share`] with [`CaseShare::alone_with_sat`]).
/// Exact as that helper: the SAT engine only adds solutions to the set,
/// and its "no more" is a proof.
pub fn distinct_solutions_sat_first<const N: usize>(
    job: &CountJob<'_, N>,
    seen: Seen,
    sat: Option<&Puzzle>,
) -> Distinct {
    #[cfg(feature = "sat")]
    if let Some(puzzle) = sat.filter(|_| sat_counts(job.plan, job.limits)) {
        let (plan, masks, limits, schedule, limit, _) = job.parts();
        let limit = limit.max(1);
        // The search first, for as long as a solve gives it before the
        // SAT engine's turn: the counts it settles pay nothing more.
        let before = super::race::within(limits, super::race::HeadStart::of(schedule.sat_after));
        let d = distinct_solutions(
            &CountJob {
                limits: &before,
                ..*job
            },
            seen,
        );
        if d.complete || d.count >= limit || limits.expired() {
            return d;
        }
        SAT_FIRST_RUNS.fetch_add(1, Ordering::Relaxed);
        let seen = std::sync::Mutex::new(d.seen);
        let first = super::race::within(limits, SAT_HELPER_FIRST);
        let complete = sat_side(plan, puzzle, &first, limit, &|(start, _, moves)| {
            add_with_near(plan, masks, limits, &seen, (start, moves), limit)
        });
        let seen = seen.into_inner().expect("lock");
        if complete || seen.len() as u64 >= limit || limits.expired() {
            return Distinct::of(seen, limit, complete);
        }
        return distinct_solutions(job, seen);
    }
    #[cfg(feature = "sat")]
    if let Some(puzzle) = sat.filter(|_| cubes_count(job.plan, job.limits)) {
        return distinct_solutions_with_share(job, seen, &CaseShare::alone_with_sat(puzzle));
    }
    #[cfg(not(feature = "sat"))]
    let _ = sat;
    distinct_solutions(job, seen)
}

/// Whether the SAT engine's case cubes ([`super::sat::cubes`]) help a
/// count of `plan` within `limits`, on a piece panel its caller has
/// chosen (at most seven pieces and 400 faces, `count_plan_pieces`): a
/// marked panel the local search takes ([`helped`]: directed, no
/// symmetry) with elimination cases ([`super::mark_cases::case_count`]),
/// and no node cap (which only the search measures).
#[cfg(feature = "sat")]
fn cubes_count(plan: &Plan, limits: &Limits) -> bool {
    helped(plan) && limits.max_nodes.is_none() && super::mark_cases::case_count(plan).is_some()
}

/// Whether the SAT engine's count helps a count of `plan` within
/// `limits` ([`distinct_solutions_threads`],
/// [`distinct_solutions_sat_first`]): a directed panel without
/// elimination marks, and no node cap (which only the search measures).
/// On undirected panels the searches report a line from its earlier slot
/// and the SAT engine from either end, so the set would hold one line
/// twice.
#[cfg(feature = "sat")]
fn sat_counts(plan: &Plan, limits: &Limits) -> bool {
    !plan.rules.board.has_negations && !plan.undirected && limits.max_nodes.is_none()
}

/// How long the helper of [`distinct_solutions_threads`] runs the SAT
/// engine's count on a piece panel before it goes on as on other panels:
/// 100 ms of work. The piece panels whose counts the SAT engine settles
/// far sooner than the search settle within it (docs/benchmarks.md,
/// "Uniqueness on the slowest piece panels"), and on those it does not,
/// the helper's own search starts that much later, while the side that
/// runs every lane goes on from the start.
#[cfg(feature = "sat")]
pub const SAT_HELPER_FIRST: super::race::HeadStart =
    super::race::HeadStart::of(std::time::Duration::from_millis(100));

/// The SAT engine's count of `puzzle` (the puzzle of `plan`, directed)
/// up to `limit`, handing `visit` each solution; true when it found every
/// solution (its "no more" is a proof: every cut is sound, every model it
/// reports passed the validator). An error (a panel it does not encode)
/// ends it with nothing proved.
#[cfg(feature = "sat")]
fn sat_side(
    plan: &Plan,
    puzzle: &Puzzle,
    limits: &Limits,
    limit: u64,
    visit: &dyn Fn(Answer) -> bool,
) -> bool {
    let b = &plan.rules.board;
    let room = crate::stack::need_for_slots(b.len());
    let use_it = std::sync::atomic::Ordering::Relaxed;
    crate::stack::with_room(room, || {
        super::sat::SatRun::new(puzzle, limits)
            .and_then(|mut run| {
                run.count(Some(limit), limits, |p| {
                    SAT_HELPER_SOLUTIONS.fetch_add(1, use_it);
                    visit((b.index(p.start.x, p.start.y), 0, p.moves.clone()))
                })
            })
            .is_ok_and(|c| c.status == super::answer::Status::Complete)
    })
}

/// The set `sat_side` fills on its own, as the helper fills the count's
/// (mirror twins added, `insert_solution`), with nothing else running,
/// up to `limit` solutions, and whether it proved there are no more: what
/// the helper adds to a count, for tests.
#[cfg(feature = "sat")]
pub fn sat_side_alone(plan: &Plan, puzzle: &Puzzle, limit: u64) -> (Seen, bool) {
    let seen = std::sync::Mutex::new(Seen::new());
    let complete = sat_side(plan, puzzle, &Limits::none(), limit, &|a: Answer| {
        let mut s = seen.lock().expect("lock");
        insert_solution(plan, &mut s, (a.0, a.2));
        (s.len() as u64) < limit
    });
    (seen.into_inner().expect("lock"), complete)
}

/// The solutions `sat_side` has handed on, in all, since the process
/// started: for tests, to tell that the SAT side took part.
#[cfg(feature = "sat")]
pub static SAT_HELPER_SOLUTIONS: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(0);

/// The counts on one thread that came to the SAT engine's turn of
/// [`distinct_solutions_sat_first`], in all, since the process started:
/// for tests, to tell that the turn came.
#[cfg(feature = "sat")]
pub static SAT_FIRST_RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

#[cfg(feature = "sat")]
thread_local! {
    /// The turns the SAT engine's case cubes took on this thread beside
    /// the lanes ([`cube_turns_here`]).
    static CUBE_TURNS_HERE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The turns the SAT engine's case cubes took on the calling thread
/// beside the lanes ([`CaseShare::alone_with_sat`]), in all, since the
/// thread started: for tests, to tell that they took part in a job run
/// on this thread (a count of this thread, unlike a count of the
/// process, is not raised by the jobs of other tests running beside it).
#[cfg(feature = "sat")]
pub fn cube_turns_here() -> u64 {
    CUBE_TURNS_HERE.with(std::cell::Cell::get)
}

/// The counts whose helper thread ran [`helper_turns_visit`] (a marked
/// panel's cases as SAT cubes), in all, since the process started: for
/// tests, to tell that the helper took part.
#[cfg(feature = "sat")]
pub static CUBES_HELPER_COUNTS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// [`distinct_solutions_threads`] without the `native` feature (no
/// threads): [`distinct_solutions`] on this thread; `rest` is not needed.
#[cfg(not(feature = "native"))]
pub fn distinct_solutions_threads<const N: usize>(
    job: &CountJob<'_, N>,
    seen: Seen,
    _rest: Option<Vec<(usize, Vec<Direction>)>>,
    _sat: Option<&Puzzle>,
) -> Distinct {
    distinct_solutions(job, seen)
}

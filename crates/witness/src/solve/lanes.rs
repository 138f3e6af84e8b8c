//! Search lanes by turns: a lane is a move order on the plan or on its
//! reversal ([`reverse`]), and [`Turns`] runs the lanes in rounds of
//! growing budgets ([`Schedule`]), each turn resuming where the lane's
//! last one stopped ([`Resume`]), so no work is done twice. A lane whose
//! turn ends without running out of budget has searched every path, so
//! "no solution" from it is proved. [`super::portfolio`] adds the
//! elimination cases and the local search to these turns.

use super::answer::Answer;
use super::limits::Limits;
use super::plan::{Masks, Plan};
use super::reverse;
use super::search::{Found, Resume, Search};
use crate::model::Direction;

/// The budgets of the turns, in search nodes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The budget of a turn in the first round (the engine's order, from
    /// the starts and from the ends, gets twice it).
    pub first: u64,
    /// By how much the budget grows from one round to the next.
    pub growth: u64,
    /// The largest budget of a turn (before the lanes' weights).
    pub most: u64,
    /// The search nodes the lanes visit before the elimination cases
    /// ([`super::mark_cases`]) get turns.
    pub cases_after: u64,
    /// The search nodes the lanes visit before the late lanes (the
    /// reversal's other two move orders) join the rounds. On two threads
    /// each thread counts its own lanes' nodes.
    pub late_lanes: u64,
    /// The search nodes the lanes visit before the local search
    /// ([`super::local`]) takes turns, on puzzles with elimination marks,
    /// beside a helper thread that runs one of its own.
    pub anneal_after: u64,
    /// The search nodes the lanes visit before the local search takes
    /// turns where no helper thread runs one beside them (a solve or a
    /// count on one thread, [`super::portfolio::CaseShare::alone`]);
    /// `u64::MAX` for no such stand-in: the local search then joins there
    /// as beside a helper, after [`Schedule::anneal_after`].
    pub anneal_alone_after: u64,
    /// Not in nodes: the work the search does before the SAT engine's
    /// turn in a count to a small limit of a piece panel with a few
    /// pieces, where the count has no second thread
    /// ([`super::portfolio::distinct_solutions_sat_first`]; [`SAT_AFTER`]).
    pub sat_after: std::time::Duration,
    /// Not in nodes: the time a job on one thread with the SAT engine's
    /// case cubes ([`super::portfolio::CaseShare::sat`]) runs before
    /// they take turns ([`CUBES_ALONE_AFTER`]).
    pub cubes_alone_after: std::time::Duration,
}

/// The time a solve or a count on one thread of a marked piece panel
/// with elimination cases runs before the SAT engine's case cubes take
/// turns ([`Schedule::cubes_alone_after`]): 32 ms from the start of its
/// turns by lanes, as long as the head start the local search has on the
/// helper thread (`portfolio::HELPER_SAT_AFTER`). The
/// lanes, cases and local search settle most such panels sooner, and
/// they pay nothing.
pub const CUBES_ALONE_AFTER: std::time::Duration = std::time::Duration::from_millis(32);

/// The search's work on one thread before the SAT engine's turn on a
/// piece panel with a few pieces (a count's, [`Schedule::sat_after`], and
/// a solve's, `race::SEARCH_BEFORE_SAT`): 20 ms. The piece panels the
/// search settles sooner pay nothing for the SAT engine; of the dev
/// corpus's piece panels that take the search longer, the SAT engine
/// settles some in a few milliseconds (docs/benchmarks.md, "Counts in a
/// pool of threads").
pub const SAT_AFTER: std::time::Duration = std::time::Duration::from_millis(20);

impl Default for Schedule {
    /// 10,000 nodes, doubling, up to 640,000; the cases after 20,000, the
    /// late lanes after 4M, the local search after 300,000 (after 40,000
    /// with no helper thread); the SAT engine's turn after [`SAT_AFTER`],
    /// its case cubes on one thread after [`CUBES_ALONE_AFTER`].
    fn default() -> Self {
        Schedule {
            first: 10_000,
            growth: 2,
            most: 640_000,
            cases_after: CASES_AFTER,
            late_lanes: LATE_LANES,
            anneal_after: ANNEAL_AFTER,
            anneal_alone_after: ANNEAL_ALONE_AFTER,
            sat_after: SAT_AFTER,
            cubes_alone_after: CUBES_ALONE_AFTER,
        }
    }
}

/// The move orders, with the start each begins with (as a share of the
/// start list: 0 is the first start, 1/2 the middle one).
pub const ORDERS: [([Direction; 4], (usize, usize)); 3] = [
    (Direction::ALL, (0, 1)),
    (
        [
            Direction::Down,
            Direction::Up,
            Direction::Left,
            Direction::Right,
        ],
        (1, 2),
    ),
    (
        [
            Direction::Up,
            Direction::Right,
            Direction::Left,
            Direction::Down,
        ],
        (1, 3),
    ),
];

/// A lane of the rounds: a move order on the plan as given or on its
/// reversal ([`reverse`]), its share of the round's budget, and whether it
/// joins late ([`Schedule::late_lanes`]).
#[derive(Copy, Clone, Debug)]
struct Lane {
    back: bool,
    order: usize,
    weight: u64,
    late: bool,
}

/// The lanes, by index: the engine's order first, then the reversal's
/// other two orders, which join late ([`Schedule::late_lanes`]), then the
/// plan's other two orders, then the engine's order on the reversal. Both
/// engine orders get twice the budget of the others, and so do the late
/// lanes, which join with the round's budget as it then is. The late lanes
/// come second so that, once they join, they take their turns before the
/// other lanes' long turns of that round (see docs/benchmarks.md).
const LANES: [Lane; 6] = [
    Lane {
        back: false,
        order: 0,
        weight: 2,
        late: false,
    },
    Lane {
        back: true,
        order: 1,
        weight: 2,
        late: true,
    },
    Lane {
        back: true,
        order: 2,
        weight: 2,
        late: true,
    },
    Lane {
        back: false,
        order: 1,
        weight: 1,
        late: false,
    },
    Lane {
        back: false,
        order: 2,
        weight: 1,
        late: false,
    },
    Lane {
        back: true,
        order: 0,
        weight: 2,
        late: false,
    },
];

/// The default [`Schedule::late_lanes`]: the search nodes after which the
/// reversal's other two orders join the rounds (half a second to two
/// seconds of search). More lanes are more chances to meet a move order
/// that reaches a solution soon, but each costs every puzzle it runs on
/// its share of the nodes. Joining this late, they cost nothing to the
/// puzzles the first four lanes solve sooner, and the others at most two
/// thirds more nodes past this point (the late lanes take 4 of every 10).
/// The point is chosen from the lanes' work on the corpus, with the turns
/// simulated (the lab binary `lanes`; see docs/benchmarks.md).
pub const LATE_LANES: u64 = 4_000_000;

/// The default [`Schedule::cases_after`]: the first turn of the engine's
/// order, so puzzles it solves never pay for the cases. (The cases' turns start small, [`super::mark_cases::CaseRuns::new`];
/// starting them early saves more on the puzzles a case settles than it
/// costs the others: see docs/benchmarks.md.)
pub const CASES_AFTER: u64 = 20_000;

/// The default [`Schedule::anneal_after`]: fifteen first turns of search,
/// so that the puzzles the lanes solve sooner never pay for the local
/// search.
pub const ANNEAL_AFTER: u64 = 300_000;

/// The default [`Schedule::anneal_alone_after`]: the first round's turns
/// on the puzzle as given (the engine's order's 20,000 nodes and the
/// other two orders' 10,000 each), so that the puzzles those settle never
/// pay for the local search, while on one thread the local search, which
/// no helper thread runs there, joins long before [`ANNEAL_AFTER`].
pub const ANNEAL_ALONE_AFTER: u64 = 40_000;

/// The state of a search by turns: each lane's resume point, the budget
/// of the current round and the next lane's place in it.
#[derive(Clone, Debug)]
pub struct Turns {
    resume: [Option<Resume>; LANES.len()],
    budget: u64,
    /// The budgets of the rounds, and when the cases and the local search
    /// join ([`super::portfolio`] reads those).
    pub(super) schedule: Schedule,
    next: usize,
    max_nodes: Option<u64>,
    /// Set when the turn that ended the search was cut short by the limits
    /// (or the searches together passed `max_nodes`): its answer is not
    /// exact.
    pub stopped: bool,
}

/// The reversed plan's tables, made once the first turn has not settled
/// the puzzle (most puzzles never need them).
pub struct Back<const N: usize> {
    plan: Plan,
    masks: Masks<N>,
}

impl<const N: usize> Back<N> {
    /// The tables for searching `plan` from its ends, if it may be
    /// ([`reverse::reversed`]).
    pub fn new(plan: &Plan) -> Option<Back<N>> {
        let plan = reverse::reversed(plan)?;
        let masks = Masks::new(&plan);
        Some(Back { plan, masks })
    }

    /// A fresh search from the ends.
    pub fn search<'a>(&'a self, limits: &'a Limits) -> Search<'a, N> {
        Search::new(&self.plan, &self.masks, limits)
    }
}

impl Turns {
    /// Before the first round; `max_nodes` caps the nodes of the searches
    /// this state runs, together.
    pub fn new(schedule: &Schedule, max_nodes: Option<u64>) -> Turns {
        Turns {
            resume: Default::default(),
            budget: schedule.first.max(1),
            schedule: *schedule,
            next: 0,
            max_nodes,
            stopped: false,
        }
    }

    /// The lanes of the default rounds, the engine's order first (two of
    /// them join late, [`LATE_LANES`]).
    pub const ALL: [usize; LANES.len()] = [0, 1, 2, 3, 4, 5];

    /// The next turn of a round over `lanes` (indices into the lanes, the
    /// engine's order being 0): lanes on the reversal are skipped when
    /// `back` is `None`, and the late lanes until the lanes have visited
    /// [`Schedule::late_lanes`] nodes. `Some` when the turn ended the search: with a
    /// solution (of `fwd`'s plan), with a proof that there is none, or cut
    /// short by the limits ([`Turns::stopped`]); `None` when it ran out of
    /// budget. `lanes` must hold a lane of the plan, and the same lanes
    /// until the round is over.
    pub fn step<const N: usize>(
        &mut self,
        fwd: &mut Search<'_, N>,
        back: Option<&mut Search<'_, N>>,
        lanes: &[usize],
    ) -> Option<Option<Answer>> {
        let mut found = None;
        let ended = self.step_with(fwd, back, lanes, &mut |answer| {
            found = Some(answer);
            false
        });
        ended.then_some(found)
    }

    /// The next turn of a round over `lanes`, as [`Turns::step`], handing
    /// `visit` every solution (see [`Turns::lane_turn`]); true when the
    /// turn ended the search.
    pub(crate) fn step_with<const N: usize>(
        &mut self,
        fwd: &mut Search<'_, N>,
        mut back: Option<&mut Search<'_, N>>,
        lanes: &[usize],
        visit: &mut impl FnMut(Answer) -> bool,
    ) -> bool {
        debug_assert!(lanes.iter().any(|&k| !LANES[k].back), "a lane of the plan");
        let total = fwd.visited + back.as_ref().map_or(0, |b| b.visited);
        let waits = |k: usize| LANES[k].late && total < self.schedule.late_lanes;
        loop {
            let k = lanes[self.next];
            let budget = self.budget.saturating_mul(LANES[k].weight);
            self.next += 1;
            if self.next == lanes.len() {
                self.next = 0;
                self.budget = self
                    .budget
                    .saturating_mul(self.schedule.growth.max(1))
                    .min(self.schedule.most.max(1));
            }
            // (Two calls: the searches may borrow for different lifetimes.)
            return match (LANES[k].back, back.as_deref_mut()) {
                _ if waits(k) && self.next == 0 => false,
                _ if waits(k) => continue,
                (false, _) => self.lane_turn(k, budget, fwd, total, visit),
                (true, Some(b)) => self.lane_turn(k, budget, b, total, visit),
                // The round may end with a skipped lane.
                (true, None) if self.next == 0 => false,
                (true, None) => continue,
            };
        }
    }

    /// Turns over `lanes` until one ends the search (see [`Turns::step`]).
    pub fn run<const N: usize>(
        &mut self,
        fwd: &mut Search<'_, N>,
        mut back: Option<&mut Search<'_, N>>,
        lanes: &[usize],
    ) -> Option<Answer> {
        loop {
            if let Some(answer) = self.step(fwd, back.as_deref_mut(), lanes) {
                return answer;
            }
        }
    }

    /// The rest of the current round (see [`Turns::step`]): `None` when
    /// every turn ran out of budget.
    pub fn finish_round<const N: usize>(
        &mut self,
        fwd: &mut Search<'_, N>,
        mut back: Option<&mut Search<'_, N>>,
        lanes: &[usize],
    ) -> Option<Option<Answer>> {
        while self.next != 0 {
            if let Some(answer) = self.step(fwd, back.as_deref_mut(), lanes) {
                return Some(answer);
            }
        }
        None
    }

    /// Lane `k`'s turn with `budget` nodes on `search`, the searches
    /// having visited `total` nodes so far, handing `visit` each solution
    /// found (drawn forward, whatever the lane) until it returns false.
    /// True when the turn ended the search: `visit` stopped it, the lane
    /// searched every path, or the limits cut it short ([`Turns::stopped`]);
    /// false when it ran out of budget (the lane's next turn resumes).
    fn lane_turn<const N: usize>(
        &mut self,
        k: usize,
        mut budget: u64,
        search: &mut Search<'_, N>,
        total: u64,
        visit: &mut impl FnMut(Answer) -> bool,
    ) -> bool {
        if let Some(m) = self.max_nodes {
            if total > m {
                self.stopped = true;
                return true;
            }
            budget = budget.min((m - total).saturating_add(1));
        }
        let lane = LANES[k];
        let (order, (num, den)) = ORDERS[lane.order];
        search.set_order(order, search.plan().starts.len() * num / den);
        search.set_budget(Some(budget));
        search.set_resume(self.resume[k].take());
        let mut halted = false;
        search.run_all(&mut |f: &Found| {
            let answer = (f.start, f.end, f.moves.to_vec());
            let go = visit(if lane.back {
                reverse::answer(answer)
            } else {
                answer
            });
            halted |= !go;
            go
        });
        if halted || !search.out_of_budget {
            self.stopped = search.stopped && !halted;
            return true;
        }
        self.resume[k] = search.take_resume();
        false
    }
}

/// Counts the solutions by searching in move order `ORDERS[order]` (0 is
/// the engine's) in turns of `budget` nodes, each going on from where the
/// last stopped; `None` if the limits stopped it. Every solution is
/// counted once (provided no polyomino fit outlasts a turn's budget, when
/// a node's endpoint may be judged again): a check of the resume points.
pub fn count_in_turns<const N: usize>(
    search: &mut Search<'_, N>,
    budget: u64,
    order: usize,
) -> Option<u64> {
    let mut count = 0;
    let (moves, (num, den)) = ORDERS[order];
    search.set_order(moves, search.plan().starts.len() * num / den);
    let mut resume = None;
    loop {
        search.set_budget(Some(budget.max(1)));
        search.set_resume(resume);
        search.run_all(&mut |_: &Found| {
            count += 1;
            true
        });
        if !search.out_of_budget {
            return (!search.stopped).then_some(count);
        }
        resume = search.take_resume();
    }
}

#[cfg(test)]
mod tests;

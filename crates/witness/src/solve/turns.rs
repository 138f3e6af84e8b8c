//! Interleaved runs: finding a first solution by searching in several move
//! orders by turns.
//!
//! How long a depth-first search takes to reach its first solution depends
//! a great deal on the order in which it tries moves: on the dev corpus's
//! slowest puzzles one order needs a thousand times the nodes of another,
//! and no order is best for all. So [`first_solution`] searches in a few
//! orders by turns, each turn with a budget of work ([`Schedule`]); a turn
//! that runs out of budget leaves a resume point ([`Resume`]), and the
//! order's next turn goes on from there, so no work is done twice. Each
//! round begins with the engine's order, which gets twice the budget of
//! the others, so most puzzles (solved within the first budget) get the
//! engine's first solution, and none costs more than about twice its
//! engine-order search.
//!
//! Exactness does not depend on the orders: an order whose turns end
//! without running out of budget has searched every path, so "no solution"
//! from it is proved. A budget counts search nodes and polyomino fit steps
//! ([`Search::set_budget`]).

use super::plan::Plan;
use super::search::{Found, Resume, Search};
use crate::model::Direction;

/// The budgets of the turns, in search nodes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The budget of a turn in the first round (the engine's order gets
    /// twice it).
    pub first: u64,
    /// By how much the budget grows from one round to the next.
    pub growth: u64,
    /// The largest budget of a turn (before the engine order's weight).
    pub most: u64,
}

impl Default for Schedule {
    /// 10,000 nodes, doubling, up to 640,000.
    fn default() -> Self {
        Schedule {
            first: 10_000,
            growth: 2,
            most: 640_000,
        }
    }
}

/// The move orders of a round, with the start each begins with (as a share
/// of the start list: 0 is the first start, 1/2 the middle one).
const ORDERS: [([Direction; 4], (usize, usize)); 3] = [
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

/// A solution as `(start, end, moves)`.
pub type Answer = (usize, usize, Vec<Direction>);

/// The state of a search by turns: each order's resume point and the
/// budget of the next round.
#[derive(Clone, Debug)]
pub struct Turns {
    resume: [Option<Resume>; ORDERS.len()],
    budget: u64,
    schedule: Schedule,
}

impl Turns {
    /// Before the first round.
    pub fn new(schedule: &Schedule) -> Turns {
        Turns {
            resume: Default::default(),
            budget: schedule.first.max(1),
            schedule: *schedule,
        }
    }

    /// The orders of the default rounds, by index: the engine's first.
    pub const ALL: [usize; ORDERS.len()] = [0, 1, 2];

    /// One round: a turn for each order of `orders` (indices into the
    /// round's orders, the engine's being 0). `Some` when a turn ended the
    /// search: with a solution, with a proof that there is none, or cut
    /// short by the limits (`search.stopped`); `None` when every turn ran
    /// out of budget.
    pub fn round<const N: usize>(
        &mut self,
        plan: &Plan,
        search: &mut Search<'_, N>,
        orders: &[usize],
    ) -> Option<Option<Answer>> {
        let starts = plan.starts.len();
        for &k in orders {
            let (order, (num, den)) = ORDERS[k];
            search.set_order(order, starts * num / den);
            let weight = if k == 0 { 2 } else { 1 };
            search.set_budget(Some(self.budget.saturating_mul(weight)));
            search.set_resume(self.resume[k].take());
            let mut found = None;
            search.run_all(&mut |f: &Found| {
                found = Some((f.start, f.end, f.moves.to_vec()));
                false
            });
            if found.is_some() || !search.out_of_budget {
                return Some(found);
            }
            self.resume[k] = search.take_resume();
        }
        self.budget = self
            .budget
            .saturating_mul(self.schedule.growth.max(1))
            .min(self.schedule.most.max(1));
        None
    }

    /// Rounds over `orders` until one ends the search (see [`round`](Self::round)).
    pub fn run<const N: usize>(
        &mut self,
        plan: &Plan,
        search: &mut Search<'_, N>,
        orders: &[usize],
    ) -> Option<Answer> {
        loop {
            if let Some(answer) = self.round(plan, search, orders) {
                return answer;
            }
        }
    }
}

/// Searches by `schedule` until an order finds a solution or proves there
/// is none, or the limits stop it; returns the solution as `(start, end,
/// moves)`. Afterwards `search.stopped` tells whether the limits cut it
/// short.
pub fn first_solution<const N: usize>(
    plan: &Plan,
    search: &mut Search<'_, N>,
    schedule: &Schedule,
) -> Option<Answer> {
    Turns::new(schedule).run(plan, search, &Turns::ALL)
}

/// Counts the solutions by searching in the engine's order in turns of
/// `budget` nodes, each going on from where the last stopped; `None` if
/// the limits stopped it. Every solution is counted once (provided no
/// polyomino fit outlasts a turn's budget, when a node's endpoint may be
/// judged again): a check of the resume points.
pub fn count_in_turns<const N: usize>(search: &mut Search<'_, N>, budget: u64) -> Option<u64> {
    let mut count = 0;
    search.set_order(Direction::ALL, 0);
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

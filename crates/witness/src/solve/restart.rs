//! Restarts: finding a first solution by short runs in several move orders.
//!
//! How long a depth-first search takes to reach its first solution depends
//! a great deal on the order in which it tries moves: on the dev corpus's
//! slowest puzzles one order needs a thousand times the nodes of another,
//! and no order is best for all. So [`first_solution`] runs the search in
//! a few orders in turn, each with a budget of work, and multiplies the
//! budget after each round ([`Schedule`]). Each round begins with the
//! engine's order, which gets twice the budget of the others, so most
//! puzzles (solved within the first budget) get the engine's first
//! solution.
//!
//! Exactness does not depend on the orders: a run that ends within its
//! budget has searched every path, so "no solution" from it is proved.
//! Once the budget passes the schedule's last, the engine's order runs
//! without a budget, which bounds what the restarts cost an unsolvable
//! panel. A budget counts search nodes and polyomino fit steps
//! ([`Search::set_budget`]).

use super::plan::Plan;
use super::search::{Found, Search};
use crate::model::Direction;

/// The budgets of the runs, in search nodes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The budget of the first round (the engine's order gets twice it).
    pub first: u64,
    /// By how much the budget grows from one round to the next (at least 2).
    pub growth: u64,
    /// The last round with a budget; then the engine's order runs to the
    /// end.
    pub last: u64,
}

impl Default for Schedule {
    /// 10,000 nodes, growing fourfold, up to 2,560,000 (about a second).
    fn default() -> Self {
        Schedule {
            first: 10_000,
            growth: 4,
            last: 2_560_000,
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

/// Runs `search` by `schedule` until it finds a solution, proves there is
/// none, or its limits stop it; returns the solution as `(start, end,
/// moves)`. Afterwards `search.stopped` tells whether the limits cut it
/// short.
pub fn first_solution<const N: usize>(
    plan: &Plan,
    search: &mut Search<'_, N>,
    schedule: &Schedule,
) -> Option<(usize, usize, Vec<Direction>)> {
    let starts = plan.starts.len();
    let mut budget = schedule.first.max(1);
    loop {
        let last = budget > schedule.last;
        for (k, &(order, (num, den))) in ORDERS.iter().enumerate() {
            search.set_order(order, starts * num / den);
            let weight = if k == 0 { 2 } else { 1 };
            search.set_budget((!last).then_some(budget.saturating_mul(weight)));
            let mut found = None;
            search.run_all(&mut |f: &Found| {
                found = Some((f.start, f.end, f.moves.to_vec()));
                false
            });
            if found.is_some() || !search.out_of_budget {
                // A solution, a proof that there is none, or the limits.
                return found;
            }
        }
        budget = budget.saturating_mul(schedule.growth.max(2));
    }
}

//! The answers of the solver's jobs: [`Solution`], [`Count`], [`Hint`]
//! (with the [`HintSize`] asked for) and how a search ended, [`Status`];
//! and the raw form of a solution the searches hand each other,
//! [`Answer`]. A leaf module: every search may name these without
//! depending on the others.

use super::natural::Natural;
use crate::model::Direction;
use crate::path::Path;

/// A solution as `(start, end, moves)`: start and end node indices of the
/// plan, and the moves.
pub type Answer = (usize, usize, Vec<Direction>);

/// How a search ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The search finished: its answer is exact.
    Complete,
    /// The time limit or a cancellation stopped it.
    Stopped,
}

/// The answer of [`solve`](super::solve).
#[derive(Clone, Debug)]
pub struct Solution {
    /// A solution, if one was found (see [`solve`](super::solve) for which).
    pub path: Option<Path>,
    /// `Complete` with no path means "no solution", proved by an exhaustive
    /// search.
    pub status: Status,
}

/// The answer of [`count`](super::count).
#[derive(Clone, Debug)]
pub struct Count {
    /// Solutions found, exact at any size.
    pub count: Natural,
    /// `Complete` when every path was searched and the limit not reached:
    /// then `count` is the exact number of solutions. `Stopped` otherwise:
    /// the count reached its limit (`count` is the limit: at least that
    /// many), or the [`Limits`](super::Limits) stopped it first (`count`
    /// is below the limit: that many were found).
    pub status: Status,
    /// The solutions the count found, when it had a limit of at most 64
    /// ([`FOUND_MAX_LIMIT`], as [`CountOptions::uniqueness`] has): as many
    /// as `count` (fewer only when the limits stopped a panel counted
    /// without drawing its lines), each a different solution as `count`
    /// tells them apart. Empty for other counts. They come from the same
    /// run as the count: a designer sees why a puzzle is not unique
    /// without a second search.
    ///
    /// [`CountOptions::uniqueness`]: super::CountOptions::uniqueness
    pub solutions: Vec<Path>,
}

/// The largest count limit for which [`Count::solutions`] holds the
/// solutions found.
pub const FOUND_MAX_LIMIT: u64 = 64;

impl Count {
    /// A count of `count` with `status`, and no solutions kept.
    pub fn new(count: Natural, status: Status) -> Count {
        Count {
            count,
            status,
            solutions: Vec::new(),
        }
    }
}

/// True when a count with `limit` keeps its solutions
/// ([`Count::solutions`]).
pub fn keeps_solutions(limit: Option<u64>) -> bool {
    limit.is_some_and(|l| (1..=FOUND_MAX_LIMIT).contains(&l))
}

/// How much of the solution a hint shows (by default a quarter of it).
#[derive(Copy, Clone, Debug)]
pub enum HintSize {
    /// This many segments (node to node; a half segment counts as one).
    Steps(usize),
    /// This share of the solution's segments, rounded up: none for 0,
    /// at least one for any more.
    Fraction(f64),
}

/// The answer of [`hint`](super::hint).
#[derive(Clone, Debug)]
pub struct Hint {
    /// The first part of a solution.
    pub path: Option<Path>,
    /// The whole solution it was taken from.
    pub solution: Option<Path>,
    /// How the search ended.
    pub status: Status,
}

impl Default for HintSize {
    fn default() -> Self {
        HintSize::Fraction(0.25)
    }
}

//! Solving: finding, counting and hinting solutions, exactly with respect to
//! the validator (spec README, decision 3).
//!
//! A solution is a legal path (spec §4.2, play-mode start rule) whose
//! verdict is valid. Two solutions differ when their paths differ: the start
//! chosen (in a symmetry puzzle, starting from the mirrored start is another
//! solution), the moves, or where the path stops.

pub mod brute;
pub mod limits;

pub use limits::Limits;

use crate::error::Result;
use crate::model::Puzzle;
use crate::path::Path;

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The search finished: its answer is exact.
    Complete,
    /// The time limit or a cancellation stopped it.
    Stopped,
}

/// The answer of [`solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// A solution, if one was found.
    pub path: Option<Path>,
    /// `Complete` when `path` is `None` means "no solution" (proved).
    pub status: Status,
}

/// The answer of [`count`].
#[derive(Clone, Debug)]
pub struct Count {
    /// Solutions found.
    pub count: u64,
    /// `Complete` when every path was searched and the limit not reached.
    pub status: Status,
}

/// Finds one solution.
pub fn solve(puzzle: &Puzzle, limits: &Limits) -> Result<Solution> {
    let mut found = None;
    let status = brute::enumerate(puzzle, limits, |p| {
        found = Some(p.clone());
        false
    })?;
    let status = if found.is_some() { Status::Complete } else { status };
    Ok(Solution { path: found, status })
}

/// Counts solutions, stopping at `limit` if given.
pub fn count(puzzle: &Puzzle, limit: Option<u64>, limits: &Limits) -> Result<Count> {
    let mut n = 0u64;
    let mut capped = false;
    let status = brute::enumerate(puzzle, limits, |_| {
        n += 1;
        if limit.is_some_and(|l| n >= l) {
            capped = true;
            return false;
        }
        true
    })?;
    let status = if capped { Status::Stopped } else { status };
    Ok(Count { count: n, status })
}

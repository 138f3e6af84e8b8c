//! Uniqueness: another solution than the line, found by the exact search
//! in its own order on one thread (so the answer, and its node budget,
//! are the same on every machine), and the final proof by the counter.

use crate::error::{Error, Result};
use crate::model::Puzzle;
use crate::path::Path;
use crate::solve::{count, for_each_solution, CountOptions, Limits, Status};

/// What the search for another solution found.
pub enum Other {
    /// Every path was searched: the line is the only solution.
    None,
    /// A solution that is not the line.
    Found(Path),
    /// The limits stopped the search first.
    Stopped,
}

/// A solution of `p` other than `line`, searched exhaustively within
/// `limits`.
pub fn other_solution(p: &Puzzle, line: &Path, limits: &Limits) -> Result<Other> {
    let mut found = None;
    let status = for_each_solution(p, limits, |s| {
        if s == line {
            true
        } else {
            found = Some(s.clone());
            false
        }
    })?;
    Ok(match (found, status) {
        (Some(s), _) => Other::Found(s),
        (None, Status::Complete) => Other::None,
        (None, Status::Stopped) => Other::Stopped,
    })
}

/// The proof: the counter ([`count`] with [`CountOptions::uniqueness`])
/// finds exactly one solution and says its search was complete.
/// [`Error::Stopped`] when the limits end it first.
pub fn prove(p: &Puzzle, limits: &Limits) -> Result<bool> {
    // Time and cancel only: a node budget is per thread, and how a count
    // on several threads spends it depends on the scheduling.
    let mut limits = limits.clone();
    limits.max_nodes = None;
    let c = count(p, &CountOptions::uniqueness().with_limits(limits))?;
    match c.status {
        Status::Complete => Ok(c.count == 1),
        Status::Stopped if c.count >= 2 => Ok(false),
        Status::Stopped => Err(Error::Stopped),
    }
}

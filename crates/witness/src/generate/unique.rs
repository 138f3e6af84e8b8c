//! Uniqueness: another solution than the line, and the final proof by
//! the counter.
//!
//! Another solution comes from the SAT engine ([`sat::other`]), which
//! finds the rare second line of a nearly unique panel far sooner than a
//! depth-first search does; on panels it does not take (subtractive
//! polyominoes), from the exact search in its own order on one thread.
//! Both are bounded by work, not time (the SAT engine by its terminator
//! checks, the search by its nodes), so the answer is the same on every
//! machine. Without the `sat` feature (the WebAssembly build) the exact
//! search does all of it.

#[cfg(feature = "sat")]
use crate::error::Error as E;
use crate::error::{Error, Result};
use crate::model::{Puzzle, SymbolKind};
use crate::path::Path;
#[cfg(feature = "sat")]
use crate::solve::sat;
#[cfg(feature = "sat")]
pub use crate::solve::sat::other::Rounds;

/// The SAT engine's rounds, which builds without the `sat` feature never
/// make ([`rounds`] is always `None` there).
#[cfg(not(feature = "sat"))]
pub struct Rounds<'a>(std::marker::PhantomData<&'a Puzzle>);
use crate::solve::{for_each_solution, Limits, Status};

/// What the search for another solution found.
pub enum Other {
    /// Every path was searched: the line is the only solution.
    None,
    /// A solution that is not the line.
    Found,
    /// The limits stopped the search first.
    Stopped,
}

/// What the search for other solutions found: [`others`].
pub enum Others {
    /// Every path was searched: the line is the only solution.
    None,
    /// Up to the number asked for of solutions that are not the line,
    /// at least one.
    Found(Vec<Path>),
    /// The limits stopped the search first.
    Stopped,
}

/// The node budget of the quick search that starts [`others`].
const QUICK_NODES: u64 = 20_000;

/// Search nodes of the budget per terminator check of the SAT engine (a
/// check comes every few conflicts).
#[cfg(feature = "sat")]
const NODES_PER_CHECK: u64 = 8;

/// Search nodes of the budget per solver call of the SAT engine (each
/// call checks the model with the validator and adds its cuts).
#[cfg(feature = "sat")]
const NODES_PER_CALL: u64 = 5_000;

/// A solution of `p` other than `line`, searched exhaustively within
/// `limits` ([`others`] asked for one).
pub fn other_solution(p: &Puzzle, line: &Path, limits: &Limits) -> Result<Other> {
    Ok(match others(p, line, limits, 1)? {
        Others::None => Other::None,
        Others::Found(_) => Other::Found,
        Others::Stopped => Other::Stopped,
    })
}

/// Up to `k` solutions of `p` other than `line`, searched exhaustively
/// within `limits` (its node budget bounds the SAT engine's work as well):
/// first the exact search with a small budget (a panel with many
/// solutions shows some at once), then the SAT engine (a nearly unique
/// panel's rare second line), or the search with the whole budget on
/// panels the SAT engine does not take.
pub fn others(p: &Puzzle, line: &Path, limits: &Limits, k: usize) -> Result<Others> {
    let max = limits.max_nodes.unwrap_or(u64::MAX);
    let mut quick = limits.clone();
    quick.max_nodes = Some(max.min(QUICK_NODES));
    match search_others(p, line, &quick, k)? {
        Others::Stopped if max > QUICK_NODES => {}
        done => return Ok(done),
    }
    if search_first(p) {
        return search_others(p, line, limits, k);
    }
    #[cfg(feature = "sat")]
    {
        let mut time = limits.clone();
        time.max_nodes = None;
        match sat::other::other_solutions(p, line, &time, sat_budget(max), k) {
            Ok((v, _)) if !v.is_empty() => return Ok(Others::Found(v)),
            Ok((_, Status::Complete)) => return Ok(Others::None),
            Ok((_, Status::Stopped)) => return Ok(Others::Stopped),
            Err(E::Unsupported(_)) => {}
            Err(e) => return Err(e),
        }
    }
    search_others(p, line, limits, k)
}

/// The SAT engine for the rounds of cuts on `p` (whose grid is
/// `grid`'s), or `None` on panels it does not take.
pub fn rounds<'a>(grid: &'a Puzzle, p: &Puzzle, limits: &Limits) -> Result<Option<Rounds<'a>>> {
    #[cfg(not(feature = "sat"))]
    {
        let _ = (grid, p, limits);
        Ok(None)
    }
    #[cfg(feature = "sat")]
    {
        if search_first(p) {
            return Ok(None);
        }
        match Rounds::new(grid, p, &time_only(limits)) {
            Ok(r) => Ok(Some(r)),
            Err(E::Unsupported(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// [`others`] with the SAT engine kept from the earlier rounds.
pub fn round(
    r: &mut Rounds<'_>,
    p: &Puzzle,
    line: &Path,
    limits: &Limits,
    k: usize,
) -> Result<Others> {
    #[cfg(not(feature = "sat"))]
    {
        let _ = r;
        others(p, line, limits, k)
    }
    #[cfg(feature = "sat")]
    {
        let max = limits.max_nodes.unwrap_or(u64::MAX);
        Ok(
            match r.others(p, line, &time_only(limits), sat_budget(max), k) {
                Ok((v, _)) if !v.is_empty() => Others::Found(v),
                Ok((_, Status::Complete)) => Others::None,
                Ok((_, Status::Stopped)) => Others::Stopped,
                Err(E::Unsupported(_)) => return others(p, line, limits, k),
                Err(e) => return Err(e),
            },
        )
    }
}

/// The SAT engine's budget for a node budget of `max`: terminator checks
/// and solver calls.
#[cfg(feature = "sat")]
fn sat_budget(max: u64) -> (u64, u64) {
    (
        (max / NODES_PER_CHECK).max(1),
        (max / NODES_PER_CALL).max(1),
    )
}

/// The most faces of a panel with polyominoes on which the search looks
/// for other solutions before the SAT engine does.
const SEARCH_FIRST_FACES: usize = 25;

/// The most faces of a panel on which the search goes first when its
/// pieces are many: one piece or more per [`FACES_PER_PIECE`] faces.
const SEARCH_FIRST_MANY_PIECES: usize = 49;

/// See [`SEARCH_FIRST_MANY_PIECES`].
const FACES_PER_PIECE: usize = 8;

/// True for panels whose other solutions the search finds sooner than
/// the SAT engine: polyominoes on panels of at most
/// [`SEARCH_FIRST_FACES`] faces, or of at most
/// [`SEARCH_FIRST_MANY_PIECES`] with many pieces (there the pieces'
/// placements weigh on the SAT engine, and each piece added as a cut
/// means a fresh encoding, more than the search's dead ends cost; on a
/// larger panel, or with few pieces, the search may pass millions of
/// nodes in a nearly unique panel where the SAT engine's region cuts
/// close it in a few dozen calls); and every panel with a subtractive
/// polyomino, whose region the SAT engine refutes one shape at a time.
fn search_first(p: &Puzzle) -> bool {
    let (mut pieces, mut subtractive) = (0, false);
    for (_, c) in p.cells() {
        match c.symbol.as_ref().map(|s| &s.kind) {
            Some(SymbolKind::Poly(_)) => pieces += 1,
            Some(SymbolKind::Ylop(_)) => (pieces, subtractive) = (pieces + 1, true),
            _ => {}
        }
    }
    let faces = p.face_width() * p.face_height();
    subtractive
        || (pieces > 0
            && (faces <= SEARCH_FIRST_FACES
                || (faces <= SEARCH_FIRST_MANY_PIECES && pieces * FACES_PER_PIECE >= faces)))
}

/// `limits` without its node budget.
#[cfg(feature = "sat")]
fn time_only(limits: &Limits) -> Limits {
    let mut time = limits.clone();
    time.max_nodes = None;
    time
}

/// [`others`] by the exact search alone.
pub fn search_others(p: &Puzzle, line: &Path, limits: &Limits, k: usize) -> Result<Others> {
    let mut found = Vec::new();
    let status = for_each_solution(p, limits, |s| {
        if s != line {
            found.push(s.clone());
        }
        found.len() < k.max(1)
    })?;
    Ok(match status {
        _ if !found.is_empty() => Others::Found(found),
        Status::Complete => Others::None,
        Status::Stopped => Others::Stopped,
    })
}

/// The proof that `line` is the only solution of `p` (`Some(false)` when
/// it is not, or is no solution at all), an exact count to 2 bounded by
/// work, never by the clock: the search counts first, on one thread,
/// with a small node budget (it settles small panels at once);
/// past it, a fresh SAT engine (none of the rounds' clauses) counts with
/// the budget of terminator checks and solver calls that the node budget
/// of `limits` gives, on panels it takes but small ones with pieces; else
/// the exact search on one thread with that node budget. `Ok(None)` when
/// the budget runs out first (the line is dropped, on every machine
/// alike); [`Error::Stopped`] when the time limit or a cancel ends it.
pub fn prove(p: &Puzzle, line: &Path, limits: &Limits) -> Result<Option<bool>> {
    // The SAT engine's count below looks only for solutions other than
    // `line`: that `line` is one is checked here, so that the proof stands
    // on its own.
    if !crate::check(p, line)?.valid {
        return Ok(Some(false));
    }
    let max = limits.max_nodes.unwrap_or(u64::MAX);
    let quick = limits.clone().with_max_nodes(max.min(QUICK_NODES));
    let mut n = 0;
    match for_each_solution(p, &quick, |_| {
        n += 1;
        n < 2
    }) {
        _ if n >= 2 => return Ok(Some(false)),
        Ok(Status::Complete) => return Ok(Some(n == 1)),
        // Past its budget: the next count goes on.
        Ok(Status::Stopped) | Err(Error::Stopped) => {}
        Err(e) => return Err(e),
    }
    let mut time = limits.clone();
    time.max_nodes = None;
    if time.expired() {
        return Err(Error::Stopped);
    }
    #[cfg(not(feature = "sat"))]
    let _ = line;
    #[cfg(feature = "sat")]
    if !search_first(p) {
        match sat::other::other_solutions(p, line, &time, sat_budget(max), 1) {
            Ok((v, _)) if !v.is_empty() => return Ok(Some(false)),
            Ok((_, Status::Complete)) => return Ok(Some(true)),
            Ok((_, Status::Stopped)) if time.expired() => return Err(Error::Stopped),
            Ok((_, Status::Stopped)) => return Ok(None),
            Err(E::Unsupported(_)) => {}
            Err(e) => return Err(e),
        }
    }
    let mut n = 0;
    let status = for_each_solution(p, limits, |_| {
        n += 1;
        n < 2
    })?;
    Ok(match status {
        _ if n >= 2 => Some(false),
        Status::Complete => Some(n == 1),
        Status::Stopped if time.expired() => return Err(Error::Stopped),
        Status::Stopped => None,
    })
}

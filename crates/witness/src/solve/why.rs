//! Why a panel has no solution ([`why`]): a minimal set of its symbols
//! (face symbols, elimination marks among them, and dots) that cannot all
//! be satisfied.
//!
//! The panel "with only a set of symbols" keeps its frame (size, pillar,
//! symmetry, removed slots), its starts, ends and gaps, and drops every
//! other symbol. A set is an answer when that panel has no solution and
//! dropping any one of its symbols gives a panel that has one.
//!
//! The set is found in two steps. First a candidate set: where the SAT
//! engine supports the panel and [`WhyOptions::engine`] is `sat`, or
//! `auto` on a panel without polyominoes (which `auto` leaves to the
//! search) whose first exact solve shows the deletion from every symbol
//! to be costly ([`CORE_WORTH`]),
//! an unsatisfiable core over one assumption literal per symbol
//! (`super::sat::SatRun::core`; the symbols that can fail when others
//! go, stars, marks and pieces, are not assumptions but always there, and
//! all join the candidates), checked by an exact solve; elsewhere every
//! symbol. Then deletion with exact solves (the engine of
//! [`WhyOptions::engine`], `auto` by default, so the SAT engine where it
//! supports the panel, the search elsewhere): starting from the
//! candidates, the symbols that can fail when others go one at a time
//! first, then chunks of half, a quarter, … of the others, and then each
//! symbol in turn are dropped for good when the panel stays without a
//! solution without them. The rules are not monotone (a second star or a
//! mark can repair a region, so dropping a symbol can take a solution
//! away), so the passes repeat until one drops nothing: then every symbol
//! left was tried against the final set, and the set is minimal in the
//! sense above. A set found when the limits stopped a solve may not be
//! minimal ([`Why::status`] says so); a solve stopped is taken as "has a
//! solution", so the symbol stays and the set still has no solution.

use super::{Engine, Limits, SolveOptions, Status};
use crate::error::{Error, Result};
use crate::model::{Dot, Pos, Puzzle, SlotKind, SymbolKind};

/// How [`why`] solves: its limits (for all of its solves together) and
/// engine (which also says whether to seek the SAT engine's core: `sat`
/// always, `auto` when it looks worth it, `search` never, so that the
/// set is found by deletion alone).
#[derive(Clone, Debug, Default)]
pub struct WhyOptions {
    /// When to give up: a deadline, a cancel flag.
    pub limits: Limits,
    /// Which engine answers each solve.
    pub engine: Engine,
}

/// The answer of [`why`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Why {
    /// The slots of the symbols that cannot all be satisfied (face
    /// symbols and dots), in slot order.
    pub symbols: Vec<Pos>,
    /// True when the starts, ends and gaps alone allow no line (then
    /// `symbols` is empty): no line of the panel reaches an end at all.
    pub no_line: bool,
    /// `Complete`: the set is minimal. `Stopped`: the limits stopped a
    /// solve, and the set (which has no solution) may not be minimal.
    pub status: Status,
}

/// The slots that hold a symbol [`why`] may name: a face symbol, or a dot.
pub fn symbol_slots(puzzle: &Puzzle) -> Vec<Pos> {
    puzzle
        .positions()
        .filter(|&q| {
            let c = puzzle.cell(q);
            match q.kind() {
                SlotKind::Face => c.symbol.is_some(),
                _ => c.dot != Dot::None,
            }
        })
        .collect()
}

/// `puzzle` with only the symbols at `keep` (of `all`, its symbol slots).
pub fn with_only(puzzle: &Puzzle, all: &[Pos], keep: &[Pos]) -> Puzzle {
    let mut p = puzzle.clone();
    for &q in all {
        if !keep.contains(&q) {
            let c = p.cell_mut(q);
            c.symbol = None;
            c.dot = Dot::None;
        }
    }
    p
}

/// The symbols that can fail when others go (a star loses its partner, a
/// mark what it erases, a piece its subtractive piece): face symbols
/// other than squares and triangles.
fn fragile(puzzle: &Puzzle, q: Pos) -> bool {
    puzzle
        .cell(q)
        .symbol
        .as_ref()
        .is_some_and(|s| !matches!(s.kind, SymbolKind::Square | SymbolKind::Triangle(_)))
}

/// What the first solve of [`why`] found.
enum First {
    /// The panel has no solution; these symbols (of its symbol slots) are
    /// the candidates.
    Candidates(Vec<Pos>),
    /// It has a solution.
    Solvable,
    /// The limits stopped it.
    Stopped,
    /// The SAT engine does not take the panel, or the options ask for the
    /// search: no core.
    NoCore,
}

/// The first solve with the SAT engine's selectors: the panel's symbols in
/// an unsatisfiable core, and every fragile one (those are always there,
/// not assumptions), in the order of `all`.
#[cfg(feature = "sat")]
fn core_candidates(puzzle: &Puzzle, all: &[Pos], options: &WhyOptions) -> Result<First> {
    use super::sat::{Core, SatRun};
    let mut run = match SatRun::with_selectors(puzzle, &options.limits) {
        Ok(run) => run,
        // A panel the SAT engine does not take, or whose clauses pass its
        // ceiling: deletion alone, as without a core.
        Err(Error::Unsupported(_) | Error::Size(_)) => return Ok(First::NoCore),
        Err(e) => return Err(e),
    };
    let core = match run.core(|q| fragile(puzzle, q), &options.limits) {
        Err(Error::Size(_)) => return Ok(First::NoCore),
        c => c?,
    };
    Ok(match core {
        Core::Found(_) => First::Solvable,
        Core::Stopped => First::Stopped,
        Core::Core(core) => First::Candidates(
            all.iter()
                .copied()
                .filter(|&q| fragile(puzzle, q) || core.binary_search(&q).is_ok())
                .collect(),
        ),
    })
}

/// Without the SAT engine: no core.
#[cfg(not(feature = "sat"))]
fn core_candidates(_: &Puzzle, _: &[Pos], _: &WhyOptions) -> Result<First> {
    Ok(First::NoCore)
}

/// When [`why_traced`] starts the deletion from the SAT engine's core.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UseCore {
    /// Never: deletion from every symbol.
    Never,
    /// As [`why`] does: with the `sat` engine always; with `auto` on a
    /// panel without polyominoes (which `auto` leaves to the search) when
    /// the deletion from every symbol looks costly ([`CORE_WORTH`]); with
    /// `search` never.
    Worth,
    /// Whatever the engine, where the SAT engine takes the panel.
    Always,
}

/// With `auto`, the core is sought when the first exact solve (which
/// proves the panel unsolvable) took this long times the number of
/// symbols, or more: the deletion from every symbol costs some dozens of
/// such solves on panels with tens of symbols, the core one SAT solve,
/// which is slower than the search on easy panels (tens of milliseconds
/// on a large one). The core then gets half that estimate (the first
/// solve's time times the number of symbols): past it, the deletion
/// starts from every symbol.
pub const CORE_WORTH: std::time::Duration = std::time::Duration::from_millis(20);

/// What [`why_traced`] did, for benchmarks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WhyTrace {
    /// The symbols of the panel.
    pub symbols: usize,
    /// The candidates the deletion started from: the core's symbols and
    /// the fragile ones, or every symbol without a core.
    pub candidates: usize,
    /// The core came from the SAT engine.
    pub core: bool,
    /// Exact solves (the first one included when there was no core).
    pub solves: u32,
    /// The time the core took (zero without one).
    pub core_time: std::time::Duration,
}

/// A minimal set of `puzzle`'s symbols that cannot all be satisfied (see
/// the module's documentation); [`Why::no_line`] when the panel has no
/// line even without symbols. Fails with [`Error::Options`] when the
/// panel has a solution, and with [`Error::Stopped`] when the limits stop
/// the first solve, which must prove that it has none.
pub fn why(puzzle: &Puzzle, options: &WhyOptions) -> Result<Why> {
    Ok(why_traced(puzzle, options, UseCore::Worth)?.0)
}

/// [`why`], and what it did; `core` says when to seek the core.
pub fn why_traced(puzzle: &Puzzle, options: &WhyOptions, core: UseCore) -> Result<(Why, WhyTrace)> {
    let all = symbol_slots(puzzle);
    let mut trace = WhyTrace {
        symbols: all.len(),
        ..WhyTrace::default()
    };
    let solves = std::cell::Cell::new(0u32);
    // `Some(true)`: no solution; `Some(false)`: a solution; `None`: stopped.
    let unsolvable = |keep: &[Pos]| -> Result<Option<bool>> {
        solves.set(solves.get() + 1);
        let p = with_only(puzzle, &all, keep);
        let s = super::solve(
            &p,
            &SolveOptions::default()
                .with_limits(options.limits.clone())
                .with_engine(options.engine),
        )?;
        Ok(match (&s.path, s.status) {
            (Some(_), _) => Some(false),
            (None, Status::Complete) => Some(true),
            (None, Status::Stopped) => None,
        })
    };
    let pieces = all.iter().any(|&q| {
        puzzle
            .cell(q)
            .symbol
            .as_ref()
            .is_some_and(|s| matches!(s.kind, SymbolKind::Poly(_) | SymbolKind::Ylop(_)))
    });
    let core = match (core, options.engine) {
        _ if !cfg!(feature = "sat") => UseCore::Never,
        (UseCore::Never, _) | (UseCore::Worth, Engine::Search) => UseCore::Never,
        (UseCore::Always, _) | (UseCore::Worth, Engine::Sat) => UseCore::Always,
        (UseCore::Worth, Engine::Auto) if pieces => UseCore::Never,
        (UseCore::Worth, Engine::Auto) => UseCore::Worth,
    };
    let first = if core == UseCore::Always {
        let t = std::time::Instant::now();
        let first = core_candidates(puzzle, &all, options)?;
        trace.core_time = t.elapsed();
        first
    } else {
        First::NoCore
    };
    trace.core = !matches!(first, First::NoCore);
    let first = match first {
        First::NoCore => {
            let clock = (core == UseCore::Worth).then(std::time::Instant::now);
            match unsolvable(&all)? {
                Some(true) => {
                    let estimate = clock.map(|t| t.elapsed() * all.len() as u32);
                    let sought = estimate.filter(|&e| e >= CORE_WORTH).map(|e| {
                        let mut limits = options.limits.clone();
                        let t = std::time::Instant::now();
                        let end = t + e / 2;
                        limits.deadline = Some(limits.deadline.map_or(end, |d| d.min(end)));
                        let found =
                            core_candidates(puzzle, &all, &options.clone().with_limits(limits));
                        trace.core_time = t.elapsed();
                        found
                    });
                    match sought.transpose()? {
                        Some(First::Candidates(c)) => {
                            trace.core = true;
                            First::Candidates(c)
                        }
                        // Stopped (past its share of the time, or by the
                        // limits, which the deletion then meets), or
                        // (against the proof just made) a solution:
                        // every symbol is the candidate.
                        _ => First::Candidates(all.clone()),
                    }
                }
                Some(false) => First::Solvable,
                None => First::Stopped,
            }
        }
        first => first,
    };
    let candidates = match first {
        First::Candidates(c) => {
            trace.candidates = c.len();
            c
        }
        First::Solvable => {
            return Err(Error::Options(
                "the panel has a solution: no set of symbols to name".into(),
            ))
        }
        First::Stopped | First::NoCore => return Err(Error::Stopped),
    };
    let mut stopped = false;
    // A panel without symbols that has no solution, or whose starts, ends
    // and gaps alone allow no line, has no set to name.
    let no_line = all.is_empty()
        || match unsolvable(&[])? {
            Some(no) => no,
            None => {
                stopped = true;
                false
            }
        };
    if no_line {
        trace.solves = solves.get();
        return Ok((
            Why {
                symbols: Vec::new(),
                no_line: true,
                status: Status::Complete,
            },
            trace,
        ));
    }
    // The candidates of a core are checked by an exact solve: the core
    // rests on the guards of the SAT engine's clauses, the exact solve
    // does not. Should it find a solution, every symbol is the candidate.
    let mut keep = candidates;
    if keep.len() < all.len() {
        match unsolvable(&keep)? {
            Some(true) => {}
            Some(false) => {
                debug_assert!(false, "a core whose symbols allow a solution: {keep:?}");
                keep = all.clone();
            }
            None => {
                stopped = true;
                keep = all.clone();
            }
        }
    }
    // A drop that leaves the panel without a solution is kept.
    let mut try_drop = |keep: &mut Vec<Pos>, from: usize, to: usize| -> Result<bool> {
        let fewer: Vec<Pos> = keep[..from].iter().chain(&keep[to..]).copied().collect();
        Ok(match unsolvable(&fewer)? {
            Some(true) => {
                *keep = fewer;
                true
            }
            Some(false) => false,
            None => {
                stopped = true;
                false
            }
        })
    };
    // The symbols that can fail when others go (a star loses its partner,
    // a mark what it erases, a piece its subtractive piece) are tried
    // first, one at a time, while every other candidate is there: so the
    // set does not end up as such a symbol left alone by the drops.
    let fragile = |q: &Pos| fragile(puzzle, *q);
    keep.sort_by_key(|q| !fragile(q));
    let mut k = 0;
    while k < keep.len() && fragile(&keep[k]) {
        if !try_drop(&mut keep, k, k + 1)? {
            k += 1;
        }
    }
    // Then the others by chunks, halving: a panel whose set is a few of
    // many symbols loses most of the others a chunk at a time.
    let first = k;
    let mut chunk = (keep.len() - first) / 2;
    while chunk >= 2 && !options.limits.expired() {
        let mut k = first;
        while k < keep.len() {
            let end = (k + chunk).min(keep.len());
            if !try_drop(&mut keep, k, end)? {
                k = end;
            }
        }
        chunk /= 2;
    }
    // Then one at a time, until a pass drops nothing.
    loop {
        let mut dropped = false;
        let mut k = 0;
        while k < keep.len() {
            if try_drop(&mut keep, k, k + 1)? {
                dropped = true;
            } else {
                k += 1;
            }
        }
        if !dropped {
            break;
        }
        if options.limits.expired() {
            // The pass dropped a symbol and no later pass checked the
            // others against the smaller set: not proved minimal.
            stopped = true;
            break;
        }
    }
    keep.sort();
    trace.solves = solves.get();
    Ok((
        Why {
            symbols: keep,
            no_line: false,
            status: if stopped {
                Status::Stopped
            } else {
                Status::Complete
            },
        },
        trace,
    ))
}

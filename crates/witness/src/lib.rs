//! # witness
//!
//! Model, formats, validator and solver for the line puzzles of *The
//! Witness*, following the rules of the witnesspuzzles.com engine in play
//! mode (`docs/rules.md` in the repository states them).
//!
//! ## Principal types
//! - [`Puzzle`]: the slot grid (nodes, edges, faces), with its symmetry,
//!   pillar wrap and settings. Faces hold [`model::Symbol`]s; nodes and
//!   edges hold starts, ends, dots and gaps. [`model`] has the rest of the
//!   vocabulary, to build or inspect a puzzle.
//! - [`Path`]: a start and single-slot moves, in the site's format, a move
//!   string (`0,6:R6U4`) or a list of coordinates.
//! - [`Verdict`]: whether a path solves a puzzle, naming every failing
//!   element ([`Failure`], [`Reason`]).
//! - [`Why`]: for a panel with no solution, a minimal set of its symbols
//!   that cannot all be satisfied ([`why()`]).
//! - [`Solution`], [`Count`], [`Hint`]: the solver's answers, each with the
//!   [`Status`] that says whether the search was exhaustive or stopped by
//!   its [`Limits`]. A count is a [`Natural`], exact at any size.
//! - [`Format`] and [`Error`]: the input formats and what can go wrong.
//!
//! ## How data flows
//! text → [`read_puzzle`] (or a module of [`formats`]) → [`Puzzle`] →
//! [`check`] a [`Path`] (a [`Verdict`]), or [`solve()`], [`count`],
//! [`hint`], [`why()`] → [`render`] as SVG or for a terminal, or
//! [`formats::write_puzzle`] back to text. [`generate()`] makes puzzles
//! with exactly one solution ([`GenerateOptions`]).
//!
//! Each job is one function taking an options value
//! ([`SolveOptions`], [`CountOptions`], [`HintOptions`], [`WhyOptions`]),
//! built with `Default` and its `with_*` methods, each holding the
//! [`Limits`] that bound the search: a deadline (fixed when the
//! [`Limits`] is made, so a clone given to a later job has what is left
//! of it), a node budget, a cancel flag another thread may set
//! ([`Limits::with_cancel`]). Jobs run on the calling thread and, for
//! their parallel parts, on rayon's global pool (install a pool of your
//! own to bound them). To check many paths on one puzzle, compile it
//! once with [`Rules::new`].
//!
//! ## Examples
//!
//! Read a puzzle (here witnesspuzzles.com JSON; [`read_puzzle`] detects the
//! format) and check two paths:
//! ```
//! use witness::{check, read_puzzle, Path};
//!
//! // A 1x1 panel: start bottom-left, end top-right, a black dot on the top edge.
//! let puzzle = read_puzzle(r#"{"grid":[
//!     [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
//!     [{"type":"line","dot":1},null,{"type":"line"}],
//!     [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#, None).unwrap();
//! let up_then_right = Path::parse("0,2:U2R2").unwrap();
//! assert!(check(&puzzle, &up_then_right).unwrap().valid);
//! let right_then_up = Path::parse("0,2:R2U2").unwrap();
//! let verdict = check(&puzzle, &right_then_up).unwrap();
//! assert!(!verdict.valid);
//! assert_eq!(verdict.invalid.len(), 1); // the dot
//! ```
//!
//! Solve, count (or ask whether the solution is unique) and hint:
//! ```
//! use std::time::Duration;
//! use witness::{count, hint, read_puzzle, solve, CountOptions, HintOptions, HintSize};
//! use witness::{Limits, SolveOptions, Status};
//!
//! # let json = r#"{"grid":[
//! #     [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
//! #     [{"type":"line","dot":1},null,{"type":"line"}],
//! #     [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#;
//! let puzzle = read_puzzle(json, None).unwrap();
//! let limits = Limits::timeout(Duration::from_secs(10));
//! let solution = solve(&puzzle, &SolveOptions::default().with_limits(limits.clone())).unwrap();
//! assert_eq!(solution.path.unwrap().to_moves(), "0,2:U2R2");
//! assert_eq!(solution.status, Status::Complete);
//!
//! let all = count(&puzzle, &CountOptions::default()).unwrap();
//! assert_eq!(all.count, 1);
//! assert_eq!(all.status, Status::Complete);
//! let unique = count(&puzzle, &CountOptions::uniqueness().with_limits(limits)).unwrap();
//! // Unique: one solution, and the search went through (`Stopped` would
//! // mean the limit of 2 was reached, or time ran out first).
//! assert_eq!(unique.count, 1);
//! assert_eq!(unique.status, Status::Complete);
//!
//! let first_step = hint(&puzzle, &HintOptions::default().with_size(HintSize::Steps(1))).unwrap();
//! assert_eq!(first_step.path.unwrap().to_moves(), "0,2:U2");
//! ```
//!
//! Why a panel has no solution, and cancelling a job from another thread:
//! ```
//! use std::sync::atomic::{AtomicBool, Ordering};
//! use std::sync::Arc;
//! use witness::model::{Direction, Dot, Pos};
//! use witness::{count, read_puzzle, solve, why, CountOptions, Limits, SolveOptions, Status};
//! use witness::WhyOptions;
//!
//! // Dots on the left and bottom edges of a 1x1 panel from the bottom
//! // left to the top right: each of its two lines misses one.
//! let puzzle = read_puzzle("witness 1x1\n+ - E\no . |\nS o +\n", None).unwrap();
//! let none = solve(&puzzle, &SolveOptions::default()).unwrap();
//! assert!(none.path.is_none() && none.status == Status::Complete);
//! let w = why(&puzzle, &WhyOptions::default()).unwrap();
//! assert_eq!(w.symbols.len(), 2);
//!
//! // An 8x8 panel corner to corner with a dot in the middle has far too
//! // many solutions to count; a flag set from another thread stops it.
//! let mut big = witness::Puzzle::new(8, 8, false).unwrap();
//! big.cell_mut(Pos::new(0, 16)).start = true;
//! big.cell_mut(Pos::new(16, 0)).end = Some(Direction::Right);
//! big.cell_mut(Pos::new(8, 8)).dot = Dot::Black;
//! let stop = Arc::new(AtomicBool::new(false));
//! let limits = Limits::none().with_cancel(stop.clone());
//! let flag = stop.clone();
//! std::thread::spawn(move || {
//!     std::thread::sleep(std::time::Duration::from_millis(50));
//!     flag.store(true, Ordering::Relaxed);
//! });
//! let c = count(&big, &CountOptions::default().with_limits(limits)).unwrap();
//! assert_eq!(c.status, Status::Stopped); // `c.count` solutions found so far
//! ```
//!
//! Render as SVG, or for a terminal:
//! ```
//! use witness::{read_puzzle, render, Path};
//!
//! # let json = r#"{"grid":[
//! #     [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
//! #     [{"type":"line","dot":1},null,{"type":"line"}],
//! #     [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#;
//! let puzzle = read_puzzle(json, None).unwrap();
//! let path = Path::parse("0,2:U2R2").unwrap();
//! let svg = render::svg(&puzzle, Some(&path), &render::SvgOptions::default());
//! assert!(svg.starts_with("<svg"));
//! let text = render::terminal(&puzzle, Some(&path), false);
//! assert!(!text.is_empty());
//! ```

#![deny(missing_docs)]
// The grid code walks several per-slot tables in step; an index loop says so
// more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

mod error;
pub mod formats;
pub mod generate;
pub mod model;
mod path;
pub mod render;
pub mod request;
mod rules;
mod solve;
mod stack;

pub use error::{Error, Result};
pub use formats::{read_puzzle, Format};
pub use generate::{generate, generate_nth, GenerateOptions, Generated};
pub use model::Puzzle;
pub use path::Path;
pub use rules::{
    validate as check, validate_within as check_within, Failure, Reason, Rules, Verdict,
};
// The function `why`, not its module (which `internals` has).
pub use solve::why::{why, Why, WhyOptions};
pub use solve::{
    count, hint, solve, Count, CountOptions, Engine, Hint, HintOptions, HintSize, Limits, Natural,
    Solution, SolveOptions, Status,
};

/// The library's insides, for the command line tool's benchmarks, the
/// tests and the examples: the search, its plan, the reference
/// enumeration, the search lanes, the local search and the validator's
/// tables. No stable API: use the crate root's items instead.
#[doc(hidden)]
pub mod internals {
    pub use crate::path::{Line, Trace};
    pub use crate::rules::{
        board, marks, memo, polyfit, regions, scratch, symbols, RegionMemo, Workspace,
    };
    /// The SAT engine's insides: the encoding, the cuts, the run.
    #[cfg(feature = "sat")]
    pub use crate::solve::sat;
    /// Why no solution: the candidates, the deletion, what they did.
    pub use crate::solve::why;
    /// The generator's steps, for its tests: the frame of starts and ends
    /// drawn, the frame around a given line, and a puzzle's symbols
    /// taken away one at a time.
    pub mod generate {
        pub use crate::generate::frame::{around, draw, Framed};
        pub use crate::generate::minimal::{symbols, without};
    }
    pub use crate::solve::{
        answer, bits, brute, count_in_turns, count_plan, count_plan_with, distinct_lanes, faces,
        for_each_found, for_each_solution, frontier, hash, lanes, limits, local, mark_cases,
        nearby, plan, portfolio, race, reverse, search, solve_plan, solve_plan_stats,
        solve_plan_threads, solve_plan_threads_with, solve_plan_with, Schedule, LANE_COUNT_AFTER,
        LANE_COUNT_MAX_LIMIT,
    };
    #[cfg(feature = "sat")]
    pub use crate::solve::{count_plan_pieces, solve_plan_cube_turns};
}

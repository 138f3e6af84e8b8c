//! # witness
//!
//! Model, formats, validator and solver for the line puzzles of *The
//! Witness*, following the rules of the witnesspuzzles.com engine in play
//! mode.
//!
//! ## Principal types
//! - [`model::Puzzle`]: the slot grid (nodes, edges, faces), with its
//!   symmetry, pillar wrap and settings. Faces hold [`model::Symbol`]s;
//!   nodes and edges hold starts, ends, dots and gaps.
//! - [`path::Path`]: a start and single-slot moves, in the site's format,
//!   a move string (`0,6:R6U4`) or a list of coordinates.
//! - [`rules::Rules`]: a puzzle compiled for validation; its
//!   [`check`](rules::Rules::check) gives a [`rules::Verdict`] naming every
//!   failing element.
//!
//! ## How data flows
//! text → [`formats`] → [`model::Puzzle`] → [`path::Path::trace`] (legality)
//! → [`rules::Rules`] (verdict).
//!
//! ## Example
//! ```
//! use witness::{formats::wpjson, path::Path, rules};
//!
//! // A 1x1 panel: start bottom-left, end top-right, a black dot on the top edge.
//! let puzzle = wpjson::parse(r#"{"grid":[
//!     [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
//!     [{"type":"line","dot":1},null,{"type":"line"}],
//!     [{"type":"line","end":"right"},{"type":"line"},{"type":"line"}]]}"#).unwrap();
//! let up_then_right = Path::parse("0,2:U2R2").unwrap();
//! assert!(rules::validate(&puzzle, &up_then_right).unwrap().valid);
//! let right_then_up = Path::parse("0,2:R2U2").unwrap();
//! assert!(!rules::validate(&puzzle, &right_then_up).unwrap().valid);
//! ```

#![warn(missing_docs)]
// The grid code walks several per-slot tables in step; an index loop says so
// more plainly than zipped iterators.
#![allow(clippy::needless_range_loop)]

pub mod error;
pub mod formats;
pub mod model;
pub mod path;
pub mod render;
pub mod rules;
pub mod solve;
mod stack;

pub use error::{Error, Result};

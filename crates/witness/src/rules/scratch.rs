//! The buffers the symbol rules ([`super::symbols`]) and the elimination
//! marks ([`super::marks`]) share, and the result of one region's check:
//! a leaf module, so that neither of the two depends on the other's
//! internals.

use std::collections::HashMap;

use super::polyfit::{FitLimits, FitScratch};

/// Reusable scratch space for checks.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub(super) color_count: Vec<u16>,
    pub(super) squares: Vec<u32>,
    pub(super) stars: Vec<u32>,
    pub(super) piece_counts: Vec<u32>,
    pub(super) fit: FitScratch,
    pub(super) cache: FitCache,
    /// The elimination procedure's buffers.
    pub(super) neg: NegScratch,
}

impl Scratch {
    /// Sets when polyomino fits must give up. A fit that gives up answers
    /// "fits" and raises the flag read by [`Scratch::fit_interrupted`].
    pub fn set_fit_limits(&mut self, limits: FitLimits) {
        self.fit.limits = limits;
    }

    /// True when a polyomino fit gave up since the last
    /// [`Scratch::clear_fit_interrupted`]: answers since then are guesses.
    pub fn fit_interrupted(&self) -> bool {
        self.fit.interrupted()
    }

    /// Forgets an earlier interruption.
    pub fn clear_fit_interrupted(&mut self) {
        self.fit.clear_interrupted();
    }

    /// Raises the interruption flag again (see [`Scratch::fit_interrupted`]).
    pub fn raise_fit_interrupted(&mut self) {
        self.fit.raise_interrupted();
    }

    /// Lets each polyomino fit give up after `n` steps (`None`: never).
    pub fn set_fit_step_cap(&mut self, n: Option<u64>) {
        self.fit.limits.max_steps = n;
    }

    /// How many search steps all polyomino fits so far took.
    pub fn fit_steps(&self) -> u64 {
        self.fit.total_steps()
    }
}

/// Answers of earlier fits on one board, keyed exactly by the piece counts
/// and (when the pieces must tile the region) the region's slot set.
#[derive(Clone, Debug, Default)]
pub(super) struct FitCache {
    /// The [`PolyTables::id`](super::symbols::PolyTables::id) the answers belong to.
    pub(super) table: u64,
    /// Scratch for the key being looked up.
    pub(super) key: Vec<u64>,
    pub(super) map: HashMap<Box<[u64]>, bool>,
}

/// The result of one `regionCheck`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckResult {
    /// Errors only erasing the element itself can fix: uncovered dots and
    /// wrong triangles in region order, then lonely stars.
    pub very: Vec<u32>,
    /// Errors erasing another element could fix: squares, then crowded
    /// stars, then polyominoes.
    pub soft: Vec<u32>,
}

impl CheckResult {
    /// True when nothing failed.
    pub fn is_clean(&self) -> bool {
        self.very.is_empty() && self.soft.is_empty()
    }
}

/// Buffers the elimination procedure reuses between regions, so that
/// deciding a region (without the report) allocates nothing once warm.
#[derive(Clone, Debug, Default)]
pub struct NegScratch {
    pub(super) init: CheckResult,
    pub(super) negs_left: Vec<u32>,
    pub(super) very: Vec<u32>,
    pub(super) soft: Vec<u32>,
    pub(super) forced: Vec<(u32, u32)>,
    pub(super) good: Vec<usize>,
    pub(super) dp: DpScratch,
}

/// Buffers of `marks::find_good_set`.
#[derive(Clone, Debug, Default)]
pub(super) struct DpScratch {
    pub(super) polys: Vec<usize>,
    pub(super) poly_area: Vec<i64>,
    pub(super) base0: Vec<i32>,
    pub(super) poly_color: Vec<Option<usize>>,
    pub(super) base: Vec<i32>,
    pub(super) stars: Vec<i32>,
    pub(super) sq: Vec<i32>,
    pub(super) st: Vec<i32>,
    /// The DP's layers, one after another.
    pub(super) layers: Vec<Option<(usize, i32, i32)>>,
}

//! Steering toward a difficulty band: a unique panel whose
//! [`difficulty`](super::difficulty) lies below the band loses symbols
//! (each removal kept only when the line stays the only solution: fewer
//! symbols, more dead ends), one above it gains symbols the line
//! satisfies (each kept only when the line stays the only solution: more
//! symbols, fewer dead ends), until the measure enters the band or no
//! step is left. Every step is drawn from the puzzle's own stream and
//! bounded by node budgets, as the rest of the generator.

use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

use super::difficulty::difficulty;
use super::minimal::{symbols, without};
use super::place::{accepts, propose, Ctx, Kind};
use super::unique::{other_solution, Other};
use crate::error::Result;
use crate::model::Puzzle;
use crate::path::{Path, Trace};
use crate::solve::Limits;

/// The most symbols added or removed in steering one panel.
const MAX_STEPS: usize = 24;

/// Steers `p` (unique, of difficulty `d`) toward `lo..=hi`: the panel and
/// its difficulty after the steps taken. `kinds` are the kinds it may add;
/// with `only_remove` (a minimal panel) it never adds. `Ok(None)` when a
/// search's budget stopped it.
#[allow(clippy::too_many_arguments)]
pub fn steer(
    mut p: Puzzle,
    mut d: f64,
    (lo, hi): (f64, f64),
    (line, trace): (&Path, &Trace),
    cx: &Ctx<'_>,
    kinds: &[Kind],
    only_remove: bool,
    limits: &Limits,
    rng: &mut ChaCha8Rng,
) -> Result<Option<(Puzzle, f64)>> {
    let mut steps = 0;
    while d < lo && steps < MAX_STEPS {
        let mut order = symbols(&p);
        order.shuffle(rng);
        let fewer = order.into_iter().map(|q| without(&p, q));
        match first_unique(fewer, (line, trace), limits)? {
            Step::Moved(q) => p = q,
            Step::Stuck => break,
            Step::Stopped => return Ok(None),
        }
        steps += 1;
        d = difficulty(&p, limits)?;
    }
    while d > hi && !only_remove && !kinds.is_empty() && steps < MAX_STEPS {
        // Drawn lazily: the stream advances only as far as the first
        // proposal kept.
        let more = (0..12).filter_map(|_| {
            let kind = *kinds.choose(rng).expect("a kind");
            propose(&p, kind, cx, 1, rng)
        });
        match first_unique(more, (line, trace), limits)? {
            Step::Moved(q) => p = q,
            Step::Stuck => break,
            Step::Stopped => return Ok(None),
        }
        steps += 1;
        d = difficulty(&p, limits)?;
    }
    Ok(Some((p, d)))
}

/// What one steering step did.
enum Step {
    /// The panel it moved to.
    Moved(Puzzle),
    /// No candidate kept the line the only solution.
    Stuck,
    /// A search's budget stopped it.
    Stopped,
}

/// The first of `candidates` that the line satisfies and that keeps it the
/// only solution.
fn first_unique(
    candidates: impl Iterator<Item = Puzzle>,
    (line, trace): (&Path, &Trace),
    limits: &Limits,
) -> Result<Step> {
    for candidate in candidates {
        if !accepts(&candidate, trace) {
            continue;
        }
        match other_solution(&candidate, line, limits)? {
            Other::None => return Ok(Step::Moved(candidate)),
            Other::Found => {}
            Other::Stopped => return Ok(Step::Stopped),
        }
    }
    Ok(Step::Stuck)
}

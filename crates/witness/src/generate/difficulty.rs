//! The difficulty of a generated puzzle: how much work the exact search
//! does to find its solution.
//!
//! The measure is `log2(1 + N)`, rounded to two decimals, where `N` is the
//! number of search nodes the solver visits on one thread in its fixed
//! order of turns (`solve_plan_with`, its local search on marked panels
//! joining as beside a helper thread, after 300,000 nodes, not as
//! the one-thread solve's stand-in for one) before it returns the solution. It
//! counts nodes, not time, so it is the same on every machine; 0 is a
//! panel the search walks straight through, each point more is twice the
//! work. It measures the search's effort, which follows the number of
//! dead ends a player meets, not how clever a deduction must be. It
//! saturates at the node budget: with the default 2,000,000 nodes a
//! search that needs more reads 20.93.

use crate::error::{Error, Result};
use crate::model::Puzzle;
use crate::solve::lanes::Schedule;
use crate::solve::plan::Plan;
use crate::solve::{solve_plan_with, Limits, Status};

/// The difficulty of `p` within `limits`: how much work the exact search
/// does to find its solution.
///
/// The measure is `log2(1 + N)`, rounded to two decimals, where `N` is the
/// number of search nodes the solver visits on one thread in its fixed
/// order of turns (`solve_plan_with`, its local search on marked panels
/// joining as beside a helper thread, after 300,000 nodes, not as
/// the one-thread solve's stand-in for one) before it returns the solution. It
/// counts nodes, not time, so it is the same on every machine; 0 is a
/// panel the search walks straight through, each point more is twice the
/// work. It measures the search's effort, which follows the number of
/// dead ends a player meets, not how clever a deduction must be. It
/// saturates at the node budget: with the default 2,000,000 nodes a
/// search that needs more reads 20.93.
///
/// A search that reaches the node budget of `limits` first gives the
/// budget's value (`log2(1 + budget)`): the measure saturates there.
/// [`Error::Stopped`] when time or a cancel stops it.
pub fn difficulty(p: &Puzzle, limits: &Limits) -> Result<f64> {
    let plan = Plan::new(p)?;
    // The search's effort: no local search standing in for a helper.
    let schedule = Schedule {
        anneal_alone_after: u64::MAX,
        ..Schedule::default()
    };
    let (solution, nodes) = solve_plan_with(&plan, limits, &schedule)?;
    if solution.path.is_none() && solution.status == Status::Stopped {
        let mut time = limits.clone();
        time.max_nodes = None;
        return match limits.max_nodes {
            Some(max) if !time.expired() => Ok(round2((1.0 + max as f64).log2())),
            _ => Err(Error::Stopped),
        };
    }
    Ok(round2((1.0 + nodes as f64).log2()))
}

/// `x` rounded to two decimals.
fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Reads a `MIN..MAX` band (either side may be left out: `5..`, `..8`).
pub fn parse_band(text: &str) -> Result<(f64, f64)> {
    let bad = || {
        Error::Options(format!(
            "bad difficulty band \"{text}\": expected MIN..MAX, e.g. 4..12"
        ))
    };
    let (a, b) = text.trim().split_once("..").ok_or_else(bad)?;
    let side = |s: &str, default: f64| -> Result<f64> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(default);
        }
        s.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(bad)
    };
    let (lo, hi) = (side(a, 0.0)?, side(b, f64::INFINITY)?);
    if lo > hi {
        return Err(Error::Options(format!(
            "bad difficulty band \"{text}\": its MIN ({lo}) is above its MAX ({hi})"
        )));
    }
    Ok((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands() {
        assert_eq!(parse_band("2..5").unwrap(), (2.0, 5.0));
        assert_eq!(parse_band("..5").unwrap(), (0.0, 5.0));
        assert_eq!(parse_band("3..").unwrap(), (3.0, f64::INFINITY));
        for bad in ["", "5", "a..b", "5..2", "nan..3"] {
            assert!(matches!(parse_band(bad), Err(Error::Options(_))), "{bad}");
        }
        let e = parse_band("12..6").unwrap_err().to_string();
        assert!(e.contains("MIN (12) is above its MAX (6)"), "{e}");
    }
}

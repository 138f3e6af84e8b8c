//! JSON forms of results, shared by the command line's `--json` output and
//! the web server's API.

use serde_json::{json, Value};
use std::io::Write;

/// Writes to standard output, flushed: a write that fails (a full disk,
/// say) is the command's error, never a panic; a closed pipe is no error
/// (the process ends quietly on SIGPIPE, as command-line tools do).
pub fn write_out(args: std::fmt::Arguments) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_fmt(args).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write to standard output: {e}"))
        }
        _ => Ok(()),
    }
}

/// `{"solved", "path", "moves", "ms", "status"}`; `status` is `solved`,
/// `none` (proved) or `timeout`.
pub fn solve_json(s: &witness::Solution, ms: f64) -> Value {
    let status = match (&s.path, s.status) {
        (Some(_), _) => "solved",
        (None, witness::Status::Complete) => "none",
        (None, witness::Status::Stopped) => "timeout",
    };
    json!({
        "solved": s.path.is_some(),
        "path": s.path.as_ref().map(|p| p.to_site()),
        "moves": s.path.as_ref().map(|p| p.to_moves()),
        "ms": round_ms(ms),
        "status": status,
    })
}

/// A count in JSON: a number up to 2^53 - 1, beyond it a string of
/// decimal digits (a larger number would lose digits in JavaScript).
pub fn natural_json(n: &witness::Natural) -> Value {
    n.to_json()
}

/// `{"count", "exhaustive", "timeout", "ms"}`, the count as
/// [`natural_json`] writes it; "timeout" tells a count that ran out of time
/// from one stopped at its `limit`.
pub fn count_json(c: &witness::Count, limit: Option<u64>, ms: f64) -> Value {
    json!({
        "count": natural_json(&c.count),
        "exhaustive": c.status == witness::Status::Complete,
        "timeout": count_timed_out(c, limit),
        "ms": round_ms(ms),
    })
}

/// Whether a count up to `limit` ran out of time (or was cancelled)
/// rather than reaching its limit or the end.
pub fn count_timed_out(c: &witness::Count, limit: Option<u64>) -> bool {
    let capped = limit.is_some_and(|l| c.count >= l);
    c.status == witness::Status::Stopped && !capped
}

/// `{"path", "moves", "solution", "ms", "status"}`.
pub fn hint_json(h: &witness::Hint, ms: f64) -> Value {
    let status = match (&h.path, h.status) {
        (Some(_), _) => "solved",
        (None, witness::Status::Complete) => "none",
        (None, witness::Status::Stopped) => "timeout",
    };
    json!({
        "path": h.path.as_ref().map(|p| p.to_site()),
        "moves": h.path.as_ref().map(|p| p.to_moves()),
        "solution": h.solution.as_ref().map(|p| p.to_site()),
        "ms": round_ms(ms),
        "status": status,
    })
}

/// Milliseconds with three decimals.
pub fn round_ms(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// A symbol's name for people: `black square`, `dot`, `triangle (2)`.
pub fn symbol_name(puzzle: &witness::model::Puzzle, q: witness::model::Pos) -> String {
    use witness::model::SymbolKind;
    let c = puzzle.cell(q);
    let Some(s) = &c.symbol else {
        return match c.dot {
            witness::model::Dot::Blue => "blue dot".into(),
            witness::model::Dot::Yellow => "yellow dot".into(),
            witness::model::Dot::Invisible => "invisible dot".into(),
            _ => "dot".into(),
        };
    };
    let kind = match &s.kind {
        SymbolKind::Square => "square".to_string(),
        SymbolKind::Star => "star".to_string(),
        SymbolKind::Triangle(n) => format!("triangle ({n})"),
        SymbolKind::Poly(_) => "polyomino".to_string(),
        SymbolKind::Ylop(_) => "subtractive polyomino".to_string(),
        SymbolKind::Nega => "elimination mark".to_string(),
    };
    format!("{} {kind}", s.color.name())
}

/// The text of a [`witness::Why`]: one line per symbol and its place.
pub fn why_text(puzzle: &witness::model::Puzzle, w: &witness::Why) -> String {
    let mut out = String::new();
    if w.no_line {
        out.push_str("no line reaches an end at all: the starts, ends and gaps alone allow none\n");
        return out;
    }
    out.push_str("these symbols cannot all be satisfied");
    if w.status != witness::Status::Complete {
        out.push_str(" (a time limit stopped the search: the set may not be minimal)");
    }
    out.push_str(":\n");
    for &q in &w.symbols {
        out.push_str(&format!(
            "  {} at ({}, {})\n",
            symbol_name(puzzle, q),
            q.x,
            q.y
        ));
    }
    out
}

/// `n` and the noun, singular for 1 (`1 thread`, `4 threads`); `noun` is a
/// singular that takes an `s`.
pub fn how_many(n: impl Into<u64>, noun: &str) -> String {
    match n.into() {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_json_numbers_up_to_2_53_less_1_then_strings() {
        let n = |v: u64| natural_json(&witness::Natural::from(v));
        assert_eq!(n(0), json!(0));
        assert_eq!(n((1 << 53) - 1), json!(9_007_199_254_740_991u64));
        assert_eq!(n((1 << 53) - 1 + 1), json!("9007199254740992"));
        assert_eq!(n(u64::MAX), json!("18446744073709551615"));
        let big: witness::Natural = "123456789012345678901234567890123456789012"
            .parse()
            .unwrap();
        assert_eq!(
            natural_json(&big),
            json!("123456789012345678901234567890123456789012")
        );
    }
}

//! JSON forms of results, shared by the command line's `--json` output and
//! the web server's API.

use serde_json::{json, Value};
use witness::Verdict;

/// `{"valid", "invalid": [[x,y],…], "negations": [[[x,y],[x,y]],…]}`.
pub fn verdict_json(v: &Verdict) -> Value {
    json!({
        "valid": v.valid,
        "invalid": v.invalid.iter().map(|f| json!([f.pos.x, f.pos.y])).collect::<Vec<_>>(),
        "negations": v.negations.iter()
            .map(|(a, b)| json!([[a.x, a.y], [b.x, b.y]]))
            .collect::<Vec<_>>(),
    })
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

/// `{"count", "exhaustive", "ms"}`.
pub fn count_json(c: &witness::Count, ms: f64) -> Value {
    json!({
        "count": c.count,
        "exhaustive": c.status == witness::Status::Complete,
        "ms": round_ms(ms),
    })
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

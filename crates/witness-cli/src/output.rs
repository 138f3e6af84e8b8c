//! JSON forms of results, shared by the command line's `--json` output and
//! the web server's API.

use serde_json::{json, Value};
use witness::rules::Verdict;

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

//! Generation requests and answers as JSON: what `/api/generate` and the
//! page's worker take, and the line `witness generate` writes.

use serde_json::{json, Value};

use super::{GenerateOptions, Generated, Preset, Spec};
use crate::error::{Error, Result};
use crate::formats::wpjson;
use crate::model::{Puzzle, Symmetry};
use crate::path::Path;

/// The largest panel a request may ask for, in faces a side.
pub const REQUEST_MAX_SIDE: u64 = 10;

/// The fields a request may hold: those [`read_request`] reads, and
/// `"timeout_ms"`, the time limit a server reads beside them.
pub const REQUEST_FIELDS: [&str; 11] = [
    "preset",
    "symbols",
    "width",
    "height",
    "seed",
    "minimal",
    "pillar",
    "symmetry",
    "around",
    "rules",
    "timeout_ms",
];

/// Reads a request `{"preset" | "symbols", "width", "height", "seed",
/// "minimal", "pillar", "symmetry", "around", "rules"}` (`pillar`: true or
/// false; `symmetry`: null or `{"x": bool, "y": bool}` as in the site's JSON;
/// `rules`: `"witnesspuzzles"` (the default) or `"windmill"`;
/// `around`: a line in any notation [`Path::parse_on`] reads, as a
/// string or the site's JSON array): the options (a 4x4 `mixed` puzzle by
/// default, no time limit of their own) and the seed (1 by default). A
/// bad field, or one not among [`REQUEST_FIELDS`], is an
/// [`Error::Options`] naming it.
pub fn read_request(body: &Value) -> Result<(GenerateOptions, u64)> {
    let bad = |m: String| Error::Options(m);
    if !body.is_object() {
        return Err(bad(format!(
            "the request must be a JSON object, not {body}"
        )));
    }
    // A field of another name is a mistake (a "size" for "width" and
    // "height", say), not something to pass over with the defaults.
    crate::request::known_fields(body, &REQUEST_FIELDS).map_err(bad)?;
    let side = |k: &str| -> Result<usize> {
        match body.get(k) {
            None | Some(Value::Null) => Ok(4),
            Some(v) => v
                .as_u64()
                .filter(|n| (1..=REQUEST_MAX_SIDE).contains(n))
                .map(|n| n as usize)
                .ok_or_else(|| {
                    bad(format!(
                        "\"{k}\" must be a whole number of faces from 1 to {REQUEST_MAX_SIDE}, not {v}"
                    ))
                }),
        }
    };
    let (w, h) = (side("width")?, side("height")?);
    let text = |k: &str| -> Result<Option<&str>> {
        match body.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(v) => Err(bad(format!("\"{k}\" must be a string, not {v}"))),
        }
    };
    let mut o = match (text("preset")?, text("symbols")?) {
        (Some(_), Some(_)) => return Err(bad("give \"preset\" or \"symbols\", not both".into())),
        (None, Some(spec)) => GenerateOptions::new(w, h, Spec::parse(spec)?),
        (p, None) => GenerateOptions::preset(Preset::from_name(p.unwrap_or("mixed"))?, w, h),
    };
    o.time_per_puzzle = None;
    let seed = match body.get("seed") {
        None | Some(Value::Null) => 1,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad(format!("\"seed\" must be a whole number, not {v}")))?,
    };
    o.minimal = match body.get("minimal") {
        None | Some(Value::Null) => false,
        Some(v) => v
            .as_bool()
            .ok_or_else(|| bad(format!("\"minimal\" must be true or false, not {v}")))?,
    };
    match body.get("rules") {
        None | Some(Value::Null) => {}
        Some(Value::String(r)) => o.rules = r.parse()?,
        Some(v) => {
            return Err(bad(format!(
                "\"rules\" must be \"witnesspuzzles\" or \"windmill\", not {v}"
            )))
        }
    }
    match body.get("pillar") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(b)) => o.pillar |= *b,
        Some(v) => return Err(bad(format!("\"pillar\" must be true or false, not {v}"))),
    }
    match body.get("symmetry") {
        None | Some(Value::Null) => {}
        Some(v) => {
            let axis = |k: &str| v.get(k).map_or(Some(false), Value::as_bool);
            match (v.is_object(), axis("x"), axis("y")) {
                (true, Some(x), Some(y)) if x || y => o.symmetry = Some(Symmetry { x, y }),
                (true, Some(false), Some(false)) => {}
                _ => {
                    return Err(bad(format!(
                        "\"symmetry\" must be null or {{\"x\": bool, \"y\": bool}}, not {v}"
                    )))
                }
            }
        }
    }
    o.around = match body.get("around") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let text = match v {
                Value::String(s) => s.clone(),
                _ => v.to_string(),
            };
            let mut empty = Puzzle::new(w, h, o.pillar)?;
            empty.symmetry = o.symmetry;
            let line = Path::parse_on(&text, &empty)
                .map_err(|e| bad(format!("\"around\" is not a line: {e}")))?;
            Some(line)
        }
    };
    Ok((o, seed))
}

impl Generated {
    /// The puzzle as a line of `witness generate`: `{"id", "seed",
    /// "index", "puzzle", "solution", "moves", "difficulty", "symbols"}`,
    /// the puzzle a witnesspuzzles.com JSON object, the solution in the
    /// site's path format.
    pub fn to_json(&self, seed: u64, index: u64) -> Result<Value> {
        Ok(json!({
            "id": format!("{seed}-{index}"),
            "seed": seed,
            "index": index,
            "puzzle": wpjson::to_value(&self.puzzle)?,
            "solution": self.solution.to_site(),
            "moves": self.solution.to_moves(),
            "difficulty": self.difficulty,
            "symbols": self.symbols,
        }))
    }
}

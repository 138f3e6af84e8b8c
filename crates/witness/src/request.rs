//! Requests as JSON objects: the fields that `witness serve`'s API and the
//! page's WebAssembly worker read alike (`"puzzle"`, `"format"`,
//! `"rules"`, `"path"`, `"engine"`, `"limit"` and `"unique"`, the hint
//! size; [`op_fields`] lists them by operation), and the answers they
//! share (`convert`, a verdict, why there is no solution, a count's
//! solutions). Each
//! reader answers a one-line message naming the field when the request is
//! wrong.

use serde_json::{json, Value};

use crate::error::Error;
use crate::formats::{self, text, windmill, wpjson, Format};
use crate::model::{Puzzle, RuleSet, Turn};
use crate::path::Path;
use crate::rules::Verdict;
use crate::solve::{Count, Engine, HintSize, Status, Why};

/// What kind of JSON value `v` is, for messages: `a string`, `null`, ….
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The request's `"puzzle"`: text in any format (`"format"` names it, or
/// it is guessed) or a witnesspuzzles JSON object, judged by `"rules"`
/// when given (`witnesspuzzles` or `windmill`; else the format's own).
pub fn puzzle(body: &Value) -> Result<Puzzle, String> {
    let format = match body.get("format") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            Some(Format::from_name(s).ok_or_else(|| format!("unknown format \"{s}\""))?)
        }
        Some(v) => return Err(format!("\"format\" must be a string, not {v}")),
    };
    let rules = match body.get("rules") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.parse::<RuleSet>().map_err(|e| e.to_string())?),
        Some(v) => return Err(format!("\"rules\" must be a string, not {v}")),
    };
    let mut puzzle = match body.get("puzzle") {
        Some(Value::String(s)) => formats::read_puzzle(s, format),
        Some(o @ Value::Object(_)) => wpjson::from_value(o),
        None | Some(Value::Null) => return Err("the request has no \"puzzle\"".into()),
        Some(v) => {
            return Err(format!(
                "\"puzzle\" must be a string or a JSON object, not {}",
                kind_of(v)
            ))
        }
    }
    .map_err(|e| e.to_string())?;
    if let Some(r) = rules {
        puzzle.rules = r;
    }
    Ok(puzzle)
}

/// An upper bound on the moves a move string (`X,Y:` then letters with
/// optional counts) spells out, read without expanding it; saturates.
pub fn moves_spelt(text: &str) -> u64 {
    let t = text.trim();
    let tail = match t.find(':').or_else(|| t.find(')')) {
        Some(i) => &t[i + 1..],
        None => return 0,
    };
    let mut total: u64 = 0;
    let mut run: Option<u64> = None;
    for c in tail.chars() {
        match c {
            '0'..='9' => {
                let d = u64::from(c as u8 - b'0');
                run = Some(run.unwrap_or(0).saturating_mul(10).saturating_add(d));
            }
            _ => {
                total = total.saturating_add(run.take().map_or(0, |n| n.max(1)));
                if c.is_ascii_alphabetic() {
                    run = Some(0);
                }
            }
        }
    }
    total.saturating_add(run.map_or(0, |n| n.max(1)))
}

/// The request's `"path"` on `puzzle`: the site's array, `[[x, y], …]` or
/// a move string. A path has at most one move per slot of the panel; a
/// move string that spells out more is refused before it is expanded.
pub fn path(body: &Value, puzzle: &Puzzle) -> Result<Option<Path>, String> {
    let slots = (puzzle.width() * puzzle.height()) as u64;
    match body.get("path") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => {
            let n = if s.trim_start().starts_with('[') {
                0
            } else {
                moves_spelt(s)
            };
            if n > slots {
                return Err(format!(
                    "the path has {n} moves; a path on this {}x{}-slot panel has at most {slots}",
                    puzzle.width(),
                    puzzle.height()
                ));
            }
            Path::parse_on(s, puzzle).map(Some)
        }
        Some(a @ Value::Array(_)) => match a.get(0) {
            Some(Value::Array(_)) => Path::from_coordinates_on(a, puzzle).map(Some),
            _ => Path::from_site(a).map(Some),
        },
        Some(v) => {
            return Err(format!(
                "\"path\" must be an array or a move string, not {}",
                kind_of(v)
            ))
        }
    }
    .map_err(|e| e.to_string())
}

/// The request's `"engine"`: `"search"`, `"sat"` or `"auto"` (the
/// default).
pub fn engine(body: &Value) -> Result<Engine, String> {
    match body.get("engine") {
        None | Some(Value::Null) => Ok(Engine::Auto),
        Some(Value::String(s)) => s.parse().map_err(|_| {
            format!("\"engine\" must be \"search\", \"sat\" or \"auto\", not \"{s}\"")
        }),
        Some(v) => Err(format!(
            "\"engine\" must be \"search\", \"sat\" or \"auto\", not {v}"
        )),
    }
}

/// The fields every request about a puzzle may hold: `"puzzle"`,
/// `"format"` and `"rules"` (read by [`puzzle`]).
pub const PUZZLE_FIELDS: [&str; 3] = ["puzzle", "format", "rules"];

/// The fields operation `op` reads beside [`PUZZLE_FIELDS`]: `check`
/// its `"path"`, `solve` its `"engine"`, `count` its `"engine"`,
/// `"limit"` and `"unique"`, `hint` its `"engine"`, `"steps"` and
/// `"fraction"`, `render` its `"path"` or `"solve"`, `convert` its `"to"` and
/// `"turn"`; none for another name. A host adds the fields it reads
/// itself (a time limit, say).
pub fn op_fields(op: &str) -> &'static [&'static str] {
    match op {
        "check" => &["path"],
        "render" => &["path", "solve"],
        "solve" => &["engine"],
        "count" => &["engine", "limit", "unique"],
        "hint" => &["engine", "steps", "fraction"],
        "convert" => &["to", "turn"],
        _ => &[],
    }
}

/// Refuses a request that holds a field outside `known` (a misspelt
/// option would otherwise be left out without a word): the message names
/// the first such field and lists the known ones.
pub fn known_fields(body: &Value, known: &[&str]) -> Result<(), String> {
    let Some(o) = body.as_object() else {
        return Ok(());
    };
    match o.keys().find(|k| !known.contains(&k.as_str())) {
        None => Ok(()),
        Some(k) => Err(format!(
            "unknown field \"{k}\": this request reads {}",
            known
                .iter()
                .map(|f| format!("\"{f}\""))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The request's count limit: `"limit"`, a whole number from 1, or
/// `"unique": true`, which asks whether the solution is unique (a count to
/// 2, as `witness count --unique`); `None` (count every solution) when
/// neither is given. The second value says whether `"unique"` asked.
pub fn count_limit(body: &Value) -> Result<(Option<u64>, bool), String> {
    let unique = match body.get("unique") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::Bool(true)) => true,
        Some(v) => return Err(format!("\"unique\" must be true or false, not {v}")),
    };
    let limit = match body.get("limit") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("\"limit\" must be a whole number from 1, not {v}"))?,
        ),
    };
    match (limit, unique) {
        (Some(_), true) => Err("give either \"limit\" or \"unique\", not both".into()),
        (_, true) => Ok((Some(2), true)),
        (limit, false) => Ok((limit, false)),
    }
}

/// The request's `"solve"` (of a render): `true` draws the puzzle's
/// solution; `false` or left out, the `"path"` given or none.
pub fn solve_flag(body: &Value) -> Result<bool, String> {
    match body.get("solve") {
        None | Some(Value::Null) | Some(Value::Bool(false)) => Ok(false),
        Some(Value::Bool(true)) => Ok(true),
        Some(v) => Err(format!("\"solve\" must be true or false, not {v}")),
    }
}

/// The answer to "is the solution unique?" from a count to 2 (`timed_out`
/// when it ran out of time before it was settled): `"unique"`, `"none"`,
/// `"not unique"`, or `"timeout"` when the count stopped with fewer than
/// two solutions found.
pub fn uniqueness(c: &Count, timed_out: bool) -> &'static str {
    match (c.count.to_u64(), timed_out) {
        (_, true) if c.count < 2 => "timeout",
        (Some(0), _) => "none",
        (Some(1), _) => "unique",
        _ => "not unique",
    }
}

/// A verdict as JSON: `{"valid", "invalid": [[x,y],…], "negations":
/// [[[x,y],[x,y]],…]}`.
pub fn verdict(v: &Verdict) -> Value {
    json!({
        "valid": v.valid,
        "invalid": v.invalid.iter().map(|f| json!([f.pos.x, f.pos.y])).collect::<Vec<_>>(),
        "negations": v.negations.iter()
            .map(|(a, b)| json!([[a.x, a.y], [b.x, b.y]]))
            .collect::<Vec<_>>(),
    })
}

/// The request's hint size: `"steps"` (a whole number of segments) or
/// `"fraction"` (from 0 to 1), a quarter of the solution when neither.
pub fn hint_size(body: &Value) -> Result<HintSize, String> {
    Ok(match (body.get("steps"), body.get("fraction")) {
        (Some(s), _) if !s.is_null() => HintSize::Steps(
            s.as_u64()
                .ok_or_else(|| format!("\"steps\" must be a whole number, not {s}"))?
                .min(usize::MAX as u64) as usize,
        ),
        (_, Some(f)) if !f.is_null() => match f.as_f64() {
            Some(f) if (0.0..=1.0).contains(&f) => HintSize::Fraction(f),
            _ => {
                return Err(format!(
                    "\"fraction\" must be a number from 0 to 1, not {f}"
                ))
            }
        },
        _ => HintSize::Fraction(0.25),
    })
}

/// Adds a [`Why`] to a solve's answer: `"why": [{"x","y"},…]` (empty
/// when no line reaches an end at all), `"why_no_line"` and
/// `"why_minimal"` (false when a limit stopped the search for the set).
pub fn add_why(v: &mut Value, w: &Why) {
    v["why"] = w
        .symbols
        .iter()
        .map(|q| json!({"x": q.x, "y": q.y}))
        .collect();
    v["why_no_line"] = json!(w.no_line);
    v["why_minimal"] = json!(w.status == Status::Complete);
}

/// Marks a solve's answer on a panel with no solution whose symbols that
/// cannot all be satisfied are not named: `"why": null` and
/// `"why_error"`, the reason (a limit, most often).
pub fn add_why_error(v: &mut Value, e: &str) {
    v["why"] = Value::Null;
    v["why_error"] = json!(e);
}

/// Adds to a count's answer `v` the solutions it kept
/// ([`Count::solutions`], kept with a limit of at most 64 such as
/// uniqueness's 2), when it found any, as `"solutions"` (the site's path
/// arrays); with two or more, `"part"`: where the first two part (`{"x",
/// "y"}`, the last slot they share from their start), `null` when they
/// start apart. They come from the count itself: no second search.
pub fn add_solutions(v: &mut Value, puzzle: &Puzzle, c: &Count) {
    if c.solutions.is_empty() {
        return;
    }
    v["solutions"] = c.solutions.iter().map(Path::to_site).collect();
    let [a, b, ..] = &c.solutions[..] else {
        return;
    };
    v["part"] = match crate::solve::race::parting(puzzle, a, b) {
        Ok(Some(q)) => json!({"x": q.x, "y": q.y}),
        _ => Value::Null,
    };
}

/// A `convert` request on its `puzzle` (read by [`puzzle`]): `{"from",
/// "to", "puzzle"}`, the puzzle written as `"to"` asks (`json`, the
/// default, `windmill` or `text`) and the format it was read from, with
/// a `"note"` ([`windmill::RULES_NOTE`]) on a Windmill code the Windmill's
/// rules may judge otherwise; turned over
/// first when `"turn"` names turns ([`Turn::sequence`]: `"x"`, `"y"`, `"t"`,
/// or letters in order, such as `"tx"`, a quarter turn clockwise). A bad
/// `"to"` or `"turn"` is an [`Error::Options`]; the transpose of a pillar, an
/// [`Error::Unsupported`]; a puzzle the JSON or Windmill writer cannot
/// hold, the writer's error.
pub fn convert(body: &Value, puzzle: &Puzzle) -> Result<Value, Error> {
    let turned;
    let puzzle = match body.get("turn") {
        None | Some(Value::Null) => puzzle,
        Some(t) => {
            let turns = match t.as_str().map(Turn::sequence) {
                Some(Ok(turns)) => turns,
                _ => {
                    return Err(Error::Options(format!(
                        "\"turn\" must be one to {} of the letters x, y and t \
                         (\"x\", \"y\", \"t\", or \"tx\" for a quarter turn), not {t}",
                        Turn::MAX_SEQUENCE
                    )))
                }
            };
            turned = puzzle.turned_by(&turns)?;
            &turned
        }
    };
    let from = match body.get("puzzle") {
        Some(Value::String(s)) => match body.get("format").and_then(Value::as_str) {
            Some(f) => f.to_string(),
            None => formats::detect(s)
                .map(|f| f.name().to_string())
                .unwrap_or_default(),
        },
        _ => "json".to_string(),
    };
    let to = body.get("to").and_then(Value::as_str).unwrap_or("json");
    let out = match to {
        "json" => wpjson::to_value(puzzle)?,
        "text" => Value::String(text::to_string(puzzle)),
        "windmill" => Value::String(windmill::to_string(puzzle)?),
        other => {
            return Err(Error::Options(format!(
                "\"to\" must be \"json\", \"windmill\" or \"text\", not \"{other}\""
            )))
        }
    };
    let mut v = json!({"from": from, "to": to, "puzzle": out});
    if to == "windmill" && windmill::judged_differently(puzzle) {
        v["note"] = json!(windmill::RULES_NOTE);
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn moves_spelt_bounds_the_expansion() {
        assert_eq!(moves_spelt("0,4:U4R2D2R2U2"), 12);
        assert_eq!(moves_spelt("(0, 4) U R D"), 3);
        assert_eq!(moves_spelt("0,4:U"), 1);
        assert_eq!(moves_spelt("0,4:U0"), 1);
        assert_eq!(moves_spelt("0,4:"), 0);
        assert_eq!(moves_spelt("0,4:U99999999999999999999999"), u64::MAX);
        assert_eq!(
            moves_spelt(&format!("0,4:{}", "U100000".repeat(10))),
            1_000_000
        );
    }

    #[test]
    fn fields_are_read_or_named() {
        let text = "witness 1x1\n+ - E\n| . |\nS - +\n";
        let p = puzzle(&json!({"puzzle": text, "rules": "windmill"}));
        let p = p.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.rules, RuleSet::Windmill);
        assert!(puzzle(&json!({})).unwrap_err().contains("\"puzzle\""));
        assert!(puzzle(&json!({"puzzle": 3}))
            .unwrap_err()
            .contains("a number"));
        assert!(puzzle(&json!({"puzzle": text, "rules": "x"})).is_err());
        assert!(path(&json!({"path": 3}), &p)
            .unwrap_err()
            .contains("\"path\""));
        let long = format!("0,2:{}", "U".repeat(10));
        assert!(path(&json!({"path": long}), &p)
            .unwrap_err()
            .contains("at most"));
        assert_eq!(count_limit(&json!({})).unwrap(), (None, false));
        assert_eq!(count_limit(&json!({"limit": 3})).unwrap(), (Some(3), false));
        assert_eq!(
            count_limit(&json!({"unique": true})).unwrap(),
            (Some(2), true)
        );
        assert!(count_limit(&json!({"unique": true, "limit": 5}))
            .unwrap_err()
            .contains("not both"));
        assert!(count_limit(&json!({"unique": 1}))
            .unwrap_err()
            .contains("true or false"));
        let known = [PUZZLE_FIELDS.as_slice(), op_fields("count")].concat();
        assert!(known_fields(&json!({"puzzle": text, "unique": true}), &known).is_ok());
        let e = known_fields(&json!({"puzzle": text, "uniqe": true}), &known).unwrap_err();
        assert!(e.contains("\"uniqe\"") && e.contains("\"unique\""), "{e}");
        assert_eq!(solve_flag(&json!({"solve": true})), Ok(true));
        assert_eq!(solve_flag(&json!({})), Ok(false));
        assert!(solve_flag(&json!({"solve": "yes"})).is_err());
        assert_eq!(engine(&json!({})).unwrap(), Engine::Auto);
        assert!(engine(&json!({"engine": "fast"}))
            .unwrap_err()
            .contains("\"auto\""));
    }
}

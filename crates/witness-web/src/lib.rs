//! The `witness` library for a web page: compiled to WebAssembly
//! (`wasm32-unknown-unknown`, `scripts/build-web`), it answers the page's
//! questions in the browser, in a Web Worker, without a server.
//!
//! The interface is plain `extern "C"` functions over JSON in linear
//! memory, so no binding generator is needed:
//!
//! 1. the host reserves `len` bytes with [`witness_alloc`] and writes the
//!    request there, UTF-8 JSON `{"op": NAME, ...fields}`;
//! 2. [`witness_call`] answers it, frees the request and returns the
//!    answer's length; the answer is at [`witness_reply`]: UTF-8 JSON
//!    `{"status": CODE, "body": {...}}`, the status and body that
//!    `witness serve` gives for `POST /api/NAME` (200, or a 4xx with
//!    `{"error": "..."}`).
//!
//! [`respond`] is the same in Rust. The operations are `convert`, `render`,
//! `check`, `solve`, `count`, `hint` and `generate`, with the fields of
//! the server's API but `"timeout_ms"`, which is refused. Nothing here
//! measures time (`std::time` is missing in the browser): the worker
//! fills in `ms` and enforces time limits by ending the worker, which is
//! also how a search is cancelled.

#![deny(missing_docs)]

use std::cell::RefCell;

use serde_json::{json, Value};
use witness::model::Puzzle;
use witness::render::SvgOptions;
use witness::request;
use witness::{CountOptions, Engine, Error, HintOptions, Path, SolveOptions, Status};

/// An error status and its message.
type Fail = (u16, String);

fn bad(msg: impl Into<String>) -> Fail {
    (400, msg.into())
}

fn lib_err(e: Error) -> Fail {
    (422, e.to_string())
}

/// Answers operation `op` with the request's fields: the status (200, or
/// 4xx) and the JSON body, as `witness serve` answers `POST /api/{op}`.
pub fn respond(op: &str, body: &Value) -> (u16, Value) {
    type Op = fn(&Value) -> Result<Value, Fail>;
    let run: Result<Op, Fail> = match op {
        "convert" => Ok(convert),
        "render" => Ok(render),
        "check" => Ok(check),
        "solve" => Ok(solve),
        "count" => Ok(count),
        "hint" => Ok(hint),
        "generate" => Ok(generate),
        _ => Err((404, format!("no operation \"{op}\""))),
    };
    let result = run.and_then(|run| {
        if !body.is_object() {
            return Err(bad("the request must be a JSON object"));
        }
        known_fields(op, body)?;
        run(body)
    });
    match result {
        Ok(v) => (200, v),
        Err((status, msg)) => (status, json!({ "error": msg })),
    }
}

/// Answers a whole request `{"op": NAME, ...fields}` given as JSON text:
/// `{"status": CODE, "body": {...}}`.
pub fn respond_text(request: &[u8]) -> String {
    let (status, body) = match serde_json::from_slice::<Value>(request) {
        Ok(v) => match v.get("op").and_then(Value::as_str) {
            Some(op) => respond(op, &v),
            None => (400, json!({"error": "the request has no \"op\""})),
        },
        Err(e) => (
            400,
            json!({ "error": format!("the request is not valid JSON: {e}") }),
        ),
    };
    json!({"status": status, "body": body}).to_string()
}

/// Refuses a field operation `op` does not read (the library's fields of
/// the operation, [`request::op_fields`], and `"op"`); `generate` checks
/// its own fields. `"timeout_ms"` gets a message of its own: this build
/// reads no clock, and the page ends a worker that runs too long.
fn known_fields(op: &str, body: &Value) -> Result<(), Fail> {
    if op == "generate" {
        return Ok(());
    }
    if body.get("timeout_ms").is_some() {
        return Err(bad(
            "\"timeout_ms\" is not read here: the WebAssembly build has no clock; \
             the page stops a search that runs too long",
        ));
    }
    let mut known: Vec<&str> = request::PUZZLE_FIELDS.to_vec();
    known.extend_from_slice(request::op_fields(op));
    known.push("op");
    request::known_fields(body, &known).map_err(bad)
}

/// The request's `"puzzle"` (with `"format"` and `"rules"`).
fn puzzle_of(body: &Value) -> Result<Puzzle, Fail> {
    request::puzzle(body).map_err(bad)
}

/// The request's `"path"` on `puzzle` (bounded by the panel's slots).
fn path_of(body: &Value, puzzle: &Puzzle) -> Result<Option<Path>, Fail> {
    request::path(body, puzzle).map_err(bad)
}

/// A puzzle with exactly one solution, as `/api/generate` makes it (its
/// searches bounded by node budgets, not by time).
fn generate(body: &Value) -> Result<Value, Fail> {
    // The request's fields, without the operation's name.
    let mut fields = body.clone();
    if let Some(o) = fields.as_object_mut() {
        o.remove("op");
    }
    let (options, seed) = witness::generate::read_request(&fields).map_err(|e| match e {
        Error::Options(_) | Error::Size(_) | Error::Unsupported(_) => bad(e.to_string()),
        e => lib_err(e),
    })?;
    let made = witness::generate(&options, seed).map_err(lib_err)?;
    made.to_json(seed, 0).map_err(lib_err)
}

/// The request's `"engine"` (`search`, `sat` or `auto`; this build has no
/// SAT engine, so `sat` is answered with an error by the library).
fn engine_of(body: &Value) -> Result<Engine, Fail> {
    request::engine(body).map_err(bad)
}

fn status_name(found: bool, status: Status) -> &'static str {
    match (found, status) {
        (true, _) => "solved",
        (false, Status::Complete) => "none",
        (false, Status::Stopped) => "timeout",
    }
}

fn convert(body: &Value) -> Result<Value, Fail> {
    let puzzle = puzzle_of(body)?;
    request::convert(body, &puzzle).map_err(|e| match e {
        Error::Options(m) => bad(m),
        e => lib_err(e),
    })
}

/// The panel as SVG with the request's path, its failing elements ringed,
/// and the verdict when the path is legal; with `"solve": true`, with
/// its solution, or on a panel with none, the symbols that cannot all be
/// satisfied ringed (`"why"`).
fn render(body: &Value) -> Result<Value, Fail> {
    let puzzle = puzzle_of(body)?;
    if request::solve_flag(body).map_err(bad)? {
        if body.get("path").is_some_and(|p| !p.is_null()) {
            return Err(bad("give either \"path\" or \"solve\", not both"));
        }
        return render_solved(&puzzle);
    }
    let path = path_of(body, &puzzle)?;
    let (mut verdict, mut illegal) = (None, None);
    if let Some(p) = &path {
        match witness::check(&puzzle, p) {
            Ok(v) => verdict = Some(v),
            Err(e @ Error::Path(_)) => illegal = Some(e.to_string()),
            Err(e) => return Err(lib_err(e)),
        }
    }
    let opts = SvgOptions {
        highlight: verdict
            .as_ref()
            .map(|v| v.invalid.iter().map(|f| f.pos).collect())
            .unwrap_or_default(),
    };
    let svg = witness::render::svg(&puzzle, path.as_ref(), &opts);
    let v = verdict.as_ref().map(request::verdict);
    Ok(json!({
        "svg": svg,
        "path": path.as_ref().map(|p| p.to_site()),
        "moves": path.as_ref().map(|p| p.to_moves()),
        "valid": v.as_ref().map(|v| v["valid"].clone()),
        "invalid": v.as_ref().map_or(json!([]), |v| v["invalid"].clone()),
        "negations": v.as_ref().map_or(json!([]), |v| v["negations"].clone()),
        "illegal": illegal,
        "status": Value::Null,
        "ms": 0.0,
    }))
}

/// The search nodes each solve of a [`witness::why`] may visit here
/// (there is no clock to bound it): the set is named within some
/// seconds on any panel, or not named ([`why_of`]).
const WHY_NODES: u64 = 200_000;

/// The symbols that cannot all be satisfied, on a panel `solve` proved
/// has no solution, each solve within [`WHY_NODES`]: `None` when a solve
/// ran out of them first (a panel with no solution is still answered).
fn why_of(puzzle: &Puzzle, engine: Engine) -> Option<witness::Why> {
    let limits = witness::Limits::none().with_max_nodes(WHY_NODES);
    let options = witness::WhyOptions::default()
        .with_limits(limits)
        .with_engine(engine);
    witness::why(puzzle, &options).ok()
}

/// Adds [`why_of`]'s answer to a solve's: `"why"`, or `"why": null` and
/// `"why_error"` when it is not named.
fn add_why_of(v: &mut Value, why: Option<&witness::Why>) {
    match why {
        Some(w) => request::add_why(v, w),
        None => request::add_why_error(
            v,
            &format!(
                "the symbols that cannot all be satisfied are not named within \
                 {WHY_NODES} search nodes a solve"
            ),
        ),
    }
}

/// `render` with `"solve": true`: the solution drawn (its verdict valid),
/// or the panel with the symbols of [`witness::why`] ringed.
fn render_solved(puzzle: &Puzzle) -> Result<Value, Fail> {
    let s = witness::solve(puzzle, &SolveOptions::default()).map_err(lib_err)?;
    let none = s.path.is_none() && s.status == Status::Complete;
    let why = none.then(|| why_of(puzzle, Engine::Auto)).flatten();
    let opts = SvgOptions {
        highlight: why.as_ref().map(|w| w.symbols.clone()).unwrap_or_default(),
    };
    let svg = witness::render::svg(puzzle, s.path.as_ref(), &opts);
    let mut v = json!({
        "svg": svg,
        "path": s.path.as_ref().map(|p| p.to_site()),
        "moves": s.path.as_ref().map(|p| p.to_moves()),
        "valid": s.path.as_ref().map(|_| true),
        "invalid": [],
        "negations": [],
        "illegal": Value::Null,
        "status": status_name(s.path.is_some(), s.status),
        "ms": 0.0,
    });
    if none {
        add_why_of(&mut v, why.as_ref());
    }
    Ok(v)
}

fn check(body: &Value) -> Result<Value, Fail> {
    let puzzle = puzzle_of(body)?;
    let path = path_of(body, &puzzle)?.ok_or_else(|| bad("check needs a \"path\""))?;
    let v = witness::check(&puzzle, &path).map_err(lib_err)?;
    Ok(request::verdict(&v))
}

fn solve(body: &Value) -> Result<Value, Fail> {
    let puzzle = puzzle_of(body)?;
    let options = SolveOptions {
        engine: engine_of(body)?,
        ..Default::default()
    };
    let s = witness::solve(&puzzle, &options).map_err(lib_err)?;
    let mut v = json!({
        "solved": s.path.is_some(),
        "path": s.path.as_ref().map(|p| p.to_site()),
        "moves": s.path.as_ref().map(|p| p.to_moves()),
        "ms": 0.0,
        "status": status_name(s.path.is_some(), s.status),
    });
    if s.path.is_none() && s.status == Status::Complete {
        // No solution, proved: the symbols that cannot all be satisfied.
        add_why_of(&mut v, why_of(&puzzle, options.engine).as_ref());
    }
    Ok(v)
}

fn count(body: &Value) -> Result<Value, Fail> {
    let puzzle = puzzle_of(body)?;
    let (limit, unique) = request::count_limit(body).map_err(bad)?;
    let c = witness::count(
        &puzzle,
        &CountOptions {
            limit,
            engine: engine_of(body)?,
            ..Default::default()
        },
    )
    .map_err(lib_err)?;
    let mut v = json!({
        "count": c.count.to_json(),
        "exhaustive": c.status == Status::Complete,
        "ms": 0.0,
        "timeout": false,
    });
    if unique {
        // No time limit here: the count stops at its limit or its end.
        v["unique"] = json!(request::uniqueness(&c, false));
    }
    witness::request::add_solutions(&mut v, &puzzle, &c);
    Ok(v)
}

fn hint(body: &Value) -> Result<Value, Fail> {
    let puzzle = puzzle_of(body)?;
    let size = request::hint_size(body).map_err(bad)?;
    let h = witness::hint(
        &puzzle,
        &HintOptions {
            size,
            engine: engine_of(body)?,
            ..Default::default()
        },
    )
    .map_err(lib_err)?;
    Ok(json!({
        "path": h.path.as_ref().map(|p| p.to_site()),
        "moves": h.path.as_ref().map(|p| p.to_moves()),
        "solution": h.solution.as_ref().map(|p| p.to_site()),
        "ms": 0.0,
        "status": status_name(h.path.is_some(), h.status),
    }))
}

thread_local! {
    /// The last answer, read by the host through [`witness_reply`].
    static REPLY: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Reserves `len` bytes for a request and gives their address; the host
/// writes the request there and passes it to [`witness_call`], which
/// frees it.
#[no_mangle]
pub extern "C" fn witness_alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len.max(1));
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Answers the request of `len` bytes at `ptr` (from [`witness_alloc`]),
/// frees it, and gives the answer's length in bytes; the answer is at
/// [`witness_reply`] until the next call.
///
/// # Safety
///
/// `ptr` must come from `witness_alloc(len)` and hold `len` written bytes;
/// it must not be used after this call.
#[no_mangle]
pub unsafe extern "C" fn witness_call(ptr: *mut u8, len: usize) -> usize {
    // SAFETY: the caller passes a buffer of `len` initialised bytes from
    // `witness_alloc(len)`, whose capacity is `len.max(1)`.
    let request = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = respond_text(&request);
    drop(request);
    REPLY.with(|r| {
        let mut r = r.borrow_mut();
        *r = answer;
        r.len()
    })
}

/// The address of the last answer of [`witness_call`].
#[no_mangle]
pub extern "C" fn witness_reply() -> *const u8 {
    REPLY.with(|r| r.borrow().as_ptr())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "{\"grid\":[[{\"type\":\"line\",\"line\":0},{\"type\":\"line\",\"line\":0},{\"type\":\"line\",\"line\":0,\"start\":true}],[{\"type\":\"line\",\"line\":0},null,{\"type\":\"line\",\"line\":0}],[{\"type\":\"line\",\"line\":0,\"end\":\"right\"},{\"type\":\"line\",\"line\":0},{\"type\":\"line\",\"line\":0}]]}";

    fn call(request: Value) -> Value {
        serde_json::from_str(&respond_text(request.to_string().as_bytes())).unwrap()
    }

    #[test]
    fn generate_makes_a_puzzle_with_one_solution_and_names_bad_fields() {
        let g = call(
            json!({"op": "generate", "preset": "squares", "width": 3, "height": 3, "seed": 5}),
        );
        assert_eq!(g["status"], 200, "{g}");
        let puzzle = g["body"]["puzzle"].to_string();
        let n = call(json!({"op": "count", "puzzle": puzzle}));
        assert_eq!(n["body"]["count"], 1, "{n}");
        let c = call(json!({"op": "check", "puzzle": puzzle, "path": g["body"]["moves"]}));
        assert_eq!(c["body"]["valid"], true, "{c}");
        // The same request gives the same puzzle.
        let again = call(
            json!({"op": "generate", "preset": "squares", "width": 3, "height": 3, "seed": 5}),
        );
        assert_eq!(again["body"]["puzzle"], g["body"]["puzzle"]);
        let e = call(json!({"op": "generate", "width": 11}));
        assert_eq!(e["status"], 400, "{e}");
        assert!(
            e["body"]["error"].as_str().unwrap().contains("\"width\""),
            "{e}"
        );
        let e = call(json!({"op": "generate", "preset": "nope"}));
        assert_eq!(e["status"], 400, "{e}");
        // A field of another name is named, not passed over.
        let e = call(json!({"op": "generate", "size": "3x3"}));
        assert_eq!(e["status"], 400, "{e}");
        assert!(
            e["body"]["error"].as_str().unwrap().contains("\"size\""),
            "{e}"
        );
    }

    #[test]
    fn solve_count_hint_and_check_agree() {
        let s = call(json!({"op": "solve", "puzzle": SMALL}));
        assert_eq!(s["status"], 200, "{s}");
        assert_eq!(s["body"]["status"], "solved", "{s}");
        let moves = s["body"]["moves"].as_str().unwrap().to_string();
        let c = call(json!({"op": "check", "puzzle": SMALL, "path": moves}));
        assert_eq!(c["body"]["valid"], true, "{c}");
        // A 1x1 panel from a corner to the opposite one: two paths.
        let n = call(json!({"op": "count", "puzzle": SMALL}));
        assert_eq!(n["body"]["count"], 2, "{n}");
        assert_eq!(n["body"]["exhaustive"], true, "{n}");
        let u = call(json!({"op": "count", "puzzle": SMALL, "unique": true}));
        assert_eq!(u["body"]["unique"], "not unique", "{u}");
        assert_eq!(
            u["body"]["solutions"].as_array().map(Vec::len),
            Some(2),
            "{u}"
        );
        let h = call(json!({"op": "hint", "puzzle": SMALL, "steps": 1}));
        assert_eq!(h["body"]["status"], "solved", "{h}");
        let r = call(json!({"op": "render", "puzzle": SMALL, "path": moves}));
        assert!(
            r["body"]["svg"].as_str().unwrap().starts_with("<svg"),
            "{r}"
        );
        assert_eq!(r["body"]["valid"], true, "{r}");
        let r = call(json!({"op": "render", "puzzle": SMALL, "solve": true}));
        assert_eq!(r["body"]["status"], "solved", "{r}");
        assert_eq!(r["body"]["valid"], true, "{r}");
    }

    /// A panel with no solution: `solve` and `render` with `"solve"` name
    /// the symbols that cannot all be satisfied, as the server does. The
    /// 1x1 panel from the bottom left to the top right with dots on its
    /// left and bottom edges: no line covers both (the two lines are up
    /// then right, right then up), and either dot alone is covered.
    #[test]
    fn no_solution_names_why() {
        let dots = "witness 1x1\n+ - E\no . |\nS o +\n";
        let s = call(json!({"op": "solve", "puzzle": dots}));
        assert_eq!(s["body"]["status"], "none", "{s}");
        assert_eq!(s["body"]["why"].as_array().map(Vec::len), Some(2), "{s}");
        let r = call(json!({"op": "render", "puzzle": dots, "solve": true}));
        assert_eq!(r["body"]["why"], s["body"]["why"], "{r}");
    }

    #[test]
    fn convert_gives_json_windmill_and_text() {
        let j = call(json!({"op": "convert", "puzzle": SMALL, "to": "json"}));
        assert_eq!(j["body"]["from"], "json", "{j}");
        let t = call(json!({"op": "convert", "puzzle": SMALL, "to": "text"}));
        let text = t["body"]["puzzle"].as_str().unwrap().to_string();
        let back = call(json!({"op": "convert", "puzzle": text, "to": "json"}));
        assert_eq!(back["body"]["puzzle"], j["body"]["puzzle"], "{back}");
        // As a Windmill code, read back as one.
        let w = call(json!({"op": "convert", "puzzle": SMALL, "to": "windmill"}));
        let code = w["body"]["puzzle"].as_str().unwrap().to_string();
        assert!(code.ends_with("_0"), "{w}");
        let from = call(json!({"op": "convert", "puzzle": code, "to": "text"}));
        assert_eq!(from["body"]["from"], "windmill", "{from}");
        // Mirrored twice the same way, the puzzle is itself again.
        let once = call(json!({"op": "convert", "puzzle": SMALL, "turn": "y"}));
        assert_ne!(once["body"]["puzzle"], j["body"]["puzzle"], "{once}");
        let twice = call(json!({"op": "convert", "puzzle": once["body"]["puzzle"], "turn": "y"}));
        assert_eq!(twice["body"]["puzzle"], j["body"]["puzzle"], "{twice}");
    }

    #[test]
    fn bad_requests_get_clear_errors() {
        for (req, status) in [
            (b"not json".to_vec(), 400),
            (b"[1]".to_vec(), 400),
            (br#"{"op": "nothing"}"#.to_vec(), 404),
            (br#"{"op": "solve"}"#.to_vec(), 400),
            (br#"{"op": "solve", "puzzle": "{]"}"#.to_vec(), 400),
            (
                br#"{"op": "count", "puzzle": "x", "limit": 0}"#.to_vec(),
                400,
            ),
        ] {
            let a: Value = serde_json::from_str(&respond_text(&req)).unwrap();
            assert_eq!(a["status"], status, "{a}");
            assert!(
                a["body"]["error"].as_str().is_some_and(|e| !e.is_empty()),
                "{a}"
            );
        }
        let a = call(json!({"op": "check", "puzzle": SMALL, "path": "0,2:L9"}));
        assert_eq!(a["status"], 422, "{a}");
        // A field the operation does not read is named, not passed over.
        for (req, named) in [
            (
                json!({"op": "solve", "puzzle": SMALL, "engin": "sat"}),
                "\"engin\"",
            ),
            (
                json!({"op": "count", "puzzle": SMALL, "timeout_ms": 5}),
                "\"timeout_ms\"",
            ),
            (
                json!({"op": "render", "puzzle": SMALL, "solve": "yes"}),
                "\"solve\"",
            ),
        ] {
            let a = call(req);
            assert_eq!(a["status"], 400, "{a}");
            let e = a["body"]["error"].as_str().unwrap();
            assert!(e.contains(named), "{e}");
        }
    }

    #[test]
    fn the_c_interface_round_trips() {
        let req = json!({"op": "solve", "puzzle": SMALL}).to_string();
        let p = witness_alloc(req.len());
        // SAFETY: `p` holds `req.len()` bytes from `witness_alloc`.
        let n = unsafe {
            std::ptr::copy_nonoverlapping(req.as_ptr(), p, req.len());
            witness_call(p, req.len())
        };
        // SAFETY: the answer is `n` bytes at `witness_reply()`.
        let answer = unsafe { std::slice::from_raw_parts(witness_reply(), n) };
        let a: Value = serde_json::from_slice(answer).unwrap();
        assert_eq!(a["body"]["status"], "solved", "{a}");
    }
}

//! The JSON API of `witness serve`, free of HTTP: [`respond`] takes an
//! endpoint's name and the request body and gives a status and a JSON
//! value. The transport ([`super::transport`]) runs it on a blocking
//! thread, with a cancel flag it sets when the client leaves or the
//! request runs out of time.
//!
//! Every endpoint takes a JSON object `{"puzzle": <text in any supported
//! format, or a witnesspuzzles JSON object>, ...options}` and answers the
//! JSON of the matching command's `--json` output; errors are
//! `{"error": "..."}` with a 4xx or 5xx status.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use witness::generate::read_request;
use witness::model::Puzzle;
use witness::request;
use witness::{CountOptions, Engine, HintOptions, Limits, Path, SolveOptions, Status};

use super::Config;
use crate::output;
use crate::render::{self, Line};

/// An answer: an HTTP status and a JSON body.
#[derive(Debug)]
pub struct Reply {
    /// The status code (200, or a 4xx or 5xx error).
    pub status: u16,
    /// The JSON body; `{"error": "..."}` for errors.
    pub body: Value,
}

impl Reply {
    /// An error answer `{"error": msg}`.
    pub fn error(status: u16, msg: impl Into<String>) -> Reply {
        Reply {
            status,
            body: json!({"error": msg.into()}),
        }
    }
}

/// An error status and its message.
type Fail = (u16, String);

fn bad(msg: impl Into<String>) -> Fail {
    (400, msg.into())
}

/// What the endpoints share: the limits and the search slots.
pub struct Context {
    /// The server's limits.
    pub config: Config,
    /// Searches running now.
    slots: AtomicUsize,
}

impl Context {
    /// A context with no search running.
    pub fn new(config: Config) -> Context {
        Context {
            config,
            slots: AtomicUsize::new(0),
        }
    }

    /// Takes a search slot, or refuses with 503 when `max_solves` searches
    /// already run: a search never waits for another.
    fn slot(&self) -> Result<Slot<'_>, Fail> {
        let max = self.config.max_solves;
        if self.slots.fetch_add(1, Ordering::SeqCst) >= max {
            self.slots.fetch_sub(1, Ordering::SeqCst);
            return Err((
                503,
                match max {
                    1 => "1 search is already running (the limit); try again shortly".into(),
                    _ => {
                        format!("{max} searches are already running (the limit); try again shortly")
                    }
                },
            ));
        }
        Ok(Slot(&self.slots))
    }
}

/// A search slot, held until dropped (when the search has stopped, not
/// when its client leaves).
struct Slot<'a>(&'a AtomicUsize);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Answers `POST /api/{name}` with `body`. Searches stop when `cancel`
/// becomes true, or at their time limit.
pub fn respond(name: &str, body: &[u8], ctx: &Context, cancel: &Arc<AtomicBool>) -> Reply {
    const ENDPOINTS: [&str; 7] = [
        "check", "solve", "count", "hint", "render", "convert", "generate",
    ];
    if !ENDPOINTS.contains(&name) {
        return Reply::error(404, format!("no API endpoint /api/{name}"));
    }
    let result = parse_body(body).and_then(|body| {
        if name != "generate" {
            known_fields(name, &body)?;
        }
        Ok(body)
    });
    let result = result.and_then(|body| match name {
        "check" => api_check(&body, ctx, cancel),
        "solve" => api_solve(&body, ctx, cancel),
        "count" => api_count(&body, ctx, cancel),
        "hint" => api_hint(&body, ctx, cancel),
        "render" => api_render(&body, ctx, cancel),
        "convert" => api_convert(&body),
        "generate" => api_generate(&body, ctx, cancel),
        _ => Err((404, format!("no API endpoint /api/{name}"))),
    });
    match result {
        Ok((status, body)) => Reply { status, body },
        Err((status, msg)) => Reply::error(status, msg),
    }
}

fn parse_body(body: &[u8]) -> Result<Value, Fail> {
    let v: Value = serde_json::from_slice(body)
        .map_err(|e| bad(format!("the body is not valid JSON: {e}")))?;
    if !v.is_object() {
        return Err(bad("the body must be a JSON object {\"puzzle\": ..., ...}"));
    }
    Ok(v)
}

/// Refuses a field endpoint `name` does not read: the library's fields
/// of the operation ([`request::op_fields`]) and `"timeout_ms"` on every
/// endpoint that searches or checks. (`/api/generate` checks its own
/// fields.)
fn known_fields(name: &str, body: &Value) -> Result<(), Fail> {
    let mut known: Vec<&str> = request::PUZZLE_FIELDS.to_vec();
    known.extend_from_slice(request::op_fields(name));
    if name != "convert" {
        known.push("timeout_ms");
    }
    request::known_fields(body, &known).map_err(bad)
}

/// The body's `"puzzle"` (with `"format"` and `"rules"`).
fn puzzle_of(body: &Value) -> Result<Puzzle, Fail> {
    request::puzzle(body).map_err(bad)
}

/// An answer with the rules that judged it (`"rules"`).
fn judged(mut v: Value, puzzle: &Puzzle) -> Value {
    v["rules"] = json!(puzzle.rules.name());
    v
}

/// The body's `"path"` on `puzzle` (bounded by the panel's slots).
fn path_of(body: &Value, puzzle: &Puzzle) -> Result<Option<Path>, Fail> {
    request::path(body, puzzle).map_err(bad)
}

/// The search time limit: the body's `"timeout_ms"` (at most the ceiling),
/// or the default.
/// As on the command line, 0 asks for no limit: on the server, that is its
/// ceiling (`--max-solve-ms`).
fn time_limit(body: &Value, config: &Config) -> Result<u64, Fail> {
    match body.get("timeout_ms") {
        None | Some(Value::Null) => Ok(config.solve_ms),
        Some(v) => match v.as_u64() {
            Some(0) => Ok(config.max_solve_ms),
            Some(ms) => Ok(ms.min(config.max_solve_ms)),
            _ => Err(bad(format!(
                "\"timeout_ms\" must be a whole number of milliseconds (0: the server's ceiling of {}), not {v}",
                config.max_solve_ms
            ))),
        },
    }
}

/// The body's `"engine"`: `"search"`, `"sat"` or `"auto"` (the default).
fn engine_of(body: &Value) -> Result<Engine, Fail> {
    request::engine(body).map_err(bad)
}

/// A search's limits: `ms` from now, or the cancel flag.
fn limits(ms: u64, cancel: &Arc<AtomicBool>) -> Limits {
    Limits::timeout(Duration::from_millis(ms)).with_cancel(cancel.clone())
}

fn lib_err(e: witness::Error) -> Fail {
    (422, e.to_string())
}

/// The answer to a search stopped before it found anything: its time
/// limit, or its client left (then nobody reads the answer).
fn stopped(ms: u64) -> Fail {
    (
        504,
        format!("no solution found within the time limit of {ms} ms"),
    )
}

/// `/api/check`, within the request's time limit (`"timeout_ms"`, as for
/// a search) and stopped when its client leaves.
fn api_check(body: &Value, ctx: &Context, cancel: &Arc<AtomicBool>) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let path = path_of(body, &puzzle)?.ok_or_else(|| bad("check needs a \"path\""))?;
    let ms = time_limit(body, &ctx.config)?;
    match witness::check_within(&puzzle, &path, &limits(ms, cancel)) {
        Ok(verdict) => Ok((200, judged(request::verdict(&verdict), &puzzle))),
        Err(witness::Error::Stopped) => {
            Err((504, format!("no verdict within the time limit of {ms} ms")))
        }
        Err(e) => Err(lib_err(e)),
    }
}

fn api_solve(body: &Value, ctx: &Context, cancel: &Arc<AtomicBool>) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let ms = time_limit(body, &ctx.config)?;
    let engine = engine_of(body)?;
    let _slot = ctx.slot()?;
    let t0 = Instant::now();
    let lim = limits(ms, cancel);
    let sol = witness::solve(
        &puzzle,
        &SolveOptions::default()
            .with_limits(lim.clone())
            .with_engine(engine),
    )
    .map_err(lib_err)?;
    let elapsed = t0.elapsed().as_secs_f64() * 1e3;
    if sol.path.is_none() && sol.status == Status::Stopped {
        return Err(stopped(ms));
    }
    let mut v = output::solve_json(&sol, elapsed);
    if sol.path.is_none() {
        // No solution, proved: the symbols that cannot all be satisfied,
        // within what is left of the request's time limit.
        let options = witness::WhyOptions::default()
            .with_limits(lim.clone())
            .with_engine(engine);
        match witness::why(&puzzle, &options) {
            Ok(w) => witness::request::add_why(&mut v, &w),
            Err(_) if lim.expired() => witness::request::add_why_error(
                &mut v,
                "the time limit left no time to find which symbols cannot all be satisfied",
            ),
            Err(e) => witness::request::add_why_error(&mut v, &e.to_string()),
        }
    }
    Ok((200, judged(v, &puzzle)))
}

fn api_count(body: &Value, ctx: &Context, cancel: &Arc<AtomicBool>) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let ms = time_limit(body, &ctx.config)?;
    let (limit, unique) = request::count_limit(body).map_err(bad)?;
    let engine = engine_of(body)?;
    let _slot = ctx.slot()?;
    let t0 = Instant::now();
    let n = witness::count(
        &puzzle,
        &CountOptions {
            limit,
            limits: limits(ms, cancel),
            engine,
        },
    )
    .map_err(lib_err)?;
    let elapsed = t0.elapsed().as_secs_f64() * 1e3;
    let mut v = output::count_json(&n, limit, elapsed);
    if unique {
        let timed_out = output::count_timed_out(&n, limit);
        v["unique"] = json!(request::uniqueness(&n, timed_out));
    }
    witness::request::add_solutions(&mut v, &puzzle, &n);
    Ok((200, judged(v, &puzzle)))
}

fn api_hint(body: &Value, ctx: &Context, cancel: &Arc<AtomicBool>) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let ms = time_limit(body, &ctx.config)?;
    let size = request::hint_size(body).map_err(bad)?;
    let engine = engine_of(body)?;
    let _slot = ctx.slot()?;
    let t0 = Instant::now();
    let h = witness::hint(
        &puzzle,
        &HintOptions {
            size,
            limits: limits(ms, cancel),
            engine,
        },
    )
    .map_err(lib_err)?;
    let elapsed = t0.elapsed().as_secs_f64() * 1e3;
    if h.path.is_none() && h.status == Status::Stopped {
        return Err(stopped(ms));
    }
    Ok((200, judged(output::hint_json(&h, elapsed), &puzzle)))
}

fn api_render(body: &Value, ctx: &Context, cancel: &Arc<AtomicBool>) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let solve = request::solve_flag(body).map_err(bad)?;
    let path = path_of(body, &puzzle)?;
    let ms = time_limit(body, &ctx.config)?;
    let r = if solve {
        if path.is_some() {
            return Err(bad("give either \"path\" or \"solve\", not both"));
        }
        let _slot = ctx.slot()?;
        let r = render::render(&puzzle, Line::Solve, &limits(ms, cancel));
        if let Ok(r) = &r {
            if r.status == Some("timeout") {
                return Err(stopped(ms));
            }
        }
        r
    } else {
        // Checking the path is bounded like a search: the time limit and
        // the client's staying.
        let r = render::render(
            &puzzle,
            path.map_or(Line::None, Line::Path),
            &limits(ms, cancel),
        );
        if let Ok(r) = &r {
            if r.status == Some("timeout") {
                return Err((504, format!("no verdict within the time limit of {ms} ms")));
            }
        }
        r
    }
    .map_err(|e| (422, e))?;
    Ok((200, judged(render::render_json(&r), &puzzle)))
}

/// `/api/generate`: `{"preset" | "symbols", "width", "height", "seed",
/// "minimal", "pillar", "symmetry", "around", "rules", "timeout_ms"}` (a 4x4
/// `mixed` puzzle of seed 1 by default, up to
/// [`witness::generate::REQUEST_MAX_SIDE`] faces a side;
/// `around`, a line the puzzle's only solution must be) answered as a line
/// of `witness generate`; a line no puzzle can be made around, or a field
/// not among [`witness::generate::REQUEST_FIELDS`], is a 400 with
/// the reason.
fn api_generate(
    body: &Value,
    ctx: &Context,
    cancel: &Arc<AtomicBool>,
) -> Result<(u16, Value), Fail> {
    let (mut o, seed) = read_request(body).map_err(lib_bad)?;
    let ms = time_limit(body, &ctx.config)?;
    o.limits = limits(ms, cancel);
    let _slot = ctx.slot()?;
    match witness::generate(&o, seed) {
        Ok(g) => Ok((200, g.to_json(seed, 0).map_err(lib_err)?)),
        Err(witness::Error::Stopped) => Err((
            504,
            format!("no unique puzzle made within the time limit of {ms} ms"),
        )),
        Err(e) => Err(lib_bad(e)),
    }
}

/// A library error about the request's options: bad input (400).
fn lib_bad(e: witness::Error) -> Fail {
    match e {
        witness::Error::Options(_) | witness::Error::Size(_) | witness::Error::Unsupported(_) => {
            bad(e.to_string())
        }
        e => lib_err(e),
    }
}

fn api_convert(body: &Value) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    match request::convert(body, &puzzle) {
        Ok(v) => Ok((200, v)),
        Err(witness::Error::Options(m)) => Err(bad(m)),
        Err(e) => Err(lib_err(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(max_solves: usize) -> Context {
        Context::new(Config {
            max_body: 1 << 20,
            solve_ms: 1000,
            max_solve_ms: 2000,
            max_solves,
            hosts: Vec::new(),
        })
    }

    #[test]
    fn slots_are_limited_and_given_back() {
        let c = ctx(1);
        let a = c.slot().expect("a first slot");
        assert_eq!(c.slot().err().map(|f| f.0), Some(503));
        drop(a);
        assert!(c.slot().is_ok());
    }

    #[test]
    fn a_cancelled_search_stops_at_once() {
        let c = ctx(1);
        let cancel = Arc::new(AtomicBool::new(true));
        // A panel whose exact count takes minutes.
        let puzzle = include_str!("../../tests/data/slow-qyjxsun7.json");
        let body = format!(r#"{{"puzzle": {puzzle}, "timeout_ms": 2000}}"#);
        let t0 = Instant::now();
        let r = respond("count", body.as_bytes(), &c, &cancel);
        assert!(t0.elapsed() < Duration::from_millis(500), "{r:?}");
        assert_eq!(r.status, 200, "{r:?}");
        assert_eq!(r.body["exhaustive"], false, "{r:?}");
    }

    /// `"rules"` picks the rules and every answer names them: a 2x1 panel
    /// walked along its bottom with a mark on each face has two solutions
    /// under the site's rules (the marks cancel in the two paths that keep
    /// them in one region) and none under the Windmill's (marks never
    /// cancel).
    #[test]
    fn rules_pick_the_verdict_and_are_named() {
        let c = ctx(1);
        let cancel = Arc::new(AtomicBool::new(false));
        let puzzle = r#"{"grid":[
            [{"type":"line"},{"type":"line"},{"type":"line","start":true}],
            [{"type":"line"},{"type":"nega","color":"white"},{"type":"line"}],
            [{"type":"line"},{"type":"line"},{"type":"line"}],
            [{"type":"line"},{"type":"nega","color":"white"},{"type":"line"}],
            [{"type":"line"},{"type":"line"},{"type":"line","end":"right"}]]}"#;
        for (rules, count) in [
            ("null", 2),
            (r#""witnesspuzzles""#, 2),
            (r#""windmill""#, 0),
        ] {
            let body = format!(r#"{{"puzzle": {puzzle}, "rules": {rules}}}"#);
            let r = respond("count", body.as_bytes(), &c, &cancel);
            assert_eq!(r.status, 200, "{r:?}");
            assert_eq!(r.body["count"], count, "{rules}: {r:?}");
            let named = if count == 0 {
                "windmill"
            } else {
                "witnesspuzzles"
            };
            assert_eq!(r.body["rules"], named, "{r:?}");
        }
        let body = format!(r#"{{"puzzle": {puzzle}, "path": "0,2:R4", "rules": "windmill"}}"#);
        let r = respond("check", body.as_bytes(), &c, &cancel);
        assert_eq!(
            (r.body["valid"].clone(), r.body["rules"].clone()),
            (json!(false), json!("windmill"))
        );
        let body = format!(r#"{{"puzzle": {puzzle}, "rules": "the site"}}"#);
        assert_eq!(respond("count", body.as_bytes(), &c, &cancel).status, 400);
    }

    #[test]
    fn unknown_endpoints() {
        let c = ctx(1);
        let r = respond("nothing", b"{}", &c, &Arc::new(AtomicBool::new(false)));
        assert_eq!(r.status, 404);
    }
}

//! `witness serve`: a local web page to draw, edit and solve puzzles, and
//! its JSON API.
//!
//! The server is a small HTTP/1.1 implementation on the standard library:
//! one thread per connection (at most [`MAX_CONNECTIONS`]), one request per
//! connection (`Connection: close`). Every limit is explicit: the time to
//! receive a request ([`REQUEST_READ_LIMIT`]), the size of its headers
//! ([`MAX_HEADER_BYTES`]) and body (`--max-body`), the time a solve may take
//! (`--solve-ms`, a request may ask for up to `--max-solve-ms`) and how many
//! solves run at once (`--max-solves`; beyond it a solve gets 503 at once).
//! Solves run on their connection's thread, so a slow one never blocks the
//! page or the other requests.
//!
//! API: `POST /api/{check,solve,count,hint,render,convert}` with a JSON body
//! `{"puzzle": <text in any supported format, or a witnesspuzzles JSON
//! object>, ...options}`; the answer is the JSON of the matching command's
//! `--json` output, errors `{"error": "..."}` with a 4xx or 5xx status.

use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Args as ClapArgs;
use serde_json::{json, Value};
use witness::formats::{self, text, wpjson, Format};
use witness::model::Puzzle;
use witness::{CountOptions, HintOptions, HintSize, Limits, Path, Rules, SolveOptions, Status};

use crate::output;
use crate::render::{self, Line};

/// The default port.
pub const DEFAULT_PORT: u16 = 8080;
/// The default largest request body, in bytes (`--max-body`).
pub const DEFAULT_MAX_BODY: usize = 1 << 20;
/// The largest request line and headers, in bytes.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// The time a client has to send its whole request.
pub const REQUEST_READ_LIMIT: Duration = Duration::from_secs(10);
/// The time a client has to take the answer.
pub const WRITE_LIMIT: Duration = Duration::from_secs(10);
/// The default time limit of a solve, count or hint (`--solve-ms`).
pub const DEFAULT_SOLVE_MS: u64 = 10_000;
/// The default ceiling on the `timeout_ms` a request may ask for
/// (`--max-solve-ms`).
pub const DEFAULT_MAX_SOLVE_MS: u64 = 60_000;
/// The default number of solves, counts and hints run at once
/// (`--max-solves`).
pub const DEFAULT_MAX_SOLVES: usize = 2;
/// Connections served at once; more are answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 64;

const INDEX_HTML: &str = include_str!("web/index.html");
const APP_JS: &str = include_str!("web/app.js");
const STYLE_CSS: &str = include_str!("web/style.css");

/// Options of `witness serve`.
#[derive(ClapArgs)]
pub struct Args {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address to bind; anything but a loopback address exposes the
    /// page to the network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The largest request body, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_BODY)]
    max_body: usize,
    /// The time limit of a solve, count or hint, in milliseconds, unless the
    /// request asks for another (`"timeout_ms"`).
    #[arg(long, default_value_t = DEFAULT_SOLVE_MS)]
    solve_ms: u64,
    /// The longest time limit a request may ask for, in milliseconds.
    #[arg(long, default_value_t = DEFAULT_MAX_SOLVE_MS)]
    max_solve_ms: u64,
    /// How many solves, counts and hints may run at once.
    #[arg(long, default_value_t = DEFAULT_MAX_SOLVES)]
    max_solves: usize,
}

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The default time limit of a search, in milliseconds.
    pub solve_ms: u64,
    /// The longest time limit a request may ask for.
    pub max_solve_ms: u64,
    /// Searches run at once.
    pub max_solves: usize,
    /// The host names the `Host` header may carry (DNS-rebinding guard);
    /// empty accepts any.
    pub hosts: Vec<String>,
}

struct Shared {
    config: Config,
    solves: AtomicUsize,
    connections: AtomicUsize,
}

/// An answer: status, content type, body.
struct Reply {
    status: u16,
    content_type: &'static str,
    body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, v: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: v.to_string().into_bytes(),
        }
    }
    fn error(status: u16, msg: impl Into<String>) -> Reply {
        Reply::json(status, &json!({"error": msg.into()}))
    }
    fn text(content_type: &'static str, body: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: body.as_bytes().to_vec(),
        }
    }
}

/// An error status and its message.
type Fail = (u16, String);

fn bad(msg: impl Into<String>) -> Fail {
    (400, msg.into())
}

/// Runs the server until it is stopped.
pub fn run(a: Args) -> Result<u8, String> {
    if a.max_solves == 0 {
        return Err("--max-solves must be at least 1".into());
    }
    if a.solve_ms == 0 || a.max_solve_ms == 0 {
        return Err("--solve-ms and --max-solve-ms must be at least 1".into());
    }
    let addr = SocketAddr::new(a.bind, a.port);
    let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    let hosts = if a.bind.is_loopback() {
        vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()]
    } else {
        Vec::new()
    };
    if !a.bind.is_loopback() {
        eprintln!("witness: warning: {} is not a loopback address: anyone on the network can use this page", a.bind);
    }
    let config = Config {
        max_body: a.max_body,
        solve_ms: a.solve_ms,
        max_solve_ms: a.max_solve_ms.max(a.solve_ms),
        max_solves: a.max_solves,
        hosts,
    };
    println!("witness: serving http://{local}/ (stop with Ctrl-C)");
    let _ = std::io::stdout().flush();
    serve(listener, config);
    Ok(0)
}

/// Accepts connections forever, each on its own thread.
pub fn serve(listener: TcpListener, config: Config) {
    let shared = Arc::new(Shared {
        config,
        solves: AtomicUsize::new(0),
        connections: AtomicUsize::new(0),
    });
    for stream in listener.incoming() {
        let Ok(mut stream) = stream else { continue };
        if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
            write_reply(
                &mut stream,
                &Reply::error(503, "the server is busy; try again"),
            );
            continue;
        }
        let mine = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("witness-http".into())
            .spawn(move || {
                connection(stream, &mine);
                mine.connections.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A parsed request.
struct Request {
    method: String,
    path: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn connection(mut stream: TcpStream, shared: &Shared) {
    let _ = stream.set_write_timeout(Some(WRITE_LIMIT));
    let reply = match read_request(&mut stream, shared.config.max_body) {
        Ok(req) => catch_unwind(AssertUnwindSafe(|| handle(&req, shared))).unwrap_or_else(|_| {
            Reply::error(500, "internal error: the request crashed its handler")
        }),
        Err((status, msg)) => Reply::error(status, msg),
    };
    write_reply(&mut stream, &reply);
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Unknown",
    }
}

fn write_reply(stream: &mut TcpStream, r: &Reply) {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    if r.content_type.starts_with("text/html") {
        head.push_str(
            "Content-Security-Policy: default-src 'self'; img-src 'self' data: blob:; \
             style-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'\r\n",
        );
    }
    if r.status == 503 {
        head.push_str("Retry-After: 1\r\n");
    }
    head.push_str("\r\n");
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&r.body);
    let _ = stream.flush();
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // Drain what the client may still send, briefly, so closing does not
    // reset the connection before it reads the answer.
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut sink = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_millis(500);
    while Instant::now() < deadline {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
    }
}

/// Reads from the stream within the request's deadline.
fn read_some(stream: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> Result<usize, Fail> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err((408, "the request was not received in time".into()));
    }
    let _ = stream.set_read_timeout(Some(left));
    stream.read(buf).map_err(|e| match e.kind() {
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
            (408, "the request was not received in time".into())
        }
        _ => (400, format!("cannot read the request: {e}")),
    })
}

fn read_request(stream: &mut TcpStream, max_body: usize) -> Result<Request, Fail> {
    let deadline = Instant::now() + REQUEST_READ_LIMIT;
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        if buf.len() > MAX_HEADER_BYTES {
            return Err((
                431,
                format!("the request headers exceed {MAX_HEADER_BYTES} bytes"),
            ));
        }
        let n = read_some(stream, &mut chunk, deadline)?;
        if n == 0 {
            return Err(bad("the connection closed before the request was complete"));
        }
        buf.extend_from_slice(&chunk[..n]);
    };
    if head_end > MAX_HEADER_BYTES {
        return Err((
            431,
            format!("the request headers exceed {MAX_HEADER_BYTES} bytes"),
        ));
    }
    let head = std::str::from_utf8(&buf[..head_end])
        .map_err(|_| bad("the request headers are not UTF-8"))?;
    let mut lines = head.split("\r\n");
    let first = lines.next().unwrap_or_default();
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next())
    else {
        return Err(bad(format!("malformed request line \"{first}\"")));
    };
    if !version.starts_with("HTTP/1.") {
        return Err((501, format!("unsupported protocol {version}")));
    }
    let mut headers = Vec::new();
    for l in lines {
        let Some((k, v)) = l.split_once(':') else {
            return Err(bad(format!("malformed header line \"{l}\"")));
        };
        headers.push((k.trim().to_string(), v.trim().to_string()));
    }
    let mut req = Request {
        method: method.to_string(),
        path: target.split('?').next().unwrap_or("/").to_string(),
        headers,
        body: Vec::new(),
    };
    if req
        .header("transfer-encoding")
        .is_some_and(|v| !v.eq_ignore_ascii_case("identity"))
    {
        return Err((
            411,
            "chunked bodies are not accepted; send a Content-Length".into(),
        ));
    }
    let len = match req.header("content-length") {
        None => 0,
        Some(v) => v
            .parse::<usize>()
            .map_err(|_| bad(format!("bad Content-Length \"{v}\"")))?,
    };
    if len > max_body {
        return Err((
            413,
            format!("the request body is {len} bytes; the limit is {max_body}"),
        ));
    }
    let mut body = buf[head_end + 4..].to_vec();
    while body.len() < len {
        let n = read_some(stream, &mut chunk, deadline)?;
        if n == 0 {
            return Err(bad("the connection closed before the body was complete"));
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(len);
    req.body = body;
    Ok(req)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// The host name of a `Host` header or an origin, without port.
fn host_name(h: &str) -> &str {
    let h = h.trim();
    if h.starts_with('[') {
        return h.split_inclusive(']').next().unwrap_or(h);
    }
    h.split(':').next().unwrap_or(h)
}

/// Refuses requests from other sites: a `Host` that is not this machine
/// (DNS rebinding) or an `Origin` that is not this page.
fn guard(req: &Request, config: &Config) -> Result<(), Fail> {
    let host = req.header("host").unwrap_or("");
    if !config.hosts.is_empty() && !config.hosts.iter().any(|h| h == host_name(host)) {
        return Err((403, format!("the Host \"{host}\" is not this machine")));
    }
    if let Some(origin) = req.header("origin") {
        let ok = origin
            .strip_prefix("http://")
            .is_some_and(|o| o.eq_ignore_ascii_case(host));
        if !ok && origin != "null" {
            return Err((403, format!("requests from {origin} are not accepted")));
        }
    }
    Ok(())
}

fn handle(req: &Request, shared: &Shared) -> Reply {
    if let Err((status, msg)) = guard(req, &shared.config) {
        return Reply::error(status, msg);
    }
    match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/" | "/index.html") => Reply::text("text/html; charset=utf-8", INDEX_HTML),
        ("GET", "/app.js") => Reply::text("text/javascript; charset=utf-8", APP_JS),
        ("GET", "/style.css") => Reply::text("text/css; charset=utf-8", STYLE_CSS),
        ("GET", "/api/health") => Reply::json(200, &json!({"ok": true})),
        ("POST", p) if p.starts_with("/api/") => {
            let name = &p[5..];
            let result = parse_body(&req.body).and_then(|body| match name {
                "check" => api_check(&body),
                "solve" => api_solve(&body, shared),
                "count" => api_count(&body, shared),
                "hint" => api_hint(&body, shared),
                "render" => api_render(&body, shared),
                "convert" => api_convert(&body),
                _ => Err((404, format!("no API endpoint {p}"))),
            });
            match result {
                Ok((status, v)) => Reply::json(status, &v),
                Err((status, msg)) => Reply::error(status, msg),
            }
        }
        (_, p)
            if p.starts_with("/api/")
                || matches!(p, "/" | "/index.html" | "/app.js" | "/style.css") =>
        {
            Reply::error(405, format!("{} is not allowed on {p}", req.method))
        }
        (_, p) => Reply::error(404, format!("nothing at {p}")),
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

/// The body's `"puzzle"`: text in any format (`"format"` names it, or it is
/// guessed) or a witnesspuzzles JSON object.
fn puzzle_of(body: &Value) -> Result<Puzzle, Fail> {
    let format = match body.get("format") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            Some(Format::from_name(s).ok_or_else(|| bad(format!("unknown format \"{s}\"")))?)
        }
        Some(v) => return Err(bad(format!("\"format\" must be a string, not {v}"))),
    };
    match body.get("puzzle") {
        Some(Value::String(s)) => formats::read_puzzle(s, format),
        Some(o @ Value::Object(_)) => wpjson::from_value(o),
        None | Some(Value::Null) => return Err(bad("the body has no \"puzzle\"")),
        Some(v) => {
            return Err(bad(format!(
                "\"puzzle\" must be a string or a JSON object, not {}",
                kind_of(v)
            )))
        }
    }
    .map_err(|e| bad(e.to_string()))
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The body's `"path"`: the site's array or a move string.
fn path_of(body: &Value) -> Result<Option<Path>, Fail> {
    match body.get("path") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Path::parse(s).map(Some),
        Some(a @ Value::Array(_)) => match a.get(0) {
            Some(Value::Array(_)) => Path::from_coordinates(a).map(Some),
            _ => Path::from_site(a).map(Some),
        },
        Some(v) => {
            return Err(bad(format!(
                "\"path\" must be an array or a move string, not {}",
                kind_of(v)
            )))
        }
    }
    .map_err(|e| bad(e.to_string()))
}

/// A slot for a search: held until dropped.
struct SolveSlot<'a>(&'a AtomicUsize);

impl Drop for SolveSlot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

fn solve_slot(shared: &Shared) -> Result<SolveSlot<'_>, Fail> {
    let max = shared.config.max_solves;
    if shared.solves.fetch_add(1, Ordering::SeqCst) >= max {
        shared.solves.fetch_sub(1, Ordering::SeqCst);
        return Err((
            503,
            format!("{max} searches are already running (the limit); try again shortly"),
        ));
    }
    Ok(SolveSlot(&shared.solves))
}

/// The search time limit: the body's `"timeout_ms"` (at most the ceiling),
/// or the default.
fn time_limit(body: &Value, config: &Config) -> Result<u64, Fail> {
    match body.get("timeout_ms") {
        None | Some(Value::Null) => Ok(config.solve_ms),
        Some(v) => match v.as_u64() {
            Some(ms) if ms >= 1 => Ok(ms.min(config.max_solve_ms)),
            _ => Err(bad(format!(
                "\"timeout_ms\" must be a whole number of milliseconds from 1 to {}, not {v}",
                config.max_solve_ms
            ))),
        },
    }
}

fn lib_err(e: witness::Error) -> Fail {
    (422, e.to_string())
}

fn api_check(body: &Value) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let path = path_of(body)?.ok_or_else(|| bad("check needs a \"path\""))?;
    let rules = Rules::new(&puzzle).map_err(lib_err)?;
    let verdict = rules.check_path(&puzzle, &path).map_err(lib_err)?;
    Ok((200, output::verdict_json(&verdict)))
}

fn api_solve(body: &Value, shared: &Shared) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let ms = time_limit(body, &shared.config)?;
    let _slot = solve_slot(shared)?;
    let t0 = Instant::now();
    let sol = witness::solve(
        &puzzle,
        &SolveOptions::default().with_limits(Limits::timeout(Duration::from_millis(ms))),
    )
    .map_err(lib_err)?;
    let elapsed = t0.elapsed().as_secs_f64() * 1e3;
    if sol.path.is_none() && sol.status == Status::Stopped {
        return Err((
            504,
            format!("no solution found within the time limit of {ms} ms"),
        ));
    }
    Ok((200, output::solve_json(&sol, elapsed)))
}

fn api_count(body: &Value, shared: &Shared) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let ms = time_limit(body, &shared.config)?;
    let limit = match body.get("limit") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .filter(|&n| n >= 1)
                .ok_or_else(|| bad(format!("\"limit\" must be a whole number from 1, not {v}")))?,
        ),
    };
    let _slot = solve_slot(shared)?;
    let t0 = Instant::now();
    let n = witness::count(
        &puzzle,
        &CountOptions {
            limit,
            limits: Limits::timeout(Duration::from_millis(ms)),
            ..Default::default()
        },
    )
    .map_err(lib_err)?;
    let elapsed = t0.elapsed().as_secs_f64() * 1e3;
    let mut v = output::count_json(&n, elapsed);
    let capped = limit.is_some_and(|l| n.count >= l);
    v["timeout"] = json!(n.status == Status::Stopped && !capped);
    Ok((200, v))
}

fn api_hint(body: &Value, shared: &Shared) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let ms = time_limit(body, &shared.config)?;
    let size = match (body.get("steps"), body.get("fraction")) {
        (Some(s), _) if !s.is_null() => HintSize::Steps(
            s.as_u64()
                .ok_or_else(|| bad(format!("\"steps\" must be a whole number, not {s}")))?
                .min(usize::MAX as u64) as usize,
        ),
        (_, Some(f)) if !f.is_null() => match f.as_f64() {
            Some(f) if (0.0..=1.0).contains(&f) => HintSize::Fraction(f),
            _ => {
                return Err(bad(format!(
                    "\"fraction\" must be a number from 0 to 1, not {f}"
                )))
            }
        },
        _ => HintSize::Fraction(0.25),
    };
    let _slot = solve_slot(shared)?;
    let t0 = Instant::now();
    let h = witness::hint(
        &puzzle,
        &HintOptions {
            size,
            limits: Limits::timeout(Duration::from_millis(ms)),
            ..Default::default()
        },
    )
    .map_err(lib_err)?;
    let elapsed = t0.elapsed().as_secs_f64() * 1e3;
    if h.path.is_none() && h.status == Status::Stopped {
        return Err((
            504,
            format!("no solution found within the time limit of {ms} ms"),
        ));
    }
    Ok((200, output::hint_json(&h, elapsed)))
}

fn api_render(body: &Value, shared: &Shared) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
    let solve = body.get("solve").is_some_and(|v| v == &Value::Bool(true));
    let path = path_of(body)?;
    let r = if solve {
        if path.is_some() {
            return Err(bad("give either \"path\" or \"solve\", not both"));
        }
        let ms = time_limit(body, &shared.config)?;
        let _slot = solve_slot(shared)?;
        let r = render::render(
            &puzzle,
            Line::Solve(Limits::timeout(Duration::from_millis(ms))),
        );
        if let Ok(r) = &r {
            if r.status == Some("timeout") {
                return Err((
                    504,
                    format!("no solution found within the time limit of {ms} ms"),
                ));
            }
        }
        r
    } else {
        render::render(&puzzle, path.map_or(Line::None, Line::Path))
    }
    .map_err(|e| (422, e))?;
    Ok((200, render::render_json(&r)))
}

fn api_convert(body: &Value) -> Result<(u16, Value), Fail> {
    let puzzle = puzzle_of(body)?;
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
        "json" => wpjson::to_value(&puzzle).map_err(lib_err)?,
        "text" => Value::String(text::to_string(&puzzle)),
        other => {
            return Err(bad(format!(
                "\"to\" must be \"json\" or \"text\", not \"{other}\""
            )))
        }
    };
    Ok((200, json!({"from": from, "to": to, "puzzle": out})))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names() {
        assert_eq!(host_name("127.0.0.1:8080"), "127.0.0.1");
        assert_eq!(host_name("localhost"), "localhost");
        assert_eq!(host_name("[::1]:80"), "[::1]");
    }

    #[test]
    fn finds() {
        assert_eq!(find(b"ab\r\n\r\nc", b"\r\n\r\n"), Some(2));
        assert_eq!(find(b"ab", b"\r\n\r\n"), None);
    }
}

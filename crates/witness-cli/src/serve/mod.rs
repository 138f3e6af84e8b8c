//! `witness serve`: a local web page to draw, edit and solve puzzles, and
//! its JSON API.
//!
//! The server is axum on a tokio runtime, its connections served by hyper
//! from our own accept loop ([`transport`]); the endpoints are plain
//! functions from a JSON request to a JSON answer ([`api`]). HTTP/1.1, one
//! request per connection (`Connection: close`). Every limit is explicit:
//!
//! - connections open at once: [`MAX_CONNECTIONS`]; beyond it a connection
//!   gets 503 at once and is closed;
//! - the request line and headers: [`MAX_HEADER_BYTES`] (431 beyond), all
//!   received within [`HEADER_READ_LIMIT`] from the connection's start
//!   (else it is closed), so a client sending a byte at a time holds its
//!   connection no longer than that and never delays the others;
//! - the body: `--max-body` bytes (413 beyond, from its `Content-Length`
//!   before it is read), received within [`BODY_READ_LIMIT`] (408); chunked
//!   bodies are refused (411) and conflicting `Content-Length` headers too
//!   (400);
//! - a solve, count or hint: `--solve-ms`, a request may ask for up to
//!   `--max-solve-ms`; at most `--max-solves` of them run at once, and
//!   beyond it a search gets 503 at once, never a place in a queue. A
//!   search keeps its place until it has stopped;
//! - the whole request: `--max-solve-ms` plus [`BODY_READ_LIMIT`] and
//!   [`REQUEST_SLACK`] (504 beyond), and the connection as a whole that plus
//!   [`HEADER_READ_LIMIT`] and [`WRITE_LIMIT`].
//!
//! Checks, solves, counts, hints and renders run on tokio's blocking
//! threads (the library gives each job the stack room its panel needs),
//! never on the threads that serve connections. Each carries a cancel flag
//! that is set when its client leaves or its request runs out of time, so
//! a search nobody waits for stops within moments and gives its place
//! back.
//!
//! Requests whose `Host` is not this machine (DNS rebinding; checked when
//! bound to a loopback address, the default) or whose `Origin` is another
//! site (cross-site requests) get 403. A path with more moves than the
//! panel has slots gets 400 before it is expanded.
//!
//! API: `POST /api/{check,solve,count,hint,render,convert}` with a JSON body
//! `{"puzzle": <text in any supported format, or a witnesspuzzles JSON
//! object>, ...options}`; the answer is the JSON of the matching command's
//! `--json` output (`convert` takes `"to"` and `"turn"` as the command's
//! `--to` and `--turn`), errors `{"error": "..."}` with a 4xx or 5xx status.
//! `GET /api/health` answers `{"ok":true}`.

mod api;
mod transport;

use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use clap::Args as ClapArgs;

/// The default port.
pub const DEFAULT_PORT: u16 = 8080;
/// The default largest request body, in bytes (`--max-body`).
pub const DEFAULT_MAX_BODY: usize = 1 << 20;
/// The largest request line and headers, in bytes.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;
/// The time a client has, from the moment it connects, to send its request
/// line and headers.
pub const HEADER_READ_LIMIT: Duration = Duration::from_secs(10);
/// The time a client has to send the body once its headers are in.
pub const BODY_READ_LIMIT: Duration = Duration::from_secs(10);
/// The time a request may take beyond its body and its longest search.
pub const REQUEST_SLACK: Duration = Duration::from_secs(5);
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
pub const MAX_CONNECTIONS: usize = 512;
/// Connections the system holds for the server until it takes them (the
/// system may allow fewer).
pub const LISTEN_BACKLOG: u32 = 1024;
/// Blocking threads beyond `--max-solves`, for checks, renders and
/// conversions (more wait for one to be free).
pub const SPARE_JOB_THREADS: usize = 16;

/// Options of `witness serve`.
#[derive(ClapArgs)]
#[command(after_help = "\
Limits: headers within 10 s of connecting (16 KiB at most), the body within 10 s more; \
a search past --max-solves gets 503 at once; a search whose client leaves is stopped. \
Bound to a loopback address, requests naming another Host or Origin get 403.")]
pub struct Args {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address to bind; anything but a loopback address exposes the
    /// page to the network.
    #[arg(long, default_value = "127.0.0.1")]
    bind: IpAddr,
    /// The largest request body, in bytes; larger ones get 413.
    #[arg(long, default_value_t = DEFAULT_MAX_BODY)]
    max_body: usize,
    /// The time limit of a solve, count or hint, in milliseconds, unless the
    /// request asks for another (`"timeout_ms"`).
    #[arg(long, default_value_t = DEFAULT_SOLVE_MS)]
    solve_ms: u64,
    /// The longest time limit a request may ask for, in milliseconds.
    #[arg(long, default_value_t = DEFAULT_MAX_SOLVE_MS)]
    max_solve_ms: u64,
    /// How many solves, counts and hints (and renders with a solve) may run
    /// at once; one more gets 503 at once rather than waiting.
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

/// Runs the server until it is stopped.
pub fn run(a: Args) -> Result<u8, String> {
    if a.max_solves == 0 {
        return Err("--max-solves must be at least 1".into());
    }
    if a.solve_ms == 0 || a.max_solve_ms == 0 {
        return Err("--solve-ms and --max-solve-ms must be at least 1".into());
    }
    let addr = SocketAddr::new(a.bind, a.port);
    let hosts = if a.bind.is_loopback() {
        vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()]
    } else {
        Vec::new()
    };
    let config = Config {
        max_body: a.max_body,
        solve_ms: a.solve_ms,
        max_solve_ms: a.max_solve_ms.max(a.solve_ms),
        max_solves: a.max_solves,
        hosts,
    };
    ignore_sigpipe();
    let runtime = transport::runtime(&config).map_err(|e| format!("cannot start: {e}"))?;
    runtime.block_on(async {
        let listener =
            transport::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let local = listener.local_addr().map_err(|e| e.to_string())?;
        if !a.bind.is_loopback() {
            eprintln!("witness: warning: {} is not a loopback address: anyone on the network can use this page", a.bind);
        }
        // The address (with `--port 0`, the only place the port shows).
        let mut out = std::io::stdout();
        writeln!(out, "witness: serving http://{local}/ (stop with Ctrl-C)")
            .and_then(|_| out.flush())
            .map_err(|e| format!("cannot write to standard output: {e}"))?;
        transport::serve(listener, config)
            .await
            .map_err(|e| format!("cannot serve on {local}: {e}"))
    })?;
    Ok(0)
}

/// A client that leaves while its answer is written must not stop the
/// server: vectored socket writes raise SIGPIPE, which the command line
/// otherwise leaves fatal.
fn ignore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to ignore touches no Rust state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}

//! HTTP for `witness serve`: the runtime, the accept loop, the axum router
//! and its layers. The endpoints themselves are in [`super::api`].
//!
//! Layers, outermost first: a caught panic becomes a JSON 500; every answer
//! gets `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`;
//! errors the layers below write as text become `{"error": ...}`; foreign
//! `Host` and `Origin` headers and chunked bodies are refused; the request
//! as a whole has a time limit; the body has a size limit.
//!
//! Each connection is served by hyper with a header read timeout counted
//! from the connection's start, under a deadline for the connection as a
//! whole; after the answer, the server closes its side and reads what the
//! client may still send, briefly, so that the client reads the answer
//! rather than a reset.

use std::any::Any;
use std::io::{self, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::Semaphore;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;

use super::api::{self, Reply};
use super::{
    Config, BODY_READ_LIMIT, HEADER_READ_LIMIT, LISTEN_BACKLOG, MAX_CONNECTIONS, MAX_HEADER_BYTES,
    REQUEST_SLACK, SPARE_JOB_THREADS, WRITE_LIMIT,
};

const INDEX_HTML: &str = include_str!("../web/index.html");
const APP_JS: &str = include_str!("../web/app.js");
const BACKEND_JS: &str = include_str!("../web/backend.js");
const PLAYER_JS: &str = include_str!("../web/player.js");
const STYLE_CSS: &str = include_str!("../web/style.css");

const CSP: &str = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; \
                   script-src 'self'; object-src 'none'; frame-ancestors 'none'";

/// How long the server reads what a client still sends after its answer.
const LINGER: Duration = Duration::from_millis(500);

/// What the handlers share.
struct Shared {
    ctx: api::Context,
    /// The time limit of a whole request (body and work).
    request_limit: Duration,
}

/// The runtime: worker threads for the connections, blocking threads for
/// the checks and searches.
pub fn runtime(config: &Config) -> io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .thread_name("witness-serve")
        .max_blocking_threads(config.max_solves + SPARE_JOB_THREADS)
        .enable_io()
        .enable_time()
        .build()
}

/// Listens on `addr` with a backlog of [`LISTEN_BACKLOG`], so that a burst
/// of connections waits for the accept loop rather than being dropped.
/// Must run on [`runtime`].
pub fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(LISTEN_BACKLOG)
}

/// Accepts connections on `listener` forever, each served on its own task.
/// Must run on [`runtime`].
pub async fn serve(listener: TcpListener, config: Config) -> io::Result<()> {
    let request_limit =
        BODY_READ_LIMIT + Duration::from_millis(config.max_solve_ms) + REQUEST_SLACK;
    let shared = Arc::new(Shared {
        ctx: api::Context::new(config),
        request_limit,
    });
    let app = router(shared);
    let connection_limit = HEADER_READ_LIMIT + request_limit + WRITE_LIMIT;
    let open = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors or memory, or a connection reset
                // before it was taken: wait a moment rather than spin.
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            refuse(&stream);
            continue;
        };
        let app = app.clone();
        tokio::spawn(async move {
            connection(stream, app, connection_limit).await;
            drop(permit);
        });
    }
}

/// Answers 503 to a connection over [`MAX_CONNECTIONS`] with one
/// non-blocking write (the answer fits in a new socket's buffer) and
/// closes it.
fn refuse(stream: &TcpStream) {
    let body = json!({"error": "the server is busy; try again"}).to_string();
    let answer = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\nRetry-After: 1\r\n\
         Cache-Control: no-store\r\n\r\n{body}",
        body.len()
    );
    let _ = stream.try_write(answer.as_bytes());
}

/// Serves one connection: one request, within `limit` in all.
async fn connection(stream: TcpStream, app: Router, limit: Duration) {
    let _ = stream.set_nodelay(true);
    let served = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_LIMIT)
        .max_header_size(MAX_HEADER_BYTES)
        .keep_alive(false)
        .title_case_headers(true)
        .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app))
        .without_shutdown();
    // On error or past the deadline the connection is dropped, and with it
    // the request's handler (which cancels its job) and the socket.
    if let Ok(Ok(parts)) = tokio::time::timeout(limit, served).await {
        linger(parts.io.into_inner()).await;
    }
}

/// Closes our side, then reads and drops what the client still sends for
/// up to [`LINGER`] (say the rest of a body refused from its length).
async fn linger(mut stream: TcpStream) {
    let _ = stream.shutdown().await;
    let mut sink = [0u8; 4096];
    let _ = tokio::time::timeout(LINGER, async {
        while let Ok(n) = stream.read(&mut sink).await {
            if n == 0 {
                break;
            }
        }
    })
    .await;
}

fn router(shared: Arc<Shared>) -> Router {
    let max_body = shared.ctx.config.max_body;
    let request_limit = shared.request_limit;
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/app.js", get(app_js))
        .route("/backend.js", get(backend_js))
        .route("/player.js", get(player_js))
        .route("/style.css", get(style_css))
        .route("/api/health", get(health).post(api_call))
        .route("/api/{name}", post(api_call))
        .fallback(fallback)
        .method_not_allowed_fallback(not_allowed)
        .layer(RequestBodyLimitLayer::new(max_body))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::GATEWAY_TIMEOUT,
            request_limit,
        ))
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), guard))
        .layer(middleware::from_fn_with_state(Arc::clone(&shared), finish))
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(SetResponseHeaderLayer::overriding(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(CatchPanicLayer::custom(panicked))
        .with_state(shared)
}

/// A JSON answer.
fn json_response(status: u16, body: &Value) -> Response {
    let mut res = Response::new(Body::from(body.to_string()));
    *res.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res
}

fn reply(r: Reply) -> Response {
    json_response(r.status, &r.body)
}

fn error(status: u16, msg: impl Into<String>) -> Response {
    reply(Reply::error(status, msg))
}

fn text(content_type: &'static str, body: &'static str) -> Response {
    let mut res = Response::new(Body::from(body));
    res.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    res
}

async fn index() -> Response {
    let mut res = text("text/html; charset=utf-8", INDEX_HTML);
    res.headers_mut().insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    res
}

async fn app_js() -> Response {
    text("text/javascript; charset=utf-8", APP_JS)
}

async fn backend_js() -> Response {
    text("text/javascript; charset=utf-8", BACKEND_JS)
}

async fn player_js() -> Response {
    text("text/javascript; charset=utf-8", PLAYER_JS)
}

async fn style_css() -> Response {
    text("text/css; charset=utf-8", STYLE_CSS)
}

async fn health() -> Response {
    json_response(200, &json!({"ok": true}))
}

/// Unknown paths: 404, but `POST /api/...` goes to the API (which names
/// the endpoint it does not know) and other methods there get 405.
async fn fallback(state: State<Arc<Shared>>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    if path.starts_with("/api/") {
        if req.method() == Method::POST {
            return api_call(state, req).await;
        }
        return not_allowed(req).await;
    }
    error(404, format!("nothing at {path}"))
}

async fn not_allowed(req: Request) -> Response {
    error(
        405,
        format!("{} is not allowed on {}", req.method(), req.uri().path()),
    )
}

/// Sets its flag when dropped armed: held by a request's handler, it
/// cancels the request's job when hyper drops the handler (the client
/// left) or the time limit does.
struct CancelOnDrop {
    flag: Arc<AtomicBool>,
    armed: bool,
}

impl CancelOnDrop {
    fn new() -> CancelOnDrop {
        CancelOnDrop {
            flag: Arc::new(AtomicBool::new(false)),
            armed: true,
        }
    }
    /// The job is over: nothing to cancel.
    fn disarm(mut self) {
        self.armed = false;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if self.armed {
            self.flag.store(true, Ordering::Relaxed);
        }
    }
}

/// `POST /api/{name}`: reads the body, then runs the endpoint on a blocking
/// thread with a cancel flag set if this handler is dropped first.
async fn api_call(State(shared): State<Arc<Shared>>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let name = path.strip_prefix("/api/").unwrap_or_default().to_string();
    let body = match read_body(req.into_body(), shared.ctx.config.max_body).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let cancel = CancelOnDrop::new();
    let flag = Arc::clone(&cancel.flag);
    let job = Arc::clone(&shared);
    let done = tokio::task::spawn_blocking(move || {
        let r = api::respond(&name, &body, &job.ctx, &flag);
        if flag.load(Ordering::Relaxed) {
            let _ = writeln!(
                io::stderr(),
                "witness: {path} stopped: its client left or it ran out of time"
            );
        }
        r
    })
    .await;
    cancel.disarm();
    match done {
        Ok(r) => reply(r),
        Err(e) if e.is_panic() => error(500, "internal error: the request crashed its handler"),
        Err(_) => error(503, "the server is stopping"),
    }
}

/// The body, at most `max` bytes, received within [`BODY_READ_LIMIT`].
async fn read_body(body: Body, max: usize) -> Result<Bytes, Response> {
    match tokio::time::timeout(BODY_READ_LIMIT, axum::body::to_bytes(body, max)).await {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) if is_length_limit(&e) => Err(error(413, too_large(max))),
        Ok(Err(e)) => Err(error(400, format!("cannot read the request body: {e}"))),
        Err(_) => Err(error(408, "the request body was not received in time")),
    }
}

fn too_large(max: usize) -> String {
    format!("the request body is too large: the limit is {max} bytes")
}

/// True when the error, or one it wraps, is a body over its size limit.
fn is_length_limit(e: &(dyn std::error::Error + 'static)) -> bool {
    let mut cur = Some(e);
    while let Some(err) = cur {
        if err.is::<http_body_util::LengthLimitError>() {
            return true;
        }
        cur = err.source();
    }
    false
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
fn foreign(headers: &HeaderMap, config: &Config) -> Option<String> {
    let value = |name| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));
    let host = value(header::HOST).unwrap_or("");
    if !config.hosts.is_empty() && !config.hosts.iter().any(|h| h == host_name(host)) {
        return Some(format!("the Host \"{host}\" is not this machine"));
    }
    if let Some(origin) = value(header::ORIGIN) {
        let ok = origin
            .strip_prefix("http://")
            .is_some_and(|o| o.eq_ignore_ascii_case(host));
        if !ok && origin != "null" {
            return Some(format!("requests from {origin} are not accepted"));
        }
    }
    None
}

/// The guard layer: foreign hosts and origins (403), chunked bodies (411).
async fn guard(State(shared): State<Arc<Shared>>, req: Request, next: Next) -> Response {
    if let Some(msg) = foreign(req.headers(), &shared.ctx.config) {
        return error(403, msg);
    }
    if req
        .headers()
        .get(header::TRANSFER_ENCODING)
        .is_some_and(|v| !v.as_bytes().eq_ignore_ascii_case(b"identity"))
    {
        return error(
            411,
            "chunked bodies are not accepted; send a Content-Length",
        );
    }
    next.run(req).await
}

/// The finishing layer: an error the layers below wrote as text (a body
/// over the limit, a request past its time) becomes `{"error": ...}`; a
/// 503 says when to try again.
async fn finish(State(shared): State<Arc<Shared>>, req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if (status.is_client_error() || status.is_server_error()) && !is_json {
        let msg = match status {
            StatusCode::PAYLOAD_TOO_LARGE => too_large(shared.ctx.config.max_body),
            StatusCode::GATEWAY_TIMEOUT => format!(
                "the request was not answered within {} s",
                shared.request_limit.as_secs()
            ),
            s => s.canonical_reason().unwrap_or("error").to_lowercase(),
        };
        res = error(status.as_u16(), msg);
    }
    if status == StatusCode::SERVICE_UNAVAILABLE {
        res.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    res
}

fn panicked(_: Box<dyn Any + Send + 'static>) -> Response {
    error(500, "internal error: the request crashed its handler")
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
    fn foreign_hosts_and_origins() {
        let config = Config {
            max_body: 1,
            solve_ms: 1,
            max_solve_ms: 1,
            max_solves: 1,
            hosts: vec!["localhost".into(), "127.0.0.1".into(), "[::1]".into()],
        };
        let headers = |pairs: &[(&'static str, &'static str)]| {
            let mut h = HeaderMap::new();
            for (k, v) in pairs {
                h.insert(*k, HeaderValue::from_static(v));
            }
            h
        };
        assert_eq!(
            foreign(&headers(&[("host", "127.0.0.1:80")]), &config),
            None
        );
        assert_eq!(
            foreign(
                &headers(&[("host", "[::1]:80"), ("origin", "http://[::1]:80")]),
                &config
            ),
            None
        );
        assert!(foreign(&headers(&[]), &config).is_some());
        assert!(foreign(&headers(&[("host", "evil.example")]), &config).is_some());
        assert!(foreign(
            &headers(&[("host", "localhost:80"), ("origin", "http://evil.example")]),
            &config
        )
        .is_some());
        assert!(foreign(
            &headers(&[("host", "localhost:80"), ("origin", "http://localhost:81")]),
            &config
        )
        .is_some());
    }

    /// A handler dropped before its job ends (a client gone, a time limit
    /// past) sets the job's cancel flag; one that finishes does not.
    #[test]
    fn dropped_handlers_cancel_their_job() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let guard = CancelOnDrop::new();
        let flag = Arc::clone(&guard.flag);
        let slow = async move {
            let _guard = guard;
            tokio::time::sleep(Duration::from_secs(30)).await;
        };
        let out =
            rt.block_on(async { tokio::time::timeout(Duration::from_millis(10), slow).await });
        assert!(out.is_err());
        assert!(flag.load(Ordering::Relaxed));
        let guard = CancelOnDrop::new();
        let flag = Arc::clone(&guard.flag);
        guard.disarm();
        assert!(!flag.load(Ordering::Relaxed));
    }
}

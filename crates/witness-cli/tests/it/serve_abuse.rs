//! `witness serve` under abuse, over real loopback connections: slow
//! clients, oversized and ambiguous requests, clients that leave mid-solve,
//! absurd paths and huge panels. Each test is bounded in time and ends by
//! checking that the server still answers.

use crate::common;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use common::{slow_puzzle, Server, PUZZLE, SOLUTION};
use serde_json::{json, Value};

/// The server's header read limit (`serve::HEADER_READ_LIMIT`).
const HEADER_READ_LIMIT: Duration = Duration::from_secs(10);
/// The server's body read limit (`serve::BODY_READ_LIMIT`).
const BODY_READ_LIMIT: Duration = Duration::from_secs(10);
/// Connections the server serves at once (`serve::MAX_CONNECTIONS`).
const MAX_CONNECTIONS: usize = 512;

/// Reads an answer until the server closes; the status, the headers and
/// the body.
fn answer(s: &mut TcpStream) -> (u16, String, String) {
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if out.is_empty() => panic!("no answer: {e}"),
            Err(_) => break,
        }
    }
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a complete answer");
    (
        head[9..12].parse().unwrap(),
        head.to_string(),
        body.to_string(),
    )
}

/// True once the server has closed the connection (read gives 0 or an
/// error), without waiting.
fn closed(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 64];
    match s.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => e.kind() != ErrorKind::WouldBlock,
    }
}

/// 150 clients sending their headers one byte every 50 ms do not delay the
/// page: `GET /` is answered within 1 s throughout, while every slow
/// client is still connected. Each is then closed once the header read
/// limit has passed since it connected, though it never stopped sending.
#[test]
fn slow_clients_do_not_lock_the_page_out() {
    const CLIENTS: usize = 150;
    let s = Server::start(&[]);
    let port = s.port;
    let mut slow: Vec<(TcpStream, Instant)> = (0..CLIENTS)
        .map(|_| (s.connect(), Instant::now()))
        .collect();
    let opened = Instant::now();
    eprintln!(
        "{CLIENTS} slow clients connected in {:?}",
        opened - slow[0].1
    );
    for (c, _) in &slow {
        c.set_nonblocking(true).unwrap();
    }
    let gone = Arc::new(AtomicUsize::new(0));
    let gone_t = Arc::clone(&gone);
    let trickle = thread::spawn(move || {
        let head = format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nX-Slow: ");
        let mut closed_at: Vec<Option<Duration>> = vec![None; CLIENTS];
        let mut i = 0;
        while closed_at.iter().any(Option::is_none)
            && opened.elapsed() < HEADER_READ_LIMIT + Duration::from_secs(8)
        {
            let byte = head.as_bytes().get(i).copied().unwrap_or(b'a');
            for ((c, since), at) in slow.iter_mut().zip(closed_at.iter_mut()) {
                if at.is_none() && (c.write(&[byte]).is_err() || closed(c)) {
                    *at = Some(since.elapsed());
                    gone_t.fetch_add(1, Ordering::SeqCst);
                }
            }
            i += 1;
            thread::sleep(Duration::from_millis(50));
        }
        closed_at
    });
    thread::sleep(Duration::from_millis(300));
    let mut worst = Duration::ZERO;
    for _ in 0..10 {
        let t0 = Instant::now();
        let (status, _, body) = s.get("/");
        let took = t0.elapsed();
        assert_eq!(status, 200);
        assert!(body.contains("<script src=\"app.js\""));
        assert!(took < Duration::from_secs(1), "GET / took {took:?}");
        worst = worst.max(took);
        thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(
        gone.load(Ordering::SeqCst),
        0,
        "slow clients were dropped while the page was asked for"
    );
    eprintln!("GET / beside {CLIENTS} slow clients: at most {worst:?} over 10 requests");
    let closed_at = trickle.join().unwrap();
    let times: Vec<Duration> = closed_at.iter().flatten().copied().collect();
    eprintln!(
        "slow clients closed {:?} to {:?} after they connected",
        times.iter().min(),
        times.iter().max()
    );
    for at in &closed_at {
        let at = at.expect("every slow client is closed by the server");
        assert!(
            at >= HEADER_READ_LIMIT - Duration::from_millis(500)
                && at < HEADER_READ_LIMIT + Duration::from_secs(5),
            "a slow client was closed after {at:?}"
        );
    }
    assert!(s.healthy());
}

/// A client that sends its headers, then its body a byte every 100 ms, gets
/// 408 once the body read limit has passed.
#[test]
fn a_slow_body_gets_408() {
    let s = Server::start(&[]);
    let mut c = s.connect();
    write!(
        c,
        "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n"
    )
    .unwrap();
    let t0 = Instant::now();
    let done = Arc::new(AtomicUsize::new(0));
    let done_w = Arc::clone(&done);
    let mut w = c.try_clone().unwrap();
    let writer = thread::spawn(move || {
        while done_w.load(Ordering::SeqCst) == 0 && t0.elapsed() < Duration::from_secs(20) {
            if w.write_all(b" ").is_err() {
                break;
            }
            thread::sleep(Duration::from_millis(100));
        }
    });
    let (status, _, body) = answer(&mut c);
    let took = t0.elapsed();
    done.store(1, Ordering::SeqCst);
    assert_eq!(status, 408, "{body}");
    assert!(body.contains("not received in time"), "{body}");
    assert!(
        took >= BODY_READ_LIMIT - Duration::from_millis(500)
            && took < BODY_READ_LIMIT + Duration::from_secs(5),
        "{took:?}"
    );
    writer.join().unwrap();
    assert!(s.healthy());
}

/// With every connection slot taken by idle clients, one more connection
/// is answered 503 at once (the accept loop never waits on a client), and
/// once the idle clients leave the page is served again.
#[test]
fn connections_over_the_limit_get_503_at_once() {
    let s = Server::start(&[]);
    let idle: Vec<TcpStream> = (0..MAX_CONNECTIONS).map(|_| s.connect()).collect();
    let t0 = Instant::now();
    let refused = loop {
        assert!(
            t0.elapsed() < Duration::from_secs(20),
            "no connection was refused"
        );
        // A refused connection is answered before it asks; one that was
        // taken in (the idle ones not all taken yet) is asked for its
        // health and closed.
        let mut c = s.connect();
        c.set_read_timeout(Some(Duration::from_millis(1_000)))
            .unwrap();
        let mut first = [0u8; 1];
        let t1 = Instant::now();
        if c.peek(&mut first).is_ok_and(|n| n == 1) {
            let took = t1.elapsed();
            break (took, answer(&mut c));
        }
        write!(c, "GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
        assert_eq!(answer(&mut c).0, 200);
    };
    let (took, (status, head, body)) = refused;
    eprintln!("a connection over the limit was refused in {took:?}");
    assert_eq!(status, 503, "{head}");
    assert!(head.contains("Retry-After: 1"), "{head}");
    assert!(body.contains("busy"), "{body}");
    // At once: well before the 10 s a connection has to send its header.
    assert!(took < Duration::from_millis(1_000), "{took:?}");
    drop(idle);
    let t0 = Instant::now();
    while !s.healthy() {
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "the page stays refused"
        );
        thread::sleep(Duration::from_millis(50));
    }
}

/// A body over `--max-body` (the default 1 MiB) is refused with 413 from
/// its `Content-Length`, while the client is still sending it, and the
/// client reads that answer.
#[test]
fn a_body_over_the_limit_gets_413() {
    let s = Server::start(&[]);
    let size = (1 << 20) + 1;
    let mut c = s.connect();
    write!(
        c,
        "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
    )
    .unwrap();
    let mut w = c.try_clone().unwrap();
    let writer = thread::spawn(move || {
        let chunk = vec![b' '; 64 * 1024];
        let mut left = size;
        while left > 0 {
            let n = left.min(chunk.len());
            if w.write_all(&chunk[..n]).is_err() {
                break;
            }
            left -= n;
        }
    });
    let (status, _, body) = answer(&mut c);
    assert_eq!(status, 413, "{body}");
    let v: Value = serde_json::from_str(&body).expect("a JSON answer");
    assert!(
        v["error"].as_str().unwrap().contains("limit is 1048576"),
        "{v}"
    );
    writer.join().unwrap();
    assert!(s.healthy());
}

/// Two `Content-Length` headers that disagree, or one listing two values,
/// are refused with 400 (a request read two ways is how requests are
/// smuggled past a proxy); the same request with one is answered.
#[test]
fn conflicting_content_lengths_get_400() {
    let s = Server::start(&[]);
    let body = json!({"puzzle": PUZZLE, "path": SOLUTION}).to_string();
    let n = body.len();
    let two = format!(
        "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {n}\r\nContent-Length: {}\r\n\r\n{body}",
        n - 1
    );
    assert_eq!(s.raw(two.as_bytes()).0, 400);
    let listed = format!(
        "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {n}, {}\r\n\r\n{body}",
        n - 1
    );
    assert_eq!(s.raw(listed.as_bytes()).0, 400);
    let one =
        format!("POST /api/check HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {n}\r\n\r\n{body}");
    let (status, _, answer) = s.raw(one.as_bytes());
    assert_eq!(status, 200, "{answer}");
    assert!(answer.contains("\"valid\":true"), "{answer}");
    assert!(s.healthy());
}

/// A client that leaves mid-search has its search stopped: with one search
/// slot, a count that would run for a minute holds it (a solve gets 503),
/// and once its client disconnects the slot is free again within moments.
#[test]
fn a_client_that_leaves_has_its_search_cancelled() {
    let s = Server::start(&["--max-solves", "1"]);
    let body = json!({"puzzle": slow_puzzle(), "timeout_ms": 60_000}).to_string();
    let send_count = || {
        let mut c = s.connect();
        write!(
            c,
            "POST /api/count HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        c.set_nonblocking(true).unwrap();
        c
    };
    let mut c = send_count();
    let solve = || s.post("/api/solve", &json!({"puzzle": PUZZLE})).0;
    let t0 = Instant::now();
    while solve() != 503 {
        assert!(
            t0.elapsed() < Duration::from_secs(10),
            "the count never took the search slot"
        );
        // A probing solve may have held the one slot when the count came,
        // and the count was refused at once: send it again.
        let mut byte = [0u8; 1];
        match c.read(&mut byte) {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            _ => c = send_count(),
        }
        thread::sleep(Duration::from_millis(20));
    }
    drop(c);
    let t0 = Instant::now();
    loop {
        match solve() {
            200 => break,
            503 => assert!(
                t0.elapsed() < Duration::from_secs(3),
                "the slot is still held {:?} after the client left",
                t0.elapsed()
            ),
            other => panic!("a solve got {other}"),
        }
        thread::sleep(Duration::from_millis(20));
    }
    eprintln!("search slot free {:?} after its client left", t0.elapsed());
    assert!(s.healthy());
}

/// A move string that spells out billions of moves (`U100000` again and
/// again, under 1 MiB) gets a clear 400 at once rather than being
/// expanded; a long path in the site's array form gets 422 (it leaves the
/// panel).
#[test]
fn over_long_paths_get_a_clear_error() {
    let s = Server::start(&[]);
    let path = format!("0,4:{}", "U100000".repeat(140_000));
    for endpoint in ["/api/check", "/api/render"] {
        let t0 = Instant::now();
        let (status, v) = s.post(endpoint, &json!({"puzzle": PUZZLE, "path": path}));
        assert_eq!(status, 400, "{endpoint}: {v}");
        let msg = v["error"].as_str().unwrap();
        assert!(
            msg.contains("14000000000 moves") && msg.contains("at most 25"),
            "{msg}"
        );
        assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
    }
    let mut site = vec![json!({"x": 0, "y": 4})];
    site.extend(std::iter::repeat_n(json!(3), 100_000));
    let (status, v) = s.post("/api/check", &json!({"puzzle": PUZZLE, "path": site}));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("more than"), "{v}");
    assert!(s.healthy());
}

/// Searches of a very large panel (an empty 32x32 Windmill panel, whose
/// search recurses once per step of paths thousands of steps long) are
/// answered, and the server lives on.
#[test]
fn searches_of_a_huge_panel_are_answered() {
    let s = Server::start(&[]);
    let code = "CEESAihAEgIIBBIDKP8fEgIIAxICKEA=_0";
    let (status, v) = s.post("/api/count", &json!({"puzzle": code, "timeout_ms": 1500}));
    assert_eq!(status, 200, "{v}");
    assert!(v["count"].as_u64().unwrap() > 0, "{v}");
    let (status, v) = s.post("/api/solve", &json!({"puzzle": code, "timeout_ms": 5000}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["solved"], true, "{v}");
    let (status, v) = s.post("/api/hint", &json!({"puzzle": code, "timeout_ms": 5000}));
    assert_eq!(status, 200, "{v}");
    assert!(s.healthy());
}

#[test]
fn a_check_that_could_run_for_minutes_stops_at_its_limit() {
    let s = Server::start(&[]);
    let t0 = Instant::now();
    let (status, v) = s.post(
        "/api/check",
        &json!({"puzzle": common::tiling_panel(), "path": "0,60:R60U60", "timeout_ms": 300}),
    );
    assert_eq!(status, 504, "{v}");
    assert!(v["error"].as_str().unwrap().contains("no verdict"), "{v}");
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    assert!(s.healthy());
}

#[test]
fn a_check_of_the_largest_panel_of_pieces_is_answered() {
    // 4,096 monominoes on the largest panel: a fit thousands of levels
    // deep, on the server's blocking threads.
    let s = Server::start(&[]);
    let body = json!({"puzzle": common::monomino_panel(), "path": "0,128:R128U128"});
    let (status, v) = s.post("/api/check", &body);
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["valid"], true, "{v}");
    let (status, v) = s.post("/api/render", &body);
    assert_eq!(status, 200, "{v}");
    assert!(s.healthy());
}

#[test]
fn a_render_whose_check_could_run_for_minutes_stops_at_its_limit() {
    let s = Server::start(&[]);
    let t0 = Instant::now();
    let (status, v) = s.post(
        "/api/render",
        &json!({"puzzle": common::tiling_panel(), "path": "0,60:R60U60", "timeout_ms": 300}),
    );
    assert_eq!(status, 504, "{v}");
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    // 0 asks for no limit: the server's ceiling, here a short one.
    let s = Server::start(&["--max-solve-ms", "300"]);
    let (status, v) = s.post(
        "/api/check",
        &json!({"puzzle": common::tiling_panel(), "path": "0,60:R60U60", "timeout_ms": 0}),
    );
    assert_eq!(status, 504, "{v}");
    assert!(s.healthy());
}

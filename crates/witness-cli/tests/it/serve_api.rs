//! The `witness serve` API, over real loopback connections: every endpoint,
//! the page's files, and the limits (body size, malformed input, time
//! limit, concurrent solves, foreign hosts and origins).

use crate::common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::{slow_puzzle, Server, PUZZLE, SOLUTION};
use serde_json::{json, Value};

#[test]
fn page_and_static_files() {
    let s = Server::start(&[]);
    let (status, head, body) = s.get("/");
    assert_eq!(status, 200);
    assert!(head.contains("text/html"));
    assert!(head.contains("Content-Security-Policy"));
    assert!(body.contains("<script src=\"app.js\""));
    let (status, head, body) = s.get("/app.js");
    assert_eq!(status, 200);
    assert!(head.contains("text/javascript") && body.contains("api('render'"));
    for file in ["/backend.js", "/player.js"] {
        let (status, head, body) = s.get(file);
        assert_eq!(status, 200, "{file}");
        assert!(
            head.contains("text/javascript")
                && (body.contains("witnessApp") || body.contains("WitnessBackend")),
            "{file}"
        );
    }
    let (status, head, _) = s.get("/style.css");
    assert_eq!(status, 200);
    assert!(head.contains("text/css"));
    assert_eq!(s.get("/nothing").0, 404);
    assert_eq!(s.get("/api/solve").0, 405);
    let (status, _, body) = s.get("/api/health");
    assert_eq!((status, body.as_str()), (200, r#"{"ok":true}"#));
}

#[test]
fn check_endpoint() {
    let s = Server::start(&[]);
    let (status, v) = s.post("/api/check", &json!({"puzzle": PUZZLE, "path": SOLUTION}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["valid"], true);
    assert_eq!(v["negations"], json!([[[1, 1], [3, 3]]]));
    // The site's array form, with the puzzle as a JSON object: a wrong path.
    let puzzle: Value = serde_json::from_str(PUZZLE).unwrap();
    let (status, v) = s.post(
        "/api/check",
        &json!({"puzzle": puzzle, "path": [{"x": 0, "y": 4}, 2, 2, 2, 2, 3, 3, 3, 3, 0]}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["valid"], false);
    assert!(!v["invalid"].as_array().unwrap().is_empty());
    // An illegal path is an error that says why.
    let (status, v) = s.post("/api/check", &json!({"puzzle": PUZZLE, "path": "0,4:R2"}));
    assert_eq!(status, 422);
    assert!(
        v["error"].as_str().unwrap().contains("not an endpoint"),
        "{v}"
    );
    let (status, v) = s.post("/api/check", &json!({"puzzle": PUZZLE}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("path"));
}

#[test]
fn solve_endpoint() {
    let s = Server::start(&[]);
    let (status, v) = s.post("/api/solve", &json!({"puzzle": PUZZLE}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["solved"], true);
    assert_eq!(v["moves"], SOLUTION);
    assert!(v["path"].is_array() && v["ms"].is_number());
    // No solution, proved: still a 200 answer.
    let mut blocked: Value = serde_json::from_str(PUZZLE).unwrap();
    blocked["grid"][0][3]["gap"] = json!(1);
    blocked["grid"][1][4]["gap"] = json!(1);
    let (status, v) = s.post("/api/solve", &json!({"puzzle": blocked}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["solved"].clone(), v["status"].clone()),
        (json!(false), json!("none"))
    );
    // The gaps shut the start in: no line reaches an end at all.
    assert_eq!(
        (v["why"].clone(), v["why_no_line"].clone()),
        (json!([]), json!(true)),
        "{v}"
    );
    // Dots on the top edge (1,0) and the right edge (2,1) of a 1x1 panel
    // whose end is the top-right corner: the line enters the end once, so
    // it covers one of them only; the square is satisfied whatever.
    let dots = json!({"grid": [
        [{"type": "line"}, {"type": "line"}, {"type": "line", "start": true}],
        [{"type": "line", "dot": 1}, {"type": "square", "color": "black"}, {"type": "line"}],
        [{"type": "line", "end": "right"}, {"type": "line", "dot": 1}, {"type": "line"}]]});
    let (status, v) = s.post("/api/solve", &json!({"puzzle": dots}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["why"], json!([{"x": 1, "y": 0}, {"x": 2, "y": 1}]), "{v}");
    assert_eq!(
        (v["why_no_line"].clone(), v["why_minimal"].clone()),
        (json!(false), json!(true))
    );
    // Rendered with its solution asked for, the two dots are ringed.
    let (status, v) = s.post("/api/render", &json!({"puzzle": dots, "solve": true}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["why"], json!([{"x": 1, "y": 0}, {"x": 2, "y": 1}]), "{v}");
}

#[test]
fn solve_time_limit() {
    let s = Server::start(&[]);
    let t0 = Instant::now();
    let (status, v) = s.post(
        "/api/solve",
        &json!({"puzzle": slow_puzzle(), "timeout_ms": 150}),
    );
    assert_eq!(status, 504, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("time limit of 150 ms"),
        "{v}"
    );
    assert!(t0.elapsed() < Duration::from_secs(20));
    let (status, _) = s.post(
        "/api/hint",
        &json!({"puzzle": slow_puzzle(), "timeout_ms": 100}),
    );
    assert_eq!(status, 504);
    let (status, v) = s.post(
        "/api/render",
        &json!({"puzzle": slow_puzzle(), "solve": true, "timeout_ms": 100}),
    );
    assert_eq!(status, 504, "{v}");
    // The ceiling on requested limits applies.
    let s = Server::start(&["--solve-ms", "100", "--max-solve-ms", "200"]);
    let t0 = Instant::now();
    let (status, _) = s.post(
        "/api/solve",
        &json!({"puzzle": slow_puzzle(), "timeout_ms": 600_000}),
    );
    assert_eq!(status, 504);
    assert!(t0.elapsed() < Duration::from_secs(10));
}

#[test]
fn count_endpoint() {
    let s = Server::start(&[]);
    let (status, v) = s.post("/api/count", &json!({"puzzle": PUZZLE}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["count"].clone(), v["exhaustive"].clone()),
        (json!(1), json!(true))
    );
    assert_eq!(v["timeout"], false);
    // A count that runs out of time gives what it found, marked.
    let (status, v) = s.post(
        "/api/count",
        &json!({"puzzle": slow_puzzle(), "timeout_ms": 100}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["exhaustive"].clone(), v["timeout"].clone()),
        (json!(false), json!(true))
    );
    let (status, _) = s.post("/api/count", &json!({"puzzle": PUZZLE, "limit": 0}));
    assert_eq!(status, 400);
    // A uniqueness count of a panel with several solutions (a bare 1x1:
    // up then right, right then up) answers with two of them, from the
    // count itself, and where they part.
    let bare = "witness 1x1\n+ - E\n| . |\nS - +\n";
    let (status, v) = s.post("/api/count", &json!({"puzzle": bare, "limit": 2}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["count"], 2, "{v}");
    let two = v["solutions"].as_array().expect("two solutions");
    assert_eq!(two.len(), 2, "{v}");
    assert_ne!(two[0], two[1], "{v}");
    assert_eq!(v["part"], json!({"x": 0, "y": 2}), "{v}");
    // "unique" asks as `count --unique` does, and answers in its words.
    let (status, v) = s.post("/api/count", &json!({"puzzle": bare, "unique": true}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(
        (v["count"].clone(), v["unique"].clone()),
        (json!(2), json!("not unique")),
        "{v}"
    );
    let (status, v) = s.post("/api/count", &json!({"puzzle": PUZZLE, "unique": true}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["unique"], "unique", "{v}");
    assert_eq!(v["solutions"].as_array().map(Vec::len), Some(1), "{v}");
    let (status, v) = s.post(
        "/api/count",
        &json!({"puzzle": bare, "unique": true, "limit": 5}),
    );
    assert_eq!(status, 400, "{v}");
}

#[test]
fn hint_endpoint() {
    let s = Server::start(&[]);
    let (status, v) = s.post("/api/hint", &json!({"puzzle": PUZZLE, "steps": 1}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["moves"], "0,4:U2");
    assert_eq!(v["path"], json!([{"x": 0, "y": 4}, 3, 3, 0]));
    let (status, v) = s.post("/api/hint", &json!({"puzzle": PUZZLE}));
    assert_eq!(status, 200);
    assert!(SOLUTION.starts_with(v["moves"].as_str().unwrap()));
    let (status, _) = s.post("/api/hint", &json!({"puzzle": PUZZLE, "fraction": 2.0}));
    assert_eq!(status, 400);
}

#[test]
fn render_endpoint() {
    let s = Server::start(&[]);
    let (status, v) = s.post("/api/render", &json!({"puzzle": PUZZLE}));
    assert_eq!(status, 200, "{v}");
    assert!(v["svg"].as_str().unwrap().starts_with("<svg "));
    assert!(v["valid"].is_null() && v["path"].is_null());
    let (status, v) = s.post(
        "/api/render",
        &json!({"puzzle": PUZZLE, "path": "0,4:U2R4U2"}),
    );
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["valid"], false);
    assert!(v["svg"].as_str().unwrap().contains("class=\"error\""));
    // A line still being drawn: drawn, with the reason it is not finished.
    let (status, v) = s.post("/api/render", &json!({"puzzle": PUZZLE, "path": "0,4:U2"}));
    assert_eq!(status, 200);
    assert!(v["illegal"].as_str().unwrap().contains("not an endpoint"));
    let (status, v) = s.post("/api/render", &json!({"puzzle": PUZZLE, "solve": true}));
    assert_eq!(status, 200);
    assert_eq!(
        (v["valid"].clone(), v["moves"].clone()),
        (json!(true), json!(SOLUTION))
    );
}

#[test]
fn convert_endpoint() {
    let s = Server::start(&[]);
    let (status, v) = s.post("/api/convert", &json!({"puzzle": PUZZLE, "to": "text"}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["from"], "json");
    let text = v["puzzle"].as_str().unwrap().to_string();
    assert!(text.starts_with("witness 2x2"));
    // And back: the text format reads into the same puzzle.
    let (status, v) = s.post("/api/convert", &json!({"puzzle": text, "to": "json"}));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["from"], "text");
    let (_, check) = s.post(
        "/api/check",
        &json!({"puzzle": v["puzzle"], "path": SOLUTION}),
    );
    assert_eq!(check["valid"], true);
    let (status, _) = s.post("/api/convert", &json!({"puzzle": PUZZLE, "to": "png"}));
    assert_eq!(status, 400);
    // Turned over left to right, the solution is turned with it: the start
    // (0,4) goes to (4,4) and each move right becomes a move left.
    let (status, v) = s.post("/api/convert", &json!({"puzzle": PUZZLE, "turn": "x"}));
    assert_eq!(status, 200, "{v}");
    let (_, check) = s.post(
        "/api/check",
        &json!({"puzzle": v["puzzle"], "path": "4,4:U4L2D2L2U2"}),
    );
    assert_eq!(check["valid"], true, "{check}");
    let (status, v) = s.post("/api/convert", &json!({"puzzle": PUZZLE, "turn": "z"}));
    assert_eq!(status, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("\"turn\""), "{v}");
    // Four quarter turns clockwise ("tx") give the panel back, the first
    // one a panel of another JSON.
    let (_, original) = s.post("/api/convert", &json!({"puzzle": PUZZLE}));
    let mut p = original["puzzle"].clone();
    for n in 0..4 {
        let (status, v) = s.post("/api/convert", &json!({"puzzle": p, "turn": "tx"}));
        assert_eq!(status, 200, "{v}");
        p = v["puzzle"].clone();
        assert_eq!(
            p == original["puzzle"],
            n == 3,
            "after {} quarter turns",
            n + 1
        );
    }
}

#[test]
fn bad_requests() {
    let s = Server::start(&["--max-body", "4096"]);
    // Too large: refused from its Content-Length, before reading it.
    let big = json!({"puzzle": "x".repeat(5000)}).to_string();
    let (status, v) = s.post_text("/api/solve", &big);
    assert_eq!(status, 413);
    assert!(
        v["error"].as_str().unwrap().contains("limit is 4096"),
        "{v}"
    );
    // Malformed puzzle, malformed body, missing or mistyped puzzle.
    let (status, v) = s.post("/api/solve", &json!({"puzzle": "{\"grid\": 3}"}));
    assert_eq!(status, 400);
    assert!(v["error"].as_str().unwrap().contains("grid"), "{v}");
    let (status, v) = s.post(
        "/api/check",
        &json!({"puzzle": "no format at all", "path": SOLUTION}),
    );
    assert_eq!(status, 400, "{v}");
    let (status, _) = s.post_text("/api/solve", "{not json");
    assert_eq!(status, 400);
    let (status, _) = s.post_text("/api/solve", "[1, 2]");
    assert_eq!(status, 400);
    let (status, _) = s.post("/api/solve", &json!({}));
    assert_eq!(status, 400);
    let (status, _) = s.post("/api/solve", &json!({"puzzle": 7}));
    assert_eq!(status, 400);
    let (status, _) = s.post("/api/solve", &json!({"puzzle": PUZZLE, "format": "nope"}));
    assert_eq!(status, 400);
    let (status, _) = s.post("/api/nothing", &json!({"puzzle": PUZZLE}));
    assert_eq!(status, 404);
    // A field the endpoint does not read is named, not passed over; the
    // fields it reads are listed.
    for (endpoint, field, reads) in [
        ("/api/solve", "engin", "\"engine\""),
        ("/api/count", "bogus", "\"unique\""),
        ("/api/check", "engine", "\"path\""),
        ("/api/render", "steps", "\"solve\""),
        ("/api/convert", "timeout_ms", "\"turn\""),
    ] {
        let mut body = json!({"puzzle": PUZZLE, field: 1});
        if endpoint == "/api/check" {
            body["path"] = json!(SOLUTION);
        }
        let (status, v) = s.post(endpoint, &body);
        assert_eq!(status, 400, "{endpoint}: {v}");
        let e = v["error"].as_str().unwrap_or_default();
        assert!(
            e.starts_with(&format!("unknown field \"{field}\"")),
            "{endpoint}: {v}"
        );
        assert!(e.contains(reads), "{endpoint}: {v}");
    }
    let (status, v) = s.post("/api/render", &json!({"puzzle": PUZZLE, "solve": "yes"}));
    assert_eq!(status, 400, "{v}");
    // Chunked bodies and bad lengths.
    let (status, _, _) = s.raw(
        b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    );
    assert_eq!(status, 411);
    let (status, _, _) =
        s.raw(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: x\r\n\r\n");
    assert_eq!(status, 400);
    // Oversized headers.
    let long = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Junk: {}\r\n\r\n",
        "a".repeat(20_000)
    );
    assert_eq!(s.raw(long.as_bytes()).0, 431);
}

#[test]
fn foreign_hosts_and_origins_are_refused() {
    let s = Server::start(&[]);
    let (status, _, _) = s.raw(b"GET / HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n");
    assert_eq!(status, 403);
    let body = json!({"puzzle": PUZZLE}).to_string();
    let req = format!(
        "POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nOrigin: http://evil.example\r\nContent-Length: {}\r\n\r\n{body}",
        s.port,
        body.len()
    );
    assert_eq!(s.raw(req.as_bytes()).0, 403);
    let req = format!(
        "POST /api/solve HTTP/1.1\r\nHost: localhost:{0}\r\nOrigin: http://localhost:{0}\r\nContent-Length: {1}\r\n\r\n{body}",
        s.port,
        body.len()
    );
    assert_eq!(s.raw(req.as_bytes()).0, 200);
}

#[test]
fn concurrent_searches_are_limited_and_slow_ones_do_not_block() {
    let s = Server::start(&["--max-solves", "1"]);
    let port = s.port;
    // An idle connection that never sends its request.
    let _idle = TcpStream::connect(("127.0.0.1", port)).unwrap();
    // A search that runs until its time limit: the exact count of the
    // slow panel (searches of every kind share the limit).
    let slow = std::thread::spawn(move || {
        let body = json!({"puzzle": slow_puzzle(), "timeout_ms": 3000}).to_string();
        let mut st = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let req = format!(
            "POST /api/count HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        st.write_all(req.as_bytes()).unwrap();
        let mut out = String::new();
        st.read_to_string(&mut out).unwrap();
        out
    });
    std::thread::sleep(Duration::from_millis(500));
    // While it runs: a second search is refused at once, the page and
    // renders are served.
    let t0 = Instant::now();
    let (status, v) = s.post("/api/solve", &json!({"puzzle": PUZZLE}));
    assert_eq!(status, 503, "{v}");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("1 search is already running"),
        "{v}"
    );
    assert_eq!(s.get("/").0, 200);
    assert_eq!(s.post("/api/render", &json!({"puzzle": PUZZLE})).0, 200);
    assert_eq!(
        s.post("/api/check", &json!({"puzzle": PUZZLE, "path": SOLUTION}))
            .0,
        200
    );
    assert!(
        t0.elapsed() < Duration::from_millis(2000),
        "{:?}",
        t0.elapsed()
    );
    let out = slow.join().unwrap();
    assert!(out.starts_with("HTTP/1.1 200"), "{out}");
    assert!(out.contains("\"timeout\":true"), "{out}");
    // Once it is over, solving works again.
    assert_eq!(s.post("/api/solve", &json!({"puzzle": PUZZLE})).0, 200);
}

#[test]
fn engine_option() {
    let s = Server::start(&[]);
    // Every engine answers solve, count and hint on a panel without
    // pieces; the SAT engine's path is one the validator accepts.
    let mut plain: Value = serde_json::from_str(PUZZLE).unwrap();
    plain["grid"][3][3] = json!({"type": "nonce"});
    for engine in ["search", "sat", "auto"] {
        let (status, v) = s.post("/api/solve", &json!({"puzzle": plain, "engine": engine}));
        assert_eq!(status, 200, "{engine}: {v}");
        assert_eq!(v["solved"], true, "{engine}: {v}");
        let (status, c) = s.post(
            "/api/check",
            &json!({"puzzle": plain, "path": v["path"].clone()}),
        );
        assert_eq!(
            (status, c["valid"].clone()),
            (200, json!(true)),
            "{engine}: {c}"
        );
        let (status, v) = s.post(
            "/api/count",
            &json!({"puzzle": plain, "limit": 2, "engine": engine}),
        );
        assert_eq!(status, 200, "{engine}: {v}");
        let (status, v) = s.post(
            "/api/hint",
            &json!({"puzzle": plain, "steps": 1, "engine": engine}),
        );
        assert_eq!(status, 200, "{engine}: {v}");
    }
    // A panel with a piece: every engine answers, with a valid line.
    for engine in ["sat", "auto"] {
        let (status, v) = s.post("/api/solve", &json!({"puzzle": PUZZLE, "engine": engine}));
        assert_eq!(status, 200, "{engine}: {v}");
        let (status, c) = s.post(
            "/api/check",
            &json!({"puzzle": PUZZLE, "path": v["path"].clone()}),
        );
        assert_eq!(
            (status, c["valid"].clone()),
            (200, json!(true)),
            "{engine}: {c}"
        );
    }
    // A bad value is a bad request that names the choices.
    for bad in [json!("fast"), json!(1), json!(["sat"])] {
        for api in ["/api/solve", "/api/count", "/api/hint"] {
            let (status, v) = s.post(api, &json!({"puzzle": PUZZLE, "engine": bad}));
            assert_eq!(status, 400, "{api} {bad}: {v}");
            let e = v["error"].as_str().unwrap();
            assert!(
                e.contains("\"engine\" must be \"search\", \"sat\" or \"auto\""),
                "{e}"
            );
        }
    }
}

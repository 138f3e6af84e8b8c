//! What the tests share: a `witness serve` on a free loopback port, raw
//! requests to it, and panels to ask about; the command line's helpers in
//! [`cli`].

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::Value;

pub mod cli;

/// A running server, stopped when dropped.
pub struct Server {
    child: Child,
    /// The port it listens on, on 127.0.0.1.
    pub port: u16,
}

impl Server {
    /// Starts `witness serve` on a free port with `extra` options.
    pub fn start(extra: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_witness"))
            .args(["serve", "--port", "0", "--bind", "127.0.0.1"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the witness binary starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|s| s.split('/').next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, port }
    }

    /// Sends a raw request; returns the status, the headers and the body.
    pub fn raw(&self, request: &[u8]) -> (u16, String, String) {
        self.try_raw(request).unwrap()
    }

    /// [`Server::raw`], with the connection's errors and an incomplete
    /// answer returned as errors (a server that refuses a connection may
    /// reset it before the answer is read).
    pub fn try_raw(&self, request: &[u8]) -> std::io::Result<(u16, String, String)> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port))?;
        s.set_read_timeout(Some(Duration::from_secs(60)))?;
        s.write_all(request)?;
        let mut out = Vec::new();
        s.read_to_end(&mut out)?;
        let text = String::from_utf8(out).unwrap();
        let incomplete =
            || std::io::Error::new(std::io::ErrorKind::InvalidData, "an incomplete answer");
        let (head, body) = text.split_once("\r\n\r\n").ok_or_else(incomplete)?;
        let status = head
            .get(9..12)
            .and_then(|c| c.parse().ok())
            .ok_or_else(incomplete)?;
        Ok((status, head.to_string(), body.to_string()))
    }

    /// `GET path`; the status, the headers and the body.
    pub fn get(&self, path: &str) -> (u16, String, String) {
        self.raw(self.get_request(path).as_bytes())
    }

    /// The request of `GET path`.
    fn get_request(&self, path: &str) -> String {
        format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n",
            self.port
        )
    }

    /// `POST path` with a body sent as is; the status and the JSON answer.
    pub fn post_text(&self, path: &str, body: &str) -> (u16, Value) {
        let req = format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.port,
            body.len()
        );
        let (status, head, body) = self.raw(req.as_bytes());
        assert!(head.contains("application/json"), "{head}");
        (status, serde_json::from_str(&body).expect("a JSON answer"))
    }

    /// `POST path` with a JSON body; the status and the JSON answer.
    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.post_text(path, &body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A 2x2 panel (the site's favicon puzzle).
pub const PUZZLE: &str = r#"{"grid":[[{"type":"line","end":null,"start":false},{"type":"line"},{"type":"line"},{"type":"line"},{"type":"line","start":true}],[{"type":"line"},{"type":"nega","color":"white"},{"type":"line"},{"type":"triangle","color":"orange","count":1},{"type":"line"}],[{"type":"line"},{"type":"line"},{"type":"line"},{"type":"line"},{"type":"line"}],[{"type":"line","gap":1},{"type":"square","color":"black"},{"type":"line"},{"type":"poly","color":"yellow","polyshape":51},{"type":"line"}],[{"type":"line","end":"right"},{"type":"line"},{"type":"line"},{"type":"line"},{"type":"line"}]]}"#;
/// The solution of [`PUZZLE`].
pub const SOLUTION: &str = "0,4:U4R2D2R2U2";

/// A panel whose searches take long: a 10x10 panel with pieces,
/// subtractive pieces, squares, stars, dots and five elimination marks.
/// Its first solution takes over a second, and its exact count, which
/// must search every path, does not finish in minutes.
pub fn slow_puzzle() -> Value {
    let text = include_str!("../../data/slow-qyjxsun7.json");
    serde_json::from_str(text).expect("the slow panel is JSON")
}

impl Server {
    /// True when the server answers `GET /api/health` with `{"ok":true}`
    /// (false when the connection fails, as a refused one may).
    pub fn healthy(&self) -> bool {
        let request = self.get_request("/api/health");
        matches!(self.try_raw(request.as_bytes()), Ok((200, _, body)) if body == r#"{"ok":true}"#)
    }

    /// A new connection to the server.
    pub fn connect(&self) -> TcpStream {
        TcpStream::connect(("127.0.0.1", self.port)).expect("the server accepts connections")
    }
}

/// A panel `n` faces a side in the text form, start bottom left, end top
/// right, `face(col, row)` giving each face's token, then `legend`.
pub fn text_panel(n: usize, face: impl Fn(usize, usize) -> &'static str, legend: &str) -> String {
    let mut t = format!("witness {n}x{n}\n");
    for r in 0..=2 * n {
        let row: Vec<&str> = (0..=2 * n)
            .map(|c| match (r % 2, c % 2) {
                _ if r == 2 * n && c == 0 => "S",
                _ if r == 0 && c == 2 * n => "E>",
                (0, 0) => "+",
                (0, _) => "-",
                (_, 0) => "|",
                _ => face(c / 2, r / 2),
            })
            .collect();
        t.push_str(&row.join(" "));
        t.push('\n');
    }
    t.push_str(legend);
    t
}

/// 225 rotatable L-tetrominoes that exactly fill a 30x30 panel: the line
/// `0,60:R60U60` along the bottom and right borders leaves them one region
/// of 900 faces to tile, a fit that runs for minutes.
pub fn tiling_panel() -> String {
    let n = 30;
    text_panel(
        n,
        |c, r| if (r * n + c) % 4 == 0 { "A" } else { "." },
        "A = poly rot ##/.#/.#\n",
    )
}

/// The largest panel (64x64 faces) with a monomino on every face: the line
/// `0,128:R128U128` leaves one region of 4,096 faces and 4,096 pieces,
/// whose fit recurses thousands of levels deep.
pub fn monomino_panel() -> String {
    text_panel(64, |_, _| "A", "A = poly #\n")
}

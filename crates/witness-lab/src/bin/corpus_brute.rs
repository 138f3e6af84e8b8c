//! Cross-checks the solver against the brute force on a corpus file:
//! `cargo run --release -p witness-lab --bin corpus_brute FILE.jsonl [MAX_SLOTS]`
//! compares `witness::count` with `witness::internals::brute` (every legal path, validated)
//! on every puzzle of at most MAX_SLOTS slots (default 49: 3x3 faces).

use witness::internals::brute;
use witness::{Limits, Status};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: corpus_brute FILE.jsonl [MAX_SLOTS]");
    let max: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(49);
    let text = std::fs::read_to_string(&file).expect("readable corpus file");
    let (mut compared, mut differing) = (0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let j: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let puzzle = match &j["puzzle"] {
            serde_json::Value::String(s) => witness::formats::read_puzzle(s, None),
            other => witness::formats::wpjson::from_value(other),
        }
        .expect("puzzle");
        if puzzle.width() * puzzle.height() > max {
            continue;
        }
        let mut want = 0u64;
        let budget = Limits::timeout(std::time::Duration::from_secs(5));
        let status = brute::enumerate(&puzzle, &budget, |_| {
            want += 1;
            true
        })
        .expect("brute force");
        if status != Status::Complete {
            continue;
        }
        let got = witness::count(
            &puzzle,
            &witness::CountOptions {
                limit: None,
                limits: Limits::none(),
                ..Default::default()
            },
        )
        .expect("count");
        compared += 1;
        if got.count != want {
            differing += 1;
            println!("{}: solver {} brute force {want}", j["id"], got.count);
        }
    }
    println!("compared {compared}, differing {differing}");
}

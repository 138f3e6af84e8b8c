//! Count a puzzle's solutions, or tell whether its solution is unique.
//!
//! ```sh
//! cargo run --release -p witness --example count -- examples/puzzles/stars-squares-polyomino.json
//! ```

use std::time::Duration;

use witness::{count, read_puzzle, CountOptions, Limits, Status};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/puzzles/stars-squares-polyomino.json".into());
    let puzzle = read_puzzle(&std::fs::read_to_string(&file)?, None)?;
    let limits = Limits::timeout(Duration::from_secs(10));

    // Uniqueness is a count that stops at two.
    let two = count(
        &puzzle,
        &CountOptions::uniqueness().with_limits(limits.clone()),
    )?;
    let verdict = match (two.count.to_u64(), two.status) {
        (Some(0), Status::Complete) => "no solution",
        (Some(1), Status::Complete) => "exactly one solution",
        _ if two.count >= 2 => "more than one solution",
        _ => "undecided within the time limit",
    };
    println!("{verdict}");

    // The full count; `status` says whether it is exact.
    let all = count(&puzzle, &CountOptions::default().with_limits(limits))?;
    let noun = if all.count == 1 {
        "solution"
    } else {
        "solutions"
    };
    match all.status {
        Status::Complete => println!("{} {noun}", all.count),
        Status::Stopped => println!("at least {} {noun}", all.count),
    }
    Ok(())
}

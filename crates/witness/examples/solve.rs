//! Solve a puzzle file and print the solution's moves.
//!
//! ```sh
//! cargo run --release -p witness --example solve -- examples/puzzles/everything.json
//! ```

use std::time::Duration;

use witness::{read_puzzle, render, solve, Limits, SolveOptions, Status};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/puzzles/everything.json".into());
    // Any supported format: witnesspuzzles JSON, a Windmill code, an
    // Alcazar maze or the text form; `None` lets the reader tell which.
    let puzzle = read_puzzle(&std::fs::read_to_string(&file)?, None)?;

    // Every job has limits; this one gives up after ten seconds.
    let options = SolveOptions::default().with_limits(Limits::timeout(Duration::from_secs(10)));
    let solution = solve(&puzzle, &options)?;

    match (solution.path, solution.status) {
        (Some(path), _) => {
            print!("{}", render::terminal(&puzzle, Some(&path), false));
            println!("{}", path.to_moves());
        }
        (None, Status::Complete) => println!("no solution"),
        (None, Status::Stopped) => println!("no solution found within the time limit"),
    }
    Ok(())
}

//! Draw a puzzle with its solution as SVG (to a file) and in the terminal.
//!
//! ```sh
//! cargo run --release -p witness --example render -- examples/puzzles/everything.json out.svg
//! ```

use witness::{read_puzzle, render, solve, SolveOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .unwrap_or_else(|| "examples/puzzles/everything.json".into());
    let out = args.next().unwrap_or_else(|| "puzzle.svg".into());
    let puzzle = read_puzzle(&std::fs::read_to_string(&file)?, None)?;
    let solution = solve(&puzzle, &SolveOptions::default())?;

    // SVG, with the solution drawn over the panel (or the bare panel when
    // there is none).
    let svg = render::svg(
        &puzzle,
        solution.path.as_ref(),
        &render::SvgOptions::default(),
    );
    std::fs::write(&out, svg)?;
    println!("wrote {out}");

    // The same in the terminal (`true` adds ANSI colours).
    print!(
        "{}",
        render::terminal(&puzzle, solution.path.as_ref(), false)
    );
    Ok(())
}

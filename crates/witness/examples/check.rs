//! Check a drawn path against a puzzle and name every symbol that fails.
//!
//! ```sh
//! cargo run --release -p witness --example check -- examples/puzzles/empty-4x4.json 0,8:U8R8
//! ```

use witness::{check, read_puzzle, Path};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .unwrap_or_else(|| "examples/puzzles/empty-4x4.json".into());
    let moves = args.next().unwrap_or_else(|| "0,8:U8R8".into());
    let puzzle = read_puzzle(&std::fs::read_to_string(&file)?, None)?;

    // A path reads from a move string (`X,Y:` then L, R, U, D with counts),
    // the site's JSON form or a list of coordinates.
    let path = Path::parse(&moves)?;

    // An illegal path (off the grid, through a gap, not ending at an end)
    // is an error that says which move breaks which rule; a legal one gets
    // a verdict.
    let verdict = check(&puzzle, &path)?;
    if verdict.valid {
        println!("valid");
    } else {
        for failure in &verdict.invalid {
            println!("{} at {}", failure.reason.describe(), failure.pos);
        }
    }
    Ok(())
}

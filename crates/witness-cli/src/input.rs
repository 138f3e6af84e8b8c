//! Reading puzzles from files or standard input, in any supported format.

use std::io::Read;

use witness::formats::{self, Format};
use witness::model::Puzzle;

/// The `--format` choices.
pub fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!(
            "unknown format '{s}'; expected one of: {}",
            names.join(", ")
        )
    })
}

/// Reads the text of a file, or of standard input for `-`.
pub fn read_text(source: &str) -> Result<String, String> {
    if source == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        Ok(s)
    } else {
        std::fs::read_to_string(source).map_err(|e| format!("cannot read {source}: {e}"))
    }
}

/// Reads a puzzle from a file (or `-`), guessing the format unless given.
pub fn read_puzzle(source: &str, format: Option<Format>) -> Result<Puzzle, String> {
    let text = read_text(source)?;
    formats::read_puzzle(&text, format).map_err(|e| format!("{source}: {e}"))
}

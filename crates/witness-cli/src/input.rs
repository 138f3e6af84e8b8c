//! Reading puzzles from files or standard input, in any supported format,
//! never more than a stated number of bytes.

use std::io::{BufRead, Read};

use witness::formats::{self, Format, MAX_PUZZLE_BYTES};
use witness::model::{Puzzle, RuleSet};

/// The largest batch file read whole (`bench`, `bench-check`): far more
/// than any corpus of puzzles, far less than the machine's memory.
pub const MAX_BATCH_BYTES: u64 = 1 << 30;

/// The longest line of a JSON Lines batch (`check --batch`): a puzzle at
/// its largest plus room for an id and a path.
pub const MAX_LINE_BYTES: usize = MAX_PUZZLE_BYTES + (1 << 20);

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

/// The `--rules` choices.
pub fn parse_rules(s: &str) -> Result<RuleSet, String> {
    s.parse::<RuleSet>().map_err(|e| e.to_string())
}

/// The puzzle judged by `rules` when given (else by its own: the
/// Windmill's for Windmill codes, the site's for the rest).
pub fn with_rules(mut puzzle: Puzzle, rules: Option<RuleSet>) -> Puzzle {
    if let Some(r) = rules {
        puzzle.rules = r;
    }
    puzzle
}

/// Tells on standard error which rules judged the puzzle (text output;
/// `--json` carries a `"rules"` key instead).
pub fn note_rules(puzzle: &Puzzle) {
    eprintln!("rules: {}", puzzle.rules);
}

/// Reads the text of a file, or of standard input for `-`, refusing more
/// than `cap` bytes.
pub fn read_text_capped(source: &str, cap: u64) -> Result<String, String> {
    let name = if source == "-" {
        "standard input"
    } else {
        source
    };
    let reader: Box<dyn Read> = if source == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(source).map_err(|e| format!("cannot read {name}: {e}"))?)
    };
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if bytes.len() as u64 > cap {
        return Err(format!("{name} is larger than {cap} bytes"));
    }
    String::from_utf8(bytes).map_err(|e| format!("{name} is not UTF-8 text: {e}"))
}

/// Reads a batch file whole (at most [`MAX_BATCH_BYTES`]).
pub fn read_text(source: &str) -> Result<String, String> {
    read_text_capped(source, MAX_BATCH_BYTES)
}

/// Reads a puzzle from a file (or `-`), guessing the format unless given.
pub fn read_puzzle(source: &str, format: Option<Format>) -> Result<Puzzle, String> {
    let text = read_text_capped(source, MAX_PUZZLE_BYTES as u64)?;
    formats::read_puzzle(&text, format).map_err(|e| format!("{source}: {e}"))
}

/// The next line of `reader` (without its line ending), `None` at the end;
/// a line longer than `cap` bytes is an error, found without holding more
/// than `cap` bytes of it.
pub fn next_line(reader: &mut impl BufRead, cap: usize) -> std::io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = reader
        .by_ref()
        .take(cap as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > cap {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a line is longer than {cap} bytes"),
        ));
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_up_to_their_cap() {
        let mut r = std::io::Cursor::new(b"ab\r\ncde\n\nlast".to_vec());
        let mut got = Vec::new();
        while let Some(l) = next_line(&mut r, 4).unwrap() {
            got.push(l);
        }
        assert_eq!(got, ["ab", "cde", "", "last"]);
        let mut r = std::io::Cursor::new(b"abcdef\nx\n".to_vec());
        assert!(next_line(&mut r, 4).is_err());
        // A line of exactly the cap, with or without its newline, is read.
        let mut r = std::io::Cursor::new(b"abcd".to_vec());
        assert_eq!(next_line(&mut r, 4).unwrap().as_deref(), Some("abcd"));
    }
}

//! Reading puzzles from files or standard input, in any supported format,
//! never more than a stated number of bytes.

use std::io::{BufRead, Read};

use clap::Args as ClapArgs;
use serde_json::Value;
use witness::formats::{self, Format, MAX_PUZZLE_BYTES};
use witness::model::{Puzzle, RuleSet};

use crate::output::how_many;

/// The largest batch file read whole (`bench`, `bench-check`): far more
/// than any corpus of puzzles, far less than the machine's memory.
pub const MAX_BATCH_BYTES: u64 = 1 << 30;

/// The longest line of a JSON Lines batch (`check --batch`): a puzzle at
/// its largest plus room for an id and a path.
pub const MAX_LINE_BYTES: usize = MAX_PUZZLE_BYTES + (1 << 20);

/// The most worker threads `--jobs` may ask for: far past any core
/// count, short of the thousands of threads that stall a machine.
pub const MAX_JOBS: u64 = 1_024;

/// The `--jobs` values: 1 to [`MAX_JOBS`].
pub fn parse_jobs() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_JOBS)
}

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
    let mut text =
        String::from_utf8(bytes).map_err(|e| format!("{name} is not UTF-8 text: {e}"))?;
    if text.starts_with(BOM) {
        text.drain(..BOM.len_utf8());
    }
    Ok(text)
}

/// The byte-order mark some editors put at the start of UTF-8 text: no
/// part of the text, and dropped wherever input is read.
pub const BOM: char = '\u{feff}';

/// Reads a batch file whole (at most [`MAX_BATCH_BYTES`]).
pub fn read_text(source: &str) -> Result<String, String> {
    read_text_capped(source, MAX_BATCH_BYTES)
}

/// Which puzzle of a JSON Lines file of puzzles (one `{"id", "puzzle"}` a
/// line, as the corpus) to take.
#[derive(ClapArgs, Default, Debug, Clone)]
pub struct Pick {
    /// With a JSON Lines file of puzzles (`{"id": …, "puzzle": …}` a
    /// line): take the line whose "id" is ID.
    #[arg(long, value_name = "ID", conflicts_with = "line")]
    pub id: Option<String>,
    /// With a JSON Lines file of puzzles, or a file of puzzles one a line
    /// (Windmill codes, say): take line N (counted from 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub line: Option<u64>,
}

/// The most ids an error lists when it asks for `--id`.
const IDS_SHOWN: usize = 3;

/// Reads a puzzle as [`formats::read_puzzle`], picking one line of a JSON Lines
/// file by `pick`: one is needed when the file holds several. Such a file
/// may be as large as a batch ([`MAX_BATCH_BYTES`]), each line at most
/// [`MAX_LINE_BYTES`]; any other puzzle text at most [`MAX_PUZZLE_BYTES`].
pub fn read_picked(source: &str, format: Option<Format>, pick: &Pick) -> Result<Puzzle, String> {
    let name = if source == "-" {
        "standard input"
    } else {
        source
    };
    let mut reader: Box<dyn Read> = if source == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(source).map_err(|e| format!("cannot read {name}: {e}"))?)
    };
    let cap = MAX_PUZZLE_BYTES as u64;
    let mut head = Vec::new();
    reader
        .by_ref()
        .take(cap + 1)
        .read_to_end(&mut head)
        .map_err(|e| format!("cannot read {name}: {e}"))?;
    if head.starts_with("\u{feff}".as_bytes()) {
        head.drain(..BOM.len_utf8());
    }
    if !first_line_is_object(&head) {
        // A file of puzzles one a line in another format (Windmill codes,
        // say): `--line` picks one.
        if let (Some(n), None) = (pick.line, &pick.id) {
            if head.len() as u64 > cap {
                return Err(format!("{name} is larger than {cap} bytes"));
            }
            let text =
                String::from_utf8(head).map_err(|e| format!("{name} is not UTF-8 text: {e}"))?;
            return line_of(name, &text, n, format);
        }
        if pick.id.is_some() {
            return Err(format!(
                "{name}: --id picks a line of a JSON Lines file of puzzles \
                 ({{\"id\": …, \"puzzle\": …}} a line), which this is not"
            ));
        }
        if head.len() as u64 > cap {
            return Err(format!("{name} is larger than {cap} bytes"));
        }
        let text = String::from_utf8(head).map_err(|e| format!("{name} is not UTF-8 text: {e}"))?;
        return formats::read_puzzle(&text, format).map_err(|e| {
            // A file of one-line puzzles (Windmill codes, say) read whole:
            // say how to pick one.
            let mut lines = text.lines().filter(|l| !l.trim().is_empty());
            let first = lines.next().unwrap_or_default();
            let more = lines.count();
            if more > 0 && formats::read_puzzle(first, format).is_ok() {
                format!(
                    "{name} holds {}, one a line: pick one with --line N",
                    how_many(more as u64 + 1, "puzzle")
                )
            } else {
                format!("{name}: {e}")
            }
        });
    }
    let rest = reader.take(MAX_BATCH_BYTES + 1 - head.len() as u64);
    let mut lines = std::io::BufReader::new(std::io::Cursor::new(head).chain(rest));
    let (number, line) = pick_line(name, &mut lines, pick)?;
    let entry: Value = serde_json::from_str(&line)
        .map_err(|e| format!("{name} line {number}: not valid JSON: {e}"))?;
    entry_puzzle(&entry, format).map_err(|e| format!("{name} line {number}: {e}"))
}

/// Line `n` (from 1) of `text`, a file of puzzles one a line in `format`
/// (guessed when `None`), read as a puzzle. A file that holds one puzzle
/// written over several lines gives that puzzle for line 1, and says so
/// for another line; a blank line or a line past the end is named as
/// such.
fn line_of(name: &str, text: &str, n: u64, format: Option<Format>) -> Result<Puzzle, String> {
    let lines = text.lines().count();
    let puzzles = text.lines().filter(|l| !l.trim().is_empty()).count();
    if puzzles > 1 {
        if let Ok(whole) = formats::read_puzzle(text, format) {
            return match n {
                1 => Ok(whole),
                _ => Err(format!(
                    "{name} holds 1 puzzle, written over {lines} lines: --line picks \
                     from a file of puzzles one a line"
                )),
            };
        }
    }
    let line = usize::try_from(n)
        .ok()
        .and_then(|n| text.lines().nth(n.checked_sub(1)?))
        .ok_or_else(|| format!("{name} has {}, not {n}", how_many(lines as u64, "line")))?;
    if line.trim().is_empty() {
        return Err(format!("{name} line {n} is blank"));
    }
    formats::read_puzzle(line, format).map_err(|e| format!("{name} line {n}: {e}"))
}

/// The puzzle of one JSON Lines entry `v`: its `"puzzle"` as a puzzle
/// object, or as a string of puzzle text in `format` (guessed when
/// `None`: witnesspuzzles JSON, a Windmill code, the text form); an entry
/// without `"puzzle"` is itself a puzzle object.
pub fn entry_puzzle(v: &Value, format: Option<Format>) -> Result<Puzzle, String> {
    let json = matches!(format, None | Some(Format::Json));
    match (v.get("puzzle"), format) {
        (Some(Value::String(s)), f) => formats::read_puzzle(s, f).map_err(|e| e.to_string()),
        (Some(Value::Object(_)), _) | (None, _) if json => {
            formats::wpjson::from_value(v).map_err(|e| e.to_string())
        }
        (Some(Value::Object(_)), Some(f)) => Err(format!(
            "\"puzzle\" is a witnesspuzzles JSON object, but --format says {}",
            f.name()
        )),
        (None, Some(f)) => Err(format!(
            "the line is a witnesspuzzles JSON object (no \"puzzle\" field), but --format says {}",
            f.name()
        )),
        _ => Err("\"puzzle\" must be a JSON string or object".into()),
    }
}

/// True when the first non-blank line of `head` is a JSON object on its
/// own (a JSON Lines file, not a puzzle written over several lines).
fn first_line_is_object(head: &[u8]) -> bool {
    head.split(|&b| b == b'\n')
        .find(|l| !l.trim_ascii().is_empty())
        .and_then(|l| serde_json::from_slice::<serde_json::Value>(l).ok())
        .is_some_and(|v| v.is_object())
}

/// The id of a JSON Lines entry, if it is an object with a string or
/// number `"id"`.
fn id_of(line: &str) -> Option<String> {
    entry_id(&serde_json::from_str(line).ok()?)
}

/// The `"id"` of a JSON Lines entry, if it is a string or a number.
pub fn entry_id(v: &Value) -> Option<String> {
    match &v["id"] {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The line (its number from 1 and its text) of a JSON Lines file that
/// `pick` names, the only non-blank one when `pick` names none, or an error
/// saying how to pick.
fn pick_line(name: &str, lines: &mut impl BufRead, pick: &Pick) -> Result<(u64, String), String> {
    let (mut count, mut only, mut ids, mut last) = (0u64, None, Vec::new(), 0);
    let (mut number, mut read) = (0, 0u64);
    while let Some(line) =
        next_line(lines, MAX_LINE_BYTES).map_err(|e| format!("{name} line {}: {e}", number + 1))?
    {
        number += 1;
        read += line.len() as u64 + 1;
        if read > MAX_BATCH_BYTES {
            return Err(format!(
                "{name} is larger than {MAX_BATCH_BYTES} bytes; the puzzle sought is not \
                 within them (line {number} goes past)"
            ));
        }
        if line.trim().is_empty() {
            continue;
        }
        if pick.line == Some(number) {
            return Ok((number, line));
        }
        if pick.id.is_some() || ids.len() < IDS_SHOWN {
            let id = id_of(&line);
            if id.is_some() && id == pick.id {
                return Ok((number, line));
            }
            if ids.len() < IDS_SHOWN {
                ids.extend(id);
            }
        }
        count += 1;
        last = number;
        if count == 1 {
            only = Some((number, line));
        }
    }
    let some_ids = if ids.is_empty() {
        String::new()
    } else {
        format!(" (ids such as {})", ids.join(", "))
    };
    match (&pick.id, pick.line, only) {
        (Some(id), ..) => Err(format!(
            "{name}: no line has the id \"{id}\" among its {}{some_ids}",
            how_many(count, "puzzle")
        )),
        (_, Some(n), _) => Err(format!(
            "{name}: no puzzle on line {n}; it has {}, the last on line {last}",
            how_many(count, "puzzle")
        )),
        (None, None, Some(only)) if count == 1 => Ok(only),
        _ => Err(format!(
            "{name} holds {}, one a line (JSON Lines): pick one with \
             --id ID{some_ids} or --line N",
            how_many(count, "puzzle")
        )),
    }
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

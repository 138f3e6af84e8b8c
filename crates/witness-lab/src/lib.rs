//! Shared reading for the measurement harnesses in `src/bin`: corpus files
//! of `{"id", "puzzle"}` JSON lines and lists of puzzle ids.

use witness::model::Puzzle;

/// Every puzzle of a corpus file (one `{"id", "puzzle"}` JSON object a
/// line, blank lines skipped), with its id (empty when it has none).
/// Panics with the line's number on a line that does not read: these are
/// developer tools run on known files.
pub fn corpus(file: &str) -> Vec<(String, Puzzle)> {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, line)| {
            let j: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
            let text = j["puzzle"]
                .as_str()
                .unwrap_or_else(|| panic!("{file}:{}: no \"puzzle\" string", n + 1));
            let p = witness::formats::read_puzzle(text, None)
                .unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
            (j["id"].as_str().unwrap_or("").to_string(), p)
        })
        .collect()
}

/// The puzzles of a corpus file whose ids are listed, white-space
/// separated, in the file `ids`, in corpus order.
pub fn picked(file: &str, ids: &str) -> Vec<(String, Puzzle)> {
    let ids = std::fs::read_to_string(ids).unwrap_or_else(|e| panic!("{ids}: {e}"));
    let ids: Vec<&str> = ids.split_whitespace().collect();
    corpus(file)
        .into_iter()
        .filter(|(id, _)| ids.contains(&id.as_str()))
        .collect()
}

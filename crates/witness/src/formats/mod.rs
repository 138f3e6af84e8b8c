//! Puzzle formats: reading them into a [`Puzzle`] and writing them back.
//!
//! [`read_puzzle`] takes any supported text and guesses its format unless
//! told; each format also has its own module:
//! - [`wpjson`]: witnesspuzzles.com JSON (read and write);
//! - [`windmill`]: The Windmill's puzzle codes and URLs (read and write);
//! - [`alcazar`]: Alcazar maze files (read);
//! - [`text`]: this project's plain-text drawing (read and write).

pub mod alcazar;
pub mod text;
pub mod windmill;
pub mod wpjson;

use crate::error::{Error, Result};
use crate::model::Puzzle;

/// The formats a puzzle can be read from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// witnesspuzzles.com JSON.
    Json,
    /// A Windmill code or URL (`…_0`).
    Windmill,
    /// An Alcazar maze (`.puzzle` file).
    Alcazar,
    /// This project's text format (`witness WxH` header and a drawn grid).
    Text,
}

impl Format {
    /// Every format, for messages and command-line choices.
    pub const ALL: [Format; 4] = [
        Format::Json,
        Format::Windmill,
        Format::Alcazar,
        Format::Text,
    ];

    /// The format's short name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Windmill => "windmill",
            Format::Alcazar => "alcazar",
            Format::Text => "text",
        }
    }

    /// The format of a short name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

impl std::fmt::Display for Format {
    /// The short name ([`Format::name`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = Error;

    /// A short name ([`Format::name`]); another is an [`Error::Options`].
    fn from_str(s: &str) -> Result<Format> {
        Format::from_name(s).ok_or_else(|| {
            Error::Options(format!(
                "unknown format \"{s}\" (json, windmill, alcazar or text)"
            ))
        })
    }
}

/// Writes `puzzle` in `format`, the counterpart of [`read_puzzle`]:
/// witnesspuzzles.com JSON ([`wpjson::to_string`], which refuses what the
/// site's format cannot hold), a Windmill code ([`windmill::to_string`],
/// which refuses what the Windmill cannot hold) or the text format
/// ([`text::to_string`]). Alcazar mazes are read only: an
/// [`Error::Unsupported`].
///
/// ```
/// use witness::formats::{read_puzzle, write_puzzle, Format};
///
/// let text = "witness 1x1\n+ - E>\n| . |\nS - +\n";
/// let p = read_puzzle(text, None).unwrap();
/// let json = write_puzzle(&p, Format::Json).unwrap();
/// assert_eq!(read_puzzle(&json, "json".parse().ok()).unwrap().face_width(), 1);
/// assert_eq!(write_puzzle(&p, Format::Text).unwrap(), text);
/// let code = write_puzzle(&p, Format::Windmill).unwrap();
/// assert_eq!(read_puzzle(&code, None).unwrap().face_width(), 1);
/// assert!(write_puzzle(&p, Format::Alcazar).is_err());
/// ```
pub fn write_puzzle(puzzle: &Puzzle, format: Format) -> Result<String> {
    match format {
        Format::Json => wpjson::to_string(puzzle),
        Format::Text => Ok(text::to_string(puzzle)),
        Format::Windmill => windmill::to_string(puzzle),
        Format::Alcazar => Err(Error::Unsupported(format!(
            "writing the {format} format (it is read only; write json, windmill or text)"
        ))),
    }
}

/// Guesses the format of a text: JSON starts with `{`, the text format with
/// the word `witness`, a Windmill code is one word ending in `_0` (or a
/// Windmill URL), and an Alcazar maze is made of `x`, `0`, spaces and
/// strokes only.
pub fn detect(text: &str) -> Result<Format> {
    let t = text.trim_start_matches('\u{feff}').trim_start();
    if t.starts_with('{') {
        return Ok(Format::Json);
    }
    if text::looks_like_text(t) {
        return Ok(Format::Text);
    }
    if windmill::looks_like_code(t) {
        return Ok(Format::Windmill);
    }
    if alcazar::looks_like_maze(text) {
        return Ok(Format::Alcazar);
    }
    Err(Error::Parse(
        "cannot tell the puzzle's format: expected witnesspuzzles JSON (starting with '{'), \
         a Windmill code or URL (ending in _0), an Alcazar maze (x, 0 and spaces) \
         or the text format (starting with \"witness\"); to read it as one, name the \
         format (--format on the command line, \"format\" in a request)"
            .into(),
    ))
}

/// The largest puzzle text read, in bytes: several times what the largest
/// panel takes in the roomiest format (pretty-printed JSON with a symbol on
/// every face), so that no real puzzle is refused and no absurd input is
/// parsed.
pub const MAX_PUZZLE_BYTES: usize = 8 << 20;

/// Reads a puzzle in the given format, or in the detected one, after a
/// leading byte-order mark. Texts over [`MAX_PUZZLE_BYTES`] are refused, and
/// so are empty ones.
pub fn read_puzzle(text: &str, format: Option<Format>) -> Result<Puzzle> {
    if text.len() > MAX_PUZZLE_BYTES {
        return Err(Error::Size(format!(
            "the puzzle text has {} bytes, more than the {MAX_PUZZLE_BYTES} a puzzle may have",
            text.len()
        )));
    }
    // A byte-order mark that an editor put before the text is no part of
    // the puzzle.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Err(Error::Parse(
            "the input is empty: it holds no puzzle".into(),
        ));
    }
    let format = match format {
        Some(f) => f,
        None => detect(text)?,
    };
    match format {
        Format::Json => wpjson::parse(text),
        Format::Windmill => windmill::parse(text),
        Format::Alcazar => alcazar::parse(text),
        Format::Text => text::parse(text),
    }
}

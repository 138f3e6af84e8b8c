//! Puzzle formats: reading them into a [`Puzzle`] and writing them back.
//!
//! [`read_puzzle`] takes any supported text and guesses its format unless
//! told; each format also has its own module.

pub mod wpjson;

use crate::error::{Error, Result};
use crate::model::Puzzle;

/// The formats a puzzle can be read from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// witnesspuzzles.com JSON.
    Json,
}

impl Format {
    /// Every format, for messages and command-line choices.
    pub const ALL: [Format; 1] = [Format::Json];

    /// The format's short name.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
        }
    }

    /// The format of a short name.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Guesses the format of a text.
pub fn detect(text: &str) -> Result<Format> {
    let t = text.trim_start();
    if t.starts_with('{') {
        return Ok(Format::Json);
    }
    Err(Error::Parse(
        "cannot tell the puzzle's format (expected witnesspuzzles JSON starting with '{')".into(),
    ))
}

/// Reads a puzzle in the given format, or in the detected one.
pub fn read_puzzle(text: &str, format: Option<Format>) -> Result<Puzzle> {
    let format = match format {
        Some(f) => f,
        None => detect(text)?,
    };
    match format {
        Format::Json => wpjson::parse(text),
    }
}

//! The library's error type.

/// Everything that can go wrong reading, checking or solving a puzzle. Every
/// message says what is wrong and, where it helps, where.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// The input is not well-formed in its format (bad JSON, bad base64, ...).
    #[error("parse error: {0}")]
    Parse(String),
    /// The input is well-formed but describes no valid puzzle.
    #[error("invalid puzzle: {0}")]
    Invalid(String),
    /// The grid is too large, too small, or of an impossible shape.
    #[error("bad size: {0}")]
    Size(String),
    /// The puzzle uses a mechanic this library does not support.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A path is malformed or illegal on this puzzle.
    #[error("bad path: {0}")]
    Path(String),
    /// The options of a job make no sense (a count limit of 0, say).
    #[error("bad options: {0}")]
    Options(String),
    /// A job gave up on its time limit or was cancelled before it had an
    /// answer.
    #[error("stopped by its time limit or cancelled before it had an answer")]
    Stopped,
    /// Two of the library's own engines disagree on an answer: a defect of
    /// the library, reported instead of a wrong answer.
    #[error("internal error: {0}")]
    Internal(String),
}

/// Shorthand for results carrying [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// `n` and the noun, singular for 1 (`1 face`, `3 faces`), for messages;
/// `noun` is a singular that takes an `s`.
pub(crate) fn how_many(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

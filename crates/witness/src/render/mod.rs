//! Drawing puzzles: [`svg()`] for files and the web page, [`terminal()`] for
//! text consoles.
//!
//! Both draw the panel as the game shows it: grid lines with their broken
//! and removed edges, starts, end caps, dots, the face symbols, and a path
//! on top (in a symmetry puzzle also its mirror image, in the second
//! colour). A path is drawn as far as it stays on the grid; it need not be
//! legal, so a half-drawn or wrong line can be shown too.

mod svg;
mod terminal;

pub use svg::{svg, SvgOptions};
pub use terminal::terminal;

use crate::model::{Color, Pos, Puzzle};
use crate::path::Path;

/// The slots a path covers, in order, and those of its mirror image.
#[derive(Clone, Debug, Default)]
pub(crate) struct Drawn {
    /// The line the player draws, as far as it stays on the grid.
    pub main: Vec<Pos>,
    /// Its mirror image (empty without symmetry).
    pub mirror: Vec<Pos>,
}

impl Drawn {
    /// Walks `path` on `puzzle`, stopping where it would leave the grid.
    pub fn new(puzzle: &Puzzle, path: Option<&Path>) -> Drawn {
        let Some(path) = path else {
            return Drawn::default();
        };
        if !puzzle.contains(path.start) {
            return Drawn::default();
        }
        let mut main = vec![path.start];
        let mut p = path.start;
        for &d in &path.moves {
            match puzzle.neighbor(p, d) {
                Some(q) => {
                    main.push(q);
                    p = q;
                }
                None => break,
            }
        }
        let mirror = if puzzle.symmetry.is_some() {
            main.iter().map(|&p| puzzle.mirror(p)).collect()
        } else {
            Vec::new()
        };
        Drawn { main, mirror }
    }
}

/// The sRGB value of a symbol colour; `#rgb` and `#rrggbb` names are read,
/// other unknown names are drawn grey.
pub(crate) fn rgb(color: &Color) -> (u8, u8, u8) {
    match color {
        Color::Black => (0x00, 0x00, 0x00),
        Color::White => (0xff, 0xff, 0xff),
        Color::Red => (0xe0, 0x20, 0x20),
        Color::Orange => (0xff, 0x8c, 0x00),
        Color::Yellow => (0xff, 0xe0, 0x20),
        Color::Green => (0x20, 0xc0, 0x40),
        Color::Blue => (0x20, 0x60, 0xff),
        Color::Purple => (0x90, 0x30, 0xd0),
        Color::Cyan => (0x00, 0xe0, 0xe0),
        Color::Magenta => (0xf0, 0x20, 0xc0),
        Color::Other(name) => parse_hex(name).unwrap_or((0x80, 0x80, 0x80)),
    }
}

fn parse_hex(s: &str) -> Option<(u8, u8, u8)> {
    let h = s.strip_prefix('#')?;
    if !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let v = |i: usize, n: usize| u8::from_str_radix(&h[i..i + n], 16).ok();
    match h.len() {
        3 => Some((v(0, 1)? * 17, v(1, 1)? * 17, v(2, 1)? * 17)),
        6 => Some((v(0, 2)?, v(2, 2)?, v(4, 2)?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours() {
        assert_eq!(parse_hex("#fff"), Some((255, 255, 255)));
        assert_eq!(parse_hex("#102030"), Some((16, 32, 48)));
        assert_eq!(parse_hex("#12"), None);
        assert_eq!(parse_hex("#ééé"), None);
        assert_eq!(rgb(&Color::Other("x".into())), (128, 128, 128));
    }
}

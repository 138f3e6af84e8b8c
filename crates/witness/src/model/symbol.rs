//! Face symbols and their colours.

use super::Polyomino;

/// A symbol colour. Colours compare as the site compares them, by exact
/// name: `Other("Red")` is not [`Color::Red`].
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// `black`.
    Black,
    /// `white`.
    White,
    /// `red`.
    Red,
    /// `orange`.
    Orange,
    /// `yellow`.
    Yellow,
    /// `green`.
    Green,
    /// `blue`.
    Blue,
    /// `purple`.
    Purple,
    /// `cyan` (The Windmill).
    Cyan,
    /// `magenta` (The Windmill).
    Magenta,
    /// Any other name, kept verbatim (the site's editor writes `#rrggbb`).
    Other(String),
}

impl Color {
    /// The colour a name stands for, exactly as spelled.
    pub fn from_name(name: &str) -> Color {
        match name {
            "black" => Color::Black,
            "white" => Color::White,
            "red" => Color::Red,
            "orange" => Color::Orange,
            "yellow" => Color::Yellow,
            "green" => Color::Green,
            "blue" => Color::Blue,
            "purple" => Color::Purple,
            "cyan" => Color::Cyan,
            "magenta" => Color::Magenta,
            other => Color::Other(other.to_string()),
        }
    }
    /// The colour's name, as the site's JSON writes it.
    pub fn name(&self) -> &str {
        match self {
            Color::Black => "black",
            Color::White => "white",
            Color::Red => "red",
            Color::Orange => "orange",
            Color::Yellow => "yellow",
            Color::Green => "green",
            Color::Blue => "blue",
            Color::Purple => "purple",
            Color::Cyan => "cyan",
            Color::Magenta => "magenta",
            Color::Other(s) => s,
        }
    }
}

impl std::fmt::Display for Color {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a symbol is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// Coloured square: a region holds squares of one colour only.
    Square,
    /// Star: exactly two symbols of its colour in its region, itself included.
    Star,
    /// Triangles: exactly `count` of the face's four edges carry the line.
    Triangle(u32),
    /// Polyomino: the region is tiled by its pieces.
    Poly(Polyomino),
    /// Subtractive polyomino: takes area away from the pieces.
    Ylop(Polyomino),
    /// Elimination mark: erases one other symbol of its region.
    Nega,
}

/// A symbol on a face.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    /// Which symbol.
    pub kind: SymbolKind,
    /// Its colour.
    pub color: Color,
}

impl Symbol {
    /// A symbol of a kind and colour.
    pub fn new(kind: SymbolKind, color: Color) -> Symbol {
        Symbol { kind, color }
    }
    /// A short name for messages: "square", "star", "triangle", ...
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            SymbolKind::Square => "square",
            SymbolKind::Star => "star",
            SymbolKind::Triangle(_) => "triangle",
            SymbolKind::Poly(_) => "polyomino",
            SymbolKind::Ylop(_) => "subtractive polyomino",
            SymbolKind::Nega => "elimination mark",
        }
    }
}

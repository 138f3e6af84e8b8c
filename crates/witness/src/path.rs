//! Paths: the line a player draws, its three notations, and the legality
//! rules of `docs/rules.md#paths` with the play-mode start rule of
//! `#play-mode`.
//!
//! A [`Path`] is a start slot and a list of single-slot moves. It reads and
//! writes:
//! - the site's form `[{"x":X,"y":Y}, d1, …, dn, 0]` (1 left, 2 right, 3 up,
//!   4 down, 0 stop);
//! - a move string for people, `X,Y:` then letters `L R U D`, each one slot
//!   step (half a segment), a letter optionally followed by a repeat count:
//!   `0,6:R6U4` is six steps right then four up;
//! - a list of coordinates `[[x,y], …]`.

use serde_json::{json, Value};

use crate::error::{Error, Result};
use crate::model::{Direction, Gap, Pos, Puzzle, SlotKind, Turn, MAX_SLOTS};

/// The most moves a path may have: a legal path enters each slot at most
/// once, so none on the largest panel the readers accept is longer. Longer
/// input is refused before anything is reserved for it.
pub const MAX_MOVES: usize = MAX_SLOTS * MAX_SLOTS;

/// The error for a path of more than [`MAX_MOVES`] moves.
fn too_long() -> Error {
    Error::Path(format!(
        "the path has more than {MAX_MOVES} moves, more than the largest panel has slots"
    ))
}

/// A path: where it starts and the moves it makes, one slot at a time.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    /// The start slot.
    pub start: Pos,
    /// The moves, one slot each.
    pub moves: Vec<Direction>,
}

/// The line colour a slot is covered by, as the engine writes it
/// (`docs/rules.md#paths`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Line {
    /// Not covered.
    None = 0,
    /// The single line of a puzzle without symmetry.
    Black = 1,
    /// The line the player draws in a symmetry puzzle.
    Blue = 2,
    /// Its mirror image.
    Yellow = 3,
}

/// A legal path written onto a puzzle: the line colour of every slot, and
/// the start and end the rules need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    /// Line colour per slot, indexed like the puzzle's slots.
    pub lines: Vec<Line>,
    /// The start slot used.
    pub start: Pos,
    /// The slot the path stops at.
    pub end: Pos,
    /// Every slot the drawn line visits, in order.
    pub slots: Vec<Pos>,
}

fn dir_code(d: Direction) -> u8 {
    match d {
        Direction::Left => 1,
        Direction::Right => 2,
        Direction::Up => 3,
        Direction::Down => 4,
    }
}

fn dir_letter(d: Direction) -> char {
    match d {
        Direction::Left => 'L',
        Direction::Right => 'R',
        Direction::Up => 'U',
        Direction::Down => 'D',
    }
}

impl Path {
    /// A path from its start and moves.
    pub fn new(start: Pos, moves: Vec<Direction>) -> Path {
        Path { start, moves }
    }

    /// This path on `puzzle`, as drawn on its copy turned over by `turn`
    /// ([`Puzzle::turned`]); an [`Error::Path`] when its start is not a
    /// slot of `puzzle`.
    pub fn turned(&self, puzzle: &Puzzle, turn: Turn) -> Result<Path> {
        let start = turn.pos(puzzle, self.start).ok_or_else(|| {
            Error::Path(format!(
                "the start ({}, {}) is not on the panel",
                self.start.x, self.start.y
            ))
        })?;
        let moves = self.moves.iter().map(|&d| turn.direction(d)).collect();
        Ok(Path::new(start, moves))
    }

    /// Reads any of the three notations, guessing which from the text.
    ///
    /// Without the puzzle, a coordinate step between column 0 and an odd
    /// column further than one apart is read as a step across a pillar's
    /// seam; [`Path::parse_on`] reads such steps against the puzzle instead.
    pub fn parse(text: &str) -> Result<Path> {
        Path::parse_with(text, Seam::Guess)
    }

    /// Reads any of the three notations for `puzzle`: a coordinate step
    /// across the seam is accepted only on a pillar, between its first and
    /// last columns.
    pub fn parse_on(text: &str, puzzle: &Puzzle) -> Result<Path> {
        Path::parse_with(text, Seam::of(puzzle))
    }

    fn parse_with(text: &str, seam: Seam) -> Result<Path> {
        let t = text.trim();
        if t.starts_with('[') {
            let v: Value = serde_json::from_str(t).map_err(|e| {
                Error::Path(format!("not valid JSON at column {}: {e}", e.column()))
            })?;
            let arr = v
                .as_array()
                .ok_or_else(|| Error::Path("expected an array".into()))?;
            match arr.first() {
                Some(Value::Array(_)) => Path::coordinates(&v, seam),
                _ => Path::from_site(&v),
            }
        } else {
            Path::from_moves(t)
        }
    }

    /// Reads the site's form `[{"x":X,"y":Y}, d1, …, dn, 0]`. The final `0`
    /// may be left out.
    pub fn from_site(v: &Value) -> Result<Path> {
        let arr = v
            .as_array()
            .ok_or_else(|| Error::Path(format!("a path must be an array, not {v}")))?;
        let first = arr.first().ok_or_else(|| {
            Error::Path("the path is empty: it needs a start {\"x\",\"y\"}".into())
        })?;
        let coord = |k: &str| {
            first
                .get(k)
                .and_then(Value::as_u64)
                .map(|n| n as usize)
                .ok_or_else(|| {
                    Error::Path(format!(
                    "the path must begin with {{\"x\": X, \"y\": Y}} of whole numbers, not {first}"
                ))
                })
        };
        let start = Pos::new(coord("x")?, coord("y")?);
        if arr.len() > MAX_MOVES + 2 {
            return Err(too_long());
        }
        let mut moves = Vec::with_capacity(arr.len());
        for (i, m) in arr.iter().enumerate().skip(1) {
            let d = match m.as_u64() {
                Some(0) if i == arr.len() - 1 => break,
                Some(0) => {
                    return Err(Error::Path(format!(
                        "element {i}: 0 (stop) may only be the last element"
                    )))
                }
                Some(1) => Direction::Left,
                Some(2) => Direction::Right,
                Some(3) => Direction::Up,
                Some(4) => Direction::Down,
                _ => {
                    return Err(Error::Path(format!(
                        "element {i}: a move must be 1 (left), 2 (right), 3 (up), 4 (down) or a final 0, not {m}"
                    )))
                }
            };
            moves.push(d);
        }
        if moves.len() > MAX_MOVES {
            return Err(too_long());
        }
        Ok(Path { start, moves })
    }

    /// Writes the site's form, with the final `0`.
    pub fn to_site(&self) -> Value {
        let mut out = vec![json!({"x": self.start.x, "y": self.start.y})];
        out.extend(self.moves.iter().map(|&d| json!(dir_code(d))));
        out.push(json!(0));
        Value::Array(out)
    }

    /// Reads a move string: `X,Y:` (or `(X, Y)`) then letters `LRUD`, each
    /// optionally followed by a count.
    pub fn from_moves(text: &str) -> Result<Path> {
        let t = text.trim();
        let (head, tail) = match t.find(':') {
            Some(i) => (&t[..i], &t[i + 1..]),
            None => match t.find(')') {
                Some(i) => (&t[..=i], &t[i + 1..]),
                None => {
                    return Err(Error::Path(format!(
                        "a move string starts with the start slot, as in \"0,6:R6U4\"; got \"{t}\""
                    )))
                }
            },
        };
        let nums: Vec<&str> = head
            .trim()
            .trim_start_matches('(')
            .trim_end_matches(')')
            .split(',')
            .map(str::trim)
            .collect();
        let parse_n = |s: &str| {
            s.parse::<usize>().map_err(|_| {
                Error::Path(format!(
                    "the start \"{head}\" must be two whole numbers X,Y"
                ))
            })
        };
        if nums.len() != 2 {
            return Err(Error::Path(format!(
                "the start \"{head}\" must be two whole numbers X,Y"
            )));
        }
        let start = Pos::new(parse_n(nums[0])?, parse_n(nums[1])?);
        let mut moves = Vec::new();
        let chars: Vec<char> = tail.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            i += 1;
            let d = match c.to_ascii_uppercase() {
                'L' => Direction::Left,
                'R' => Direction::Right,
                'U' => Direction::Up,
                'D' => Direction::Down,
                c if c.is_whitespace() || c == ',' => continue,
                other => {
                    return Err(Error::Path(format!(
                        "character {} of the moves: '{other}' is not one of L, R, U, D",
                        i
                    )))
                }
            };
            let begin = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n: usize = if begin == i {
                1
            } else {
                let s: String = chars[begin..i].iter().collect();
                s.parse()
                    .ok()
                    .filter(|&n| n <= 100_000)
                    .ok_or_else(|| Error::Path(format!("the repeat count {s} is too large")))?
            };
            if moves.len() + n > MAX_MOVES {
                return Err(too_long());
            }
            moves.extend(std::iter::repeat_n(d, n));
        }
        Ok(Path { start, moves })
    }

    /// Writes the move string, runs of one letter compressed to a count.
    pub fn to_moves(&self) -> String {
        let mut s = format!("{},{}:", self.start.x, self.start.y);
        let mut i = 0;
        while i < self.moves.len() {
            let d = self.moves[i];
            let mut j = i;
            while j < self.moves.len() && self.moves[j] == d {
                j += 1;
            }
            s.push(dir_letter(d));
            if j - i > 1 {
                s.push_str(&(j - i).to_string());
            }
            i = j;
        }
        s
    }

    /// Reads a list of coordinates `[[x,y], …]` or `[{"x":..,"y":..}, …]`;
    /// consecutive slots must be neighbours. A step between column 0 and an
    /// odd column is read as across a pillar's seam (checked later, against
    /// the puzzle); [`Path::from_coordinates_on`] knows the puzzle.
    pub fn from_coordinates(v: &Value) -> Result<Path> {
        Path::coordinates(v, Seam::Guess)
    }

    /// Reads a list of coordinates for `puzzle`: a step across the seam is
    /// one between the first and last columns of a pillar.
    pub fn from_coordinates_on(v: &Value, puzzle: &Puzzle) -> Result<Path> {
        Path::coordinates(v, Seam::of(puzzle))
    }

    fn coordinates(v: &Value, seam: Seam) -> Result<Path> {
        let arr = v
            .as_array()
            .ok_or_else(|| Error::Path("expected an array of [x, y]".into()))?;
        if arr.len() > MAX_MOVES + 1 {
            return Err(too_long());
        }
        let mut pts = Vec::with_capacity(arr.len());
        for (i, p) in arr.iter().enumerate() {
            let xy = match p {
                Value::Array(a) if a.len() == 2 => (a[0].as_u64(), a[1].as_u64()),
                Value::Object(_) => (
                    p.get("x").and_then(Value::as_u64),
                    p.get("y").and_then(Value::as_u64),
                ),
                _ => (None, None),
            };
            match xy {
                // i128: differences of any two u64 coordinates fit without overflow.
                (Some(x), Some(y)) => pts.push((x as i128, y as i128)),
                _ => {
                    return Err(Error::Path(format!(
                        "element {i}: expected [x, y] of whole numbers, not {p}"
                    )))
                }
            }
        }
        let Some(&(sx, sy)) = pts.first() else {
            return Err(Error::Path("the coordinate list is empty".into()));
        };
        let mut moves = Vec::new();
        for (i, w) in pts.windows(2).enumerate() {
            let (dx, dy) = (w[1].0 - w[0].0, w[1].1 - w[0].1);
            let d = match (dx, dy) {
                (0, 1) => Direction::Down,
                (0, -1) => Direction::Up,
                (1, 0) => Direction::Right,
                (-1, 0) => Direction::Left,
                // A step across a pillar's seam: right from the last
                // column onto column 0, left from column 0 onto the last.
                (dx, 0) if dx < -1 && w[1].0 == 0 && seam.is_last(w[0].0) => Direction::Right,
                (dx, 0) if dx > 1 && w[0].0 == 0 && seam.is_last(w[1].0) => Direction::Left,
                _ => {
                    return Err(Error::Path(format!(
                        "elements {i} and {}: ({}, {}) and ({}, {}) are not neighbours",
                        i + 1,
                        w[0].0,
                        w[0].1,
                        w[1].0,
                        w[1].1
                    )))
                }
            };
            moves.push(d);
        }
        Ok(Path {
            start: Pos::new(sx as usize, sy as usize),
            moves,
        })
    }

    /// The slots the path visits, in order, without any legality check other
    /// than staying on the grid.
    pub fn slots(&self, puzzle: &Puzzle) -> Result<Vec<Pos>> {
        if !puzzle.contains(self.start) {
            return Err(Error::Path(format!(
                "the start {} is off the {} x {} grid",
                self.start,
                puzzle.width(),
                puzzle.height()
            )));
        }
        let mut out = Vec::with_capacity(self.moves.len() + 1);
        let mut p = self.start;
        out.push(p);
        for (i, &d) in self.moves.iter().enumerate() {
            p = puzzle.neighbor(p, d).ok_or_else(|| {
                Error::Path(format!("move {} ({:?}) from {p} leaves the grid", i + 1, d))
            })?;
            out.push(p);
        }
        Ok(out)
    }

    /// Checks the path against the legality rules (`docs/rules.md#paths`, with
    /// the play-mode rule that a start may be its own mirror) and writes it
    /// onto the grid (`docs/rules.md#paths`). The error says which move breaks
    /// which rule.
    #[doc(hidden)]
    pub fn trace(&self, puzzle: &Puzzle) -> Result<Trace> {
        let n = puzzle.width() * puzzle.height();
        let start = self.start;
        if !puzzle.contains(start) {
            return Err(Error::Path(format!(
                "the start {start} is off the {} x {} grid",
                puzzle.width(),
                puzzle.height()
            )));
        }
        if !puzzle.cell(start).start {
            return Err(Error::Path(format!("{start} is not a start point")));
        }
        let sym = puzzle.symmetry.is_some();
        let mut lines = vec![Line::None; n];
        let main = if sym { Line::Blue } else { Line::Black };
        let mut slots = Vec::with_capacity(self.moves.len() + 1);
        let mut p = start;
        for step in 0..=self.moves.len() {
            if step > 0 {
                let d = self.moves[step - 1];
                // The error messages are written only when needed.
                let what = || format!("move {step} ({d:?}) from {p}");
                // Horizontal moves need an even y; vertical ones an even x.
                let ok = if d.is_horizontal() {
                    p.y.is_multiple_of(2)
                } else {
                    p.x.is_multiple_of(2)
                };
                if !ok {
                    return Err(Error::Path(format!(
                        "{}: a line can only move along grid lines",
                        what()
                    )));
                }
                p = puzzle
                    .neighbor(p, d)
                    .ok_or_else(|| Error::Path(format!("{}: leaves the grid", what())))?;
            }
            let what = || {
                if step == 0 {
                    format!("the start {p}")
                } else {
                    format!("move {step} to {p}")
                }
            };
            let i = puzzle.index(p);
            if p.kind() == SlotKind::Face {
                return Err(Error::Path(format!("{}: enters a face", what())));
            }
            if puzzle.cell(p).gap != Gap::None {
                return Err(Error::Path(format!("{}: crosses a gap", what())));
            }
            if lines[i] != Line::None {
                return Err(Error::Path(format!(
                    "{}: the slot is already covered by a line",
                    what()
                )));
            }
            if sym {
                let m = puzzle.mirror(p);
                if m == p && step > 0 {
                    return Err(Error::Path(format!(
                        "{}: the slot is its own mirror, where the two lines would meet",
                        what()
                    )));
                }
                if puzzle.cell(m).gap != Gap::None {
                    return Err(Error::Path(format!(
                        "{}: the mirror line would cross a gap at {m}",
                        what()
                    )));
                }
                lines[i] = Line::Blue;
                lines[puzzle.index(m)] = Line::Yellow;
            } else {
                lines[i] = main;
            }
            slots.push(p);
        }
        if puzzle.cell(p).end.is_none() {
            return Err(Error::Path(format!(
                "the path stops at {p}, which is not an endpoint"
            )));
        }
        Ok(Trace {
            lines,
            start,
            end: p,
            slots,
        })
    }
}

impl std::fmt::Display for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_moves())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notations_round_trip() {
        let p = Path::parse(r#"[{"x":0,"y":6},2,2,3,3,0]"#).unwrap();
        assert_eq!(p.to_moves(), "0,6:R2U2");
        assert_eq!(Path::parse("0,6:R2U2").unwrap(), p);
        assert_eq!(Path::parse("(0, 6) rrUu").unwrap(), p);
        assert_eq!(Path::parse("[[0,6],[1,6],[2,6],[2,5],[2,4]]").unwrap(), p);
        assert_eq!(Path::from_site(&p.to_site()).unwrap(), p);
    }

    #[test]
    fn bad_notations() {
        assert!(Path::parse("[{\"x\":0},1]").is_err());
        assert!(Path::parse("[{\"x\":0,\"y\":0},1,0,2]").is_err());
        assert!(Path::parse("[{\"x\":0,\"y\":0},7]").is_err());
        assert!(Path::parse("0,0:RX").is_err());
        assert!(Path::parse("RRU").is_err());
        assert!(Path::parse("[[0,0],[2,0]]").is_err());
        assert!(Path::parse("[").is_err());
    }

    #[test]
    fn coordinate_steps_across_the_seam_are_read_against_the_puzzle() {
        // A pillar 3 faces round has slot columns 0..=5 (its last column,
        // 5, wraps onto column 0); one 4 faces round has columns 0..=7.
        let narrow = Puzzle::new(3, 1, true).unwrap();
        let wide = Puzzle::new(4, 1, true).unwrap();
        let flat = Puzzle::new(3, 1, false).unwrap();
        let text = "[[0,0],[5,0]]";
        // On the narrow pillar, 0 to 5 is a step left across the seam.
        let across = Path::parse_on(text, &narrow).unwrap();
        assert_eq!(across.moves, vec![Direction::Left]);
        assert_eq!(across.slots(&narrow).unwrap()[1], Pos::new(5, 0));
        // On the wide pillar column 5 is not its last: not neighbours
        // (without the puzzle, the guess would go to column 7 instead).
        let e = Path::parse_on(text, &wide).unwrap_err().to_string();
        assert!(e.contains("not neighbours"), "{e}");
        assert_eq!(
            Path::parse(text).unwrap().slots(&wide).unwrap()[1],
            Pos::new(7, 0)
        );
        // A flat panel has no seam; 7 to 0 on the wide pillar is a step right.
        assert!(Path::parse_on(text, &flat).is_err());
        let right = Path::parse_on("[[7,0],[0,0]]", &wide).unwrap();
        assert_eq!(right.moves, vec![Direction::Right]);
        // Other notations do not depend on the puzzle.
        assert_eq!(
            Path::parse_on("0,0:L", &wide).unwrap(),
            Path::parse("0,0:L").unwrap()
        );
    }

    #[test]
    fn paths_longer_than_any_panel_are_refused_before_they_are_built() {
        // 10,000 runs of 100,000 moves each would be a billion moves; the
        // reader stops at the first run past the cap.
        let huge = format!("0,0:{}", "R100000".repeat(10_000));
        let e = Path::parse(&huge).unwrap_err();
        assert!(e.to_string().contains("more than"), "{e}");
        // Exactly the cap is still a path (illegal on any panel, but read).
        let at_cap = format!("0,0:R{MAX_MOVES}");
        assert_eq!(Path::parse(&at_cap).unwrap().moves.len(), MAX_MOVES);
        assert!(Path::parse(&format!("0,0:R{MAX_MOVES}R")).is_err());
        // The site's form and coordinate lists are capped alike.
        let site = format!("[{{\"x\":0,\"y\":0}}{}]", ",2".repeat(MAX_MOVES + 1));
        assert!(Path::parse(&site).is_err());
        let coords = format!("[{}]", vec!["[0,0]"; MAX_MOVES + 2].join(","));
        assert!(Path::parse(&coords)
            .unwrap_err()
            .to_string()
            .contains("more than"));
    }
}

/// What a coordinate path knows of a pillar's seam.
#[derive(Copy, Clone)]
enum Seam {
    /// No puzzle: any odd column may be a pillar's last (a pillar has an
    /// even number of columns).
    Guess,
    /// A pillar whose last column is this one.
    Last(i128),
    /// Not a pillar: no step crosses a seam.
    Flat,
}

impl Seam {
    fn of(puzzle: &Puzzle) -> Seam {
        if puzzle.pillar() {
            Seam::Last(puzzle.width() as i128 - 1)
        } else {
            Seam::Flat
        }
    }

    fn is_last(self, x: i128) -> bool {
        match self {
            Seam::Guess => x % 2 == 1,
            Seam::Last(last) => x == last,
            Seam::Flat => false,
        }
    }
}

//! Alcazar mazes (the `.puzzle` files of AlcaSAT, see `alcazar.md`) as
//! Witness panels.
//!
//! The file is a character grid of `2W+1` columns and `2H+1` lines for
//! `W x H` rooms: `0` rooms at odd/odd, `x` walls and corners, a space for
//! an open passage (on the outer wall: a door), and `-` or `|` for a
//! passage a saved solution uses. Each room becomes a node carrying a dot,
//! so a path covering every dot visits every room once; a wall between two
//! rooms becomes a broken edge; a room with a door becomes a node that is
//! both a start and an end, its cap facing the door. The puzzle is marked
//! [`Puzzle::undirected`]: a maze path has no direction.

use crate::error::{how_many, Error, Result};
use crate::model::{Direction, Dot, Gap, Pos, Puzzle, MAX_SLOTS};

/// True when a text looks like an Alcazar maze: lines of `x`, `0`, spaces
/// and solution strokes only, with at least one room.
pub fn looks_like_maze(text: &str) -> bool {
    let lines = maze_lines(text);
    lines.len() >= 3
        && text.contains('0')
        && text.contains('x')
        && lines
            .iter()
            .all(|l| l.chars().all(|c| matches!(c, 'x' | '0' | ' ' | '-' | '|')))
}

/// The lines of a maze, without line-end characters and without blank
/// lines at either end.
fn maze_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty())
        .unwrap_or(lines.len());
    lines.drain(..first);
    lines
}

/// Reads an Alcazar maze.
pub fn parse(text: &str) -> Result<Puzzle> {
    let lines = maze_lines(text);
    let rows: Vec<Vec<char>> = lines.iter().map(|l| l.chars().collect()).collect();
    let width = rows.iter().map(Vec::len).max().unwrap_or(0);
    if rows.len() < 3 || width < 3 {
        return Err(Error::Parse(format!(
            "an Alcazar maze needs at least 3 lines of 3 characters (one room), not {} of at most {width}",
            how_many(rows.len(), "line")
        )));
    }
    if rows.len().is_multiple_of(2) {
        return Err(Error::Parse(format!(
            "an Alcazar maze has an odd number of lines (2 per row of rooms, plus 1), not {}",
            rows.len()
        )));
    }
    // As AlcaSAT's read(): W = longest line // 2, H = lines // 2. A line may
    // lack trailing spaces (doors on the right border); pad it.
    let (w, h) = (width / 2, rows.len() / 2);
    if 2 * w - 1 > MAX_SLOTS || 2 * h - 1 > MAX_SLOTS {
        return Err(Error::Size(format!(
            "a maze of {w} x {h} rooms is larger than the {MAX_SLOTS}-slot limit allows"
        )));
    }
    let at = |x: usize, y: usize| rows[y].get(x).copied().unwrap_or(' ');
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let ok = match (x % 2, y % 2) {
                (1, 1) => c == '0',
                (0, 0) => c == 'x' || c == ' ',
                _ => matches!(c, 'x' | ' ' | '-' | '|'),
            };
            if !ok {
                let want = match (x % 2, y % 2) {
                    (1, 1) => "a room '0'",
                    (0, 0) => "a corner 'x'",
                    _ => "a wall 'x', a passage ' ' or a stroke '-' or '|'",
                };
                return Err(Error::Parse(format!(
                    "line {}, column {}: '{}' where {want} belongs",
                    y + 1,
                    x + 1,
                    c.escape_default()
                )));
            }
        }
    }
    for y in (1..rows.len()).step_by(2) {
        for x in (1..2 * w).step_by(2) {
            if at(x, y) != '0' {
                return Err(Error::Parse(format!(
                    "line {}, column {}: the room is missing (the line is too short)",
                    y + 1,
                    x + 1
                )));
            }
        }
    }
    let mut puzzle = Puzzle::new(w - 1, h - 1, false)?;
    puzzle.undirected = true;
    let open = |x: usize, y: usize| at(x, y) != 'x';
    for j in 0..h {
        for i in 0..w {
            let (cx, cy) = (2 * i + 1, 2 * j + 1);
            let node = Pos::new(2 * i, 2 * j);
            puzzle.cell_mut(node).dot = Dot::Black;
            if i + 1 < w && !open(cx + 1, cy) {
                puzzle.cell_mut(Pos::new(2 * i + 1, 2 * j)).gap = Gap::Break;
            }
            if j + 1 < h && !open(cx, cy + 1) {
                puzzle.cell_mut(Pos::new(2 * i, 2 * j + 1)).gap = Gap::Break;
            }
            let doors = [
                (i == 0 && open(cx - 1, cy), Direction::Left),
                (i + 1 == w && open(cx + 1, cy), Direction::Right),
                (j == 0 && open(cx, cy - 1), Direction::Up),
                (j + 1 == h && open(cx, cy + 1), Direction::Down),
            ];
            // A corner room with two doors keeps the first side's cap; the
            // node is a start and an end either way.
            if let Some(&(_, d)) = doors.iter().find(|(door, _)| *door) {
                let c = puzzle.cell_mut(node);
                c.start = true;
                c.end = Some(d);
            }
        }
    }
    puzzle.check_symmetry()?;
    Ok(puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE1: &str =
        "xxxxxxx\nx0 0 0x\nx xxx x\n 0x0 0x\nx x x x\n 0x0 0x\nx xxx x\nx0 0 0x\nxxxxxxx\n";

    #[test]
    fn sample1_maps_as_the_spec_draws_it() {
        assert!(looks_like_maze(SAMPLE1));
        let p = parse(SAMPLE1).unwrap();
        assert_eq!((p.face_width(), p.face_height()), (2, 3));
        assert!(p.undirected);
        let doors: Vec<Pos> = p.starts().collect();
        assert_eq!(doors, vec![Pos::new(0, 2), Pos::new(0, 4)]);
        assert_eq!(p.cell(Pos::new(0, 2)).end, Some(Direction::Left));
        // Walls between rooms (1,0)-(1,1) and (0,1)-(1,1).
        assert_eq!(p.cell(Pos::new(2, 1)).gap, Gap::Break);
        assert_eq!(p.cell(Pos::new(1, 2)).gap, Gap::Break);
        assert_eq!(p.cell(Pos::new(3, 2)).gap, Gap::None);
        assert!(p
            .cells()
            .filter(|(q, _)| q.x % 2 == 0 && q.y % 2 == 0)
            .all(|(_, c)| c.dot == Dot::Black));
    }
}

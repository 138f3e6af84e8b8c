//! The empty panel of a generated puzzle (size, pillar, symmetry, starts,
//! ends, gaps) and the random legal line its symbols are placed along, or
//! the panel of a given line ([`around`]).

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::GenerateOptions;
use crate::error::{Error, Result};
use crate::model::{Direction, Gap, Pos, Puzzle, SlotKind};
use crate::path::{Line, Path, Trace};

/// A panel with its line: the puzzle (no symbols yet), the path and its
/// trace on the panel.
pub struct Framed {
    /// The panel.
    pub puzzle: Puzzle,
    /// The line, legal on the panel.
    pub path: Path,
    /// The line written onto the panel.
    pub trace: Trace,
}

/// Every node of the panel.
pub fn nodes(p: &Puzzle) -> Vec<Pos> {
    p.positions()
        .filter(|q| q.kind() == SlotKind::Node)
        .collect()
}

/// The way out of the panel at a border node, for an end's cap; `None`
/// inside.
fn outward(p: &Puzzle, n: Pos) -> Option<Direction> {
    if n.y == 0 {
        Some(Direction::Up)
    } else if n.y == p.height() - 1 {
        Some(Direction::Down)
    } else if p.pillar() {
        None
    } else if n.x == 0 {
        Some(Direction::Left)
    } else if n.x == p.width() - 1 {
        Some(Direction::Right)
    } else {
        None
    }
}

/// The nodes where a start may go, and of those the ones on the border
/// where an end may go: a start is never its own mirror, and its mirror
/// is no start (the line drawn from the mirrored start would be a second
/// solution).
pub fn places(p: &Puzzle) -> (Vec<Pos>, Vec<Pos>) {
    let usable: Vec<Pos> = nodes(p)
        .into_iter()
        .filter(|&n| !p.is_self_mirror(n))
        .collect();
    let border = usable
        .iter()
        .copied()
        .filter(|&n| outward(p, n).is_some())
        .collect();
    (usable, border)
}

/// Draws a panel and a line on it; `None` when this draw found no line
/// (the caller draws again).
pub fn draw(o: &GenerateOptions, rng: &mut ChaCha8Rng) -> Result<Option<Framed>> {
    let mut p = Puzzle::new(o.width, o.height, o.pillar)?;
    p.symmetry = o.symmetry;
    p.rules = o.rules;
    p.check_symmetry()?;
    if let Some(line) = &o.around {
        let (p, _) = around(&p, line)?;
        return Ok(Some(edges(o, rng, p, line.clone())?));
    }
    let (usable, border) = places(&p);
    if usable.is_empty() || border.is_empty() {
        return Ok(None);
    }
    // Starts leave the border room for the ends asked for: past the
    // border nodes to spare, a start goes inside.
    let on_border = |q: Pos| outward(&p, q).is_some();
    let spare = border.len().saturating_sub(o.ends.max(1));
    let starts = pick(rng, &usable, o.starts.max(1), |q, s| {
        s.iter().any(|&t| t == q || p.mirror(t) == q)
            || (on_border(q) && s.iter().filter(|&&t| on_border(t)).count() >= spare)
    });
    for &s in &starts {
        p.cell_mut(s).start = true;
    }
    let ends = pick(rng, &border, o.ends.max(1), |q, s| {
        s.contains(&q) || p.cell(q).start
    });
    if ends.is_empty() {
        return Ok(None);
    }
    for &e in &ends {
        p.cell_mut(e).end = outward(&p, e);
        let m = p.mirror(e);
        if m != e && !p.cell(m).start {
            p.cell_mut(m).end = outward(&p, m);
        }
    }
    let start = starts[rng.random_range(0..starts.len())];
    let Some(moves) = random_line(&p, rng, start) else {
        return Ok(None);
    };
    let path = Path::new(start, moves);
    edges(o, rng, p, path).map(Some)
}

/// The frame of a puzzle made around `line` on the empty panel `empty`:
/// the line's first node is the only start, its last node (on the border)
/// the only end, with their mirrors on a symmetry panel; and the line's
/// trace on it. An [`Error::Options`] naming why when the line is not a
/// legal line there (off the grid, crossing itself or its mirror, a start
/// that is its own mirror, an end inside the panel).
pub fn around(empty: &Puzzle, line: &Path) -> Result<(Puzzle, Trace)> {
    let bad = |m: String| Error::Options(format!("the line to make a puzzle around: {m}"));
    let mut p = empty.clone();
    let slots = line.slots(&p).map_err(|e| bad(e.to_string()))?;
    let (start, end) = (slots[0], slots[slots.len() - 1]);
    if start.kind() != SlotKind::Node {
        return Err(bad(format!("it starts at {start}, which is not a node")));
    }
    if end.kind() != SlotKind::Node {
        return Err(bad(format!("it ends at {end}, which is not a node")));
    }
    if line.moves.is_empty() {
        return Err(bad("it has no move".into()));
    }
    if p.symmetry.is_some() && p.is_self_mirror(start) {
        return Err(bad(format!(
            "it starts at {start}, its own mirror, so its mirror line would be a second solution"
        )));
    }
    let Some(out) = outward(&p, end) else {
        return Err(bad(format!(
            "it ends at {end}, inside the panel, where no end can be"
        )));
    };
    p.cell_mut(start).start = true;
    p.cell_mut(end).end = Some(out);
    let m = p.mirror(end);
    if m != end && !p.cell(m).start {
        p.cell_mut(m).end = outward(&p, m);
    }
    let trace = line.trace(&p).map_err(|e| bad(e.to_string()))?;
    Ok((p, trace))
}

/// Adds the gaps and removed edges the options ask for where neither line
/// passes, and writes the line onto the final panel.
fn edges(o: &GenerateOptions, rng: &mut ChaCha8Rng, mut p: Puzzle, path: Path) -> Result<Framed> {
    let trace = path.trace(&p)?;
    // Gaps and removed edges where neither line passes.
    let free_edges: Vec<Pos> = p
        .positions()
        .filter(|q| q.kind() == SlotKind::Edge && trace.lines[p.index(*q)] == Line::None)
        .filter(|q| trace.lines[p.index(p.mirror(*q))] == Line::None)
        .collect();
    let mut free = free_edges;
    free.shuffle(rng);
    let mut placed = 0;
    for q in free.iter().copied() {
        if placed == o.gaps {
            break;
        }
        if p.cell(q).gap == Gap::None {
            p.cell_mut(q).gap = Gap::Break;
            placed += 1;
        }
    }
    let mut removed = 0;
    for q in free.iter().copied() {
        if removed == o.removed {
            break;
        }
        if on_border(&p, q) && p.cell(q).gap == Gap::None {
            p.cell_mut(q).gap = Gap::Full;
            removed += 1;
        }
    }
    // The line is legal on the final panel (the validator's own check).
    let trace = path.trace(&p)?;
    Ok(Framed {
        puzzle: p,
        path,
        trace,
    })
}

/// True for a slot on the panel's border: the top or bottom row, or (not
/// on a pillar) the first or last column.
pub fn on_border(p: &Puzzle, q: Pos) -> bool {
    q.y == 0 || q.y == p.height() - 1 || (!p.pillar() && (q.x == 0 || q.x == p.width() - 1))
}

/// Up to `n` distinct items of `from`, in random order, skipping those
/// `taken` refuses given the ones already picked.
fn pick(
    rng: &mut ChaCha8Rng,
    from: &[Pos],
    n: usize,
    taken: impl Fn(Pos, &[Pos]) -> bool,
) -> Vec<Pos> {
    let mut order = from.to_vec();
    order.shuffle(rng);
    let mut out = Vec::new();
    for q in order {
        if out.len() == n {
            break;
        }
        if !taken(q, &out) {
            out.push(q);
        }
    }
    out
}

/// A random self-avoiding line from `start` to an end node (the mirror
/// line avoiding it too), by a randomised depth-first walk with a step
/// budget, passing ends until it is long enough; its moves are single
/// slots. `None` when the budget runs out.
fn random_line(p: &Puzzle, rng: &mut ChaCha8Rng, start: Pos) -> Option<Vec<Direction>> {
    let n = p.width() * p.height();
    let mut used = vec![false; n];
    let blocked = |used: &[bool], q: Pos| {
        used[p.index(q)] || used[p.index(p.mirror(q))] || (p.symmetry.is_some() && p.mirror(q) == q)
    };
    used[p.index(start)] = true;
    // Each frame: a node, the directions left to try from it.
    let mut stack: Vec<(Pos, Vec<Direction>)> = vec![(start, shuffled(rng))];
    let mut moves: Vec<Direction> = Vec::new();
    let mut budget = 40 * n + 200;
    // A line of at least a third of the nodes (a sixth with two lines),
    // so that it parts the panel into several regions.
    let share = if p.symmetry.is_some() { 6 } else { 3 };
    let min_steps = (nodes(p).len() / share).max(1);
    while let Some((node, dirs)) = stack.last_mut() {
        let node = *node;
        if budget == 0 {
            return None;
        }
        budget -= 1;
        let Some(d) = dirs.pop() else {
            stack.pop();
            used[p.index(node)] = false;
            moves.pop();
            moves.pop();
            continue;
        };
        let Some(edge) = p.neighbor(node, d) else {
            continue;
        };
        let Some(next) = p.neighbor(edge, d) else {
            continue;
        };
        if p.cell(edge).gap != Gap::None
            || p.cell(next).gap != Gap::None
            || p.cell(p.mirror(edge)).gap != Gap::None
            || p.cell(p.mirror(next)).gap != Gap::None
            || blocked(&used, edge)
            || blocked(&used, next)
        {
            continue;
        }
        moves.push(d);
        moves.push(d);
        used[p.index(next)] = true;
        if p.cell(next).end.is_some() && moves.len() / 2 >= min_steps {
            return Some(moves);
        }
        let ds = shuffled(rng);
        stack.push((next, ds));
    }
    None
}

/// The four directions in random order.
fn shuffled(rng: &mut ChaCha8Rng) -> Vec<Direction> {
    let mut d = Direction::ALL.to_vec();
    d.shuffle(rng);
    d
}

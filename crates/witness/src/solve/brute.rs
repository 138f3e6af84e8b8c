//! The reference search: every legal path, each validated at its end. Slow
//! but obviously exact; the fast solver is tested against it.

use super::{Limits, Status};
use crate::error::Result;
use crate::model::{Direction, Gap, Puzzle, SlotKind};
use crate::path::{Line, Path};
use crate::rules::{Rules, Workspace};

/// Calls `visit` with every solution, in the engine's order (starts column
/// by column, moves left, right, up, down; a path that reaches an endpoint
/// before one that goes on). `visit` returns false to stop.
pub fn enumerate(
    puzzle: &Puzzle,
    limits: &Limits,
    mut visit: impl FnMut(&Path) -> bool,
) -> Result<Status> {
    let rules = Rules::new(puzzle)?;
    let n = puzzle.width() * puzzle.height();
    let mut st = State {
        puzzle,
        rules: &rules,
        lines: vec![Line::None; n],
        ws: Workspace::default(),
        moves: Vec::new(),
        limits,
        ticks: 0,
        stopped: false,
    };
    // One level of recursion per slot of the path.
    crate::stack::with_room(crate::stack::need_for_slots(n), || {
        for start in puzzle.starts().collect::<Vec<_>>() {
            if !st.walk(start, start, &mut visit) {
                break;
            }
        }
    });
    Ok(if st.stopped {
        Status::Stopped
    } else {
        Status::Complete
    })
}

struct State<'a> {
    puzzle: &'a Puzzle,
    rules: &'a Rules,
    lines: Vec<Line>,
    ws: Workspace,
    moves: Vec<Direction>,
    limits: &'a Limits,
    ticks: u32,
    stopped: bool,
}

impl State<'_> {
    /// Enters `p`; returns false when the search must stop.
    fn walk(
        &mut self,
        start: crate::model::Pos,
        p: crate::model::Pos,
        visit: &mut impl FnMut(&Path) -> bool,
    ) -> bool {
        self.ticks += 1;
        if self.ticks.is_multiple_of(4096) && self.limits.expired() {
            self.stopped = true;
            return false;
        }
        let pz = self.puzzle;
        let i = pz.index(p);
        let c = pz.cell(p);
        if p.kind() == SlotKind::Face || c.gap != Gap::None || self.lines[i] != Line::None {
            return true;
        }
        let sym = pz.symmetry.is_some();
        let m = pz.mirror(p);
        let mi = pz.index(m);
        if sym {
            if m == p && p != start {
                return true;
            }
            if pz.cell(m).gap != Gap::None {
                return true;
            }
            self.lines[i] = Line::Blue;
            self.lines[mi] = Line::Yellow;
        } else {
            self.lines[i] = Line::Black;
        }
        let mut go_on = true;
        if c.end.is_some() {
            let si = pz.index(start);
            if self.rules.is_valid(&self.lines, si, i, &mut self.ws) {
                go_on = visit(&Path::new(start, self.moves.clone()));
            }
        }
        if go_on {
            for d in Direction::ALL {
                // Horizontal moves need an even y, vertical ones an even x.
                let ok = if d.is_horizontal() {
                    p.y.is_multiple_of(2)
                } else {
                    p.x.is_multiple_of(2)
                };
                if !ok {
                    continue;
                }
                let Some(q) = pz.neighbor(p, d) else { continue };
                self.moves.push(d);
                let cont = self.walk(start, q, visit);
                self.moves.pop();
                if !cont {
                    go_on = false;
                    break;
                }
            }
        }
        self.lines[i] = Line::None;
        if sym {
            self.lines[mi] = Line::None;
        }
        go_on
    }
}

//! The reference search: every legal path, each validated at its end. Slow
//! but obviously exact; the fast solver is tested against it, and it
//! answers for the rules the fast solver's pruning does not follow
//! ([`super::plan::Plan::reference`]).

use super::search::Found;
use super::{Limits, Status};
use crate::error::Result;
use crate::model::{Direction, Gap, Puzzle, SlotKind};
use crate::path::{Line, Path};
use crate::rules::board::NONE;
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
    Ok(enumerate_rules(&rules, limits, |f| {
        visit(&Path::new(rules.board.pos(f.start), f.moves.to_vec()))
    }))
}

/// [`enumerate`] on compiled rules, each solution as the search reports
/// it (start and end slots, moves).
pub fn enumerate_rules(
    rules: &Rules,
    limits: &Limits,
    mut visit: impl FnMut(&Found) -> bool,
) -> Status {
    let n = rules.board.len();
    let mut st = State {
        rules,
        lines: vec![Line::None; n],
        ws: Workspace::default(),
        moves: Vec::new(),
        limits,
        ticks: 0,
        stopped: false,
    };
    // One level of recursion per slot of the path.
    crate::stack::with_room(crate::stack::need_for_slots(n), || {
        for start in (0..n).filter(|&i| rules.board.start[i]) {
            if !st.walk(start, start, &mut visit) {
                break;
            }
        }
    });
    if st.stopped {
        Status::Stopped
    } else {
        Status::Complete
    }
}

struct State<'a> {
    rules: &'a Rules,
    lines: Vec<Line>,
    ws: Workspace,
    moves: Vec<Direction>,
    limits: &'a Limits,
    ticks: u32,
    stopped: bool,
}

impl State<'_> {
    /// Enters slot `i`; returns false when the search must stop.
    fn walk(&mut self, start: usize, i: usize, visit: &mut impl FnMut(&Found) -> bool) -> bool {
        self.ticks += 1;
        if self.ticks.is_multiple_of(4096) && self.limits.expired() {
            self.stopped = true;
            return false;
        }
        let b = &self.rules.board;
        if b.kind[i] == SlotKind::Face || b.gap[i] != Gap::None || self.lines[i] != Line::None {
            return true;
        }
        let sym = b.symmetry.is_some();
        let mi = b.mirror[i] as usize;
        if sym {
            if mi == i && i != start {
                return true;
            }
            if b.gap[mi] != Gap::None {
                return true;
            }
            self.lines[i] = Line::Blue;
            self.lines[mi] = Line::Yellow;
        } else {
            self.lines[i] = Line::Black;
        }
        let mut go_on = true;
        if b.end[i] && self.rules.is_valid(&self.lines, start, i, &mut self.ws) {
            go_on = visit(&Found {
                start,
                end: i,
                moves: &self.moves,
            });
        }
        if go_on {
            let (x, y) = (i / b.h, i % b.h);
            for d in Direction::ALL {
                // Horizontal moves need an even y, vertical ones an even x.
                let ok = if d.is_horizontal() {
                    y.is_multiple_of(2)
                } else {
                    x.is_multiple_of(2)
                };
                let q = b.nbr[i][d as usize];
                if !ok || q == NONE {
                    continue;
                }
                self.moves.push(d);
                let cont = self.walk(start, q as usize, visit);
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

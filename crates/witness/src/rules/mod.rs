//! The validator: the witnesspuzzles.com engine's verdict on a traced path,
//! in play mode (`docs/rules.md#play-mode` to `#elimination-marks`, and
//! the choices of `docs/rules.md#decisions`).
//!
//! [`Rules`] compiles a [`Puzzle`] once; [`Rules::check`] then judges any
//! number of paths. The verdict names every failing element and the
//! elimination pairs used.

pub mod board;
pub mod marks;
pub mod memo;
pub mod polyfit;
pub mod regions;
pub mod scratch;
pub mod symbols;
pub mod windmill;

use board::{Board, Sym};
pub use memo::RegionMemo;
use regions::Regions;
use scratch::{CheckResult, Scratch};
use symbols::{region_check, region_clean, PolyTables};

use crate::error::{Error, Result};
use crate::model::{Dot, Pos, Puzzle, SlotKind};
use crate::path::{Line, Path, Trace};

/// The verdict on one path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// True when the path solves the puzzle.
    pub valid: bool,
    /// Every failing element, with its position.
    pub invalid: Vec<Failure>,
    /// Elimination pairs: (mark, element it erases).
    pub negations: Vec<(Pos, Pos)>,
}

/// Why an element fails.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reason {
    /// A hexagon dot the line does not cover.
    UncoveredDot,
    /// A blue or yellow dot covered by the other line.
    WrongColorDot,
    /// The line crosses a gap.
    GapCrossed,
    /// A triangle with the wrong number of line edges.
    Triangle,
    /// Squares of different colours share its region.
    Square,
    /// A star with no partner of its colour in its region.
    StarAlone,
    /// A star with more than one partner of its colour in its region.
    StarCrowded,
    /// The region's polyominoes do not fit.
    Polyomino,
    /// An elimination mark with nothing to erase.
    Elimination,
}

impl Reason {
    /// A short description for people.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::UncoveredDot => "dot not covered by the line",
            Reason::WrongColorDot => "dot covered by the line of the wrong colour",
            Reason::GapCrossed => "line crosses a gap",
            Reason::Triangle => "triangle with the wrong number of line edges",
            Reason::Square => "square sharing its region with another colour",
            Reason::StarAlone => "star without a partner of its colour",
            Reason::StarCrowded => "star with more than one partner of its colour",
            Reason::Polyomino => "polyominoes that do not fit their region",
            Reason::Elimination => "elimination mark with nothing to erase",
        }
    }
}

/// One failing element.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Where it is.
    pub pos: Pos,
    /// Why it fails.
    pub reason: Reason,
}

/// A puzzle compiled for validation.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The flat tables.
    #[doc(hidden)]
    pub board: Board,
    /// Polyomino placement tables.
    #[doc(hidden)]
    pub polys: PolyTables,
    /// Per slot, bit `l` set when a line of colour `l` (`Line as u8`) fails
    /// there: any line across a gap, the wrong colour on a blue or yellow
    /// dot. Bit 0 (no line) is never set.
    line_fails: Vec<u8>,
    /// The slots whose `line_fails` is not 0, in order: the only slots a
    /// line can fail on by being drawn there.
    fail_slots: Vec<u32>,
}

/// Buffers reused between checks.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    covered: Vec<bool>,
    removed: Vec<bool>,
    regions: Regions,
    scratch: Scratch,
    result: CheckResult,
    negs: Vec<u32>,
}

impl Workspace {
    /// Lets polyomino fits give up at `deadline` or once any of `flags` is
    /// set (with neither they never do). A fit that gives up answers
    /// "fits" and raises [`Workspace::fit_interrupted`].
    pub fn set_fit_limits(
        &mut self,
        deadline: Option<std::time::Instant>,
        flags: Vec<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) {
        self.scratch.set_fit_limits(polyfit::FitLimits {
            deadline,
            flags,
            max_steps: None,
        });
    }

    /// Lets each polyomino fit give up after `n` steps (`None`: never),
    /// as [`Workspace::set_fit_limits`]'s limits do.
    pub fn set_fit_step_cap(&mut self, n: Option<u64>) {
        self.scratch.set_fit_step_cap(n);
    }

    /// How many search steps all polyomino fits so far took.
    pub fn fit_steps(&self) -> u64 {
        self.scratch.fit_steps()
    }

    /// True when a polyomino fit gave up on its limits since the last
    /// [`Workspace::clear_fit_interrupted`]: answers since then may be wrong.
    pub fn fit_interrupted(&self) -> bool {
        self.scratch.fit_interrupted()
    }

    /// Forgets an earlier interruption.
    pub fn clear_fit_interrupted(&mut self) {
        self.scratch.clear_fit_interrupted();
    }
}

impl Rules {
    /// Compiles a puzzle for validation.
    pub fn new(puzzle: &Puzzle) -> Result<Rules> {
        Ok(Rules::from_board(Board::new(puzzle)?))
    }

    /// Compiles a board, as [`Rules::new`] does once it has the puzzle's.
    #[doc(hidden)]
    pub fn from_board(board: Board) -> Rules {
        let polys = PolyTables::new(&board);
        let line_fails = board
            .gap
            .iter()
            .zip(&board.dot)
            .map(|(&g, &d)| {
                let any = 1 << Line::Black as u8 | 1 << Line::Blue as u8 | 1 << Line::Yellow as u8;
                let gap = if g != crate::model::Gap::None { any } else { 0 };
                gap | match d {
                    Dot::Blue => 1 << Line::Yellow as u8,
                    Dot::Yellow => 1 << Line::Blue as u8,
                    _ => 0,
                }
            })
            .collect::<Vec<u8>>();
        let fail_slots = (0..line_fails.len() as u32)
            .filter(|&i| line_fails[i as usize] != 0)
            .collect();
        Rules {
            board,
            polys,
            line_fails,
            fail_slots,
        }
    }

    /// The OR of `line_fails[i] >> line` over the slots: bit 0 is set when
    /// some line is drawn where it fails (across a gap, the wrong colour
    /// on a dot).
    #[inline]
    pub(crate) fn line_fails_of(&self, lines: &[Line]) -> u8 {
        self.fail_slots.iter().fold(0u8, |acc, &i| {
            acc | self.line_fails[i as usize] >> lines[i as usize] as u8
        })
    }

    /// Checks a path on `puzzle`, the puzzle these rules were made from:
    /// first its legality (an illegal path is an error that says which
    /// move breaks which rule), then the symbols. A puzzle of another size
    /// is an [`Error::Options`].
    pub fn check_path(&self, puzzle: &Puzzle, path: &Path) -> Result<Verdict> {
        let (w, h) = (puzzle.width(), puzzle.height());
        if (w, h) != (self.board.w, self.board.h) {
            return Err(Error::Options(format!(
                "these rules were made from a panel of {} x {} slots, not this one of {w} x {h}",
                self.board.w, self.board.h
            )));
        }
        let trace = path.trace(puzzle)?;
        Ok(self.check(&trace))
    }

    /// The verdict on a legal, traced path.
    #[doc(hidden)]
    pub fn check(&self, trace: &Trace) -> Verdict {
        thread_local! {
            /// The buffers of this thread's checks (no fit limits are set).
            static WS: std::cell::RefCell<Workspace> = std::cell::RefCell::default();
        }
        let b = &self.board;
        let start = b.index(trace.start.x, trace.start.y);
        let end = b.index(trace.end.x, trace.end.y);
        // The polyomino fit recurses per face and per piece placed.
        crate::stack::with_room(crate::stack::need_for_slots(b.len()), || {
            WS.with(|ws| match ws.try_borrow_mut() {
                Ok(mut ws) => self.verdict(&trace.lines, start, end, &mut ws, false),
                Err(_) => self.verdict(&trace.lines, start, end, &mut Workspace::default(), false),
            })
        })
    }

    /// [`Rules::check`] within `limits`: [`Error::Stopped`] when a
    /// polyomino fit (the one part of a check whose work can grow
    /// exponentially with the panel) reaches the deadline or a cancel flag
    /// before the verdict is known.
    ///
    /// [`Error::Stopped`]: crate::Error::Stopped
    pub fn check_within(&self, trace: &Trace, limits: &crate::solve::Limits) -> Result<Verdict> {
        let b = &self.board;
        let start = b.index(trace.start.x, trace.start.y);
        let end = b.index(trace.end.x, trace.end.y);
        let mut ws = Workspace::default();
        ws.set_fit_limits(limits.deadline, limits.flags());
        let v = crate::stack::with_room(crate::stack::need_for_slots(b.len()), || {
            self.verdict(&trace.lines, start, end, &mut ws, false)
        });
        if ws.fit_interrupted() {
            return Err(crate::Error::Stopped);
        }
        Ok(v)
    }

    /// True when the lines (one colour per slot), drawn from `start` to
    /// `end`, solve the puzzle. The fast entry point for solvers.
    #[doc(hidden)]
    pub fn is_valid(&self, lines: &[Line], start: usize, end: usize, ws: &mut Workspace) -> bool {
        self.verdict(lines, start, end, ws, true).valid
    }

    /// The slots of the elements that fail for the lines drawn from
    /// `start` to `end`, into `out` (empty exactly when the path solves
    /// the puzzle): what a local search lowers.
    #[doc(hidden)]
    pub fn failures(
        &self,
        lines: &[Line],
        start: usize,
        end: usize,
        ws: &mut Workspace,
        out: &mut Vec<u32>,
    ) {
        let v = self.verdict(lines, start, end, ws, false);
        out.clear();
        let b = &self.board;
        out.extend(v.invalid.iter().map(|f| b.index(f.pos.x, f.pos.y) as u32));
    }

    /// True when one region, final for the line drawn so far (`covered`
    /// per slot, started at `start`), passes its checks, elimination marks
    /// included. For solvers.
    #[doc(hidden)]
    pub fn region_ok(
        &self,
        region: &[u32],
        covered: &[bool],
        start: usize,
        ws: &mut Workspace,
    ) -> bool {
        let _ = start;
        ws.removed.clear();
        ws.removed.resize(self.board.len(), false);
        self.judge_region(region, covered, ws, true).valid
    }

    /// True when the polyominoes of one region, final for the line drawn so
    /// far, fit it (`docs/rules.md#polyominoes`; true without any). Only the
    /// fit: the region's other symbols are not looked at. For solvers.
    #[doc(hidden)]
    pub fn region_fits(&self, region: &[u32], ws: &mut Workspace) -> bool {
        ws.removed.clear();
        ws.removed.resize(self.board.len(), false);
        symbols::poly_fit(
            &self.board,
            &self.polys,
            region,
            &ws.removed,
            &mut ws.scratch,
        )
    }

    /// One region's verdict (`docs/rules.md#regions`): a plain `regionCheck`,
    /// or the elimination procedure when the region holds marks (the
    /// Windmill's under its rules, `docs/rules.md#rule-profiles`). `ws.removed`
    /// must be all false; it is restored. With `decide_only` the failures and
    /// pairs are left empty.
    fn judge_region(
        &self,
        region: &[u32],
        covered: &[bool],
        ws: &mut Workspace,
        decide_only: bool,
    ) -> marks::NegationOutcome {
        let b = &self.board;
        ws.negs.clear();
        if b.has_negations {
            ws.negs.extend(
                region
                    .iter()
                    .copied()
                    .filter(|&s| b.sym[s as usize] == Sym::Nega),
            );
        }
        if ws.negs.is_empty() && decide_only {
            return marks::NegationOutcome {
                valid: region_clean(
                    b,
                    &self.polys,
                    region,
                    covered,
                    &ws.removed,
                    &mut ws.scratch,
                ),
                ..Default::default()
            };
        }
        if ws.negs.is_empty() {
            region_check(
                b,
                &self.polys,
                region,
                covered,
                &ws.removed,
                &mut ws.scratch,
                &mut ws.result,
            );
            let mut out = marks::NegationOutcome {
                valid: ws.result.is_clean(),
                ..Default::default()
            };
            if !decide_only {
                out.invalid
                    .extend(ws.result.very.iter().chain(&ws.result.soft));
            }
            return out;
        }
        if b.windmill {
            return windmill::resolve(
                b,
                &self.polys,
                region,
                covered,
                &mut ws.removed,
                &mut ws.scratch,
                decide_only,
            );
        }
        let negs = std::mem::take(&mut ws.negs);
        let out = marks::resolve(
            b,
            &self.polys,
            region,
            &negs,
            covered,
            &mut ws.removed,
            &mut ws.scratch,
            decide_only,
        );
        ws.negs = negs;
        out
    }

    fn verdict(
        &self,
        lines: &[Line],
        start: usize,
        end: usize,
        ws: &mut Workspace,
        decide_only: bool,
    ) -> Verdict {
        let b = &self.board;
        let n = b.len();
        let mut v = Verdict {
            valid: true,
            ..Default::default()
        };
        let fail = |v: &mut Verdict, i: usize, reason: Reason| {
            v.valid = false;
            v.invalid.push(Failure {
                pos: b.pos(i),
                reason,
            });
        };
        ws.covered.clear();
        ws.covered.extend(lines.iter().map(|&l| l != Line::None));
        ws.removed.clear();
        ws.removed.resize(n, false);
        // Global errors: gaps crossed, dots of the wrong colour.
        if decide_only {
            let fails = self.line_fails_of(lines);
            if fails & 1 != 0 {
                v.valid = false; // the failures are not listed
                return v;
            }
        } else {
            // Only these slots can fail this way (in index order, as the
            // engine lists them).
            for &i in &self.fail_slots {
                let i = i as usize;
                if lines[i] == Line::None {
                    continue;
                }
                if b.gap[i] != crate::model::Gap::None {
                    fail(&mut v, i, Reason::GapCrossed);
                }
                let wrong = match b.dot[i] {
                    Dot::Blue => lines[i] == Line::Yellow,
                    Dot::Yellow => lines[i] == Line::Blue,
                    _ => false,
                };
                if wrong {
                    fail(&mut v, i, Reason::WrongColorDot);
                }
            }
        }
        // Regions. (With only triangles on the panel the engine uses one
        // region of everything; for triangles and dots, whose rules do not
        // depend on regions, the verdict and the failures are the same, the
        // dots outside the panel being settled by the board.)
        let mut regions = std::mem::take(&mut ws.regions);
        if decide_only && !b.has_negations {
            // Without elimination marks a region's verdict does not depend
            // on the order of its slots.
            regions::regions_unordered(b, &ws.covered, start, end, &mut regions);
        } else {
            regions::regions(b, &ws.covered, start, end, &mut regions);
        }
        for r in 0..regions.len() {
            let region = regions.get(r);
            let covered = std::mem::take(&mut ws.covered);
            let out = self.judge_region(region, &covered, ws, decide_only);
            ws.covered = covered;
            if !out.valid {
                v.valid = false;
                if decide_only {
                    break;
                }
            }
            for &s in &out.invalid {
                let reason = self.reason(s as usize, &ws.covered, region, &ws.removed);
                fail(&mut v, s as usize, reason);
            }
            v.negations.extend(
                out.pairs
                    .iter()
                    .map(|&(a, c)| (b.pos(a as usize), b.pos(c as usize))),
            );
        }
        ws.regions = regions;
        v
    }

    /// Names the reason an element was reported.
    fn reason(&self, i: usize, covered: &[bool], region: &[u32], removed: &[bool]) -> Reason {
        let b = &self.board;
        if b.kind[i] != SlotKind::Face {
            return Reason::UncoveredDot;
        }
        match b.sym[i] {
            Sym::Triangle(_) => Reason::Triangle,
            Sym::Square => Reason::Square,
            Sym::Star => {
                let c = b.color[i];
                let same = region
                    .iter()
                    .filter(|&&s| {
                        let s = s as usize;
                        !removed[s]
                            && b.kind[s] == SlotKind::Face
                            && b.sym[s] != Sym::Empty
                            && b.color[s] == c
                    })
                    .count();
                // Erasures only lower the count, so a failing star with at
                // most one partner before them ended up alone.
                if same <= 2 {
                    Reason::StarAlone
                } else {
                    Reason::StarCrowded
                }
            }
            Sym::Poly(_) | Sym::Ylop(_) => Reason::Polyomino,
            Sym::Nega => Reason::Elimination,
            Sym::Empty => {
                let _ = covered;
                Reason::UncoveredDot
            }
        }
    }
}

/// Validates a path on a puzzle in one call (compiles the puzzle each time;
/// use [`Rules`] to check many paths).
pub fn validate(puzzle: &Puzzle, path: &Path) -> Result<Verdict> {
    Rules::new(puzzle)?.check_path(puzzle, path)
}

/// [`validate`] within `limits` (a deadline, a cancel flag):
/// [`crate::Error::Stopped`] when they end the check before its verdict.
pub fn validate_within(
    puzzle: &Puzzle,
    path: &Path,
    limits: &crate::solve::Limits,
) -> Result<Verdict> {
    let trace = path.trace(puzzle)?;
    Rules::new(puzzle)?.check_within(&trace, limits)
}

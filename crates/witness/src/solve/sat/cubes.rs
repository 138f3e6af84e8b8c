//! The elimination cases of a marked panel as cubes of one SAT run.
//!
//! The SAT engine encodes elimination marks with an "erased" flag per
//! element a mark may erase ([`super::encode`]), and leaves the choice of
//! what each mark erases to the solver, which on panels with many
//! symbols and pieces chooses poorly: it learns, for one choice after
//! another, why the line cannot work around it. The search's elimination
//! cases ([`crate::solve::mark_cases`]) make that choice up front, nearest
//! first. [`CaseCubes`] asks the SAT run about one case at a time, as
//! assumptions on its flags (the flags of what the case erases set, the
//! others clear), a few milliseconds each, in rounds whose budget doubles.
//! Everything the solver learns under one case's assumptions follows from
//! the clauses alone (CDCL's learnt clauses never rest on assumptions),
//! so it speeds up every later case and the run without assumptions.
//!
//! Exactness: a case's assumptions only narrow the run. A model found
//! under them passes the validator like any other ([`SatRun::solve`]), so
//! it is a solution of the panel. "No model" under a case drops that
//! case, and proves nothing about the panel: the flags of a solution need
//! not be exactly a case's (a flag may be set on an element that passes,
//! and a mark may lend its flag to a star). Once the cases are dropped,
//! or their budget has grown past [`CUBE_MAX`], the run goes on without
//! assumptions, and only that run's "none" is a proof.

use std::time::{Duration, Instant};

use super::SatRun;
use crate::model::{Dot, Puzzle};
use crate::solve::answer::{Answer, Solution, Status};
use crate::solve::mark_cases::{erasures, Erasure, MAX_CASES};
use crate::solve::race::{within, HeadStart};
use crate::{Limits, Result};

/// A case's first budget in the first round; it doubles each round.
pub const CUBE_FIRST: Duration = Duration::from_millis(2);

/// Past this budget a case the solver has not settled is given up, and
/// the run goes on without assumptions.
pub const CUBE_MAX: Duration = Duration::from_millis(32);

/// A SAT run on a marked panel that asks about its elimination cases one
/// at a time before it goes on without assumptions.
pub struct CaseCubes<'a> {
    run: SatRun<'a>,
    /// The cases still open, nearest first.
    cases: Vec<Erasure>,
    /// The case whose turn is next in this round.
    next: usize,
    /// Each case's budget in this round.
    budget: Duration,
    /// The time the case due has had this round.
    used: Duration,
    /// Per slot: whether it holds a dot.
    dots: Vec<bool>,
}

impl<'a> CaseCubes<'a> {
    /// The run on `puzzle`, with its cases (none without marks or with
    /// more than [`MAX_CASES`]: then every turn is the run's own). Fails
    /// as [`SatRun::new`] does.
    pub fn new(puzzle: &'a Puzzle, limits: &Limits) -> Result<CaseCubes<'a>> {
        let run = SatRun::new(puzzle, limits)?;
        let b = &run.rules.board;
        let cases = erasures(b, MAX_CASES).unwrap_or_default();
        let dots = (0..b.len()).map(|s| b.dot[s] != Dot::None).collect();
        Ok(CaseCubes {
            run,
            cases,
            next: 0,
            budget: CUBE_FIRST,
            used: Duration::ZERO,
            dots,
        })
    }

    /// Makes every later solution found blocked, so that the next turn
    /// finds another (for counts).
    pub fn block_found(&mut self) {
        self.run.block_found = true;
    }

    /// How many cases are still open.
    pub fn open(&self) -> usize {
        self.cases.len()
    }

    /// Solves with the assumptions of open case `k` (of [`CaseCubes::open`],
    /// nearest first) within `limits`: a path is a solution of the panel;
    /// "none" says only that no model has the case's flags.
    pub fn solve_case(&mut self, k: usize, limits: &Limits) -> Result<Solution> {
        let case = &self.cases[k];
        let (dots, some_dot) = (&self.dots, case.some_dot);
        self.run.solve_erasing(
            |s| {
                if some_dot && dots[s] {
                    None
                } else {
                    Some(case.slots.contains(&s))
                }
            },
            limits,
        )
    }

    /// Works for about `turn` (of wall time, within `limits`; a turn of
    /// `Duration::MAX` has no end of its own): the open cases, each for
    /// the round's budget (over several turns where a turn ends first),
    /// then the run without assumptions. A path is a solution; "none" with status complete is
    /// a proof (it comes only from the run without assumptions); status
    /// stopped says the turn or the limits ended first.
    pub fn turn(&mut self, limits: &Limits, turn: Duration) -> Result<Solution> {
        let t0 = Instant::now();
        while !self.cases.is_empty() {
            let left = turn.saturating_sub(t0.elapsed());
            if left.is_zero() || limits.expired() {
                return Ok(stopped());
            }
            // The rest of the case's budget this round, within the turn.
            let slice = self.budget.saturating_sub(self.used).min(left);
            let t = Instant::now();
            let sol = self.solve_case(self.next, &within(limits, HeadStart::of(slice)))?;
            self.used += t.elapsed();
            if sol.path.is_some() {
                return Ok(sol);
            }
            if sol.status == Status::Complete {
                // No model with this case's flags: the case goes.
                self.cases.remove(self.next);
                self.used = Duration::ZERO;
            } else if limits.expired() {
                return Ok(stopped());
            } else if self.used >= self.budget {
                // The case has had its budget this round (over turns,
                // if a turn ended first).
                self.next += 1;
                self.used = Duration::ZERO;
            }
            if self.next >= self.cases.len() {
                self.next = 0;
                self.budget *= 2;
                if self.budget > CUBE_MAX {
                    self.cases.clear();
                }
            }
        }
        if turn == Duration::MAX {
            return self.run.solve_turn(limits);
        }
        let left = turn.saturating_sub(t0.elapsed());
        if left.is_zero() {
            return Ok(stopped());
        }
        self.run.solve_turn(&within(limits, HeadStart::of(left)))
    }
}

/// No answer yet.
fn stopped() -> Solution {
    Solution {
        path: None,
        status: Status::Stopped,
    }
}

/// The first turn of [`CubeTurns`] where it shares its thread with other
/// work.
pub const TURN_FIRST: Duration = Duration::from_millis(2);

/// The longest turn of [`CubeTurns`]: its turns double from the first up
/// to this (a first turn of `Duration::MAX` stays so).
pub const TURN_MAX: Duration = Duration::from_millis(64);

/// What a turn of [`CubeTurns`] came to.
#[derive(Debug)]
pub enum CubeTurn {
    /// Nothing yet: its next turn goes on from here.
    Open,
    /// A solution (it passed the validator), as start slot, end slot (0:
    /// not told) and moves.
    Found(Answer),
    /// No solution besides those it found before (with blocking; without,
    /// none at all): a proof, every cut and blocking clause being sound.
    Proved,
    /// A panel the SAT engine does not encode, or a run that failed: it
    /// takes no more turns.
    Gone,
}

/// [`CaseCubes`] taking turns with other work on its thread: built at its
/// first turn (which pays for it), each turn going on from where the last
/// stopped, the turns doubling from a first length up to [`TURN_MAX`],
/// with the time they took kept, so that the thread can share its time
/// between the SAT engine and the rest ([`CubeTurns::due`]).
pub struct CubeTurns<'a> {
    puzzle: &'a Puzzle,
    cubes: Option<CaseCubes<'a>>,
    gone: bool,
    block: bool,
    next: Duration,
    time: Duration,
    started: Instant,
}

impl<'a> CubeTurns<'a> {
    /// Turns on `puzzle`, the first `first` long (`Duration::MAX`: every
    /// turn as long as the limits allow); with `block`, every solution
    /// found is blocked, so that the next turn finds another (for counts).
    pub fn new(puzzle: &'a Puzzle, first: Duration, block: bool) -> CubeTurns<'a> {
        CubeTurns {
            puzzle,
            cubes: None,
            gone: false,
            block,
            next: first,
            time: Duration::ZERO,
            started: Instant::now(),
        }
    }

    /// True when a turn is due on a thread it shares: it is not gone, the
    /// rest of the thread's work has had more than `after` since its
    /// making, and its time is under `share` (a fraction, numerator and
    /// denominator) of what the rest has had past `after`.
    pub fn due(&self, after: Duration, share: (u32, u32)) -> bool {
        let (num, den) = share;
        let rest = self.started.elapsed().saturating_sub(self.time);
        match rest.checked_sub(after) {
            Some(past) => !self.gone && self.time * den < past * num,
            None => false,
        }
    }

    /// The time its turns have taken so far, building included.
    pub fn time(&self) -> Duration {
        self.time
    }

    /// True once it takes no more turns ([`CubeTurn::Gone`]).
    pub fn gone(&self) -> bool {
        self.gone
    }

    /// One turn, within `limits`.
    pub fn turn(&mut self, limits: &Limits) -> CubeTurn {
        let t = Instant::now();
        let room = crate::stack::need_for_slots(self.puzzle.cell_slice().len());
        let out = crate::stack::with_room(room, || self.turn_inner(limits));
        self.time += t.elapsed();
        if self.next < TURN_MAX {
            self.next = self.next.saturating_mul(2).min(TURN_MAX);
        }
        out
    }

    fn turn_inner(&mut self, limits: &Limits) -> CubeTurn {
        if self.gone {
            return CubeTurn::Gone;
        }
        if self.cubes.is_none() {
            match CaseCubes::new(self.puzzle, limits) {
                Ok(mut c) => {
                    if self.block {
                        c.block_found();
                    }
                    self.cubes = Some(c);
                }
                Err(_) => {
                    self.gone = true;
                    return CubeTurn::Gone;
                }
            }
        }
        let run = self.cubes.as_mut().expect("built above");
        match run.turn(limits, self.next) {
            Ok(s) if s.status == Status::Complete => match s.path {
                Some(p) => {
                    let b = &run.run.rules.board;
                    CubeTurn::Found((b.index(p.start.x, p.start.y), 0, p.moves))
                }
                None => CubeTurn::Proved,
            },
            Ok(_) => CubeTurn::Open,
            Err(_) => {
                self.cubes = None;
                self.gone = true;
                CubeTurn::Gone
            }
        }
    }
}

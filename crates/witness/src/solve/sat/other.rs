//! Another solution than a given line, with the SAT engine: the
//! generator's question "is this line the only solution, and if not, what
//! is another?" (`docs/ARCHITECTURE.md`, "`generate/`").
//!
//! The engine counts as usual; the given line, when it comes, is blocked
//! like a counted solution and the next model is the answer. The work is
//! bounded by a budget of terminator checks: CaDiCaL asks its terminator
//! at fixed points of its own search, so the same panel stops at the same
//! point on every machine, unlike a deadline.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

use rustsat::solvers::ControlSignal;

use super::encode::Term;
use super::SatRun;
use crate::error::Result;
use crate::model::{Dot, Puzzle};
use crate::path::Path;
use crate::rules::board::{Sym, NONE};
use crate::rules::Rules;
use crate::solve::{Limits, Status};

/// The engine's options here: CaDiCaL's default configuration on every
/// panel, since the budgets of terminator checks are counted in its
/// steps ([`super::Options::plain_pieces`] off). The lucky phases go off
/// after the first calls as in every run ([`super::Options::later`]): a
/// generator's rounds make many calls on one panel, and the lucky phases
/// would take most of their time (`docs/benchmarks.md`, "Generating
/// puzzles"). The switch comes at a count of calls, so the budgets stay
/// the same on every machine.
fn budgeted() -> super::Options {
    super::Options {
        plain_pieces: false,
        ..super::Options::default()
    }
}

/// Up to `k` solutions of `puzzle` other than `line` (on undirected
/// puzzles, other than `line` and its reverse), within `limits`,
/// `budget` terminator checks and `calls` solver calls, and how the search ended: `Complete` with
/// fewer than `k` when every other solution is listed (none: `line` is
/// the only solution, or there is none); `Stopped` when `k` were found or
/// the budget or the limits ran out first. [`Error::Unsupported`]
/// for panels the engine does not take.
///
/// [`Error::Unsupported`]: crate::Error::Unsupported
pub fn other_solutions(
    puzzle: &Puzzle,
    line: &Path,
    limits: &Limits,
    (budget, calls): (u64, u64),
    k: usize,
) -> Result<(Vec<Path>, Status)> {
    let mut run = SatRun::with_options(puzzle, limits, &budgeted())?;
    run.max_calls = Some(calls);
    let spent = Arc::new(AtomicU64::new(0));
    let over = Arc::new(AtomicBool::new(false));
    {
        let (lim, spent, over) = (limits.clone(), spent.clone(), over.clone());
        run.solver.attach_terminator(move || {
            if spent.fetch_add(1, Ordering::Relaxed) >= budget {
                over.store(true, Ordering::Relaxed);
            }
            if over.load(Ordering::Relaxed) || lim.expired() {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
    }
    // The count's own loop stops at the first flag it sees set; the
    // budget's flag joins the caller's.
    let mut limits = limits.clone();
    limits.stop = Some(over.clone());
    let backwards: Option<Vec<_>> = if puzzle.undirected {
        line.slots(puzzle)
            .ok()
            .map(|v| v.into_iter().rev().collect())
    } else {
        None
    };
    let mut found = Vec::new();
    let c = run.count(None, &limits, |s| {
        let reversed = || backwards.is_some() && s.slots(puzzle).ok() == backwards;
        if !(s == line || reversed()) {
            found.push(s.clone());
        }
        found.len() < k.max(1)
    })?;
    Ok((found, c.status))
}

/// The SAT engine over the rounds of one generated puzzle: the panel
/// grows a symbol at a time (a cut against another solution), and the
/// solver keeps its clauses, its loop and region cuts and what it learnt
/// from one round to the next instead of encoding the panel anew.
///
/// Sound because the symbols it takes in without starting over (dots,
/// triangles and squares of a colour no star has, on a panel without
/// elimination marks) only make regions fail: every cut of an earlier
/// round still holds. The
/// other solutions found in earlier rounds are blocked in the solver, so
/// each round checks them again with the validator first. A panel whose
/// new symbols the solver cannot take in (polyominoes, marks, a symbol
/// removed; a star, which may mend a lone star's region) starts over with
/// a fresh encoding.
pub struct Rounds<'a> {
    run: SatRun<'a>,
    /// The other solutions blocked so far.
    blocked: Vec<Path>,
    spent: Arc<AtomicU64>,
    over: Arc<AtomicBool>,
}

impl<'a> Rounds<'a> {
    /// The engine on `p`, whose grid (size, pillar, symmetry, starts,
    /// ends, gaps) is that of `grid`, which the engine keeps borrowed: the
    /// later panels have that grid too.
    /// [`Error::Unsupported`](crate::Error::Unsupported) for panels the
    /// engine does not take.
    pub fn new(grid: &'a Puzzle, p: &Puzzle, limits: &Limits) -> Result<Rounds<'a>> {
        let spent = Arc::new(AtomicU64::new(0));
        let over = Arc::new(AtomicBool::new(false));
        let run = Self::fresh(grid, p, limits, &spent, &over)?;
        Ok(Rounds {
            run,
            blocked: Vec::new(),
            spent,
            over,
        })
    }

    /// A new engine on `p`, on the grid of `grid`, whose terminator counts
    /// down `spent` and then sets `over`.
    fn fresh(
        grid: &'a Puzzle,
        p: &Puzzle,
        limits: &Limits,
        spent: &Arc<AtomicU64>,
        over: &Arc<AtomicBool>,
    ) -> Result<SatRun<'a>> {
        let run = SatRun::with_options(p, limits, &budgeted())?;
        let mut run = SatRun {
            puzzle: grid,
            rules: run.rules,
            enc: run.enc,
            solver: run.solver,
            ws: run.ws,
            fails: run.fails,
            pieces: run.pieces,
            stats: run.stats,
            assumps: Vec::new(),
            max_calls: None,
            block_found: false,
            later: run.later,
            cut_short: run.cut_short,
            call: run.call,
        };
        let (lim, s, o) = (limits.clone(), spent.clone(), over.clone());
        run.solver.attach_terminator(move || {
            if s.fetch_sub(1, Ordering::Relaxed) <= 1 {
                o.store(true, Ordering::Relaxed);
            }
            if o.load(Ordering::Relaxed) || lim.expired() {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        Ok(run)
    }

    /// Takes in the symbols `p` adds to the engine's panel: clauses for
    /// dots and triangles, the validator's tables for squares and stars.
    /// False when `p` differs in any other way (the caller starts over).
    fn grow(&mut self, p: &Puzzle) -> Result<bool> {
        let rules = Rules::new(p)?;
        let (old, new) = (&self.run.rules.board, &rules.board);
        if old.len() != new.len() || old.has_negations || new.has_negations {
            return Ok(false);
        }
        let sym = old.symmetry.is_some();
        // A star or a polyomino added may mend a failing region (a lone
        // star gets its partner, pieces fill the area), as may a square
        // or a triangle of a star's colour: those start over.
        let star_colours: Vec<u8> = (0..new.len())
            .filter(|&s| new.sym[s] == Sym::Star)
            .map(|s| new.color[s])
            .collect();
        let mut dots = Vec::new();
        let mut triangles = Vec::new();
        for s in 0..old.len() {
            if old.dot[s] != new.dot[s] {
                if old.dot[s].is_some() || new.dot[s] != Dot::Black || old.outside[s] {
                    return Ok(false);
                }
                dots.push(s);
            }
            if old.sym[s] != new.sym[s] || old.color[s] != new.color[s] {
                match (old.sym[s], new.sym[s]) {
                    (Sym::Empty, Sym::Square) if !star_colours.contains(&new.color[s]) => {}
                    (Sym::Empty, Sym::Triangle(k))
                        if !old.outside[s] && !star_colours.contains(&new.color[s]) =>
                    {
                        triangles.push((s, k))
                    }
                    _ => return Ok(false),
                }
            }
        }
        let enc = &mut self.run.enc;
        for s in dots {
            let m = old.mirror[s] as usize;
            let group: Vec<u32> = if sym && m != s {
                vec![s as u32, m as u32]
            } else {
                vec![s as u32]
            };
            let t: Vec<Term> = group.iter().map(|&g| enc.x[g as usize]).collect();
            enc.clause(&t);
            enc.forced.push((group, Vec::new()));
        }
        for (f, k) in triangles {
            let edges: Vec<u32> = old.nbr[f].iter().copied().filter(|&e| e != NONE).collect();
            let t: Vec<Term> = edges.iter().map(|&e| enc.cov[e as usize]).collect();
            enc.exactly(Term::True, &t, k as usize);
            if k > 0 {
                let mut group = edges.clone();
                if sym {
                    group.extend(edges.iter().map(|&e| old.mirror[e as usize]));
                }
                enc.forced.push((group, Vec::new()));
            }
        }
        self.run.rules = rules;
        Ok(true)
    }

    /// Up to `k` solutions of `p` other than `line`, as
    /// [`other_solutions`], with `budget` terminator checks and `calls`
    /// solver calls for this round; `p` is a panel on the engine's grid,
    /// usually the last one with symbols added.
    pub fn others(
        &mut self,
        p: &Puzzle,
        line: &Path,
        limits: &Limits,
        (budget, calls): (u64, u64),
        k: usize,
    ) -> Result<(Vec<Path>, Status)> {
        if p.undirected {
            return other_solutions(p, line, limits, (budget, calls), k);
        }
        if !self.grow(p)? {
            let grid = self.run.puzzle;
            self.run = Self::fresh(grid, p, limits, &self.spent, &self.over)?;
            self.blocked.clear();
        }
        let k = k.max(1);
        let trace_ok = |s: &Path| s.trace(p).is_ok_and(|t| self.run.rules.check(&t).valid);
        let mut found: Vec<Path> = self
            .blocked
            .iter()
            .filter(|s| trace_ok(s))
            .cloned()
            .collect();
        found.truncate(k);
        if found.len() == k {
            return Ok((found, Status::Stopped));
        }
        self.spent.store(budget.max(1), Ordering::Relaxed);
        self.run.max_calls = Some(self.run.stats.calls.saturating_add(calls));
        self.over.store(false, Ordering::Relaxed);
        let mut limits = limits.clone();
        limits.stop = Some(self.over.clone());
        let mut new = Vec::new();
        let c = self.run.count(None, &limits, |s| {
            if s != line {
                new.push(s.clone());
            }
            found.len() + new.len() < k
        })?;
        self.blocked.extend(new.iter().cloned());
        found.extend(new);
        let status = if found.len() >= k {
            Status::Stopped
        } else {
            c.status
        };
        Ok((found, status))
    }
}

//! The SAT engine: the line as a boolean formula for CaDiCaL, with the
//! rules that depend on regions added lazily (`docs/ARCHITECTURE.md`,
//! "The SAT engine").
//!
//! [`encode`] writes the clauses every solution satisfies: the line's
//! slots and degrees, one start and one end, symmetry, pillars, dots and
//! triangles; [`eager`] adds, for stars and squares, the short chains of
//! faces that would put symbols that cannot share a region into one. A model of them is a line from a start to an end, plus
//! perhaps loops apart from it. The engine then loops: solve; read the
//! model back ([`cuts::decode`]); if it has loops, cut them
//! ([`cuts::loop_cuts`]) and solve again; else run the validator on the
//! line: a valid line is the answer, an invalid one gets a cut per
//! failing region ([`cuts::Parts::region_cut`], and
//! [`cuts::Parts::square_cuts`] for squares of two colours). Every cut is
//! sound (it never excludes a solution), so "no model" means "no
//! solution"; every answer passed the validator.
//!
//! Counting adds, after each solution, the clause that excludes it
//! ([`cuts::block`], and its reverse on undirected puzzles), and solves
//! again until no model is left or the limit is reached.
//!
//! Polyominoes get a placement per piece ([`pieces`]); the pieces of a
//! region that holds a subtractive piece are free, left to the validator
//! and the region cuts. Elimination marks are left to the cuts:
//! on boards with marks, uncovered dots and triangles are not clauses
//! (a mark may erase them) but cuts.
//!
//! For [`crate::why()`], [`SatRun::with_selectors`] encodes the panel with a
//! selector literal per symbol (see "Selectors" in [`encode`]): every
//! clause and cut that exists only because of some symbols is guarded by
//! their selectors, so it holds for every panel made of this one by
//! switching symbols off. [`SatRun::core`] solves with the selectors
//! assumed true; "no model" comes with an unsatisfiable core, the symbols
//! whose selectors it names.

pub mod cubes;
pub mod cuts;
pub mod eager;
pub mod encode;
pub mod other;
pub mod pieces;

use rustsat::solvers::{
    ControlSignal, Solve, SolveIncremental, SolveStats, SolverResult, Terminate,
};
use rustsat::types::{Clause, Lit as SatLit, TernaryVal};
use rustsat_cadical::CaDiCaL;

use super::{Count, Limits, Solution, Status};
use crate::error::{how_many, Error, Result};
use crate::model::{Pos, Puzzle, SlotKind};
use crate::path::{Line as Colour, Path};
use crate::rules::board::{Board, Sym};
use crate::rules::{Rules, Workspace};
use cuts::{Decoded, Line, Model, Parts};
use encode::{Encoding, Lit, Term};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What the engine did: solver calls and cuts added, for benchmarks.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Solver calls.
    pub calls: u64,
    /// Loops cut.
    pub loops: u64,
    /// Failing regions cut.
    pub regions: u64,
    /// Square and star cuts.
    pub symbols: u64,
    /// Dot and triangle cuts of failing regions without elimination marks
    /// on boards with marks.
    pub plain: u64,
    /// Cuts of failing regions with more failing dots and triangles than
    /// elimination marks.
    pub marks: u64,
    /// Confinement cuts of failing regions that pieces may touch.
    pub confined: u64,
    /// Label cuts of failing regions ([`pieces::Pieces::label_cut`]).
    pub labelled: u64,
    /// Balance cuts of failing regions whose pieces' net area cannot fit
    /// them.
    pub balance: u64,
    /// The pieces' area cardinality added (0 or 1).
    pub area: u64,
    /// The pieces' region labels encoded (0 or 1, [`pieces::encode`]).
    pub labels: u64,
    /// Eager clauses of stars and squares ([`eager`]).
    pub eager: u64,
    /// Models excluded one by one (solutions counted, or invalid lines no
    /// region cut applied to).
    pub blocked: u64,
}

/// What [`SatRun::core`] found.
#[derive(Clone, Debug)]
pub enum Core {
    /// A solution of the panel: its line.
    Found(Path),
    /// No solution: the places of the symbols whose selectors the
    /// unsatisfiable core names, sorted.
    Core(Vec<Pos>),
    /// The limits stopped it.
    Stopped,
}

/// Conflicts a solver call may take before the pieces' area cardinality
/// joins the clauses ([`pieces::Pieces::area`]).
const AREA_CONFLICTS: i32 = 1000;

/// The solver calls after which CaDiCaL's lucky phases are switched off
/// (its option `lucky=0`). At the start of every call CaDiCaL tries a
/// few fixed assignments (all false, all true, forward and backward
/// runs), each a pass of propagation over the whole formula: they find
/// the first lines of easy panels at once, but the loop's later calls
/// differ from the earlier ones by a few cuts, those guesses fail again,
/// and on panels of many calls (stars, squares) they take about half of
/// the solver's time as the cuts grow. Past the first few calls only the
/// search proper runs. A solver option: no clause changes, every answer
/// is as exact (docs/benchmarks.md, "The lucky phases after the first
/// calls"). CaDiCaL reads the option afresh at each call, but its API
/// asks for options to be set before the first: setting one later relies
/// on `rustsat-cadical` building CaDiCaL without its API contracts (its
/// `debug` feature off, as here), where a contract failure would abort.
pub const LUCKY_CALLS: u64 = 5;

/// What the next solver call found.
enum Next {
    /// A solution: its line and its path.
    Found(Line, Path),
    /// No more solutions.
    None,
    /// The limits stopped it.
    Stopped,
}

/// The engine on one puzzle: the encoding, the solver holding its clauses
/// and the cuts so far, and the validator.
pub struct SatRun<'a> {
    puzzle: &'a Puzzle,
    rules: Rules,
    enc: Encoding,
    solver: Solver,
    ws: Workspace,
    fails: Vec<u32>,
    /// The pieces as encoded.
    pieces: pieces::Pieces,
    /// The assumptions of every solver call: in the selector mode each
    /// selector, so that every symbol is there; none otherwise.
    assumps: Vec<SatLit>,
    /// What it did so far.
    pub stats: Stats,
    /// Stop (as if the limits expired) before the solver call past this
    /// many in all.
    pub max_calls: Option<u64>,
    /// Whether each solution found is blocked, so that the next call
    /// finds another.
    pub block_found: bool,
    /// CaDiCaL options still to set, and after how many calls.
    later: (Vec<(String, i32)>, u64),
    /// The limits stopped the encoding before it was whole: every call
    /// answers "stopped" (an encoding short of clauses could call a
    /// panel solvable, or, short of variables, not).
    cut_short: bool,
    /// The limits of a turn under way ([`SatRun::solve_turn`]), which the
    /// solver's terminator looks at beside the limits the run was made
    /// with, and whether a turn is under way.
    call: CallLimits,
}

/// Solvers holding more clauses than this are freed on a thread of their
/// own ([`Solver`]).
const FREE_APART_CLAUSES: usize = 1 << 19;

/// CaDiCaL, as a [`SatRun`] holds it (`Some` until dropped). A solver of
/// a large panel holds up to hundreds of megabytes, which take a few
/// tenths of a second to free, so past [`FREE_APART_CLAUSES`] it is freed
/// on a thread of its own, and a job that stops on a time limit answers
/// on time (where that thread cannot be started, it is freed in place).
/// What the solver holds must therefore be `Send`: its terminator is
/// attached through [`Solver::attach_terminator`], which asks for it.
struct Solver(Option<CaDiCaL<'static, 'static>>);

impl Default for Solver {
    fn default() -> Self {
        Solver(Some(CaDiCaL::default()))
    }
}

impl Solver {
    /// Attaches the solver's terminator: one that may move to another
    /// thread with the solver when it is freed.
    fn attach_terminator(&mut self, cb: impl FnMut() -> ControlSignal + Send + 'static) {
        Terminate::attach_terminator(&mut **self, cb);
    }
}

impl std::ops::Deref for Solver {
    type Target = CaDiCaL<'static, 'static>;
    fn deref(&self) -> &Self::Target {
        self.0.as_ref().expect("a solver until it is dropped")
    }
}

impl std::ops::DerefMut for Solver {
    fn deref_mut(&mut self) -> &mut Self::Target {
        self.0.as_mut().expect("a solver until it is dropped")
    }
}

impl Drop for Solver {
    fn drop(&mut self) {
        if let Some(solver) = self.0.take() {
            if solver.n_clauses() > FREE_APART_CLAUSES {
                let _ = std::thread::Builder::new()
                    .name("witness-sat-free".into())
                    .spawn(move || drop(solver));
            }
        }
    }
}

/// The slot of [`SatRun`]'s limits for a turn under way, and its flag.
type CallLimits = Arc<(AtomicBool, Mutex<Option<Limits>>)>;

/// The clauses [`SatRun::flush`] hands to the solver between two looks
/// at the limits: a few milliseconds' worth on the largest panels.
const FLUSH_CHECK: usize = 1 << 14;

/// The error of clauses past `max` literals: the encoding's
/// ([`encode::MAX_LITS`]), or with `run` those with a run's cuts and
/// blocking clauses ([`encode::MAX_RUN_LITS`]), after `found` solutions.
fn too_large(max: u64, run: bool, found: u64) -> Error {
    let what = if run {
        "the SAT engine's clauses, with its cuts,"
    } else {
        "the SAT engine's encoding of this panel"
    };
    let after = if found > 0 {
        format!(" after {}", how_many(found as usize, "solution"))
    } else {
        String::new()
    };
    Error::Size(format!(
        "{what} passed {max} literals{after}, more memory than it may use \
         (`--engine search` or `auto` take the panel with the search)"
    ))
}

/// A solver error as the library's.
fn solver_error(e: impl std::fmt::Display) -> Error {
    Error::Size(format!("the SAT solver failed: {e}"))
}

fn sat_lit(l: Lit) -> SatLit {
    SatLit::new(l.unsigned_abs() - 1, l < 0)
}

/// Why the SAT engine cannot take the panel of `b`, if it cannot: marks
/// and pieces under the Windmill's rules. A check of the board alone,
/// without encoding anything.
pub fn unsupported(b: &Board) -> Option<&'static str> {
    if b.windmill && (b.has_negations || b.has_polys) {
        return Some("the SAT engine does not encode the Windmill's rules for marks and pieces");
    }
    None
}

/// Choices of the engine, for measurement: [`Options::default`] is what
/// [`SatRun::new`] runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The eager clauses of stars and squares ([`eager`]) for chains of at
    /// most this many edges (0: none).
    pub eager_edges: usize,
    /// The pieces' region labels ([`pieces::encode`]).
    pub labels: bool,
    /// On piece panels, CaDiCaL's plain configuration (no preprocessing
    /// or inprocessing).
    pub plain_pieces: bool,
    /// CaDiCaL options set before the first call (name, value).
    pub cadical: Vec<(String, i32)>,
    /// CaDiCaL options set once [`Options::later_calls`] calls are made.
    pub later: Vec<(String, i32)>,
    /// When [`Options::later`] is set: after this many solver calls.
    pub later_calls: u64,
    /// The most literals the encoding may hold when built
    /// ([`encode::MAX_LITS`]; the line's and symbols' part is built under
    /// that default first).
    pub max_lits: u64,
    /// The most literals the clauses may hold with a run's cuts and
    /// blocking clauses ([`encode::MAX_RUN_LITS`]).
    pub max_run_lits: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            eager_edges: eager::MAX_EDGES,
            labels: false,
            plain_pieces: true,
            cadical: Vec::new(),
            later: vec![("lucky".to_string(), 0)],
            later_calls: LUCKY_CALLS,
            max_lits: encode::MAX_LITS,
            max_run_lits: encode::MAX_RUN_LITS,
        }
    }
}

impl<'a> SatRun<'a> {
    /// Encodes `puzzle`; the solver stops when `limits` expire. Fails with
    /// [`Error::Unsupported`] for marks and pieces under the Windmill's
    /// rules.
    pub fn new(puzzle: &'a Puzzle, limits: &Limits) -> Result<SatRun<'a>> {
        SatRun::new_selected(puzzle, limits, false, &Options::default())
    }

    /// [`SatRun::new`] with other [`Options`], for measurement.
    pub fn with_options(puzzle: &'a Puzzle, limits: &Limits, opts: &Options) -> Result<SatRun<'a>> {
        SatRun::new_selected(puzzle, limits, false, opts)
    }

    /// [`SatRun::new`] with the eager clauses of stars and squares
    /// ([`eager`]) for chains of at most `max` edges (0: none), for
    /// measurement.
    pub fn with_eager_edges(puzzle: &'a Puzzle, limits: &Limits, max: usize) -> Result<SatRun<'a>> {
        let opts = Options {
            eager_edges: max,
            ..Options::default()
        };
        SatRun::new_selected(puzzle, limits, false, &opts)
    }

    /// [`SatRun::new`] with a selector literal per symbol (face symbols
    /// inside the panel, and dots), for [`SatRun::core`].
    pub fn with_selectors(puzzle: &'a Puzzle, limits: &Limits) -> Result<SatRun<'a>> {
        SatRun::new_selected(puzzle, limits, true, &Options::default())
    }

    fn new_selected(
        puzzle: &'a Puzzle,
        limits: &Limits,
        selectors: bool,
        opts: &Options,
    ) -> Result<SatRun<'a>> {
        let rules = Rules::new(puzzle)?;
        let b = &rules.board;
        if let Some(why) = unsupported(b) {
            return Err(Error::Unsupported(why.into()));
        }
        let mut enc = Encoding::new_selected(b, selectors);
        // The line's and symbols' clauses are built under the default
        // ceiling; the rest under the options'.
        if enc.too_large() {
            return Err(too_large(enc.max_lits, false, 0));
        }
        enc.max_lits = opts.max_lits;
        // A large panel's pieces take long to encode: the limits are
        // looked at between its parts, and an encoding they cut short
        // answers "stopped" to every call.
        let (mut pieces, mut cut_short) = if b.has_polys {
            match pieces::encode(b, &rules.polys, &mut enc, opts.labels, limits) {
                Some(p) => (p, false),
                None => (pieces::Pieces::default(), true),
            }
        } else {
            (pieces::Pieces::default(), false)
        };
        cut_short |= limits.expired();
        let eager = if cut_short {
            0
        } else {
            eager::add_up_to(b, &mut enc, opts.eager_edges)
        };
        if enc.too_large() {
            return Err(too_large(enc.max_lits, false, 0));
        }
        // Room for the cuts and blocking clauses to come.
        enc.max_lits = opts.max_run_lits.max(enc.max_lits);
        if cut_short {
            enc.clauses.clear();
        }
        if selectors {
            // The area cardinality counts every piece as placed, which a
            // piece switched off is not: it stays out of the selector mode
            // (it only speeds the engine up; no answer rests on it).
            pieces.area.clear();
        }
        // Every symbol is there unless a call says otherwise: each solver
        // call assumes every selector.
        let assumps = enc
            .sel
            .iter()
            .filter_map(|&t| match t {
                Term::Lit(l) => Some(sat_lit(l)),
                _ => None,
            })
            .collect();
        let mut solver = Solver::default();
        if b.has_polys && opts.plain_pieces {
            // Piece panels: CaDiCaL without its preprocessing and
            // inprocessing, which costs more than it saves on their
            // many short calls (docs/benchmarks.md, "Region labels").
            solver
                .set_configuration(rustsat_cadical::Config::Plain)
                .map_err(solver_error)?;
        }
        for (name, value) in &opts.cadical {
            solver.set_option(name, *value).map_err(solver_error)?;
        }
        let lim = limits.clone();
        let call: CallLimits = Arc::new((AtomicBool::new(false), Mutex::new(None)));
        let this_call = call.clone();
        solver.attach_terminator(move || {
            // The solver calls this on the thread of the call, which holds
            // no lock on the slot meanwhile; outside a turn the slot is
            // not looked at.
            let call_over = this_call.0.load(Ordering::Relaxed)
                && this_call
                    .1
                    .try_lock()
                    .is_ok_and(|l| l.as_ref().is_some_and(Limits::expired));
            if lim.expired() || call_over {
                ControlSignal::Terminate
            } else {
                ControlSignal::Continue
            }
        });
        let labels = pieces.stats.labelled as u64;
        Ok(SatRun {
            puzzle,
            rules,
            enc,
            solver,
            ws: Workspace::default(),
            fails: Vec::new(),
            pieces,
            assumps,
            stats: Stats {
                eager,
                labels,
                ..Stats::default()
            },
            max_calls: None,
            block_found: false,
            later: (opts.later.clone(), opts.later_calls),
            cut_short,
            call,
        })
    }

    /// The literals of the clauses made so far, cuts included (what
    /// [`Options::max_lits`] bounds while the encoding is built, and
    /// [`Options::max_run_lits`] after).
    pub fn encoded_lits(&self) -> u64 {
        self.enc.n_lits
    }

    /// Adds the pieces' area cardinality ([`pieces::Pieces::area`]) now,
    /// before the first solver call, rather than when a call struggles
    /// without it: for tests, which check it on small panels.
    pub fn area_now(&mut self) {
        if !self.pieces.area.is_empty() {
            self.enc.clauses.append(&mut self.pieces.area);
            self.stats.area += 1;
        }
    }

    /// Adds a clause (an OR of terms) to the encoding.
    fn add(&mut self, terms: &[Term]) {
        self.enc.clause(terms);
    }

    /// Adds a clause that holds when every symbol is there: guarded by
    /// every selector (no guard outside the selector mode).
    fn add_guarded_by_all(&mut self, terms: &[Term]) {
        let mut c = terms.to_vec();
        c.extend(self.enc.sel.iter().map(|&t| !t));
        self.enc.clause(&c);
    }

    /// Hands the encoding's new clauses to the solver.
    /// Hands the clauses made so far to the solver, looking at `limits`
    /// every [`FLUSH_CHECK`] clauses: false when they stopped it, with the
    /// clauses not yet handed kept for the next call.
    fn flush(&mut self, limits: &Limits) -> Result<bool> {
        let mut clauses = std::mem::take(&mut self.enc.clauses);
        for i in 0..clauses.len() {
            if i % FLUSH_CHECK == FLUSH_CHECK - 1 && limits.expired() {
                self.enc.clauses = clauses.split_off(i);
                return Ok(false);
            }
            let clause: Clause = clauses[i].iter().map(|&l| sat_lit(l)).collect();
            self.solver.add_clause(clause).map_err(solver_error)?;
        }
        Ok(true)
    }

    /// The value of a term in the solver's model.
    fn value(&self, t: Term) -> Result<bool> {
        Ok(match t {
            Term::True => true,
            Term::False => false,
            Term::Lit(l) => {
                self.solver.lit_val(sat_lit(l)).map_err(solver_error)? == TernaryVal::True
            }
        })
    }

    /// The model as the main line's slots, links, start and end.
    fn model(&self) -> Result<Model> {
        let n = self.rules.board.len();
        let mut m = Model {
            x: vec![false; n],
            link: vec![[false; 2]; n],
            start: 0,
            end: 0,
        };
        for s in 0..n {
            m.x[s] = self.value(self.enc.x[s])?;
            for k in 0..2 {
                m.link[s][k] = self.value(self.enc.link[s][k])?;
            }
            if self.value(self.enc.st[s])? {
                m.start = s;
            }
            if self.value(self.enc.en[s])? {
                m.end = s;
            }
        }
        Ok(m)
    }

    /// Solves and cuts until a model is a solution, none is left, or the
    /// limits stop it.
    fn next(&mut self, limits: &Limits) -> Result<Next> {
        loop {
            if self.cut_short {
                return Ok(Next::Stopped);
            }
            if self.enc.empty {
                return Ok(Next::None);
            }
            if limits.expired() || self.max_calls.is_some_and(|m| self.stats.calls >= m) {
                return Ok(Next::Stopped);
            }
            if self.enc.too_large() {
                // The cuts and blocking clauses made so far take too much
                // room (the last ones were left out).
                return Err(too_large(self.enc.max_lits, true, 0));
            }
            if !self.flush(limits)? {
                return Ok(Next::Stopped);
            }
            if !self.later.0.is_empty() && self.stats.calls >= self.later.1 {
                for (name, value) in std::mem::take(&mut self.later.0) {
                    self.solver.set_option(&name, value).map_err(solver_error)?;
                }
            }
            self.stats.calls += 1;
            let deferred = !self.pieces.area.is_empty();
            if deferred {
                let limit = rustsat_cadical::Limit::Conflicts(AREA_CONFLICTS);
                self.solver.set_limit(limit).map_err(solver_error)?;
            }
            let result = if self.assumps.is_empty() {
                self.solver.solve()
            } else {
                self.solver.solve_assumps(&self.assumps)
            };
            match result.map_err(solver_error)? {
                SolverResult::Unsat => return Ok(Next::None),
                SolverResult::Interrupted if deferred && !limits.expired() => {
                    // The solver struggles: add the pieces' area
                    // cardinality and solve on.
                    self.area_now();
                    continue;
                }
                SolverResult::Interrupted => return Ok(Next::Stopped),
                SolverResult::Sat => {}
            }
            let model = self.model()?;
            let b = &self.rules.board;
            let Decoded { line, loops } = cuts::decode(b, &model);
            if !loops.is_empty() {
                for (slots, links) in &loops {
                    let b = &self.rules.board;
                    for c in cuts::loop_cuts(b, &mut self.enc, slots, links) {
                        self.add(&c);
                    }
                    self.stats.loops += 1;
                }
                if let Some(line) = &line {
                    self.cut_loop_regions(line, &loops);
                }
                continue;
            }
            let Some(line) = line else {
                // The degree clauses make this impossible; exclude the
                // model all the same.
                debug_assert!(false, "a model whose line does not reach its end");
                self.exclude_model(&model);
                continue;
            };
            let path = Path::new(b.pos(line.start), line.moves.clone());
            let trace = match path.trace(self.puzzle) {
                Ok(t) => t,
                Err(e) => {
                    debug_assert!(false, "the encoding drew an illegal line: {e}");
                    let c = cuts::block(&self.enc, &line);
                    self.add_guarded_by_all(&c);
                    self.stats.blocked += 1;
                    continue;
                }
            };
            let mut fails = std::mem::take(&mut self.fails);
            self.rules
                .failures(&trace.lines, line.start, line.end, &mut self.ws, &mut fails);
            if fails.is_empty() {
                self.fails = fails;
                // The validator's list of failures is empty exactly when
                // the line is valid; its verdict has the last word.
                if self.rules.check(&trace).valid {
                    return Ok(Next::Found(line, path));
                }
                debug_assert!(false, "an invalid line with no failures");
                let c = cuts::block(&self.enc, &line);
                self.add_guarded_by_all(&c);
                self.stats.blocked += 1;
                continue;
            }
            self.cut_regions(&trace.lines, &line, &fails);
            self.fails = fails;
        }
    }

    /// The region cuts of a model with loops: the regions of its line and
    /// its loops together, each loop a wall of the main line's colour
    /// (and its mirror image one of the other line's, with symmetry), are
    /// judged, and each failing one is cut as a line's would be
    /// ([`SatRun::cut_regions`], which never blocks here: the loop cuts
    /// exclude the model already).
    ///
    /// Sound: the region cut and the others speak only of which slots are
    /// covered around and inside a region, and each argument that a line
    /// with these walls fails (see their documentation) holds whatever
    /// drew the walls of the region it starts from: a solution with the
    /// same walls has the same region, with the same failing verdict.
    fn cut_loop_regions(&mut self, line: &Line, loops: &[(Vec<u32>, Vec<cuts::Link>)]) {
        let b = &self.rules.board;
        let path = Path::new(b.pos(line.start), line.moves.clone());
        let Ok(trace) = path.trace(self.puzzle) else {
            return;
        };
        let mut lines = trace.lines;
        let (main, other) = if b.symmetry.is_some() {
            (Colour::Blue, Colour::Yellow)
        } else {
            (Colour::Black, Colour::None)
        };
        for (slots, _) in loops {
            for &s in slots {
                lines[s as usize] = main;
                if other != Colour::None {
                    lines[b.mirror[s as usize] as usize] = other;
                }
            }
        }
        let mut fails = std::mem::take(&mut self.fails);
        self.rules
            .failures(&lines, line.start, line.end, &mut self.ws, &mut fails);
        if !fails.is_empty() {
            self.cut_regions_of(&lines, line, &fails, false);
        }
        self.fails = fails;
    }

    /// Adds the cuts of the regions where `fails` (failing elements of the
    /// line) lie; a line failing elsewhere (none does: gaps and wrongly
    /// coloured dots are in the encoding) is blocked. In the selector mode
    /// each region cut is guarded by [`Parts::region_guard`], the other
    /// cuts by the selectors of the symbols they name (each says why), and
    /// the block by every selector (the line fails with every symbol
    /// there).
    fn cut_regions(&mut self, lines: &[Colour], line: &Line, fails: &[u32]) {
        self.cut_regions_of(lines, line, fails, true);
    }

    /// [`SatRun::cut_regions`], which blocks the line when `block` is true
    /// and no region cut applies.
    fn cut_regions_of(&mut self, lines: &[Colour], line: &Line, fails: &[u32], block: bool) {
        let b = &self.rules.board;
        let covered: Vec<bool> = lines.iter().map(|&l| l != Colour::None).collect();
        let parts = Parts::new(b, &covered, line.start, line.end);
        let mut done: Vec<u32> = Vec::new();
        let mut cut: Vec<Vec<Term>> = Vec::new();
        let mut other = false;
        for &f in fails {
            let c = parts.part[f as usize];
            let in_region = c != crate::rules::board::NONE
                && (b.kind[f as usize] == SlotKind::Face || !covered[f as usize]);
            if !in_region {
                other = true;
                continue;
            }
            if done.contains(&c) {
                continue;
            }
            done.push(c);
            let mut region = parts.region_cut(b, &self.enc, c as usize, line.start, line.end);
            region.extend(parts.region_guard(b, &self.enc, c as usize, &covered));
            cut.push(region);
            self.stats.regions += 1;
            let confine = self
                .pieces
                .confine_cut(b, &mut self.enc, &parts, c as usize);
            self.stats.confined += !confine.is_empty() as u64;
            cut.extend(confine);
            let label = self.pieces.label_cut(b, &mut self.enc, &parts, c as usize);
            self.stats.labelled += !label.is_empty() as u64;
            cut.extend(label);
            if b.has_polys {
                let balance =
                    pieces::balance_cut(b, &self.rules.polys, &self.enc, &parts, c as usize);
                self.stats.balance += balance.is_some() as u64;
                cut.extend(balance);
            }
            let square_star = [
                parts.square_cuts(b, &self.enc, c as usize),
                parts.star_cuts(b, &self.enc, c as usize),
            ];
            for cuts in square_star {
                self.stats.symbols += cuts.len() as u64;
                cut.extend(cuts);
            }
            let slots = &parts.slots[c as usize];
            if !slots.iter().any(|&s| b.sym[s as usize] == Sym::Nega) {
                if b.has_negations {
                    let plain = parts.plain_cuts(b, &self.enc, c as usize, fails);
                    self.stats.plain += plain.len() as u64;
                    cut.extend(plain);
                }
            } else if let Some(m) = parts.mark_cut(b, &self.enc, c as usize, &covered) {
                cut.push(m);
                self.stats.marks += 1;
            }
        }
        if block && (other || cut.is_empty()) {
            let mut c = cuts::block(&self.enc, line);
            c.extend(self.enc.sel.iter().map(|&t| !t));
            cut.push(c);
            self.stats.blocked += 1;
        }
        for c in cut {
            self.add(&c);
        }
    }

    /// Excludes a model by all of its main line's slots and links, its
    /// start and end; guarded by every selector.
    fn exclude_model(&mut self, m: &Model) {
        let mut c = vec![!self.enc.st[m.start], !self.enc.en[m.end]];
        for s in 0..m.x.len() {
            if m.x[s] {
                c.push(!self.enc.x[s]);
            }
            for k in 0..2 {
                if m.link[s][k] {
                    c.push(!self.enc.link[s][k]);
                }
            }
        }
        self.add_guarded_by_all(&c);
        self.stats.blocked += 1;
    }

    /// In the selector mode ([`SatRun::with_selectors`]): solves with
    /// every symbol there (every selector assumed, as in every call). A
    /// model is checked by the validator on the whole panel, and cut as in
    /// [`SatRun::solve`]; with no model left, the answer is the slots of
    /// the selectors in the solver's unsatisfiable core, less those of the
    /// symbols `fixed` accepts (always there, never named): the panel with
    /// only those symbols and the `fixed` ones has no solution (every
    /// clause and cut holds for it). The core is not minimal. Calls with
    /// other `fixed` sets are independent: nothing of one is kept.
    pub fn core(&mut self, fixed: impl Fn(Pos) -> bool, limits: &Limits) -> Result<Core> {
        let mut of_lit = std::collections::HashMap::new();
        for (s, &t) in self.enc.sel.iter().enumerate() {
            let Term::Lit(l) = t else { continue };
            if !fixed(self.rules.board.pos(s)) {
                of_lit.insert(sat_lit(l), s);
            }
        }
        Ok(match self.next(limits)? {
            Next::Found(_, path) => Core::Found(path),
            Next::Stopped => Core::Stopped,
            Next::None => {
                let mut slots: Vec<Pos> = Vec::new();
                if !self.assumps.is_empty() && !self.enc.empty {
                    for l in self.solver.core().map_err(solver_error)? {
                        // The core is a clause of negated assumptions.
                        if let Some(&s) = of_lit.get(&!l).or_else(|| of_lit.get(&l)) {
                            slots.push(self.rules.board.pos(s));
                        }
                    }
                }
                slots.sort_unstable();
                slots.dedup();
                Core::Core(slots)
            }
        })
    }

    /// [`SatRun::solve_turn`] with the "erased" flag of each slot `s`
    /// assumed to be `erased(s)` where that is `Some` (slots without a
    /// flag are passed over): "none" says that no solution has those
    /// flags, a solution is one of the panel's.
    pub fn solve_erasing(
        &mut self,
        erased: impl Fn(usize) -> Option<bool>,
        limits: &Limits,
    ) -> Result<Solution> {
        let kept = self.assumps.len();
        for s in 0..self.enc.erased.len() {
            if let (Term::Lit(l), Some(on)) = (self.enc.erased[s], erased(s)) {
                self.assumps.push(sat_lit(if on { l } else { -l }));
            }
        }
        let sol = self.solve_turn(limits);
        self.assumps.truncate(kept);
        sol
    }

    /// [`SatRun::solve`] for a turn: `limits` (shorter than the run's)
    /// stop the solver within its calls too, not only between them, so
    /// that the turn ends with them; the next turn goes on from there,
    /// with the cuts and what the solver learned.
    pub fn solve_turn(&mut self, limits: &Limits) -> Result<Solution> {
        if let Ok(mut slot) = self.call.1.lock() {
            *slot = Some(limits.clone());
        }
        self.call.0.store(true, Ordering::Relaxed);
        let s = self.solve(limits);
        self.call.0.store(false, Ordering::Relaxed);
        if let Ok(mut slot) = self.call.1.lock() {
            *slot = None;
        }
        s
    }

    /// A solution, if any: the first model the cuts leave that passes the
    /// validator.
    pub fn solve(&mut self, limits: &Limits) -> Result<Solution> {
        Ok(match self.next(limits)? {
            Next::Found(line, path) => {
                if self.block_found {
                    self.block(&line);
                }
                Solution {
                    path: Some(path),
                    status: Status::Complete,
                }
            }
            Next::None => Solution {
                path: None,
                status: Status::Complete,
            },
            Next::Stopped => Solution {
                path: None,
                status: Status::Stopped,
            },
        })
    }

    /// Excludes the solution `line` from every later model (and its
    /// reverse on undirected puzzles, where the two are one solution).
    fn block(&mut self, line: &Line) {
        let c = cuts::block(&self.enc, line);
        self.add(&c);
        if self.puzzle.undirected {
            if let Some(c) = cuts::block_reverse(&self.enc, line) {
                self.add(&c);
            }
        }
        self.stats.blocked += 1;
    }

    /// Counts solutions up to `limit` (all with `None`), calling `visit`
    /// with each (return false to stop, as at the limit): on undirected
    /// puzzles a line and its reverse once. With a small limit
    /// ([`super::answer::keeps_solutions`]) the count keeps the solutions
    /// it found.
    pub fn count(
        &mut self,
        limit: Option<u64>,
        limits: &Limits,
        mut visit: impl FnMut(&Path) -> bool,
    ) -> Result<Count> {
        let keep = super::answer::keeps_solutions(limit);
        let mut found = Vec::new();
        let mut n = 0u64;
        let (count, status) = loop {
            let next = match self.next(limits) {
                // Past the ceiling: say how many were found.
                Err(Error::Size(_)) if self.enc.too_large() => {
                    return Err(too_large(self.enc.max_lits, true, n))
                }
                r => r?,
            };
            match next {
                Next::Found(line, path) => {
                    n += 1;
                    self.block(&line);
                    let go = visit(&path);
                    if keep {
                        found.push(path);
                    }
                    if !go || limit.is_some_and(|l| n >= l) {
                        break (limit.map_or(n, |l| n.min(l)), Status::Stopped);
                    }
                }
                Next::None => break (n, Status::Complete),
                Next::Stopped => break (n, Status::Stopped),
            }
        };
        let mut c = Count::new(count.into(), status);
        c.solutions = found;
        Ok(c)
    }
}

/// [`super::solve`] with the SAT engine.
pub fn solve(puzzle: &Puzzle, limits: &Limits) -> Result<Solution> {
    SatRun::new(puzzle, limits)?.solve(limits)
}

/// [`super::count`] with the SAT engine.
pub fn count(puzzle: &Puzzle, limit: Option<u64>, limits: &Limits) -> Result<Count> {
    SatRun::new(puzzle, limits)?.count(limit, limits, |_| true)
}

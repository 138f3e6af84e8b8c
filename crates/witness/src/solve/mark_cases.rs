//! Elimination cases: a puzzle with few elimination marks searched as a
//! handful of puzzles without any, whose solutions cover its own.
//!
//! Elimination marks weaken the search's pruning: a region holding one may
//! break any rule once, so little can be judged before it is sealed. But in a
//! solution, each mark is used up in one of a few ways
//! (`docs/rules.md#elimination-marks`): it erases one other symbol of its
//! region (a square, star, triangle or piece), or an uncovered dot there, or it
//! cancels another mark of its region; what is left of the region then passes
//! the plain rules. So each way of using up every mark gives a *case*, a puzzle
//! without marks:
//! - a mark that erases symbol `X`: the mark and `X` both become stars of
//!   a colour of their own, so a region holding one must hold the other
//!   (two symbols of that colour) and nothing else changes (a square only
//!   on a board with squares of two colours or more, as no other square
//!   ever fails: `squares_may_fail`);
//! - two marks that cancel: both become stars of a colour of their own;
//! - a mark that erases a dot: the mark and that dot go (on boards with
//!   more than [`PER_DOT_MAX`] dots, or when the cases of each dot would
//!   be too many, a mark that erases some dot: the mark and every dot go,
//!   which only drops rules).
//!
//! Every solution of the puzzle solves the case of the way its marks are
//! used, so the cases' solutions cover the puzzle's. Not every case
//! solution solves the puzzle (the engine also wants each erased symbol to
//! have been wrong, and the dots), so each is checked against the puzzle's
//! own rules before it counts. The cases are mark-free, so the search's
//! pruning works in full on them: on some panels a case is solved in
//! milliseconds where the marked search needs minutes.
//!
//! Each case fixes the use of every mark: cases over only some marks,
//! the others left as marks, would not cover the puzzle. A mark left
//! over erases only an element that fails at the first look
//! (`docs/rules.md#elimination-marks`), and a fixed mark's pair of stars
//! changes that look: when a white square becomes a star, the black
//! squares of its region may no longer fail, and the mark that erased
//! one of them in a solution has nothing left to erase (the test
//! `cases_over_some_marks_only_do_not_cover_the_puzzle` holds such a
//! panel). Beyond [`MAX_CASES`] the cases are not run.
//!
//! The cases come nearest first: ordered by how far each mark is from what
//! it uses up, summed over the marks (a mark shares a region with what it
//! erases, which is likelier the nearer that is). The order decides which
//! case goes first in each round of turns, and with many cases every
//! other turn goes to a case by rank, the near ones far more often
//! ([`RANK_WEIGHTED`]). The order helps most where a mark erases
//! something near it, and costs little where the marks erase far away
//! (see docs/benchmarks.md).
//!
//! [`portfolio`](super::portfolio) runs the cases beside its lanes once the first
//! turn has not solved the puzzle ([`super::lanes::Schedule::cases_after`]),
//! one turn of one case at a time, each case in the engine's move order
//! with turns of its own, small at first ([`CaseRuns::new`]): giving
//! each case the several lanes of a puzzle would multiply the work of
//! every case, the many that hold nothing included.
//!
//! Counts with a small limit (`witness count --unique`) run the cases
//! too, handing on every case solution that solves the puzzle
//! ([`CaseRuns::step_with`]): with many cases, several often hold a
//! solution within a few thousand nodes, and two of them answer "not
//! unique" long before a lane would find a second. A case whose marks
//! erase "some dot" has every dot dropped, so most of its solutions miss
//! dots; one that misses more than the case's marks can erase is turned
//! away before the rules are asked, where that check would take much of
//! the time.

use super::answer::Answer;
use super::lanes::{Schedule, Turns};
use super::plan::{Masks, Plan};
use super::search::Search;
use super::Limits;
use crate::model::{Direction, Dot};
use crate::path::Line;
use crate::rules::board::{Board, Sym};
use crate::rules::{Rules, Workspace};
use std::cell::OnceCell;

/// The most cases that start at [`Schedule::cases_after`]; with more,
/// they start [`MANY_CASES_LATER`](super::portfolio::MANY_CASES_LATER) times later (by default after 300,000
/// nodes), as each case's turn then comes round seldom: a puzzle the lanes
/// solve in 100,000-300,000 nodes would give the cases twice that for
/// nothing (see docs/benchmarks.md).
pub const FEW_CASES: usize = 32;

/// The most cases a puzzle is split into; with more marks or symbols the
/// cases are not run. (Two marks among 30 symbols make about 900;
/// puzzles with more tend to have five or six marks, and millions.)
pub const MAX_CASES: usize = 1024;

/// The most dots on a board for a case per dot a mark may erase; with
/// more, one case per mark drops every dot. (A dot's case is searched in
/// full to refute it, and the cases of many dots are all but one search
/// repeated, while with few dots a dot's case may be the one that
/// solves the puzzle.)
pub const PER_DOT_MAX: usize = 4;

/// How one mark is used up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Use {
    /// It erases the symbol at this slot.
    Erase(usize),
    /// It erases the dot at this slot; with `None`, some dot (the case
    /// then drops every dot).
    Dot(Option<usize>),
    /// It cancels the mark at this slot.
    Cancel(usize),
}

/// Every way of using up the marks at `marks` (slot per mark), with the
/// symbols at `symbols` and the dots of `dots` (`None`: some dot, any
/// number of marks may take it) to erase, and marks cancelling in
/// pairs if `ncn`: one `Use` per mark. `None` when there are more than
/// `max`.
fn ways(
    marks: &[usize],
    symbols: &[usize],
    dots: &[Option<usize>],
    ncn: bool,
    max: usize,
) -> Option<Vec<Vec<Use>>> {
    let mut w = Ways {
        marks,
        symbols,
        dots,
        ncn,
        max,
        cur: vec![None; marks.len()],
        out: Vec::new(),
    };
    w.go(0).then_some(w.out)
}

/// The enumeration of [`ways`]: the uses chosen so far, and the ways found.
struct Ways<'a> {
    marks: &'a [usize],
    symbols: &'a [usize],
    dots: &'a [Option<usize>],
    ncn: bool,
    max: usize,
    cur: Vec<Option<Use>>,
    out: Vec<Vec<Use>>,
}

impl Ways<'_> {
    /// Chooses the uses of marks `k..` in every way; false once there are
    /// more than `max`.
    fn go(&mut self, k: usize) -> bool {
        if k == self.marks.len() {
            if self.out.len() == self.max {
                return false;
            }
            let way = self.cur.iter().map(|u| u.expect("every mark has a use"));
            self.out.push(way.collect());
            return true;
        }
        if self.cur[k].is_some() {
            return self.go(k + 1);
        }
        for i in 0..self.symbols.len() {
            let erase = Some(Use::Erase(self.symbols[i]));
            if self.cur.contains(&erase) {
                continue;
            }
            self.cur[k] = erase;
            if !self.go(k + 1) {
                return false;
            }
        }
        for i in 0..self.dots.len() {
            let erase = Some(Use::Dot(self.dots[i]));
            // Each dot once; "some dot" as often as wanted.
            if self.dots[i].is_some() && self.cur.contains(&erase) {
                continue;
            }
            self.cur[k] = erase;
            if !self.go(k + 1) {
                return false;
            }
        }
        if self.ncn {
            for j in k + 1..self.marks.len() {
                if self.cur[j].is_some() {
                    continue;
                }
                self.cur[k] = Some(Use::Cancel(self.marks[j]));
                self.cur[j] = Some(Use::Cancel(self.marks[k]));
                let ok = self.go(k + 1);
                self.cur[j] = None;
                if !ok {
                    return false;
                }
            }
        }
        self.cur[k] = None;
        true
    }
}

/// The marks of a board (slots with [`Sym::Nega`]) and every way of using
/// them up; `None` without marks, with more than `max` ways, without
/// room for a colour number per mark, or under the Windmill's rules (whose
/// marks these ways do not describe, `docs/rules.md#rule-profiles`).
fn marks_and_ways(b: &Board, max: usize) -> Option<(Vec<usize>, Vec<Vec<Use>>)> {
    if !b.has_negations || b.windmill {
        return None;
    }
    let marks: Vec<usize> = (0..b.len()).filter(|&i| b.sym[i] == Sym::Nega).collect();
    // Each mark may need a colour of its own, numbered from `n_colors`.
    if b.n_colors + marks.len() > u8::MAX as usize + 1 {
        return None;
    }
    let symbols: Vec<usize> = (0..b.len())
        .filter(|&i| !matches!(b.sym[i], Sym::Nega | Sym::Empty))
        .filter(|&i| b.sym[i] != Sym::Square || squares_may_fail(b))
        .collect();
    // Each dot a use of its own; with too many ways, "some dot" for all.
    let dots: Vec<Option<usize>> = (0..b.len())
        .filter(|&i| b.dot[i] != Dot::None)
        .map(Some)
        .collect();
    let mut found = None;
    if dots.len() <= PER_DOT_MAX {
        found = ways(&marks, &symbols, &dots, b.ncn, max);
    }
    if found.is_none() {
        let some = if dots.is_empty() { vec![] } else { vec![None] };
        found = ways(&marks, &symbols, &some, b.ncn, max);
    }
    let mut ways = found?;
    // Nearest first: a mark and what it uses up share a region, which
    // is likelier the nearer they are.
    ways.sort_by_cached_key(|uses| {
        marks
            .iter()
            .zip(uses)
            .map(|(&m, &u)| reach_of(b, m, u, &dots))
            .sum::<usize>()
    });
    Some((marks, ways))
}

/// Whether a square of `b` may ever fail, and so be erased: a mark erases
/// only an element that fails before the marks act (a candidate,
/// `docs/rules.md#elimination-marks`), and a square fails only in a region
/// that holds squares of two or more colours (`docs/rules.md#symbols`;
/// marks keep their colour but are no squares). With squares of a single
/// colour on the whole board, no region ever holds two colours of them,
/// so no solution has a mark erase a square, and the cases that would
/// are left out without losing one.
fn squares_may_fail(b: &Board) -> bool {
    let mut colors = (0..b.len())
        .filter(|&i| b.sym[i] == Sym::Square)
        .map(|i| b.color[i]);
    colors
        .next()
        .is_some_and(|first| colors.any(|c| c != first))
}

/// How far mark `m` is from what `u` uses up, in slots (along both
/// axes, round a pillar the shorter way); for "some dot", the nearest.
fn reach_of(b: &Board, m: usize, u: Use, dots: &[Option<usize>]) -> usize {
    let apart = |a: usize, c: usize| {
        let (p, q) = (b.pos(a), b.pos(c));
        let dx = p.x.abs_diff(q.x);
        let dx = if b.pillar { dx.min(b.w - dx) } else { dx };
        dx + p.y.abs_diff(q.y)
    };
    match u {
        Use::Erase(x) | Use::Cancel(x) | Use::Dot(Some(x)) => apart(m, x),
        Use::Dot(None) => dots
            .iter()
            .flatten()
            .map(|&d| apart(m, d))
            .min()
            .unwrap_or(0),
    }
}

/// The case board of using up the marks at `marks` by `uses`.
fn case_board(b: &Board, marks: &[usize], uses: &[Use]) -> Board {
    let mut c = b.clone();
    for (&m, &u) in marks.iter().zip(uses) {
        match u {
            Use::Erase(x) => pair_up(&mut c, m, x),
            // Each pair once, from its first mark.
            Use::Cancel(other) if m < other => pair_up(&mut c, m, other),
            Use::Cancel(_) => {}
            Use::Dot(d) => {
                c.sym[m] = Sym::Empty;
                c.color[m] = 0;
                match d {
                    Some(d) => c.dot[d] = Dot::None,
                    None => c.dot.iter_mut().for_each(|d| *d = Dot::None),
                }
            }
        }
    }
    c.has_negations = false;
    c.has_polys = c.sym.iter().any(|s| s.is_poly());
    c
}

/// How many cases `plan`'s puzzle splits into; `None` when it has no
/// marks or more than [`MAX_CASES`] cases.
pub fn case_count(plan: &Plan) -> Option<usize> {
    marks_and_ways(&plan.rules.board, MAX_CASES).map(|(_, ways)| ways.len())
}

/// The case boards of a board with elimination marks: one per way of using
/// up its marks (see the module page). `None` without marks, or with more
/// than `max` cases.
pub fn case_boards(b: &Board, max: usize) -> Option<Vec<Board>> {
    let (marks, ways) = marks_and_ways(b, max)?;
    Some(
        ways.iter()
            .map(|uses| case_board(b, &marks, uses))
            .collect(),
    )
}

/// What one case's marks erase: the symbols and dots (slots), and
/// whether some dot besides (a case that drops every dot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Erasure {
    /// The slots of the symbols and dots the marks erase.
    pub slots: Vec<usize>,
    /// Whether a mark erases some dot, any of them.
    pub some_dot: bool,
}

/// What each case of board `b` erases, nearest first as the cases come
/// ([`case_boards`]); `None` without marks, or with more than `max` cases.
pub fn erasures(b: &Board, max: usize) -> Option<Vec<Erasure>> {
    let (_, ways) = marks_and_ways(b, max)?;
    Some(
        ways.iter()
            .map(|uses| {
                let mut e = Erasure {
                    slots: Vec::new(),
                    some_dot: false,
                };
                for &u in uses {
                    match u {
                        Use::Erase(x) | Use::Dot(Some(x)) => e.slots.push(x),
                        Use::Dot(None) => e.some_dot = true,
                        Use::Cancel(_) => {}
                    }
                }
                e
            })
            .collect(),
    )
}

/// Makes the symbols at `a` and `b` stars of a colour of their own.
fn pair_up(c: &mut Board, a: usize, b: usize) {
    let color = c.n_colors as u8;
    c.n_colors += 1;
    for s in [a, b] {
        c.sym[s] = Sym::Star;
        c.color[s] = color;
    }
}

/// One case's tables, made when its first turn comes.
struct Tables<const N: usize> {
    plan: Plan,
    masks: Masks<N>,
}

/// The cases of a puzzle, whose tables are made as they are needed.
pub struct Cases<'p, const N: usize> {
    plan: &'p Plan,
    marks: Vec<usize>,
    ways: Vec<Vec<Use>>,
    tables: Vec<OnceCell<Tables<N>>>,
    /// The puzzle's cases in all.
    total: usize,
    /// These are the cases at `first`, `first + step`, ... of all.
    step: usize,
    first: usize,
}

impl<'p, const N: usize> Cases<'p, N> {
    /// The cases of `plan` (see [`case_boards`]); `None` when it has none,
    /// or more than `max`.
    pub fn new(plan: &'p Plan, max: usize) -> Option<Cases<'p, N>> {
        let (marks, ways) = marks_and_ways(&plan.rules.board, max)?;
        let tables = ways.iter().map(|_| OnceCell::new()).collect();
        let total = ways.len();
        Some(Cases {
            plan,
            marks,
            ways,
            tables,
            total,
            step: 1,
            first: 0,
        })
    }

    /// Only the cases at `part`, `part + parts`, `part + 2 * parts`, ...
    /// of these (in their order), for `parts` threads to share them. Those
    /// searched to the end without a solution prove nothing alone: the
    /// others may hold one.
    pub fn share(mut self, part: usize, parts: usize) -> Self {
        let parts = parts.max(1);
        let keep = |k: &usize| k % parts == part;
        self.ways = std::mem::take(&mut self.ways)
            .into_iter()
            .enumerate()
            .filter(|(k, _)| keep(k))
            .map(|(_, w)| w)
            .collect();
        self.tables = self.ways.iter().map(|_| OnceCell::new()).collect();
        self.first += part * self.step;
        self.step *= parts;
        self
    }

    /// How many cases the puzzle has in all (shared or not).
    pub fn total(&self) -> usize {
        self.total
    }

    /// The place of case `k` of these among all the puzzle's cases.
    fn rank(&self, k: usize) -> usize {
        self.first + k * self.step
    }

    /// How many dots case `k`'s marks erase at most (one per mark that
    /// erases a dot).
    fn spare_dots(&self, k: usize) -> usize {
        self.ways[k]
            .iter()
            .filter(|u| matches!(u, Use::Dot(_)))
            .count()
    }

    /// How many cases there are.
    pub fn len(&self) -> usize {
        self.ways.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.ways.is_empty()
    }

    /// Case `k`'s tables, made once and kept.
    fn tables(&self, k: usize) -> &Tables<N> {
        self.tables[k].get_or_init(|| self.make_tables(k))
    }

    /// Case `k`'s tables, keeping the puzzle's tunables.
    fn make_tables(&self, k: usize) -> Tables<N> {
        let board = case_board(&self.plan.rules.board, &self.marks, &self.ways[k]);
        let mut p = Plan::from_rules(Rules::from_board(board), self.plan.undirected);
        p.narrow_min_nodes = self.plan.narrow_min_nodes;
        p.memo_after = self.plan.memo_after;
        p.packing = self.plan.packing;
        p.room = self.plan.room;
        let masks = Masks::new(&p);
        Tables { plan: p, masks }
    }
}

/// One case being searched: its search (made at its first turn; with
/// more than [`LIVE_SEARCHES`] cases, made again with its tables at each
/// turn) and its turns, all in the engine's move order.
struct Run<'a, const N: usize> {
    case: usize,
    search: Option<Search<'a, N>>,
    /// Nodes visited by the searches of earlier turns, when each turn
    /// makes its own.
    visited: u64,
    turns: Turns,
}

impl<const N: usize> Run<'_, N> {
    fn visited(&self) -> u64 {
        self.visited + self.search.as_ref().map_or(0, |s| s.visited)
    }
}

/// The most cases whose tables and searches are kept from turn to turn
/// (with the searches' caches); with more, each turn makes them afresh
/// and resumes where the last turn stopped, so memory does not grow with
/// the cases (hundreds of cases would take some hundred megabytes).
pub const LIVE_SEARCHES: usize = 64;

/// With more than [`FEW_CASES`] cases, every other turn goes to the case
/// due by rank (`CaseRuns::due`): the one whose work so far, its tables
/// counted, times one more than its rank (its place among all the
/// puzzle's cases, nearest first) is least. So the case of rank `r` gets
/// about `1 / (r + 1)` of what the nearest gets, and a solution in a
/// near case is found after a few times that case's own work, where a
/// round over hundreds of cases would first give each of them a turn.
/// The other turns go round all the cases in order, so a far
/// case waits at most twice as many turns as in rounds alone (a turn by
/// rank may be larger than a round's early turns, so in work the wait
/// may be longer).
///
/// Why the nearest cases deserve more: which case holds a solution is
/// not known, but the cases are ordered by a likelihood (a mark erases
/// something near it), and when the work a case needs is unknown,
/// giving each case a share of the time in proportion to its likelihood
/// bounds the work to reach the case that holds a solution by that
/// case's own work over its share. The weights `1 / (r + 1)` are a prior
/// over ranks that sums to about `ln n` over `n` cases, so no case's
/// share falls much below `1 / (r ln n)` (none is starved) while the
/// first few get a large part.
pub const RANK_WEIGHTED: bool = true;

/// Whether the case of `rank` keeps its search from turn to turn when
/// there are many cases: the nearest [`NEAREST_LIVE`], which take most of
/// the turns ([`RANK_WEIGHTED`]); the others make theirs afresh at each
/// turn.
fn live_rank(rank: usize) -> bool {
    rank < NEAREST_LIVE
}

/// With many cases, the nearest this many keep their searches from turn
/// to turn (a quarter of [`LIVE_SEARCHES`], so the memory they hold stays
/// well below that of the few cases' mode).
pub const NEAREST_LIVE: usize = LIVE_SEARCHES / 4;

/// What a round of the cases ended with.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution of the puzzle (with [`CaseRuns::step_with`], the one
    /// the visitor stopped at).
    Solved(Answer),
    /// Every case is searched to the end without one (or, with
    /// [`CaseRuns::step_with`], without the visitor stopping): the puzzle
    /// has no solution (no other solution).
    None,
    /// The limits stopped a case.
    Stopped,
    /// The cases go on next round.
    Open,
}

/// A case's first turn is the schedule's first budget over this
/// ([`CaseRuns::new`]).
pub const CASE_FIRST_DIVISOR: u64 = 20;

/// Search nodes a case's tables and search count for in
/// [`CaseRuns::visited`]: making them takes about as long as a case's
/// search takes to visit this many nodes.
const TABLE_NODES: u64 = 300;

/// The cases of a puzzle searched by turns, each case solution checked
/// against the puzzle's own rules.
pub struct CaseRuns<'a, 'p, const N: usize> {
    cases: &'a Cases<'p, N>,
    limits: &'a Limits,
    runs: Vec<Run<'a, N>>,
    /// The case whose turn is next in the round.
    next: usize,
    /// Whether every other turn goes to the case due by rank
    /// ([`CaseRuns::due`]) instead of the round's next.
    favour: bool,
    /// Whether the last turn went by rank (the next is the round's).
    by_rank: bool,
    /// Nodes of the cases searched to the end, and their tables'.
    done: u64,
    lines: Vec<Line>,
    ws: Workspace,
    /// Whether each case keeps its tables and search from turn to turn
    /// (at most [`LIVE_SEARCHES`] cases).
    keep: bool,
}

impl<'a, 'p, const N: usize> CaseRuns<'a, 'p, N> {
    /// Searches of `cases` within `limits`, each by turns that start at
    /// a twentieth of `schedule`'s first budget ([`CASE_FIRST_DIVISOR`])
    /// and double up to that first budget: a case that a few hundred nodes
    /// settle is settled in the first rounds, and past that the cases share
    /// their time evenly, so the one that holds a solution is not kept
    /// waiting while every other gets a turn twice as long as its last.
    /// (With the default schedule: turns of 1,000 nodes doubling up to
    /// 20,000; see docs/benchmarks.md.)
    pub fn new(cases: &'a Cases<'p, N>, limits: &'a Limits, schedule: &Schedule) -> Self {
        let every = Schedule {
            first: (schedule.first / CASE_FIRST_DIVISOR).max(1),
            growth: 2,
            most: schedule.first.max(1),
            cases_after: 0,
            late_lanes: schedule.late_lanes,
            anneal_after: schedule.anneal_after,
            anneal_alone_after: schedule.anneal_alone_after,
            sat_after: schedule.sat_after,
            cubes_alone_after: schedule.cubes_alone_after,
        };
        let runs = (0..cases.len())
            .map(|case| Run {
                case,
                search: None,
                visited: 0,
                turns: Turns::new(&every, None),
            })
            .collect();
        CaseRuns {
            cases,
            limits,
            runs,
            next: 0,
            favour: cases.total() > FEW_CASES,
            by_rank: false,
            done: 0,
            lines: vec![Line::None; cases.plan.rules.board.len()],
            ws: Workspace::default(),
            keep: cases.len() <= LIVE_SEARCHES,
        }
    }

    /// The index (into `runs`) of the case due by rank: least work so
    /// far (its tables counted, [`TABLE_NODES`]) times one more than its
    /// rank among all the puzzle's cases; the nearest on ties.
    fn due(&self) -> usize {
        let key = |run: &Run<'_, N>| {
            let work = (run.visited() + TABLE_NODES) as u128;
            work * (self.cases.rank(run.case) as u128 + 1)
        };
        (0..self.runs.len())
            .min_by_key(|&k| key(&self.runs[k]))
            .unwrap_or(0)
    }

    /// Makes every turn make its case's tables and search afresh, as with
    /// more than [`LIVE_SEARCHES`] cases (but for the nearest
    /// [`NEAREST_LIVE`] when turns go by rank too), for tests of that mode
    /// on small panels.
    pub fn fresh_each_turn(mut self) -> Self {
        self.keep = false;
        self
    }

    /// The search nodes the cases have visited (their tables counted as
    /// `TABLE_NODES`, 300, each).
    pub fn visited(&self) -> u64 {
        self.done + self.runs.iter().map(Run::visited).sum::<u64>()
    }

    /// One turn of the next case still open, the cases taking turns: the
    /// first solution of the puzzle found ends the cases' search.
    pub fn step(&mut self) -> Outcome {
        self.step_with(&mut |_| false)
    }

    /// One turn of the next case still open, as [`CaseRuns::step`], handing
    /// `visit` each case solution that solves the puzzle until it returns
    /// false; then the outcome is [`Outcome::Solved`] with that solution.
    /// A case searched to the end has handed `visit` all of its solutions
    /// that solve the puzzle, so once every case is ([`Outcome::None`]),
    /// `visit` has seen every solution of the puzzle (some more than once:
    /// a solution may be one of several cases').
    pub fn step_with(&mut self, visit: &mut impl FnMut(&Answer) -> bool) -> Outcome {
        if self.runs.is_empty() {
            return Outcome::None;
        }
        self.next %= self.runs.len();
        // Every other turn (with many cases) the case due by rank, the
        // others in rounds.
        let by_rank = RANK_WEIGHTED && self.favour && !self.by_rank;
        self.by_rank = by_rank;
        let k = if by_rank { self.due() } else { self.next };
        let (cases, limits) = (self.cases, self.limits);
        let rules = &cases.plan.rules;
        let (lines, ws) = (&mut self.lines, &mut self.ws);
        let mut found = None;
        let (dots, spare_dots) = (&cases.plan.dots, cases.spare_dots(self.runs[k].case));
        let mut check = |a: Answer| {
            if solves(rules, lines, ws, &a, (dots, spare_dots)) && !visit(&a) {
                found = Some(a);
                return false;
            }
            true
        };
        let run = &mut self.runs[k];
        // Each search made (with its tables, when they are made too)
        // counts `TABLE_NODES`.
        let keep = self.keep || (self.favour && live_rank(cases.rank(run.case)));
        let ended = if keep {
            if run.search.is_none() {
                let t = cases.tables(run.case);
                run.search = Some(Search::new(&t.plan, &t.masks, limits));
                self.done += TABLE_NODES;
            }
            let search = run.search.as_mut().expect("made above");
            run.turns
                .step_with(search, None, &Turns::ALL[..1], &mut check)
        } else {
            self.done += TABLE_NODES;
            let t = cases.make_tables(run.case);
            let mut search = Search::new(&t.plan, &t.masks, limits);
            let ended = run
                .turns
                .step_with(&mut search, None, &Turns::ALL[..1], &mut check);
            run.visited += search.visited;
            ended
        };
        if let Some(a) = found {
            return Outcome::Solved(a);
        }
        if !ended {
            if !by_rank {
                self.next += 1;
            }
            return Outcome::Open;
        }
        if run.turns.stopped {
            return Outcome::Stopped;
        }
        // Searched to the end: this case holds no solution.
        let run = self.runs.remove(k);
        if k < self.next {
            self.next -= 1;
        }
        self.done += run.visited();
        if self.runs.is_empty() {
            Outcome::None
        } else {
            Outcome::Open
        }
    }
}

/// Whether the answer, a solution of a case whose marks erase at most
/// `spare_dots` of the puzzle's `dots` (slots), solves the puzzle of
/// `rules`. A line that leaves
/// more of the puzzle's dots uncovered does not (each needs a mark of its
/// own), which is told before the rules are asked: a case whose marks
/// erase "some dot" has every dot dropped, and most of its solutions miss
/// many. (A solution of the puzzle is a solution of the case that uses
/// its marks as it does, whose marks erase every dot it misses, so none
/// is lost.)
fn solves(
    rules: &Rules,
    lines: &mut [Line],
    ws: &mut Workspace,
    (start, end, moves): &Answer,
    (dots, spare_dots): (&[u32], usize),
) -> bool {
    let b = &rules.board;
    lines.iter_mut().for_each(|l| *l = Line::None);
    let sym = b.symmetry.is_some();
    let mut s = *start;
    let put = |s: usize, lines: &mut [Line]| {
        if sym {
            lines[s] = Line::Blue;
            lines[b.mirror[s] as usize] = Line::Yellow;
        } else {
            lines[s] = Line::Black;
        }
    };
    put(s, lines);
    for &d in moves {
        let k = Direction::ALL
            .iter()
            .position(|&x| x == d)
            .expect("a direction");
        s = b.nbr[s][k] as usize;
        put(s, lines);
    }
    debug_assert_eq!(s, *end);
    let missed = dots
        .iter()
        .filter(|&&d| lines[d as usize] == Line::None)
        .count();
    missed <= spare_dots && rules.is_valid(lines, *start, *end, ws)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Color, Pos, Puzzle, Symbol, SymbolKind};
    use crate::path::Path;

    /// The ways of using up marks, counted by hand: one mark with three
    /// symbols and some dot has 3 + 1; two marks with symbols `a`, `b`
    /// erase `a, b` or `b, a`, or cancel (without cancelling, only the
    /// first two); with some dot too, each mark takes one of `a`, `b`,
    /// some dot, the two not the same symbol (3 x 3 - 2 = 7), or they
    /// cancel. With dots of their own, each is erased once: one mark, a
    /// symbol and two dots has 3 ways; two marks and two dots 2 + 1.
    #[test]
    fn ways_are_counted() {
        let n = |m: &[usize], s: &[usize], dots, ncn| ways(m, s, dots, ncn, 100).map(|w| w.len());
        let some = &[None];
        assert_eq!(n(&[1], &[3, 5, 7], some, true), Some(4));
        assert_eq!(n(&[1, 9], &[3, 5], &[], true), Some(3));
        assert_eq!(n(&[1, 9], &[3, 5], &[], false), Some(2));
        assert_eq!(n(&[1, 9], &[3, 5], some, true), Some(8));
        assert_eq!(n(&[1], &[3], &[Some(20), Some(22)], true), Some(3));
        assert_eq!(n(&[1, 9], &[], &[Some(20), Some(22)], true), Some(3));
        // A lone mark with nothing to erase has no way.
        assert_eq!(n(&[1], &[], &[], true), Some(0));
        // Over the cap: none.
        assert_eq!(ways(&[1, 9], &[3, 5], some, true, 7), None);
        let w = ways(&[1, 9], &[3], &[], true, 100).unwrap();
        assert_eq!(w, vec![vec![Use::Cancel(9), Use::Cancel(1)]]);
    }

    /// A mark erases a square only on a board with squares of two colours
    /// or more: on a 3x1 panel with a mark and two white squares there is
    /// no case (nothing it could erase); with a black star, the mark and a
    /// white square, one (the star); with a white and a black square, two
    /// (either square).
    #[test]
    fn squares_of_one_colour_are_never_erased() {
        let mut p = Puzzle::new(3, 1, false).unwrap();
        p.cell_mut(Pos::new(0, 2)).start = true;
        p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Up);
        p.cell_mut(Pos::new(1, 1)).symbol = Some(Symbol::new(SymbolKind::Nega, Color::White));
        for x in [3, 5] {
            p.cell_mut(Pos::new(x, 1)).symbol = Some(Symbol::new(SymbolKind::Square, Color::White));
        }
        let count = |p: &Puzzle| {
            let rules = Rules::new(p).unwrap();
            marks_and_ways(&rules.board, MAX_CASES).map(|(_, w)| w.len())
        };
        assert_eq!(count(&p), Some(0));
        let mut star = p.clone();
        star.cell_mut(Pos::new(1, 1)).symbol = Some(Symbol::new(SymbolKind::Star, Color::Black));
        star.cell_mut(Pos::new(3, 1)).symbol = Some(Symbol::new(SymbolKind::Nega, Color::White));
        assert_eq!(count(&star), Some(1));
        p.cell_mut(Pos::new(5, 1)).symbol = Some(Symbol::new(SymbolKind::Square, Color::Black));
        assert_eq!(count(&p), Some(2));
    }

    /// Cases come nearest first: on a 4x1 panel with a mark in the last
    /// face and stars in the others, the mark erases the third face's star
    /// first (2 slots away), then the second's (4), then the first's (6),
    /// against the slot order the ways are listed in. On a pillar four
    /// faces round the first face is beside the last across the seam,
    /// 2 slots away: it comes first (ties keep the slot order), then the
    /// third's, then the second's.
    #[test]
    fn cases_come_nearest_first() {
        for pillar in [false, true] {
            let mut p = Puzzle::new(4, 1, pillar).unwrap();
            p.cell_mut(Pos::new(0, 2)).start = true;
            p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Up);
            p.cell_mut(Pos::new(7, 1)).symbol = Some(Symbol::new(SymbolKind::Nega, Color::White));
            for x in [1, 3, 5] {
                p.cell_mut(Pos::new(x, 1)).symbol =
                    Some(Symbol::new(SymbolKind::Star, Color::Black));
            }
            let rules = Rules::new(&p).unwrap();
            let (_, ways) = marks_and_ways(&rules.board, MAX_CASES).unwrap();
            let erased: Vec<usize> = ways
                .iter()
                .map(|w| match w[..] {
                    [Use::Erase(x)] => rules.board.pos(x).x,
                    _ => panic!("one mark erasing one star: {w:?}"),
                })
                .collect();
            let want = if pillar { [1, 5, 3] } else { [5, 3, 1] };
            assert_eq!(erased, want, "pillar: {pillar}");
        }
    }

    /// With more than [`FEW_CASES`] cases, turns alternate: one to the
    /// case due by rank (least work times one more than its rank), one to
    /// the next case of the round: on a 4x4 panel with two marks and eight
    /// stars (57 cases: each mark erases a different star, or they
    /// cancel), with turns of a node that end no case, the round's turns
    /// go 0, 1, ..., 56, while the ranked turns favour the nearest: over
    /// that round the nearest case gets many times the turns of the
    /// eighth and of the last. Without many cases every turn is the
    /// round's.
    #[test]
    fn the_nearest_cases_take_more_turns() {
        let mut p = Puzzle::new(4, 4, false).unwrap();
        p.cell_mut(Pos::new(0, 8)).start = true;
        p.cell_mut(Pos::new(8, 0)).end = Some(Direction::Up);
        for x in [1, 7] {
            p.cell_mut(Pos::new(x, 1)).symbol = Some(Symbol::new(SymbolKind::Nega, Color::White));
        }
        for (x, y) in [
            (3, 1),
            (5, 1),
            (1, 3),
            (3, 5),
            (5, 5),
            (7, 7),
            (1, 7),
            (7, 3),
        ] {
            p.cell_mut(Pos::new(x, y)).symbol = Some(Symbol::new(SymbolKind::Star, Color::Black));
        }
        let plan = Plan::new(&p).unwrap();
        let cases = Cases::<1>::new(&plan, MAX_CASES).unwrap();
        assert_eq!(cases.len(), 57);
        let tiny = Schedule {
            first: 1,
            growth: 1,
            most: 1,
            cases_after: 0,
            late_lanes: 0,
            anneal_after: u64::MAX,
            anneal_alone_after: u64::MAX,
            sat_after: crate::solve::lanes::SAT_AFTER,
            cubes_alone_after: crate::solve::lanes::CUBES_ALONE_AFTER,
        };
        let limits = Limits::none();
        let mut runs = CaseRuns::new(&cases, &limits, &tiny);
        let mut order = Vec::new();
        for _ in 0..2 * 57 {
            let k = if runs.by_rank {
                runs.next % runs.runs.len()
            } else {
                runs.due()
            };
            order.push(runs.runs[k].case);
            assert_eq!(runs.step(), Outcome::Open);
        }
        let round: Vec<usize> = order.iter().skip(1).step_by(2).copied().collect();
        assert_eq!(round, (0..57).collect::<Vec<_>>());
        let ranked: Vec<usize> = order.iter().step_by(2).copied().collect();
        let turns = |c: usize| ranked.iter().filter(|&&k| k == c).count();
        assert!(turns(0) > 4 * turns(7).max(1), "{ranked:?}");
        assert_eq!(turns(56), 0, "{ranked:?}");
        // The ranked turns' work keeps to the weights: no case has had a
        // ranked turn while another's work times its weight was below.
        let key = |r: &Run<'_, 1>| (r.visited() + TABLE_NODES) * (r.case as u64 + 1);
        let least = runs.runs.iter().map(key).min().unwrap();
        for r in &runs.runs {
            if turns(r.case) > 0 {
                // Its last ranked turn was due, so its key then was least;
                // a few turns of a node or two later it is not far above.
                assert!(
                    key(r) <= least + 16 * (r.case as u64 + 1),
                    "case {}",
                    r.case
                );
            }
        }
        // Few cases: every turn the round's.
        let few = Cases::<1>::new(&plan, MAX_CASES).unwrap().share(0, 4);
        assert_eq!(few.len(), 15);
        let mut runs = CaseRuns::new(&few, &limits, &tiny);
        assert!(runs.favour, "the puzzle's cases are many");
        runs.favour = false;
        for k in 0..15 {
            assert_eq!(runs.runs[runs.next % runs.runs.len()].case, k);
            match runs.step() {
                Outcome::Open => {}
                Outcome::Solved(_) => break,
                other => panic!("{other:?}"),
            }
        }
        // A share of a share: every other case of the odd ones, 3, 7, ...,
        // 55 of the 57, each knowing its place among all.
        let quarter = Cases::<1>::new(&plan, MAX_CASES)
            .unwrap()
            .share(1, 2)
            .share(1, 2);
        assert_eq!((quarter.len(), quarter.total()), (14, 57));
        let ranks: Vec<usize> = (0..quarter.len()).map(|k| quarter.rank(k)).collect();
        assert_eq!(ranks, (3..57).step_by(4).collect::<Vec<_>>());
    }

    /// A 2x1 panel with a mark, a star and dots on its nodes: with up to
    /// [`PER_DOT_MAX`] dots, a case erases the star and one erases each
    /// dot (dropping that dot only); with one more dot, a single case
    /// erases some dot, dropping them all.
    #[test]
    fn many_dots_share_one_case() {
        let nodes = [(0, 0), (2, 0), (4, 0), (0, 2), (2, 2), (4, 2)];
        assert!(PER_DOT_MAX < nodes.len());
        for k in [PER_DOT_MAX, PER_DOT_MAX + 1] {
            let mut p = Puzzle::new(2, 1, false).unwrap();
            p.cell_mut(Pos::new(0, 2)).start = true;
            p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
            p.cell_mut(Pos::new(1, 1)).symbol = Some(Symbol::new(SymbolKind::Nega, Color::White));
            p.cell_mut(Pos::new(3, 1)).symbol = Some(Symbol::new(SymbolKind::Star, Color::Black));
            for &(x, y) in &nodes[..k] {
                p.cell_mut(Pos::new(x, y)).dot = Dot::Black;
            }
            let rules = Rules::new(&p).unwrap();
            let boards = case_boards(&rules.board, MAX_CASES).unwrap();
            let dots = |b: &Board| b.dot.iter().filter(|&&d| d != Dot::None).count();
            let mut left: Vec<usize> = boards.iter().map(dots).collect();
            left.sort_unstable();
            if k == PER_DOT_MAX {
                // Each dot's case keeps the other dots; the star's keeps all.
                let mut want = vec![k - 1; k];
                want.push(k);
                assert_eq!(left, want);
            } else {
                assert_eq!(left, vec![0, k]);
            }
        }
    }

    /// Two marks, a star, a triangle, a white and a black square, and
    /// two dots: each case's erasure lists the symbols and dots its board
    /// changes (the marks aside), in the same order as the boards; a mark
    /// cancelling the other erases nothing. With five dots (more than
    /// [`PER_DOT_MAX`]) a mark erases "some dot", and the case's board
    /// drops every dot.
    #[test]
    fn erasures_name_what_each_case_board_erases() {
        let mut p = Puzzle::new(3, 2, false).unwrap();
        p.cell_mut(Pos::new(0, 4)).start = true;
        p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Up);
        let sym = |k: SymbolKind, c: Color| Some(Symbol::new(k, c));
        p.cell_mut(Pos::new(1, 1)).symbol = sym(SymbolKind::Nega, Color::White);
        p.cell_mut(Pos::new(5, 3)).symbol = sym(SymbolKind::Nega, Color::White);
        p.cell_mut(Pos::new(3, 1)).symbol = sym(SymbolKind::Star, Color::Black);
        p.cell_mut(Pos::new(5, 1)).symbol = sym(SymbolKind::Triangle(1), Color::Orange);
        p.cell_mut(Pos::new(1, 3)).symbol = sym(SymbolKind::Square, Color::White);
        p.cell_mut(Pos::new(3, 3)).symbol = sym(SymbolKind::Square, Color::Black);
        p.cell_mut(Pos::new(2, 0)).dot = Dot::Black;
        p.cell_mut(Pos::new(6, 2)).dot = Dot::Black;
        // Per case of `p`, whether its marks erase "some dot" and how
        // many slots `erasures` lists; checked on the way: the slots are
        // those its board changes (but the marks, and the dots where
        // "some dot" drops them all), and "some dot" drops every dot.
        let check = |p: &Puzzle| -> Vec<(bool, usize)> {
            let rules = Rules::new(p).unwrap();
            let b = &rules.board;
            let boards = case_boards(b, MAX_CASES).unwrap();
            let erased = erasures(b, MAX_CASES).unwrap();
            assert_eq!(boards.len(), erased.len());
            boards
                .iter()
                .zip(&erased)
                .map(|(c, e)| {
                    let dots_gone = (0..b.len()).all(|i| c.dot[i] == Dot::None);
                    assert!(!e.some_dot || dots_gone);
                    let mut changed: Vec<usize> = (0..b.len())
                        .filter(|&i| b.sym[i] != Sym::Nega)
                        .filter(|&i| {
                            let dot = |x: &Board| if e.some_dot { Dot::None } else { x.dot[i] };
                            (b.sym[i], b.color[i], dot(b)) != (c.sym[i], c.color[i], dot(c))
                        })
                        .collect();
                    changed.sort_unstable();
                    let mut listed = e.slots.clone();
                    listed.sort_unstable();
                    assert_eq!(changed, listed);
                    (e.some_dot, listed.len())
                })
                .collect()
        };
        let cases = check(&p);
        assert!(
            cases.iter().all(|&(some, _)| !some),
            "two dots: a case per dot"
        );
        // Six symbols and dots to erase, two marks erasing two of them
        // (6 * 5 ways), and where the rules let marks cancel, one more
        // that erases nothing.
        let ncn = Rules::new(&p).unwrap().board.ncn;
        let cancelling = cases.iter().filter(|&&(_, n)| n == 0).count();
        assert_eq!((cases.len(), cancelling), (30 + ncn as usize, ncn as usize));
        for (x, y) in [(0, 2), (4, 4), (6, 4)] {
            p.cell_mut(Pos::new(x, y)).dot = Dot::Black;
        }
        // "Some dot" for one mark and one of the four symbols for the
        // other (2 * 4), or for both marks.
        let some = check(&p).iter().filter(|&&(some, _)| some).count();
        assert_eq!(some, 9);
    }

    /// A 2x1 panel: a mark in the left face, a star alone in the right,
    /// from the bottom left corner to the top right. The mark must erase
    /// the star, so both must share a region: a path solves it exactly
    /// when it leaves the middle edge uncovered. The one case turns both
    /// into stars of a colour of their own, which asks the same, so it
    /// accepts exactly the puzzle's solutions; and the solver, with the
    /// cases in turns from the start, finds one.
    #[test]
    fn a_mark_erasing_a_lone_star_is_one_case() {
        let mut p = Puzzle::new(2, 1, false).unwrap();
        p.cell_mut(Pos::new(0, 2)).start = true;
        p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
        let bare = p.clone();
        p.cell_mut(Pos::new(1, 1)).symbol = Some(Symbol::new(SymbolKind::Nega, Color::White));
        p.cell_mut(Pos::new(3, 1)).symbol = Some(Symbol::new(SymbolKind::Star, Color::Black));
        let rules = Rules::new(&p).unwrap();
        let boards = case_boards(&rules.board, MAX_CASES).unwrap();
        assert_eq!(boards.len(), 1);
        let case = Rules::from_board(boards.into_iter().next().unwrap());
        let (l, r) = (case.board.index(1, 1), case.board.index(3, 1));
        assert_eq!(
            (case.board.sym[l], case.board.sym[r]),
            (Sym::Star, Sym::Star)
        );
        assert_eq!(case.board.color[l], case.board.color[r]);
        assert!(!case.board.has_negations);
        // No colour number left for the pair: no cases.
        let mut full = rules.board.clone();
        full.n_colors = 256;
        assert!(case_boards(&full, MAX_CASES).is_none());
        full.n_colors = 255;
        assert_eq!(case_boards(&full, MAX_CASES).map(|c| c.len()), Some(1));
        // Every legal path (the bare panel's solutions), by both rules.
        let mut paths: Vec<Path> = Vec::new();
        crate::solve::brute::enumerate(&bare, &Limits::none(), |q| {
            paths.push(q.clone());
            true
        })
        .unwrap();
        let middle = Pos::new(2, 1);
        let mut solutions = 0;
        for q in &paths {
            let trace = q.trace(&p).unwrap();
            let want = trace.lines[p.index(middle)] == Line::None;
            assert_eq!(rules.check(&trace).valid, want, "{q}");
            assert_eq!(case.check(&trace).valid, want, "{q}");
            solutions += want as u32;
        }
        assert!(solutions > 0 && solutions < paths.len() as u32);
        let tiny = Schedule {
            first: 1,
            growth: 2,
            most: 4,
            cases_after: 0,
            late_lanes: 0,
            anneal_after: u64::MAX,
            anneal_alone_after: u64::MAX,
            sat_after: crate::solve::lanes::SAT_AFTER,
            cubes_alone_after: crate::solve::lanes::CUBES_ALONE_AFTER,
        };
        let plan = Plan::new(&p).unwrap();
        let found = crate::solve::solve_plan_with(&plan, &Limits::none(), &tiny)
            .unwrap()
            .0
            .path
            .expect("a solution");
        assert!(rules.check_path(&p, &found).unwrap().valid);
    }
}

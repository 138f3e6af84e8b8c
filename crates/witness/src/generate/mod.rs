//! Puzzle generation: panels with exactly one solution, proved by the
//! exact counter.
//!
//! One puzzle is made path first:
//! 1. `frame` draws the empty panel (size, pillar, symmetry, starts,
//!    ends, gaps, removed edges) and a random legal line on it, or, with
//!    [`GenerateOptions::around`], the panel of the given line
//!    (`frame::around`);
//! 2. `place` puts the [`Spec`]'s symbols along the line, each kept only
//!    when the validator accepts the line (elimination marks wait until
//!    the other kinds have made the line the only solution);
//! 3. `unique` looks for other solutions (the SAT engine, kept from
//!    round to round: `crate::solve::sat::other::Rounds`); while there
//!    are some, a symbol of the spec's kinds that the line satisfies and
//!    the first other solution breaks is added (a cut; of a few proposed,
//!    the one breaking the most of the others found, preferring one the
//!    SAT engine takes in without starting over; every single symbol
//!    when no random proposal cuts), until none is left
//!    or the cuts or the budget run out (then a new line is drawn);
//! 4. with `minimal`, `minimal` removes every symbol the uniqueness does
//!    not need;
//! 5. [`difficulty()`] measures it; with a band, `steer` removes symbols
//!    (harder) or adds some (easier) while the line stays the only
//!    solution, and a panel still outside the band is dropped;
//! 6. an exact count to 2 proves the result (`unique::prove`: the
//!    search's solutions in its engine's order, on one thread, up to 2,
//!    on a small node budget, then a fresh SAT engine or the search on
//!    one thread, bounded by work): exactly one solution with a complete
//!    search (a disagreement with step 3 is an [`Error::Internal`], never
//!    a puzzle written; a proof out of budget drops the line).
//!
//! Every random choice of puzzle `index` comes from a ChaCha8 stream fixed
//! by `(seed, index)`, and every search it runs is bounded by a node
//! budget rather than by time: the same options, seed and index give the
//! same puzzle on every machine and whatever else runs beside it.

mod difficulty;
pub(crate) mod frame;
pub(crate) mod minimal;
mod place;
mod request;
mod spec;
mod steer;
mod unique;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use difficulty::{difficulty, parse_band};
pub use request::{read_request, REQUEST_FIELDS, REQUEST_MAX_SIDE};
pub use spec::{Preset, Spec, MAX_AMOUNT, MAX_COLORS};

use crate::error::{how_many, Error, Result};
use crate::model::{Gap, Puzzle, RuleSet, SlotKind, SymbolKind, Symmetry};
use crate::path::Path;
use crate::solve::Limits;
use place::{accepts, propose, Ctx, Kind};
use unique::Others;

/// Other solutions asked for per round of cuts.
const OTHERS: usize = 8;

/// The fewest faces of a panel whose elimination marks are placed after
/// the other kinds made the line unique.
const LATE_MARKS_FACES: usize = 16;

/// Cuts compared per round: the one breaking the most other solutions
/// is kept.
const CANDIDATES: usize = 6;

/// What to generate: the panel, the symbols, and the limits of the work.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Width in faces (1 up to the largest panel the model accepts).
    pub width: usize,
    /// Height in faces.
    pub height: usize,
    /// The symbols placed along the line.
    pub spec: Spec,
    /// The preset the spec came from, if any (the symmetry preset draws
    /// its axes per puzzle).
    pub preset: Option<Preset>,
    /// Two mirrored lines.
    pub symmetry: Option<Symmetry>,
    /// A pillar that wraps round.
    pub pillar: bool,
    /// How many starts (at least 1).
    pub starts: usize,
    /// How many ends on the border (at least 1; with symmetry each has its
    /// mirror as well).
    pub ends: usize,
    /// Broken edges, where no line of the solution passes.
    pub gaps: usize,
    /// Removed edges on the border, where no line of the solution passes.
    pub removed: usize,
    /// Remove every symbol the uniqueness does not need.
    pub minimal: bool,
    /// Keep only puzzles whose [`difficulty()`] lies in `MIN..=MAX`.
    pub difficulty: Option<(f64, f64)>,
    /// Lines drawn per puzzle before giving up.
    pub attempts: usize,
    /// The most symbols added to cut other solutions, per line (`None`:
    /// the number of faces and 8 more).
    pub max_cuts: Option<usize>,
    /// The search-node budget of each search (for another solution, the
    /// proof, the difficulty); a line whose searches exceed it is dropped.
    pub max_nodes: u64,
    /// The time one puzzle may take (its searches stop at it).
    pub time_per_puzzle: Option<Duration>,
    /// An overall deadline and a cancel flag.
    pub limits: Limits,
    /// Make the puzzle around this line instead of a random one: its
    /// start and end node are the panel's only start and end (a symmetry
    /// panel mirrors both), and every puzzle made has it as its only
    /// solution.
    pub around: Option<Path>,
    /// The rules the puzzles are made for: each line placed, each other
    /// solution cut and the uniqueness proof are judged by them, and the
    /// puzzles carry them (the JSON's `"rules"`).
    pub rules: RuleSet,
}

impl GenerateOptions {
    /// Options for a `w x h` panel with these symbols, one start and one
    /// end, and default limits.
    pub fn new(width: usize, height: usize, spec: Spec) -> GenerateOptions {
        GenerateOptions {
            width,
            height,
            spec,
            preset: None,
            symmetry: None,
            pillar: false,
            starts: 1,
            ends: 1,
            gaps: 0,
            removed: 0,
            minimal: false,
            difficulty: None,
            attempts: 500,
            max_cuts: None,
            max_nodes: 2_000_000,
            time_per_puzzle: None,
            limits: Limits::none(),
            around: None,
            rules: RuleSet::WitnessPuzzles,
        }
    }

    /// Options for a preset on a `w x h` panel (with its pillar, if it is
    /// the pillar preset).
    pub fn preset(preset: Preset, width: usize, height: usize) -> GenerateOptions {
        let (_, pillar) = preset.frame(0);
        GenerateOptions {
            preset: Some(preset),
            pillar,
            ..GenerateOptions::new(width, height, preset.spec(width, height))
        }
    }

    /// Options for puzzles like `puzzle`: its size, pillar, symmetry,
    /// starts, ends, gaps, symbol mix and rules. An error when it has no
    /// symbol the generator places.
    pub fn like(puzzle: &Puzzle) -> Result<GenerateOptions> {
        let counts = symbol_counts(puzzle);
        let get = |k: &str| counts.get(k).copied().unwrap_or(0);
        let colors = |kind: fn(&SymbolKind) -> bool| {
            let mut cs: Vec<String> = puzzle
                .cells()
                .filter_map(|(_, c)| c.symbol.as_ref())
                .filter(|s| kind(&s.kind))
                .map(|s| s.color.name().to_string())
                .collect();
            cs.sort();
            cs.dedup();
            cs.len().clamp(1, spec::MAX_COLORS)
        };
        let spec = Spec {
            dots: get("dots"),
            squares: get("squares"),
            square_colors: colors(|k| *k == SymbolKind::Square),
            stars: get("stars"),
            star_colors: colors(|k| *k == SymbolKind::Star),
            triangles: get("triangles"),
            polyominoes: get("polyominoes").max(usize::from(get("subtractive") > 0)),
            rotatable: get("rotatable"),
            subtractive: get("subtractive"),
            marks: get("marks"),
        };
        if spec.is_empty() {
            return Err(Error::Options(
                "the model puzzle has no symbol to imitate (dots, squares, stars, \
                 triangles, polyominoes or marks)"
                    .into(),
            ));
        }
        let edges = |g: Gap| {
            puzzle
                .cells()
                .filter(|(q, c)| q.kind() == SlotKind::Edge && c.gap == g)
                .count()
        };
        let mut o = GenerateOptions::new(puzzle.face_width(), puzzle.face_height(), spec);
        o.pillar = puzzle.pillar();
        o.symmetry = puzzle.symmetry;
        o.starts = if puzzle.symmetry.is_some() {
            1
        } else {
            puzzle.starts().count().max(1)
        };
        o.ends = puzzle.ends().count().max(1);
        o.gaps = edges(Gap::Break);
        o.removed = edges(Gap::Full);
        o.rules = puzzle.rules;
        Ok(o)
    }

    /// These options on a panel of `width` x `height` faces, with the
    /// starts, ends, gaps and removed edges lowered to what that panel
    /// holds: for counts taken from a model puzzle of another size
    /// ([`GenerateOptions::like`]), which the caller did not ask for one
    /// by one. A size no panel has is left to the generation's error.
    pub fn resize(&mut self, width: usize, height: usize) {
        self.width = width;
        self.height = height;
        let Ok(mut p) = Puzzle::new(width, height, self.pillar) else {
            return;
        };
        p.symmetry = self.symmetry;
        let (most_starts, border, both) = room_for_ends(&p);
        // Room for one end at least.
        self.starts = self
            .starts
            .min(most_starts)
            .min(both.saturating_sub(1))
            .max(1);
        self.ends = self
            .ends
            .min(border)
            .min(both.saturating_sub(self.starts))
            .max(1);
        let (edges, border_edges) = room_for_gaps(&p);
        self.gaps = self.gaps.min(edges);
        self.removed = self.removed.min(border_edges);
    }

    /// An error for options no puzzle can meet.
    fn check(&self) -> Result<()> {
        if self.width == 0 || self.height == 0 {
            return Err(Error::Options(format!(
                "a panel of {} x {} faces: both sides must be at least 1",
                self.width, self.height
            )));
        }
        if self.attempts == 0 {
            return Err(Error::Options("attempts must be at least 1".into()));
        }
        if self.max_nodes == 0 {
            return Err(Error::Options("the node budget must be at least 1".into()));
        }
        let mut p = Puzzle::new(self.width, self.height, self.pillar)?;
        self.spec.validate()?;
        if self.starts == 0 || self.ends == 0 {
            return Err(Error::Options(format!(
                "{} and {} asked for: a panel needs at least one of each",
                how_many(self.starts, "start"),
                how_many(self.ends, "end")
            )));
        }
        if let Some((lo, hi)) = self.difficulty {
            // The measure is log2(1 + N) for N nodes within the budget,
            // rounded as `difficulty` rounds it.
            let top = ((1.0 + self.max_nodes as f64).log2() * 100.0).round() / 100.0;
            if !(lo.is_finite() && !hi.is_nan() && lo <= hi) {
                return Err(Error::Options(format!(
                    "a difficulty band of {lo}..{hi}: its MIN a number, at most its MAX"
                )));
            }
            if lo > top {
                return Err(Error::Options(format!(
                    "a difficulty band from {lo}: with a node budget of {} the measure is at \
                     most {top:.2}",
                    self.max_nodes
                )));
            }
        }
        // Each face holds one symbol, each node or edge one dot.
        let s = &self.spec;
        let on_faces = s.squares + s.stars + s.triangles + s.polyominoes + s.subtractive + s.marks;
        let faces = self.width * self.height;
        if on_faces > faces {
            return Err(Error::Options(format!(
                "the spec asks for {on_faces} symbols on faces; a {} x {} panel has {}",
                self.width,
                self.height,
                how_many(faces, "face")
            )));
        }
        let lines = (2 * self.width + 1) * (2 * self.height + 1) - faces;
        if s.dots > lines {
            return Err(Error::Options(format!(
                "the spec asks for {} dots; a {} x {} panel has {lines} nodes and edges",
                s.dots, self.width, self.height
            )));
        }
        p.symmetry = self.symmetry;
        p.check_symmetry()?;
        let (edges, border) = room_for_gaps(&p);
        if self.gaps > edges {
            return Err(Error::Options(format!(
                "{} gaps asked for; a {} x {} panel has {edges} edges",
                self.gaps, self.width, self.height
            )));
        }
        if self.removed > border {
            return Err(Error::Options(format!(
                "{} removed edges asked for; a {} x {} panel has {border} edges on its border",
                self.removed, self.width, self.height
            )));
        }
        if self.around.is_none() {
            let (w, h) = (self.width, self.height);
            let (most_starts, border, both) = room_for_ends(&p);
            if self.starts > most_starts {
                return Err(Error::Options(format!(
                    "{} asked for; a {w} x {h} panel has room for {}",
                    how_many(self.starts, "start"),
                    how_many(most_starts, "start")
                )));
            }
            if self.ends > border {
                return Err(Error::Options(format!(
                    "{} asked for; a {w} x {h} panel has {} on its border where an end can go",
                    how_many(self.ends, "end"),
                    how_many(border, "node")
                )));
            }
            if self.starts + self.ends > both {
                return Err(Error::Options(format!(
                    "{} and {} asked for; a {w} x {h} panel has {} for both",
                    how_many(self.starts, "start"),
                    how_many(self.ends, "end"),
                    how_many(both, "node")
                )));
            }
        }
        if let Some(line) = &self.around {
            if self.starts != 1 || self.ends != 1 {
                return Err(Error::Options(format!(
                    "{} starts and {} ends asked for around a line: the line's first node is \
                     the panel's only start and its last node its only end (ask for 1 and 1)",
                    self.starts, self.ends
                )));
            }
            frame::around(&p, line)?;
        }
        Ok(())
    }
}

/// What a panel holds, as `frame::draw` places starts and ends: the most
/// starts (with symmetry, one of each mirrored pair of nodes that are not
/// their own mirror), the nodes of the border where an end can go, and
/// the nodes for starts and ends together. Asking for more cannot be met;
/// as many can (the starts leave the border nodes the ends need).
fn room_for_ends(p: &Puzzle) -> (usize, usize, usize) {
    let (usable, border) = frame::places(p);
    let most_starts = if p.symmetry.is_some() {
        usable.len() / 2
    } else {
        usable.len()
    };
    (most_starts, border.len(), usable.len())
}

/// What a panel holds of gaps and removed edges: its edges, where gaps go,
/// and those on its border, where removed edges go.
fn room_for_gaps(p: &Puzzle) -> (usize, usize) {
    let edges: Vec<_> = p
        .positions()
        .filter(|q| q.kind() == SlotKind::Edge)
        .collect();
    let border = edges.iter().filter(|&&q| frame::on_border(p, q)).count();
    (edges.len(), border)
}

/// A generated puzzle.
#[derive(Clone, Debug)]
pub struct Generated {
    /// The puzzle: its only solution is `solution`.
    pub puzzle: Puzzle,
    /// The solution (the line drawn from the start).
    pub solution: Path,
    /// The [`difficulty()`] measure.
    pub difficulty: f64,
    /// How many symbols of each kind it holds, by the spec's names
    /// (`rotatable` counts the polyominoes that may turn, among
    /// `polyominoes`).
    pub symbols: BTreeMap<&'static str, usize>,
    /// Lines drawn before this one was kept (1 for the first).
    pub attempts: usize,
}

/// Generates the first puzzle of `seed`: [`generate_nth`] with index 0.
///
/// ```
/// use witness::generate::{GenerateOptions, Preset};
/// use witness::{count, CountOptions};
///
/// let options = GenerateOptions::preset(Preset::Squares, 3, 3);
/// let made = witness::generate(&options, 7).unwrap();
/// let c = count(&made.puzzle, &CountOptions::default()).unwrap();
/// assert_eq!(c.count, 1);
/// assert!(witness::check(&made.puzzle, &made.solution).unwrap().valid);
/// assert!(made.symbols["squares"] > 0);
/// // The same seed gives the same puzzle.
/// assert_eq!(witness::generate(&options, 7).unwrap().puzzle, made.puzzle);
/// ```
pub fn generate(options: &GenerateOptions, seed: u64) -> Result<Generated> {
    generate_nth(options, seed, 0)
}

/// Generates puzzle number `index` of `seed`: its random choices come
/// from its own stream, so any set of indices can be made in any order or
/// on any thread with the same result. [`Error::Stopped`] when every
/// attempt failed or the limits ran out; [`Error::Options`] for options
/// no puzzle can meet, among them an `around` line that is not legal on
/// the panel or that no attempt made the only solution.
pub fn generate_nth(options: &GenerateOptions, seed: u64, index: u64) -> Result<Generated> {
    options.check()?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    let mut limits = options.limits.clone();
    if let Some(d) = options
        .time_per_puzzle
        .and_then(|t| Instant::now().checked_add(t))
    {
        limits.deadline = Some(limits.deadline.map_or(d, |o| o.min(d)));
    }
    limits.max_nodes = Some(options.max_nodes);
    // The kinds the attempts made unique puzzles without, all of them.
    let mut lacking: Option<Vec<&'static str>> = None;
    for n in 1..=options.attempts {
        if limits.expired() {
            return Err(Error::Stopped);
        }
        let mut o = options.clone();
        if o.preset == Some(Preset::Symmetry) && o.symmetry.is_none() {
            o.symmetry = match &o.around {
                None => Preset::Symmetry.frame(rng.random_range(0..3)).0,
                Some(line) => around_axes(&o, line, &mut rng)?,
            };
        }
        let mut missing = Vec::new();
        let made = attempt(&o, &mut rng, &limits, &mut missing)?;
        if !missing.is_empty() {
            let l = lacking.get_or_insert_with(Vec::new);
            l.extend(missing);
            l.sort_unstable();
            l.dedup();
        }
        if let Some(mut g) = made {
            g.attempts = n;
            g.puzzle.name = Some(format!("witness generate {seed}/{index}"));
            return Ok(g);
        }
    }
    if options.around.is_some() && !options.limits.expired() {
        if let Some(kinds) = lacking {
            return Err(Error::Options(format!(
                "no puzzle of these kinds made this line the only solution in {} attempts: \
                 the line was made unique only without some kind the options ask for ({}), \
                 which found no place along it; ask for other kinds",
                options.attempts,
                kinds.join(", ")
            )));
        }
        return Err(Error::Options(format!(
            "no puzzle of these kinds made this line the only solution in {} attempts \
             (symbols of these kinds that the line satisfies let another line through \
             as well; try other kinds, such as dots)",
            options.attempts
        )));
    }
    Err(Error::Stopped)
}

/// The symmetry preset's axes for a line to make a puzzle around: one of
/// the axes on which the line and its mirror are legal, at random; an
/// error when there is none.
fn around_axes(o: &GenerateOptions, line: &Path, rng: &mut ChaCha8Rng) -> Result<Option<Symmetry>> {
    let mut legal = Vec::new();
    let mut why = None;
    for i in 0..3 {
        let sym = Preset::Symmetry.frame(i).0;
        let mut p = Puzzle::new(o.width, o.height, o.pillar)?;
        p.symmetry = sym;
        if p.check_symmetry().is_err() {
            continue;
        }
        match frame::around(&p, line) {
            Ok(_) => legal.push(sym),
            Err(e) => why = Some(e),
        }
    }
    if legal.is_empty() {
        return Err(why.unwrap_or_else(|| {
            Error::Options("no symmetry of the preset fits this panel".into())
        }));
    }
    Ok(legal[rng.random_range(0..legal.len())])
}

/// How many symbols of each kind `p` holds, by the spec's names.
pub fn symbol_counts(p: &Puzzle) -> BTreeMap<&'static str, usize> {
    let mut out = BTreeMap::new();
    for (q, c) in p.cells() {
        if q.kind() != SlotKind::Face {
            if c.dot.is_some() {
                *out.entry("dots").or_insert(0) += 1;
            }
            continue;
        }
        let Some(s) = &c.symbol else { continue };
        let name = match &s.kind {
            SymbolKind::Square => "squares",
            SymbolKind::Star => "stars",
            SymbolKind::Triangle(_) => "triangles",
            SymbolKind::Poly(shape) => {
                if shape.rotatable {
                    *out.entry("rotatable").or_insert(0) += 1;
                }
                "polyominoes"
            }
            SymbolKind::Ylop(_) => "subtractive",
            SymbolKind::Nega => "marks",
        };
        *out.entry(name).or_insert(0) += 1;
    }
    out
}

/// The symbols of `kind` on `p`, as the spec counts them.
fn count_kind(p: &Puzzle, kind: Kind) -> usize {
    let c = symbol_counts(p);
    let get = |k: &str| c.get(k).copied().unwrap_or(0);
    match kind {
        Kind::Dot => get("dots"),
        Kind::Square => get("squares"),
        Kind::Star => get("stars"),
        Kind::Triangle => get("triangles"),
        Kind::Poly => get("polyominoes"),
        Kind::Mark => get("marks"),
    }
}

/// The kinds and amounts of a spec, in the order they are placed (whole
/// regions first).
fn plan_of(spec: &Spec) -> Vec<(Kind, usize)> {
    [
        (Kind::Poly, spec.polyominoes),
        (Kind::Star, spec.stars),
        (Kind::Mark, spec.marks),
        (Kind::Square, spec.squares),
        (Kind::Triangle, spec.triangles),
        (Kind::Dot, spec.dots),
    ]
    .into_iter()
    .filter(|&(_, n)| n > 0)
    .collect()
}

/// Places the amounts of `plan` along the line `trace` on `p`, each
/// proposal kept when the validator accepts the line.
fn place_kinds(
    p: &mut Puzzle,
    plan: &[(Kind, usize)],
    cx: &Ctx<'_>,
    trace: &crate::path::Trace,
    rng: &mut ChaCha8Rng,
) {
    for &(kind, amount) in plan {
        let mut tries = 0;
        while count_kind(p, kind) < amount && tries < 4 * amount + 12 {
            tries += 1;
            let pieces = amount - count_kind(p, kind);
            if let Some(q) = propose(p, kind, cx, pieces, rng) {
                if accepts(&q, trace) {
                    *p = q;
                }
            }
        }
    }
}

/// One line and its puzzle; `Ok(None)` when this line gives none (the
/// caller draws another).
/// `missing` receives the kinds a unique puzzle lacked when that is why
/// the line gave none.
fn attempt(
    o: &GenerateOptions,
    rng: &mut ChaCha8Rng,
    limits: &Limits,
    missing: &mut Vec<&'static str>,
) -> Result<Option<Generated>> {
    let Some(fr) = frame::draw(o, rng)? else {
        return Ok(None);
    };
    let mut p = fr.puzzle.clone();
    let cx = Ctx {
        line: &fr.trace,
        other: None,
        spec: &o.spec,
    };
    let plan = plan_of(&o.spec);
    let cut_kinds: Vec<Kind> = plan
        .iter()
        .map(|&(k, _)| k)
        .filter(|&k| k != Kind::Mark)
        .collect();
    // On panels of LATE_MARKS_FACES faces or more, marks go on once the
    // other kinds have made the line the only solution: a panel with
    // marks has far more other solutions, each round on it needs a fresh
    // SAT encoding, and the cuts before them keep the solver's clauses.
    // (A small panel may have no room left for a mark by then.)
    let defer = !cut_kinds.is_empty() && o.width * o.height >= LATE_MARKS_FACES;
    let (mut late, early): (Vec<_>, Vec<_>) = plan
        .iter()
        .copied()
        .partition(|&(k, _)| k == Kind::Mark && defer);
    place_kinds(&mut p, &early, &cx, &fr.trace, rng);
    // Uniqueness: cut each other solution found.
    let max_cuts = o.max_cuts.unwrap_or(o.width * o.height + 8);
    let mut cuts = 0;
    // The SAT engine kept from round to round, on panels it takes.
    let mut rounds = unique::rounds(&fr.puzzle, &p, limits)?;
    loop {
        let r = match rounds.as_mut() {
            Some(r) => unique::round(r, &p, &fr.path, limits, OTHERS)?,
            None => unique::others(&p, &fr.path, limits, OTHERS)?,
        };
        let others = match r {
            Others::None if !late.is_empty() => {
                place_kinds(&mut p, &late, &cx, &fr.trace, rng);
                late.clear();
                continue;
            }
            Others::None => break,
            Others::Stopped => return stopped(limits),
            Others::Found(v) => v,
        };
        if cuts == max_cuts || cut_kinds.is_empty() {
            return Ok(None);
        }
        let traces = others
            .iter()
            .map(|s| s.trace(&p))
            .collect::<Result<Vec<_>>>()?;
        let cx2 = Ctx {
            other: Some(&traces[0]),
            ..cx
        };
        let pieces = o.spec.polyominoes.max(1);
        // The first cuts proposed that break the first other solution;
        // of them, the one that breaks the most of the others, and among
        // those one that keeps the SAT engine's clauses.
        let mut cut: Option<((usize, bool), Puzzle)> = None;
        let mut good = 0;
        let consider = |q: Puzzle, kind: Kind, cut: &mut Option<((usize, bool), Puzzle)>| {
            if !accepts(&q, &fr.trace) || accepts(&q, &traces[0]) {
                return false;
            }
            let broken = traces[1..].iter().filter(|t| !accepts(&q, t)).count();
            let key = (broken, place::keeps_solver(&p, &q, kind));
            if cut.as_ref().is_none_or(|(b, _)| key > *b) {
                *cut = Some((key, q));
            }
            true
        };
        for _ in 0..40 {
            if good == CANDIDATES {
                break;
            }
            let kind = *cut_kinds.choose(rng).expect("a cut kind");
            let Some(q) = propose(&p, kind, &cx2, pieces, rng) else {
                continue;
            };
            if consider(q, kind, &mut cut) {
                good += 1;
            }
        }
        // No random proposal cut: every single symbol that may.
        if cut.is_none() {
            let mut all = place::all_cuts(&p, &cut_kinds, &cx2);
            all.shuffle(rng);
            for q in all {
                if good == CANDIDATES {
                    break;
                }
                let kind = place::kind_added(&p, &q);
                if consider(q, kind, &mut cut) {
                    good += 1;
                }
            }
        }
        let cut = cut.map(|(_, q)| q);
        let Some(q) = cut else { return Ok(None) };
        p = q;
        cuts += 1;
    }
    if o.minimal && !minimal::minimise(&mut p, &fr.path, &fr.trace, limits, rng)? {
        return stopped(limits);
    }
    // The difficulty, steered toward the band when one is asked for.
    let mut d = match difficulty::difficulty(&p, limits) {
        Ok(d) => d,
        Err(Error::Stopped) => return stopped(limits),
        Err(e) => return Err(e),
    };
    if let Some(band) = o.difficulty {
        if d < band.0 || d > band.1 {
            let kinds: Vec<Kind> = plan.iter().map(|&(k, _)| k).collect();
            let steered = steer::steer(
                p,
                d,
                band,
                (&fr.path, &fr.trace),
                &cx,
                &kinds,
                o.minimal,
                limits,
                rng,
            );
            match steered {
                Ok(Some((q, e))) => (p, d) = (q, e),
                Ok(None) | Err(Error::Stopped) => return stopped(limits),
                Err(e) => return Err(e),
            }
        }
        if d < band.0 || d > band.1 {
            return Ok(None);
        }
    }
    if !has_kinds(o, &p) {
        let symbols = symbol_counts(&p);
        missing.extend(
            o.spec
                .kinds()
                .into_iter()
                .filter(|k| symbols.get(k).copied().unwrap_or(0) == 0),
        );
        return Ok(None);
    }
    let symbols = symbol_counts(&p);
    // The proof, by the counter.
    match unique::prove(&p, &fr.path, limits) {
        Ok(Some(true)) => {}
        // The proof's work budget ran out: this line is dropped.
        Ok(None) => return Ok(None),
        // The rounds ended with an exhaustive search that found no other
        // solution; a count that disagrees is a defect of an engine, not a
        // property of the panel.
        Ok(Some(false)) => {
            return Err(Error::Internal(format!(
                "the count of a generated puzzle found a second solution that the \
                 search for other solutions did not:\n{}",
                crate::formats::text::to_string(&p)
            )));
        }
        Err(Error::Stopped) => return stopped(limits),
        Err(e) => return Err(e),
    }
    Ok(Some(Generated {
        puzzle: p,
        solution: fr.path,
        difficulty: d,
        symbols,
        attempts: 0,
    }))
}

/// True when `p` shows the kinds asked for: every kind of the spec; with
/// `minimal` (which may remove a kind's last symbol), the preset's own
/// mechanic and at least two kinds when the spec names two or more.
fn has_kinds(o: &GenerateOptions, p: &Puzzle) -> bool {
    let symbols = symbol_counts(p);
    let has = |k: &str| symbols.get(k).copied().unwrap_or(0) > 0;
    let mut wanted = o.spec.kinds();
    if o.spec.rotatable > 0 {
        wanted.push("rotatable");
    }
    if !o.minimal {
        return wanted.iter().all(|k| has(k));
    }
    let main = match o.preset {
        Some(Preset::Dots) => &["dots"][..],
        Some(Preset::Squares) => &["squares"],
        Some(Preset::Stars) => &["stars"],
        Some(Preset::Triangles) => &["triangles"],
        Some(Preset::Polyominoes) => &["polyominoes"],
        Some(Preset::Subtractive) => &["subtractive"],
        Some(Preset::Elimination) => &["marks"],
        _ => &[],
    };
    let kinds = o.spec.kinds();
    let present = kinds.iter().filter(|k| has(k)).count();
    // The symmetry and pillar presets' mechanic is the frame.
    let least = match o.preset {
        Some(Preset::Symmetry | Preset::Pillar) => 1,
        _ => kinds.len().min(2),
    };
    main.iter().all(|k| has(k)) && present >= least
}

/// A search stopped: by time or a cancel (the whole puzzle stops), or by
/// its node budget (this line is dropped).
fn stopped(limits: &Limits) -> Result<Option<Generated>> {
    let mut time = limits.clone();
    time.max_nodes = None;
    if time.expired() {
        Err(Error::Stopped)
    } else {
        Ok(None)
    }
}

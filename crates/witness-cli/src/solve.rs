//! `witness solve`, `witness count` and `witness hint`.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use clap::Args as ClapArgs;
use witness::formats::Format;
use witness::{CountOptions, Engine, HintOptions, HintSize, Limits, SolveOptions, Status};

use crate::input;
use crate::output;
use crate::{EXIT_DONE, EXIT_NO, EXIT_STOPPED};

/// Options every solving command shares.
#[derive(ClapArgs)]
pub struct Common {
    /// The puzzle file, or `-` for standard input.
    puzzle: String,
    #[command(flatten)]
    pick: input::Pick,
    /// The puzzle's format, `json`, `windmill`, `alcazar` or `text`
    /// (guessed when left out).
    #[arg(long, value_parser = input::parse_format)]
    format: Option<Format>,
    /// Give up after this many milliseconds (0: no limit).
    #[arg(long, default_value_t = 60_000)]
    timeout_ms: u64,
    /// Print JSON instead of a drawing.
    #[arg(long)]
    json: bool,
    /// The engine: `search` (depth-first), `sat` (a SAT solver with lazy
    /// cuts) or `auto` (the search alone for a few
    /// milliseconds, then the search and SAT side by side, the first
    /// answer winning).
    #[arg(long, default_value = "auto", value_parser = parse_engine)]
    engine: Engine,
    /// The rules that judge: `witnesspuzzles` or `windmill` (default: the
    /// Windmill's for Windmill codes, the site's for the rest).
    #[arg(long, value_parser = input::parse_rules)]
    rules: Option<witness::model::RuleSet>,
}

/// Reads an `--engine` value.
pub fn parse_engine(s: &str) -> Result<Engine, String> {
    s.parse()
        .map_err(|_| format!("unknown engine \"{s}\": search, sat or auto"))
}

/// The limits of a `--timeout-ms` value: 0 is no limit.
pub fn limits_of(timeout_ms: u64) -> Limits {
    if timeout_ms == 0 {
        Limits::none()
    } else {
        Limits::timeout(Duration::from_millis(timeout_ms))
    }
}

impl Common {
    /// When `none` (no solution, proved): the symbols of `puzzle` that
    /// cannot all be satisfied, within `limits`, the command's own (so
    /// that `--timeout-ms` bounds the whole command); `Err` says why they
    /// are not named (the time limit, most often).
    fn why(
        &self,
        puzzle: &witness::model::Puzzle,
        none: bool,
        limits: &Limits,
    ) -> Option<Result<witness::Why, String>> {
        let options = witness::WhyOptions::default()
            .with_limits(limits.clone())
            .with_engine(self.engine);
        none.then(|| {
            witness::why(puzzle, &options).map_err(|e| {
                if limits.expired() {
                    "the time limit left no time to find which symbols cannot all be \
                     satisfied (see --timeout-ms)"
                        .to_string()
                } else {
                    format!("the symbols that cannot all be satisfied are not named: {e}")
                }
            })
        })
    }

    fn limits(&self) -> Limits {
        limits_of(self.timeout_ms)
    }
    /// The puzzle, under the rules asked for.
    fn puzzle(&self) -> Result<witness::model::Puzzle, String> {
        let p = input::read_picked(&self.puzzle, self.format, &self.pick)?;
        Ok(input::with_rules(p, self.rules))
    }
}

/// Options of `witness solve`.
#[derive(ClapArgs)]
pub struct SolveArgs {
    #[command(flatten)]
    common: Common,
}

impl SolveArgs {
    /// Whether `--json` asks for the answer as JSON.
    pub fn json(&self) -> bool {
        self.common.json
    }
}

impl CountArgs {
    /// Whether `--json` asks for the answer as JSON.
    pub fn json(&self) -> bool {
        self.common.json
    }
}

impl HintArgs {
    /// Whether `--json` asks for the answer as JSON.
    pub fn json(&self) -> bool {
        self.common.json
    }
}

/// Options of `witness count`.
#[derive(ClapArgs)]
pub struct CountArgs {
    #[command(flatten)]
    common: Common,
    /// Stop counting at this many solutions (at least 1). Up to 64, `--json`
    /// also lists the solutions found (`"solutions"`, the site's path format)
    /// and, with two or more, the slot where the first two part (`"part"`).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    limit: Option<u64>,
    /// Only tell whether the solution is unique (stops at 2); when it is not,
    /// show two solutions and where they part.
    #[arg(long, conflicts_with = "limit")]
    unique: bool,
}

/// Options of `witness hint`.
#[derive(ClapArgs)]
pub struct HintArgs {
    #[command(flatten)]
    common: Common,
    /// Show this many segments of the solution.
    #[arg(long, conflicts_with = "fraction")]
    steps: Option<usize>,
    /// Show this share of the solution (0 to 1; default 0.25).
    #[arg(long)]
    fraction: Option<f64>,
}

fn draw(puzzle: &witness::model::Puzzle, path: Option<&witness::Path>) -> String {
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    witness::render::terminal(puzzle, path, color)
}

/// The text of a "why" after "no solution": the symbols, or why they
/// are not named.
fn why_or_none(
    puzzle: &witness::model::Puzzle,
    why: Option<Result<witness::Why, String>>,
) -> String {
    match why {
        Some(Ok(w)) => output::why_text(puzzle, &w),
        Some(Err(e)) => format!("{e}\n"),
        None => String::new(),
    }
}

/// Runs `witness solve`: exit 0 solved, 1 no solution, 3 timeout.
pub fn run_solve(a: SolveArgs) -> Result<u8, String> {
    let c = &a.common;
    let puzzle = c.puzzle()?;
    let t0 = Instant::now();
    let limits = c.limits();
    let options = SolveOptions::default()
        .with_limits(limits.clone())
        .with_engine(c.engine);
    let sol = witness::solve(&puzzle, &options).map_err(|e| e.to_string())?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let none = sol.path.is_none() && sol.status == Status::Complete;
    if c.json {
        let why = c.why(&puzzle, none, &limits);
        let mut j = output::solve_json(&sol, ms);
        j["rules"] = serde_json::json!(puzzle.rules.name());
        match &why {
            Some(Ok(w)) => witness::request::add_why(&mut j, w),
            Some(Err(e)) => witness::request::add_why_error(&mut j, e),
            None => {}
        }
        outln!("{j}");
    } else {
        match &sol.path {
            Some(p) => {
                out!("{}", draw(&puzzle, Some(p)));
                outln!("{}", p.to_moves());
                eprintln!("solved in {ms:.2} ms");
            }
            None if sol.status == Status::Stopped => {
                out!("{}", draw(&puzzle, None));
                outln!("timeout: no solution found within {} ms", c.timeout_ms);
            }
            None => {
                out!("{}", draw(&puzzle, None));
                outln!("no solution (exhaustive search, {ms:.2} ms)");
                out!("{}", why_or_none(&puzzle, c.why(&puzzle, none, &limits)));
            }
        }
    }
    if !c.json {
        input::note_rules(&puzzle);
    }
    Ok(match (&sol.path, sol.status) {
        (Some(_), _) => EXIT_DONE,
        (None, Status::Complete) => EXIT_NO,
        (None, Status::Stopped) => EXIT_STOPPED,
    })
}

/// Runs `witness count`.
pub fn run_count(a: CountArgs) -> Result<u8, String> {
    let c = &a.common;
    let puzzle = c.puzzle()?;
    let limit = if a.unique { Some(2) } else { a.limit };
    let t0 = Instant::now();
    let n = witness::count(
        &puzzle,
        &CountOptions {
            limit,
            limits: c.limits(),
            engine: c.engine,
        },
    )
    .map_err(|e| e.to_string())?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let capped = limit.is_some_and(|l| n.count >= l);
    let timed_out = output::count_timed_out(&n, limit);
    // For a designer: two of the solutions of a puzzle that is not
    // unique, from the count itself, and where they part.
    let two = (a.unique && n.solutions.len() >= 2).then(|| &n.solutions[..2]);
    let parting = two.as_ref().and_then(|t| {
        witness::internals::race::parting(&puzzle, &t[0], &t[1])
            .ok()
            .flatten()
    });
    if c.json {
        let mut j = output::count_json(&n, limit, ms);
        j["rules"] = serde_json::json!(puzzle.rules.name());
        if a.unique {
            j["unique"] = serde_json::json!(witness::request::uniqueness(&n, timed_out));
        }
        witness::request::add_solutions(&mut j, &puzzle, &n);
        outln!("{j}");
    } else if a.unique {
        match witness::request::uniqueness(&n, timed_out) {
            "timeout" => outln!("timeout after {ms:.0} ms ({} found)", n.count),
            word => outln!("{word}"),
        }
        if let Some(t) = &two {
            for (k, p) in t.iter().enumerate() {
                outln!("solution {}: {}", k + 1, p.to_moves());
                out!("{}", draw(&puzzle, Some(p)));
            }
            match parting {
                Some(q) => outln!("they part at ({}, {})", q.x, q.y),
                None => outln!(
                    "they start apart: at ({}, {}) and ({}, {})",
                    t[0].start.x,
                    t[0].start.y,
                    t[1].start.x,
                    t[1].start.y
                ),
            }
        }
    } else if timed_out {
        outln!("at least {} (timeout after {ms:.0} ms)", n.count);
    } else if capped {
        outln!("at least {} (limit reached)", n.count);
    } else {
        outln!("{}", n.count);
    }
    if !c.json {
        input::note_rules(&puzzle);
    }
    Ok(if a.unique {
        match witness::request::uniqueness(&n, timed_out) {
            "timeout" => EXIT_STOPPED,
            "unique" => EXIT_DONE,
            _ => EXIT_NO,
        }
    } else if timed_out || capped {
        EXIT_STOPPED
    } else {
        EXIT_DONE
    })
}

/// Runs `witness hint`.
pub fn run_hint(a: HintArgs) -> Result<u8, String> {
    let c = &a.common;
    let puzzle = c.puzzle()?;
    let size = match (a.steps, a.fraction) {
        (Some(k), _) => HintSize::Steps(k),
        (None, Some(f)) if (0.0..=1.0).contains(&f) => HintSize::Fraction(f),
        (None, Some(f)) => return Err(format!("--fraction must be between 0 and 1, not {f}")),
        (None, None) => HintSize::Fraction(0.25),
    };
    let t0 = Instant::now();
    let limits = c.limits();
    let h = witness::hint(
        &puzzle,
        &HintOptions {
            size,
            limits: limits.clone(),
            engine: c.engine,
        },
    )
    .map_err(|e| e.to_string())?;
    let ms = t0.elapsed().as_secs_f64() * 1e3;
    let none = h.path.is_none() && h.status == Status::Complete;
    if c.json {
        let why = c.why(&puzzle, none, &limits);
        let mut j = output::hint_json(&h, ms);
        j["rules"] = serde_json::json!(puzzle.rules.name());
        match &why {
            Some(Ok(w)) => witness::request::add_why(&mut j, w),
            Some(Err(e)) => witness::request::add_why_error(&mut j, e),
            None => {}
        }
        outln!("{j}");
    } else {
        match &h.path {
            Some(p) => {
                out!("{}", draw(&puzzle, Some(p)));
                outln!("{}", p.to_moves());
            }
            None if h.status == Status::Stopped => outln!("timeout: no solution found"),
            None => {
                outln!("no solution");
                out!("{}", why_or_none(&puzzle, c.why(&puzzle, none, &limits)));
            }
        }
    }
    if !c.json {
        input::note_rules(&puzzle);
    }
    Ok(match (&h.path, h.status) {
        (Some(_), _) => EXIT_DONE,
        (None, Status::Complete) => EXIT_NO,
        (None, Status::Stopped) => EXIT_STOPPED,
    })
}

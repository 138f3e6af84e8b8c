//! `witness bench` (solve every puzzle of a file) and `witness bench-check`
//! (validate every path of a verdicts file): benchmark commands that print
//! figures, not tests.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::{json, Value};
use witness::formats::{self, Format};
use witness::internals::plan::Plan;
use witness::internals::race;
use witness::model::{Puzzle, RuleSet};
use witness::{
    Count, CountOptions, Engine, Limits, Natural, Path, Rules, Solution, SolveOptions, Status,
};

use crate::input;
use crate::output::how_many;

/// Options of `witness bench`.
#[derive(ClapArgs)]
pub struct BenchArgs {
    /// A file with one puzzle a line: `{"id","puzzle"}` JSON, or any
    /// one-line puzzle text such as a Windmill code.
    file: String,
    /// Per-puzzle time limit in milliseconds (0: no limit).
    #[arg(long, default_value_t = 10_000)]
    timeout_ms: u64,
    /// Worker threads (default: all cores; at most 1,024).
    #[arg(long, value_parser = crate::input::parse_jobs())]
    jobs: Option<usize>,
    /// Write `{"id","status","ms","path"}` per puzzle to this file.
    #[arg(long)]
    out: Option<String>,
    /// Count solutions up to this many instead of finding one (2 tells
    /// unique puzzles apart; at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    count_limit: Option<u64>,
    /// The engine: `search`, `sat` or `auto` (see `witness solve`).
    /// Puzzles the SAT engine does not handle count as unsupported. With
    /// `search`, a solve is the search on one thread (the engine itself,
    /// as docs/benchmarks.md measures it); a count takes the threads
    /// `witness count` would.
    #[arg(long, default_value = "auto", value_parser = crate::solve::parse_engine)]
    engine: Engine,
    /// The rules that judge every puzzle: `witnesspuzzles` or `windmill`
    /// (default: each puzzle's own, the Windmill's for Windmill codes).
    #[arg(long, value_parser = crate::input::parse_rules)]
    rules: Option<RuleSet>,
    /// Also run every puzzle with this engine, right after or before the
    /// `--engine` run (in turn), and report both: a comparison under the
    /// same load.
    #[arg(long, value_parser = crate::solve::parse_engine)]
    versus: Option<Engine>,
    /// The format of every puzzle, `json`, `windmill`, `alcazar` or `text`
    /// (guessed for each when left out); on a
    /// `{"id","puzzle"}` line, the format of its "puzzle".
    #[arg(long, value_parser = input::parse_format)]
    format: Option<Format>,
}

/// One line of the input (line `n`, counted from 1): its id and the
/// puzzle read in `format` (guessed when `None`), or an error.
fn parse_line(n: usize, line: &str, format: Option<Format>) -> (String, Result<Puzzle, String>) {
    let t = line.trim();
    if t.starts_with('{') {
        if let Ok(v) = serde_json::from_str::<Value>(t) {
            if v.get("puzzle").is_some() {
                let id = input::entry_id(&v).unwrap_or_else(|| format!("line {n}"));
                let puzzle = input::entry_puzzle(&v, format);
                return (id, puzzle);
            }
        }
    }
    (
        format!("line {n}"),
        formats::read_puzzle(t, format).map_err(|e| e.to_string()),
    )
}

struct Outcome {
    id: String,
    status: &'static str,
    ms: f64,
    path: Option<Path>,
    count: Option<Natural>,
    bad_path: bool,
    error: Option<String>,
    /// The rules that judged it (`None` when it could not be read).
    rules: Option<RuleSet>,
}

impl Outcome {
    /// Records a count with limit `limit` that began at `t0`.
    fn counted(&mut self, c: &Count, limit: u64, t0: Instant) {
        self.ms = t0.elapsed().as_secs_f64() * 1e3;
        let capped = c.count >= limit;
        self.status = match (c.count.is_zero(), c.status) {
            (_, Status::Stopped) if !capped => "timeout",
            (true, _) => "none",
            _ => "solved",
        };
        self.count = Some(c.count.clone());
    }

    /// Records a solve that began at `t0`; every returned path must pass
    /// the validator.
    fn solved(&mut self, s: Solution, puzzle: &Puzzle, t0: Instant) {
        self.ms = t0.elapsed().as_secs_f64() * 1e3;
        self.status = match (&s.path, s.status) {
            (Some(_), _) => "solved",
            (None, Status::Complete) => "none",
            (None, Status::Stopped) => "timeout",
        };
        if let Some(p) = &s.path {
            self.bad_path = !witness::check(puzzle, p).is_ok_and(|v| v.valid);
        }
        self.path = s.path;
    }
}

fn run_one(
    id: String,
    puzzle: Result<Puzzle, String>,
    a: &BenchArgs,
    engine: Engine,
    cancel: &Arc<AtomicBool>,
) -> Outcome {
    let mut o = Outcome {
        id,
        status: "error",
        ms: 0.0,
        path: None,
        count: None,
        bad_path: false,
        error: None,
        rules: None,
    };
    let puzzle = match puzzle {
        Ok(p) => crate::input::with_rules(p, a.rules),
        Err(e) => {
            o.error = Some(e);
            return o;
        }
    };
    o.rules = Some(puzzle.rules);
    let limits = crate::solve::limits_of(a.timeout_ms).with_cancel(cancel.clone());
    let t0 = Instant::now();
    if engine == Engine::Sat {
        return run_sat(o, &puzzle, a, &limits, t0);
    }
    let plan = match Plan::new(&puzzle) {
        Ok(p) => p,
        Err(e) => {
            o.error = Some(e.to_string());
            return o;
        }
    };
    let auto = engine == Engine::Auto;
    if let Some(limit) = a.count_limit {
        let c = if auto {
            race::count_plan(&puzzle, &plan, Some(limit), &limits).map(|r| r.answer)
        } else {
            witness::internals::count_plan(&plan, Some(limit), &limits)
        };
        match c {
            Ok(c) => o.counted(&c, limit, t0),
            Err(e) => o.error = Some(e.to_string()),
        }
        return o;
    }
    let s = if auto {
        race::solve_plan(&puzzle, &plan, &limits).map(|r| r.answer)
    } else {
        witness::internals::solve_plan(&plan, &limits)
    };
    match s {
        Ok(s) => o.solved(s, &puzzle, t0),
        Err(e) => o.error = Some(e.to_string()),
    }
    o
}

/// [`run_one`] with the SAT engine: the same outcomes, and "unsupported"
/// for the panels it does not handle.
fn run_sat(
    mut o: Outcome,
    puzzle: &Puzzle,
    a: &BenchArgs,
    limits: &Limits,
    t0: Instant,
) -> Outcome {
    let unsupported = |o: &mut Outcome, e: witness::Error| match e {
        witness::Error::Unsupported(_) => o.status = "unsupported",
        e => o.error = Some(e.to_string()),
    };
    if let Some(limit) = a.count_limit {
        let options = CountOptions::default()
            .with_limit(limit)
            .with_limits(limits.clone())
            .with_engine(Engine::Sat);
        match witness::count(puzzle, &options) {
            Ok(c) => o.counted(&c, limit, t0),
            Err(e) => unsupported(&mut o, e),
        }
        return o;
    }
    let options = SolveOptions::default()
        .with_limits(limits.clone())
        .with_engine(Engine::Sat);
    match witness::solve(puzzle, &options) {
        Ok(s) => o.solved(s, puzzle, t0),
        Err(e) => unsupported(&mut o, e),
    }
    o
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[rank(sorted.len(), q)]
}

/// The index of the `q` quantile in `n` sorted values (nearest rank).
fn rank(n: usize, q: f64) -> usize {
    (((n as f64 - 1.0) * q).round() as usize).min(n.saturating_sub(1))
}

/// The times of the finished puzzles, sorted, and how many timed out. A
/// timed-out puzzle ranks above every finished one, so a percentile that
/// falls among them reads "timeout" rather than the time of a faster
/// puzzle.
struct Times {
    finished: Vec<f64>,
    timeouts: usize,
}

impl Times {
    /// The `q` quantile over finished and timed-out puzzles alike.
    fn at(&self, q: f64) -> String {
        let n = self.finished.len() + self.timeouts;
        if n == 0 {
            return fmt_ms(0.0);
        }
        match self.finished.get(rank(n, q)) {
            Some(&ms) => fmt_ms(ms),
            None => "timeout".to_string(),
        }
    }
}

fn fmt_ms(ms: f64) -> String {
    if ms < 1.0 {
        format!("{:.1} µs", ms * 1e3)
    } else {
        format!("{ms:.2} ms")
    }
}

fn progress(n: usize) -> ProgressBar {
    let pb = ProgressBar::new(n as u64);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} eta {eta} {msg}")
            .expect("valid template"),
    );
    pb
}

/// Runs `witness bench`; exits 1 when a returned path fails validation,
/// 130 when Ctrl-C stopped it (after reporting the puzzles that finished),
/// 2 when not one line could be read as a puzzle.
pub fn run_bench(a: BenchArgs) -> Result<u8, String> {
    let text = input::read_text(&a.file)?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| (n + 1, l))
        .collect();
    if lines.is_empty() {
        return Err(format!("{} holds no puzzles", a.file));
    }
    // The output file is created before the work, so that a name that
    // cannot be written is told at once, not after the run.
    let mut out_file = match &a.out {
        Some(out) => Some((
            out,
            std::io::BufWriter::new(
                std::fs::File::create(out).map_err(|e| format!("cannot write {out}: {e}"))?,
            ),
        )),
        None => None,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let cancel = Arc::new(AtomicBool::new(false));
    {
        // The first Ctrl-C stops the run, which reports what finished; a
        // second one ends the process at once. Without a handler (another
        // one installed already), Ctrl-C simply ends the process.
        let c = cancel.clone();
        let _ = ctrlc::set_handler(move || {
            if c.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    let pb = progress(lines.len());
    let t0 = Instant::now();
    let results: Mutex<Vec<Outcome>> = Mutex::new(Vec::with_capacity(lines.len()));
    let others: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    pool.install(|| {
        // Each worker takes the next puzzle of the file when it is free
        // (rather than halves of the file split in advance), so that a
        // long puzzle does not leave the other workers idle at the end
        // while a run of puzzles waits behind it.
        lines.iter().par_bridge().for_each(|&(n, line)| {
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            let (id, puzzle) = parse_line(n, line, a.format);
            let (o, other) = match a.versus {
                None => (run_one(id, puzzle, &a, a.engine, &cancel), None),
                Some(v) => {
                    // Odd lines run `--engine` first, even ones `--versus`.
                    let again = (id.clone(), puzzle.clone());
                    if n % 2 == 1 {
                        let o = run_one(id, puzzle, &a, a.engine, &cancel);
                        (o, Some(run_one(again.0, again.1, &a, v, &cancel)))
                    } else {
                        let w = run_one(again.0, again.1, &a, v, &cancel);
                        (run_one(id, puzzle, &a, a.engine, &cancel), Some(w))
                    }
                }
            };
            // A solve cut short by Ctrl-C is no result.
            let cut = |o: &Outcome| o.status == "timeout" && cancel.load(Ordering::Relaxed);
            if cut(&o) || other.as_ref().is_some_and(cut) {
                return;
            }
            results.lock().expect("lock").push(o);
            if let Some(w) = other {
                others.lock().expect("lock").push(w);
            }
            pb.inc(1);
        })
    });
    pb.finish_and_clear();
    let wall = t0.elapsed();
    let results = results.into_inner().expect("lock");
    let others = others.into_inner().expect("lock");
    let stopped = cancel.load(Ordering::Relaxed);
    // The rows first: a summary that cannot be written loses no results.
    if let Some((out, f)) = &mut out_file {
        for (o, engine) in results
            .iter()
            .map(|o| (o, a.engine))
            .chain(others.iter().map(|o| (o, a.versus.unwrap_or(a.engine))))
        {
            let mut j = json!({
                "id": o.id,
                "status": o.status,
                "ms": crate::output::round_ms(o.ms),
                "path": o.path.as_ref().map(|p| p.to_site()),
                "rules": o.rules.map(RuleSet::name),
            });
            if a.versus.is_some() {
                j["engine"] = json!(engine_name(engine));
            }
            if let Some(c) = &o.count {
                j["count"] = crate::output::natural_json(c);
            }
            if let Some(e) = &o.error {
                j["error"] = json!(e);
            }
            writeln!(f, "{j}").map_err(|e| format!("cannot write {out}: {e}"))?;
        }
        f.flush().map_err(|e| format!("cannot write {out}: {e}"))?;
    }
    if stopped {
        outln!(
            "stopped by Ctrl-C: {} of {} finished; the figures cover those",
            results.len(),
            how_many(lines.len() as u64, "puzzle")
        );
    }
    let threads = pool.current_num_threads();
    let mut bad = Vec::new();
    match a.versus {
        None => bad.extend(report(&results, &a, wall, threads)?),
        Some(v) => {
            outln!("engine {}:", engine_name(a.engine));
            let mine = report(&results, &a, wall, threads)?;
            outln!("engine {}:", engine_name(v));
            let theirs = report(&others, &a, wall, threads)?;
            // The two engines' medians over the puzzles both finished, so
            // that each is over the same puzzles.
            let done = |o: &Outcome| o.status == "solved" || o.status == "none";
            let theirs_by_id: HashMap<&str, &Outcome> =
                others.iter().map(|o| (o.id.as_str(), o)).collect();
            let (mut t1, mut t2): (Vec<f64>, Vec<f64>) = results
                .iter()
                .filter_map(|o| {
                    let t = theirs_by_id.get(o.id.as_str())?;
                    (done(o) && done(t)).then_some((o.ms, t.ms))
                })
                .unzip();
            t1.sort_by(f64::total_cmp);
            t2.sort_by(f64::total_cmp);
            let ratio = if t1.is_empty() {
                "n/a".to_string()
            } else {
                format!("{:.3}", percentile(&t1, 0.5) / percentile(&t2, 0.5))
            };
            outln!(
                "p50 {} / {} over the {} both finished: {ratio}",
                engine_name(a.engine),
                engine_name(v),
                how_many(t1.len() as u64, "puzzle")
            );
            bad.extend(mine);
            bad.extend(theirs);
        }
    }
    if !bad.is_empty() {
        outln!("INVALID PATHS RETURNED: {}", bad.join(", "));
        return Ok(1);
    }
    if stopped {
        return Ok(130);
    }
    // Not one line read as a puzzle: the file is bad input.
    if results.iter().all(|o| o.rules.is_none()) {
        return Ok(crate::EXIT_BAD_INPUT);
    }
    Ok(crate::EXIT_DONE)
}

/// The `--engine` spelling of an engine.
fn engine_name(e: Engine) -> &'static str {
    match e {
        Engine::Search => "search",
        Engine::Sat => "sat",
        Engine::Auto => "auto",
    }
}

/// Prints the figures of one engine's outcomes; returns the ids of the
/// puzzles whose returned path failed validation (or the error of a
/// standard output that cannot be written).
fn report(
    results: &[Outcome],
    a: &BenchArgs,
    wall: std::time::Duration,
    threads: usize,
) -> Result<Vec<String>, String> {
    let mut by_status: HashMap<&str, usize> = HashMap::new();
    let mut times: Vec<f64> = Vec::new();
    let mut bad = Vec::new();
    let mut slowest: Vec<(f64, &str)> = Vec::new();
    for o in results {
        *by_status.entry(o.status).or_default() += 1;
        if o.status == "solved" || o.status == "none" {
            times.push(o.ms);
            slowest.push((o.ms, &o.id));
        }
        if o.bad_path {
            bad.push(o.id.clone());
        }
    }
    times.sort_by(f64::total_cmp);
    slowest.sort_by(|x, y| y.0.total_cmp(&x.0));
    let get = |k: &str| by_status.get(k).copied().unwrap_or(0);
    let ranked = Times {
        finished: times.clone(),
        timeouts: get("timeout"),
    };
    match a.rules {
        Some(r) => outln!("rules: {r}"),
        None => outln!("rules: each puzzle's own (windmill for Windmill codes)"),
    }
    outln!(
        "puzzles: {}  solved: {}  no solution: {}  timeout: {}  error: {}",
        results.len(),
        get("solved"),
        get("none"),
        get("timeout"),
        get("error")
    );
    if get("unsupported") > 0 {
        outln!("unsupported by the engine: {}", get("unsupported"));
    }
    if let Some(l) = a.count_limit {
        let unique = results
            .iter()
            .filter(|o| o.count.as_ref().is_some_and(|c| *c == 1) && o.status == "solved")
            .count();
        let multi = results
            .iter()
            .filter(|o| o.count.as_ref().is_some_and(|c| *c >= l.min(2)))
            .count();
        outln!("count limit {l}: exactly one solution: {unique}  two or more: {multi}");
    }
    outln!(
        "time per puzzle (timeouts rank last): p50 {}  p90 {}  p99 {}  max {}",
        ranked.at(0.5),
        ranked.at(0.9),
        ranked.at(0.99),
        ranked.at(1.0),
    );
    outln!(
        "sum over finished puzzles: {:.3} s",
        times.iter().sum::<f64>() / 1e3 + 0.0
    );
    outln!(
        "wall time: {:.3} s with {}",
        wall.as_secs_f64(),
        how_many(threads as u64, "thread")
    );
    let top: Vec<String> = slowest
        .iter()
        .take(5)
        .map(|(ms, id)| format!("{id} {}", fmt_ms(*ms)))
        .collect();
    if !top.is_empty() {
        outln!("slowest: {}", top.join(", "));
    }
    for o in results
        .iter()
        .filter(|o| o.status == "none" || o.status == "error")
    {
        match &o.error {
            Some(e) => outln!("error: {}: {e}", o.id),
            None => outln!("no solution: {}", o.id),
        }
    }
    Ok(bad)
}

/// Options of `witness bench-check`.
#[derive(ClapArgs)]
pub struct BenchCheckArgs {
    /// A verdicts file: `{"id","path"}` per line.
    verdicts: String,
    /// The puzzles the verdicts refer to: `{"id","puzzle"}` per line.
    #[arg(long)]
    puzzles: String,
    /// Repeat the whole run this many times (1 to 100).
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=100))]
    rounds: usize,
}

/// Runs `witness bench-check`: validates every path, prints paths per
/// second and the slowest single validation.
pub fn run_bench_check(a: BenchCheckArgs) -> Result<u8, String> {
    let ptext = input::read_text(&a.puzzles)?;
    let mut puzzles: HashMap<String, (Puzzle, Rules)> = HashMap::new();
    for (n, line) in ptext.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let (id, p) = parse_line(n + 1, line, None);
        let p = p.map_err(|e| format!("{}: {id}: {e}", a.puzzles))?;
        let r = Rules::new(&p).map_err(|e| e.to_string())?;
        puzzles.insert(id, (p, r));
    }
    let vtext = input::read_text(&a.verdicts)?;
    let mut work = Vec::new();
    for (n, line) in vtext.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let path = Path::from_site(&v["path"]).map_err(|e| format!("line {}: {e}", n + 1))?;
        if !puzzles.contains_key(&id) {
            return Err(format!("line {}: unknown puzzle id {id}", n + 1));
        }
        work.push((id, path));
    }
    let mut slowest = (0.0f64, String::new());
    let mut times = Vec::with_capacity(work.len() * a.rounds);
    let t0 = Instant::now();
    let mut valid = 0usize;
    for _ in 0..a.rounds {
        for (id, path) in &work {
            let (p, r) = &puzzles[id];
            let t = Instant::now();
            let v = r.check_path(p, path).map_err(|e| format!("{id}: {e}"))?;
            let ms = t.elapsed().as_secs_f64() * 1e3;
            valid += v.valid as usize;
            times.push(ms);
            if ms > slowest.0 {
                slowest = (ms, id.clone());
            }
        }
    }
    let total = t0.elapsed().as_secs_f64();
    times.sort_by(f64::total_cmp);
    outln!(
        "paths: {} ({})  valid: {}  total {:.3} s  {:.0} paths/s",
        times.len(),
        how_many(a.rounds as u64, "round"),
        valid,
        total,
        times.len() as f64 / total
    );
    outln!(
        "per validation: p50 {}  p99 {}  slowest {} ({})",
        fmt_ms(percentile(&times, 0.5)),
        fmt_ms(percentile(&times, 0.99)),
        fmt_ms(slowest.0),
        slowest.1
    );
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::Times;

    /// Nine puzzles finished in 1 to 9 ms and one timed out: the timeout
    /// ranks tenth, so the maximum and p99 (rank 9 of 0..=9) read
    /// "timeout", p90 (rank round(8.1) = 8) is the slowest finished
    /// puzzle and p50 (rank round(4.5) = 5, rounding half away from zero)
    /// is the sixth.
    #[test]
    fn a_timeout_ranks_above_every_finished_puzzle() {
        let t = Times {
            finished: (1..=9).map(f64::from).collect(),
            timeouts: 1,
        };
        assert_eq!(t.at(1.0), "timeout");
        assert_eq!(t.at(0.99), "timeout");
        assert_eq!(t.at(0.9), "9.00 ms");
        assert_eq!(t.at(0.5), "6.00 ms");
        let none = Times {
            finished: vec![2.0, 4.0],
            timeouts: 0,
        };
        assert_eq!(none.at(1.0), "4.00 ms");
        assert_eq!(none.at(0.0), "2.00 ms");
    }
}

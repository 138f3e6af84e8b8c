//! The SAT engine's work on puzzles, for tuning its cuts:
//! `cargo run --release -p witness-lab --bin satstats PUZZLE.json... [--count N] [--timeout-ms MS] [--eager-edges E] [--labels 0|1] [--plain 0|1] [--set NAME=V,...] [--later NAME=V,... --later-calls K]`
//! prints per puzzle the time (wall and this thread's CPU), the answer and
//! [`witness::internals::sat::Stats`] (`--labels 1` adds the pieces'
//! region labels, `--plain 0` gives piece panels CaDiCaL's default
//! configuration, `--set` sets CaDiCaL options before the first call and
//! `--later` once K calls are made, in place of the engine's own
//! `lucky=0` after [`witness::internals::sat::LUCKY_CALLS`]; `--later ''`
//! sets none: [`witness::internals::sat::Options`]), then the totals: CPU time, solver
//! calls and cuts (the CPU time moves less than the wall time on a busy
//! machine).

use std::time::{Duration, Instant};

use witness::internals::sat::{Options, SatRun};
use witness::Limits;

fn main() {
    let (files, given) = witness_lab::files_and_options(&[
        "--count",
        "--timeout-ms",
        "--eager-edges",
        "--labels",
        "--plain",
        "--set",
        "--later",
        "--later-calls",
    ]);
    let count: Option<u64> = witness_lab::option(&given, "--count");
    let ms: u64 = witness_lab::option(&given, "--timeout-ms").unwrap_or(20_000);
    let eager: Option<usize> = witness_lab::option(&given, "--eager-edges");
    let mut opts = Options::default();
    if let Some(e) = eager {
        opts.eager_edges = e;
    }
    if let Some(l) = witness_lab::option::<u8>(&given, "--labels") {
        opts.labels = l != 0;
    }
    if let Some(p) = witness_lab::option::<u8>(&given, "--plain") {
        opts.plain_pieces = p != 0;
    }
    let pairs = |name: &str| -> Option<Vec<(String, i32)>> {
        witness_lab::option::<String>(&given, name).map(|v| {
            v.split(',')
                .filter(|kv| !kv.is_empty())
                .map(|kv| {
                    let (k, v) = kv.split_once('=').expect("NAME=VALUE");
                    (k.to_string(), v.parse().expect("a number"))
                })
                .collect()
        })
    };
    if let Some(set) = pairs("--set") {
        opts.cadical = set;
    }
    if let Some(later) = pairs("--later") {
        opts.later = later;
    }
    if let Some(k) = witness_lab::option::<u64>(&given, "--later-calls") {
        opts.later_calls = k;
    }
    let mut cpus: Vec<f64> = Vec::new();
    let (mut calls, mut regions, mut symbols, mut loops) = (0, 0, 0, 0);
    for (f, puzzle) in witness_lab::puzzle_files(&files) {
        let limits = Limits::timeout(Duration::from_millis(ms));
        let t = Instant::now();
        let c0 = witness_lab::thread_cpu_ms();
        let made = SatRun::with_options(&puzzle, &limits, &opts);
        let mut run = match made {
            Ok(r) => r,
            Err(e) => {
                println!("{f}: {e}");
                continue;
            }
        };
        let answer = match count {
            Some(n) => format!(
                "{:?}",
                run.count(Some(n), &limits, |_| true).map(|c| c.count)
            ),
            None => format!("{:?}", run.solve(&limits).map(|s| s.path.is_some())),
        };
        let cpu = witness_lab::thread_cpu_ms() - c0;
        println!(
            "{f}: {:.1} ms (cpu {cpu:.1} ms) {answer} {:?}",
            t.elapsed().as_secs_f64() * 1e3,
            run.stats
        );
        cpus.push(cpu);
        calls += run.stats.calls;
        regions += run.stats.regions;
        symbols += run.stats.symbols;
        loops += run.stats.loops;
    }
    if cpus.len() > 1 {
        let sum: f64 = cpus.iter().sum();
        cpus.sort_by(f64::total_cmp);
        let at = |q: f64| cpus[((cpus.len() as f64 * q).ceil() as usize).clamp(1, cpus.len()) - 1];
        println!(
            "total: {} puzzles, cpu {sum:.0} ms (p50 {:.2} p90 {:.2} p99 {:.2} max {:.2}), calls {calls}, loops {loops}, regions {regions}, symbol cuts {symbols}",
            cpus.len(),
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0)
        );
    }
}

//! The fixed costs of a solve, measured on a corpus:
//! `cargo run --release -p witness-lab --bin setup_cost [PUZZLES.jsonl [VERDICTS.jsonl [ROUNDS [WHAT]]]]`
//! (defaults: the dev corpus in `../shared/corpus`, 5 rounds, `all`).
//!
//! * `plan`: times `Plan::new` (and `Rules::new`, `Board::new` and
//!   `PolyTables::new` on their own) on every puzzle, parsed once
//!   beforehand: each puzzle `ROUNDS` times in a row, keeping its best.
//! * `valid`: traces every path of the verdicts file once, then times
//!   `Rules::is_valid` on it with one reused `Workspace` per puzzle (as the
//!   search calls it), and counts the heap allocations those calls make
//!   after a first warm-up round.
//!
//! `WHAT` is `plan`, `valid` or `all`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use witness::internals::{
    board::{Board, Sym},
    plan::Plan,
    polyfit::Placements,
    symbols::PolyTables,
    Line, Workspace,
};
use witness::model::{Polyomino, Puzzle};
use witness::{Path, Rules};

/// The system allocator, counting allocations.
struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        System.dealloc(p, l)
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.alloc_zeroed(l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        System.realloc(p, l, n)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A traced path: its lines, start slot and end slot.
type Traced = (Vec<Line>, usize, usize);

fn parse(line: &str) -> (String, Puzzle) {
    let j: serde_json::Value = serde_json::from_str(line).expect("JSON line");
    let id = j["id"].as_str().expect("id").to_string();
    let p = match &j["puzzle"] {
        serde_json::Value::String(s) => witness::formats::read_puzzle(s, None),
        other => witness::formats::wpjson::from_value(other),
    }
    .expect("puzzle");
    (id, p)
}

/// Median, p90 and max of per-item times in µs.
fn spread(mut t: Vec<f64>) -> (f64, f64, f64) {
    t.sort_by(f64::total_cmp);
    let q = |f: f64| t[((t.len() as f64 - 1.0) * f).round() as usize];
    (q(0.5), q(0.9), q(1.0))
}

/// Times `f` on every item, `rounds` times in a row (so the item is warm in
/// the cache, as right after parsing it); per item the fastest run. Returns
/// the sum of those and the list.
fn time_each<T>(items: &[T], rounds: usize, mut f: impl FnMut(&T)) -> (f64, Vec<f64>) {
    let best: Vec<f64> = items
        .iter()
        .map(|it| {
            (0..rounds)
                .map(|_| {
                    let t = Instant::now();
                    f(it);
                    t.elapsed().as_secs_f64() * 1e6
                })
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    (best.iter().sum(), best)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let pfile = args
        .next()
        .unwrap_or_else(|| "../shared/corpus/witnesspuzzles-dev.jsonl".into());
    let vfile = args
        .next()
        .unwrap_or_else(|| "../shared/corpus/witnesspuzzles-dev-verdicts.jsonl".into());
    let rounds: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(5);
    let what = args.next().unwrap_or_else(|| "all".into());
    let text = std::fs::read_to_string(&pfile).expect("readable puzzles file");
    let puzzles: Vec<(String, Puzzle)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(parse)
        .collect();

    if what == "plan" || what == "all" {
        let a0 = ALLOCS.load(Ordering::Relaxed);
        let (total, each) = time_each(&puzzles, rounds, |(_, p)| {
            std::hint::black_box(Plan::new(p).expect("plan"));
        });
        let allocs = (ALLOCS.load(Ordering::Relaxed) - a0) as f64 / (rounds * puzzles.len()) as f64;
        let (p50, p90, max) = spread(each);
        println!(
            "Plan::new  {} puzzles x {rounds} rounds: sum of best {:.0} µs  median {p50:.2} µs  p90 {p90:.2} µs  max {max:.1} µs  {allocs:.1} allocations per puzzle",
            puzzles.len(),
            total
        );
        let (total, each) = time_each(&puzzles, rounds, |(_, p)| {
            std::hint::black_box(Rules::new(p).expect("rules"));
        });
        let (p50, p90, max) = spread(each);
        println!(
            "Rules::new {} puzzles x {rounds} rounds: sum of best {:.0} µs  median {p50:.2} µs  p90 {p90:.2} µs  max {max:.1} µs",
            puzzles.len(),
            total
        );
        let a0 = ALLOCS.load(Ordering::Relaxed);
        let (total, each) = time_each(&puzzles, rounds, |(_, p)| {
            std::hint::black_box(Board::new(p).expect("board"));
        });
        let allocs = (ALLOCS.load(Ordering::Relaxed) - a0) as f64 / (rounds * puzzles.len()) as f64;
        let (p50, p90, max) = spread(each);
        println!(
            "Board::new {} puzzles x {rounds} rounds: sum of best {:.0} µs  median {p50:.2} µs  p90 {p90:.2} µs  max {max:.1} µs  {allocs:.1} allocations per puzzle",
            puzzles.len(),
            total
        );
        let boards: Vec<Board> = puzzles
            .iter()
            .map(|(_, p)| Board::new(p).expect("board"))
            .collect();
        let (total, each) = time_each(&boards, rounds, |b| {
            std::hint::black_box(PolyTables::new(b));
        });
        let (p50, p90, max) = spread(each);
        println!(
            "PolyTables::new {} boards x {rounds} rounds: sum of best {:.0} µs  median {p50:.2} µs  p90 {p90:.2} µs  max {max:.1} µs",
            boards.len(),
            total
        );
        // Every placement table each board can need (built lazily by the
        // rules, on the first fit that uses the kind).
        let kinds: Vec<(&Board, Vec<(Polyomino, bool)>)> = boards
            .iter()
            .map(|b| {
                let mut k: Vec<(Polyomino, bool)> = Vec::new();
                for s in &b.sym {
                    let key = match *s {
                        Sym::Poly(i) => (b.shapes[i as usize].clone(), false),
                        Sym::Ylop(i) => (b.shapes[i as usize].clone(), true),
                        _ => continue,
                    };
                    if !k.contains(&key) {
                        k.push(key);
                    }
                }
                (b, k)
            })
            .filter(|(_, k)| !k.is_empty())
            .collect();
        let (total, each) = time_each(&kinds, rounds, |(b, k)| {
            for (shape, sub) in k {
                std::hint::black_box(Placements::new(b, shape, *sub));
            }
        });
        let (p50, p90, max) = spread(each);
        println!(
            "Placements::new, every kind, {} boards with pieces x {rounds} rounds: sum of best {:.0} µs  median {p50:.2} µs  p90 {p90:.2} µs  max {max:.1} µs",
            kinds.len(),
            total
        );
    }

    if what == "valid" || what == "all" {
        let vtext = std::fs::read_to_string(&vfile).expect("readable verdicts file");
        let index: HashMap<&str, usize> = puzzles
            .iter()
            .enumerate()
            .map(|(k, (id, _))| (id.as_str(), k))
            .collect();
        let rules: Vec<Rules> = puzzles
            .iter()
            .map(|(_, p)| Rules::new(p).expect("rules"))
            .collect();
        // Per puzzle: its traced paths (lines, start, end).
        let mut work: Vec<Vec<Traced>> = vec![Vec::new(); puzzles.len()];
        let mut illegal = 0;
        for line in vtext.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
            let k = index[v["id"].as_str().expect("id")];
            let path = Path::from_site(&v["path"]).expect("path");
            let Ok(t) = path.trace(&puzzles[k].1) else {
                illegal += 1;
                continue;
            };
            let b = &rules[k].board;
            let s = b.index(t.start.x, t.start.y);
            let e = b.index(t.end.x, t.end.y);
            work[k].push((t.lines, s, e));
        }
        let groups: Vec<(usize, &Vec<Traced>)> = work
            .iter()
            .enumerate()
            .filter(|(_, w)| !w.is_empty())
            .collect();
        let n_paths: usize = groups.iter().map(|(_, w)| w.len()).sum();
        let mut spaces: Vec<Workspace> = vec![Workspace::default(); puzzles.len()];
        let mut valid = 0usize;
        let mut best = vec![f64::INFINITY; n_paths];
        let mut allocs = 0u64;
        let mut total = 0.0;
        for round in 0..=rounds {
            let a0 = ALLOCS.load(Ordering::Relaxed);
            let t0 = Instant::now();
            let mut j = 0;
            valid = 0;
            for &(k, paths) in &groups {
                let ws = &mut spaces[k];
                for (lines, s, e) in paths {
                    let t = Instant::now();
                    let ok = rules[k].is_valid(lines, *s, *e, ws);
                    let us = t.elapsed().as_secs_f64() * 1e6;
                    valid += ok as usize;
                    if round > 0 {
                        best[j] = best[j].min(us);
                    }
                    j += 1;
                }
            }
            if round > 0 {
                total += t0.elapsed().as_secs_f64() * 1e6;
                allocs += ALLOCS.load(Ordering::Relaxed) - a0;
            }
        }
        let (p50, p90, max) = spread(best);
        println!(
            "is_valid   {n_paths} paths ({illegal} illegal skipped), {valid} valid, x {rounds} rounds: {:.0} µs per round  {:.0} paths/s  median {p50:.2} µs  p90 {p90:.2} µs  max {max:.1} µs  allocations per round after warm-up {}",
            total / rounds as f64,
            n_paths as f64 * rounds as f64 / (total / 1e6),
            allocs / rounds as u64
        );
    }
}

//! Why no solution, with and without the unsatisfiable core: `cargo run
//! --release -p witness-lab --bin why_bench FILE.jsonl [COUNT] [MIN_FACES]
//! [SEED]` takes the first COUNT puzzles (default 10) of FILE.jsonl with
//! at least MIN_FACES faces a side (default 8) that the library solves
//! within 10 s, makes each unsolvable by adding black dots off its
//! solution (a random line slot the current solution leaves uncovered,
//! then a new solution, until none is left; at most 12 dots, the puzzle
//! skipped otherwise), and runs `why` on it twice: from the SAT engine's
//! core, then by deletion from every symbol (both with the `auto` engine
//! for their exact solves, 60 s for all of them); puzzles without a core
//! (the SAT engine does not take them) are skipped. Then `why` as the
//! library runs it (the core only when it looks worth it). Per puzzle it prints the symbols, the
//! candidates the deletion starts from, the set's size, the exact solves
//! and the time of each; then the totals and medians.

use std::time::{Duration, Instant};

use witness::internals::why::{why_traced, UseCore, WhyOptions};
use witness::model::{Dot, Gap, Puzzle, SlotKind};
use witness::{Limits, SolveOptions};

/// A small xorshift generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A solution of `p` within 10 s: `Some(Some(path))`, `Some(None)` when it
/// has none, `None` when stopped.
fn solve(p: &Puzzle) -> Option<Option<witness::Path>> {
    let o = SolveOptions::default().with_limits(Limits::timeout(Duration::from_secs(10)));
    let s = witness::solve(p, &o).ok()?;
    match (s.path, s.status) {
        (Some(path), _) => Some(Some(path)),
        (None, witness::Status::Complete) => Some(None),
        (None, _) => None,
    }
}

/// `p` made unsolvable by black dots off its solutions, if within 12 dots.
fn unsolvable(p: &Puzzle, rng: &mut Rng) -> Option<Puzzle> {
    let mut p = p.clone();
    let mut path = solve(&p)??;
    for _ in 0..12 {
        let on = path.slots(&p).ok()?;
        let free: Vec<_> = p
            .positions()
            .filter(|&q| {
                let c = p.cell(q);
                q.kind() != SlotKind::Face
                    && !on.contains(&q)
                    && c.dot == Dot::None
                    && c.gap == Gap::None
                    && !c.start
                    && c.end.is_none()
            })
            .collect();
        if free.is_empty() {
            return None;
        }
        p.cell_mut(free[rng.below(free.len())]).dot = Dot::Black;
        match solve(&p)? {
            Some(next) => path = next,
            None => return Some(p),
        }
    }
    None
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        0.0
    } else {
        v[v.len() / 2]
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args
        .next()
        .expect("usage: why_bench FILE.jsonl [COUNT] [MIN_FACES] [SEED]");
    let count: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(10);
    let min: usize = args.next().and_then(|v| v.parse().ok()).unwrap_or(8);
    let seed: u64 = args.next().and_then(|v| v.parse().ok()).unwrap_or(41);
    let mut rng = Rng(seed | 1);
    let options = || WhyOptions::default().with_limits(Limits::timeout(Duration::from_secs(60)));
    println!(
        "id faces symbols | core always: candidates set solves ms | deletion: set solves ms | why: which solves ms"
    );
    let mut t_why = Vec::new();
    let (mut s_why, mut used) = (0u32, 0usize);
    let (mut t_core, mut t_del) = (Vec::new(), Vec::new());
    let (mut s_core, mut s_del) = (0u32, 0u32);
    let (mut cand, mut sym) = (0usize, 0usize);
    for line in std::fs::read_to_string(&file).expect("file").lines() {
        if t_core.len() >= count {
            break;
        }
        let j: serde_json::Value = serde_json::from_str(line).expect("json");
        let id = j["id"].as_str().expect("id");
        let Ok(p) = witness::formats::read_puzzle(j["puzzle"].as_str().expect("puzzle"), None)
        else {
            continue;
        };
        if p.face_width() < min || p.face_height() < min {
            continue;
        }
        if let Err(witness::Error::Unsupported(_)) =
            witness::internals::sat::SatRun::new(&p, &Limits::none())
        {
            println!("{id}: the SAT engine does not take it, skipped");
            continue;
        }
        let Some(q) = unsolvable(&p, &mut rng) else {
            continue;
        };
        let t = Instant::now();
        let (a, ta) = match why_traced(&q, &options(), UseCore::Always) {
            Ok(answer) => answer,
            Err(e) => {
                println!("{id}: {e}");
                continue;
            }
        };
        let ms_a = t.elapsed().as_secs_f64() * 1e3;
        if !ta.core {
            println!("{id}: no core, skipped");
            continue;
        }
        let t = Instant::now();
        let Ok((b, tb)) = why_traced(&q, &options(), UseCore::Never) else {
            println!(
                "{id} | {} {} {} {ms_a:.1} | the deletion's first solve stopped after 60 s",
                ta.candidates,
                a.symbols.len(),
                ta.solves
            );
            continue;
        };
        let ms_b = t.elapsed().as_secs_f64() * 1e3;
        let t = Instant::now();
        let (_, tc) = why_traced(&q, &options(), UseCore::Worth).expect("why");
        let ms_c = t.elapsed().as_secs_f64() * 1e3;
        t_why.push(ms_c);
        s_why += tc.solves;
        used += tc.core as usize;
        println!(
            "{id} {}x{} {} | {}{} {} {} {ms_a:.1} (core {:.1}) | {} {} {ms_b:.1} | {} {} {ms_c:.1}{}",
            q.face_width(),
            q.face_height(),
            ta.symbols,
            ta.candidates,
            if ta.core { "" } else { " (no core)" },
            a.symbols.len(),
            ta.solves,
            ta.core_time.as_secs_f64() * 1e3,
            b.symbols.len(),
            tb.solves,
            if tc.core { "core" } else { "deletion" },
            tc.solves,
            if a.status == b.status && a.status == witness::Status::Complete {
                ""
            } else {
                " (stopped)"
            }
        );
        t_core.push(ms_a);
        t_del.push(ms_b);
        s_core += ta.solves;
        s_del += tb.solves;
        cand += ta.candidates;
        sym += ta.symbols;
    }
    let (sum_a, sum_b): (f64, f64) = (t_core.iter().sum(), t_del.iter().sum());
    let sum_c: f64 = t_why.iter().sum();
    println!(
        "{} puzzles; symbols {sym}, candidates {cand}; exact solves: core {s_core}, deletion {s_del}, \
         why {s_why} (core on {used}); total ms: core {sum_a:.0}, deletion {sum_b:.0}, why {sum_c:.0}; \
         median ms: core {:.1}, deletion {:.1}, why {:.1}",
        t_core.len(),
        median(&mut t_core),
        median(&mut t_del),
        median(&mut t_why),
    );
}

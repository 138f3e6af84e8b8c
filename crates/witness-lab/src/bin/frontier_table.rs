//! The frontier count of empty square panels, corner to corner:
//! `cargo run --release -p witness-lab --bin frontier_table [FROM [TO [MAX_GIB]]]`
//! (defaults: 1 to 13, the library's memory limit).
//!
//! For each n x n panel of faces, start at the bottom-left node and end at
//! the top-right one, prints the count (OEIS A007764, term n + 1), the
//! wall time of the count (best of three below 1 s, else one run), the most
//! states one step held, the most memory the state tables took and the
//! limbs per count at the end, as a Markdown table.

use std::time::{Duration, Instant};

use witness::internals::{frontier, plan::Plan};
use witness::model::{Direction, Pos, Puzzle};
use witness::Limits;

fn main() {
    let arg = |i: usize, d: usize| {
        std::env::args()
            .nth(i)
            .map_or(d, |a| a.parse().expect("a whole number"))
    };
    let (from, to) = (arg(1, 1), arg(2, 13));
    let max_bytes = std::env::args().nth(3).map_or(frontier::MAX_BYTES, |g| {
        (g.parse::<f64>().expect("GiB") * (1u64 << 30) as f64) as usize
    });
    println!(
        "| panel | paths (A007764) | time | peak states | peak memory | limbs | states expanded |"
    );
    println!("|---|---|---|---|---|---|---|");
    for n in from..=to {
        let mut p = Puzzle::new(n, n, false).expect("panel");
        p.cell_mut(Pos::new(0, 2 * n)).start = true;
        p.cell_mut(Pos::new(2 * n, 0)).end = Some(Direction::Up);
        let plan = Plan::new(&p).expect("plan");
        let mut best = Duration::MAX;
        let mut out = None;
        for _ in 0..3 {
            let t0 = Instant::now();
            let r = frontier::frontier_count_with(&plan, None, &Limits::none(), max_bytes);
            best = best.min(t0.elapsed());
            out = Some(r);
            if best > Duration::from_secs(1) {
                break;
            }
        }
        let (count, stats) = out.expect("one run");
        let Some(count) = count else {
            println!("| {n}x{n} | too large for {max_bytes} bytes | | | | |");
            break;
        };
        println!(
            "| {n}x{n} | {} | {} | {} | {:.1} MB | {} | {} |",
            count.count,
            fmt_time(best),
            stats.peak_states,
            stats.peak_bytes as f64 / 1e6,
            stats.limbs,
            stats.work
        );
    }
}

/// A duration in ms below 10 s, else in s.
fn fmt_time(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1e3;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else if ms < 10_000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1e3)
    }
}

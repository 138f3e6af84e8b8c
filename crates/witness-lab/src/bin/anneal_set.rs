//! The local search alone over every puzzle of a corpus file it handles:
//! `anneal_set FILE.jsonl MOVES SEEDS` runs seeds 1 to SEEDS on each,
//! each up to MOVES moves or `ANNEAL_MS` milliseconds (default 2000;
//! some panels take milliseconds a move), and prints per puzzle the median moves and ms
//! to a first solution (an unsolved run counts as MOVES and its time) and
//! how many seeds solved; then over all runs the share solved and the
//! median and 90th percentile of the per-puzzle medians. With
//! `ANNEAL_EACH=1`, one line per run as well: id, seed, moves, ms, solved.

use witness::internals::{local::Anneal, plan::Plan};

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn percentile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() {
        return 0.0;
    }
    v[((v.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: anneal_set FILE.jsonl MOVES SEEDS";
    let file = args.next().expect(usage);
    let budget: u64 = args.next().and_then(|v| v.parse().ok()).expect(usage);
    let seeds: u64 = args.next().and_then(|v| v.parse().ok()).expect(usage);
    let each = std::env::var_os("ANNEAL_EACH").is_some();
    let cap_ms: f64 = std::env::var("ANNEAL_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000.0);
    let (mut runs, mut solved, mut handled) = (0u64, 0u64, 0usize);
    let (mut med_moves, mut med_ms) = (Vec::new(), Vec::new());
    for (id, p) in witness_lab::corpus(&file) {
        let Ok(plan) = Plan::new(&p) else {
            continue;
        };
        if Anneal::new(&plan, 1).is_none() {
            continue;
        }
        handled += 1;
        let (mut moves, mut ms, mut ok) = (Vec::new(), Vec::new(), 0);
        for seed in 1..=seeds {
            let mut a = Anneal::new(&plan, seed).expect("handled");
            a.set_limits(&witness::Limits::none());
            let t = witness_lab::thread_cpu_ms();
            let mut found = false;
            while a.moves < budget && witness_lab::thread_cpu_ms() - t < cap_ms {
                if a.run(256.min(budget - a.moves)).is_some() {
                    found = true;
                    break;
                }
            }
            let el = witness_lab::thread_cpu_ms() - t;
            runs += 1;
            solved += found as u64;
            ok += found as usize;
            if each {
                println!("run {id} {seed} {} {el:.2} {found}", a.moves);
            }
            moves.push(if found { a.moves as f64 } else { budget as f64 });
            ms.push(el);
        }
        let (mm, mt) = (median(&mut moves), median(&mut ms));
        println!("{id} median moves {mm:.0} median ms {mt:.2} solved {ok}/{seeds}");
        med_moves.push(mm);
        med_ms.push(mt);
    }
    println!(
        "{handled} puzzles handled, {solved}/{runs} runs solved within {budget} moves; per-puzzle medians: moves p50 {:.0} p90 {:.0}, ms p50 {:.2} p90 {:.2}, sum of median ms {:.0}",
        median(&mut med_moves.clone()),
        percentile(&mut med_moves, 0.9),
        median(&mut med_ms.clone()),
        percentile(&mut med_ms.clone(), 0.9),
        med_ms.iter().sum::<f64>()
    );
}

//! Whether restarts with shuffled move orders could reach first solutions
//! sooner: `cargo run --release -p witness-lab --bin restarts FILE.jsonl
//! [--ids IDS] [--seeds S] [--cap C] [--depth K] [--keys 1|2|3]
//! [--heur 0|1|2|3] [--back 0|1] [--case K] [--unit U]` searches each
//! puzzle of FILE.jsonl (those listed in the file IDS, if given) with
//! seeds 1..=S of a [`Shuffle`] and the first start picked by the seed,
//! each run for up to C of work (default 300,000; nodes and fit steps, as
//! the turns' budgets count them). The shuffle picks the order at a node
//! by a hash of the seed and (`--keys`) 1 the slot, 2 the depth or 3 both
//! (the default), at depths below K only (default all); or, with
//! `--heur`, orders each slot's moves by the slot moved to: 1 nearest an
//! end first, 2 farthest from the ends first, 3 nearest the border first,
//! the seed breaking ties. `--back 1` searches the plan's reversal (from
//! the ends); `--case K` the `K`th elimination case of a puzzle with
//! marks ([`witness::internals::mark_cases`]), a solution then being a
//! case solution the puzzle's rules accept. One line per puzzle: the id,
//! the work of the engine's order (`fixed`; -1: not within C), the share
//! of seeds that found a solution within 10k, 30k, 100k and C of work,
//! the median work of those that did, and the work a Luby schedule of
//! restarts with unit U (default 10,000) takes over the seeds in turn
//! (`luby`; -1: a cutoff passed C first).

use witness::internals::{
    mark_cases::{case_boards, MAX_CASES},
    plan::{Masks, Plan},
    reverse,
    search::{Found, Search, Shuffle},
};
use witness::model::{Direction, Puzzle};
use witness::{Limits, Path, Rules};

/// What one puzzle's runs share.
struct Setup<'a> {
    plan: Plan,
    depth: usize,
    keys: u8,
    heur: u8,
    cap: u64,
    /// With a case's plan: the puzzle's rules and the puzzle, which judge
    /// the case's solutions.
    check: Option<(&'a Rules, &'a Puzzle)>,
}

/// The work to the first solution with `seed` (0: the engine's order,
/// unless `heur`), or `None` within the cap.
fn run<const N: usize>(u: &Setup, seed: u64) -> Option<u64> {
    let plan = &u.plan;
    let masks = Masks::<N>::new(plan);
    let limits = Limits::none();
    let mut s = Search::<N>::new(plan, &masks, &limits);
    let n = plan.starts.len().max(1);
    let first = if seed == 0 {
        0
    } else {
        (mix(seed) as usize) % n
    };
    s.set_order(Direction::ALL, first);
    if seed != 0 || u.heur != 0 {
        s.set_shuffle(Some(Shuffle {
            seed,
            by_slot: u.keys & 1 != 0,
            by_depth: u.keys & 2 != 0,
            depth: u.depth,
            slots: if u.heur != 0 {
                slot_orders(plan, u.heur, seed)
            } else {
                Vec::new()
            },
        }));
    }
    s.set_budget(Some(u.cap));
    let mut found = false;
    s.run_all(&mut |f: &Found| {
        found = match u.check {
            None => true,
            Some((rules, p)) => {
                let path = Path::new(plan.rules.board.pos(f.start), f.moves.to_vec());
                rules.check_path(p, &path).is_ok_and(|v| v.valid)
            }
        };
        !found
    });
    found.then_some(s.work())
}

fn runs(u: &Setup, seed: u64) -> Option<u64> {
    match u.plan.nodes() {
        0..=64 => run::<1>(u, seed),
        65..=128 => run::<2>(u, seed),
        129..=512 => run::<8>(u, seed),
        _ => run::<16>(u, seed),
    }
}

/// splitmix64's finaliser.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A move order per slot by a score of the slot moved to (lowest first),
/// ties broken by a hash of the seed (by the engine's order for seed 0):
/// `heur` 1 the distance to the nearest end, 2 its negation, 3 the
/// distance to the border.
fn slot_orders(plan: &Plan, heur: u8, seed: u64) -> Vec<[Direction; 4]> {
    let b = &plan.rules.board;
    let n = b.nbr.len();
    let mut dist = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    for (s, _) in b.end.iter().enumerate().filter(|(_, &e)| e) {
        dist[s] = 0;
        queue.push_back(s);
    }
    while let Some(s) = queue.pop_front() {
        for &r in &b.nbr[s] {
            if r != u32::MAX && dist[r as usize] == u32::MAX {
                dist[r as usize] = dist[s] + 1;
                queue.push_back(r as usize);
            }
        }
    }
    (0..n)
        .map(|q| {
            let score = |d: Direction| -> (i64, u64) {
                let r = b.nbr[q][d as usize];
                let tie = if seed == 0 {
                    d as u64
                } else {
                    mix(seed ^ ((q as u64) << 8) ^ d as u64)
                };
                if r == u32::MAX {
                    return (i64::MAX, tie);
                }
                let r = r as usize;
                let v = match heur {
                    1 => dist[r] as i64,
                    2 => -(dist[r] as i64),
                    _ => {
                        // Slots are stored column by column.
                        let (x, y) = (r / b.h, r % b.h);
                        x.min(y).min(b.w - 1 - x).min(b.h - 1 - y) as i64
                    }
                };
                (v, tie)
            };
            let mut o = Direction::ALL;
            o.sort_by_key(|&d| score(d));
            o
        })
        .collect()
}

/// The `i`th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 ...
fn luby(i: u64) -> u64 {
    let mut k = 1;
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if (1u64 << k) - 1 == i {
        1 << (k - 1)
    } else {
        luby(i - (1 << (k - 1)) + 1)
    }
}

fn main() {
    let (files, given) = witness_lab::files_and_options(&[
        "--ids", "--seeds", "--cap", "--depth", "--keys", "--heur", "--back", "--case", "--unit",
    ]);
    let file = files.first().expect("usage: restarts FILE.jsonl [options]");
    let opt = |name| witness_lab::option::<u64>(&given, name);
    let seeds = opt("--seeds").unwrap_or(200);
    let cap = opt("--cap").unwrap_or(300_000);
    let depth = opt("--depth").map_or(usize::MAX, |d| d as usize);
    let keys = opt("--keys").unwrap_or(3) as u8;
    let heur = opt("--heur").unwrap_or(0) as u8;
    let back = opt("--back") == Some(1);
    let case = opt("--case").map(|k| k as usize);
    let unit = opt("--unit").unwrap_or(10_000);
    let puzzles = match witness_lab::option::<String>(&given, "--ids") {
        Some(ids) => witness_lab::picked(file, &ids),
        None => witness_lab::corpus(file),
    };
    for (id, p) in puzzles {
        let rules = Rules::new(&p).expect("rules");
        let mut plan = Plan::new(&p).expect("plan");
        if let Some(k) = case {
            let Some(b) =
                case_boards(&plan.rules.board, MAX_CASES).and_then(|c| c.into_iter().nth(k))
            else {
                println!("{id} no case {k}");
                continue;
            };
            plan = Plan::from_rules(Rules::from_board(b), plan.undirected);
        }
        if back {
            let Some(b) = reverse::reversed(&plan) else {
                println!("{id} no reversal");
                continue;
            };
            plan = b;
        }
        let u = Setup {
            plan,
            depth,
            keys,
            heur,
            cap,
            check: case.map(|_| (&rules, &p)),
        };
        let fixed = runs(&u, 0).map_or(-1, |w| w as i64);
        let works: Vec<Option<u64>> = (1..=seeds).map(|s| runs(&u, s)).collect();
        let share = |t: u64| {
            works.iter().filter(|w| w.is_some_and(|w| w <= t)).count() as f64 / seeds as f64
        };
        let mut solved: Vec<u64> = works.iter().flatten().copied().collect();
        solved.sort_unstable();
        let median = solved.get(solved.len() / 2).map_or(-1, |&w| w as i64);
        // Luby restarts over the seeds in turn: a seed's run is the same
        // whatever its cutoff, up to the cutoff.
        let mut total = 0;
        let mut luby_work = -1;
        for (i, w) in works.iter().enumerate() {
            let cut = unit * luby(i as u64 + 1);
            if cut > cap {
                break;
            }
            match w {
                Some(w) if *w <= cut => {
                    luby_work = (total + w) as i64;
                    break;
                }
                _ => total += cut,
            }
        }
        println!(
            "{id} fixed {fixed} p10k {:.2} p30k {:.2} p100k {:.2} pcap {:.2} median {median} luby {luby_work}",
            share(10_000),
            share(30_000),
            share(100_000),
            share(cap)
        );
    }
}

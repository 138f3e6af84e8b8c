//! One elimination case, with the uses of only some marks fixed, searched
//! in each lane's move order:
//! `cargo run --release -p witness-lab --bin partial_cases FILE BUDGET [MX:MY>TX:TY ...]`
//! makes each mark at (MX, MY) and the symbol at (TX, TY) it erases a star
//! pair of a colour of their own (as [`witness::internals::mark_cases`]
//! does for every mark), leaves the other marks as they are, and searches
//! the board for up to `BUDGET` nodes in each of the three move orders on
//! the plan and on its reversal. Prints, per order, the nodes to the first
//! case solution (on the plan: the first one the puzzle's rules accept),
//! `>cap` when the budget ran out, or `none`. With `SOL=FILE` (a path),
//! also tells whether the case and the puzzle accept that path.

use witness::internals::{
    board::Sym,
    plan::{Masks, Plan},
    reverse,
    search::{Found, Search},
};
use witness::model::Puzzle;
use witness::{Limits, Path, Rules};

/// The outcome of each lane on `plan` (a case of `p`).
fn lanes<const N: usize>(plan: &Plan, rules: &Rules, p: &Puzzle, cap: u64) -> Vec<String> {
    // The orders of the turns' lanes, with the start each begins with.
    let orders = witness::internals::lanes::ORDERS;
    let back = reverse::reversed(plan);
    let mut out = vec![];
    for (reversed, pl) in [(false, Some(plan)), (true, back.as_ref())] {
        let Some(pl) = pl else {
            out.extend(["-".to_string(), "-".into(), "-".into()]);
            continue;
        };
        for (order, share) in orders {
            let masks = Masks::<N>::new(pl);
            let limits = Limits::none();
            let mut s = Search::<N>::new(pl, &masks, &limits);
            s.set_order(order, pl.starts.len() * share.0 / share.1);
            s.set_budget(Some(cap));
            let mut solved = false;
            s.run_all(&mut |f: &Found| {
                let path = Path::new(pl.rules.board.pos(f.start), f.moves.to_vec());
                solved = reversed || rules.check_path(p, &path).is_ok_and(|v| v.valid);
                !solved
            });
            out.push(if solved {
                s.visited.to_string()
            } else if s.out_of_budget {
                ">cap".into()
            } else {
                "none".into()
            });
        }
    }
    out
}

fn main() {
    let usage = "usage: partial_cases FILE BUDGET [MX:MY>TX:TY ...]";
    let mut args = std::env::args().skip(1);
    let file = args.next().expect(usage);
    let cap: u64 = args.next().and_then(|v| v.parse().ok()).expect(usage);
    let text = std::fs::read_to_string(&file).expect("readable file");
    let p = witness::formats::read_puzzle(&text, None).expect("puzzle");
    let plan = Plan::new(&p).expect("plan");
    let rules = Rules::new(&p).expect("rules");
    let mut b = plan.rules.board.clone();
    for a in args {
        let slot = |s: &str| {
            let (x, y) = s.split_once(':').expect(usage);
            b.index(x.parse().expect(usage), y.parse().expect(usage))
        };
        let (m, t) = a.split_once('>').expect(usage);
        let (m, t) = (slot(m), slot(t));
        assert_eq!(b.sym[m], Sym::Nega, "{a}: no mark there");
        let color = b.n_colors as u8;
        b.n_colors += 1;
        for s in [m, t] {
            b.sym[s] = Sym::Star;
            b.color[s] = color;
        }
    }
    b.has_negations = b.sym.contains(&Sym::Nega);
    b.has_polys = b.sym.iter().any(|s| s.is_poly());
    let case = Rules::from_board(b);
    if let Ok(sol) = std::env::var("SOL") {
        let path = Path::parse(&std::fs::read_to_string(sol).expect("path file")).expect("path");
        let ok = |r: &Rules| r.check_path(&p, &path).expect("path").valid;
        println!(
            "SOL: case accepts {}, puzzle accepts {}",
            ok(&case),
            ok(&rules)
        );
    }
    let cp = Plan::from_rules(case, plan.undirected);
    let t = std::time::Instant::now();
    let out = match cp.nodes() {
        0..=64 => lanes::<1>(&cp, &rules, &p, cap),
        65..=128 => lanes::<2>(&cp, &rules, &p, cap),
        129..=512 => lanes::<8>(&cp, &rules, &p, cap),
        _ => lanes::<16>(&cp, &rules, &p, cap),
    };
    println!("{} ({:.1} s)", out.join(" "), t.elapsed().as_secs_f64());
}

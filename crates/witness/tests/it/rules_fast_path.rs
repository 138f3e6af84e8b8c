//! The solver's entry point, `Rules::is_valid` (which skips the report, and
//! with it the engine's slot order where that cannot change the answer),
//! against the full verdict of `Rules::check` on random walks through
//! random panels of every mechanic, with one workspace reused throughout.

use crate::common;

use common::random::{mirror_starts_and_ends, random_frame, random_shape, Rng, COLORS};
use witness::internals::Workspace;
use witness::model::{Direction, Dot, Gap, Pos, Puzzle, SlotKind, Symbol, SymbolKind};
use witness::{Path, Rules};

fn random_symbol(r: &mut Rng, negations: bool) -> Option<Symbol> {
    let color = COLORS[r.below(COLORS.len() as u64) as usize].clone();
    let kind = match r.below(if negations { 9 } else { 7 }) {
        0 => return None,
        1 => SymbolKind::Square,
        2 => SymbolKind::Star,
        3 => SymbolKind::Triangle(1 + r.below(3) as u32),
        4 => SymbolKind::Poly(random_shape(r)),
        5 if r.chance(40) => SymbolKind::Ylop(random_shape(r)),
        5 | 6 => SymbolKind::Poly(random_shape(r)),
        _ => SymbolKind::Nega,
    };
    Some(Symbol::new(kind, color))
}

/// A random panel of at most 4x4 faces.
fn random_puzzle(r: &mut Rng) -> Puzzle {
    let mut p = random_frame(r, 4, 3);
    let symmetric = p.symmetry.is_some();
    p.settings.negations_cancel_negations = r.chance(70);
    p.settings.shapeless_zero_poly = r.chance(20);
    p.settings.precise_polyominos = r.chance(80);
    p.settings.fat_startpoints = r.chance(20);
    let negations = r.chance(40);
    let density = 20 + r.below(60);
    for q in p.positions().collect::<Vec<_>>() {
        let c = p.cell_mut(q);
        match q.kind() {
            SlotKind::Face => {
                if r.chance(density) {
                    c.symbol = random_symbol(r, negations);
                }
            }
            kind => {
                if kind == SlotKind::Edge && r.chance(6) {
                    c.gap = if r.chance(50) { Gap::Break } else { Gap::Full };
                    continue;
                }
                if r.chance(8) {
                    c.dot = match r.below(4) {
                        0 => Dot::Blue,
                        1 => Dot::Yellow,
                        2 => Dot::Invisible,
                        _ => Dot::Black,
                    };
                }
                if r.chance(8) {
                    c.start = true;
                }
                if r.chance(10) {
                    c.end = Some(Direction::Up);
                }
            }
        }
    }
    if symmetric {
        mirror_starts_and_ends(&mut p, true);
    }
    p
}

/// A random walk from `start` along the grid lines that never revisits a
/// slot (nor, with symmetry, meets its mirror), stopping at some endpoint.
fn random_walk(r: &mut Rng, p: &Puzzle, start: Pos) -> Option<Path> {
    let mut seen = vec![false; p.width() * p.height()];
    let mark = |seen: &mut Vec<bool>, q: Pos| {
        seen[p.index(q)] = true;
        seen[p.index(p.mirror(q))] = true;
    };
    mark(&mut seen, start);
    let mut at = start;
    let mut moves = Vec::new();
    let mut last_end = None;
    loop {
        if p.cell(at).end.is_some() {
            last_end = Some(moves.len());
            if r.chance(25) {
                break;
            }
        }
        let options: Vec<(Direction, Pos)> = Direction::ALL
            .iter()
            .filter_map(|&d| {
                let ok = if d.is_horizontal() {
                    at.y.is_multiple_of(2)
                } else {
                    at.x.is_multiple_of(2)
                };
                let q = p.neighbor(at, d).filter(|_| ok)?;
                let m = p.mirror(q);
                let free = !seen[p.index(q)]
                    && p.cell(q).gap == Gap::None
                    && p.cell(m).gap == Gap::None
                    && (p.symmetry.is_none() || m != q);
                free.then_some((d, q))
            })
            .collect();
        if options.is_empty() {
            break;
        }
        let (d, q) = options[r.below(options.len() as u64) as usize];
        moves.push(d);
        mark(&mut seen, q);
        at = q;
    }
    let n = last_end?;
    moves.truncate(n);
    Some(Path::new(start, moves))
}

#[test]
fn is_valid_agrees_with_the_full_verdict() {
    let mut r = Rng(0x5DEE_CE66_D1CE_4E5B);
    let (mut ws, mut memo_ws) = (Workspace::default(), Workspace::default());
    let (mut failing, mut remembered, mut partial) = (Vec::new(), Vec::new(), Vec::new());
    let (mut checked, mut valid, mut with_negations, mut gapped) = (0, 0, 0, 0);
    // The stopping thresholds from a generator of their own, so that the
    // puzzles and paths are those of `r` alone.
    let (mut stops, mut thresholds) = (0, Rng(0x0BAD_C0DE_F00D_D00D));
    for case in 0..3000 {
        let p = random_puzzle(&mut r);
        let rules = Rules::new(&p).unwrap();
        // The local search's memo, with a workspace of its own, so that
        // it makes its own cover: it must list the validator's failures.
        let mut memo = witness::internals::RegionMemo::default();
        let (mut stop_memo, mut stop_ws) = (memo.clone(), Workspace::default());
        let starts: Vec<Pos> = p.starts().collect();
        if starts.is_empty() {
            continue;
        }
        for _ in 0..30 {
            let start = starts[r.below(starts.len() as u64) as usize];
            let Some(path) = random_walk(&mut r, &p, start) else {
                continue;
            };
            let Ok(trace) = path.trace(&p) else {
                continue;
            };
            let b = &rules.board;
            let s = b.index(trace.start.x, trace.start.y);
            let e = b.index(trace.end.x, trace.end.y);
            let want = rules.check(&trace).valid;
            let got = rules.is_valid(&trace.lines, s, e, &mut ws);
            assert_eq!(got, want, "case {case}: path {path} on\n{p:?}");
            let mut gaps = Vec::new();
            for _ in 0..2 {
                rules.failures_remembered(
                    &trace.lines,
                    s,
                    e,
                    &mut memo_ws,
                    &mut memo,
                    &mut remembered,
                );
                rules.failures(&trace.lines, s, e, &mut ws, &mut failing);
                // Judged with a memo that knows other regions, stopped
                // once the failures and the gap weigh `t` or more: a
                // stop leaves a part of the whole, which weighs `t` or
                // more, and a run to the end lists the same failures in
                // the same order.
                let t = thresholds.below(24);
                let weigh = |n: usize, gap: u32| n as u64 * 4 + u64::from(gap) * 2;
                let whole = rules.failures_remembered_until(
                    &trace.lines,
                    s,
                    e,
                    &mut stop_ws,
                    &mut stop_memo,
                    &mut partial,
                    |n, gap| weigh(n, gap) >= t,
                );
                if whole {
                    assert_eq!(partial, remembered, "case {case}: path {path} on\n{p:?}");
                    assert_eq!(stop_memo.gap, memo.gap);
                } else {
                    stops += 1;
                    assert!(weigh(partial.len(), stop_memo.gap) >= t);
                    assert!(stop_memo.gap <= memo.gap, "case {case}: path {path}");
                    let mut rest = remembered.clone();
                    for f in &partial {
                        let k = rest.iter().position(|x| x == f);
                        let k = k.unwrap_or_else(|| panic!("case {case}: {f} not failing"));
                        rest.swap_remove(k);
                    }
                }
                remembered.sort_unstable();
                failing.sort_unstable();
                assert_eq!(
                    remembered, failing,
                    "case {case}: path {path} (memo) on\n{p:?}"
                );
                // The area gap, a slope for the local search, is zero
                // when nothing fails, and the same judged afresh as
                // recalled.
                assert!(
                    !remembered.is_empty() || memo.gap == 0,
                    "case {case}: path {path} gap {} on\n{p:?}",
                    memo.gap
                );
                gaps.push(memo.gap);
            }
            assert_eq!(gaps[0], gaps[1], "case {case}: path {path} on\n{p:?}");
            gapped += (gaps[0] > 0) as usize;
            checked += 1;
            valid += want as usize;
            with_negations += rules.board.has_negations as usize;
        }
    }
    assert!(
        checked > 20_000 && valid > 1000 && with_negations > 5000 && gapped > 1000,
        "checked {checked} valid {valid} with negations {with_negations} gapped {gapped}"
    );
    assert!(stops > 5000, "{stops} judgings stopped");
}

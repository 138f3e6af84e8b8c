//! The fast solver against the brute force: on hundreds of small random
//! panels covering every mechanic, both count the same solutions, and every
//! solution the solver returns passes the validator.

mod counts;
mod lanes;
mod pieces;
mod symmetry;
mod turned;
mod windmill;

use crate::common;

use common::random::{
    face_slots, line_slot, line_slots, mirror_starts_and_ends, place_start_end, random_frame,
    random_shape, starts_and_ends, Rng, COLORS,
};
use witness::internals::{brute, plan::Plan, Schedule};
use witness::model::{Direction, Dot, Gap, Pos, Puzzle, Symbol, SymbolKind, Symmetry};
use witness::{CountOptions, Engine, Limits, Path, Rules, Status};

fn random_symbol(r: &mut Rng, negations: bool) -> Option<Symbol> {
    let color = COLORS[r.below(COLORS.len() as u64) as usize].clone();
    let kind = match r.below(if negations { 8 } else { 7 }) {
        0 | 1 => return None,
        2 => SymbolKind::Square,
        3 => SymbolKind::Star,
        4 => SymbolKind::Triangle(1 + r.below(3) as u32),
        5 => SymbolKind::Poly(random_shape(r)),
        6 if r.chance(40) => SymbolKind::Ylop(random_shape(r)),
        6 => SymbolKind::Poly(random_shape(r)),
        _ => SymbolKind::Nega,
    };
    Some(Symbol::new(kind, color))
}

/// A random panel of at most 3x3 faces (pillars 3 or 4 around).
fn random_puzzle(r: &mut Rng) -> Puzzle {
    random_panel(r, 3, 8, 6)
}

/// A random panel of at most `max` faces a side, with a gap on `gaps`
/// percent of the edges (half of them full gaps) and a dot on `dots`
/// percent of the other nodes and edges.
fn random_panel(r: &mut Rng, max: u64, gaps: u64, dots: u64) -> Puzzle {
    let mut p = random_frame(r, max, 2);
    let negations = r.chance(35);
    let density = 15 + r.below(45);
    let positions: Vec<Pos> = p.positions().collect();
    for q in positions {
        let c = p.cell_mut(q);
        match q.kind() {
            witness::model::SlotKind::Face => {
                if r.chance(density) {
                    c.symbol = random_symbol(r, negations);
                }
            }
            kind => line_slot(r, c, kind, gaps, dots),
        }
    }
    // At least one start and one end, mirrored in symmetric puzzles.
    starts_and_ends(r, &mut p, 80);
    p
}

/// The search's count equals the brute force's, or the panel is printed.
/// Odd cases run the pocket narrowing, and half the cases keep verdicts
/// (pocket tests, sealed regions), which the search leaves off on panels
/// this small.
fn assert_counts_agree(case: u64, p: &Puzzle) {
    assert_counts_agree_on(case, p, &Plan::new(p).unwrap());
}

/// [`assert_counts_agree`] with the plan given (its tunables kept but
/// for those the case number sets).
fn assert_counts_agree_on(case: u64, p: &Puzzle, plan: &Plan) {
    let want = brute_count(p);
    let mut plan = plan.clone();
    if case % 2 == 1 {
        plan.narrow_min_nodes = 0;
    }
    if case % 4 >= 2 {
        plan.memo_after = 0;
    }
    let got = witness::internals::count_plan(&plan, None, &Limits::none()).unwrap();
    assert_eq!(got.status, Status::Complete);
    assert_eq!(
        got.count,
        want,
        "case {case}: fast {} vs brute {want} on\n{}",
        got.count,
        witness::formats::wpjson::to_string(p).unwrap()
    );
}

/// The brute force's first solution (in the engine's order), if any.
fn brute_first(p: &Puzzle) -> Option<Path> {
    let mut first = None;
    brute::enumerate(p, &Limits::none(), |q| {
        first = Some(q.clone());
        false
    })
    .unwrap();
    first
}

/// The brute force's count, as the solver counts (undirected pairs once).
fn brute_count(p: &Puzzle) -> u64 {
    common::brute_solutions(p).len() as u64
}

/// Counts of `p` (with `n` solutions) with each limit `l`, handing over
/// to the lanes after `after` nodes with turns of `schedule`, as `runs`
/// lists them: the brute force's count up to the limit, complete exactly
/// below it.
fn assert_limited_counts(
    case: u64,
    p: &Puzzle,
    plan: &Plan,
    n: u64,
    runs: &[(u64, u64, &Schedule)],
) {
    for &(l, after, schedule) in runs {
        let c = witness::internals::count_plan_with(
            plan,
            Some(l),
            &Limits::none(),
            after,
            schedule,
            None,
        )
        .unwrap();
        let want = if n < l {
            (n.into(), Status::Complete)
        } else {
            (l.into(), Status::Stopped)
        };
        assert_eq!(
            (c.count, c.status),
            want,
            "case {case}: limit {l} after {after} on\n{}",
            witness::formats::wpjson::to_string(p).unwrap()
        );
    }
}

/// Gives every face of `p` the symbol `pick` draws (none for `None`), in
/// one of the first two colours; true when some face got an elimination
/// mark.
fn fill_faces(r: &mut Rng, p: &mut Puzzle, pick: impl Fn(&mut Rng) -> Option<SymbolKind>) -> bool {
    for q in face_slots(p) {
        p.cell_mut(q).symbol = pick(r).map(|kind| {
            let color = COLORS[r.below(2) as usize].clone();
            Symbol::new(kind, color)
        });
    }
    p.positions()
        .any(|q| matches!(&p.cell(q).symbol, Some(s) if s.kind == SymbolKind::Nega))
}

/// A random panel (as [`random_panel`]) with every mechanic's symbols on
/// its faces ([`mixed_symbol`]); `None` when no face got an elimination
/// mark.
fn mixed_panel(r: &mut Rng, max: u64, gaps: u64, dots: u64) -> Option<Puzzle> {
    let mut p = random_panel(r, max, gaps, dots);
    fill_faces(r, &mut p, mixed_symbol).then_some(p)
}

/// A face's symbol on the mixed panels: squares, stars, elimination marks,
/// triangles, pieces (a few subtractive), or none.
fn mixed_symbol(r: &mut Rng) -> Option<SymbolKind> {
    Some(match r.below(14) {
        0 | 1 => SymbolKind::Square,
        2..=4 => SymbolKind::Star,
        5 | 6 => SymbolKind::Nega,
        7 => SymbolKind::Triangle(1 + r.below(3) as u32),
        8 if r.chance(15) => SymbolKind::Ylop(random_shape(r)),
        8 | 9 => SymbolKind::Poly(random_shape(r)),
        _ => return None,
    })
}

/// A bare `w` x `h` panel, a pillar or not, symmetric (a mirror across
/// the columns, half the time also across the rows) with odds of
/// `symmetric` in 100 when not a pillar: the piece panels' start.
fn piece_board(r: &mut Rng, w: usize, h: usize, pillar: bool, symmetric: u64) -> Puzzle {
    let mut p = Puzzle::new(w, h, pillar).unwrap();
    if !pillar && r.chance(symmetric) {
        p.symmetry = Some(Symmetry {
            x: true,
            y: r.chance(50),
        });
    }
    p
}

/// Puts a symbol of `kind`, in one of the first two colours, on a random
/// face of `faces` (replacing any symbol there).
fn put_on_a_face(r: &mut Rng, p: &mut Puzzle, faces: &[Pos], kind: SymbolKind) {
    let q = faces[r.below(faces.len() as u64) as usize];
    let color = COLORS[r.below(2) as usize].clone();
    p.cell_mut(q).symbol = Some(Symbol::new(kind, color));
}

/// A lanes schedule of short turns for small panels: `first` nodes,
/// doubling up to `most`, the cases from the first turn, the late lanes
/// after `late_lanes` turns, no annealing.
fn short_turns(first: u64, most: u64, late_lanes: u64) -> Schedule {
    Schedule {
        first,
        growth: 2,
        most,
        cases_after: 0,
        late_lanes,
        anneal_after: 0,
        anneal_alone_after: 0,
        sat_after: witness::internals::Schedule::default().sat_after,
        cubes_alone_after: witness::internals::Schedule::default().cubes_alone_after,
    }
}

/// Full gaps on edges (each with odds of `gap` in 100), a start and an
/// end (a second pair with odds of 30 in 100), and with symmetry their
/// mirrors: the piece panels' finish.
fn gaps_starts_and_ends(r: &mut Rng, p: &mut Puzzle, gap: u64) {
    let slots = line_slots(p);
    for q in &slots {
        if q.kind() == witness::model::SlotKind::Edge && r.chance(gap) {
            p.cell_mut(*q).gap = Gap::Full;
        }
    }
    place_start_end(r, p, &slots);
    if r.chance(30) {
        place_start_end(r, p, &slots);
    }
    if p.symmetry.is_some() {
        mirror_starts_and_ends(p, r.chance(70));
    }
}

/// A random polyomino of 1 to `most` squares (grown square by square),
/// rotatable two times in five.
fn random_piece(r: &mut Rng, most: u64) -> witness::model::Polyomino {
    let n = 1 + r.below(most) as usize;
    let mut cells = vec![(1u8, 1u8)];
    while cells.len() < n {
        let (x, y) = cells[r.below(cells.len() as u64) as usize];
        let c = match r.below(4) {
            0 => (x + 1, y),
            1 => (x, y + 1),
            2 => (x.saturating_sub(1), y),
            _ => (x, y.saturating_sub(1)),
        };
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    witness::model::Polyomino::new(cells, r.chance(40))
}

/// Takes the blue and yellow dots off `p` (they tell the lines apart).
fn clear_colored_dots(p: &mut Puzzle) {
    for q in p.positions().collect::<Vec<_>>() {
        let c = p.cell_mut(q);
        if matches!(c.dot, Dot::Blue | Dot::Yellow) {
            c.dot = Dot::None;
        }
    }
}

use super::*;

/// A 4x4 panel with two starts, three ends (one on a start, so that
/// a path may be that one node), marks, squares, stars, a triangle
/// and a dot.
const SMALL: &str = "witness 4x4\n\
    S - + - + - + - E>\n\
    | Y | #w | . | *r |\n\
    + - + - + - + - +\n\
    | . | #k | . | *r |\n\
    SE< - + - + - + - +\n\
    | *r | . | 2 | Y |\n\
    + - + - o - + - +\n\
    | . | #w | . | . |\n\
    + - + - + - + - E>\n";

/// The slots of the path `a` has drawn, as `lines` should hold them.
fn slots_of_drawn(a: &Anneal) -> Vec<Line> {
    let mut want = vec![Line::None; a.lines.len()];
    let Some((begin, finish)) = a.drawn_ends else {
        return want;
    };
    for s in [begin, finish] {
        want[s as usize] = Line::Black;
    }
    for &v in &a.drawn_path {
        want[a.plan.slot_of_node[v as usize] as usize] = Line::Black;
    }
    for w in a.drawn_path.windows(2) {
        want[a.step(w[0], w[1]).unwrap().edge as usize] = Line::Black;
    }
    want
}

/// Drawing a path over the one drawn before (only the slots between
/// the nodes they share at their start and at their end change) leaves
/// drawn exactly the slots of the new path: checked after each of a
/// few thousand moves that drew one, its ends moved now and then too.
#[test]
fn paths_drawn_over_the_last_leave_exactly_their_slots() {
    let puzzle = crate::formats::text::parse(SMALL).unwrap();
    let plan = Plan::new(&puzzle).unwrap();
    let mut a = Anneal::new(&plan, 5).unwrap();
    let mut checked = 0;
    for _ in 0..5_000 {
        a.run(1);
        if a.drawn_ends.is_none() {
            continue;
        }
        assert_eq!(a.lines, slots_of_drawn(&a), "after {} moves", a.moves);
        checked += 1;
    }
    assert!(checked > 4_000, "{checked}");
    assert!(a.drawn_over > 3_000, "{}", a.drawn_over);
}

/// A path that goes back along an edge it took, drawn over a legal
/// one, is turned down and leaves nothing drawn; the legal one drawn
/// after it is drawn whole, exactly.
#[test]
fn a_path_crossing_itself_drawn_over_another_leaves_nothing_drawn() {
    let puzzle = crate::formats::text::parse(SMALL).unwrap();
    let plan = Plan::new(&puzzle).unwrap();
    let mut a = Anneal::new(&plan, 5).unwrap();
    // A path of three nodes or more whose second node has a neighbour
    // off the path.
    let (path, off) = loop {
        a.run(1);
        let path = &a.cur.path;
        if !a.cur.started || path.len() < 3 {
            continue;
        }
        let off = a.steps[path[1] as usize]
            .iter()
            .find(|s| !path.contains(&s.node));
        if let Some(s) = off {
            break (path.clone(), s.node);
        }
    };
    assert!(a.draw(&path));
    assert_eq!(a.lines, slots_of_drawn(&a));
    // Out from the second node to that neighbour and back, then on as
    // before: the same first and last nodes, so it is drawn over the
    // path, and it fails on the edge back, after drawing two slots.
    let mut crossing = vec![path[0], path[1], off];
    crossing.extend_from_slice(&path[1..]);
    let over = a.drawn_over;
    assert!(!a.draw(&crossing));
    assert!(a.lines.iter().all(|&l| l == Line::None));
    assert_eq!((a.drawn_ends, a.drawn.len()), (None, 0));
    assert!(a.draw(&path));
    assert_eq!(a.lines, slots_of_drawn(&a));
    assert_eq!(a.drawn_over, over, "both drawn whole");
    assert!(a.drawn_ends.is_some());
}

/// A 2x2 panel with a lone elimination mark: every path fails it, and
/// only it.
const LONE_MARK: &str = "witness 2x2\nS - + - E>\n| Y | . |\n+ - + - +\n| . | . |\n+ - + - +\n";

/// On a panel no path solves (a lone mark has nothing to erase, so
/// every path fails it and only it), the replicas keep their
/// temperatures, coldest first, and since every path costs the same,
/// every exchange offered is made.
#[test]
fn replicas_keep_their_ladder() {
    let puzzle = crate::formats::text::parse(LONE_MARK).unwrap();
    let plan = Plan::new(&puzzle).unwrap();
    let mut a = Anneal::new(&plan, 7).unwrap();
    assert!(a.run(20 * SWEEP * REPLICAS as u64).is_none());
    // (The replica on its sweep back on its rung.)
    let at = a.at;
    std::mem::swap(&mut a.cur, &mut a.ladder[at]);
    let temps: Vec<f64> = a.ladder.iter().map(|r| r.temp).collect();
    assert_eq!(temps.len(), REPLICAS);
    assert!((temps[0] - COLDEST).abs() < 1e-9, "{temps:?}");
    assert!((temps[REPLICAS - 1] - HOTTEST).abs() < 1e-9, "{temps:?}");
    assert!(temps.windows(2).all(|w| w[0] < w[1]), "{temps:?}");
    assert!(
        a.ladder.iter().all(|r| r.cost == COST_UNIT),
        "every path fails the mark"
    );
    assert!(a.exchanges.0 >= 19 * (REPLICAS as u64 - 1));
    assert_eq!(a.exchanges.0, a.exchanges.1);
}

/// The exchange rule on two rungs set by hand (the others unstarted,
/// so never offered): a colder replica failing more always takes the
/// hotter one's path, with its failing slots, and keeps its own
/// temperature; one failing 2 fewer gives its path away with
/// probability exp(-2 (1/t0 - 1/t1)), about 2.5% for 0.2 and 0.317.
#[test]
fn exchanges_follow_the_replica_exchange_rule() {
    let puzzle = crate::formats::text::parse(LONE_MARK).unwrap();
    let plan = Plan::new(&puzzle).unwrap();
    let mut a = Anneal::new(&plan, 11).unwrap();
    let (t0, t1) = (a.ladder[0].temp, a.ladder[1].temp);
    let set = |a: &mut Anneal, costs: [usize; 2]| {
        for (k, cost) in costs.into_iter().enumerate() {
            let r = &mut a.ladder[k];
            r.started = true;
            r.cost = cost as u64 * COST_UNIT;
            r.path = vec![k as u32];
            r.fails = vec![k as u32; cost];
        }
    };
    set(&mut a, [3, 1]);
    a.exchange();
    assert_eq!((a.ladder[0].path[0], a.ladder[0].cost), (1, COST_UNIT));
    assert_eq!((a.ladder[1].path[0], a.ladder[1].cost), (0, 3 * COST_UNIT));
    assert_eq!(a.ladder[0].fails, vec![1]);
    assert_eq!((a.ladder[0].temp, a.ladder[1].temp), (t0, t1));
    let trials = 40_000;
    let mut swapped = 0;
    for _ in 0..trials {
        set(&mut a, [1, 3]);
        a.exchange();
        swapped += (a.ladder[0].path[0] == 1) as u32;
    }
    let p = (-2.0 * (1.0 / t0 - 1.0 / t1)).exp();
    let want = p * trials as f64;
    // Within about four standard deviations.
    assert!(
        (swapped as f64 - want).abs() < 4.0 * want.sqrt() + 1.0,
        "{swapped} swaps of {trials}, want about {want:.0}"
    );
}

/// A 4x4 panel with pieces (an L to turn, a bar, a one-square ylop), a
/// mark, squares and a triangle: the area gap comes and goes as the
/// path moves.
const PIECES: &str = "witness 4x4\n\
    S - + - + - + - E>\n\
    | A | . | #w | . |\n\
    + - + - + - + - +\n\
    | . | Y | . | B |\n\
    + - + - + - + - +\n\
    | C | #k | . | . |\n\
    + - + - + - + - +\n\
    | . | 2 | . | A |\n\
    S - + - + - + - E>\n\
    A = poly rot ##/#.\n\
    B = poly ###\n\
    C = ylop #\n";

/// After every move of a few thousand, the current path's cost is its
/// count of failing elements (in [`COST_UNIT`]s, its list the validator's)
/// plus the weighted area
/// gap, and it is zero exactly when the validator accepts the path;
/// some paths cost a gap, and some solve.
#[test]
fn the_cost_is_zero_exactly_on_valid_paths() {
    for text in [PIECES, SMALL] {
        let puzzle = crate::formats::text::parse(text).unwrap();
        let plan = Plan::new(&puzzle).unwrap();
        let mut a = Anneal::new(&plan, 3).unwrap();
        let (mut checked, mut gapped, mut valid) = (0, 0, 0);
        let mut ws = Workspace::default();
        let mut fails = Vec::new();
        for _ in 0..6_000 {
            a.run(1);
            if !a.cur.started {
                continue;
            }
            let path = a.cur.path.clone();
            let cost = a.cost_of(&path).expect("a legal path");
            assert_eq!(cost, a.cur.cost, "after {} moves", a.moves);
            let (b, f) = (a.cur.begin.slot as usize, a.cur.finish.slot as usize);
            plan.rules.failures(&a.lines, b, f, &mut ws, &mut fails);
            let gap = u64::from(a.memo.gap);
            assert_eq!(cost, fails.len() as u64 * COST_UNIT + gap * GAP_COST);
            // The replica's own list, which its focused moves pick from,
            // is the validator's.
            let (mut mine, mut want) = (a.cur.fails.clone(), fails.clone());
            mine.sort_unstable();
            want.sort_unstable();
            assert_eq!(mine, want, "after {} moves", a.moves);
            assert_eq!(cost == 0, plan.rules.is_valid(&a.lines, b, f, &mut ws));
            checked += 1;
            gapped += (gap > 0) as u32;
            valid += (cost == 0) as u32;
        }
        assert!(checked > 5_000, "{checked}");
        assert!(valid > 0, "{valid} valid");
        if text == PIECES {
            assert!(gapped > 100, "{gapped} with a gap");
        }
    }
}

/// Judging stops once a path costs more than the Metropolis rule's
/// draw allows, and that changes nothing: beside a twin that judges
/// every path whole, from the same seed, every move keeps or turns
/// down the same path, with the same cost and the same failing slots
/// in the same order, to the same solutions; and many paths were cut
/// short.
#[test]
fn paths_turned_down_early_are_those_judged_whole_turns_down() {
    for (text, seed) in [(PIECES, 5), (SMALL, 7), (PIECES, 11)] {
        let puzzle = crate::formats::text::parse(text).unwrap();
        let plan = Plan::new(&puzzle).unwrap();
        let mut a = Anneal::new(&plan, seed).unwrap();
        let mut whole = Anneal::new(&plan, seed).unwrap();
        whole.judge_whole = true;
        let mut solutions = 0;
        for _ in 0..8_000 {
            let (x, y) = (a.run(1), whole.run(1));
            assert_eq!(x, y, "after {} moves", a.moves);
            solutions += usize::from(x.is_some());
            assert_eq!(a.cur.path, whole.cur.path, "after {} moves", a.moves);
            assert_eq!(a.cur.cost, whole.cur.cost);
            assert_eq!(a.cur.fails, whole.cur.fails);
            assert_eq!(a.rng, whole.rng);
        }
        assert_eq!(whole.cut_short, 0);
        assert!(a.cut_short > 200, "{} cut short", a.cut_short);
        assert!(solutions > 0, "no solution in {} moves", a.moves);
    }
}

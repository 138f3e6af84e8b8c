use super::*;
use crate::model::{Pos, Puzzle};

/// Without the reversal (refused here: a fat start mid-edge), a round
/// is the plan's three lanes: it ends, out of budget, after one turn
/// each, and the next round begins with the engine's order.
#[test]
fn a_round_ends_when_the_reversal_is_refused() {
    let mut p = Puzzle::new(3, 3, false).unwrap();
    p.settings.fat_startpoints = true;
    p.cell_mut(Pos::new(1, 0)).start = true;
    p.cell_mut(Pos::new(6, 6)).end = Some(Direction::Down);
    let plan = Plan::new(&p).unwrap();
    assert!(reverse::reversed(&plan).is_none());
    let masks = Masks::<1>::new(&plan);
    let limits = Limits::none();
    let mut s = Search::new(&plan, &masks, &limits);
    let tiny = Schedule {
        first: 1,
        growth: 2,
        most: 64,
        cases_after: 0,
        late_lanes: 0,
        anneal_after: u64::MAX,
        anneal_alone_after: u64::MAX,
        sat_after: super::SAT_AFTER,
        cubes_alone_after: super::CUBES_ALONE_AFTER,
    };
    let mut turns = Turns::new(&tiny, None);
    assert!(turns.step(&mut s, None, &Turns::ALL).is_none());
    assert!(turns.finish_round(&mut s, None, &Turns::ALL).is_none());
    assert_eq!(turns.next, 0);
    // The next round goes on to a solution.
    assert!(turns.run(&mut s, None, &Turns::ALL).is_some());
}

/// The late lanes (the reversal's other two orders) take no turn until
/// the lanes have visited `late_lanes` nodes, and then take theirs in
/// every round. With a dot on every node of a 4x4 panel, a line from
/// corner to corner covers all 25, so with turns of a node or two no
/// lane finds one before the late lanes join.
#[test]
fn late_lanes_join_once_the_others_have_searched_enough() {
    let mut p = Puzzle::new(4, 4, false).unwrap();
    p.cell_mut(Pos::new(0, 8)).start = true;
    p.cell_mut(Pos::new(8, 0)).end = Some(Direction::Up);
    for y in (0..=8).step_by(2) {
        for x in (0..=8).step_by(2) {
            p.cell_mut(Pos::new(x, y)).dot = crate::model::Dot::Black;
        }
    }
    let plan = Plan::new(&p).unwrap();
    let masks = Masks::<1>::new(&plan);
    let back = Back::<1>::new(&plan).expect("a reversal");
    let limits = Limits::none();
    let (mut fwd, mut bs) = (Search::new(&plan, &masks, &limits), back.search(&limits));
    let tiny = Schedule {
        first: 1,
        growth: 1,
        most: 1,
        cases_after: 0,
        late_lanes: 40,
        anneal_after: u64::MAX,
        anneal_alone_after: u64::MAX,
        sat_after: super::SAT_AFTER,
        cubes_alone_after: super::CUBES_ALONE_AFTER,
    };
    let mut turns = Turns::new(&tiny, None);
    let (mut late_turns, mut turn) = (0, 0);
    let answer = loop {
        let total = fwd.visited + bs.visited;
        let k = Turns::ALL[turns.next];
        if let Some(answer) = turns.step(&mut fwd, Some(&mut bs), &Turns::ALL) {
            break answer;
        }
        if LANES[k].late {
            // A turn of its own leaves a resume point.
            assert_eq!(turns.resume[k].is_some(), total >= 40, "turn {turn}");
            late_turns += (total >= 40) as u32;
        }
        turn += 1;
    };
    assert!(answer.is_some());
    assert!(late_turns >= 4, "{late_turns} turns of the late lanes");
}

//! Panels a development version of the solver wrongly called unsolvable
//! (game panels 54, 56 and 178 of `witness-game.windmill.txt`): a flood that
//! stopped early left marks that made a later flood think an open region
//! was sealed. Each has a solution; the solver must find one that validates.

use witness::formats;
use witness::{Limits, Rules};

#[test]
fn game_panels_once_missed_are_solved() {
    let text = include_str!("../data/solver-regressions.windmill.txt");
    for (k, line) in text.lines().enumerate() {
        let puzzle = formats::read_puzzle(line, None).unwrap();
        let s = witness::solve(
            &puzzle,
            &witness::SolveOptions::default().with_limits(Limits::none()),
        )
        .unwrap();
        let path = s
            .path
            .unwrap_or_else(|| panic!("panel {k}: no solution found"));
        let v = Rules::new(&puzzle)
            .unwrap()
            .check_path(&puzzle, &path)
            .unwrap();
        assert!(v.valid, "panel {k}: {} fails validation", path.to_moves());
    }
}

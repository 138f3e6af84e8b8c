//! Searching from the ends: the puzzle with its starts and ends swapped,
//! whose solutions are the original's, reversed.
//!
//! Why the swap is exact (`docs/rules.md#paths`, `#regions`): the legality
//! rules hold for every slot of a path alike, its first and last included, and
//! what validation reads of a path is the set of slots it covers, each with its
//! line's colour (the mirror line's slots being the mirrors of the main line's,
//! whichever way either is drawn), plus its start and end slots. Those two
//! matter only when they lie mid-edge, where the region split makes both a
//! pass-through slot that is not counted, unless starts are "fat". The one rule
//! that tells a start from an end is play mode's: a start may be its own
//! mirror, an end may not. So when starts are not fat or no start or end lies
//! mid-edge, and no start or end is its own mirror, reversing a path maps the
//! solutions of one puzzle one to one onto those of the other. Undirected
//! puzzles (a path and its reverse are one solution, and the search reports the
//! one that starts at the lower slot) are left as they are: the search's choice
//! depends on the direction, and in the mazes marked so (Alcazar's, whose doors
//! are starts and ends alike) the swap would change nothing.
//!
//! Which side is easier varies: on the dev corpus's slowest puzzles, one
//! direction needs up to a thousand times the nodes of the other, either
//! way round. [`portfolio`](super::portfolio) therefore searches both.

use super::answer::Answer;
use super::plan::Plan;
use crate::model::SlotKind;

/// The plan with starts and ends swapped, if its solutions are exactly the
/// reverses of this plan's and the plan is not undirected (see the module
/// page); the tunables
/// (`narrow_min_nodes`, `memo_after`, `packing`, `room`) are kept.
pub fn reversed(plan: &Plan) -> Option<Plan> {
    if plan.undirected {
        return None;
    }
    let b = &plan.rules.board;
    for i in 0..b.len() {
        if !(b.start[i] || b.end[i]) {
            continue;
        }
        let fat_edge = b.kind[i] == SlotKind::Edge && b.fat_startpoints;
        let own_mirror = b.symmetry.is_some() && b.mirror[i] as usize == i;
        if fat_edge || own_mirror {
            return None;
        }
    }
    let mut rules = plan.rules.clone();
    std::mem::swap(&mut rules.board.start, &mut rules.board.end);
    let mut back = Plan::from_rules(rules, plan.undirected);
    back.narrow_min_nodes = plan.narrow_min_nodes;
    back.memo_after = plan.memo_after;
    back.packing = plan.packing;
    back.room = plan.room;
    Some(back)
}

/// The answer of the reversed plan as an answer of the plan: the path
/// drawn the other way, from the end it reached to the start it left.
pub fn answer((start, end, moves): Answer) -> Answer {
    (
        end,
        start,
        moves.iter().rev().map(|d| d.opposite()).collect(),
    )
}

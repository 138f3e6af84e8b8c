//! The Windmill's rules beside the site's (`docs/rules.md#rule-profiles`):
//! one hand-made panel per difference, judged under both profiles, each
//! verdict reasoned out from the rules; and the solver under the Windmill's
//! rules on the same panels.
//!
//! Slot coordinates `(x, y)`: x grows right, y grows down; faces have both
//! odd, nodes both even. Paths are move strings, one letter per slot step.

use witness::model::{
    Color, Dot, Polyomino, Pos, Puzzle, RuleSet, Symbol, SymbolKind, ROTATION_BIT,
};
use witness::{CountOptions, Path, SolveOptions, Status};

/// A panel `w x h` faces with a start, an end and the given symbols.
fn panel(
    w: usize,
    h: usize,
    start: (usize, usize),
    end: (usize, usize),
    syms: &[((usize, usize), Symbol)],
) -> Puzzle {
    let mut p = Puzzle::new(w, h, false).unwrap();
    p.cell_mut(Pos::new(start.0, start.1)).start = true;
    p.cell_mut(Pos::new(end.0, end.1)).end = Some(witness::model::Direction::Right);
    for ((x, y), s) in syms {
        p.cell_mut(Pos::new(*x, *y)).symbol = Some(s.clone());
    }
    p
}

/// The verdict under each profile: (site, Windmill).
fn verdicts(p: &Puzzle, path: &str) -> (bool, bool) {
    let path = Path::parse(path).unwrap();
    let mut q = p.clone();
    q.rules = RuleSet::WitnessPuzzles;
    let site = witness::check(&q, &path).unwrap().valid;
    q.rules = RuleSet::Windmill;
    let windmill = witness::check(&q, &path).unwrap().valid;
    (site, windmill)
}

fn poly(mask: u32) -> Symbol {
    Symbol::new(SymbolKind::Poly(Polyomino::from_mask(mask)), Color::Yellow)
}
fn ylop(mask: u32) -> Symbol {
    Symbol::new(SymbolKind::Ylop(Polyomino::from_mask(mask)), Color::Blue)
}
fn nega() -> Symbol {
    Symbol::new(SymbolKind::Nega, Color::White)
}
fn star(c: Color) -> Symbol {
    Symbol::new(SymbolKind::Star, c)
}

/// Bits `4x + y` of a polyshape.
const DOMINO_H: u32 = 0b1_0001; // (0,0), (1,0)
const DOMINO_V: u32 = 0b11; // (0,0), (0,1)
const SQUARE_2X2: u32 = 0b11_0011; // (0,0), (0,1), (1,0), (1,1)

/// The 2x1 row panel walked along its bottom border, start (0,2), end
/// (4,2): the line separates nothing, so both faces are one region.
fn row(left: Option<Symbol>, right: Option<Symbol>) -> Puzzle {
    let mut syms = Vec::new();
    if let Some(s) = left {
        syms.push(((1, 1), s));
    }
    if let Some(s) = right {
        syms.push(((3, 1), s));
    }
    panel(2, 1, (0, 2), (4, 2), &syms)
}
const ALONG: &str = "0,2:R4";

/// The 3x2 panel with start (0,4) and end (6,4) whose top border edge
/// (3,0) is removed, cutting the top middle face (3,1) off the site's
/// panel; a black square at `black`, a white one at `white`.
fn notched(black: (usize, usize), white: (usize, usize)) -> Puzzle {
    let square = |c| Symbol::new(SymbolKind::Square, c);
    let mut p = panel(
        3,
        2,
        (0, 4),
        (6, 4),
        &[(black, square(Color::Black)), (white, square(Color::White))],
    );
    p.cell_mut(Pos::new(3, 0)).gap = witness::model::Gap::Full;
    p
}

#[test]
fn regions_cross_removed_lines() {
    // Squares at (1,1) and (5,1). The line from (0,4) up to (0,2), right
    // along y = 2 to (6,2) and down to the end (6,4) parts the top row
    // from the bottom one. On the site the top middle face is outside, so
    // the two squares are in separate regions: valid. In the Windmill only
    // the line parts faces: the top row is one region with both colours:
    // invalid.
    let p = notched((1, 1), (5, 1));
    assert_eq!(verdicts(&p, "0,4:U2R6D2"), (true, false));
    // A symbol on the cut-off face counts in the Windmill only: a white
    // square there fails beside the black one at (1,3) when the line runs
    // along the bottom border (one region, the whole panel).
    let q = notched((1, 3), (3, 1));
    assert_eq!(verdicts(&q, "0,4:R6"), (true, false));
    // The solver follows: of the site's solutions of the first panel, those
    // that leave the top row whole in one region fail in the Windmill, and
    // every Windmill solution is a site solution (a region the Windmill
    // accepts holds one colour, and the site's regions are parts of it).
    let count = |rules| {
        let mut r = p.clone();
        r.rules = rules;
        let n = witness::count(&r, &CountOptions::default()).unwrap().count;
        // The SAT engine (squares only: it takes the panel under both
        // rules) counts the same.
        let sat = CountOptions {
            engine: witness::Engine::Sat,
            ..CountOptions::default()
        };
        assert_eq!(witness::count(&r, &sat).unwrap().count, n, "{rules:?}");
        n
    };
    let (site, windmill) = (count(RuleSet::WitnessPuzzles), count(RuleSet::Windmill));
    assert!(
        windmill < site,
        "{windmill} Windmill, {site} site solutions"
    );
    assert!(windmill > 0);
}

#[test]
fn pieces_of_equal_area_cancel_whatever_their_shapes() {
    // A horizontal domino and a vertical subtractive domino, neither
    // rotatable: net area 0. The site cancels them only shape for shape:
    // the domino must lie exactly on the subtractive one, and an H never
    // covers a V. The Windmill counts squares only: 2 = 2, accepted.
    let p = row(Some(poly(DOMINO_H)), Some(ylop(DOMINO_V)));
    assert_eq!(verdicts(&p, ALONG), (false, true));
    // With the same shape both accept.
    let p = row(Some(poly(DOMINO_H)), Some(ylop(DOMINO_H)));
    assert_eq!(verdicts(&p, ALONG), (true, true));
    // Unequal areas: neither (net 1 is not the region's 2 faces).
    let p = row(Some(poly(DOMINO_H)), Some(ylop(1)));
    assert_eq!(verdicts(&p, ALONG), (false, false));
    // A rotatable piece of no squares alone: the site can never place it;
    // the Windmill sees 0 = 0 and accepts.
    let p = row(Some(poly(ROTATION_BIT)), None);
    assert_eq!(verdicts(&p, ALONG), (false, true));
}

#[test]
fn pieces_cover_faces_only() {
    // 2x2 panel; the line runs from the left border node (0,2) into the
    // centre node (2,2), an end: it covers the edge between faces (1,1)
    // and (1,3) but separates nothing, so the four faces are one region.
    // A 2x2 piece fills them. The site's precise footprint also covers
    // the inner edges, among them the covered edge (1,2): no fit. The
    // Windmill tiles the region's faces only: it fits.
    let p = panel(2, 2, (0, 2), (2, 2), &[((1, 1), poly(SQUARE_2X2))]);
    assert_eq!(verdicts(&p, "0,2:R2"), (false, true));
}

#[test]
fn a_mark_counts_as_a_white_symbol_for_stars() {
    // Row panel: a white star, a white mark, and a dot on the top edge
    // (2,0), which the line misses. The site: the mark erases the dot (a
    // hard failure, paired first), then the star is alone in its colour
    // and fails. The Windmill: white counts two (the star and the mark),
    // so the star is content; the dot takes the one mark; nothing is left
    // over: valid.
    let mut p = row(Some(star(Color::White)), Some(nega()));
    p.cell_mut(Pos::new(2, 0)).dot = Dot::Black;
    assert_eq!(verdicts(&p, ALONG), (false, true));
    // A black star instead: white is the mark alone, the star alone in
    // black; the Windmill's star needs its one mark, the dot another, but
    // there is only one: invalid under both.
    let mut p = row(Some(star(Color::Black)), Some(nega()));
    p.cell_mut(Pos::new(2, 0)).dot = Dot::Black;
    assert_eq!(verdicts(&p, ALONG), (false, false));
}

#[test]
fn marks_never_cancel_each_other() {
    // Two marks alone in one region. The site (NEGATIONS_CANCEL_NEGATIONS,
    // its default) lets them cancel in pairs: valid. The Windmill has two
    // marks to use and nothing to use them on: invalid.
    let p = row(Some(nega()), Some(nega()));
    assert_eq!(verdicts(&p, ALONG), (true, false));
}

#[test]
fn every_mark_must_be_used() {
    // One mark alone: both fail it (nothing to erase).
    let p = row(Some(nega()), None);
    assert_eq!(verdicts(&p, ALONG), (false, false));
    // One mark and one missed dot: both pass (the mark erases the dot).
    let mut p = row(Some(nega()), None);
    p.cell_mut(Pos::new(2, 0)).dot = Dot::Black;
    assert_eq!(verdicts(&p, ALONG), (true, true));
    // Two marks and one missed dot: the Windmill has a mark left over
    // (invalid); the site erases the dot with one and has one left, which
    // cannot cancel alone (invalid).
    let p2 = row(Some(nega()), Some(nega()));
    let mut p2 = p2;
    p2.cell_mut(Pos::new(2, 0)).dot = Dot::Black;
    assert_eq!(verdicts(&p2, ALONG), (false, false));
}

#[test]
fn codes_default_to_the_windmill_and_the_solver_follows_the_profile() {
    // Windmill codes are read with the Windmill's rules, JSON with the
    // site's.
    if let Some(codes) = crate::common::corpus_lines("witness-game.windmill.txt") {
        let w = witness::formats::windmill::parse(codes[0].trim()).unwrap();
        assert_eq!(w.rules, RuleSet::Windmill);
    }
    assert_eq!(
        Puzzle::new(1, 1, false).unwrap().rules,
        RuleSet::WitnessPuzzles
    );
    // The two-marks row panel: a 2x1 panel has four paths from (0,2) to
    // (4,2): along the bottom (R4), over the top (U2 R4 D2), and two that
    // go up through the middle node (R2 U2 R2 D2, U2 R2 D2 R2). The first
    // two leave both faces, so both marks, in one region; the other two
    // split them, a mark alone on each side. The site accepts the first
    // two (the marks cancel), the Windmill none.
    let mut p = row(Some(nega()), Some(nega()));
    let mut n = 0;
    witness::internals::brute::enumerate(&p, &witness::Limits::none(), |_| {
        n += 1;
        true
    })
    .unwrap();
    assert_eq!(n, 2, "the site: two paths keep the marks together");
    let count = |p: &Puzzle| witness::count(p, &CountOptions::default()).unwrap();
    let c = count(&p);
    assert_eq!(
        (c.count.to_string(), c.status),
        ("2".into(), Status::Complete)
    );
    p.rules = RuleSet::Windmill;
    let c = count(&p);
    assert_eq!(
        (c.count.to_string(), c.status),
        ("0".into(), Status::Complete)
    );
    let s = witness::solve(&p, &SolveOptions::default()).unwrap();
    assert!(s.path.is_none() && s.status == Status::Complete);
    // The SAT engine does not encode the Windmill's marks: it says so.
    let sat = witness::solve(
        &p,
        &SolveOptions::default().with_engine(witness::Engine::Sat),
    );
    assert!(matches!(sat, Err(witness::Error::Unsupported(_))));
}

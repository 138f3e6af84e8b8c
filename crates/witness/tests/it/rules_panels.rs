//! Small hand-made panels, one test per rule and per tricky case of the
//! rules (`docs/rules.md`, cited below by section), each with its expected
//! answer reasoned out from the rules.
//!
//! Conventions used throughout:
//! - Slot coordinates `(x, y)`: x grows right, y grows down; faces have both
//!   odd, nodes both even (`docs/rules.md#the-puzzle-json`). A panel `w x h` faces has
//!   `(2w+1) x (2h+1)` slots (a pillar `2w` columns).
//! - Paths are move strings `X,Y:` + letters, each letter ONE slot step
//!   (half a segment): `0,2:R4` walks from node (0,2) to node (4,2).
//! - "Row panels" (`w x 1`) whose path runs along the whole bottom border
//!   (`0,2:R{2w}`) leave everything above the line as one region, and its
//!   flood fill (`docs/rules.md#regions`: down, up, right, left from slot (0,0)) reaches the
//!   faces strictly left to right: each face is entered from the node/edge
//!   column on its left before anything to its right. So "region order" in
//!   such panels is left to right.

use std::collections::BTreeSet;

use witness::formats::wpjson;
use witness::internals::Line;
use witness::model::{
    Color, Direction, Dot, Gap, Polyomino, Pos, Puzzle, Settings, Symbol, SymbolKind, Symmetry,
    ROTATION_BIT,
};
use witness::{Path, Reason, Rules, Verdict};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// What to put on a slot.
enum El {
    Start,
    End,
    StartEnd,
    DotAt(Dot),
    GapAt(Gap),
    Sym(Symbol),
}

const B: Color = Color::Black;
const W: Color = Color::White;
const R: Color = Color::Red;

fn sym(kind: SymbolKind, color: Color) -> El {
    El::Sym(Symbol::new(kind, color))
}
fn sq(c: Color) -> El {
    sym(SymbolKind::Square, c)
}
fn star(c: Color) -> El {
    sym(SymbolKind::Star, c)
}
fn nega(c: Color) -> El {
    sym(SymbolKind::Nega, c)
}
fn tri(n: u32) -> El {
    sym(SymbolKind::Triangle(n), Color::Orange)
}
fn tri_c(n: u32, c: Color) -> El {
    sym(SymbolKind::Triangle(n), c)
}
/// A polyomino from the site's `polyshape` number
/// (`docs/rules.md#the-puzzle-json`).
fn poly(mask: u32) -> El {
    sym(SymbolKind::Poly(Polyomino::from_mask(mask)), Color::Yellow)
}
fn ylop(mask: u32) -> El {
    sym(SymbolKind::Ylop(Polyomino::from_mask(mask)), Color::Blue)
}

/// Polyshape numbers (`docs/rules.md#the-puzzle-json`: bit `x*4+y` is square
/// (x, y)).
const MONO: u32 = 1; // (0,0)
const DOMINO_H: u32 = 1 | 16; // (0,0),(1,0)
const DOMINO_V: u32 = 1 | 2; // (0,0),(0,1)
const I3_H: u32 = 1 | 16 | 256; // (0,0),(1,0),(2,0)
const O4: u32 = 1 | 2 | 16 | 32; // (0,0),(0,1),(1,0),(1,1)

/// A panel `w x h` faces (a pillar when `pillar`), with elements at slots.
fn build(w: usize, h: usize, pillar: bool, els: Vec<(usize, usize, El)>) -> Puzzle {
    let mut p = Puzzle::new(w, h, pillar).expect("panel size");
    for (x, y, e) in els {
        let pos = Pos::new(x, y);
        assert!(p.contains(pos), "({x}, {y}) is off the panel");
        match e {
            El::Start => p.cell_mut(pos).start = true,
            El::End => p.cell_mut(pos).end = Some(Direction::Up),
            El::StartEnd => {
                p.cell_mut(pos).start = true;
                p.cell_mut(pos).end = Some(Direction::Up);
            }
            El::DotAt(d) => p.cell_mut(pos).dot = d,
            El::GapAt(g) => p.cell_mut(pos).gap = g,
            El::Sym(s) => p.set_symbol(pos, Some(s)).expect("symbols go on faces"),
        }
    }
    p
}

fn panel(w: usize, h: usize, els: Vec<(usize, usize, El)>) -> Puzzle {
    build(w, h, false, els)
}

/// A `w x 1` row panel, start (0,2) bottom-left, end (2w,2) bottom-right,
/// with the given symbols on faces (1,1), (3,1), ... left to right.
fn row(symbols: Vec<Option<El>>) -> Puzzle {
    let w = symbols.len();
    let mut els = vec![(0, 2, El::Start), (2 * w, 2, El::End)];
    for (i, s) in symbols.into_iter().enumerate() {
        if let Some(s) = s {
            els.push((2 * i + 1, 1, s));
        }
    }
    panel(w, 1, els)
}

/// The path of a row panel along its whole bottom border.
fn bottom(p: &Puzzle) -> String {
    format!("0,2:R{}", p.width() - 1)
}

fn check(p: &Puzzle, path: &str) -> Verdict {
    let parsed = Path::parse(path).unwrap_or_else(|e| panic!("path {path}: {e}"));
    witness::check(p, &parsed).unwrap_or_else(|e| panic!("path {path} is illegal: {e}"))
}

fn failing(v: &Verdict) -> BTreeSet<(usize, usize)> {
    v.invalid.iter().map(|f| (f.pos.x, f.pos.y)).collect()
}

fn reason_at(v: &Verdict, x: usize, y: usize) -> Reason {
    v.invalid
        .iter()
        .find(|f| f.pos == Pos::new(x, y))
        .unwrap_or_else(|| panic!("({x}, {y}) is not reported in {v:?}"))
        .reason
}

#[track_caller]
fn assert_valid(p: &Puzzle, path: &str) -> Verdict {
    let v = check(p, path);
    assert!(
        v.valid && v.invalid.is_empty(),
        "{path}: expected valid, got {v:?}"
    );
    v
}

#[track_caller]
fn assert_invalid(p: &Puzzle, path: &str, want: &[(usize, usize)]) -> Verdict {
    let v = check(p, path);
    assert!(!v.valid, "{path}: expected invalid, got {v:?}");
    let want: BTreeSet<(usize, usize)> = want.iter().copied().collect();
    assert_eq!(
        failing(&v),
        want,
        "{path}: failing positions; verdict {v:?}"
    );
    v
}

#[track_caller]
fn assert_illegal(p: &Puzzle, path: &str, words: &[&str]) {
    let parsed = Path::parse(path).unwrap();
    let e = witness::check(p, &parsed).expect_err(path).to_string();
    for w in words {
        assert!(e.contains(w), "{path}: error {e:?} lacks {w:?}");
    }
}

fn pair(m: (usize, usize), e: (usize, usize)) -> (Pos, Pos) {
    (Pos::new(m.0, m.1), Pos::new(e.0, e.1))
}

// ---------------------------------------------------------------------------
// Dots (`docs/rules.md#the-puzzle-json` `dot`, `#symbols`)
// ---------------------------------------------------------------------------

/// 2x2 panel, start (0,4), end (4,0); black dots on the centre node (2,2)
/// and on the top edge (3,0).
fn dots_panel(centre: Dot) -> Puzzle {
    panel(
        2,
        2,
        vec![
            (0, 4, El::Start),
            (4, 0, El::End),
            (2, 2, El::DotAt(centre)),
            (3, 0, El::DotAt(Dot::Black)),
        ],
    )
}

#[test]
fn black_dot_must_be_covered() {
    // `docs/rules.md#symbols`: any dot left inside a region is very-invalid (an
    // uncovered dot); no elimination marks here, so it is reported at its own
    // slot.
    let p = dots_panel(Dot::Black);
    // Up the left border, along the top: covers (3,0) but not the centre.
    let v = assert_invalid(&p, "0,4:U4R4", &[(2, 2)]);
    assert_eq!(reason_at(&v, 2, 2), Reason::UncoveredDot);
    // Through the centre, then up the right border: misses the top edge (3,0).
    assert_invalid(&p, "0,4:R2U2R2U2", &[(3, 0)]);
    // Up the middle column and right along the top: covers both.
    assert_valid(&p, "0,4:R2U4R2");
}

#[test]
fn invisible_dot_behaves_like_a_black_dot() {
    // `docs/rules.md#the-puzzle-json`: dot 4 is drawn invisibly but "behaves
    // exactly like 1".
    let p = dots_panel(Dot::Invisible);
    assert_invalid(&p, "0,4:U4R4", &[(2, 2)]);
    assert_valid(&p, "0,4:R2U4R2");
    // And the JSON value 4 reads as the invisible dot.
    let j = r#"{"grid":[[{"type":"line"},{"type":"line","dot":4},{"type":"line","start":true}],
        [{"type":"line"},null,{"type":"line"}],
        [{"type":"line","end":"top"},{"type":"line"},{"type":"line"}]]}"#;
    let q = wpjson::parse(j).unwrap();
    assert_eq!(q.cell(Pos::new(0, 1)).dot, Dot::Invisible);
    assert_invalid(&q, "0,2:R2U2", &[(0, 1)]);
    assert_valid(&q, "0,2:U2R2");
}

/// 4x2 panel with left-right symmetry (W=9, centre column x=4): starts at
/// (0,4)/(8,4), ends at (0,0)/(8,0); a blue dot at (2,2) and a yellow one at
/// its mirror (6,2); a black dot at (6,1) and an invisible one at (2,3).
fn coloured_dots_panel(symmetry: Option<Symmetry>) -> Puzzle {
    let mut p = panel(
        4,
        2,
        vec![
            (0, 4, El::Start),
            (8, 4, El::Start),
            (0, 0, El::End),
            (8, 0, El::End),
            (2, 2, El::DotAt(Dot::Blue)),
            (6, 2, El::DotAt(Dot::Yellow)),
            (6, 1, El::DotAt(Dot::Black)),
            (2, 3, El::DotAt(Dot::Invisible)),
        ],
    );
    p.symmetry = symmetry;
    p
}

const LEFT_RIGHT: Option<Symmetry> = Some(Symmetry { x: true, y: false });

#[test]
fn blue_and_yellow_dots_with_symmetry() {
    let p = coloured_dots_panel(LEFT_RIGHT);
    // From (0,4) the drawn (blue, line 2) line runs up column x=2 and its
    // mirror (yellow, line 3) up column x=6 (`docs/rules.md#paths`). Blue dot
    // on blue, yellow on yellow; the black dot (6,1) on yellow and the
    // invisible one (2,3) on blue are fine, as black and invisible dots accept
    // either line.
    assert_valid(&p, "0,4:R2U4L2");
    // Starting from the other side swaps the colours: the blue line now runs up
    // x=6 over the yellow dot, the yellow line over the blue dot. Both are
    // global "wrong colour" errors (`docs/rules.md#regions`); the black and
    // invisible dots are still fine.
    let v = assert_invalid(&p, "8,4:L2U4R2", &[(2, 2), (6, 2)]);
    assert_eq!(reason_at(&v, 2, 2), Reason::WrongColorDot);
    assert_eq!(reason_at(&v, 6, 2), Reason::WrongColorDot);
    // Up the outer borders: all four dots stay inside the one middle region:
    // uncovered dots of any colour are very-invalid.
    let v = assert_invalid(&p, "0,4:U4", &[(2, 2), (6, 2), (6, 1), (2, 3)]);
    assert!(v.invalid.iter().all(|f| f.reason == Reason::UncoveredDot));
}

#[test]
fn blue_and_yellow_dots_without_symmetry_act_black() {
    // `docs/rules.md#the-puzzle-json`: without symmetry the line is line 1, the
    // colour test never fires, so blue and yellow dots are ordinary dots.
    let p = coloured_dots_panel(None);
    // The single line covers the blue (2,2) and invisible (2,3) dots only;
    // the yellow (6,2) and black (6,1) dots are left uncovered.
    let v = assert_invalid(&p, "0,4:R2U4L2", &[(6, 2), (6, 1)]);
    assert_eq!(reason_at(&v, 6, 2), Reason::UncoveredDot);
    // Covering a yellow dot with the (single, black) line is fine: along the
    // middle row (0,2)..(8,2) covers both coloured dots, and the line then
    // goes up over (8,1),(8,0). The black (6,1) and invisible (2,3) dots
    // stay uncovered and are the only failures.
    assert_invalid(&p, "0,4:U2R8U2", &[(6, 1), (2, 3)]);
}

// ---------------------------------------------------------------------------
// Squares (`docs/rules.md#symbols` step 2)
// ---------------------------------------------------------------------------

#[test]
fn squares_of_two_colours_must_be_separated() {
    // 2x2 panel: black square (1,1), white squares (3,1) and (3,3); start at
    // the bottom middle (2,4), ends at the top middle (2,0) and top right (4,0).
    let p = panel(
        2,
        2,
        vec![
            (2, 4, El::Start),
            (2, 0, El::End),
            (4, 0, El::End),
            (1, 1, sq(B)),
            (3, 1, sq(W)),
            (3, 3, sq(W)),
        ],
    );
    // Straight up the middle: left column (black) and right column (white)
    // are separate regions, each of one colour.
    assert_valid(&p, "2,4:U4");
    // Along the bottom-right border: one region with both colours, so ALL
    // its squares are soft-invalid (`docs/rules.md#symbols` step 2).
    let v = assert_invalid(&p, "2,4:R2U4", &[(1, 1), (3, 1), (3, 3)]);
    assert!(v.invalid.iter().all(|f| f.reason == Reason::Square));
    // Up to the centre, right, up: cuts off the bottom-right face (3,3) on
    // its own (a white region, fine); the rest still mixes black (1,1) and
    // white (3,1), and only those two are reported.
    assert_invalid(&p, "2,4:U2R2U2", &[(1, 1), (3, 1)]);
}

// ---------------------------------------------------------------------------
// Stars (`docs/rules.md#symbols` step 3, `#symbols`)
// ---------------------------------------------------------------------------

#[test]
fn star_needs_exactly_one_partner_of_its_colour() {
    // Row panels, path along the bottom: all faces in one region.
    // Alone: colour count 1 -> very-invalid.
    let p = row(vec![Some(star(W)), None, None]);
    let v = assert_invalid(&p, &bottom(&p), &[(1, 1)]);
    assert_eq!(reason_at(&v, 1, 1), Reason::StarAlone);
    // Two white stars: each counts 2 -> fine.
    let p = row(vec![Some(star(W)), Some(star(W)), None]);
    assert_valid(&p, &bottom(&p));
    // Three white stars: each counts 3 -> all soft-invalid (crowded).
    let p = row(vec![Some(star(W)), Some(star(W)), Some(star(W))]);
    let v = assert_invalid(&p, &bottom(&p), &[(1, 1), (3, 1), (5, 1)]);
    assert_eq!(reason_at(&v, 3, 1), Reason::StarCrowded);
    // A partner of another kind counts (`docs/rules.md#symbols`): white star +
    // white square.
    let p = row(vec![Some(star(W)), Some(sq(W)), None]);
    assert_valid(&p, &bottom(&p));
    // Colours must match exactly: white star + black square -> star alone.
    let p = row(vec![Some(star(W)), Some(sq(B)), None]);
    assert_invalid(&p, &bottom(&p), &[(1, 1)]);
    // Two stars of different colours: both alone.
    let p = row(vec![Some(star(W)), Some(star(B)), None]);
    assert_invalid(&p, &bottom(&p), &[(1, 1), (3, 1)]);
    // White star + two white squares: the star is crowded (3); the squares,
    // all one colour, are fine.
    let p = row(vec![Some(star(W)), Some(sq(W)), Some(sq(W))]);
    let v = assert_invalid(&p, &bottom(&p), &[(1, 1)]);
    assert_eq!(reason_at(&v, 1, 1), Reason::StarCrowded);
}

#[test]
fn star_pairs_with_a_triangle_of_its_colour() {
    // `docs/rules.md#symbols`: triangles have colour. The white triangle at
    // (3,1) has its bottom edge (3,2) on the bottom path and no other: count 1
    // is right.
    let p = row(vec![Some(star(W)), Some(tri_c(1, W)), None]);
    assert_valid(&p, &bottom(&p));
    // A wrong white triangle still counts toward the star's colour
    // (`docs/rules.md#symbols` counts every coloured slot), so only the
    // triangle is reported.
    let p = row(vec![Some(star(W)), Some(tri_c(2, W)), None]);
    let v = assert_invalid(&p, &bottom(&p), &[(3, 1)]);
    assert_eq!(reason_at(&v, 3, 1), Reason::Triangle);
}

#[test]
fn star_beside_a_same_coloured_elimination_mark_is_invalid() {
    // `docs/rules.md#elimination-marks`: the initial check (mark turned into a
    // coloured `nonce`) counts 2 whites, so the star is fine and there is
    // nothing to erase: soft = [], very = []. The search finds no candidate;
    // the single mark is a leftover (NCN pairs need two), is turned back into a
    // coloured nonce for the final check -- the star still counts 2 and is not
    // reported -- and the leftover mark itself is reported.
    let p = row(vec![Some(star(W)), Some(nega(W)), None]);
    let v = assert_invalid(&p, &bottom(&p), &[(3, 1)]);
    assert_eq!(reason_at(&v, 3, 1), Reason::Elimination);
}

// ---------------------------------------------------------------------------
// Triangles (`docs/rules.md#symbols`)
// ---------------------------------------------------------------------------

#[test]
fn triangle_counts_line_edges_around_its_face() {
    // 1x1 panel, start bottom-left (0,2); ends at the other three corners.
    let with = |n| {
        panel(
            1,
            1,
            vec![
                (0, 2, El::Start),
                (0, 0, El::End),
                (2, 0, El::End),
                (2, 2, El::End),
                (1, 1, tri(n)),
            ],
        )
    };
    // Up the left edge (0,1): one edge. Then along the top (1,0): two.
    // Right, up, left: bottom (1,2), right (2,1), top (1,0): three.
    assert_valid(&with(1), "0,2:U2");
    assert_valid(&with(2), "0,2:U2R2");
    assert_valid(&with(3), "0,2:R2U2L2");
    // Mismatches are very-invalid at the triangle.
    let v = assert_invalid(&with(2), "0,2:U2", &[(1, 1)]);
    assert_eq!(reason_at(&v, 1, 1), Reason::Triangle);
    assert_invalid(&with(1), "0,2:U2R2", &[(1, 1)]);
    // Edges, not nodes: the path "0,2:R2" touches the corners (0,2) and
    // (2,2) and one edge (1,2): count 1.
    assert_valid(&with(1), "0,2:R2");
}

#[test]
fn triangle_in_last_pillar_column_counts_the_seam_edge() {
    // Pillar 2 faces around, 1 high: W=4, H=3. Column x=3 (faces) wraps onto
    // column 0. The line runs up column 0 only: (0,2),(0,1),(0,0).
    let with = |n| {
        build(
            2,
            1,
            true,
            vec![(0, 2, El::Start), (0, 0, El::End), (3, 1, tri(n))],
        )
    };
    // Face (3,1): left (2,1) no, top (3,0) no, bottom (3,2) no, right = x 4
    // mod 4 = (0,1) yes (`docs/rules.md#symbols`: getLine wraps x). Count 1.
    assert_valid(&with(1), "0,2:U2");
    assert_invalid(&with(2), "0,2:U2", &[(3, 1)]);
    assert_invalid(&with(0), "0,2:U2", &[(3, 1)]);
}

// ---------------------------------------------------------------------------
// Pillars (`docs/rules.md#the-puzzle-json`, `#regions`)
// ---------------------------------------------------------------------------

#[test]
fn a_vertical_line_does_not_split_a_pillar() {
    // Black square (1,1), white square (3,1); the line runs up x=2.
    let els = || {
        vec![
            (2, 2, El::Start),
            (2, 0, El::End),
            (1, 1, sq(B)),
            (3, 1, sq(W)),
        ]
    };
    // Flat 2x1 panel: the line x=2 separates the two faces: valid.
    assert_valid(&panel(2, 1, els()), "2,2:U2");
    // Pillar (W=4): face (3,1)'s right neighbour is edge (0,1), whose right
    // neighbour is face (1,1) (`docs/rules.md#regions`: the flood wraps x). One
    // region, two colours: both squares fail.
    let p = build(2, 1, true, els());
    assert_invalid(&p, "2,2:U2", &[(1, 1), (3, 1)]);
}

// ---------------------------------------------------------------------------
// Polyominoes (`docs/rules.md#the-puzzle-json`, `#polyominoes`)
// ---------------------------------------------------------------------------

#[test]
fn polyomino_must_tile_its_region() {
    // 2x1 row, path along the bottom: one region of two faces. The region's
    // slots are all -1 (`docs/rules.md#polyominoes` step 6); a horizontal
    // domino anchored at (1,1) covers (1,1), its inner edge (2,1) and (3,1):
    // every face becomes 0.
    let p = row(vec![Some(poly(DOMINO_H)), None]);
    assert_valid(&p, &bottom(&p));
    // Two monominoes tile it too.
    let p = row(vec![Some(poly(MONO)), Some(poly(MONO))]);
    assert_valid(&p, &bottom(&p));
    // A monomino alone: area 1 != 2 faces: every poly fails.
    let p = row(vec![Some(poly(MONO)), None]);
    let v = assert_invalid(&p, &bottom(&p), &[(1, 1)]);
    assert_eq!(reason_at(&v, 1, 1), Reason::Polyomino);
    // Domino + monomino: area 3 != 2: both are reported.
    let p = row(vec![Some(poly(DOMINO_H)), Some(poly(MONO))]);
    assert_invalid(&p, &bottom(&p), &[(1, 1), (3, 1)]);
}

#[test]
fn polyomino_rotation_only_with_the_rotation_bit() {
    // A vertical domino, right area, cannot lie flat in a 2x1 region unless it
    // may rotate (`docs/rules.md#the-puzzle-json`: without ROTATION_BIT a shape
    // has one orientation).
    let p = row(vec![Some(poly(DOMINO_V)), None]);
    assert_invalid(&p, &bottom(&p), &[(1, 1)]);
    let p = row(vec![Some(poly(DOMINO_V | ROTATION_BIT)), None]);
    assert_valid(&p, &bottom(&p));
    // the rotation bit changes nothing for a shape that fits as is.
    let p = row(vec![Some(poly(DOMINO_H | ROTATION_BIT)), None]);
    assert_valid(&p, &bottom(&p));
}

#[test]
fn poly_and_ylop_cancel_when_equal_in_shape() {
    // 2x2 panel, path along the bottom border: one region of 4 faces.
    let with = |a: El, b: El| {
        panel(
            2,
            2,
            vec![(0, 4, El::Start), (4, 4, El::End), (1, 1, a), (3, 1, b)],
        )
    };
    // equal size and shape: net area 0, the board stays 0
    // (`docs/rules.md#polyominoes` step 6) and the domino exactly covers
    // wherever the ylop domino went.
    assert_valid(&with(poly(DOMINO_H), ylop(DOMINO_H)), "0,4:R4");
    // Equal area, different shape (horizontal poly, vertical ylop, neither
    // rotatable): the poly can never cover the two faces the ylop lowered in
    // one column, so the fit fails and both pieces are reported.
    let p = with(poly(DOMINO_H), ylop(DOMINO_V));
    let v = assert_invalid(&p, "0,4:R4", &[(1, 1), (3, 1)]);
    assert!(v.invalid.iter().all(|f| f.reason == Reason::Polyomino));
    // ... unless SHAPELESS_ZERO_POLY: net area 0 is enough
    // (`docs/rules.md#the-puzzle-json`, `#polyominoes` step 5).
    let mut q = p.clone();
    q.settings.shapeless_zero_poly = true;
    assert_valid(&q, "0,4:R4");
    // ... or the poly may rotate onto the ylop's shape.
    assert_valid(
        &with(poly(DOMINO_H | ROTATION_BIT), ylop(DOMINO_V)),
        "0,4:R4",
    );
}

#[test]
fn ylop_placed_outside_its_region_makes_a_fit() {
    // 3x1 panel, the line runs up x=4: left region faces (1,1),(3,1), right
    // region face (5,1). Left region: a horizontal I-tromino (area 3) and a
    // monomino ylop (area 1): net 2 == region faces 2
    // (`docs/rules.md#polyominoes` step 3 passes). The region's slots are -1,
    // the path slots (4,*) and the right region 0. The only fit: the ylop goes
    // on (5,1), OUTSIDE the region (`docs/rules.md#polyominoes` step 7: ylops
    // may lie anywhere), making (5,1) and all four edges around it, including
    // the path edge (4,1), -1; the tromino anchored at (1,1) then covers
    // (1,1),(2,1),(3,1),(4,1),(5,1), bringing each to 0. (A ylop inside the
    // region would leave a -2 face that one tromino cannot fill.)
    let with = |y: Option<El>| {
        let mut els = vec![(4, 2, El::Start), (4, 0, El::End), (1, 1, poly(I3_H))];
        if let Some(y) = y {
            els.push((3, 1, y));
        }
        panel(3, 1, els)
    };
    assert_valid(&with(Some(ylop(MONO))), "4,2:U2");
    // Without the ylop the tromino's area 3 does not match 2 faces.
    assert_invalid(&with(None), "4,2:U2", &[(1, 1)]);
}

#[test]
fn polyshape_zero_is_ignored() {
    // `docs/rules.md#polyominoes` step 1: slots with polyshape 0 are skipped
    // entirely.
    let p = row(vec![Some(poly(0)), None]);
    assert_valid(&p, &bottom(&p));
    // It adds no area: a domino alone still tiles the two faces.
    let p = row(vec![Some(poly(0)), Some(poly(DOMINO_H))]);
    assert_valid(&p, &bottom(&p));
    let p = row(vec![Some(ylop(0)), Some(poly(DOMINO_H))]);
    assert_valid(&p, &bottom(&p));
}

#[test]
fn rotation_bit_only_poly_is_invalid() {
    // `docs/rules.md#polyominoes`: polyshape = ROTATION_BIT has size 0 and an empty
    // footprint. Alone in a region: net area 0, the board stays 0, and
    // placePolys finds no open face while the piece is still left: false.
    let p = row(vec![Some(poly(ROTATION_BIT)), None]);
    let v = assert_invalid(&p, &bottom(&p), &[(1, 1)]);
    assert_eq!(reason_at(&v, 1, 1), Reason::Polyomino);
    // `docs/rules.md#polyominoes` step 5: with SHAPELESS_ZERO_POLY a net area
    // of 0 with at least one piece returns true before any placing: valid
    // ("unless SHAPELESS_ZERO_POLY applies", `docs/rules.md#polyominoes`).
    let mut q = p.clone();
    q.settings.shapeless_zero_poly = true;
    assert_valid(&q, &bottom(&q));
    // Beside a domino that fills the region, the engine's placePolys
    // (polyominos.js) tries, at the first open face, each remaining piece in
    // turn: the empty piece "fits" there (an empty footprint always fits and
    // changes nothing), after which the domino tiles the region. So this
    // region is valid: the empty piece fails only when no face is open while
    // it is left. (The rules' "false for any region containing it" is true
    // of a region where the other pieces leave no open face.)
    let p = row(vec![Some(poly(ROTATION_BIT)), Some(poly(DOMINO_H))]);
    assert_valid(&p, &bottom(&p));
}

#[test]
fn precise_poly_cannot_straddle_the_path() {
    // 2x2 panel; the line runs from the left border node (0,2) to the centre
    // node (2,2), an endpoint: it covers the edge (1,2) between faces (1,1)
    // and (1,3) but separates nothing: one region of 4 faces.
    let with = |a: El, b: Option<El>| {
        let mut els = vec![(0, 2, El::Start), (2, 2, El::End), (1, 1, a)];
        if let Some(b) = b {
            els.push((3, 1, b));
        }
        panel(2, 2, els)
    };
    // The O-tetromino's precise footprint (`docs/rules.md#the-puzzle-json`)
    // includes its four inner edges; (1,2) is a path slot (value 0), so
    // covering it makes it 1 > 0: no fit.
    let p = with(poly(O4), None);
    assert_invalid(&p, "0,2:R2", &[(1, 1)]);
    // Without PRECISE_POLYOMINOS only the squares count: it fits.
    let mut q = p.clone();
    q.settings.precise_polyominos = false;
    assert_valid(&q, "0,2:R2");
    // Two horizontal dominoes (inner edges (2,1) and (2,3)) avoid (1,2).
    assert_valid(&with(poly(DOMINO_H), Some(poly(DOMINO_H))), "0,2:R2");
    // Two vertical dominoes: the left one would straddle (1,2). Every poly
    // of the region is reported.
    assert_invalid(
        &with(poly(DOMINO_V), Some(poly(DOMINO_V))),
        "0,2:R2",
        &[(1, 1), (3, 1)],
    );
}

// ---------------------------------------------------------------------------
// Elimination marks (`docs/rules.md#elimination-marks`)
// ---------------------------------------------------------------------------

#[test]
fn lone_and_paired_elimination_marks() {
    // row panels (region order left to right).
    // One mark with nothing to erase: a leftover, reported.
    let p = row(vec![Some(nega(W)), None, None]);
    let v = assert_invalid(&p, &bottom(&p), &[(1, 1)]);
    assert_eq!(reason_at(&v, 1, 1), Reason::Elimination);
    // Two marks cancel each other under NCN (the default).
    let p = row(vec![Some(nega(W)), Some(nega(W)), None]);
    assert_valid(&p, &bottom(&p));
    // Without NCN every leftover mark is an error: both are reported.
    let mut q = p.clone();
    q.settings.negations_cancel_negations = false;
    assert_invalid(&q, &bottom(&q), &[(1, 1), (3, 1)]);
    // Three marks: the first two (in region order) cancel, the last one is left
    // over (`docs/rules.md#elimination-marks`: "set the remaining negs k, k+1,
    // ... to null two at a time. If their count is odd, the last one is left
    // over").
    let p = row(vec![Some(nega(W)), Some(nega(W)), Some(nega(W))]);
    assert_invalid(&p, &bottom(&p), &[(5, 1)]);
}

#[test]
fn elimination_mark_erases_a_crowding_element() {
    // 4x1 rows.
    // White star, two white squares, red mark. Initial check: white counts 3,
    // the star is crowded (soft); the squares agree, so soft = [star]. The
    // mark erases the only candidate, the star, and the rest is clean: valid.
    // (The candidates are soft-invalid elements only, so the engine's
    // negation target is the star, not a square.)
    let p = row(vec![Some(star(W)), Some(sq(W)), Some(sq(W)), Some(nega(R))]);
    let v = assert_valid(&p, &bottom(&p));
    assert_eq!(v.negations, vec![pair((7, 1), (1, 1))]);
    // White star, white square, black square, white mark. Initial: white
    // counts 3 (the mark keeps its colour), the squares clash: soft = [white
    // square, black square, star]. Erasing the black square leaves star +
    // white square = 2 whites and no clash: valid.
    let p = row(vec![Some(star(W)), Some(sq(W)), Some(sq(B)), Some(nega(W))]);
    let v = assert_valid(&p, &bottom(&p));
    assert!(v.negations.contains(&pair((7, 1), (5, 1))), "{v:?}");
}

/// 6x1 row: squares at (1,1) and (3,1) in the given colours, a white star
/// at (5,1), red marks at (7,1), (9,1), (11,1).
fn order_panel(first: Color, second: Color) -> Puzzle {
    row(vec![
        Some(sq(first)),
        Some(sq(second)),
        Some(star(W)),
        Some(nega(R)),
        Some(nega(R)),
        Some(nega(R)),
    ])
}

#[test]
fn elimination_order_dependence() {
    // `docs/rules.md#elimination-marks`. Initial check: the squares clash, the
    // star has exactly one white partner: soft = [square (1,1), square (3,1)]
    // in region order, very = []. Three marks, two candidates: erasing 3 is
    // impossible, so the only explored configurations erase ONE candidate and
    // let two marks cancel, and those must include the LAST candidate, the
    // square at (3,1).
    //
    // Black first: the last candidate is the white square; erasing it
    // leaves the star alone: never clean. The good configuration (erase the
    // black square) is never tried: INVALID. The engine reports its first
    // configuration: marks 1 and 2 erase both squares, mark 3 (11,1) is left
    // over, and the star is then alone.
    let p = order_panel(B, W);
    let v = assert_invalid(&p, &bottom(&p), &[(5, 1), (11, 1)]);
    assert_eq!(reason_at(&v, 5, 1), Reason::StarAlone);
    assert_eq!(reason_at(&v, 11, 1), Reason::Elimination);
    // White first: the last candidate is the black square; erasing it
    // leaves white square + star, and the two other marks cancel: VALID. The
    // first mark (7,1) erases the black square (3,1).
    let p = order_panel(W, B);
    let v = assert_valid(&p, &bottom(&p));
    assert!(v.negations.contains(&pair((7, 1), (3, 1))), "{v:?}");
}

#[test]
fn elimination_order_dependence_without_ncn() {
    // Without NEGATIONS_CANCEL_NEGATIONS no configuration can leave marks
    // over, and three marks cannot each erase one of two candidates: both
    // orders are invalid. First configuration: both squares erased, the star
    // alone, mark (11,1) left over.
    for (a, b) in [(B, W), (W, B)] {
        let mut p = order_panel(a, b);
        p.settings.negations_cancel_negations = false;
        assert_invalid(&p, &bottom(&p), &[(5, 1), (11, 1)]);
    }
}

#[test]
fn elimination_mark_erases_uncovered_dot_and_wrong_triangle() {
    // 2x1 row, path along the bottom (0,2)..(4,2).
    // A dot on the top middle node (2,0) is uncovered: very-invalid; the
    // mark is paired with it first (forced pairing): valid.
    let mut p = row(vec![Some(nega(W)), None]);
    p.cell_mut(Pos::new(2, 0)).dot = Dot::Black;
    let v = assert_valid(&p, &bottom(&p));
    assert!(v.negations.contains(&pair((1, 1), (2, 0))), "{v:?}");
    // A triangle asking for 2 edges has only its bottom edge: very-invalid,
    // erased by the mark: valid.
    let p = row(vec![Some(tri(2)), Some(nega(W))]);
    let v = assert_valid(&p, &bottom(&p));
    assert!(v.negations.contains(&pair((3, 1), (1, 1))), "{v:?}");
    // A satisfied triangle (count 1) gives the mark nothing to erase.
    let p = row(vec![Some(tri(1)), Some(nega(W))]);
    assert_invalid(&p, &bottom(&p), &[(3, 1)]);
}

#[test]
fn elimination_mark_cannot_fix_a_wrong_coloured_dot() {
    // the wrong-colour dots of `blue_and_yellow_dots_with_symmetry`
    // are global errors, never region errors. Add a mark to the middle
    // region (x between the two lines at 2 and 6): it has nothing to erase,
    // so it is reported too.
    let mut p = coloured_dots_panel(LEFT_RIGHT);
    p.set_symbol(Pos::new(3, 1), Some(Symbol::new(SymbolKind::Nega, W)))
        .unwrap();
    let v = assert_invalid(&p, "8,4:L2U4R2", &[(2, 2), (6, 2), (3, 1)]);
    assert_eq!(reason_at(&v, 2, 2), Reason::WrongColorDot);
    assert_eq!(reason_at(&v, 3, 1), Reason::Elimination);
}

#[test]
fn elimination_mark_cannot_help_another_region() {
    // 2x1 panel cut by the line x=2: the mark (1,1) is alone in the
    // left region, the star (3,1) alone in the right one. Both fail.
    let p = panel(
        2,
        1,
        vec![
            (2, 2, El::Start),
            (2, 0, El::End),
            (1, 1, nega(W)),
            (3, 1, star(W)),
        ],
    );
    assert_invalid(&p, "2,2:U2", &[(1, 1), (3, 1)]);
}

// ---------------------------------------------------------------------------
// Regions: gaps and outside faces (`docs/rules.md#the-puzzle-json` `gap`,
// `#regions`, `#decisions`)
// ---------------------------------------------------------------------------

/// 2x1 panel, start (0,2), end (2,0); a lone white star at (3,1); the
/// three border edges of face (3,1) carry `gap`.
fn gapped_panel(gap: Gap) -> Puzzle {
    panel(
        2,
        1,
        vec![
            (0, 2, El::Start),
            (2, 0, El::End),
            (3, 1, star(W)),
            (3, 0, El::GapAt(gap)),
            (4, 1, El::GapAt(gap)),
            (3, 2, El::GapAt(gap)),
        ],
    )
}

#[test]
fn break_gaps_keep_faces_inside() {
    // Gap 1 is an ordinary empty edge for regions: face (3,1) is in
    // the one region left by the line (0,2)-(0,0)-(2,0); its star is alone.
    let p = gapped_panel(Gap::Break);
    assert!(!p.outside_faces()[p.index(Pos::new(3, 1))]);
    assert_invalid(&p, "0,2:U2R2", &[(3, 1)]);
}

#[test]
fn full_gaps_to_the_border_remove_faces_and_their_symbols() {
    // Gap 2 edges joined to the border make face (3,1) outside
    // (`docs/rules.md#regions`); play mode empties outside faces before
    // validating (`docs/rules.md#decisions`, `#play-mode`), so the lone
    // star disappears: valid.
    let p = gapped_panel(Gap::Full);
    assert!(p.outside_faces()[p.index(Pos::new(3, 1))]);
    assert!(!p.outside_faces()[p.index(Pos::new(1, 1))]);
    assert_valid(&p, "0,2:U2R2");
}

#[test]
fn interior_full_gap_is_an_ordinary_edge() {
    // a gap-2 edge NOT joined to the border through other gap-2
    // edges is inside and connects its faces, like gap 1. The middle edge
    // (2,1) of a 2x1 panel cannot be crossed by the line, so the black and
    // white squares beside it always share a region.
    for gap in [Gap::Full, Gap::Break] {
        let p = panel(
            2,
            1,
            vec![
                (0, 2, El::Start),
                (4, 2, El::End),
                (2, 1, El::GapAt(gap)),
                (1, 1, sq(B)),
                (3, 1, sq(W)),
            ],
        );
        assert!(p.outside_faces().iter().all(|&o| !o));
        assert_invalid(&p, "0,2:R4", &[(1, 1), (3, 1)]);
        assert_invalid(&p, "0,2:U2R4D2", &[(1, 1), (3, 1)]);
    }
}

/// 2x1 panel, start (0,2), end (4,0); the top border edge (1,0) removed,
/// with a dot on it, so face (1,1) and that edge are outside; `right` on
/// face (3,1).
fn outside_dot_panel(right: Option<El>) -> Puzzle {
    let mut els = vec![
        (0, 2, El::Start),
        (4, 0, El::End),
        (1, 0, El::GapAt(Gap::Full)),
        (1, 0, El::DotAt(Dot::Black)),
    ];
    els.extend(right.map(|e| (3, 1, e)));
    panel(2, 1, els)
}

#[test]
fn a_dot_outside_the_panel_counts_only_in_the_one_region_of_triangles() {
    let count = |p: &Puzzle, engine| {
        let opts = witness::CountOptions {
            engine,
            ..Default::default()
        };
        witness::count(p, &opts).expect("a count").count
    };
    let engines = [witness::Engine::Search, witness::Engine::Sat];
    // Face (3,1) empty: the engine makes it a `nonce`, so it splits the
    // panel into regions, and the outside dot is in none: never judged.
    // Both lines to the end, R4U2 and R2U2R2 (the edge (1,0) is removed),
    // are solutions.
    let p = outside_dot_panel(None);
    assert!(p.outside_faces()[p.index(Pos::new(1, 1))]);
    assert_valid(&p, "0,2:R4U2");
    for engine in engines {
        assert_eq!(count(&p, engine), 2, "{engine:?}");
    }
    // A triangle 2 on face (3,1), the only inside face: the engine judges
    // one region of every face and uncovered slot, the outside dot
    // included, and a removed edge is never covered. R4U2 covers the
    // triangle's bottom and right edges (two, as asked) and fails on the
    // dot alone; no line can pass.
    let p = outside_dot_panel(Some(tri(2)));
    assert_invalid(&p, "0,2:R4U2", &[(1, 0)]);
    for engine in engines {
        assert_eq!(count(&p, engine), 0, "{engine:?}");
    }
    // Under the Windmill's rules nothing is outside: the dot is in the
    // region of face (1,1) and fails on every line.
    let mut p = outside_dot_panel(None);
    p.rules = witness::model::RuleSet::Windmill;
    assert_invalid(&p, "0,2:R4U2", &[(1, 0)]);
    for engine in engines {
        assert_eq!(count(&p, engine), 0, "{engine:?}");
    }
}

// ---------------------------------------------------------------------------
// Mid-segment starts and ends (`docs/rules.md#regions`)
// ---------------------------------------------------------------------------

#[test]
fn mid_segment_start_passes_through_unless_fat() {
    // 2x1 panel: start on the middle edge (2,1), end at the bottom middle
    // node (2,2); black square (1,1), white square (3,1). The path goes up
    // to (2,0), around face (1,1) and back to (2,2): every edge of (1,1) is
    // on the line, but its right edge (2,1) is the start edge.
    let p = panel(
        2,
        1,
        vec![
            (2, 1, El::Start),
            (2, 2, El::End),
            (1, 1, sq(B)),
            (3, 1, sq(W)),
        ],
    );
    let path = "2,1:U1L2D2R2";
    // Not FAT (default): the start edge is a NONCOUNT pass-through slot
    // (`docs/rules.md#regions`), so (1,1) and (3,1) are one region: both
    // squares fail.
    assert_invalid(&p, path, &[(1, 1), (3, 1)]);
    // FAT_STARTPOINTS: the start edge is a wall; (1,1) is alone: valid.
    let mut q = p.clone();
    q.settings.fat_startpoints = true;
    assert_valid(&q, path);
}

#[test]
fn mid_segment_end_passes_through() {
    // 2x1 panel; starts (2,2) and (0,0); ends on the middle edge (2,1) and
    // at the bottom-right node (4,2); black square (1,1), white square (3,1).
    let p = panel(
        2,
        1,
        vec![
            (2, 2, El::Start),
            (0, 0, El::Start),
            (2, 1, El::End),
            (4, 2, El::End),
            (1, 1, sq(B)),
            (3, 1, sq(W)),
        ],
    );
    // Around (1,1) and into the end edge (2,1): the endpoint edge is NONCOUNT
    // (`docs/rules.md#regions`, no FAT option for ends), so the faces join:
    // both squares fail, with or without FAT_STARTPOINTS.
    let around = "2,2:L2U2R2D1";
    assert_invalid(&p, around, &[(1, 1), (3, 1)]);
    let mut q = p.clone();
    q.settings.fat_startpoints = true;
    assert_invalid(&q, around, &[(1, 1), (3, 1)]);
    // Passing THROUGH the mid-segment endpoint (2,1) and ending at (4,2):
    // that edge is fully covered, a normal wall: valid. (The path
    // also passes over the start (2,2), which is allowed.)
    assert_valid(&p, "0,0:R2D2R2");
}

// ---------------------------------------------------------------------------
// Zero-length paths (`docs/rules.md#paths` item 7)
// ---------------------------------------------------------------------------

#[test]
fn zero_length_path_at_a_start_that_is_an_end() {
    // 1x1 panel, node (0,0) is both start and end. The path [{0,0}, 0]
    // covers one node, which splits nothing: the whole board is one region.
    let p = panel(1, 1, vec![(0, 0, El::StartEnd)]);
    let site = r#"[{"x":0,"y":0},0]"#;
    assert_valid(&p, site);
    assert_valid(&p, "0,0:");
    let t = Path::parse(site).unwrap().trace(&p).unwrap();
    assert_eq!((t.start, t.end), (Pos::new(0, 0), Pos::new(0, 0)));
    assert_eq!(t.slots, vec![Pos::new(0, 0)]);
    // A lone square is fine in one region.
    let p = panel(1, 1, vec![(0, 0, El::StartEnd), (1, 1, sq(W))]);
    assert_valid(&p, site);
    // A dot elsewhere stays uncovered.
    let p = panel(
        1,
        1,
        vec![(0, 0, El::StartEnd), (2, 2, El::DotAt(Dot::Black))],
    );
    assert_invalid(&p, site, &[(2, 2)]);
    // Two colours of squares are never separated.
    let p = panel(
        2,
        1,
        vec![(0, 0, El::StartEnd), (1, 1, sq(B)), (3, 1, sq(W))],
    );
    assert_invalid(&p, site, &[(1, 1), (3, 1)]);
}

// ---------------------------------------------------------------------------
// Symmetry (`docs/rules.md#the-puzzle-json`, `#paths` item 5,
// `docs/rules.md#play-mode`, `#symbols`)
// ---------------------------------------------------------------------------

#[test]
fn self_mirrored_start_is_legal_in_play_mode() {
    // 2x2 panel, left-right symmetry: column x=2 is its own mirror. Start at
    // the bottom middle (2,4); ends at the top corners. Play mode
    // (`docs/rules.md#decisions`, `#play-mode`): the start may be used; the two
    // lines leave it in opposite directions. Triangles (1,3) and (3,3) each see
    // 2 line edges: (0,3),(1,4) on the blue line and (4,3),(3,4) on the yellow
    // one.
    let mut p = panel(
        2,
        2,
        vec![
            (2, 4, El::Start),
            (0, 0, El::End),
            (4, 0, El::End),
            (1, 3, tri(2)),
            (3, 3, tri(2)),
        ],
    );
    p.symmetry = LEFT_RIGHT;
    assert!(p.is_self_mirror(Pos::new(2, 4)));
    assert_valid(&p, "2,4:L2U4");
    // The start keeps line 3 (the mirror write comes second,
    // `docs/rules.md#play-mode` item 1).
    let t = Path::parse("2,4:L2U4").unwrap().trace(&p).unwrap();
    assert_eq!(t.lines[p.index(Pos::new(2, 4))], Line::Yellow);
    assert_eq!(t.lines[p.index(Pos::new(1, 4))], Line::Blue);
    assert_eq!(t.lines[p.index(Pos::new(3, 4))], Line::Yellow);
    // Anywhere after the start, a self-mirrored slot is illegal
    // (`docs/rules.md#paths` item 5): left, up to the middle row, then right
    // into the centre (2,2).
    assert_illegal(&p, "2,4:L2U2R2U2", &["move 6", "(2, 2)", "own mirror"]);
}

#[test]
fn mirror_line_is_a_wall_and_counts_for_triangles() {
    // 3x3 panel (W=7), left-right symmetry; starts (0,6)/(6,6), ends
    // (0,0)/(6,0). Black squares (1,3) and (5,3), a white square (3,3); a
    // triangle asking for 2 at (5,1). The blue line runs (0,6)-(2,6)-(2,0)-
    // (0,0), the yellow one (6,6)-(4,6)-(4,0)-(6,0).
    let make = |symmetry| {
        let mut p = panel(
            3,
            3,
            vec![
                (0, 6, El::Start),
                (6, 6, El::Start),
                (0, 0, El::End),
                (6, 0, El::End),
                (1, 3, sq(B)),
                (3, 3, sq(W)),
                (5, 3, sq(B)),
                (5, 1, tri(2)),
            ],
        );
        p.symmetry = symmetry;
        p
    };
    let path = "0,6:R2U6L2";
    // With symmetry both lines are walls (`docs/rules.md#symbols`): three
    // column regions, one colour each; the triangle's edges (4,1) and (5,0) are
    // on the yellow line, which counts (`docs/rules.md#symbols`): valid.
    assert_valid(&make(LEFT_RIGHT), path);
    // The same line alone leaves columns x=3 and x=5 joined (white and
    // black squares clash) and the triangle sees no line edge.
    assert_invalid(&make(None), path, &[(3, 3), (5, 3), (5, 1)]);
}

#[test]
fn path_may_not_touch_its_mirror() {
    let mut p = panel(
        3,
        3,
        vec![
            (0, 6, El::Start),
            (6, 6, El::Start),
            (0, 0, El::End),
            (6, 0, El::End),
            (5, 4, El::GapAt(Gap::Break)),
        ],
    );
    p.symmetry = LEFT_RIGHT;
    // Along the bottom the line would reach the centre (3,6), its own mirror,
    // where the two lines would meet (`docs/rules.md#paths` item 5).
    assert_illegal(&p, "0,6:R6U6", &["move 3", "(3, 6)", "own mirror"]);
    // The mirror of the edge (1,4) is (5,4), which has a gap: the mirror
    // line cannot pass, so neither can the line (`docs/rules.md#paths` item 5).
    assert_illegal(&p, "0,6:U2R2U4L2", &["move 3", "mirror", "(5, 4)"]);
    // Avoiding both is fine.
    assert_valid(&p, "0,6:U6");
}

// ---------------------------------------------------------------------------
// Legacy JSON forms (`docs/rules.md#the-puzzle-json`)
// ---------------------------------------------------------------------------

/// The 1x1 panel of the library docs in the oldest form: no width/height,
/// no settings, line slots with a `color` instead of `line`, typeless faces,
/// and start, end and dot given in top-level arrays.
const LEGACY_1X1: &str = r#"{"name":"old",
  "grid":[
    [{"type":"line","color":0},{"type":"line","color":0},{"type":"line","color":0}],
    [{"type":"line","color":0},{},{"type":"line","color":0}],
    [{"type":"line","color":0},{"type":"line","color":0},{"type":"line","color":0}]],
  "startPoints":[{"x":0,"y":2}],
  "endPoints":[{"x":2,"y":0,"dir":"right"}],
  "dots":[{"x":1,"y":0}]}"#;

#[test]
fn legacy_top_level_arrays_and_line_colors() {
    // `docs/rules.md#the-puzzle-json` step 4: startPoints set start, endPoints
    // set end, dots set dot 1; `color` on line slots becomes `line`, which
    // validation ignores; `{}` faces are empty; a missing settings key is all
    // defaults.
    let p = wpjson::parse(LEGACY_1X1).unwrap();
    assert_eq!(p.settings, Settings::default());
    assert!(p.cell(Pos::new(0, 2)).start);
    assert!(p.cell(Pos::new(2, 0)).end.is_some());
    assert_eq!(p.cell(Pos::new(1, 0)).dot, Dot::Black);
    assert_eq!(p.cell(Pos::new(1, 1)).symbol, None);
    // Up then right covers the top-edge dot; right then up does not.
    assert_valid(&p, "0,2:U2R2");
    assert_invalid(&p, "0,2:R2U2", &[(1, 0)]);
}

#[test]
fn legacy_single_start_and_end_objects() {
    // `docs/rules.md#the-puzzle-json` step 4: `start: {x,y}` and `end:
    // {x,y,dir}` are the one-element forms of startPoints / endPoints.
    let j = r#"{"grid":[[null,null,null],[null,null,null],[null,null,null]],
        "start":{"x":0,"y":2},"end":{"x":2,"y":0,"dir":"top"}}"#;
    let p = wpjson::parse(j).unwrap();
    assert_eq!(p.starts().collect::<Vec<_>>(), vec![Pos::new(0, 2)]);
    assert_eq!(p.ends().collect::<Vec<_>>(), vec![Pos::new(2, 0)]);
    assert_valid(&p, "0,2:U2R2");
}

#[test]
fn legacy_gap_true_and_gaps_array() {
    // `docs/rules.md#the-puzzle-json`: `gap: true` becomes gap 1 -- also when
    // the slot has a legacy `color` and keeps `gap: true`, which "acts like gap
    // 1" -- and the top-level `gaps` set gap 1. Either way the top edge (1,0)
    // is blocked.
    let forms = [
        r#"{"type":"line","gap":true}"#,
        r#"{"type":"line","color":0,"gap":true}"#,
    ];
    for form in forms {
        let j = format!(
            r#"{{"grid":[[{{"type":"line"}},{{"type":"line"}},{{"type":"line","start":true}}],
            [{form},{{"line":0,"dir":null}},{{"type":"line"}}],
            [{{"type":"line","end":"right"}},{{"type":"line"}},{{"type":"line"}}]]}}"#
        );
        let p = wpjson::parse(&j).unwrap();
        assert_eq!(p.cell(Pos::new(1, 0)).gap, Gap::Break, "{form}");
        // The `{"line":0,"dir":null}` face is empty.
        assert_eq!(p.cell(Pos::new(1, 1)).symbol, None);
        assert_illegal(&p, "0,2:U2R2", &["(1, 0)", "gap"]);
        assert_valid(&p, "0,2:R2U2");
    }
    let j = r#"{"grid":[[null,null,null],[null,false,null],[null,null,null]],
        "startPoints":[{"x":0,"y":2}],"endPoints":[{"x":2,"y":0,"dir":"right"}],
        "gaps":[{"x":1,"y":0}]}"#;
    let p = wpjson::parse(j).unwrap();
    assert_eq!(p.cell(Pos::new(1, 0)).gap, Gap::Break);
    assert_illegal(&p, "0,2:U2R2", &["(1, 0)", "gap"]);
    // Gap 1 does not split regions: still one region, valid (no symbols).
    assert_valid(&p, "0,2:R2U2");
}

#[test]
fn legacy_rot_all_is_the_rotation_bit() {
    // `docs/rules.md#the-puzzle-json`: `rot: "all"` sets ROTATION_BIT; `rot: 0`
    // is inert. A vertical domino (polyshape 3) must turn to fill a 2x1 row
    // region.
    let with = |rot: &str| {
        format!(
            r#"{{"grid":[
            [{{"type":"line"}},{{"type":"line"}},{{"type":"line","start":true}}],
            [{{"type":"line"}},{{"type":"poly","color":"yellow","polyshape":3{rot}}},{{"type":"line"}}],
            [{{"type":"line"}},{{"type":"line"}},{{"type":"line"}}],
            [{{"type":"line"}},null,{{"type":"line"}}],
            [{{"type":"line"}},{{"type":"line"}},{{"type":"line","end":"right"}}]]}}"#
        )
    };
    let p = wpjson::parse(&with(r#","rot":"all""#)).unwrap();
    assert_valid(&p, "0,2:R4");
    let p = wpjson::parse(&with(r#","rot":0"#)).unwrap();
    assert_invalid(&p, "0,2:R4", &[(1, 1)]);
    let p = wpjson::parse(&with("")).unwrap();
    assert_invalid(&p, "0,2:R4", &[(1, 1)]);
}

#[test]
fn legacy_string_at_a_node_is_dropped() {
    // `docs/rules.md#the-puzzle-json` step 3: a non-object value at a node or
    // edge (some corpus puzzles have the string 'top') becomes an empty line
    // slot: the endpoint it stood for is lost, so no path can end there.
    let j = r#"{"grid":[[{"type":"line"},{"type":"line"},{"type":"line","start":true}],
        [{"type":"line"},null,{"type":"line"}],
        ["top",{"type":"line"},{"type":"line","end":"right"}]]}"#;
    let p = wpjson::parse(j).unwrap();
    assert_eq!(p.cell(Pos::new(2, 0)), &Default::default());
    assert_eq!(p.ends().collect::<Vec<_>>(), vec![Pos::new(2, 2)]);
    assert_illegal(&p, "0,2:U2R2", &["(2, 0)", "not an endpoint"]);
    assert_valid(&p, "0,2:R2");
}

#[test]
fn rules_compile_once_and_check_many_paths() {
    // The compiled Rules agree with the one-call validate on every path of
    // a panel (a sanity check that the helpers above test the same thing).
    let p = order_panel(W, B);
    let rules = Rules::new(&p).unwrap();
    for path in [bottom(&p), "0,2:U2R12D2".to_string()] {
        let parsed = Path::parse(&path).unwrap();
        assert_eq!(
            rules.check_path(&p, &parsed).unwrap(),
            witness::check(&p, &parsed).unwrap()
        );
    }
}

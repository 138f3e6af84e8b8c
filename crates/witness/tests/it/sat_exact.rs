//! The SAT engine against the brute force: on hundreds of small random
//! panels of every mechanic it handles (dots of every colour, gaps,
//! triangles, squares, stars, elimination marks, mid-edge starts and
//! ends, fat starts, symmetry, pillars, undirected panels, polyominoes
//! fixed, rotatable and disconnected, beside marks too, subtractive ones
//! beside marks too, on pillars and with symmetry), it finds exactly the brute force's
//! solutions, each passing the validator.
#![cfg(feature = "sat")]

use crate::common;

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use common::random::{
    line_slot, mirror_starts_and_ends, place_start_end, random_frame, random_shape, Rng, COLORS,
};
use witness::internals::sat::{Options, SatRun};
use witness::model::{Direction, Gap, Polyomino, Pos, Puzzle, SlotKind, Symbol, SymbolKind};
use witness::{CountOptions, Engine, Limits, Path, SolveOptions, Status};

/// The mechanics of a random panel's faces.
#[derive(Copy, Clone, Debug)]
enum Faces {
    Empty,
    Triangles,
    Squares,
    Stars,
    Mixed,
    /// Mixed, and elimination marks.
    Marks,
    /// Polyominoes beside squares, stars and triangles, on fewer faces.
    Pieces,
    /// Polyominoes beside elimination marks, squares and stars.
    PiecesMarks,
    /// Many pieces of one kind (single squares), some dominoes, squares.
    Monos,
    /// Polyominoes and subtractive ones (one at least), beside squares,
    /// stars and now and then an elimination mark.
    Ylops,
    /// Polyominoes and subtractive ones (one at least) beside elimination
    /// marks (one at least), which may erase either.
    YlopsMarks,
}

/// A shape for a random piece: one to three cells, or in one case of six
/// two cells touching at a corner (a disconnected shape).
fn piece_shape(r: &mut Rng) -> Polyomino {
    if r.chance(17) {
        let cells = if r.chance(50) {
            [(0, 0), (1, 1)]
        } else {
            [(1, 0), (0, 1)]
        };
        return Polyomino::new(cells, r.chance(50));
    }
    random_shape(r)
}

fn face_symbol(r: &mut Rng, faces: Faces) -> Option<Symbol> {
    let color = COLORS[r.below(COLORS.len() as u64) as usize].clone();
    let kind = match faces {
        Faces::Empty => return None,
        Faces::Triangles => SymbolKind::Triangle(1 + r.below(3) as u32),
        Faces::Squares => SymbolKind::Square,
        Faces::Stars => SymbolKind::Star,
        Faces::Mixed => match r.below(3) {
            0 => SymbolKind::Triangle(1 + r.below(3) as u32),
            1 => SymbolKind::Square,
            _ => SymbolKind::Star,
        },
        Faces::Marks => match r.below(4) {
            0 => SymbolKind::Triangle(1 + r.below(3) as u32),
            1 => SymbolKind::Square,
            2 => SymbolKind::Star,
            _ => SymbolKind::Nega,
        },
        Faces::Pieces => match r.below(20) {
            0..=2 => SymbolKind::Poly(piece_shape(r)),
            3 => SymbolKind::Square,
            4 => SymbolKind::Star,
            5 => SymbolKind::Triangle(1 + r.below(3) as u32),
            _ => return None,
        },
        Faces::Monos => match r.below(20) {
            0..=4 => SymbolKind::Poly(Polyomino::new([(0, 0)], false)),
            5 => SymbolKind::Poly(Polyomino::new([(0, 0), (1, 0)], false)),
            6 => SymbolKind::Square,
            _ => return None,
        },
        Faces::Ylops => match r.below(20) {
            0..=3 => SymbolKind::Poly(piece_shape(r)),
            4 => SymbolKind::Ylop(piece_shape(r)),
            5 => SymbolKind::Square,
            6 => SymbolKind::Star,
            7 if r.chance(30) => SymbolKind::Nega,
            _ => return None,
        },
        Faces::YlopsMarks => match r.below(20) {
            0..=2 => SymbolKind::Poly(piece_shape(r)),
            3 | 4 => SymbolKind::Ylop(piece_shape(r)),
            5 | 6 => SymbolKind::Nega,
            7 => SymbolKind::Square,
            _ => return None,
        },
        Faces::PiecesMarks => match r.below(20) {
            0..=2 => SymbolKind::Poly(piece_shape(r)),
            3 | 4 => SymbolKind::Nega,
            5 => SymbolKind::Square,
            6 => SymbolKind::Star,
            _ => return None,
        },
    };
    Some(Symbol::new(kind, color))
}

/// A random panel of at most `max` faces a side (pillars 3 or 4 round),
/// with the faces of `faces` on a random share of them, gaps on `gaps`
/// percent of the edges, dots on `dots` percent of the other nodes and
/// edges, starts and ends here and there (mirrored with symmetry).
fn random_panel(r: &mut Rng, max: u64, faces: Faces, gaps: u64, dots: u64) -> Puzzle {
    let mut p = random_frame(r, max, 2);
    let symmetric = p.symmetry.is_some();
    let ylops = matches!(faces, Faces::Ylops | Faces::YlopsMarks);
    let with_marks = matches!(faces, Faces::YlopsMarks);
    let pieces = matches!(
        faces,
        Faces::Pieces | Faces::PiecesMarks | Faces::Monos | Faces::Ylops | Faces::YlopsMarks
    );
    let density = 20 + r.below(50);
    // Face symbols with pieces are drawn on every face (mostly none).
    let density = if pieces { 100 } else { density };
    for q in p.positions().collect::<Vec<_>>() {
        let c = p.cell_mut(q);
        match q.kind() {
            SlotKind::Face => {
                if r.chance(density) {
                    c.symbol = face_symbol(r, faces);
                }
            }
            kind => line_slot(r, c, kind, gaps, dots),
        }
    }
    let slots: Vec<Pos> = p
        .positions()
        .filter(|q| q.kind() != SlotKind::Face)
        .collect();
    place_start_end(r, &mut p, &slots);
    // A panel of pieces has one at least.
    let faces: Vec<Pos> = p
        .positions()
        .filter(|q| q.kind() == SlotKind::Face)
        .collect();
    if pieces && !has_pieces(&p) {
        let f = faces[r.below(faces.len() as u64) as usize];
        let kind = SymbolKind::Poly(piece_shape(r));
        p.cell_mut(f).symbol = Some(Symbol::new(kind, COLORS[0].clone()));
    }
    // Whether some face of `p` holds a symbol whose kind `is` accepts.
    let holds = |p: &Puzzle, is: fn(&SymbolKind) -> bool| {
        p.positions()
            .any(|q| p.cell(q).symbol.as_ref().is_some_and(|s| is(&s.kind)))
    };
    // A panel of subtractive pieces has one at least.
    if ylops && !holds(&p, |k| matches!(k, SymbolKind::Ylop(_))) {
        let f = faces[r.below(faces.len() as u64) as usize];
        let kind = SymbolKind::Ylop(piece_shape(r));
        p.cell_mut(f).symbol = Some(Symbol::new(kind, COLORS[0].clone()));
    }
    // A panel of marks beside subtractive pieces has one at least.
    if with_marks && !holds(&p, |k| *k == SymbolKind::Nega) {
        let empty: Vec<Pos> = faces
            .iter()
            .copied()
            .filter(|&q| p.cell(q).symbol.is_none())
            .collect();
        if let Some(&f) = empty.get(r.below(empty.len().max(1) as u64) as usize) {
            p.cell_mut(f).symbol = Some(Symbol::new(SymbolKind::Nega, COLORS[0].clone()));
        }
    }
    if symmetric {
        mirror_starts_and_ends(&mut p, r.chance(80));
    }
    p.settings.fat_startpoints = r.chance(15);
    p
}

/// The panel's JSON, to reproduce a failure.
fn show(p: &Puzzle) -> String {
    witness::formats::wpjson::to_string(p).unwrap()
}

/// Panels with more solutions than this are counted only up to it (a
/// count by blocking clauses, one solver call or more per solution, is
/// slow on them): the solutions found must be the brute force's.
const MOST: u64 = 1500;

thread_local! {
    /// The eager clauses of stars and squares the SAT engine added on this
    /// thread's panels (each test runs on a thread of its own), so that a
    /// test can tell they were there to be checked.
    static EAGER: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The SAT engine runs with the pieces' region labels (outside the
    /// selector mode), on this thread.
    static LABELS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// The panels the SAT engine encoded with the pieces' region labels,
    /// on this thread.
    static LABELLED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The SAT engine's solutions (start slot and moves) up to `limit`,
/// checked one by one against the validator, and its count's status.
fn sat_solutions(case: u64, p: &Puzzle, limit: Option<u64>) -> (Vec<Path>, Status) {
    let mut found = Vec::new();
    // Every third panel is counted in the selector mode, where every
    // symbol is there unless a core call says otherwise.
    let mut run = if case % 3 == 2 {
        SatRun::with_selectors(p, &Limits::none()).unwrap()
    } else if LABELS.get() {
        let opts = Options {
            labels: true,
            ..Options::default()
        };
        SatRun::with_options(p, &Limits::none(), &opts).unwrap()
    } else {
        SatRun::new(p, &Limits::none()).unwrap()
    };
    // Small panels never make the solver struggle: half of them get the
    // pieces' area cardinality from the start.
    if case % 2 == 1 {
        run.area_now();
    }
    let c = run
        .count(limit, &Limits::none(), |q| {
            found.push(q.clone());
            true
        })
        .unwrap();
    assert_eq!(c.count, found.len() as u64, "case {case}");
    EAGER.set(EAGER.get() + run.stats.eager);
    LABELLED.set(LABELLED.get() + run.stats.labels);
    for q in &found {
        let v = witness::check(p, q).unwrap();
        assert!(
            v.valid,
            "case {case}: {q} fails the validator on\n{}",
            show(p)
        );
    }
    (found, c.status)
}

/// The SAT engine finds exactly the brute force's solutions (the same
/// paths; on undirected panels the same number, a path and its reverse
/// once; past [`MOST`], that many of them), its first solution exists
/// exactly when one does, and `witness::count` with the SAT engine agrees.
fn assert_agrees(case: u64, p: &Puzzle) -> u64 {
    let want = common::brute_solutions(p);
    let n = want.len() as u64;
    let many = n > MOST;
    let (got, status) = sat_solutions(case, p, many.then_some(MOST));
    if many {
        assert_eq!((got.len() as u64, status), (MOST, Status::Stopped));
        if !p.undirected {
            let want_set: HashSet<&Path> = want.iter().collect();
            let got_set: HashSet<&Path> = got.iter().collect();
            assert_eq!(got_set.len(), got.len(), "case {case}: a solution twice");
            assert!(got_set.is_subset(&want_set), "case {case}");
        }
    } else if p.undirected {
        assert_eq!(status, Status::Complete, "case {case}");
        assert_eq!(
            got.len(),
            want.len(),
            "case {case}: SAT {} vs brute {} on\n{}",
            got.len(),
            want.len(),
            show(p)
        );
    } else {
        assert_eq!(status, Status::Complete, "case {case}");
        let got_set: HashSet<&Path> = got.iter().collect();
        let want_set: HashSet<&Path> = want.iter().collect();
        assert_eq!(got_set.len(), got.len(), "case {case}: a solution twice");
        assert_eq!(
            got_set,
            want_set,
            "case {case}: SAT {} vs brute {} on\n{}",
            got.len(),
            want.len(),
            show(p)
        );
    }
    let sol = witness::solve(
        p,
        &SolveOptions::default()
            .with_limits(Limits::none())
            .with_engine(Engine::Sat),
    )
    .unwrap();
    assert_eq!(sol.status, Status::Complete);
    assert_eq!(sol.path.is_some(), !want.is_empty(), "case {case}");
    if let Some(q) = &sol.path {
        assert!(witness::check(p, q).unwrap().valid, "case {case}");
    }
    // With a limit: the count up to it, complete exactly below it.
    for l in [1, 2] {
        let c = witness::count(
            p,
            &CountOptions::default()
                .with_limit(l)
                .with_engine(Engine::Sat),
        )
        .unwrap();
        let expected = if n < l {
            (n.into(), Status::Complete)
        } else {
            (l.into(), Status::Stopped)
        };
        assert_eq!((c.count, c.status), expected, "case {case}: limit {l}");
    }
    n
}

/// Runs `cases` random panels of each kind of faces through
/// [`assert_agrees`]; returns how many had solutions.
fn run_cases(seed: u64, cases: u64, undirected: bool) -> (u64, u64) {
    let kinds = [
        Faces::Empty,
        Faces::Triangles,
        Faces::Squares,
        Faces::Stars,
        Faces::Mixed,
        Faces::Marks,
    ];
    let (solvable, solutions, _) = run_kinds(seed, cases, undirected, &kinds);
    (solvable, solutions)
}

/// True when some face of `p` holds a piece with squares.
fn has_pieces(p: &Puzzle) -> bool {
    p.positions().any(|q| {
        matches!(&p.cell(q).symbol, Some(s) if matches!(&s.kind, SymbolKind::Poly(x) if x.size() > 0))
    })
}

/// The frames [`run_kinds`] keeps: any, or only pillars, or only
/// symmetry panels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Frames {
    Any,
    Pillars,
    Symmetry,
    /// No pillar, and the starts and ends moved to the grid's border
    /// (where the SAT engine's region labels apply).
    Border,
}

/// Moves the starts and ends of `p` to random slots of the grid's border
/// (nodes and edges; mirrored with symmetry), one of each at least.
fn to_border(r: &mut Rng, p: &mut Puzzle) {
    let (w, h) = (p.width(), p.height());
    let border: Vec<Pos> = p
        .positions()
        .filter(|q| q.kind() != SlotKind::Face)
        .filter(|q| q.x == 0 || q.y == 0 || q.x + 1 == w || q.y + 1 == h)
        .collect();
    for q in p.positions().collect::<Vec<_>>() {
        let c = p.cell_mut(q);
        c.start = false;
        c.end = None;
    }
    place_start_end(r, p, &border);
    if p.symmetry.is_some() {
        mirror_starts_and_ends(p, r.chance(80));
    }
}

/// [`run_cases`] with panels of `kinds` of faces, in turn; also returns
/// how many solvable panels hold a piece.
fn run_kinds(seed: u64, cases: u64, undirected: bool, kinds: &[Faces]) -> (u64, u64, u64) {
    run_frames(seed, cases, undirected, kinds, Frames::Any)
}

/// [`run_kinds`] on the random panels whose frame `frames` keeps (the
/// others are drawn and dropped).
fn run_frames(
    seed: u64,
    cases: u64,
    undirected: bool,
    kinds: &[Faces],
    frames: Frames,
) -> (u64, u64, u64) {
    let var = common::env_u64;
    let mut r = Rng(var("SAT_EXACT_SEED").unwrap_or(seed));
    let cases = var("SAT_EXACT_CASES").unwrap_or(cases);
    let (mut solvable, mut solutions, mut pieces) = (0, 0, 0);
    for case in 0..cases {
        let faces = kinds[(case % kinds.len() as u64) as usize];
        let mut p = loop {
            let p = match case % 3 {
                0 => random_panel(&mut r, 3, faces, 8, 6),
                1 => random_panel(&mut r, 3, faces, 4, 2),
                _ => random_panel(&mut r, 4, faces, 10, 1),
            };
            let keep = match frames {
                Frames::Any => true,
                Frames::Pillars => p.pillar(),
                Frames::Symmetry => p.symmetry.is_some(),
                Frames::Border => !p.pillar(),
            };
            let mut p = p;
            if frames == Frames::Border {
                to_border(&mut r, &mut p);
            }
            if keep {
                break p;
            }
        };
        p.undirected = undirected;
        let n = assert_agrees(case, &p);
        solvable += (n > 0) as u64;
        solutions += n;
        pieces += (n > 0 && has_pieces(&p)) as u64;
    }
    (solvable, solutions, pieces)
}

#[test]
fn sat_finds_the_brute_force_solutions_on_random_panels() {
    let (solvable, solutions) = run_cases(0x5A7_C0DE_F00D, 1200, false);
    // A fair share of solvable panels, or the comparison says little.
    assert!(
        solvable > 400 && solutions > 10_000,
        "only {solvable} solvable panels, {solutions} solutions"
    );
    // The eager clauses of stars and squares were there on many panels.
    let eager = EAGER.get();
    assert!(eager > 1000, "only {eager} eager clauses");
}

#[test]
fn sat_counts_undirected_panels_as_the_brute_force() {
    let (solvable, _) = run_cases(0x0BAC_CA5E, 400, true);
    assert!(solvable > 150, "only {solvable} solvable panels");
}

/// Panels with polyominoes (fixed, rotatable, disconnected; beside
/// squares, stars, triangles, and elimination marks; on pillars and with
/// symmetry among the random frames): the brute force's solutions.
#[test]
fn sat_finds_the_brute_force_solutions_with_pieces() {
    let kinds = [Faces::Pieces, Faces::PiecesMarks, Faces::Monos];
    let (solvable, solutions, _) = run_kinds(0x9013_0A1E, 900, false, &kinds);
    // Every panel holds a piece; a fair share of them are solvable, with
    // a few solutions each on average (solutions per panel vary a great
    // deal, so the bound is on the average, with room for any seed).
    assert!(
        solvable > 250 && solutions > 3 * solvable,
        "only {solvable} solvable panels, {solutions} solutions"
    );
}

/// A panel of `w` x `h` faces with a start at the top left and an end at
/// the bottom right, and `pieces` (face position, shape) on it.
fn piece_panel(w: usize, h: usize, pieces: &[((usize, usize), Polyomino)]) -> Puzzle {
    let mut p = Puzzle::new(w, h, false).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    p.cell_mut(Pos::new(2 * w, 2 * h)).end = Some(Direction::Down);
    for ((x, y), shape) in pieces {
        p.cell_mut(Pos::new(*x, *y)).symbol = Some(Symbol::new(
            SymbolKind::Poly(shape.clone()),
            COLORS[0].clone(),
        ));
    }
    p
}

/// Hand-made panels where a piece meets a gap or a removed part of the
/// grid: the SAT engine's solutions are the brute force's, and the count
/// says whether the piece may lie across the boundary.
#[test]
fn pieces_across_gaps_and_removed_parts() {
    let domino = Polyomino::new([(0, 0), (1, 0)], false);
    let tromino = Polyomino::new([(0, 0), (1, 0), (2, 0)], false);
    let mut cases: Vec<(String, Puzzle, bool)> = Vec::new();
    // A broken edge between the two faces: the line cannot take it, the
    // region joins across it, and the domino lies across it.
    let mut p = piece_panel(2, 1, &[((1, 1), domino.clone())]);
    p.cell_mut(Pos::new(2, 1)).gap = Gap::Break;
    cases.push(("a domino across a broken edge".into(), p, true));
    // A removed edge inside the panel (not joined to the border through
    // removed edges): an ordinary empty slot; the domino lies across it.
    let mut p = piece_panel(2, 1, &[((1, 1), domino.clone())]);
    p.cell_mut(Pos::new(2, 1)).gap = Gap::Full;
    cases.push(("a domino across an inner removed edge".into(), p, true));
    // A removed top edge of the middle face of three: that face is
    // outside the panel, so a straight tromino fits nowhere, and a
    // domino on the left face neither.
    for (what, shape) in [("tromino", &tromino), ("domino", &domino)] {
        let mut p = piece_panel(3, 1, &[((1, 1), shape.clone())]);
        p.cell_mut(Pos::new(3, 0)).gap = Gap::Full;
        cases.push((format!("a {what} beside a removed face"), p, false));
    }
    // The same removed face in a panel two faces high: an L of three
    // fits the left column and the face below the removed one, a
    // standing domino the right column; nothing lies across the removed
    // face.
    let ell = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
    let standing = Polyomino::new([(0, 0), (0, 1)], false);
    let mut p = piece_panel(3, 2, &[((1, 1), ell), ((5, 3), standing)]);
    p.cell_mut(Pos::new(3, 0)).gap = Gap::Full;
    cases.push(("an L and a domino around a removed face".into(), p, true));
    // A straight tromino in a row of three whose middle face is cut off
    // from the outside by removed edges on both sides: the removed edges
    // are inside the panel, the tromino lies across both.
    let mut p = piece_panel(3, 1, &[((1, 1), tromino.clone())]);
    p.cell_mut(Pos::new(2, 1)).gap = Gap::Full;
    p.cell_mut(Pos::new(4, 1)).gap = Gap::Full;
    cases.push(("a tromino across two inner removed edges".into(), p, true));
    // Two cells with a face between them, on a pillar three faces round
    // and one high, and a single cell: together they cover the ring, the
    // pair wrapping round where it starts right of the first column.
    let split = Polyomino::new([(0, 0), (2, 0)], false);
    let mut p = Puzzle::new(3, 1, true).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    p.cell_mut(Pos::new(0, 2)).end = Some(Direction::Down);
    for (x, shape) in [(1, split), (3, Polyomino::new([(0, 0)], false))] {
        p.cell_mut(Pos::new(x, 1)).symbol =
            Some(Symbol::new(SymbolKind::Poly(shape), COLORS[0].clone()));
    }
    cases.push(("a split pair round a pillar".into(), p, true));
    for (i, (name, p, solvable)) in cases.iter().enumerate() {
        let n = assert_agrees(i as u64, p);
        assert_eq!(n > 0, *solvable, "{name}: {n} solutions on\n{}", show(p));
    }
}

/// Panels with subtractive polyominoes beside pieces (fixed, rotatable,
/// disconnected; squares, stars, elimination marks): the brute force's
/// solutions.
#[test]
fn sat_finds_the_brute_force_solutions_with_subtractive_pieces() {
    let (solvable, solutions, pieces) = run_kinds(0x7105_5AB7, 200, false, &[Faces::Ylops]);
    assert!(
        solvable > 15 && solutions > 3 * solvable && pieces > 12,
        "only {solvable} solvable panels ({pieces} with pieces), {solutions} solutions"
    );
}

/// Panels with elimination marks beside subtractive pieces and pieces
/// (a mark may erase a piece, a subtractive piece, a square or another
/// mark): the brute force's solutions.
#[test]
fn sat_finds_the_brute_force_solutions_with_marks_and_subtractive_pieces() {
    let (solvable, solutions, pieces) = run_kinds(0x3A2C_5AB7, 100, false, &[Faces::YlopsMarks]);
    assert!(
        solvable > 25 && solutions > 10 * solvable && pieces > 15,
        "only {solvable} solvable panels ({pieces} with pieces), {solutions} solutions"
    );
}

/// A 2x2 panel whose mark erases a subtractive piece that is a star's
/// partner: a white star over a white square on the right, a white
/// subtractive monomino below the star, a black mark beside it; the line
/// from the top left corner to the bottom right one. A line round the
/// border (either way) keeps one region: the star has two partners (the
/// square and the subtractive piece) and the subtractive piece alone has
/// a net area of -1; the mark erases the subtractive piece, and the star
/// is left with the square, so both lines solve the panel. A line that
/// walls the mark off alone leaves the star with its two partners and no
/// mark, and the engine cuts "a slot between the star and its two
/// partners is covered, or a mark erases one of the three", which the
/// lines round the border meet only by a star's flag that the mark
/// lends (the subtractive piece has none: `Parts::star_cuts`). The SAT
/// engine's solutions are the brute force's, those two among them.
#[test]
fn a_mark_that_erases_a_subtractive_partner_of_a_star() {
    use witness::model::Color;
    let mut p = Puzzle::new(2, 2, false).unwrap();
    p.cell_mut(Pos::new(0, 0)).start = true;
    p.cell_mut(Pos::new(4, 4)).end = Some(Direction::Down);
    let sym = |kind, color| Some(Symbol::new(kind, color));
    p.cell_mut(Pos::new(1, 1)).symbol = sym(SymbolKind::Star, Color::White);
    p.cell_mut(Pos::new(3, 1)).symbol = sym(SymbolKind::Square, Color::White);
    p.cell_mut(Pos::new(1, 3)).symbol = sym(
        SymbolKind::Ylop(Polyomino::new([(0, 0)], false)),
        Color::White,
    );
    p.cell_mut(Pos::new(3, 3)).symbol = sym(SymbolKind::Nega, Color::Black);
    let want = common::brute_solutions(&p);
    for round in ["0,0:R4D4", "0,0:D4R4"] {
        let round = Path::parse(round).unwrap();
        assert!(want.contains(&round), "{round:?} not in {want:?}");
    }
    assert_eq!(assert_agrees(0, &p), want.len() as u64);
}

/// Panels with pieces on pillars, and with symmetry: the brute force's
/// solutions.
#[test]
fn sat_finds_the_brute_force_solutions_with_pieces_on_pillars_and_symmetry() {
    let kinds = [Faces::Pieces, Faces::Ylops, Faces::Monos];
    // Symmetry leaves few panels of pieces solvable.
    let runs = [
        (Frames::Pillars, 0x9111_A125, 40, 500),
        (Frames::Symmetry, 0x5E7E_7121, 20, 150),
    ];
    for (frames, seed, least, most) in runs {
        let (solvable, solutions, pieces) = run_frames(seed, 240, false, &kinds, frames);
        assert!(
            solvable > least && solutions > most && pieces > least,
            "{frames:?}: only {solvable} solvable panels ({pieces} with pieces), {solutions} solutions"
        );
    }
}

/// Panels of pieces (beside squares, stars, triangles, elimination marks,
/// subtractive pieces) without pillars, their starts and ends on the
/// grid's border, where the SAT engine can add the pieces' region labels:
/// the brute force's solutions, with the labels.
#[test]
fn sat_finds_the_brute_force_solutions_with_pieces_and_border_ends() {
    let kinds = [
        Faces::Pieces,
        Faces::PiecesMarks,
        Faces::Monos,
        Faces::Ylops,
    ];
    LABELS.set(true);
    LABELLED.set(0);
    let (solvable, solutions, pieces) = run_frames(0xB0_4DE2, 600, false, &kinds, Frames::Border);
    assert!(
        solvable > 150 && solutions > 3 * solvable && pieces > 100,
        "only {solvable} solvable panels ({pieces} with pieces), {solutions} solutions"
    );
    // Every panel not counted in the selector mode has the labels.
    let labelled = LABELLED.get();
    assert!(labelled >= 350, "labels on {labelled} panels only");
}

/// A cancelled run stops at once with nothing found, and says so.
#[test]
fn cancel_stops_the_sat_engine() {
    let mut p = Puzzle::new(6, 6, false).unwrap();
    p.cell_mut(Pos::new(0, 12)).start = true;
    p.cell_mut(Pos::new(12, 0)).end = Some(Direction::Up);
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits::none().with_cancel(flag);
    let sol = witness::solve(
        &p,
        &SolveOptions::default()
            .with_limits(limits.clone())
            .with_engine(Engine::Sat),
    )
    .unwrap();
    assert_eq!((sol.path.is_none(), sol.status), (true, Status::Stopped));
    let c = witness::count(
        &p,
        &CountOptions::default()
            .with_limits(limits)
            .with_engine(Engine::Sat),
    )
    .unwrap();
    assert_eq!(c.status, Status::Stopped);
}

/// Counts `p` to `limit` as `auto` counts piece panels
/// (`count_plan_with` with the puzzle, the engine's order stopped at
/// once so that the part on two threads runs) and checks the count
/// against the brute force's: its count up to the limit, complete exactly
/// when it is below the limit, every solution kept one of the brute
/// force's. Returns the brute force's solutions and the plan.
fn limited_count_agrees(
    case: u64,
    p: &Puzzle,
    limit: u64,
) -> (HashSet<Path>, witness::internals::plan::Plan) {
    limited_count_agrees_with(case, p, limit, &witness::internals::Schedule::default())
}

/// [`limited_count_agrees`] with the turns of `schedule`.
fn limited_count_agrees_with(
    case: u64,
    p: &Puzzle,
    limit: u64,
    schedule: &witness::internals::Schedule,
) -> (HashSet<Path>, witness::internals::plan::Plan) {
    let all: HashSet<Path> = common::brute_solutions(p).into_iter().collect();
    let n = all.len() as u64;
    let plan = witness::internals::plan::Plan::new(p).unwrap();
    let c = witness::internals::count_plan_with(
        &plan,
        Some(limit),
        &Limits::none(),
        0,
        schedule,
        Some(p),
    )
    .unwrap();
    assert_eq!(
        (c.count.to_u64(), c.status == Status::Complete),
        (Some(n.min(limit)), n < limit),
        "case {case}: limit {limit}, {n} solutions, on\n{}",
        show(p)
    );
    for s in &c.solutions {
        assert!(
            all.contains(s),
            "case {case}: {s:?} is no solution of\n{}",
            show(p)
        );
    }
    (all, plan)
}

/// On a machine with two cores a count has a helper thread, which must
/// have left its mark: its counter went from `before` to `now`, past it
/// (`what` says what did not happen). On one core there is no helper.
#[track_caller]
fn helper_ran(now: u64, before: u64, what: &str) {
    if std::thread::available_parallelism().is_ok_and(|n| n.get() >= 2) {
        assert!(now > before, "{what}");
    } else {
        eprintln!("one core: the count has no second thread, and no helper");
    }
}

/// Random panels of pieces (plain, monominoes, subtractive), a fifth of
/// them undirected, each with the limit of its count (1 to 3): `cases`
/// of them from `seed` (SAT_EXACT_SEED and SAT_EXACT_CASES by hand).
fn limited_piece_counts(seed: u64, cases: u64) -> Vec<(u64, Puzzle, u64)> {
    let var = common::env_u64;
    let mut r = Rng(var("SAT_EXACT_SEED").unwrap_or(seed));
    let kinds = [Faces::Pieces, Faces::Monos, Faces::Ylops];
    (0..var("SAT_EXACT_CASES").unwrap_or(cases))
        .map(|case| {
            let faces = kinds[(case % kinds.len() as u64) as usize];
            let mut p = random_panel(&mut r, 3, faces, 6, 3);
            p.undirected = case % 5 == 4;
            (case, p, 1 + case % 3)
        })
        .collect()
}

/// Counts to a small limit on piece panels whose second thread runs the
/// SAT engine's count first (`count_plan_pieces`, as `auto` counts such
/// panels; here the engine's order stops at once, so the part on two
/// threads always runs): the brute force's count up to the limit,
/// complete exactly when it is below the limit, every solution kept one
/// of the brute force's (which are drawn from their earlier end on
/// undirected panels, a fifth of these). On a machine with two cores the
/// SAT side must have handed on solutions. More by hand: SAT_EXACT_SEED,
/// SAT_EXACT_CASES.
#[test]
fn limited_counts_with_the_sat_helper_agree_with_brute_force() {
    use std::sync::atomic::Ordering::Relaxed;
    let handed = || witness::internals::portfolio::SAT_HELPER_SOLUTIONS.load(Relaxed);
    let before = handed();
    let mut reached = 0;
    for (case, p, limit) in limited_piece_counts(0x5A7_4E1F, 200) {
        let (all, plan) = limited_count_agrees(case, &p, limit);
        let n = all.len() as u64;
        // The SAT side alone, on the directed panels it runs on: the
        // brute force's lines, as the count's set holds them.
        if !p.undirected {
            let (seen, complete) = witness::internals::portfolio::sat_side_alone(&plan, &p, limit);
            let lines: HashSet<(usize, Vec<Direction>)> = all
                .iter()
                .map(|q| (p.index(q.start), q.moves.clone()))
                .collect();
            assert!(
                seen.is_subset(&lines) && (complete == (n < limit)),
                "case {case}: the SAT side alone, limit {limit}: {seen:?} of {lines:?} on\n{}",
                show(&p)
            );
            assert!(
                seen.len() as u64 >= n.min(limit),
                "case {case}: the SAT side alone found {} of {n}, limit {limit}, on\n{}",
                seen.len(),
                show(&p)
            );
        }
        reached += (n >= limit) as u32;
    }
    assert!(reached > 20, "only {reached} panels reached the limit");
    helper_ran(handed(), before, "the SAT side handed on no solution");
}

/// The same counts where no second thread is to be had (from a pool of
/// two threads, as `witness bench` runs several counts at once): the SAT
/// engine's count runs first on the count's own thread
/// (`portfolio::distinct_solutions_sat_first`, here with the search
/// before it cut to the least), then the search goes on with what it
/// found. The brute force's count up to the limit, complete
/// exactly when it is below the limit, every solution kept one of the
/// brute force's; some counts came to the SAT engine's turn (on any
/// machine: it needs no second core). More by hand: SAT_EXACT_SEED, SAT_EXACT_CASES.
#[test]
fn limited_counts_with_the_sat_engine_first_on_one_thread_agree_with_brute_force() {
    use std::sync::atomic::Ordering::Relaxed;
    let turns = || witness::internals::portfolio::SAT_FIRST_RUNS.load(Relaxed);
    let before = turns();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    // The SAT engine's turn as soon as the search first looks at its
    // limits (every thousand nodes or so), on the counts it has not
    // settled by then.
    let at_once = witness::internals::Schedule {
        sat_after: std::time::Duration::ZERO,
        ..Default::default()
    };
    let mut reached = 0;
    for (case, p, limit) in limited_piece_counts(0x0E7_F125, 150) {
        let (all, _) = pool.install(|| limited_count_agrees_with(case, &p, limit, &at_once));
        reached += (all.len() as u64 >= limit) as u32;
    }
    assert!(reached > 15, "only {reached} panels reached the limit");
    // Only these counts take the turn (the counter is shared with the
    // tests running beside this one).
    assert!(turns() > before, "no count came to the SAT engine's turn");
}

/// Counts to a small limit on marked piece panels (directed, no symmetry)
/// as `auto` counts them (`count_plan_with` with the puzzle, the engine's
/// order stopped at once so that the part on two threads runs): where the
/// panel has elimination cases, the helper thread asks the SAT engine
/// about them beside the local search and blocks each solution it finds.
/// The brute force's count up to the limit, complete exactly when it is
/// below the limit, every solution kept one of the brute force's; on a
/// machine with two cores the helper ran. On panels this small the
/// exact side mostly settles the count before the helper's SAT engine
/// starts, so this checks the wiring (the solutions the helper hands on
/// join the count's); the helper's own proof and its solutions are
/// checked against the brute force by
/// `the_helpers_count_turns_find_every_solution`. More by hand:
/// SAT_EXACT_SEED, SAT_EXACT_CASES.
#[test]
fn limited_counts_of_marked_piece_panels_agree_with_brute_force() {
    use std::sync::atomic::Ordering::Relaxed;
    let runs = || witness::internals::portfolio::CUBES_HELPER_COUNTS.load(Relaxed);
    let before = runs();
    let var = common::env_u64;
    let mut r = Rng(var("SAT_EXACT_SEED").unwrap_or(0xCA5E_C0B5));
    let (mut reached, mut complete) = (0, 0);
    let n = var("SAT_EXACT_CASES").unwrap_or(120);
    for case in 0..3 * n {
        if !common::goes_on(case, n, reached > 20 && complete > 20) {
            break;
        }
        let faces = [Faces::PiecesMarks, Faces::YlopsMarks][case as usize % 2];
        let p = random_panel(&mut r, 3, faces, 6, 3);
        if p.symmetry.is_some() || p.undirected {
            continue;
        }
        let limit = 1 + case % 3;
        let (all, _) = limited_count_agrees(case, &p, limit);
        let n = all.len() as u64;
        reached += u32::from(n >= limit);
        complete += u32::from(n < limit);
    }
    assert!(
        reached > 20 && complete > 20,
        "{reached} panels reached the limit, {complete} did not"
    );
    helper_ran(
        runs(),
        before,
        "no count ran the cubes on its helper thread",
    );
}

/// Solves and counts on one thread of marked piece panels (directed, no
/// symmetry) with the SAT engine's case cubes taking turns with the lanes
/// (`portfolio::CaseShare::alone_with_sat`, as `auto` runs them where no
/// second thread is to be had: a pool of two threads), here from the
/// start and beside lanes of short turns, so that the cubes take part on
/// panels this small: a solve answers without limits, with one of the
/// brute force's solutions or, only when it has none, with a proof; a
/// count to a small limit gives the brute force's count up to the limit,
/// complete exactly when it is below it, every solution kept one of the
/// brute force's. The counts go to the cubes as `auto` sends them (a
/// count of a piece panel from a pool of two threads), so only the panels
/// with elimination cases are counted here. The cubes took turns in the
/// solves and in the counts. More by hand: SAT_EXACT_SEED,
/// SAT_EXACT_CASES.
#[test]
fn solves_and_counts_with_the_cubes_on_one_thread_agree_with_brute_force() {
    // The cubes' turns on the thread that runs the job (this one for the
    // solves, the pool's for the counts).
    let turns = witness::internals::portfolio::cube_turns_here;
    // Turns in the solves and in the counts, apart.
    let (mut in_solves, mut in_counts) = (0, 0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let at_once = witness::internals::Schedule {
        first: 16,
        most: 256,
        cubes_alone_after: std::time::Duration::ZERO,
        ..Default::default()
    };
    let var = common::env_u64;
    let mut r = Rng(var("SAT_EXACT_SEED").unwrap_or(0xC0_BE5A));
    let (mut solvable, mut none, mut reached) = (0, 0, 0);
    let n = var("SAT_EXACT_CASES").unwrap_or(150);
    for case in 0..3 * n {
        let enough = solvable > 20 && none > 20 && reached > 20;
        if !common::goes_on(case, n, enough) {
            break;
        }
        let faces = [Faces::PiecesMarks, Faces::YlopsMarks][case as usize % 2];
        let p = random_panel(&mut r, 3, faces, 6, 3);
        if p.symmetry.is_some() || p.undirected {
            continue;
        }
        let all: HashSet<Path> = common::brute_solutions(&p).into_iter().collect();
        let plan = witness::internals::plan::Plan::new(&p).unwrap();
        if witness::internals::mark_cases::case_count(&plan).is_none() {
            continue;
        }
        let before = turns();
        let s = witness::internals::solve_plan_cube_turns(&p, &plan, &Limits::none(), &at_once)
            .unwrap();
        in_solves += turns() - before;
        assert_eq!(s.status, Status::Complete, "case {case}: on\n{}", show(&p));
        match &s.path {
            Some(path) => assert!(
                all.contains(path),
                "case {case}: {path:?} is no solution of\n{}",
                show(&p)
            ),
            None => assert!(
                all.is_empty(),
                "case {case}: \"none\" on a panel with {} solutions:\n{}",
                all.len(),
                show(&p)
            ),
        }
        solvable += u32::from(!all.is_empty());
        none += u32::from(all.is_empty());
        let limit = 1 + case % 3;
        let (all, took) = pool.install(|| {
            let before = turns();
            let (all, _) = limited_count_agrees_with(case, &p, limit, &at_once);
            (all, turns() - before)
        });
        in_counts += took;
        reached += u32::from(all.len() as u64 >= limit);
    }
    assert!(
        solvable > 20 && none > 20 && reached > 20,
        "{solvable} solvable, {none} not, {reached} counts reached the limit"
    );
    assert!(
        in_solves > 0 && in_counts > 0,
        "the cubes took {in_solves} turns in the solves, {in_counts} in the counts"
    );
}

/// The helper thread of a marked panel's solve under `auto`
/// (`portfolio::helper_turns`: a local search and the SAT engine by
/// turns), on marked panels with and without pieces, with the local
/// search and with the SAT engine's turns alone:
/// an answer always comes without limits, a solution is one of the brute
/// force's, and "none" (which only the SAT engine proves) only when the
/// brute force has none. Both kinds of answer occur. More by hand:
/// SAT_EXACT_SEED, SAT_EXACT_CASES.
#[test]
fn the_helpers_turns_agree_with_brute_force() {
    use witness::internals::portfolio::helper_turns;
    let var = common::env_u64;
    let mut r = Rng(var("SAT_EXACT_SEED").unwrap_or(0x7E1_9E25));
    let (mut solvable, mut proved) = (0, 0);
    let n = var("SAT_EXACT_CASES").unwrap_or(150);
    for case in 0..3 * n {
        if !common::goes_on(case, n, solvable > 20 && proved > 20) {
            break;
        }
        // Pieces on a third of them (the SAT engine's turns wait for the
        // local search's head start there).
        let faces = if case % 3 == 2 {
            Faces::PiecesMarks
        } else {
            Faces::Marks
        };
        let p = random_panel(&mut r, 3, faces, 6, 3);
        let lines: HashSet<(usize, Vec<Direction>)> = common::brute_solutions(&p)
            .iter()
            .map(|q| (p.index(q.start), q.moves.clone()))
            .collect();
        let plan = witness::internals::plan::Plan::new(&p).unwrap();
        for local in [true, false] {
            match helper_turns(&plan, &p, &Limits::none(), local) {
                Some(Some((start, _, moves))) => assert!(
                    lines.contains(&(start, moves.clone())),
                    "case {case} (local {local}): {start} {moves:?} is no solution of\n{}",
                    show(&p)
                ),
                Some(None) => assert!(
                    lines.is_empty(),
                    "case {case} (local {local}): \"none\" on a panel with {} solutions:\n{}",
                    lines.len(),
                    show(&p)
                ),
                None => panic!("case {case} (local {local}): no answer on\n{}", show(&p)),
            }
        }
        solvable += u32::from(!lines.is_empty());
        proved += u32::from(lines.is_empty());
    }
    assert!(
        solvable > 20 && proved > 20,
        "{solvable} solvable, {proved} not"
    );
}

/// The helper thread of a marked panel's count (`portfolio::helper_turns_visit`
/// with blocking: a local search and the SAT engine asking about one case
/// at a time by turns, each SAT solution blocked once found), with the
/// local search and with the SAT engine's turns alone: without limits it
/// ends with a proof, and the solutions it handed on are exactly the
/// brute force's. More by hand: SAT_EXACT_SEED, SAT_EXACT_CASES.
#[test]
fn the_helpers_count_turns_find_every_solution() {
    use witness::internals::portfolio::helper_turns_visit;
    let var = common::env_u64;
    let mut r = Rng(var("SAT_EXACT_SEED").unwrap_or(0xC0_07ED));
    let (mut panels, mut many) = (0, 0);
    let n = var("SAT_EXACT_CASES").unwrap_or(150);
    for case in 0..3 * n {
        if !common::goes_on(case, n, panels > 120 && many > 40) {
            break;
        }
        let faces = [Faces::Marks, Faces::PiecesMarks][case as usize % 2];
        let p = random_panel(&mut r, 3, faces, 6, 3);
        if p.undirected {
            // A line and its reverse are one solution there, which the
            // brute force draws from either end.
            continue;
        }
        let lines: HashSet<(usize, Vec<Direction>)> = common::brute_solutions(&p)
            .iter()
            .map(|q| (p.index(q.start), q.moves.clone()))
            .collect();
        let plan = witness::internals::plan::Plan::new(&p).unwrap();
        for local in [true, false] {
            let mut seen = HashSet::new();
            let proved = helper_turns_visit(&plan, &p, &Limits::none(), local, true, &mut |a| {
                seen.insert((a.0, a.2));
                true
            });
            assert!(
                proved,
                "case {case} (local {local}): no proof on\n{}",
                show(&p)
            );
            assert_eq!(
                seen,
                lines,
                "case {case} (local {local}): the solutions handed on, on\n{}",
                show(&p)
            );
        }
        panels += 1;
        many += u32::from(lines.len() >= 2);
    }
    assert!(
        panels > 120 && many > 40,
        "{panels} panels, {many} with two solutions or more"
    );
}

/// The SAT engine asking about one elimination case at a time
/// (`sat::cubes::CaseCubes`) on marked panels, with and without pieces
/// and subtractive pieces: without limits it always answers, a solution
/// is one of the brute force's, and "none" only when the brute force has
/// none, in one turn or in many short ones. A good share of the
/// solutions come while cases are still open (the cases' assumptions
/// find them), and some panels are proved unsolvable (by the run without
/// assumptions, once the cases are dropped). More by hand:
/// SAT_EXACT_SEED, SAT_EXACT_CASES.
#[test]
fn case_cubes_agree_with_brute_force() {
    use witness::internals::sat::cubes::CaseCubes;
    let var = common::env_u64;
    let mut r = Rng(var("SAT_EXACT_SEED").unwrap_or(0xC0BE_5EED));
    let (mut by_case, mut proved, mut panels) = (0, 0, 0);
    let n = var("SAT_EXACT_CASES").unwrap_or(300);
    for case in 0..3 * n {
        if !common::goes_on(case, n, panels > 250 && by_case > 40 && proved > 80) {
            break;
        }
        let faces = [Faces::Marks, Faces::PiecesMarks, Faces::YlopsMarks][case as usize % 3];
        let p = random_panel(&mut r, 3, faces, 6, 3);
        let Ok(mut cubes) = CaseCubes::new(&p, &Limits::none()) else {
            continue;
        };
        panels += 1;
        let lines: HashSet<(usize, Vec<Direction>)> = common::brute_solutions(&p)
            .iter()
            .map(|q| (p.index(q.start), q.moves.clone()))
            .collect();
        let had = cubes.open();
        // Half the panels in one turn without limits, half in turns of
        // 0.2 ms (cases cut short by the turn's end, and taken up again).
        let sol = if case % 2 == 0 {
            cubes.turn(&Limits::none(), Duration::MAX).unwrap()
        } else {
            // Each turn's time counts towards the case due, so the cases'
            // budgets run out and the run without assumptions answers.
            let mut turns = 0;
            loop {
                let s = cubes
                    .turn(&Limits::none(), Duration::from_micros(200))
                    .unwrap();
                if s.path.is_some() || s.status == Status::Complete {
                    break s;
                }
                turns += 1;
                assert!(turns < 200_000, "case {case}: no answer in short turns");
            }
        };
        match sol.path {
            Some(path) => {
                // A line and its reverse are one solution of an
                // undirected panel; the brute force draws it from either end.
                let fwd = (p.index(path.start), path.moves.clone());
                assert!(
                    witness::check(&p, &path).unwrap().valid,
                    "case {case}: {fwd:?} is refused on\n{}",
                    show(&p)
                );
                assert!(
                    lines.contains(&fwd) || p.undirected,
                    "case {case}: {fwd:?} is no solution of\n{}",
                    show(&p)
                );
                assert!(!lines.is_empty(), "case {case}: a path on\n{}", show(&p));
                by_case += u32::from(had > 0 && cubes.open() > 0);
            }
            None => {
                assert_eq!(sol.status, Status::Complete, "case {case}");
                assert!(
                    lines.is_empty(),
                    "case {case}: \"none\" on a panel with {} solutions:\n{}",
                    lines.len(),
                    show(&p)
                );
                proved += 1;
            }
        }
    }
    assert!(
        panels > 250 && by_case > 40 && proved > 80,
        "{panels} panels: {by_case} solved under a case, {proved} proved unsolvable"
    );
}

/// The SAT engine against the brute force under the settings that change
/// how pieces and marks are judged (`precise_polyominos` off,
/// `shapeless_zero_poly`, `negations_cancel_negations`), on panels of
/// pieces, single squares and subtractive pieces, with and without marks,
/// a seventh of them undirected. More by hand: SAT_EXACT_SEED,
/// SAT_EXACT_CASES.
#[test]
fn sat_finds_the_brute_force_solutions_under_other_piece_and_mark_settings() {
    let var = common::env_u64;
    let mut r = Rng(var("SAT_EXACT_SEED").unwrap_or(0x7E57_0001));
    let kinds = [
        Faces::Pieces,
        Faces::Monos,
        Faces::Ylops,
        Faces::PiecesMarks,
        Faces::YlopsMarks,
    ];
    let cases = var("SAT_EXACT_CASES").unwrap_or(600);
    let mut solvable = 0;
    for case in 0..cases {
        let faces = kinds[(case % kinds.len() as u64) as usize];
        let mut p = match case % 3 {
            0 => random_panel(&mut r, 3, faces, 8, 6),
            1 => random_panel(&mut r, 3, faces, 4, 2),
            _ => random_panel(&mut r, 4, faces, 10, 1),
        };
        p.settings.precise_polyominos = case % 4 < 2;
        p.settings.shapeless_zero_poly = case % 2 == 0;
        p.settings.negations_cancel_negations = r.chance(50);
        p.undirected = case % 7 == 3;
        solvable += u64::from(assert_agrees(case, &p) > 0);
    }
    assert!(
        solvable > cases / 10 && solvable < cases * 9 / 10,
        "{solvable} of {cases} solvable"
    );
}

/// The SAT engine's clauses have ceilings ([`Options::max_lits`] for the
/// encoding, [`Options::max_run_lits`] with the cuts and blocking clauses
/// of a run): a panel whose encoding passes the first is refused with a
/// size error before a solver call, and a count whose cuts and blocking
/// clauses pass the second stops with that error.
#[test]
fn the_sat_engine_gives_up_past_its_clause_ceilings() {
    let ell = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
    let domino = Polyomino::new([(0, 0), (1, 0)], false);
    let p = piece_panel(4, 4, &[((1, 1), ell), ((5, 5), domino)]);
    let enc = |max_lits, max_run_lits| {
        let opts = Options {
            max_lits,
            max_run_lits,
            ..Options::default()
        };
        SatRun::with_options(&p, &Limits::none(), &opts)
    };
    // Far below the placements' clauses: refused at once.
    match enc(50, 50) {
        Err(witness::Error::Size(m)) => {
            assert!(m.contains("encoding") && m.contains("50 literals"), "{m}")
        }
        Err(e) => panic!("a size error, not {e}"),
        Ok(_) => panic!("a size error, not an encoding"),
    }
    // With room for the encoding and more, the count is the search's.
    let defaults = Options::default();
    let lits = enc(defaults.max_lits, defaults.max_run_lits)
        .expect("an encoding")
        .encoded_lits();
    assert!(lits > 50);
    let all = witness::count(&p, &witness::CountOptions::default()).unwrap();
    assert!(all.count.to_u64().is_some_and(|n| n > 1));
    let mut roomy = enc(lits, lits + 1_000_000).expect("an encoding");
    let c = roomy.count(None, &Limits::none(), |_| true).unwrap();
    assert_eq!((c.count, c.status), (all.count.clone(), Status::Complete));
    // Room for the encoding alone: the first cut or blocking clause
    // passes the ceiling, and the count stops with a size error.
    let mut tight = enc(lits, lits).expect("an encoding within its ceiling");
    match tight.count(None, &Limits::none(), |_| true) {
        Err(witness::Error::Size(m)) => assert!(m.contains("with its cuts"), "{m}"),
        other => panic!("a size error once the cuts pass the ceiling, not {other:?}"),
    }
}

//! Snapshot tests of the renderers: panels covering every element type,
//! symmetry, a pillar and outside faces, drawn as SVG and as terminal text
//! and compared with the files in `tests/snapshots/`. Run with
//! `UPDATE_SNAPSHOTS=1` to rewrite them after a deliberate change (and look
//! at the new images before committing them).

use std::path::PathBuf;

use witness::model::{
    Color, Direction, Dot, Gap, Polyomino, Pos, Puzzle, Symbol, SymbolKind, Symmetry, ROTATION_BIT,
};
use witness::render::{self, SvgOptions};
use witness::Path;

fn snapshot_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots")
}

/// Compares `actual` with the stored snapshot `name`, or rewrites it when
/// `UPDATE_SNAPSHOTS=1`.
fn check_snapshot(name: &str, actual: &str) {
    let file = snapshot_dir().join(name);
    if std::env::var("UPDATE_SNAPSHOTS").is_ok_and(|v| v == "1") {
        std::fs::create_dir_all(snapshot_dir()).unwrap();
        std::fs::write(&file, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&file).unwrap_or_else(|e| {
        panic!(
            "snapshot {} is missing ({e}); run with UPDATE_SNAPSHOTS=1 to create it",
            file.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name} differs from its snapshot at line {}:\n  expected: {}\n  actual:   {}\n\
             (run with UPDATE_SNAPSHOTS=1 to accept the new output)",
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            actual.lines().nth(line).unwrap_or("<end>")
        );
    }
}

fn sym(kind: SymbolKind, color: Color) -> Option<Symbol> {
    Some(Symbol::new(kind, color))
}

/// Every symbol, every dot, both gaps, starts and ends on nodes and edges,
/// ends in all four directions.
fn elements() -> Puzzle {
    let mut p = Puzzle::new(5, 3, false).unwrap();
    let faces = [
        ((1, 1), sym(SymbolKind::Square, Color::Black)),
        ((3, 1), sym(SymbolKind::Square, Color::White)),
        ((5, 1), sym(SymbolKind::Star, Color::Orange)),
        ((7, 1), sym(SymbolKind::Star, Color::Orange)),
        ((9, 1), sym(SymbolKind::Nega, Color::White)),
        ((1, 3), sym(SymbolKind::Triangle(1), Color::Orange)),
        ((3, 3), sym(SymbolKind::Triangle(2), Color::Orange)),
        ((5, 3), sym(SymbolKind::Triangle(3), Color::Orange)),
        ((7, 3), sym(SymbolKind::Triangle(4), Color::Orange)),
        (
            (9, 3),
            sym(SymbolKind::Square, Color::Other("#c0ffee".into())),
        ),
        (
            (1, 5),
            sym(SymbolKind::Poly(Polyomino::from_mask(71)), Color::Yellow),
        ),
        (
            (3, 5),
            sym(
                SymbolKind::Poly(Polyomino::from_mask(71 | ROTATION_BIT)),
                Color::Yellow,
            ),
        ),
        (
            (5, 5),
            sym(SymbolKind::Ylop(Polyomino::from_mask(0x3)), Color::Blue),
        ),
        (
            (7, 5),
            sym(
                SymbolKind::Ylop(Polyomino::from_mask(0x13 | ROTATION_BIT)),
                Color::Blue,
            ),
        ),
        ((9, 5), sym(SymbolKind::Star, Color::Purple)),
    ];
    for ((x, y), s) in faces {
        p.set_symbol(Pos::new(x, y), s).unwrap();
    }
    p.cell_mut(Pos::new(0, 6)).start = true;
    p.cell_mut(Pos::new(5, 6)).start = true;
    p.cell_mut(Pos::new(10, 0)).end = Some(Direction::Right);
    p.cell_mut(Pos::new(0, 0)).end = Some(Direction::Up);
    p.cell_mut(Pos::new(10, 6)).end = Some(Direction::Down);
    p.cell_mut(Pos::new(0, 3)).end = Some(Direction::Left);
    p.cell_mut(Pos::new(2, 0)).dot = Dot::Black;
    p.cell_mut(Pos::new(4, 2)).dot = Dot::Blue;
    p.cell_mut(Pos::new(6, 4)).dot = Dot::Yellow;
    p.cell_mut(Pos::new(8, 3)).dot = Dot::Invisible;
    p.cell_mut(Pos::new(3, 2)).gap = Gap::Break;
    p.cell_mut(Pos::new(6, 1)).gap = Gap::Break;
    p.cell_mut(Pos::new(8, 5)).gap = Gap::Full;
    p.name = Some("every <element> & \"more\"".into());
    p
}

/// A 4x4 panel with left-right symmetry, coloured dots and both lines.
fn symmetry() -> (Puzzle, Path) {
    let mut p = Puzzle::new(4, 4, false).unwrap();
    p.symmetry = Some(Symmetry { x: true, y: false });
    p.cell_mut(Pos::new(0, 8)).start = true;
    p.cell_mut(Pos::new(8, 8)).start = true;
    p.cell_mut(Pos::new(2, 0)).end = Some(Direction::Up);
    p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Up);
    p.cell_mut(Pos::new(0, 5)).dot = Dot::Blue;
    p.cell_mut(Pos::new(8, 3)).dot = Dot::Yellow;
    p.set_symbol(Pos::new(3, 3), sym(SymbolKind::Square, Color::Black))
        .unwrap();
    p.set_symbol(Pos::new(5, 3), sym(SymbolKind::Square, Color::White))
        .unwrap();
    (p, Path::parse("0,8:U4R2U4").unwrap())
}

/// A pillar 4 faces round and 2 high, its line crossing the seam.
fn pillar() -> (Puzzle, Path) {
    let mut p = Puzzle::new(4, 2, true).unwrap();
    p.cell_mut(Pos::new(2, 4)).start = true;
    p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    p.set_symbol(Pos::new(7, 1), sym(SymbolKind::Triangle(2), Color::Orange))
        .unwrap();
    p.set_symbol(Pos::new(1, 3), sym(SymbolKind::Star, Color::Black))
        .unwrap();
    p.cell_mut(Pos::new(3, 2)).gap = Gap::Full;
    p.cell_mut(Pos::new(2, 1)).gap = Gap::Break;
    (p, Path::parse("2,4:L4U2L2U2").unwrap())
}

/// Removed edges along a side: the faces beyond are outside the panel.
fn outside() -> Puzzle {
    let mut p = Puzzle::new(3, 2, false).unwrap();
    for pos in [(5, 0), (6, 1), (5, 2)] {
        p.cell_mut(Pos::new(pos.0, pos.1)).gap = Gap::Full;
    }
    p.cell_mut(Pos::new(0, 4)).start = true;
    p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Up);
    p.set_symbol(Pos::new(1, 1), sym(SymbolKind::Square, Color::Red))
        .unwrap();
    p
}

fn both(name: &str, puzzle: &Puzzle, path: Option<&Path>, opts: &SvgOptions) {
    check_snapshot(&format!("{name}.svg"), &render::svg(puzzle, path, opts));
    check_snapshot(
        &format!("{name}.txt"),
        &render::terminal(puzzle, path, false),
    );
    check_snapshot(
        &format!("{name}.ansi"),
        &render::terminal(puzzle, path, true),
    );
}

#[test]
fn snapshot_elements() {
    let p = elements();
    both("elements", &p, None, &SvgOptions::default());
}

#[test]
fn snapshot_elements_with_failures() {
    let p = elements();
    let path = Path::parse("0,6:U6R4D2R2").unwrap();
    // Draw a half-finished, illegal line and ring two symbols.
    let opts = SvgOptions {
        highlight: vec![Pos::new(1, 1), Pos::new(2, 0), Pos::new(99, 99)],
    };
    both("elements_failing", &p, Some(&path), &opts);
}

#[test]
fn snapshot_symmetry() {
    let (p, path) = symmetry();
    let v = witness::check(&p, &path).unwrap();
    let opts = SvgOptions {
        highlight: v.invalid.iter().map(|f| f.pos).collect(),
    };
    both("symmetry", &p, Some(&path), &opts);
}

#[test]
fn snapshot_pillar() {
    let (p, path) = pillar();
    assert!(path.trace(&p).is_ok(), "the pillar's path is legal");
    both("pillar", &p, Some(&path), &SvgOptions::default());
    both("pillar_bare", &p, None, &SvgOptions::default());
}

#[test]
fn snapshot_outside() {
    both("outside", &outside(), None, &SvgOptions::default());
}

#[test]
fn svg_is_escaped_and_well_formed() {
    let s = render::svg(&elements(), None, &SvgOptions::default());
    assert!(s.contains("<title>every &lt;element&gt; &amp; &quot;more&quot;</title>"));
    assert!(s.starts_with("<svg ") && s.trim_end().ends_with("</svg>"));
    // Every element is closed: count opening and closing tags of groups.
    assert_eq!(s.matches("<g").count(), s.matches("</g>").count());
    // The invisible dot is not drawn: four dots, three drawn hexagons.
    assert_eq!(s.matches("<polygon").count() - triangle_count(&s), 3);
}

fn triangle_count(s: &str) -> usize {
    // Triangles are three-point polygons.
    s.lines()
        .filter(|l| l.starts_with("<polygon") && l.matches(',').count() == 3)
        .count()
}

#[test]
fn paths_off_the_grid_are_cut_short() {
    let p = outside();
    let path = Path::parse("0,4:R2U200").unwrap();
    let s = render::svg(&p, Some(&path), &SvgOptions::default());
    assert!(s.contains("class=\"line\""));
    let t = render::terminal(&p, Some(&path), false);
    assert!(t.contains('┃'));
    let off = Path::parse("90,90:R").unwrap();
    assert!(!render::svg(&p, Some(&off), &SvgOptions::default()).contains("class=\"line\""));
}

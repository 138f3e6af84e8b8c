//! SVG rendering in the look of the game and of witnesspuzzles.com.
//!
//! Slots are 41 units apart and the centre of slot (0, 0) is at (52, 52),
//! as on the site, so a page can map a pointer position to a slot with
//! `slot = round((coordinate - 52) / 41)`; the root element carries these
//! numbers as `data-unit`, `data-offset`, `data-width` and `data-height`.
//! The panel is the site's light theme: green faces, dark grid lines 24
//! units thick, the line in white (one line) or in cyan and yellow (the
//! two lines of a symmetry puzzle).

use std::collections::HashSet;
use std::fmt::Write;

use crate::model::{
    Color, Direction, Dot, Gap, Polyomino, Pos, Puzzle, SlotKind, Symbol, SymbolKind,
};
use crate::path::Path;

use super::{rgb, Drawn};

/// Distance between two slot centres.
const UNIT: f64 = 41.0;
/// Centre of slot 0 from the image's edge.
const OFFSET: f64 = 52.0;
/// Thickness of grid lines and of the path.
const LINE: f64 = 24.0;
/// Radius of a start circle.
const START_R: f64 = 24.0;
/// Length of an end cap beyond its slot's centre.
const END_LEN: f64 = 24.0;

const OUTER_BACKGROUND: &str = "#113833";
const BACKGROUND: &str = "#0A8";
const FOREGROUND: &str = "#344";
const BORDER: &str = "#000";
const LINE_SINGLE: &str = "#FFF";
const LINE_PRIMARY: &str = "#8FF";
const LINE_SECONDARY: &str = "#FF2";
const ERROR: &str = "#F00";

/// How [`svg`] draws a panel.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SvgOptions {
    /// Slots to mark as failing (a verdict's `invalid`): ringed in red.
    pub highlight: Vec<Pos>,
}

/// A number as SVG text: at most two decimals, no trailing zeros.
fn n(v: f64) -> String {
    let r = (v * 100.0).round() / 100.0;
    let r = if r == 0.0 { 0.0 } else { r };
    let s = format!("{r:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The centre of slot coordinate `i` (x or y), which may be one past either
/// end for a pillar's wrap.
fn c(i: isize) -> f64 {
    OFFSET + UNIT * i as f64
}

fn cx(p: Pos) -> (f64, f64) {
    (c(p.x as isize), c(p.y as isize))
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c if (c as u32) < 0x20 && c != '\n' && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

/// A colour as an SVG paint: the site's names are CSS colour keywords; any
/// other name is drawn as its `#rrggbb` value (grey when unreadable).
fn paint(color: &Color) -> String {
    match color {
        Color::Other(_) => {
            let (r, g, b) = rgb(color);
            format!("#{r:02X}{g:02X}{b:02X}")
        }
        named => named.name().to_string(),
    }
}

fn unit(d: Direction) -> (f64, f64) {
    let (dx, dy) = d.delta();
    (dx as f64, dy as f64)
}

struct Out {
    s: String,
}

impl Out {
    fn line(
        &mut self,
        (x1, y1): (f64, f64),
        (x2, y2): (f64, f64),
        stroke: &str,
        width: f64,
        cap: &str,
    ) {
        let _ = writeln!(
            self.s,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{stroke}" stroke-width="{}" stroke-linecap="{cap}"/>"#,
            n(x1),
            n(y1),
            n(x2),
            n(y2),
            n(width)
        );
    }
    fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, fill: &str, extra: &str) {
        let _ = writeln!(
            self.s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{fill}"{extra}/>"#,
            n(x),
            n(y),
            n(w),
            n(h)
        );
    }
    fn circle(&mut self, (x, y): (f64, f64), r: f64, fill: &str, extra: &str) {
        let _ = writeln!(
            self.s,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{fill}"{extra}/>"#,
            n(x),
            n(y),
            n(r)
        );
    }
    fn polygon(&mut self, pts: &[(f64, f64)], fill: &str, extra: &str) {
        let p: Vec<String> = pts
            .iter()
            .map(|&(x, y)| format!("{},{}", n(x), n(y)))
            .collect();
        let _ = writeln!(
            self.s,
            r#"<polygon points="{}" fill="{fill}"{extra}/>"#,
            p.join(" ")
        );
    }
}

/// Draws a puzzle, and a path if given, as a standalone SVG document. The
/// path need not be legal: it is drawn as far as it stays on the grid (in a
/// symmetry puzzle with its mirror image). Slots in `opts.highlight` are
/// ringed in red.
pub fn svg(puzzle: &Puzzle, path: Option<&Path>, opts: &SvgOptions) -> String {
    let (w, h) = (puzzle.width(), puzzle.height());
    let pillar = puzzle.pillar();
    let px_w = if pillar { 41 * w + 80 } else { 41 * w + 63 };
    let px_h = 41 * h + 63;
    let mut o = Out { s: String::new() };
    let _ = writeln!(
        o.s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{px_w}" height="{px_h}" viewBox="0 0 {px_w} {px_h}" data-unit="41" data-offset="52" data-width="{w}" data-height="{h}" data-pillar="{pillar}">"#
    );
    if let Some(name) = &puzzle.name {
        let _ = writeln!(o.s, "<title>{}</title>", escape(name));
    }
    o.rect(
        5.0,
        5.0,
        (px_w - 10) as f64,
        (px_h - 10) as f64,
        OUTER_BACKGROUND,
        &format!(r#" stroke="{BORDER}" stroke-width="10""#),
    );
    faces(&mut o, puzzle);
    grid(&mut o, puzzle);
    starts_and_ends(&mut o, puzzle);
    for (p, cell) in puzzle.cells() {
        if let (Some(sym), SlotKind::Face) = (&cell.symbol, p.kind()) {
            symbol(&mut o, cx(p), sym);
        }
    }
    let drawn = Drawn::new(puzzle, path);
    let single = puzzle.symmetry.is_none();
    if pillar && !drawn.main.is_empty() {
        // The line may run off either side of a pillar: keep it on the panel.
        let _ = writeln!(
            o.s,
            r#"<clipPath id="wrap"><rect x="16" y="0" width="{}" height="{px_h}"/></clipPath>"#,
            41 * w + 36
        );
    }
    if !drawn.mirror.is_empty() {
        line_path(&mut o, puzzle, &drawn.mirror, LINE_SECONDARY);
    }
    if !drawn.main.is_empty() {
        let color = if single { LINE_SINGLE } else { LINE_PRIMARY };
        line_path(&mut o, puzzle, &drawn.main, color);
    }
    dots(&mut o, puzzle);
    let mut seen = HashSet::new();
    for &p in &opts.highlight {
        if puzzle.contains(p) && seen.insert(p) {
            let r = if p.kind() == SlotKind::Face {
                34.0
            } else {
                19.0
            };
            o.circle(
                cx(p),
                r,
                "none",
                &format!(r#" stroke="{ERROR}" stroke-width="5" class="error""#),
            );
        }
    }
    if pillar {
        faders(&mut o, w, h);
    }
    o.s.push_str("</svg>\n");
    o.s
}

/// The green squares of the panel, leaving out the faces outside it.
fn faces(o: &mut Out, puzzle: &Puzzle) {
    let outside = puzzle.outside_faces();
    let (w, h) = (puzzle.width(), puzzle.height());
    let crisp = r#" shape-rendering="crispEdges""#;
    for x in (1..w).step_by(2) {
        for y in (1..h).step_by(2) {
            let p = Pos::new(x, y);
            if outside[puzzle.index(p)] {
                continue;
            }
            let (fx, fy) = cx(p);
            o.rect(
                fx - UNIT,
                fy - UNIT,
                2.0 * UNIT,
                2.0 * UNIT,
                BACKGROUND,
                crisp,
            );
            // A pillar's last column continues left of column 0.
            if puzzle.pillar() && x == w - 1 {
                o.rect(
                    OFFSET - LINE,
                    fy - UNIT,
                    LINE,
                    2.0 * UNIT,
                    BACKGROUND,
                    crisp,
                );
            }
        }
    }
}

fn open(puzzle: &Puzzle, p: Pos, d: Direction) -> bool {
    puzzle
        .neighbor(p, d)
        .is_some_and(|q| puzzle.cell(q).gap != Gap::Full)
}

/// Grid lines, broken edges, and the joints where lines meet.
fn grid(o: &mut Out, puzzle: &Puzzle) {
    let (w, _) = (puzzle.width(), puzzle.height());
    for (p, cell) in puzzle.cells() {
        let (x, y) = cx(p);
        match p.kind() {
            SlotKind::Face => {}
            SlotKind::Edge => {
                if cell.gap == Gap::Full {
                    continue;
                }
                let horizontal = p.y % 2 == 0;
                let (a, b) = if horizontal {
                    let right = if puzzle.pillar() && p.x == w - 1 {
                        x + UNIT - 12.0
                    } else {
                        x + UNIT
                    };
                    ((x - UNIT, y), (right, y))
                } else {
                    ((x, y - UNIT), (x, y + UNIT))
                };
                if cell.gap == Gap::Break {
                    // Two halves with a gap in the middle.
                    let g = 9.0;
                    let (m1, m2) = if horizontal {
                        ((x - g, y), (x + g, y))
                    } else {
                        ((x, y - g), (x, y + g))
                    };
                    o.line(a, m1, FOREGROUND, LINE, "butt");
                    o.line(m2, b, FOREGROUND, LINE, "butt");
                } else {
                    o.line(a, b, FOREGROUND, LINE, "butt");
                }
            }
            SlotKind::Node => {
                if cell.gap != Gap::None {
                    continue;
                }
                let arms = Direction::ALL
                    .iter()
                    .filter(|&&d| open(puzzle, p, d))
                    .count()
                    + usize::from(cell.end.is_some());
                if arms == 1 {
                    o.rect(x - LINE / 2.0, y - LINE / 2.0, LINE, LINE, FOREGROUND, "");
                } else if arms > 1 {
                    o.circle((x, y), LINE / 2.0, FOREGROUND, "");
                }
            }
        }
    }
    // The wrap of a pillar: stubs left of column 0 where the seam is open.
    if puzzle.pillar() {
        for y in (0..puzzle.height()).step_by(2) {
            let p = Pos::new(0, y);
            if puzzle.cell(p).gap == Gap::None && open(puzzle, p, Direction::Left) {
                let yy = c(y as isize);
                o.line((OFFSET - 12.0, yy), (OFFSET, yy), FOREGROUND, LINE, "round");
            }
        }
    }
}

fn starts_and_ends(o: &mut Out, puzzle: &Puzzle) {
    for (p, cell) in puzzle.cells() {
        if let Some(d) = cell.end {
            let (x, y) = cx(p);
            let (dx, dy) = unit(d);
            o.line(
                (x, y),
                (x + dx * END_LEN, y + dy * END_LEN),
                FOREGROUND,
                LINE,
                "round",
            );
        }
    }
    for p in puzzle.starts() {
        o.circle(cx(p), START_R, FOREGROUND, "");
    }
}

/// The line: a start circle and a stroke through the slot centres, split at
/// a pillar's seam, reaching into the end cap it stops at.
fn line_path(o: &mut Out, puzzle: &Puzzle, slots: &[Pos], color: &str) {
    let Some(&first) = slots.first() else { return };
    let mut d = format!("M{} {}", n(cx(first).0), n(cx(first).1));
    let w = puzzle.width() as isize;
    for pair in slots.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        let (ax, bx) = (a.x as isize, b.x as isize);
        let y = n(c(b.y as isize));
        if (bx - ax).abs() > 1 {
            // Across the seam: off one side, back in from the other.
            let (out_x, in_x) = if bx == 0 { (w, -1) } else { (-1, w) };
            let _ = write!(d, " L{} {y} M{} {y}", n(c(out_x)), n(c(in_x)));
        }
        let _ = write!(d, " L{} {y}", n(c(bx)));
    }
    let last = *slots.last().unwrap_or(&first);
    if let Some(end) = puzzle.cell(last).end {
        let (x, y) = cx(last);
        let (dx, dy) = unit(end);
        let _ = write!(d, " L{} {}", n(x + dx * END_LEN), n(y + dy * END_LEN));
    }
    let clip = if puzzle.pillar() {
        r#" clip-path="url(#wrap)""#
    } else {
        ""
    };
    o.circle(
        cx(first),
        START_R,
        color,
        &format!(r#" class="line"{clip}"#),
    );
    let _ = writeln!(
        o.s,
        r#"<path d="{d}" fill="none" stroke="{color}" stroke-width="{}" stroke-linecap="round" stroke-linejoin="round" class="line"{clip}/>"#,
        n(LINE)
    );
}

fn hexagon((x, y): (f64, f64), r: f64) -> Vec<(f64, f64)> {
    (0..6)
        .map(|i| {
            let a = std::f64::consts::PI / 3.0 * i as f64;
            (x + r * a.cos(), y + r * a.sin())
        })
        .collect()
}

fn dots(o: &mut Out, puzzle: &Puzzle) {
    for (p, cell) in puzzle.cells() {
        let fill = match cell.dot {
            Dot::None | Dot::Invisible => continue,
            Dot::Black => "black",
            Dot::Blue => LINE_PRIMARY,
            Dot::Yellow => LINE_SECONDARY,
        };
        if p.kind() == SlotKind::Face {
            continue;
        }
        o.polygon(&hexagon(cx(p), 11.0), fill, "");
    }
}

/// Draws one face symbol centred on `(x, y)`.
fn symbol(o: &mut Out, (x, y): (f64, f64), sym: &Symbol) {
    let fill = paint(&sym.color);
    match &sym.kind {
        SymbolKind::Square => {
            let s = 28.0;
            o.rect(x - s / 2.0, y - s / 2.0, s, s, &fill, r#" rx="7""#);
        }
        SymbolKind::Star => {
            // Two squares, one turned by 45 degrees: an eight-pointed star.
            let s = 25.0;
            o.rect(x - s / 2.0, y - s / 2.0, s, s, &fill, "");
            let t = format!(r#" transform="rotate(45 {} {})""#, n(x), n(y));
            o.rect(x - s / 2.0, y - s / 2.0, s, s, &fill, &t);
        }
        SymbolKind::Triangle(count) => triangles(o, (x, y), *count, &fill),
        SymbolKind::Poly(p) => polyomino(o, (x, y), p, &fill, false),
        SymbolKind::Ylop(p) => polyomino(o, (x, y), p, &fill, true),
        SymbolKind::Nega => {
            // Three arms 120 degrees apart: a Y.
            let mut d = String::new();
            for deg in [90.0f64, 210.0, 330.0] {
                let a = deg.to_radians();
                let _ = write!(
                    d,
                    "M{} {} L{} {} ",
                    n(x),
                    n(y),
                    n(x + 16.0 * a.cos()),
                    n(y + 16.0 * a.sin())
                );
            }
            let _ = writeln!(
                o.s,
                r#"<path d="{}" stroke="{fill}" stroke-width="7" fill="none"/>"#,
                d.trim_end()
            );
        }
    }
}

/// `count` triangles in rows of at most three, centred.
fn triangles(o: &mut Out, (x, y): (f64, f64), count: u32, fill: &str) {
    let count = count.min(9) as usize;
    if count == 0 {
        return;
    }
    let side = 18.0;
    let height = side * 3f64.sqrt() / 2.0;
    let gap = 22.0;
    let rows = count.div_ceil(3);
    let per_row = count.div_ceil(rows);
    for r in 0..rows {
        let in_row = per_row.min(count - r * per_row);
        let ty = y + (r as f64 - (rows - 1) as f64 / 2.0) * (height + 6.0);
        for i in 0..in_row {
            let tx = x + (i as f64 - (in_row - 1) as f64 / 2.0) * gap;
            o.polygon(
                &[
                    (tx, ty - height * 2.0 / 3.0),
                    (tx + side / 2.0, ty + height / 3.0),
                    (tx - side / 2.0, ty + height / 3.0),
                ],
                fill,
                "",
            );
        }
    }
}

/// A polyomino's squares, filled, or outlined when subtractive; tilted when
/// it may be rotated.
fn polyomino(o: &mut Out, (x, y): (f64, f64), p: &Polyomino, fill: &str, hollow: bool) {
    if p.cells().is_empty() {
        return;
    }
    let (bw, bh) = p.bounds();
    let big = bw.max(bh) as f64;
    let u = if big <= 4.0 { 14.0 } else { 56.0 / big };
    let gap = (u / 5.0).max(1.0);
    let x0 = x - u * bw as f64 / 2.0;
    let y0 = y - u * bh as f64 / 2.0;
    let mut g = String::from("<g");
    if p.rotatable {
        let _ = write!(g, r#" transform="rotate(20 {} {})""#, n(x), n(y));
    }
    if hollow {
        let sw = (u / 6.0).max(1.0);
        let _ = write!(
            g,
            r#" fill="none" stroke="{fill}" stroke-width="{}""#,
            n(sw)
        );
    } else {
        let _ = write!(g, r#" fill="{fill}""#);
    }
    g.push('>');
    let _ = writeln!(o.s, "{g}");
    let inset = if hollow {
        gap / 2.0 + (u / 12.0).max(0.5)
    } else {
        gap / 2.0
    };
    for &(cx_, cy_) in p.cells() {
        let _ = writeln!(
            o.s,
            r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
            n(x0 + cx_ as f64 * u + inset),
            n(y0 + cy_ as f64 * u + inset),
            n(u - 2.0 * inset),
            n(u - 2.0 * inset)
        );
    }
    o.s.push_str("</g>\n");
}

/// Gradients over a pillar's left and right sides, so its line seems to
/// run round the back.
fn faders(o: &mut Out, w: usize, h: usize) {
    let bg = OUTER_BACKGROUND;
    let _ = writeln!(
        o.s,
        r#"<defs><linearGradient id="fadeInLeft"><stop offset="0%" stop-opacity="1" stop-color="{bg}"/><stop offset="25%" stop-opacity="1" stop-color="{bg}"/><stop offset="100%" stop-opacity="0" stop-color="{bg}"/></linearGradient><linearGradient id="fadeOutRight"><stop offset="0%" stop-opacity="0" stop-color="{bg}"/><stop offset="100%" stop-opacity="1" stop-color="{bg}"/></linearGradient></defs>"#
    );
    let height = (41 * h + 43) as f64;
    o.rect(16.0, 10.0, 48.0, height, "url(#fadeInLeft)", "");
    o.rect(
        (41 * w + 22) as f64,
        10.0,
        30.0,
        height,
        "url(#fadeOutRight)",
        "",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers() {
        assert_eq!(n(52.0), "52");
        assert_eq!(n(1.5), "1.5");
        assert_eq!(n(-0.001), "0");
        assert_eq!(n(2.345678), "2.35");
    }

    #[test]
    fn escaping() {
        assert_eq!(escape("a<b & \"c\"\u{1}"), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(paint(&Color::Other("\"><script>".into())), "#808080");
        assert_eq!(paint(&Color::Other("#abc".into())), "#AABBCC");
        assert_eq!(paint(&Color::Orange), "orange");
    }
}

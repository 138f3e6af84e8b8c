//! Text rendering with box-drawing characters, for terminals.
//!
//! Every node is one character and every face or horizontal edge five, so a
//! face is drawn about as wide as it is high. The line is drawn with heavy
//! box characters (and, with colour, in the line's colour); symbols are
//! compact glyphs: `■` square, `★` star, `▲` triangles, braille pictures of
//! polyominoes (`↻` when rotatable, a leading `−` when subtractive), `Y`
//! elimination marks. Without colour, each symbol is followed by a letter
//! naming its colour. A pillar repeats its first column on the right, and
//! `┄` on both sides shows where the line wraps (`━` where the path
//! crosses the seam).

use std::collections::HashSet;
use std::fmt::Write;

use crate::model::{Color, Direction, Dot, Gap, Pos, Puzzle, SlotKind, Symbol, SymbolKind};
use crate::path::Path;

use super::{rgb, Drawn};

/// Box-drawing characters indexed by `left*27 + right*9 + up*3 + down`,
/// each arm 0 (none), 1 (light) or 2 (heavy).
const BOX: &str =
    " ╷╻╵│╽╹╿┃╶┌┎└├┟┖┞┠╺┍┏┕┝┢┗┡┣╴┐┒┘┤┧┚┦┨─┬┰┴┼╁┸╀╂╼┮┲┶┾╆┺╄╊╸┑┓┙┥┪┛┩┫╾┭┱┵┽╅┹╃╉━┯┳┷┿╈┻╇╋";

/// Characters per face or horizontal edge.
const FACE_W: usize = 5;
/// Characters of margin on the left and right (room for end caps).
const MARGIN: usize = 2;

const PANEL_BG: (u8, u8, u8) = (0x8c, 0x9c, 0xa8);
const GRID_FG: (u8, u8, u8) = (0x2a, 0x33, 0x3a);
const LINE_FG: (u8, u8, u8) = (0xff, 0xff, 0xff);
const MAIN_FG: (u8, u8, u8) = (0x00, 0xe5, 0xff);
const MIRROR_FG: (u8, u8, u8) = (0xff, 0xe0, 0x00);
const BLUE_DOT: (u8, u8, u8) = (0x10, 0x50, 0xff);
const YELLOW_DOT: (u8, u8, u8) = (0xff, 0xe0, 0x00);

/// Which line covers a slot or a link between two slots.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Which {
    Main,
    Mirror,
}

#[derive(Copy, Clone, PartialEq, Eq)]
struct Style {
    fg: Option<(u8, u8, u8)>,
    bold: bool,
}

const PLAIN: Style = Style {
    fg: None,
    bold: false,
};

struct Canvas {
    w: usize,
    cells: Vec<Vec<(char, Style)>>,
}

impl Canvas {
    fn put(&mut self, x: usize, y: usize, c: char, s: Style) {
        if y < self.cells.len() && x < self.w {
            self.cells[y][x] = (c, s);
        }
    }
}

struct Lines {
    main: HashSet<Pos>,
    mirror: HashSet<Pos>,
    main_links: HashSet<(Pos, Pos)>,
    mirror_links: HashSet<(Pos, Pos)>,
    main_ends: [Option<Pos>; 2],
    mirror_ends: [Option<Pos>; 2],
}

fn link(a: Pos, b: Pos) -> (Pos, Pos) {
    if a <= b {
        (a, b)
    } else {
        (b, a)
    }
}

impl Lines {
    fn new(d: &Drawn) -> Lines {
        let links = |v: &[Pos]| v.windows(2).map(|w| link(w[0], w[1])).collect();
        Lines {
            main: d.main.iter().copied().collect(),
            mirror: d.mirror.iter().copied().collect(),
            main_links: links(&d.main),
            mirror_links: links(&d.mirror),
            main_ends: [d.main.first().copied(), d.main.last().copied()],
            mirror_ends: [d.mirror.first().copied(), d.mirror.last().copied()],
        }
    }
    fn slot(&self, p: Pos) -> Option<Which> {
        if self.main.contains(&p) {
            Some(Which::Main)
        } else if self.mirror.contains(&p) {
            Some(Which::Mirror)
        } else {
            None
        }
    }
    fn link(&self, a: Pos, b: Pos) -> Option<Which> {
        let l = link(a, b);
        if self.main_links.contains(&l) {
            Some(Which::Main)
        } else if self.mirror_links.contains(&l) {
            Some(Which::Mirror)
        } else {
            None
        }
    }
    /// The line that starts (`i` 0) or stops (`i` 1) at `p`.
    fn end_at(&self, p: Pos, i: usize) -> Option<Which> {
        if self.main_ends[i] == Some(p) {
            Some(Which::Main)
        } else if self.mirror_ends[i] == Some(p) {
            Some(Which::Mirror)
        } else {
            None
        }
    }
}

struct Painter<'a> {
    puzzle: &'a Puzzle,
    lines: Lines,
    color: bool,
    single: bool,
}

impl Painter<'_> {
    fn style(&self, rgb: (u8, u8, u8), bold: bool) -> Style {
        if self.color {
            Style {
                fg: Some(rgb),
                bold,
            }
        } else {
            PLAIN
        }
    }
    fn grid(&self) -> Style {
        self.style(GRID_FG, false)
    }
    fn line(&self, w: Which) -> Style {
        let c = match w {
            Which::Main if self.single => LINE_FG,
            Which::Main => MAIN_FG,
            Which::Mirror => MIRROR_FG,
        };
        self.style(c, true)
    }
    /// The weight (0, 1, 2) and line of the arm from `p` toward `d`.
    fn arm(&self, p: Pos, d: Direction) -> (usize, Option<Which>) {
        let Some(q) = self.puzzle.neighbor(p, d) else {
            return (0, None);
        };
        if self.puzzle.cell(q).gap == Gap::Full {
            return (0, None);
        }
        match self.lines.link(p, q) {
            Some(w) => (2, Some(w)),
            None => (1, None),
        }
    }
    fn dot(&self, dot: Dot) -> Option<(char, Style)> {
        let (c, rgb) = match dot {
            Dot::None | Dot::Invisible => return None,
            Dot::Black => ('•', (0, 0, 0)),
            Dot::Blue => (if self.color { '•' } else { 'b' }, BLUE_DOT),
            Dot::Yellow => (if self.color { '•' } else { 'y' }, YELLOW_DOT),
        };
        Some((c, self.style(rgb, true)))
    }
    fn start(&self, p: Pos) -> (char, Style) {
        match self.lines.end_at(p, 0).or_else(|| self.lines.slot(p)) {
            Some(w) => ('●', self.line(w)),
            None => ('○', self.grid()),
        }
    }

    fn node(&self, cv: &mut Canvas, cx: usize, row: usize, p: Pos) {
        let cell = self.puzzle.cell(p);
        if cell.gap != Gap::None {
            return;
        }
        let mut idx = 0;
        let mut which = self.lines.slot(p);
        for d in [
            Direction::Left,
            Direction::Right,
            Direction::Up,
            Direction::Down,
        ] {
            let (a, w) = self.arm(p, d);
            idx = idx * 3 + a;
            which = which.or(w);
        }
        let (c, s) = if cell.start {
            self.start(p)
        } else if let Some(d) = self.dot(cell.dot) {
            d
        } else {
            let c = BOX.chars().nth(idx).unwrap_or(' ');
            (c, which.map_or(self.grid(), |w| self.line(w)))
        };
        cv.put(cx, row, c, s);
    }

    fn hedge(&self, cv: &mut Canvas, x0: usize, row: usize, p: Pos) {
        let cell = self.puzzle.cell(p);
        if cell.gap == Gap::Full {
            return;
        }
        let half = |d: Direction| match self
            .puzzle
            .neighbor(p, d)
            .and_then(|q| self.lines.link(p, q))
        {
            Some(w) => ('━', self.line(w)),
            None => ('─', self.grid()),
        };
        let (l, r) = (half(Direction::Left), half(Direction::Right));
        let centre = match self.lines.slot(p) {
            Some(w) => ('━', self.line(w)),
            None => ('─', self.grid()),
        };
        let centre = if cell.start {
            self.start(p)
        } else if let Some(d) = self.dot(cell.dot) {
            d
        } else if cell.gap == Gap::Break {
            (' ', PLAIN)
        } else {
            centre
        };
        for i in 0..FACE_W {
            let (c, s) = match i.cmp(&(FACE_W / 2)) {
                std::cmp::Ordering::Less => l,
                std::cmp::Ordering::Equal => centre,
                std::cmp::Ordering::Greater => r,
            };
            cv.put(x0 + i, row, c, s);
        }
    }

    fn vedge(&self, cv: &mut Canvas, cx: usize, row: usize, p: Pos) {
        let cell = self.puzzle.cell(p);
        if cell.gap == Gap::Full {
            return;
        }
        let (c, s) = if cell.start {
            self.start(p)
        } else if let Some(d) = self.dot(cell.dot) {
            d
        } else if cell.gap == Gap::Break {
            ('╎', self.grid())
        } else {
            match self.lines.slot(p) {
                Some(w) => ('┃', self.line(w)),
                None => ('│', self.grid()),
            }
        };
        cv.put(cx, row, c, s);
    }

    fn face(&self, cv: &mut Canvas, x0: usize, row: usize, sym: &Symbol) {
        let style = self.style(rgb(&sym.color), true);
        let mut glyph: Vec<char> = Vec::new();
        match &sym.kind {
            SymbolKind::Square => glyph.push('■'),
            SymbolKind::Star => glyph.push('★'),
            SymbolKind::Nega => glyph.push('Y'),
            SymbolKind::Triangle(n) if (1..=3).contains(n) => {
                glyph.extend(std::iter::repeat_n('▲', *n as usize))
            }
            SymbolKind::Triangle(n) => {
                glyph.extend(n.to_string().chars().take(2));
                glyph.push('▲');
            }
            SymbolKind::Poly(p) | SymbolKind::Ylop(p) => {
                glyph.extend(poly_glyph(p.cells(), p.bounds()));
                if p.rotatable {
                    glyph.push('↻');
                }
                if matches!(sym.kind, SymbolKind::Ylop(_)) {
                    cv.put(x0, row, '−', style);
                }
            }
        }
        glyph.truncate(3);
        let start = x0 + 1 + (3 - glyph.len()) / 2;
        for (i, c) in glyph.into_iter().enumerate() {
            cv.put(start + i, row, c, style);
        }
        if !self.color {
            cv.put(x0 + FACE_W - 1, row, color_letter(&sym.color), PLAIN);
        }
    }
}

/// A polyomino as one or two braille characters, or `▦` and its size when
/// it does not fit a 4x4 box.
fn poly_glyph(cells: &[(u8, u8)], (w, h): (usize, usize)) -> Vec<char> {
    if cells.is_empty() {
        return vec!['∅'];
    }
    if w > 4 || h > 4 {
        let mut v = vec!['▦'];
        v.extend(cells.len().to_string().chars().take(2));
        return v;
    }
    const BITS: [[u32; 4]; 2] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];
    let n = if w > 2 { 2 } else { 1 };
    let mut bits = [0u32; 2];
    for &(x, y) in cells {
        bits[(x / 2) as usize] |= BITS[(x % 2) as usize][y as usize];
    }
    bits[..n]
        .iter()
        .map(|&b| char::from_u32(0x2800 + b).unwrap_or('?'))
        .collect()
}

/// The one-letter name of a colour, for output without colour.
fn color_letter(c: &Color) -> char {
    match c {
        Color::Black => 'k',
        Color::White => 'w',
        Color::Red => 'r',
        Color::Orange => 'o',
        Color::Yellow => 'y',
        Color::Green => 'g',
        Color::Blue => 'b',
        Color::Purple => 'p',
        Color::Cyan => 'c',
        Color::Magenta => 'm',
        Color::Other(_) => '?',
    }
}

fn cap_char(d: Direction) -> char {
    match d {
        Direction::Left => '←',
        Direction::Right => '→',
        Direction::Up => '↑',
        Direction::Down => '↓',
    }
}

/// Draws a puzzle, and a path if given, as text: box-drawing grid lines,
/// compact symbol glyphs, and with `color` ANSI colours (24-bit) on a panel
/// background. In a symmetry puzzle the mirror line is drawn too.
pub fn terminal(puzzle: &Puzzle, path: Option<&Path>, color: bool) -> String {
    let drawn = Drawn::new(puzzle, path);
    let painter = Painter {
        puzzle,
        lines: Lines::new(&drawn),
        color,
        single: puzzle.symmetry.is_none(),
    };
    let (w, h) = (puzzle.width(), puzzle.height());
    // The slot columns drawn, left to right: a pillar repeats column 0.
    let mut cols: Vec<usize> = (0..w).collect();
    if puzzle.pillar() {
        cols.push(0);
    }
    let mut offsets = Vec::with_capacity(cols.len());
    let mut x = MARGIN;
    for &c in &cols {
        offsets.push(x);
        x += if c % 2 == 0 { 1 } else { FACE_W };
    }
    let cw = x + MARGIN;
    let mut cv = Canvas {
        w: cw,
        cells: vec![vec![(' ', PLAIN); cw]; h + 2],
    };
    let outside = puzzle.outside_faces();
    for (&sx, &x0) in cols.iter().zip(&offsets) {
        for sy in 0..h {
            let p = Pos::new(sx, sy);
            let row = sy + 1;
            let cell = puzzle.cell(p);
            match p.kind() {
                SlotKind::Node => painter.node(&mut cv, x0, row, p),
                SlotKind::Edge if sx % 2 == 1 => painter.hedge(&mut cv, x0, row, p),
                SlotKind::Edge => painter.vedge(&mut cv, x0, row, p),
                SlotKind::Face => {
                    if let (Some(sym), false) = (&cell.symbol, outside[puzzle.index(p)]) {
                        painter.face(&mut cv, x0, row, sym);
                    }
                }
            }
        }
    }
    // The wrap of a pillar, on node rows whose seam edge exists.
    if puzzle.pillar() {
        for sy in (0..h).step_by(2) {
            let seam = Pos::new(w - 1, sy);
            if puzzle.cell(seam).gap == Gap::Full || puzzle.cell(Pos::new(0, sy)).gap != Gap::None {
                continue;
            }
            let (c, s) = match painter.lines.link(seam, Pos::new(0, sy)) {
                Some(wh) => ('━', painter.line(wh)),
                None => ('┄', painter.grid()),
            };
            for i in 0..MARGIN {
                cv.put(i, sy + 1, c, s);
                cv.put(cw - 1 - i, sy + 1, c, s);
            }
        }
    }
    // End caps, next to the slot in their direction.
    for (&sx, &x0) in cols.iter().zip(&offsets) {
        for sy in 0..h {
            let p = Pos::new(sx, sy);
            let Some(d) = puzzle.cell(p).end else {
                continue;
            };
            let cx = if sx % 2 == 0 { x0 } else { x0 + FACE_W / 2 };
            let row = sy + 1;
            let (tx, ty) = match d {
                Direction::Left => (cx - 1, row),
                Direction::Right => (cx + 1, row),
                Direction::Up => (cx, row - 1),
                Direction::Down => (cx, row + 1),
            };
            let s = match painter.lines.end_at(p, 1) {
                Some(wh) => painter.line(wh),
                None => painter.grid(),
            };
            cv.put(tx, ty, cap_char(d), s);
        }
    }
    finish(&cv, color)
}

/// Writes the canvas out, dropping blank margin rows, with ANSI codes when
/// `color` is set.
fn finish(cv: &Canvas, color: bool) -> String {
    let blank = |r: &Vec<(char, Style)>| r.iter().all(|c| c.0 == ' ');
    let mut rows: &[Vec<(char, Style)>] = &cv.cells;
    if rows.first().is_some_and(blank) {
        rows = &rows[1..];
    }
    if rows.last().is_some_and(blank) {
        rows = &rows[..rows.len() - 1];
    }
    let mut out = String::new();
    for r in rows {
        if color {
            let mut cur: Option<Style> = None;
            for &(c, s) in r {
                if cur != Some(s) {
                    let (br, bg, bb) = PANEL_BG;
                    let _ = write!(out, "\x1b[0;48;2;{br};{bg};{bb}");
                    if s.bold {
                        out.push_str(";1");
                    }
                    if let Some((r, g, b)) = s.fg {
                        let _ = write!(out, ";38;2;{r};{g};{b}");
                    }
                    out.push('m');
                    cur = Some(s);
                }
                out.push(c);
            }
            out.push_str("\x1b[0m\n");
        } else {
            let line: String = r.iter().map(|c| c.0).collect();
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_table() {
        let at = |l: usize, r: usize, u: usize, d: usize| {
            BOX.chars().nth(l * 27 + r * 9 + u * 3 + d).unwrap()
        };
        assert_eq!(BOX.chars().count(), 81);
        assert_eq!(at(1, 1, 0, 0), '─');
        assert_eq!(at(0, 0, 1, 1), '│');
        assert_eq!(at(1, 1, 1, 1), '┼');
        assert_eq!(at(0, 1, 0, 1), '┌');
        assert_eq!(at(2, 2, 2, 2), '╋');
        assert_eq!(at(2, 1, 0, 0), '╾');
        assert_eq!(at(0, 2, 0, 2), '┏');
        assert_eq!(at(1, 0, 1, 0), '┘');
    }

    #[test]
    fn braille() {
        // The default L: a column of three with a foot to the right.
        assert_eq!(
            poly_glyph(&[(0, 0), (0, 1), (0, 2), (1, 2)], (2, 3)),
            vec!['⠧']
        );
        assert_eq!(
            poly_glyph(&[(0, 0), (1, 0), (2, 0), (3, 0)], (4, 1)),
            vec!['⠉', '⠉']
        );
    }
}

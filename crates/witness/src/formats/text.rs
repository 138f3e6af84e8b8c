//! A plain-text puzzle format for people, tests and docs (`docs/text-format.md`).
//!
//! ```text
//! witness 2x2 symmetry=x
//! name: A tiny example
//! S  - +  - E>
//! |  A | *r |
//! +  o +  - +
//! |  2 | #w |
//! S  - + x  E>
//! A = poly rot ##
//! ```
//!
//! A header line `witness [WxH] [options]`, then the grid, one
//! whitespace-separated token per slot, row by row, then a legend that
//! names polyomino shapes (and any colours without a short code). Lines
//! starting with `//` are comments. [`to_string`] and [`parse`] are exact
//! inverses on every puzzle the model can hold.

use std::collections::BTreeMap;

use crate::error::{how_many, Error, Result};
use crate::model::{
    Cell, Color, Direction, Dot, Gap, Polyomino, Pos, Puzzle, Settings, SlotKind, Symbol,
    SymbolKind, Symmetry,
};

/// The built-in one-letter colour codes.
const COLOR_CODES: [(char, Color); 10] = [
    ('k', Color::Black),
    ('w', Color::White),
    ('r', Color::Red),
    ('o', Color::Orange),
    ('y', Color::Yellow),
    ('g', Color::Green),
    ('b', Color::Blue),
    ('p', Color::Purple),
    ('c', Color::Cyan),
    ('m', Color::Magenta),
];

/// A settings flag's accessor.
type Flag = fn(&mut Settings) -> &mut bool;

/// The settings flags as the header names them, with their accessors.
const SETTINGS: [(&str, Flag); 6] = [
    ("negations-cancel-negations", |s| {
        &mut s.negations_cancel_negations
    }),
    ("shapeless-zero-poly", |s| &mut s.shapeless_zero_poly),
    ("precise-polyominos", |s| &mut s.precise_polyominos),
    ("flash-for-errors", |s| &mut s.flash_for_errors),
    ("fat-startpoints", |s| &mut s.fat_startpoints),
    ("custom-mechanics", |s| &mut s.custom_mechanics),
];

/// True when a text starts (after blank and comment lines) with the
/// `witness` header word.
pub fn looks_like_text(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"))
        .and_then(|l| l.split_whitespace().next())
        == Some("witness")
}

fn builtin_code(c: &Color) -> Option<char> {
    COLOR_CODES.iter().find(|(_, k)| k == c).map(|(ch, _)| *ch)
}

fn builtin_color(code: &str) -> Option<Color> {
    let mut it = code.chars();
    let ch = it.next()?;
    if it.next().is_some() {
        return None;
    }
    COLOR_CODES
        .iter()
        .find(|(c, _)| *c == ch)
        .map(|(_, k)| k.clone())
}

/// The default colour of each symbol kind, which the writer leaves out.
fn default_color(kind: &SymbolKind) -> Color {
    match kind {
        SymbolKind::Square | SymbolKind::Star => Color::Black,
        SymbolKind::Triangle(_) => Color::Orange,
        SymbolKind::Nega => Color::White,
        SymbolKind::Poly(_) => Color::Yellow,
        SymbolKind::Ylop(_) => Color::Blue,
    }
}

fn arrow(d: Direction) -> char {
    match d {
        Direction::Left => '<',
        Direction::Right => '>',
        Direction::Up => '^',
        Direction::Down => 'v',
    }
}

/// A string written so that it reads back exactly: as is when it is plain,
/// else as a JSON string.
fn quote(s: &str) -> String {
    let plain =
        !s.is_empty() && s.trim() == s && !s.starts_with('"') && !s.chars().any(char::is_control);
    if plain {
        s.to_string()
    } else {
        serde_json::Value::String(s.to_string()).to_string()
    }
}

fn unquote(s: &str, line: usize) -> Result<String> {
    let s = s.trim();
    if s.starts_with('"') {
        serde_json::from_str::<String>(s)
            .map_err(|e| Error::Parse(format!("line {line}: bad quoted string {s}: {e}")))
    } else {
        Ok(s.to_string())
    }
}

/// The n-th code for a colour without a built-in one: the spare lowercase
/// letters, then two-letter codes.
fn custom_code(n: usize) -> String {
    let spare: Vec<char> = ('a'..='z')
        .filter(|c| !COLOR_CODES.iter().any(|(k, _)| k == c))
        .collect();
    if n < spare.len() {
        return spare[n].to_string();
    }
    let n = n - spare.len();
    let a = (b'a' + (n / 26 % 26) as u8) as char;
    let b = (b'a' + (n % 26) as u8) as char;
    let mut s = String::new();
    // Past 676 two-letter codes, prefix more letters (never needed in practice).
    for _ in 0..n / 676 {
        s.push('z');
    }
    s.push(a);
    s.push(b);
    s
}

/// The n-th polyomino label: `A`…`Z` without `Y` (the elimination mark),
/// then `AA`, `AB`, ….
fn label(n: usize) -> String {
    let letters: Vec<char> = ('A'..='Z').filter(|&c| c != 'Y').collect();
    let mut n = n;
    let mut s = Vec::new();
    loop {
        s.push(letters[n % letters.len()]);
        if n < letters.len() {
            break;
        }
        n = n / letters.len() - 1;
    }
    s.iter().rev().collect()
}

fn shape_text(p: &Polyomino) -> String {
    if p.size() == 0 {
        return "-".into();
    }
    let (w, h) = p.bounds();
    let mut rows = Vec::with_capacity(h);
    for y in 0..h {
        let row: String = (0..w)
            .map(|x| {
                if p.cells().contains(&(x as u8, y as u8)) {
                    '#'
                } else {
                    '.'
                }
            })
            .collect();
        rows.push(row);
    }
    rows.join("/")
}

/// Writes a puzzle in the text format.
pub fn to_string(puzzle: &Puzzle) -> String {
    // Legend entries: polyomino shapes and colours without a short code.
    let mut shapes: Vec<(bool, Polyomino)> = Vec::new();
    let mut customs: Vec<Color> = Vec::new();
    let (w, h) = (puzzle.width(), puzzle.height());
    for y in 0..h {
        for x in 0..w {
            let Some(s) = &puzzle.cell(Pos::new(x, y)).symbol else {
                continue;
            };
            if let SymbolKind::Poly(p) | SymbolKind::Ylop(p) = &s.kind {
                let key = (matches!(s.kind, SymbolKind::Ylop(_)), p.clone());
                if !shapes.contains(&key) {
                    shapes.push(key);
                }
            }
            if builtin_code(&s.color).is_none() && !customs.contains(&s.color) {
                customs.push(s.color.clone());
            }
        }
    }
    let color_code = |c: &Color| -> String {
        match builtin_code(c) {
            Some(ch) => ch.to_string(),
            None => custom_code(customs.iter().position(|k| k == c).unwrap_or(0)),
        }
    };

    let mut rows: Vec<Vec<String>> = Vec::with_capacity(h);
    for y in 0..h {
        let mut row = Vec::with_capacity(w);
        for x in 0..w {
            let p = Pos::new(x, y);
            let c = puzzle.cell(p);
            let token = if p.kind() == SlotKind::Face {
                match &c.symbol {
                    None => ".".to_string(),
                    Some(s) => {
                        let mut t = match &s.kind {
                            SymbolKind::Square => "#".to_string(),
                            SymbolKind::Star => "*".to_string(),
                            SymbolKind::Triangle(n) => n.to_string(),
                            SymbolKind::Nega => "Y".to_string(),
                            SymbolKind::Poly(sh) | SymbolKind::Ylop(sh) => {
                                let key = (matches!(s.kind, SymbolKind::Ylop(_)), sh.clone());
                                label(shapes.iter().position(|k| *k == key).unwrap_or(0))
                            }
                        };
                        if s.color != default_color(&s.kind) {
                            t.push_str(&color_code(&s.color));
                        }
                        t
                    }
                }
            } else {
                line_token(p, c)
            };
            row.push(token);
        }
        rows.push(row);
    }

    let mut out = String::new();
    out.push_str(&format!(
        "witness {}x{}",
        puzzle.face_width(),
        puzzle.face_height()
    ));
    if puzzle.pillar() {
        out.push_str(" pillar");
    }
    if let Some(s) = puzzle.symmetry {
        out.push_str(match (s.x, s.y) {
            (true, true) => " symmetry=xy",
            (true, false) => " symmetry=x",
            (false, true) => " symmetry=y",
            (false, false) => " symmetry=shift",
        });
    }
    if puzzle.undirected {
        out.push_str(" undirected");
    }
    if puzzle.rules != crate::model::RuleSet::default() {
        out.push_str(&format!(" rules={}", puzzle.rules));
    }
    let defaults = Settings::default();
    let mut settings = puzzle.settings;
    let mut reference = defaults;
    for (name, get) in SETTINGS {
        let v = *get(&mut settings);
        if v != *get(&mut reference) {
            out.push_str(&format!(" {name}={v}"));
        }
    }
    out.push('\n');
    if let Some(name) = &puzzle.name {
        out.push_str(&format!("name: {}\n", quote(name)));
    }
    let widths: Vec<usize> = (0..w)
        .map(|x| rows.iter().map(|r| r[x].chars().count()).max().unwrap_or(1))
        .collect();
    for row in &rows {
        let mut line = String::new();
        for (x, t) in row.iter().enumerate() {
            if x > 0 {
                line.push(' ');
            }
            line.push_str(t);
            for _ in t.chars().count()..widths[x] {
                line.push(' ');
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    for (i, (ylop, shape)) in shapes.iter().enumerate() {
        out.push_str(&format!(
            "{} = {}{} {}\n",
            label(i),
            if *ylop { "ylop" } else { "poly" },
            if shape.rotatable { " rot" } else { "" },
            shape_text(shape)
        ));
    }
    for (i, c) in customs.iter().enumerate() {
        out.push_str(&format!("color {} = {}\n", custom_code(i), quote(c.name())));
    }
    out
}

fn line_token(p: Pos, c: &Cell) -> String {
    let mut t = String::new();
    if c.start {
        t.push('S');
    }
    if let Some(d) = c.end {
        t.push('E');
        t.push(arrow(d));
    }
    match c.dot {
        Dot::None => {}
        Dot::Black => t.push('o'),
        Dot::Blue => t.push('b'),
        Dot::Yellow => t.push('y'),
        Dot::Invisible => t.push('i'),
    }
    match c.gap {
        Gap::None => {}
        Gap::Break => t.push('x'),
        Gap::Full => t.push('~'),
    }
    if t.is_empty() {
        t.push(base_char(p));
    }
    t
}

fn base_char(p: Pos) -> char {
    match (p.x % 2, p.y % 2) {
        (0, 0) => '+',
        (1, _) => '-',
        _ => '|',
    }
}

/// A polyomino legend entry.
struct ShapeDef {
    ylop: bool,
    shape: Polyomino,
    used: bool,
}

/// Reads a puzzle in the text format.
pub fn parse(text: &str) -> Result<Puzzle> {
    let mut header: Option<(usize, Vec<&str>)> = None;
    let mut name: Option<String> = None;
    let mut grid: Vec<(usize, Vec<&str>)> = Vec::new();
    let mut shapes: BTreeMap<String, ShapeDef> = BTreeMap::new();
    let mut colors: BTreeMap<String, Color> = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        if header.is_none() {
            if tokens[0] != "witness" {
                return Err(Error::Parse(format!(
                    "line {n}: the text format starts with a header line \"witness WxH ...\", not \"{}\"",
                    short(line)
                )));
            }
            header = Some((n, tokens[1..].to_vec()));
            continue;
        }
        if let Some(rest) = line.strip_prefix("name:") {
            name = Some(unquote(rest, n)?);
        } else if tokens[0] == "color" && tokens.get(2) == Some(&"=") {
            let code = tokens.get(1).copied().unwrap_or("");
            if code.is_empty() || !code.chars().all(|c| c.is_ascii_lowercase()) {
                return Err(Error::Parse(format!(
                    "line {n}: a colour code is lowercase letters, not \"{code}\""
                )));
            }
            if builtin_color(code).is_some() {
                return Err(Error::Parse(format!(
                    "line {n}: \"{code}\" is a built-in colour code and cannot be redefined"
                )));
            }
            let value = line.split_once('=').map(|x| x.1).unwrap_or("");
            let value = unquote(value, n)?;
            if colors
                .insert(code.to_string(), Color::from_name(&value))
                .is_some()
            {
                return Err(Error::Parse(format!(
                    "line {n}: colour \"{code}\" is defined twice"
                )));
            }
        } else if tokens.get(1) == Some(&"=") {
            let (key, def) = parse_shape_def(&tokens, n)?;
            if shapes.insert(key.clone(), def).is_some() {
                return Err(Error::Parse(format!(
                    "line {n}: shape \"{key}\" is defined twice"
                )));
            }
        } else {
            grid.push((n, tokens));
        }
    }
    let Some((header_line, options)) = header else {
        return Err(Error::Parse(
            "empty text: no \"witness\" header line".into(),
        ));
    };

    let mut size: Option<(usize, usize)> = None;
    let mut pillar = false;
    let mut symmetry = None;
    let mut undirected = false;
    let mut rules = crate::model::RuleSet::default();
    let mut settings = Settings::default();
    for opt in options {
        let bad = || {
            Error::Parse(format!(
                "line {header_line}: unknown header option \"{opt}\""
            ))
        };
        if opt == "pillar" {
            pillar = true;
        } else if opt == "undirected" {
            undirected = true;
        } else if let Some(v) = opt.strip_prefix("rules=") {
            rules = v.parse().map_err(|_| {
                Error::Parse(format!(
                    "line {header_line}: rules must be witnesspuzzles or windmill, not \"{v}\""
                ))
            })?;
        } else if let Some(v) = opt.strip_prefix("symmetry=") {
            symmetry = Some(match v {
                "x" => Symmetry { x: true, y: false },
                "y" => Symmetry { x: false, y: true },
                "xy" => Symmetry { x: true, y: true },
                "shift" => Symmetry { x: false, y: false },
                _ => {
                    return Err(Error::Parse(format!(
                        "line {header_line}: symmetry must be x, y, xy or shift, not \"{v}\""
                    )))
                }
            });
        } else if let Some((k, v)) = opt.split_once('=') {
            let (_, get) = SETTINGS
                .iter()
                .find(|(name, _)| *name == k)
                .ok_or_else(bad)?;
            *get(&mut settings) = match v {
                "true" => true,
                "false" => false,
                _ => {
                    return Err(Error::Parse(format!(
                        "line {header_line}: {k} must be true or false, not \"{v}\""
                    )))
                }
            };
        } else if let Some((a, b)) = opt.split_once('x') {
            let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>()) else {
                return Err(bad());
            };
            size = Some((a, b));
        } else {
            return Err(bad());
        }
    }

    if grid.is_empty() {
        return Err(Error::Parse(format!(
            "line {header_line}: the header has no grid below it"
        )));
    }
    let height = grid.len();
    let width = grid[0].1.len();
    if let Some((n, row)) = grid.iter().find(|(_, r)| r.len() != width) {
        return Err(Error::Parse(format!(
            "line {n}: the row has {} but the first grid row (line {}) has {width} (slots are separated by spaces)",
            how_many(row.len(), "slot"),
            grid[0].0
        )));
    }
    let mut puzzle = Puzzle::with_slots(width, height, pillar)?;
    if let Some((a, b)) = size {
        if (a, b) != (puzzle.face_width(), puzzle.face_height()) {
            return Err(Error::Parse(format!(
                "line {header_line}: the header says {a}x{b} but the grid is {}x{} ({width} x {height} slots)",
                puzzle.face_width(),
                puzzle.face_height()
            )));
        }
    }
    puzzle.symmetry = symmetry;
    puzzle.undirected = undirected;
    puzzle.rules = rules;
    puzzle.settings = settings;
    puzzle.name = name;

    for (y, (n, row)) in grid.iter().enumerate() {
        for (x, token) in row.iter().enumerate() {
            let p = Pos::new(x, y);
            let at = |msg: String| Error::Parse(format!("line {n}, slot {p}: {msg}"));
            if p.kind() == SlotKind::Face {
                let sym = parse_face(token, &mut shapes, &colors).map_err(at)?;
                puzzle.cell_mut(p).symbol = sym;
            } else {
                let cell = parse_line_token(&puzzle, p, token).map_err(at)?;
                *puzzle.cell_mut(p) = cell;
            }
        }
    }
    if let Some((k, _)) = shapes.iter().find(|(_, d)| !d.used) {
        return Err(Error::Parse(format!(
            "shape \"{k}\" is defined but never used"
        )));
    }
    puzzle.check_symmetry()?;
    Ok(puzzle)
}

fn short(s: &str) -> String {
    if s.chars().count() <= 30 {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(27).collect::<String>())
    }
}

/// The most squares a shape spans across or down ([`Polyomino::bounds`]
/// counts them in a `u8`).
const MAX_SHAPE_SIDE: usize = u8::MAX as usize;

fn parse_shape_def(tokens: &[&str], n: usize) -> Result<(String, ShapeDef)> {
    let key = tokens[0];
    if !key.chars().all(|c| c.is_ascii_uppercase()) || key == "Y" {
        return Err(Error::Parse(format!(
            "line {n}: a shape label is capital letters other than \"Y\", not \"{key}\""
        )));
    }
    let usage = || {
        Error::Parse(format!(
            "line {n}: a shape is \"{key} = poly|ylop [rot] ROWS\" with ROWS like ##./.## or -"
        ))
    };
    let mut rest = tokens[2..].iter();
    let ylop = match rest.next() {
        Some(&"poly") => false,
        Some(&"ylop") => true,
        _ => return Err(usage()),
    };
    let mut next = rest.next();
    let rotatable = next == Some(&"rot");
    if rotatable {
        next = rest.next();
    }
    let rows = next.ok_or_else(usage)?;
    if rest.next().is_some() {
        return Err(usage());
    }
    let mut squares: Vec<(u8, u8)> = Vec::new();
    if *rows != "-" {
        let mut cells: Vec<(usize, usize)> = Vec::new();
        for (y, row) in rows.split('/').enumerate() {
            for (x, c) in row.chars().enumerate() {
                match c {
                    '#' => {
                        cells.push((x, y));
                    }
                    '.' => {}
                    _ => return Err(usage()),
                }
            }
        }
        if cells.is_empty() {
            return Err(Error::Parse(format!(
                "line {n}: shape \"{key}\" has no squares (write - for an empty shape)"
            )));
        }
        let span = |k: fn(&(usize, usize)) -> usize| {
            let lo = cells.iter().map(k).min().unwrap_or(0);
            (lo, cells.iter().map(k).max().unwrap_or(0) - lo + 1)
        };
        let ((x0, w), (y0, h)) = (span(|c| c.0), span(|c| c.1));
        if w > MAX_SHAPE_SIDE || h > MAX_SHAPE_SIDE {
            return Err(Error::Parse(format!(
                "line {n}: shape \"{key}\" spans {w} x {h} squares; at most \
                 {MAX_SHAPE_SIDE} across and down"
            )));
        }
        // Within the span, every square fits a u8 once moved to the corner.
        squares = cells
            .iter()
            .map(|&(x, y)| ((x - x0) as u8, (y - y0) as u8))
            .collect();
    }
    let shape = Polyomino::new(squares, rotatable);
    Ok((
        key.to_string(),
        ShapeDef {
            ylop,
            shape,
            used: false,
        },
    ))
}

fn parse_color(code: &str, colors: &BTreeMap<String, Color>) -> std::result::Result<Color, String> {
    if let Some(c) = builtin_color(code) {
        return Ok(c);
    }
    colors.get(code).cloned().ok_or_else(|| {
        format!("unknown colour code \"{code}\" (built-in: k w r o y g b p c m; others need a \"color {code} = NAME\" line)")
    })
}

fn parse_face(
    token: &str,
    shapes: &mut BTreeMap<String, ShapeDef>,
    colors: &BTreeMap<String, Color>,
) -> std::result::Result<Option<Symbol>, String> {
    if token == "." {
        return Ok(None);
    }
    let split = |pred: fn(char) -> bool| {
        let end = token.find(|c: char| !pred(c)).unwrap_or(token.len());
        (&token[..end], &token[end..])
    };
    let (kind, rest) = match token.chars().next() {
        Some('#') => (SymbolKind::Square, &token[1..]),
        Some('*') => (SymbolKind::Star, &token[1..]),
        Some(c) if c.is_ascii_digit() => {
            let (digits, rest) = split(|c| c.is_ascii_digit());
            let n: u32 = digits
                .parse()
                .map_err(|_| format!("triangle count \"{digits}\" is too large"))?;
            (SymbolKind::Triangle(n), rest)
        }
        Some(c) if c.is_ascii_uppercase() => {
            let (label, rest) = split(|c| c.is_ascii_uppercase());
            if label == "Y" {
                (SymbolKind::Nega, rest)
            } else {
                let def = shapes
                    .get_mut(label)
                    .ok_or_else(|| format!("shape \"{label}\" is not defined in the legend"))?;
                def.used = true;
                let shape = def.shape.clone();
                (
                    if def.ylop {
                        SymbolKind::Ylop(shape)
                    } else {
                        SymbolKind::Poly(shape)
                    },
                    rest,
                )
            }
        }
        _ => {
            return Err(format!(
                "\"{token}\" is not a face token (., #, *, a digit, Y or a shape label)"
            ))
        }
    };
    if !rest.chars().all(|c| c.is_ascii_lowercase()) {
        return Err(format!("\"{token}\": \"{rest}\" is not a colour code"));
    }
    let color = if rest.is_empty() {
        default_color(&kind)
    } else {
        parse_color(rest, colors)?
    };
    Ok(Some(Symbol::new(kind, color)))
}

fn parse_line_token(puzzle: &Puzzle, p: Pos, token: &str) -> std::result::Result<Cell, String> {
    let mut cell = Cell::default();
    let base = base_char(p);
    let mut seen_base = false;
    let mut chars = token.chars().peekable();
    let dup = |what: &str| format!("\"{token}\" gives {what} twice");
    let mut dot_set = false;
    let mut gap_set = false;
    while let Some(c) = chars.next() {
        match c {
            '+' | '-' | '|' => {
                if c != base {
                    let kind = if base == '+' { "a node" } else if base == '-' { "a horizontal edge" } else { "a vertical edge" };
                    return Err(format!("\"{c}\" in \"{token}\" does not fit {kind} (expected {base})"));
                }
                if seen_base {
                    return Err(dup("the line character"));
                }
                seen_base = true;
            }
            'S' => {
                if cell.start {
                    return Err(dup("S"));
                }
                cell.start = true;
            }
            'E' | '<' | '>' | '^' | 'v' => {
                if cell.end.is_some() {
                    return Err(dup("an end"));
                }
                let arrow_char = if c == 'E' {
                    chars.next_if(|a| matches!(a, '<' | '>' | '^' | 'v'))
                } else {
                    Some(c)
                };
                cell.end = Some(match arrow_char {
                    Some('<') => Direction::Left,
                    Some('>') => Direction::Right,
                    Some('^') => Direction::Up,
                    Some(_) => Direction::Down,
                    None => Direction::ALL
                        .into_iter()
                        .find(|&d| puzzle.neighbor(p, d).is_none())
                        .unwrap_or(Direction::Up),
                });
            }
            'o' | 'b' | 'y' | 'i' => {
                if dot_set {
                    return Err(dup("a dot"));
                }
                dot_set = true;
                cell.dot = match c {
                    'o' => Dot::Black,
                    'b' => Dot::Blue,
                    'y' => Dot::Yellow,
                    _ => Dot::Invisible,
                };
            }
            'x' | '~' => {
                if gap_set {
                    return Err(dup("a gap"));
                }
                gap_set = true;
                cell.gap = if c == 'x' { Gap::Break } else { Gap::Full };
            }
            _ => {
                return Err(format!(
                    "'{c}' in \"{token}\" is not a line mark ({base}, S, E with < > ^ v, dots o b y i, gaps x ~)"
                ))
            }
        }
    }
    Ok(cell)
}

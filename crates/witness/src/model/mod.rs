//! The puzzle model: the slot grid, its elements, symmetry and settings.
//!
//! A panel `w` faces wide and `h` faces high is a grid of `(2w+1) x (2h+1)`
//! *slots* (a pillar has `2w` columns, the last column wrapping onto the
//! first). A slot with both coordinates odd is a **face** and may hold a
//! [`Symbol`]; a slot with both even is a **node**; the others are **edges**.
//! Nodes and edges carry the line-side elements: starts, ends, dots and gaps.
//! `y` grows downward and the grid is stored column-major, as the
//! witnesspuzzles.com engine does.

mod polyomino;
mod symbol;
mod turn;

pub use polyomino::{Polyomino, ROTATION_BIT};
pub use symbol::{Color, Symbol, SymbolKind};
pub use turn::Turn;

use crate::error::Error;

/// The largest grid, in slots, this library accepts in either direction.
/// The site allows 21 (10 faces); other formats go further, so the limit is
/// generous but keeps every grid well within memory.
pub const MAX_SLOTS: usize = 129;

/// A slot position: `x` column, `y` row, both in slot units.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Column, growing to the right.
    pub x: usize,
    /// Row, growing downward.
    pub y: usize,
}

impl Pos {
    /// A position from its coordinates.
    pub const fn new(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }
    /// What kind of slot sits here.
    pub fn kind(self) -> SlotKind {
        match (self.x % 2, self.y % 2) {
            (1, 1) => SlotKind::Face,
            (0, 0) => SlotKind::Node,
            _ => SlotKind::Edge,
        }
    }
}

impl std::fmt::Display for Pos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// The three kinds of slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SlotKind {
    /// Both coordinates odd: a square of the panel, may hold a symbol.
    Face,
    /// Both coordinates even: a grid-line intersection.
    Node,
    /// One coordinate odd: a segment between two nodes.
    Edge,
}

/// One of the four moves, also the direction an end cap points to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// x − 1.
    Left,
    /// x + 1.
    Right,
    /// y − 1.
    Up,
    /// y + 1.
    Down,
}

impl Direction {
    /// All four, in the engine's move order (left, right, up, down).
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];
    /// The (dx, dy) step.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
        }
    }
    /// The opposite direction.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
        }
    }
    /// True for left and right.
    pub fn is_horizontal(self) -> bool {
        matches!(self, Direction::Left | Direction::Right)
    }
}

/// A hexagon dot on a node or edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Dot {
    /// No dot.
    #[default]
    None,
    /// Must be covered by any line.
    Black,
    /// Must be covered by the line the player draws (blue) in a symmetry puzzle.
    Blue,
    /// Must be covered by the mirrored (yellow) line in a symmetry puzzle.
    Yellow,
    /// Like black, but drawn in the line colour so it cannot be seen.
    Invisible,
}

impl Dot {
    /// True for every dot but [`Dot::None`].
    pub fn is_some(self) -> bool {
        self != Dot::None
    }
}

/// A gap in an edge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Gap {
    /// A whole edge.
    #[default]
    None,
    /// Broken in the middle: the line cannot pass, regions still connect.
    Break,
    /// Removed: the line cannot pass; joined to the border, it is outside.
    Full,
}

/// The symmetry of a two-line puzzle (see [`Puzzle::mirror`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Mirror left to right (around the pillar for pillars).
    pub x: bool,
    /// Mirror top to bottom.
    pub y: bool,
}

/// The engine's six settings flags; [`Settings::default`] is the site's.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Settings {
    /// Leftover elimination marks cancel each other in pairs.
    pub negations_cancel_negations: bool,
    /// Polyominoes and subtractive ones of equal total area cancel whatever their shapes.
    pub shapeless_zero_poly: bool,
    /// Polyomino footprints include their inner edges, so a piece cannot straddle the line.
    pub precise_polyominos: bool,
    /// Display only.
    pub flash_for_errors: bool,
    /// A start on an edge blocks that edge instead of joining the faces beside it.
    pub fat_startpoints: bool,
    /// Bridges, arrows and sizers (not supported here; such puzzles are rejected).
    pub custom_mechanics: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            negations_cancel_negations: true,
            shapeless_zero_poly: false,
            precise_polyominos: true,
            flash_for_errors: true,
            fat_startpoints: false,
            custom_mechanics: false,
        }
    }
}

/// Which game's rules judge a puzzle (`docs/rules.md#rule-profiles`). The
/// two agree except on removed lines, elimination marks and polyominoes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum RuleSet {
    /// witnesspuzzles.com's engine in play mode (the default).
    #[default]
    WitnessPuzzles,
    /// The Windmill's client: regions cross removed lines (nothing is
    /// outside the panel), pieces of equal area cancel whatever their
    /// shapes, footprints are faces only, and marks follow its own
    /// bookkeeping (every mark used exactly, marks never cancel).
    Windmill,
}

impl RuleSet {
    /// The name `--rules` and the API take: `witnesspuzzles` or `windmill`.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::WitnessPuzzles => "witnesspuzzles",
            RuleSet::Windmill => "windmill",
        }
    }
}

impl std::fmt::Display for RuleSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for RuleSet {
    type Err = Error;
    fn from_str(s: &str) -> Result<RuleSet, Error> {
        match s {
            "witnesspuzzles" => Ok(RuleSet::WitnessPuzzles),
            "windmill" => Ok(RuleSet::Windmill),
            _ => Err(Error::Options(format!(
                "unknown rules \"{s}\": witnesspuzzles or windmill"
            ))),
        }
    }
}

/// Everything one slot can hold. Nodes and edges use the line-side fields,
/// faces the symbol; [`Puzzle`] keeps each on its own kind of slot.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cell {
    /// A start point (node or edge).
    pub start: bool,
    /// An endpoint and the way its cap points (node or edge).
    pub end: Option<Direction>,
    /// A hexagon dot (node or edge).
    pub dot: Dot,
    /// A gap (edges; nodes too in formats that remove points).
    pub gap: Gap,
    /// A symbol (faces only).
    pub symbol: Option<Symbol>,
}

/// A puzzle: the slot grid and the flags that apply to all of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Puzzle {
    width: usize,
    height: usize,
    pillar: bool,
    /// Two lines, mirrored by this symmetry; `None` for a single line.
    pub symmetry: Option<Symmetry>,
    /// The engine settings.
    pub settings: Settings,
    /// The puzzle's title, if any (informational).
    pub name: Option<String>,
    /// A path and its reverse are one solution (Alcazar mazes, whose doors
    /// are both starts and ends): counting counts each such pair once.
    pub undirected: bool,
    /// The rules that judge it: the Windmill's for Windmill codes, the
    /// site's for everything else unless changed.
    pub rules: RuleSet,
    cells: Vec<Cell>,
}

impl Puzzle {
    /// An empty panel `w` faces wide and `h` faces high (a pillar wraps and
    /// has `2w` slot columns; a side of 0 faces is a single line of slots).
    pub fn new(w: usize, h: usize, pillar: bool) -> Result<Puzzle, Error> {
        let faces = MAX_SLOTS / 2;
        if w > faces || h > faces {
            return Err(Error::Size(format!(
                "a panel of {w} x {h} faces is outside 1..={faces} in each direction"
            )));
        }
        let width = if pillar { 2 * w } else { 2 * w + 1 };
        Puzzle::with_slots(width, 2 * h + 1, pillar)
    }

    /// An empty grid of `width x height` slots.
    pub fn with_slots(width: usize, height: usize, pillar: bool) -> Result<Puzzle, Error> {
        if width == 0 || height == 0 || width > MAX_SLOTS || height > MAX_SLOTS {
            return Err(Error::Size(format!(
                "a grid of {width} x {height} slots is outside 1..={MAX_SLOTS} in each direction"
            )));
        }
        if pillar && (!width.is_multiple_of(2) || width < 2) {
            return Err(Error::Size(format!(
                "a pillar needs an even number of slot columns, not {width}"
            )));
        }
        if height.is_multiple_of(2) {
            return Err(Error::Size(format!(
                "the grid needs an odd number of slot rows, not {height}"
            )));
        }
        if !pillar && width.is_multiple_of(2) {
            return Err(Error::Size(format!(
                "a panel that is not a pillar needs an odd number of slot columns, not {width}"
            )));
        }
        Ok(Puzzle {
            width,
            height,
            pillar,
            symmetry: None,
            settings: Settings::default(),
            name: None,
            undirected: false,
            rules: RuleSet::default(),
            cells: vec![Cell::default(); width * height],
        })
    }

    /// Width in slots (`W`).
    pub fn width(&self) -> usize {
        self.width
    }
    /// Height in slots (`H`).
    pub fn height(&self) -> usize {
        self.height
    }
    /// Width in faces.
    pub fn face_width(&self) -> usize {
        self.width / 2
    }
    /// Height in faces.
    pub fn face_height(&self) -> usize {
        self.height / 2
    }
    /// True when the panel wraps around horizontally.
    pub fn pillar(&self) -> bool {
        self.pillar
    }
    /// The index of a slot in column-major order.
    pub fn index(&self, p: Pos) -> usize {
        p.x * self.height + p.y
    }
    /// The position of a column-major index.
    pub fn pos(&self, i: usize) -> Pos {
        Pos::new(i / self.height, i % self.height)
    }
    /// True when `p` lies on the grid.
    pub fn contains(&self, p: Pos) -> bool {
        p.x < self.width && p.y < self.height
    }
    /// The slot at `p`; panics when `p` is off the grid (see
    /// [`Puzzle::contains`]).
    pub fn cell(&self, p: Pos) -> &Cell {
        assert!(
            self.contains(p),
            "{p} is off the {}x{}-slot grid",
            self.width,
            self.height
        );
        &self.cells[self.index(p)]
    }
    /// The slot at `p`, mutably; panics when `p` is off the grid (see
    /// [`Puzzle::contains`]).
    pub fn cell_mut(&mut self, p: Pos) -> &mut Cell {
        assert!(
            self.contains(p),
            "{p} is off the {}x{}-slot grid",
            self.width,
            self.height
        );
        let i = self.index(p);
        &mut self.cells[i]
    }
    /// Every slot, column by column (index `x * height + y`).
    pub fn cell_slice(&self) -> &[Cell] {
        &self.cells
    }
    /// Every slot with its position, column by column.
    pub fn cells(&self) -> impl Iterator<Item = (Pos, &Cell)> {
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, c)| (Pos::new(i / self.height, i % self.height), c))
    }
    /// Every position, column by column.
    pub fn positions(&self) -> impl Iterator<Item = Pos> {
        let h = self.height;
        (0..self.width * self.height).map(move |i| Pos::new(i / h, i % h))
    }

    /// The slot reached from `p` by the step `(dx, dy)`, wrapping x on
    /// pillars; `None` when it is off the grid.
    pub fn step(&self, p: Pos, dx: isize, dy: isize) -> Option<Pos> {
        let y = p.y as isize + dy;
        if y < 0 || y >= self.height as isize {
            return None;
        }
        let mut x = p.x as isize + dx;
        if self.pillar {
            x = x.rem_euclid(self.width as isize);
        } else if x < 0 || x >= self.width as isize {
            return None;
        }
        Some(Pos::new(x as usize, y as usize))
    }

    /// The neighbour of `p` in direction `d`, if on the grid.
    pub fn neighbor(&self, p: Pos, d: Direction) -> Option<Pos> {
        let (dx, dy) = d.delta();
        self.step(p, dx, dy)
    }

    /// An error when the symmetry cannot pair nodes with nodes: on a
    /// pillar the mirror turns the panel half way round, so it needs an
    /// even number of faces round it (a multiple of 4 slot columns; the
    /// site's editor refuses the others, `docs/rules.md#the-puzzle-json`).
    pub fn check_symmetry(&self) -> Result<(), Error> {
        if self.symmetry.is_some() && self.pillar && !self.width.is_multiple_of(4) {
            return Err(Error::Unsupported(format!(
                "a symmetric pillar needs an even number of faces round it \
                 (a multiple of 4 slot columns), not {} slot columns ({})",
                self.width,
                crate::error::how_many(self.width / 2, "face")
            )));
        }
        Ok(())
    }

    /// The mirror of `p` under the puzzle's symmetry
    /// (`docs/rules.md#the-puzzle-json`), or `p` itself without symmetry.
    pub fn mirror(&self, p: Pos) -> Pos {
        let Some(s) = self.symmetry else { return p };
        let (w, h) = (self.width, self.height);
        let y = if s.y { h - 1 - p.y } else { p.y };
        let x = if self.pillar {
            let x = p.x + w / 2;
            let x = if s.x { (2 * w - x) % w } else { x };
            x % w
        } else if s.x {
            w - 1 - p.x
        } else {
            p.x
        };
        Pos::new(x, y)
    }

    /// The direction a move takes on the mirror line when the main line moves `d`.
    pub fn mirror_direction(&self, d: Direction) -> Direction {
        match self.symmetry {
            Some(s) if (s.x && d.is_horizontal()) || (s.y && !d.is_horizontal()) => d.opposite(),
            _ => d,
        }
    }

    /// True when the puzzle has symmetry and `p` is its own mirror.
    pub fn is_self_mirror(&self, p: Pos) -> bool {
        self.symmetry.is_some() && self.mirror(p) == p
    }

    /// The start points, column by column.
    pub fn starts(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells().filter(|(_, c)| c.start).map(|(p, _)| p)
    }
    /// The endpoints, column by column.
    pub fn ends(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells()
            .filter(|(_, c)| c.end.is_some())
            .map(|(p, _)| p)
    }

    /// The faces that are outside the panel: reachable from the grid's border
    /// across removed (full-gap) edges only (`docs/rules.md#regions`). Indexed
    /// like slots. None under the Windmill's rules, whose regions cross
    /// removed lines (`docs/rules.md#rule-profiles`).
    pub fn outside_faces(&self) -> Vec<bool> {
        let (w, h) = (self.width, self.height);
        let mut out = vec![false; w * h];
        if self.rules == RuleSet::Windmill {
            return out;
        }
        let mut stack = Vec::new();
        for x in (1..w).step_by(2) {
            stack.push(Pos::new(x, 0));
            stack.push(Pos::new(x, h - 1));
        }
        if !self.pillar {
            for y in (1..h).step_by(2) {
                stack.push(Pos::new(0, y));
                stack.push(Pos::new(w - 1, y));
            }
        }
        let mut seen = vec![false; w * h];
        while let Some(p) = stack.pop() {
            let i = self.index(p);
            if seen[i] {
                continue;
            }
            let through = match p.kind() {
                SlotKind::Face => true,
                SlotKind::Edge => self.cells[i].gap == Gap::Full,
                SlotKind::Node => false,
            };
            if !through {
                continue;
            }
            seen[i] = true;
            if p.kind() == SlotKind::Face {
                out[i] = true;
            }
            for d in Direction::ALL {
                if let Some(q) = self.neighbor(p, d) {
                    stack.push(q);
                }
            }
        }
        out
    }

    /// Puts a symbol on a face.
    pub fn set_symbol(&mut self, p: Pos, symbol: Option<Symbol>) -> Result<(), Error> {
        if !self.contains(p) || p.kind() != SlotKind::Face {
            return Err(Error::Invalid(format!("{p} is not a face of the grid")));
        }
        self.cell_mut(p).symbol = symbol;
        Ok(())
    }
}

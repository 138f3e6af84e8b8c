//! Turning a panel over: its mirror images and its transpose.
//!
//! A turned copy is the same puzzle to a player: every slot moves with the
//! panel, endpoint caps and polyomino shapes turn with it, and a symmetry
//! keeps its kind (a transposed one swaps its axes). The rules judge a
//! turned path on the turned copy as they judge the path on the original
//! (checked on the corpus's verdicts by the tests), so solutions, counts
//! and uniqueness carry over, but for one corner of the site's rules: where
//! three elimination marks or more share a region, so that two may cancel
//! each other beside one that erases, a verdict can depend on the order of
//! the engine's flood (`docs/rules.md`, "Order dependence"), which turns
//! with the panel (one published puzzle of the corpus has a copy with a
//! second solution). A search meets the copy from another side, which is
//! what makes copies useful for measuring it.

use super::{Direction, Polyomino, Pos, Puzzle, Symbol, SymbolKind, Symmetry};
use crate::error::{Error, Result};

/// A way to turn a panel over.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Mirrored left to right (a pillar around one of its columns).
    MirrorX,
    /// Mirrored top to bottom.
    MirrorY,
    /// Transposed: rows become columns (not for pillars).
    Transpose,
}

impl Turn {
    /// Every way, in a fixed order.
    pub const ALL: [Turn; 3] = [Turn::MirrorX, Turn::MirrorY, Turn::Transpose];

    /// The letter that names it: `x`, `y` or `t` (letters in order are
    /// what `witness convert --turn` and the API's `"turn"` take,
    /// [`Turn::sequence`]; `str::parse` reads one).
    pub fn letter(self) -> char {
        match self {
            Turn::MirrorX => 'x',
            Turn::MirrorY => 'y',
            Turn::Transpose => 't',
        }
    }

    /// True when every turned copy of `puzzle` has exactly its solutions,
    /// turned: when it holds at most two elimination marks. Three or more
    /// may share a region, where a verdict can follow the engine's flood
    /// order (see the module's page); such a copy may have other
    /// solutions, or not.
    pub fn keeps_solutions(puzzle: &Puzzle) -> bool {
        let marks = puzzle
            .cells()
            .filter(|(_, c)| {
                c.symbol
                    .as_ref()
                    .is_some_and(|s| s.kind == SymbolKind::Nega)
            })
            .count();
        marks <= 2
    }

    /// Where slot `p` of `puzzle` goes; `None` when `p` is not a slot of
    /// `puzzle`.
    pub fn pos(self, puzzle: &Puzzle, p: Pos) -> Option<Pos> {
        if !puzzle.contains(p) {
            return None;
        }
        let (w, h) = (puzzle.width(), puzzle.height());
        Some(match self {
            Turn::MirrorX if puzzle.pillar() => Pos::new((w - p.x) % w, p.y),
            Turn::MirrorX => Pos::new(w - 1 - p.x, p.y),
            Turn::MirrorY => Pos::new(p.x, h - 1 - p.y),
            Turn::Transpose => Pos::new(p.y, p.x),
        })
    }

    /// The direction a move in direction `d` takes on the copy.
    pub fn direction(self, d: Direction) -> Direction {
        use Direction::*;
        match (self, d) {
            (Turn::MirrorX, Left | Right) | (Turn::MirrorY, Up | Down) => d.opposite(),
            (Turn::Transpose, Left) => Up,
            (Turn::Transpose, Up) => Left,
            (Turn::Transpose, Right) => Down,
            (Turn::Transpose, Down) => Right,
            _ => d,
        }
    }

    /// The shape `p` takes on the copy (rotatable or not, as it was).
    pub fn shape(self, p: &Polyomino) -> Polyomino {
        let (w, h) = p.bounds();
        let cells = p.cells().iter().map(|&(x, y)| match self {
            // x < w <= 256, so the mirrored coordinate fits a u8.
            Turn::MirrorX => ((w - 1 - x as usize) as u8, y),
            Turn::MirrorY => (x, (h - 1 - y as usize) as u8),
            Turn::Transpose => (y, x),
        });
        Polyomino::new(cells, p.rotatable)
    }

    fn symbol(self, s: &Symbol) -> Symbol {
        let kind = match &s.kind {
            SymbolKind::Poly(p) if !p.is_ignored() => SymbolKind::Poly(self.shape(p)),
            SymbolKind::Ylop(p) if !p.is_ignored() => SymbolKind::Ylop(self.shape(p)),
            k => k.clone(),
        };
        Symbol::new(kind, s.color.clone())
    }
}

impl Turn {
    /// The most letters [`Turn::sequence`] reads: every way of turning a
    /// panel over (the eight symmetries of a square) takes three at most.
    pub const MAX_SEQUENCE: usize = 8;

    /// The turns a string of letters names ([`Turn::letter`]), to be
    /// applied in order ([`Puzzle::turned_by`]): `x` mirrors left to
    /// right, `xy` turns the panel half round, `tx` a quarter turn
    /// clockwise, `ty` a quarter turn anticlockwise. An
    /// [`Error::Options`] for no letter, another letter, or more than
    /// [`Turn::MAX_SEQUENCE`].
    pub fn sequence(s: &str) -> Result<Vec<Turn>> {
        let bad = || {
            Error::Options(format!(
                "a turn is one to {} of the letters x, y and t, not \"{s}\"",
                Turn::MAX_SEQUENCE
            ))
        };
        if s.is_empty() || s.chars().count() > Turn::MAX_SEQUENCE {
            return Err(bad());
        }
        s.chars()
            .map(|c| {
                Turn::ALL
                    .into_iter()
                    .find(|t| t.letter() == c)
                    .ok_or_else(bad)
            })
            .collect()
    }
}

impl std::str::FromStr for Turn {
    type Err = Error;
    /// The way [`Turn::letter`] names; an [`Error::Options`] for anything
    /// else.
    fn from_str(s: &str) -> Result<Turn> {
        Turn::ALL
            .into_iter()
            .find(|t| s.len() == 1 && s.starts_with(t.letter()))
            .ok_or_else(|| Error::Options(format!("a turn is \"x\", \"y\" or \"t\", not \"{s}\"")))
    }
}

impl Puzzle {
    /// The copy of this puzzle turned over by `turn`; an error for the
    /// transpose of a pillar, which has none.
    pub fn turned(&self, turn: Turn) -> Result<Puzzle> {
        let (w, h, pillar) = (self.width, self.height, self.pillar);
        let (tw, th) = match turn {
            Turn::Transpose if pillar => {
                return Err(Error::Unsupported(
                    "a pillar cannot be transposed (its columns wrap, its rows do not)".into(),
                ))
            }
            Turn::Transpose => (h, w),
            Turn::MirrorX | Turn::MirrorY => (w, h),
        };
        let mut q = Puzzle::with_slots(tw, th, pillar)?;
        q.settings = self.settings;
        q.name = self.name.clone();
        q.undirected = self.undirected;
        q.rules = self.rules;
        q.symmetry = self.symmetry.map(|s| match turn {
            Turn::Transpose => Symmetry { x: s.y, y: s.x },
            Turn::MirrorX | Turn::MirrorY => s,
        });
        for (p, cell) in self.cells() {
            let to = turn.pos(self, p).expect("a slot of the puzzle");
            let c = q.cell_mut(to);
            *c = cell.clone();
            c.end = cell.end.map(|d| turn.direction(d));
            c.symbol = cell.symbol.as_ref().map(|s| turn.symbol(s));
        }
        q.check_symmetry()?;
        Ok(q)
    }

    /// The copy of this puzzle turned by each of `turns` in order (see
    /// [`Turn::sequence`]); an error where one of them is the transpose
    /// of a pillar.
    pub fn turned_by(&self, turns: &[Turn]) -> Result<Puzzle> {
        let mut q = self.clone();
        for &t in turns {
            q = q.turned(t)?;
        }
        Ok(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_twice_the_same_way_gives_the_puzzle_back() {
        let text = include_str!("../../../../examples/puzzles/everything.json");
        let p = crate::formats::read_puzzle(text, None).unwrap();
        for t in Turn::ALL {
            let q = p.turned(t).unwrap();
            assert_ne!(q, p, "{t:?} moves something");
            assert_eq!(q.turned(t).unwrap(), p, "{t:?} twice");
        }
    }

    #[test]
    fn copies_keep_the_solutions_of_panels_with_two_marks_at_most() {
        let mut p = Puzzle::new(2, 2, false).unwrap();
        let mark = || Some(Symbol::new(SymbolKind::Nega, super::super::Color::White));
        for (n, face) in [(1, 1), (3, 1), (1, 3)].into_iter().enumerate() {
            assert!(Turn::keeps_solutions(&p), "{n} marks");
            p.cell_mut(Pos::new(face.0, face.1)).symbol = mark();
        }
        assert!(!Turn::keeps_solutions(&p), "three marks");
    }

    #[test]
    fn letters_name_the_turns() {
        for t in Turn::ALL {
            assert_eq!(t.letter().to_string().parse::<Turn>().unwrap(), t);
        }
        for bad in ["", "X", "xy", "z"] {
            assert!(
                matches!(bad.parse::<Turn>(), Err(Error::Options(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn sequences_of_letters_turn_in_order() {
        assert_eq!(
            Turn::sequence("tx").unwrap(),
            [Turn::Transpose, Turn::MirrorX]
        );
        for bad in ["", "xz", "X", "xxxxxxxxx"] {
            assert!(
                matches!(Turn::sequence(bad), Err(Error::Options(_))),
                "{bad}"
            );
        }
        // A quarter turn clockwise ("tx") of a 3x2 panel: the top-left
        // node goes to the top right of the 2x3 copy, the top-right node
        // to the bottom right, and a face symbol on the left of the top
        // row (face (1, 1)) to the right of the left column (face (3, 1)).
        // Four quarter turns give the panel back; so do "xy" twice.
        let mut p = Puzzle::new(3, 2, false).unwrap();
        p.cell_mut(Pos::new(0, 0)).start = true;
        p.cell_mut(Pos::new(6, 0)).end = Some(Direction::Right);
        p.cell_mut(Pos::new(1, 1)).symbol =
            Some(Symbol::new(SymbolKind::Square, super::super::Color::White));
        let q = p.turned_by(&Turn::sequence("tx").unwrap()).unwrap();
        assert_eq!((q.width(), q.height()), (5, 7));
        assert!(q.cell(Pos::new(4, 0)).start);
        assert_eq!(q.cell(Pos::new(4, 6)).end, Some(Direction::Down));
        assert!(q.cell(Pos::new(3, 1)).symbol.is_some());
        let four = Turn::sequence("txtxtxtx").unwrap();
        assert_eq!(p.turned_by(&four).unwrap(), p);
        assert_eq!(p.turned_by(&Turn::sequence("xyxy").unwrap()).unwrap(), p);
        // A pillar mirrors, but no quarter turn.
        let pillar = Puzzle::new(3, 2, true).unwrap();
        assert!(pillar.turned_by(&Turn::sequence("xy").unwrap()).is_ok());
        assert!(matches!(
            pillar.turned_by(&Turn::sequence("tx").unwrap()),
            Err(Error::Unsupported(_))
        ));
    }

    #[test]
    fn shapes_turn_with_the_panel() {
        // An L: (0,0), (0,1), (1,1).
        let l = Polyomino::new([(0, 0), (0, 1), (1, 1)], false);
        assert_eq!(
            Turn::MirrorX.shape(&l),
            Polyomino::new([(1, 0), (1, 1), (0, 1)], false)
        );
        assert_eq!(
            Turn::MirrorY.shape(&l),
            Polyomino::new([(0, 1), (0, 0), (1, 0)], false)
        );
        assert_eq!(
            Turn::Transpose.shape(&l),
            Polyomino::new([(0, 0), (1, 0), (1, 1)], false)
        );
    }

    #[test]
    fn a_pillar_mirrors_but_does_not_transpose() {
        let p = Puzzle::new(3, 2, true).unwrap();
        assert!(p.turned(Turn::MirrorX).is_ok());
        assert!(matches!(
            p.turned(Turn::Transpose),
            Err(Error::Unsupported(_))
        ));
        // Node columns stay node columns around the wrap.
        let at = |x, y| Turn::MirrorX.pos(&p, Pos::new(x, y));
        assert_eq!(at(0, 0), Some(Pos::new(0, 0)));
        assert_eq!(at(2, 0), Some(Pos::new(4, 0)));
        assert_eq!(at(1, 1), Some(Pos::new(5, 1)));
        assert_eq!(at(6, 0), None, "past the last column");
    }

    /// End caps turn with the panel: on a 2x2 panel, the top-right
    /// corner's cap to the right becomes the top-left corner's cap to the
    /// left (mirrored left to right), the bottom-right corner's cap to the
    /// right (top to bottom) and the bottom-left corner's cap downward
    /// (transposed); the top middle node's cap upward stays upward, turns
    /// downward at the bottom middle, and leftward at the left middle.
    #[test]
    fn end_caps_turn_with_the_panel() {
        let mut p = Puzzle::new(2, 2, false).unwrap();
        p.cell_mut(Pos::new(4, 0)).end = Some(Direction::Right);
        p.cell_mut(Pos::new(2, 0)).end = Some(Direction::Up);
        let end = |q: &Puzzle, x, y| q.cell(Pos::new(x, y)).end;
        let x = p.turned(Turn::MirrorX).unwrap();
        assert_eq!(end(&x, 0, 0), Some(Direction::Left));
        assert_eq!(end(&x, 2, 0), Some(Direction::Up));
        let y = p.turned(Turn::MirrorY).unwrap();
        assert_eq!(end(&y, 4, 4), Some(Direction::Right));
        assert_eq!(end(&y, 2, 4), Some(Direction::Down));
        let t = p.turned(Turn::Transpose).unwrap();
        assert_eq!(end(&t, 0, 4), Some(Direction::Down));
        assert_eq!(end(&t, 0, 2), Some(Direction::Left));
    }
}

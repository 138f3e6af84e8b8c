//! Deterministic random panels' building blocks, shared by the tests that
//! compare fast paths with slow references.

use witness::model::{
    Cell, Color, Direction, Dot, Gap, Polyomino, Pos, Puzzle, SlotKind, Symbol, SymbolKind,
    Symmetry,
};

/// A small deterministic generator (xorshift64*).
pub struct Rng(pub u64);

impl Rng {
    /// The next number.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number below `n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// True `percent` percent of the time.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// The colours random symbols take.
pub const COLORS: [Color; 3] = [Color::Black, Color::White, Color::Red];

/// A random polyomino of one to three cells, rotatable 40% of the time.
pub fn random_shape(r: &mut Rng) -> Polyomino {
    let n = 1 + r.below(3) as u8;
    let mut cells = vec![(0u8, 0u8)];
    while cells.len() < n as usize {
        let &(x, y) = &cells[r.below(cells.len() as u64) as usize];
        let c = match r.below(4) {
            0 => (x + 1, y),
            1 => (x, y + 1),
            2 if x > 0 => (x - 1, y),
            _ if y > 0 => (x, y - 1),
            _ => (x + 1, y),
        };
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    Polyomino::new(cells, r.chance(40))
}

/// Puts a start and an end (ending downwards) on random slots of `slots`,
/// clearing any gap there; they may coincide.
pub fn place_start_end(r: &mut Rng, p: &mut Puzzle, slots: &[Pos]) {
    let s = slots[r.below(slots.len() as u64) as usize];
    p.cell_mut(s).start = true;
    p.cell_mut(s).gap = Gap::None;
    let e = slots[r.below(slots.len() as u64) as usize];
    p.cell_mut(e).end = Some(Direction::Down);
    p.cell_mut(e).gap = Gap::None;
}

/// Gives each start of `p` its mirror twin, and with `ends` each end too
/// (pointing down): the engine lets a symmetry puzzle's mirror line end on
/// a slot that is no end, so an end need not have its twin.
pub fn mirror_starts_and_ends(p: &mut Puzzle, ends: bool) {
    for q in p.positions().collect::<Vec<_>>() {
        let m = p.mirror(q);
        if p.cell(q).start {
            p.cell_mut(m).start = true;
        }
        if ends && p.cell(q).end.is_some() {
            p.cell_mut(m).end = Some(Direction::Down);
        }
    }
}

/// An empty panel of at most `max` faces a side, or in a fifth of cases a
/// pillar 3 or 4 faces round and at most `pillar_rows` high; in three
/// tenths of cases with a symmetry (mirror, rotation, or along a pillar).
pub fn random_frame(r: &mut Rng, max: u64, pillar_rows: u64) -> Puzzle {
    let pillar = r.chance(20);
    let symmetric = r.chance(30);
    let (w, h) = if pillar {
        (
            if symmetric {
                4
            } else {
                3 + r.below(2) as usize
            },
            1 + r.below(pillar_rows) as usize,
        )
    } else {
        (1 + r.below(max) as usize, 1 + r.below(max) as usize)
    };
    let mut p = Puzzle::new(w, h, pillar).unwrap();
    if symmetric {
        let x = r.chance(50);
        let y = if pillar {
            r.chance(50)
        } else {
            !x || r.chance(50)
        };
        p.symmetry = Some(Symmetry { x, y });
    }
    p
}

/// Fills a node or edge slot at random: on an edge a gap (broken or full)
/// `gaps` percent of the time, else a dot of any colour `dots` percent of
/// the time, and a start or an end now and then.
pub fn line_slot(r: &mut Rng, c: &mut Cell, kind: SlotKind, gaps: u64, dots: u64) {
    if kind == SlotKind::Edge && r.chance(gaps) {
        c.gap = if r.chance(50) { Gap::Break } else { Gap::Full };
        return;
    }
    if r.chance(dots) {
        c.dot = match r.below(4) {
            0 => Dot::Blue,
            1 => Dot::Yellow,
            2 => Dot::Invisible,
            _ => Dot::Black,
        };
    }
    if r.chance(7) {
        c.start = true;
    }
    if r.chance(7) {
        c.end = Some(Direction::Up);
    }
}

/// The node and edge slots of `p` (where a line runs), in reading order.
pub fn line_slots(p: &Puzzle) -> Vec<Pos> {
    p.positions()
        .filter(|q| q.kind() != SlotKind::Face)
        .collect()
}

/// The face slots of `p`, in reading order.
pub fn face_slots(p: &Puzzle) -> Vec<Pos> {
    p.positions()
        .filter(|q| q.kind() == SlotKind::Face)
        .collect()
}

/// A start and an end on random line slots ([`place_start_end`]) and, on
/// a symmetry panel, the starts' mirror twins, and the ends' too with odds
/// of `end_odds` in 100 (100: always, drawing no number).
pub fn starts_and_ends(r: &mut Rng, p: &mut Puzzle, end_odds: u64) {
    let slots = line_slots(p);
    place_start_end(r, p, &slots);
    if p.symmetry.is_some() {
        let ends = end_odds >= 100 || r.chance(end_odds);
        mirror_starts_and_ends(p, ends);
    }
}

/// Fills every slot of `p` in reading order: draws a colour, then on a
/// face, with odds of `face_odds` in 100, a symbol of the kind `kind`
/// draws in that colour; on a node or an edge, [`line_slot`] with `gaps`
/// and `dots`.
pub fn fill_slots(
    r: &mut Rng,
    p: &mut Puzzle,
    face_odds: u64,
    kind: impl Fn(&mut Rng) -> SymbolKind,
    (gaps, dots): (u64, u64),
) {
    for q in p.positions().collect::<Vec<_>>() {
        let color = COLORS[r.below(COLORS.len() as u64) as usize].clone();
        let slot = q.kind();
        if slot == SlotKind::Face {
            if r.chance(face_odds) {
                p.cell_mut(q).symbol = Some(Symbol::new(kind(r), color));
            }
        } else {
            line_slot(r, p.cell_mut(q), slot, gaps, dots);
        }
    }
}

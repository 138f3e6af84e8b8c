//! Polyomino shapes as sets of cells.

/// A polyomino shape: a set of unit squares, normalised so the smallest x
/// and the smallest y are 0. Shapes may be disconnected and larger than the
/// site's 4x4 box.
///
/// An empty shape is special, as in the engine: when `rotatable` is false it
/// stands for the site's `polyshape: 0` and is ignored by the rules; when it
/// is true (any other empty mask) it can never be placed.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Polyomino {
    cells: Vec<(u8, u8)>,
    /// May be turned by any multiple of 90 degrees (never mirrored).
    pub rotatable: bool,
}

/// The site's rotation bit in a `polyshape` number.
pub const ROTATION_BIT: u32 = 1 << 20;

impl Polyomino {
    /// A shape from its squares (x right, y down); normalised and sorted.
    /// The readers refuse shapes more than 255 squares across or down once
    /// normalised; the type holds up to 256.
    pub fn new(cells: impl IntoIterator<Item = (u8, u8)>, rotatable: bool) -> Polyomino {
        let mut cells: Vec<(u8, u8)> = cells.into_iter().collect();
        cells.sort_unstable_by_key(|&(x, y)| (y, x));
        cells.dedup();
        let mx = cells.iter().map(|c| c.0).min().unwrap_or(0);
        let my = cells.iter().map(|c| c.1).min().unwrap_or(0);
        for c in &mut cells {
            c.0 -= mx;
            c.1 -= my;
        }
        Polyomino { cells, rotatable }
    }

    /// A shape from the site's `polyshape` number
    /// (`docs/rules.md#the-puzzle-json`): bit `x*4+y` of the low 16 is square
    /// (x, y); bit 20 allows rotation.
    pub fn from_mask(mask: u32) -> Polyomino {
        let mut cells = Vec::new();
        for x in 0..4u8 {
            for y in 0..4u8 {
                if mask & (1 << (x * 4 + y)) != 0 {
                    cells.push((x, y));
                }
            }
        }
        // Any non-zero mask with no squares is unplaceable, like the engine's
        // ROTATION_BIT-only shape; only mask 0 is ignored.
        let rotatable = mask & ROTATION_BIT != 0 || (cells.is_empty() && mask != 0);
        Polyomino::new(cells, rotatable)
    }

    /// The site's `polyshape` number, or `None` when the shape does not fit
    /// a 4x4 box.
    pub fn to_mask(&self) -> Option<u32> {
        let mut m = 0u32;
        for &(x, y) in &self.cells {
            if x > 3 || y > 3 {
                return None;
            }
            m |= 1 << (x * 4 + y);
        }
        if self.rotatable {
            m |= ROTATION_BIT;
        }
        Some(m)
    }

    /// The squares, sorted by row then column.
    pub fn cells(&self) -> &[(u8, u8)] {
        &self.cells
    }
    /// The number of squares.
    pub fn size(&self) -> usize {
        self.cells.len()
    }
    /// True for the shape the rules ignore (the site's `polyshape: 0`).
    pub fn is_ignored(&self) -> bool {
        self.cells.is_empty() && !self.rotatable
    }
    /// Width and height of the bounding box (up to 256 each).
    pub fn bounds(&self) -> (usize, usize) {
        let w = self.cells.iter().map(|c| c.0 as usize + 1).max();
        let h = self.cells.iter().map(|c| c.1 as usize + 1).max();
        (w.unwrap_or(0), h.unwrap_or(0))
    }

    /// The orientations the rules try: just this one, or its four
    /// quarter-turns (all four, even when some coincide, as the engine does).
    pub fn orientations(&self) -> Vec<Polyomino> {
        if !self.rotatable {
            return vec![Polyomino::new(self.cells.iter().copied(), false)];
        }
        let mut out = Vec::with_capacity(4);
        let mut cur: Vec<(i32, i32)> = self
            .cells
            .iter()
            .map(|&(x, y)| (x as i32, y as i32))
            .collect();
        for _ in 0..4 {
            let mx = cur.iter().map(|c| c.0).min().unwrap_or(0);
            let my = cur.iter().map(|c| c.1).min().unwrap_or(0);
            out.push(Polyomino::new(
                cur.iter().map(|&(x, y)| ((x - mx) as u8, (y - my) as u8)),
                false,
            ));
            // (x, y) -> (y, -x): the engine's (x, y) -> (y, 3 - x), unshifted.
            cur = cur.iter().map(|&(x, y)| (y, -x)).collect();
        }
        out
    }

    /// The engine's precise footprint (`docs/rules.md#the-puzzle-json`) in slot
    /// offsets from the anchor, the first square by row then column.
    /// `subtractive` selects the ylop footprint (all edges around every square)
    /// over the poly one (inner edges only). With `precise` false, only the
    /// squares.
    pub fn footprint(&self, subtractive: bool, precise: bool) -> Vec<(isize, isize)> {
        let Some(&(ax, ay)) = self.cells.first() else {
            return Vec::new();
        };
        let has = |x: i32, y: i32| {
            x >= 0
                && y >= 0
                && self
                    .cells
                    .binary_search_by_key(&(y as u8, x as u8), |c| (c.1, c.0))
                    .is_ok()
        };
        let mut out = Vec::new();
        for &(x, y) in &self.cells {
            let sx = 2 * (x as isize - ax as isize);
            let sy = 2 * (y as isize - ay as isize);
            out.push((sx, sy));
            if !precise {
                continue;
            }
            let (xi, yi) = (x as i32, y as i32);
            if subtractive {
                if !has(xi - 1, yi) {
                    out.push((sx - 1, sy));
                }
                if !has(xi, yi - 1) {
                    out.push((sx, sy - 1));
                }
                out.push((sx + 1, sy));
                out.push((sx, sy + 1));
            } else {
                if has(xi + 1, yi) {
                    out.push((sx + 1, sy));
                }
                if has(xi, yi + 1) {
                    out.push((sx, sy + 1));
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_71_is_the_default_l() {
        let p = Polyomino::from_mask(71);
        assert_eq!(p.cells(), &[(0, 0), (0, 1), (0, 2), (1, 2)]);
        assert_eq!(p.to_mask(), Some(71));
        assert!(!p.rotatable);
    }

    #[test]
    fn empty_masks() {
        assert!(Polyomino::from_mask(0).is_ignored());
        let r = Polyomino::from_mask(ROTATION_BIT);
        assert!(!r.is_ignored() && r.size() == 0);
        let hi = Polyomino::from_mask(1 << 16);
        assert!(!hi.is_ignored() && hi.size() == 0);
    }

    #[test]
    fn rotations_of_an_l() {
        let p = Polyomino::from_mask(71 | ROTATION_BIT);
        let o = p.orientations();
        assert_eq!(o.len(), 4);
        // A quarter turn of the vertical L is a horizontal one of width 3.
        assert_eq!(o[1].bounds(), (3, 2));
        assert_eq!(o[2].bounds(), (2, 3));
        assert_ne!(o[0], o[2]);
    }

    #[test]
    fn the_widest_shape_has_its_bounds() {
        // Squares at columns 0 and 255: 256 across, one down, and so when
        // turned a quarter.
        let p = Polyomino::new([(0, 0), (255, 0)], true);
        assert_eq!(p.bounds(), (256, 1));
        assert_eq!(p.orientations()[1].bounds(), (1, 256));
    }

    #[test]
    fn footprints() {
        // Domino, horizontal: squares at 0 and 2, inner edge at 1.
        let d = Polyomino::new([(0, 0), (1, 0)], false);
        let mut f = d.footprint(false, true);
        f.sort();
        assert_eq!(f, vec![(0, 0), (1, 0), (2, 0)]);
        // Its subtractive footprint covers all 7 edges around both squares.
        let f = d.footprint(true, true);
        assert_eq!(f.len(), 2 + 7);
        // A shape whose anchor is not its leftmost square reaches left.
        let s = Polyomino::new([(1, 0), (0, 1), (1, 1)], false);
        assert!(s.footprint(false, false).contains(&(-2, 2)));
    }
}

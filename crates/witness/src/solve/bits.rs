//! Fixed-size bitsets over the nodes of a grid, for fast flood fills.

/// A set of up to `64 * N` nodes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Bits<const N: usize>(pub [u64; N]);

/// Word by word, without the length an array's hash writes first (`N` is
/// fixed): the search's tables hash bitset keys at every step.
impl<const N: usize> std::hash::Hash for Bits<N> {
    #[inline]
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for &w in &self.0 {
            state.write_u64(w);
        }
    }
}

impl<const N: usize> Default for Bits<N> {
    fn default() -> Self {
        Bits([0; N])
    }
}

impl<const N: usize> Bits<N> {
    /// The empty set.
    #[inline]
    pub fn empty() -> Self {
        Bits([0; N])
    }
    /// Adds bit `i`.
    #[inline]
    pub fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
    /// Removes bit `i`.
    #[inline]
    pub fn clear(&mut self, i: usize) {
        self.0[i >> 6] &= !(1 << (i & 63));
    }
    /// Tests bit `i`.
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }
    /// True when no bit is set.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }
    /// Intersection.
    #[inline]
    pub fn and(&self, o: &Self) -> Self {
        let mut r = *self;
        for k in 0..N {
            r.0[k] &= o.0[k];
        }
        r
    }
    /// Union.
    #[inline]
    pub fn or(&self, o: &Self) -> Self {
        let mut r = *self;
        for k in 0..N {
            r.0[k] |= o.0[k];
        }
        r
    }
    /// The bits of `self` that are not in `o`.
    #[inline]
    pub fn and_not(&self, o: &Self) -> Self {
        let mut r = *self;
        for k in 0..N {
            r.0[k] &= !o.0[k];
        }
        r
    }
    /// The bits in exactly one of the sets.
    #[inline]
    pub fn xor(&self, o: &Self) -> Self {
        let mut r = *self;
        for k in 0..N {
            r.0[k] ^= o.0[k];
        }
        r
    }
    /// True when the sets share a bit.
    #[inline]
    pub fn intersects(&self, o: &Self) -> bool {
        (0..N).any(|k| self.0[k] & o.0[k] != 0)
    }
    /// A two-word set as one 128-bit word.
    #[inline]
    fn wide(&self) -> u128 {
        self.0[0] as u128 | (self.0[1] as u128) << 64
    }
    /// A two-word set from one 128-bit word.
    #[inline]
    fn from_wide(v: u128) -> Self {
        let mut r = [0u64; N];
        r[0] = v as u64;
        r[1] = (v >> 64) as u64;
        Bits(r)
    }
    /// Every bit moved up by `s` (bit i becomes bit i + s).
    #[inline]
    pub fn shl(&self, s: usize) -> Self {
        // Two words (65 to 128 nodes): one native shift.
        if N == 2 {
            return Self::from_wide(self.wide().checked_shl(s as u32).unwrap_or(0));
        }
        let (w, b) = (s >> 6, s & 63);
        let mut r = [0u64; N];
        for k in (w..N).rev() {
            let lo = self.0[k - w];
            r[k] = lo << b;
            if b != 0 && k > w {
                r[k] |= self.0[k - w - 1] >> (64 - b);
            }
        }
        Bits(r)
    }
    /// Every bit moved down by `s` (bit i becomes bit i − s).
    #[inline]
    pub fn shr(&self, s: usize) -> Self {
        if N == 2 {
            return Self::from_wide(self.wide().checked_shr(s as u32).unwrap_or(0));
        }
        let (w, b) = (s >> 6, s & 63);
        let mut r = [0u64; N];
        for k in 0..N.saturating_sub(w) {
            let hi = self.0[k + w];
            r[k] = hi >> b;
            if b != 0 && k + w + 1 < N {
                r[k] |= self.0[k + w + 1] << (64 - b);
            }
        }
        Bits(r)
    }
    /// The lowest `len` bits in reverse order (bit i becomes bit
    /// `len - 1 - i`); `len` is at most `64 * N` and no higher bit is set.
    #[inline]
    pub fn reversed(&self, len: usize) -> Self {
        let mut r = [0u64; N];
        for k in 0..N {
            r[N - 1 - k] = self.0[k].reverse_bits();
        }
        Bits(r).shr(64 * N - len)
    }
    /// The rows of `width` bits (`rows` of them, `row` the first row's
    /// mask) in reverse order: row r becomes row `rows - 1 - r`.
    #[inline]
    pub fn rows_reversed(&self, width: usize, rows: usize, row: &Self) -> Self {
        let mut out = Self::empty();
        for r in 0..rows {
            out = out.or(&self.shr(r * width).and(row).shl((rows - 1 - r) * width));
        }
        out
    }
    /// The lowest bit set.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        (0..N)
            .find(|&k| self.0[k] != 0)
            .map(|k| k * 64 + self.0[k].trailing_zeros() as usize)
    }
    /// Number of bits set.
    #[inline]
    pub fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// The bits set, in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..N).flat_map(move |k| {
            let mut w = self.0[k];
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let t = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + t)
            })
        })
    }
}

/// The set of the given bit indices.
impl<const N: usize> FromIterator<usize> for Bits<N> {
    fn from_iter<I: IntoIterator<Item = usize>>(bits: I) -> Self {
        let mut b = Bits::empty();
        for i in bits {
            b.set(i);
        }
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_cross_words() {
        let mut b = Bits::<3>::empty();
        b.set(63);
        b.set(5);
        let l = b.shl(70);
        assert!(l.get(133) && l.get(75) && !l.get(63));
        let r = l.shr(70);
        assert_eq!(r, b);
        assert_eq!(b.shl(1).iter().collect::<Vec<_>>(), vec![6, 64]);
        assert_eq!(b.shr(6).iter().collect::<Vec<_>>(), vec![57]);
    }

    /// One- and two-word shifts (the two-word ones native) agree with the general shifts
    /// (three words, the top one empty) for every shift.
    #[test]
    fn narrow_shifts_agree_with_the_general_ones() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..50 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let y = x.rotate_left(17) ^ 0x5555;
            let one = Bits::<1>([x]);
            let two = Bits::<2>([x, y]);
            let wide1 = Bits::<3>([x, 0, 0]);
            let wide2 = Bits::<3>([x, y, 0]);
            for s in 0..140 {
                let cut = |b: Bits<3>, n: usize| b.iter().filter(|&i| i < n).collect::<Vec<_>>();
                assert_eq!(one.shl(s).iter().collect::<Vec<_>>(), cut(wide1.shl(s), 64));
                assert_eq!(one.shr(s).iter().collect::<Vec<_>>(), cut(wide1.shr(s), 64));
                assert_eq!(
                    two.shl(s).iter().collect::<Vec<_>>(),
                    cut(wide2.shl(s), 128)
                );
                assert_eq!(
                    two.shr(s).iter().collect::<Vec<_>>(),
                    cut(wide2.shr(s), 128)
                );
            }
        }
    }

    /// Sets mirrored whole agree with the node-by-node maps, on grids of
    /// one to three words: a half turn reverses the node indices, a flip
    /// of the columns reverses each row, a flip of the rows their order.
    #[test]
    fn sets_mirror_as_their_nodes_do() {
        fn check<const N: usize>(nc: usize, nr: usize) {
            let mut row = Bits::<N>::empty();
            for c in 0..nc {
                row.set(c);
            }
            let n = nc * nr;
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..50 {
                let mut x = Bits::<N>::empty();
                for v in 0..n {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    if seed >> 62 == 0 {
                        x.set(v);
                    }
                }
                let map = |f: &dyn Fn(usize, usize) -> usize| {
                    let mut m = Bits::<N>::empty();
                    for v in x.iter() {
                        m.set(f(v / nc, v % nc));
                    }
                    m
                };
                assert_eq!(x.reversed(n), map(&|r, c| n - 1 - (r * nc + c)));
                assert_eq!(
                    x.rows_reversed(nc, nr, &row),
                    map(&|r, c| (nr - 1 - r) * nc + c)
                );
                assert_eq!(
                    x.reversed(n).rows_reversed(nc, nr, &row),
                    map(&|r, c| r * nc + nc - 1 - c)
                );
            }
        }
        check::<1>(8, 8);
        check::<1>(3, 5);
        check::<2>(11, 11);
        check::<2>(6, 17);
        check::<3>(13, 14);
    }
}

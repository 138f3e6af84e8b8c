//! The frontier's state tables: each state of a step with its count, in a
//! dense array behind a small open-addressing index, and the running total.

use crate::solve::natural::Natural;

/// Headroom of the counts: once a count's top limb reaches this, the
/// counts get one more limb before the next step. One step adds fewer
/// than 2^19 counts into any state (it differs from each source state in
/// plugs `j`, `j + 1` and at most one partner: 49 x (21 x 7 + 1) sources,
/// each joined at most 37 ways), so counts below 2^(64k - 20) cannot
/// overflow `k` limbs in one step.
pub(super) const HEADROOM: u64 = 1 << 44;

/// The multiplier of the table's hash (the golden ratio's, as in
/// Fibonacci hashing).
pub(super) const FOLD: u64 = 0x9E37_79B9_7F4A_7C15;

/// The states of one step and their counts. Each state and its count
/// (`k` little-endian 64-bit limbs) sit side by side in a dense array, in
/// the order they came; an index of `u32` positions, open addressing with
/// linear probing at most half full, finds them. The index is small enough
/// to stay in cache, so adding to a state waits on memory once, and
/// reading a table is a walk through the dense array. Nothing is allocated
/// per state.
pub(super) struct Table {
    /// `1 + k` words per state: the state, then its count.
    pub(super) data: Vec<u64>,
    /// Per slot, the position of its state in `data` plus one (0: none).
    pub(super) index: Vec<u32>,
    /// Limbs per count.
    pub(super) k: usize,
    /// States held.
    pub(super) len: usize,
    /// `64 - log2(index slots)`: the hash's top bits pick the slot.
    shift: u32,
    /// The top limbs of the counts written, ORed: tells when the counts
    /// need another limb ([`HEADROOM`]).
    pub(super) hi: u64,
    /// The most bytes the table may take.
    max_bytes: usize,
    /// Set when the table could not grow within `max_bytes` (or the
    /// allocator refused), or a count overflowed its limbs (which
    /// [`HEADROOM`] rules out).
    pub(super) failed: bool,
}

impl Table {
    /// An empty table with counts of `k` limbs.
    pub(super) fn new(k: usize, max_bytes: usize) -> Table {
        const SLOTS: usize = 64;
        Table {
            data: Vec::new(),
            index: vec![0; SLOTS],
            k,
            len: 0,
            shift: 64 - SLOTS.trailing_zeros(),
            hi: 0,
            max_bytes,
            failed: false,
        }
    }

    /// The bytes the table takes.
    pub(super) fn bytes(&self) -> usize {
        4 * self.index.len() + 8 * self.data.capacity()
    }

    /// The slot a state's probe starts at.
    #[inline]
    pub(super) fn home(&self, key: u64) -> usize {
        let h = key.wrapping_mul(FOLD);
        ((h ^ (h >> 29)).wrapping_mul(FOLD) >> self.shift) as usize
    }

    /// The counts of the states, in `1 + k` words each (state, count).
    pub(super) fn entries(&self) -> std::slice::ChunksExact<'_, u64> {
        self.data.chunks_exact(1 + self.k)
    }

    /// Empties the table, keeping its memory.
    pub(super) fn clear(&mut self) {
        self.data.clear();
        self.index.fill(0);
        self.len = 0;
        self.hi = 0;
    }

    /// Adds the count `c` (`K` limbs; `self.k` of them when `K` is 0) to
    /// state `key`.
    #[inline]
    pub(super) fn add<const K: usize>(&mut self, key: u64, c: &[u64]) {
        let k = if K == 0 { self.k } else { K };
        debug_assert_eq!(k, self.k);
        let w = 1 + k;
        let mask = self.index.len() - 1;
        let mut i = self.home(key);
        loop {
            let x = self.index[i] as usize;
            if x == 0 {
                if self.data.len() + w > self.data.capacity() && !self.reserve(w) {
                    return;
                }
                self.data.push(key);
                self.data.extend_from_slice(&c[..k]);
                self.hi |= c[k - 1];
                self.len += 1;
                self.index[i] = self.len as u32;
                if 2 * self.len > self.index.len() {
                    self.grow_index();
                }
                return;
            }
            let e = &mut self.data[(x - 1) * w..x * w];
            if e[0] == key {
                let mut carry = false;
                for t in 0..k {
                    let (y, o1) = e[1 + t].overflowing_add(c[t]);
                    let (y, o2) = y.overflowing_add(carry as u64);
                    e[1 + t] = y;
                    carry = o1 | o2;
                }
                self.failed |= carry;
                self.hi |= e[k];
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Room for `more` words in `data` (doubling it), or false (and
    /// `failed`) beyond the memory limit, past the `u32` positions of the
    /// index, or when the allocator refuses.
    pub(super) fn reserve(&mut self, more: usize) -> bool {
        let want = self.data.len().max(more).max(1024);
        let bytes = self.bytes().saturating_add(8 * want);
        let positions = (self.data.len() + want) / (1 + self.k);
        if bytes > self.max_bytes
            || positions >= u32::MAX as usize
            || self.data.try_reserve_exact(want).is_err()
        {
            self.failed = true;
            return false;
        }
        true
    }

    /// Twice the index slots, or `failed` when that would break the memory
    /// limit.
    pub(super) fn grow_index(&mut self) {
        let slots = 2 * self.index.len();
        let mut index = Vec::new();
        if self.bytes().saturating_add(4 * slots) > self.max_bytes
            || index.try_reserve_exact(slots).is_err()
        {
            self.failed = true;
            return;
        }
        index.resize(slots, 0u32);
        self.index = index;
        self.shift -= 1;
        let mask = slots - 1;
        let w = 1 + self.k;
        for p in 0..self.len {
            let mut i = self.home(self.data[p * w]);
            while self.index[i] != 0 {
                i = (i + 1) & mask;
            }
            self.index[i] = p as u32 + 1;
        }
    }

    /// One more limb per count, or `failed` when that would break the
    /// memory limit.
    pub(super) fn widen(&mut self) {
        let k = self.k;
        let words = (self.data.capacity() / (1 + k)).max(1) * (k + 2);
        let mut data = Vec::new();
        if (4 * self.index.len()).saturating_add(8 * words) > self.max_bytes
            || data.try_reserve_exact(words).is_err()
        {
            self.failed = true;
            return;
        }
        for e in self.data.chunks_exact(k + 1) {
            data.extend_from_slice(e);
            data.push(0);
        }
        self.data = data;
        self.k = k + 1;
    }
}

/// The solutions completed so far, in little-endian 64-bit limbs.
#[derive(Default)]
pub(super) struct Total(pub(super) Vec<u64>);

impl Total {
    /// Adds `c` (limbs) `times` times.
    #[inline]
    pub(super) fn add(&mut self, c: &[u64], times: u8) {
        for _ in 0..times {
            if self.0.len() < c.len() {
                self.0.resize(c.len(), 0);
            }
            let mut carry = false;
            for (t, d) in self.0.iter_mut().enumerate() {
                let (x, o1) = d.overflowing_add(c.get(t).copied().unwrap_or(0));
                let (x, o2) = x.overflowing_add(carry as u64);
                *d = x;
                carry = o1 | o2;
            }
            if carry {
                self.0.push(1);
            }
        }
    }

    /// True when the total is at least `v`.
    pub(super) fn at_least(&self, v: u128) -> bool {
        if self.0.iter().skip(2).any(|&l| l != 0) {
            return true;
        }
        let lo = self.0.first().copied().unwrap_or(0) as u128;
        let hi = self.0.get(1).copied().unwrap_or(0) as u128;
        (lo | hi << 64) >= v
    }

    pub(super) fn natural(&self) -> Natural {
        Natural::from_limbs(&self.0)
    }
}

//! The search's tables of kept verdicts ([`Kept`]) and their fast hasher,
//! for keys that are already uniform integers (packed states, bitset words).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Mixes each 64-bit word in with a 64-bit finaliser: keys are whole words
/// of packed states or bitsets, so a strong per-word mix is enough.
#[derive(Default)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    /// Whole words at a time (bitset keys come as their words' bytes),
    /// then the rest with its length in the top byte.
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.write_u64(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = [0u8; 8];
            last[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(last) ^ (rest.len() as u64) << 56);
        }
    }
    fn write_u64(&mut self, x: u64) {
        let mut h = x ^ self.0.rotate_left(29);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^= h >> 33;
        self.0 = h;
    }
}

/// Builds [`WordHasher`]s for a `HashMap`.
pub type WordHash = BuildHasherDefault<WordHasher>;

/// A table of verdicts the search keeps, of at most `cap` entries: when
/// full, it starts over (the verdicts are only a shortcut).
pub struct Kept<K, V> {
    map: HashMap<K, V, WordHash>,
    cap: usize,
}

impl<K: Hash + Eq, V: Copy> Kept<K, V> {
    /// An empty table of at most `cap` entries.
    pub fn new(cap: usize) -> Self {
        Kept {
            map: HashMap::default(),
            cap: cap.max(1),
        }
    }

    /// The verdict kept for `key`, if any.
    #[inline]
    pub fn get(&self, key: &K) -> Option<V> {
        self.map.get(key).copied()
    }

    /// Keeps `value` for `key` (emptying the table first when it is full).
    pub fn put(&mut self, key: K, value: V) {
        if self.map.len() >= self.cap {
            self.map.clear();
        }
        self.map.insert(key, value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hash_of(bytes: &[u8]) -> u64 {
        let mut h = WordHasher::default();
        h.write(bytes);
        h.finish()
    }

    #[test]
    fn every_byte_counts() {
        let base = [7u8; 19];
        let h = hash_of(&base);
        for i in 0..base.len() {
            let mut other = base;
            other[i] ^= 1;
            assert_ne!(hash_of(&other), h, "byte {i}");
        }
        // A short tail differs from the same bytes with a zero after them.
        assert_ne!(hash_of(&[1, 2, 3]), hash_of(&[1, 2, 3, 0]));
    }

    #[test]
    fn a_full_table_starts_over() {
        let mut t = Kept::new(2);
        t.put(1u64, true);
        t.put(2, false);
        assert_eq!(
            (t.get(&1), t.get(&2), t.get(&3)),
            (Some(true), Some(false), None)
        );
        t.put(3, true);
        assert_eq!((t.get(&1), t.get(&2), t.get(&3)), (None, None, Some(true)));
    }
}

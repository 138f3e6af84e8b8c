//! The search's tables of kept verdicts ([`Kept`]) and their fast hasher,
//! for keys that are already uniform integers (packed states, bitset words).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Folds each 64-bit word in with one widening multiply, and mixes the
/// whole with a 64-bit finaliser at the end: keys are whole words of
/// packed states or bitsets, so a cheap fold per word and one strong mix
/// per key (so that the table's bucket bits and tag bits depend on the
/// whole key) are enough. One multiply per word matters: the tiling's
/// memo hashes a key at every step of a fit.
#[derive(Default)]
pub struct WordHasher(u64);

/// The fold's odd multiplier (the golden ratio's, as in Fibonacci hashing).
const FOLD: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
    /// Whole words at a time, then the rest with its length in the top
    /// byte.
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
    #[inline]
    fn write_u64(&mut self, x: u64) {
        // The 128-bit product's halves XORed: a bit of the word reaches
        // the bits above it in the low half and those below it in the
        // high half, so a change in one word is not undone by a fixed
        // change in the next, as in the low half alone (where a flip of
        // bit 63 is a flip of bit 63 only, which the rotation moves to
        // bit 28 for the next word to cancel).
        let p = u128::from(self.0.rotate_left(29) ^ x) * u128::from(FOLD);
        self.0 = p as u64 ^ (p >> 64) as u64;
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    #[inline]
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
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
    fn every_bit_of_a_word_key_reaches_the_bucket_and_tag_bits() {
        // hashbrown takes the bucket from the low bits and the tag from
        // the top 7: a flip of any key bit should change both, mostly.
        let key = [0x0123_4567_89ab_cdefu64, 0xfedc_ba98_7654_3210];
        let hash = |k: [u64; 2]| {
            let mut h = WordHasher::default();
            h.write_u64(k[0]);
            h.write_u64(k[1]);
            h.finish()
        };
        let base = hash(key);
        let (mut low, mut top) = (0, 0);
        for i in 0..128 {
            let mut k = key;
            k[i / 64] ^= 1 << (i % 64);
            let d = hash(k) ^ base;
            low += u32::from(d & 0xFFFF != 0);
            top += u32::from(d >> 57 != 0);
        }
        assert_eq!(low, 128);
        assert!(top >= 124, "{top} of 128 flips reach the tag");
        // Two flips, one in each word: none may cancel out (with a plain
        // 64-bit product, bit 63 of the first word and bit 28 of
        // the second did, for every key).
        let mut same = 0;
        for i in 0..64 {
            for j in 0..64 {
                let k = [key[0] ^ 1 << i, key[1] ^ 1 << j];
                same += u32::from(hash(k) == base);
            }
        }
        assert_eq!(same, 0);
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

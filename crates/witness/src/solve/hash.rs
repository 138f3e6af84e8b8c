//! A fast hasher for the solver's tables, whose keys are already uniform
//! integers (packed states, bitset words).

use std::hash::{BuildHasherDefault, Hasher};

/// Mixes each 64-bit word in with a 64-bit finaliser: keys are whole words
/// of packed states or bitsets, so a strong per-word mix is enough.
#[derive(Default)]
pub struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(self.0 ^ b as u64);
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

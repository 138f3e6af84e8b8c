//! [`Natural`]: a solution count of any size, exact. A leaf module.
//!
//! A count lives in a `u128` while it fits, so small counts never touch
//! the heap, and in a [`BigUint`] (crate `num-bigint`) beyond. The form is
//! canonical (a big value is always above `u128::MAX`), so equality and
//! order compare the forms directly. It compares with `u64` both ways, so
//! `c.count == 1` and `c.count >= limit` read as they would on an integer.

use num_bigint::BigUint;
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign};
use std::str::FromStr;

/// A natural number of any size (a solution count): a `u128` while it fits,
/// a big integer beyond.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Natural(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Small(u128),
    /// Always above `u128::MAX`.
    Big(BigUint),
}

impl Natural {
    /// Zero.
    pub const ZERO: Natural = Natural(Repr::Small(0));

    /// The number whose little-endian 64-bit limbs are `limbs`.
    pub fn from_limbs(limbs: &[u64]) -> Natural {
        let top = limbs.iter().rposition(|&l| l != 0).map_or(0, |i| i + 1);
        match top {
            0..=2 => {
                let lo = limbs.first().copied().unwrap_or(0) as u128;
                let hi = if top == 2 { limbs[1] as u128 } else { 0 };
                Natural(Repr::Small(lo | hi << 64))
            }
            _ => {
                let bytes: Vec<u8> = limbs[..top].iter().flat_map(|l| l.to_le_bytes()).collect();
                Natural(Repr::Big(BigUint::from_bytes_le(&bytes)))
            }
        }
    }

    /// The number as a `u64`, if it fits.
    pub fn to_u64(&self) -> Option<u64> {
        match &self.0 {
            Repr::Small(v) => u64::try_from(*v).ok(),
            Repr::Big(_) => None,
        }
    }

    /// The number as a `u128`, if it fits.
    pub fn to_u128(&self) -> Option<u128> {
        match &self.0 {
            Repr::Small(v) => Some(*v),
            Repr::Big(_) => None,
        }
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        matches!(self.0, Repr::Small(0))
    }

    /// The number of bits needed to write the number (0 for zero).
    pub fn bits(&self) -> u64 {
        match &self.0 {
            Repr::Small(v) => 128 - v.leading_zeros() as u64,
            Repr::Big(b) => b.bits(),
        }
    }

    /// The number in JSON: a number while it is at most 2^53 - 1 (which
    /// every JSON reader holds exactly), otherwise a string of decimal
    /// digits.
    pub fn to_json(&self) -> serde_json::Value {
        /// The largest integer a double holds exactly (2^53 - 1).
        const JSON_SAFE_MAX: u64 = (1 << 53) - 1;
        match self.to_u64() {
            Some(v) if v <= JSON_SAFE_MAX => serde_json::Value::from(v),
            _ => serde_json::Value::from(self.to_string()),
        }
    }

    /// The number as a big integer.
    pub fn to_biguint(&self) -> BigUint {
        match &self.0 {
            Repr::Small(v) => BigUint::from(*v),
            Repr::Big(b) => b.clone(),
        }
    }
}

impl Default for Natural {
    fn default() -> Self {
        Natural::ZERO
    }
}

impl From<u64> for Natural {
    fn from(v: u64) -> Self {
        Natural(Repr::Small(v as u128))
    }
}

impl From<u32> for Natural {
    fn from(v: u32) -> Self {
        Natural(Repr::Small(v as u128))
    }
}

impl From<usize> for Natural {
    fn from(v: usize) -> Self {
        Natural(Repr::Small(v as u128))
    }
}

impl From<u128> for Natural {
    fn from(v: u128) -> Self {
        Natural(Repr::Small(v))
    }
}

impl From<BigUint> for Natural {
    fn from(b: BigUint) -> Self {
        match u128::try_from(&b) {
            Ok(v) => Natural(Repr::Small(v)),
            Err(_) => Natural(Repr::Big(b)),
        }
    }
}

impl Ord for Natural {
    fn cmp(&self, other: &Self) -> Ordering {
        match (&self.0, &other.0) {
            (Repr::Small(a), Repr::Small(b)) => a.cmp(b),
            (Repr::Small(_), Repr::Big(_)) => Ordering::Less,
            (Repr::Big(_), Repr::Small(_)) => Ordering::Greater,
            (Repr::Big(a), Repr::Big(b)) => a.cmp(b),
        }
    }
}

impl PartialOrd for Natural {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq<u64> for Natural {
    fn eq(&self, other: &u64) -> bool {
        matches!(self.0, Repr::Small(v) if v == *other as u128)
    }
}

impl PartialOrd<u64> for Natural {
    fn partial_cmp(&self, other: &u64) -> Option<Ordering> {
        Some(match self.0 {
            Repr::Small(v) => v.cmp(&(*other as u128)),
            Repr::Big(_) => Ordering::Greater,
        })
    }
}

impl PartialEq<Natural> for u64 {
    fn eq(&self, other: &Natural) -> bool {
        other == self
    }
}

impl PartialOrd<Natural> for u64 {
    fn partial_cmp(&self, other: &Natural) -> Option<Ordering> {
        other.partial_cmp(self).map(Ordering::reverse)
    }
}

impl AddAssign<&Natural> for Natural {
    fn add_assign(&mut self, rhs: &Natural) {
        if let (Repr::Small(a), Repr::Small(b)) = (&self.0, &rhs.0) {
            if let Some(s) = a.checked_add(*b) {
                self.0 = Repr::Small(s);
                return;
            }
        }
        *self = Natural(Repr::Big(self.to_biguint() + rhs.to_biguint()));
    }
}

impl AddAssign<u64> for Natural {
    fn add_assign(&mut self, rhs: u64) {
        *self += &Natural::from(rhs);
    }
}

impl Add<u64> for Natural {
    type Output = Natural;
    fn add(mut self, rhs: u64) -> Natural {
        self += rhs;
        self
    }
}

impl Add<&Natural> for Natural {
    type Output = Natural;
    fn add(mut self, rhs: &Natural) -> Natural {
        self += rhs;
        self
    }
}

impl fmt::Display for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Small(v) => fmt::Display::fmt(v, f),
            Repr::Big(b) => fmt::Display::fmt(b, f),
        }
    }
}

impl fmt::Debug for Natural {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The error for a string that is not a natural number in decimal digits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseNaturalError;

impl fmt::Display for ParseNaturalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a natural number in decimal digits")
    }
}

impl std::error::Error for ParseNaturalError {}

impl FromStr for Natural {
    type Err = ParseNaturalError;
    /// Decimal digits only (no sign, no separators).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParseNaturalError);
        }
        match s.parse::<u128>() {
            Ok(v) => Ok(Natural::from(v)),
            Err(_) => BigUint::from_str(s)
                .map(Natural::from)
                .map_err(|_| ParseNaturalError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_big_forms_compare_and_print_alike() {
        let max = Natural::from(u128::MAX);
        let next = max.clone() + 1;
        assert_eq!(next.to_string(), "340282366920938463463374607431768211456");
        assert!(next > max && max > u64::MAX && next > u64::MAX);
        assert_eq!(next.bits(), 129);
        assert_eq!(max.to_u128(), Some(u128::MAX));
        assert_eq!(max.to_u64(), None);
        assert_eq!(next.to_u128(), None);
        let parsed: Natural = next.to_string().parse().unwrap();
        assert_eq!(parsed, next);
        // A big integer that fits takes the small form.
        assert_eq!(Natural::from(BigUint::from(7u32)), 7);
        assert_eq!(Natural::from_limbs(&[5, 0, 0, 0]), 5);
        assert_eq!(Natural::from_limbs(&[0, 0, 1]), next);
        assert_eq!(Natural::from_limbs(&[]), Natural::ZERO);
        assert!("12a".parse::<Natural>().is_err() && "".parse::<Natural>().is_err());
        let three = Natural::from(3u64);
        assert!(2 < three);
        assert!(3 == three);
        assert!(three <= 3);
        assert!(Natural::ZERO.is_zero() && !next.is_zero());
    }
}

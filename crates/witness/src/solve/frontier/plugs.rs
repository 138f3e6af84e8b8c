//! The frontier's states: plugs of 3 bits packed in a `u64`, and what a
//! step reads off them.

/// Bits per plug.
pub(super) const BITS: usize = 3;
/// One plug's bits.
pub(super) const MASK: u64 = 7;
/// The most plugs a `u64` state holds (the line length plus one); the top
/// bit of a state is then always 0, so `u64::MAX` is no state.
pub(super) const MAX_PLUGS: usize = 64 / BITS;
/// The lowest bit of every plug.
pub(super) const LOW: u64 = {
    let mut m = 0;
    let mut i = 0;
    while i < MAX_PLUGS {
        m |= 1 << (BITS * i);
        i += 1;
    }
    m
};
/// First end of a piece with both ends on the frontier.
pub(super) const OPEN: u64 = 1;
/// Second end of such a piece.
pub(super) const CLOSE: u64 = 2;
/// A mid-edge terminal used from the processed side.
pub(super) const USED: u64 = 6;
/// Role bit: the terminal may be the start.
pub(super) const START: u8 = 1;
/// Role bit: the terminal may be the end.
pub(super) const END: u8 = 2;

/// The plug of a piece ending at a terminal with roles `tag` (1..=3).
#[inline]
pub(super) fn single(tag: u8) -> u64 {
    2 + tag as u64
}

/// True for the plug of a piece ending at a terminal.
#[inline]
pub(super) fn is_single(v: u64) -> bool {
    (3..=5).contains(&v)
}

/// True for a plug carrying a line.
#[inline]
pub(super) fn is_active(v: u64) -> bool {
    v != 0 && v != USED
}

/// The roles of a terminal plug.
#[inline]
pub(super) fn tag_of(v: u64) -> u8 {
    (v - 2) as u8
}

/// The number of start-to-end readings of a path between terminals with
/// roles `a` and `b`.
#[inline]
pub(super) fn weight(a: u8, b: u8) -> u8 {
    (a & START != 0 && b & END != 0) as u8 + (b & START != 0 && a & END != 0) as u8
}

#[inline]
pub(super) fn get(s: u64, p: usize) -> u64 {
    (s >> (BITS * p)) & MASK
}

#[inline]
pub(super) fn set(s: u64, p: usize, v: u64) -> u64 {
    (s & !(MASK << (BITS * p))) | (v << (BITS * p))
}

/// The position of the bracket matching the one (`v`) at `p`.
#[inline]
pub(super) fn partner(s: u64, p: usize, v: u64, plugs: usize) -> usize {
    let mut depth = 0i32;
    if v == OPEN {
        for q in p..plugs {
            match get(s, q) {
                OPEN => depth += 1,
                CLOSE => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                return q;
            }
        }
    } else {
        for q in (0..=p).rev() {
            match get(s, q) {
                CLOSE => depth += 1,
                OPEN => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                return q;
            }
        }
    }
    unreachable!("unbalanced frontier state {s:#x}")
}

/// The three bits of every plug, each at the plug's lowest bit.
#[inline]
pub(super) fn plug_bits(s: u64) -> (u64, u64, u64) {
    (s & LOW, (s >> 1) & LOW, (s >> 2) & LOW)
}

/// True when some plug carries a line (a plug neither 0 nor [`USED`]).
#[inline]
pub(super) fn any_active(s: u64) -> bool {
    let (b0, b1, b2) = plug_bits(s);
    let used = b2 & b1 & !b0;
    (b0 | b1 | b2) & !used != 0
}

/// The plugs of pieces ending at a terminal, one bit each (at the plug's
/// lowest bit).
#[inline]
pub(super) fn singles(s: u64) -> u64 {
    let (b0, b1, b2) = plug_bits(s);
    // 3 = 011, 4 = 100, 5 = 101.
    (b2 & !b1) | (!b2 & b1 & b0)
}

/// False when the state holds more than two terminal pieces, or two that
/// cannot be read from a start to an end.
#[inline]
pub(super) fn singles_ok(s: u64) -> bool {
    let singles = singles(s);
    match singles.count_ones() {
        0 | 1 => true,
        2 => {
            let p = singles.trailing_zeros() as usize / BITS;
            let q = (63 - singles.leading_zeros()) as usize / BITS;
            weight(tag_of(get(s, p)), tag_of(get(s, q))) > 0
        }
        _ => false,
    }
}

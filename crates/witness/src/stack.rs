//! Stack room for the recursive walks over a panel.
//!
//! The exact search and the brute force recurse once per slot of a path,
//! the validator's polyomino fit and the search's tilings a few times per
//! face and once per piece placed, so the
//! stack they need grows with the panel: a few hundred kilobytes for the
//! usual panels, tens of megabytes for the largest one the readers accept
//! ([`crate::model::MAX_SLOTS`] slots a side). Rather than trust the
//! caller's thread to have that much, every job asks for its room up front
//! with [`with_room`]: when the current thread's stack has less left, the
//! job runs on a fresh stack segment of the right size, on the same thread
//! (so closures need not be `Send`). Threads and pool tasks that a job
//! starts ask again for their own share.

/// The stack one level of the deepest recursion may use, for a search
/// whose node bitsets are `words` 64-bit words long. Measured frames of the
/// search's `enter`/`explore` pair are well under this in release builds;
/// debug builds have frames several times larger.
fn per_level(words: usize) -> usize {
    let release = 1024 + 64 * words;
    if cfg!(debug_assertions) {
        4 * release
    } else {
        release
    }
}

/// What any job leaves on the stack besides its recursion: buffers on the
/// stack, the callers above it, the allocator and the unwinder.
const BASE: usize = 256 * 1024;

/// The stack a job on a panel of `slots` slots, with node bitsets of
/// `words` words, may need: one level per slot (no recursion goes deeper
/// than a path or region can be long) plus the base.
pub(crate) fn need(slots: usize, words: usize) -> usize {
    BASE + slots.saturating_mul(per_level(words))
}

/// The widest node bitsets the search uses, in 64-bit words.
const MAX_WORDS: usize = 68;

/// The stack a job on a panel of `slots` slots may need when its bitset
/// width is not known: that of the widest bitsets the panel could have.
pub(crate) fn need_for_slots(slots: usize) -> usize {
    need(slots, (slots / 4).div_ceil(64).min(MAX_WORDS))
}

/// Runs `f` with at least `bytes` of stack: on the current stack when it
/// has that much left, else on a new segment of `bytes` plus the base.
#[cfg(feature = "native")]
#[inline]
pub(crate) fn with_room<R>(bytes: usize, f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(bytes, bytes.saturating_add(BASE), f)
}

/// Without the `native` feature (a WebAssembly build) the stack cannot
/// grow: `f` runs on the current stack, whose size the build sets (the
/// linker's stack size), and a panel needing more stops with a trap.
#[cfg(not(feature = "native"))]
#[inline]
pub(crate) fn with_room<R>(_bytes: usize, f: impl FnOnce() -> R) -> R {
    f()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recursion `depth` deep whose frames hold `FRAME` bytes.
    fn deep(depth: usize) -> usize {
        const FRAME: usize = 512;
        let buf = std::hint::black_box([depth as u8; FRAME]);
        if depth == 0 {
            return buf[0] as usize;
        }
        buf[FRAME - 1] as usize + deep(depth - 1)
    }

    #[cfg(feature = "native")]
    #[test]
    fn a_deep_recursion_runs_on_a_small_thread_once_room_is_asked_for() {
        // 64 KiB of thread stack could never hold 20,000 frames of 512
        // bytes; with room asked for, the recursion gets a segment of its
        // own and finishes.
        let depth = 20_000;
        let got = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || with_room(depth * 1024, || deep(depth)))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(got, deep_sum(depth));
    }

    /// What [`deep`] returns, without recursing.
    fn deep_sum(depth: usize) -> usize {
        (1..=depth).map(|d| d as u8 as usize).sum::<usize>()
    }

    #[test]
    fn the_need_grows_with_the_panel() {
        assert!(need_for_slots(129 * 129) > need_for_slots(9 * 9));
        assert!(need(100, 1) >= BASE + 100 * 1024);
    }
}

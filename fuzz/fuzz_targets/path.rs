//! Fuzz target `path`: see [`witness_fuzz::path`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    witness_fuzz::path(data);
});

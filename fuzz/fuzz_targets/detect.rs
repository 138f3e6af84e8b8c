//! Fuzz target `detect`: see [`witness_fuzz::detect`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    witness_fuzz::detect(data);
});

//! Fuzz target `windmill`: see [`witness_fuzz::windmill`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    witness_fuzz::windmill(data);
});

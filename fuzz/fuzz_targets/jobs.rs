//! Fuzz target `jobs`: see [`witness_fuzz::jobs`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    witness_fuzz::jobs(data);
});

//! Fuzz target `alcazar`: see [`witness_fuzz::alcazar`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    witness_fuzz::alcazar(data);
});

//! Fuzz target `text`: see [`witness_fuzz::text`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    witness_fuzz::text(data);
});

//! Fuzz target `wpjson`: see [`witness_fuzz::wpjson`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    witness_fuzz::wpjson(data);
});

//! The command line tool's integration tests, run against the built
//! `witness` binary: one module per subject, one test binary.

mod common;

mod cli_check;
mod cli_count;
mod cli_engine;
mod cli_generate;
mod cli_input;
mod cli_limits;
mod serve_abuse;
mod serve_api;

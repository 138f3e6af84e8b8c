//! The library's integration tests: one module per subject, one test
//! binary (docs/ARCHITECTURE.md lists what each module checks).

mod common;

mod bad_input;
mod corpus_solve;
mod corpus_verdicts;
mod formats_alcazar;
mod formats_json;
mod formats_text;
mod formats_windmill;
mod frontier_count;
mod fuzz_regressions;
mod generate;
mod generate_around;
mod large_panels;
mod race_auto;
mod render_svg;
mod render_terminal;
mod rules_fast_path;
mod rules_panels;
mod rules_windmill;
mod sat_exact;
mod solver_exact;
mod solver_regressions;
mod why_unsolvable;

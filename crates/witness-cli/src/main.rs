//! `witness`: the command-line front end. Every command reads a puzzle,
//! hands it to the `witness` library and prints what comes back; no rule
//! logic lives here.

mod check;
mod input;
mod output;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit code for bad input (unreadable file, malformed puzzle or path).
pub const EXIT_BAD_INPUT: u8 = 2;

#[derive(Parser)]
#[command(
    name = "witness",
    version,
    about = "Check, solve, count and draw the line puzzles of The Witness"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a drawn path: prints `valid` or each failing symbol.
    Check(check::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check(a) => check::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("witness: {e}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

//! `witness`: the command-line front end. Every command reads a puzzle,
//! hands it to the `witness` library and prints what comes back; no rule
//! logic lives here.

/// `println!` to standard output that makes the command fail with a clean
/// error, never a panic, when the output cannot be written (a full disk);
/// for use in functions that return `Result<_, String>`.
macro_rules! outln {
    ($($t:tt)*) => {
        $crate::output::write_out(format_args!("{}\n", format_args!($($t)*)))?
    };
}

/// `print!` as [`outln!`] writes lines.
macro_rules! out {
    ($($t:tt)*) => {
        $crate::output::write_out(format_args!($($t)*))?
    };
}

mod bench;
mod check;
mod convert;
mod generate;
mod input;
mod output;
mod render;
mod serve;
mod solve;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc: the solver builds many small tables per puzzle, and batch jobs
/// interleave them with parsing, which the system allocator handles
/// slowly. Built without transparent huge pages (`no_thp`), whose zeroing
/// of 2 MiB on first touch made solve times vary from run to run.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Exit code: done (valid, solved, unique, counted, hinted, written).
pub const EXIT_DONE: u8 = 0;
/// Exit code: the answer is no (invalid path, no solution, not unique).
pub const EXIT_NO: u8 = 1;
/// Exit code for bad input (unreadable file, malformed puzzle or path,
/// bad options).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code: stopped by a time limit or a count limit before the answer.
pub const EXIT_STOPPED: u8 = 3;

/// The exit codes, as `--help` shows them.
const EXIT_CODES: &str = "\
Exit codes (every command):
  0  done: valid, solved, unique, counted, hinted, written
  1  the answer is no: invalid path, no solution, not unique
  2  bad input: unreadable file, malformed puzzle or path, bad options
  3  stopped by a time limit (--timeout-ms) or a count limit (--limit)
  130  interrupted (Ctrl-C) during bench or generate
A limit of 0 (--timeout-ms 0) means no limit.";

#[derive(Parser)]
#[command(
    name = "witness",
    version,
    about = "Check, solve, count and draw the line puzzles of The Witness",
    after_help = EXIT_CODES
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a drawn path: prints `valid` or each failing symbol.
    #[command(after_help = EXIT_CODES)]
    Check(check::Args),
    /// Convert a puzzle to witnesspuzzles JSON or the text format.
    #[command(after_help = EXIT_CODES)]
    Convert(convert::Args),
    /// Solve a puzzle: draws it with the solution and prints the moves.
    #[command(after_help = EXIT_CODES)]
    Solve(solve::SolveArgs),
    /// Count solutions exactly (or up to a limit, or tell uniqueness).
    #[command(after_help = EXIT_CODES)]
    Count(solve::CountArgs),
    /// Show the first part of a solution.
    #[command(after_help = EXIT_CODES)]
    Hint(solve::HintArgs),
    /// Developer tool: solve every puzzle of a file and print timing figures.
    #[command(after_help = EXIT_CODES)]
    Bench(bench::BenchArgs),
    /// Developer tool: validate every path of a verdicts file and print
    /// timing figures.
    #[command(after_help = EXIT_CODES)]
    BenchCheck(bench::BenchCheckArgs),
    /// Generate puzzles with exactly one solution, as JSON lines.
    #[command(long_about = generate::LONG_ABOUT, after_help = EXIT_CODES)]
    Generate(generate::Args),
    /// Draw a panel, with a path or its solution, as SVG or PNG.
    #[command(after_help = EXIT_CODES)]
    Render(render::Args),
    /// Serve a local web page to draw, edit and solve puzzles.
    #[command(after_help = EXIT_CODES)]
    Serve(serve::Args),
}

/// Dies quietly on a closed pipe (`witness solve p.json | head`), as
/// command-line tools do, instead of panicking in `println!`.
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any other
    // thread exists touches no Rust state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    default_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help` and `--version` (to standard output, exit 0) and bad
        // options (to standard error, exit 2), written as clap writes
        // them, but a write that fails is an error, as every command's.
        Err(e) => {
            use std::io::IsTerminal;
            let styled = e.render();
            let terminal = if e.use_stderr() {
                std::io::stderr().is_terminal()
            } else {
                std::io::stdout().is_terminal()
            };
            let text = if terminal {
                styled.ansi().to_string()
            } else {
                styled.to_string()
            };
            let (code, written) = if e.use_stderr() {
                let mut err = std::io::stderr().lock();
                let w = std::io::Write::write_all(&mut err, text.as_bytes());
                (EXIT_BAD_INPUT, w.map_err(|e| e.to_string()))
            } else {
                (EXIT_DONE, output::write_out(format_args!("{text}")))
            };
            return match written {
                Ok(()) => ExitCode::from(code),
                Err(e) => {
                    eprintln!("witness: {e}");
                    ExitCode::from(EXIT_BAD_INPUT)
                }
            };
        }
    };
    // With --json, an error is an answer in JSON too (exit 2), as
    // `check --json` gives it: a script reads one form.
    let json = match &cli.command {
        Command::Solve(a) => a.json(),
        Command::Count(a) => a.json(),
        Command::Hint(a) => a.json(),
        Command::Render(a) => a.json(),
        _ => false,
    };
    let result = match cli.command {
        Command::Check(a) => check::run(a),
        Command::Convert(a) => convert::run(a),
        Command::Solve(a) => solve::run_solve(a),
        Command::Count(a) => solve::run_count(a),
        Command::Hint(a) => solve::run_hint(a),
        Command::Bench(a) => bench::run_bench(a),
        Command::BenchCheck(a) => bench::run_bench_check(a),
        Command::Generate(a) => generate::run(a),
        Command::Render(a) => render::run(a),
        Command::Serve(a) => serve::run(a),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if json => {
            let j = serde_json::json!({"status": "error", "error": e});
            if output::write_out(format_args!("{j}\n")).is_err() {
                // Standard output is shut (the error may say so already).
                eprintln!("witness: {}", visible(&e));
            }
            ExitCode::from(EXIT_BAD_INPUT)
        }
        Err(e) => {
            eprintln!("witness: {}", visible(&e));
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// `message` with its control characters (an escape sequence quoted
/// from the input, say) written out as `\u{1b}`, so that an error never
/// drives the terminal it is printed on; line breaks stay.
fn visible(message: &str) -> String {
    message
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' {
                c.escape_unicode().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

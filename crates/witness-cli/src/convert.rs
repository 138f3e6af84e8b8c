//! `witness convert`: a puzzle in any format, written as witnesspuzzles
//! JSON, a Windmill code or the text format, turned over on request.

use clap::{Args as ClapArgs, ValueEnum};
use witness::formats::{text, windmill, wpjson, Format};
use witness::model::Turn;

use crate::input;

/// The formats `convert` writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// witnesspuzzles.com JSON, to open the puzzle on the site.
    Json,
    /// A Windmill code, to open the puzzle in the Windmill (its URL is
    /// https://windmill.thefifthmatt.com/build/ and the code).
    Windmill,
    /// The text format (docs/text-format.md).
    Text,
}

/// The turns `--turn` names, in order.
#[derive(Clone, Debug)]
struct Turns(Vec<Turn>);

/// Reads `--turn`: letters x, y and t, applied in order.
fn parse_turns(s: &str) -> Result<Turns, String> {
    Turn::sequence(s).map(Turns).map_err(|e| e.to_string())
}

/// Options of `witness convert`.
#[derive(ClapArgs)]
pub struct Args {
    /// The puzzle file (JSON, Windmill code or URL, Alcazar maze, text), or `-` for standard input.
    input: String,
    /// The format to write.
    #[arg(long, value_enum)]
    to: Target,
    /// The input's format, `json`, `windmill`, `alcazar` or `text`
    /// (guessed when left out).
    #[arg(long, value_parser = input::parse_format)]
    format: Option<Format>,
    #[command(flatten)]
    pick: input::Pick,
    /// Turn the panel over first: `x` mirrors it left to right, `y` top to
    /// bottom, `t` transposes it (not a pillar); several letters turn in
    /// order (`xy` half round, `tx` a quarter turn clockwise, `ty`
    /// anticlockwise). The same puzzle to a player, its solutions turned
    /// with it (but where three elimination marks or more share a region:
    /// there the site's verdicts follow its flood order, which turns too).
    #[arg(long, value_parser = parse_turns)]
    turn: Option<Turns>,
    /// Indent the JSON for reading.
    #[arg(long)]
    pretty: bool,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    output: Option<String>,
}

/// Runs the command; the exit code is 0, or 2 for bad input.
pub fn run(a: Args) -> Result<u8, String> {
    let mut puzzle = input::read_picked(&a.input, a.format, &a.pick)?;
    if let Some(Turns(turns)) = &a.turn {
        puzzle = puzzle
            .turned_by(turns)
            .map_err(|e| format!("{}: {e}", a.input))?;
    }
    let out = match a.to {
        Target::Text => text::to_string(&puzzle),
        Target::Windmill => {
            let code = windmill::to_string(&puzzle).map_err(|e| format!("{}: {e}", a.input))?;
            if windmill::judged_differently(&puzzle) {
                eprintln!("note: {}", windmill::RULES_NOTE);
            }
            code + "\n"
        }
        Target::Json => {
            let v = wpjson::to_value(&puzzle).map_err(|e| format!("{}: {e}", a.input))?;
            let s = if a.pretty {
                serde_json::to_string_pretty(&v)
            } else {
                serde_json::to_string(&v)
            };
            s.map_err(|e| e.to_string())? + "\n"
        }
    };
    match a.output {
        Some(path) => {
            std::fs::write(&path, out).map_err(|e| format!("cannot write {path}: {e}"))?
        }
        None => out!("{out}"),
    }
    Ok(0)
}

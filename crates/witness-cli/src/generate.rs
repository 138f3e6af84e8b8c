//! `witness generate`: puzzles with exactly one solution, as JSON lines.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::Duration;

use clap::Args as ClapArgs;
use indicatif::{ProgressBar, ProgressStyle};
use witness::generate::parse_band;
use witness::generate::{GenerateOptions, Preset, Spec};
use witness::model::Symmetry;
use witness::{Error, Generated, Limits};

use crate::input;

/// What `witness generate --help` says before the options.
pub const LONG_ABOUT: &str = "\
Generate puzzles with exactly one solution, as JSON lines.

Each line is {\"id\", \"seed\", \"index\", \"puzzle\", \"solution\", \"moves\",
\"difficulty\", \"symbols\"}: `puzzle` is a witnesspuzzles.com JSON object (it
opens on the site unchanged), `solution` its one solution in the site's path
format, `moves` the same as a move string, `symbols` the count of each kind.

A puzzle is made around a random line (or the --around line): symbols the
line satisfies are placed along it, then, while the exact search finds
another solution, a symbol that this other solution breaks is added. The
result is proved by the exact counter (one solution, complete search), never
guessed, under the rules asked for (--rules: the site's unless told). The
same arguments and --seed give the same bytes whatever --jobs is. A puzzle
given up (--timeout-ms, --attempts) is reported on standard error and the
command exits 3; Ctrl-C stops it with exit 130, keeping every line written
(each is flushed whole).

Examples:
  witness generate --preset mixed --size 5x5 --count 100 --seed 7 --out puzzles.jsonl
  witness generate --symbols squares=6/2,stars=4,dots=3 --size 6x6 --minimal
  witness generate --preset symmetry --size 4x4 --difficulty 6..12
  witness generate --like examples/puzzles/stars-squares-polyomino.json --count 5
  witness generate --size 4x4 --preset stars --around '0,8:U2R2U2R2U4R4'";

/// Options of `witness generate`.
#[derive(ClapArgs)]
pub struct Args {
    /// A named mix: dots, squares, stars, triangles, polyominoes,
    /// subtractive, elimination, symmetry, pillar or mixed (the default).
    ///
    /// Each uses its mechanic; `mixed` at least two kinds. Five puzzles of
    /// each preset are drawn in docs/generated.md.
    #[arg(long, conflicts_with_all = ["symbols", "like"])]
    preset: Option<String>,
    /// The symbols as KIND=N items, e.g.
    /// `squares=6/2,stars=4,dots=5,triangles=4,polyominoes=3,rotatable=1,subtractive=1,marks=1`
    /// (squares and stars take N/COLOURS).
    ///
    /// KIND is one of dots, squares, stars, triangles, polyominoes,
    /// rotatable (how many of the polyominoes turn), subtractive and marks.
    /// The amounts are placed first; making the solution unique may add
    /// more of the same kinds, never other kinds.
    #[arg(long, conflicts_with = "like")]
    symbols: Option<String>,
    /// Puzzles of the size, frame and symbol mix of this puzzle (any format;
    /// in a JSON Lines file of puzzles, `--id` or `--line` picks one).
    #[arg(long)]
    like: Option<String>,
    #[command(flatten)]
    pick: input::Pick,
    /// The panel in faces, WxH (default 4x4, or the --like puzzle's).
    #[arg(long)]
    size: Option<String>,
    /// How many puzzles.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// The seed: with the same arguments, the same puzzles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores; at most 1,024); the output does
    /// not depend on it.
    #[arg(long, value_parser = crate::input::parse_jobs())]
    jobs: Option<usize>,
    /// Write the JSON lines to this file (default: standard output).
    #[arg(long)]
    out: Option<String>,
    /// Two mirrored lines: x (left-right), y (top-bottom) or xy (rotation).
    #[arg(long)]
    symmetry: Option<String>,
    /// A pillar that wraps round (with symmetry, the width must be even).
    #[arg(long)]
    pillar: bool,
    /// How many starts.
    #[arg(long, default_value_t = 1)]
    starts: usize,
    /// How many ends, on the border.
    #[arg(long, default_value_t = 1)]
    ends: usize,
    /// Broken edges, off the solution.
    #[arg(long, default_value_t = 0)]
    gaps: usize,
    /// Removed edges on the border, off the solution.
    #[arg(long, default_value_t = 0)]
    removed: usize,
    /// Remove every symbol the uniqueness does not need.
    ///
    /// Taking away any one symbol that is left (a dot, a square, one star
    /// of a pair, a mark or what it erases) makes the line fail or lets a
    /// second line solve the panel.
    #[arg(long)]
    minimal: bool,
    /// Keep only puzzles of this difficulty, MIN..MAX (either side may
    /// be left out).
    ///
    /// The difficulty is log2(1 + N) for the N search nodes the exact
    /// solver visits on one thread to find the solution (the same on
    /// every machine), at most that of the node budget: a MIN above it is
    /// refused.
    #[arg(long)]
    difficulty: Option<String>,
    /// Per-puzzle time limit in milliseconds (0: no limit).
    #[arg(long, default_value_t = 60_000)]
    timeout_ms: u64,
    /// Lines drawn per puzzle before it is given up.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    attempts: u64,
    /// Make puzzles whose only solution is this line (any notation
    /// `check` reads: site format, move string, coordinates); the panel's
    /// start and end are the line's own.
    ///
    /// Every puzzle written has exactly one solution, and it is this line
    /// (proved by the counter); a symmetry panel mirrors its start and end.
    /// A line that is not legal on the panel is refused naming why
    /// (crossing itself or its mirror, ending inside the panel, ...), and
    /// so is a line the kinds asked for cannot pin down (exit 2): a single
    /// edge along the border leaves one region, so squares never tell it
    /// from the line round the corner face; a kind that finds no place
    /// along the line (pieces in regions it cannot tile) is named too. Dots
    /// can pin down any line.
    #[arg(long, conflicts_with = "like")]
    around: Option<String>,
    /// The rules the puzzles are made for: `witnesspuzzles` (the default)
    /// or `windmill` (default with --like: the model puzzle's, the
    /// Windmill's for a Windmill code).
    ///
    /// The uniqueness is proved under these rules only (the site judges
    /// its puzzles by its own, and may find such a puzzle not unique or
    /// its line invalid). The JSON of each puzzle carries them (`"rules":
    /// "windmill"`), so that every command here judges it by them; `witness
    /// convert --to windmill` writes the code of each that a Windmill code
    /// can hold (no pillars, for one).
    #[arg(long, value_parser = crate::input::parse_rules)]
    rules: Option<witness::model::RuleSet>,
}

/// Reads `WxH`.
fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad size \"{s}\": expected WxH in faces, e.g. 4x4");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let w: usize = w.trim().parse().map_err(|_| bad())?;
    let h: usize = h.trim().parse().map_err(|_| bad())?;
    Ok((w, h))
}

/// Reads `x`, `y` or `xy`.
fn parse_symmetry(s: &str) -> Result<Symmetry, String> {
    match s {
        "x" => Ok(Symmetry { x: true, y: false }),
        "y" => Ok(Symmetry { x: false, y: true }),
        "xy" | "yx" => Ok(Symmetry { x: true, y: true }),
        _ => Err(format!("bad symmetry \"{s}\": x, y or xy")),
    }
}

/// The library's options for these arguments.
pub fn options(a: &Args) -> Result<GenerateOptions, String> {
    for (name, n, what) in [
        ("count", a.count, "puzzle"),
        ("starts", a.starts as u64, "start"),
        ("ends", a.ends as u64, "end"),
    ] {
        if n == 0 {
            return Err(format!("--{name} 0: at least 1 {what}"));
        }
    }
    let size = a.size.as_deref().map(parse_size).transpose()?;
    if a.like.is_none() && (a.pick.id.is_some() || a.pick.line.is_some()) {
        return Err(
            "--id and --line pick the --like puzzle in a JSON Lines file: give --like".into(),
        );
    }
    let mut o = if let Some(like) = &a.like {
        let p = input::read_picked(like, None, &a.pick)?;
        GenerateOptions::like(&p).map_err(|e| e.to_string())?
    } else {
        let (w, h) = size.unwrap_or((4, 4));
        let mut o = if let Some(spec) = &a.symbols {
            GenerateOptions::new(w, h, Spec::parse(spec).map_err(|e| e.to_string())?)
        } else {
            let name = a.preset.as_deref().unwrap_or("mixed");
            GenerateOptions::preset(Preset::from_name(name).map_err(|e| e.to_string())?, w, h)
        };
        o.starts = a.starts;
        o.ends = a.ends;
        o.gaps = a.gaps;
        o.removed = a.removed;
        o
    };
    if let Some(r) = a.rules {
        o.rules = r;
    }
    if a.pillar {
        o.pillar = true;
    }
    if let Some(s) = &a.symmetry {
        o.symmetry = Some(parse_symmetry(s)?);
    }
    // A model's counts, fitted to the size and frame asked for.
    if let (Some((w, h)), Some(_)) = (size, &a.like) {
        o.resize(w, h);
    }
    o.minimal = a.minimal;
    o.difficulty = a
        .difficulty
        .as_deref()
        .map(parse_band)
        .transpose()
        .map_err(|e| e.to_string())?;
    o.attempts = a.attempts as usize;
    if let Some(text) = &a.around {
        if a.starts != 1 || a.ends != 1 {
            return Err(
                "--starts and --ends do not apply with --around: the line's first node \
                 is the panel's only start and its last node its only end"
                    .into(),
            );
        }
        // A model puzzle's starts and ends give way to the line's.
        o.starts = 1;
        o.ends = 1;
        let mut empty =
            witness::Puzzle::new(o.width, o.height, o.pillar).map_err(|e| e.to_string())?;
        empty.symmetry = o.symmetry;
        let line = witness::Path::parse_on(text, &empty)
            .map_err(|e| format!("--around: not a line: {e}"))?;
        o.around = Some(line);
    }
    o.time_per_puzzle = (a.timeout_ms > 0).then(|| Duration::from_millis(a.timeout_ms));
    Ok(o)
}

/// Runs `witness generate`: 0 when every puzzle was written, 3 when some
/// were given up (their attempts or time ran out), 130 on Ctrl-C (the
/// lines written stay, each flushed whole).
pub fn run(a: Args) -> Result<u8, String> {
    let mut o = options(&a)?;
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let c = cancel.clone();
        let _ = ctrlc::set_handler(move || {
            if c.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    }
    o.limits = Limits::none().with_cancel(cancel.clone());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())?;
    let target = a.out.as_deref().unwrap_or("standard output");
    let mut out: Box<dyn Write> = match &a.out {
        Some(path) => {
            Box::new(std::fs::File::create(path).map_err(|e| format!("cannot write {path}: {e}"))?)
        }
        None => Box::new(std::io::stdout()),
    };
    let pb = ProgressBar::new(a.count);
    pb.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed_precise} eta {eta} {msg}")
            .expect("valid template"),
    );
    if a.count < 2 {
        pb.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    // Each worker takes the next puzzle index as soon as it is free, so a
    // slow puzzle holds up only its own worker; this thread writes the
    // answers in index order as they complete. A worker stays at most
    // `ahead` puzzles ahead of the first one not written yet, which bounds
    // the answers held back.
    let workers = pool.current_num_threads().max(1);
    let ahead = 16 * workers as u64;
    let next = AtomicU64::new(0);
    let written = (Mutex::new(0u64), Condvar::new());
    let (tx, rx) = mpsc::channel::<(u64, Result<Generated, Error>)>();
    let (count, seed, o) = (a.count, a.seed, &o);
    std::thread::scope(|scope| -> Result<u8, String> {
        for _ in 0..workers {
            let (tx, next, written, pool) = (tx.clone(), &next, &written, &pool);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    break;
                }
                let mut done = written.0.lock().unwrap_or_else(|e| e.into_inner());
                while i >= *done + ahead {
                    done = written.1.wait(done).unwrap_or_else(|e| e.into_inner());
                }
                drop(done);
                let r = pool.install(|| witness::generate_nth(o, seed, i));
                if tx.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let release = |to: u64| {
            *written.0.lock().unwrap_or_else(|e| e.into_inner()) = to;
            written.1.notify_all();
        };
        let mut held = std::collections::BTreeMap::new();
        let mut given_up = 0u64;
        let mut first = 0u64;
        let mut write = || -> Result<u8, String> {
            for (i, r) in rx.iter() {
                held.insert(i, r);
                while let Some(r) = held.remove(&first) {
                    let i = first;
                    first += 1;
                    match r {
                        Ok(g) => {
                            let v = g.to_json(seed, i).map_err(|e| e.to_string())?;
                            writeln!(out, "{v}")
                                .and_then(|_| out.flush())
                                .map_err(|e| format!("cannot write to {target}: {e}"))?;
                        }
                        Err(Error::Stopped) if cancel.load(Ordering::Relaxed) => {
                            pb.finish_and_clear();
                            return Ok(130);
                        }
                        Err(Error::Stopped) => {
                            given_up += 1;
                            pb.suspend(|| {
                                eprintln!(
                                    "witness: puzzle {i} given up: no unique puzzle within its \
                                 attempts and time limit"
                                )
                            });
                        }
                        Err(e) => return Err(e.to_string()),
                    }
                    pb.inc(1);
                    release(first);
                }
            }
            pb.finish_and_clear();
            Ok(if given_up > 0 {
                crate::EXIT_STOPPED
            } else {
                crate::EXIT_DONE
            })
        };
        let done = write();
        // However writing ended, the workers stop: no new puzzle, none
        // waiting, the ones under way cancelled unless all went well.
        next.store(count, Ordering::Relaxed);
        if done != Ok(crate::EXIT_DONE) && done != Ok(crate::EXIT_STOPPED) {
            cancel.store(true, Ordering::Relaxed);
        }
        release(u64::MAX / 2);
        drop(rx);
        done
    })
}

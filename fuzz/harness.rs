//! What each fuzz target does with its input, one function per target.
//!
//! The `cargo fuzz` binaries in `fuzz_targets/` call these functions, and
//! `crates/witness/tests/fuzz_regressions.rs` includes this file to replay
//! the saved inputs (`fuzz/corpus/` and `fuzz/regressions/`) through the
//! same code. Every function takes the raw input bytes and tells whether
//! it read the input (as a puzzle or a path), so that the replay can check
//! that none of its seeds is refused. A reader may refuse an input with an
//! error; a panic, or one of the assertions here failing, is a finding.

use std::collections::HashSet;
use std::sync::OnceLock;
use std::time::Duration;

use witness::formats::{self, alcazar, text, windmill, wpjson};
use witness::internals::for_each_solution;
use witness::model::{Direction, Gap, Pos, Puzzle, SlotKind, Turn};
use witness::{check, CountOptions, Limits, Path, Rules, SolveOptions, Status};

/// A fuzz target: its name (the directory of its inputs) and its function.
pub type Target = (&'static str, fn(&[u8]) -> bool);

/// Every target, by name.
pub const TARGETS: [Target; 7] = [
    ("wpjson", wpjson),
    ("windmill", windmill),
    ("alcazar", alcazar),
    ("text", text),
    ("path", path),
    ("detect", detect),
    ("jobs", jobs),
];

/// The most slots per side a puzzle may have for [`jobs`] to solve it.
pub const JOBS_MAX_SLOTS: usize = 25;

/// The solutions [`jobs`] asks for, at most.
const JOBS_SOLUTIONS: usize = 8;

/// The limits of each search [`jobs`] runs: a short deadline and a small
/// node budget, so that one input takes milliseconds.
fn job_limits() -> Limits {
    Limits::timeout(Duration::from_millis(50)).with_max_nodes(5_000)
}

/// Checks what every reader promises of a puzzle it returns: the text
/// format writes it and reads it back unchanged.
fn check_puzzle(p: &Puzzle) {
    let t = text::to_string(p);
    match text::parse(&t) {
        Ok(back) => assert_eq!(&back, p, "the text form does not read back:\n{t}"),
        Err(e) => panic!("the text form does not read back: {e}\n{t}"),
    }
}

/// Reads the input with `parse` and checks the puzzle ([`check_puzzle`]).
fn read(data: &[u8], parse: fn(&str) -> witness::Result<Puzzle>) -> Option<Puzzle> {
    let p = parse(std::str::from_utf8(data).ok()?).ok()?;
    check_puzzle(&p);
    Some(p)
}

/// witnesspuzzles JSON: parsing, then JSON → model → JSON reading back to
/// the same puzzle and writing the same JSON again, and the puzzle as a
/// Windmill code ([`check_any_code`]).
pub fn wpjson(data: &[u8]) -> bool {
    let Some(p) = read(data, wpjson::parse) else {
        return false;
    };
    check_any_code(&p);
    if let Ok(out) = wpjson::to_value(&p) {
        let mut back = match wpjson::from_value(&out) {
            Ok(back) => back,
            Err(e) => panic!("the written JSON does not read back: {e}\n{out}"),
        };
        if p.name.is_none() {
            back.name = None;
        }
        assert_eq!(back, p, "the written JSON reads back differently:\n{out}");
        assert_eq!(wpjson::to_value(&back).ok(), Some(out));
    }
    true
}

/// Windmill codes and URLs, and the input's bytes taken as a code's
/// protobuf message (so that mutations reach the message's fields, not
/// only its base64 text); each puzzle read is written as a code again.
pub fn windmill(data: &[u8]) -> bool {
    let as_text = read(data, windmill::parse).inspect(check_code).is_some();
    let as_message = windmill::parse(&windmill::code_of(data))
        .map(|p| {
            check_puzzle(&p);
            check_code(&p);
        })
        .is_ok();
    as_text || as_message
}

/// Checks what the Windmill writer promises of any puzzle: a code it
/// writes reads back as the same panel (size, symmetry and every slot, but
/// where the ends' caps point), or it refuses the puzzle as something a
/// code cannot hold.
fn check_any_code(p: &Puzzle) {
    match windmill::to_string(p) {
        Ok(code) => {
            let back = windmill::parse(&code)
                .unwrap_or_else(|e| panic!("the written code does not read back: {e}\n{code}"));
            assert_eq!(
                (back.width(), back.height(), back.symmetry),
                (p.width(), p.height(), p.symmetry),
                "the written code reads back as another panel:\n{code}"
            );
            let capless = |q: &Puzzle| -> Vec<witness::model::Cell> {
                q.cells()
                    .map(|(_, c)| witness::model::Cell {
                        end: c.end.map(|_| Direction::Left),
                        ..c.clone()
                    })
                    .collect()
            };
            assert!(
                capless(&back) == capless(p),
                "the written code reads back differently:\n{code}"
            );
        }
        Err(witness::Error::Unsupported(_)) => {}
        Err(e) => panic!("the writer failed: {e}"),
    }
}

/// Checks what the Windmill writer promises of a puzzle read from a code:
/// its code reads back as the same puzzle and is written again the same,
/// or it is refused as something a code cannot hold (a start the reader
/// mirrored onto a removed point, say).
fn check_code(p: &Puzzle) {
    match windmill::to_string(p) {
        Ok(code) => {
            let back = windmill::parse(&code)
                .unwrap_or_else(|e| panic!("the written code does not read back: {e}\n{code}"));
            assert_eq!(&back, p, "the written code reads back differently:\n{code}");
            assert_eq!(windmill::to_string(&back).ok(), Some(code));
        }
        Err(witness::Error::Unsupported(_)) => {}
        Err(e) => panic!("the writer failed: {e}"),
    }
}

/// Alcazar mazes.
pub fn alcazar(data: &[u8]) -> bool {
    read(data, alcazar::parse).is_some()
}

/// The text format: parsing, then writing and reading back (as text and as
/// a Windmill code).
pub fn text(data: &[u8]) -> bool {
    read(data, text::parse).inspect(check_any_code).is_some()
}

/// The fixed puzzles [`path`] traces its paths on: a 3x3 panel with
/// symbols, dots, a gap, two starts and two ends, and a pillar with
/// symmetry and polyominoes.
fn path_puzzles() -> &'static [Puzzle] {
    static PUZZLES: OnceLock<Vec<Puzzle>> = OnceLock::new();
    PUZZLES.get_or_init(|| {
        [
            "witness 3x3\n\
             S -  + - + -  E^\n\
             | #  | . | #w |\n\
             + -  + o + -  +\n\
             | .  | 2 | .  |\n\
             + x  + - + -  +\n\
             | #w | . | #  |\n\
             S -  + o + -  E>\n",
            "witness 2x1 pillar symmetry=xy\n\
             S - E^ -\n\
             | A | Ab\n\
             S x E^ x\n\
             A = ylop rot ##./.##\n",
        ]
        .iter()
        .map(|t| text::parse(t).expect("the fixed puzzles parse"))
        .collect()
    })
}

/// Paths: parsing any of the three notations, the site's form, the move
/// string and the coordinates of each fixed puzzle's slots reading back to
/// the same path, and tracing and checking
/// the path on each fixed puzzle, where a legal path's verdict is the same
/// from [`check`] and from its trace.
pub fn path(data: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(data) else {
        return false;
    };
    let Ok(path) = Path::parse(s) else {
        return false;
    };
    let site = path.to_site();
    match Path::from_site(&site) {
        Ok(back) => assert_eq!(back, path, "the site's form reads back differently"),
        Err(e) => panic!("the site's form does not read back: {e}\n{site}"),
    }
    // A move string holds at most 100,000 moves of one letter in a row.
    if path.moves.len() <= 100_000 {
        let moves = path.to_moves();
        match Path::parse(&moves) {
            Ok(back) => assert_eq!(back, path, "the move string reads back differently"),
            Err(e) => panic!("the move string does not read back: {e}\n{moves}"),
        }
    }
    for puzzle in path_puzzles() {
        // The slots it visits, as a list of coordinates, read back to the
        // same path (the fixed pillar is 4 slot columns round, so a step
        // across its seam is told from a step back).
        if let Ok(slots) = path.slots(puzzle) {
            let coords: Vec<String> = slots.iter().map(|p| format!("[{},{}]", p.x, p.y)).collect();
            let coords = format!("[{}]", coords.join(","));
            match Path::parse(&coords) {
                Ok(back) => assert_eq!(back, path, "{coords} reads back differently"),
                Err(e) => panic!("the coordinates do not read back: {e}\n{coords}"),
            }
        }
        let traced = path.trace(puzzle);
        let verdict = check(puzzle, &path);
        match traced {
            Ok(trace) => {
                let rules = Rules::new(puzzle).expect("the fixed puzzles compile");
                let from_trace = rules.check(&trace);
                match verdict {
                    Ok(v) => assert_eq!(v, from_trace, "validate and check disagree"),
                    Err(e) => panic!("a legal path fails to validate: {e}"),
                }
            }
            Err(_) => assert!(verdict.is_err(), "an illegal path got a verdict"),
        }
    }
    true
}

/// Format detection and reading in the detected format: a puzzle read
/// without a format is the one read in the format detected.
pub fn detect(data: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(data) else {
        return false;
    };
    let format = formats::detect(s);
    let read = formats::read_puzzle(s, None);
    match (format, read) {
        (Ok(f), Ok(p)) => {
            let again = formats::read_puzzle(s, Some(f));
            assert_eq!(again.ok().as_ref(), Some(&p), "reading as {f:?} differs");
            check_puzzle(&p);
            true
        }
        (Err(_), Ok(_)) => panic!("a puzzle was read in a format detect does not name"),
        (_, Err(_)) => false,
    }
}

/// A hash of the input, to seed the path [`jobs`] checks.
fn seed(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The next number of a small pseudo-random sequence (splitmix64).
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A path drawn from a start by a walk that the input's hash steers: it
/// moves along grid lines to slots neither line has covered, and stops at
/// an end (three times in four) or where it cannot go on. Often legal, so
/// the validator sees whole paths, not only refusals.
fn derived_path(puzzle: &Puzzle, data: &[u8]) -> Option<Path> {
    let starts: Vec<Pos> = puzzle.starts().collect();
    if starts.is_empty() {
        return None;
    }
    let mut state = seed(data);
    let start = starts[(next(&mut state) % starts.len() as u64) as usize];
    let sym = puzzle.symmetry.is_some();
    let mut covered = HashSet::from([start]);
    if sym {
        covered.insert(puzzle.mirror(start));
    }
    let mut p = start;
    let mut moves = Vec::new();
    loop {
        if puzzle.cell(p).end.is_some() && !next(&mut state).is_multiple_of(4) {
            break;
        }
        let options: Vec<(Direction, Pos)> = Direction::ALL
            .into_iter()
            .filter(|d| {
                if d.is_horizontal() {
                    p.y.is_multiple_of(2)
                } else {
                    p.x.is_multiple_of(2)
                }
            })
            .filter_map(|d| puzzle.neighbor(p, d).map(|q| (d, q)))
            .filter(|&(_, q)| {
                let m = puzzle.mirror(q);
                q.kind() != SlotKind::Face
                    && puzzle.cell(q).gap == Gap::None
                    && !covered.contains(&q)
                    && (!sym || (m != q && !covered.contains(&m)))
            })
            .collect();
        if options.is_empty() {
            break;
        }
        let (d, q) = options[(next(&mut state) % options.len() as u64) as usize];
        moves.push(d);
        covered.insert(q);
        if sym {
            covered.insert(puzzle.mirror(q));
        }
        p = q;
    }
    Some(Path::new(start, moves))
}

/// Asserts that the validator accepts a path the solver returned.
fn assert_solves(puzzle: &Puzzle, path: &Path, by: &str) {
    match check(puzzle, path) {
        Ok(v) => assert!(v.valid, "{by} returned {path}, which fails: {v:?}"),
        Err(e) => panic!("{by} returned {path}, which is illegal: {e}"),
    }
}

/// The solver's jobs on any puzzle the input reads as (at most
/// [`JOBS_MAX_SLOTS`] slots per side): checking a path derived from the
/// input, solving, listing up to eight solutions and counting up to eight,
/// each search within [`job_limits`]. Every solution returned must pass
/// [`check`], and the answers must agree where they are
/// complete: "no solution" means none is listed or counted, a complete
/// list is as long as a complete count, and a turned copy of the puzzle
/// counts as many ([`assert_turned_count`]).
pub fn jobs(data: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(data) else {
        return false;
    };
    let Ok(puzzle) = formats::read_puzzle(s, None) else {
        return false;
    };
    if puzzle.width() > JOBS_MAX_SLOTS || puzzle.height() > JOBS_MAX_SLOTS {
        return false;
    }
    let Ok(rules) = Rules::new(&puzzle) else {
        return false;
    };
    if let Some(path) = derived_path(&puzzle, data) {
        let verdict = check(&puzzle, &path);
        let checked = rules.check_path(&puzzle, &path);
        assert_eq!(verdict.ok(), checked.ok(), "validate and check disagree");
    }

    let solved = witness::solve(&puzzle, &SolveOptions::default().with_limits(job_limits()));
    if let Ok(sol) = &solved {
        if let Some(p) = &sol.path {
            assert_solves(&puzzle, p, "solve");
        }
    }

    let mut listed = Vec::new();
    let listing = for_each_solution(&puzzle, &job_limits(), |p| {
        listed.push(p.clone());
        listed.len() < JOBS_SOLUTIONS
    });
    for p in &listed {
        assert_solves(&puzzle, p, "for_each_solution");
    }
    let distinct: HashSet<&Path> = listed.iter().collect();
    assert_eq!(distinct.len(), listed.len(), "a solution was listed twice");

    let counted = witness::count(
        &puzzle,
        &CountOptions::default()
            .with_limit(JOBS_SOLUTIONS as u64)
            .with_limits(job_limits()),
    );

    // Where the answers are complete they must agree.
    let none = matches!(&solved, Ok(s) if s.status == Status::Complete && s.path.is_none());
    if none {
        assert!(
            listed.is_empty(),
            "solve found none, the listing {listed:?}"
        );
    }
    let all_listed = matches!(listing, Ok(Status::Complete)) && listed.len() < JOBS_SOLUTIONS;
    if let Some(c) = counted
        .as_ref()
        .ok()
        .filter(|c| c.status == Status::Complete)
    {
        assert!(
            c.count >= listed.len() as u64,
            "count {} is fewer than the {} solutions listed",
            c.count,
            listed.len()
        );
        if none {
            assert_eq!(c.count, 0, "solve found none, count {}", c.count);
        }
        if all_listed {
            assert_eq!(c.count, listed.len() as u64, "count and listing disagree");
        }
        if matches!(&solved, Ok(s) if s.path.is_some()) {
            assert!(c.count > 0, "solve found one, a complete count none");
        }
        assert_turned_count(&puzzle, data, c.count.to_u64());
    }
    true
}

/// A copy of `puzzle` turned over (the way picked by the input's length) is
/// the same puzzle: where its count up to [`JOBS_SOLUTIONS`] is complete,
/// it is `count`, the original's complete count (`None` when too large
/// for a `u64`). Puzzles whose copies may have other solutions (three
/// elimination marks or more, [`Turn::keeps_solutions`]) are left out.
fn assert_turned_count(puzzle: &Puzzle, data: &[u8], count: Option<u64>) {
    if !Turn::keeps_solutions(puzzle) {
        return;
    }
    let turn = Turn::ALL[data.len() % Turn::ALL.len()];
    let Ok(copy) = puzzle.turned(turn) else {
        return;
    };
    let options = CountOptions::default()
        .with_limit(JOBS_SOLUTIONS as u64)
        .with_limits(job_limits());
    if let Ok(c) = witness::count(&copy, &options) {
        if c.status == Status::Complete {
            assert_eq!(
                c.count.to_u64(),
                count,
                "the count of the copy turned {turn:?}"
            );
        }
    }
}

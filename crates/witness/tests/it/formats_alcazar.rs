//! Alcazar mazes: they read as Witness panels, their stored solutions are
//! valid paths, the solver finds the expected number of solutions, and
//! malformed mazes give errors, never panics.

use crate::common;

use std::time::{Duration, Instant};

use witness::formats::{self, alcazar, text, wpjson, Format};
use witness::model::{Direction, Dot, Gap, Pos, Puzzle, SlotKind};
use witness::{CountOptions, Limits, Path, Status};

const SAMPLE1: &str = include_str!("../data/alcazar-sample1.puzzle");
const SAMPLE6A: &str = include_str!("../data/alcazar-sample6a.puzzle");

/// The corpus mazes with their expected solution counts (the corpus's
/// reference counts; `None` for sample6b, which has at least 50).
const MAZES: [(&str, Option<u64>); 10] = [
    ("sample1", Some(1)),
    ("sample2", Some(1)),
    ("sample3", Some(1)),
    ("sample4", Some(1)),
    ("sample5", Some(1)),
    ("sample6a", Some(9)),
    ("sample6b", None),
    ("sample7", Some(1)),
    ("sample8", Some(1)),
    ("sample9", Some(23)),
];

fn corpus_maze(name: &str) -> Option<String> {
    let lines = common::corpus_lines(&format!("alcazar/{name}.puzzle"))?;
    // corpus_lines drops blank lines only; maze lines are never blank.
    Some(lines.join("\n") + "\n")
}

/// The solution a maze file stores as `-`/`|` strokes, as a path from one
/// stroked door to the other, or `None` when the file stores none.
fn stored_solution(maze: &str) -> Option<Path> {
    let rows: Vec<Vec<char>> = maze.lines().map(|l| l.chars().collect()).collect();
    let at = |x: isize, y: isize| -> char {
        if x < 0 || y < 0 {
            return 'x';
        }
        rows.get(y as usize)
            .and_then(|r| r.get(x as usize))
            .copied()
            .unwrap_or(' ')
    };
    let stroke = |x: isize, y: isize| matches!(at(x, y), '-' | '|');
    let (w, h) = (
        rows.iter().map(Vec::len).max()? as isize / 2,
        rows.len() as isize / 2,
    );
    let on_board = |i: isize, j: isize| i >= 0 && j >= 0 && i < w && j < h;
    // A room with a stroked door leading off the board.
    let mut start = None;
    for j in 0..h {
        for i in 0..w {
            for d in Direction::ALL {
                let (dx, dy) = d.delta();
                if !on_board(i + dx, j + dy) && stroke(2 * i + 1 + dx, 2 * j + 1 + dy) {
                    start = start.or(Some((i, j)));
                }
            }
        }
    }
    let (mut i, mut j) = start?;
    let origin = Pos::new(2 * i as usize, 2 * j as usize);
    let mut moves = Vec::new();
    let mut came_from: Option<Direction> = None;
    loop {
        let next = Direction::ALL.into_iter().find(|&d| {
            let (dx, dy) = d.delta();
            Some(d.opposite()) != came_from
                && on_board(i + dx, j + dy)
                && stroke(2 * i + 1 + dx, 2 * j + 1 + dy)
        });
        let Some(d) = next else { break };
        let (dx, dy) = d.delta();
        moves.extend([d, d]);
        i += dx;
        j += dy;
        came_from = Some(d);
    }
    Some(Path::new(origin, moves))
}

fn check_shape(p: &Puzzle) {
    assert!(p.undirected);
    for (q, c) in p.cells() {
        match q.kind() {
            SlotKind::Node => {
                assert_eq!(c.dot, Dot::Black, "every room is a dot");
                assert_eq!(c.start, c.end.is_some(), "a door is both start and end");
            }
            SlotKind::Edge => assert!(c.gap != Gap::Full),
            SlotKind::Face => assert!(c.symbol.is_none()),
        }
    }
}

#[test]
fn sample1_reads_as_the_spec_draws_it() {
    assert_eq!(formats::detect(SAMPLE1), Ok(Format::Alcazar));
    let p = formats::read_puzzle(SAMPLE1, None).unwrap();
    check_shape(&p);
    let drawn = [
        "witness 2x3 undirected",
        "o    - o - o",
        "|    . x . |",
        "SE<o x o - o",
        "|    . | . |",
        "SE<o x o - o",
        "|    . x . |",
        "o    - o - o",
    ];
    assert_eq!(text::to_string(&p), drawn.join("\n") + "\n");
    // The maze's unique solution, (0,1) → (0,0) → … → (0,2), in slot moves.
    let path = Path::parse("0,2:U2R4D2L2D2R2D2L4U2").unwrap();
    assert!(witness::check(&p, &path).unwrap().valid);
    // A path that skips a room is not a solution.
    let short = Path::parse("0,2:U2R4D2L2D2R2D2L2").unwrap();
    assert!(witness::check(&p, &short).map_or(true, |v| !v.valid));
}

#[test]
fn stored_solutions_are_valid_paths() {
    let mut mazes = vec![("bundled sample6a".to_string(), SAMPLE6A.to_string())];
    for (name, _) in MAZES {
        if let Some(m) = corpus_maze(name) {
            mazes.push((name.to_string(), m));
        }
    }
    let mut checked = 0;
    for (name, maze) in &mazes {
        let p = alcazar::parse(maze).unwrap_or_else(|e| panic!("{name}: {e}"));
        check_shape(&p);
        let Some(path) = stored_solution(maze) else {
            continue;
        };
        let v = witness::check(&p, &path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            v.valid,
            "{name}: stored solution {path} is not valid: {v:?}"
        );
        // Through every room: (rooms - 1) steps of two slots each.
        let rooms = (p.face_width() + 1) * (p.face_height() + 1);
        assert_eq!(path.moves.len(), 2 * (rooms - 1), "{name}");
        checked += 1;
    }
    assert!(checked >= 1);
}

/// A maze written as witnesspuzzles JSON keeps its undirected paths (the
/// project's own `"undirected"` key, which the site ignores): read back,
/// it is the same puzzle, and its count is the maze's (a path and its
/// reverse once), not twice it.
#[test]
fn mazes_round_trip_through_json() {
    let p = alcazar::parse(SAMPLE1).unwrap();
    let json = wpjson::to_string(&p).unwrap();
    assert!(json.contains("\"undirected\":true"), "{json}");
    let mut q = wpjson::parse(&json).unwrap();
    // The writer names an unnamed puzzle, as the site does.
    q.name = None;
    assert_eq!(q, p);
    let c = witness::count(&q, &CountOptions::default()).unwrap();
    assert_eq!(c.count.to_u64(), Some(1));
    // A directed puzzle writes no such key.
    let mut directed = p.clone();
    directed.undirected = false;
    assert!(!wpjson::to_string(&directed).unwrap().contains("undirected"));
    let bad = json.replace("\"undirected\":true", "\"undirected\":3");
    assert!(wpjson::parse(&bad).is_err());
}

#[test]
fn mazes_round_trip_through_the_text_format() {
    let mut mazes = vec![SAMPLE1.to_string(), SAMPLE6A.to_string()];
    for (name, _) in MAZES {
        mazes.extend(corpus_maze(name));
    }
    for maze in mazes {
        let p = alcazar::parse(&maze).unwrap();
        let t = text::to_string(&p);
        assert_eq!(text::parse(&t).unwrap(), p, "{t}");
    }
}

/// Solves and counts every maze (the corpus's reference
/// solution counts),
/// printing the times.
#[test]
fn every_maze_solves_with_the_expected_count() {
    let mut mazes = vec![("sample1".to_string(), SAMPLE1.to_string(), Some(1))];
    for (name, want) in MAZES {
        if let Some(m) = corpus_maze(name) {
            mazes.push((name.to_string(), m, want));
        }
    }
    let mut failures = Vec::new();
    for (name, maze, want) in mazes {
        let p = alcazar::parse(&maze).unwrap();
        let t0 = Instant::now();
        let s = witness::solve(
            &p,
            &witness::SolveOptions::default().with_limits(Limits::timeout(Duration::from_secs(30))),
        )
        .unwrap();
        let t_solve = t0.elapsed();
        let Some(path) = s.path else {
            failures.push(format!(
                "{name}: no solution found ({:?}) in {t_solve:?}",
                s.status
            ));
            continue;
        };
        assert!(witness::check(&p, &path).unwrap().valid, "{name}");
        let t0 = Instant::now();
        let limit = want.map_or(Some(50), |_| None);
        let c = witness::count(
            &p,
            &witness::CountOptions {
                limit,
                limits: Limits::timeout(Duration::from_secs(60)),
                ..Default::default()
            },
        )
        .unwrap();
        let t_count = t0.elapsed();
        eprintln!(
            "{name}: solved in {t_solve:?}; count {} ({:?}) in {t_count:?}",
            c.count, c.status
        );
        let ok = match want {
            Some(n) => c.status == Status::Complete && c.count == n,
            None => c.count == 50,
        };
        if !ok {
            failures.push(format!(
                "{name}: count {} ({:?}), expected {}",
                c.count,
                c.status,
                want.map_or("at least 50".to_string(), |n| n.to_string())
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A maze one room wide (a panel of no faces, one column of two nodes):
/// two rooms above each other, doors at the top and the bottom, one way
/// through.
#[test]
fn a_maze_one_room_wide_reads_and_solves() {
    let p = alcazar::parse("x x\nx0x\nx x\nx0x\nx x\n").unwrap();
    assert_eq!((p.width(), p.height()), (1, 3));
    let c = witness::count(&p, &CountOptions::default()).unwrap();
    assert_eq!((c.count, c.status), (1u64.into(), Status::Complete));
}

#[test]
fn malformed_mazes_give_clear_errors() {
    let conflict = format!("<<<<<<< HEAD\n{SAMPLE1}=======\n{SAMPLE1}>>>>>>> 2164606\n");
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "at least 3 lines"),
        ("xxx\nx0x\n".into(), "at least 3 lines"),
        ("xxx\nx0x\nxxx\nx0x\n".into(), "odd number of lines"),
        ("xxxxx\nx0 ax\nxxxxx\n".into(), "line 2, column 4"),
        ("xxxxx\nx0 xx\nxxxxx\n".into(), "room"),
        ("xxxxx\nx0\nxxxxx\n".into(), "missing"),
        (conflict, "line 1, column 1"),
    ];
    for (maze, want) in cases {
        let e = alcazar::parse(&maze).expect_err(&maze);
        let msg = e.to_string();
        assert!(
            msg.contains(want),
            "{maze:?}: {msg:?} should mention {want:?}"
        );
    }
}

#[test]
fn corrupted_mazes_never_panic() {
    let chars = ['x', '0', ' ', '-', '|', '\n', 'a', '\r'];
    let base: Vec<char> = SAMPLE6A.chars().collect();
    let mut seed = 12345u64;
    let mut rand = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    for _ in 0..2000 {
        let mut m = base.clone();
        for _ in 0..1 + rand(4) {
            let i = rand(m.len());
            match rand(3) {
                0 => m[i] = chars[rand(chars.len())],
                1 => {
                    m.remove(i);
                }
                _ => m.insert(i, chars[rand(chars.len())]),
            }
        }
        let s: String = m.into_iter().collect();
        let _ = alcazar::parse(&s);
        let _ = formats::read_puzzle(&s, None);
    }
    for cut in 0..SAMPLE6A.len() {
        let _ = alcazar::parse(&SAMPLE6A[..cut]);
    }
}

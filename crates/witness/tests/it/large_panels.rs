//! The largest panels the readers accept are solved, counted, hinted and
//! checked without a crash, within their limits, even from a thread with
//! a small stack; work that could run for minutes stops at its limit.

use std::time::{Duration, Instant};

use witness::internals::brute;
use witness::model::MAX_SLOTS;
use witness::{check, check_within, formats, CountOptions, HintOptions, HintSize, Limits};
use witness::{Path, Puzzle, SolveOptions, Status};

/// The largest panel side, in faces.
const SIDE: usize = (MAX_SLOTS - 1) / 2;

/// A panel `n` faces a side in the text format, start bottom left, end top
/// right, `face(col, row)` giving each face's token.
fn panel(n: usize, face: impl Fn(usize, usize) -> &'static str, legend: &str) -> Puzzle {
    let mut text = format!("witness {n}x{n}\n");
    for r in 0..=2 * n {
        let row: Vec<&str> = (0..=2 * n)
            .map(|c| match (r % 2, c % 2) {
                _ if r == 2 * n && c == 0 => "S",
                _ if r == 0 && c == 2 * n => "E>",
                (0, 0) => "+",
                (0, _) => "-",
                (_, 0) => "|",
                _ => face(c / 2, r / 2),
            })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text.push_str(legend);
    formats::read_puzzle(&text, None).expect("a well-formed panel")
}

/// Runs `f` on a thread with a 256 KiB stack, far less than the search
/// needs on the largest panels, so that only the library's own stack
/// handling can keep it from overflowing.
fn on_small_stack<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> R {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("a thread")
        .join()
        .expect("no panic")
}

fn ms(n: u64) -> Limits {
    Limits::timeout(Duration::from_millis(n))
}

#[test]
fn the_largest_empty_panel_is_solved_counted_and_hinted() {
    let (solved, count, hint) = on_small_stack(|| {
        let p = panel(SIDE, |_, _| ".", "");
        let s = witness::solve(&p, &SolveOptions::default().with_limits(ms(20_000))).unwrap();
        let path = s.path.clone().expect("an empty panel has a solution");
        assert!(check(&p, &path).unwrap().valid);
        // Counting walks every path in depth-first order, as deep as a path
        // can be long, until its limit.
        let c = witness::count(
            &p,
            &CountOptions::default()
                .with_limit(1_000)
                .with_limits(ms(20_000)),
        )
        .unwrap();
        let h = witness::hint(
            &p,
            &HintOptions {
                size: HintSize::Fraction(0.5),
                limits: ms(20_000),
                ..Default::default()
            },
        )
        .unwrap();
        (s.status, c, h.path.is_some())
    });
    assert_eq!(solved, Status::Complete);
    assert!(count.count > 0);
    assert!(hint);
}

#[test]
fn the_largest_panel_full_of_symbols_stops_at_its_limit() {
    let kinds = [".", "#", "#w", "*", "2", ".", "1", "*w"];
    let (status, took) = on_small_stack(move || {
        let p = panel(SIDE, |c, r| kinds[(c * 7 + r * 3) % kinds.len()], "");
        let t0 = Instant::now();
        let s = witness::solve(&p, &SolveOptions::default().with_limits(ms(1_500))).unwrap();
        if let Some(path) = &s.path {
            assert!(check(&p, path).unwrap().valid);
        }
        let c = witness::count(&p, &CountOptions::default().with_limits(ms(1_500))).unwrap();
        assert!(c.status == Status::Stopped || c.count < u64::MAX);
        (s.status, t0.elapsed())
    });
    assert!(status == Status::Stopped || status == Status::Complete);
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

#[test]
fn the_brute_force_walks_the_largest_panel_without_overflow() {
    let status = on_small_stack(|| {
        let p = panel(SIDE, |_, _| ".", "");
        let mut seen = 0u32;
        brute::enumerate(&p, &ms(1_000), |_| {
            seen += 1;
            seen < 3
        })
        .unwrap()
    });
    // Either three solutions were seen (stopped by the visitor) or the
    // limit ran out first; both end the walk cleanly.
    assert!(matches!(status, Status::Complete | Status::Stopped));
}

#[test]
fn one_more_face_a_side_is_refused_with_a_clear_error() {
    let n = SIDE + 1;
    let mut text = format!("witness {n}x{n}\n");
    for r in 0..=2 * n {
        let row: Vec<&str> = (0..=2 * n)
            .map(|c| match (r % 2, c % 2) {
                (0, 0) => "+",
                (0, _) => "-",
                (_, 0) => "|",
                _ => ".",
            })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    let e = formats::read_puzzle(&text, None).unwrap_err().to_string();
    assert!(e.contains("size") || e.contains("large"), "{e}");
}

#[test]
fn a_check_that_could_run_for_minutes_stops_at_its_limit() {
    // A 30x30 panel whose 225 rotatable L-shaped tetrominoes exactly fill
    // it: a line along the bottom and right borders leaves one region of
    // 900 faces,
    // and deciding whether 225 free pieces tile it is a search the fit
    // cannot finish in any reasonable time.
    let n = 30;
    let p = panel(
        n,
        |c, r| if (r * n + c) % 4 == 0 { "A" } else { "." },
        "A = poly rot ##/.#/.#\n",
    );
    let path = Path::parse(&format!("0,{}:R{}U{}", 2 * n, 2 * n, 2 * n)).unwrap();
    let t0 = Instant::now();
    let r = check_within(&p, &path, &ms(300));
    assert_eq!(r.unwrap_err(), witness::Error::Stopped);
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    // A cancel flag stops it too.
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let r = check_within(&p, &path, &Limits::none().with_cancel(flag));
    assert_eq!(r.unwrap_err(), witness::Error::Stopped);
}

#[test]
fn a_check_within_limits_agrees_with_the_plain_check() {
    // The 1x1 panel of the crate's example: a dot on the top edge.
    let p = formats::read_puzzle("witness 1x1\n+ o E>\n| . |\nS - +\n", None).unwrap();
    for (moves, valid) in [("0,2:U2R2", true), ("0,2:R2U2", false)] {
        let path = Path::parse(moves).unwrap();
        let v = check_within(&p, &path, &ms(5_000)).unwrap();
        assert_eq!(v.valid, valid, "{moves}");
        assert_eq!(v, check(&p, &path).unwrap());
    }
}

#[test]
fn a_count_limit_of_zero_is_refused() {
    let p = panel(2, |_, _| ".", "");
    let e = witness::count(&p, &CountOptions::default().with_limit(0)).unwrap_err();
    assert!(matches!(e, witness::Error::Options(_)), "{e}");
    assert!(e.to_string().contains("at least 1"), "{e}");
}

#[test]
fn a_check_of_the_largest_panel_of_pieces_runs_on_a_small_stack() {
    // 4,096 monominoes, one per face: the line along two borders leaves
    // them one region, whose fit recurses a few levels per face.
    let valid = on_small_stack(|| {
        let p = panel(SIDE, |_, _| "A", "A = poly #\n");
        let path = Path::parse(&format!("0,{0}:R{0}U{0}", 2 * SIDE)).unwrap();
        let v = check(&p, &path).unwrap();
        assert_eq!(v, check_within(&p, &path, &ms(20_000)).unwrap());
        v.valid
    });
    assert!(valid);
}

//! The Windmill decoder: every corpus code decodes, round trips through the
//! other formats, and malformed codes give errors, never panics.

use crate::common;

use std::collections::BTreeMap;

use witness::formats::{self, text, windmill, wpjson, Format};
use witness::model::{Gap, Pos, Puzzle, SlotKind, SymbolKind};
use witness::Error;

const SAMPLES: &str = include_str!("../data/windmill-samples.txt");

fn samples() -> Vec<&'static str> {
    SAMPLES
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Corpus codes when the corpus is there, else the bundled samples.
fn all_codes() -> Vec<String> {
    let mut out: Vec<String> = samples().into_iter().map(String::from).collect();
    for f in ["windmill-dev.windmill.txt", "witness-game.windmill.txt"] {
        if let Some(lines) = common::corpus_lines(f) {
            out.extend(lines);
        }
    }
    out
}

/// Tallies of what a puzzle uses, for the corpus statistics checks.
fn tally(p: &Puzzle, t: &mut BTreeMap<&'static str, usize>) {
    for (pos, c) in p.cells() {
        match pos.kind() {
            SlotKind::Face => {
                if let Some(s) = &c.symbol {
                    let k = match &s.kind {
                        SymbolKind::Square => "square",
                        SymbolKind::Star => "star",
                        SymbolKind::Triangle(_) => "triangle",
                        SymbolKind::Nega => "elimination",
                        SymbolKind::Poly(s) if s.rotatable => "free poly",
                        SymbolKind::Poly(_) => "fixed poly",
                        SymbolKind::Ylop(s) if s.rotatable => "blue free",
                        SymbolKind::Ylop(_) => "blue fixed",
                    };
                    *t.entry(k).or_default() += 1;
                }
            }
            SlotKind::Edge => match c.gap {
                Gap::Break => *t.entry("broken").or_default() += 1,
                Gap::Full => *t.entry("absent line").or_default() += 1,
                Gap::None => {}
            },
            SlotKind::Node => {
                if c.gap == Gap::Full {
                    *t.entry("absent point").or_default() += 1;
                }
                if c.start {
                    *t.entry("start").or_default() += 1;
                }
                if c.end.is_some() {
                    *t.entry("end").or_default() += 1;
                }
            }
        }
    }
}

#[test]
fn every_corpus_code_decodes() {
    for (file, want) in [
        ("windmill-dev.windmill.txt", 727),
        ("witness-game.windmill.txt", 195),
    ] {
        let Some(lines) = common::corpus_lines(file) else {
            continue;
        };
        assert_eq!(lines.len(), want, "{file}");
        let mut t = BTreeMap::new();
        for (n, code) in lines.iter().enumerate() {
            // Every line is detected as a Windmill code on its own.
            assert_eq!(
                formats::detect(code),
                Ok(Format::Windmill),
                "{file}:{}",
                n + 1
            );
            let p = formats::read_puzzle(code, None)
                .unwrap_or_else(|e| panic!("{file}:{}: {e}", n + 1));
            tally(&p, &mut t);
        }
        eprintln!("{file}: {t:?}");
        if file.starts_with("witness-game") {
            // The format's reference counts for these files.
            assert_eq!(t["absent line"], 108);
            assert_eq!(t["absent point"], 4);
            assert_eq!(t["star"], 384);
            assert_eq!(t["square"], 347);
            assert_eq!(t["broken"], 220);
            assert_eq!(t["start"], 220);
            assert_eq!(t["end"], 219);
            assert_eq!(t["elimination"], 30);
            assert_eq!(t["fixed poly"], 138);
            assert_eq!(t["free poly"], 26);
            assert_eq!(t["blue fixed"], 21);
        }
    }
}

#[test]
fn bundled_samples_decode() {
    let codes = samples();
    assert!(codes.len() >= 8);
    for code in codes {
        windmill::parse(code).unwrap_or_else(|e| panic!("{code}: {e}"));
    }
}

#[test]
fn sample_features_map_onto_the_model() {
    let codes = samples();
    let ps: Vec<Puzzle> = codes.iter().map(|c| windmill::parse(c).unwrap()).collect();
    // An absent-line panel from the game, a symmetric one, a 5x5 piece, a
    // disconnected piece and a subtractive piece are among the samples.
    assert!(ps
        .iter()
        .any(|p| p.cells().any(|(_, c)| c.gap == Gap::Full)));
    assert!(ps.iter().any(|p| p.symmetry.is_some()));
    let shapes: Vec<_> = ps
        .iter()
        .flat_map(|p| p.cells().filter_map(|(_, c)| c.symbol.clone()))
        .filter_map(|s| match s.kind {
            SymbolKind::Poly(p) | SymbolKind::Ylop(p) => Some(p),
            _ => None,
        })
        .collect();
    assert!(shapes.iter().any(|s| s.bounds() == (5, 5)));
    assert!(shapes.iter().any(|s| !connected(s.cells())));
    assert!(ps.iter().any(|p| p
        .cells()
        .any(|(_, c)| matches!(&c.symbol, Some(s) if matches!(s.kind, SymbolKind::Ylop(_))))));
}

fn connected(cells: &[(u8, u8)]) -> bool {
    let mut seen = vec![false; cells.len()];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        let (x, y) = cells[i];
        for (j, &(a, b)) in cells.iter().enumerate() {
            if !seen[j] && (x.abs_diff(a) + y.abs_diff(b)) == 1 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.into_iter().all(|s| s)
}

#[test]
fn windmill_to_model_to_json_to_model() {
    let mut written = 0;
    let mut too_large = 0;
    for code in all_codes() {
        let p = windmill::parse(&code).unwrap();
        match wpjson::to_string(&p) {
            Ok(json) => {
                let mut back = wpjson::parse(&json).unwrap_or_else(|e| panic!("{code}: {e}"));
                assert_eq!(back.name.as_deref(), Some("Unnamed Puzzle"));
                back.name = None;
                assert_eq!(back, p, "{code}");
                written += 1;
            }
            Err(Error::Unsupported(_)) => {
                // Only pieces beyond the site's 4x4 box cannot be written.
                assert!(p.cells().any(|(_, c)| matches!(&c.symbol,
                    Some(s) if matches!(&s.kind, SymbolKind::Poly(x) | SymbolKind::Ylop(x)
                        if x.bounds().0 > 4 || x.bounds().1 > 4))));
                too_large += 1;
            }
            Err(e) => panic!("{code}: {e}"),
        }
    }
    eprintln!("{written} written as JSON and read back; {too_large} hold pieces larger than 4x4");
    assert!(written > 0);
}

#[test]
fn windmill_to_model_to_text_to_model() {
    for code in all_codes() {
        let p = windmill::parse(&code).unwrap();
        let t = text::to_string(&p);
        let back = text::parse(&t).unwrap_or_else(|e| panic!("{code}: {e}\n{t}"));
        assert_eq!(back, p, "{code}\n{t}");
        assert_eq!(text::to_string(&back), t);
    }
}

#[test]
fn end_caps_point_off_the_grid_or_into_absent_lines() {
    for code in all_codes() {
        let p = windmill::parse(&code).unwrap();
        for e in p.ends() {
            let d = p.cell(e).end.unwrap();
            match p.neighbor(e, d) {
                None => {}
                Some(q) => assert_eq!(p.cell(q).gap, Gap::Full, "{code} end at {e}"),
            }
        }
    }
}

#[test]
fn the_spec_example() {
    let code = "https://windmill.thefifthmatt.com/build/CAUSAggDEgIoBRIJCAkiBQgBEgEBEgASBAgIEAESAigHEgQICzABEgASBAgIEAESAigFEgIIBA==_0";
    let p = formats::read_puzzle(code, None).unwrap();
    let t = text::to_string(&p);
    assert_eq!(
        t,
        "witness 2x2 rules=windmill\nS - + - +\n| A | * |\n+ - + - +\n| 1 | * |\n+ - + - E>\nA = poly #\n"
    );
    assert_eq!(
        p.cell(Pos::new(4, 4)).end,
        Some(witness::model::Direction::Right)
    );
}

/// Encodes bytes as the Windmill does (standard base64 with `-`/`_`).
fn to_code(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut s = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (b[0] as u32) << 16 | (b[1] as u32) << 8 | b[2] as u32;
        for i in 0..=chunk.len() {
            s.push(A[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    while !s.len().is_multiple_of(4) {
        s.push('=');
    }
    s + "_0"
}

#[test]
fn malformed_codes_give_clear_errors() {
    let cases: Vec<(String, &str)> = vec![
        ("".into(), "empty"),
        (
            "CAUSAggDEgIoBRIJCAkiBQgBEgEBEgASBAgIEAESAigHEgQICzABEgASBAgIEAESAigFEgIIBA==".into(),
            "_0",
        ),
        ("windmill.thefifthmatt.com/cmkhg78".into(), "short links"),
        ("C*US_0".into(), "base64"),
        ("_0".into(), "no body"),
        (to_code(&[0x08, 0x05, 0x12, 0x09, 0x08]), "protobuf"),
        (
            to_code(&[0x08, 0x05, 0x12, 0x02, 0x28, 0x07]),
            "not a whole number of rows",
        ),
        (
            to_code(&[0x08, 0x04, 0x12, 0x02, 0x28, 0x0c]),
            "must be odd",
        ),
        (to_code(&[0x08, 0x00, 0x12, 0x00]), "no puzzle"),
        (to_code(&[0x08, 0x03]), "no entities"),
        (
            to_code(&[0x08, 0x03, 0x12, 0x02, 0x08, 0x0d, 0x12, 0x02, 0x28, 0x08]),
            "unknown entity type 13",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x02, 0x28, 0x04, 0x12, 0x02, 0x08, 0x07, 0x12, 0x02, 0x28, 0x04,
            ]),
            "no colour",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x02, 0x28, 0x04, 0x12, 0x04, 0x08, 0x07, 0x10, 0x0c, 0x12, 0x02,
                0x28, 0x04,
            ]),
            "unknown colour 12",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x02, 0x28, 0x04, 0x12, 0x02, 0x08, 0x09, 0x12, 0x02, 0x28, 0x04,
            ]),
            "no shape",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x02, 0x28, 0x04, 0x12, 0x06, 0x08, 0x09, 0x22, 0x02, 0x08, 0x02,
                0x12, 0x02, 0x28, 0x04,
            ]),
            "invalid shape",
        ),
        (
            to_code(&[0x08, 0x03, 0x12, 0x02, 0x08, 0x07, 0x12, 0x02, 0x28, 0x08]),
            "SQUARE entity on a point",
        ),
        (
            to_code(&[0x08, 0x03, 0x12, 0x02, 0x28, 0x09, 0x18, 0x07]),
            "unknown symmetry",
        ),
        (
            to_code(&[
                0x08, 0x03, 0x12, 0x0b, 0x28, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                0x01,
            ]),
            "negative run length",
        ),
        (
            to_code(&[0x08, 0x03, 0x12, 0x06, 0x28, 0xff, 0xff, 0xff, 0xff, 0x07]),
            "more than",
        ),
        (to_code(&[0x08, 0xff, 0x01, 0x12, 0x00]), "wide"),
        ("CAUSAggD_0 CAUSAggD_0".into(), "several words"),
    ];
    for (code, want) in cases {
        let e = windmill::parse(&code).expect_err(&code);
        let msg = e.to_string();
        assert!(
            msg.contains(want),
            "{code:?}: {msg:?} should mention {want:?}"
        );
    }
}

#[test]
fn truncated_and_corrupted_codes_never_panic() {
    for code in samples() {
        let bytes = windmill::code_bytes(code).unwrap();
        for cut in 0..bytes.len() {
            let _ = windmill::parse(&to_code(&bytes[..cut]));
        }
        for i in 0..bytes.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut b = bytes.clone();
                b[i] ^= flip;
                let _ = windmill::parse(&to_code(&b));
            }
        }
        for cut in 0..code.len() {
            let _ = windmill::parse(&code[..cut]);
        }
    }
}

/// How many corpus codes solve under our rules (figures for the README).
/// Slow: `cargo test --release -p witness --test formats_windmill -- --ignored --nocapture`.
/// `WINDMILL_TIMEOUT_MS` sets the time per puzzle (default 10,000).
#[test]
#[ignore = "a measurement, minutes long"]
fn windmill_solvability_report() {
    use std::time::{Duration, Instant};
    use witness::{Limits, Status};
    let ms: u64 = std::env::var("WINDMILL_TIMEOUT_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    for file in ["windmill-dev.windmill.txt", "witness-game.windmill.txt"] {
        let Some(lines) = common::corpus_lines(file) else {
            continue;
        };
        let (mut solved, mut unsolvable, mut timeout) = (0, Vec::new(), Vec::new());
        let t0 = Instant::now();
        let mut slowest = (Duration::ZERO, 0);
        for (n, code) in lines.iter().enumerate() {
            let p = windmill::parse(code).unwrap();
            let t = Instant::now();
            let s = witness::solve(
                &p,
                &witness::SolveOptions::default()
                    .with_limits(Limits::timeout(Duration::from_millis(ms))),
            )
            .unwrap();
            let dt = t.elapsed();
            match (&s.path, s.status) {
                (Some(_), _) => {
                    solved += 1;
                    if dt > slowest.0 {
                        slowest = (dt, n + 1);
                    }
                }
                (None, Status::Complete) => unsolvable.push(n + 1),
                (None, Status::Stopped) => timeout.push(n + 1),
            }
        }
        eprintln!(
            "{file}: {} codes, {solved} solved, {} proved unsolvable, {} timed out ({ms} ms each); \
             {:?} in all, slowest solved {:?} (line {})",
            lines.len(),
            unsolvable.len(),
            timeout.len(),
            t0.elapsed(),
            slowest.0,
            slowest.1
        );
        eprintln!("  unsolvable lines: {unsolvable:?}");
        eprintln!("  timed-out lines: {timeout:?}");
    }
}
